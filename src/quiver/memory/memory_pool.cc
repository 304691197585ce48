// Memory pool backends and the default-pool choice. See memory_pool.h.
//
// jemalloc and mimalloc are reached through their own aligned APIs
// (mallocx/rallocx/sdallocx, mi_malloc_aligned/mi_realloc_aligned/mi_free),
// looked up at run time: first in the process (a binary that links the
// allocator, e.g. the benchmarks), then by dlopen of the Debian soname with
// RTLD_LOCAL, which makes the functions callable without letting the library
// interpose the process's malloc.
#include "quiver/memory/memory_pool.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#endif
#include <string>
#include <vector>

#include "quiver/memory/huge_block_cache_internal.h"
#include "quiver/memory/memory_pool_internal.h"
#include "quiver/memory/zero_size_area.h"

namespace quiver {

namespace {

constexpr int64_t kMaxAllocationSize = int64_t{1} << 48;  // 256 TiB: no real machine

int64_t EffectiveAlignment(int64_t alignment) {
  return alignment < kDefaultBufferAlignment ? kDefaultBufferAlignment : alignment;
}

bool SingleThreaded() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  return __libc_single_threaded != 0;
#else
  return false;
#endif
}

Status CheckRequest(int64_t size, int64_t alignment) {
  if (QUIVER_PREDICT_FALSE(size < 0)) {
    return Status::Invalid("negative allocation size: ", size);
  }
  if (QUIVER_PREDICT_FALSE(size > kMaxAllocationSize)) {
    return Status::OutOfMemory("allocation of ", size, " bytes is beyond any machine");
  }
  if (QUIVER_PREDICT_FALSE(alignment <= 0 || (alignment & (alignment - 1)) != 0)) {
    return Status::Invalid("alignment must be a power of two, got ", alignment);
  }
  return Status::OK();
}

// Statistics shared by the backend pools. Exact under concurrency: each
// counter is one atomic; the peak is maintained with a CAS loop. While the
// process has one thread (glibc's __libc_single_threaded, the test
// libstdc++'s shared_ptr makes for its reference counts) a counter is
// updated with a plain load and store instead of a locked read-modify-write:
// no other thread exists to race with, and the thread that creates the
// second one sees the flag cleared before that thread runs.
class PoolStats {
 public:
  void DidAllocate(int64_t size) {
    int64_t now = Add(bytes_allocated_, size);
    Add(total_bytes_allocated_, size);
    Add(num_allocations_, 1);
    UpdatePeak(now);
  }
  void DidReallocate(int64_t old_size, int64_t new_size) {
    int64_t delta = new_size - old_size;
    int64_t now = Add(bytes_allocated_, delta);
    if (delta > 0) Add(total_bytes_allocated_, delta);
    if (new_size > 0) Add(num_allocations_, 1);
    UpdatePeak(now);
  }
  void DidFree(int64_t size) { Add(bytes_allocated_, -size); }

  int64_t bytes_allocated() const { return bytes_allocated_.load(std::memory_order_relaxed); }
  int64_t max_memory() const { return max_memory_.load(std::memory_order_relaxed); }
  int64_t total_bytes_allocated() const {
    return total_bytes_allocated_.load(std::memory_order_relaxed);
  }
  int64_t num_allocations() const { return num_allocations_.load(std::memory_order_relaxed); }

