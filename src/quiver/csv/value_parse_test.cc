#include "quiver/csv/value_parse.h"

#include <gtest/gtest.h>

#include "quiver/csv/schema_spec.h"

namespace quiver::csv {
namespace {
namespace QUIVER_UNITY_ID {

TEST(CsvValueParse, Integers) {
  int64_t v;
  EXPECT_TRUE(ParseInt64("007", &v));
  EXPECT_EQ(v, 7);
  EXPECT_TRUE(ParseInt64(" -12 ", &v));
  EXPECT_EQ(v, -12);
  EXPECT_TRUE(ParseInt64("0x10", &v));
  EXPECT_EQ(v, 16);
  EXPECT_TRUE(ParseInt64("-9223372036854775808", &v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_FALSE(ParseInt64("9223372036854775808", &v));
  EXPECT_FALSE(ParseInt64("+1", &v));  // pyarrow: a double
  EXPECT_FALSE(ParseInt64("1_0", &v));
  EXPECT_FALSE(ParseInt64("-", &v));
}

TEST(CsvValueParse, FloatsDatesTimes) {
  double d;
  EXPECT_TRUE(ParseDouble("+1", '.', &d));
  EXPECT_TRUE(ParseDouble(".5", '.', &d));
  EXPECT_EQ(d, 0.5);
  EXPECT_TRUE(ParseDouble("1,5", ',', &d));
  EXPECT_EQ(d, 1.5);
  EXPECT_FALSE(ParseDouble("1.5e", '.', &d));
  int32_t days;
  EXPECT_TRUE(ParseDate("1970-01-02", &days));
  EXPECT_EQ(days, 1);
  EXPECT_FALSE(ParseDate("2020-02-30", &days));
  EXPECT_TRUE(ParseDate("2000-02-29", &days));
  int64_t nanos;
  int digits;
  EXPECT_TRUE(ParseTimeOfDay("12:30", &nanos, &digits));
  EXPECT_EQ(nanos, (12 * 3600 + 30 * 60) * 1000000000LL);
  EXPECT_FALSE(ParseTimeOfDay("24:00:00", &nanos, &digits));
  Timestamp ts;
  ASSERT_TRUE(ParseTimestamp("2020-01-01 10:00:00.5+01", &ts));
  EXPECT_TRUE(ts.has_zone);
  EXPECT_EQ(ts.seconds, 1577872800 - 3600);
  EXPECT_EQ(ts.nanos, 500000000);
  EXPECT_FALSE(ParseTimestamp("2020-01-01 10:00:00.1234567891", &ts));
}

TEST(CsvSchemaSpec, ParsesAndRefuses) {
  auto spec = ParseSchemaSpec("a:int32, b:timestamp[ms],\"c:d\":string,e:timestamp[us, tz=UTC]");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->at("a")->ToString(), "int32");
  EXPECT_EQ(spec->at("b")->ToString(), "timestamp[ms]");
  EXPECT_EQ(spec->at("c:d")->ToString(), "string");
  EXPECT_EQ(spec->at("e")->ToString(), "timestamp[us, tz=UTC]");
  EXPECT_FALSE(ParseSchemaSpec("a:int33").ok());
  EXPECT_FALSE(ParseSchemaSpec("a").ok());
  EXPECT_FALSE(ParseSchemaSpec("a:int8,a:int8").ok());
  EXPECT_FALSE(ParseSchemaSpec("t:time32[us]").ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::csv
