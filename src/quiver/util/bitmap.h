// bitmap: operations on raw LSB-first bitmaps (Arrow validity-bitmap layout)
// at arbitrary bit offsets.
//
// Every range is given as (pointer, bit offset, bit length). Contract shared
// by all functions here:
//  - Only bytes [offset / 8, BytesForBits(offset + length)) of each bitmap are
//    read, so a buffer of exactly BytesForBits(offset + length) bytes is
//    enough. Destination bits outside [offset, offset + length) are
//    preserved; destination bytes outside that byte range are not touched.
//  - length == 0 is a no-op and never dereferences (nor offsets) a pointer,
//    so null pointers are fine then.
//  - Offsets and lengths must be non-negative.
//  - A destination may alias a source only when it has the same offset
//    (in-place operation); otherwise the ranges must not overlap.
//
// Whole-range loops live in bitmap.cc: they handle the unaligned head and tail
// with masks and the middle 64 bits at a time (memcpy loads, so no unaligned
// access UB). The per-bit reader/writer classes, the word load/store helpers
// and the run visitor are inline here. Modelled on Arrow C++'s
// arrow/util/bitmap_ops.h, bitmap_reader.h and bitmap_writer.h.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>

#include "quiver/util/bit_util.h"

namespace quiver::bitmap {

// ---------------------------------------------------------------------------
// Word access at any bit offset

// Returns the `nbits` (0..64) bits starting at bit `bit_offset`, bit 0 of the
// result being bit `bit_offset` of the bitmap; the higher bits are zero.
// Reads only the bytes that hold those bits.
inline uint64_t LoadBits(const uint8_t* data, int64_t bit_offset, int nbits) {
  if (nbits <= 0) return 0;
  const uint8_t* p = data + (bit_offset >> 3);
  const int shift = static_cast<int>(bit_offset & 7);
  const int nbytes = (shift + nbits + 7) >> 3;  // 1..9
  uint64_t word;
  if (nbytes >= 8) {
    word = bit_util::FromLittleEndian(bit_util::SafeLoad<uint64_t>(p)) >> shift;
    // Nine bytes only when shift > 0, so the shift below is in [57, 63].
    if (nbytes == 9) word |= static_cast<uint64_t>(p[8]) << (64 - shift);
  } else {
    word = 0;
    for (int i = 0; i < nbytes; ++i) word |= static_cast<uint64_t>(p[i]) << (8 * i);
    word >>= shift;
  }
  return word & bit_util::LeastSignificantBitMask(nbits);
}

// LoadBits of a bitmap of `size` readable bytes: where the 8 bytes from
// the first one lie within them and nbits <= 57 (so that the bits fit one
// word after the shift), one unaligned load, with no branch on how many
// bytes hold the bits; else LoadBits. For short runs of bits at random
// offsets (a list slot's few elements), where LoadBits' byte loop
// mispredicts whenever the run crosses a byte. As LoadBits, nbits == 0
// reads nothing outside the bitmap whatever the offset (a null list
// slot's offsets are not judged and may be negative or past the end).
inline uint64_t LoadBitsIn(const uint8_t* data, int64_t size, int64_t bit_offset, int nbits) {
  const int64_t byte = bit_offset >> 3;
  // byte in [0, size - 8], by one unsigned compare (a negative byte is
  // above any room); `room` does not depend on the offset, so a loop over
  // one bitmap computes it once.
  const auto room = static_cast<uint64_t>(std::max<int64_t>(size - 7, 0));
  if (nbits <= 57 && static_cast<uint64_t>(byte) < room) [[likely]] {
    return (bit_util::FromLittleEndian(bit_util::SafeLoad<uint64_t>(data + byte)) >> (bit_offset & 7)) &
           bit_util::LeastSignificantBitMask(nbits);
  }
  return LoadBits(data, bit_offset, nbits);
}

// Writes the low `nbits` (0..64) bits of `bits` to bits
// [bit_offset, bit_offset + nbits), preserving every other bit. Reads and
// writes only the bytes that hold those bits.
inline void StoreBits(uint8_t* data, int64_t bit_offset, int nbits, uint64_t bits) {
  if (nbits <= 0) return;
  uint8_t* p = data + (bit_offset >> 3);
  const int shift = static_cast<int>(bit_offset & 7);
  const int nbytes = (shift + nbits + 7) >> 3;  // 1..9
  const uint64_t value_mask = bit_util::LeastSignificantBitMask(nbits);
  bits &= value_mask;
  const uint64_t mask = value_mask << shift;
  if (nbytes >= 8) {
    uint64_t word = bit_util::FromLittleEndian(bit_util::SafeLoad<uint64_t>(p));
    word = (word & ~mask) | (bits << shift);
    bit_util::SafeStore(p, bit_util::ToLittleEndian(word));
    if (nbytes == 9) {
      // shift > 0 here and the spill-over is shift + nbits - 64 in [1, 7] bits.
      const uint8_t high_mask = bit_util::PrecedingBitmask(shift + nbits - 64);
      const uint8_t high_bits = static_cast<uint8_t>(bits >> (64 - shift));
      p[8] = static_cast<uint8_t>((p[8] & ~high_mask) | (high_bits & high_mask));
    }
  } else {
    const uint64_t shifted = bits << shift;
    for (int i = 0; i < nbytes; ++i) {
      const uint8_t m = static_cast<uint8_t>(mask >> (8 * i));
      const uint8_t v = static_cast<uint8_t>(shifted >> (8 * i));
      p[i] = static_cast<uint8_t>((p[i] & ~m) | (v & m));
    }
  }
}

// ---------------------------------------------------------------------------
// Whole-range operations (bitmap.cc)

// Number of set bits in [bit_offset, bit_offset + length).
int64_t CountSetBits(const uint8_t* data, int64_t bit_offset, int64_t length);

// Whether bits [bit_offset, bit_offset + length) hold a set bit (*any_set
// becomes true) and an unset bit (*any_unset becomes true); a flag already
// true stays true, and the scan stops once both are (a bool column's
// statistics need only that: min and max, not how many are set; random
// values show both in their first word).
void FindSetAndUnset(const uint8_t* data, int64_t bit_offset, int64_t length, bool* any_set,
                     bool* any_unset);

// Sets bits [offset, offset + length) to `value`.
void SetBitsTo(uint8_t* data, int64_t offset, int64_t length, bool value);

// Bits [0, length) of `dest` from bytes[0, length), each 0 or 1 (a loop
// that records one byte per item without the read-modify-write of a bit,
// then packs eight at a time). Bits past `length` in the last byte are 0.
void PackBytes(const uint8_t* bytes, int64_t length, uint8_t* dest);

// dest[dest_offset + i] = src[src_offset + i] for i in [0, length).
void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dest,
                int64_t dest_offset);

