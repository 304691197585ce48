#include "quiver/parquet/levels/level_decoder_internal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using Bytes = std::vector<uint8_t>;
using Levels = std::vector<int16_t>;

// v1 RLE levels as a writer stores them: the 4-byte length prefix, then runs.
Bytes EncodeRle(const Levels& levels, int bit_width) {
  MutableBuffer out;
  RleBitPackedEncoder encoder(bit_width, &out, /*length_prefix=*/true);
  EXPECT_TRUE(encoder.PutBatch(levels.data(), static_cast<int64_t>(levels.size())).ok());
  EXPECT_TRUE(encoder.Flush().ok());
  return Bytes(out.data(), out.data() + out.size());
}

// BIT_PACKED as the spec describes it, one bit at a time: each level's bits
// from the most significant, levels back to back, the last byte padded.
Bytes PackMsbFirst(const Levels& levels, int bit_width) {
  Bytes out((levels.size() * bit_width + 7) / 8, 0);
  size_t bit = 0;
  for (int16_t level : levels) {
    for (int b = bit_width - 1; b >= 0; --b, ++bit) {
      if ((level >> b) & 1) out[bit / 8] |= static_cast<uint8_t>(0x80 >> (bit % 8));
    }
  }
  return out;
}

// Levels up to max_level in runs (long and short) and noise.
Levels RandomLevels(int16_t max_level, int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Levels out;
  while (static_cast<int64_t>(out.size()) < n) {
    const auto value = static_cast<int16_t>(rng() % (uint32_t(max_level) + 1));
    const int64_t run = rng() % 4 == 0 ? 1 + rng() % 100 : 1;
    for (int64_t i = 0; i < run && static_cast<int64_t>(out.size()) < n; ++i) out.push_back(value);
  }
  return out;
}

// Decodes `n` levels in batches of `batch`.
Levels DecodeAll(LevelDecoder* decoder, int64_t n, int64_t batch) {
  Levels out(static_cast<size_t>(n), -1);
  for (int64_t done = 0; done < n;) {
    const int64_t k = std::min(batch, n - done);
    Status st = decoder->Decode(k, out.data() + done);
    EXPECT_TRUE(st.ok()) << st;
    if (!st.ok()) break;
    done += k;
  }
  return out;
}

void ExpectInvalid(const Status& st, const std::string& message) {
  EXPECT_TRUE(st.IsInvalid()) << st;
  EXPECT_EQ(st.message(), message);
}

TEST(LevelBitWidth, Widths) {
  // {max level, bits}
  const int table[][2] = {{0, 0},   {1, 1},   {2, 2},   {3, 2},       {4, 3},
                          {255, 8}, {256, 9}, {-1, 0},  {32767, 15}};
  for (const auto& [max_level, bits] : table) {
    EXPECT_EQ(LevelBitWidth(static_cast<int16_t>(max_level)), bits) << max_level;
  }
}

// Every width a level can have (max_level is int16, so 15 bits at most;
// both the largest and the smallest max level of each width), against
// RleBitPackedEncoder's bytes, decoded in batches of several sizes, with
// Count() agreeing with the decoded levels.
TEST(LevelDecoder, RleRoundTripsEveryWidth) {
  for (int w = 1; w <= 15; ++w) {
    for (const int16_t max_level :
         {static_cast<int16_t>((1 << w) - 1), static_cast<int16_t>(1 << (w - 1))}) {
      for (const int64_t n : {int64_t{1}, int64_t{7}, int64_t{8}, int64_t{100}, int64_t{3001}}) {
        const Levels levels = RandomLevels(max_level, n, static_cast<uint32_t>(w * 1000 + n));
        const Bytes bytes = EncodeRle(levels, w);
        auto section = V1LevelSectionSize(format::Encoding::kRle, max_level, n, bytes.data(),
                                          static_cast<int64_t>(bytes.size()));
        ASSERT_TRUE(section.ok()) << section.status();
        ASSERT_EQ(*section, static_cast<int64_t>(bytes.size()));
        for (const int64_t batch : {int64_t{1}, int64_t{5}, int64_t{64}, n}) {
          LevelDecoder decoder;
          ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kRle, max_level, n, bytes.data() + 4,
                                      *section - 4)
                          .ok());
          EXPECT_EQ(DecodeAll(&decoder, n, batch), levels) << "width " << w << " n " << n;
          EXPECT_EQ(decoder.levels_left(), 0);
        }
        // Count in batches, for the max level, 0 and a level in between.
        for (const int16_t level : {max_level, int16_t{0}, static_cast<int16_t>(max_level / 2)}) {
          LevelDecoder decoder;
          ASSERT_TRUE(decoder.SetData("repetition", format::Encoding::kRle, max_level, n, bytes.data() + 4,
                                      *section - 4)
                          .ok());
          int64_t counted = 0;
          for (int64_t done = 0; done < n; done += 37) {
            auto c = decoder.Count(std::min<int64_t>(37, n - done), level);
            ASSERT_TRUE(c.ok()) << c.status();
            counted += *c;
          }
          EXPECT_EQ(counted, std::count(levels.begin(), levels.end(), level)) << "width " << w;
          EXPECT_EQ(decoder.levels_left(), 0);
        }
      }
    }
  }
}

