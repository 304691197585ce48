#include "quiver/parquet/reader/row_selection.h"

#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

RowRanges Ranges(std::vector<RowRange> ranges) {
  auto made = RowRanges::Make(std::move(ranges));
  EXPECT_TRUE(made.ok()) << made.status();
  return *made;
}

std::set<int64_t> Rows(const RowRanges& r) {
  std::set<int64_t> out;
  for (const RowRange& range : r.ranges()) {
    for (int64_t i = range.begin; i < range.end; ++i) out.insert(i);
  }
  return out;
}

RowRanges FromSet(const std::set<int64_t>& rows) {
  std::vector<int64_t> v(rows.begin(), rows.end());
  auto made = RowRanges::FromRows(v);
  EXPECT_TRUE(made.ok()) << made.status();
  return *made;
}

TEST(RowRangesTest, MakeCoalescesAndChecks) {
  RowRanges r = Ranges({{0, 5}, {5, 9}, {9, 9}, {12, 20}});
  ASSERT_EQ(r.ranges().size(), 2u);
  EXPECT_EQ(r.ranges()[0], (RowRange{0, 9}));
  EXPECT_EQ(r.ranges()[1], (RowRange{12, 20}));
  EXPECT_EQ(r.row_count(), 17);
  EXPECT_EQ(r.end(), 20);
  EXPECT_EQ(r.ToString(), "[0, 9), [12, 20)");
  EXPECT_TRUE(r.Contains(0));
  EXPECT_TRUE(r.Contains(8));
  EXPECT_FALSE(r.Contains(9));
  EXPECT_FALSE(r.Contains(11));
  EXPECT_TRUE(r.Contains(19));
  EXPECT_FALSE(r.Contains(20));
  EXPECT_FALSE(r.Contains(-1));

  EXPECT_TRUE(Ranges({}).empty());
  EXPECT_TRUE(Ranges({{3, 3}}).empty());
  EXPECT_EQ(Ranges({{3, 3}}).end(), 0);

  auto unsorted = RowRanges::Make({{10, 20}, {0, 5}});
  ASSERT_FALSE(unsorted.ok());
  EXPECT_TRUE(unsorted.status().IsInvalid());
  EXPECT_NE(unsorted.status().message().find("row range 1 [0, 5)"), std::string::npos)
      << unsorted.status();
  EXPECT_FALSE(RowRanges::Make({{0, 10}, {9, 20}}).ok());  // overlapping
  EXPECT_FALSE(RowRanges::Make({{5, 4}}).ok());            // reversed
  EXPECT_FALSE(RowRanges::Make({{-1, 4}}).ok());           // negative
  // An empty range inside another is still out of order.
  EXPECT_FALSE(RowRanges::Make({{0, 10}, {4, 4}}).ok());
}

TEST(RowRangesTest, AllAndFromRows) {
  EXPECT_EQ(RowRanges::All(10), Ranges({{0, 10}}));
  EXPECT_TRUE(RowRanges::All(0).empty());
  EXPECT_TRUE(RowRanges::All(-3).empty());
  EXPECT_EQ(FromSet({1, 2, 3, 7, 9, 10}), Ranges({{1, 4}, {7, 8}, {9, 11}}));
  const std::vector<int64_t> repeated{1, 1};
  EXPECT_FALSE(RowRanges::FromRows(repeated).ok());
  const std::vector<int64_t> descending{3, 2};
  EXPECT_FALSE(RowRanges::FromRows(descending).ok());
  const std::vector<int64_t> negative{-2};
  EXPECT_FALSE(RowRanges::FromRows(negative).ok());
  auto none = RowRanges::FromRows({});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

// Intersect and Union against sets of rows, on random ranges.
TEST(RowRangesTest, IntersectAndUnionMatchSets) {
  std::mt19937_64 rng(20261207);
  for (int round = 0; round < 500; ++round) {
    const int64_t n = 1 + static_cast<int64_t>(rng() % 200);
    auto random_set = [&]() {
      std::set<int64_t> s;
      const int density = static_cast<int>(rng() % 101);
      int64_t i = 0;
      while (i < n) {
        const int64_t run = 1 + static_cast<int64_t>(rng() % 12);
        const bool in = static_cast<int>(rng() % 100) < density;
        for (int64_t k = i; k < std::min(n, i + run); ++k) {
          if (in) s.insert(k);
        }
        i += run;
      }
      return s;
    };
    const std::set<int64_t> a = random_set();
    const std::set<int64_t> b = random_set();
    std::set<int64_t> both;
    std::set<int64_t> either = a;
    for (int64_t x : b) {
      if (a.contains(x)) both.insert(x);
      either.insert(x);
    }
    const RowRanges ra = FromSet(a);
    const RowRanges rb = FromSet(b);
    EXPECT_EQ(Rows(ra), a);
    EXPECT_EQ(ra.row_count(), static_cast<int64_t>(a.size()));
    const RowRanges i = ra.Intersect(rb);
    const RowRanges u = ra.Union(rb);
    EXPECT_EQ(Rows(i), both) << ra.ToString() << " & " << rb.ToString();
    EXPECT_EQ(Rows(u), either) << ra.ToString() << " | " << rb.ToString();
    // Coalesced: the canonical form from the rows.
    EXPECT_EQ(i, FromSet(both));
    EXPECT_EQ(u, FromSet(either));
    EXPECT_EQ(i.row_count(), static_cast<int64_t>(both.size()));
    EXPECT_EQ(u.row_count(), static_cast<int64_t>(either.size()));
    for (int64_t x = -1; x <= n; ++x) EXPECT_EQ(ra.Contains(x), a.contains(x));
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
