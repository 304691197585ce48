#include "quiver/parquet/pruning/pruning.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

namespace cp = compute;
using testutil::ArrayFromVector;
using testutil::StringArrayFromVector;

template <typename T>
T Value(Result<T> r) {
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return *std::move(r);
}

// ---- Kleene tables ----------------------------------------------------------

// The single-result table, by the definition of Kleene's logic.
Possible Single(Possible a, Possible b, bool is_and) {
  auto v = [](Possible p) { return p == kMayBeTrue ? 2 : p == kMayBeNull ? 1 : 0; };
  const int r = is_and ? std::min(v(a), v(b)) : std::max(v(a), v(b));
  return r == 2 ? kMayBeTrue : r == 1 ? kMayBeNull : kMayBeFalse;
}

TEST(Kleene, SetsAreUnionsOfSingleResults) {
  for (Possible a = 0; a < 8; ++a) {
    for (Possible b = 0; b < 8; ++b) {
      Possible want_and = 0, want_or = 0;
      for (Possible x : {kMayBeTrue, kMayBeFalse, kMayBeNull}) {
        for (Possible y : {kMayBeTrue, kMayBeFalse, kMayBeNull}) {
          if ((a & x) && (b & y)) {
            want_and |= Single(x, y, true);
            want_or |= Single(x, y, false);
          }
        }
      }
      EXPECT_EQ(KleeneAnd(a, b), want_and) << int(a) << " " << int(b);
      EXPECT_EQ(KleeneOr(a, b), want_or) << int(a) << " " << int(b);
    }
  }
  EXPECT_EQ(KleeneNot(kMayBeTrue), kMayBeFalse);
  EXPECT_EQ(KleeneNot(kMayBeFalse | kMayBeNull), kMayBeTrue | kMayBeNull);
  EXPECT_EQ(KleeneNot(kMayBeAnything), kMayBeAnything);
  // false and null is false; true or null is true.
  EXPECT_EQ(KleeneAnd(kMayBeFalse, kMayBeNull), kMayBeFalse);
  EXPECT_EQ(KleeneOr(kMayBeTrue, kMayBeNull), kMayBeTrue);
}

// ---- Evaluation over summaries ---------------------------------------------

ColumnSummary Summary(std::optional<Scalar> lo, std::optional<Scalar> hi, int64_t values,
                      std::optional<int64_t> nulls, bool exact = true,
                      std::optional<int64_t> nans = std::nullopt) {
  ColumnSummary s;
  s.min = std::move(lo);
  s.max = std::move(hi);
  s.min_exact = s.max_exact = exact;
  s.num_values = values;
  s.null_count = nulls;
  s.nan_count = nans;
  return s;
}

Scalar I64(int64_t v) { return Scalar::MakeInt64(v); }
cp::Expression Lit(int64_t v) { return cp::literal(I64(v)); }
cp::Expression X() { return cp::field("x"); }

// The possible results of `filter` over one span of column x.
Possible Eval1(const cp::Expression& filter, const TypePtr& type, const ColumnSummary& s) {
  auto pruner = Value(FilterPruner::Make(filter, schema({field("x", type)})));
  auto out = Value(pruner->EvaluateSpans({{s}}, 1));
  return out[0];
}

