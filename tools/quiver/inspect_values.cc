#include "inspect_values.h"

#include "cli_common.h"

#include <fmt/format.h>

#include "quiver/array/scalar.h"
#include "quiver/parquet/metadata/statistics_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::cli {

namespace {

template <typename E>
std::string Name(E value) {
  std::string_view name = format::EnumName(value);
  if (!name.empty()) return std::string(name);
  return fmt::format("UNKNOWN({})", static_cast<int64_t>(value));
}

// The digits of an unscaled decimal with `scale` digits after the point
// ("-12.345"; a negative scale appends zeros).
std::string DecimalText(const Int256& unscaled, int32_t scale) {
  const bool negative = unscaled.is_negative();
  std::string digits = unscaled.MagnitudeDigits();
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
  auto text_or_bytes = [&]() {
    if (IsText(e) && IsValidUtf8(raw)) {
      v.kind = DecodedValue::Kind::kString;
      v.s.assign(raw);
      return v;
    }
    return bytes(false);
  };
  // A value whose size does not fit its physical type is shown as raw bytes.
  switch (ctx.type) {
    case format::Type::kBoolean:
      if (raw.size() != 1) return bytes(true);
      break;
    case format::Type::kInt32:
    case format::Type::kFloat:
      if (raw.size() != 4) return bytes(true);
      break;
    case format::Type::kInt64:
    case format::Type::kDouble:
      if (raw.size() != 8) return bytes(true);
      break;
    case format::Type::kInt96: return bytes(raw.size() != 12);
    case format::Type::kFixedLenByteArray:
      if (ctx.type_length <= 0) return text_or_bytes();
      if (raw.size() != static_cast<size_t>(ctx.type_length)) return bytes(true);
      break;
    case format::Type::kByteArray: break;
  }
  // The value itself as the library reads statistics (the column's Arrow
  // type: parquet/metadata/statistics.h).
  auto leaf = parquet::LeafAnnotations::Of(e, ctx.type);
  leaf.type_length = ctx.type_length;
  const std::optional<Scalar> value = parquet::DecodeStatisticsValue(raw, leaf);
  if (!value.has_value()) {
    // No value of the column's type (a time outside the day, a decimal
    // longer than its precision, text that is not UTF-8): the stored number
    // or bytes.
    if (ctx.type == format::Type::kInt32 || ctx.type == format::Type::kInt64) {
      v.kind = DecodedValue::Kind::kInt;
      v.i = ctx.type == format::Type::kInt32
                ? int64_t{bit_util::LoadLittleEndian<int32_t>(raw.data())}
                : bit_util::LoadLittleEndian<int64_t>(raw.data());
      return v;
    }
    return text_or_bytes();
  }
  switch (value->type()->id()) {
    case Type::kBool:
      v.kind = DecodedValue::Kind::kBool;
      v.b = value->bool_value();
      return v;
    case Type::kUInt8:
    case Type::kUInt16:
    case Type::kUInt32:
    case Type::kUInt64:
      v.kind = DecodedValue::Kind::kUInt;
      v.u = value->uint_value();
      return v;
    case Type::kHalfFloat:
    case Type::kFloat:
    case Type::kDouble:
      v.kind = DecodedValue::Kind::kDouble;
      v.d = value->double_value();
      return v;
    case Type::kDecimal128:
    case Type::kDecimal256:
      v.kind = DecodedValue::Kind::kDecimal;
      v.s = DecimalText(value->decimal(), TypeAs<DecimalType>(*value->type()).scale());
      return v;
    case Type::kString:
      v.kind = DecodedValue::Kind::kString;
      v.s = value->bytes();
      return v;
    case Type::kBinary:
    case Type::kFixedSizeBinary: return text_or_bytes();
    default:  // signed integers; dates, times and timestamps as their stored numbers
      v.kind = DecodedValue::Kind::kInt;
      v.i = value->int_value();
      return v;
  }
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
