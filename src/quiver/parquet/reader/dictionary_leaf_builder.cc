// The dictionary leaf builder (leaf_builder_internal.h): dictionary-encoded
// pages read into Arrow dictionary arrays, the page dictionary adopted as
// it is or values looked up in a memo table.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "quiver/array/builder_binary.h"
#include "quiver/array/memo_table.h"
#include "quiver/parquet/encoding/dictionary_indices.h"
#include "quiver/parquet/encoding/spaced_internal.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/utf8.h"
#include "quiver/parquet/reader/byte_array_leaf_internal.h"

namespace quiver::parquet::internal {
namespace {

// ---------------------------------------------------------------------------
// Dictionary columns (read_dictionary, or dictionary types from
// ARROW:schema), int32 indices narrowed at Finish. Two ways to a batch's
// dictionary:
// - adopted: while the batch's values all come from dictionary-encoded
//   pages of one page dictionary, the batch's dictionary is that page's
//   values as they are and the page's indices pass through unmapped (as
//   pyarrow and arrow-rs read them). The Arrow dictionary shares the
//   decoder's buffers (Decoder::dictionary_buffers) and the batches of the
//   column chunk share it. Only a page dictionary that is valid as a whole
//   (UTF-8 for strings, indexable by the index type) is adopted;
// - memo: otherwise (PLAIN pages after a dictionary fallback, a batch
//   crossing a new dictionary, a page dictionary not adopted) values are
//   looked up in a memo table and the dictionary holds every distinct value
//   of the batch in order of first use. A batch leaving the adopted way
//   first inserts the adopted values into the memo, in order.

class DictionaryBuilder final : public LeafBuilder {
 public:
  DictionaryBuilder(TypePtr type, format::Type physical, int type_length, MemoryPool* pool)
      : type_(std::move(type)),
        physical_(physical),
        type_length_(type_length),
        pool_(pool),
        indices_(pool),
        memo_(pool) {}