TEST(Evaluate, ComparisonsFromBounds) {
  const auto s = Summary(I64(20), I64(30), 100, 0);
  EXPECT_EQ(Eval1(cp::less(X(), Lit(10)), int64(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::less(X(), Lit(25)), int64(), s), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::less(X(), Lit(31)), int64(), s), kMayBeTrue);
  EXPECT_EQ(Eval1(cp::less_equal(X(), Lit(20)), int64(), s), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::less(X(), Lit(20)), int64(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::greater(X(), Lit(30)), int64(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::greater_equal(X(), Lit(30)), int64(), s), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::equal(X(), Lit(19)), int64(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::equal(X(), Lit(31)), int64(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::not_equal(X(), Lit(31)), int64(), s), kMayBeTrue);
  // The literal on the left.
  EXPECT_EQ(Eval1(cp::greater(Lit(10), X()), int64(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::less(Lit(30), X()), int64(), s), kMayBeFalse);
  // Nulls add null; a missing null count is not zero.
  EXPECT_EQ(Eval1(cp::less(X(), Lit(31)), int64(), Summary(I64(20), I64(30), 100, 3)),
            kMayBeTrue | kMayBeNull);
  EXPECT_EQ(Eval1(cp::less(X(), Lit(31)), int64(), Summary(I64(20), I64(30), 100, std::nullopt)),
            kMayBeTrue | kMayBeNull);
  // Every value null: only null.
  EXPECT_EQ(Eval1(cp::less(X(), Lit(31)), int64(), Summary(std::nullopt, std::nullopt, 100, 100)),
            kMayBeNull);
  // No bounds: anything but what the counts exclude.
  EXPECT_EQ(Eval1(cp::less(X(), Lit(31)), int64(), Summary(std::nullopt, std::nullopt, 100, 0)),
            kMayBeTrue | kMayBeFalse);
  // A null literal: null everywhere.
  EXPECT_EQ(Eval1(cp::equal(X(), cp::literal(Scalar::MakeNull(int64()))), int64(), s), kMayBeNull);
}

TEST(Evaluate, EqualityNeedsExactBoundsForAllTrue) {
  const auto exact = Summary(I64(5), I64(5), 10, 0, true);
  const auto inexact = Summary(I64(5), I64(5), 10, 0, false);
  EXPECT_EQ(Eval1(cp::equal(X(), Lit(5)), int64(), exact), kMayBeTrue);
  EXPECT_EQ(Eval1(cp::not_equal(X(), Lit(5)), int64(), exact), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::invert(cp::equal(X(), Lit(5))), int64(), exact), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::equal(X(), Lit(5)), int64(), inexact), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::not_equal(X(), Lit(5)), int64(), inexact), kMayBeTrue | kMayBeFalse);
  // x < 10 over [5, 5]: all true only with an exact upper bound.
  EXPECT_EQ(Eval1(cp::less(X(), Lit(10)), int64(), exact), kMayBeTrue);
  EXPECT_EQ(Eval1(cp::less(X(), Lit(10)), int64(), inexact), kMayBeTrue | kMayBeFalse);
}

TEST(Evaluate, NaN) {
  // min == max == 5 in a float column that may hold NaN: x != 5 may be true.
  const auto maybe_nan = Summary(Scalar::MakeDouble(5), Scalar::MakeDouble(5), 10, 0);
  EXPECT_EQ(Eval1(cp::not_equal(X(), Lit(5)), float64(), maybe_nan), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::equal(X(), Lit(5)), float64(), maybe_nan), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::less(X(), Lit(5)), float64(), maybe_nan), kMayBeFalse);
  // A NaN count of zero settles it.
  const auto no_nan = Summary(Scalar::MakeDouble(5), Scalar::MakeDouble(5), 10, 0, true, 0);
  EXPECT_EQ(Eval1(cp::not_equal(X(), Lit(5)), float64(), no_nan), kMayBeFalse);
  // All NaN (no bounds, nan_count == values): comparisons false, != true.
  const auto all_nan = Summary(std::nullopt, std::nullopt, 10, 0, true, 10);
  EXPECT_EQ(Eval1(cp::less(X(), Lit(5)), float64(), all_nan), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::not_equal(X(), Lit(5)), float64(), all_nan), kMayBeTrue);
  EXPECT_EQ(Eval1(cp::is_null(X(), true), float64(), all_nan), kMayBeTrue);
  EXPECT_EQ(Eval1(cp::is_null(X(), false), float64(), all_nan), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::is_valid(X()), float64(), all_nan), kMayBeTrue);
  // float32 column, double literal: typed as Evaluate types it.
  const auto f32 = Summary(Scalar::MakeFloat(1), Scalar::MakeFloat(2), 10, 0, true, 0);
  EXPECT_EQ(Eval1(cp::equal(X(), cp::literal(Scalar::MakeDouble(1.5))), float32(), f32),
            kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::greater(X(), cp::literal(Scalar::MakeDouble(2.5))), float32(), f32),
            kMayBeFalse);
}

