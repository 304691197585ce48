// Late materialization of filtered reads (late_materialization_internal.h;
// docs/design.md "Filtered reads").
//
// The runs' cost model is kMergeGapRows: a run boundary in the payload
// read costs a SkipRecords and a ReadRecords call per column (page
// lookups, level and value decoder state) and the assembly one more
// append, about what decoding a few dozen values costs; a gap shorter than
// that is covered rather than skipped. The covered rows that do not match
// are then dropped inside the read (RowMask): the payload's flat leaves
// decode the matches only where the matches are fragmented and the column
// gains by it (MaskedRowsPerRun, ColumnReader::MaskedReadPays); the other
// columns decode every covered row and are filtered (the adaptive
// fallback: a dense selection reads as reading everything, then
// filtering).
#include "quiver/parquet/reader/late_materialization_internal.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <utility>

#include "quiver/compute/filter.h"
#include "quiver/memory/buffer.h"
#include "quiver/parquet/reader/column_reader_internal.h"
#include "quiver/parquet/reader/file_reader_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/thread_pool.h"

namespace quiver::parquet::internal {

namespace {

bool Names(const std::string& entry, const std::string& field) {
  return entry == field ||
         (entry.size() > field.size() && entry.starts_with(field) && entry[field.size()] == '.');
}

// The projection split into what is read before the filter is evaluated
// (the entries naming a filter field, then the filter fields no entry
// names) and after it (the payload).
struct Split {
  std::vector<std::string> filter_fields;
  std::vector<std::string> first;
  std::vector<std::string> payload;
  bool IsFilterField(const std::string& name) const {
    return std::find(filter_fields.begin(), filter_fields.end(), name) != filter_fields.end();
  }
};

Split SplitColumns(const FileReader& reader, const compute::Expression& filter,
                   const std::optional<std::vector<std::string>>& columns) {
  Split split;
  split.filter_fields = filter.FieldsReferenced();
  std::vector<std::string> projection;
  if (columns.has_value()) {
    projection = *columns;
  } else {
    for (const auto& field : reader.schema()->fields()) projection.push_back(field->name());
  }
  for (const std::string& entry : projection) {
    const bool of_filter = std::any_of(split.filter_fields.begin(), split.filter_fields.end(),
                                       [&](const std::string& f) { return Names(entry, f); });
    (of_filter ? split.first : split.payload).push_back(entry);
  }
  for (const std::string& f : split.filter_fields) {
    const bool named = std::any_of(projection.begin(), projection.end(),
                                   [&](const std::string& e) { return Names(e, f); });
    if (!named) split.first.push_back(f);
  }
  return split;
}

// Appends the rows of a boolean mask that are true and valid to a bitmap
// of *length bits.
void AppendKeep(const ArrayData& mask, std::vector<uint8_t>* bits, int64_t* length) {
  if (mask.length == 0) return;
  bits->resize(static_cast<size_t>(bit_util::BytesForBits(*length + mask.length)));
  const uint8_t* values = mask.buffers[1]->data();
  if (mask.buffers[0] == nullptr) {
    bitmap::CopyBitmap(values, mask.offset, mask.length, bits->data(), *length);
  } else {
    bitmap::BitmapAnd(values, mask.offset, mask.buffers[0]->data(), mask.offset, mask.length,
                      bits->data(), *length);
  }
  *length += mask.length;
}

// A boolean array of bits [offset, offset + length) of `bits` (shared).
ArrayDataPtr MaskOf(const std::shared_ptr<Buffer>& bits, int64_t offset, int64_t length) {
  return ArrayData::Make(boolean(), length, {nullptr, bits}, 0, offset);
}

// The filter over one batch of the filter columns: the mask (boolean,
// `batch.num_rows()` rows). A predicate that does not give a boolean array
// is FilterByExpression's TypeError.
Result<ArrayDataPtr> EvaluateMask(const compute::Expression& filter, const RecordBatch& batch,
                                  MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(compute::Datum value, compute::Evaluate(filter, batch, pool));
  if (value.is_array() && value.type()->id() == Type::kBool) return value.array();
  // The error FilterByExpression gives (its message names the type).
  QUIVER_RETURN_NOT_OK(compute::FilterByExpression(batch, filter, pool).status());
  return Status::TypeError("Filter expression must evaluate to bool, but ", filter.ToString(),
                           " evaluates to ", value.type()->ToString());
}

// The batches cut into slices of at most `rows` rows, in order.
std::vector<RecordBatchPtr> CutBatches(const std::vector<RecordBatchPtr>& batches, int64_t rows) {
  std::vector<RecordBatchPtr> out;
  for (const RecordBatchPtr& batch : batches) {
    if (batch->num_rows() <= rows) {
      out.push_back(batch);
      continue;
    }
    for (int64_t at = 0; at < batch->num_rows(); at += rows) {
      out.push_back(batch->Slice(at, std::min(rows, batch->num_rows() - at)));
    }
  }
  return out;
}

// Positions of the selection's rows (0 = its first row) as row ranges of
// the row group: Map(begin, end) appends [begin, end)'s rows; calls in
// increasing order (a cursor over the selection's ranges).
class PositionsToRows {
 public:
  PositionsToRows(const RowRanges& selection, std::vector<RowRange>* out)
      : ranges_(selection.ranges()), out_(out) {}
  void Map(int64_t begin, int64_t end) {
    while (next_ < ranges_.size() && base_ + ranges_[next_].length() <= begin) {
      base_ += ranges_[next_].length();
      ++next_;
    }
    int64_t base = base_;
    for (size_t r = next_; r < ranges_.size() && base < end; ++r) {
      const RowRange& range = ranges_[r];
      const int64_t lo = std::max(begin, base);
      const int64_t hi = std::min(end, base + range.length());
      if (lo < hi) out_->push_back({range.begin + (lo - base), range.begin + (hi - base)});
      base += range.length();
    }
  }

