// Vector min/max kernels (see min_max_simd.h). Compiled for AVX-512F or
// AVX2 function by function (as bloom/bloom_insert_simd.cc and
// cdc/gear_simd.cc do); called only with the ISA MinMaxIsaOfCpu() names.
#include "quiver/parquet/statistics/min_max_simd.h"

// GCC 12's _mm512_min_ps / _mm512_max_ps start from _mm512_undefined_ps(),
// which -Wmaybe-uninitialized reports as read uninitialised (a false
// positive: the masked-off lanes are none).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstring>

namespace quiver::parquet::internal {

MinMaxIsa MinMaxIsaOfCpu() {
  static const MinMaxIsa isa = [] {
    __builtin_cpu_init();  // (in case this runs before libgcc's own constructor)
    if (__builtin_cpu_supports("avx512f")) return MinMaxIsa::kAvx512;
    if (__builtin_cpu_supports("avx2")) return MinMaxIsa::kAvx2;
    return MinMaxIsa::kNone;
  }();
  return isa;
}

namespace {

// Four vectors a step (two running minima and maxima: the loads, not the
// min/max latency, bound the loop), then one vector a step, then the rest
// one value at a time. LOAD(p), MIN, MAX: the vector operations; the
// lanes are folded through memory at the end (once per call).
#define QUIVER_MINMAX_INT_BODY(VEC, LANES, SET1, LOAD, MIN, MAX)                 \
  constexpr int64_t k = LANES;                                                   \
  VEC l0 = SET1(*lo), l1 = l0, h0 = SET1(*hi), h1 = h0;                          \
  int64_t i = 0;                                                                 \
  for (; i + 4 * k <= n; i += 4 * k) {                                           \
    const VEC a = LOAD(v + i), b = LOAD(v + i + k);                              \
    const VEC c = LOAD(v + i + 2 * k), d = LOAD(v + i + 3 * k);                  \
    l0 = MIN(l0, MIN(a, b));                                                     \
    l1 = MIN(l1, MIN(c, d));                                                     \
    h0 = MAX(h0, MAX(a, b));                                                     \
    h1 = MAX(h1, MAX(c, d));                                                     \
  }                                                                              \
  for (; i + k <= n; i += k) {                                                   \
    const VEC a = LOAD(v + i);                                                   \
    l0 = MIN(l0, a);                                                             \
    h0 = MAX(h0, a);                                                             \
  }                                                                              \
  T ls[k], hs[k];                                                                \
  std::memcpy(ls, &l0, sizeof(VEC));                                             \
  std::memcpy(hs, &h0, sizeof(VEC));                                             \
  T lb[k], hb[k];                                                                \
  std::memcpy(lb, &l1, sizeof(VEC));                                             \
  std::memcpy(hb, &h1, sizeof(VEC));                                             \
  T l = *lo, h = *hi;                                                            \
  for (int64_t j = 0; j < k; ++j) {                                              \
    l = std::min({l, ls[j], lb[j]});                                             \
    h = std::max({h, hs[j], hb[j]});                                             \
  }                                                                              \
  *lo = l;                                                                       \
  *hi = h;                                                                       \
  MinMaxIntScalar(v + i, n - i, lo, hi);

// --- AVX-512F ---------------------------------------------------------------

#define QUIVER_AVX512 __attribute__((target("avx512f")))
#define QUIVER_AVX2 __attribute__((target("avx2")))

#define QUIVER_LOAD512(p) _mm512_loadu_si512(static_cast<const void*>(p))
#define QUIVER_SET1_512_32(x) _mm512_set1_epi32(static_cast<int32_t>(x))
#define QUIVER_SET1_512_64(x) _mm512_set1_epi64(static_cast<long long>(x))

QUIVER_AVX512 void MinMax512(const int32_t* v, int64_t n, int32_t* lo, int32_t* hi) {
  using T = int32_t;
  QUIVER_MINMAX_INT_BODY(__m512i, 16, QUIVER_SET1_512_32, QUIVER_LOAD512, _mm512_min_epi32,
                         _mm512_max_epi32)
}
QUIVER_AVX512 void MinMax512(const uint32_t* v, int64_t n, uint32_t* lo, uint32_t* hi) {
  using T = uint32_t;
  QUIVER_MINMAX_INT_BODY(__m512i, 16, QUIVER_SET1_512_32, QUIVER_LOAD512, _mm512_min_epu32,
                         _mm512_max_epu32)
}
QUIVER_AVX512 void MinMax512(const int64_t* v, int64_t n, int64_t* lo, int64_t* hi) {
  using T = int64_t;
  QUIVER_MINMAX_INT_BODY(__m512i, 8, QUIVER_SET1_512_64, QUIVER_LOAD512, _mm512_min_epi64,
                         _mm512_max_epi64)
}
QUIVER_AVX512 void MinMax512(const uint64_t* v, int64_t n, uint64_t* lo, uint64_t* hi) {
  using T = uint64_t;
  QUIVER_MINMAX_INT_BODY(__m512i, 8, QUIVER_SET1_512_64, QUIVER_LOAD512, _mm512_min_epu64,
                         _mm512_max_epu64)
}

// --- AVX2 -------------------------------------------------------------------

#define QUIVER_LOAD256(p) _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))
#define QUIVER_SET1_256_32(x) _mm256_set1_epi32(static_cast<int32_t>(x))
#define QUIVER_SET1_256_64(x) _mm256_set1_epi64x(static_cast<long long>(x))

// AVX2 has no 64-bit min/max: a compare and a blend.
QUIVER_AVX2 inline __m256i Min64(__m256i a, __m256i b) {
  return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}
QUIVER_AVX2 inline __m256i Max64(__m256i a, __m256i b) {
  return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(a, b));
}
// Unsigned 64-bit order is the signed order of the values with the sign
// bit flipped.
QUIVER_AVX2 inline __m256i Flip64(__m256i a) {
  return _mm256_xor_si256(a, _mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ull)));
}
QUIVER_AVX2 inline __m256i MinU64(__m256i a, __m256i b) {
  return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(Flip64(a), Flip64(b)));
}
QUIVER_AVX2 inline __m256i MaxU64(__m256i a, __m256i b) {
  return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(Flip64(a), Flip64(b)));
}

