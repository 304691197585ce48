// Typed, read-only views over ArrayData (Arrow C++'s arrow/array/*.h in
// miniature). An Array holds its ArrayData alive; accessors are inline and
// index relative to the array's own offset. MakeArray picks the view class
// for a type. Hot loops should read raw_values() / validity bits directly.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"

namespace quiver {

class Array;
using ArrayPtr = std::shared_ptr<Array>;

// A view of the right class for data->type.
ArrayPtr MakeArray(ArrayDataPtr data);

struct EqualOptions {
  // NaN == NaN for floating point values (bitwise NaN payloads ignored).
  bool nans_equal = false;
  // Compare field metadata inside types.
  bool check_metadata = false;
  static EqualOptions Defaults() { return {}; }
};

class Array {
 public:
  explicit Array(ArrayDataPtr data) : data_(std::move(data)) {}
  virtual ~Array() = default;

  const ArrayDataPtr& data() const { return data_; }
  const TypePtr& type() const { return data_->type; }
  Type type_id() const { return data_->type->id(); }
  int64_t length() const { return data_->length; }
  int64_t offset() const { return data_->offset; }
  int64_t null_count() const { return data_->GetNullCount(); }
  bool IsNull(int64_t i) const { return data_->IsNull(i); }
  bool IsValid(int64_t i) const { return data_->IsValid(i); }
  // The validity bitmap (bit offset offset()), or nullptr when all valid.
  const uint8_t* null_bitmap_data() const { return data_->validity(); }

  // Zero-copy; `length` is clamped to what remains after `offset`.
  ArrayPtr Slice(int64_t offset, int64_t length) const;
  ArrayPtr Slice(int64_t offset) const { return Slice(offset, length() - offset); }

  // Logical equality: same type, length and values; null slots compare equal
  // whatever their bytes, and offsets/slicing do not matter.
  bool Equals(const Array& other, const EqualOptions& options = {}) const;
  bool Equals(const ArrayPtr& other, const EqualOptions& options = {}) const {
    return other != nullptr && Equals(*other, options);
  }
  // Equality of [start, end) of this with [other_start, ...) of other.
  bool RangeEquals(const Array& other, int64_t start, int64_t end, int64_t other_start,
                   const EqualOptions& options = {}) const;

  // Structural checks in O(1) per buffer (sizes, child lengths, offsets of
  // the first and last slot): cheap enough before any use of foreign data.
  Status Validate() const;
  // Everything Validate() checks plus every value: offsets monotonic and in
  // bounds, UTF-8 valid for strings, dictionary indices in range, views in
  // bounds, ... O(n).
  Status ValidateFull() const;

  // A readable rendering (see pretty_print.h for options).
  std::string ToString() const;

 protected:
  ArrayDataPtr data_;
};

class NullArray final : public Array {
 public:
  using Array::Array;
};

template <typename T>
class PrimitiveArray final : public Array {
 public:
  using value_type = T;
  using Array::Array;
  const T* raw_values() const { return data_->GetValues<T>(1); }
  T Value(int64_t i) const {
    T v;
    std::memcpy(&v, raw_values() + i, sizeof(T));
    return v;
  }
};

using Int8Array = PrimitiveArray<int8_t>;
using Int16Array = PrimitiveArray<int16_t>;
using Int32Array = PrimitiveArray<int32_t>;
using Int64Array = PrimitiveArray<int64_t>;
using UInt8Array = PrimitiveArray<uint8_t>;
using UInt16Array = PrimitiveArray<uint16_t>;
using UInt32Array = PrimitiveArray<uint32_t>;
using UInt64Array = PrimitiveArray<uint64_t>;
using HalfFloatArray = PrimitiveArray<uint16_t>;
using FloatArray = PrimitiveArray<float>;
using DoubleArray = PrimitiveArray<double>;

class BooleanArray final : public Array {
 public:
  using Array::Array;
  // Bit offset offset() into this buffer.
  const uint8_t* values_bitmap() const { return data_->buffers[1]->data(); }
  bool Value(int64_t i) const { return bit_util::GetBit(values_bitmap(), offset() + i); }
  int64_t true_count() const;  // among valid slots
};

// Fixed-width values of any byte width: fixed_size_binary, decimals,
// intervals (month_day_nano is 16 bytes).
class FixedSizeBinaryArray final : public Array {
 public:
  explicit FixedSizeBinaryArray(ArrayDataPtr data)
      : Array(std::move(data)), byte_width_(data_->type->byte_width()) {}
  int32_t byte_width() const { return byte_width_; }
  const uint8_t* raw_values() const {
    return data_->buffers[1]->data() + offset() * static_cast<int64_t>(byte_width_);
  }
  const uint8_t* GetValue(int64_t i) const { return raw_values() + i * byte_width_; }
  std::string_view GetView(int64_t i) const {
    return {reinterpret_cast<const char*>(GetValue(i)), static_cast<size_t>(byte_width_)};
  }

