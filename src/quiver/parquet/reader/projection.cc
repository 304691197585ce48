// Projection: a field's read tree cut down to the selected leaves.
#include "quiver/parquet/reader/projection_internal.h"

#include <algorithm>
#include <string_view>

#include "quiver/ipc/schema.h"
#include "quiver/util/base64.h"

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


Result<std::vector<ReadNode>> SelectNodes(const ArrowReadSchema& arrow,
                                          const SchemaDescriptor& descriptor,
                                          const std::string& file_name,
                                          const std::optional<std::vector<std::string>>& columns) {
  if (!columns.has_value()) return arrow.fields;
  std::vector<int> order;      // top-level fields, first mention first
  std::set<int32_t> selected;  // leaf columns
  for (const std::string& name : *columns) {
    bool found = false;
    for (size_t f = 0; f < arrow.fields.size(); ++f) {
      const ReadNode& top = arrow.fields[f];
      bool matched = false;
      if (top.field->name() == name) {
        selected.insert(top.columns.begin(), top.columns.end());
        matched = true;
      } else {
        for (int32_t c : top.columns) {
          const std::string& path = descriptor.column(c).path;
          if (path == name || (path.size() > name.size() && path.starts_with(name) &&
                               path[name.size()] == '.')) {
            selected.insert(c);
            matched = true;
          }
        }
      }
      if (matched) {
        found = true;
        if (std::find(order.begin(), order.end(), static_cast<int>(f)) == order.end()) {
          order.push_back(static_cast<int>(f));
        }
      }
    }
    if (!found) {
      return Status::Invalid(file_name, ": no column named '", name, "' (columns: ",
                             "top-level names or dotted leaf paths)");
    }
  }
  std::vector<ReadNode> nodes;
  for (int f : order) {
    ReadNode pruned;
    if (PruneNode(arrow.fields[static_cast<size_t>(f)], selected, &pruned)) {
      nodes.push_back(std::move(pruned));
    }
  }
  return nodes;
}

Result<ArrowReadSchema> ReadSchema(const SchemaDescriptor& descriptor,
                                   const format::FileMetaData& metadata,
                                   const ParquetToArrowOptions& options,
                                   std::vector<std::string>* warnings) {
  constexpr std::string_view kArrowSchemaKey = "ARROW:schema";
  MetadataPtr kv;
  if (metadata.key_value_metadata.has_value()) {
    auto pairs = std::make_shared<KeyValueMetadata>();
    for (const auto& pair : *metadata.key_value_metadata) {
      pairs->Append(pair.key, pair.value.value_or(""));
    }
    kv = std::move(pairs);
  }
  SchemaPtr origin;
  if (kv != nullptr) {
    if (auto value = kv->Get(kArrowSchemaKey); value.has_value()) {
      auto decoded = Base64Decode(*value);
      if (!decoded.ok()) {
        warnings->push_back("ignoring the ARROW:schema: it is not base64 (" +
                            decoded.status().message() + ")");
      } else {
        ipc::SchemaReadOptions read_options;
        read_options.unsupported_types_as_null = true;
        auto schema = ipc::ReadSchemaMessage(reinterpret_cast<const uint8_t*>(decoded->data()),
                                             static_cast<int64_t>(decoded->size()), read_options);
        if (schema.ok()) {
          origin = *schema;
        } else {
          warnings->push_back("ignoring the ARROW:schema: it does not decode (" +
                              schema.status().message() + ")");
        }
      }
    }
  }
  // read_dictionary also takes a group's dotted path (a top-level name)
  // for every leaf below it.
  ParquetToArrowOptions arrow_options = options;
  arrow_options.read_dictionary.clear();
  for (const std::string& name : options.read_dictionary) {
    bool expanded = false;
    if (descriptor.FindColumn(name) < 0) {
      for (const ColumnDescriptor& column : descriptor.columns()) {
        if (column.path.size() > name.size() && column.path.starts_with(name) &&
            column.path[name.size()] == '.') {
          arrow_options.read_dictionary.push_back(column.path);
          expanded = true;
        }
      }
    }
    if (!expanded) arrow_options.read_dictionary.push_back(name);
  }
  return ParquetToArrowSchema(descriptor, kv.get(), origin.get(), arrow_options);
}

}  // namespace quiver::parquet::internal
