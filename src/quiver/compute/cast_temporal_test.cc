// Temporal casts against tables of pyarrow 26's results and against exact
// integer arithmetic over the whole int64 range, at every SIMD level the
// CPU has: unit changes, dates, times, wall-clock days and times of
// timestamps, integers reinterpreted. Every result passes ValidateFull.
#include "quiver/compute/cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/compare.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/array/validate.h"
#include "quiver/compute/arithmetic_test_util_internal.h"
#include "quiver/compute/cast_test_util_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/float16.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using namespace testing;  // NOLINT: the shared test helpers

// --- temporal ----------------------------------------------------------------

ArrayDataPtr I64(TypePtr type, std::vector<int64_t> v, std::vector<bool> valid = {}) {
  return ArrayFromVector(std::move(type), v, valid);
}
ArrayDataPtr I32(TypePtr type, std::vector<int32_t> v, std::vector<bool> valid = {}) {
  return ArrayFromVector(std::move(type), v, valid);
}

TEST(Cast, TemporalUnitChanges) {
  const int64_t big = int64_t{1} << 62;
  // Finer: checked against int64 / factor, wrapping unsafe.
  EXPECT_EQ(Message(CastArray(I64(timestamp(TimeUnit::kSecond), {1, big}), timestamp(TimeUnit::kNano))),
            "Casting from timestamp[s] to timestamp[ns] would result in out of bounds timestamp: "
            "4611686018427387904");
  EXPECT_EQ(Values<int64_t>(MustCast(I64(timestamp(TimeUnit::kSecond), {1, big, -big}),
                                     timestamp(TimeUnit::kNano), false)),
            (std::vector<int64_t>{1000000000, 0, 0}));
  // A null slot's value is not checked.
  EXPECT_TRUE(CastArray(I64(timestamp(TimeUnit::kSecond), {1, big}, {true, false}),
                        timestamp(TimeUnit::kNano))
                  .ok());
  // Coarser: a remainder loses data; unsafe truncates toward zero.
  EXPECT_EQ(Message(CastArray(I64(timestamp(TimeUnit::kNano), {1000000001}), timestamp(TimeUnit::kSecond))),
            "Casting from timestamp[ns] to timestamp[s] would lose data: 1000000001");
  EXPECT_EQ(Values<int64_t>(MustCast(I64(timestamp(TimeUnit::kNano), {1000000001, -1500000000, -1, 3000000000}),
                                     timestamp(TimeUnit::kSecond), false)),
            (std::vector<int64_t>{1, -1, 0, 3}));
  // Zones change freely.
  EXPECT_EQ(Values<int64_t>(MustCast(I64(timestamp(TimeUnit::kSecond, "Asia/Tokyo"), {1}),
                                     timestamp(TimeUnit::kMilli, "+05:00"))),
            (std::vector<int64_t>{1000}));
  // Dates.
  EXPECT_EQ(Values<int64_t>(MustCast(I32(date32(), {1, -1, 2147483647}), date64())),
            (std::vector<int64_t>{86400000, -86400000, 185542587100800000}));
  EXPECT_EQ(Message(CastArray(I64(date64(), {86400000, 86400001}), date32())),
            "Casting from date64[ms] to date32[day] would lose data: 86400001");
  EXPECT_EQ(Values<int32_t>(MustCast(I64(date64(), {86400001, -1, -86400001}), date32(), false)),
            (std::vector<int32_t>{1, 0, -1}));
  // A quotient past 32 bits wraps, and so fails the safe check.
  EXPECT_EQ(Values<int32_t>(MustCast(I64(date64(), {big}), date32(), false)),
            (std::vector<int32_t>{1836388031}));
  EXPECT_FALSE(CastArray(I64(date64(), {big}), date32()).ok());
  EXPECT_EQ(Message(CastArray(I32(date32(), {1, 2147483647}), timestamp(TimeUnit::kNano))),
            "Casting from date32[day] to timestamp[ns] would result in out of bounds timestamp: "
            "2147483647");
  EXPECT_EQ(Values<int64_t>(MustCast(I32(date32(), {1, -1}), timestamp(TimeUnit::kSecond, "Asia/Tokyo"))),
            (std::vector<int64_t>{86400, -86400}));
  EXPECT_EQ(Message(CastArray(I64(date64(), {86400001}), timestamp(TimeUnit::kSecond))),
            "Casting from date64[ms] to timestamp[s] would lose data: 86400001");
  // Times: a time32 product wraps at 32 bits without an error (Arrow
  // checks the 64-bit product).
  EXPECT_EQ(Values<int32_t>(MustCast(I32(time32(TimeUnit::kSecond), {2147483647, -5}),
                                     time32(TimeUnit::kMilli))),
            (std::vector<int32_t>{-1000, -5000}));
  EXPECT_EQ(Values<int64_t>(MustCast(I32(time32(TimeUnit::kSecond), {1, 86399}), time64(TimeUnit::kNano))),
            (std::vector<int64_t>{1000000000, 86399000000000}));
  EXPECT_EQ(Message(CastArray(I64(time64(TimeUnit::kNano), {1}), time32(TimeUnit::kSecond))),
            "Casting from time64[ns] to time32[s] would lose data: 1");
  EXPECT_EQ(Values<int32_t>(MustCast(I64(time64(TimeUnit::kNano), {big, -5000000000}),
                                     time32(TimeUnit::kSecond), false)),
            (std::vector<int32_t>{316718722, -5}));
  // Durations.
  EXPECT_EQ(Values<int64_t>(MustCast(I64(duration(TimeUnit::kNano), {1, -1500000000}),
                                     duration(TimeUnit::kSecond), false)),
            (std::vector<int64_t>{0, -1}));
  // No cast between a duration and a point in time.
  EXPECT_EQ(Message(CastArray(I64(duration(TimeUnit::kSecond), {1}), timestamp(TimeUnit::kSecond))),
            "Unsupported cast from duration[s] to timestamp using function cast_timestamp");
}

