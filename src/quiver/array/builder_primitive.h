// Builders for the fixed-width types: NullBuilder, NumericBuilder<T> (all
// integers, floats, float16 as uint16_t bits, and the temporal types that
// are stored as int32/int64), BooleanBuilder, FixedSizeBinaryBuilder (also
// decimals and interval[month_day_nano]), and small conveniences on top.
//
// Layouts follow the Arrow columnar format ("Fixed-size Primitive Layout",
// "Null Layout"): one values buffer of the storage width, little-endian,
// 64-byte aligned; booleans are an LSB-first bitmap; null carries no buffers.
// Values under null slots are zero (the bulk AppendValues copies whatever the
// caller's array holds there). Model: Arrow C++'s builder_primitive.h.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include "quiver/array/builder.h"

namespace quiver {

// The plain Arrow type whose storage is T: int8()..uint64(), float32(),
// float64() (uint16_t gives uint16(); float16 builders pass float16()).
template <typename T>
TypePtr DefaultTypeForCType();

// Every slot is null; nothing is stored but the length.
class NullBuilder final : public ArrayBuilder {
 public:
  explicit NullBuilder(MemoryPool* pool = DefaultMemoryPool());

  Status Resize(int64_t capacity) override;
  Status AppendNull() override { return AppendNulls(1); }
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValue() override { return AppendNulls(1); }
  Status AppendEmptyValues(int64_t n) override { return AppendNulls(n); }

 protected:
  Result<ArrayDataPtr> FinishInternal() override;
};

// Integers, floats and every type stored as one (date32/64, time32/64,
// timestamp, duration, interval[months], interval[day_time] as int64,
// float16 as uint16_t). The TypePtr says which logical type is built.
template <typename T>
class NumericBuilder : public ArrayBuilder {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
                "NumericBuilder needs an integer or floating-point storage type");

 public:
  using value_type = T;

  explicit NumericBuilder(MemoryPool* pool = DefaultMemoryPool())
      : NumericBuilder(DefaultTypeForCType<T>(), pool) {}
  // `type`'s storage must be T (checked by MakeBuilder, asserted in debug).
  explicit NumericBuilder(TypePtr type, MemoryPool* pool = DefaultMemoryPool());

  Status Append(T value) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppend(value);
    return Status::OK();
  }
  // Only after Reserve().
  void UnsafeAppend(T value) {
    values_.UnsafeAppend(value);
    UnsafeAppendValid();
  }
  void UnsafeAppendNull() {
    values_.UnsafeAppend(T{});
    UnsafeAppendNullBit();
  }

  // `n` values; `valid_bytes` (one byte per value, 0 = null) may be nullptr.
  Status AppendValues(const T* values, int64_t n, const uint8_t* valid_bytes = nullptr);
  // `n` values with validity from bit `validity_offset` of `validity`
  // (nullptr = all valid).
  Status AppendValuesBitmap(const T* values, int64_t n, const uint8_t* validity,
                            int64_t validity_offset);
  // `is_valid` empty, or one flag per value.
  Status AppendValues(const std::vector<T>& values, const std::vector<bool>& is_valid = {});

  Status AppendNull() final {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppendNull();
    return Status::OK();
  }
  Status AppendNulls(int64_t n) final;
  Status AppendEmptyValue() final { return Append(T{}); }
  Status AppendEmptyValues(int64_t n) final;

  Status Resize(int64_t capacity) override;
  void Reset() override;

  // The value appended at slot i (< length()).
  T GetValue(int64_t i) const {
    T v;
    std::memcpy(&v, values_.data() + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return v;
  }

 protected:
  Result<ArrayDataPtr> FinishInternal() override;

  MutableBuffer values_;
};

