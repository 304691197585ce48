#include "batch_source.h"

#include <algorithm>
#include <cstring>

#include "cli_common.h"
#include "quiver/io/memory.h"
#include "quiver/ipc/reader.h"
#include "quiver/parquet/reader/file_reader.h"

namespace quiver::cli {

namespace {

constexpr char kArrowFileMagic[] = "ARROW1";
constexpr char kParquetMagic[] = "PAR1";
constexpr std::string_view kArrowSchemaKey = "ARROW:schema";

bool StartsWith(const Buffer& data, const char* magic) {
  const size_t n = std::strlen(magic);
  return data.size() >= static_cast<int64_t>(n) && std::memcmp(data.data(), magic, n) == 0;
}

// Buffer bytes of an array (children and dictionary included).
int64_t BufferBytes(const ArrayData& data) {
  int64_t n = 0;
  for (const auto& b : data.buffers) n += b == nullptr ? 0 : b->size();
  for (const auto& c : data.children) n += c == nullptr ? 0 : BufferBytes(*c);
  if (data.dictionary != nullptr) n += BufferBytes(*data.dictionary);
  return n;
}

class IpcSource final : public BatchSource {
 public:
  static Result<std::unique_ptr<BatchSource>> Open(std::shared_ptr<Buffer> data, std::string name,
                                                   const SourceOptions& options) {
    if (options.columns.has_value() || options.row_groups.has_value()) {
      return Status::Invalid(name, ": column and row group selection needs a Parquet input");
    }
    auto source = std::unique_ptr<IpcSource>(new IpcSource());
    source->name_ = std::move(name);
    source->filter_ = options.filter;
    source->total_bytes_ = data->size();
    ipc::IpcReadOptions read_options;
    read_options.validate_full = options.validate_ipc;
    auto opened = source->OpenReader(std::move(data), read_options);
    if (!opened.ok()) {
      return opened.WithContext(source->name_, ": not a readable Parquet file, Arrow IPC file or "
                                "stream: ");
    }
    return std::unique_ptr<BatchSource>(std::move(source));
  }

  const SchemaPtr& schema() const override { return schema_; }
  std::string_view format_name() const override { return file_ ? "IPC file" : "IPC stream"; }
  int64_t total_rows() const override { return -1; }
  int64_t bytes_done() const override { return std::min(bytes_done_, total_bytes_); }

  Result<RecordBatchPtr> Next() override {
    Result<RecordBatchPtr> batch = RecordBatchPtr{};
    if (stream_) {
      batch = stream_->Next();
    } else if (next_index_ < file_->num_record_batches()) {
      const int i = next_index_++;
      batch = file_->ReadRecordBatch(i);
      if (!batch.ok()) batch = batch.status().WithContext("record batch ", i, ": ");
    }
    if (!batch.ok()) return WithName(batch.status(), name_);
    if (*batch != nullptr) {
      for (const auto& column : (*batch)->columns_data()) bytes_done_ += BufferBytes(*column);
      if (filter_.has_value()) {
        auto kept = compute::FilterByExpression(**batch, *filter_);
        if (!kept.ok()) return WithName(kept.status(), name_);
        if ((*kept)->num_rows() == 0) return Next();  // matches only
        return kept;
      }
    }
    return batch;
  }

 private:
  IpcSource() = default;

  Status OpenReader(std::shared_ptr<Buffer> data, const ipc::IpcReadOptions& options) {
    if (StartsWith(*data, kArrowFileMagic)) {
      QUIVER_ASSIGN_OR_RAISE(file_, ipc::RecordBatchFileReader::Open(std::move(data), options));
      schema_ = file_->schema();
    } else {
      QUIVER_ASSIGN_OR_RAISE(stream_, ipc::RecordBatchStreamReader::Open(std::move(data), options));
      schema_ = stream_->schema();
    }
    return Status::OK();
  }

