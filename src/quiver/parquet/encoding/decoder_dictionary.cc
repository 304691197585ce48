// PLAIN_DICTIONARY and RLE_DICTIONARY behind the decoder interface
// (decoder_internal.h): Encodings.md, "Dictionary Encoding". The dictionary page's
// values are PLAIN (decoded once by plain.h's decoders and copied into the
// decoder, byte arrays in Arrow's layout: dictionary_buffers()); each data
// page is a bit-width byte and the indices as an
// RLE/bit-packed hybrid (dictionary_indices.h). Indices are unpacked
// kScratchValues at a time, checked against the dictionary size in one pass
// (a max, then a search for the culprit only if it is out of range), then
// mapped in a loop without checks.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "quiver/parquet/encoding/big_endian_decimal.h"
#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/encoding/dictionary_indices.h"

namespace quiver::parquet::internal {
namespace {

// The index handling every dictionary decoder shares, over the typed
// interface Base.
template <typename Base>
class DictionaryDecoderBase : public Base {
 public:
  using Base::Base;

  Status StartPage(int64_t, const uint8_t* data, int64_t size) override {
    position_ = 0;
    indices_ = RleBitPackedDecoder();
    if (!has_dictionary_) {
      return Status::Invalid(EnumName(this->encoding()), " ", EnumName(this->physical_type()),
                             " page: no dictionary page came before it");
    }
    auto indices = MakeDictionaryIndexDecoder(data, size);
    if (!indices.ok()) {
      return indices.status().WithContext(EnumName(this->encoding()), " page: ");
    }
    indices_ = *std::move(indices);
    return Status::OK();
  }

  Status DecodeIndices(int64_t n, int32_t* out) override {
    // Straight into `out` (int32 and uint32 may alias), checked in one pass.
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    if (n == 0) return Status::OK();
    auto* indices = reinterpret_cast<uint32_t*>(out);
    const int64_t got = indices_.GetBatch(indices, n);
    if (got != n) return Fail(n, got);
    if (QUIVER_PREDICT_FALSE(MaxIndex(indices, n) >= dictionary_size_)) {
      return OutOfRange(indices);
    }
    position_ += n;
    this->values_left_ -= n;
    return Status::OK();
  }

  // The indices passed over by the RLE/bit-packed skip, not unpacked nor
  // checked against the dictionary (an index out of range is an error
  // where it is decoded).
  Status Skip(int64_t n) override {
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    const int64_t got = indices_.Skip(n);
    if (got != n) return Fail(n, got);
    position_ += n;
    this->values_left_ -= n;
    return Status::OK();
  }

 protected:
  // Before SetDictionary() decodes the new dictionary.
  void StartDictionary() { has_dictionary_ = false; }
  // After it, with its size.
  void EndDictionary(int64_t size) {
    dictionary_size_ = size;
    has_dictionary_ = true;
  }

  // ForEachBatch over the taken values of runs (ValueRun: skip, then
  // take): the skips by the RLE/bit-packed skip, the taken indices of many
  // runs gathered into one batch, checked and mapped together.
  template <typename Map>
  Status ForEachRunsBatch(const ValueRun* runs, int64_t num_runs, Map&& map) {
    int64_t total = 0;
    for (int64_t r = 0; r < num_runs; ++r) total += runs[r].skip + runs[r].take;
    QUIVER_RETURN_NOT_OK(this->CheckWanted(total));
    int64_t filled = 0;  // indices in scratch_
    int64_t done = 0;    // taken values mapped
    int64_t passed = 0;  // values of the runs passed (skipped or gathered)
    run_starts_.clear();  // (scratch_ offset, page position) of each piece
    auto flush = [&]() -> Status {
      if (filled == 0) return Status::OK();
      if (QUIVER_PREDICT_FALSE(MaxIndex(scratch_, filled) >= dictionary_size_)) {
        int64_t j = 0;
        while (scratch_[j] < dictionary_size_) ++j;
        int64_t at = 0;
        for (const auto& [offset, page_position] : run_starts_) {
          if (offset <= j) at = page_position + (j - offset);
        }
        return OutOfRangeAt(scratch_[j], at);
      }
      map(static_cast<const uint32_t*>(scratch_), filled, done);
      done += filled;
      filled = 0;
      run_starts_.clear();
      return Status::OK();
    };
    for (int64_t r = 0; r < num_runs; ++r) {
      if (runs[r].skip > 0) {
        const int64_t got = indices_.Skip(runs[r].skip);
        if (got != runs[r].skip) return Fail(total, passed + got);
        passed += got;
      }
      for (int64_t left = runs[r].take; left > 0;) {
        const int64_t m = std::min(left, Decoder::kScratchValues - filled);
        run_starts_.push_back({filled, position_ + passed});
        const int64_t got = indices_.GetBatch(scratch_ + filled, m);
        if (got != m) return Fail(total, passed + got);
        filled += m;
        passed += m;
        left -= m;
        if (filled == Decoder::kScratchValues) QUIVER_RETURN_NOT_OK(flush());
      }
    }
    QUIVER_RETURN_NOT_OK(flush());
    position_ += total;
    this->values_left_ -= total;
    return Status::OK();
  }

