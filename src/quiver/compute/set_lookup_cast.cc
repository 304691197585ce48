// The type is_in compares in, as pyarrow 26 decides it (set_lookup_internal.h),
// measured against pyarrow; the conversion itself is compute::Cast's
// (cast.h), safe:
//
//  1. A timestamp with a time zone against one without, and string /
//     large_string values against a value set that is not binary, string,
//     large_binary or large_string, are TypeErrors.
//  2. Equal types compare as they are.
//  3. Else the value set is cast to the values' type; when that fails (any
//     value out of range, truncated, not parsed, ...), the values are cast
//     to the value set's type instead, if Arrow has that cast (pyarrow's
//     is_in casts nothing but binary-like values to string types:
//     TypeError), and that cast's error is the call's; without a cast
//     either way, TypeError "Array type doesn't match type of values set:
//     V vs S".
//
// A pair Arrow casts and Cast does not (internal::ArrowOnlyCast: strings
// parsed as dates or decimals, floats to and from decimals, ...), or a
// value Cast refuses (a named time zone), is NotImplemented naming is_in
// and both types.
//
// Lookup-only, not a cast: between two binary-like types (the binary and
// string layouts, fixed_size_binary) the array keeps its own type and
// layout once Cast's checks pass (CheckBinaryCast: UTF-8 towards strings,
// widths towards fixed_size_binary), since the lookup reads bytes in any
// layout: no bytes are copied.
#include <utility>

#include "quiver/array/nulls.h"
#include "quiver/compute/cast.h"
#include "quiver/compute/cast_internal.h"
#include "quiver/compute/set_lookup_internal.h"

namespace quiver::compute::internal {

namespace {

// How a cast came out.
enum class Outcome { kOk, kFailed, kNoCast, kUnsupported };
struct LookupCastResult {
  Outcome outcome = Outcome::kOk;
  ArrayDataPtr array;  // kOk
  Status error;        // kFailed: pyarrow's error
};
LookupCastResult Ok(ArrayDataPtr a) { return {Outcome::kOk, std::move(a), Status::OK()}; }
LookupCastResult Failed(Status st) { return {Outcome::kFailed, nullptr, std::move(st)}; }
LookupCastResult NoCast() { return {Outcome::kNoCast, nullptr, Status::OK()}; }
LookupCastResult Unsupported() { return {Outcome::kUnsupported, nullptr, Status::OK()}; }

bool IsBinaryFamily(Type id) { return IsBinaryLike(id) || IsLargeBinaryLike(id) || IsBinaryView(id); }
// Arrow's is_base_binary_like: binary, string and their large forms.
bool IsBaseBinary(Type id) { return IsBinaryLike(id) || IsLargeBinaryLike(id); }
bool IsPlainString(Type id) { return id == Type::kString || id == Type::kLargeString; }

// A dictionary array decoded (Cast to its value type).
Result<ArrayDataPtr> Decoded(const ArrayDataPtr& in, MemoryPool* pool) {
  const TypePtr& value_type = TypeAs<DictionaryType>(*in->type).value_type();
  QUIVER_ASSIGN_OR_RAISE(Datum out, Cast(Datum(in), value_type, CastOptions{}, pool));
  return out.array();
}

// pyarrow's safe cast of `in` to `to` for is_in, as the top of this file
// says.
LookupCastResult LookupCast(const ArrayDataPtr& in, const TypePtr& to, MemoryPool* pool) {
  const Type from = in->type->id();
  const Type tid = to->id();
  if (in->type->Equals(*to)) return Ok(in);
  if (from == Type::kNull) {
    Result<ArrayDataPtr> nulls = MakeArrayOfNulls(to, in->length, pool);
    return nulls.ok() ? Ok(*std::move(nulls)) : Failed(nulls.status());
  }
  // pyarrow's is_in never casts to null nor encodes the values.
  if (tid == Type::kNull || tid == Type::kDictionary) return NoCast();
  if (from == Type::kDictionary) {
    Result<ArrayDataPtr> decoded = Decoded(in, pool);
    if (!decoded.ok()) return Failed(decoded.status());
    return LookupCast(*decoded, to, pool);
  }
  if (IsBinaryCastType(from) && IsBinaryCastType(tid)) {
    Status st = CheckBinaryCast(*in, *to, /*safe=*/true);
    return st.ok() ? Ok(in) : Failed(std::move(st));
  }
  if (CanCast(*in->type, *to)) {
    Result<Datum> cast = Cast(Datum(in), to, CastOptions{}, pool);
    if (cast.ok()) return Ok(cast->array());
    if (cast.status().IsNotImplemented()) return Unsupported();
    return Failed(cast.status());
  }
  // Arrow's pairs Cast lacks, and intervals of other parameters.
  if (ArrowOnlyCast(*in->type, *to) || from == tid) return Unsupported();
  return NoCast();
}

Status Mismatch(const DataType& values, const DataType& set) {
  return Status::TypeError("Array type doesn't match type of values set: ", values.ToString(),
                           " vs ", set.ToString());
}

Status QuiverLacks(const DataType& from, const DataType& to) {
  return Status::NotImplemented("is_in: Quiver cannot yet cast ", from.ToString(), " to ",
                                to.ToString(), " (pyarrow's is_in would)");
}

}  // namespace

Result<LookupPlan> PlanLookup(const ArrayDataPtr& values, const ArrayDataPtr& set,
                              MemoryPool* pool) {
  const TypePtr& vtype = values->type->id() == Type::kDictionary
                             ? TypeAs<DictionaryType>(*values->type).value_type()
                             : values->type;
  const DataType& v = *vtype;
  const DataType& s = *set->type;
  if (v.id() == Type::kTimestamp && s.id() == Type::kTimestamp &&
      TypeAs<TemporalType>(v).timezone().empty() != TypeAs<TemporalType>(s).timezone().empty()) {
    return Status::TypeError(
        "Cannot compare timestamp with timezone to timestamp without timezone, got: ",
        v.ToString(), " and ", s.ToString());
  }
  if (IsPlainString(v.id()) && !IsBaseBinary(s.id())) return Mismatch(v, s);
  // string_view values (pyarrow has no kernel for them): any binary-like set.
  if (v.id() == Type::kStringView && !IsBinaryFamily(s.id())) return Mismatch(v, s);
  if (v.Equals(s)) return LookupPlan{values, set};
  LookupCastResult to_values = LookupCast(set, vtype, pool);
  if (to_values.outcome == Outcome::kOk) return LookupPlan{values, to_values.array};
  if (to_values.outcome == Outcome::kUnsupported) return QuiverLacks(s, v);
  // The other way: the values cast to the value set's type. pyarrow's is_in
  // casts only binary-like values to string types (Cast would format
  // numbers; a string_view set, which pyarrow has no kernel for, is judged
  // as a string one).
  if (IsPlainString(s.id()) && !IsBaseBinary(v.id())) return Mismatch(v, s);
  if (s.id() == Type::kStringView && !IsBinaryFamily(v.id())) return Mismatch(v, s);
  ArrayDataPtr plain = values;
  if (values->type->id() == Type::kDictionary) {
    QUIVER_ASSIGN_OR_RAISE(plain, Decoded(values, pool));
  }
  LookupCastResult to_set = LookupCast(plain, set->type, pool);
  switch (to_set.outcome) {
    case Outcome::kOk: return LookupPlan{to_set.array, set};
    case Outcome::kFailed: return to_set.error;
    case Outcome::kNoCast: return Mismatch(v, s);
    case Outcome::kUnsupported: break;
  }
  return QuiverLacks(v, s);
}

}  // namespace quiver::compute::internal
