// The C++ state behind quiver.Table, RecordBatch, Array, Schema and Field
// (bound in quiver_module.cc and schema_bindings.cc; their methods in
// table_bindings.cc, pylist.cc and python/quiver/_table.py).
#pragma once

#include <nanobind/nanobind.h>

#include "quiver/array/array.h"
#include "quiver/array/record_batch.h"

namespace quiver::python {

namespace nb = nanobind;

struct PyTable {
  TablePtr table;
};

struct PyRecordBatch {
  RecordBatchPtr batch;
};

struct PyArray {
  ArrayPtr array;
  FieldPtr field;  // name "", nullability and metadata of the imported field
};

struct PySchema {
  SchemaPtr schema;
};

struct PyField {
  FieldPtr field;
};

// quiver.Schema / quiver.Field objects.
nb::object WrapSchema(SchemaPtr schema);
nb::object WrapField(FieldPtr field);
// A quiver.DataType object (python/quiver/_scalar.py) of `type`.
nb::object WrapDataType(const TypePtr& type);
// A type from a type string ("int64", "timestamp[ms, tz=UTC]": pyarrow's
// aliases and Arrow's printed forms; ValueError for another) or any object
// with __arrow_c_schema__ (a quiver or pyarrow DataType); TypeError else
// (compute_cast.cc).
TypePtr TypeOfPy(nb::handle obj);
// A schema from a quiver.Schema (no copy) or any object with
// __arrow_c_schema__ (a pyarrow Schema, a quiver or pyarrow Table...).
SchemaPtr SchemaFromPyObject(nb::handle obj);
// Key/value metadata from a dict ({str or bytes: str or bytes}; TypeError
// else) or None (nullptr).
MetadataPtr MetadataFromPy(nb::handle obj);
// The index of a field given by index (negative from the end) or name:
// quiver.IndexError / KeyError (also for a name two fields share).
int FieldIndex(const Schema& schema, nb::handle i_or_name);

// The methods of Table, RecordBatch and Array written in C++
// (table_bindings.cc): column access, slice, select, pickling bytes.
void BindTableMethods(nb::module_& m, nb::class_<PyTable>& table,
                      nb::class_<PyRecordBatch>& batch, nb::class_<PyArray>& array);
// quiver.Schema and quiver.Field (schema_bindings.cc).
void BindSchema(nb::module_& m);
// _to_pylist on arrays (pylist.cc): the values as Python objects without
// pyarrow.
nb::list ArrayToPyList(const ArrayData& data);
void BindPyList(nb::module_& m);
// _array_from_pylist (pyconvert.cc).
void BindPyConvert(nb::module_& m);

}  // namespace quiver::python
