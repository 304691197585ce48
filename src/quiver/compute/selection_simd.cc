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

// Byte-aligned mask and source (the usual case): one PEXT per mask word
// (a full word's PEXT is the word itself, so no branch tells full words
// from others), appended without a branch on the mask: the accumulator is
// stored whole at every step and the output advances by a word when it
// fills. That append is a chain of dependent steps (where the next bits go
// depends on every count before), so the words are split in two halves
// appended side by side, the second starting where the first half's set
// bits end (counted first): two independent chains. The output word both
// halves write is put together at the end. Stores stay inside the output
// (a half stops while a whole word of it is left; the caller's appender
// finishes the rest).
struct PextStream {
  uint8_t* p;
  uint64_t acc;
  int fill;           // bits in acc (0..63)
  int64_t zeros = 0;  // selected bits of src that are 0
};

// Appends the bits of `s` where `w` is set; true when that filled the
// word at st.p (its value in `done`), which the stream then moved past.
QUIVER_TARGET_BMI2 inline bool PextStep(PextStream& st, uint64_t s, uint64_t w, uint64_t& done) {
  const uint64_t packed = _pext_u64(s, w);
  st.zeros += std::popcount(w & ~s);
  const int total = st.fill + std::popcount(w);
  done = st.acc | (packed << st.fill);
  bit_util::StoreLittleEndian(st.p, done);
  const bool full = total >= 64;
  const uint64_t rest = (packed >> 1) >> (63 - st.fill);  // none when fill == 0
  st.p += full ? 8 : 0;
  st.acc = full ? rest : done;
  st.fill = total & 63;
  return full;
}

QUIVER_TARGET_BMI2 int64_t FilterBitsAlignedBmi2(const uint8_t* src, const uint8_t* bits,
                                                 int64_t n, uint8_t* out, int64_t out_bytes,
                                                 int64_t* out_bits, int64_t* zeros) {
  const int64_t words = n >> 6;
  uint8_t* const end = out + out_bytes;
  auto load = [](const uint8_t* base, int64_t k) {
    return bit_util::SafeLoad<uint64_t>(base + 8 * k);
  };
  uint64_t done = 0;
  PextStream a{out, 0, 0, 0};
  const int64_t half = words / 2;
  const int64_t first = words < 64 ? 0 : bitmap::CountSetBits(bits, 0, half * 64);
  uint8_t* const shared = out + (first >> 6) * 8;  // the word both halves write
  if (words < 64 || shared + 8 > end) {  // one chain
    int64_t k = 0;
    for (; k < words && a.p + 8 <= end; ++k) PextStep(a, load(src, k), load(bits, k), done);
    if (a.fill > 0) bitmap::StoreBits(a.p, 0, a.fill, a.acc);
    *out_bits = (a.p - out) * 8 + a.fill;
    *zeros = a.zeros;
    return k * 64;
  }
  PextStream b{shared, 0, static_cast<int>(first & 63), 0};
  uint64_t b_first = 0;  // b's bits of the shared word, once b has moved past it
  bool b_moved = false;
  bool b_on = true;
  int64_t kb = half;
  for (int64_t k = 0; k < half; ++k) {
    // a stays within [out, shared + 8): it ends at bit `first`.
    PextStep(a, load(src, k), load(bits, k), done);
    if (b_on) {
      if (b.p + 8 > end) {
        b_on = false;
        continue;
      }
      if (PextStep(b, load(src, kb), load(bits, kb), done) && !b_moved) {
        b_first = done;
        b_moved = true;
      }
      ++kb;
    }
  }
  // The second half's odd last word.
  for (; b_on && kb < words && b.p + 8 <= end; ++kb) {
    if (PextStep(b, load(src, kb), load(bits, kb), done) && !b_moved) {
      b_first = done;
      b_moved = true;
    }
  }
  // The shared word: a's bits below `first`, b's from there on.
  const uint64_t low = a.acc & bit_util::LeastSignificantBitMask(static_cast<int>(first & 63));
  if (b_moved) {
    bit_util::StoreLittleEndian(shared, low | b_first);
    if (b.fill > 0) bitmap::StoreBits(b.p, 0, b.fill, b.acc);
  } else {
    b.acc |= low;
    if (b.fill > 0) bitmap::StoreBits(b.p, 0, b.fill, b.acc);
  }
  *out_bits = (b.p - out) * 8 + b.fill;
  *zeros = a.zeros + b.zeros;
  return kb * 64;
}

QUIVER_TARGET_BMI2 int64_t FilterBitsBmi2(const uint8_t* src, int64_t src_offset,
                                          const uint8_t* bits, int64_t bits_offset, int64_t n,
                                          uint8_t* out, int64_t out_bytes) {
  int64_t pos = 0;
  int64_t out_pos = 0;
  int64_t zeros = 0;
  if ((src_offset & 7) == 0 && (bits_offset & 7) == 0) {
    pos = FilterBitsAlignedBmi2(src + (src_offset >> 3), bits + (bits_offset >> 3), n, out,
                                out_bytes, &out_pos, &zeros);
  }
  bitmap::BitAppender appender(out, out_pos);
  for (; pos < n; pos += 64) {
    const int nbits = n - pos < 64 ? static_cast<int>(n - pos) : 64;
    const uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, nbits);
    if (w == 0) continue;
    if (w == ~uint64_t{0}) {  // a run of full words: copied whole
      const int64_t end = FullWordsEnd(bits, bits_offset, pos, n);
      appender.AppendBitmap(src, src_offset + pos, end - pos);
      zeros += end - pos - bitmap::CountSetBits(src, src_offset + pos, end - pos);
      pos = end - 64;
      continue;
    }
    const uint64_t s = bitmap::LoadBits(src, src_offset + pos, nbits);
    appender.Append(_pext_u64(s, w), std::popcount(w));
    zeros += std::popcount(w & ~s);
  }
  appender.Finish();
  return zeros;
}

#else  // not x86-64: never called (the detected level is scalar)

int64_t FilterFixedWidthAvx512(const uint8_t*, int, const uint8_t*, int64_t, int64_t, uint8_t*,
                               int64_t* written) {
  *written = 0;
  return 0;
}

int64_t FilterBitsBmi2(const uint8_t*, int64_t, const uint8_t*, int64_t, int64_t, uint8_t*,
                       int64_t) {
  return 0;
}

#endif

}  // namespace quiver::compute::internal
