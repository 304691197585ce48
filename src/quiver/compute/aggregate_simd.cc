// AVX2 loops of the aggregates (see aggregate_simd.h). Each function is
// compiled for AVX2 alone (target attribute), so the rest of the library
// keeps its baseline flags; aggregate.cc calls them only at SimdLevel
// kAvx2 or above.
#include "quiver/compute/aggregate_simd.h"

// GCC 12's _mm512_min/max intrinsics start from _mm512_undefined_*(),
// which -Wmaybe-uninitialized reports (a false positive).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace quiver::compute::internal {

#define QUIVER_AVX2 __attribute__((target("avx2")))

namespace {

// --- Pairwise-summation blocks ------------------------------------------------

// Four values as doubles (exactly: every type here converts exactly).
QUIVER_AVX2 inline __m256d Load4(const double* p) { return _mm256_loadu_pd(p); }
QUIVER_AVX2 inline __m256d Load4(const int32_t* p) {
  return _mm256_cvtepi32_pd(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
QUIVER_AVX2 inline __m256d Load4(const uint32_t* p) {
  // u - 2^31 as int32 converts exactly; adding 2^31 back is exact too.
  const __m128i x = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                                  _mm_set1_epi32(static_cast<int32_t>(0x80000000u)));
  return _mm256_add_pd(_mm256_cvtepi32_pd(x), _mm256_set1_pd(2147483648.0));
}
QUIVER_AVX2 inline __m256d Load4(const int16_t* p) {
  return _mm256_cvtepi32_pd(_mm_cvtepi16_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}
QUIVER_AVX2 inline __m256d Load4(const uint16_t* p) {
  return _mm256_cvtepi32_pd(_mm_cvtepu16_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}
QUIVER_AVX2 inline __m128i Load4Bytes(const void* p) {
  int32_t w;
  std::memcpy(&w, p, 4);
  return _mm_cvtsi32_si128(w);
}
QUIVER_AVX2 inline __m256d Load4(const int8_t* p) {
  return _mm256_cvtepi32_pd(_mm_cvtepi8_epi32(Load4Bytes(p)));
}
QUIVER_AVX2 inline __m256d Load4(const uint8_t* p) {
  return _mm256_cvtepi32_pd(_mm_cvtepu8_epi32(Load4Bytes(p)));
}

// acc + the 4 x 4 tile of values j..j+3 of four blocks of 16 (v points at
// value j of the first block): the tile is transposed so that lane k adds
// block k's values j, j + 1, j + 2, j + 3 in order.
template <typename T>
QUIVER_AVX2 inline __m256d AddTile(__m256d acc, const T* v) {
  const __m256d r0 = Load4(v);
  const __m256d r1 = Load4(v + kPairwiseBlock);
  const __m256d r2 = Load4(v + 2 * kPairwiseBlock);
  const __m256d r3 = Load4(v + 3 * kPairwiseBlock);
  const __m256d t0 = _mm256_unpacklo_pd(r0, r1);  // r0[0] r1[0] r0[2] r1[2]
  const __m256d t1 = _mm256_unpackhi_pd(r0, r1);  // r0[1] r1[1] r0[3] r1[3]
  const __m256d t2 = _mm256_unpacklo_pd(r2, r3);
  const __m256d t3 = _mm256_unpackhi_pd(r2, r3);
  acc = _mm256_add_pd(acc, _mm256_permute2f128_pd(t0, t2, 0x20));  // value j
  acc = _mm256_add_pd(acc, _mm256_permute2f128_pd(t1, t3, 0x20));  // value j + 1
  acc = _mm256_add_pd(acc, _mm256_permute2f128_pd(t0, t2, 0x31));  // value j + 2
  acc = _mm256_add_pd(acc, _mm256_permute2f128_pd(t1, t3, 0x31));  // value j + 3
  return acc;
}

// Groups of four blocks, four groups a step: their four chains of dependent
// additions interleave, so the adder's latency is hidden.
template <typename T>
QUIVER_AVX2 void BlockSumsImpl(const T* v, int64_t groups, double* out) {
  constexpr int64_t kGroup = 4 * kPairwiseBlock;
  int64_t g = 0;
  for (; g + 4 <= groups; g += 4) {
    const T* a = v + kGroup * g;
    __m256d x0 = _mm256_setzero_pd(), x1 = x0, x2 = x0, x3 = x0;
    for (int j = 0; j < kPairwiseBlock; j += 4) {
      x0 = AddTile(x0, a + j);
      x1 = AddTile(x1, a + kGroup + j);
      x2 = AddTile(x2, a + 2 * kGroup + j);
      x3 = AddTile(x3, a + 3 * kGroup + j);
    }
    _mm256_storeu_pd(out + 4 * g, x0);
    _mm256_storeu_pd(out + 4 * g + 4, x1);
    _mm256_storeu_pd(out + 4 * g + 8, x2);
    _mm256_storeu_pd(out + 4 * g + 12, x3);
  }
  for (; g < groups; ++g) {
    const T* a = v + kGroup * g;
    __m256d x = _mm256_setzero_pd();
    for (int j = 0; j < kPairwiseBlock; j += 4) x = AddTile(x, a + j);
    _mm256_storeu_pd(out + 4 * g, x);
  }
}

// Lane masks for 4 validity bits (bit k set: lane k all ones), so an AND
// turns a null slot's value (whatever it holds, NaN included) into +0.0.
struct LaneMaskTable {
  alignas(32) int64_t m[16][4];
};
constexpr LaneMaskTable MakeLaneMasks() {
  LaneMaskTable t{};
  for (int bits = 0; bits < 16; ++bits) {
    for (int k = 0; k < 4; ++k) t.m[bits][k] = ((bits >> k) & 1) != 0 ? -1 : 0;
  }
  return t;
}
constexpr LaneMaskTable kLaneMasks = MakeLaneMasks();

// Four values as doubles, the null ones (clear bits of `bits`' low four)
// as +0.0.
template <typename T>
QUIVER_AVX2 inline __m256d Load4Masked(const T* p, uint64_t bits) {
  const __m256d mask = _mm256_castsi256_pd(
      _mm256_load_si256(reinterpret_cast<const __m256i*>(kLaneMasks.m[bits & 15])));
  return _mm256_and_pd(Load4(p), mask);
}

// The sum of a group of 128 slots as MaskedGroupSums* defines it:
// acc_lo / acc_hi hold blocks 0-3 / 4-7; c_k = b_k + b_(k+4), d_k = c_k +
// c_(k+2), the sum d_0 + d_1.
QUIVER_AVX2 inline double GroupTree(__m256d lo, __m256d hi) {
  const __m256d c = _mm256_add_pd(lo, hi);
  const __m128d d = _mm_add_pd(_mm256_castpd256_pd128(c), _mm256_extractf128_pd(c, 1));
  return _mm_cvtsd_f64(d) + _mm_cvtsd_f64(_mm_unpackhi_pd(d, d));
}

// Four groups a step (eight chains of dependent additions in flight).
template <typename T>
QUIVER_AVX2 void MaskedGroupSumsImpl(const T* v, const uint64_t* masks, int64_t groups,
                                     double* out) {
  constexpr int64_t kGroup = 128;
  int64_t g = 0;
  for (; g + 4 <= groups; g += 4) {
    // (named accumulators: GCC keeps an array of vectors in memory)
    __m256d l0 = _mm256_setzero_pd(), l1 = l0, l2 = l0, l3 = l0, h0 = l0, h1 = l0, h2 = l0, h3 = l0;
    const T* a = v + kGroup * g;
    for (int half = 0; half < 2; ++half) {
      const uint64_t m0 = masks[2 * g + half], m1 = masks[2 * g + 2 + half];
      const uint64_t m2 = masks[2 * g + 4 + half], m3 = masks[2 * g + 6 + half];
#pragma GCC unroll 8
      for (int t = 0; t < 8; ++t) {
        const int s = 64 * half + 8 * t;
        l0 = _mm256_add_pd(l0, Load4Masked(a + s, m0 >> (8 * t)));
        h0 = _mm256_add_pd(h0, Load4Masked(a + s + 4, m0 >> (8 * t + 4)));
        l1 = _mm256_add_pd(l1, Load4Masked(a + kGroup + s, m1 >> (8 * t)));
        h1 = _mm256_add_pd(h1, Load4Masked(a + kGroup + s + 4, m1 >> (8 * t + 4)));
        l2 = _mm256_add_pd(l2, Load4Masked(a + 2 * kGroup + s, m2 >> (8 * t)));
        h2 = _mm256_add_pd(h2, Load4Masked(a + 2 * kGroup + s + 4, m2 >> (8 * t + 4)));
        l3 = _mm256_add_pd(l3, Load4Masked(a + 3 * kGroup + s, m3 >> (8 * t)));
        h3 = _mm256_add_pd(h3, Load4Masked(a + 3 * kGroup + s + 4, m3 >> (8 * t + 4)));
      }
    }
    out[g] = GroupTree(l0, h0);
    out[g + 1] = GroupTree(l1, h1);
    out[g + 2] = GroupTree(l2, h2);
    out[g + 3] = GroupTree(l3, h3);
  }
  for (; g < groups; ++g) {
    __m256d lo = _mm256_setzero_pd(), hi = lo;
    for (int half = 0; half < 2; ++half) {
      const uint64_t m = masks[2 * g + half];
#pragma GCC unroll 8
      for (int t = 0; t < 8; ++t) {
        const T* a = v + kGroup * g + 64 * half + 8 * t;
        lo = _mm256_add_pd(lo, Load4Masked(a, m >> (8 * t)));
        hi = _mm256_add_pd(hi, Load4Masked(a + 4, m >> (8 * t + 4)));
      }
    }
    out[g] = GroupTree(lo, hi);
  }
}

#define QUIVER_AVX512_BW __attribute__((target("avx2,avx512f,avx512vl,avx512bw")))

// Eight slots as doubles, the null ones +0.0 (zero-masked loads).
QUIVER_AVX512_BW inline __m512d Load8Masked(const double* p, __mmask8 k) {
  return _mm512_maskz_loadu_pd(k, p);
}
QUIVER_AVX512_BW inline __m512d Load8Masked(const int32_t* p, __mmask8 k) {
  return _mm512_cvtepi32_pd(_mm256_maskz_loadu_epi32(k, p));
}
QUIVER_AVX512_BW inline __m512d Load8Masked(const uint32_t* p, __mmask8 k) {
  return _mm512_cvtepu32_pd(_mm256_maskz_loadu_epi32(k, p));
}
QUIVER_AVX512_BW inline __m512d Load8Masked(const int16_t* p, __mmask8 k) {
  return _mm512_cvtepi32_pd(_mm256_cvtepi16_epi32(_mm_maskz_loadu_epi16(k, p)));
}
QUIVER_AVX512_BW inline __m512d Load8Masked(const uint16_t* p, __mmask8 k) {
  return _mm512_cvtepi32_pd(_mm256_cvtepu16_epi32(_mm_maskz_loadu_epi16(k, p)));
}
QUIVER_AVX512_BW inline __m512d Load8Masked(const int8_t* p, __mmask8 k) {
  return _mm512_cvtepi32_pd(_mm256_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, p)));
}
QUIVER_AVX512_BW inline __m512d Load8Masked(const uint8_t* p, __mmask8 k) {
  return _mm512_cvtepi32_pd(_mm256_cvtepu8_epi32(_mm_maskz_loadu_epi8(k, p)));
}

QUIVER_AVX512_BW inline double GroupTree512(__m512d acc) {
  const __m256d c = _mm256_add_pd(_mm512_castpd512_pd256(acc), _mm512_extractf64x4_pd(acc, 1));
  const __m128d d = _mm_add_pd(_mm256_castpd256_pd128(c), _mm256_extractf128_pd(c, 1));
  return _mm_cvtsd_f64(d) + _mm_cvtsd_f64(_mm_unpackhi_pd(d, d));
}

// The AVX-512 loop: one lane per block, the validity byte as the load mask.
template <typename T>
QUIVER_AVX512_BW void MaskedGroupSumsImpl512(const T* v, const uint64_t* masks, int64_t groups,
                                          double* out) {
  constexpr int64_t kGroup = 128;
  int64_t g = 0;
  for (; g + 4 <= groups; g += 4) {
    __m512d x0 = _mm512_setzero_pd(), x1 = x0, x2 = x0, x3 = x0;  // (named: see above)
    const T* a = v + kGroup * g;
    for (int half = 0; half < 2; ++half) {
      const uint64_t m0 = masks[2 * g + half], m1 = masks[2 * g + 2 + half];
      const uint64_t m2 = masks[2 * g + 4 + half], m3 = masks[2 * g + 6 + half];
#pragma GCC unroll 8
      for (int t = 0; t < 8; ++t) {
        const int s = 64 * half + 8 * t;
        x0 = _mm512_add_pd(x0, Load8Masked(a + s, static_cast<__mmask8>(m0 >> (8 * t))));
        x1 = _mm512_add_pd(x1, Load8Masked(a + kGroup + s, static_cast<__mmask8>(m1 >> (8 * t))));
        x2 = _mm512_add_pd(x2, Load8Masked(a + 2 * kGroup + s, static_cast<__mmask8>(m2 >> (8 * t))));
        x3 = _mm512_add_pd(x3, Load8Masked(a + 3 * kGroup + s, static_cast<__mmask8>(m3 >> (8 * t))));
      }
    }
    out[g] = GroupTree512(x0);
    out[g + 1] = GroupTree512(x1);
    out[g + 2] = GroupTree512(x2);
    out[g + 3] = GroupTree512(x3);
  }
  for (; g < groups; ++g) {
    __m512d acc = _mm512_setzero_pd();
    for (int half = 0; half < 2; ++half) {
      const uint64_t m = masks[2 * g + half];
#pragma GCC unroll 8
      for (int t = 0; t < 8; ++t) {
        acc = _mm512_add_pd(acc, Load8Masked(v + kGroup * g + 64 * half + 8 * t,
                                             static_cast<__mmask8>(m >> (8 * t))));
      }
    }
    out[g] = GroupTree512(acc);
  }
}

// --- Wrapping integer sums -------------------------------------------------------

QUIVER_AVX2 inline uint64_t HorizontalSum(__m256i acc) {
  uint64_t lanes[4];
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes), acc);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

QUIVER_AVX2 inline __m256i LoadU(const void* p) {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

template <typename T>
uint64_t ScalarTail(const T* v, int64_t n) {
  uint64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_signed_v<T>) {
      sum += static_cast<uint64_t>(static_cast<int64_t>(v[i]));
    } else {
      sum += static_cast<uint64_t>(v[i]);
    }
  }
  return sum;
}

