#include "quiver/csv/value_parse.h"

#include <charconv>
#include <cstring>

namespace quiver::csv {

namespace {

std::string_view TrimSpaces(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
  return s.substr(b, e - b);
}

inline bool Digits(const char* p, int n, int* out) {
  int v = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned d = static_cast<unsigned>(p[i] - '0');
    if (d > 9) return false;
    v = v * 10 + static_cast<int>(d);
  }
  *out = v;
  return true;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// days_from_civil, http://howardhinnant.github.io/date_algorithms.html).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// hh[:mm[:ss[.f]]] with at least `min_parts` parts; nanoseconds.
bool ParseClock(std::string_view s, int min_parts, int64_t* nanos, int* frac_digits) {
  int hh, mm = 0, ss = 0;
  if (s.size() < 2 || !Digits(s.data(), 2, &hh) || hh > 23) return false;
  size_t i = 2;
  int parts = 1;
  if (i < s.size() && s[i] == ':') {
    if (s.size() < i + 3 || !Digits(s.data() + i + 1, 2, &mm) || mm > 59) return false;
    i += 3;
    ++parts;
    if (i < s.size() && s[i] == ':') {
      if (s.size() < i + 3 || !Digits(s.data() + i + 1, 2, &ss) || ss > 59) return false;
      i += 3;
      ++parts;
    }
  }
  if (parts < min_parts) return false;
  int64_t frac = 0;
  int digits = 0;
  if (i < s.size() && s[i] == '.' && parts == 3) {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (++digits > 9) return false;
      frac = frac * 10 + (s[i] - '0');
      ++i;
    }
    if (digits == 0) return false;
    for (int k = digits; k < 9; ++k) frac *= 10;
  }
  if (i != s.size()) return false;
  *nanos = ((hh * 60 + mm) * 60 + ss) * int64_t{1000000000} + frac;
  *frac_digits = digits;
  return true;
}

}  // namespace

bool ParseInt64(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  if (s.front() == ' ' || s.back() == ' ' || s.front() == '\t' || s.back() == '\t') {
    s = TrimSpaces(s);
  }
  if (s.empty()) return false;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    uint64_t u;
    auto r = std::from_chars(s.data() + 2, s.data() + s.size(), u, 16);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || u > INT64_MAX) return false;
    *out = static_cast<int64_t>(u);
    return true;
  }
  // Fast path: up to 18 digits cannot overflow.
  const char* p = s.data();
  const char* end = p + s.size();
  const bool neg = *p == '-';
  if (neg) ++p;
  if (p == end || end - p > 18) {
    if (p == end) return false;
    auto r = std::from_chars(s.data(), end, *out, 10);
    return r.ec == std::errc() && r.ptr == end;
  }
  int64_t v = 0;
  for (; p < end; ++p) {
    const unsigned d = static_cast<unsigned>(*p - '0');
    if (d > 9) return false;
    v = v * 10 + d;
  }
  *out = neg ? -v : v;
  return true;
}

