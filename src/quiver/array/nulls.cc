#include "quiver/array/nulls.h"

#include <limits>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"

namespace quiver {
namespace {

Result<std::shared_ptr<Buffer>> Zeros(int64_t bytes, MemoryPool* pool) {
  MutableBuffer out(pool);
  QUIVER_RETURN_NOT_OK(out.AppendRepeated(0, bytes));
  return out.Freeze();
}

}  // namespace

Result<ArrayDataPtr> MakeArrayOfNulls(const TypePtr& type, int64_t length, MemoryPool* pool) {
  if (length < 0) return Status::Invalid("MakeArrayOfNulls: negative length ", length);
  if (type->id() == Type::kNull) return ArrayData::Make(type, length, {}, length);
  QUIVER_ASSIGN_OR_RAISE(auto validity, Zeros(bit_util::BytesForBits(length), pool));
  switch (type->id()) {
    case Type::kString:
    case Type::kBinary:
    case Type::kLargeString:
    case Type::kLargeBinary: {
      const int64_t width = IsLargeBinaryLike(type->id()) ? 8 : 4;
      QUIVER_ASSIGN_OR_RAISE(auto offsets, Zeros((length + 1) * width, pool));
      QUIVER_ASSIGN_OR_RAISE(auto data, Zeros(0, pool));
      return ArrayData::Make(type, length, {validity, offsets, data}, length);
    }
    case Type::kStringView:
    case Type::kBinaryView: {
      QUIVER_ASSIGN_OR_RAISE(auto views, Zeros(length * 16, pool));
      return ArrayData::Make(type, length, {validity, views}, length);
    }
    case Type::kList:
    case Type::kLargeList:
    case Type::kMap: {
      const int64_t width = type->id() == Type::kLargeList ? 8 : 4;
      QUIVER_ASSIGN_OR_RAISE(auto offsets, Zeros((length + 1) * width, pool));
      QUIVER_ASSIGN_OR_RAISE(auto child, MakeArrayOfNulls(type->field(0)->type(), 0, pool));
      return ArrayData::Make(type, length, {validity, offsets}, {child}, length);
    }
    case Type::kFixedSizeList: {
      const int64_t size = TypeAs<ListType>(*type).list_size();
      if (size > 0 && length > std::numeric_limits<int64_t>::max() / size) {
        return Status::CapacityError("MakeArrayOfNulls: ", length, " lists of ", size,
                                     " elements");
      }
      QUIVER_ASSIGN_OR_RAISE(auto child, MakeArrayOfNulls(type->field(0)->type(), length * size, pool));
      return ArrayData::Make(type, length, {validity}, {child}, length);
    }
    case Type::kStruct: {
      std::vector<ArrayDataPtr> children;
      for (const FieldPtr& f : type->fields()) {
        QUIVER_ASSIGN_OR_RAISE(auto child, MakeArrayOfNulls(f->type(), length, pool));
        children.push_back(std::move(child));
      }
      return ArrayData::Make(type, length, {validity}, std::move(children), length);
    }
    case Type::kDictionary: {
      const auto& dict = TypeAs<DictionaryType>(*type);
      QUIVER_ASSIGN_OR_RAISE(auto indices, Zeros(length * dict.index_type()->byte_width(), pool));
      auto data = ArrayData::Make(type, length, {validity, indices}, length);
      QUIVER_ASSIGN_OR_RAISE(data->dictionary, MakeArrayOfNulls(dict.value_type(), 0, pool));
      return data;
    }
    default: {
      const int bits = type->bit_width();
      if (bits < 0) return Status::NotImplemented("MakeArrayOfNulls: ", type->ToString());
      QUIVER_ASSIGN_OR_RAISE(auto values, Zeros(bit_util::BytesForBits(length * bits), pool));
      return ArrayData::Make(type, length, {validity, values}, length);
    }
  }
}

}  // namespace quiver
