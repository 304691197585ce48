// Fixed-width builders. Layouts and design notes: builder_primitive.h.
#include "quiver/array/builder_primitive.h"

#include <algorithm>

#include "quiver/util/bitmap.h"

namespace quiver {

template <>
TypePtr DefaultTypeForCType<int8_t>() { return int8(); }
template <>
TypePtr DefaultTypeForCType<int16_t>() { return int16(); }
template <>
TypePtr DefaultTypeForCType<int32_t>() { return int32(); }
template <>
TypePtr DefaultTypeForCType<int64_t>() { return int64(); }
template <>
TypePtr DefaultTypeForCType<uint8_t>() { return uint8(); }
template <>
TypePtr DefaultTypeForCType<uint16_t>() { return uint16(); }
template <>
TypePtr DefaultTypeForCType<uint32_t>() { return uint32(); }
template <>
TypePtr DefaultTypeForCType<uint64_t>() { return uint64(); }
template <>
TypePtr DefaultTypeForCType<float>() { return float32(); }
template <>
TypePtr DefaultTypeForCType<double>() { return float64(); }

// --- NullBuilder -------------------------------------------------------------

NullBuilder::NullBuilder(MemoryPool* pool) : ArrayBuilder(null(), pool) {}

Status NullBuilder::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("NullBuilder::Resize: capacity ", capacity, " is less than the length ",
                           length_);
  }
  capacity_ = capacity;  // nothing to allocate
  return Status::OK();
}

Status NullBuilder::AppendNulls(int64_t n) {
  if (n < 0) return Status::Invalid("NullBuilder::AppendNulls: negative count ", n);
  if (n > INT64_MAX - length_) {
    return Status::CapacityError("NullBuilder: length overflows int64");
  }
  length_ += n;
  null_count_ += n;
  capacity_ = std::max(capacity_, length_);
  return Status::OK();
}

Result<ArrayDataPtr> NullBuilder::FinishInternal() {
  return ArrayData::Make(type_, length_, {}, length_);
}

// --- NumericBuilder ----------------------------------------------------------

template <typename T>
NumericBuilder<T>::NumericBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), values_(pool) {
  // The logical type's storage must be T (float16: uint16_t).
  QUIVER_DCHECK_EQ(type_->bit_width(), static_cast<int>(8 * sizeof(T)));
}

template <typename T>
Status NumericBuilder<T>::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("Resize: capacity ", capacity, " is less than the length ", length_);
  }
  const int64_t bytes = capacity * static_cast<int64_t>(sizeof(T));
  if (bytes > values_.size()) QUIVER_RETURN_NOT_OK(values_.Reserve(bytes - values_.size()));
  return ArrayBuilder::Resize(capacity);
}

template <typename T>
void NumericBuilder<T>::Reset() {
  values_ = MutableBuffer(pool_);
  ArrayBuilder::Reset();
}

template <typename T>
Status NumericBuilder<T>::AppendValues(const T* values, int64_t n, const uint8_t* valid_bytes) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  values_.UnsafeExtendFromSlice(values, n * static_cast<int64_t>(sizeof(T)));
  UnsafeAppendValidBytes(valid_bytes, n);
  return Status::OK();
}

template <typename T>
Status NumericBuilder<T>::AppendValuesBitmap(const T* values, int64_t n, const uint8_t* validity,
                                             int64_t validity_offset) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  values_.UnsafeExtendFromSlice(values, n * static_cast<int64_t>(sizeof(T)));
  UnsafeAppendValidBitmap(validity, validity_offset, n);
  return Status::OK();
}

template <typename T>
Status NumericBuilder<T>::AppendValues(const std::vector<T>& values,
                                       const std::vector<bool>& is_valid) {
  const auto n = static_cast<int64_t>(values.size());
  if (!is_valid.empty() && is_valid.size() != values.size()) {
    return Status::Invalid("AppendValues: ", values.size(), " values but ", is_valid.size(),
                           " validity flags");
  }
  QUIVER_RETURN_NOT_OK(Reserve(n));
  if (is_valid.empty()) {
    values_.UnsafeExtendFromSlice(values.data(), n * static_cast<int64_t>(sizeof(T)));
    UnsafeAppendValidBits(n);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      values_.UnsafeAppend(values[static_cast<size_t>(i)]);
      UnsafeAppendValidity(is_valid[static_cast<size_t>(i)]);
    }
  }
  return Status::OK();
}

