#include "quiver/compute/set_lookup.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/array/validate.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using testutil::BinaryViewArrayFromVector;
using testutil::StringArrayFromVector;

std::vector<bool> Bits(const Result<Datum>& got) {
  EXPECT_TRUE(got.ok()) << got.status();
  if (!got.ok()) return {};
  const ArrayData& a = *got->array();
  EXPECT_TRUE(ValidateArrayFull(a).ok());
  EXPECT_EQ(a.type->id(), Type::kBool);
  EXPECT_EQ(a.buffers[0], nullptr);  // is_in gives no nulls
  std::vector<bool> out;
  for (int64_t i = 0; i < a.length; ++i) out.push_back(bit_util::GetBit(a.buffers[1]->data(), a.offset + i));
  return out;
}

Result<Datum> In(const ArrayDataPtr& values, const ArrayDataPtr& set, bool skip_nulls = false) {
  return IsIn(values, SetLookupOptions{set, skip_nulls});
}

// Random integers of T against sets of 0..40 values (direct compares up
// to 8, a hash table beyond), with nulls on both sides, at offsets.
template <typename T>
void RandomIntegers(TypePtr type, uint32_t seed) {
  std::mt19937_64 rng(seed);
  const int64_t n = 300;
  std::vector<T> values;
  std::vector<bool> validity;
  for (int64_t i = 0; i < n; ++i) {
    values.push_back(static_cast<T>(rng() % 50));
    validity.push_back(rng() % 7 != 0);
  }
  if constexpr (sizeof(T) > 1) values[0] = std::numeric_limits<T>::max();
  values[1] = std::numeric_limits<T>::min();
  values[2] = 0;
  const auto full = ArrayFromVector<T>(type, values, validity);
  for (int set_size : {0, 1, 3, 8, 9, 40}) {
    std::vector<T> keys;
    std::vector<bool> key_valid;
    for (int k = 0; k < set_size; ++k) {
      keys.push_back(static_cast<T>(rng() % 60));
      key_valid.push_back(rng() % 5 != 0);
    }
    if (set_size > 2) keys[1] = std::numeric_limits<T>::min();
    if (set_size > 3) keys[2] = 0;
    const auto set = ArrayFromVector<T>(type, keys, key_valid);
    std::set<T> members;
    bool set_null = false;
    for (int k = 0; k < set_size; ++k) {
      if (key_valid[static_cast<size_t>(k)]) {
        members.insert(keys[static_cast<size_t>(k)]);
      } else {
        set_null = true;
      }
    }
    for (bool skip : {false, true}) {
      for (int64_t offset : {0, 1, 63, 64, 65}) {
        const auto a = full->Slice(offset, n - offset);
        std::vector<bool> want;
        for (int64_t i = offset; i < n; ++i) {
          const auto k = static_cast<size_t>(i);
          want.push_back(validity[k] ? members.count(values[k]) > 0 : set_null && !skip);
        }
        ASSERT_EQ(Bits(In(a, set, skip)), want)
            << type->ToString() << " set " << set_size << " offset " << offset << " skip " << skip;
      }
    }
  }
}

TEST(IsIn, IntegersOfEveryWidth) {
  RandomIntegers<int8_t>(int8(), 1);
  RandomIntegers<uint8_t>(uint8(), 2);
  RandomIntegers<int16_t>(int16(), 3);
  RandomIntegers<uint16_t>(uint16(), 4);
  RandomIntegers<int32_t>(int32(), 5);
  RandomIntegers<uint32_t>(uint32(), 6);
  RandomIntegers<int64_t>(int64(), 7);
  RandomIntegers<uint64_t>(uint64(), 8);
  RandomIntegers<int32_t>(date32(), 9);
  RandomIntegers<int64_t>(timestamp(TimeUnit::kMilli), 10);
}

TEST(IsIn, LargeSetsUseTheHashTable) {
  std::vector<int64_t> keys;
  for (int64_t k = 0; k < 5000; ++k) keys.push_back(k * 7919);
  std::vector<int64_t> values;
  for (int64_t v = 0; v < 20000; ++v) values.push_back(v * 13);
  const auto got = Bits(In(ArrayFromVector<int64_t>(int64(), values), ArrayFromVector<int64_t>(int64(), keys)));
  for (size_t i = 0; i < values.size(); ++i) {
    ASSERT_EQ(got[i], values[i] % 7919 == 0 && values[i] / 7919 < 5000) << values[i];
  }
}

