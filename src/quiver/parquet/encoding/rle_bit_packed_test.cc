#include "quiver/parquet/encoding/rle_bit_packed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "quiver/parquet/encoding/dictionary_indices.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using Bytes = std::vector<uint8_t>;

Bytes ToBytes(const MutableBuffer& buffer) {
  return Bytes(buffer.data(), buffer.data() + buffer.size());
}

Bytes Encode(const std::vector<uint32_t>& values, int bit_width, bool prefix = false) {
  MutableBuffer out;
  RleBitPackedEncoder encoder(bit_width, &out, prefix);
  for (uint32_t v : values) {
    Status st = encoder.Put(v);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  auto n = encoder.Flush();
  EXPECT_TRUE(n.ok());
  EXPECT_EQ(*n, out.size());
  return ToBytes(out);
}

// An independent, bit-by-bit reading of the spec's grammar (no length
// prefix). Returns nullopt on anything malformed.
std::optional<std::vector<uint32_t>> ReferenceDecode(const Bytes& data, int w) {
  std::vector<uint32_t> out;
  size_t pos = 0;
  while (pos < data.size()) {
    uint64_t header = 0;
    int shift = 0;
    while (true) {
      if (pos >= data.size() || shift > 35) return std::nullopt;
      const uint8_t b = data[pos++];
      header |= uint64_t{b & 0x7fu} << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    if (header & 1) {
      const uint64_t n = (header >> 1) * 8;
      if (pos + (header >> 1) * w > data.size()) return std::nullopt;
      for (uint64_t i = 0; i < n; ++i) {
        uint32_t v = 0;
        for (int b = 0; b < w; ++b) {
          const uint64_t bit = i * w + b;
          if ((data[pos + bit / 8] >> (bit % 8)) & 1) v |= 1u << b;
        }
        out.push_back(v);
      }
      pos += (header >> 1) * w;
    } else {
      const int nbytes = (w + 7) / 8;
      if (pos + nbytes > data.size()) return std::nullopt;
      uint32_t v = 0;
      for (int b = 0; b < nbytes; ++b) v |= uint32_t{data[pos + b]} << (8 * b);
      pos += nbytes;
      out.insert(out.end(), header >> 1, v);
    }
  }
  return out;
}

template <typename T>
std::vector<T> DecodeAll(const Bytes& data, int w, int64_t n, int64_t batch, Status* status) {
  RleBitPackedDecoder decoder(data.data(), static_cast<int64_t>(data.size()), w);
  std::vector<T> out(static_cast<size_t>(n));
  int64_t read = 0;
  while (read < n) {
    const int64_t got = decoder.GetBatch(out.data() + read, std::min(batch, n - read));
    if (got == 0) break;
    read += got;
  }
  out.resize(static_cast<size_t>(read));
  *status = decoder.status();
  return out;
}

// ---------------------------------------------------------------------------
// Exact bytes

TEST(RleBitPackedTest, SpecBitPackingExample) {
  // Encodings.md: 0..7 with bit width 3 packs to 0x88 0xC6 0xFA; as one
  // bit-packed run of 1 group its header is (1 << 1 | 1).
  EXPECT_EQ(Encode({0, 1, 2, 3, 4, 5, 6, 7}, 3), (Bytes{0x03, 0x88, 0xC6, 0xFA}));
}

TEST(RleBitPackedTest, RleRunBytes) {
  // 10 x 4 at width 3: header 10 << 1 = 0x14, value in one byte.
  EXPECT_EQ(Encode(std::vector<uint32_t>(10, 4), 3), (Bytes{0x14, 0x04}));
  // With the 4-byte length prefix (v1 levels).
  EXPECT_EQ(Encode(std::vector<uint32_t>(10, 4), 3, true),
            (Bytes{0x02, 0x00, 0x00, 0x00, 0x14, 0x04}));
  // 300 x 1 at width 1: header 600 = ULEB128 0xD8 0x04.
  EXPECT_EQ(Encode(std::vector<uint32_t>(300, 1), 1), (Bytes{0xD8, 0x04, 0x01}));
  // Width 9: the value takes two little-endian bytes.
  EXPECT_EQ(Encode(std::vector<uint32_t>(8, 0x1AB), 9), (Bytes{0x10, 0xAB, 0x01}));
  // Width 0: no value bytes.
  EXPECT_EQ(Encode(std::vector<uint32_t>(5, 0), 0), (Bytes{0x0A}));
  // Fewer than 8 equal values alone still make an RLE run.
  EXPECT_EQ(Encode({3, 3, 3}, 2), (Bytes{0x06, 0x03}));
  // Empty: nothing, or just a zero length prefix.
  EXPECT_EQ(Encode({}, 5), Bytes{});
  EXPECT_EQ(Encode({}, 5, true), (Bytes{0, 0, 0, 0}));
}

TEST(RleBitPackedTest, MixedRunsBytes) {
  // 8 zeros (a group of equal values: RLE), then 1, 2, 3 (padded literal
  // group): 0x10 0x00 | 0x03 [1,2,3,0,0,0,0,0 at 2 bits = 0x39 0x00].
  std::vector<uint32_t> values(8, 0);
  values.insert(values.end(), {1, 2, 3});
  EXPECT_EQ(Encode(values, 2), (Bytes{0x10, 0x00, 0x03, 0x39, 0x00}));
  // A literal group, then 8 equal values starting on a group boundary
  // (RLE), then a literal: the run choice is by aligned groups of 8.
  values = {1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
  EXPECT_EQ(Encode(values, 1), (Bytes{0x03, 0x55, 0x14, 0x01, 0x02, 0x00}));
  // Equal values not aligned to a group stay bit-packed: 1 then 8 x 1.
  values = {0, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(Encode(values, 1), (Bytes{0x05, 0xFE, 0x01}));
}

TEST(RleBitPackedTest, LiteralRunsHoldAtMost63Groups) {
  std::vector<uint32_t> values;
  for (int i = 0; i < 1000; ++i) values.push_back(i & 1);
  const Bytes bytes = Encode(values, 1);
  // 125 groups: a run of 63 (header 0x7F) and one of 62 (header 0x7D).
  ASSERT_EQ(bytes.size(), 1u + 63 + 1 + 62);
  EXPECT_EQ(bytes[0], 0x7F);
  EXPECT_EQ(bytes[64], 0x7D);
  for (size_t i = 1; i < bytes.size(); ++i) {
    if (i != 64) {
      EXPECT_EQ(bytes[i], 0xAA) << i;
    }
  }
}

TEST(RleBitPackedTest, ValueTooWideIsInvalid) {
  MutableBuffer out;
  RleBitPackedEncoder encoder(3, &out);
  Status st = encoder.Put(8);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("does not fit in 3 bits"), std::string::npos);
  EXPECT_TRUE(encoder.PutRepeated(9, 100).IsInvalid());
  const int16_t negative[] = {1, -1};
  EXPECT_TRUE(encoder.PutBatch(negative, 2).IsInvalid());
}

// ---------------------------------------------------------------------------
// Round trips

std::vector<uint32_t> MakeValues(int w, int64_t n, int pattern, std::mt19937_64& rng) {
  const uint64_t max = w == 32 ? 0xFFFFFFFFull : (uint64_t{1} << w) - 1;
  std::vector<uint32_t> values;
  values.reserve(static_cast<size_t>(n));
  while (static_cast<int64_t>(values.size()) < n) {
    const uint32_t v = static_cast<uint32_t>(rng() & max);
    int64_t run = 1;
    switch (pattern) {
      case 0:  // random
        break;
      case 1:  // runs of random lengths, some long
        run = static_cast<int64_t>(rng() % (rng() % 4 == 0 ? 200 : 12)) + 1;
        break;
      case 2:  // constant
        run = n;
        break;
      default:  // mostly the maximum, as levels of a mostly non-null column
        values.push_back(rng() % 10 == 0 ? v : static_cast<uint32_t>(max));
        continue;
    }
    for (int64_t i = 0; i < run && static_cast<int64_t>(values.size()) < n; ++i) {
      values.push_back(v);
    }
  }
  return values;
}

TEST(RleBitPackedTest, RoundTripEveryWidthAndManyLengths) {
  std::mt19937_64 rng(1234);
  std::vector<int64_t> lengths;
  for (int64_t n = 0; n <= 70; ++n) lengths.push_back(n);
  for (int64_t n = 71; n <= 2000; n += 61) lengths.push_back(n);
  lengths.push_back(2000);
  for (int w = 0; w <= 32; ++w) {
    for (int64_t n : lengths) {
      for (int pattern = 0; pattern < 4; ++pattern) {
        const std::vector<uint32_t> values = MakeValues(w, n, pattern, rng);
        const Bytes bytes = Encode(values, w);
        SCOPED_TRACE("width " + std::to_string(w) + " n " + std::to_string(n) + " pattern " +
                     std::to_string(pattern));
        ASSERT_LE(static_cast<int64_t>(bytes.size()), RleBitPackedEncoder::MaxEncodedSize(w, n));
        // The spec reading yields the values, then at most 7 padding zeros.
        auto reference = ReferenceDecode(bytes, w);
        ASSERT_TRUE(reference.has_value());
        ASSERT_GE(reference->size(), values.size());
        ASSERT_LT(reference->size(), values.size() + 8);
        ASSERT_TRUE(std::equal(values.begin(), values.end(), reference->begin()));
        Status status;
        const auto decoded = DecodeAll<uint32_t>(bytes, w, n, n + 1, &status);
        ASSERT_TRUE(status.ok()) << status.ToString();
        ASSERT_EQ(decoded, values);
      }
    }
  }
}

TEST(RleBitPackedTest, DecodeInSmallBatchesAndOtherTypes) {
  std::mt19937_64 rng(99);
  for (int w : {1, 3, 8, 13}) {
    const std::vector<uint32_t> values = MakeValues(w, 3000, 1, rng);
    const Bytes bytes = Encode(values, w);
    for (int64_t batch : {1, 3, 31, 32, 33, 100, 5000}) {
      Status status;
      const auto as_int16 = DecodeAll<int16_t>(bytes, w, 3000, batch, &status);
      ASSERT_TRUE(status.ok());
      const auto as_int32 = DecodeAll<int32_t>(bytes, w, 3000, batch, &status);
      const auto as_uint64 = DecodeAll<uint64_t>(bytes, w, 3000, batch, &status);
      const auto as_uint8 = DecodeAll<uint8_t>(bytes, w, 3000, batch, &status);
      ASSERT_EQ(as_int16.size(), 3000u);
      for (size_t i = 0; i < values.size(); ++i) {
        ASSERT_EQ(as_int16[i], static_cast<int16_t>(values[i])) << "batch " << batch;
        ASSERT_EQ(as_int32[i], static_cast<int32_t>(values[i]));
        ASSERT_EQ(as_uint64[i], values[i]);
        ASSERT_EQ(as_uint8[i], static_cast<uint8_t>(values[i]));
      }
    }
  }
}

// PutBatch's whole-group path (groups of 8 that are not all equal, at a
// group boundary): random values with runs mixed in, fed in pieces of
// random sizes, give the bytes of Put one value at a time.
TEST(RleBitPackedTest, PutBatchInPiecesMatchesPut) {
  std::mt19937_64 rng(11);
  for (int w : {1, 2, 3, 8, 15}) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<int16_t> values;
      while (values.size() < 3000) {
        const int16_t v = static_cast<int16_t>(rng() % (uint64_t{1} << w));
        const int64_t len = rng() % 4 == 0 ? static_cast<int64_t>(rng() % 40) : 1;
        for (int64_t i = 0; i < len; ++i) values.push_back(v);
      }
      MutableBuffer a, b;
      RleBitPackedEncoder by_put(w, &a, true), by_batch(w, &b, true);
      for (int16_t v : values) ASSERT_TRUE(by_put.Put(static_cast<uint64_t>(v)).ok());
      for (size_t at = 0; at < values.size();) {
        const size_t n = std::min<size_t>(values.size() - at, rng() % 50);
        ASSERT_TRUE(by_batch.PutBatch(values.data() + at, static_cast<int64_t>(n)).ok());
        at += n;
      }
      EXPECT_EQ(by_batch.num_values(), static_cast<int64_t>(values.size()));
      ASSERT_TRUE(by_put.Flush().ok());
      ASSERT_TRUE(by_batch.Flush().ok());
      ASSERT_EQ(ToBytes(a), ToBytes(b)) << "width " << w << " trial " << trial;
    }
  }
  // A value too wide inside a would-be literal group is refused.
  MutableBuffer c;
  RleBitPackedEncoder enc(2, &c);
  const int16_t wide[] = {0, 1, 2, 3, 0, 1, 2, 4, 0};
  EXPECT_TRUE(enc.PutBatch(wide, 9).IsInvalid());
}

TEST(RleBitPackedTest, PutBatchOf32And16BitValuesMatchesPut) {
  // int32 and uint32 (dictionary indices) and int16 (levels): whole
  // bit-packed groups are checked and appended 8 at a time. Random values,
  // runs (some of 8 or more, which open RLE runs), in pieces of random
  // sizes (groups and runs across calls), at widths up to 31 for int32, 32
  // for uint32 and 15 for int16, equal Put's bytes; a negative or too wide
  // value in a group is refused.
  std::mt19937_64 rng(23);
  auto check = [&](auto tag, int w) {
    using T = decltype(tag);
    for (int pattern = 0; pattern < 4; ++pattern) {
      for (int trial = 0; trial < 10; ++trial) {
        const std::vector<uint32_t> raw = MakeValues(w, 2000 + static_cast<int64_t>(rng() % 700), pattern, rng);
        std::vector<T> values(raw.begin(), raw.end());
        MutableBuffer a, b;
        RleBitPackedEncoder by_put(w, &a), by_batch(w, &b);
        for (T v : values) ASSERT_TRUE(by_put.Put(static_cast<uint64_t>(v)).ok());
        for (size_t at = 0; at < values.size();) {
          const size_t n = std::min<size_t>(values.size() - at, rng() % 90);
          ASSERT_TRUE(by_batch.PutBatch(values.data() + at, static_cast<int64_t>(n)).ok());
          at += n;
        }
        ASSERT_TRUE(by_put.Flush().ok());
        ASSERT_TRUE(by_batch.Flush().ok());
        ASSERT_EQ(ToBytes(a), ToBytes(b)) << "width " << w << " pattern " << pattern;
      }
    }
  };
  for (int w : {2, 5, 17, 18, 31}) {
    check(int32_t{}, w);
    check(uint32_t{}, w);
  }
  check(uint32_t{}, 32);
  for (int w : {2, 3, 9, 15}) check(int16_t{}, w);
  for (const int16_t bad : {int16_t{-1}, int16_t{INT16_MIN}, int16_t{16}}) {
    std::vector<int16_t> group = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    group[10] = bad;
    group[15] = 1;
    MutableBuffer out;
    RleBitPackedEncoder enc(4, &out);
    EXPECT_TRUE(enc.PutBatch(group.data(), 16).IsInvalid()) << bad;
  }
  for (const int32_t bad : {-1, INT32_MIN, 1 << 18}) {
    std::vector<int32_t> group = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    group[13] = bad;
    MutableBuffer out;
    RleBitPackedEncoder enc(18, &out);
    EXPECT_TRUE(enc.PutBatch(group.data(), 16).IsInvalid()) << bad;
  }
  std::vector<uint32_t> wide = {1, 2, 3, 4, 5, 6, 7, uint32_t{1} << 31};
  MutableBuffer out;
  RleBitPackedEncoder enc(31, &out);
  EXPECT_TRUE(enc.PutBatch(wide.data(), 8).IsInvalid());
}

TEST(RleBitPackedTest, PutBitmapMatchesPut) {
  // Bitmaps of random bits, of runs (short, around 8, long) and of all ones,
  // at every bit offset, put whole and in pieces.
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<uint8_t> values;
    const int kind = trial % 3;
    // Long random stretches too: bit-packed runs of 63 groups put 8 groups
    // a step, which must split at the run's end.
    const size_t size = trial % 7 == 0 ? 20000 : 2500;
    while (values.size() < size) {
      const uint8_t v = static_cast<uint8_t>(rng() & 1);
      const int64_t len = kind == 0   ? 1
                          : kind == 1 ? static_cast<int64_t>(rng() % 20) + 1
                                      : static_cast<int64_t>(rng() % 300) + 1;
      for (int64_t k = 0; k < len; ++k) values.push_back(v);
    }
    if (trial == 59) std::fill(values.begin(), values.end(), uint8_t{1});
    if (trial == 56 || trial == 58) {
      // Runs of hundreds to thousands of bits (PutBitmap skips 256 aligned
      // bits a step), alternating.
      values.clear();
      for (uint8_t v = 0; values.size() < 12000; v ^= 1) {
        values.insert(values.end(), static_cast<size_t>(rng() % 1500) + 250, v);
      }
    }
    const int64_t offset = trial % 8 + (trial % 5) * 8;
    std::vector<uint8_t> bitmap((values.size() + static_cast<size_t>(offset)) / 8 + 1, 0xA5);
    for (size_t k = 0; k < values.size(); ++k) {
      bit_util::SetBitTo(bitmap.data(), offset + static_cast<int64_t>(k), values[k] != 0);
    }
    MutableBuffer a, b, c;
    RleBitPackedEncoder by_put(1, &a, true), whole(1, &b, true), pieces(1, &c, true);
    for (uint8_t v : values) ASSERT_TRUE(by_put.Put(v).ok());
    const auto n = static_cast<int64_t>(values.size());
    ASSERT_TRUE(whole.PutBitmap(bitmap.data(), offset, n).ok());
    for (int64_t at = 0; at < n;) {
      const int64_t len = std::min<int64_t>(n - at, static_cast<int64_t>(rng() % 70));
      ASSERT_TRUE(pieces.PutBitmap(bitmap.data(), offset + at, len).ok());
      at += len;
    }
    EXPECT_EQ(whole.num_values(), n);
    ASSERT_TRUE(by_put.Flush().ok());
    ASSERT_TRUE(whole.Flush().ok());
    ASSERT_TRUE(pieces.Flush().ok());
    ASSERT_EQ(ToBytes(a), ToBytes(b)) << "trial " << trial;
    ASSERT_EQ(ToBytes(a), ToBytes(c)) << "trial " << trial;
    // And the stream decodes to the bits (past the 4-byte length prefix).
    RleBitPackedDecoder decoder(b.data() + 4, b.size() - 4, 1);
    std::vector<uint8_t> decoded(values.size());
    ASSERT_EQ(decoder.GetBatch(decoded.data(), n), n) << "trial " << trial;
    ASSERT_EQ(decoded, values) << "trial " << trial;
  }
  MutableBuffer d;
  RleBitPackedEncoder wide(2, &d);
  const uint8_t one = 1;
  EXPECT_TRUE(wide.PutBitmap(&one, 0, 1).IsInvalid());
}

