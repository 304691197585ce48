#include "quiver/memory/huge_block_cache_internal.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace quiver::internal {

HugeBlockCache::~HugeBlockCache() { ReleaseAll(); }

int64_t HugeBlockCache::SizeClass(int64_t size) {
  // Four classes a power of two: [2^k, 2^k + 2^(k-2), ..., 2^(k+1)).
  const int k = 63 - std::countl_zero(static_cast<uint64_t>(size));
  const int64_t step = int64_t{1} << (k - 2);
  return (size + step - 1) / step * step;
}

uint8_t* HugeBlockCache::Allocate(int64_t size, int64_t alignment) {
  const int64_t capacity = SizeClass(size);
  std::vector<Entry> expired;
  uint8_t* found = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ExpireLocked(now_(), &expired);
    // The most recently freed block of the class.
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (it->capacity == capacity && it->alignment == alignment) {
        found = it->ptr;
        bytes_ -= it->capacity;
        entries_.erase(std::next(it).base());
        break;
      }
    }
  }
  Release(expired);
  return found != nullptr ? found : allocate_(capacity, alignment);
}

void HugeBlockCache::Free(uint8_t* ptr, int64_t size, int64_t alignment) {
  const int64_t capacity = SizeClass(size);
  std::vector<Entry> expired;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const Clock::time_point now = now_();
    entries_.push_back({ptr, capacity, alignment, now});
    bytes_ += capacity;
    ExpireLocked(now, &expired);
  }
  Release(expired);
}

uint8_t* HugeBlockCache::Reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size,
                                    int64_t alignment,
                                    uint8_t* (*small_allocate)(int64_t, int64_t),
                                    void (*small_free)(uint8_t*, int64_t, int64_t)) {
  const bool old_huge = IsHuge(old_size);
  const bool new_huge = IsHuge(new_size);
  if (old_huge && new_huge && SizeClass(old_size) == SizeClass(new_size)) return ptr;
  uint8_t* out = new_huge ? Allocate(new_size, alignment) : small_allocate(new_size, alignment);
  if (out == nullptr) return nullptr;
  std::memcpy(out, ptr, static_cast<size_t>(std::min(old_size, new_size)));
  if (old_huge) {
    Free(ptr, old_size, alignment);
  } else {
    small_free(ptr, old_size, alignment);
  }
  return out;
}

void HugeBlockCache::ExpireLocked(Clock::time_point now, std::vector<Entry>* out) {
  size_t keep_from = 0;
  // Oldest first: expired, or over the byte limit.
  int64_t bytes = bytes_;
  while (keep_from < entries_.size() &&
         (now - entries_[keep_from].freed >= kDecay || bytes > kMaxBytes)) {
    bytes -= entries_[keep_from].capacity;
    ++keep_from;
  }
  if (keep_from == 0) return;
  out->assign(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(keep_from));
  entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(keep_from));
  bytes_ = bytes;
}

void HugeBlockCache::Release(const std::vector<Entry>& entries) {
  for (const Entry& e : entries) free_(e.ptr, e.capacity, e.alignment);
}

int64_t HugeBlockCache::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

int64_t HugeBlockCache::cached_blocks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int64_t>(entries_.size());
}

void HugeBlockCache::ReleaseAll() {
  std::vector<Entry> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    all.swap(entries_);
    bytes_ = 0;
  }
  Release(all);
}

}  // namespace quiver::internal
