// The double sum of a float32 chunk's valid values (sum and mean; see
// aggregate_internal.h, Float32ChunkSum).
//
// Arrow C++ (aggregate_internal.h, SumArray) adds blocks of 16 consecutive
// valid values in order from 0.0 and folds the block sums pairwise. Its
// blocks lie along the data, so a vector loop must transpose every 4 x 4
// tile, and a block sum enters the pairwise counter every 16 values; with
// nulls a block restarts at every run of valid slots. Here the grouping is
// turned across the data instead (as numpy's pairwise_sum unrolls 8
// accumulators, and the masked sums of integer means do in aggregate.cc):
//  - the chunk is cut into groups of kWideGroup = 512 slots (the last one
//    shorter); in a group, lane k (0-31) adds slots k, k + 32, ..., k + 480
//    (16 values) in order from +0.0, a null slot counting as +0.0 (a lane
//    never holds -0.0, so adding +0.0 changes nothing);
//  - the group's sum is the fixed tree over its 32 lane sums: lanes k and
//    k + 16 add, then k and k + 8, k + 4, k + 2, and the last two (WideTree);
//  - the group sums enter Arrow's pairwise counter in order (PairwiseSum).
// One vector register holds 8 (AVX-512) or 4 (AVX2) consecutive lanes, so a
// step converts and adds 32 consecutive floats with no shuffle, and the
// counter sees one value per 512 slots. Every level computes the same
// additions in the same order: the same bits (scalar, AVX2, AVX-512).
//
// Error: a lane adds 16 values, the tree 5 levels, the counter log2(n/512):
// |error| <= (21 + log2(n/512)) eps * sum |x|, Arrow's own bound being
// (15 + log2(n/16)) eps * sum |x|; so the result equals pyarrow's up to
// rounding (a relative 1e-13 of sum |x| at a million values). NaN and
// infinities come out as pyarrow's: a double sum of float32 values cannot
// overflow (|sum| <= n * 2^128), so the result is NaN where a value is NaN
// or both infinities occur, else +-inf where that infinity occurs; never
// -0.0. (float64 keeps Arrow's own order, aggregate.cc: there a grouping
// decides which partial sums overflow.)
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "quiver/compute/aggregate_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

// GCC 12's _mm512 intrinsics start from _mm512_undefined_*(), which
// -Wmaybe-uninitialized reports (a false positive).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

