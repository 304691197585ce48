// Text to value, with pyarrow's rules (arrow/util/value_parsing.h as
// pyarrow.csv applies them), for the CSV reader and the JSON Lines reader
// alike: each parser takes the text of one value and says whether it is
// one, never reading outside it. Integers and floats ignore ASCII spaces
// around them (pyarrow trims them); the others take the text exactly.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace quiver::csv {

// Decimal digits with an optional '-', or 0x/0X hexadecimal (as pyarrow).
bool ParseInt64(std::string_view s, int64_t* out);
bool ParseUInt64(std::string_view s, uint64_t* out);
// A float as strtod reads it (also "inf", "infinity", "nan" in any case, a
// leading '+'), with `decimal_point` for '.'; no hexadecimal floats.
bool ParseDouble(std::string_view s, char decimal_point, double* out);
// YYYY-MM-DD (proleptic Gregorian, year 0000-9999): days since 1970-01-01.
bool ParseDate(std::string_view s, int32_t* days);
// hh:mm, hh:mm:ss or hh:mm:ss.f (1-9 digits): nanoseconds since midnight;
// *frac_digits the fraction's digits (0 without one).
bool ParseTimeOfDay(std::string_view s, int64_t* nanos, int* frac_digits);

// ISO 8601 as pyarrow's parser: a date, optionally ' ' or 'T' and hh,
// hh:mm, hh:mm:ss or hh:mm:ss.f (1-9 digits), optionally a zone: Z, +hh,
// +hhmm or +hh:mm (or '-'); the instant is converted to UTC.
struct Timestamp {
  int64_t seconds = 0;  // since the epoch, UTC
  int32_t nanos = 0;    // fraction of the second
  int frac_digits = 0;
  bool has_zone = false;
};
bool ParseTimestamp(std::string_view s, Timestamp* out);

// Exact matching against a list of strings (null, true or false values),
// quick to say no: candidates are looked up by first byte and length.
class StringMatcher {
 public:
  StringMatcher() = default;
  explicit StringMatcher(const std::vector<std::string>& values);
  bool Matches(std::string_view s) const {
    if (s.empty()) return has_empty_;
    for (const std::string& c : by_first_[static_cast<uint8_t>(s[0])]) {
      if (c.size() == s.size() && c == s) return true;
    }
    return false;
  }
  bool empty() const { return count_ == 0; }

 private:
  std::array<std::vector<std::string>, 256> by_first_;
  bool has_empty_ = false;
  size_t count_ = 0;
};

}  // namespace quiver::csv
