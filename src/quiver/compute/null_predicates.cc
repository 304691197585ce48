// Null predicates (see null_predicates.h). Plain arrays: the validity
// bitmap copied or inverted (util/bitmap.h) at any bit offset; NaN tests
// and dictionaries build their output 64 slots to a word.
#include "quiver/compute/null_predicates.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "quiver/array/array.h"
#include "quiver/compute/boolean_internal.h"
#include "quiver/compute/null_predicates_simd.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute {

namespace {

using internal::FillBitmap;
using internal::MakeBooleanArray;
using internal::NewBitmap;
using internal::ValidityAtZero;
using internal::WordAt;

bool HalfIsNan(uint16_t bits) { return (bits & 0x7FFF) > 0x7C00; }

// Bit j: whether value j of v is NaN (j < nbits).
template <typename T>
uint64_t NanWord(const T* v, int nbits) {
  uint64_t w = 0;
  for (int j = 0; j < nbits; ++j) {
    bool nan;
    if constexpr (std::is_same_v<T, uint16_t>) {
      nan = HalfIsNan(v[j]);
    } else {
      nan = std::isnan(v[j]);
    }
    w |= static_cast<uint64_t>(nan) << j;
  }
  return w;
}

// NaN bits of a float16/32/64 array's values (offset included) into `out`
// (all 0 for another type); whether the AVX2 loop ran.
bool FillNanBits(const ArrayData& a, uint8_t* out) {
  auto fill = [&](const auto* values) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(values)>>;
    int64_t done = 0;
    if constexpr (!std::is_same_v<T, uint16_t>) {
      if (ActiveSimdLevel() >= SimdLevel::kAvx2 && a.length >= 64) {
        done = a.length / 64 * 64;
        internal::NanBitsAvx2(values, done, out);
      }
    }
    FillBitmap(out + done / 8, a.length - done,
               [&](int64_t pos, int nbits) { return NanWord(values + done + pos, nbits); });
    return done > 0;
  };
  switch (a.type->id()) {
    case Type::kHalfFloat: return fill(a.GetValues<uint16_t>(1));
    case Type::kFloat: return fill(a.GetValues<float>(1));
    case Type::kDouble: return fill(a.GetValues<double>(1));
    default: bitmap::SetBitsTo(out, 0, a.length, false); return false;
  }
}

// Whether dictionary value `i` is NaN (false for a non-float dictionary).
bool DictionaryValueIsNan(const ArrayData& dict, int64_t i) {
  switch (dict.type->id()) {
    case Type::kHalfFloat: return HalfIsNan(dict.GetValues<uint16_t>(1)[i]);
    case Type::kFloat: return std::isnan(dict.GetValues<float>(1)[i]);
    case Type::kDouble: return std::isnan(dict.GetValues<double>(1)[i]);
    default: return false;
  }
}

// Bits of the logically valid slots of a dictionary array (index valid and
// pointing at a valid value, not NaN when nan_is_null).
Status FillDictionaryValid(const ArrayDataPtr& data, bool nan_is_null, uint8_t* out) {
  const ArrayData& a = *data;
  const ArrayData* dict = a.dictionary.get();
  if (dict == nullptr) return Status::Invalid("a dictionary array without a dictionary");
  const DictionaryArray indices(data);
  const uint8_t* validity = a.GetNullCount() == 0 ? nullptr : a.validity();
  bool bad_index = false;
  FillBitmap(out, a.length, [&](int64_t pos, int nbits) {
    const uint64_t index_valid = WordAt(validity, a.offset, pos, nbits);
    uint64_t w = 0;
    for (int j = 0; j < nbits; ++j) {
      if (((index_valid >> j) & 1) == 0) continue;
      const int64_t idx = indices.GetValueIndex(pos + j);
      if (idx < 0 || idx >= dict->length) {
        bad_index = true;
        continue;
      }
      const bool valid = dict->IsValid(idx) && !(nan_is_null && DictionaryValueIsNan(*dict, idx));
      w |= static_cast<uint64_t>(valid) << j;
    }
    return w;
  });
  if (bad_index) return Status::Invalid("dictionary index out of range of the dictionary");
  return Status::OK();
}

