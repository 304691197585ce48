// AVX2 batch insertion for the split-block Bloom filter. The eight words of
// a block are one 256-bit vector (x86 is little-endian, as the bitset is):
// bit (key * kSalt[i]) >> 27 of word i is set by a vector multiply by the
// eight salts, a shift right by 27 and a variable shift left of ones, the
// same computation as BloomFilter::InsertHash (the split-block filter's
// design: Putze et al., "Cache-, Hash- and Space-Efficient Bloom Filters";
// BloomFilter.md of apache/parquet-format). The block of the hash eight
// places ahead is prefetched: a filter sized for a million values is a
// megabyte, past the L1 and L2 caches, and the inserts are independent.
#include "quiver/parquet/bloom/bloom_insert_simd.h"

#include <immintrin.h>

#include "quiver/parquet/bloom/bloom_filter.h"

namespace quiver::parquet::internal {

bool BloomInsertSimdEnabled() {
  static const bool avx2 = [] {
    __builtin_cpu_init();  // (in case this runs before libgcc's own constructor)
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return avx2;
}

// Compiled for AVX2 function by function (as cdc/gear_simd.cc does for
// AVX-512); called only where BloomInsertSimdEnabled().
__attribute__((target("avx2"))) void BloomInsertHashesAvx2(uint8_t* bitset, uint64_t num_blocks,
                                                             const uint64_t* hashes, int64_t n) {
  constexpr int64_t kAhead = 8;
  const auto& s = BloomFilter::kSalt;
  const __m256i salt = _mm256_setr_epi32(
      static_cast<int>(s[0]), static_cast<int>(s[1]), static_cast<int>(s[2]),
      static_cast<int>(s[3]), static_cast<int>(s[4]), static_cast<int>(s[5]),
      static_cast<int>(s[6]), static_cast<int>(s[7]));
  const __m256i ones = _mm256_set1_epi32(1);
  for (int64_t i = 0; i < n; ++i) {
    if (i + kAhead < n) {
      __builtin_prefetch(bitset + BloomFilter::BlockOffsetOf(hashes[i + kAhead], num_blocks), 1);
    }
    const uint64_t hash = hashes[i];
    const __m256i key = _mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(hash)));
    const __m256i bit = _mm256_srli_epi32(_mm256_mullo_epi32(key, salt), 27);
    auto* block = reinterpret_cast<__m256i*>(bitset + BloomFilter::BlockOffsetOf(hash, num_blocks));
    _mm256_storeu_si256(block, _mm256_or_si256(_mm256_loadu_si256(block),
                                               _mm256_sllv_epi32(ones, bit)));
  }
}

}  // namespace quiver::parquet::internal