 private:
  int32_t byte_width_;
};
using DecimalArray = FixedSizeBinaryArray;

// binary, string (OffsetT = int32_t); large_binary, large_string (int64_t).
template <typename OffsetT>
class BaseBinaryArray final : public Array {
 public:
  using offset_type = OffsetT;
  using Array::Array;
  const OffsetT* raw_value_offsets() const { return data_->GetValues<OffsetT>(1); }
  // The data buffer (not offset: value i starts at raw_value_offsets()[i]).
  const uint8_t* raw_data() const { return data_->buffers[2]->data(); }
  OffsetT value_offset(int64_t i) const { return raw_value_offsets()[i]; }
  OffsetT value_length(int64_t i) const {
    return raw_value_offsets()[i + 1] - raw_value_offsets()[i];
  }
  std::string_view GetView(int64_t i) const {
    const OffsetT* o = raw_value_offsets();
    return {reinterpret_cast<const char*>(raw_data()) + o[i], static_cast<size_t>(o[i + 1] - o[i])};
  }
  std::string GetString(int64_t i) const { return std::string(GetView(i)); }
  // Bytes spanned by this (possibly sliced) array's values.
  int64_t total_values_length() const {
    return length() == 0 ? 0 : raw_value_offsets()[length()] - raw_value_offsets()[0];
  }
};
using BinaryArray = BaseBinaryArray<int32_t>;
using StringArray = BaseBinaryArray<int32_t>;
using LargeBinaryArray = BaseBinaryArray<int64_t>;
using LargeStringArray = BaseBinaryArray<int64_t>;

// binary_view / string_view: 16-byte views; strings of <= 12 bytes inline,
// longer ones as (length, 4-byte prefix, buffer index, offset) into the data
// buffers buffers[2..].
class BinaryViewArray final : public Array {
 public:
  static constexpr int32_t kInlineSize = 12;
  using Array::Array;
  const uint8_t* raw_views() const { return data_->buffers[1]->data() + offset() * 16; }
  int32_t value_length(int64_t i) const {
    int32_t len;
    std::memcpy(&len, raw_views() + i * 16, 4);
    return len;
  }
  std::string_view GetView(int64_t i) const {
    const uint8_t* view = raw_views() + i * 16;
    int32_t len;
    std::memcpy(&len, view, 4);
    if (len <= kInlineSize) {
      return {reinterpret_cast<const char*>(view + 4), static_cast<size_t>(len)};
    }
    int32_t buffer_index, buffer_offset;
    std::memcpy(&buffer_index, view + 8, 4);
    std::memcpy(&buffer_offset, view + 12, 4);
    const auto& buf = data_->buffers[static_cast<size_t>(2 + buffer_index)];
    return {reinterpret_cast<const char*>(buf->data()) + buffer_offset, static_cast<size_t>(len)};
  }
  int64_t num_data_buffers() const { return static_cast<int64_t>(data_->buffers.size()) - 2; }
};

// list (int32 offsets), large_list (int64 offsets); map is a list of entries.
template <typename OffsetT>
class BaseListArray : public Array {
 public:
  using offset_type = OffsetT;
  explicit BaseListArray(ArrayDataPtr data)
      : Array(std::move(data)), values_(MakeArray(data_->children[0])) {}
  const OffsetT* raw_value_offsets() const { return data_->GetValues<OffsetT>(1); }
  OffsetT value_offset(int64_t i) const { return raw_value_offsets()[i]; }
  OffsetT value_length(int64_t i) const {
    return raw_value_offsets()[i + 1] - raw_value_offsets()[i];
  }
  // The whole child array (not sliced: offsets index into it).
  const ArrayPtr& values() const { return values_; }
  // The values of list i, as a slice of values().
  ArrayPtr value_slice(int64_t i) const { return values_->Slice(value_offset(i), value_length(i)); }

 protected:
  ArrayPtr values_;
};
using ListArray = BaseListArray<int32_t>;
using LargeListArray = BaseListArray<int64_t>;

class MapArray final : public BaseListArray<int32_t> {
 public:
  explicit MapArray(ArrayDataPtr data);
  const ArrayPtr& keys() const { return keys_; }
  const ArrayPtr& items() const { return items_; }

 private:
  ArrayPtr keys_;
  ArrayPtr items_;
};

class FixedSizeListArray final : public Array {
 public:
  explicit FixedSizeListArray(ArrayDataPtr data)
      : Array(std::move(data)),
        list_size_(TypeAs<ListType>(*data_->type).list_size()),
        values_(MakeArray(data_->children[0])) {}
  int32_t list_size() const { return list_size_; }
  int64_t value_offset(int64_t i) const { return (offset() + i) * list_size_; }
  int32_t value_length(int64_t = 0) const { return list_size_; }
  const ArrayPtr& values() const { return values_; }
  ArrayPtr value_slice(int64_t i) const { return values_->Slice(value_offset(i), list_size_); }

 private:
  int32_t list_size_;
  ArrayPtr values_;
};

class StructArray final : public Array {
 public:
  using Array::Array;
  int num_fields() const { return static_cast<int>(data_->children.size()); }
  // Child i sliced to this array's offset and length.
  ArrayPtr field(int i) const;
  ArrayPtr GetFieldByName(std::string_view name) const;
};

class DictionaryArray final : public Array {
 public:
  explicit DictionaryArray(ArrayDataPtr data);
  const DictionaryType& dict_type() const { return TypeAs<DictionaryType>(*type()); }
  // Indices as an integer array of the index type (same offset/length).
  const ArrayPtr& indices() const { return indices_; }
  const ArrayPtr& dictionary() const { return dictionary_; }
  // Index of slot i (widened to int64), valid slots only.
  int64_t GetValueIndex(int64_t i) const;

 private:
  ArrayPtr indices_;
  ArrayPtr dictionary_;
};

// Checked-by-the-caller downcast: `ArrayAs<StringArray>(*array)`.
template <typename T>
const T& ArrayAs(const Array& array) {
  return static_cast<const T&>(array);
}

}  // namespace quiver