 private:
  const std::vector<RowRange>& ranges_;
  std::vector<RowRange>* out_;
  size_t next_ = 0;
  int64_t base_ = 0;  // position of ranges_[next_]'s first row
};

// The runs of keep[offset, offset + n) after the gaps (runs of unset
// bits) shorter than merge_gap are filled, as positions from `offset`;
// *set: the set bits. A gap before the first or after the last set bit is
// a gap too (so a selection kept but for a short head or tail reads as
// one run, the plain read). Gaps of at least merge_gap are found from the
// all-zero 64-bit words (a zero run of 127 bits or more holds one), so the
// scan costs a word per 64 rows whatever the runs: merge_gap must be at
// least 127 for it to find every such gap, smaller gaps it finds only
// where they span a zero word (the tests use small gaps on short masks, a
// bit at a time).
std::vector<RowRange> Runs(const uint8_t* keep, int64_t offset, int64_t n, int64_t merge_gap,
                           bool merge_edges, int64_t* set) {
  std::vector<RowRange> runs;
  *set = bitmap::CountSetBits(keep, offset, n);
  if (*set == 0) return runs;
  std::vector<RowRange> gaps;  // the gaps of at least merge_gap
  if (merge_gap < 127 || n < 256) {
    int64_t last_end = 0;
    bitmap::VisitSetBitRuns(keep, offset, n, [&](int64_t begin, int64_t length) {
      if (begin > last_end && begin - last_end >= merge_gap) {
        gaps.push_back({last_end, begin});
      }
      last_end = begin + length;
    });
    if (n > last_end && n - last_end >= merge_gap) gaps.push_back({last_end, n});
  } else {
    auto word = [&](int64_t pos) {
      const int bits = static_cast<int>(std::min<int64_t>(64, n - pos));
      return bitmap::LoadBits(keep, offset + pos, bits);
    };
    int64_t pos = 0;
    while (pos < n) {
      const int bits = static_cast<int>(std::min<int64_t>(64, n - pos));
      if (word(pos) != 0 || bits < 64) {
        pos += 64;
        continue;
      }
      // A zero word: extend the zero run both ways, bit exact.
      int64_t begin = pos;
      if (begin > 0) {
        // (The bits before are not all zero: a zero run is skipped whole.)
        const int k = static_cast<int>(std::min<int64_t>(64, begin));
        const uint64_t before = bitmap::LoadBits(keep, offset + begin - k, k);
        begin -= before == 0 ? k : std::countl_zero(before) - (64 - k);
      }
      int64_t end = pos + 64;
      while (end < n) {
        const uint64_t next = word(end);
        const int next_bits = static_cast<int>(std::min<int64_t>(64, n - end));
        if (next == 0) {
          end += next_bits;
          continue;
        }
        end += std::countr_zero(next);
        break;
      }
      end = std::min(end, n);
      if (end - begin >= merge_gap) gaps.push_back({begin, end});
      pos = end;
    }
  }
  {
    // The head and tail gaps: not read from kMergeEdgeRows rows on (any
    // length without merge_edges).
    const int64_t edge_gap = merge_edges ? std::min(merge_gap, kMergeEdgeRows) : 1;
    const bool head = !gaps.empty() && gaps.front().begin == 0;
    const bool tail = !gaps.empty() && gaps.back().end == n;
    int64_t first = 0;
    while (first < n && !bit_util::GetBit(keep, offset + first)) ++first;
    int64_t last = n;
    while (last > first && !bit_util::GetBit(keep, offset + last - 1)) --last;
    if (!head && first >= edge_gap) gaps.insert(gaps.begin(), RowRange{0, first});
    if (!tail && n - last >= edge_gap) gaps.push_back(RowRange{last, n});
  }
  // The runs between the gaps.
  int64_t at = 0;
  for (const RowRange& gap : gaps) {
    if (gap.begin > at) runs.push_back({at, gap.begin});
    at = gap.end;
  }
  if (at < n) runs.push_back({at, n});
  return runs;
}

}  // namespace

RowRanges CoverMatches(const RowRanges& selection, const uint8_t* keep, int64_t keep_offset,
                       int64_t merge_gap, std::vector<uint8_t>* cover_keep, int64_t* cover_length,
                       bool* exact, bool merge_edges) {
  int64_t set = 0;
  const std::vector<RowRange> runs =
      Runs(keep, keep_offset, selection.row_count(), merge_gap, merge_edges, &set);
  std::vector<RowRange> rows;
  int64_t covered = 0;
  for (const RowRange& run : runs) covered += run.length();
  cover_keep->resize(static_cast<size_t>(bit_util::BytesForBits(*cover_length + covered)));
  PositionsToRows to_rows(selection, &rows);
  for (const RowRange& run : runs) {
    to_rows.Map(run.begin, run.end);
    bitmap::CopyBitmap(keep, keep_offset + run.begin, run.length(), cover_keep->data(),
                       *cover_length);
    *cover_length += run.length();
  }
  *exact = covered == set;
  // Sorted and disjoint by construction: Make only merges touching ranges.
  return RowRanges::Make(std::move(rows)).ValueOrDie();
}

int64_t MaskedRowsPerRun(const uint8_t* bits, int64_t offset, int64_t rows, int64_t set) {
  if (set == 0 || set == rows) return 0;
  // Runs of set bits: their first bits, a word at a time.
  int64_t runs = 0;
  uint64_t carry = 0;  // the last bit of the previous word
  for (int64_t pos = 0; pos < rows; pos += 64) {
    const int k = static_cast<int>(std::min<int64_t>(64, rows - pos));
    const uint64_t word = bitmap::LoadBits(bits, offset + pos, k);
    runs += std::popcount(word & ~((word << 1) | carry));
    carry = (word >> (k - 1)) & 1;
  }
  if (set >= kMaskedDecodeMaxMatchesPerRun * runs) return 0;
  return std::max<int64_t>(1, rows / runs);
}

namespace {

// Columns picked from the two reads by top-level name, in the order of
// `out_names` (each name taken once per occurrence).
struct Picker {
  const Schema* schema;
  std::vector<bool> used;
  explicit Picker(const Schema& s) : schema(&s), used(static_cast<size_t>(s.num_fields())) {}
  int Take(const std::string& name) {
    for (int i = 0; i < schema->num_fields(); ++i) {
      if (!used[static_cast<size_t>(i)] && schema->field(i)->name() == name) {
        used[static_cast<size_t>(i)] = true;
        return i;
      }
    }
    return -1;
  }
};

// Reading everything then filtering: for a filter that reads no field (a
// literal), which has nothing to read first.
Result<TablePtr> ReadThenFilter(FileReader& reader, const compute::Expression& filter,
                                const std::optional<std::vector<std::string>>& columns,
                                const std::vector<int>& row_groups,
                                const std::vector<RowRanges>& selections) {
  QUIVER_ASSIGN_OR_RAISE(TablePtr read, reader.ReadRowGroups(row_groups, selections, columns));
  return compute::FilterByExpression(*read, filter, ReaderPoolOf(reader));
}

}  // namespace

Result<TablePtr> ReadLate(FileReader& reader, const compute::Expression& filter,
                          const std::optional<std::vector<std::string>>& columns,
                          const std::vector<int>& row_groups,
                          const std::vector<RowRanges>& selections, int64_t merge_gap,
                          bool masked_decode) {
  const Split split = SplitColumns(reader, filter, columns);
  if (split.filter_fields.empty()) {
    return ReadThenFilter(reader, filter, columns, row_groups, selections);
  }
  MemoryPool* pool = ReaderPoolOf(reader);
  QUIVER_ASSIGN_OR_RAISE(SchemaPtr out_schema, reader.SchemaFor(columns));
  // 1. The filter columns, at the rows the pruning kept.
  QUIVER_ASSIGN_OR_RAISE(TablePtr first, reader.ReadRowGroups(row_groups, selections,
                                                              split.first));
  const ReadStats first_stats = reader.read_stats();
  if (first->num_rows() == 0) {
    // Still the predicate's type errors (pyarrow binds before reading).
    QUIVER_RETURN_NOT_OK(compute::FilterByExpression(*first, filter, pool).status());
  }
  // 2. The mask, batch by batch; the projected filter columns filtered by it.
  std::vector<uint8_t> keep;  // a bitmap of the rows read: matches set
  int64_t keep_length = 0;
  keep.reserve(static_cast<size_t>(bit_util::BytesForBits(first->num_rows())));
  std::vector<std::vector<ArrayPtr>> first_chunks(static_cast<size_t>(first->num_columns()));
  std::vector<bool> projected(static_cast<size_t>(first->num_columns()));
  for (int c = 0; c < first->num_columns(); ++c) {
    const std::string& name = first->schema()->field(c)->name();
    projected[static_cast<size_t>(c)] =
        std::any_of(out_schema->fields().begin(), out_schema->fields().end(),
                    [&](const FieldPtr& f) { return f->name() == name; });
  }
  QUIVER_ASSIGN_OR_RAISE(auto batches, first->ToRecordBatches());
  // With use_threads, the batches are cut into pieces evaluated and
  // filtered on the pool (a row group read as one batch would else be one
  // task), then joined in order: the same mask and rows either way.
  const bool parallel = ReaderMayUseThreads(reader) && first->num_rows() >= 2 * kMaskPieceRows;
  if (parallel) batches = CutBatches(batches, kMaskPieceRows);
  struct Piece {
    ArrayDataPtr mask;
    std::vector<ArrayPtr> kept;  // the projected filter columns' matches
  };
  std::vector<Piece> pieces(batches.size());
  auto evaluate = [&](int64_t i) -> Status {
    const RecordBatch& batch = *batches[static_cast<size_t>(i)];
    Piece& piece = pieces[static_cast<size_t>(i)];
    QUIVER_ASSIGN_OR_RAISE(piece.mask, EvaluateMask(filter, batch, pool));
    QUIVER_ASSIGN_OR_RAISE(auto context, compute::FilterContext::Make(piece.mask, {}, pool));
    piece.kept.resize(static_cast<size_t>(batch.num_columns()));
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (!projected[static_cast<size_t>(c)]) continue;  // a filter-only column
      QUIVER_ASSIGN_OR_RAISE(auto kept, context.Apply(batch.column_data(c)));
      piece.kept[static_cast<size_t>(c)] = MakeArray(std::move(kept));
    }
    return Status::OK();
  };
  QUIVER_RETURN_NOT_OK(ParallelFor(static_cast<int64_t>(batches.size()), evaluate,
                                   parallel ? ThreadPool::Cpu() : nullptr));
  for (Piece& piece : pieces) {
    AppendKeep(*piece.mask, &keep, &keep_length);
    for (size_t c = 0; c < piece.kept.size(); ++c) {
      if (piece.kept[c] != nullptr) first_chunks[c].push_back(std::move(piece.kept[c]));
    }
  }
  const int64_t matches = bitmap::CountSetBits(keep.data(), 0, keep_length);
  // 3. The payload at the matches' covering runs: a row group whose runs
  // cover only matches reads them as they are; else its covered rows are
  // read masked (the payload's flat leaves decode the matches only) or
  // decoded and filtered (MaskedRowsPerRun decides), so the payload holds the
  // matches only.
  TablePtr payload;
  std::vector<std::vector<ArrayPtr>> payload_chunks;
  if (!split.payload.empty()) {
    std::vector<RowRanges> covers;
    std::vector<uint8_t> cover_keep;  // the covered rows' bits
    int64_t cover_length = 0;
    std::vector<RowMask> masks;
    std::vector<bool> inexact;  // per row group: its covers hold rows that do not match
    int64_t offset = 0;
    for (const RowRanges& selection : selections) {
      bool exact = true;
      const int64_t before = cover_length;
      covers.push_back(CoverMatches(selection, keep.data(), offset, merge_gap, &cover_keep,
                                    &cover_length, &exact));
      offset += selection.row_count();
      RowMask mask;
      if (!exact) {
        const int64_t rows = cover_length - before;
        mask.offset = before;
        mask.rows_per_run = MaskedRowsPerRun(
            cover_keep.data(), before, rows, bitmap::CountSetBits(cover_keep.data(), before, rows));
        mask.decode_masked = masked_decode && mask.rows_per_run > 0;
      }
      masks.push_back(std::move(mask));
      inexact.push_back(!exact);
    }
    QUIVER_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> cover_bits,
                           Buffer::Copy(cover_keep.data(),
                                        static_cast<int64_t>(cover_keep.size()), pool));
    for (size_t g = 0; g < masks.size(); ++g) {
      if (!inexact[g]) continue;
      masks[g].bits = cover_bits;
      // The filter the columns that read every covered row share (made
      // once, not once a column), unless every flat leaf reads masked.
      if (!masks[g].decode_masked ||
          masks[g].rows_per_run < ColumnReader::kMaskedMinRowsPerRun) {
        const int64_t rows = covers[g].row_count();
        QUIVER_ASSIGN_OR_RAISE(
            auto context,
            compute::FilterContext::Make(MaskOf(cover_bits, masks[g].offset, rows), {}, pool));
        masks[g].filter = std::make_shared<const compute::FilterContext>(std::move(context));
      }
    }
    QUIVER_ASSIGN_OR_RAISE(payload, ReadRowGroupsMasked(reader, row_groups, covers, masks,
                                                        split.payload));
    AddEarlierStats(reader, first_stats);
    payload_chunks.resize(static_cast<size_t>(payload->num_columns()));
    for (int c = 0; c < payload->num_columns(); ++c) {
      payload_chunks[static_cast<size_t>(c)] = payload->column(c)->chunks();
    }
  }
  // 4. The projection's order, typed as read.
  Picker from_first(*first->schema());
  Picker from_payload(payload != nullptr ? *payload->schema() : *first->schema());
  FieldVector fields;
  std::vector<ChunkedArrayPtr> out;
  for (const auto& field : out_schema->fields()) {
    if (split.IsFilterField(field->name())) {
      const int c = from_first.Take(field->name());
      if (c < 0) return Status::Invalid("filtered read: no column '", field->name(), "' read");
      const FieldPtr& read = first->schema()->field(c);
      fields.push_back(read);
      out.push_back(std::make_shared<ChunkedArray>(first_chunks[static_cast<size_t>(c)],
                                                   read->type()));
    } else {
      const int c = payload != nullptr ? from_payload.Take(field->name()) : -1;
      if (c < 0) return Status::Invalid("filtered read: no column '", field->name(), "' read");
      const FieldPtr& read = payload->schema()->field(c);
      fields.push_back(read);
      out.push_back(std::make_shared<ChunkedArray>(payload_chunks[static_cast<size_t>(c)],
                                                   read->type()));
    }
  }
  return std::make_shared<Table>(quiver::schema(std::move(fields), out_schema->metadata()),
                                 std::move(out), matches);
}