// is_null (want_null) or is_valid of an array.
Result<Datum> NullOrValid(const ArrayDataPtr& data, bool want_null, bool nan_is_null,
                          MemoryPool* pool) {
  const ArrayData& a = *data;
  const int64_t n = a.length;
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out, NewBitmap(n, pool));
  const Type id = a.type->id();
  SimdLevel level = SimdLevel::kScalar;
  if (id == Type::kNull) {
    bitmap::SetBitsTo(out.data(), 0, n, want_null);
  } else if (id == Type::kDictionary) {
    QUIVER_RETURN_NOT_OK(FillDictionaryValid(data, want_null && nan_is_null, out.data()));
    if (want_null) bitmap::InvertBitmap(out.data(), 0, n, out.data(), 0);
  } else {
    const uint8_t* validity = a.GetNullCount() == 0 ? nullptr : a.validity();
    const bool nan = want_null && nan_is_null && IsFloating(id);
    if (nan) {
      if (FillNanBits(a, out.data())) level = SimdLevel::kAvx2;
      if (validity != nullptr) {
        // null = invalid or NaN: NaN | ~valid.
        FillBitmap(out.data(), n, [&](int64_t pos, int nbits) {
          return bitmap::LoadBits(out.data(), pos, nbits) |
                 (~bitmap::LoadBits(validity, a.offset + pos, nbits) &
                  bit_util::LeastSignificantBitMask(nbits));
        });
      }
    } else if (validity == nullptr) {
      bitmap::SetBitsTo(out.data(), 0, n, !want_null);
    } else if (want_null) {
      bitmap::InvertBitmap(validity, a.offset, n, out.data(), 0);
    } else {
      bitmap::CopyBitmap(validity, a.offset, n, out.data(), 0);
    }
  }
  RecordSimdLevel(level);
  return Datum(MakeBooleanArray(n, out.Freeze(), nullptr));
}

// The types pyarrow 26's is_nan accepts.
bool IsNanType(Type id) {
  return id == Type::kNull || IsInteger(id) || IsFloating(id) || id == Type::kDuration ||
         id == Type::kDecimal128 || id == Type::kDecimal256;
}

bool ScalarIsNan(const Scalar& s) {
  return s.is_valid() && IsFloating(s.type()->id()) && std::isnan(s.double_value());
}

}  // namespace

Result<Datum> IsNull(const Datum& values, bool nan_is_null, MemoryPool* pool) {
  if (values.is_scalar()) {
    RecordSimdLevel(SimdLevel::kScalar);
    const Scalar& s = values.scalar();
    return Datum(Scalar::MakeBool(!s.is_valid() || (nan_is_null && ScalarIsNan(s))));
  }
  return NullOrValid(values.array(), true, nan_is_null, pool);
}

Result<Datum> IsValid(const Datum& values, MemoryPool* pool) {
  if (values.is_scalar()) {
    RecordSimdLevel(SimdLevel::kScalar);
    return Datum(Scalar::MakeBool(values.scalar().is_valid()));
  }
  return NullOrValid(values.array(), false, false, pool);
}

Result<Datum> IsNan(const Datum& values, MemoryPool* pool) {
  const Type id = values.type()->id();
  if (!IsNanType(id)) {
    return Status::NotImplemented("Function 'is_nan' has no kernel matching input types (",
                                  values.type()->ToString(), ")");
  }
  if (values.is_scalar()) {
    RecordSimdLevel(SimdLevel::kScalar);
    const Scalar& s = values.scalar();
    return Datum(s.is_valid() ? Scalar::MakeBool(ScalarIsNan(s)) : Scalar::MakeNull(boolean()));
  }
  const ArrayData& a = *values.array();
  const int64_t n = a.length;
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out, NewBitmap(n, pool));
  RecordSimdLevel(FillNanBits(a, out.data()) ? SimdLevel::kAvx2 : SimdLevel::kScalar);
  std::shared_ptr<Buffer> validity;
  if (id == Type::kNull) {
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer none, NewBitmap(n, pool));
    bitmap::SetBitsTo(none.data(), 0, n, false);
    validity = none.Freeze();
  } else {
    QUIVER_ASSIGN_OR_RAISE(validity, ValidityAtZero(a, pool));
  }
  return Datum(MakeBooleanArray(n, out.Freeze(), std::move(validity), a.GetNullCount()));
}

}  // namespace quiver::compute
