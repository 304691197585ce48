// quiver._quiver.dedup_compare(base_paths, target_path) -> dict: how much of
// the target file a content-addressed store holding the base files already
// has, at page level and at byte level, as computed by quiver::dedup
// (src/quiver/dedup/dedup.h; docs/cdc.md, "Measuring dedup"). The files are
// read (memory-mapped) without the GIL.
#include "dedup_bindings.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "quiver/dedup/dedup.h"

namespace nb = nanobind;

namespace quiver::python {

namespace {

nb::dict StatsDict(const dedup::SharedStats& stats) {
  nb::dict d;
  d["count"] = stats.count;
  d["shared_count"] = stats.shared_count;
  d["bytes"] = stats.bytes;
  d["shared_bytes"] = stats.shared_bytes;
  d["new_bytes"] = stats.new_bytes();
  d["shared_ratio"] = stats.shared_ratio();
  return d;
}

nb::dict DedupCompare(const std::vector<std::string>& base_paths, const std::string& target_path,
                      bool page_level) {
  dedup::DedupOptions options;
  options.page_level = page_level;
  Result<dedup::DedupReport> report = [&] {
    nb::gil_scoped_release release;
    return dedup::ComparePaths(base_paths, target_path, options);
  }();
  const dedup::DedupReport r = Unwrap(std::move(report));
  nb::dict out;
  out["target"] = r.target;
  out["target_size"] = r.target_size;
  out["base_files"] = r.base_files;
  out["base_size"] = r.base_size;
  out["page_level"] = r.has_page_level ? nb::object(StatsDict(r.pages)) : nb::none();
  nb::list columns;
  for (const dedup::ColumnShare& column : r.page_columns) {
    nb::dict c;
    c["column"] = column.column;
    c["page_level"] = StatsDict(column.pages);
    columns.append(c);
  }
  out["page_columns"] = columns;
  out["byte_level"] = StatsDict(r.chunks);
  return out;
}

}  // namespace

void BindDedup(nb::module_& m) {
  m.def("dedup_compare", &DedupCompare, nb::arg("base_paths"), nb::arg("target_path"),
        nb::arg("page_level") = true,
        "How much of the Parquet file target_path a content-addressed store holding "
        "base_paths already has: {'target', 'target_size', 'base_files', 'base_size', "
        "'page_level': {...} or None, 'byte_level': {...}, 'page_columns': [{'column', "
        "'page_level'}, ...]}, each level with count, "
        "shared_count, bytes, shared_bytes, new_bytes and shared_ratio. Page level: pages as "
        "stored (header + compressed body); byte level: FastCDC chunks of the whole file "
        "(8/64/128 KiB). page_level=False accepts files that are not Parquet.");
}

}  // namespace quiver::python
