#include "quiver/parquet/reader/leaf_builder_internal.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "quiver/array/builder_binary.h"
#include "quiver/array/memo_table.h"
#include "quiver/parquet/encoding/big_endian_decimal.h"
#include "quiver/parquet/encoding/dictionary_indices.h"
#include "quiver/parquet/encoding/spaced_internal.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/utf8.h"
#include "quiver/parquet/reader/byte_array_leaf_internal.h"

namespace quiver::parquet::internal {
namespace {

constexpr int64_t kSecondsPerDay = 86400;
constexpr int64_t kMillisPerDay = kSecondsPerDay * 1000;
// Julian day of 1970-01-01.
constexpr int64_t kJulianEpochDay = 2440588;

// Decodes `num_values` values and spreads them over `num_slots` slots
// (null slots get T{}), into out[0, num_slots).
template <typename T>
Status DecodeSpacedInto(TypedDecoder<T>* decoder, int64_t num_slots, const uint8_t* valid,
                        int64_t valid_offset, T* out) {
  return decoder->DecodeSpaced(num_slots, valid, valid_offset, out);
}


// Leaves whose Arrow values are `width` bytes each, in one buffer.
class FixedWidthLeaf : public LeafBuilder {
 public:
  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    const int64_t length = values_.size() / width_;
    return ArrayData::Make(type_, length, {std::move(validity), values_.Freeze()}, null_count);
  }

  int64_t bytes_buffered() const override { return values_.size(); }
  Status Reserve(int64_t slots, int64_t) override { return values_.Reserve(slots * width_); }

 protected:
  FixedWidthLeaf(TypePtr type, int width, MemoryPool* pool)
      : type_(std::move(type)), width_(width), values_(pool) {}

  TypePtr type_;
  int width_;
  MutableBuffer values_;
};

// ---------------------------------------------------------------------------
// Fixed-width values: the physical type P converted to the Arrow value type
// A by Convert (a functor A(P)); same-width copies decode straight into the
// output.

template <typename P, typename A, typename Convert>
class FixedWidthBuilder final : public FixedWidthLeaf {
 public:
  FixedWidthBuilder(TypePtr type, MemoryPool* pool, Convert convert)
      : FixedWidthLeaf(std::move(type), static_cast<int>(sizeof(A)), pool), convert_(convert) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t /*num_values*/) override {
    auto* typed = static_cast<TypedDecoder<P>*>(decoder);
    QUIVER_RETURN_NOT_OK(values_.Reserve(num_slots * static_cast<int64_t>(sizeof(A))));
    A* out = reinterpret_cast<A*>(values_.data() + values_.size());
    if constexpr (std::is_same_v<Convert, std::nullptr_t>) {
      static_assert(sizeof(A) == sizeof(P));
      QUIVER_RETURN_NOT_OK(
          DecodeSpacedInto(typed, num_slots, valid, valid_offset, reinterpret_cast<P*>(out)));
    } else {
      scratch_.resize(static_cast<size_t>(num_slots));
      QUIVER_RETURN_NOT_OK(
          DecodeSpacedInto(typed, num_slots, valid, valid_offset, scratch_.data()));
      for (int64_t i = 0; i < num_slots; ++i) out[i] = convert_(scratch_[static_cast<size_t>(i)]);
    }
    values_.UnsafeSetSize(values_.size() + num_slots * static_cast<int64_t>(sizeof(A)));
    return Status::OK();
  }

 private:
  Convert convert_;
  std::vector<P> scratch_;
};

template <typename P, typename A, typename Convert>
std::unique_ptr<LeafBuilder> MakeFixed(const TypePtr& type, MemoryPool* pool, Convert convert) {
  return std::make_unique<FixedWidthBuilder<P, A, Convert>>(type, pool, convert);
}
template <typename P, typename A>
std::unique_ptr<LeafBuilder> MakeCopy(const TypePtr& type, MemoryPool* pool) {
  return std::make_unique<FixedWidthBuilder<P, A, std::nullptr_t>>(type, pool, nullptr);
}

