#include "quiver/parquet/bloom/bloom_filter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
// The library's one-shot XXH64 (not inlined here): an independent reference
// for BloomFilter::Hash, which inlines xxHash.
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using ::testing::HasSubstr;

#define ASSERT_OK(expr)                      \
  do {                                       \
    ::quiver::Status _st = (expr);           \
    ASSERT_TRUE(_st.ok()) << _st.ToString(); \
  } while (false)

#define ASSERT_OK_AND_ASSIGN_IMPL(result, lhs, rexpr)  \
  auto&& result = (rexpr);                              \
  ASSERT_TRUE(result.ok()) << result.status();          \
  lhs = std::move(result).MoveValueUnsafe()
#define ASSERT_OK_AND_ASSIGN(lhs, rexpr) \
  ASSERT_OK_AND_ASSIGN_IMPL(QUIVER_CONCAT(_result_, __COUNTER__), lhs, rexpr)

std::vector<uint8_t> Serialized(const BloomFilter& filter) {
  MutableBuffer out;
  Status st = filter.Serialize(&out);
  EXPECT_TRUE(st.ok()) << st;
  return std::vector<uint8_t>(out.data(), out.data() + out.size());
}

// Deserialize from a heap copy of exactly `bytes`, so ASan sees over-reads.
Result<BloomFilter> DeserializeExact(const std::vector<uint8_t>& bytes, size_t length,
                                     int64_t* consumed = nullptr) {
  std::unique_ptr<uint8_t[]> copy(new uint8_t[length == 0 ? 1 : length]);
  if (length > 0) std::memcpy(copy.get(), bytes.data(), length);
  return BloomFilter::Deserialize(length == 0 ? nullptr : copy.get(), static_cast<int64_t>(length),
                                  consumed);
}

// ---------------------------------------------------------------------------
// Sizing

// The spec's formula with Arrow C++'s rounding, written out independently:
// bits = max(256, floor(m)) rounded up to a power of two, at most 2^30 bits.
int64_t ReferenceNumBytes(int64_t ndv, double fpp) {
  const double m = -8.0 * static_cast<double>(ndv) / std::log(1.0 - std::pow(fpp, 1.0 / 8));
  double bits = std::floor(m);
  if (bits > 1073741824.0) return 134217728;
  if (bits < 256) bits = 256;
  int64_t p = 256;
  while (static_cast<double>(p) < bits) p *= 2;
  return std::min<int64_t>(p, 1073741824) / 8;
}

