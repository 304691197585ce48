#include "quiver/parquet/writer/properties.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "quiver/util/version.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

TEST(WriterOptions, FormatVersions) {
  EXPECT_EQ(*ParseFormatVersion("1.0"), FormatVersion::k1_0);
  EXPECT_EQ(*ParseFormatVersion("2.4"), FormatVersion::k2_4);
  EXPECT_EQ(*ParseFormatVersion("2.6"), FormatVersion::k2_6);
  for (const char* bad : {"2.0", "2", "1", "", "2.6 "}) {
    auto v = ParseFormatVersion(bad);
    ASSERT_FALSE(v.ok()) << bad;
    EXPECT_NE(v.status().message().find("version must be '1.0', '2.4' or '2.6'"), std::string::npos);
  }
  for (FormatVersion v : {FormatVersion::k1_0, FormatVersion::k2_4, FormatVersion::k2_6}) {
    EXPECT_EQ(*ParseFormatVersion(FormatVersionName(v)), v);
  }
  EXPECT_EQ(WriterOptions{}.version, FormatVersion::k2_6);  // pyarrow's default
}

TEST(WriterOptions, CoerceTimestamps) {
  EXPECT_EQ(*ParseCoerceTimestamps("ms"), TimeUnit::kMilli);
  EXPECT_EQ(*ParseCoerceTimestamps("us"), TimeUnit::kMicro);
  for (const char* bad : {"s", "ns", "MS", ""}) EXPECT_FALSE(ParseCoerceTimestamps(bad).ok()) << bad;
  // The C++ field takes a TimeUnit: seconds and nanoseconds are refused.
  WriterOptions o;
  o.coerce_timestamps = TimeUnit::kNano;
  EXPECT_TRUE(o.Validate().IsInvalid());
  o.coerce_timestamps = TimeUnit::kMicro;
  EXPECT_TRUE(o.Validate().ok());
}

TEST(WriterOptions, DistinctCountNeedsStatistics) {
  WriterOptions o;
  o.write_distinct_count = true;
  EXPECT_TRUE(o.Validate().ok());
  o.write_statistics.default_value = false;
  const Status st = o.Validate();
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("write_distinct_count"), std::string::npos) << st;
  o.write_statistics.by_column["a"] = true;  // statistics for some column: counted there
  EXPECT_TRUE(o.Validate().ok());
}

// created_by is "quiver version X.Y.Z (build HASH)" and parses as the two
// readers that look at it parse it.
TEST(WriterOptions, CreatedByParsesAsParquetJavaAndArrowCppRead) {
  const std::string created_by = WriterOptions{}.created_by;
  EXPECT_EQ(created_by, DefaultCreatedBy());
  const std::string version(Version());
  const std::string commit(BuildCommit());
  EXPECT_TRUE(std::regex_match(version, std::regex("[0-9]+\\.[0-9]+\\.[0-9]+"))) << version;
  EXPECT_TRUE(commit.empty() || std::regex_match(commit, std::regex("[0-9a-f]{40}"))) << commit;
  EXPECT_EQ(created_by, "quiver version " + version + (commit.empty() ? "" : " (build " + commit + ")"));

  // parquet-java's VersionParser.FORMAT (org.apache.parquet.VersionParser),
  // matched whole: application, semver, build hash.
  const std::regex java("(.*?)\\s+version\\s*(?:([^(]*?)\\s*(?:\\(\\s*build\\s*([^)]*?)\\s*\\))?)?");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(created_by, m, java)) << created_by;
  EXPECT_EQ(m[1].str(), "quiver");
  EXPECT_EQ(m[2].str(), version);
  EXPECT_EQ(m[3].str(), commit);

  // Arrow C++'s ApplicationVersion (parquet/metadata.cc): the application
  // before " version ", the version up to " (", MAJOR.MINOR.PATCH digits,
  // the build between " (build " and ")".
  const size_t mark = created_by.find(" version ");
  ASSERT_NE(mark, std::string::npos);
  EXPECT_EQ(created_by.substr(0, mark), "quiver");
  const size_t version_end = created_by.find(" (", mark + 9);
  const std::string v = created_by.substr(mark + 9, version_end == std::string::npos
                                                        ? std::string::npos
                                                        : version_end - mark - 9);
  EXPECT_TRUE(std::regex_match(v, std::regex("[0-9]+\\.[0-9]+\\.[0-9]+"))) << v;
  if (!commit.empty()) {
    const size_t build = created_by.find(" (build ", version_end);
    ASSERT_NE(build, std::string::npos);
    EXPECT_EQ(created_by.substr(build + 8, created_by.find(')', build) - build - 8), commit);
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
