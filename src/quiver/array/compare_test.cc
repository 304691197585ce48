#include "quiver/array/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/compare_internal.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/array/validate.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using testutil::BinaryViewArrayFromVector;
using testutil::BitmapFromBools;
using testutil::BooleanArrayFromVector;
using testutil::BufferFromValues;
using testutil::DictionaryArrayFromIndices;
using testutil::FixedSizeBinaryArrayFromVector;
using testutil::FixedSizeListArrayFromChild;
using testutil::ListArrayFromOffsets;
using testutil::MakeBuffer;
using testutil::NullArrayOfLength;
using testutil::StringArrayFromVector;
using testutil::StructArrayFromChildren;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const EqualOptions kNansEqual{.nans_equal = true};

// Checks validity first (the comparison's precondition), then equality
// both ways.
bool Equal(const ArrayDataPtr& a, const ArrayDataPtr& b, const EqualOptions& options = {}) {
  EXPECT_TRUE(ValidateArrayFull(*a).ok()) << ValidateArrayFull(*a).ToString();
  EXPECT_TRUE(ValidateArrayFull(*b).ok()) << ValidateArrayFull(*b).ToString();
  const bool ab = ArrayEquals(*a, *b, options);
  EXPECT_EQ(ab, ArrayEquals(*b, *a, options)) << "not symmetric";
  EXPECT_EQ(ab, MakeArray(a)->Equals(MakeArray(b), options));
  return ab;
}

TEST(CompareTest, Primitives) {
  auto a = ArrayFromVector<int32_t>(int32(), {1, 2, 3});
  EXPECT_TRUE(Equal(a, ArrayFromVector<int32_t>(int32(), {1, 2, 3})));
  EXPECT_FALSE(Equal(a, ArrayFromVector<int32_t>(int32(), {1, 2, 4})));
  EXPECT_FALSE(Equal(a, ArrayFromVector<int32_t>(int32(), {1, 2})));
  EXPECT_FALSE(Equal(a, ArrayFromVector<uint32_t>(uint32(), {1, 2, 3})));
  EXPECT_FALSE(Equal(a, ArrayFromVector<int32_t>(int32(), {1, 2, 3}, {true, false, true})));
  // Null slots compare equal whatever their bytes.
  EXPECT_TRUE(Equal(ArrayFromVector<int32_t>(int32(), {1, 99, 3}, {true, false, true}),
                    ArrayFromVector<int32_t>(int32(), {1, -5, 3}, {true, false, true})));
  // An all-ones bitmap equals no bitmap.
  EXPECT_TRUE(Equal(a, ArrayFromVector<int32_t>(int32(), {1, 2, 3}, {true, true, true})));
  // Temporal types compare their parameters and values.
  EXPECT_FALSE(Equal(ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli), {1}),
                     ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli, "UTC"), {1})));
  EXPECT_TRUE(Equal(ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli, "UTC"), {1, 2}),
                    ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli, "UTC"), {1, 2})));
  EXPECT_TRUE(Equal(NullArrayOfLength(3), NullArrayOfLength(3)));
  EXPECT_FALSE(Equal(NullArrayOfLength(3), NullArrayOfLength(2)));
  EXPECT_FALSE(MakeArray(a)->Equals(ArrayPtr()));
}

TEST(CompareTest, SlicesAndBitOffsets) {
  std::vector<int16_t> values;
  std::vector<bool> validity;
  for (int i = 0; i < 100; ++i) {
    values.push_back(static_cast<int16_t>(i * 7));
    validity.push_back(i % 3 != 0);
  }
  auto whole = ArrayFromVector<int16_t>(int16(), values, validity);
  for (int64_t start : {0, 1, 5, 8, 13, 64, 71}) {
    const int64_t length = 100 - start - 3;
    std::vector<int16_t> sub_values(values.begin() + start, values.begin() + start + length);
    std::vector<bool> sub_validity(validity.begin() + start, validity.begin() + start + length);
    auto expected = ArrayFromVector<int16_t>(int16(), sub_values, sub_validity);
    EXPECT_TRUE(Equal(whole->Slice(start, length), expected)) << start;
    // Misaligned against each other: slices of different arrays.
    auto shifted = ArrayFromVector<int16_t>(int16(), values, validity);
    EXPECT_TRUE(Equal(whole->Slice(start, length), shifted->Slice(start, length)));
    if (start > 0) {
      EXPECT_FALSE(Equal(whole->Slice(start, length), whole->Slice(start - 1, length)));
    }
  }
}

