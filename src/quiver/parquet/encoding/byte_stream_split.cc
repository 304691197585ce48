// BYTE_STREAM_SPLIT encoder and decoder; see byte_stream_split.h.
#include "quiver/parquet/encoding/byte_stream_split.h"

#include <algorithm>
#include <cstring>

#include "quiver/util/bitmap.h"

namespace quiver::parquet {

namespace {

template <int K>
void EncodeFixed(const uint8_t* values, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* v = values + i * K;
#pragma GCC unroll 16
    for (int k = 0; k < K; ++k) out[k * n + i] = v[k];
  }
}

template <int K>
void DecodeFixed(const uint8_t* data, int64_t stride, int64_t first, int64_t count,
                 uint8_t* out) {
  for (int64_t i = 0; i < count; ++i) {
    uint8_t* v = out + i * K;
#pragma GCC unroll 16
    for (int k = 0; k < K; ++k) v[k] = data[k * stride + first + i];
  }
}

}  // namespace

void ByteStreamSplitEncode(const uint8_t* values, int64_t n, int byte_width, uint8_t* out) {
  switch (byte_width) {
    case 2:
      return EncodeFixed<2>(values, n, out);
    case 4:
      return EncodeFixed<4>(values, n, out);
    case 8:
      return EncodeFixed<8>(values, n, out);
    case 16:
      return EncodeFixed<16>(values, n, out);
    default:
      for (int64_t i = 0; i < n; ++i) {
        for (int k = 0; k < byte_width; ++k) out[k * n + i] = values[i * byte_width + k];
      }
  }
}

void ByteStreamSplitDecode(const uint8_t* data, int64_t stride, int64_t first, int64_t count,
                           int byte_width, uint8_t* out) {
  switch (byte_width) {
    case 2:
      return DecodeFixed<2>(data, stride, first, count, out);
    case 4:
      return DecodeFixed<4>(data, stride, first, count, out);
    case 8:
      return DecodeFixed<8>(data, stride, first, count, out);
    case 16:
      return DecodeFixed<16>(data, stride, first, count, out);
    default:
      for (int64_t i = 0; i < count; ++i) {
        for (int k = 0; k < byte_width; ++k) {
          out[i * byte_width + k] = data[k * stride + first + i];
        }
      }
  }
}

Status ByteStreamSplitEncoder::Put(const void* values, int64_t n) {
  return values_.ExtendFromSlice(values, n * byte_width_);
}

Status ByteStreamSplitEncoder::PutSpaced(const void* values, int64_t n, const uint8_t* validity,
                                         int64_t validity_offset) {
  if (validity == nullptr) return Put(values, n);
  const auto* src = static_cast<const uint8_t*>(values);
  const int64_t valid = bitmap::CountSetBits(validity, validity_offset, n);
  QUIVER_RETURN_NOT_OK(values_.Reserve(valid * byte_width_));
  bitmap::VisitSetBitRuns(validity, validity_offset, n, [&](int64_t pos, int64_t len) {
    values_.UnsafeExtendFromSlice(src + pos * byte_width_, len * byte_width_);
  });
  return Status::OK();
}

Result<int64_t> ByteStreamSplitEncoder::Flush(MutableBuffer* out) {
  const int64_t bytes = values_.size();
  QUIVER_RETURN_NOT_OK(out->Reserve(bytes));
  ByteStreamSplitEncode(values_.data(), bytes / byte_width_, byte_width_,
                        out->data() + out->size());
  out->UnsafeSetSize(out->size() + bytes);
  values_.Clear();
  return bytes;
}

Status ByteStreamSplitDecoder::Init(const uint8_t* data, int64_t size, int byte_width) {
  if (byte_width <= 0) {
    return Status::Invalid("BYTE_STREAM_SPLIT: byte width ", byte_width, " <= 0");
  }
  if (size < 0 || size % byte_width != 0) {
    return Status::Invalid("BYTE_STREAM_SPLIT data: ", size,
                           " bytes is not a whole number of ", byte_width, "-byte values");
  }
  data_ = data;
  byte_width_ = byte_width;
  num_values_ = size / byte_width;
  position_ = 0;
  return Status::OK();
}

int64_t ByteStreamSplitDecoder::GetBatch(void* out, int64_t n) {
  n = std::clamp<int64_t>(n, 0, values_left());
  ByteStreamSplitDecode(data_, num_values_, position_, n, byte_width_,
                        static_cast<uint8_t*>(out));
  position_ += n;
  return n;
}

int64_t ByteStreamSplitDecoder::Skip(int64_t n) {
  n = std::clamp<int64_t>(n, 0, values_left());
  position_ += n;
  return n;
}

}  // namespace quiver::parquet
