#include "quiver/util/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "quiver/util/result.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

TEST(Status, OkIsCheapAndEmpty) {
  Status st;
  EXPECT_TRUE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kOK);
  EXPECT_EQ(st.message(), "");
  EXPECT_EQ(st.ToString(), "OK");
  EXPECT_EQ(sizeof(Status), sizeof(void*));
}

TEST(Status, FactoriesCarryCodeAndMessage) {
  EXPECT_EQ(Status::Invalid("bad ", 42, " thing").ToString(), "Invalid: bad 42 thing");
  EXPECT_TRUE(Status::IOError("x").IsIOError());
  EXPECT_TRUE(Status::OutOfMemory("x").IsOutOfMemory());
  EXPECT_TRUE(Status::NotImplemented("x").IsNotImplemented());
  EXPECT_TRUE(Status::KeyError("x").IsKeyError());
  EXPECT_TRUE(Status::TypeError("x").IsTypeError());
  EXPECT_TRUE(Status::IndexError("x").IsIndexError());
  EXPECT_TRUE(Status::CapacityError("x").IsCapacityError());
  EXPECT_EQ(Status::KeyError("k").ToString(), "KeyError: k");
}

TEST(Status, CopyMoveAndContext) {
  Status a = Status::Invalid("boom");
  Status b = a;
  EXPECT_EQ(a, b);
  Status c = std::move(b);
  EXPECT_EQ(c.message(), "boom");
  EXPECT_EQ(c.WithContext("column 'x': ").ToString(), "Invalid: column 'x': boom");
  EXPECT_TRUE(Status::OK().WithContext("ignored").ok());
}

Status Fails() { return Status::Invalid("inner"); }
Status Propagates() {
  QUIVER_RETURN_NOT_OK(Fails());
  return Status::IOError("not reached");
}

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::Invalid(x, " is odd");
  return x / 2;
}
Result<int> Quarter(int x) {
  QUIVER_ASSIGN_OR_RAISE(int h, Half(x));
  QUIVER_ASSIGN_OR_RAISE(auto q, Half(h));
  return q;
}

TEST(Result, ValuesAndErrorsPropagate) {
  EXPECT_EQ(Propagates().message(), "inner");
  Result<int> r = Quarter(12);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 3);
  Result<int> e = Quarter(6);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().ToString(), "Invalid: 3 is odd");
  EXPECT_EQ(Quarter(6).ValueOr(-1), -1);
}

TEST(Result, MoveOnlyValues) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(7);
  ASSERT_TRUE(r.ok());
  std::unique_ptr<int> p = std::move(r).ValueOrDie();
  EXPECT_EQ(*p, 7);
}

TEST(Result, OkStatusIsNotAValue) {
  Result<int> r{Status::OK()};
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnknownError);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
