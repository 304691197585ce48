// RecordBatch (a schema and equal-length columns) and Table (a schema and
// chunked columns). Both are immutable; Make* validate shapes and return
// Invalid on mismatch.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/type.h"

namespace quiver {

class RecordBatch;
using RecordBatchPtr = std::shared_ptr<RecordBatch>;

class RecordBatch {
 public:
  RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<ArrayDataPtr> columns)
      : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {}

  // Checks column count, lengths and types against the schema.
  static Result<RecordBatchPtr> Make(SchemaPtr schema, int64_t num_rows,
                                     std::vector<ArrayDataPtr> columns);
  static Result<RecordBatchPtr> Make(SchemaPtr schema, int64_t num_rows,
                                     const std::vector<ArrayPtr>& columns);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const ArrayDataPtr& column_data(int i) const { return columns_[static_cast<size_t>(i)]; }
  const std::vector<ArrayDataPtr>& columns_data() const { return columns_; }
  ArrayPtr column(int i) const { return MakeArray(columns_[static_cast<size_t>(i)]); }

  RecordBatchPtr Slice(int64_t offset, int64_t length) const;
  bool Equals(const RecordBatch& other, const EqualOptions& options = {}) const;
  Status Validate() const;
  Status ValidateFull() const;
  std::string ToString() const;

 private:
  SchemaPtr schema_;
  int64_t num_rows_;
  std::vector<ArrayDataPtr> columns_;
};

class ChunkedArray {
 public:
  ChunkedArray(std::vector<ArrayPtr> chunks, TypePtr type);
  const TypePtr& type() const { return type_; }
  int64_t length() const { return length_; }
  int64_t null_count() const;
  int num_chunks() const { return static_cast<int>(chunks_.size()); }
  const ArrayPtr& chunk(int i) const { return chunks_[static_cast<size_t>(i)]; }
  const std::vector<ArrayPtr>& chunks() const { return chunks_; }
  // Equal values whatever the chunk boundaries.
  bool Equals(const ChunkedArray& other, const EqualOptions& options = {}) const;

 private:
  std::vector<ArrayPtr> chunks_;
  TypePtr type_;
  int64_t length_ = 0;
};
using ChunkedArrayPtr = std::shared_ptr<ChunkedArray>;

class Table;
using TablePtr = std::shared_ptr<Table>;

class Table {
 public:
  Table(SchemaPtr schema, std::vector<ChunkedArrayPtr> columns, int64_t num_rows)
      : schema_(std::move(schema)), columns_(std::move(columns)), num_rows_(num_rows) {}

  static Result<TablePtr> Make(SchemaPtr schema, std::vector<ChunkedArrayPtr> columns);
  // All batches must share the schema.
  static Result<TablePtr> FromRecordBatches(SchemaPtr schema,
                                            const std::vector<RecordBatchPtr>& batches);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const ChunkedArrayPtr& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  const std::vector<ChunkedArrayPtr>& columns() const { return columns_; }

  // Record batches covering the table in order; a new batch starts wherever
  // any column's chunk boundary falls (zero-copy slices).
  Result<std::vector<RecordBatchPtr>> ToRecordBatches() const;
  bool Equals(const Table& other, const EqualOptions& options = {}) const;
  Status ValidateFull() const;

 private:
  SchemaPtr schema_;
  std::vector<ChunkedArrayPtr> columns_;
  int64_t num_rows_;
};

// A stream of record batches sharing one schema (what an ArrowArrayStream,
// an IPC stream or a Parquet file reader hands out).
class RecordBatchReader {
 public:
  virtual ~RecordBatchReader() = default;
  virtual SchemaPtr schema() const = 0;
  // The next batch, or nullptr at the end of the stream.
  virtual Result<RecordBatchPtr> Next() = 0;
  // Reads every remaining batch into a table.
  Result<TablePtr> ToTable();
  // A reader over batches already in memory (each must have `schema`).
  static std::shared_ptr<RecordBatchReader> FromBatches(SchemaPtr schema,
                                                        std::vector<RecordBatchPtr> batches);
  // A reader over a table's batches (Table::ToRecordBatches).
  static Result<std::shared_ptr<RecordBatchReader>> FromTable(const TablePtr& table);
};
using RecordBatchReaderPtr = std::shared_ptr<RecordBatchReader>;

}  // namespace quiver
