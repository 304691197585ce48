// The reader's shared internals (file_reader.cc, batch_reader.cc): the
// counting file and a read call's stats, FileReader::Impl, and
// ParquetBatchReader, which walks row groups batch by batch (selections,
// late materialization's refiner, a shared source, a batch's columns as
// tasks). Not installed.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "quiver/io/read_ranges.h"
#include "quiver/parquet/encryption/file_decryptor_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/reader/column_reader_internal.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"
#include "quiver/parquet/reader/parallel_read_internal.h"
#include "quiver/parquet/reader/projection_internal.h"
#include "quiver/util/thread_pool.h"

namespace quiver::parquet {

namespace internal {

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

}  // namespace internal

struct FileReader::Impl {
  // The user's file behind a CountingFile.
  std::shared_ptr<internal::CountingFile> counting;
  std::shared_ptr<io::RandomAccessFile> file;
  // The last read call's stats (shared with the batch reader it made).
  std::shared_ptr<internal::ReadCall> call = std::make_shared<internal::ReadCall>();
  std::shared_ptr<internal::ReadCall> StartCall() {
    call = std::make_shared<internal::ReadCall>();
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
  // Decrypts the chunks' pages of an encrypted file (nullptr: none).
  std::shared_ptr<const encryption::FileDecryptor> decryptor;
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
  // While a filtered read runs (filtered_read.cc, FilteredReadScope): the
  // bytes its pruning fetched (page indexes, dictionaries), which the
  // read's units take rather than fetch again, and how ranges of a row
  // selection coalesce. Outside one: nothing held, and a row selection's
  // ranges merge only where they touch (no byte of a skipped page read).
  std::shared_ptr<io::ReadRangeCache> held;
  // The page index bytes the footer's suffix read brought (from
  // tail_offset; nullptr: none): a filtered read holds them from the start,
  // so a page index that lies in them costs no request.
  std::shared_ptr<Buffer> tail;
  int64_t tail_offset = 0;
  io::CoalesceOptions selection_coalesce{.hole_size_limit = 0};
  // What reads go through: the held bytes, else the file.
  std::shared_ptr<io::RandomAccessFile> source() const {
    return held != nullptr ? std::static_pointer_cast<io::RandomAccessFile>(held) : file;
  }
  // The page reader options of this file's column readers (stats: none).
  PageReaderOptions PageOptions() const;
  // Starts a filtered read: `held` made (empty) and selections coalesced
  // with io::CoalesceOptions' defaults, until the guard returned is
  // dropped (filtered_read.cc). A batch reader made meanwhile keeps them.
  std::shared_ptr<void> StartFilteredRead();
  // One row group's bytes for every unit of a read (ReadGroups: a unit is
  // a row group's top-level column, possibly on the pool), planned for all
  // of the read's leaves at once and fetched into one cache the units
  // share (read_plan.cc): without a selection (nullptr, or every row)
  // each leaf's column chunk; with one (and skip_pages_by_offset_index),
  // the leaves' offset indexes first (one coalesced fetch; none when
  // `held` has them), then the pages the selection touches and the
  // dictionary pages they need (ColumnReader::NeededRanges), coalesced by
  // selection_coalesce. Bytes `held` holds are taken from it, not fetched
  // again; reads outside the fetched ranges go to source().
  Result<std::shared_ptr<io::ReadRangeCache>> FetchRowGroup(const std::vector<ReadNode>& nodes,
                                                            int group,
                                                            const RowRanges* selection) const;
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
                              const std::vector<RowRanges>* selections,
                              const std::vector<RowMask>* masks = nullptr);

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
  // Masked reads (file_reader_internal.h): of each row group's selected
  // rows only those its mask sets (one RowMask per row group, as the
  // selections); before Init().
  void set_masks(std::vector<RowMask> masks) { masks_ = std::move(masks); }
  // The reader's internals for file_reader_internal.h's functions (this
  // class is FileReader's friend).
  static FileReader::Impl* ImplOf(const FileReader& reader) { return reader.impl_.get(); }

  // Read pages from `source` (a cache of this row group's bytes shared
  // with other readers: ReadGroups) rather than the reader's file. Before
  // Init().
  void set_source(std::shared_ptr<io::RandomAccessFile> source) { source_ = std::move(source); }
  // Count into `stats` rather than the call's (a task of a parallel read:
  // its own counters, summed once the tasks are done); before Init().
  void set_stats(ReadStats* stats) { stats_ = stats; }

  Status Init();

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
  Result<std::optional<std::vector<std::vector<ArrayDataPtr>>>> NextColumns(int64_t* rows);

 private:
  static void CollectLeaves(const ReadNode& node, std::vector<const ReadNode*>* out) {
    if (node.kind == ReadNode::Kind::kLeaf) {
      out->push_back(&node);
      return;
    }
    for (const ReadNode& child : node.children) CollectLeaves(child, out);
  }

  Status ChunkEnded(const internal::ColumnReader& reader, int64_t rows) const {
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
    std::vector<internal::ColumnReader*> all;
    for (auto& reader : owned_) all.push_back(reader.get());
    return CheckChunksEnd(all);
  }
  Status CheckChunksEnd(const std::vector<internal::ColumnReader*>& readers) const;

  FileReader::Impl* impl_;
  std::vector<ReadNode> nodes_;
  std::vector<int> row_groups_;
  int64_t batch_size_;
  bool chunked_leaves_;
  bool record_invalid_utf8_;
  bool use_threads_;
  SchemaPtr schema_;
  std::vector<std::unique_ptr<internal::ColumnReader>> owned_;
  std::vector<internal::ColumnReader*> readers_;
  std::shared_ptr<io::RandomAccessFile> source_;  // set_source
  // Per top-level node: its leaves' readers and what they counted since
  // the last StatsFold; every leaf column read.
  std::vector<std::vector<internal::ColumnReader*>> node_readers_;
  std::vector<ReadStats> node_stats_;
  std::vector<int32_t> all_leaves_;
  std::shared_ptr<internal::ReadCall> call_;
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
  // set_masks; the current row group's (nullptr: none) and the rows of its
  // selection passed so far.
  std::vector<RowMask> masks_;
  const RowMask* group_mask_ = nullptr;
  int64_t selected_pos_ = 0;
};

}  // namespace quiver::parquet