TEST(CompareTest, RangeEquals) {
  auto a = MakeArray(ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4, 5}));
  auto b = MakeArray(ArrayFromVector<int32_t>(int32(), {9, 2, 3, 4, 9}));
  EXPECT_TRUE(a->RangeEquals(*b, 1, 4, 1));
  EXPECT_FALSE(a->RangeEquals(*b, 0, 4, 0));
  EXPECT_TRUE(a->RangeEquals(*b, 2, 2, 0));  // empty
  auto c = MakeArray(ArrayFromVector<int32_t>(int32(), {3, 4}));
  EXPECT_TRUE(a->RangeEquals(*c, 2, 4, 0));
  EXPECT_FALSE(a->RangeEquals(*c, 2, 4, 1));   // c too short
  EXPECT_FALSE(a->RangeEquals(*c, 2, 6, 0));   // a too short
  EXPECT_FALSE(a->RangeEquals(*c, -1, 1, 0));  // negative
  EXPECT_FALSE(a->RangeEquals(*c, 3, 2, 0));   // reversed
  EXPECT_FALSE(a->RangeEquals(*c, 2, 4, -1));
  auto strings = MakeArray(StringArrayFromVector({"3", "4"}));
  EXPECT_FALSE(a->RangeEquals(*strings, 0, 0, 0));  // types differ
}

TEST(CompareTest, Floats) {
  EXPECT_TRUE(Equal(ArrayFromVector<double>(float64(), {1.5, -0.0}),
                    ArrayFromVector<double>(float64(), {1.5, 0.0})));
  EXPECT_FALSE(Equal(ArrayFromVector<double>(float64(), {kNaN}),
                     ArrayFromVector<double>(float64(), {kNaN})));
  EXPECT_TRUE(Equal(ArrayFromVector<double>(float64(), {kNaN}),
                    ArrayFromVector<double>(float64(), {-kNaN}), kNansEqual));
  EXPECT_FALSE(Equal(ArrayFromVector<double>(float64(), {kNaN}),
                     ArrayFromVector<double>(float64(), {1.0}), kNansEqual));
  EXPECT_TRUE(Equal(ArrayFromVector<float>(float32(), {std::nanf(""), 2.f}),
                    ArrayFromVector<float>(float32(), {std::nanf("1"), 2.f}), kNansEqual));
  EXPECT_FALSE(Equal(ArrayFromVector<float>(float32(), {1.f, 2.f}),
                     ArrayFromVector<float>(float32(), {1.f, 2.5f})));
  // NaN in a null slot does not matter.
  EXPECT_TRUE(Equal(ArrayFromVector<double>(float64(), {kNaN, 1}, {false, true}),
                    ArrayFromVector<double>(float64(), {0, 1}, {false, true})));
  // An array holding NaN is not equal to itself unless nans_equal.
  auto nan = MakeArray(ArrayFromVector<double>(float64(), {1, kNaN}));
  EXPECT_FALSE(nan->Equals(*nan));
  EXPECT_TRUE(nan->Equals(*nan, kNansEqual));
  auto ints = MakeArray(ArrayFromVector<int32_t>(int32(), {1}));
  EXPECT_TRUE(ints->Equals(*ints));
}

TEST(CompareTest, HalfFloats) {
  auto half = [](std::vector<uint16_t> bits) { return ArrayFromVector<uint16_t>(float16(), bits); };
  EXPECT_TRUE(Equal(half({0x3C00, 0x7C00}), half({0x3C00, 0x7C00})));  // 1, inf
  EXPECT_FALSE(Equal(half({0x3C00}), half({0x3C01})));
  EXPECT_TRUE(Equal(half({0x8000}), half({0x0000})));  // -0 == +0
  EXPECT_FALSE(Equal(half({0x7E00}), half({0x7E00})));
  EXPECT_TRUE(Equal(half({0x7E00}), half({0xFE01}), kNansEqual));
  EXPECT_FALSE(Equal(half({0x7E00}), half({0x7C00}), kNansEqual));  // NaN vs inf
}