QUIVER_AVX2 void MinMax256(const int32_t* v, int64_t n, int32_t* lo, int32_t* hi) {
  using T = int32_t;
  QUIVER_MINMAX_INT_BODY(__m256i, 8, QUIVER_SET1_256_32, QUIVER_LOAD256, _mm256_min_epi32,
                         _mm256_max_epi32)
}
QUIVER_AVX2 void MinMax256(const uint32_t* v, int64_t n, uint32_t* lo, uint32_t* hi) {
  using T = uint32_t;
  QUIVER_MINMAX_INT_BODY(__m256i, 8, QUIVER_SET1_256_32, QUIVER_LOAD256, _mm256_min_epu32,
                         _mm256_max_epu32)
}
QUIVER_AVX2 void MinMax256(const int64_t* v, int64_t n, int64_t* lo, int64_t* hi) {
  using T = int64_t;
  QUIVER_MINMAX_INT_BODY(__m256i, 4, QUIVER_SET1_256_64, QUIVER_LOAD256, Min64, Max64)
}
QUIVER_AVX2 void MinMax256(const uint64_t* v, int64_t n, uint64_t* lo, uint64_t* hi) {
  using T = uint64_t;
  QUIVER_MINMAX_INT_BODY(__m256i, 4, QUIVER_SET1_256_64, QUIVER_LOAD256, MinU64, MaxU64)
}

// --- Floats -----------------------------------------------------------------
// MIN(x, l) is (x < l) ? x : l and MAX(x, h) is (x > h) ? x : h, lane by
// lane (MINPS/MAXPS return the second operand when either is NaN or both
// are zeros): the scalar loop's own choices. NaNs are counted from an
// unordered self-compare's mask.

