#include "quiver/array/validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/compare.h"
#include "quiver/array/nulls.h"
#include "quiver/array/pretty_print.h"
#include "quiver/array/test_util_internal.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using ::testing::HasSubstr;
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

// Both depths reject `data` with an Invalid status whose message contains
// `what`.
void ExpectInvalid(const ArrayData& data, const std::string& what) {
  const Status cheap = ValidateArray(data);
  EXPECT_TRUE(cheap.IsInvalid()) << "Validate: " << cheap.ToString();
  EXPECT_THAT(cheap.message(), HasSubstr(what));
  const Status full = ValidateArrayFull(data);
  EXPECT_TRUE(full.IsInvalid()) << "ValidateFull: " << full.ToString();
  EXPECT_THAT(full.message(), HasSubstr(what));
}

// Validate accepts `data`; ValidateFull rejects it with `what`.
void ExpectFullInvalid(const ArrayData& data, const std::string& what) {
  const Status cheap = ValidateArray(data);
  EXPECT_TRUE(cheap.ok()) << "Validate: " << cheap.ToString();
  const Status full = ValidateArrayFull(data);
  EXPECT_TRUE(full.IsInvalid()) << "ValidateFull: " << full.ToString();
  EXPECT_THAT(full.message(), HasSubstr(what));
}

void ExpectValid(const ArrayData& data) {
  const Status cheap = ValidateArray(data);
  EXPECT_TRUE(cheap.ok()) << cheap.ToString();
  const Status full = ValidateArrayFull(data);
  EXPECT_TRUE(full.ok()) << full.ToString();
}

std::shared_ptr<Buffer> Int32Buffer(std::vector<int32_t> values) {
  return BufferFromValues(values);
}

// A 16-byte view (see BinaryViewArray).
std::vector<uint8_t> View(int32_t size, const char* prefix, int32_t buffer_index, int32_t offset) {
  std::vector<uint8_t> view(16, 0);
  std::memcpy(view.data(), &size, 4);
  std::memcpy(view.data() + 4, prefix, 4);
  std::memcpy(view.data() + 8, &buffer_index, 4);
  std::memcpy(view.data() + 12, &offset, 4);
  return view;
}

// ---- Valid arrays -----------------------------------------------------------

TEST(ValidateTest, ValidArraysOfEveryKind) {
  ExpectValid(*NullArrayOfLength(3));
  ExpectValid(*ArrayFromVector<int32_t>(int32(), {1, 2, 3}, {true, false, true}));
  ExpectValid(*ArrayFromVector<double>(float64(), {1.5, -2}));
  ExpectValid(*BooleanArrayFromVector({true, false, true}, {true, true, false}));
  ExpectValid(*StringArrayFromVector({"a", "", "\xc3\xa9t\xc3\xa9"}, {true, false, true}));
  ExpectValid(*StringArrayFromVector({"a", "bc"}, {}, large_utf8()));
  ExpectValid(*StringArrayFromVector({"\xff", "bc"}, {}, binary()));
  ExpectValid(*BinaryViewArrayFromVector({"short", "a value longer than twelve bytes", ""}));
  ExpectValid(*BinaryViewArrayFromVector({"\xff\xfe", "binary longer than twelve \xff"}, {},
                                         binary_view()));
  ExpectValid(*FixedSizeBinaryArrayFromVector(fixed_size_binary(2), {"ab", "cd"}));
  ExpectValid(*FixedSizeBinaryArrayFromVector(decimal128(10, 2), {std::string(16, '\0')}));
  ExpectValid(*ArrayFromVector<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), {0, 1}));

  auto values = ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4});
  ExpectValid(*ListArrayFromOffsets(list(int32()), {0, 2, 2, 4}, values, {true, false, true}));
  ExpectValid(*ListArrayFromOffsets(large_list(int32()), {0, 1, 4}, values));
  ExpectValid(*FixedSizeListArrayFromChild(fixed_size_list(int32(), 2), 2, values));
  auto struct_type = struct_({field("a", int32()), field("b", utf8())});
  ExpectValid(*StructArrayFromChildren(struct_type, 2,
                                       {ArrayFromVector<int32_t>(int32(), {1, 2}),
                                        StringArrayFromVector({"x", "y"})},
                                       {true, false}));
  auto map_type = map(utf8(), int32());
  auto entries = StructArrayFromChildren(map_type->field(0)->type(), 3,
                                         {StringArrayFromVector({"a", "b", "c"}),
                                          ArrayFromVector<int32_t>(int32(), {1, 2, 3})});
  ExpectValid(*ListArrayFromOffsets(map_type, {0, 2, 3}, entries));
  auto dict = StringArrayFromVector({"x", "y"});
  ExpectValid(*DictionaryArrayFromIndices(dictionary(int8(), utf8()), {0, 1, 1, 0}, dict));
  ExpectValid(*DictionaryArrayFromIndices(dictionary(uint32(), utf8()), {1, 5}, dict,
                                          {true, false}));  // a null slot may hold anything
}

