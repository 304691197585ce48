#include "quiver/compute/aggregate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/compute/simd_level.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using testutil::BooleanArrayFromVector;
using testutil::StringArrayFromVector;

// Every SIMD level this CPU has, scalar first.
std::vector<SimdLevel> Levels() {
  std::vector<SimdLevel> out;
  for (SimdLevel l : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    if (l <= DetectedSimdLevel()) out.push_back(l);
  }
  return out;
}

// The level an aggregate with a vector path reports for long inputs.
SimdLevel ExpectedVectorLevel(SimdLevel forced) {
  return forced >= SimdLevel::kAvx2 ? SimdLevel::kAvx2 : SimdLevel::kScalar;
}

Scalar Ok(Result<Scalar> r) {
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : Scalar();
}

std::vector<bool> RandomValidity(std::mt19937_64& rng, int64_t n, int null_percent) {
  std::vector<bool> v(static_cast<size_t>(n));
  for (auto&& b : v) b = static_cast<int>(rng() % 100) >= null_percent;
  return v;
}

template <typename T>
std::vector<T> RandomValues(std::mt19937_64& rng, int64_t n) {
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
    } else {
      const uint64_t bits = rng();
      std::memcpy(&x, &bits, sizeof(T));
    }
  }
  return v;
}

template <typename T>
void CheckIntegers(const TypePtr& type) {
  std::mt19937_64 rng(42);
  for (int64_t n : {0, 1, 63, 64, 65, 1000, 5000}) {
    for (int nulls : {0, 10, 50, 100}) {
      const auto values = RandomValues<T>(rng, n);
      const auto validity = nulls == 0 ? std::vector<bool>{} : RandomValidity(rng, n, nulls);
      const auto full = ArrayFromVector<T>(type, values, validity);
      for (int64_t offset : {int64_t{0}, int64_t{3}}) {
        if (offset > n) continue;
        const auto a = full->Slice(offset, n - offset);
        uint64_t sum = 0;
        int64_t count = 0;
        T lo = std::numeric_limits<T>::max(), hi = std::numeric_limits<T>::lowest();
        for (int64_t i = offset; i < n; ++i) {
          if (!validity.empty() && !validity[static_cast<size_t>(i)]) continue;
          const T v = values[static_cast<size_t>(i)];
          sum += std::is_signed_v<T> ? static_cast<uint64_t>(static_cast<int64_t>(v))
                                     : static_cast<uint64_t>(v);
          lo = std::min(lo, v);
          hi = std::max(hi, v);
          ++count;
        }
        for (SimdLevel level : Levels()) {
          auto scoped = ScopedSimdLevel::Make(level);
          ASSERT_TRUE(scoped.ok());
          const Scalar s = Ok(Sum(*a));
          ASSERT_EQ(s.is_valid(), count > 0) << n << " " << nulls;
          if (count > 0) {
            if (std::is_signed_v<T>) {
              EXPECT_EQ(s.type()->id(), Type::kInt64);
              EXPECT_EQ(static_cast<uint64_t>(s.int_value()), sum) << n << " " << nulls;
            } else {
              EXPECT_EQ(s.type()->id(), Type::kUInt64);
              EXPECT_EQ(s.uint_value(), sum) << n << " " << nulls;
            }
          }
          if (nulls == 0 && n - offset >= 128) {
            EXPECT_EQ(LastSimdLevel(), ExpectedVectorLevel(level));
          }
          const Scalar mm = Ok(MinMax(*a));
          ASSERT_EQ(mm.children().size(), 2u);
          EXPECT_EQ(mm.type()->ToString(),
                    "struct<min: " + type->ToString() + ", max: " + type->ToString() + ">");
          ASSERT_EQ(mm.children()[0].is_valid(), count > 0);
          if (count > 0) {
            if (std::is_signed_v<T>) {
              EXPECT_EQ(mm.children()[0].int_value(), static_cast<int64_t>(lo));
              EXPECT_EQ(mm.children()[1].int_value(), static_cast<int64_t>(hi));
            } else {
              EXPECT_EQ(mm.children()[0].uint_value(), static_cast<uint64_t>(lo));
              EXPECT_EQ(mm.children()[1].uint_value(), static_cast<uint64_t>(hi));
            }
          }
          if (nulls == 0 && n - offset >= 128) {
            // 64-bit min/max have an AVX-512 path.
            const bool wide512 = sizeof(T) == 8 && level == SimdLevel::kAvx512;
            EXPECT_EQ(LastSimdLevel(), wide512 ? SimdLevel::kAvx512 : ExpectedVectorLevel(level));
          }
        }
      }
    }
  }
}

