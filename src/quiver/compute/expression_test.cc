#include "quiver/compute/expression.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/array/validate.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using testutil::BooleanArrayFromVector;
using testutil::StringArrayFromVector;

Expression Int(int64_t v) { return literal(Scalar::MakeInt64(v)); }
Expression Dbl(double v) { return literal(Scalar::MakeDouble(v)); }
Expression Str(const std::string& v) { return literal(Scalar::MakeString(v)); }

ArrayDataPtr Ints(TypePtr type, const std::vector<int64_t>& v, const std::vector<bool>& valid = {}) {
  return ArrayFromVector<int64_t>(std::move(type), v, valid);
}

// A batch: i64 [1, 2, null, 4, 5], s ["a", "b", "c", null, "e"],
// b [true, false, null, true, false], u64 [1, 2^63, 3, 4, 5],
// i32 [1, 2^24 + 1, 3, 4, 5], f [0.5, nan, -0.0, 2, null].
RecordBatchPtr TestBatch() {
  auto i64 = Ints(int64(), {1, 2, 0, 4, 5}, {true, true, false, true, true});
  auto s = StringArrayFromVector({"a", "b", "c", "", "e"}, {true, true, true, false, true});
  auto b = BooleanArrayFromVector({true, false, false, true, false}, {true, true, false, true, true});
  auto u64 = ArrayFromVector<uint64_t>(uint64(), {1, uint64_t{1} << 63, 3, 4, 5});
  auto i32 = ArrayFromVector<int32_t>(int32(), {1, (1 << 24) + 1, 3, 4, 5});
  auto f = ArrayFromVector<double>(float64(), {0.5, std::nan(""), -0.0, 2, 0},
                                   {true, true, true, true, false});
  auto schema = std::make_shared<Schema>(FieldVector{
      quiver::field("i64", int64()), quiver::field("s", utf8()), quiver::field("b", boolean()),
      quiver::field("u64", uint64()), quiver::field("i32", int32()), quiver::field("f", float64())});
  return RecordBatch::Make(schema, 5, {i64, s, b, u64, i32, f}).ValueOrDie();
}

// The result's values as 1 / 0 / -1 (null).
std::vector<int> Tri(const Datum& d) {
  std::vector<int> out;
  const ArrayData& a = *d.array();
  const uint8_t* bits = a.buffers[1]->data();
  for (int64_t i = 0; i < a.length; ++i) {
    if (!a.IsValid(i)) {
      out.push_back(-1);
    } else {
      const int64_t at = a.offset + i;
      out.push_back((bits[at / 8] >> (at % 8)) & 1);
    }
  }
  return out;
}

TEST(Expression, ToStringAsPyarrow) {
  EXPECT_EQ(less(field("a"), Int(10)).ToString(), "(a < 10)");
  EXPECT_EQ(and_kleene(less(field("a"), Int(10)), equal(field("b"), Str("x"))).ToString(),
            "((a < 10) and (b == \"x\"))");
  EXPECT_EQ(or_kleene(field("a"), field("b")).ToString(), "(a or b)");
  EXPECT_EQ(invert(equal(field("a"), Int(1))).ToString(), "invert((a == 1))");
  EXPECT_EQ(is_null(field("a")).ToString(), "is_null(a, {nan_is_null=false})");
  EXPECT_EQ(is_null(field("a"), true).ToString(), "is_null(a, {nan_is_null=true})");
  EXPECT_EQ(is_valid(field("a")).ToString(), "is_valid(a)");
  EXPECT_EQ(equal(field("a"), literal(Scalar())).ToString(), "(a == null[null])");
  EXPECT_EQ(equal(field("a"), literal(Scalar::MakeNull(int32()))).ToString(), "(a == null[int32])");
  EXPECT_EQ(equal(field("a"), Str("x\"y\\\t\n")).ToString(), "(a == \"x\\\"y\\\\\\t\\n\")");
  EXPECT_EQ(equal(field("a"), literal(Scalar::MakeBinary("ab"))).ToString(), "(a == \"6162\")");
  EXPECT_EQ(equal(field("a"), literal(Scalar::MakeBool(true))).ToString(), "(a == true)");
  EXPECT_EQ(equal(field("a"), literal(Scalar::MakeInt(date32(), 18263).ValueOrDie())).ToString(),
            "(a == 2020-01-02)");
  EXPECT_EQ(equal(field("a"), literal(Scalar::MakeInt(timestamp(TimeUnit::kMicro),
                                                      1577934245000123).ValueOrDie()))
                .ToString(),
            "(a == 2020-01-02 03:04:05.000123)");
  EXPECT_EQ(equal(field("a b"), Str("it's")).ToString(), "(a b == \"it's\")");
}

