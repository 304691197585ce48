#include "quiver/array/pretty_print.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/test_util_internal.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using ::testing::HasSubstr;
using testutil::ArrayFromVector;
using testutil::BinaryViewArrayFromVector;
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

std::string Print(const ArrayDataPtr& data, const PrettyPrintOptions& options = {}) {
  auto array = MakeArray(data);
  std::ostringstream sink;
  const Status status = PrettyPrint(*array, options, &sink);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(sink.str(), PrettyPrint(*array, options));
  return sink.str();
}

TEST(PrettyPrintTest, Integers) {
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(int32(), {1, 2, 3}, {true, false, true})),
            "[\n  1,\n  null,\n  3\n]");
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(int32(), {})), "[]");
  EXPECT_EQ(Print(ArrayFromVector<int8_t>(int8(), {-128, 127})), "[\n  -128,\n  127\n]");
  EXPECT_EQ(Print(ArrayFromVector<uint64_t>(uint64(), {18446744073709551615ull})),
            "[\n  18446744073709551615\n]");
  // Array::ToString uses the defaults.
  EXPECT_EQ(MakeArray(ArrayFromVector<int16_t>(int16(), {5}))->ToString(), "[\n  5\n]");
}

TEST(PrettyPrintTest, Window) {
  std::vector<int32_t> values;
  for (int i = 0; i < 25; ++i) values.push_back(i);
  PrettyPrintOptions options;
  options.window = 2;
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(int32(), values), options),
            "[\n  0,\n  1,\n  ...\n  23,\n  24\n]");
  // Exactly 2 * window values: everything.
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4}), options),
            "[\n  1,\n  2,\n  3,\n  4\n]");
  // 2 * window + 1 values: everything too, as Arrow C++ (no "..." for one value).
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4, 5}), options),
            "[\n  1,\n  2,\n  3,\n  4,\n  5\n]");
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4, 5, 6}), options),
            "[\n  1,\n  2,\n  ...\n  5,\n  6\n]");
  options.window = -1;
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(int32(), values), options).size(),
            std::string("[\n]").size() + 10 * 5 + 15 * 6 - 1);  // every value
  // The default window is 10 at each end.
  const std::string text = Print(ArrayFromVector<int32_t>(int32(), values));
  EXPECT_THAT(text, HasSubstr("  9,\n  ...\n  15,\n"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("  10,")));
}

TEST(PrettyPrintTest, IndentAndNullRep) {
  PrettyPrintOptions options;
  options.indent = 4;
  options.null_rep = "NA";
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(int32(), {1, 0}, {true, false}), options),
            "    [\n      1,\n      NA\n    ]");
  options = {};
  options.indent_size = 4;
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(int32(), {1}), options), "[\n    1\n]");
}

TEST(PrettyPrintTest, BooleansAndFloats) {
  EXPECT_EQ(Print(BooleanArrayFromVector({true, false, true}, {true, true, false})),
            "[\n  true,\n  false,\n  null\n]");
  EXPECT_EQ(Print(ArrayFromVector<double>(float64(),
                                          {1.5, 1.0, -0.0, 0.1, 1e20,
                                           std::numeric_limits<double>::quiet_NaN(),
                                           -std::numeric_limits<double>::infinity()})),
            "[\n  1.5,\n  1,\n  -0,\n  0.1,\n  1e+20,\n  nan,\n  -inf\n]");
  EXPECT_EQ(Print(ArrayFromVector<float>(float32(), {0.1f, 3.f})), "[\n  0.1,\n  3\n]");
  // Half floats: 1.0, -2.0, 65504 (max), smallest subnormal, inf, NaN.
  EXPECT_EQ(Print(ArrayFromVector<uint16_t>(float16(),
                                            {0x3C00, 0xC000, 0x7BFF, 0x0001, 0x7C00, 0x7E00})),
            "[\n  1,\n  -2,\n  65504,\n  5.9604645e-08,\n  inf,\n  nan\n]");
}

