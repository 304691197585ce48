#include "quiver/memory/mutable_buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

// A pool that records each request and fills new memory with 0xEE, so a test
// can see which bytes were (not) written by the buffer.
class RecordingPool final : public MemoryPool {
 public:
  Result<uint8_t*> Allocate(int64_t size, int64_t alignment) override {
    QUIVER_ASSIGN_OR_RAISE(uint8_t * p, SystemMemoryPool()->Allocate(size, alignment));
    if (size > 0) std::memset(p, 0xEE, static_cast<size_t>(size));
    requests.push_back(size);
    return p;
  }
  Result<uint8_t*> Reallocate(uint8_t* ptr, int64_t old_size, int64_t new_size,
                              int64_t alignment) override {
    QUIVER_ASSIGN_OR_RAISE(uint8_t * p,
                           SystemMemoryPool()->Reallocate(ptr, old_size, new_size, alignment));
    if (new_size > old_size) {
      std::memset(p + old_size, 0xEE, static_cast<size_t>(new_size - old_size));
    }
    requests.push_back(new_size);
    return p;
  }
  void Free(uint8_t* ptr, int64_t size, int64_t alignment) override {
    SystemMemoryPool()->Free(ptr, size, alignment);
    ++frees;
  }
  int64_t bytes_allocated() const override { return 0; }
  int64_t max_memory() const override { return 0; }
  int64_t total_bytes_allocated() const override { return 0; }
  int64_t num_allocations() const override { return static_cast<int64_t>(requests.size()); }
  std::string backend_name() const override { return "recording"; }

  std::vector<int64_t> requests;
  int frees = 0;
};

TEST(MutableBuffer, ReserveTakesAdditionalBytesNotANewLength) {
  RecordingPool pool;
  MutableBuffer buf(&pool);
  ASSERT_TRUE(buf.Reserve(10).ok());
  EXPECT_EQ(buf.capacity(), 64);
  ASSERT_TRUE(buf.Resize(60, 1).ok());
  // Reserve(10) with 60 bytes in use needs 70: it must grow. A "new length"
  // reading of 10 would not.
  ASSERT_TRUE(buf.Reserve(10).ok());
  EXPECT_GE(buf.capacity() - buf.size(), 10);
  EXPECT_EQ(buf.capacity(), 128);  // max(RoundUp64(70), 2 * 64)
  // Enough room already: no new request.
  const size_t requests = pool.requests.size();
  ASSERT_TRUE(buf.Reserve(68).ok());
  EXPECT_EQ(pool.requests.size(), requests);
}

TEST(MutableBuffer, GrowthPolicyIsMaxOfNeededAndDouble) {
  RecordingPool pool;
  MutableBuffer buf(&pool);
  ASSERT_TRUE(buf.Reserve(1000).ok());
  EXPECT_EQ(buf.capacity(), 1024);  // RoundUp64(1000)
  ASSERT_TRUE(buf.Resize(1024).ok());
  ASSERT_TRUE(buf.Reserve(1).ok());
  EXPECT_EQ(buf.capacity(), 2048);  // doubling wins
  ASSERT_TRUE(buf.Reserve(5000).ok());
  EXPECT_EQ(buf.capacity(), 6080);  // RoundUp64(1024 + 5000) wins
  EXPECT_EQ(pool.requests, (std::vector<int64_t>{1024, 2048, 6080}));
}

TEST(MutableBuffer, ReserveDoesNotZero) {
  RecordingPool pool;
  MutableBuffer buf(&pool);
  ASSERT_TRUE(buf.Reserve(256).ok());
  // The pool's fill pattern is still there: the buffer wrote nothing.
  for (int64_t i = 0; i < buf.capacity(); ++i) ASSERT_EQ(buf.data()[i], 0xEE) << i;
}

