// Null predicates with pyarrow.compute's names and semantics:
//  - IsNull (is_null, with nan_is_null) and IsValid (is_valid): every type;
//    a boolean array without nulls. A slot is null when its validity bit
//    is clear, every slot of the null type is, and a dictionary slot is
//    null when its index or the dictionary value it points at is (Arrow's
//    logical nulls); nan_is_null also counts NaN in float16/32/64 values
//    (and dictionary values) as null.
//  - IsNan (is_nan): integers, floating point (float16 included),
//    duration, decimal128/256 and the null type, as pyarrow 26 accepts
//    them; true only for a floating-point NaN, null where the input is.
//    Another type: NotImplemented "Function 'is_nan' has no kernel matching
//    input types (string)".
// A scalar argument gives a boolean scalar. Outputs are exact-size
// bitmaps at offset 0; inputs may have any offset.
#pragma once

#include "quiver/compute/datum.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

Result<Datum> IsNull(const Datum& values, bool nan_is_null = false,
                     MemoryPool* pool = DefaultMemoryPool());
Result<Datum> IsValid(const Datum& values, MemoryPool* pool = DefaultMemoryPool());
Result<Datum> IsNan(const Datum& values, MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver::compute
