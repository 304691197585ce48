// AVX2 NaN tests (see null_predicates_simd.h): an unordered self-compare
// per vector, its sign bits gathered by movemask, 64 results to a word.
#include "quiver/compute/null_predicates_simd.h"

#include <immintrin.h>

#include "quiver/util/bit_util.h"

namespace quiver::compute::internal {

#define QUIVER_AVX2 __attribute__((target("avx2")))

namespace {

// Lanes of one vector: 4 doubles or 8 floats, tested by one compare.
QUIVER_AVX2 inline uint64_t NanMask(const double* v) {
  const __m256d x = _mm256_loadu_pd(v);
  return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_cmp_pd(x, x, _CMP_UNORD_Q)));
}
QUIVER_AVX2 inline uint64_t NanMask(const float* v) {
  const __m256 x = _mm256_loadu_ps(v);
  return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)));
}

template <typename T>
QUIVER_AVX2 void NanBits(const T* v, int64_t n, uint8_t* out) {
  constexpr int kLanes = 32 / sizeof(T);
  for (int64_t i = 0; i < n; i += 64) {
    uint64_t w = 0;
    for (int k = 0; k < 64 / kLanes; ++k) w |= NanMask(v + i + kLanes * k) << (kLanes * k);
    bit_util::StoreLittleEndian(out + i / 8, w);
  }
}

}  // namespace

void NanBitsAvx2(const double* v, int64_t n, uint8_t* out) { NanBits(v, n, out); }
void NanBitsAvx2(const float* v, int64_t n, uint8_t* out) { NanBits(v, n, out); }

}  // namespace quiver::compute::internal