TEST(IsIn, FloatsCompareTheirBits) {
  const auto v = ArrayFromVector<double>(float64(), {0.0, -0.0, NAN, 1.5, INFINITY});
  EXPECT_EQ(Bits(In(v, ArrayFromVector<double>(float64(), {0.0}))),
            (std::vector<bool>{true, false, false, false, false}));
  EXPECT_EQ(Bits(In(v, ArrayFromVector<double>(float64(), {NAN, INFINITY}))),
            (std::vector<bool>{false, false, true, false, true}));
  const auto f = ArrayFromVector<float>(float32(), {1.0f, 0.1f});
  // A float64 value set is cast to float32 (unchecked, as pyarrow).
  EXPECT_EQ(Bits(In(f, ArrayFromVector<double>(float64(), {0.1, 1e300}))), (std::vector<bool>{false, true}));
}

TEST(IsIn, StringsInEveryLayout) {
  const std::vector<std::string> values = {"apple", "banana", "a much longer string", "", "kiwi"};
  const std::vector<bool> validity = {true, true, true, true, false};
  for (const auto& a : {StringArrayFromVector(values, validity), StringArrayFromVector(values, validity, large_utf8()),
                        BinaryViewArrayFromVector(values, validity)}) {
    EXPECT_EQ(Bits(In(a, StringArrayFromVector({"a much longer string", "", "kiwi"}))),
              (std::vector<bool>{false, false, true, true, false}));
    EXPECT_EQ(Bits(In(a, StringArrayFromVector({"banana", "x"}, {true, false}, large_utf8()))),
              (std::vector<bool>{false, true, false, false, true}));
    // A large set: the memo table.
    std::vector<std::string> many;
    for (int i = 0; i < 100; ++i) many.push_back("k" + std::to_string(i));
    many.push_back("apple");
    EXPECT_EQ(Bits(In(a->Slice(0, 4), StringArrayFromVector(many))),
              (std::vector<bool>{true, false, false, false}));
  }
}

TEST(IsIn, DictionaryValues) {
  const auto dict = StringArrayFromVector({"a", "b", "c"}, {true, true, false});
  const auto a = testutil::DictionaryArrayFromIndices(dictionary(int32(), utf8()), {0, 1, 2, 0, 1},
                                                      dict, {true, true, true, false, true});
  EXPECT_EQ(Bits(In(a, StringArrayFromVector({"a", "x"}, {true, false}))),
            (std::vector<bool>{true, false, true, true, false}));
  EXPECT_EQ(Bits(In(a, StringArrayFromVector({"a", "x"}, {true, false}), true)),
            (std::vector<bool>{true, false, false, false, false}));
  EXPECT_EQ(Bits(In(a->Slice(1, 4), StringArrayFromVector({"b"}))), (std::vector<bool>{true, false, false, true}));
}