// Decimals: the unscaled integer sign-extended to `Words` little-endian
// 64-bit words (decimal128: 2, decimal256: 4).
template <int Words>
struct DecimalWords {
  uint64_t w[Words];
};
template <int Words, typename I>
DecimalWords<Words> ExtendDecimal(I v) {
  DecimalWords<Words> out;
  const int64_t wide = static_cast<int64_t>(v);
  out.w[0] = static_cast<uint64_t>(wide);
  for (int i = 1; i < Words; ++i) out.w[i] = wide < 0 ? ~uint64_t{0} : 0;
  return out;
}

// INT96 (nanoseconds of the day, then the Julian day) to a timestamp of
// `unit`. As Arrow C++, in unsigned 64-bit arithmetic, the Julian day taken
// as unsigned: values out of range wrap the same way as in pyarrow.
int64_t Int96ToTimestamp(const Int96& v, TimeUnit unit) {
  const uint64_t nanos = static_cast<uint64_t>(v.value[0]) | (static_cast<uint64_t>(v.value[1]) << 32);
  const uint64_t d = static_cast<uint64_t>(v.value[2]) - static_cast<uint64_t>(kJulianEpochDay);
  switch (unit) {
    case TimeUnit::kSecond:
      return static_cast<int64_t>(d * kSecondsPerDay + nanos / 1000000000);
    case TimeUnit::kMilli:
      return static_cast<int64_t>(d * kMillisPerDay + nanos / 1000000);
    case TimeUnit::kMicro:
      return static_cast<int64_t>(d * kMillisPerDay * 1000 + nanos / 1000);
    case TimeUnit::kNano:
      return static_cast<int64_t>(d * kMillisPerDay * 1000000 + nanos);
  }
  return 0;
}

// ---------------------------------------------------------------------------
// Booleans: bits.

class BooleanBuilder final : public LeafBuilder {
 public:
  explicit BooleanBuilder(MemoryPool* pool) : bits_(pool) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    auto* typed = static_cast<BooleanDecoder*>(decoder);
    QUIVER_RETURN_NOT_OK(bits_.Resize(bit_util::BytesForBits(length_ + num_slots)));
    uint8_t* out = bits_.data();
    if (valid == nullptr) {
      QUIVER_RETURN_NOT_OK(typed->Decode(num_slots, out, length_));
    } else {
      // The values as bytes, spaced out to a byte a slot without branches
      // (a slot takes the next value or false; the value index moves on by
      // the slot's bit and stops at the last value), then packed: a bit
      // read-modify-write a slot was most of reading a column of nullable
      // booleans.
      scratch_.resize(static_cast<size_t>(num_values));
      QUIVER_RETURN_NOT_OK(
          typed->Decode(num_values, reinterpret_cast<bool*>(scratch_.data())));
      slots_.resize(static_cast<size_t>(num_slots));
      if (num_values == 0) {
        std::fill(slots_.begin(), slots_.end(), uint8_t{0});
      } else {
        const uint8_t* in = scratch_.data();
        const int64_t last = num_values - 1;
        int64_t v = 0;
        for (int64_t s = 0; s < num_slots; ++s) {
          const auto bit = static_cast<uint8_t>(bit_util::GetBit(valid, valid_offset + s));
          slots_[static_cast<size_t>(s)] = static_cast<uint8_t>(in[std::min(v, last)] & bit);
          v += bit;
        }
      }
      if (length_ % 8 == 0) {
        bitmap::PackBytes(slots_.data(), num_slots, out + length_ / 8);
      } else {
        packed_.resize(static_cast<size_t>(bit_util::BytesForBits(num_slots)));
        bitmap::PackBytes(slots_.data(), num_slots, packed_.data());
        bitmap::CopyBitmap(packed_.data(), 0, num_slots, out, length_);
      }
    }
    length_ += num_slots;
    return Status::OK();
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    const int64_t length = length_;
    length_ = 0;
    return ArrayData::Make(boolean(), length, {std::move(validity), bits_.Freeze()}, null_count);
  }

  int64_t bytes_buffered() const override { return bits_.size(); }

 private:
  MutableBuffer bits_;
  int64_t length_ = 0;
  std::vector<uint8_t> scratch_;  // the values, a byte each
  std::vector<uint8_t> slots_;    // a byte a slot
  std::vector<uint8_t> packed_;   // slots_ packed, when length_ is not on a byte
};

