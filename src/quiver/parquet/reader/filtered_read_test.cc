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
#include "quiver/io/memory.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/late_materialization_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/parquet/reader/test_files_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

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

// Late materialization (late_materialization.cc): every type as payload
// (lists, structs, maps, dictionaries under a refined selection), a sorted
// and an unsorted filter column, selectivities 0.1% to 100%.
constexpr int64_t kLateRows = 3000;

TablePtr EveryTypeTable() {
  FieldVector fields;
  std::vector<ChunkedArrayPtr> columns;
  auto add = [&](const std::string& name, ArrayDataPtr data, bool nullable) {
    fields.push_back(quiver::field(name, data->type, nullable));
    columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(data)},
                                                     data->type));
  };
  std::vector<int64_t> k(kLateRows);
  std::vector<int32_t> r(kLateRows);
  for (int64_t i = 0; i < kLateRows; ++i) {
    k[i] = i;
    r[i] = static_cast<int32_t>(i * 7919 % 1000);
  }
  add("k", testutil::ArrayFromVector(int64(), k), false);
  add("r", testutil::ArrayFromVector(int32(), r), false);
  for (auto& column : testutil::AllTypeColumns(kLateRows)) {
    // Only the types the writer takes.
    io::BufferOutputStream probe;
    auto one = quiver::schema({quiver::field(column.name, column.data->type, column.nullable)});
    auto writer = FileWriter::Open(&probe, one);
    if (!writer.ok() ||
        !(*writer)->WriteRecordBatch(RecordBatch(one, kLateRows, {column.data})).ok()) {
      continue;
    }
    add(column.name, column.data, column.nullable);
  }
  auto table = Table::Make(quiver::schema(std::move(fields)), std::move(columns));
  EXPECT_TRUE(table.ok()) << table.status();
  return *table;
}

std::unique_ptr<FileReader> OpenEveryType(bool page_index, MemoryPool* pool = nullptr) {
  WriterOptions options;
  options.row_group_size = 1000;
  options.max_rows_per_page = 50;
  options.write_page_index = page_index;
  ReaderOptions read_options;
  read_options.pool = pool;
  auto reader = FileReader::Open(AsFile(WriteToBuffer(*EveryTypeTable(), options)), read_options);
  EXPECT_TRUE(reader.ok()) << reader.status();
  return std::move(*reader);
}