TEST(CompareTest, Booleans) {
  const std::vector<bool> bits = {true, false, true, true, false, false, true, false, true, true};
  std::vector<bool> shifted_bits = {false, true};  // `bits` two positions later
  shifted_bits.insert(shifted_bits.end(), bits.begin(), bits.end());
  auto a = BooleanArrayFromVector(bits);
  auto b = BooleanArrayFromVector(shifted_bits);
  EXPECT_TRUE(Equal(a->Slice(3, 4), b->Slice(5, 4)));
  EXPECT_TRUE(Equal(a->Slice(2, 7), b->Slice(4, 7)));
  EXPECT_TRUE(Equal(a, b->Slice(2, 10)));
  EXPECT_FALSE(Equal(a->Slice(2, 4), b->Slice(2, 4)));
  EXPECT_FALSE(Equal(a, b->Slice(1, 10)));
  EXPECT_TRUE(Equal(BooleanArrayFromVector({true, true}, {true, false}),
                    BooleanArrayFromVector({true, false}, {true, false})));
}

TEST(CompareTest, Strings) {
  auto a = StringArrayFromVector({"a", "", "bcd", "x"}, {true, true, true, false});
  EXPECT_TRUE(Equal(a, StringArrayFromVector({"a", "", "bcd", "different"},
                                             {true, true, true, false})));
  EXPECT_FALSE(Equal(a, StringArrayFromVector({"a", "", "bce", "x"}, {true, true, true, false})));
  EXPECT_FALSE(Equal(a, StringArrayFromVector({"a", "b", "cd", "x"}, {true, true, true, false})));
  // Different offset bases and data layouts: offsets starting at 5 into a
  // data buffer with unrelated leading bytes.
  auto rebased = ArrayData::Make(
      utf8(), 4,
      {BitmapFromBools({true, true, true, false}),
       BufferFromValues(std::vector<int32_t>{5, 6, 6, 9, 9}), MakeBuffer(std::string("?????abcd"))},
      1);
  EXPECT_TRUE(Equal(a, rebased));
  // Slices of both.
  EXPECT_TRUE(Equal(a->Slice(1, 2), rebased->Slice(1, 2)));
  EXPECT_TRUE(Equal(a->Slice(2, 1), StringArrayFromVector({"bcd"})));
  // Large strings and binaries.
  EXPECT_TRUE(Equal(StringArrayFromVector({"x", "yz"}, {}, large_utf8()),
                    StringArrayFromVector({"x", "yz"}, {}, large_utf8())->Slice(0, 2)));
  EXPECT_FALSE(Equal(StringArrayFromVector({"x"}, {}, binary()), StringArrayFromVector({"x"})));
  // All-empty values (compared at the data buffer's start).
  EXPECT_TRUE(Equal(StringArrayFromVector({"", "", ""}), StringArrayFromVector({"", "", ""})));
  EXPECT_TRUE(Equal(StringArrayFromVector({"abc", ""})->Slice(1, 1),
                    StringArrayFromVector({""})));
}

TEST(CompareTest, BinaryViews) {
  const std::string long_value = "a value longer than twelve bytes";
  auto a = BinaryViewArrayFromVector({"short", long_value, "", "null"}, {true, true, true, false});
  EXPECT_TRUE(Equal(a, BinaryViewArrayFromVector({"short", long_value, "", "other"},
                                                 {true, true, true, false})));
  EXPECT_FALSE(Equal(a, BinaryViewArrayFromVector({"short", long_value + "!", "", "null"},
                                                  {true, true, true, false})));
  // Same prefix, different tail.
  EXPECT_FALSE(Equal(BinaryViewArrayFromVector({"a value longer than twelve bytez"}),
                     BinaryViewArrayFromVector({long_value})));
  // The long value stored in a second data buffer at another offset.
  std::vector<uint8_t> views;
  testutil::AppendView(&views, "short", 0, 0);
  testutil::AppendView(&views, long_value, 1, 3);
  testutil::AppendView(&views, "", 0, 0);
  testutil::AppendView(&views, "zzz", 0, 0);
  auto other_layout = ArrayData::Make(
      utf8_view(), 4,
      {BitmapFromBools({true, true, true, false}), BufferFromValues(views),
       MakeBuffer(std::string("unused")), MakeBuffer("xyz" + long_value)},
      1);
  EXPECT_TRUE(Equal(a, other_layout));
  EXPECT_TRUE(Equal(a->Slice(1, 2), other_layout->Slice(1, 2)));
  EXPECT_FALSE(Equal(a, BinaryViewArrayFromVector({"short", long_value, "", "null"},
                                                  {true, true, true, false}, binary_view())));
}

