// The Python extension module quiver._quiver (nanobind).
//
// Data crosses the boundary only through the Arrow PyCapsule interface
// (https://arrow.apache.org/docs/format/CDataInterface/PyCapsuleInterface.html):
// quiver.table(obj) / quiver.array(obj) accept any object with
// __arrow_c_stream__ / __arrow_c_array__ and import it zero-copy; Quiver's
// Table and Array expose the same dunder methods, so pyarrow, polars and duckdb
// accept them. C++ Status errors become quiver.QuiverError subclasses with the
// same message.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/record_batch.h"
#include "quiver/c_data/abi.h"
#include "quiver/c_data/bridge.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/version.h"
#include "common.h"
#include "objects.h"
#include "metadata_bindings.h"
#include "reader_bindings.h"
#include "writer_bindings.h"
#include "dedup_bindings.h"
#include "ipc_bindings.h"
#include "output_bindings.h"
#include "compute_bindings.h"

namespace nb = nanobind;

namespace quiver::python {

void BindPruning(nb::module_& m);  // pruning_bindings.cc (private: tests)
void BindFooter(nb::module_& m);   // footer_bindings.cc (summary files)
void BindAppend(nb::module_& m);   // append_bindings.cc
void BindCsv(nb::module_& m);      // csv_bindings.cc
void BindJson(nb::module_& m);     // json_bindings.cc

namespace {

const char* ExceptionName(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalid: return "InvalidError";
    case StatusCode::kIOError: return "IOError";
    case StatusCode::kOutOfMemory: return "OutOfMemoryError";
    case StatusCode::kNotImplemented: return "NotImplementedError";
    case StatusCode::kKeyError: return "KeyError";
    case StatusCode::kTypeError: return "TypeError";
    case StatusCode::kIndexError: return "IndexError";
    case StatusCode::kCapacityError: return "CapacityError";
    default: return "QuiverError";
  }
}


// --- PyCapsules -------------------------------------------------------------

constexpr char kSchemaCapsule[] = "arrow_schema";
constexpr char kArrayCapsule[] = "arrow_array";
constexpr char kStreamCapsule[] = "arrow_array_stream";

// The destructor of a capsule named kName holding a T (ArrowSchema,
// ArrowArray, ArrowArrayStream) allocated with AllocateReleased: the
// struct released if it still holds data, then freed.
template <typename T, const char* kName>
void ReleaseCapsule(PyObject* capsule) noexcept {
  auto* p = static_cast<T*>(PyCapsule_GetPointer(capsule, kName));
  if (p == nullptr) {
    PyErr_Clear();
    return;
  }
  if (p->release != nullptr) p->release(p);
  std::free(p);
}
constexpr auto ReleaseSchemaCapsule = ReleaseCapsule<ArrowSchema, kSchemaCapsule>;
constexpr auto ReleaseArrayCapsule = ReleaseCapsule<ArrowArray, kArrayCapsule>;
constexpr auto ReleaseStreamCapsule = ReleaseCapsule<ArrowArrayStream, kStreamCapsule>;

template <typename T>
T* AllocateReleased() {
  auto* p = static_cast<T*>(std::calloc(1, sizeof(T)));
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

nb::object SchemaCapsuleImpl(const Schema& schema) {
  auto* c = AllocateReleased<ArrowSchema>();
  Status st = ExportSchema(schema, c);
  if (!st.ok()) {
    std::free(c);
    Raise(st);
  }
  return nb::steal(PyCapsule_New(c, kSchemaCapsule, ReleaseSchemaCapsule));
}

nb::object TypeCapsule(const Field& field) {
  auto* c = AllocateReleased<ArrowSchema>();
  Status st = ExportField(field, c);
  if (!st.ok()) {
    std::free(c);
    Raise(st);
  }
  return nb::steal(PyCapsule_New(c, kSchemaCapsule, ReleaseSchemaCapsule));
}

// Moves the struct out of a capsule (the capsule's copy is marked released,
// so its destructor does nothing more), per the PyCapsule protocol.
template <typename T>
T MoveOut(nb::handle capsule, const char* name) {
  auto* p = static_cast<T*>(PyCapsule_GetPointer(capsule.ptr(), name));
  if (p == nullptr) throw nb::python_error();
  if (p->release == nullptr) Raise(Status::Invalid("the ", name, " capsule was already consumed"));
  T out = *p;
  p->release = nullptr;
  return out;
}

// --- Python-visible objects -------------------------------------------------

TablePtr TableFromStreamCapsule(nb::handle capsule) {
  ArrowArrayStream stream = MoveOut<ArrowArrayStream>(capsule, kStreamCapsule);
  RecordBatchReaderPtr reader;
  {
    nb::gil_scoped_release release;
    auto r = ImportRecordBatchReader(&stream);
    if (!r.ok()) {
      nb::gil_scoped_acquire acquire;
      Raise(r.status());
    }
    reader = std::move(r).ValueOrDie();
  }
  Result<TablePtr> table = [&] {
    nb::gil_scoped_release release;
    return reader->ToTable();
  }();
  return Unwrap(std::move(table));
}

// A pandas DataFrame (through pyarrow's from_pandas, which stores the index
// and the pandas metadata as pyarrow writes them).
bool IsPandasFrame(nb::handle obj) {
  nb::object module = nb::getattr(obj.type(), "__module__", nb::none());
  if (module.is_none()) return false;
  const std::string name = nb::cast<std::string>(nb::str(module));
  return name.rfind("pandas", 0) == 0 && nb::hasattr(obj, "iloc") && nb::hasattr(obj, "columns");
}

PyTable MakeTable(nb::object obj) {
  if (IsPandasFrame(obj)) {
    nb::object t = nb::module_::import_("quiver._table").attr("_from_pandas")(obj);
    return PyTable{nb::cast<const PyTable&>(t).table};
  }
  if (PyCapsule_CheckExact(obj.ptr())) return PyTable{TableFromStreamCapsule(obj)};
  if (nb::hasattr(obj, "__arrow_c_stream__")) {
    nb::object capsule = obj.attr("__arrow_c_stream__")();
    return PyTable{TableFromStreamCapsule(capsule)};
  }
  if (nb::hasattr(obj, "__arrow_c_array__")) {
    nb::tuple pair = nb::borrow<nb::tuple>(obj.attr("__arrow_c_array__")());
    ArrowSchema schema = MoveOut<ArrowSchema>(pair[0], kSchemaCapsule);
    ArrowArray array = MoveOut<ArrowArray>(pair[1], kArrayCapsule);
    RecordBatchPtr batch = Unwrap(ImportRecordBatch(&array, &schema));
    return PyTable{Unwrap(Table::FromRecordBatches(batch->schema(), {batch}))};
  }
  throw nb::type_error(
      "quiver.table() needs an object with __arrow_c_stream__ or __arrow_c_array__ "
      "(a pyarrow Table/RecordBatch, a polars DataFrame, a duckdb result, ...)");
}

PyArray MakeArrayFromPy(nb::object obj) {
  if (!nb::hasattr(obj, "__arrow_c_array__")) {
    throw nb::type_error("quiver.array() needs an object with __arrow_c_array__");
  }
  nb::tuple pair = nb::borrow<nb::tuple>(obj.attr("__arrow_c_array__")());
  ArrowSchema schema = MoveOut<ArrowSchema>(pair[0], kSchemaCapsule);
  FieldPtr field;
  {
    // ImportField consumes the schema; keep a copy of the type for the array.
    field = Unwrap(ImportField(&schema));
  }
  ArrowArray array = MoveOut<ArrowArray>(pair[1], kArrayCapsule);
  ArrayDataPtr data = Unwrap(ImportArray(&array, field->type()));
  return PyArray{MakeArray(std::move(data)), field};
}

}  // namespace

std::pair<ArrayPtr, FieldPtr> ArrayFromPy(nb::handle obj) {
  if (nb::isinstance<PyArray>(obj)) {
    const PyArray& a = nb::cast<const PyArray&>(obj);
    return {a.array, a.field};
  }
  PyArray a = MakeArrayFromPy(nb::borrow<nb::object>(obj));
  return {std::move(a.array), std::move(a.field)};
}

nb::object WrapArray(ArrayPtr array, FieldPtr field) {
  if (field == nullptr) field = quiver::field("", array->type(), true);
  return nb::cast(PyArray{std::move(array), std::move(field)});
}

namespace {

nb::object TableStream(const PyTable& self, nb::object requested_schema) {
  auto reader = Unwrap(RecordBatchReader::FromTable(self.table));
  auto* c = AllocateReleased<ArrowArrayStream>();
  Status st = ExportRecordBatchReader(std::move(reader), c);
  if (!st.ok()) {
    std::free(c);
    Raise(st);
  }
  return nb::steal(PyCapsule_New(c, kStreamCapsule, ReleaseStreamCapsule));
}

nb::tuple BatchCapsules(const PyRecordBatch& self) {
  auto* schema = AllocateReleased<ArrowSchema>();
  auto* array = AllocateReleased<ArrowArray>();
  Status st = ExportRecordBatch(*self.batch, array, schema);
  if (!st.ok()) {
    std::free(schema);
    std::free(array);
    Raise(st);
  }
  nb::object schema_capsule = nb::steal(PyCapsule_New(schema, kSchemaCapsule, ReleaseSchemaCapsule));
  nb::object array_capsule = nb::steal(PyCapsule_New(array, kArrayCapsule, ReleaseArrayCapsule));
  return nb::make_tuple(schema_capsule, array_capsule);
}

nb::object BatchStream(const PyRecordBatch& self, nb::object) {
  auto reader = RecordBatchReader::FromBatches(self.batch->schema(), {self.batch});
  auto* c = AllocateReleased<ArrowArrayStream>();
  Status st = ExportRecordBatchReader(std::move(reader), c);
  if (!st.ok()) {
    std::free(c);
    Raise(st);
  }
  return nb::steal(PyCapsule_New(c, kStreamCapsule, ReleaseStreamCapsule));
}

nb::tuple ArrayCapsules(const PyArray& self) {
  nb::object schema = TypeCapsule(*self.field);
  auto* c = AllocateReleased<ArrowArray>();
  Status st = ExportArray(self.array->data(), c);
  if (!st.ok()) {
    std::free(c);
    Raise(st);
  }
  nb::object array = nb::steal(PyCapsule_New(c, kArrayCapsule, ReleaseArrayCapsule));
  return nb::make_tuple(schema, array);
}

}  // namespace

[[noreturn]] void Raise(const Status& status) {
  nb::object module = nb::module_::import_("quiver");
  nb::object cls = module.attr(ExceptionName(status.code()));
  // A message may quote bytes that are not UTF-8 (a value that failed to
  // parse): decoded with replacement characters, as pyarrow does.
  const std::string& message = status.message();
  nb::object text = nb::steal(PyUnicode_DecodeUTF8(message.data(),
                                                   static_cast<Py_ssize_t>(message.size()), "replace"));
  PyErr_SetObject(cls.ptr(), text.ptr());
  throw nb::python_error();
}

RecordBatchReaderPtr StreamFromPy(nb::handle obj) {
  nb::object capsule;
  if (PyCapsule_CheckExact(obj.ptr())) {
    if (std::strcmp(PyCapsule_GetName(obj.ptr()), kStreamCapsule) != 0) return nullptr;
    capsule = nb::borrow(obj);
  } else {
    if (nb::isinstance<PyTable>(obj) || nb::isinstance<PyRecordBatch>(obj)) return nullptr;
    if (!nb::hasattr(obj, "__arrow_c_stream__") || nb::hasattr(obj, "num_rows") ||
        nb::hasattr(obj, "__len__")) {
      return nullptr;
    }
    capsule = obj.attr("__arrow_c_stream__")();
  }
  ArrowArrayStream stream = MoveOut<ArrowArrayStream>(capsule, kStreamCapsule);
  Result<RecordBatchReaderPtr> reader = [&] {
    nb::gil_scoped_release release;
    return ImportRecordBatchReader(&stream);
  }();
  return Unwrap(std::move(reader));
}

TablePtr TableFromPy(nb::handle obj) {
  if (nb::isinstance<PyTable>(obj)) return nb::cast<const PyTable&>(obj).table;
  return MakeTable(nb::borrow(obj)).table;
}

nb::object WrapTable(TablePtr table) { return nb::cast(PyTable{std::move(table)}); }

nb::object WrapRecordBatch(RecordBatchPtr batch) {
  return nb::cast(PyRecordBatch{std::move(batch)});
}

nb::object SchemaCapsule(const Schema& schema) { return SchemaCapsuleImpl(schema); }

ArrowSchema MoveOutSchemaCapsule(nb::handle capsule) {
  return MoveOut<ArrowSchema>(capsule, kSchemaCapsule);
}

NB_MODULE(_quiver, m) {
  m.doc() = "Quiver's C++ core (use the quiver package)";

  auto table_class = nb::class_<PyTable>(m, "Table", "An immutable Arrow table held by Quiver")
      .def_prop_ro("num_rows", [](const PyTable& t) { return t.table->num_rows(); })
      .def_prop_ro("num_columns", [](const PyTable& t) { return t.table->num_columns(); })
      .def_prop_ro("column_names",
                   [](const PyTable& t) {
                     std::vector<std::string> names;
                     for (const auto& f : t.table->schema()->fields()) names.push_back(f->name());
                     return names;
                   })
      .def("num_chunks", [](const PyTable& t, int i) {
        if (i < 0 || i >= t.table->num_columns()) throw nb::index_error("column index out of range");
        return t.table->column(i)->num_chunks();
      })
      .def("validate", [](const PyTable& t) { Check(t.table->ValidateFull()); },
           "Full validation (offsets, UTF-8, dictionary indices...); raises InvalidError")
      .def("equals",
           [](const PyTable& a, const PyTable& b) { return a.table->Equals(*b.table); })
      .def("__len__", [](const PyTable& t) { return t.table->num_rows(); })
      .def("__repr__",
           [](const PyTable& t) {
             return "quiver.Table (" + std::to_string(t.table->num_rows()) + " rows)\n" +
                    t.table->schema()->ToString();
           })
      .def("__arrow_c_stream__", &TableStream, nb::arg("requested_schema") = nb::none())
      .def("__arrow_c_schema__",
           [](const PyTable& t) { return SchemaCapsuleImpl(*t.table->schema()); });

  auto batch_class = nb::class_<PyRecordBatch>(m, "RecordBatch", "An immutable Arrow record batch held by Quiver")
      .def_prop_ro("num_rows", [](const PyRecordBatch& b) { return b.batch->num_rows(); })
      .def_prop_ro("num_columns", [](const PyRecordBatch& b) { return b.batch->num_columns(); })
      .def("validate", [](const PyRecordBatch& b) { Check(b.batch->ValidateFull()); })
      .def("__len__", [](const PyRecordBatch& b) { return b.batch->num_rows(); })
      .def("__repr__",
           [](const PyRecordBatch& b) {
             return "quiver.RecordBatch (" + std::to_string(b.batch->num_rows()) + " rows)\n" +
                    b.batch->schema()->ToString();
           })
      .def("__arrow_c_array__", [](const PyRecordBatch& b, nb::object) { return BatchCapsules(b); },
           nb::arg("requested_schema") = nb::none())
      .def("__arrow_c_stream__", &BatchStream, nb::arg("requested_schema") = nb::none())
      .def("__arrow_c_schema__",
           [](const PyRecordBatch& b) { return SchemaCapsuleImpl(*b.batch->schema()); });

  auto array_class = nb::class_<PyArray>(m, "Array", "An immutable Arrow array held by Quiver")
      .def("__len__", [](const PyArray& a) { return a.array->length(); })
      .def_prop_ro("null_count", [](const PyArray& a) { return a.array->null_count(); })
      .def("validate", [](const PyArray& a) { Check(a.array->ValidateFull()); })
      .def("__repr__", [](const PyArray& a) { return a.array->ToString(); })
      .def("__arrow_c_array__", [](const PyArray& a, nb::object) { return ArrayCapsules(a); },
           nb::arg("requested_schema") = nb::none())
      .def("__arrow_c_schema__", [](const PyArray& a) { return TypeCapsule(*a.field); })
      .def("to_pyarrow",
           [](nb::object self) { return nb::module_::import_("pyarrow").attr("array")(self); },
           "A pyarrow.Array of the same data (zero-copy through __arrow_c_array__)")
      .def("equals",
           [](const PyArray& a, nb::handle other) {
             return a.array->Equals(*ArrayFromPy(other).first);
           },
           "Same type, length, nulls and values (pyarrow's Array.equals)");

  BindSchema(m);
  BindTableMethods(m, table_class, batch_class, array_class);
  BindPyList(m);
  BindPyConvert(m);

  m.def("table", &MakeTable, nb::arg("data"),
        "A Quiver table from any object with __arrow_c_stream__ or __arrow_c_array__");
  m.def("array", &MakeArrayFromPy, nb::arg("data"),
        "A Quiver array from any object with __arrow_c_array__");
  BindOutput(m);
  BindWriter(m);
  BindEncryption(m);
  BindAppend(m);
  BindCsv(m);
  BindJson(m);
  BindDedup(m);
  BindIpc(m);
  BindMetadata(m);
  BindCompute(m);
  BindReader(m);
  BindPruning(m);
  BindFooter(m);

  m.def("memory_pool_backend", [] { return DefaultMemoryPool()->backend_name(); },
        "The default memory pool's backend (jemalloc, mimalloc or system)");
  // CMake's project version (pyproject.toml reads it from CMakeLists.txt too).
  m.attr("__version__") = std::string(Version());
  m.attr("build_commit") = std::string(BuildCommit());
}

}  // namespace quiver::python
