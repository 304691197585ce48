// Bitmap binary ops in AVX2 / AVX-512 registers (bitmap_simd_internal.h).
//
// The destination starts at bit 0, so its 64-bit words are whole bytes. A
// source at bit offset `o` is read from byte o / 8 with phase s = o % 8:
// destination word w is (load64(p + 8w) >> s) | (load64(p + 8w + 8) << (64 -
// s)), computed for 4 (AVX2) or 8 (AVX-512) words at once with the 64-bit
// lane shifts (VPSRLVQ / VPSLLVQ: a count of 64 gives 0, so a source at
// phase 0 needs no special case). The shifted loads read 8 bytes past
// the words they make, so that loop stops while the word after its vector
// still lies inside every source (as util/bitmap.cc's SSE2 loop does);
// when every source is at phase 0 the plain loop reads only its words.
// The words left over, and the last bits, go to util/bitmap.h (scalar /
// SSE2), as does the scalar level. Counting the result's set bits (for a
// validity's null count) rides along: per 64-bit lane, a nibble lookup per
// byte (VPSHUFB) summed by VPSADBW, so the result is not read again.
#include "quiver/compute/bitmap_simd_internal.h"

#include "quiver/util/bitmap.h"

#if defined(__x86_64__)
// GCC 12's _mm512_sllv/srlv_epi64 start from _mm512_undefined_*(), which
// -Wmaybe-uninitialized reports (a false positive).
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#endif

