#include "quiver/parquet/statistics/statistics.h"

#include "quiver/parquet/statistics/min_max_simd.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <random>
#include <string_view>
#include <vector>

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

template <typename T>
T Decode(const std::string& bytes) {
  EXPECT_EQ(bytes.size(), sizeof(T));
  T v;
  std::memcpy(&v, bytes.data(), sizeof(T));
  return v;
}

TEST(Statistics, SignedAndUnsignedIntegers) {
  std::vector<int32_t> values = {5, -3, 7, 0, -1};
  auto s = ColumnStatistics::Make(StatsKind::kInt32);
  s->Update(values.data(), 5);
  s->AddNulls(2);
  auto e = s->Encode();
  EXPECT_EQ(Decode<int32_t>(*e.min), -3);
  EXPECT_EQ(Decode<int32_t>(*e.max), 7);
  EXPECT_EQ(e.null_count, 2);
  EXPECT_FALSE(e.nan_count.has_value());

  // The same bits as uint32: -1 is the largest.
  auto u = ColumnStatistics::Make(StatsKind::kUInt32);
  u->Update(values.data(), 5);
  auto ue = u->Encode();
  EXPECT_EQ(Decode<uint32_t>(*ue.min), 0u);
  EXPECT_EQ(Decode<int32_t>(*ue.max), -1);
}

TEST(Statistics, SpacedSkipsNullSlots) {
  std::vector<int64_t> values = {100, -100, 3, 4};
  uint8_t valid = 0b1100;  // slots 2, 3 valid
  auto s = ColumnStatistics::Make(StatsKind::kInt64);
  s->UpdateSpaced(values.data(), &valid, 0, 4);
  auto e = s->Encode();
  EXPECT_EQ(Decode<int64_t>(*e.min), 3);
  EXPECT_EQ(Decode<int64_t>(*e.max), 4);
}

TEST(Statistics, FloatsNaNAndSignedZeros) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values = {nan, 0.0, 2.5, nan, -0.0};
  auto s = ColumnStatistics::Make(StatsKind::kDouble);
  s->Update(values.data(), 5);
  auto e = s->Encode();
  EXPECT_EQ(*e.nan_count, 2);
  double lo = Decode<double>(*e.min), hi = Decode<double>(*e.max);
  EXPECT_EQ(lo, 0.0);
  EXPECT_TRUE(std::signbit(lo));  // zero min written as -0.0
  EXPECT_EQ(hi, 2.5);

  std::vector<float> zeros = {-0.0f, 0.0f};
  auto z = ColumnStatistics::Make(StatsKind::kFloat);
  z->Update(zeros.data(), 2);
  auto ze = z->Encode();
  EXPECT_TRUE(std::signbit(Decode<float>(*ze.min)));
  EXPECT_FALSE(std::signbit(Decode<float>(*ze.max)));  // zero max written as +0.0

  std::vector<float> all_nan = {std::nanf(""), std::nanf("")};
  auto n = ColumnStatistics::Make(StatsKind::kFloat);
  n->Update(all_nan.data(), 2);
  auto ne = n->Encode();
  EXPECT_FALSE(ne.has_min_max());
  EXPECT_EQ(*ne.nan_count, 2);
}

TEST(Statistics, Float16) {
  // 1.0 = 0x3C00, -2.0 = 0xC000, NaN = 0x7E00, -0.0 = 0x8000
  std::vector<uint16_t> halves = {0x3C00, 0x7E00, 0xC000, 0x0000};
  auto s = ColumnStatistics::Make(StatsKind::kFloat16, false, 2);
  s->Update(halves.data(), 4);
  auto e = s->Encode();
  EXPECT_EQ(Decode<uint16_t>(*e.min), 0xC000);
  EXPECT_EQ(Decode<uint16_t>(*e.max), 0x3C00);
  EXPECT_EQ(*e.nan_count, 1);
}