// Bytes: |x - 0| summed eight to a lane by VPSADBW; int8 is biased to
// uint8 (x ^ 0x80 = x + 128) and the bias taken off at the end.
template <typename T>
QUIVER_AVX2 uint64_t SumBytes(const T* v, int64_t n) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i bias = _mm256_set1_epi8(static_cast<char>(0x80));
  __m256i acc = _mm256_setzero_si256();
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i x = LoadU(v + i);
    if constexpr (std::is_signed_v<T>) x = _mm256_xor_si256(x, bias);
    acc = _mm256_add_epi64(acc, _mm256_sad_epu8(x, zero));
  }
  uint64_t sum = HorizontalSum(acc);
  if constexpr (std::is_signed_v<T>) sum -= static_cast<uint64_t>(i) * 128u;
  return sum + ScalarTail(v + i, n - i);
}

// 16-bit words: VPMADDWD by 1 adds pairs into int32 lanes, which gather at
// most 2^15 steps (each adds at most 2^16 in magnitude) before they are
// widened into the int64 total; uint16 is biased to int16 (x ^ 0x8000 =
// x - 32768) and the bias added back at the end.
template <typename T>
QUIVER_AVX2 uint64_t SumWords(const T* v, int64_t n) {
  const __m256i ones = _mm256_set1_epi16(1);
  const __m256i bias = _mm256_set1_epi16(static_cast<int16_t>(0x8000));
  __m256i total = _mm256_setzero_si256();
  int64_t i = 0;
  while (i + 16 <= n) {
    __m256i acc32 = _mm256_setzero_si256();
    for (int steps = 0; steps < (1 << 14) && i + 16 <= n; ++steps, i += 16) {
      __m256i x = LoadU(v + i);
      if constexpr (std::is_unsigned_v<T>) x = _mm256_xor_si256(x, bias);
      acc32 = _mm256_add_epi32(acc32, _mm256_madd_epi16(x, ones));
    }
    total = _mm256_add_epi64(total, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(acc32)));
    total = _mm256_add_epi64(total, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(acc32, 1)));
  }
  uint64_t sum = HorizontalSum(total);
  if constexpr (std::is_unsigned_v<T>) sum += static_cast<uint64_t>(i) * 32768u;
  return sum + ScalarTail(v + i, n - i);
}

