// Filtered reads (FileReader::ReadTable / ReadRowGroup / GetRecordBatchReader
// with a filter) against reading the projection plus the filter's columns
// and filtering (FilterByExpression), and the pruning's counters. Python's
// test_filtered_read.py judges the same against pyarrow.
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/array/test_util_internal.h"
#include "quiver/compute/expression.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/test_files_internal.h"

namespace quiver::parquet {
namespace {

using compute::Expression;
using testing::AsFile;
using testing::WriteToBuffer;

constexpr int64_t kRows = 5000;
const EqualOptions kNansEqual{.nans_equal = true};

Expression Int(int64_t v) { return compute::literal(Scalar::MakeInt64(v)); }
Expression Dbl(double v) { return compute::literal(Scalar::MakeDouble(v)); }
Expression Str(const std::string& v) { return compute::literal(Scalar::MakeString(v)); }
Expression F(const std::string& name) { return compute::field(name); }

// k: int64 0..n-1 (sorted); d: double, every 7th null, every 11th NaN; s:
// strings; u: int32 unsorted (i * 7919 % 1000).
TablePtr MakeTable() {
  std::vector<int64_t> k(kRows);
  std::vector<double> d(kRows);
  std::vector<bool> d_valid(kRows);
  std::vector<int32_t> u(kRows);
  for (int64_t i = 0; i < kRows; ++i) {
    k[i] = i;
    d[i] = i % 11 == 0 ? std::nan("") : static_cast<double>(i % 100) - 50.0;
    d_valid[i] = i % 7 != 0;
    u[i] = static_cast<int32_t>(i * 7919 % 1000);
  }
  auto schema = quiver::schema({quiver::field("k", int64()), quiver::field("d", float64()),
                                quiver::field("s", utf8()), quiver::field("u", int32())});
  std::vector<ChunkedArrayPtr> columns;
  for (ArrayDataPtr data : {testutil::ArrayFromVector(int64(), k),
                            testutil::ArrayFromVector(float64(), d, d_valid),
                            testutil::StringArrayFromVector(testutil::Strings(kRows)),
                            testutil::ArrayFromVector(int32(), u)}) {
    columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(data)},
                                                     data->type));
  }
  return std::make_shared<Table>(schema, std::move(columns), kRows);
}

std::unique_ptr<FileReader> OpenFile(bool page_index, bool bloom = false) {
  WriterOptions options;
  options.row_group_size = 1000;
  options.max_rows_per_page = 50;
  options.write_page_index = page_index;
  if (bloom) options.bloom_filter.default_value = BloomFilterOptions{};
  auto reader = FileReader::Open(AsFile(WriteToBuffer(*MakeTable(), options)));
  EXPECT_TRUE(reader.ok()) << reader.status();
  return std::move(*reader);
}

// The oracle: read the projection plus the filter's fields whole, filter,
// drop the filter-only fields.
TablePtr Oracle(FileReader& reader, const Expression& filter,
                const std::optional<std::vector<std::string>>& columns) {
  std::optional<std::vector<std::string>> read = columns;
  if (read.has_value()) {
    for (const auto& f : filter.FieldsReferenced()) {
      if (std::find(read->begin(), read->end(), f) == read->end()) read->push_back(f);
    }
  }
  auto all = reader.ReadTable(read);
  EXPECT_TRUE(all.ok()) << all.status();
  auto kept = compute::FilterByExpression(**all, filter);
  EXPECT_TRUE(kept.ok()) << kept.status();
  const int count = columns.has_value() ? static_cast<int>(columns->size())
                                        : (*kept)->num_columns();
  FieldVector fields((*kept)->schema()->fields().begin(),
                     (*kept)->schema()->fields().begin() + count);
  std::vector<ChunkedArrayPtr> out((*kept)->columns().begin(), (*kept)->columns().begin() + count);
  return std::make_shared<Table>(quiver::schema(fields), std::move(out), (*kept)->num_rows());
}

std::vector<Expression> Filters() {
  return {
      compute::less(F("k"), Int(3)),
      compute::and_kleene(compute::greater_equal(F("k"), Int(2500)),
                          compute::less(F("k"), Int(2505))),
      compute::not_equal(F("d"), Dbl(3.0)),
      compute::equal(F("d"), Dbl(-50.0)),
      compute::is_null(F("d"), /*nan_is_null=*/true),
      compute::or_kleene(compute::equal(F("u"), Int(7)), compute::greater(F("k"), Int(4990))),
      compute::invert(compute::less(F("u"), Int(990))),
      compute::equal(F("s"), Str("nothing like this")),
      compute::greater(F("k"), Int(1'000'000)),
      compute::is_valid(F("d")),
  };
}

