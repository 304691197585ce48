// cast: dispatch by type family (see cast.h; the kernels are in
// cast_numeric_internal.cc, cast_temporal.cc, cast_string.cc,
// cast_format.cc, cast_parse.cc and cast_decimal.cc). A scalar is cast as a one-row array. A dictionary is
// decoded first (take of its values by its indices), then the values are
// cast, as Arrow C++'s UnpackDictionary.
#include "quiver/compute/cast.h"

#include <string>
#include <vector>

#include "quiver/array/nulls.h"
#include "quiver/compute/cast_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/take.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute {

namespace internal {

namespace {

// Arrow C++'s names: the target in pyarrow's message and its cast function.
std::string ArrowTypeName(const DataType& type) {
  switch (type.id()) {
    case Type::kString: return "utf8";
    case Type::kLargeString: return "large_utf8";
    case Type::kStringView: return "utf8_view";
    default: return std::string(type.name());
  }
}

std::string CastFunctionName(const DataType& to) {
  switch (to.id()) {
    case Type::kBool: return "cast_boolean";
    case Type::kHalfFloat: return "func";  // pyarrow 26's name, sic
    case Type::kDecimal128: return "cast_decimal";
    case Type::kString: return "cast_string";
    case Type::kLargeString: return "cast_large_string";
    default: return "cast_" + std::string(to.name());
  }
}

}  // namespace

// (A dictionary of such values is NotImplemented, while a dictionary whose
// values Arrow cannot cast either is Invalid, as pyarrow says it.)
bool ArrowOnlyCast(const DataType& from, const DataType& to) {
  const Type f = from.id();
  const Type t = to.id();
  if (IsBinaryLike(f) || IsLargeBinaryLike(f) || IsBinaryView(f)) {
    return IsDecimal(t) || t == Type::kDate32 || t == Type::kDate64 || t == Type::kTimestamp ||
           t == Type::kDictionary;
  }
  if (IsDecimal(f)) return IsFloating(t);
  if (IsDecimal(t)) return IsFloating(f);
  if (IsTemporal(f)) return IsStringLike(t);
  return t == Type::kDictionary;
}

Status UnsupportedCast(const DataType& from, const DataType& to) {
  return Status::NotImplemented("Unsupported cast from ", from.ToString(), " to ",
                                ArrowTypeName(to), " using function ", CastFunctionName(to));
}

Result<std::shared_ptr<Buffer>> AllocateExact(int64_t bytes, MemoryPool* pool, uint8_t** data) {
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer buffer, MutableBuffer::WithCapacity(bytes, pool));
  buffer.UnsafeSetSize(bytes);
  *data = buffer.data();
  return buffer.Freeze();
}

Result<CastValidity> ResultValidity(const ArrayData& in, MemoryPool* pool) {
  CastValidity out;
  if (!in.MayHaveNulls() || in.validity() == nullptr) return out;
  out.null_count = in.GetNullCount();
  if (out.null_count == 0) return out;
  const int64_t nbytes = bit_util::BytesForBits(in.length);
  if (in.offset == 0) {
    out.bitmap = in.buffers[0];  // shared whole: no slice object to allocate
    return out;
  }
  if (in.offset % 8 == 0) {
    out.bitmap = SliceBuffer(in.buffers[0], in.offset / 8, nbytes);
    return out;
  }
  uint8_t* dest = nullptr;
  QUIVER_ASSIGN_OR_RAISE(out.bitmap, AllocateExact(nbytes, pool, &dest));
  dest[nbytes - 1] = 0;  // the bits past `length` in the last byte
  bitmap::CopyBitmap(in.validity(), in.offset, in.length, dest, 0);
  return out;
}

Result<ArrayDataPtr> FixedWidthResult(const ArrayData& in, const TypePtr& to,
                                      std::shared_ptr<Buffer> values, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(CastValidity validity, ResultValidity(in, pool));
  // Moved into place (a braced list would copy each shared_ptr, two atomic
  // increments and two decrements a call).
  std::vector<std::shared_ptr<Buffer>> buffers(2);
  buffers[0] = std::move(validity.bitmap);
  buffers[1] = std::move(values);
  return ArrayData::Make(to, in.length, std::move(buffers), validity.null_count);
}

}  // namespace internal

namespace {

using internal::CastContext;

// Pairs Cast handles, dictionaries and the null type aside.
bool PlainCastSupported(const DataType& from, const DataType& to) {
  using namespace internal;  // NOLINT
  if (IsNumericCastType(from.id()) && IsNumericCastType(to.id())) {
    // pyarrow 26 has no cast between bool and float16.
    return !((from.id() == Type::kBool && to.id() == Type::kHalfFloat) ||
             (from.id() == Type::kHalfFloat && to.id() == Type::kBool));
  }
  return TemporalCastSupported(from, to) || BinaryCastSupported(from, to) ||
         FormatCastSupported(from, to) || ParseCastSupported(from, to) ||
         DecimalCastSupported(from, to);
}

Result<ArrayDataPtr> EmptyResult(const TypePtr& to, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr out, MakeArrayOfNulls(to, 0, pool));
  if (!out->buffers.empty()) out->buffers[0] = nullptr;
  out->null_count = 0;
  return out;
}

