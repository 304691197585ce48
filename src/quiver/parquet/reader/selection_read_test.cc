// Reads of row selections (FileReader::ReadRowGroups, GetRecordBatchReader
// with selections) against reading everything and taking those rows, and
// the read's counters (ReadStats) against what the offset index says must
// be read, with the bytes asked of the file recorded independently of the
// reader's own count.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <filesystem>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/array/test_util_internal.h"
#include "quiver/io/file.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/test_files_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using testing::AsFile;
using testing::WriteToBuffer;

// Every ReadAt asked of the file, recorded (independently of the reader's
// own CountingFile).
class RecordingFile final : public io::RandomAccessFile {
 public:
  explicit RecordingFile(std::shared_ptr<io::RandomAccessFile> file) : file_(std::move(file)) {}
  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      reads_.push_back({offset, offset + length});
    }
    return file_->ReadAt(offset, length);
  }
  int64_t Size() const override { return file_->Size(); }
  const std::string& name() const override { return file_->name(); }

  std::vector<RowRange> TakeReads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(reads_, {});
  }

 private:
  std::shared_ptr<io::RandomAccessFile> file_;
  mutable std::mutex mutex_;
  mutable std::vector<RowRange> reads_;  // [offset, offset + length)
};

struct TestFile {
  std::string name;
  std::shared_ptr<io::RandomAccessFile> file;
  // Every chunk has a usable offset index: the counters are exact.
  bool page_index = false;
};

// `relative` to testdata/, or "reader/<name>" for this folder's testdata/.
std::shared_ptr<io::RandomAccessFile> ReadTestData(const std::string& relative) {
  const auto path =
      relative.starts_with("reader/")
          ? std::filesystem::path(QUIVER_READER_TESTDATA_DIR) / relative.substr(7)
          : std::filesystem::path(QUIVER_TESTDATA_DIR) / relative;
  auto bytes = io::ReadFileToBuffer(path.string());
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return AsFile(*bytes, relative);
}

TablePtr AllTypesTable(int64_t n) {
  FieldVector fields;
  std::vector<ChunkedArrayPtr> columns;
  for (auto& column : testutil::AllTypeColumns(n)) {
    // Only the types the writer takes (fixed_size_binary(0) and the month
    // and day-time intervals have no Parquet equivalent).
    {
      io::BufferOutputStream probe;
      auto one = schema({field(column.name, column.data->type, column.nullable)});
      auto writer = FileWriter::Open(&probe, one);
      if (!writer.ok() || !(*writer)->WriteRecordBatch(RecordBatch(one, n, {column.data})).ok()) {
        continue;
      }
    }
    fields.push_back(field(column.name, column.data->type, column.nullable));
    columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(column.data)},
                                                     column.data->type));
  }
  auto table = Table::Make(schema(std::move(fields)), std::move(columns));
  EXPECT_TRUE(table.ok()) << table.status();
  return *table;
}

// Quiver's files: every type, small pages (many per chunk), 3 row groups,
// dictionaries falling back to PLAIN mid-chunk, under option sets.
std::vector<TestFile> QuiverFiles() {
  const TablePtr table = AllTypesTable(2500);
  std::vector<TestFile> files;
  auto add = [&](std::string name, WriterOptions options) {
    options.row_group_size = 1000;
    options.max_rows_per_page = 37;
    options.write_batch_size = 16;
    options.dictionary_pagesize_limit = 200;
    const bool index = options.write_page_index;
    files.push_back({name, AsFile(WriteToBuffer(*table, options), name), index});
  };
  WriterOptions v1;
  v1.compression.default_value = compression::CompressionCodec::UNCOMPRESSED;
  add("quiver_v1_plain", v1);
  WriterOptions v2;
  v2.data_page_version = DataPageVersion::kV2;
  v2.compression.default_value = compression::CompressionCodec::ZSTD;
  add("quiver_v2_zstd", v2);
  WriterOptions snappy;  // (records span pages: v1 without page index)
  snappy.write_page_index = false;
  add("quiver_v1_snappy_no_index", snappy);
  WriterOptions v2_no_index;
  v2_no_index.data_page_version = DataPageVersion::kV2;
  v2_no_index.write_page_index = false;
  add("quiver_v2_no_index", v2_no_index);
  return files;
}

