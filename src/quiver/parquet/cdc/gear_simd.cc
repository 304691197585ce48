#include "quiver/parquet/cdc/gear_simd.h"

#include <immintrin.h>

#include "quiver/parquet/cdc/gather_simd.h"
#include "quiver/parquet/cdc/gear_roll_internal.h"
#include "quiver/parquet/cdc/gear_table.h"

namespace quiver::parquet::cdc::internal {

namespace {

// Lane segments: 6 blocks of 64 bytes each (8 blocks of 8 steps per
// 64-byte load of every lane), tested after a warm-up of 64 bytes; 16
// scalar bytes per block of the lanes. Chosen by measurement (docs/cdc.md).
constexpr int kLoads = 6;
constexpr int64_t kLane = 64 * kLoads;
constexpr int kScalarPerBlock = 16;
static_assert(kGearSimdScalarBytes == kScalarPerBlock * 8 * (kLoads + 1));
static_assert(kGearSimdRound == kGearSimdScalarBytes + 8 * kLane);

// The gear tables as byte planes: plane[run][p][b] is byte p of
// kGearTable[run][b], each plane 4 vectors of 64 entries.
struct alignas(64) Planes {
  uint8_t plane[kGearTables][8][256];
};

Planes MakePlanes() {
  Planes planes;
  for (int run = 0; run < kGearTables; ++run) {
    for (int p = 0; p < 8; ++p) {
      for (int b = 0; b < 256; ++b) {
        planes.plane[run][p][b] = static_cast<uint8_t>(kGearTable[run][b] >> (8 * p));
      }
    }
  }
  return planes;
}

// Made on first use (not at static initialisation, whose order across
// files is not fixed).
const Planes& GetPlanes() {
  static const Planes planes = MakePlanes();
  return planes;
}

}  // namespace

bool GearSimdEnabled() {
  static const bool vbmi = [] {
    __builtin_cpu_init();  // (in case this runs before libgcc's own constructor)
    return __builtin_cpu_supports("avx512vbmi") != 0;
  }();
  return vbmi && GatherSimdEnabled();
}

// The kernel is compiled for AVX-512 F/BW/VBMI function by function (a
// target attribute on each, which g++ and clang both honour; clang has no
// `#pragma GCC target`), and runs only where GearSimdEnabled().
#define QUIVER_GEAR_KERNEL __attribute__((target("avx512f,avx512bw,avx512vbmi")))

// g++ 12 warns that the intrinsics' own "undefined" source registers may be
// used uninitialized (they are not: every lane is written).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace {

#define QUIVER_SIMD_INLINE [[gnu::always_inline]] inline QUIVER_GEAR_KERNEL

// out[r] holds qword r of in[0..7], in that order: an 8x8 transpose of
// 64-bit words.
QUIVER_SIMD_INLINE void TransposeWords(const __m512i in[8], __m512i out[8]) {
  __m512i a[8];
  __m512i b[8];
#pragma GCC unroll 16
  for (int m = 0; m < 4; ++m) {
    // Per 128-bit lane: words 2l / 2l + 1 of in[2m] and in[2m + 1].
    a[2 * m] = _mm512_unpacklo_epi64(in[2 * m], in[2 * m + 1]);
    a[2 * m + 1] = _mm512_unpackhi_epi64(in[2 * m], in[2 * m + 1]);
  }
  const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
  const __m512i hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
#pragma GCC unroll 16
  for (int m = 0; m < 2; ++m) {
#pragma GCC unroll 16
    for (int e = 0; e < 2; ++e) {
      // Words e and 4 + e (lo), 2 + e and 6 + e (hi) of in[4m .. 4m + 3].
      b[4 * m + e] = _mm512_permutex2var_epi64(a[4 * m + e], lo, a[4 * m + 2 + e]);
      b[4 * m + 2 + e] = _mm512_permutex2var_epi64(a[4 * m + e], hi, a[4 * m + 2 + e]);
    }
  }
#pragma GCC unroll 16
  for (int c = 0; c < 4; ++c) {
    out[c] = _mm512_shuffle_i64x2(b[c], b[4 + c], 0x44);
    out[c + 4] = _mm512_shuffle_i64x2(b[c], b[4 + c], 0xEE);
  }
}

// x: word j = the next 8 bytes of lane j. entry[s]: word j = the table
// entry of lane j's byte s.
QUIVER_SIMD_INLINE void LookUp(__m512i x, const uint8_t (*plane)[256], __m512i entry[8]) {
  // Bytes 2s + e of each 128-bit lane: byte s of its word e. The unpacks
  // below then end with entry s in register s, lane j in word j.
  const __m512i interleave = _mm512_broadcast_i32x4(
      _mm_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15));
  const __m512i index = _mm512_shuffle_epi8(x, interleave);
  const __mmask64 high = _mm512_movepi8_mask(index);  // entries 128..255
  __m512i bytes[8];
#pragma GCC unroll 16
  for (int p = 0; p < 8; ++p) {
    // Entries 0..127 (index bit 6 picks the second register, bit 7 is
    // ignored), then 128..255 where the first pass left the index.
    const __m512i low = _mm512_mask2_permutex2var_epi8(
        _mm512_load_si512(plane[p]), index, ~high, _mm512_load_si512(plane[p] + 64));
    bytes[p] = _mm512_mask2_permutex2var_epi8(_mm512_load_si512(plane[p] + 128), low, high,
                                              _mm512_load_si512(plane[p] + 192));
  }
  __m512i pairs[8];
  __m512i quads[8];
#pragma GCC unroll 16
  for (int m = 0; m < 4; ++m) {
    pairs[2 * m] = _mm512_unpacklo_epi8(bytes[2 * m], bytes[2 * m + 1]);
    pairs[2 * m + 1] = _mm512_unpackhi_epi8(bytes[2 * m], bytes[2 * m + 1]);
  }
#pragma GCC unroll 16
  for (int g = 0; g < 2; ++g) {
    quads[4 * g + 0] = _mm512_unpacklo_epi16(pairs[4 * g + 0], pairs[4 * g + 2]);
    quads[4 * g + 1] = _mm512_unpackhi_epi16(pairs[4 * g + 0], pairs[4 * g + 2]);
    quads[4 * g + 2] = _mm512_unpacklo_epi16(pairs[4 * g + 1], pairs[4 * g + 3]);
    quads[4 * g + 3] = _mm512_unpackhi_epi16(pairs[4 * g + 1], pairs[4 * g + 3]);
  }
#pragma GCC unroll 16
  for (int a = 0; a < 4; ++a) {
    entry[2 * a] = _mm512_unpacklo_epi32(quads[a], quads[a + 4]);
    entry[2 * a + 1] = _mm512_unpackhi_epi32(quads[a], quads[a + 4]);
  }
}

