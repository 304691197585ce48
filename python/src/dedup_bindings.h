// quiver._quiver.dedup_compare: Quiver's dedup measurement (quiver/dedup) for
// Python.
#pragma once

#include <nanobind/nanobind.h>

#include "common.h"

namespace quiver::python {

void BindDedup(nb::module_& m);

}  // namespace quiver::python