TEST(Statistics, Float16BatchEqualsOneByOne) {
  // Update (a batch, by integer keys) against UpdateOne per value: every
  // half as a batch of its own, then random batches of every kind of value
  // (zeros of both signs, subnormals, infinities, NaNs).
  std::mt19937 rng(3);
  auto check = [](const std::vector<uint16_t>& h) {
    auto batch = ColumnStatistics::Make(StatsKind::kFloat16, false, 2);
    auto one = ColumnStatistics::Make(StatsKind::kFloat16, false, 2);
    batch->Update(h.data(), static_cast<int64_t>(h.size()));
    for (uint16_t x : h) one->UpdateOne(std::string_view(reinterpret_cast<const char*>(&x), 2));
    const auto a = batch->Encode(), b = one->Encode();
    ASSERT_EQ(a.min, b.min);
    ASSERT_EQ(a.max, b.max);
    ASSERT_EQ(a.nan_count, b.nan_count);
  };
  for (uint32_t x = 0; x < 65536; ++x) check({static_cast<uint16_t>(x)});
  const uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x7C00, 0xFC00, 0x7E00, 0xFE01};
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint16_t> h(trial % 2 == 0 ? rng() % 9 : rng() % 70);  // (8 a SIMD step)
    for (auto& x : h) x = rng() % 3 == 0 ? specials[rng() % 9] : static_cast<uint16_t>(rng());
    check(h);
  }
  // Long batches: NaN counts past what a 16-bit lane holds (the SIMD loop
  // sums its lanes every 65,536 values), all NaN, then mixed.
  std::vector<uint16_t> nans(600003, 0x7E00);
  check(nans);
  for (size_t k = 0; k < nans.size(); k += 97) nans[k] = static_cast<uint16_t>(rng() % 0x7C00);
  nans[12345] = 0xFC00;
  check(nans);
}

TEST(Statistics, BooleansAndMerge) {
  std::vector<uint8_t> t = {1, 1};
  std::vector<uint8_t> f = {0};
  auto a = ColumnStatistics::Make(StatsKind::kBoolean);
  auto b = ColumnStatistics::Make(StatsKind::kBoolean);
  a->Update(t.data(), 2);
  EXPECT_EQ(*a->Encode().min, std::string(1, '\1'));
  b->Update(f.data(), 1);
  b->AddNulls(3);
  a->Merge(*b);
  auto e = a->Encode();
  EXPECT_EQ(*e.min, std::string(1, '\0'));
  EXPECT_EQ(*e.max, std::string(1, '\1'));
  EXPECT_EQ(e.null_count, 3);
}

TEST(Statistics, BinaryFromOffsetsUnsignedOrder) {
  std::string data = "b\xff" "aab";
  std::vector<int32_t> offsets = {0, 1, 2, 4, 5};  // "b", "\xff", "aa", "b"
  auto s = ColumnStatistics::Make(StatsKind::kBytes, false);
  s->UpdateBinary32(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), nullptr, 0, 4);
  auto e = s->Encode();
  EXPECT_EQ(*e.min, "aa");
  EXPECT_EQ(*e.max, "\xff");  // unsigned: 0xFF sorts last
  EXPECT_TRUE(e.is_min_exact && e.is_max_exact);
}

TEST(Statistics, SignedDecimalBytes) {
  // Big-endian two's complement: 0xFF01 (-255) < 0x0001 (1) < 0x7F00.
  std::string values = std::string("\x00\x01", 2) + std::string("\xff\x01", 2) + "\x7f\x00";
  auto s = ColumnStatistics::Make(StatsKind::kSignedBytes, false, 2);
  s->Update(values.data(), 3);
  auto e = s->Encode();
  EXPECT_EQ(*e.min, std::string("\xff\x01", 2));
  EXPECT_EQ(*e.max, std::string("\x7f\x00", 2));
}

TEST(Statistics, TruncationOfLongByteArrays) {
  std::string long_a(100, 'a');
  std::string long_z = std::string(70, 'z') + "tail";
  auto s = ColumnStatistics::Make(StatsKind::kBytes, true);
  s->UpdateOne(long_a);
  s->UpdateOne(long_z);
  auto e = s->Encode(64);
  EXPECT_EQ(*e.min, std::string(64, 'a'));
  EXPECT_FALSE(e.is_min_exact);
  EXPECT_EQ(*e.max, std::string(63, 'z') + "{");  // 'z' + 1
  EXPECT_FALSE(e.is_max_exact);
  // A truncated max still bounds the real max; a truncated min is a prefix.
  EXPECT_GT(*e.max, long_z);
  EXPECT_LE(*e.min, long_a);
}

