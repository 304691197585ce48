// The RLE / bit-packing hybrid encoding (apache/parquet-format Encodings.md,
// "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)"):
//
//   encoded-data := <run>*
//   bit-packed run: ULEB128(groups << 1 | 1), then groups * 8 values of
//                   bit_width bits packed LSB first (groups * bit_width bytes)
//   RLE run:        ULEB128(count << 1), then the value in
//                   ceil(bit_width / 8) little-endian bytes
//
// optionally preceded by the byte length of the encoded data as a 4-byte
// little-endian integer (v1 data page levels and RLE booleans; not for v2
// levels nor dictionary indices, whose bit-width byte the caller writes).
//
// Run choice (the same rule as Arrow C++'s RleEncoder and parquet-mr's
// RunLengthBitPackingHybridEncoder, so the bytes match Arrow C++'s): values
// are grouped by 8 from the start of the stream and after each RLE run; a
// group of 8 equal values starts an RLE run, which then extends for as long
// as the value repeats; other groups are appended to the current bit-packed
// run, which holds at most 63 groups so that its header is one byte. At the
// end, pending values that are all equal (with no bit-packed run open) become
// an RLE run; otherwise the last group is padded with zeros.
#pragma once

#include <cstdint>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

class RleBitPackedEncoder {
 public:
  static constexpr int kMaxBitWidth = 32;
  static constexpr int64_t kLengthPrefixSize = 4;

  // Appends to `out` (which must outlive the encoder, and which nothing else
  // may append to between the first Put and Flush). bit_width in [0, 32].
  RleBitPackedEncoder(int bit_width, MutableBuffer* out, bool length_prefix = false);

  RleBitPackedEncoder(const RleBitPackedEncoder&) = delete;
  RleBitPackedEncoder& operator=(const RleBitPackedEncoder&) = delete;

  // Upper bound of the bytes Flush() appends for `num_values` values,
  // excluding the optional 4-byte length prefix.
  static int64_t MaxEncodedSize(int bit_width, int64_t num_values);

  // Invalid if `value` does not fit in bit_width bits.
  Status Put(uint64_t value) {
    if (QUIVER_PREDICT_FALSE(value > max_value_)) return ValueTooWide(value);
    ++num_values_;
    if (value == current_value_ && repeat_count_ > 0) {
      ++repeat_count_;
      if (repeat_count_ > 8) return Status::OK();  // extends the current RLE run
    } else {
      if (repeat_count_ >= 8) QUIVER_RETURN_NOT_OK(FlushRepeatedRun());
      repeat_count_ = 1;
      current_value_ = value;
    }
    buffered_[num_buffered_++] = static_cast<uint32_t>(value);
    if (num_buffered_ == 8) return FlushGroup();
    return Status::OK();
  }

  // Same bytes as `count` calls of Put(value), in O(1) once an RLE run is open.
  Status PutRepeated(uint64_t value, int64_t count);

  // Put() for each value; runs of equal values go through PutRepeated().
  Status PutBatch(const uint8_t* values, int64_t n);
  Status PutBatch(const int16_t* values, int64_t n);
  Status PutBatch(const int32_t* values, int64_t n);
  Status PutBatch(const uint32_t* values, int64_t n);

  // Put() of bits [offset, offset + n) of the LSB-first bitmap `bits`, each
  // a value 0 or 1 (booleans, levels 0/1); bit_width must be 1. Whole groups
  // of 8 bits that are not all equal become bit-packed groups as their bytes,
  // 64 bits a step; runs of equal bits go through PutRepeated.
  Status PutBitmap(const uint8_t* bits, int64_t offset, int64_t n);

  // Writes out the pending runs (and patches the length prefix); returns the
  // number of bytes appended to `out` since the previous Flush() (prefix
  // included). The encoder is then empty and may encode a new stream.
  Result<int64_t> Flush();

  int bit_width() const { return bit_width_; }
  // Values put since the previous Flush().
  int64_t num_values() const { return num_values_; }

 private:
  template <typename T>
  Status PutBatchImpl(const T* values, int64_t n);
  Status FlushGroup();
  // Appends the 8 values at `v` to the bit-packed run as one group (a byte
  // of bits at bit width 1).
  template <typename T>
  void AppendLiteralGroup(const T* v);
  Status PutBitmapGroups(const uint8_t* bits, int64_t offset, int64_t n, int64_t* taken);
  Status FlushRepeatedRun();
  Status FlushLiteralRun();
  Status Begin();
  Status ValueTooWide(uint64_t value) const;

  static constexpr int kMaxLiteralGroups = 63;

  int bit_width_;
  uint64_t max_value_;
  MutableBuffer* out_;
  bool length_prefix_;
  bool started_ = false;
  int64_t start_ = 0;

  uint64_t current_value_ = 0;
  int64_t repeat_count_ = 0;
  int64_t num_values_ = 0;