  void DictionaryChanged() override {
    remap_.clear();
    identity_prefix_ = 0;
    adopted_current_ = false;
    adopt_tried_ = false;
    // The batch's indices so far may point into the adopted dictionary.
    if (mode_ != Mode::kAdopted) adopted_.reset();
  }

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    QUIVER_RETURN_NOT_OK(indices_.Reserve(num_slots * 4));
    if (decoder->encoding() == format::Encoding::kRleDictionary ||
        decoder->encoding() == format::Encoding::kPlainDictionary) {
      if (mode_ != Mode::kMemo) {
        QUIVER_ASSIGN_OR_RAISE(const bool adopted, Adopt(decoder));
        if (adopted) return AppendAdopted(decoder, num_slots, valid, valid_offset, num_values);
      }
      QUIVER_RETURN_NOT_OK(UseMemo());
      return AppendIndices(decoder, num_slots, valid, valid_offset, num_values);
    }
    QUIVER_RETURN_NOT_OK(UseMemo());
    const bool utf8 = IsStringLike(TypeAs<DictionaryType>(*type_).value_type()->id());
    int64_t value_index = 0;
    auto put = [&](std::string_view value, bool is_valid) -> Status {
      int32_t index = 0;
      if (is_valid) {
        bool inserted = false;
        QUIVER_ASSIGN_OR_RAISE(index, memo_.GetOrInsert(value, &inserted));
        if (inserted && utf8 && checking_utf8() && !IsValidUtf8(value)) {
          QUIVER_RETURN_NOT_OK(InvalidUtf8(value_index));
        }
        ++value_index;
      }
      indices_.UnsafeAppend(index);
      return Status::OK();
    };
    if (physical_ == format::Type::kByteArray) {
      return VisitByteArraySlots(static_cast<ByteArrayDecoder*>(decoder), &views_, num_slots,
                                 valid, valid_offset, num_values, put);
    }
    scratch_.resize(static_cast<size_t>(num_values * type_length_));
    QUIVER_RETURN_NOT_OK(
        static_cast<FixedLenByteArrayDecoder*>(decoder)->Decode(num_values, scratch_.data()));
    int64_t v = 0;
    for (int64_t s = 0; s < num_slots; ++s) {
      if (valid == nullptr || bit_util::GetBit(valid, valid_offset + s)) {
        QUIVER_RETURN_NOT_OK(put(std::string_view(reinterpret_cast<const char*>(scratch_.data()) +
                                                      (v++) * type_length_,
                                                  static_cast<size_t>(type_length_)),
                                 true));
      } else {
        QUIVER_RETURN_NOT_OK(put(std::string_view(), false));
      }
    }
    return Status::OK();
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    const auto& dict_type = TypeAs<DictionaryType>(*type_);
    const TypePtr& value_type = dict_type.value_type();
    ArrayDataPtr dictionary;
    if (mode_ == Mode::kAdopted) {
      // (Adopt checked that the index type addresses every entry.)
      const int64_t length = indices_.size() / 4;
      QUIVER_ASSIGN_OR_RAISE(auto indices, NarrowIndices(dict_type.index_type()->id(), length));
      auto data =
          ArrayData::Make(type_, length, {std::move(validity), std::move(indices)}, null_count);
      data->dictionary = adopted_;
      mode_ = Mode::kEmpty;
      if (!adopted_current_) adopted_.reset();
      return data;
    }
    mode_ = Mode::kEmpty;
    if (memo_.size() == 0 && indices_.size() > 0) {
      // Slots without values only (e.g. a non-nullable leaf under null
      // parents, whose index 0 is not masked): give index 0 a value.
      std::string_view empty;
      std::string zeros;
      if (value_type->id() == Type::kFixedSizeBinary) {
        zeros.assign(static_cast<size_t>(type_length_), '\0');
        empty = zeros;
      }
      QUIVER_RETURN_NOT_OK(memo_.GetOrInsert(empty).status());
    }
    const int64_t n = memo_.size();
    if (value_type->id() == Type::kFixedSizeBinary) {
      MutableBuffer values(pool_);
      QUIVER_RETURN_NOT_OK(values.Reserve(memo_.data_length()));
      values.UnsafeExtendFromSlice(memo_.data(), memo_.data_length());
      dictionary = ArrayData::Make(value_type, n, {nullptr, values.Freeze()}, 0);
    } else if (IsLargeBinaryLike(value_type->id())) {
      MutableBuffer offsets(pool_);
      MutableBuffer values(pool_);
      QUIVER_RETURN_NOT_OK(offsets.Reserve((n + 1) * 8));
      offsets.UnsafeExtendFromSlice(memo_.offsets(), (n + 1) * 8);
      QUIVER_RETURN_NOT_OK(values.ExtendFromSlice(memo_.data(), memo_.data_length()));
      dictionary =
          ArrayData::Make(value_type, n, {nullptr, offsets.Freeze(), values.Freeze()}, 0);
    } else {
      if (memo_.data_length() > INT32_MAX) {
        return Status::CapacityError("the dictionary of ", type_->ToString(), " holds ",
                                     memo_.data_length(), " bytes, more than int32 offsets allow");
      }
      MutableBuffer offsets(pool_);
      MutableBuffer values(pool_);
      QUIVER_RETURN_NOT_OK(offsets.Reserve((n + 1) * 4));
      for (int64_t i = 0; i <= n; ++i) {
        offsets.UnsafeAppend(static_cast<int32_t>(memo_.offsets()[i]));
      }
      QUIVER_RETURN_NOT_OK(values.ExtendFromSlice(memo_.data(), memo_.data_length()));
      dictionary =
          ArrayData::Make(value_type, n, {nullptr, offsets.Freeze(), values.Freeze()}, 0);
    }
    const int64_t length = indices_.size() / 4;
    QUIVER_ASSIGN_OR_RAISE(auto indices, NarrowIndices(dict_type.index_type()->id(), length));
    // Each batch has its own dictionary: the values it uses, in order of
    // first use (memory stays bounded by the batch).
    memo_.Clear();
    remap_.clear();
    identity_prefix_ = 0;
    auto data =
        ArrayData::Make(type_, length, {std::move(validity), std::move(indices)}, null_count);
    data->dictionary = std::move(dictionary);
    return data;
  }

  int64_t bytes_buffered() const override {
    return indices_.size() + memo_.memory_used() + (mode_ == Mode::kAdopted ? adopted_bytes_ : 0);
  }
  Status Reserve(int64_t slots, int64_t) override { return indices_.Reserve(slots * 4); }

