#include "quiver/parquet/writer/file_writer.h"

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "quiver/io/atomic_file.h"
#include "quiver/parquet/writer/append_base_internal.h"
#include "quiver/parquet/levels/level_builder.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/schema/arrow_to_parquet_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/writer/column_writer_internal.h"
#include "quiver/parquet/writer/encrypted_parts_internal.h"
#include "quiver/parquet/writer/key_value_internal.h"
#include "quiver/parquet/writer/parallel_fields_internal.h"
#include "quiver/util/thread_pool.h"

namespace quiver::parquet {

namespace {

constexpr char kMagic[4] = {'P', 'A', 'R', '1'};

}  // namespace

class FileWriter::Impl {
 public:
  Impl(SchemaPtr schema, WriterOptions options) : schema_(std::move(schema)), options_(std::move(options)) {}

  ~Impl() { Abort(); }

  Status OpenPath(const std::string& path) {
    QUIVER_ASSIGN_OR_RAISE(owned_sink_, io::AtomicFileOutputStream::Open(path, options_.fsync));
    sink_ = owned_sink_.get();
    return Init();
  }

  Status OpenAppend(const std::string& path, const AppendBase& base) {
    if (options_.encryption_properties != nullptr) {
      return Status::NotImplemented("appending with encryption_properties is not built yet");
    }
    QUIVER_ASSIGN_OR_RAISE(owned_sink_, io::AtomicFileOutputStream::Open(path, options_.fsync));
    sink_ = owned_sink_.get();
    write_magic_ = false;  // the copied bytes start with it
    QUIVER_RETURN_NOT_OK(Init());
    QUIVER_RETURN_NOT_OK(CheckAppendSchema(base.footer.schema, metadata_.schema));
    QUIVER_RETURN_NOT_OK(CopyAppendPrefix(base, owned_sink_.get()));
    const format::FileMetaData& old = base.footer;
    metadata_.version = old.version;
    metadata_.schema = old.schema;
    metadata_.created_by = old.created_by;
    metadata_.column_orders = old.column_orders;
    metadata_.key_value_metadata = old.key_value_metadata;
    metadata_.row_groups = old.row_groups;
    metadata_.num_rows = old.num_rows;
    first_new_row_group_ = metadata_.row_groups.size();
    appending_ = true;
    return Status::OK();
  }

  void DropNewSortingColumns() { drop_new_sorting_ = true; }

  Status OpenStream(io::OutputStream* sink) {
    sink_ = sink;
    return Init();
  }

  Status WriteRecordBatch(const RecordBatch& batch) {
    QUIVER_RETURN_NOT_OK(CheckWritable());
    if (!batch.schema()->Equals(*schema_)) {
      return Fail(Status::Invalid("record batch schema differs from the writer's schema:\n",
                                  batch.schema()->ToString(), "\nexpected:\n", schema_->ToString()));
    }
    Status st = batch.Validate();
    if (!st.ok()) return Fail(std::move(st));
    int64_t offset = 0;
    while (offset < batch.num_rows()) {
      if (rows_in_group_ >= options_.row_group_size) QUIVER_RETURN_NOT_OK(FlushRowGroup());
      int64_t take = std::min(batch.num_rows() - offset, options_.row_group_size - rows_in_group_);
      // Byte-bounded row groups: check the buffered size every write_batch_size
      // rows, so that one large batch is cut too.
      if (options_.row_group_bytes.has_value()) take = std::min(take, options_.write_batch_size);
      // Each top-level field has writers of its own: with use_threads and
      // enough data the fields are written on the CPU pool.
      std::vector<ArrayDataPtr> slices;
      for (int i = 0; i < batch.num_columns(); ++i) {
        const ArrayDataPtr& col = batch.column_data(i);
        slices.push_back(take == col->length && offset == 0 ? col : col->Slice(offset, take));
      }
      Status st = ForEachField(
          batch.num_columns(), [&](int64_t i) { return internal::EncodeWork(*slices[static_cast<size_t>(i)]); },
          [&](int64_t i) { return WriteFieldSlice(static_cast<int>(i), slices[static_cast<size_t>(i)], nullptr); });
      if (!st.ok()) return Fail(std::move(st));
      rows_in_group_ += take;
      offset += take;
      if (options_.row_group_bytes.has_value() && BufferedBytes() >= *options_.row_group_bytes) {
        QUIVER_RETURN_NOT_OK(FlushRowGroup());
      }
    }
    return Status::OK();
  }

