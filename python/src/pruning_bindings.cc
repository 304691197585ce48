// quiver._quiver._prune_row_groups: a private entry to filter pruning
// (src/quiver/parquet/pruning/pruning.h) for the tests that judge it
// against pyarrow (python/tests/test_pruning*.py). Not a public API: the
// reader wires pruning in itself.
//
// _prune_row_groups(path, expression, pages='index', dictionaries=None)
// returns one dict per row group:
//   reason: None, 'statistics', 'bloom' or 'dictionary'
//   ranges: [(begin, end), ...] rows the page-level pruning keeps (the
//           whole row group when it has no page facts; [] when pruned)
//   pages_skipped: {field: [bool per page]}
//   fully_dictionary: {field: bool} (IsFullyDictionaryEncoded)
// `pages`: 'index' (column index + offset index), 'headers' (data page
// header statistics, counted first rows) or 'none'. `dictionaries`:
// {(row_group, field): array}, used for a chunk only when every data page
// of it is dictionary-encoded.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "common.h"
#include "quiver/compute/expression.h"
#include "quiver/io/file.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/metadata/statistics_internal.h"
#include "quiver/parquet/pruning/pruning.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"

namespace quiver::python {

namespace {

using parquet::ColumnSummary;
using parquet::PageColumn;

// The leaf of a top-level field that is one flat column, or -1.
int FlatLeaf(const parquet::SchemaDescriptor& schema, const std::string& name) {
  for (int i = 0; i < schema.num_columns(); ++i) {
    const auto& c = schema.column(i);
    if (c.path_parts.size() == 1 && c.path_parts[0] == name && c.max_rep == 0) return i;
  }
  return -1;
}

// Page header statistics of a flat column chunk: the pages' first rows and
// summaries (nothing known for a page without statistics).
Result<PageColumn> PagesFromHeaders(const io::RandomAccessFile& file,
                                    const parquet::FileMetaData& metadata,
                                    const parquet::SchemaDescriptor& schema, int row_group,
                                    int column, bool required) {
  const bool use_bounds = parquet::StatisticsBoundsUsable(metadata, column);
  const auto& thrift = parquet::ThriftOf(metadata);
  const auto& chunk = thrift.row_groups[static_cast<size_t>(row_group)]
                          .columns[static_cast<size_t>(column)];
  PageColumn out;
  if (!chunk.meta_data.has_value()) return out;
  const int64_t data_end = file.Size() - 8 - metadata.serialized_size();
  QUIVER_ASSIGN_OR_RAISE(auto range, parquet::ColumnChunkRange(*chunk.meta_data, data_end));
  QUIVER_ASSIGN_OR_RAISE(auto bytes, file.ReadAt(range.offset, range.length));
  parquet::PageHeaderIterator pages(bytes->data(), bytes->size(), range.offset);
  const parquet::ApplicationVersion writer(thrift.created_by.value_or(""));
  const auto type_order = parquet::ColumnTypeOrder(thrift, column);
  int64_t row = 0;
  parquet::PageInfo page;
  while (true) {
    QUIVER_ASSIGN_OR_RAISE(bool more, pages.Next(&page));
    if (!more) break;
    const auto& h = page.header;
    const std::optional<parquet::format::Statistics>* stats = nullptr;
    int64_t values = 0;
    if (h.data_page_header.has_value()) {
      values = h.data_page_header->num_values;
      stats = &h.data_page_header->statistics;
    } else if (h.data_page_header_v2.has_value()) {
      values = h.data_page_header_v2->num_values;
      stats = &h.data_page_header_v2->statistics;
    } else {
      continue;
    }
    std::optional<parquet::Statistics> decoded;
    if (stats->has_value()) {
      decoded = parquet::DecodeStatistics(**stats, schema, column, values, type_order, writer);
    }
    out.first_rows.push_back(row);
    out.summaries.push_back(
        ColumnSummary::FromStatistics(decoded ? &*decoded : nullptr, values, required, use_bounds));
    row += values;
  }
  return out;
}

nb::list PruneRowGroups(const std::string& path, const compute::Expression& filter,
                        const std::string& pages, nb::handle dictionaries) {
  auto reader = Unwrap(parquet::FileReader::Open(path));
  auto file = Unwrap(io::MemoryMappedFile::Open(path));
  auto metadata = reader->metadata();
  const parquet::SchemaDescriptor& schema = parquet::ParquetSchemaOf(*reader);
  auto pruner = Unwrap(parquet::FilterPruner::Make(filter, reader->schema()));
  const auto& fields = pruner->fields();
  std::vector<int> leaves;
  for (const auto& name : fields) leaves.push_back(FlatLeaf(schema, name));

  nb::list out;
  for (int rg = 0; rg < reader->num_row_groups(); ++rg) {
    auto row_group = Unwrap(metadata->row_group(rg));
    const int64_t num_rows = row_group.num_rows();
    std::vector<parquet::RowGroupColumn> columns(fields.size());
    std::vector<std::optional<parquet::BloomFilter>> blooms(fields.size());
    std::vector<PageColumn> page_columns(fields.size());
    nb::dict fully;
    for (size_t i = 0; i < fields.size(); ++i) {
      const int leaf = leaves[i];
      if (leaf < 0) continue;
      const bool required = schema.column(leaf).max_def == 0;
      auto chunk = Unwrap(row_group.column(leaf));
      auto stats = Unwrap(reader->ReadStatistics(rg, leaf));
      columns[i].statistics = ColumnSummary::FromStatistics(
          stats ? &*stats : nullptr, chunk.num_values(), required,
          parquet::StatisticsBoundsUsable(*metadata, leaf));
      blooms[i] = Unwrap(reader->ReadBloomFilter(rg, leaf));
      if (blooms[i].has_value()) {
        columns[i].bloom_filter = &*blooms[i];
        columns[i].physical = parquet::PhysicalColumn{
            chunk.physical_type(), schema.column(leaf).type_length,
            parquet::StatisticsBoundType(schema, leaf)};
      }
      const bool dict_encoded = parquet::IsFullyDictionaryEncoded(chunk);
      fully[fields[i].c_str()] = dict_encoded;
      if (dict_encoded && !dictionaries.is_none()) {
        nb::object key = nb::make_tuple(rg, fields[i]);
        if (nb::cast<nb::dict>(dictionaries).contains(key)) {
          columns[i].dictionary = ArrayFromPy(dictionaries[key]).first->data();
        }
      }
      if (pages == "index") {
        auto column_index = Unwrap(reader->ReadColumnIndex(rg, leaf));
        auto offset_index = Unwrap(reader->ReadOffsetIndex(rg, leaf));
        page_columns[i] = Unwrap(PageColumn::FromPageIndex(
            column_index ? &*column_index : nullptr, offset_index ? &*offset_index : nullptr,
            num_rows, required));
      } else if (pages == "headers") {
        page_columns[i] = Unwrap(PagesFromHeaders(*file, *metadata, schema, rg, leaf, required));
      }
    }
    const auto reason = Unwrap(parquet::PruneRowGroup(*pruner, columns));
    nb::dict result;
    switch (reason) {
      case parquet::PruneReason::kNotPruned: result["reason"] = nb::none(); break;
      case parquet::PruneReason::kStatistics: result["reason"] = "statistics"; break;
      case parquet::PruneReason::kBloomFilter: result["reason"] = "bloom"; break;
      case parquet::PruneReason::kDictionary: result["reason"] = "dictionary"; break;
    }
    nb::list ranges;
    nb::dict skipped;
    if (reason == parquet::PruneReason::kNotPruned) {
      auto selection = Unwrap(parquet::PrunePages(*pruner, num_rows, page_columns));
      for (const auto& r : selection.ranges) ranges.append(nb::make_tuple(r.begin, r.end));
      for (size_t i = 0; i < fields.size(); ++i) {
        nb::list flags;
        for (bool b : selection.pages_skipped[i]) flags.append(b);
        skipped[fields[i].c_str()] = flags;
      }
    }
    result["ranges"] = ranges;
    result["pages_skipped"] = skipped;
    result["fully_dictionary"] = fully;
    out.append(result);
  }
  return out;
}

}  // namespace

void BindPruning(nb::module_& m) {
  m.def("_prune_row_groups", &PruneRowGroups, nb::arg("path"), nb::arg("expression"),
        nb::arg("pages") = "index", nb::arg("dictionaries") = nb::none());
}

}  // namespace quiver::python