TEST(ValidateTest, SlicesAreValid) {
  auto strings = StringArrayFromVector({"a", "bc", "def", "g"}, {true, false, true, true});
  ExpectValid(*strings->Slice(1, 2));
  ExpectValid(*strings->Slice(4, 0));
  auto values = ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4, 5, 6});
  auto lists = ListArrayFromOffsets(list(int32()), {0, 2, 4, 6}, values);
  ExpectValid(*lists->Slice(1, 1));
  auto fsl = FixedSizeListArrayFromChild(fixed_size_list(int32(), 2), 3, values);
  ExpectValid(*fsl->Slice(2, 1));
}

TEST(ValidateTest, EmptyArraysMayOmitBuffers) {
  ExpectValid(ArrayData(int32(), 0, {nullptr, nullptr}, 0));
  ExpectValid(ArrayData(boolean(), 0, {nullptr, nullptr}, 0));
  ExpectValid(ArrayData(utf8(), 0, {nullptr, nullptr, nullptr}, 0));
  ExpectValid(ArrayData(binary_view(), 0, {nullptr, nullptr}, 0));
  auto list_data = ArrayData::Make(list(int32()), 0, {nullptr, nullptr},
                                   {ArrayFromVector<int32_t>(int32(), {})}, 0);
  ExpectValid(*list_data);
}

// ---- Header -----------------------------------------------------------------

TEST(ValidateTest, MissingType) {
  ArrayData data;
  ExpectInvalid(data, "array has no type");
}

TEST(ValidateTest, UnknownTypeId) {
  auto type = std::make_shared<DataType>(static_cast<Type>(200));
  ExpectInvalid(ArrayData(type, 0, {}), "unknown type id 200");
}

TEST(ValidateTest, LengthAndOffset) {
  auto good = ArrayFromVector<int32_t>(int32(), {1, 2, 3});
  auto data = std::make_shared<ArrayData>(*good);
  data->length = -1;
  ExpectInvalid(*data, "int32 array: length -1 is negative");
  data = std::make_shared<ArrayData>(*good);
  data->offset = -2;
  ExpectInvalid(*data, "int32 array: offset -2 is negative");
  data = std::make_shared<ArrayData>(*good);
  data->offset = std::numeric_limits<int64_t>::max() - 1;
  ExpectInvalid(*data, "overflows int64");
  data = std::make_shared<ArrayData>(*good);
  data->offset = std::numeric_limits<int64_t>::max() / 4;
  data->length = 1;
  ExpectInvalid(*data, "times the width 4 overflows int64");
}

TEST(ValidateTest, NullCount) {
  auto good = ArrayFromVector<int32_t>(int32(), {1, 2, 3}, {true, false, true});
  auto data = std::make_shared<ArrayData>(*good);
  data->null_count = -5;
  ExpectInvalid(*data, "null_count -5 is negative");
  data->null_count = 4;
  ExpectInvalid(*data, "null_count 4 is greater than the length 3");
  data->null_count = kUnknownNullCount;
  ExpectValid(*data);
  data->null_count = 2;  // the bitmap has 1 null
  ExpectFullInvalid(*data, "null_count 2 does not match the validity bitmap, which has 1 null(s)");

  auto no_bitmap = ArrayFromVector<int32_t>(int32(), {1, 2, 3});
  no_bitmap->null_count = 1;
  ExpectInvalid(*no_bitmap, "null_count 1 but no validity bitmap");

  auto nulls = NullArrayOfLength(3);
  nulls->null_count = 1;
  ExpectInvalid(*nulls, "null array: null_count 1 must equal the length 3");
  nulls->null_count = kUnknownNullCount;
  ExpectValid(*nulls);
}

TEST(ValidateTest, BufferCount) {
  ExpectInvalid(ArrayData(int32(), 0, {nullptr}), "int32 array: expected 2 buffers, got 1");
  ExpectInvalid(ArrayData(utf8(), 0, {nullptr, nullptr}),
                "string array: expected 3 buffers, got 2");
  ExpectInvalid(ArrayData(null(), 0, {nullptr}), "null array: expected 0 buffers, got 1");
  ExpectInvalid(ArrayData(utf8_view(), 0, {nullptr}),
                "expected at least 2 buffers (validity, views), got 1");
  ExpectInvalid(ArrayData(struct_({}), 0, {}), "expected 1 buffers, got 0");
}

TEST(ValidateTest, BufferWithNullAddress) {
  ExpectInvalid(ArrayData(int32(), 2, {nullptr, Buffer::Wrap(nullptr, 8)}, 0),
                "buffer 1 has 8 bytes at a null address");
}

TEST(ValidateTest, ValidityBitmapTooSmall) {
  // 9 slots need 2 bytes of bitmap.
  auto data = ArrayFromVector<int8_t>(int8(), {1, 2, 3, 4, 5, 6, 7, 8, 9});
  data->buffers[0] = MakeBuffer("\xff", 1);
  data->null_count = kUnknownNullCount;
  ExpectInvalid(*data, "validity bitmap has 1 bytes, needs 2 for offset 0 + length 9");
  // The same through an offset.
  auto sliced = ArrayFromVector<int8_t>(int8(), {1, 2, 3, 4, 5, 6, 7, 8, 9})->Slice(4, 5);
  sliced->buffers[0] = MakeBuffer("\xff", 1);
  sliced->null_count = kUnknownNullCount;
  ExpectInvalid(*sliced, "needs 2 for offset 4 + length 5");
}

