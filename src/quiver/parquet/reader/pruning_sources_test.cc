// Filter pruning by the chunks' dictionaries and by page-header statistics
// (pruning_sources_internal.h) in filtered reads: the counters show the
// pruning, the rows equal reading everything and filtering
// (FilterByExpression). Python's test_filtered_read.py judges pyarrow-written
// files against pyarrow.
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/array/test_util_internal.h"
#include "quiver/compute/expression.h"
#include "quiver/compute/set_lookup.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/test_files_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using compute::Expression;
using testing::AsFile;
using testing::WriteToBuffer;

Expression Int(int64_t v) { return compute::literal(Scalar::MakeInt64(v)); }
Expression Str(const std::string& v) { return compute::literal(Scalar::MakeString(v)); }
Expression F(const std::string& name) { return compute::field(name); }

TablePtr OneColumnTable(const std::string& name, ArrayDataPtr data) {
  const int64_t n = data->length;
  auto schema = quiver::schema({quiver::field(name, data->type)});
  std::vector<ChunkedArrayPtr> columns{
      std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(data)}, data->type)};
  return std::make_shared<Table>(schema, std::move(columns), n);
}

TablePtr TwoColumnTable(ArrayDataPtr k, ArrayDataPtr s) {
  const int64_t n = k->length;
  auto schema = quiver::schema({quiver::field("k", k->type), quiver::field("s", s->type)});
  std::vector<ChunkedArrayPtr> columns;
  for (ArrayDataPtr data : {k, s}) {
    columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(data)},
                                                     data->type));
  }
  return std::make_shared<Table>(schema, std::move(columns), n);
}

std::unique_ptr<FileReader> Open(const Table& table, const WriterOptions& options) {
  auto reader = FileReader::Open(AsFile(WriteToBuffer(table, options)));
  EXPECT_TRUE(reader.ok()) << reader.status();
  return std::move(*reader);
}

// The filtered read equals reading everything and filtering.
void ExpectReadThenFilter(FileReader& reader, const Expression& filter) {
  SCOPED_TRACE(filter.ToString());
  auto all = reader.ReadTable();
  ASSERT_TRUE(all.ok()) << all.status();
  auto want = compute::FilterByExpression(**all, filter);
  ASSERT_TRUE(want.ok()) << want.status();
  auto got = reader.ReadTable(filter);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_TRUE((*got)->ValidateFull().ok());
  EXPECT_EQ((*got)->num_rows(), (*want)->num_rows());
  EXPECT_TRUE((*got)->Equals(**want));
}

// c: 4000 rows of 10, 20, 30, 40 (every 9th null when nullable), in 4 row
// groups, all dictionary-encoded.
std::unique_ptr<FileReader> DictionaryFile(bool nullable, bool statistics) {
  std::vector<int64_t> values(4000);
  std::vector<bool> valid(4000);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = 10 * static_cast<int64_t>(1 + i % 4);
    valid[i] = !nullable || i % 9 != 0;
  }
  WriterOptions options;
  options.row_group_size = 1000;
  options.max_rows_per_page = 100;
  options.write_statistics.default_value = statistics;
  return Open(*OneColumnTable("c", testutil::ArrayFromVector(int64(), values, valid)), options);
}

