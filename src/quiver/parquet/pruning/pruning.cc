// Filter pruning entry points (pruning.h): binding the filter, row groups
// by statistics / bloom filters / dictionaries, pages by the page index.
#include "quiver/parquet/pruning/pruning.h"

#include <algorithm>
#include <utility>

#include "quiver/array/nulls.h"
#include "quiver/array/record_batch.h"
#include "quiver/parquet/pruning/span_evaluator_internal.h"

namespace quiver::parquet {

namespace {

// Kleene's three-valued tables on single results.
Possible And1(Possible a, Possible b) {
  if (a == kMayBeFalse || b == kMayBeFalse) return kMayBeFalse;
  if (a == kMayBeNull || b == kMayBeNull) return kMayBeNull;
  return kMayBeTrue;
}
Possible Or1(Possible a, Possible b) {
  if (a == kMayBeTrue || b == kMayBeTrue) return kMayBeTrue;
  if (a == kMayBeNull || b == kMayBeNull) return kMayBeNull;
  return kMayBeFalse;
}

template <typename Op>
Possible Lift(Possible a, Possible b, Op op) {
  Possible out = 0;
  for (Possible x : {kMayBeTrue, kMayBeFalse, kMayBeNull}) {
    if ((a & x) == 0) continue;
    for (Possible y : {kMayBeTrue, kMayBeFalse, kMayBeNull}) {
      if ((b & y) != 0) out |= op(x, y);
    }
  }
  return out;
}

}  // namespace

Possible KleeneAnd(Possible a, Possible b) { return Lift(a, b, And1); }
Possible KleeneOr(Possible a, Possible b) { return Lift(a, b, Or1); }
Possible KleeneNot(Possible a) {
  return static_cast<Possible>(((a & kMayBeTrue) ? kMayBeFalse : 0) |
                               ((a & kMayBeFalse) ? kMayBeTrue : 0) | (a & kMayBeNull));
}

namespace {

// Marks the fields under each `equal` and `is_in` call of `e`.
void MarkBloomUsable(const compute::Expression& e, const std::vector<std::string>& fields,
                     std::vector<bool>* usable) {
  if (!e.is_call()) return;
  using F = compute::Expression::Function;
  if (e.function() == F::kEqual || e.function() == F::kIsIn) {
    for (const std::string& name : e.FieldsReferenced()) {
      for (size_t i = 0; i < fields.size(); ++i) {
        if (fields[i] == name) (*usable)[i] = true;
      }
    }
    return;
  }
  for (const auto& argument : e.arguments()) MarkBloomUsable(argument, fields, usable);
}

}  // namespace

Result<std::shared_ptr<const FilterPruner>> FilterPruner::Make(compute::Expression filter,
                                                               SchemaPtr read_schema) {
  // Bind as the reader will: FilterByExpression on no rows raises what
  // pyarrow raises before reading (missing fields, literal types, a
  // predicate that is not boolean).
  std::vector<ArrayDataPtr> empty;
  for (const auto& f : read_schema->fields()) {
    QUIVER_ASSIGN_OR_RAISE(auto column, MakeArrayOfNulls(f->type(), 0));
    empty.push_back(std::move(column));
  }
  QUIVER_ASSIGN_OR_RAISE(auto batch, RecordBatch::Make(read_schema, 0, std::move(empty)));
  QUIVER_RETURN_NOT_OK(compute::FilterByExpression(*batch, filter).status());

  auto pruner = std::shared_ptr<FilterPruner>(new FilterPruner());
  pruner->fields_ = filter.FieldsReferenced();
  for (const auto& name : pruner->fields_) {
    const int i = read_schema->GetFieldIndex(name);
    TypePtr type = read_schema->field(i)->type();
    if (type->id() == Type::kDictionary) type = TypeAs<DictionaryType>(*type).value_type();
    pruner->field_types_.push_back(std::move(type));
  }
  pruner->bloom_usable_.assign(pruner->fields_.size(), false);
  MarkBloomUsable(filter, pruner->fields_, &pruner->bloom_usable_);
  pruner->filter_ = std::move(filter);
  pruner->read_schema_ = std::move(read_schema);
  return std::shared_ptr<const FilterPruner>(std::move(pruner));
}

Result<std::vector<Possible>> FilterPruner::EvaluateSpans(
    const std::vector<std::vector<ColumnSummary>>& summaries, int64_t num_spans) const {
  if (summaries.size() != fields_.size()) {
    return Status::Invalid("pruning: ", summaries.size(), " summary lists for ", fields_.size(),
                           " fields");
  }
  std::vector<FieldFacts> facts(fields_.size());
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (summaries[i].empty()) continue;
    if (static_cast<int64_t>(summaries[i].size()) != num_spans) {
      return Status::Invalid("pruning: field ", fields_[i], " has ", summaries[i].size(),
                             " summaries for ", num_spans, " spans");
    }
    facts[i].summaries = &summaries[i];
  }
  SpanEvaluator evaluator(*this, std::move(facts), num_spans);
  return evaluator.Run();
}

