#include "quiver/compute/arithmetic_internal.h"

#include <cstring>

#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute::internal {

Result<MutableBuffer> AllocateOutput(int64_t bytes, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer buffer, MutableBuffer::WithCapacity(bytes, pool));
  buffer.UnsafeSetSize(bytes);
  return buffer;
}

Result<int64_t> BinaryLength(const Datum& left, const Datum& right) {
  if (left.is_array() && right.is_array() && left.length() != right.length()) {
    return Status::Invalid("Array arguments must all be the same length");
  }
  if (left.is_array()) return left.length();
  if (right.is_array()) return right.length();
  return 1;
}

Status NoKernel(std::string_view name, const DataType& left, const DataType& right) {
  return Status::NotImplemented("Function '", std::string(name),
                                "' has no kernel matching input types (", left.ToString(), ", ",
                                right.ToString(), ")");
}

Result<ResultValidity> IntersectValidity(const Datum& left, const Datum& right, int64_t length,
                                         MemoryPool* pool) {
  ResultValidity out;
  const uint8_t* bits[2];
  int64_t offsets[2];
  const ArrayData* owners[2];
  int count = 0;
  for (const Datum* arg : {&left, &right}) {
    if (arg->is_scalar()) {
      out.all_null |= !arg->scalar().is_valid();
      continue;
    }
    const ArrayData& a = *arg->array();
    if (a.type->id() == Type::kNull) {
      out.all_null = true;
    } else if (a.MayHaveNulls() && a.validity() != nullptr) {
      bits[count] = a.validity();
      offsets[count] = a.offset;
      owners[count] = &a;
      ++count;
    }
  }
  if (length == 0 || (count == 0 && !out.all_null)) {
    out.all_null = out.all_null && length > 0;
    return out;
  }
  if (!out.all_null && count == 1 && offsets[0] % 8 == 0) {
    // One bitmap at a byte boundary: shared, not copied (the bits past
    // `length` in its last byte are not read).
    const ArrayData& a = *owners[0];
    out.null_count = a.GetNullCount();
    if (out.null_count > 0) {
      // At offset 0 the buffer itself (no slice object to allocate).
      out.bitmap = offsets[0] == 0 ? a.buffers[0]
                                   : SliceBuffer(a.buffers[0], offsets[0] / 8,
                                                 bit_util::BytesForBits(length));
    }
    return out;
  }
  const int64_t nbytes = bit_util::BytesForBits(length);
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer buffer, AllocateOutput(nbytes, pool));
  uint8_t* dest = buffer.data();
  if (out.all_null) {
    std::memset(dest, 0, static_cast<size_t>(nbytes));
    out.null_count = length;
  } else {
    dest[nbytes - 1] = 0;  // the bits past `length` in the last byte
    if (count == 1) {
      bitmap::CopyBitmap(bits[0], offsets[0], length, dest, 0);
    } else {
      bitmap::BitmapAnd(bits[0], offsets[0], bits[1], offsets[1], length, dest, 0);
    }
    out.null_count = length - bitmap::CountSetBits(dest, 0, length);
    if (out.null_count == 0) return out;
  }
  out.bitmap = buffer.Freeze();
  return out;
}

Status PrepareValues(const Datum& arg, const TypePtr& to, Values* out, MemoryPool* pool) {
  const Type to_id = to->id();
  const bool temporal = IsTemporal(to_id);
  if (arg.is_scalar()) {
    out->data = out->storage;
    const Scalar& s = arg.scalar();
    if (!s.is_valid() || s.type()->id() == Type::kNull) return Status::OK();
    Scalar cast = s;
    if (!s.type()->Equals(*to)) {
      QUIVER_ASSIGN_OR_RAISE(cast, temporal ? CastTemporalScalar(s, to) : CastNumericScalar(s, to));
    }
    if (temporal) {
      if (to_id == Type::kDate32 || to_id == Type::kTime32) {
        const auto v = static_cast<int32_t>(cast.int_value());
        std::memcpy(out->storage, &v, sizeof(v));
      } else {
        const int64_t v = cast.int_value();
        std::memcpy(out->storage, &v, sizeof(v));
      }
      return Status::OK();
    }
    VisitNumeric(to_id, [&](auto tag) {
      using T = decltype(tag);
      const T v = ScalarValue<T>(cast);
      std::memcpy(out->storage, &v, sizeof(T));
    });
    return Status::OK();
  }
  const ArrayData& a = *arg.array();
  const int64_t width = FixedWidthBytes(*to);
  if (a.type->id() == Type::kNull) {
    // Every row is null: zeros of the right size.
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer buffer, AllocateOutput(a.length * width, pool));
    if (a.length > 0) std::memset(buffer.data(), 0, static_cast<size_t>(a.length * width));
    out->owned = buffer.Freeze();
    out->data = out->owned->data();
    return Status::OK();
  }
  // Same physical values: a timestamp's zone does not change them.
  const bool same = a.type->id() == to_id &&
                    (a.type->Equals(*to) || (to_id == Type::kTimestamp &&
                                             TypeAs<TemporalType>(*a.type).unit() ==
                                                 TypeAs<TemporalType>(*to).unit()));
  if (same) {
    out->data = a.buffers[1]->data() + a.offset * width;
    return Status::OK();
  }
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer buffer, AllocateOutput(a.length * width, pool));
  QUIVER_RETURN_NOT_OK(temporal ? CastTemporalValues(a, *to, buffer.data())
                                : CastNumericValues(a, *to, buffer.data()));
  out->owned = buffer.Freeze();
  out->data = out->owned->data();
  return Status::OK();
}

Result<ArrayDataPtr> AllNullResult(const TypePtr& type, int64_t length, MemoryPool* pool) {
  const int64_t nbytes = type->id() == Type::kBool ? bit_util::BytesForBits(length)
                                                   : length * FixedWidthBytes(*type);
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer values, AllocateOutput(nbytes, pool));
  if (nbytes > 0) std::memset(values.data(), 0, static_cast<size_t>(nbytes));
  std::shared_ptr<Buffer> validity;
  if (length > 0) {
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer bits, AllocateOutput(bit_util::BytesForBits(length), pool));
    std::memset(bits.data(), 0, static_cast<size_t>(bits.size()));
    validity = bits.Freeze();
  }
  return ArrayData::Make(type, length, {std::move(validity), values.Freeze()}, length);
}

Result<Datum> FinishResult(const Datum& left, const Datum& right, ArrayDataPtr result) {
  if (left.is_scalar() && right.is_scalar()) {
    QUIVER_ASSIGN_OR_RAISE(Scalar s, ScalarFromArray(*result, 0));
    return Datum(std::move(s));
  }
  return Datum(std::move(result));
}

}  // namespace quiver::compute::internal
