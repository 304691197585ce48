// Strings parsed as numbers and booleans: binary, large_binary,
// binary_view, string, large_string and string_view to bool, int8..uint64,
// float16, float32 and float64, as Arrow C++'s value_parsing.h parses them
// (measured against pyarrow 26). Safe and unsafe casts parse alike; a
// value that does not parse is Invalid "Failed to parse string: 'S' as a
// scalar of type T" ("Failed to parse value: S" for booleans), naming the
// last such valid value (Arrow's kernel parses every row and keeps the
// last error). Null slots are not read.
//  - Integers: decimal digits (leading zeros allowed), a '-' before them
//    for signed types only (no '+', no spaces), within the type's range;
//    or "0x" / "0X" and 1 to 2 * bytes hex digits, without a sign, read as
//    the type's bits ("0xFF" is -1 as int8).
//  - Floats: an optional sign ('+' included), then what from_chars reads
//    in general format: digits with an optional point and exponent,
//    "inf", "infinity", "nan", "nan(...)" in any case; no spaces, no hex.
//    Out of range is +-inf or (+-)0, as Arrow's parser gives. float16:
//    parsed as float32, then rounded to half.
//  - Booleans: "true", "false", "1", "0" in any case.
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "quiver/compute/binary_reader_internal.h"
#include "quiver/compute/cast_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/float16.h"

namespace quiver::compute::internal {

namespace {

bool IsTextType(Type id) { return IsBinaryLike(id) || IsLargeBinaryLike(id) || IsBinaryView(id); }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

template <typename T>
bool ParseInteger(std::string_view s, T* out) {
  using U = std::make_unsigned_t<T>;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    const std::string_view digits = s.substr(2);
    if (digits.size() > 2 * sizeof(T)) return false;
    U bits = 0;
    for (char c : digits) {
      const int d = HexDigit(c);
      if (d < 0) return false;
      bits = static_cast<U>((bits << 4) | static_cast<U>(d));
    }
    *out = static_cast<T>(bits);
    return true;
  }
  bool negative = false;
  if (std::is_signed_v<T> && !s.empty() && s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  // The magnitude, up to 2^63 for a negative int64.
  const uint64_t limit = negative ? static_cast<uint64_t>(std::numeric_limits<T>::max()) + 1
                                  : static_cast<uint64_t>(std::numeric_limits<T>::max());
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = negative ? static_cast<T>(U{0} - static_cast<U>(v)) : static_cast<T>(v);
  return true;
}

template <typename T>
bool ParseFloat(std::string_view s, T* out) {
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
    if (!s.empty() && s[0] == '-') return false;
  }
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  T v{};
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  if (ptr != end) return false;
  if (ec == std::errc::result_out_of_range) {
    // Too large or too small: strtod's +-inf / +-0 (or subnormal), as
    // Arrow's parser rounds.
    const std::string copy(s);
    if constexpr (std::is_same_v<T, float>) {
      v = std::strtof(copy.c_str(), nullptr);
    } else {
      v = std::strtod(copy.c_str(), nullptr);
    }
  } else if (ec != std::errc()) {
    return false;
  }
  *out = v;
  return true;
}

bool ParseBool(std::string_view s, bool* out) {
  auto is = [&](std::string_view word) {
    if (s.size() != word.size()) return false;
    for (size_t i = 0; i < s.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(s[i])) != word[i]) return false;
    }
    return true;
  };
  if (is("true") || is("1")) {
    *out = true;
  } else if (is("false") || is("0")) {
    *out = false;
  } else {
    return false;
  }
  return true;
}

Status ParseError(std::string_view s, const DataType& to) {
  if (to.id() == Type::kBool) return Status::Invalid("Failed to parse value: ", s);
  return Status::Invalid("Failed to parse string: '", s, "' as a scalar of type ", to.ToString());
}

// Each valid row's text through parse(text, slot) into a fixed-width
// result of `to` (null slots zeroed).
template <typename Out, typename Parse>
Result<ArrayDataPtr> ParseRows(const ArrayData& in, const TypePtr& to, MemoryPool* pool,
                               Parse&& parse) {
  const int64_t n = in.length;
  uint8_t* data = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto values, AllocateExact(n * static_cast<int64_t>(sizeof(Out)), pool, &data));
  Out* out = reinterpret_cast<Out*>(data);
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  const BinReader<BinLayout::kAny> reader(in);
  int64_t failed = -1;
  for (int64_t i = 0; i < n; ++i) {
    if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) {
      out[i] = Out{};
      continue;
    }
    if (!parse(reader(i), &out[i])) failed = i;
  }
  if (failed >= 0) return ParseError(reader(failed), *to);
  return FixedWidthResult(in, to, std::move(values), pool);
}

}  // namespace

bool ParseCastSupported(const DataType& from, const DataType& to) {
  const Type t = to.id();
  // (pyarrow 26 has no view to float16 cast.)
  if (IsBinaryView(from.id()) && t == Type::kHalfFloat) return false;
  return IsTextType(from.id()) && (t == Type::kBool || IsInteger(t) || IsFloating(t));
}

Result<ArrayDataPtr> CastParseArray(const ArrayData& in, const TypePtr& to, const CastContext& ctx) {
  if (!ParseCastSupported(*in.type, *to)) return UnsupportedCast(*in.type, *to);
  const Type t = to->id();
  if (t == Type::kBool) {
    const int64_t n = in.length;
    uint8_t* bits = nullptr;
    QUIVER_ASSIGN_OR_RAISE(auto packed, AllocateExact(bit_util::BytesForBits(n), ctx.pool, &bits));
    bits[bit_util::BytesForBits(n) - 1] = 0;  // n > 0 here (Cast returns empty inputs earlier)
    const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
    const BinReader<BinLayout::kAny> reader(in);
    int64_t failed = -1;
    for (int64_t i = 0; i < n; ++i) {
      bool b = false;
      if ((validity == nullptr || bit_util::GetBit(validity, in.offset + i)) &&
          !ParseBool(reader(i), &b)) {
        failed = i;
      }
      bit_util::SetBitTo(bits, i, b);
    }
    if (failed >= 0) return ParseError(reader(failed), *to);
    return FixedWidthResult(in, to, std::move(packed), ctx.pool);
  }
  if (t == Type::kHalfFloat) {
    return ParseRows<uint16_t>(in, to, ctx.pool, [](std::string_view s, uint16_t* slot) {
      float f = 0;
      if (!ParseFloat(s, &f)) return false;
      *slot = util::FloatToHalf(f);
      return true;
    });
  }
  return VisitNumeric(t, [&](auto tag) -> Result<ArrayDataPtr> {
    using Out = decltype(tag);
    return ParseRows<Out>(in, to, ctx.pool, [](std::string_view s, Out* slot) {
      if constexpr (std::is_floating_point_v<Out>) {
        return ParseFloat(s, slot);
      } else {
        return ParseInteger(s, slot);
      }
    });
  });
}

}  // namespace quiver::compute::internal