TEST(PrettyPrintTest, StringsAndBinary) {
  EXPECT_EQ(Print(StringArrayFromVector({"abc", "", "x"}, {true, true, false})),
            "[\n  \"abc\",\n  \"\",\n  null\n]");
  EXPECT_EQ(Print(StringArrayFromVector({"say \"hi\"\\\n\t\x01", "\xc3\xa9"})),
            "[\n  \"say \\\"hi\\\"\\\\\\n\\t\\x01\",\n  \"\xc3\xa9\"\n]");
  EXPECT_EQ(Print(StringArrayFromVector({"ab", "\xff"}, {}, large_binary())),
            "[\n  6162,\n  FF\n]");
  EXPECT_EQ(Print(StringArrayFromVector({"large"}, {}, large_utf8())), "[\n  \"large\"\n]");
  EXPECT_EQ(Print(FixedSizeBinaryArrayFromVector(fixed_size_binary(2), {"\x01\xab", "zz"})),
            "[\n  01AB,\n  7A7A\n]");
  EXPECT_EQ(Print(BinaryViewArrayFromVector({"short", "a value longer than twelve bytes"})),
            "[\n  \"short\",\n  \"a value longer than twelve bytes\"\n]");
  EXPECT_EQ(Print(BinaryViewArrayFromVector({"\x01", "0123456789abcdef"}, {true, true},
                                            binary_view())),
            "[\n  01,\n  30313233343536373839616263646566\n]");
  // Slices print their own slots only.
  EXPECT_EQ(Print(StringArrayFromVector({"a", "b", "c"})->Slice(1, 1)), "[\n  \"b\"\n]");
}

std::string Decimal128Bytes(int64_t low, int64_t high) {
  std::string bytes(16, '\0');
  std::memcpy(bytes.data(), &low, 8);
  std::memcpy(bytes.data() + 8, &high, 8);
  return bytes;
}

TEST(PrettyPrintTest, Decimals) {
  EXPECT_EQ(Print(FixedSizeBinaryArrayFromVector(
                decimal128(10, 2), {Decimal128Bytes(12345, 0), Decimal128Bytes(-5, -1),
                                    Decimal128Bytes(0, 0), Decimal128Bytes(-12345, -1)})),
            "[\n  123.45,\n  -0.05,\n  0.00,\n  -123.45\n]");
  // 2^64 = 18446744073709551616 (carries across limbs), and the most negative
  // decimal128.
  EXPECT_EQ(Print(FixedSizeBinaryArrayFromVector(
                decimal128(38, 0),
                {Decimal128Bytes(0, 1),
                 Decimal128Bytes(0, std::numeric_limits<int64_t>::min())})),
            "[\n  18446744073709551616,\n  -170141183460469231731687303715884105728\n]");
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(decimal32(5, 3), {-1234, 5})),
            "[\n  -1.234,\n  0.005\n]");
  EXPECT_EQ(Print(ArrayFromVector<int64_t>(decimal64(5, -2), {12})), "[\n  1200\n]");
  std::string minus_one_256(32, '\xff');
  EXPECT_EQ(Print(FixedSizeBinaryArrayFromVector(decimal256(40, 1), {minus_one_256})),
            "[\n  -0.1\n]");
}

TEST(PrettyPrintTest, DatesAndTimes) {
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(date32(), {0, 18262, -1, 11016})),
            "[\n  1970-01-01,\n  2020-01-01,\n  1969-12-31,\n  2000-02-29\n]");
  EXPECT_EQ(Print(ArrayFromVector<int64_t>(date64(), {1577836800000, -1})),
            "[\n  2020-01-01,\n  1969-12-31\n]");
  EXPECT_EQ(Print(ArrayFromVector<int64_t>(timestamp(TimeUnit::kSecond), {0, -1, 951782400})),
            "[\n  1970-01-01 00:00:00,\n  1969-12-31 23:59:59,\n  2000-02-29 00:00:00\n]");
  EXPECT_EQ(Print(ArrayFromVector<int64_t>(timestamp(TimeUnit::kMilli, "UTC"), {1500, -1})),
            "[\n  1970-01-01 00:00:01.500Z,\n  1969-12-31 23:59:59.999Z\n]");
  EXPECT_EQ(Print(ArrayFromVector<int64_t>(timestamp(TimeUnit::kMicro), {1})),
            "[\n  1970-01-01 00:00:00.000001\n]");
  EXPECT_EQ(Print(ArrayFromVector<int64_t>(timestamp(TimeUnit::kNano, "Europe/Paris"),
                                           {1577836800123456789})),
            "[\n  2020-01-01 00:00:00.123456789Z\n]");
  // Extremes do not overflow.
  EXPECT_EQ(Print(ArrayFromVector<int64_t>(timestamp(TimeUnit::kNano),
                                           {std::numeric_limits<int64_t>::min()})),
            "[\n  1677-09-21 00:12:43.145224192\n]");
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(time32(TimeUnit::kSecond), {3661, -5, 86400})),
            "[\n  01:01:01,\n  -5,\n  86400\n]");
  EXPECT_EQ(Print(ArrayFromVector<int64_t>(time64(TimeUnit::kNano), {86399999999999})),
            "[\n  23:59:59.999999999\n]");
  EXPECT_EQ(Print(ArrayFromVector<int64_t>(duration(TimeUnit::kMilli), {-42})), "[\n  -42\n]");
}