 private:
  // counter += delta; the new value.
  static int64_t Add(std::atomic<int64_t>& counter, int64_t delta) {
    if (SingleThreaded()) {
      const int64_t now = counter.load(std::memory_order_relaxed) + delta;
      counter.store(now, std::memory_order_relaxed);
      return now;
    }
    return counter.fetch_add(delta, std::memory_order_relaxed) + delta;
  }
  void UpdatePeak(int64_t now) {
    int64_t peak = max_memory_.load(std::memory_order_relaxed);
    if (now <= peak) return;
    if (SingleThreaded()) {
      max_memory_.store(now, std::memory_order_relaxed);
      return;
    }
    while (now > peak &&
           !max_memory_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }
  std::atomic<int64_t> bytes_allocated_{0};
  std::atomic<int64_t> max_memory_{0};
  std::atomic<int64_t> total_bytes_allocated_{0};
  std::atomic<int64_t> num_allocations_{0};
};

// --- Backends: static functions over raw memory ---------------------------

struct SystemAllocator {
  static constexpr const char* kName = "system";
  static constexpr bool kCacheHugeBlocks = false;
  static uint8_t* Allocate(int64_t size, int64_t alignment) {
    void* p = nullptr;
    if (posix_memalign(&p, static_cast<size_t>(alignment), static_cast<size_t>(size)) != 0) {
      return nullptr;
    }
    return static_cast<uint8_t*>(p);
  }
  static uint8_t* Reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size,
                             int64_t alignment) {
    // glibc's realloc does not keep over-alignment: allocate, copy, free.
    uint8_t* fresh = Allocate(new_size, alignment);
    if (fresh == nullptr) return nullptr;
    std::memcpy(fresh, ptr, static_cast<size_t>(old_size < new_size ? old_size : new_size));
    std::free(ptr);
    return fresh;
  }
  static void Free(uint8_t* ptr, int64_t /*size*/, int64_t /*alignment*/) { std::free(ptr); }
};

// jemalloc's non-standard API, resolved at run time.
struct JemallocApi {
  void* (*mallocx)(size_t, int) = nullptr;
  void* (*rallocx)(void*, size_t, int) = nullptr;
  void (*sdallocx)(void*, size_t, int) = nullptr;
  // jemalloc's own malloc and free (those of the object that defines
  // mallocx), or both nullptr: their fast paths serve the 64-byte multiples
  // (see JemallocAllocator).
  void* (*malloc)(size_t) = nullptr;
  void (*free)(void*) = nullptr;
  std::string error;
  bool ok() const { return mallocx && rallocx && sdallocx; }
};

struct MimallocApi {
  void* (*malloc_aligned)(size_t, size_t) = nullptr;
  void* (*realloc_aligned)(void*, size_t, size_t) = nullptr;
  void (*free)(void*) = nullptr;
  std::string error;
  bool ok() const { return malloc_aligned && realloc_aligned && free; }
};

// Finds `symbol` in the process, else in `soname` loaded with RTLD_LOCAL.
void* FindSymbol(const char* soname, const char* symbol, void** handle, std::string* error) {
  if (void* p = dlsym(RTLD_DEFAULT, symbol)) return p;
  if (*handle == nullptr) {
    *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (*handle == nullptr) {
      const char* why = dlerror();
      *error = std::string("cannot load ") + soname + ": " + (why ? why : "unknown error");
      return nullptr;
    }
  }
  void* p = dlsym(*handle, symbol);
  if (p == nullptr) *error = std::string(soname) + " has no symbol " + symbol;
  return p;
}

// `symbol` if it is defined by the same object as `anchor` (found in the
// process, or in `handle` when the library was loaded with RTLD_LOCAL), else
// nullptr: e.g. jemalloc's malloc, not the process's glibc malloc when
// jemalloc was loaded after libc.
void* FindSibling(void* anchor, void* handle, const char* symbol) {
  Dl_info want{}, got{};
  if (dladdr(anchor, &want) == 0 || want.dli_fbase == nullptr) return nullptr;
  void* candidate = dlsym(handle != nullptr ? handle : RTLD_DEFAULT, symbol);
  if (candidate == nullptr || dladdr(candidate, &got) == 0 || got.dli_fbase != want.dli_fbase) {
    return nullptr;
  }
  return candidate;
}

const JemallocApi& Jemalloc() {
  static const JemallocApi api = [] {
    JemallocApi a;
    void* handle = nullptr;
    a.mallocx = reinterpret_cast<decltype(a.mallocx)>(
        FindSymbol("libjemalloc.so.2", "mallocx", &handle, &a.error));
    if (a.mallocx) {
      a.rallocx = reinterpret_cast<decltype(a.rallocx)>(
          FindSymbol("libjemalloc.so.2", "rallocx", &handle, &a.error));
      a.sdallocx = reinterpret_cast<decltype(a.sdallocx)>(
          FindSymbol("libjemalloc.so.2", "sdallocx", &handle, &a.error));
    }
    if (a.ok()) {
      void* malloc_fn = FindSibling(reinterpret_cast<void*>(a.mallocx), handle, "malloc");
      void* free_fn = FindSibling(reinterpret_cast<void*>(a.mallocx), handle, "free");
      if (malloc_fn != nullptr && free_fn != nullptr) {
        a.malloc = reinterpret_cast<decltype(a.malloc)>(malloc_fn);
        a.free = reinterpret_cast<decltype(a.free)>(free_fn);
      }
    }
    return a;
  }();
  return api;
}

const MimallocApi& Mimalloc() {
  static const MimallocApi api = [] {
    MimallocApi a;
    void* handle = nullptr;
    a.malloc_aligned = reinterpret_cast<decltype(a.malloc_aligned)>(
        FindSymbol("libmimalloc.so.2", "mi_malloc_aligned", &handle, &a.error));
    if (a.malloc_aligned) {
      a.realloc_aligned = reinterpret_cast<decltype(a.realloc_aligned)>(
          FindSymbol("libmimalloc.so.2", "mi_realloc_aligned", &handle, &a.error));
      a.free = reinterpret_cast<decltype(a.free)>(
          FindSymbol("libmimalloc.so.2", "mi_free", &handle, &a.error));
    }
    return a;
  }();
  return api;
}

// MALLOCX_ALIGN(a) from jemalloc.h: log2 of the alignment in the low bits.
int JemallocAlignFlag(int64_t alignment) { return __builtin_ctzll(static_cast<uint64_t>(alignment)); }

// jemalloc through mallocx/rallocx/sdallocx, with a cheaper path for what
// every kernel result asks: a multiple of 64 bytes aligned to 64. jemalloc
// 5.3's mallocx has no fast path (~250 instructions with MALLOCX_ALIGN),
// nor has sdallocx (~50 more); its malloc and free have one (thread cache:
// ~100 instructions the pair against ~300 at 2 KiB, measured with
// callgrind). A size class that holds a multiple of 64 is itself a multiple
// of 64 (small classes are carved from page-aligned slabs at multiples of
// the class size; large extents are page aligned, their cache-oblivious
// offset a multiple of the cache line), so plain malloc returns 64-aligned
// memory there, in the same size class as mallocx(size, MALLOCX_ALIGN(64)):
// free() releases either kind, and rallocx grows either. The alignment is
// still checked on every allocation; a misaligned block (a jemalloc built
// otherwise) is freed and mallocx used instead.
struct JemallocAllocator {
  static constexpr const char* kName = "jemalloc";
  static constexpr bool kCacheHugeBlocks = false;
  JemallocAllocator() {
    const JemallocApi& api = Jemalloc();
    mallocx = api.mallocx;
    rallocx = api.rallocx;
    sdallocx = api.sdallocx;
    malloc = api.malloc;
    free = api.free;
  }
  static bool PlainClass(int64_t size, int64_t alignment) {
    return alignment == kDefaultBufferAlignment && (size & (kDefaultBufferAlignment - 1)) == 0;
  }
  uint8_t* Allocate(int64_t size, int64_t alignment) const {
    if (malloc != nullptr && PlainClass(size, alignment)) {
      void* p = malloc(static_cast<size_t>(size));
      if (QUIVER_PREDICT_TRUE((reinterpret_cast<uintptr_t>(p) & (kDefaultBufferAlignment - 1)) ==
                              0)) {
        return static_cast<uint8_t*>(p);  // or nullptr: out of memory either way
      }
      free(p);
    }
    return static_cast<uint8_t*>(
        mallocx(static_cast<size_t>(size), JemallocAlignFlag(alignment)));
  }
  uint8_t* Reallocate(uint8_t* ptr, int64_t, int64_t new_size, int64_t alignment) const {
    return static_cast<uint8_t*>(
        rallocx(ptr, static_cast<size_t>(new_size), JemallocAlignFlag(alignment)));
  }
  void Free(uint8_t* ptr, int64_t size, int64_t alignment) const {
    if (free != nullptr && PlainClass(size, alignment)) {
      free(ptr);
    } else {
      sdallocx(ptr, static_cast<size_t>(size), JemallocAlignFlag(alignment));
    }
  }

