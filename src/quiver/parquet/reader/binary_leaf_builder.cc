// The binary and string leaf builders (leaf_builder_internal.h): BYTE_ARRAY
// values into binary / string (int32 offsets, the decoder appends), large
// binary / string, and binary / string views, checked for UTF-8 where the
// type is a string.
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

// The index among the values of slot `slot` (a slot holding a value).
int64_t ValueOfSlot(const uint8_t* valid, int64_t valid_offset, int64_t slot) {
  return valid == nullptr ? slot : bitmap::CountSetBits(valid, valid_offset, slot);
}

// The string leaves' UTF-8 check of the slots an Append added.
class StringLeaf : public LeafBuilder {
 protected:
  explicit StringLeaf(const DataType& type) : utf8_(IsStringLike(type.id())) {}

  bool check() const { return utf8_ && checking_utf8(); }

  // Slots [0, n) of offsets, the Append's slots from `first_slot` on.
  template <typename Offset>
  Status CheckSlots(const Offset* offsets, int64_t n, const uint8_t* data, const uint8_t* valid,
                    int64_t valid_offset, int64_t first_slot = 0) {
    const BadUtf8 bad = FindBadUtf8(offsets, n, data);
    if (bad.slot < 0) return Status::OK();
    return InvalidUtf8(ValueOfSlot(valid, valid_offset, first_slot + bad.slot),
                       bad.starts_inside ? "it starts inside a character" : "");
  }

  bool utf8_;
};


class BinaryBuilder32 final : public StringLeaf {
 public:
  BinaryBuilder32(TypePtr type, MemoryPool* pool)
      : StringLeaf(*type),
        type_(std::move(type)),
        pool_(pool),
        offsets_(pool),
        data_(pool) {}

  void set_allow_chunks(bool allow) override { allow_chunks_ = allow; }

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    auto* typed = static_cast<ByteArrayDecoder*>(decoder);
    // Value by value only where the chunk may end within these values.
    if (allow_chunks_ && typed->value_bytes_bound(num_values) > kChunkBytes - data_.size()) {
      return AppendChunked(typed, num_slots, valid, valid_offset, num_values);
    }
    const int64_t first = offsets_.empty() ? 0 : offsets_.size() / 4 - 1;
    QUIVER_RETURN_NOT_OK(typed->DecodeArrow(num_slots, valid, valid_offset, &offsets_, &data_));
    if (check() && !typed->appended_ascii()) {
      QUIVER_RETURN_NOT_OK(CheckSlots(offsets_.data_as<int32_t>() + first, num_slots,
                                      data_.data(), valid, valid_offset));
    }
    return Status::OK();
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    if (!done_.empty()) {
      return Status::CapacityError(type_->ToString(), " values of more than ", kChunkBytes,
                                   " bytes in one array");
    }
    return FinishValues(std::move(validity), null_count);
  }

  Result<std::vector<ArrayDataPtr>> FinishChunks(const std::shared_ptr<Buffer>& validity,
                                                 MemoryPool* pool) override {
    QUIVER_ASSIGN_OR_RAISE(auto last, FinishValues(nullptr, 0));
    std::vector<ArrayDataPtr> chunks = std::move(done_);
    done_.clear();
    chunks.push_back(std::move(last));
    // Each chunk's validity: its slots' bits of `validity`, copied to offset 0.
    int64_t start = 0;
    for (ArrayDataPtr& chunk : chunks) {
      if (validity != nullptr) {
        const int64_t valid = bitmap::CountSetBits(validity->data(), start, chunk->length);
        if (valid < chunk->length) {
          MutableBuffer bits(pool);
          QUIVER_RETURN_NOT_OK(bits.AppendRepeated(0, bit_util::BytesForBits(chunk->length)));
          bitmap::CopyBitmap(validity->data(), start, chunk->length, bits.data(), 0);
          chunk->buffers[0] = bits.Freeze();
          chunk->null_count = chunk->length - valid;
        }
      }
      start += chunk->length;
    }
    return chunks;
  }

  int64_t bytes_buffered() const override { return offsets_.size() + data_.size(); }
  Status Reserve(int64_t slots, int64_t value_bytes) override {
    QUIVER_RETURN_NOT_OK(offsets_.Reserve((slots + 1) * 4));
    return data_.Reserve(std::min(value_bytes, kChunkBytes - data_.size()));
  }

 private:
  // Value by value through views, ending the chunk where a value would
  // take its data past kChunkBytes (the same copies DecodeArrow makes).
  Status AppendChunked(ByteArrayDecoder* decoder, int64_t num_slots, const uint8_t* valid,
                       int64_t valid_offset, int64_t num_values) {
    if (offsets_.empty()) QUIVER_RETURN_NOT_OK(offsets_.Append(int32_t{0}));
    int64_t first = offsets_.size() / 4 - 1;
    int64_t slot = 0;        // of the Append
    int64_t first_slot = 0;  // the Append's slot at offsets_[first]
    QUIVER_RETURN_NOT_OK(offsets_.Reserve(num_slots * 4));
    Status st = VisitByteArraySlots(
        decoder, &views_, num_slots, valid, valid_offset, num_values,
        [&](std::string_view value, bool) -> Status {
          const int64_t size = static_cast<int64_t>(value.size());
          if (data_.size() + size > kChunkBytes && data_.size() > 0) {
            if (check()) {
              QUIVER_RETURN_NOT_OK(CheckSlots(offsets_.data_as<int32_t>() + first,
                                              offsets_.size() / 4 - 1 - first, data_.data(),
                                              valid, valid_offset, first_slot));
            }
            first_slot = slot;
            QUIVER_ASSIGN_OR_RAISE(auto chunk, FinishValues(nullptr, 0));
            done_.push_back(std::move(chunk));
            offsets_ = MutableBuffer(pool_);
            data_ = MutableBuffer(pool_);
            QUIVER_RETURN_NOT_OK(offsets_.Append(int32_t{0}));
            QUIVER_RETURN_NOT_OK(offsets_.Reserve(num_slots * 4));
            first = 0;
          }
          if (size > INT32_MAX - data_.size()) {
            return Status::CapacityError("a BYTE_ARRAY value of ", size, " bytes");
          }
          ++slot;
          QUIVER_RETURN_NOT_OK(data_.ExtendFromSlice(value.data(), size));
          return offsets_.Append(static_cast<int32_t>(data_.size()));
        });
    QUIVER_RETURN_NOT_OK(st);
    if (check()) {
      QUIVER_RETURN_NOT_OK(CheckSlots(offsets_.data_as<int32_t>() + first,
                                      offsets_.size() / 4 - 1 - first, data_.data(), valid,
                                      valid_offset, first_slot));
    }
    return Status::OK();
  }

  Result<ArrayDataPtr> FinishValues(std::shared_ptr<Buffer> validity, int64_t null_count) {
    if (offsets_.empty()) QUIVER_RETURN_NOT_OK(offsets_.Append(int32_t{0}));
    const int64_t length = offsets_.size() / 4 - 1;
    auto offsets = offsets_.Freeze();
    auto data = data_.Freeze();
    return ArrayData::Make(type_, length, {std::move(validity), std::move(offsets), std::move(data)},
                           null_count);
  }

  TypePtr type_;
  MemoryPool* pool_;
  bool allow_chunks_ = false;
  MutableBuffer offsets_;
  MutableBuffer data_;
  std::vector<ArrayDataPtr> done_;  // chunks ended at kChunkBytes
  std::vector<std::string_view> views_;
};

