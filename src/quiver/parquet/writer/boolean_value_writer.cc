// BooleanValueWriter: BOOLEAN values (value_writer_internal.h), PLAIN or RLE.
#include <cstring>
#include <utility>

#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/parquet/writer/distinct_count_internal.h"
#include "quiver/parquet/writer/value_writer_internal.h"

namespace quiver::parquet {

namespace {

// --- Booleans ---------------------------------------------------------------

class BooleanValueWriter final : public ValueWriter {
 public:
  BooleanValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                     const ValueWriterOptions& options)
      : ValueWriter(column, arrow, options), bits_(options.pool) {}

  // The page is kept as a bitmap (PLAIN's layout): valid runs are copied a
  // word at a time, and the statistics only need to know whether a false
  // and a true were seen (FindSetAndUnset, which stops at the first word
  // showing both; once the page has both, nothing is looked at: counting
  // the set bits of every page was 7% of writing bool_non_null).
  Status Append(int64_t start, int64_t end) override {
    const ArrayData& d = *leaf_;
    const uint8_t* src = d.buffers[1]->data();
    int64_t n = 0;
    const bool look = options_.statistics && !(page_false_ && page_true_);
    bool saw_true = false, saw_false = false;
    const uint8_t* valid = d.validity();
    if (valid == nullptr) {
      const int64_t len = end - start;
      const int64_t at = page_num_values_;
      const int64_t bytes = bit_util::BytesForBits(at + len);
      const int64_t had = bits_.size();  // at least BytesForBits(at)
      if (bytes > had) {
        // Not zeroed (a memset of every page's bytes before the copy
        // overwrites them): only the last byte, whose bits past the page's
        // the copy keeps.
        QUIVER_RETURN_NOT_OK(bits_.Reserve(bytes - had));
        bits_.UnsafeSetSize(bytes);
        bits_.data()[bytes - 1] = 0;
      }
      bitmap::CopyBitmap(src, d.offset + start, len, bits_.data(), at);
      if (look) bitmap::FindSetAndUnset(src, d.offset + start, len, &saw_true, &saw_false);
      n = len;
    } else {
      int64_t ones = 0;
      QUIVER_RETURN_NOT_OK(AppendValid(src, valid, d.offset + start, end - start, &n, &ones));
      saw_true = ones > 0;
      saw_false = ones < n;
    }
    if (look && n > 0) {
      const uint8_t seen[2] = {0, 1};
      if (saw_true && saw_false) {
        page_stats_->Update(seen, 2);
      } else {
        page_stats_->Update(saw_true ? seen + 1 : seen, 1);
      }
      page_true_ = page_true_ || saw_true;
      page_false_ = page_false_ || saw_false;
    }
    page_num_values_ += n;
    return Status::OK();
  }

  int64_t EstimatedPageSize() const override { return (page_num_values_ + 7) / 8; }
  int64_t EstimatedPageSizeAfter(int64_t more) const override {
    if (leaf_->validity() != nullptr) return -1;
    return (page_num_values_ + more + 7) / 8;
  }

 private:
  // Appends the bits of `values` at the set bits of `valid` (both from bit
  // `pos`, `len` slots) to the page bitmap after its page_num_values_ bits:
  // 64 slots at a time, each run of valid slots in a word moved as one
  // shifted piece into a 64-bit accumulator (no call per run; random nulls
  // make runs of a few slots). *n: bits appended; *ones: of them set.
  Status AppendValid(const uint8_t* values, const uint8_t* valid, int64_t pos, int64_t len,
                     int64_t* n, int64_t* ones) {
    const int64_t at = page_num_values_;
    // Whole 64-bit words from the word holding bit `at`, room for all `len`.
    const int64_t words = (at + len) / 64 + 1;
    if (words * 8 > bits_.size()) QUIVER_RETURN_NOT_OK(bits_.Resize(words * 8, 0));
    uint8_t* out = bits_.data();
    int64_t word_index = at / 64;
    int filled = static_cast<int>(at % 64);
    uint64_t acc = bitmap::LoadBits(out, word_index * 64, filled);
    int64_t count = 0, set = 0;
    auto put = [&](uint64_t bits, int nbits) {  // nbits in [1, 64]; bits above nbits zero
      acc |= bits << filled;
      if (filled + nbits >= 64) {
        const uint64_t le = bit_util::ToLittleEndian(acc);
        std::memcpy(out + 8 * word_index++, &le, 8);
        acc = filled == 0 ? 0 : bits >> (64 - filled);
        filled = filled + nbits - 64;
      } else {
        filled += nbits;
      }
    };
    for (int64_t i = 0; i < len; i += 64) {
      const int width = static_cast<int>(std::min<int64_t>(64, len - i));
      uint64_t v = bitmap::LoadBits(valid, pos + i, width);
      if (v == 0) continue;
      const uint64_t x = bitmap::LoadBits(values, pos + i, width);
      set += std::popcount(x & v);
      if (v == bit_util::LeastSignificantBitMask(width)) {
        put(x, width);
        count += width;
        continue;
      }
      while (v != 0) {
        const int s = std::countr_zero(v);
        const uint64_t t = ~(v >> s);
        const int run = t == 0 ? 64 - s : std::countr_zero(t);
        const uint64_t mask = bit_util::LeastSignificantBitMask(run);
        put((x >> s) & mask, run);
        count += run;
        v &= ~(mask << s);
      }
    }
    if (filled > 0) {
      const uint64_t le = bit_util::ToLittleEndian(acc);
      std::memcpy(out + 8 * word_index, &le, 8);
    }
    *n += count;
    *ones += set;
    return Status::OK();
  }

 public:
  Result<format::Encoding> FlushPage(MutableBuffer* out) override {
    format::Encoding enc;
    const int64_t n = page_num_values_;
    if (options_.rle_booleans || options_.encoding == format::Encoding::kRle) {
      // RLE with a 4-byte length prefix (Encodings.md, booleans), encoded
      // from the page's bitmap directly.
      RleBitPackedEncoder rle(1, out, /*length_prefix=*/true);
      QUIVER_RETURN_NOT_OK(rle.PutBitmap(bits_.data(), 0, n));
      QUIVER_RETURN_NOT_OK(rle.Flush().status());
      enc = format::Encoding::kRle;
    } else {
      // The page's bytes (bits_ may hold a few more: AppendValid's whole
      // words), handed over as TakePlain does.
      bits_.UnsafeSetSize(bit_util::BytesForBits(n));
      QUIVER_RETURN_NOT_OK(TakePlain(&bits_, out));
      enc = format::Encoding::kPlain;
    }
    bits_.Clear();
    chunk_false_ = chunk_false_ || page_false_;
    chunk_true_ = chunk_true_ || page_true_;
    page_false_ = page_true_ = false;
    ResetPage();
    return enc;
  }

  // (count_distinct comes with statistics, which track both flags.)
  Result<int64_t> FinishDistinctCount() override {
    return static_cast<int64_t>(chunk_false_ || page_false_) + static_cast<int64_t>(chunk_true_ || page_true_);
  }

 private:
  MutableBuffer bits_;
  bool page_false_ = false;  // the page's statistics have seen a false
  bool page_true_ = false;   // and a true
  bool chunk_false_ = false;  // and the chunk's flushed pages
  bool chunk_true_ = false;
};

}  // namespace

std::unique_ptr<ValueWriter> MakeBooleanValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                                                    const ValueWriterOptions& options) {
  return std::make_unique<BooleanValueWriter>(column, arrow, options);
}

}  // namespace quiver::parquet