  void* (*mallocx)(size_t, int);
  void* (*rallocx)(void*, size_t, int);
  void (*sdallocx)(void*, size_t, int);
  void* (*malloc)(size_t);
  void (*free)(void*);
};

struct MimallocAllocator {
  static constexpr const char* kName = "mimalloc";
  // Blocks of 16 MiB or more go through a HugeBlockCache (see
  // huge_block_cache_internal.h): mimalloc 2.0 maps and unmaps each.
  static constexpr bool kCacheHugeBlocks = true;
  static uint8_t* Allocate(int64_t size, int64_t alignment) {
    return static_cast<uint8_t*>(
        Mimalloc().malloc_aligned(static_cast<size_t>(size), static_cast<size_t>(alignment)));
  }
  static uint8_t* Reallocate(uint8_t* ptr, int64_t, int64_t new_size, int64_t alignment) {
    return static_cast<uint8_t*>(Mimalloc().realloc_aligned(
        ptr, static_cast<size_t>(new_size), static_cast<size_t>(alignment)));
  }
  static void Free(uint8_t* ptr, int64_t, int64_t) { Mimalloc().free(ptr); }
};

// The huge-block cache of a backend whose allocator asks for one (never
// destroyed: buffers may be freed during static destruction).
template <typename Allocator>
internal::HugeBlockCache& HugeCacheOf() {
  static auto* cache = new internal::HugeBlockCache(&Allocator::Allocate, &Allocator::Free);
  return *cache;
}

template <typename Allocator>
class BackendPool final : public MemoryPool {
 public:
  Result<uint8_t*> Allocate(int64_t size, int64_t alignment) override {
    // What every kernel asks (a positive size at the default alignment)
    // needs none of CheckRequest's other answers.
    if (!(size > 0 && size <= kMaxAllocationSize && alignment == kDefaultBufferAlignment)) {
      QUIVER_RETURN_NOT_OK(CheckRequest(size, alignment));
      if (size == 0) return ZeroSizeArea();
    }
    alignment = EffectiveAlignment(alignment);
    uint8_t* p = nullptr;
    if constexpr (Allocator::kCacheHugeBlocks) {
      p = internal::HugeBlockCache::IsHuge(size)
              ? HugeCacheOf<Allocator>().Allocate(size, alignment)
              : allocator_.Allocate(size, alignment);
    } else {
      p = allocator_.Allocate(size, alignment);
    }
    if (QUIVER_PREDICT_FALSE(p == nullptr)) {
      return Status::OutOfMemory(Allocator::kName, " pool: failed to allocate ", size,
                                 " bytes");
    }
    stats_.DidAllocate(size);
    return p;
  }

