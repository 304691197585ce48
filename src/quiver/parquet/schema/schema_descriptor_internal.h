// A Parquet file's schema tree, read from its SchemaElements (as decoded
// from a footer), with the levels of every node and of every leaf column.
//
// The parquet-format spec stores the tree flattened depth-first: the root
// first, then each group followed by its num_children children. Arrow C++
// (parquet/schema.h SchemaDescriptor and ColumnDescriptor) and arrow-rs
// (parquet/src/schema/types.rs) build the same description; this one is
// Parquet-only (no Arrow types), shared by the writer (which builds it from
// the elements it writes) and the reader.
//
// The elements are untrusted: Make() walks them once without recursion, in
// O(elements) time and memory, and refuses with Invalid, naming the element
// index and name: an empty list, a negative num_children, children counts
// that need more or fewer elements than there are, a leaf without a
// physical type or with one parquet.thrift does not name,
// FIXED_LEN_BYTE_ARRAY without a positive type_length, nesting deeper than
// max_depth, more than INT16_MAX definition or repetition levels, and leaf
// paths that would cost far more memory than the elements themselves.
// VECTOR repetition is NotImplemented.
// Group or leaf: as Arrow C++ (parquet/schema.cc Unflatten), an element
// after the root is a leaf when it has a physical type and no (or zero)
// num_children; any other element is a group (zero children: an empty
// group, which has no leaves), and a physical type on a group, the root
// included, is ignored. A repetition type parquet.thrift does not name is
// REQUIRED (Arrow C++: Repetition::UNDEFINED, neither optional nor
// repeated).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quiver/parquet/schema/level_info.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// One element of the schema: a group or a leaf. Node i is element i.
struct SchemaNode {
  std::string name;
  // The root's stored repetition is ignored (implementations disagree on
  // it; Arrow C++ ignores it too): kRequired. A missing repetition_type on
  // another element is kRequired, as Arrow C++ reads it (the Thrift default
  // of the field, 0).
  format::FieldRepetitionType repetition = format::FieldRepetitionType::kRequired;
  // Leaves only.
  std::optional<format::Type> physical_type;
  int32_t type_length = 0;  // as stored (0 when absent); FLBA: positive
  // As stored (groups: LIST, MAP, MAP_KEY_VALUE; leaves: their types).
  std::optional<format::LogicalType> logical_type;
  std::optional<format::ConvertedType> converted_type;
  std::optional<int32_t> precision;
  std::optional<int32_t> scale;
  std::optional<int32_t> field_id;

  int32_t parent = -1;  // -1 for the root
  int32_t depth = 0;    // the root is 0
  int32_t num_children = 0;
  int32_t children_offset = 0;  // into SchemaDescriptor's child list
  int32_t column = -1;          // leaves: index into columns()
  LevelInfo levels;

  bool is_leaf() const { return column >= 0; }
  bool is_group() const { return column < 0; }
  bool is_optional() const { return repetition == format::FieldRepetitionType::kOptional; }
  bool is_repeated() const { return repetition == format::FieldRepetitionType::kRepeated; }
};

// One leaf column (what a ColumnChunk stores).
struct ColumnDescriptor {
  int32_t node = 0;  // index into SchemaDescriptor::nodes()
  // Dotted, as pyarrow's ColumnChunkMetaData.path_in_schema names it.
  std::string path;
  std::vector<std::string> path_parts;  // ColumnMetaData.path_in_schema
  // The node of each path part: the root's child first, this leaf last.
  // Each one's LevelInfo says at which definition level it is present (and,
  // if optional or repeated, at which one less it is null or empty) and at
  // which repetition level it repeats.
  std::vector<int32_t> path_nodes;
  format::Type physical_type = format::Type::kInt32;
  int32_t type_length = 0;
  std::optional<format::LogicalType> logical_type;
  std::optional<format::ConvertedType> converted_type;
  int16_t max_def = 0;
  int16_t max_rep = 0;
};

struct SchemaDescriptorOptions {
  // Deepest node accepted (the root is at depth 0). Arrow C++ refuses
  // schemas nested deeper than its limit as well (schema_depth limit).
  int32_t max_depth = 1000;
};

class SchemaDescriptor {
 public:
  static Result<SchemaDescriptor> Make(std::span<const format::SchemaElement> elements,
                                       const SchemaDescriptorOptions& options = {});

  // Depth-first, as stored: node 0 is the root.
  const std::vector<SchemaNode>& nodes() const { return nodes_; }
  const SchemaNode& node(int i) const { return nodes_[static_cast<size_t>(i)]; }
  // Leaves in order (ColumnChunk i of a row group is column i).
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }
  const ColumnDescriptor& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  // Node indices of a group's children, in order.
  std::span<const int32_t> children(int node) const;
  // The column whose dotted path is `path`, or -1. Linear.
  int FindColumn(std::string_view path) const;

 private:
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
  std::vector<int32_t> child_list_;
};

}  // namespace quiver::parquet