template <typename T>
QUIVER_AVX2 uint64_t SumDwords(const T* v, int64_t n) {
  __m256i a0 = _mm256_setzero_si256(), a1 = a0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i x = LoadU(v + i);
    const __m128i lo = _mm256_castsi256_si128(x);
    const __m128i hi = _mm256_extracti128_si256(x, 1);
    if constexpr (std::is_signed_v<T>) {
      a0 = _mm256_add_epi64(a0, _mm256_cvtepi32_epi64(lo));
      a1 = _mm256_add_epi64(a1, _mm256_cvtepi32_epi64(hi));
    } else {
      a0 = _mm256_add_epi64(a0, _mm256_cvtepu32_epi64(lo));
      a1 = _mm256_add_epi64(a1, _mm256_cvtepu32_epi64(hi));
    }
  }
  return HorizontalSum(_mm256_add_epi64(a0, a1)) + ScalarTail(v + i, n - i);
}

template <typename T>
QUIVER_AVX2 uint64_t SumQwords(const T* v, int64_t n) {
  __m256i a0 = _mm256_setzero_si256(), a1 = a0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    a0 = _mm256_add_epi64(a0, LoadU(v + i));
    a1 = _mm256_add_epi64(a1, LoadU(v + i + 4));
  }
  return HorizontalSum(_mm256_add_epi64(a0, a1)) + ScalarTail(v + i, n - i);
}

