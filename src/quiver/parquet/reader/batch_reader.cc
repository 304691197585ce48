// ParquetBatchReader (batch_reader_internal.h): opening a batch's column
// readers, and reading a batch's rows column by column.
#include <algorithm>
#include <functional>
#include <set>
#include <utility>

#include "quiver/compute/filter.h"
#include "quiver/parquet/reader/assembly_internal.h"
#include "quiver/parquet/reader/batch_reader_internal.h"
#include "quiver/parquet/reader/invalid_utf8_internal.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet {

using internal::ColumnReader;

PageReaderOptions FileReader::Impl::PageOptions() const {
  PageReaderOptions page_options;
  page_options.limits = options.thrift_limits;
  page_options.verify_checksums = options.page_checksum_verification;
  page_options.pool = pool;
  page_options.legacy_dictionary_header_padding = ChunkSizeOmitsDictionaryHeader(thrift().created_by);
  page_options.header_locations = header_locations;
  page_options.decryptor = decryptor;
  return page_options;
}

Status ParquetBatchReader::Init() {
  // Pages come from source_ (a row group's shared fetch) or, batch by
  // batch, from the file through what a filtered read holds (its page
  // index: offset indexes are not asked for again).
  std::shared_ptr<io::RandomAccessFile> file = source_ != nullptr ? source_ : impl_->source();
  readers_.assign(static_cast<size_t>(impl_->descriptor->num_columns()), nullptr);
  PageReaderOptions page_options = impl_->PageOptions();
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

Result<std::optional<std::vector<std::vector<ArrayDataPtr>>>> ParquetBatchReader::NextColumns(int64_t* rows) {
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
    for (auto& reader : owned_) QUIVER_RETURN_NOT_OK(reader->StartRowGroup(group, skip_pages));
    current_group_ = group;
    group_mask_ = !masks_.empty() && masks_[index].bits != nullptr ? &masks_[index] : nullptr;
    selected_pos_ = 0;
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
  // Masked: bit mask_offset + i of `mask` for the i-th row the steps read.
  const uint8_t* mask = nullptr;
  int64_t mask_offset = 0;
  bool decode_masked = true;
  int64_t rows_per_run = 0;
  if (group_mask_ != nullptr) {
    decode_masked = group_mask_->decode_masked;
    rows_per_run = group_mask_->rows_per_run;
    mask = group_mask_->bits->data();
    mask_offset = group_mask_->offset + selected_pos_;
    out_rows = bitmap::CountSetBits(mask, mask_offset, want);
  }
  selected_pos_ += want;
  if (refiner_) {
    std::vector<std::pair<int64_t, int64_t>> refined;
    BatchMask refined_mask;
    QUIVER_RETURN_NOT_OK(
        refiner_(current_group_, start, steps_, &refined, &out_rows, &refined_mask));
    steps_ = std::move(refined);
    if (refined_mask.bits != nullptr) {
      mask = refined_mask.bits;
      mask_offset = 0;
      decode_masked = true;
      rows_per_run = refined_mask.rows_per_run;
    }
  }
  int64_t read_rows = 0;  // the rows the steps read
  for (const auto& step : steps_) read_rows += step.second;
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
    const ReadNode& node = nodes_[n];
    // A masked batch: a flat leaf reads the mask's rows only; other nodes
    // read every row of the steps and are filtered after.
    bool masked_leaf = mask != nullptr && decode_masked && node.kind == ReadNode::Kind::kLeaf;
    if (masked_leaf) {
      const ColumnReader& leaf = *readers_[static_cast<size_t>(node.column)];
      masked_leaf = leaf.CanReadMasked() && leaf.MaskedReadPays(rows_per_run);
    }
    for (ColumnReader* reader : node_readers_[n]) {
      int64_t pos = start;
      int64_t bit = mask_offset;
      for (const auto& [skip, take] : steps_) {
        int64_t done = 0;
        if (skip > 0) {
          QUIVER_RETURN_NOT_OK(reader->SkipRecords(skip, &done));
          if (done != skip) return ChunkEnded(*reader, pos + done);
          pos += skip;
        }
        if (take == 0) continue;
        if (masked_leaf) {
          QUIVER_RETURN_NOT_OK(reader->ReadRecordsMasked(take, mask, bit, &done));
        } else {
          QUIVER_RETURN_NOT_OK(reader->ReadRecords(take, &done));
        }
        if (done != take) return ChunkEnded(*reader, pos + done);
        pos += take;
        bit += take;
      }
    }
    const int64_t node_rows = mask != nullptr && !masked_leaf ? read_rows : out_rows;
    if (check_end) {
      QUIVER_RETURN_NOT_OK(CheckChunksEnd(node_readers_[n]));
    } else if (group_done) {
      for (ColumnReader* reader : node_readers_[n]) reader->EndChunkEarly();
    }
    std::vector<ArrayDataPtr> chunks;
    if (chunked_leaves_ && node.kind == ReadNode::Kind::kLeaf) {
      auto finished = readers_[static_cast<size_t>(node.column)]->FinishLeafChunks();
      if (!finished.ok()) {
        return finished.status().WithContext(impl_->file->name(), ": row group ",
                                             current_group_, ": ");
      }
      chunks = std::move(finished).MoveValueUnsafe();
    } else {
      auto array = internal::AssembleArray(node, readers_, impl_->pool, node_rows);
      if (!array.ok()) {
        return array.status().WithContext(impl_->file->name(), ": row group ", current_group_,
                                          ": ");
      }
      chunks.push_back(std::move(array).MoveValueUnsafe());
    }
    if (mask != nullptr && !masked_leaf) {
      // Filtered by the mask, chunk by chunk.
      int64_t at = mask_offset;
      for (ArrayDataPtr& chunk : chunks) {
        const int64_t chunk_rows = chunk->length;
        if (at - mask_offset + chunk_rows > read_rows) break;  // (the check below reports it)
        const compute::FilterContext* shared =
            group_mask_ != nullptr ? group_mask_->filter.get() : nullptr;
        if (shared != nullptr && at == group_mask_->offset &&
            shared->input_length() == chunk_rows) {
          QUIVER_ASSIGN_OR_RAISE(chunk, shared->Apply(chunk));  // the row group's, made once
        } else {
          auto bits = std::make_shared<Buffer>(mask, bit_util::BytesForBits(at + chunk_rows));
          auto keep = ArrayData::Make(boolean(), chunk_rows, {nullptr, std::move(bits)}, 0, at);
          QUIVER_ASSIGN_OR_RAISE(auto context,
                                 compute::FilterContext::Make(keep, {}, impl_->pool));
          QUIVER_ASSIGN_OR_RAISE(chunk, context.Apply(chunk));
        }
        at += chunk_rows;
      }
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

Status ParquetBatchReader::CheckChunksEnd(const std::vector<ColumnReader*>& readers) const {
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

}  // namespace quiver::parquet
