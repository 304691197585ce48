#include "quiver/parquet/reader/page_reader_internal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/io/file.h"
#include "quiver/io/memory.h"
#include "quiver/io/test_util_internal.h"
#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/levels/level_decoder_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/util/crc32.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using namespace ::quiver::testutil;  // NOLINT
using compression::CompressionCodec;

const std::string kTestData = QUIVER_TESTDATA_DIR;

using io::testutil::RecordingFile;

// ---------------------------------------------------------------------------
// Files written by Quiver's writer

constexpr int64_t kRows = 2000;
constexpr int64_t kRowGroupRows = 1000;

// Row i of the test table:
//   id   int64 required         i * 3 - 7
//   opt  int64 nullable         i * 11, null when i % 3 == 1
//   lst  list<int64> nullable   null when i % 7 == 3, empty when i % 7 == 5,
//                               else i % 4 + 1 items i * 10 + j, item 1 null
//   name utf8 required          "name-" + i % 50
bool OptValid(int64_t i) { return i % 3 != 1; }
bool ListNull(int64_t i) { return i % 7 == 3; }
int64_t ListLength(int64_t i) { return i % 7 == 3 || i % 7 == 5 ? 0 : i % 4 + 1; }

RecordBatchPtr TestBatch() {
  std::vector<int64_t> id;
  std::vector<int64_t> opt;
  std::vector<bool> opt_valid;
  std::vector<bool> list_valid;
  std::vector<int64_t> offsets = {0};
  std::vector<int64_t> items;
  std::vector<bool> item_valid;
  std::vector<std::string> names;
  for (int64_t i = 0; i < kRows; ++i) {
    id.push_back(i * 3 - 7);
    opt.push_back(OptValid(i) ? i * 11 : 0);
    opt_valid.push_back(OptValid(i));
    list_valid.push_back(!ListNull(i));
    for (int64_t j = 0; j < ListLength(i); ++j) {
      items.push_back(j == 1 ? 0 : i * 10 + j);
      item_valid.push_back(j != 1);
    }
    offsets.push_back(static_cast<int64_t>(items.size()));
    names.push_back("name-" + std::to_string(i % 50));
  }
  auto list_type = list(int64());
  auto schema = quiver::schema({field("id", int64(), false), field("opt", int64()),
                                field("lst", list_type), field("name", utf8(), false)});
  auto lst = ListArrayFromOffsets(list_type, offsets,
                                  ArrayFromVector<int64_t>(int64(), items, item_valid), list_valid);
  return std::make_shared<RecordBatch>(
      schema, kRows,
      std::vector<ArrayDataPtr>{ArrayFromVector<int64_t>(int64(), id),
                                ArrayFromVector<int64_t>(int64(), opt, opt_valid), lst,
                                StringArrayFromVector(names)});
}

// The non-null int64 values of leaf `column` (0 id, 1 opt, 2 lst items) in
// rows [begin, end), in order.
std::vector<int64_t> ExpectedValues(int column, int64_t begin, int64_t end) {
  std::vector<int64_t> out;
  for (int64_t i = begin; i < end; ++i) {
    if (column == 0) out.push_back(i * 3 - 7);
    if (column == 1 && OptValid(i)) out.push_back(i * 11);
    if (column == 2) {
      for (int64_t j = 0; j < ListLength(i); ++j) {
        if (j != 1) out.push_back(i * 10 + j);
      }
    }
  }
  return out;
}

WriterOptions Options(CompressionCodec codec, bool dictionary, bool v2) {
  WriterOptions options;
  options.compression.default_value = codec;
  options.use_dictionary.default_value = dictionary;
  options.data_page_version = v2 ? DataPageVersion::kV2 : DataPageVersion::kV1;
  options.row_group_size = kRowGroupRows;
  options.max_rows_per_page = 300;
  options.write_page_checksum = true;
  return options;
}

std::shared_ptr<Buffer> WriteFile(const WriterOptions& options) {
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, TestBatch()->schema(), options);
  EXPECT_TRUE(writer.ok()) << writer.status();
  EXPECT_TRUE((*writer)->WriteRecordBatch(*TestBatch()).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return *sink.Finish();
}

struct OpenedFile {
  std::shared_ptr<io::RandomAccessFile> file;
  ParquetFooter footer;
  SchemaDescriptor schema;
};

OpenedFile Open(std::shared_ptr<io::RandomAccessFile> file) {
  auto footer = ReadFooter(*file);
  EXPECT_TRUE(footer.ok()) << footer.status();
  auto schema = SchemaDescriptor::Make(footer->metadata.schema);
  EXPECT_TRUE(schema.ok()) << schema.status();
  return {std::move(file), std::move(*footer), std::move(*schema)};
}

Result<std::unique_ptr<PageReader>> ChunkReader(const OpenedFile& f, int row_group, int column,
                                                const PageReaderOptions& options = {}) {
  const ColumnDescriptor& descriptor = f.schema.column(column);
  return PageReader::Make(f.file,
                          *f.footer.metadata.row_groups[static_cast<size_t>(row_group)]
                               .columns[static_cast<size_t>(column)]
                               .meta_data,
                          f.footer.footer_offset, descriptor,
                          {f.file->name(), row_group, descriptor.path}, options);
}

// The levels of a section, decoded whole.
std::vector<int16_t> DecodeLevels(std::string_view kind, format::Encoding encoding, int16_t max_level,
                                  int32_t n, std::span<const uint8_t> section) {
  LevelDecoder decoder;
  std::vector<int16_t> out(static_cast<size_t>(n));
  EXPECT_TRUE(decoder
                  .SetData(kind, encoding, max_level, n, section.data(),
                           static_cast<int64_t>(section.size()))
                  .ok());
  Status st = decoder.Decode(n, out.data());
  EXPECT_TRUE(st.ok()) << st;
  return out;
}

// What a walk over one chunk saw.
struct ChunkWalk {
  std::vector<PageInfo> pages;  // dictionary and data pages returned
  int dictionary_pages = 0;
  int data_pages = 0;
  int64_t num_values = 0;
  int64_t rows = 0;
  std::vector<int64_t> int64_values;  // non-null values of an INT64 column
};

