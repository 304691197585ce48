// FixedValueWriter: INT32, INT64, FLOAT and DOUBLE values (value_writer_internal.h):
// PLAIN, BYTE_STREAM_SPLIT, DELTA_BINARY_PACKED or dictionary indices.
#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "quiver/array/memo_table.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/encoding/byte_stream_split.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/plain.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/parquet/writer/distinct_count_internal.h"
#include "quiver/parquet/writer/timestamp_scale_internal.h"
#include "quiver/parquet/writer/value_writer_internal.h"

namespace quiver::parquet {

namespace {

// Copies the values of the valid slots among raw[0, n) (validity bits
// [bit_offset, bit_offset + n) of `valid`) to out, which has room for n;
// returns how many. A word of 64 slots at a time: all valid, a copy; few
// valid, a visit of its set bits; else a branch-free compaction (presence
// is unpredictable in a mixed word).
template <typename T>
int64_t GatherValid(const T* raw, const uint8_t* valid, int64_t bit_offset, int64_t n, T* out) {
  int64_t k = 0;
  for (int64_t pos = 0; pos < n; pos += 64) {
    const int nb = n - pos < 64 ? static_cast<int>(n - pos) : 64;
    const uint64_t w = bitmap::LoadBits(valid, bit_offset + pos, nb);
    const T* src = raw + pos;
    const int set = std::popcount(w);
    if (set == nb) {
      std::memcpy(out + k, src, static_cast<size_t>(nb) * sizeof(T));
    } else if (set <= 16) {
      T* dst = out + k;
      for (uint64_t x = w; x != 0; x &= x - 1) *dst++ = src[std::countr_zero(x)];
    } else {
      T* dst = out + k;
      for (int b = 0; b < nb; ++b) {
        *dst = src[b];
        dst += (w >> b) & 1;
      }
    }
    k += set;
  }
  return k;
}

// Little-endian two's complement of `width` bytes at p -> low `n` bytes as
// an integer (the value fits: the precision says so).
template <typename T>
T LowBytes(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// --- Fixed-width physical types ---------------------------------------------

// Calls f(load) with `load(i)`: slot i of `d` as PhysT, converted as
// `kind` says (the switch on the kind is made once, outside the caller's
// loop over slots).
// Timestamps stored in another unit load as they are: ConvertTimestamps
// scales them once gathered (it can fail).
template <typename PhysT, typename F>
decltype(auto) WithFixedLoader(ValueKind kind, const ArrayData& d, F&& f) {
  if constexpr (std::is_same_v<PhysT, int32_t>) {
    switch (kind) {
      case ValueKind::kInt8: return f([p = d.GetValues<int8_t>(1)](int64_t i) -> int32_t { return p[i]; });
      case ValueKind::kUInt8: return f([p = d.GetValues<uint8_t>(1)](int64_t i) -> int32_t { return p[i]; });
      case ValueKind::kInt16: return f([p = d.GetValues<int16_t>(1)](int64_t i) -> int32_t { return p[i]; });
      case ValueKind::kUInt16: return f([p = d.GetValues<uint16_t>(1)](int64_t i) -> int32_t { return p[i]; });
      case ValueKind::kTime32Seconds:
        return f([p = d.GetValues<int32_t>(1)](int64_t i) {
          return static_cast<int32_t>(static_cast<uint32_t>(p[i]) * 1000u);
        });
      case ValueKind::kDate64:
        return f([p = d.GetValues<int64_t>(1)](int64_t i) { return static_cast<int32_t>(p[i] / 86400000); });
      case ValueKind::kDecimalToInt32:
        return f([&d, w = d.type->byte_width()](int64_t i) {
          return LowBytes<int32_t>(d.buffers[1]->data() + (d.offset + i) * w);
        });
      default: return f([p = d.GetValues<int32_t>(1)](int64_t i) { return p[i]; });
    }
  } else if constexpr (std::is_same_v<PhysT, int64_t>) {
    switch (kind) {
      case ValueKind::kUInt32ToInt64:
        return f([p = d.GetValues<uint32_t>(1)](int64_t i) -> int64_t { return p[i]; });
      case ValueKind::kDecimalToInt64:
        return f([&d, w = d.type->byte_width()](int64_t i) {
          return LowBytes<int64_t>(d.buffers[1]->data() + (d.offset + i) * w);
        });
      default: return f([p = d.GetValues<int64_t>(1)](int64_t i) { return p[i]; });
    }
  } else {
    return f([p = d.GetValues<PhysT>(1)](int64_t i) { return p[i]; });
  }
}

template <typename PhysT>
PhysT LoadFixed(const ArrowLeaf& arrow, const ArrayData& d, int64_t i) {
  return WithFixedLoader<PhysT>(arrow.value_kind, d, [i](auto load) -> PhysT { return load(i); });
}

// Dictionary keys of a physical type: floating point values are keyed by
// their bits, so that NaNs with different payloads stay distinct values (the
// memo table treats every NaN as equal) and the file keeps every value's
// bits, as PLAIN encoding does.
template <typename PhysT>
using MemoKey = std::conditional_t<std::is_same_v<PhysT, float>, uint32_t,
                                   std::conditional_t<std::is_same_v<PhysT, double>, uint64_t, PhysT>>;

template <typename PhysT>
class FixedValueWriter final : public ValueWriter {
 public:
  FixedValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                   const ValueWriterOptions& options)
      : ValueWriter(column, arrow, options), memo_(options.pool), values_(options.pool) {
    use_dict_ = options.dictionary;
    if (options.count_distinct) {
      distinct_ = std::make_unique<FixedDistinctCounter<MemoKey<PhysT>>>(options.pool);
      per_value_ = true;
    }
    if (options.encoding == format::Encoding::kByteStreamSplit) {
      bss_ = std::make_unique<ByteStreamSplitEncoder>(static_cast<int>(sizeof(PhysT)), options.pool);
    }
    if constexpr (std::is_same_v<PhysT, int32_t> || std::is_same_v<PhysT, int64_t>) {
      if (options.encoding == format::Encoding::kDeltaBinaryPacked) {
        delta_ = std::make_unique<DeltaBinaryPackedEncoder<PhysT>>(options.pool);
      }
    }
  }

  Status Append(int64_t start, int64_t end) override {
    scratch_.clear();
    if (!arrow_.dictionary) {
      // No nulls: the leaf's values are consumed where they are (no copy).
      if (AsIs() && leaf_->validity() == nullptr) {
        return Consume(leaf_->GetValues<PhysT>(1) + start, end - start, nullptr, /*in_leaf=*/true);
      }
      if (gather_.size() < static_cast<size_t>(end - start)) gather_.resize(static_cast<size_t>(end - start));
      const int64_t n = Gather(start, end, gather_.data());
      QUIVER_RETURN_NOT_OK(ConvertTimestamps(gather_.data(), n));
      return Consume(gather_.data(), n, nullptr);
    }
    // Arrow dictionary leaf: resolve indices to dictionary values.
    const ArrayData& d = *leaf_;
    const ArrayData& dict = *d.dictionary;
    dict_indices_.clear();
    Status st;
    ForEachDictionaryIndex(d, start, end, [&](int64_t i, int64_t k) {
      if (k < 0 || k >= dict.length || !dict.IsValid(k)) {
        if (st.ok()) st = BadDictionaryIndex(column_, k, i);
        return;
      }
      dict_indices_.push_back(k);
      scratch_.push_back(LoadFixed<PhysT>(arrow_, dict, k));
    });
    QUIVER_RETURN_NOT_OK(st);
    QUIVER_RETURN_NOT_OK(ConvertTimestamps(scratch_.data(), static_cast<int64_t>(scratch_.size())));
    return Consume(scratch_.data(), static_cast<int64_t>(scratch_.size()), &dict_indices_);
  }

  // Several ranges (a nested column's runs of leaf slots, a few values each
  // between null lists): their valid values gathered into one batch, so that
  // the statistics, the encoder and the memo table (which prefetches a few
  // values ahead) see one call instead of one per run. The same values in
  // the same order as an Append per range: the same file.
  Status AppendRanges(const std::pair<int64_t, int64_t>* ranges, int64_t count) override {
    if (count == 1 || arrow_.dictionary) return ValueWriter::AppendRanges(ranges, count);
    int64_t slots = 0;
    for (int64_t k = 0; k < count; ++k) slots += ranges[k].second - ranges[k].first;
    if (gather_.size() < static_cast<size_t>(slots)) gather_.resize(static_cast<size_t>(slots));
    int64_t n = 0;
    const uint8_t* valid = leaf_->validity();
    const bool visit_words = AsIs() && valid != nullptr;
    const int64_t valid_bytes = valid != nullptr ? leaf_->buffers[0]->size() : 0;
    // No validity (a required leaf under a nullable struct or list): a
    // range of a few slots is copied by a loop, not a memcpy call (a
    // 99%-null struct's leaves are ~10,000 ranges of one slot a million
    // rows: the calls were 9% of the write, perf).
    const bool copy_short = AsIs() && valid == nullptr;
    const PhysT* raw = leaf_->GetValues<PhysT>(1);
    PhysT* const out = gather_.data();
    for (int64_t k = 0; k < count; ++k) {
      const int64_t start = ranges[k].first, len = ranges[k].second - start;
      if (copy_short && len <= 8) {
        for (int64_t i = 0; i < len; ++i) out[n + i] = raw[start + i];
        n += len;
        continue;
      }
      if (!visit_words || len > 64) {
        n += Gather(start, ranges[k].second, out + n);
        continue;
      }
      // A range of at most 64 slots (the usual: a few): its validity word's
      // set bits visited, with no branch on how full the word is.
      const PhysT* src = raw + start;
      for (uint64_t w = bitmap::LoadBitsIn(valid, valid_bytes, leaf_->offset + start, static_cast<int>(len));
           w != 0; w &= w - 1) {
        out[n++] = src[std::countr_zero(w)];
      }
    }
    QUIVER_RETURN_NOT_OK(ConvertTimestamps(gather_.data(), n));
    return Consume(gather_.data(), n, nullptr);
  }

  int64_t EstimatedPageSize() const override {
    if (use_dict_) {
      int bw = memo_.size() <= 1 ? 1 : std::bit_width(static_cast<uint32_t>(memo_.size() - 1));
      return 1 + static_cast<int64_t>(indices_.size()) * bw / 8;
    }
    if (delta_ != nullptr) return delta_->EstimatedSize();
    if (bss_ != nullptr) return page_num_values_ * static_cast<int64_t>(sizeof(PhysT));
    return values_.size() + in_leaf_bytes_;
  }
  int64_t EstimatedPageSizeAfter(int64_t more) const override {
    if (use_dict_ || delta_ != nullptr || arrow_.dictionary || !AsIs() ||
        leaf_->validity() != nullptr) {
      return -1;
    }
    const int64_t added = more * static_cast<int64_t>(sizeof(PhysT));
    if (bss_ != nullptr) return page_num_values_ * static_cast<int64_t>(sizeof(PhysT)) + added;
    return values_.size() + in_leaf_bytes_ + added;
  }

  std::pair<const uint8_t*, int64_t> InPlaceBody() const override {
    return {in_leaf_, in_leaf_bytes_};
  }
  Result<format::Encoding> FlushPageInPlace() override {
    if (in_leaf_ == nullptr) return ValueWriter::FlushPageInPlace();
    TakeInLeaf();
    ResetPage();
    return format::Encoding::kPlain;
  }
  Status DetachInput() override {
    if (in_leaf_ == nullptr) return Status::OK();
    const auto [from, bytes] = TakeInLeaf();
    return values_.ExtendFromSlice(from, bytes);
  }

  Result<format::Encoding> FlushPage(MutableBuffer* out) override {
    format::Encoding enc;
    if (use_dict_) {
      QUIVER_RETURN_NOT_OK(EncodeIndices(indices_, memo_.size(), out));
      indices_.clear();
      enc = format::Encoding::kRleDictionary;
    } else if (delta_ != nullptr) {
      QUIVER_RETURN_NOT_OK(delta_->Flush(out).status());
      enc = format::Encoding::kDeltaBinaryPacked;
    } else if (bss_ != nullptr) {
      QUIVER_RETURN_NOT_OK(bss_->Flush(out).status());
      enc = format::Encoding::kByteStreamSplit;
    } else if (in_leaf_ != nullptr) {  // (values_ is empty)
      const auto [from, bytes] = TakeInLeaf();
      QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(from, bytes));
      enc = format::Encoding::kPlain;
    } else {
      QUIVER_RETURN_NOT_OK(TakePlain(&values_, out));
      enc = format::Encoding::kPlain;
    }
    ResetPage();
    return enc;
  }