  // Calls map(indices, m, done) for each batch of m <= kScratchValues
  // checked indices, done being the values of the n mapped before.
  template <typename Map>
  Status ForEachBatch(int64_t n, Map&& map) {
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    for (int64_t done = 0; done < n;) {
      const int64_t m = std::min(n - done, Decoder::kScratchValues);
      const int64_t got = indices_.GetBatch(scratch_, m);
      if (got != m) return Fail(n, done + got);
      if (QUIVER_PREDICT_FALSE(MaxIndex(scratch_, m) >= dictionary_size_)) {
        return OutOfRange(scratch_);
      }
      map(static_cast<const uint32_t*>(scratch_), m, done);
      position_ += m;
      done += m;
    }
    this->values_left_ -= n;
    return Status::OK();
  }

 private:
  Status Fail(int64_t n, int64_t got) {
    Status st = indices_.status().ok()
                    ? this->EndedEarly(n, got)
                    : indices_.status().WithContext(EnumName(this->encoding()), " indices: ");
    this->values_left_ = 0;
    return st;
  }

  // indices[] (from the value at position_ on) holds one out of range.
  Status OutOfRange(const uint32_t* indices) {
    int64_t j = 0;
    while (indices[j] < dictionary_size_) ++j;
    return OutOfRangeAt(indices[j], position_ + j);
  }
  Status OutOfRangeAt(uint32_t index, int64_t value) {
    this->values_left_ = 0;
    return Status::Invalid(EnumName(this->encoding()), " ", EnumName(this->physical_type()),
                           " page: index ", index, " of value ", value,
                           " is out of range for a dictionary of ", dictionary_size_,
                           " values");
  }

  RleBitPackedDecoder indices_;
  bool has_dictionary_ = false;
  int64_t dictionary_size_ = 0;
  int64_t position_ = 0;  // values of the page mapped so far
  uint32_t scratch_[Decoder::kScratchValues];
  std::vector<std::pair<int64_t, int64_t>> run_starts_;  // ForEachRunsBatch's
};

Status BadDictionary(int64_t num_values, int64_t available, format::Type type) {
  return Status::Invalid("dictionary page of ", EnumName(type), ": the header says ", num_values,
                         " values but its bytes hold only ", available);
}

template <typename T>
class DictDecoder final : public DictionaryDecoderBase<TypedDecoder<T>> {
 public:
  DictDecoder(format::Encoding encoding, MemoryPool* pool)
      : DictionaryDecoderBase<TypedDecoder<T>>(TypedDecoder<T>::kType, encoding),
        dictionary_(pool) {}

  Status SetDictionary(int64_t num_values, const uint8_t* data, int64_t size) override {
    this->StartDictionary();
    PlainFixedWidthDecoder plain(data, size, static_cast<int>(sizeof(T)));
    if (num_values < 0 || num_values > plain.values_left()) {
      return BadDictionary(num_values, plain.values_left(), this->physical_type());
    }
    // Room without zeroing it (Decode writes every entry; up to 1 MiB a
    // column chunk with the writers' default limit).
    const int64_t bytes = num_values * static_cast<int64_t>(sizeof(T));
    dictionary_.Clear();
    QUIVER_RETURN_NOT_OK(dictionary_.Reserve(bytes));
    QUIVER_RETURN_NOT_OK(plain.Decode(num_values, dictionary_.template data_as<T>()));
    dictionary_.UnsafeSetSize(bytes);
    this->EndDictionary(num_values);
    return Status::OK();
  }