#define QUIVER_MINMAX_FLOAT_BODY(VEC, LANES, SET1, LOAD, MIN, MAX, NANMASK)     \
  constexpr int64_t k = LANES;                                                  \
  VEC l0 = SET1(*lo), l1 = l0, h0 = SET1(*hi), h1 = h0;                         \
  int64_t nan = 0;                                                              \
  int64_t i = 0;                                                                \
  for (; i + 2 * k <= n; i += 2 * k) {                                          \
    const VEC a = LOAD(v + i), b = LOAD(v + i + k);                             \
    nan += __builtin_popcount(NANMASK(a)) + __builtin_popcount(NANMASK(b));     \
    l0 = MIN(a, l0);                                                            \
    l1 = MIN(b, l1);                                                            \
    h0 = MAX(a, h0);                                                            \
    h1 = MAX(b, h1);                                                            \
  }                                                                             \
  T ls[2 * k], hs[2 * k];                                                       \
  std::memcpy(ls, &l0, sizeof(VEC));                                            \
  std::memcpy(ls + k, &l1, sizeof(VEC));                                        \
  std::memcpy(hs, &h0, sizeof(VEC));                                            \
  std::memcpy(hs + k, &h1, sizeof(VEC));                                        \
  T l = *lo, h = *hi;                                                           \
  for (int64_t j = 0; j < 2 * k; ++j) {                                         \
    l = ls[j] < l ? ls[j] : l;                                                  \
    h = hs[j] > h ? hs[j] : h;                                                  \
  }                                                                             \
  *lo = l;                                                                      \
  *hi = h;                                                                      \
  *nans += nan;                                                                 \
  MinMaxFloatScalar(v + i, n - i, lo, hi, nans);

#define QUIVER_NAN512_PS(x) static_cast<unsigned>(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q))
#define QUIVER_NAN512_PD(x) static_cast<unsigned>(_mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q))
#define QUIVER_NAN256_PS(x) static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)))
#define QUIVER_NAN256_PD(x) static_cast<unsigned>(_mm256_movemask_pd(_mm256_cmp_pd(x, x, _CMP_UNORD_Q)))

QUIVER_AVX512 void MinMax512(const float* v, int64_t n, float* lo, float* hi, int64_t* nans) {
  using T = float;
  QUIVER_MINMAX_FLOAT_BODY(__m512, 16, _mm512_set1_ps, _mm512_loadu_ps, _mm512_min_ps, _mm512_max_ps,
                           QUIVER_NAN512_PS)
}
QUIVER_AVX512 void MinMax512(const double* v, int64_t n, double* lo, double* hi, int64_t* nans) {
  using T = double;
  QUIVER_MINMAX_FLOAT_BODY(__m512d, 8, _mm512_set1_pd, _mm512_loadu_pd, _mm512_min_pd, _mm512_max_pd,
                           QUIVER_NAN512_PD)
}
QUIVER_AVX2 void MinMax256(const float* v, int64_t n, float* lo, float* hi, int64_t* nans) {
  using T = float;
  QUIVER_MINMAX_FLOAT_BODY(__m256, 8, _mm256_set1_ps, _mm256_loadu_ps, _mm256_min_ps, _mm256_max_ps,
                           QUIVER_NAN256_PS)
}
QUIVER_AVX2 void MinMax256(const double* v, int64_t n, double* lo, double* hi, int64_t* nans) {
  using T = double;
  QUIVER_MINMAX_FLOAT_BODY(__m256d, 4, _mm256_set1_pd, _mm256_loadu_pd, _mm256_min_pd, _mm256_max_pd,
                           QUIVER_NAN256_PD)
}

}  // namespace

template <typename T>
void MinMaxInt(MinMaxIsa isa, const T* v, int64_t n, T* lo, T* hi) {
  switch (isa) {
    case MinMaxIsa::kAvx512: return MinMax512(v, n, lo, hi);
    case MinMaxIsa::kAvx2: return MinMax256(v, n, lo, hi);
    case MinMaxIsa::kNone: return MinMaxIntScalar(v, n, lo, hi);
  }
}

template <typename T>
void MinMaxFloat(MinMaxIsa isa, const T* v, int64_t n, T* lo, T* hi, int64_t* nans) {
  switch (isa) {
    case MinMaxIsa::kAvx512: return MinMax512(v, n, lo, hi, nans);
    case MinMaxIsa::kAvx2: return MinMax256(v, n, lo, hi, nans);
    case MinMaxIsa::kNone: return MinMaxFloatScalar(v, n, lo, hi, nans);
  }
}

template void MinMaxInt(MinMaxIsa, const int32_t*, int64_t, int32_t*, int32_t*);
template void MinMaxInt(MinMaxIsa, const uint32_t*, int64_t, uint32_t*, uint32_t*);
template void MinMaxInt(MinMaxIsa, const int64_t*, int64_t, int64_t*, int64_t*);
template void MinMaxInt(MinMaxIsa, const uint64_t*, int64_t, uint64_t*, uint64_t*);
template void MinMaxFloat(MinMaxIsa, const float*, int64_t, float*, float*, int64_t*);
template void MinMaxFloat(MinMaxIsa, const double*, int64_t, double*, double*, int64_t*);

}  // namespace quiver::parquet::internal
