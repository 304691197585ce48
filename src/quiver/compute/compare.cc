// Comparison dispatch (see compare.h): resolve the pair of types to one
// physical kind (casting to pyarrow's common type where needed), compute
// the validity, run the packed loops of compare_kernels.cc. A scalar on the
// left is moved to the right by flipping the operator (less(s, a) ==
// greater(a, s)). A dictionary array against a scalar compares the
// dictionary once and maps the indices through that result (arrow-rs
// cmp.rs does the same); against another array it is decoded first
// (compare_dictionary.cc), as pyarrow does.
#include "quiver/compute/compare.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "quiver/compute/arithmetic_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/compare_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/compute/type_promotion.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute {

namespace {

using internal::CompareKind;
using internal::Values;

enum class Path { kFixed, kBool, kBinary };

struct Plan {
  Path path = Path::kFixed;
  CompareKind kind = CompareKind::kInt64;
  // Numeric and temporal kinds: the type both sides are cast to (null:
  // the values are used as they are).
  TypePtr common;
  // Decimals of different types or scales, or against an integer: both as
  // 256-bit integers at decimal_scale.
  bool decimal_rescale = false;
  int32_t decimal_scale = 0;
};

CompareKind NumericKind(Type id) {
  switch (id) {
    case Type::kInt8: return CompareKind::kInt8;
    case Type::kInt16: return CompareKind::kInt16;
    case Type::kInt32: return CompareKind::kInt32;
    case Type::kInt64: return CompareKind::kInt64;
    case Type::kUInt8: return CompareKind::kUInt8;
    case Type::kUInt16: return CompareKind::kUInt16;
    case Type::kUInt32: return CompareKind::kUInt32;
    case Type::kUInt64: return CompareKind::kUInt64;
    case Type::kFloat: return CompareKind::kFloat;
    default: return CompareKind::kDouble;
  }
}

bool IsBinaryKind(Type id) {
  return IsBinaryLike(id) || IsLargeBinaryLike(id) || IsBinaryView(id) ||
         id == Type::kFixedSizeBinary;
}

Result<Plan> Resolve(std::string_view name, const TypePtr& lt, const TypePtr& rt) {
  const Type a = lt->id();
  const Type b = rt->id();
  Plan plan;
  if (internal::IsNumeric(a) && internal::IsNumeric(b)) {
    plan.common = a == b ? lt : CommonNumeric(*lt, *rt);
    plan.kind = NumericKind(plan.common->id());
    return plan;
  }
  if (internal::IsTemporal(a) && internal::IsTemporal(b)) {
    if (a == Type::kTimestamp && b == Type::kTimestamp) {
      const auto& x = TypeAs<TemporalType>(*lt);
      const auto& y = TypeAs<TemporalType>(*rt);
      if (x.unit() == y.unit()) {
        if (x.timezone().empty() != y.timezone().empty()) {
          return Status::Invalid(
              "Cannot compare timestamp with timezone to timestamp without timezone, got: ",
              lt->ToString(), " and ", rt->ToString());
        }
        plan.common = lt;
        plan.kind = CompareKind::kInt64;
        return plan;
      }
    }
    plan.common = lt->Equals(*rt) ? lt : CommonTemporal(*lt, *rt);
    if (plan.common == nullptr) return internal::NoKernel(name, *lt, *rt);
    const Type c = plan.common->id();
    plan.kind = c == Type::kDate32 || c == Type::kTime32 ? CompareKind::kInt32
                                                         : CompareKind::kInt64;
    return plan;
  }
  if ((IsDecimal(a) || IsDecimal(b)) && (IsDecimal(a) || IsInteger(a)) &&
      (IsDecimal(b) || IsInteger(b)) &&
      !(a == b && TypeAs<DecimalType>(*lt).scale() == TypeAs<DecimalType>(*rt).scale())) {
    QUIVER_ASSIGN_OR_RAISE(plan.decimal_scale, internal::CommonDecimalScale(*lt, *rt));
    plan.decimal_rescale = true;
    plan.kind = CompareKind::kDecimal256;
    return plan;
  }
  if (a == Type::kHalfFloat && b == Type::kHalfFloat) {
    plan.kind = CompareKind::kHalf;
    return plan;
  }
  if (IsDecimal(a) && a == b &&
      TypeAs<DecimalType>(*lt).scale() == TypeAs<DecimalType>(*rt).scale()) {
    switch (a) {
      case Type::kDecimal32: plan.kind = CompareKind::kInt32; break;
      case Type::kDecimal64: plan.kind = CompareKind::kInt64; break;
      case Type::kDecimal128: plan.kind = CompareKind::kDecimal128; break;
      default: plan.kind = CompareKind::kDecimal256; break;
    }
    return plan;
  }
  if (a == Type::kBool && b == Type::kBool) {
    plan.path = Path::kBool;
    return plan;
  }
  if (IsBinaryKind(a) && IsBinaryKind(b)) {
    const bool views = IsBinaryView(a) || IsBinaryView(b);
    const bool ok = views ? a == b
                          : (a == b || CommonBinary(*lt, *rt) != nullptr ||
                             (a == Type::kFixedSizeBinary && b == Type::kFixedSizeBinary));
    if (ok) {
      plan.path = Path::kBinary;
      return plan;
    }
  }
  return internal::NoKernel(name, *lt, *rt);
}

// A scalar's raw value (half float bits, decimal words) in `out->storage`.
void RawScalar(const Scalar& s, CompareKind kind, Values* out) {
  out->data = out->storage;
  if (!s.is_valid()) return;
  if (kind == CompareKind::kHalf) {
    const uint16_t bits = s.half_bits();
    std::memcpy(out->storage, &bits, 2);
    return;
  }
  // Decimals: the unscaled value's low words, little-endian.
  const int64_t width = FixedWidthBytes(*s.type());
  uint8_t bytes[32];
  for (int w = 0; w < 4; ++w) {
    bit_util::StoreLittleEndian(bytes + 8 * w, s.decimal().words[static_cast<size_t>(w)]);
  }
  std::memcpy(out->storage, bytes, static_cast<size_t>(width));
}

internal::BoolSide BoolSideOf(const Datum& d) {
  internal::BoolSide side;
  if (d.is_scalar()) {
    side.is_scalar = true;
    side.value = d.scalar().is_valid() && d.scalar().bool_value();
  } else {
    side.bits = d.array()->buffers[1]->data();
    side.offset = d.array()->offset;
  }
  return side;
}

bool CompareBytes(CompareOp op, std::string_view a, std::string_view b) {
  switch (op) {
    case CompareOp::kEqual: return a == b;
    case CompareOp::kNotEqual: return a != b;
    case CompareOp::kLess: return a < b;
    case CompareOp::kLessEqual: return a <= b;
    case CompareOp::kGreater: return a > b;
    case CompareOp::kGreaterEqual: return a >= b;
  }
  return false;
}

// `left` an array (or both scalars), `right` an array or a scalar.
Result<Datum> CompareResolved(CompareOp op, const Datum& left, const Datum& right, int64_t n,
                              MemoryPool* pool) {
  const std::string_view name = CompareFunctionName(op);
  const TypePtr& lt = left.type();
  const TypePtr& rt = right.type();
  if (lt->id() == Type::kNull && rt->id() == Type::kNull) {
    // pyarrow has no null-null comparison kernel.
    return internal::NoKernel(name, *lt, *rt);
  }
  if (lt->id() == Type::kNull || rt->id() == Type::kNull) {
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr result, internal::AllNullResult(boolean(), n, pool));
    return internal::FinishResult(left, right, std::move(result));
  }
  QUIVER_ASSIGN_OR_RAISE(const Plan plan, Resolve(name, lt, rt));
  QUIVER_ASSIGN_OR_RAISE(internal::ResultValidity validity,
                         internal::IntersectValidity(left, right, n, pool));
  if (validity.all_null) {
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr result, internal::AllNullResult(boolean(), n, pool));
    return internal::FinishResult(left, right, std::move(result));
  }
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer bits,
                         internal::AllocateOutput(bit_util::BytesForBits(n), pool));
  switch (plan.path) {
    case Path::kFixed: {
      Values lv;
      Values rv;
      if (plan.common != nullptr) {
        QUIVER_RETURN_NOT_OK(internal::PrepareValues(left, plan.common, &lv, pool));
        QUIVER_RETURN_NOT_OK(internal::PrepareValues(right, plan.common, &rv, pool));
      } else if (plan.decimal_rescale) {
        QUIVER_RETURN_NOT_OK(internal::PrepareDecimal256(left, plan.decimal_scale, &lv, pool));
        QUIVER_RETURN_NOT_OK(internal::PrepareDecimal256(right, plan.decimal_scale, &rv, pool));
      } else {
        for (auto [arg, values] : {std::pair{&left, &lv}, std::pair{&right, &rv}}) {
          if (arg->is_scalar()) {
            RawScalar(arg->scalar(), plan.kind, values);
          } else {
            const ArrayData& a = *arg->array();
            values->data = a.buffers[1]->data() + a.offset * FixedWidthBytes(*a.type);
          }
        }
      }
      internal::CompareFixed(op, plan.kind, lv.data, rv.data, right.is_scalar(), n, bits.data());
      break;
    }
    case Path::kBool:
      internal::CompareBool(op, BoolSideOf(left), BoolSideOf(right), n, bits.data());
      break;
    case Path::kBinary: {
      if (left.is_scalar()) {  // two scalars
        bits.data()[0] = CompareBytes(op, left.scalar().bytes(), right.scalar().bytes()) ? 1 : 0;
        RecordSimdLevel(SimdLevel::kScalar);
        break;
      }
      if (right.is_scalar()) {
        const std::string_view bytes = right.scalar().bytes();
        internal::CompareBinary(op, *left.array(), nullptr, &bytes, n, bits.data());
      } else {
        internal::CompareBinary(op, *left.array(), right.array().get(), nullptr, n, bits.data());
      }
      break;
    }
  }
  auto result = ArrayData::Make(boolean(), n, {validity.bitmap, bits.Freeze()}, validity.null_count);
  return internal::FinishResult(left, right, std::move(result));
}

