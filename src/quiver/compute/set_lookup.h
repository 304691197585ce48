// is_in with pyarrow.compute's semantics: for each value, whether it is in
// options.value_set (an array).
//
//  - Types: null, boolean, every integer and float (compared as their bits,
//    as pyarrow does: 0.0 is not -0.0, a NaN matches a NaN of the same
//    bits), date32/64, time32/64, timestamp, duration, decimal32/64/128/256,
//    month / day-time / month-day-nano intervals, fixed_size_binary,
//    string / binary in their three layouts, and dictionary arrays (looked
//    up by their values: the dictionary once, then the indices). Another
//    type is NotImplemented "Function 'is_in' has no kernel matching input
//    types (...)".
//  - value_set is brought to the values' type first, as pyarrow's safe cast
//    does (or with pyarrow's error): integers range-checked, integers to
//    floats exact, floats to integers integral and in range, temporal
//    units (a coarser unit must not lose data; a timestamp with a time zone
//    against one without is Invalid), decimals rescaled without loss,
//    binary <-> string (UTF-8 checked) and the large and view layouts,
//    binary to fixed_size_binary of its width, dictionaries decoded. A
//    string value set for string values of any other type is Invalid
//    ("Array type didn't match type of values set: string vs int64").
//    Pairs outside these are NotImplemented naming is_in and both types.
//  - Nulls: a null value is true when value_set holds a null and
//    skip_nulls is false, else false; the result has no nulls (pyarrow 26).
//  - A scalar `values` gives a boolean scalar.
// The set is built once per call: up to 8 distinct values are compared
// directly, 1- and 2-byte values through a bitmap of all their values,
// wider ones through an open-addressing hash table probed four slots at a
// time, byte strings through a table of their hashes (up to 16 bytes
// hashed inline, longer ones with XXH3). Results are written 64 rows to a
// word.
#pragma once

#include "quiver/compute/datum.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

struct SetLookupOptions {
  Datum value_set;
  bool skip_nulls = false;
};

Result<Datum> IsIn(const Datum& values, const SetLookupOptions& options,
                   MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver::compute
