// The type is_in compares in, and the casts that bring its arguments there,
// as pyarrow 26 does (set_lookup_internal.h), measured against pyarrow:
//
//  1. A timestamp with a time zone against one without, and string /
//     large_string values against a value set that is not binary, string,
//     large_binary or large_string, are TypeErrors.
//  2. Equal types compare as they are.
//  3. Else the value set is cast to the values' type (a safe cast); when
//     that fails (any value out of range, truncated, not parsed, ...), the
//     values are cast to the value set's type instead, if Arrow has that
//     cast (no cast from a non-binary type to string: TypeError), and that
//     cast's error is the call's; without a cast either way, TypeError
//     "Array type doesn't match type of values set: V vs S".
//
// The casts are the ones pyarrow's safe Cast does for these pairs: numbers
// and booleans among each other, decimals (rescaled exactly, precision
// checked) and integers, temporal unit changes, dates and timestamps
// (without a time zone), integers of the temporal types' width, the binary
// and string layouts (UTF-8 checked towards strings; only validity and
// bytes matter to a lookup, so no bytes are copied), fixed_size_binary, and
// strings parsed as integers, floats and booleans. A pair Arrow casts that
// is not among these (numbers formatted as strings, floats to decimals,
// strings parsed as dates, zoned timestamps to dates, timestamps to times)
// is NotImplemented naming is_in and both types.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "quiver/array/array.h"
#include "quiver/array/builder.h"
#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/array/nulls.h"
#include "quiver/compute/arithmetic_internal.h"
#include "quiver/compute/binary_reader_internal.h"
#include "quiver/compute/boolean_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/compare_internal.h"
#include "quiver/compute/set_lookup_internal.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/float16.h"
#include "quiver/util/utf8.h"