// --- Integer min / max -----------------------------------------------------------

template <typename T>
struct MinMaxOps;

#define QUIVER_MINMAX_OPS(T, MIN, MAX, SET1, LANE)                                    \
  template <>                                                                         \
  struct MinMaxOps<T> {                                                               \
    QUIVER_AVX2 static __m256i Min(__m256i a, __m256i b) { return MIN(a, b); }         \
    QUIVER_AVX2 static __m256i Max(__m256i a, __m256i b) { return MAX(a, b); }         \
    QUIVER_AVX2 static __m256i Set1(T x) { return SET1(static_cast<LANE>(x)); }        \
  };

QUIVER_MINMAX_OPS(int8_t, _mm256_min_epi8, _mm256_max_epi8, _mm256_set1_epi8, char)
QUIVER_MINMAX_OPS(uint8_t, _mm256_min_epu8, _mm256_max_epu8, _mm256_set1_epi8, char)
QUIVER_MINMAX_OPS(int16_t, _mm256_min_epi16, _mm256_max_epi16, _mm256_set1_epi16, int16_t)
QUIVER_MINMAX_OPS(uint16_t, _mm256_min_epu16, _mm256_max_epu16, _mm256_set1_epi16, int16_t)
QUIVER_MINMAX_OPS(int32_t, _mm256_min_epi32, _mm256_max_epi32, _mm256_set1_epi32, int32_t)
QUIVER_MINMAX_OPS(uint32_t, _mm256_min_epu32, _mm256_max_epu32, _mm256_set1_epi32, int32_t)
#undef QUIVER_MINMAX_OPS