TEST(Aggregate, IntegersEveryWidthEveryLevel) {
  CheckIntegers<int8_t>(int8());
  CheckIntegers<int16_t>(int16());
  CheckIntegers<int32_t>(int32());
  CheckIntegers<int64_t>(int64());
  CheckIntegers<uint8_t>(uint8());
  CheckIntegers<uint16_t>(uint16());
  CheckIntegers<uint32_t>(uint32());
  CheckIntegers<uint64_t>(uint64());
}

TEST(Aggregate, Int64SumWraps) {
  const auto a = ArrayFromVector<int64_t>(int64(), {std::numeric_limits<int64_t>::max(), 1});
  EXPECT_EQ(Ok(Sum(*a)).int_value(), std::numeric_limits<int64_t>::min());
  // The mean does not wrap (a double sum).
  EXPECT_DOUBLE_EQ(Ok(Mean(*a)).double_value(), 4611686018427387904.0);
}

TEST(Aggregate, FloatSumIsTheSameAtEveryLevel) {
  std::mt19937_64 rng(7);
  for (int64_t n : {1, 15, 16, 17, 64, 65, 1000, 5000, 100000}) {
    for (int nulls : {0, 10}) {
      const auto values = RandomValues<double>(rng, n);
      const auto validity = nulls == 0 ? std::vector<bool>{} : RandomValidity(rng, n, nulls);
      const auto a = ArrayFromVector<double>(float64(), values, validity);
      const auto f = ArrayFromVector<float>(
          float32(), std::vector<float>(values.begin(), values.end()), validity);
      double naive = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (validity.empty() || validity[static_cast<size_t>(i)]) naive += values[static_cast<size_t>(i)];
      }
      std::vector<double> sums, fsums;
      for (SimdLevel level : Levels()) {
        auto scoped = ScopedSimdLevel::Make(level);
        ASSERT_TRUE(scoped.ok());
        sums.push_back(Ok(Sum(*a)).double_value());
        if (nulls == 0 && n >= 64) {
          EXPECT_EQ(LastSimdLevel(), ExpectedVectorLevel(level));
        }
        fsums.push_back(Ok(Sum(*f)).double_value());
        // (float32 sums: the vector loops take whole groups of 512 slots)
        EXPECT_EQ(LastSimdLevel(), n >= 512 ? level : SimdLevel::kScalar) << n;
        EXPECT_EQ(Ok(Sum(*f)).type()->id(), Type::kDouble);
      }
      for (size_t i = 1; i < sums.size(); ++i) {
        EXPECT_EQ(sums[i], sums[0]) << n;  // bit for bit
        EXPECT_EQ(fsums[i], fsums[0]) << n;
      }
      EXPECT_NEAR(sums[0], naive, 1e-9 * std::max(1.0, std::abs(naive)));
    }
  }
}

template <typename T>
void CheckMeanAtEveryLevel(const TypePtr& type) {
  std::mt19937_64 rng(9);
  for (int64_t n : {1, 100, 1000, 5000}) {
    const auto values = RandomValues<T>(rng, n);
    const auto a = ArrayFromVector<T>(type, values)->Slice(1, n - 1);
    std::vector<double> means;
    for (SimdLevel level : Levels()) {
      auto scoped = ScopedSimdLevel::Make(level);
      ASSERT_TRUE(scoped.ok());
      const Scalar m = Ok(Mean(*a, {true, 0}));
      means.push_back(m.double_value());
      const bool vector_path = sizeof(T) < 8 && n - 1 >= 64;
      EXPECT_EQ(LastSimdLevel(), vector_path ? ExpectedVectorLevel(level) : SimdLevel::kScalar);
    }
    for (double m : means) EXPECT_TRUE(m == means[0] || (std::isnan(m) && std::isnan(means[0])));
  }
}

TEST(Aggregate, IntegerMeansAreTheSameAtEveryLevel) {
  CheckMeanAtEveryLevel<int8_t>(int8());
  CheckMeanAtEveryLevel<int16_t>(int16());
  CheckMeanAtEveryLevel<int32_t>(int32());
  CheckMeanAtEveryLevel<int64_t>(int64());
  CheckMeanAtEveryLevel<uint8_t>(uint8());
  CheckMeanAtEveryLevel<uint16_t>(uint16());
  CheckMeanAtEveryLevel<uint32_t>(uint32());
  CheckMeanAtEveryLevel<uint64_t>(uint64());
}