  Status WriteTable(const Table& table, std::optional<int64_t> call_row_group_size = std::nullopt) {
    QUIVER_RETURN_NOT_OK(CheckWritable());
    int64_t row_group_size = options_.row_group_size;
    if (call_row_group_size.has_value()) {
      if (*call_row_group_size <= 0) {
        return Status::Invalid("row_group_size must be positive, got ", *call_row_group_size);
      }
      if (options_.row_group_bytes.has_value()) {
        return Status::Invalid("a row_group_size for one write_table call cannot be combined with "
                               "the row_group_bytes option");
      }
      row_group_size = *call_row_group_size;
    }
    if (!table.schema()->Equals(*schema_)) {
      return Fail(Status::Invalid("table schema differs from the writer's schema:\n",
                                  table.schema()->ToString(), "\nexpected:\n", schema_->ToString()));
    }
    for (int i = 0; i < table.num_columns(); ++i) {
      for (const auto& chunk : table.column(i)->chunks()) {
        Status st = chunk->Validate();
        if (!st.ok()) return Fail(st.WithContext("column '", schema_->field(i)->name(), "': "));
      }
    }
    if (options_.row_group_bytes.has_value()) {
      // Byte-bounded row groups: feed batches and let WriteRecordBatch cut.
      QUIVER_ASSIGN_OR_RAISE(auto batches, table.ToRecordBatches());
      for (const auto& b : batches) QUIVER_RETURN_NOT_OK(WriteRecordBatch(*b));
      return Status::OK();
    }
    QUIVER_RETURN_NOT_OK(FlushRowGroup());
    // Row group by row group, column by column. Single-threaded, a field
    // with one leaf streams its pages to the sink and is finished before the
    // next one starts. With use_threads, when the row group's fields make at
    // least two tasks of enough work, they are encoded on the CPU pool while
    // this thread writes them in field order (parallel_fields_internal.h):
    // the bytes are the same either way.
    const bool may_thread = options_.use_threads && table.num_columns() > 1;
    std::vector<std::vector<ArrayDataPtr>> slices(static_cast<size_t>(table.num_columns()));
    for (int64_t start = 0; start < table.num_rows(); start += row_group_size) {
      const int64_t end = std::min(table.num_rows(), start + row_group_size);
      std::vector<int64_t> work;
      for (int i = 0; i < table.num_columns(); ++i) {
        slices[static_cast<size_t>(i)] = FieldSlices(table, i, start, end);
        if (!may_thread) continue;
        int64_t w = 0;
        for (const auto& slice : slices[static_cast<size_t>(i)]) w += internal::EncodeWork(*slice);
        work.push_back(w);
      }
      const auto tasks = may_thread ? internal::GroupFields(work, internal::MinTaskWork())
                                    : std::vector<std::pair<int, int>>();
      format::RowGroup rg;
      if (tasks.size() >= 2 && ThreadPool::Cpu()->workers() > 0) {
        auto encode = [&](int64_t t, io::OutputStream* to) -> Result<std::vector<ColumnChunkOutput>> {
          std::vector<ColumnChunkOutput> chunks;
          const auto [first, last] = tasks[static_cast<size_t>(t)];
          for (int i = first; i < last; ++i) {
            QUIVER_ASSIGN_OR_RAISE(auto outs, EncodeField(i, slices[static_cast<size_t>(i)], to));
            for (auto& out : outs) {
              QUIVER_RETURN_NOT_OK(StreamChunk(&out, to));
              chunks.push_back(std::move(out));
            }
          }
          return chunks;
        };
        auto place = [&](std::vector<ColumnChunkOutput> chunks, int64_t shift) {
          for (auto& out : chunks) AddChunk(std::move(out), shift, &rg);
          return Status::OK();
        };
        Status st = internal::WriteTasksInOrder(static_cast<int64_t>(tasks.size()), encode, place, sink_,
                                                ThreadPool::Cpu(), options_.pool);
        if (!st.ok()) return Fail(std::move(st));
      } else {
        for (int i = 0; i < table.num_columns(); ++i) {
          auto outs = EncodeField(i, slices[static_cast<size_t>(i)], sink_);
          if (!outs.ok()) return Fail(outs.status());
          for (auto& out : *outs) QUIVER_RETURN_NOT_OK(PlaceChunk(std::move(out), &rg));
        }
      }
      rows_in_group_ = end - start;
      QUIVER_RETURN_NOT_OK(EndRowGroup(std::move(rg)));
    }
    return Status::OK();
  }

  Status FlushRowGroup() {
    QUIVER_RETURN_NOT_OK(CheckWritable());
    if (rows_in_group_ == 0 || writers_.empty()) return Status::OK();
    // The chunks are finished (their last pages encoded and compressed) on
    // the CPU pool with use_threads and enough buffered data (an upper bound
    // of what is left to do), then written in order.
    std::vector<ColumnChunkOutput> finished(writers_.size());
    Status st = ForEachField(
        static_cast<int64_t>(writers_.size()),
        [&](int64_t c) { return writers_[static_cast<size_t>(c)]->EstimatedBufferedSize(); },
        [&](int64_t c) {
          auto out = writers_[static_cast<size_t>(c)]->Finish();
          if (!out.ok()) return out.status();
          finished[static_cast<size_t>(c)] = std::move(out).MoveValueUnsafe();
          return Status::OK();
        });
    if (!st.ok()) return Fail(std::move(st));
    format::RowGroup rg;
    for (auto& out : finished) QUIVER_RETURN_NOT_OK(PlaceChunk(std::move(out), &rg));
    QUIVER_RETURN_NOT_OK(EndRowGroup(std::move(rg)));
    return ResetWriters();
  }

