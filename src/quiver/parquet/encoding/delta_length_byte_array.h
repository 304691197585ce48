// DELTA_LENGTH_BYTE_ARRAY (apache/parquet-format Encodings.md,
// "Delta-length byte array (DELTA_LENGTH_BYTE_ARRAY = 6)"): the lengths of
// all values as one DELTA_BINARY_PACKED (INT32) stream, then all the bytes
// back to back.
//
// The decoder finds where the bytes start by walking the block headers of the
// lengths stream (no value is decoded), then decodes lengths batch by batch,
// checking each against the bytes that remain; values are views into the
// page data.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

class DeltaLengthByteArrayEncoder {
 public:
  explicit DeltaLengthByteArrayEncoder(MemoryPool* pool = DefaultMemoryPool())
      : lengths_(pool), data_(pool) {}

  // Invalid for a value longer than INT32_MAX bytes.
  Status Put(std::string_view value);
  // The valid ones of the n values data[offsets[i], offsets[i + 1]).
  Status Put(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity,
             int64_t validity_offset);
  Status Put(const int64_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity,
             int64_t validity_offset);

  int64_t num_values() const { return lengths_.num_values(); }
  int64_t EstimatedSize() const { return lengths_.EstimatedSize() + data_.size(); }

  // Appends the encoded stream to `out`; returns its size. The encoder is
  // then empty.
  Result<int64_t> Flush(MutableBuffer* out);

 private:
  template <typename Offset>
  Status PutImpl(const Offset* offsets, const uint8_t* data, int64_t n, const uint8_t* validity,
                 int64_t validity_offset);

  DeltaBinaryPackedEncoder<int32_t> lengths_;
  MutableBuffer data_;
};

class DeltaLengthByteArrayDecoder {
 public:
  DeltaLengthByteArrayDecoder() = default;

  // Invalid if the lengths stream is malformed.
  Status Init(const uint8_t* data, int64_t size);

  // Decodes min(n, values_left()) values as views into the page data.
  Result<int64_t> GetBatch(std::string_view* out, int64_t n);

  int64_t total_values() const { return lengths_.total_values(); }
  int64_t values_left() const { return lengths_.values_left(); }
  // End of the bytes used by the values decoded so far.
  int64_t bytes_consumed() const { return pos_; }

 private:
  DeltaBinaryPackedDecoder<int32_t> lengths_;
  std::vector<int32_t> scratch_;
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;
  int64_t values_read_ = 0;
};

}  // namespace quiver::parquet
