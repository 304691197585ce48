// RleBitPackedDecoder::Skip against decoding everything: skips of every
// length land inside and across RLE and bit-packed runs (and inside a
// bit-packed block), then decoding goes on from there.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using Bytes = std::vector<uint8_t>;

Bytes Encode(const std::vector<uint32_t>& values, int bit_width) {
  MutableBuffer out;
  RleBitPackedEncoder encoder(bit_width, &out);
  for (uint32_t v : values) {
    Status st = encoder.Put(v);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_TRUE(encoder.Flush().ok());
  return Bytes(out.data(), out.data() + out.size());
}

// Runs of random lengths (1..12, a quarter up to 200) of random values of
// bit width w, or (mixed) single random values: both run kinds appear.
std::vector<uint32_t> RandomRuns(int w, int64_t n, bool mixed, std::mt19937_64& rng) {
  const uint64_t max = w == 32 ? 0xFFFFFFFFull : (uint64_t{1} << w) - 1;
  std::vector<uint32_t> values;
  while (static_cast<int64_t>(values.size()) < n) {
    const auto v = static_cast<uint32_t>(rng() & max);
    int64_t run = mixed && rng() % 2 == 0 ? 1 : static_cast<int64_t>(rng() % (rng() % 4 == 0 ? 200 : 12)) + 1;
    for (int64_t i = 0; i < run && static_cast<int64_t>(values.size()) < n; ++i) values.push_back(v);
  }
  return values;
}

TEST(RleBitPackedTest, SkipThenDecode) {
  std::mt19937_64 rng(45);
  for (int w = 0; w <= 32; ++w) {
    for (bool mixed : {false, true}) {
      SCOPED_TRACE("width " + std::to_string(w) + (mixed ? " mixed" : " runs"));
      const std::vector<uint32_t> values = RandomRuns(w, 4000, mixed, rng);
      const Bytes bytes = Encode(values, w);
      const auto n = static_cast<int64_t>(values.size());
      // Skip k, then decode the rest in one batch: every k near the start,
      // then a sample.
      std::vector<int64_t> skips;
      for (int64_t k = 0; k <= 70; ++k) skips.push_back(k);
      for (int i = 0; i < 40; ++i) skips.push_back(static_cast<int64_t>(rng() % (n + 1)));
      skips.push_back(n);
      for (const int64_t k : skips) {
        RleBitPackedDecoder decoder(bytes.data(), static_cast<int64_t>(bytes.size()), w);
        ASSERT_EQ(decoder.Skip(k), k);
        std::vector<uint32_t> rest(static_cast<size_t>(n - k));
        ASSERT_EQ(decoder.GetBatch(rest.data(), n - k), n - k) << "after skipping " << k;
        ASSERT_TRUE(std::equal(rest.begin(), rest.end(), values.begin() + k)) << "skip " << k;
        ASSERT_TRUE(decoder.status().ok());
      }
      // Alternating skips and decodes of random lengths (as a masked read
      // does), decodes as uint32 (blocks), bytes and int16 where they fit.
      for (int round = 0; round < 10; ++round) {
        RleBitPackedDecoder decoder(bytes.data(), static_cast<int64_t>(bytes.size()), w);
        int64_t pos = 0;
        while (pos < n) {
          const int64_t skip = std::min<int64_t>(static_cast<int64_t>(rng() % 100), n - pos);
          ASSERT_EQ(decoder.Skip(skip), skip);
          pos += skip;
          const int64_t take = std::min<int64_t>(static_cast<int64_t>(rng() % 40), n - pos);
          std::vector<uint32_t> got(static_cast<size_t>(take));
          if (w <= 8 && rng() % 2 == 0) {
            std::vector<uint8_t> narrow(static_cast<size_t>(take));
            ASSERT_EQ(decoder.GetBatch(narrow.data(), take), take);
            std::copy(narrow.begin(), narrow.end(), got.begin());
          } else if (w <= 15 && rng() % 2 == 0) {
            std::vector<int16_t> narrow(static_cast<size_t>(take));
            ASSERT_EQ(decoder.GetBatch(narrow.data(), take), take);
            std::copy(narrow.begin(), narrow.end(), got.begin());
          } else {
            ASSERT_EQ(decoder.GetBatch(got.data(), take), take);
          }
          for (int64_t i = 0; i < take; ++i) ASSERT_EQ(got[i], values[pos + i]) << pos + i;
          pos += take;
        }
        ASSERT_TRUE(decoder.status().ok());
      }
    }
  }
}

TEST(RleBitPackedTest, SkipWithCountAndGetBitsAndPastTheEnd) {
  // Bit width 1 (levels): Count and GetBits continue where a skip left a
  // bit-packed run; a skip past the data stops at its end.
  std::mt19937_64 rng(46);
  const std::vector<uint32_t> values = RandomRuns(1, 3000, true, rng);
  const Bytes bytes = Encode(values, 1);
  const auto n = static_cast<int64_t>(values.size());
  RleBitPackedDecoder decoder(bytes.data(), static_cast<int64_t>(bytes.size()), 1);
  int64_t pos = 0;
  while (pos < n) {
    const int64_t skip = std::min<int64_t>(static_cast<int64_t>(rng() % 50), n - pos);
    ASSERT_EQ(decoder.Skip(skip), skip);
    pos += skip;
    const int64_t k = std::min<int64_t>(static_cast<int64_t>(rng() % 50), n - pos);
    int64_t expect = 0;
    for (int64_t i = 0; i < k; ++i) expect += values[pos + i];
    int64_t ones = 0;
    if (rng() % 2 == 0) {
      ASSERT_EQ(decoder.Count(k, 1, 1, &ones), k);
    } else {
      std::vector<uint8_t> bits(static_cast<size_t>(k / 8 + 1));
      ASSERT_EQ(decoder.GetBits(bits.data(), 0, k, &ones), k);
      for (int64_t i = 0; i < k; ++i) {
        ASSERT_EQ(bit_util::GetBit(bits.data(), i), values[pos + i] != 0);
      }
    }
    ASSERT_EQ(ones, expect);
    pos += k;
  }
  // The encoder pads the last bit-packed group: up to 7 values past n.
  const int64_t more = decoder.Skip(100);
  EXPECT_LT(more, 8);
  EXPECT_EQ(decoder.Skip(1), 0);
  EXPECT_TRUE(decoder.status().ok());
  // A malformed run stops a skip as it stops decoding.
  const Bytes bad = {8 << 1, 1, 0};
  RleBitPackedDecoder broken(bad.data(), 3, 1);
  EXPECT_EQ(broken.Skip(20), 8);
  EXPECT_NE(broken.status().message().find("empty run at byte 2"), std::string::npos);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
