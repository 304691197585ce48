// Comparison kernels against a per-row reference: every fixed-width kind,
// booleans, the binary layouts, dictionaries, mixed types and temporal
// units, on lengths around the 64-row word, sliced inputs, 0..100% nulls
// and every SIMD level the CPU has. pyarrow judges the same kernels in
// python/tests/test_compute_compare.py.
#include "quiver/compute/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/compute/arithmetic_test_util_internal.h"
#include "quiver/compute/simd_level.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;

using namespace testing;  // NOLINT: the shared test helpers
constexpr CompareOp kOps[] = {CompareOp::kEqual,     CompareOp::kNotEqual,
                              CompareOp::kLess,      CompareOp::kLessEqual,
                              CompareOp::kGreater,   CompareOp::kGreaterEqual};

template <typename T>
bool Apply(CompareOp op, const T& a, const T& b) {
  switch (op) {
    case CompareOp::kEqual: return a == b;
    case CompareOp::kNotEqual: return !(a == b);
    case CompareOp::kLess: return a < b;
    case CompareOp::kLessEqual: return a <= b;
    case CompareOp::kGreater: return a > b;
    case CompareOp::kGreaterEqual: return a >= b;
  }
  return false;
}

// Checks `result` against expected(i) (nullopt: null) over n rows.
template <typename Expected>
void CheckBooleans(const Result<Datum>& result, int64_t n, Expected&& expected,
                   const std::string& where) {
  ASSERT_TRUE(result.ok()) << where << ": " << result.status();
  ASSERT_TRUE(result->is_array()) << where;
  const ArrayDataPtr& out = result->array();
  ASSERT_TRUE(out->type->Equals(*boolean())) << where;
  ASSERT_EQ(out->length, n) << where;
  ASSERT_TRUE(MakeArray(out)->ValidateFull().ok()) << where;
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    const std::optional<bool> e = expected(i);
    ASSERT_EQ(out->IsValid(i), e.has_value()) << where << " row " << i;
    if (!e.has_value()) {
      ++nulls;
      continue;
    }
    ASSERT_EQ(bit_util::GetBit(out->buffers[1]->data(), out->offset + i), *e)
        << where << " row " << i;
  }
  EXPECT_EQ(out->GetNullCount(), nulls) << where;
  if (nulls == 0) {
    EXPECT_EQ(out->buffers[0], nullptr) << where;
  }
  if (n > 0) {
    // Bits past the last row are zero (no uninitialised bytes escape).
    const uint8_t last = out->buffers[1]->data()[(n - 1) / 8];
    if (n % 8 != 0) {
      EXPECT_EQ(last >> (n % 8), 0) << where;
    }
  }
}

template <typename T>
std::vector<T> RandomValues(std::mt19937_64& rng, int64_t n) {
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) {
    const uint64_t r = rng();
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(static_cast<int64_t>(r % 7) - 3);
      if (r % 11 == 0) x = std::numeric_limits<T>::quiet_NaN();
      if (r % 13 == 0) x = T(-0.0);
      if (r % 17 == 0) x = std::numeric_limits<T>::infinity();
    } else {
      // Few distinct values, so equal rows are common; the extremes too.
      x = static_cast<T>(static_cast<int64_t>(r % 7) - 3);
      if (r % 11 == 0) x = std::numeric_limits<T>::max();
      if (r % 13 == 0) x = std::numeric_limits<T>::min();
    }
  }
  return v;
}

template <typename T>
void CheckFixedType(const TypePtr& type) {
  std::mt19937_64 rng(7);
  for (SimdLevel level : Levels()) {
    auto scoped = ScopedSimdLevel::Make(level);
    ASSERT_TRUE(scoped.ok());
    for (CompareOp op : kOps) {
      for (int64_t n : kLengths) {
        for (double nf : kNullFractions) {
          const int64_t offset = static_cast<int64_t>(rng() % 7);
          auto lv = RandomValues<T>(rng, n + offset);
          auto rv = RandomValues<T>(rng, n + offset);
          auto l = ArrayFromVector<T>(type, lv, RandomValidity(rng, n + offset, nf))->Slice(offset, n);
          auto r = ArrayFromVector<T>(type, rv, RandomValidity(rng, n + offset, nf / 2))->Slice(offset, n);
          const std::string where = std::string(CompareFunctionName(op)) + " " + type->ToString() +
                                    " n=" + std::to_string(n);
          auto value = [](const ArrayDataPtr& a, int64_t i) { return a->GetValues<T>(1)[i]; };
          CheckBooleans(Compare(op, l, r), n, [&](int64_t i) -> std::optional<bool> {
            if (!l->IsValid(i) || !r->IsValid(i)) return std::nullopt;
            return Apply(op, value(l, i), value(r, i));
          }, where + " array-array");
          // Array vs scalar and scalar vs array: the scalar is the right
          // array's first value (or 1).
          const T s = n > 0 ? rv[static_cast<size_t>(offset)] : T(1);
          Scalar scalar;
          if constexpr (std::is_floating_point_v<T>) {
            scalar = type->id() == Type::kFloat ? Scalar::MakeFloat(static_cast<float>(s))
                                                : Scalar::MakeDouble(static_cast<double>(s));
          } else if constexpr (std::is_signed_v<T>) {
            scalar = *Scalar::MakeInt(type, s);
          } else {
            scalar = *Scalar::MakeUInt(type, s);
          }
          CheckBooleans(Compare(op, l, Datum(scalar)), n, [&](int64_t i) -> std::optional<bool> {
            if (!l->IsValid(i)) return std::nullopt;
            return Apply(op, value(l, i), s);
          }, where + " array-scalar");
          CheckBooleans(Compare(op, Datum(scalar), l), n, [&](int64_t i) -> std::optional<bool> {
            if (!l->IsValid(i)) return std::nullopt;
            return Apply(op, s, value(l, i));
          }, where + " scalar-array");
          if (::testing::Test::HasFatalFailure()) return;
          if (nf < 1.0 && n > 0) {
            EXPECT_EQ(LastSimdLevel(), std::min(level, SimdLevel::kAvx2)) << where;
          }
        }
      }
    }
  }
}