std::vector<TestFile> PyarrowFiles() {
  return {
      {"pyarrow_index", ReadTestData("reader/selection_pyarrow_index.parquet"), true},
      {"pyarrow_noindex", ReadTestData("reader/selection_pyarrow_noindex.parquet"), false},
      {"pyarrow_v2", ReadTestData("reader/selection_pyarrow_v2.parquet"), true},
      {"pyarrow_v2_golden", ReadTestData("quiver/pyarrow_v2.parquet"), true},
      {"alltypes_tiny_pages", ReadTestData("parquet-testing/alltypes_tiny_pages.parquet"), true},
  };
}

// A random selection of a row group of `n` rows: empty, all, one row, a
// first / last row, runs of random lengths at a random density.
RowRanges RandomSelection(std::mt19937_64& rng, int64_t n) {
  const int kind = static_cast<int>(rng() % 10);
  if (n == 0 || kind == 0) return RowRanges();
  if (kind == 1) return RowRanges::All(n);
  if (kind == 2) {
    const int64_t row = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
    return *RowRanges::Make({{row, row + 1}});
  }
  if (kind == 3) return *RowRanges::Make({{0, 1}, {n - 1, n}});
  std::vector<RowRange> ranges;
  const int64_t max_run = 1 + static_cast<int64_t>(rng() % 300);
  const int density = static_cast<int>(rng() % 100);
  int64_t i = 0;
  while (i < n) {
    const int64_t run = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_run));
    const int64_t end = std::min(n, i + run);
    if (static_cast<int>(rng() % 100) < density) ranges.push_back({i, end});
    i = end;
  }
  return *RowRanges::Make(std::move(ranges));
}

// The rows `selection` names of each column of `full` (one row group).
TablePtr TakeRanges(const Table& full, const RowRanges& selection) {
  std::vector<ChunkedArrayPtr> columns;
  for (const ChunkedArrayPtr& column : full.columns()) {
    EXPECT_EQ(column->num_chunks(), 1);
    const ArrayDataPtr& data = column->chunk(0)->data();
    std::vector<ArrayPtr> pieces;
    for (const RowRange& r : selection.ranges()) {
      pieces.push_back(MakeArray(data->Slice(r.begin, r.length())));
    }
    columns.push_back(std::make_shared<ChunkedArray>(std::move(pieces), column->type()));
  }
  return std::make_shared<Table>(full.schema(), std::move(columns), selection.row_count());
}

// Equal values whatever the chunks; NaN equal to NaN.
void ExpectSameRows(const Table& got, const Table& want, const std::string& what) {
  ASSERT_TRUE(got.schema()->Equals(*want.schema())) << what;
  ASSERT_EQ(got.num_rows(), want.num_rows()) << what;
  EqualOptions options;
  options.nans_equal = true;
  for (int c = 0; c < got.num_columns(); ++c) {
    EXPECT_TRUE(got.column(c)->Equals(*want.column(c), options))
        << what << ": column " << got.schema()->field(c)->name();
  }
}

std::string Trace(const std::string& file, uint64_t seed, const std::vector<int>& groups,
                  const std::vector<RowRanges>& selections) {
  std::string out = file + " seed " + std::to_string(seed) + ":";
  for (size_t i = 0; i < groups.size(); ++i) {
    out += " group " + std::to_string(groups[i]) + " {" + selections[i].ToString() + "}";
  }
  return out;
}

// What a selective read of the chunks must do, from the offset index.
struct Expected {
  ReadStats stats;
  int64_t bytes = 0;           // exact, when `exact_bytes`
  bool exact_bytes = true;     // every read row group was read selectively
  std::vector<RowRange> skipped_pages;  // [offset, end) never to be requested
};

// Whether the data page at `location` holds dictionary-encoded values
// (its header, read from `file`).
bool DictionaryEncoded(const io::RandomAccessFile& file, const PageLocation& location) {
  auto bytes = file.ReadAt(location.offset, location.compressed_page_size);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  if (!bytes.ok()) return false;
  auto page = DecodePageHeader((*bytes)->data(), (*bytes)->size(), 0, location.offset);
  EXPECT_TRUE(page.ok()) << page.status();
  if (!page.ok()) return false;
  const format::PageHeader& h = page->header;
  format::Encoding encoding = format::Encoding::kPlain;
  if (h.data_page_header.has_value()) encoding = h.data_page_header->encoding;
  if (h.data_page_header_v2.has_value()) encoding = h.data_page_header_v2->encoding;
  return encoding == format::Encoding::kRleDictionary ||
         encoding == format::Encoding::kPlainDictionary;
}

