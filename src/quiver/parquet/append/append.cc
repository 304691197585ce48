#include "quiver/parquet/append/append.h"

#include <sys/stat.h>

#include <utility>
#include <vector>

#include "quiver/array/concatenate.h"
#include "quiver/io/file.h"
#include "quiver/parquet/append/sort_order_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/append_base_internal.h"

namespace quiver::parquet {

namespace {

// The new rows' Arrow schema against the file's: names, types and
// nullability, field by field (schema metadata aside).
Status CheckArrowSchema(const Schema& file, const Schema& rows) {
  for (int i = 0; i < std::max(file.num_fields(), rows.num_fields()); ++i) {
    if (i >= rows.num_fields()) {
      return Status::Invalid("the new rows lack the file's field '", file.field(i)->name(), "' (field ", i,
                             " of ", file.num_fields(), ")");
    }
    if (i >= file.num_fields()) {
      return Status::Invalid("the new rows have a field '", rows.field(i)->name(),
                             "' that the file does not have (the file has ", file.num_fields(), " fields)");
    }
    const Field& a = *file.field(i);
    const Field& b = *rows.field(i);
    if (a.name() != b.name()) {
      return Status::Invalid("field ", i, " is '", a.name(), "' in the file but '", b.name(),
                             "' in the new rows");
    }
    if (!a.type()->Equals(*b.type())) {
      return Status::Invalid("field '", a.name(), "': the file has type ", a.type()->ToString(),
                             ", the new rows ", b.type()->ToString());
    }
    if (a.nullable() != b.nullable()) {
      return Status::Invalid("field '", a.name(), "' is ", a.nullable() ? "nullable" : "not nullable",
                             " in the file but ", b.nullable() ? "nullable" : "not nullable",
                             " in the new rows");
    }
  }
  return Status::OK();
}

bool SameSorting(const std::vector<SortingColumn>& a, const std::vector<SortingColumn>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].column_index != b[i].column_index || a[i].descending != b[i].descending ||
        a[i].nulls_first != b[i].nulls_first) {
      return false;
    }
  }
  return true;
}

std::string SortingText(const std::vector<SortingColumn>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0) out += ", ";
    out += "(" + std::to_string(s[i].column_index) + (s[i].descending ? ", descending" : ", ascending") +
           (s[i].nulls_first ? ", nulls first)" : ", nulls last)");
  }
  return out + "]";
}

}  // namespace

class Appender::Impl {
 public:
  Status Open(const std::string& path, SchemaPtr schema, WriterOptions options) {
    QUIVER_ASSIGN_OR_RAISE(std::shared_ptr<io::ReadableFile> file, io::ReadableFile::Open(path));
    if (::fstat(file->fd(), &opened_) != 0) return Status::IOError("cannot stat '", path, "'");
    path_ = path;
    QUIVER_ASSIGN_OR_RAISE(auto reader, FileReader::Open(file));
    const auto metadata = reader->metadata();
    const format::FileMetaData& footer = ThriftOf(*metadata);
    if (footer.encryption_algorithm.has_value()) {
      return Status::NotImplemented("the file is encrypted (plaintext footer): Quiver cannot append to "
                                    "encrypted files");
    }
    QUIVER_RETURN_NOT_OK(CheckArrowSchema(*reader->schema(), *schema));
    file_schema_ = reader->schema();
    checked_schema_ = schema;
    if (!options.store_schema && footer.key_value_metadata.has_value()) {
      for (const auto& kv : *footer.key_value_metadata) {
        if (kv.key != "ARROW:schema") continue;
        return Status::Invalid("store_schema is off, but the file stores ARROW:schema and an append keeps "
                               "the file's key/value metadata as it is (rewrite the file to drop it)");
      }
    }
    QUIVER_RETURN_NOT_OK(ResolveSorting(*reader, &options));
    AppendBase base;
    base.file = file;
    base.footer = footer;
    base.data_end = file->Size() - 8 - metadata->serialized_size();
    kept_bytes_ = base.data_end;
    QUIVER_ASSIGN_OR_RAISE(writer_, FileWriter::OpenAppend(path, std::move(schema), std::move(options), base));
    return Status::OK();
  }