// 64-bit lanes: AVX2 has no min/max, only a signed compare; unsigned values
// compare as signed once their sign bits are flipped.
template <bool kSigned>
struct MinMax64Ops {
  QUIVER_AVX2 static __m256i Greater(__m256i a, __m256i b) {
    if constexpr (kSigned) {
      return _mm256_cmpgt_epi64(a, b);
    } else {
      const __m256i flip = _mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ull));
      return _mm256_cmpgt_epi64(_mm256_xor_si256(a, flip), _mm256_xor_si256(b, flip));
    }
  }
  QUIVER_AVX2 static __m256i Min(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(a, b, Greater(a, b));
  }
  QUIVER_AVX2 static __m256i Max(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(b, a, Greater(a, b));
  }
};
template <>
struct MinMaxOps<int64_t> : MinMax64Ops<true> {
  QUIVER_AVX2 static __m256i Set1(int64_t x) { return _mm256_set1_epi64x(x); }
};
template <>
struct MinMaxOps<uint64_t> : MinMax64Ops<false> {
  QUIVER_AVX2 static __m256i Set1(uint64_t x) {
    return _mm256_set1_epi64x(static_cast<long long>(x));
  }
};

// Two running minima and maxima over two vectors a step, then the lanes
// folded through memory and the tail one value at a time.
template <typename T>
QUIVER_AVX2 void MinMaxImpl(const T* v, int64_t n, T* lo, T* hi) {
  using Ops = MinMaxOps<T>;
  constexpr int64_t k = 32 / sizeof(T);
  __m256i l0 = Ops::Set1(*lo), l1 = l0, h0 = Ops::Set1(*hi), h1 = h0;
  int64_t i = 0;
  for (; i + 2 * k <= n; i += 2 * k) {
    const __m256i a = LoadU(v + i), b = LoadU(v + i + k);
    l0 = Ops::Min(l0, a);
    l1 = Ops::Min(l1, b);
    h0 = Ops::Max(h0, a);
    h1 = Ops::Max(h1, b);
  }
  T ls[k], hs[k];
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(ls), Ops::Min(l0, l1));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(hs), Ops::Max(h0, h1));
  T l = *lo, h = *hi;
  for (int64_t j = 0; j < k; ++j) {
    l = std::min(l, ls[j]);
    h = std::max(h, hs[j]);
  }
  for (; i < n; ++i) {
    l = std::min(l, v[i]);
    h = std::max(h, v[i]);
  }
  *lo = l;
  *hi = h;
}

