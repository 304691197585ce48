#include "quiver/parquet/append/append.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/parquet/writer/test_util_internal.h"
#include "quiver/parquet/append/sort_order_internal.h"
#include "quiver/parquet/reader/file_reader.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using namespace ::quiver::testutil;  // NOLINT

using testing::ReadAll;
using testing::TempDir;

void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

SchemaPtr TestSchema() { return quiver::schema({field("k", int64(), false), field("s", utf8())}); }

RecordBatchPtr Batch(std::vector<int64_t> keys, std::vector<std::string> strings, std::vector<bool> valid = {}) {
  const int64_t n = static_cast<int64_t>(keys.size());
  auto k = ArrayFromVector<int64_t>(int64(), keys);
  auto s = StringArrayFromVector(strings, valid);
  return std::make_shared<RecordBatch>(TestSchema(), n, std::vector<ArrayDataPtr>{k, s});
}

// The bytes of a file before its footer.
int64_t DataEnd(const std::string& bytes) {
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  return static_cast<int64_t>(bytes.size()) - 8 - footer_len;
}

WriterOptions Sorted() {
  WriterOptions o;
  o.sorting_columns = {SortingColumn{0, false, false}};
  return o;
}

void WriteFirst(const std::string& path, const WriterOptions& options = Sorted()) {
  auto w = FileWriter::Open(path, TestSchema(), options);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_TRUE((*w)->WriteRecordBatch(*Batch({1, 2, 3}, {"a", "", "c"}, {true, false, true})).ok());
  ASSERT_TRUE((*w)->Close().ok());
}

TablePtr ReadBack(const std::string& path) {
  auto r = FileReader::Open(path);
  EXPECT_TRUE(r.ok()) << r.status();
  auto t = (*r)->ReadTable();
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

TEST(Append, KeepsTheOldBytesAndReadsAsTheConcatenation) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  WriteFirst(path);
  const std::string before = ReadAll(path);
  auto appender = Appender::Open(path, TestSchema());
  ASSERT_TRUE(appender.ok()) << appender.status();
  ASSERT_TRUE((*appender)->WriteRecordBatch(*Batch({3, 4}, {"d", "e"})).ok());
  ASSERT_TRUE((*appender)->Close().ok());
  EXPECT_EQ((*appender)->num_rows(), 5);
  EXPECT_EQ((*appender)->num_row_groups(), 2);
  EXPECT_TRUE((*appender)->keeps_sorting_columns());
  const std::string after = ReadAll(path);
  const int64_t old_end = DataEnd(before);
  ASSERT_GT(static_cast<int64_t>(after.size()), old_end);
  EXPECT_EQ(after.substr(0, static_cast<size_t>(old_end)), before.substr(0, static_cast<size_t>(old_end)));
  EXPECT_EQ(dir.Files().size(), 1u);  // no temporary file left

  auto table = ReadBack(path);
  auto expected = Table::FromRecordBatches(
      TestSchema(), {Batch({1, 2, 3}, {"a", "", "c"}, {true, false, true}), Batch({3, 4}, {"d", "e"})});
  ASSERT_TRUE(expected.ok());
  EXPECT_TRUE(table->Equals(**expected));
  auto r = FileReader::Open(path);
  auto md = (*r)->metadata();
  ASSERT_EQ(md->num_row_groups(), 2);
  EXPECT_TRUE(md->row_group(1)->sorting_columns().has_value());
}

TEST(Append, SeveralAppendsInARow) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  WriteFirst(path);
  for (int i = 0; i < 3; ++i) {
    const std::string before = ReadAll(path);
    auto batch = Batch({10 + i}, {"x"});
    auto t = Table::FromRecordBatches(TestSchema(), {batch});
    ASSERT_TRUE(AppendToFile(path, **t).ok());
    const std::string after = ReadAll(path);
    const auto end = static_cast<size_t>(DataEnd(before));
    EXPECT_EQ(after.substr(0, end), before.substr(0, end));
  }
  EXPECT_EQ(ReadBack(path)->num_rows(), 6);
}

