// quiver.read_table / quiver.ParquetFile: the Parquet reader with pyarrow's
// keyword names (docs/interfaces.md). The Python layer (quiver/_parquet.py)
// wraps these in pyarrow-shaped classes (FileMetaData, ...).
#include "reader_bindings.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common.h"
#include "metadata_bindings.h"
#include "option_values.h"
#include "quiver/compute/expression.h"
#include "quiver/io/file.h"
#include "quiver/io/memory.h"
#include "quiver/memory/buffer.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/metadata/statistics_internal.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"

namespace nb = nanobind;

namespace quiver::python {

namespace {

using parquet::FileReader;
namespace format = parquet::format;
namespace thrift = parquet::thrift;
using parquet::ReaderOptions;

// A binary file object (read / seek / tell) as a random-access file. Reads
// take the GIL; the reader calls it with the GIL released. seek + read is
// one step under a mutex (taken before the GIL: a thread waiting for it
// never holds the GIL), since a file object may release the GIL between
// the two and another thread's seek must not land there.
class PyFileObject final : public io::RandomAccessFile {
 public:
  PyFileObject(nb::object file, int64_t size, std::string name)
      : file_(std::move(file)), size_(size), name_(std::move(name)) {}

  ~PyFileObject() override {
    nb::gil_scoped_acquire acquire;
    file_.reset();
  }

  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override {
    if (offset < 0 || length < 0) {
      return Status::Invalid(name_, ": a read at ", offset, " of ", length, " bytes");
    }
    if (offset > size_ || length > size_ - offset) {
      return Status::IOError(name_, ": read past the end ([", offset, ", +", length,
                             ") of a file of ", size_, " bytes)");
    }
    std::lock_guard<std::mutex> lock(mutex_);
    nb::gil_scoped_acquire acquire;
    try {
      file_.attr("seek")(offset);
      nb::object data = file_.attr("read")(length);
      Py_buffer view;
      if (PyObject_GetBuffer(data.ptr(), &view, PyBUF_SIMPLE) != 0) {
        PyErr_Clear();
        return Status::IOError(name_, ": read() did not return bytes");
      }
      const int64_t got = static_cast<int64_t>(view.len);
      Result<MutableBuffer> buffer = MutableBuffer::WithCapacity(length);
      if (!buffer.ok() || got != length) {
        PyBuffer_Release(&view);
        if (!buffer.ok()) return buffer.status();
        return Status::IOError(name_, ": read ", got, " bytes at ", offset, " where ", length,
                               " were asked (did the file change size?)");
      }
      if (length > 0) std::memcpy(buffer->data(), view.buf, static_cast<size_t>(length));
      PyBuffer_Release(&view);
      buffer->UnsafeSetSize(length);
      return buffer->Freeze();
    } catch (nb::python_error& e) {
      return Status::IOError(name_, ": ", e.what());
    }
  }

  int64_t Size() const override { return size_; }
  const std::string& name() const override { return name_; }

