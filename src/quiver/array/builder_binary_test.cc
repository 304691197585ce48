// Tests of the variable-width binary builders (builder_binary.h).
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_test_util_internal.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using buildertest::Aligned64;
using buildertest::AtZeroSizeArea;
using buildertest::FinishAs;

template <typename BuilderT>
class BaseBinaryBuilderTest : public ::testing::Test {};

using BinaryBuilderTypes =
    ::testing::Types<BinaryBuilder, StringBuilder, LargeBinaryBuilder, LargeStringBuilder>;
TYPED_TEST_SUITE(BaseBinaryBuilderTest, BinaryBuilderTypes);

TYPED_TEST(BaseBinaryBuilderTest, ValuesNullsAndOffsets) {
  using OffsetT = typename TypeParam::offset_type;
  using ArrayT = BaseBinaryArray<OffsetT>;
  TypeParam b;
  BASSERT_OK(b.Append("hello"));
  BASSERT_OK(b.AppendNull());
  BASSERT_OK(b.Append(""));
  BASSERT_OK(b.Append(std::string("a\0b", 3)));
  BASSERT_OK(b.AppendEmptyValue());
  BASSERT_OK(b.AppendNulls(2));
  BASSERT_OK(b.Append("world!"));
  EXPECT_EQ(b.GetView(0), "hello");
  EXPECT_EQ(b.GetView(7), "world!");
  EXPECT_EQ(b.value_data_length(), 14);
  auto a = FinishAs<ArrayT>(b);
  ASSERT_EQ(a->length(), 8);
  EXPECT_EQ(a->null_count(), 3);
  const std::vector<OffsetT> expected_offsets = {0, 5, 5, 5, 8, 8, 8, 8, 14};
  ASSERT_EQ(a->data()->buffers[1]->size(), static_cast<int64_t>(9 * sizeof(OffsetT)));
  for (size_t i = 0; i < expected_offsets.size(); ++i) {
    EXPECT_EQ(a->raw_value_offsets()[i], expected_offsets[i]) << i;
  }
  EXPECT_EQ(a->GetView(0), "hello");
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_EQ(a->GetView(2), "");
  EXPECT_EQ(a->GetView(3), std::string("a\0b", 3));
  EXPECT_TRUE(a->IsValid(4));
  EXPECT_EQ(a->GetView(4), "");
  EXPECT_TRUE(a->IsNull(5));
  EXPECT_TRUE(a->IsNull(6));
  EXPECT_EQ(a->GetView(7), "world!");
  EXPECT_EQ(a->data()->buffers[2]->size(), 14);
  EXPECT_TRUE(Aligned64(a->data()->buffers[1]));
  EXPECT_TRUE(Aligned64(a->data()->buffers[2]));
  EXPECT_TRUE(a->type()->Equals(*b.type()));
}

TYPED_TEST(BaseBinaryBuilderTest, EmptyArray) {
  using OffsetT = typename TypeParam::offset_type;
  TypeParam b;
  BASSIGN(ArrayDataPtr data, b.Finish());
  EXPECT_EQ(data->length, 0);
  EXPECT_EQ(data->null_count, 0);
  ASSERT_EQ(data->buffers.size(), 3u);
  EXPECT_EQ(data->buffers[0], nullptr);
  // One offset (0), as the format requires length + 1 offsets.
  ASSERT_EQ(data->buffers[1]->size(), static_cast<int64_t>(sizeof(OffsetT)));
  EXPECT_EQ(data->buffers[1]->data_as<OffsetT>()[0], 0);
  EXPECT_TRUE(AtZeroSizeArea(data->buffers[2]));
}

TYPED_TEST(BaseBinaryBuilderTest, AllNulls) {
  using OffsetT = typename TypeParam::offset_type;
  TypeParam b;
  BASSERT_OK(b.AppendNulls(5));
  BASSERT_OK(b.AppendNull());
  BASSIGN(ArrayDataPtr data, b.Finish());
  EXPECT_EQ(data->length, 6);
  EXPECT_EQ(data->null_count, 6);
  for (int i = 0; i <= 6; ++i) EXPECT_EQ(data->buffers[1]->data_as<OffsetT>()[i], 0);
  EXPECT_TRUE(AtZeroSizeArea(data->buffers[2]));
  EXPECT_EQ(data->buffers[0]->data()[0], 0);
}

