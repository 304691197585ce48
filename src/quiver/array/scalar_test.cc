#include "quiver/array/scalar.h"

#include <cmath>

#include <gtest/gtest.h>

#include "quiver/util/float16.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

template <typename T>
T Ok(Result<T> r) {
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return std::move(r).ValueOrDie();
}

TEST(Int256, BigEndianAndDigits) {
  EXPECT_EQ(Ok(Int256::FromBigEndian(std::string("\x00\xff", 2))).ToString(), "255");
  EXPECT_EQ(Ok(Int256::FromBigEndian("\xff")).ToString(), "-1");
  EXPECT_EQ(Ok(Int256::FromBigEndian(std::string("\xff\x00", 2))).ToString(), "-256");
  // 2^127 - 1 in 16 bytes, and -2^255 in 32.
  std::string max128(16, '\xff');
  max128[0] = '\x7f';
  EXPECT_EQ(Ok(Int256::FromBigEndian(max128)).ToString(),
            "170141183460469231731687303715884105727");
  std::string min256(32, '\0');
  min256[0] = '\x80';
  EXPECT_EQ(Ok(Int256::FromBigEndian(min256)).ToString(),
            "-57896044618658097711785492504343953926634992332820282019728792003956564819968");
  EXPECT_FALSE(Int256::FromBigEndian("").ok());
  EXPECT_FALSE(Int256::FromBigEndian(std::string(33, 'a')).ok());
  EXPECT_EQ(Int256::FromInt64(INT64_MIN).ToString(), "-9223372036854775808");
  // 10^19: the digits cross a 19-digit chunk with zeros to pad.
  EXPECT_EQ(Ok(Int256::FromBigEndian(std::string("\x00\x8a\xc7\x23\x04\x89\xe8\x00\x00", 9)))
                .ToString(),
            "10000000000000000000");
  EXPECT_EQ(Int256::FromInt64(0).ToString(), "0");
  EXPECT_TRUE(Int256::FromInt64(127).FitsInBits(8));
  EXPECT_FALSE(Int256::FromInt64(128).FitsInBits(8));
  EXPECT_TRUE(Int256::FromInt64(-128).FitsInBits(8));
}

TEST(Scalar, NullsAndEquality) {
  Scalar n;
  EXPECT_FALSE(n.is_valid());
  EXPECT_EQ(n.type()->id(), Type::kNull);
  EXPECT_EQ(n.ToString(), "None");
  EXPECT_EQ(Scalar::MakeNull(int32()), Scalar::MakeNull(int32()));
  EXPECT_FALSE(Scalar::MakeNull(int32()) == Scalar::MakeNull(int64()));
  EXPECT_FALSE(Scalar::MakeNull(int64()) == Scalar::MakeInt64(0));
  EXPECT_EQ(Scalar::MakeInt64(5), Ok(Scalar::MakeInt(int64(), 5)));
  EXPECT_FALSE(Scalar::MakeInt64(5) == Ok(Scalar::MakeInt(int32(), 5)));
  EXPECT_FALSE(Scalar::MakeDouble(NAN) == Scalar::MakeDouble(NAN));
  EXPECT_EQ(Scalar::MakeDouble(-0.0), Scalar::MakeDouble(0.0));
  EXPECT_EQ(Scalar::MakeString("a"), Ok(Scalar::MakeBytes(utf8(), "a")));
  EXPECT_FALSE(Scalar::MakeString("a") == Scalar::MakeBinary("a"));
}