  bool dictionary_active() const override { return use_dict_; }
  int64_t dictionary_size() const override { return memo_.size(); }
  int64_t dictionary_plain_bytes() const override {
    return static_cast<int64_t>(memo_.size()) * static_cast<int64_t>(sizeof(PhysT));
  }
  // The memo table (every value written dictionary-encoded, keyed by its
  // bits) joined with the values written without it.
  Result<int64_t> FinishDistinctCount() override {
    if (distinct_ == nullptr) return 0;
    if (memo_.size() > 0) {
      if (distinct_->count() == 0) return memo_.size();
      QUIVER_RETURN_NOT_OK(distinct_->Add(memo_.values(), memo_.size()));
    }
    return distinct_->count();
  }
  void FallBack() override { use_dict_ = false; }
  bool has_dictionary_page() const override { return options_.dictionary; }
  Status WriteDictionary(MutableBuffer* out) const override {
    const auto [body, bytes] = DictionaryBody();
    return out->ExtendFromSlice(body, bytes);
  }
  // The memo table keeps the distinct values in insertion order, each with
  // PhysT's bits (MemoKey): the page's PLAIN bytes are that array.
  std::pair<const uint8_t*, int64_t> DictionaryBody() const override {
    static_assert(sizeof(MemoKey<PhysT>) == sizeof(PhysT));
    if (memo_.size() == 0) return {nullptr, 0};
    return {reinterpret_cast<const uint8_t*>(memo_.values()),
            memo_.size() * static_cast<int64_t>(sizeof(PhysT))};
  }

