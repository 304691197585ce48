// A 10,000-column footer must encode and decode in milliseconds: wide
// tables are where Thrift footer parsing shows up in profiles (see the
// arrow-rs "custom Thrift parser" work). The bounds are generous so that
// Debug + ASan builds do not flake, and they apply to the thread's CPU time
// (best of three), which other processes on a shared machine do not
// inflate; wall time is printed too.
#include <gtest/gtest.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/thrift/compact_protocol.h"
#include "quiver/parquet/thrift/parquet_types.h"
#include "quiver/parquet/thrift/thrift_test_util.h"

namespace quiver::parquet::format {
namespace {

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

TEST(WideFooterTest, TenThousandColumnsRoundTripInMilliseconds) {
  constexpr int kColumns = 10'000;
  const FileMetaData md = testing::MakeFileMetaData(kColumns, /*num_row_groups=*/1);
  ASSERT_EQ(md.schema.size(), size_t{kColumns} + 1);
  ASSERT_EQ(md.row_groups[0].columns.size(), size_t{kColumns});

  Times encode{1e9, 1e9};
  Times decode{1e9, 1e9};
  MutableBuffer buffer;
  FileMetaData decoded;
  for (int attempt = 0; attempt < 3; ++attempt) {
    buffer.Clear();
    Status st;
    const Times e = Measure([&] { st = thrift::SerializeThrift(md, &buffer); });
    ASSERT_TRUE(st.ok()) << st;
    Result<FileMetaData> result = Status::UnknownError("not run");
    int64_t consumed = 0;
    const Times d = Measure([&] {
      result = thrift::DeserializeThrift<FileMetaData>(buffer.data(), buffer.size(), &consumed);
    });
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(consumed, buffer.size());
    decoded = std::move(result).MoveValueUnsafe();
    encode = {std::min(encode.cpu_ms, e.cpu_ms), std::min(encode.wall_ms, e.wall_ms)};
    decode = {std::min(decode.cpu_ms, d.cpu_ms), std::min(decode.wall_ms, d.wall_ms)};
  }
  EXPECT_TRUE(decoded == md);
  std::printf(
      "[ wide footer ] %d columns, %lld bytes: encode %.1f ms cpu (%.1f wall), "
      "decode %.1f ms cpu (%.1f wall)\n",
      kColumns, static_cast<long long>(buffer.size()), encode.cpu_ms, encode.wall_ms,
      decode.cpu_ms, decode.wall_ms);
  EXPECT_LT(encode.cpu_ms, 200.0);
  EXPECT_LT(decode.cpu_ms, 200.0);
}

}  // namespace
}  // namespace quiver::parquet::format