TEST(PrettyPrintTest, Intervals) {
  EXPECT_EQ(Print(ArrayFromVector<int32_t>(month_interval(), {14})), "[\n  14\n]");
  struct DayTime {
    int32_t days;
    int32_t milliseconds;
  };
  EXPECT_EQ(Print(ArrayFromVector<DayTime>(day_time_interval(), {{3, -7}, {0, 5}})),
            "[\n  3d-7ms,\n  0d5ms\n]");
  struct MonthDayNano {
    int32_t months;
    int32_t days;
    int64_t nanos;
  };
  EXPECT_EQ(Print(ArrayData::Make(month_day_nano_interval(), 1,
                                  {nullptr, BufferFromValues(std::vector<MonthDayNano>{{1, 2, 3}})},
                                  0)),
            "[\n  1M2d3ns\n]");
}

TEST(PrettyPrintTest, NullArray) {
  EXPECT_EQ(Print(NullArrayOfLength(3)), "3 nulls");
}

TEST(PrettyPrintTest, Lists) {
  auto values = ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4});
  EXPECT_EQ(Print(ListArrayFromOffsets(list(int32()), {0, 2, 4, 4}, values, {true, false, true})),
            "[\n"
            "  [\n"
            "    1,\n"
            "    2\n"
            "  ],\n"
            "  null,\n"
            "  []\n"
            "]");
  // Nested, with the container window on the outer level.
  auto inner = ListArrayFromOffsets(list(int32()), {0, 1, 2, 3, 4}, values);
  PrettyPrintOptions options;
  options.container_window = 1;
  EXPECT_EQ(Print(ListArrayFromOffsets(list(list(int32())), {0, 1, 2, 3, 4}, inner), options),
            "[\n"
            "  [\n"
            "    [\n"
            "      1\n"
            "    ]\n"
            "  ],\n"
            "  ...\n"
            "  [\n"
            "    [\n"
            "      4\n"
            "    ]\n"
            "  ]\n"
            "]");
  EXPECT_EQ(Print(FixedSizeListArrayFromChild(fixed_size_list(int32(), 2), 2, values,
                                              {false, true})),
            "[\n"
            "  null,\n"
            "  [\n"
            "    3,\n"
            "    4\n"
            "  ]\n"
            "]");
  EXPECT_EQ(Print(ListArrayFromOffsets(large_list(utf8()), {0, 1},
                                       StringArrayFromVector({"s"}))),
            "[\n  [\n    \"s\"\n  ]\n]");
}

TEST(PrettyPrintTest, Structs) {
  auto type = struct_({field("a", int32()), field("b", utf8())});
  auto children = std::vector<ArrayDataPtr>{ArrayFromVector<int32_t>(int32(), {1, 2}),
                                            StringArrayFromVector({"x", "y"})};
  EXPECT_EQ(Print(StructArrayFromChildren(type, 2, children)),
            "-- is_valid: all not null\n"
            "-- child 0 'a' type: int32\n"
            "  [\n"
            "    1,\n"
            "    2\n"
            "  ]\n"
            "-- child 1 'b' type: string\n"
            "  [\n"
            "    \"x\",\n"
            "    \"y\"\n"
            "  ]");
  EXPECT_EQ(Print(StructArrayFromChildren(type, 2, children, {true, false})->Slice(1, 1)),
            "-- is_valid:\n"
            "  [\n"
            "    false\n"
            "  ]\n"
            "-- child 0 'a' type: int32\n"
            "  [\n"
            "    2\n"
            "  ]\n"
            "-- child 1 'b' type: string\n"
            "  [\n"
            "    \"y\"\n"
            "  ]");
  // A struct inside a list is indented as a whole.
  auto one = StructArrayFromChildren(struct_({field("a", int32())}), 1,
                                     {ArrayFromVector<int32_t>(int32(), {7})});
  EXPECT_EQ(Print(ListArrayFromOffsets(list(struct_({field("a", int32())})), {0, 1}, one)),
            "[\n"
            "  -- is_valid: all not null\n"
            "  -- child 0 'a' type: int32\n"
            "    [\n"
            "      7\n"
            "    ]\n"
            "]");
}