  // Runs fn(0) .. fn(n - 1) in order on this thread or, with use_threads
  // when the items make at least two groups of internal::MinTaskWork()
  // (work(i): item i's estimated work), group by group on the CPU pool
  // (ParallelFor: the first error by index, as on one thread).
  Status ForEachField(int64_t n, const std::function<int64_t(int64_t)>& work,
                      const std::function<Status(int64_t)>& fn) {
    if (options_.use_threads && n > 1) {
      std::vector<int64_t> works;
      for (int64_t i = 0; i < n; ++i) works.push_back(work(i));
      const auto groups = internal::GroupFields(works, internal::MinTaskWork());
      if (groups.size() >= 2 && ThreadPool::Cpu()->workers() > 0) {
        return ParallelFor(
            static_cast<int64_t>(groups.size()),
            [&](int64_t g) {
              for (int i = groups[static_cast<size_t>(g)].first; i < groups[static_cast<size_t>(g)].second; ++i) {
                QUIVER_RETURN_NOT_OK(fn(i));
              }
              return Status::OK();
            },
            ThreadPool::Cpu());
      }
    }
    for (int64_t i = 0; i < n; ++i) QUIVER_RETURN_NOT_OK(fn(i));
    return Status::OK();
  }

  // The arrays of a table's field `i` in rows [start, end).
  static std::vector<ArrayDataPtr> FieldSlices(const Table& table, int i, int64_t start, int64_t end) {
    std::vector<ArrayDataPtr> slices;
    int64_t chunk_start = 0;
    for (const auto& chunk : table.column(i)->chunks()) {
      const int64_t chunk_end = chunk_start + chunk->length();
      const int64_t lo = std::max(start, chunk_start), hi = std::min(end, chunk_end);
      if (lo < hi) {
        const ArrayDataPtr& d = chunk->data();
        slices.push_back(lo == chunk_start && hi == chunk_end ? d : d->Slice(lo - chunk_start, hi - lo));
      }
      chunk_start = chunk_end;
      if (chunk_start >= end) break;
    }
    return slices;
  }

  // Encodes a field `i`'s arrays (one row group's rows) into finished
  // column chunks, one per leaf. With a `stream_to` sink the pages go
  // straight to it where the leaves' chunks can follow one another: a field
  // with one leaf, or rows in one array (its levels are computed once, then
  // each leaf is written and finished before the next); otherwise the
  // leaves of each slice are written side by side and buffered.
  Result<std::vector<ColumnChunkOutput>> EncodeField(int i, const std::vector<ArrayDataPtr>& slices,
                                                     io::OutputStream* stream_to) {
    const int first = first_leaf_[static_cast<size_t>(i)];
    const int last = first_leaf_[static_cast<size_t>(i) + 1];
    auto make_writer = [&](int leaf, io::OutputStream* sink) -> Result<std::unique_ptr<ColumnChunkWriter>> {
      QUIVER_ASSIGN_OR_RAISE(ColumnChunkOptions co, ChunkOptions(leaf));
      return ColumnChunkWriter::Make(parquet_schema_.descriptor.column(leaf),
                                     parquet_schema_.leaves[static_cast<size_t>(leaf)], co, sink);
    };
    std::vector<ColumnChunkOutput> outs;
    outs.reserve(static_cast<size_t>(last - first));
    if (stream_to != nullptr && last - first > 1 && slices.size() == 1) {
      QUIVER_ASSIGN_OR_RAISE(auto leaves, FieldLevels(i, slices[0]));
      for (int leaf = first; leaf < last; ++leaf) {
        QUIVER_ASSIGN_OR_RAISE(auto w, make_writer(leaf, stream_to));
        QUIVER_RETURN_NOT_OK(w->Write(leaves[static_cast<size_t>(leaf - first)]));
        QUIVER_ASSIGN_OR_RAISE(auto out, w->Finish());
        outs.push_back(std::move(out));
      }
      return outs;
    }
    std::vector<std::unique_ptr<ColumnChunkWriter>> leaf_writers;
    for (int leaf = first; leaf < last; ++leaf) {
      QUIVER_ASSIGN_OR_RAISE(auto w, make_writer(leaf, last - first == 1 ? stream_to : nullptr));
      leaf_writers.push_back(std::move(w));
    }
    for (const auto& slice : slices) QUIVER_RETURN_NOT_OK(WriteFieldSlice(i, slice, &leaf_writers));
    outs.reserve(leaf_writers.size());
    for (auto& w : leaf_writers) {
      QUIVER_ASSIGN_OR_RAISE(auto out, w->Finish());
      outs.push_back(std::move(out));
    }
    return outs;
  }

  // Places one finished column chunk: writes its bytes (unless it streamed
  // them) and adds its metadata to `rg`.
  Status PlaceChunk(ColumnChunkOutput out, format::RowGroup* rg) {
    Status st = StreamChunk(&out, sink_);
    if (!st.ok()) return Fail(std::move(st));
    AddChunk(std::move(out), 0, rg);
    return Status::OK();
  }

