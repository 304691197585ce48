// BytesValueWriter: BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values
// (value_writer_internal.h). Its plain half (bytes_value_writer.cc) gathers the
// values of binary, string, view, fixed-size binary, FLOAT16 and decimal
// leaves and encodes them PLAIN, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY or
// BYTE_STREAM_SPLIT, or looks them up in the memo table for dictionary
// indices; its dictionary strategies (bytes_dictionary.cc) write Arrow
// dictionary leaves: the Arrow dictionary as the Parquet one (as Arrow C++
// writes it) or entry by entry through the memo table, and the dictionary
// page. Not installed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "quiver/array/memo_table.h"
#include "quiver/parquet/encoding/byte_stream_split.h"
#include "quiver/parquet/encoding/delta_byte_array.h"
#include "quiver/parquet/encoding/delta_length_byte_array.h"
#include "quiver/parquet/writer/distinct_count_internal.h"
#include "quiver/parquet/writer/value_writer_internal.h"
#include "quiver/util/utf8.h"

namespace quiver::parquet {

class BytesValueWriter final : public ValueWriter {
 public:
  BytesValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                   const ValueWriterOptions& options);
  Status Append(int64_t start, int64_t end) override;
  int64_t EstimatedPageSize() const override;
  Result<format::Encoding> FlushPage(MutableBuffer* out) override;

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
  Result<int64_t> FinishDistinctCount() override;
  Result<bool> BeginLeaf() override;

  bool dictionary_streams() const override { return direct_dictionary_ != nullptr; }
  Status WriteDictionaryTo(io::OutputStream* stream, MutableBuffer* staging) const override;
  Result<bool> CheckDirectDictionary(const ArrayData& dict);
  Status WriteDictionary(MutableBuffer* out) const override;

 private:
  Status PutDirectDictionary(MutableBuffer* out, io::OutputStream* stream) const;

  // A new write call's leaf: the per-entry caches of an Arrow dictionary
  // refer to the previous leaf's dictionary.
  void OnNewLeaf() override {
    entries_.clear();
    remap_.clear();
    seen_.clear();
    entry_arena_.clear();
  }
  bool SameDictionary(const ArrayData& a, const ArrayData& b);
  template <typename Offset>
  Status GatherOffsets(const ArrayData& d, int64_t start, int64_t end);
  Status CheckUtf8Values(const std::string_view* v, int64_t n) const;

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
  Status GatherOne(const ArrayData& d, int64_t i);
  Status Entry(int64_t k, int64_t slot, std::string_view* out);
  Status AppendDictionaryLeaf(int64_t start, int64_t end);
  template <typename Offset>
  Status AppendDirectIndices(const ArrayData& dict, const Offset* o, int64_t start, int64_t end);
  Status Consume(bool check_utf8, bool bloom = true);
  Status AppendPlain(bool check_utf8);

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

}  // namespace quiver::parquet
