// One typed value of an Arrow data type, valid or null: what Parquet
// statistics bounds decode to, and the literal of a compute expression.
// The counterpart of Arrow C++'s arrow::Scalar, kept to one small value
// class rather than a class per type.
//
// Storage by type (the accessors say which one a type uses):
//   bool                                        bool_value()
//   int8..int64, date32 (days), date64 (ms),
//   time32/time64, timestamp, duration (in
//   their unit)                                 int_value()
//   uint8..uint64                               uint_value()
//   halffloat                                   half_bits() (and double_value())
//   float, double                               double_value() (a float widened exactly)
//   decimal32/64/128/256                        decimal(): the unscaled value as a
//                                               256-bit two's complement integer
//   string, large_string, binary,
//   large_binary, fixed_size_binary             bytes() (owned)
//   struct                                      children(): one Scalar per field
// Other types (lists, maps, dictionary, intervals, views) have only null
// scalars here: Make* refuses them.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/util/result.h"

namespace quiver {

// A 256-bit two's complement integer, four 64-bit words, least significant
// first (Arrow's Decimal256 layout; a Decimal128 is its low two words,
// sign-extended).
struct Int256 {
  std::array<uint64_t, 4> words{};

  static Int256 FromInt64(int64_t v);
  // Big-endian two's complement bytes, 1 to 32 of them (Parquet's DECIMAL
  // on BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY), sign-extended.
  static Result<Int256> FromBigEndian(std::string_view bytes);
  bool is_negative() const { return (words[3] >> 63) != 0; }
  // Whether the value fits a signed integer of `bits` bits (1..256).
  bool FitsInBits(int bits) const;
  // Decimal digits of the magnitude ("0" for zero).
  std::string MagnitudeDigits() const;
  // The value in decimal ("-123").
  std::string ToString() const;
  friend bool operator==(const Int256&, const Int256&) = default;
};

class Scalar {
 public:
  // A null of the null type.
  Scalar();

  // A null of `type` (any type).
  static Scalar MakeNull(TypePtr type);
  static Scalar MakeBool(bool value);
  // Signed integers, dates, times, timestamps, durations: Invalid for
  // another type or a value out of the type's range (a time of day outside
  // one day included).
  static Result<Scalar> MakeInt(TypePtr type, int64_t value);
  // Unsigned integers: Invalid for another type or a value out of range.
  static Result<Scalar> MakeUInt(TypePtr type, uint64_t value);
  static Scalar MakeHalfFloat(uint16_t bits);
  static Scalar MakeFloat(float value);
  static Scalar MakeDouble(double value);
  // Decimals: Invalid unless the unscaled value has at most the type's
  // precision in digits.
  static Result<Scalar> MakeDecimal(TypePtr type, const Int256& unscaled);
  // string / large_string (Invalid unless valid UTF-8), binary /
  // large_binary, fixed_size_binary (Invalid unless of its width).
  static Result<Scalar> MakeBytes(TypePtr type, std::string value);
  // Shorthands for the common types.
  static Scalar MakeInt64(int64_t value);
  static Scalar MakeString(std::string value);  // utf8; the caller vouches for UTF-8
  static Scalar MakeBinary(std::string value);
  // A valid struct scalar (min_max's {min, max}): one child per field of
  // `type`, each of its field's type (Invalid otherwise). A null struct
  // is MakeNull(struct type), without children.
  static Result<Scalar> MakeStruct(TypePtr type, std::vector<Scalar> children);

  const TypePtr& type() const { return type_; }
  bool is_valid() const { return valid_; }

  bool bool_value() const { return bool_; }
  int64_t int_value() const { return int_; }
  uint64_t uint_value() const { return uint_; }
  uint16_t half_bits() const { return static_cast<uint16_t>(uint_); }
  double double_value() const { return double_; }
  const Int256& decimal() const { return decimal_; }
  const std::string& bytes() const { return bytes_; }
  const std::vector<Scalar>& children() const { return children_ ? *children_ : NoChildren(); }

  // Same type and, when valid, the same value. Floating point values compare
  // as numbers (NaN equals no value, -0.0 equals 0.0), as Arrow's default
  // ScalarEquals.
  bool Equals(const Scalar& other) const;
  friend bool operator==(const Scalar& a, const Scalar& b) { return a.Equals(b); }

  // As Python prints pyarrow's scalar (str(scalar), which is
  // str(scalar.as_py())): "None", "True", "12", "1.5", "0.1" (a float32
  // widened: "0.10000000149011612"), "12.30" (decimal(4, 2)), "2024-01-31",
  // "2024-01-31 12:00:00.500000+00:00" (timestamp[us, tz=UTC]),
  // "12:00:00", "1 day, 0:00:01" (duration), the text of a string, "b'a\x00'"
  // (binary), "[('min', 1), ('max', 'b')]" (struct, as pyarrow prints its
  // StructScalar: a child prints as Python's repr of it for numbers,
  // strings, bytes and None, and as its text for other types). Beyond Python: nanoseconds that are not whole microseconds
  // print with nine digits, and a timestamp whose zone is not UTC or a fixed
  // offset prints in UTC followed by "[zone]".
  std::string ToString() const;

 private:
  // A scalar of `type` (kept as given), null unless `valid`: what every Make*
  // starts from, without first taking the null type.
  Scalar(TypePtr type, bool valid) noexcept : type_(std::move(type)), valid_(valid) {}
  static const std::vector<Scalar>& NoChildren();

  TypePtr type_;
  bool valid_ = false;
  bool bool_ = false;
  int64_t int_ = 0;
  uint64_t uint_ = 0;
  double double_ = 0;
  Int256 decimal_;
  std::string bytes_;
  // Struct only, immutable once made (shared by copies): a pointer keeps
  // moving and destroying the other scalars to one word.
  std::shared_ptr<const std::vector<Scalar>> children_;
};

// unscaled * 10^-scale as Python's str(decimal.Decimal) writes it, which is
// also Arrow C++'s Decimal::ToString: "12.30", "-0.05", "1E+3" (a negative
// scale), "1E-7" (an adjusted exponent below -6).
std::string DecimalToString(const Int256& unscaled, int32_t scale);

// Civil date of a day count since 1970-01-01 (proleptic Gregorian; H.
// Hinnant's days_from_civil inverse).
struct CivilDate {
  int64_t year;
  int month;
  int day;
};
CivilDate CivilFromDays(int64_t days);

}  // namespace quiver
