#include "quiver/parquet/writer/parallel_fields_internal.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/writer/test_util_internal.h"

namespace quiver::parquet::internal {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using testutil::DictionaryArrayFromIndices;
using testutil::ListArrayFromOffsets;
using testutil::NullArrayOfLength;
using testutil::StringArrayFromVector;
using testutil::StructArrayFromChildren;

TEST(EncodeWork, FollowsTheDataNotTheBuffers) {
  std::vector<int32_t> values(1000, 7);
  // No nulls: a bit a slot, 4 bytes a value.
  EXPECT_EQ(EncodeWork(*ArrayFromVector<int32_t>(int32(), values)), 1000 / 8 + 1 + 4000);
  // Mixed nulls: a byte a slot, the present values.
  std::vector<bool> half(1000);
  for (size_t i = 0; i < half.size(); ++i) half[i] = i % 2 == 0;
  EXPECT_EQ(EncodeWork(*ArrayFromVector<int32_t>(int32(), values, half)), 1000 + 500 * 4);
  // All null: the values buffer is there but nothing of it is encoded.
  EXPECT_EQ(EncodeWork(*ArrayFromVector<int32_t>(int32(), values, std::vector<bool>(1000, false))),
            1000 / 8 + 1);
  EXPECT_EQ(EncodeWork(*NullArrayOfLength(800)), 101);
  // A slice counts its own rows.
  EXPECT_EQ(EncodeWork(*ArrayFromVector<int32_t>(int32(), values)->Slice(100, 80)), 80 / 8 + 1 + 320);
  EXPECT_EQ(EncodeWork(*ArrayFromVector<int32_t>(int32(), values)->Slice(0, 0)), 0);
}

TEST(EncodeWork, StringsListsStructsDictionaries) {
  std::vector<std::string> strings;
  for (int i = 0; i < 100; ++i) strings.push_back(std::string(static_cast<size_t>(i), 'x'));
  auto s = StringArrayFromVector(strings);
  // Bytes of the slice's values: 10 + 11 + ... + 19.
  EXPECT_EQ(EncodeWork(*s->Slice(10, 10)), 10 / 8 + 1 + 10 * 4 + 145);
  auto large = StringArrayFromVector(strings, {}, large_utf8());
  EXPECT_EQ(EncodeWork(*large->Slice(10, 10)), 10 / 8 + 1 + 10 * 8 + 145);
  // A list: its offsets, and the child's rows its slots cover.
  auto child = ArrayFromVector<int64_t>(int64(), std::vector<int64_t>(40, 1));
  auto lists = ListArrayFromOffsets(quiver::list(int64()), {0, 10, 10, 30, 40}, child);
  EXPECT_EQ(EncodeWork(*lists->Slice(2, 2)), 2 / 8 + 1 + 2 * 4 + EncodeWork(*child->Slice(10, 30)));
  // A struct: its children at the struct's offset.
  auto a = ArrayFromVector<int32_t>(int32(), std::vector<int32_t>(64, 1));
  auto b = StringArrayFromVector(std::vector<std::string>(64, "abcd"));
  auto st = StructArrayFromChildren(struct_({field("a", int32()), field("b", utf8())}), 64, {a, b});
  EXPECT_EQ(EncodeWork(*st->Slice(8, 16)),
            16 / 8 + 1 + EncodeWork(*a->Slice(8, 16)) + EncodeWork(*b->Slice(8, 16)));
  // A dictionary: the indices and the dictionary.
  auto dict = StringArrayFromVector({"red", "green", "blue"});
  auto d = DictionaryArrayFromIndices(dictionary(int16(), utf8()), std::vector<int64_t>(100, 1), dict);
  EXPECT_EQ(EncodeWork(*d), 100 / 8 + 1 + 100 * 2 + EncodeWork(*dict));
}

TEST(GroupFields, TasksOfEnoughWorkInFieldOrder) {
  using Groups = std::vector<std::pair<int, int>>;
  EXPECT_EQ(GroupFields({}, 100), Groups{});
  EXPECT_EQ(GroupFields({5}, 100), (Groups{{0, 1}}));
  EXPECT_EQ(GroupFields({60, 60, 60}, 100), (Groups{{0, 3}}));  // (a remainder joins the last)
  EXPECT_EQ(GroupFields({200, 10, 200}, 100), (Groups{{0, 1}, {1, 3}}));
  EXPECT_EQ(GroupFields({30, 30, 30, 30, 30, 30, 30, 30}, 100), (Groups{{0, 4}, {4, 8}}));
  EXPECT_EQ(GroupFields({150, 150, 1}, 100), (Groups{{0, 1}, {1, 3}}));
  EXPECT_EQ(GroupFields({0, 0, 0}, 0), (Groups{{0, 1}, {1, 2}, {2, 3}}));
}

TEST(GroupFields, ThresholdFromTheEnvironment) {
  ASSERT_EQ(unsetenv("QUIVER_MIN_TASK_WORK"), 0);
  EXPECT_EQ(MinTaskWork(), kMinTaskWork);
  setenv("QUIVER_MIN_TASK_WORK", "0", 1);
  EXPECT_EQ(MinTaskWork(), 0);
  setenv("QUIVER_MIN_TASK_WORK", "12345", 1);
  EXPECT_EQ(MinTaskWork(), 12345);
  setenv("QUIVER_MIN_TASK_WORK", "lots", 1);
  EXPECT_EQ(MinTaskWork(), kMinTaskWork);
  unsetenv("QUIVER_MIN_TASK_WORK");
}

// The bytes of `pieces` end to end.
std::string Concat(const std::vector<std::shared_ptr<Buffer>>& pieces) {
  std::string out;
  for (const auto& p : pieces) out.append(reinterpret_cast<const char*>(p->data()), static_cast<size_t>(p->size()));
  return out;
}

std::shared_ptr<Buffer> Bytes(int64_t n, char seed) {
  std::string s(static_cast<size_t>(n), '\0');
  for (int64_t i = 0; i < n; ++i) s[static_cast<size_t>(i)] = static_cast<char>(seed + i * 7);
  return testutil::MakeBuffer(s);
}

TEST(PagePipe, PublishesPiecesInOrder) {
  std::mutex mutex;
  std::condition_variable cv;
  PagePipe pipe(&mutex, &cv, DefaultMemoryPool());
  std::string expected;
  auto take = [&] {
    std::lock_guard<std::mutex> lock(mutex);
    return pipe.TakeLocked();
  };
  // Small writes stay unpublished until kPublishBytes of them.
  auto small = Bytes(1000, 'a');
  ASSERT_TRUE(pipe.Write(*small).ok());
  expected += Concat({small});
  EXPECT_TRUE(take().empty());
  std::string got;
  for (int i = 0; i < 300; ++i) {
    auto b = Bytes(1000, static_cast<char>(i));
    ASSERT_TRUE(pipe.Write(*b).ok());
    expected += Concat({b});
  }
  auto first = take();
  ASSERT_FALSE(first.empty());
  for (const auto& p : first) EXPECT_GE(p->size(), PagePipe::kPublishBytes);
  got += Concat(first);
  // A large buffer given to WriteShared is published as it is.
  auto big = Bytes(PagePipe::kAdoptBytes + 5, 'z');
  ASSERT_TRUE(pipe.WriteShared(big).ok());
  expected += Concat({big});
  auto second = take();
  ASSERT_FALSE(second.empty());
  EXPECT_EQ(second.back().get(), big.get());
  got += Concat(second);
  // In-place room, then a write larger than a block.
  auto room = pipe.BeginInPlace(64);
  ASSERT_TRUE(room.ok());
  std::memcpy(*room, "0123456789", 10);
  ASSERT_TRUE(pipe.CommitInPlace(10).ok());
  expected += "0123456789";
  EXPECT_FALSE(pipe.CommitInPlace(1).ok());  // no room open
  auto huge = Bytes(PagePipe::kBlockBytes * 2 + 3, 'h');
  ASSERT_TRUE(pipe.Write(huge->data(), huge->size()).ok());
  expected += Concat({huge});
  EXPECT_EQ(*pipe.Tell(), static_cast<int64_t>(expected.size()));
  ASSERT_TRUE(pipe.Close().ok());
  got += Concat(take());
  EXPECT_EQ(got, expected);
  EXPECT_FALSE(pipe.Write("x", 1).ok());
  EXPECT_TRUE(take().empty());
}

using testing::CheckedSink;

// Handed over, the pipe's writer writes what it publishes to the sink
// itself, after what was published before (taken by the other side), and
// returns the sink's failure from its next call.
TEST(PagePipe, HandedOverWritesTheSinkItself) {
  std::mutex mutex;
  std::condition_variable cv;
  for (bool fail : {false, true}) {
    PagePipe pipe(&mutex, &cv, DefaultMemoryPool());
    CheckedSink sink(fail ? PagePipe::kAdoptBytes * 2 : -1, /*any_thread=*/true);
    auto before = Bytes(PagePipe::kAdoptBytes + 1, 'b');
    ASSERT_TRUE(pipe.WriteShared(before).ok());
    auto small = Bytes(100, 's');
    ASSERT_TRUE(pipe.Write(*small).ok());  // not published yet
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (auto& piece : pipe.TakeLocked()) ASSERT_TRUE(sink.Write(*piece).ok());
      pipe.HandOverLocked(&sink);
    }
    EXPECT_EQ(sink.bytes(), Concat({before}));
    auto after = Bytes(PagePipe::kAdoptBytes + 7, 'a');
    Status st = pipe.WriteShared(after);
    if (!fail) {
      ASSERT_TRUE(st.ok());
      ASSERT_TRUE(pipe.Close().ok());
      EXPECT_EQ(sink.bytes(), Concat({before, small, after}));
      std::lock_guard<std::mutex> lock(mutex);
      EXPECT_TRUE(pipe.TakeLocked().empty());
    } else {
      EXPECT_EQ(st.message(), "disk full");
      EXPECT_EQ(pipe.Write("x", 1).message(), "disk full");
      EXPECT_EQ(pipe.Close().message(), "disk full");
    }
  }
}

