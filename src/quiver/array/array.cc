#include "quiver/array/array.h"

#include <algorithm>

#include "quiver/util/bitmap.h"

namespace quiver {

ArrayPtr MakeArray(ArrayDataPtr data) {
  switch (data->type->id()) {
    case Type::kNull: return std::make_shared<NullArray>(std::move(data));
    case Type::kBool: return std::make_shared<BooleanArray>(std::move(data));
    case Type::kInt8: return std::make_shared<Int8Array>(std::move(data));
    case Type::kUInt8: return std::make_shared<UInt8Array>(std::move(data));
    case Type::kInt16: return std::make_shared<Int16Array>(std::move(data));
    case Type::kUInt16:
    case Type::kHalfFloat: return std::make_shared<UInt16Array>(std::move(data));
    case Type::kInt32:
    case Type::kDate32:
    case Type::kTime32:
    case Type::kIntervalMonths: return std::make_shared<Int32Array>(std::move(data));
    case Type::kUInt32: return std::make_shared<UInt32Array>(std::move(data));
    case Type::kInt64:
    case Type::kDate64:
    case Type::kTimestamp:
    case Type::kTime64:
    case Type::kDuration:
    case Type::kIntervalDayTime: return std::make_shared<Int64Array>(std::move(data));
    case Type::kUInt64: return std::make_shared<UInt64Array>(std::move(data));
    case Type::kFloat: return std::make_shared<FloatArray>(std::move(data));
    case Type::kDouble: return std::make_shared<DoubleArray>(std::move(data));
    case Type::kFixedSizeBinary:
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256:
    case Type::kIntervalMonthDayNano:
      return std::make_shared<FixedSizeBinaryArray>(std::move(data));
    case Type::kString:
    case Type::kBinary: return std::make_shared<BinaryArray>(std::move(data));
    case Type::kLargeString:
    case Type::kLargeBinary: return std::make_shared<LargeBinaryArray>(std::move(data));
    case Type::kStringView:
    case Type::kBinaryView: return std::make_shared<BinaryViewArray>(std::move(data));
    case Type::kList: return std::make_shared<ListArray>(std::move(data));
    case Type::kLargeList: return std::make_shared<LargeListArray>(std::move(data));
    case Type::kMap: return std::make_shared<MapArray>(std::move(data));
    case Type::kFixedSizeList: return std::make_shared<FixedSizeListArray>(std::move(data));
    case Type::kStruct: return std::make_shared<StructArray>(std::move(data));
    case Type::kDictionary: return std::make_shared<DictionaryArray>(std::move(data));
  }
  return std::make_shared<Array>(std::move(data));
}

ArrayPtr Array::Slice(int64_t slice_offset, int64_t slice_length) const {
  slice_offset = std::clamp<int64_t>(slice_offset, 0, length());
  slice_length = std::clamp<int64_t>(slice_length, 0, length() - slice_offset);
  return MakeArray(data_->Slice(slice_offset, slice_length));
}

int64_t BooleanArray::true_count() const {
  if (null_count() == 0) return bitmap::CountSetBits(values_bitmap(), offset(), length());
  int64_t count = 0;
  const uint8_t* valid = null_bitmap_data();
  for (int64_t i = 0; i < length(); ++i) {
    count += (valid == nullptr || bit_util::GetBit(valid, offset() + i)) &&
             bit_util::GetBit(values_bitmap(), offset() + i);
  }
  return count;
}

MapArray::MapArray(ArrayDataPtr data) : BaseListArray<int32_t>(std::move(data)) {
  const auto& entries = data_->children[0];
  keys_ = MakeArray(entries->children[0]->Slice(entries->offset, entries->length));
  items_ = MakeArray(entries->children[1]->Slice(entries->offset, entries->length));
}

ArrayPtr StructArray::field(int i) const {
  const auto& child = data_->children[static_cast<size_t>(i)];
  if (offset() == 0 && child->length == length()) return MakeArray(child);
  return MakeArray(child->Slice(offset(), length()));
}

ArrayPtr StructArray::GetFieldByName(std::string_view name) const {
  int i = TypeAs<StructType>(*type()).GetFieldIndex(name);
  return i < 0 ? nullptr : field(i);
}

DictionaryArray::DictionaryArray(ArrayDataPtr data) : Array(std::move(data)) {
  auto index_data = std::make_shared<ArrayData>(*data_);
  index_data->type = dict_type().index_type();
  index_data->dictionary = nullptr;
  indices_ = MakeArray(std::move(index_data));
  dictionary_ = data_->dictionary ? MakeArray(data_->dictionary) : nullptr;
}

int64_t DictionaryArray::GetValueIndex(int64_t i) const {
  const ArrayData& d = *indices_->data();
  switch (d.type->id()) {
    case Type::kInt8: return d.GetValues<int8_t>(1)[i];
    case Type::kUInt8: return d.GetValues<uint8_t>(1)[i];
    case Type::kInt16: return d.GetValues<int16_t>(1)[i];
    case Type::kUInt16: return d.GetValues<uint16_t>(1)[i];
    case Type::kInt32: return d.GetValues<int32_t>(1)[i];
    case Type::kUInt32: return d.GetValues<uint32_t>(1)[i];
    case Type::kInt64: return d.GetValues<int64_t>(1)[i];
    case Type::kUInt64: return static_cast<int64_t>(d.GetValues<uint64_t>(1)[i]);
    default: return -1;
  }
}

}  // namespace quiver
