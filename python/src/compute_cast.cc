// quiver.compute.cast's extension side (python/quiver/_compute_cast.py
// wraps it): the values as every quiver.compute binding takes them
// (compute_datum.h; a chunked array is cast chunk by chunk into a
// quiver.ChunkedArray), the target type as any object with
// __arrow_c_schema__ or a type string, read by a small parser of pyarrow's
// type aliases (so that quiver needs no pyarrow for it) that also reads
// the text of Arrow's type names ("timestamp[ms, tz=UTC]",
// "decimal128(10, 2)", "fixed_size_binary[3]"). The cast runs without the
// GIL.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include "common.h"
#include "compute_datum.h"
#include "objects.h"
#include "quiver/array/nulls.h"
#include "quiver/c_data/bridge.h"
#include "quiver/compute/cast.h"

namespace quiver::python {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// pyarrow's type_for_alias names (compared in lower case, as pyarrow
// does), and Arrow's own names of the same types.
TypePtr PlainAlias(const std::string& name) {
  static const std::pair<const char*, TypePtr (*)()> kAliases[] = {
      {"null", null},           {"bool", boolean},        {"boolean", boolean},
      {"i1", int8},             {"int8", int8},           {"i2", int16},
      {"int16", int16},         {"i4", int32},            {"int32", int32},
      {"i8", int64},            {"int64", int64},         {"u1", uint8},
      {"uint8", uint8},         {"u2", uint16},           {"uint16", uint16},
      {"u4", uint32},           {"uint32", uint32},       {"u8", uint64},
      {"uint64", uint64},       {"f2", float16},          {"halffloat", float16},
      {"float16", float16},     {"f4", float32},          {"float", float32},
      {"float32", float32},     {"f8", float64},          {"double", float64},
      {"float64", float64},     {"string", utf8},         {"str", utf8},
      {"utf8", utf8},           {"binary", binary},       {"large_string", large_utf8},
      {"large_str", large_utf8}, {"large_utf8", large_utf8}, {"large_binary", large_binary},
      {"binary_view", binary_view}, {"string_view", utf8_view}, {"utf8_view", utf8_view},
      {"date32", date32},       {"date64", date64},
  };
  for (const auto& [alias, make] : kAliases) {
    if (name == alias) return make();
  }
  return nullptr;
}

bool ParseUnit(std::string_view text, TimeUnit* unit) {
  for (TimeUnit u : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    if (text == TimeUnitName(u)) {
      *unit = u;
      return true;
    }
  }
  return false;
}

bool ParseInt(std::string_view text, int32_t* out) {
  text = Trim(text);
  if (text.empty() || text.size() > 9) return false;
  const bool negative = text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (text.empty()) return false;
  int32_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = negative ? -v : v;
  return true;
}

// A type from its string: pyarrow's aliases ("int64", "i8", "str",
// "timestamp[ms]", "duration[s]", "date32[day]"), case-insensitively, and
// the parameterised forms of Arrow's type names: "timestamp[ms, tz=UTC]"
// (or "timestamp[ms, UTC]"), "time32[s]", "decimal128(10, 2)",
// "fixed_size_binary[3]". Anything else: ValueError as pyarrow's.
TypePtr ParseTypeString(const std::string& text) {
  auto fail = [&]() -> TypePtr {
    throw nb::value_error(("No type alias for " + Lower(text)).c_str());
  };
  const size_t open = text.find_first_of("[(");
  const std::string name = Lower(std::string_view(text).substr(0, open));
  if (open == std::string::npos) {
    TypePtr t = PlainAlias(name);
    return t != nullptr ? t : fail();
  }
  const char close = text[open] == '[' ? ']' : ')';
  if (text.back() != close) return fail();
  const std::string_view inside =
      std::string_view(text).substr(open + 1, text.size() - open - 2);
  const size_t comma = inside.find(',');
  const std::string_view first = Trim(inside.substr(0, comma));
  const std::string_view second =
      comma == std::string_view::npos ? std::string_view() : Trim(inside.substr(comma + 1));
  const bool has_second = comma != std::string_view::npos;
  if (close == ')') {
    Type id;
    if (name == "decimal32") {
      id = Type::kDecimal32;
    } else if (name == "decimal64") {
      id = Type::kDecimal64;
    } else if (name == "decimal128" || name == "decimal") {
      id = Type::kDecimal128;
    } else if (name == "decimal256") {
      id = Type::kDecimal256;
    } else {
      return fail();
    }
    int32_t precision;
    int32_t scale;
    if (!has_second || !ParseInt(first, &precision) || !ParseInt(second, &scale)) return fail();
    return Unwrap(DecimalTypeSafe(id, precision, scale));
  }
  const std::string lower_first = Lower(first);
  TimeUnit unit;
  if (name == "timestamp") {
    if (!ParseUnit(lower_first, &unit)) return fail();
    if (!has_second) return timestamp(unit);
    std::string_view tz = second;
    if (tz.substr(0, 3) == "tz=") tz = Trim(tz.substr(3));
    if (tz.empty()) return fail();
    return timestamp(unit, std::string(tz));
  }
  if (has_second) return fail();
  if (name == "date32" && lower_first == "day") return date32();
  if (name == "date64" && lower_first == "ms") return date64();
  if (name == "time32" && ParseUnit(lower_first, &unit) &&
      (unit == TimeUnit::kSecond || unit == TimeUnit::kMilli)) {
    return time32(unit);
  }
  if (name == "time64" && ParseUnit(lower_first, &unit) &&
      (unit == TimeUnit::kMicro || unit == TimeUnit::kNano)) {
    return time64(unit);
  }
  if (name == "duration" && ParseUnit(lower_first, &unit)) return duration(unit);
  int32_t width;
  if (name == "fixed_size_binary" && ParseInt(first, &width) && width >= 0) {
    return fixed_size_binary(width);
  }
  return fail();
}

nb::object CastValues(nb::handle values, nb::handle target, bool safe) {
  const TypePtr to = TypeOfPy(target);
  const compute::CastOptions options{safe};
  return CallUnary([to, options](const compute::Datum& v) { return compute::Cast(v, to, options); }, values);
}

}  // namespace

