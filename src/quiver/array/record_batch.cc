#include "quiver/array/record_batch.h"

#include <algorithm>

namespace quiver {

namespace {

Status CheckColumns(const Schema& schema, int64_t num_rows,
                    const std::vector<ArrayDataPtr>& columns) {
  if (static_cast<int>(columns.size()) != schema.num_fields()) {
    return Status::Invalid("record batch has ", columns.size(), " columns but its schema has ",
                           schema.num_fields(), " fields");
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    const auto& col = columns[static_cast<size_t>(i)];
    if (col == nullptr) return Status::Invalid("column ", i, " is null");
    if (col->length != num_rows) {
      return Status::Invalid("column ", i, " ('", schema.field(i)->name(), "') has ", col->length,
                             " rows, expected ", num_rows);
    }
    if (!col->type->Equals(*schema.field(i)->type())) {
      return Status::TypeError("column ", i, " ('", schema.field(i)->name(), "') has type ",
                               col->type->ToString(), ", the schema says ",
                               schema.field(i)->type()->ToString());
    }
  }
  return Status::OK();
}

}  // namespace

Result<RecordBatchPtr> RecordBatch::Make(SchemaPtr schema, int64_t num_rows,
                                         std::vector<ArrayDataPtr> columns) {
  QUIVER_RETURN_NOT_OK(CheckColumns(*schema, num_rows, columns));
  return std::make_shared<RecordBatch>(std::move(schema), num_rows, std::move(columns));
}

Result<RecordBatchPtr> RecordBatch::Make(SchemaPtr schema, int64_t num_rows,
                                         const std::vector<ArrayPtr>& columns) {
  std::vector<ArrayDataPtr> data;
  data.reserve(columns.size());
  for (const auto& c : columns) data.push_back(c ? c->data() : nullptr);
  return Make(std::move(schema), num_rows, std::move(data));
}

RecordBatchPtr RecordBatch::Slice(int64_t offset, int64_t length) const {
  offset = std::clamp<int64_t>(offset, 0, num_rows_);
  length = std::clamp<int64_t>(length, 0, num_rows_ - offset);
  std::vector<ArrayDataPtr> sliced;
  sliced.reserve(columns_.size());
  for (const auto& c : columns_) sliced.push_back(c->Slice(offset, length));
  return std::make_shared<RecordBatch>(schema_, length, std::move(sliced));
}

bool RecordBatch::Equals(const RecordBatch& other, const EqualOptions& options) const {
  if (num_rows_ != other.num_rows_ ||
      !schema_->Equals(*other.schema_, options.check_metadata)) {
    return false;
  }
  for (int i = 0; i < num_columns(); ++i) {
    if (!column(i)->Equals(*other.column(i), options)) return false;
  }
  return true;
}

Status RecordBatch::Validate() const {
  QUIVER_RETURN_NOT_OK(CheckColumns(*schema_, num_rows_, columns_));
  for (int i = 0; i < num_columns(); ++i) {
    QUIVER_RETURN_NOT_OK(column(i)->Validate().WithContext("column '", schema_->field(i)->name(), "': "));
  }
  return Status::OK();
}

Status RecordBatch::ValidateFull() const {
  QUIVER_RETURN_NOT_OK(CheckColumns(*schema_, num_rows_, columns_));
  for (int i = 0; i < num_columns(); ++i) {
    QUIVER_RETURN_NOT_OK(
        column(i)->ValidateFull().WithContext("column '", schema_->field(i)->name(), "': "));
  }
  return Status::OK();
}

std::string RecordBatch::ToString() const {
  std::string out;
  for (int i = 0; i < num_columns(); ++i) {
    out += schema_->field(i)->name() + ": " + column(i)->ToString() + "\n";
  }
  return out;
}

ChunkedArray::ChunkedArray(std::vector<ArrayPtr> chunks, TypePtr type)
    : chunks_(std::move(chunks)), type_(std::move(type)) {
  if (type_ == nullptr && !chunks_.empty()) type_ = chunks_[0]->type();
  for (const auto& c : chunks_) length_ += c->length();
}

int64_t ChunkedArray::null_count() const {
  int64_t n = 0;
  for (const auto& c : chunks_) n += c->null_count();
  return n;
}

bool ChunkedArray::Equals(const ChunkedArray& other, const EqualOptions& options) const {
  if (length_ != other.length_ || !type_->Equals(*other.type_, options.check_metadata)) {
    return false;
  }
  // Walk both chunk lists, comparing the overlapping ranges.
  size_t ci = 0, cj = 0;
  int64_t pi = 0, pj = 0;
  int64_t done = 0;
  while (done < length_) {
    while (chunks_[ci]->length() == pi) { ++ci; pi = 0; }
    while (other.chunks_[cj]->length() == pj) { ++cj; pj = 0; }
    int64_t n = std::min(chunks_[ci]->length() - pi, other.chunks_[cj]->length() - pj);
    if (!chunks_[ci]->RangeEquals(*other.chunks_[cj], pi, pi + n, pj, options)) return false;
    pi += n;
    pj += n;
    done += n;
  }
  return true;
}

Result<TablePtr> Table::Make(SchemaPtr schema, std::vector<ChunkedArrayPtr> columns) {
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return Status::Invalid("table has ", columns.size(), " columns but its schema has ",
                           schema->num_fields(), " fields");
  }
  int64_t rows = columns.empty() ? 0 : columns[0]->length();
  for (int i = 0; i < schema->num_fields(); ++i) {
    const auto& col = columns[static_cast<size_t>(i)];
    if (col->length() != rows) {
      return Status::Invalid("column ", i, " ('", schema->field(i)->name(), "') has ",
                             col->length(), " rows, column 0 has ", rows);
    }
    if (!col->type()->Equals(*schema->field(i)->type())) {
      return Status::TypeError("column ", i, " ('", schema->field(i)->name(), "') has type ",
                               col->type()->ToString(), ", the schema says ",
                               schema->field(i)->type()->ToString());
    }
  }
  return std::make_shared<Table>(std::move(schema), std::move(columns), rows);
}

