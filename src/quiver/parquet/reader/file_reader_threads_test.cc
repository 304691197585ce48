// use_threads: ReadTable / ReadRowGroups / filtered reads with their
// (row group, column) units on the CPU pool give the table, read_stats and
// errors of one thread. SetParallelReadMinBytes(0) sends these small files
// down the parallel path. Python's test_read_threads.py judges the same
// against pyarrow. Also run under ThreadSanitizer: `make test-tsan`.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/compute/expression.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"
#include "quiver/parquet/reader/parallel_read_internal.h"
#include "quiver/parquet/reader/test_files_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/util/thread_pool.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using testing::AsFile;
using testing::WriteToBuffer;

const EqualOptions kNansEqual{.nans_equal = true};

// Every type of type.h the writer takes (and nested ones), `rows` rows.
TablePtr AllTypes(int64_t rows) {
  FieldVector fields;
  std::vector<ChunkedArrayPtr> columns;
  for (auto& c : testutil::AllTypeColumns(rows)) {
    auto f = field(c.name, c.data->type, c.nullable);
    io::BufferOutputStream probe;
    auto one = quiver::schema({f});
    auto w = FileWriter::Open(&probe, one);
    if (!w.ok() || !(*w)->WriteRecordBatch(RecordBatch(one, rows, {c.data})).ok()) continue;
    fields.push_back(f);
    columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(c.data)},
                                                     c.data->type));
  }
  return std::make_shared<Table>(quiver::schema(fields), std::move(columns), rows);
}

std::shared_ptr<Buffer> Write(const Table& table, int64_t row_group_size,
                              compression::CompressionCodec codec =
                                  compression::CompressionCodec::ZSTD) {
  WriterOptions options;
  options.row_group_size = row_group_size;
  options.compression.default_value = codec;
  return WriteToBuffer(table, options);
}

std::unique_ptr<FileReader> Open(std::shared_ptr<Buffer> bytes, bool threads,
                                 ReaderOptions options = {}) {
  options.use_threads = threads;
  auto reader = FileReader::Open(AsFile(std::move(bytes)), options);
  EXPECT_TRUE(reader.ok()) << reader.status();
  if (!reader.ok()) return nullptr;
  SetParallelReadMinBytes(**reader, 0);
  return std::move(reader).MoveValueUnsafe();
}

// (Below: files with a corrupt page.)
std::shared_ptr<Buffer> PlainInts();
std::shared_ptr<Buffer> CorruptHeader(const std::shared_ptr<Buffer>& bytes,
                                      const std::vector<std::pair<int, int>>& chunks);

// A read by one thread and by the pool: equal tables (valid ones), equal
// stats, or the same error.
template <typename ReadFn>
void ExpectSameBothWays(const std::shared_ptr<Buffer>& bytes, ReadFn read,
                        ReaderOptions options = {}) {
  auto one = Open(bytes, false, options);
  auto many = Open(bytes, true, options);
  ASSERT_NE(one, nullptr);
  ASSERT_NE(many, nullptr);
  Result<TablePtr> a = read(*one);
  for (int repeat = 0; repeat < 3; ++repeat) {
    Result<TablePtr> b = read(*many);
    ASSERT_EQ(a.ok(), b.ok()) << a.status() << " / " << b.status();
    // (After a failed read the stats count the work done, which with
    // threads may include units started past the failing one.)
    if (!a.ok()) {
      EXPECT_EQ(a.status().ToString(), b.status().ToString());
      continue;
    }
    EXPECT_EQ(one->read_stats(), many->read_stats());
    ASSERT_TRUE((*b)->ValidateFull().ok()) << (*b)->ValidateFull();
    EXPECT_TRUE((*a)->Equals(**b, kNansEqual));
    EXPECT_EQ((*a)->num_rows(), (*b)->num_rows());
  }
}