namespace quiver::compute::internal {

namespace {

// How a cast came out.
enum class Outcome { kOk, kFailed, kNoCast, kUnsupported };
struct Cast {
  Outcome outcome = Outcome::kOk;
  ArrayDataPtr array;  // kOk
  Status error;        // kFailed: pyarrow's error
};
Cast Ok(ArrayDataPtr a) { return {Outcome::kOk, std::move(a), Status::OK()}; }
Cast Failed(Status st) { return {Outcome::kFailed, nullptr, std::move(st)}; }
Cast NoCast() { return {Outcome::kNoCast, nullptr, Status::OK()}; }
Cast Unsupported() { return {Outcome::kUnsupported, nullptr, Status::OK()}; }

bool IsBinaryFamily(Type id) { return IsBinaryLike(id) || IsLargeBinaryLike(id) || IsBinaryView(id); }
// Arrow's is_base_binary_like: binary, string and their large forms.
bool IsBaseBinary(Type id) { return IsBinaryLike(id) || IsLargeBinaryLike(id); }
bool IsPlainString(Type id) { return id == Type::kString || id == Type::kLargeString; }
bool IsNumberOrBool(Type id) { return IsNumeric(id) || id == Type::kBool || id == Type::kHalfFloat; }

bool Valid(const ArrayData& a, int64_t i) {
  const uint8_t* v = a.MayHaveNulls() ? a.validity() : nullptr;
  return v == nullptr || bit_util::GetBit(v, a.offset + i);
}

// An array of `to` with `in`'s validity and fixed-width values written by
// put(i, out_slot) -> Status for each valid slot (null slots zeroed).
template <typename Put>
Cast MapFixed(const ArrayData& in, const TypePtr& to, MemoryPool* pool, Put&& put) {
  const int64_t width = FixedWidthBytes(*to);
  Result<MutableBuffer> values = AllocateOutput(in.length * width, pool);
  if (!values.ok()) return Failed(values.status());
  uint8_t* out = values->data();
  for (int64_t i = 0; i < in.length; ++i) {
    uint8_t* slot = out + i * width;
    if (!Valid(in, i)) {
      std::memset(slot, 0, static_cast<size_t>(width));
      continue;
    }
    Status st = put(i, slot);
    if (!st.ok()) return Failed(std::move(st));
  }
  Result<std::shared_ptr<Buffer>> validity = ValidityAtZero(in, pool);
  if (!validity.ok()) return Failed(validity.status());
  const int64_t nulls = *validity == nullptr ? 0 : in.GetNullCount();
  return Ok(ArrayData::Make(to, in.length, {*std::move(validity), values->Freeze()}, nulls));
}

template <typename T>
void Store(uint8_t* slot, T v) {
  std::memcpy(slot, &v, sizeof(T));
}

// Slot i of a numeric, half-float or boolean array as a double or an
// integer (its own kind).
double NumberAsDouble(const ArrayData& a, int64_t i) {
  switch (a.type->id()) {
    case Type::kBool: return bit_util::GetBit(a.buffers[1]->data(), a.offset + i) ? 1.0 : 0.0;
    case Type::kHalfFloat: return util::HalfToFloat(a.GetValues<uint16_t>(1)[i]);
    default:
      return VisitNumeric(a.type->id(), [&](auto tag) { return static_cast<double>(a.GetValues<decltype(tag)>(1)[i]); });
  }
}

// Arrow's message for a float that is not an integer of the target (or out
// of its range): "Float value 2.500000 was truncated converting to int64".
Status Truncated(double v, const DataType& to) {
  char buf[400];
  std::snprintf(buf, sizeof(buf), "%f", v);
  return Status::Invalid("Float value ", buf, " was truncated converting to ", to.ToString());
}

// Numbers and booleans among each other (the target not half-float).
Cast CastNumber(const ArrayData& in, const TypePtr& to, MemoryPool* pool) {
  const Type from = in.type->id();
  const Type tid = to->id();
  if (tid == Type::kHalfFloat) return Unsupported();
  if (IsNumeric(from) && IsNumeric(tid) &&
      !(IsFloating(from) && IsInteger(tid)) && !(from == Type::kDouble && tid == Type::kFloat)) {
    // The promotion casts: integer range, integer to float precision,
    // float widening.
    Result<MutableBuffer> values = AllocateOutput(in.length * FixedWidthBytes(*to), pool);
    if (!values.ok()) return Failed(values.status());
    Status st = CastNumericValues(in, *to, values->data());
    if (!st.ok()) return Failed(std::move(st));
    Result<std::shared_ptr<Buffer>> validity = ValidityAtZero(in, pool);
    if (!validity.ok()) return Failed(validity.status());
    const int64_t nulls = *validity == nullptr ? 0 : in.GetNullCount();
    return Ok(ArrayData::Make(to, in.length, {*std::move(validity), values->Freeze()}, nulls));
  }
  if (tid == Type::kBool) {
    // Nonzero is true (NaN too). The values land in a byte each, packed
    // below.
    const int64_t n = in.length;
    Result<MutableBuffer> bits = NewBitmap(n, pool);
    if (!bits.ok()) return Failed(bits.status());
    for (int64_t i = 0; i < n; ++i) {
      const bool v = Valid(in, i) && NumberAsDouble(in, i) != 0.0;
      bit_util::SetBitTo(bits->data(), i, v);
    }
    Result<std::shared_ptr<Buffer>> validity = ValidityAtZero(in, pool);
    if (!validity.ok()) return Failed(validity.status());
    const int64_t nulls = *validity == nullptr ? 0 : in.GetNullCount();
    return Ok(ArrayData::Make(to, n, {*std::move(validity), bits->Freeze()}, nulls));
  }
  return VisitNumeric(tid, [&](auto tag) -> Cast {
    using Out = decltype(tag);
    return MapFixed(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
      const double v = NumberAsDouble(in, i);
      if constexpr (std::is_floating_point_v<Out>) {
        Store(slot, static_cast<Out>(v));  // float64 to float32: unchecked, as Arrow's
      } else {
        if (from == Type::kBool) {
          Store(slot, static_cast<Out>(v));
          return Status::OK();
        }
        // Integral and in range ([-2^63, 2^63) for int64: the bounds are
        // powers of two, exact as doubles).
        const double hi = std::ldexp(1.0, std::numeric_limits<Out>::digits);
        const double lo = std::is_signed_v<Out> ? -hi : 0.0;
        if (!(v >= lo && v < hi) || std::trunc(v) != v) return Truncated(v, *to);
        Store(slot, static_cast<Out>(v));
      }
      return Status::OK();
    });
  });
}

// --- Decimals -------------------------------------------------------------
// Unscaled values as a sign and a 256-bit magnitude (four 64-bit words,
// least significant first): enough for decimal256's 76 digits.

struct Magnitude {
  uint64_t w[4] = {0, 0, 0, 0};
  bool negative = false;