TEST(Expression, FloatsPrintAsArrow) {
  const std::vector<std::pair<double, std::string>> cases = {
      {1.5, "1.5"},       {3.0, "3"},          {1e16, "1e+16"},
      {1e15, "1e+15"},    {123456789012.0, "1.23456789012e+11"},
      {1234567890.0, "1234567890"},            {0.0001, "0.0001"},
      {1e-5, "0.00001"},  {1e-6, "0.000001"},  {1e-7, "1e-7"},
      {-0.0, "-0"},       {1.0 / 3, "0.3333333333333333"},
      {1e21, "1e+21"},    {12345678901234567890.0, "1.2345678901234567e+19"},
      {std::numeric_limits<double>::infinity(), "inf"},
      {-std::numeric_limits<double>::infinity(), "-inf"},
      {std::nan(""), "nan"}};
  for (const auto& [v, text] : cases) {
    EXPECT_EQ(Dbl(v).ToString(), text) << v;
  }
  EXPECT_EQ(literal(Scalar::MakeFloat(0.1f)).ToString(), "0.1");
  EXPECT_EQ(literal(Scalar::MakeFloat(123456789012.0f)).ToString(), "1.2345679e+11");
}

TEST(Expression, IsInPrintsItsValueSet) {
  auto set = Ints(int64(), {1, 2, 0}, {true, true, false});
  EXPECT_EQ(is_in(field("a"), {set, false}).ToString(),
            "is_in(a, {value_set=int64:[\n  1,\n  2,\n  null\n], null_matching_behavior=MATCH})");
  EXPECT_EQ(is_in(field("a"), {StringArrayFromVector({"x", "c\"d"}), true}).ToString(),
            "is_in(a, {value_set=string:[\n  \"x\",\n  \"c\"d\"\n], null_matching_behavior=SKIP})");
  EXPECT_EQ(is_in(field("a"), {testutil::NullArrayOfLength(0), false}).ToString(),
            "is_in(a, {value_set=null:0 nulls, null_matching_behavior=MATCH})");
  EXPECT_EQ(is_in(field("a"), {Ints(int64(), {}), false}).ToString(),
            "is_in(a, {value_set=int64:[], null_matching_behavior=MATCH})");
  std::vector<int64_t> many;
  for (int i = 0; i < 30; ++i) many.push_back(i);
  const std::string text = is_in(field("a"), {Ints(int64(), many), false}).ToString();
  EXPECT_NE(text.find("  9,\n  ...\n  20,\n"), std::string::npos) << text;
  many.resize(21);
  EXPECT_EQ(is_in(field("a"), {Ints(int64(), many), false}).ToString().find("..."),
            std::string::npos);
}

TEST(Expression, EqualsAndFields) {
  auto e1 = and_kleene(less(field("a"), Int(1)), is_in(field("b"), {Ints(int64(), {1}), false}));
  auto e2 = and_kleene(less(field("a"), Int(1)), is_in(field("b"), {Ints(int64(), {1}), false}));
  EXPECT_TRUE(e1.Equals(e2));
  EXPECT_FALSE(e1.Equals(and_kleene(less(field("a"), Int(1)),
                                    is_in(field("b"), {Ints(int64(), {1}), true}))));
  EXPECT_FALSE(less(field("a"), Int(1)).Equals(less(field("a"), Dbl(1))));
  EXPECT_FALSE(less(field("a"), Int(1)).Equals(greater(field("a"), Int(1))));
  EXPECT_TRUE(Dbl(std::nan("")).Equals(Dbl(std::nan(""))));
  EXPECT_FALSE(is_null(field("a")).Equals(is_null(field("a"), true)));
  EXPECT_EQ(or_kleene(less(field("b"), field("a")), equal(field("c"), field("b")))
                .FieldsReferenced(),
            (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_TRUE(Expression().is_literal());
  EXPECT_FALSE(Expression().literal().is_valid());
}

TEST(Expression, EvaluateComparisonsAndLogic) {
  auto batch = TestBatch();
  auto r = Evaluate(less(field("i64"), Int(3)), *batch);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Tri(*r), (std::vector<int>{1, 1, -1, 0, 0}));
  r = Evaluate(and_kleene(greater(field("i64"), Int(1)), field("b")), *batch);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Tri(*r), (std::vector<int>{0, 0, -1, 1, 0}));
  r = Evaluate(or_kleene(equal(field("s"), Str("a")), invert(field("b"))), *batch);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Tri(*r), (std::vector<int>{1, 1, -1, -1, 1}));
  r = Evaluate(is_null(field("f"), true), *batch);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Tri(*r), (std::vector<int>{0, 1, 0, 0, 1}));
  r = Evaluate(is_valid(field("s")), *batch);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Tri(*r), (std::vector<int>{1, 1, 1, 0, 1}));
  r = Evaluate(equal(field("f"), Dbl(0.0)), *batch);  // -0.0 == 0.0
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Tri(*r), (std::vector<int>{0, 0, 1, 0, -1}));
  auto set = Ints(int64(), {1, 0}, {true, false});
  r = Evaluate(invert(is_in(field("i64"), {set, false})), *batch);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Tri(*r), (std::vector<int>{0, 1, 0, 1, 1}));
  r = Evaluate(equal(Int(1), Int(1)), *batch);  // no field: a scalar
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->is_scalar());
  EXPECT_TRUE(r->scalar().bool_value());
  // A sliced batch (offsets in every column).
  r = Evaluate(less(field("i64"), Int(5)), *batch->Slice(1, 3));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Tri(*r), (std::vector<int>{1, -1, 1}));
  EXPECT_TRUE(ValidateArrayFull(*r->array()).ok());
}