// Decode and Count interleaved on one section see the same levels.
TEST(LevelDecoder, CountAndDecodeInterleave) {
  const int16_t max_level = 3;
  const Levels levels = RandomLevels(max_level, 5000, 7);
  for (const format::Encoding encoding : {format::Encoding::kRle, format::Encoding::kBitPacked}) {
    const Bytes bytes = encoding == format::Encoding::kRle ? EncodeRle(levels, 2) : PackMsbFirst(levels, 2);
    const int64_t skip = encoding == format::Encoding::kRle ? 4 : 0;
    LevelDecoder decoder;
    ASSERT_TRUE(decoder.SetData("definition", encoding, max_level, 5000, bytes.data() + skip,
                                static_cast<int64_t>(bytes.size()) - skip)
                    .ok());
    int64_t pos = 0;
    int step = 1;
    while (pos < 5000) {
      const int64_t k = std::min<int64_t>(step * 13 % 301 + 1, 5000 - pos);
      if (step % 2 == 0) {
        Levels out(static_cast<size_t>(k));
        ASSERT_TRUE(decoder.Decode(k, out.data()).ok());
        EXPECT_TRUE(std::equal(out.begin(), out.end(), levels.begin() + pos)) << pos;
      } else {
        auto c = decoder.Count(k, 2);
        ASSERT_TRUE(c.ok()) << c.status();
        EXPECT_EQ(*c, std::count(levels.begin() + pos, levels.begin() + pos + k, 2)) << pos;
      }
      pos += k;
      ++step;
    }
    EXPECT_EQ(decoder.levels_left(), 0);
  }
}

// Counting a long RLE run does not expand it.
TEST(LevelDecoder, CountsRunsWithoutExpandingThem) {
  MutableBuffer out;
  RleBitPackedEncoder encoder(1, &out);
  const int64_t n = int64_t{1} << 30;
  ASSERT_TRUE(encoder.PutRepeated(1, n).ok());
  ASSERT_TRUE(encoder.PutRepeated(0, 10).ok());
  ASSERT_TRUE(encoder.Flush().ok());
  LevelDecoder decoder;
  ASSERT_TRUE(
      decoder.SetData("definition", format::Encoding::kRle, 1, n + 10, out.data(), out.size()).ok());
  auto c = decoder.Count(n + 10, 1);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(*c, n);
}