 private:
  // The largest index the dictionary type's index type holds.
  static uint64_t IndexLimit(Type index_type) {
    switch (index_type) {
      case Type::kInt8: return std::numeric_limits<int8_t>::max();
      case Type::kUInt8: return std::numeric_limits<uint8_t>::max();
      case Type::kInt16: return std::numeric_limits<int16_t>::max();
      case Type::kUInt16: return std::numeric_limits<uint16_t>::max();
      default: return std::numeric_limits<int32_t>::max();  // the int32 indices
    }
  }

  // Whether the batch can take the decoder's page dictionary as its own
  // (building the Arrow dictionary on the first try per page dictionary).
  Result<bool> Adopt(const Decoder* decoder) {
    if (adopted_current_) return true;
    // Indices of another page dictionary already in the batch, or this one
    // tried and not adoptable.
    if (mode_ == Mode::kAdopted || adopt_tried_) return false;
    adopt_tried_ = true;
    adopted_.reset();
    const auto& dict_type = TypeAs<DictionaryType>(*type_);
    const TypePtr& value_type = dict_type.value_type();
    const int64_t n = decoder->dictionary_length();
    if (n == 0 || static_cast<uint64_t>(n - 1) > IndexLimit(dict_type.index_type()->id())) {
      return false;
    }
    const Decoder::DictionaryBuffers page = decoder->dictionary_buffers();
    if (page.data == nullptr) return false;
    if (value_type->id() == Type::kFixedSizeBinary) {
      adopted_ = ArrayData::Make(value_type, n, {nullptr, page.data}, 0);
      adopted_bytes_ = page.data->size();
    } else {
      if (page.offsets == nullptr) return false;
      const int32_t* ends = page.offsets->data_as<int32_t>();
      // Not valid UTF-8 as a whole: the memo way checks only the entries
      // the batch uses.
      if (IsStringLike(value_type->id()) && !page.ascii &&
          FindBadUtf8(ends, n, page.data->data()).slot >= 0) {
        return false;
      }
      std::shared_ptr<Buffer> offsets = page.offsets;
      if (IsLargeBinaryLike(value_type->id())) {
        MutableBuffer wide(pool_);
        QUIVER_RETURN_NOT_OK(wide.Reserve((n + 1) * 8));
        for (int64_t i = 0; i <= n; ++i) wide.UnsafeAppend(static_cast<int64_t>(ends[i]));
        offsets = wide.Freeze();
      }
      adopted_bytes_ = offsets->size() + page.data->size();
      adopted_ = ArrayData::Make(value_type, n, {nullptr, std::move(offsets), page.data}, 0);
    }
    adopted_current_ = true;
    return true;
  }

  // A dictionary-encoded page of the adopted dictionary: its indices as
  // they are (null slots: index 0).
  Status AppendAdopted(Decoder* decoder, int64_t num_slots, const uint8_t* valid,
                       int64_t valid_offset, int64_t num_values) {
    mode_ = Mode::kAdopted;
    int32_t* out = reinterpret_cast<int32_t*>(indices_.data() + indices_.size());
    if (valid == nullptr) {
      QUIVER_RETURN_NOT_OK(decoder->DecodeIndices(num_slots, out));
    } else {
      page_indices_.resize(static_cast<size_t>(num_values));
      QUIVER_RETURN_NOT_OK(decoder->DecodeIndices(num_values, page_indices_.data()));
      const int32_t* in = page_indices_.data();
      std::memset(out, 0, static_cast<size_t>(num_slots) * 4);
      bitmap::VisitSetBitRuns(valid, valid_offset, num_slots, [&](int64_t pos, int64_t len) {
        std::memcpy(out + pos, in, static_cast<size_t>(len) * 4);
        in += len;
      });
    }
    indices_.UnsafeSetSize(indices_.size() + num_slots * 4);
    return Status::OK();
  }