  Status Decode(int64_t n, T* out) override {
    const T* dictionary = dictionary_.template data_as<T>();
    return this->ForEachBatch(n, [&](const uint32_t* idx, int64_t m, int64_t done) {
      T* dest = out + done;
      for (int64_t j = 0; j < m; ++j) dest[j] = dictionary[idx[j]];
    });
  }

  Status DecodeRuns(const ValueRun* runs, int64_t num_runs, T* out) override {
    const T* dictionary = dictionary_.template data_as<T>();
    return this->ForEachRunsBatch(runs, num_runs,
                                  [&](const uint32_t* idx, int64_t m, int64_t done) {
                                    T* dest = out + done;
                                    for (int64_t j = 0; j < m; ++j) dest[j] = dictionary[idx[j]];
                                  });
  }

 private:
  MutableBuffer dictionary_;  // from the reader's pool, as the pages
};

class DictFlbaDecoder final : public DictionaryDecoderBase<FixedLenByteArrayDecoder> {
 public:
  DictFlbaDecoder(format::Encoding encoding, int type_length, MemoryPool* pool)
      : DictionaryDecoderBase<FixedLenByteArrayDecoder>(encoding, type_length), pool_(pool) {}

  Status SetDictionary(int64_t num_values, const uint8_t* data, int64_t size) override {
    StartDictionary();
    PlainFixedWidthDecoder plain(data, size, type_length());
    if (num_values < 0 || num_values > plain.values_left()) {
      return BadDictionary(num_values, plain.values_left(), physical_type());
    }
    // (Not zeroed: Decode writes every entry; 16 bytes more for
    // DecodeDecimals' whole-word loads of the last entries.)
    MutableBuffer values(pool_);
    QUIVER_RETURN_NOT_OK(values.Reserve(num_values * type_length() + 16));
    QUIVER_RETURN_NOT_OK(plain.Decode(num_values, values.data()));
    values.UnsafeSetSize(num_values * type_length());
    dictionary_ = values.Freeze();
    length_ = num_values;
    decimal_width_ = 0;
    EndDictionary(num_values);
    return Status::OK();
  }

  int64_t dictionary_length() const override { return length_; }
  std::string_view dictionary_entry(int64_t i) const override {
    return std::string_view(reinterpret_cast<const char*>(dictionary_->data()) + i * type_length(),
                            static_cast<size_t>(type_length()));
  }
  DictionaryBuffers dictionary_buffers() const override { return {nullptr, dictionary_}; }

  Status Decode(int64_t n, uint8_t* out) override {
    // Common widths as constants (float16, decimals, UUIDs): a memcpy of a
    // run-time width is a libc call per value.
    switch (type_length()) {
      case 2: return Gather<2>(n, nullptr, out);
      case 4: return Gather<4>(n, nullptr, out);
      case 8: return Gather<8>(n, nullptr, out);
      case 16: return Gather<16>(n, nullptr, out);
      default: return Gather<0>(n, nullptr, out);
    }
  }
  Status DecodeRuns(const ValueRun* runs, int64_t num_runs, uint8_t* out) override {
    switch (type_length()) {
      case 2: return Gather<2>(num_runs, runs, out);
      case 4: return Gather<4>(num_runs, runs, out);
      case 8: return Gather<8>(num_runs, runs, out);
      case 16: return Gather<16>(num_runs, runs, out);
      default: return Gather<0>(num_runs, runs, out);
    }
  }