// Walks a chunk with PageReader, checking each page against the same file
// walked in memory by PageHeaderIterator, section sizes against the
// header, levels (v2 counts too) and values (INT64 decoded; other types
// skipped through their decoder).
ChunkWalk WalkChunk(const OpenedFile& f, const Buffer& bytes, int row_group, int column,
                    const PageReaderOptions& options = {}) {
  ChunkWalk walk;
  const ColumnDescriptor& col = f.schema.column(column);
  const format::ColumnMetaData& meta =
      *f.footer.metadata.row_groups[static_cast<size_t>(row_group)]
           .columns[static_cast<size_t>(column)]
           .meta_data;
  auto range = ColumnChunkRange(meta, f.footer.footer_offset);
  EXPECT_TRUE(range.ok());
  PageHeaderIterator reference(bytes.data() + range->offset, range->length, range->offset);
  auto reader = ChunkReader(f, row_group, column, options);
  EXPECT_TRUE(reader.ok()) << reader.status();
  if (!reader.ok()) return walk;
  std::unique_ptr<Decoder> decoder;
  std::vector<uint8_t> dictionary;  // kept for SetDictionary (which copies anyway)
  int32_t dictionary_values = 0;
  while (true) {
    auto next = (*reader)->Next();
    EXPECT_TRUE(next.ok()) << next.status();
    if (!next.ok() || !*next) break;
    const PageInfo& info = (*reader)->info();
    PageInfo expected;
    auto ref = reference.Next(&expected);
    EXPECT_TRUE(ref.ok() && *ref);
    EXPECT_EQ(info.index, expected.index);
    EXPECT_EQ(info.offset, expected.offset);
    EXPECT_EQ(info.header_size, expected.header_size);
    EXPECT_TRUE(info.header == expected.header);
    walk.pages.push_back(info);
    const format::PageHeader& h = info.header;
    if ((*reader)->is_dictionary()) {
      ++walk.dictionary_pages;
      const DictionaryPage& d = (*reader)->dictionary_page();
      EXPECT_EQ(h.type, format::PageType::kDictionaryPage);
      EXPECT_EQ(d.num_values, h.dictionary_page_header->num_values);
      EXPECT_EQ(static_cast<int64_t>(d.data.size()), h.uncompressed_page_size);
      dictionary.assign(d.data.begin(), d.data.end());
      dictionary_values = d.num_values;
      continue;
    }
    ++walk.data_pages;
    const DataPage& p = (*reader)->data_page();
    EXPECT_EQ(p.v2, h.type == format::PageType::kDataPageV2);
    int64_t nulls = 0;
    int64_t rows = 0;
    if (p.v2) {
      const auto& v2 = *h.data_page_header_v2;
      EXPECT_EQ(p.num_values, v2.num_values);
      EXPECT_EQ(p.encoding, v2.encoding);
      EXPECT_EQ(p.num_nulls, std::optional<int32_t>(v2.num_nulls));
      EXPECT_EQ(p.num_rows, std::optional<int32_t>(v2.num_rows));
      EXPECT_EQ(static_cast<int64_t>(p.rep_levels.size()),
                col.max_rep > 0 ? v2.repetition_levels_byte_length : 0);
      EXPECT_EQ(static_cast<int64_t>(p.def_levels.size()),
                col.max_def > 0 ? v2.definition_levels_byte_length : 0);
      EXPECT_EQ(static_cast<int64_t>(p.values.size()),
                h.uncompressed_page_size - v2.repetition_levels_byte_length -
                    v2.definition_levels_byte_length);
    } else {
      const auto& v1 = *h.data_page_header;
      EXPECT_EQ(p.num_values, v1.num_values);
      EXPECT_EQ(p.encoding, v1.encoding);
      EXPECT_FALSE(p.num_nulls.has_value());
      EXPECT_FALSE(p.num_rows.has_value());
      EXPECT_EQ(p.rep_level_encoding, v1.repetition_level_encoding);
      EXPECT_EQ(p.def_level_encoding, v1.definition_level_encoding);
      // The sections tile the uncompressed page (with the RLE prefixes).
      const int64_t prefixes = (col.max_rep > 0 ? 4 : 0) + (col.max_def > 0 ? 4 : 0);
      EXPECT_EQ(static_cast<int64_t>(p.rep_levels.size() + p.def_levels.size() + p.values.size()) +
                    prefixes,
                h.uncompressed_page_size);
    }
    const auto& stats = p.v2 ? h.data_page_header_v2->statistics : h.data_page_header->statistics;
    EXPECT_EQ(p.statistics, stats.has_value() ? &*stats : nullptr);
    // Levels.
    int64_t present = p.num_values;
    if (col.max_rep > 0) {
      auto rep = DecodeLevels("repetition", p.rep_level_encoding, col.max_rep, p.num_values,
                              p.rep_levels);
      rows = std::count(rep.begin(), rep.end(), 0);
      EXPECT_EQ(rep.empty() ? 0 : rep[0], 0);  // pages start on a row
    } else {
      EXPECT_TRUE(p.rep_levels.empty());
      rows = p.num_values;
    }
    if (col.max_def > 0) {
      auto def = DecodeLevels("definition", p.def_level_encoding, col.max_def, p.num_values,
                              p.def_levels);
      present = std::count(def.begin(), def.end(), col.max_def);
    } else {
      EXPECT_TRUE(p.def_levels.empty());
    }
    nulls = p.num_values - present;
    if (p.v2) {
      EXPECT_EQ(*p.num_nulls, nulls);
      EXPECT_EQ(*p.num_rows, rows);
    }
    walk.num_values += p.num_values;
    walk.rows += rows;
    // Values.
    const bool dict_encoded =
        p.encoding == format::Encoding::kRleDictionary || p.encoding == format::Encoding::kPlainDictionary;
    auto made = MakeDecoder(col.physical_type, p.encoding, col.type_length);
    EXPECT_TRUE(made.ok()) << made.status();
    if (!made.ok()) continue;
    decoder = std::move(*made);
    if (dict_encoded) {
      EXPECT_GT(walk.dictionary_pages, 0);
      Status st = decoder->SetDictionary(dictionary_values, dictionary.data(),
                                         static_cast<int64_t>(dictionary.size()));
      EXPECT_TRUE(st.ok()) << st;
    }
    Status st = decoder->SetData(present, p.values.data(), static_cast<int64_t>(p.values.size()));
    EXPECT_TRUE(st.ok()) << st;
    if (col.physical_type == format::Type::kInt64) {
      std::vector<int64_t> values(static_cast<size_t>(present));
      st = static_cast<Int64Decoder&>(*decoder).Decode(present, values.data());
      EXPECT_TRUE(st.ok()) << st;
      walk.int64_values.insert(walk.int64_values.end(), values.begin(), values.end());
    } else {
      st = decoder->Skip(present);
      EXPECT_TRUE(st.ok()) << st;
    }
    EXPECT_EQ(decoder->values_left(), 0);
  }
  // Nothing left in the chunk that the reference saw.
  PageInfo rest;
  auto ref = reference.Next(&rest);
  EXPECT_TRUE(ref.ok() && !*ref);
  // A finished reader stays finished.
  auto again = (*reader)->Next();
  EXPECT_TRUE(again.ok() && !*again);
  EXPECT_EQ(walk.num_values, meta.num_values);
  return walk;
}

using Variant = std::tuple<CompressionCodec, bool, bool>;  // codec, dictionary, v2

class PageReaderFiles : public ::testing::TestWithParam<Variant> {};