TEST(ReadThreads, AllTypesManyRowGroups) {
  TablePtr table = AllTypes(3000);
  auto bytes = Write(*table, 250);  // 12 row groups
  auto reader = Open(bytes, true);
  auto read = reader->ReadTable();
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_TRUE((*read)->ValidateFull().ok());
  // (The values against the source: test_read_threads.py, judged by pyarrow;
  // some types read back as their Parquet equivalents, e.g. date64.)
  EXPECT_EQ((*read)->num_rows(), table->num_rows());
  EXPECT_EQ((*read)->num_columns(), table->num_columns());
  EXPECT_GT(reader->read_stats().pages_decompressed, 0);
  ExpectSameBothWays(bytes, [](FileReader& r) { return r.ReadTable(); });
}

TEST(ReadThreads, SelectionsAndRowGroups) {
  TablePtr table = AllTypes(2000);
  auto bytes = Write(*table, 300, compression::CompressionCodec::SNAPPY);
  std::vector<std::string> names;
  for (const auto& f : table->schema()->fields()) names.push_back(f->name());
  ASSERT_GE(names.size(), 6u);
  const std::vector<std::string> some = {names[5], names[1], names[names.size() - 1]};
  ExpectSameBothWays(bytes, [&](FileReader& r) { return r.ReadTable(some); });
  ExpectSameBothWays(bytes, [&](FileReader& r) {
    return r.ReadTable(some, std::vector<int>{5, 0, 3});
  });
  ExpectSameBothWays(bytes, [&](FileReader& r) {
    return r.ReadTable(std::vector<std::string>{}, std::vector<int>{1, 2});
  });
  ExpectSameBothWays(bytes, [&](FileReader& r) { return r.ReadRowGroup(4); });
  // Rows of some row groups: a range, nothing, every row.
  auto ranges = RowRanges::Make({{10, 50}, {120, 121}, {250, 300}});
  ASSERT_TRUE(ranges.ok());
  ExpectSameBothWays(bytes, [&](FileReader& r) {
    return r.ReadRowGroups({1, 2, 6}, {*ranges, RowRanges(), RowRanges::All(200)});
  });
}

// Filtered reads with threads: the filter columns read first, then the
// payload (every other column, nested ones too) at the matches' covering
// runs, both as (row group, column) units on the pool. Each read is
// compared with one thread's, and with reading everything and filtering.
void ExpectFilteredBothWays(const std::shared_ptr<Buffer>& bytes,
                            const compute::Expression& filter,
                            const std::optional<std::vector<std::string>>& columns,
                            int64_t want_rows) {
  ExpectSameBothWays(bytes, [&](FileReader& r) { return r.ReadTable(filter, columns); });
  auto many = Open(bytes, true);
  ASSERT_NE(many, nullptr);
  auto got = many->ReadTable(filter, columns);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->num_rows(), want_rows);
  // The oracle: every column read (no pushdown), filtered, then projected.
  auto all = many->ReadTable();
  ASSERT_TRUE(all.ok()) << all.status();
  auto want = compute::FilterByExpression(**all, filter);
  ASSERT_TRUE(want.ok()) << want.status();
  if (!columns.has_value()) {
    EXPECT_TRUE((*got)->Equals(**want, kNansEqual));
  } else {
    ASSERT_EQ((*got)->num_columns(), static_cast<int>(columns->size()));
    for (size_t c = 0; c < columns->size(); ++c) {
      const int at = (*want)->schema()->GetFieldIndex((*columns)[c]);
      ASSERT_GE(at, 0) << (*columns)[c];
      EXPECT_TRUE((*got)->column(static_cast<int>(c))->Equals(*(*want)->column(at), kNansEqual))
          << (*columns)[c];
    }
  }
  // Batch by batch: the same rows.
  ExpectSameBothWays(bytes, [&](FileReader& r) -> Result<TablePtr> {
    QUIVER_ASSIGN_OR_RAISE(auto batches, r.GetRecordBatchReader(filter, columns, std::nullopt, 150));
    std::vector<RecordBatchPtr> out;
    while (true) {
      QUIVER_ASSIGN_OR_RAISE(auto batch, batches->Next());
      if (batch == nullptr) break;
      QUIVER_RETURN_NOT_OK(batch->ValidateFull());
      out.push_back(std::move(batch));
    }
    QUIVER_ASSIGN_OR_RAISE(auto table, Table::FromRecordBatches(batches->schema(), out));
    if (table->num_rows() != want_rows) return Status::Invalid("batches: ", table->num_rows());
    return table;
  });
}