// ---------------------------------------------------------------------------
// Null type (INT32 UNKNOWN): only the slots count.

class NullBuilder final : public LeafBuilder {
 public:
  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t*, int64_t,
                int64_t num_values) override {
    if (num_values > 0) QUIVER_RETURN_NOT_OK(decoder->Skip(num_values));
    length_ += num_slots;
    return Status::OK();
  }
  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer>, int64_t) override {
    const int64_t length = length_;
    length_ = 0;
    return ArrayData::Make(null(), length, {}, length);
  }
  Result<std::vector<ArrayDataPtr>> FinishChunks(const std::shared_ptr<Buffer>&,
                                                 MemoryPool*) override {
    QUIVER_ASSIGN_OR_RAISE(auto array, Finish(nullptr, 0));
    return std::vector<ArrayDataPtr>{std::move(array)};
  }
  int64_t bytes_buffered() const override { return 0; }

 private:
  int64_t length_ = 0;
};

// ---------------------------------------------------------------------------
// Fixed-length byte arrays: fixed_size_binary, float16, decimals.

class FixedBytesBuilder final : public FixedWidthLeaf {
 public:
  FixedBytesBuilder(TypePtr type, int width, MemoryPool* pool)
      : FixedWidthLeaf(std::move(type), width, pool) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    auto* typed = static_cast<FixedLenByteArrayDecoder*>(decoder);
    QUIVER_RETURN_NOT_OK(values_.Reserve(num_slots * width_));
    uint8_t* out = values_.data() + values_.size();
    if (valid == nullptr || num_values == num_slots) {
      QUIVER_RETURN_NOT_OK(typed->Decode(num_values, out));
    } else {
      // The values at the end of the slots, then spaced out forward (see
      // spaced_internal.h), null slots zeroed.
      uint8_t* tail = out + (num_slots - num_values) * width_;
      QUIVER_RETURN_NOT_OK(typed->Decode(num_values, tail));
      ExpandSpaced(width_, tail, num_values, valid, valid_offset, num_slots, out);
    }
    values_.UnsafeSetSize(values_.size() + num_slots * width_);
    return Status::OK();
  }
};

// Decimals stored big-endian in FLBA or BYTE_ARRAY.
class BigEndianDecimalBuilder final : public FixedWidthLeaf {
 public:
  // (FLBA: its length is at most the type's width, and the decoder knows it.)
  BigEndianDecimalBuilder(TypePtr type, format::Type physical, MemoryPool* pool)
      : FixedWidthLeaf(type, type->byte_width(), pool), physical_(physical) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    QUIVER_RETURN_NOT_OK(values_.Reserve(num_slots * width_));
    uint8_t* out = values_.data() + values_.size();
    if (physical_ == format::Type::kFixedLenByteArray) {
      auto* typed = static_cast<FixedLenByteArrayDecoder*>(decoder);
      if (valid == nullptr || num_values == num_slots) {
        QUIVER_RETURN_NOT_OK(typed->DecodeDecimals(num_values, width_, out));
      } else {
        // The values at the end of the slots, then spaced out forward, null
        // slots zeroed (FixedBytesBuilder's way).
        uint8_t* tail = out + (num_slots - num_values) * width_;
        QUIVER_RETURN_NOT_OK(typed->DecodeDecimals(num_values, width_, tail));
        ExpandSpaced(width_, tail, num_values, valid, valid_offset, num_slots, out);
      }
    } else {
      int64_t s = 0;
      QUIVER_RETURN_NOT_OK(VisitByteArraySlots(
          static_cast<ByteArrayDecoder*>(decoder), &views_, num_slots, valid, valid_offset,
          num_values, [&](std::string_view value, bool) -> Status {
            if (static_cast<int64_t>(value.size()) > width_) {
              return Status::Invalid("a decimal value of ", value.size(),
                                     " bytes does not fit in ", type_->ToString());
            }
            BigEndianToDecimal(reinterpret_cast<const uint8_t*>(value.data()),
                               static_cast<int64_t>(value.size()), out + (s++) * width_, width_);
            return Status::OK();
          }));
    }
    values_.UnsafeSetSize(values_.size() + num_slots * width_);
    return Status::OK();
  }

 private:
  format::Type physical_;
  std::vector<std::string_view> views_;
};


}  // namespace