TEST(Aggregate, Wide64BitMeansRoundLikeACast) {
  // Values a double cannot hold: the AVX2 conversion (high half * 2^32 +
  // low half) must round as static_cast<double> does.
  const std::vector<int64_t> values(64, (int64_t{1} << 62) + 1);
  std::vector<uint64_t> uvalues(64, ~uint64_t{0} - 1);
  const auto a = ArrayFromVector<int64_t>(int64(), values);
  const auto u = ArrayFromVector<uint64_t>(uint64(), uvalues);
  for (SimdLevel level : Levels()) {
    auto scoped = ScopedSimdLevel::Make(level);
    ASSERT_TRUE(scoped.ok());
    EXPECT_EQ(Ok(Mean(*a)).double_value(), static_cast<double>((int64_t{1} << 62) + 1));
    EXPECT_EQ(Ok(Mean(*u)).double_value(), static_cast<double>(~uint64_t{0} - 1));
  }
}

// Chunks with nulls take the masked pairwise sum (aggregate.cc,
// MaskedPairwiseChunkSum): every level gives the same bits, at any offset
// and null density, and the sum is within the pairwise bound of an exact
// (long double) sum: here 1e-12 of the sum of magnitudes.
template <typename T>
void CheckMaskedSums(const TypePtr& type, AggregateKind kind) {
  std::mt19937_64 rng(11);
  for (int64_t n : {127, 128, 129, 1000, 4099, 70000}) {
    for (int nulls : {1, 10, 50, 90, 100}) {
      auto values = RandomValues<T>(rng, n);
      if constexpr (std::is_floating_point_v<T>) {
        // Garbage under the nulls must not leak: NaN in every null slot.
        for (size_t i = 0; i < values.size(); i += 7) values[i] = std::numeric_limits<T>::quiet_NaN();
      }
      auto validity = RandomValidity(rng, n, nulls);
      if constexpr (std::is_floating_point_v<T>) {
        for (size_t i = 0; i < values.size(); i += 7) validity[i] = false;
      }
      const auto full = ArrayFromVector<T>(type, values, validity);
      for (int64_t offset : {int64_t{0}, int64_t{1}, int64_t{3}, int64_t{67}}) {
        const auto a = full->Slice(offset, n - offset - (offset > 0 ? 5 : 0));
        long double exact = 0, magnitude = 0;
        int64_t count = 0;
        for (int64_t i = 0; i < a->length; ++i) {
          if (!validity[static_cast<size_t>(offset + i)]) continue;
          const auto x = static_cast<long double>(static_cast<double>(values[static_cast<size_t>(offset + i)]));
          exact += x;
          magnitude += std::fabs(x);
          ++count;
        }
        std::vector<double> got;
        for (SimdLevel level : Levels()) {
          auto scoped = ScopedSimdLevel::Make(level);
          ASSERT_TRUE(scoped.ok());
          const Scalar s = Ok(kind == AggregateKind::kSum ? Sum(*a) : Mean(*a));
          if (count == 0) {
            EXPECT_TRUE(kind == AggregateKind::kMean ? !s.is_valid() : s.double_value() == 0.0);
            continue;
          }
          got.push_back(s.double_value());
          if constexpr (std::is_same_v<T, float>) {  // (groups of 512 slots)
            EXPECT_EQ(LastSimdLevel(), a->length >= 512 ? level : SimdLevel::kScalar) << n;
          } else if (a->length >= 128 && a->GetNullCount() > 0) {  // (the masked path)
            const bool vector_type = sizeof(T) < 8 || std::is_same_v<T, double>;
            EXPECT_EQ(LastSimdLevel(), vector_type ? level : SimdLevel::kScalar) << n;
          }
        }
        if (got.empty()) continue;
        for (size_t i = 1; i < got.size(); ++i) {
          EXPECT_EQ(got[i], got[0]) << type->ToString() << " n=" << n << " nulls=" << nulls
                                    << " offset=" << offset << " level " << i;  // bit for bit
        }
        const long double want = kind == AggregateKind::kSum ? exact : exact / count;
        const long double bound = 1e-12L * (kind == AggregateKind::kSum ? magnitude : magnitude / count);
        EXPECT_LE(std::fabs(static_cast<long double>(got[0]) - want), bound)
            << type->ToString() << " n=" << n << " nulls=" << nulls << " offset=" << offset;
      }
    }
  }
}