TEST(ReadThreads, Filtered) {
  // 6 row groups of 1000 rows, about 45 columns (the type matrix).
  TablePtr table = AllTypes(6000);
  auto bytes = Write(*table, 1000);
  const std::string first = table->schema()->field(1)->name();
  // int64 = -2^40 + i * 2^20: no row is over 2^30, every row group is
  // pruned by its statistics.
  auto none = compute::greater(compute::field("int64"),
                               compute::literal(Scalar::MakeInt64(int64_t{1} << 30)));
  ExpectSameBothWays(bytes, [&](FileReader& r) { return r.ReadTable(none); });
  ExpectSameBothWays(bytes, [&](FileReader& r) {
    return r.ReadTable(none, std::vector<std::string>{first}, std::vector<int>{0, 2, 5});
  });
  {
    auto reader = Open(bytes, true);
    auto read = reader->ReadTable(none);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ((*read)->num_rows(), 0);
    EXPECT_EQ(reader->read_stats().row_groups_pruned_statistics, 6);
  }
  // int32 = -100000 + 12345 * i, null where i % 3 == 1: rows [1300, 1500)
  // and [3700, 3760), so row groups 1 and 3 are read (the others pruned by
  // statistics) and the payload only near the matches (late
  // materialization: a selection inside each row group).
  auto int32_at = [](int64_t i) {
    return compute::literal(Scalar::MakeInt64(-100000 + 12345 * i));
  };
  auto in = [&](int64_t lo, int64_t hi) {
    return compute::and_kleene(compute::greater_equal(compute::field("int32"), int32_at(lo)),
                               compute::less(compute::field("int32"), int32_at(hi)));
  };
  auto ranges = compute::or_kleene(in(1300, 1500), in(3700, 3760));
  int64_t in_ranges = 0;
  for (int64_t i = 0; i < 6000; ++i) {
    if (((i >= 1300 && i < 1500) || (i >= 3700 && i < 3760)) && i % 3 != 1) ++in_ranges;
  }
  ExpectFilteredBothWays(bytes, ranges, std::nullopt, in_ranges);
  {
    auto reader = Open(bytes, true);
    auto read = reader->ReadTable(ranges);
    ASSERT_TRUE(read.ok()) << read.status();
    const ReadStats stats = reader->read_stats();
    EXPECT_EQ(stats.row_groups_pruned_statistics, 4);
    // The payload decodes fewer values than the two row groups hold.
    auto whole = reader->ReadTable(std::nullopt, std::vector<int>{1, 3});
    ASSERT_TRUE(whole.ok());
    EXPECT_LT(stats.values_decoded, reader->read_stats().values_decoded / 2);
  }
  // A projection of nested and string columns without the filter field.
  ExpectFilteredBothWays(bytes, ranges,
                         std::vector<std::string>{"map", "utf8", "struct", "list_dict", "dec128"},
                         in_ranges);
  // Dense matches in every row group: int8 is null where i % 3 == 1, so
  // the payload covers every row and is filtered after the read.
  auto nulls = compute::is_null(compute::field("int8"));
  ExpectFilteredBothWays(bytes, nulls, std::nullopt, 2000);
  // Two filter fields, one of them nested in the projection's order.
  auto two = compute::and_kleene(compute::is_valid(compute::field("utf8")), ranges);
  ExpectFilteredBothWays(bytes, two, std::vector<std::string>{"list", "int32", "utf8"},
                         in_ranges);
}

TEST(ReadThreads, MemoryLimitAndInvalidUtf8Options) {
  TablePtr table = AllTypes(1500);
  auto bytes = Write(*table, 200);
  ReaderOptions options;
  options.invalid_utf8 = ReaderOptions::InvalidUtf8::kBinary;
  ExpectSameBothWays(bytes, [](FileReader& r) { return r.ReadTable(); }, options);
  // Capped reads stay on the calling thread: a cap the read cannot fit
  // under fails the same way whatever the timing.
  options.memory_limit = int64_t{1} << 30;
  ExpectSameBothWays(bytes, [](FileReader& r) { return r.ReadTable(); }, options);
  options.memory_limit = 4096;
  ExpectSameBothWays(bytes, [](FileReader& r) { return r.ReadTable(); }, options);
}