TEST(RleBitPackedTest, PutRepeatedAndPutBatchMatchPut) {
  std::mt19937_64 rng(7);
  for (int w : {0, 1, 2, 5, 16, 32}) {
    for (int trial = 0; trial < 50; ++trial) {
      // Runs of lengths around the interesting thresholds.
      std::vector<std::pair<uint32_t, int64_t>> runs;
      const uint64_t max = w == 32 ? 0xFFFFFFFFull : (uint64_t{1} << w) - 1;
      for (int r = 0; r < 20; ++r) {
        const int64_t lens[] = {1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 500};
        runs.emplace_back(static_cast<uint32_t>(rng() & max), lens[rng() % 11]);
      }
      std::vector<uint32_t> flat;
      MutableBuffer a, b, c;
      RleBitPackedEncoder by_put(w, &a), by_repeated(w, &b), by_batch(w, &c);
      for (auto [v, len] : runs) {
        for (int64_t i = 0; i < len; ++i) {
          ASSERT_TRUE(by_put.Put(v).ok());
          flat.push_back(v);
        }
        ASSERT_TRUE(by_repeated.PutRepeated(v, len).ok());
      }
      ASSERT_TRUE(by_batch.PutBatch(flat.data(), static_cast<int64_t>(flat.size())).ok());
      EXPECT_EQ(by_put.num_values(), static_cast<int64_t>(flat.size()));
      EXPECT_EQ(by_repeated.num_values(), static_cast<int64_t>(flat.size()));
      ASSERT_TRUE(by_put.Flush().ok());
      ASSERT_TRUE(by_repeated.Flush().ok());
      ASSERT_TRUE(by_batch.Flush().ok());
      ASSERT_EQ(ToBytes(a), ToBytes(b)) << "width " << w;
      ASSERT_EQ(ToBytes(a), ToBytes(c)) << "width " << w;
    }
  }
  // int16 levels.
  const int16_t levels[] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0};
  MutableBuffer d;
  RleBitPackedEncoder enc(2, &d);
  ASSERT_TRUE(enc.PutBatch(levels, 13).ok());
  ASSERT_TRUE(enc.Flush().ok());
  Status status;
  const auto back = DecodeAll<int16_t>(ToBytes(d), 2, 13, 13, &status);
  EXPECT_EQ(back, std::vector<int16_t>(levels, levels + 13));
}