 private:
  mutable std::mutex mutex_;
  mutable nb::object file_;
  int64_t size_;
  std::string name_;
};

// Keeps a Python buffer (bytes, memoryview, numpy array, ...) exported while
// Quiver reads from it (zero-copy).
struct PyBufferOwner {
  Py_buffer view{};
  ~PyBufferOwner() {
    nb::gil_scoped_acquire acquire;
    PyBuffer_Release(&view);
  }
};

std::shared_ptr<io::RandomAccessFile> OpenSource(nb::handle source, std::string* path) {
  nb::object os = nb::module_::import_("os");
  if (nb::isinstance<nb::str>(source) || nb::hasattr(source, "__fspath__")) {
    *path = nb::cast<std::string>(os.attr("fsencode")(source).attr("decode")());
    return nullptr;
  }
  if (PyObject_CheckBuffer(source.ptr())) {
    auto owner = std::make_shared<PyBufferOwner>();
    if (PyObject_GetBuffer(source.ptr(), &owner->view, PyBUF_SIMPLE) != 0) {
      throw nb::python_error();
    }
    auto buffer = Buffer::WrapWithOwner(owner->view.buf, static_cast<int64_t>(owner->view.len),
                                        owner);
    return std::make_shared<io::BufferReader>(std::move(buffer), "<buffer>");
  }
  if (nb::hasattr(source, "read") && nb::hasattr(source, "seek")) {
    nb::object file = nb::borrow(source);
    const int64_t size = nb::cast<int64_t>(file.attr("seek")(0, 2));
    std::string name = "<file object>";
    if (nb::hasattr(file, "name")) {
      nb::object n = file.attr("name");
      if (nb::isinstance<nb::str>(n)) name = nb::cast<std::string>(n);
    }
    return std::make_shared<PyFileObject>(std::move(file), size, std::move(name));
  }
  throw nb::type_error(
      "source must be a path, a bytes-like object or a binary file object (read/seek)");
}

// The source as ParquetFile.close() can release it: reads after Close()
// are an IOError; a read under way keeps the file until it returns.
class ClosableFile final : public io::RandomAccessFile {
 public:
  explicit ClosableFile(std::shared_ptr<io::RandomAccessFile> file)
      : file_(std::move(file)), size_(file_->Size()), name_(file_->name()) {}

  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override {
    std::shared_ptr<io::RandomAccessFile> file = Get();
    if (file == nullptr) return Status::IOError(name_, ": the ParquetFile is closed");
    return file->ReadAt(offset, length);
  }
  int64_t Size() const override { return size_; }
  const std::string& name() const override { return name_; }

  // Drops the source (a path's descriptor is closed once no read holds
  // it; a Python file object is released, not closed).
  void Close() {
    std::shared_ptr<io::RandomAccessFile> file;
    std::lock_guard<std::mutex> lock(mutex_);
    file = std::move(file_);
    file_.reset();
  }
  bool closed() const { return Get() == nullptr; }

 private:
  std::shared_ptr<io::RandomAccessFile> Get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return file_;
  }

