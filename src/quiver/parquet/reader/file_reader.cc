#include "quiver/parquet/reader/file_reader.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <set>
#include <utility>

#include "quiver/io/file.h"
#include "quiver/io/read_ranges.h"
#include "quiver/ipc/schema.h"
#include "quiver/parquet/metadata/bloom_filter_reader_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/metadata/page_index_internal.h"
#include "quiver/parquet/reader/assembly_internal.h"
#include "quiver/parquet/reader/column_reader_internal.h"
#include "quiver/parquet/reader/file_reader_internal.h"
#include "quiver/parquet/reader/invalid_utf8_internal.h"
#include "quiver/parquet/reader/parallel_read_internal.h"
#include "quiver/parquet/reader/projection_internal.h"
#include "quiver/parquet/reader/pruning_sources_internal.h"
#include "quiver/util/base64.h"
#include "quiver/util/thread_pool.h"

namespace quiver::parquet {

using internal::ColumnReader;

namespace {

// The user's file, counting the bytes asked of it (ReadStats::bytes_read).
class CountingFile final : public io::RandomAccessFile {
 public:
  explicit CountingFile(std::shared_ptr<io::RandomAccessFile> file) : file_(std::move(file)) {}
  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override {
    bytes_.fetch_add(length, std::memory_order_relaxed);
    return file_->ReadAt(offset, length);
  }
  int64_t Size() const override { return file_->Size(); }
  const std::string& name() const override { return file_->name(); }
  int64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }

 private:
  std::shared_ptr<io::RandomAccessFile> file_;
  mutable std::atomic<int64_t> bytes_{0};
};

// One read call's stats: what the readers count, and the bytes the file
// was asked for since the call began.
struct ReadCall {
  ReadStats stats;
  const CountingFile* file = nullptr;
  int64_t bytes_base = 0;
  void UpdateBytes() { stats.bytes_read = file->bytes() - bytes_base; }
};

}  // namespace

struct FileReader::Impl {
  // The user's file behind a CountingFile.
  std::shared_ptr<CountingFile> counting;
  std::shared_ptr<io::RandomAccessFile> file;
  // The last read call's stats (shared with the batch reader it made).
  std::shared_ptr<ReadCall> call = std::make_shared<ReadCall>();
  std::shared_ptr<ReadCall> StartCall() {
    call = std::make_shared<ReadCall>();
    call->file = counting.get();
    call->bytes_base = counting->bytes();
    return call;
  }
  ReaderOptions options;
  // Leased: arrays read may outlive the reader (CappedMemoryPool::Lease).
  std::shared_ptr<CappedMemoryPool> capped_pool;
  MemoryPool* pool = nullptr;
  // The footer (file_metadata.h) and where its bytes start.
  std::shared_ptr<const FileMetaData> metadata;
  int64_t footer_offset = 0;
  const format::FileMetaData& thrift() const { return ThriftOf(*metadata); }
  // The schema, built once with the footer (SchemaOf(*metadata)).
  const SchemaDescriptor* descriptor = nullptr;
  ArrowReadSchema arrow;
  std::vector<std::string> warnings;
  // SetSkipPagesByOffsetIndex, SetParallelReadMinBytes (file_reader_internal.h).
  bool skip_pages_by_offset_index = true;
  // AddHeaderPageLocations (pruning_sources_internal.h); replaced, never
  // changed, so that a batch reader may keep the one it started with.
  std::shared_ptr<const std::map<std::pair<int, int>, std::vector<PageLocation>>>
      header_locations;
  int64_t parallel_min_bytes = -1;  // < 0: internal::ParallelReadMinBytes()
  int64_t ParallelMinBytes() const {
    return parallel_min_bytes >= 0 ? parallel_min_bytes : internal::ParallelReadMinBytes();
  }
  // use_threads, unless a memory_limit is set (which allocation passes the
  // cap would depend on the tasks' timing: capped reads stay on the calling
  // thread, so their result and error are always the same) or the pool
  // has no worker.
  bool MayUseThreads() const {
    return options.use_threads && options.memory_limit <= 0 && ThreadPool::Cpu()->workers() > 0;
  }

  // The top-level nodes a read of `columns` builds, in the order asked.
  Result<std::vector<ReadNode>> Select(const std::optional<std::vector<std::string>>& columns) const {
    return internal::SelectNodes(arrow, *descriptor, file->name(), columns);
  }

  // Selections checked against `groups` (one each, within its rows).
  Status CheckSelections(const std::vector<int>& groups,
                         const std::vector<RowRanges>& selections) const {
    if (selections.size() != groups.size()) {
      return Status::Invalid(file->name(), ": ", selections.size(), " row selections for ",
                             groups.size(), " row groups");
    }
    for (size_t i = 0; i < groups.size(); ++i) {
      const int64_t rows = thrift().row_groups[static_cast<size_t>(groups[i])].num_rows;
      if (selections[i].end() > rows) {
        return Status::Invalid(file->name(), ": the row selection of row group ", groups[i],
                               " (", selections[i].ToString(), ") goes past its ", rows,
                               " rows");
      }
    }
    return Status::OK();
  }

  // ReadTable / ReadRowGroups: a read call (its stats started afresh).
  Result<TablePtr> Read(const std::optional<std::vector<std::string>>& columns,
                        const std::vector<int>& groups, const std::vector<RowRanges>* selections);
  Result<TablePtr> ReadGroups(std::vector<ReadNode> nodes, const std::vector<int>& groups,
                              const std::vector<RowRanges>* selections);