TYPED_TEST(BaseBinaryBuilderTest, ReserveThenUnsafeAppendAndReuse) {
  using ArrayT = BaseBinaryArray<typename TypeParam::offset_type>;
  TypeParam b;
  std::vector<std::string> values;
  int64_t bytes = 0;
  for (int i = 0; i < 500; ++i) {
    values.push_back(std::string(static_cast<size_t>(i % 17), static_cast<char>('a' + i % 26)));
    bytes += i % 17;
  }
  BASSERT_OK(b.Reserve(500));
  BASSERT_OK(b.ReserveData(bytes));
  for (int i = 0; i < 500; ++i) {
    if (i % 11 == 0) {
      b.UnsafeAppendNull();
    } else {
      b.UnsafeAppend(values[static_cast<size_t>(i)]);
    }
  }
  auto a = FinishAs<ArrayT>(b);
  ASSERT_EQ(a->length(), 500);
  for (int i = 0; i < 500; ++i) {
    if (i % 11 == 0) {
      ASSERT_TRUE(a->IsNull(i));
      ASSERT_EQ(a->value_length(i), 0);
    } else {
      ASSERT_EQ(a->GetView(i), values[static_cast<size_t>(i)]) << i;
    }
  }
  // Second round, independent of the first.
  BASSERT_OK(b.Append("x"));
  auto again = FinishAs<ArrayT>(b);
  ASSERT_EQ(again->length(), 1);
  EXPECT_EQ(again->GetView(0), "x");
  EXPECT_EQ(again->null_bitmap_data(), nullptr);
  EXPECT_EQ(a->GetView(1), values[1]);
}

TYPED_TEST(BaseBinaryBuilderTest, BulkAppends) {
  using OffsetT = typename TypeParam::offset_type;
  using ArrayT = BaseBinaryArray<OffsetT>;
  TypeParam b;
  const std::vector<uint8_t> valid = {1, 0, 1};
  BASSERT_OK(b.AppendValues(std::vector<std::string>{"ab", "ignored", "cde"}, valid.data()));
  BASSERT_OK(b.AppendValues(std::vector<std::string_view>{"f", "gh"}));
  // Arrow-style offsets with a non-zero base.
  const std::string data = "XXpqrstu";
  const std::vector<OffsetT> offsets = {2, 4, 4, 8};
  BASSERT_OK(b.AppendValues(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), 3));
  const std::vector<OffsetT> bad = {3, 1};
  EXPECT_TRUE(b.AppendValues(bad.data(), reinterpret_cast<const uint8_t*>(data.data()), 1)
                  .IsInvalid());
  auto a = FinishAs<ArrayT>(b);
  ASSERT_EQ(a->length(), 8);
  EXPECT_EQ(a->GetView(0), "ab");
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_EQ(a->value_length(1), 0);  // nulls take no bytes
  EXPECT_EQ(a->GetView(2), "cde");
  EXPECT_EQ(a->GetView(3), "f");
  EXPECT_EQ(a->GetView(4), "gh");
  EXPECT_EQ(a->GetView(5), "pq");
  EXPECT_EQ(a->GetView(6), "");
  EXPECT_EQ(a->GetView(7), "rstu");
  EXPECT_EQ(a->null_count(), 1);
}