// Whether the chunk's encoding_stats list a data page that is not
// dictionary-encoded (the reader then does not prefetch the dictionary).
bool ListsPlainDataPages(const format::ColumnMetaData& meta) {
  if (!meta.encoding_stats.has_value()) return false;
  for (const auto& e : *meta.encoding_stats) {
    if (e.page_type != format::PageType::kDictionaryPage && e.count > 0 &&
        e.encoding != format::Encoding::kRleDictionary &&
        e.encoding != format::Encoding::kPlainDictionary) {
      return true;
    }
  }
  return false;
}

// The dictionary page is read (and decompressed) only when a data page
// read needs it; its bytes are fetched with the pages unless the chunk
// says it falls back to PLAIN.
Expected ExpectedFor(const FileReader& reader, const io::RandomAccessFile& file,
                     const std::vector<int>& groups, const std::vector<RowRanges>& selections,
                     const std::vector<int>& leaves) {
  Expected e;
  const auto& thrift = ThriftOf(*reader.metadata());
  for (size_t g = 0; g < groups.size(); ++g) {
    const RowRanges& selection = selections[g];
    const int64_t rows = thrift.row_groups[static_cast<size_t>(groups[g])].num_rows;
    if (selection.empty()) continue;
    const bool whole = selection == RowRanges::All(rows);
    if (whole) e.exact_bytes = false;
    for (int leaf : leaves) {
      const format::ColumnChunk& chunk =
          thrift.row_groups[static_cast<size_t>(groups[g])].columns[static_cast<size_t>(leaf)];
      auto index = reader.ReadOffsetIndex(groups[g], leaf);
      EXPECT_TRUE(index.ok() && index->has_value()) << "no offset index";
      if (!index.ok() || !index->has_value()) return e;
      const auto& pages = (*index)->page_locations;
      const int64_t start = ColumnChunkStart(*chunk.meta_data);
      const bool dictionary = pages.front().offset > start;
      int64_t touched = 0;
      bool needs_dictionary = false;
      for (size_t p = 0; p < pages.size(); ++p) {
        const int64_t first = pages[p].first_row_index;
        const int64_t last = p + 1 < pages.size() ? pages[p + 1].first_row_index : rows;
        const bool touches = whole || !selection.Intersect(*RowRanges::Make({{first, last}})).empty();
        if (touches) {
          ++touched;
          needs_dictionary = needs_dictionary || DictionaryEncoded(file, pages[p]);
          e.bytes += pages[p].compressed_page_size;
        } else {
          e.skipped_pages.push_back({pages[p].offset, pages[p].offset + pages[p].compressed_page_size});
        }
      }
      e.stats.pages_decompressed += touched + (dictionary && needs_dictionary ? 1 : 0);
      if (!whole) e.stats.pages_skipped += static_cast<int64_t>(pages.size()) - touched;
      const bool fetched =
          needs_dictionary || (touched > 0 && !ListsPlainDataPages(*chunk.meta_data));
      if (dictionary && fetched) e.bytes += pages.front().offset - start;
      e.bytes += *chunk.offset_index_length;
    }
  }
  return e;
}

std::vector<int> LeavesOf(const FileReader& reader) {
  std::vector<int> leaves;
  for (int i = 0; i < reader.metadata()->num_columns(); ++i) leaves.push_back(i);
  return leaves;
}

// Non-null values of the flat columns of `table` (what values_decoded
// counts for them).
int64_t FlatValues(const Table& table) {
  int64_t n = 0;
  for (const auto& column : table.columns()) n += column->length() - column->null_count();
  return n;
}

