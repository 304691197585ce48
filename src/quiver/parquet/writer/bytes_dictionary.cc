// BytesValueWriter's dictionary strategies (bytes_value_writer_internal.h):
// Arrow dictionary leaves written with their dictionary as the Parquet one
// (checked once per chunk, indices passed through) or entry by entry through
// the memo table, the fallback's gathering, the dictionary page (whole,
// prebuilt, or streamed to the sink) and the chunk's distinct count.
#include <cstring>
#include <memory>
#include <numeric>
#include <type_traits>

#include "quiver/io/interfaces.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/encoding/plain.h"
#include "quiver/parquet/writer/bytes_value_writer_internal.h"

namespace quiver::parquet {


// The values written dictionary-encoded (the Arrow dictionary's entries
// the rows used, or the memo table) joined with those written without it.
Result<int64_t> BytesValueWriter::FinishDistinctCount() {
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
Result<bool> BytesValueWriter::BeginLeaf() {
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

Status BytesValueWriter::WriteDictionaryTo(io::OutputStream* stream, MutableBuffer* staging) const {
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
Result<bool> BytesValueWriter::CheckDirectDictionary(const ArrayData& dict) {
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

Status BytesValueWriter::WriteDictionary(MutableBuffer* out) const {
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

// The Arrow dictionary written as is, PLAIN (a length and the bytes per
// entry), from its buffers: into `out` whole (stream null); into a
// stream that builds in memory (BeginInPlace), straight where the page
// stays (the bytes copied once, not into `out` and again: string_dictionary
// into a quiver.BufferOutputStream, 0.96 of the CPU time); else to
// `stream` through `out` in pieces of about 64 KiB, an entry larger than
// that written from the dictionary directly.
inline Status BytesValueWriter::PutDirectDictionary(MutableBuffer* out, io::OutputStream* stream) const {
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

// Equal values (both dictionaries are string/binary arrays of the
// column's value kind; `a` has no nulls).
inline bool BytesValueWriter::SameDictionary(const ArrayData& a, const ArrayData& b) {
  if (&a == &b) return true;
  if (a.length != b.length || b.GetNullCount() > 0) return false;
  std::vector<char> unused;
  for (int64_t k = 0; k < a.length; ++k) {
    std::string_view x, y;
    if (!ValueAt(a, k, &unused, &x).ok() || !ValueAt(b, k, &unused, &y).ok() || x != y) return false;
  }
  return true;
}

// The value of Arrow dictionary entry k (validated once per leaf: not
// null, UTF-8; bloom-hashed once).
inline Status BytesValueWriter::Entry(int64_t k, int64_t slot, std::string_view* out) {
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
Status BytesValueWriter::AppendDictionaryLeaf(int64_t start, int64_t end) {
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
inline Status BytesValueWriter::AppendDirectIndices(const ArrayData& dict, const Offset* o, int64_t start, int64_t end) {
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

}  // namespace quiver::parquet
