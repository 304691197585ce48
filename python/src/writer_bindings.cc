// quiver.write_parquet / quiver.ParquetWriter: pyarrow-compatible keyword
// options (docs/interfaces.md) parsed into parquet::WriterOptions.
#include "writer_bindings.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <string>

#include "quiver/io/memory.h"
#include "quiver/c_data/abi.h"
#include "quiver/c_data/bridge.h"
#include "quiver/io/interfaces.h"
#include "quiver/parquet/writer/file_writer.h"

namespace nb = nanobind;

namespace quiver::python {

namespace {

using parquet::WriterOptions;

[[noreturn]] void BadOption(const std::string& name, const std::string& why) {
  Raise(Status::Invalid("option ", name, ": ", why));
}

bool IsStr(nb::handle h) { return nb::isinstance<nb::str>(h); }

std::string Str(nb::handle h, const std::string& name) {
  if (!IsStr(h)) BadOption(name, "expected a string");
  return nb::cast<std::string>(h);
}

int64_t Int(nb::handle h, const std::string& name) {
  if (nb::isinstance<nb::bool_>(h) || !nb::isinstance<nb::int_>(h)) BadOption(name, "expected an integer");
  int64_t v = 0;
  if (!nb::try_cast<int64_t>(h, v)) BadOption(name, "integer out of range");
  return v;
}

// An integer that must fit in 32 bits (levels, column indexes).
int32_t Int32(nb::handle h, const std::string& name) {
  const int64_t v = Int(h, name);
  if (v < INT32_MIN || v > INT32_MAX) BadOption(name, "integer out of range");
  return static_cast<int32_t>(v);
}

// A container to iterate over (not a string, which would iterate characters).
nb::iterator Iter(nb::handle h, const std::string& name, const char* expected) {
  if (IsStr(h) || !nb::hasattr(h, "__iter__")) BadOption(name, expected);
  return nb::iter(h);
}

nb::dict Dict(nb::handle h, const std::string& name, const char* expected) {
  if (!nb::isinstance<nb::dict>(h)) BadOption(name, expected);
  return nb::borrow<nb::dict>(h);
}

bool Bool(nb::handle h, const std::string& name) {
  if (!nb::isinstance<nb::bool_>(h)) BadOption(name, "expected True or False");
  return nb::cast<bool>(h);
}

// bool, or a list of column names (True for those, False otherwise).
void BoolOrColumns(nb::handle h, const std::string& name, parquet::PerColumn<bool>* out) {
  if (nb::isinstance<nb::bool_>(h)) {
    out->default_value = nb::cast<bool>(h);
    return;
  }
  out->default_value = false;
  for (nb::handle item : Iter(h, name, "expected a bool or a list of column names")) {
    out->by_column[Str(item, name)] = true;
  }
}

compression::CompressionCodec Codec(nb::handle h, const std::string& name) {
  if (h.is_none()) return compression::CompressionCodec::UNCOMPRESSED;
  auto c = compression::ParseCompression(Str(h, name));
  if (!c.ok()) Raise(c.status());
  return *c;
}

parquet::CdcOptions Cdc(nb::handle h) {
  parquet::CdcOptions cdc;
  nb::dict d = nb::borrow<nb::dict>(h);
  bool has_min = false, has_max = false;
  for (auto [k, v] : d) {
    std::string key = Str(k, "use_content_defined_chunking");
    if (key == "min_chunk_size") {
      cdc.min_chunk_size = Int(v, "use_content_defined_chunking.min_chunk_size");
      has_min = true;
    } else if (key == "max_chunk_size") {
      cdc.max_chunk_size = Int(v, "use_content_defined_chunking.max_chunk_size");
      has_max = true;
    } else if (key == "norm_level") {
      cdc.norm_level = Int32(v, "use_content_defined_chunking.norm_level");
    } else {
      BadOption("use_content_defined_chunking", "unknown key '" + key + "'");
    }
  }
  if (!has_min || !has_max) {
    BadOption("use_content_defined_chunking",
              "a dict needs both 'min_chunk_size' and 'max_chunk_size'");
  }
  return cdc;
}

}  // namespace

WriterOptions ParseWriterOptions(nb::dict kwargs) {
  WriterOptions o;
  for (auto [key_h, value] : kwargs) {
    const std::string key = nb::cast<std::string>(key_h);
    if (key == "compression") {
      if (nb::isinstance<nb::dict>(value)) {
        o.compression.default_value = compression::CompressionCodec::UNCOMPRESSED;
        for (auto [c, v] : nb::borrow<nb::dict>(value)) o.compression.by_column[Str(c, key)] = Codec(v, key);
      } else {
        o.compression.default_value = Codec(value, key);
      }
    } else if (key == "compression_level") {
      if (value.is_none()) continue;
      if (nb::isinstance<nb::dict>(value)) {
        for (auto [c, v] : nb::borrow<nb::dict>(value)) {
          o.compression_level.by_column[Str(c, key)] = Int32(v, key);
        }
      } else {
        o.compression_level.default_value = Int32(value, key);
      }
    } else if (key == "use_dictionary") {
      BoolOrColumns(value, key, &o.use_dictionary);
    } else if (key == "dictionary_cost_fallback") {
      BoolOrColumns(value, key, &o.dictionary_cost_fallback);
    } else if (key == "write_statistics") {
      BoolOrColumns(value, key, &o.write_statistics);
    } else if (key == "use_byte_stream_split") {
      BoolOrColumns(value, key, &o.use_byte_stream_split);
    } else if (key == "dictionary_pagesize_limit") {
      if (!value.is_none()) o.dictionary_pagesize_limit = Int(value, key);
    } else if (key == "data_page_version") {
      auto v = parquet::ParseDataPageVersion(Str(value, key));
      if (!v.ok()) Raise(v.status());
      o.data_page_version = *v;
    } else if (key == "data_page_size") {
      if (!value.is_none()) o.data_page_size = Int(value, key);
    } else if (key == "max_rows_per_page") {
      if (!value.is_none()) o.max_rows_per_page = Int(value, key);
    } else if (key == "write_batch_size") {
      if (!value.is_none()) o.write_batch_size = Int(value, key);
    } else if (key == "row_group_size") {
      if (!value.is_none()) o.row_group_size = Int(value, key);
    } else if (key == "row_group_bytes") {
      if (!value.is_none()) o.row_group_bytes = Int(value, key);
    } else if (key == "write_page_index") {
      o.write_page_index = Bool(value, key);
    } else if (key == "write_page_checksum") {
      o.write_page_checksum = Bool(value, key);
    } else if (key == "store_schema") {
      o.store_schema = Bool(value, key);
    } else if (key == "validate_utf8") {
      o.validate_utf8 = Bool(value, key);
    } else if (key == "use_threads") {
      o.use_threads = Bool(value, key);
    } else if (key == "column_encoding") {
      if (value.is_none()) continue;
      for (auto [c, v] : Dict(value, key, "give a dict {column: encoding}")) {
        auto e = parquet::ParseColumnEncoding(Str(v, key));
        if (!e.ok()) Raise(e.status());
        o.column_encoding[Str(c, key)] = *e;
      }
    } else if (key == "bloom_filter_options") {
      if (value.is_none()) continue;
      if (nb::isinstance<nb::bool_>(value)) {
        if (nb::cast<bool>(value)) o.bloom_filter.default_value = parquet::BloomFilterOptions{};
        continue;
      }
      for (auto [c, v] : Dict(value, key, "expected True or a dict {column: {'ndv': int, 'fpp': float}}")) {
        parquet::BloomFilterOptions b;
        nb::dict bd = Dict(v, key, "expected a dict {'ndv': int, 'fpp': float} for each column");
        if (bd.contains("ndv")) b.ndv = Int(bd["ndv"], key + ".ndv");
        if (bd.contains("fpp")) {
          nb::handle fpp = bd["fpp"];
          if (nb::isinstance<nb::bool_>(fpp) ||
              !(nb::isinstance<nb::float_>(fpp) || nb::isinstance<nb::int_>(fpp))) {
            BadOption(key + ".fpp", "expected a number");
          }
          b.fpp = nb::cast<double>(fpp);
        }
        o.bloom_filter.by_column[Str(c, key)] = b;
      }
    } else if (key == "sorting_columns") {
      if (value.is_none()) continue;
      for (nb::handle item : Iter(value, key, "expected a list of (column index, descending, nulls_first)")) {
        parquet::SortingColumn s;
        if (nb::hasattr(item, "column_index")) {
          s.column_index = Int32(item.attr("column_index"), key);
          s.descending = Bool(item.attr("descending"), key);
          s.nulls_first = Bool(item.attr("nulls_first"), key);
        } else {
          if (!nb::isinstance<nb::tuple>(item)) {
            BadOption(key, "each entry is (column index, descending, nulls_first)");
          }
          nb::tuple t = nb::borrow<nb::tuple>(item);
          if (t.size() != 3) BadOption(key, "each entry is (column index, descending, nulls_first)");
          s.column_index = Int32(t[0], key);
          s.descending = Bool(t[1], key);
          s.nulls_first = Bool(t[2], key);
        }
        o.sorting_columns.push_back(s);
      }
    } else if (key == "use_content_defined_chunking") {
      if (nb::isinstance<nb::bool_>(value)) {
        if (nb::cast<bool>(value)) o.content_defined_chunking = parquet::CdcOptions{};
      } else if (nb::isinstance<nb::dict>(value)) {
        o.content_defined_chunking = Cdc(value);
      } else {
        BadOption(key, "expected a bool or a dict");
      }
    } else if (key == "version") {
      if (value.is_none()) continue;
      auto v = parquet::ParseFormatVersion(Str(value, key));
      if (!v.ok()) Raise(v.status());
      o.version = *v;
    } else if (key == "coerce_timestamps") {
      if (value.is_none()) continue;
      auto unit = parquet::ParseCoerceTimestamps(Str(value, key));
      if (!unit.ok()) Raise(unit.status());
      o.coerce_timestamps = *unit;
    } else if (key == "allow_truncated_timestamps") {
      o.allow_truncated_timestamps = Bool(value, key);
    } else if (key == "write_distinct_count") {
      o.write_distinct_count = Bool(value, key);
    } else {
      throw nb::type_error(("unexpected keyword argument '" + key + "'").c_str());
    }
  }
  Check(o.Validate());
  return o;
}

namespace {

SchemaPtr SchemaFromPy(nb::handle schema) {
  if (!nb::hasattr(schema, "__arrow_c_schema__")) {
    throw nb::type_error("schema must have __arrow_c_schema__ (e.g. a pyarrow.Schema)");
  }
  nb::object capsule = schema.attr("__arrow_c_schema__")();
  ArrowSchema c = MoveOutSchemaCapsule(capsule);
  return Unwrap(ImportSchema(&c));
}

// FileChunk: the smallest exporter of a read-only buffer (the buffer
// protocol, PyBUF_READ) that keeps one of the file's chunks alive, so that
// a file object is handed each chunk as a memoryview without a copy. (A
// NumPy array as the owner did the same with far more code on the way:
// most of a small write's time when the caches are cold.)
struct FileChunk {
  PyObject_HEAD
  std::shared_ptr<Buffer>* bytes;  // owned
};

int FileChunkGetBuffer(PyObject* self, Py_buffer* view, int flags) {
  const Buffer& b = **reinterpret_cast<FileChunk*>(self)->bytes;
  return PyBuffer_FillInfo(view, self, const_cast<uint8_t*>(b.data()), static_cast<Py_ssize_t>(b.size()),
                           /*readonly=*/1, flags);
}

void FileChunkDealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  delete reinterpret_cast<FileChunk*>(self)->bytes;
  type->tp_free(self);
  Py_DECREF(type);  // a heap type's instances hold a reference to it
}

// A read-only memoryview of `bytes` whose exporter is a FileChunk holding
// a reference to the buffer.
nb::object FileChunkView(const std::shared_ptr<Buffer>& bytes) {
  static PyObject* type = [] {
    static PyType_Slot slots[] = {{Py_bf_getbuffer, reinterpret_cast<void*>(FileChunkGetBuffer)},
                                  {Py_tp_dealloc, reinterpret_cast<void*>(FileChunkDealloc)},
                                  {0, nullptr}};
    static PyType_Spec spec = {"quiver._quiver.FileChunk", sizeof(FileChunk), 0, Py_TPFLAGS_DEFAULT, slots};
    return PyType_FromSpec(&spec);
  }();
  if (type == nullptr) {
    if (PyErr_Occurred() == nullptr) PyErr_SetString(PyExc_RuntimeError, "quiver: no FileChunk type");
    throw nb::python_error();
  }
  auto owned = std::make_unique<std::shared_ptr<Buffer>>(bytes);
  auto* tp = reinterpret_cast<PyTypeObject*>(type);
  PyObject* chunk = tp->tp_alloc(tp, 0);
  if (chunk == nullptr) throw nb::python_error();
  reinterpret_cast<FileChunk*>(chunk)->bytes = owned.release();
  PyObject* view = PyMemoryView_FromObject(chunk);
  Py_DECREF(chunk);  // the view holds it
  if (view == nullptr) throw nb::python_error();
  return nb::steal(view);
}

struct PyParquetWriter {
  std::unique_ptr<parquet::FileWriter> writer;
  std::unique_ptr<io::ChunkedOutputStream> memory;  // when writing to a file object
  nb::object file_object;

