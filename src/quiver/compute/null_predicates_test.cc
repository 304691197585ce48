#include "quiver/compute/null_predicates.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/array/validate.h"
#include "quiver/compute/simd_level.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using Tri = std::optional<bool>;

void ExpectBools(const Result<Datum>& got, const std::vector<Tri>& want) {
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_TRUE(got->is_array());
  const ArrayData& a = *got->array();
  ASSERT_TRUE(ValidateArrayFull(a).ok()) << ValidateArrayFull(a);
  ASSERT_EQ(a.type->id(), Type::kBool);
  ASSERT_EQ(a.length, static_cast<int64_t>(want.size()));
  bool any_null = false;
  for (size_t i = 0; i < want.size(); ++i) {
    const auto slot = static_cast<int64_t>(i);
    any_null = any_null || !want[i];
    ASSERT_EQ(a.IsValid(slot), want[i].has_value()) << i;
    if (want[i]) {
      EXPECT_EQ(bit_util::GetBit(a.buffers[1]->data(), slot), *want[i]) << i;
    }
  }
  EXPECT_EQ(a.buffers[0] != nullptr, any_null);
}

TEST(NullPredicates, PlainArraysAtOffsets) {
  std::vector<bool> validity;
  std::vector<int32_t> values;
  for (int i = 0; i < 200; ++i) {
    values.push_back(i);
    validity.push_back(i % 3 != 1);
  }
  const auto full = ArrayFromVector<int32_t>(int32(), values, validity);
  for (int64_t offset : {0, 1, 5, 64}) {
    const auto a = full->Slice(offset, 200 - offset);
    std::vector<Tri> nulls, valids, nans;
    for (int64_t i = offset; i < 200; ++i) {
      const bool v = validity[static_cast<size_t>(i)];
      nulls.push_back(!v);
      valids.push_back(v);
      nans.push_back(v ? Tri(false) : Tri());
    }
    ExpectBools(IsNull(a), nulls);
    ExpectBools(IsNull(a, true), nulls);
    ExpectBools(IsValid(a), valids);
    ExpectBools(IsNan(a), nans);
  }
  const auto no_nulls = ArrayFromVector<int32_t>(int32(), {1, 2});
  ExpectBools(IsNull(no_nulls), {false, false});
  ExpectBools(IsValid(no_nulls), {true, true});
}

TEST(NullPredicates, FloatsAndNanIsNull) {
  const auto a = ArrayFromVector<double>(float64(), {1.0, NAN, 3.0, NAN}, {true, true, false, false});
  ExpectBools(IsNull(a), {false, false, true, true});
  ExpectBools(IsNull(a, true), {false, true, true, true});
  ExpectBools(IsValid(a), {true, true, false, false});
  ExpectBools(IsNan(a), {false, true, Tri(), Tri()});
  const auto f = ArrayFromVector<float>(float32(), {NAN, -INFINITY});
  ExpectBools(IsNan(f), {true, false});
  ExpectBools(IsNull(f, true), {true, false});
  // float16: 0x7E00 is NaN, 0x7C00 is +inf.
  const auto h = ArrayFromVector<uint16_t>(float16(), {0x7E00, 0x7C00, 0x3C00});
  ExpectBools(IsNan(h), {true, false, false});
  ExpectBools(IsNull(h, true), {true, false, false});
}

TEST(NullPredicates, NanTestsAtEveryLevel) {
  std::vector<double> values;
  std::vector<bool> validity;
  for (int i = 0; i < 1000; ++i) {
    values.push_back(i % 7 == 3 ? NAN : i * 0.5);
    validity.push_back(i % 11 != 5);
  }
  const auto d = ArrayFromVector<double>(float64(), values, validity)->Slice(3, 990);
  const auto f = ArrayFromVector<float>(float32(), std::vector<float>(values.begin(), values.end()),
                                        validity)->Slice(3, 990);
  std::vector<Tri> nan, null_or_nan;
  for (int i = 3; i < 993; ++i) {
    const bool is_nan = i % 7 == 3, valid = i % 11 != 5;
    nan.push_back(valid ? Tri(is_nan) : Tri());
    null_or_nan.push_back(!valid || is_nan);
  }
  for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    auto scoped = ScopedSimdLevel::Make(level);
    if (!scoped.ok()) continue;  // a level this CPU lacks
    const SimdLevel want = level == SimdLevel::kScalar ? SimdLevel::kScalar : SimdLevel::kAvx2;
    ExpectBools(IsNan(d), nan);
    EXPECT_EQ(LastSimdLevel(), want);
    ExpectBools(IsNan(f), nan);
    EXPECT_EQ(LastSimdLevel(), want);
    ExpectBools(IsNull(d, true), null_or_nan);
    EXPECT_EQ(LastSimdLevel(), want);
  }
}

TEST(NullPredicates, NullTypeAndDictionaries) {
  const auto n = testutil::NullArrayOfLength(3);
  ExpectBools(IsNull(n), {true, true, true});
  ExpectBools(IsValid(n), {false, false, false});
  ExpectBools(IsNan(n), {Tri(), Tri(), Tri()});
  // Dictionary [null, 1.0, NaN]; indices [0, 1, null, 2].
  const auto dict = ArrayFromVector<double>(float64(), {0.0, 1.0, NAN}, {false, true, true});
  const auto d = testutil::DictionaryArrayFromIndices(dictionary(int8(), float64()), {0, 1, 0, 2}, dict,
                                                      {true, true, false, true});
  ExpectBools(IsNull(d), {true, false, true, false});
  ExpectBools(IsNull(d, true), {true, false, true, true});
  ExpectBools(IsValid(d), {false, true, false, true});
  EXPECT_EQ(IsNan(d).status().code(), StatusCode::kNotImplemented);
}

TEST(NullPredicates, ScalarsAndErrors) {
  auto s = IsNull(Scalar::MakeDouble(NAN), true);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->scalar().bool_value());
  EXPECT_FALSE(IsNull(Scalar::MakeInt64(1))->scalar().bool_value());
  EXPECT_TRUE(IsNull(Scalar())->scalar().bool_value());
  EXPECT_FALSE(IsValid(Scalar::MakeNull(int8()))->scalar().bool_value());
  EXPECT_FALSE(IsNan(Scalar::MakeNull(float64()))->scalar().is_valid());
  EXPECT_TRUE(IsNan(Scalar::MakeDouble(NAN))->scalar().bool_value());
  auto bad = IsNan(testutil::StringArrayFromVector({"a"}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "Function 'is_nan' has no kernel matching input types (string)");
  EXPECT_EQ(IsNan(testutil::BooleanArrayFromVector({true})).status().code(),
            StatusCode::kNotImplemented);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
