// PLAIN behind the decoder interface (decoder.h), over plain.h's decoders.
// Fixed widths and booleans: the page size gives how many values the page
// holds, so SetData() refuses a count the bytes cannot hold and Decode()
// copies without further checks per value. BYTE_ARRAY values carry their
// lengths: SetData() checks only the 4 bytes each value costs at least, and
// plain.h checks each length as it reads it.
#include "quiver/parquet/encoding/decoder_internal.h"

namespace quiver::parquet::internal {
namespace {

constexpr format::Encoding kPlain = format::Encoding::kPlain;

template <typename T>
class PlainDecoder final : public TypedDecoder<T> {
 public:
  PlainDecoder() : TypedDecoder<T>(TypedDecoder<T>::kType, kPlain) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    decoder_ = PlainFixedWidthDecoder(data, size, static_cast<int>(sizeof(T)));
    this->values_left_ = 0;
    if (num_values < 0 || num_values > decoder_.values_left()) {
      return this->TooFew(num_values, decoder_.values_left(), "its bytes");
    }
    this->values_left_ = num_values;
    return Status::OK();
  }

  Status Decode(int64_t n, T* out) override {
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    QUIVER_RETURN_NOT_OK(decoder_.Decode(n, out));
    this->values_left_ -= n;
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    QUIVER_RETURN_NOT_OK(decoder_.Skip(n));
    this->values_left_ -= n;
    return Status::OK();
  }

 private:
  PlainFixedWidthDecoder decoder_;
};

class PlainFlbaDecoder final : public FixedLenByteArrayDecoder {
 public:
  explicit PlainFlbaDecoder(int type_length) : FixedLenByteArrayDecoder(kPlain, type_length) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    decoder_ = PlainFixedWidthDecoder(data, size, type_length());
    values_left_ = 0;
    if (num_values < 0 || num_values > decoder_.values_left()) {
      return TooFew(num_values, decoder_.values_left(), "its bytes");
    }
    values_left_ = num_values;
    return Status::OK();
  }

  Status Decode(int64_t n, uint8_t* out) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    QUIVER_RETURN_NOT_OK(decoder_.Decode(n, out));
    values_left_ -= n;
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    QUIVER_RETURN_NOT_OK(decoder_.Skip(n));
    values_left_ -= n;
    return Status::OK();
  }

 private:
  PlainFixedWidthDecoder decoder_;
};

class PlainBoolDecoder final : public BooleanDecoder {
 public:
  PlainBoolDecoder() : BooleanDecoder(kType, kPlain) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    decoder_ = PlainBooleanDecoder(data, size);
    values_left_ = 0;
    if (num_values < 0 || num_values > decoder_.bits_left()) {
      return TooFew(num_values, decoder_.bits_left(), "its bits");
    }
    values_left_ = num_values;
    return Status::OK();
  }

  Status Decode(int64_t n, uint8_t* out_bits, int64_t out_offset) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    QUIVER_RETURN_NOT_OK(decoder_.Decode(n, out_bits, out_offset));
    values_left_ -= n;
    return Status::OK();
  }

  Status Decode(int64_t n, bool* out) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    QUIVER_RETURN_NOT_OK(decoder_.Decode(n, out));
    values_left_ -= n;
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    QUIVER_RETURN_NOT_OK(decoder_.Skip(n));
    values_left_ -= n;
    return Status::OK();
  }

 private:
  PlainBooleanDecoder decoder_;
};

class PlainBinaryDecoder final : public ByteArrayDecoder {
 public:
  PlainBinaryDecoder() : ByteArrayDecoder(kType, kPlain) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    decoder_ = PlainByteArrayDecoder(data, size);
    values_left_ = 0;
    const int64_t most = size < 0 ? 0 : size / 4;  // a 4-byte length each
    if (num_values < 0 || num_values > most) {
      return TooFew(num_values, most, "its bytes (4 bytes a length)");
    }
    values_left_ = num_values;
    return Status::OK();
  }

  Status Decode(int64_t n, std::string_view* out) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    Status st = decoder_.Decode(n, out);
    if (!st.ok()) {
      values_left_ = 0;
      return st;
    }
    values_left_ -= n;
    return Status::OK();
  }

 private:
  PlainByteArrayDecoder decoder_;
};

}  // namespace

std::unique_ptr<Decoder> MakePlainDecoder(format::Type type, int type_length) {
  switch (type) {
    case format::Type::kBoolean:
      return std::make_unique<PlainBoolDecoder>();
    case format::Type::kInt32:
      return std::make_unique<PlainDecoder<int32_t>>();
    case format::Type::kInt64:
      return std::make_unique<PlainDecoder<int64_t>>();
    case format::Type::kInt96:
      return std::make_unique<PlainDecoder<Int96>>();
    case format::Type::kFloat:
      return std::make_unique<PlainDecoder<float>>();
    case format::Type::kDouble:
      return std::make_unique<PlainDecoder<double>>();
    case format::Type::kByteArray:
      return std::make_unique<PlainBinaryDecoder>();
    case format::Type::kFixedLenByteArray:
      return std::make_unique<PlainFlbaDecoder>(type_length);
  }
  return nullptr;
}

}  // namespace quiver::parquet::internal
