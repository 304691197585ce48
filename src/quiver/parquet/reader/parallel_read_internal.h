// What decides whether a use_threads read goes to the thread pool
// (FileReader::Impl::ReadGroups, docs/design.md "Parallel reads").
#pragma once

#include <cstdint>
#include <vector>

#include "quiver/parquet/reader/row_selection.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace quiver::parquet::internal {

// kParallelReadMinBytes (file_reader.h), or QUIVER_MIN_TASK_WORK (a whole
// number of bytes, read at each call; the writer's use_threads takes the
// same variable): tests set 0, so that small files take the parallel path.
int64_t ParallelReadMinBytes();

// Whether the column chunks of leaf columns `leaves` in row groups
// `groups` hold at least `min_bytes` to decode: their
// total_uncompressed_size (as the footer states it; absent or negative
// counts 0), a selection's chunk scaled by the share of its rows selected
// (selections: one per group, or nullptr for every row), the whole by
// `share` (a batch: its share of the row group's rows).
bool DecodesAtLeast(const format::FileMetaData& metadata, const std::vector<int>& groups,
                    const std::vector<int32_t>& leaves, const std::vector<RowRanges>* selections,
                    int64_t min_bytes, double share = 1.0);

}  // namespace quiver::parquet::internal
