#include "compute_bindings.h"

#include <nanobind/stl/string.h>

#include <string>

#include "quiver/compute/simd_level.h"

namespace quiver::python {

// Aggregates (compute_agg.cc); boolean kernels and null predicates
// (compute_boolean.cc).
void BindComputeAgg(nb::module_& c);
void BindComputeBoolean(nb::module_& c);

void BindCompute(nb::module_& m) {
  nb::module_ c = m.def_submodule("_compute", "quiver.compute's kernels (python/quiver/compute.py)");
  c.def("simd_levels", [] {
    nb::dict d;
    d["detected"] = std::string(compute::SimdLevelName(compute::DetectedSimdLevel()));
    d["active"] = std::string(compute::SimdLevelName(compute::ActiveSimdLevel()));
    return d;
  }, "The SIMD level this CPU supports and the one kernels use (QUIVER_SIMD_LEVEL caps it)");
  BindComputeAgg(c);
  BindComputeBoolean(c);
}

}  // namespace quiver::python
