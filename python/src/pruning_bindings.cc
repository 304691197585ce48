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
#include "quiver/parquet/pruning/column_summary.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"
// (pruning.h through the reader's interface of gathered facts.)
#include "quiver/parquet/reader/filter_pruning_internal.h"

namespace quiver::python {

namespace {

using parquet::ColumnSummary;
using parquet::filtering::ChunkFacts;

// The leaf of a top-level field that is one flat column, or -1.
int FlatLeaf(const parquet::SchemaDescriptor& schema, const std::string& name) {
  for (int i = 0; i < schema.num_columns(); ++i) {
    const auto& c = schema.column(i);
    if (c.path_parts.size() == 1 && c.path_parts[0] == name && c.max_rep == 0) return i;
  }
  return -1;
}

// Page header statistics of a flat column chunk: the pages' first rows and
// summaries (nothing known for a page without statistics), into `out`.
Status PagesFromHeaders(const io::RandomAccessFile& file, const parquet::FileMetaData& metadata,
                        const parquet::SchemaDescriptor& schema, int row_group, int column,
                        bool required, ChunkFacts* out) {
  const bool use_bounds = parquet::StatisticsBoundsUsable(metadata, column);
  const auto& thrift = parquet::ThriftOf(metadata);
  const auto& chunk = thrift.row_groups[static_cast<size_t>(row_group)]
                          .columns[static_cast<size_t>(column)];
  if (!chunk.meta_data.has_value()) return Status::OK();
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
    out->page_first_rows.push_back(row);
    out->page_summaries.push_back(
        ColumnSummary::FromStatistics(decoded ? &*decoded : nullptr, values, required, use_bounds));
    row += values;
  }
  return Status::OK();
}

nb::list PruneRowGroups(const std::string& path, const compute::Expression& filter,
                        const std::string& pages, nb::handle dictionaries) {
  auto reader = Unwrap(parquet::FileReader::Open(path));
  auto file = Unwrap(io::MemoryMappedFile::Open(path));
  auto metadata = reader->metadata();
  const parquet::SchemaDescriptor& schema = parquet::ParquetSchemaOf(*reader);
  auto pruner = Unwrap(parquet::filtering::Pruner::Make(filter, reader->schema()));
  const auto& fields = pruner.fields();
  std::vector<int> leaves;
  for (const auto& name : fields) leaves.push_back(FlatLeaf(schema, name));

  nb::list out;
  for (int rg = 0; rg < reader->num_row_groups(); ++rg) {
    auto row_group = Unwrap(metadata->row_group(rg));
    const int64_t num_rows = row_group.num_rows();
    std::vector<ChunkFacts> facts(fields.size());
    nb::dict fully;
    for (size_t i = 0; i < fields.size(); ++i) {
      const int leaf = leaves[i];
      if (leaf < 0) continue;
      ChunkFacts& f = facts[i];
      f.leaf = leaf;
      f.required = schema.column(leaf).max_def == 0;
      auto chunk = Unwrap(row_group.column(leaf));
      f.num_values = chunk.num_values();
      f.statistics = Unwrap(reader->ReadStatistics(rg, leaf));
      f.bounds_usable = parquet::StatisticsBoundsUsable(*metadata, leaf);
      f.bloom = Unwrap(reader->ReadBloomFilter(rg, leaf));
      f.physical_type = chunk.physical_type();
      f.type_length = schema.column(leaf).type_length;
      f.bound_type = parquet::StatisticsBoundType(schema, leaf);
      const bool dict_encoded = parquet::IsFullyDictionaryEncoded(chunk);
      fully[fields[i].c_str()] = dict_encoded;
      if (dict_encoded && !dictionaries.is_none()) {
        nb::object key = nb::make_tuple(rg, fields[i]);
        if (nb::cast<nb::dict>(dictionaries).contains(key)) {
          f.dictionary = ArrayFromPy(dictionaries[key]).first->data();
        }
      }
      if (pages == "index") {
        f.column_index = Unwrap(reader->ReadColumnIndex(rg, leaf));
        f.offset_index = Unwrap(reader->ReadOffsetIndex(rg, leaf));
      } else if (pages == "headers") {
        const Status st = PagesFromHeaders(*file, *metadata, schema, rg, leaf, f.required, &f);
        if (!st.ok()) Raise(st);
      }
    }
    const auto reason = Unwrap(pruner.PruneRowGroup(facts));
    nb::dict result;
    switch (reason) {
      case parquet::filtering::Pruned::kNo: result["reason"] = nb::none(); break;
      case parquet::filtering::Pruned::kStatistics: result["reason"] = "statistics"; break;
      case parquet::filtering::Pruned::kBloomFilter: result["reason"] = "bloom"; break;
      case parquet::filtering::Pruned::kDictionary: result["reason"] = "dictionary"; break;
    }
    nb::list ranges;
    nb::dict skipped;
    if (reason == parquet::filtering::Pruned::kNo) {
      auto selection = Unwrap(pruner.PrunePages(num_rows, facts));
      for (const auto& [begin, end] : selection.ranges) ranges.append(nb::make_tuple(begin, end));
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
