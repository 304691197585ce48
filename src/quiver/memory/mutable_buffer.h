// MutableBuffer: a growable byte buffer shaped like std::vector<uint8_t>
// (and arrow-rs's MutableBuffer), backed by a MemoryPool.
//
//   std::vector / arrow-rs      MutableBuffer
//   with_capacity(n)            WithCapacity(n)
//   reserve(additional)         Reserve(additional)   -- NOT a new length
//   resize(n, v)                Resize(n, v)          -- fills only new bytes
//   push / extend_from_slice    Push / ExtendFromSlice / Append<T>
//   shrink_to_fit / clear       ShrinkToFit / Clear
//   freeze() -> Buffer          Freeze()              -- no copy
//
// Growth allocates without zeroing: Reserve grows the capacity to
// max(needed rounded up to 64, 2 x capacity) (a reallocation, or a new block
// and a copy of the bytes in use when they are under half the old one).
// Bytes between size and capacity are uninitialised until Freeze(), which
// zeroes them (or, past 256 KiB of them, the padding to 64 bytes and
// exposes no more), so that no uninitialised memory can ever reach a file. A
// MutableBuffer with no allocation points at the zero-size area.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "quiver/memory/buffer.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/memory/zero_size_area.h"
#include "quiver/util/result.h"

namespace quiver {

class MutableBuffer {
 public:
  explicit MutableBuffer(MemoryPool* pool = DefaultMemoryPool()) noexcept : pool_(pool) {}
  ~MutableBuffer() { Release(); }

  MutableBuffer(MutableBuffer&& other) noexcept
      : pool_(other.pool_), data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
    other.Reset();
  }
  MutableBuffer& operator=(MutableBuffer&& other) noexcept {
    if (this != &other) {
      Release();
      pool_ = other.pool_;
      data_ = other.data_;
      size_ = other.size_;
      capacity_ = other.capacity_;
      other.Reset();
    }
    return *this;
  }
  MutableBuffer(const MutableBuffer&) = delete;
  MutableBuffer& operator=(const MutableBuffer&) = delete;

  // An empty buffer with room for at least `capacity` bytes (rounded up to 64).
  static Result<MutableBuffer> WithCapacity(int64_t capacity,
                                            MemoryPool* pool = DefaultMemoryPool());

  uint8_t* data() noexcept { return data_; }
  const uint8_t* data() const noexcept { return data_; }
  template <typename T>
  T* data_as() noexcept {
    return reinterpret_cast<T*>(data_);
  }
  template <typename T>
  const T* data_as() const noexcept {
    return reinterpret_cast<const T*>(data_);
  }
  int64_t size() const noexcept { return size_; }
  int64_t capacity() const noexcept { return capacity_; }
  bool empty() const noexcept { return size_ == 0; }
  MemoryPool* pool() const noexcept { return pool_; }

  // Makes room for `additional` more bytes past size(), growing to
  // max(RoundUp64(size + additional), 2 * capacity). New memory is not zeroed.
  Status Reserve(int64_t additional) {
    if (QUIVER_PREDICT_TRUE(additional <= capacity_ - size_)) return Status::OK();
    return Grow(additional);
  }

  // Sets the length. Growing fills only the new bytes with `value`;
  // shrinking keeps the capacity.
  Status Resize(int64_t new_size, uint8_t value = 0);

  // Appends, growing as needed.
  Status Push(uint8_t byte) {
    QUIVER_RETURN_NOT_OK(Reserve(1));
    data_[size_++] = byte;
    return Status::OK();
  }
  template <typename T>
  Status Append(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    QUIVER_RETURN_NOT_OK(Reserve(sizeof(T)));
    UnsafeAppend(value);
    return Status::OK();
  }
  Status ExtendFromSlice(const void* bytes, int64_t length) {
    QUIVER_RETURN_NOT_OK(Reserve(length));
    UnsafeExtendFromSlice(bytes, length);
    return Status::OK();
  }
  // Appends `count` copies of `byte`.
  Status AppendRepeated(uint8_t byte, int64_t count) {
    QUIVER_RETURN_NOT_OK(Reserve(count));
    if (count > 0) std::memset(data_ + size_, byte, static_cast<size_t>(count));
    size_ += count;
    return Status::OK();
  }

  // Appends without checking capacity: only after Reserve().
  template <typename T>
  void UnsafeAppend(const T& value) noexcept {
    QUIVER_DCHECK_LE(static_cast<int64_t>(sizeof(T)), capacity_ - size_);
    std::memcpy(data_ + size_, &value, sizeof(T));
    size_ += static_cast<int64_t>(sizeof(T));
  }
  void UnsafeExtendFromSlice(const void* bytes, int64_t length) noexcept {
    QUIVER_DCHECK(length >= 0 && length <= capacity_ - size_, "appending ", length,
                  " bytes to ", size_, " of ", capacity_);
    if (length > 0) std::memcpy(data_ + size_, bytes, static_cast<size_t>(length));
    size_ += length;
  }
  // Sets size() without touching the bytes (they must have been written).
  void UnsafeSetSize(int64_t size) noexcept {
    QUIVER_DCHECK(size >= 0 && size <= capacity_, "size ", size, " beyond capacity ", capacity_);
    size_ = size;
  }

  // Releases capacity beyond RoundUp64(size()); an empty buffer frees its
  // allocation and returns to the zero-size area.
  Status ShrinkToFit();

  // Sets size() to 0; the allocation is kept for reuse.
  void Clear() noexcept { size_ = 0; }

  // Turns this into an immutable Buffer without copying the bytes. The bytes
  // between size() and capacity() are zeroed first; with more than 256 KiB
  // of them, only those up to the next multiple of 64, and the Buffer is a
  // slice of the first size() bytes (as FreezeSlice's). An empty buffer frees its
  // allocation and freezes to an empty Buffer at the zero-size area. This
  // MutableBuffer is left empty and reusable.
  std::shared_ptr<Buffer> Freeze();
  // Freeze() without zeroing: a slice of the first size() bytes of the
  // allocation (which it keeps alive; the rest is never exposed). For a
  // buffer handed over while much of its capacity is unused (a page body
  // in a buffer reserved for the largest page), where zeroing the rest
  // would cost as much as copying the bytes.
  std::shared_ptr<Buffer> FreezeSlice();

 private:
  Status Grow(int64_t additional);
  void Release() noexcept {
    if (capacity_ > 0) pool_->Free(data_, capacity_);
  }
  void Reset() noexcept {
    data_ = ZeroSizeArea();
    size_ = 0;
    capacity_ = 0;
  }

  MemoryPool* pool_;
  uint8_t* data_ = ZeroSizeArea();
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

}  // namespace quiver
