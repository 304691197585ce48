#include "quiver/compute/boolean.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/array/validate.h"
#include "quiver/compute/simd_level.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::BooleanArrayFromVector;
using Tri = std::optional<bool>;  // nullopt: null

enum class Fn { kAnd, kOr, kXor, kAndKleene, kOrKleene };

Result<Datum> Call(Fn fn, const Datum& l, const Datum& r) {
  switch (fn) {
    case Fn::kAnd: return And(l, r);
    case Fn::kOr: return Or(l, r);
    case Fn::kXor: return Xor(l, r);
    case Fn::kAndKleene: return AndKleene(l, r);
    case Fn::kOrKleene: return OrKleene(l, r);
  }
  return Status::Invalid("?");
}

// pyarrow's truth tables.
Tri Expected(Fn fn, Tri l, Tri r) {
  switch (fn) {
    case Fn::kAnd:
      if (!l || !r) return std::nullopt;
      return *l && *r;
    case Fn::kOr:
      if (!l || !r) return std::nullopt;
      return *l || *r;
    case Fn::kXor:
      if (!l || !r) return std::nullopt;
      return *l != *r;
    case Fn::kAndKleene:
      if ((l && !*l) || (r && !*r)) return false;
      if (!l || !r) return std::nullopt;
      return true;
    case Fn::kOrKleene:
      if ((l && *l) || (r && *r)) return true;
      if (!l || !r) return std::nullopt;
      return false;
  }
  return std::nullopt;
}

constexpr Fn kFns[] = {Fn::kAnd, Fn::kOr, Fn::kXor, Fn::kAndKleene, Fn::kOrKleene};
const Tri kTris[] = {Tri(true), Tri(false), std::nullopt};

Scalar ToScalar(Tri t) { return t ? Scalar::MakeBool(*t) : Scalar::MakeNull(boolean()); }

ArrayDataPtr ToArray(const std::vector<Tri>& v) {
  std::vector<bool> values, validity;
  for (Tri t : v) {
    values.push_back(t.value_or(false));
    validity.push_back(t.has_value());
  }
  return BooleanArrayFromVector(values, validity);
}

// Checks `got` is a valid boolean array equal to `want`, with a validity
// bitmap only when it has a null.
void ExpectArray(const Result<Datum>& got, const std::vector<Tri>& want) {
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_TRUE(got->is_array());
  const ArrayData& a = *got->array();
  ASSERT_TRUE(ValidateArrayFull(a).ok()) << ValidateArrayFull(a);
  ASSERT_EQ(a.length, static_cast<int64_t>(want.size()));
  EXPECT_EQ(a.offset, 0);
  bool any_null = false;
  for (size_t i = 0; i < want.size(); ++i) {
    any_null = any_null || !want[i];
    ASSERT_EQ(a.IsValid(static_cast<int64_t>(i)), want[i].has_value()) << i;
    if (want[i]) {
      EXPECT_EQ(bit_util::GetBit(a.buffers[1]->data(), static_cast<int64_t>(i)), *want[i]) << i;
    }
  }
  EXPECT_EQ(a.buffers[0] != nullptr, any_null);
  EXPECT_EQ(a.GetNullCount() > 0, any_null);
  EXPECT_EQ(a.buffers[1]->size(), bit_util::BytesForBits(a.length));
}

TEST(Boolean, TruthTablesScalars) {
  for (Fn fn : kFns) {
    for (Tri l : kTris) {
      for (Tri r : kTris) {
        auto got = Call(fn, ToScalar(l), ToScalar(r));
        ASSERT_TRUE(got.ok());
        ASSERT_TRUE(got->is_scalar());
        EXPECT_TRUE(got->scalar().Equals(ToScalar(Expected(fn, l, r))));
      }
    }
  }
}

TEST(Boolean, TruthTablesArraysAndScalars) {
  // Every pair of the three values, as arrays, then each side as a scalar.
  std::vector<Tri> left, right;
  for (Tri l : kTris) {
    for (Tri r : kTris) {
      left.push_back(l);
      right.push_back(r);
    }
  }
  for (Fn fn : kFns) {
    std::vector<Tri> want;
    for (size_t i = 0; i < left.size(); ++i) want.push_back(Expected(fn, left[i], right[i]));
    ExpectArray(Call(fn, ToArray(left), ToArray(right)), want);
    for (Tri s : kTris) {
      std::vector<Tri> want_l, want_r;
      for (Tri v : left) {
        want_l.push_back(Expected(fn, v, s));
        want_r.push_back(Expected(fn, s, v));
      }
      ExpectArray(Call(fn, ToArray(left), ToScalar(s)), want_l);
      ExpectArray(Call(fn, ToScalar(s), ToArray(left)), want_r);
    }
  }
}

