#include "quiver/array/scalar.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "quiver/array/time_unit_internal.h"
#include "quiver/util/float16.h"
#include "quiver/util/utf8.h"

namespace quiver {

// --- Int256 -------------------------------------------------------------------

Int256 Int256::FromInt64(int64_t v) {
  Int256 out;
  const uint64_t fill = v < 0 ? ~uint64_t{0} : 0;
  out.words = {static_cast<uint64_t>(v), fill, fill, fill};
  return out;
}

Result<Int256> Int256::FromBigEndian(std::string_view bytes) {
  if (bytes.empty() || bytes.size() > 32) {
    return Status::Invalid(fmt::format(
        "a big-endian decimal needs 1 to 32 bytes, got {}", bytes.size()));
  }
  const bool negative = (static_cast<uint8_t>(bytes[0]) & 0x80) != 0;
  Int256 out;
  if (negative) out.words.fill(~uint64_t{0});
  // Byte i from the end is bit 8*i of the value.
  for (size_t i = 0; i < bytes.size(); ++i) {
    const size_t shift_byte = bytes.size() - 1 - i;
    const size_t word = shift_byte / 8;
    const unsigned shift = static_cast<unsigned>(shift_byte % 8) * 8;
    out.words[word] &= ~(uint64_t{0xFF} << shift);
    out.words[word] |= uint64_t{static_cast<uint8_t>(bytes[i])} << shift;
  }
  return out;
}

bool Int256::FitsInBits(int bits) const {
  if (bits >= 256) return true;
  // Every bit from bits - 1 up must equal the sign bit.
  const uint64_t fill = is_negative() ? ~uint64_t{0} : 0;
  for (int b = bits - 1; b < 256; ++b) {
    const uint64_t bit = (words[static_cast<size_t>(b / 64)] >> (b % 64)) & 1u;
    if (bit != (fill & 1u)) return false;
  }
  return true;
}

std::string Int256::MagnitudeDigits() const {
  std::array<uint64_t, 4> mag = words;
  if (is_negative()) {  // two's complement negation
    uint64_t carry = 1;
    for (auto& w : mag) {
      w = ~w;
      const uint64_t sum = w + carry;
      carry = sum < w ? 1 : 0;
      w = sum;
    }
  }
  std::string digits;
  auto is_zero = [&] { return mag[0] == 0 && mag[1] == 0 && mag[2] == 0 && mag[3] == 0; };
  do {
    // Divide by 10^19, most significant word first.
    constexpr uint64_t kChunk = 10000000000000000000ull;
    unsigned __int128 rem = 0;
    for (int i = 3; i >= 0; --i) {
      const unsigned __int128 cur = (rem << 64) | mag[static_cast<size_t>(i)];
      mag[static_cast<size_t>(i)] = static_cast<uint64_t>(cur / kChunk);
      rem = cur % kChunk;
    }
    std::string part = std::to_string(static_cast<uint64_t>(rem));
    if (!is_zero()) part.insert(0, 19 - part.size(), '0');
    digits.insert(0, part);
  } while (!is_zero());
  return digits;
}

std::string Int256::ToString() const {
  return is_negative() ? "-" + MagnitudeDigits() : MagnitudeDigits();
}

// --- Construction ---------------------------------------------------------------

namespace {

bool IsSignedLike(Type id) {
  switch (id) {
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64:
    case Type::kDate32:
    case Type::kDate64:
    case Type::kTime32:
    case Type::kTime64:
    case Type::kTimestamp:
    case Type::kDuration:
      return true;
    default:
      return false;
  }
}

bool IsBytes(Type id) {
  return id == Type::kString || id == Type::kLargeString || id == Type::kBinary ||
         id == Type::kLargeBinary || id == Type::kFixedSizeBinary;
}

Status NotOfType(const TypePtr& type, std::string_view what) {
  return Status::Invalid(
      fmt::format("a scalar of type {} cannot hold {}", type ? type->ToString() : "(none)", what));
}

}  // namespace

Scalar::Scalar() : type_(null()) {}

const std::vector<Scalar>& Scalar::NoChildren() {
  static const std::vector<Scalar> none;
  return none;
}

Scalar Scalar::MakeNull(TypePtr type) {
  Scalar s(type ? std::move(type) : null(), false);
  return s;
}

Scalar Scalar::MakeBool(bool value) {
  Scalar s(boolean(), true);
  s.bool_ = value;
  return s;
}

Result<Scalar> Scalar::MakeInt(TypePtr type, int64_t value) {
  if (type == nullptr || !IsSignedLike(type->id())) return NotOfType(type, "a signed integer");
  int64_t lo = std::numeric_limits<int64_t>::min();
  int64_t hi = std::numeric_limits<int64_t>::max();
  switch (type->id()) {
    case Type::kInt8: lo = INT8_MIN, hi = INT8_MAX; break;
    case Type::kInt16: lo = INT16_MIN, hi = INT16_MAX; break;
    case Type::kInt32:
    case Type::kDate32: lo = INT32_MIN, hi = INT32_MAX; break;
    case Type::kTime32:
    case Type::kTime64:
      lo = 0;
      hi = 86400 * TimeUnitsPerSecond(TypeAs<TemporalType>(*type).unit()) - 1;
      break;
    default: break;
  }
  if (value < lo || value > hi) {
    return Status::Invalid(fmt::format("{} is out of the range of {} [{}, {}]", value,
                                       type->ToString(), lo, hi));
  }
  Scalar s(std::move(type), true);
  s.int_ = value;
  return s;
}

Result<Scalar> Scalar::MakeUInt(TypePtr type, uint64_t value) {
  uint64_t hi = 0;
  switch (type ? type->id() : Type::kNull) {
    case Type::kUInt8: hi = UINT8_MAX; break;
    case Type::kUInt16: hi = UINT16_MAX; break;
    case Type::kUInt32: hi = UINT32_MAX; break;
    case Type::kUInt64: hi = UINT64_MAX; break;
    default: return NotOfType(type, "an unsigned integer");
  }
  if (value > hi) {
    return Status::Invalid(
        fmt::format("{} is out of the range of {} [0, {}]", value, type->ToString(), hi));
  }
  Scalar s(std::move(type), true);
  s.uint_ = value;
  return s;
}

Scalar Scalar::MakeHalfFloat(uint16_t bits) {
  Scalar s(float16(), true);
  s.uint_ = bits;
  s.double_ = util::HalfToFloat(bits);
  return s;
}

Scalar Scalar::MakeFloat(float value) {
  Scalar s(float32(), true);
  s.double_ = value;
  return s;
}

Scalar Scalar::MakeDouble(double value) {
  Scalar s(float64(), true);
  s.double_ = value;
  return s;
}

Result<Scalar> Scalar::MakeDecimal(TypePtr type, const Int256& unscaled) {
  if (type == nullptr || !IsDecimal(type->id())) return NotOfType(type, "a decimal");
  const int32_t precision = TypeAs<DecimalType>(*type).precision();
  if (static_cast<int64_t>(unscaled.MagnitudeDigits().size()) > precision) {
    return Status::Invalid(fmt::format("the unscaled value {} has more than {} digits ({})",
                                       unscaled.ToString(), precision, type->ToString()));
  }
  Scalar s(std::move(type), true);
  s.decimal_ = unscaled;
  return s;
}

Result<Scalar> Scalar::MakeBytes(TypePtr type, std::string value) {
  if (type == nullptr || !IsBytes(type->id())) return NotOfType(type, "bytes");
  if ((type->id() == Type::kString || type->id() == Type::kLargeString) &&
      !IsValidUtf8(value)) {
    return Status::Invalid(
        fmt::format("a {} scalar needs valid UTF-8 ({} bytes given)", type->ToString(),
                    value.size()));
  }
  if (type->id() == Type::kFixedSizeBinary &&
      static_cast<int64_t>(value.size()) != TypeAs<FixedSizeBinaryType>(*type).fixed_byte_width()) {
    return Status::Invalid(fmt::format("a {} scalar needs {} bytes, got {}", type->ToString(),
                                       TypeAs<FixedSizeBinaryType>(*type).fixed_byte_width(),
                                       value.size()));
  }
  Scalar s(std::move(type), true);
  s.bytes_ = std::move(value);
  return s;
}

Scalar Scalar::MakeInt64(int64_t value) {
  Scalar s(int64(), true);
  s.int_ = value;
  return s;
}

Scalar Scalar::MakeString(std::string value) {
  Scalar s(utf8(), true);
  s.bytes_ = std::move(value);
  return s;
}

Scalar Scalar::MakeBinary(std::string value) {
  Scalar s(binary(), true);
  s.bytes_ = std::move(value);
  return s;
}

Result<Scalar> Scalar::MakeStruct(TypePtr type, std::vector<Scalar> children) {
  if (type == nullptr || type->id() != Type::kStruct) return NotOfType(type, "struct fields");
  if (static_cast<int>(children.size()) != type->num_fields()) {
    return Status::Invalid(fmt::format("a {} scalar needs {} children, got {}", type->ToString(),
                                       type->num_fields(), children.size()));
  }
  for (size_t i = 0; i < children.size(); ++i) {
    const TypePtr& want = type->field(static_cast<int>(i))->type();
    if (!children[i].type()->Equals(*want)) {
      return Status::Invalid(fmt::format("child {} of a {} scalar is a {}, not a {}", i,
                                         type->ToString(), children[i].type()->ToString(),
                                         want->ToString()));
    }
  }
  Scalar s(std::move(type), true);
  s.children_ = std::make_shared<const std::vector<Scalar>>(std::move(children));
  return s;
}

// --- Equality ---------------------------------------------------------------------

bool Scalar::Equals(const Scalar& other) const {
  if (!type_->Equals(*other.type_)) return false;
  if (valid_ != other.valid_) return false;
  if (!valid_) return true;
  const Type id = type_->id();
  if (id == Type::kBool) return bool_ == other.bool_;
  if (IsSignedLike(id)) return int_ == other.int_;
  if (IsUnsignedInteger(id)) return uint_ == other.uint_;
  if (IsFloating(id)) return double_ == other.double_;
  if (IsDecimal(id)) return decimal_ == other.decimal_;
  if (id == Type::kStruct) return children() == other.children();
  return bytes_ == other.bytes_;
}

// --- Text ---------------------------------------------------------------------------

CivilDate CivilFromDays(int64_t days) {
  // H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", civil_from_days.
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  return {yoe + era * 400 + (m <= 2 ? 1 : 0), static_cast<int>(m), static_cast<int>(d)};
}

namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

std::string DateText(int64_t days) {
  const CivilDate c = CivilFromDays(days);
  return fmt::format("{:04}-{:02}-{:02}", c.year, c.month, c.day);
}

// "HH:MM:SS[.ffffff]" of `units` since midnight (0 <= units < one day),
// Python's time / datetime form: six fraction digits when there is a
// fraction (nine for nanoseconds that are not whole microseconds).
std::string TimeOfDayText(int64_t units, TimeUnit unit) {
  const int64_t per_second = TimeUnitsPerSecond(unit);
  const int64_t seconds = units / per_second;
  const int64_t fraction = units % per_second;
  std::string out = fmt::format("{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60,
                                seconds % 60);
  if (fraction != 0) {
    const int64_t nanos = fraction * (1000000000 / per_second);
    if (nanos % 1000 == 0) {
      out += fmt::format(".{:06}", nanos / 1000);
    } else {
      out += fmt::format(".{:09}", nanos);
    }
  }
  return out;
}

// "+HH:MM" / "-HH:MM" offsets, as pyarrow accepts them; UTC is +00:00.
bool FixedOffsetMinutes(const std::string& tz, int64_t* minutes) {
  if (tz == "UTC" || tz == "Z" || tz == "Etc/UTC" || tz == "utc") {
    *minutes = 0;
    return true;
  }
  if (tz.size() == 6 && (tz[0] == '+' || tz[0] == '-') && tz[3] == ':') {
    auto digit = [&](size_t i) { return tz[i] >= '0' && tz[i] <= '9'; };
    if (!digit(1) || !digit(2) || !digit(4) || !digit(5)) return false;
    const int64_t h = (tz[1] - '0') * 10 + (tz[2] - '0');
    const int64_t m = (tz[4] - '0') * 10 + (tz[5] - '0');
    *minutes = (tz[0] == '-' ? -1 : 1) * (h * 60 + m);
    return true;
  }
  return false;
}

std::string TimestampText(int64_t value, TimeUnit unit, const std::string& tz) {
  const int64_t per_second = TimeUnitsPerSecond(unit);
  const int64_t per_day = 86400 * per_second;
  int64_t offset = 0;
  const bool fixed = !tz.empty() && FixedOffsetMinutes(tz, &offset);
  // Shift into local time with 128-bit room (a shift never overflows it).
  const __int128 local = static_cast<__int128>(value) + static_cast<__int128>(offset) * 60 * per_second;
  const __int128 days128 = local >= 0 ? local / per_day : -((-local + per_day - 1) / per_day);
  const int64_t days = static_cast<int64_t>(days128);
  const int64_t rest = static_cast<int64_t>(local - days128 * per_day);
  std::string out = DateText(days) + " " + TimeOfDayText(rest, unit);
  if (tz.empty()) return out;
  if (fixed) {
    const int64_t a = offset < 0 ? -offset : offset;
    return out + fmt::format("{}{:02}:{:02}", offset < 0 ? '-' : '+', a / 60, a % 60);
  }
  return out + "[" + tz + "]";
}

// Python's str(datetime.timedelta): "[-]D day[s], H:MM:SS[.ffffff]".
std::string DurationText(int64_t value, TimeUnit unit) {
  const int64_t per_second = TimeUnitsPerSecond(unit);
  const __int128 per_day = static_cast<__int128>(86400) * per_second;
  const __int128 v = value;
  const __int128 days = v >= 0 ? v / per_day : -((-v + per_day - 1) / per_day);
  const int64_t rest = static_cast<int64_t>(v - days * per_day);
  std::string out;
  if (days != 0) {
    const int64_t d = static_cast<int64_t>(days);
    out = fmt::format("{} day{}, ", d, (d == 1 || d == -1) ? "" : "s");
  }
  std::string time = TimeOfDayText(rest, unit);
  if (time[0] == '0') time.erase(0, 1);  // Python: "1:02:03", "0:00:00"
  return out + time;
}

// Python's repr of a float: the shortest text that reads back, with ".0"
// on integral values and exponents from 1e16 and below 1e-4.
std::string DoubleText(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  std::string out = fmt::format("{}", v);
  if (out.find_first_of(".eE") == std::string::npos) out += ".0";
  // fmt writes "1e+16", Python too; fmt writes "1e-05", Python too.
  return out;
}


// Python's repr of a str ('...') or, with `bytes`, of bytes (b'...'):
// "..." when there is a ' and no ", backslash escapes for the quote, the
// backslash and control characters, and for bytes every byte from 0x7F.
std::string QuotedRepr(const std::string& text, bool bytes) {
  const bool dq = text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
  const char quote = dq ? '"' : '\'';
  std::string out = bytes ? "b" : "";
  out += quote;
  for (char ch : text) {
    const auto c = static_cast<uint8_t>(ch);
    if (c == static_cast<uint8_t>(quote) || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F || (bytes && c > 0x7F)) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  out += quote;
  return out;
}

std::string BytesText(const std::string& b) { return QuotedRepr(b, true); }

}  // namespace

std::string DecimalToString(const Int256& unscaled, int32_t scale) {
  const std::string digits = unscaled.MagnitudeDigits();
  const int64_t exp = -static_cast<int64_t>(scale);
  const int64_t n = static_cast<int64_t>(digits.size());
  const int64_t left = exp + n;
  int64_t dot;
  if (exp <= 0 && left > -6) {
    dot = left;
  } else {
    dot = 1;
  }
  std::string text;
  if (dot <= 0) {
    text = "0." + std::string(static_cast<size_t>(-dot), '0') + digits;
  } else if (dot >= n) {
    text = digits + std::string(static_cast<size_t>(dot - n), '0');
  } else {
    text = digits.substr(0, static_cast<size_t>(dot)) + "." + digits.substr(static_cast<size_t>(dot));
  }
  if (left != dot) text += fmt::format("E{:+}", left - dot);
  // Python keeps the sign of a negative zero; an unscaled integer has none.
  return unscaled.is_negative() ? "-" + text : text;
}

std::string Scalar::ToString() const {
  if (!valid_) return "None";
  switch (type_->id()) {
    case Type::kBool: return bool_ ? "True" : "False";
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64: return std::to_string(int_);
    case Type::kUInt8:
    case Type::kUInt16:
    case Type::kUInt32:
    case Type::kUInt64: return std::to_string(uint_);
    case Type::kHalfFloat:
    case Type::kFloat:
    case Type::kDouble: return DoubleText(double_);
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256: return DecimalToString(decimal_, TypeAs<DecimalType>(*type_).scale());
    case Type::kDate32: return DateText(int_);
    case Type::kDate64: return DateText(FloorDiv(int_, 86400000));
    case Type::kTime32:
    case Type::kTime64: return TimeOfDayText(int_, TypeAs<TemporalType>(*type_).unit());
    case Type::kTimestamp: {
      const auto& t = TypeAs<TemporalType>(*type_);
      return TimestampText(int_, t.unit(), t.timezone());
    }
    case Type::kDuration: return DurationText(int_, TypeAs<TemporalType>(*type_).unit());
    case Type::kString:
    case Type::kLargeString: return bytes_;
    case Type::kBinary:
    case Type::kLargeBinary:
    case Type::kFixedSizeBinary: return BytesText(bytes_);
    case Type::kStruct: {
      // pyarrow's str(StructScalar): the list of (name, value) pairs.
      std::string out = "[";
      for (size_t i = 0; i < children().size(); ++i) {
        if (i > 0) out += ", ";
        const Scalar& child = children()[i];
        const Type cid = child.type()->id();
        std::string value = child.ToString();
        if (child.is_valid() && (cid == Type::kString || cid == Type::kLargeString)) {
          value = QuotedRepr(value, false);
        } else if (child.is_valid() && IsDecimal(cid)) {
          value = "Decimal('" + value + "')";
        }
        out += "(" + QuotedRepr(type_->field(static_cast<int>(i))->name(), false) + ", " + value + ")";
      }
      return out + "]";
    }
    default: return "<" + type_->ToString() + " scalar>";
  }
}

}  // namespace quiver