 private:
  void OnNewLeaf() override {
    remap_.clear();
    leaf_seen_ = 0;
  }

  // The page's values in the leaf (InPlaceBody), no longer kept there.
  std::pair<const uint8_t*, int64_t> TakeInLeaf() {
    return {std::exchange(in_leaf_, nullptr), std::exchange(in_leaf_bytes_, 0)};
  }

  // Whether the leaf's values are stored as PhysT (no conversion).
  bool AsIs() const {
    const ValueKind kind = arrow_.value_kind;
    return kind == ValueKind::kInt32 || kind == ValueKind::kInt64 || kind == ValueKind::kFloat ||
           kind == ValueKind::kDouble;
  }

  // Writes the values of the valid slots among leaf slots [start, end) to
  // out (room for end - start), as PhysT; returns how many (not an Arrow
  // dictionary leaf).
  int64_t Gather(int64_t start, int64_t end, PhysT* out) {
    const ArrayData& d = *leaf_;
    const uint8_t* valid = d.validity();
    if (AsIs()) {
      const PhysT* raw = d.GetValues<PhysT>(1) + start;
      if (valid == nullptr) {
        std::memcpy(out, raw, static_cast<size_t>(end - start) * sizeof(PhysT));
        return end - start;
      }
      return GatherValid(raw, valid, d.offset + start, end - start, out);
    }
    // Converted kinds: a tight loop per run of valid slots.
    PhysT* const first = out;
    WithFixedLoader<PhysT>(arrow_.value_kind, d, [&](auto load) {
      ForEachValidRun(d, start, end, [&](int64_t s, int64_t e) {
        for (int64_t i = s; i < e; ++i) *out++ = load(i);
      });
    });
    return out - first;
  }

