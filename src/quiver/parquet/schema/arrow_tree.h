// The Arrow fields of a schema as a tree, each with the levels of the
// Parquet node that stores it: what level shredding (levels/level_builder.h)
// follows. ArrowToParquetSchema (arrow_to_parquet_internal.h) builds it, in the same
// walk that makes the SchemaElements, and takes the levels from the
// SchemaDescriptor of those elements.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/parquet/schema/level_info.h"

namespace quiver::parquet {

// What an Arrow field is to shredding.
enum class ArrowNodeKind : uint8_t { kStruct, kList, kLargeList, kFixedSizeList, kMap, kLeaf };

// One Arrow field of the schema, with the levels of the Parquet node that
// stores it. Lists (of every kind) and maps are stored as an annotated group
// (`element`, whose levels these are) around a repeated group; the child
// of a list is its element field, the child of a map is its entries struct
// (non-nullable, stored as the repeated key_value group: `element` is that
// group) whose children are the key and the value.
struct ArrowNode {
  ArrowNodeKind kind = ArrowNodeKind::kLeaf;
  bool nullable = false;
  std::string name;  // the Arrow field's name (errors name it)
  TypePtr type;      // the Arrow field's type
  int32_t element = 0;  // the Parquet node (index into the schema elements)
  LevelInfo levels;     // that node's levels, as the SchemaDescriptor has them
  // Children: nodes [first_child, first_child + num_children).
  int32_t first_child = 0;
  int32_t num_children = 0;
  int32_t column = -1;  // leaves: the Parquet leaf column
};

// The Arrow schema's fields as a tree: nodes [0, number of top-level fields)
// are the top-level fields, in order.
struct ArrowTree {
  std::vector<ArrowNode> nodes;
};

}  // namespace quiver::parquet