TEST(ValidateTest, FixedWidthValues) {
  ExpectInvalid(ArrayData(int32(), 2, {nullptr, nullptr}, 0),
                "int32 array: the values buffer is missing");
  ExpectInvalid(ArrayData(int32(), 3, {nullptr, Int32Buffer({1, 2})}, 0),
                "int32 array: values buffer has 8 bytes, needs 12 for offset 0 + length 3");
  ExpectInvalid(ArrayData(int64(), 1, {nullptr, Int32Buffer({1})}, 0),
                "values buffer has 4 bytes, needs 8");
  ExpectInvalid(ArrayData(boolean(), 9, {nullptr, MakeBuffer("\x01", 1)}, 0),
                "bool array: values buffer has 1 bytes, needs 2");
  ExpectInvalid(ArrayData(fixed_size_binary(3), 2, {nullptr, MakeBuffer("abcde", 5)}, 0),
                "fixed_size_binary[3] array: values buffer has 5 bytes, needs 6");
  ExpectInvalid(ArrayData(decimal128(5, 2), 1, {nullptr, MakeBuffer("12345678", 8)}, 0),
                "decimal128(5, 2) array: values buffer has 8 bytes, needs 16");
  ExpectInvalid(ArrayData(month_day_nano_interval(), 1, {nullptr, MakeBuffer("12345678", 8)}, 0),
                "needs 16");
  // Offsets count in elements.
  ExpectInvalid(ArrayData(int32(), 2, {nullptr, Int32Buffer({1, 2, 3})}, 0, 2),
                "values buffer has 12 bytes, needs 16 for offset 2 + length 2");
  // A zero-width fixed_size_binary needs no bytes but a buffer.
  ExpectValid(ArrayData(fixed_size_binary(0), 5, {nullptr, Buffer::Empty()}, 0));
  ExpectInvalid(
      ArrayData(std::make_shared<FixedSizeBinaryType>(-1), 0, {nullptr, nullptr}, 0),
      "negative byte width");
}

// ---- Binary -----------------------------------------------------------------

TEST(ValidateTest, BinaryBuffers) {
  ExpectInvalid(ArrayData(utf8(), 1, {nullptr, nullptr, MakeBuffer("a", 1)}, 0),
                "string array: the offsets buffer is missing");
  ExpectInvalid(ArrayData(utf8(), 1, {nullptr, Int32Buffer({0, 1}), nullptr}, 0),
                "string array: the data buffer is missing");
  ExpectInvalid(ArrayData(utf8(), 2, {nullptr, Int32Buffer({0, 1}), MakeBuffer("ab", 2)}, 0),
                "offsets buffer has 8 bytes, needs 12 for offset 0 + length 2 + 1 offsets");
  ExpectInvalid(ArrayData(large_binary(), 1, {nullptr, Int32Buffer({0, 1}), MakeBuffer("a", 1)},
                          0),
                "large_binary array: offsets buffer has 8 bytes, needs 16");
}

TEST(ValidateTest, BinaryFirstAndLastOffsets) {
  ExpectInvalid(
      ArrayData(utf8(), 3, {nullptr, Int32Buffer({0, 1, 2, 7}), MakeBuffer("abcde", 5)}, 0),
      "string array: offset 7 at slot 3 is greater than the data buffer size 5");
  ExpectInvalid(
      ArrayData(binary(), 2, {nullptr, Int32Buffer({-1, 1, 2}), MakeBuffer("abcde", 5)}, 0),
      "binary array: offset -1 at slot 0 is negative");
  ExpectInvalid(ArrayData(utf8(), 2, {nullptr, Int32Buffer({3, 4, 1}), MakeBuffer("abcde", 5)}, 0),
                "offset 1 at slot 2 is less than the offset 3 at slot 0");
  ExpectInvalid(ArrayData(utf8(), 1, {nullptr, Int32Buffer({9, 9}), MakeBuffer("abcde", 5)}, 0),
                "offset 9 at slot 0 is greater than the data buffer size 5");
  // The slot numbers are relative to the array's offset.
  ExpectInvalid(
      ArrayData(utf8(), 2, {nullptr, Int32Buffer({0, 1, 2, 9}), MakeBuffer("abcde", 5)}, 0, 1),
      "offset 9 at slot 2 is greater than the data buffer size 5");
}

