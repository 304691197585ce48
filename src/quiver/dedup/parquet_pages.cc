// Listing a Parquet file's pages from its footer (see parquet_pages.h).
//
// Layout (parquet-format README): "PAR1", column chunks, footer (Thrift
// compact FileMetaData), 4-byte little-endian footer length, "PAR1". A
// column chunk starts at its dictionary page when it has one
// (dictionary_page_offset, taken only when it is positive and before
// data_page_offset, as Arrow C++ does for writers that put 0 there), else at
// data_page_offset, and spans total_compressed_size bytes (page headers
// included). Chunk ranges must lie between the leading magic and the footer
// and must not overlap, which also bounds the work to one pass over the
// file however many chunks a hostile footer lists.
#include "quiver/dedup/parquet_pages.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "quiver/parquet/thrift/compact_protocol.h"
#include "quiver/parquet/thrift/parquet_types.h"

namespace quiver::dedup {

namespace {

namespace format = parquet::format;

constexpr int64_t kMagicSize = 4;
constexpr int64_t kTrailerSize = 8;  // footer length + magic

struct ChunkRange {
  int32_t row_group;
  int32_t column;
  int64_t start;
  int64_t end;
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
  const format::ColumnMetaData& md = *chunk.meta_data;
  int64_t start = md.data_page_offset;
  if (md.dictionary_page_offset.has_value() && *md.dictionary_page_offset > 0 &&
      *md.dictionary_page_offset < start) {
    start = *md.dictionary_page_offset;
  }
  if (start < kMagicSize || start > data_end) {
    return Status::Invalid("parquet pages: first page offset ", start, " outside the data [",
                           kMagicSize, ", ", data_end, ") (", Where(row_group, column), ")");
  }
  if (md.total_compressed_size < 0 || md.total_compressed_size > data_end - start) {
    return Status::Invalid("parquet pages: total_compressed_size ", md.total_compressed_size,
                           " at offset ", start, " runs past the data end ", data_end, " (",
                           Where(row_group, column), ")");
  }
  return ChunkRange{row_group, column, start, start + md.total_compressed_size};
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
  int64_t pos = chunk.start;
  while (pos < chunk.end) {
    int64_t header_size = 0;
    auto header = parquet::thrift::DeserializeThrift<format::PageHeader>(
        file + pos, chunk.end - pos, &header_size);
    if (!header.ok()) {
      return header.status().WithContext("parquet pages: page header at offset ", pos, " (",
                                         Where(chunk.row_group, chunk.column), "): ");
    }
    const int64_t body = header->compressed_page_size;
    if (body < 0 || body > chunk.end - pos - header_size) {
      return Status::Invalid("parquet pages: compressed_page_size ", body,
                             " of the page at offset ", pos, " runs past the column chunk end ",
                             chunk.end, " (", Where(chunk.row_group, chunk.column), ")");
    }
    PageSpan span;
    span.row_group = chunk.row_group;
    span.column = chunk.column;
    span.type = header->type;
    span.offset = pos;
    span.header_size = header_size;
    span.size = header_size + body;
    span.num_values = NumValues(*header);
    out->push_back(span);
    pos += span.size;
  }
  return Status::OK();
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
  if (size < 2 * kMagicSize + 4) {
    return Status::Invalid("parquet pages: a file of ", size,
                           " bytes is too small to be Parquet (at least 12)");
  }
  if (std::memcmp(file + size - kMagicSize, "PARE", kMagicSize) == 0) {
    return Status::NotImplemented("parquet pages: encrypted footer (magic PARE) not supported");
  }
  if (std::memcmp(file, "PAR1", kMagicSize) != 0 ||
      std::memcmp(file + size - kMagicSize, "PAR1", kMagicSize) != 0) {
    return Status::Invalid("parquet pages: missing the PAR1 magic at the start or the end");
  }
  const uint8_t* length_bytes = file + size - kTrailerSize;
  const uint32_t footer_length = static_cast<uint32_t>(length_bytes[0]) |
                                 static_cast<uint32_t>(length_bytes[1]) << 8 |
                                 static_cast<uint32_t>(length_bytes[2]) << 16 |
                                 static_cast<uint32_t>(length_bytes[3]) << 24;
  if (footer_length > static_cast<uint64_t>(size - kTrailerSize - kMagicSize)) {
    return Status::Invalid("parquet pages: footer length ", footer_length,
                           " exceeds the file size ", size);
  }
  const int64_t footer_start = size - kTrailerSize - static_cast<int64_t>(footer_length);
  auto metadata = parquet::thrift::DeserializeThrift<format::FileMetaData>(file + footer_start,
                                                                           footer_length);
  if (!metadata.ok()) {
    return metadata.status().WithContext("parquet pages: footer at offset ", footer_start, ": ");
  }

  std::vector<ChunkRange> chunks;
  for (size_t r = 0; r < metadata->row_groups.size(); ++r) {
    const auto& columns = metadata->row_groups[r].columns;
    for (size_t c = 0; c < columns.size(); ++c) {
      QUIVER_ASSIGN_OR_RAISE(auto range, ChunkRangeOf(columns[c], static_cast<int32_t>(r),
                                                      static_cast<int32_t>(c), footer_start));
      chunks.push_back(range);
    }
  }
  // Overlapping chunks (a corrupt or hostile footer) are refused before any
  // page is read.
  std::vector<const ChunkRange*> by_start;
  by_start.reserve(chunks.size());
  for (const auto& chunk : chunks) by_start.push_back(&chunk);
  std::sort(by_start.begin(), by_start.end(),
            [](const ChunkRange* a, const ChunkRange* b) { return a->start < b->start; });
  for (size_t i = 1; i < by_start.size(); ++i) {
    const ChunkRange& prev = *by_start[i - 1];
    const ChunkRange& cur = *by_start[i];
    if (cur.start < prev.end) {
      return Status::Invalid("parquet pages: column chunk at offset ", cur.start, " (",
                             Where(cur.row_group, cur.column), ") overlaps the one at offset ",
                             prev.start, " (", Where(prev.row_group, prev.column), ")");
    }
  }

  ParquetPages out;
  for (const auto& chunk : chunks) QUIVER_RETURN_NOT_OK(AppendPages(file, chunk, &out.pages));
  if (!metadata->row_groups.empty()) {
    for (const auto& chunk : metadata->row_groups.front().columns) {
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
