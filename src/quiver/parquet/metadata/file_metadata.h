// A Parquet file's footer, typed (in the spirit of Arrow C++'s
// parquet/metadata.h): FileMetaData, its RowGroupMetaData and their
// ColumnChunkMetaData, read from the footer's Thrift FileMetaData without
// exposing it (file_metadata_internal.h builds them and hands the Thrift
// struct to the code that needs it).
//
// The three classes share one immutable footer: a RowGroupMetaData or a
// ColumnChunkMetaData keeps it alive and is cheap to copy. An index out of
// range is an Invalid naming the index and the count, never undefined
// behaviour. Values are as stored: the checks a reader makes before it
// trusts an offset (metadata/column_chunk_internal.h) are not made here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quiver/compression/codec.h"
#include "quiver/io/interfaces.h"
#include "quiver/parquet/metadata/statistics.h"
#include "quiver/parquet/types.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

struct FileMetaDataState;  // file_metadata.cc

// One element of the flattened schema as stored (parquet.thrift
// SchemaElement, depth first, the root first).
struct SchemaElementInfo {
  std::string name;
  std::optional<PhysicalType> physical_type;  // leaves only
  std::optional<Repetition> repetition;       // absent on the root
  std::optional<int32_t> type_length;
  std::optional<int32_t> num_children;        // groups only
  std::optional<int32_t> field_id;
  std::optional<int32_t> precision;
  std::optional<int32_t> scale;
  std::optional<LogicalType> logical_type;
  std::optional<ConvertedType> converted_type;
};

// A stored key-value pair (the value may be absent).
struct KeyValuePair {
  std::string key;
  std::optional<std::string> value;
  friend bool operator==(const KeyValuePair&, const KeyValuePair&) = default;
};

// How a row group is sorted (parquet.thrift SortingColumn).
struct SortingColumnInfo {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  friend bool operator==(const SortingColumnInfo&, const SortingColumnInfo&) = default;
};

// How many pages of a type use an encoding (parquet.thrift PageEncodingStats).
struct PageEncodingCount {
  PageType page_type = PageType::kDataPage;
  Encoding encoding = Encoding::kPlain;
  int32_t count = 0;
  friend bool operator==(const PageEncodingCount&, const PageEncodingCount&) = default;
};

class ColumnChunkMetaData {
 public:
  int row_group() const { return row_group_; }
  int column() const { return column_; }

  std::vector<std::string> path_in_schema() const;
  // The path joined with '.' (pyarrow's path_in_schema).
  std::string dotted_path() const;
  PhysicalType physical_type() const;
  // As stored, in order (a value parquet.thrift does not name is kept as is).
  std::vector<Encoding> encodings() const;
  std::optional<std::vector<PageEncodingCount>> encoding_stats() const;
  compression::CompressionCodec codec() const;
  int64_t num_values() const;
  int64_t total_compressed_size() const;
  int64_t total_uncompressed_size() const;
  int64_t data_page_offset() const;
  std::optional<int64_t> dictionary_page_offset() const;
  std::optional<int64_t> index_page_offset() const;
  // ColumnChunk.file_offset (deprecated by the format; as stored).
  int64_t file_offset() const;
  std::optional<std::string> file_path() const;
  std::optional<int64_t> column_index_offset() const;
  std::optional<int32_t> column_index_length() const;
  std::optional<int64_t> offset_index_offset() const;
  std::optional<int32_t> offset_index_length() const;
  std::optional<int64_t> bloom_filter_offset() const;
  std::optional<int32_t> bloom_filter_length() const;
  std::optional<std::vector<KeyValuePair>> key_value_metadata() const;

  bool has_statistics() const;
  // The chunk's statistics decoded by the rules of statistics.h; nullopt
  // when it has none or they are not to be used (pyarrow's is_stats_set
  // false). Invalid when the file's schema does not build (the column's
  // annotations are then unknown). Decoded on each call.
  Result<std::optional<Statistics>> statistics() const;

 private:
  friend class RowGroupMetaData;
  ColumnChunkMetaData(std::shared_ptr<const FileMetaDataState> state, int row_group, int column)
      : state_(std::move(state)), row_group_(row_group), column_(column) {}
  std::shared_ptr<const FileMetaDataState> state_;
  int row_group_ = 0;
  int column_ = 0;
};

class RowGroupMetaData {
 public:
  int index() const { return index_; }
  int64_t num_rows() const;
  int64_t total_byte_size() const;
  std::optional<int64_t> total_compressed_size() const;
  std::optional<int64_t> file_offset() const;
  std::optional<int16_t> ordinal() const;
  std::optional<std::vector<SortingColumnInfo>> sorting_columns() const;
  int num_columns() const;
  // Invalid when i is out of range or the chunk has no ColumnMetaData (an
  // encrypted column).
  Result<ColumnChunkMetaData> column(int i) const;

 private:
  friend class FileMetaData;
  RowGroupMetaData(std::shared_ptr<const FileMetaDataState> state, int index)
      : state_(std::move(state)), index_(index) {}
  std::shared_ptr<const FileMetaDataState> state_;
  int index_ = 0;
};

class FileMetaData {
 public:
  int64_t num_rows() const;
  int num_row_groups() const;
  // Leaf columns of the schema.
  int num_columns() const;
  int32_t version() const;
  std::optional<std::string> created_by() const;
  // The writer, from created_by ("unknown" 0.0.0 when absent).
  const ApplicationVersion& writer_version() const;
  std::optional<std::vector<KeyValuePair>> key_value_metadata() const;
  // The flattened schema, the root first.
  std::vector<SchemaElementInfo> schema_elements() const;
  // Bytes of the Thrift-encoded FileMetaData in the file (its footer length).
  int64_t serialized_size() const;
  Result<RowGroupMetaData> row_group(int i) const;

 private:
  friend struct FileMetaDataAccess;  // file_metadata_internal.h
  explicit FileMetaData(std::shared_ptr<const FileMetaDataState> state)
      : state_(std::move(state)) {}
  std::shared_ptr<const FileMetaDataState> state_;
};

// Reads and decodes a file's footer (metadata/footer_internal.h: the checks, the
// default Thrift limits). Errors as ReadFooter's.
Result<std::shared_ptr<const FileMetaData>> ReadFileMetaData(const io::RandomAccessFile& file);

}  // namespace quiver::parquet
