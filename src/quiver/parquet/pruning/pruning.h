// Filter pruning: which row groups, and which rows of a row group, a
// filter Expression (compute/expression.h) cannot keep, decided from the
// metadata alone (statistics, page index, bloom filters, dictionaries),
// soundly: a span is pruned only when no row in it can make the filter
// true. docs/design.md "Filter pruning" says how; issue 45 §1 why.
//
// Three-valued evaluation over summaries: each node of the filter gets,
// for each span of rows, the SET of results it may give there (a subset
// of {true, false, null}: kMayBeTrue | kMayBeFalse | kMayBeNull):
//   - a comparison of a field with a literal: from the field's bounds
//     (ColumnSummary), cast to the field's read type with compute::Cast
//     and compared by running that very comparison through
//     compute::Evaluate on the bounds, so the literal is typed and
//     promoted exactly as when the reader evaluates it on the data (a cast
//     or type error gives "anything"); plus what a NaN value gives (the
//     comparison evaluated on NaN: false, or true for !=) when NaN may
//     occur, plus null when a null may occur;
//   - is_in: the value set brought to the bounds' type as is_in brings it
//     (PlanLookup), true only if a set value lies within the bounds (or a
//     NaN / null in the set meets a NaN / null in the span);
//   - is_null / is_valid from null and NaN counts (nan_is_null);
//   - a boolean field from its bounds; literals as they are;
//   - and_kleene / or_kleene / invert by Kleene's tables over the sets;
//     any other node (two fields compared, ...) may give anything.
// A span is pruned iff true is impossible. Bounds not flagged exact never
// support "every value is true".
//
// Row groups: chunk statistics first, then bloom filters (== and is_in
// with non-null literals: the literal is converted exactly to the
// column's physical value, both zeros of a float are probed), then the
// dictionary (every node over one column evaluated on the dictionary's
// values and a null). Each counted under its own reason.
//
// Pages: the row group is cut at every page boundary of every referenced
// column; each segment is evaluated with the summaries of the pages that
// cover it; the selected rows come back as sorted, coalesced ranges, and
// per column the pages no selected row touches.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/compute/expression.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/metadata/page_index.h"
#include "quiver/parquet/pruning/column_summary.h"
#include "quiver/parquet/reader/row_selection.h"
#include "quiver/parquet/types.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// The results a filter node may give over a span (a bit set).
using Possible = uint8_t;
inline constexpr Possible kMayBeTrue = 1;
inline constexpr Possible kMayBeFalse = 2;
inline constexpr Possible kMayBeNull = 4;
inline constexpr Possible kMayBeAnything = 7;

// Kleene's tables lifted to sets: every result of `op` over one possible
// result of each side.
Possible KleeneAnd(Possible a, Possible b);
Possible KleeneOr(Possible a, Possible b);
Possible KleeneNot(Possible a);

// How a referenced field's values are stored, for bloom filter probes:
// the leaf's physical type, FIXED_LEN_BYTE_ARRAY width and the Arrow type
// of its statistics bounds (StatisticsBoundType, statistics_internal.h),
// which is the logical type of the stored values.
struct PhysicalColumn {
  PhysicalType physical_type = PhysicalType::kInt32;
  int32_t type_length = 0;
  TypePtr bound_type;  // nullptr: no probe (INT96)
};

class FilterPruner {
 public:
  // `read_schema`: the Arrow schema of the top-level fields as the reader
  // returns them. The filter is bound against it as Evaluate binds it: a
  // missing field, a literal the field cannot be compared with or a
  // predicate that is not boolean is the error Evaluate / FilterByExpression
  // gives (what pyarrow raises before reading any data).
  static Result<std::shared_ptr<const FilterPruner>> Make(compute::Expression filter,
                                                          SchemaPtr read_schema);

  const compute::Expression& filter() const { return filter_; }
  // The fields the filter reads, in first-use order: every per-field input
  // below is indexed alike. The caller gives facts only for a field that
  // is one flat leaf (a top-level primitive column: max repetition level
  // 0, not inside a struct); for any other field it gives none, and that
  // field may then be anything.
  const std::vector<std::string>& fields() const { return fields_; }
  // The read type of fields()[i] (a dictionary type's value type).
  const TypePtr& field_type(size_t i) const { return field_types_[i]; }
  // Whether a bloom filter of fields()[i] can prune anything: the field is
  // an argument of an `equal` or `is_in` somewhere in the filter (no other
  // predicate consults one), so a reader need not fetch the others'.
  bool bloom_usable(size_t i) const { return bloom_usable_[i]; }

