// A process-wide pool of worker threads and ParallelFor over it.
//
// The CPU pool has one worker fewer than the machine has cores: the thread
// that calls ParallelFor works too, so a ParallelFor uses every core. Tasks
// are taken in index order from a shared counter. After a task fails no new
// index is started; since indices start in order, every index below a failing
// one has started, so the call returns the error of the lowest failing index
// of all (the same error whatever the timing), once the running tasks have
// ended (no task outlives the call).
//
// Calls nest without deadlock: a helper that has not started when the
// calling thread runs out of indices is told not to wait for (it returns at
// once when it starts), so ParallelFor never waits for a queued task, only
// for tasks that are running.
#pragma once

#include <cstdint>
#include <functional>

#include "quiver/util/status.h"

namespace quiver {

class ThreadPool {
 public:
  // The process-wide pool: std::thread::hardware_concurrency() - 1 workers
  // (at least 0), created on first use, never destroyed (threads are
  // detached at exit).
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

// Runs fn(0) .. fn(n - 1), on `pool`'s workers and the calling thread (in
// order on the calling thread alone when `pool` is null or has no workers).
// Returns the first error by index, or OK.
Status ParallelFor(int64_t n, const std::function<Status(int64_t)>& fn,
                   ThreadPool* pool = ThreadPool::Cpu());

}  // namespace quiver
