// MemoryPool: where every Quiver buffer gets its bytes.
//
// All allocations are 64-byte aligned (the Arrow columnar format's
// recommendation, one cache line / one AVX-512 register). A request for zero
// bytes never allocates: it returns the zero-size area, a static 256-byte
// aligned block that is never freed (see zero_size_area.h for why).
//
// Backends: the system allocator (posix_memalign), jemalloc and mimalloc. The
// last two are found at run time (in the process, or by loading Debian's
// libjemalloc.so.2 / libmimalloc.so.2), so linking Quiver never replaces the
// process's malloc. DefaultMemoryPool() picks one at start-up; the environment
// variable QUIVER_MEMORY_POOL=system|jemalloc|mimalloc overrides the choice.
// Pointers from one pool are only ever freed by that same pool.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "quiver/util/result.h"

namespace quiver {

inline constexpr int64_t kDefaultBufferAlignment = 64;

class MemoryPool {
 public:
  virtual ~MemoryPool() = default;
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // `size` bytes aligned to `alignment` (a power of two, at least 64 is
  // used). The memory is NOT zeroed. size == 0 returns the zero-size area.
  virtual Result<uint8_t*> Allocate(int64_t size,
                                    int64_t alignment = kDefaultBufferAlignment) = 0;
  // Grows or shrinks an allocation made by this pool, keeping the first
  // min(old_size, new_size) bytes. Bytes past old_size are not initialised.
  // On failure the old allocation is untouched and still owned by the caller.
  virtual Result<uint8_t*> Reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size,
                                      int64_t alignment = kDefaultBufferAlignment) = 0;
  // Returns memory to the pool. Freeing the zero-size area is a no-op.
  virtual void Free(uint8_t* ptr, int64_t size,
                    int64_t alignment = kDefaultBufferAlignment) = 0;

  // Bytes currently allocated through this pool.
  virtual int64_t bytes_allocated() const = 0;
  // Peak of bytes_allocated() over the pool's life.
  virtual int64_t max_memory() const = 0;
  // Sum of every allocation's size plus every growth by Reallocate.
  virtual int64_t total_bytes_allocated() const = 0;
  // Allocate calls that allocated (size > 0) plus Reallocate calls to a
  // non-zero size.
  virtual int64_t num_allocations() const = 0;
  // "system", "jemalloc", "mimalloc", or "capped(<parent>)".
  virtual std::string backend_name() const = 0;

 protected:
  MemoryPool() = default;
};

// The process-wide default pool (chosen once, at first use).
MemoryPool* DefaultMemoryPool();

// Individual backends. The system pool is always available; jemalloc and
// mimalloc return an error Status when their library cannot be found or
// loaded in this process (e.g. jemalloc cannot be dlopen'ed into a process
// that started without it, because it needs static TLS).
MemoryPool* SystemMemoryPool();
Result<MemoryPool*> JemallocMemoryPool();
Result<MemoryPool*> MimallocMemoryPool();

// Pool by name ("system", "jemalloc", "mimalloc").
Result<MemoryPool*> MemoryPoolByName(std::string_view name);

// The backend names that can be used in this process, in order of preference.
std::string SupportedMemoryBackendNames();

// True when this build runs under AddressSanitizer (and the default pool is
// therefore the system pool: ASan cannot see inside jemalloc/mimalloc arenas).
bool BuiltWithAddressSanitizer();

// A pool that refuses to hold more than `limit` bytes at once: for untrusted
// input, where a hostile file must not make the process allocate without
// bound. Over the limit, Allocate/Reallocate return OutOfMemory and leave the
// pool fully usable. Statistics are those of this pool's own allocations.
class CappedMemoryPool final : public MemoryPool {
 public:
  CappedMemoryPool(MemoryPool* parent, int64_t limit);

  Result<uint8_t*> Allocate(int64_t size, int64_t alignment = kDefaultBufferAlignment) override;
  Result<uint8_t*> Reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size,
                              int64_t alignment = kDefaultBufferAlignment) override;
  void Free(uint8_t* ptr, int64_t size, int64_t alignment = kDefaultBufferAlignment) override;

  int64_t bytes_allocated() const override;
  int64_t max_memory() const override;
  int64_t total_bytes_allocated() const override;
  int64_t num_allocations() const override;
  std::string backend_name() const override;

  int64_t limit() const { return limit_; }
  MemoryPool* parent() const { return parent_; }

  // A capped pool for an object (e.g. a Parquet reader) whose buffers may
  // outlive it: buffers keep a raw pool pointer, so the pool itself is never
  // destroyed. Leased pools live in a process-wide list; a pool whose lease
  // has ended is given out again (with the new parent, limit and zeroed
  // statistics) once every buffer it allocated is freed, so the list grows
  // only to the number of leases whose pools still hold memory.
  static std::shared_ptr<CappedMemoryPool> Lease(MemoryPool* parent, int64_t limit);

 private:
  // Reserves `delta` bytes against the limit; false if that would exceed it.
  bool TryReserve(int64_t delta);
  void UpdatePeak(int64_t now);

  MemoryPool* parent_;
  int64_t limit_;
  bool leased_ = false;  // guarded by the lease list's mutex
  std::atomic<int64_t> bytes_allocated_{0};
  std::atomic<int64_t> max_memory_{0};
  std::atomic<int64_t> total_bytes_allocated_{0};
  std::atomic<int64_t> num_allocations_{0};
};

}  // namespace quiver
