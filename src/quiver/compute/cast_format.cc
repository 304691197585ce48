// Numbers to strings, as Arrow C++'s formatting.h writes them (measured
// against pyarrow 26):
//  - bool: "true" / "false";
//  - integers: decimal digits, "-" for negatives;
//  - float32 / float64: the shortest digits that read back as the same
//    value (float32: as a float32), as double-conversion's ToShortest with
//    Arrow's settings: plain notation when the decimal exponent e of the
//    first digit is in [-6, 10) ("100", "0.000001", "1234567890", "1.5"),
//    otherwise "d.ddde+X" / "de-X" ("1e+10", "1.5e-7"); no trailing ".0";
//    "-0", "inf", "-inf", "nan". float16 is written as the double it is
//    exactly ("0.0999755859375");
//  - decimals: Decimal::ToString (scalar.h DecimalToString): "12.30", "1E+3".
// The digits come from std::to_chars (Ryu: shortest, closest), laid out
// again by those rules. Integers are sized exactly first (digit counts);
// floats are written into a buffer sized for the longest text (25 bytes
// per value) which then shrinks to what was written. A null slot is an
// empty string. string_view targets are built from the string result.
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "quiver/array/scalar.h"
#include "quiver/compute/cast_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/float16.h"

namespace quiver::compute::internal {

namespace {

constexpr int kMaxFloatText = 32;

// Writes the text of a float32 or float64 to `out` (at least kMaxFloatText
// bytes); returns its length.
template <typename T>
int FormatFloat(T v, char* out) {
  if (std::isnan(v)) {
    std::memcpy(out, "nan", 3);
    return 3;
  }
  if (std::isinf(v)) {
    if (v < 0) {
      std::memcpy(out, "-inf", 4);
      return 4;
    }
    std::memcpy(out, "inf", 3);
    return 3;
  }
  char sci[kMaxFloatText];
  const auto result = std::to_chars(sci, sci + sizeof(sci), v, std::chars_format::scientific);
  // sci: [-]d[.ddd]e(+|-)XX
  const char* p = sci;
  char* o = out;
  if (*p == '-') *o++ = *p++;
  char digits[20];
  int ndigits = 0;
  while (*p != 'e') {
    if (*p != '.') digits[ndigits++] = *p;
    ++p;
  }
  ++p;  // 'e'
  const bool negative_exponent = *p == '-';
  ++p;
  int exponent = 0;
  for (; p < result.ptr; ++p) exponent = exponent * 10 + (*p - '0');
  if (negative_exponent) exponent = -exponent;
  if (exponent >= -6 && exponent < 10) {
    if (exponent >= 0) {
      for (int i = 0; i <= exponent; ++i) *o++ = i < ndigits ? digits[i] : '0';
      if (ndigits > exponent + 1) {
        *o++ = '.';
        for (int i = exponent + 1; i < ndigits; ++i) *o++ = digits[i];
      }
    } else {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -exponent - 1; ++i) *o++ = '0';
      for (int i = 0; i < ndigits; ++i) *o++ = digits[i];
    }
  } else {
    *o++ = digits[0];
    if (ndigits > 1) {
      *o++ = '.';
      for (int i = 1; i < ndigits; ++i) *o++ = digits[i];
    }
    *o++ = 'e';
    *o++ = exponent < 0 ? '-' : '+';
    o = std::to_chars(o, o + 4, exponent < 0 ? -exponent : exponent).ptr;
  }
  return static_cast<int>(o - out);
}

template <typename T>
int IntegerTextLength(T v) {
  using U = std::make_unsigned_t<T>;
  int length = 1;
  U magnitude;
  if constexpr (std::is_signed_v<T>) {
    magnitude = v < 0 ? static_cast<U>(U{0} - static_cast<U>(v)) : static_cast<U>(v);
    length += v < 0 ? 1 : 0;
  } else {
    magnitude = v;
  }
  while (magnitude >= 10) {
    magnitude /= 10;
    ++length;
  }
  return length;
}

bool IsValidAt(const ArrayData& in, const uint8_t* validity, int64_t i) {
  return validity == nullptr || bit_util::GetBit(validity, in.offset + i);
}

// The n + 1 offsets of a text result, and the check that its `total`
// bytes fit them.
template <typename Offset>
struct TextOffsets {
  std::shared_ptr<Buffer> buffer;
  Offset* values = nullptr;

  static Result<TextOffsets> Make(int64_t n, MemoryPool* pool) {
    TextOffsets out;
    uint8_t* bytes = nullptr;
    QUIVER_ASSIGN_OR_RAISE(
        out.buffer, AllocateExact((n + 1) * static_cast<int64_t>(sizeof(Offset)), pool, &bytes));
    out.values = reinterpret_cast<Offset*>(bytes);
    return out;
  }
  static Status CheckTotal(int64_t total, const ArrayData& in, const TypePtr& to) {
    if (total <= static_cast<int64_t>(std::numeric_limits<Offset>::max())) return Status::OK();
    return Status::Invalid("Failed casting from ", in.type->ToString(), " to ", to->ToString(),
                           ": input array too large");
  }
};

// Writes each valid slot's text through write(i, char* out) -> length,
// with at most `max_length` bytes per value, into offsets of type Offset.
template <typename Offset, typename Write>
Result<ArrayDataPtr> FormatWithBound(const ArrayData& in, const TypePtr& to, int64_t max_length,
                                     Write&& write, MemoryPool* pool) {
  const int64_t n = in.length;
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto offsets, TextOffsets<Offset>::Make(n, pool));
  Offset* o = offsets.values;
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer data, MutableBuffer::WithCapacity(n * max_length, pool));
  char* out = reinterpret_cast<char*>(data.data());
  int64_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    o[i] = static_cast<Offset>(pos);
    if (IsValidAt(in, validity, i)) pos += write(i, out + pos);
  }
  QUIVER_RETURN_NOT_OK(TextOffsets<Offset>::CheckTotal(pos, in, to));
  o[n] = static_cast<Offset>(pos);
  data.UnsafeSetSize(pos);
  QUIVER_RETURN_NOT_OK(data.ShrinkToFit());
  QUIVER_ASSIGN_OR_RAISE(CastValidity v, ResultValidity(in, pool));
  return ArrayData::Make(to, n, {std::move(v.bitmap), std::move(offsets.buffer), data.Freeze()},
                         v.null_count);
}

