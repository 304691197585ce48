#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/compute/expression.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using testutil::StringArrayFromVector;

Expression Int(int64_t v) { return literal(Scalar::MakeInt64(v)); }

Expression Parse(const std::string& text) {
  auto r = ParseWhere(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? *r : Expression();
}

TEST(ParseWhere, Comparisons) {
  EXPECT_TRUE(Parse("x >= 5").Equals(greater_equal(field("x"), Int(5))));
  EXPECT_TRUE(Parse("x = 5").Equals(equal(field("x"), Int(5))));
  EXPECT_TRUE(Parse("x == -5").Equals(equal(field("x"), Int(-5))));
  EXPECT_TRUE(Parse("x!=5").Equals(not_equal(field("x"), Int(5))));
  EXPECT_TRUE(Parse("x<5").Equals(less(field("x"), Int(5))));
  EXPECT_TRUE(Parse("x <= 1.5").Equals(less_equal(field("x"), literal(Scalar::MakeDouble(1.5)))));
  EXPECT_TRUE(Parse("x > 1e3").Equals(greater(field("x"), literal(Scalar::MakeDouble(1000)))));
  EXPECT_TRUE(Parse("5 < x").Equals(less(Int(5), field("x"))));
  EXPECT_TRUE(Parse("name == 'it''s'").Equals(equal(field("name"), literal(Scalar::MakeString("it's")))));
  EXPECT_TRUE(Parse("\"my col\" = true").Equals(equal(field("my col"), literal(Scalar::MakeBool(true)))));
  EXPECT_TRUE(Parse("\"a\"\"b\" = false").Equals(equal(field("a\"b"), literal(Scalar::MakeBool(false)))));
  EXPECT_TRUE(Parse("x = null").Equals(equal(field("x"), literal(Scalar()))));
  EXPECT_TRUE(Parse("d = date '2020-01-02'")
                  .Equals(equal(field("d"), literal(Scalar::MakeInt(date32(), 18263).ValueOrDie()))));
  EXPECT_TRUE(Parse("t < timestamp '2020-01-02 03:04:05.5'")
                  .Equals(less(field("t"), literal(Scalar::MakeInt(timestamp(TimeUnit::kMicro),
                                                                   1577934245500000)
                                                       .ValueOrDie()))));
  EXPECT_TRUE(Parse("t < TIMESTAMP '1969-12-31 23:59:59'")
                  .Equals(less(field("t"), literal(Scalar::MakeInt(timestamp(TimeUnit::kMicro),
                                                                   -1000000)
                                                       .ValueOrDie()))));
  EXPECT_EQ(Parse("x >= 5 and name == 'a'").ToString(), "((x >= 5) and (name == \"a\"))");
}

TEST(ParseWhere, Precedence) {
  auto a = equal(field("a"), Int(1));
  auto b = equal(field("b"), Int(2));
  auto c = equal(field("c"), Int(3));
  EXPECT_TRUE(Parse("a = 1 or b = 2 and c = 3").Equals(or_kleene(a, and_kleene(b, c))));
  EXPECT_TRUE(Parse("(a = 1 or b = 2) and c = 3").Equals(and_kleene(or_kleene(a, b), c)));
  EXPECT_TRUE(Parse("not a = 1 and b = 2").Equals(and_kleene(invert(a), b)));
  EXPECT_TRUE(Parse("not (a = 1 and b = 2)").Equals(invert(and_kleene(a, b))));
  EXPECT_TRUE(Parse("a = 1 and b = 2 and c = 3").Equals(and_kleene(and_kleene(a, b), c)));
  EXPECT_TRUE(Parse("a = 1 or b = 2 or c = 3").Equals(or_kleene(or_kleene(a, b), c)));
  EXPECT_TRUE(Parse("NOT NOT a = 1").Equals(invert(invert(a))));
  EXPECT_TRUE(Parse("flag").Equals(field("flag")));
  EXPECT_TRUE(Parse("flag AND x is null").Equals(and_kleene(field("flag"), is_null(field("x")))));
}

TEST(ParseWhere, InAndNull) {
  auto set = ArrayFromVector<int64_t>(int64(), {1, 2, 0}, {true, true, false});
  EXPECT_TRUE(Parse("x in (1, 2, null)").Equals(is_in(field("x"), {set, false})));
  EXPECT_TRUE(Parse("x not in (1, 2, null)").Equals(invert(is_in(field("x"), {set, false}))));
  auto dbl = ArrayFromVector<double>(float64(), {1, 2.5});
  EXPECT_TRUE(Parse("x in (1, 2.5)").Equals(is_in(field("x"), {dbl, false})));
  EXPECT_TRUE(Parse("s in ('a', 'b')").Equals(is_in(field("s"), {StringArrayFromVector({"a", "b"}), false})));
  EXPECT_TRUE(Parse("x in ()").Equals(is_in(field("x"), {testutil::NullArrayOfLength(0), false})));
  EXPECT_TRUE(Parse("x in (null)").Equals(is_in(field("x"), {testutil::NullArrayOfLength(1), false})));
  EXPECT_TRUE(Parse("x is null").Equals(is_null(field("x"))));
  EXPECT_TRUE(Parse("x IS NOT NULL").Equals(is_valid(field("x"))));
}

// The error's text and column (1-based).
void ExpectError(const std::string& text, const std::string& message) {
  auto r = ParseWhere(text);
  ASSERT_FALSE(r.ok()) << text;
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_EQ(r.status().message(), message) << text;
}

TEST(ParseWhere, Errors) {
  ExpectError("", "--where: empty expression at column 1");
  ExpectError("x >", "--where: expected a value after '>', found the end at column 4");
  ExpectError("x > and", "--where: expected a value after '>', found 'and' at column 5");
  ExpectError("x = 1 y = 2", "--where: expected 'and', 'or' or the end, found 'y' at column 7");
  ExpectError("x = 'abc", "--where: unterminated string at column 5");
  ExpectError("\"x = 1", "--where: unterminated quoted name at column 1");
  ExpectError("x ! 1", "--where: unexpected '!' (did you mean '!='?) at column 3");
  ExpectError("x = 1 & y", "--where: unexpected character '&' at column 7");
  ExpectError("(x = 1", "--where: expected ')', found the end at column 7");
  ExpectError("x in 1", "--where: expected '(' after 'in', found '1' at column 6");
  ExpectError("x in (1, y)", "--where: expected a value in the list, found 'y' at column 10");
  ExpectError("x in (1 2)", "--where: expected ',' or ')', found '2' at column 9");
  ExpectError("x in (1, 'a')", "--where: the list mixes int64 and string values at column 10");
  ExpectError("x is 1", "--where: expected 'null' or 'not null', found '1' at column 6");
  ExpectError("x = 9223372036854775808",
              "--where: integer 9223372036854775808 out of the int64 range at column 5");
  ExpectError("x = 1.2.3", "--where: invalid number '1.2.3' at column 5");
  ExpectError("x = 12abc", "--where: invalid number '12abc' at column 5");
  ExpectError("d = date '2020-02-30'",
              "--where: invalid date '2020-02-30' (expected YYYY-MM-DD) at column 10");
  ExpectError("t = timestamp '2020-01-01'",
              "--where: invalid timestamp '2020-01-01' (expected YYYY-MM-DD HH:MM:SS[.ffffff]) at "
              "column 15");
  ExpectError("x = 1 and", "--where: expected a name, a value or '(', found the end at column 10");
  ExpectError("x < 1 < 2", "--where: expected 'and', 'or' or the end, found '<' at column 7");
  EXPECT_TRUE(ParseWhere("x = -9223372036854775808").ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
