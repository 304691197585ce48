#include "quiver/parquet/reader/file_reader.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "quiver/io/file.h"
#include "quiver/io/read_ranges.h"
#include "quiver/ipc/schema.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/metadata/bloom_filter_reader_internal.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/metadata/page_index_internal.h"
#include "quiver/parquet/reader/assembly_internal.h"
#include "quiver/parquet/reader/batch_reader_internal.h"
#include "quiver/parquet/reader/column_reader_internal.h"
#include "quiver/parquet/reader/file_reader_internal.h"
#include "quiver/parquet/reader/invalid_utf8_internal.h"
#include "quiver/parquet/reader/parallel_read_internal.h"
#include "quiver/parquet/reader/projection_internal.h"
#include "quiver/parquet/reader/pruning_sources_internal.h"
#include "quiver/util/base64.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/thread_pool.h"

namespace quiver::parquet {

using internal::ColumnReader;

using internal::CountingFile;
using internal::ReadCall;


namespace {

// The file as the footer's reader sees it, keeping the read that ends at
// the file's end and starts first (the tail: the page index, and bloom
// filters, written just before the footer may lie in it).
class TailKeeper final : public io::RandomAccessFile {
 public:
  explicit TailKeeper(const io::RandomAccessFile& file) : file_(file) {}
  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override {
    QUIVER_ASSIGN_OR_RAISE(auto bytes, file_.ReadAt(offset, length));
    if (offset + bytes->size() == file_.Size() && (tail_ == nullptr || offset < tail_offset_)) {
      tail_ = bytes;
      tail_offset_ = offset;
    }
    return bytes;
  }
  int64_t Size() const override { return file_.Size(); }
  const std::string& name() const override { return file_.name(); }
  // The tail's bytes before `end` (nullptr: none).
  std::shared_ptr<Buffer> TailBefore(int64_t end, int64_t* offset) const {
    if (tail_ == nullptr || tail_offset_ >= end) return nullptr;
    *offset = tail_offset_;
    return SliceBuffer(tail_, 0, std::min(end - tail_offset_, tail_->size()));
  }

 private:
  const io::RandomAccessFile& file_;
  mutable std::shared_ptr<Buffer> tail_;
  mutable int64_t tail_offset_ = 0;
};

}  // namespace

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
  footer_options.decryption = options.decryption_properties.get();
  TailKeeper tail(*impl->file);
  auto read_footer = ReadFooter(tail, footer_options);
  if (!read_footer.ok()) return read_footer.status().WithContext(impl->file->name(), ": ");
  ParquetFooter footer = std::move(*read_footer);
  impl->footer_offset = footer.footer_offset;
  // Of the suffix, only the page index is held for filtered reads (the
  // chunks' bytes in it are read as any others).
  int64_t index_start = footer.footer_offset;
  for (const format::RowGroup& group : footer.metadata.row_groups) {
    for (const format::ColumnChunk& chunk : group.columns) {
      for (const auto& offset : {chunk.column_index_offset, chunk.offset_index_offset}) {
        if (offset.has_value() && *offset >= 0) index_start = std::min(index_start, *offset);
      }
    }
  }
  impl->tail = tail.TailBefore(footer.footer_offset, &impl->tail_offset);
  if (impl->tail != nullptr && impl->tail_offset < index_start) {
    const int64_t skip = std::min(index_start - impl->tail_offset, impl->tail->size());
    impl->tail = SliceBuffer(impl->tail, skip, impl->tail->size() - skip);
    impl->tail_offset += skip;
  }
  if (impl->tail != nullptr && impl->tail->size() > 0) {
    // A copy (at most the suffix read, 64 KiB): the reader keeps nothing of
    // the source's own memory (a bytes-like source's export is released when
    // the caller closes it).
    // (Not the capped pool: its lease may end before the tail does.)
    QUIVER_ASSIGN_OR_RAISE(auto copy, MutableBuffer::WithCapacity(
        impl->tail->size(), options.pool != nullptr ? options.pool : DefaultMemoryPool()));
    copy.UnsafeExtendFromSlice(impl->tail->data(), impl->tail->size());
    impl->tail = copy.FreezeSlice();
  } else {
    impl->tail = nullptr;
  }
  impl->decryptor = footer.decryptor;
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

// The chunk's decryptor (nullptr: the chunk or the file is not encrypted).
const encryption::ChunkDecryptor* DecryptorOf(const encryption::FileDecryptor* decryptor,
                                              const SchemaDescriptor& schema, int row_group,
                                              int column) {
  if (decryptor == nullptr) return nullptr;
  return decryptor->ForChunk(row_group, schema.column(column).path);
}

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
                         parquet::ReadColumnIndex(*impl_->source(), *chunk, impl_->footer_offset,
                                                  impl_->options.thrift_limits,
                                                  DecryptorOf(impl_->decryptor.get(), *impl_->descriptor, row_group, column)));
  if (!index.has_value()) return std::optional<ColumnIndex>();
  QUIVER_ASSIGN_OR_RAISE(
      auto typed, MakeColumnIndex(*index, LeafAnnotations::Of(*impl_->descriptor, column)));
  return std::optional<ColumnIndex>(std::move(typed));
}