  Result<std::vector<int>> RowGroups(const std::optional<std::vector<int>>& row_groups) const {
    const int n = static_cast<int>(thrift().row_groups.size());
    std::vector<int> out;
    if (!row_groups.has_value()) {
      for (int i = 0; i < n; ++i) out.push_back(i);
      return out;
    }
    for (int i : *row_groups) {
      if (i < 0 || i >= n) {
        return Status::Invalid(file->name(), ": row group ", i, " out of range (the file has ", n,
                               " row groups)");
      }
      out.push_back(i);
    }
    return out;
  }

  // invalid_utf8 = kBinary: `nodes` with the string leaves that hold
  // invalid UTF-8 in `groups` as binary (a scan of those leaves).
  Result<std::vector<ReadNode>> WithInvalidUtf8AsBinary(
      std::vector<ReadNode> nodes, const std::vector<int>& groups,
      const std::vector<RowRanges>* selections, int64_t batch_size);
};

// Batches of the selected columns, row group after row group.
class ParquetBatchReader final : public RecordBatchReader {
 public:
  // `chunked_leaves`: top-level binary / string columns may come back as
  // several chunks (NextColumns only; ReadTable uses it).
  // `record_invalid_utf8`: string leaves note invalid UTF-8 and read on
  // (invalid_utf8_columns()) rather than fail.
  ParquetBatchReader(FileReader::Impl* impl, std::vector<ReadNode> nodes,
                     std::vector<int> row_groups, int64_t batch_size, bool chunked_leaves = false,
                     bool record_invalid_utf8 = false)
      : impl_(impl),
        nodes_(std::move(nodes)),
        row_groups_(std::move(row_groups)),
        batch_size_(batch_size),
        chunked_leaves_(chunked_leaves),
        record_invalid_utf8_(record_invalid_utf8),
        use_threads_(impl->MayUseThreads()),
        call_(impl->call) {
    FieldVector fields;
    for (const ReadNode& node : nodes_) fields.push_back(node.field);
    schema_ = quiver::schema(std::move(fields), impl_->arrow.schema->metadata());
  }

  // Only these rows of each row group (one RowRanges per row group, as
  // checked by Impl::CheckSelections); before Init().
  void set_selections(std::vector<RowRanges> selections) {
    selections_ = std::move(selections);
  }
  // Late materialization (file_reader_internal.h): each batch's steps
  // refined before they are read.
  void set_refiner(BatchRefiner refiner) { refiner_ = std::move(refiner); }
  // The reader's internals for file_reader_internal.h's functions (this
  // class is FileReader's friend).
  static FileReader::Impl* ImplOf(const FileReader& reader) { return reader.impl_.get(); }

  // On: each row group's needed bytes are fetched at its start, coalesced
  // (io::ReadRangeCache), and held while it is read. Before Init().
  void set_prefetch(bool on) { prefetch_ = on; }
  // Count into `stats` rather than the call's (a task of a parallel read:
  // its own counters, summed once the tasks are done); before Init().
  void set_stats(ReadStats* stats) { stats_ = stats; }

  Status Init() {
    // prefetch_: pages are read from each row group's prefetched ranges. A
    // selection's are coalesced only where they touch: no byte of a
    // skipped page is requested.
    std::shared_ptr<io::RandomAccessFile> file = impl_->file;
    if (prefetch_) {
      io::CoalesceOptions coalesce;
      if (!selections_.empty()) coalesce.hole_size_limit = 0;
      file = cache_ = std::make_shared<io::ReadRangeCache>(impl_->file, coalesce);
    }
    readers_.assign(static_cast<size_t>(impl_->descriptor->num_columns()), nullptr);
    PageReaderOptions page_options;
    page_options.limits = impl_->options.thrift_limits;
    page_options.verify_checksums = impl_->options.page_checksum_verification;
    page_options.pool = impl_->pool;
    page_options.legacy_dictionary_header_padding =
        ChunkSizeOmitsDictionaryHeader(impl_->thrift().created_by);
    page_options.header_locations = impl_->header_locations;
    // Each top-level node's readers count into the node's stats (a node is
    // one task of a parallel batch), added to the call's after each step.
    node_stats_.assign(nodes_.size(), ReadStats{});
    node_readers_.assign(nodes_.size(), {});
    StatsFold fold(this);
    for (size_t n = 0; n < nodes_.size(); ++n) {
      page_options.stats = &node_stats_[n];
      std::vector<const ReadNode*> leaves;
      CollectLeaves(nodes_[n], &leaves);
      for (const ReadNode* leaf : leaves) {
        QUIVER_ASSIGN_OR_RAISE(
            auto reader, ColumnReader::Make(file, &impl_->thrift(),
                                            impl_->footer_offset,
                                            &impl_->descriptor->column(leaf->column), leaf,
                                            page_options));
        reader->set_record_invalid_utf8(record_invalid_utf8_);
        readers_[static_cast<size_t>(leaf->column)] = reader.get();
        node_readers_[n].push_back(reader.get());
        all_leaves_.push_back(leaf->column);
        owned_.push_back(std::move(reader));
      }
    }
    // The assembly reads the levels of each struct's, list's and map's
    // first leaf only.
    std::set<int32_t> keep;
    std::function<void(const ReadNode&)> mark = [&](const ReadNode& node) {
      if (node.kind == ReadNode::Kind::kLeaf) return;
      if (!node.columns.empty()) keep.insert(node.columns.front());
      for (const ReadNode& child : node.children) mark(child);
    };
    for (const ReadNode& node : nodes_) mark(node);
    for (ColumnReader* reader : readers_) {
      if (reader != nullptr && !keep.contains(reader->leaf_column())) {
        reader->set_keep_levels(false);
      }
    }
    if (chunked_leaves_) {
      for (const ReadNode& node : nodes_) {
        if (node.kind == ReadNode::Kind::kLeaf) {
          readers_[static_cast<size_t>(node.column)]->set_allow_chunks(true);
        }
      }
    }
    return Status::OK();
  }

