// Whether rows keep an order given by sort keys (Parquet sorting_columns:
// ascending or descending, nulls first or last), compared with the compute
// comparison kernels (compute/compare.h). A pair the kernels cannot order
// (NaN, a null inside a dictionary) counts as out of order: the check only
// says "in order" when it is sure.
#pragma once

#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/util/result.h"

namespace quiver::parquet::internal {

struct OrderKey {
  bool descending = false;
  bool nulls_first = false;
};

// Whether row i of `a` comes no later than row i of `b` for every i (a[k],
// b[k]: key k's column, all of one length).
Result<bool> PairsInOrder(const std::vector<ArrayDataPtr>& a, const std::vector<ArrayDataPtr>& b,
                          const std::vector<OrderKey>& keys);

// Whether the rows of `columns` (one array per key) are in order, the first
// one no earlier than `prev`'s one row (when `prev` is not empty).
Result<bool> RowsInOrder(const std::vector<ArrayDataPtr>& columns, const std::vector<ArrayDataPtr>& prev,
                         const std::vector<OrderKey>& keys);

}  // namespace quiver::parquet::internal
