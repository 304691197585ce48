// A column chunk's page index, typed (apache/parquet-format PageIndex.md; in
// the spirit of Arrow C++'s parquet/page_index.h): the ColumnIndex gives
// per page whether it holds only nulls and its min / max as Scalars of the
// column's statistics type (statistics.h: the same decoding and sort-order
// rules as the chunk's statistics), the OffsetIndex where each page is and
// its first row. page_index_internal.h reads and builds them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "quiver/array/scalar.h"
#include "quiver/parquet/types.h"

namespace quiver::parquet {

class ColumnIndex {
 public:
  int64_t num_pages() const { return static_cast<int64_t>(null_pages_.size()); }
  const std::vector<bool>& null_pages() const { return null_pages_; }
  // Per page: null for a null page, for a column whose sort order is
  // unknown (no bounds are trusted, as for the chunk's statistics), and
  // for a bound that is no value of value_type().
  const std::vector<Scalar>& min_values() const { return min_values_; }
  const std::vector<Scalar>& max_values() const { return max_values_; }
  // The Arrow type of the bounds (nullptr for INT96).
  const TypePtr& value_type() const { return value_type_; }
  SortOrder sort_order() const { return sort_order_; }
  BoundaryOrder boundary_order() const { return boundary_order_; }
  const std::optional<std::vector<int64_t>>& null_counts() const { return null_counts_; }
  const std::optional<std::vector<int64_t>>& nan_counts() const { return nan_counts_; }

 private:
  friend class ColumnIndexBuilder;
  std::vector<bool> null_pages_;
  std::vector<Scalar> min_values_, max_values_;
  TypePtr value_type_;
  SortOrder sort_order_ = SortOrder::kUnknown;
  BoundaryOrder boundary_order_ = BoundaryOrder::kUnordered;
  std::optional<std::vector<int64_t>> null_counts_, nan_counts_;
};

struct PageLocation {
  int64_t offset = 0;                // of the page header in the file
  int32_t compressed_page_size = 0;  // header included
  int64_t first_row_index = 0;       // in the row group
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::optional<std::vector<int64_t>> unencoded_byte_array_data_bytes;
};

}  // namespace quiver::parquet