  // Timestamps stored in another unit: v[0, n), gathered as they are,
  // converted in place (timestamp_scale_internal.h).
  Status ConvertTimestamps(PhysT* v, int64_t n) {
    if constexpr (std::is_same_v<PhysT, int64_t>) {
      const ValueKind kind = arrow_.value_kind;
      if (kind == ValueKind::kTimestampScaleDown || kind == ValueKind::kTimestampScaleUp) {
        return ScaleTimestamps(column_, arrow_, v, n);
      }
    }
    return Status::OK();
  }

  // Feeds the valid values of one Append, v[0, n), to statistics and
  // encoders. `arrow_indices`: the Arrow dictionary index of each value, for
  // the index -> memo index cache (no re-hashing of repeated values).
  // `in_leaf`: v is in the current leaf (not a gathered copy), so PLAIN
  // values may stay there until the page is written (InPlaceBody) while
  // they are one stretch of it.
  Status Consume(const PhysT* v, int64_t n, const std::vector<int64_t>* arrow_indices,
                 bool in_leaf = false) {
    if (options_.statistics && n > 0) page_stats_->Update(v, n);
    // While the dictionary is on, the memo table already finds the distinct
    // values: only a value new to it is hashed for the bloom filter.
    // (Also for a distinct count: the values written without the dictionary.)
    if (per_value_ && n > 0 && !use_dict_) {
      if (bloom_hashes_ != nullptr) {
        const size_t at = bloom_hashes_->size();
        bloom_hashes_->resize(at + static_cast<size_t>(n));
        BloomFilter::Hashes(v, n, bloom_hashes_->data() + at);
      }
      if (distinct_ != nullptr) QUIVER_RETURN_NOT_OK(distinct_->Add(v, n));
    }
    page_num_values_ += n;
    if (!use_dict_) {
      if constexpr (std::is_same_v<PhysT, int32_t> || std::is_same_v<PhysT, int64_t>) {
        if (delta_ != nullptr) return delta_->Put(v, n);
      }
      if (bss_ != nullptr) return bss_->Put(v, n);
      const auto* bytes = reinterpret_cast<const uint8_t*>(v);
      const int64_t len = n * static_cast<int64_t>(sizeof(PhysT));
      if (in_leaf && values_.empty() && (in_leaf_ == nullptr || in_leaf_ + in_leaf_bytes_ == bytes)) {
        if (in_leaf_ == nullptr) in_leaf_ = bytes;
        in_leaf_bytes_ += len;
        return Status::OK();
      }
      QUIVER_RETURN_NOT_OK(DetachInput());
      return values_.ExtendFromSlice(bytes, len);
    }
    if (arrow_indices != nullptr) {
      ReserveMore(&indices_, static_cast<size_t>(n));
      if (remap_.size() < static_cast<size_t>(leaf_->dictionary->length)) {
        remap_.assign(static_cast<size_t>(leaf_->dictionary->length), -1);
      }
      for (int64_t j = 0; j < n; ++j) {
        int32_t& slot = remap_[static_cast<size_t>((*arrow_indices)[static_cast<size_t>(j)])];
        if (slot < 0) {
          QUIVER_ASSIGN_OR_RAISE(slot, Memoize(v[j]));
        }
        indices_.push_back(slot);
      }
      return Status::OK();
    }
    const size_t at = indices_.size();
    indices_.resize(at + static_cast<size_t>(n));
    // MaybeReserveMemo sizes the table on its first kMemoSample values: a
    // longer first batch goes in two, so that its rest does not grow the
    // table a doubling at a time (the indices are the same).
    int64_t first = 0;
    if (!memo_reserved_ && memo_seen_ < kMemoSample && n > kMemoSample - memo_seen_) {
      first = kMemoSample - memo_seen_;
    }
    Status st = first > 0 ? MemoizeBatch(v, first, indices_.data() + at) : Status::OK();
    if (st.ok()) st = MemoizeBatch(v + first, n - first, indices_.data() + at + static_cast<size_t>(first));
    if (!st.ok()) indices_.resize(at);
    return st;
  }