TEST(PrettyPrintTest, Dictionary) {
  auto dict = StringArrayFromVector({"a", "b"});
  EXPECT_EQ(Print(DictionaryArrayFromIndices(dictionary(int8(), utf8()), {1, 0, 0}, dict,
                                             {true, false, true})),
            "-- dictionary:\n"
            "  [\n"
            "    \"a\",\n"
            "    \"b\"\n"
            "  ]\n"
            "-- indices:\n"
            "  [\n"
            "    1,\n"
            "    null,\n"
            "    0\n"
            "  ]");
}

TEST(PrettyPrintTest, Map) {
  auto type = map(utf8(), int32());
  auto entries = StructArrayFromChildren(type->field(0)->type(), 3,
                                         {StringArrayFromVector({"a", "b", "c"}),
                                          ArrayFromVector<int32_t>(int32(), {1, 2, 3})});
  EXPECT_EQ(Print(ListArrayFromOffsets(type, {0, 2, 2}, entries, {true, false})),
            "[\n"
            "  keys:\n"
            "  [\n"
            "    \"a\",\n"
            "    \"b\"\n"
            "  ]\n"
            "  values:\n"
            "  [\n"
            "    1,\n"
            "    2\n"
            "  ],\n"
            "  null\n"
            "]");
}

TEST(PrettyPrintTest, InvalidArrays) {
  // Structurally invalid: nothing written, the error returned.
  auto bad = MakeArray(
      ArrayData::Make(int32(), 3, {nullptr, BufferFromValues(std::vector<int32_t>{1})}, 0));
  std::ostringstream sink;
  const Status status = PrettyPrint(*bad, {}, &sink);
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_THAT(status.message(), HasSubstr("values buffer has 4 bytes, needs 12"));
  EXPECT_EQ(sink.str(), "");
  EXPECT_THAT(bad->ToString(), HasSubstr("<Invalid array: int32 array: values buffer has 4"));
  // First and last offsets fine, a middle one out of bounds: caught when
  // the slot is printed.
  auto bad_offsets = MakeArray(ArrayData::Make(
      utf8(), 2,
      {nullptr, BufferFromValues(std::vector<int32_t>{0, 10, 2}), MakeBuffer("abcde", 5)}, 0));
  EXPECT_TRUE(bad_offsets->Validate().ok());
  const Status offsets_status = PrettyPrint(*bad_offsets, {}, &sink);
  EXPECT_TRUE(offsets_status.IsInvalid());
  EXPECT_THAT(offsets_status.message(),
              HasSubstr("string array: offsets [0, 10) of slot 0 are out of bounds of the data "
                        "buffer size 5"));
  EXPECT_EQ(sink.str(), "");
  auto bad_list = MakeArray(ListArrayFromOffsets(list(int32()), {0, 9, 1},
                                                 ArrayFromVector<int32_t>(int32(), {1, 2})));
  EXPECT_THAT(bad_list->ToString(), HasSubstr("offsets [0, 9) of slot 0 are out of bounds"));
  // A bad view.
  std::vector<uint8_t> views;
  testutil::AppendView(&views, "a value longer than twelve bytes", 3, 0);
  auto bad_view = MakeArray(
      ArrayData::Make(utf8_view(), 1, {nullptr, BufferFromValues(views), MakeBuffer("x", 1)}, 0));
  EXPECT_THAT(bad_view->ToString(), HasSubstr("view at slot 0 is out of bounds"));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
