// quiver.append_parquet(path, data, **writer_options): parquet/append's
// Appender (the existing file's bytes kept in place, new row groups and one
// new footer, the file replaced atomically).
#include <nanobind/nanobind.h>

#include <memory>
#include <string>

#include "common.h"
#include "option_values.h"
#include "quiver/parquet/append/append.h"
#include "writer_bindings.h"

namespace nb = nanobind;

namespace quiver::python {

namespace {

// The path's bytes as the OS takes them (os.fsencode); URIs are refused.
std::string LocalPath(nb::handle path) {
  const bool is_path = IsStr(path) || nb::isinstance<nb::bytes>(path) || nb::hasattr(path, "__fspath__");
  if (!is_path) throw nb::type_error("append_parquet: path must be a local path (str, bytes or path-like)");
  nb::bytes encoded = nb::borrow<nb::bytes>(nb::module_::import_("os").attr("fsencode")(path));
  std::string out(encoded.c_str(), encoded.size());
  const auto scheme = out.find("://");
  if (scheme != std::string::npos && out.find('/') > scheme) {
    Raise(Status::Invalid("append_parquet: '", out, "' is a URI; appending works on local files only"));
  }
  return out;
}

void AppendParquet(nb::handle path_obj, nb::handle data, nb::kwargs kwargs) {
  const std::string path = LocalPath(path_obj);
  parquet::WriterOptions options = ParseWriterOptions(kwargs);
  RecordBatchReaderPtr stream = StreamFromPy(data);
  TablePtr table = stream == nullptr ? TableFromPy(data) : nullptr;
  SchemaPtr schema = stream != nullptr ? stream->schema() : table->schema();
  Status st;
  {
    nb::gil_scoped_release release;
    auto appender = parquet::Appender::Open(path, schema, std::move(options));
    if (!appender.ok()) {
      st = appender.status();
    } else {
      if (table != nullptr) {
        st = (*appender)->WriteTable(*table);
      } else {
        // A stream: appended batch by batch as it is read, never whole.
        while (st.ok()) {
          auto next = stream->Next();
          if (!next.ok()) {
            st = next.status();
            break;
          }
          if (*next == nullptr) break;
          st = (*appender)->WriteRecordBatch(**next);
        }
      }
      if (st.ok()) {
        st = (*appender)->Close();
      } else {
        (*appender)->Abort();
      }
    }
  }
  Check(st);
}

}  // namespace

void BindAppend(nb::module_& m) {
  m.def("append_parquet", &AppendParquet, nb::arg("path"), nb::arg("data"), nb::arg("kwargs"),
        "Appends data (anything write_parquet takes) to the Parquet file at path (a local\n"
        "path) without rewriting it: every byte before the old footer stays at its offset,\n"
        "the new rows go in new row groups after them (with their page index and bloom\n"
        "filters as the writer options ask), then one new footer covers all row groups; the\n"
        "file is replaced atomically (a failure leaves it as it was). The data's schema must\n"
        "be the file's (names, types, nullability); key/value metadata is kept; the file's\n"
        "sorting_columns are declared by the new row groups only if the new rows keep the\n"
        "order. Writer options as write_parquet's; those that would store a column\n"
        "differently (version, coerce_timestamps) are refused.");
}

}  // namespace quiver::python