QUIVER_SIMD_INLINE __m512i Twice(__m512i x) { return _mm512_add_epi64(x, x); }

// Rolls 8 steps of entries into h; after[s] = the hash after step s. Steps
// 0..3 one after the other, 4..7 from their own prefix and h after step 3,
// so that the chain carried from block to block is 6 additions, not 16.
QUIVER_SIMD_INLINE void Roll(const __m512i entry[8], __m512i& h, __m512i after[8]) {
  __m512i x = h;
#pragma GCC unroll 16
  for (int s = 0; s < 4; ++s) {
    x = _mm512_add_epi64(Twice(x), entry[s]);
    after[s] = x;
  }
  const __m512i p5 = _mm512_add_epi64(Twice(entry[4]), entry[5]);
  const __m512i p6 = _mm512_add_epi64(Twice(p5), entry[6]);
  const __m512i p7 = _mm512_add_epi64(Twice(p6), entry[7]);
  after[4] = _mm512_add_epi64(_mm512_slli_epi64(x, 1), entry[4]);
  after[5] = _mm512_add_epi64(_mm512_slli_epi64(x, 2), p5);
  after[6] = _mm512_add_epi64(_mm512_slli_epi64(x, 3), p6);
  after[7] = _mm512_add_epi64(_mm512_slli_epi64(x, 4), p7);
  h = after[7];
}

