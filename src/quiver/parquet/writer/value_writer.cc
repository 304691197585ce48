#include "quiver/parquet/writer/value_writer.h"

#include <bit>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include "quiver/array/memo_table_internal.h"
#include "quiver/array/validate.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/encoding/byte_stream_split.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/delta_byte_array.h"
#include "quiver/parquet/encoding/delta_length_byte_array.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet {

namespace {

using format::Encoding;

// Calls f(i) for each valid slot i in [start, end) of `d`.
template <typename F>
void ForEachValid(const ArrayData& d, int64_t start, int64_t end, F&& f) {
  const uint8_t* valid = d.validity();
  if (valid == nullptr) {
    for (int64_t i = start; i < end; ++i) f(i);
    return;
  }
  bitmap::VisitSetBitRuns(valid, d.offset + start, end - start, [&](int64_t pos, int64_t len) {
    for (int64_t i = start + pos; i < start + pos + len; ++i) f(i);
  });
}

int64_t DictionaryIndex(const ArrayData& d, int64_t i) {
  switch (TypeAs<DictionaryType>(*d.type).index_type()->id()) {
    case Type::kInt8: return d.GetValues<int8_t>(1)[i];
    case Type::kUInt8: return d.GetValues<uint8_t>(1)[i];
    case Type::kInt16: return d.GetValues<int16_t>(1)[i];
    case Type::kUInt16: return d.GetValues<uint16_t>(1)[i];
    case Type::kInt32: return d.GetValues<int32_t>(1)[i];
    case Type::kUInt32: return d.GetValues<uint32_t>(1)[i];
    case Type::kInt64: return d.GetValues<int64_t>(1)[i];
    default: return static_cast<int64_t>(d.GetValues<uint64_t>(1)[i]);
  }
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

template <typename PhysT>
PhysT LoadFixed(ValueKind kind, const ArrayData& d, int64_t i) {
  if constexpr (std::is_same_v<PhysT, int32_t>) {
    switch (kind) {
      case ValueKind::kInt8: return d.GetValues<int8_t>(1)[i];
      case ValueKind::kUInt8: return d.GetValues<uint8_t>(1)[i];
      case ValueKind::kInt16: return d.GetValues<int16_t>(1)[i];
      case ValueKind::kUInt16: return d.GetValues<uint16_t>(1)[i];
      case ValueKind::kTime32Seconds:
        return static_cast<int32_t>(static_cast<uint32_t>(d.GetValues<int32_t>(1)[i]) * 1000u);
      case ValueKind::kDate64:
        return static_cast<int32_t>(d.GetValues<int64_t>(1)[i] / 86400000);
      case ValueKind::kDecimalToInt32: {
        const int w = d.type->byte_width();
        return LowBytes<int32_t>(d.buffers[1]->data() + (d.offset + i) * w);
      }
      default: return d.GetValues<int32_t>(1)[i];
    }
  } else if constexpr (std::is_same_v<PhysT, int64_t>) {
    switch (kind) {
      case ValueKind::kSecondsToMillis64:
        return static_cast<int64_t>(static_cast<uint64_t>(d.GetValues<int64_t>(1)[i]) * 1000u);
      case ValueKind::kDecimalToInt64: {
        const int w = d.type->byte_width();
        return LowBytes<int64_t>(d.buffers[1]->data() + (d.offset + i) * w);
      }
      default: return d.GetValues<int64_t>(1)[i];
    }
  } else {
    return d.GetValues<PhysT>(1)[i];
  }
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
  FixedValueWriter(const ColumnDescriptor& column, const ValueWriterOptions& options)
      : ValueWriter(column, options), memo_(options.pool), values_(options.pool) {
    use_dict_ = options.dictionary;
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
    const ValueKind kind = column_.value_kind;
    if (!column_.dictionary) {
      const ArrayData& d = *leaf_;
      if (kind == ValueKind::kInt32 || kind == ValueKind::kInt64 || kind == ValueKind::kFloat ||
          kind == ValueKind::kDouble) {
        const PhysT* raw = d.GetValues<PhysT>(1);
        const uint8_t* valid = d.validity();
        if (valid == nullptr) {
          scratch_.assign(raw + start, raw + end);
        } else {
          bitmap::VisitSetBitRuns(valid, d.offset + start, end - start,
                                  [&](int64_t pos, int64_t len) {
                                    scratch_.insert(scratch_.end(), raw + start + pos,
                                                    raw + start + pos + len);
                                  });
        }
      } else {
        ForEachValid(d, start, end, [&](int64_t i) { scratch_.push_back(LoadFixed<PhysT>(kind, d, i)); });
      }
      return Consume(nullptr);
    }
    // Arrow dictionary leaf: resolve indices to dictionary values.
    const ArrayData& d = *leaf_;
    const ArrayData& dict = *d.dictionary;
    dict_indices_.clear();
    Status st;
    ForEachValid(d, start, end, [&](int64_t i) {
      int64_t k = DictionaryIndex(d, i);
      if (k < 0 || k >= dict.length || !dict.IsValid(k)) {
        if (st.ok()) {
          st = Status::Invalid("column '", column_.path, "': dictionary index ", k, " at slot ", i,
                               " is out of range or refers to a null dictionary value");
        }
        return;
      }
      dict_indices_.push_back(k);
      scratch_.push_back(LoadFixed<PhysT>(kind, dict, k));
    });
    QUIVER_RETURN_NOT_OK(st);
    return Consume(&dict_indices_);
  }

  int64_t EstimatedPageSize() const override {
    if (use_dict_) {
      int bw = memo_.size() <= 1 ? 1 : std::bit_width(static_cast<uint32_t>(memo_.size() - 1));
      return 1 + static_cast<int64_t>(indices_.size()) * bw / 8;
    }
    if (delta_ != nullptr) return delta_->EstimatedSize();
    if (bss_ != nullptr) return page_num_values_ * static_cast<int64_t>(sizeof(PhysT));
    return values_.size();
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
    } else {
      QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(values_.data(), values_.size()));
      values_.Clear();
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
  void FallBack() override { use_dict_ = false; }
  bool has_dictionary_page() const override { return options_.dictionary; }
  Status WriteDictionary(MutableBuffer* out) const override {
    const int64_t n = memo_.size();
    QUIVER_RETURN_NOT_OK(out->Reserve(n * static_cast<int64_t>(sizeof(PhysT))));
    for (int32_t i = 0; i < n; ++i) out->UnsafeAppend<PhysT>(std::bit_cast<PhysT>(memo_.value(i)));
    return Status::OK();
  }

 private:
  void OnNewLeaf() override { remap_.clear(); }

  // Feeds scratch_ (valid values of one Append) to statistics and encoders.
  // `arrow_indices`: the Arrow dictionary index of each value, for the
  // index -> memo index cache (no re-hashing of repeated values).
  Status Consume(const std::vector<int64_t>* arrow_indices) {
    const int64_t n = static_cast<int64_t>(scratch_.size());
    if (options_.statistics && n > 0) page_stats_->Update(scratch_.data(), n);
    if (bloom_hashes_ != nullptr && n > 0) {
      const size_t at = bloom_hashes_->size();
      bloom_hashes_->resize(at + static_cast<size_t>(n));
      BloomFilter::Hashes(scratch_.data(), n, bloom_hashes_->data() + at);
    }
    page_num_values_ += n;
    if (!use_dict_) {
      if constexpr (std::is_same_v<PhysT, int32_t> || std::is_same_v<PhysT, int64_t>) {
        if (delta_ != nullptr) return delta_->Put(scratch_.data(), n);
      }
      if (bss_ != nullptr) return bss_->Put(scratch_.data(), n);
      return values_.ExtendFromSlice(scratch_.data(), n * static_cast<int64_t>(sizeof(PhysT)));
    }
    indices_.reserve(indices_.size() + static_cast<size_t>(n));
    if (arrow_indices != nullptr) {
      if (remap_.size() < static_cast<size_t>(leaf_->dictionary->length)) {
        remap_.assign(static_cast<size_t>(leaf_->dictionary->length), -1);
      }
      for (int64_t j = 0; j < n; ++j) {
        int32_t& slot = remap_[static_cast<size_t>((*arrow_indices)[static_cast<size_t>(j)])];
        if (slot < 0) {
          QUIVER_ASSIGN_OR_RAISE(
              slot, memo_.GetOrInsert(std::bit_cast<MemoKey<PhysT>>(scratch_[static_cast<size_t>(j)])));
        }
        indices_.push_back(slot);
      }
      return Status::OK();
    }
    for (int64_t j = 0; j < n; ++j) {
      QUIVER_ASSIGN_OR_RAISE(int32_t idx,
                             memo_.GetOrInsert(std::bit_cast<MemoKey<PhysT>>(scratch_[static_cast<size_t>(j)])));
      indices_.push_back(idx);
    }
    return Status::OK();
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
  MutableBuffer values_;
  std::unique_ptr<ByteStreamSplitEncoder> bss_;
  std::unique_ptr<DeltaBinaryPackedEncoder<
      std::conditional_t<std::is_same_v<PhysT, int64_t>, int64_t, int32_t>>>
      delta_;
  std::vector<PhysT> scratch_;
  std::vector<int32_t> indices_;
  std::vector<int64_t> dict_indices_;
  std::vector<int32_t> remap_;
};

// --- Booleans ---------------------------------------------------------------

class BooleanValueWriter final : public ValueWriter {
 public:
  BooleanValueWriter(const ColumnDescriptor& column, const ValueWriterOptions& options)
      : ValueWriter(column, options) {}

  Status Append(int64_t start, int64_t end) override {
    const ArrayData& d = *leaf_;
    const uint8_t* bits = d.buffers[1]->data();
    const size_t before = page_values_.size();
    ForEachValid(d, start, end, [&](int64_t i) {
      page_values_.push_back(bit_util::GetBit(bits, d.offset + i) ? 1 : 0);
    });
    const int64_t n = static_cast<int64_t>(page_values_.size() - before);
    if (options_.statistics && n > 0) page_stats_->Update(page_values_.data() + before, n);
    page_num_values_ += n;
    return Status::OK();
  }

  int64_t EstimatedPageSize() const override {
    return static_cast<int64_t>(page_values_.size() + 7) / 8;
  }

  Result<Encoding> FlushPage(MutableBuffer* out) override {
    Encoding enc;
    if (options_.v2_pages || options_.encoding == Encoding::kRle) {
      // RLE with a 4-byte length prefix (Encodings.md, booleans).
      RleBitPackedEncoder rle(1, out, /*length_prefix=*/true);
      QUIVER_RETURN_NOT_OK(rle.PutBatch(page_values_.data(), static_cast<int64_t>(page_values_.size())));
      QUIVER_RETURN_NOT_OK(rle.Flush().status());
      enc = Encoding::kRle;
    } else {
      const int64_t n = static_cast<int64_t>(page_values_.size());
      const int64_t start = out->size();
      QUIVER_RETURN_NOT_OK(out->Resize(start + bit_util::BytesForBits(n), 0));
      uint8_t* dst = out->data() + start;
      for (int64_t i = 0; i < n; ++i) {
        if (page_values_[static_cast<size_t>(i)]) bit_util::SetBit(dst, i);
      }
      enc = Encoding::kPlain;
    }
    page_values_.clear();
    ResetPage();
    return enc;
  }

 private:
  std::vector<uint8_t> page_values_;
};

// --- Byte arrays and fixed-length byte arrays -------------------------------

class BytesValueWriter final : public ValueWriter {
 public:
  BytesValueWriter(const ColumnDescriptor& column, const ValueWriterOptions& options)
      : ValueWriter(column, options), memo_(options.pool), values_(options.pool) {
    use_dict_ = options.dictionary;
    fixed_ = column.physical_type == format::Type::kFixedLenByteArray;
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
    if (column_.value_kind == ValueKind::kDecimalToFlba) {
      arena_.reserve(static_cast<size_t>((end - start) * column_.type_length));
    }
    const ArrayData& d = *leaf_;
    if (!column_.dictionary) {
      QUIVER_RETURN_NOT_OK(Gather(d, start, end, nullptr));
      return Consume(nullptr);
    }
    const ArrayData& dict = *d.dictionary;
    dict_indices_.clear();
    Status st;
    ForEachValid(d, start, end, [&](int64_t i) {
      int64_t k = DictionaryIndex(d, i);
      if (k < 0 || k >= dict.length || !dict.IsValid(k)) {
        if (st.ok()) {
          st = Status::Invalid("column '", column_.path, "': dictionary index ", k, " at slot ", i,
                               " is out of range or refers to a null dictionary value");
        }
        return;
      }
      dict_indices_.push_back(k);
    });
    QUIVER_RETURN_NOT_OK(st);
    for (int64_t k : dict_indices_) QUIVER_RETURN_NOT_OK(GatherOne(dict, k));
    return Consume(&dict_indices_);
  }

  int64_t EstimatedPageSize() const override {
    if (use_dict_) {
      int bw = memo_.size() <= 1 ? 1 : std::bit_width(static_cast<uint32_t>(memo_.size() - 1));
      return 1 + static_cast<int64_t>(indices_.size()) * bw / 8;
    }
    if (delta_length_ != nullptr || delta_ != nullptr || bss_ != nullptr) return encoded_estimate_;
    return values_.size();
  }

  Result<Encoding> FlushPage(MutableBuffer* out) override {
    Encoding enc;
    encoded_estimate_ = 0;
    if (use_dict_) {
      QUIVER_RETURN_NOT_OK(FixedValueWriter<int32_t>::EncodeIndices(indices_, memo_.size(), out));
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
      QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(values_.data(), values_.size()));
      values_.Clear();
      enc = Encoding::kPlain;
    }
    ResetPage();
    return enc;
  }

  bool dictionary_active() const override { return use_dict_; }
  int64_t dictionary_size() const override { return memo_.size(); }
  int64_t dictionary_plain_bytes() const override {
    return memo_.data_length() + (fixed_ ? 0 : 4 * static_cast<int64_t>(memo_.size()));
  }
  void FallBack() override { use_dict_ = false; }
  bool has_dictionary_page() const override { return options_.dictionary; }
  Status WriteDictionary(MutableBuffer* out) const override {
    for (int32_t i = 0; i < memo_.size(); ++i) {
      std::string_view v = memo_.value(i);
      if (!fixed_) QUIVER_RETURN_NOT_OK(out->Append<int32_t>(static_cast<int32_t>(v.size())));
      QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(v.data(), static_cast<int64_t>(v.size())));
    }
    return Status::OK();
  }

 private:
  void OnNewLeaf() override { remap_.clear(); }

  Status Gather(const ArrayData& d, int64_t start, int64_t end, void*) {
    Status st;
    ForEachValid(d, start, end, [&](int64_t i) {
      if (st.ok()) st = GatherOne(d, i);
    });
    return st;
  }

  // Appends the physical value of slot i of `d` to scratch_.
  Status GatherOne(const ArrayData& d, int64_t i) {
    switch (column_.value_kind) {
      case ValueKind::kBinary: {
        const int32_t* o = d.GetValues<int32_t>(1);
        scratch_.emplace_back(reinterpret_cast<const char*>(d.buffers[2]->data()) + o[i],
                              static_cast<size_t>(o[i + 1] - o[i]));
        break;
      }
      case ValueKind::kLargeBinary: {
        const int64_t* o = d.GetValues<int64_t>(1);
        if (o[i + 1] - o[i] > INT32_MAX) {
          return Status::Invalid("column '", column_.path, "': value at slot ", i, " is ",
                                 o[i + 1] - o[i], " bytes; Parquet BYTE_ARRAY values are at most 2 GiB");
        }
        scratch_.emplace_back(reinterpret_cast<const char*>(d.buffers[2]->data()) + o[i],
                              static_cast<size_t>(o[i + 1] - o[i]));
        break;
      }
      case ValueKind::kBinaryView: {
        const uint8_t* view = d.buffers[1]->data() + (d.offset + i) * 16;
        int32_t len;
        std::memcpy(&len, view, 4);
        if (len <= 12) {
          scratch_.emplace_back(reinterpret_cast<const char*>(view + 4), static_cast<size_t>(len));
        } else {
          int32_t buf, off;
          std::memcpy(&buf, view + 8, 4);
          std::memcpy(&off, view + 12, 4);
          scratch_.emplace_back(reinterpret_cast<const char*>(d.buffers[static_cast<size_t>(2 + buf)]->data()) + off,
                                static_cast<size_t>(len));
        }
        break;
      }
      case ValueKind::kFixedSizeBinary:
      case ValueKind::kFloat16: {
        const int64_t w = column_.type_length;
        scratch_.emplace_back(reinterpret_cast<const char*>(d.buffers[1]->data()) + (d.offset + i) * w,
                              static_cast<size_t>(w));
        break;
      }
      case ValueKind::kDecimalToFlba: {
        // Little-endian two's complement (Arrow) -> big-endian (Parquet),
        // keeping the low type_length bytes.
        const int64_t w = d.type->byte_width();
        const uint8_t* src = d.buffers[1]->data() + (d.offset + i) * w;
        // arena_ was reserved for the whole Append: pointers into it are stable.
        const size_t at = arena_.size();
        for (int32_t b = column_.type_length - 1; b >= 0; --b) arena_.push_back(static_cast<char>(src[b]));
        scratch_.emplace_back(arena_.data() + at, static_cast<size_t>(column_.type_length));
        break;
      }
      default:
        return Status::NotImplemented("column '", column_.path, "': unexpected value kind");
    }
    return Status::OK();
  }

  Status Consume(const std::vector<int64_t>* arrow_indices) {
    const int64_t n = static_cast<int64_t>(scratch_.size());
    if (column_.is_string && options_.validate_utf8) {
      for (int64_t j = 0; j < n; ++j) {
        const auto& v = scratch_[static_cast<size_t>(j)];
        int64_t bad = FindInvalidUtf8(reinterpret_cast<const uint8_t*>(v.data()), static_cast<int64_t>(v.size()));
        if (bad >= 0) {
          return Status::Invalid("column '", column_.path, "': invalid UTF-8 at byte ", bad,
                                 " of a string value (validate_utf8=False skips this check)");
        }
      }
    }
    for (const auto& v : scratch_) {
      if (options_.statistics) page_stats_->UpdateOne(v);
      page_byte_array_bytes_ += static_cast<int64_t>(v.size());
    }
    if (bloom_hashes_ != nullptr && n > 0) {
      const size_t at = bloom_hashes_->size();
      bloom_hashes_->resize(at + static_cast<size_t>(n));
      BloomFilter::Hashes(scratch_.data(), n, bloom_hashes_->data() + at);
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
    if (!use_dict_) {
      for (const auto& v : scratch_) {
        if (!fixed_) QUIVER_RETURN_NOT_OK(values_.Append<int32_t>(static_cast<int32_t>(v.size())));
        QUIVER_RETURN_NOT_OK(values_.ExtendFromSlice(v.data(), static_cast<int64_t>(v.size())));
      }
      return Status::OK();
    }
    if (arrow_indices != nullptr) {
      if (remap_.size() < static_cast<size_t>(leaf_->dictionary->length)) {
        remap_.assign(static_cast<size_t>(leaf_->dictionary->length), -1);
      }
      for (int64_t j = 0; j < n; ++j) {
        int32_t& slot = remap_[static_cast<size_t>((*arrow_indices)[static_cast<size_t>(j)])];
        if (slot < 0) {
          QUIVER_ASSIGN_OR_RAISE(slot, memo_.GetOrInsert(scratch_[static_cast<size_t>(j)]));
        }
        indices_.push_back(slot);
      }
      return Status::OK();
    }
    for (const auto& v : scratch_) {
      QUIVER_ASSIGN_OR_RAISE(int32_t idx, memo_.GetOrInsert(v));
      indices_.push_back(idx);
    }
    return Status::OK();
  }

  bool use_dict_;
  bool fixed_;
  internal::BinaryMemoTable memo_;
  MutableBuffer values_;
  std::unique_ptr<DeltaLengthByteArrayEncoder> delta_length_;
  std::unique_ptr<DeltaByteArrayEncoder> delta_;
  std::unique_ptr<ByteStreamSplitEncoder> bss_;
  int64_t encoded_estimate_ = 0;
  std::vector<std::string_view> scratch_;
  std::vector<char> arena_;
  std::vector<int32_t> indices_;
  std::vector<int64_t> dict_indices_;
  std::vector<int32_t> remap_;
};

// --- Null columns -----------------------------------------------------------

class NullValueWriter final : public ValueWriter {
 public:
  NullValueWriter(const ColumnDescriptor& column, const ValueWriterOptions& options)
      : ValueWriter(column, options) {}
  Status Append(int64_t, int64_t) override { return Status::OK(); }
  int64_t EstimatedPageSize() const override { return 0; }
  Result<Encoding> FlushPage(MutableBuffer*) override {
    ResetPage();
    return Encoding::kPlain;
  }
};

}  // namespace

Result<std::unique_ptr<ValueWriter>> ValueWriter::Make(const ColumnDescriptor& column,
                                                       const ValueWriterOptions& options) {
  std::unique_ptr<ValueWriter> w;
  ValueWriterOptions o = options;
  if (column.value_kind == ValueKind::kNull || column.value_kind == ValueKind::kBool) {
    o.dictionary = false;  // as Arrow C++: booleans and null columns never use a dictionary
  }
  if (column.value_kind == ValueKind::kNull) {
    w = std::make_unique<NullValueWriter>(column, o);
  } else {
    switch (column.physical_type) {
      case format::Type::kBoolean: w = std::make_unique<BooleanValueWriter>(column, o); break;
      case format::Type::kInt32: w = std::make_unique<FixedValueWriter<int32_t>>(column, o); break;
      case format::Type::kInt64: w = std::make_unique<FixedValueWriter<int64_t>>(column, o); break;
      case format::Type::kFloat: w = std::make_unique<FixedValueWriter<float>>(column, o); break;
      case format::Type::kDouble: w = std::make_unique<FixedValueWriter<double>>(column, o); break;
      case format::Type::kByteArray:
      case format::Type::kFixedLenByteArray:
        w = std::make_unique<BytesValueWriter>(column, o);
        break;
      default:
        return Status::NotImplemented("column '", column.path, "': physical type ",
                                      format::EnumName(column.physical_type), " is not written");
    }
  }
  w->page_stats_ = ColumnStatistics::Make(column.stats_kind, column.is_string, column.type_length);
  return w;
}

}  // namespace quiver::parquet