template <typename T>
Status NumericBuilder<T>::AppendNulls(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  std::memset(values_.data() + values_.size(), 0, static_cast<size_t>(n) * sizeof(T));
  values_.UnsafeSetSize(values_.size() + n * static_cast<int64_t>(sizeof(T)));
  UnsafeAppendNullBits(n);
  return Status::OK();
}

template <typename T>
Status NumericBuilder<T>::AppendEmptyValues(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  std::memset(values_.data() + values_.size(), 0, static_cast<size_t>(n) * sizeof(T));
  values_.UnsafeSetSize(values_.size() + n * static_cast<int64_t>(sizeof(T)));
  UnsafeAppendValidBits(n);
  return Status::OK();
}

template <typename T>
Result<ArrayDataPtr> NumericBuilder<T>::FinishInternal() {
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length_, {std::move(validity), values_.Freeze()}, null_count_);
}

template class NumericBuilder<int8_t>;
template class NumericBuilder<int16_t>;
template class NumericBuilder<int32_t>;
template class NumericBuilder<int64_t>;
template class NumericBuilder<uint8_t>;
template class NumericBuilder<uint16_t>;
template class NumericBuilder<uint32_t>;
template class NumericBuilder<uint64_t>;
template class NumericBuilder<float>;
template class NumericBuilder<double>;

DayTimeIntervalBuilder::DayTimeIntervalBuilder(MemoryPool* pool)
    : NumericBuilder<int64_t>(day_time_interval(), pool) {}

// --- BooleanBuilder ----------------------------------------------------------

BooleanBuilder::BooleanBuilder(MemoryPool* pool) : ArrayBuilder(boolean(), pool), values_(pool) {}

Status BooleanBuilder::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("Resize: capacity ", capacity, " is less than the length ", length_);
  }
  // Zero-filled: appends only set bits. Shrinking keeps the bytes (zero past
  // length()).
  const int64_t bytes = bit_util::BytesForBits(capacity);
  if (bytes > values_.size()) QUIVER_RETURN_NOT_OK(values_.Resize(bytes, 0));
  return ArrayBuilder::Resize(capacity);
}

void BooleanBuilder::Reset() {
  values_ = MutableBuffer(pool_);
  ArrayBuilder::Reset();
}

Status BooleanBuilder::AppendValues(const uint8_t* values, int64_t n, const uint8_t* valid_bytes) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  uint8_t* bits = values_.data();
  for (int64_t i = 0; i < n; ++i) {
    if (values[i] != 0) bit_util::SetBit(bits, length_ + i);
  }
  UnsafeAppendValidBytes(valid_bytes, n);
  return Status::OK();
}

Status BooleanBuilder::AppendValuesBitmap(const uint8_t* values, int64_t values_offset, int64_t n,
                                          const uint8_t* validity, int64_t validity_offset) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  bitmap::CopyBitmap(values, values_offset, n, values_.data(), length_);
  UnsafeAppendValidBitmap(validity, validity_offset, n);
  return Status::OK();
}

Status BooleanBuilder::AppendValues(const std::vector<bool>& values,
                                    const std::vector<bool>& is_valid) {
  if (!is_valid.empty() && is_valid.size() != values.size()) {
    return Status::Invalid("AppendValues: ", values.size(), " values but ", is_valid.size(),
                           " validity flags");
  }
  QUIVER_RETURN_NOT_OK(Reserve(static_cast<int64_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) bit_util::SetBit(values_.data(), length_);
    UnsafeAppendValidity(is_valid.empty() || is_valid[i]);
  }
  return Status::OK();
}

Status BooleanBuilder::AppendValues(int64_t n, bool value) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  if (value) bitmap::SetBitsTo(values_.data(), length_, n, true);
  UnsafeAppendValidBits(n);
  return Status::OK();
}

Status BooleanBuilder::AppendNulls(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  UnsafeAppendNullBits(n);
  return Status::OK();
}

Result<ArrayDataPtr> BooleanBuilder::FinishInternal() {
  auto validity = FinishValidity();
  // Shrinking never allocates; the bytes past length() are zero already.
  values_.UnsafeSetSize(bit_util::BytesForBits(length_));
  return ArrayData::Make(type_, length_, {std::move(validity), values_.Freeze()}, null_count_);
}

// --- FixedSizeBinaryBuilder --------------------------------------------------