  Result<uint8_t*> Reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size,
                              int64_t alignment) override {
    QUIVER_RETURN_NOT_OK(CheckRequest(new_size, alignment));
    if (old_size < 0) return Status::Invalid("negative old size: ", old_size);
    alignment = EffectiveAlignment(alignment);
    if (ptr == nullptr || IsZeroSizeArea(ptr) || old_size == 0) {
      // Nothing to keep: a fresh allocation.
      return Allocate(new_size, alignment);
    }
    if (new_size == 0) {
      Free(ptr, old_size, alignment);
      return ZeroSizeArea();
    }
    uint8_t* p = nullptr;
    if constexpr (Allocator::kCacheHugeBlocks) {
      p = internal::HugeBlockCache::IsHuge(old_size) || internal::HugeBlockCache::IsHuge(new_size)
              ? HugeCacheOf<Allocator>().Reallocate(ptr, old_size, new_size, alignment,
                                                    &Allocator::Allocate, &Allocator::Free)
              : allocator_.Reallocate(ptr, old_size, new_size, alignment);
    } else {
      p = allocator_.Reallocate(ptr, old_size, new_size, alignment);
    }
    if (QUIVER_PREDICT_FALSE(p == nullptr)) {
      return Status::OutOfMemory(Allocator::kName, " pool: failed to reallocate ", old_size,
                                 " bytes to ", new_size);
    }
    stats_.DidReallocate(old_size, new_size);
    return p;
  }

  void Free(uint8_t* ptr, int64_t size, int64_t alignment) override {
    if (ptr == nullptr || IsZeroSizeArea(ptr)) return;
    if constexpr (Allocator::kCacheHugeBlocks) {
      if (internal::HugeBlockCache::IsHuge(size)) {
        HugeCacheOf<Allocator>().Free(ptr, size, EffectiveAlignment(alignment));
      } else {
        allocator_.Free(ptr, size, EffectiveAlignment(alignment));
      }
    } else {
      allocator_.Free(ptr, size, EffectiveAlignment(alignment));
    }
    stats_.DidFree(size);
  }