  mutable std::mutex mutex_;
  std::shared_ptr<io::RandomAccessFile> file_;
  int64_t size_;
  std::string name_;
};

std::optional<std::vector<std::string>> Columns(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  if (nb::isinstance<nb::str>(h)) {
    Raise(Status::Invalid("columns: expected a list of column names, not a string"));
  }
  std::vector<std::string> out;
  for (nb::handle item : nb::iter(h)) out.push_back(Str(item, "columns"));
  return out;
}

std::optional<std::vector<int>> RowGroups(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  std::vector<int> out;
  for (nb::handle item : nb::iter(h)) {
    const int64_t v = Int(item, "row_groups");
    if (v < INT32_MIN || v > INT32_MAX) Raise(Status::Invalid("row_groups: out of range"));
    out.push_back(static_cast<int>(v));
  }
  return out;
}

// A pyarrow DataType (or anything whose str() is the type's name) given to
// binary_type / list_type.
std::string TypeName(nb::handle h) { return nb::cast<std::string>(nb::str(h)); }

// A Python key_retriever, released with the GIL held (the reader may drop
// its properties on another thread).
struct PyKeyRetriever {
  nb::object fn;
  ~PyKeyRetriever() {
    if (!Py_IsInitialized()) {
      fn.release();
      return;
    }
    nb::gil_scoped_acquire gil;
    fn.reset();
  }
};

std::string BytesOf(nb::handle h) {
  return std::string(PyBytes_AsString(h.ptr()), static_cast<size_t>(PyBytes_Size(h.ptr())));
}

// quiver.decryption_properties(...) (python/quiver/_decryption.py, which
// checked the values) as the reader's FileDecryptionProperties.
std::shared_ptr<const parquet::FileDecryptionProperties> ToDecryptionProperties(nb::handle p) {
  if (!nb::hasattr(p, "_footer_key") || !nb::hasattr(p, "_column_keys")) {
    throw nb::type_error(
        "decryption_properties: expected what quiver.decryption_properties() returns");
  }
  auto out = std::make_shared<parquet::FileDecryptionProperties>();
  nb::object footer_key = p.attr("_footer_key");
  if (!footer_key.is_none()) out->footer_key = BytesOf(footer_key);
  nb::dict column_keys = nb::cast<nb::dict>(p.attr("_column_keys"));
  for (auto [column, key] : column_keys) {
    out->column_keys[nb::cast<std::string>(column)] = BytesOf(key);
  }
  nb::object aad_prefix = p.attr("_aad_prefix");
  if (!aad_prefix.is_none()) out->aad_prefix = BytesOf(aad_prefix);
  out->check_footer_integrity = nb::cast<bool>(p.attr("_check_footer_integrity"));
  out->allow_plaintext_files = nb::cast<bool>(p.attr("_allow_plaintext_files"));
  nb::object retriever = p.attr("_key_retriever");
  if (!retriever.is_none()) {
    auto holder = std::make_shared<PyKeyRetriever>();
    holder->fn = retriever;
    out->key_retriever = [holder](const std::string& metadata) -> Result<std::string> {
      nb::gil_scoped_acquire gil;
      try {
        nb::object key = holder->fn(nb::bytes(metadata.data(), metadata.size()));
        if (nb::isinstance<nb::str>(key)) return nb::cast<std::string>(key);
        if (!PyBytes_Check(key.ptr())) {
          return Status::Invalid("key_retriever returned ",
                                 nb::cast<std::string>(nb::str(key.type().attr("__name__"))),
                                 ", not bytes");
        }
        return BytesOf(key);
      } catch (nb::python_error& e) {
        std::string what = nb::cast<std::string>(nb::str(e.type().attr("__name__")));
        std::string message = nb::cast<std::string>(nb::str(e.value()));
        return Status::Invalid("key_retriever raised ", what, ": ", message);
      }
    };
  }
  return out;
}

// pyarrow's reader keywords this reader takes; any other keyword is a
// TypeError naming it.
ReaderOptions ParseReaderOptions(nb::dict kwargs, const char* function) {
  ReaderOptions options;
  for (auto [key, value] : kwargs) {
    const std::string name = nb::cast<std::string>(key);
    if (name == "batch_size") {
      options.batch_size = Int(value, "batch_size");
      if (options.batch_size <= 0) Raise(Status::Invalid("batch_size must be positive"));
    } else if (name == "read_dictionary") {
      if (!value.is_none()) {
        for (nb::handle item : nb::iter(value)) {
          options.arrow.read_dictionary.push_back(Str(item, "read_dictionary"));
        }
      }
    } else if (name == "binary_type") {
      if (!value.is_none()) {
        const std::string t = TypeName(value);
        if (t == "binary") {
          options.arrow.binary_type = Type::kBinary;
        } else if (t == "large_binary") {
          options.arrow.binary_type = Type::kLargeBinary;
        } else if (t == "binary_view") {
          options.arrow.binary_type = Type::kBinaryView;
        } else {
          Raise(Status::Invalid("binary_type: expected binary, large_binary or binary_view, got ",
                                t));
        }
      }
    } else if (name == "list_type") {
      if (!value.is_none()) {
        // pyarrow takes the class (pa.ListType / pa.LargeListType).
        std::string t = nb::hasattr(value, "__name__") ? nb::cast<std::string>(value.attr("__name__"))
                                                       : TypeName(value);
        if (t == "ListType" || t == "list") {
          options.arrow.list_type = Type::kList;
        } else if (t == "LargeListType" || t == "large_list") {
          options.arrow.list_type = Type::kLargeList;
        } else {
          Raise(Status::Invalid("list_type: expected pyarrow.ListType or pyarrow.LargeListType, got ",
                                t));
        }
      }
    } else if (name == "coerce_int96_timestamp_unit") {
      if (!value.is_none()) {
        const std::string unit = Str(value, "coerce_int96_timestamp_unit");
        if (unit == "s") {
          options.arrow.int96_unit = TimeUnit::kSecond;
        } else if (unit == "ms") {
          options.arrow.int96_unit = TimeUnit::kMilli;
        } else if (unit == "us") {
          options.arrow.int96_unit = TimeUnit::kMicro;
        } else if (unit == "ns") {
          options.arrow.int96_unit = TimeUnit::kNano;
        } else {
          Raise(Status::Invalid("coerce_int96_timestamp_unit: expected 's', 'ms', 'us' or 'ns', got '",
                                unit, "'"));
        }
      }
    } else if (name == "page_checksum_verification") {
      if (!nb::isinstance<nb::bool_>(value)) {
        Raise(Status::Invalid("page_checksum_verification: expected True or False"));
      }
      options.page_checksum_verification = nb::cast<bool>(value);
    } else if (name == "thrift_string_size_limit") {
      if (!value.is_none()) {
        options.thrift_limits.string_size_limit = Int(value, "thrift_string_size_limit");
      }
    } else if (name == "thrift_container_size_limit") {
      if (!value.is_none()) {
        options.thrift_limits.container_size_limit = Int(value, "thrift_container_size_limit");
      }
    } else if (name == "arrow_extensions_enabled") {
      if (!nb::isinstance<nb::bool_>(value)) {
        Raise(Status::Invalid("arrow_extensions_enabled: expected True or False"));
      }
      options.arrow.arrow_extensions_enabled = nb::cast<bool>(value);
    } else if (name == "memory_limit") {
      if (!value.is_none()) options.memory_limit = Int(value, "memory_limit");
    } else if (name == "decryption_properties") {
      if (!value.is_none()) options.decryption_properties = ToDecryptionProperties(value);
    } else if (name == "invalid_utf8") {
      const std::string mode = Str(value, "invalid_utf8");
      if (mode == "error") {
        options.invalid_utf8 = ReaderOptions::InvalidUtf8::kError;
      } else if (mode == "binary") {
        options.invalid_utf8 = ReaderOptions::InvalidUtf8::kBinary;
      } else {
        Raise(Status::Invalid("invalid_utf8: expected 'error' or 'binary', got '", mode, "'"));
      }
    } else {
      throw nb::type_error((std::string(function) + "() got an unexpected keyword argument '" +
                            name + "' (Quiver does not support it)")
                               .c_str());
    }
  }
  return options;
}

struct PyParquetFile {
  std::unique_ptr<FileReader> reader;
  std::shared_ptr<ClosableFile> file;
  int64_t batch_size = 65536;
};

PyParquetFile OpenFile(nb::handle source, nb::dict kwargs, const char* function) {
  ReaderOptions options = ParseReaderOptions(kwargs, function);
  std::string path;
  std::shared_ptr<io::RandomAccessFile> file = OpenSource(source, &path);
  Result<std::unique_ptr<FileReader>> reader = Status::Invalid("not opened");
  std::shared_ptr<ClosableFile> closable;
  {
    nb::gil_scoped_release release;
    reader = [&]() -> Result<std::unique_ptr<FileReader>> {
      if (file == nullptr) {
        QUIVER_ASSIGN_OR_RAISE(file, io::ReadableFile::Open(path, options.pool != nullptr
                                                                      ? options.pool
                                                                      : DefaultMemoryPool()));
      }
      closable = std::make_shared<ClosableFile>(std::move(file));
      return FileReader::Open(closable, options);
    }();
  }
  PyParquetFile out;
  out.reader = Unwrap(std::move(reader));
  out.file = std::move(closable);
  out.batch_size = options.batch_size;
  return out;
}

// `filter`: None or a quiver.compute.Expression's _Expression (quiver/_parquet.py
// turns DNF lists and pyarrow expressions into one).
std::optional<compute::Expression> FilterOf(nb::handle filter) {
  if (filter.is_none()) return std::nullopt;
  return nb::cast<compute::Expression>(filter);
}

// use_threads: pyarrow's, per read call (the reader's option is set for
// this call; reads of one ParquetFile are not concurrent: the GIL is
// released only inside the read).
nb::object ReadTable(PyParquetFile& self, nb::handle columns, nb::handle row_groups,
                     std::optional<int64_t> batch_size, nb::handle filter, bool use_threads) {
  auto cols = Columns(columns);
  auto groups = RowGroups(row_groups);
  const std::optional<compute::Expression> expr = FilterOf(filter);
  Result<TablePtr> table = Status::Invalid("not read");
  self.reader->set_use_threads(use_threads);
  {
    nb::gil_scoped_release release;
    if (batch_size.has_value()) {
      table = [&]() -> Result<TablePtr> {
        RecordBatchReaderPtr reader;
        if (expr.has_value()) {
          QUIVER_ASSIGN_OR_RAISE(reader,
                                 self.reader->GetRecordBatchReader(*expr, cols, groups, *batch_size));
        } else {
          QUIVER_ASSIGN_OR_RAISE(reader, self.reader->GetRecordBatchReader(cols, groups, *batch_size));
        }
        // (Table::FromRecordBatches counts the rows of its columns: none
        // when columns=[].)
        std::vector<RecordBatchPtr> batches;
        int64_t rows = 0;
        while (true) {
          QUIVER_ASSIGN_OR_RAISE(RecordBatchPtr batch, reader->Next());
          if (batch == nullptr) break;
          rows += batch->num_rows();
          batches.push_back(std::move(batch));
        }
        QUIVER_ASSIGN_OR_RAISE(auto t, Table::FromRecordBatches(reader->schema(), batches));
        return std::make_shared<Table>(t->schema(), t->columns(), rows);
      }();
    } else if (expr.has_value()) {
      table = self.reader->ReadTable(*expr, cols, groups);
    } else {
      table = self.reader->ReadTable(cols, groups);
    }
  }
  return WrapTable(Unwrap(std::move(table)));
}

// --- Metadata as plain Python values (quiver/_parquet.py shapes them) ------

template <typename T>
nb::object Optional(const std::optional<T>& v) {
  if (!v.has_value()) return nb::none();
  return nb::cast(*v);
}

// `statistics`: the chunk's, decoded by the library (parquet/metadata/statistics.h).
nb::dict ColumnDict(const format::ColumnChunk& chunk, const parquet::ColumnDescriptor& column,
                    std::optional<parquet::Statistics> statistics) {
  nb::dict d;
  d["path_in_schema"] = column.path;
  d["file_offset"] = chunk.file_offset;
  d["file_path"] = Optional(chunk.file_path);
  d["offset_index_offset"] = Optional(chunk.offset_index_offset);
  d["offset_index_length"] = Optional(chunk.offset_index_length);
  d["column_index_offset"] = Optional(chunk.column_index_offset);
  d["column_index_length"] = Optional(chunk.column_index_length);
  d["has_metadata"] = chunk.meta_data.has_value();
  if (!chunk.meta_data.has_value()) return d;
  const format::ColumnMetaData& m = *chunk.meta_data;
  d["physical_type"] = std::string(format::EnumName(m.type));
  nb::list encodings;
  for (format::Encoding e : m.encodings) encodings.append(std::string(format::EnumName(e)));
  d["encodings"] = nb::tuple(encodings);
  d["compression"] = std::string(format::EnumName(m.codec));
  d["num_values"] = m.num_values;
  d["total_uncompressed_size"] = m.total_uncompressed_size;
  d["total_compressed_size"] = m.total_compressed_size;
  d["data_page_offset"] = m.data_page_offset;
  d["index_page_offset"] = Optional(m.index_page_offset);
  d["dictionary_page_offset"] = Optional(m.dictionary_page_offset);
  d["bloom_filter_offset"] = Optional(m.bloom_filter_offset);
  d["bloom_filter_length"] = Optional(m.bloom_filter_length);
  d["statistics"] = WrapStatistics(std::move(statistics));
  return d;
}

const char* UnitName(const format::TimeUnit& unit) {
  switch (unit.kind()) {
    case format::TimeUnit::Kind::kMillis:
      return "ms";
    case format::TimeUnit::Kind::kMicros:
      return "us";
    case format::TimeUnit::Kind::kNanos:
      return "ns";
    default:
      return "";
  }
}

// The logical type's set member and its parameters, e.g. {"name":
// "TIMESTAMP", "unit": "ms", "utc": True}.
nb::dict LogicalDict(const format::LogicalType& t) {
  nb::dict d;
  using K = format::LogicalType::Kind;
  switch (t.kind()) {
    case K::kString: d["name"] = "STRING"; break;
    case K::kMap: d["name"] = "MAP"; break;
    case K::kList: d["name"] = "LIST"; break;
    case K::kEnum: d["name"] = "ENUM"; break;
    case K::kDecimal:
      d["name"] = "DECIMAL";
      d["precision"] = t.decimal->precision;
      d["scale"] = t.decimal->scale;
      break;
    case K::kDate: d["name"] = "DATE"; break;
    case K::kTime:
      d["name"] = "TIME";
      d["unit"] = UnitName(t.time->unit);
      d["utc"] = t.time->is_adjusted_to_utc;
      break;
    case K::kTimestamp:
      d["name"] = "TIMESTAMP";
      d["unit"] = UnitName(t.timestamp->unit);
      d["utc"] = t.timestamp->is_adjusted_to_utc;
      break;
    case K::kInteger:
      d["name"] = "INTEGER";
      d["bit_width"] = static_cast<int>(t.integer->bit_width);
      d["signed"] = t.integer->is_signed;
      break;
    case K::kUnknown: d["name"] = "UNKNOWN"; break;
    case K::kJson: d["name"] = "JSON"; break;
    case K::kBson: d["name"] = "BSON"; break;
    case K::kUuid: d["name"] = "UUID"; break;
    case K::kFloat16: d["name"] = "FLOAT16"; break;
    case K::kVariant:
      d["name"] = "VARIANT";
      d["specification_version"] = Optional(t.variant->specification_version);
      break;
    case K::kGeometry:
      d["name"] = "GEOMETRY";
      d["crs"] = Optional(t.geometry->crs);
      break;
    case K::kGeography:
      d["name"] = "GEOGRAPHY";
      d["crs"] = Optional(t.geography->crs);
      d["algorithm"] = t.geography->algorithm.has_value()
                           ? nb::object(nb::int_(static_cast<int>(*t.geography->algorithm)))
                           : nb::none();
      break;
    case K::kVector: d["name"] = "VECTOR"; break;
    // No member set, or one added after this reader's parquet.thrift.
    default: d["name"] = ""; break;
  }
  return d;
}

// An enum's IDL name, or its number when it has none.
template <typename E>
nb::object EnumOrNumber(E value) {
  const std::string_view name = format::EnumName(value);
  if (name.empty()) return nb::int_(static_cast<int32_t>(value));
  return nb::str(name.data(), name.size());
}

nb::dict MetadataDict(const format::FileMetaData& m, const parquet::SchemaDescriptor& schema) {
  nb::dict d;
  d["num_rows"] = m.num_rows;
  d["version"] = m.version;
  d["created_by"] = Optional(m.created_by);
  d["num_columns"] = schema.num_columns();
  nb::dict kv;
  if (m.key_value_metadata.has_value()) {
    for (const auto& pair : *m.key_value_metadata) {
      const std::string value = pair.value.value_or("");
      kv[nb::bytes(pair.key.data(), pair.key.size())] = nb::bytes(value.data(), value.size());
    }
  }
  d["metadata"] = kv;
  nb::list columns_schema;
  for (const auto& c : schema.columns()) {
    nb::dict cd;
    cd["path"] = c.path;
    cd["physical_type"] = std::string(format::EnumName(c.physical_type));
    cd["type_length"] = c.type_length;
    cd["max_definition_level"] = c.max_def;
    cd["max_repetition_level"] = c.max_rep;
    cd["converted_type"] =
        c.converted_type.has_value() ? EnumOrNumber(*c.converted_type) : nb::none();
    const auto& node = schema.node(c.node);
    cd["precision"] = Optional(node.precision);
    cd["scale"] = Optional(node.scale);
    cd["logical_type"] = c.logical_type.has_value() ? nb::object(LogicalDict(*c.logical_type))
                                                    : nb::none();
    columns_schema.append(cd);
  }
  d["columns"] = columns_schema;
  // One per leaf column: "TYPE_ORDER", "IEEE_754_TOTAL_ORDER", ... or ""
  // (a member this reader does not know); None when the footer has none.
  if (m.column_orders.has_value()) {
    nb::list orders;
    for (const format::ColumnOrder& o : *m.column_orders) {
      switch (o.kind()) {
        case format::ColumnOrder::Kind::kTypeOrder: orders.append("TYPE_ORDER"); break;
        case format::ColumnOrder::Kind::kIeee754TotalOrder:
          orders.append("IEEE_754_TOTAL_ORDER");
          break;
        case format::ColumnOrder::Kind::kInt96TimestampOrder:
          orders.append("INT96_TIMESTAMP_ORDER");
          break;
        default: orders.append(""); break;
      }
    }
    d["column_orders"] = orders;
  } else {
    d["column_orders"] = nb::none();
  }
  nb::list groups;
  for (size_t r = 0; r < m.row_groups.size(); ++r) {
    const format::RowGroup& g = m.row_groups[r];
    nb::dict gd;
    gd["num_rows"] = g.num_rows;
    gd["total_byte_size"] = g.total_byte_size;
    gd["total_compressed_size"] = Optional(g.total_compressed_size);
    gd["file_offset"] = Optional(g.file_offset);
    gd["ordinal"] = Optional(g.ordinal);
    nb::list cols;
    for (size_t i = 0; i < g.columns.size(); ++i) {
      if (static_cast<int>(i) >= schema.num_columns()) break;
      cols.append(ColumnDict(g.columns[i], schema.column(static_cast<int>(i)),
                             parquet::DecodeChunkStatistics(m, schema, static_cast<int>(r),
                                                            static_cast<int>(i))));
    }
    gd["columns"] = cols;
    groups.append(gd);
  }
  d["row_groups"] = groups;
  return d;
}

struct PyBatchIterator {
  // Declared first, destroyed last: the batch reader points into the
  // ParquetFile's FileReader.
  nb::object file;
  RecordBatchReaderPtr reader;
  bool busy = false;  // a __next__ is running (with the GIL released)
};

}  // namespace