TEST(BloomFilterSizing, KnownSizes) {
  // pyarrow 26 wrote these sizes into testdata/bloom_filters.parquet.
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1000, 0.05), 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(100, 0.1), 128);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(700, 0.001), 2048);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(300, 0.2), 256);
  // The size table of arrow-rs's parquet::bloom_filter docs (same formula).
  EXPECT_EQ(BloomFilter::OptimalNumBytes(10'000, 0.1), 8 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(10'000, 0.01), 16 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(10'000, 0.001), 32 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(100'000, 0.1), 128 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(100'000, 0.0001), 512 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1'000'000, 0.01), 2048 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1'000'000, 0.000001), 8192 * 1024);
  // The spec: 1% takes about 1.2 MB for a million values (9.68 bits each);
  // rounded up to a power of two that is the 2 MiB above.
  EXPECT_NEAR(-8.0 / std::log(1.0 - std::pow(0.01, 1.0 / 8)), 9.68, 0.01);
}

TEST(BloomFilterSizing, MatchesFormulaOnAGrid) {
  for (int64_t ndv : {1, 2, 10, 31, 100, 1000, 4095, 12345, 65536, 1'000'000, 20'000'000}) {
    for (double fpp : {0.5, 0.2, 0.1, 0.05, 0.01, 0.005, 0.001, 1e-4, 1e-6}) {
      const int64_t n = BloomFilter::OptimalNumBytes(ndv, fpp);
      EXPECT_EQ(n, ReferenceNumBytes(ndv, fpp)) << "ndv=" << ndv << " fpp=" << fpp;
      EXPECT_EQ(n & (n - 1), 0) << n;
      EXPECT_GE(n, BloomFilter::kMinimumBytes);
      EXPECT_LE(n, BloomFilter::kMaximumBytes);
    }
  }
}

TEST(BloomFilterSizing, Bounds) {
  EXPECT_EQ(BloomFilter::OptimalNumBytes(0, 0.01), 32);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1, 0.01), 32);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(-5, 0.01), 32);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1000, 1.0), 32);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(int64_t{1} << 40, 0.01), 128 * 1024 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(std::numeric_limits<int64_t>::max(), 1e-9),
            128 * 1024 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1000, 0.0), 128 * 1024 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1000, -1.0), 128 * 1024 * 1024);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(1000, std::nan("")), 128 * 1024 * 1024);
  // Either side of a power of two: at 1% (9.68 bits per value) 108'000
  // values need 1'045'605 bits (< 2^20), 110'000 need 1'064'968 (> 2^20).
  EXPECT_EQ(BloomFilter::OptimalNumBytes(108'000, 0.01), 131072);
  EXPECT_EQ(BloomFilter::OptimalNumBytes(110'000, 0.01), 262144);
}

TEST(BloomFilterMake, ValidatesArguments) {
  ASSERT_OK_AND_ASSIGN(BloomFilter f, BloomFilter::Make(1000, 0.05));
  EXPECT_EQ(f.num_bytes(), 1024);
  for (uint8_t b : f.bitset()) ASSERT_EQ(b, 0);

  auto bad_ndv = BloomFilter::Make(-1, 0.05);
  ASSERT_FALSE(bad_ndv.ok());
  EXPECT_TRUE(bad_ndv.status().IsInvalid());
  EXPECT_THAT(bad_ndv.status().message(), HasSubstr("ndv must be >= 0, got -1"));
  for (double fpp : {0.0, 1.0, -0.5, 2.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    auto r = BloomFilter::Make(10, fpp);
    ASSERT_FALSE(r.ok()) << fpp;
    EXPECT_THAT(r.status().message(), HasSubstr("fpp must be in (0, 1)"));
  }
  ASSERT_OK_AND_ASSIGN(BloomFilter zero, BloomFilter::Make(0, 0.5));
  EXPECT_EQ(zero.num_bytes(), 32);
}

TEST(BloomFilterMake, WithNumBytes) {
  for (int64_t n : {32, 64, 4096, 1 << 20}) {
    ASSERT_OK_AND_ASSIGN(BloomFilter f, BloomFilter::MakeWithNumBytes(n));
    EXPECT_EQ(f.num_bytes(), n);
  }
  for (int64_t n :
       {int64_t{0}, int64_t{16}, int64_t{48}, int64_t{100}, int64_t{1} << 28, int64_t{-32}}) {
    auto r = BloomFilter::MakeWithNumBytes(n);
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_THAT(r.status().message(), HasSubstr("num_bytes must be a power of two"));
  }
}

TEST(BloomFilterMake, OutOfMemoryIsAStatus) {
  CappedMemoryPool pool(DefaultMemoryPool(), 1000);
  auto r = BloomFilter::Make(1000, 0.05, &pool);  // 1024 bytes
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsOutOfMemory()) << r.status();
}

// ---------------------------------------------------------------------------
// Hashing

template <typename T>
uint64_t LibXxh64(const T& value) {
  return XXH64(&value, sizeof(T), 0);
}

TEST(BloomFilterHash, KnownConstants) {
  // Computed with a from-the-spec Python XXH64 (xxHash doc/xxhash_spec.md),
  // independent of libxxhash; XXH64("") is also the published test vector.
  EXPECT_EQ(BloomFilter::Hash(std::string_view()), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(BloomFilter::Hash(int32_t{42}), 0xD756D7B62FC50BF1ULL);
  EXPECT_EQ(BloomFilter::Hash(int32_t{-1}), 0x7F78E4BDA3ADDF93ULL);
  EXPECT_EQ(BloomFilter::Hash(int64_t{42}), 0xB556806FB6D14353ULL);
  EXPECT_EQ(BloomFilter::Hash(std::numeric_limits<int64_t>::min()), 0x3F425EACF01544E0ULL);
  EXPECT_EQ(BloomFilter::Hash(-0.25f), 0x0FFABB68C18DFF47ULL);
  EXPECT_EQ(BloomFilter::Hash(1.5), 0x49F7B96B6B5CCAF9ULL);
  EXPECT_EQ(BloomFilter::Hash(std::string_view("hello")), 0x26C7827D889F6DA3ULL);
  std::string forty(40, '\0');
  for (int i = 0; i < 40; ++i) forty[i] = static_cast<char>(i);
  EXPECT_EQ(BloomFilter::Hash(std::string_view(forty)), 0xF5DA40F1B11741E9ULL);
}

TEST(BloomFilterHash, MatchesLibraryXxh64) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t bits = rng();
    const auto i32 = static_cast<int32_t>(bits);
    const auto i64 = static_cast<int64_t>(bits);
    float f;
    double d;
    const auto b32 = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b32, 4);
    std::memcpy(&d, &bits, 8);
    ASSERT_EQ(BloomFilter::Hash(i32), LibXxh64(i32));
    ASSERT_EQ(BloomFilter::Hash(i64), LibXxh64(i64));
    ASSERT_EQ(BloomFilter::Hash(f), LibXxh64(f));  // bit pattern, NaNs included
    ASSERT_EQ(BloomFilter::Hash(d), LibXxh64(d));
    std::string s(static_cast<size_t>(bits % 100), 'x');
    for (size_t k = 0; k < s.size(); ++k) s[k] = static_cast<char>(rng());
    ASSERT_EQ(BloomFilter::Hash(std::string_view(s)), XXH64(s.data(), s.size(), 0));
  }
  // BYTE_ARRAY hashes the bytes only, not the 4-byte PLAIN length prefix.
  const char with_prefix[] = {5, 0, 0, 0, 'h', 'e', 'l', 'l', 'o'};
  EXPECT_NE(BloomFilter::Hash(std::string_view("hello")), XXH64(with_prefix, 9, 0));
  // Floats are hashed bit for bit.
  EXPECT_NE(BloomFilter::Hash(0.0), BloomFilter::Hash(-0.0));
}

TEST(BloomFilterHash, BatchesEqualSingles) {
  constexpr int64_t kN = 300;
  std::vector<int32_t> i32(kN);
  std::vector<int64_t> i64(kN);
  std::vector<float> f32(kN);
  std::vector<double> f64(kN);
  std::vector<std::string> strings(kN);
  for (int64_t i = 0; i < kN; ++i) {
    i32[i] = static_cast<int32_t>(i * 1000003);
    i64[i] = i * 0x12345678901LL;
    f32[i] = static_cast<float>(i) / 3.0f;
    f64[i] = static_cast<double>(i) / 7.0;
    strings[i] = std::string(static_cast<size_t>(i % 37), static_cast<char>('a' + i % 26));
  }
  std::vector<uint64_t> out(kN);
  BloomFilter::Hashes(i32.data(), kN, out.data());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], BloomFilter::Hash(i32[i]));
  BloomFilter::Hashes(i64.data(), kN, out.data());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], BloomFilter::Hash(i64[i]));
  BloomFilter::Hashes(f32.data(), kN, out.data());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], BloomFilter::Hash(f32[i]));
  BloomFilter::Hashes(f64.data(), kN, out.data());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], BloomFilter::Hash(f64[i]));

  // Binary in Arrow layout, with 32- and 64-bit offsets, and string_views.
  std::string data;
  std::vector<int32_t> offsets32{0};
  std::vector<int64_t> offsets64{0};
  std::vector<std::string_view> views;
  for (const auto& s : strings) data += s;
  for (const auto& s : strings) {
    offsets32.push_back(offsets32.back() + static_cast<int32_t>(s.size()));
    offsets64.push_back(offsets64.back() + static_cast<int64_t>(s.size()));
    views.emplace_back(s);
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  BloomFilter::HashesBinary(bytes, offsets32.data(), kN, out.data());
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(out[i], BloomFilter::Hash(std::string_view(strings[i])));
  }
  std::fill(out.begin(), out.end(), 0);
  BloomFilter::HashesBinary(bytes, offsets64.data(), kN, out.data());
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(out[i], BloomFilter::Hash(std::string_view(strings[i])));
  }
  std::fill(out.begin(), out.end(), 0);
  BloomFilter::Hashes(views.data(), kN, out.data());
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], BloomFilter::Hash(views[i]));

  // Fixed size: 7-byte values back to back.
  std::vector<uint8_t> fixed(7 * kN);
  for (size_t k = 0; k < fixed.size(); ++k) fixed[k] = static_cast<uint8_t>(k * 31);
  BloomFilter::HashesFixedSize(fixed.data(), 7, kN, out.data());
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(out[i], XXH64(fixed.data() + 7 * i, 7, 0));
  }
  BloomFilter::Hashes(i32.data(), 0, nullptr);  // n = 0 touches nothing
}