TEST(ReadThreads, BatchesEqualOneThread) {
  TablePtr table = AllTypes(2000);
  auto bytes = Write(*table, 700);
  auto read_batches = [](FileReader& r, int64_t batch_size,
                         const std::optional<std::vector<int>>& groups) -> Result<TablePtr> {
    QUIVER_ASSIGN_OR_RAISE(auto batches, r.GetRecordBatchReader(std::nullopt, groups, batch_size));
    std::vector<RecordBatchPtr> all;
    while (true) {
      QUIVER_ASSIGN_OR_RAISE(auto batch, batches->Next());
      if (batch == nullptr) break;
      QUIVER_RETURN_NOT_OK(batch->ValidateFull());
      all.push_back(std::move(batch));
    }
    return Table::FromRecordBatches(batches->schema(), all);
  };
  for (int64_t size : {64, 300, 5000}) {
    ExpectSameBothWays(bytes, [&](FileReader& r) { return read_batches(r, size, std::nullopt); });
    ExpectSameBothWays(bytes, [&](FileReader& r) {
      return read_batches(r, size, std::vector<int>{2, 0});
    });
  }
  // Selected rows, batch by batch.
  auto ranges = RowRanges::Make({{3, 90}, {400, 650}});
  ASSERT_TRUE(ranges.ok());
  ExpectSameBothWays(bytes, [&](FileReader& r) -> Result<TablePtr> {
    QUIVER_ASSIGN_OR_RAISE(auto batches, r.GetRecordBatchReader(std::nullopt, {1, 2},
                                                                {*ranges, *ranges}, 128));
    std::vector<RecordBatchPtr> all;
    while (true) {
      QUIVER_ASSIGN_OR_RAISE(auto batch, batches->Next());
      if (batch == nullptr) break;
      all.push_back(std::move(batch));
    }
    return Table::FromRecordBatches(batches->schema(), all);
  });
  // A corrupt chunk: the same error batch by batch.
  auto bad = CorruptHeader(PlainInts(), {{3, 5}, {3, 7}, {8, 0}});
  ExpectSameBothWays(bad, [&](FileReader& r) { return read_batches(r, 100, std::nullopt); });
}

// Eight int64 columns, 10 row groups of 500 rows, uncompressed and PLAIN:
// bytes at a known offset of each chunk are values or a page header.
std::shared_ptr<Buffer> PlainInts() {
  FieldVector fields;
  std::vector<ChunkedArrayPtr> columns;
  for (int c = 0; c < 8; ++c) {
    fields.push_back(field("c" + std::to_string(c), int64(), false));
    auto data = testutil::ArrayFromVector(int64(), testutil::Sequence<int64_t>(5000, c, 3));
    columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(data)},
                                                     int64()));
  }
  auto table = std::make_shared<Table>(quiver::schema(fields), std::move(columns), 5000);
  WriterOptions options;
  options.row_group_size = 500;
  options.compression.default_value = compression::CompressionCodec::UNCOMPRESSED;
  options.use_dictionary.default_value = false;
  return WriteToBuffer(*table, options);
}

// The first page header of chunk (group, column) overwritten with 0xFF.
std::shared_ptr<Buffer> CorruptHeader(const std::shared_ptr<Buffer>& bytes,
                                      const std::vector<std::pair<int, int>>& chunks) {
  auto reader = FileReader::Open(AsFile(bytes));
  EXPECT_TRUE(reader.ok());
  std::string data(reinterpret_cast<const char*>(bytes->data()),
                   static_cast<size_t>(bytes->size()));
  for (auto [group, column] : chunks) {
    const auto& meta =
        *ThriftOf(*(*reader)->metadata()).row_groups[static_cast<size_t>(group)]
             .columns[static_cast<size_t>(column)]
             .meta_data;
    std::memset(data.data() + meta.data_page_offset, 0xFF, 6);
  }
  return Buffer::FromString(data);
}

