#include "quiver/util/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "quiver/util/cpu_count.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

TEST(ParallelFor, RunsEveryIndexOnce) {
  ThreadPool pool(3);
  for (int64_t n : {0, 1, 2, 7, 1000}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    ASSERT_TRUE(ParallelFor(n, [&](int64_t i) {
      hits[static_cast<size_t>(i)].fetch_add(1);
      return Status::OK();
    }, &pool).ok());
    for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  }
}

TEST(ParallelFor, UsesSeveralThreads) {
  ThreadPool pool(1);
  std::mutex m;
  std::set<std::thread::id> ids;
  std::atomic<int> arrived{0};
  // Two tasks that wait for each other can only finish on two threads.
  ASSERT_TRUE(ParallelFor(2, [&](int64_t) {
    {
      std::lock_guard<std::mutex> lock(m);
      ids.insert(std::this_thread::get_id());
    }
    arrived.fetch_add(1);
    while (arrived.load() < 2) std::this_thread::yield();
    return Status::OK();
  }, &pool).ok());
  EXPECT_EQ(ids.size(), 2u);
}

TEST(ParallelFor, ReturnsTheLowestFailingIndex) {
  ThreadPool pool(2);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::atomic<int>> ran(50);
    Status st = ParallelFor(50, [&](int64_t i) {
      ran[static_cast<size_t>(i)].fetch_add(1);
      if (i == 30 || i == 7 || i == 9) return Status::Invalid("task ", i);
      return Status::OK();
    }, &pool);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.message(), "task 7");
    for (int i = 0; i <= 7; ++i) EXPECT_EQ(ran[static_cast<size_t>(i)].load(), 1);
  }
}

TEST(ParallelFor, NestedCallsDoNotDeadlock) {
  ThreadPool pool(1);
  std::atomic<int> leaves{0};
  ASSERT_TRUE(ParallelFor(8, [&](int64_t) {
    return ParallelFor(8, [&](int64_t) {
      leaves.fetch_add(1);
      return Status::OK();
    }, &pool);
  }, &pool).ok());
  EXPECT_EQ(leaves.load(), 64);
}

TEST(ParallelFor, WithoutWorkersRunsInline) {
  ThreadPool pool(0);
  std::vector<int64_t> order;
  ASSERT_TRUE(ParallelFor(5, [&](int64_t i) {
    order.push_back(i);
    return Status::OK();
  }, &pool).ok());
  EXPECT_EQ(order, (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_GE(ThreadPool::Cpu()->workers(), 0);
}

TEST(TaskGroup, HelpersThatHaveNotStartedDoNotRun) {
  ThreadPool pool(1);
  std::mutex m;
  std::condition_variable cv;
  bool release = false;
  // Occupy the only worker, so the helpers stay queued.
  pool.Submit([&] {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return release; });
  });
  std::atomic<int> ran{0};
  {
    TaskGroup group;
    group.Spawn(&pool, 3, [&] { ran.fetch_add(1); });
    group.Join();  // returns at once: no helper is running
  }
  std::atomic<bool> drained{false};
  pool.Submit([&] { drained.store(true); });
  {
    std::lock_guard<std::mutex> lock(m);
    release = true;
  }
  cv.notify_all();
  while (!drained.load()) std::this_thread::yield();
  EXPECT_EQ(ran.load(), 0);
}

TEST(TaskGroup, JoinWaitsForRunningHelpers) {
  ThreadPool pool(2);
  std::atomic<int> started{0}, finished{0};
  TaskGroup group;
  group.Spawn(&pool, 2, [&] {
    started.fetch_add(1);
    while (started.load() < 2) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    finished.fetch_add(1);
  });
  while (started.load() < 2) std::this_thread::yield();
  group.Join();
  EXPECT_EQ(finished.load(), 2);
  group.Spawn(nullptr, 4, [&] { finished.fetch_add(1); });  // no pool: nothing runs
  EXPECT_EQ(finished.load(), 2);
}

TEST(ThreadPool, CpuPoolIsSizedByTheCpuCount) {
  EXPECT_EQ(ThreadPool::Cpu()->workers(), std::max(0, CpuCount() - 1));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
