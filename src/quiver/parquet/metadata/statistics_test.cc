// Statistics decoded from footer structs built by hand: the values each
// rule of statistics.h gives, against values known by construction.
#include "quiver/parquet/metadata/statistics.h"

#include <cstring>

#include <gtest/gtest.h>

#include "quiver/parquet/metadata/page_index_internal.h"
#include "quiver/parquet/metadata/statistics_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using format::ConvertedType;

format::SchemaElement Leaf(format::Type type, int32_t length = 0) {
  format::SchemaElement e;
  e.name = "c";
  e.type = type;
  if (length > 0) e.type_length = length;
  e.repetition_type = format::FieldRepetitionType::kOptional;
  return e;
}

SchemaDescriptor Schema(const format::SchemaElement& leaf) {
  format::SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  auto d = SchemaDescriptor::Make(std::vector<format::SchemaElement>{root, leaf});
  EXPECT_TRUE(d.ok()) << d.status().ToString();
  return *std::move(d);
}

template <typename T>
std::string Plain(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

format::Statistics Bounds(std::string lo, std::string hi, bool legacy = false) {
  format::Statistics s;
  if (legacy) {
    s.min = std::move(lo);
    s.max = std::move(hi);
  } else {
    s.min_value = std::move(lo);
    s.max_value = std::move(hi);
  }
  s.null_count = 2;
  return s;
}

const ApplicationVersion kArrow("parquet-cpp-arrow version 26.0.0");

Statistics Decode(const format::SchemaElement& leaf, const format::Statistics& s,
                  std::optional<bool> type_order = true,
                  const ApplicationVersion& writer = kArrow) {
  auto d = Schema(leaf);
  auto out = DecodeStatistics(s, d, 0, 10, type_order, writer);
  EXPECT_TRUE(out.has_value());
  return out.value_or(Statistics());
}

format::LogicalType IntLogical(int bits, bool is_signed) {
  format::LogicalType t;
  t.integer.emplace();
  t.integer->bit_width = static_cast<int8_t>(bits);
  t.integer->is_signed = is_signed;
  return t;
}

TEST(ApplicationVersion, ParsesCreatedBy) {
  ApplicationVersion a("parquet-mr version 1.10.1-SNAPSHOT (build abc)");
  EXPECT_EQ(a.application(), "parquet-mr");
  EXPECT_EQ(a.major(), 1);
  EXPECT_EQ(a.minor(), 10);
  EXPECT_EQ(a.patch(), 1);
  EXPECT_FALSE(a.OlderThan("parquet-mr", 1, 10, 0));
  EXPECT_TRUE(a.OlderThan("parquet-mr", 1, 10, 2));
  EXPECT_FALSE(a.OlderThan("parquet-cpp", 9, 0, 0));
  ApplicationVersion b("  Impala");
  EXPECT_EQ(b.application(), "impala");
  EXPECT_EQ(b.major(), 0);
  EXPECT_EQ(ApplicationVersion("").application(), "unknown");
  EXPECT_EQ(ApplicationVersion("parquet-cpp version 1.2").minor(), 2);
}

TEST(ApplicationVersion, TrustsStatisticsAsArrowDoes) {
  const ApplicationVersion old_mr("parquet-mr version 1.9.0");
  EXPECT_TRUE(old_mr.HasCorrectStatistics(PhysicalType::kInt32, SortOrder::kSigned, false));
  EXPECT_FALSE(old_mr.HasCorrectStatistics(PhysicalType::kInt32, SortOrder::kUnsigned, false));
  EXPECT_TRUE(old_mr.HasCorrectStatistics(PhysicalType::kInt32, SortOrder::kUnsigned, true));
  EXPECT_TRUE(old_mr.HasCorrectStatistics(PhysicalType::kByteArray, SortOrder::kSigned, false));
  const ApplicationVersion older_mr("parquet-mr version 1.7.0");
  EXPECT_FALSE(older_mr.HasCorrectStatistics(PhysicalType::kByteArray, SortOrder::kSigned, false));
  EXPECT_TRUE(kArrow.HasCorrectStatistics(PhysicalType::kByteArray, SortOrder::kUnsigned, false));
  EXPECT_TRUE(ApplicationVersion().HasCorrectStatistics(PhysicalType::kByteArray,
                                                        SortOrder::kUnsigned, false));
}

TEST(Statistics, PlainIntegers) {
  auto s = Decode(Leaf(format::Type::kInt32), Bounds(Plain<int32_t>(-5), Plain<int32_t>(7)));
  ASSERT_TRUE(s.has_min_max());
  EXPECT_EQ(s.min(), *Scalar::MakeInt(int32(), -5));
  EXPECT_EQ(s.max(), *Scalar::MakeInt(int32(), 7));
  EXPECT_EQ(s.min_physical(), s.min());
  EXPECT_EQ(s.sort_order(), SortOrder::kSigned);
  EXPECT_EQ(s.null_count(), 2);
  EXPECT_EQ(s.num_values(), 8);
  EXPECT_FALSE(s.distinct_count().has_value());
  EXPECT_FALSE(s.is_min_value_exact().has_value());
}

TEST(Statistics, IntLogicalTypesCutAndSign) {
  auto leaf = Leaf(format::Type::kInt32);
  leaf.logical_type = IntLogical(8, true);
  auto s = Decode(leaf, Bounds(Plain<int32_t>(-128), Plain<int32_t>(0x17F)));
  EXPECT_EQ(s.min(), *Scalar::MakeInt(int8(), -128));
  EXPECT_EQ(s.max(), *Scalar::MakeInt(int8(), 127));  // cut to 8 bits
  leaf.logical_type = IntLogical(32, false);
  s = Decode(leaf, Bounds(Plain<int32_t>(1), Plain<int32_t>(-1)));
  EXPECT_EQ(s.sort_order(), SortOrder::kUnsigned);
  EXPECT_EQ(s.max(), *Scalar::MakeUInt(uint32(), 4294967295u));
  EXPECT_EQ(s.max_physical(), *Scalar::MakeInt(int32(), -1));
  auto leaf64 = Leaf(format::Type::kInt64);
  leaf64.converted_type = ConvertedType::kUint64;
  s = Decode(leaf64, Bounds(Plain<int64_t>(0), Plain<int64_t>(-1)));
  EXPECT_EQ(s.max(), *Scalar::MakeUInt(uint64(), UINT64_MAX));
}

TEST(Statistics, LegacyFieldsOnlyInSignedOrder) {
  // No column order: the legacy min / max count for a signed column ...
  auto s = Decode(Leaf(format::Type::kInt64),
                  Bounds(Plain<int64_t>(1), Plain<int64_t>(9), /*legacy=*/true), std::nullopt);
  ASSERT_TRUE(s.has_min_max());
  EXPECT_EQ(s.max(), Scalar::MakeInt64(9));
  // ... and not for an unsigned one, whose legacy bounds are in signed order.
  auto leaf = Leaf(format::Type::kInt32);
  leaf.converted_type = ConvertedType::kUint32;
  s = Decode(leaf, Bounds(Plain<int32_t>(-1), Plain<int32_t>(1), true), std::nullopt);
  EXPECT_FALSE(s.has_min_max());
  EXPECT_FALSE(s.min().is_valid());
  EXPECT_EQ(s.null_count(), 2);
  // min_value / max_value without a column order are not taken either.
  s = Decode(Leaf(format::Type::kInt64), Bounds(Plain<int64_t>(1), Plain<int64_t>(9)),
             std::nullopt);
  EXPECT_FALSE(s.has_min_max());
  // Another column order (IEEE 754 total order): no bounds.
  s = Decode(Leaf(format::Type::kDouble), Bounds(Plain(1.0), Plain(2.0)), false);
  EXPECT_FALSE(s.has_min_max());
  // Under TYPE_ORDER the legacy fields are not read.
  s = Decode(Leaf(format::Type::kInt64), Bounds(Plain<int64_t>(1), Plain<int64_t>(9), true));
  EXPECT_FALSE(s.has_min_max());
}

TEST(Statistics, Int96IsNeverTrusted) {
  auto s = Decode(Leaf(format::Type::kInt96), Bounds(std::string(12, '\0'), std::string(12, '\1')));
  EXPECT_EQ(s.sort_order(), SortOrder::kUnknown);
  EXPECT_FALSE(s.has_min_max());
  EXPECT_EQ(s.bound_type(), nullptr);
}

TEST(Statistics, UntrustedWritersDropStatistics) {
  auto leaf = Leaf(format::Type::kByteArray);
  auto d = Schema(leaf);
  auto st = Bounds("a", "b");
  EXPECT_FALSE(DecodeStatistics(st, d, 0, 10, true, ApplicationVersion("parquet-mr version 1.7.0"))
                   .has_value());
  // parquet-mr 1.9: unsigned order only when min == max.
  const ApplicationVersion mr19("parquet-mr version 1.9.0");
  EXPECT_FALSE(DecodeStatistics(st, d, 0, 10, true, mr19).has_value());
  auto same = DecodeStatistics(Bounds("a", "a"), d, 0, 10, true, mr19);
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(same->max(), Scalar::MakeBinary("a"));
}

TEST(Statistics, StringsBinaryAndExactness) {
  auto leaf = Leaf(format::Type::kByteArray);
  leaf.converted_type = ConvertedType::kUtf8;
  auto st = Bounds("apple", "pear");
  st.is_min_value_exact = true;
  st.is_max_value_exact = false;  // truncated
  auto s = Decode(leaf, st);
  EXPECT_EQ(s.sort_order(), SortOrder::kUnsigned);
  EXPECT_EQ(s.min(), Scalar::MakeString("apple"));
  EXPECT_EQ(s.max(), Scalar::MakeString("pear"));
  EXPECT_EQ(s.max_physical(), Scalar::MakeBinary("pear"));
  EXPECT_EQ(s.is_min_value_exact(), true);
  EXPECT_EQ(s.is_max_value_exact(), false);
  EXPECT_EQ(s.encoded_max(), "pear");
  // Invalid UTF-8 in a string bound: the bound is there, its string is not.
  s = Decode(leaf, Bounds("a", "\xff"));
  EXPECT_TRUE(s.has_min_max());
  EXPECT_EQ(s.min(), Scalar::MakeString("a"));
  EXPECT_FALSE(s.max().is_valid());
  EXPECT_EQ(s.max_physical(), Scalar::MakeBinary("\xff"));
  s = Decode(Leaf(format::Type::kByteArray), Bounds(std::string("\0", 1), "\xff"));
  EXPECT_EQ(s.max(), Scalar::MakeBinary("\xff"));
  s = Decode(Leaf(format::Type::kFixedLenByteArray, 3), Bounds("abc", "abd"));
  EXPECT_EQ(s.min().type()->ToString(), "fixed_size_binary[3]");
  EXPECT_EQ(s.min().bytes(), "abc");
  EXPECT_FALSE(Decode(Leaf(format::Type::kFixedLenByteArray, 3), Bounds("ab", "abd")).has_min_max());
  // More digits than the decimal's precision: a null typed bound.
  auto dec = Leaf(format::Type::kInt32);
  dec.converted_type = ConvertedType::kDecimal;
  dec.precision = 2;
  dec.scale = 0;
  s = Decode(dec, Bounds(Plain<int32_t>(5), Plain<int32_t>(100)));
  EXPECT_TRUE(s.has_min_max());
  EXPECT_EQ(s.min().ToString(), "5");
  EXPECT_FALSE(s.max().is_valid());
}

TEST(Statistics, Decimals) {
  auto leaf = Leaf(format::Type::kFixedLenByteArray, 5);
  leaf.converted_type = ConvertedType::kDecimal;
  leaf.precision = 10;
  leaf.scale = 2;
  auto s = Decode(leaf, Bounds(std::string("\xff\xff\xff\xff\x85", 5), std::string("\x00\x00\x00\x30\x39", 5)));
  EXPECT_EQ(s.bound_type()->ToString(), "decimal128(10, 2)");
  EXPECT_EQ(s.min().ToString(), "-1.23");
  EXPECT_EQ(s.max().ToString(), "123.45");
  auto leaf32 = Leaf(format::Type::kInt32);
  format::LogicalType t;
  t.decimal.emplace();
  t.decimal->precision = 5;
  t.decimal->scale = 3;
  leaf32.logical_type = t;
  s = Decode(leaf32, Bounds(Plain<int32_t>(-1), Plain<int32_t>(99999)));
  EXPECT_EQ(s.min().ToString(), "-0.001");
  EXPECT_EQ(s.max().ToString(), "99.999");
  auto wide = Leaf(format::Type::kByteArray);
  t.decimal->precision = 40;
  t.decimal->scale = 0;
  wide.logical_type = t;
  s = Decode(wide, Bounds("\x80", "\x7f"));
  EXPECT_EQ(s.bound_type()->ToString(), "decimal256(40, 0)");
  EXPECT_EQ(s.min().ToString(), "-128");
}

TEST(Statistics, TemporalAndFloat16) {
  auto date = Leaf(format::Type::kInt32);
  date.converted_type = ConvertedType::kDate;
  auto s = Decode(date, Bounds(Plain<int32_t>(0), Plain<int32_t>(19753)));
  EXPECT_EQ(s.max().ToString(), "2024-01-31");
  auto ts = Leaf(format::Type::kInt64);
  format::LogicalType t;
  t.timestamp.emplace();
  t.timestamp->is_adjusted_to_utc = true;
  t.timestamp->unit.nanos.emplace();
  ts.logical_type = t;
  s = Decode(ts, Bounds(Plain<int64_t>(0), Plain<int64_t>(1500)));
  EXPECT_EQ(s.bound_type()->ToString(), "timestamp[ns, tz=UTC]");
  EXPECT_EQ(s.max().ToString(), "1970-01-01 00:00:00.000001500+00:00");
  auto time = Leaf(format::Type::kInt32);
  time.converted_type = ConvertedType::kTimeMillis;
  s = Decode(time, Bounds(Plain<int32_t>(1000), Plain<int32_t>(3600000)));
  EXPECT_EQ(s.bound_type()->ToString(), "time32[ms]");
  EXPECT_EQ(s.max().ToString(), "01:00:00");
  auto half = Leaf(format::Type::kFixedLenByteArray, 2);
  format::LogicalType f16;
  f16.float16.emplace();
  half.logical_type = f16;
  s = Decode(half, Bounds(std::string("\x00\xbc", 2), std::string("\x00\x3e", 2)));
  EXPECT_EQ(s.sort_order(), SortOrder::kSigned);
  EXPECT_EQ(s.min(), Scalar::MakeHalfFloat(0xBC00));
  EXPECT_EQ(s.min().double_value(), -1.0);
  EXPECT_EQ(s.max().double_value(), 1.5);
  // A logical type that does not fit the physical type: Undefined, no order.
  auto bad = Leaf(format::Type::kInt64);
  bad.logical_type = IntLogical(8, true);
  s = Decode(bad, Bounds(Plain<int64_t>(0), Plain<int64_t>(1)));
  EXPECT_EQ(s.sort_order(), SortOrder::kUnknown);
  EXPECT_FALSE(s.has_min_max());
}

TEST(Statistics, FloatsKeepNanCountsAndShortBoundsFail) {
  auto st = Bounds(Plain(-1.5f), Plain(2.5f));
  st.nan_count = 3;
  auto s = Decode(Leaf(format::Type::kFloat), st);
  EXPECT_EQ(s.min(), Scalar::MakeFloat(-1.5f));
  EXPECT_EQ(s.nan_count(), 3);
  EXPECT_FALSE(Decode(Leaf(format::Type::kDouble), Bounds("ab", "cd")).has_min_max());
  auto b = Decode(Leaf(format::Type::kBoolean), Bounds(std::string(1, '\0'), "\x01"));
  EXPECT_EQ(b.max(), Scalar::MakeBool(true));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

TEST(ColumnIndex, TypedBoundsPerPage) {
  auto leaf = Leaf(format::Type::kInt32);
  leaf.converted_type = ConvertedType::kUint8;
  const auto annotations = LeafAnnotations::Of(&leaf, format::Type::kInt32);
  format::ColumnIndex index;
  index.null_pages = {false, true, false};
  index.min_values = {Plain<int32_t>(1), "", Plain<int32_t>(200)};
  index.max_values = {Plain<int32_t>(9), "", std::string("ab")};  // too short: no value
  index.boundary_order = format::BoundaryOrder::kAscending;
  index.null_counts = std::vector<int64_t>{0, 5, 1};
  auto typed = MakeColumnIndex(index, annotations);
  ASSERT_TRUE(typed.ok()) << typed.status().ToString();
  EXPECT_EQ(typed->num_pages(), 3);
  EXPECT_EQ(typed->value_type()->ToString(), "uint8");
  EXPECT_EQ(typed->sort_order(), SortOrder::kUnsigned);
  EXPECT_EQ(typed->boundary_order(), BoundaryOrder::kAscending);
  EXPECT_EQ(typed->min_values()[0], *Scalar::MakeUInt(uint8(), 1));
  EXPECT_EQ(typed->max_values()[0], *Scalar::MakeUInt(uint8(), 9));
  EXPECT_FALSE(typed->min_values()[1].is_valid());  // a null page
  EXPECT_EQ(typed->min_values()[2], *Scalar::MakeUInt(uint8(), 200));
  EXPECT_FALSE(typed->max_values()[2].is_valid());
  EXPECT_EQ(typed->null_counts()->at(1), 5);

  index.max_values.pop_back();
  auto bad = MakeColumnIndex(index, annotations);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("max_values has 2 entries for 3 pages"), std::string::npos)
      << bad.status().ToString();

  // INT96: no order, no bounds.
  auto int96 = Leaf(format::Type::kInt96);
  format::ColumnIndex i96;
  i96.null_pages = {false};
  i96.min_values = {std::string(12, '\0')};
  i96.max_values = {std::string(12, '\1')};
  auto t96 = MakeColumnIndex(i96, LeafAnnotations::Of(&int96, format::Type::kInt96));
  ASSERT_TRUE(t96.ok());
  EXPECT_FALSE(t96->min_values()[0].is_valid());
  EXPECT_EQ(t96->value_type(), nullptr);
}

TEST(OffsetIndex, Locations) {
  format::OffsetIndex index;
  index.page_locations.push_back({4, 100, 0});
  index.page_locations.push_back({104, 90, 250});
  auto typed = MakeOffsetIndex(index);
  ASSERT_EQ(typed.page_locations.size(), 2u);
  EXPECT_EQ(typed.page_locations[1].offset, 104);
  EXPECT_EQ(typed.page_locations[1].compressed_page_size, 90);
  EXPECT_EQ(typed.page_locations[1].first_row_index, 250);
  EXPECT_FALSE(typed.unencoded_byte_array_data_bytes.has_value());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
