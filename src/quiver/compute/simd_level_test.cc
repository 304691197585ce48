#include "quiver/compute/simd_level.h"

#include <gtest/gtest.h>

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

TEST(SimdLevel, NamesRoundTrip) {
  for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    auto parsed = ParseSimdLevel(SimdLevelName(level));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, level);
  }
  EXPECT_FALSE(ParseSimdLevel("sse9").ok());
}

TEST(SimdLevel, ScopedForcesAndRestores) {
  const SimdLevel before = ActiveSimdLevel();
  {
    auto scoped = ScopedSimdLevel::Make(SimdLevel::kScalar);
    ASSERT_TRUE(scoped.ok()) << scoped.status();
    EXPECT_EQ(ActiveSimdLevel(), SimdLevel::kScalar);
  }
  EXPECT_EQ(ActiveSimdLevel(), before);
}

TEST(SimdLevel, RefusesALevelTheCpuLacks) {
  if (DetectedSimdLevel() == SimdLevel::kAvx512) GTEST_SKIP() << "this CPU has every level";
  auto scoped = ScopedSimdLevel::Make(SimdLevel::kAvx512);
  EXPECT_FALSE(scoped.ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