bool ParseUInt64(std::string_view s, uint64_t* out) {
  s = TrimSpaces(s);
  if (s.empty()) return false;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out, base);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool ParseDouble(std::string_view s, char decimal_point, double* out) {
  s = TrimSpaces(s);
  if (s.empty()) return false;
  if (s[0] == '+') {
    s.remove_prefix(1);
    if (s.empty() || s[0] == '-' || s[0] == '+') return false;
  }
  if (decimal_point != '.') {
    if (s.find('.') != std::string_view::npos) return false;
    std::string copy(s);
    for (char& c : copy) {
      if (c == decimal_point) c = '.';
    }
    auto r = std::from_chars(copy.data(), copy.data() + copy.size(), *out);
    return r.ec == std::errc() && r.ptr == copy.data() + copy.size();
  }
  // Clinger's fast path (W. D. Clinger, "How to Read Floating Point Numbers
  // Accurately", PLDI 1990): [-]digits[.digits] with at most 15 digits
  // is m / 10^k with m < 10^15 and 10^k (k <= 15) exact
  // doubles, so one correctly rounded division gives the correctly rounded
  // value, as from_chars would.
  {
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* p = s.data();
    const char* end = p + s.size();
    const bool neg = *p == '-';
    if (neg) ++p;
    const char* int_begin = p;
    uint64_t m = 0;
    while (p < end && static_cast<unsigned>(*p - '0') <= 9) m = m * 10 + static_cast<unsigned>(*p++ - '0');
    const char* int_end = p;
    const char* frac_begin = p;
    if (p < end && *p == '.') {
      frac_begin = ++p;
      while (p < end && static_cast<unsigned>(*p - '0') <= 9) m = m * 10 + static_cast<unsigned>(*p++ - '0');
    }
    const int64_t frac = p - frac_begin;
    const int64_t total = (int_end - int_begin) + frac;
    if (p == end && total > 0 && total <= 15 && frac <= 22) {
      const double v = static_cast<double>(m) / kPow10[frac];
      *out = neg ? -v : v;
      return true;
    }
  }
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  if (r.ec == std::errc::result_out_of_range) {
    // strtod's answer: +-inf or a denormal/zero, as pyarrow.
    *out = std::strtod(std::string(s).c_str(), nullptr);
    return true;
  }
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool ParseDate(std::string_view s, int32_t* days) {
  int y, m, d;
  if (s.size() != 10 || s[4] != '-' || s[7] != '-' || !Digits(s.data(), 4, &y) ||
      !Digits(s.data() + 5, 2, &m) || !Digits(s.data() + 8, 2, &d)) {
    return false;
  }
  if (m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m)) return false;
  *days = static_cast<int32_t>(DaysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)));
  return true;
}

bool ParseTimeOfDay(std::string_view s, int64_t* nanos, int* frac_digits) {
  return ParseClock(s, 2, nanos, frac_digits);
}

bool ParseTimestamp(std::string_view s, Timestamp* out) {
  int32_t days;
  if (s.size() < 10 || !ParseDate(s.substr(0, 10), &days)) return false;
  Timestamp ts;
  ts.seconds = int64_t{days} * 86400;
  if (s.size() == 10) {
    *out = ts;
    return true;
  }
  if (s[10] != ' ' && s[10] != 'T') return false;
  std::string_view rest = s.substr(11);
  // The zone: a trailing Z, or the last '+' / '-' (the clock has neither).
  int64_t offset_seconds = 0;
  if (!rest.empty() && rest.back() == 'Z') {
    ts.has_zone = true;
    rest.remove_suffix(1);
  } else {
    const size_t sign = rest.find_first_of("+-");
    if (sign != std::string_view::npos) {
      std::string_view zone = rest.substr(sign + 1);
      int zh, zm = 0;
      if (zone.size() == 2) {
        if (!Digits(zone.data(), 2, &zh)) return false;
      } else if (zone.size() == 4) {
        if (!Digits(zone.data(), 2, &zh) || !Digits(zone.data() + 2, 2, &zm)) return false;
      } else if (zone.size() == 5 && zone[2] == ':') {
        if (!Digits(zone.data(), 2, &zh) || !Digits(zone.data() + 3, 2, &zm)) return false;
      } else {
        return false;
      }
      if (zh > 23 || zm > 59) return false;
      offset_seconds = (zh * 60 + zm) * 60;
      if (rest[sign] == '-') offset_seconds = -offset_seconds;
      ts.has_zone = true;
      rest = rest.substr(0, sign);
    }
  }
  int64_t nanos;
  if (!ParseClock(rest, 1, &nanos, &ts.frac_digits)) return false;
  ts.seconds += nanos / 1000000000 - offset_seconds;
  ts.nanos = static_cast<int32_t>(nanos % 1000000000);
  *out = ts;
  return true;
}

StringMatcher::StringMatcher(const std::vector<std::string>& values) {
  for (const std::string& v : values) {
    ++count_;
    if (v.empty()) {
      has_empty_ = true;
    } else {
      by_first_[static_cast<uint8_t>(v[0])].push_back(v);
    }
  }
}

}  // namespace quiver::csv
