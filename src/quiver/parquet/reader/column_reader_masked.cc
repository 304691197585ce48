// ColumnReader's masked reads (column_reader_internal.h: ReadRecordsMasked):
// a flat leaf's selected rows appended, the values of the others skipped.
#include <algorithm>
#include <bit>

#include "quiver/parquet/reader/column_reader_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet::internal {
namespace {

// The unset bits of `bits` from bit `offset` on, at most `limit`.
int64_t ZeroRun(const uint8_t* bits, int64_t offset, int64_t limit) {
  for (int64_t n = 0; n < limit;) {
    const int k = static_cast<int>(std::min<int64_t>(64, limit - n));
    const uint64_t word = bitmap::LoadBits(bits, offset + n, k);
    if (word != 0) return n + std::countr_zero(word);
    n += k;
  }
  return limit;
}

}  // namespace

Status ColumnReader::ReadRecordsMasked(int64_t want, const uint8_t* mask, int64_t mask_offset,
                                       int64_t* read) {
  if (!flat_) {
    return Status::Invalid("column '", column_->path, "': a masked read of a column that is "
                           "not a flat leaf");
  }
  QUIVER_RETURN_NOT_OK(ReserveFor(bitmap::CountSetBits(mask, mask_offset, want)));
  int64_t records = 0;
  while (records < want) {
    if (page_levels_left_ == 0 || !bit_util::GetBit(mask, mask_offset + records)) {
      // Unselected rows up to the page's end or past it: skipped whole.
      const int64_t zeros = ZeroRun(mask, mask_offset + records, want - records);
      if (zeros > 0 && zeros >= page_levels_left_) {
        int64_t skipped = 0;
        QUIVER_RETURN_NOT_OK(SkipRecords(zeros, &skipped));
        records += skipped;
        if (skipped < zeros) break;
        continue;
      }
      if (page_levels_left_ == 0) {
        QUIVER_ASSIGN_OR_RAISE(bool more, NextDataPage());
        if (!more) break;
        continue;
      }
    }
    const int64_t n = std::min(want - records, page_levels_left_);
    QUIVER_RETURN_NOT_OK(ReadMaskedInPage(n, mask, mask_offset + records));
    records += n;
  }
  *read = records;
  return Status::OK();
}

Status ColumnReader::ReadMaskedInPage(int64_t n, const uint8_t* mask, int64_t mask_offset) {
  // The rows' definition bits (nullptr: every row holds a value).
  const uint8_t* def = nullptr;
  int64_t def_offset = 0;
  if (max_def_ > 0) {
    if (page_bits_ready_) {
      def = page_bits_.data();
      def_offset = page_bits_pos_;
      page_bits_pos_ += n;
    } else {
      masked_def_.assign(static_cast<size_t>(bit_util::BytesForBits(n)), 0);
      auto ones = def_decoder_.DecodeBits(n, masked_def_.data(), 0);
      if (!ones.ok()) return PageError(ones.status());
      def = masked_def_.data();
    }
  }
  page_levels_left_ -= n;
  chunk_levels_left_ -= n;
  group_rows_left_ -= n;
  row_ += n;
  auto values_in = [&](int64_t begin, int64_t length) {
    return def == nullptr ? length : bitmap::CountSetBits(def, def_offset + begin, length);
  };
  const int64_t selected = bitmap::CountSetBits(mask, mask_offset, n);
  if (selected == 0) {
    const int64_t values = values_in(0, n);
    return values > 0 ? PageError(values_->Skip(values)) : Status::OK();
  }
  // The selected rows as runs of values; their definition bits (the
  // slots' validity) gathered.
  if (def != nullptr) {
    QUIVER_RETURN_NOT_OK(valid_.Resize(bit_util::BytesForBits(num_slots_ + selected)));
  }
  value_runs_.clear();
  int64_t slots = 0;
  int64_t taken = 0;
  int64_t skip = 0;  // values before the next run
  int64_t last = 0;  // the row after the previous selected run
  bitmap::VisitSetBitRuns(mask, mask_offset, n, [&](int64_t pos, int64_t length) {
    skip += values_in(last, pos - last);
    const int64_t take = values_in(pos, length);
    if (def != nullptr) {
      bitmap::CopyBitmap(def, def_offset + pos, length, valid_.data(), num_slots_ + slots);
    }
    if (take > 0) {
      value_runs_.push_back({skip, take});
      skip = 0;
      taken += take;
    }
    slots += length;
    last = pos + length;
  });
  skip += values_in(last, n - last);
  const uint8_t* valid = taken == selected ? nullptr : valid_.data();
  if (taken > 0) {
    if (runs_decoder_ == nullptr) {
      runs_decoder_ = RunsDecoder::Make(column_->physical_type, column_->type_length);
    }
    builder_->set_page_values_before(page_values_ - values_->values_left(), value_runs_.data(),
                                     static_cast<int64_t>(value_runs_.size()));
    auto bound = runs_decoder_->Bind(values_, value_runs_.data(),
                                     static_cast<int64_t>(value_runs_.size()));
    if (!bound.ok()) return PageError(bound.status());
    if (stats_ != nullptr) stats_->values_decoded += taken;
    QUIVER_RETURN_NOT_OK(PageError(builder_->Append(*bound, selected, valid, num_slots_, taken)));
  } else {
    // Every selected row null: slots only.
    builder_->set_page_values_before(page_values_ - values_->values_left());
    QUIVER_RETURN_NOT_OK(PageError(builder_->Append(values_, selected, valid, num_slots_, 0)));
  }
  if (skip > 0) QUIVER_RETURN_NOT_OK(PageError(values_->Skip(skip)));
  num_levels_ += selected;
  num_nulls_ += selected - taken;
  num_slots_ += selected;
  return Status::OK();
}

}  // namespace quiver::parquet::internal
