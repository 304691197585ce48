#include "quiver/memory/huge_block_cache_internal.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "quiver/memory/memory_pool.h"
#include "quiver/memory/memory_pool_internal.h"

namespace quiver::internal {
namespace {
namespace QUIVER_UNITY_ID {

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(HugeBlockCache, SizeClassesAreFourAPowerOfTwo) {
  EXPECT_EQ(HugeBlockCache::SizeClass(16 * kMiB), 16 * kMiB);
  EXPECT_EQ(HugeBlockCache::SizeClass(16 * kMiB + 1), 20 * kMiB);
  EXPECT_EQ(HugeBlockCache::SizeClass(20 * kMiB), 20 * kMiB);
  EXPECT_EQ(HugeBlockCache::SizeClass(29 * kMiB), 32 * kMiB);
  EXPECT_EQ(HugeBlockCache::SizeClass(33 * kMiB), 40 * kMiB);
  for (int64_t size = 16 * kMiB; size < 4096 * kMiB; size = size * 9 / 8 + 12345) {
    const int64_t c = HugeBlockCache::SizeClass(size);
    EXPECT_GE(c, size);
    EXPECT_LE(c, size + size / 4);
  }
}

// A backend that counts (the cache's own logic, without mimalloc).
int64_t g_live = 0;
int64_t g_allocations = 0;
uint8_t* CountingAllocate(int64_t size, int64_t alignment) {
  ++g_live;
  ++g_allocations;
  return static_cast<uint8_t*>(std::aligned_alloc(static_cast<size_t>(alignment),
                                                  static_cast<size_t>(size)));
}
void CountingFree(uint8_t* ptr, int64_t, int64_t) {
  --g_live;
  std::free(ptr);
}

HugeBlockCache::Clock::time_point g_now{};
HugeBlockCache::Clock::time_point FakeNow() { return g_now; }

TEST(HugeBlockCache, ReusesTheLastFreedBlockOfAClassUntilItDecays) {
  g_live = g_allocations = 0;
  {
    HugeBlockCache cache(&CountingAllocate, &CountingFree);
    cache.set_clock_for_testing(&FakeNow);
    uint8_t* a = cache.Allocate(17 * kMiB, 64);
    ASSERT_NE(a, nullptr);
    cache.Free(a, 17 * kMiB, 64);
    EXPECT_EQ(cache.cached_bytes(), 20 * kMiB);
    // Same class (17-20 MiB): the same block; another class or alignment: not.
    uint8_t* b = cache.Allocate(19 * kMiB, 64);
    EXPECT_EQ(b, a);
    EXPECT_EQ(cache.cached_blocks(), 0);
    cache.Free(b, 19 * kMiB, 64);
    uint8_t* c = cache.Allocate(21 * kMiB, 64);
    EXPECT_NE(c, a);
    uint8_t* d = cache.Allocate(18 * kMiB, 4096);
    EXPECT_NE(d, a);
    EXPECT_EQ(g_allocations, 3);
    cache.Free(c, 21 * kMiB, 64);
    cache.Free(d, 18 * kMiB, 4096);
    EXPECT_EQ(cache.cached_blocks(), 3);
    EXPECT_EQ(g_live, 3);
    // Past the decay time, the next huge call releases what expired.
    g_now += HugeBlockCache::kDecay;
    uint8_t* e = cache.Allocate(17 * kMiB, 64);
    EXPECT_EQ(cache.cached_blocks(), 0);
    EXPECT_EQ(g_live, 1);
    cache.Free(e, 17 * kMiB, 64);
  }
  EXPECT_EQ(g_live, 0);  // the destructor releases the rest
}

TEST(HugeBlockCache, KeepsAtMostMaxBytesOldestReleasedFirst) {
  g_live = g_allocations = 0;
  HugeBlockCache cache(&CountingAllocate, &CountingFree);
  cache.set_clock_for_testing(&FakeNow);
  const int64_t size = 256 * kMiB;  // a class of its own
  std::vector<uint8_t*> blocks;
  for (int i = 0; i < 6; ++i) blocks.push_back(cache.Allocate(size, 64));
  for (uint8_t* p : blocks) cache.Free(p, size, 64);
  EXPECT_EQ(cache.cached_bytes(), HugeBlockCache::kMaxBytes);
  EXPECT_EQ(g_live, HugeBlockCache::kMaxBytes / size);
  // The most recently freed is handed out first.
  EXPECT_EQ(cache.Allocate(size, 64), blocks.back());
  cache.Free(blocks.back(), size, 64);
  cache.ReleaseAll();
  EXPECT_EQ(g_live, 0);
}

TEST(HugeBlockCache, ReallocateKeepsBytesAndTheBlockWithinAClass) {
  g_live = g_allocations = 0;
  HugeBlockCache cache(&CountingAllocate, &CountingFree);
  uint8_t* small = CountingAllocate(kMiB, 64);
  std::memset(small, 7, kMiB);
  uint8_t* grown = cache.Reallocate(small, kMiB, 17 * kMiB, 64, &CountingAllocate, &CountingFree);
  ASSERT_NE(grown, nullptr);
  EXPECT_EQ(grown[0], 7);
  EXPECT_EQ(grown[kMiB - 1], 7);
  std::memset(grown, 9, 17 * kMiB);
  EXPECT_EQ(cache.Reallocate(grown, 17 * kMiB, 20 * kMiB, 64, &CountingAllocate, &CountingFree),
            grown);
  uint8_t* bigger =
      cache.Reallocate(grown, 20 * kMiB, 30 * kMiB, 64, &CountingAllocate, &CountingFree);
  EXPECT_NE(bigger, grown);
  EXPECT_EQ(bigger[17 * kMiB - 1], 9);
  EXPECT_EQ(cache.cached_blocks(), 1);  // the 20 MiB block
  uint8_t* shrunk = cache.Reallocate(bigger, 30 * kMiB, kMiB, 64, &CountingAllocate, &CountingFree);
  EXPECT_EQ(shrunk[kMiB - 1], 9);
  CountingFree(shrunk, kMiB, 64);
  cache.ReleaseAll();
  EXPECT_EQ(g_live, 0);
}

int64_t MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Through the mimalloc pool: a freed 24 MiB buffer is reused without a page
// fault (mimalloc alone maps and unmaps it: 6,144 faults each time), and the
// pool's statistics count requests, not cached capacity.
TEST(HugeBlockCache, MimallocPoolReusesHugeBuffersWithoutPageFaults) {
  auto pool = MimallocMemoryPool();
  ASSERT_TRUE(pool.ok()) << pool.status();
  ASSERT_NE(MimallocHugeBlockCache(), nullptr);
  constexpr int64_t kSize = 24 * kMiB;
  const int64_t before = (*pool)->bytes_allocated();
  auto touch = [&] {
    auto r = (*pool)->Allocate(kSize);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) return int64_t{-1};
    EXPECT_EQ((*pool)->bytes_allocated(), before + kSize);
    const int64_t faults = MinorFaults();
    std::memset(*r, 0x5A, static_cast<size_t>(kSize));
    const int64_t out = MinorFaults() - faults;
    (*pool)->Free(*r, kSize);
    return out;
  };
  touch();
  EXPECT_LE(touch(), kSize / 4096 / 16);
  EXPECT_EQ((*pool)->bytes_allocated(), before);
  EXPECT_GE(MimallocHugeBlockCache()->cached_bytes(), kSize);
  // Growth by Reallocate across classes keeps the bytes.
  auto r = (*pool)->Allocate(kMiB);
  ASSERT_TRUE(r.ok());
  std::memset(*r, 3, kMiB);
  auto g = (*pool)->Reallocate(*r, kMiB, 40 * kMiB);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ((*g)[kMiB - 1], 3);
  auto h = (*pool)->Reallocate(*g, 40 * kMiB, 2 * kMiB);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ((*h)[kMiB - 1], 3);
  (*pool)->Free(*h, 2 * kMiB);
  EXPECT_EQ((*pool)->bytes_allocated(), before);
}

TEST(HugeBlockCache, ThreadsShareTheCache) {
  auto pool = MimallocMemoryPool();
  ASSERT_TRUE(pool.ok());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        const int64_t size = (16 + (t * 7 + i) % 24) * kMiB;
        auto r = (*pool)->Allocate(size);
        ASSERT_TRUE(r.ok());
        (*r)[0] = static_cast<uint8_t>(t);
        (*r)[size - 1] = static_cast<uint8_t>(i);
        EXPECT_EQ((*r)[0], t);
        (*pool)->Free(*r, size);
      }
    });
  }
  for (auto& thread : threads) thread.join();
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::internal