namespace quiver::compute::internal {

namespace {

constexpr int64_t kWideGroup = 512;
constexpr int kLanes = 32;
constexpr int64_t kMaskBytes = kWideGroup / 8;  // validity bytes per group

// The tree over 32 lane sums (b is overwritten).
inline double WideTree(double* b) {
  for (int k = 0; k < 16; ++k) b[k] += b[k + 16];
  for (int k = 0; k < 8; ++k) b[k] += b[k + 8];
  for (int k = 0; k < 4; ++k) b[k] += b[k + 4];
  for (int k = 0; k < 2; ++k) b[k] += b[k + 2];
  return b[0] + b[1];
}

// The sum of a group of len <= 512 slots from v (masks: its validity, bit
// s % 8 of byte s / 8 for slot s; nullptr when every slot is valid).
double WideGroupSum(const float* v, int64_t len, const uint8_t* masks) {
  double b[kLanes] = {};
  if (masks == nullptr && len == kWideGroup) {
    for (int64_t t = 0; t < kWideGroup; t += kLanes) {
      for (int k = 0; k < kLanes; ++k) b[k] += static_cast<double>(v[t + k]);
    }
  } else {
    for (int64_t s = 0; s < len; ++s) {
      if (masks == nullptr || ((masks[s >> 3] >> (s & 7)) & 1) != 0) {
        b[s & (kLanes - 1)] += static_cast<double>(v[s]);
      }
    }
  }
  return WideTree(b);
}

#define QUIVER_AVX2 __attribute__((target("avx2")))
#define QUIVER_AVX512_F __attribute__((target("avx2,avx512f,avx512vl,avx512bw")))

// --- AVX2: eight 4-lane accumulators -----------------------------------------------

QUIVER_AVX2 inline __m256d Load4d(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }

// The 8 floats at p with the slots whose sign bit in `mask` (lane k for
// float k) is clear replaced by +0.0: one VBLENDVPS, the load folded in.
QUIVER_AVX2 inline __m256 Masked8(const float* p, __m256i mask) {
  return _mm256_blendv_ps(_mm256_setzero_ps(), _mm256_loadu_ps(p), _mm256_castsi256_ps(mask));
}

template <bool kMasked>
QUIVER_AVX2 void WideGroupSumsAvx2(const float* v, const uint8_t* masks, int64_t groups,
                                       double* out) {
  // Lane k shifted left by 7 - k: bit 24 + k of a 32-slot mask word lands
  // in lane k's sign bit; 8, 16 and 24 more bring bits 16 + k, 8 + k, k.
  const __m256i top_shift = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
  for (int64_t g = 0; g < groups; ++g) {
    const float* a = v + kWideGroup * g;
    // (named accumulators: GCC keeps an array of vectors in memory)
    __m256d y0 = _mm256_setzero_pd(), y1 = y0, y2 = y0, y3 = y0, y4 = y0, y5 = y0, y6 = y0,
            y7 = y0;
#pragma GCC unroll 2
    for (int64_t t = 0; t < kWideGroup; t += kLanes) {
      if constexpr (kMasked) {
        // The validity of slots t..t+31 broadcast once; each 8 slots'
        // floats masked by one blend (null -> +0.0), then converted in
        // halves: 9 vector operations per 8 slots, where testing each 4
        // slots' bits in 64-bit lanes took 16.
        uint32_t m;
        std::memcpy(&m, masks + kMaskBytes * g + t / 8, 4);
        const __m256i s3 = _mm256_sllv_epi32(_mm256_set1_epi32(static_cast<int32_t>(m)), top_shift);
        const __m256 f0 = Masked8(a + t, _mm256_slli_epi32(s3, 24));
        const __m256 f1 = Masked8(a + t + 8, _mm256_slli_epi32(s3, 16));
        const __m256 f2 = Masked8(a + t + 16, _mm256_slli_epi32(s3, 8));
        const __m256 f3 = Masked8(a + t + 24, s3);
        y0 = _mm256_add_pd(y0, _mm256_cvtps_pd(_mm256_castps256_ps128(f0)));
        y1 = _mm256_add_pd(y1, _mm256_cvtps_pd(_mm256_extractf128_ps(f0, 1)));
        y2 = _mm256_add_pd(y2, _mm256_cvtps_pd(_mm256_castps256_ps128(f1)));
        y3 = _mm256_add_pd(y3, _mm256_cvtps_pd(_mm256_extractf128_ps(f1, 1)));
        y4 = _mm256_add_pd(y4, _mm256_cvtps_pd(_mm256_castps256_ps128(f2)));
        y5 = _mm256_add_pd(y5, _mm256_cvtps_pd(_mm256_extractf128_ps(f2, 1)));
        y6 = _mm256_add_pd(y6, _mm256_cvtps_pd(_mm256_castps256_ps128(f3)));
        y7 = _mm256_add_pd(y7, _mm256_cvtps_pd(_mm256_extractf128_ps(f3, 1)));
      } else {
        y0 = _mm256_add_pd(y0, Load4d(a + t));
        y1 = _mm256_add_pd(y1, Load4d(a + t + 4));
        y2 = _mm256_add_pd(y2, Load4d(a + t + 8));
        y3 = _mm256_add_pd(y3, Load4d(a + t + 12));
        y4 = _mm256_add_pd(y4, Load4d(a + t + 16));
        y5 = _mm256_add_pd(y5, Load4d(a + t + 20));
        y6 = _mm256_add_pd(y6, Load4d(a + t + 24));
        y7 = _mm256_add_pd(y7, Load4d(a + t + 28));
      }
    }
    // WideTree: lanes k + 16, k + 8, k + 4, then the 128-bit halves.
    const __m256d c0 = _mm256_add_pd(y0, y4), c1 = _mm256_add_pd(y1, y5);
    const __m256d c2 = _mm256_add_pd(y2, y6), c3 = _mm256_add_pd(y3, y7);
    const __m256d e = _mm256_add_pd(_mm256_add_pd(c0, c2), _mm256_add_pd(c1, c3));
    const __m128d f = _mm_add_pd(_mm256_castpd256_pd128(e), _mm256_extractf128_pd(e, 1));
    out[g] = _mm_cvtsd_f64(f) + _mm_cvtsd_f64(_mm_unpackhi_pd(f, f));
  }
}

// --- AVX-512: four 8-lane accumulators, two groups side by side --------------------


QUIVER_AVX512_F inline double WideTree512(__m512d x0, __m512d x1, __m512d x2, __m512d x3) {
  const __m512d d = _mm512_add_pd(_mm512_add_pd(x0, x2), _mm512_add_pd(x1, x3));
  const __m256d e = _mm256_add_pd(_mm512_castpd512_pd256(d), _mm512_extractf64x4_pd(d, 1));
  const __m128d f = _mm_add_pd(_mm256_castpd256_pd128(e), _mm256_extractf128_pd(e, 1));
  return _mm_cvtsd_f64(f) + _mm_cvtsd_f64(_mm_unpackhi_pd(f, f));
}

// acc + x as one fused multiply-add, x * 1.0 + acc: the same rounding as
// an addition, issued to the multiply-add pipes (Zen 4 has two adders and
// two multiply-adders; the conversions share the adders).
QUIVER_AVX512_F inline __m512d Add(__m512d acc, __m512d x) {
  return _mm512_fmadd_pd(x, _mm512_set1_pd(1.0), acc);
}

template <bool kMasked>
QUIVER_AVX512_F inline __m512d Load8d(const float* p, const uint8_t* m) {
  if constexpr (kMasked) return _mm512_maskz_cvtps_pd(*m, _mm256_loadu_ps(p));
  return _mm512_cvtps_pd(_mm256_loadu_ps(p));
}

// acc += the 32 slots from p (m: their 4 validity bytes when kMasked).
template <bool kMasked>
QUIVER_AVX512_F inline void Add32(__m512d* acc, const float* p, const uint8_t* m) {
  acc[0] = Add(acc[0], Load8d<kMasked>(p, m));
  acc[1] = Add(acc[1], Load8d<kMasked>(p + 8, m + 1));
  acc[2] = Add(acc[2], Load8d<kMasked>(p + 16, m + 2));
  acc[3] = Add(acc[3], Load8d<kMasked>(p + 24, m + 3));
}

// masks: 64 bytes a group when kMasked (else unread).
template <bool kMasked>
QUIVER_AVX512_F void WideGroupSumsAvx512(const float* v, const uint8_t* masks, int64_t groups,
                                         double* out) {
  static const uint8_t kNoMasks[kMaskBytes * 2] = {};
  if constexpr (!kMasked) masks = kNoMasks;  // (never read; keeps the offsets defined)
  int64_t g = 0;
  // Two groups a step: eight chains of dependent additions in flight.
  for (; g + 2 <= groups; g += 2) {
    const float* a = v + kWideGroup * g;
    const uint8_t* ma = masks + (kMasked ? kMaskBytes * g : 0);
    __m512d x[4] = {_mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd(),
                    _mm512_setzero_pd()};
    __m512d z[4] = {x[0], x[0], x[0], x[0]};
#pragma GCC unroll 4
    for (int64_t t = 0; t < kWideGroup; t += kLanes) {
      Add32<kMasked>(x, a + t, ma + t / 8);
      Add32<kMasked>(z, a + kWideGroup + t, ma + kMaskBytes + t / 8);
    }
    out[g] = WideTree512(x[0], x[1], x[2], x[3]);
    out[g + 1] = WideTree512(z[0], z[1], z[2], z[3]);
  }
  for (; g < groups; ++g) {
    const uint8_t* ma = masks + (kMasked ? kMaskBytes * g : 0);
    __m512d x[4] = {_mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd(),
                    _mm512_setzero_pd()};
    for (int64_t t = 0; t < kWideGroup; t += kLanes) Add32<kMasked>(x, v + kWideGroup * g + t, ma + t / 8);
    out[g] = WideTree512(x[0], x[1], x[2], x[3]);
  }
}

// The sums of `groups` whole groups at `level` (masks: 64 validity bytes a
// group, or nullptr without nulls).
void WideGroupSums(SimdLevel level, const float* v, const uint8_t* masks, int64_t groups,
                   double* out) {
  if (level >= SimdLevel::kAvx512) {
    if (masks != nullptr) return WideGroupSumsAvx512<true>(v, masks, groups, out);
    return WideGroupSumsAvx512<false>(v, nullptr, groups, out);
  }
  if (level >= SimdLevel::kAvx2) {
    if (masks != nullptr) return WideGroupSumsAvx2<true>(v, masks, groups, out);
    return WideGroupSumsAvx2<false>(v, masks, groups, out);
  }
  for (int64_t g = 0; g < groups; ++g) {
    out[g] = WideGroupSum(v + kWideGroup * g, kWideGroup,
                          masks == nullptr ? nullptr : masks + kMaskBytes * g);
  }
}

}  // namespace

double Float32ChunkSum(const ArrayData& a, SimdLevel* used) {
  const int64_t n = a.length;
  if (n == 0) return 0.0;
  const float* values = a.GetValues<float>(1);
  const uint8_t* validity = a.GetNullCount() > 0 ? a.validity() : nullptr;
  const SimdLevel level = n >= kWideGroup ? ActiveSimdLevel() : SimdLevel::kScalar;
  constexpr int64_t kBatch = 16;  // groups a kernel call
  // The validity of a batch: read in place where it starts at a byte, else
  // shifted into `copy` (8 bytes a word, little-endian).
  uint64_t copy[kMaskBytes * kBatch / 8];
  auto batch_masks = [&](int64_t pos, int64_t len) -> const uint8_t* {
    if (validity == nullptr) return nullptr;
    const int64_t bit = a.offset + pos;
    if ((bit & 7) == 0) return validity + bit / 8;
    for (int64_t k = 0; 64 * k < len; ++k) {
      copy[k] = bit_util::ToLittleEndian(bitmap::LoadBits(
          validity, bit + 64 * k, static_cast<int>(std::min<int64_t>(64, len - 64 * k))));
    }
    return reinterpret_cast<const uint8_t*>(copy);
  };
  double sums[kBatch];
  PairwiseSum acc;
  int64_t pos = 0;
  while (n - pos >= kWideGroup) {
    const int64_t groups = std::min(kBatch, (n - pos) / kWideGroup);
    WideGroupSums(level, values + pos, batch_masks(pos, kWideGroup * groups), groups, sums);
    for (int64_t k = 0; k < groups; ++k) acc.AddBlock(sums[k]);
    pos += kWideGroup * groups;
  }
  if (pos < n) {  // the last group, shorter: the scalar loop (the same additions)
    acc.AddBlock(WideGroupSum(values + pos, n - pos, batch_masks(pos, n - pos)));
  }
  *used = std::max(*used, level);
  return acc.Total();
}


}  // namespace quiver::compute::internal
