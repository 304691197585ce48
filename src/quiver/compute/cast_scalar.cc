// Scalars as one-row arrays and back: how Cast casts a scalar, and how
// the binary kernels read an array slot as a Scalar (cast_numeric_internal.h).
#include <cstring>
#include <string>

#include "quiver/array/nulls.h"
#include "quiver/compute/cast_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::compute::internal {

namespace {

bool Is32BitTemporal(Type id) { return id == Type::kDate32 || id == Type::kTime32; }

Result<std::shared_ptr<Buffer>> CopyBytes(const void* bytes, int64_t size, MemoryPool* pool) {
  uint8_t* data = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto buffer, AllocateExact(size, pool, &data));
  if (size > 0) std::memcpy(data, bytes, static_cast<size_t>(size));
  return buffer;
}

}  // namespace

Result<Scalar> ScalarFromArray(const ArrayData& array, int64_t i) {
  const TypePtr& type = array.type;
  if (!array.IsValid(i)) return Scalar::MakeNull(type);
  const Type id = type->id();
  if (id == Type::kBool) {
    return Scalar::MakeBool(bit_util::GetBit(array.buffers[1]->data(), array.offset + i));
  }
  if (IsNumeric(id)) {
    return VisitNumeric(id, [&](auto tag) -> Result<Scalar> {
      using T = decltype(tag);
      return MakeValueScalar<T>(type, array.GetValues<T>(1)[i]);
    });
  }
  if (IsTemporal(id)) {
    const int64_t v = Is32BitTemporal(id) ? array.GetValues<int32_t>(1)[i]
                                          : array.GetValues<int64_t>(1)[i];
    return Scalar::MakeInt(type, v);
  }
  switch (id) {
    case Type::kHalfFloat: return Scalar::MakeHalfFloat(array.GetValues<uint16_t>(1)[i]);
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256: {
      const int64_t width = FixedWidthBytes(*type);
      const uint8_t* p = array.buffers[1]->data() + (array.offset + i) * width;
      Int256 v;
      uint8_t bytes[32];
      std::memcpy(bytes, p, static_cast<size_t>(width));
      const uint8_t fill = (p[width - 1] & 0x80) != 0 ? 0xFF : 0x00;
      std::memset(bytes + width, fill, static_cast<size_t>(32 - width));
      for (int w = 0; w < 4; ++w) v.words[static_cast<size_t>(w)] = bit_util::LoadLE64(bytes + 8 * w);
      return Scalar::MakeDecimal(type, v);
    }
    case Type::kString:
    case Type::kBinary: {
      const int32_t* o = array.GetValues<int32_t>(1);
      const auto* d = reinterpret_cast<const char*>(array.buffers[2]->data());
      return Scalar::MakeBytes(type, std::string(d + o[i], static_cast<size_t>(o[i + 1] - o[i])));
    }
    case Type::kLargeString:
    case Type::kLargeBinary: {
      const int64_t* o = array.GetValues<int64_t>(1);
      const auto* d = reinterpret_cast<const char*>(array.buffers[2]->data());
      return Scalar::MakeBytes(type, std::string(d + o[i], static_cast<size_t>(o[i + 1] - o[i])));
    }
    case Type::kFixedSizeBinary: {
      const int64_t w = TypeAs<FixedSizeBinaryType>(*type).fixed_byte_width();
      const auto* d = reinterpret_cast<const char*>(array.buffers[1]->data());
      return Scalar::MakeBytes(type, std::string(d + (array.offset + i) * w, static_cast<size_t>(w)));
    }
    default:
      return Status::NotImplemented("no scalar of type ", type->ToString());
  }
}

Result<ArrayDataPtr> ArrayFromScalar(const Scalar& scalar, MemoryPool* pool) {
  const TypePtr& type = scalar.type();
  const Type id = type->id();
  if (!scalar.is_valid()) return MakeArrayOfNulls(type, 1, pool);
  std::shared_ptr<Buffer> values;
  if (id == Type::kBool) {
    const uint8_t bit = scalar.bool_value() ? 1 : 0;
    QUIVER_ASSIGN_OR_RAISE(values, CopyBytes(&bit, 1, pool));
  } else if (IsNumeric(id)) {
    QUIVER_RETURN_NOT_OK(VisitNumeric(id, [&](auto tag) -> Status {
      const auto v = ScalarValue<decltype(tag)>(scalar);
      QUIVER_ASSIGN_OR_RAISE(values, CopyBytes(&v, sizeof(v), pool));
      return Status::OK();
    }));
  } else if (id == Type::kHalfFloat) {
    const uint16_t bits = scalar.half_bits();
    QUIVER_ASSIGN_OR_RAISE(values, CopyBytes(&bits, 2, pool));
  } else if (IsTemporal(id)) {
    const int64_t v = scalar.int_value();
    const int32_t v32 = static_cast<int32_t>(v);
    QUIVER_ASSIGN_OR_RAISE(values, Is32BitTemporal(id) ? CopyBytes(&v32, 4, pool)
                                                       : CopyBytes(&v, 8, pool));
  } else if (IsDecimal(id)) {
    uint8_t bytes[32];
    for (int w = 0; w < 4; ++w) {
      bit_util::StoreLittleEndian<uint64_t>(bytes + 8 * w, scalar.decimal().words[static_cast<size_t>(w)]);
    }
    QUIVER_ASSIGN_OR_RAISE(values, CopyBytes(bytes, FixedWidthBytes(*type), pool));
  } else if (id == Type::kFixedSizeBinary) {
    const std::string& b = scalar.bytes();
    QUIVER_ASSIGN_OR_RAISE(values, CopyBytes(b.data(), static_cast<int64_t>(b.size()), pool));
  } else if (IsBinaryLike(id) || IsLargeBinaryLike(id) || IsBinaryView(id)) {
    // (A view scalar gives a one-row string / binary array: the same bytes.)
    const std::string& b = scalar.bytes();
    const int64_t size = static_cast<int64_t>(b.size());
    std::shared_ptr<Buffer> offsets;
    if (IsLargeBinaryLike(id)) {
      const int64_t o[2] = {0, size};
      QUIVER_ASSIGN_OR_RAISE(offsets, CopyBytes(o, sizeof(o), pool));
    } else {
      const int32_t o[2] = {0, static_cast<int32_t>(size)};
      QUIVER_ASSIGN_OR_RAISE(offsets, CopyBytes(o, sizeof(o), pool));
    }
    QUIVER_ASSIGN_OR_RAISE(auto data, CopyBytes(b.data(), size, pool));
    TypePtr as = IsBinaryView(id) ? (IsStringLike(id) ? utf8() : binary()) : type;
    return ArrayData::Make(std::move(as), 1, {nullptr, std::move(offsets), std::move(data)}, 0);
  } else {
    return Status::NotImplemented("no array from a scalar of type ", type->ToString());
  }
  return ArrayData::Make(type, 1, {nullptr, std::move(values)}, 0);
}

}  // namespace quiver::compute::internal