// Every codec Quiver writes, dictionary on and off, v1 and v2 pages, flat
// and nested columns: every page comes out with its sections and the
// values decode to what was written.
TEST_P(PageReaderFiles, ReadsWhatTheWriterWrote) {
  const auto [codec, dictionary, v2] = GetParam();
  auto bytes = WriteFile(Options(codec, dictionary, v2));
  const OpenedFile f = Open(std::make_shared<io::BufferReader>(bytes, "t.parquet"));
  ASSERT_EQ(f.footer.metadata.row_groups.size(), 2u);
  ASSERT_EQ(f.schema.num_columns(), 4);
  ASSERT_EQ(f.schema.column(2).max_rep, 1);
  ASSERT_EQ(f.schema.column(2).max_def, 3);
  PageReaderOptions options;
  options.verify_checksums = true;
  for (int rg = 0; rg < 2; ++rg) {
    for (int column = 0; column < 4; ++column) {
      ChunkWalk walk = WalkChunk(f, *bytes, rg, column, options);
      EXPECT_EQ(walk.rows, kRowGroupRows) << "column " << column;
      EXPECT_GE(walk.data_pages, 4) << "column " << column;  // 300 rows a page at most
      EXPECT_EQ(walk.dictionary_pages, dictionary ? 1 : 0) << "column " << column;
      if (column < 3) {
        EXPECT_EQ(walk.int64_values,
                  ExpectedValues(column, rg * kRowGroupRows, (rg + 1) * kRowGroupRows))
            << "column " << column;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    CodecsDictionaryVersions, PageReaderFiles,
    ::testing::Combine(::testing::Values(CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY,
                                         CompressionCodec::GZIP, CompressionCodec::BROTLI,
                                         CompressionCodec::ZSTD, CompressionCodec::LZ4_RAW),
                       ::testing::Bool(), ::testing::Bool()),
    [](const ::testing::TestParamInfo<Variant>& info) {
      return std::string(compression::CompressionCodecName(std::get<0>(info.param))) +
             (std::get<1>(info.param) ? "_dict" : "_plain") +
             (std::get<2>(info.param) ? "_v2" : "_v1");
    });

// Uncompressed pages from a BufferReader are slices of the file's buffer.
TEST(PageReader, UncompressedPagesAreNotCopied) {
  auto bytes = WriteFile(Options(CompressionCodec::UNCOMPRESSED, false, false));
  const OpenedFile f = Open(std::make_shared<io::BufferReader>(bytes));
  auto reader = ChunkReader(f, 0, 0);
  ASSERT_TRUE(reader.ok());
  int pages = 0;
  while (*(*reader)->Next()) {
    const auto values = (*reader)->data_page().values;
    EXPECT_GE(values.data(), bytes->data());
    EXPECT_LE(values.data() + values.size(), bytes->data() + bytes->size());
    ++pages;
  }
  EXPECT_GT(pages, 1);
}

// A file on disk through io::ReadableFile reads as the same bytes in memory.
TEST(PageReader, ReadsAFileOnDisk) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("quiver-page-reader-" + std::to_string(::getpid()) + ".parquet"))
                               .string();
  auto batch = TestBatch();
  auto table = Table::FromRecordBatches(batch->schema(), {batch});
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_TRUE(WriteTable(**table, path, Options(CompressionCodec::ZSTD, true, true)).ok());
  auto bytes = io::ReadFileToBuffer(path);
  ASSERT_TRUE(bytes.ok());
  auto file = io::ReadableFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  const OpenedFile f = Open(std::shared_ptr<io::RandomAccessFile>(std::move(*file)));
  for (int rg = 0; rg < 2; ++rg) {
    for (int column = 0; column < 3; ++column) {
      ChunkWalk walk = WalkChunk(f, **bytes, rg, column);
      EXPECT_EQ(walk.int64_values,
                ExpectedValues(column, rg * kRowGroupRows, (rg + 1) * kRowGroupRows));
    }
  }
  // Messages name the file by its path.
  auto reader = ChunkReader(f, 1, 2);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_EQ((*reader)->context().ToString(),
            path + ": row group 1, column '" + f.schema.column(2).path + "'");
  EXPECT_EQ(f.schema.column(2).path.rfind("lst.", 0), 0u);
  std::filesystem::remove(path);
}

// Every read a fresh copy of the bytes (as io::ReadableFile's and a Python
// file object's reads are), not a slice of one buffer.
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

// `bytes` behind a RecordingFile, whose reads are slices of `bytes`, or
// copies when `copies`.
std::pair<std::shared_ptr<io::RandomAccessFile>, std::shared_ptr<RecordingFile>> Recorded(
    std::shared_ptr<Buffer> bytes, bool copies) {
  auto recording = std::make_shared<RecordingFile>(std::move(bytes));
  if (!copies) return {recording, recording};
  return {std::make_shared<CopyingFile>(recording), recording};
}

// Pages are read one at a time, never the whole chunk, and no byte twice:
// a header window, then for a body (or header) the window holds the start
// of, the bytes from the window's end to the body's end and up to 16 KiB
// after it (where the next header is). The reads follow one another over
// the chunk. Pages larger than the window (one read each) and smaller
// (headers and bodies cut off by the window's end), the reads slices of
// the file's buffer (a body spanning two reads is a slice too) or copies.
TEST(PageReader, ReadsPageByPage) {
  for (const int64_t page_rows : {4000, 1500, 300}) {  // pages of 32 KB, 12 KB, 2.4 KB
    for (const bool copies : {false, true}) {
      SCOPED_TRACE(std::to_string(page_rows) + (copies ? " rows a page, copied reads"
                                                       : " rows a page, sliced reads"));
      WriterOptions options = Options(CompressionCodec::UNCOMPRESSED, false, false);
      options.max_rows_per_page = page_rows;
      options.row_group_size = 100000;
      io::BufferOutputStream sink;
      auto schema = quiver::schema({field("x", int64(), false)});
      auto writer = FileWriter::Open(&sink, schema, options);
      ASSERT_TRUE(writer.ok());
      const int64_t n = 40000;
      auto batch = std::make_shared<RecordBatch>(
          schema, n,
          std::vector<ArrayDataPtr>{
              ArrayFromVector<int64_t>(int64(), Sequence<int64_t>(n, 5, 2))});
      ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
      ASSERT_TRUE((*writer)->Close().ok());
      auto bytes = *sink.Finish();
      auto [file, recording] = Recorded(bytes, copies);
      const OpenedFile f = Open(file);
      const size_t footer_reads = recording->reads().size();
      auto reader = ChunkReader(f, 0, 0);
      ASSERT_TRUE(reader.ok());
      std::vector<PageInfo> pages;
      std::vector<int64_t> values;
      bool values_in_file = true;
      auto decoder = MakeTypedDecoder<Int64Decoder>(format::Encoding::kPlain);
      ASSERT_TRUE(decoder.ok());
      while (true) {
        auto next = (*reader)->Next();
        ASSERT_TRUE(next.ok()) << next.status();
        if (!*next) break;
        pages.push_back((*reader)->info());
        const DataPage& p = (*reader)->data_page();
        values_in_file = values_in_file && std::less_equal<>()(bytes->data(), p.values.data()) &&
                         std::less_equal<>()(p.values.data() + p.values.size(),
                                             bytes->data() + bytes->size());
        ASSERT_TRUE((*decoder)->SetData(p.num_values, p.values.data(), p.values.size()).ok());
        std::vector<int64_t> v(static_cast<size_t>(p.num_values));
        ASSERT_TRUE((*decoder)->Decode(p.num_values, v.data()).ok());
        values.insert(values.end(), v.begin(), v.end());
      }
      EXPECT_EQ(values, Sequence<int64_t>(n, 5, 2));
      ASSERT_EQ(pages.size(), static_cast<size_t>((n + page_rows - 1) / page_rows));
      // Uncompressed pages of sliced reads are slices of the file's buffer.
      if (!copies) EXPECT_TRUE(values_in_file);
      auto reads = recording->reads();
      reads.erase(reads.begin(), reads.begin() + static_cast<long>(footer_reads));
      const ByteRange chunk = (*reader)->chunk_range();
      ASSERT_FALSE(reads.empty());
      EXPECT_EQ(reads[0].offset, chunk.offset);
      EXPECT_EQ(reads[0].length, 16 * 1024);
      for (size_t i = 1; i < reads.size(); ++i) EXPECT_EQ(reads[i].offset, reads[i - 1].end());
      EXPECT_EQ(reads.back().end(), chunk.end());
      if (page_rows == 4000) {
        // Every page larger than the window: one read a page, ending 16 KiB
        // after its body (or at the chunk's end).
        ASSERT_EQ(reads.size(), pages.size() + 1);
        for (size_t i = 0; i < pages.size(); ++i) {
          const int64_t body_end = pages[i].body_offset() + pages[i].header.compressed_page_size;
          EXPECT_EQ(reads[i + 1].end(), std::min(chunk.end(), body_end + 16 * 1024));
        }
      } else {
        // Several small pages a read.
        EXPECT_LE(reads.size(), pages.size() + 1);
      }
    }
  }
}

// Every readable file of parquet-testing and testdata/quiver walks the same
// pages as PageHeaderIterator, and its pages decompress (SNAPPY, GZIP,
// BROTLI, ZSTD, LZ4_RAW and Hadoop-framed LZ4 among them), with checksums
// verified. The files that fail are the ones `quiver inspect` reports
// problems in (python/tests/golden/cli/inspect), with the same message.
TEST(PageReader, ReadsTheTestFiles) {
  // File name -> the first error expected (the checksum files' CRCs are
  // corrupt on purpose; nation.dict-malformed's dictionary page is longer
  // than its chunk; column_chunk_key_value_metadata's empty chunks say
  // data_page_offset 0, before the data region).
  const std::map<std::string, std::string> failing = {
      {"datapage_v1-corrupt-checksum.parquet", "CRC mismatch"},
      {"rle-dict-uncompressed-corrupt-checksum.parquet", "CRC mismatch"},
      {"nation.dict-malformed.parquet",
       "column 'name', page 1 at offset 421: its 28 bytes run past the end of the column chunk "
       "(offset 451)"},
      {"column_chunk_key_value_metadata.parquet",
       "column 'column1': column chunk [0, +14) lies outside the data region [4, 155)"},
  };
  int files = 0;
  for (const char* dir : {"parquet-testing", "quiver"}) {
    for (const auto& entry : std::filesystem::directory_iterator(kTestData + "/" + dir)) {
      const std::string name = entry.path().filename().string();
      if (entry.path().extension() != ".parquet") continue;
      auto bytes = io::ReadFileToBuffer(entry.path().string());
      ASSERT_TRUE(bytes.ok());
      auto file = std::make_shared<io::BufferReader>(*bytes, name);
      auto footer = ReadFooter(*file);
      if (!footer.ok()) continue;  // encrypted
      auto schema = SchemaDescriptor::Make(footer->metadata.schema);
      // Hand-made schemas the descriptor refuses (VECTOR repetition, an
      // unknown physical type: schema_descriptor_files_test.cc).
      if (name == "compat_repetition_3.parquet" || name == "compat_physical_type_9.parquet") {
        ASSERT_FALSE(schema.ok()) << name;
        continue;
      }
      ASSERT_TRUE(schema.ok()) << name << ": " << schema.status();
      const OpenedFile f{file, std::move(*footer), std::move(*schema)};
      PageReaderOptions options;
      options.verify_checksums = true;
      Status first_error;
      for (size_t rg = 0; rg < f.footer.metadata.row_groups.size(); ++rg) {
        for (int c = 0; c < f.schema.num_columns(); ++c) {
          auto reader = ChunkReader(f, static_cast<int>(rg), c, options);
          if (!reader.ok()) {
            if (first_error.ok()) first_error = reader.status();
            continue;
          }
          int64_t values = 0;
          Result<bool> next = true;
          while ((next = (*reader)->Next()).ok() && *next) {
            if (!(*reader)->is_dictionary()) values += (*reader)->data_page().num_values;
          }
          if (!next.ok()) {
            if (first_error.ok()) first_error = next.status();
            continue;
          }
          const auto& meta =
              *f.footer.metadata.row_groups[rg].columns[static_cast<size_t>(c)].meta_data;
          EXPECT_EQ(values, meta.num_values) << name << " column " << c;
        }
      }
      auto expected = failing.find(name);
      if (expected != failing.end()) {
        EXPECT_TRUE(first_error.IsInvalid()) << name << ": " << first_error;
        EXPECT_EQ(first_error.message().rfind(name + ": row group 0, ", 0), 0u) << first_error;
        EXPECT_NE(first_error.message().find(expected->second), std::string::npos) << first_error;
      } else {
        EXPECT_TRUE(first_error.ok()) << name << ": " << first_error;
      }
      ++files;
    }
  }
  EXPECT_GT(files, 50);
}

// The corrupt-checksum files read when verification is off; on, the error
// names the file, row group, column and page.
TEST(PageReader, ChecksumsAreCheckedOnlyWhenAsked) {
  for (const char* name : {"datapage_v1-corrupt-checksum.parquet",
                           "rle-dict-uncompressed-corrupt-checksum.parquet"}) {
    auto bytes = io::ReadFileToBuffer(kTestData + "/parquet-testing/" + name);
    ASSERT_TRUE(bytes.ok());
    const OpenedFile f = Open(std::make_shared<io::BufferReader>(*bytes, "corrupt.parquet"));
    PageReaderOptions verify;
    verify.verify_checksums = true;
    int errors = 0;
    for (int c = 0; c < f.schema.num_columns(); ++c) {
      for (const bool on : {false, true}) {
        auto reader = ChunkReader(f, 0, c, on ? verify : PageReaderOptions{});
        ASSERT_TRUE(reader.ok());
        Result<bool> next = true;
        while ((next = (*reader)->Next()).ok() && *next) {
        }
        if (!on) {
          EXPECT_TRUE(next.ok()) << next.status();
        } else if (!next.ok()) {
          ++errors;
          EXPECT_TRUE(next.status().IsInvalid());
          const std::string prefix = "corrupt.parquet: row group 0, column '" +
                                     f.schema.column(c).path + "', page ";
          EXPECT_EQ(next.status().message().rfind(prefix, 0), 0u) << next.status();
          EXPECT_NE(next.status().message().find(": CRC mismatch: the header says 0x"),
                    std::string::npos)
              << next.status();
        }
      }
    }
    EXPECT_GT(errors, 0) << name;
  }
}

// ---------------------------------------------------------------------------
// Hand-made chunks

// A page as stored: its header and its body bytes.
struct RawPage {
  format::PageHeader header;
  std::string body;
};

// A header of `type` whose stored and uncompressed sizes are `size`.
format::PageHeader Header(format::PageType type, int64_t size) {
  format::PageHeader h;
  h.type = type;
  h.compressed_page_size = static_cast<int32_t>(size);
  h.uncompressed_page_size = static_cast<int32_t>(size);
  return h;
}

format::PageHeader V1Header(int32_t num_values, int64_t size) {
  format::PageHeader h = Header(format::PageType::kDataPage, size);
  h.data_page_header.emplace();
  h.data_page_header->num_values = num_values;
  h.data_page_header->encoding = format::Encoding::kPlain;
  h.data_page_header->definition_level_encoding = format::Encoding::kRle;
  h.data_page_header->repetition_level_encoding = format::Encoding::kRle;
  return h;
}

format::PageHeader V2Header(int32_t num_values, int64_t size, int32_t rep, int32_t def) {
  format::PageHeader h = Header(format::PageType::kDataPageV2, size);
  h.data_page_header_v2.emplace();
  h.data_page_header_v2->num_values = num_values;
  h.data_page_header_v2->num_rows = num_values;
  h.data_page_header_v2->encoding = format::Encoding::kPlain;
  h.data_page_header_v2->repetition_levels_byte_length = rep;
  h.data_page_header_v2->definition_levels_byte_length = def;
  return h;
}

format::PageHeader DictionaryHeader(int32_t num_values, int64_t size) {
  format::PageHeader h = Header(format::PageType::kDictionaryPage, size);
  h.dictionary_page_header.emplace();
  h.dictionary_page_header->num_values = num_values;
  h.dictionary_page_header->encoding = format::Encoding::kPlain;
  return h;
}

// PLAIN int64 values.
std::string Int64s(std::initializer_list<int64_t> values) {
  std::string out;
  for (int64_t v : values) out.append(reinterpret_cast<const char*>(&v), 8);
  return out;
}

RawPage Plain(std::initializer_list<int64_t> values) {
  std::string body = Int64s(values);
  return {V1Header(static_cast<int32_t>(values.size()), static_cast<int64_t>(body.size())), body};
}

std::string Compressed(CompressionCodec codec, const std::string& raw) {
  auto c = compression::Codec::Create(codec);
  EXPECT_TRUE(c.ok());
  const auto size = static_cast<int64_t>(raw.size());
  std::string out(static_cast<size_t>((*c)->MaxCompressedLength(size)), '\0');
  auto n = (*c)->Compress(reinterpret_cast<const uint8_t*>(raw.data()), size,
                          reinterpret_cast<uint8_t*>(out.data()), static_cast<int64_t>(out.size()));
  EXPECT_TRUE(n.ok());
  out.resize(static_cast<size_t>(*n));
  return out;
}

// "PAR1", then the pages: a column chunk at offset 4 with its metadata,
// read through io::BufferReader as "hostile.parquet", row group 2, column
// 'a.b' (INT64 with the given max levels).
struct HostileChunk {
  std::shared_ptr<io::BufferReader> file;
  format::ColumnMetaData meta;
  std::vector<int64_t> offsets;  // of each page's header
  ColumnDescriptor column;
  int64_t data_end = 0;
};

HostileChunk Chunk(const std::vector<RawPage>& pages,
                   format::CompressionCodec codec = format::CompressionCodec::kUncompressed,
                   int16_t max_def = 0, int16_t max_rep = 0) {
  HostileChunk c;
  std::string bytes = "PAR1";
  for (const RawPage& p : pages) {
    c.offsets.push_back(static_cast<int64_t>(bytes.size()));
    EXPECT_TRUE(thrift::SerializeThrift(p.header, &bytes).ok());
    bytes += p.body;
  }
  c.meta.type = format::Type::kInt64;
  c.meta.codec = codec;
  c.meta.path_in_schema = {"a", "b"};
  c.meta.data_page_offset = 4;
  // As many values as the pages may hold: the walk ends at the chunk's end
  // (ChunkEndsAfterNumValues tests the other end).
  c.meta.num_values = std::numeric_limits<int64_t>::max();
  c.meta.total_compressed_size = static_cast<int64_t>(bytes.size()) - 4;
  c.data_end = static_cast<int64_t>(bytes.size());
  c.file = std::make_shared<io::BufferReader>(Buffer::FromString(bytes), "hostile.parquet");
  c.column.path = "a.b";
  c.column.path_parts = {"a", "b"};
  c.column.physical_type = format::Type::kInt64;
  c.column.max_def = max_def;
  c.column.max_rep = max_rep;
  return c;
}

Result<std::unique_ptr<PageReader>> Reader(const HostileChunk& c,
                                           const PageReaderOptions& options = {}) {
  return PageReader::Make(c.file, c.meta, c.data_end, c.column, {"hostile.parquet", 2, "a.b"},
                          options);
}

// Reads the chunk to its end: the number of dictionary and data pages, or
// the first error.
Result<int> ReadPages(const HostileChunk& c, const PageReaderOptions& options = {}) {
  QUIVER_ASSIGN_OR_RAISE(auto reader, Reader(c, options));
  int pages = 0;
  while (true) {
    QUIVER_ASSIGN_OR_RAISE(bool more, reader->Next());
    if (!more) return pages;
    ++pages;
  }
}

std::string At(const HostileChunk& c, size_t page) {
  return "hostile.parquet: row group 2, column 'a.b', page " + std::to_string(page) +
         " at offset " + std::to_string(c.offsets[page]) + ": ";
}

// The chunk's first error is Invalid with exactly `message`.
void ExpectError(const HostileChunk& c, const std::string& message,
                 const PageReaderOptions& options = {}) {
  auto r = ReadPages(c, options);
  ASSERT_FALSE(r.ok()) << message;
  EXPECT_TRUE(r.status().IsInvalid()) << r.status();
  EXPECT_EQ(r.status().message(), message);
}

TEST(PageReaderHostile, GoodPagesRead) {
  auto c = Chunk({Plain({1, 2, 3}), Plain({4})});
  auto reader = Reader(c);
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_EQ((*reader)->data_page().num_values, 3);
  EXPECT_EQ((*reader)->data_page().values.size(), 24u);
  EXPECT_EQ((*reader)->info().offset, 4);
  EXPECT_EQ((*reader)->PageError("too many values").message(),
            At(c, 0) + "too many values");
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_EQ((*reader)->info().index, 1);
  EXPECT_EQ((*reader)->PageError("x").message(), At(c, 1) + "x");
  EXPECT_FALSE(*(*reader)->Next());
  EXPECT_EQ((*reader)->context().column_path, "a.b");
}

TEST(PageReaderHostile, HeadersThatDoNotDecode) {
  RawPage garbage{V1Header(1, 8), Int64s({1})};
  auto c = Chunk({Plain({1}), garbage});
  // Replace page 1's header by bytes that are no Thrift struct.
  std::string bytes(c.file->buffer()->view());
  const auto at = static_cast<size_t>(c.offsets[1]);
  std::fill(bytes.begin() + static_cast<long>(at), bytes.end(), '\xff');
  c.file = std::make_shared<io::BufferReader>(Buffer::FromString(bytes), "hostile.parquet");
  auto r = ReadPages(c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind(At(c, 1) + "cannot decode the page header: thrift: ", 0),
            0u)
      << r.status();
  // A header cut off by the chunk's end.
  auto cut = Chunk({Plain({1}), Plain({2})});
  cut.meta.total_compressed_size = cut.offsets[1] - 4 + 3;
  auto t = ReadPages(cut);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message().rfind(At(cut, 1) + "cannot decode the page header", 0), 0u)
      << t.status();
}