// Task t writes a recognisable run of bytes (some small, some adopted
// whole, some in place) and returns one chunk whose data_page_offset is
// where its bytes begin in `to`; it fails if t is in `failing`.
struct FakeTasks {
  int64_t n;
  std::vector<int64_t> sizes;
  std::vector<int64_t> failing;
  std::atomic<int> direct{0};
  io::OutputStream* sink = nullptr;

  explicit FakeTasks(int64_t count, uint64_t seed = 1) : n(count) {
    std::mt19937_64 rng(seed);
    for (int64_t t = 0; t < n; ++t) {
      const int64_t kind = static_cast<int64_t>(rng() % 4);
      sizes.push_back(kind == 0 ? 0 : kind == 1 ? 100 + static_cast<int64_t>(rng() % 5000)
                                  : kind == 2 ? PagePipe::kAdoptBytes + static_cast<int64_t>(rng() % 1000)
                                              : 300000 + static_cast<int64_t>(rng() % 300000));
    }
  }

  std::string Expected(int64_t upto) const {
    std::string out;
    for (int64_t t = 0; t < upto; ++t) out += Concat({Bytes(sizes[static_cast<size_t>(t)], static_cast<char>(t))});
    return out;
  }

  Result<std::vector<ColumnChunkOutput>> Encode(int64_t t, io::OutputStream* to) {
    if (to == sink) direct.fetch_add(1);
    if (t % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200 * (t % 5)));
    for (int64_t f : failing) {
      if (f == t) return Status::Invalid("task ", t, " failed");
    }
    QUIVER_ASSIGN_OR_RAISE(int64_t start, to->Tell());
    auto bytes = Bytes(sizes[static_cast<size_t>(t)], static_cast<char>(t));
    if (t % 2 == 0) {
      QUIVER_RETURN_NOT_OK(to->WriteShared(bytes));
    } else {
      // In two parts, the second through in-place room.
      const int64_t half = bytes->size() / 2;
      QUIVER_RETURN_NOT_OK(to->Write(bytes->data(), half));
      QUIVER_ASSIGN_OR_RAISE(uint8_t* room, to->BeginInPlace(bytes->size() - half));
      if (room == nullptr) {
        QUIVER_RETURN_NOT_OK(to->Write(bytes->data() + half, bytes->size() - half));
      } else {
        std::memcpy(room, bytes->data() + half, static_cast<size_t>(bytes->size() - half));
        QUIVER_RETURN_NOT_OK(to->CommitInPlace(bytes->size() - half));
      }
    }
    ColumnChunkOutput out;
    out.metadata.data_page_offset = start;
    out.num_rows = t;
    std::vector<ColumnChunkOutput> chunks;
    chunks.push_back(std::move(out));
    return chunks;
  }
};