// Struct children are shared by copies (immutable once made); every other
// scalar has none; moves and copies keep values and children.
TEST(Scalar, StructChildrenCopiesAndMoves) {
  auto type = struct_({field("min", int64()), field("max", utf8())});
  Scalar s = Ok(Scalar::MakeStruct(type, {Scalar::MakeInt64(1), Scalar::MakeString("b")}));
  ASSERT_EQ(s.children().size(), 2u);
  EXPECT_EQ(s.children()[1].bytes(), "b");
  EXPECT_EQ(s.ToString(), "[('min', 1), ('max', 'b')]");
  Scalar copy = s;
  EXPECT_EQ(copy, s);
  EXPECT_EQ(&copy.children(), &s.children());
  Scalar other = Ok(Scalar::MakeStruct(type, {Scalar::MakeInt64(2), Scalar::MakeString("b")}));
  EXPECT_FALSE(other == s);
  Scalar moved = std::move(copy);
  EXPECT_EQ(moved, s);
  EXPECT_EQ(moved.children()[0].int_value(), 1);
  EXPECT_TRUE(Scalar::MakeNull(type).children().empty());
  EXPECT_FALSE(Scalar::MakeNull(type) == s);
  EXPECT_TRUE(Scalar::MakeDouble(1.5).children().empty());
  EXPECT_TRUE(Scalar().children().empty());
  EXPECT_TRUE(Scalar::MakeStruct(type, {Scalar::MakeInt64(1)}).status().IsInvalid());

  // Every Make* gives its type and validity.
  EXPECT_EQ(Scalar::MakeDouble(2.5).type()->id(), Type::kDouble);
  EXPECT_TRUE(Scalar::MakeDouble(2.5).is_valid());
  EXPECT_EQ(Scalar::MakeDouble(2.5).double_value(), 2.5);
  EXPECT_EQ(Scalar::MakeFloat(0.5f).type()->id(), Type::kFloat);
  EXPECT_EQ(Scalar::MakeBool(true).type()->id(), Type::kBool);
  EXPECT_EQ(Scalar::MakeInt64(-3).int_value(), -3);
  EXPECT_EQ(Scalar::MakeNull(nullptr).type()->id(), Type::kNull);
  EXPECT_FALSE(Scalar::MakeNull(int8()).is_valid());
  EXPECT_EQ(Scalar::MakeNull(int8()).type()->id(), Type::kInt8);
}

TEST(Scalar, RangesAreChecked) {
  EXPECT_FALSE(Scalar::MakeInt(int8(), 128).ok());
  EXPECT_EQ(Ok(Scalar::MakeInt(int8(), -128)).ToString(), "-128");
  EXPECT_FALSE(Scalar::MakeUInt(uint16(), 65536).ok());
  EXPECT_EQ(Ok(Scalar::MakeUInt(uint64(), UINT64_MAX)).ToString(), "18446744073709551615");
  EXPECT_FALSE(Scalar::MakeInt(uint8(), 1).ok());
  EXPECT_FALSE(Scalar::MakeInt(time32(TimeUnit::kMilli), 86400000).ok());
  EXPECT_FALSE(Scalar::MakeInt(time64(TimeUnit::kMicro), -1).ok());
  EXPECT_FALSE(Scalar::MakeBytes(utf8(), "\xff").ok());
  EXPECT_FALSE(Scalar::MakeBytes(fixed_size_binary(3), "ab").ok());
  EXPECT_FALSE(Scalar::MakeBytes(int32(), "ab").ok());
  EXPECT_FALSE(Scalar::MakeDecimal(decimal128(3, 0), Int256::FromInt64(1000)).ok());
  EXPECT_FALSE(Scalar::MakeDecimal(int32(), Int256::FromInt64(1)).ok());
}