TEST(Append, OutOfOrderRowsDropTheInheritedSortingColumns) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  WriteFirst(path);
  auto appender = Appender::Open(path, TestSchema());
  ASSERT_TRUE(appender.ok());
  // 2 < the file's last key, 3.
  ASSERT_TRUE((*appender)->WriteRecordBatch(*Batch({2, 9}, {"d", "e"})).ok());
  EXPECT_FALSE((*appender)->keeps_sorting_columns());
  ASSERT_TRUE((*appender)->Close().ok());
  auto r = FileReader::Open(path);
  auto md = (*r)->metadata();
  EXPECT_TRUE(md->row_group(0)->sorting_columns().has_value());
  EXPECT_FALSE(md->row_group(1)->sorting_columns().has_value());
}

TEST(Append, DeclaredSortingColumnsMustHold) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  WriteFirst(path);
  const std::string before = ReadAll(path);
  auto appender = Appender::Open(path, TestSchema(), Sorted());
  ASSERT_TRUE(appender.ok());
  Status st = (*appender)->WriteRecordBatch(*Batch({5, 4}, {"d", "e"}));
  EXPECT_TRUE(st.IsInvalid()) << st;
  EXPECT_NE(st.message().find("sorting_columns"), std::string::npos) << st;
  EXPECT_FALSE((*appender)->Close().ok());
  EXPECT_EQ(ReadAll(path), before);
  EXPECT_EQ(dir.Files().size(), 1u);

  WriterOptions other;
  other.sorting_columns = {SortingColumn{0, true, false}};
  auto refused = Appender::Open(path, TestSchema(), other);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("differ from the file's"), std::string::npos) << refused.status();
}

TEST(Append, SchemaMismatchNamesTheField) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  WriteFirst(path);
  const std::string before = ReadAll(path);
  auto other = quiver::schema({field("k", int64(), false), field("s", int32())});
  auto appender = Appender::Open(path, other);
  ASSERT_FALSE(appender.ok());
  EXPECT_TRUE(appender.status().IsInvalid());
  EXPECT_NE(appender.status().message().find("field 's'"), std::string::npos) << appender.status();
  EXPECT_NE(appender.status().message().find(path), std::string::npos) << appender.status();
  auto fewer = quiver::schema({field("k", int64(), false)});
  auto refused = Appender::Open(path, fewer);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("lack the file's field 's'"), std::string::npos) << refused.status();
  EXPECT_EQ(ReadAll(path), before);
  EXPECT_EQ(dir.Files().size(), 1u);
}

TEST(Append, OptionsThatStoreColumnsDifferentlyAreRefused) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  auto schema = quiver::schema({field("t", timestamp(TimeUnit::kNano))});
  auto batch = std::make_shared<RecordBatch>(schema, 2,
                                             std::vector<ArrayDataPtr>{ArrayFromVector<int64_t>(
                                                 timestamp(TimeUnit::kNano), {1000, 2000})});
  auto w = FileWriter::Open(path, schema);
  ASSERT_TRUE((*w)->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE((*w)->Close().ok());
  const std::string before = ReadAll(path);
  WriterOptions options;
  options.version = FormatVersion::k2_4;  // nanoseconds stored as microseconds
  auto appender = Appender::Open(path, schema, options);
  ASSERT_FALSE(appender.ok());
  EXPECT_NE(appender.status().message().find("column 't'"), std::string::npos) << appender.status();
  EXPECT_EQ(ReadAll(path), before);
  EXPECT_EQ(dir.Files().size(), 1u);
}

TEST(Append, AFileReplacedMeanwhileIsNotOverwritten) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  WriteFirst(path);
  auto appender = Appender::Open(path, TestSchema());
  ASSERT_TRUE(appender.ok());
  ASSERT_TRUE((*appender)->WriteRecordBatch(*Batch({7}, {"x"})).ok());
  WriteFirst(path, WriterOptions{});  // another writer replaces the file
  const std::string theirs = ReadAll(path);
  Status st = (*appender)->Close();
  EXPECT_TRUE(st.IsIOError()) << st;
  EXPECT_NE(st.message().find("changed while appending"), std::string::npos) << st;
  EXPECT_EQ(ReadAll(path), theirs);
  EXPECT_EQ(dir.Files().size(), 1u);
}

