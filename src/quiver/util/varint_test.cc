#include "quiver/util/varint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

std::vector<uint8_t> Encode(uint64_t value) {
  uint8_t bytes[kMaxUleb128Bytes];
  const int n = PutUleb128(value, bytes);
  EXPECT_EQ(n, Uleb128Size(value));
  return std::vector<uint8_t>(bytes, bytes + n);
}

TEST(Varint, KnownEncodings) {
  EXPECT_EQ(Encode(0), (std::vector<uint8_t>{0x00}));
  EXPECT_EQ(Encode(1), (std::vector<uint8_t>{0x01}));
  EXPECT_EQ(Encode(127), (std::vector<uint8_t>{0x7F}));
  EXPECT_EQ(Encode(128), (std::vector<uint8_t>{0x80, 0x01}));
  EXPECT_EQ(Encode(300), (std::vector<uint8_t>{0xAC, 0x02}));
  EXPECT_EQ(Encode(624485), (std::vector<uint8_t>{0xE5, 0x8E, 0x26}));  // Wikipedia's example
  EXPECT_EQ(Encode(std::numeric_limits<uint64_t>::max()),
            (std::vector<uint8_t>{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
  static_assert(Uleb128Size(0) == 1 && Uleb128Size(uint64_t{1} << 63) == 10);
}

TEST(Varint, RoundTripsAtEveryLength) {
  for (int bits = 0; bits <= 64; ++bits) {
    for (uint64_t value : {bits == 0 ? uint64_t{0} : uint64_t{1} << (bits - 1),
                           bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1}) {
      const auto bytes = Encode(value);
      uint64_t decoded = 12345;
      EXPECT_EQ(DecodeUleb128(bytes.data(), bytes.data() + bytes.size(), &decoded),
                static_cast<int>(bytes.size()));
      EXPECT_EQ(decoded, value);
      const uint8_t* pos = bytes.data();
      ASSERT_TRUE(GetUleb128(&pos, bytes.data() + bytes.size(), &decoded));
      EXPECT_EQ(pos, bytes.data() + bytes.size());
      // Every shorter prefix is truncated, and leaves *pos alone.
      for (size_t cut = 0; cut < bytes.size(); ++cut) {
        EXPECT_EQ(DecodeUleb128(bytes.data(), bytes.data() + cut, &decoded), kUleb128Truncated);
        pos = bytes.data();
        EXPECT_FALSE(GetUleb128(&pos, bytes.data() + cut, &decoded));
        EXPECT_EQ(pos, bytes.data());
      }
    }
  }
}

TEST(Varint, DecodeRejectsMoreThan64Bits) {
  uint64_t value = 7;
  // Ten bytes whose last holds more than bit 63.
  const std::vector<uint8_t> over = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02};
  EXPECT_EQ(DecodeUleb128(over.data(), over.data() + over.size(), &value), kUleb128Overflow);
  // An 11-byte form (the 10th byte continues).
  const std::vector<uint8_t> longer = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                       0x80, 0x80, 0x80, 0x80, 0x00};
  EXPECT_EQ(DecodeUleb128(longer.data(), longer.data() + longer.size(), &value),
            kUleb128Overflow);
  EXPECT_EQ(value, 7u);
  const uint8_t* pos = over.data();
  EXPECT_FALSE(GetUleb128(&pos, over.data() + over.size(), &value));
  EXPECT_EQ(pos, over.data());
  // A padded (non-canonical) form that fits is accepted.
  const std::vector<uint8_t> padded = {0x81, 0x80, 0x80, 0x00};
  EXPECT_EQ(DecodeUleb128(padded.data(), padded.data() + padded.size(), &value), 4);
  EXPECT_EQ(value, 1u);
}

TEST(Varint, ZigZag) {
  EXPECT_EQ(ZigZagEncode(0), 0u);
  EXPECT_EQ(ZigZagEncode(-1), 1u);
  EXPECT_EQ(ZigZagEncode(1), 2u);
  EXPECT_EQ(ZigZagEncode(-2), 3u);
  EXPECT_EQ(ZigZagEncode(2147483647), 4294967294u);
  EXPECT_EQ(ZigZagEncode(-2147483648LL), 4294967295u);
  EXPECT_EQ(ZigZagEncode(std::numeric_limits<int64_t>::max()), ~uint64_t{0} - 1);
  EXPECT_EQ(ZigZagEncode(std::numeric_limits<int64_t>::min()), ~uint64_t{0});
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{63},
                    std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    EXPECT_EQ(ZigZagDecode(ZigZagEncode(v)), v);
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
