#include "quiver/util/dcheck.h"

#include <gtest/gtest.h>

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

TEST(DCheck, PassingChecksDoNothing) {
  int evaluated = 0;
  QUIVER_DCHECK(++evaluated == 1);
  QUIVER_DCHECK(true, "message ", 42);
  QUIVER_DCHECK_EQ(2 + 2, 4);
  QUIVER_DCHECK_NE(1, 2);
  QUIVER_DCHECK_LT(1, 2);
  QUIVER_DCHECK_LE(2, 2);
  QUIVER_DCHECK_GT(3, 2);
  QUIVER_DCHECK_GE(3, 3);
  // Debug builds evaluate the condition once; release builds never do.
  EXPECT_EQ(evaluated, QUIVER_DCHECK_IS_ON ? 1 : 0);
}

#if QUIVER_DCHECK_IS_ON
TEST(DCheckDeathTest, FailedChecksAbortWithWhereAndWhat) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const int offset = 7;
  const int size = 5;
  EXPECT_DEATH(QUIVER_DCHECK(offset <= size), "DCHECK failed at .*dcheck_test.cc:[0-9]+: offset <= size");
  EXPECT_DEATH(QUIVER_DCHECK(offset <= size, "offset ", offset),
               "offset <= size offset 7");
  EXPECT_DEATH(QUIVER_DCHECK_LE(offset, size), "offset <= size \\(7 vs 5\\)");
  EXPECT_DEATH(QUIVER_DCHECK_EQ(offset, size), "offset == size \\(7 vs 5\\)");
}
#else
TEST(DCheck, CompiledOutInRelease) {
  QUIVER_DCHECK(false, "never evaluated");
  QUIVER_DCHECK_EQ(1, 2);
  SUCCEED();
}
#endif

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