// Integers and booleans: lengths first, then the text into an exactly
// sized buffer.
template <typename Offset, typename Length, typename Write>
Result<ArrayDataPtr> FormatExact(const ArrayData& in, const TypePtr& to, Length&& length,
                                 Write&& write, MemoryPool* pool) {
  const int64_t n = in.length;
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto offsets, TextOffsets<Offset>::Make(n, pool));
  Offset* o = offsets.values;
  int64_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    o[i] = static_cast<Offset>(pos);
    if (IsValidAt(in, validity, i)) pos += length(i);
  }
  QUIVER_RETURN_NOT_OK(TextOffsets<Offset>::CheckTotal(pos, in, to));
  o[n] = static_cast<Offset>(pos);
  uint8_t* data = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto values, AllocateExact(pos, pool, &data));
  for (int64_t i = 0; i < n; ++i) {
    if (o[i + 1] != o[i]) write(i, reinterpret_cast<char*>(data) + o[i], o[i + 1] - o[i]);
  }
  QUIVER_ASSIGN_OR_RAISE(CastValidity v, ResultValidity(in, pool));
  return ArrayData::Make(to, n, {std::move(v.bitmap), std::move(offsets.buffer), std::move(values)},
                         v.null_count);
}

template <typename Offset>
Result<ArrayDataPtr> FormatArray(const ArrayData& in, const TypePtr& to, MemoryPool* pool) {
  const Type id = in.type->id();
  if (id == Type::kBool) {
    const uint8_t* bits = in.buffers[1]->data();
    auto value = [&](int64_t i) { return bit_util::GetBit(bits, in.offset + i); };
    return FormatExact<Offset>(
        in, to, [&](int64_t i) { return value(i) ? 4 : 5; },
        [&](int64_t i, char* out, int64_t) { std::memcpy(out, value(i) ? "true" : "false", value(i) ? 4 : 5); },
        pool);
  }
  if (IsInteger(id)) {
    return VisitNumeric(id, [&](auto tag) -> Result<ArrayDataPtr> {
      using T = decltype(tag);
      if constexpr (std::is_integral_v<T>) {
        const T* v = in.GetValues<T>(1);
        return FormatExact<Offset>(
            in, to, [&](int64_t i) { return IntegerTextLength(v[i]); },
            [&](int64_t i, char* out, int64_t length) { std::to_chars(out, out + length, v[i]); },
            pool);
      } else {
        return UnsupportedCast(*in.type, *to);  // not reached: an integer type
      }
    });
  }
  if (id == Type::kFloat) {
    const float* v = in.GetValues<float>(1);
    return FormatWithBound<Offset>(
        in, to, kMaxFloatText, [&](int64_t i, char* out) { return FormatFloat(v[i], out); }, pool);
  }
  if (id == Type::kDouble) {
    const double* v = in.GetValues<double>(1);
    return FormatWithBound<Offset>(
        in, to, kMaxFloatText, [&](int64_t i, char* out) { return FormatFloat(v[i], out); }, pool);
  }
  if (id == Type::kHalfFloat) {
    const uint16_t* v = in.GetValues<uint16_t>(1);
    return FormatWithBound<Offset>(
        in, to, kMaxFloatText,
        [&](int64_t i, char* out) {
          return FormatFloat(static_cast<double>(util::HalfToFloat(v[i])), out);
        },
        pool);
  }
  // Decimals: at most 76 digits, a sign, a point and "E+" with an exponent
  // of up to 11 characters.
  const int32_t scale = TypeAs<DecimalType>(*in.type).scale();
  Status status;
  auto result = FormatWithBound<Offset>(
      in, to, 96,
      [&](int64_t i, char* out) -> int64_t {
        Result<Scalar> s = ScalarFromArray(in, i);
        if (!s.ok()) {
          status = s.status();
          return 0;
        }
        const std::string text = DecimalToString(s->decimal(), scale);
        std::memcpy(out, text.data(), text.size());
        return static_cast<int64_t>(text.size());
      },
      pool);
  QUIVER_RETURN_NOT_OK(status);
  return result;
}

}  // namespace

bool FormatCastSupported(const DataType& from, const DataType& to) {
  const Type f = from.id();
  const bool source = f == Type::kBool || IsInteger(f) || IsFloating(f) || IsDecimal(f);
  return source && IsStringLike(to.id());
}

Result<ArrayDataPtr> CastToStringArray(const ArrayData& in, const TypePtr& to,
                                       const CastContext& ctx) {
  if (!FormatCastSupported(*in.type, *to)) return UnsupportedCast(*in.type, *to);
  switch (to->id()) {
    case Type::kString: return FormatArray<int32_t>(in, to, ctx.pool);
    case Type::kLargeString: return FormatArray<int64_t>(in, to, ctx.pool);
    default: {
      QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr text, FormatArray<int64_t>(in, large_utf8(), ctx.pool));
      return CastBinaryArray(text, to, ctx);
    }
  }
}

}  // namespace quiver::compute::internal
