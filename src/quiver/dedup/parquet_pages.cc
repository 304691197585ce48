// Listing a Parquet file's pages from its footer (see parquet_pages.h), on
// the metadata layer (parquet/metadata/): the footer reader, the chunk
// ranges with every writer's offset quirks, and the page header walk.
// Chunk ranges must not overlap: dedup refuses such a file.
#include "quiver/dedup/parquet_pages.h"

#include <algorithm>
#include <string>
#include <utility>

#include "quiver/io/memory.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace quiver::dedup {

namespace {

namespace format = parquet::format;

struct ChunkRange {
  int32_t row_group;
  int32_t column;
  parquet::ByteRange bytes;
};

std::string Where(int32_t row_group, int32_t column) {
  return "row group " + std::to_string(row_group) + ", column " + std::to_string(column);
}

Result<ChunkRange> ChunkRangeOf(const format::ColumnChunk& chunk, int32_t row_group,
                                int32_t column, int64_t data_end) {
  if (chunk.file_path.has_value()) {
    return Status::NotImplemented("parquet pages: column chunk data in another file ('",
                                  *chunk.file_path, "') (", Where(row_group, column), ")");
  }
  if (!chunk.meta_data.has_value()) {
    if (chunk.encrypted_column_metadata.has_value() || chunk.crypto_metadata.has_value()) {
      return Status::NotImplemented("parquet pages: encrypted column metadata (",
                                    Where(row_group, column), ")");
    }
    return Status::Invalid("parquet pages: column chunk without metadata (",
                           Where(row_group, column), ")");
  }
  auto range = parquet::ColumnChunkRange(*chunk.meta_data, data_end);
  if (!range.ok()) {
    return range.status().WithContext("parquet pages: ", Where(row_group, column), ": ");
  }
  return ChunkRange{row_group, column, *range};
}

int64_t NumValues(const format::PageHeader& header) {
  if (header.data_page_header.has_value()) return header.data_page_header->num_values;
  if (header.data_page_header_v2.has_value()) return header.data_page_header_v2->num_values;
  if (header.dictionary_page_header.has_value()) {
    return header.dictionary_page_header->num_values;
  }
  return 0;
}

Status AppendPages(const uint8_t* file, const ChunkRange& chunk, std::vector<PageSpan>* out) {
  parquet::PageHeaderIterator pages(file + chunk.bytes.offset, chunk.bytes.length,
                                    chunk.bytes.offset);
  parquet::PageInfo page;
  while (true) {
    auto next = pages.Next(&page);
    if (!next.ok()) {
      return next.status().WithContext("parquet pages: ", Where(chunk.row_group, chunk.column),
                                       ": ");
    }
    if (!*next) return Status::OK();
    PageSpan span;
    span.row_group = chunk.row_group;
    span.column = chunk.column;
    span.type = static_cast<parquet::PageType>(page.header.type);
    span.offset = page.offset;
    span.header_size = page.header_size;
    span.size = page.size();
    span.num_values = NumValues(page.header);
    out->push_back(span);
  }
}

}  // namespace

Result<std::vector<PageSpan>> ListParquetPages(const uint8_t* file, int64_t size) {
  QUIVER_ASSIGN_OR_RAISE(auto listed, ReadParquetPages(file, size));
  return std::move(listed.pages);
}

Result<ParquetPages> ReadParquetPages(const uint8_t* file, int64_t size) {
  if (size < 0 || (size > 0 && file == nullptr)) {
    return Status::Invalid("parquet pages: invalid input buffer (size ", size, ")");
  }
  io::BufferReader reader(Buffer::Wrap(file, size));
  auto footer = parquet::ReadFooter(reader);
  if (!footer.ok()) return footer.status().WithContext("parquet pages: ");
  const format::FileMetaData& metadata = footer->metadata;

  std::vector<ChunkRange> chunks;
  for (size_t r = 0; r < metadata.row_groups.size(); ++r) {
    const auto& columns = metadata.row_groups[r].columns;
    for (size_t c = 0; c < columns.size(); ++c) {
      QUIVER_ASSIGN_OR_RAISE(auto range, ChunkRangeOf(columns[c], static_cast<int32_t>(r),
                                                      static_cast<int32_t>(c),
                                                      footer->footer_offset));
      chunks.push_back(range);
    }
  }
  // Overlapping chunks (a corrupt or hostile footer) are refused before any
  // page is read: this bounds the work to one pass over the file however
  // many chunks a footer lists.
  std::vector<const ChunkRange*> by_start;
  by_start.reserve(chunks.size());
  for (const auto& chunk : chunks) by_start.push_back(&chunk);
  std::sort(by_start.begin(), by_start.end(), [](const ChunkRange* a, const ChunkRange* b) {
    return a->bytes.offset < b->bytes.offset;
  });
  for (size_t i = 1; i < by_start.size(); ++i) {
    const ChunkRange& prev = *by_start[i - 1];
    const ChunkRange& cur = *by_start[i];
    if (cur.bytes.offset < prev.bytes.end()) {
      return Status::Invalid("parquet pages: column chunk at offset ", cur.bytes.offset, " (",
                             Where(cur.row_group, cur.column), ") overlaps the one at offset ",
                             prev.bytes.offset, " (", Where(prev.row_group, prev.column), ")");
    }
  }

  ParquetPages out;
  for (const auto& chunk : chunks) QUIVER_RETURN_NOT_OK(AppendPages(file, chunk, &out.pages));
  if (!metadata.row_groups.empty()) {
    for (const auto& chunk : metadata.row_groups.front().columns) {
      std::string path;
      for (const auto& part : chunk.meta_data->path_in_schema) {
        if (!path.empty()) path += '.';
        path += part;
      }
      out.column_paths.push_back(std::move(path));
    }
  }
  return out;
}

}  // namespace quiver::dedup