namespace quiver::compute::internal {

namespace {

void ScalarRange(BitOp op, const uint8_t* l, int64_t lo, const uint8_t* r, int64_t ro,
                 int64_t n, uint8_t* dest, int64_t dest_offset) {
  switch (op) {
    case BitOp::kAnd: return bitmap::BitmapAnd(l, lo, r, ro, n, dest, dest_offset);
    case BitOp::kOr: return bitmap::BitmapOr(l, lo, r, ro, n, dest, dest_offset);
    case BitOp::kXor: return bitmap::BitmapXor(l, lo, r, ro, n, dest, dest_offset);
    case BitOp::kAndNot: return bitmap::BitmapAndNot(l, lo, r, ro, n, dest, dest_offset);
  }
}

#if defined(__x86_64__)

// Word loops: words [0, num_words) of the destination from the sources at
// byte pointers l, r with phases ls, rs; return the words done, and with
// kCount add the set bits of the words written to *count.
#define QUIVER_BITMAP_WORD_LOOP(Isa)                                                         \
  template <BitOp kOp, bool kShifted, bool kCount>                                           \
  int64_t Words##Isa(const uint8_t* l, int ls, const uint8_t* r, int rs, int64_t num_words,  \
                     uint8_t* out, int64_t* count) {                                         \
    using V = Isa::V;                                                                        \
    constexpr int64_t kW = Isa::kWords;                                                      \
    /* Shifted: the load at byte 8 * (w + kW) must end inside the sources. */                \
    constexpr int64_t kExtra = kShifted ? 1 : 0;                                             \
    const V lsv = Isa::Count(ls), ltv = Isa::Count(64 - ls);                                 \
    const V rsv = Isa::Count(rs), rtv = Isa::Count(64 - rs);                                 \
    auto load = [&](const uint8_t* p, V s, V t) -> V {                                       \
      if constexpr (kShifted) {                                                              \
        return Isa::Or(Isa::Srl(Isa::Load(p), s), Isa::Sll(Isa::Load(p + 8), t));            \
      } else {                                                                               \
        return Isa::Load(p);                                                                 \
      }                                                                                      \
    };                                                                                       \
    V acc0 = Isa::Count(0), acc1 = Isa::Count(0);                                            \
    int64_t w = 0;                                                                           \
    for (; w + 2 * kW + kExtra <= num_words; w += 2 * kW) {                                  \
      const V a0 = load(l + 8 * w, lsv, ltv), b0 = load(r + 8 * w, rsv, rtv);                \
      const V a1 = load(l + 8 * (w + kW), lsv, ltv), b1 = load(r + 8 * (w + kW), rsv, rtv);  \
      const V c0 = Isa::template Op<kOp>(a0, b0), c1 = Isa::template Op<kOp>(a1, b1);        \
      Isa::Store(out + 8 * w, c0);                                                           \
      Isa::Store(out + 8 * (w + kW), c1);                                                    \
      if constexpr (kCount) {                                                                \
        acc0 = Isa::Add64(acc0, Isa::Popcount64(c0));                                       \
        acc1 = Isa::Add64(acc1, Isa::Popcount64(c1));                                        \
      }                                                                                      \
    }                                                                                        \
    for (; w + kW + kExtra <= num_words; w += kW) {                                          \
      const V c = Isa::template Op<kOp>(load(l + 8 * w, lsv, ltv), load(r + 8 * w, rsv, rtv)); \
      Isa::Store(out + 8 * w, c);                                                            \
      if constexpr (kCount) acc0 = Isa::Add64(acc0, Isa::Popcount64(c));                     \
    }                                                                                        \
    if constexpr (kCount) *count += Isa::Sum64(Isa::Add64(acc0, acc1));                      \
    return w;                                                                                \
  }

// (clang ignores GCC's target pragma: its own attribute pragma gives every
// function of the region, lambdas and member functions included, the target.)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
struct Avx2 {
  using V = __m256i;
  static constexpr int64_t kWords = 4;
  static V Load(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const V*>(p)); }
  static void Store(uint8_t* p, V v) { _mm256_storeu_si256(reinterpret_cast<V*>(p), v); }
  static V Or(V a, V b) { return _mm256_or_si256(a, b); }
  static V Count(int s) { return _mm256_set1_epi64x(s); }
  static V Srl(V a, V s) { return _mm256_srlv_epi64(a, s); }
  static V Sll(V a, V s) { return _mm256_sllv_epi64(a, s); }
  static V Add64(V a, V b) { return _mm256_add_epi64(a, b); }
  // Set bits per 64-bit lane: a nibble table lookup per byte (Mula's
  // popcount), the bytes summed by VPSADBW.
  static V Popcount64(V v) {
    const V table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1,
                                     2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const V nibble = _mm256_set1_epi8(0x0F);
    const V lo = _mm256_shuffle_epi8(table, _mm256_and_si256(v, nibble));
    const V hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    return _mm256_sad_epu8(_mm256_add_epi8(lo, hi), _mm256_setzero_si256());
  }
  static int64_t Sum64(V v) {
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
  }
  template <BitOp kOp>
  static V Op(V a, V b) {
    if constexpr (kOp == BitOp::kAnd) {
      return _mm256_and_si256(a, b);
    } else if constexpr (kOp == BitOp::kOr) {
      return _mm256_or_si256(a, b);
    } else if constexpr (kOp == BitOp::kXor) {
      return _mm256_xor_si256(a, b);
    } else {
      return _mm256_andnot_si256(b, a);  // a & ~b
    }
  }
};
QUIVER_BITMAP_WORD_LOOP(Avx2)
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw")
#endif
struct Avx512 {
  using V = __m512i;
  static constexpr int64_t kWords = 8;
  static V Load(const uint8_t* p) { return _mm512_loadu_si512(p); }
  static void Store(uint8_t* p, V v) { _mm512_storeu_si512(p, v); }
  static V Or(V a, V b) { return _mm512_or_si512(a, b); }
  static V Count(int s) { return _mm512_set1_epi64(s); }
  static V Srl(V a, V s) { return _mm512_srlv_epi64(a, s); }
  static V Sll(V a, V s) { return _mm512_sllv_epi64(a, s); }
  static V Add64(V a, V b) { return _mm512_add_epi64(a, b); }
  static V Popcount64(V v) {  // as Avx2::Popcount64 (AVX-512 BW)
    const V table = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4));
    const V nibble = _mm512_set1_epi8(0x0F);
    const V lo = _mm512_shuffle_epi8(table, _mm512_and_si512(v, nibble));
    const V hi = _mm512_shuffle_epi8(table, _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble));
    return _mm512_sad_epu8(_mm512_add_epi8(lo, hi), _mm512_setzero_si512());
  }
  static int64_t Sum64(V v) {
    int64_t lanes[8];
    _mm512_storeu_si512(lanes, v);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3] + lanes[4] + lanes[5] + lanes[6] + lanes[7];
  }
  template <BitOp kOp>
  static V Op(V a, V b) {
    if constexpr (kOp == BitOp::kAnd) {
      return _mm512_and_si512(a, b);
    } else if constexpr (kOp == BitOp::kOr) {
      return _mm512_or_si512(a, b);
    } else if constexpr (kOp == BitOp::kXor) {
      return _mm512_xor_si512(a, b);
    } else {
      return _mm512_andnot_si512(b, a);  // a & ~b
    }
  }
};
QUIVER_BITMAP_WORD_LOOP(Avx512)
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#undef QUIVER_BITMAP_WORD_LOOP