// dest[dest_offset + i] = !src[src_offset + i] for i in [0, length).
void InvertBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dest,
                  int64_t dest_offset);

// dest[dest_offset + i] = left[left_offset + i] OP right[right_offset + i].
void BitmapAnd(const uint8_t* left, int64_t left_offset, const uint8_t* right,
               int64_t right_offset, int64_t length, uint8_t* dest, int64_t dest_offset);
void BitmapOr(const uint8_t* left, int64_t left_offset, const uint8_t* right,
              int64_t right_offset, int64_t length, uint8_t* dest, int64_t dest_offset);
void BitmapXor(const uint8_t* left, int64_t left_offset, const uint8_t* right,
               int64_t right_offset, int64_t length, uint8_t* dest, int64_t dest_offset);
// left AND NOT right.
void BitmapAndNot(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                  int64_t right_offset, int64_t length, uint8_t* dest, int64_t dest_offset);

// True if the two bit ranges hold the same bits.
bool BitmapEquals(const uint8_t* left, int64_t left_offset, const uint8_t* right,
                  int64_t right_offset, int64_t length);

// ---------------------------------------------------------------------------
// Bit-at-a-time reader and writer

// Reads bits [start_offset, start_offset + length) one at a time:
//   for (int64_t i = 0; i < length; ++i) { use(reader.IsSet()); reader.Next(); }
// Never reads a byte past the range, even after the final Next().
class BitmapReader {
 public:
  BitmapReader(const uint8_t* bitmap, int64_t start_offset, int64_t length)
      : bitmap_(bitmap),
        length_(length),
        byte_offset_(start_offset >> 3),
        bit_offset_(static_cast<int>(start_offset & 7)) {
    if (length_ > 0) current_byte_ = bitmap_[byte_offset_];
  }

  bool IsSet() const { return (current_byte_ & (1u << bit_offset_)) != 0; }
  bool IsNotSet() const { return !IsSet(); }

  void Next() {
    ++bit_offset_;
    ++position_;
    if (bit_offset_ == 8) {
      bit_offset_ = 0;
      ++byte_offset_;
      if (position_ < length_) current_byte_ = bitmap_[byte_offset_];
    }
  }

  // Index of the current bit relative to start_offset.
  int64_t position() const { return position_; }
  int64_t length() const { return length_; }

 private:
  const uint8_t* bitmap_;
  int64_t position_ = 0;
  int64_t length_;
  int64_t byte_offset_;
  int bit_offset_;
  uint8_t current_byte_ = 0;
};