// ---- Row groups -------------------------------------------------------------

Result<PruneReason> PruneRowGroup(const FilterPruner& pruner,
                                  std::span<const RowGroupColumn> columns) {
  const size_t n = pruner.fields().size();
  if (columns.size() != n) {
    return Status::Invalid("pruning: ", columns.size(), " row group columns for ", n, " fields");
  }
  std::vector<std::vector<ColumnSummary>> summaries(n);
  bool any_bloom = false, any_dictionary = false;
  for (size_t i = 0; i < n; ++i) {
    if (columns[i].statistics.has_value()) summaries[i].push_back(*columns[i].statistics);
    any_bloom = any_bloom || columns[i].bloom_filter != nullptr;
    any_dictionary = any_dictionary || columns[i].dictionary != nullptr;
  }
  auto run = [&](bool bloom, bool dictionary) -> Result<bool> {
    std::vector<FieldFacts> facts(n);
    for (size_t i = 0; i < n; ++i) {
      if (!summaries[i].empty()) facts[i].summaries = &summaries[i];
      if (bloom) {
        facts[i].bloom_filter = columns[i].bloom_filter;
        facts[i].physical = &columns[i].physical;
      }
      if (dictionary) facts[i].dictionary = columns[i].dictionary;
    }
    SpanEvaluator evaluator(pruner, std::move(facts), 1);
    QUIVER_ASSIGN_OR_RAISE(auto possible, evaluator.Run());
    return (possible[0] & kMayBeTrue) == 0;
  };
  QUIVER_ASSIGN_OR_RAISE(bool pruned, run(false, false));
  if (pruned) return PruneReason::kStatistics;
  if (any_bloom) {
    QUIVER_ASSIGN_OR_RAISE(pruned, run(true, false));
    if (pruned) return PruneReason::kBloomFilter;
  }
  if (any_dictionary) {
    QUIVER_ASSIGN_OR_RAISE(pruned, run(any_bloom, true));
    if (pruned) return PruneReason::kDictionary;
  }
  return PruneReason::kNotPruned;
}

void PruningCounters::Count(PruneReason reason) {
  switch (reason) {
    case PruneReason::kStatistics: ++row_groups_pruned_statistics; break;
    case PruneReason::kBloomFilter: ++row_groups_pruned_bloom; break;
    case PruneReason::kDictionary: ++row_groups_pruned_dictionary; break;
    case PruneReason::kNotPruned: break;
  }
}

// ---- Pages ------------------------------------------------------------------

Result<PageColumn> PageColumn::FromPageIndex(const ColumnIndex* column_index,
                                             const OffsetIndex* offset_index, int64_t num_rows,
                                             bool required) {
  PageColumn out;
  if (offset_index == nullptr) return out;
  const auto& locations = offset_index->page_locations;
  for (size_t i = 0; i < locations.size(); ++i) {
    const int64_t first = locations[i].first_row_index;
    const bool ok = i == 0 ? first == 0 : first > out.first_rows.back() && first < num_rows;
    if (!ok) {
      return Status::Invalid("offset index: page ", i, " starts at row ", first,
                             i == 0 ? " (the first page must start at row 0)"
                                    : " (pages must start at ascending rows below the row "
                                      "group's row count)");
    }
    out.first_rows.push_back(first);
  }
  if (column_index == nullptr || out.first_rows.empty()) return out;
  if (column_index->num_pages() != static_cast<int64_t>(out.first_rows.size())) {
    return Status::Invalid("column index has ", column_index->num_pages(),
                           " pages, offset index ", out.first_rows.size());
  }
  for (size_t i = 0; i < out.first_rows.size(); ++i) {
    const int64_t end = i + 1 < out.first_rows.size() ? out.first_rows[i + 1] : num_rows;
    out.summaries.push_back(ColumnSummary::FromColumnIndexPage(
        *column_index, static_cast<int64_t>(i), end - out.first_rows[i], required));
  }
  return out;
}