TEST(DictionaryPruningTest, PrunesRowGroupsNoValueOfWhichMatches) {
  auto reader = DictionaryFile(/*nullable=*/false, /*statistics=*/true);
  // Within the bounds [10, 40], in no dictionary.
  for (const Expression& filter :
       {compute::equal(F("c"), Int(25)),
        compute::and_kleene(compute::greater(F("c"), Int(20)), compute::less(F("c"), Int(30))),
        compute::is_in(F("c"), compute::SetLookupOptions{compute::Datum(testutil::ArrayFromVector(
                                   int64(), std::vector<int64_t>{15, 35}))})}) {
    auto got = reader->ReadTable(filter);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ((*got)->num_rows(), 0);
    const ReadStats stats = reader->read_stats();
    EXPECT_EQ(stats.row_groups_pruned_statistics, 0) << filter.ToString();
    EXPECT_EQ(stats.row_groups_pruned_dictionary, 4) << filter.ToString();
    EXPECT_EQ(stats.pages_decompressed, 0);
    // The dictionary pages' bytes (and nothing of the data pages).
    EXPECT_GT(stats.bytes_read, 0);
    ExpectReadThenFilter(*reader, filter);
  }
  // A value in the dictionary: nothing pruned, the rows as read then filtered.
  auto kept = reader->ReadTable(compute::equal(F("c"), Int(30)));
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ((*kept)->num_rows(), 1000);
  EXPECT_EQ(reader->read_stats().row_groups_pruned_dictionary, 0);
}

TEST(DictionaryPruningTest, WithoutStatisticsTheDictionaryStillPrunes) {
  auto reader = DictionaryFile(/*nullable=*/false, /*statistics=*/false);
  auto got = reader->ReadTable(compute::equal(F("c"), Int(25)));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->num_rows(), 0);
  EXPECT_EQ(reader->read_stats().row_groups_pruned_dictionary, 4);
}

TEST(DictionaryPruningTest, NullsAreAnsweredByTheNullCountNeverAssumedAbsent) {
  // No statistics: the null count is unknown, so is_null may be true
  // whatever the dictionary holds, and so may "c == 25 or c is null".
  for (bool nullable : {false, true}) {
    auto reader = DictionaryFile(nullable, /*statistics=*/false);
    for (const Expression& filter :
         {compute::is_null(F("c")),
          compute::or_kleene(compute::equal(F("c"), Int(25)), compute::is_null(F("c")))}) {
      auto got = reader->ReadTable(filter);
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(reader->read_stats().row_groups_pruned_dictionary, 0) << filter.ToString();
      ExpectReadThenFilter(*reader, filter);
    }
  }
  // With statistics the null count is known: no nulls prunes is_null by
  // statistics; nulls keep it.
  auto with_nulls = DictionaryFile(/*nullable=*/true, /*statistics=*/true);
  auto got = with_nulls->ReadTable(
      compute::or_kleene(compute::equal(F("c"), Int(25)), compute::is_null(F("c"))));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->num_rows(), 445);  // i % 9 == 0 for i < 4000
  EXPECT_EQ(with_nulls->read_stats().row_groups_pruned_dictionary, 0);
  // != keeps every non-null row here (no pruning can apply).
  ExpectReadThenFilter(*with_nulls, compute::not_equal(F("c"), Int(25)));
}

TEST(DictionaryPruningTest, StringDictionary) {
  std::vector<std::string> values;
  for (int i = 0; i < 3000; ++i) {
    values.push_back(i % 3 == 0 ? "apple" : i % 3 == 1 ? "cherry" : "fig");
  }
  WriterOptions options;
  options.row_group_size = 1000;
  auto reader = Open(*OneColumnTable("s", testutil::StringArrayFromVector(values)), options);
  auto got = reader->ReadTable(compute::equal(F("s"), Str("banana")));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->num_rows(), 0);
  EXPECT_EQ(reader->read_stats().row_groups_pruned_dictionary, 3);
  ExpectReadThenFilter(*reader, compute::greater(F("s"), Str("cherry")));
}