  // Writes a buffered chunk's bytes to `to`, its offsets then positions in
  // `to` (a streamed chunk's already are).
  static Status StreamChunk(ColumnChunkOutput* out, io::OutputStream* to) {
    if (out->bytes.empty()) return Status::OK();
    QUIVER_ASSIGN_OR_RAISE(int64_t base, to->Tell());
    for (auto& part : out->bytes) QUIVER_RETURN_NOT_OK(to->WriteShared(std::move(part)));
    out->bytes.clear();
    ShiftOffsets(out, base);
    return Status::OK();
  }

  static void ShiftOffsets(ColumnChunkOutput* out, int64_t shift) {
    if (shift == 0) return;
    out->metadata.data_page_offset += shift;
    if (out->metadata.dictionary_page_offset.has_value()) *out->metadata.dictionary_page_offset += shift;
    for (auto& loc : out->offset_index.page_locations) loc.offset += shift;
  }

  // Adds a written chunk to `rg`, its offsets moved by `shift`.
  void AddChunk(ColumnChunkOutput out, int64_t shift, format::RowGroup* rg) {
    ShiftOffsets(&out, shift);
    format::ColumnMetaData md = std::move(out.metadata);
    format::ColumnChunk cc;
    cc.file_offset = md.dictionary_page_offset.value_or(md.data_page_offset);
    if (rg->columns.empty()) rg->file_offset = cc.file_offset;
    rg->total_byte_size += md.total_uncompressed_size;
    rg->total_compressed_size = rg->total_compressed_size.value_or(0) + md.total_compressed_size;
    cc.meta_data = std::move(md);
    rg->columns.push_back(std::move(cc));
    bloom_filters_.push_back(std::move(out.bloom_filter));
    if (options_.write_page_index) {
      column_indexes_.push_back(std::move(out.column_index));
      offset_indexes_.push_back(std::move(out.offset_index));
    }
  }

  Status EndRowGroup(format::RowGroup rg) {
    rg.num_rows = rows_in_group_;
    rg.ordinal = static_cast<int16_t>(metadata_.row_groups.size());
    if (!options_.sorting_columns.empty()) {
      auto& sc = rg.sorting_columns.emplace();
      for (const auto& s : options_.sorting_columns) {
        format::SortingColumn f;
        f.column_idx = s.column_index;
        f.descending = s.descending;
        f.nulls_first = s.nulls_first;
        sc.push_back(f);
      }
    }
    metadata_.num_rows += rows_in_group_;
    metadata_.row_groups.push_back(std::move(rg));
    rows_in_group_ = 0;
    // The row group is whole: a sink that holds bytes back passes it on.
    Status st = sink_->Flush();
    if (!st.ok()) return Fail(std::move(st));
    return Status::OK();
  }

  Status Close() {
    if (closed_) return Status::Invalid("the Parquet writer is already closed");
    if (!failure_.ok()) {
      Status st = failure_;
      Abort();
      return st;
    }
    Status st = CloseImpl();
    if (!st.ok()) {
      failure_ = st;
      Abort();
      return st;
    }
    closed_ = true;
    return Status::OK();
  }

  Status AddKeyValueMetadata(const KeyValueMetadata& pairs) {
    if (closed_) return Status::Invalid("add_key_value_metadata: the Parquet writer is closed");
    for (int64_t i = 0; i < pairs.size(); ++i) {
      if (pairs.key(i) == "ARROW:schema" && options_.store_schema) {
        return Status::Invalid("add_key_value_metadata: the key ARROW:schema is the writer's own "
                               "(the Arrow schema it stores; store_schema=False leaves it free)");
      }
    }
    for (int64_t i = 0; i < pairs.size(); ++i) added_kv_.Append(pairs.key(i), pairs.value(i));
    return Status::OK();
  }

  void Abort() {
    if (closed_) return;
    closed_ = true;
    if (owned_sink_ != nullptr) owned_sink_->Abort();
  }

  const SchemaPtr& schema() const { return schema_; }
  int64_t Tell() const {
    if (sink_ == nullptr) return 0;
    auto at = sink_->Tell();
    return at.ok() ? *at : 0;
  }
  // After Close() the footer lives in written_.
  int64_t num_rows() const {
    return written_ != nullptr ? written_->num_rows() : metadata_.num_rows + rows_in_group_;
  }
  int num_row_groups() const {
    return written_ != nullptr ? written_->num_row_groups()
                               : static_cast<int>(metadata_.row_groups.size());
  }
  Result<std::shared_ptr<const FileMetaData>> metadata() const {
    if (written_ == nullptr) return Status::Invalid("the footer is known after Close() succeeds");
    return written_;
  }