namespace {

// Batches of the filter columns, and of the payload read at each batch's
// matches (the payload reader's refiner pulls the filter batch of the same
// rows: both readers walk the same selections with the same batch size).
class LateBatchReader final : public RecordBatchReader {
 public:
  LateBatchReader(compute::Expression filter, Split split, SchemaPtr out_schema,
                  MemoryPool* pool, int64_t merge_gap, bool masked_decode)
      : filter_(std::move(filter)),
        split_(std::move(split)),
        out_schema_(std::move(out_schema)),
        pool_(pool),
        merge_gap_(merge_gap),
        masked_decode_(masked_decode) {}

  Status Init(FileReader& reader, const std::optional<std::vector<std::string>>& columns,
              const std::vector<int>& row_groups, const std::vector<RowRanges>& selections,
              int64_t batch_size) {
    QUIVER_ASSIGN_OR_RAISE(first_, reader.GetRecordBatchReader(split_.first, row_groups,
                                                               selections, batch_size));
    {
      // The predicate's type errors before any batch (pyarrow binds first).
      std::vector<ChunkedArrayPtr> none;
      for (const auto& f : first_->schema()->fields()) {
        none.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{}, f->type()));
      }
      Table empty(first_->schema(), std::move(none), 0);
      QUIVER_RETURN_NOT_OK(compute::FilterByExpression(empty, filter_, pool_).status());
    }
    if (!split_.payload.empty()) {
      QUIVER_ASSIGN_OR_RAISE(
          payload_, MakeRefinedBatchReader(
                        reader, split_.payload, row_groups, selections, batch_size,
                        [this](int, int64_t, const BatchSteps& steps, BatchSteps* refined,
                               int64_t* rows, BatchMask* mask) {
                          return Refine(steps, refined, rows, mask);
                        }));
    }
    // The output schema, typed as read (invalid_utf8 = kBinary).
    Picker from_first(*first_->schema());
    Picker from_payload(payload_ != nullptr ? *payload_->schema() : *first_->schema());
    FieldVector fields;
    for (const auto& field : out_schema_->fields()) {
      const bool of_filter = split_.IsFilterField(field->name());
      const int c = of_filter ? from_first.Take(field->name())
                              : (payload_ != nullptr ? from_payload.Take(field->name()) : -1);
      if (c < 0) return Status::Invalid("filtered read: no column '", field->name(), "' read");
      sources_.push_back({of_filter, c});
      fields.push_back(of_filter ? first_->schema()->field(c) : payload_->schema()->field(c));
    }
    schema_ = quiver::schema(std::move(fields), out_schema_->metadata());
    return Status::OK();
  }

  SchemaPtr schema() const override { return schema_; }

  Result<RecordBatchPtr> Next() override {
    while (true) {
      RecordBatchPtr payload;
      if (payload_ != nullptr) {
        // Its refiner reads the filter batch of the same rows first.
        QUIVER_ASSIGN_OR_RAISE(payload, payload_->Next());
        if (payload == nullptr) return nullptr;
      } else {
        QUIVER_ASSIGN_OR_RAISE(RecordBatchPtr batch, first_->Next());
        if (batch == nullptr) return nullptr;
        QUIVER_RETURN_NOT_OK(TakeFilterBatch(std::move(batch)));
      }
      if (matches_ == 0) continue;  // batches hold matches only
      if (payload != nullptr && !exact_ && !masked_) {
        QUIVER_ASSIGN_OR_RAISE(auto bits,
                               Buffer::Copy(cover_keep_.data(),
                                            static_cast<int64_t>(cover_keep_.size()), pool_));
        QUIVER_ASSIGN_OR_RAISE(
            payload, compute::Filter(*payload, MaskOf(bits, 0, payload->num_rows()), {}, pool_));
      }
      std::vector<ArrayDataPtr> columns;
      for (const auto& [of_filter, c] : sources_) {
        if (of_filter) {
          QUIVER_ASSIGN_OR_RAISE(auto kept, context_->Apply(filter_batch_->column_data(c)));
          columns.push_back(std::move(kept));
        } else {
          columns.push_back(payload->column_data(c));
        }
      }
      filter_batch_ = nullptr;
      return std::make_shared<RecordBatch>(schema_, matches_, std::move(columns));
    }
  }

 private:
  // The filter batch: its mask and matches.
  Status TakeFilterBatch(RecordBatchPtr batch) {
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr mask, EvaluateMask(filter_, *batch, pool_));
    keep_.clear();
    int64_t length = 0;
    AppendKeep(*mask, &keep_, &length);
    matches_ = bitmap::CountSetBits(keep_.data(), 0, length);
    QUIVER_ASSIGN_OR_RAISE(auto context, compute::FilterContext::Make(mask, {}, pool_));
    context_ = std::make_unique<compute::FilterContext>(std::move(context));
    filter_batch_ = std::move(batch);
    return Status::OK();
  }

  // The payload's steps for the filter batch's rows: the matches' covering
  // runs, the rest skipped; a mask of the covered rows' matches when they
  // are read masked (MaskedRowsPerRun).
  Status Refine(const BatchSteps& steps, BatchSteps* refined, int64_t* rows, BatchMask* mask) {
    QUIVER_ASSIGN_OR_RAISE(RecordBatchPtr batch, first_->Next());
    int64_t want = 0;
    int64_t span = 0;
    for (const auto& [skip, take] : steps) {
      want += take;
      span += skip + take;
    }
    if (batch == nullptr || batch->num_rows() != want) {
      return Status::Invalid("filtered read: the filter columns' batch has ",
                             batch == nullptr ? 0 : batch->num_rows(), " rows for ", want);
    }
    QUIVER_RETURN_NOT_OK(TakeFilterBatch(std::move(batch)));
    // The batch's rows as ranges relative to its start.
    std::vector<RowRange> batch_rows;
    int64_t pos = 0;
    for (const auto& [skip, take] : steps) {
      pos += skip;
      if (take > 0) batch_rows.push_back({pos, pos + take});
      pos += take;
    }
    QUIVER_ASSIGN_OR_RAISE(RowRanges selection, RowRanges::Make(std::move(batch_rows)));
    cover_keep_.clear();
    int64_t cover_length = 0;
    exact_ = true;
    // (A batch's first and last rows are not a row group's: no head or
    // tail merged.)
    const RowRanges cover = CoverMatches(selection, keep_.data(), 0, merge_gap_, &cover_keep_,
                                         &cover_length, &exact_, /*merge_edges=*/false);
    refined->clear();
    int64_t at = 0;
    for (const RowRange& range : cover.ranges()) {
      refined->push_back({range.begin - at, range.length()});
      at = range.end;
    }
    if (at < span) refined->push_back({span - at, 0});
    *rows = cover.row_count();
    const int64_t rows_per_run =
        exact_ || !masked_decode_ ? 0
                                  : MaskedRowsPerRun(cover_keep_.data(), 0, cover_length, matches_);
    masked_ = rows_per_run > 0;
    if (masked_) {
      *mask = BatchMask{cover_keep_.data(), rows_per_run};
      *rows = matches_;
    }
    return Status::OK();
  }

  compute::Expression filter_;
  Split split_;
  SchemaPtr out_schema_;
  MemoryPool* pool_;
  int64_t merge_gap_;
  bool masked_decode_;
  SchemaPtr schema_;
  RecordBatchReaderPtr first_;
  RecordBatchReaderPtr payload_;
  std::vector<std::pair<bool, int>> sources_;  // (from the filter batch, column)
  // The current filter batch, its mask (as a bitmap and as a filter) and
  // matches; the payload's covered rows' bits.
  RecordBatchPtr filter_batch_;
  std::vector<uint8_t> keep_;
  std::unique_ptr<compute::FilterContext> context_;
  int64_t matches_ = 0;
  std::vector<uint8_t> cover_keep_;
  bool exact_ = true;
  bool masked_ = false;  // the payload batch was read masked: matches only
};