void CheckSelections(const TestFile& test, uint64_t seed, int rounds) {
  auto recording = std::make_shared<RecordingFile>(test.file);
  auto opened = FileReader::Open(recording);
  ASSERT_TRUE(opened.ok()) << test.name << ": " << opened.status();
  FileReader& reader = **opened;
  const int num_groups = reader.num_row_groups();
  // The oracle: each row group read whole.
  std::vector<TablePtr> full;
  for (int g = 0; g < num_groups; ++g) {
    auto table = reader.ReadRowGroup(g);
    ASSERT_TRUE(table.ok()) << test.name << ": " << table.status();
    full.push_back(*table);
  }
  std::mt19937_64 rng(seed);
  for (int round = 0; round < rounds; ++round) {
    std::vector<int> groups;
    std::vector<RowRanges> selections;
    for (int g = 0; g < num_groups; ++g) {
      if (rng() % 4 == 0) continue;
      groups.push_back(g);
      selections.push_back(RandomSelection(rng, full[static_cast<size_t>(g)]->num_rows()));
    }
    const std::string trace = Trace(test.name, seed, groups, selections) + " round " +
                              std::to_string(round);
    SCOPED_TRACE(trace);
    // The expected rows: each row group's selected rows, in order.
    std::vector<TablePtr> parts;
    for (size_t i = 0; i < groups.size(); ++i) {
      parts.push_back(TakeRanges(*full[static_cast<size_t>(groups[i])], selections[i]));
    }
    std::vector<ChunkedArrayPtr> columns;
    int64_t rows = 0;
    for (const auto& part : parts) rows += part->num_rows();
    for (int c = 0; c < reader.schema()->num_fields(); ++c) {
      std::vector<ArrayPtr> chunks;
      for (const auto& part : parts) {
        for (const auto& chunk : part->column(c)->chunks()) chunks.push_back(chunk);
      }
      columns.push_back(std::make_shared<ChunkedArray>(std::move(chunks),
                                                       reader.schema()->field(c)->type()));
    }
    const Table want(reader.schema(), std::move(columns), rows);

    recording->TakeReads();
    auto got = reader.ReadRowGroups(groups, selections);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_TRUE((*got)->ValidateFull().ok());
    ExpectSameRows(**got, want, "ReadRowGroups");
    const ReadStats stats = reader.read_stats();
    const std::vector<RowRange> reads = recording->TakeReads();
    int64_t bytes = 0;
    for (const RowRange& r : reads) bytes += r.length();
    EXPECT_EQ(stats.bytes_read, bytes);
    if (test.page_index) {
      const Expected e = ExpectedFor(reader, *test.file, groups, selections, LeavesOf(reader));
      recording->TakeReads();  // (the offset index reads of ExpectedFor)
      EXPECT_EQ(stats.pages_skipped, e.stats.pages_skipped);
      EXPECT_EQ(stats.pages_decompressed, e.stats.pages_decompressed);
      if (e.exact_bytes) {
        EXPECT_EQ(bytes, e.bytes);
      }
      // No byte of a skipped page is asked for.
      for (const RowRange& page : e.skipped_pages) {
        for (const RowRange& r : reads) {
          ASSERT_TRUE(r.end <= page.begin || r.begin >= page.end)
              << "read [" << r.begin << ", " << r.end << ") overlaps skipped page [" << page.begin
              << ", " << page.end << ")";
        }
      }
    } else {
      EXPECT_EQ(stats.pages_skipped, 0);
    }
    EXPECT_EQ(stats.row_groups_pruned_statistics, 0);

    // The same as batches.
    const int64_t batch_size = 1 + static_cast<int64_t>(rng() % 700);
    auto batches = reader.GetRecordBatchReader(std::nullopt, groups, selections, batch_size);
    ASSERT_TRUE(batches.ok()) << batches.status();
    auto table = (*batches)->ToTable();
    ASSERT_TRUE(table.ok()) << table.status();
    ASSERT_TRUE((*table)->ValidateFull().ok());
    ExpectSameRows(**table, want, "batches of " + std::to_string(batch_size));
    if (test.page_index) {
      EXPECT_EQ(reader.read_stats().pages_skipped, stats.pages_skipped);
      EXPECT_EQ(reader.read_stats().pages_decompressed, stats.pages_decompressed);
    }
    recording->TakeReads();
  }
}

// Rounds of random selections per file (QUIVER_DEEP_TESTS=1: ten times as many).
int Rounds(int n) { return std::getenv("QUIVER_DEEP_TESTS") != nullptr ? 10 * n : n; }

TEST(SelectionReadTest, QuiverFilesEveryType) {
  uint64_t seed = 1;
  for (const TestFile& file : QuiverFiles()) CheckSelections(file, seed++, Rounds(8));
}

TEST(SelectionReadTest, PyarrowAndOtherWriters) {
  uint64_t seed = 100;
  for (const TestFile& file : PyarrowFiles()) CheckSelections(file, seed++, Rounds(16));
}

