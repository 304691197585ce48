// A 10,000-column footer must encode and decode in milliseconds: wide
// tables are where Thrift footer parsing shows up in profiles (see the
// arrow-rs "custom Thrift parser" work). Absolute times depend on the
// machine and the build (Debug + ASan on a shared 2-core machine measured
// 150-270 ms), so the test asserts how the time grows: 4x the columns must
// cost less than 10x the time (linear is 4x, quadratic 16x), in the thread's
// CPU time (best of three), plus a loose absolute bound that only a
// pathology reaches. Times are printed.
#include <gtest/gtest.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/parquet/thrift/thrift_test_util.h"

namespace quiver::parquet::format {
namespace {
namespace QUIVER_UNITY_ID {

struct Times {
  double cpu_ms;
  double wall_ms;
};

template <typename F>
Times Measure(F&& f) {
  timespec cpu_start;
  timespec cpu_end;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_start);
  const auto wall_start = std::chrono::steady_clock::now();
  f();
  const auto wall_end = std::chrono::steady_clock::now();
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_end);
  const double cpu_ms = (cpu_end.tv_sec - cpu_start.tv_sec) * 1e3 +
                        (cpu_end.tv_nsec - cpu_start.tv_nsec) / 1e6;
  return {cpu_ms, std::chrono::duration<double, std::milli>(wall_end - wall_start).count()};
}

struct RoundTrip {
  Times encode{1e9, 1e9};
  Times decode{1e9, 1e9};
  int64_t bytes = 0;
};

// Best of three encodes and decodes of a footer with `columns` columns.
RoundTrip MeasureRoundTrip(int columns) {
  const FileMetaData md = testing::MakeFileMetaData(columns, /*num_row_groups=*/1);
  EXPECT_EQ(md.schema.size(), size_t(columns) + 1);
  EXPECT_EQ(md.row_groups[0].columns.size(), size_t(columns));
  RoundTrip out;
  MutableBuffer buffer;
  FileMetaData decoded;
  for (int attempt = 0; attempt < 3; ++attempt) {
    buffer.Clear();
    Status st;
    const Times e = Measure([&] { st = thrift::SerializeThrift(md, &buffer); });
    EXPECT_TRUE(st.ok()) << st;
    Result<FileMetaData> result = Status::UnknownError("not run");
    int64_t consumed = 0;
    const Times d = Measure([&] {
      result = thrift::DeserializeThrift<FileMetaData>(buffer.data(), buffer.size(), &consumed);
    });
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok()) return out;
    EXPECT_EQ(consumed, buffer.size());
    decoded = std::move(result).MoveValueUnsafe();
    out.encode = {std::min(out.encode.cpu_ms, e.cpu_ms), std::min(out.encode.wall_ms, e.wall_ms)};
    out.decode = {std::min(out.decode.cpu_ms, d.cpu_ms), std::min(out.decode.wall_ms, d.wall_ms)};
  }
  EXPECT_TRUE(decoded == md);
  out.bytes = buffer.size();
  std::printf(
      "[ wide footer ] %d columns, %lld bytes: encode %.1f ms cpu (%.1f wall), "
      "decode %.1f ms cpu (%.1f wall)\n",
      columns, static_cast<long long>(out.bytes), out.encode.cpu_ms, out.encode.wall_ms,
      out.decode.cpu_ms, out.decode.wall_ms);
  return out;
}

TEST(WideFooterTest, TenThousandColumnsRoundTripInLinearTime) {
  const RoundTrip small = MeasureRoundTrip(2'500);
  const RoundTrip wide = MeasureRoundTrip(10'000);
  ASSERT_GT(wide.bytes, 3 * small.bytes);
  EXPECT_LT(wide.encode.cpu_ms, 10.0 * std::max(small.encode.cpu_ms, 1.0));
  EXPECT_LT(wide.decode.cpu_ms, 10.0 * std::max(small.decode.cpu_ms, 1.0));
  EXPECT_LT(wide.encode.cpu_ms, 2000.0);
  EXPECT_LT(wide.decode.cpu_ms, 2000.0);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet::format