TEST(Statistics, Utf8AwareTruncation) {
  // 63 ASCII bytes then a 2-byte 'é': cutting at 64 would split it.
  std::string v = std::string(63, 'x') + "\xc3\xa9" + "yyy";
  EXPECT_EQ(TruncateMin(v, 64, true), std::string(63, 'x'));
  // Max: drop the partial code point, increment the last full one ('x' -> 'y').
  EXPECT_EQ(*TruncateMax(v, 64, true), std::string(62, 'x') + "y");
  // Incrementing U+007F needs two bytes; U+10FFFF cannot be incremented.
  std::string w = "a\x7f" + std::string(10, 'q');
  EXPECT_EQ(*TruncateMax(w, 2, true), "b");  // U+0080 would not fit in 2 bytes
  std::string top = "\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbfzz";
  EXPECT_FALSE(TruncateMax(top, 8, true).has_value());
  // Binary: byte increment with carry over 0xFF.
  EXPECT_EQ(*TruncateMax(std::string("ab\xff\xff" "c", 5), 4, false), "ac");
  EXPECT_FALSE(TruncateMax(std::string("\xff\xff\xff", 3), 2, false).has_value());
}

TEST(BoundaryOrder, DecidedOverNonNullPagesInTheColumnOrder) {
  auto i32 = [](int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
  auto u32 = [](uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
  using V = std::vector<std::string>;
  // Signed: -1 < 1 (as bytes 0xFFFFFFFF > 0x01).
  EXPECT_EQ(ComputeBoundaryOrder(StatsKind::kInt32, V{i32(-1), i32(1)}, V{i32(0), i32(5)}, {false, false}),
            BoundaryOrder::kAscending);
  // Unsigned: the same bytes are descending.
  EXPECT_EQ(ComputeBoundaryOrder(StatsKind::kUInt32, V{u32(0xFFFFFFFF), u32(1)},
                                 V{u32(0xFFFFFFFF), u32(5)}, {false, false}),
            BoundaryOrder::kDescending);
  // Null pages are skipped; only null pages: unordered; equal pages: ascending.
  EXPECT_EQ(ComputeBoundaryOrder(StatsKind::kInt32, V{i32(3), "", i32(1)}, V{i32(4), "", i32(2)},
                                 {false, true, false}),
            BoundaryOrder::kDescending);
  EXPECT_EQ(ComputeBoundaryOrder(StatsKind::kInt32, V{"", ""}, V{"", ""}, {true, true}),
            BoundaryOrder::kUnordered);
  EXPECT_EQ(ComputeBoundaryOrder(StatsKind::kBytes, V{"a", "a"}, V{"b", "b"}, {false, false}),
            BoundaryOrder::kAscending);
  // Min ascending but max descending: unordered.
  EXPECT_EQ(ComputeBoundaryOrder(StatsKind::kBytes, V{"a", "b"}, V{"z", "c"}, {false, false}),
            BoundaryOrder::kUnordered);
  // Signed big-endian bytes (decimals): 0xFF (-1) < 0x01.
  EXPECT_LT(CompareEncoded(StatsKind::kSignedBytes, "\xff", "\x01"), 0);
  EXPECT_GT(CompareEncoded(StatsKind::kBytes, "\xff", "\x01"), 0);
}


// The vector kernels of every ISA this CPU runs give what a plain loop
// gives: every length from 0 to 300 (the 4-vector steps, the 1-vector
// steps, the scalar rest), unaligned starts, running values that already
// hold the extreme, the types' extremes, NaNs (skipped and counted) and
// zeros of both signs (equal as values; which sign is kept may differ).
std::vector<internal::MinMaxIsa> IsasOfThisCpu() {
  std::vector<internal::MinMaxIsa> isas{internal::MinMaxIsa::kNone};
  const internal::MinMaxIsa best = internal::MinMaxIsaOfCpu();
  if (best == internal::MinMaxIsa::kAvx2 || best == internal::MinMaxIsa::kAvx512) {
    isas.push_back(internal::MinMaxIsa::kAvx2);
  }
  if (best == internal::MinMaxIsa::kAvx512) isas.push_back(internal::MinMaxIsa::kAvx512);
  return isas;
}

template <typename T>
void CheckIntKernels() {
  std::mt19937_64 rng(42);
  std::vector<T> values(320);
  for (int round = 0; round < 4; ++round) {
    for (auto& x : values) {
      const uint64_t r = rng();
      // Round 0: the whole range; 1: small values; 2: the extremes among them.
      x = round == 1 ? static_cast<T>(r % 100) : static_cast<T>(r);
      if (round == 2 && r % 7 == 0) x = (r & 8) ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
    }
    for (int64_t start = 0; start < 3; ++start) {
      for (int64_t n = 0; n + start <= 303 && n <= 300; ++n) {
        const T* v = values.data() + start;
        // Round 3: the running values start inside the values' range.
        const T lo0 = round == 3 ? static_cast<T>(values[0] / 2) : std::numeric_limits<T>::max();
        const T hi0 = round == 3 ? static_cast<T>(values[1] / 2) : std::numeric_limits<T>::lowest();
        T want_lo = lo0, want_hi = hi0;
        for (int64_t i = 0; i < n; ++i) {
          want_lo = std::min(want_lo, v[i]);
          want_hi = std::max(want_hi, v[i]);
        }
        for (internal::MinMaxIsa isa : IsasOfThisCpu()) {
          T lo = lo0, hi = hi0;
          internal::MinMaxInt(isa, v, n, &lo, &hi);
          ASSERT_EQ(lo, want_lo) << "isa " << static_cast<int>(isa) << " n " << n << " start " << start;
          ASSERT_EQ(hi, want_hi) << "isa " << static_cast<int>(isa) << " n " << n << " start " << start;
        }
      }
    }
  }
}

TEST(MinMaxKernels, IntegersAsAPlainLoop) {
  CheckIntKernels<int32_t>();
  CheckIntKernels<uint32_t>();
  CheckIntKernels<int64_t>();
  CheckIntKernels<uint64_t>();
}

template <typename T>
void CheckFloatKernels() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<T> dist(-1000, 1000);
  std::vector<T> values(320);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  for (int round = 0; round < 4; ++round) {
    for (auto& x : values) {
      const uint64_t r = rng() % 10;
      x = dist(rng);
      if (round >= 1 && r == 0) x = nan;
      if (round >= 2 && r == 1) x = (round == 2) ? T(0) : -T(0);
      if (round == 2 && r == 2) x = -inf;
      if (round == 3 && r < 8) x = nan;  // mostly NaN
    }
    for (int64_t start = 0; start < 3; ++start) {
      for (int64_t n = 0; n + start <= 303 && n <= 300; ++n) {
        const T* v = values.data() + start;
        T want_lo = inf, want_hi = -inf;
        int64_t want_nans = 0;
        for (int64_t i = 0; i < n; ++i) {
          want_nans += std::isnan(v[i]);
          want_lo = v[i] < want_lo ? v[i] : want_lo;
          want_hi = v[i] > want_hi ? v[i] : want_hi;
        }
        for (internal::MinMaxIsa isa : IsasOfThisCpu()) {
          T lo = inf, hi = -inf;
          int64_t nans = 5;  // added to
          internal::MinMaxFloat(isa, v, n, &lo, &hi, &nans);
          ASSERT_EQ(lo, want_lo) << "isa " << static_cast<int>(isa) << " n " << n;
          ASSERT_EQ(hi, want_hi) << "isa " << static_cast<int>(isa) << " n " << n;
          ASSERT_EQ(nans, want_nans + 5) << "isa " << static_cast<int>(isa) << " n " << n;
        }
      }
    }
  }
}

TEST(MinMaxKernels, FloatsAsAPlainLoop) {
  CheckFloatKernels<float>();
  CheckFloatKernels<double>();
}

TEST(MinMaxKernels, StatisticsOfALongRunEqualTheScalarPath) {
  // Through the statistics: one Update of 1,000 values (vector kernels where
  // the CPU has them) and the same values 50 at a time (63 and fewer: the
  // scalar loop) encode the same bounds and NaN count.
  std::mt19937_64 rng(3);
  std::vector<double> d(1000);
  std::vector<int64_t> q(1000);
  for (size_t i = 0; i < d.size(); ++i) {
    d[i] = i % 13 == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(rng() % 100000) - 5e4;
    q[i] = static_cast<int64_t>(rng());
  }
  for (StatsKind kind : {StatsKind::kDouble, StatsKind::kInt64}) {
    const void* v = kind == StatsKind::kDouble ? static_cast<const void*>(d.data()) : q.data();
    const size_t width = 8;
    auto whole = ColumnStatistics::Make(kind);
    auto pieces = ColumnStatistics::Make(kind);
    whole->Update(v, 1000);
    for (int64_t at = 0; at < 1000; at += 50) pieces->Update(static_cast<const uint8_t*>(v) + at * width, 50);
    const EncodedStatistics a = whole->Encode(0), b = pieces->Encode(0);
    ASSERT_TRUE(a.min.has_value());
    EXPECT_EQ(*a.min, *b.min);
    EXPECT_EQ(*a.max, *b.max);
    EXPECT_EQ(a.nan_count, b.nan_count);
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