// Counters of plain reads: every page decompressed, none skipped, the
// values of the flat columns counted, bytes as the file saw them.
TEST(SelectionReadTest, PlainReadCounters) {
  for (const TestFile& test : PyarrowFiles()) {
    if (!test.page_index) continue;
    SCOPED_TRACE(test.name);
    auto recording = std::make_shared<RecordingFile>(test.file);
    auto reader = FileReader::Open(recording);
    ASSERT_TRUE(reader.ok());
    std::vector<int> groups;
    std::vector<RowRanges> all;
    for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
      groups.push_back(g);
      all.push_back(RowRanges::All(ThriftOf(*(*reader)->metadata()).row_groups[g].num_rows));
    }
    const Expected e = ExpectedFor(**reader, *test.file, groups, all, LeavesOf(**reader));
    recording->TakeReads();
    auto table = (*reader)->ReadTable();
    ASSERT_TRUE(table.ok());
    const ReadStats stats = (*reader)->read_stats();
    int64_t bytes = 0;
    for (const RowRange& r : recording->TakeReads()) bytes += r.length();
    EXPECT_EQ(stats.pages_skipped, 0);
    EXPECT_EQ(stats.pages_decompressed, e.stats.pages_decompressed);
    EXPECT_EQ(stats.bytes_read, bytes);
    EXPECT_GT(bytes, 0);
    EXPECT_EQ(stats.values_decoded > 0, true);
    // The same through batches: the counts add up over the batches.
    auto batches = (*reader)->GetRecordBatchReader(std::nullopt, std::nullopt, 333);
    ASSERT_TRUE(batches.ok());
    EXPECT_EQ((*reader)->read_stats().pages_decompressed, 0);
    ASSERT_TRUE((*batches)->ToTable().ok());
    EXPECT_EQ((*reader)->read_stats().pages_decompressed, e.stats.pages_decompressed);
    EXPECT_EQ((*reader)->read_stats().values_decoded, stats.values_decoded);
  }
  // values_decoded: the non-null values of flat columns.
  auto reader = FileReader::Open(ReadTestData("reader/selection_pyarrow_index.parquet"));
  ASSERT_TRUE(reader.ok());
  const std::vector<std::string> flat{"required", "ints", "doubles", "words", "bools", "fixed"};
  auto table = (*reader)->ReadTable(flat);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ((*reader)->read_stats().values_decoded, FlatValues(**table));
  auto rows = RowRanges::Make({{10, 20}, {500, 900}});
  auto some = (*reader)->ReadRowGroups({1}, {*rows}, flat);
  ASSERT_TRUE(some.ok());
  EXPECT_EQ((*some)->num_rows(), 410);
  EXPECT_EQ((*reader)->read_stats().values_decoded, FlatValues(**some));
  EXPECT_GT((*reader)->read_stats().pages_skipped, 0);
}

// A sparse selection on a file with a page index reads a small part of it.
TEST(SelectionReadTest, SparseSelectionReadsFewBytes) {
  auto file = ReadTestData("reader/selection_pyarrow_index.parquet");
  auto reader = FileReader::Open(file);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE((*reader)->ReadTable().ok());
  const int64_t all_bytes = (*reader)->read_stats().bytes_read;
  auto rows = RowRanges::Make({{700, 705}});
  auto table = (*reader)->ReadRowGroups({0}, {*rows});
  ASSERT_TRUE(table.ok());
  EXPECT_EQ((*table)->num_rows(), 5);
  const ReadStats stats = (*reader)->read_stats();
  EXPECT_LT(stats.bytes_read * 10, all_bytes) << stats.bytes_read << " of " << all_bytes;
  EXPECT_GT(stats.pages_skipped, stats.pages_decompressed);
}