 private:
  Status Init() {
    QUIVER_RETURN_NOT_OK(options_.Validate());
    MappingOptions mapping;
    mapping.version_1_0 = options_.version == FormatVersion::k1_0;
    mapping.nanos_as_micros = options_.version != FormatVersion::k2_6;
    mapping.version_name = std::string(FormatVersionName(options_.version));
    mapping.coerce_timestamps = options_.coerce_timestamps;
    mapping.allow_truncated_timestamps = options_.allow_truncated_timestamps;
    QUIVER_ASSIGN_OR_RAISE(parquet_schema_, ArrowToParquetSchema(*schema_, mapping));
    // FileMetaData.version: 1 for format 1.0, else 2 (as Arrow C++).
    metadata_.version = options_.version == FormatVersion::k1_0 ? 1 : 2;
    metadata_.schema = parquet_schema_.elements;
    metadata_.created_by = options_.created_by;
    auto& orders = metadata_.column_orders.emplace();
    for (int i = 0; i < parquet_schema_.descriptor.num_columns(); ++i) {
      format::ColumnOrder o;
      o.type_order.emplace();
      orders.push_back(o);
    }
    std::optional<uint64_t> cdc_mask;
    if (options_.content_defined_chunking.has_value()) {
      QUIVER_ASSIGN_OR_RAISE(cdc_mask, CdcMask(*options_.content_defined_chunking));
    }
    for (int i = 0; i < parquet_schema_.descriptor.num_columns(); ++i) {
      const ColumnDescriptor& leaf = parquet_schema_.descriptor.column(i);
      const ArrowLeaf& arrow = parquet_schema_.leaves[static_cast<size_t>(i)];
      ColumnChunkOptions co;
      co.page_version = options_.data_page_version;
      co.version = options_.version;
      co.data_page_size = options_.data_page_size;
      co.max_rows_per_page = options_.max_rows_per_page;
      co.write_batch_size = options_.write_batch_size;
      co.dictionary_pagesize_limit = options_.dictionary_pagesize_limit;
      co.codec = options_.compression.Get(leaf.path);
      co.compression_level = options_.compression_level.Get(leaf.path);
      co.dictionary = options_.use_dictionary.Get(leaf.path);
      co.dictionary_cost_fallback = options_.dictionary_cost_fallback.Get(leaf.path);
      if (co.dictionary_cost_fallback && options_.dictionary_cost_fallback.by_column.count(leaf.path) > 0 &&
          (!co.dictionary || leaf.physical_type == format::Type::kBoolean)) {
        return Status::Invalid("dictionary_cost_fallback: column '", leaf.path,
                               "' is not dictionary-encoded (",
                               co.dictionary ? "BOOLEAN columns never are" : "use_dictionary is off for it",
                               ")");
      }
      QUIVER_ASSIGN_OR_RAISE(co.encoding, ResolveEncoding(leaf, arrow, co.dictionary));
      co.bloom_filter = options_.bloom_filter.Get(leaf.path);
      if (co.bloom_filter.has_value() &&
          (leaf.physical_type == format::Type::kBoolean || arrow.value_kind == ValueKind::kNull)) {
        if (options_.bloom_filter.by_column.count(leaf.path) > 0) {
          return Status::Invalid("bloom_filter_options: column '", leaf.path, "' of physical type ",
                                 format::EnumName(leaf.physical_type), " cannot have a bloom filter");
        }
        co.bloom_filter.reset();  // bloom filters for every column: skip booleans and nulls
      }
      co.statistics = options_.write_statistics.Get(leaf.path);
      co.distinct_count = options_.write_distinct_count;
      co.page_index = options_.write_page_index;
      co.page_checksum = options_.write_page_checksum;
      co.validate_utf8 = options_.validate_utf8;
      co.statistics_truncate_length = options_.statistics_truncate_length;
      co.pool = options_.pool;
      chunk_options_.push_back(co);
    }
    // Each column its own ChunkerOptions (and chunker state). Set here, not
    // on `co` above: GCC 12 then sees `co`'s optional always disengaged at
    // the early returns (else a false -Wmaybe-uninitialized in its dtor).
    if (cdc_mask.has_value()) {
      const CdcOptions& c = *options_.content_defined_chunking;
      for (ColumnChunkOptions& co : chunk_options_) {
        co.cdc = cdc::ChunkerOptions{c.min_chunk_size, c.max_chunk_size, *cdc_mask};
      }
    }
    if (options_.encryption_properties != nullptr) {
      std::vector<std::string> paths;
      for (int i = 0; i < parquet_schema_.descriptor.num_columns(); ++i) {
        paths.push_back(parquet_schema_.descriptor.column(i).path);
      }
      QUIVER_ASSIGN_OR_RAISE(encryptor_,
                             encryption::MakeFileEncryptor(*options_.encryption_properties, paths));
    }
    if (write_magic_) {
      QUIVER_RETURN_NOT_OK(sink_->Write(encryptor_ != nullptr ? encryptor_->magic() : kMagic, 4));
    }
    return ResetWriters();
  }

