// Builders for variable-width binary data.
//
// BaseBinaryBuilder<OffsetT>: binary/string (int32 offsets) and
// large_binary/large_string (int64 offsets), the Arrow "Variable-size Binary
// Layout": offsets (length + 1 entries, the first 0) and one data buffer.
// The offsets must fit OffsetT, so a 32-bit-offset array holds at most
// 2^31 - 1 bytes of values: past that, Append returns CapacityError (use the
// large_ type, or finish the chunk and start another).
//
// BinaryViewBuilder: binary_view/string_view, the "Variable-size Binary View
// Layout": 16-byte views; values of <= 12 bytes live inline in the view,
// longer ones are (length, 4-byte prefix, buffer index, offset) into data
// buffers. As in Arrow C++ (StringHeapBuilder) and arrow-rs
// (GenericByteViewBuilder), long values are copied into blocks: a new block
// starts when the current one cannot hold the next value, block sizes double
// from 32 KiB up to 1 MiB, and a value larger than the block size gets a block
// of its own. A view's length and offset are int32, so one value is at most
// 2^31 - 1 bytes.
//
// String builders do not check UTF-8 (as Arrow's builders; ValidateFull does).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/builder.h"

namespace quiver {

template <typename OffsetT>
class BaseBinaryBuilder : public ArrayBuilder {
  static_assert(std::is_same_v<OffsetT, int32_t> || std::is_same_v<OffsetT, int64_t>);

 public:
  using offset_type = OffsetT;
  // The most value bytes one array can hold (the largest offset).
  static constexpr int64_t kMaxDataLength = std::numeric_limits<OffsetT>::max();

  // `type` is binary/string (OffsetT = int32_t) or large_binary/large_string.
  explicit BaseBinaryBuilder(TypePtr type, MemoryPool* pool = DefaultMemoryPool());

  Status Append(const void* value, int64_t length) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    QUIVER_RETURN_NOT_OK(ReserveData(length));
    UnsafeAppend(value, length);
    return Status::OK();
  }
  Status Append(std::string_view value) {
    return Append(value.data(), static_cast<int64_t>(value.size()));
  }
  // Only after Reserve() (slots) and ReserveData() (bytes).
  void UnsafeAppend(const void* value, int64_t length) {
    offsets_.UnsafeAppend(static_cast<OffsetT>(data_.size()));
    data_.UnsafeExtendFromSlice(value, length);
    UnsafeAppendValid();
  }
  void UnsafeAppend(std::string_view value) {
    UnsafeAppend(value.data(), static_cast<int64_t>(value.size()));
  }
  void UnsafeAppendNull() {
    offsets_.UnsafeAppend(static_cast<OffsetT>(data_.size()));
    UnsafeAppendNullBit();
  }

  // Makes room for `bytes` more value bytes; CapacityError when the array
  // would then hold more than max_data_length() bytes.
  Status ReserveData(int64_t bytes) {
    if (QUIVER_PREDICT_FALSE(bytes < 0 || bytes > max_data_length_ - data_.size())) {
      return DataCapacityError(bytes);
    }
    return data_.Reserve(bytes);
  }

  // `valid_bytes` (one per value, 0 = null) may be nullptr.
  Status AppendValues(const std::vector<std::string>& values, const uint8_t* valid_bytes = nullptr);
  Status AppendValues(const std::vector<std::string_view>& values,
                      const uint8_t* valid_bytes = nullptr);
  // `n` values given as Arrow offsets (n + 1 of them, any base) into `data`.
  Status AppendValues(const OffsetT* offsets, const uint8_t* data, int64_t n,
                      const uint8_t* valid_bytes = nullptr);

  Status AppendNull() final {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppendNull();
    return Status::OK();
  }
  Status AppendNulls(int64_t n) final;
  Status AppendEmptyValue() final { return Append("", 0); }
  Status AppendEmptyValues(int64_t n) final;

  Status Resize(int64_t capacity) override;
  void Reset() override;

  // Value i (< length()) as appended so far.
  std::string_view GetView(int64_t i) const {
    const OffsetT* o = offsets_.data_as<OffsetT>();
    const int64_t end = i + 1 < length_ ? static_cast<int64_t>(o[i + 1]) : data_.size();
    return {reinterpret_cast<const char*>(data_.data()) + o[i],
            static_cast<size_t>(end - static_cast<int64_t>(o[i]))};
  }
  // Value bytes appended so far.
  int64_t value_data_length() const { return data_.size(); }
  int64_t max_data_length() const { return max_data_length_; }
  // Lowers the byte limit (tests of the overflow path without 2 GiB).
  void set_max_data_length_for_testing(int64_t limit) { max_data_length_ = limit; }

 protected:
  Result<ArrayDataPtr> FinishInternal() override;
  Status DataCapacityError(int64_t bytes) const;

  MutableBuffer offsets_;  // one start offset per slot; room for capacity() + 1
  MutableBuffer data_;
  int64_t max_data_length_ = kMaxDataLength;
};

extern template class BaseBinaryBuilder<int32_t>;
extern template class BaseBinaryBuilder<int64_t>;