// The spec's example (Encodings.md, "Bit-packed (Deprecated)"): 0..7 with
// bit width 3 are the bytes 00000101 00111001 01110111.
TEST(LevelDecoder, BitPackedSpecExample) {
  const Bytes bytes = {0b00000101, 0b00111001, 0b01110111};
  EXPECT_EQ(PackMsbFirst({0, 1, 2, 3, 4, 5, 6, 7}, 3), bytes);
  auto section = V1LevelSectionSize(format::Encoding::kBitPacked, 7, 8, bytes.data(), 3);
  ASSERT_TRUE(section.ok());
  EXPECT_EQ(*section, 3);
  LevelDecoder decoder;
  ASSERT_TRUE(decoder.SetData("repetition", format::Encoding::kBitPacked, 7, 8, bytes.data(), 3).ok());
  Levels out(8);
  ASSERT_TRUE(decoder.Decode(8, out.data()).ok());
  EXPECT_EQ(out, (Levels{0, 1, 2, 3, 4, 5, 6, 7}));
  // Its other example: 30 levels of 2 bits (max level 3) take 8 bytes.
  const Bytes eight(16, 0);
  section = V1LevelSectionSize(format::Encoding::kBitPacked, 3, 30, eight.data(), 16);
  ASSERT_TRUE(section.ok());
  EXPECT_EQ(*section, 8);
  // The last byte's padding is not a level: 5 levels of 3 bits in 2 bytes.
  const Bytes five = {0b11100000, 0b00000001};  // 7, 0, 0, 0, 0 and a padding bit
  ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kBitPacked, 7, 5, five.data(), 2).ok());
  Levels out5(5);
  ASSERT_TRUE(decoder.Decode(5, out5.data()).ok());
  EXPECT_EQ(out5, (Levels{7, 0, 0, 0, 0}));
}

TEST(LevelDecoder, BitPackedRoundTripsEveryWidth) {
  for (int w = 1; w <= 15; ++w) {
    const auto max_level = static_cast<int16_t>((1 << w) - 1);
    for (const int64_t n : {int64_t{1}, int64_t{9}, int64_t{1000}}) {
      const Levels levels = RandomLevels(max_level, n, static_cast<uint32_t>(w + n));
      const Bytes bytes = PackMsbFirst(levels, w);
      auto section = V1LevelSectionSize(format::Encoding::kBitPacked, max_level, n, bytes.data(),
                                        static_cast<int64_t>(bytes.size()));
      ASSERT_TRUE(section.ok()) << section.status();
      EXPECT_EQ(*section, (n * w + 7) / 8);
      for (const int64_t batch : {int64_t{1}, int64_t{3}, n}) {
        LevelDecoder decoder;
        ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kBitPacked, max_level, n, bytes.data(),
                                    *section)
                        .ok());
        EXPECT_EQ(DecodeAll(&decoder, n, batch), levels) << "width " << w;
      }
      LevelDecoder decoder;
      ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kBitPacked, max_level, n, bytes.data(),
                                  *section)
                      .ok());
      auto c = decoder.Count(n, max_level);
      ASSERT_TRUE(c.ok()) << c.status();
      EXPECT_EQ(*c, std::count(levels.begin(), levels.end(), max_level));
    }
  }
}

// A section holding fewer levels than the page's num_values: the error
// names the first missing level, for Decode and Count alike, and the
// decoder then fails every call until SetData.
TEST(LevelDecoder, TruncatedSections) {
  const Levels levels = RandomLevels(3, 100, 11);
  // RLE: the runs of 100 levels, told there are 150.
  Bytes rle = EncodeRle(levels, 2);
  // A bit-packed run is padded to a multiple of 8 levels, which cannot be
  // told from real ones: the section ends where the runs end.
  int64_t held = 0;
  {
    RleBitPackedDecoder runs(rle.data() + 4, static_cast<int64_t>(rle.size()) - 4, 2);
    Levels all(150);
    held = runs.GetBatch(all.data(), 150);
    ASSERT_GE(held, 100);
    ASSERT_LT(held, 108);
  }
  for (const bool count : {false, true}) {
    LevelDecoder decoder;
    ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kRle, 3, 150, rle.data() + 4,
                                static_cast<int64_t>(rle.size()) - 4)
                    .ok());
    Levels out(150);
    Status st = count ? decoder.Count(150, 1).status() : decoder.Decode(150, out.data());
    ExpectInvalid(st, "definition levels: the section ends before level " + std::to_string(held) +
                          " (the page has 150)");
    EXPECT_EQ(decoder.levels_left(), 0);
    EXPECT_EQ(decoder.Decode(0, out.data()), st);
  }
  // BIT_PACKED: 100 levels of 2 bits are 25 bytes; 20 hold 80 levels.
  const Bytes packed = PackMsbFirst(levels, 2);
  for (const bool count : {false, true}) {
    LevelDecoder decoder;
    ASSERT_TRUE(
        decoder.SetData("repetition", format::Encoding::kBitPacked, 3, 100, packed.data(), 20).ok());
    Levels out(100);
    ASSERT_TRUE(decoder.Decode(79, out.data()).ok());
    EXPECT_TRUE(std::equal(out.begin(), out.begin() + 79, levels.begin()));
    Status st = count ? decoder.Count(21, 1).status() : decoder.Decode(21, out.data());
    ExpectInvalid(st, "repetition levels: the section ends before level 80 (the page has 100)");
  }
  // An empty section.
  LevelDecoder decoder;
  ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kRle, 1, 3, nullptr, 0).ok());
  Levels out(3);
  ExpectInvalid(decoder.Decode(3, out.data()),
                "definition levels: the section ends before level 0 (the page has 3)");
}