namespace {

constexpr std::string_view kUtf8Hint =
    " (the reader option invalid_utf8='binary' reads such a column as binary)";

}  // namespace

Status LeafBuilder::InvalidUtf8(int64_t value, std::string_view what) {
  if (record_invalid_utf8_) {
    saw_invalid_utf8_ = true;
    return Status::OK();
  }
  return Status::Invalid("invalid UTF-8 in string value ", PageValue(value),
                         " of the page", what.empty() ? "" : " (", what, what.empty() ? "" : ")",
                         kUtf8Hint);
}

int64_t LeafBuilder::PageValue(int64_t value) const {
  int64_t at = page_values_before_;
  for (int64_t r = 0; r < num_value_runs_; ++r) {
    at += value_runs_[r].skip;
    if (value < value_runs_[r].take) return at + value;
    value -= value_runs_[r].take;
    at += value_runs_[r].take;
  }
  return at + value;
}

Status LeafBuilder::InvalidUtf8Entry(int64_t entry) {
  if (record_invalid_utf8_) {
    saw_invalid_utf8_ = true;
    return Status::OK();
  }
  return Status::Invalid("invalid UTF-8 in entry ", entry,
                         " of the page dictionary, a string value of the page", kUtf8Hint);
}

Result<std::vector<ArrayDataPtr>> LeafBuilder::FinishChunks(const std::shared_ptr<Buffer>& validity,
                                                           MemoryPool*) {
  int64_t nulls = 0;
  QUIVER_ASSIGN_OR_RAISE(auto array, Finish(validity, 0));
  if (validity != nullptr) {
    nulls = array->length - bitmap::CountSetBits(validity->data(), 0, array->length);
  }
  array->null_count = nulls;
  if (nulls == 0) array->buffers[0] = nullptr;
  return std::vector<ArrayDataPtr>{std::move(array)};
}

namespace {

Status Unsupported(const ColumnDescriptor& column, const DataType& type) {
  return Status::Invalid("column '", column.path, "': cannot read ",
                         format::EnumName(column.physical_type), " values as ", type.ToString());
}

}  // namespace