TEST(PageReaderHostile, SizesNegativeOrPastTheChunk) {
  RawPage negative = Plain({1});
  negative.header.compressed_page_size = -1;
  ExpectError(Chunk({negative}), At(Chunk({negative}), 0) +
                                     "negative page size (-1 compressed, 8 uncompressed)");
  RawPage negative_u = Plain({1});
  negative_u.header.uncompressed_page_size = -5;
  auto c = Chunk({Plain({7}), negative_u});
  ExpectError(c, At(c, 1) + "negative page size (8 compressed, -5 uncompressed)");
  RawPage past = Plain({1});
  past.header.compressed_page_size = 9;
  c = Chunk({past});
  ExpectError(c, At(c, 0) + "its 9 bytes run past the end of the column chunk (offset " +
                     std::to_string(c.data_end) + ")");
}

TEST(PageReaderHostile, DictionaryPages) {
  const std::string dict = Int64s({10, 20});
  RawPage d{DictionaryHeader(2, 16), dict};
  // Good: first, once.
  auto good = Chunk({d, Plain({1})});
  auto reader = Reader(good);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->Next());
  ASSERT_TRUE((*reader)->is_dictionary());
  EXPECT_EQ((*reader)->dictionary_page().num_values, 2);
  EXPECT_EQ((*reader)->dictionary_page().encoding, format::Encoding::kPlain);
  const auto entries = (*reader)->dictionary_page().data;
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(entries.data()), entries.size()), dict);
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_FALSE((*reader)->is_dictionary());
  // Twice; after a data page.
  auto twice = Chunk({d, d});
  ExpectError(twice, At(twice, 1) + "a second dictionary page in the column chunk");
  auto late = Chunk({Plain({1}), d});
  ExpectError(late, At(late, 1) + "a dictionary page that is not the column chunk's first page");
  // Negative count, other encodings, a missing header struct.
  RawPage negative = d;
  negative.header.dictionary_page_header->num_values = -1;
  auto c = Chunk({negative});
  ExpectError(c, At(c, 0) + "negative num_values -1");
  RawPage rle = d;
  rle.header.dictionary_page_header->encoding = format::Encoding::kRleDictionary;
  c = Chunk({rle});
  ExpectError(c, At(c, 0) +
                     "dictionary page encoding RLE_DICTIONARY is not PLAIN or PLAIN_DICTIONARY");
  RawPage plain_dictionary = d;
  plain_dictionary.header.dictionary_page_header->encoding = format::Encoding::kPlainDictionary;
  EXPECT_TRUE(ReadPages(Chunk({plain_dictionary})).ok());
  RawPage bare = d;
  bare.header.dictionary_page_header.reset();
  c = Chunk({bare});
  ExpectError(c, At(c, 0) + "DICTIONARY_PAGE without a dictionary_page_header");
}

