#include "quiver/util/copy.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

// Every length up to a few cache lines and some long ones, at every
// destination alignment within 16 bytes and a few source offsets: the
// bytes copied are the source's, and the bytes around them are untouched.
TEST(CopyNonTemporal, CopiesExactlyTheBytes) {
  std::vector<uint8_t> src(70000);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 131 + 7);
  std::vector<int64_t> lengths;
  for (int64_t n = 0; n <= 300; ++n) lengths.push_back(n);
  for (int64_t n : {1023, 1024, 4097, 65536, 65551, 69000}) lengths.push_back(n);
  for (int64_t n : lengths) {
    for (int64_t dst_off = 0; dst_off < 16; ++dst_off) {
      for (int64_t src_off : {0, 1, 13}) {
        std::vector<uint8_t> dst(static_cast<size_t>(n + 64), 0xEE);
        CopyNonTemporal(dst.data() + dst_off, src.data() + src_off, n);
        for (int64_t i = 0; i < dst_off; ++i) ASSERT_EQ(dst[static_cast<size_t>(i)], 0xEE);
        for (int64_t i = 0; i < n; ++i) {
          ASSERT_EQ(dst[static_cast<size_t>(dst_off + i)], src[static_cast<size_t>(src_off + i)])
              << "n " << n << " dst_off " << dst_off << " src_off " << src_off << " byte " << i;
        }
        for (int64_t i = dst_off + n; i < n + 64; ++i) {
          ASSERT_EQ(dst[static_cast<size_t>(i)], 0xEE) << "n " << n << " past the end at " << i;
        }
      }
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