Result<TablePtr> Table::FromRecordBatches(SchemaPtr schema,
                                          const std::vector<RecordBatchPtr>& batches) {
  std::vector<std::vector<ArrayPtr>> chunks(static_cast<size_t>(schema->num_fields()));
  for (const auto& batch : batches) {
    if (!batch->schema()->Equals(*schema)) {
      return Status::TypeError("record batch schema differs from the table schema:\n",
                               batch->schema()->ToString(), "\nvs\n", schema->ToString());
    }
    for (int i = 0; i < schema->num_fields(); ++i) chunks[static_cast<size_t>(i)].push_back(batch->column(i));
  }
  std::vector<ChunkedArrayPtr> columns;
  for (int i = 0; i < schema->num_fields(); ++i) {
    columns.push_back(std::make_shared<ChunkedArray>(std::move(chunks[static_cast<size_t>(i)]),
                                                     schema->field(i)->type()));
  }
  return Make(std::move(schema), std::move(columns));
}

Result<std::vector<RecordBatchPtr>> Table::ToRecordBatches() const {
  std::vector<RecordBatchPtr> out;
  const int n = num_columns();
  std::vector<int> chunk(static_cast<size_t>(n), 0);
  std::vector<int64_t> pos(static_cast<size_t>(n), 0);
  int64_t done = 0;
  while (done < num_rows_) {
    int64_t step = num_rows_ - done;
    for (int i = 0; i < n; ++i) {
      auto& c = chunk[static_cast<size_t>(i)];
      auto& p = pos[static_cast<size_t>(i)];
      while (columns_[static_cast<size_t>(i)]->chunk(c)->length() == p) { ++c; p = 0; }
      step = std::min(step, columns_[static_cast<size_t>(i)]->chunk(c)->length() - p);
    }
    std::vector<ArrayDataPtr> cols;
    for (int i = 0; i < n; ++i) {
      const auto& c = columns_[static_cast<size_t>(i)]->chunk(chunk[static_cast<size_t>(i)]);
      int64_t p = pos[static_cast<size_t>(i)];
      cols.push_back(p == 0 && step == c->length() ? c->data() : c->data()->Slice(p, step));
      pos[static_cast<size_t>(i)] += step;
    }
    out.push_back(std::make_shared<RecordBatch>(schema_, step, std::move(cols)));
    done += step;
  }
  // (A table without columns is one batch of num_rows rows: the loop's
  // first step covers them all.)
  return out;
}

bool Table::Equals(const Table& other, const EqualOptions& options) const {
  if (num_rows_ != other.num_rows_ || !schema_->Equals(*other.schema_, options.check_metadata)) {
    return false;
  }
  for (int i = 0; i < num_columns(); ++i) {
    if (!columns_[static_cast<size_t>(i)]->Equals(*other.columns_[static_cast<size_t>(i)], options)) return false;
  }
  return true;
}

Status Table::ValidateFull() const {
  for (int i = 0; i < num_columns(); ++i) {
    for (const auto& chunk : columns_[static_cast<size_t>(i)]->chunks()) {
      QUIVER_RETURN_NOT_OK(chunk->ValidateFull().WithContext("column '", schema_->field(i)->name(), "': "));
    }
  }
  return Status::OK();
}

namespace {

class VectorReader final : public RecordBatchReader {
 public:
  VectorReader(SchemaPtr schema, std::vector<RecordBatchPtr> batches)
      : schema_(std::move(schema)), batches_(std::move(batches)) {}
  SchemaPtr schema() const override { return schema_; }
  Result<RecordBatchPtr> Next() override {
    if (next_ >= batches_.size()) return RecordBatchPtr();
    return batches_[next_++];
  }

 private:
  SchemaPtr schema_;
  std::vector<RecordBatchPtr> batches_;
  size_t next_ = 0;
};

}  // namespace

Result<TablePtr> RecordBatchReader::ToTable() {
  std::vector<RecordBatchPtr> batches;
  while (true) {
    QUIVER_ASSIGN_OR_RAISE(RecordBatchPtr batch, Next());
    if (batch == nullptr) break;
    batches.push_back(std::move(batch));
  }
  return Table::FromRecordBatches(schema(), batches);
}

std::shared_ptr<RecordBatchReader> RecordBatchReader::FromBatches(
    SchemaPtr schema, std::vector<RecordBatchPtr> batches) {
  return std::make_shared<VectorReader>(std::move(schema), std::move(batches));
}

Result<std::shared_ptr<RecordBatchReader>> RecordBatchReader::FromTable(const TablePtr& table) {
  QUIVER_ASSIGN_OR_RAISE(auto batches, table->ToRecordBatches());
  return FromBatches(table->schema(), std::move(batches));
}

}  // namespace quiver
