#include "compute_bindings.h"

#include <nanobind/stl/string.h>

#include <string>

#include "compute_datum.h"
#include "quiver/compute/simd_level.h"

namespace quiver::python {

void BindComputeSelect(nb::module_& c);  // compute_select.cc
// Aggregates (compute_agg.cc); boolean kernels and null predicates
// (compute_boolean.cc).
void BindComputeAgg(nb::module_& c);
void BindComputeBoolean(nb::module_& c);
void BindComputeString(nb::module_& c);  // compute_string.cc
void BindComputeCast(nb::module_& c);  // compute_cast.cc
void BindComputeExpression(nb::module_& c);  // compute_expression.cc
void BindComputeSort(nb::module_& c);  // compute_sort.cc

void BindCompute(nb::module_& m) {
  nb::module_ c = m.def_submodule("_compute", "quiver.compute's kernels (python/quiver/compute.py)");
  c.def("simd_levels", [] {
    nb::dict d;
    d["detected"] = std::string(compute::SimdLevelName(compute::DetectedSimdLevel()));
    d["active"] = std::string(compute::SimdLevelName(compute::ActiveSimdLevel()));
    return d;
  }, "The SIMD level this CPU supports and the one kernels use (QUIVER_SIMD_LEVEL caps it)");
  c.def("last_simd_level", [] { return nb::str(std::string(compute::SimdLevelName(compute::LastSimdLevel())).c_str()); },
        "The level the last kernel call on this thread ran at");
  BindChunkedArray(m);
  BindArithmetic(c);
  BindComputeSelect(c);
  BindComputeAgg(c);
  BindComputeBoolean(c);
  BindComputeString(c);
  BindComputeCast(c);
  BindComputeExpression(c);
  BindComputeSort(c);
}

}  // namespace quiver::python
