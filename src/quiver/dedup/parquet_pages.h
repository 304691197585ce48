// Where every page of a Parquet file is stored: each column chunk of each
// row group is walked page header by page header, from its first page (the
// dictionary page if any, else the first data page) over the chunk's
// total_compressed_size bytes. Spec: apache/parquet-format README ("File
// format", "Metadata", "Column chunks") and parquet.thrift (FileMetaData,
// ColumnMetaData, PageHeader).
//
// The input is untrusted: the magic, the footer length, every chunk range
// and every page are bounds-checked against the file, and a malformed file
// yields Invalid("parquet pages: row group R, column C: <what, with offsets>"),
// never a crash or a read outside the buffer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quiver/parquet/types.h"
#include "quiver/util/result.h"

namespace quiver::dedup {

// One page as stored: its Thrift PageHeader followed by its compressed
// (and possibly encrypted) body.
struct PageSpan {
  int32_t row_group = 0;
  // Leaf column index (the position of the chunk in its row group).
  int32_t column = 0;
  parquet::PageType type{};
  // File offset of the page header.
  int64_t offset = 0;
  int64_t header_size = 0;
  // Header + compressed body.
  int64_t size = 0;
  // Values (levels) in a data page, entries in a dictionary page; 0 for
  // other pages.
  int64_t num_values = 0;
};

// Every page of every column chunk of the file in data[0, size), in file
// order within each chunk and chunk order (row group by row group, column by
// column) within the file. Encrypted files (magic "PARE") are
// NotImplemented; anything malformed is Invalid.
Result<std::vector<PageSpan>> ListParquetPages(const uint8_t* file, int64_t size);

// The same pages with the leaf columns' dotted paths ("tags.list.element"),
// indexed by PageSpan::column (taken from the first row group's
// path_in_schema; empty when the file has no row groups).
struct ParquetPages {
  std::vector<std::string> column_paths;
  std::vector<PageSpan> pages;
};
Result<ParquetPages> ReadParquetPages(const uint8_t* file, int64_t size);

}  // namespace quiver::dedup
