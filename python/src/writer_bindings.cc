// quiver.write_parquet / quiver.ParquetWriter: pyarrow-compatible keyword
// options (docs/interfaces.md) parsed into parquet::WriterOptions.
#include "writer_bindings.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <optional>
#include <string>

#include "quiver/io/memory.h"
#include "quiver/c_data/abi.h"
#include "quiver/c_data/bridge.h"
#include "quiver/io/interfaces.h"
#include "quiver/parquet/writer/file_writer.h"
#include "objects.h"
#include "option_values.h"
#include "output_bindings.h"

namespace nb = nanobind;

namespace quiver::python {

namespace {

using parquet::WriterOptions;

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
    } else if (key == "fsync") {
      o.fsync = Bool(value, key);
    } else if (key == "encryption_properties") {
      if (!value.is_none()) o.encryption_properties = ToEncryptionProperties(value);
    } else if (key == "metadata_collector") {
      // Named by docs/interfaces.md, not built yet.
      if (!value.is_none()) Raise(Status::NotImplemented("option ", key, " is not implemented yet"));
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

// A ParquetWriter and its destination: a path (the FileWriter's own
// temporary file), a Python file object (PyFileSink: passed on row group by
// row group) or a quiver.BufferOutputStream.
struct PyParquetWriter {
  std::unique_ptr<parquet::FileWriter> writer;
  std::unique_ptr<PyFileSink> file_sink;  // when writing to a file object
  nb::object buffer_stream;                // when writing to a BufferOutputStream
  int64_t closed_size = 0;                 // tell() once closed

  void EnsureOpen() {
    if (writer == nullptr) Raise(Status::Invalid("the ParquetWriter is closed"));
  }

  void AddKeyValueMetadata(nb::handle pairs) {
    EnsureOpen();
    MetadataPtr metadata = MetadataFromPy(pairs);
    if (metadata != nullptr) Check(writer->AddKeyValueMetadata(*metadata));
  }

  // Raises for a failed call: the file object's own exception when its
  // write() raised one, else the Status.
  void Check(const Status& st) {
    if (st.ok()) return;
    if (file_sink != nullptr) file_sink->RaiseIfFailed();
    Raise(st);
  }

  void WriteTable(nb::handle data, nb::handle row_group_size) {
    EnsureOpen();
    if (RecordBatchReaderPtr reader = StreamFromPy(data)) {
      if (!row_group_size.is_none() &&
          !(nb::isinstance<nb::int_>(row_group_size) && nb::cast<int64_t>(row_group_size) == -1)) {
        Raise(Status::Invalid("row_group_size: not taken with a stream input (its batches are "
                              "written as they come, in row groups of the writer's row_group_size)"));
      }
      WriteReader(reader, /*as_table=*/true);
      return;
    }
    TablePtr table = TableFromPy(data);
    std::optional<int64_t> rows;
    if (!row_group_size.is_none()) {
      if (nb::isinstance<nb::bool_>(row_group_size) || !nb::isinstance<nb::int_>(row_group_size)) {
        Raise(Status::Invalid("row_group_size: expected an integer or None"));
      }
      rows = nb::cast<int64_t>(row_group_size);
      if (*rows == -1) rows.reset();  // pyarrow's spelling of "the default"
    }
    WriteTablePtr(table, rows);
  }

  void WriteTablePtr(const TablePtr& table, std::optional<int64_t> row_group_size = std::nullopt) {
    EnsureOpen();
    Status st;
    {
      nb::gil_scoped_release release;
      st = row_group_size.has_value() ? writer->WriteTable(*table, *row_group_size)
                                      : writer->WriteTable(*table);
    }
    Check(st);
  }

  void WriteBatch(nb::handle data) {
    EnsureOpen();
    if (RecordBatchReaderPtr reader = StreamFromPy(data)) {
      WriteReader(reader);
      return;
    }
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

  // Writes a stream batch by batch (never the whole stream in memory): each
  // batch appended to the open row group, as write_batch does; as_table (as
  // write_table does): the open row group finished first, the stream's rows
  // in row groups of their own, the last one finished at the end.
  void WriteReader(const RecordBatchReaderPtr& reader, bool as_table = false) {
    EnsureOpen();
    if (!reader->schema()->Equals(*writer->schema())) {
      Raise(Status::Invalid("the stream's schema differs from the writer's:\n",
                            reader->schema()->ToString(), "\nvs\n", writer->schema()->ToString()));
    }
    Status st;
    {
      nb::gil_scoped_release release;
      if (as_table) st = writer->FlushRowGroup();
      while (st.ok()) {
        auto next = reader->Next();
        if (!next.ok()) {
          st = next.status();
          break;
        }
        if (*next == nullptr) break;
        st = writer->WriteRecordBatch(**next);
      }
      if (st.ok() && as_table) st = writer->FlushRowGroup();
    }
    Check(st);
  }

  int64_t Tell() const { return writer != nullptr ? writer->Tell() : closed_size; }

  void Close() {
    if (writer == nullptr) return;
    Status st;
    {
      nb::gil_scoped_release release;
      st = writer->Close();
      // The footer, to the file object (Flush takes the GIL back).
      if (st.ok() && file_sink != nullptr) st = file_sink->Close();
    }
    closed_size = writer->Tell();
    writer.reset();
    Release();
    Check(st);
  }

  // Gives up: nothing at a path; a file object keeps what it was given
  // (whole row groups after the magic, no footer).
  void Abort() {
    if (writer != nullptr) {
      closed_size = writer->Tell();
      writer->Abort();
    }
    writer.reset();
    Release();
  }

  void Release() {
    if (buffer_stream.is_valid()) {
      nb::cast<PyBufferOutputStream&>(buffer_stream).in_use = false;
      buffer_stream.reset();
    }
  }
};

std::unique_ptr<PyParquetWriter> OpenWriter(nb::handle where, SchemaPtr schema, nb::dict kwargs) {
  WriterOptions options = ParseWriterOptions(kwargs);
  auto w = std::make_unique<PyParquetWriter>();
  const bool is_path = IsStr(where) || nb::isinstance<nb::bytes>(where) || nb::hasattr(where, "__fspath__");
  if (!is_path && kwargs.contains("fsync") && options.fsync) {
    // (fsync=False is honoured everywhere: Quiver fsyncs nothing it does not own.)
    Raise(Status::Invalid("option fsync: Quiver fsyncs the files it writes to a path; a file object "
                          "or BufferOutputStream is made durable by its owner"));
  }
  if (nb::isinstance<PyBufferOutputStream>(where)) {
    auto& stream = nb::cast<PyBufferOutputStream&>(where);
    if (stream.in_use) Raise(Status::Invalid("this BufferOutputStream is being written by another ParquetWriter"));
    if (stream.stream->closed()) Raise(Status::IOError("the BufferOutputStream is closed (getvalue() was called)"));
    w->writer = Unwrap(parquet::FileWriter::Open(stream.stream.get(), std::move(schema), std::move(options)));
    stream.in_use = true;
    w->buffer_stream = nb::borrow(where);
    return w;
  }
  if (!is_path) {
    if (!nb::hasattr(where, "write")) {
      throw nb::type_error("where must be a path, a binary file object (with write()), a "
                           "quiver.BufferOutputStream, or None (write_parquet)");
    }
    w->file_sink = std::make_unique<PyFileSink>(where);
    w->writer = Unwrap(parquet::FileWriter::Open(w->file_sink.get(), std::move(schema), std::move(options)));
    return w;
  }
  // The path's bytes as the OS takes them (os.fsencode: str, bytes or a
  // path-like object; undecodable names kept as they are).
  nb::bytes encoded = nb::borrow<nb::bytes>(nb::module_::import_("os").attr("fsencode")(where));
  std::string path(encoded.c_str(), encoded.size());
  w->writer = Unwrap(parquet::FileWriter::Open(path, std::move(schema), std::move(options)));
  return w;
}

// The cyclic GC's view of a ParquetWriter: a file object that keeps what
// refers to the writer (an exception it raised, whose traceback holds the
// caller's frame) makes a cycle through the writer, which nanobind's
// instances do not take part in unless they say what they hold
// (nanobind's "Reference leaks" documentation). Clearing aborts the writer.
int WriterTraverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  auto* w = nb::inst_ptr<PyParquetWriter>(self);
  if (w->file_sink != nullptr) Py_VISIT(w->file_sink->write_method().ptr());
  Py_VISIT(w->buffer_stream.ptr());
  return 0;
}

int WriterClear(PyObject* self) {
  auto* w = nb::inst_ptr<PyParquetWriter>(self);
  w->Abort();
  w->file_sink.reset();
  return 0;
}

PyType_Slot writer_slots[] = {{Py_tp_traverse, reinterpret_cast<void*>(WriterTraverse)},
                              {Py_tp_clear, reinterpret_cast<void*>(WriterClear)},
                              {0, nullptr}};

}  // namespace

void BindWriter(nb::module_& m) {
  nb::class_<PyParquetWriter>(
      m, "ParquetWriter", nb::type_slots(writer_slots),
      "Incremental Parquet writer: ParquetWriter(where, schema, **options), as\n"
      "pyarrow.parquet.ParquetWriter.\n\n"
      "where: a path (str, bytes or path-like: written to a temporary file beside it,\n"
      "fsynced and renamed over it by close(), so that the path only ever holds a whole\n"
      "file; fsync=False skips the fsyncs), a binary file object (its write() is given the\n"
      "file as each row group is finished, as read-only memoryviews it may keep; the file\n"
      "starts at the object's current position), or a quiver.BufferOutputStream.\n\n"
      "As a context manager, a normal exit closes the writer. An exception inside the\n"
      "`with` block aborts it instead (pyarrow closes what was written): Quiver's rule is\n"
      "that a failed write leaves nothing at the destination, and a file cut short by an\n"
      "error would look complete to every reader. At a path nothing is left (the old file,\n"
      "if any, is untouched); a file object keeps what it was already given (the magic\n"
      "and the whole row groups finished before the error, without a footer, which no\n"
      "reader takes for a Parquet file); a BufferOutputStream the same. Call close()\n"
      "inside the block to keep a partial file on purpose.")
      .def("__init__",
           [](PyParquetWriter* self, nb::handle where, nb::handle schema, nb::kwargs kwargs) {
             auto w = OpenWriter(where, SchemaFromPy(schema), kwargs);
             new (self) PyParquetWriter(std::move(*w));
           },
           nb::arg("where"), nb::arg("schema"), nb::arg("kwargs"))
      .def("write_table", &PyParquetWriter::WriteTable, nb::arg("table"),
           nb::arg("row_group_size").none() = nb::none(),
           "Writes a table in row groups of row_group_size rows (None or -1: the writer's\n"
           "row_group_size option), as pyarrow's ParquetWriter.write_table")
      .def("write_batch", &PyParquetWriter::WriteBatch, nb::arg("batch"))
      .def("write", &PyParquetWriter::WriteBatch, nb::arg("data"))
      .def("close", &PyParquetWriter::Close)
      .def("add_key_value_metadata", &PyParquetWriter::AddKeyValueMetadata,
           nb::arg("key_value_metadata").none(),
           "Adds {key: value} pairs (str or bytes) to the footer's key/value metadata, as\n"
           "pyarrow's ParquetWriter.add_key_value_metadata: a key the footer already holds\n"
           "(the schema's metadata) takes the added value; ARROW:schema is refused while the\n"
           "writer stores the Arrow schema. Before close().")
      .def("tell", &PyParquetWriter::Tell,
           "Bytes of the Parquet file written so far, counted from its first byte (its size\n"
           "once closed); a row group still being filled by write_batch is not in them yet")
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
      [](nb::handle data, nb::handle where, nb::kwargs kwargs) -> nb::object {
        nb::object stream;
        if (where.is_none()) {
          stream = nb::module_::import_("quiver").attr("BufferOutputStream")();
          where = stream;
        }
        // Opens the writer, writes, closes; aborted (nothing left) on an error.
        auto write_all = [&](const SchemaPtr& schema, auto&& write) -> nb::object {
          auto w = OpenWriter(where, schema, kwargs);
          try {
            write(*w);
            w->Close();
          } catch (...) {
            w->Abort();
            throw;
          }
          if (stream.is_valid()) return stream.attr("getvalue")();
          return nb::none();
        };
        if (RecordBatchReaderPtr reader = StreamFromPy(data)) {
          // A stream: written batch by batch as it is read, never whole.
          return write_all(reader->schema(), [&](auto& w) { w.WriteReader(reader); });
        }
        TablePtr table = TableFromPy(data);
        return write_all(table->schema(), [&](auto& w) { w.WriteTablePtr(table); });
      },
      nb::arg("data"), nb::arg("where").none(), nb::arg("kwargs"),
      "Writes anything with __arrow_c_stream__ / __arrow_c_array__ as a Parquet file (options\n"
      "as pyarrow.parquet.write_table) to where: a path, a binary file object, a\n"
      "quiver.BufferOutputStream, or None, which returns the file as one read-only\n"
      "buffer-protocol object (BufferOutputStream().getvalue())");
}

}  // namespace quiver::python
