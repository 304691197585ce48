// PLAIN encoding (apache/parquet-format Encodings.md, "Plain: (PLAIN = 0)"):
// values back to back, little endian:
//   BOOLEAN               bit-packed, LSB first
//   INT32 / FLOAT         4 bytes
//   INT64 / DOUBLE        8 bytes
//   INT96                 12 bytes
//   BYTE_ARRAY            4-byte little-endian length, then the bytes
//   FIXED_LEN_BYTE_ARRAY  the bytes
//
// Encoders take the values of a slot range plus an optional validity bitmap
// (nullptr: no nulls) and write only the valid slots. Fixed-width values are
// copied with one memcpy when there are no nulls, and one memcpy per run of
// valid slots otherwise (bitmap::VisitSetBitRuns). Arrow buffers are little
// endian, as Parquet is: Quiver supports little-endian hosts only.
//
// Decoders read from a page buffer they do not own, keep a cursor, and check
// every length against the bytes that remain.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// INT96 as stored: 12 little-endian bytes (nanoseconds of the day in the
// first 8, Julian day in the last 4).
struct Int96 {
  uint32_t value[3];
};
static_assert(sizeof(Int96) == 12);

// ---------------------------------------------------------------------------
// Encoders

// Appends the valid ones of `num_values` values of `byte_width` bytes at
// `values` (INT32, INT64, INT96, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY).
// validity: bit validity_offset + i says whether slot i is valid.
Status PlainEncodeFixedWidth(const void* values, int64_t num_values, int byte_width,
                             const uint8_t* validity, int64_t validity_offset,
                             MutableBuffer* out);

template <typename T>
Status PlainEncode(std::span<const T> values, const uint8_t* validity, int64_t validity_offset,
                   MutableBuffer* out) {
  return PlainEncodeFixedWidth(values.data(), static_cast<int64_t>(values.size()),
                               static_cast<int>(sizeof(T)), validity, validity_offset, out);
}

// Appends the valid ones of the `num_values` byte strings
// data[offsets[i], offsets[i + 1]) (Arrow binary/utf8 with int32 offsets, or
// large_binary/large_utf8 with int64 offsets). Invalid for a value longer
// than INT32_MAX bytes.
Status PlainEncodeByteArray(const int32_t* offsets, const uint8_t* data, int64_t num_values,
                            const uint8_t* validity, int64_t validity_offset,
                            MutableBuffer* out);
Status PlainEncodeByteArray(const int64_t* offsets, const uint8_t* data, int64_t num_values,
                            const uint8_t* validity, int64_t validity_offset,
                            MutableBuffer* out);
// One value.
Status PlainEncodeByteArray(std::string_view value, MutableBuffer* out);

// The PLAIN bytes of n byte strings (each after its 4-byte length with
// `length_prefix`; without, FIXED_LEN_BYTE_ARRAY's) written to `out`, which
// has room for them all (every value at most INT32_MAX bytes: the caller
// checks); returns the end of what was written. *ascii: whether every value
// byte is below 0x80, found as they are copied (a copy that is the ASCII
// half of a UTF-8 check). Where the CPU has AVX-512 F/BW, 64-byte loads and
// stores, each value's last part masked; else CopyAscii.
uint8_t* PlainPutValues(const std::string_view* values, int64_t n, bool length_prefix,
                        uint8_t* out, bool* ascii);

// PLAIN booleans are one bit-packed stream for the whole page, so successive
// Put() calls continue in the same byte. The encoder appends to `out`; the
// bits of the last byte past the values written are zero.
class PlainBooleanEncoder {
 public:
  explicit PlainBooleanEncoder(MutableBuffer* out) : out_(out) {}

  // Appends the valid ones of bits [bit_offset, bit_offset + num_values).
  Status Put(const uint8_t* bits, int64_t bit_offset, int64_t num_values,
             const uint8_t* validity, int64_t validity_offset);
  // One value.
  Status Put(bool value);

  int64_t num_values() const { return num_bits_; }
  // Ends the stream: returns the bytes written since the previous Flush();
  // the next Put() starts a new stream at a byte boundary.
  int64_t Flush();

 private:
  Status Begin();

  MutableBuffer* out_;
  bool started_ = false;
  int64_t start_ = 0;
  int64_t num_bits_ = 0;
};

// ---------------------------------------------------------------------------
// Decoders

// INT32, INT64, INT96, FLOAT, DOUBLE and FIXED_LEN_BYTE_ARRAY.
class PlainFixedWidthDecoder {
 public:
  PlainFixedWidthDecoder() = default;
  // byte_width > 0.
  PlainFixedWidthDecoder(const uint8_t* data, int64_t size, int byte_width)
      : data_(data), size_(size < 0 ? 0 : size), byte_width_(byte_width) {}

