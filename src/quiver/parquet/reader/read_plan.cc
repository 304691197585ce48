// FileReader::Impl::FetchRowGroup (batch_reader_internal.h): one row
// group's bytes for all of a read's units, so that the file sees one
// coalesced fetch a row group (two for a row selection whose offset
// indexes are not held yet) however the units are spread over threads.
#include "quiver/parquet/reader/batch_reader_internal.h"

#include <utility>

#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/reader/column_reader_internal.h"

namespace quiver::parquet {

using internal::ColumnReader;

namespace {

void Leaves(const ReadNode& node, std::vector<const ReadNode*>* out) {
  if (node.kind == ReadNode::Kind::kLeaf) {
    out->push_back(&node);
    return;
  }
  for (const ReadNode& child : node.children) Leaves(child, out);
}

}  // namespace

Result<std::shared_ptr<io::ReadRangeCache>> FileReader::Impl::FetchRowGroup(
    const std::vector<ReadNode>& nodes, int group, const RowRanges* selection) const {
  const Impl& impl = *this;
  const format::RowGroup& meta = impl.thrift().row_groups[static_cast<size_t>(group)];
  if (selection != nullptr && *selection == RowRanges::All(meta.num_rows)) selection = nullptr;
  const io::ReadRangeCache* held = impl.held.get();
  auto cache = std::make_shared<io::ReadRangeCache>(
      impl.source(), selection != nullptr ? impl.selection_coalesce : io::CoalesceOptions{});
  std::vector<const ReadNode*> leaves;
  for (const ReadNode& node : nodes) Leaves(node, &leaves);
  std::vector<io::ReadRange> ranges;
  if (selection != nullptr && selection->empty()) return cache;  // nothing is read
  if (selection == nullptr || !impl.skip_pages_by_offset_index) {
    for (const ReadNode* leaf : leaves) {
      const size_t c = static_cast<size_t>(leaf->column);
      if (c >= meta.columns.size() || !meta.columns[c].meta_data.has_value()) continue;
      auto range = ColumnChunkRange(*meta.columns[c].meta_data, impl.footer_offset);
      if (range.ok()) ranges.push_back({range->offset, range->length});
    }
    QUIVER_RETURN_NOT_OK(cache->Add(std::move(ranges), held));
    return cache;
  }
  // The leaves' pages through column readers over the cache (as the
  // units' own readers will find them: offset index, else the pages the
  // filter pruning found by their headers; a dictionary page only when
  // a selected page may need it).
  PageReaderOptions options = impl.PageOptions();
  std::vector<std::unique_ptr<ColumnReader>> readers;
  for (const ReadNode* leaf : leaves) {
    QUIVER_ASSIGN_OR_RAISE(auto reader,
                           ColumnReader::Make(cache, &impl.thrift(), impl.footer_offset,
                                              &impl.descriptor->column(leaf->column), leaf,
                                              options));
    reader->OffsetIndexRange(group, &ranges);
    readers.push_back(std::move(reader));
  }
  QUIVER_RETURN_NOT_OK(cache->Add(std::exchange(ranges, {}), held));
  for (auto& reader : readers) {
    QUIVER_RETURN_NOT_OK(reader->StartRowGroup(group, /*skip_pages=*/true));
    reader->NeededRanges(selection, &ranges);
  }
  QUIVER_RETURN_NOT_OK(cache->Add(std::move(ranges), held));
  return cache;
}

}  // namespace quiver::parquet