TEST(ReadThreads, FirstErrorInFileOrder) {
  auto good = PlainInts();
  // Row group 3 column 5, and later units: row group 3 column 7, row
  // group 8 column 0. The first in file order is reported, both ways.
  auto bad = CorruptHeader(good, {{3, 5}, {3, 7}, {8, 0}});
  auto one = Open(bad, false);
  auto serial = one->ReadTable();
  ASSERT_FALSE(serial.ok());
  const std::string message = serial.status().ToString();
  EXPECT_NE(message.find("row group 3"), std::string::npos) << message;
  EXPECT_NE(message.find("c5"), std::string::npos) << message;
  for (int repeat = 0; repeat < 20; ++repeat) {
    auto many = Open(bad, true);
    auto parallel = many->ReadTable();
    ASSERT_FALSE(parallel.ok());
    EXPECT_EQ(parallel.status().ToString(), message);
  }
  // A selection that leaves row group 3 out reads the others, or fails at
  // row group 8.
  ExpectSameBothWays(bad, [](FileReader& r) {
    return r.ReadTable(std::nullopt, std::vector<int>{0, 1, 2, 4});
  });
  ExpectSameBothWays(bad, [](FileReader& r) { return r.ReadTable(); });
  ExpectSameBothWays(bad, [](FileReader& r) {
    return r.ReadTable(std::vector<std::string>{"c0", "c6"});
  });
}

TEST(ReadThreads, ReaderReusedAcrossCallsAndOptionSwitch) {
  auto bytes = PlainInts();
  auto reader = Open(bytes, true);
  auto a = reader->ReadTable();
  ASSERT_TRUE(a.ok());
  const ReadStats threaded = reader->read_stats();
  reader->set_use_threads(false);
  auto b = reader->ReadTable();
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(reader->read_stats(), threaded);
  EXPECT_TRUE((*a)->Equals(**b));
  // 8 columns x 10 row groups, one data page each at most 20,000 rows.
  EXPECT_EQ(threaded.pages_decompressed, 80);
  EXPECT_EQ(threaded.values_decoded, 8 * 5000);
}

TEST(ReadThreads, DecodesAtLeast) {
  format::FileMetaData metadata;
  for (int g = 0; g < 3; ++g) {
    format::RowGroup group;
    group.num_rows = 100;
    for (int c = 0; c < 2; ++c) {
      format::ColumnChunk chunk;
      chunk.meta_data.emplace();
      chunk.meta_data->total_uncompressed_size = c == 0 ? 1000 : -5;
      group.columns.push_back(chunk);
    }
    metadata.row_groups.push_back(group);
  }
  using internal::DecodesAtLeast;
  EXPECT_TRUE(DecodesAtLeast(metadata, {0, 1, 2}, {0, 1}, nullptr, 3000));
  EXPECT_FALSE(DecodesAtLeast(metadata, {0, 1, 2}, {0, 1}, nullptr, 3001));
  EXPECT_FALSE(DecodesAtLeast(metadata, {0, 1, 2}, {1}, nullptr, 1));  // negative: 0
  EXPECT_TRUE(DecodesAtLeast(metadata, {0}, {1}, nullptr, 0));
  // Out of range groups and leaves count nothing.
  EXPECT_FALSE(DecodesAtLeast(metadata, {7, -1}, {0, 9}, nullptr, 1));
  // A selection of a quarter of the rows: a quarter of the bytes.
  auto quarter = RowRanges::Make({{0, 25}});
  ASSERT_TRUE(quarter.ok());
  std::vector<RowRanges> selections(3, *quarter);
  EXPECT_TRUE(DecodesAtLeast(metadata, {0, 1, 2}, {0}, &selections, 750));
  EXPECT_FALSE(DecodesAtLeast(metadata, {0, 1, 2}, {0}, &selections, 751));
  // Huge sizes do not overflow.
  metadata.row_groups[0].columns[0].meta_data->total_uncompressed_size = INT64_MAX;
  metadata.row_groups[1].columns[0].meta_data->total_uncompressed_size = INT64_MAX;
  EXPECT_TRUE(DecodesAtLeast(metadata, {0, 1}, {0}, nullptr, INT64_MAX));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
