// Variable-width binary builders (offsets, views and data blocks). Design
// notes: builder_binary.h.
#include "quiver/array/builder_binary.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace quiver {

namespace {

// AppendValues of strings or views (`valid_bytes`: one per value, 0 = null,
// or nullptr): the slots reserved once, and the data once for offsets
// builders (the valid values' total), per value longer than the inline
// size for the view builder; then unchecked appends.
template <typename Builder, typename Str>
Status AppendStringValues(Builder* b, const std::vector<Str>& values, const uint8_t* valid_bytes) {
  constexpr bool kViews = std::is_same_v<Builder, BinaryViewBuilder>;
  auto valid = [&](size_t i) { return valid_bytes == nullptr || valid_bytes[i] != 0; };
  QUIVER_RETURN_NOT_OK(b->Reserve(static_cast<int64_t>(values.size())));
  if constexpr (!kViews) {
    int64_t total = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      if (valid(i)) total += static_cast<int64_t>(values[i].size());
    }
    QUIVER_RETURN_NOT_OK(b->ReserveData(total));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!valid(i)) {
      b->UnsafeAppendNull();
      continue;
    }
    if constexpr (kViews) {
      const auto n = static_cast<int64_t>(values[i].size());
      if (n > BinaryViewBuilder::kInlineSize) QUIVER_RETURN_NOT_OK(b->ReserveData(n));
    }
    b->UnsafeAppend(values[i]);
  }
  return Status::OK();
}

}  // namespace

// --- BaseBinaryBuilder -------------------------------------------------------

template <typename OffsetT>
BaseBinaryBuilder<OffsetT>::BaseBinaryBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(pool), data_(pool) {}

template <typename OffsetT>
Status BaseBinaryBuilder<OffsetT>::DataCapacityError(int64_t bytes) const {
  if (bytes < 0) return Status::Invalid("ReserveData: negative byte count ", bytes);
  return Status::CapacityError(
      type_->ToString(), " array cannot hold more than ", max_data_length_,
      " bytes of values", (sizeof(OffsetT) == 4 ? " (32-bit offsets)" : ""), ": it holds ",
      data_.size(), " and a value of ", bytes, " bytes was appended at slot ", length_,
      (sizeof(OffsetT) == 4 ? "; use the large_ type or start a new chunk" : ""));
}

template <typename OffsetT>
Status BaseBinaryBuilder<OffsetT>::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("Resize: capacity ", capacity, " is less than the length ", length_);
  }
  // One more offset than slots: the end offset written by Finish.
  const int64_t bytes = (capacity + 1) * static_cast<int64_t>(sizeof(OffsetT));
  if (bytes > offsets_.size()) QUIVER_RETURN_NOT_OK(offsets_.Reserve(bytes - offsets_.size()));
  return ArrayBuilder::Resize(capacity);
}

template <typename OffsetT>
void BaseBinaryBuilder<OffsetT>::Reset() {
  offsets_ = MutableBuffer(pool_);
  data_ = MutableBuffer(pool_);
  ArrayBuilder::Reset();
}

template <typename OffsetT>
Status BaseBinaryBuilder<OffsetT>::AppendValues(const std::vector<std::string>& values,
                                                const uint8_t* valid_bytes) {
  return AppendStringValues(this, values, valid_bytes);
}

template <typename OffsetT>
Status BaseBinaryBuilder<OffsetT>::AppendValues(const std::vector<std::string_view>& values,
                                                const uint8_t* valid_bytes) {
  return AppendStringValues(this, values, valid_bytes);
}

template <typename OffsetT>
Status BaseBinaryBuilder<OffsetT>::AppendValues(const OffsetT* offsets, const uint8_t* data,
                                                int64_t n, const uint8_t* valid_bytes) {
  if (n < 0) return Status::Invalid("AppendValues: negative count ", n);
  if (n == 0) return Status::OK();
  if (offsets[0] < 0) return Status::Invalid("AppendValues: negative first offset ", offsets[0]);
  for (int64_t i = 0; i < n; ++i) {
    if (offsets[i + 1] < offsets[i]) {
      return Status::Invalid("AppendValues: offsets decrease at value ", i, " (", offsets[i],
                             " then ", offsets[i + 1], ")");
    }
  }
  QUIVER_RETURN_NOT_OK(Reserve(n));
  QUIVER_RETURN_NOT_OK(ReserveData(static_cast<int64_t>(offsets[n] - offsets[0])));
  for (int64_t i = 0; i < n; ++i) {
    if (valid_bytes == nullptr || valid_bytes[i] != 0) {
      UnsafeAppend(data + offsets[i], static_cast<int64_t>(offsets[i + 1] - offsets[i]));
    } else {
      UnsafeAppendNull();
    }
  }
  return Status::OK();
}

template <typename OffsetT>
Status BaseBinaryBuilder<OffsetT>::AppendNulls(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  const auto end = static_cast<OffsetT>(data_.size());
  for (int64_t i = 0; i < n; ++i) offsets_.UnsafeAppend(end);
  UnsafeAppendNullBits(n);
  return Status::OK();
}

