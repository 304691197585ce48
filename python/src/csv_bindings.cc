// quiver._quiver._read_csv: the CSV reader (src/quiver/csv) for
// quiver.read_csv (python/quiver/_csv.py, which maps pyarrow.csv's option
// objects to the plain dicts read here and refuses what is not supported).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>

#include "common.h"
#include "objects.h"
#include "option_values.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/schema_spec.h"
#include "quiver/io/file.h"
#include "quiver/io/memory.h"
#include "quiver/util/thread_pool.h"

namespace nb = nanobind;

namespace quiver::python {

namespace {

template <typename T>
void Get(const nb::dict& d, const char* key, T* out) {
  if (d.contains(key)) *out = nb::cast<T>(d[key]);
}

char GetChar(const nb::dict& d, const char* key, char dflt) {
  if (!d.contains(key)) return dflt;
  std::string s = nb::cast<std::string>(d[key]);
  if (s.size() != 1) {
    Raise(Status::Invalid(key, " must be a single one-byte character, got '", s, "'"));
  }
  return s[0];
}

nb::object ReadCsv(nb::handle source, nb::dict read_d, nb::dict parse_d, nb::dict convert_d) {
  csv::ReadOptions read;
  Get(read_d, "block_size", &read.block_size);
  Get(read_d, "skip_rows", &read.skip_rows);
  Get(read_d, "column_names", &read.column_names);
  Get(read_d, "autogenerate_column_names", &read.autogenerate_column_names);
  bool use_threads = false;
  Get(read_d, "use_threads", &use_threads);
  if (use_threads) read.thread_pool = ThreadPool::Cpu();
  csv::ParseOptions parse;
  parse.delimiter = GetChar(parse_d, "delimiter", ',');
  if (parse_d.contains("quote_char")) {
    if (nb::isinstance<nb::bool_>(parse_d["quote_char"])) {
      parse.quoting = nb::cast<bool>(parse_d["quote_char"]);
    } else {
      parse.quote_char = GetChar(parse_d, "quote_char", '"');
    }
  }
  Get(parse_d, "double_quote", &parse.double_quote);
  Get(parse_d, "ignore_empty_lines", &parse.ignore_empty_lines);
  Get(parse_d, "newlines_in_values", &parse.newlines_in_values);
  csv::ConvertOptions convert;
  Get(convert_d, "null_values", &convert.null_values);
  Get(convert_d, "true_values", &convert.true_values);
  Get(convert_d, "false_values", &convert.false_values);
  Get(convert_d, "strings_can_be_null", &convert.strings_can_be_null);
  Get(convert_d, "quoted_strings_can_be_null", &convert.quoted_strings_can_be_null);
  Get(convert_d, "check_utf8", &convert.check_utf8);
  Get(convert_d, "include_columns", &convert.include_columns);
  convert.decimal_point = GetChar(convert_d, "decimal_point", '.');
  if (convert_d.contains("infer_rows")) {
    nb::handle v = convert_d["infer_rows"];
    convert.infer_rows = nb::isinstance<nb::str>(v) ? csv::ConvertOptions::kInferAll
                                                    : nb::cast<int64_t>(v);
  }
  if (convert_d.contains("on_error")) {
    convert.on_error = nb::cast<std::string>(convert_d["on_error"]) == "skip"
                           ? csv::OnError::kSkip
                           : csv::OnError::kFail;
  }
  if (convert_d.contains("column_types")) {
    for (auto [k, v] : nb::cast<nb::dict>(convert_d["column_types"])) {
      convert.column_types[nb::cast<std::string>(k)] =
          IsStr(v) ? Unwrap(csv::ParseTypeName(nb::cast<std::string>(v))) : TypeOfPy(v);
    }
  }

  std::unique_ptr<io::InputStream> input;
  csv::Reopen reopen;
  std::string name;
  if (IsStr(source)) {
    name = nb::cast<std::string>(source);
    input = Unwrap(io::FileInputStream::Open(name));
    reopen = [name]() -> Result<std::unique_ptr<io::InputStream>> {
      QUIVER_ASSIGN_OR_RAISE(auto in, io::FileInputStream::Open(name));
      return std::unique_ptr<io::InputStream>(std::move(in));
    };
  } else {
    nb::bytes bytes = nb::cast<nb::bytes>(source);
    auto buffer = Buffer::FromString(std::string(bytes.c_str(), bytes.size()));
    name = "<bytes>";
    input = std::make_unique<io::BufferReader>(buffer, name);
    reopen = [buffer]() -> Result<std::unique_ptr<io::InputStream>> {
      return std::unique_ptr<io::InputStream>(std::make_unique<io::BufferReader>(buffer));
    };
  }
  // Errors are raised once the GIL is held again.
  auto read_all = [&]() -> Result<std::pair<TablePtr, int64_t>> {
    QUIVER_ASSIGN_OR_RAISE(auto reader, csv::StreamingReader::Open(std::move(input), name, read,
                                                                   parse, convert, reopen));
    QUIVER_ASSIGN_OR_RAISE(auto batches, csv::ReadAll(reader.get()));
    QUIVER_ASSIGN_OR_RAISE(auto table, Table::FromRecordBatches(reader->schema(), batches));
    return std::make_pair(std::move(table), reader->rows_rejected());
  };
  Result<std::pair<TablePtr, int64_t>> result = Status::UnknownError("not read");
  {
    nb::gil_scoped_release release;
    result = read_all();
  }
  auto [table, rejected] = Unwrap(std::move(result));
  return nb::make_tuple(WrapTable(table), rejected);
}

}  // namespace

void BindCsv(nb::module_& m) {
  m.def("_read_csv", &ReadCsv, nb::arg("source"), nb::arg("read_options"),
        nb::arg("parse_options"), nb::arg("convert_options"),
        "CSV to (quiver.Table, rows rejected): python/quiver/_csv.py prepares the options.");
}

}  // namespace quiver::python
