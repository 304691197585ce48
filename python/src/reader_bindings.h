#pragma once

#include <nanobind/nanobind.h>

#include "common.h"

namespace quiver::python {

void BindReader(nb::module_& m);

}  // namespace quiver::python