TEST(RleBitPackedTest, HugeRepeatedRunsAreCheapAndSplitAtTheSpecLimit) {
  MutableBuffer out;
  RleBitPackedEncoder encoder(1, &out);
  ASSERT_TRUE(encoder.PutRepeated(1, int64_t{3} << 30).ok());  // > 2^31 - 1
  auto n = encoder.Flush();
  ASSERT_TRUE(n.ok());
  // Two runs: 2^31 - 1 and 2^30 + 1.
  const Bytes bytes = ToBytes(out);
  EXPECT_EQ(bytes.size(), 5u + 1 + 5 + 1);
  RleBitPackedDecoder decoder(bytes.data(), static_cast<int64_t>(bytes.size()), 1);
  std::vector<uint8_t> chunk(1 << 20);
  int64_t total = 0;
  while (true) {
    const int64_t got = decoder.GetBatch(chunk.data(), static_cast<int64_t>(chunk.size()));
    if (got == 0) break;
    total += got;
    if (total > (int64_t{1} << 24)) break;  // enough: the values are all 1
  }
  EXPECT_TRUE(decoder.status().ok());
  EXPECT_EQ(chunk[0], 1);
}

TEST(RleBitPackedTest, EncoderIsReusableAfterFlush) {
  MutableBuffer out;
  RleBitPackedEncoder encoder(2, &out, /*length_prefix=*/true);
  ASSERT_TRUE(encoder.PutRepeated(3, 10).ok());
  auto first = encoder.Flush();
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, 6);
  ASSERT_TRUE(encoder.Put(1).ok());
  auto second = encoder.Flush();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*second, 6);
  EXPECT_EQ(ToBytes(out), (Bytes{2, 0, 0, 0, 0x14, 0x03, 2, 0, 0, 0, 0x02, 0x01}));
}

