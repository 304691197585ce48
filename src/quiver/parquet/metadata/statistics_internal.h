// Building Statistics (statistics.h) from the footer's Thrift structs.
#pragma once

#include <optional>

#include "quiver/array/type.h"
#include "quiver/parquet/metadata/statistics.h"
#include "quiver/parquet/schema/schema_descriptor.h"
#include "quiver/parquet/thrift/parquet_types.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// The column's sort order (types.cc GetSortOrder; statistics.h).
SortOrder ColumnSortOrder(const SchemaDescriptor& schema, int column);

// The Arrow type pyarrow gives the column's statistics bounds; nullptr for
// INT96 (no bounds are ever decoded for it).
TypePtr StatisticsBoundType(const SchemaDescriptor& schema, int column);

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