TEST(Expression, LiteralsTakeTheirSmallestType) {
  auto batch = TestBatch();
  // int32 vs 1.5: float32 (pyarrow's error for 2^24 + 1).
  auto r = Evaluate(equal(field("i32"), Dbl(1.5)), *batch);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid()) << r.status().ToString();
  EXPECT_NE(r.status().message().find("16777217"), std::string::npos) << r.status().ToString();
  // int32 vs 0.1 (not a float): float64, fine.
  r = Evaluate(less(field("i32"), Dbl(0.1)), *batch);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  // uint64 past 2^63 against an int literal: pyarrow's int64 cast error.
  r = Evaluate(greater(field("u64"), Int(5)), *batch);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid());
  // ... and against a uint64 literal, exact.
  r = Evaluate(greater_equal(field("u64"),
                             literal(Scalar::MakeUInt(uint64(), uint64_t{1} << 63).ValueOrDie())),
               *batch);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Tri(*r), (std::vector<int>{0, 1, 0, 0, 0}));
  // string < 5: no kernel, named with the literal's smallest type.
  r = Evaluate(less(field("s"), Int(5)), *batch);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotImplemented());
  EXPECT_EQ(r.status().message(), "Function 'less' has no kernel matching input types (string, int8)");
  r = Evaluate(and_kleene(field("b"), Int(1)), *batch);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "Function 'and_kleene' has no kernel matching input types (bool, int8)");
  // Type errors come before data errors (pyarrow binds first).
  r = Evaluate(and_kleene(greater(field("u64"), Int(5)), less(field("s"), Int(5))), *batch);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotImplemented()) << r.status().ToString();
}

TEST(Expression, MissingFields) {
  auto batch = TestBatch();
  auto r = Evaluate(equal(field("zz"), Int(1)), *batch);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_EQ(r.status().message().rfind("No match for FieldRef.Name(zz) in i64: int64\ns: string", 0),
            0u)
      << r.status().message();
  auto schema = std::make_shared<Schema>(
      FieldVector{quiver::field("a", int64()), quiver::field("a", int64())});
  auto dup = RecordBatch::Make(schema, 1, {Ints(int64(), {1}), Ints(int64(), {2})}).ValueOrDie();
  r = Evaluate(equal(field("a"), Int(1)), *dup);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("Multiple matches for FieldRef.Name(a)", 0), 0u);
}

TEST(Expression, FilterByExpression) {
  auto batch = TestBatch();
  auto out = FilterByExpression(*batch, greater_equal(field("i64"), Int(2)));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_TRUE((*out)->ValidateFull().ok());
  EXPECT_EQ((*out)->num_rows(), 3);  // 2, 4, 5; null dropped
  // Values, row by row.
  auto i64 = (*out)->column_data(0);
  EXPECT_EQ(i64->GetValues<int64_t>(1)[0], 2);
  EXPECT_EQ(i64->GetValues<int64_t>(1)[1], 4);
  EXPECT_EQ(i64->GetValues<int64_t>(1)[2], 5);
  EXPECT_EQ(i64->buffers[0], nullptr);  // no nulls left: no validity buffer
  // A constant predicate.
  out = FilterByExpression(*batch, literal(Scalar::MakeBool(true)));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->num_rows(), 5);
  out = FilterByExpression(*batch, literal(Scalar::MakeNull(boolean())));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->num_rows(), 0);
  // Not a boolean.
  out = FilterByExpression(*batch, field("i64"));
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.status().IsTypeError());
  EXPECT_EQ(out.status().message(), "Filter expression must evaluate to bool, but i64 evaluates to int64");
  // A boolean column is a predicate.
  out = FilterByExpression(*batch, field("b"));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->num_rows(), 2);
}

TEST(Expression, FilterTableKeepsChunks) {
  auto batch = TestBatch();
  auto table = Table::FromRecordBatches(batch->schema(), {batch->Slice(0, 2), batch->Slice(2, 3)})
                   .ValueOrDie();
  auto out = FilterByExpression(*table, less(field("i64"), Int(5)));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_TRUE((*out)->ValidateFull().ok());
  EXPECT_EQ((*out)->num_rows(), 3);
  EXPECT_EQ((*out)->column(0)->num_chunks(), 2);
  // An empty table still checks the predicate's types.
  auto empty = Table::FromRecordBatches(batch->schema(), {}).ValueOrDie();
  auto bad = FilterByExpression(*empty, less(field("s"), Int(5)));
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsNotImplemented());
  auto fine = FilterByExpression(*empty, less(field("i64"), Int(5)));
  ASSERT_TRUE(fine.ok()) << fine.status().ToString();
  EXPECT_EQ((*fine)->num_rows(), 0);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
