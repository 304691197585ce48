// quiver._quiver._read_json: JSON Lines to a quiver.Table with Quiver's own
// reader (src/quiver/json); python/quiver/_json.py maps pyarrow.json's
// options to the dicts taken here.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <string>

#include "common.h"
#include "objects.h"
#include "option_values.h"
#include "quiver/csv/input.h"
#include "quiver/io/memory.h"
#include "quiver/json/reader.h"

namespace nb = nanobind;

namespace quiver::python {

namespace {

nb::object ReadJson(nb::handle source, nb::dict read_d, nb::dict parse_d) {
  json::ReadOptions read;
  read.infer_blocks = json::ReadOptions::kInferAll;  // pyarrow widens over the whole input
  if (read_d.contains("block_size")) read.block_size = nb::cast<int64_t>(read_d["block_size"]);
  json::ParseOptions parse;
  if (parse_d.contains("explicit_schema")) {
    parse.explicit_schema = SchemaFromPyObject(parse_d["explicit_schema"]);
  }
  if (parse_d.contains("newlines_in_values")) {
    parse.newlines_in_values = nb::cast<bool>(parse_d["newlines_in_values"]);
  }
  if (parse_d.contains("unexpected_field_behavior")) {
    std::string b = nb::cast<std::string>(parse_d["unexpected_field_behavior"]);
    parse.unexpected_field_behavior = b == "ignore" ? json::UnexpectedFieldBehavior::kIgnore
                                      : b == "error" ? json::UnexpectedFieldBehavior::kError
                                                     : json::UnexpectedFieldBehavior::kInfer;
  }
  std::unique_ptr<io::InputStream> input;
  std::string name;
  if (IsStr(source)) {
    name = nb::cast<std::string>(source);
    // Files, decompressed by their name (.gz, .zst), as `quiver convert`.
    input = Unwrap(csv::OpenInput(name));
  } else {
    nb::bytes bytes = nb::cast<nb::bytes>(source);
    name = "<bytes>";
    input = std::make_unique<io::BufferReader>(
        Buffer::FromString(std::string(bytes.c_str(), bytes.size())), name);
  }
  auto read_all = [&]() -> Result<TablePtr> {
    QUIVER_ASSIGN_OR_RAISE(auto reader,
                           json::StreamingReader::Open(std::move(input), name, read, parse));
    QUIVER_ASSIGN_OR_RAISE(auto batches, json::ReadAll(reader.get()));
    if (reader->schema()->num_fields() == 0) {  // rows of {}: no columns, the rows counted
      return std::make_shared<Table>(reader->schema(), std::vector<ChunkedArrayPtr>{},
                                     reader->rows_read());
    }
    return Table::FromRecordBatches(reader->schema(), batches);
  };
  Result<TablePtr> result = Status::UnknownError("not read");
  {
    nb::gil_scoped_release release;
    result = read_all();
  }
  return WrapTable(Unwrap(std::move(result)));
}

}  // namespace

void BindJson(nb::module_& m) {
  m.def("_read_json", &ReadJson, nb::arg("source"), nb::arg("read_options"),
        nb::arg("parse_options"),
        "JSON Lines to a quiver.Table: python/quiver/_json.py prepares the options.");
}

}  // namespace quiver::python
