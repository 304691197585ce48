#include "quiver/parquet/bloom/distinct_hashes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace quiver::parquet {
namespace {

TEST(DistinctHashes, MatchesASetAcrossGrowth) {
  std::mt19937_64 gen(7);
  DistinctHashes d;
  std::set<uint64_t> reference;
  EXPECT_EQ(d.size(), 0);
  EXPECT_TRUE(d.Values().empty());
  for (int i = 0; i < 50000; ++i) {
    // Many repeats, zero included, and colliding low bits (same slot).
    uint64_t h = gen() % 3 == 0 ? gen() % 1000 : (gen() << 20);
    if (i % 997 == 0) h = 0;
    d.Insert(h);
    reference.insert(h);
  }
  EXPECT_EQ(d.size(), static_cast<int64_t>(reference.size()));
  std::vector<uint64_t> values = d.Values();
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, std::vector<uint64_t>(reference.begin(), reference.end()));
}

}  // namespace
}  // namespace quiver::parquet
