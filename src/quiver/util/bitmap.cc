// bitmap.cc: the whole-range loops of bitmap.h.
//
// Shape of every transforming loop (copy, invert, and/or/xor/andnot):
//  1. head: the bits up to the next byte boundary of the destination, done
//     with one masked LoadBits/StoreBits;
//  2. middle: whole 64-bit destination words, written with a plain 8-byte
//     store (the destination is byte aligned now). If every source has the
//     same bit phase as the destination the sources are byte aligned too and
//     are read with plain 8-byte loads; otherwise each source word is
//     assembled from an 8-byte load plus (when the phase is not 0) one more
//     byte, which still lies inside the source range;
//  3. tail: the remaining < 64 bits with one masked LoadBits/StoreBits.
// All loads and stores of whole words go through memcpy (SafeLoad/SafeStore).
#include "quiver/util/bitmap.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <tuple>

#include "quiver/util/bit_util.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver::bitmap {
namespace {

inline uint64_t LoadWord(const uint8_t* p) {
  return bit_util::FromLittleEndian(bit_util::SafeLoad<uint64_t>(p));
}

inline void StoreWord(uint8_t* p, uint64_t word) {
  bit_util::SafeStore(p, bit_util::ToLittleEndian(word));
}

// Two 64-bit words as one vector (GCC/Clang vector extension): bitwise
// ops apply lane by lane, so the bit order is that of the bytes in memory.
typedef uint64_t Word2 __attribute__((vector_size(16)));

inline Word2 LoadWord2(const uint8_t* p) {
  Word2 v;
  std::memcpy(&v, p, sizeof(Word2));
  return v;
}

// Two words from bit `shift` (0..7) of p[0] on a little-endian machine:
// each lane's top bits come from the next word ((b << 1) << (63 - shift)
// is b << (64 - shift) without a 64-bit shift when shift is 0). Reads the
// 24 bytes p[0..24).
inline Word2 LoadShiftedWord2(const uint8_t* p, int shift) {
  const Word2 a = LoadWord2(p);
  const Word2 b = LoadWord2(p + 8);
  return (a >> shift) | ((b << 1) << (63 - shift));
}

template <size_t N, typename Op>
inline Word2 ApplyShifted(Op op, const std::array<const uint8_t*, N>& src,
                          const std::array<int, N>& shift, int64_t at) {
  static_assert(N == 1 || N == 2);
  if constexpr (N == 1) {
    return op(LoadShiftedWord2(src[0] + at, shift[0]));
  } else {
    return op(LoadShiftedWord2(src[0] + at, shift[0]), LoadShiftedWord2(src[1] + at, shift[1]));
  }
}

// op(src[0][at..at+16), ..., src[N-1][at..at+16)) for byte-aligned sources.
template <size_t N, typename Op>
inline Word2 Apply(Op op, const std::array<const uint8_t*, N>& src, int64_t at) {
  static_assert(N == 1 || N == 2);
  if constexpr (N == 1) {
    return op(LoadWord2(src[0] + at));
  } else {
    return op(LoadWord2(src[0] + at), LoadWord2(src[1] + at));
  }
}

// 64 bits starting `shift` (0..7) bits into byte p[0]. Reads p[8] only if
// shift > 0, i.e. only if some of the 64 bits live there.
inline uint64_t LoadShiftedWord(const uint8_t* p, int shift) {
  uint64_t word = LoadWord(p);
  if (shift != 0) {
    word = (word >> shift) | (static_cast<uint64_t>(p[8]) << (64 - shift));
  }
  return word;
}

// dest[dest_offset + i] = op(src[0][offsets[0] + i], ..., src[N-1][...]) for
// 64-bit words; `op` takes N uint64_t (or N Word2) and returns the same.
template <size_t N, typename Op>
void Transform(const std::array<const uint8_t*, N>& src, const std::array<int64_t, N>& src_offset,
               int64_t length, uint8_t* dest, int64_t dest_offset, Op op) {
  if (length <= 0) return;
  std::array<uint64_t, N> in;

  auto do_partial = [&](int64_t pos, int nbits) {
    for (size_t k = 0; k < N; ++k) in[k] = LoadBits(src[k], src_offset[k] + pos, nbits);
    StoreBits(dest, dest_offset + pos, nbits, std::apply(op, in));
  };

  // 1. Head: align the destination to a byte boundary.
  const int64_t head = std::min<int64_t>(length, (8 - (dest_offset & 7)) & 7);
  if (head > 0) do_partial(0, static_cast<int>(head));
  int64_t pos = head;

  // 2. Middle: whole destination words.
  const int64_t num_words = (length - pos) / 64;
  if (num_words > 0) {
    uint8_t* out = dest + ((dest_offset + pos) >> 3);
    std::array<const uint8_t*, N> in_ptr;
    std::array<int, N> in_shift;
    bool all_aligned = true;
    for (size_t k = 0; k < N; ++k) {
      in_ptr[k] = src[k] + ((src_offset[k] + pos) >> 3);
      in_shift[k] = static_cast<int>((src_offset[k] + pos) & 7);
      all_aligned = all_aligned && in_shift[k] == 0;
    }
    if (all_aligned) {
      // Four words at a time as two 16-byte vectors (SSE2 registers on the
      // x86-64 baseline): the ops are plain bitwise ones.
      int64_t w = 0;
      for (; w + 4 <= num_words; w += 4) {
        const Word2 lo = Apply<N>(op, in_ptr, 8 * w);
        const Word2 hi = Apply<N>(op, in_ptr, 8 * w + 16);
        std::memcpy(out + 8 * w, &lo, sizeof(Word2));
        std::memcpy(out + 8 * w + 16, &hi, sizeof(Word2));
      }
      for (; w < num_words; ++w) {
        for (size_t k = 0; k < N; ++k) in[k] = LoadWord(in_ptr[k] + 8 * w);
        StoreWord(out + 8 * w, std::apply(op, in));
      }
    } else {
      int64_t w = 0;
      if constexpr (std::endian::native == std::endian::little) {
        // Four words at a time while the word after them lies inside every
        // source (w + 4 < num_words): each vector lane shifted in from the
        // next word, as LoadShiftedWord does with one byte.
        for (; w + 5 <= num_words; w += 4) {
          const Word2 lo = ApplyShifted<N>(op, in_ptr, in_shift, 8 * w);
          const Word2 hi = ApplyShifted<N>(op, in_ptr, in_shift, 8 * w + 16);
          std::memcpy(out + 8 * w, &lo, sizeof(Word2));
          std::memcpy(out + 8 * w + 16, &hi, sizeof(Word2));
        }
      }
      for (; w < num_words; ++w) {
        for (size_t k = 0; k < N; ++k) in[k] = LoadShiftedWord(in_ptr[k] + 8 * w, in_shift[k]);
        StoreWord(out + 8 * w, std::apply(op, in));
      }
    }
    pos += 64 * num_words;
  }

  // 3. Tail.
  if (pos < length) do_partial(pos, static_cast<int>(length - pos));
}

template <typename Op>
void Unary(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dest,
           int64_t dest_offset, Op op) {
  Transform<1>({src}, {src_offset}, length, dest, dest_offset, op);
}

template <typename Op>
void Binary(const uint8_t* left, int64_t left_offset, const uint8_t* right, int64_t right_offset,
            int64_t length, uint8_t* dest, int64_t dest_offset, Op op) {
  Transform<2>({left, right}, {left_offset, right_offset}, length, dest, dest_offset, op);
}

}  // namespace

