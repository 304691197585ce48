#include "quiver/memory/memory_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "quiver/memory/memory_pool_internal.h"
#include "quiver/memory/zero_size_area.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

std::vector<MemoryPool*> AvailablePools() {
  std::vector<MemoryPool*> pools{SystemMemoryPool()};
  if (auto je = JemallocMemoryPool(); je.ok()) pools.push_back(*je);
  if (auto mi = MimallocMemoryPool(); mi.ok()) pools.push_back(*mi);
  return pools;
}

class PoolTest : public ::testing::TestWithParam<std::string> {
 protected:
  MemoryPool* pool() {
    auto p = MemoryPoolByName(GetParam());
    if (!p.ok()) {
      ADD_FAILURE() << p.status();
      return SystemMemoryPool();
    }
    return *p;
  }
};

TEST_P(PoolTest, AllocationsAreAlignedAndWritable) {
  MemoryPool* p = pool();
  EXPECT_EQ(p->backend_name(), GetParam());
  for (int64_t size : {1, 7, 63, 64, 65, 4096, 1 << 20}) {
    auto r = p->Allocate(size);
    ASSERT_TRUE(r.ok()) << r.status();
    uint8_t* ptr = *r;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % 64, 0u) << size;
    std::memset(ptr, 0xAB, static_cast<size_t>(size));
    p->Free(ptr, size);
  }
  auto big = p->Allocate(100, 4096);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*big) % 4096, 0u);
  p->Free(*big, 100, 4096);
}

TEST_P(PoolTest, StatisticsAreExact) {
  MemoryPool* p = pool();
  const int64_t base_bytes = p->bytes_allocated();
  const int64_t base_total = p->total_bytes_allocated();
  const int64_t base_count = p->num_allocations();

  uint8_t* a = *p->Allocate(1000);
  uint8_t* b = *p->Allocate(64);
  EXPECT_EQ(p->bytes_allocated() - base_bytes, 1064);
  EXPECT_EQ(p->num_allocations() - base_count, 2);
  EXPECT_GE(p->max_memory(), base_bytes + 1064);

  // Growth counts the delta in total_bytes_allocated; shrink does not.
  std::memset(a, 7, 1000);
  a = *p->Reallocate(a, 1000, 3000);
  EXPECT_EQ(a[999], 7);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(p->bytes_allocated() - base_bytes, 3064);
  a = *p->Reallocate(a, 3000, 500);
  EXPECT_EQ(a[499], 7);
  EXPECT_EQ(p->bytes_allocated() - base_bytes, 564);
  EXPECT_EQ(p->total_bytes_allocated() - base_total, 1000 + 64 + 2000);
  EXPECT_EQ(p->num_allocations() - base_count, 4);

  p->Free(a, 500);
  p->Free(b, 64);
  EXPECT_EQ(p->bytes_allocated(), base_bytes);
  EXPECT_EQ(p->total_bytes_allocated() - base_total, 3064);
}

TEST_P(PoolTest, ZeroSizeRequestsUseTheZeroSizeArea) {
  MemoryPool* p = pool();
  const int64_t count = p->num_allocations();
  auto r = p->Allocate(0);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(IsZeroSizeArea(*r));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*r) % kZeroSizeAreaAlignment, 0u);
  p->Free(*r, 0);  // a no-op
  EXPECT_EQ(p->num_allocations(), count);

  // Reallocating from the zero-size area allocates; to zero frees.
  uint8_t* grown = *p->Reallocate(*r, 0, 128);
  EXPECT_FALSE(IsZeroSizeArea(grown));
  uint8_t* shrunk = *p->Reallocate(grown, 128, 0);
  EXPECT_TRUE(IsZeroSizeArea(shrunk));
}

TEST_P(PoolTest, BadRequestsAreErrors) {
  MemoryPool* p = pool();
  EXPECT_TRUE(p->Allocate(-1).status().IsInvalid());
  EXPECT_TRUE(p->Allocate(64, 48).status().IsInvalid());
  EXPECT_TRUE(p->Allocate(int64_t{1} << 60).status().IsOutOfMemory());
}

// Kernel results ask for multiples of 64 bytes (jemalloc's backend serves
// them from plain malloc/free when that is its own): every size class on the
// way, blocks kept live together (different slab slots), aligned to 64;
// reallocation between 64-multiples and other sizes keeps the bytes and the
// statistics, and every block frees cleanly whichever path made it.
TEST_P(PoolTest, MultiplesOf64AreAlignedAcrossSizeClasses) {
  MemoryPool* p = pool();
  const int64_t base_bytes = p->bytes_allocated();
  std::vector<std::pair<uint8_t*, int64_t>> live;
  int64_t expected = 0;
  for (int64_t size = 64; size <= (int64_t{2} << 20); size += size < 4096 ? 64 : size / 4) {
    const int64_t rounded = (size + 63) & ~int64_t{63};
    for (int copy = 0; copy < 3; ++copy) {
      auto r = p->Allocate(rounded);
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_EQ(reinterpret_cast<uintptr_t>(*r) % 64, 0u) << rounded;
      std::memset(*r, copy, static_cast<size_t>(rounded));
      live.emplace_back(*r, rounded);
      expected += rounded;
    }
  }
  EXPECT_EQ(p->bytes_allocated() - base_bytes, expected);
  for (auto [ptr, size] : live) p->Free(ptr, size);
  EXPECT_EQ(p->bytes_allocated(), base_bytes);

  int64_t size = 64;
  uint8_t* ptr = *p->Allocate(size);
  ptr[0] = 42;
  for (int64_t next : {100, 192, 5000, 4096, 70000, 65536, 3, 128, 1 << 21, 64}) {
    auto r = p->Reallocate(ptr, size, next);
    ASSERT_TRUE(r.ok()) << r.status();
    ptr = *r;
    size = next;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % 64, 0u) << size;
    EXPECT_EQ(ptr[0], 42) << size;
    std::memset(ptr + 1, 9, static_cast<size_t>(size - 1));
    EXPECT_EQ(p->bytes_allocated() - base_bytes, size);
  }
  p->Free(ptr, size);
  EXPECT_EQ(p->bytes_allocated(), base_bytes);
}