  SchemaPtr schema() const override { return schema_; }

  // The leaf columns that held invalid UTF-8 so far (recording only).
  void AddInvalidUtf8Columns(std::set<int32_t>* out) const {
    for (const auto& reader : owned_) {
      if (reader->saw_invalid_utf8()) out->insert(reader->leaf_column());
    }
  }

  Result<RecordBatchPtr> Next() override {
    int64_t rows = 0;
    auto read = NextColumns(&rows);
    call_->UpdateBytes();
    QUIVER_ASSIGN_OR_RAISE(auto columns, std::move(read));
    if (!columns.has_value()) return nullptr;
    std::vector<ArrayDataPtr> arrays;
    arrays.reserve(columns->size());
    for (auto& chunks : *columns) {
      if (chunks.size() != 1) {
        return Status::CapacityError(impl_->file->name(), ": a column of the batch needs ",
                                     chunks.size(), " chunks (use a smaller batch_size)");
      }
      arrays.push_back(std::move(chunks.front()));
    }
    return std::make_shared<RecordBatch>(schema_, rows, std::move(arrays));
  }

  // The next batch as chunks per column (*rows rows), or nullopt at the end.
  Result<std::optional<std::vector<std::vector<ArrayDataPtr>>>> NextColumns(int64_t* rows) {
    StatsFold fold(this);
    while (rows_left_ == 0) {
      if (next_group_ >= row_groups_.size()) return std::nullopt;
      const size_t index = next_group_++;
      const int group = row_groups_[index];
      const format::RowGroup& meta = impl_->thrift().row_groups[static_cast<size_t>(group)];
      if (meta.num_rows < 0) {
        return Status::Invalid(impl_->file->name(), ": row group ", group, " has num_rows ",
                               meta.num_rows);
      }
      // A selection of every row reads as a plain read.
      selection_ = nullptr;
      if (!selections_.empty() && selections_[index] != RowRanges::All(meta.num_rows)) {
        selection_ = &selections_[index];
        if (selection_->empty()) continue;  // nothing of this row group is read
      }
      const bool skip_pages =
          (selection_ != nullptr || refiner_) && impl_->skip_pages_by_offset_index;
      std::vector<io::ReadRange> ranges;  // (prefetch_) offset indexes, then pages
      for (auto& reader : owned_) {
        if (prefetch_ && skip_pages) reader->OffsetIndexRange(group, &ranges);
      }
      if (!ranges.empty()) QUIVER_RETURN_NOT_OK(cache_->Cache(std::exchange(ranges, {})));
      for (auto& reader : owned_) QUIVER_RETURN_NOT_OK(reader->StartRowGroup(group, skip_pages));
      for (auto& reader : owned_) {
        if (prefetch_) reader->NeededRanges(selection_, &ranges);
      }
      if (prefetch_) QUIVER_RETURN_NOT_OK(cache_->Cache(std::move(ranges)));
      current_group_ = group;
      rows_left_ = selection_ != nullptr ? selection_->row_count() : meta.num_rows;
      next_range_ = 0;
      group_pos_ = 0;
      if (rows_left_ == 0) QUIVER_RETURN_NOT_OK(CheckChunksEnd());
    }
    const int64_t want = std::min(rows_left_, batch_size_);
    // The batch's rows as (rows to skip, rows to read) steps.
    const int64_t start = group_pos_;
    steps_.clear();
    if (selection_ == nullptr) {
      steps_.push_back({0, want});
      group_pos_ += want;
    } else {
      int64_t remaining = want;
      while (remaining > 0) {
        const RowRange& range = selection_->ranges()[next_range_];
        const int64_t skip = std::max<int64_t>(range.begin - group_pos_, 0);
        const int64_t take = std::min(range.end - (group_pos_ + skip), remaining);
        steps_.push_back({skip, take});
        group_pos_ += skip + take;
        remaining -= take;
        if (group_pos_ == range.end) ++next_range_;
      }
    }
    int64_t out_rows = want;
    if (refiner_) {
      std::vector<std::pair<int64_t, int64_t>> refined;
      QUIVER_RETURN_NOT_OK(refiner_(current_group_, start, steps_, &refined, &out_rows));
      steps_ = std::move(refined);
    }
    rows_left_ -= want;
    const int64_t group_rows =
        impl_->thrift().row_groups[static_cast<size_t>(current_group_)].num_rows;
    // The last batch of the row group: every chunk must end with it (or,
    // when the selection ends early, is let go).
    const bool group_done = rows_left_ == 0;
    const bool check_end =
        group_done && (selection_ == nullptr || selection_->end() == group_rows);
    // Node by node (its leaves' rows, then its array), as tasks on the pool
    // when use_threads and the batch is worth it, else in order here: the
    // error is the first failing node's either way.
    std::vector<std::vector<ArrayDataPtr>> columns(nodes_.size());
    auto read_node = [&](int64_t i) -> Status {
      const size_t n = static_cast<size_t>(i);
      for (ColumnReader* reader : node_readers_[n]) {
        int64_t pos = start;
        for (const auto& [skip, take] : steps_) {
          int64_t done = 0;
          if (skip > 0) {
            QUIVER_RETURN_NOT_OK(reader->SkipRecords(skip, &done));
            if (done != skip) return ChunkEnded(*reader, pos + done);
            pos += skip;
          }
          if (take == 0) continue;
          QUIVER_RETURN_NOT_OK(reader->ReadRecords(take, &done));
          if (done != take) return ChunkEnded(*reader, pos + done);
          pos += take;
        }
      }
      if (check_end) {
        QUIVER_RETURN_NOT_OK(CheckChunksEnd(node_readers_[n]));
      } else if (group_done) {
        for (ColumnReader* reader : node_readers_[n]) reader->EndChunkEarly();
      }
      const ReadNode& node = nodes_[n];
      std::vector<ArrayDataPtr> chunks;
      if (chunked_leaves_ && node.kind == ReadNode::Kind::kLeaf) {
        auto finished = readers_[static_cast<size_t>(node.column)]->FinishLeafChunks();
        if (!finished.ok()) {
          return finished.status().WithContext(impl_->file->name(), ": row group ",
                                               current_group_, ": ");
        }
        chunks = std::move(finished).MoveValueUnsafe();
      } else {
        auto array = internal::AssembleArray(node, readers_, impl_->pool, out_rows);
        if (!array.ok()) {
          return array.status().WithContext(impl_->file->name(), ": row group ", current_group_,
                                            ": ");
        }
        chunks.push_back(std::move(array).MoveValueUnsafe());
      }
      int64_t length = 0;
      for (const auto& chunk : chunks) length += chunk->length;
      if (length != out_rows) {
        return Status::Invalid(impl_->file->name(), ": row group ", current_group_, ", field '",
                               node.field->name(), "': ", length, " values for ", out_rows,
                               " rows (the levels disagree)");
      }
      columns[n] = std::move(chunks);
      return Status::OK();
    };
    const bool parallel =
        use_threads_ && nodes_.size() >= 2 &&
        internal::DecodesAtLeast(impl_->thrift(), {current_group_}, all_leaves_, nullptr,
                                 impl_->ParallelMinBytes(),
                                 static_cast<double>(want) /
                                     static_cast<double>(std::max<int64_t>(group_rows, 1)));
    QUIVER_RETURN_NOT_OK(ParallelFor(static_cast<int64_t>(nodes_.size()), read_node,
                                     parallel ? ThreadPool::Cpu() : nullptr));
    for (auto& reader : owned_) reader->ClearBatch();
    *rows = out_rows;
    return columns;
  }

