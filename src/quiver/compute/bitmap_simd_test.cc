#include "quiver/compute/bitmap_simd_internal.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "quiver/compute/simd_level.h"
#include "quiver/util/bit_util.h"

namespace quiver::compute::internal {
namespace {
namespace QUIVER_UNITY_ID {

bool Apply(BitOp op, bool a, bool b) {
  switch (op) {
    case BitOp::kAnd: return a && b;
    case BitOp::kOr: return a || b;
    case BitOp::kXor: return a != b;
    case BitOp::kAndNot: return a && !b;
  }
  return false;
}

// Every op, every pair of source bit phases, lengths around the vector
// loops' bounds (8 and 16 words of AVX-512, 4 and 8 of AVX2, one more word
// for the shifted loads), at every level the CPU has: the result bit for
// bit against the definition, the bits past the end of the destination
// untouched, the count equal to the set bits, the level recorded.
TEST(BitmapSimd, EveryOpPhaseLengthAndLevel) {
  std::mt19937_64 rng(7);
  constexpr int64_t kMaxBits = 64 * 40 + 8;
  std::vector<uint8_t> left(kMaxBits / 8 + 16), right(kMaxBits / 8 + 16);
  for (auto& b : left) b = static_cast<uint8_t>(rng());
  for (auto& b : right) b = static_cast<uint8_t>(rng());
  const int64_t lengths[] = {0, 1, 63, 64, 65, 511, 512, 513, 575, 576, 577, 1023, 1024,
                             1025, 1087, 1088, 1089, 64 * 17 + 5, 64 * 33 - 1, 64 * 40};
  for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    auto scoped = ScopedSimdLevel::Make(level);
    if (!scoped.ok()) continue;  // a level this CPU lacks
    for (BitOp op : {BitOp::kAnd, BitOp::kOr, BitOp::kXor, BitOp::kAndNot}) {
      for (int lo = 0; lo < 8; ++lo) {
        for (int ro : {0, 3, 7}) {
          for (int64_t n : lengths) {
            std::vector<uint8_t> out(bit_util::BytesForBits(n) + 1, 0xA5);
            int64_t count = -1;
            const SimdLevel ran = BitmapBinary(op, left.data(), lo, right.data(), ro, n,
                                               out.data(), n % 2 == 0 ? &count : nullptr);
            int64_t want_count = 0;
            for (int64_t i = 0; i < n; ++i) {
              const bool want = Apply(op, bit_util::GetBit(left.data(), lo + i),
                                      bit_util::GetBit(right.data(), ro + i));
              want_count += want;
              ASSERT_EQ(bit_util::GetBit(out.data(), i), want)
                  << "level " << SimdLevelName(level) << " op " << static_cast<int>(op)
                  << " offsets " << lo << "/" << ro << " length " << n << " bit " << i;
            }
            for (int64_t i = n; i < static_cast<int64_t>(out.size()) * 8; ++i) {
              ASSERT_EQ(bit_util::GetBit(out.data(), i), ((0xA5 >> (i % 8)) & 1) != 0) << i;
            }
            if (n % 2 == 0) {
              EXPECT_EQ(count, want_count) << n;
            }
            // A vector loop runs once there are 8 whole words (and, from
            // a shifted source, one more word after its vectors).
            const int64_t words = n / 64;
            const int64_t need = (lo | ro) != 0 ? (level == SimdLevel::kAvx512 ? 9 : 5) : 8;
            const SimdLevel want_level =
                level != SimdLevel::kScalar && words >= 8 && words >= need ? level
                                                                           : SimdLevel::kScalar;
            EXPECT_EQ(ran, want_level) << n << " " << lo << "/" << ro;
          }
        }
      }
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute::internal
