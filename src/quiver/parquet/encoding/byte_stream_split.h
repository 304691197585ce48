// BYTE_STREAM_SPLIT (apache/parquet-format Encodings.md, "Byte Stream Split
// (BYTE_STREAM_SPLIT = 9)"), for FLOAT, DOUBLE, INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY: N values of K bytes become K streams of N bytes,
// stream k holding byte k of every value, concatenated in order. No header:
// the page's size gives N = size / K.
//
// Widths 2, 4, 8 and 16 have their own compile-time loops; other FLBA
// widths use a generic one.
#pragma once

#include <cstdint>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// out[k * n + i] = values[i * byte_width + k]: n values to K streams.
void ByteStreamSplitEncode(const uint8_t* values, int64_t n, int byte_width, uint8_t* out);
// The inverse, for `count` values starting at value `first` of streams of
// `stride` values each: out[(i - first) * byte_width + k] = data[k * stride + i].
void ByteStreamSplitDecode(const uint8_t* data, int64_t stride, int64_t first, int64_t count,
                           int byte_width, uint8_t* out);

// Buffers the values of a page (the streams need the total count), then
// writes them split.
class ByteStreamSplitEncoder {
 public:
  // byte_width > 0.
  explicit ByteStreamSplitEncoder(int byte_width, MemoryPool* pool = DefaultMemoryPool())
      : byte_width_(byte_width), values_(pool) {}

  // n values of byte_width bytes.
  Status Put(const void* values, int64_t n);
  // The valid ones of n slots (validity bit validity_offset + i).
  Status PutSpaced(const void* values, int64_t n, const uint8_t* validity,
                   int64_t validity_offset);

  int64_t num_values() const { return values_.size() / byte_width_; }
  int64_t EstimatedSize() const { return values_.size(); }

  // Appends the streams to `out`; returns their size. The encoder is then
  // empty.
  Result<int64_t> Flush(MutableBuffer* out);

 private:
  int byte_width_;
  MutableBuffer values_;
};

class ByteStreamSplitDecoder {
 public:
  ByteStreamSplitDecoder() = default;

  // Invalid unless byte_width > 0 and size is a multiple of it.
  Status Init(const uint8_t* data, int64_t size, int byte_width);

  // Decodes min(n, values_left()) values of byte_width bytes into `out`.
  int64_t GetBatch(void* out, int64_t n);
  // Moves past min(n, values_left()) values; returns how many.
  int64_t Skip(int64_t n);

  int64_t total_values() const { return num_values_; }
  int64_t values_left() const { return num_values_ - position_; }

 private:
  const uint8_t* data_ = nullptr;
  int byte_width_ = 1;
  int64_t num_values_ = 0;
  int64_t position_ = 0;
};

}  // namespace quiver::parquet