  // The memo indices of v[0, n) to out, then MaybeReserveMemo.
  Status MemoizeBatch(const PhysT* v, int64_t n, int32_t* out) {
    if constexpr (std::is_integral_v<PhysT>) {
      if (UseDirect(v, n)) {
        QUIVER_RETURN_NOT_OK(MemoizeDirect(v, n, out));
        return MaybeReserveMemo(n);
      }
    }
    QUIVER_RETURN_NOT_OK(memo_.GetOrInsertBatch(v, n, out, [&](int64_t j) {
      if (bloom_hashes_ != nullptr) bloom_hashes_->push_back(BloomFilter::Hash(v[j]));
    }));
    return MaybeReserveMemo(n);
  }

  // Integers of a small range (dates, small counts and codes, decimals of
  // few digits): a direct table of kDirectSize memo indices for the values
  // [direct_base_, direct_base_ + kDirectSize) in front of the memo table
  // (which still holds the dictionary, in insertion order, so the bytes do
  // not change); a value outside the window is looked up in the memo table.
  // Decided on the first batch: its values must span less than the window.
  static constexpr int64_t kDirectSize = int64_t{1} << 16;
  bool UseDirect(const PhysT* v, int64_t n) {
    if (QUIVER_PREDICT_FALSE(direct_state_ == 0) && n > 0) DecideDirect(v, n);
    return direct_state_ == 1;
  }
  [[gnu::noinline]] void DecideDirect(const PhysT* v, int64_t n) {
    PhysT lo = v[0], hi = v[0];
    for (int64_t j = 1; j < n; ++j) {
      lo = std::min(lo, v[j]);
      hi = std::max(hi, v[j]);
    }
    const auto span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    direct_state_ = span < static_cast<uint64_t>(kDirectSize) ? 1 : -1;
    if (direct_state_ == 1) {
      direct_base_ = lo;
      direct_.assign(static_cast<size_t>(kDirectSize), -1);
    }
  }

