// DELTA_BINARY_PACKED (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY)
// and DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) behind the decoder
// interface (decoder_internal.h), over delta_*.h's decoders, which check every width
// and length against the page. StartPage() parses the stream's header, whose
// value count must cover the page header's; a stream that ends before it is
// Invalid when the decoding reaches its end.
#include <algorithm>
#include <cstring>
#include <utility>

#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/delta_byte_array.h"
#include "quiver/parquet/encoding/delta_length_byte_array.h"

namespace quiver::parquet::internal {
namespace {

// StartPage() and the checked batch, shared by the delta decoders over the
// typed interface Base and the delta_*.h decoder Inner.
template <typename Base, typename Inner>
class DeltaDecoderBase : public Base {
 public:
  using Base::Base;

  Status StartPage(int64_t num_values, const uint8_t* data, int64_t size) override {
    QUIVER_RETURN_NOT_OK(inner_.Init(data, size).WithContext(EnumName(this->encoding()), " ",
                                                             EnumName(this->physical_type()),
                                                             " page: "));
    if (inner_.total_values() >= num_values) return Status::OK();
    return this->TooFew(num_values, inner_.total_values(), "the encoding's headers");
  }

 protected:
  // The next n values from inner_ into out.
  template <typename T>
  Status Batch(int64_t n, T* out) {
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    auto got = inner_.GetBatch(out, n);
    if (got.ok() && *got == n) {
      this->values_left_ -= n;
      return Status::OK();
    }
    Status st = got.ok() ? this->EndedEarly(n, *got) : got.status();
    this->values_left_ = 0;
    return st;
  }

  Inner inner_;
};

template <typename T>
class DeltaBinaryPackedTypedDecoder final
    : public DeltaDecoderBase<TypedDecoder<T>, DeltaBinaryPackedDecoder<T>> {
 public:
  DeltaBinaryPackedTypedDecoder()
      : DeltaDecoderBase<TypedDecoder<T>, DeltaBinaryPackedDecoder<T>>(
            TypedDecoder<T>::kType, format::Encoding::kDeltaBinaryPacked) {}

  Status Decode(int64_t n, T* out) override { return this->Batch(n, out); }
};

template <typename Inner>
class DeltaBinaryDecoder final : public DeltaDecoderBase<ByteArrayDecoder, Inner> {
 public:
  explicit DeltaBinaryDecoder(format::Encoding encoding)
      : DeltaDecoderBase<ByteArrayDecoder, Inner>(ByteArrayDecoder::kType, encoding) {}

  Status Decode(int64_t n, std::string_view* out) override { return this->Batch(n, out); }
};

// DELTA_BYTE_ARRAY for FIXED_LEN_BYTE_ARRAY: every value must have
// type_length bytes.
class DeltaFlbaDecoder final
    : public DeltaDecoderBase<FixedLenByteArrayDecoder, DeltaByteArrayDecoder> {
 public:
  explicit DeltaFlbaDecoder(int type_length)
      : DeltaDecoderBase<FixedLenByteArrayDecoder, DeltaByteArrayDecoder>(
            format::Encoding::kDeltaByteArray, type_length) {}

  Status Decode(int64_t n, uint8_t* out) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    const auto width = static_cast<size_t>(type_length());
    for (int64_t done = 0; done < n;) {
      const int64_t m = std::min(n - done, kScratchValues);
      QUIVER_RETURN_NOT_OK(Batch(m, views_));
      for (int64_t j = 0; j < m; ++j) {
        if (views_[j].size() != width) {
          values_left_ = 0;
          return Status::Invalid("DELTA_BYTE_ARRAY FIXED_LEN_BYTE_ARRAY page: a value of ",
                                 views_[j].size(), " bytes where the type has ", width);
        }
        std::memcpy(out + static_cast<size_t>(done + j) * width, views_[j].data(), width);
      }
      done += m;
    }
    return Status::OK();
  }

 private:
  std::string_view views_[kScratchValues];
};

}  // namespace

std::unique_ptr<Decoder> MakeDeltaDecoder(format::Type type, format::Encoding encoding,
                                          int type_length) {
  using format::Type;
  if (encoding == format::Encoding::kDeltaBinaryPacked && type == Type::kInt32) {
    return std::make_unique<DeltaBinaryPackedTypedDecoder<int32_t>>();
  }
  if (encoding == format::Encoding::kDeltaBinaryPacked && type == Type::kInt64) {
    return std::make_unique<DeltaBinaryPackedTypedDecoder<int64_t>>();
  }
  if (encoding == format::Encoding::kDeltaLengthByteArray && type == Type::kByteArray) {
    return std::make_unique<DeltaBinaryDecoder<DeltaLengthByteArrayDecoder>>(encoding);
  }
  if (encoding == format::Encoding::kDeltaByteArray && type == Type::kByteArray) {
    return std::make_unique<DeltaBinaryDecoder<DeltaByteArrayDecoder>>(encoding);
  }
  if (encoding == format::Encoding::kDeltaByteArray && type == Type::kFixedLenByteArray) {
    return std::make_unique<DeltaFlbaDecoder>(type_length);
  }
  return nullptr;
}

}  // namespace quiver::parquet::internal
