#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "quiver/parquet/encoding/bit_packing_internal.h"

namespace quiver::parquet::internal {
namespace {
namespace QUIVER_UNITY_ID {

// Reference: value i at bits [i * w, (i + 1) * w), LSB first, bit by bit.
std::vector<uint8_t> ReferencePack(const std::vector<uint64_t>& values, int w) {
  std::vector<uint8_t> out(static_cast<size_t>(4 * w), 0);
  for (size_t i = 0; i < values.size(); ++i) {
    for (int b = 0; b < w; ++b) {
      if ((values[i] >> b) & 1) {
        const size_t bit = i * w + b;
        out[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
      }
    }
  }
  return out;
}

uint64_t Mask(int w) { return w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

TEST(BitPackingTest, SpecExampleWidth3) {
  // Encodings.md: 0..7 with bit width 3 -> 10001000 11000110 11111010.
  uint32_t values[32] = {0, 1, 2, 3, 4, 5, 6, 7};
  uint8_t packed[12];
  Pack32(values, 3, packed);
  EXPECT_EQ(packed[0], 0x88);
  EXPECT_EQ(packed[1], 0xC6);
  EXPECT_EQ(packed[2], 0xFA);
  for (int i = 3; i < 12; ++i) EXPECT_EQ(packed[i], 0) << i;
  uint32_t back[32];
  Unpack32(packed, 3, back);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(back[i], values[i]) << i;
}

TEST(BitPackingTest, Pack32AndUnpack32MatchTheReferenceForEveryWidth) {
  std::mt19937_64 rng(42);
  for (int w = 0; w <= 32; ++w) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint64_t> values(32);
      uint32_t in[32];
      for (int i = 0; i < 32; ++i) {
        // Mix of random values, the maximum and zero.
        const uint64_t v = trial == 0 ? Mask(w) : trial == 1 ? 0 : rng() & Mask(w);
        values[i] = v;
        in[i] = static_cast<uint32_t>(v) | (trial == 2 ? ~static_cast<uint32_t>(Mask(w)) : 0);
      }
      // Exact-size heap buffers: ASan reports any access outside them.
      auto packed = std::make_unique<uint8_t[]>(static_cast<size_t>(4 * w) + 0);
      Pack32(in, w, packed.get());
      const std::vector<uint8_t> expected = ReferencePack(values, w);
      ASSERT_TRUE(std::equal(expected.begin(), expected.end(), packed.get())) << "width " << w;
      uint32_t out[32];
      Unpack32(packed.get(), w, out);
      for (int i = 0; i < 32; ++i) ASSERT_EQ(out[i], values[i]) << "width " << w << " i " << i;
    }
  }
}

// UnpackBlocks32 equals Unpack32 block by block for every width, block
// count and slack after the blocks (0..40 bytes: the AVX2 routine reads up
// to floor(4w / 8) + 16 bytes past a group's start and must stay inside
// `available`; the buffers are exactly that size, so ASan sees any read
// past it), with the AVX2 routine on (where the CPU has it) and off.
TEST(BitPackingTest, UnpackBlocks32EqualsUnpack32WithAndWithoutSimd) {
  std::mt19937_64 rng(44);
  for (const bool simd : {true, false}) {
    const bool previous = SetUnpackSimd(simd);
    for (int w = 0; w <= 32; ++w) {
      for (const int64_t blocks : {1, 2, 3, 7, 16}) {
        for (const int64_t slack : {0, 1, 5, 15, 16, 17, 40}) {
          const int64_t bytes = 4 * w * blocks;
          const int64_t available = bytes + slack;
          auto packed = std::make_unique<uint8_t[]>(static_cast<size_t>(available) + (available == 0));
          for (int64_t i = 0; i < available; ++i) packed[static_cast<size_t>(i)] = static_cast<uint8_t>(rng());
          std::vector<uint32_t> expected(static_cast<size_t>(32 * blocks));
          for (int64_t b = 0; b < blocks; ++b) {
            Unpack32(packed.get() + b * 4 * w, w, expected.data() + b * 32);
          }
          std::vector<uint32_t> got(static_cast<size_t>(32 * blocks), 0xDEADBEEF);
          UnpackBlocks32(packed.get(), available, w, blocks, got.data());
          ASSERT_EQ(got, expected) << "simd " << simd << " width " << w << " blocks " << blocks
                                   << " slack " << slack;
        }
      }
    }
    SetUnpackSimd(previous);
  }
}

TEST(BitPackingTest, Pack64AndUnpack64MatchTheReferenceForEveryWidth) {
  std::mt19937_64 rng(43);
  for (int w = 0; w <= 64; ++w) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint64_t> values(32);
      uint64_t in[32];
      for (int i = 0; i < 32; ++i) {
        const uint64_t v = trial == 0 ? Mask(w) : trial == 1 ? 0 : rng() & Mask(w);
        values[i] = v;
        in[i] = v | (trial == 2 ? ~Mask(w) : 0);  // high bits must be ignored
      }
      auto packed = std::make_unique<uint8_t[]>(static_cast<size_t>(4 * w) + 0);
      Pack64(in, w, packed.get());
      const std::vector<uint8_t> expected = ReferencePack(values, w);
      ASSERT_TRUE(std::equal(expected.begin(), expected.end(), packed.get())) << "width " << w;
      uint64_t out[32];
      Unpack64(packed.get(), w, out);
      for (int i = 0; i < 32; ++i) ASSERT_EQ(out[i], values[i]) << "width " << w << " i " << i;
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet::internal