TEST(ValidateTest, BinaryOffsetsInTheMiddle) {
  // First and last offsets are fine; only the full check looks between them.
  ExpectFullInvalid(
      ArrayData(utf8(), 3, {nullptr, Int32Buffer({0, 4, 2, 5}), MakeBuffer("abcde", 5)}, 0),
      "string array: offset 2 at slot 2 is less than the offset 4 at slot 1 (offsets must be "
      "non-decreasing)");
  ExpectFullInvalid(
      ArrayData(binary(), 3, {nullptr, Int32Buffer({0, 9, 9, 5}), MakeBuffer("abcde", 5)}, 0),
      "binary array: offset 9 at slot 1 is greater than the data buffer size 5");
  // Offsets of null slots must be ordered too.
  ExpectFullInvalid(ArrayData(utf8(), 3,
                              {BitmapFromBools({true, false, true}), Int32Buffer({0, 4, 2, 5}),
                               MakeBuffer("abcde", 5)},
                              1),
                    "offset 2 at slot 2 is less than the offset 4 at slot 1");
}

TEST(ValidateTest, StringUtf8) {
  ExpectFullInvalid(*StringArrayFromVector({"ok", "fine", "bad\xc0\xaf", "ok"}),
                    "string array: invalid UTF-8 at slot 2: byte 3 of the value (0xC0 0xAF)");
  ExpectFullInvalid(*StringArrayFromVector({"\xed\xa0\x80"}, {}, large_utf8()),
                    "large_string array: invalid UTF-8 at slot 0");
  ExpectFullInvalid(*StringArrayFromVector({"a", "\xf4\x90\x80\x80"}),
                    "invalid UTF-8 at slot 1: byte 0 of the value (0xF4 0x90 0x80 0x80)");
  // The same bytes are fine in binary arrays and in null slots.
  ExpectValid(*StringArrayFromVector({"ok", "bad\xc0\xaf"}, {}, binary()));
  ExpectValid(*StringArrayFromVector({"ok", "bad\xc0\xaf", "ok"}, {true, false, true}));
  // Bad values after and between null slots: runs of valid slots.
  ExpectFullInvalid(*StringArrayFromVector({"\xff", "ok", "\xe2\x82", "x"}, {false, true, true,
                                                                              false}),
                    "invalid UTF-8 at slot 2");
  // Each value must be well-formed on its own, even if the concatenation is:
  // "\xc3" + "\xa9" is "é".
  ExpectFullInvalid(*StringArrayFromVector({"x\xc3", "\xa9y"}),
                    "invalid UTF-8 at slot 0: byte 1 of the value (0xC3)");
  ExpectFullInvalid(*StringArrayFromVector({"", "\xa9y"}), "invalid UTF-8 at slot 1");
  // Sliced: slots relative to the slice.
  ExpectFullInvalid(*StringArrayFromVector({"ok", "ok", "\xff"})->Slice(1, 2),
                    "invalid UTF-8 at slot 1");
  ExpectValid(*StringArrayFromVector({"\xff", "ok", "ok"})->Slice(1, 2));
}

TEST(ValidateTest, LongStringArrayUtf8) {
  std::vector<std::string> values;
  for (int i = 0; i < 1000; ++i) values.push_back(i % 7 == 0 ? "h\xc3\xa9llo" : "world");
  ExpectValid(*StringArrayFromVector(values));
  values[777] = "oops\xe2\x28\xa1";
  ExpectFullInvalid(*StringArrayFromVector(values),
                    "invalid UTF-8 at slot 777: byte 4 of the value (0xE2 0x28 0xA1)");
}

// ---- Binary views -------------------------------------------------------------

ArrayDataPtr ViewArray(TypePtr type, const std::vector<std::vector<uint8_t>>& views,
                       std::vector<std::shared_ptr<Buffer>> data_buffers,
                       const std::vector<bool>& validity = {}) {
  std::vector<uint8_t> bytes;
  for (const auto& v : views) bytes.insert(bytes.end(), v.begin(), v.end());
  std::vector<std::shared_ptr<Buffer>> buffers = {testutil::ValidityBuffer(validity),
                                                  BufferFromValues(bytes)};
  for (auto& b : data_buffers) buffers.push_back(std::move(b));
  return ArrayData::Make(std::move(type), static_cast<int64_t>(views.size()), std::move(buffers),
                         testutil::CountFalse(validity));
}

TEST(ValidateTest, ViewBuffers) {
  auto good = BinaryViewArrayFromVector({"a", "a value longer than twelve bytes"});
  ExpectValid(*good);
  auto data = std::make_shared<ArrayData>(*good);
  data->buffers[1] = MakeBuffer(good->buffers[1]->data(), 20);
  ExpectInvalid(*data, "string_view array: views buffer has 20 bytes, needs 32");
  data->buffers[1] = nullptr;
  ExpectInvalid(*data, "string_view array: the views buffer is missing");
  data = std::make_shared<ArrayData>(*good);
  data->buffers[2] = nullptr;
  ExpectInvalid(*data, "data buffer 0 (buffer 2) is missing");
}

