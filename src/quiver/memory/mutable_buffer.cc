#include "quiver/memory/mutable_buffer.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace quiver {

namespace internal {
std::shared_ptr<Buffer> MakePoolBuffer(MemoryPool* pool, uint8_t* data, int64_t size,
                                       int64_t capacity);
}  // namespace internal

namespace {
constexpr int64_t RoundUp64(int64_t n) { return (n + 63) & ~int64_t{63}; }
constexpr int64_t kMaxCapacity = std::numeric_limits<int64_t>::max() / 2 - 64;
// Freeze() zeroes at most this much unused room; past it, only the padding.
constexpr int64_t kZeroedTailLimit = int64_t{1} << 18;
}  // namespace

Result<MutableBuffer> MutableBuffer::WithCapacity(int64_t capacity, MemoryPool* pool) {
  if (capacity < 0) return Status::Invalid("negative capacity: ", capacity);
  MutableBuffer buffer(pool);
  if (capacity == 0 || capacity > kMaxCapacity) {
    QUIVER_RETURN_NOT_OK(buffer.Reserve(capacity));  // nothing, or Grow's error
    return buffer;
  }
  // What Reserve does on an empty buffer (Grow: RoundUp64, a Reallocate
  // of nothing), as one Allocate: every kernel's output comes here.
  const int64_t rounded = RoundUp64(capacity);
  QUIVER_ASSIGN_OR_RAISE(buffer.data_, pool->Allocate(rounded));
  buffer.capacity_ = rounded;
  return buffer;
}

Status MutableBuffer::Grow(int64_t additional) {
  if (additional < 0) return Status::Invalid("Reserve: negative byte count ", additional);
  if (additional > kMaxCapacity - size_) {
    return Status::CapacityError("Reserve: ", size_, " + ", additional,
                                 " bytes overflows a buffer's capacity");
  }
  const int64_t needed = RoundUp64(size_ + additional);
  const int64_t new_capacity = std::max(needed, capacity_ * 2);
  if (size_ < capacity_ / 2) {
    // A reallocation copies the whole old block; the bytes in use are
    // fewer (none, after Clear() or a first small Reserve): those only.
    QUIVER_ASSIGN_OR_RAISE(uint8_t* moved, pool_->Allocate(new_capacity));
    if (size_ > 0) std::memcpy(moved, data_, static_cast<size_t>(size_));
    pool_->Free(data_, capacity_);
    data_ = moved;
  } else {
    QUIVER_ASSIGN_OR_RAISE(data_, pool_->Reallocate(data_, capacity_, new_capacity));
  }
  capacity_ = new_capacity;
  return Status::OK();
}

Status MutableBuffer::Resize(int64_t new_size, uint8_t value) {
  if (new_size < 0) return Status::Invalid("Resize: negative size ", new_size);
  if (new_size > size_) {
    QUIVER_RETURN_NOT_OK(Reserve(new_size - size_));
    std::memset(data_ + size_, value, static_cast<size_t>(new_size - size_));
  }
  size_ = new_size;
  return Status::OK();
}

Status MutableBuffer::ShrinkToFit() {
  const int64_t fit = RoundUp64(size_);
  if (fit >= capacity_) return Status::OK();
  QUIVER_ASSIGN_OR_RAISE(data_, pool_->Reallocate(data_, capacity_, fit));
  capacity_ = fit;
  return Status::OK();
}

std::shared_ptr<Buffer> MutableBuffer::Freeze() {
  if (size_ == 0) {
    Release();
    Reset();
    return std::make_shared<Buffer>();
  }
  if (capacity_ - size_ > kZeroedTailLimit) {
    // Much unused room (a reservation from an estimate): zeroing it would
    // touch pages never written. The 64-byte padding is zeroed, the rest
    // never exposed (FreezeSlice's slice).
    const int64_t padded = std::min(RoundUp64(size_), capacity_);
    std::memset(data_ + size_, 0, static_cast<size_t>(padded - size_));
    const int64_t size = size_;
    size_ = capacity_;
    return SliceBuffer(Freeze(), 0, size);
  }
  // Not memset(end, 0, 0): glibc's AVX-512 memset does a masked store with an empty mask, which
  // costs ~170 ns when `end` lies on a page not yet written (past an exact-size allocation).
  if (capacity_ > size_) std::memset(data_ + size_, 0, static_cast<size_t>(capacity_ - size_));
  auto frozen = internal::MakePoolBuffer(pool_, data_, size_, capacity_);
  Reset();
  return frozen;
}

std::shared_ptr<Buffer> MutableBuffer::FreezeSlice() {
  const int64_t size = size_;
  size_ = capacity_;  // the allocation whole: nothing to zero
  return SliceBuffer(Freeze(), 0, size);
}

}  // namespace quiver
