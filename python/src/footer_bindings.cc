// Editing serialized Parquet footers for summary files (pyarrow's
// FileMetaData.set_file_path / append_row_groups and the _metadata /
// _common_metadata files of write_metadata): the footer is decoded into the
// Thrift structs, changed, and encoded again, so every other field is kept
// as it was written.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>

#include "common.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace nb = nanobind;

namespace quiver::python {

namespace {

namespace format = parquet::format;
namespace thrift = parquet::thrift;

format::FileMetaData Decode(const nb::bytes& footer, const char* what) {
  auto result = thrift::DeserializeThrift<format::FileMetaData>(
      reinterpret_cast<const uint8_t*>(footer.c_str()), static_cast<int64_t>(footer.size()));
  if (!result.ok()) {
    Raise(Status::Invalid(what, ": not a Parquet footer: ", result.status().message()));
  }
  return std::move(result).ValueOrDie();
}

nb::bytes Encode(const format::FileMetaData& metadata) {
  std::string out;
  Check(thrift::SerializeThrift(metadata, &out));
  return nb::bytes(out.data(), out.size());
}

// The schema elements as bytes (their Thrift encoding), to compare two schemas.
std::string SchemaBytes(const format::FileMetaData& metadata) {
  format::FileMetaData only_schema;
  only_schema.schema = metadata.schema;
  std::string out;
  Check(thrift::SerializeThrift(only_schema, &out));
  return out;
}

}  // namespace

void BindFooter(nb::module_& m) {
  m.def(
      "_footer_set_file_path",
      [](nb::bytes footer, const std::string& path) {
        format::FileMetaData metadata = Decode(footer, "set_file_path");
        for (format::RowGroup& row_group : metadata.row_groups) {
          for (format::ColumnChunk& chunk : row_group.columns) {
            if (path.empty()) {
              chunk.file_path.reset();
            } else {
              chunk.file_path = path;
            }
          }
        }
        return Encode(metadata);
      },
      nb::arg("footer"), nb::arg("path"),
      "The footer with every column chunk's file_path set (\"\": cleared).");
  m.def(
      "_footer_append_row_groups",
      [](nb::bytes footer, nb::bytes other) {
        format::FileMetaData metadata = Decode(footer, "append_row_groups");
        format::FileMetaData more = Decode(other, "append_row_groups");
        if (SchemaBytes(metadata) != SchemaBytes(more)) {
          Raise(Status::Invalid("AppendRowGroups requires equal schemas: the two footers' "
                                "Parquet schemas differ"));
        }
        for (format::RowGroup& row_group : more.row_groups) {
          metadata.num_rows += row_group.num_rows;
          metadata.row_groups.push_back(std::move(row_group));
        }
        return Encode(metadata);
      },
      nb::arg("footer"), nb::arg("other"),
      "The footer with the other's row groups after its own (equal schemas required).");
  m.def(
      "_footer_without_row_groups",
      [](nb::bytes footer) {
        format::FileMetaData metadata = Decode(footer, "write_metadata");
        metadata.row_groups.clear();
        metadata.num_rows = 0;
        return Encode(metadata);
      },
      nb::arg("footer"), "The footer with no row group (a _common_metadata footer).");
}

}  // namespace quiver::python
