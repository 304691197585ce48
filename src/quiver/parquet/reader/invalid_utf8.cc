#include "quiver/parquet/reader/invalid_utf8_internal.h"

#include <utility>

#include "quiver/parquet/schema/parquet_to_arrow_internal.h"

namespace quiver::parquet::internal {

namespace {

bool IsStringType(const DataType& type) {
  if (type.id() == Type::kDictionary) {
    return IsStringLike(TypeAs<DictionaryType>(type).value_type()->id());
  }
  return IsStringLike(type.id());
}

// The binary type of a string type's layout.
TypePtr BinaryOf(const TypePtr& type) {
  switch (type->id()) {
    case Type::kString: return binary();
    case Type::kLargeString: return large_binary();
    case Type::kStringView: return binary_view();
    case Type::kDictionary: {
      const auto& d = TypeAs<DictionaryType>(*type);
      return dictionary(d.index_type(), BinaryOf(d.value_type()), d.ordered());
    }
    default: return type;
  }
}

FieldPtr WithType(const FieldPtr& f, TypePtr type, MetadataPtr metadata) {
  return field(f->name(), std::move(type), f->nullable(), std::move(metadata));
}

}  // namespace

bool HasStringLeaf(const ReadNode& node) {
  if (node.kind == ReadNode::Kind::kLeaf) return IsStringType(*node.field->type());
  for (const ReadNode& child : node.children) {
    if (HasStringLeaf(child)) return true;
  }
  return false;
}

ReadNode WithBinaryLeaves(const ReadNode& node, const std::set<int32_t>& columns) {
  ReadNode out = node;
  if (node.kind == ReadNode::Kind::kLeaf) {
    if (columns.contains(node.column) && IsStringType(*node.field->type())) {
      out.field = WithType(node.field, BinaryOf(node.field->type()),
                           WithoutExtension(node.field->metadata()));
    }
    return out;
  }
  FieldVector fields;
  for (size_t i = 0; i < node.children.size(); ++i) {
    out.children[i] = WithBinaryLeaves(node.children[i], columns);
    fields.push_back(out.children[i].field);
  }
  const TypePtr& type = node.field->type();
  TypePtr new_type;
  switch (type->id()) {
    case Type::kStruct: new_type = struct_(std::move(fields)); break;
    case Type::kList: new_type = list(fields[0]); break;
    case Type::kLargeList: new_type = large_list(fields[0]); break;
    case Type::kFixedSizeList:
      new_type = fixed_size_list(fields[0], TypeAs<ListType>(*type).list_size());
      break;
    case Type::kMap:
      new_type = std::make_shared<MapType>(fields[0], TypeAs<MapType>(*type).keys_sorted());
      break;
    default: new_type = type; break;
  }
  out.field = WithType(node.field, std::move(new_type), node.field->metadata());
  return out;
}

ArrayDataPtr Retype(const ArrayDataPtr& data, const ReadNode& node) {
  auto out = std::make_shared<ArrayData>(*data);
  out->type = node.field->type();
  if (node.kind == ReadNode::Kind::kLeaf) {
    if (out->dictionary != nullptr && out->type->id() == Type::kDictionary) {
      auto dictionary = std::make_shared<ArrayData>(*out->dictionary);
      dictionary->type = TypeAs<DictionaryType>(*out->type).value_type();
      out->dictionary = std::move(dictionary);
    }
    return out;
  }
  for (size_t i = 0; i < node.children.size() && i < out->children.size(); ++i) {
    out->children[i] = Retype(out->children[i], node.children[i]);
  }
  return out;
}

}  // namespace quiver::parquet::internal