TEST(RleBitPackedTest, MaxEncodedSizeBoundsAdversarialPatterns) {
  for (int w : {0, 1, 2, 7, 8, 9, 31, 32}) {
    const uint32_t max = w == 32 ? 0xFFFFFFFFu : (1u << w) - 1;
    for (int64_t n : {1, 7, 8, 9, 16, 17, 100, 1000, 5000}) {
      // Alternating RLE runs of exactly 8 and literal groups.
      std::vector<uint32_t> values;
      for (int64_t i = 0; static_cast<int64_t>(values.size()) < n; ++i) {
        for (int j = 0; j < 8 && static_cast<int64_t>(values.size()) < n; ++j) {
          values.push_back((i % 2 == 0) ? max : static_cast<uint32_t>(j % 2 ? max : 0));
        }
      }
      EXPECT_LE(static_cast<int64_t>(Encode(values, w).size()),
                RleBitPackedEncoder::MaxEncodedSize(w, n))
          << "w " << w << " n " << n;
    }
  }
}

// ---------------------------------------------------------------------------
// Untrusted input

TEST(RleBitPackedTest, TruncatedInputDecodesAPrefixAndNeverOverreads) {
  std::mt19937_64 rng(5);
  for (int w : {1, 3, 8, 17, 32}) {
    for (int pattern : {0, 1}) {
      const std::vector<uint32_t> values = MakeValues(w, 700, pattern, rng);
      const Bytes bytes = Encode(values, w);
      for (size_t cut = 0; cut < bytes.size(); ++cut) {
        // An exact-size copy: ASan catches any read past it.
        auto data = std::make_unique<uint8_t[]>(cut + 0);
        std::copy(bytes.begin(), bytes.begin() + static_cast<long>(cut), data.get());
        RleBitPackedDecoder decoder(data.get(), static_cast<int64_t>(cut), w);
        std::vector<uint32_t> out(800);
        const int64_t got = decoder.GetBatch(out.data(), 800);
        ASSERT_LE(got, 700 + 7);
        for (int64_t i = 0; i < got && i < 700; ++i) {
          ASSERT_EQ(out[i], values[i]) << "width " << w << " cut " << cut << " i " << i;
        }
      }
    }
  }
}

TEST(RleBitPackedTest, MalformedRunsSetStatus) {
  struct Case {
    Bytes data;
    int width;
    const char* message;
  };
  const std::vector<Case> cases = {
      {{0x00}, 3, "empty run at byte 0"},
      {{0x14, 0x01, 0x01}, 3, "empty run at byte 2"},  // a bit-packed run of 0 groups
      {Bytes(11, 0xFF), 3, "invalid run header at byte 0"},
      {{0x80}, 3, "invalid run header"},                       // truncated varint
      {{0x80, 0x80, 0x80, 0x80, 0x10, 0x00}, 3, "invalid run header"},  // run of 2^31
      {{0x02, 0x09}, 3, "does not fit in bit width 3"},
      {{0x02, 0x01}, 9, "truncated"},
  };
  for (const Case& c : cases) {
    RleBitPackedDecoder decoder(c.data.data(), static_cast<int64_t>(c.data.size()), c.width);
    uint32_t out[64];
    const int64_t got = decoder.GetBatch(out, 64);
    EXPECT_LT(got, 64);
    ASSERT_FALSE(decoder.status().ok()) << c.message;
    EXPECT_TRUE(decoder.status().IsInvalid());
    EXPECT_NE(decoder.status().message().find(c.message), std::string::npos)
        << decoder.status().ToString();
    // Further calls return nothing and keep the first error.
    EXPECT_EQ(decoder.GetBatch(out, 64), 0);
    EXPECT_NE(decoder.status().message().find(c.message), std::string::npos);
  }
  RleBitPackedDecoder bad_width(nullptr, 0, 33);
  uint32_t out[1];
  EXPECT_EQ(bad_width.GetBatch(out, 1), 0);
  EXPECT_TRUE(bad_width.status().IsInvalid());
}

TEST(RleBitPackedTest, OversizedBitPackedRunIsCutToTheBytesPresent) {
  // Header claims 10 groups (80 values) of width 8 but 3 bytes follow.
  const Bytes data = {0x15, 7, 8, 9};
  RleBitPackedDecoder decoder(data.data(), 4, 8);
  uint32_t out[100];
  EXPECT_EQ(decoder.GetBatch(out, 100), 3);
  EXPECT_EQ(out[0], 7u);
  EXPECT_EQ(out[2], 9u);
  EXPECT_TRUE(decoder.status().ok());
}

TEST(RleBitPackedTest, RandomGarbageNeverCrashes) {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 2000; ++trial) {
    const size_t size = rng() % 64;
    auto data = std::make_unique<uint8_t[]>(size + 0);
    for (size_t i = 0; i < size; ++i) data[i] = static_cast<uint8_t>(rng());
    const int w = static_cast<int>(rng() % 33);
    RleBitPackedDecoder decoder(data.get(), static_cast<int64_t>(size), w);
    std::vector<uint32_t> out(4096);
    const int64_t got = decoder.GetBatch(out.data(), 4096);
    const uint64_t max = w == 32 ? 0xFFFFFFFFull : (uint64_t{1} << w) - 1;
    for (int64_t i = 0; i < got; ++i) ASSERT_LE(out[i], max);
  }
}

