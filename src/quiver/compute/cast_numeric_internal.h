// Numeric and temporal value casts: the one implementation behind
// compute::Cast (cast.h) and the casts the arithmetic and comparison
// kernels apply to their arguments (type_promotion.h picks the common
// type; those are the safe widening casts), plus the scalar <-> C value
// plumbing those kernels share. Not installed.
//
// Numeric casts (cast_numeric_internal.cc), every pair of int8..uint64,
// float16, float32, float64, with Arrow C++'s rules (measured against
// pyarrow 26):
//  - integer to integer: the value modulo 2^bits (C++20's conversion);
//    under `safe` a valid value outside the target's range is Invalid
//    "Integer value V not in range: LO to HI" (the target's range clipped
//    to the source type's, as Arrow prints it);
//  - integer to float32 / float64: rounded to nearest; under `safe` a
//    valid value beyond 2^24 / 2^53 in magnitude is Invalid the same way
//    ("... not in range: -16777216 to 16777216"). Integer to float16 is
//    checked as Arrow checks it, against float32's limit for types up to
//    32 bits and float64's for 64-bit ones (so 70000 is inf, not an error);
//  - float to float: IEEE rounding (double to float16 rounds once, from
//    the double), never checked (1e300 to float32 is inf, as in Arrow);
//  - float to integer: truncated toward zero. Under `safe` a valid value
//    that does not convert back to itself (a fraction, NaN, +-inf, out of
//    range) is Invalid "Float value 1.500000 was truncated converting to
//    int64" (Arrow prints the value with %f, and a float16 as its raw
//    bits). Unsafe, a value out of the target's range, which C++ leaves
//    undefined, gives what Arrow C++'s vectorised loops give on x86-64,
//    computed here without undefined behaviour: int32 / int64 take their
//    minimum (the "integer indefinite" of CVTTSD2SI); int8, int16, uint8,
//    uint16 take the low bits of that int32 conversion (so 300.0 is 44 as
//    int8 and 1e10 is 0); uint32 / uint64 convert values from 2^31 / 2^63
//    up as (v - 2^31) with the top bit set again (so [2^31, 2^32) is
//    exact, beyond it 0) and values below through int32 / int64 (so -1.0
//    is 2^32 - 1, NaN and values under -2^31 are 2^31).
// Values under null slots are converted too (never checked; their result
// is never read).
#pragma once

#include <cstdint>
#include <type_traits>

#include "quiver/array/array_data.h"
#include "quiver/array/scalar.h"
#include "quiver/array/type.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute::internal {

// Calls f(T{}) with T the C type of integer or floating type `id`
// (int8_t..uint64_t, float, double); the caller checks the id first
// (another id calls f(double{})).
template <typename F>
decltype(auto) VisitNumeric(Type id, F&& f) {
  switch (id) {
    case Type::kInt8: return f(int8_t{});
    case Type::kInt16: return f(int16_t{});
    case Type::kInt32: return f(int32_t{});
    case Type::kInt64: return f(int64_t{});
    case Type::kUInt8: return f(uint8_t{});
    case Type::kUInt16: return f(uint16_t{});
    case Type::kUInt32: return f(uint32_t{});
    case Type::kUInt64: return f(uint64_t{});
    case Type::kFloat: return f(float{});
    default: return f(double{});
  }
}

// Integers, float32 and float64 (not float16, which has no C type): two
// range tests on the enum inline (this runs several times per kernel call;
// IsInteger is out of line).
inline bool IsNumeric(Type id) {
  static_assert(static_cast<int>(Type::kInt64) - static_cast<int>(Type::kUInt8) == 7 &&
                static_cast<int>(Type::kDouble) - static_cast<int>(Type::kFloat) == 1);
  const auto v = static_cast<unsigned>(id);
  return v - static_cast<unsigned>(Type::kUInt8) <= 7u ||
         v - static_cast<unsigned>(Type::kFloat) <= 1u;
}

// Temporal types whose values are one integer: date32/64, time32/64,
// timestamp, duration.
bool IsTemporal(Type id);

// The value of a valid scalar of a numeric or temporal type as T (the
// type's own C type: no range check).
template <typename T>
T ScalarValue(const Scalar& s) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(s.double_value());
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(s.int_value());
  } else {
    return static_cast<T>(s.uint_value());
  }
}

// A valid scalar of numeric or temporal `type` holding `value`.
template <typename T>
Result<Scalar> MakeValueScalar(const TypePtr& type, T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return type->id() == Type::kFloat ? Scalar::MakeFloat(static_cast<float>(value))
                                      : Scalar::MakeDouble(static_cast<double>(value));
  } else if constexpr (std::is_signed_v<T>) {
    return Scalar::MakeInt(type, static_cast<int64_t>(value));
  } else {
    return Scalar::MakeUInt(type, static_cast<uint64_t>(value));
  }
}

// Writes the `length` values of array `in` (an integer, float16, float32
// or float64 type) converted to such a type `to` (its C type; float16 as
// its bits) to `out`, checking valid slots under `safe` as the top of this
// file says.
Status CastNumericValues(const ArrayData& in, const DataType& to, void* out, bool safe = true);
// The same for a scalar (a null scalar becomes a null of `to`).
Result<Scalar> CastNumericScalar(const Scalar& in, const TypePtr& to, bool safe = true);

// Temporal values of `in` in the unit of temporal type `to` (its C type:
// int32 for date32 / time32, int64 otherwise): unit changes within dates,
// times, timestamps and durations, and dates to timestamps
// (cast_temporal.cc). Towards a finer unit an overflow is Invalid
// "Casting from A to B would result in out of bounds timestamp: V" under
// `safe` (wraps otherwise); towards a coarser one a value with a remainder
// is Invalid "Casting from A to B would lose data: V" under `safe`
// (truncated toward zero otherwise). Other pairs: NotImplemented.
Status CastTemporalValues(const ArrayData& in, const DataType& to, void* out, bool safe = true);
Result<Scalar> CastTemporalScalar(const Scalar& in, const TypePtr& to, bool safe = true);

// Slot i of `array` as a Scalar (a null slot: a null scalar of the type).
// The types Scalar holds (scalar.h); NotImplemented for another.
Result<Scalar> ScalarFromArray(const ArrayData& array, int64_t i);
// A one-row array holding `scalar` (the inverse of ScalarFromArray), for
// the types Scalar holds but struct.
Result<ArrayDataPtr> ArrayFromScalar(const Scalar& scalar, MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver::compute::internal
