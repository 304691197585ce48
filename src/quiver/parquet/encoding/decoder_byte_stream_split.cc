// BYTE_STREAM_SPLIT behind the decoder interface (decoder_internal.h), over
// byte_stream_split.h's decoder (compile-time loops for widths 2, 4, 8 and
// 16): FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY (FLOAT16 is
// width 2). The page size gives the value count (the streams' length), which
// must be a whole number of values and cover the page header's count.
#include "quiver/parquet/encoding/byte_stream_split.h"
#include "quiver/parquet/encoding/decoder_internal.h"

namespace quiver::parquet::internal {
namespace {

// StartPage(), Decode() and Skip() over the typed interface Base; `Value` is
// what Base::Decode writes (T, or uint8_t for FLBA).
template <typename Base, typename Value>
class SplitDecoder final : public Base {
 public:
  template <typename... Args>
  SplitDecoder(int byte_width, Args&&... args)
      : Base(std::forward<Args>(args)...), byte_width_(byte_width) {}

  Status StartPage(int64_t num_values, const uint8_t* data, int64_t size) override {
    QUIVER_RETURN_NOT_OK(decoder_.Init(data, size, byte_width_)
                             .WithContext("BYTE_STREAM_SPLIT ", EnumName(this->physical_type()),
                                          " page: "));
    if (decoder_.total_values() >= num_values) return Status::OK();
    return this->TooFew(num_values, decoder_.total_values(), "its bytes");
  }

  Status Decode(int64_t n, Value* out) override {
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    decoder_.GetBatch(out, n);  // n <= values_left() <= the values present
    this->values_left_ -= n;
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    decoder_.Skip(n);
    this->values_left_ -= n;
    return Status::OK();
  }

 private:
  ByteStreamSplitDecoder decoder_;
  int byte_width_;
};

template <typename T>
std::unique_ptr<Decoder> MakeTyped() {
  return std::make_unique<SplitDecoder<TypedDecoder<T>, T>>(
      static_cast<int>(sizeof(T)), TypedDecoder<T>::kType, format::Encoding::kByteStreamSplit);
}

}  // namespace

std::unique_ptr<Decoder> MakeByteStreamSplitDecoder(format::Type type, int type_length) {
  switch (type) {
    case format::Type::kInt32:
      return MakeTyped<int32_t>();
    case format::Type::kInt64:
      return MakeTyped<int64_t>();
    case format::Type::kFloat:
      return MakeTyped<float>();
    case format::Type::kDouble:
      return MakeTyped<double>();
    case format::Type::kFixedLenByteArray:
      return std::make_unique<SplitDecoder<FixedLenByteArrayDecoder, uint8_t>>(
          type_length, format::Encoding::kByteStreamSplit, type_length);
    default:
      return nullptr;
  }
}

}  // namespace quiver::parquet::internal
