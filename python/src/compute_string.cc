// quiver.compute's is_in and string predicates (match_like, starts_with,
// ends_with, match_substring; src/quiver/compute set_lookup.h and
// string_predicates.h; the wrappers are python/quiver/_compute_string.py).
// The values argument is anything compute_datum.h converts (an array, a
// chunked array: a quiver.ChunkedArray back, a scalar); the kernels run
// without the GIL.
#include <nanobind/stl/string.h>

#include <string>
#include <utility>

#include "compute_datum.h"
#include "quiver/array/array.h"
#include "quiver/compute/set_lookup.h"
#include "quiver/compute/string_predicates.h"

namespace quiver::python {

namespace {

using compute::Datum;

nb::object IsIn(nb::handle values, nb::handle value_set, bool skip_nulls) {
  compute::SetLookupOptions options;
  options.value_set = ArrayFromPy(value_set).first->data();
  options.skip_nulls = skip_nulls;
  return CallUnary([options](const Datum& v) { return compute::IsIn(v, options); }, values);
}

nb::object Match(const std::string& function, nb::handle strings, nb::bytes pattern,
                 bool ignore_case) {
  compute::MatchOptions options{std::string(pattern.c_str(), pattern.size()), ignore_case};
  using Kernel = Result<Datum> (*)(const Datum&, const compute::MatchOptions&, MemoryPool*);
  Kernel kernel = nullptr;
  if (function == "match_like") kernel = &compute::MatchLike;
  if (function == "starts_with") kernel = &compute::StartsWith;
  if (function == "ends_with") kernel = &compute::EndsWith;
  if (function == "match_substring") kernel = &compute::MatchSubstring;
  if (kernel == nullptr) throw nb::value_error(("unknown string predicate '" + function + "'").c_str());
  return CallUnary([kernel, options](const Datum& v) { return kernel(v, options, DefaultMemoryPool()); },
                   strings);
}

}  // namespace

void BindComputeString(nb::module_& c) {
  c.def("is_in", &IsIn, nb::arg("values").none(), nb::arg("value_set"), nb::arg("skip_nulls"),
        "Whether each value is in value_set (an array), as pyarrow.compute.is_in");
  c.def("string_match", &Match, nb::arg("function"), nb::arg("strings").none(), nb::arg("pattern"),
        nb::arg("ignore_case"),
        "match_like / starts_with / ends_with / match_substring of strings or binaries");
}

}  // namespace quiver::python
