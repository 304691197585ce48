#include "quiver/memory/buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/memory/zero_size_area.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

TEST(ZeroSizeArea, IsStaticAlignedAndZero) {
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ZeroSizeArea()) % 256, 0u);
  for (int i = 0; i < kZeroSizeAreaAlignment; ++i) EXPECT_EQ(ZeroSizeArea()[i], 0);
}

TEST(Buffer, EveryEmptyBufferPointsAtTheZeroSizeArea) {
  Buffer default_constructed;
  EXPECT_TRUE(IsZeroSizeArea(default_constructed.data()));
  EXPECT_TRUE(IsZeroSizeArea(Buffer::Empty()->data()));
  EXPECT_TRUE(IsZeroSizeArea(Buffer::FromVector({})->data()));
  EXPECT_TRUE(IsZeroSizeArea(Buffer::FromString("")->data()));
  EXPECT_TRUE(IsZeroSizeArea(Buffer::Wrap(nullptr, 0)->data()));
  EXPECT_TRUE(IsZeroSizeArea(Buffer::Wrap(reinterpret_cast<const void*>(0x80), 0)->data()));
  EXPECT_TRUE(IsZeroSizeArea((*Buffer::Copy(nullptr, 0))->data()));

  // A zero-length slice, even at the very end of its parent.
  auto parent = Buffer::FromString("abcd");
  EXPECT_TRUE(IsZeroSizeArea(SliceBuffer(parent, 4, 0)->data()));
  EXPECT_TRUE(IsZeroSizeArea(SliceBuffer(parent, 1, 0)->data()));

  // From MutableBuffer: never allocated, capacity 0, shrunk to 0, freed to empty.
  MutableBuffer never;
  EXPECT_TRUE(IsZeroSizeArea(never.data()));
  EXPECT_TRUE(IsZeroSizeArea(never.Freeze()->data()));
  auto zero_cap = MutableBuffer::WithCapacity(0);
  ASSERT_TRUE(zero_cap.ok());
  EXPECT_TRUE(IsZeroSizeArea(zero_cap->data()));
  MutableBuffer shrunk;
  ASSERT_TRUE(shrunk.Reserve(100).ok());
  EXPECT_FALSE(IsZeroSizeArea(shrunk.data()));
  ASSERT_TRUE(shrunk.ShrinkToFit().ok());
  EXPECT_TRUE(IsZeroSizeArea(shrunk.data()));
  EXPECT_EQ(shrunk.capacity(), 0);
  MutableBuffer freed;
  ASSERT_TRUE(freed.Resize(10).ok());
  freed.Clear();
  auto frozen_empty = freed.Freeze();
  EXPECT_TRUE(IsZeroSizeArea(frozen_empty->data()));
  EXPECT_EQ(frozen_empty->size(), 0);
  EXPECT_TRUE(IsZeroSizeArea(freed.data()));
}

TEST(Buffer, EqualityComparesBytes) {
  auto a = Buffer::FromString("hello");
  auto b = Buffer::FromVector({'h', 'e', 'l', 'l', 'o'});
  auto c = Buffer::FromString("hellO");
  EXPECT_TRUE(a->Equals(*b));
  EXPECT_FALSE(a->Equals(*c));
  EXPECT_TRUE(a->Equals(*c, 4));
  EXPECT_FALSE(a->Equals(*Buffer::FromString("hell")));
  EXPECT_TRUE(Buffer::Empty()->Equals(Buffer()));
  EXPECT_EQ(a->ToHexString(), "68656c6c6f");
}

TEST(Buffer, SlicesKeepTheParentAlive) {
  std::shared_ptr<Buffer> slice;
  {
    auto parent = Buffer::FromString("0123456789");
    slice = SliceBuffer(parent, 3, 4);
    EXPECT_EQ(slice->parent(), parent);
  }
  EXPECT_EQ(slice->view(), "3456");
  auto nested = SliceBuffer(slice, 1, 2);
  EXPECT_EQ(nested->view(), "45");
  EXPECT_TRUE(SliceBufferSafe(slice, 2, 3).status().IsIndexError());
  EXPECT_TRUE(SliceBufferSafe(slice, -1, 1).status().IsIndexError());
  EXPECT_EQ((*SliceBufferSafe(slice, 4, 0))->size(), 0);
}

TEST(Buffer, CopyIsAlignedPaddedAndOwned) {
  MemoryPool* pool = SystemMemoryPool();
  const int64_t before = pool->bytes_allocated();
  {
    auto copy = Buffer::Copy("abc", 3, pool);
    ASSERT_TRUE(copy.ok());
    EXPECT_EQ((*copy)->view(), "abc");
    EXPECT_EQ((*copy)->capacity(), 64);
    EXPECT_EQ((*copy)->pool(), pool);
    EXPECT_EQ(reinterpret_cast<uintptr_t>((*copy)->data()) % 64, 0u);
    for (int64_t i = 3; i < 64; ++i) EXPECT_EQ((*copy)->data()[i], 0);
    EXPECT_EQ(pool->bytes_allocated() - before, 64);
  }
  EXPECT_EQ(pool->bytes_allocated(), before);
}

TEST(Buffer, WrapWithOwnerHoldsTheOwner) {
  auto owner = std::make_shared<std::string>("owned bytes");
  std::weak_ptr<std::string> watch = owner;
  auto buf = Buffer::WrapWithOwner(owner->data(), 5, owner);
  owner.reset();
  EXPECT_FALSE(watch.expired());
  EXPECT_EQ(buf->view(), "owned");
  buf.reset();
  EXPECT_TRUE(watch.expired());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