TEST(FilteredReadTest, EqualsReadThenFilter) {
  for (bool page_index : {true, false}) {
    auto reader = OpenFile(page_index, /*bloom=*/true);
    for (const auto& filter : Filters()) {
      for (const std::optional<std::vector<std::string>>& columns :
           std::vector<std::optional<std::vector<std::string>>>{
               std::nullopt, std::vector<std::string>{"s"}, std::vector<std::string>{"u", "k"},
               std::vector<std::string>{}}) {
        SCOPED_TRACE(filter.ToString() + (page_index ? " index" : " no index") + " columns " +
                     (columns ? std::to_string(columns->size()) : std::string("all")));
        auto want = Oracle(*reader, filter, columns);
        auto got = reader->ReadTable(filter, columns);
        ASSERT_TRUE(got.ok()) << got.status();
        ASSERT_TRUE((*got)->ValidateFull().ok());
        EXPECT_EQ((*got)->num_rows(), want->num_rows());
        EXPECT_TRUE((*got)->Equals(*want, kNansEqual)) << (*got)->schema()->ToString();
        // As batches of odd sizes, each holding matches only.
        auto batches = reader->GetRecordBatchReader(filter, columns, std::nullopt, 77);
        ASSERT_TRUE(batches.ok()) << batches.status();
        std::vector<RecordBatchPtr> read;
        int64_t rows = 0;
        while (true) {
          auto batch = (*batches)->Next();
          ASSERT_TRUE(batch.ok()) << batch.status();
          if (*batch == nullptr) break;
          ASSERT_TRUE((*batch)->ValidateFull().ok());
          EXPECT_GT((*batch)->num_rows(), 0);
          rows += (*batch)->num_rows();
          read.push_back(*batch);
        }
        EXPECT_EQ(rows, want->num_rows());
        auto as_table = Table::FromRecordBatches((*batches)->schema(), read);
        ASSERT_TRUE(as_table.ok()) << as_table.status();
        if (want->num_columns() > 0) EXPECT_TRUE((*as_table)->Equals(*want, kNansEqual));
      }
    }
  }
}

TEST(FilteredReadTest, SortedRangePrunesRowGroupsAndPages) {
  auto reader = OpenFile(true);
  const auto filter = compute::and_kleene(compute::greater_equal(F("k"), Int(2500)),
                                          compute::less(F("k"), Int(2505)));
  auto got = reader->ReadTable(filter, std::vector<std::string>{"s"});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->num_rows(), 5);
  const ReadStats stats = reader->read_stats();
  EXPECT_EQ(stats.row_groups_pruned_statistics, 4);
  // Of the 20 pages per column of the row group read, 19 are skipped in
  // both columns read (k and s).
  EXPECT_EQ(stats.pages_skipped, 2 * 19);
  auto whole = reader->ReadTable(std::vector<std::string>{"s", "k"});
  ASSERT_TRUE(whole.ok());
  // (The filtered read: the two chunks' offset indexes, k's column index
  // and the 4 pages touched, about 1/7 of the whole read here.)
  EXPECT_LT(stats.bytes_read * 5, reader->read_stats().bytes_read);
  EXPECT_EQ(stats.pages_decompressed, 4);
}

TEST(FilteredReadTest, BloomPrunesEquality) {
  auto reader = OpenFile(true, /*bloom=*/true);
  // Inside every row group's bounds, in none of them.
  auto got = reader->ReadTable(compute::equal(F("s"), Str("nothing like this")));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->num_rows(), 0);
  const ReadStats stats = reader->read_stats();
  EXPECT_EQ(stats.row_groups_pruned_statistics + stats.row_groups_pruned_bloom, 5);
  EXPECT_EQ(stats.pages_decompressed, 0);
}

TEST(FilteredReadTest, BindErrorsEvenWhenEverythingIsPruned) {
  auto reader = OpenFile(true);
  auto missing = reader->ReadTable(compute::equal(F("zz"), Int(1)));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsInvalid());
  EXPECT_NE(missing.status().message().find("No match for FieldRef.Name(zz)"), std::string::npos)
      << missing.status();
  // k > 10^6 prunes every row group; the string literal still fails to bind.
  auto bad = reader->ReadTable(
      compute::and_kleene(compute::greater(F("k"), Int(1'000'000)), compute::less(F("s"), Int(5))));
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsNotImplemented()) << bad.status();
}

TEST(FilteredReadTest, ReadRowGroupAndNoColumns) {
  auto reader = OpenFile(true);
  auto got = reader->ReadRowGroup(2, compute::less(F("u"), Int(10)), std::vector<std::string>{});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->num_columns(), 0);
  auto rg = reader->ReadRowGroup(2, std::vector<std::string>{"u"});
  ASSERT_TRUE(rg.ok());
  auto want = compute::FilterByExpression(**rg, compute::less(F("u"), Int(10)));
  ASSERT_TRUE(want.ok());
  EXPECT_EQ((*got)->num_rows(), (*want)->num_rows());
  EXPECT_GT((*got)->num_rows(), 0);
  auto out_of_range = reader->ReadTable(compute::less(F("u"), Int(10)), std::nullopt,
                                        std::vector<int>{7});
  EXPECT_FALSE(out_of_range.ok());
}

}  // namespace
}  // namespace quiver::parquet