// Count() against GetBatch(): the same values passed and counted, stopping
// just before the first value above max_value (which GetBatch then returns),
// over RLE runs, bit-packed runs and batch sizes that cut both.
TEST(RleBitPackedTest, CountAgreesWithGetBatch) {
  std::mt19937_64 rng(9);
  for (int w : {1, 2, 3, 8, 13, 32}) {
    for (int pattern : {0, 1}) {
      const std::vector<uint32_t> values = MakeValues(w, 3000, pattern, rng);
      const Bytes bytes = Encode(values, w);
      const uint32_t max = w == 32 ? 0xFFFFFFFFu : (uint32_t{1} << w) - 1;
      for (const uint32_t max_value : {max, max / 2, uint32_t{0}}) {
        for (const int64_t batch : {int64_t{1}, int64_t{7}, int64_t{100}, int64_t{3000}}) {
          const uint32_t value = values[values.size() / 2];
          RleBitPackedDecoder decoder(bytes.data(), static_cast<int64_t>(bytes.size()), w);
          size_t pos = 0;
          while (pos < values.size()) {
            const int64_t k = std::min<int64_t>(batch, static_cast<int64_t>(values.size() - pos));
            int64_t equal = 0;
            const int64_t got = decoder.Count(k, value, max_value, &equal);
            int64_t expect_got = 0;
            int64_t expect_equal = 0;
            while (expect_got < k && values[pos + expect_got] <= max_value) {
              expect_equal += values[pos + expect_got] == value;
              ++expect_got;
            }
            ASSERT_EQ(got, expect_got) << "w " << w << " pos " << pos;
            ASSERT_EQ(equal, expect_equal) << "w " << w << " pos " << pos;
            pos += static_cast<size_t>(got);
            if (got < k) {
              // Stopped before a value above max_value: GetBatch returns it.
              uint32_t next = 0;
              ASSERT_EQ(decoder.GetBatch(&next, 1), 1);
              ASSERT_EQ(next, values[pos]);
              ASSERT_GT(next, max_value);
              ++pos;
            }
          }
          EXPECT_TRUE(decoder.status().ok());
        }
      }
    }
  }
  // At the end of the data, and on a malformed run, Count stops too.
  const Bytes data = {8 << 1, 1, 0};
  RleBitPackedDecoder decoder(data.data(), 3, 1);
  int64_t equal = 0;
  EXPECT_EQ(decoder.Count(20, 1, 1, &equal), 8);
  EXPECT_EQ(equal, 8);
  EXPECT_NE(decoder.status().message().find("empty run at byte 2"), std::string::npos);
}

TEST(RleBitPackedTest, GetBitsCountAndGetBatchInterleaved) {
  // Bit width 1 (levels): GetBits, Count and GetBatch of 1- and 2-byte
  // values take bit-packed runs as bits
  // and skip to the run's end without unpacking its last block; GetBatch
  // after them, in the same run or the next, unpacks where it is.
  std::mt19937_64 rng(21);
  for (int pattern : {0, 1}) {
    const std::vector<uint32_t> values = MakeValues(1, 5000, pattern, rng);
    const Bytes bytes = Encode(values, 1);
    for (int round = 0; round < 20; ++round) {
      RleBitPackedDecoder decoder(bytes.data(), static_cast<int64_t>(bytes.size()), 1);
      size_t pos = 0;
      while (pos < values.size()) {
        const int64_t k = std::min<int64_t>(1 + static_cast<int64_t>(rng() % 90),
                                            static_cast<int64_t>(values.size() - pos));
        int64_t expect_ones = 0;
        for (int64_t i = 0; i < k; ++i) expect_ones += values[pos + i];
        switch (rng() % 3) {
          case 0: {
            std::vector<uint8_t> bits(static_cast<size_t>(k / 8 + 2), 0);
            int64_t ones = 0;
            ASSERT_EQ(decoder.GetBits(bits.data(), 3, k, &ones), k);
            ASSERT_EQ(ones, expect_ones);
            for (int64_t i = 0; i < k; ++i) {
              ASSERT_EQ(bit_util::GetBit(bits.data(), 3 + i), values[pos + i] != 0) << pos + i;
            }
            break;
          }
          case 1: {
            int64_t equal = 0;
            ASSERT_EQ(decoder.Count(k, 1, 1, &equal), k);
            ASSERT_EQ(equal, expect_ones);
            break;
          }
          default: {
            // As uint32 (blocks of 32 unpacked), int16 and bytes (levels:
            // bit-packed bytes expanded eight values at a time).
            const int type = static_cast<int>(rng() % 3);
            std::vector<uint32_t> got(static_cast<size_t>(k));
            if (type == 0) {
              ASSERT_EQ(decoder.GetBatch(got.data(), k), k);
            } else if (type == 1) {
              std::vector<int16_t> narrow(static_cast<size_t>(k) + 1, 7);
              ASSERT_EQ(decoder.GetBatch(narrow.data(), k), k);
              ASSERT_EQ(narrow[static_cast<size_t>(k)], 7);  // nothing written past k
              std::copy(narrow.begin(), narrow.end() - 1, got.begin());
            } else {
              std::vector<uint8_t> narrow(static_cast<size_t>(k) + 1, 7);
              ASSERT_EQ(decoder.GetBatch(narrow.data(), k), k);
              ASSERT_EQ(narrow[static_cast<size_t>(k)], 7);
              std::copy(narrow.begin(), narrow.end() - 1, got.begin());
            }
            for (int64_t i = 0; i < k; ++i) ASSERT_EQ(got[i], values[pos + i]) << pos + i << " type " << type;
          }
        }
        pos += static_cast<size_t>(k);
      }
      EXPECT_TRUE(decoder.status().ok());
    }
  }
}