// Runs the pipeline over `tasks`; returns its status, the tasks placed (in
// order) and where each says its bytes are.
Status RunPipeline(FakeTasks* tasks, io::OutputStream* sink, ThreadPool* pool, std::vector<int64_t>* placed,
           std::vector<int64_t>* offsets) {
  tasks->sink = sink;
  return WriteTasksInOrder(
      tasks->n, [&](int64_t t, io::OutputStream* to) { return tasks->Encode(t, to); },
      [&](std::vector<ColumnChunkOutput> chunks, int64_t shift) {
        for (auto& c : chunks) {
          placed->push_back(c.num_rows);
          offsets->push_back(c.metadata.data_page_offset + shift);
        }
        return Status::OK();
      },
      sink, pool, DefaultMemoryPool());
}

TEST(WriteTasksInOrder, BytesAndOffsetsAsOneThread) {
  ThreadPool one(1), three(3), none(0);
  for (ThreadPool* pool : {&one, &three, &none, static_cast<ThreadPool*>(nullptr)}) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      FakeTasks tasks(30, seed);
      CheckedSink sink;
      std::vector<int64_t> placed, offsets;
      ASSERT_TRUE(RunPipeline(&tasks, &sink, pool, &placed, &offsets).ok());
      EXPECT_EQ(sink.bytes(), tasks.Expected(tasks.n));
      EXPECT_EQ(sink.foreign_calls(), 0);  // the calling thread alone writes
      ASSERT_EQ(placed.size(), 30u);
      int64_t at = 0;
      for (int64_t t = 0; t < 30; ++t) {
        EXPECT_EQ(placed[static_cast<size_t>(t)], t);
        EXPECT_EQ(offsets[static_cast<size_t>(t)], at) << "task " << t;
        at += tasks.sizes[static_cast<size_t>(t)];
      }
      if (pool == nullptr || pool->workers() == 0) {
        EXPECT_EQ(tasks.direct.load(), 30);
      }
    }
  }
}