TEST(PageReaderHostile, DataPageCountsAndHeaders) {
  RawPage v1 = Plain({1});
  v1.header.data_page_header->num_values = -3;
  auto c = Chunk({v1});
  ExpectError(c, At(c, 0) + "negative num_values -3");
  RawPage bare = Plain({1});
  bare.header.data_page_header.reset();
  c = Chunk({bare});
  ExpectError(c, At(c, 0) + "DATA_PAGE without a data_page_header");
  RawPage v2{V2Header(1, 8, 0, 0), Int64s({1})};
  EXPECT_TRUE(ReadPages(Chunk({v2})).ok());
  RawPage v2_negative = v2;
  v2_negative.header.data_page_header_v2->num_values = -1;
  c = Chunk({v2_negative});
  ExpectError(c, At(c, 0) + "negative counts (num_values -1, num_nulls 0, num_rows 1)");
  v2_negative = v2;
  v2_negative.header.data_page_header_v2->num_nulls = -2;
  c = Chunk({v2_negative});
  ExpectError(c, At(c, 0) + "negative counts (num_values 1, num_nulls -2, num_rows 1)");
  RawPage v2_bare = v2;
  v2_bare.header.data_page_header_v2.reset();
  c = Chunk({v2_bare});
  ExpectError(c, At(c, 0) + "DATA_PAGE_V2 without a data_page_header_v2");
}