  // The batch goes on the memo way; a batch on the adopted way first puts
  // the adopted values into the memo in order (and maps its indices when
  // the page dictionary repeats a value).
  Status UseMemo() {
    if (mode_ == Mode::kAdopted) {
      const ArrayData& dict = *adopted_;
      const int64_t n = dict.length;
      std::vector<int32_t> to_memo(static_cast<size_t>(n));
      bool identity = true;
      for (int64_t i = 0; i < n; ++i) {
        std::string_view value;
        if (dict.type->id() == Type::kFixedSizeBinary) {
          value = std::string_view(
              reinterpret_cast<const char*>(dict.buffers[1]->data()) + i * type_length_,
              static_cast<size_t>(type_length_));
        } else if (IsLargeBinaryLike(dict.type->id())) {
          const int64_t* o = dict.buffers[1]->data_as<int64_t>();
          value = std::string_view(reinterpret_cast<const char*>(dict.buffers[2]->data()) + o[i],
                                   static_cast<size_t>(o[i + 1] - o[i]));
        } else {
          const int32_t* o = dict.buffers[1]->data_as<int32_t>();
          value = std::string_view(reinterpret_cast<const char*>(dict.buffers[2]->data()) + o[i],
                                   static_cast<size_t>(o[i + 1] - o[i]));
        }
        QUIVER_ASSIGN_OR_RAISE(to_memo[static_cast<size_t>(i)], memo_.GetOrInsert(value));
        identity = identity && to_memo[static_cast<size_t>(i)] == i;
      }
      if (!identity) {
        int32_t* idx = reinterpret_cast<int32_t*>(indices_.data());
        for (int64_t i = 0, m = indices_.size() / 4; i < m; ++i) idx[i] = to_memo[idx[i]];
      }
      if (adopted_current_) {
        // The page dictionary's entries already have their memo indices.
        identity_prefix_ = 0;
        while (identity_prefix_ < n &&
               to_memo[static_cast<size_t>(identity_prefix_)] == identity_prefix_) {
          ++identity_prefix_;
        }
        remap_ = std::move(to_memo);
      } else {
        adopted_.reset();
      }
    }
    mode_ = Mode::kMemo;
    return Status::OK();
  }

  // The memo's index of the page dictionary's entry `entry`, inserted on
  // its first use in the batch.
  Result<int32_t> FirstUse(const Decoder* decoder, int32_t entry) {
    const std::string_view value = decoder->dictionary_entry(entry);
    bool inserted = false;
    QUIVER_ASSIGN_OR_RAISE(int32_t index, memo_.GetOrInsert(value, &inserted));
    if (inserted && IsStringLike(TypeAs<DictionaryType>(*type_).value_type()->id()) &&
        checking_utf8() && !IsValidUtf8(value)) {
      QUIVER_RETURN_NOT_OK(InvalidUtf8Entry(entry));
    }
    remap_[static_cast<size_t>(entry)] = index;
    if (index == entry && entry == identity_prefix_) ++identity_prefix_;
    return index;
  }

  // A dictionary-encoded page: its indices mapped to the batch's
  // dictionary through remap_ (the page dictionary's entry -> the memo's
  // index, -1 until first used), so each distinct entry is hashed once per
  // batch and every value costs a table lookup.
  Status AppendIndices(Decoder* decoder, int64_t num_slots, const uint8_t* valid,
                       int64_t valid_offset, int64_t num_values) {
    const int64_t entries = decoder->dictionary_length();
    if (static_cast<int64_t>(remap_.size()) != entries) {
      remap_.assign(static_cast<size_t>(entries), -1);
      identity_prefix_ = 0;
    }
    int32_t* remap = remap_.data();
    int32_t* out = reinterpret_cast<int32_t*>(indices_.data() + indices_.size());
    // Maps in[0, n) to out[0, n).
    auto map_run = [&](const int32_t* from, int32_t* to, int64_t n) -> Status {
      for (int64_t i = 0; i < n; ++i) {
        int32_t index = remap[from[i]];
        if (QUIVER_PREDICT_FALSE(index < 0)) {
          QUIVER_ASSIGN_OR_RAISE(index, FirstUse(decoder, from[i]));
        }
        to[i] = index;
      }
      return Status::OK();
    };
    if (valid == nullptr) {
      // Straight into the batch's indices; mapped in place unless every
      // index is in the identity prefix.
      QUIVER_RETURN_NOT_OK(decoder->DecodeIndices(num_slots, out));
      // (Checked indices are below the dictionary's size: non-negative.)
      const bool identity =
          num_slots == 0 || MaxIndex(reinterpret_cast<const uint32_t*>(out), num_slots) <
                                static_cast<uint32_t>(identity_prefix_);
      if (!identity) QUIVER_RETURN_NOT_OK(map_run(out, out, num_slots));
    } else {
      page_indices_.resize(static_cast<size_t>(num_values));
      QUIVER_RETURN_NOT_OK(decoder->DecodeIndices(num_values, page_indices_.data()));
      const int32_t* in = page_indices_.data();
      std::memset(out, 0, static_cast<size_t>(num_slots) * 4);  // null slots: index 0
      Status status;
      bitmap::VisitSetBitRuns(valid, valid_offset, num_slots, [&](int64_t pos, int64_t len) {
        if (status.ok()) status = map_run(in, out + pos, len);
        in += len;
      });
      QUIVER_RETURN_NOT_OK(status);
    }
    indices_.UnsafeSetSize(indices_.size() + num_slots * 4);
    return Status::OK();
  }

