// filter_pruning_internal.h: the pruning module's calls, for filtered_read.cc.
#include "quiver/parquet/reader/filter_pruning_internal.h"

#include "quiver/compute/expression.h"
#include "quiver/parquet/pruning/pruning.h"

namespace quiver::parquet::filtering {

Result<Pruner> Pruner::Make(const compute::Expression& filter, SchemaPtr schema) {
  Pruner out;
  QUIVER_ASSIGN_OR_RAISE(out.pruner_, FilterPruner::Make(filter, std::move(schema)));
  return out;
}

const std::vector<std::string>& Pruner::fields() const { return pruner_->fields(); }

bool Pruner::bloom_usable(size_t i) const { return pruner_->bloom_usable(i); }

Result<Pruned> Pruner::PruneRowGroup(const std::vector<ChunkFacts>& facts) const {
  std::vector<RowGroupColumn> columns(facts.size());
  for (size_t i = 0; i < facts.size(); ++i) {
    const ChunkFacts& f = facts[i];
    if (f.leaf < 0) continue;
    columns[i].statistics =
        ColumnSummary::FromStatistics(f.statistics ? &*f.statistics : nullptr, f.num_values,
                                      f.required, f.bounds_usable);
    columns[i].dictionary = f.dictionary;
    if (f.bloom.has_value()) {
      columns[i].bloom_filter = &*f.bloom;
      columns[i].physical = PhysicalColumn{f.physical_type, f.type_length, f.bound_type};
    }
  }
  QUIVER_ASSIGN_OR_RAISE(PruneReason reason, parquet::PruneRowGroup(*pruner_, columns));
  switch (reason) {
    case PruneReason::kNotPruned: return Pruned::kNo;
    case PruneReason::kStatistics: return Pruned::kStatistics;
    case PruneReason::kBloomFilter: return Pruned::kBloomFilter;
    case PruneReason::kDictionary: return Pruned::kDictionary;
  }
  return Pruned::kNo;
}

Result<PagePruning> Pruner::PrunePages(int64_t num_rows,
                                      const std::vector<ChunkFacts>& facts) const {
  std::vector<PageColumn> pages(facts.size());
  bool any = false;
  for (size_t i = 0; i < facts.size(); ++i) {
    const ChunkFacts& f = facts[i];
    if (f.leaf < 0) continue;
    if (f.column_index.has_value() || f.offset_index.has_value()) {
      auto column = PageColumn::FromPageIndex(f.column_index ? &*f.column_index : nullptr,
                                              f.offset_index ? &*f.offset_index : nullptr,
                                              num_rows, f.required);
      if (!column.ok()) continue;  // an index that does not fit: the field may be anything
      pages[i] = std::move(*column);
    } else if (!f.page_first_rows.empty()) {
      pages[i].first_rows = f.page_first_rows;
      pages[i].summaries = f.page_summaries;
    } else {
      continue;
    }
    any = true;
  }
  PagePruning out;
  if (!any) {
    if (num_rows > 0) out.ranges.emplace_back(0, num_rows);
    out.pages_skipped.resize(facts.size());
    return out;
  }
  QUIVER_ASSIGN_OR_RAISE(auto selection, parquet::PrunePages(*pruner_, num_rows, pages));
  out.ranges.reserve(selection.ranges.size());
  for (const auto& r : selection.ranges) out.ranges.emplace_back(r.begin, r.end);
  out.pages_skipped = std::move(selection.pages_skipped);
  return out;
}

}  // namespace quiver::parquet::filtering