// ---------------------------------------------------------------------------
// The algorithm

TEST(BloomFilterAlgorithm, SetsTheSpecsBits) {
  // 4 blocks. The upper 32 bits select block ((h >> 32) * 4) >> 32; the lower
  // 32 bits (the key) set bit (key * salt[i]) >> 27 of word i.
  ASSERT_OK_AND_ASSIGN(BloomFilter f, BloomFilter::MakeWithNumBytes(128));
  const uint64_t hash = (uint64_t{0x80000000} << 32) | 0x12345678u;  // block 2
  f.InsertHash(hash);
  const std::span<const uint8_t> bits = f.bitset();
  for (int block = 0; block < 4; ++block) {
    for (int word = 0; word < 8; ++word) {
      uint32_t value;
      std::memcpy(&value, bits.data() + 32 * block + 4 * word, 4);  // little-endian host
      uint32_t expected = 0;
      if (block == 2) expected = uint32_t{1} << ((0x12345678u * BloomFilter::kSalt[word]) >> 27);
      EXPECT_EQ(value, expected) << "block " << block << " word " << word;
    }
  }
  EXPECT_TRUE(f.FindHash(hash));
  // Same key, other block: not found.
  EXPECT_FALSE(f.FindHash((uint64_t{0x10000000} << 32) | 0x12345678u));
  // Block index uses multiplication, not a mask: 0xC0000000 -> block 3,
  // 0x3FFFFFFF -> block 0.
  ASSERT_OK_AND_ASSIGN(BloomFilter g, BloomFilter::MakeWithNumBytes(128));
  g.InsertHash(uint64_t{0xC0000000} << 32);
  g.InsertHash(uint64_t{0x3FFFFFFF} << 32);
  // Key 0 sets bit 0 of every word.
  for (int word = 0; word < 8; ++word) {
    EXPECT_EQ(g.bitset()[96 + 4 * word], 1);
    EXPECT_EQ(g.bitset()[0 + 4 * word], 1);
    EXPECT_EQ(g.bitset()[32 + 4 * word], 0);
    EXPECT_EQ(g.bitset()[64 + 4 * word], 0);
  }
}