FixedSizeBinaryBuilder::FixedSizeBinaryBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), byte_width_(type_->byte_width()), values_(pool) {
  if (byte_width_ < 0) byte_width_ = 0;  // fixed_size_binary(0): bit_width() is 0 -> -1
}

Status FixedSizeBinaryBuilder::Append(std::string_view value) {
  if (QUIVER_PREDICT_FALSE(static_cast<int64_t>(value.size()) != byte_width_)) {
    return Status::Invalid("FixedSizeBinaryBuilder: a value of ", value.size(),
                           " bytes for ", type_->ToString(), " (", byte_width_,
                           " bytes per value), at slot ", length_);
  }
  return Append(reinterpret_cast<const uint8_t*>(value.data()));
}

Status FixedSizeBinaryBuilder::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("Resize: capacity ", capacity, " is less than the length ", length_);
  }
  if (byte_width_ > 0 && capacity > INT64_MAX / byte_width_) {
    return Status::CapacityError("FixedSizeBinaryBuilder: ", capacity, " values of ", byte_width_,
                                 " bytes overflow int64");
  }
  const int64_t bytes = capacity * byte_width_;
  if (bytes > values_.size()) QUIVER_RETURN_NOT_OK(values_.Reserve(bytes - values_.size()));
  return ArrayBuilder::Resize(capacity);
}

void FixedSizeBinaryBuilder::Reset() {
  values_ = MutableBuffer(pool_);
  ArrayBuilder::Reset();
}

Status FixedSizeBinaryBuilder::AppendValues(const uint8_t* values, int64_t n,
                                            const uint8_t* valid_bytes) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  values_.UnsafeExtendFromSlice(values, n * byte_width_);
  UnsafeAppendValidBytes(valid_bytes, n);
  return Status::OK();
}

Status FixedSizeBinaryBuilder::AppendValues(const std::vector<std::string>& values,
                                            const uint8_t* valid_bytes) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (valid_bytes == nullptr || valid_bytes[i] != 0) {
      if (static_cast<int64_t>(values[i].size()) != byte_width_) {
        return Status::Invalid("FixedSizeBinaryBuilder: value ", i, " has ", values[i].size(),
                               " bytes, ", type_->ToString(), " needs ", byte_width_);
      }
    }
  }
  QUIVER_RETURN_NOT_OK(Reserve(static_cast<int64_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) {
    if (valid_bytes == nullptr || valid_bytes[i] != 0) {
      UnsafeAppend(reinterpret_cast<const uint8_t*>(values[i].data()));
    } else {
      UnsafeAppendNull();
    }
  }
  return Status::OK();
}

Status FixedSizeBinaryBuilder::AppendNulls(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  std::memset(values_.data() + values_.size(), 0, static_cast<size_t>(n * byte_width_));
  values_.UnsafeSetSize(values_.size() + n * byte_width_);
  UnsafeAppendNullBits(n);
  return Status::OK();
}

Status FixedSizeBinaryBuilder::AppendEmptyValue() { return AppendEmptyValues(1); }

Status FixedSizeBinaryBuilder::AppendEmptyValues(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  std::memset(values_.data() + values_.size(), 0, static_cast<size_t>(n * byte_width_));
  values_.UnsafeSetSize(values_.size() + n * byte_width_);
  UnsafeAppendValidBits(n);
  return Status::OK();
}

Result<ArrayDataPtr> FixedSizeBinaryBuilder::FinishInternal() {
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length_, {std::move(validity), values_.Freeze()}, null_count_);
}

// --- DecimalBuilder / MonthDayNanoIntervalBuilder ----------------------------

DecimalBuilder::DecimalBuilder(TypePtr type, MemoryPool* pool)
    : FixedSizeBinaryBuilder(std::move(type), pool) {}

Status DecimalBuilder::AppendDecimal128(int64_t high, uint64_t low) {
  if (type_->id() != Type::kDecimal128) {
    return Status::TypeError("DecimalBuilder::AppendDecimal128 on ", type_->ToString());
  }
  uint8_t bytes[16];
  bit_util::SafeStore(bytes, bit_util::ToLittleEndian(low));
  bit_util::SafeStore(bytes + 8, bit_util::ToLittleEndian(high));
  return Append(bytes);
}

MonthDayNanoIntervalBuilder::MonthDayNanoIntervalBuilder(MemoryPool* pool)
    : FixedSizeBinaryBuilder(month_day_nano_interval(), pool) {}

}  // namespace quiver
