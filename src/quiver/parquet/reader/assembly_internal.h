// Nested Arrow arrays from the levels of the leaves below them (Dremel's
// record assembly, as Arrow C++ does it per node: parquet/level_conversion
// DefLevelsToBitmap / DefRepLevelsToList): a struct's slots and validity,
// and a list's offsets and validity, come from the levels of its first
// leaf, read by the node's LevelInfo (parquet_to_arrow.h gives the rules).
#pragma once

#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/parquet/reader/column_reader_internal.h"
#include "quiver/parquet/schema/parquet_to_arrow_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet::internal {

// The array of `node` for the batch the column readers hold (`readers` is
// indexed by leaf column; the node's columns must be present). Levels that
// disagree between leaves (a child whose length is not its parent's count)
// are Invalid naming the field. A node without leaves (an empty group, as
// some writers store) has no levels: its array is `length` slots (its
// parent's), all null when the field is nullable, as pyarrow reads it.
Result<ArrayDataPtr> AssembleArray(const ReadNode& node,
                                   const std::vector<ColumnReader*>& readers, MemoryPool* pool,
                                   int64_t length);

}  // namespace quiver::parquet::internal
