// pyarrow.compute's implicit casts for binary functions: the common type two
// arguments of different types are cast to before a kernel runs (Arrow C++
// compute/kernels/codegen_internal.cc: CommonNumeric, CommonTemporal,
// CommonBinary, as DispatchBest of the arithmetic and comparison functions
// applies them). Each returns nullptr when the pair has no common type of
// its kind.
#pragma once

#include "quiver/array/type.h"

namespace quiver::compute {

// Integers and floats (half floats excluded: pyarrow has no float16
// arithmetic): float64 if either is float64, else float32 if either is
// float32; unsigned only: the wider unsigned type; else the signed type of
// the wider width, doubled past the unsigned width when the unsigned one
// is at least as wide (int8 + uint8 -> int16, int64 + uint64 -> int64).
TypePtr CommonNumeric(const DataType& a, const DataType& b);

// Dates, times, timestamps and durations: the finest unit; a timestamp
// with a date gives a timestamp; timestamps of different time zones, and
// times of day with dates, timestamps or durations, have none.
TypePtr CommonTemporal(const DataType& a, const DataType& b);

// string / binary / large_string / large_binary / fixed_size_binary:
// utf8 when both are strings, binary otherwise, large when either is.
// Two fixed_size_binary, and any view type, have none.
TypePtr CommonBinary(const DataType& a, const DataType& b);

}  // namespace quiver::compute
