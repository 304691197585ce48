// quiver.compute's extension side (python/quiver/compute.py wraps it): the
// kernels of src/quiver/compute, one Bind* per area, each in its own
// compute_*.cc.
#pragma once

#include <nanobind/nanobind.h>

#include "common.h"

namespace quiver::python {

// quiver._quiver._compute: the submodule every compute_*.cc adds to.
void BindCompute(nb::module_& m);

}  // namespace quiver::python