  static Magnitude Load(const uint8_t* p, int64_t width) {
    uint8_t bytes[32];
    std::memcpy(bytes, p, static_cast<size_t>(width));
    const uint8_t fill = (p[width - 1] & 0x80) != 0 ? 0xFF : 0x00;
    std::memset(bytes + width, fill, static_cast<size_t>(32 - width));
    Magnitude m;
    for (int k = 0; k < 4; ++k) std::memcpy(&m.w[k], bytes + 8 * k, 8);
    if (fill != 0) {
      m.negative = true;
      m.Negate();
    }
    return m;
  }
  void Negate() {  // two's complement of the words
    unsigned carry = 1;
    for (uint64_t& x : w) {
      x = ~x + carry;
      carry = carry != 0 && x == 0 ? 1 : 0;
    }
  }
  void StoreTo(uint8_t* p, int64_t width) const {
    Magnitude t = *this;
    if (negative) t.Negate();
    uint8_t bytes[32];
    for (int k = 0; k < 4; ++k) std::memcpy(bytes + 8 * k, &t.w[k], 8);
    std::memcpy(p, bytes, static_cast<size_t>(width));
  }
  bool IsZero() const { return (w[0] | w[1] | w[2] | w[3]) == 0; }
  void MulSmall(uint64_t m) {
    unsigned __int128 carry = 0;
    for (uint64_t& x : w) {
      const unsigned __int128 p = static_cast<unsigned __int128>(x) * m + carry;
      x = static_cast<uint64_t>(p);
      carry = p >> 64;
    }
  }
  uint64_t DivSmall(uint64_t d) {  // returns the remainder
    unsigned __int128 rem = 0;
    for (int k = 3; k >= 0; --k) {
      const unsigned __int128 cur = (rem << 64) | w[k];
      w[k] = static_cast<uint64_t>(cur / d);
      rem = cur % d;
    }
    return static_cast<uint64_t>(rem);
  }
  bool Less(const Magnitude& o) const {
    for (int k = 3; k >= 0; --k) {
      if (w[k] != o.w[k]) return w[k] < o.w[k];
    }
    return false;
  }
  static Magnitude Pow10(int p) {
    Magnitude m;
    m.w[0] = 1;
    for (int k = 0; k < p; ++k) m.MulSmall(10);
    return m;
  }
};

Cast CastDecimal(const ArrayData& in, const TypePtr& to, MemoryPool* pool) {
  const Type from = in.type->id();
  const Type tid = to->id();
  const bool from_dec = IsDecimal(from);
  const bool to_dec = IsDecimal(tid);
  if ((from_dec && !to_dec && !IsInteger(tid)) || (to_dec && !from_dec && !IsInteger(from))) {
    return (IsFloating(from) || IsFloating(tid)) ? Unsupported() : NoCast();
  }
  if (to_dec) {
    const auto& dt = TypeAs<DecimalType>(*to);
    const Magnitude limit = Magnitude::Pow10(dt.precision());
    const int64_t width = FixedWidthBytes(*to);
    if (!from_dec) {  // integer to decimal: a check of the types
      const int need = IntegerDigits(from) + dt.scale();
      if (dt.precision() < need) {
        return Failed(Status::Invalid("Precision is not great enough for the result. It should be at least ", need));
      }
      return MapFixed(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
        Magnitude m;
        const bool neg = IsSignedInteger(from) && VisitNumeric(from, [&](auto tag) {
                           return static_cast<int64_t>(in.GetValues<decltype(tag)>(1)[i]) < 0;
                         });
        const uint64_t mag = VisitNumeric(from, [&](auto tag) -> uint64_t {
          using T = decltype(tag);
          const T v = in.GetValues<T>(1)[i];
          if constexpr (std::is_signed_v<T>) {
            return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
          } else {
            return static_cast<uint64_t>(v);
          }
        });
        m.w[0] = mag;
        m.negative = neg;
        for (int k = 0; k < dt.scale(); ++k) m.MulSmall(10);
        m.StoreTo(slot, width);
        return Status::OK();
      });
    }
    const auto& ft = TypeAs<DecimalType>(*in.type);
    const int64_t in_width = FixedWidthBytes(*in.type);
    const uint8_t* values = in.buffers[1]->data() + in.offset * in_width;
    return MapFixed(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
      Magnitude m = Magnitude::Load(values + i * in_width, in_width);
      for (int k = ft.scale(); k < dt.scale(); ++k) m.MulSmall(10);
      for (int k = dt.scale(); k < ft.scale(); ++k) {
        if (m.DivSmall(10) != 0) return Status::Invalid("Rescaling Decimal value would cause data loss");
      }
      if (!m.Less(limit)) {
        return Status::Invalid("Decimal value does not fit in precision ", dt.precision());
      }
      m.StoreTo(slot, width);
      return Status::OK();
    });
  }
  // Decimal to integer: integral and in range.
  const auto& ft = TypeAs<DecimalType>(*in.type);
  const int64_t in_width = FixedWidthBytes(*in.type);
  const uint8_t* values = in.buffers[1]->data() + in.offset * in_width;
  return VisitNumeric(tid, [&](auto tag) -> Cast {
    using Out = decltype(tag);
    return MapFixed(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
      Magnitude m = Magnitude::Load(values + i * in_width, in_width);
      for (int k = 0; k < ft.scale(); ++k) {
        if (m.DivSmall(10) != 0) return Status::Invalid("Rescaling Decimal value would cause data loss");
      }
      const bool fits64 = (m.w[1] | m.w[2] | m.w[3]) == 0;
      const __int128 v = m.negative ? -static_cast<__int128>(m.w[0]) : static_cast<__int128>(m.w[0]);
      if (!fits64 || v < std::numeric_limits<Out>::min() || v > std::numeric_limits<Out>::max()) {
        return Status::Invalid("Integer value out of bounds");
      }
      Store(slot, static_cast<Out>(v));
      return Status::OK();
    });
  });
}

// --- Temporal types ---------------------------------------------------------

bool Is32Bit(Type id) { return id == Type::kDate32 || id == Type::kTime32; }

int64_t TemporalValue(const ArrayData& a, int64_t i) {
  return Is32Bit(a.type->id()) ? a.GetValues<int32_t>(1)[i] : a.GetValues<int64_t>(1)[i];
}

// Ticks per second (dates: per day in their unit: date32 counts days).
int64_t TicksPerSecond(const DataType& t) {
  switch (TypeAs<TemporalType>(t).unit()) {
    case TimeUnit::kSecond: return 1;
    case TimeUnit::kMilli: return 1000;
    case TimeUnit::kMicro: return 1000000;
    case TimeUnit::kNano: return 1000000000;
  }
  return 1;
}

// v * num / den exactly, or pyarrow's error.
Cast Rescale(const ArrayData& in, const TypePtr& to, int64_t num, int64_t den, bool floor,
             MemoryPool* pool) {
  const bool out32 = Is32Bit(to->id());
  return MapFixed(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
    const int64_t v = TemporalValue(in, i);
    int64_t r;
    if (num > 1) {
      if (__builtin_mul_overflow(v, num, &r)) {
        return Status::Invalid("Casting from ", in.type->ToString(), " to ", to->ToString(),
                               " would result in out of bounds timestamp: ", v);
      }
    } else {
      r = v / den;
      if (v % den != 0) {
        if (!floor) {
          return Status::Invalid("Casting from ", in.type->ToString(), " to ", to->ToString(),
                                 " would lose data: ", v);
        }
        if (v < 0) --r;
      }
    }
    if (out32) {
      Store(slot, static_cast<int32_t>(r));
    } else {
      Store(slot, r);
    }
    return Status::OK();
  });
}

// Values reinterpreted as another type of the same width (int64 <->
// timestamp, ...): the buffers shared.
Cast Reinterpret(const ArrayData& in, const TypePtr& to) {
  auto out = std::make_shared<ArrayData>(in);
  out->type = to;
  return Ok(std::move(out));
}

Cast CastTemporal(const ArrayData& in, const TypePtr& to, MemoryPool* pool) {
  const Type from = in.type->id();
  const Type tid = to->id();
  const bool from_t = IsTemporal(from);
  const bool to_t = IsTemporal(tid);
  if (!from_t || !to_t) {  // integers of the same width, both ways
    const Type t = from_t ? from : tid;
    const Type other = from_t ? tid : from;
    const bool ok32 = (t == Type::kDate32 || t == Type::kTime32) && other == Type::kInt32;
    const bool ok64 = !Is32Bit(t) && other == Type::kInt64;
    return ok32 || ok64 ? Reinterpret(in, to) : NoCast();
  }
  const bool ftime = from == Type::kTime32 || from == Type::kTime64;
  const bool ttime = tid == Type::kTime32 || tid == Type::kTime64;
  if (ftime != ttime) return from == Type::kTimestamp ? Unsupported() : NoCast();
  if ((from == Type::kDuration) != (tid == Type::kDuration)) return NoCast();
  constexpr int64_t kMsPerDay = 86400000;
  const bool fdate = from == Type::kDate32 || from == Type::kDate64;
  const bool tdate = tid == Type::kDate32 || tid == Type::kDate64;
  // Ticks per day of a date, per second of the others.
  auto ticks = [&](const DataType& t, bool date) -> int64_t {
    if (t.id() == Type::kDate32) return 1;
    if (t.id() == Type::kDate64) return kMsPerDay;
    return date ? TicksPerSecond(t) * 86400 : TicksPerSecond(t);
  };
  if (fdate && tdate) {
    return from == Type::kDate32 ? Rescale(in, to, kMsPerDay, 1, false, pool)
                                 : Rescale(in, to, 1, kMsPerDay, false, pool);
  }
  if (fdate) {  // to a timestamp (days or ms to its unit)
    const int64_t per_day = ticks(*to, true);
    return from == Type::kDate32 ? Rescale(in, to, per_day, 1, false, pool)
                                 : (per_day >= 1000 ? Rescale(in, to, per_day / 1000, 1, false, pool)
                                                    : Rescale(in, to, 1, 1000 / per_day, false, pool));
  }
  if (tdate) {  // a timestamp to a date: the day it falls in (floor)
    if (!TypeAs<TemporalType>(*in.type).timezone().empty()) return Unsupported();
    const int64_t per_day = ticks(*in.type, true);
    if (tid == Type::kDate32) return Rescale(in, to, 1, per_day, true, pool);
    // date64: ms at the day's start.
    return MapFixed(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
      const int64_t v = TemporalValue(in, i);
      int64_t days = v / per_day;
      if (v % per_day != 0 && v < 0) --days;
      Store(slot, days * kMsPerDay);
      return Status::OK();
    });
  }
  const int64_t a = ticks(*in.type, false);
  const int64_t b = ticks(*to, false);
  if (a == b) {
    if (Is32Bit(from) == Is32Bit(tid)) return Reinterpret(in, to);
    return Rescale(in, to, 1, 1, false, pool);
  }
  return b > a ? Rescale(in, to, b / a, 1, false, pool) : Rescale(in, to, 1, a / b, false, pool);
}

// --- Strings and bytes --------------------------------------------------------

// A byte string parsed as a number or boolean, as Arrow's string casts
// parse: integers in decimal (no sign for unsigned types, no '+', no
// spaces), floats as from_chars reads them (and a leading '+'), booleans
// true / false / 1 / 0 in any case.
Cast ParseStrings(const ArrayData& in, const TypePtr& to, MemoryPool* pool) {
  const Type tid = to->id();
  const BinReader<BinLayout::kAny> reader(in);
  auto fail = [&](std::string_view s) {
    if (tid == Type::kBool) return Status::Invalid("Failed to parse value: ", s);
    return Status::Invalid("Failed to parse string: '", s, "' as a scalar of type ", to->ToString());
  };
  if (tid == Type::kBool) {
    Result<MutableBuffer> bits = NewBitmap(in.length, pool);
    if (!bits.ok()) return Failed(bits.status());
    for (int64_t i = 0; i < in.length; ++i) {
      bool v = false;
      if (Valid(in, i)) {
        std::string lower(reader(i));
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower == "true" || lower == "1") {
          v = true;
        } else if (lower != "false" && lower != "0") {
          return Failed(fail(reader(i)));
        }
      }
      bit_util::SetBitTo(bits->data(), i, v);
    }
    Result<std::shared_ptr<Buffer>> validity = ValidityAtZero(in, pool);
    if (!validity.ok()) return Failed(validity.status());
    const int64_t nulls = *validity == nullptr ? 0 : in.GetNullCount();
    return Ok(ArrayData::Make(to, in.length, {*std::move(validity), bits->Freeze()}, nulls));
  }
  if (!IsNumeric(tid)) return Unsupported();
  return VisitNumeric(tid, [&](auto tag) -> Cast {
    using Out = decltype(tag);
    return MapFixed(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
      const std::string_view s = reader(i);
      const char* begin = s.data();
      const char* end = s.data() + s.size();
      if constexpr (std::is_floating_point_v<Out>) {
        if (begin != end && *begin == '+') ++begin;
      }
      Out v{};
      const auto [ptr, ec] = std::from_chars(begin, end, v);
      if (s.empty() || ec != std::errc() || ptr != end) return fail(s);
      Store(slot, v);
      return Status::OK();
    });
  });
}

Cast CastBytes(const ArrayDataPtr& in_ptr, const TypePtr& to, MemoryPool* pool) {
  const ArrayData& in = *in_ptr;
  const Type from = in.type->id();
  const Type tid = to->id();
  if (tid == Type::kFixedSizeBinary) {
    if (!IsBinaryFamily(from) && from != Type::kFixedSizeBinary) return NoCast();
    const int64_t width = TypeAs<FixedSizeBinaryType>(*to).fixed_byte_width();
    const BinReader<BinLayout::kAny> reader(in);
    for (int64_t i = 0; i < in.length; ++i) {
      if (Valid(in, i) && static_cast<int64_t>(reader(i).size()) != width) {
        return Failed(Status::Invalid("Failed casting from ", in.type->ToString(), " to ",
                                      to->ToString(), ": widths must match"));
      }
    }
    return Ok(in_ptr);  // read as bytes by the lookup
  }
  if (IsBinaryFamily(tid)) {
    if (!IsBinaryFamily(from) && from != Type::kFixedSizeBinary) {
      // Arrow formats numbers, dates, ... as strings, not as binary.
      return IsStringLike(tid) && from != Type::kIntervalMonthDayNano ? Unsupported() : NoCast();
    }
    if (IsStringLike(tid) && !IsStringLike(from)) {
      const BinReader<BinLayout::kAny> reader(in);
      for (int64_t i = 0; i < in.length; ++i) {
        if (Valid(in, i) && !IsValidUtf8(reader(i))) return Failed(Status::Invalid("Invalid UTF8 payload"));
      }
    }
    return Ok(in_ptr);
  }
  // From strings or bytes to another type: parsed.
  if (from == Type::kFixedSizeBinary) return NoCast();
  if (IsNumberOrBool(tid)) return ParseStrings(in, to, pool);
  return tid == Type::kIntervalMonthDayNano ? NoCast() : Unsupported();
}

// pyarrow's safe cast of `in` to `to` for is_in, as the top of this file
// says.
Cast LookupCast(const ArrayDataPtr& in, const TypePtr& to, MemoryPool* pool) {
  const Type from = in->type->id();
  const Type tid = to->id();
  if (in->type->Equals(*to)) return Ok(in);
  if (from == Type::kNull) {
    Result<ArrayDataPtr> nulls = MakeArrayOfNulls(to, in->length, pool);
    return nulls.ok() ? Ok(*std::move(nulls)) : Failed(nulls.status());
  }
  if (tid == Type::kNull) return NoCast();
  if (from == Type::kDictionary) {
    Result<ArrayDataPtr> decoded = DecodeDictionary(*in, pool);
    if (!decoded.ok()) return Failed(decoded.status());
    return LookupCast(*decoded, to, pool);
  }
  if (tid == Type::kDictionary) return NoCast();  // pyarrow's is_in never encodes the values
  if (IsBinaryFamily(from) || IsBinaryFamily(tid) || from == Type::kFixedSizeBinary ||
      tid == Type::kFixedSizeBinary) {
    return CastBytes(in, to, pool);
  }
  const bool from_dec = IsDecimal(from);
  const bool to_dec = IsDecimal(tid);
  if (from_dec || to_dec) return CastDecimal(*in, to, pool);
  if (IsTemporal(from) || IsTemporal(tid)) return CastTemporal(*in, to, pool);
  if (IsNumberOrBool(from) && IsNumberOrBool(tid)) return CastNumber(*in, to, pool);
  if (from == tid) return Unsupported();  // intervals of other parameters
  return NoCast();
}

Status Mismatch(const DataType& values, const DataType& set) {
  return Status::TypeError("Array type doesn't match type of values set: ", values.ToString(),
                           " vs ", set.ToString());
}

Status QuiverLacks(const DataType& from, const DataType& to) {
  return Status::NotImplemented("is_in: Quiver cannot yet cast ", from.ToString(), " to ",
                                to.ToString(), " (pyarrow's is_in would)");
}

}  // namespace

Result<LookupPlan> PlanLookup(const ArrayDataPtr& values, const ArrayDataPtr& set,
                              MemoryPool* pool) {
  const TypePtr& vtype = values->type->id() == Type::kDictionary
                             ? TypeAs<DictionaryType>(*values->type).value_type()
                             : values->type;
  const DataType& v = *vtype;
  const DataType& s = *set->type;
  if (v.id() == Type::kTimestamp && s.id() == Type::kTimestamp &&
      TypeAs<TemporalType>(v).timezone().empty() != TypeAs<TemporalType>(s).timezone().empty()) {
    return Status::TypeError(
        "Cannot compare timestamp with timezone to timestamp without timezone, got: ",
        v.ToString(), " and ", s.ToString());
  }
  if (IsPlainString(v.id()) && !IsBaseBinary(s.id())) return Mismatch(v, s);
  // string_view values (pyarrow has no kernel for them): any binary-like set.
  if (v.id() == Type::kStringView && !IsBinaryFamily(s.id())) return Mismatch(v, s);
  if (v.Equals(s)) return LookupPlan{values, set};
  Cast to_values = LookupCast(set, vtype, pool);
  if (to_values.outcome == Outcome::kOk) return LookupPlan{values, to_values.array};
  if (to_values.outcome == Outcome::kUnsupported) return QuiverLacks(s, v);
  // The other way: the values cast to the value set's type.
  ArrayDataPtr plain = values;
  if (values->type->id() == Type::kDictionary) {
    QUIVER_ASSIGN_OR_RAISE(plain, DecodeDictionary(*values, pool));
  }
  Cast to_set = LookupCast(plain, set->type, pool);
  switch (to_set.outcome) {
    case Outcome::kOk:
      if (IsPlainString(s.id()) && !IsBaseBinary(v.id())) return Mismatch(v, s);
      return LookupPlan{to_set.array, set};
    case Outcome::kFailed:
      if (IsPlainString(s.id()) && !IsBaseBinary(v.id())) return Mismatch(v, s);
      return to_set.error;
    case Outcome::kNoCast: return Mismatch(v, s);
    case Outcome::kUnsupported: break;
  }
  if (IsPlainString(s.id()) && !IsBaseBinary(v.id())) return Mismatch(v, s);
  return QuiverLacks(v, s);
}

}  // namespace quiver::compute::internal