int64_t PageSelection::num_rows_selected() const {
  int64_t n = 0;
  for (const auto& r : ranges) n += r.end - r.begin;
  return n;
}

std::vector<bool> PagesNotTouched(std::span<const RowRange> ranges,
                                  std::span<const int64_t> first_rows, int64_t num_rows) {
  std::vector<bool> skipped(first_rows.size(), true);
  size_t r = 0;
  for (size_t p = 0; p < first_rows.size(); ++p) {
    const int64_t begin = first_rows[p];
    const int64_t end = p + 1 < first_rows.size() ? first_rows[p + 1] : num_rows;
    while (r < ranges.size() && ranges[r].end <= begin) ++r;
    // ranges[r] is the first range ending after the page starts.
    skipped[p] = !(r < ranges.size() && ranges[r].begin < end);
  }
  return skipped;
}

Result<PageSelection> PrunePages(const FilterPruner& pruner, int64_t num_rows,
                                 std::span<const PageColumn> columns) {
  const size_t n = pruner.fields().size();
  if (columns.size() != n) {
    return Status::Invalid("pruning: ", columns.size(), " page columns for ", n, " fields");
  }
  for (size_t i = 0; i < n; ++i) {
    const auto& c = columns[i];
    if (!c.summaries.empty() && c.summaries.size() != c.first_rows.size()) {
      return Status::Invalid("pruning: field ", pruner.fields()[i], " has ", c.summaries.size(),
                             " page summaries for ", c.first_rows.size(), " pages");
    }
    for (size_t p = 0; p < c.first_rows.size(); ++p) {
      if (p == 0 ? c.first_rows[0] != 0
                 : (c.first_rows[p] <= c.first_rows[p - 1] || c.first_rows[p] >= num_rows)) {
        return Status::Invalid("pruning: field ", pruner.fields()[i],
                               ": page first rows must ascend from 0 below ", num_rows);
      }
    }
  }
  PageSelection out;
  out.pages_skipped.resize(n);
  if (num_rows <= 0) return out;
  // Segments: cut at every page start of every field.
  std::vector<int64_t> cuts{0};
  for (const auto& c : columns) cuts.insert(cuts.end(), c.first_rows.begin(), c.first_rows.end());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  const auto num_segments = static_cast<int64_t>(cuts.size());
  // Each field's page summary for each segment (a segment lies within one
  // page of every field; the page's counts stay sound for a part of it).
  std::vector<std::vector<ColumnSummary>> summaries(n);
  for (size_t i = 0; i < n; ++i) {
    const auto& c = columns[i];
    if (c.summaries.empty()) continue;
    summaries[i].reserve(cuts.size());
    size_t page = 0;
    for (int64_t start : cuts) {
      while (page + 1 < c.first_rows.size() && c.first_rows[page + 1] <= start) ++page;
      summaries[i].push_back(c.summaries[page]);
    }
  }
  QUIVER_ASSIGN_OR_RAISE(auto possible, pruner.EvaluateSpans(summaries, num_segments));
  for (int64_t s = 0; s < num_segments; ++s) {
    if ((possible[static_cast<size_t>(s)] & kMayBeTrue) == 0) continue;
    const int64_t begin = cuts[static_cast<size_t>(s)];
    const int64_t end = s + 1 < num_segments ? cuts[static_cast<size_t>(s + 1)] : num_rows;
    if (!out.ranges.empty() && out.ranges.back().end == begin) {
      out.ranges.back().end = end;
    } else {
      out.ranges.push_back({begin, end});
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (columns[i].first_rows.empty()) continue;
    out.pages_skipped[i] = PagesNotTouched(out.ranges, columns[i].first_rows, num_rows);
    out.num_pages_skipped += std::count(out.pages_skipped[i].begin(), out.pages_skipped[i].end(), true);
  }
  return out;
}

}  // namespace quiver::parquet
