#include "quiver/util/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "quiver/util/cpu_count.h"

namespace quiver {

struct ThreadPool::State {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::function<void()>> queue;
  std::vector<std::thread> threads;
  bool stop = false;

  void Run() {
    while (true) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [this] { return stop || !queue.empty(); });
        if (queue.empty()) return;  // stopping
        task = std::move(queue.front());
        queue.pop_front();
      }
      task();
    }
  }
};

ThreadPool* ThreadPool::Cpu() {
  // Leaked on purpose: worker threads may still be parked at exit.
  static ThreadPool* pool = new ThreadPool(std::max(0, CpuCount() - 1));
  return pool;
}

ThreadPool::ThreadPool(int workers) : state_(new State) {
  for (int i = 0; i < workers; ++i) state_->threads.emplace_back([s = state_] { s->Run(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stop = true;
  }
  state_->wake.notify_all();
  for (auto& t : state_->threads) t.join();
  delete state_;
}

int ThreadPool::workers() const { return static_cast<int>(state_->threads.size()); }

void ThreadPool::Submit(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->queue.push_back(std::move(task));
  }
  state_->wake.notify_one();
}

// Shared by the call and its helpers: a helper that starts after Join()
// returns without touching anything of the call's.
struct TaskGroup::State {
  std::mutex mutex;
  std::condition_variable done;
  int running = 0;      // helpers inside their function
  bool closed = false;  // Join() began: no helper starts any more
};

TaskGroup::TaskGroup() : state_(std::make_shared<State>()) {}

TaskGroup::~TaskGroup() { Join(); }

void TaskGroup::Spawn(ThreadPool* pool, int64_t helpers, std::function<void()> fn) {
  if (pool == nullptr || helpers <= 0) return;
  auto shared_fn = std::make_shared<std::function<void()>>(std::move(fn));
  for (int64_t h = 0; h < helpers; ++h) {
    pool->Submit([state = state_, shared_fn] {
      {
        std::lock_guard<std::mutex> lock(state->mutex);
        if (state->closed) return;
        ++state->running;
      }
      (*shared_fn)();
      {
        std::lock_guard<std::mutex> lock(state->mutex);
        --state->running;
      }
      state->done.notify_all();
    });
  }
}

void TaskGroup::Join() {
  std::unique_lock<std::mutex> lock(state_->mutex);
  state_->closed = true;
  state_->done.wait(lock, [&] { return state_->running == 0; });
}

namespace {

void RunIndices(std::atomic<int64_t>* next, std::atomic<bool>* failed, int64_t n,
                const std::function<Status(int64_t)>& fn, std::vector<Status>* statuses) {
  while (!failed->load(std::memory_order_relaxed)) {
    const int64_t i = next->fetch_add(1, std::memory_order_relaxed);
    if (i >= n) return;
    Status st = fn(i);
    if (!st.ok()) {
      (*statuses)[static_cast<size_t>(i)] = std::move(st);
      failed->store(true, std::memory_order_relaxed);
    }
  }
}

}  // namespace

Status ParallelFor(int64_t n, const std::function<Status(int64_t)>& fn, ThreadPool* pool) {
  if (n <= 0) return Status::OK();
  const int64_t helpers = pool == nullptr ? 0 : std::min<int64_t>(n - 1, pool->workers());
  if (helpers == 0) {
    for (int64_t i = 0; i < n; ++i) QUIVER_RETURN_NOT_OK(fn(i));
    return Status::OK();
  }
  std::vector<Status> statuses(static_cast<size_t>(n));
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  {
    TaskGroup group;
    group.Spawn(pool, helpers, [&] { RunIndices(&next, &failed, n, fn, &statuses); });
    RunIndices(&next, &failed, n, fn, &statuses);
  }  // (joins the helpers)
  for (auto& st : statuses) {
    if (!st.ok()) return st;
  }
  return Status::OK();
}

}  // namespace quiver
