#include "quiver/array/array_data.h"

#include "quiver/util/bitmap.h"

namespace quiver {

int64_t ArrayData::GetNullCount() const {
  if (null_count != kUnknownNullCount) return null_count;
  if (type->id() == Type::kNull) {
    null_count = length;
  } else if (const uint8_t* v = validity()) {
    null_count = length - bitmap::CountSetBits(v, offset, length);
  } else {
    null_count = 0;
  }
  return null_count;
}

ArrayDataPtr ArrayData::Slice(int64_t slice_offset, int64_t slice_length) const {
  auto out = std::make_shared<ArrayData>(*this);
  out->offset = offset + slice_offset;
  out->length = slice_length;
  if (type->id() == Type::kNull) {
    out->null_count = slice_length;
  } else if (null_count == 0 || validity() == nullptr) {
    out->null_count = 0;
  } else if (slice_offset == 0 && slice_length == length) {
    out->null_count = null_count;
  } else {
    out->null_count = kUnknownNullCount;
  }
  return out;
}

int NumFixedBuffers(Type id) {
  switch (id) {
    case Type::kNull: return 0;
    case Type::kStruct:
    case Type::kFixedSizeList: return 1;
    case Type::kString:
    case Type::kBinary:
    case Type::kLargeString:
    case Type::kLargeBinary: return 3;
    default: return 2;  // fixed width, bool, views, list, large_list, map, dictionary
  }
}

}  // namespace quiver
