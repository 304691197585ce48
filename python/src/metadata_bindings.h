// quiver._quiver's _DataType, _Scalar and _Statistics: thin views of the
// library's DataType, Scalar and parquet::Statistics
// (python/quiver/_scalar.py and _parquet_metadata.py shape them).
#pragma once

#include <optional>

#include <nanobind/nanobind.h>

#include "quiver/parquet/metadata/statistics.h"

namespace quiver::python {

void BindMetadata(nanobind::module_& m);

// A _Statistics object, or None.
nanobind::object WrapStatistics(std::optional<parquet::Statistics> statistics);

}  // namespace quiver::python
