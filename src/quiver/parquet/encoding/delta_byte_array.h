// DELTA_BYTE_ARRAY (apache/parquet-format Encodings.md, "Delta Strings
// (DELTA_BYTE_ARRAY = 7)"), incremental or front coding: for each value, the
// length of the prefix it shares with the previous value (a
// DELTA_BINARY_PACKED INT32 stream of all prefix lengths), then the
// remaining suffixes as DELTA_LENGTH_BYTE_ARRAY. For BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY (whose lengths are all written too).
//
// The decoder rebuilds values batch by batch into a buffer it owns: the views
// GetBatch() returns stay valid until the next GetBatch() or Init(). A prefix
// longer than the previous value, or prefix and suffix counts that differ,
// are Invalid. Since shared prefixes let a small page describe a lot of
// bytes, a batch that would need more than 2^31 - 1 bytes is a
// CapacityError (decode in smaller batches).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/delta_length_byte_array.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

class DeltaByteArrayEncoder {
 public:
  explicit DeltaByteArrayEncoder(MemoryPool* pool = DefaultMemoryPool())
      : prefixes_(pool), suffixes_(pool) {}

  Status Put(std::string_view value);
  // The valid ones of the n values data[offsets[i], offsets[i + 1]).
  Status Put(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity,
             int64_t validity_offset);
  Status Put(const int64_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity,
             int64_t validity_offset);
  // The valid ones of n values of byte_width bytes (FIXED_LEN_BYTE_ARRAY).
  Status PutFixedLen(const uint8_t* data, int64_t n, int32_t byte_width,
                     const uint8_t* validity, int64_t validity_offset);

  int64_t num_values() const { return prefixes_.num_values(); }
  int64_t EstimatedSize() const { return prefixes_.EstimatedSize() + suffixes_.EstimatedSize(); }

  // Appends the encoded stream to `out`; returns its size. The encoder is
  // then empty.
  Result<int64_t> Flush(MutableBuffer* out);

 private:
  // Encodes `value` after `previous`.
  Status PutOne(std::string_view previous, std::string_view value);
  template <typename GetValue>
  Status PutRuns(int64_t n, const uint8_t* validity, int64_t validity_offset,
                 GetValue&& get_value);

  DeltaBinaryPackedEncoder<int32_t> prefixes_;
  DeltaLengthByteArrayEncoder suffixes_;
  std::string last_;
};

class DeltaByteArrayDecoder {
 public:
  DeltaByteArrayDecoder() = default;

  // Invalid if either length stream is malformed or their counts differ.
  Status Init(const uint8_t* data, int64_t size);

  // Decodes min(n, values_left()) values; the views point into a buffer of
  // this decoder, valid until the next GetBatch() or Init().
  Result<int64_t> GetBatch(std::string_view* out, int64_t n);

  int64_t total_values() const { return prefixes_.total_values(); }
  int64_t values_left() const { return prefixes_.values_left(); }

 private:
  DeltaBinaryPackedDecoder<int32_t> prefixes_;
  DeltaLengthByteArrayDecoder suffixes_;
  std::vector<int32_t> prefix_scratch_;
  std::vector<std::string_view> suffix_scratch_;
  std::vector<char> arena_;
  std::string last_;
  int64_t values_read_ = 0;
};

}  // namespace quiver::parquet
