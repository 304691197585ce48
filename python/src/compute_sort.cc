// quiver.compute.sort_indices (python/quiver/_compute_sort.py wraps it):
// an array (a chunked one is combined by the Python side first), or a
// table / record batch by key columns given by name or index, whose chunks
// are concatenated (only the key columns). The sort runs with the GIL
// released; errors are raised as quiver.InvalidError / NotImplementedError.
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "compute_bindings.h"
#include "quiver/array/concatenate.h"
#include "quiver/array/nulls.h"
#include "quiver/compute/sort.h"

namespace quiver::python {

namespace {

nb::object SortArray(nb::handle values, const std::string& order, const std::string& placement) {
  const compute::SortOrder o = Unwrap(compute::ParseSortOrder(order));
  const compute::NullPlacement p = Unwrap(compute::ParseNullPlacement(placement));
  ArrayPtr array = ArrayFromPy(values).first;
  Result<ArrayDataPtr> result(Status::UnknownError("sort_indices did not run"));
  {
    nb::gil_scoped_release release;
    result = compute::SortIndices(*array->data(), o, p);
  }
  return WrapArray(MakeArray(Unwrap(std::move(result))));
}

// The column a key names: a str (a top-level name, present once) or an int.
int ResolveColumn(const Schema& schema, nb::handle key) {
  if (nb::isinstance<nb::int_>(key)) {
    const int64_t i = nb::cast<int64_t>(key);
    if (i < 0 || i >= schema.num_fields()) {
      Raise(Status::Invalid("Invalid sort key column: index ", i, " out of range (", schema.num_fields(),
                            " columns)"));
    }
    return static_cast<int>(i);
  }
  if (!nb::isinstance<nb::str>(key)) {
    throw nb::type_error("a sort key's column must be a name (str) or an index (int)");
  }
  const std::string name = nb::cast<std::string>(key);
  int found = -1;
  std::string names;
  for (int c = 0; c < schema.num_fields(); ++c) {
    const std::string& n = schema.field(c)->name();
    names += (c > 0 ? ", " : "") + n;
    if (n != name) continue;
    if (found >= 0) {
      Raise(Status::Invalid("Invalid sort key column: '", name, "' names more than one column"));
    }
    found = c;
  }
  if (found < 0) {
    Raise(Status::Invalid("Invalid sort key column: no column named '", name, "' (columns: ",
                          names, ")"));
  }
  return found;
}

nb::object SortTable(nb::handle table,
                     const std::vector<std::tuple<nb::object, std::string, std::string>>& keys) {
  TablePtr in = TableFromPy(table);
  std::vector<int> columns;
  std::vector<compute::ColumnSortKey> sort_keys;
  for (const auto& [column, order, placement] : keys) {
    columns.push_back(ResolveColumn(*in->schema(), column));
    sort_keys.push_back({nullptr, Unwrap(compute::ParseSortOrder(order)),
                         Unwrap(compute::ParseNullPlacement(placement))});
  }
  Result<ArrayDataPtr> result(Status::UnknownError("sort_indices did not run"));
  {
    nb::gil_scoped_release release;
    result = [&]() -> Result<ArrayDataPtr> {
      for (size_t k = 0; k < sort_keys.size(); ++k) {
        const auto& column = in->column(columns[k]);
        if (column->num_chunks() == 1) {
          sort_keys[k].values = column->chunk(0)->data();
        } else if (column->num_chunks() == 0) {
          QUIVER_ASSIGN_OR_RAISE(sort_keys[k].values, MakeArrayOfNulls(column->type(), 0));
        } else {
          std::vector<ArrayDataPtr> chunks;
          for (const auto& chunk : column->chunks()) chunks.push_back(chunk->data());
          QUIVER_ASSIGN_OR_RAISE(sort_keys[k].values, Concatenate(chunks));
        }
      }
      return compute::SortIndices(sort_keys);
    }();
  }
  return WrapArray(MakeArray(Unwrap(std::move(result))));
}

}  // namespace

void BindComputeSort(nb::module_& c) {
  c.def("sort_indices", &SortArray, nb::arg("values"), nb::arg("order"), nb::arg("null_placement"),
        "The indices that sort an array, stably (pyarrow.compute.sort_indices)");
  c.def("sort_indices_table", &SortTable, nb::arg("table"), nb::arg("keys"),
        "The indices that sort a table or record batch by (column, order, null_placement) keys");
}

}  // namespace quiver::python