  // The int32 indices in the dictionary type's index type (ARROW:schema
  // keeps the writer's, e.g. int8); CapacityError when the dictionary has
  // more values than that type can index.
  template <typename I>
  Result<std::shared_ptr<Buffer>> Narrow(int64_t length) {
    if (memo_.size() > 0 &&
        static_cast<uint64_t>(memo_.size() - 1) > static_cast<uint64_t>(std::numeric_limits<I>::max())) {
      return Status::CapacityError("the dictionary of ", type_->ToString(), " has ", memo_.size(),
                                   " values, more than its index type can address");
    }
    MutableBuffer out(pool_);
    QUIVER_RETURN_NOT_OK(out.Reserve(length * static_cast<int64_t>(sizeof(I))));
    const int32_t* in = indices_.data_as<int32_t>();
    for (int64_t i = 0; i < length; ++i) out.UnsafeAppend(static_cast<I>(in[i]));
    indices_.Clear();
    return out.Freeze();
  }
  Result<std::shared_ptr<Buffer>> NarrowIndices(Type index_type, int64_t length) {
    switch (index_type) {
      case Type::kInt8: return Narrow<int8_t>(length);
      case Type::kUInt8: return Narrow<uint8_t>(length);
      case Type::kInt16: return Narrow<int16_t>(length);
      case Type::kUInt16: return Narrow<uint16_t>(length);
      case Type::kUInt32: return Narrow<uint32_t>(length);
      case Type::kInt64: return Narrow<int64_t>(length);
      case Type::kUInt64: return Narrow<uint64_t>(length);
      default: return indices_.Freeze();
    }
  }


 private:
  TypePtr type_;
  format::Type physical_;
  int type_length_;
  MemoryPool* pool_;
  MutableBuffer indices_;
  quiver::internal::BinaryMemoTable memo_;
  std::vector<std::string_view> views_;
  std::vector<int32_t> remap_;         // see AppendIndices
  // Entries [0, identity_prefix_) of the page dictionary are the memo's
  // first values in the same order (a writer's dictionary in order of
  // first use): their indices need no mapping.
  int32_t identity_prefix_ = 0;
  std::vector<int32_t> page_indices_;  // AppendIndices' scratch
  std::vector<uint8_t> scratch_;
  // The batch's way so far (kEmpty: no slot yet).
  enum class Mode { kEmpty, kAdopted, kMemo };
  Mode mode_ = Mode::kEmpty;
  ArrayDataPtr adopted_;          // an adopted page dictionary, as an Arrow array
  int64_t adopted_bytes_ = 0;
  bool adopted_current_ = false;  // adopted_ holds the current page dictionary
  bool adopt_tried_ = false;      // Adopt ran for the current page dictionary
};

}  // namespace

std::unique_ptr<LeafBuilder> MakeDictionaryLeafBuilder(const TypePtr& type, format::Type physical,
                                                      int type_length, MemoryPool* pool) {
  return std::unique_ptr<LeafBuilder>(new DictionaryBuilder(type, physical, type_length, pool));
}

}  // namespace quiver::parquet::internal