  uint32_t buffered_[8];
  int num_buffered_ = 0;
  // The open bit-packed run: num_literal_ values, a multiple of 8. At bit
  // width 1 its groups are kept packed, a byte each, in literal_bits_; at
  // other widths as values in literal_.
  uint32_t literal_[kMaxLiteralGroups * 8];
  uint8_t literal_bits_[kMaxLiteralGroups];
  int num_literal_ = 0;
};

// Decodes an RLE / bit-packed hybrid stream of known bit width (without the
// length prefix: see ReadLengthPrefix). Safe on untrusted input: no byte
// outside [data, data + size) is read. A bit-packed run whose header claims
// more bytes than remain is cut to the values that are present; malformed
// headers, zero-length runs, truncated RLE values and RLE values wider than
// bit_width stop decoding and set status().
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  RleBitPackedDecoder(const uint8_t* data, int64_t size, int bit_width);

  // Validates a 4-byte little-endian length prefix at `data` and returns the
  // length it gives (the encoded data follows it).
  static Result<int64_t> ReadLengthPrefix(const uint8_t* data, int64_t size);

  // Decodes up to n values; returns how many were decoded (fewer at the end
  // of the data or on an error: see status()). Values are narrowed to T.
  template <typename T>
  int64_t GetBatch(T* out, int64_t n);

  // Moves past up to n values, adding to *equal how many of them equal
  // `value`; returns how many it moved past. An RLE run is counted without
  // being expanded. Stops early at the end of the data, on an error (see
  // status()), or just before the first value above `max_value`, which is
  // then the next value GetBatch() or Count() returns: a caller that got
  // fewer than n with status() OK tells the two apart with GetBatch(&v, 1).
  int64_t Count(int64_t n, uint32_t value, uint32_t max_value, int64_t* equal);

  // Bit width 1 only (definition levels of a column whose maximum level is
  // 1): decodes up to n values as bits [out_offset, out_offset + n) of
  // `out` and adds to *ones how many are 1. RLE runs are set as ranges and
  // bit-packed runs copied as bitmaps (the hybrid packs values from the
  // least significant bit, as Arrow bitmaps are laid out). Returns how many
  // were decoded, as GetBatch().
  int64_t GetBits(uint8_t* out, int64_t out_offset, int64_t n, int64_t* ones);

  // Moves past up to n values without unpacking them: RLE runs by their
  // counts, bit-packed runs by arithmetic (a block is unpacked only when a
  // later call reads from inside it). Values are not checked (an index a
  // skip passes over is never compared with anything). Returns how many it
  // moved past, as GetBatch().
  int64_t Skip(int64_t n);

  // OK, or why decoding stopped before the end of the data.
  const Status& status() const { return status_; }
  int bit_width() const { return bit_width_; }

 private:
  bool NextRun();
  void Fail(Status status);
  void LoadBlock();
  // The index, within the current bit-packed run, of its next value.
  int64_t LiteralIndex() const {
    return block_pos_ == 32 ? lit_block_ * 32 + lazy_pos_ : (lit_block_ - 1) * 32 + block_pos_;
  }
  // Moves past k (<= lit_left_) values of the current bit-packed run.
  // Nothing is unpacked here: a read from inside a block not loaded loads
  // it then (at the run's end none is needed: GetBits and Count take the
  // rest of a run as bits).
  void SkipLiteral(int64_t k) {
    const int64_t next = LiteralIndex() + k;
    lit_left_ -= k;
    if (block_pos_ < 32 && next / 32 == lit_block_ - 1) {
      block_pos_ = static_cast<int>(next % 32);  // within the block loaded
      return;
    }
    lit_block_ = next / 32;
    block_pos_ = 32;
    lazy_pos_ = static_cast<int>(next % 32);
  }

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  Status status_;

  // Current RLE run.
  int64_t rle_left_ = 0;
  uint32_t rle_value_ = 0;
  // Current bit-packed run: values left, its data, and a decoded block of 32.
  int64_t lit_left_ = 0;
  const uint8_t* lit_data_ = nullptr;
  int64_t lit_block_ = 0;  // index of the next block of 32 values to decode
  int block_pos_ = 32;     // next value in block_ (32: empty)
  // With block_pos_ 32: the next value is value lazy_pos_ of block
  // lit_block_ (a skip ended there; LoadBlock starts at it).
  int lazy_pos_ = 0;
  uint32_t block_[32];
};

extern template int64_t RleBitPackedDecoder::GetBatch(uint8_t*, int64_t);
extern template int64_t RleBitPackedDecoder::GetBatch(int16_t*, int64_t);
extern template int64_t RleBitPackedDecoder::GetBatch(uint16_t*, int64_t);
extern template int64_t RleBitPackedDecoder::GetBatch(int32_t*, int64_t);
extern template int64_t RleBitPackedDecoder::GetBatch(uint32_t*, int64_t);
extern template int64_t RleBitPackedDecoder::GetBatch(int64_t*, int64_t);
extern template int64_t RleBitPackedDecoder::GetBatch(uint64_t*, int64_t);

}  // namespace quiver::parquet
