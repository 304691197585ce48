// Filtered reads (file_reader.h, FileReader::ReadTable / GetRecordBatchReader
// with a filter; docs/design.md "Filtered reads"): the filter pruning of
// parquet/pruning/ joined to the reader's row selections.
//
// Per row group: PruneRowGroup on the filter fields' chunk statistics, then
// (only when those do not prune and a chunk has one) their bloom filters;
// a pruned row group is counted in ReadStats and not opened. Otherwise
// PrunePages over the fields' column and offset indexes gives the rows that
// may match; the projection plus the filter columns are read for those rows
// only (ReadRowGroups / the selective batch reader, which skip the pages no
// selected row touches in every column) by late_materialization.cc: the
// filter columns first, the filter evaluated, the other columns at the
// matches only.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quiver/compute/expression.h"
#include "quiver/parquet/metadata/statistics_internal.h"
#include "quiver/parquet/pruning/column_summary.h"
#include "quiver/parquet/reader/batch_reader_internal.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"
#include "quiver/parquet/reader/filter_pruning_internal.h"
#include "quiver/parquet/reader/late_materialization_internal.h"
#include "quiver/parquet/reader/pruning_sources_internal.h"

namespace quiver::parquet {

namespace {

// The leaf of a top-level field that is one flat column (not nested, not
// repeated), or -1: the pruning knows nothing of any other field.
int FlatLeaf(const SchemaDescriptor& schema, const std::string& name) {
  for (int i = 0; i < schema.num_columns(); ++i) {
    const auto& c = schema.column(i);
    if (c.path_parts.size() == 1 && c.path_parts[0] == name && c.max_rep == 0) return i;
  }
  return -1;
}

}  // namespace

// What the pruning decided for a read: the row groups left and the rows of
// each that may match, and the counters.
struct FilterPlan {
  std::vector<int> row_groups;
  std::vector<RowRanges> selections;
  int64_t pruned_statistics = 0;
  int64_t pruned_bloom = 0;
  int64_t pruned_dictionary = 0;
  int64_t pruning_bytes = 0;  // page indexes, bloom filters, dictionaries, page headers
  int64_t pages_skipped = 0;  // filter columns' pages of row groups pruned page by page
};

Result<FilterPlan> FileReader::PlanFilter(const compute::Expression& filter,
                                          const std::optional<std::vector<std::string>>& columns,
                                          const std::optional<std::vector<int>>& row_groups) {
  FilterPlan plan;
  // Unknown column names are Invalid before anything is read.
  QUIVER_RETURN_NOT_OK(SchemaFor(columns).status());
  // Binds the filter against the file's schema first: a missing field or a
  // literal a column cannot be compared with is pyarrow's error even when
  // every row group is pruned.
  QUIVER_ASSIGN_OR_RAISE(auto pruner, filtering::Pruner::Make(filter, schema()));
  const std::vector<std::string>& fields = pruner.fields();
  QUIVER_ASSIGN_OR_RAISE(std::vector<int> groups, CheckedRowGroups(row_groups));
  const SchemaDescriptor& descriptor = ParquetSchemaOf(*this);
  std::vector<int> leaves;
  for (const std::string& name : fields) leaves.push_back(FlatLeaf(descriptor, name));
  // The read type of each field (a dictionary type's value type), for
  // its dictionary's values.
  std::vector<TypePtr> field_types;
  for (const std::string& name : fields) {
    const int index = schema()->GetFieldIndex(name);
    TypePtr type = index >= 0 ? schema()->field(index)->type() : nullptr;
    if (type != nullptr && type->id() == Type::kDictionary) {
      type = TypeAs<DictionaryType>(*type).value_type();
    }
    field_types.push_back(std::move(type));
  }
  // Bytes fetched for the pruning are held for the read that follows
  // (a filtered read's StartFilteredRead; nullptr: not held).
  io::ReadRangeCache* held = impl_->held.get();
  const PruningSource source = PruningSourceOf(*this);
  auto metadata_ptr = metadata();
  const int64_t bytes_before = BytesRequested();
  // The row groups the footer, bloom filters and dictionaries keep, then
  // their pages.
  struct Kept {
    int rg;
    int64_t num_rows;
    std::vector<filtering::ChunkFacts> facts;
  };
  std::vector<Kept> kept;
  for (int rg : groups) {
    QUIVER_ASSIGN_OR_RAISE(auto row_group, metadata_ptr->row_group(rg));
    const int64_t num_rows = row_group.num_rows();
    std::vector<filtering::ChunkFacts> facts(fields.size());
    bool any_bloom = false;
    for (size_t i = 0; i < fields.size(); ++i) {
      const int leaf = leaves[i];
      if (leaf < 0) continue;
      QUIVER_ASSIGN_OR_RAISE(auto chunk, row_group.column(leaf));
      filtering::ChunkFacts& f = facts[i];
      f.leaf = leaf;
      f.num_values = chunk.num_values();
      f.required = descriptor.column(leaf).max_def == 0;
      f.bounds_usable = StatisticsBoundsUsable(*metadata_ptr, leaf);
      QUIVER_ASSIGN_OR_RAISE(f.statistics, ReadStatistics(rg, leaf));
      f.physical_type = chunk.physical_type();
      f.type_length = descriptor.column(leaf).type_length;
      any_bloom =
          any_bloom || (pruner.bloom_usable(i) && chunk.bloom_filter_offset().has_value());
    }
    QUIVER_ASSIGN_OR_RAISE(filtering::Pruned pruned, pruner.PruneRowGroup(facts));
    if (pruned == filtering::Pruned::kNo && any_bloom) {
      // Bloom filters are bytes to read: only when the statistics kept it,
      // and only of fields an equality or set lookup tests.
      for (size_t i = 0; i < fields.size(); ++i) {
        filtering::ChunkFacts& f = facts[i];
        if (f.leaf < 0 || !pruner.bloom_usable(i)) continue;
        QUIVER_ASSIGN_OR_RAISE(auto chunk, row_group.column(f.leaf));
        if (!chunk.bloom_filter_offset().has_value()) continue;
        QUIVER_ASSIGN_OR_RAISE(f.bloom, ReadBloomFilter(rg, f.leaf));
        f.bound_type = StatisticsBoundType(descriptor, f.leaf);
      }
      QUIVER_ASSIGN_OR_RAISE(pruned, pruner.PruneRowGroup(facts));
    }
    if (pruned == filtering::Pruned::kNo) {
      // Dictionaries are bytes to read and decode: only when the
      // statistics and bloom filters kept the row group, and only small
      // ones (pruning_sources_internal.h).
      // The fields' dictionary pages are fetched together (one coalesced
      // request where they are near) and held: the read takes them from
      // there rather than asking for them again.
      bool any_dictionary = false;
      std::vector<bool> dictionary_usable(fields.size());
      std::vector<io::ReadRange> dictionaries;
      for (size_t i = 0; i < fields.size(); ++i) {
        const filtering::ChunkFacts& f = facts[i];
        if (f.leaf < 0) continue;
        QUIVER_ASSIGN_OR_RAISE(auto chunk, row_group.column(f.leaf));
        if (field_types[i] == nullptr || !IsFullyDictionaryEncoded(chunk)) continue;
        const auto range = PruningDictionaryRange(source, rg, f.leaf);
        if (!range.has_value()) continue;
        dictionary_usable[i] = true;
        dictionaries.push_back(*range);
      }
      if (held != nullptr && !dictionaries.empty()) {
        QUIVER_RETURN_NOT_OK(held->Add(std::move(dictionaries)));
      }
      for (size_t i = 0; i < fields.size(); ++i) {
        filtering::ChunkFacts& f = facts[i];
        if (!dictionary_usable[i]) continue;
        QUIVER_ASSIGN_OR_RAISE(f.dictionary,
                               ReadPruningDictionary(source, rg, f.leaf, field_types[i]));
        any_dictionary = any_dictionary || f.dictionary != nullptr;
      }
      if (any_dictionary) {
        QUIVER_ASSIGN_OR_RAISE(pruned, pruner.PruneRowGroup(facts));
      }
    }
    switch (pruned) {
      case filtering::Pruned::kNo: break;
      case filtering::Pruned::kStatistics: ++plan.pruned_statistics; continue;
      case filtering::Pruned::kBloomFilter: ++plan.pruned_bloom; continue;
      case filtering::Pruned::kDictionary: ++plan.pruned_dictionary; continue;
    }
    kept.push_back({rg, num_rows, std::move(facts)});
  }
  // The page index of the row groups kept, fetched at once and held for the
  // page pruning and the read: the filter fields' column and offset
  // indexes and the other read leaves' offset indexes (PageIndex.md
  // stores each kind contiguously: one or two requests for the whole
  // read), for the row groups where a filter field has a column index.
  if (held != nullptr) {
    QUIVER_ASSIGN_OR_RAISE(auto read_nodes, impl_->Select(columns));
    std::vector<int32_t> read_leaves;
    for (const auto& node : read_nodes) {
      read_leaves.insert(read_leaves.end(), node.columns.begin(), node.columns.end());
    }
    std::vector<io::ReadRange> index_ranges;
    for (const Kept& k : kept) {
      const auto& chunks = impl_->thrift().row_groups[static_cast<size_t>(k.rg)].columns;
      auto add = [&](int leaf, bool column_index) {
        if (leaf < 0 || static_cast<size_t>(leaf) >= chunks.size()) return;
        const auto& chunk = chunks[static_cast<size_t>(leaf)];
        const auto& offset = column_index ? chunk.column_index_offset : chunk.offset_index_offset;
        const auto& length = column_index ? chunk.column_index_length : chunk.offset_index_length;
        if (offset.has_value() && length.has_value() && *offset >= 0 && *length > 0 &&
            *offset <= impl_->footer_offset - *length) {
          index_ranges.push_back({*offset, *length});
        }
      };
      const bool indexed = std::any_of(k.facts.begin(), k.facts.end(), [&](const auto& f) {
        return f.leaf >= 0 && static_cast<size_t>(f.leaf) < chunks.size() &&
               chunks[static_cast<size_t>(f.leaf)].column_index_offset.has_value();
      });
      if (!indexed) continue;
      for (const auto& f : k.facts) {
        add(f.leaf, true);
        add(f.leaf, false);
      }
      for (int32_t leaf : read_leaves) add(leaf, false);
    }
    if (!index_ranges.empty()) QUIVER_RETURN_NOT_OK(held->Add(std::move(index_ranges)));
  }
  for (Kept& k : kept) {
    const int rg = k.rg;
    const int64_t num_rows = k.num_rows;
    std::vector<filtering::ChunkFacts>& facts = k.facts;
    // Pages: the filter fields' column and offset indexes, else (no
    // column index) their data pages' header statistics.
    for (filtering::ChunkFacts& f : facts) {
      if (f.leaf < 0) continue;
      QUIVER_ASSIGN_OR_RAISE(f.column_index, ReadColumnIndex(rg, f.leaf));
      if (f.column_index.has_value()) {
        QUIVER_ASSIGN_OR_RAISE(f.offset_index, ReadOffsetIndex(rg, f.leaf));
        continue;
      }
      QUIVER_ASSIGN_OR_RAISE(
          auto headers, ReadPageHeaderFacts(source, rg, f.leaf, num_rows, f.bounds_usable));
      if (!headers.has_value()) continue;  // no page facts: nothing to prune by
      f.page_first_rows = std::move(headers->first_rows);
      f.page_summaries = std::move(headers->summaries);
      // The filter column then skips the pages no selected row is in.
      if (headers->locations.size() > 1) {
        AddHeaderPageLocations(*this, rg, f.leaf, std::move(headers->locations));
      }
    }
    QUIVER_ASSIGN_OR_RAISE(auto pages, pruner.PrunePages(num_rows, facts));
    const auto& ranges = pages.ranges;
    if (ranges.empty()) {
      // Every page pruned: the row group is not opened, and none of the
      // filter columns' pages (known from an offset index or their
      // headers) is read.
      for (const auto& skipped : pages.pages_skipped) {
        plan.pages_skipped += static_cast<int64_t>(skipped.size());
      }
      continue;
    }
    std::vector<RowRange> rows;
    rows.reserve(ranges.size());
    for (const auto& [begin, end] : ranges) rows.push_back(RowRange{begin, end});
    QUIVER_ASSIGN_OR_RAISE(auto selection, RowRanges::Make(std::move(rows)));
    plan.row_groups.push_back(rg);
    plan.selections.push_back(std::move(selection));
  }
  plan.pruning_bytes = BytesRequested() - bytes_before;
  return plan;
}

std::shared_ptr<void> FileReader::Impl::StartFilteredRead() {
  held = std::make_shared<io::ReadRangeCache>(file);
  if (tail != nullptr) held->Hold(tail_offset, tail);
  selection_coalesce = io::CoalesceOptions{};
  return std::shared_ptr<void>(this, [](Impl* impl) {
    impl->held = nullptr;
    impl->selection_coalesce = io::CoalesceOptions{.hole_size_limit = 0};
  });
}

Result<TablePtr> FileReader::ReadTable(const compute::Expression& filter,
                                       const std::optional<std::vector<std::string>>& columns,
                                       const std::optional<std::vector<int>>& row_groups) {
  const auto filtered_read = impl_->StartFilteredRead();
  QUIVER_ASSIGN_OR_RAISE(FilterPlan plan, PlanFilter(filter, columns, row_groups));
  // late_materialization.cc: the filter columns first, the rest at the matches.
  QUIVER_ASSIGN_OR_RAISE(TablePtr out, internal::ReadLate(*this, filter, columns, plan.row_groups,
                                                          plan.selections));
  AddPruningStats(plan.pruned_statistics, plan.pruned_bloom, plan.pruned_dictionary,
                  plan.pruning_bytes, plan.pages_skipped);
  return out;
}

Result<TablePtr> FileReader::ReadRowGroup(int row_group, const compute::Expression& filter,
                                          const std::optional<std::vector<std::string>>& columns) {
  return ReadTable(filter, columns, std::vector<int>{row_group});
}

Result<RecordBatchReaderPtr> FileReader::GetRecordBatchReader(
    const compute::Expression& filter, const std::optional<std::vector<std::string>>& columns,
    const std::optional<std::vector<int>>& row_groups, int64_t batch_size) {
  const auto filtered_read = impl_->StartFilteredRead();
  QUIVER_ASSIGN_OR_RAISE(FilterPlan plan, PlanFilter(filter, columns, row_groups));
  QUIVER_ASSIGN_OR_RAISE(auto reader, internal::ReadLateBatches(*this, filter, columns,
                                                                plan.row_groups, plan.selections,
                                                                batch_size));
  AddPruningStats(plan.pruned_statistics, plan.pruned_bloom, plan.pruned_dictionary,
                  plan.pruning_bytes, plan.pages_skipped);
  return reader;
}

}  // namespace quiver::parquet