  [[gnu::noinline]] Status MemoizeDirect(const PhysT* v, int64_t n, int32_t* out) {
    const auto base = static_cast<uint64_t>(direct_base_);
    int32_t* const table = direct_.data();
    for (int64_t j = 0; j < n; ++j) {
      const uint64_t at = static_cast<uint64_t>(v[j]) - base;
      if (at < static_cast<uint64_t>(kDirectSize)) {
        int32_t m = table[at];
        if (QUIVER_PREDICT_FALSE(m < 0)) {
          QUIVER_ASSIGN_OR_RAISE(m, Memoize(v[j]));
          table[at] = m;
        }
        out[j] = m;
      } else {
        QUIVER_ASSIGN_OR_RAISE(out[j], Memoize(v[j]));
      }
    }
    return Status::OK();
  }

  // A column whose values have been nearly all distinct so far (7 in 8),
  // or distinct often enough that the rest of this write call would fill
  // the dictionary at that rate (half distinct: float_with_nans), is likely
  // to fill the dictionary up to its size limit: the memo table is grown to
  // that size at once, one rehash instead of a doubling after another (the
  // indices, and so the file, do not change). Never beyond what the values
  // of this write call can fill (a sparse or short column must not get a
  // table sized for the limit); a later call may grow it again.
  static constexpr int64_t kMemoSample = 1024;
  Status MaybeReserveMemo(int64_t n) {
    memo_seen_ += n;
    leaf_seen_ += n;
    if (memo_reserved_ || memo_seen_ < kMemoSample) return Status::OK();
    constexpr int64_t kMaxReserve = int64_t{1} << 20;
    const int64_t at_limit = std::min(
        options_.dictionary_pagesize_limit / static_cast<int64_t>(sizeof(PhysT)) + 1024,
        kMaxReserve);
    const int64_t left = std::max<int64_t>(0, leaf_values_ - leaf_seen_);
    const int64_t size = memo_.size();
    const bool nearly_all = size * int64_t{8} >= memo_seen_ * 7;
    // (size <= 2^31 and left <= 2^40 in practice: the product fits.)
    const bool fills_at_rate = size + left / memo_seen_ * size >= at_limit;
    if (!nearly_all && !fills_at_rate) return Status::OK();
    const int64_t can_fill = size + left;
    if (can_fill >= at_limit) memo_reserved_ = true;
    return memo_.Reserve(std::min(at_limit, can_fill));
  }