TEST(Aggregate, MaskedSumsAreTheSameAtEveryLevel) {
  CheckMaskedSums<double>(float64(), AggregateKind::kSum);
  CheckMaskedSums<float>(float32(), AggregateKind::kSum);
  CheckMaskedSums<double>(float64(), AggregateKind::kMean);
  CheckMaskedSums<float>(float32(), AggregateKind::kMean);
  CheckMaskedSums<int8_t>(int8(), AggregateKind::kMean);
  CheckMaskedSums<int16_t>(int16(), AggregateKind::kMean);
  CheckMaskedSums<int32_t>(int32(), AggregateKind::kMean);
  CheckMaskedSums<int64_t>(int64(), AggregateKind::kMean);
  CheckMaskedSums<uint8_t>(uint8(), AggregateKind::kMean);
  CheckMaskedSums<uint16_t>(uint16(), AggregateKind::kMean);
  CheckMaskedSums<uint32_t>(uint32(), AggregateKind::kMean);
  CheckMaskedSums<uint64_t>(uint64(), AggregateKind::kMean);
}

TEST(Aggregate, MaskedSumsKeepNaNAndInfinities) {
  for (SimdLevel level : Levels()) {
    auto scoped = ScopedSimdLevel::Make(level);
    ASSERT_TRUE(scoped.ok());
    std::vector<double> v(300, 1.0);
    std::vector<bool> valid(300, true);
    valid[5] = false;
    v[200] = std::numeric_limits<double>::infinity();
    EXPECT_EQ(Ok(Sum(*ArrayFromVector<double>(float64(), v, valid))).double_value(),
              std::numeric_limits<double>::infinity());
    v[250] = -std::numeric_limits<double>::infinity();
    EXPECT_TRUE(std::isnan(Ok(Sum(*ArrayFromVector<double>(float64(), v, valid))).double_value()));
    v[250] = std::numeric_limits<double>::quiet_NaN();
    v[200] = 1.0;
    EXPECT_TRUE(std::isnan(Ok(Sum(*ArrayFromVector<double>(float64(), v, valid))).double_value()));
    valid[250] = false;  // a NaN under a null is not a value
    EXPECT_EQ(Ok(Sum(*ArrayFromVector<double>(float64(), v, valid))).double_value(), 298.0);
    std::vector<double> zeros(300, -0.0);
    EXPECT_FALSE(std::signbit(Ok(Sum(*ArrayFromVector<double>(float64(), zeros, valid))).double_value()));
  }
}

TEST(Aggregate, DoubleSumBlocksAddFromZeroInOrder) {
  // Fewer than 16 values: one block, added in order from 0.0 (Arrow's).
  const auto a = ArrayFromVector<double>(float64(), {1e16, 1.0, -1e16});
  EXPECT_EQ(Ok(Sum(*a)).double_value(), (0.0 + 1e16 + 1.0) - 1e16);
  const auto nan = ArrayFromVector<double>(float64(), {1.0, NAN, 2.0});
  EXPECT_TRUE(std::isnan(Ok(Sum(*nan)).double_value()));
  const auto inf = ArrayFromVector<double>(float64(), {INFINITY, -INFINITY});
  EXPECT_TRUE(std::isnan(Ok(Sum(*inf)).double_value()));
}

