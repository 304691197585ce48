// pruning_sources_internal.h: dictionaries and page headers read for
// filter pruning.
#include "quiver/parquet/reader/pruning_sources_internal.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/statistics_internal.h"
#include "quiver/parquet/reader/leaf_builder_internal.h"

namespace quiver::parquet {

namespace {

// The first bytes read for a page header (after the first header, twice
// the previous header's size, at most this); grown (x4) while the header
// does not decode (longer byte-array statistics), up to the chunk's end.
constexpr int64_t kHeaderProbe = 256;

// The chunk `leaf` of `row_group`, when it is one this reader reads
// (metadata present, in this file, of the schema's physical type).
const format::ColumnMetaData* ChunkMeta(const PruningSource& source, int row_group, int leaf) {
  const auto& groups = source.metadata->row_groups;
  if (row_group < 0 || static_cast<size_t>(row_group) >= groups.size()) return nullptr;
  const auto& columns = groups[static_cast<size_t>(row_group)].columns;
  if (leaf < 0 || static_cast<size_t>(leaf) >= columns.size()) return nullptr;
  const format::ColumnChunk& chunk = columns[static_cast<size_t>(leaf)];
  if (!chunk.meta_data.has_value()) return nullptr;
  // Encrypted pages are read only with their key (the column reader
  // refuses them otherwise).
  if (chunk.crypto_metadata.has_value() || chunk.encrypted_column_metadata.has_value()) {
    const auto* decryptor = source.page_options.decryptor == nullptr
                                ? nullptr
                                : source.page_options.decryptor->ForChunk(
                                      row_group, source.descriptor->column(leaf).path);
    if (decryptor == nullptr || !decryptor->has_key()) return nullptr;
  }
  if (chunk.file_path.has_value() && !chunk.file_path->empty()) return nullptr;
  if (chunk.meta_data->type != source.descriptor->column(leaf).physical_type) return nullptr;
  if (chunk.meta_data->num_values <= 0) return nullptr;
  return &*chunk.meta_data;
}

}  // namespace

std::optional<io::ReadRange> PruningDictionaryRange(const PruningSource& source, int row_group,
                                                    int leaf) {
  const format::ColumnMetaData* meta = ChunkMeta(source, row_group, leaf);
  if (meta == nullptr) return std::nullopt;
  // The dictionary page lies in [dictionary_page_offset, data_page_offset);
  // without a usable dictionary_page_offset its size is unknown: not read.
  const int64_t start = ColumnChunkStart(*meta);
  if (!meta->dictionary_page_offset.has_value() || start != *meta->dictionary_page_offset ||
      start >= meta->data_page_offset) {
    return std::nullopt;
  }
  const int64_t stored = meta->data_page_offset - start;
  if (stored > kMaxPruningDictionaryBytes ||
      (stored > kSmallPruningDictionaryBytes &&
       stored > meta->total_compressed_size / kMinChunkPerDictionary)) {
    return std::nullopt;
  }
  auto range = ColumnChunkRange(*meta, source.data_end);
  if (!range.ok() || meta->data_page_offset >= range->end()) return std::nullopt;
  return io::ReadRange{start, stored};
}

Result<ArrayDataPtr> ReadPruningDictionary(const PruningSource& source, int row_group, int leaf,
                                           const TypePtr& type) {
  if (!PruningDictionaryRange(source, row_group, leaf).has_value()) return nullptr;
  const format::ColumnMetaData* meta = ChunkMeta(source, row_group, leaf);
  auto range = ColumnChunkRange(*meta, source.data_end);
  const ColumnDescriptor& column = source.descriptor->column(leaf);
  ColumnChunkContext context{source.file->name(), row_group, column.path};
  PageReaderOptions options = source.page_options;
  options.stats = nullptr;
  options.legacy_dictionary_header_padding = false;
  auto made = PageReader::Make(source.file, *meta, source.data_end, column, context, options);
  if (!made.ok()) return made.status().IsIOError() ? made.status() : Result<ArrayDataPtr>(nullptr);
  std::unique_ptr<PageReader> pages = std::move(*made);
  // One location, the first data page: the dictionary page in front of it
  // is then read with exactly its bytes (PageReader::SetPageLocations).
  const int64_t rest = range->end() - meta->data_page_offset;
  pages->SetPageLocations({PageLocation{
      meta->data_page_offset,
      static_cast<int32_t>(std::min<int64_t>(rest, std::numeric_limits<int32_t>::max())), 0}});
  auto more = pages->Next();
  if (!more.ok()) return more.status().IsIOError() ? more.status() : Result<ArrayDataPtr>(nullptr);
  if (!*more || !pages->is_dictionary()) return nullptr;
  const DictionaryPage& page = pages->dictionary_page();
  MemoryPool* pool = options.pool != nullptr ? options.pool : DefaultMemoryPool();
  auto decoder = MakeDecoder(column.physical_type, format::Encoding::kPlain, column.type_length,
                             pool);
  if (!decoder.ok()) return nullptr;
  if (!(*decoder)
           ->SetData(page.num_values, page.data.data(), static_cast<int64_t>(page.data.size()))
           .ok()) {
    return nullptr;
  }
  auto builder = internal::MakeLeafBuilder(column, type, pool);
  if (!builder.ok()) return nullptr;
  const int64_t n = page.num_values;
  if (!(*builder)->Append(decoder->get(), n, nullptr, 0, n).ok()) return nullptr;
  auto values = (*builder)->Finish(nullptr, 0);
  if (!values.ok()) return nullptr;
  return std::move(*values);
}

Result<std::optional<HeaderPages>> ReadPageHeaderFacts(const PruningSource& source,
                                                       int row_group, int leaf, int64_t num_rows,
                                                       bool bounds_usable) {
  const std::optional<HeaderPages> none;
  const format::ColumnMetaData* meta = ChunkMeta(source, row_group, leaf);
  if (meta == nullptr || num_rows <= 0) return none;
  const ColumnDescriptor& column = source.descriptor->column(leaf);
  if (column.max_rep != 0) return none;
  auto range = ColumnChunkRange(*meta, source.data_end);
  if (!range.ok()) return none;
  const bool required = column.max_def == 0;
  const ApplicationVersion writer(source.metadata->created_by.value_or(""));
  const std::optional<bool> type_order = ColumnTypeOrder(*source.metadata, leaf);
  const thrift::ThriftLimits& limits = source.page_options.limits;

  HeaderPages out;
  bool locations_usable = true;
  int64_t probe = kHeaderProbe;
  int64_t pos = range->offset;
  int64_t row = 0;
  for (int64_t index = 0; row < num_rows && pos < range->end(); ++index) {
    const int64_t left = range->end() - pos;
    int64_t window = std::min(left, probe);
    Result<PageInfo> page = Status::Invalid("no header");
    while (true) {
      QUIVER_ASSIGN_OR_RAISE(auto bytes, source.file->ReadAt(pos, window));
      page = DecodePageHeader(bytes->data(), bytes->size(), index, pos, limits);
      if (page.ok()) break;
      if (window >= left || bytes->size() < window) return none;
      window = std::min(left, window * 4);
    }
    if (!CheckPageHeader(*page, left).ok() || !CheckPageFields(page->header, index).ok()) {
      return none;
    }
    const format::PageHeader& h = page->header;
    const int64_t size = page->size();
    // The chunk's headers are alike: the next probe twice this one.
    probe = std::min(kHeaderProbe, 2 * page->header_size);
    const format::Statistics* stats = nullptr;
    int64_t rows = -1;
    if (h.type == format::PageType::kDataPage && h.data_page_header.has_value()) {
      rows = h.data_page_header->num_values;  // max_rep 0: one value a row
      if (h.data_page_header->statistics.has_value()) stats = &*h.data_page_header->statistics;
    } else if (h.type == format::PageType::kDataPageV2 && h.data_page_header_v2.has_value()) {
      rows = h.data_page_header_v2->num_rows;
      if (rows != h.data_page_header_v2->num_values) return none;
      if (h.data_page_header_v2->statistics.has_value()) {
        stats = &*h.data_page_header_v2->statistics;
      }
    }
    if (rows < 0 && !(index == 0 && h.type == format::PageType::kDictionaryPage)) {
      // An index page or a page type readers skip: the column reader must
      // not be sent past it by location (it expects a dictionary page, if
      // anything, in front of the first data page).
      locations_usable = false;
    }
    if (rows >= 0) {
      // A page of no rows would make first rows repeat; more rows than
      // the row group has, a chunk that does not add up.
      if (rows == 0 || rows > num_rows - row ||
          size > std::numeric_limits<int32_t>::max()) {
        return none;
      }
      std::optional<Statistics> decoded;
      if (stats != nullptr) {
        decoded = DecodeStatistics(*stats, *source.descriptor, leaf, rows, type_order, writer);
      }
      out.first_rows.push_back(row);
      out.summaries.push_back(ColumnSummary::FromStatistics(
          decoded.has_value() ? &*decoded : nullptr, rows, required, bounds_usable));
      out.locations.push_back(PageLocation{page->offset, static_cast<int32_t>(size), row});
      row += rows;
    }
    pos += size;
  }
  if (row != num_rows || out.first_rows.empty()) return none;
  if (!locations_usable) out.locations.clear();
  return std::optional<HeaderPages>(std::move(out));
}

}  // namespace quiver::parquet