TEST(Cast, TimestampToDateAndTime) {
  const auto s = [](std::string tz = {}) { return timestamp(TimeUnit::kSecond, std::move(tz)); };
  // Floor division, so instants before 1970 fall on the day before.
  EXPECT_EQ(Values<int32_t>(MustCast(I64(s(), {86400, 86401, -1, -86400, -86401}), date32())),
            (std::vector<int32_t>{1, 1, -1, -1, -2}));
  EXPECT_EQ(Values<int64_t>(MustCast(I64(s(), {86400, -1}), date64())),
            (std::vector<int64_t>{86400000, -86400000}));
  // The wall clock of a fixed offset.
  EXPECT_EQ(Values<int32_t>(MustCast(I64(s("+05:00"), {86400, -1}), date32())),
            (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(Values<int32_t>(MustCast(I64(s("-01:30"), {0, 3600}), time32(TimeUnit::kSecond))),
            (std::vector<int32_t>{81000, 84600}));
  EXPECT_EQ(Values<int32_t>(MustCast(I64(s("+0530"), {-1, 3600}), time32(TimeUnit::kSecond))),
            (std::vector<int32_t>{19799, 23400}));
  EXPECT_EQ(Values<int32_t>(MustCast(I64(s("UTC"), {86400, 86401, -1, 3601}), time32(TimeUnit::kMilli))),
            (std::vector<int32_t>{0, 1000, 86399000, 3601000}));
  EXPECT_EQ(Values<int64_t>(MustCast(I64(timestamp(TimeUnit::kMilli), {-1, 5}), time64(TimeUnit::kNano))),
            (std::vector<int64_t>{86399999000000, 5000000}));
  EXPECT_EQ(Message(CastArray(I64(timestamp(TimeUnit::kNano), {86400000000001}), time32(TimeUnit::kSecond))),
            "Cast would lose data: 1");
  EXPECT_EQ(Values<int32_t>(MustCast(I64(timestamp(TimeUnit::kNano), {86400000000001, -1}),
                                     time32(TimeUnit::kSecond), false)),
            (std::vector<int32_t>{0, 86399}));
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(Values<int64_t>(MustCast(I64(timestamp(TimeUnit::kNano), {max, min}), time64(TimeUnit::kNano))),
            (std::vector<int64_t>{85636854775807, 763145224192}));
  // Offsets Arrow does not parse; zones that need a database.
  EXPECT_EQ(Message(CastArray(I64(s("+05"), {1}), date32())),
            "Cannot locate or parse timezone '+05'");
  EXPECT_EQ(Message(CastArray(I64(s("+24:00"), {1}), date32())),
            "Cannot locate or parse timezone '+24:00'");
  Result<ArrayDataPtr> named = CastArray(I64(s("Asia/Tokyo"), {1}), date32());
  EXPECT_TRUE(named.status().IsNotImplemented()) << named.status().ToString();
  // Unit changes never look at the zone.
  EXPECT_TRUE(CastArray(I64(s("Asia/Tokyo"), {1}), timestamp(TimeUnit::kMilli)).ok());
}

// The vectorised day division (through doubles, corrected) against exact
// floor division, for random instants over the whole int64 range and near
// day boundaries, at every SIMD level.
TEST(Cast, TimestampDaysMatchFloorDivision) {
  std::mt19937_64 rng(7);
  for (TimeUnit unit : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    const __int128 per_day = static_cast<__int128>(86400) *
                             (unit == TimeUnit::kSecond ? 1 : unit == TimeUnit::kMilli ? 1000
                                                          : unit == TimeUnit::kMicro   ? 1000000
                                                                                       : 1000000000);
    std::vector<int64_t> v;
    for (int i = 0; i < 3000; ++i) {
      const uint64_t r = rng();
      int64_t x = static_cast<int64_t>(rng());
      if (r % 3 == 0) x = static_cast<int64_t>(per_day * static_cast<int64_t>(rng() % 200001 - 100000)) +
                          static_cast<int64_t>(r % 5) - 2;
      v.push_back(x);
    }
    v.push_back(std::numeric_limits<int64_t>::max());
    v.push_back(std::numeric_limits<int64_t>::min());
    for (const std::string tz : {"", "+05:30", "-23:59"}) {
      const int64_t offset_seconds = tz.empty() ? 0 : tz == "+05:30" ? 19800 : -86340;
      ArrayDataPtr in = ArrayFromVector(timestamp(unit, tz), v);
      for (SimdLevel level : Levels()) {
        auto scoped = ScopedSimdLevel::Make(level);
        ArrayDataPtr d32 = MustCast(in, date32());
        ArrayDataPtr d64 = MustCast(in, date64());
        ASSERT_NE(d32, nullptr);
        for (size_t i = 0; i < v.size(); ++i) {
          const int64_t local = static_cast<int64_t>(
              static_cast<uint64_t>(v[i]) +
              static_cast<uint64_t>(offset_seconds * static_cast<int64_t>(per_day / 86400)));
          __int128 q = local / per_day;
          if (local % per_day < 0) --q;
          EXPECT_EQ(d32->GetValues<int32_t>(1)[i], static_cast<int32_t>(q)) << v[i];
          EXPECT_EQ(d64->GetValues<int64_t>(1)[i],
                    static_cast<int64_t>(static_cast<uint64_t>(q) * 86400000u))
              << v[i];
        }
      }
    }
  }
}

// Coarser units divide through doubles at the AVX-512 level: the same
// quotients as integer division, over the whole int64 range, at every level.
TEST(Cast, UnitDivisionMatchesIntegerDivision) {
  std::mt19937_64 rng(11);
  struct Case {
    TypePtr from, to;
    int64_t factor;
  };
  const std::vector<Case> cases = {
      {timestamp(TimeUnit::kNano), timestamp(TimeUnit::kMilli), 1000000},
      {timestamp(TimeUnit::kNano), timestamp(TimeUnit::kSecond), 1000000000},
      {timestamp(TimeUnit::kMicro), timestamp(TimeUnit::kMilli), 1000},
      {date64(), date32(), 86400000},
      {time64(TimeUnit::kNano), time32(TimeUnit::kSecond), 1000000000},
      {duration(TimeUnit::kNano), duration(TimeUnit::kMilli), 1000000}};
  for (const Case& c : cases) {
    std::vector<int64_t> v;
    for (int i = 0; i < 3000; ++i) {
      const uint64_t r = rng();
      int64_t x = static_cast<int64_t>(rng());
      if (r % 3 == 0) x = c.factor * static_cast<int64_t>(rng() % 2000001 - 1000000) + static_cast<int64_t>(r % 3) - 1;
      if (r % 7 == 0) x = c.factor * static_cast<int64_t>((rng() % 2 == 0 ? 1 : -1) * (std::numeric_limits<int64_t>::max() / c.factor));
      v.push_back(x);
    }
    v.push_back(std::numeric_limits<int64_t>::max());
    v.push_back(std::numeric_limits<int64_t>::min());
    std::vector<int64_t> multiples;
    for (int64_t x : v) multiples.push_back(x / c.factor * c.factor);
    const bool out32 = c.to->id() == Type::kDate32 || c.to->id() == Type::kTime32;
    for (SimdLevel level : Levels()) {
      auto scoped = ScopedSimdLevel::Make(level);
      ArrayDataPtr out = MustCast(ArrayFromVector(c.from, v), c.to, false);
      ASSERT_NE(out, nullptr);
      for (size_t i = 0; i < v.size(); ++i) {
        const int64_t q = v[i] / c.factor;
        const int64_t got = out32 ? out->GetValues<int32_t>(1)[i] : out->GetValues<int64_t>(1)[i];
        EXPECT_EQ(got, out32 ? static_cast<int64_t>(static_cast<int32_t>(q)) : q)
            << c.from->ToString() << " " << v[i];
      }
      // Exact multiples pass the safe check unless they narrow.
      if (!out32) MustCast(ArrayFromVector(c.from, multiples), c.to);
      EXPECT_FALSE(CastArray(ArrayFromVector(c.from, v), c.to).ok());
    }
  }
}

TEST(Cast, IntegersAndTemporalReinterpret) {
  ArrayDataPtr in = I64(int64(), {1, -1, 7}, {true, false, true})->Slice(1, 2);
  ArrayDataPtr ts = MustCast(in, timestamp(TimeUnit::kNano, "UTC"));
  ASSERT_NE(ts, nullptr);
  EXPECT_EQ(ts->buffers[1], in->buffers[1]);  // no copy
  EXPECT_TRUE(ArrayEquals(*MustCast(ts, int64()), *in));
  EXPECT_TRUE(CanCast(*int32(), *date32()));
  EXPECT_TRUE(CanCast(*time32(TimeUnit::kSecond), *int32()));
  EXPECT_FALSE(CanCast(*int32(), *date64()));
  EXPECT_FALSE(CanCast(*int64(), *date32()));
  EXPECT_FALSE(CanCast(*date32(), *int64()));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