TEST(MutableBuffer, ResizeFillsOnlyTheNewBytes) {
  RecordingPool pool;
  MutableBuffer buf(&pool);
  ASSERT_TRUE(buf.Resize(10, 0x11).ok());
  ASSERT_TRUE(buf.Resize(4).ok());  // shrink keeps the bytes
  buf.data()[3] = 0x33;
  ASSERT_TRUE(buf.Resize(8, 0x22).ok());
  const uint8_t expected[] = {0x11, 0x11, 0x11, 0x33, 0x22, 0x22, 0x22, 0x22};
  EXPECT_EQ(std::memcmp(buf.data(), expected, 8), 0);
  // Past the length, bytes are untouched (pool pattern or old contents).
  EXPECT_EQ(buf.data()[8], 0x11);
  EXPECT_EQ(buf.data()[10], 0xEE);
}

TEST(MutableBuffer, AppendsAndTypedAccess) {
  MutableBuffer buf;
  ASSERT_TRUE(buf.Push(1).ok());
  ASSERT_TRUE(buf.Append<int32_t>(0x01020304).ok());
  ASSERT_TRUE(buf.ExtendFromSlice("xyz", 3).ok());
  ASSERT_TRUE(buf.ExtendFromSlice(nullptr, 0).ok());
  ASSERT_TRUE(buf.AppendRepeated(9, 2).ok());
  EXPECT_EQ(buf.size(), 1 + 4 + 3 + 2);
  int32_t v;
  std::memcpy(&v, buf.data() + 1, 4);
  EXPECT_EQ(v, 0x01020304);
  EXPECT_EQ(std::memcmp(buf.data() + 5, "xyz\x09\x09", 5), 0);

  MutableBuffer ints;
  ASSERT_TRUE(ints.Reserve(100 * sizeof(int64_t)).ok());
  for (int64_t i = 0; i < 100; ++i) ints.UnsafeAppend<int64_t>(i * i);
  EXPECT_EQ(ints.data_as<int64_t>()[99], 99 * 99);
}

TEST(MutableBuffer, FreezeZeroesPaddingWithoutCopying) {
  RecordingPool pool;
  MutableBuffer buf(&pool);
  ASSERT_TRUE(buf.ExtendFromSlice("abcde", 5).ok());
  const uint8_t* address = buf.data();
  const int64_t capacity = buf.capacity();
  EXPECT_EQ(buf.data()[5], 0xEE);  // uninitialised before freezing
  auto frozen = buf.Freeze();
  EXPECT_EQ(frozen->data(), address);  // no copy
  EXPECT_EQ(frozen->size(), 5);
  EXPECT_EQ(frozen->capacity(), capacity);
  EXPECT_EQ(frozen->pool(), &pool);
  for (int64_t i = 5; i < frozen->capacity(); ++i) ASSERT_EQ(frozen->data()[i], 0) << i;
  EXPECT_EQ(buf.size(), 0);  // reusable
  EXPECT_EQ(buf.capacity(), 0);
  EXPECT_EQ(pool.frees, 0);
  frozen.reset();
  EXPECT_EQ(pool.frees, 1);  // the frozen buffer returned the memory
}

TEST(MutableBuffer, FreezeSliceNeitherZeroesNorCopies) {
  // A slice of the bytes written, of the allocation as it is: the rest of
  // the capacity is left as it was (0xEE, RecordingPool's fill), the
  // memory goes back to the pool with the slice.
  RecordingPool pool;
  MutableBuffer buf(&pool);
  ASSERT_TRUE(buf.Reserve(4096).ok());
  ASSERT_TRUE(buf.ExtendFromSlice("abcde", 5).ok());
  const uint8_t* address = buf.data();
  auto slice = buf.FreezeSlice();
  EXPECT_EQ(slice->data(), address);
  EXPECT_EQ(slice->size(), 5);
  EXPECT_EQ(slice->capacity(), 5);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(slice->data()), 5), "abcde");
  EXPECT_EQ(address[5], 0xEE);
  EXPECT_EQ(address[4095], 0xEE);
  EXPECT_EQ(buf.size(), 0);
  EXPECT_EQ(buf.capacity(), 0);
  EXPECT_EQ(pool.frees, 0);
  slice.reset();
  EXPECT_EQ(pool.frees, 1);
  // Nothing reserved: an empty slice, nothing to free.
  MutableBuffer empty(&pool);
  auto none = empty.FreezeSlice();
  EXPECT_EQ(none->size(), 0);
  EXPECT_EQ(pool.frees, 1);
}