TYPED_TEST(BaseBinaryBuilderTest, DataLimitIsACapacityError) {
  TypeParam b;
  EXPECT_EQ(b.max_data_length(), std::numeric_limits<typename TypeParam::offset_type>::max());
  b.set_max_data_length_for_testing(10);
  BASSERT_OK(b.Append("12345"));
  BASSERT_OK(b.Append("67890"));  // exactly at the limit
  Status st = b.Append("!");
  EXPECT_TRUE(st.IsCapacityError()) << st.ToString();
  EXPECT_NE(st.message().find("more than 10 bytes"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("slot 2"), std::string::npos) << st.message();
  EXPECT_TRUE(b.AppendValues(std::vector<std::string>{"a"}).IsCapacityError());
  EXPECT_TRUE(b.ReserveData(-1).IsInvalid());
  EXPECT_EQ(b.length(), 2);  // the failed appends left nothing behind
  BASSERT_OK(b.AppendNull());  // nulls take no bytes
  BASSERT_OK(b.Append(""));
  auto a = FinishAs<BaseBinaryArray<typename TypeParam::offset_type>>(b);
  ASSERT_EQ(a->length(), 4);
  EXPECT_EQ(a->GetView(1), "67890");
}

TEST(BinaryBuilder, ThirtyTwoBitLimitMessage) {
  StringBuilder b;
  EXPECT_EQ(StringBuilder::kMaxDataLength, 2147483647);
  EXPECT_EQ(LargeStringBuilder::kMaxDataLength, std::numeric_limits<int64_t>::max());
  // Asking for more than 2^31 - 1 bytes fails before allocating anything.
  Status st = b.ReserveData(int64_t{1} << 31);
  ASSERT_TRUE(st.IsCapacityError()) << st.ToString();
  EXPECT_NE(st.message().find("2147483647"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("32-bit offsets"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("string"), std::string::npos) << st.message();
}

// --- BinaryViewBuilder -------------------------------------------------------

struct View {
  int32_t length;
  std::string inline_or_prefix;
  int32_t buffer_index;
  int32_t offset;
};

View ReadView(const BinaryViewArray& a, int64_t i) {
  const uint8_t* v = a.raw_views() + i * 16;
  View out;
  std::memcpy(&out.length, v, 4);
  if (out.length <= 12) {
    out.inline_or_prefix.assign(reinterpret_cast<const char*>(v + 4), 12);
    out.buffer_index = out.offset = -1;
  } else {
    out.inline_or_prefix.assign(reinterpret_cast<const char*>(v + 4), 4);
    std::memcpy(&out.buffer_index, v + 8, 4);
    std::memcpy(&out.offset, v + 12, 4);
  }
  return out;
}

TEST(BinaryViewBuilder, InlineAndOutOfLineValues) {
  BinaryViewBuilder b(utf8_view());
  const std::string twelve = "123456789012";
  const std::string thirteen = "abcdefghijklm";
  const std::string long_value(100, 'z');
  BASSERT_OK(b.Append("hi"));
  BASSERT_OK(b.Append(twelve));
  BASSERT_OK(b.AppendNull());
  BASSERT_OK(b.Append(thirteen));
  BASSERT_OK(b.Append(""));
  BASSERT_OK(b.Append(long_value));
  EXPECT_EQ(b.GetView(3), thirteen);
  EXPECT_EQ(b.num_data_blocks(), 1);
  auto a = FinishAs<BinaryViewArray>(b);
  ASSERT_EQ(a->length(), 6);
  EXPECT_EQ(a->null_count(), 1);
  EXPECT_TRUE(a->type()->Equals(*utf8_view()));
  ASSERT_EQ(a->num_data_buffers(), 1);
  EXPECT_EQ(a->data()->buffers[2]->size(), 113);
  EXPECT_EQ(a->GetView(0), "hi");
  EXPECT_EQ(a->GetView(1), twelve);
  EXPECT_TRUE(a->IsNull(1 + 1));
  EXPECT_EQ(a->GetView(3), thirteen);
  EXPECT_EQ(a->GetView(4), "");
  EXPECT_EQ(a->GetView(5), long_value);

  View v = ReadView(*a, 0);
  EXPECT_EQ(v.length, 2);
  EXPECT_EQ(v.inline_or_prefix, std::string("hi") + std::string(10, '\0'));  // zero padded
  v = ReadView(*a, 1);
  EXPECT_EQ(v.length, 12);
  EXPECT_EQ(v.inline_or_prefix, twelve);
  v = ReadView(*a, 2);  // null: all zero
  EXPECT_EQ(v.length, 0);
  EXPECT_EQ(v.inline_or_prefix, std::string(12, '\0'));
  v = ReadView(*a, 3);
  EXPECT_EQ(v.length, 13);
  EXPECT_EQ(v.inline_or_prefix, "abcd");
  EXPECT_EQ(v.buffer_index, 0);
  EXPECT_EQ(v.offset, 0);
  v = ReadView(*a, 5);
  EXPECT_EQ(v.length, 100);
  EXPECT_EQ(v.inline_or_prefix, "zzzz");
  EXPECT_EQ(v.buffer_index, 0);
  EXPECT_EQ(v.offset, 13);
}

TEST(BinaryViewBuilder, EmptyAndAllInline) {
  BinaryViewBuilder b;
  EXPECT_TRUE(b.type()->Equals(*binary_view()));
  BASSIGN(ArrayDataPtr data, b.Finish());
  EXPECT_EQ(data->length, 0);
  ASSERT_EQ(data->buffers.size(), 2u);  // no data buffers at all
  EXPECT_EQ(data->buffers[0], nullptr);
  EXPECT_TRUE(AtZeroSizeArea(data->buffers[1]));

  BASSERT_OK(b.AppendValues(std::vector<std::string>{"a", "bb", "ccc"},
                            std::vector<uint8_t>{1, 0, 1}.data()));
  BASSERT_OK(b.AppendNulls(2));
  BASSERT_OK(b.AppendEmptyValues(2));
  auto a = FinishAs<BinaryViewArray>(b);
  ASSERT_EQ(a->length(), 7);
  EXPECT_EQ(a->num_data_buffers(), 0);
  EXPECT_EQ(a->null_count(), 3);
  EXPECT_EQ(a->GetView(0), "a");
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_EQ(a->GetView(2), "ccc");
  EXPECT_EQ(a->GetView(5), "");
  EXPECT_TRUE(a->IsValid(6));
}

TEST(BinaryViewBuilder, NewBlocksPastTheBlockSize) {
  BinaryViewBuilder b;
  std::vector<std::string> values;
  for (int i = 0; i < 6000; ++i) {
    // 20..59 bytes, distinct contents.
    std::string v = std::to_string(i) + ":" + std::string(static_cast<size_t>(20 + i % 40), 'q');
    values.push_back(v);
    BASSERT_OK(b.Append(v));
  }
  // One value bigger than the biggest block gets a block of its own.
  const std::string huge(BinaryViewBuilder::kMaxBlockSize + 10, 'H');
  BASSERT_OK(b.Append(huge));
  BASSERT_OK(b.Append("after the huge one, out of line"));
  auto a = FinishAs<BinaryViewArray>(b);
  ASSERT_EQ(a->length(), 6002);
  EXPECT_GE(a->num_data_buffers(), 4);
  // Block sizes: the first within 32 KiB, none past 1 MiB except the block
  // made for the huge value (whose spare room may take the next values);
  // every block holds data.
  int64_t total = 0;
  int oversized = 0;
  for (int64_t i = 0; i < a->num_data_buffers(); ++i) {
    const auto& buf = a->data()->buffers[static_cast<size_t>(2 + i)];
    ASSERT_GT(buf->size(), 0);
    if (buf->size() > BinaryViewBuilder::kMaxBlockSize) {
      ++oversized;
      EXPECT_GE(buf->size(), static_cast<int64_t>(huge.size()));
    }
    total += buf->size();
  }
  EXPECT_EQ(oversized, 1);
  EXPECT_LE(a->data()->buffers[2]->size(), BinaryViewBuilder::kInitialBlockSize);
  for (int i = 0; i < 6000; ++i) ASSERT_EQ(a->GetView(i), values[static_cast<size_t>(i)]) << i;
  EXPECT_EQ(a->GetView(6000), huge);
  EXPECT_EQ(a->GetView(6001), "after the huge one, out of line");
  int64_t expected_total = static_cast<int64_t>(huge.size()) + 31;
  for (const auto& v : values) expected_total += static_cast<int64_t>(v.size());
  EXPECT_EQ(total, expected_total);
  // Views never point past their block.
  for (int64_t i = 0; i < a->length(); ++i) {
    View v = ReadView(*a, i);
    if (v.length <= 12) continue;
    ASSERT_GE(v.buffer_index, 0);
    ASSERT_LT(v.buffer_index, a->num_data_buffers());
    ASSERT_LE(int64_t{v.offset} + v.length,
              a->data()->buffers[static_cast<size_t>(2 + v.buffer_index)]->size());
  }
}

TEST(BinaryViewBuilder, ReserveDataThenUnsafeAppend) {
  BinaryViewBuilder b(binary_view());
  const std::vector<std::string> values = {"short", "a value longer than twelve", "tiny",
                                           "another long-ish value"};
  BASSERT_OK(b.Reserve(4));
  BASSERT_OK(b.ReserveData(26 + 22));
  EXPECT_EQ(b.num_data_blocks(), 0);  // reserved, but nothing written yet
  for (const auto& v : values) b.UnsafeAppend(v);
  b.UnsafeAppendNull();
  EXPECT_EQ(b.num_data_blocks(), 1);
  auto a = FinishAs<BinaryViewArray>(b);
  ASSERT_EQ(a->length(), 5);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(a->GetView(static_cast<int64_t>(i)), values[i]);
  }
  EXPECT_TRUE(a->IsNull(4));
  EXPECT_EQ(a->data()->buffers[2]->size(), 48);
}

TEST(BinaryViewBuilder, LimitsAndReuse) {
  BinaryViewBuilder b;
  Status st = b.ReserveData(int64_t{1} << 31);
  EXPECT_TRUE(st.IsCapacityError()) << st.ToString();
  EXPECT_NE(st.message().find("2147483647"), std::string::npos) << st.message();
  EXPECT_TRUE(b.ReserveData(-3).IsInvalid());
  BASSERT_OK(b.Append("first round, long value"));
  auto first = FinishAs<BinaryViewArray>(b);
  BASSERT_OK(b.Append("second round, long value"));
  auto second = FinishAs<BinaryViewArray>(b);
  EXPECT_EQ(first->GetView(0), "first round, long value");
  EXPECT_EQ(second->GetView(0), "second round, long value");
  EXPECT_EQ(ReadView(*second, 0).buffer_index, 0);
  EXPECT_EQ(second->num_data_buffers(), 1);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