using Int8Builder = NumericBuilder<int8_t>;
using Int16Builder = NumericBuilder<int16_t>;
using Int32Builder = NumericBuilder<int32_t>;
using Int64Builder = NumericBuilder<int64_t>;
using UInt8Builder = NumericBuilder<uint8_t>;
using UInt16Builder = NumericBuilder<uint16_t>;
using UInt32Builder = NumericBuilder<uint32_t>;
using UInt64Builder = NumericBuilder<uint64_t>;
using FloatBuilder = NumericBuilder<float>;
using DoubleBuilder = NumericBuilder<double>;
// These need their type: HalfFloatBuilder(float16()), Date32Builder(date32()),
// TimestampBuilder(timestamp(TimeUnit::kMicro, "UTC")), ...
using HalfFloatBuilder = NumericBuilder<uint16_t>;
using Date32Builder = NumericBuilder<int32_t>;
using Date64Builder = NumericBuilder<int64_t>;
using Time32Builder = NumericBuilder<int32_t>;
using Time64Builder = NumericBuilder<int64_t>;
using TimestampBuilder = NumericBuilder<int64_t>;
using DurationBuilder = NumericBuilder<int64_t>;
using MonthIntervalBuilder = NumericBuilder<int32_t>;

extern template class NumericBuilder<int8_t>;
extern template class NumericBuilder<int16_t>;
extern template class NumericBuilder<int32_t>;
extern template class NumericBuilder<int64_t>;
extern template class NumericBuilder<uint8_t>;
extern template class NumericBuilder<uint16_t>;
extern template class NumericBuilder<uint32_t>;
extern template class NumericBuilder<uint64_t>;
extern template class NumericBuilder<float>;
extern template class NumericBuilder<double>;

// interval[day_time]: (days, milliseconds) as two little-endian int32, days
// first, i.e. one int64 slot per value.
class DayTimeIntervalBuilder final : public NumericBuilder<int64_t> {
 public:
  explicit DayTimeIntervalBuilder(MemoryPool* pool = DefaultMemoryPool());

  static int64_t Pack(int32_t days, int32_t milliseconds) {
    const uint64_t lo = static_cast<uint32_t>(bit_util::ToLittleEndian(days));
    const uint64_t hi = static_cast<uint32_t>(bit_util::ToLittleEndian(milliseconds));
    int64_t packed;
    const uint64_t bits = lo | (hi << 32);
    std::memcpy(&packed, &bits, sizeof(packed));
    return packed;
  }
  using NumericBuilder<int64_t>::Append;
  using NumericBuilder<int64_t>::UnsafeAppend;
  Status Append(int32_t days, int32_t milliseconds) { return Append(Pack(days, milliseconds)); }
  void UnsafeAppend(int32_t days, int32_t milliseconds) { UnsafeAppend(Pack(days, milliseconds)); }
};

class BooleanBuilder final : public ArrayBuilder {
 public:
  explicit BooleanBuilder(MemoryPool* pool = DefaultMemoryPool());

  Status Append(bool value) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppend(value);
    return Status::OK();
  }
  void UnsafeAppend(bool value) {
    // The values bitmap is kept zeroed up to capacity(): only 1s are written.
    if (value) bit_util::SetBit(values_.data(), length_);
    UnsafeAppendValid();
  }
  void UnsafeAppendNull() { UnsafeAppendNullBit(); }

  // One byte per value (non-zero = true); `valid_bytes` may be nullptr.
  Status AppendValues(const uint8_t* values, int64_t n, const uint8_t* valid_bytes = nullptr);
  // Values from bit `values_offset` of a bitmap; validity likewise
  // (nullptr = all valid).
  Status AppendValuesBitmap(const uint8_t* values, int64_t values_offset, int64_t n,
                            const uint8_t* validity = nullptr, int64_t validity_offset = 0);
  Status AppendValues(const std::vector<bool>& values, const std::vector<bool>& is_valid = {});
  // `n` copies of `value`.
  Status AppendValues(int64_t n, bool value);

  Status AppendNull() override {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppendNull();
    return Status::OK();
  }
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValue() override { return Append(false); }
  Status AppendEmptyValues(int64_t n) override { return AppendValues(n, false); }

  Status Resize(int64_t capacity) override;
  void Reset() override;

  bool GetValue(int64_t i) const { return bit_util::GetBit(values_.data(), i); }

 protected:
  Result<ArrayDataPtr> FinishInternal() override;

 private:
  MutableBuffer values_;  // size() == BytesForBits(capacity()), zero past length()
};

// Values of a fixed number of bytes: fixed_size_binary(n), decimal32..256
// (two's complement, little-endian, 4/8/16/32 bytes) and
// interval[month_day_nano] (16 bytes).
class FixedSizeBinaryBuilder : public ArrayBuilder {
 public:
  // `type` is fixed_size_binary, a decimal or interval[month_day_nano].
  explicit FixedSizeBinaryBuilder(TypePtr type, MemoryPool* pool = DefaultMemoryPool());