  void EnsureOpen() {
    if (writer == nullptr) Raise(Status::Invalid("the ParquetWriter is closed"));
  }

  void WriteTable(nb::handle data) { WriteTablePtr(TableFromPy(data)); }

  void WriteTablePtr(const TablePtr& table) {
    EnsureOpen();
    Status st;
    {
      nb::gil_scoped_release release;
      st = writer->WriteTable(*table);
    }
    Check(st);
  }

  void WriteBatch(nb::handle data) {
    EnsureOpen();
    TablePtr table = TableFromPy(data);
    Status st;
    {
      nb::gil_scoped_release release;
      auto batches = table->ToRecordBatches();
      if (!batches.ok()) {
        st = batches.status();
      } else {
        for (const auto& b : *batches) {
          st = writer->WriteRecordBatch(*b);
          if (!st.ok()) break;
        }
      }
    }
    Check(st);
  }

  void Close() {
    if (writer == nullptr) return;
    Status st;
    {
      nb::gil_scoped_release release;
      st = writer->Close();
    }
    writer.reset();
    Check(st);
    if (memory != nullptr) {
      // The file is handed over without a copy, chunk by chunk (the stream
      // never re-copies as it grows): a read-only memoryview of each chunk,
      // which the view keeps alive (a file object that keeps what it is
      // given keeps the chunks).
      auto chunks = Unwrap(memory->Finish());
      memory.reset();
      nb::object write = file_object.attr("write");
      for (const auto& chunk : chunks) write(FileChunkView(chunk));
    }
  }

