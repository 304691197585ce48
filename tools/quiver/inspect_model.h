// What `quiver inspect` learns about a Parquet file: the footer, the schema
// tree, and for every column chunk its pages and page index, plus every
// inconsistency found on the way ("problems").
//
// Layout (Parquet format spec, "File format"): "PAR1", column chunks (each
// a sequence of [PageHeader][page bytes], the dictionary page first), the
// page index (ColumnIndex / OffsetIndex structs), the footer (FileMetaData),
// its 4-byte little-endian length, "PAR1".
//
// The file is untrusted: every offset and length from the footer is checked
// against the region between the leading magic and the footer before
// anything is read there, Thrift decoding runs under ThriftLimits, a page
// walk stops at its chunk's end, and the chunks' total length may not
// exceed the file (overlapping chunks could otherwise make the walk
// quadratic). Errors that make the footer unreadable fail InspectFile();
// anything after that is recorded as a problem of the chunk or the file and
// the inspection goes on.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/memory/buffer.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::cli {

struct InspectOptions {
  bool walk_pages = true;
  bool verify_checksums = true;
  bool read_page_index = true;
  // Page records kept per file (all pages are still walked and checked).
  int64_t max_pages = 1'000'000;
  parquet::thrift::ThriftLimits limits;
};

struct PageRecord {
  int64_t offset = 0;  // of the page header
  int64_t header_size = 0;
  parquet::format::PageHeader header;
  // Set when the header carries a CRC and checksums were verified.
  std::optional<bool> crc_ok;
};

struct SchemaNode {
  int element = 0;  // index into FileMetaData::schema
  int depth = 0;    // the root is 0
  std::string path;  // dotted, without the root
  bool is_leaf = false;
};

struct ChunkRecord {
  int row_group = 0;
  int column = 0;
  std::string path;  // dotted path_in_schema
  int leaf = -1;     // index into InspectedFile::leaves, -1 if unmatched
  bool pages_walked = false;
  std::vector<PageRecord> pages;
  int64_t pages_not_kept = 0;  // beyond InspectOptions::max_pages
  std::optional<parquet::format::ColumnIndex> column_index;
  std::optional<parquet::format::OffsetIndex> offset_index;
  std::vector<std::string> problems;
};

struct InspectedFile {
  std::string path;
  int64_t file_size = 0;
  int64_t footer_offset = 0;
  int64_t footer_length = 0;
  parquet::format::FileMetaData metadata;
  std::vector<SchemaNode> schema;  // depth-first, as stored
  std::vector<int> leaves;         // indexes into `schema` of the leaf columns
  std::vector<std::vector<ChunkRecord>> chunks;  // [row group][column]
  std::vector<std::string> problems;             // not tied to a chunk

  const parquet::format::ColumnChunk& column_chunk(const ChunkRecord& c) const {
    return metadata.row_groups[static_cast<size_t>(c.row_group)]
        .columns[static_cast<size_t>(c.column)];
  }
  // The schema element of a chunk's leaf, or nullptr.
  const parquet::format::SchemaElement* leaf_element(const ChunkRecord& c) const {
    if (c.leaf < 0) return nullptr;
    return &metadata.schema[static_cast<size_t>(schema[static_cast<size_t>(leaves[c.leaf])].element)];
  }
  int64_t num_problems() const;
  // The first problem, prefixed with where it was found.
  std::string first_problem() const;
};

// Inspects the Parquet file held in `data` (the whole file).
Result<InspectedFile> InspectFile(const Buffer& data, std::string path,
                                  const InspectOptions& options);

}  // namespace quiver::cli
