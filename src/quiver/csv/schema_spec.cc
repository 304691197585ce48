#include "quiver/csv/schema_spec.h"

#include <cctype>

namespace quiver::csv {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Result<TimeUnit> ParseUnit(std::string_view u, std::string_view type) {
  u = Trim(u);
  if (u == "s") return TimeUnit::kSecond;
  if (u == "ms") return TimeUnit::kMilli;
  if (u == "us") return TimeUnit::kMicro;
  if (u == "ns") return TimeUnit::kNano;
  return Status::Invalid("'", type, "': the unit must be s, ms, us or ns");
}

}  // namespace

Result<TypePtr> ParseTypeName(std::string_view text) {
  const std::string_view t = Trim(text);
  static const std::pair<const char*, TypePtr (*)()> kSimple[] = {
      {"null", null},        {"bool", boolean},       {"boolean", boolean},
      {"int8", int8},        {"int16", int16},        {"int32", int32},
      {"int64", int64},      {"uint8", uint8},        {"uint16", uint16},
      {"uint32", uint32},    {"uint64", uint64},      {"float", float32},
      {"float32", float32},  {"double", float64},     {"float64", float64},
      {"string", utf8},      {"utf8", utf8},          {"large_string", large_utf8},
      {"large_utf8", large_utf8}, {"binary", binary}, {"large_binary", large_binary},
      {"date32", date32},    {"date64", date64},
  };
  for (const auto& [name, make] : kSimple) {
    if (t == name) return make();
  }
  const size_t open = t.find('[');
  if (open != std::string_view::npos && t.back() == ']') {
    const std::string_view base = t.substr(0, open);
    const std::string_view args = t.substr(open + 1, t.size() - open - 2);
    if (base == "time32" || base == "time64") {
      QUIVER_ASSIGN_OR_RAISE(TimeUnit unit, ParseUnit(args, t));
      const bool small = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
      if (small != (base == "time32")) {
        return Status::Invalid("'", t, "': time32 takes s or ms, time64 us or ns");
      }
      return small ? time32(unit) : time64(unit);
    }
    if (base == "timestamp") {
      const size_t comma = args.find(',');
      QUIVER_ASSIGN_OR_RAISE(TimeUnit unit, ParseUnit(args.substr(0, comma), t));
      if (comma == std::string_view::npos) return timestamp(unit);
      std::string_view tz = Trim(args.substr(comma + 1));
      if (tz.substr(0, 3) != "tz=") {
        return Status::Invalid("'", t, "': expected timestamp[UNIT] or timestamp[UNIT, tz=UTC]");
      }
      tz = Trim(tz.substr(3));
      if (tz != "UTC") {
        return Status::NotImplemented("'", t, "': the CSV reader stores zoned timestamps in UTC ",
                                      "(tz=UTC); convert to another zone afterwards");
      }
      return timestamp(unit, "UTC");
    }
  }
  return Status::Invalid("unknown or unsupported type '", t,
                         "' (see docs/interfaces.md: CSV --schema types)");
}

Result<std::map<std::string, TypePtr>> ParseSchemaSpec(std::string_view spec) {
  std::map<std::string, TypePtr> out;
  size_t i = 0;
  while (i < spec.size()) {
    while (i < spec.size() && spec[i] == ' ') ++i;
    std::string name;
    if (i < spec.size() && spec[i] == '"') {
      ++i;
      while (true) {
        if (i >= spec.size()) return Status::Invalid("--schema: unclosed \" in a column name");
        if (spec[i] == '"') {
          if (i + 1 < spec.size() && spec[i + 1] == '"') {
            name.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        name.push_back(spec[i++]);
      }
      if (i >= spec.size() || spec[i] != ':') {
        return Status::Invalid("--schema: expected ':' after the column name \"", name, "\"");
      }
    } else {
      const size_t colon = spec.find(':', i);
      if (colon == std::string_view::npos) {
        return Status::Invalid("--schema: '", spec.substr(i), "' is not NAME:TYPE");
      }
      name = std::string(Trim(spec.substr(i, colon - i)));
      i = colon;
    }
    ++i;  // ':'
    // The type runs to the next ',' outside brackets.
    size_t end = i;
    int depth = 0;
    while (end < spec.size() && (depth > 0 || spec[end] != ',')) {
      if (spec[end] == '[') ++depth;
      if (spec[end] == ']') --depth;
      ++end;
    }
    auto type = ParseTypeName(spec.substr(i, end - i));
    if (!type.ok()) {
      return Status::Invalid("--schema: column '", name, "': ", type.status().message());
    }
    if (!out.emplace(name, *type).second) {
      return Status::Invalid("--schema: column '", name, "' is given twice");
    }
    i = end + (end < spec.size() ? 1 : 0);
  }
  if (out.empty()) return Status::Invalid("--schema: no column given");
  return out;
}

}  // namespace quiver::csv