  // The non-dictionary encoding of a leaf: column_encoding (exact path or
  // an ancestor), else BYTE_STREAM_SPLIT where use_byte_stream_split asks.
  Result<std::optional<format::Encoding>> ResolveEncoding(const ColumnDescriptor& leaf,
                                                          const ArrowLeaf& arrow,
                                                          bool dictionary) const {
    using format::Type;
    const Type t = leaf.physical_type;
    std::string_view path = leaf.path;
    const ColumnEncoding* requested = nullptr;
    while (true) {
      auto it = options_.column_encoding.find(path);
      if (it != options_.column_encoding.end()) {
        requested = &it->second;
        break;
      }
      size_t dot = path.rfind('.');
      if (dot == std::string_view::npos) break;
      path = path.substr(0, dot);
    }
    if (requested != nullptr) {
      if (dictionary) {
        return Status::Invalid("column_encoding for column '", leaf.path,
                               "' needs use_dictionary to be off for that column");
      }
      bool ok = false;
      switch (*requested) {
        case ColumnEncoding::kPlain: ok = true; break;
        case ColumnEncoding::kRle: ok = t == Type::kBoolean; break;
        case ColumnEncoding::kDeltaBinaryPacked: ok = t == Type::kInt32 || t == Type::kInt64; break;
        case ColumnEncoding::kDeltaLengthByteArray: ok = t == Type::kByteArray; break;
        case ColumnEncoding::kDeltaByteArray:
          ok = t == Type::kByteArray || t == Type::kFixedLenByteArray;
          break;
        case ColumnEncoding::kByteStreamSplit:
          ok = t == Type::kFloat || t == Type::kDouble || t == Type::kInt32 || t == Type::kInt64 ||
               t == Type::kFixedLenByteArray;
          break;
      }
      if (!ok) {
        return Status::Invalid("column_encoding ", ColumnEncodingName(*requested), " cannot encode column '",
                               leaf.path, "' of physical type ", format::EnumName(t));
      }
      return std::optional<format::Encoding>(static_cast<format::Encoding>(*requested));
    }
    if (options_.use_byte_stream_split.Get(leaf.path)) {
      const bool explicit_column = !options_.use_byte_stream_split.by_column.empty();
      const bool floating = t == Type::kFloat || t == Type::kDouble ||
                            arrow.value_kind == ValueKind::kFloat16;
      const bool supported = floating || t == Type::kInt32 || t == Type::kInt64 ||
                             t == Type::kFixedLenByteArray;
      if (floating || (explicit_column && supported)) {
        return std::optional<format::Encoding>(format::Encoding::kByteStreamSplit);
      }
      if (explicit_column) {
        return Status::Invalid("use_byte_stream_split: column '", leaf.path, "' of physical type ",
                               format::EnumName(t), " cannot use BYTE_STREAM_SPLIT");
      }
    }
    return std::optional<format::Encoding>();
  }

  // The options of leaf `leaf`'s chunk in the current row group (with its
  // encryptor when the file is encrypted).
  Result<ColumnChunkOptions> ChunkOptions(int leaf) const {
    ColumnChunkOptions co = chunk_options_[static_cast<size_t>(leaf)];
    if (encryptor_ != nullptr) {
      QUIVER_ASSIGN_OR_RAISE(co.encryptor,
                             encryptor_->ForChunk(static_cast<int>(metadata_.row_groups.size()), leaf));
    }
    return co;
  }

  // The encryptor of a written chunk (nullptr: not encrypted).
  Result<std::shared_ptr<const encryption::ChunkEncryptor>> WrittenChunkEncryptor(size_t k) const {
    if (encryptor_ == nullptr) return std::shared_ptr<const encryption::ChunkEncryptor>();
    const size_t leaves = static_cast<size_t>(parquet_schema_.descriptor.num_columns());
    return encryptor_->ForChunk(static_cast<int>(first_new_row_group_ + k / leaves),
                                static_cast<int>(k % leaves));
  }

  // Writes a bloom filter or index (`type`) of the written chunk k,
  // encrypted when the chunk is; returns its offset and length.
  Result<std::pair<int64_t, int32_t>> WriteChunkPart(size_t k, encryption::ModuleType type,
                                                     const uint8_t* data, int64_t size) {
    QUIVER_ASSIGN_OR_RAISE(auto encryptor, WrittenChunkEncryptor(k));
    return WriteMaybeEncrypted(sink_, encryptor.get(), type, data, size);
  }

  Status ResetWriters() {
    writers_.clear();
    for (int i = 0; i < parquet_schema_.descriptor.num_columns(); ++i) {
      QUIVER_ASSIGN_OR_RAISE(ColumnChunkOptions co, ChunkOptions(i));
      QUIVER_ASSIGN_OR_RAISE(auto w, ColumnChunkWriter::Make(parquet_schema_.descriptor.column(i),
                                                             parquet_schema_.leaves[static_cast<size_t>(i)], co));
      writers_.push_back(std::move(w));
    }
    // Leaf index range of each top-level field.
    first_leaf_.assign(static_cast<size_t>(schema_->num_fields()) + 1, 0);
    for (const auto& c : parquet_schema_.leaves) ++first_leaf_[static_cast<size_t>(c.top_level_field) + 1];
    for (size_t i = 1; i < first_leaf_.size(); ++i) first_leaf_[i] += first_leaf_[i - 1];
    return Status::OK();
  }