  // A small dictionary's entries converted once (per dictionary and
  // width), then gathered; a large one's (whose converted entries would
  // not stay in cache: 16 bytes each against the stored 7 of a
  // decimal(15, 2)) gathered and converted value by value. TPC-H lineitem
  // SF0.1, l_extendedprice (131k entries, 2 MB converted): the whole
  // column read took 0.91 ms converted, 1.13 by value, but a 50% filter
  // on another column (the payload decoded batch by batch between the
  // filter's work) 6.1 ms converted, 4.9 by value.
  static constexpr int64_t kConvertedDictionaryBytes = 256 * 1024;
  Status DecodeDecimals(int64_t n, int out_width, uint8_t* out) override {
    if (type_length() > out_width) {
      return FixedLenByteArrayDecoder::DecodeDecimals(n, out_width, out);  // its error
    }
    if (length_ * out_width > kConvertedDictionaryBytes && type_length() <= 16) {
      switch (out_width) {
        case 4: return GatherDecimals<4>(n, out);
        case 8: return GatherDecimals<8>(n, out);
        case 16: return GatherDecimals<16>(n, out);
        default: break;  // 32: converted once
      }
    }
    if (decimal_width_ != out_width) {
      MutableBuffer converted(pool_);
      QUIVER_RETURN_NOT_OK(converted.Reserve(length_ * out_width));
      BigEndianToDecimals(dictionary_->data(), type_length(), length_, converted.data(),
                          out_width);
      converted.UnsafeSetSize(length_ * out_width);
      decimals_ = converted.Freeze();
      decimal_width_ = out_width;
    }
    const uint8_t* entries = decimals_->data();
    switch (out_width) {
      case 4: return Gather<4>(n, nullptr, out, entries);
      case 8: return Gather<8>(n, nullptr, out, entries);
      case 16: return Gather<16>(n, nullptr, out, entries);
      case 32: return Gather<32>(n, nullptr, out, entries);
      default: return FixedLenByteArrayDecoder::DecodeDecimals(n, out_width, out);
    }
  }

 private:
  // kWidth 0: type_length(). The next n values, or (runs) the taken values
  // of runs[0, n).
  // The next n values as decimals of kOutWidth bytes, converted from the
  // entries they index (16 bytes readable from each: SetDictionary's room).
  template <int kOutWidth>
  Status GatherDecimals(int64_t n, uint8_t* out) {
    const int length = type_length();
    const uint8_t* dictionary = dictionary_->data();
    return ForEachBatch(n, [&](const uint32_t* idx, int64_t m, int64_t done) {
      uint8_t* dest = out + done * kOutWidth;
      for (int64_t j = 0; j < m; ++j) {
        WideBigEndianToDecimal<kOutWidth>(dictionary + static_cast<int64_t>(idx[j]) * length,
                                          length, dest + j * kOutWidth);
      }
    });
  }

  // `entries`: the dictionary's (nullptr) or its decimals (kWidth each).
  template <int kWidth>
  Status Gather(int64_t n, const ValueRun* runs, uint8_t* out,
                const uint8_t* entries = nullptr) {
    const auto width = kWidth > 0 ? static_cast<size_t>(kWidth) : static_cast<size_t>(type_length());
    const uint8_t* dictionary = entries != nullptr ? entries : dictionary_->data();
    auto map = [&](const uint32_t* idx, int64_t m, int64_t done) {
      uint8_t* dest = out + static_cast<size_t>(done) * width;
      for (int64_t j = 0; j < m; ++j) {
        std::memcpy(dest + static_cast<size_t>(j) * width, dictionary + idx[j] * width, width);
      }
    };
    return runs != nullptr ? ForEachRunsBatch(runs, n, map) : ForEachBatch(n, map);
  }

  MemoryPool* pool_;
  std::shared_ptr<Buffer> dictionary_ = std::make_shared<Buffer>();
  int64_t length_ = 0;
  std::shared_ptr<Buffer> decimals_;  // DecodeDecimals' entries, decimal_width_ each
  int decimal_width_ = 0;             // 0: none converted for this dictionary
};

class DictBinaryDecoder final : public DictionaryDecoderBase<ByteArrayDecoder> {
 public:
  DictBinaryDecoder(format::Encoding encoding, MemoryPool* pool)
      : DictionaryDecoderBase<ByteArrayDecoder>(kType, encoding), pool_(pool) {}