TEST(CompareTest, FixedSizeBinaryAndDecimals) {
  auto type = fixed_size_binary(3);
  EXPECT_TRUE(Equal(FixedSizeBinaryArrayFromVector(type, {"abc", "def", "ghi"})->Slice(1, 2),
                    FixedSizeBinaryArrayFromVector(type, {"def", "ghi"})));
  EXPECT_FALSE(Equal(FixedSizeBinaryArrayFromVector(type, {"abc"}),
                     FixedSizeBinaryArrayFromVector(type, {"abd"})));
  EXPECT_TRUE(Equal(FixedSizeBinaryArrayFromVector(fixed_size_binary(0), {"", ""}),
                    FixedSizeBinaryArrayFromVector(fixed_size_binary(0), {"", ""})));
  std::string one(16, '\0');
  one[0] = 1;
  EXPECT_TRUE(Equal(FixedSizeBinaryArrayFromVector(decimal128(10, 2), {one}),
                    FixedSizeBinaryArrayFromVector(decimal128(10, 2), {one})));
  EXPECT_FALSE(Equal(FixedSizeBinaryArrayFromVector(decimal128(10, 2), {one}),
                     FixedSizeBinaryArrayFromVector(decimal128(10, 3), {one})));
}

TEST(CompareTest, Lists) {
  auto values = ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4, 5, 6});
  // [[1, 2], null, [5]] twice: the null slot of `owning` owns child values
  // 3 and 4, that of `compact` owns nothing.
  auto owning = ListArrayFromOffsets(list(int32()), {0, 2, 4, 5}, values, {true, false, true});
  auto compact = ListArrayFromOffsets(list(int32()), {0, 2, 2, 3},
                                      ArrayFromVector<int32_t>(int32(), {1, 2, 5}),
                                      {true, false, true});
  EXPECT_TRUE(Equal(owning, compact));
  EXPECT_TRUE(Equal(owning->Slice(1, 2), compact->Slice(1, 2)));
  auto compact_other = ListArrayFromOffsets(list(int32()), {0, 2, 2, 3},
                                            ArrayFromVector<int32_t>(int32(), {1, 2, 6}),
                                            {true, false, true});
  EXPECT_FALSE(Equal(owning, compact_other));  // [5] vs [6]
  EXPECT_TRUE(Equal(owning->Slice(0, 2), compact_other->Slice(0, 2)));
  // Same lengths, different split: [[1], [2, 3]] vs [[1, 2], [3]].
  EXPECT_FALSE(Equal(ListArrayFromOffsets(list(int32()), {0, 1, 3}, values),
                     ListArrayFromOffsets(list(int32()), {0, 2, 3}, values)));
  // Offsets into a sliced child.
  EXPECT_TRUE(Equal(ListArrayFromOffsets(list(int32()), {0, 2}, values->Slice(2, 2)),
                    ListArrayFromOffsets(list(int32()), {2, 4}, values)));
  // Slices of the list.
  auto lists = ListArrayFromOffsets(list(int32()), {0, 1, 3, 6}, values);
  EXPECT_TRUE(Equal(lists->Slice(1, 2),
                    ListArrayFromOffsets(list(int32()), {0, 2, 5},
                                         ArrayFromVector<int32_t>(int32(), {2, 3, 4, 5, 6}))));
  // Null elements inside the lists.
  auto with_null_7 = ArrayFromVector<int32_t>(int32(), {1, 7}, {true, false});
  auto with_null_0 = ArrayFromVector<int32_t>(int32(), {1, 0}, {true, false});
  EXPECT_TRUE(Equal(ListArrayFromOffsets(large_list(int32()), {0, 2}, with_null_7),
                    ListArrayFromOffsets(large_list(int32()), {0, 2}, with_null_0)));
  // Empty lists vs nulls.
  EXPECT_FALSE(Equal(ListArrayFromOffsets(list(int32()), {0, 0}, values),
                     ListArrayFromOffsets(list(int32()), {0, 0}, values, {false})));
}