// A sink callable from any thread: handed over to the workers while their
// task is the frontier; the same bytes and offsets, never two calls at once.
TEST(WriteTasksInOrder, HandedOverSinkSameBytes) {
  ThreadPool one(1), three(3);
  int foreign = 0;
  for (ThreadPool* pool : {&one, &three}) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      FakeTasks tasks(30, seed);
      CheckedSink sink(-1, /*any_thread=*/true);
      std::vector<int64_t> placed, offsets;
      ASSERT_TRUE(RunPipeline(&tasks, &sink, pool, &placed, &offsets).ok());
      EXPECT_EQ(sink.bytes(), tasks.Expected(tasks.n));
      EXPECT_EQ(sink.overlapping_calls(), 0);
      foreign += sink.foreign_calls();
      ASSERT_EQ(placed.size(), 30u);
      int64_t at = 0;
      for (int64_t t = 0; t < 30; ++t) {
        EXPECT_EQ(placed[static_cast<size_t>(t)], t);
        EXPECT_EQ(offsets[static_cast<size_t>(t)], at) << "task " << t;
        at += tasks.sizes[static_cast<size_t>(t)];
      }
    }
  }
  EXPECT_GT(foreign, 0);  // workers did write (12 runs of 30 tasks)
}

TEST(WriteTasksInOrder, HandedOverSinkErrors) {
  ThreadPool pool(2);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    FakeTasks tasks(20, seed);
    const int64_t fail_at = static_cast<int64_t>(tasks.Expected(10).size()) - 1;
    CheckedSink sink(fail_at, /*any_thread=*/true);
    std::vector<int64_t> placed, offsets;
    Status st = RunPipeline(&tasks, &sink, &pool, &placed, &offsets);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.message(), "disk full");
    EXPECT_LT(placed.size(), 10u);
    EXPECT_EQ(sink.overlapping_calls(), 0);
  }
  for (int round = 0; round < 10; ++round) {
    FakeTasks tasks(30, static_cast<uint64_t>(round));
    tasks.failing = {21, 7, 9};
    CheckedSink sink(-1, /*any_thread=*/true);
    std::vector<int64_t> placed, offsets;
    Status st = RunPipeline(&tasks, &sink, &pool, &placed, &offsets);
    EXPECT_EQ(st.message(), "task 7 failed");
    EXPECT_EQ(placed, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(sink.bytes(), tasks.Expected(7));
  }
}