// No two requests share a byte.
void ExpectDisjoint(std::vector<RowRange> reads) {
  std::sort(reads.begin(), reads.end(),
            [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
  for (size_t i = 1; i < reads.size(); ++i) {
    EXPECT_LE(reads[i - 1].end, reads[i].begin)
        << "[" << reads[i - 1].begin << ", " << reads[i - 1].end << ") and [" << reads[i].begin
        << ", " << reads[i].end << ") overlap";
  }
}

// Opening a file is one suffix read; a plain read then fetches each row
// group's chunks once, coalesced (io::ReadRangeCache): one request a row
// group (its chunks are contiguous), no byte twice, no byte past the data
// region, and bytes_read is what the file was asked.
TEST(RangeReadTest, PlainReadRequestsEachByteOnce) {
  std::vector<TestFile> files = PyarrowFiles();
  for (TestFile& f : QuiverFiles()) files.push_back(std::move(f));
  for (const TestFile& test : files) {
    SCOPED_TRACE(test.name);
    auto recording = std::make_shared<RecordingFile>(test.file);
    auto reader = FileReader::Open(recording);
    ASSERT_TRUE(reader.ok()) << reader.status();
    const std::vector<RowRange> open = recording->TakeReads();
    ASSERT_EQ(open.size(), 1u);
    EXPECT_EQ(open[0].end, test.file->Size());
    auto table = (*reader)->ReadTable();
    ASSERT_TRUE(table.ok()) << table.status();
    const std::vector<RowRange> reads = recording->TakeReads();
    int64_t bytes = 0;
    for (const RowRange& r : reads) bytes += r.length();
    EXPECT_EQ((*reader)->read_stats().bytes_read, bytes);
    EXPECT_EQ(reads.size(), static_cast<size_t>((*reader)->num_row_groups()));
    ExpectDisjoint(reads);
    auto length = test.file->ReadAt(test.file->Size() - 8, 4);
    ASSERT_TRUE(length.ok());
    uint32_t footer_length = 0;
    std::memcpy(&footer_length, (*length)->data(), 4);
    const int64_t footer_offset = test.file->Size() - 8 - footer_length;
    for (const RowRange& r : reads) EXPECT_LE(r.end, footer_offset);
    // The footer's suffix read may hold the last chunks' bytes too (it
    // is not reused, as in Arrow C++): at most its length more.
    EXPECT_LE(bytes, footer_offset);
    EXPECT_LE(bytes + open[0].length(), test.file->Size() + 64 * 1024);
  }
}

// Every read a fresh copy of the bytes (as io::ReadableFile's and a Python
// file object's reads are), never slices of one buffer: the page reader then
// joins a body spanning two reads by copying.
class CopyingFile final : public io::RandomAccessFile {
 public:
  explicit CopyingFile(std::shared_ptr<io::RandomAccessFile> file) : file_(std::move(file)) {}
  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override {
    QUIVER_ASSIGN_OR_RAISE(auto bytes, file_->ReadAt(offset, length));
    return Buffer::Copy(bytes->data(), bytes->size());
  }
  int64_t Size() const override { return file_->Size(); }
  const std::string& name() const override { return file_->name(); }

 private:
  std::shared_ptr<io::RandomAccessFile> file_;
};

// A batch read without a page index (page by page through the page
// reader's windows, not prefetched) asks each byte of the column chunks
// once and nothing else: its reads are disjoint, lie within the chunks and
// add up to them (so they cover them), bytes_read is their sum (ReadTable's
// too), and the rows are the table written. Pages larger than the page
// reader's 16 KiB window (PLAIN int64 and strings, mid's dictionary page)
// and smaller (booleans, dictionary indices of 2,500 rows), uncompressed and
// SNAPPY, the file's reads slices of its buffer or copies, one thread or
// several.
TEST(RangeReadTest, BatchReadRequestsEachByteOnce) {
  const int64_t n = 60000;
  std::vector<int64_t> big;
  std::vector<std::string> words;
  std::vector<bool> flags;
  for (int64_t i = 0; i < n; ++i) {
    big.push_back((i * 2654435761LL) % (int64_t{1} << 40));
    words.push_back("w" + std::to_string(i % 20));
    flags.push_back(i % 3 == 0);
  }
  auto table_schema =
      schema({field("big", int64(), false), field("mid", int32()), field("flag", boolean()),
              field("word", utf8()), field("text", utf8())});
  auto table = Table::Make(
      table_schema,
      std::vector<ChunkedArrayPtr>{
          std::make_shared<ChunkedArray>(
              std::vector<ArrayPtr>{MakeArray(testutil::ArrayFromVector<int64_t>(int64(), big))},
              int64()),
          std::make_shared<ChunkedArray>(
              std::vector<ArrayPtr>{MakeArray(testutil::ArrayFromVector<int32_t>(
                  int32(), testutil::Sequence<int32_t>(n, -5, 3), testutil::Validity(n)))},
              int32()),
          std::make_shared<ChunkedArray>(
              std::vector<ArrayPtr>{MakeArray(testutil::BooleanArrayFromVector(flags))},
              boolean()),
          std::make_shared<ChunkedArray>(
              std::vector<ArrayPtr>{MakeArray(testutil::StringArrayFromVector(words))}, utf8()),
          std::make_shared<ChunkedArray>(
              std::vector<ArrayPtr>{MakeArray(testutil::StringArrayFromVector(
                  testutil::Strings(n), testutil::Validity(n, 5)))},
              utf8())});
  ASSERT_TRUE(table.ok()) << table.status();
  for (const auto codec :
       {compression::CompressionCodec::UNCOMPRESSED, compression::CompressionCodec::SNAPPY}) {
    for (const int64_t page_rows : {2500, 20000}) {
      WriterOptions options;
      options.compression.default_value = codec;
      options.write_page_index = false;
      options.row_group_size = 30000;
      options.max_rows_per_page = page_rows;
      options.use_dictionary.by_column = {{"big", false}, {"text", false}};
      auto bytes = WriteToBuffer(**table, options);
      for (const bool copies : {false, true}) {
        for (const bool threads : {false, true}) {
          SCOPED_TRACE(std::string(compression::CompressionCodecName(codec)) + ", " +
                       std::to_string(page_rows) + " rows a page" +
                       (copies ? ", copied reads" : ", sliced reads") +
                       (threads ? ", threads" : ", one thread"));
          std::shared_ptr<io::RandomAccessFile> file = AsFile(bytes, "batches.parquet");
          if (copies) file = std::make_shared<CopyingFile>(file);
          auto recording = std::make_shared<RecordingFile>(file);
          auto reader = FileReader::Open(recording);
          ASSERT_TRUE(reader.ok()) << reader.status();
          (*reader)->set_use_threads(threads);
          recording->TakeReads();
          // The column chunks, and the pages that are larger than the
          // window and smaller.
          const format::FileMetaData& meta = ThriftOf(*(*reader)->metadata());
          uint32_t footer_length = 0;
          std::memcpy(&footer_length, bytes->data() + bytes->size() - 8, 4);
          const int64_t footer_offset = bytes->size() - 8 - footer_length;
          std::vector<RowRange> chunks;
          int64_t chunk_bytes = 0;
          for (const auto& group : meta.row_groups) {
            for (const auto& column : group.columns) {
              auto range = ColumnChunkRange(*column.meta_data, footer_offset);
              ASSERT_TRUE(range.ok()) << range.status();
              chunks.push_back({range->offset, range->end()});
              chunk_bytes += range->length;
            }
          }
          auto batches = (*reader)->GetRecordBatchReader(std::nullopt, std::nullopt, 4096);
          ASSERT_TRUE(batches.ok()) << batches.status();
          auto got = (*batches)->ToTable();
          ASSERT_TRUE(got.ok()) << got.status();
          ExpectSameRows(**got, **table, "batches");
          const ReadStats stats = (*reader)->read_stats();
          const std::vector<RowRange> reads = recording->TakeReads();
          ExpectDisjoint(reads);
          int64_t bytes_asked = 0;
          for (const RowRange& r : reads) {
            bytes_asked += r.length();
            EXPECT_TRUE(std::any_of(chunks.begin(), chunks.end(), [&](const RowRange& c) {
              return c.begin <= r.begin && r.end <= c.end;
            })) << "[" << r.begin << ", " << r.end << ") is not within a column chunk";
          }
          EXPECT_EQ(bytes_asked, chunk_bytes);
          EXPECT_EQ(stats.bytes_read, bytes_asked);
          // Requests: at most one a page and one a chunk.
          EXPECT_LE(static_cast<int64_t>(reads.size()),
                    stats.pages_decompressed + static_cast<int64_t>(chunks.size()));
          // ReadTable (prefetched chunks) asks the same bytes.
          auto whole = (*reader)->ReadTable();
          ASSERT_TRUE(whole.ok()) << whole.status();
          ExpectSameRows(**whole, **table, "ReadTable");
          EXPECT_EQ((*reader)->read_stats().bytes_read, stats.bytes_read);
          EXPECT_EQ((*reader)->read_stats().pages_decompressed, stats.pages_decompressed);
        }
      }
    }
  }
}

// A selection with an offset index: each top-level column's reader (a unit
// of the read, possibly on another thread) fetches its chunks' offset
// indexes in one request, then the dictionary pages and the pages holding
// the selected rows (touching ones together); nothing twice.
TEST(RangeReadTest, SelectionFetchesIndexesAndFewPages) {
  auto recording =
      std::make_shared<RecordingFile>(ReadTestData("reader/selection_pyarrow_index.parquet"));
  auto reader = FileReader::Open(recording);
  ASSERT_TRUE(reader.ok());
  recording->TakeReads();
  auto rows = RowRanges::Make({{700, 705}});
  auto table = (*reader)->ReadRowGroups({0}, {*rows});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ((*table)->num_rows(), 5);
  const std::vector<RowRange> reads = recording->TakeReads();
  ExpectDisjoint(reads);
  const int leaves = (*reader)->metadata()->num_columns();
  // At most one for the offset indexes and two (a dictionary page, a data
  // page) a leaf.
  EXPECT_LE(reads.size(), static_cast<size_t>(3 * leaves));
  int64_t bytes = 0;
  for (const RowRange& r : reads) bytes += r.length();
  EXPECT_EQ((*reader)->read_stats().bytes_read, bytes);
  // Every offset index of row group 0 lies within one request.
  const auto& group = ThriftOf(*(*reader)->metadata()).row_groups[0];
  for (const auto& chunk : group.columns) {
    ASSERT_TRUE(chunk.offset_index_offset.has_value());
    const int64_t begin = *chunk.offset_index_offset;
    const int64_t end = begin + *chunk.offset_index_length;
    EXPECT_TRUE(std::any_of(reads.begin(), reads.end(), [&](const RowRange& r) {
      return r.begin <= begin && end <= r.end;
    })) << "offset index [" << begin << ", " << end << ")";
  }
}

TEST(SelectionReadTest, BadSelectionsAreInvalid) {
  auto reader = FileReader::Open(ReadTestData("reader/selection_pyarrow_index.parquet"));
  ASSERT_TRUE(reader.ok());
  auto past = (*reader)->ReadRowGroups({0}, {*RowRanges::Make({{990, 1001}})});
  ASSERT_FALSE(past.ok());
  EXPECT_TRUE(past.status().IsInvalid());
  EXPECT_NE(past.status().message().find("goes past its 1000 rows"), std::string::npos)
      << past.status();
  auto count = (*reader)->ReadRowGroups({0, 1}, {RowRanges::All(3)});
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.status().message().find("1 row selections for 2 row groups"), std::string::npos)
      << count.status();
  EXPECT_FALSE((*reader)->ReadRowGroups({7}, {RowRanges::All(3)}).ok());
  EXPECT_FALSE(
      (*reader)->GetRecordBatchReader(std::nullopt, {0}, {RowRanges::All(3), RowRanges()}).ok());
  // An empty selection reads nothing of its row group.
  auto none = (*reader)->ReadRowGroups({0, 1}, {RowRanges(), RowRanges()});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ((*none)->num_rows(), 0);
  EXPECT_EQ((*reader)->read_stats(), ReadStats());
}

// An offset index that does not fit its chunk is not used: the read skips
// by levels and returns the same rows.
TEST(SelectionReadTest, UnusableOffsetIndexFallsBackToLevels) {
  auto table = AllTypesTable(600);
  WriterOptions options;
  options.max_rows_per_page = 25;
  auto bytes = WriteToBuffer(*table, options);
  auto good = FileReader::Open(AsFile(bytes));
  ASSERT_TRUE(good.ok());
  // Every offset index's bytes overwritten (they no longer decode, or
  // decode to locations outside their chunks).
  std::string corrupt(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  for (const auto& group : ThriftOf(*(*good)->metadata()).row_groups) {
    for (const auto& chunk : group.columns) {
      ASSERT_TRUE(chunk.offset_index_offset.has_value());
      for (int32_t i = 0; i < *chunk.offset_index_length; ++i) {
        corrupt[static_cast<size_t>(*chunk.offset_index_offset + i)] = static_cast<char>(0xFF);
      }
    }
  }
  auto bad = FileReader::Open(AsFile(corrupt));
  ASSERT_TRUE(bad.ok());
  auto rows = RowRanges::Make({{3, 40}, {100, 101}, {590, 600}});
  auto want = (*good)->ReadRowGroups({0}, {*rows});
  ASSERT_TRUE(want.ok()) << want.status();
  EXPECT_GT((*good)->read_stats().pages_skipped, 0);
  auto got = (*bad)->ReadRowGroups({0}, {*rows});
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_TRUE((*got)->ValidateFull().ok());
  ExpectSameRows(**got, **want, "corrupt offset index");
  EXPECT_EQ((*bad)->read_stats().pages_skipped, 0);
  EXPECT_EQ((*got)->num_rows(), 48);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