TEST(Append, StoreSchemaOffIsRefusedWhenTheFileStoresIt) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  WriteFirst(path);
  WriterOptions options;
  options.store_schema = false;
  auto appender = Appender::Open(path, TestSchema(), options);
  ASSERT_FALSE(appender.ok());
  EXPECT_NE(appender.status().message().find("store_schema"), std::string::npos) << appender.status();
}

TEST(Append, EmptyFileAndEmptyAppend) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  {
    auto w = FileWriter::Open(path, TestSchema());
    ASSERT_TRUE((*w)->Close().ok());  // no row groups
  }
  auto none = Table::FromRecordBatches(TestSchema(), {});
  ASSERT_TRUE(AppendToFile(path, **none).ok());
  EXPECT_EQ(ReadBack(path)->num_rows(), 0);
  auto t = Table::FromRecordBatches(TestSchema(), {Batch({1, 2}, {"a", "b"})});
  ASSERT_TRUE(AppendToFile(path, **t).ok());
  auto back = ReadBack(path);
  EXPECT_TRUE(back->Equals(**t));
}

TEST(Append, NotParquetOrTruncatedIsAnErrorAndLeavesTheFile) {
  TempDir dir;
  const std::string path = dir.path() + "/f.parquet";
  WriteAll(path, "hello, this is not a Parquet file at all");
  auto appender = Appender::Open(path, TestSchema());
  ASSERT_FALSE(appender.ok());
  EXPECT_NE(appender.status().message().find("appending to '" + path + "'"), std::string::npos)
      << appender.status();
  EXPECT_EQ(ReadAll(path), "hello, this is not a Parquet file at all");

  WriteFirst(path);
  const std::string whole = ReadAll(path);
  const std::string cut = whole.substr(0, whole.size() - 20);
  WriteAll(path, cut);
  appender = Appender::Open(path, TestSchema());
  ASSERT_FALSE(appender.ok());
  EXPECT_EQ(ReadAll(path), cut);
  EXPECT_EQ(dir.Files().size(), 1u);
}

TEST(SortOrder, NullsAndDirections) {
  auto a = ArrayFromVector<int64_t>(int64(), {1, 2, 0, 5}, {true, true, false, true});
  auto b = ArrayFromVector<int64_t>(int64(), {1, 3, 7, 5}, {true, true, true, false});
  using internal::OrderKey;
  // Ascending, nulls first: 1<=1, 2<=3, null before 7, but 5 before null is out of order.
  auto r = internal::PairsInOrder({a}, {b}, {OrderKey{false, true}});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);
  // Nulls last: null before 7 is out of order.
  r = internal::PairsInOrder({a}, {b}, {OrderKey{false, false}});
  EXPECT_FALSE(*r);
  auto c = ArrayFromVector<int64_t>(int64(), {3, 3, 1});
  r = internal::RowsInOrder({c}, {}, {OrderKey{true, false}});
  EXPECT_TRUE(*r);
  r = internal::RowsInOrder({c}, {ArrayFromVector<int64_t>(int64(), {2})}, {OrderKey{true, false}});
  EXPECT_FALSE(*r);
  // Ties on the first key fall to the second.
  auto d = ArrayFromVector<int64_t>(int64(), {1, 1, 2});
  auto e = ArrayFromVector<int64_t>(int64(), {5, 4, 0});
  r = internal::RowsInOrder({d, e}, {}, {OrderKey{false, false}, OrderKey{false, false}});
  EXPECT_FALSE(*r);
  r = internal::RowsInOrder({d, e}, {}, {OrderKey{false, false}, OrderKey{true, false}});
  EXPECT_TRUE(*r);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