  void Abort() {
    if (writer != nullptr) writer->Abort();
    writer.reset();
    memory.reset();
  }
};

std::unique_ptr<PyParquetWriter> OpenWriter(nb::handle where, SchemaPtr schema, nb::dict kwargs) {
  WriterOptions options = ParseWriterOptions(kwargs);
  auto w = std::make_unique<PyParquetWriter>();
  if (nb::hasattr(where, "write") && !IsStr(where)) {
    w->memory = std::make_unique<io::ChunkedOutputStream>();
    w->file_object = nb::borrow(where);
    w->writer = Unwrap(parquet::FileWriter::Open(w->memory.get(), std::move(schema), std::move(options)));
    return w;
  }
  nb::object os = nb::module_::import_("os");
  std::string path = nb::cast<std::string>(os.attr("fsencode")(where).attr("decode")());
  w->writer = Unwrap(parquet::FileWriter::Open(path, std::move(schema), std::move(options)));
  return w;
}

}  // namespace

void BindWriter(nb::module_& m) {
  nb::class_<PyParquetWriter>(m, "ParquetWriter",
                              "Incremental Parquet writer: ParquetWriter(where, schema, **options)")
      .def("__init__",
           [](PyParquetWriter* self, nb::handle where, nb::handle schema, nb::kwargs kwargs) {
             auto w = OpenWriter(where, SchemaFromPy(schema), kwargs);
             new (self) PyParquetWriter(std::move(*w));
           },
           nb::arg("where"), nb::arg("schema"), nb::arg("kwargs"))
      .def("write_table", &PyParquetWriter::WriteTable, nb::arg("table"))
      .def("write_batch", &PyParquetWriter::WriteBatch, nb::arg("batch"))
      .def("write", &PyParquetWriter::WriteBatch, nb::arg("data"))
      .def("close", &PyParquetWriter::Close)
      .def_prop_ro("is_open", [](const PyParquetWriter& w) { return w.writer != nullptr; })
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); })
      .def(
          "__exit__",
          [](PyParquetWriter& w, nb::handle exc_type, nb::handle, nb::handle) {
            if (!exc_type.is_none()) {
              w.Abort();
            } else {
              w.Close();
            }
            return false;
          },
          // A normal exit passes (None, None, None).
          nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none());

  m.def(
      "write_parquet",
      [](nb::handle data, nb::handle where, nb::kwargs kwargs) {
        TablePtr table = TableFromPy(data);
        auto w = OpenWriter(where, table->schema(), kwargs);
        try {
          w->WriteTablePtr(table);
          w->Close();
        } catch (...) {
          w->Abort();
          throw;
        }
      },
      nb::arg("data"), nb::arg("where"), nb::arg("kwargs"),
      "Writes anything with __arrow_c_stream__ / __arrow_c_array__ to a Parquet file "
      "(options as pyarrow.parquet.write_table)");
}

}  // namespace quiver::python