// --- AVX-512: 64-bit min / max (AVX2 has no 64-bit min or max) --------------------

#define QUIVER_AVX512 __attribute__((target("avx512f")))

template <typename T>
QUIVER_AVX512 void MinMax64Impl512(const T* v, int64_t n, T* lo, T* hi) {
  constexpr bool kSigned = std::is_signed_v<T>;
  __m512i l0 = _mm512_set1_epi64(static_cast<long long>(*lo)), l1 = l0;
  __m512i h0 = _mm512_set1_epi64(static_cast<long long>(*hi)), h1 = h0;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i a = _mm512_loadu_si512(v + i), b = _mm512_loadu_si512(v + i + 8);
    if constexpr (kSigned) {
      l0 = _mm512_min_epi64(l0, a);
      l1 = _mm512_min_epi64(l1, b);
      h0 = _mm512_max_epi64(h0, a);
      h1 = _mm512_max_epi64(h1, b);
    } else {
      l0 = _mm512_min_epu64(l0, a);
      l1 = _mm512_min_epu64(l1, b);
      h0 = _mm512_max_epu64(h0, a);
      h1 = _mm512_max_epu64(h1, b);
    }
  }
  T ls[16], hs[16];
  _mm512_storeu_si512(ls, l0);
  _mm512_storeu_si512(ls + 8, l1);
  _mm512_storeu_si512(hs, h0);
  _mm512_storeu_si512(hs + 8, h1);
  T l = *lo, h = *hi;
  for (int j = 0; j < 16; ++j) {
    l = std::min(l, ls[j]);
    h = std::max(h, hs[j]);
  }
  for (; i < n; ++i) {
    l = std::min(l, v[i]);
    h = std::max(h, v[i]);
  }
  *lo = l;
  *hi = h;
}

}  // namespace

void MinMaxAvx512(const int64_t* v, int64_t n, int64_t* lo, int64_t* hi) {
  MinMax64Impl512(v, n, lo, hi);
}
void MinMaxAvx512(const uint64_t* v, int64_t n, uint64_t* lo, uint64_t* hi) {
  MinMax64Impl512(v, n, lo, hi);
}