Result<std::optional<OffsetIndex>> FileReader::ReadOffsetIndex(int row_group, int column) const {
  QUIVER_ASSIGN_OR_RAISE(auto chunk, ChunkAt(*this, impl_->file->name(), row_group, column));
  QUIVER_ASSIGN_OR_RAISE(auto index,
                         parquet::ReadOffsetIndex(*impl_->source(), *chunk, impl_->footer_offset,
                                                  impl_->options.thrift_limits,
                                                  DecryptorOf(impl_->decryptor.get(), *impl_->descriptor, row_group, column)));
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
                                  impl_->pool, DecryptorOf(impl_->decryptor.get(), *impl_->descriptor, row_group, column));
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

bool ReaderMayUseThreads(const FileReader& reader) {
  return ParquetBatchReader::ImplOf(reader)->MayUseThreads();
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
  source.file = impl.source();
  source.metadata = &impl.thrift();
  source.descriptor = impl.descriptor;
  source.data_end = impl.footer_offset;
  source.page_options.limits = impl.options.thrift_limits;
  source.page_options.verify_checksums = impl.options.page_checksum_verification;
  source.page_options.pool = impl.pool;
  source.page_options.decryptor = impl.decryptor;
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

Result<TablePtr> ReadRowGroupsMasked(FileReader& file_reader, const std::vector<int>& row_groups,
                                     const std::vector<RowRanges>& selections,
                                     const std::vector<RowMask>& masks,
                                     const std::optional<std::vector<std::string>>& columns) {
  auto* impl = ParquetBatchReader::ImplOf(file_reader);
  QUIVER_ASSIGN_OR_RAISE(auto groups, impl->RowGroups(row_groups));
  QUIVER_RETURN_NOT_OK(impl->CheckSelections(groups, selections));
  if (masks.size() != groups.size()) {
    return Status::Invalid(impl->file->name(), ": ", masks.size(), " row masks for ",
                           groups.size(), " row groups");
  }
  for (size_t g = 0; g < masks.size(); ++g) {
    const RowMask& mask = masks[g];
    if (mask.bits != nullptr &&
        (mask.offset < 0 || mask.bits->size() * 8 - mask.offset < selections[g].row_count())) {
      return Status::Invalid(impl->file->name(), ": the row mask of row group ", groups[g],
                             " holds fewer bits than its ", selections[g].row_count(),
                             " selected rows");
    }
  }
  QUIVER_ASSIGN_OR_RAISE(auto nodes, impl->Select(columns));
  impl->StartCall();
  auto result = impl->ReadGroups(std::move(nodes), groups, &selections, &masks);
  impl->call->UpdateBytes();
  return result;
}

Result<TablePtr> FileReader::Impl::ReadGroups(std::vector<ReadNode> nodes,
                                              const std::vector<int>& groups,
                                              const std::vector<RowRanges>* selections,
                                              const std::vector<RowMask>* masks) {
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
  // Each row group's bytes are fetched once, coalesced, by the first of its
  // units to start, and shared (read-only once fetched) by the others
  // (FetchRowGroup, read_plan.cc), so the file sees one request a row group for
  // a plain read (contiguous chunks) and one (two with the offset indexes)
  // for a row selection, however the units are spread over threads. If
  // the fetch fails, the units read from the file as asked and report the
  // error where their pages are.
  struct GroupBytes {
    std::once_flag once;
    std::shared_ptr<io::RandomAccessFile> cache;
  };
  std::vector<GroupBytes> group_bytes(groups.size());
  auto shared_source = [&](size_t g) {
    GroupBytes& bytes = group_bytes[g];
    std::call_once(bytes.once, [&] {
      auto fetched =
          FetchRowGroup(nodes, groups[g], selections != nullptr ? &(*selections)[g] : nullptr);
      if (fetched.ok()) bytes.cache = std::move(*fetched);
    });
    return bytes.cache;
  };
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
    if (masks != nullptr) reader.set_masks({(*masks)[g]});
    reader.set_source(shared_source(g));  // nullptr (the fetch failed): the file
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
    if (masks != nullptr && (*masks)[g].bits != nullptr) {
      total_rows += bitmap::CountSetBits((*masks)[g].bits->data(), (*masks)[g].offset,
                                         (*selections)[g].row_count());
      continue;
    }
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
