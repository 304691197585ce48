// Batch insertion into a split-block Bloom filter (bloom_filter.h) with
// AVX2: one block's eight salted bits in one 256-bit multiply, shift and OR.
// Internal to the bloom module.
#pragma once

#include <cstdint>

namespace quiver::parquet::internal {

// True when the CPU runs the AVX2 kernel (checked once).
bool BloomInsertSimdEnabled();

// Inserts hashes[0, n) into the little-endian bitset of `num_blocks` 32-byte
// blocks, exactly as BloomFilter::InsertHash does one at a time. Only call
// when BloomInsertSimdEnabled().
void BloomInsertHashesAvx2(uint8_t* bitset, uint64_t num_blocks, const uint64_t* hashes,
                           int64_t n);

}  // namespace quiver::parquet::internal