  int64_t bytes_allocated() const override { return stats_.bytes_allocated(); }
  int64_t max_memory() const override { return stats_.max_memory(); }
  int64_t total_bytes_allocated() const override { return stats_.total_bytes_allocated(); }
  int64_t num_allocations() const override { return stats_.num_allocations(); }
  std::string backend_name() const override { return Allocator::kName; }

 private:
  const Allocator allocator_{};
  PoolStats stats_;
};

MemoryPool* ChooseDefaultPool() {
  std::string warning;
  MemoryPool* pool = internal::ChooseMemoryPool(std::getenv("QUIVER_MEMORY_POOL"), &warning);
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
  return pool;
}

}  // namespace

bool BuiltWithAddressSanitizer() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

MemoryPool* SystemMemoryPool() {
  static BackendPool<SystemAllocator> pool;
  return &pool;
}

Result<MemoryPool*> JemallocMemoryPool() {
  const JemallocApi& api = Jemalloc();
  if (!api.ok()) return Status::NotImplemented("jemalloc pool unavailable: ", api.error);
  static BackendPool<JemallocAllocator> pool;
  return &pool;
}

Result<MemoryPool*> MimallocMemoryPool() {
  const MimallocApi& api = Mimalloc();
  if (!api.ok()) return Status::NotImplemented("mimalloc pool unavailable: ", api.error);
  static BackendPool<MimallocAllocator> pool;
  return &pool;
}

Result<MemoryPool*> MemoryPoolByName(std::string_view name) {
  if (name == "system") return SystemMemoryPool();
  if (name == "jemalloc") return JemallocMemoryPool();
  if (name == "mimalloc") return MimallocMemoryPool();
  return Status::Invalid("unknown memory pool '", name,
                         "' (expected system, jemalloc or mimalloc)");
}

std::string SupportedMemoryBackendNames() {
  std::string out;
  if (JemallocMemoryPool().ok()) out += "jemalloc,";
  if (MimallocMemoryPool().ok()) out += "mimalloc,";
  out += "system";
  return out;
}

namespace internal {

MemoryPool* ChooseMemoryPool(const char* requested, std::string* warning) {
  warning->clear();
  if (requested != nullptr && *requested != '\0') {
    auto chosen = MemoryPoolByName(requested);
    if (chosen.ok()) return *chosen;
    *warning = std::string("quiver: warning: QUIVER_MEMORY_POOL=") + requested +
               " is not used (" + chosen.status().message() + "); keeping the default pool";
  }
  if (BuiltWithAddressSanitizer()) return SystemMemoryPool();
  if (auto je = JemallocMemoryPool(); je.ok()) return *je;
  if (auto mi = MimallocMemoryPool(); mi.ok()) return *mi;
  return SystemMemoryPool();
}

HugeBlockCache* MimallocHugeBlockCache() {
  if (!MimallocMemoryPool().ok()) return nullptr;
  return &HugeCacheOf<MimallocAllocator>();
}

}  // namespace internal

MemoryPool* DefaultMemoryPool() {
  static MemoryPool* pool = ChooseDefaultPool();
  return pool;
}

// --- CappedMemoryPool -------------------------------------------------------

CappedMemoryPool::CappedMemoryPool(MemoryPool* parent, int64_t limit)
    : parent_(parent), limit_(limit < 0 ? 0 : limit) {}

std::shared_ptr<CappedMemoryPool> CappedMemoryPool::Lease(MemoryPool* parent, int64_t limit) {
  static std::mutex* mutex = new std::mutex();  // never destroyed, as the pools
  static std::vector<std::unique_ptr<CappedMemoryPool>>* pools =
      new std::vector<std::unique_ptr<CappedMemoryPool>>();  // never destroyed
  std::lock_guard<std::mutex> lock(*mutex);
  CappedMemoryPool* pool = nullptr;
  for (auto& p : *pools) {
    if (!p->leased_ && p->bytes_allocated() == 0) {
      pool = p.get();
      break;
    }
  }
  if (pool == nullptr) {
    pools->push_back(std::make_unique<CappedMemoryPool>(parent, limit));
    pool = pools->back().get();
  }
  pool->parent_ = parent;
  pool->limit_ = limit < 0 ? 0 : limit;
  pool->max_memory_ = 0;
  pool->total_bytes_allocated_ = 0;
  pool->num_allocations_ = 0;
  pool->leased_ = true;
  return std::shared_ptr<CappedMemoryPool>(pool, [](CappedMemoryPool* p) {
    std::lock_guard<std::mutex> release(*mutex);
    p->leased_ = false;
  });
}