 private:
  static void CollectLeaves(const ReadNode& node, std::vector<const ReadNode*>* out) {
    if (node.kind == ReadNode::Kind::kLeaf) {
      out->push_back(&node);
      return;
    }
    for (const ReadNode& child : node.children) CollectLeaves(child, out);
  }

  Status ChunkEnded(const ColumnReader& reader, int64_t rows) const {
    return Status::Invalid(impl_->file->name(), ": row group ", current_group_, ", column '",
                           reader.column().path, "': the column chunk ends after ", rows,
                           " rows; the row group has ",
                           impl_->thrift().row_groups[static_cast<size_t>(current_group_)].num_rows);
  }

  // Adds the nodes' stats to the call's (or stats_) when it goes out of
  // scope, once the tasks that counted them are done.
  struct StatsFold {
    explicit StatsFold(ParquetBatchReader* reader) : reader(reader) {}
    ~StatsFold() {
      ReadStats* to = reader->stats_ != nullptr ? reader->stats_ : &reader->call_->stats;
      for (ReadStats& stats : reader->node_stats_) {
        *to += stats;
        stats = ReadStats{};
      }
    }
    ParquetBatchReader* reader;
  };

  // At the end of a row group every chunk must be at its end too.
  Status CheckChunksEnd() {
    std::vector<ColumnReader*> all;
    for (auto& reader : owned_) all.push_back(reader.get());
    return CheckChunksEnd(all);
  }
  Status CheckChunksEnd(const std::vector<ColumnReader*>& readers) const {
    for (ColumnReader* reader : readers) {
      int64_t read = 0;
      QUIVER_RETURN_NOT_OK(reader->ReadRecords(1, &read));
      if (read != 0) {
        return Status::Invalid(impl_->file->name(), ": row group ", current_group_, ", column '",
                               reader->column().path, "': the column chunk holds more than the ",
                               impl_->thrift().row_groups[static_cast<size_t>(current_group_)]
                                   .num_rows,
                               " rows of its row group");
      }
    }
    return Status::OK();
  }

