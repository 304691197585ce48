#include "option_values.h"

#include "common.h"

namespace quiver::python {

[[noreturn]] void BadOption(const std::string& name, const std::string& why) {
  Raise(Status::Invalid("option ", name, ": ", why));
}

bool IsStr(nb::handle h) { return nb::isinstance<nb::str>(h); }

std::string Str(nb::handle h, const std::string& name) {
  if (!IsStr(h)) BadOption(name, "expected a string");
  return nb::cast<std::string>(h);
}

int64_t Int(nb::handle h, const std::string& name) {
  if (nb::isinstance<nb::bool_>(h) || !nb::isinstance<nb::int_>(h)) BadOption(name, "expected an integer");
  int64_t v = 0;
  if (!nb::try_cast<int64_t>(h, v)) BadOption(name, "integer out of range");
  return v;
}

int32_t Int32(nb::handle h, const std::string& name) {
  const int64_t v = Int(h, name);
  if (v < INT32_MIN || v > INT32_MAX) BadOption(name, "integer out of range");
  return static_cast<int32_t>(v);
}

nb::iterator Iter(nb::handle h, const std::string& name, const char* expected) {
  if (IsStr(h) || !nb::hasattr(h, "__iter__")) BadOption(name, expected);
  return nb::iter(h);
}

nb::dict Dict(nb::handle h, const std::string& name, const char* expected) {
  if (!nb::isinstance<nb::dict>(h)) BadOption(name, expected);
  return nb::borrow<nb::dict>(h);
}

bool Bool(nb::handle h, const std::string& name) {
  if (!nb::isinstance<nb::bool_>(h)) BadOption(name, "expected True or False");
  return nb::cast<bool>(h);
}

}  // namespace quiver::python
