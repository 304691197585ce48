// Building Statistics (statistics.h) from the footer's Thrift structs.
#pragma once

#include <optional>

#include "quiver/array/type.h"
#include "quiver/parquet/metadata/statistics.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// What decides how a leaf's statistics values read: its physical type and
// annotations, from a SchemaDescriptor's column or from a bare
// SchemaElement (the CLI inspects files whose schema may not build).
struct LeafAnnotations {
  format::Type physical_type = format::Type::kInt32;
  int32_t type_length = 0;
  std::optional<format::LogicalType> logical_type;
  std::optional<format::ConvertedType> converted_type;
  std::optional<int32_t> precision;
  std::optional<int32_t> scale;

  static LeafAnnotations Of(const SchemaDescriptor& schema, int column);
  // `element` may be null (no annotations); its own type is not read.
  static LeafAnnotations Of(const format::SchemaElement* element, format::Type physical_type);
};

// The column's sort order (types.cc GetSortOrder; statistics.h).
SortOrder ColumnSortOrder(const LeafAnnotations& leaf);
SortOrder ColumnSortOrder(const SchemaDescriptor& schema, int column);

// The Arrow type pyarrow gives the column's statistics bounds; nullptr for
// INT96 (no bounds are ever decoded for it).
TypePtr StatisticsBoundType(const LeafAnnotations& leaf);
TypePtr StatisticsBoundType(const SchemaDescriptor& schema, int column);

// One PLAIN-encoded statistics value of the column (a Statistics bound, a
// ColumnIndex page bound) as a Scalar of StatisticsBoundType(leaf), by the
// rules of statistics.h; nullopt when it is no such value (too short, not
// UTF-8 for a string, more digits than a decimal's precision, INT96).
std::optional<Scalar> DecodeStatisticsValue(std::string_view raw, const LeafAnnotations& leaf);

// The column order of `column` in the file: true when the file's
// column_orders give it TYPE_ORDER, false when they give another order,
// nullopt when the file has no column_orders.
std::optional<bool> ColumnTypeOrder(const format::FileMetaData& metadata, int column);

// A column chunk's statistics, or nullopt when it has none or they are not
// to be used (statistics.h). `num_values` is the chunk's
// ColumnMetaData.num_values.
std::optional<Statistics> DecodeStatistics(const format::Statistics& stats,
                                           const SchemaDescriptor& schema, int column,
                                           int64_t num_values, std::optional<bool> type_order,
                                           const ApplicationVersion& writer);

// The same for ColumnChunk `column` of row group `row_group` of a footer.
std::optional<Statistics> DecodeChunkStatistics(const format::FileMetaData& metadata,
                                                const SchemaDescriptor& schema, int row_group,
                                                int column);

}  // namespace quiver::parquet