TEST(Scalar, TextAsPythonPrintsIt) {
  EXPECT_EQ(Scalar::MakeBool(true).ToString(), "True");
  EXPECT_EQ(Scalar::MakeDouble(1.0).ToString(), "1.0");
  EXPECT_EQ(Scalar::MakeDouble(1.5e16).ToString(), "1.5e+16");
  EXPECT_EQ(Scalar::MakeDouble(1e15).ToString(), "1000000000000000.0");
  EXPECT_EQ(Scalar::MakeDouble(0.0001).ToString(), "0.0001");
  EXPECT_EQ(Scalar::MakeDouble(0.00001).ToString(), "1e-05");
  EXPECT_EQ(Scalar::MakeDouble(-INFINITY).ToString(), "-inf");
  EXPECT_EQ(Scalar::MakeFloat(0.1f).ToString(), "0.10000000149011612");
  EXPECT_EQ(Scalar::MakeHalfFloat(0x3E00).ToString(), "1.5");
  EXPECT_EQ(Ok(Scalar::MakeDecimal(decimal128(4, 2), Int256::FromInt64(1230))).ToString(),
            "12.30");
  EXPECT_EQ(Ok(Scalar::MakeDecimal(decimal128(4, 2), Int256::FromInt64(-5))).ToString(),
            "-0.05");
  EXPECT_EQ(Ok(Scalar::MakeDecimal(decimal128(4, 0), Int256::FromInt64(12))).ToString(), "12");
  EXPECT_EQ(Ok(Scalar::MakeDecimal(decimal128(4, -2), Int256::FromInt64(12))).ToString(),
            "1.2E+3");
  EXPECT_EQ(Ok(Scalar::MakeDecimal(decimal128(2, 9), Int256::FromInt64(12))).ToString(),
            "1.2E-8");
  EXPECT_EQ(Ok(Scalar::MakeInt(date32(), 19753)).ToString(), "2024-01-31");
  EXPECT_EQ(Ok(Scalar::MakeInt(date32(), -1)).ToString(), "1969-12-31");
  EXPECT_EQ(Ok(Scalar::MakeInt(date64(), -1)).ToString(), "1969-12-31");
  EXPECT_EQ(Ok(Scalar::MakeInt(time32(TimeUnit::kMilli), 43200500)).ToString(),
            "12:00:00.500000");
  EXPECT_EQ(Ok(Scalar::MakeInt(time64(TimeUnit::kNano), 1)).ToString(), "00:00:00.000000001");
  EXPECT_EQ(Ok(Scalar::MakeInt(timestamp(TimeUnit::kMicro, "UTC"), 1706702400500000))
                .ToString(),
            "2024-01-31 12:00:00.500000+00:00");
  EXPECT_EQ(Ok(Scalar::MakeInt(timestamp(TimeUnit::kSecond), -1)).ToString(),
            "1969-12-31 23:59:59");
  EXPECT_EQ(Ok(Scalar::MakeInt(timestamp(TimeUnit::kSecond, "-05:30"), 0)).ToString(),
            "1969-12-31 18:30:00-05:30");
  EXPECT_EQ(Ok(Scalar::MakeInt(timestamp(TimeUnit::kSecond, "Europe/Paris"), 0)).ToString(),
            "1970-01-01 00:00:00[Europe/Paris]");
  EXPECT_EQ(Ok(Scalar::MakeInt(duration(TimeUnit::kSecond), 86401)).ToString(),
            "1 day, 0:00:01");
  EXPECT_EQ(Ok(Scalar::MakeInt(duration(TimeUnit::kSecond), -1)).ToString(),
            "-1 day, 23:59:59");
  EXPECT_EQ(Ok(Scalar::MakeInt(duration(TimeUnit::kMilli), 2 * 86400000 + 1)).ToString(),
            "2 days, 0:00:00.001000");
  EXPECT_EQ(Ok(Scalar::MakeInt(timestamp(TimeUnit::kNano), INT64_MIN)).ToString(),
            "1677-09-21 00:12:43.145224192");
  EXPECT_EQ(Scalar::MakeString("h\xc3\xa9").ToString(), "h\xc3\xa9");
  EXPECT_EQ(Scalar::MakeBinary(std::string("a\0'\\\n\x80", 6)).ToString(),
            "b\"a\\x00'\\\\\\n\\x80\"");
  EXPECT_EQ(Scalar::MakeBinary("it's \"x\"").ToString(), "b'it\\'s \"x\"'");
}

TEST(Float16, RoundTripsEveryHalf) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const float f = util::HalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(util::HalfToFloat(util::FloatToHalf(f))));
      continue;
    }
    ASSERT_EQ(util::FloatToHalf(f), h) << h;
  }
  EXPECT_EQ(util::HalfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(util::HalfToFloat(0xC000), -2.0f);
  EXPECT_EQ(util::HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(util::HalfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(util::FloatToHalf(65520.0f), 0x7C00);  // rounds to infinity
  EXPECT_EQ(util::FloatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(util::FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie to even
  EXPECT_EQ(util::FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);          // tie to even
  EXPECT_EQ(util::FloatToHalf(std::ldexp(1.5f, -25)), 0x0001);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