// Index pages and unknown page types are skipped, and counted in the pages'
// indices.
TEST(PageReaderHostile, SkipsIndexAndUnknownPages) {
  RawPage index{Header(format::PageType::kIndexPage, 5), "index"};
  RawPage unknown{Header(static_cast<format::PageType>(9), 3), "???"};
  auto c = Chunk({index, Plain({1}), unknown, Plain({2, 3})});
  auto reader = Reader(c);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_EQ((*reader)->info().index, 1);
  EXPECT_EQ((*reader)->info().offset, c.offsets[1]);
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_EQ((*reader)->info().index, 3);
  EXPECT_EQ((*reader)->data_page().num_values, 2);
  EXPECT_FALSE(*(*reader)->Next());
  // A chunk of nothing but skipped pages has no pages to give.
  auto only = Chunk({index});
  auto r = ReadPages(only);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 0);
}

// Once the data pages have given the chunk's num_values levels the chunk
// ends, whatever bytes follow (as Arrow C++; old parquet-mr chunks run into
// the next chunk once padded for PARQUET-816).
TEST(PageReaderHostile, ChunkEndsAfterNumValues) {
  auto c = Chunk({Plain({1}), Plain({2, 3}), RawPage{Header(format::PageType::kDataPage, 4), "junk"}});
  c.meta.num_values = 3;
  auto reader = Reader(c);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->Next());
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_EQ((*reader)->data_page().num_values, 2);
  auto end = (*reader)->Next();
  ASSERT_TRUE(end.ok()) << end.status();
  EXPECT_FALSE(*end);
}

// v1: [rep][def][values], each level section RLE with a length prefix or
// BIT_PACKED; a section longer than the page is refused.
TEST(PageReaderHostile, V1LevelSections) {
  // max_rep 1, max_def 2: rep RLE (prefix 2, then a run of 4 ones), def
  // BIT_PACKED (4 levels of 2 bits: 2, 3, 1, 0).
  const std::string rep("\x02\x00\x00\x00\x08\x01", 6);
  const std::string def = "\xb4";
  const std::string values = Int64s({5, 6});
  RawPage page{V1Header(4, static_cast<int64_t>(rep.size() + def.size() + values.size())),
               rep + def + values};
  page.header.data_page_header->definition_level_encoding = format::Encoding::kBitPacked;
  auto c = Chunk({page}, format::CompressionCodec::kUncompressed, 2, 1);
  auto reader = Reader(c);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->Next());
  const DataPage& p = (*reader)->data_page();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p.rep_levels.data()), p.rep_levels.size()),
            rep.substr(4));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p.def_levels.data()), p.def_levels.size()),
            def);
  EXPECT_EQ(p.values.size(), 16u);
  EXPECT_EQ(p.def_level_encoding, format::Encoding::kBitPacked);
  // A length prefix longer than the page.
  RawPage long_rep = page;
  long_rep.body[0] = 100;
  c = Chunk({long_rep}, format::CompressionCodec::kUncompressed, 2, 1);
  ExpectError(c, At(c, 0) +
                     "repetition levels: RLE/bit-packed data: length prefix says 100 bytes but "
                     "only 19 follow it");
  // A BIT_PACKED section longer than the page: 100 levels of 2 bits.
  RawPage long_def{V1Header(100, 7), rep + "x"};
  long_def.header.data_page_header->definition_level_encoding = format::Encoding::kBitPacked;
  c = Chunk({long_def}, format::CompressionCodec::kUncompressed, 2, 1);
  ExpectError(c, At(c, 0) +
                     "definition levels: BIT_PACKED levels: 100 levels of 2 bits need 25 bytes "
                     "but only 1 remain");
  // A level encoding that is neither.
  RawPage plain_levels = page;
  plain_levels.header.data_page_header->repetition_level_encoding = format::Encoding::kPlain;
  c = Chunk({plain_levels}, format::CompressionCodec::kUncompressed, 2, 1);
  ExpectError(c, At(c, 0) + "repetition levels: level encoding PLAIN is not RLE or BIT_PACKED");
  // Max levels 0: no sections, whatever encodings the header names.
  RawPage flat = Plain({1});
  flat.header.data_page_header->repetition_level_encoding = format::Encoding::kBitPacked;
  EXPECT_TRUE(ReadPages(Chunk({flat})).ok());
}