TEST(Compare, Int8) { CheckFixedType<int8_t>(int8()); }
TEST(Compare, Int16) { CheckFixedType<int16_t>(int16()); }
TEST(Compare, Int32) { CheckFixedType<int32_t>(int32()); }
TEST(Compare, Int64) { CheckFixedType<int64_t>(int64()); }
TEST(Compare, UInt8) { CheckFixedType<uint8_t>(uint8()); }
TEST(Compare, UInt16) { CheckFixedType<uint16_t>(uint16()); }
TEST(Compare, UInt32) { CheckFixedType<uint32_t>(uint32()); }
TEST(Compare, UInt64) { CheckFixedType<uint64_t>(uint64()); }
TEST(Compare, Float) { CheckFixedType<float>(float32()); }
TEST(Compare, Double) { CheckFixedType<double>(float64()); }
TEST(Compare, Date32) { CheckFixedType<int32_t>(date32()); }
TEST(Compare, TimestampNs) { CheckFixedType<int64_t>(timestamp(TimeUnit::kNano, "UTC")); }

TEST(Compare, IeeeRules) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto a = ArrayFromVector<double>(float64(), {nan, -0.0, 1.0});
  auto b = ArrayFromVector<double>(float64(), {nan, 0.0, nan});
  auto eq = Equal(a, b);
  auto ne = NotEqual(a, b);
  CheckBooleans(eq, 3, [](int64_t i) -> std::optional<bool> { return i == 1; }, "equal");
  CheckBooleans(ne, 3, [](int64_t i) -> std::optional<bool> { return i != 1; }, "not_equal");
}

TEST(Compare, Booleans) {
  std::mt19937_64 rng(3);
  for (int64_t n : kLengths) {
    for (CompareOp op : kOps) {
      std::vector<bool> lv(static_cast<size_t>(n + 3)), rv(static_cast<size_t>(n + 3));
      for (size_t i = 0; i < lv.size(); ++i) {
        lv[i] = rng() % 2;
        rv[i] = rng() % 2;
      }
      auto l = testutil::BooleanArrayFromVector(lv, RandomValidity(rng, n + 3, 0.2))->Slice(3, n);
      auto r = testutil::BooleanArrayFromVector(rv)->Slice(1, n);
      auto bit = [](const ArrayDataPtr& a, int64_t i) {
        return bit_util::GetBit(a->buffers[1]->data(), a->offset + i);
      };
      CheckBooleans(Compare(op, l, r), n, [&](int64_t i) -> std::optional<bool> {
        if (!l->IsValid(i)) return std::nullopt;
        return Apply(op, bit(l, i), bit(r, i));
      }, "bool");
      CheckBooleans(Compare(op, Datum(Scalar::MakeBool(true)), l), n,
                    [&](int64_t i) -> std::optional<bool> {
                      if (!l->IsValid(i)) return std::nullopt;
                      return Apply(op, true, bit(l, i));
                    },
                    "bool scalar");
    }
  }
}

