#pragma once

#include <nanobind/nanobind.h>

#include "common.h"
#include "quiver/parquet/writer/properties.h"

namespace quiver::python {

parquet::WriterOptions ParseWriterOptions(nb::dict kwargs);
// encryption_bindings.cc: the C++ properties of quiver.encryption_properties().
std::shared_ptr<const parquet::FileEncryptionProperties> ToEncryptionProperties(nb::handle p);
void BindEncryption(nb::module_& m);
void BindWriter(nb::module_& m);

}  // namespace quiver::python