// The target type: a type string, or any object with __arrow_c_schema__
// (a pyarrow DataType, a quiver array's type through its array).
TypePtr TypeOfPy(nb::handle obj) {
  if (PyUnicode_Check(obj.ptr())) return ParseTypeString(nb::cast<std::string>(obj));
  if (nb::hasattr(obj, "__arrow_c_schema__")) {
    nb::object capsule = obj.attr("__arrow_c_schema__")();
    ArrowSchema schema = MoveOutSchemaCapsule(capsule);
    return Unwrap(ImportType(&schema));
  }
  const std::string type_name = nb::cast<std::string>(nb::str(obj.type()));
  throw nb::type_error(("DataType expected, got " + type_name).c_str());
}

void BindComputeCast(nb::module_& c) {
  c.def("cast", &CastValues, nb::arg("values").none(), nb::arg("target_type").none(),
        nb::arg("safe"),
        "`values` (array, chunked array or scalar) cast to `target_type` (a type string or any "
        "object with __arrow_c_schema__); see python/quiver/_compute_cast.py");
  c.def(
      "type_from_string", [](const std::string& text) { return ParseTypeString(text)->ToString(); },
      "The type a type string names, as Arrow prints it (ValueError if none)");
  c.def(
      "type_for_alias", [](nb::handle text) { return WrapDataType(TypeOfPy(text)); },
      "A quiver.DataType from a type string (pyarrow.type_for_alias's aliases and Arrow's "
      "printed forms) or any object with __arrow_c_schema__");
}

}  // namespace quiver::python