  FileReader::Impl* impl_;
  std::vector<ReadNode> nodes_;
  std::vector<int> row_groups_;
  int64_t batch_size_;
  bool chunked_leaves_;
  bool record_invalid_utf8_;
  bool use_threads_;
  SchemaPtr schema_;
  std::vector<std::unique_ptr<ColumnReader>> owned_;
  std::vector<ColumnReader*> readers_;
  bool prefetch_ = false;
  std::shared_ptr<io::ReadRangeCache> cache_;  // prefetch_ only
  // Per top-level node: its leaves' readers and what they counted since
  // the last StatsFold; every leaf column read.
  std::vector<std::vector<ColumnReader*>> node_readers_;
  std::vector<ReadStats> node_stats_;
  std::vector<int32_t> all_leaves_;
  std::shared_ptr<ReadCall> call_;
  ReadStats* stats_ = nullptr;  // nullptr: call_->stats
  std::vector<RowRanges> selections_;  // empty: every row
  size_t next_group_ = 0;
  int current_group_ = -1;
  // Rows of the current row group still to return; its selection (nullptr:
  // every row), the next range of it and the rows read or skipped so far.
  int64_t rows_left_ = 0;
  const RowRanges* selection_ = nullptr;
  size_t next_range_ = 0;
  int64_t group_pos_ = 0;
  std::vector<std::pair<int64_t, int64_t>> steps_;
  BatchRefiner refiner_;
};

FileReader::FileReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileReader::~FileReader() = default;

Result<std::unique_ptr<FileReader>> FileReader::Open(std::shared_ptr<io::RandomAccessFile> file,
                                                     const ReaderOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->counting = std::make_shared<CountingFile>(std::move(file));
  impl->file = impl->counting;
  impl->call->file = impl->counting.get();
  impl->options = options;
  impl->pool = options.pool != nullptr ? options.pool : DefaultMemoryPool();
  if (options.memory_limit > 0) {
    impl->capped_pool = CappedMemoryPool::Lease(impl->pool, options.memory_limit);
    impl->pool = impl->capped_pool.get();
  }
  FooterOptions footer_options;
  footer_options.limits = options.thrift_limits;
  QUIVER_ASSIGN_OR_RAISE(auto footer, ReadFooter(*impl->file, footer_options));
  impl->footer_offset = footer.footer_offset;
  // pyarrow refuses schemas nested deeper than 100 levels (the root
  // counted), and so does this reader.
  SchemaDescriptorOptions schema_options;
  schema_options.max_depth = 99;
  impl->metadata = MakeFileMetaData(std::move(footer), schema_options);
  const format::FileMetaData& metadata = impl->thrift();
  const Result<SchemaDescriptor>& descriptor = SchemaOf(*impl->metadata);
  if (!descriptor.ok()) return descriptor.status().WithContext(impl->file->name(), ": ");
  impl->descriptor = &*descriptor;
  auto arrow = internal::ReadSchema(*impl->descriptor, metadata, options.arrow, &impl->warnings);
  if (!arrow.ok()) return Status::Invalid(impl->file->name(), ": ", arrow.status().message());
  impl->arrow = std::move(arrow).MoveValueUnsafe();
  impl->warnings.insert(impl->warnings.end(), impl->arrow.warnings.begin(),
                        impl->arrow.warnings.end());
  for (const format::RowGroup& group : metadata.row_groups) {
    if (group.num_rows < 0) {
      return Status::Invalid(impl->file->name(), ": a row group has num_rows ", group.num_rows);
    }
  }
  return std::unique_ptr<FileReader>(new FileReader(std::move(impl)));
}

Result<std::unique_ptr<FileReader>> FileReader::Open(const std::string& path,
                                                     const ReaderOptions& options) {
  QUIVER_ASSIGN_OR_RAISE(auto file, io::ReadableFile::Open(
                                        path, options.pool != nullptr ? options.pool
                                                                      : DefaultMemoryPool()));
  return Open(std::shared_ptr<io::RandomAccessFile>(std::move(file)), options);
}

std::shared_ptr<const FileMetaData> FileReader::metadata() const { return impl_->metadata; }
const SchemaDescriptor& ParquetSchemaOf(const FileReader& reader) {
  return *reader.impl_->descriptor;
}
void SetSkipPagesByOffsetIndex(FileReader& reader, bool on) {
  reader.impl_->skip_pages_by_offset_index = on;
}
void SetParallelReadMinBytes(FileReader& reader, int64_t bytes) {
  reader.impl_->parallel_min_bytes = bytes;
}
void FileReader::set_use_threads(bool on) { impl_->options.use_threads = on; }
const SchemaPtr& FileReader::schema() const { return impl_->arrow.schema; }
const std::vector<std::string>& FileReader::warnings() const { return impl_->warnings; }
int FileReader::num_row_groups() const {
  return static_cast<int>(impl_->thrift().row_groups.size());
}
int64_t FileReader::num_rows() const { return impl_->thrift().num_rows; }

namespace {

Result<const format::ColumnChunk*> ChunkAt(const FileReader& reader, const std::string& name,
                                           int row_group, int column) {
  const auto& groups = ThriftOf(*reader.metadata()).row_groups;
  if (row_group < 0 || static_cast<size_t>(row_group) >= groups.size()) {
    return Status::Invalid(name, ": row group ", row_group, " out of range (the file has ",
                           groups.size(), ")");
  }
  const auto& columns = groups[static_cast<size_t>(row_group)].columns;
  if (column < 0 || column >= ParquetSchemaOf(reader).num_columns() ||
      static_cast<size_t>(column) >= columns.size()) {
    return Status::Invalid(name, ": column ", column, " out of range (row group ", row_group,
                           " has ", columns.size(), " column chunks)");
  }
  return &columns[static_cast<size_t>(column)];
}

}  // namespace