TEST(Compare, BinaryLayouts) {
  std::mt19937_64 rng(5);
  const std::vector<std::string> pool = {"", "a", "ab", "abc", "b", "\xff", "a\x00",
                                         "a long value past twelve bytes",
                                         "a long value past twelve bytez"};
  for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{65}, int64_t{300}}) {
    std::vector<std::string> lv, rv;
    for (int64_t i = 0; i < n + 2; ++i) {
      lv.push_back(pool[rng() % pool.size()]);
      rv.push_back(pool[rng() % pool.size()]);
    }
    auto validity = RandomValidity(rng, n + 2, 0.1);
    std::vector<ArrayDataPtr> lefts = {
        testutil::StringArrayFromVector(lv, validity, utf8()),
        testutil::StringArrayFromVector(lv, validity, large_utf8()),
        testutil::BinaryViewArrayFromVector(lv, validity, utf8_view())};
    auto right = testutil::StringArrayFromVector(rv, {}, utf8())->Slice(2, n);
    for (auto& left : lefts) {
      left = left->Slice(2, n);
      for (CompareOp op : kOps) {
        const std::string where = std::string(CompareFunctionName(op)) + " " + left->type->ToString();
        auto expected_vs = [&](const std::string& other) {
          return [&, other](int64_t i) -> std::optional<bool> {
            if (!left->IsValid(i)) return std::nullopt;
            return Apply(op, std::string_view(lv[static_cast<size_t>(i + 2)]), std::string_view(other));
          };
        };
        if (left->type->id() == Type::kStringView) {
          // Views compare with views only (pyarrow has no kernel for a view
          // against another layout).
          auto view_right = testutil::BinaryViewArrayFromVector(rv, {}, utf8_view())->Slice(2, n);
          CheckBooleans(Compare(op, left, view_right), n, [&](int64_t i) -> std::optional<bool> {
            if (!left->IsValid(i)) return std::nullopt;
            return Apply(op, std::string_view(lv[static_cast<size_t>(i + 2)]),
                         std::string_view(rv[static_cast<size_t>(i + 2)]));
          }, where + " vs view");
          EXPECT_EQ(Compare(op, left, Datum(Scalar::MakeString("ab"))).status().code(),
                    StatusCode::kNotImplemented);
        } else {
          CheckBooleans(Compare(op, left, Datum(Scalar::MakeString("ab"))), n, expected_vs("ab"),
                        where + " vs scalar");
          CheckBooleans(Compare(op, left, right), n, [&](int64_t i) -> std::optional<bool> {
            if (!left->IsValid(i)) return std::nullopt;
            return Apply(op, std::string_view(lv[static_cast<size_t>(i + 2)]),
                         std::string_view(rv[static_cast<size_t>(i + 2)]));
          }, where + " vs utf8");
        }
      }
    }
  }
}

TEST(Compare, DictionaryAgainstScalar) {
  auto dict = testutil::StringArrayFromVector({"x", "y", "z"}, {true, false, true});
  auto type = dictionary(int16(), utf8());
  auto a = testutil::DictionaryArrayFromIndices(type, {0, 1, 2, 2, 0, 1, 99}, dict,
                                                {true, true, true, true, true, true, false});
  auto r = Equal(a, Datum(Scalar::MakeString("z")));
  const std::vector<std::optional<bool>> expected = {false, std::nullopt, true, true, false,
                                                     std::nullopt, std::nullopt};
  CheckBooleans(r, 7, [&](int64_t i) { return expected[static_cast<size_t>(i)]; }, "dict");
  auto flipped = Greater(Datum(Scalar::MakeString("y")), a->Slice(1, 6));
  const std::vector<std::optional<bool>> expected2 = {std::nullopt, false, false, true,
                                                      std::nullopt, std::nullopt};
  CheckBooleans(flipped, 6, [&](int64_t i) { return expected2[static_cast<size_t>(i)]; },
                "dict flipped");
  // Against an array: decoded.
  const std::vector<std::optional<bool>> expected3 = {true, std::nullopt, true, true, true,
                                                      std::nullopt, std::nullopt};
  CheckBooleans(Equal(a, a), 7, [&](int64_t i) { return expected3[static_cast<size_t>(i)]; },
                "dict vs dict");
  auto plain = testutil::StringArrayFromVector({"x", "x", "x", "z", "y", "y", "y"});
  const std::vector<std::optional<bool>> expected4 = {true, std::nullopt, false, true, false,
                                                      std::nullopt, std::nullopt};
  CheckBooleans(Equal(plain, a), 7, [&](int64_t i) { return expected4[static_cast<size_t>(i)]; },
                "plain vs dict");
}