TEST(Aggregate, Float32SumLanesAndTree) {
  // Fewer than 512 values: one group; slots 0, 1, 2 in lanes 0, 1, 2, the
  // tree adding lanes 0 + 2 and 1 + 3, then the two.
  const float big = 1e16f;
  const auto a = ArrayFromVector<float>(float32(), {big, 1.0f, -big});
  EXPECT_EQ(Ok(Sum(*a)).double_value(), (double{big} + -double{big}) + (1.0 + 0.0));
  for (SimdLevel level : Levels()) {
    auto scoped = ScopedSimdLevel::Make(level);
    ASSERT_TRUE(scoped.ok());
    const auto nan = ArrayFromVector<float>(float32(), {1.0f, NAN, 2.0f});
    EXPECT_TRUE(std::isnan(Ok(Sum(*nan)).double_value()));
    std::vector<float> v(1100, 1.0f);
    v[700] = INFINITY;
    EXPECT_EQ(Ok(Sum(*ArrayFromVector<float>(float32(), v))).double_value(), INFINITY);
    v[3] = -INFINITY;
    EXPECT_TRUE(std::isnan(Ok(Sum(*ArrayFromVector<float>(float32(), v))).double_value()));
    const auto zeros = ArrayFromVector<float>(float32(), std::vector<float>(600, -0.0f));
    EXPECT_FALSE(std::signbit(Ok(Sum(*zeros)).double_value()));
    // Lane k adds slots k, k + 32, ...: big and -big in lane 0 cancel
    // before the 1.0 of lane 1 meets them.
    std::vector<float> w(512, 0.0f);
    w[0] = big;
    w[32] = -big;
    w[1] = 1.0f;
    EXPECT_EQ(Ok(Sum(*ArrayFromVector<float>(float32(), w))).double_value(), 1.0);
    EXPECT_EQ(LastSimdLevel(), level);
  }
}

// Adversarial cancellation: large float32 values of both signs cancelling,
// small ones between them, in random order. The sum stays within the bound
// of aggregate_float_sum.cc, (21 + log2(n / 512)) eps * sum |x|, of the
// exact sum (the values are integers times 2^-20 below 2^23: a long double
// adds them exactly), at every level, with and without nulls, at any offset.
TEST(Aggregate, Float32SumErrorBoundUnderCancellation) {
  std::mt19937_64 rng(13);
  for (int64_t n : {100, 512, 4096, 100000}) {
    for (int nulls : {0, 10}) {
      std::vector<float> v(static_cast<size_t>(n));
      for (auto& x : v) {
        const float big = static_cast<float>(rng() % (uint64_t{1} << 22)) + 0.5f;
        const float small = static_cast<float>(rng() % (uint64_t{1} << 20)) * 0x1p-20f;
        x = rng() % 4 == 0 ? small : ((rng() & 1) != 0 ? big : -big);
      }
      const auto validity = nulls == 0 ? std::vector<bool>{} : RandomValidity(rng, n, nulls);
      const auto full = ArrayFromVector<float>(float32(), v, validity);
      for (int64_t offset : {int64_t{0}, int64_t{5}}) {
        const auto a = full->Slice(offset, n - offset);
        long double exact = 0, magnitude = 0;
        for (int64_t i = offset; i < n; ++i) {
          if (!validity.empty() && !validity[static_cast<size_t>(i)]) continue;
          exact += v[static_cast<size_t>(i)];
          magnitude += std::fabs(v[static_cast<size_t>(i)]);
        }
        const double levels = 22 + std::log2(std::max(1.0, static_cast<double>(n) / 512));
        const long double bound = levels * 0x1p-53L * magnitude;
        std::vector<double> got;
        for (SimdLevel level : Levels()) {
          auto scoped = ScopedSimdLevel::Make(level);
          ASSERT_TRUE(scoped.ok());
          got.push_back(Ok(Sum(*a)).double_value());
          EXPECT_LE(std::fabs(static_cast<long double>(got.back()) - exact), bound)
              << n << " nulls " << nulls << " offset " << offset;
        }
        for (double g : got) EXPECT_EQ(g, got[0]);  // bit for bit
      }
    }
  }
}

TEST(Aggregate, NullsAndMinCount) {
  const auto a = ArrayFromVector<int32_t>(int32(), {1, 2, 3}, {true, false, true});
  EXPECT_EQ(Ok(Sum(*a)).int_value(), 4);
  EXPECT_FALSE(Ok(Sum(*a, {false, 1})).is_valid());
  EXPECT_FALSE(Ok(Sum(*a, {true, 3})).is_valid());
  EXPECT_TRUE(Ok(Sum(*a, {true, 2})).is_valid());
  EXPECT_FALSE(Ok(Min(*a, {false, 1})).is_valid());
  const Scalar mm = Ok(MinMax(*a, {false, 1}));
  EXPECT_TRUE(mm.is_valid());
  EXPECT_FALSE(mm.children()[0].is_valid());
  EXPECT_FALSE(mm.children()[1].is_valid());
  EXPECT_DOUBLE_EQ(Ok(Mean(*a)).double_value(), 2.0);
  const auto empty = ArrayFromVector<int32_t>(int32(), {});
  EXPECT_EQ(Ok(Sum(*empty, {true, 0})).int_value(), 0);
  EXPECT_TRUE(std::isnan(Ok(Mean(*empty, {true, 0})).double_value()));
  EXPECT_FALSE(Ok(Min(*empty, {true, 0})).is_valid());  // min_count is at least 1
  EXPECT_EQ(Ok(Count(*a)).int_value(), 2);
  EXPECT_EQ(Ok(Count(*a, CountMode::kOnlyNull)).int_value(), 1);
  EXPECT_EQ(Ok(Count(*a, CountMode::kAll)).int_value(), 3);
}