TEST(Evaluate, NullPredicates) {
  const auto none = Summary(I64(1), I64(2), 10, 0);
  const auto some = Summary(I64(1), I64(2), 10, 4);
  const auto unknown = Summary(I64(1), I64(2), 10, std::nullopt);
  const auto all = Summary(std::nullopt, std::nullopt, 10, 10);
  EXPECT_EQ(Eval1(cp::is_null(X()), int64(), none), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::is_null(X()), int64(), some), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::is_null(X()), int64(), unknown), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::is_null(X()), int64(), all), kMayBeTrue);
  EXPECT_EQ(Eval1(cp::is_valid(X()), int64(), all), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::is_valid(X()), int64(), none), kMayBeTrue);
}

cp::Expression IsIn(std::vector<int64_t> values, std::vector<bool> validity = {},
                    bool skip_nulls = false) {
  return cp::is_in(X(), cp::SetLookupOptions{cp::Datum(ArrayFromVector(int64(), values, validity)),
                                             skip_nulls});
}

TEST(Evaluate, IsInByBounds) {
  const auto s = Summary(I64(10), I64(20), 10, 0);
  EXPECT_EQ(Eval1(IsIn({1, 2, 30}), int64(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(IsIn({1, 15}), int64(), s), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::invert(IsIn({1, 2})), int64(), s), kMayBeTrue);
  // A null in the set matches null values (skip_nulls false); is_in is never null.
  const auto nulls = Summary(I64(10), I64(20), 10, 2);
  EXPECT_EQ(Eval1(IsIn({1, 0}, {true, false}), int64(), nulls), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(IsIn({1, 0}, {true, false}, true), int64(), nulls), kMayBeFalse);
  // min == max, exact, in the set: never false; `not in` prunes.
  const auto one = Summary(I64(7), I64(7), 10, 0);
  EXPECT_EQ(Eval1(IsIn({7, 9}), int64(), one), kMayBeTrue);
  EXPECT_EQ(Eval1(cp::invert(IsIn({7})), int64(), one), kMayBeFalse);
  // int32 column: the set is brought to int32 as is_in brings it.
  const auto i32 = Summary(Scalar::MakeInt(int32(), 10).ValueOrDie(),
                           Scalar::MakeInt(int32(), 20).ValueOrDie(), 10, 0);
  EXPECT_EQ(Eval1(IsIn({1, 2}), int32(), i32), kMayBeFalse);
  EXPECT_EQ(Eval1(IsIn({11}), int32(), i32), kMayBeTrue | kMayBeFalse);
}

TEST(Evaluate, UnsignedPast2To63) {
  const uint64_t big = (uint64_t{1} << 63) + 5;
  auto u = [](uint64_t v) { return Scalar::MakeUInt(uint64(), v).ValueOrDie(); };
  const auto s = Summary(u(big), u(big + 100), 10, 0);
  // An int64 literal: uint64 values past 2^63 make pyarrow's comparison
  // (and Evaluate's) fail on the data, so nothing is concluded and the
  // reader's evaluation raises.
  EXPECT_EQ(Eval1(cp::less(X(), Lit(5)), uint64(), s), kMayBeAnything);
  EXPECT_EQ(Eval1(cp::less(X(), cp::literal(u(5))), uint64(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::greater(X(), cp::literal(u(5))), uint64(), s), kMayBeTrue);
  EXPECT_EQ(Eval1(cp::equal(X(), cp::literal(u(big + 1))), uint64(), s), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::equal(X(), cp::literal(u(big - 1))), uint64(), s), kMayBeFalse);
}

TEST(Evaluate, TruncatedStringBounds) {
  // "abc" .. "abd" (truncated, inexact): bounds still bound.
  const auto s = Summary(Scalar::MakeString("abc"), Scalar::MakeString("abd"), 10, 0, false);
  auto str = [](const char* v) { return cp::literal(Scalar::MakeString(v)); };
  EXPECT_EQ(Eval1(cp::equal(X(), str("abcxyz")), utf8(), s), kMayBeTrue | kMayBeFalse);
  EXPECT_EQ(Eval1(cp::less(X(), str("abc")), utf8(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::greater(X(), str("abd")), utf8(), s), kMayBeFalse);
  EXPECT_EQ(Eval1(cp::less(X(), str("b")), utf8(), s), kMayBeTrue | kMayBeFalse);
  // large_string read type: bounds cast.
  EXPECT_EQ(Eval1(cp::less(X(), str("abc")), large_utf8(), s), kMayBeFalse);
}

TEST(Evaluate, CastOrTypeTroubleMeansAnything) {
  // Bounds of another kind than the read type (numbers for a string
  // column: Cast would format them, which does not keep their order) leave
  // the side unbounded.
  const auto s = Summary(I64(1), I64(2), 10, 0);
  EXPECT_EQ(Eval1(cp::equal(X(), cp::literal(Scalar::MakeString("z"))), utf8(), s),
            kMayBeTrue | kMayBeFalse);
  // Two fields compared: anything.
  auto pruner = Value(FilterPruner::Make(cp::less(X(), cp::field("y")),
                                         schema({field("x", int64()), field("y", int64())})));
  auto out = Value(pruner->EvaluateSpans({{s}, {s}}, 1));
  EXPECT_EQ(out[0], kMayBeAnything);
}

TEST(Evaluate, BindingErrorsComeFromMake) {
  auto missing = FilterPruner::Make(cp::less(cp::field("nope"), Lit(1)), schema({field("x", int64())}));
  EXPECT_FALSE(missing.ok());
  auto typed = FilterPruner::Make(cp::less(X(), cp::literal(Scalar::MakeString("a"))),
                                  schema({field("x", int64())}));
  EXPECT_FALSE(typed.ok());
  auto not_bool = FilterPruner::Make(X(), schema({field("x", int64())}));
  EXPECT_FALSE(not_bool.ok());
}

TEST(Evaluate, BooleanFieldAndConstants) {
  const auto all_true = Summary(Scalar::MakeBool(true), Scalar::MakeBool(true), 10, 0);
  EXPECT_EQ(Eval1(X(), boolean(), all_true), kMayBeTrue);
  EXPECT_EQ(Eval1(cp::invert(X()), boolean(), all_true), kMayBeFalse);
  const auto s = Summary(I64(1), I64(2), 10, 0);
  EXPECT_EQ(Eval1(cp::and_kleene(cp::less(X(), Lit(5)), cp::literal(Scalar::MakeBool(false))),
                  int64(), s),
            kMayBeFalse);
  EXPECT_EQ(Eval1(cp::or_kleene(cp::less(X(), Lit(0)), cp::less(Lit(1), Lit(2))), int64(), s),
            kMayBeTrue);
}

TEST(Evaluate, ManySpansAtOnce) {
  auto pruner = Value(FilterPruner::Make(cp::equal(X(), Lit(15)), schema({field("x", int64())})));
  std::vector<ColumnSummary> spans;
  for (int i = 0; i < 5; ++i) spans.push_back(Summary(I64(i * 10), I64(i * 10 + 9), 10, 0));
  auto out = Value(pruner->EvaluateSpans({spans}, 5));
  EXPECT_EQ(out, (std::vector<Possible>{kMayBeFalse, kMayBeTrue | kMayBeFalse, kMayBeFalse,
                                        kMayBeFalse, kMayBeFalse}));
  EXPECT_FALSE(pruner->EvaluateSpans({spans}, 4).ok());
}

// ---- Row groups: bloom filters and dictionaries -----------------------------

TEST(RowGroup, BloomFilter) {
  auto bloom = Value(BloomFilter::Make(100, 0.01));
  for (int32_t v : {1, 5, 9}) bloom.InsertHash(BloomFilter::Hash(v));
  auto pruner = Value(FilterPruner::Make(cp::equal(X(), Lit(7)), schema({field("x", int32())})));
  RowGroupColumn c;
  c.statistics = ColumnSummary::Unknown(100, false);
  c.bloom_filter = &bloom;
  c.physical = PhysicalColumn{PhysicalType::kInt32, 0, int32()};
  EXPECT_EQ(Value(PruneRowGroup(*pruner, {&c, 1})), PruneReason::kBloomFilter);
  auto five = Value(FilterPruner::Make(cp::equal(X(), Lit(5)), schema({field("x", int32())})));
  EXPECT_EQ(Value(PruneRowGroup(*five, {&c, 1})), PruneReason::kNotPruned);
  // An int64 literal no int32 equals matches nothing.
  auto far = Value(FilterPruner::Make(cp::equal(X(), Lit(int64_t{1} << 40)),
                                      schema({field("x", int32())})));
  EXPECT_EQ(Value(PruneRowGroup(*far, {&c, 1})), PruneReason::kBloomFilter);
  // is_in: pruned only when no member may be in the filter.
  auto in_miss = Value(FilterPruner::Make(IsIn({2, 3}), schema({field("x", int32())})));
  EXPECT_EQ(Value(PruneRowGroup(*in_miss, {&c, 1})), PruneReason::kBloomFilter);
  auto in_hit = Value(FilterPruner::Make(IsIn({2, 9}), schema({field("x", int32())})));
  EXPECT_EQ(Value(PruneRowGroup(*in_hit, {&c, 1})), PruneReason::kNotPruned);
  // With nulls and a null in the set, the nulls match.
  c.statistics = Summary(std::nullopt, std::nullopt, 100, 3);
  auto in_null = Value(FilterPruner::Make(IsIn({2, 0}, {true, false}), schema({field("x", int32())})));
  EXPECT_EQ(Value(PruneRowGroup(*in_null, {&c, 1})), PruneReason::kNotPruned);
}

TEST(RowGroup, BloomFilterFloatZeros) {
  auto bloom = Value(BloomFilter::Make(100, 0.01));
  bloom.InsertHash(BloomFilter::Hash(-0.0));
  RowGroupColumn c;
  c.statistics = ColumnSummary::Unknown(100, false);
  c.bloom_filter = &bloom;
  c.physical = PhysicalColumn{PhysicalType::kDouble, 0, float64()};
  auto zero = Value(FilterPruner::Make(cp::equal(X(), cp::literal(Scalar::MakeDouble(0.0))),
                                       schema({field("x", float64())})));
  EXPECT_EQ(Value(PruneRowGroup(*zero, {&c, 1})), PruneReason::kNotPruned);
  auto one = Value(FilterPruner::Make(cp::equal(X(), cp::literal(Scalar::MakeDouble(1.0))),
                                      schema({field("x", float64())})));
  EXPECT_EQ(Value(PruneRowGroup(*one, {&c, 1})), PruneReason::kBloomFilter);
}

TEST(RowGroup, Dictionary) {
  RowGroupColumn c;
  c.statistics = Summary(Scalar::MakeString("a"), Scalar::MakeString("z"), 100, 0);
  c.dictionary = StringArrayFromVector({"a", "m", "z"});
  auto str = [](const char* v) { return cp::literal(Scalar::MakeString(v)); };
  auto sch = schema({field("x", utf8())});
  auto miss = Value(FilterPruner::Make(cp::equal(X(), str("b")), sch));
  EXPECT_EQ(Value(PruneRowGroup(*miss, {&c, 1})), PruneReason::kDictionary);
  auto hit = Value(FilterPruner::Make(cp::equal(X(), str("m")), sch));
  EXPECT_EQ(Value(PruneRowGroup(*hit, {&c, 1})), PruneReason::kNotPruned);
  auto range = Value(FilterPruner::Make(
      cp::and_kleene(cp::greater(X(), str("b")), cp::less(X(), str("l"))), sch));
  EXPECT_EQ(Value(PruneRowGroup(*range, {&c, 1})), PruneReason::kDictionary);
  // Nulls: is_null holds when the chunk may have nulls.
  auto nulls = Value(FilterPruner::Make(cp::is_null(X()), sch));
  EXPECT_EQ(Value(PruneRowGroup(*nulls, {&c, 1})), PruneReason::kStatistics);
  c.statistics->null_count = std::nullopt;
  EXPECT_EQ(Value(PruneRowGroup(*nulls, {&c, 1})), PruneReason::kNotPruned);
  // Statistics prune first.
  auto outside = Value(FilterPruner::Make(cp::equal(X(), str("zz")), sch));
  EXPECT_EQ(Value(PruneRowGroup(*outside, {&c, 1})), PruneReason::kStatistics);
  PruningCounters counters;
  counters.Count(PruneReason::kDictionary);
  counters.Count(PruneReason::kStatistics);
  counters.Count(PruneReason::kNotPruned);
  EXPECT_EQ(counters.row_groups_pruned_dictionary, 1);
  EXPECT_EQ(counters.row_groups_pruned_statistics, 1);
  EXPECT_EQ(counters.row_groups_pruned_bloom, 0);
}

// ---- Pages ------------------------------------------------------------------

TEST(Pages, UnalignedColumns) {
  // a: pages at rows 0, 10, 20 (values 0-9, 10-19, 20-29: sorted);
  // b: pages at rows 0, 15 (b in [0, 5] then [100, 200]).
  PageColumn a;
  a.first_rows = {0, 10, 20};
  for (int p = 0; p < 3; ++p) a.summaries.push_back(Summary(I64(p * 10), I64(p * 10 + 9), 10, 0));
  PageColumn b;
  b.first_rows = {0, 15};
  b.summaries = {Summary(I64(0), I64(5), 15, 0), Summary(I64(100), I64(200), 15, 0)};
  auto sch = schema({field("a", int64()), field("b", int64())});
  auto pruner = Value(FilterPruner::Make(
      cp::and_kleene(cp::greater_equal(cp::field("a"), Lit(12)), cp::less(cp::field("b"), Lit(50))),
      sch));
  std::vector<PageColumn> cols{a, b};
  auto sel = Value(PrunePages(*pruner, 30, cols));
  // Only rows 10-14 (a's page 1, b's page 0) may match.
  EXPECT_EQ(sel.ranges, (std::vector<RowRange>{{10, 15}}));
  EXPECT_EQ(sel.pages_skipped[0], (std::vector<bool>{true, false, true}));
  EXPECT_EQ(sel.pages_skipped[1], (std::vector<bool>{false, true}));
  EXPECT_EQ(sel.num_pages_skipped, 3);
  EXPECT_EQ(sel.num_rows_selected(), 5);
  // A column without pages known contributes anything.
  cols[1] = PageColumn{};
  sel = Value(PrunePages(*pruner, 30, cols));
  EXPECT_EQ(sel.ranges, (std::vector<RowRange>{{10, 30}}));
  EXPECT_TRUE(sel.pages_skipped[1].empty());
  // Bad first rows are refused.
  cols[1].first_rows = {0, 40};
  EXPECT_FALSE(PrunePages(*pruner, 30, cols).ok());
}

TEST(Pages, NotTouched) {
  std::vector<RowRange> ranges{{5, 7}, {30, 31}};
  std::vector<int64_t> first{0, 10, 20, 30};
  EXPECT_EQ(PagesNotTouched(ranges, first, 40), (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(PagesNotTouched({}, first, 40), (std::vector<bool>{true, true, true, true}));
}

TEST(Summary, Counts) {
  ColumnSummary s = ColumnSummary::Unknown(10, false);
  EXPECT_TRUE(s.MayHaveNulls());
  EXPECT_TRUE(s.MayHaveValues());
  EXPECT_FALSE(ColumnSummary::Unknown(10, true).MayHaveNulls());
  s.null_count = 10;
  EXPECT_FALSE(s.MayHaveValues());
  EXPECT_FALSE(s.MayHaveNaN());
  s.null_count = 4;
  s.nan_count = 6;
  EXPECT_FALSE(s.MayHaveValues());
  EXPECT_TRUE(s.MayHaveNaN());
  EXPECT_FALSE(ColumnSummary::Unknown(0, false).MayHaveNulls());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