QUIVER_SIMD_INLINE __m512i Smallest(const __m512i v[8]) {
  return _mm512_min_epu64(
      _mm512_min_epu64(_mm512_min_epu64(v[0], v[1]), _mm512_min_epu64(v[2], v[3])),
      _mm512_min_epu64(_mm512_min_epu64(v[4], v[5]), _mm512_min_epu64(v[6], v[7])));
}

#undef QUIVER_SIMD_INLINE

}  // namespace

QUIVER_GEAR_KERNEL int64_t FirstMatchSimd(int run, const uint8_t* p, int64_t n,
                                          uint64_t threshold, uint64_t& h) {
  const uint64_t* table = kGearTable[run];
  const uint8_t(*plane)[256] = GetPlanes().plane[run];
  const __m512i limit = _mm512_set1_epi64(static_cast<int64_t>(threshold));
  constexpr int64_t kLinesPerLoad = (kGearSimdRound + 64 * (kLoads + 1) - 1) / (64 * (kLoads + 1));
  int64_t i = 0;
  for (; n - i >= kGearSimdRound; i += kGearSimdRound) {
    const uint8_t* base = p + i;
    const uint8_t* lanes = base + kGearSimdScalarBytes;  // lane j: lanes + j * kLane
    const uint8_t* scalar = base;
    uint64_t x = h;
    __m512i lane_h = _mm512_setzero_si512();
    // Lanes whose segment has a match; for each, its hash before the block
    // holding it and that block's number.
    __mmask8 matched = 0;
    alignas(64) uint64_t match_h[8];
    int match_block[8] = {};
    // The next round is prefetched where all of it lies in p[0..n) (so that
    // the addresses stay within the buffer).
    const bool prefetch = n - i >= kGearSimdRound + 64 * kLinesPerLoad * (kLoads + 1);
    // Load -1 is the warm-up: the 64 bytes before each segment.
    for (int load = -1; load < kLoads; ++load) {
      __m512i in[8];
      __m512i words[8];
#pragma GCC unroll 16
      for (int j = 0; j < 8; ++j) in[j] = _mm512_loadu_si512(lanes + j * kLane + 64 * load);
      if (prefetch) {
#pragma GCC unroll 16
        for (int q = 0; q < kLinesPerLoad; ++q) {
          _mm_prefetch(reinterpret_cast<const char*>(
                           base + kGearSimdRound + 64 * (kLinesPerLoad * (load + 1) + q)),
                       _MM_HINT_T0);
        }
      }
      TransposeWords(in, words);
#pragma GCC unroll 1
      for (int r = 0; r < 8; ++r) {
        __m512i entry[8];
        __m512i after[8];
        LookUp(words[r], plane, entry);
        const __m512i before = lane_h;
        Roll(entry, lane_h, after);
        if (load >= 0) {
          const __mmask8 found =
              _mm512_cmplt_epu64_mask(Smallest(after), limit) & static_cast<__mmask8>(~matched);
          if (found != 0) [[unlikely]] {
            _mm512_mask_storeu_epi64(match_h, found, before);
            for (int j = 0; j < 8; ++j) {
              if ((found >> j) & 1) match_block[j] = 8 * load + r;
            }
            matched |= found;
          }
        }
#pragma GCC unroll 16
        for (int q = 0; q < kScalarPerBlock; ++q) {
          x = (x << 1) + table[scalar[q]];
          if (x < threshold) [[unlikely]] {
            h = x;
            return (scalar - p) + q;
          }
        }
        scalar += kScalarPerBlock;
      }
    }
    if (matched != 0) {
      const int j = __builtin_ctz(matched);
      const int64_t at = kGearSimdScalarBytes + j * kLane + 8 * match_block[j];
      uint64_t from = match_h[j];
      const int64_t m = FirstMatch(table, base + at, 8, threshold, from);
      h = from;
      return i + at + m;
    }
    // No match in the round: lane 7 ends where the round does.
    h = static_cast<uint64_t>(_mm_extract_epi64(_mm512_extracti32x4_epi32(lane_h, 3), 1));
  }
  return i + FirstMatch(table, p + i, n - i, threshold, h);
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#undef QUIVER_GEAR_KERNEL

}  // namespace quiver::parquet::cdc::internal