  // The levels of every leaf of a top-level field. Flat columns' levels
  // 0/1 as bits, except for CDC, whose chunker reads int16 levels.
  Result<std::vector<LeafLevels>> FieldLevels(int field_index, const ArrayDataPtr& data) const {
    return ComputeLevels(parquet_schema_.arrow, field_index, data,
                         !options_.content_defined_chunking.has_value());
  }

  // One write call for every leaf of a top-level field: to `leaf_writers`
  // (that field's leaves, in order) or to the row group's writers. Touches
  // only that field's writers (so fields can be written on several
  // threads); the caller records a failure.
  Status WriteFieldSlice(int field_index, const ArrayDataPtr& data,
                         std::vector<std::unique_ptr<ColumnChunkWriter>>* leaf_writers) {
    QUIVER_ASSIGN_OR_RAISE(auto leaves, FieldLevels(field_index, data));
    size_t k = 0;
    int leaf = first_leaf_[static_cast<size_t>(field_index)];
    for (const auto& levels : leaves) {
      ColumnChunkWriter* w = leaf_writers != nullptr ? (*leaf_writers)[k++].get()
                                                     : writers_[static_cast<size_t>(leaf++)].get();
      QUIVER_RETURN_NOT_OK(w->Write(levels));
    }
    return Status::OK();
  }

  int64_t BufferedBytes() const {
    int64_t n = 0;
    for (const auto& w : writers_) n += w->EstimatedBufferedSize();
    return n;
  }

  Status CheckWritable() const {
    if (closed_) return Status::Invalid("the Parquet writer is closed");
    if (!failure_.ok()) {
      return Status::Invalid("the Parquet writer failed earlier and cannot continue: ",
                             failure_.message());
    }
    return Status::OK();
  }

  Status Fail(Status st) {
    if (failure_.ok()) failure_ = st;
    return st;
  }

  Status CloseImpl() {
    QUIVER_RETURN_NOT_OK(FlushRowGroup());
    // Bloom filters of every column chunk, then the page index.
    {
      size_t k = 0;
      for (auto& rg : NewRowGroups()) {
        for (auto& cc : rg.columns) {
          const auto& filter = bloom_filters_[k++];
          if (filter == nullptr) continue;
          QUIVER_ASSIGN_OR_RAISE(auto at, WriteChunkPart(k - 1, encryption::ModuleType::kBloomFilterHeader,
                                                         filter->data(), filter->size()));
          cc.meta_data->bloom_filter_offset = at.first;
          cc.meta_data->bloom_filter_length = at.second;
        }
      }
    }
    // Page index: all column indexes, then all offset indexes (as Arrow C++).
    if (options_.write_page_index) {
      size_t k = 0;
      for (auto& rg : NewRowGroups()) {
        for (auto& cc : rg.columns) {
          auto& ci = column_indexes_[k++];
          if (!ci.has_value()) continue;
          std::string bytes;
          QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(*ci, &bytes));
          QUIVER_ASSIGN_OR_RAISE(auto at, WriteChunkPart(k - 1, encryption::ModuleType::kColumnIndex,
                                                         reinterpret_cast<const uint8_t*>(bytes.data()),
                                                         static_cast<int64_t>(bytes.size())));
          cc.column_index_offset = at.first;
          cc.column_index_length = at.second;
        }
      }
      k = 0;
      for (auto& rg : NewRowGroups()) {
        for (auto& cc : rg.columns) {
          auto& oi = offset_indexes_[k++];
          std::string bytes;
          QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(oi, &bytes));
          QUIVER_ASSIGN_OR_RAISE(auto at, WriteChunkPart(k - 1, encryption::ModuleType::kOffsetIndex,
                                                         reinterpret_cast<const uint8_t*>(bytes.data()),
                                                         static_cast<int64_t>(bytes.size())));
          cc.offset_index_offset = at.first;
          cc.offset_index_length = at.second;
        }
      }
    }
    if (drop_new_sorting_) {
      for (auto& rg : NewRowGroups()) rg.sorting_columns.reset();
    }
    // Key/value metadata: the schema's own pairs, then ARROW:schema (an
    // appended file keeps its own, less a quiver.cdc these rows were not
    // chunked by).
    if (!appending_) QUIVER_RETURN_NOT_OK(SetKeyValueMetadata());
    if (appending_) DropStaleCdcKey(options_.content_defined_chunking, &metadata_.key_value_metadata);
    MergeKeyValues(added_kv_, &metadata_.key_value_metadata);
    return WriteFooter();
  }

  Status SetKeyValueMetadata() {
    QUIVER_ASSIGN_OR_RAISE(metadata_.key_value_metadata,
                           FooterKeyValues(*schema_, options_.store_schema,
                                           options_.content_defined_chunking, options_.pool));
    return Status::OK();
  }

  // The row groups this writer wrote (all but an appended file's old ones).
  std::span<format::RowGroup> NewRowGroups() {
    return std::span<format::RowGroup>(metadata_.row_groups).subspan(first_new_row_group_);
  }

  // Tail of CloseImpl, after the key/value metadata.
  Status WriteFooter() {
    int64_t len = 0;
    if (encryptor_ != nullptr) {
      QUIVER_ASSIGN_OR_RAISE(std::string tail, EncryptedFooter(*encryptor_, metadata_, &len));
      QUIVER_RETURN_NOT_OK(sink_->Write(tail.data(), static_cast<int64_t>(tail.size())));
    } else {
      std::string footer;
      QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(metadata_, &footer));
      QUIVER_RETURN_NOT_OK(sink_->Write(footer.data(), static_cast<int64_t>(footer.size())));
      len = static_cast<int64_t>(footer.size());
      const uint32_t len32 = static_cast<uint32_t>(len);
      QUIVER_RETURN_NOT_OK(sink_->Write(&len32, 4));
      QUIVER_RETURN_NOT_OK(sink_->Write(kMagic, 4));
    }
    // A file at a path appears only now (fsync + rename; see io/atomic_file.h).
    if (owned_sink_ != nullptr) QUIVER_RETURN_NOT_OK(owned_sink_->Close());
    written_ = MakeFileMetaData(std::move(metadata_), len);
    return Status::OK();
  }

  SchemaPtr schema_;
  std::shared_ptr<const FileMetaData> written_;  // after Close()
  WriterOptions options_;
  ParquetSchema parquet_schema_;
  std::vector<ColumnChunkOptions> chunk_options_;
  std::vector<std::unique_ptr<ColumnChunkWriter>> writers_;
  std::vector<int> first_leaf_;
  std::vector<std::optional<format::ColumnIndex>> column_indexes_;
  std::vector<format::OffsetIndex> offset_indexes_;
  std::vector<std::shared_ptr<Buffer>> bloom_filters_;
  format::FileMetaData metadata_;
  std::shared_ptr<const encryption::FileEncryptor> encryptor_;  // encrypted files
  int64_t rows_in_group_ = 0;
  bool write_magic_ = true;
  // Appending (OpenAppend): the old row groups come first in metadata_.
  bool appending_ = false;
  bool drop_new_sorting_ = false;
  size_t first_new_row_group_ = 0;
  KeyValueMetadata added_kv_;  // add_key_value_metadata

  io::OutputStream* sink_ = nullptr;
  std::unique_ptr<io::AtomicFileOutputStream> owned_sink_;  // when writing to a path
  bool closed_ = false;
  Status failure_;
};