TEST(LevelDecoder, V1SectionSizeChecksTheBytes) {
  const Bytes rle = EncodeRle({1, 1, 0, 1}, 1);
  // The prefix says more bytes than the page holds.
  const auto size = static_cast<int64_t>(rle.size());
  auto r = V1LevelSectionSize(format::Encoding::kRle, 1, 4, rle.data(), size - 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("length prefix says"), std::string::npos) << r.status();
  r = V1LevelSectionSize(format::Encoding::kRle, 1, 4, rle.data(), 3);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("too short for the 4-byte length prefix"), std::string::npos);
  r = V1LevelSectionSize(format::Encoding::kBitPacked, 1, 17, rle.data(), 2);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "BIT_PACKED levels: 17 levels of 1 bits need 3 bytes but only 2 remain");
  r = V1LevelSectionSize(format::Encoding::kBitPacked, 1, std::numeric_limits<int64_t>::max(), rle.data(),
                         2);
  EXPECT_FALSE(r.ok());
  r = V1LevelSectionSize(format::Encoding::kPlain, 1, 4, rle.data(), 8);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "level encoding PLAIN is not RLE or BIT_PACKED");
  r = V1LevelSectionSize(static_cast<format::Encoding>(77), 1, 4, rle.data(), 8);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "level encoding unknown (77) is not RLE or BIT_PACKED");
  EXPECT_FALSE(V1LevelSectionSize(format::Encoding::kRle, 1, -1, rle.data(), 8).ok());
  EXPECT_FALSE(V1LevelSectionSize(format::Encoding::kRle, -1, 4, rle.data(), 8).ok());
  // Max level 0: no section, whatever the encoding says.
  r = V1LevelSectionSize(format::Encoding::kPlain, 0, 4, nullptr, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 0);
}

// Levels above max_level (which fit the bit width) are refused at their
// index, in RLE runs, bit-packed runs and BIT_PACKED sections.
TEST(LevelDecoder, LevelsAboveMaxLevel) {
  Levels levels(40, 1);
  levels[25] = 3;  // inside a bit-packed run (the other values vary)
  for (int i = 0; i < 24; ++i) levels[i] = static_cast<int16_t>(i % 3);
  Levels rle_run(40, 2);
  for (int i = 30; i < 40; ++i) rle_run[i] = 3;  // an RLE run of 3
  struct Case {
    format::Encoding encoding;
    Levels levels;
    int64_t bad;
  };
  for (const Case& c : {Case{format::Encoding::kRle, levels, 25}, Case{format::Encoding::kRle, rle_run, 30},
                        Case{format::Encoding::kBitPacked, levels, 25}}) {
    const Bytes bytes =
        c.encoding == format::Encoding::kRle ? EncodeRle(c.levels, 2) : PackMsbFirst(c.levels, 2);
    const int64_t skip = c.encoding == format::Encoding::kRle ? 4 : 0;
    const std::string message = "definition levels: level " + std::to_string(c.bad) +
                                " is 3, above the max definition level 2";
    for (const bool count : {false, true}) {
      for (const int64_t first : {int64_t{0}, int64_t{10}}) {
        LevelDecoder decoder;
        ASSERT_TRUE(decoder.SetData("definition", c.encoding, 2, 40, bytes.data() + skip,
                                    static_cast<int64_t>(bytes.size()) - skip)
                        .ok());
        Levels out(40);
        if (first > 0) {
          ASSERT_TRUE(decoder.Decode(first, out.data()).ok());
        }
        Status st = count ? decoder.Count(40 - first, 2).status()
                          : decoder.Decode(40 - first, out.data());
        ExpectInvalid(st, message);
        // Only the levels before it are good; later calls fail.
        EXPECT_FALSE(decoder.Count(0, 0).ok());
      }
      // Levels before the bad one decode.
      LevelDecoder decoder;
      ASSERT_TRUE(decoder.SetData("definition", c.encoding, 2, 40, bytes.data() + skip,
                                  static_cast<int64_t>(bytes.size()) - skip)
                      .ok());
      Levels out(40);
      ASSERT_TRUE(decoder.Decode(c.bad, out.data()).ok());
      EXPECT_TRUE(std::equal(out.begin(), out.begin() + c.bad, c.levels.begin()));
    }
  }
}

TEST(LevelDecoder, MalformedRleRuns) {
  // A zero-length run after a run of 8 ones.
  const Bytes bytes = {8 << 1, 1, 0};
  for (const bool count : {false, true}) {
    LevelDecoder decoder;
    ASSERT_TRUE(decoder.SetData("repetition", format::Encoding::kRle, 1, 10, bytes.data(), 3).ok());
    Levels out(10);
    Status st = count ? decoder.Count(10, 1).status() : decoder.Decode(10, out.data());
    ExpectInvalid(st, "repetition levels: level 8: RLE/bit-packed data: empty run at byte 2");
  }
  // An RLE value wider than the bit width.
  const Bytes wide = {4 << 1, 5};
  LevelDecoder decoder;
  ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kRle, 3, 4, wide.data(), 2).ok());
  Levels out(4);
  Status st = decoder.Decode(4, out.data());
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("definition levels: level 0: RLE/bit-packed data: RLE run at byte 0"),
            std::string::npos)
      << st;
}

TEST(LevelDecoder, MaxLevelZeroReadsNothing) {
  for (const format::Encoding encoding : {format::Encoding::kRle, format::Encoding::kBitPacked}) {
    LevelDecoder decoder;
    ASSERT_TRUE(decoder.SetData("definition", encoding, 0, 10, nullptr, 0).ok());
    Levels out(6, -1);
    ASSERT_TRUE(decoder.Decode(6, out.data()).ok());
    EXPECT_EQ(out, Levels(6, 0));
    auto c = decoder.Count(3, 0);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(*c, 3);
    c = decoder.Count(1, 1);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(*c, 0);
    EXPECT_EQ(decoder.levels_left(), 0);
  }
}

TEST(LevelDecoder, MisuseAndBadArguments) {
  const Bytes bytes = EncodeRle(Levels(16, 1), 1);
  LevelDecoder decoder;
  ExpectInvalid(decoder.SetData("definition", format::Encoding::kPlain, 1, 16, bytes.data(), 4),
                "definition levels: encoding PLAIN is not RLE or BIT_PACKED");
  EXPECT_EQ(decoder.levels_left(), 0);
  ExpectInvalid(decoder.SetData("definition", format::Encoding::kRle, -2, 16, bytes.data(), 4),
                "definition levels: negative max level -2");
  ExpectInvalid(decoder.SetData("definition", format::Encoding::kRle, 1, -1, bytes.data(), 4),
                "definition levels: negative number of levels -1");
  ExpectInvalid(decoder.SetData("definition", format::Encoding::kRle, 1, 1, bytes.data(), -4),
                "definition levels: negative section size -4");
  // A good SetData after the errors starts afresh.
  ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kRle, 1, 16, bytes.data() + 4,
                              static_cast<int64_t>(bytes.size()) - 4)
                  .ok());
  Levels out(17);
  ASSERT_TRUE(decoder.Decode(10, out.data()).ok());
  EXPECT_EQ(decoder.levels_left(), 6);
  ExpectInvalid(decoder.Decode(7, out.data()),
                "definition levels: asked for 7 levels but 6 are left");
  EXPECT_FALSE(decoder.Decode(1, out.data()).ok());
  ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kRle, 1, 16, bytes.data() + 4,
                              static_cast<int64_t>(bytes.size()) - 4)
                  .ok());
  EXPECT_FALSE(decoder.Count(-1, 1).ok());
  // A level that is no level counts nothing.
  ASSERT_TRUE(decoder.SetData("definition", format::Encoding::kRle, 1, 16, bytes.data() + 4,
                              static_cast<int64_t>(bytes.size()) - 4)
                  .ok());
  auto c = decoder.Count(16, -1);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, 0);
}