// Into a stream that keeps buffers (handed over as a file is).
TEST(WriteTasksInOrder, IntoMemory) {
  ThreadPool pool(2);
  FakeTasks tasks(25, 9);
  io::ChunkedOutputStream sink;
  std::vector<int64_t> placed, offsets;
  ASSERT_TRUE(RunPipeline(&tasks, &sink, &pool, &placed, &offsets).ok());
  auto pieces = sink.Finish();
  ASSERT_TRUE(pieces.ok());
  EXPECT_EQ(Concat(*pieces), tasks.Expected(tasks.n));
}

TEST(WriteTasksInOrder, TheLowestFailingTaskWins) {
  ThreadPool pool(2);
  for (int round = 0; round < 20; ++round) {
    FakeTasks tasks(30, static_cast<uint64_t>(round));
    tasks.failing = {21, 7, 9};
    CheckedSink sink;
    std::vector<int64_t> placed, offsets;
    Status st = RunPipeline(&tasks, &sink, &pool, &placed, &offsets);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.message(), "task 7 failed");
    // What one thread would have written: tasks 0 .. 6.
    EXPECT_EQ(placed, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(sink.bytes(), tasks.Expected(7));
  }
}

TEST(WriteTasksInOrder, SinkErrorsStopTheWrite) {
  ThreadPool pool(1);
  FakeTasks tasks(20, 3);
  const int64_t fail_at = static_cast<int64_t>(tasks.Expected(10).size()) - 1;
  CheckedSink sink(fail_at);
  std::vector<int64_t> placed, offsets;
  Status st = RunPipeline(&tasks, &sink, &pool, &placed, &offsets);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "disk full");
  EXPECT_LT(placed.size(), 10u);
}

// A worker that never starts (the pool is busy): the calling thread does
// every task, straight to the sink.
TEST(WriteTasksInOrder, WithoutAWorkerTheCallerWritesEverything) {
  ThreadPool pool(1);
  std::mutex m;
  std::condition_variable cv;
  bool release = false;
  pool.Submit([&] {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return release; });
  });
  FakeTasks tasks(12, 5);
  CheckedSink sink;
  std::vector<int64_t> placed, offsets;
  ASSERT_TRUE(RunPipeline(&tasks, &sink, &pool, &placed, &offsets).ok());
  EXPECT_EQ(tasks.direct.load(), 12);
  EXPECT_EQ(sink.bytes(), tasks.Expected(12));
  {
    std::lock_guard<std::mutex> lock(m);
    release = true;
  }
  cv.notify_all();
}

// Pipelines inside tasks of a ParallelFor on the same pool: no deadlock.
TEST(WriteTasksInOrder, NestedInThePool) {
  ThreadPool pool(1);
  std::vector<std::string> outputs(4);
  ASSERT_TRUE(ParallelFor(4, [&](int64_t i) {
    FakeTasks tasks(10, static_cast<uint64_t>(i));
    io::BufferOutputStream sink;
    std::vector<int64_t> placed, offsets;
    QUIVER_RETURN_NOT_OK(RunPipeline(&tasks, &sink, &pool, &placed, &offsets));
    QUIVER_ASSIGN_OR_RAISE(auto bytes, sink.Finish());
    if (std::string(reinterpret_cast<const char*>(bytes->data()), static_cast<size_t>(bytes->size())) !=
        tasks.Expected(10)) {
      return Status::Invalid("pipeline ", i, " wrote other bytes");
    }
    return Status::OK();
  }, &pool).ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet::internal