TEST(BloomFilterAlgorithm, InsertedValuesAreFound) {
  ASSERT_OK_AND_ASSIGN(BloomFilter f, BloomFilter::Make(5000, 0.01));
  std::mt19937_64 rng(42);
  std::vector<int64_t> values(5000);
  for (auto& v : values) v = static_cast<int64_t>(rng());
  std::vector<uint64_t> hashes(values.size());
  BloomFilter::Hashes(values.data(), static_cast<int64_t>(values.size()), hashes.data());
  f.InsertHashes(hashes.data(), static_cast<int64_t>(hashes.size()));
  for (int64_t v : values) ASSERT_TRUE(f.FindHash(BloomFilter::Hash(v))) << v;
  // Inserting one by one gives the same bits.
  ASSERT_OK_AND_ASSIGN(BloomFilter g, BloomFilter::Make(5000, 0.01));
  for (uint64_t h : hashes) g.InsertHash(h);
  EXPECT_TRUE(std::equal(f.bitset().begin(), f.bitset().end(), g.bitset().begin()));
}

TEST(BloomFilterAlgorithm, BatchInsertEqualsOneByOne) {
  // InsertHashes (the AVX2 kernel where the CPU has it, else the prefetching
  // scalar loop) against InsertHash, for batches shorter and longer than the
  // prefetch distance and filters of one block to a megabyte.
  std::mt19937_64 rng(3);
  for (int64_t bytes : {int64_t{32}, int64_t{64}, int64_t{4096}, int64_t{1} << 20}) {
    for (int64_t n : {0, 1, 7, 8, 9, 100, 70000}) {
      SCOPED_TRACE(std::to_string(bytes) + " bytes, " + std::to_string(n) + " hashes");
      std::vector<uint64_t> hashes(static_cast<size_t>(n));
      for (auto& h : hashes) h = rng();
      ASSERT_OK_AND_ASSIGN(BloomFilter batch, BloomFilter::MakeWithNumBytes(bytes));
      ASSERT_OK_AND_ASSIGN(BloomFilter single, BloomFilter::MakeWithNumBytes(bytes));
      batch.InsertHashes(hashes.data(), n);
      for (uint64_t h : hashes) single.InsertHash(h);
      ASSERT_TRUE(std::equal(batch.bitset().begin(), batch.bitset().end(),
                             single.bitset().begin()));
    }
  }
}

