// Arithmetic kernels with pyarrow.compute's semantics: add, subtract,
// multiply, divide and their _checked variants.
//
//  - Integers: the plain functions wrap (two's complement); the _checked
//    ones are Invalid "overflow". Integer division truncates toward zero and
//    is Invalid "divide by zero" in both variants; INT_MIN / -1 is 0 in
//    `divide` and Invalid "overflow" in `divide_checked`. Checks look at
//    valid slots only (a null slot's values never raise). When several
//    slots fail, the error of the last one is reported, as Arrow's kernels
//    do.
//  - Floats: IEEE 754 in every variant, except that divide_checked is
//    Invalid "divide by zero" for a zero divisor.
//  - Arguments: array-array (equal lengths, else Invalid), array-scalar,
//    scalar-array, scalar-scalar (a scalar result). Mixed types are cast to
//    their common type first (type_promotion.h CommonNumeric, with the safe
//    casts of cast_numeric_internal.h: an out-of-range value is Invalid).
//    A null-type argument takes the other's type (two of them give a
//    null-type result).
//  - Nulls: a slot is null when either input slot is; a null scalar gives
//    an all-null result. A result without nulls has no validity buffer.
//  - Other types (float16, decimals, temporal arithmetic, ...):
//    NotImplemented naming the function and the types.
// The plain integer and float loops have an AVX2 build chosen through
// simd_level.h (RecordSimdLevel says which ran).
#pragma once

#include <string_view>

#include "quiver/compute/datum.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

enum class ArithmeticOp : uint8_t { kAdd, kSubtract, kMultiply, kDivide };

// pyarrow's function name: "add", "subtract_checked", ...
std::string_view ArithmeticFunctionName(ArithmeticOp op, bool checked);

Result<Datum> Arithmetic(ArithmeticOp op, bool checked, const Datum& left, const Datum& right,
                         MemoryPool* pool = DefaultMemoryPool());

inline Result<Datum> Add(const Datum& l, const Datum& r, MemoryPool* pool = DefaultMemoryPool()) {
  return Arithmetic(ArithmeticOp::kAdd, false, l, r, pool);
}
inline Result<Datum> AddChecked(const Datum& l, const Datum& r,
                                MemoryPool* pool = DefaultMemoryPool()) {
  return Arithmetic(ArithmeticOp::kAdd, true, l, r, pool);
}
inline Result<Datum> Subtract(const Datum& l, const Datum& r,
                              MemoryPool* pool = DefaultMemoryPool()) {
  return Arithmetic(ArithmeticOp::kSubtract, false, l, r, pool);
}
inline Result<Datum> SubtractChecked(const Datum& l, const Datum& r,
                                     MemoryPool* pool = DefaultMemoryPool()) {
  return Arithmetic(ArithmeticOp::kSubtract, true, l, r, pool);
}
inline Result<Datum> Multiply(const Datum& l, const Datum& r,
                              MemoryPool* pool = DefaultMemoryPool()) {
  return Arithmetic(ArithmeticOp::kMultiply, false, l, r, pool);
}
inline Result<Datum> MultiplyChecked(const Datum& l, const Datum& r,
                                     MemoryPool* pool = DefaultMemoryPool()) {
  return Arithmetic(ArithmeticOp::kMultiply, true, l, r, pool);
}
inline Result<Datum> Divide(const Datum& l, const Datum& r,
                            MemoryPool* pool = DefaultMemoryPool()) {
  return Arithmetic(ArithmeticOp::kDivide, false, l, r, pool);
}
inline Result<Datum> DivideChecked(const Datum& l, const Datum& r,
                                   MemoryPool* pool = DefaultMemoryPool()) {
  return Arithmetic(ArithmeticOp::kDivide, true, l, r, pool);
}

}  // namespace quiver::compute
