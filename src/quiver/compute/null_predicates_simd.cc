// AVX2 NaN tests (see null_predicates_simd.h): an unordered self-compare
// per vector, its sign bits gathered by movemask, 64 results to a word.
#include "quiver/compute/null_predicates_simd.h"

#include <immintrin.h>

#include "quiver/util/bit_util.h"

namespace quiver::compute::internal {

#define QUIVER_AVX2 __attribute__((target("avx2")))

QUIVER_AVX2 void NanBitsAvx2(const double* v, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; i += 64) {
    uint64_t w = 0;
    for (int k = 0; k < 16; ++k) {
      const __m256d x = _mm256_loadu_pd(v + i + 4 * k);
      const auto m = static_cast<uint32_t>(_mm256_movemask_pd(_mm256_cmp_pd(x, x, _CMP_UNORD_Q)));
      w |= static_cast<uint64_t>(m) << (4 * k);
    }
    bit_util::StoreLittleEndian(out + i / 8, w);
  }
}

QUIVER_AVX2 void NanBitsAvx2(const float* v, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; i += 64) {
    uint64_t w = 0;
    for (int k = 0; k < 8; ++k) {
      const __m256 x = _mm256_loadu_ps(v + i + 8 * k);
      const auto m = static_cast<uint32_t>(_mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)));
      w |= static_cast<uint64_t>(m) << (8 * k);
    }
    bit_util::StoreLittleEndian(out + i / 8, w);
  }
}

}  // namespace quiver::compute::internal