TEST(CompareTest, NestedListsAndFieldMetadata) {
  auto inner_values = StringArrayFromVector({"a", "b", "c", "d"});
  auto inner = ListArrayFromOffsets(list(utf8()), {0, 2, 2, 4}, inner_values, {true, false, true});
  auto outer = ListArrayFromOffsets(list(list(utf8())), {0, 2, 3}, inner);
  auto inner2 = ListArrayFromOffsets(list(utf8()), {0, 2, 3, 5},
                                     StringArrayFromVector({"a", "b", "junk", "c", "d"}),
                                     {true, false, true});
  auto outer2 = ListArrayFromOffsets(list(list(utf8())), {0, 2, 3}, inner2);
  EXPECT_TRUE(Equal(outer, outer2));
  EXPECT_TRUE(Equal(outer->Slice(1, 1), outer2->Slice(1, 1)));

  auto with_md = list(field("item", int32(), true, key_value_metadata({{"k", "v"}})));
  auto values = ArrayFromVector<int32_t>(int32(), {1});
  auto a = ListArrayFromOffsets(with_md, {0, 1}, values);
  auto b = ListArrayFromOffsets(list(int32()), {0, 1}, values);
  EXPECT_TRUE(Equal(a, b));
  EXPECT_FALSE(Equal(a, b, EqualOptions{.check_metadata = true}));
}

TEST(CompareTest, FixedSizeLists) {
  auto type = fixed_size_list(int32(), 2);
  auto a = FixedSizeListArrayFromChild(
      type, 3, ArrayFromVector<int32_t>(int32(), {1, 2, 99, 98, 5, 6}), {true, false, true});
  auto b = FixedSizeListArrayFromChild(
      type, 3, ArrayFromVector<int32_t>(int32(), {1, 2, 0, 0, 5, 6}), {true, false, true});
  EXPECT_TRUE(Equal(a, b));
  auto five_six = ArrayFromVector<int32_t>(int32(), {5, 6});
  EXPECT_TRUE(Equal(a->Slice(2, 1), FixedSizeListArrayFromChild(type, 1, five_six)));
  EXPECT_FALSE(Equal(a->Slice(0, 1), a->Slice(2, 1)));
}

TEST(CompareTest, Structs) {
  auto type = struct_({field("a", int32()), field("b", utf8())});
  auto s1 = StructArrayFromChildren(type, 3,
                                    {ArrayFromVector<int32_t>(int32(), {1, 2, 3}),
                                     StringArrayFromVector({"x", "y", "z"})},
                                    {true, false, true});
  auto s2 = StructArrayFromChildren(type, 3,
                                    {ArrayFromVector<int32_t>(int32(), {1, 7, 3}),
                                     StringArrayFromVector({"x", "other", "z"})},
                                    {true, false, true});
  EXPECT_TRUE(Equal(s1, s2));
  auto s3 = StructArrayFromChildren(type, 3,
                                    {ArrayFromVector<int32_t>(int32(), {1, 2, 4}),
                                     StringArrayFromVector({"x", "y", "z"})},
                                    {true, false, true});
  EXPECT_FALSE(Equal(s1, s3));
  // Sliced struct vs children that start where the slice does.
  auto s4 = StructArrayFromChildren(type, 1,
                                    {ArrayFromVector<int32_t>(int32(), {3}),
                                     StringArrayFromVector({"z"})});
  EXPECT_TRUE(Equal(s1->Slice(2, 1), s4));
  // Field names matter.
  auto renamed = StructArrayFromChildren(struct_({field("a", int32()), field("c", utf8())}), 3,
                                         s1->children, {true, false, true});
  EXPECT_FALSE(Equal(s1, renamed));
}

TEST(CompareTest, Maps) {
  auto type = map(utf8(), int32());
  const TypePtr& entries_type = type->field(0)->type();
  auto entries = StructArrayFromChildren(entries_type, 3,
                                         {StringArrayFromVector({"a", "b", "c"}),
                                          ArrayFromVector<int32_t>(int32(), {1, 2, 3})});
  auto m1 = ListArrayFromOffsets(type, {0, 2, 3}, entries);
  auto entries2 = StructArrayFromChildren(entries_type, 4,
                                          {StringArrayFromVector({"q", "a", "b", "c"}),
                                           ArrayFromVector<int32_t>(int32(), {0, 1, 2, 3})});
  EXPECT_TRUE(Equal(m1, ListArrayFromOffsets(type, {1, 3, 4}, entries2)));
  EXPECT_FALSE(Equal(m1, ListArrayFromOffsets(type, {0, 2, 4}, entries2)));
}