  Status WriteRecordBatch(const RecordBatch& batch) {
    QUIVER_RETURN_NOT_OK(CheckSchema(batch.schema()));
    if (checking_ && in_order_) {
      std::vector<ArrayDataPtr> columns;
      for (int f : key_fields_) columns.push_back(batch.column_data(f));
      QUIVER_RETURN_NOT_OK(CheckOrder(columns));
    }
    return writer_->WriteRecordBatch(batch);
  }

  Status WriteTable(const Table& table) {
    QUIVER_RETURN_NOT_OK(CheckSchema(table.schema()));
    if (checking_ && in_order_ && table.num_rows() > 0) {
      std::vector<ArrayDataPtr> columns;
      for (int f : key_fields_) {
        std::vector<ArrayDataPtr> chunks;
        for (const auto& c : table.column(f)->chunks()) {
          if (c->length() > 0) chunks.push_back(c->data());
        }
        if (chunks.size() == 1) {
          columns.push_back(chunks[0]);
        } else {
          QUIVER_ASSIGN_OR_RAISE(auto whole, Concatenate(chunks));
          columns.push_back(std::move(whole));
        }
      }
      QUIVER_RETURN_NOT_OK(CheckOrder(columns));
    }
    return writer_->WriteTable(table);
  }

  Status Close() {
    if (!in_order_) writer_->DropNewSortingColumns();
    // Another writer replaced or changed the file since it was read: its
    // work would be lost by the rename. (A check, not a lock: a change
    // between it and the rename still goes unnoticed.)
    struct stat now;
    if (::stat(path_.c_str(), &now) != 0 || now.st_dev != opened_.st_dev || now.st_ino != opened_.st_ino ||
        now.st_size != opened_.st_size || now.st_mtim.tv_sec != opened_.st_mtim.tv_sec ||
        now.st_mtim.tv_nsec != opened_.st_mtim.tv_nsec) {
      writer_->Abort();
      return Status::IOError("'", path_, "' changed while appending to it (another writer?); nothing appended");
    }
    return writer_->Close();
  }

  std::unique_ptr<FileWriter> writer_;
  bool checking_ = false;
  bool in_order_ = true;
  int64_t kept_bytes_ = 0;

 private:
  // The sorting columns the new row groups declare (see append.h), and
  // what checking them needs: each key's top-level field and the file's
  // last row of them.
  Status ResolveSorting(FileReader& reader, WriterOptions* options) {
    const format::FileMetaData& footer = ThriftOf(*reader.metadata());
    std::vector<SortingColumn> file_sorting;
    if (!footer.row_groups.empty() && footer.row_groups.back().sorting_columns.has_value()) {
      for (const auto& s : *footer.row_groups.back().sorting_columns) {
        file_sorting.push_back(SortingColumn{s.column_idx, s.descending, s.nulls_first});
      }
    }
    explicit_ = !options->sorting_columns.empty();
    if (explicit_ && !file_sorting.empty() && !SameSorting(options->sorting_columns, file_sorting)) {
      return Status::Invalid("sorting_columns ", SortingText(options->sorting_columns),
                             " differ from the file's ", SortingText(file_sorting));
    }
    if (!explicit_) options->sorting_columns = file_sorting;
    if (options->sorting_columns.empty()) return Status::OK();
    const auto& descriptor = SchemaOf(*reader.metadata());
    if (!descriptor.ok()) return descriptor.status();
    std::vector<std::string> names;
    for (const auto& s : options->sorting_columns) {
      if (s.column_index < 0 || s.column_index >= descriptor->num_columns()) {
        return Status::Invalid("sorting column ", s.column_index, " is not a column of the file (it has ",
                               descriptor->num_columns(), ")");
      }
      const ColumnDescriptor& leaf = descriptor->column(s.column_index);
      const int field = leaf.path_parts.size() == 1 ? reader.schema()->GetFieldIndex(leaf.path) : -1;
      if (field < 0) {
        if (explicit_) {
          return Status::Invalid("sorting column ", s.column_index, " ('", leaf.path,
                                 "'): appending checks the order of top-level, non-nested columns only");
        }
        // Cannot be checked: the new row groups declare no order.
        in_order_ = false;
        return Status::OK();
      }
      key_fields_.push_back(field);
      keys_.push_back(internal::OrderKey{s.descending, s.nulls_first});
      names.push_back(leaf.path);
    }
    checking_ = true;
    // The file's last row, to compare the first new row with.
    for (int rg = reader.num_row_groups() - 1; rg >= 0; --rg) {
      if (footer.row_groups[static_cast<size_t>(rg)].num_rows == 0) continue;
      QUIVER_ASSIGN_OR_RAISE(auto last, reader.ReadRowGroup(rg, names));
      for (const auto& name : names) {
        const int i = last->schema()->GetFieldIndex(name);
        if (i < 0) return Status::Invalid("reading the file's last row: no column '", name, "'");
        const auto& chunks = last->column(i)->chunks();
        const ArrayDataPtr& tail = chunks.back()->data();
        prev_.push_back(tail->Slice(tail->length - 1, 1));
      }
      break;
    }
    return Status::OK();
  }