TEST(FilteredReadTest, LateMaterializationEqualsReadThenFilter) {
  std::vector<Expression> filters;
  for (int64_t per_mille : {1, 10, 100, 500, 900, 1000}) {
    filters.push_back(compute::less(F("r"), Int(per_mille)));                 // scattered
    filters.push_back(compute::less(F("k"), Int(kLateRows * per_mille / 1000)));  // one run
  }
  // Isolated matches, all but those rows, and a conjunct of both columns.
  filters.push_back(compute::equal(F("r"), Int(7)));
  filters.push_back(compute::not_equal(F("r"), Int(7)));
  filters.push_back(compute::and_kleene(compute::greater_equal(F("r"), Int(300)),
                                        compute::less(F("k"), Int(2200))));
  const std::vector<std::optional<std::vector<std::string>>> projections = {
      std::nullopt,
      std::vector<std::string>{"list", "struct", "map", "utf8", "dict", "int64"},  // payload
      std::vector<std::string>{"struct", "r", "large_list", "k"},  // filter columns projected
      std::vector<std::string>{"r"},
      std::vector<std::string>{},
  };
  for (bool page_index : {true, false}) {
    auto reader = OpenEveryType(page_index);
    for (const auto& filter : filters) {
      for (const auto& columns : projections) {
        SCOPED_TRACE(filter.ToString() + (page_index ? " index" : " no index") + " columns " +
                     (columns ? std::to_string(columns->size()) : std::string("all")));
        auto want = Oracle(*reader, filter, columns);
        auto got = reader->ReadTable(filter, columns);
        ASSERT_TRUE(got.ok()) << got.status();
        ASSERT_TRUE((*got)->ValidateFull().ok()) << (*got)->ValidateFull();
        EXPECT_EQ((*got)->num_rows(), want->num_rows());
        EXPECT_TRUE((*got)->Equals(*want, kNansEqual));
        auto batches = reader->GetRecordBatchReader(filter, columns, std::nullopt, 333);
        ASSERT_TRUE(batches.ok()) << batches.status();
        std::vector<RecordBatchPtr> read;
        int64_t rows = 0;
        while (true) {
          auto batch = (*batches)->Next();
          ASSERT_TRUE(batch.ok()) << batch.status();
          if (*batch == nullptr) break;
          ASSERT_TRUE((*batch)->ValidateFull().ok()) << (*batch)->ValidateFull();
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

TEST(FilteredReadTest, PayloadDecodedAtMatchesOnly) {
  // r == 500 holds once per 1000 rows (r = i * 7919 % 1000): isolated
  // matches, at row 500 of each row group.
  for (bool page_index : {true, false}) {
    auto reader = OpenEveryType(page_index);
    const auto filter = compute::equal(F("r"), Int(500));
    auto got = reader->ReadTable(filter, std::vector<std::string>{"int16", "binary"});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ((*got)->num_rows(), 3);
    const ReadStats stats = reader->read_stats();
    // r decoded at every row (no page bounds exclude any), the two non-null
    // payload columns at the 3 matches only (read then filter: 3 x 3000;
    // 500 rows before and 499 after each, more than kMergeEdgeRows: no head
    // or tail merged).
    static_assert(internal::kMergeEdgeRows <= 499);
    EXPECT_EQ(stats.values_decoded, kLateRows + 2 * 3);
    // The payload's pages holding no match are not read (offset index):
    // of the 20 pages (or more) of each chunk, all but one.
    if (page_index) EXPECT_GE(stats.pages_skipped, 2 * 3 * 19);
    // Batch by batch the same.
    auto batches = reader->GetRecordBatchReader(filter, std::vector<std::string>{"int16", "binary"},
                                                std::nullopt, 100);
    ASSERT_TRUE(batches.ok()) << batches.status();
    int64_t rows = 0;
    while (true) {
      auto batch = (*batches)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status();
      if (*batch == nullptr) break;
      rows += (*batch)->num_rows();
    }
    EXPECT_EQ(rows, 3);
    EXPECT_EQ(reader->read_stats().values_decoded, kLateRows + 2 * 3);
  }
  // Fragmented: r < 10 holds at 10 rows of each 1000 (about 100 apart),
  // so the covering run of a row group spans its matches and the rows
  // between; the payload's flat leaves decode the 30 matches only (masked
  // decoding: before it, every covered row), the nested ones every
  // covered row, filtered after.
  for (bool page_index : {true, false}) {
    auto reader = OpenEveryType(page_index);
    const auto filter = compute::less(F("r"), Int(10));
    // (The page statistics prune pages of r: the filter column decodes
    // the rows they keep.)
    auto filter_only = reader->ReadTable(filter, std::vector<std::string>{});
    ASSERT_TRUE(filter_only.ok()) << filter_only.status();
    EXPECT_EQ((*filter_only)->num_rows(), 30);
    const int64_t filter_values = reader->read_stats().values_decoded;
    for (int64_t batch_size : {int64_t{0}, int64_t{1000}, int64_t{333}}) {
      SCOPED_TRACE("batch size " + std::to_string(batch_size));
      int64_t rows = 0;
      if (batch_size == 0) {
        auto got = reader->ReadTable(filter, std::vector<std::string>{"int16", "binary"});
        ASSERT_TRUE(got.ok()) << got.status();
        rows = (*got)->num_rows();
      } else {
        auto batches = reader->GetRecordBatchReader(
            filter, std::vector<std::string>{"int16", "binary"}, std::nullopt, batch_size);
        ASSERT_TRUE(batches.ok()) << batches.status();
        while (true) {
          auto batch = (*batches)->Next();
          ASSERT_TRUE(batch.ok()) << batch.status();
          if (*batch == nullptr) break;
          rows += (*batch)->num_rows();
        }
      }
      EXPECT_EQ(rows, 30);
      EXPECT_EQ(reader->read_stats().values_decoded, filter_values + 2 * 30);
    }
    // Off (ReadLate's masked_decode): every covered row of the payload.
    const std::vector<int> groups = {0, 1, 2};
    const std::vector<RowRanges> all(3, RowRanges::All(1000));
    auto unmasked = internal::ReadLate(*reader, filter, std::vector<std::string>{"int16", "binary"},
                                       groups, all, internal::kMergeGapRows,
                                       /*masked_decode=*/false);
    ASSERT_TRUE(unmasked.ok()) << unmasked.status();
    EXPECT_EQ((*unmasked)->num_rows(), 30);
    EXPECT_GT(reader->read_stats().values_decoded, filter_values + 2 * 30 * 10);
  }
  // Dense: all rows but those 3 leave gaps shorter than kMergeGapRows, so
  // the payload reads every row and filters it (read then filter).
  auto reader = OpenEveryType(true);
  auto got = reader->ReadTable(compute::not_equal(F("r"), Int(7)),
                               std::vector<std::string>{"int16"});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->num_rows(), kLateRows - 3);
  EXPECT_EQ(reader->read_stats().values_decoded, 2 * kLateRows);
}

// A batch reader holds about one batch and the current pages, not a row
// group: the peak of the reader's pool (ReaderOptions::pool) against the
// bytes of the row group's columns.
TEST(FilteredReadTest, BatchesInBoundedMemory) {
  constexpr int64_t n = 60000;
  std::vector<int64_t> k(n), v(n);
  std::vector<int32_t> r(n);
  for (int64_t i = 0; i < n; ++i) {
    k[i] = i;
    v[i] = i * 7919;
    r[i] = static_cast<int32_t>(i * 7919 % 1000);
  }
  auto schema = quiver::schema({quiver::field("k", int64()), quiver::field("r", int32()),
                                quiver::field("v", int64())});
  std::vector<ChunkedArrayPtr> columns;
  for (ArrayDataPtr data : {testutil::ArrayFromVector(int64(), k),
                            testutil::ArrayFromVector(int32(), r),
                            testutil::ArrayFromVector(int64(), v)}) {
    columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(data)},
                                                     data->type));
  }
  WriterOptions options;
  options.row_group_size = n;
  options.max_rows_per_page = 1000;
  // (PLAIN: a dictionary of 60000 distinct values would be a row group's
  // worth of values in one page.)
  options.use_dictionary.default_value = false;
  auto bytes = WriteToBuffer(Table(schema, std::move(columns), n), options);
  CappedMemoryPool pool(DefaultMemoryPool(), int64_t{1} << 40);
  ReaderOptions read_options;
  read_options.pool = &pool;
  auto reader = FileReader::Open(AsFile(bytes), read_options);
  ASSERT_TRUE(reader.ok()) << reader.status();
  const int64_t before = pool.bytes_allocated();
  auto batches = (*reader)->GetRecordBatchReader(compute::less(F("r"), Int(500)),
                                                 std::vector<std::string>{"v", "k"},
                                                 std::nullopt, 1000);
  ASSERT_TRUE(batches.ok()) << batches.status();
  int64_t rows = 0;
  while (true) {
    auto batch = (*batches)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status();
    if (*batch == nullptr) break;
    rows += (*batch)->num_rows();
  }
  EXPECT_EQ(rows, n / 2);
  const int64_t peak = pool.max_memory() - before;
  EXPECT_GT(peak, 0);  // the batches are of the reader's pool
  // The row group's three columns: 60000 x 20 bytes = 1.2 MB; a batch of
  // 1000 rows plus a page (1000 values) per column and the mask is some
  // tens of kB.
  EXPECT_LT(peak, n * 20 / 8) << peak;
}

TEST(FilteredReadTest, CoverMatchesMergesShortGaps) {
  auto selection = RowRanges::Make({{10, 20}, {100, 110}}).ValueOrDie();
  // Positions 0-9 are rows 10-19, 10-19 rows 100-109; the bits start at 3.
  std::vector<uint8_t> keep(4, 0);
  for (int i : {1, 2, 5, 12}) bit_util::SetBit(keep.data(), 3 + i);
  auto bits = [](const std::vector<uint8_t>& bitmap, int64_t n) {
    std::string out;
    for (int64_t i = 0; i < n; ++i) out += bit_util::GetBit(bitmap.data(), i) ? '1' : '0';
    return out;
  };
  std::vector<uint8_t> cover_keep;
  int64_t cover_length = 0;
  bool exact = false;
  auto exact_runs =
      internal::CoverMatches(selection, keep.data(), 3, 1, &cover_keep, &cover_length, &exact);
  EXPECT_EQ(exact_runs.ToString(), "[11, 13), [15, 16), [102, 103)");
  EXPECT_TRUE(exact);
  EXPECT_EQ(bits(cover_keep, cover_length), "1111");
  cover_keep.clear();
  cover_length = 0;
  auto merged =
      internal::CoverMatches(selection, keep.data(), 3, 4, &cover_keep, &cover_length, &exact);
  // 1-2 and 5 merge (gap 2), the head (1 row) too; 5 and 12 do not (gap
  // 6), nor does the tail (7 rows).
  EXPECT_EQ(merged.ToString(), "[10, 16), [102, 103)");
  EXPECT_FALSE(exact);
  EXPECT_EQ(bits(cover_keep, cover_length), "0110011");
  cover_keep.clear();
  cover_length = 0;
  // Merged across the selection's two ranges: the rows between them (20 to
  // 99) are not the selection's and stay out.
  auto across =
      internal::CoverMatches(selection, keep.data(), 3, 100, &cover_keep, &cover_length, &exact);
  EXPECT_EQ(across.ToString(), "[10, 20), [100, 110)");
  EXPECT_EQ(cover_length, 20);
  // The word-at-a-time gap search (merge_gap >= 127) finds the same gaps
  // as the bit-at-a-time one.
  std::mt19937_64 rng(45);
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t n = 256 + static_cast<int64_t>(rng() % 3000);
    const int density = static_cast<int>(rng() % 1000);
    std::vector<uint8_t> mask(static_cast<size_t>(bit_util::BytesForBits(n + 5)), 0);
    for (int64_t i = 0; i < n; ++i) {
      if (static_cast<int>(rng() % 1000) < density) bit_util::SetBit(mask.data(), 5 + i);
    }
    auto all = RowRanges::All(n);
    const int64_t gap = 127 + static_cast<int64_t>(rng() % 300);
    std::vector<uint8_t> fast_bits;
    int64_t fast_length = 0;
    bool fast_exact = false;
    auto fast = internal::CoverMatches(all, mask.data(), 5, gap, &fast_bits, &fast_length,
                                       &fast_exact);
    // The same by the definition: runs of set bits, gaps < gap filled.
    std::vector<RowRange> want;
    int64_t last_end = 0;
    bool any = false;
    for (int64_t i = 0; i < n;) {
      if (!bit_util::GetBit(mask.data(), 5 + i)) { ++i; continue; }
      int64_t j = i;
      while (j < n && bit_util::GetBit(mask.data(), 5 + j)) ++j;
      if (!any) {
        want.push_back({i < std::min(gap, internal::kMergeEdgeRows) ? 0 : i, j});
      } else if (i - last_end < gap) {
        want.back().end = j;
      } else {
        want.push_back({i, j});
      }
      any = true;
      last_end = j;
      i = j;
    }
    if (any && n - last_end < std::min(gap, internal::kMergeEdgeRows)) want.back().end = n;
    EXPECT_EQ(fast, RowRanges::Make(want).ValueOrDie()) << n << " " << density << " " << gap;
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