TEST(DictionaryPruningTest, FallbackMidChunkIsNotPrunedByTheDictionary) {
  // Even numbers 0, 2, ..., 3998: the dictionary (limit 256 bytes: 32
  // int64 values) fills up in each chunk's first page; the rest of the
  // chunk is PLAIN. A value only the PLAIN pages hold must be found.
  std::vector<int64_t> values(2000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 2 * static_cast<int64_t>(i);
  WriterOptions options;
  options.row_group_size = 1000;
  options.max_rows_per_page = 50;
  options.dictionary_pagesize_limit = 256;
  options.write_page_index = false;
  auto reader = Open(*OneColumnTable("c", testutil::ArrayFromVector(int64(), values)), options);
  auto metadata = reader->metadata();
  auto chunk = (*(*metadata).row_group(0)).column(0);
  ASSERT_TRUE(chunk.ok());
  ASSERT_TRUE(chunk->dictionary_page_offset().has_value());
  for (int64_t v : {int64_t{1000}, int64_t{3000}, int64_t{30}}) {
    auto got = reader->ReadTable(compute::equal(F("c"), Int(v)));
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ((*got)->num_rows(), 1) << v;
    EXPECT_EQ(reader->read_stats().row_groups_pruned_dictionary, 0);
  }
  ExpectReadThenFilter(*reader, compute::equal(F("c"), Int(1001)));
}

// k: 0, 2, 4, ... (sorted), s: strings; 5 row groups of 1000 rows, pages
// of 50 rows, no page index: page-header statistics only.
std::unique_ptr<FileReader> NoIndexFile(DataPageVersion version) {
  std::vector<int64_t> k(5000);
  for (size_t i = 0; i < k.size(); ++i) k[i] = 2 * static_cast<int64_t>(i);
  WriterOptions options;
  options.row_group_size = 1000;
  options.max_rows_per_page = 50;
  options.write_page_index = false;
  options.use_dictionary.default_value = false;
  options.data_page_version = version;
  return Open(*TwoColumnTable(testutil::ArrayFromVector(int64(), k),
                              testutil::StringArrayFromVector(testutil::Strings(5000))),
              options);
}

TEST(PageHeaderPruningTest, SortedRangeSkipsPagesWithoutAPageIndex) {
  for (DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
    auto reader = NoIndexFile(version);
    auto index = reader->ReadColumnIndex(2, 0);
    ASSERT_TRUE(index.ok());
    ASSERT_FALSE(index->has_value());
    // Rows 2500 to 2504 (k 5000 to 5008): row group 2, its page 10.
    const auto filter = compute::and_kleene(compute::greater_equal(F("k"), Int(5000)),
                                            compute::less(F("k"), Int(5010)));
    auto got = reader->ReadTable(filter, std::vector<std::string>{"s"});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ((*got)->num_rows(), 5);
    const ReadStats stats = reader->read_stats();
    EXPECT_EQ(stats.row_groups_pruned_statistics, 4);
    // k's 19 other pages are not decompressed (found by their headers);
    // s, without an offset index, skips its rows by their levels.
    EXPECT_EQ(stats.pages_skipped, 19);
    // k's one page, and s's pages up to the rows (at most all 20).
    EXPECT_GE(stats.pages_decompressed, 2);
    EXPECT_LE(stats.pages_decompressed, 1 + 20);
    ExpectReadThenFilter(*reader, filter);
    for (const Expression& f :
         {compute::less(F("k"), Int(7)), compute::greater(F("k"), Int(9990)),
          compute::or_kleene(compute::equal(F("k"), Int(4)), compute::equal(F("k"), Int(6000))),
          compute::not_equal(F("k"), Int(10)), compute::equal(F("s"), Str("zzz"))}) {
      ExpectReadThenFilter(*reader, f);
    }
  }
}

TEST(PageHeaderPruningTest, EveryPagePrunedLeavesTheRowGroupUnread) {
  auto reader = NoIndexFile(DataPageVersion::kV1);
  // 99 lies within row group 0's bounds [0, 1998] and no page's: page 0
  // holds 0..98, page 1 100..198.
  auto got = reader->ReadTable(compute::equal(F("k"), Int(99)));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->num_rows(), 0);
  const ReadStats stats = reader->read_stats();
  EXPECT_EQ(stats.row_groups_pruned_statistics, 4);
  EXPECT_EQ(stats.pages_skipped, 20);
  EXPECT_EQ(stats.pages_decompressed, 0);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