bool CappedMemoryPool::TryReserve(int64_t delta) {
  int64_t current = bytes_allocated_.load(std::memory_order_relaxed);
  while (true) {
    if (current + delta > limit_) return false;
    if (bytes_allocated_.compare_exchange_weak(current, current + delta,
                                               std::memory_order_relaxed)) {
      UpdatePeak(current + delta);
      return true;
    }
  }
}

void CappedMemoryPool::UpdatePeak(int64_t now) {
  int64_t peak = max_memory_.load(std::memory_order_relaxed);
  while (now > peak && !max_memory_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

Result<uint8_t*> CappedMemoryPool::Allocate(int64_t size, int64_t alignment) {
  QUIVER_RETURN_NOT_OK(CheckRequest(size, alignment));
  if (size == 0) return ZeroSizeArea();
  if (!TryReserve(size)) {
    return Status::OutOfMemory("capped pool: allocating ", size, " bytes would exceed the limit of ",
                               limit_, " bytes (", bytes_allocated(), " in use)");
  }
  auto result = parent_->Allocate(size, alignment);
  if (!result.ok()) {
    bytes_allocated_.fetch_sub(size, std::memory_order_relaxed);
    return result;
  }
  total_bytes_allocated_.fetch_add(size, std::memory_order_relaxed);
  num_allocations_.fetch_add(1, std::memory_order_relaxed);
  return result;
}

Result<uint8_t*> CappedMemoryPool::Reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size,
                                              int64_t alignment) {
  QUIVER_RETURN_NOT_OK(CheckRequest(new_size, alignment));
  if (ptr == nullptr || IsZeroSizeArea(ptr) || old_size == 0) return Allocate(new_size, alignment);
  if (new_size == 0) {
    Free(ptr, old_size, alignment);
    return ZeroSizeArea();
  }
  int64_t delta = new_size - old_size;
  if (delta > 0 && !TryReserve(delta)) {
    return Status::OutOfMemory("capped pool: growing an allocation from ", old_size, " to ",
                               new_size, " bytes would exceed the limit of ", limit_,
                               " bytes (", bytes_allocated(), " in use)");
  }
  auto result = parent_->Reallocate(ptr, old_size, new_size, alignment);
  if (!result.ok()) {
    if (delta > 0) bytes_allocated_.fetch_sub(delta, std::memory_order_relaxed);
    return result;
  }
  if (delta < 0) bytes_allocated_.fetch_add(delta, std::memory_order_relaxed);
  if (delta > 0) total_bytes_allocated_.fetch_add(delta, std::memory_order_relaxed);
  num_allocations_.fetch_add(1, std::memory_order_relaxed);
  return result;
}

void CappedMemoryPool::Free(uint8_t* ptr, int64_t size, int64_t alignment) {
  if (ptr == nullptr || IsZeroSizeArea(ptr)) return;
  parent_->Free(ptr, size, alignment);
  bytes_allocated_.fetch_sub(size, std::memory_order_relaxed);
}

int64_t CappedMemoryPool::bytes_allocated() const {
  return bytes_allocated_.load(std::memory_order_relaxed);
}
int64_t CappedMemoryPool::max_memory() const { return max_memory_.load(std::memory_order_relaxed); }
int64_t CappedMemoryPool::total_bytes_allocated() const {
  return total_bytes_allocated_.load(std::memory_order_relaxed);
}
int64_t CappedMemoryPool::num_allocations() const {
  return num_allocations_.load(std::memory_order_relaxed);
}
std::string CappedMemoryPool::backend_name() const {
  return "capped(" + parent_->backend_name() + ")";
}

}  // namespace quiver
