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
#include "quiver/parquet/thrift/compact_protocol.h"
#include "quiver/parquet/thrift/parquet_types.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

Result<std::optional<format::ColumnIndex>> ReadColumnIndex(
    const io::RandomAccessFile& file, const format::ColumnChunk& chunk, int64_t data_end,
    const thrift::ThriftLimits& limits = {});

Result<std::optional<format::OffsetIndex>> ReadOffsetIndex(
    const io::RandomAccessFile& file, const format::ColumnChunk& chunk, int64_t data_end,
    const thrift::ThriftLimits& limits = {});

}  // namespace quiver::parquet