TEST(ValidateTest, ViewValues) {
  auto data_buffer = MakeBuffer(std::string("0123456789abcdefghij"));
  // Good: a long view into bytes [2, 17).
  ExpectValid(*ViewArray(binary_view(), {View(15, "2345", 0, 2)}, {data_buffer}));
  ExpectFullInvalid(*ViewArray(binary_view(), {View(-3, "abcd", 0, 0)}, {data_buffer}),
                    "binary_view array: view at slot 0 has a negative length -3");
  ExpectFullInvalid(*ViewArray(binary_view(), {View(1, "a\0\0\0", 0, 0), View(15, "0123", 1, 0)},
                               {data_buffer}),
                    "view at slot 1 refers to data buffer 1, but the array has 1 data buffer(s)");
  ExpectFullInvalid(*ViewArray(binary_view(), {View(15, "0123", -1, 0)}, {data_buffer}),
                    "refers to data buffer -1");
  ExpectFullInvalid(*ViewArray(binary_view(), {View(15, "0123", 0, -4)}, {data_buffer}),
                    "view at slot 0 has a negative offset -4");
  ExpectFullInvalid(*ViewArray(binary_view(), {View(15, "abcd", 0, 10)}, {data_buffer}),
                    "view at slot 0 spans bytes [10, 25) of data buffer 0, which has 20 bytes");
  ExpectFullInvalid(*ViewArray(binary_view(), {View(15, "XXXX", 0, 2)}, {data_buffer}),
                    "view at slot 0 has a prefix that differs from the first 4 bytes");
  ExpectFullInvalid(*ViewArray(binary_view(), {View(13, "0123", 0, 0x7fffffff)}, {data_buffer}),
                    "spans bytes [2147483647, 2147483660)");
  // Null slots are not looked at; inline padding does not matter.
  ExpectValid(*ViewArray(binary_view(), {View(15, "XXXX", 7, -1), View(2, "ab\xff\xff", 9, 9)},
                         {data_buffer}, {false, true}));
  // UTF-8 for string views, inline and out of line.
  ExpectFullInvalid(*ViewArray(utf8_view(), {View(2, "\xc0\xaf\0\0", 0, 0)}, {data_buffer}),
                    "string_view array: invalid UTF-8 at slot 0");
  auto bad_long = MakeBuffer(std::string("0123456789abc\xed\xa0\x80"));
  ExpectFullInvalid(*ViewArray(utf8_view(), {View(16, "0123", 0, 0)}, {bad_long}),
                    "invalid UTF-8 at slot 0: byte 13 of the value (0xED 0xA0 0x80)");
  ExpectValid(*ViewArray(binary_view(), {View(16, "0123", 0, 0)}, {bad_long}));
}

// ---- Lists ----------------------------------------------------------------------

TEST(ValidateTest, ListStructure) {
  auto values = ArrayFromVector<int32_t>(int32(), {1, 2, 3});
  auto good = ListArrayFromOffsets(list(int32()), {0, 1, 3}, values);
  ExpectValid(*good);

  auto data = std::make_shared<ArrayData>(*good);
  data->children.clear();
  ExpectInvalid(*data, "list<item: int32> array: expected 1 child arrays, got 0");
  data->children = {nullptr};
  ExpectInvalid(*data, "child 0 is missing");
  data->children = {ArrayFromVector<int64_t>(int64(), {1, 2, 3})};
  ExpectInvalid(*data, "child 0 has type int64, the field type is int32");
  data->children = {values};
  data->buffers[1] = Int32Buffer({0, 1});
  ExpectInvalid(*data, "offsets buffer has 8 bytes, needs 12");
  data->buffers[1] = nullptr;
  ExpectInvalid(*data, "the offsets buffer is missing");
}

TEST(ValidateTest, ListOffsets) {
  auto values = ArrayFromVector<int32_t>(int32(), {1, 2, 3});
  ExpectInvalid(*ListArrayFromOffsets(list(int32()), {0, 1, 4}, values),
                "list<item: int32> array: offset 4 at slot 2 is greater than the child length 3");
  ExpectInvalid(*ListArrayFromOffsets(large_list(int32()), {-1, 1, 3}, values),
                "large_list<item: int32> array: offset -1 at slot 0 is negative");
  ExpectFullInvalid(*ListArrayFromOffsets(list(int32()), {0, 3, 1, 3}, values),
                    "offset 1 at slot 2 is less than the offset 3 at slot 1");
  ExpectFullInvalid(*ListArrayFromOffsets(large_list(int32()), {0, 5, 3}, values),
                    "offset 5 at slot 1 is greater than the child length 3");
  // The list's slice of the child counts, not the child's buffers.
  ExpectInvalid(*ListArrayFromOffsets(list(int32()), {0, 3}, values->Slice(1, 2)),
                "offset 3 at slot 1 is greater than the child length 2");
}