TEST(IsIn, NullsBooleansAndScalars) {
  const auto nulls = testutil::NullArrayOfLength(3);
  EXPECT_EQ(Bits(In(nulls, nulls)), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(Bits(In(nulls, nulls, true)), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(Bits(In(nulls, ArrayFromVector<int64_t>(int64(), {1}))), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(Bits(In(nulls, ArrayFromVector<int64_t>(int64(), {1, 2}, {true, false}))),
            (std::vector<bool>{true, true, true}));
  const auto b = testutil::BooleanArrayFromVector({true, false, true}, {true, true, false});
  EXPECT_EQ(Bits(In(b, testutil::BooleanArrayFromVector({true}))), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(Bits(In(b, testutil::BooleanArrayFromVector({false, true}, {true, false}))),
            (std::vector<bool>{false, true, true}));
  auto s = IsIn(Datum(Scalar::MakeInt64(1)), SetLookupOptions{ArrayFromVector<int64_t>(int64(), {1})});
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->scalar().bool_value());
  auto bad = IsIn(ArrayFromVector<int64_t>(int64(), {1}), SetLookupOptions{Datum(Scalar::MakeInt64(1))});
  EXPECT_EQ(bad.status().message(), "Set lookup value set must be Array or ChunkedArray");
}

TEST(IsIn, CastsAsPyarrow) {
  const auto i8 = ArrayFromVector<int8_t>(int8(), {1, 2, 3});
  // 300 does not fit int8: the values are cast to int64 instead.
  EXPECT_EQ(Bits(In(i8, ArrayFromVector<int64_t>(int64(), {1, 300}))), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(Bits(In(i8, ArrayFromVector<double>(float64(), {2.0, 2.5}))), (std::vector<bool>{false, true, false}));
  const auto f = ArrayFromVector<double>(float64(), {1.0, 2.5});
  auto err = In(f, ArrayFromVector<int64_t>(int64(), {1, int64_t{1} << 60}));
  EXPECT_EQ(err.status().code(), StatusCode::kInvalid);
  EXPECT_EQ(err.status().message(), "Float value 2.500000 was truncated converting to int64");
  auto type_error = In(StringArrayFromVector({"1"}), ArrayFromVector<int64_t>(int64(), {1}));
  EXPECT_EQ(type_error.status().code(), StatusCode::kTypeError);
  EXPECT_EQ(type_error.status().message(), "Array type doesn't match type of values set: string vs int64");
  auto tz = In(ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli), {1}),
               ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli, "UTC"), {1}));
  EXPECT_EQ(tz.status().code(), StatusCode::kTypeError);
  const auto ts = ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli), {1, 1500});
  EXPECT_EQ(Bits(In(ts, ArrayFromVector<int64_t>(timestamp(TimeUnit::kNano), {1500000000, 1500000001}))),
            (std::vector<bool>{false, true}));
  auto lossy = In(ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli), {1000, 1500, 1}),
                  ArrayFromVector<int64_t>(timestamp(TimeUnit::kSecond), {1, int64_t{1} << 62}));
  EXPECT_EQ(lossy.status().message(), "Casting from timestamp[ms] to timestamp[s] would lose data: 1500");
  // Strings parsed as integers; binary values against a string set.
  EXPECT_EQ(Bits(In(ArrayFromVector<int64_t>(int64(), {1, 2}), StringArrayFromVector({"1"}))),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(Bits(In(StringArrayFromVector({"a"}), StringArrayFromVector({"a", "\xff"}, {}, binary()))),
            (std::vector<bool>{true}));
  auto widths = In(testutil::FixedSizeBinaryArrayFromVector(fixed_size_binary(2), {"ab"}),
                   testutil::FixedSizeBinaryArrayFromVector(fixed_size_binary(3), {"abc"}));
  EXPECT_EQ(widths.status().message(),
            "Failed casting from fixed_size_binary[2] to fixed_size_binary[3]: widths must match");
  auto no_kernel = In(ArrayFromVector<uint16_t>(float16(), {1}), ArrayFromVector<uint16_t>(float16(), {1}));
  EXPECT_EQ(no_kernel.status().message(), "Function 'is_in' has no kernel matching input types (halffloat)");
}

TEST(IsIn, Decimals) {
  auto dec = [](TypePtr type, std::vector<int64_t> unscaled) {
    std::vector<std::string> bytes;
    const int64_t width = FixedWidthBytes(*type);
    for (int64_t v : unscaled) {
      std::string b(static_cast<size_t>(width), v < 0 ? '\xff' : '\0');
      std::memcpy(b.data(), &v, 8);
      bytes.push_back(b);
    }
    return testutil::FixedSizeBinaryArrayFromVector(type, bytes);
  };
  const auto v = dec(decimal128(2, 1), {15, 20, -15});
  EXPECT_EQ(Bits(In(v, dec(decimal128(3, 2), {150, -150}))), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(Bits(In(v, dec(decimal128(3, 2), {155}))), (std::vector<bool>{false, false, false}));
  auto loss = In(v, ArrayFromVector<int64_t>(int64(), {2}));
  EXPECT_EQ(loss.status().message(), "Rescaling Decimal value would cause data loss");
  EXPECT_EQ(Bits(In(dec(decimal256(40, 1), {15, 16}), dec(decimal128(5, 2), {150}))),
            (std::vector<bool>{true, false}));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