  // Copies the next n values (n * byte_width bytes) to `out`; Invalid if
  // fewer than n values remain.
  Status Decode(int64_t n, void* out);
  // Fills the valid slots of `num_slots` slots (validity as for the
  // encoders; nullptr: all valid) with the next values; null slots are
  // zeroed.
  Status DecodeSpaced(int64_t num_slots, const uint8_t* validity, int64_t validity_offset,
                      void* out);
  // Moves past the next n values; Invalid if fewer remain.
  Status Skip(int64_t n);
  // For each run, skips its `skip` values and copies its `take` to `out`,
  // one after the other; Invalid (nothing moved) if the runs pass the end.
  template <typename Run>
  Status DecodeRuns(const Run* runs, int64_t num_runs, void* out) {
    int64_t values = 0;
    for (int64_t r = 0; r < num_runs; ++r) values += runs[r].skip + runs[r].take;
    if (values > values_left()) return NotEnough(values);
    auto* dest = static_cast<uint8_t*>(out);
    const uint8_t* src = data_ + pos_;
    // Widths 4 and 8 as constants: most runs are a value or two.
    switch (byte_width_) {
      case 4: CopyRuns<4>(runs, num_runs, src, dest); break;
      case 8: CopyRuns<8>(runs, num_runs, src, dest); break;
      default: CopyRuns<0>(runs, num_runs, src, dest); break;
    }
    pos_ += values * byte_width_;
    return Status::OK();
  }

  int64_t values_left() const { return byte_width_ > 0 ? (size_ - pos_) / byte_width_ : 0; }
  int64_t bytes_consumed() const { return pos_; }

 private:
  Status NotEnough(int64_t wanted) const;
  // kWidth 0: byte_width_.
  template <int kWidth, typename Run>
  void CopyRuns(const Run* runs, int64_t num_runs, const uint8_t* src, uint8_t* dest) const {
    const size_t width = kWidth > 0 ? static_cast<size_t>(kWidth) : static_cast<size_t>(byte_width_);
    for (int64_t r = 0; r < num_runs; ++r) {
      src += static_cast<size_t>(runs[r].skip) * width;
      const auto take = static_cast<size_t>(runs[r].take);
      if (kWidth > 0 && take <= 2) {
        for (size_t i = 0; i < take; ++i) std::memcpy(dest + i * width, src + i * width, width);
      } else {
        std::memcpy(dest, src, take * width);
      }
      src += take * width;
      dest += take * width;
    }
  }

  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;
  int byte_width_ = 1;
};

class PlainBooleanDecoder {
 public:
  PlainBooleanDecoder() = default;
  PlainBooleanDecoder(const uint8_t* data, int64_t size)
      : data_(data), num_bits_(size < 0 ? 0 : size * 8) {}

  // Writes the next n values to bits [out_offset, out_offset + n) of
  // `out_bits`; Invalid if fewer than n bits remain.
  Status Decode(int64_t n, uint8_t* out_bits, int64_t out_offset);
  // Same, as one byte (0 or 1) per value.
  Status Decode(int64_t n, bool* out);
  // Moves past the next n values; Invalid if fewer bits remain.
  Status Skip(int64_t n);

  int64_t bits_left() const { return num_bits_ - pos_; }

 private:
  const uint8_t* data_ = nullptr;
  int64_t num_bits_ = 0;
  int64_t pos_ = 0;
};

class PlainByteArrayDecoder {
 public:
  PlainByteArrayDecoder() = default;
  PlainByteArrayDecoder(const uint8_t* data, int64_t size)
      : data_(data), size_(size < 0 ? 0 : size) {}

  // The next n values, as views into the page data; Invalid (naming the
  // value and byte offset) if a length or the bytes it announces are missing.
  Status Decode(int64_t n, std::string_view* out);
  // Moves past the next n values, reading only their lengths; the same
  // checks as Decode.
  Status Skip(int64_t n);
  // The next n values' bytes to out[0, ...) and their end offsets (base +
  // the bytes so far) to ends[0, n); *bytes gets the bytes written. `out`
  // has room for bytes_left() bytes. The same checks as Decode. With
  // `all_ascii`, also whether the bytes written are known to be all ASCII:
  // where the CPU has AVX-512 BW the copy checks them as it goes (true if
  // they are); elsewhere false (not checked: a byte-wise copy that checks
  // costs as much as memcpy and a later check). (Instantiated for int32_t
  // and int64_t ends.)
  template <typename End>
  Status DecodeInto(int64_t n, int64_t base, End* ends, uint8_t* out, int64_t* bytes,
                    bool* all_ascii = nullptr);

  int64_t bytes_left() const { return size_ - pos_; }
  int64_t bytes_consumed() const { return pos_; }
  bool at_end() const { return pos_ == size_; }

 private:
  // The length of the value at pos_ (to *length unless nullptr), checked:
  // its 4 bytes and the bytes it announces are there; else the error
  // naming the value and byte.
  Status NextLength(int64_t* length) const;

  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;
  int64_t values_read_ = 0;
};

// CopyAscii's contract (utf8.h: copies `size` bytes, returns whether they
// are all ASCII) by the AVX-512 copy of PlainPutValues where the CPU has it,
// else CopyAscii: for a caller that copies values one at a time between
// other work on each (the Arrow-dictionary page of the writer). Chosen
// when called: fetch it once for a loop.
using CopyAsciiFn = bool (*)(uint8_t* dst, const uint8_t* src, int64_t size);
CopyAsciiFn ByteArrayCopyAscii();

// Switches the AVX-512 copies of PlainByteArrayDecoder::DecodeInto,
// PlainPutValues and ByteArrayCopyAscii off (false) or back on where the CPU has them (true) for
// the whole process; returns the previous setting. For tests (the portable
// loops stay the reference).
bool SetByteArrayCopyKernelForTesting(bool on);

}  // namespace quiver::parquet
