// Parquet file writer: Arrow record batches and tables -> a Parquet file.
//
// Row groups hold at most row_group_size rows (and, with row_group_bytes,
// about that many compressed bytes); each row group's column chunks are
// buffered in memory (compressed) and written out when the row group ends.
// Close() writes the page index (all column indexes, then all offset
// indexes), the footer (schema, row groups, ARROW:schema with the IPC
// schema message in base64, column orders) and the magic.
//
// Writing to a path goes through a temporary file in the same folder that is
// renamed over the destination only when Close() succeeds: a failed or
// abandoned write leaves nothing at the destination (and removes the
// temporary file). A writer whose write failed refuses further writes and
// its Close() returns the first error.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quiver/array/record_batch.h"
#include "quiver/io/interfaces.h"
#include "quiver/parquet/metadata/file_metadata.h"
#include "quiver/parquet/writer/properties.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

struct AppendBase;  // append_base_internal.h

class FileWriter {
 public:
  ~FileWriter();

  static Result<std::unique_ptr<FileWriter>> Open(const std::string& path, SchemaPtr schema,
                                                  WriterOptions options = {});
  // The caller keeps `sink` alive and open; Close() does not close it.
  static Result<std::unique_ptr<FileWriter>> Open(io::OutputStream* sink, SchemaPtr schema,
                                                  WriterOptions options = {});

  // Continues the existing Parquet file at `path` (parquet/append builds
  // `base` after checking the file; see append_base_internal.h): the file's
  // bytes before its footer are copied unchanged to a temporary file beside
  // it, the rows written go in new row groups after them, and Close() writes
  // one footer for the old row groups (their metadata as read) and the new
  // ones, keeping the file's key/value metadata, version, created_by and
  // column orders, then renames it over `path`. Invalid (nothing written)
  // when the Parquet schema the options give the new rows is not the file's.
  static Result<std::unique_ptr<FileWriter>> OpenAppend(const std::string& path, SchemaPtr schema,
                                                        WriterOptions options, const AppendBase& base);
  // Appending: the new row groups do not declare the options'
  // sorting_columns (the new rows do not keep the order).
  void DropNewSortingColumns();

  // Appends rows to the current row group (starting new ones as needed).
  Status WriteRecordBatch(const RecordBatch& batch);
  // Writes a table as pyarrow's write_table does: row groups of
  // row_group_size rows, each written column by column, one write call per
  // chunk of each column. An open row group is finished first.
  Status WriteTable(const Table& table);
  // The same with row groups of row_group_size rows for this call, in place
  // of the options' (pyarrow's ParquetWriter.write_table(table,
  // row_group_size)); Invalid when not positive, or with the
  // row_group_bytes option.
  Status WriteTable(const Table& table, int64_t row_group_size);
  // Ends the current row group (no-op if it is empty).
  Status FlushRowGroup();
  // Bytes of the file given to the sink so far (the next byte's offset in
  // the file; its size after Close()).
  int64_t Tell() const;
  Status Close();
  // Gives up: nothing is written at the destination.
  void Abort();
  // Pairs for the footer's key/value metadata, beside the schema's own and
  // ARROW:schema (pyarrow's ParquetWriter.add_key_value_metadata): a key the
  // footer already holds takes the added value, new keys follow in the order
  // added; an appending writer merges them into the file's pairs. Invalid
  // once closed, and for ARROW:schema while the writer stores the schema.
  Status AddKeyValueMetadata(const KeyValueMetadata& pairs);

  const SchemaPtr& schema() const;
  int64_t num_rows() const;
  int num_row_groups() const;
  // The footer written, typed (file_metadata.h): Invalid before Close()
  // has succeeded.
  Result<std::shared_ptr<const FileMetaData>> metadata() const;

 private:
  class Impl;
  explicit FileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Convenience: writes `table` to `path`.
Status WriteTable(const Table& table, const std::string& path, const WriterOptions& options = {});

}  // namespace quiver::parquet