TEST(BloomFilterFold, EqualsAFilterBuiltAtTheFoldedSize) {
  std::mt19937_64 rng(9);
  for (int n : {0, 1, 10, 1000, 20000, 300000}) {
    SCOPED_TRACE(n);
    std::vector<uint64_t> hashes(static_cast<size_t>(n));
    for (auto& h : hashes) h = rng();
    ASSERT_OK_AND_ASSIGN(BloomFilter big, BloomFilter::Make(1 << 20, 0.05));
    big.InsertHashes(hashes.data(), n);
    big.FoldToTargetFpp(0.05);
    // Folding is exact: the same bits as inserting into a filter of that size.
    ASSERT_OK_AND_ASSIGN(BloomFilter direct, BloomFilter::MakeWithNumBytes(big.num_bytes()));
    direct.InsertHashes(hashes.data(), n);
    ASSERT_EQ(big.num_bytes(), direct.num_bytes());
    EXPECT_TRUE(std::equal(big.bitset().begin(), big.bitset().end(), direct.bitset().begin()));
    for (uint64_t h : hashes) ASSERT_TRUE(big.FindHash(h));
    if (n == 0 || n == 1 || n == 10) {
      EXPECT_EQ(big.num_bytes(), n == 0 ? BloomFilter::kMinimumBytes : big.num_bytes());
      EXPECT_LE(big.num_bytes(), 64);
    }
    if (n == 20000) {
      // The spec's optimal size for 20000 values at 5%: folding lands on it.
      EXPECT_EQ(big.num_bytes(), BloomFilter::OptimalNumBytes(20000, 0.05));
    }
  }
  // A filter already too full for its fpp is not folded.
  ASSERT_OK_AND_ASSIGN(BloomFilter small, BloomFilter::Make(100, 0.01));
  std::vector<uint64_t> many(5000);
  for (auto& h : many) h = rng();
  small.InsertHashes(many.data(), 5000);
  const int64_t before = small.num_bytes();
  small.FoldToTargetFpp(0.01);
  EXPECT_EQ(small.num_bytes(), before);
}