// Statistics stay exact across the process's change from one thread (plain
// updates) to several (atomic ones) and back.
TEST_P(PoolTest, StatisticsStayExactWhenThreadsStart) {
  MemoryPool* p = pool();
  const int64_t base_bytes = p->bytes_allocated();
  const int64_t base_count = p->num_allocations();
  const int64_t base_total = p->total_bytes_allocated();
  uint8_t* before = *p->Allocate(128);  // while (perhaps) single-threaded
  constexpr int kThreads = 4, kRounds = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([p] {
      for (int i = 0; i < kRounds; ++i) {
        const int64_t size = 64 * (1 + i % 5);
        uint8_t* q = *p->Allocate(size);
        q[0] = 1;
        p->Free(q, size);
      }
    });
  }
  for (auto& t : threads) t.join();
  uint8_t* after = *p->Allocate(192);
  EXPECT_EQ(p->bytes_allocated() - base_bytes, 128 + 192);
  EXPECT_EQ(p->num_allocations() - base_count, 2 + kThreads * kRounds);
  EXPECT_EQ(p->total_bytes_allocated() - base_total, 128 + 192 + kThreads * (kRounds / 5) * 64 * 15);
  EXPECT_GE(p->max_memory(), base_bytes + 128 + 192);
  p->Free(before, 128);
  p->Free(after, 192);
  EXPECT_EQ(p->bytes_allocated(), base_bytes);
}

INSTANTIATE_TEST_SUITE_P(Backends, PoolTest, ::testing::Values("system", "jemalloc", "mimalloc"));

TEST(MemoryPool, BackendsAvailableInTestBinaries) {
  // Test binaries link jemalloc; mimalloc is loaded with dlopen.
  EXPECT_TRUE(JemallocMemoryPool().ok()) << JemallocMemoryPool().status();
  EXPECT_TRUE(MimallocMemoryPool().ok()) << MimallocMemoryPool().status();
  EXPECT_EQ(AvailablePools().size(), 3u);
  EXPECT_EQ(SupportedMemoryBackendNames(), "jemalloc,mimalloc,system");
}

TEST(MemoryPool, DefaultPool) {
  MemoryPool* def = DefaultMemoryPool();
  ASSERT_NE(def, nullptr);
  if (BuiltWithAddressSanitizer() && std::getenv("QUIVER_MEMORY_POOL") == nullptr) {
    EXPECT_EQ(def->backend_name(), "system");
  }
  EXPECT_TRUE(MemoryPoolByName("tcmalloc").status().IsInvalid());
}

TEST(CappedMemoryPool, RefusesBeyondTheLimitAndStaysUsable) {
  CappedMemoryPool capped(SystemMemoryPool(), 1000);
  EXPECT_EQ(capped.backend_name(), "capped(system)");
  uint8_t* a = *capped.Allocate(600);
  auto over = capped.Allocate(500);
  ASSERT_FALSE(over.ok());
  EXPECT_TRUE(over.status().IsOutOfMemory());
  EXPECT_NE(over.status().message().find("limit of 1000 bytes"), std::string::npos)
      << over.status();
  EXPECT_EQ(capped.bytes_allocated(), 600);

  // Growing past the limit fails and leaves the allocation intact.
  a[599] = 42;
  auto grow = capped.Reallocate(a, 600, 1200);
  EXPECT_TRUE(grow.status().IsOutOfMemory());
  EXPECT_EQ(a[599], 42);
  EXPECT_EQ(capped.bytes_allocated(), 600);

  uint8_t* b = *capped.Allocate(400);  // exactly at the limit
  EXPECT_EQ(capped.bytes_allocated(), 1000);
  EXPECT_EQ(capped.max_memory(), 1000);
  capped.Free(a, 600);
  capped.Free(b, 400);
  EXPECT_EQ(capped.bytes_allocated(), 0);
  uint8_t* c = *capped.Allocate(1000);  // usable again after the refusals
  capped.Free(c, 1000);
  EXPECT_EQ(capped.num_allocations(), 3);
  EXPECT_EQ(capped.total_bytes_allocated(), 2000);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver

namespace quiver::internal {
namespace {
namespace QUIVER_UNITY_ID {

TEST(ChooseMemoryPool, EnvironmentOverrideAndUnknownValues) {
  std::string warning;
  EXPECT_EQ(ChooseMemoryPool("system", &warning), SystemMemoryPool());
  EXPECT_EQ(warning, "");
  EXPECT_EQ(ChooseMemoryPool("jemalloc", &warning)->backend_name(), "jemalloc");
  EXPECT_EQ(ChooseMemoryPool("mimalloc", &warning)->backend_name(), "mimalloc");
  EXPECT_EQ(warning, "");

  MemoryPool* fallback = ChooseMemoryPool(nullptr, &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(fallback->backend_name(), BuiltWithAddressSanitizer() ? "system" : "jemalloc");

  MemoryPool* unknown = ChooseMemoryPool("tcmalloc", &warning);
  EXPECT_EQ(unknown, fallback);
  EXPECT_NE(warning.find("QUIVER_MEMORY_POOL=tcmalloc is not used"), std::string::npos)
      << warning;
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::internal
