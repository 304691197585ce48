#include "quiver/parquet/writer/value_writer.h"

#include <bit>
#include <cstring>
#include <numeric>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "quiver/array/memo_table.h"
#include "quiver/io/interfaces.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/encoding/byte_stream_split.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/delta_byte_array.h"
#include "quiver/parquet/encoding/delta_length_byte_array.h"
#include "quiver/parquet/encoding/plain.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/parquet/writer/distinct_count_internal.h"
#include "quiver/parquet/writer/timestamp_scale_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/utf8.h"

namespace quiver::parquet {

namespace {

// The piece size of a dictionary body streamed to the sink
// (PutDirectDictionary).
constexpr int64_t kPiece = 64 * 1024;

using format::Encoding;

// Calls f(s, e) for each run [s, e) of valid slots in [start, end) of `d`.
template <typename F>
void ForEachValidRun(const ArrayData& d, int64_t start, int64_t end, F&& f) {
  const uint8_t* valid = d.validity();
  if (valid == nullptr) {
    if (start < end) f(start, end);
    return;
  }
  bitmap::VisitSetBitRuns(valid, d.offset + start, end - start,
                          [&](int64_t pos, int64_t len) { f(start + pos, start + pos + len); });
}

// Calls f(i) for each valid slot i in [start, end) of `d`.
template <typename F>
void ForEachValid(const ArrayData& d, int64_t start, int64_t end, F&& f) {
  ForEachValidRun(d, start, end, [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) f(i);
  });
}

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

// Calls visit(indices) with the dictionary array's indices as a pointer
// to their integer type (uint64 as int64: indices beyond INT64_MAX become
// negative, which callers refuse as out of range).
template <typename F>
void VisitDictionaryIndices(const ArrayData& d, F&& visit) {
  switch (TypeAs<DictionaryType>(*d.type).index_type()->id()) {
    case Type::kInt8: return visit(d.GetValues<int8_t>(1));
    case Type::kUInt8: return visit(d.GetValues<uint8_t>(1));
    case Type::kInt16: return visit(d.GetValues<int16_t>(1));
    case Type::kUInt16: return visit(d.GetValues<uint16_t>(1));
    case Type::kInt32: return visit(d.GetValues<int32_t>(1));
    case Type::kUInt32: return visit(d.GetValues<uint32_t>(1));
    default: return visit(d.GetValues<int64_t>(1));
  }
}

// Calls f(i, k) for each valid slot i in [start, end) of the dictionary
// array `d`, k being its index (read with the index type's width, decided
// once per call, not per slot).
template <typename F>
void ForEachDictionaryIndex(const ArrayData& d, int64_t start, int64_t end, F&& f) {
  VisitDictionaryIndices(d, [&](const auto* indices) {
    ForEachValid(d, start, end, [&](int64_t i) { f(i, static_cast<int64_t>(indices[i])); });
  });
}

// The Invalid status for a dictionary index that no value can answer.
Status BadDictionaryIndex(const ColumnDescriptor& column, int64_t k, int64_t slot) {
  return Status::Invalid("column '", column.path, "': dictionary index ", k, " at slot ", slot,
                         " is out of range or refers to a null dictionary value");
}

// The first 8 bytes of a value (zero padded) as a big-endian integer: keys
// order as the values do in unsigned byte order, ties aside.
inline uint64_t SortKey(const uint8_t* p, int64_t size) {
  if (size >= 8) return bit_util::LoadBigEndian<uint64_t>(p);
  uint64_t key = 0;
  for (int64_t i = 0; i < size; ++i) key |= static_cast<uint64_t>(p[i]) << (56 - 8 * i);
  return key;
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

// Moves a PLAIN page's values to `out`: by swapping buffers when `out` is
// empty (no copy), else by appending. `values` is left empty.
Status TakePlain(MutableBuffer* values, MutableBuffer* out) {
  if (out->empty()) {
    std::swap(*values, *out);
  } else {
    QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(values->data(), values->size()));
  }
  values->Clear();
  return Status::OK();
}

// Room for `more` elements past the vector's size, growing it at least
// twofold: a reserve of exactly size + more copies the vector on every
// call, quadratic over a page of many calls (a page of a million
// dictionary indices, with no rows-per-page limit, took 17x the time).
template <typename V>
void ReserveMore(V* v, size_t more) {
  const size_t need = v->size() + more;
  if (need > v->capacity()) v->reserve(std::max(need, 2 * v->capacity()));
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
    if (options.encoding == Encoding::kByteStreamSplit) {
      bss_ = std::make_unique<ByteStreamSplitEncoder>(static_cast<int>(sizeof(PhysT)), options.pool);
    }
    if constexpr (std::is_same_v<PhysT, int32_t> || std::is_same_v<PhysT, int64_t>) {
      if (options.encoding == Encoding::kDeltaBinaryPacked) {
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
  Result<Encoding> FlushPageInPlace() override {
    if (in_leaf_ == nullptr) return ValueWriter::FlushPageInPlace();
    TakeInLeaf();
    ResetPage();
    return Encoding::kPlain;
  }
  Status DetachInput() override {
    if (in_leaf_ == nullptr) return Status::OK();
    const auto [from, bytes] = TakeInLeaf();
    return values_.ExtendFromSlice(from, bytes);
  }

  Result<Encoding> FlushPage(MutableBuffer* out) override {
    Encoding enc;
    if (use_dict_) {
      QUIVER_RETURN_NOT_OK(EncodeIndices(indices_, memo_.size(), out));
      indices_.clear();
      enc = Encoding::kRleDictionary;
    } else if (delta_ != nullptr) {
      QUIVER_RETURN_NOT_OK(delta_->Flush(out).status());
      enc = Encoding::kDeltaBinaryPacked;
    } else if (bss_ != nullptr) {
      QUIVER_RETURN_NOT_OK(bss_->Flush(out).status());
      enc = Encoding::kByteStreamSplit;
    } else if (in_leaf_ != nullptr) {  // (values_ is empty)
      const auto [from, bytes] = TakeInLeaf();
      QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(from, bytes));
      enc = Encoding::kPlain;
    } else {
      QUIVER_RETURN_NOT_OK(TakePlain(&values_, out));
      enc = Encoding::kPlain;
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
  Result<Encoding> FlushPage(MutableBuffer* out) override {
    Encoding enc;
    const int64_t n = page_num_values_;
    if (options_.rle_booleans || options_.encoding == Encoding::kRle) {
      // RLE with a 4-byte length prefix (Encodings.md, booleans), encoded
      // from the page's bitmap directly.
      RleBitPackedEncoder rle(1, out, /*length_prefix=*/true);
      QUIVER_RETURN_NOT_OK(rle.PutBitmap(bits_.data(), 0, n));
      QUIVER_RETURN_NOT_OK(rle.Flush().status());
      enc = Encoding::kRle;
    } else {
      // The page's bytes (bits_ may hold a few more: AppendValid's whole
      // words), handed over as TakePlain does.
      bits_.UnsafeSetSize(bit_util::BytesForBits(n));
      QUIVER_RETURN_NOT_OK(TakePlain(&bits_, out));
      enc = Encoding::kPlain;
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

// --- Byte arrays and fixed-length byte arrays -------------------------------

// Whether two values have the same bytes.
inline bool SameBytes(std::string_view a, std::string_view b) {
  return a.size() == b.size() && internal::BytesEqual(a.data(), b.data(), a.size());
}

class BytesValueWriter final : public ValueWriter {
 public:
  BytesValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                   const ValueWriterOptions& options)
      : ValueWriter(column, arrow, options), memo_(options.pool), values_(options.pool) {
    use_dict_ = options.dictionary;
    if (options.count_distinct) {
      distinct_ = std::make_unique<BytesDistinctCounter>(options.pool);
      per_value_ = true;
    }
    fixed_ = column.physical_type == format::Type::kFixedLenByteArray;
    check_utf8_ = arrow.is_string && options.validate_utf8;
    // Byte-array min/max depend only on the set of values, so repeated
    // values may skip them; FLOAT16 statistics also count NaNs.
    stats_by_value_ =
        arrow.stats_kind == StatsKind::kBytes || arrow.stats_kind == StatsKind::kSignedBytes;
    keyed_stats_ = arrow.stats_kind == StatsKind::kBytes;
    if (options.encoding == Encoding::kDeltaLengthByteArray) {
      delta_length_ = std::make_unique<DeltaLengthByteArrayEncoder>(options.pool);
    } else if (options.encoding == Encoding::kDeltaByteArray) {
      delta_ = std::make_unique<DeltaByteArrayEncoder>(options.pool);
    } else if (options.encoding == Encoding::kByteStreamSplit && fixed_) {
      bss_ = std::make_unique<ByteStreamSplitEncoder>(column.type_length, options.pool);
    }
  }

  Status Append(int64_t start, int64_t end) override {
    scratch_.clear();
    arena_.clear();
    const ArrayData& d = *leaf_;
    if (arrow_.dictionary) return AppendDictionaryLeaf(start, end);
    switch (arrow_.value_kind) {
      case ValueKind::kBinary:
        QUIVER_RETURN_NOT_OK(GatherOffsets<int32_t>(d, start, end));
        return Consume(check_utf8_);
      case ValueKind::kLargeBinary:
        QUIVER_RETURN_NOT_OK(GatherOffsets<int64_t>(d, start, end));
        return Consume(check_utf8_);
      default:
        break;
    }
    if (arrow_.value_kind == ValueKind::kFixedSizeBinary ||
        arrow_.value_kind == ValueKind::kFloat16) {
      // Fixed widths: the values' views, a run of valid slots at a time.
      const auto w = static_cast<size_t>(column_.type_length);
      const char* base = reinterpret_cast<const char*>(d.buffers[1]->data()) + d.offset * column_.type_length;
      scratch_.reserve(static_cast<size_t>(end - start));
      ForEachValidRun(d, start, end, [&](int64_t s, int64_t e) {
        for (int64_t i = s; i < e; ++i) scratch_.emplace_back(base + static_cast<size_t>(i) * w, w);
      });
      return Consume(check_utf8_);
    }
    if (arrow_.value_kind == ValueKind::kDecimalToFlba) {
      arena_.reserve(static_cast<size_t>((end - start) * column_.type_length));
    }
    Status st;
    ForEachValid(d, start, end, [&](int64_t i) {
      if (st.ok()) st = GatherOne(d, i);
    });
    QUIVER_RETURN_NOT_OK(st);
    return Consume(check_utf8_);
  }

  int64_t EstimatedPageSize() const override {
    if (use_dict_) {
      const int64_t entries = dictionary_size();
      int bw = entries <= 1 ? 1 : std::bit_width(static_cast<uint64_t>(entries - 1));
      return 1 + static_cast<int64_t>(indices_.size()) * bw / 8;
    }
    // The encoders' own estimates, which are Arrow C++'s.
    if (delta_length_ != nullptr) return delta_length_->EstimatedSize();
    if (delta_ != nullptr) return delta_->EstimatedSize();
    if (bss_ != nullptr) return encoded_estimate_;
    return values_.size();
  }

  Result<Encoding> FlushPage(MutableBuffer* out) override {
    Encoding enc;
    encoded_estimate_ = 0;
    if (use_dict_) {
      QUIVER_RETURN_NOT_OK(
          FixedValueWriter<int32_t>::EncodeIndices(indices_, static_cast<int32_t>(dictionary_size()), out));
      indices_.clear();
      enc = Encoding::kRleDictionary;
    } else if (delta_length_ != nullptr) {
      QUIVER_RETURN_NOT_OK(delta_length_->Flush(out).status());
      enc = Encoding::kDeltaLengthByteArray;
    } else if (delta_ != nullptr) {
      QUIVER_RETURN_NOT_OK(delta_->Flush(out).status());
      enc = Encoding::kDeltaByteArray;
    } else if (bss_ != nullptr) {
      QUIVER_RETURN_NOT_OK(bss_->Flush(out).status());
      enc = Encoding::kByteStreamSplit;
    } else {
      QUIVER_RETURN_NOT_OK(TakePlain(&values_, out));
      enc = Encoding::kPlain;
    }
    ResetPage();
    ++page_epoch_;
    return enc;
  }

  bool dictionary_active() const override { return use_dict_; }
  // The Parquet dictionary: the Arrow dictionary written as is, or the memo.
  int64_t dictionary_size() const override {
    return direct_dictionary_ != nullptr ? direct_dictionary_->length : memo_.size();
  }
  int64_t dictionary_plain_bytes() const override {
    if (direct_dictionary_ != nullptr) return direct_plain_bytes_;
    return memo_.data_length() + (fixed_ ? 0 : 4 * static_cast<int64_t>(memo_.size()));
  }
  void FallBack() override {
    use_dict_ = false;
    direct_ = false;
  }
  bool has_dictionary_page() const override { return options_.dictionary; }
  bool dictionary_limit_applies() const override { return !direct_; }

  // The values written dictionary-encoded (the Arrow dictionary's entries
  // the rows used, or the memo table) joined with those written without it.
  Result<int64_t> FinishDistinctCount() override {
    if (distinct_ == nullptr) return 0;
    if (direct_dictionary_ != nullptr) {
      const ArrayData& dict = *direct_dictionary_;
      int64_t used = 0;
      for (uint8_t u : direct_used_) used += u;
      if (distinct_->count() == 0) return used;
      std::vector<char> unused;
      for (int64_t k = 0; k < dict.length; ++k) {
        if (direct_used_[static_cast<size_t>(k)] == 0) continue;
        std::string_view v;
        QUIVER_RETURN_NOT_OK(ValueAt(dict, k, &unused, &v));
        QUIVER_RETURN_NOT_OK(distinct_->Add(v));
      }
    } else if (memo_.size() > 0 && memo_counts_) {
      if (distinct_->count() == 0) return memo_.size();
      for (int32_t i = 0; i < memo_.size(); ++i) QUIVER_RETURN_NOT_OK(distinct_->Add(memo_.value(i)));
    }
    return distinct_->count();
  }

  // Arrow dictionary leaves of string/binary values (32- or 64-bit offsets)
  // while the dictionary is on are written as Arrow C++ writes them
  // (WriteArrowDictionary, pyarrow 26): the chunk's first Arrow dictionary
  // becomes the Parquet dictionary as is (every entry, in its order, used
  // or not) and the Arrow indices are the Parquet indices; later calls with
  // an equal dictionary (by value) continue so; dictionary_pagesize_limit
  // is not checked meanwhile. A dictionary with duplicate values, or a
  // later call with a different dictionary, makes the chunk fall back to
  // PLAIN before the call's values (the dictionary page then holds the
  // distinct values seen). Pages therefore end where pyarrow ends them
  // (the page size estimate uses the full dictionary's index width).
  // Dictionaries with null entries, which Arrow C++ refuses to write, are
  // hashed value by value instead, as other dictionary leaves are.
  Result<bool> BeginLeaf() override {
    direct_ = false;
    if (!arrow_.dictionary || !use_dict_ ||
        (arrow_.value_kind != ValueKind::kBinary && arrow_.value_kind != ValueKind::kLargeBinary)) {
      return false;
    }
    const ArrayDataPtr& dict = leaf_->dictionary;
    if (direct_dictionary_ == nullptr) {
      if (memo_.size() > 0 || dict->GetNullCount() > 0) return false;
      QUIVER_ASSIGN_OR_RAISE(const bool distinct, CheckDirectDictionary(*dict));
      if (!distinct) return true;
      direct_dictionary_ = dict;
    } else if (!SameDictionary(*direct_dictionary_, *dict)) {
      return true;  // (the dictionary page stays direct_dictionary_)
    }
    direct_ = true;
    // The Arrow index is the Parquet index.
    remap_.resize(static_cast<size_t>(dict->length));
    std::iota(remap_.begin(), remap_.end(), 0);
    seen_.assign(static_cast<size_t>(dict->length), 0);
    return false;
  }

  bool dictionary_streams() const override { return direct_dictionary_ != nullptr; }
  Status WriteDictionaryTo(io::OutputStream* stream, MutableBuffer* staging) const override {
    if (direct_dictionary_ == nullptr) return ValueWriter::WriteDictionaryTo(stream, staging);
    return PutDirectDictionary(staging, stream);
  }

  // The first Arrow dictionary of a chunk, to be written as is. One pass
  // over its entries checks each one's size and UTF-8 (string columns) and
  // computes its hash and (for min/max) its sort key while it is in cache
  // (and appends it to the PLAIN body: prebuilt_dictionary_bytes, the copy
  // being the ASCII half of the UTF-8 check, the hash and key read from it);
  // then whether the entries are distinct. With a repeated value, the memo
  // gets the distinct values (the dictionary page Arrow C++ writes then)
  // and the result is false.
  Result<bool> CheckDirectDictionary(const ArrayData& dict) {
    auto check = [&](const auto* o) -> Result<bool> {
      const uint8_t* data = dict.buffers[2] != nullptr ? dict.buffers[2]->data() : nullptr;
      const char* chars = reinterpret_cast<const char*>(data);
      const bool keys = options_.statistics && keyed_stats_;
      // Each entry's hash, for the search for a repeated value: with a bloom
      // filter, the filter's own hash (XXH64, kept for the entries the rows
      // use: AppendDirectIndices), else HashBytesSampled (a long entry's
      // three cache lines; when distinct entries it cannot tell apart pile
      // up, the search is made again with HashBytes). (Filled below, every
      // element: not zeroed first.)
      const bool bloom = bloom_hashes_ != nullptr;
      std::unique_ptr<uint64_t[]> hashes(new uint64_t[static_cast<size_t>(dict.length)]);
      if (keys) direct_keys_.resize(static_cast<size_t>(dict.length));
      const int64_t plain_bytes = static_cast<int64_t>(o[dict.length] - o[0]) + 4 * dict.length;
      const bool build = plain_bytes >= options_.prebuilt_dictionary_bytes && plain_bytes <= INT32_MAX;
      prebuilt_ = MutableBuffer(options_.pool);
      if (build) QUIVER_RETURN_NOT_OK(prebuilt_.Reserve(plain_bytes));
      const CopyAsciiFn copy_ascii = ByteArrayCopyAscii();
      for (int64_t k = 0; k < dict.length; ++k) {
        const int64_t size = static_cast<int64_t>(o[k + 1] - o[k]);
        if (size > INT32_MAX) {
          std::string_view unused;
          return ValueAt(dict, k, &entry_arena_, &unused);  // its error
        }
        const std::string_view v(chars + o[k], static_cast<size_t>(size));
        // The entry's bytes to hash: its copy in the page when there is one.
        const uint8_t* bytes = data + o[k];
        bool ascii = false;
        if (build) {
          prebuilt_.UnsafeAppend<int32_t>(static_cast<int32_t>(size));
          uint8_t* copy = prebuilt_.data() + prebuilt_.size();
          ascii = copy_ascii(copy, bytes, size);
          prebuilt_.UnsafeSetSize(prebuilt_.size() + size);
          bytes = copy;
        }
        if (check_utf8_ && !ascii) {
          const Status st = CheckUtf8(v);
          if (!st.ok()) return Status::Invalid(st.message(), " (dictionary entry ", k, ")");
        }
        hashes[static_cast<size_t>(k)] =
            bloom ? BloomFilter::Hash(v) : internal::HashBytesSampled(bytes, size);
        if (keys) direct_keys_[static_cast<size_t>(k)] = SortKey(bytes, size);
      }
      // A sampled hash gives up after a sixteenth of the entries in
      // collisions (plus a few): then every entry's whole bytes are hashed.
      QUIVER_ASSIGN_OR_RAISE(
          int64_t repeat, internal::FindRepeatedValue(o, data, hashes.get(), dict.length, options_.pool,
                                                      bloom ? -1 : dict.length / 16 + 64));
      if (repeat == internal::kTooManyCollisions) {
        for (int64_t k = 0; k < dict.length; ++k) {
          hashes[static_cast<size_t>(k)] =
              internal::HashBytes(data + o[k], static_cast<int64_t>(o[k + 1] - o[k]));
        }
        QUIVER_ASSIGN_OR_RAISE(
            repeat, internal::FindRepeatedValue(o, data, hashes.get(), dict.length, options_.pool));
      }
      if (repeat >= 0) {
        direct_keys_.clear();
        prebuilt_ = MutableBuffer(options_.pool);
        // (The dictionary page Arrow C++ writes then; the rows' values go
        // PLAIN: none of these is a value written dictionary-encoded.)
        memo_counts_ = false;
        for (int64_t k = 0; k < dict.length; ++k) {
          QUIVER_RETURN_NOT_OK(
              memo_.GetOrInsert(chars + o[k], static_cast<int64_t>(o[k + 1] - o[k])).status());
        }
        return false;
      }
      direct_plain_bytes_ = plain_bytes;
      if (bloom) direct_bloom_hashes_ = std::move(hashes);
      if (bloom || distinct_ != nullptr) direct_used_.assign(static_cast<size_t>(dict.length), 0);
      return true;
    };
    if (arrow_.value_kind == ValueKind::kLargeBinary) return check(dict.GetValues<int64_t>(1));
    return check(dict.GetValues<int32_t>(1));
  }

  Status WriteDictionary(MutableBuffer* out) const override {
    if (direct_dictionary_ != nullptr) {
      if (out->size() == 0 && prebuilt_.size() == direct_plain_bytes_ && direct_plain_bytes_ > 0) {
        std::swap(*out, prebuilt_);  // (given once; a later call builds it again)
        return Status::OK();
      }
      return PutDirectDictionary(out, nullptr);
    }
    for (int32_t i = 0; i < memo_.size(); ++i) {
      std::string_view v = memo_.value(i);
      if (!fixed_) QUIVER_RETURN_NOT_OK(out->Append<int32_t>(static_cast<int32_t>(v.size())));
      QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(v.data(), static_cast<int64_t>(v.size())));
    }
    return Status::OK();
  }

 private:
  // The Arrow dictionary written as is, PLAIN (a length and the bytes per
  // entry), from its buffers: into `out` whole (stream null); into a
  // stream that builds in memory (BeginInPlace), straight where the page
  // stays (the bytes copied once, not into `out` and again: string_dictionary
  // into a quiver.BufferOutputStream, 0.96 of the CPU time); else to
  // `stream` through `out` in pieces of about 64 KiB, an entry larger than
  // that written from the dictionary directly.
  Status PutDirectDictionary(MutableBuffer* out, io::OutputStream* stream) const {
    const ArrayData& dict = *direct_dictionary_;
    const uint8_t* data = dict.buffers[2] != nullptr ? dict.buffers[2]->data() : nullptr;
    if (stream != nullptr) {
      QUIVER_ASSIGN_OR_RAISE(uint8_t* const room, stream->BeginInPlace(direct_plain_bytes_));
      if (room != nullptr) {
        uint8_t* at = room;
        auto fill = [&](const auto* o) {
          for (int64_t k = 0; k < dict.length; ++k) {
            const auto len = static_cast<int32_t>(o[k + 1] - o[k]);
            std::memcpy(at, &len, 4);
            if (len > 0) std::memcpy(at + 4, data + o[k], static_cast<size_t>(len));
            at += 4 + len;
          }
        };
        if (arrow_.value_kind == ValueKind::kLargeBinary) {
          fill(dict.GetValues<int64_t>(1));
        } else {
          fill(dict.GetValues<int32_t>(1));
        }
        return stream->CommitInPlace(at - room);
      }
    }
    QUIVER_RETURN_NOT_OK(out->Reserve(stream != nullptr ? kPiece + 4 : direct_plain_bytes_));
    auto put = [&](const auto* o) -> Status {
      for (int64_t k = 0; k < dict.length; ++k) {
        const auto len = static_cast<int32_t>(o[k + 1] - o[k]);
        if (stream != nullptr && out->size() + 4 + len > kPiece) {
          QUIVER_RETURN_NOT_OK(stream->Write(out->data(), out->size()));
          out->Clear();
          if (len > kPiece) {
            out->UnsafeAppend<int32_t>(len);
            QUIVER_RETURN_NOT_OK(stream->Write(out->data(), out->size()));
            out->Clear();
            QUIVER_RETURN_NOT_OK(stream->Write(data + o[k], len));
            continue;
          }
        }
        out->UnsafeAppend<int32_t>(len);
        if (len > 0) out->UnsafeExtendFromSlice(data + o[k], len);
      }
      if (stream != nullptr && out->size() > 0) {
        QUIVER_RETURN_NOT_OK(stream->Write(out->data(), out->size()));
        out->Clear();
      }
      return Status::OK();
    };
    if (arrow_.value_kind == ValueKind::kLargeBinary) return put(dict.GetValues<int64_t>(1));
    return put(dict.GetValues<int32_t>(1));
  }

  // A new write call's leaf: the per-entry caches of an Arrow dictionary
  // refer to the previous leaf's dictionary.
  void OnNewLeaf() override {
    entries_.clear();
    remap_.clear();
    seen_.clear();
    entry_arena_.clear();
  }

  // Equal values (both dictionaries are string/binary arrays of the
  // column's value kind; `a` has no nulls).
  bool SameDictionary(const ArrayData& a, const ArrayData& b) {
    if (&a == &b) return true;
    if (a.length != b.length || b.GetNullCount() > 0) return false;
    std::vector<char> unused;
    for (int64_t k = 0; k < a.length; ++k) {
      std::string_view x, y;
      if (!ValueAt(a, k, &unused, &x).ok() || !ValueAt(b, k, &unused, &y).ok() || x != y) return false;
    }
    return true;
  }

  // Binary / large binary leaves: the values of the valid slots, read from
  // the offsets directly (Consume checks strings for UTF-8).
  template <typename Offset>
  Status GatherOffsets(const ArrayData& d, int64_t start, int64_t end) {
    const Offset* o = d.GetValues<Offset>(1);
    const char* data = d.buffers[2] == nullptr ? nullptr
                                               : reinterpret_cast<const char*>(d.buffers[2]->data());
    Status st;
    auto run = [&](int64_t s, int64_t e) {
      if (!st.ok()) return;
      for (int64_t i = s; i < e; ++i) {
        const int64_t len = static_cast<int64_t>(o[i + 1]) - static_cast<int64_t>(o[i]);
        if constexpr (sizeof(Offset) == 8) {
          if (len > INT32_MAX) {
            st = Status::Invalid("column '", column_.path, "': value at slot ", i, " is ", len,
                                 " bytes; Parquet BYTE_ARRAY values are at most 2 GiB");
            return;
          }
        }
        scratch_.emplace_back(data + o[i], static_cast<size_t>(len));
      }
    };
    const uint8_t* valid = d.validity();
    if (valid == nullptr) {
      run(start, end);
    } else {
      bitmap::VisitSetBitRuns(valid, d.offset + start, end - start,
                              [&](int64_t pos, int64_t len) { run(start + pos, start + pos + len); });
    }
    return st;
  }

  // UTF-8 of n values: each stretch of values adjacent in memory (a run of
  // valid slots of a string array) is checked as one, its bytes well-formed
  // and every value starting on a character boundary (which holds iff every
  // value is well-formed); a failing stretch is checked value by value for
  // the message.
  Status CheckUtf8Values(const std::string_view* v, int64_t n) const {
    for (int64_t k = 0; k < n;) {
      const char* begin = v[k].data();
      const char* end = begin + v[k].size();
      bool boundaries = true;
      int64_t j = k + 1;
      for (; j < n && v[j].data() == end; ++j) {
        if (!v[j].empty() && IsUtf8Continuation(static_cast<uint8_t>(v[j][0]))) boundaries = false;
        end += v[j].size();
      }
      if (!boundaries || FindInvalidUtf8(reinterpret_cast<const uint8_t*>(begin), end - begin) >= 0) {
        for (int64_t i = k; i < j; ++i) QUIVER_RETURN_NOT_OK(CheckUtf8(v[i]));
      }
      k = j;
    }
    return Status::OK();
  }

  Status CheckUtf8(std::string_view v) const {
    const int64_t bad =
        FindInvalidUtf8(reinterpret_cast<const uint8_t*>(v.data()), static_cast<int64_t>(v.size()));
    if (bad < 0) return Status::OK();
    return Status::Invalid("column '", column_.path, "': invalid UTF-8 at byte ", bad,
                           " of a string value (validate_utf8=False skips this check)");
  }

  // The physical value of slot i of `d`; `arena` holds converted bytes
  // (decimals) and must not reallocate while views into it are alive.
  Status ValueAt(const ArrayData& d, int64_t i, std::vector<char>* arena, std::string_view* out) {
    switch (arrow_.value_kind) {
      case ValueKind::kBinary: {
        const int32_t* o = d.GetValues<int32_t>(1);
        *out = {reinterpret_cast<const char*>(d.buffers[2]->data()) + o[i], static_cast<size_t>(o[i + 1] - o[i])};
        return Status::OK();
      }
      case ValueKind::kLargeBinary: {
        const int64_t* o = d.GetValues<int64_t>(1);
        if (o[i + 1] - o[i] > INT32_MAX) {
          return Status::Invalid("column '", column_.path, "': value at slot ", i, " is ",
                                 o[i + 1] - o[i], " bytes; Parquet BYTE_ARRAY values are at most 2 GiB");
        }
        *out = {reinterpret_cast<const char*>(d.buffers[2]->data()) + o[i], static_cast<size_t>(o[i + 1] - o[i])};
        return Status::OK();
      }
      case ValueKind::kBinaryView: {
        const uint8_t* view = d.buffers[1]->data() + (d.offset + i) * 16;
        int32_t len;
        std::memcpy(&len, view, 4);
        if (len <= 12) {
          *out = {reinterpret_cast<const char*>(view + 4), static_cast<size_t>(len)};
        } else {
          int32_t buf, off;
          std::memcpy(&buf, view + 8, 4);
          std::memcpy(&off, view + 12, 4);
          *out = {reinterpret_cast<const char*>(d.buffers[static_cast<size_t>(2 + buf)]->data()) + off,
                  static_cast<size_t>(len)};
        }
        return Status::OK();
      }
      case ValueKind::kFixedSizeBinary:
      case ValueKind::kFloat16: {
        const int64_t w = column_.type_length;
        *out = {reinterpret_cast<const char*>(d.buffers[1]->data()) + (d.offset + i) * w, static_cast<size_t>(w)};
        return Status::OK();
      }
      case ValueKind::kDecimalToFlba: {
        // Little-endian two's complement (Arrow) -> big-endian (Parquet),
        // keeping the low type_length bytes.
        const int64_t w = d.type->byte_width();
        const uint8_t* src = d.buffers[1]->data() + (d.offset + i) * w;
        const size_t at = arena->size();
        for (int32_t b = column_.type_length - 1; b >= 0; --b) arena->push_back(static_cast<char>(src[b]));
        *out = {arena->data() + at, static_cast<size_t>(column_.type_length)};
        return Status::OK();
      }
      default:
        return Status::NotImplemented("column '", column_.path, "': unexpected value kind");
    }
  }

  // Appends the physical value of slot i of `d` to scratch_ (arena_ was
  // reserved for the whole Append: pointers into it are stable).
  Status GatherOne(const ArrayData& d, int64_t i) {
    std::string_view v;
    QUIVER_RETURN_NOT_OK(ValueAt(d, i, &arena_, &v));
    scratch_.push_back(v);
    return Status::OK();
  }

  // The value of Arrow dictionary entry k (validated once per leaf: not
  // null, UTF-8; bloom-hashed once).
  Status Entry(int64_t k, int64_t slot, std::string_view* out) {
    const ArrayData& dict = *leaf_->dictionary;
    if (entries_.empty()) {
      entries_.assign(static_cast<size_t>(dict.length), std::string_view());
      entry_ready_.assign(static_cast<size_t>(dict.length), 0);
      if (arrow_.value_kind == ValueKind::kDecimalToFlba) {
        entry_arena_.reserve(static_cast<size_t>(dict.length * column_.type_length));
      }
    }
    if (entry_ready_[static_cast<size_t>(k)] != 0) {
      *out = entries_[static_cast<size_t>(k)];
      return Status::OK();
    }
    if (!dict.IsValid(k)) return BadDictionaryIndex(column_, k, slot);
    std::string_view v;
    QUIVER_RETURN_NOT_OK(ValueAt(dict, k, &entry_arena_, &v));
    // (A dictionary written as is was checked by BeginLeaf.)
    if (check_utf8_ && !direct_) QUIVER_RETURN_NOT_OK(CheckUtf8(v));
    if (bloom_hashes_ != nullptr) bloom_hashes_->push_back(BloomFilter::Hash(v));
    entries_[static_cast<size_t>(k)] = v;
    entry_ready_[static_cast<size_t>(k)] = 1;
    *out = v;
    return Status::OK();
  }

  // Arrow dictionary leaf. While dictionary encoding is on, each Arrow
  // dictionary entry is resolved once per write call (validated, inserted
  // into the memo table, bloom-hashed) and once per page for the statistics
  // (min/max depend only on the distinct values); per slot only the index is
  // remapped. Otherwise (fallback, dictionary off) the entries' values are
  // gathered per slot for the value encoder.
  Status AppendDictionaryLeaf(int64_t start, int64_t end) {
    const ArrayData& d = *leaf_;
    const int64_t dict_length = d.dictionary->length;
    Status st;
    if (!use_dict_) {
      ForEachDictionaryIndex(d, start, end, [&](int64_t i, int64_t k) {
        if (!st.ok()) return;
        if (k < 0 || k >= dict_length) {
          st = BadDictionaryIndex(column_, k, i);
          return;
        }
        std::string_view v;
        st = Entry(k, i, &v);
        scratch_.push_back(v);
      });
      QUIVER_RETURN_NOT_OK(st);
      return Consume(/*check_utf8=*/false, /*bloom=*/false);
    }
    if (direct_ && (!options_.statistics || !direct_keys_.empty())) {
      const ArrayData& dict = *d.dictionary;
      if (arrow_.value_kind == ValueKind::kLargeBinary) {
        return AppendDirectIndices(dict, dict.GetValues<int64_t>(1), start, end);
      }
      return AppendDirectIndices(dict, dict.GetValues<int32_t>(1), start, end);
    }
    if (remap_.empty()) {
      remap_.assign(static_cast<size_t>(dict_length), -1);
      seen_.assign(static_cast<size_t>(dict_length), 0);
    }
    ReserveMore(&indices_, static_cast<size_t>(end - start));
    int64_t n = 0;
    ForEachDictionaryIndex(d, start, end, [&](int64_t i, int64_t k) {
      if (!st.ok()) return;
      if (k < 0 || k >= dict_length) {
        st = BadDictionaryIndex(column_, k, i);
        return;
      }
      const size_t key = static_cast<size_t>(k);
      int32_t m = remap_[key];
      std::string_view v;
      if (!stats_by_value_ && options_.statistics) {
        st = Entry(k, i, &v);
        if (!st.ok()) return;
        page_stats_->UpdateOne(v);
      }
      if (m < 0 || seen_[key] != page_epoch_) {
        st = Entry(k, i, &v);
        if (!st.ok()) return;
        if (m < 0) {
          auto r = memo_.GetOrInsert(v);
          if (!r.ok()) {
            st = r.status();
            return;
          }
          m = remap_[key] = *r;
        }
        if (direct_ && !direct_used_.empty()) direct_used_[key] = 1;
        if (options_.statistics && stats_by_value_) {
          // (The entry's key made once per dictionary where there is one.)
          if (!direct_keys_.empty()) {
            SeeWithKey(v, direct_keys_[key]);
          } else {
            SeeKeyed(v);
          }
        }
        seen_[key] = page_epoch_;
      }
      page_byte_array_bytes_ += static_cast<int64_t>(entries_[key].size());
      indices_.push_back(m);
      ++n;
    });
    page_num_values_ += n;
    return st;
  }

  // AppendDictionaryLeaf for an Arrow dictionary written as is (direct_:
  // checked whole by BeginLeaf, no null entry, the Arrow index is the
  // Parquet index): per slot the index, the value's size from the offsets
  // and, once per entry per page, the min/max check of its sort key
  // (direct_keys_, with statistics); with a bloom filter or a distinct
  // count, once per entry per chunk, its first use (the filter gets the
  // hash CheckDirectDictionary computed).
  template <typename Offset>
  Status AppendDirectIndices(const ArrayData& dict, const Offset* o, int64_t start, int64_t end) {
    const int64_t dict_length = dict.length;
    const char* data = dict.buffers[2] != nullptr ? reinterpret_cast<const char*>(dict.buffers[2]->data())
                                                  : nullptr;
    const bool stats = options_.statistics;
    if (stats) StartPageKeys();
    // Room for every slot, written through a pointer (the two loops below
    // must not differ by whether push_back is inlined), then cut to size.
    ReserveMore(&indices_, static_cast<size_t>(end - start));
    const size_t at = indices_.size();
    indices_.resize(at + static_cast<size_t>(end - start));
    int32_t* out = indices_.data() + at;
    const uint32_t epoch = page_epoch_;
    const uint64_t* const bloom = bloom_hashes_ != nullptr ? direct_bloom_hashes_.get() : nullptr;
    uint8_t* const used = direct_used_.empty() ? nullptr : direct_used_.data();
    uint64_t min_key = page_min_key_, max_key = page_max_key_;
    int64_t n = 0, bytes = 0;
    Status st;
    // A run [s, e) of valid slots with indices of type Index, in one loop;
    // the first-use check compiled in only where it is needed (`Track`).
    auto run = [&](auto track, const auto* indices, int64_t s, int64_t e) {
      int32_t* dst = out;  // (a local: `out` is the closure's)
      for (int64_t i = s; i < e; ++i) {
        const auto k = static_cast<int64_t>(indices[i]);
        if (QUIVER_PREDICT_FALSE(k < 0 || k >= dict_length)) {
          st = BadDictionaryIndex(column_, k, i);
          out = dst;
          return false;
        }
        const size_t key = static_cast<size_t>(k);
        const auto size = static_cast<int64_t>(o[k + 1] - o[k]);
        if (stats && seen_[key] != epoch) {
          seen_[key] = epoch;
          // An entry whose key is strictly inside the page's range of keys
          // is neither its min nor its max: its bytes are not read.
          const uint64_t sort_key = direct_keys_[key];
          if (sort_key <= min_key || sort_key >= max_key) {
            page_stats_->UpdateOne(std::string_view(data + o[k], static_cast<size_t>(size)));
            min_key = std::min(min_key, sort_key);
            max_key = std::max(max_key, sort_key);
          }
        }
        if constexpr (decltype(track)::value) {
          if (used[key] == 0) {  // (the entry's first use in the chunk)
            used[key] = 1;
            if (bloom != nullptr) bloom_hashes_->push_back(bloom[key]);
          }
        }
        bytes += size;
        *dst++ = static_cast<int32_t>(k);
      }
      out = dst;
      n += e - s;
      return true;
    };
    auto visit = [&](const auto* indices) {
      ForEachValidRun(*leaf_, start, end, [&](int64_t s, int64_t e) {
        if (!st.ok()) return;
        if (used != nullptr) {
          run(std::true_type{}, indices, s, e);
        } else {
          run(std::false_type{}, indices, s, e);
        }
      });
    };
    VisitDictionaryIndices(*leaf_, visit);
    indices_.resize(static_cast<size_t>(out - indices_.data()));
    page_min_key_ = min_key;
    page_max_key_ = max_key;
    QUIVER_RETURN_NOT_OK(st);
    page_byte_array_bytes_ += bytes;
    page_num_values_ += n;
    return Status::OK();
  }

  // Feeds scratch_ (the valid values of one Append) to UTF-8 validation (if
  // `check_utf8`), statistics, the bloom filter (if `bloom`) and the
  // encoder.
  Status Consume(bool check_utf8, bool bloom = true) {
    const int64_t n = static_cast<int64_t>(scratch_.size());
    const bool plain = !use_dict_ && delta_length_ == nullptr && delta_ == nullptr && bss_ == nullptr;
    if (plain) {
      QUIVER_RETURN_NOT_OK(AppendPlain(check_utf8));
    } else if (check_utf8) {
      QUIVER_RETURN_NOT_OK(CheckUtf8Values(scratch_.data(), n));
    }
    int64_t bytes = 0;
    // With the dictionary on, byte-array min/max (which depend only on the
    // set of values) are updated in the lookups below, once per distinct
    // value per page.
    const bool stats_per_entry = use_dict_ && options_.statistics && stats_by_value_;
    if (options_.statistics && arrow_.stats_kind == StatsKind::kFloat16) {
      // FLOAT16 (2-byte values): gathered, and reduced as one batch.
      halves_.resize(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) {
        std::memcpy(&halves_[static_cast<size_t>(k)], scratch_[static_cast<size_t>(k)].data(), 2);
      }
      page_stats_->Update(halves_.data(), n);
      bytes = 2 * n;
    } else if (options_.statistics && !stats_per_entry && keyed_stats_) {
      // Only a value whose sort key is not strictly inside the page's keys
      // so far can be a new min or max (random strings: nearly none after
      // the page's first few), and runs of equal values compare once.
      StartPageKeys();
      uint64_t lo = page_min_key_, hi = page_max_key_;
      std::string_view prev;
      bool has_prev = false;
      for (const auto& v : scratch_) {
        bytes += static_cast<int64_t>(v.size());
        const uint64_t key = SortKey(reinterpret_cast<const uint8_t*>(v.data()), static_cast<int64_t>(v.size()));
        if ((key > lo && key < hi) || (has_prev && SameBytes(v, prev))) continue;
        page_stats_->UpdateOne(v);
        lo = std::min(lo, key);
        hi = std::max(hi, key);
        prev = v;
        has_prev = true;
      }
      page_min_key_ = lo;
      page_max_key_ = hi;
    } else if (options_.statistics && !stats_per_entry) {
      // Runs of equal values (common in low-cardinality data) compare once.
      std::string_view prev;
      bool has_prev = false;
      for (const auto& v : scratch_) {
        bytes += static_cast<int64_t>(v.size());
        if (stats_by_value_ && has_prev && SameBytes(v, prev)) continue;
        page_stats_->UpdateOne(v);
        prev = v;
        has_prev = true;
      }
    } else {
      for (const auto& v : scratch_) bytes += static_cast<int64_t>(v.size());
    }
    page_byte_array_bytes_ += bytes;
    // With the dictionary on, values new to the memo table are hashed below.
    // (Also for a distinct count: the values written without the dictionary.)
    if (per_value_ && n > 0 && !use_dict_) {
      if (bloom && bloom_hashes_ != nullptr) {
        const size_t at = bloom_hashes_->size();
        bloom_hashes_->resize(at + static_cast<size_t>(n));
        BloomFilter::Hashes(scratch_.data(), n, bloom_hashes_->data() + at);
      }
      if (distinct_ != nullptr) QUIVER_RETURN_NOT_OK(distinct_->Add(scratch_.data(), n));
    }
    page_num_values_ += n;
    if (!use_dict_ && (delta_length_ != nullptr || delta_ != nullptr || bss_ != nullptr)) {
      for (const auto& v : scratch_) {
        if (delta_length_ != nullptr) {
          QUIVER_RETURN_NOT_OK(delta_length_->Put(v));
        } else if (delta_ != nullptr) {
          QUIVER_RETURN_NOT_OK(delta_->Put(v));
        } else {
          QUIVER_RETURN_NOT_OK(bss_->Put(v.data(), 1));
        }
        encoded_estimate_ += static_cast<int64_t>(v.size()) + (fixed_ ? 0 : 4);
      }
      return Status::OK();
    }
    if (plain) return Status::OK();  // (appended above)
    const size_t at = indices_.size();
    indices_.resize(at + static_cast<size_t>(n));
    int32_t* out = indices_.data() + at;
    if (stats_per_entry && memo_page_seen_.size() < static_cast<size_t>(memo_.size() + n)) {
      memo_page_seen_.resize(static_cast<size_t>(memo_.size() + n), 0);
    }
    // The page's statistics see memo entry m once per page.
    auto see = [&](int32_t m, std::string_view v) {
      if (stats_per_entry && memo_page_seen_[static_cast<size_t>(m)] != page_epoch_) {
        memo_page_seen_[static_cast<size_t>(m)] = page_epoch_;
        SeeKeyed(v);
      }
    };
    if (fixed_ && column_.type_length == 2) {
      // 2-byte values (FLOAT16): a direct table from each of the 65,536
      // values to its memo index (-1: not seen) instead of hashing; the memo
      // table still holds the dictionary, and a value missing from the
      // table is looked up there (it may have been inserted by another
      // path), so the table is only ever a cache of it.
      if (direct2_.empty()) direct2_.assign(65536, -1);
      for (const auto& v : scratch_) {
        uint16_t key;
        std::memcpy(&key, v.data(), 2);
        int32_t m = direct2_[key];
        if (m < 0) {
          bool inserted = false;
          auto index = memo_.GetOrInsert(v, &inserted);
          if (!index.ok()) {
            indices_.resize(at);
            return index.status();
          }
          m = direct2_[key] = *index;
          if (inserted && bloom && bloom_hashes_ != nullptr) bloom_hashes_->push_back(BloomFilter::Hash(v));
        }
        see(m, v);
        *out++ = m;
      }
      return Status::OK();
    }
    // Runs of equal values are looked up once.
    std::string_view prev;
    int32_t prev_index = -1;
    for (const auto& v : scratch_) {
      if (prev_index >= 0 && SameBytes(v, prev)) {
        *out++ = prev_index;
        continue;
      }
      bool inserted = false;
      auto index = memo_.GetOrInsert(v, &inserted);
      if (!index.ok()) {
        indices_.resize(at);
        return index.status();
      }
      prev_index = *index;
      if (inserted && bloom && bloom_hashes_ != nullptr) bloom_hashes_->push_back(BloomFilter::Hash(v));
      see(prev_index, v);
      prev = v;
      *out++ = prev_index;
    }
    return Status::OK();
  }

  // PLAIN: scratch_'s values appended to the page, one reservation, then
  // unchecked appends. Strings are checked for UTF-8 as they are copied
  // (PlainPutValues: the copy's read of the input is the check's), then, only if
  // some byte is not ASCII, by CheckUtf8Values; a failure leaves the page
  // as it was.
  Status AppendPlain(bool check_utf8) {
    int64_t bytes = 0;
    for (const auto& v : scratch_) bytes += static_cast<int64_t>(v.size());
    const int64_t n = static_cast<int64_t>(scratch_.size());
    const int64_t before = values_.size();
    QUIVER_RETURN_NOT_OK(values_.Reserve(bytes + (fixed_ ? 0 : 4 * n)));
    if (!check_utf8) {
      for (const auto& v : scratch_) {
        if (!fixed_) values_.UnsafeAppend<int32_t>(static_cast<int32_t>(v.size()));
        values_.UnsafeExtendFromSlice(v.data(), static_cast<int64_t>(v.size()));
      }
      return Status::OK();
    }
    bool ascii = true;
    uint8_t* out = PlainPutValues(scratch_.data(), n, !fixed_, values_.data() + before, &ascii);
    if (!ascii) QUIVER_RETURN_NOT_OK(CheckUtf8Values(scratch_.data(), n));
    values_.UnsafeSetSize(out - values_.data());
    return Status::OK();
  }

  bool use_dict_;
  bool fixed_;
  bool check_utf8_;
  bool stats_by_value_;
  internal::BinaryMemoTable memo_;
  std::vector<int32_t> direct2_;  // 2-byte values -> memo index (Consume)
  MutableBuffer values_;
  std::unique_ptr<DeltaLengthByteArrayEncoder> delta_length_;
  std::unique_ptr<DeltaByteArrayEncoder> delta_;
  std::unique_ptr<ByteStreamSplitEncoder> bss_;
  int64_t encoded_estimate_ = 0;
  std::vector<std::string_view> scratch_;
  std::vector<uint16_t> halves_;  // FLOAT16 values of one Consume, for the statistics
  std::vector<char> arena_;
  std::vector<int32_t> indices_;
  // Arrow dictionary leaves: per entry of the current leaf's dictionary,
  // its value (once resolved), its memo index (-1: not yet), and the page
  // whose statistics have seen it (page_epoch_ counts pages from 1).
  std::vector<std::string_view> entries_;
  std::vector<uint8_t> entry_ready_;
  std::vector<char> entry_arena_;
  std::vector<int32_t> remap_;
  std::vector<uint32_t> seen_;
  uint32_t page_epoch_ = 1;
  // Per memo entry, the page whose statistics have seen it (Consume).
  std::vector<uint32_t> memo_page_seen_;
  // The Arrow dictionary written as is (BeginLeaf), and whether the
  // current call writes its indices as is.
  ArrayDataPtr direct_dictionary_;
  int64_t direct_plain_bytes_ = 0;  // its PLAIN size
  // Its entries' first 8 bytes as big-endian integers (zero padded): a < b
  // between keys means a < b between the values (unsigned byte order), so
  // only an entry whose key is at or beyond the page's least or greatest
  // key so far can change the page's min or max. Empty: not used.
  std::vector<uint64_t> direct_keys_;
  // With a bloom filter: the direct dictionary's entries' filter hashes,
  // and whether each is in the filter yet (a chunk's entries once each).
  std::unique_ptr<uint64_t[]> direct_bloom_hashes_;
  // With a bloom filter or a distinct count: whether each entry is used in
  // the chunk yet (empty otherwise).
  std::vector<uint8_t> direct_used_;
  // The values written without the dictionary (count_distinct only), and
  // whether the memo table's values were all written dictionary-encoded
  // (not when it holds an Arrow dictionary with a repeated value: then it
  // is only the fallback's dictionary page).
  std::unique_ptr<BytesDistinctCounter> distinct_;
  bool memo_counts_ = true;
  // The direct dictionary's PLAIN body, built by CheckDirectDictionary
  // (prebuilt_dictionary_bytes), until WriteDictionary gives it away.
  mutable MutableBuffer prebuilt_;
  // The smallest and largest sort keys of the values the current page's
  // statistics have seen (through the key filters above; only some of
  // them): a value whose key is strictly between the two is neither the
  // page's min nor its max, in unsigned byte order.
  uint64_t page_min_key_ = 0, page_max_key_ = 0;
  uint32_t keys_epoch_ = 0;
  // Byte-array statistics in unsigned byte order (not FLOAT16's, not the
  // signed order of decimals): the sort-key filter applies.
  bool keyed_stats_ = false;

  // Starts the page's keys on its first use in the page.
  void StartPageKeys() {
    if (keys_epoch_ != page_epoch_) {
      keys_epoch_ = page_epoch_;
      page_min_key_ = ~uint64_t{0};
      page_max_key_ = 0;
    }
  }
  // page_stats_->UpdateOne(v), skipped when the sort keys say v can change
  // neither the min nor the max (keyed_stats_ only).
  void SeeKeyed(std::string_view v) {
    if (!keyed_stats_) {
      page_stats_->UpdateOne(v);
      return;
    }
    SeeWithKey(v, SortKey(reinterpret_cast<const uint8_t*>(v.data()), static_cast<int64_t>(v.size())));
  }
  // SeeKeyed of a value whose sort key is `key` (keyed_stats_ only).
  void SeeWithKey(std::string_view v, uint64_t key) {
    StartPageKeys();
    if (key > page_min_key_ && key < page_max_key_) return;
    page_stats_->UpdateOne(v);
    page_min_key_ = std::min(page_min_key_, key);
    page_max_key_ = std::max(page_max_key_, key);
  }
  bool direct_ = false;
};

// --- Null columns -----------------------------------------------------------

class NullValueWriter final : public ValueWriter {
 public:
  NullValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                  const ValueWriterOptions& options)
      : ValueWriter(column, arrow, options) {}
  Status Append(int64_t, int64_t) override { return Status::OK(); }
  int64_t EstimatedPageSize() const override { return 0; }
  Result<Encoding> FlushPage(MutableBuffer*) override {
    ResetPage();
    return Encoding::kPlain;
  }
};

}  // namespace

Status ValueWriter::WriteDictionaryTo(io::OutputStream* stream, MutableBuffer* staging) const {
  staging->Clear();
  QUIVER_RETURN_NOT_OK(WriteDictionary(staging));
  QUIVER_RETURN_NOT_OK(stream->Write(staging->data(), staging->size()));
  staging->Clear();
  return Status::OK();
}

Result<std::unique_ptr<ValueWriter>> ValueWriter::Make(const ColumnDescriptor& column,
                                                       const ArrowLeaf& arrow,
                                                       const ValueWriterOptions& options) {
  std::unique_ptr<ValueWriter> w;
  ValueWriterOptions o = options;
  if (arrow.value_kind == ValueKind::kNull || arrow.value_kind == ValueKind::kBool) {
    o.dictionary = false;  // as Arrow C++: booleans and null columns never use a dictionary
  }
  if (arrow.value_kind == ValueKind::kNull) {
    w = std::make_unique<NullValueWriter>(column, arrow, o);
  } else {
    switch (column.physical_type) {
      case format::Type::kBoolean: w = std::make_unique<BooleanValueWriter>(column, arrow, o); break;
      case format::Type::kInt32: w = std::make_unique<FixedValueWriter<int32_t>>(column, arrow, o); break;
      case format::Type::kInt64: w = std::make_unique<FixedValueWriter<int64_t>>(column, arrow, o); break;
      case format::Type::kFloat: w = std::make_unique<FixedValueWriter<float>>(column, arrow, o); break;
      case format::Type::kDouble: w = std::make_unique<FixedValueWriter<double>>(column, arrow, o); break;
      case format::Type::kByteArray:
      case format::Type::kFixedLenByteArray:
        w = std::make_unique<BytesValueWriter>(column, arrow, o);
        break;
      default:
        return Status::NotImplemented("column '", column.path, "': physical type ",
                                      format::EnumName(column.physical_type), " is not written");
    }
  }
  w->page_stats_ = ColumnStatistics::Make(arrow.stats_kind, arrow.is_string, column.type_length);
  return w;
}

}  // namespace quiver::parquet