class BinaryBuilder final : public BaseBinaryBuilder<int32_t> {
 public:
  explicit BinaryBuilder(MemoryPool* pool = DefaultMemoryPool())
      : BaseBinaryBuilder(binary(), pool) {}
};
class StringBuilder final : public BaseBinaryBuilder<int32_t> {
 public:
  explicit StringBuilder(MemoryPool* pool = DefaultMemoryPool())
      : BaseBinaryBuilder(utf8(), pool) {}
};
class LargeBinaryBuilder final : public BaseBinaryBuilder<int64_t> {
 public:
  explicit LargeBinaryBuilder(MemoryPool* pool = DefaultMemoryPool())
      : BaseBinaryBuilder(large_binary(), pool) {}
};
class LargeStringBuilder final : public BaseBinaryBuilder<int64_t> {
 public:
  explicit LargeStringBuilder(MemoryPool* pool = DefaultMemoryPool())
      : BaseBinaryBuilder(large_utf8(), pool) {}
};

// binary_view and string_view.
class BinaryViewBuilder final : public ArrayBuilder {
 public:
  static constexpr int64_t kViewSize = 16;
  static constexpr int64_t kInlineSize = 12;
  static constexpr int64_t kInitialBlockSize = 32 * 1024;
  static constexpr int64_t kMaxBlockSize = 1024 * 1024;
  static constexpr int64_t kMaxValueLength = std::numeric_limits<int32_t>::max();

  // `type` is binary_view() or utf8_view().
  explicit BinaryViewBuilder(TypePtr type = binary_view(), MemoryPool* pool = DefaultMemoryPool());

  Status Append(const void* value, int64_t length) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    if (length > kInlineSize) QUIVER_RETURN_NOT_OK(ReserveData(length));
    UnsafeAppend(value, length);
    return Status::OK();
  }
  Status Append(std::string_view value) {
    return Append(value.data(), static_cast<int64_t>(value.size()));
  }
  // Only after Reserve() and, for values longer than 12 bytes, ReserveData()
  // covering all of them.
  void UnsafeAppend(const void* value, int64_t length) {
    uint8_t* view = views_.data() + views_.size();
    bit_util::SafeStore(view, bit_util::ToLittleEndian(static_cast<int32_t>(length)));
    if (length <= kInlineSize) {
      std::memset(view + 4, 0, kInlineSize);
      if (length > 0) std::memcpy(view + 4, value, static_cast<size_t>(length));
    } else {
      std::memcpy(view + 4, value, 4);
      const auto index = static_cast<int32_t>(blocks_.size());
      const auto offset = static_cast<int32_t>(current_.size());
      bit_util::SafeStore(view + 8, bit_util::ToLittleEndian(index));
      bit_util::SafeStore(view + 12, bit_util::ToLittleEndian(offset));
      current_.UnsafeExtendFromSlice(value, length);
    }
    views_.UnsafeSetSize(views_.size() + kViewSize);
    UnsafeAppendValid();
  }
  void UnsafeAppend(std::string_view value) {
    UnsafeAppend(value.data(), static_cast<int64_t>(value.size()));
  }
  void UnsafeAppendNull() {
    std::memset(views_.data() + views_.size(), 0, kViewSize);
    views_.UnsafeSetSize(views_.size() + kViewSize);
    UnsafeAppendNullBit();
  }

  // Makes sure the current data block has `bytes` free bytes, starting a new
  // block (of max(bytes, block size)) if it has not. Values longer than 12
  // bytes appended after it, up to `bytes` in total, go to that block.
  // CapacityError above 2^31 - 1 bytes.
  Status ReserveData(int64_t bytes) {
    if (QUIVER_PREDICT_TRUE(bytes >= 0 && bytes <= current_free())) return Status::OK();
    return StartBlock(bytes);
  }

  Status AppendValues(const std::vector<std::string>& values, const uint8_t* valid_bytes = nullptr);
  Status AppendValues(const std::vector<std::string_view>& values,
                      const uint8_t* valid_bytes = nullptr);

  Status AppendNull() final {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppendNull();
    return Status::OK();
  }
  Status AppendNulls(int64_t n) final;
  Status AppendEmptyValue() final { return Append("", 0); }
  Status AppendEmptyValues(int64_t n) final;

  Status Resize(int64_t capacity) override;
  void Reset() override;

  std::string_view GetView(int64_t i) const;
  // Data blocks so far, the current one included if it holds any bytes.
  int64_t num_data_blocks() const {
    return static_cast<int64_t>(blocks_.size()) + (current_.size() > 0 ? 1 : 0);
  }

 protected:
  Result<ArrayDataPtr> FinishInternal() override;

 private:
  int64_t current_free() const {
    // A view's offset is int32: never write a block past 2^31 - 1 bytes.
    const int64_t cap = current_.capacity() < kMaxValueLength ? current_.capacity()
                                                              : kMaxValueLength;
    return cap - current_.size();
  }
  Status StartBlock(int64_t bytes);

  MutableBuffer views_;
  std::vector<std::shared_ptr<Buffer>> blocks_;  // full blocks
  MutableBuffer current_;                        // block index blocks_.size()
  int64_t next_block_size_ = kInitialBlockSize;
};

}  // namespace quiver
