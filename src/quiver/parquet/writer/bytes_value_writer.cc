// BytesValueWriter's plain half (bytes_value_writer_internal.h): the values
// of a leaf gathered as views, checked for UTF-8, fed to the statistics, the
// bloom filter and the encoder or the memo table.
#include <cstring>
#include <memory>

#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/encoding/plain.h"
#include "quiver/parquet/writer/bytes_value_writer_internal.h"

namespace quiver::parquet {

BytesValueWriter::BytesValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
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
  if (options.encoding == format::Encoding::kDeltaLengthByteArray) {
    delta_length_ = std::make_unique<DeltaLengthByteArrayEncoder>(options.pool);
  } else if (options.encoding == format::Encoding::kDeltaByteArray) {
    delta_ = std::make_unique<DeltaByteArrayEncoder>(options.pool);
  } else if (options.encoding == format::Encoding::kByteStreamSplit && fixed_) {
    bss_ = std::make_unique<ByteStreamSplitEncoder>(column.type_length, options.pool);
  }
}

Status BytesValueWriter::Append(int64_t start, int64_t end) {
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

int64_t BytesValueWriter::EstimatedPageSize() const {
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

Result<format::Encoding> BytesValueWriter::FlushPage(MutableBuffer* out) {
  format::Encoding enc;
  encoded_estimate_ = 0;
  if (use_dict_) {
    QUIVER_RETURN_NOT_OK(
        EncodeDictionaryIndices(indices_, static_cast<int32_t>(dictionary_size()), out));
    indices_.clear();
    enc = format::Encoding::kRleDictionary;
  } else if (delta_length_ != nullptr) {
    QUIVER_RETURN_NOT_OK(delta_length_->Flush(out).status());
    enc = format::Encoding::kDeltaLengthByteArray;
  } else if (delta_ != nullptr) {
    QUIVER_RETURN_NOT_OK(delta_->Flush(out).status());
    enc = format::Encoding::kDeltaByteArray;
  } else if (bss_ != nullptr) {
    QUIVER_RETURN_NOT_OK(bss_->Flush(out).status());
    enc = format::Encoding::kByteStreamSplit;
  } else {
    QUIVER_RETURN_NOT_OK(TakePlain(&values_, out));
    enc = format::Encoding::kPlain;
  }
  ResetPage();
  ++page_epoch_;
  return enc;
}

// Binary / large binary leaves: the values of the valid slots, read from
// the offsets directly (Consume checks strings for UTF-8).
template <typename Offset>
inline Status BytesValueWriter::GatherOffsets(const ArrayData& d, int64_t start, int64_t end) {
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
inline Status BytesValueWriter::CheckUtf8Values(const std::string_view* v, int64_t n) const {
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

// Appends the physical value of slot i of `d` to scratch_ (arena_ was
// reserved for the whole Append: pointers into it are stable).
inline Status BytesValueWriter::GatherOne(const ArrayData& d, int64_t i) {
  std::string_view v;
  QUIVER_RETURN_NOT_OK(ValueAt(d, i, &arena_, &v));
  scratch_.push_back(v);
  return Status::OK();
}

// Feeds scratch_ (the valid values of one Append) to UTF-8 validation (if
// `check_utf8`), statistics, the bloom filter (if `bloom`) and the
// encoder.
Status BytesValueWriter::Consume(bool check_utf8, bool bloom) {
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
inline Status BytesValueWriter::AppendPlain(bool check_utf8) {
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

std::unique_ptr<ValueWriter> MakeBytesValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                                                  const ValueWriterOptions& options) {
  return std::make_unique<BytesValueWriter>(column, arrow, options);
}

}  // namespace quiver::parquet
