// Buffer: an immutable, shared block of bytes.
//
// Buffers are shared through std::shared_ptr<Buffer>. A slice keeps its parent
// alive; a buffer that owns pool memory returns it to the same pool when the
// last reference goes. A buffer with no bytes of its own (default-constructed,
// empty, adopted from an empty vector, a zero-length slice) points at the
// zero-size area (zero_size_area.h), never at nullptr or a dangling address.
// To build a buffer, use MutableBuffer and Freeze() it (no copy).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/memory/memory_pool.h"
#include "quiver/memory/zero_size_area.h"
#include "quiver/util/result.h"

namespace quiver {

// Byte equality of two ranges of `length` bytes, through memcmp with the
// run-time length and no shortcuts: the cost of comparing empty values is
// then exactly the cost of memcmp at their addresses (see EmptyCompare in
// bench/buffer_benchmark.cc).
inline bool BytesEqual(const uint8_t* left, const uint8_t* right, int64_t length) noexcept {
  return std::memcmp(left, right, static_cast<size_t>(length)) == 0;
}

class Buffer {
 public:
  // An empty buffer at the zero-size area.
  Buffer() noexcept : data_(ZeroSizeArea()) {}
  // A non-owning view of `size` bytes at `data`: the caller keeps them alive.
  // An empty view points at the zero-size area whatever `data` is.
  Buffer(const uint8_t* data, int64_t size) noexcept
      : data_(size == 0 ? ZeroSizeArea() : data), size_(size), capacity_(size) {}
  // A view of part of `parent` (kept alive by this buffer).
  Buffer(std::shared_ptr<Buffer> parent, int64_t offset, int64_t size) noexcept;

  virtual ~Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const uint8_t* data() const noexcept { return data_; }
  int64_t size() const noexcept { return size_; }
  // Bytes usable at data() (>= size): the allocation's capacity for an owning
  // buffer, whose bytes past size() are zero.
  int64_t capacity() const noexcept { return capacity_; }
  bool empty() const noexcept { return size_ == 0; }

  template <typename T>
  const T* data_as() const noexcept {
    return reinterpret_cast<const T*>(data_);
  }
  std::span<const uint8_t> span() const noexcept {
    return {data_, static_cast<size_t>(size_)};
  }
  std::string_view view() const noexcept {
    return {reinterpret_cast<const char*>(data_), static_cast<size_t>(size_)};
  }

  // Same size and same bytes.
  bool Equals(const Buffer& other) const noexcept {
    return size_ == other.size_ && BytesEqual(data_, other.data_, size_);
  }
  bool Equals(const Buffer& other, int64_t nbytes) const noexcept {
    return size_ >= nbytes && other.size_ >= nbytes && BytesEqual(data_, other.data_, nbytes);
  }

  const std::shared_ptr<Buffer>& parent() const noexcept { return parent_; }
  // The pool this buffer's memory came from, or nullptr if it does not own
  // pool memory (a view, a slice, an adopted vector).
  MemoryPool* pool() const noexcept { return pool_; }

  std::string ToHexString() const;

  // A shared empty buffer.
  static std::shared_ptr<Buffer> Empty();
  // A non-owning view; the caller keeps the memory alive.
  static std::shared_ptr<Buffer> Wrap(const void* data, int64_t size);
  // A view that holds `owner` until the buffer dies (e.g. a C Data Interface
  // release guard, a Python object, a memory map).
  static std::shared_ptr<Buffer> WrapWithOwner(const void* data, int64_t size,
                                               std::shared_ptr<const void> owner);
  // Adopts the vector's storage without copying.
  static std::shared_ptr<Buffer> FromVector(std::vector<uint8_t> bytes);
  static std::shared_ptr<Buffer> FromString(std::string bytes);
  // A 64-byte aligned copy in `pool`.
  static Result<std::shared_ptr<Buffer>> Copy(const void* data, int64_t size,
                                              MemoryPool* pool = DefaultMemoryPool());

 protected:
  const uint8_t* data_;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
  std::shared_ptr<Buffer> parent_;
  MemoryPool* pool_ = nullptr;
};

// A zero-copy slice [offset, offset + length) of `parent`; the caller checks
// bounds (debug builds assert). A zero-length slice is empty at the zero-size
// area (the address one past an allocation may be on an unmapped page).
std::shared_ptr<Buffer> SliceBuffer(const std::shared_ptr<Buffer>& parent, int64_t offset,
                                    int64_t length);
// The same with bounds checked: Invalid if the range is outside the parent.
Result<std::shared_ptr<Buffer>> SliceBufferSafe(const std::shared_ptr<Buffer>& parent,
                                                int64_t offset, int64_t length);

}  // namespace quiver
