#include "inspect_values.h"

#include "cli_common.h"

#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "quiver/util/bit_util.h"

namespace quiver::cli {

namespace {

template <typename E>
std::string Name(E value) {
  std::string_view name = format::EnumName(value);
  if (!name.empty()) return std::string(name);
  return fmt::format("UNKNOWN({})", static_cast<int64_t>(value));
}

double HalfToDouble(uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exponent = (h >> 10) & 0x1F;
  const int mantissa = h & 0x3FF;
  double v;
  if (exponent == 0) {
    v = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    v = mantissa == 0 ? INFINITY : NAN;
  } else {
    v = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return sign ? -v : v;
}

// The digits of a signed 128-bit integer with `scale` digits after the
// point ("-12.345").
std::string DecimalText(__int128 unscaled, int32_t scale) {
  const bool negative = unscaled < 0;
  unsigned __int128 mag = negative ? -static_cast<unsigned __int128>(unscaled)
                                   : static_cast<unsigned __int128>(unscaled);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(mag % 10)));
    mag /= 10;
  } while (mag != 0);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) {
      digits.insert(0, static_cast<size_t>(scale) - digits.size() + 1, '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(scale), 1, '.');
  } else if (scale < 0) {
    digits.append(static_cast<size_t>(-scale), '0');
  }
  return negative ? "-" + digits : digits;
}

// Big-endian two's complement bytes (at most 16) as a signed integer.
__int128 BigEndianSigned(std::string_view bytes) {
  unsigned __int128 v = 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  const int bits = static_cast<int>(bytes.size()) * 8;
  if (bits > 0 && bits < 128 && (static_cast<uint8_t>(bytes[0]) & 0x80) != 0) {
    v |= ~static_cast<unsigned __int128>(0) << bits;  // sign-extend
  }
  return static_cast<__int128>(v);
}

bool IsUnsigned(const format::SchemaElement* e) {
  if (e == nullptr) return false;
  if (e->logical_type.has_value() && e->logical_type->integer.has_value()) {
    return !e->logical_type->integer->is_signed;
  }
  if (e->converted_type.has_value()) {
    switch (*e->converted_type) {
      case format::ConvertedType::kUint8:
      case format::ConvertedType::kUint16:
      case format::ConvertedType::kUint32:
      case format::ConvertedType::kUint64:
        return true;
      default:
        break;
    }
  }
  return false;
}

bool IsText(const format::SchemaElement* e) {
  if (e == nullptr) return false;
  if (e->logical_type.has_value()) {
    const auto& l = *e->logical_type;
    if (l.string || l.enum_ || l.json) return true;
  }
  if (e->converted_type.has_value()) {
    auto c = *e->converted_type;
    return c == format::ConvertedType::kUtf8 || c == format::ConvertedType::kEnum ||
           c == format::ConvertedType::kJson;
  }
  return false;
}

// The decimal scale, if the column is a DECIMAL.
std::optional<int32_t> DecimalScale(const format::SchemaElement* e) {
  if (e == nullptr) return std::nullopt;
  if (e->logical_type.has_value() && e->logical_type->decimal.has_value()) {
    return e->logical_type->decimal->scale;
  }
  if (e->converted_type == format::ConvertedType::kDecimal) return e->scale.value_or(0);
  return std::nullopt;
}

bool IsFloat16(const format::SchemaElement* e) {
  return e != nullptr && e->logical_type.has_value() && e->logical_type->float16.has_value();
}

std::string UnitName(const format::TimeUnit& unit) {
  switch (unit.kind()) {
    case format::TimeUnit::Kind::kMillis: return "MILLIS";
    case format::TimeUnit::Kind::kMicros: return "MICROS";
    case format::TimeUnit::Kind::kNanos: return "NANOS";
    default: return "?";
  }
}

}  // namespace

std::string TypeName(format::Type v) { return Name(v); }
std::string EncodingName(format::Encoding v) { return Name(v); }
std::string CodecName(format::CompressionCodec v) { return Name(v); }
std::string PageTypeName(format::PageType v) { return Name(v); }
std::string RepetitionName(format::FieldRepetitionType v) { return Name(v); }
std::string ConvertedTypeName(format::ConvertedType v) { return Name(v); }
std::string BoundaryOrderName(format::BoundaryOrder v) { return Name(v); }

std::string LogicalTypeString(const format::LogicalType& t) {
  using Kind = format::LogicalType::Kind;
  switch (t.kind()) {
    case Kind::kNone: return "";
    case Kind::kString: return "STRING";
    case Kind::kMap: return "MAP";
    case Kind::kList: return "LIST";
    case Kind::kEnum: return "ENUM";
    case Kind::kDecimal: return fmt::format("DECIMAL({}, {})", t.decimal->precision, t.decimal->scale);
    case Kind::kDate: return "DATE";
    case Kind::kTime:
      return fmt::format("TIME({}, {})", UnitName(t.time->unit),
                         t.time->is_adjusted_to_utc ? "utc" : "local");
    case Kind::kTimestamp:
      return fmt::format("TIMESTAMP({}, {})", UnitName(t.timestamp->unit),
                         t.timestamp->is_adjusted_to_utc ? "utc" : "local");
    case Kind::kInteger:
      return fmt::format("INT({}, {})", static_cast<int>(t.integer->bit_width),
                         t.integer->is_signed ? "signed" : "unsigned");
    case Kind::kUnknown: return "UNKNOWN";
    case Kind::kJson: return "JSON";
    case Kind::kBson: return "BSON";
    case Kind::kUuid: return "UUID";
    case Kind::kFloat16: return "FLOAT16";
    case Kind::kVariant: return "VARIANT";
    case Kind::kGeometry: return "GEOMETRY";
    case Kind::kGeography: return "GEOGRAPHY";
    case Kind::kVector: return "VECTOR";
  }
  return fmt::format("UNKNOWN_KIND({})", static_cast<int>(t.kind()));
}

