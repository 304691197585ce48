#include "quiver/dedup/byte_chunker.h"

#include <gtest/gtest.h>

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <set>

#include "quiver/dedup/test_util_internal.h"

namespace quiver::dedup {
namespace {
namespace QUIVER_UNITY_ID {

using testing::RandomBytes;

// An independent statement of the cut rule: the chunk starting at `start`
// ends at the smallest length L in (min, limit] whose 64-byte window hash,
// computed from scratch as sum(gear[data[p - 1 - k]] << k), has zero bits
// under the mask for L (mask_small while L <= normal, mask_large after).
std::vector<int64_t> ReferenceChunks(const std::vector<uint8_t>& data,
                                     const ByteChunkerOptions& o) {
  const auto& gear = ByteGearTable();
  const int bits = std::countr_zero(static_cast<uint64_t>(o.avg_size));
  const uint64_t mask_small = ~uint64_t{0} << (64 - (bits + o.normalization));
  const uint64_t mask_large = ~uint64_t{0} << (64 - (bits - o.normalization));
  const int64_t normal = std::max(o.min_size, o.avg_size - o.min_size - o.min_size / 2);
  const auto size = static_cast<int64_t>(data.size());
  std::vector<int64_t> ends;
  int64_t start = 0;
  while (start < size) {
    const int64_t remaining = size - start;
    int64_t length = std::min(remaining, o.max_size);
    if (remaining > o.min_size) {
      for (int64_t l = o.min_size + 1; l <= std::min(remaining, o.max_size); ++l) {
        uint64_t window = 0;
        for (int k = 0; k < 64; ++k) {
          window += gear[data[static_cast<size_t>(start + l - 1 - k)]] << k;
        }
        if ((window & (l <= normal ? mask_small : mask_large)) == 0) {
          length = l;
          break;
        }
      }
    } else {
      length = remaining;
    }
    start += length;
    ends.push_back(start);
  }
  return ends;
}

std::vector<int64_t> Chunk(const std::vector<uint8_t>& data, const ByteChunkerOptions& o = {}) {
  auto ends = ChunkBytes(data.data(), static_cast<int64_t>(data.size()), o);
  EXPECT_TRUE(ends.ok()) << ends.status();
  return ends.ok() ? *ends : std::vector<int64_t>{};
}

void ExpectWellFormed(const std::vector<int64_t>& ends, int64_t size,
                      const ByteChunkerOptions& o) {
  ASSERT_FALSE(ends.empty());
  EXPECT_EQ(ends.back(), size);
  int64_t start = 0;
  for (size_t i = 0; i < ends.size(); ++i) {
    const int64_t length = ends[i] - start;
    EXPECT_LE(length, o.max_size) << "chunk " << i;
    if (i + 1 < ends.size()) {
      EXPECT_GT(length, o.min_size) << "chunk " << i;
    } else {
      EXPECT_GT(length, 0);
    }
    start = ends[i];
  }
}

TEST(ByteChunker, GearTableIsXxh64OfEachByte) {
  const auto& gear = ByteGearTable();
  std::set<uint64_t> distinct(gear.begin(), gear.end());
  EXPECT_EQ(distinct.size(), 256u);
  for (int b : {0, 1, 127, 255}) {
    const auto byte = static_cast<uint8_t>(b);
    EXPECT_EQ(gear[static_cast<size_t>(b)], XXH64(&byte, 1, 0)) << b;
  }
}

TEST(ByteChunker, OptionsAreValidated) {
  EXPECT_TRUE(ByteChunkerOptions{}.Validate().ok());
  EXPECT_TRUE((ByteChunkerOptions{32, 1024, 4096, 1}).Validate().IsInvalid());     // min < 64
  EXPECT_TRUE((ByteChunkerOptions{256, 1000, 4096, 1}).Validate().IsInvalid());    // avg not 2^k
  EXPECT_TRUE((ByteChunkerOptions{2048, 1024, 4096, 1}).Validate().IsInvalid());   // avg <= min
  EXPECT_TRUE((ByteChunkerOptions{256, 1024, 1024, 1}).Validate().IsInvalid());    // max <= avg
  EXPECT_TRUE((ByteChunkerOptions{256, 1024, 4096, 4}).Validate().IsInvalid());    // norm > 3
  EXPECT_TRUE((ByteChunkerOptions{256, 1024, 4096, -1}).Validate().IsInvalid());   // norm < 0
  Status st = ByteChunkerOptions{256, 1000, 4096, 1}.Validate();
  EXPECT_NE(st.message().find("avg_size"), std::string::npos) << st;
  auto bad = ChunkBytes(nullptr, 0, ByteChunkerOptions{32, 1024, 4096, 1});
  EXPECT_TRUE(bad.status().IsInvalid());
  EXPECT_TRUE(ChunkBytes(nullptr, -1).status().IsInvalid());
}

TEST(ByteChunker, SmallInputs) {
  EXPECT_TRUE(Chunk({}).empty());
  std::vector<uint8_t> small = RandomBytes(8 * 1024, 1);
  EXPECT_EQ(Chunk(small), (std::vector<int64_t>{8 * 1024}));
  std::vector<uint8_t> one(1, 7);
  EXPECT_EQ(Chunk(one), (std::vector<int64_t>{1}));
}

TEST(ByteChunker, MatchesTheReferenceDefinition) {
  // Small parameters, so that many chunks (and every branch: small mask,
  // large mask, max size) occur in a quick test.
  const ByteChunkerOptions o{256, 1024, 2048, 1};
  for (uint64_t seed : {1, 2, 3}) {
    std::vector<uint8_t> data = RandomBytes(96 * 1024 + static_cast<int64_t>(seed) * 37, seed);
    auto ends = Chunk(data, o);
    ExpectWellFormed(ends, static_cast<int64_t>(data.size()), o);
    EXPECT_EQ(ends, ReferenceChunks(data, o)) << "seed " << seed;
    EXPECT_GT(ends.size(), 50u);
  }
  // Low-entropy data (long runs): every chunk reaches max_size or none does.
  std::vector<uint8_t> zeros(20000, 0);
  EXPECT_EQ(Chunk(zeros, o), ReferenceChunks(zeros, o));
}

// (The third chunk reaches max_size: 235006 - 103934 = 128 KiB.)
const std::vector<int64_t> kPinnedEnds = {67923, 103934, 235006};

TEST(ByteChunker, DefaultSizesOnRandomData) {
  const int64_t size = 16 * 1024 * 1024;
  std::vector<uint8_t> data = RandomBytes(size, 42);
  ByteChunkerOptions o;
  auto ends = Chunk(data, o);
  ExpectWellFormed(ends, size, o);
  const double mean = static_cast<double>(size) / static_cast<double>(ends.size());
  // Expected about 65.8 KiB (see byte_chunker.h); 256 chunks give a
  // standard error of about 2 KiB.
  EXPECT_GT(mean, 58 * 1024.0);
  EXPECT_LT(mean, 74 * 1024.0);
  int64_t at_max = 0;
  int64_t start = 0;
  for (int64_t end : ends) {
    at_max += (end - start == o.max_size);
    start = end;
  }
  EXPECT_LT(at_max, static_cast<int64_t>(ends.size()) / 5);
  // Pinned regression values of this implementation (not an outside
  // reference): the first chunk ends for this input.
  ASSERT_GE(ends.size(), 3u);
  EXPECT_EQ(std::vector<int64_t>(ends.begin(), ends.begin() + 3), kPinnedEnds);
}

TEST(ByteChunker, BoundariesResynchroniseAfterAnInsertion) {
  std::vector<uint8_t> data = RandomBytes(4 * 1024 * 1024, 9);
  std::vector<uint8_t> shifted = RandomBytes(1000, 10);
  shifted.insert(shifted.end(), data.begin(), data.end());
  auto a = Chunk(data);
  auto b = Chunk(shifted);
  // Every boundary of `a` past the first chunk or two reappears, shifted by
  // exactly 1000 bytes.
  std::set<int64_t> b_ends(b.begin(), b.end());
  size_t kept = 0;
  for (int64_t end : a) kept += b_ends.count(end + 1000);
  EXPECT_GE(kept + 2, a.size());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::dedup