// Row i of the result: the dictionary's result at index i.
template <typename Index>
void MapIndices(const ArrayData& indices, const ArrayData& per_value, uint8_t* values,
                uint8_t* valid) {
  const Index* idx = indices.GetValues<Index>(1);
  const uint8_t* in_valid = indices.MayHaveNulls() ? indices.validity() : nullptr;
  const uint8_t* dict_bits = per_value.buffers[1]->data();
  const uint8_t* dict_valid = per_value.MayHaveNulls() ? per_value.validity() : nullptr;
  const int64_t n = indices.length;
  uint64_t vword = 0;
  uint64_t bword = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool ok = in_valid == nullptr || bit_util::GetBit(in_valid, indices.offset + i);
    bool bit = false;
    if (ok) {
      const auto k = static_cast<int64_t>(idx[i]);
      ok = dict_valid == nullptr || bit_util::GetBit(dict_valid, per_value.offset + k);
      bit = ok && bit_util::GetBit(dict_bits, per_value.offset + k);
    }
    vword |= static_cast<uint64_t>(ok) << (i & 63);
    bword |= static_cast<uint64_t>(bit) << (i & 63);
    if ((i & 63) == 63 || i + 1 == n) {
      const int64_t byte = (i & ~int64_t{63}) / 8;
      const int64_t nbytes = std::min<int64_t>(8, bit_util::BytesForBits(n) - byte);
      for (int64_t b = 0; b < nbytes; ++b) {
        valid[byte + b] = static_cast<uint8_t>(vword >> (8 * b));
        values[byte + b] = static_cast<uint8_t>(bword >> (8 * b));
      }
      vword = 0;
      bword = 0;
    }
  }
}

