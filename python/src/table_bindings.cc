// The C++ half of quiver.Table / RecordBatch / Array's pyarrow-like surface
// (the Python half, python/quiver/_table.py, adds __getitem__, __repr__,
// to_pydict, to_pandas, pickling, from_pydict...): schema objects, column
// access by index or name, zero-copy slice and select, the IPC bytes that
// pickling ships, table concatenation and tables built from columns.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "compute_datum.h"
#include "objects.h"
#include "quiver/array/concatenate.h"
#include "quiver/array/nulls.h"
#include "quiver/array/pretty_print.h"
#include "quiver/c_data/bridge.h"
#include "quiver/io/memory.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"

namespace quiver::python {

namespace {

// pyarrow's slice(offset=0, length=None): the offset must not be negative,
// the length is clipped to what is left.
std::pair<int64_t, int64_t> SliceBounds(int64_t size, int64_t offset, std::optional<int64_t> length) {
  if (offset < 0) Raise(Status::IndexError("slice offset ", offset, " is negative"));
  if (length.has_value() && *length < 0) Raise(Status::IndexError("slice length ", *length, " is negative"));
  const int64_t start = std::min(offset, size);
  const int64_t n = std::min(length.value_or(size - start), size - start);
  return {start, n};
}

ChunkedData SliceChunks(const ChunkedArray& column, int64_t offset, int64_t length) {
  ChunkedData out;
  out.type = column.type();
  int64_t base = 0;
  for (const auto& chunk : column.chunks()) {
    const int64_t n = chunk->length();
    const int64_t begin = std::max(offset, base);
    const int64_t end = std::min(offset + length, base + n);
    if (end > begin || (length == 0 && out.chunks.empty() && begin == base)) {
      out.chunks.push_back(chunk->data()->Slice(begin - base, std::max<int64_t>(end - begin, 0)));
    }
    base += n;
  }
  return out;
}

ChunkedArrayPtr ToChunkedArray(const ChunkedData& data) {
  std::vector<ArrayPtr> chunks;
  for (const auto& c : data.chunks) chunks.push_back(MakeArray(c));
  return std::make_shared<ChunkedArray>(std::move(chunks), data.type);
}

ChunkedData FromChunkedArray(const ChunkedArray& column) {
  ChunkedData out;
  out.type = column.type();
  for (const auto& c : column.chunks()) out.chunks.push_back(c->data());
  return out;
}

std::vector<int> SelectIndices(const Schema& schema, nb::handle columns) {
  std::vector<int> out;
  for (nb::handle c : columns) out.push_back(FieldIndex(schema, c));
  return out;
}

TablePtr SliceTable(const Table& t, int64_t offset, std::optional<int64_t> length) {
  auto [start, n] = SliceBounds(t.num_rows(), offset, length);
  std::vector<ChunkedArrayPtr> columns;
  for (const auto& c : t.columns()) columns.push_back(ToChunkedArray(SliceChunks(*c, start, n)));
  return std::make_shared<Table>(t.schema(), std::move(columns), n);
}

TablePtr SelectTable(const Table& t, nb::handle names) {
  FieldVector fields;
  std::vector<ChunkedArrayPtr> columns;
  for (int i : SelectIndices(*t.schema(), names)) {
    fields.push_back(t.schema()->field(i));
    columns.push_back(t.column(i));
  }
  return std::make_shared<Table>(std::make_shared<Schema>(std::move(fields), t.schema()->metadata()),
                                 std::move(columns), t.num_rows());
}

RecordBatchPtr SelectBatch(const RecordBatch& b, nb::handle names) {
  FieldVector fields;
  std::vector<ArrayDataPtr> columns;
  for (int i : SelectIndices(*b.schema(), names)) {
    fields.push_back(b.schema()->field(i));
    columns.push_back(b.column_data(i));
  }
  return std::make_shared<RecordBatch>(
      std::make_shared<Schema>(std::move(fields), b.schema()->metadata()), b.num_rows(),
      std::move(columns));
}

// A table as the bytes of an Arrow IPC stream (what pickling ships).
nb::bytes IpcBytes(const TablePtr& table) {
  Result<std::shared_ptr<Buffer>> result = [&]() -> Result<std::shared_ptr<Buffer>> {
    nb::gil_scoped_release release;
    io::BufferOutputStream sink;
    QUIVER_ASSIGN_OR_RAISE(auto writer, ipc::MakeStreamWriter(&sink, table->schema()));
    QUIVER_RETURN_NOT_OK(writer->WriteTable(*table));
    QUIVER_RETURN_NOT_OK(writer->Close());
    return sink.Finish();
  }();
  std::shared_ptr<Buffer> buffer = Unwrap(std::move(result));
  return nb::bytes(reinterpret_cast<const char*>(buffer->data()), static_cast<size_t>(buffer->size()));
}

// A Buffer owning a copy of Python bytes (the holder is built first).
struct StringHolder {
  std::string bytes;
};
class StringBuffer final : private StringHolder, public Buffer {
 public:
  explicit StringBuffer(std::string s)
      : StringHolder{std::move(s)},
        Buffer(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int64_t>(bytes.size())) {}
};

TablePtr TableFromIpcBytes(nb::bytes data) {
  auto buffer = std::make_shared<StringBuffer>(std::string(data.c_str(), data.size()));
  Result<TablePtr> result = [&]() -> Result<TablePtr> {
    nb::gil_scoped_release release;
    QUIVER_ASSIGN_OR_RAISE(auto reader, ipc::RecordBatchStreamReader::Open(buffer));
    return reader->ToTable();
  }();
  return Unwrap(std::move(result));
}

RecordBatchPtr BatchOfTable(const TablePtr& table) {
  std::vector<ArrayDataPtr> columns;
  for (const auto& c : table->columns()) {
    if (c->num_chunks() == 1) {
      columns.push_back(c->chunk(0)->data());
    } else if (c->num_chunks() == 0) {
      columns.push_back(Unwrap(MakeArrayOfNulls(c->type(), 0)));
    } else {
      Raise(Status::Invalid("the IPC stream of a record batch holds more than one batch"));
    }
  }
  return Unwrap(RecordBatch::Make(table->schema(), table->num_rows(), std::move(columns)));
}

// The chunks of a column given as a quiver or pyarrow ChunkedArray, or as
// one array (anything with __arrow_c_array__).
ChunkedData ColumnFromPy(nb::handle obj) {
  if (nb::hasattr(obj, "__arrow_c_array__")) {
    auto [array, field] = ArrayFromPy(obj);
    return ChunkedData{{array->data()}, array->type()};
  }
  return ChunksFromPy(obj);
}

// concat_tables: the tables' chunks one after the other; the schemas must
// be equal (field names, types and nullability; the first one's metadata is
// kept), as pyarrow.concat_tables with promote_options="none".
TablePtr ConcatTables(nb::handle tables) {
  std::vector<TablePtr> in;
  for (nb::handle t : tables) in.push_back(TableFromPy(t));
  if (in.empty()) Raise(Status::Invalid("concat_tables needs at least one table"));
  const SchemaPtr& schema = in[0]->schema();
  for (size_t k = 1; k < in.size(); ++k) {
    if (!in[k]->schema()->Equals(*schema)) {
      Raise(Status::Invalid("concat_tables: table ", k, "'s schema differs from table 0's:\n",
                            in[k]->schema()->ToString(), "\nvs\n", schema->ToString()));
    }
  }
  std::vector<ChunkedArrayPtr> columns;
  int64_t rows = 0;
  for (const auto& t : in) rows += t->num_rows();
  for (int i = 0; i < schema->num_fields(); ++i) {
    std::vector<ArrayPtr> chunks;
    for (const auto& t : in) {
      for (const auto& c : t->column(i)->chunks()) chunks.push_back(c);
    }
    columns.push_back(std::make_shared<ChunkedArray>(std::move(chunks), schema->field(i)->type()));
  }
  return std::make_shared<Table>(schema, std::move(columns), rows);
}

// A table of named columns (Table.from_pydict / from_arrays): each column a
// quiver / pyarrow Array or ChunkedArray; `schema` (optional) names the
// fields, whose types must be the columns' types.
TablePtr TableFromColumns(nb::handle columns, nb::handle names, nb::handle schema_obj) {
  std::vector<ChunkedData> data;
  for (nb::handle c : columns) data.push_back(ColumnFromPy(c));
  SchemaPtr schema;
  if (!schema_obj.is_none()) {
    schema = SchemaFromPyObject(schema_obj);
    if (schema->num_fields() != static_cast<int>(data.size())) {
      Raise(Status::Invalid("the schema has ", schema->num_fields(), " fields and there are ",
                            data.size(), " columns"));
    }
  } else {
    FieldVector fields;
    size_t i = 0;
    for (nb::handle n : names) {
      if (i >= data.size()) Raise(Status::Invalid("more names than columns"));
      fields.push_back(field(nb::cast<std::string>(n), data[i].type, true));
      ++i;
    }
    if (i != data.size()) Raise(Status::Invalid(data.size(), " columns but ", i, " names"));
    schema = std::make_shared<Schema>(std::move(fields));
  }
  std::vector<ChunkedArrayPtr> out;
  int64_t rows = data.empty() ? 0 : data[0].length();
  for (size_t i = 0; i < data.size(); ++i) {
    const FieldPtr& f = schema->field(static_cast<int>(i));
    if (!data[i].type->Equals(*f->type())) {
      Raise(Status::TypeError("column '", f->name(), "' is ", data[i].type->ToString(),
                              " but the schema says ", f->type()->ToString()));
    }
    if (data[i].length() != rows) {
      Raise(Status::Invalid("column '", f->name(), "' has ", data[i].length(),
                            " rows where the first column has ", rows));
    }
    out.push_back(ToChunkedArray(data[i]));
  }
  return Unwrap(Table::Make(schema, std::move(out)));
}

}  // namespace

void BindTableMethods(nb::module_& m, nb::class_<PyTable>& table, nb::class_<PyRecordBatch>& batch,
                      nb::class_<PyArray>& array) {
  table
      .def_prop_ro("schema", [](const PyTable& t) { return WrapSchema(t.table->schema()); },
                   "The table's quiver.Schema")
      .def("column",
           [](const PyTable& t, nb::handle i) {
             return WrapChunked(FromChunkedArray(*t.table->column(FieldIndex(*t.table->schema(), i))));
           },
           nb::arg("i"), "The column at an index or with a name, as a quiver.ChunkedArray")
      .def_prop_ro("columns",
                   [](const PyTable& t) {
                     nb::list out;
                     for (const auto& c : t.table->columns()) out.append(WrapChunked(FromChunkedArray(*c)));
                     return out;
                   })
      .def("field",
           [](const PyTable& t, nb::handle i) {
             return WrapField(t.table->schema()->field(FieldIndex(*t.table->schema(), i)));
           },
           nb::arg("i"))
      .def("slice",
           [](const PyTable& t, int64_t offset, std::optional<int64_t> length) {
             return WrapTable(SliceTable(*t.table, offset, length));
           },
           nb::arg("offset") = 0, nb::arg("length").none() = nb::none(),
           "Rows [offset, offset + length), zero-copy (pyarrow's Table.slice)")
      .def("select",
           [](const PyTable& t, nb::handle columns) { return WrapTable(SelectTable(*t.table, columns)); },
           nb::arg("columns"), "The columns named or indexed, in that order")
      .def("to_batches",
           [](const PyTable& t) {
             auto batches = Unwrap(t.table->ToRecordBatches());
             nb::list out;
             for (auto& b : batches) out.append(WrapRecordBatch(std::move(b)));
             return out;
           },
           "The table's record batches (a new one wherever a column's chunk ends)")
      .def("_ipc_bytes", [](const PyTable& t) { return IpcBytes(t.table); })
      .def("_to_batch",
           [](const PyTable& t) {
             Result<RecordBatchPtr> result = [&]() -> Result<RecordBatchPtr> {
               nb::gil_scoped_release release;
               std::vector<ArrayDataPtr> columns;
               for (const auto& c : t.table->columns()) {
                 if (c->num_chunks() == 1) {
                   columns.push_back(c->chunk(0)->data());
                   continue;
                 }
                 std::vector<ArrayDataPtr> chunks;
                 for (const auto& chunk : c->chunks()) chunks.push_back(chunk->data());
                 if (chunks.empty()) {
                   QUIVER_ASSIGN_OR_RAISE(auto empty, MakeArrayOfNulls(c->type(), 0));
                   columns.push_back(std::move(empty));
                   continue;
                 }
                 QUIVER_ASSIGN_OR_RAISE(auto combined, Concatenate(chunks));
                 columns.push_back(std::move(combined));
               }
               return RecordBatch::Make(t.table->schema(), t.table->num_rows(), std::move(columns));
             }();
             return WrapRecordBatch(Unwrap(std::move(result)));
           },
           "The table as one record batch (each column's chunks concatenated)");

  batch
      .def_prop_ro("schema", [](const PyRecordBatch& b) { return WrapSchema(b.batch->schema()); })
      .def_prop_ro("column_names",
                   [](const PyRecordBatch& b) {
                     std::vector<std::string> names;
                     for (const auto& f : b.batch->schema()->fields()) names.push_back(f->name());
                     return names;
                   })
      .def("column",
           [](const PyRecordBatch& b, nb::handle i) {
             const int k = FieldIndex(*b.batch->schema(), i);
             return WrapArray(b.batch->column(k), b.batch->schema()->field(k));
           },
           nb::arg("i"), "The column at an index or with a name, as a quiver.Array")
      .def_prop_ro("columns",
                   [](const PyRecordBatch& b) {
                     nb::list out;
                     for (int k = 0; k < b.batch->num_columns(); ++k) {
                       out.append(WrapArray(b.batch->column(k), b.batch->schema()->field(k)));
                     }
                     return out;
                   })
      .def("field",
           [](const PyRecordBatch& b, nb::handle i) {
             return WrapField(b.batch->schema()->field(FieldIndex(*b.batch->schema(), i)));
           },
           nb::arg("i"))
      .def("slice",
           [](const PyRecordBatch& b, int64_t offset, std::optional<int64_t> length) {
             auto [start, n] = SliceBounds(b.batch->num_rows(), offset, length);
             return WrapRecordBatch(b.batch->Slice(start, n));
           },
           nb::arg("offset") = 0, nb::arg("length").none() = nb::none())
      .def("select",
           [](const PyRecordBatch& b, nb::handle columns) {
             return WrapRecordBatch(SelectBatch(*b.batch, columns));
           },
           nb::arg("columns"))
      .def("equals",
           [](const PyRecordBatch& a, nb::handle other) {
             return a.batch->Equals(*BatchOfTable(TableFromPy(other)));
           },
           nb::arg("other"))
      .def("_ipc_bytes", [](const PyRecordBatch& b) {
        return IpcBytes(Unwrap(Table::FromRecordBatches(b.batch->schema(), {b.batch})));
      });

  array
      .def_prop_ro("type", [](const PyArray& a) { return WrapDataType(a.array->type()); })
      .def("slice",
           [](const PyArray& a, int64_t offset, std::optional<int64_t> length) {
             auto [start, n] = SliceBounds(a.array->length(), offset, length);
             return WrapArray(a.array->Slice(start, n), a.field);
           },
           nb::arg("offset") = 0, nb::arg("length").none() = nb::none())
      .def_prop_ro("offset", [](const PyArray& a) { return a.array->data()->offset; })
      .def("to_pylist", [](const PyArray& a) { return ArrayToPyList(*a.array->data()); },
           "The values as Python objects, as pyarrow's to_pylist (no pyarrow needed)");

  m.def("_pretty",
        [](nb::handle array, int window, int container_window) {
          PrettyPrintOptions options;
          options.window = window;
          options.container_window = container_window;
          return PrettyPrint(*ArrayFromPy(array).first, options);
        },
        nb::arg("array"), nb::arg("window"), nb::arg("container_window"),
        "Arrow C++'s PrettyPrint layout of an array (repr previews)");
  m.def(
      "_struct_children",
      [](nb::handle array) {
        const ArrayDataPtr& d = ArrayFromPy(array).first->data();
        if (d->type->id() != Type::kStruct) Raise(Status::TypeError("not a struct array"));
        nb::list out;
        for (int k = 0; k < d->type->num_fields(); ++k) {
          out.append(WrapArray(MakeArray(d->children[static_cast<size_t>(k)]->Slice(d->offset, d->length)),
                               d->type->field(k)));
        }
        return out;
      },
      nb::arg("array"), "A struct array's fields as arrays of its slots (zero-copy)");
  m.def(
      "_dictionary_parts",
      [](nb::handle array) {
        const ArrayDataPtr& d = ArrayFromPy(array).first->data();
        if (d->type->id() != Type::kDictionary) Raise(Status::TypeError("not a dictionary array"));
        auto indices = std::make_shared<ArrayData>(*d);
        indices->type = TypeAs<DictionaryType>(*d->type).index_type();
        indices->dictionary = nullptr;
        return nb::make_tuple(WrapArray(MakeArray(d->dictionary)), WrapArray(MakeArray(indices)));
      },
      nb::arg("array"), "A dictionary array's (dictionary, indices) (zero-copy)");
  m.def("_empty_array", [](nb::handle type) {
    return WrapArray(MakeArray(Unwrap(MakeArrayOfNulls(TypeOfPy(type), 0))));
  });
  m.def("_empty_table", [](nb::handle schema) {
    SchemaPtr s = SchemaFromPyObject(schema);
    std::vector<ChunkedArrayPtr> columns;
    for (const auto& f : s->fields()) {
      columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{}, f->type()));
    }
    return WrapTable(std::make_shared<Table>(s, std::move(columns), 0));
  });
  m.def("_table_from_ipc", [](nb::bytes data) { return WrapTable(TableFromIpcBytes(data)); });
  m.def("_batch_from_ipc",
        [](nb::bytes data) { return WrapRecordBatch(BatchOfTable(TableFromIpcBytes(data))); });
  m.def("concat_tables", [](nb::handle tables) { return WrapTable(ConcatTables(tables)); },
        nb::arg("tables"),
        "The tables' rows one after the other (pyarrow.concat_tables; equal schemas)");
  m.def("_table_from_columns",
        [](nb::handle columns, nb::handle names, nb::handle schema) {
          return WrapTable(TableFromColumns(columns, names, schema));
        },
        nb::arg("columns"), nb::arg("names"), nb::arg("schema").none());
  m.def("_chunked_array",
        [](nb::handle chunks, nb::handle type) {
          ChunkedData out;
          for (nb::handle c : chunks) out.chunks.push_back(ArrayFromPy(c).first->data());
          out.type = TypeOfPy(type);
          for (const auto& chunk : out.chunks) {
            if (!chunk->type->Equals(*out.type)) {
              Raise(Status::TypeError("chunk of type ", chunk->type->ToString(),
                                      " in a chunked array of type ", out.type->ToString()));
            }
          }
          return WrapChunked(std::move(out));
        },
        nb::arg("chunks"), nb::arg("type"));
}

}  // namespace quiver::python