TEST(PageReaderHostile, V2LevelLengths) {
  const std::string body = std::string("\x02\x01", 2) + std::string("\x02\x01", 2) + Int64s({9});
  RawPage good{V2Header(1, 12, 2, 2), body};
  auto c = Chunk({good}, format::CompressionCodec::kUncompressed, 1, 1);
  auto reader = Reader(c);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_EQ((*reader)->data_page().rep_levels.size(), 2u);
  EXPECT_EQ((*reader)->data_page().def_levels.size(), 2u);
  EXPECT_EQ((*reader)->data_page().values.size(), 8u);
  EXPECT_EQ((*reader)->data_page().num_rows, std::optional<int32_t>(1));

  RawPage negative = good;
  negative.header.data_page_header_v2->repetition_levels_byte_length = -1;
  c = Chunk({negative}, format::CompressionCodec::kUncompressed, 1, 1);
  ExpectError(c, At(c, 0) + "negative level section lengths (repetition -1, definition 2)");
  RawPage too_long = good;
  too_long.header.data_page_header_v2->definition_levels_byte_length = 11;
  c = Chunk({too_long}, format::CompressionCodec::kUncompressed, 1, 1);
  ExpectError(c, At(c, 0) +
                     "level sections of 2 + 11 bytes are longer than the page (12 bytes stored, "
                     "12 uncompressed)");
  // Longer than the uncompressed page only (the stored page is longer).
  const std::string values = Compressed(CompressionCodec::SNAPPY, Int64s({9}));
  RawPage snappy{V2Header(1, static_cast<int64_t>(4 + values.size()), 2, 2),
                 body.substr(0, 4) + values};
  snappy.header.uncompressed_page_size = 3;
  c = Chunk({snappy}, format::CompressionCodec::kSnappy, 1, 1);
  ExpectError(c, At(c, 0) + "level sections of 2 + 2 bytes are longer than the page (" +
                     std::to_string(4 + values.size()) + " bytes stored, 3 uncompressed)");
  // The same page, well formed, decompresses its values only.
  snappy.header.uncompressed_page_size = 12;
  c = Chunk({snappy}, format::CompressionCodec::kSnappy, 1, 1);
  reader = Reader(c);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>((*reader)->data_page().values.data()), 8),
            Int64s({9}));
  // is_compressed = false: the values are as stored, and both sizes must agree.
  RawPage stored = good;
  stored.header.data_page_header_v2->is_compressed = false;
  c = Chunk({stored}, format::CompressionCodec::kSnappy, 1, 1);
  reader = Reader(c);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->Next());
  EXPECT_EQ((*reader)->data_page().values.size(), 8u);
  stored.header.uncompressed_page_size = 13;
  c = Chunk({stored}, format::CompressionCodec::kSnappy, 1, 1);
  ExpectError(c, At(c, 0) + "is_compressed is false but the page's 12 stored bytes are not its 13 "
                            "uncompressed bytes");
}

// Bodies that are not what the header says.
TEST(PageReaderHostile, SizesThatDisagreeWithTheBody) {
  // UNCOMPRESSED chunk: stored and uncompressed sizes must agree.
  RawPage page = Plain({1, 2});
  page.header.uncompressed_page_size = 15;
  auto c = Chunk({page});
  ExpectError(c, At(c, 0) + "the page is not compressed (UNCOMPRESSED) but its 16 stored bytes "
                            "are not its 15 uncompressed bytes");
  // SNAPPY states its own length: refused before decompressing.
  const std::string raw = Int64s({1, 2, 3, 4});
  const std::string snappy = Compressed(CompressionCodec::SNAPPY, raw);
  RawPage s{V1Header(4, static_cast<int64_t>(snappy.size())), snappy};
  s.header.uncompressed_page_size = 31;
  c = Chunk({s}, format::CompressionCodec::kSnappy);
  ExpectError(c, At(c, 0) + "SNAPPY data states 32 uncompressed bytes but the page header says 31");
  s.header.uncompressed_page_size = 32;
  EXPECT_TRUE(ReadPages(Chunk({s}, format::CompressionCodec::kSnappy)).ok());
  // GZIP does not: the codec finds out while decompressing.
  const std::string gzip = Compressed(CompressionCodec::GZIP, raw);
  RawPage g{V1Header(4, static_cast<int64_t>(gzip.size())), gzip};
  g.header.uncompressed_page_size = 33;
  c = Chunk({g}, format::CompressionCodec::kGzip);
  auto r = ReadPages(c);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_EQ(r.status().message().rfind(At(c, 0) + "GZIP decompression", 0), 0u) << r.status();
  // Corrupt compressed data.
  RawPage corrupt = s;
  corrupt.body = std::string(corrupt.body.size(), '\xff');
  c = Chunk({corrupt}, format::CompressionCodec::kSnappy);
  ExpectError(c, At(c, 0) + "SNAPPY data: corrupt block header (" +
                     std::to_string(corrupt.body.size()) + " input bytes)");
}

// A 13-byte ZSTD frame stating 4 GiB, under a header that says 1 MB, and
// one stating what the header says but decompressing to nothing: neither
// allocates the stated size.
TEST(PageReaderHostile, DecompressionBombs) {
  CappedMemoryPool pool(DefaultMemoryPool(), 1 << 16);
  PageReaderOptions options;
  options.pool = &pool;
  const std::string bomb("\x28\xb5\x2f\xfd\xe0\x00\x00\x00\x00\x01\x00\x00\x00", 13);
  RawPage page{V1Header(1, 13), bomb};
  page.header.uncompressed_page_size = 1 << 20;
  auto c = Chunk({page}, format::CompressionCodec::kZstd);
  ExpectError(c, At(c, 0) + "ZSTD data states 4294967296 uncompressed bytes but the page header "
                            "says 1048576",
              options);
  EXPECT_EQ(pool.num_allocations(), 0);
  // A size the pool cannot give: refused with the pool's error, naming the page.
  const std::string frame("\x28\xb5\x2f\xfd\xe0\x00\x00\x00\x10\x00\x00\x00\x00", 13);  // 256 MiB
  RawPage big{V1Header(1, 13), frame};
  big.header.uncompressed_page_size = 1 << 28;
  c = Chunk({big}, format::CompressionCodec::kZstd);
  auto r = ReadPages(c, options);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsOutOfMemory()) << r.status();
  EXPECT_EQ(r.status().message().rfind(
                At(c, 0) + "cannot allocate the page's 268435456 uncompressed bytes: ", 0),
            0u)
      << r.status();
  EXPECT_EQ(pool.bytes_allocated(), 0);
  // Without a stated size (GZIP), the pool's refusal is the limit.
  RawPage g{V1Header(1, 20), std::string(20, 'g')};
  g.header.uncompressed_page_size = 1 << 30;
  c = Chunk({g}, format::CompressionCodec::kGzip);
  r = ReadPages(c, options);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsOutOfMemory()) << r.status();
  // Within the limit, the buffer is reused and sized to the largest page.
  const std::string small = Compressed(CompressionCodec::ZSTD, Int64s({1, 2}));
  std::string hundred;
  for (int64_t i = 0; i < 100; ++i) hundred.append(reinterpret_cast<const char*>(&i), 8);
  const std::string larger = Compressed(CompressionCodec::ZSTD, hundred);
  RawPage p1{V1Header(2, static_cast<int64_t>(small.size())), small};
  p1.header.uncompressed_page_size = 16;
  RawPage p2{V1Header(100, static_cast<int64_t>(larger.size())), larger};
  p2.header.uncompressed_page_size = 800;
  c = Chunk({p1, p2, p1}, format::CompressionCodec::kZstd);
  auto pages = ReadPages(c, options);
  ASSERT_TRUE(pages.ok()) << pages.status();
  EXPECT_EQ(*pages, 3);
  EXPECT_EQ(pool.bytes_allocated(), 0);  // freed with the reader
  EXPECT_EQ(pool.num_allocations(), 2);  // 16 bytes (64 with rounding), then 800
  EXPECT_EQ(pool.max_memory(), 832);     // the first buffer freed before the second
}

