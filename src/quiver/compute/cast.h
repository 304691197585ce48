// cast: an array or scalar converted to another type, as
// pyarrow.compute.cast (Arrow C++'s "cast" function family).
//
//  - Same type: the input itself (no copy). Nulls stay null; inputs sliced
//    at any offset are handled. A cast that only renames the layout
//    (string <-> binary, int64 <-> timestamp, ...) shares the input's
//    buffers and offset; any other result has exactly sized buffers at
//    offset 0 and shares the input's validity bitmap when its offset is a
//    whole byte. No result without nulls has a validity buffer.
//  - Numbers (bool, int8..uint64, float16, float32, float64; not bool <->
//    float16, which pyarrow lacks too), pyarrow's safe rules under `safe`:
//    an integer out of the target's range, an integer beyond 2^24
//    (float32) / 2^53 (float64) in magnitude, a float with a fraction,
//    NaN, +-inf or out of range to an integer are Invalid with Arrow's
//    words ("Integer value V not in range: LO to HI", "Float value
//    1.500000 was truncated converting to int64"). Unsafe (`safe` false):
//    integers wrap (two's complement), floats to integers truncate toward
//    zero; a float out of the integer type's range (NaN, +-inf included),
//    which C++ leaves undefined, gives what Arrow C++ gives on x86-64 (see
//    cast_numeric_internal.h), computed without undefined behaviour.
//  - Temporal types: date32/date64, time32/time64, timestamp (any zone),
//    duration among themselves as pyarrow allows; towards a finer unit an
//    overflow is Invalid "... would result in out of bounds timestamp: V",
//    towards a coarser one a value that loses precision is Invalid "...
//    would lose data: V" (both unchecked when not `safe`). Timestamps to
//    dates and times read the wall clock of UTC or a fixed offset; a named
//    zone is NotImplemented (no time zone database). Integers to and from
//    the temporal types of their width, without a copy.
//  - Binary and string layouts (binary, large_binary, binary_view, string,
//    large_string, string_view, fixed_size_binary) among each other: to a
//    string type from a binary one the bytes must be UTF-8 (under `safe`,
//    "Invalid UTF8 payload"); an offset past 32 bits is Invalid "... input
//    array too large", never a wrap.
//  - dictionary<T> to T (decoded) and on to any type T casts to.
//  - Numbers, booleans and decimals to string types, formatted as Arrow
//    C++ formats them.
//  - The null type to any type (all null).
// Any other pair: NotImplemented "Unsupported cast from X to Y using
// function cast_Z", pyarrow's words (docs/design.md, "Cast", lists what
// pyarrow casts and Quiver does not).
#pragma once

#include "quiver/compute/datum.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

struct CastOptions {
  // pyarrow's `safe`: check the values for loss (see the top of this file).
  bool safe = true;
};

Result<Datum> Cast(const Datum& value, const TypePtr& to, const CastOptions& options = {},
                   MemoryPool* pool = DefaultMemoryPool());

// Whether Cast supports casting type `from` to type `to` (values may
// still fail the safe checks).
bool CanCast(const DataType& from, const DataType& to);

}  // namespace quiver::compute