int64_t CountSetBits(const uint8_t* data, int64_t bit_offset, int64_t length) {
  if (length <= 0) return 0;
  const uint8_t* p = data + (bit_offset >> 3);
  const int shift = static_cast<int>(bit_offset & 7);
  int64_t count = 0;

  // Head: the rest of a partial first byte.
  if (shift != 0) {
    const int nbits = static_cast<int>(std::min<int64_t>(length, 8 - shift));
    const unsigned head_bits = (*p >> shift) & bit_util::PrecedingBitmask(nbits);
    count += std::popcount(head_bits);
    ++p;
    length -= nbits;
  }

  // Middle: 64 bits at a time, four independent accumulators.
  int64_t num_words = length / 64;
  int64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  for (; num_words >= 4; num_words -= 4, p += 32) {
    c0 += std::popcount(LoadWord(p));
    c1 += std::popcount(LoadWord(p + 8));
    c2 += std::popcount(LoadWord(p + 16));
    c3 += std::popcount(LoadWord(p + 24));
  }
  for (; num_words > 0; --num_words, p += 8) c0 += std::popcount(LoadWord(p));
  count += c0 + c1 + c2 + c3;

  // Tail: < 64 bits, starting byte aligned.
  const int rest = static_cast<int>(length & 63);
  if (rest > 0) count += std::popcount(LoadBits(p, 0, rest));
  return count;
}

