// The casts the arithmetic and comparison kernels apply to their arguments
// before running (type_promotion.h picks the common type), with pyarrow's
// safe-cast rules, plus the scalar <-> C value plumbing those kernels share.
// Not installed.
//
// Numeric casts are the widening ones promotion produces: integer to a
// wider or other-signed integer (a valid value outside the target's range is
// Invalid "Integer value V not in range: LO to HI", as Arrow's safe cast),
// integer to float (a valid value beyond 2^24 / 2^53 in magnitude loses
// precision and is Invalid the same way), float32 to float64. Temporal
// casts change units towards a finer one (value times a power of ten, an
// overflow is Invalid), dates to timestamps. Values under null slots are
// converted without checks (their result is never read).
#pragma once

#include <cstdint>
#include <type_traits>

#include "quiver/array/array_data.h"
#include "quiver/array/scalar.h"
#include "quiver/array/type.h"
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

inline bool IsNumeric(Type id) {
  return IsInteger(id) || id == Type::kFloat || id == Type::kDouble;
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

// Writes the `length` values of numeric array `in` converted to numeric
// type `to` (its C type) to `out`, checking valid slots as the top of this
// file says. NotImplemented for a narrowing float cast or float to integer.
Status CastNumericValues(const ArrayData& in, const DataType& to, void* out);
// The same for a scalar (a null scalar becomes a null of `to`).
Result<Scalar> CastNumericScalar(const Scalar& in, const TypePtr& to);

// Temporal values of `in` in the unit of temporal type `to` (its C type:
// int32 for date32 / time32, int64 otherwise), as the top of this file
// says.
Status CastTemporalValues(const ArrayData& in, const DataType& to, void* out);
Result<Scalar> CastTemporalScalar(const Scalar& in, const TypePtr& to);

// Slot i of `array` as a Scalar (a null slot: a null scalar of the type).
// The types Scalar holds (scalar.h); NotImplemented for another.
Result<Scalar> ScalarFromArray(const ArrayData& array, int64_t i);

}  // namespace quiver::compute::internal
