// SIMD versions of the word-wise filter loops (selection_internal.h), each
// function compiled for its instruction set through a target attribute (the
// rest of the library stays at the baseline; selection.cc calls these only
// when ActiveSimdLevel() allows).
//
// AVX-512 compress (VPCOMPRESSB/W with VBMI2, VPCOMPRESSD/Q with AVX-512F):
// the lanes of one vector whose mask bit is set, packed to the low lanes, in
// one instruction; stored with a masked store of exactly the packed lanes
// (no write past the output's end, no read past the input's: only whole
// 64-row words are handled here). The register form plus a masked store is
// used rather than the memory-destination compress, which is microcoded and
// slow on AMD Zen 4 (polars-compute filter/avx512.rs makes the same choice).
// A word with fewer set bits than the compress instructions it would take
// (one per 64 / 32 / 16 / 8 lanes for 1 / 2 / 4 / 8-byte values) copies its
// few values one by one instead, as the scalar loop does.
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "quiver/compute/selection_internal.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute::internal {

#if defined(__x86_64__)

#define QUIVER_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2,bmi2,popcnt")))
#define QUIVER_TARGET_BMI2 __attribute__((target("bmi2,popcnt")))

namespace {

// The lanes of the 64 bytes at `in` whose bit of `m` is set (the low 64 /
// sizeof(T) bits), packed at `out`; returns how many.
template <typename T>
QUIVER_TARGET_AVX512 inline int CompressChunk(const T* in, uint64_t m, T* out) {
  const __m512i v = _mm512_loadu_si512(in);
  const int count = std::popcount(m);
  const uint64_t store = (uint64_t{1} << count) - 1;  // count < 64: a full word is copied
  if constexpr (sizeof(T) == 1) {
    _mm512_mask_storeu_epi8(out, store, _mm512_maskz_compress_epi8(m, v));
  } else if constexpr (sizeof(T) == 2) {
    _mm512_mask_storeu_epi16(out, static_cast<__mmask32>(store),
                             _mm512_maskz_compress_epi16(static_cast<__mmask32>(m), v));
  } else if constexpr (sizeof(T) == 4) {
    _mm512_mask_storeu_epi32(out, static_cast<__mmask16>(store),
                             _mm512_maskz_compress_epi32(static_cast<__mmask16>(m), v));
  } else {
    static_assert(sizeof(T) == 8);
    _mm512_mask_storeu_epi64(out, static_cast<__mmask8>(store),
                             _mm512_maskz_compress_epi64(static_cast<__mmask8>(m), v));
  }
  return count;
}

// Whole 64-row words of the mask: skipped when empty, copied when full,
// value by value when sparser than the chunks a word spans, else one
// compress per non-empty chunk of 64 bytes.
template <typename T>
QUIVER_TARGET_AVX512 int64_t CompressWords(const T* in, const uint8_t* bits, int64_t bits_offset,
                                           int64_t nfull, T* out) {
  constexpr int kLanes = 64 / static_cast<int>(sizeof(T));
  constexpr int kChunks = 64 / kLanes;
  int64_t k = 0;
  for (int64_t pos = 0; pos < nfull; pos += 64) {
    const uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, 64);
    if (w == 0) continue;
    if (w == ~uint64_t{0}) {
      std::memcpy(out + k, in + pos, 64 * sizeof(T));
      k += 64;
      continue;
    }
    if (std::popcount(w) < kChunks) {
      uint64_t rest = w;
      do {
        out[k++] = in[pos + std::countr_zero(rest)];
        rest &= rest - 1;
      } while (rest != 0);
      continue;
    }
    for (int c = 0; c < kChunks; ++c) {
      const uint64_t m = (w >> (c * kLanes)) & bit_util::LeastSignificantBitMask(kLanes);
      if (m != 0) k += CompressChunk<T>(in + pos + c * kLanes, m, out + k);
    }
  }
  return k;
}

}  // namespace

int64_t FilterFixedWidthAvx512(const uint8_t* in, int width, const uint8_t* bits,
                               int64_t bits_offset, int64_t n, uint8_t* out, int64_t* written) {
  const int64_t nfull = n & ~int64_t{63};
  switch (width) {
    case 1:
      *written = CompressWords(in, bits, bits_offset, nfull, out);
      break;
    case 2:
      *written = CompressWords(reinterpret_cast<const uint16_t*>(in), bits, bits_offset, nfull,
                               reinterpret_cast<uint16_t*>(out));
      break;
    case 4:
      *written = CompressWords(reinterpret_cast<const uint32_t*>(in), bits, bits_offset, nfull,
                               reinterpret_cast<uint32_t*>(out));
      break;
    case 8:
      *written = CompressWords(reinterpret_cast<const uint64_t*>(in), bits, bits_offset, nfull,
                               reinterpret_cast<uint64_t*>(out));
      break;
    default:
      *written = 0;
      return 0;
  }
  return nfull;
}

QUIVER_TARGET_BMI2 void FilterBitsBmi2(const uint8_t* src, int64_t src_offset,
                                       const uint8_t* bits, int64_t bits_offset, int64_t n,
                                       uint8_t* out) {
  bitmap::BitAppender appender(out, 0);
  for (int64_t pos = 0; pos < n; pos += 64) {
    const int nbits = n - pos < 64 ? static_cast<int>(n - pos) : 64;
    const uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, nbits);
    if (w == 0) continue;
    if (w == ~uint64_t{0}) {  // a run of full words: copied whole
      const int64_t end = FullWordsEnd(bits, bits_offset, pos, n);
      appender.AppendBitmap(src, src_offset + pos, end - pos);
      pos = end - 64;
      continue;
    }
    const uint64_t s = bitmap::LoadBits(src, src_offset + pos, nbits);
    appender.Append(_pext_u64(s, w), std::popcount(w));
  }
  appender.Finish();
}

#else  // not x86-64: never called (the detected level is scalar)

int64_t FilterFixedWidthAvx512(const uint8_t*, int, const uint8_t*, int64_t, int64_t, uint8_t*,
                               int64_t* written) {
  *written = 0;
  return 0;
}

void FilterBitsBmi2(const uint8_t*, int64_t, const uint8_t*, int64_t, int64_t, uint8_t*) {}

#endif

}  // namespace quiver::compute::internal