TEST(Boolean, RandomArraysAtBitOffsets) {
  std::mt19937_64 rng(3);
  for (int64_t n : {0, 1, 63, 64, 65, 200, 5000}) {
    for (int nulls : {0, 10, 50, 100}) {
      std::vector<Tri> l, r;
      for (int64_t i = 0; i < n + 11; ++i) {
        l.push_back(static_cast<int>(rng() % 100) < nulls ? Tri() : Tri(rng() % 2 == 0));
        r.push_back(static_cast<int>(rng() % 100) < nulls / 2 ? Tri() : Tri(rng() % 2 == 0));
      }
      const auto la = ToArray(l)->Slice(3, n);
      const auto ra = ToArray(r)->Slice(11, n);
      for (Fn fn : kFns) {
        std::vector<Tri> want;
        for (int64_t i = 0; i < n; ++i) {
          want.push_back(Expected(fn, l[static_cast<size_t>(i + 3)], r[static_cast<size_t>(i + 11)]));
        }
        ExpectArray(Call(fn, la, ra), want);
      }
      std::vector<Tri> inverted;
      for (int64_t i = 0; i < n; ++i) {
        const Tri v = l[static_cast<size_t>(i + 3)];
        inverted.push_back(v ? Tri(!*v) : Tri());
      }
      ExpectArray(Invert(la), inverted);
    }
  }
}

// The plain ops at every SIMD level on arrays long enough for the vector
// loops (bitmap_simd_internal.h), sliced at bit and byte offsets: the same
// results as the definition, the null count right, the level recorded.
TEST(Boolean, EverySimdLevel) {
  std::mt19937_64 rng(5);
  for (int64_t n : {577, 4096, 40960 + 13}) {
    for (int nulls : {0, 10}) {
      std::vector<Tri> l, r;
      for (int64_t i = 0; i < n + 16; ++i) {
        l.push_back(static_cast<int>(rng() % 100) < nulls ? Tri() : Tri(rng() % 2 == 0));
        r.push_back(static_cast<int>(rng() % 100) < nulls ? Tri() : Tri(rng() % 2 == 0));
      }
      for (auto [lo, ro] : {std::pair<int64_t, int64_t>{0, 0}, {8, 16}, {5, 0}, {3, 13}}) {
        const auto la = ToArray(l)->Slice(lo, n);
        const auto ra = ToArray(r)->Slice(ro, n);
        for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
          auto scoped = ScopedSimdLevel::Make(level);
          if (!scoped.ok()) continue;  // a level this CPU lacks
          for (Fn fn : {Fn::kAnd, Fn::kOr, Fn::kXor}) {
            std::vector<Tri> want;
            for (int64_t i = 0; i < n; ++i) {
              want.push_back(Expected(fn, l[static_cast<size_t>(i + lo)],
                                      r[static_cast<size_t>(i + ro)]));
            }
            const auto got = Call(fn, la, ra);
            ExpectArray(got, want);
            EXPECT_EQ(LastSimdLevel(), level) << n << " " << lo << "/" << ro;
            int64_t want_nulls = 0;
            for (const Tri& t : want) want_nulls += !t.has_value();
            EXPECT_EQ(got->array()->null_count, want_nulls);
          }
        }
      }
    }
  }
}

TEST(Boolean, Errors) {
  const auto b = BooleanArrayFromVector({true, false, true});
  const auto ints = testutil::ArrayFromVector<int64_t>(int64(), {1, 2, 3});
  auto bad = And(b, ints);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kNotImplemented);
  EXPECT_EQ(bad.status().message(), "Function 'and' has no kernel matching input types (bool, int64)");
  EXPECT_EQ(OrKleene(b, Scalar()).status().message(),
            "Function 'or_kleene' has no kernel matching input types (bool, null)");
  EXPECT_EQ(Invert(ints).status().message(),
            "Function 'invert' has no kernel matching input types (int64)");
  auto len = Xor(b, BooleanArrayFromVector({true}));
  ASSERT_FALSE(len.ok());
  EXPECT_EQ(len.status().code(), StatusCode::kInvalid);
  EXPECT_EQ(len.status().message(), "Array arguments must all be the same length");
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
