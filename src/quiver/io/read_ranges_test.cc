#include "quiver/io/read_ranges.h"

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/io/memory.h"
#include "quiver/io/test_util_internal.h"

namespace quiver::io {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::RecordingFile;

std::shared_ptr<Buffer> Bytes(int64_t n) {
  std::string s(static_cast<size_t>(n), '\0');
  for (int64_t i = 0; i < n; ++i) s[static_cast<size_t>(i)] = static_cast<char>(i * 7 + 3);
  return Buffer::FromString(std::move(s));
}

TEST(CoalesceRanges, SortsMergesAndKeepsHoles) {
  CoalesceOptions options;
  options.hole_size_limit = 10;
  options.range_size_limit = 1000;
  // Unsorted, one empty, one overlapping, one touching, one within the hole
  // limit, one past it.
  std::vector<ReadRange> in = {{200, 50}, {0, 100}, {50, 100}, {150, 10}, {500, 0},
                               {170, 5},  {186, 4}};
  // [0,150) + [150,160) touch; 170 is 10 after 160 (merged); 186 is 11 after
  // 175 (not); 200 is 10 after 190 (merged).
  std::vector<ReadRange> want = {{0, 175}, {186, 64}};
  EXPECT_EQ(CoalesceRanges(in, options), want);
}

TEST(CoalesceRanges, RangeSizeLimit) {
  CoalesceOptions options;
  options.hole_size_limit = 100;
  options.range_size_limit = 100;
  std::vector<ReadRange> want = {{0, 60}, {70, 60}, {140, 500}};
  EXPECT_EQ(CoalesceRanges({{0, 60}, {70, 60}, {140, 500}}, options), want);
  // Overlapping ranges merge whatever the limit.
  std::vector<ReadRange> merged = {{0, 300}};
  EXPECT_EQ(CoalesceRanges({{0, 200}, {100, 200}}, options), merged);
}

TEST(ReadRangeCache, ServesCachedReadsWithoutRequests) {
  auto bytes = Bytes(100000);
  auto recording = std::make_shared<RecordingFile>(bytes);
  ReadRangeCache cache(recording);
  EXPECT_EQ(cache.Size(), 100000);
  EXPECT_EQ(cache.name(), "recorded");
  ASSERT_TRUE(cache.Cache({{1000, 2000}, {3100, 900}, {50000, 10}}).ok());
  // [1000, 4000) (a 100-byte hole) and [50000, 50010): two requests.
  auto reads = recording->reads();
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_EQ(reads[0].offset, 1000);
  EXPECT_EQ(reads[0].length, 3000);
  EXPECT_EQ(reads[1].offset, 50000);
  EXPECT_EQ(reads[1].length, 10);
  for (auto [offset, length] : std::vector<std::pair<int64_t, int64_t>>{
           {1000, 3000}, {1500, 10}, {3999, 1}, {4000, 0}, {50000, 10}, {50005, 5}}) {
    auto got = cache.ReadAt(offset, length);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ((*got)->size(), length);
    EXPECT_EQ(std::memcmp((*got)->data(), bytes->data() + offset, static_cast<size_t>(length)),
              0);
  }
  EXPECT_EQ(recording->reads().size(), 2u);
  // Outside, or across two cached ranges: from the file, as asked.
  ASSERT_TRUE(cache.ReadAt(3990, 20).ok());
  ASSERT_TRUE(cache.ReadAt(40000, 20000).ok());
  reads = recording->reads();
  ASSERT_EQ(reads.size(), 4u);
  EXPECT_EQ(reads[2].offset, 3990);
  EXPECT_EQ(reads[3].length, 20000);
  // Errors are the file's.
  auto past = cache.ReadAt(99990, 20);
  EXPECT_TRUE(past.status().IsIOError()) << past.status();
  EXPECT_TRUE(cache.ReadAt(-1, 2).status().IsInvalid());
  // Cache() replaces; Clear() drops.
  ASSERT_TRUE(cache.Cache({{0, 10}}).ok());
  std::vector<ReadRange> held = {{0, 10}};
  EXPECT_EQ(cache.cached_ranges(), held);
  cache.Clear();
  EXPECT_TRUE(cache.cached_ranges().empty());
  Status st = cache.Cache({{0, 10}, {99999, 5}});
  EXPECT_TRUE(st.IsIOError()) << st;
  EXPECT_TRUE(cache.cached_ranges().empty());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::io
