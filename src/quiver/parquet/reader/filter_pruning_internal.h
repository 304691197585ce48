// The reader's side of filter pruning (parquet/pruning/pruning.h) behind a
// narrow interface of the facts the reader gathers per row group
// (ChunkFacts): filtered_read.cc and the Python pruning binding fill them,
// filter_pruning.cc turns them into pruning.h's inputs. (Written when
// pruning.h and row_selection.h each defined a RowRange and no file could
// include both; pruning.h now uses row_selection.h's.)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/metadata/page_index.h"
#include "quiver/parquet/metadata/statistics.h"
#include "quiver/parquet/pruning/column_summary.h"
#include "quiver/parquet/types.h"
#include "quiver/util/result.h"

namespace quiver::compute {
class Expression;
}  // namespace quiver::compute

namespace quiver::parquet {

class FilterPruner;

namespace filtering {

// What is known of one filter field in one row group (leaf < 0: the field
// is not one flat column; nothing is known and it may be anything).
struct ChunkFacts {
  int leaf = -1;
  int64_t num_values = 0;  // the chunk's, nulls included
  bool required = false;
  bool bounds_usable = true;  // StatisticsBoundsUsable
  std::optional<Statistics> statistics;
  // Set for the bloom pass only.
  std::optional<BloomFilter> bloom;
  PhysicalType physical_type = PhysicalType::kInt32;
  int32_t type_length = 0;
  TypePtr bound_type;
  // The chunk's decoded dictionary values, given only when
  // IsFullyDictionaryEncoded (pruning.h RowGroupColumn::dictionary).
  ArrayDataPtr dictionary;
  // Set for the page pass only (pruning.h PageColumn::FromPageIndex: the
  // offset index gives the pages, the column index their values).
  std::optional<ColumnIndex> column_index;
  std::optional<OffsetIndex> offset_index;
  // Else pages known from their headers (files without a column index):
  // each data page's first row and summary (pruning.h PageColumn).
  std::vector<int64_t> page_first_rows;
  std::vector<ColumnSummary> page_summaries;
};

struct PagePruning {
  // The rows that may match: sorted, disjoint [begin, end).
  std::vector<std::pair<int64_t, int64_t>> ranges;
  // Per field (empty when its pages are unknown): whether no selected row
  // is in each page.
  std::vector<std::vector<bool>> pages_skipped;
};

enum class Pruned : uint8_t { kNo, kStatistics, kBloomFilter, kDictionary };

class Pruner {
 public:
  // Binds `filter` against `schema` (the reader's full read schema):
  // Evaluate's errors (pyarrow's) for a missing field or a bad literal.
  static Result<Pruner> Make(const compute::Expression& filter, SchemaPtr schema);
  // The top-level fields the filter reads, in first-use order.
  const std::vector<std::string>& fields() const;
  // Whether fields()[i]'s bloom filters can prune (FilterPruner::bloom_usable).
  bool bloom_usable(size_t i) const;
  // facts[i] is of fields()[i].
  Result<Pruned> PruneRowGroup(const std::vector<ChunkFacts>& facts) const;
  // The rows of a row group of `num_rows` rows that may match; a field
  // without page facts may be anything, and so may one whose index does
  // not fit its chunk (Arrow's rule for an offset index; not used).
  Result<PagePruning> PrunePages(int64_t num_rows, const std::vector<ChunkFacts>& facts) const;

 private:
  std::shared_ptr<const FilterPruner> pruner_;
};

}  // namespace filtering
}  // namespace quiver::parquet
