#pragma once

#include <nanobind/nanobind.h>

#include "common.h"
#include "quiver/parquet/writer/properties.h"

namespace quiver::python {

parquet::WriterOptions ParseWriterOptions(nb::dict kwargs);
void BindWriter(nb::module_& m);

}  // namespace quiver::python