Result<std::optional<ColumnIndex>> FileReader::ReadColumnIndex(int row_group, int column) const {
  QUIVER_ASSIGN_OR_RAISE(auto chunk, ChunkAt(*this, impl_->file->name(), row_group, column));
  QUIVER_ASSIGN_OR_RAISE(auto index,
                         parquet::ReadColumnIndex(*impl_->file, *chunk, impl_->footer_offset,
                                                  impl_->options.thrift_limits));
  if (!index.has_value()) return std::optional<ColumnIndex>();
  QUIVER_ASSIGN_OR_RAISE(
      auto typed, MakeColumnIndex(*index, LeafAnnotations::Of(*impl_->descriptor, column)));
  return std::optional<ColumnIndex>(std::move(typed));
}

Result<std::optional<OffsetIndex>> FileReader::ReadOffsetIndex(int row_group, int column) const {
  QUIVER_ASSIGN_OR_RAISE(auto chunk, ChunkAt(*this, impl_->file->name(), row_group, column));
  QUIVER_ASSIGN_OR_RAISE(auto index,
                         parquet::ReadOffsetIndex(*impl_->file, *chunk, impl_->footer_offset,
                                                  impl_->options.thrift_limits));
  if (!index.has_value()) return std::optional<OffsetIndex>();
  return std::optional<OffsetIndex>(MakeOffsetIndex(*index));
}

Result<std::optional<Statistics>> FileReader::ReadStatistics(int row_group, int column) const {
  QUIVER_RETURN_NOT_OK(ChunkAt(*this, impl_->file->name(), row_group, column).status());
  return DecodeChunkStatistics(impl_->thrift(), *impl_->descriptor, row_group, column);
}

Result<std::optional<BloomFilter>> FileReader::ReadBloomFilter(int row_group, int column) const {
  QUIVER_ASSIGN_OR_RAISE(auto chunk, ChunkAt(*this, impl_->file->name(), row_group, column));
  if (!chunk->meta_data.has_value()) return std::optional<BloomFilter>();
  return parquet::ReadBloomFilter(*impl_->file, *chunk->meta_data, impl_->footer_offset,
                                  impl_->pool);
}

Result<SchemaPtr> FileReader::SchemaFor(
    const std::optional<std::vector<std::string>>& columns) const {
  QUIVER_ASSIGN_OR_RAISE(auto nodes, impl_->Select(columns));
  FieldVector fields;
  for (const ReadNode& node : nodes) fields.push_back(node.field);
  return quiver::schema(std::move(fields), impl_->arrow.schema->metadata());
}

Result<RecordBatchReaderPtr> FileReader::GetRecordBatchReader(
    const std::optional<std::vector<std::string>>& columns,
    const std::optional<std::vector<int>>& row_groups, int64_t batch_size) {
  QUIVER_ASSIGN_OR_RAISE(auto nodes, impl_->Select(columns));
  QUIVER_ASSIGN_OR_RAISE(auto groups, impl_->RowGroups(row_groups));
  if (batch_size <= 0) batch_size = impl_->options.batch_size;
  if (batch_size <= 0) return Status::Invalid("batch_size must be positive");
  impl_->StartCall();
  if (impl_->options.invalid_utf8 == ReaderOptions::InvalidUtf8::kBinary) {
    QUIVER_ASSIGN_OR_RAISE(nodes, impl_->WithInvalidUtf8AsBinary(std::move(nodes), groups,
                                                                 nullptr, batch_size));
  }
  auto reader = std::make_shared<ParquetBatchReader>(impl_.get(), std::move(nodes),
                                                     std::move(groups), batch_size);
  QUIVER_RETURN_NOT_OK(reader->Init());
  impl_->call->UpdateBytes();
  return reader;
}

Result<RecordBatchReaderPtr> FileReader::GetRecordBatchReader(
    const std::optional<std::vector<std::string>>& columns, const std::vector<int>& row_groups,
    const std::vector<RowRanges>& selections, int64_t batch_size) {
  QUIVER_ASSIGN_OR_RAISE(auto nodes, impl_->Select(columns));
  QUIVER_ASSIGN_OR_RAISE(auto groups, impl_->RowGroups(row_groups));
  QUIVER_RETURN_NOT_OK(impl_->CheckSelections(groups, selections));
  if (batch_size <= 0) batch_size = impl_->options.batch_size;
  if (batch_size <= 0) return Status::Invalid("batch_size must be positive");
  impl_->StartCall();
  if (impl_->options.invalid_utf8 == ReaderOptions::InvalidUtf8::kBinary) {
    QUIVER_ASSIGN_OR_RAISE(nodes, impl_->WithInvalidUtf8AsBinary(std::move(nodes), groups,
                                                                 &selections, batch_size));
  }
  auto reader = std::make_shared<ParquetBatchReader>(impl_.get(), std::move(nodes),
                                                     std::move(groups), batch_size);
  reader->set_selections(selections);
  QUIVER_RETURN_NOT_OK(reader->Init());
  impl_->call->UpdateBytes();
  return reader;
}