  // The entries in Arrow's layout (int32 offsets, the bytes in a row), in
  // one pass over the page: the page's buffer is reused for the next, and a
  // reader may take these buffers as its Arrow dictionary as they are.
  Status SetDictionary(int64_t num_values, const uint8_t* data, int64_t size) override {
    StartDictionary();
    if (size < 0) size = 0;
    const int64_t most = size / 4;  // a 4-byte length each
    if (num_values < 0 || num_values > most) {
      return BadDictionary(num_values, most, physical_type());
    }
    if (size > INT32_MAX) {  // (a page's size is an int32: so are the offsets)
      return Status::Invalid("dictionary page of ", size, " bytes, more than int32 offsets allow");
    }
    MutableBuffer offsets(pool_);
    MutableBuffer bytes(pool_);
    QUIVER_RETURN_NOT_OK(offsets.Reserve((num_values + 1) * 4));
    // DecodeInto's room, whatever the count, and Into's words past the last entry.
    QUIVER_RETURN_NOT_OK(bytes.Reserve(size + kIntoSlack));
    offsets.UnsafeAppend(int32_t{0});
    PlainByteArrayDecoder plain(data, size);
    int64_t written = 0;
    QUIVER_RETURN_NOT_OK(plain
                             .DecodeInto(num_values, 0, offsets.data_as<int32_t>() + 1,
                                         bytes.data(), &written, &ascii_)
                             .WithContext("dictionary page: "));
    offsets.UnsafeSetSize((num_values + 1) * 4);
    bytes.UnsafeSetSize(written);
    const int32_t* ends = offsets.data_as<int32_t>();
    max_length_ = 0;
    int64_t min_length = num_values > 0 ? INT64_MAX : 0;
    for (int64_t i = 0; i < num_values; ++i) {
      max_length_ = std::max<int64_t>(max_length_, ends[i + 1] - ends[i]);
      min_length = std::min<int64_t>(min_length, ends[i + 1] - ends[i]);
    }
    uniform_ = min_length == max_length_;
    skewed_ = max_length_ > 4096 && num_values > 0 && max_length_ > 16 * (written / num_values);
    offsets_ = offsets.Freeze();
    bytes_ = bytes.Freeze();
    length_ = num_values;
    EndDictionary(num_values);
    return Status::OK();
  }

  int64_t dictionary_length() const override { return length_; }
  std::string_view dictionary_entry(int64_t i) const override {
    const int32_t* ends = offsets_->data_as<int32_t>();
    return std::string_view(reinterpret_cast<const char*>(bytes_->data()) + ends[i],
                            static_cast<size_t>(ends[i + 1] - ends[i]));
  }
  DictionaryBuffers dictionary_buffers() const override { return {offsets_, bytes_, ascii_}; }

  Status Decode(int64_t n, std::string_view* out) override {
    const int32_t* ends = offsets_->data_as<int32_t>();
    const char* bytes = reinterpret_cast<const char*>(bytes_->data());
    return ForEachBatch(n, [&](const uint32_t* idx, int64_t m, int64_t done) {
      std::string_view* dest = out + done;
      for (int64_t j = 0; j < m; ++j) {
        const uint32_t k = idx[j];
        dest[j] = std::string_view(bytes + ends[k], static_cast<size_t>(ends[k + 1] - ends[k]));
      }
    });
  }

  // n times the longest entry; unknown (DecodeArrow then copies view by
  // view, reserving what each batch takes) where the longest is over 16
  // times the mean and 4 KiB: a bound that loose would reserve far more
  // than the values take (8,192 values x a 100 KB entry among short ones).
  int64_t value_bytes_bound(int64_t n) const override {
    if (skewed_) return kUnknownBytes;
    if (max_length_ > 0 && n > kUnknownBytes / max_length_) return kUnknownBytes;
    return n * max_length_;
  }