// large_binary / large_string (int64 offsets): the decoder appends.
class LargeBinaryLeaf final : public StringLeaf {
 public:
  LargeBinaryLeaf(TypePtr type, MemoryPool* pool)
      : StringLeaf(*type), type_(std::move(type)), offsets_(pool), data_(pool) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    const int64_t first = offsets_.empty() ? 0 : offsets_.size() / 8 - 1;
    auto* typed = static_cast<ByteArrayDecoder*>(decoder);
    QUIVER_RETURN_NOT_OK(
        typed->DecodeArrowLarge(num_slots, valid, valid_offset, &offsets_, &data_));
    if (check() && !typed->appended_ascii()) {
      QUIVER_RETURN_NOT_OK(CheckSlots(offsets_.data_as<int64_t>() + first, num_slots,
                                      data_.data(), valid, valid_offset));
    }
    return Status::OK();
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    if (offsets_.empty()) QUIVER_RETURN_NOT_OK(offsets_.Append(int64_t{0}));
    const int64_t length = offsets_.size() / 8 - 1;
    auto offsets = offsets_.Freeze();
    auto data = data_.Freeze();
    return ArrayData::Make(type_, length, {std::move(validity), std::move(offsets), std::move(data)},
                           null_count);
  }

  int64_t bytes_buffered() const override { return offsets_.size() + data_.size(); }
  Status Reserve(int64_t slots, int64_t value_bytes) override {
    QUIVER_RETURN_NOT_OK(offsets_.Reserve((slots + 1) * 8));
    return data_.Reserve(value_bytes);
  }

 private:
  TypePtr type_;
  MutableBuffer offsets_;
  MutableBuffer data_;
};

// binary_view / string_view through the
// array builders (empty values in null slots; the validity is the column
// reader's).
template <typename B>
class BuilderBackedBinary final : public StringLeaf {
 public:
  BuilderBackedBinary(TypePtr type, MemoryPool* pool)
      : StringLeaf(*type), type_(type), builder_(MakeBuilder(type, pool)) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    int64_t index = 0;  // of the values
    return VisitByteArraySlots(
        static_cast<ByteArrayDecoder*>(decoder), &views_, num_slots, valid, valid_offset,
        num_values, [&](std::string_view value, bool is_valid) -> Status {
          if (is_valid && check() && !IsValidUtf8(value)) {
            QUIVER_RETURN_NOT_OK(InvalidUtf8(index));
          }
          index += is_valid;
          bytes_ += static_cast<int64_t>(value.size());
          return builder_->Append(value);
        });
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    QUIVER_ASSIGN_OR_RAISE(auto data, builder_->Finish());
    data->type = type_;
    data->buffers[0] = std::move(validity);
    data->null_count = null_count;
    bytes_ = 0;
    return data;
  }

  int64_t bytes_buffered() const override { return bytes_; }

 private:
  static std::unique_ptr<B> MakeBuilder(const TypePtr& type, MemoryPool* pool) {
    if constexpr (std::is_same_v<B, BinaryViewBuilder>) {
      return std::make_unique<B>(type, pool);
    } else {
      return std::make_unique<B>(pool);
    }
  }

  TypePtr type_;
  std::unique_ptr<B> builder_;
  std::vector<std::string_view> views_;
  int64_t bytes_ = 0;
};

}  // namespace

std::unique_ptr<LeafBuilder> MakeBinaryLeafBuilder(const TypePtr& type, MemoryPool* pool) {
  switch (type->id()) {
    case Type::kBinary:
    case Type::kString:
      return std::unique_ptr<LeafBuilder>(new BinaryBuilder32(type, pool));
    case Type::kLargeBinary:
    case Type::kLargeString:
      return std::unique_ptr<LeafBuilder>(new LargeBinaryLeaf(type, pool));
    default:
      return std::unique_ptr<LeafBuilder>(new BuilderBackedBinary<BinaryViewBuilder>(type, pool));
  }
}

}  // namespace quiver::parquet::internal
