// Pieces of is_in (set_lookup.h) shared by its files. Not installed.
#pragma once

#include "quiver/array/array_data.h"
#include "quiver/array/scalar.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute::internal {

// The arrays is_in looks up, as pyarrow 26 decides (set_lookup_cast.cc):
// `values` as given (a dictionary array included) with the value set cast
// to the values' type, or the values (decoded) cast to the value set's
// type. A cast between binary-like types only checks the values (UTF-8,
// widths), keeping the array's own type and layout, since a lookup reads
// bytes.
struct LookupPlan {
  ArrayDataPtr values;
  ArrayDataPtr set;
};
Result<LookupPlan> PlanLookup(const ArrayDataPtr& values, const ArrayDataPtr& set,
                              MemoryPool* pool);

}  // namespace quiver::compute::internal