void FindSetAndUnset(const uint8_t* data, int64_t bit_offset, int64_t length, bool* any_set,
                     bool* any_unset) {
  bool set = *any_set, unset = *any_unset;
  for (int64_t i = 0; i < length && !(set && unset); i += 64) {
    const int width = static_cast<int>(std::min<int64_t>(64, length - i));
    const uint64_t word = LoadBits(data, bit_offset + i, width);
    set = set || word != 0;
    unset = unset || word != bit_util::LeastSignificantBitMask(width);
  }
  *any_set = set;
  *any_unset = unset;
}

void SetBitsTo(uint8_t* data, int64_t offset, int64_t length, bool value) {
  if (length <= 0) return;
  const int64_t start_byte = offset >> 3;
  const int64_t end = offset + length;
  const int64_t end_byte = end >> 3;  // first byte not fully covered at the end
  const uint8_t fill = value ? 0xFF : 0x00;
  const uint8_t head_mask = bit_util::TrailingBitmask(static_cast<int>(offset & 7));
  const uint8_t tail_mask = bit_util::PrecedingBitmask(static_cast<int>(end & 7));

  auto set_masked = [&](uint8_t* byte, uint8_t mask) {
    *byte = static_cast<uint8_t>((*byte & ~mask) | (fill & mask));
  };

  if (start_byte == end_byte) {
    // The whole range lies inside one byte (and does not reach its end).
    set_masked(data + start_byte, static_cast<uint8_t>(head_mask & tail_mask));
    return;
  }
  int64_t first_full = start_byte;
  if ((offset & 7) != 0) {
    set_masked(data + start_byte, head_mask);
    ++first_full;
  }
  if (end_byte > first_full) {
    std::memset(data + first_full, fill, static_cast<size_t>(end_byte - first_full));
  }
  if ((end & 7) != 0) set_masked(data + end_byte, tail_mask);
}

void PackBytes(const uint8_t* bytes, int64_t length, uint8_t* dest) {
  int64_t i = 0;
#if defined(__SSE2__)
  // Sixteen at a time: bit 0 of each byte moved to bit 7, then movemask.
  for (; i + 16 <= length; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i));
    const auto mask = static_cast<uint32_t>(_mm_movemask_epi8(_mm_slli_epi16(v, 7)));
    dest[i >> 3] = static_cast<uint8_t>(mask);
    dest[(i >> 3) + 1] = static_cast<uint8_t>(mask >> 8);
  }
#endif
  for (; i + 8 <= length; i += 8) {
    uint8_t byte = 0;
    for (int j = 0; j < 8; ++j) byte |= static_cast<uint8_t>(bytes[i + j] << j);
    dest[i >> 3] = byte;
  }
  if (i < length) {
    uint8_t byte = 0;
    for (int j = 0; i + j < length; ++j) byte |= static_cast<uint8_t>(bytes[i + j] << j);
    dest[i >> 3] = byte;
  }
}

void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dest,
                int64_t dest_offset) {
  if (length <= 0) return;
  if ((src_offset & 7) == 0 && (dest_offset & 7) == 0) {
    // Byte aligned: whole bytes then one masked tail byte. memmove, not
    // memcpy, so that in-place copies (src == dest) are well defined.
    const uint8_t* s = src + (src_offset >> 3);
    uint8_t* d = dest + (dest_offset >> 3);
    const int64_t num_bytes = length >> 3;
    if (s != d) std::memmove(d, s, static_cast<size_t>(num_bytes));
    const int rest = static_cast<int>(length & 7);
    if (rest > 0) {
      const uint8_t mask = bit_util::PrecedingBitmask(rest);
      d[num_bytes] = static_cast<uint8_t>((d[num_bytes] & ~mask) | (s[num_bytes] & mask));
    }
    return;
  }
  Unary(src, src_offset, length, dest, dest_offset, [](auto a) { return a; });
}

void InvertBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dest,
                  int64_t dest_offset) {
  Unary(src, src_offset, length, dest, dest_offset, [](auto a) { return ~a; });
}

void BitmapAnd(const uint8_t* left, int64_t left_offset, const uint8_t* right,
               int64_t right_offset, int64_t length, uint8_t* dest, int64_t dest_offset) {
  Binary(left, left_offset, right, right_offset, length, dest, dest_offset,
         [](auto a, auto b) { return a & b; });
}

void BitmapOr(const uint8_t* left, int64_t left_offset, const uint8_t* right,
              int64_t right_offset, int64_t length, uint8_t* dest, int64_t dest_offset) {
  Binary(left, left_offset, right, right_offset, length, dest, dest_offset,
         [](auto a, auto b) { return a | b; });
}

void BitmapXor(const uint8_t* left, int64_t left_offset, const uint8_t* right,
               int64_t right_offset, int64_t length, uint8_t* dest, int64_t dest_offset) {
  Binary(left, left_offset, right, right_offset, length, dest, dest_offset,
         [](auto a, auto b) { return a ^ b; });
}

void BitmapAndNot(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                  int64_t right_offset, int64_t length, uint8_t* dest, int64_t dest_offset) {
  Binary(left, left_offset, right, right_offset, length, dest, dest_offset,
         [](auto a, auto b) { return a & ~b; });
}

bool BitmapEquals(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                  int64_t right_offset, int64_t length) {
  if (length <= 0) return true;
  const uint8_t* l = left + (left_offset >> 3);
  const uint8_t* r = right + (right_offset >> 3);
  const int left_shift = static_cast<int>(left_offset & 7);
  const int right_shift = static_cast<int>(right_offset & 7);

  if (left_shift == 0 && right_shift == 0) {
    const int64_t num_bytes = length >> 3;
    if (std::memcmp(l, r, static_cast<size_t>(num_bytes)) != 0) return false;
    const int rest = static_cast<int>(length & 7);
    if (rest == 0) return true;
    const uint8_t mask = bit_util::PrecedingBitmask(rest);
    return ((l[num_bytes] ^ r[num_bytes]) & mask) == 0;
  }

  // General case: 64 bits at a time. A shifted word at bit k ends at bit
  // k + 64 <= length, so its ninth byte is inside both ranges.
  const int64_t num_words = length / 64;
  for (int64_t w = 0; w < num_words; ++w) {
    if (LoadShiftedWord(l + 8 * w, left_shift) != LoadShiftedWord(r + 8 * w, right_shift)) {
      return false;
    }
  }
  const int64_t pos = num_words * 64;
  const int rest = static_cast<int>(length - pos);
  return LoadBits(left, left_offset + pos, rest) == LoadBits(right, right_offset + pos, rest);
}

}  // namespace quiver::bitmap