Result<RecordBatchReaderPtr> MakeRefinedBatchReader(
    FileReader& file_reader, const std::optional<std::vector<std::string>>& columns,
    const std::vector<int>& row_groups, const std::vector<RowRanges>& selections,
    int64_t batch_size, BatchRefiner refiner) {
  auto* impl = ParquetBatchReader::ImplOf(file_reader);
  QUIVER_ASSIGN_OR_RAISE(auto nodes, impl->Select(columns));
  QUIVER_ASSIGN_OR_RAISE(auto groups, impl->RowGroups(row_groups));
  QUIVER_RETURN_NOT_OK(impl->CheckSelections(groups, selections));
  if (batch_size <= 0) batch_size = impl->options.batch_size;
  if (batch_size <= 0) return Status::Invalid("batch_size must be positive");
  if (impl->options.invalid_utf8 == ReaderOptions::InvalidUtf8::kBinary) {
    QUIVER_ASSIGN_OR_RAISE(nodes, impl->WithInvalidUtf8AsBinary(std::move(nodes), groups,
                                                                &selections, batch_size));
  }
  auto reader = std::make_shared<ParquetBatchReader>(impl, std::move(nodes), std::move(groups),
                                                     batch_size);
  reader->set_selections(selections);
  reader->set_refiner(std::move(refiner));
  QUIVER_RETURN_NOT_OK(reader->Init());
  impl->call->UpdateBytes();
  return reader;
}

MemoryPool* ReaderPoolOf(const FileReader& reader) {
  return ParquetBatchReader::ImplOf(reader)->pool;
}

void AddEarlierStats(FileReader& reader, const ReadStats& earlier) {
  ReadCall& call = *ParquetBatchReader::ImplOf(reader)->call;
  ReadStats counted = earlier;
  counted.bytes_read = 0;  // the call's bytes are the file's count since its base
  call.stats += counted;
  call.bytes_base -= earlier.bytes_read;
  call.UpdateBytes();
}

ReadStats FileReader::read_stats() const { return impl_->call->stats; }

Result<std::vector<int>> FileReader::CheckedRowGroups(
    const std::optional<std::vector<int>>& row_groups) const {
  return impl_->RowGroups(row_groups);
}

int64_t FileReader::BytesRequested() const { return impl_->counting->bytes(); }

void FileReader::AddPruningStats(int64_t statistics, int64_t bloom, int64_t dictionary,
                                 int64_t bytes, int64_t pages_skipped) {
  ReadCall& call = *impl_->call;
  call.stats.pages_skipped += pages_skipped;
  call.stats.row_groups_pruned_statistics += statistics;
  call.stats.row_groups_pruned_bloom += bloom;
  call.stats.row_groups_pruned_dictionary += dictionary;
  call.bytes_base -= bytes;
  call.UpdateBytes();
}

PruningSource PruningSourceOf(const FileReader& reader) {
  const FileReader::Impl& impl = *reader.impl_;
  PruningSource source;
  source.file = impl.file;
  source.metadata = &impl.thrift();
  source.descriptor = impl.descriptor;
  source.data_end = impl.footer_offset;
  source.page_options.limits = impl.options.thrift_limits;
  source.page_options.verify_checksums = impl.options.page_checksum_verification;
  source.page_options.pool = impl.pool;
  return source;
}

void AddHeaderPageLocations(FileReader& reader, int row_group, int column,
                            std::vector<PageLocation> locations) {
  FileReader::Impl& impl = *reader.impl_;
  using Map = std::map<std::pair<int, int>, std::vector<PageLocation>>;
  auto map = impl.header_locations ? std::make_shared<Map>(*impl.header_locations)
                                   : std::make_shared<Map>();
  (*map)[{row_group, column}] = std::move(locations);
  impl.header_locations = std::move(map);
}

Result<std::vector<ReadNode>> FileReader::Impl::WithInvalidUtf8AsBinary(
    std::vector<ReadNode> nodes, const std::vector<int>& groups,
    const std::vector<RowRanges>* selections, int64_t batch_size) {
  // The selected string leaves, read recording and dropped batch by batch.
  std::set<int32_t> strings;
  std::function<void(const ReadNode&)> collect = [&](const ReadNode& node) {
    if (node.kind == ReadNode::Kind::kLeaf) {
      if (internal::HasStringLeaf(node)) strings.insert(node.column);
      return;
    }
    for (const ReadNode& child : node.children) collect(child);
  };
  for (const ReadNode& node : nodes) collect(node);
  if (strings.empty()) return nodes;
  std::vector<ReadNode> scanned;
  for (const ReadNode& node : nodes) {
    ReadNode pruned;
    if (internal::PruneNode(node, strings, &pruned)) scanned.push_back(std::move(pruned));
  }
  ParquetBatchReader scan(this, std::move(scanned), groups, batch_size,
                          /*chunked_leaves=*/false, /*record_invalid_utf8=*/true);
  if (selections != nullptr) scan.set_selections(*selections);
  QUIVER_RETURN_NOT_OK(scan.Init());
  while (true) {
    int64_t rows = 0;
    QUIVER_ASSIGN_OR_RAISE(auto batch, scan.NextColumns(&rows));
    if (!batch.has_value()) break;
  }
  std::set<int32_t> invalid;
  scan.AddInvalidUtf8Columns(&invalid);
  if (invalid.empty()) return nodes;
  for (ReadNode& node : nodes) node = internal::WithBinaryLeaves(node, invalid);
  return nodes;
}

Result<TablePtr> FileReader::ReadTable(const std::optional<std::vector<std::string>>& columns,
                                       const std::optional<std::vector<int>>& row_groups) {
  QUIVER_ASSIGN_OR_RAISE(auto groups, impl_->RowGroups(row_groups));
  return impl_->Read(columns, groups, nullptr);
}

Result<TablePtr> FileReader::ReadRowGroups(const std::vector<int>& row_groups,
                                           const std::vector<RowRanges>& selections,
                                           const std::optional<std::vector<std::string>>& columns) {
  QUIVER_ASSIGN_OR_RAISE(auto groups, impl_->RowGroups(row_groups));
  QUIVER_RETURN_NOT_OK(impl_->CheckSelections(groups, selections));
  return impl_->Read(columns, groups, &selections);
}

