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

QUIVER_TARGET_AVX512 int64_t Compress8(const uint8_t* in, const uint8_t* bits, int64_t bits_offset,
                                       int64_t nfull, uint8_t* out) {
  int64_t k = 0;
  for (int64_t pos = 0; pos < nfull; pos += 64) {
    const uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, 64);
    if (w == 0) continue;
    if (w == ~uint64_t{0}) {
      std::memcpy(out + k, in + pos, 64);
      k += 64;
      continue;
    }
    const __m512i v = _mm512_loadu_si512(in + pos);
    const __m512i c = _mm512_maskz_compress_epi8(static_cast<__mmask64>(w), v);
    const int count = std::popcount(w);
    _mm512_mask_storeu_epi8(out + k, static_cast<__mmask64>((uint64_t{1} << count) - 1), c);
    k += count;
  }
  return k;
}

QUIVER_TARGET_AVX512 int64_t Compress16(const uint16_t* in, const uint8_t* bits,
                                        int64_t bits_offset, int64_t nfull, uint16_t* out) {
  int64_t k = 0;
  for (int64_t pos = 0; pos < nfull; pos += 64) {
    const uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, 64);
    if (w == 0) continue;
    if (w == ~uint64_t{0}) {
      std::memcpy(out + k, in + pos, 64 * sizeof(uint16_t));
      k += 64;
      continue;
    }
    if (std::popcount(w) < 2) {
      // Sparse: fewer values than the compress instructions it would take.
      uint64_t rest = w;
      do {
        out[k++] = in[pos + std::countr_zero(rest)];
        rest &= rest - 1;
      } while (rest != 0);
      continue;
    }
    for (int h = 0; h < 2; ++h) {
      const auto m = static_cast<uint32_t>(w >> (32 * h));
      if (m == 0) continue;
      const __m512i v = _mm512_loadu_si512(in + pos + 32 * h);
      const __m512i c = _mm512_maskz_compress_epi16(static_cast<__mmask32>(m), v);
      const int count = std::popcount(m);
      _mm512_mask_storeu_epi16(out + k, static_cast<__mmask32>((uint64_t{1} << count) - 1), c);
      k += count;
    }
  }
  return k;
}

QUIVER_TARGET_AVX512 int64_t Compress32(const uint32_t* in, const uint8_t* bits,
                                        int64_t bits_offset, int64_t nfull, uint32_t* out) {
  int64_t k = 0;
  for (int64_t pos = 0; pos < nfull; pos += 64) {
    const uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, 64);
    if (w == 0) continue;
    if (w == ~uint64_t{0}) {
      std::memcpy(out + k, in + pos, 64 * sizeof(uint32_t));
      k += 64;
      continue;
    }
    if (std::popcount(w) < 4) {
      // Sparse: fewer values than the compress instructions it would take.
      uint64_t rest = w;
      do {
        out[k++] = in[pos + std::countr_zero(rest)];
        rest &= rest - 1;
      } while (rest != 0);
      continue;
    }
    for (int q = 0; q < 4; ++q) {
      const auto m = static_cast<uint32_t>((w >> (16 * q)) & 0xFFFF);
      if (m == 0) continue;
      const __m512i v = _mm512_loadu_si512(in + pos + 16 * q);
      const __m512i c = _mm512_maskz_compress_epi32(static_cast<__mmask16>(m), v);
      const int count = std::popcount(m);
      _mm512_mask_storeu_epi32(out + k, static_cast<__mmask16>((1u << count) - 1), c);
      k += count;
    }
  }
  return k;
}

QUIVER_TARGET_AVX512 int64_t Compress64(const uint64_t* in, const uint8_t* bits,
                                        int64_t bits_offset, int64_t nfull, uint64_t* out) {
  int64_t k = 0;
  for (int64_t pos = 0; pos < nfull; pos += 64) {
    const uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, 64);
    if (w == 0) continue;
    if (w == ~uint64_t{0}) {
      std::memcpy(out + k, in + pos, 64 * sizeof(uint64_t));
      k += 64;
      continue;
    }
    if (std::popcount(w) < 8) {
      // Sparse: fewer values than the compress instructions it would take.
      uint64_t rest = w;
      do {
        out[k++] = in[pos + std::countr_zero(rest)];
        rest &= rest - 1;
      } while (rest != 0);
      continue;
    }
    for (int e = 0; e < 8; ++e) {
      const auto m = static_cast<uint32_t>((w >> (8 * e)) & 0xFF);
      if (m == 0) continue;
      const __m512i v = _mm512_loadu_si512(in + pos + 8 * e);
      const __m512i c = _mm512_maskz_compress_epi64(static_cast<__mmask8>(m), v);
      const int count = std::popcount(m);
      _mm512_mask_storeu_epi64(out + k, static_cast<__mmask8>((1u << count) - 1), c);
      k += count;
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
      *written = Compress8(in, bits, bits_offset, nfull, out);
      break;
    case 2:
      *written = Compress16(reinterpret_cast<const uint16_t*>(in), bits, bits_offset, nfull,
                            reinterpret_cast<uint16_t*>(out));
      break;
    case 4:
      *written = Compress32(reinterpret_cast<const uint32_t*>(in), bits, bits_offset, nfull,
                            reinterpret_cast<uint32_t*>(out));
      break;
    case 8:
      *written = Compress64(reinterpret_cast<const uint64_t*>(in), bits, bits_offset, nfull,
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
