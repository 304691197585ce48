// A column chunk's bloom filter (apache/parquet-format BloomFilter.md): a
// Thrift BloomFilterHeader followed by the bitset, at the ColumnMetaData's
// bloom_filter_offset (bloom_filter_length, when present, covers both).
//
// Untrusted: the header and the bitset must lie in the data region
// [4, data_end) (and within bloom_filter_length when it is given); the
// header must name the only algorithm, hash and compression the spec
// defines and a bitset size in [32 B, 128 MiB] (parquet::BloomFilter's
// Deserialize checks these). Only the bytes the filter needs are read:
// first a small window for the header, then header + bitset.
#pragma once

#include <cstdint>
#include <optional>

#include "quiver/io/interfaces.h"
#include "quiver/parquet/encryption/file_decryptor_internal.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// The filter, or nullopt when the chunk has none.
// `decryptor`: an encrypted chunk's (header and bitset are two modules).
Result<std::optional<BloomFilter>> ReadBloomFilter(
    const io::RandomAccessFile& file, const format::ColumnMetaData& metadata, int64_t data_end,
    MemoryPool* pool = DefaultMemoryPool(),
    const encryption::ChunkDecryptor* decryptor = nullptr);

}  // namespace quiver::parquet