template <typename OffsetT>
Status BaseBinaryBuilder<OffsetT>::AppendEmptyValues(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  const auto end = static_cast<OffsetT>(data_.size());
  for (int64_t i = 0; i < n; ++i) offsets_.UnsafeAppend(end);
  UnsafeAppendValidBits(n);
  return Status::OK();
}

template <typename OffsetT>
Result<ArrayDataPtr> BaseBinaryBuilder<OffsetT>::FinishInternal() {
  // Room for the end offset exists once Resize ran; an untouched builder has
  // none yet.
  QUIVER_RETURN_NOT_OK(offsets_.Reserve(sizeof(OffsetT)));
  offsets_.UnsafeAppend(static_cast<OffsetT>(data_.size()));
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length_, {std::move(validity), offsets_.Freeze(), data_.Freeze()},
                         null_count_);
}

template class BaseBinaryBuilder<int32_t>;
template class BaseBinaryBuilder<int64_t>;

// --- BinaryViewBuilder -------------------------------------------------------

BinaryViewBuilder::BinaryViewBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), views_(pool), current_(pool) {}

Status BinaryViewBuilder::StartBlock(int64_t bytes) {
  if (bytes < 0) return Status::Invalid("ReserveData: negative byte count ", bytes);
  if (bytes > kMaxValueLength) {
    return Status::CapacityError(type_->ToString(), ": a value (or reservation) of ", bytes,
                                 " bytes at slot ", length_, " exceeds the view limit of ",
                                 kMaxValueLength, " bytes");
  }
  MutableBuffer block(pool_);
  QUIVER_RETURN_NOT_OK(block.Reserve(std::max(bytes, next_block_size_)));
  if (current_.size() > 0) {
    blocks_.push_back(current_.Freeze());
    next_block_size_ = std::min(next_block_size_ * 2, kMaxBlockSize);
  }
  current_ = std::move(block);
  return Status::OK();
}

Status BinaryViewBuilder::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("Resize: capacity ", capacity, " is less than the length ", length_);
  }
  const int64_t bytes = capacity * kViewSize;
  if (bytes > views_.size()) QUIVER_RETURN_NOT_OK(views_.Reserve(bytes - views_.size()));
  return ArrayBuilder::Resize(capacity);
}

void BinaryViewBuilder::Reset() {
  views_ = MutableBuffer(pool_);
  blocks_.clear();
  current_ = MutableBuffer(pool_);
  next_block_size_ = kInitialBlockSize;
  ArrayBuilder::Reset();
}

Status BinaryViewBuilder::AppendValues(const std::vector<std::string>& values,
                                       const uint8_t* valid_bytes) {
  return AppendStringValues(this, values, valid_bytes);
}

Status BinaryViewBuilder::AppendValues(const std::vector<std::string_view>& values,
                                       const uint8_t* valid_bytes) {
  return AppendStringValues(this, values, valid_bytes);
}

Status BinaryViewBuilder::AppendNulls(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  std::memset(views_.data() + views_.size(), 0, static_cast<size_t>(n * kViewSize));
  views_.UnsafeSetSize(views_.size() + n * kViewSize);
  UnsafeAppendNullBits(n);
  return Status::OK();
}

Status BinaryViewBuilder::AppendEmptyValues(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  std::memset(views_.data() + views_.size(), 0, static_cast<size_t>(n * kViewSize));
  views_.UnsafeSetSize(views_.size() + n * kViewSize);
  UnsafeAppendValidBits(n);
  return Status::OK();
}

std::string_view BinaryViewBuilder::GetView(int64_t i) const {
  const uint8_t* view = views_.data() + i * kViewSize;
  const int32_t len = bit_util::FromLittleEndian(bit_util::SafeLoad<int32_t>(view));
  if (len <= kInlineSize) {
    return {reinterpret_cast<const char*>(view + 4), static_cast<size_t>(len)};
  }
  const auto index =
      static_cast<size_t>(bit_util::FromLittleEndian(bit_util::SafeLoad<int32_t>(view + 8)));
  const int32_t offset = bit_util::FromLittleEndian(bit_util::SafeLoad<int32_t>(view + 12));
  const uint8_t* base = index < blocks_.size() ? blocks_[index]->data() : current_.data();
  return {reinterpret_cast<const char*>(base) + offset, static_cast<size_t>(len)};
}

Result<ArrayDataPtr> BinaryViewBuilder::FinishInternal() {
  std::vector<std::shared_ptr<Buffer>> buffers;
  buffers.reserve(blocks_.size() + 3);
  buffers.push_back(FinishValidity());
  buffers.push_back(views_.Freeze());
  for (auto& block : blocks_) buffers.push_back(std::move(block));
  blocks_.clear();
  if (current_.size() > 0) {
    // The last block is often mostly empty: give the rest back. (A failed
    // shrink just keeps the larger allocation.)
    if (current_.size() < current_.capacity() / 2) (void)current_.ShrinkToFit();
    buffers.push_back(current_.Freeze());
  }
  return ArrayData::Make(type_, length_, std::move(buffers), null_count_);
}

}  // namespace quiver
