// A process-wide pool of worker threads, helpers that never outlive the call
// that started them, and ParallelFor over them.
//
// The CPU pool (ThreadPool::Cpu(), the writer's use_threads and the
// reader's threads) has one worker fewer than the CPUs this process may use
// (util/cpu_count.h: affinity mask, cgroup quota, QUIVER_NUM_THREADS): the
// thread that calls ParallelFor works too, so a ParallelFor uses each CPU
// once.
//
// Calls nest without deadlock: a call hands work to helpers (TaskGroup)
// and does the work itself too; a helper that has not started when the
// call is done is told not to run (it returns at once when it starts), so
// a call never waits for a queued helper, only for helpers that are
// running, which themselves wait only for running helpers.
//
// ParallelFor takes tasks in index order from a shared counter. After a task
// fails no new index is started; since indices start in order, every index
// below a failing one has started, so the call returns the error of the
// lowest failing index of all (the same error whatever the timing), once the
// running tasks have ended (no task outlives the call).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "quiver/util/status.h"

namespace quiver {

class ThreadPool {
 public:
  // The process-wide pool: CpuCount() - 1 workers (at least 0), created on
  // first use with the CPU count of that moment, never destroyed (threads
  // are detached at exit).
  static ThreadPool* Cpu();

  explicit ThreadPool(int workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int workers() const;
  void Submit(std::function<void()> task);

 private:
  struct State;
  State* state_;
};

// Helpers of one call: Spawn() submits them to a pool; Join() (also run by
// the destructor) stops those that have not started from running and
// waits for those that are running. A helper's function may therefore
// refer to the caller's stack as long as Join() comes first.
class TaskGroup {
 public:
  TaskGroup();
  ~TaskGroup();
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  // Submits `helpers` runs of `fn` to `pool` (none when it is null).
  void Spawn(ThreadPool* pool, int64_t helpers, std::function<void()> fn);
  void Join();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

// Runs fn(0) .. fn(n - 1), on `pool`'s workers and the calling thread (in
// order on the calling thread alone when `pool` is null or has no workers).
// Returns the first error by index, or OK.
Status ParallelFor(int64_t n, const std::function<Status(int64_t)>& fn,
                   ThreadPool* pool = ThreadPool::Cpu());

}  // namespace quiver