 private:
  Result<int64_t> DecodeInto(int64_t n, int64_t base, int32_t* ends, uint8_t* data) override {
    return Into(n, base, ends, data);
  }
  Result<int64_t> DecodeInto(int64_t n, int64_t base, int64_t* ends, uint8_t* data) override {
    return Into(n, base, ends, data);
  }
  template <typename End>
  Result<int64_t> Into(int64_t n, int64_t base, End* ends, uint8_t* data) {
    const int32_t* offsets = offsets_->data_as<int32_t>();
    const uint8_t* bytes = bytes_->data();
    int64_t written = 0;
    CopiedAscii(ascii_);
    if (max_length_ == 0) {  // every entry empty: the indices are only checked
      QUIVER_RETURN_NOT_OK(ForEachBatch(n, [&](const uint32_t*, int64_t m, int64_t done) {
        std::fill(ends + done, ends + done + m, static_cast<End>(base));
      }));
      return int64_t{0};
    }
    // Entries of at most kWord bytes: a copy of kWord bytes each (a load and
    // a store, not a libc call), the next value overwriting the excess;
    // the entries' buffer and `data` have kIntoSlack bytes past their ends.
    auto copy = [&](auto word) {
      constexpr size_t kWord = decltype(word)::value;
      return ForEachBatch(n, [&](const uint32_t* idx, int64_t m, int64_t done) {
        for (int64_t j = 0; j < m; ++j) {
          const uint32_t k = idx[j];
          const int64_t length = offsets[k + 1] - offsets[k];
          if constexpr (kWord > 0) {
            std::memcpy(data + written, bytes + offsets[k], kWord);
          } else {
            std::memcpy(data + written, bytes + offsets[k], static_cast<size_t>(length));
          }
          written += length;
          ends[done + j] = static_cast<End>(base + written);
        }
      });
    };
    // Entries all of one length L (flags, codes): entry k at k * L, value
    // j's bytes at j * L, its end known without the entry; no chain of
    // additions from one value to the next.
    auto uniform = [&](auto word) {
      constexpr size_t kWord = decltype(word)::value;
      const int64_t width = max_length_;
      return ForEachBatch(n, [&](const uint32_t* idx, int64_t m, int64_t done) {
        uint8_t* dest = data + done * width;
        for (int64_t j = 0; j < m; ++j) {
          std::memcpy(dest + j * width, bytes + static_cast<int64_t>(idx[j]) * width, kWord);
        }
        End* out = ends + done;
        const int64_t first = base + done * width;
        for (int64_t j = 0; j < m; ++j) out[j] = static_cast<End>(first + (j + 1) * width);
      });
    };
    static_assert(kIntoSlack >= 32);
    if (uniform_ && max_length_ <= 16) {
      if (max_length_ <= 8) {
        QUIVER_RETURN_NOT_OK(uniform(std::integral_constant<size_t, 8>()));
      } else {
        QUIVER_RETURN_NOT_OK(uniform(std::integral_constant<size_t, 16>()));
      }
      return n * max_length_;
    }
    if (max_length_ <= 8) {
      QUIVER_RETURN_NOT_OK(copy(std::integral_constant<size_t, 8>()));
    } else if (max_length_ <= 16) {
      QUIVER_RETURN_NOT_OK(copy(std::integral_constant<size_t, 16>()));
    } else if (max_length_ <= 32) {
      QUIVER_RETURN_NOT_OK(copy(std::integral_constant<size_t, 32>()));
    } else {
      QUIVER_RETURN_NOT_OK(copy(std::integral_constant<size_t, 0>()));
    }
    return written;
  }

  MemoryPool* pool_;  // the reader's, as the pages
  std::shared_ptr<Buffer> offsets_ = std::make_shared<Buffer>();
  std::shared_ptr<Buffer> bytes_ = std::make_shared<Buffer>();
  int64_t length_ = 0;
  int64_t max_length_ = 0;  // of the dictionary's entries
  bool uniform_ = false;    // every entry max_length_ bytes
  bool skewed_ = false;     // the longest entry far past the mean (value_bytes_bound)
  bool ascii_ = false;      // every byte of the entries is ASCII
};

}  // namespace

std::unique_ptr<Decoder> MakeDictionaryDecoder(format::Type type, format::Encoding encoding,
                                               int type_length, MemoryPool* pool) {
  switch (type) {
    case format::Type::kInt32:
      return std::make_unique<DictDecoder<int32_t>>(encoding, pool);
    case format::Type::kInt64:
      return std::make_unique<DictDecoder<int64_t>>(encoding, pool);
    case format::Type::kInt96:
      return std::make_unique<DictDecoder<Int96>>(encoding, pool);
    case format::Type::kFloat:
      return std::make_unique<DictDecoder<float>>(encoding, pool);
    case format::Type::kDouble:
      return std::make_unique<DictDecoder<double>>(encoding, pool);
    case format::Type::kByteArray:
      return std::make_unique<DictBinaryDecoder>(encoding, pool);
    case format::Type::kFixedLenByteArray:
      return std::make_unique<DictFlbaDecoder>(encoding, type_length, pool);
    case format::Type::kBoolean:
      break;
  }
  return nullptr;
}

}  // namespace quiver::parquet::internal
