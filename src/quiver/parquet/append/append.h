// Appending rows to an existing Parquet file without rewriting it (so that a
// deduplicating store receives only the new bytes).
//
// Every byte of the file before its footer stays at its offset: the new
// rows go in new row groups written after those bytes (with their bloom
// filters and page index as the writer options ask, the same pages and CDC
// chunks as a normal write), then one new footer covers the old row groups
// (their metadata as read: offsets, statistics, page index locations) and
// the new ones. The result replaces the file atomically (a temporary file
// beside it, fsynced and renamed as FileWriter does): on any error the old
// file is left as it was.
//
// Checked before anything is written:
//   - the file is Parquet (its footer reads) and not encrypted;
//   - the new rows' Arrow schema is the file's (as the reader gives it:
//     names, types, nullability, in order; schema metadata aside); the
//     error names the first field that differs;
//   - the Parquet schema the writer options give the new rows is the
//     file's, element for element (options such as version or
//     coerce_timestamps that would store a column differently are refused).
// Kept from the old footer: key/value metadata (ARROW:schema included; the
// new rows' schema metadata is not used, and store_schema=false is refused
// for a file that stores ARROW:schema), version, created_by, column orders.
// Footer fields this Thrift version does not know are not carried over.
//
// sorting_columns: the new row groups declare the options' sorting_columns
// or, when the options give none, those of the file's last row group. The
// new rows must then keep the order: each sorted by them, the first one not
// before the file's last row (read back from the file). Inherited sorting
// columns that the new rows do not keep (or that cannot be checked: a key
// that is not a top-level, non-nested column) are left off the new row
// groups; sorting columns given in the options are an Invalid error then,
// as are options' sorting columns that differ from the file's.
#pragma once

#include <memory>
#include <string>

#include "quiver/array/record_batch.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/parquet/writer/properties.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

class Appender {
 public:
  // `schema`: the new rows'. Errors say "appending to '<path>': ...".
  static Result<std::unique_ptr<Appender>> Open(const std::string& path, SchemaPtr schema,
                                                WriterOptions options = {});
  ~Appender();

  Status WriteRecordBatch(const RecordBatch& batch);
  // Row groups as FileWriter::WriteTable.
  Status WriteTable(const Table& table);
  // Writes the footer and replaces the file; IOError (nothing appended)
  // if the file was replaced or changed since Open (inode, size, mtime).
  Status Close();
  // Gives up: the file stays as it was.
  void Abort();

  // Rows and row groups in the file (old and new).
  int64_t num_rows() const;
  int num_row_groups() const;
  // The old file's bytes kept in place (all before its footer).
  int64_t kept_bytes() const;
  // Whether the new row groups declare sorting columns (so far).
  bool keeps_sorting_columns() const;
  // The footer written: Invalid before Close() has succeeded.
  Result<std::shared_ptr<const FileMetaData>> metadata() const;

 private:
  class Impl;
  explicit Appender(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Appends `table`'s rows to the Parquet file at `path`.
Status AppendToFile(const std::string& path, const Table& table, const WriterOptions& options = {});

}  // namespace quiver::parquet