TEST(BloomFilterAlgorithm, FalsePositiveRate) {
  // ndv chosen just below a power-of-two boundary, so the filter gets
  // (nearly) the size the formula asks for and the rate should be close to
  // fpp; 100'000 absent values each.
  struct Case {
    int64_t ndv;
    double fpp;
  };
  for (const Case& c : {Case{13'100, 0.01}, Case{18'400, 0.05}, Case{22'000, 0.1}}) {
    const int64_t want_bits = ReferenceNumBytes(c.ndv, c.fpp) * 8;
    const double m = -8.0 * c.ndv / std::log(1.0 - std::pow(c.fpp, 1.0 / 8));
    ASSERT_GT(m / static_cast<double>(want_bits), 0.9) << "ndv " << c.ndv;
    ASSERT_OK_AND_ASSIGN(BloomFilter f, BloomFilter::Make(c.ndv, c.fpp));
    for (int64_t i = 0; i < c.ndv; ++i) f.InsertHash(BloomFilter::Hash(i));
    int64_t positives = 0;
    constexpr int64_t kProbes = 100'000;
    for (int64_t i = 0; i < kProbes; ++i) {
      positives += f.FindHash(BloomFilter::Hash((int64_t{1} << 40) | i)) ? 1 : 0;
    }
    const double rate = static_cast<double>(positives) / kProbes;
    EXPECT_LT(rate, 1.5 * c.fpp) << "ndv " << c.ndv << " fpp " << c.fpp;
    EXPECT_GT(rate, 0.5 * c.fpp) << "ndv " << c.ndv << " fpp " << c.fpp;
    std::printf("ndv %lld fpp %.3f: %lld bytes, measured false-positive rate %.4f\n",
                static_cast<long long>(c.ndv), c.fpp, static_cast<long long>(f.num_bytes()),
                rate);
  }
}

// ---------------------------------------------------------------------------
// Serialization

TEST(BloomFilterSerialize, HeaderBytes) {
  ASSERT_OK_AND_ASSIGN(BloomFilter f, BloomFilter::MakeWithNumBytes(1024));
  std::vector<uint8_t> bytes = Serialized(f);
  // numBytes (field 1, i32, zigzag varint 2048), then algorithm / hash /
  // compression (fields 2-4), each a union holding one empty struct (field
  // 1), then stop.
  const std::vector<uint8_t> header = {0x15, 0x80, 0x10, 0x1C, 0x1C, 0x00, 0x00, 0x1C,
                                       0x1C, 0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x00};
  ASSERT_EQ(bytes.size(), header.size() + 1024);
  EXPECT_TRUE(std::equal(header.begin(), header.end(), bytes.begin()));

  ASSERT_OK_AND_ASSIGN(BloomFilter small, BloomFilter::MakeWithNumBytes(32));
  EXPECT_EQ(Serialized(small).size(), 15u + 32u);  // zigzag(32) = 64 is one byte

  // Serialize appends.
  MutableBuffer out;
  ASSERT_OK(out.Append<uint8_t>(0xAB));
  ASSERT_OK(small.Serialize(&out));
  ASSERT_OK(small.Serialize(&out));
  EXPECT_EQ(out.size(), 1 + 2 * 47);
  EXPECT_EQ(out.data()[0], 0xAB);
  EXPECT_EQ(out.data()[1], 0x15);
  EXPECT_EQ(out.data()[48], 0x15);
}

TEST(BloomFilterSerialize, RoundTrip) {
  ASSERT_OK_AND_ASSIGN(BloomFilter f, BloomFilter::Make(2000, 0.02));
  for (int32_t i = 0; i < 2000; ++i) f.InsertHash(BloomFilter::Hash(i * 3));
  std::vector<uint8_t> bytes = Serialized(f);
  int64_t consumed = -1;
  ASSERT_OK_AND_ASSIGN(BloomFilter g, DeserializeExact(bytes, bytes.size(), &consumed));
  EXPECT_EQ(consumed, static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(g.num_bytes(), f.num_bytes());
  EXPECT_TRUE(std::equal(f.bitset().begin(), f.bitset().end(), g.bitset().begin()));
  for (int32_t i = 0; i < 2000; ++i) ASSERT_TRUE(g.FindHash(BloomFilter::Hash(i * 3)));
  EXPECT_EQ(Serialized(g), bytes);

  // Trailing bytes are left alone.
  bytes.insert(bytes.end(), {1, 2, 3});
  ASSERT_OK_AND_ASSIGN(BloomFilter h, DeserializeExact(bytes, bytes.size(), &consumed));
  EXPECT_EQ(consumed, static_cast<int64_t>(bytes.size()) - 3);
  EXPECT_EQ(h.num_bytes(), f.num_bytes());
}

TEST(BloomFilterSerialize, EveryTruncationFails) {
  ASSERT_OK_AND_ASSIGN(BloomFilter f, BloomFilter::MakeWithNumBytes(64));
  f.InsertHash(BloomFilter::Hash(int64_t{1}));
  const std::vector<uint8_t> bytes = Serialized(f);
  for (size_t length = 0; length < bytes.size(); ++length) {
    auto r = DeserializeExact(bytes, length);
    ASSERT_FALSE(r.ok()) << "length " << length;
    EXPECT_TRUE(r.status().IsInvalid()) << r.status();
    EXPECT_THAT(r.status().message(), HasSubstr("parquet bloom filter: ")) << length;
    if (length >= 16) {
      EXPECT_THAT(r.status().message(),
                  HasSubstr("bitset of 64 bytes at byte 16 runs past the end of the " +
                            std::to_string(length) + "-byte input"));
    }
  }
  auto negative = BloomFilter::Deserialize(bytes.data(), -1);
  ASSERT_FALSE(negative.ok());
  EXPECT_THAT(negative.status().message(), HasSubstr("negative input size -1"));
}

// A header written field by field, for bad values.
std::vector<uint8_t> MakeHeader(int32_t num_bytes, int16_t algorithm_field = 1,
                                int16_t hash_field = 1, int16_t compression_field = 1) {
  std::string out;
  thrift::CompactWriter w(&out);
  bool ok = w.WriteStructBegin() && w.WriteFieldBegin(thrift::CompactType::kI32, 1) &&
            w.WriteI32(num_bytes);
  const int16_t members[3] = {algorithm_field, hash_field, compression_field};
  for (int16_t field = 2; field <= 4; ++field) {
    ok = ok && w.WriteFieldBegin(thrift::CompactType::kStruct, field) && w.WriteStructBegin();
    if (members[field - 2] > 0) {
      ok = ok && w.WriteFieldBegin(thrift::CompactType::kStruct, members[field - 2]) &&
           w.WriteStructBegin() && w.WriteStructEnd();
    }
    ok = ok && w.WriteStructEnd();
  }
  ok = ok && w.WriteStructEnd();
  EXPECT_TRUE(ok) << w.status();
  std::vector<uint8_t> bytes(out.begin(), out.end());
  if (num_bytes > 0 && num_bytes <= (1 << 16)) bytes.resize(bytes.size() + num_bytes, 0);
  return bytes;
}

TEST(BloomFilterSerialize, HandWrittenHeaderMatches) {
  ASSERT_OK_AND_ASSIGN(BloomFilter f, BloomFilter::MakeWithNumBytes(1024));
  EXPECT_EQ(MakeHeader(1024), Serialized(f));
}

TEST(BloomFilterDeserialize, RejectsBadHeaders) {
  struct Case {
    std::vector<uint8_t> bytes;
    std::string message;
  };
  const std::vector<Case> cases = {
      {MakeHeader(0), "numBytes 0 is not a multiple of 32 in [32, 134217728]"},
      {MakeHeader(31), "numBytes 31 is not a multiple of 32"},
      {MakeHeader(48), "numBytes 48 is not a multiple of 32"},
      {MakeHeader(-32), "numBytes -32 is not a multiple of 32"},
      {MakeHeader(256 * 1024 * 1024), "numBytes 268435456 is not a multiple of 32"},
      {MakeHeader(64, /*algorithm_field=*/2), "unsupported algorithm"},
      {MakeHeader(64, /*algorithm_field=*/0), "unsupported algorithm"},
      {MakeHeader(64, 1, /*hash_field=*/7), "unsupported hash"},
      {MakeHeader(64, 1, 1, /*compression_field=*/2), "unsupported compression"},
      {{0x00}, "header: "},  // required fields missing
      {{0xFF, 0xFF, 0xFF}, "header: "},
  };
  for (const Case& c : cases) {
    auto r = DeserializeExact(c.bytes, c.bytes.size());
    ASSERT_FALSE(r.ok()) << c.message;
    EXPECT_THAT(r.status().message(), HasSubstr(c.message)) << r.status();
  }
  const std::vector<uint8_t> other_algorithm = MakeHeader(64, 2);
  EXPECT_TRUE(
      DeserializeExact(other_algorithm, other_algorithm.size()).status().IsNotImplemented());
}

TEST(BloomFilterDeserialize, AcceptsAnyWholeNumberOfBlocks) {
  // The spec's block index works for any number of blocks; Arrow only writes
  // powers of two, but three blocks are a valid filter.
  const std::vector<uint8_t> bytes = MakeHeader(96);
  ASSERT_OK_AND_ASSIGN(BloomFilter f, DeserializeExact(bytes, bytes.size()));
  EXPECT_EQ(f.num_bytes(), 96);
  std::vector<int> blocks_hit(3, 0);
  for (int64_t i = 0; i < 3000; ++i) f.InsertHash(BloomFilter::Hash(i));  // ASan: stays inside
  for (int64_t i = 0; i < 3000; ++i) ASSERT_TRUE(f.FindHash(BloomFilter::Hash(i)));
  for (int block = 0; block < 3; ++block) {
    int set = 0;
    for (int k = 0; k < 32; ++k) set += f.bitset()[32 * block + k] != 0;
    EXPECT_GT(set, 0) << "block " << block;
  }
}

// ---------------------------------------------------------------------------
// Cross-check with Arrow C++: testdata/bloom_filters.parquet was written by
// pyarrow 26 (testdata/make_bloom_testdata.py). Every filter we build from
// the same values and (ndv, fpp) must serialize to exactly the bytes at the
// column chunk's bloom_filter_offset.

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

struct ReferenceColumn {
  int64_t ndv;
  double fpp;
  std::vector<uint64_t> hashes;  // of the 1000 values, in row order
};

// Mirrors make_bloom_testdata.py.
std::map<std::string, ReferenceColumn> PyarrowReferenceColumns() {
  constexpr int kRows = 1000;
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  std::vector<float> f32;
  std::vector<double> f64;
  std::vector<std::string> s;
  std::string b;  // 6-byte values back to back
  for (int i = 0; i < kRows; ++i) {
    i32.push_back(i * 7919 - 500'000);
    i64.push_back(int64_t{i - 500} * 0x1'0000'0001LL);
    f32.push_back(static_cast<float>(i - 500) * 0.25f);
    f64.push_back(static_cast<double>(i - 500) / 8.0 + 1e9);
    s.push_back(i == 0 ? std::string() : "value-" + std::to_string(i));
    char digits[8];
    std::snprintf(digits, sizeof(digits), "%06d", i);
    b.append(digits, 6);
  }
  std::map<std::string, ReferenceColumn> columns;
  auto add = [&](const std::string& name, int64_t ndv, double fpp) -> ReferenceColumn& {
    ReferenceColumn& c = columns[name];
    c.ndv = ndv;
    c.fpp = fpp;
    c.hashes.resize(kRows);
    return c;
  };
  BloomFilter::Hashes(i32.data(), kRows, add("i32", 1000, 0.05).hashes.data());
  BloomFilter::Hashes(i64.data(), kRows, add("i64", 1000, 0.05).hashes.data());
  BloomFilter::Hashes(f32.data(), kRows, add("f32", 100, 0.1).hashes.data());
  BloomFilter::Hashes(f64.data(), kRows, add("f64", 700, 0.001).hashes.data());
  ReferenceColumn& sc = add("s", 1000, 0.05);
  for (int i = 0; i < kRows; ++i) sc.hashes[i] = BloomFilter::Hash(std::string_view(s[i]));
  BloomFilter::HashesFixedSize(reinterpret_cast<const uint8_t*>(b.data()), 6, kRows,
                               add("b", 300, 0.2).hashes.data());
  return columns;
}

TEST(BloomFilterPyarrow, BitsetsAreByteIdentical) {
  const std::vector<uint8_t> file =
      ReadFile(std::string(QUIVER_PARQUET_BLOOM_TESTDATA_DIR) + "/bloom_filters.parquet");
  ASSERT_GT(file.size(), 12u);
  ASSERT_EQ(std::memcmp(file.data() + file.size() - 4, "PAR1", 4), 0);
  uint32_t footer_length;
  std::memcpy(&footer_length, file.data() + file.size() - 8, 4);
  ASSERT_LE(footer_length + 8u, file.size());
  const uint8_t* footer = file.data() + file.size() - 8 - footer_length;
  ASSERT_OK_AND_ASSIGN(format::FileMetaData meta,
                       thrift::DeserializeThrift<format::FileMetaData>(footer, footer_length));
  ASSERT_EQ(meta.row_groups.size(), 1u);

  std::map<std::string, ReferenceColumn> reference = PyarrowReferenceColumns();
  int checked = 0;
  for (const format::ColumnChunk& chunk : meta.row_groups[0].columns) {
    ASSERT_TRUE(chunk.meta_data.has_value());
    const format::ColumnMetaData& md = *chunk.meta_data;
    ASSERT_EQ(md.path_in_schema.size(), 1u);
    const std::string& name = md.path_in_schema[0];
    SCOPED_TRACE("column " + name);
    auto it = reference.find(name);
    ASSERT_NE(it, reference.end());
    const ReferenceColumn& ref = it->second;
    ASSERT_TRUE(md.bloom_filter_offset.has_value());
    ASSERT_TRUE(md.bloom_filter_length.has_value());
    const int64_t offset = *md.bloom_filter_offset;
    const int64_t length = *md.bloom_filter_length;
    ASSERT_GE(offset, 0);
    ASSERT_LE(offset + length, static_cast<int64_t>(file.size()));

    // Arrow's filter, read by us.
    int64_t consumed = 0;
    ASSERT_OK_AND_ASSIGN(BloomFilter theirs,
                         BloomFilter::Deserialize(file.data() + offset, length, &consumed));
    EXPECT_EQ(consumed, length);
    EXPECT_EQ(theirs.num_bytes(), BloomFilter::OptimalNumBytes(ref.ndv, ref.fpp));
    for (uint64_t h : ref.hashes) ASSERT_TRUE(theirs.FindHash(h));

    // Ours, built from the same values: byte-identical header and bitset.
    ASSERT_OK_AND_ASSIGN(BloomFilter ours, BloomFilter::Make(ref.ndv, ref.fpp));
    ours.InsertHashes(ref.hashes.data(), static_cast<int64_t>(ref.hashes.size()));
    const std::vector<uint8_t> ours_bytes = Serialized(ours);
    const std::vector<uint8_t> theirs_bytes(file.begin() + offset, file.begin() + offset + length);
    EXPECT_EQ(ours_bytes.size(), theirs_bytes.size());
    EXPECT_TRUE(ours_bytes == theirs_bytes) << "serialized filters differ";
    int differing_bytes = 0;
    for (int64_t k = 0; k < ours.num_bytes() && k < theirs.num_bytes(); ++k) {
      differing_bytes += ours.bitset()[k] != theirs.bitset()[k];
    }
    EXPECT_EQ(differing_bytes, 0);
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