TEST(Aggregate, FloatMinMaxSkipsNanUnlessAllNan) {
  const auto a = ArrayFromVector<double>(float64(), {NAN, 2.0, -1.0, NAN});
  EXPECT_EQ(Ok(Min(*a)).double_value(), -1.0);
  EXPECT_EQ(Ok(Max(*a)).double_value(), 2.0);
  const auto all_nan = ArrayFromVector<float>(float32(), {NAN, NAN});
  EXPECT_TRUE(std::isnan(Ok(Min(*all_nan)).double_value()));
  EXPECT_EQ(Ok(Min(*all_nan)).type()->id(), Type::kFloat);
  const auto zeros = ArrayFromVector<double>(float64(), {-0.0, 0.0});
  EXPECT_TRUE(std::signbit(Ok(Min(*zeros)).double_value()));
  EXPECT_TRUE(std::signbit(Ok(Max(*zeros)).double_value()));  // the first zero stays
}

TEST(Aggregate, BoolSumMeanMinMax) {
  const auto a = BooleanArrayFromVector({true, false, true, true}, {true, true, false, true});
  EXPECT_EQ(Ok(Sum(*a)).uint_value(), 2u);
  EXPECT_EQ(Ok(Sum(*a)).type()->id(), Type::kUInt64);
  EXPECT_DOUBLE_EQ(Ok(Mean(*a)).double_value(), 2.0 / 3.0);
  EXPECT_FALSE(Ok(Min(*a)).bool_value());
  EXPECT_TRUE(Ok(Max(*a)).bool_value());
  const auto sliced = a->Slice(2, 2);  // null, true
  EXPECT_TRUE(Ok(Min(*sliced)).bool_value());
}

TEST(Aggregate, StringsAndBinary) {
  for (const TypePtr& t : {utf8(), large_utf8(), binary(), large_binary()}) {
    const auto a = StringArrayFromVector({"pear", "", "apple", "zz", "b"}, {true, true, true, false, true}, t);
    const Scalar mm = Ok(MinMax(*a));
    EXPECT_EQ(mm.children()[0].bytes(), "");
    EXPECT_EQ(mm.children()[1].bytes(), "pear");
    EXPECT_EQ(mm.children()[0].type()->id(), t->id());
    const Scalar lo = Ok(Min(*a->Slice(2, 3)));
    EXPECT_EQ(lo.bytes(), "apple");
    auto sum = Sum(*a);
    ASSERT_FALSE(sum.ok());
    EXPECT_EQ(sum.status().code(), StatusCode::kNotImplemented);
    EXPECT_EQ(sum.status().message(),
              "Function 'sum' has no kernel matching input types (" + t->ToString() + ")");
  }
  // Bytes compare unsigned.
  const auto b = StringArrayFromVector({"\xff", std::string("\x00\x01", 2)}, {}, binary());
  EXPECT_EQ(Ok(Max(*b)).bytes(), "\xff");
}