  std::shared_ptr<ipc::RecordBatchStreamReader> stream_;
  std::shared_ptr<ipc::RecordBatchFileReader> file_;
  SchemaPtr schema_;
  std::optional<compute::Expression> filter_;
  int next_index_ = 0;
  int64_t bytes_done_ = 0;
};

class ParquetSource final : public BatchSource {
 public:
  static Result<std::unique_ptr<BatchSource>> Open(std::shared_ptr<Buffer> data, std::string name,
                                                   const SourceOptions& options) {
    auto source = std::unique_ptr<ParquetSource>(new ParquetSource());
    source->name_ = name;
    source->total_bytes_ = data->size();
    auto file = std::make_shared<io::BufferReader>(std::move(data), name);
    auto reader_or = parquet::FileReader::Open(file);
    if (!reader_or.ok()) return WithName(reader_or.status(), name);
    source->reader_ = std::move(reader_or).MoveValueUnsafe();
    parquet::FileReader& reader = *source->reader_;
    const auto metadata = reader.metadata();
    if (options.row_groups.has_value()) {
      for (int rg : *options.row_groups) {
        if (rg < 0 || rg >= reader.num_row_groups()) {
          return Status::Invalid(name, ": row group ", rg, " does not exist (the file has ",
                                 reader.num_row_groups(), ")");
        }
      }
    }
    std::vector<int> selected = options.row_groups.value_or(std::vector<int>{});
    if (!options.row_groups.has_value()) {
      for (int rg = 0; rg < reader.num_row_groups(); ++rg) selected.push_back(rg);
    }
    for (int rg : selected) {
      QUIVER_ASSIGN_OR_RAISE(auto g, metadata->row_group(rg));  // checked above
      source->group_rows_.push_back(std::max<int64_t>(g.num_rows(), 0));
      source->group_bytes_.push_back(
          std::max<int64_t>(g.total_compressed_size().value_or(g.total_byte_size()), 0));
      source->total_rows_ += source->group_rows_.back();
    }
    auto schema = reader.SchemaFor(options.columns);
    if (!schema.ok()) return WithName(schema.status(), name);
    source->schema_ = (*schema)->WithMetadata(FooterMetadata(reader));
    if (options.filter.has_value()) source->total_rows_ = -1;  // (the matches: unknown)
    auto batches = options.filter.has_value()
                       ? reader.GetRecordBatchReader(*options.filter, options.columns,
                                                     options.row_groups, options.batch_size)
                       : reader.GetRecordBatchReader(options.columns, options.row_groups,
                                                     options.batch_size);
    if (!batches.ok()) return WithName(batches.status(), name);
    source->batches_ = std::move(batches).MoveValueUnsafe();
    return std::unique_ptr<BatchSource>(std::move(source));
  }

  const SchemaPtr& schema() const override { return schema_; }
  std::string_view format_name() const override { return "Parquet"; }
  int64_t total_rows() const override { return total_rows_; }
  parquet::FileReader* parquet_reader() override { return reader_.get(); }

  int64_t bytes_done() const override {
    // Whole row groups done, then the done share of the current one.
    int64_t rows = rows_done_;
    int64_t bytes = 0;
    for (size_t i = 0; i < group_rows_.size() && rows > 0; ++i) {
      if (rows >= group_rows_[i]) {
        bytes += group_bytes_[i];
        rows -= group_rows_[i];
      } else {
        bytes += static_cast<int64_t>(static_cast<double>(group_bytes_[i]) *
                                      static_cast<double>(rows) /
                                      static_cast<double>(group_rows_[i]));
        break;
      }
    }
    return bytes;
  }

  Result<RecordBatchPtr> Next() override {
    auto next = batches_->Next();
    if (!next.ok()) return WithName(next.status(), name_);
    RecordBatchPtr batch = std::move(next).MoveValueUnsafe();
    if (batch == nullptr) return batch;
    rows_done_ += batch->num_rows();
    // The reader's batches carry the reader's schema; ours adds the footer's
    // key/value metadata (equal fields, so a writer of schema() takes them).
    return std::make_shared<RecordBatch>(schema_, batch->num_rows(), batch->columns_data());
  }

 private:
  ParquetSource() = default;

  // The footer's key/value pairs, less ARROW:schema; nullptr when none.
  static MetadataPtr FooterMetadata(const parquet::FileReader& reader) {
    const auto kv = reader.metadata()->key_value_metadata();
    if (!kv.has_value()) return nullptr;
    auto out = std::make_shared<KeyValueMetadata>();
    for (const auto& pair : *kv) {
      if (pair.key == kArrowSchemaKey) continue;
      out->Append(pair.key, pair.value.value_or(""));
    }
    return out->size() == 0 ? nullptr : out;
  }

  std::unique_ptr<parquet::FileReader> reader_;
  RecordBatchReaderPtr batches_;
  SchemaPtr schema_;
  std::vector<int64_t> group_rows_;
  std::vector<int64_t> group_bytes_;
  int64_t total_rows_ = 0;
  int64_t rows_done_ = 0;
};

}  // namespace

Result<std::unique_ptr<BatchSource>> BatchSource::Open(const std::string& path,
                                                       const SourceOptions& options) {
  std::string name = path == "-" ? "<stdin>" : path;
  auto data = LoadInput(path);
  if (!data.ok()) return WithName(data.status(), name);
  if (StartsWith(**data, kParquetMagic)) {
    return ParquetSource::Open(std::move(data).MoveValueUnsafe(), std::move(name), options);
  }
  return IpcSource::Open(std::move(data).MoveValueUnsafe(), std::move(name), options);
}

}  // namespace quiver::cli