FileWriter::FileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileWriter::~FileWriter() = default;

Result<std::unique_ptr<FileWriter>> FileWriter::Open(const std::string& path, SchemaPtr schema,
                                                     WriterOptions options) {
  auto impl = std::make_unique<Impl>(std::move(schema), std::move(options));
  QUIVER_RETURN_NOT_OK(impl->OpenPath(path));
  return std::unique_ptr<FileWriter>(new FileWriter(std::move(impl)));
}

Result<std::unique_ptr<FileWriter>> FileWriter::Open(io::OutputStream* sink, SchemaPtr schema,
                                                     WriterOptions options) {
  auto impl = std::make_unique<Impl>(std::move(schema), std::move(options));
  QUIVER_RETURN_NOT_OK(impl->OpenStream(sink));
  return std::unique_ptr<FileWriter>(new FileWriter(std::move(impl)));
}

Result<std::unique_ptr<FileWriter>> FileWriter::OpenAppend(const std::string& path, SchemaPtr schema,
                                                           WriterOptions options, const AppendBase& base) {
  auto impl = std::make_unique<Impl>(std::move(schema), std::move(options));
  QUIVER_RETURN_NOT_OK(impl->OpenAppend(path, base));
  return std::unique_ptr<FileWriter>(new FileWriter(std::move(impl)));
}

void FileWriter::DropNewSortingColumns() { impl_->DropNewSortingColumns(); }

Status FileWriter::WriteRecordBatch(const RecordBatch& batch) { return impl_->WriteRecordBatch(batch); }
Status FileWriter::WriteTable(const Table& table) { return impl_->WriteTable(table); }
Status FileWriter::WriteTable(const Table& table, int64_t row_group_size) {
  return impl_->WriteTable(table, row_group_size);
}
Status FileWriter::FlushRowGroup() { return impl_->FlushRowGroup(); }
int64_t FileWriter::Tell() const { return impl_->Tell(); }
Status FileWriter::Close() { return impl_->Close(); }
void FileWriter::Abort() { impl_->Abort(); }
Status FileWriter::AddKeyValueMetadata(const KeyValueMetadata& pairs) {
  return impl_->AddKeyValueMetadata(pairs);
}
const SchemaPtr& FileWriter::schema() const { return impl_->schema(); }
int64_t FileWriter::num_rows() const { return impl_->num_rows(); }
int FileWriter::num_row_groups() const { return impl_->num_row_groups(); }
Result<std::shared_ptr<const FileMetaData>> FileWriter::metadata() const {
  return impl_->metadata();
}

Status WriteTable(const Table& table, const std::string& path, const WriterOptions& options) {
  QUIVER_ASSIGN_OR_RAISE(auto writer, FileWriter::Open(path, table.schema(), options));
  QUIVER_RETURN_NOT_OK(writer->WriteTable(table));
  return writer->Close();
}

}  // namespace quiver::parquet