DecodedValue DecodeValue(std::string_view raw, const ValueContext& ctx) {
  DecodedValue v;
  const auto* e = ctx.element;
  auto bytes = [&](bool bad_size) {
    v.kind = DecodedValue::Kind::kBytes;
    v.s.assign(raw);
    v.bad_size = bad_size;
    return v;
  };
  switch (ctx.type) {
    case format::Type::kBoolean:
      if (raw.size() != 1) return bytes(true);
      v.kind = DecodedValue::Kind::kBool;
      v.b = raw[0] != 0;
      return v;
    case format::Type::kInt32: {
      if (raw.size() != 4) return bytes(true);
      const int32_t x = bit_util::LoadLittleEndian<int32_t>(raw.data());
      if (auto scale = DecimalScale(e)) {
        v.kind = DecodedValue::Kind::kDecimal;
        v.s = DecimalText(x, *scale);
      } else if (IsUnsigned(e)) {
        v.kind = DecodedValue::Kind::kUInt;
        v.u = static_cast<uint32_t>(x);
      } else {
        v.kind = DecodedValue::Kind::kInt;
        v.i = x;
      }
      return v;
    }
    case format::Type::kInt64: {
      if (raw.size() != 8) return bytes(true);
      const int64_t x = bit_util::LoadLittleEndian<int64_t>(raw.data());
      if (auto scale = DecimalScale(e)) {
        v.kind = DecodedValue::Kind::kDecimal;
        v.s = DecimalText(x, *scale);
      } else if (IsUnsigned(e)) {
        v.kind = DecodedValue::Kind::kUInt;
        v.u = static_cast<uint64_t>(x);
      } else {
        v.kind = DecodedValue::Kind::kInt;
        v.i = x;
      }
      return v;
    }
    case format::Type::kFloat:
      if (raw.size() != 4) return bytes(true);
      v.kind = DecodedValue::Kind::kDouble;
      v.d = bit_util::LoadLittleEndian<float>(raw.data());
      return v;
    case format::Type::kDouble:
      if (raw.size() != 8) return bytes(true);
      v.kind = DecodedValue::Kind::kDouble;
      v.d = bit_util::LoadLittleEndian<double>(raw.data());
      return v;
    case format::Type::kInt96:
      return bytes(raw.size() != 12);
    case format::Type::kFixedLenByteArray:
    case format::Type::kByteArray: {
      const bool flba = ctx.type == format::Type::kFixedLenByteArray;
      if (flba && ctx.type_length > 0 && raw.size() != static_cast<size_t>(ctx.type_length)) {
        return bytes(true);
      }
      if (IsFloat16(e) && flba) {
        if (raw.size() != 2) return bytes(true);
        v.kind = DecodedValue::Kind::kDouble;
        v.d = HalfToDouble(static_cast<uint16_t>(static_cast<uint8_t>(raw[0]) |
                                                 static_cast<uint8_t>(raw[1]) << 8));
        return v;
      }
      if (auto scale = DecimalScale(e); scale.has_value() && !raw.empty() && raw.size() <= 16) {
        v.kind = DecodedValue::Kind::kDecimal;
        v.s = DecimalText(BigEndianSigned(raw), *scale);
        return v;
      }
      if (IsText(e) && IsValidUtf8(raw)) {
        v.kind = DecodedValue::Kind::kString;
        v.s.assign(raw);
        return v;
      }
      return bytes(false);
    }
  }
  return bytes(false);
}

std::string ValueText(const DecodedValue& v, size_t max_chars) {
  switch (v.kind) {
    case DecodedValue::Kind::kBool: return v.b ? "true" : "false";
    case DecodedValue::Kind::kInt: return fmt::format("{}", v.i);
    case DecodedValue::Kind::kUInt: return fmt::format("{}", v.u);
    case DecodedValue::Kind::kDouble: return fmt::format("{}", v.d);
    case DecodedValue::Kind::kDecimal: return v.s;
    case DecodedValue::Kind::kString: {
      // Cut at a character boundary.
      size_t cut = v.s.size();
      if (cut > max_chars) {
        cut = max_chars;
        while (cut > 0 && (static_cast<uint8_t>(v.s[cut]) & 0xC0) == 0x80) --cut;
      }
      std::string text = "\"" + EscapeBytes(std::string_view(v.s).substr(0, cut)) + "\"";
      if (cut < v.s.size()) text += "...";
      return text;
    }
    case DecodedValue::Kind::kBytes: {
      const size_t shown = std::min(v.s.size(), max_chars / 2);
      std::string text = "0x" + HexBytes(std::string_view(v.s).substr(0, shown));
      if (shown < v.s.size()) text += fmt::format("...({} bytes)", v.s.size());
      if (v.bad_size) text += " (bad size)";
      return text;
    }
  }
  return {};
}

}  // namespace quiver::cli