TEST(CompareTest, Dictionaries) {
  auto type = dictionary(int8(), utf8());
  auto dict = StringArrayFromVector({"x", "y", "z"});
  // Same dictionary, same indices.
  auto a = DictionaryArrayFromIndices(type, {0, 1, 2, 1}, dict, {true, true, false, true});
  EXPECT_TRUE(Equal(a, DictionaryArrayFromIndices(type, {0, 1, 0, 1}, dict,
                                                  {true, true, false, true})));
  EXPECT_FALSE(Equal(a, DictionaryArrayFromIndices(type, {0, 2, 2, 1}, dict,
                                                   {true, true, false, true})));
  // A different dictionary with the same decoded values.
  auto reordered = StringArrayFromVector({"z", "y", "x", "unused"});
  EXPECT_TRUE(Equal(a, DictionaryArrayFromIndices(type, {2, 1, 3, 1}, reordered,
                                                  {true, true, false, true})));
  EXPECT_FALSE(Equal(a, DictionaryArrayFromIndices(type, {2, 0, 3, 1}, reordered,
                                                   {true, true, false, true})));
  // Duplicates in one dictionary: different indices, equal values.
  auto dup = StringArrayFromVector({"x", "x", "y"});
  EXPECT_TRUE(Equal(DictionaryArrayFromIndices(type, {0, 2}, dup),
                    DictionaryArrayFromIndices(type, {1, 2}, dup)));
  // Equal (not the same) dictionaries.
  EXPECT_TRUE(Equal(DictionaryArrayFromIndices(type, {0, 1, 1}, StringArrayFromVector({"x", "y"})),
                    DictionaryArrayFromIndices(type, {0, 1, 1},
                                               StringArrayFromVector({"x", "y"}))));
  // Slices.
  EXPECT_TRUE(Equal(a->Slice(1, 1), DictionaryArrayFromIndices(type, {0}, reordered->Slice(1, 1))));
  // A valid index to a null value equals another one, not a null index.
  auto with_null = StringArrayFromVector({"x", ""}, {true, false});
  auto other_null = StringArrayFromVector({"", "x", "q"}, {false, true, true});
  EXPECT_TRUE(Equal(DictionaryArrayFromIndices(type, {1, 0}, with_null),
                    DictionaryArrayFromIndices(type, {0, 1}, other_null)));
  EXPECT_FALSE(Equal(DictionaryArrayFromIndices(type, {1, 0}, with_null),
                     DictionaryArrayFromIndices(type, {0, 0}, with_null, {false, true})));
  // Index types must match.
  EXPECT_FALSE(Equal(DictionaryArrayFromIndices(dictionary(int16(), utf8()), {0}, dict),
                     DictionaryArrayFromIndices(type, {0}, dict)));
  // Unsigned and wide indices.
  auto u64 = dictionary(uint64(), utf8());
  EXPECT_TRUE(Equal(DictionaryArrayFromIndices(u64, {2, 0}, dict),
                    DictionaryArrayFromIndices(u64, {0, 2}, reordered)));
}

TEST(CompareTest, DictionaryOfFloats) {
  auto type = dictionary(int32(), float64());
  auto dict = ArrayFromVector<double>(float64(), {1.5, kNaN});
  auto a = DictionaryArrayFromIndices(type, {0, 1}, dict);
  auto b = DictionaryArrayFromIndices(type, {0, 1}, dict);
  // The shared dictionary holds a NaN: equal indices are not enough.
  EXPECT_FALSE(Equal(a, b));
  EXPECT_TRUE(Equal(a, b, kNansEqual));
  EXPECT_TRUE(Equal(a->Slice(0, 1), b->Slice(0, 1)));
  auto other = ArrayFromVector<double>(float64(), {kNaN, -0.0, 1.5});
  EXPECT_TRUE(Equal(a, DictionaryArrayFromIndices(type, {2, 0}, other), kNansEqual));
  EXPECT_FALSE(Equal(a, DictionaryArrayFromIndices(type, {1, 0}, other), kNansEqual));
}