// min, max and min_max of bytes against a brute-force reference: values
// from a 4-letter alphabet holding 0x00 (a value padded with zeros ties
// with a longer one on the 8-byte prefix key), lengths 0-12 (keys tie,
// values end within 8 bytes of the data's end), every null density, odd
// offsets (nulls walked by validity word).
TEST(Aggregate, BytesMinMaxAgainstReference) {
  std::mt19937_64 rng(21);
  for (const TypePtr& t : {utf8(), large_utf8(), binary(), large_binary()}) {
    const bool text = t->id() == Type::kString || t->id() == Type::kLargeString;
    const std::string alphabet = text ? std::string("\0\1az", 4) : std::string("\0\1a\xff", 4);
    for (int64_t n : {1, 7, 64, 65, 300, 2000}) {
      for (int nulls : {0, 10, 50, 100}) {
        std::vector<std::string> values(static_cast<size_t>(n));
        for (auto& v : values) {
          v.resize(rng() % 13);
          for (auto& c : v) c = alphabet[rng() % 4];
        }
        const auto validity = nulls == 0 ? std::vector<bool>{} : RandomValidity(rng, n, nulls);
        const auto full = StringArrayFromVector(values, validity, t);
        for (int64_t offset : {int64_t{0}, int64_t{1}, int64_t{3}, int64_t{67}}) {
          if (offset > n) continue;
          const auto a = full->Slice(offset, n - offset);
          std::optional<std::string> lo, hi;
          for (int64_t i = offset; i < n; ++i) {
            if (!validity.empty() && !validity[static_cast<size_t>(i)]) continue;
            const std::string& v = values[static_cast<size_t>(i)];
            if (!lo || v < *lo) lo = v;
            if (!hi || v > *hi) hi = v;
          }
          const Scalar mn = Ok(Min(*a)), mx = Ok(Max(*a)), mm = Ok(MinMax(*a));
          ASSERT_EQ(mn.is_valid(), lo.has_value());
          if (!lo) continue;
          EXPECT_EQ(mn.bytes(), *lo) << t->ToString() << " n=" << n << " offset " << offset;
          EXPECT_EQ(mx.bytes(), *hi) << t->ToString() << " n=" << n << " offset " << offset;
          EXPECT_EQ(mm.children()[0].bytes(), *lo);
          EXPECT_EQ(mm.children()[1].bytes(), *hi);
        }
      }
    }
  }
  // fixed_size_binary: the values end at the buffer's end.
  const auto f = testutil::FixedSizeBinaryArrayFromVector(
      fixed_size_binary(3), {std::string("a\0\0", 3), std::string("a\0\1", 3), "\xff\xff\xff", "a\1a"});
  EXPECT_EQ(Ok(Min(*f)).bytes(), std::string("a\0\0", 3));
  EXPECT_EQ(Ok(Max(*f)).bytes(), "\xff\xff\xff");
  EXPECT_EQ(Ok(Min(*f->Slice(1, 3))).bytes(), std::string("a\0\1", 3));
}

// Chunks through one Aggregator: the extremes of earlier chunks are kept
// (copied) when the chunk they came from is gone.
TEST(Aggregate, BytesExtremesOutliveTheirChunk) {
  for (AggregateKind kind : {AggregateKind::kMin, AggregateKind::kMax, AggregateKind::kMinMax}) {
    auto agg = Aggregator::Make(kind, utf8());
    ASSERT_TRUE(agg.ok());
    {
      const auto a = StringArrayFromVector({"mmmmmmmmmm1", "b", "zzzzzzzzzz"});
      ASSERT_TRUE((*agg)->Consume(*a).ok());
    }
    const auto b = StringArrayFromVector({"mmmmmmmmmm0", "c"}, {true, false});
    ASSERT_TRUE((*agg)->Consume(*b).ok());
    const Scalar r = Ok((*agg)->Finalize());
    if (kind == AggregateKind::kMin) EXPECT_EQ(r.bytes(), "b");
    if (kind == AggregateKind::kMax) EXPECT_EQ(r.bytes(), "zzzzzzzzzz");
    if (kind == AggregateKind::kMinMax) {
      EXPECT_EQ(r.children()[0].bytes(), "b");
      EXPECT_EQ(r.children()[1].bytes(), "zzzzzzzzzz");
    }
  }
}

TEST(Aggregate, CorruptStringOffsetsAreAnError) {
  // Offsets 0, 5, 2, 6 over 6 bytes: slot 1 runs backwards (an import checks
  // only the first and last offsets).
  const auto a = ArrayData::Make(utf8(), 3,
                                 {nullptr, testutil::BufferFromValues(std::vector<int32_t>{0, 5, 2, 6}),
                                  testutil::MakeBuffer(std::string("abcdef"))},
                                 0);
  auto r = MinMax(*a);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalid);
}