Result<Datum> CompareDictionaryScalar(CompareOp op, const ArrayDataPtr& array, const Scalar& scalar,
                                      MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(Datum per_value, Compare(op, Datum(array->dictionary), Datum(scalar), pool));
  const int64_t n = array->length;
  if (!scalar.is_valid()) {
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr result, internal::AllNullResult(boolean(), n, pool));
    return Datum(std::move(result));
  }
  const int64_t nbytes = bit_util::BytesForBits(n);
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer values, internal::AllocateOutput(nbytes, pool));
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer valid, internal::AllocateOutput(nbytes, pool));
  const Type index = TypeAs<DictionaryType>(*array->type).index_type()->id();
  internal::VisitNumeric(index, [&](auto tag) {
    using Index = decltype(tag);
    if constexpr (std::is_integral_v<Index>) {
      MapIndices<Index>(*array, *per_value.array(), values.data(), valid.data());
    }
  });
  const int64_t null_count = n - bitmap::CountSetBits(valid.data(), 0, n);
  std::shared_ptr<Buffer> validity;
  if (null_count > 0) validity = valid.Freeze();
  return Datum(ArrayData::Make(boolean(), n, {std::move(validity), values.Freeze()}, null_count));
}

}  // namespace

std::string_view CompareFunctionName(CompareOp op) {
  switch (op) {
    case CompareOp::kEqual: return "equal";
    case CompareOp::kNotEqual: return "not_equal";
    case CompareOp::kLess: return "less";
    case CompareOp::kLessEqual: return "less_equal";
    case CompareOp::kGreater: return "greater";
    case CompareOp::kGreaterEqual: return "greater_equal";
  }
  return "compare";
}

