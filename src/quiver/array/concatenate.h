// Concatenation of arrays of one type into a single new array (as Arrow
// C++'s arrow::Concatenate). The IPC reader uses it to apply delta
// dictionaries (Arrow columnar format, "Dictionary Messages": a delta's
// values are appended to the dictionary).
#pragma once

#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver {

// The arrays (each possibly sliced) one after the other. Offsets are
// re-based, validity bitmaps merged; view data buffers and unchanged
// dictionaries are shared, not copied. Dictionary arrays must use the same
// dictionary (or each a prefix of the longest, as after a delta).
Result<ArrayDataPtr> Concatenate(const std::vector<ArrayDataPtr>& arrays,
                                 MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver
