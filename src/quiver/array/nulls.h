// An array of `length` nulls of any type (Arrow C++'s MakeArrayOfNull):
// every value slot is zero / empty, the validity bitmap all clear (the null
// type has none). Nested types get children that hold what the layout needs:
// empty for lists and maps, `length` nulls for structs, length * list_size
// nulls for fixed-size lists; dictionaries an empty dictionary.
#pragma once

#include <cstdint>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver {

Result<ArrayDataPtr> MakeArrayOfNulls(const TypePtr& type, int64_t length,
                                      MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver
