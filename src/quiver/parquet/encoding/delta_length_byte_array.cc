// DELTA_LENGTH_BYTE_ARRAY encoder and decoder; see delta_length_byte_array.h.
#include "quiver/parquet/encoding/delta_length_byte_array.h"

#include <algorithm>
#include <limits>

#include "quiver/util/bitmap.h"

namespace quiver::parquet {

namespace {
constexpr int64_t kChunk = 256;  // lengths handed to the delta encoder at once
constexpr int64_t kMaxLength = std::numeric_limits<int32_t>::max();
}  // namespace

Status DeltaLengthByteArrayEncoder::Put(std::string_view value) {
  if (value.size() > static_cast<size_t>(kMaxLength)) {
    return Status::Invalid("DELTA_LENGTH_BYTE_ARRAY: value of ", value.size(),
                           " bytes is longer than a Parquet BYTE_ARRAY can hold (2^31-1)");
  }
  const auto length = static_cast<int32_t>(value.size());
  QUIVER_RETURN_NOT_OK(lengths_.Put(&length, 1));
  return data_.ExtendFromSlice(value.data(), length);
}

template <typename Offset>
Status DeltaLengthByteArrayEncoder::PutImpl(const Offset* offsets, const uint8_t* data,
                                            int64_t n, const uint8_t* validity,
                                            int64_t validity_offset) {
  Status status;
  auto put_run = [&](int64_t pos, int64_t len) {
    if (!status.ok()) return;
    status = data_.ExtendFromSlice(data + offsets[pos],
                                   static_cast<int64_t>(offsets[pos + len] - offsets[pos]));
    int32_t chunk[kChunk];
    for (int64_t i = pos; i < pos + len && status.ok(); i += kChunk) {
      const int64_t k = std::min(kChunk, pos + len - i);
      for (int64_t j = 0; j < k; ++j) {
        const int64_t length = static_cast<int64_t>(offsets[i + j + 1] - offsets[i + j]);
        if (QUIVER_PREDICT_FALSE(length > kMaxLength)) {
          status = Status::Invalid("DELTA_LENGTH_BYTE_ARRAY: value ", i + j, " has ", length,
                                   " bytes, more than a Parquet BYTE_ARRAY can hold (2^31-1)");
          return;
        }
        chunk[j] = static_cast<int32_t>(length);
      }
      status = lengths_.Put(chunk, k);
    }
  };
  if (validity == nullptr) {
    put_run(0, n);
  } else {
    bitmap::VisitSetBitRuns(validity, validity_offset, n, put_run);
  }
  return status;
}

Status DeltaLengthByteArrayEncoder::Put(const int32_t* offsets, const uint8_t* data, int64_t n,
                                        const uint8_t* validity, int64_t validity_offset) {
  return PutImpl(offsets, data, n, validity, validity_offset);
}

Status DeltaLengthByteArrayEncoder::Put(const int64_t* offsets, const uint8_t* data, int64_t n,
                                        const uint8_t* validity, int64_t validity_offset) {
  return PutImpl(offsets, data, n, validity, validity_offset);
}

Result<int64_t> DeltaLengthByteArrayEncoder::Flush(MutableBuffer* out) {
  QUIVER_ASSIGN_OR_RAISE(const int64_t length_bytes, lengths_.Flush(out));
  QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(data_.data(), data_.size()));
  const int64_t bytes = length_bytes + data_.size();
  data_.Clear();
  return bytes;
}

Status DeltaLengthByteArrayDecoder::Init(const uint8_t* data, int64_t size) {
  data_ = data;
  size_ = size < 0 ? 0 : size;
  values_read_ = 0;
  QUIVER_RETURN_NOT_OK(
      lengths_.Init(data_, size_).WithContext("DELTA_LENGTH_BYTE_ARRAY lengths: "));
  DeltaBinaryPackedDecoder<int32_t> probe = lengths_;
  QUIVER_RETURN_NOT_OK(probe.SkipAll().WithContext("DELTA_LENGTH_BYTE_ARRAY lengths: "));
  pos_ = probe.bytes_consumed();
  return Status::OK();
}

Result<int64_t> DeltaLengthByteArrayDecoder::GetBatch(std::string_view* out, int64_t n) {
  n = std::min(n, values_left());
  if (n <= 0) return int64_t{0};
  scratch_.resize(static_cast<size_t>(n));
  auto got = lengths_.GetBatch(scratch_.data(), n);
  if (!got.ok()) return got.status().WithContext("DELTA_LENGTH_BYTE_ARRAY lengths: ");
  for (int64_t i = 0; i < n; ++i) {
    const int64_t length = scratch_[static_cast<size_t>(i)];
    if (length < 0 || length > size_ - pos_) {
      return Status::Invalid("DELTA_LENGTH_BYTE_ARRAY data: value ", values_read_ + i,
                             " has length ", length, " but ", size_ - pos_,
                             " bytes remain at byte ", pos_);
    }
    out[i] = std::string_view(reinterpret_cast<const char*>(data_ + pos_),
                              static_cast<size_t>(length));
    pos_ += length;
  }
  values_read_ += n;
  return n;
}

}  // namespace quiver::parquet