TEST(Compare, MixedTypes) {
  // uint64 vs int64: int64 (2^63 is out of range, as pyarrow's cast).
  auto u = ArrayFromVector<uint64_t>(uint64(), {1, 5});
  auto r = Less(u, Datum(Scalar::MakeInt64(-1)));
  CheckBooleans(r, 2, [](int64_t) -> std::optional<bool> { return false; }, "u64 vs -1");
  auto big = ArrayFromVector<uint64_t>(uint64(), {uint64_t{1} << 63});
  EXPECT_EQ(Equal(big, Datum(Scalar::MakeInt64(0))).status().code(), StatusCode::kInvalid);
  // float32 column vs a double literal: compared as float64.
  auto f = ArrayFromVector<float>(float32(), {0.1f});
  CheckBooleans(Equal(f, Datum(Scalar::MakeDouble(0.1))), 1,
                [](int64_t) -> std::optional<bool> { return false; }, "f32 vs 0.1");
  // Timestamps in different units: the finer one.
  auto s = ArrayFromVector<int64_t>(timestamp(TimeUnit::kSecond), {1, 2});
  auto ms = ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli), {1000, 1999});
  CheckBooleans(Equal(s, ms), 2, [](int64_t i) -> std::optional<bool> { return i == 0; },
                "s vs ms");
  auto utc = ArrayFromVector<int64_t>(timestamp(TimeUnit::kSecond, "UTC"), {1, 2});
  EXPECT_EQ(Equal(s, utc).status().code(), StatusCode::kInvalid);
  // Dates: date32 vs date64 compare as date64.
  auto d32 = ArrayFromVector<int32_t>(date32(), {1});
  auto d64 = ArrayFromVector<int64_t>(date64(), {86400000});
  CheckBooleans(Equal(d32, d64), 1, [](int64_t) -> std::optional<bool> { return true; }, "dates");
  // Null type and null scalars: all null.
  CheckBooleans(Equal(u, Datum(Scalar())), 2, [](int64_t) { return std::optional<bool>(); },
                "null scalar");
  CheckBooleans(Equal(testutil::NullArrayOfLength(2), u), 2,
                [](int64_t) { return std::optional<bool>(); }, "null array");
  // No kernel.
  auto no = Equal(u, Datum(Scalar::MakeString("1")));
  EXPECT_EQ(no.status().code(), StatusCode::kNotImplemented);
  EXPECT_NE(no.status().message().find("equal"), std::string::npos);
  EXPECT_EQ(Equal(u, ArrayFromVector<uint64_t>(uint64(), {1})).status().code(),
            StatusCode::kInvalid);
}

TEST(Compare, HalfFloatsAndDecimals) {
  // 1.0, -0.0, NaN, 2.0 as binary16.
  auto h = ArrayFromVector<uint16_t>(float16(), {0x3C00, 0x8000, 0x7E00, 0x4000});
  auto k = ArrayFromVector<uint16_t>(float16(), {0x3C00, 0x0000, 0x7E00, 0x3C00});
  CheckBooleans(Equal(h, k), 4, [](int64_t i) -> std::optional<bool> { return i < 2; }, "half ==");
  CheckBooleans(Greater(h, k), 4, [](int64_t i) -> std::optional<bool> { return i == 3; },
                "half >");
  struct D128 {
    uint64_t lo;
    int64_t hi;
  };
  auto d = ArrayFromVector<D128>(decimal128(10, 2), {{5, 0}, {~uint64_t{0}, -1}, {7, 0}});
  auto s = Scalar::MakeDecimal(decimal128(10, 2), Int256::FromInt64(5));
  ASSERT_TRUE(s.ok());
  CheckBooleans(LessEqual(d, Datum(*s)), 3, [](int64_t i) -> std::optional<bool> { return i < 2; },
                "decimal128");
  // Different scales, and integers: at the larger scale. 0.05 == 0.050,
  // -0.01 < 0.005, 0.07 > 0.050.
  auto s3 = Scalar::MakeDecimal(decimal128(10, 3), Int256::FromInt64(50));
  CheckBooleans(Equal(d, Datum(*s3)), 3, [](int64_t i) -> std::optional<bool> { return i == 0; },
                "decimal scales");
  auto d256 = ArrayFromVector<std::array<uint64_t, 4>>(
      decimal256(40, 0), {{1, 0, 0, 0}, {~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}},
                          {0, 1, 0, 0}});
  CheckBooleans(Less(d256, Datum(Scalar::MakeInt64(2))), 3,
                [](int64_t i) -> std::optional<bool> { return i < 2; }, "decimal256 vs int");
  // 76 digits before the point and 38 after: past decimal256's precision.
  auto wide = Equal(ArrayFromVector<std::array<uint64_t, 4>>(decimal256(76, 0), {{1, 0, 0, 0}}),
                    Datum(*Scalar::MakeDecimal(decimal128(38, 38), Int256::FromInt64(1))));
  EXPECT_EQ(wide.status().code(), StatusCode::kInvalid);
}

TEST(Compare, ScalarsGiveAScalar) {
  auto r = Less(Datum(Scalar::MakeInt64(1)), Datum(Scalar::MakeDouble(1.5)));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->is_scalar());
  EXPECT_TRUE(r->scalar().bool_value());
  auto s = Equal(Datum(Scalar::MakeString("a")), Datum(Scalar::MakeString("a")));
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->scalar().bool_value());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
