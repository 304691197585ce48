// quiver.compute.filter / take and quiver.concat_arrays (python/quiver/
// compute.py and __init__.py wrap these): arrays in through ArrayFromPy
// (quiver.Array or any __arrow_c_array__ object), tables and record batches
// through TableFromPy (a table is filtered batch by batch; take concatenates
// a column's chunks first, as pyarrow's); the kernels run with the GIL
// released; errors are
// raised (with the GIL held) as quiver.InvalidError / IndexError /
// NotImplementedError / CapacityError from the Status.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/string.h>

#include "compute_bindings.h"
#include "quiver/array/concatenate.h"
#include "quiver/array/nulls.h"
#include "quiver/compute/filter.h"
#include "quiver/compute/take.h"

namespace quiver::python {

namespace {

compute::FilterOptions ParseFilterOptions(const std::string& behavior) {
  compute::FilterOptions options;
  if (behavior == "drop") {
    options.null_selection_behavior = compute::FilterOptions::NullSelection::kDrop;
  } else if (behavior == "emit_null") {
    options.null_selection_behavior = compute::FilterOptions::NullSelection::kEmitNull;
  } else {
    Raise(Status::Invalid("\"", behavior, "\" is not a valid null selection behavior ",
                          "('drop' or 'emit_null')"));
  }
  return options;
}

// The result wrapped with the input's field, unless the field says "not
// null" and the result holds nulls (emit_null, null indices).
nb::object WrapLike(ArrayDataPtr out, const FieldPtr& field) {
  ArrayPtr array = MakeArray(std::move(out));
  FieldPtr f = field;
  if (f != nullptr && !f->nullable() && array->null_count() > 0) f = nullptr;
  return WrapArray(std::move(array), std::move(f));
}

// `kernel` on an array with the GIL released; the result wrapped with the
// input's field (WrapLike).
template <typename Kernel>
nb::object OnArray(nb::handle values, Kernel&& kernel) {
  auto in = ArrayFromPy(values);
  Result<ArrayDataPtr> result(Status::UnknownError("the kernel did not run"));
  {
    nb::gil_scoped_release release;
    result = kernel(in.first->data());
  }
  return WrapLike(Unwrap(std::move(result)), in.second);
}

// A table's columns as one array each (the chunks of a column concatenated
// when there are several).
Result<RecordBatchPtr> CombineChunks(const Table& table) {
  std::vector<ArrayDataPtr> columns;
  for (const auto& column : table.columns()) {
    if (column->num_chunks() == 1) {
      columns.push_back(column->chunk(0)->data());
      continue;
    }
    if (column->num_chunks() == 0) {
      QUIVER_ASSIGN_OR_RAISE(auto empty, MakeArrayOfNulls(column->type(), 0));
      columns.push_back(std::move(empty));
      continue;
    }
    std::vector<ArrayDataPtr> chunks;
    for (const auto& chunk : column->chunks()) chunks.push_back(chunk->data());
    QUIVER_ASSIGN_OR_RAISE(auto combined, Concatenate(chunks));
    columns.push_back(std::move(combined));
  }
  return RecordBatch::Make(table.schema(), table.num_rows(), std::move(columns));
}

TablePtr TableOfBatch(const RecordBatch& batch) {
  std::vector<ChunkedArrayPtr> columns;
  for (int i = 0; i < batch.num_columns(); ++i) {
    columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{batch.column(i)},
                                                     batch.schema()->field(i)->type()));
  }
  return std::make_shared<Table>(batch.schema(), std::move(columns), batch.num_rows());
}

// `kernel` on a table or record batch (its chunks combined), with the GIL
// released; the result as a quiver.RecordBatch (as_batch) or quiver.Table.
template <typename Kernel>
nb::object OnTable(nb::handle table, bool as_batch, Kernel&& kernel) {
  TablePtr in = TableFromPy(table);
  Result<RecordBatchPtr> result(Status::UnknownError("the kernel did not run"));
  {
    nb::gil_scoped_release release;
    result = [&]() -> Result<RecordBatchPtr> {
      QUIVER_ASSIGN_OR_RAISE(auto batch, CombineChunks(*in));
      return kernel(*batch);
    }();
  }
  RecordBatchPtr batch = Unwrap(std::move(result));
  return as_batch ? WrapRecordBatch(batch) : WrapTable(TableOfBatch(*batch));
}