void BlockSumsAvx2(const double* v, int64_t groups, double* out) { BlockSumsImpl(v, groups, out); }
void BlockSumsAvx2(const int8_t* v, int64_t groups, double* out) { BlockSumsImpl(v, groups, out); }
void BlockSumsAvx2(const int16_t* v, int64_t groups, double* out) { BlockSumsImpl(v, groups, out); }
void BlockSumsAvx2(const int32_t* v, int64_t groups, double* out) { BlockSumsImpl(v, groups, out); }
void BlockSumsAvx2(const uint8_t* v, int64_t groups, double* out) { BlockSumsImpl(v, groups, out); }
void BlockSumsAvx2(const uint16_t* v, int64_t groups, double* out) { BlockSumsImpl(v, groups, out); }
void BlockSumsAvx2(const uint32_t* v, int64_t groups, double* out) { BlockSumsImpl(v, groups, out); }
void MaskedGroupSumsAvx2(const double* v, const uint64_t* masks, int64_t groups, double* out) {
  MaskedGroupSumsImpl(v, masks, groups, out);
}
void MaskedGroupSumsAvx512(const double* v, const uint64_t* masks, int64_t groups,
                           double* out) {
  MaskedGroupSumsImpl512(v, masks, groups, out);
}
void MaskedGroupSumsAvx2(const int8_t* v, const uint64_t* masks, int64_t groups, double* out) {
  MaskedGroupSumsImpl(v, masks, groups, out);
}
void MaskedGroupSumsAvx512(const int8_t* v, const uint64_t* masks, int64_t groups,
                           double* out) {
  MaskedGroupSumsImpl512(v, masks, groups, out);
}
void MaskedGroupSumsAvx2(const int16_t* v, const uint64_t* masks, int64_t groups, double* out) {
  MaskedGroupSumsImpl(v, masks, groups, out);
}
void MaskedGroupSumsAvx512(const int16_t* v, const uint64_t* masks, int64_t groups,
                           double* out) {
  MaskedGroupSumsImpl512(v, masks, groups, out);
}
void MaskedGroupSumsAvx2(const int32_t* v, const uint64_t* masks, int64_t groups, double* out) {
  MaskedGroupSumsImpl(v, masks, groups, out);
}
void MaskedGroupSumsAvx512(const int32_t* v, const uint64_t* masks, int64_t groups,
                           double* out) {
  MaskedGroupSumsImpl512(v, masks, groups, out);
}
void MaskedGroupSumsAvx2(const uint8_t* v, const uint64_t* masks, int64_t groups, double* out) {
  MaskedGroupSumsImpl(v, masks, groups, out);
}
void MaskedGroupSumsAvx512(const uint8_t* v, const uint64_t* masks, int64_t groups,
                           double* out) {
  MaskedGroupSumsImpl512(v, masks, groups, out);
}
void MaskedGroupSumsAvx2(const uint16_t* v, const uint64_t* masks, int64_t groups, double* out) {
  MaskedGroupSumsImpl(v, masks, groups, out);
}
void MaskedGroupSumsAvx512(const uint16_t* v, const uint64_t* masks, int64_t groups,
                           double* out) {
  MaskedGroupSumsImpl512(v, masks, groups, out);
}
void MaskedGroupSumsAvx2(const uint32_t* v, const uint64_t* masks, int64_t groups, double* out) {
  MaskedGroupSumsImpl(v, masks, groups, out);
}
void MaskedGroupSumsAvx512(const uint32_t* v, const uint64_t* masks, int64_t groups,
                           double* out) {
  MaskedGroupSumsImpl512(v, masks, groups, out);
}

uint64_t WrappingSumAvx2(const int8_t* v, int64_t n) { return SumBytes(v, n); }
uint64_t WrappingSumAvx2(const uint8_t* v, int64_t n) { return SumBytes(v, n); }
uint64_t WrappingSumAvx2(const int16_t* v, int64_t n) { return SumWords(v, n); }
uint64_t WrappingSumAvx2(const uint16_t* v, int64_t n) { return SumWords(v, n); }
uint64_t WrappingSumAvx2(const int32_t* v, int64_t n) { return SumDwords(v, n); }
uint64_t WrappingSumAvx2(const uint32_t* v, int64_t n) { return SumDwords(v, n); }
uint64_t WrappingSumAvx2(const int64_t* v, int64_t n) { return SumQwords(v, n); }
uint64_t WrappingSumAvx2(const uint64_t* v, int64_t n) { return SumQwords(v, n); }

void MinMaxAvx2(const int8_t* v, int64_t n, int8_t* lo, int8_t* hi) { MinMaxImpl(v, n, lo, hi); }
void MinMaxAvx2(const int16_t* v, int64_t n, int16_t* lo, int16_t* hi) { MinMaxImpl(v, n, lo, hi); }
void MinMaxAvx2(const int32_t* v, int64_t n, int32_t* lo, int32_t* hi) { MinMaxImpl(v, n, lo, hi); }
void MinMaxAvx2(const int64_t* v, int64_t n, int64_t* lo, int64_t* hi) { MinMaxImpl(v, n, lo, hi); }
void MinMaxAvx2(const uint8_t* v, int64_t n, uint8_t* lo, uint8_t* hi) { MinMaxImpl(v, n, lo, hi); }
void MinMaxAvx2(const uint16_t* v, int64_t n, uint16_t* lo, uint16_t* hi) {
  MinMaxImpl(v, n, lo, hi);
}
void MinMaxAvx2(const uint32_t* v, int64_t n, uint32_t* lo, uint32_t* hi) {
  MinMaxImpl(v, n, lo, hi);
}
void MinMaxAvx2(const uint64_t* v, int64_t n, uint64_t* lo, uint64_t* hi) {
  MinMaxImpl(v, n, lo, hi);
}

}  // namespace quiver::compute::internal