Result<std::unique_ptr<LeafBuilder>> MakeLeafBuilder(const ColumnDescriptor& column,
                                                     const TypePtr& type, MemoryPool* pool) {
  const Type id = type->id();
  if (id == Type::kNull) return std::unique_ptr<LeafBuilder>(new NullBuilder());
  switch (column.physical_type) {
    case format::Type::kBoolean:
      if (id == Type::kBool) return std::unique_ptr<LeafBuilder>(new BooleanBuilder(pool));
      break;
    case format::Type::kInt32:
      switch (id) {
        case Type::kInt32:
        case Type::kUInt32:
        case Type::kDate32:
        case Type::kTime32:
        case Type::kDecimal32:
          return MakeCopy<int32_t, int32_t>(type, pool);
        case Type::kInt8:
          return MakeFixed<int32_t, int8_t>(type, pool, [](int32_t v) { return static_cast<int8_t>(v); });
        case Type::kUInt8:
          return MakeFixed<int32_t, uint8_t>(type, pool, [](int32_t v) { return static_cast<uint8_t>(v); });
        case Type::kInt16:
          return MakeFixed<int32_t, int16_t>(type, pool, [](int32_t v) { return static_cast<int16_t>(v); });
        case Type::kUInt16:
          return MakeFixed<int32_t, uint16_t>(type, pool,
                                              [](int32_t v) { return static_cast<uint16_t>(v); });
        case Type::kDate64:
          return MakeFixed<int32_t, int64_t>(type, pool,
                                             [](int32_t v) { return int64_t{v} * kMillisPerDay; });
        case Type::kDecimal64:
          return MakeFixed<int32_t, int64_t>(type, pool, [](int32_t v) { return int64_t{v}; });
        case Type::kDecimal128:
          return MakeFixed<int32_t, DecimalWords<2>>(type, pool, ExtendDecimal<2, int32_t>);
        case Type::kDecimal256:
          return MakeFixed<int32_t, DecimalWords<4>>(type, pool, ExtendDecimal<4, int32_t>);
        default:
          break;
      }
      break;
    case format::Type::kInt64:
      switch (id) {
        case Type::kInt64:
        case Type::kUInt64:
        case Type::kTimestamp:
        case Type::kTime64:
        case Type::kDuration:
        case Type::kDecimal64:
        case Type::kDate64:
          return MakeCopy<int64_t, int64_t>(type, pool);
        case Type::kDecimal32:
          return MakeFixed<int64_t, int32_t>(type, pool, [](int64_t v) { return static_cast<int32_t>(v); });
        case Type::kDecimal128:
          return MakeFixed<int64_t, DecimalWords<2>>(type, pool, ExtendDecimal<2, int64_t>);
        case Type::kDecimal256:
          return MakeFixed<int64_t, DecimalWords<4>>(type, pool, ExtendDecimal<4, int64_t>);
        default:
          break;
      }
      break;
    case format::Type::kInt96:
      if (id == Type::kTimestamp) {
        const TimeUnit unit = TypeAs<TemporalType>(*type).unit();
        return MakeFixed<Int96, int64_t>(type, pool,
                                         [unit](const Int96& v) { return Int96ToTimestamp(v, unit); });
      }
      break;
    case format::Type::kFloat:
      if (id == Type::kFloat) return MakeCopy<float, float>(type, pool);
      break;
    case format::Type::kDouble:
      if (id == Type::kDouble) return MakeCopy<double, double>(type, pool);
      break;
    case format::Type::kFixedLenByteArray:
      if (id == Type::kFixedSizeBinary &&
          TypeAs<FixedSizeBinaryType>(*type).fixed_byte_width() == column.type_length) {
        return std::unique_ptr<LeafBuilder>(new FixedBytesBuilder(type, column.type_length, pool));
      }
      if (id == Type::kHalfFloat && column.type_length == 2) {
        return std::unique_ptr<LeafBuilder>(new FixedBytesBuilder(type, 2, pool));
      }
      if (IsDecimal(id)) {
        if (column.type_length > type->byte_width()) break;
        return std::unique_ptr<LeafBuilder>(
            new BigEndianDecimalBuilder(type, column.physical_type, pool));
      }
      if (id == Type::kDictionary &&
          TypeAs<DictionaryType>(*type).value_type()->id() == Type::kFixedSizeBinary) {
        return MakeDictionaryLeafBuilder(type, column.physical_type, column.type_length, pool);
      }
      break;
    case format::Type::kByteArray:
      switch (id) {
        case Type::kBinary:
        case Type::kString:
        case Type::kLargeBinary:
        case Type::kLargeString:
        case Type::kBinaryView:
        case Type::kStringView:
          return MakeBinaryLeafBuilder(type, pool);
        case Type::kDecimal32:
        case Type::kDecimal64:
        case Type::kDecimal128:
        case Type::kDecimal256:
          return std::unique_ptr<LeafBuilder>(
              new BigEndianDecimalBuilder(type, column.physical_type, pool));
        case Type::kDictionary: {
          const Type value = TypeAs<DictionaryType>(*type).value_type()->id();
          if (IsBinaryLike(value) && !IsBinaryView(value)) {
            return MakeDictionaryLeafBuilder(type, column.physical_type, 0, pool);
          }
          break;
        }
        default:
          break;
      }
      break;
  }
  return Unsupported(column, *type);
}

}  // namespace quiver::parquet::internal