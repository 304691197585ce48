// quiver.compute's boolean kernels and null predicates (and_, or_, xor,
// invert, and_kleene, or_kleene, is_null, is_valid, is_nan; the wrappers
// are in python/quiver/compute.py). Arguments as every quiver.compute
// function takes them (compute_datum.h: arrays, chunked arrays, scalars);
// a chunked argument gives a quiver.ChunkedArray. The kernels run without
// the GIL.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>
#include <utility>

#include "common.h"
#include "compute_datum.h"
#include "quiver/compute/boolean.h"
#include "quiver/compute/datum.h"
#include "quiver/compute/null_predicates.h"

namespace quiver::python {

namespace {

using compute::Datum;

nb::object BooleanBinary(const std::string& function, nb::handle left, nb::handle right) {
  using Kernel = Result<Datum> (*)(const Datum&, const Datum&, MemoryPool*);
  Kernel kernel = nullptr;
  if (function == "and") kernel = &compute::And;
  if (function == "or") kernel = &compute::Or;
  if (function == "xor") kernel = &compute::Xor;
  if (function == "and_kleene") kernel = &compute::AndKleene;
  if (function == "or_kleene") kernel = &compute::OrKleene;
  if (kernel == nullptr) throw nb::value_error(("unknown boolean function '" + function + "'").c_str());
  return CallBinary([kernel](const Datum& l, const Datum& r) { return kernel(l, r, DefaultMemoryPool()); },
                    left, right);
}

nb::object BooleanInvert(nb::handle values) {
  return CallUnary([](const Datum& v) { return compute::Invert(v, DefaultMemoryPool()); }, values);
}

nb::object NullPredicate(const std::string& function, nb::handle values, bool nan_is_null) {
  if (function == "is_null") {
    return CallUnary([nan_is_null](const Datum& v) { return compute::IsNull(v, nan_is_null, DefaultMemoryPool()); },
                     values);
  }
  if (function == "is_valid") {
    return CallUnary([](const Datum& v) { return compute::IsValid(v, DefaultMemoryPool()); }, values);
  }
  if (function == "is_nan") {
    return CallUnary([](const Datum& v) { return compute::IsNan(v, DefaultMemoryPool()); }, values);
  }
  throw nb::value_error(("unknown null predicate '" + function + "'").c_str());
}

}  // namespace

void BindComputeBoolean(nb::module_& c) {
  c.def("boolean", &BooleanBinary, nb::arg("function"), nb::arg("left").none(),
        nb::arg("right").none(),
        "and / or / xor / and_kleene / or_kleene of two booleans (arrays or scalars)");
  c.def("invert", &BooleanInvert, nb::arg("values").none(), "NOT of a boolean array or scalar");
  c.def("null_predicate", &NullPredicate, nb::arg("function"), nb::arg("values").none(),
        nb::arg("nan_is_null"), "is_null / is_valid / is_nan of an array or scalar");
}

}  // namespace quiver::python
