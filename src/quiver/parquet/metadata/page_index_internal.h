// The page index of a column chunk (apache/parquet-format PageIndex.md):
// its ColumnIndex (per-page min/max, null pages and counts) and OffsetIndex
// (per-page location and first row), Thrift structs stored between the
// column data and the footer, located by the ColumnChunk's
// column_index_offset/length and offset_index_offset/length.
//
// Untrusted: offset and length must both be present (or both absent: the
// chunk has none), lie in the data region [4, data_end), and decode under
// the Thrift limits; otherwise Invalid ("column index [offset, +length)
// lies outside the data region [4, end)" and the like).
#pragma once

#include <cstdint>
#include <optional>

#include "quiver/io/interfaces.h"
#include "quiver/parquet/encryption/file_decryptor_internal.h"
#include "quiver/parquet/metadata/page_index.h"
#include "quiver/parquet/metadata/statistics_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// `decryptor`: the chunk's (an encrypted chunk's index is one module,
// decrypted before it is decoded); nullptr for a plaintext chunk.
Result<std::optional<format::ColumnIndex>> ReadColumnIndex(
    const io::RandomAccessFile& file, const format::ColumnChunk& chunk, int64_t data_end,
    const thrift::ThriftLimits& limits = {},
    const encryption::ChunkDecryptor* decryptor = nullptr);

Result<std::optional<format::OffsetIndex>> ReadOffsetIndex(
    const io::RandomAccessFile& file, const format::ColumnChunk& chunk, int64_t data_end,
    const thrift::ThriftLimits& limits = {},
    const encryption::ChunkDecryptor* decryptor = nullptr);

// The typed indexes (page_index.h) of the Thrift ones. Invalid when the
// ColumnIndex's lists (null_pages, min_values, max_values, and null_counts
// / nan_counts when present) differ in length, naming the lengths.
Result<ColumnIndex> MakeColumnIndex(const format::ColumnIndex& index, const LeafAnnotations& leaf);
OffsetIndex MakeOffsetIndex(const format::OffsetIndex& index);

}  // namespace quiver::parquet