  // The memo index of `v`; a value new to the memo table is bloom-hashed.
  Result<int32_t> Memoize(PhysT v) {
    bool inserted = false;
    QUIVER_ASSIGN_OR_RAISE(int32_t idx, memo_.GetOrInsert(std::bit_cast<MemoKey<PhysT>>(v), &inserted));
    if (inserted && bloom_hashes_ != nullptr) bloom_hashes_->push_back(BloomFilter::Hash(v));
    return idx;
  }

 public:
  static Status EncodeIndices(const std::vector<int32_t>& indices, int64_t dict_size,
                              MutableBuffer* out) {
    const int bw = dict_size <= 1 ? (dict_size == 1 ? 1 : 0)
                                  : std::bit_width(static_cast<uint32_t>(dict_size - 1));
    QUIVER_RETURN_NOT_OK(out->Push(static_cast<uint8_t>(bw)));
    RleBitPackedEncoder enc(bw, out);
    QUIVER_RETURN_NOT_OK(enc.PutBatch(indices.data(), static_cast<int64_t>(indices.size())));
    return enc.Flush().status();
  }

 private:
  bool use_dict_;
  internal::ScalarMemoTable<MemoKey<PhysT>> memo_;
  // The values written without the dictionary (count_distinct only).
  std::unique_ptr<FixedDistinctCounter<MemoKey<PhysT>>> distinct_;
  MutableBuffer values_;
  // The page's PLAIN values while they are one stretch of the current
  // leaf, not copied (then values_ is empty): InPlaceBody.
  const uint8_t* in_leaf_ = nullptr;
  int64_t in_leaf_bytes_ = 0;
  std::unique_ptr<ByteStreamSplitEncoder> bss_;
  std::unique_ptr<DeltaBinaryPackedEncoder<
      std::conditional_t<std::is_same_v<PhysT, int64_t>, int64_t, int32_t>>>
      delta_;
  std::vector<PhysT> scratch_;
  std::vector<PhysT> gather_;  // the valid values of one Append (GatherValid; grown, never shrunk)
  std::vector<int32_t> indices_;
  std::vector<int64_t> dict_indices_;
  std::vector<int32_t> remap_;
  int64_t memo_seen_ = 0;  // values memoized (MaybeReserveMemo)
  int64_t leaf_seen_ = 0;  // of them, in the current write call
  bool memo_reserved_ = false;
  // The direct table of small-range integers (UseDirect): 0 undecided, 1
  // used, -1 not.
  int direct_state_ = 0;
  PhysT direct_base_{};
  std::vector<int32_t> direct_;
};

}  // namespace

Status EncodeDictionaryIndices(const std::vector<int32_t>& indices, int64_t dict_size, MutableBuffer* out) {
  return FixedValueWriter<int32_t>::EncodeIndices(indices, dict_size, out);
}

std::unique_ptr<ValueWriter> MakeFixedValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                                                  const ValueWriterOptions& options) {
  switch (column.physical_type) {
    case format::Type::kInt32: return std::make_unique<FixedValueWriter<int32_t>>(column, arrow, options);
    case format::Type::kInt64: return std::make_unique<FixedValueWriter<int64_t>>(column, arrow, options);
    case format::Type::kFloat: return std::make_unique<FixedValueWriter<float>>(column, arrow, options);
    default: return std::make_unique<FixedValueWriter<double>>(column, arrow, options);
  }
}

}  // namespace quiver::parquet