Result<TablePtr> FileReader::Impl::Read(const std::optional<std::vector<std::string>>& columns,
                                        const std::vector<int>& groups,
                                        const std::vector<RowRanges>* selections) {
  QUIVER_ASSIGN_OR_RAISE(auto nodes, Select(columns));
  StartCall();
  auto result = ReadGroups(std::move(nodes), groups, selections);
  call->UpdateBytes();
  return result;
}

Result<TablePtr> FileReader::Impl::ReadGroups(std::vector<ReadNode> nodes,
                                              const std::vector<int>& groups,
                                              const std::vector<RowRanges>* selections) {
  const bool record = options.invalid_utf8 == ReaderOptions::InvalidUtf8::kBinary;
  // Units of (row group, top-level column), row group major: each reads
  // its column's leaves (nested assembly needs them together) into its own
  // chunks, stats and invalid UTF-8 leaves. A top-level string column of
  // more than LeafBuilder::kChunkBytes comes back in chunks.
  struct Unit {
    std::vector<ArrayDataPtr> chunks;
    ReadStats stats;
    std::set<int32_t> invalid_utf8;
  };
  const size_t columns = nodes.size();
  std::vector<Unit> units(groups.size() * columns);
  auto read_unit = [&](int64_t i) -> Status {
    const size_t g = static_cast<size_t>(i) / columns;
    const size_t c = static_cast<size_t>(i) % columns;
    Unit& unit = units[static_cast<size_t>(i)];
    const int group = groups[g];
    const int64_t rows = selections != nullptr
                             ? (*selections)[g].row_count()
                             : thrift().row_groups[static_cast<size_t>(group)].num_rows;
    ParquetBatchReader reader(this, std::vector<ReadNode>{nodes[c]}, std::vector<int>{group},
                              std::max<int64_t>(rows, 1), /*chunked_leaves=*/true, record);
    reader.set_stats(&unit.stats);
    if (selections != nullptr) reader.set_selections({(*selections)[g]});
    reader.set_prefetch(true);  // the whole row group is read at once
    QUIVER_RETURN_NOT_OK(reader.Init());
    while (true) {
      int64_t batch_rows = 0;
      QUIVER_ASSIGN_OR_RAISE(auto columns_read, reader.NextColumns(&batch_rows));
      if (!columns_read.has_value()) break;
      for (auto& chunk : columns_read->front()) unit.chunks.push_back(std::move(chunk));
    }
    if (record) reader.AddInvalidUtf8Columns(&unit.invalid_utf8);
    return Status::OK();
  };
  // On the pool when asked and worth it (docs/design.md "Parallel reads");
  // else the same units in order on this thread. Either way the error is
  // the first failing unit's in file order.
  bool parallel = MayUseThreads() && units.size() >= 2;
  if (parallel) {
    std::vector<int32_t> leaves;
    for (const ReadNode& node : nodes) {
      leaves.insert(leaves.end(), node.columns.begin(), node.columns.end());
    }
    parallel = internal::DecodesAtLeast(thrift(), groups, leaves, selections, ParallelMinBytes());
  }
  const Status status = ParallelFor(static_cast<int64_t>(units.size()), read_unit,
                                    parallel ? ThreadPool::Cpu() : nullptr);
  for (const Unit& unit : units) call->stats += unit.stats;
  QUIVER_RETURN_NOT_OK(status);
  // (No columns, columns=[]: the rows are still counted, as in pyarrow.)
  int64_t total_rows = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    total_rows += selections != nullptr
                      ? (*selections)[g].row_count()
                      : thrift().row_groups[static_cast<size_t>(groups[g])].num_rows;
  }
  std::vector<std::vector<ArrayDataPtr>> chunks(columns);
  std::set<int32_t> invalid_utf8;
  for (size_t i = 0; i < units.size(); ++i) {
    for (auto& chunk : units[i].chunks) chunks[i % columns].push_back(std::move(chunk));
    invalid_utf8.insert(units[i].invalid_utf8.begin(), units[i].invalid_utf8.end());
  }
  // invalid_utf8 = kBinary: the string leaves that held invalid UTF-8, and
  // the fields above them, retyped (the buffers stay).
  FieldVector fields;
  std::vector<ChunkedArrayPtr> out;
  for (size_t c = 0; c < nodes.size(); ++c) {
    std::vector<ArrayPtr> arrays;
    if (!invalid_utf8.empty()) {
      ReadNode node = internal::WithBinaryLeaves(nodes[c], invalid_utf8);
      for (auto& chunk : chunks[c]) chunk = internal::Retype(chunk, node);
      nodes[c] = std::move(node);
    }
    for (auto& chunk : chunks[c]) arrays.push_back(MakeArray(std::move(chunk)));
    fields.push_back(nodes[c].field);
    out.push_back(std::make_shared<ChunkedArray>(std::move(arrays), nodes[c].field->type()));
  }
  return std::make_shared<Table>(quiver::schema(std::move(fields), arrow.schema->metadata()),
                                 std::move(out), total_rows);
}

Result<TablePtr> FileReader::ReadRowGroup(int row_group,
                                          const std::optional<std::vector<std::string>>& columns) {
  return ReadTable(columns, std::vector<int>{row_group});
}

}  // namespace quiver::parquet