TEST(Aggregate, Decimals) {
  // decimal128(5, 2): 1.50, -2.25, 3.00 (two 64-bit words each).
  struct D128 {
    uint64_t lo;
    int64_t hi;
  };
  const auto a = ArrayFromVector<D128>(decimal128(5, 2), {{150, 0}, {static_cast<uint64_t>(-225), -1}, {300, 0}});
  const Scalar sum = Ok(Sum(*a));
  EXPECT_EQ(sum.type()->ToString(), "decimal128(38, 2)");
  EXPECT_EQ(sum.ToString(), "2.25");
  const Scalar mean = Ok(Mean(*a));
  EXPECT_EQ(mean.type()->ToString(), "decimal128(5, 2)");
  EXPECT_EQ(mean.ToString(), "0.75");
  const Scalar mm = Ok(MinMax(*a));
  EXPECT_EQ(mm.children()[0].ToString(), "-2.25");
  EXPECT_EQ(mm.children()[1].ToString(), "3.00");
  // Rounding half away from zero: (0.02 + 0 + 0) / 3 -> 0.01; -0.02 / 3 -> -0.01.
  const auto b = ArrayFromVector<D128>(decimal128(5, 2), {{2, 0}, {0, 0}, {0, 0}});
  EXPECT_EQ(Ok(Mean(*b)).ToString(), "0.01");
  const auto c = ArrayFromVector<D128>(decimal128(5, 2), {{static_cast<uint64_t>(-2), -1}, {0, 0}, {0, 0}});
  EXPECT_EQ(Ok(Mean(*c)).ToString(), "-0.01");
}

TEST(Aggregate, NullType) {
  const auto a = testutil::NullArrayOfLength(3);
  EXPECT_FALSE(Ok(Sum(*a)).is_valid());
  EXPECT_EQ(Ok(Sum(*a)).type()->id(), Type::kInt64);
  EXPECT_EQ(Ok(Sum(*a, {true, 0})).int_value(), 0);
  EXPECT_EQ(Ok(Mean(*a, {true, 0})).double_value(), 0.0);
  EXPECT_EQ(Ok(Min(*a)).type()->id(), Type::kNull);
  EXPECT_EQ(Ok(MinMax(*a)).type()->ToString(), "struct<min: null, max: null>");
  EXPECT_EQ(Ok(Count(*a, CountMode::kOnlyNull)).int_value(), 3);
  EXPECT_EQ(Ok(Count(*a)).int_value(), 0);
}

TEST(Aggregate, ChunksConsumeAndMerge) {
  const auto c1 = ArrayFromVector<double>(float64(), {1.5, 2.5});
  const auto c2 = ArrayFromVector<double>(float64(), {-4.0}, {true});
  auto agg = Aggregator::Make(AggregateKind::kSum, float64());
  ASSERT_TRUE(agg.ok());
  ASSERT_TRUE((*agg)->Consume(*c1).ok());
  ASSERT_TRUE((*agg)->Consume(*c2).ok());
  EXPECT_EQ(Ok((*agg)->Finalize()).double_value(), 0.0);
  auto other = Aggregator::Make(AggregateKind::kSum, float64());
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE((*other)->Consume(*c1).ok());
  ASSERT_TRUE((*agg)->Merge(**other).ok());
  EXPECT_EQ(Ok((*agg)->Finalize()).double_value(), 4.0);
  // A chunk of another type, a state of another kind: Invalid.
  const auto ints = ArrayFromVector<int32_t>(int32(), {1});
  EXPECT_EQ((*agg)->Consume(*ints).code(), StatusCode::kInvalid);
  auto mins = Aggregator::Make(AggregateKind::kMin, float64());
  ASSERT_TRUE(mins.ok());
  EXPECT_EQ((*agg)->Merge(**mins).code(), StatusCode::kInvalid);
}

TEST(Aggregate, UnsupportedTypesAndModes) {
  auto half = Aggregator::Make(AggregateKind::kMin, float16());
  ASSERT_FALSE(half.ok());
  EXPECT_EQ(half.status().message(),
            "Function 'min_max' has no kernel matching input types (halffloat)");
  EXPECT_EQ(Aggregator::Make(AggregateKind::kMax, duration(TimeUnit::kSecond)).status().code(),
            StatusCode::kNotImplemented);
  EXPECT_EQ(Aggregator::Make(AggregateKind::kMean, utf8()).status().code(),
            StatusCode::kNotImplemented);
  EXPECT_TRUE(Aggregator::Make(AggregateKind::kCount, utf8()).ok());
  EXPECT_FALSE(ParseCountMode("bogus").ok());
  EXPECT_EQ(*ParseCountMode("only_null"), CountMode::kOnlyNull);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
