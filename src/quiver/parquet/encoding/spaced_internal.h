// Spacing decoded values out to their slots (DecodeSpaced): `valid` values
// of `width` bytes go, in order, to the slots whose validity bit is set;
// the other slots get zero bytes.
//
// Null slots scattered among values (pyarrow's `primitive` group: a quarter
// of the slots null, runs of about four values) made a memcpy and a memset
// call per run the most of a read; here the slots go 64 at a time: a word
// of set bits is one copy, words of clear bits one fill, a word of few set
// bits a fill and a store per value, and other words a loop without
// branches (each slot takes the next value or zero, and the value index
// moves on by the slot's bit).
//
// The values may be the tail of `out` itself (decoded there first, as
// TypedDecoder::DecodeSpaced does): value j then sits at slot
// num_slots - valid + j, never before the slot it goes to, and a null
// slot written (now or in a later fill) is always before every value not
// yet moved, so the forward pass reads each value before anything
// overwrites it.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "quiver/parquet/encoding/spaced_simd.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver::parquet::internal {

// Zeroes bytes [0, size) of dest: 16-byte stores (a short memset is
// inlined as rep stos by GCC, slow to start on AMD).
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
inline void ZeroBytes(uint8_t* dest, int64_t size) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  int64_t i = 0;
  for (; i + 16 <= size; i += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(dest + i), zero);
  for (; i < size; ++i) dest[i] = 0;
#else
  std::memset(dest, 0, static_cast<size_t>(size));
#endif
}

// Word is an unsigned integer of the values' width (1, 2, 4, 8 or 16 bytes).
template <typename Word>
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))  // see the loops below
#endif
void ExpandSpacedWords(const uint8_t* values, int64_t valid, const uint8_t* validity,
                       int64_t validity_offset, int64_t num_slots, uint8_t* out) {
  constexpr int64_t kWidth = sizeof(Word);
  constexpr int kFewValues = 16;  // measured: fewer go faster one by one
  int64_t j = 0;          // the next value
  int64_t zeros_from = 0;  // slots [zeros_from, i) are null, not yet zeroed
  auto zero_slots = [&](int64_t to) {
    if (to > zeros_from) {
      std::memset(out + zeros_from * kWidth, 0, static_cast<size_t>((to - zeros_from) * kWidth));
    }
  };
  for (int64_t i = 0; i < num_slots; i += 64) {
    const int n = static_cast<int>(std::min<int64_t>(64, num_slots - i));
    const uint64_t bits = bitmap::LoadBits(validity, validity_offset + i, n);
    uint8_t* dest = out + i * kWidth;
    if (bits == 0) continue;  // zeroed with the next words of nulls, in one fill
    zero_slots(i);
    zeros_from = i + n;
    if (bits == bit_util::LeastSignificantBitMask(n)) {
      std::memmove(dest, values + j * kWidth, static_cast<size_t>(n * kWidth));
      j += n;
    } else if (const int count = std::popcount(bits); count <= kFewValues) {
      // Few values (sparse columns): read them, zero the word's slots, then
      // put each value at its bit (read first: they may lie in those slots).
      // (A loop and ZeroBytes, not memcpy / memset: GCC inlines those as
      // rep movs / rep stos here, slow to start on short lengths.)
      Word few[kFewValues];
      for (int t = 0; t < count; ++t) few[t] = bit_util::SafeLoad<Word>(values + (j + t) * kWidth);
      ZeroBytes(dest, n * kWidth);
      uint64_t rest = bits;
      for (int t = 0; t < count; ++t) {
        bit_util::SafeStore<Word>(dest + std::countr_zero(rest) * kWidth, few[t]);
        rest &= rest - 1;
      }
      j += count;
    } else {
      // A value is read for every slot: the index stops at the last value
      // (a word with a set bit has one), so nothing past `valid` is read.
      const int64_t last = valid - 1;
      for (int k = 0; k < n; ++k) {
        const uint64_t bit = (bits >> k) & 1;
        const Word v = bit_util::SafeLoad<Word>(values + std::min(j, last) * kWidth);
        const auto mask = static_cast<Word>(Word{0} - static_cast<Word>(bit));
        bit_util::SafeStore<Word>(dest + k * kWidth, static_cast<Word>(v & mask));
        j += static_cast<int64_t>(bit);
      }
    }
  }
  zero_slots(num_slots);
}

// Values of any width: by the AVX-512 kernels where the CPU has them (4, 8
// and 16 bytes; spaced_simd.h); else 64 slots at a time for 1, 2, 4, 8 and
// 16 bytes; other widths (INT96, fixed-size binary) run by run, a fill and
// a move each. No value (an all-null page): one fill (the kernels' masked
// stores took 4.4 ms of primitive_all_null's 1,048,576 rows, the fill 2.6).
// (At 1% valid the kernels and the word loop measured alike.)
inline void ExpandSpaced(int64_t width, const uint8_t* values, int64_t valid,
                         const uint8_t* validity, int64_t validity_offset, int64_t num_slots,
                         uint8_t* out) {
  if (valid == 0) {
    if (num_slots > 0) std::memset(out, 0, static_cast<size_t>(num_slots * width));
    return;
  }
  if (SpacedSimdEnabled(width)) {
    return ExpandSpacedSimd(width, values, valid, validity, validity_offset, num_slots, out);
  }
  switch (width) {
    case 1:
      return ExpandSpacedWords<uint8_t>(values, valid, validity, validity_offset, num_slots, out);
    case 2:
      return ExpandSpacedWords<uint16_t>(values, valid, validity, validity_offset, num_slots, out);
    case 4:
      return ExpandSpacedWords<uint32_t>(values, valid, validity, validity_offset, num_slots, out);
    case 8:
      return ExpandSpacedWords<uint64_t>(values, valid, validity, validity_offset, num_slots, out);
#if defined(__SIZEOF_INT128__)
    case 16:  // decimal128, UUIDs
      return ExpandSpacedWords<unsigned __int128>(values, valid, validity, validity_offset,
                                                  num_slots, out);
#endif
    default:
      break;
  }
  const uint8_t* from = values;
  int64_t next = 0;  // the first slot not yet written
  bitmap::VisitSetBitRuns(validity, validity_offset, num_slots, [&](int64_t pos, int64_t len) {
    if (pos > next) std::memset(out + next * width, 0, static_cast<size_t>((pos - next) * width));
    std::memmove(out + pos * width, from, static_cast<size_t>(len * width));
    from += len * width;
    next = pos + len;
  });
  if (num_slots > next) {
    std::memset(out + next * width, 0, static_cast<size_t>((num_slots - next) * width));
  }
}

}  // namespace quiver::parquet::internal