TEST(RleBitPackedTest, GetBitsKeepsTheBitsAroundAtEveryOffset) {
  // GetBits writes bits [out_offset, out_offset + n) and no other: into a
  // bitmap already holding bits, at every offset within a word and then
  // some, for spans short and long over RLE and bit-packed runs (and a
  // bit-packed run cut short by the end of the data).
  std::mt19937_64 rng(33);
  for (int pattern : {0, 1}) {
    const std::vector<uint32_t> values = MakeValues(1, 3000, pattern, rng);
    Bytes bytes = Encode(values, 1);
    for (const bool cut : {false, true}) {
      if (cut) bytes.resize(bytes.size() - 3);
      for (int64_t offset = 0; offset < 70; ++offset) {
        RleBitPackedDecoder decoder(bytes.data(), static_cast<int64_t>(bytes.size()), 1);
        size_t pos = 0;
        int64_t at = offset;
        std::vector<uint8_t> bits(values.size() / 8 + 16);
        for (auto& b : bits) b = static_cast<uint8_t>(rng());
        std::vector<uint8_t> expected = bits;
        bool end = false;
        while (!end) {
          // (Not past the values: the last bit-packed run may be padded.)
          const int64_t k = std::min<int64_t>(1 + static_cast<int64_t>(rng() % (rng() % 3 == 0 ? 400 : 40)),
                                              static_cast<int64_t>(values.size() - pos));
          int64_t ones = 5;
          const int64_t got = decoder.GetBits(bits.data(), at, k, &ones);
          ASSERT_LE(got, k);
          int64_t expect_ones = 5;
          for (int64_t i = 0; i < got; ++i) {
            ASSERT_LT(pos + i, values.size());
            bit_util::SetBitTo(expected.data(), at + i, values[pos + i] != 0);
            expect_ones += values[pos + i];
          }
          ASSERT_EQ(ones, expect_ones);
          ASSERT_EQ(bits, expected) << "offset " << offset << " at " << at << " k " << k;
          pos += static_cast<size_t>(got);
          at += got;
          end = got < k || pos == values.size();
        }
        EXPECT_EQ(pos == values.size(), !cut) << pos;
        if (!cut) {
          EXPECT_TRUE(decoder.status().ok());  // (a cut RLE run is an error)
        }
      }
    }
  }
}

TEST(RleBitPackedTest, LengthPrefix) {
  const Bytes bytes = Encode(std::vector<uint32_t>(10, 4), 3, true);
  auto length = RleBitPackedDecoder::ReadLengthPrefix(bytes.data(), 6);
  ASSERT_TRUE(length.ok());
  EXPECT_EQ(*length, 2);
  EXPECT_TRUE(RleBitPackedDecoder::ReadLengthPrefix(bytes.data(), 5).status().IsInvalid());
  EXPECT_TRUE(RleBitPackedDecoder::ReadLengthPrefix(bytes.data(), 3).status().IsInvalid());
}

// ---------------------------------------------------------------------------
// Dictionary indices

TEST(DictionaryIndicesTest, MinBitWidth) {
  EXPECT_EQ(MinBitWidth(0), 0);
  EXPECT_EQ(MinBitWidth(1), 1);  // as Arrow C++ writes
  EXPECT_EQ(MinBitWidth(2), 1);
  EXPECT_EQ(MinBitWidth(3), 2);
  EXPECT_EQ(MinBitWidth(4), 2);
  EXPECT_EQ(MinBitWidth(5), 3);
  EXPECT_EQ(MinBitWidth(256), 8);
  EXPECT_EQ(MinBitWidth(257), 9);
  EXPECT_EQ(MinBitWidth(int64_t{1} << 31), 31);
}

TEST(DictionaryIndicesTest, RoundTripWithBitWidthByte) {
  std::mt19937_64 rng(3);
  for (int64_t dict_size : {1, 2, 3, 100, 70000}) {
    const int w = MinBitWidth(dict_size);
    std::vector<int32_t> indices(3333);
    for (auto& i : indices) i = static_cast<int32_t>(rng() % dict_size);
    MutableBuffer out;
    ASSERT_TRUE(out.Push(0xEE).ok());  // something before: only appended to
    auto n = EncodeDictionaryIndices(indices.data(), 3333, w, &out);
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(*n + 1, out.size());
    EXPECT_EQ(out.data()[0], 0xEE);
    EXPECT_EQ(out.data()[1], w);
    auto decoder = MakeDictionaryIndexDecoder(out.data() + 1, out.size() - 1);
    ASSERT_TRUE(decoder.ok());
    std::vector<int32_t> back(3333);
    EXPECT_EQ(decoder->GetBatch(back.data(), 3333), 3333);
    EXPECT_EQ(back, indices);
  }
  const int32_t too_big[] = {4};
  MutableBuffer out;
  EXPECT_TRUE(EncodeDictionaryIndices(too_big, 1, 2, &out).status().IsInvalid());
  EXPECT_TRUE(MakeDictionaryIndexDecoder(nullptr, 0).status().IsInvalid());
  const uint8_t wide[] = {33, 0};
  EXPECT_TRUE(MakeDictionaryIndexDecoder(wide, 2).status().IsInvalid());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
