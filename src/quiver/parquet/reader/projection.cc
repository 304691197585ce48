// Projection: a field's read tree cut down to the selected leaves.
#include "quiver/parquet/reader/projection_internal.h"

namespace quiver::parquet::internal {

bool PruneNode(const ReadNode& node, const std::set<int32_t>& selected, ReadNode* out) {
  if (node.kind == ReadNode::Kind::kLeaf) {
    if (!selected.contains(node.column)) return false;
    *out = node;
    return true;
  }
  bool any = false;
  for (int32_t c : node.columns) any = any || selected.contains(c);
  if (!any) return false;
  if (node.kind != ReadNode::Kind::kStruct) {
    // Lists and maps keep their element whole when any leaf below is
    // selected, except for struct elements, which are pruned like structs.
    ReadNode element;
    if (!PruneNode(node.children.front(), selected, &element)) return false;
    *out = node;
    out->columns = element.columns;
    if (node.kind == ReadNode::Kind::kMap) {
      // A map's entries stay whole (its type is a key and a whole value).
      element = node.children.front();
      out->columns = node.columns;
    }
    const TypePtr& type = node.field->type();
    FieldPtr element_field = element.field;
    TypePtr new_type;
    switch (type->id()) {
      case Type::kList:
        new_type = list(element_field);
        break;
      case Type::kLargeList:
        new_type = large_list(element_field);
        break;
      case Type::kFixedSizeList:
        new_type = fixed_size_list(element_field, TypeAs<ListType>(*type).list_size());
        break;
      default:
        new_type = type;  // maps: the entries are whole
        break;
    }
    out->field = std::make_shared<Field>(node.field->name(), new_type, node.field->nullable(),
                                         node.field->metadata());
    out->children = {std::move(element)};
    return true;
  }
  ReadNode result = node;
  result.children.clear();
  result.columns.clear();
  FieldVector fields;
  for (const ReadNode& child : node.children) {
    ReadNode pruned;
    if (!PruneNode(child, selected, &pruned)) continue;
    fields.push_back(pruned.field);
    result.columns.insert(result.columns.end(), pruned.columns.begin(), pruned.columns.end());
    result.children.push_back(std::move(pruned));
  }
  result.field = std::make_shared<Field>(node.field->name(), struct_(std::move(fields)),
                                         node.field->nullable(), node.field->metadata());
  *out = std::move(result);
  return true;
}


}  // namespace quiver::parquet::internal
