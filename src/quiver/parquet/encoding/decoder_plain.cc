// PLAIN behind the decoder interface (decoder_internal.h), over plain.h's decoders.
// Fixed widths and booleans: the page size gives how many values the page
// holds, so StartPage() refuses a count the bytes cannot hold and Decode()
// copies without further checks per value. BYTE_ARRAY values carry their
// lengths: StartPage() checks only the 4 bytes each value costs at least, and
// plain.h checks each length as it reads it.
#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet::internal {
namespace {

constexpr format::Encoding kPlain = format::Encoding::kPlain;

// The count check and the batch every PLAIN decoder shares, over the typed
// interface Base and plain.h's decoder Inner.
template <typename Base, typename Inner>
class PlainDecoderBase : public Base {
 public:
  Status Skip(int64_t n) override {
    if constexpr (requires(Inner inner) { inner.Skip(n); }) {
      return Take(n, [&] { return inner_.Skip(n); });
    } else {
      return Base::Skip(n);
    }
  }

 protected:
  using Base::Base;

  // After inner_ is set to the page, which holds `available` values at most.
  Status Check(int64_t num_values, int64_t available, const char* what) const {
    if (num_values <= available) return Status::OK();
    return this->TooFew(num_values, available, what);
  }

  // n values by decode(), a call of inner_.
  template <typename Decode>
  Status Take(int64_t n, Decode&& decode) {
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    Status st = decode();
    this->values_left_ = st.ok() ? this->values_left_ - n : 0;
    return st;
  }

  Inner inner_;
};

template <typename T>
class PlainDecoder final : public PlainDecoderBase<TypedDecoder<T>, PlainFixedWidthDecoder> {
 public:
  PlainDecoder()
      : PlainDecoderBase<TypedDecoder<T>, PlainFixedWidthDecoder>(TypedDecoder<T>::kType,
                                                                   kPlain) {}

  Status Decode(int64_t n, T* out) override {
    return this->Take(n, [&] { return this->inner_.Decode(n, out); });
  }

  Status DecodeRuns(const ValueRun* runs, int64_t num_runs, T* out) override {
    int64_t values = 0;
    for (int64_t r = 0; r < num_runs; ++r) values += runs[r].skip + runs[r].take;
    return this->Take(values, [&] { return this->inner_.DecodeRuns(runs, num_runs, out); });
  }

  // Runs of valid slots copied straight from the page.
  Status DecodeSpaced(int64_t num_slots, const uint8_t* validity, int64_t validity_offset,
                      T* out) override {
    if (validity == nullptr || num_slots < 0) return Decode(num_slots, out);
    const int64_t valid = bitmap::CountSetBits(validity, validity_offset, num_slots);
    return this->Take(valid, [&] {
      return this->inner_.DecodeSpaced(num_slots, validity, validity_offset, out);
    });
  }

 private:
  Status StartPage(int64_t num_values, const uint8_t* data, int64_t size) override {
    this->inner_ = PlainFixedWidthDecoder(data, size, static_cast<int>(sizeof(T)));
    return this->Check(num_values, this->inner_.values_left(), "its bytes");
  }
};

class PlainFlbaDecoder final
    : public PlainDecoderBase<FixedLenByteArrayDecoder, PlainFixedWidthDecoder> {
 public:
  explicit PlainFlbaDecoder(int type_length) : PlainDecoderBase(kPlain, type_length) {}

  Status Decode(int64_t n, uint8_t* out) override {
    return Take(n, [&] { return inner_.Decode(n, out); });
  }
  Status DecodeRuns(const ValueRun* runs, int64_t num_runs, uint8_t* out) override {
    int64_t values = 0;
    for (int64_t r = 0; r < num_runs; ++r) values += runs[r].skip + runs[r].take;
    return Take(values, [&] { return inner_.DecodeRuns(runs, num_runs, out); });
  }

 private:
  Status StartPage(int64_t num_values, const uint8_t* data, int64_t size) override {
    inner_ = PlainFixedWidthDecoder(data, size, type_length());
    return Check(num_values, inner_.values_left(), "its bytes");
  }
};

class PlainBoolDecoder final : public PlainDecoderBase<BooleanDecoder, PlainBooleanDecoder> {
 public:
  PlainBoolDecoder() : PlainDecoderBase(kType, kPlain) {}

  Status Decode(int64_t n, uint8_t* out_bits, int64_t out_offset) override {
    return Take(n, [&] { return inner_.Decode(n, out_bits, out_offset); });
  }
  Status Decode(int64_t n, bool* out) override {
    return Take(n, [&] { return inner_.Decode(n, out); });
  }

 private:
  Status StartPage(int64_t num_values, const uint8_t* data, int64_t size) override {
    inner_ = PlainBooleanDecoder(data, size);
    return Check(num_values, inner_.bits_left(), "its bits");
  }
};

class PlainBinaryDecoder final
    : public PlainDecoderBase<ByteArrayDecoder, PlainByteArrayDecoder> {
 public:
  PlainBinaryDecoder() : PlainDecoderBase(kType, kPlain) {}

  Status Decode(int64_t n, std::string_view* out) override {
    return Take(n, [&] { return inner_.Decode(n, out); });
  }

  // Whatever n: a malformed page may put all its bytes in one value.
  int64_t value_bytes_bound(int64_t) const override { return inner_.bytes_left(); }

 private:
  Result<int64_t> DecodeInto(int64_t n, int64_t base, int32_t* ends, uint8_t* data) override {
    return Into(n, base, ends, data);
  }
  Result<int64_t> DecodeInto(int64_t n, int64_t base, int64_t* ends, uint8_t* data) override {
    return Into(n, base, ends, data);
  }
  template <typename End>
  Result<int64_t> Into(int64_t n, int64_t base, End* ends, uint8_t* data) {
    int64_t bytes = 0;
    bool ascii = false;
    QUIVER_RETURN_NOT_OK(
        Take(n, [&] { return inner_.DecodeInto(n, base, ends, data, &bytes, &ascii); }));
    CopiedAscii(ascii);
    return bytes;
  }

  Status StartPage(int64_t num_values, const uint8_t* data, int64_t size) override {
    inner_ = PlainByteArrayDecoder(data, size);
    return Check(num_values, size / 4, "its bytes (4 bytes a length)");
  }
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