// Reading everything then filtering, batch by batch: for a filter that
// reads no field.
class ThenFilterBatchReader final : public RecordBatchReader {
 public:
  ThenFilterBatchReader(RecordBatchReaderPtr inner, compute::Expression filter, MemoryPool* pool)
      : inner_(std::move(inner)), filter_(std::move(filter)), pool_(pool) {}
  SchemaPtr schema() const override { return inner_->schema(); }
  Result<RecordBatchPtr> Next() override {
    while (true) {
      QUIVER_ASSIGN_OR_RAISE(auto batch, inner_->Next());
      if (batch == nullptr) return batch;
      QUIVER_ASSIGN_OR_RAISE(auto kept, compute::FilterByExpression(*batch, filter_, pool_));
      if (kept->num_rows() > 0) return kept;
    }
  }

 private:
  RecordBatchReaderPtr inner_;
  compute::Expression filter_;
  MemoryPool* pool_;
};

}  // namespace

Result<RecordBatchReaderPtr> ReadLateBatches(FileReader& reader,
                                             const compute::Expression& filter,
                                             const std::optional<std::vector<std::string>>& columns,
                                             const std::vector<int>& row_groups,
                                             const std::vector<RowRanges>& selections,
                                             int64_t batch_size, int64_t merge_gap,
                                             bool masked_decode) {
  Split split = SplitColumns(reader, filter, columns);
  MemoryPool* pool = ReaderPoolOf(reader);
  if (split.filter_fields.empty()) {
    QUIVER_ASSIGN_OR_RAISE(auto inner,
                           reader.GetRecordBatchReader(columns, row_groups, selections,
                                                       batch_size));
    return std::make_shared<ThenFilterBatchReader>(std::move(inner), filter, pool);
  }
  QUIVER_ASSIGN_OR_RAISE(SchemaPtr out_schema, reader.SchemaFor(columns));
  auto late = std::make_shared<LateBatchReader>(filter, std::move(split), std::move(out_schema),
                                                pool, merge_gap, masked_decode);
  QUIVER_RETURN_NOT_OK(late->Init(reader, columns, row_groups, selections, batch_size));
  return late;
}

}  // namespace quiver::parquet::internal