// Random arrays against copies with another physical layout (a slice of a
// larger array, another bitmap offset); one changed valid value must be seen,
// a changed null slot must not.
TEST(CompareTest, RandomizedAgainstShiftedCopies) {
  std::mt19937 rng(20240601);
  for (int round = 0; round < 200; ++round) {
    const int n = 1 + static_cast<int>(rng() % 300);
    const int shift = static_cast<int>(rng() % 70);
    const int null_mod = 2 + static_cast<int>(rng() % 5);
    std::vector<int64_t> values(static_cast<size_t>(n));
    std::vector<bool> validity(static_cast<size_t>(n));
    std::vector<std::string> strings(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      values[i] = static_cast<int64_t>(rng() % 1000);
      validity[i] = rng() % null_mod != 0;
      strings[i] = std::string(rng() % 20, static_cast<char>('a' + rng() % 26));
    }
    std::vector<int64_t> big_values(static_cast<size_t>(shift), 7);
    big_values.insert(big_values.end(), values.begin(), values.end());
    std::vector<bool> big_validity(static_cast<size_t>(shift), false);
    big_validity.insert(big_validity.end(), validity.begin(), validity.end());
    std::vector<std::string> big_strings(static_cast<size_t>(shift), "pad");
    big_strings.insert(big_strings.end(), strings.begin(), strings.end());

    auto ints = ArrayFromVector<int64_t>(int64(), values, validity);
    auto big_ints = ArrayFromVector<int64_t>(int64(), big_values, big_validity)->Slice(shift, n);
    ASSERT_TRUE(ArrayEquals(*ints, *big_ints)) << "round " << round;
    auto strs = StringArrayFromVector(strings, validity);
    auto big_strs = StringArrayFromVector(big_strings, big_validity)->Slice(shift, n);
    ASSERT_TRUE(ArrayEquals(*strs, *big_strs)) << "round " << round;
    auto views = BinaryViewArrayFromVector(strings, validity);
    ASSERT_TRUE(ArrayEquals(*views, *BinaryViewArrayFromVector(big_strings, big_validity)
                                         ->Slice(shift, n)));

    const auto k = static_cast<size_t>(rng() % n);
    values[k] += 1;
    strings[k] += "!";
    auto ints2 = ArrayFromVector<int64_t>(int64(), values, validity);
    auto strs2 = StringArrayFromVector(strings, validity);
    EXPECT_EQ(ArrayEquals(*ints2, *big_ints), !validity[k]) << "round " << round;
    EXPECT_EQ(ArrayEquals(*strs2, *big_strs), !validity[k]) << "round " << round;
    EXPECT_EQ(ArrayRangeEquals(*ints2, *big_ints, 0, static_cast<int64_t>(k), 0), true);
  }
}

// Fixed-width values with nulls are compared 64 slots at a time (a block
// is inspected slot by slot only when some pair differs); this checks
// that path against a slot-by-slot reference: lengths around the block
// size, slices at odd offsets, 0/10/50/100% nulls, different values
// under nulls, one changed slot, NaN, -0, infinities, type limits.
template <typename T>
void CheckMaskedAgainstSlotwise(const TypePtr& type, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> specials = {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(),
                             T(0), T(1)};
  if constexpr (std::is_floating_point_v<T>) {
    specials.push_back(std::numeric_limits<T>::quiet_NaN());
    specials.push_back(-std::numeric_limits<T>::quiet_NaN());
    specials.push_back(T(-0.0));
    specials.push_back(std::numeric_limits<T>::infinity());
    specials.push_back(-std::numeric_limits<T>::infinity());
  }
  auto value = [&]() -> T {
    if (rng() % 8 == 0) return specials[rng() % specials.size()];
    return static_cast<T>(rng() % 100);
  };
  auto same = [](T a, T b, bool nans_equal) {
    if constexpr (std::is_floating_point_v<T>) {
      return a == b || (nans_equal && std::isnan(a) && std::isnan(b));
    } else {
      return a == b;
    }
  };
  for (int64_t n : {0, 1, 63, 64, 65, 127, 128, 129, 1000, 4097}) {
    for (int null_percent : {0, 10, 50, 100}) {
      for (int round = 0; round < 4; ++round) {
        const int shift = static_cast<int>(rng() % 70);
        const auto total = static_cast<size_t>(n + shift);
        std::vector<T> a(total), b(total);
        std::vector<bool> valid(total);
        for (size_t i = 0; i < total; ++i) {
          valid[i] = static_cast<int>(rng() % 100) >= null_percent;
          a[i] = value();
          b[i] = valid[i] || rng() % 2 == 0 ? a[i] : value();  // garbage under nulls
        }
        if (n > 0 && round % 2 == 1) {
          const size_t k = static_cast<size_t>(shift) + rng() % static_cast<size_t>(n);
          b[k] = value();
        }
        auto left = ArrayFromVector<T>(type, a, valid)->Slice(shift, n);
        auto right = ArrayFromVector<T>(type, b, valid)->Slice(shift, n);
        for (bool nans_equal : {false, true}) {
          bool expected = true;
          for (size_t i = static_cast<size_t>(shift); i < total; ++i) {
            if (valid[i] && !same(a[i], b[i], nans_equal)) expected = false;
          }
          const EqualOptions options{.nans_equal = nans_equal};
          ASSERT_EQ(Equal(left, right, options), expected)
              << type->ToString() << " n=" << n << " nulls=" << null_percent
              << "% shift=" << shift << " nans_equal=" << nans_equal;
        }
      }
    }
  }
}