TEST(ValidateTest, NestedErrorsNameTheirPath) {
  auto bad_strings = StringArrayFromVector({"ok", "\xff"});
  auto lists = ListArrayFromOffsets(list(utf8()), {0, 2}, bad_strings);
  ExpectFullInvalid(*lists, "child 0 (field 'item'): string array: invalid UTF-8 at slot 1");
  auto struct_type = struct_({field("a", int32()), field("b", list(utf8()))});
  auto outer = StructArrayFromChildren(struct_type, 1,
                                       {ArrayFromVector<int32_t>(int32(), {1}), lists});
  ExpectFullInvalid(*outer,
                    "child 1 (field 'b'): child 0 (field 'item'): string array: invalid UTF-8");
  auto short_child = StringArrayFromVector({"a"});
  short_child->buffers[1] = Int32Buffer({0});
  ExpectInvalid(*ListArrayFromOffsets(list(utf8()), {0, 1}, short_child),
                "child 0 (field 'item'): string array: offsets buffer has 4 bytes, needs 8");
}

TEST(ValidateTest, FixedSizeList) {
  auto values = ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4, 5});
  ExpectValid(*FixedSizeListArrayFromChild(fixed_size_list(int32(), 2), 2, values));
  ExpectInvalid(*FixedSizeListArrayFromChild(fixed_size_list(int32(), 2), 3, values),
                "fixed_size_list<item: int32>[2] array: child 0 (field 'item'): length 5 is less "
                "than 6 = (offset 0 + length 3) * list size 2");
  auto sliced = FixedSizeListArrayFromChild(fixed_size_list(int32(), 2), 2, values)->Slice(1, 1);
  sliced->length = 2;  // slots 1 and 2 need values [2, 6)
  ExpectInvalid(*sliced, "length 5 is less than 6 = (offset 1 + length 2)");
  auto negative = std::make_shared<ListType>(Type::kFixedSizeList, field("item", int32()), -1);
  ExpectInvalid(*ArrayData::Make(negative, 0, {nullptr}, {values}, 0), "negative list size");
  auto huge = FixedSizeListArrayFromChild(fixed_size_list(int32(), 1 << 30), 0, values);
  huge->offset = int64_t{1} << 40;
  ExpectInvalid(*huge, "times the list size 1073741824 overflows int64");
}

// ---- Structs and maps -------------------------------------------------------------

TEST(ValidateTest, Struct) {
  auto type = struct_({field("a", int32()), field("b", utf8())});
  auto a = ArrayFromVector<int32_t>(int32(), {1, 2, 3});
  auto b = StringArrayFromVector({"x", "y"});
  ExpectInvalid(*StructArrayFromChildren(type, 2, {a}), "expected 2 child arrays, got 1");
  ExpectInvalid(*StructArrayFromChildren(type, 3, {a, b}),
                "struct<a: int32, b: string> array: child 1 (field 'b'): length 2 is less than "
                "offset 0 + length 3");
  ExpectInvalid(*StructArrayFromChildren(type, 2, {b, a}),
                "child 0 has type string, the field type is int32");
  ExpectValid(*StructArrayFromChildren(type, 2, {a, b}));  // longer children are fine
  // Children are addressed with the struct's offset.
  auto sliced = StructArrayFromChildren(type, 2, {a, b})->Slice(1, 1);
  ExpectValid(*sliced);
  sliced->length = 2;
  ExpectInvalid(*sliced, "child 1 (field 'b'): length 2 is less than offset 1 + length 2");
}

TEST(ValidateTest, MapEntriesMustNotBeNull) {
  auto type = map(utf8(), int32());
  const TypePtr& entries_type = type->field(0)->type();
  auto keys = StringArrayFromVector({"a", "b"});
  auto items = ArrayFromVector<int32_t>(int32(), {1, 2});
  auto entries = StructArrayFromChildren(entries_type, 2, {keys, items}, {true, false});
  ExpectInvalid(*ListArrayFromOffsets(type, {0, 2}, entries),
                "map<string, int32> array: the entries struct has 1 null(s); map entries must not "
                "be null");
  // With an unknown null count only the full check counts.
  auto unknown = std::make_shared<ArrayData>(*entries);
  unknown->null_count = kUnknownNullCount;
  ExpectFullInvalid(*ListArrayFromOffsets(type, {0, 2}, unknown), "the entries struct has 1 null");
  // Null keys.
  auto null_keys = StringArrayFromVector({"a", "b"}, {true, false});
  auto entries_null_keys = StructArrayFromChildren(entries_type, 2, {null_keys, items});
  ExpectInvalid(*ListArrayFromOffsets(type, {0, 2}, entries_null_keys),
                "the keys have 1 null(s); map keys must not be null");
  null_keys->null_count = kUnknownNullCount;
  ExpectFullInvalid(*ListArrayFromOffsets(type, {0, 2}, entries_null_keys), "the keys have 1");
  // The entries array must have its 2 children.
  auto one_child = StructArrayFromChildren(entries_type, 2, {keys});
  ExpectInvalid(*ListArrayFromOffsets(type, {0, 2}, one_child),
                "child 0 (field 'entries'): struct<key: string not null, value: int32> array: "
                "expected 2 child arrays, got 1");
  // Entries of another struct type.
  auto wrong = StructArrayFromChildren(struct_({field("k", utf8()), field("v", int32())}), 2,
                                       {keys, items});
  ExpectInvalid(*ListArrayFromOffsets(type, {0, 2}, wrong), "the entries type is");
}

