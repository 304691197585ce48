#pragma once

#include <nanobind/nanobind.h>

namespace quiver::python {

void BindIpc(nanobind::module_& m);

}  // namespace quiver::python