void BindReader(nb::module_& m) {
  // The metadata dict of a serialized FileMetaData (FileMetaData's pickle).
  m.def("_metadata_dict_from_footer", [](nb::bytes footer) {
    auto metadata = Unwrap(thrift::DeserializeThrift<format::FileMetaData>(
        reinterpret_cast<const uint8_t*>(footer.c_str()), static_cast<int64_t>(footer.size())));
    auto schema = Unwrap(parquet::SchemaDescriptor::Make(metadata.schema));
    return MetadataDict(metadata, schema);
  });
  nb::class_<PyParquetFile>(m, "_ParquetFile")
      .def("__init__",
           [](PyParquetFile* self, nb::handle source, nb::kwargs kwargs) {
             new (self) PyParquetFile(OpenFile(source, kwargs, "ParquetFile"));
           },
           nb::arg("source"), nb::arg("kwargs"))
      .def("read", &ReadTable, nb::arg("columns").none() = nb::none(),
           nb::arg("row_groups").none() = nb::none(), nb::arg("batch_size").none() = nb::none(),
           nb::arg("filter").none() = nb::none(), nb::arg("use_threads") = true)
      .def("schema_capsule",
           [](PyParquetFile& self, nb::handle columns) {
             auto cols = Columns(columns);
             return SchemaCapsule(*Unwrap(self.reader->SchemaFor(cols)));
           },
           nb::arg("columns").none() = nb::none())
      .def("schema_string", [](PyParquetFile& self) { return self.reader->schema()->ToString(); })
      .def("close", [](PyParquetFile& self) { self.file->Close(); })
      .def_prop_ro("closed", [](PyParquetFile& self) { return self.file->closed(); })
      .def_prop_ro("num_row_groups", [](PyParquetFile& self) { return self.reader->num_row_groups(); })
      .def_prop_ro("warnings", [](PyParquetFile& self) { return self.reader->warnings(); })
      .def_prop_ro("read_stats",
                   [](PyParquetFile& self) {
                     const parquet::ReadStats s = self.reader->read_stats();
                     nb::dict d;
                     for (const auto& [key, value] : s.Counters()) d[key] = value;
                     return d;
                   })
      .def("metadata_dict",
           [](PyParquetFile& self) {
             return MetadataDict(parquet::ThriftOf(*self.reader->metadata()),
                                 parquet::ParquetSchemaOf(*self.reader));
           })
      .def("footer_bytes",
           [](PyParquetFile& self) {
             std::string out;
             Check(thrift::SerializeThrift(parquet::ThriftOf(*self.reader->metadata()), &out));
             return nb::bytes(out.data(), out.size());
           })
      .def("bloom_filter_contains",
           [](PyParquetFile& self, int row_group, int column, nb::handle value) -> nb::object {
             Result<std::optional<parquet::BloomFilter>> filter = Status::Invalid("not read");
             {
               nb::gil_scoped_release release;
               filter = self.reader->ReadBloomFilter(row_group, column);
             }
             auto f = Unwrap(std::move(filter));
             if (!f.has_value()) return nb::none();
             const auto& c = parquet::ParquetSchemaOf(*self.reader).column(column);
             uint64_t hash = 0;
             switch (c.physical_type) {
               case format::Type::kInt32:
                 hash = parquet::BloomFilter::Hash(static_cast<int32_t>(nb::cast<int64_t>(value)));
                 break;
               case format::Type::kInt64:
                 hash = parquet::BloomFilter::Hash(nb::cast<int64_t>(value));
                 break;
               case format::Type::kFloat:
                 hash = parquet::BloomFilter::Hash(static_cast<float>(nb::cast<double>(value)));
                 break;
               case format::Type::kDouble:
                 hash = parquet::BloomFilter::Hash(nb::cast<double>(value));
                 break;
               case format::Type::kByteArray:
               case format::Type::kFixedLenByteArray: {
                 std::string bytes;
                 if (nb::isinstance<nb::str>(value)) {
                   bytes = nb::cast<std::string>(value);
                 } else {
                   nb::bytes b = nb::cast<nb::bytes>(value);
                   bytes.assign(b.c_str(), b.size());
                 }
                 hash = parquet::BloomFilter::Hash(std::string_view(bytes));
                 break;
               }
               default:
                 Raise(Status::NotImplemented("bloom filters of ",
                                              format::EnumName(c.physical_type), " columns"));
             }
             return nb::bool_(f->FindHash(hash));
           },
           nb::arg("row_group"), nb::arg("column"), nb::arg("value"))
      .def("iter_batches",
           [](nb::handle self_obj, nb::handle columns, nb::handle row_groups,
              std::optional<int64_t> batch_size, nb::handle filter, bool use_threads) {
             PyParquetFile& self = nb::cast<PyParquetFile&>(self_obj);
             self.reader->set_use_threads(use_threads);
             auto cols = Columns(columns);
             auto groups = RowGroups(row_groups);
             const std::optional<compute::Expression> expr = FilterOf(filter);
             const int64_t size = batch_size.value_or(self.batch_size);
             if (size <= 0) Raise(Status::Invalid("batch_size must be positive"));
             Result<RecordBatchReaderPtr> reader = Status::Invalid("not opened");
             {
               nb::gil_scoped_release release;
               reader = expr.has_value()
                            ? self.reader->GetRecordBatchReader(*expr, cols, groups, size)
                            : self.reader->GetRecordBatchReader(cols, groups, size);
             }
             return PyBatchIterator{nb::borrow(self_obj), Unwrap(std::move(reader))};
           },
           nb::arg("columns").none() = nb::none(), nb::arg("row_groups").none() = nb::none(),
           nb::arg("batch_size").none() = nb::none(), nb::arg("filter").none() = nb::none(),
           nb::arg("use_threads") = true);

  nb::class_<PyBatchIterator>(m, "_BatchIterator")
      .def("__iter__", [](nb::handle self) { return nb::borrow(self); })
      .def("__next__", [](PyBatchIterator& self) {
        // As a Python generator: another thread's __next__ meanwhile is an
        // error, not a data race.
        if (self.busy) throw nb::value_error("iter_batches: generator already executing");
        self.busy = true;
        Result<RecordBatchPtr> batch = Status::Invalid("not read");
        {
          nb::gil_scoped_release release;
          batch = self.reader->Next();
        }
        self.busy = false;
        RecordBatchPtr b = Unwrap(std::move(batch));
        if (b == nullptr) throw nb::stop_iteration();
        return WrapRecordBatch(std::move(b));
      });
}

}  // namespace quiver::python