  int32_t byte_width() const { return byte_width_; }

  // byte_width() bytes at `value`.
  Status Append(const uint8_t* value) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppend(value);
    return Status::OK();
  }
  // Invalid unless value.size() == byte_width().
  Status Append(std::string_view value);
  void UnsafeAppend(const uint8_t* value) {
    values_.UnsafeExtendFromSlice(value, byte_width_);
    UnsafeAppendValid();
  }
  void UnsafeAppendNull() {
    std::memset(values_.data() + values_.size(), 0, static_cast<size_t>(byte_width_));
    values_.UnsafeSetSize(values_.size() + byte_width_);
    UnsafeAppendNullBit();
  }

  // `n` values of byte_width() bytes each, back to back.
  Status AppendValues(const uint8_t* values, int64_t n, const uint8_t* valid_bytes = nullptr);
  Status AppendValues(const std::vector<std::string>& values, const uint8_t* valid_bytes = nullptr);

  Status AppendNull() final {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppendNull();
    return Status::OK();
  }
  Status AppendNulls(int64_t n) final;
  Status AppendEmptyValue() final;
  Status AppendEmptyValues(int64_t n) final;

  Status Resize(int64_t capacity) override;
  void Reset() override;

  const uint8_t* GetValue(int64_t i) const { return values_.data() + i * byte_width_; }
  std::string_view GetView(int64_t i) const {
    return {reinterpret_cast<const char*>(GetValue(i)), static_cast<size_t>(byte_width_)};
  }

 protected:
  Result<ArrayDataPtr> FinishInternal() override;

  int32_t byte_width_;
  MutableBuffer values_;
};

// decimal32/64/128/256: raw little-endian two's complement bytes (Append),
// or integers (the unscaled value), sign-extended to the storage width.
class DecimalBuilder final : public FixedSizeBinaryBuilder {
 public:
  explicit DecimalBuilder(TypePtr type, MemoryPool* pool = DefaultMemoryPool());

  using FixedSizeBinaryBuilder::Append;
  // The unscaled value; Invalid for decimal32 when it does not fit 32 bits.
  // Precision is not checked (as in Arrow's builders; Validate does not
  // either).
  Status AppendInt64(int64_t unscaled) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    if (byte_width_ == 4 && (unscaled < INT32_MIN || unscaled > INT32_MAX)) {
      return Status::Invalid("DecimalBuilder: ", unscaled, " does not fit ", type_->ToString(),
                             " (32-bit storage)");
    }
    UnsafeAppendInt64(unscaled);
    return Status::OK();
  }
  // decimal64/128/256 only (decimal32 truncates).
  void UnsafeAppendInt64(int64_t unscaled) {
    uint8_t bytes[32];
    const int64_t le = bit_util::ToLittleEndian(unscaled);
    std::memcpy(bytes, &le, 8);
    std::memset(bytes + 8, unscaled < 0 ? 0xFF : 0x00, 24);
    UnsafeAppend(bytes);
  }
  // decimal128 from two's complement halves (as Arrow's Decimal128).
  Status AppendDecimal128(int64_t high, uint64_t low);
};

// interval[month_day_nano]: int32 months, int32 days, int64 nanoseconds,
// little-endian, 16 bytes per value.
class MonthDayNanoIntervalBuilder final : public FixedSizeBinaryBuilder {
 public:
  explicit MonthDayNanoIntervalBuilder(MemoryPool* pool = DefaultMemoryPool());

  using FixedSizeBinaryBuilder::Append;
  using FixedSizeBinaryBuilder::UnsafeAppend;
  Status Append(int32_t months, int32_t days, int64_t nanoseconds) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppend(months, days, nanoseconds);
    return Status::OK();
  }
  void UnsafeAppend(int32_t months, int32_t days, int64_t nanoseconds) {
    uint8_t bytes[16];
    bit_util::SafeStore(bytes, bit_util::ToLittleEndian(months));
    bit_util::SafeStore(bytes + 4, bit_util::ToLittleEndian(days));
    bit_util::SafeStore(bytes + 8, bit_util::ToLittleEndian(nanoseconds));
    UnsafeAppend(bytes);
  }
};

}  // namespace quiver