Result<ArrayDataPtr> CastArray(const ArrayDataPtr& in, const TypePtr& to, const CastContext& ctx);

// dictionary<V> to T: the values taken by the indices, then cast to T.
Result<ArrayDataPtr> CastDictionary(const ArrayDataPtr& in, const TypePtr& to,
                                    const CastContext& ctx) {
  const auto& dict_type = TypeAs<DictionaryType>(*in->type);
  const TypePtr& values = dict_type.value_type();
  if (to->id() == Type::kNull) return MakeArrayOfNulls(to, in->length, ctx.pool);
  if (!values->Equals(*to) && !PlainCastSupported(*values, *to) && values->id() != Type::kNull) {
    // (Arrow has no dictionary kernel at all for the view targets.)
    if (to->id() == Type::kDictionary || IsBinaryView(to->id()) || internal::ArrowOnlyCast(*values, *to)) {
      return internal::UnsupportedCast(*in->type, *to);
    }
    return Status::Invalid("Cast type ", to->ToString(), " incompatible with dictionary type ",
                           values->ToString());
  }
  auto indices = ArrayData::Make(dict_type.index_type(), in->length,
                                 {in->buffers[0], in->buffers[1]}, in->null_count, in->offset);
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr decoded, Take(in->dictionary, indices, {}, ctx.pool));
  return CastArray(decoded, to, ctx);
}

Result<ArrayDataPtr> CastArray(const ArrayDataPtr& in, const TypePtr& to, const CastContext& ctx) {
  const DataType& from = *in->type;
  if (from.Equals(*to)) return in;
  if (from.id() == Type::kNull) return MakeArrayOfNulls(to, in->length, ctx.pool);
  if (from.id() == Type::kDictionary) return CastDictionary(in, to, ctx);
  // Between integers and float32/64 (the common numeric casts): straight to
  // the value loops, without the family checks below.
  if (internal::IsNumeric(from.id()) && internal::IsNumeric(to->id()) && in->length > 0) {
    return internal::CastNumericArray(*in, to, ctx);
  }
  if (!PlainCastSupported(from, *to)) return internal::UnsupportedCast(from, *to);
  if (in->length == 0) return EmptyResult(to, ctx.pool);
  if (internal::IsNumericCastType(from.id()) && internal::IsNumericCastType(to->id())) {
    return internal::CastNumericArray(*in, to, ctx);
  }
  if (internal::TemporalCastSupported(from, *to)) return internal::CastTemporalArray(*in, to, ctx);
  if (internal::BinaryCastSupported(from, *to)) return internal::CastBinaryArray(in, to, ctx);
  if (internal::ParseCastSupported(from, *to)) return internal::CastParseArray(*in, to, ctx);
  if (internal::DecimalCastSupported(from, *to)) return internal::CastDecimalArray(*in, to, ctx);
  return internal::CastToStringArray(*in, to, ctx);
}

}  // namespace

bool CanCast(const DataType& from, const DataType& to) {
  if (from.Equals(to) || from.id() == Type::kNull) return true;
  if (from.id() == Type::kDictionary) {
    const TypePtr& values = TypeAs<DictionaryType>(from).value_type();
    return to.id() == Type::kNull || values->Equals(to) || values->id() == Type::kNull ||
           PlainCastSupported(*values, to);
  }
  return PlainCastSupported(from, to);
}

Result<Datum> Cast(const Datum& value, const TypePtr& to, const CastOptions& options,
                   MemoryPool* pool) {
  if (to == nullptr) return Status::Invalid("cast: no target type");
  const CastContext ctx{options.safe, pool};
  if (value.is_array()) {
    if (value.array() == nullptr) return Status::Invalid("cast: no array");
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr out, CastArray(value.array(), to, ctx));
    return Datum(std::move(out));
  }
  const Scalar& scalar = value.scalar();
  if (scalar.type()->Equals(*to)) return value;
  if (!CanCast(*scalar.type(), *to)) return internal::UnsupportedCast(*scalar.type(), *to);
  if (!scalar.is_valid()) return Datum(Scalar::MakeNull(to));
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr one, internal::ArrayFromScalar(scalar, pool));
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr out, CastArray(one, to, ctx));
  QUIVER_ASSIGN_OR_RAISE(Scalar result, internal::ScalarFromArray(*out, 0));
  return Datum(std::move(result));
}

}  // namespace quiver::compute
