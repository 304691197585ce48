// Boolean kernels with pyarrow.compute's names and truth tables: and_,
// or_, xor, invert (a null in -> null out) and and_kleene, or_kleene
// (Kleene logic: false AND null = false, true OR null = true).
// Arguments are boolean arrays (any offset, bit offsets included) or
// boolean scalars: array-array (equal lengths, else Invalid "Array
// arguments must all be the same length"), array-scalar, scalar-array,
// scalar-scalar (a scalar result). Another type: NotImplemented
// "Function 'and' has no kernel matching input types (bool, int64)", as
// pyarrow. Results: exact-size bitmaps at offset 0, no validity bitmap
// when there is no null.
#pragma once

#include "quiver/compute/datum.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

Result<Datum> And(const Datum& left, const Datum& right, MemoryPool* pool = DefaultMemoryPool());
Result<Datum> Or(const Datum& left, const Datum& right, MemoryPool* pool = DefaultMemoryPool());
Result<Datum> Xor(const Datum& left, const Datum& right, MemoryPool* pool = DefaultMemoryPool());
Result<Datum> AndKleene(const Datum& left, const Datum& right,
                        MemoryPool* pool = DefaultMemoryPool());
Result<Datum> OrKleene(const Datum& left, const Datum& right,
                       MemoryPool* pool = DefaultMemoryPool());
Result<Datum> Invert(const Datum& values, MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver::compute