TEST(CompareTest, FixedWidthWithNullsAgainstSlotwise) {
  CheckMaskedAgainstSlotwise<float>(float32(), 1);
  CheckMaskedAgainstSlotwise<double>(float64(), 2);
  CheckMaskedAgainstSlotwise<int8_t>(int8(), 3);
  CheckMaskedAgainstSlotwise<uint8_t>(uint8(), 4);
  CheckMaskedAgainstSlotwise<int16_t>(int16(), 5);
  CheckMaskedAgainstSlotwise<uint16_t>(uint16(), 6);
  CheckMaskedAgainstSlotwise<int32_t>(int32(), 7);
  CheckMaskedAgainstSlotwise<uint32_t>(uint32(), 8);
  CheckMaskedAgainstSlotwise<int64_t>(int64(), 9);
  CheckMaskedAgainstSlotwise<uint64_t>(uint64(), 10);
  CheckMaskedAgainstSlotwise<int32_t>(date32(), 11);
  CheckMaskedAgainstSlotwise<int64_t>(timestamp(TimeUnit::kMicro), 12);
}

// The same checks with the value loops forced to each vector width the
// CPU has (16-byte SSE2, 32-byte AVX2, 64-byte AVX-512).
TEST(CompareTest, FixedWidthAtEveryVectorWidth) {
  for (int bytes : {16, 32, 64}) {
    if (!internal::SetCompareVectorBytesForTesting(bytes)) continue;  // the CPU lacks it
    EXPECT_EQ(internal::CompareVectorBytes(), bytes);
    CheckMaskedAgainstSlotwise<float>(float32(), 21);
    CheckMaskedAgainstSlotwise<double>(float64(), 22);
    CheckMaskedAgainstSlotwise<int8_t>(int8(), 23);
    CheckMaskedAgainstSlotwise<uint16_t>(uint16(), 24);
    CheckMaskedAgainstSlotwise<int32_t>(int32(), 25);
    CheckMaskedAgainstSlotwise<int64_t>(int64(), 26);
    // A NaN or a -0 in the last slot of a long block run, no nulls.
    std::vector<float> a(4096, 1.5f);
    std::vector<float> b = a;
    b.back() = -0.0f;
    a.back() = 0.0f;
    EXPECT_TRUE(Equal(ArrayFromVector<float>(float32(), a), ArrayFromVector<float>(float32(), b)));
    a.back() = std::numeric_limits<float>::quiet_NaN();
    b.back() = a.back();
    EXPECT_FALSE(Equal(ArrayFromVector<float>(float32(), a), ArrayFromVector<float>(float32(), b)));
    EXPECT_TRUE(Equal(ArrayFromVector<float>(float32(), a), ArrayFromVector<float>(float32(), b),
                      kNansEqual));
    b[64 * 40 + 3] = 2.5f;
    EXPECT_FALSE(Equal(ArrayFromVector<float>(float32(), a), ArrayFromVector<float>(float32(), b),
                       kNansEqual));
  }
  EXPECT_TRUE(internal::SetCompareVectorBytesForTesting(0));
  EXPECT_FALSE(internal::SetCompareVectorBytesForTesting(24));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