nb::object FilterArray(nb::handle values, nb::handle mask, const std::string& behavior) {
  const compute::FilterOptions options = ParseFilterOptions(behavior);
  ArrayDataPtr mask_data = ArrayFromPy(mask).first->data();
  return OnArray(values, [&](const ArrayDataPtr& data) {
    return compute::Filter(data, mask_data, options);
  });
}

nb::object FilterTable(nb::handle table, nb::handle mask, const std::string& behavior,
                       bool as_batch) {
  const compute::FilterOptions options = ParseFilterOptions(behavior);
  ArrayDataPtr mask_data = ArrayFromPy(mask).first->data();
  if (as_batch) {
    return OnTable(table, true, [&](const RecordBatch& batch) {
      return compute::Filter(batch, mask_data, options);
    });
  }
  // A table batch by batch (where any column's chunk ends), each with its
  // slice of the mask: no column is concatenated, the output keeps the
  // batches (as pyarrow's).
  TablePtr in = TableFromPy(table);
  Result<TablePtr> result(Status::UnknownError("filter did not run"));
  {
    nb::gil_scoped_release release;
    result = [&]() -> Result<TablePtr> {
      if (mask_data->length != in->num_rows()) {
        return Status::Invalid("filter: the table has ", in->num_rows(), " rows and the mask ",
                               mask_data->length, "; they must all be the same length");
      }
      QUIVER_ASSIGN_OR_RAISE(auto batches, in->ToRecordBatches());
      std::vector<RecordBatchPtr> filtered;
      int64_t offset = 0;
      for (const auto& batch : batches) {
        QUIVER_ASSIGN_OR_RAISE(
            auto out, compute::Filter(*batch, mask_data->Slice(offset, batch->num_rows()), options));
        offset += batch->num_rows();
        filtered.push_back(std::move(out));
      }
      return Table::FromRecordBatches(in->schema(), filtered);
    }();
  }
  return WrapTable(Unwrap(std::move(result)));
}

nb::object TakeArray(nb::handle values, nb::handle indices, bool boundscheck) {
  compute::TakeOptions options;
  options.boundscheck = boundscheck;
  ArrayDataPtr index_data = ArrayFromPy(indices).first->data();
  return OnArray(values, [&](const ArrayDataPtr& data) {
    return compute::Take(data, index_data, options);
  });
}

nb::object TakeTable(nb::handle table, nb::handle indices, bool boundscheck, bool as_batch) {
  compute::TakeOptions options;
  options.boundscheck = boundscheck;
  ArrayDataPtr index_data = ArrayFromPy(indices).first->data();
  return OnTable(table, as_batch, [&](const RecordBatch& batch) {
    return compute::Take(batch, index_data, options);
  });
}

nb::object ConcatArrays(nb::iterable arrays) {
  std::vector<ArrayDataPtr> data;
  FieldPtr first_field;
  for (nb::handle obj : arrays) {
    auto in = ArrayFromPy(obj);
    if (first_field == nullptr) first_field = in.second;
    data.push_back(in.first->data());
  }
  Result<ArrayDataPtr> result(Status::UnknownError("concat_arrays did not run"));
  {
    nb::gil_scoped_release release;
    result = Concatenate(data);
  }
  return WrapLike(Unwrap(std::move(result)), first_field);
}

}  // namespace

void BindComputeSelect(nb::module_& c) {
  c.def("filter", &FilterArray, nb::arg("values"), nb::arg("mask"),
        nb::arg("null_selection_behavior") = "drop",
        "The values where the boolean mask is true (pyarrow.compute.filter)");
  c.def("filter_table", &FilterTable, nb::arg("table"), nb::arg("mask"),
        nb::arg("null_selection_behavior"), nb::arg("as_batch"),
        "filter of every column of a table or record batch; a RecordBatch when as_batch");
  c.def("take", &TakeArray, nb::arg("values"), nb::arg("indices"), nb::arg("boundscheck") = true,
        "The values at the indices (pyarrow.compute.take)");
  c.def("take_table", &TakeTable, nb::arg("table"), nb::arg("indices"), nb::arg("boundscheck"),
        nb::arg("as_batch"),
        "take of every column of a table or record batch; a RecordBatch when as_batch");
  c.def("concat_arrays", &ConcatArrays, nb::arg("arrays"),
        "The arrays one after the other (pyarrow.concat_arrays)");
}

}  // namespace quiver::python