  // Possible results of the filter over each of `num_spans` spans:
  // summaries[i] holds num_spans summaries of fields()[i], or is empty
  // (nothing known). summaries.size() == fields().size().
  Result<std::vector<Possible>> EvaluateSpans(
      const std::vector<std::vector<ColumnSummary>>& summaries, int64_t num_spans) const;

 private:
  friend class SpanEvaluator;
  compute::Expression filter_;
  SchemaPtr read_schema_;
  std::vector<std::string> fields_;
  std::vector<TypePtr> field_types_;
  std::vector<bool> bloom_usable_;
};

// ---- Row groups -------------------------------------------------------------

enum class PruneReason : uint8_t { kNotPruned, kStatistics, kBloomFilter, kDictionary };

// What the caller knows of one referenced field in one row group.
struct RowGroupColumn {
  // The chunk's summary (ColumnSummary::FromStatistics); nullopt: nothing
  // known, the field may be anything.
  std::optional<ColumnSummary> statistics;
  // The chunk's bloom filter and how its values are stored (both needed).
  const BloomFilter* bloom_filter = nullptr;
  PhysicalColumn physical;
  // The chunk's decoded dictionary values (any layout of the field's read
  // type, cast to it otherwise), given only when IsFullyDictionaryEncoded
  // says every data page uses it: then every non-null value of the chunk
  // is one of these.
  ArrayDataPtr dictionary;
};

// Whether the filter can keep no row of the row group, and by which
// facts: statistics alone, else with the bloom filters, else with the
// dictionaries. columns.size() == pruner.fields().size().
Result<PruneReason> PruneRowGroup(const FilterPruner& pruner,
                                  std::span<const RowGroupColumn> columns);

// The counters of docs/interfaces.md's read_stats that pruning feeds.
struct PruningCounters {
  int64_t row_groups_pruned_statistics = 0;
  int64_t row_groups_pruned_bloom = 0;
  int64_t row_groups_pruned_dictionary = 0;
  int64_t pages_skipped = 0;
  void Count(PruneReason reason);
};

// ---- Pages ------------------------------------------------------------------

// Rows [begin, end) of a row group: the reader's RowRange
// (parquet/reader/row_selection.h; one struct of that name, so that this
// header and file_reader.h can be included together).

// One referenced field's pages in a row group.
struct PageColumn {
  // Each page's first row (OffsetIndex page_locations[i].first_row_index,
  // or counted from page headers): ascending, the first 0. Empty: the
  // pages are unknown (no offset index): the field may be anything and no
  // page of it is reported skipped.
  std::vector<int64_t> first_rows;
  // One summary per page (FromColumnIndexPage, or FromStatistics of page
  // header statistics), or empty: nothing known of the values.
  std::vector<ColumnSummary> summaries;

  // From a page index: `offset_index` null or `column_index` null make
  // the pages or their values unknown, as above. Invalid when the indexes
  // disagree on the page count or the first rows are not ascending from 0
  // and below num_rows.
  static Result<PageColumn> FromPageIndex(const ColumnIndex* column_index,
                                          const OffsetIndex* offset_index, int64_t num_rows,
                                          bool required);
};

struct PageSelection {
  // The rows that may pass the filter: ascending, disjoint, coalesced.
  std::vector<RowRange> ranges;
  // Per referenced field (empty when its pages are unknown): for each page,
  // whether no selected row lies in it.
  std::vector<std::vector<bool>> pages_skipped;
  int64_t num_pages_skipped = 0;
  int64_t num_rows_selected() const;
};

// Selects the rows of a row group of `num_rows` rows the filter may keep.
// columns.size() == pruner.fields().size().
Result<PageSelection> PrunePages(const FilterPruner& pruner, int64_t num_rows,
                                 std::span<const PageColumn> columns);

// For the columns the filter does not read: which of a column's pages
// (by first rows, as PageColumn) no row of `ranges` touches.
std::vector<bool> PagesNotTouched(std::span<const RowRange> ranges,
                                  std::span<const int64_t> first_rows, int64_t num_rows);

}  // namespace quiver::parquet