// ---- Dictionaries -------------------------------------------------------------------

TEST(ValidateTest, DictionaryPresenceAndType) {
  auto type = dictionary(int32(), utf8());
  auto dict = StringArrayFromVector({"x", "y"});
  auto data = DictionaryArrayFromIndices(type, {0, 1}, dict);
  ExpectValid(*data);
  data->dictionary = nullptr;
  ExpectInvalid(*data, "the dictionary is missing");
  data->dictionary = ArrayFromVector<int32_t>(int32(), {1, 2});
  ExpectInvalid(*data, "the dictionary has type int32, the value type is string");
  auto plain = ArrayFromVector<int32_t>(int32(), {1});
  plain->dictionary = dict;
  ExpectInvalid(*plain, "int32 array: has a dictionary but is not dictionary-encoded");
  auto bad_index_type = std::make_shared<DictionaryType>(utf8(), utf8(), false);
  ExpectInvalid(ArrayData(bad_index_type, 0, {nullptr, nullptr}, 0),
                "the index type must be an integer type");
  auto with_children = ArrayFromVector<int32_t>(int32(), {1});
  with_children->children.push_back(plain);
  ExpectInvalid(*with_children, "expected 0 child arrays, got 1");
}

TEST(ValidateTest, DictionaryIndices) {
  auto dict = StringArrayFromVector({"x", "y", "z"});
  ExpectFullInvalid(*DictionaryArrayFromIndices(dictionary(int8(), utf8()), {0, 3}, dict),
                    "dictionary<values=string, indices=int8, ordered=0> array: index 3 at slot 1 "
                    "is out of bounds of the dictionary of length 3");
  ExpectFullInvalid(*DictionaryArrayFromIndices(dictionary(int64(), utf8()), {-1}, dict),
                    "index -1 at slot 0 is out of bounds");
  ExpectFullInvalid(*DictionaryArrayFromIndices(dictionary(uint16(), utf8()), {2, 65535}, dict),
                    "index 65535 at slot 1");
  auto huge = DictionaryArrayFromIndices(dictionary(uint64(), utf8()), {0}, dict);
  huge->buffers[1] = BufferFromValues(std::vector<uint64_t>{~uint64_t{0}});
  ExpectFullInvalid(*huge, "index 18446744073709551615 at slot 0");
  // Null slots may hold any index.
  ExpectValid(*DictionaryArrayFromIndices(dictionary(int8(), utf8()), {0, -7, 2}, dict,
                                          {true, false, true}));
  // Index buffer too small.
  auto small = DictionaryArrayFromIndices(dictionary(int32(), utf8()), {0, 1}, dict);
  small->length = 3;
  ExpectInvalid(*small, "indices buffer has 8 bytes, needs 12");
  small->buffers[1] = nullptr;
  ExpectInvalid(*small, "the indices buffer is missing");
  // The dictionary is validated too.
  auto bad_dict = StringArrayFromVector({"x", "\xff"});
  ExpectFullInvalid(*DictionaryArrayFromIndices(dictionary(int8(), utf8()), {0}, bad_dict),
                    "dictionary: string array: invalid UTF-8 at slot 1");
}

// ---- Robustness -------------------------------------------------------------------

// Copies of `data` (recursively) with one random corruption each: a buffer
// truncated, a byte flipped, an offset/length/null count changed. Whatever
// the corruption, validation must not crash (ASan/UBSan watch), and what
// ValidateFull accepts must be safe to compare and print.
class Corrupter {
 public:
  explicit Corrupter(uint32_t seed) : rng_(seed) {}

  ArrayDataPtr Corrupt(const ArrayData& data) {
    std::vector<ArrayData*> nodes;
    auto copy = DeepCopy(data, &nodes);
    ArrayData* node = nodes[Pick(nodes.size())];
    switch (Pick(6)) {
      case 0:
        node->length += static_cast<int64_t>(Pick(5)) - 2;
        break;
      case 1:
        node->offset += static_cast<int64_t>(Pick(5)) - 2;
        break;
      case 2:
        node->null_count = static_cast<int64_t>(Pick(6)) - 2;
        break;
      default: {
        if (node->buffers.empty()) break;
        auto& buffer = node->buffers[Pick(node->buffers.size())];
        if (buffer == nullptr || buffer->size() == 0) {
          buffer = nullptr;
          break;
        }
        std::vector<uint8_t> bytes(buffer->data(), buffer->data() + buffer->size());
        if (Pick(2) == 0) {
          bytes.resize(Pick(bytes.size()));
        } else {
          bytes[Pick(bytes.size())] ^= static_cast<uint8_t>(1u << Pick(8));
          if (Pick(2) == 0) bytes[Pick(bytes.size())] = 0xFF;
        }
        buffer = testutil::MakeBuffer(bytes.data(), static_cast<int64_t>(bytes.size()));
      }
    }
    return copy;
  }