TEST(MutableBuffer, FreezeOfMuchUnusedRoomZeroesOnlyThePadding) {
  // A reservation from an estimate that the bytes did not fill: the
  // padding to 64 bytes is zeroed, the rest (pages perhaps never written)
  // is left alone and not exposed.
  RecordingPool pool;
  MutableBuffer buf(&pool);
  ASSERT_TRUE(buf.Reserve(1 << 20).ok());
  ASSERT_TRUE(buf.ExtendFromSlice("abcde", 5).ok());
  const uint8_t* address = buf.data();
  auto frozen = buf.Freeze();
  EXPECT_EQ(frozen->data(), address);  // no copy
  EXPECT_EQ(frozen->size(), 5);
  EXPECT_EQ(frozen->capacity(), 5);
  for (int i = 5; i < 64; ++i) ASSERT_EQ(address[i], 0) << i;
  EXPECT_EQ(address[64], 0xEE);
  EXPECT_EQ(address[(1 << 20) - 1], 0xEE);
  frozen.reset();
  EXPECT_EQ(pool.frees, 1);
}

TEST(MutableBuffer, GrowingMostlyUnusedRoomCopiesOnlyTheBytesInUse) {
  // Under half the capacity in use: a new block and a copy of those bytes,
  // not a reallocation (which copies the whole old block).
  RecordingPool pool;
  MutableBuffer buf(&pool);
  ASSERT_TRUE(buf.Reserve(4096).ok());
  ASSERT_TRUE(buf.ExtendFromSlice("abc", 3).ok());
  ASSERT_TRUE(buf.Reserve(8192).ok());
  EXPECT_EQ(buf.capacity(), 8256);
  EXPECT_EQ(pool.frees, 1);  // the old block freed, not reallocated
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buf.data()), 3), "abc");
  // Over half in use: a reallocation (no free of its own).
  ASSERT_TRUE(buf.Resize(8000, 7).ok());
  ASSERT_TRUE(buf.Reserve(1000).ok());
  EXPECT_EQ(pool.frees, 1);
  EXPECT_EQ(buf.capacity(), 16512);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buf.data()), 3), "abc");
  EXPECT_EQ(buf.data()[7999], 7);
}

TEST(MutableBuffer, ShrinkToFitAndClear) {
  MutableBuffer buf(SystemMemoryPool());
  ASSERT_TRUE(buf.Reserve(10000).ok());
  ASSERT_TRUE(buf.Resize(100, 5).ok());
  buf.Clear();
  EXPECT_EQ(buf.size(), 0);
  EXPECT_EQ(buf.capacity(), 10048);
  ASSERT_TRUE(buf.Resize(100, 5).ok());
  ASSERT_TRUE(buf.ShrinkToFit().ok());
  EXPECT_EQ(buf.capacity(), 128);
  EXPECT_EQ(buf.data()[99], 5);
}

TEST(MutableBuffer, PoolAccountingAndFailures) {
  CappedMemoryPool capped(SystemMemoryPool(), 4096);
  {
    MutableBuffer buf(&capped);
    ASSERT_TRUE(buf.Reserve(1000).ok());
    EXPECT_EQ(capped.bytes_allocated(), 1024);
    Status st = buf.Reserve(10000);
    EXPECT_TRUE(st.IsOutOfMemory()) << st;
    EXPECT_EQ(buf.capacity(), 1024);  // unchanged and usable
    ASSERT_TRUE(buf.ExtendFromSlice("ok", 2).ok());
    EXPECT_TRUE(buf.Reserve(-1).ok());  // nothing to reserve
    EXPECT_TRUE(buf.Reserve(INT64_MAX).IsCapacityError());
    MutableBuffer moved = std::move(buf);
    EXPECT_EQ(moved.size(), 2);
    EXPECT_EQ(buf.capacity(), 0);
  }
  EXPECT_EQ(capped.bytes_allocated(), 0);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
