// take: the rows of an array (or of every column of a record batch) at the
// given indices, in their order, as pyarrow.compute.take.
//
// Indices of any integer type; a null index gives a null row (the index
// value under it is not read, so it may be anything); an index outside
// [0, rows) is IndexError "Index N out of bounds", as pyarrow. Every type
// filter (filter.h) handles. Output sized exactly, 64-byte aligned, with no
// validity buffer when it holds no null.
#pragma once

#include "quiver/array/array_data.h"
#include "quiver/array/record_batch.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

struct TakeOptions {
  // pyarrow's option. Quiver checks the indices whatever it says: an index
  // out of range is an error, never a read out of bounds (the check is one
  // pass over the indices, which the gather reads anyway).
  bool boundscheck = true;
  static TakeOptions Defaults() { return {}; }
};

Result<ArrayDataPtr> Take(const ArrayDataPtr& values, const ArrayDataPtr& indices,
                          TakeOptions options = {}, MemoryPool* pool = DefaultMemoryPool());
// The indices are checked and converted once for every column.
Result<RecordBatchPtr> Take(const RecordBatch& batch, const ArrayDataPtr& indices,
                            TakeOptions options = {}, MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver::compute
