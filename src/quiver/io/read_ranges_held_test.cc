// ReadRangeCache::Add and a `held` cache: bytes another cache holds are not
// fetched again, short held holes are read through, reads spanning touching
// pieces are joined.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/io/read_ranges.h"
#include "quiver/io/test_util_internal.h"

namespace quiver::io {
namespace {
namespace QUIVER_UNITY_ID {

std::shared_ptr<Buffer> HeldBytes(int64_t n) {
  std::string s(static_cast<size_t>(n), '\0');
  for (int64_t i = 0; i < n; ++i) s[static_cast<size_t>(i)] = static_cast<char>(i * 13 + 5);
  return Buffer::FromString(std::move(s));
}

std::vector<ReadRange> Reads(const testutil::RecordingFile& file) {
  std::vector<ReadRange> out;
  for (const auto& r : file.reads()) out.push_back({r.offset, r.length});
  return out;
}

void ExpectBytes(const ReadRangeCache& cache, const Buffer& all, int64_t offset, int64_t length) {
  auto got = cache.ReadAt(offset, length);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ((*got)->size(), length);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>((*got)->data()), length),
            std::string(reinterpret_cast<const char*>(all.data() + offset), length))
      << "[" << offset << ", +" << length << ")";
}

TEST(ReadRangeCacheHeld, HeldBytesAreTakenNotFetched) {
  auto bytes = HeldBytes(100000);
  auto file = std::make_shared<testutil::RecordingFile>(bytes);
  CoalesceOptions options;
  options.hole_size_limit = 100;
  auto held = std::make_shared<ReadRangeCache>(file, options);
  // A "dictionary" [1000, 1500) and an "index" [90000, 90200).
  ASSERT_TRUE(held->Cache({{1000, 500}, {90000, 200}}).ok());
  ASSERT_EQ(Reads(*file).size(), 2u);
  ReadRangeCache cache(held, options);
  // The chunk [1000, 5000) whole: its held head is trimmed; a range inside
  // the index is held whole: nothing fetched for it.
  ASSERT_TRUE(cache.Cache({{1000, 4000}, {90050, 100}}, held.get()).ok());
  std::vector<ReadRange> want = {{1000, 500}, {90000, 200}, {1500, 3500}};
  EXPECT_EQ(Reads(*file), want);
  std::vector<ReadRange> ranges = {{1000, 4000}, {90050, 100}};
  EXPECT_EQ(cache.cached_ranges(), ranges);
  // A read spanning the held head and the fetched rest is joined: no request.
  ExpectBytes(cache, *bytes, 900 + 100, 4000);
  ExpectBytes(cache, *bytes, 1400, 300);
  ExpectBytes(cache, *bytes, 90060, 50);
  EXPECT_EQ(Reads(*file).size(), 3u);
  // Outside: from the file (through `held`).
  ExpectBytes(cache, *bytes, 6000, 10);
  EXPECT_EQ(Reads(*file).size(), 4u);
}

TEST(ReadRangeCacheHeld, ShortHeldHolesAreReadThroughLongOnesSplit) {
  auto bytes = HeldBytes(100000);
  auto file = std::make_shared<testutil::RecordingFile>(bytes);
  CoalesceOptions options;
  options.hole_size_limit = 100;
  auto held = std::make_shared<ReadRangeCache>(file, options);
  ASSERT_TRUE(held->Cache({{2000, 50}, {5000, 1000}}).ok());
  const size_t before = Reads(*file).size();
  ReadRangeCache cache(held, options);
  // [1000, 8000) holds a short held piece (50 bytes: read through) and a
  // long one (1000 bytes: the fetch is split around it).
  ASSERT_TRUE(cache.Cache({{1000, 7000}}, held.get()).ok());
  std::vector<ReadRange> reads = Reads(*file);
  std::vector<ReadRange> fetched(reads.begin() + static_cast<int64_t>(before), reads.end());
  std::vector<ReadRange> want = {{1000, 4000}, {6000, 2000}};
  EXPECT_EQ(fetched, want);
  std::vector<ReadRange> ranges = {{1000, 7000}};
  EXPECT_EQ(cache.cached_ranges(), ranges);
  ExpectBytes(cache, *bytes, 1000, 7000);
  ExpectBytes(cache, *bytes, 4990, 20);
  EXPECT_EQ(Reads(*file).size(), reads.size());
}

TEST(ReadRangeCacheHeld, AddKeepsWhatIsCachedAndFetchesOnlyTheRest) {
  auto bytes = HeldBytes(50000);
  auto file = std::make_shared<testutil::RecordingFile>(bytes);
  ReadRangeCache cache(file);  // default options: 8 KiB holes
  ASSERT_TRUE(cache.Add({{40000, 300}}).ok());
  ASSERT_TRUE(cache.Add({{100, 200}, {40100, 100}}).ok());
  std::vector<ReadRange> want = {{40000, 300}, {100, 200}};
  EXPECT_EQ(Reads(*file), want);
  std::vector<ReadRange> ranges = {{100, 200}, {40000, 300}};
  EXPECT_EQ(cache.cached_ranges(), ranges);
  // A failed Add leaves what was cached.
  EXPECT_FALSE(cache.Add({{49990, 100}}).ok());
  EXPECT_EQ(cache.cached_ranges(), ranges);
  ExpectBytes(cache, *bytes, 150, 100);
  // Cache drops what was cached first.
  ASSERT_TRUE(cache.Cache({{0, 10}}).ok());
  std::vector<ReadRange> only = {{0, 10}};
  EXPECT_EQ(cache.cached_ranges(), only);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::io