  // Rows of another schema than the one Open checked (a second input):
  // checked against the file's the same way, the writer aborted if it differs.
  Status CheckSchema(const SchemaPtr& schema) {
    if (schema == checked_schema_) return Status::OK();
    Status st = CheckArrowSchema(*file_schema_, *schema);
    if (!st.ok()) {
      writer_->Abort();
      return st;
    }
    checked_schema_ = schema;
    return Status::OK();
  }

  Status CheckOrder(const std::vector<ArrayDataPtr>& columns) {
    const int64_t n = columns.empty() ? 0 : columns[0]->length;
    if (n == 0) return Status::OK();
    QUIVER_ASSIGN_OR_RAISE(bool ok, internal::RowsInOrder(columns, prev_, keys_));
    if (!ok) {
      in_order_ = false;
      if (explicit_) {
        writer_->Abort();
        return Status::Invalid("the new rows do not keep the order of sorting_columns (each sorted, the "
                               "first one not before the file's last row); leave sorting_columns out to "
                               "append them without declaring an order");
      }
      return Status::OK();
    }
    prev_.clear();
    for (const auto& c : columns) prev_.push_back(c->Slice(n - 1, 1));
    return Status::OK();
  }

  bool explicit_ = false;
  std::string path_;
  struct stat opened_ {};
  SchemaPtr file_schema_;
  SchemaPtr checked_schema_;
  std::vector<int> key_fields_;
  std::vector<internal::OrderKey> keys_;
  std::vector<ArrayDataPtr> prev_;
};

Appender::Appender(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Appender::~Appender() = default;

Result<std::unique_ptr<Appender>> Appender::Open(const std::string& path, SchemaPtr schema,
                                                 WriterOptions options) {
  auto impl = std::make_unique<Impl>();
  Status st = impl->Open(path, std::move(schema), std::move(options));
  if (!st.ok()) return st.WithContext("appending to '", path, "': ");
  return std::unique_ptr<Appender>(new Appender(std::move(impl)));
}

Status Appender::WriteRecordBatch(const RecordBatch& batch) { return impl_->WriteRecordBatch(batch); }
Status Appender::WriteTable(const Table& table) { return impl_->WriteTable(table); }
Status Appender::Close() { return impl_->Close(); }
void Appender::Abort() { impl_->writer_->Abort(); }
int64_t Appender::num_rows() const { return impl_->writer_->num_rows(); }
int Appender::num_row_groups() const { return impl_->writer_->num_row_groups(); }
int64_t Appender::kept_bytes() const { return impl_->kept_bytes_; }
bool Appender::keeps_sorting_columns() const { return impl_->checking_ && impl_->in_order_; }
Result<std::shared_ptr<const FileMetaData>> Appender::metadata() const { return impl_->writer_->metadata(); }

Status AppendToFile(const std::string& path, const Table& table, const WriterOptions& options) {
  QUIVER_ASSIGN_OR_RAISE(auto appender, Appender::Open(path, table.schema(), options));
  Status st = appender->WriteTable(table);
  if (!st.ok()) {
    appender->Abort();
    return st;
  }
  return appender->Close();
}

}  // namespace quiver::parquet