 private:
  size_t Pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  ArrayDataPtr DeepCopy(const ArrayData& data, std::vector<ArrayData*>* nodes) {
    auto copy = std::make_shared<ArrayData>(data);
    nodes->push_back(copy.get());
    for (auto& child : copy->children) {
      if (child) child = DeepCopy(*child, nodes);
    }
    if (copy->dictionary) copy->dictionary = DeepCopy(*copy->dictionary, nodes);
    return copy;
  }

  std::mt19937 rng_;
};

TEST(ValidateTest, CorruptedArraysNeverCrash) {
  auto struct_type = struct_({field("s", utf8()), field("v", utf8_view())});
  auto map_type = map(utf8(), int32());
  std::vector<ArrayDataPtr> samples = {
      StringArrayFromVector({"a", "\xc3\xa9", "", "long enough value"}, {true, true, false, true}),
      StringArrayFromVector({"ab", "cd"}, {}, large_utf8()),
      BinaryViewArrayFromVector({"x", "a value longer than twelve bytes", "yy"},
                                {true, false, true}),
      ListArrayFromOffsets(list(utf8()), {0, 1, 1, 3},
                           StringArrayFromVector({"p", "q", "r"}), {true, false, true}),
      FixedSizeListArrayFromChild(fixed_size_list(int16(), 2), 2,
                                  ArrayFromVector<int16_t>(int16(), {1, 2, 3, 4})),
      StructArrayFromChildren(struct_type, 2,
                              {StringArrayFromVector({"a", "b"}),
                               BinaryViewArrayFromVector({"c", "a long view value, > 12"})},
                              {false, true}),
      ListArrayFromOffsets(map_type, {0, 2, 3},
                           StructArrayFromChildren(map_type->field(0)->type(), 3,
                                                   {StringArrayFromVector({"k", "l", "m"}),
                                                    ArrayFromVector<int32_t>(int32(), {1, 2, 3})})),
      DictionaryArrayFromIndices(dictionary(int16(), utf8()), {2, 0, 1, 1},
                                 StringArrayFromVector({"x", "y", "z"}), {true, true, false, true}),
      BooleanArrayFromVector({true, false, true, true, false, true, false, false, true}),
      ArrayFromVector<double>(float64(), {1, 2, 3}, {true, false, true}),
  };
  int accepted = 0;
  int structurally_valid_only = 0;  // Validate OK, ValidateFull not
  for (uint32_t seed = 0; seed < 3000; ++seed) {
    Corrupter corrupter(seed);
    const ArrayData& sample = *samples[seed % samples.size()];
    auto bad = corrupter.Corrupt(sample);
    for (uint32_t more = seed % 3; more > 0; --more) bad = corrupter.Corrupt(*bad);
    const Status cheap = ValidateArray(*bad);
    const Status full = ValidateArrayFull(*bad);
    if (!cheap.ok()) {
      EXPECT_TRUE(cheap.IsInvalid()) << cheap.ToString();
      EXPECT_FALSE(full.ok()) << "seed " << seed;
    }
    // Printing only needs the structural checks.
    const std::string text = MakeArray(bad)->ToString();
    EXPECT_FALSE(text.empty());
    if (full.ok()) {
      ++accepted;
      (void)ArrayEquals(*bad, sample);
      EXPECT_TRUE(ArrayEquals(*bad, ArrayData(*bad), EqualOptions{.nans_equal = true}));
    } else {
      EXPECT_TRUE(full.IsInvalid()) << full.ToString();
      structurally_valid_only += cheap.ok();
    }
  }
  // Some corruptions are harmless (e.g. a flipped bit in a value).
  EXPECT_GT(accepted, 100);
  EXPECT_GT(structurally_valid_only, 100);
  std::printf("corrupted arrays: %d accepted, %d structurally valid only, of 3000\n", accepted,
              structurally_valid_only);
}

TEST(ValidateTest, ArrayMembers) {
  auto good = MakeArray(StringArrayFromVector({"a", "b"}));
  EXPECT_TRUE(good->Validate().ok());
  EXPECT_TRUE(good->ValidateFull().ok());
  auto bad = MakeArray(StringArrayFromVector({"a", "\xff"}));
  EXPECT_TRUE(bad->Validate().ok());
  EXPECT_TRUE(bad->ValidateFull().IsInvalid());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

// MakeArrayOfNulls for every fixed-width type, fixed_size_binary(0) included
// (its values buffer is empty: zero bytes a value).
TEST(MakeArrayOfNullsTest, FixedWidthTypesIncludingZeroWidthBinary) {
  for (const TypePtr& type : {int8(), int64(), float64(), boolean(), fixed_size_binary(16),
                              fixed_size_binary(0)}) {
    for (int64_t length : {0, 1, 65}) {
      Result<ArrayDataPtr> made = MakeArrayOfNulls(type, length);
      ASSERT_TRUE(made.ok()) << type->ToString() << ": " << made.status().ToString();
      const ArrayDataPtr& data = *made;
      EXPECT_EQ(data->length, length) << type->ToString();
      EXPECT_EQ(data->GetNullCount(), length) << type->ToString();
      EXPECT_TRUE(MakeArray(data)->ValidateFull().ok()) << type->ToString();
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