// Appends bits to a bitmap from a bit offset on, 64 at a time: the bits
// before the offset in its byte are kept, each whole word is stored once,
// and Finish writes the last bits' bytes only, keeping the bits after them.
// For runs of bits (a level decoder's runs, a few dozen bits each), where a
// CopyBitmap or SetBitsTo call per run, each reading and masking the bytes
// at both ends, costs more than the bits.
//   BitAppender out(bitmap, offset); out.Append(bits, 13); ...; out.Finish();
class BitAppender {
 public:
  BitAppender(uint8_t* bitmap, int64_t offset)
      : p_(bitmap + (offset >> 3)), n_(static_cast<int>(offset & 7)) {
    acc_ = n_ == 0 ? 0 : (*p_ & bit_util::LeastSignificantBitMask(n_));
  }
  // The low m (1..64) bits of `bits`, whose higher bits are zero.
  void Append(uint64_t bits, int m) {
    acc_ |= bits << n_;
    if (n_ + m >= 64) {
      bit_util::StoreLittleEndian(p_, acc_);
      p_ += 8;
      acc_ = n_ == 0 ? 0 : bits >> (64 - n_);
      n_ += m - 64;
    } else {
      n_ += m;
    }
  }
  // Bits [src_offset, src_offset + length) of `src`. A long range is
  // stored straight away by CopyBitmap (whole vectors), the appender then
  // resuming after it.
  void AppendBitmap(const uint8_t* src, int64_t src_offset, int64_t length) {
    if (length < 256) {
      for (int64_t p = 0; p < length; p += 64) {
        const int m = length - p < 64 ? static_cast<int>(length - p) : 64;
        Append(LoadBits(src, src_offset + p, m), m);
      }
      return;
    }
    StoreBits(p_, 0, n_, acc_);
    CopyBitmap(src, src_offset, length, p_, n_);
    const int64_t end = n_ + length;
    p_ += (end >> 6) * 8;
    n_ = static_cast<int>(end & 63);
    acc_ = LoadBits(p_, 0, n_);
  }
  // k copies of `bit`.
  void AppendRepeated(bool bit, int64_t k) {
    const uint64_t word = bit ? ~uint64_t{0} : 0;
    for (; k >= 64; k -= 64) Append(word, 64);
    if (k > 0) Append(word & bit_util::LeastSignificantBitMask(static_cast<int>(k)), static_cast<int>(k));
  }
  // Stores the bits not yet stored. Call once, after the last Append.
  void Finish() { StoreBits(p_, 0, n_, acc_); }

 private:
  uint8_t* p_;    // the byte the next word starts at
  int n_;         // bits in acc_ (0..63)
  uint64_t acc_;  // bits from p_'s bit 0 on
};

// Writes bits [start_offset, start_offset + length) one at a time:
//   for (...) { if (v) writer.Set(); else writer.Clear(); writer.Next(); }
//   writer.Finish();
// Full bytes are stored as the writer leaves them; Finish() stores the last,
// partial byte. Bits of the first and last byte outside the range keep their
// old values.
class BitmapWriter {
 public:
  BitmapWriter(uint8_t* bitmap, int64_t start_offset, int64_t length)
      : bitmap_(bitmap),
        length_(length),
        byte_offset_(start_offset >> 3),
        bit_mask_(bit_util::kBitmask[start_offset & 7]) {
    if (length_ > 0) current_byte_ = bitmap_[byte_offset_];
  }

  void Set() { current_byte_ |= bit_mask_; }
  void Clear() { current_byte_ &= static_cast<uint8_t>(~bit_mask_); }
  void SetTo(bool value) {
    if (value) {
      Set();
    } else {
      Clear();
    }
  }

  void Next() {
    bit_mask_ = static_cast<uint8_t>(bit_mask_ << 1);
    ++position_;
    if (bit_mask_ == 0) {
      bit_mask_ = 1;
      bitmap_[byte_offset_++] = current_byte_;
      if (position_ < length_) current_byte_ = bitmap_[byte_offset_];
    }
  }

  // Stores the pending partial byte, if any. Call once after the last Next().
  void Finish() {
    if (length_ > 0 && (bit_mask_ != 0x01 || position_ < length_)) {
      bitmap_[byte_offset_] = current_byte_;
    }
  }

  int64_t position() const { return position_; }
  int64_t length() const { return length_; }

 private:
  uint8_t* bitmap_;
  int64_t position_ = 0;
  int64_t length_;
  int64_t byte_offset_;
  uint8_t bit_mask_;
  uint8_t current_byte_ = 0;
};

// ---------------------------------------------------------------------------
// Runs of set bits

// Calls visit(position, run_length) for every maximal run of set bits in
// [offset, offset + length), in increasing order; `position` is relative to
// `offset`. Scans 64 bits at a time, skipping all-zero words (outside a run)
// and all-one words (inside a run) without looking at single bits.
template <typename Visit>
void VisitSetBitRuns(const uint8_t* bitmap, int64_t offset, int64_t length, Visit&& visit) {
  bool in_run = false;
  int64_t run_start = 0;
  for (int64_t pos = 0; pos < length; pos += 64) {
    const int nbits = length - pos < 64 ? static_cast<int>(length - pos) : 64;
    const uint64_t word = LoadBits(bitmap, offset + pos, nbits);
    if (word == (in_run ? bit_util::LeastSignificantBitMask(nbits) : uint64_t{0})) continue;
    int i = 0;
    while (i < nbits) {
      if (!in_run) {
        const uint64_t rest = word >> i;
        if (rest == 0) break;
        i += std::countr_zero(rest);
        run_start = pos + i;
        in_run = true;
      } else {
        // Bits beyond nbits are zero in `word`, so they end a run here.
        const uint64_t rest = ~word >> i;
        if (rest == 0) break;  // Run continues into the next word.
        i += std::countr_zero(rest);
        visit(run_start, pos + i - run_start);
        in_run = false;
      }
    }
  }
  if (in_run) visit(run_start, length - run_start);
}

}  // namespace quiver::bitmap