template <BitOp kOp, bool kCount>
int64_t VectorWords(SimdLevel level, const uint8_t* l, int ls, const uint8_t* r, int rs,
                    int64_t num_words, uint8_t* out, int64_t* count) {
  const bool shifted = (ls | rs) != 0;
  if (level >= SimdLevel::kAvx512) {
    return shifted ? WordsAvx512<kOp, true, kCount>(l, ls, r, rs, num_words, out, count)
                   : WordsAvx512<kOp, false, kCount>(l, ls, r, rs, num_words, out, count);
  }
  return shifted ? WordsAvx2<kOp, true, kCount>(l, ls, r, rs, num_words, out, count)
                 : WordsAvx2<kOp, false, kCount>(l, ls, r, rs, num_words, out, count);
}

template <BitOp kOp>
int64_t VectorWords(SimdLevel level, const uint8_t* l, int ls, const uint8_t* r, int rs,
                    int64_t num_words, uint8_t* out, int64_t* count) {
  return count != nullptr ? VectorWords<kOp, true>(level, l, ls, r, rs, num_words, out, count)
                          : VectorWords<kOp, false>(level, l, ls, r, rs, num_words, out, count);
}

#endif  // __x86_64__

}  // namespace

SimdLevel BitmapBinary(BitOp op, const uint8_t* left, int64_t left_offset, const uint8_t* right,
                       int64_t right_offset, int64_t length, uint8_t* dest, int64_t* count) {
  int64_t done = 0;  // whole words written by a vector loop
  int64_t set = 0;
  SimdLevel ran = SimdLevel::kScalar;
#if defined(__x86_64__)
  const SimdLevel level = ActiveSimdLevel();
  const int64_t num_words = length / 64;
  if (level >= SimdLevel::kAvx2 && num_words >= 8) {
    const uint8_t* l = left + (left_offset >> 3);
    const uint8_t* r = right + (right_offset >> 3);
    const int ls = static_cast<int>(left_offset & 7);
    const int rs = static_cast<int>(right_offset & 7);
    int64_t* c = count != nullptr ? &set : nullptr;
    switch (op) {
      case BitOp::kAnd:
        done = VectorWords<BitOp::kAnd>(level, l, ls, r, rs, num_words, dest, c);
        break;
      case BitOp::kOr: done = VectorWords<BitOp::kOr>(level, l, ls, r, rs, num_words, dest, c); break;
      case BitOp::kXor:
        done = VectorWords<BitOp::kXor>(level, l, ls, r, rs, num_words, dest, c);
        break;
      case BitOp::kAndNot:
        done = VectorWords<BitOp::kAndNot>(level, l, ls, r, rs, num_words, dest, c);
        break;
    }
    if (done > 0) ran = level >= SimdLevel::kAvx512 ? SimdLevel::kAvx512 : SimdLevel::kAvx2;
  }
#endif
  const int64_t pos = 64 * done;
  if (pos < length) {
    ScalarRange(op, left, left_offset + pos, right, right_offset + pos, length - pos, dest, pos);
    if (count != nullptr) set += bitmap::CountSetBits(dest, pos, length - pos);
  }
  if (count != nullptr) *count = set;
  return ran;
}

}  // namespace quiver::compute::internal