// Random bytes as RLE and BIT_PACKED sections: errors or levels within
// max_level, never a read outside the section (ASan), Count agreeing with
// Decode on what they accept.
TEST(LevelDecoder, RandomBytesNeverOverread) {
  std::mt19937 rng(42);
  for (int iter = 0; iter < 2000; ++iter) {
    const int64_t size = rng() % 40;
    Bytes bytes(static_cast<size_t>(size));
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    const auto max_level = static_cast<int16_t>(1 + rng() % 9);
    const int64_t n = rng() % 200;
    const format::Encoding encoding = iter % 2 == 0 ? format::Encoding::kRle : format::Encoding::kBitPacked;
    LevelDecoder a;
    LevelDecoder b;
    ASSERT_TRUE(a.SetData("definition", encoding, max_level, n, bytes.data(), size).ok());
    ASSERT_TRUE(b.SetData("definition", encoding, max_level, n, bytes.data(), size).ok());
    Levels out(static_cast<size_t>(n));
    Status decoded = a.Decode(n, out.data());
    auto counted = b.Count(n, 1);
    EXPECT_EQ(decoded, counted.status()) << iter;
    if (decoded.ok()) {
      for (int16_t l : out) ASSERT_LE(l, max_level);
      EXPECT_EQ(*counted, std::count(out.begin(), out.end(), 1));
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

// DecodeBits against the levels themselves, for RLE (runs set as ranges,
// bit-packed runs copied) and BIT_PACKED sections, in batches that start
// at every bit offset, interleaved with Decode and Count on the same
// decoder (the bulk paths leave the run state where the others expect it).
TEST(LevelDecoder, DecodeBitsMatchesLevels) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const int64_t n = 3000 + seed * 37;
    const Levels levels = RandomLevels(1, n, seed);
    for (format::Encoding encoding : {format::Encoding::kRle, format::Encoding::kBitPacked}) {
      Bytes bytes = encoding == format::Encoding::kRle ? EncodeRle(levels, 1) : PackMsbFirst(levels, 1);
      const int64_t skip = encoding == format::Encoding::kRle ? 4 : 0;
      LevelDecoder decoder;
      {
      Status st_ = decoder.SetData("definition", encoding, 1, n, bytes.data() + skip,
                                static_cast<int64_t>(bytes.size()) - skip);
      ASSERT_TRUE(st_.ok()) << st_;
    }
      std::vector<uint8_t> bits(static_cast<size_t>(n / 8 + 2), 0xA5);
      std::mt19937 rng(seed);
      for (int64_t done = 0; done < n;) {
        const int64_t k = std::min<int64_t>(1 + rng() % 300, n - done);
        const int how = static_cast<int>(rng() % 3);
        if (how == 0) {
          auto ones_r = decoder.DecodeBits(k, bits.data(), done);
          ASSERT_TRUE(ones_r.ok()) << ones_r.status();
          const int64_t ones = *ones_r;
          int64_t expect_ones = 0;
          for (int64_t i = 0; i < k; ++i) {
            ASSERT_EQ(bit_util::GetBit(bits.data(), done + i), levels[done + i] == 1)
                << "seed " << seed << " level " << done + i;
            expect_ones += levels[done + i];
          }
          EXPECT_EQ(ones, expect_ones);
        } else if (how == 1) {
          Levels out(static_cast<size_t>(k));
          {
      Status st_ = decoder.Decode(k, out.data());
      ASSERT_TRUE(st_.ok()) << st_;
    }
          EXPECT_TRUE(std::equal(out.begin(), out.end(), levels.begin() + done));
        } else {
          auto ones_r = decoder.Count(k, 1);
          ASSERT_TRUE(ones_r.ok()) << ones_r.status();
          const int64_t ones = *ones_r;
          EXPECT_EQ(ones, std::count(levels.begin() + done, levels.begin() + done + k, 1));
        }
        done += k;
      }
      EXPECT_EQ(decoder.levels_left(), 0);
    }
  }
}

TEST(LevelDecoder, DecodeBitsErrors) {
  const Levels levels(100, 1);
  Bytes bytes = EncodeRle(levels, 1);
  LevelDecoder decoder;
  std::vector<uint8_t> bits(32);
  // More levels than the section holds.
  {
      Status st_ = decoder.SetData("definition", format::Encoding::kRle, 1, 200, bytes.data() + 4,
                            static_cast<int64_t>(bytes.size()) - 4);
      ASSERT_TRUE(st_.ok()) << st_;
    }
  EXPECT_TRUE(decoder.DecodeBits(200, bits.data(), 0).status().IsInvalid());
  // Only for max level 1.
  {
      Status st_ = decoder.SetData("definition", format::Encoding::kRle, 2, 100, bytes.data() + 4,
                            static_cast<int64_t>(bytes.size()) - 4);
      ASSERT_TRUE(st_.ok()) << st_;
    }
  EXPECT_TRUE(decoder.DecodeBits(10, bits.data(), 0).status().IsInvalid());
}

TEST(LevelsToBitmap, EveryOffsetAndLength) {
  const Levels levels = RandomLevels(3, 200, 7);
  for (int64_t offset = 0; offset < 9; ++offset) {
    for (int64_t len : {0, 1, 7, 8, 9, 63, 64, 65, 200}) {
      std::vector<uint8_t> bits(32, 0xFF);
      const int64_t set = LevelsToBitmap(levels.data(), len, 2, bits.data(), offset);
      int64_t expect = 0;
      for (int64_t i = 0; i < len; ++i) {
        ASSERT_EQ(bit_util::GetBit(bits.data(), offset + i), levels[i] >= 2);
        expect += levels[i] >= 2;
      }
      EXPECT_EQ(set, expect);
      // Bits around the range are untouched.
      for (int64_t i = 0; i < offset; ++i) EXPECT_TRUE(bit_util::GetBit(bits.data(), i));
      EXPECT_TRUE(bit_util::GetBit(bits.data(), offset + len));
    }
  }
}

TEST(LevelHistogram, MatchesCountsForEveryMaxLevelAndLength) {
  for (int16_t max_level = 0; max_level <= 40; ++max_level) {
    for (int64_t n : {0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 1000}) {
      const Levels levels = RandomLevels(max_level, n, static_cast<uint32_t>(max_level * 7919 + n));
      std::vector<int64_t> expect(static_cast<size_t>(max_level) + 1, 0);
      for (const int16_t level : levels) ++expect[static_cast<size_t>(level)];
      // One entry past the histogram: LevelHistogram writes none there.
      std::vector<int64_t> hist(expect.size() + 1, -1);
      LevelHistogram(levels.data(), n, max_level, hist.data());
      EXPECT_EQ(hist.back(), -1) << "max level " << max_level << ", " << n << " levels";
      hist.pop_back();
      EXPECT_EQ(hist, expect) << "max level " << max_level << ", " << n << " levels";
    }
  }
}

TEST(LevelHistogram, CountsPastWhatASixteenBitLaneHolds) {
  // Eight lanes of int16 counters take 32767 steps of 8 levels; these runs of
  // one level are longer, so every lane passes 32767 many times over.
  const int64_t n = 8 * 32767 * 3 + 8 * 5 + 3;
  for (int16_t max_level = 2; max_level <= 8; ++max_level) {
    for (int16_t level = 0; level <= max_level; ++level) {
      const Levels levels(static_cast<size_t>(n), level);
      std::vector<int64_t> hist(static_cast<size_t>(max_level) + 1, -1);
      LevelHistogram(levels.data(), n, max_level, hist.data());
      for (int16_t k = 0; k <= max_level; ++k) {
        EXPECT_EQ(hist[static_cast<size_t>(k)], k == level ? n : 0)
            << "max level " << max_level << ", all levels " << level << ", count of " << k;
      }
    }
  }
  // And mixed: two levels alternating in runs, over the same length.
  Levels mixed(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) mixed[static_cast<size_t>(i)] = static_cast<int16_t>((i / 5) % 2 == 0 ? 1 : 4);
  std::vector<int64_t> hist(6, -1);
  LevelHistogram(mixed.data(), n, 5, hist.data());
  int64_t ones = 0;
  for (int64_t i = 0; i < n; ++i) ones += (i / 5) % 2 == 0;
  EXPECT_EQ(hist, (std::vector<int64_t>{0, ones, 0, 0, n - ones, 0}));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