TEST(PageReaderHostile, Checksums) {
  RawPage page = Plain({1, 2, 3});
  const uint32_t crc = Crc32(reinterpret_cast<const uint8_t*>(page.body.data()),
                             static_cast<int64_t>(page.body.size()));
  page.header.crc = static_cast<int32_t>(crc);
  PageReaderOptions verify;
  verify.verify_checksums = true;
  EXPECT_TRUE(ReadPages(Chunk({page}), verify).ok());
  RawPage corrupt = page;
  corrupt.body[5] ^= 0x10;
  auto c = Chunk({Plain({0}), corrupt});
  const uint32_t bad = Crc32(reinterpret_cast<const uint8_t*>(corrupt.body.data()),
                             static_cast<int64_t>(corrupt.body.size()));
  char expected[128];
  std::snprintf(expected, sizeof(expected),
                "CRC mismatch: the header says 0x%08x, the page's 24 bytes give 0x%08x", crc, bad);
  ExpectError(c, At(c, 1) + expected, verify);
  // Not verified unless asked.
  EXPECT_TRUE(ReadPages(c).ok());
}

// A header longer than the first window (large statistics) is read by
// growing the window, up to the chunk's end, each time from the window's end
// on (slices of the file's buffer, or copies joined).
TEST(PageReaderHostile, HeadersLongerThanTheWindow) {
  RawPage page = Plain({1, 2});
  format::Statistics stats;
  stats.min_value = std::string(40000, 'a');
  stats.max_value = std::string(40000, 'z');
  page.header.data_page_header->statistics = stats;
  auto c = Chunk({Plain({0}), page, Plain({3})});
  for (const bool copies : {false, true}) {
    SCOPED_TRACE(copies ? "copied reads" : "sliced reads");
    auto [file, recording] = Recorded(c.file->buffer(), copies);
    auto reader = PageReader::Make(file, c.meta, c.data_end, c.column,
                                   {"hostile.parquet", 2, "a.b"});
    ASSERT_TRUE(reader.ok());
    ASSERT_TRUE(*(*reader)->Next());
    ASSERT_TRUE(*(*reader)->Next());
    ASSERT_NE((*reader)->data_page().statistics, nullptr);
    EXPECT_EQ((*reader)->data_page().statistics->min_value, stats.min_value);
    EXPECT_EQ((*reader)->data_page().statistics->max_value, stats.max_value);
    EXPECT_EQ((*reader)->info().header_size, c.offsets[2] - c.offsets[1] - 16);
    auto values = MakeTypedDecoder<Int64Decoder>(format::Encoding::kPlain);
    ASSERT_TRUE(values.ok());
    const DataPage& p = (*reader)->data_page();
    ASSERT_TRUE((*values)->SetData(p.num_values, p.values.data(), p.values.size()).ok());
    std::vector<int64_t> v(2);
    ASSERT_TRUE((*values)->Decode(2, v.data()).ok());
    EXPECT_EQ(v, (std::vector<int64_t>{1, 2}));
    ASSERT_TRUE(*(*reader)->Next());
    EXPECT_FALSE(*(*reader)->Next());
    // A window of 16 KiB (holding page 0 and the start of page 1's header,
    // `cut` bytes of it), then page 1's header grown to 2 * cut, 4 * cut
    // bytes, then the rest of the chunk: each read from the last one's end.
    auto reads = recording->reads();
    ASSERT_EQ(reads.size(), 4u);
    EXPECT_EQ(reads[0].offset, 4);
    EXPECT_EQ(reads[0].length, 16 * 1024);
    const int64_t cut = reads[0].end() - c.offsets[1];
    ASSERT_GT(2 * cut, 16 * 1024);
    for (size_t i = 1; i < 4; ++i) EXPECT_EQ(reads[i].offset, reads[i - 1].end());
    EXPECT_EQ(reads[1].end(), c.offsets[1] + 2 * cut);
    EXPECT_EQ(reads[2].end(), c.offsets[1] + 4 * cut);
    EXPECT_EQ(reads[3].end(), c.data_end);
  }
}

TEST(PageReaderHostile, ChunkAndCodecRefusedAtMake) {
  auto c = Chunk({Plain({1})});
  c.meta.total_compressed_size = c.data_end;  // past the data region
  auto r = Reader(c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "hostile.parquet: row group 2, column 'a.b': column chunk [4, +" +
                std::to_string(c.data_end) + ") lies outside the data region [4, " +
                std::to_string(c.data_end) + ")");
  c = Chunk({Plain({1})}, format::CompressionCodec::kLzo);
  r = Reader(c);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotImplemented());
  EXPECT_EQ(r.status().message().rfind("hostile.parquet: row group 2, column 'a.b': LZO", 0), 0u)
      << r.status();
  c = Chunk({Plain({1})}, static_cast<format::CompressionCodec>(42));
  EXPECT_FALSE(Reader(c).ok());
}

// Errors stick, and I/O errors keep their code under the page's prefix.
TEST(PageReaderHostile, ErrorsAreFinalAndIOErrorsKeepTheirCode) {
  RawPage bad = Plain({1});
  bad.header.data_page_header->num_values = -1;
  auto c = Chunk({Plain({1}), bad, Plain({2})});
  auto reader = Reader(c);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(*(*reader)->Next());
  auto first = (*reader)->Next();
  ASSERT_FALSE(first.ok());
  auto second = (*reader)->Next();
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(first.status(), second.status());
  // The file is shorter than the footer said.
  auto shorter = Chunk({Plain({1}), Plain({2})});
  const std::string bytes(shorter.file->buffer()->view());
  shorter.file = std::make_shared<io::BufferReader>(
      Buffer::FromString(bytes.substr(0, static_cast<size_t>(shorter.offsets[1]) + 2)),
      "hostile.parquet");
  auto r = ReadPages(shorter);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsIOError()) << r.status();
  // (The first window is the whole small chunk, so page 0 fails.)
  EXPECT_EQ(r.status().message().rfind(At(shorter, 0), 0), 0u) << r.status();
  EXPECT_NE(r.status().message().find("read past the end"), std::string::npos) << r.status();
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
