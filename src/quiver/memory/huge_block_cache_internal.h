// Not installed: a cache of freed huge blocks for the mimalloc pool.
//
// mimalloc 2.0 (Debian 12's) gives every block of 16 MiB or more a mapping
// of its own and unmaps it on free, so each such buffer pays a page fault and
// a page clear per 4 KiB on every use (a 1,048,576-row fixed_size_binary(16)
// column read: 14 ms against 3.5 ms with its pages kept). Reserving a
// mimalloc arena does not help unless it is committed, and a committed
// arena keeps every page it ever touched resident for the life of the
// process. jemalloc keeps freed pages for a decay time instead; this cache
// does the same for huge blocks:
//
// - Blocks of at least kMinBytes are allocated with a capacity rounded up to
//   a size class (four a power of two, so at most 25% more address space;
//   pages past the requested size are never touched, so never resident
//   unless a larger request reuses the block).
// - A freed huge block is kept (not returned to mimalloc) for up to
//   kDecay; an allocation of the same size class and alignment takes the
//   most recently freed one. At most kMaxBytes are kept; older blocks are
//   released first. Expired blocks are released on the next huge Allocate
//   or Free (no background thread, as jemalloc without background threads).
// - Reallocate within a size class keeps the block (the capacity is there).
//
// Thread-safe (one mutex, taken only on huge blocks).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <vector>

namespace quiver::internal {

class HugeBlockCache {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr int64_t kMinBytes = int64_t{16} << 20;
  static constexpr std::chrono::milliseconds kDecay{1000};
  static constexpr int64_t kMaxBytes = int64_t{1} << 30;

  // The backend's functions (capacity and alignment as allocated).
  using AllocateFn = uint8_t* (*)(int64_t size, int64_t alignment);
  using FreeFn = void (*)(uint8_t* ptr, int64_t size, int64_t alignment);

  HugeBlockCache(AllocateFn allocate, FreeFn free) : allocate_(allocate), free_(free) {}
  ~HugeBlockCache();
  HugeBlockCache(const HugeBlockCache&) = delete;
  HugeBlockCache& operator=(const HugeBlockCache&) = delete;

  static bool IsHuge(int64_t size) { return size >= kMinBytes; }
  // The capacity a huge block of `size` bytes gets.
  static int64_t SizeClass(int64_t size);

  // A block of at least `size` (huge) bytes: a cached one of its size class,
  // else the backend's. nullptr when the backend fails.
  uint8_t* Allocate(int64_t size, int64_t alignment);
  // Keeps a huge block allocated here (`size`: as requested).
  void Free(uint8_t* ptr, int64_t size, int64_t alignment);
  // Grows or shrinks a block from either path (`old_size` or `new_size`
  // huge): the same block within one size class, else a new one, the bytes
  // copied, the old one freed. nullptr (the old block untouched) on failure.
  uint8_t* Reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size, int64_t alignment,
                      uint8_t* (*small_allocate)(int64_t, int64_t),
                      void (*small_free)(uint8_t*, int64_t, int64_t));

  // Bytes and blocks kept now (for tests).
  int64_t cached_bytes() const;
  int64_t cached_blocks() const;
  // Releases every kept block now.
  void ReleaseAll();
  // The clock (tests move it).
  void set_clock_for_testing(Clock::time_point (*now)()) { now_ = now; }

 private:
  struct Entry {
    uint8_t* ptr;
    int64_t capacity;
    int64_t alignment;
    Clock::time_point freed;
  };
  // Removes expired entries (and the oldest past kMaxBytes) into `out`.
  void ExpireLocked(Clock::time_point now, std::vector<Entry>* out);
  void Release(const std::vector<Entry>& entries);

  AllocateFn allocate_;
  FreeFn free_;
  Clock::time_point (*now_)() = &Clock::now;
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;  // in the order freed (oldest first)
  int64_t bytes_ = 0;
};

}  // namespace quiver::internal
