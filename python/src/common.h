// Shared helpers of the quiver._quiver extension.
#pragma once

#include <utility>

#include <nanobind/nanobind.h>

#include "quiver/array/record_batch.h"
#include "quiver/c_data/abi.h"
#include "quiver/util/result.h"

namespace quiver::python {

namespace nb = nanobind;

// Raises the quiver.QuiverError subclass for the status code, with the
// status message.
[[noreturn]] void Raise(const Status& status);

inline void Check(const Status& status) {
  if (!status.ok()) Raise(status);
}

template <typename T>
T Unwrap(Result<T> result) {
  if (!result.ok()) Raise(result.status());
  return std::move(result).ValueOrDie();
}

// A Quiver table from a quiver.Table (no copy) or any object with
// __arrow_c_stream__ / __arrow_c_array__ (zero-copy import).
TablePtr TableFromPy(nb::handle obj);

// The reader of a stream input (a pyarrow RecordBatchReader, an
// "arrow_array_stream" capsule, any object with __arrow_c_stream__ that is
// not a table: no num_rows, no __len__), to be read batch by batch; nullptr
// for any other object.
RecordBatchReaderPtr StreamFromPy(nb::handle obj);

// A quiver.Table object holding `table`.
nb::object WrapTable(TablePtr table);

// A quiver.RecordBatch object holding `batch` (__arrow_c_array__,
// __arrow_c_stream__, __arrow_c_schema__).
nb::object WrapRecordBatch(RecordBatchPtr batch);

// An array and its field (name, nullability, metadata) from a quiver.Array
// (no copy) or any object with __arrow_c_array__ (zero-copy import).
// TypeError for another object.
std::pair<ArrayPtr, FieldPtr> ArrayFromPy(nb::handle obj);

// A quiver.Array object holding `array`; `field` null: a nullable field
// named "" of the array's type.
nb::object WrapArray(ArrayPtr array, FieldPtr field = nullptr);

// An "arrow_schema" capsule of `schema`.
nb::object SchemaCapsule(const Schema& schema);

// Moves the ArrowSchema out of an "arrow_schema" capsule.
ArrowSchema MoveOutSchemaCapsule(nb::handle capsule);

}  // namespace quiver::python