Result<Datum> Compare(CompareOp op, const Datum& left, const Datum& right, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(const int64_t n, internal::BinaryLength(left, right));
  const bool left_dict = left.is_array() && left.type()->id() == Type::kDictionary;
  const bool right_dict = right.is_array() && right.type()->id() == Type::kDictionary;
  if (left_dict || right_dict) {
    if (left_dict && right.is_scalar()) {
      return CompareDictionaryScalar(op, left.array(), right.scalar(), pool);
    }
    if (right_dict && left.is_scalar()) {
      return CompareDictionaryScalar(internal::FlipCompare(op), right.array(), left.scalar(), pool);
    }
    // Against another array: both decoded (pyarrow's EnsureDictionaryDecoded).
    Datum l = left;
    Datum r = right;
    if (left_dict) {
      QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr decoded, internal::DecodeDictionary(*left.array(), pool));
      l = Datum(std::move(decoded));
    }
    if (right_dict) {
      QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr decoded,
                             internal::DecodeDictionary(*right.array(), pool));
      r = Datum(std::move(decoded));
    }
    return Compare(op, l, r, pool);
  }
  if (left.is_scalar() && right.is_array()) {
    // Errors name the function and the types as called, not as flipped.
    if (left.type()->id() == Type::kNull && right.type()->id() == Type::kNull) {
      return internal::NoKernel(CompareFunctionName(op), *left.type(), *right.type());
    }
    if (left.type()->id() != Type::kNull && right.type()->id() != Type::kNull) {
      QUIVER_RETURN_NOT_OK(Resolve(CompareFunctionName(op), left.type(), right.type()).status());
    }
    return CompareResolved(internal::FlipCompare(op), right, left, n, pool);
  }
  return CompareResolved(op, left, right, n, pool);
}

}  // namespace quiver::compute
