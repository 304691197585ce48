#include "quiver/io/memory.h"
#include "quiver/parquet/writer/file_writer.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/parquet/writer/test_util_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/writer/column_writer_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using namespace ::quiver::testutil;  // NOLINT

using testing::ReadAll;
using testing::TempDir;

RecordBatchPtr SmallBatch(bool with_null_in_required = false) {
  auto schema = quiver::schema({field("a", int32(), false), field("s", utf8())});
  auto a = ArrayFromVector<int32_t>(int32(), {1, 2, 3},
                                    with_null_in_required ? std::vector<bool>{true, false, true}
                                                          : std::vector<bool>{});
  auto s = StringArrayFromVector({"x", "", "zz"}, {true, false, true});
  return std::make_shared<RecordBatch>(schema, 3, std::vector<ArrayDataPtr>{a, s});
}

TEST(FileWriter, WritesThroughATemporaryFileAndRenames) {
  TempDir dir;
  const std::string path = dir.path() + "/out.parquet";
  auto batch = SmallBatch();
  auto writer = FileWriter::Open(path, batch->schema());
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
  // Before Close: only a hidden temporary file, nothing at the destination.
  auto files = dir.Files();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].rfind(".out.parquet.quiver-", 0), 0u) << files[0];
  ASSERT_TRUE((*writer)->Close().ok());
  files = dir.Files();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0], "out.parquet");

  const std::string bytes = ReadAll(path);
  ASSERT_GT(bytes.size(), 12u);
  EXPECT_EQ(bytes.substr(0, 4), "PAR1");
  EXPECT_EQ(bytes.substr(bytes.size() - 4), "PAR1");
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  auto md = thrift::DeserializeThrift<format::FileMetaData>(
      reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8 - footer_len, footer_len);
  ASSERT_TRUE(md.ok()) << md.status();
  EXPECT_EQ(md->num_rows, 3);
  ASSERT_EQ(md->row_groups.size(), 1u);
  ASSERT_EQ(md->schema.size(), 3u);  // root + 2 leaves
  EXPECT_EQ(md->schema[1].repetition_type, format::FieldRepetitionType::kRequired);
  EXPECT_EQ(md->schema[2].repetition_type, format::FieldRepetitionType::kOptional);
  const auto& s_meta = *md->row_groups[0].columns[1].meta_data;
  EXPECT_EQ(*s_meta.statistics->null_count, 1);
  EXPECT_EQ(*s_meta.statistics->min_value, "x");
  EXPECT_EQ(*s_meta.statistics->max_value, "zz");
  ASSERT_TRUE(md->key_value_metadata.has_value());
  EXPECT_EQ(md->key_value_metadata->back().key, "ARROW:schema");
  EXPECT_TRUE(md->row_groups[0].columns[0].offset_index_offset.has_value());
}

TEST(FileWriter, FailedWriteLeavesNothing) {
  TempDir dir;
  const std::string path = dir.path() + "/bad.parquet";
  auto bad = SmallBatch(/*with_null_in_required=*/true);
  auto writer = FileWriter::Open(path, bad->schema());
  ASSERT_TRUE(writer.ok());
  Status st = (*writer)->WriteRecordBatch(*bad);
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("'a' is not nullable"), std::string::npos) << st;
  // Later writes refuse; Close reports the first error; nothing is left.
  EXPECT_TRUE((*writer)->WriteRecordBatch(*SmallBatch()).IsInvalid());
  Status closed = (*writer)->Close();
  EXPECT_TRUE(closed.IsInvalid());
  EXPECT_TRUE(dir.Files().empty());
  EXPECT_TRUE((*writer)->WriteRecordBatch(*SmallBatch()).IsInvalid());
}

TEST(FileWriter, AbandonedWriterRemovesItsTemporaryFile) {
  TempDir dir;
  {
    auto batch = SmallBatch();
    auto writer = FileWriter::Open(dir.path() + "/x.parquet", batch->schema());
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
    EXPECT_EQ(dir.Files().size(), 1u);
  }
  EXPECT_TRUE(dir.Files().empty());
}

TEST(FileWriter, SchemaMismatchAndBadOptions) {
  TempDir dir;
  auto batch = SmallBatch();
  auto other = quiver::schema({field("a", int64())});
  auto writer = FileWriter::Open(dir.path() + "/m.parquet", other);
  ASSERT_TRUE(writer.ok());
  Status st = (*writer)->WriteRecordBatch(*batch);
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("schema differs"), std::string::npos);

  WriterOptions options;
  options.data_page_size = 0;
  auto bad = FileWriter::Open(dir.path() + "/o.parquet", batch->schema(), options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("data_page_size"), std::string::npos);
  options = WriterOptions();
  options.content_defined_chunking = CdcOptions{100, 50, 0};
  bad = FileWriter::Open(dir.path() + "/o.parquet", batch->schema(), options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("max_chunk_size"), std::string::npos);
  (*writer).reset();  // the failed writer is abandoned: its temporary file goes
  EXPECT_TRUE(dir.Files().empty());
}

TEST(FileWriter, RowGroupsBoundedByRows) {
  TempDir dir;
  auto batch = SmallBatch();
  WriterOptions options;
  options.row_group_size = 2;
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, batch->schema(), options);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
  EXPECT_TRUE((*writer)->metadata().status().IsInvalid());  // known after Close()
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ((*writer)->num_row_groups(), 3);
  auto footer = (*writer)->metadata();
  ASSERT_TRUE(footer.ok()) << footer.status();
  EXPECT_EQ((*footer)->num_row_groups(), 3);
  EXPECT_EQ((*footer)->num_rows(), 6);
  EXPECT_EQ((*(*footer)->row_group(0)).num_rows(), 2);
  EXPECT_EQ((*(*footer)->row_group(2)).num_rows(), 2);
  EXPECT_EQ((*(*footer)->row_group(2)).ordinal(), 2);
  std::string encoded;
  ASSERT_TRUE(thrift::SerializeThrift(ThriftOf(**footer), &encoded).ok());
  EXPECT_EQ((*footer)->serialized_size(), static_cast<int64_t>(encoded.size()));
  EXPECT_EQ((*writer)->num_rows(), 6);
}

// A sink that records, at each Flush(), how many bytes it holds.
class FlushRecorder final : public io::OutputStream {
 public:
  Status Write(const void* data, int64_t nbytes) override { return inner_.Write(data, nbytes); }
  Status Flush() override {
    flushed_at_.push_back(*inner_.Tell());
    return fail_flush_ ? Status::IOError("flush refused") : Status::OK();
  }
  Result<int64_t> Tell() const override { return inner_.Tell(); }
  Status Close() override { return inner_.Close(); }
  bool closed() const override { return inner_.closed(); }
  const std::vector<int64_t>& flushed_at() const { return flushed_at_; }
  void fail_flush() { fail_flush_ = true; }

 private:
  io::BufferOutputStream inner_;
  std::vector<int64_t> flushed_at_;
  bool fail_flush_ = false;
};

TEST(FileWriter, SinkIsFlushedAfterEachRowGroup) {
  // The sink hears of each finished row group (a Python file object then
  // gets it), with Tell() at the row group's end; a failing Flush fails the
  // writer.
  auto batch = SmallBatch();
  auto table = *Table::FromRecordBatches(batch->schema(), {batch, batch, batch});
  for (bool threads : {false, true}) {
    FlushRecorder sink;
    WriterOptions options;
    options.use_threads = threads;
    auto writer = *FileWriter::Open(&sink, batch->schema(), options);
    EXPECT_EQ(writer->Tell(), 4);  // the magic
    ASSERT_TRUE(writer->WriteTable(*table, /*row_group_size=*/4).ok());
    ASSERT_EQ(sink.flushed_at().size(), 3u);  // 4 + 4 + 1 rows
    EXPECT_EQ(writer->Tell(), sink.flushed_at().back());
    ASSERT_TRUE(writer->WriteRecordBatch(*batch).ok());  // an open row group: not flushed
    EXPECT_EQ(sink.flushed_at().size(), 3u);
    ASSERT_TRUE(writer->Close().ok());
    ASSERT_EQ(sink.flushed_at().size(), 4u);
    std::vector<int64_t> ends;
    for (const auto& rg : ThriftOf(*writer->metadata().ValueOrDie()).row_groups) {
      ends.push_back(*rg.file_offset + *rg.total_compressed_size);
    }
    EXPECT_EQ(ends, sink.flushed_at());
    EXPECT_EQ(writer->Tell(), *sink.Tell());
    EXPECT_EQ(writer->num_row_groups(), 4);
    EXPECT_EQ(ThriftOf(*writer->metadata().ValueOrDie()).row_groups[0].num_rows, 4);
    EXPECT_EQ(ThriftOf(*writer->metadata().ValueOrDie()).row_groups[2].num_rows, 1);
  }
  FlushRecorder refusing;
  refusing.fail_flush();
  auto writer = *FileWriter::Open(&refusing, batch->schema());
  Status st = writer->WriteTable(*table);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("flush refused"), std::string::npos) << st;
  EXPECT_FALSE(writer->WriteRecordBatch(*batch).ok());  // failed for good
}

TEST(FileWriter, WriteTableRowGroupSizeForOneCall) {
  auto batch = SmallBatch();
  auto table = *Table::FromRecordBatches(batch->schema(), {batch, batch});
  io::BufferOutputStream sink;
  WriterOptions options;
  options.row_group_size = 5;
  auto writer = *FileWriter::Open(&sink, batch->schema(), options);
  ASSERT_TRUE(writer->WriteTable(*table, 2).ok());   // 2 + 2 + 2
  ASSERT_TRUE(writer->WriteTable(*table, 100).ok());  // 6: more than the option's 5
  ASSERT_TRUE(writer->WriteTable(*table).ok());       // 5 + 1
  EXPECT_FALSE(writer->WriteTable(*table, 0).ok());
  EXPECT_FALSE(writer->WriteTable(*table, -3).ok());
  ASSERT_TRUE(writer->Close().ok());
  std::vector<int64_t> rows;
  for (const auto& rg : ThriftOf(*writer->metadata().ValueOrDie()).row_groups) rows.push_back(rg.num_rows);
  EXPECT_EQ(rows, (std::vector<int64_t>{2, 2, 2, 6, 5, 1}));
  // Not with byte-bounded row groups.
  io::BufferOutputStream other;
  options.row_group_bytes = 1 << 20;
  auto bytes_writer = *FileWriter::Open(&other, batch->schema(), options);
  Status st = bytes_writer->WriteTable(*table, 2);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("row_group_bytes"), std::string::npos) << st;
}

TEST(FileWriter, FsyncOptionWritesTheSameFile) {
  TempDir dir;
  auto batch = SmallBatch();
  std::string bytes[2];
  for (bool fsync : {true, false}) {
    WriterOptions options;
    options.fsync = fsync;
    const std::string path = dir.path() + (fsync ? "/durable.parquet" : "/scratch.parquet");
    auto writer = *FileWriter::Open(path, batch->schema(), options);
    ASSERT_TRUE(writer->WriteRecordBatch(*batch).ok());
    ASSERT_TRUE(writer->Close().ok());
    bytes[fsync] = ReadAll(path);
    EXPECT_EQ(writer->Tell(), static_cast<int64_t>(bytes[fsync].size()));
  }
  EXPECT_EQ(bytes[0], bytes[1]);
  EXPECT_EQ(dir.Files().size(), 2u);
}

// (page type, encoding, count) of column 0 of each row group.
std::vector<std::tuple<format::PageType, format::Encoding, int32_t>> EncodingStats(
    const FileWriter& writer) {
  std::vector<std::tuple<format::PageType, format::Encoding, int32_t>> out;
  for (const auto& rg : ThriftOf(*writer.metadata().ValueOrDie()).row_groups) {
    for (const auto& s : *rg.columns[0].meta_data->encoding_stats) {
      out.emplace_back(s.page_type, s.encoding, s.count);
    }
  }
  return out;
}

// Writes `calls` (DictionaryArrays of strings) as one column, one row group.
Result<std::unique_ptr<FileWriter>> WriteDictionaryCalls(const std::vector<ArrayDataPtr>& calls,
                                                         io::BufferOutputStream* sink) {
  auto schema = quiver::schema({field("d", calls[0]->type)});
  WriterOptions options;
  options.write_batch_size = 2;
  QUIVER_ASSIGN_OR_RAISE(auto writer, FileWriter::Open(sink, schema, options));
  for (const auto& c : calls) {
    QUIVER_RETURN_NOT_OK(writer->WriteRecordBatch(
        RecordBatch(schema, c->length, std::vector<ArrayDataPtr>{c})));
  }
  QUIVER_RETURN_NOT_OK(writer->Close());
  return writer;
}

TEST(FileWriter, ArrowDictionaryOfStringsWrittenAsIs) {
  using format::Encoding;
  using format::PageType;
  using Stat = std::tuple<PageType, Encoding, int32_t>;
  const auto type = dictionary(int16(), utf8());
  const auto dict = StringArrayFromVector({"c", "a", "b", "unused"});
  // As is: the whole dictionary (4 entries, one unused) is the dictionary
  // page; the same dictionary again (another array, equal values) continues.
  {
    io::BufferOutputStream sink;
    auto writer = WriteDictionaryCalls(
        {DictionaryArrayFromIndices(type, {2, 0, 1, 0, 2}, dict, {true, true, false, true, true}),
         DictionaryArrayFromIndices(type, {1, 1}, StringArrayFromVector({"c", "a", "b", "unused"}))},
        &sink);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    EXPECT_EQ(EncodingStats(**writer), (std::vector<Stat>{{PageType::kDictionaryPage, Encoding::kPlain, 1},
                                                          {PageType::kDataPage, Encoding::kRleDictionary, 1}}));
    const auto& md = *ThriftOf(*(*writer)->metadata().ValueOrDie()).row_groups[0].columns[0].meta_data;
    EXPECT_EQ(md.num_values, 7);
    // The dictionary page's header: 4 values.
    auto file = sink.Finish();
    ASSERT_TRUE(file.ok());
    const int64_t at = *md.dictionary_page_offset;
    auto header = thrift::DeserializeThrift<format::PageHeader>((*file)->data() + at,
                                                                (*file)->size() - at);
    ASSERT_TRUE(header.ok()) << header.status().ToString();
    ASSERT_TRUE(header->dictionary_page_header.has_value());
    EXPECT_EQ(header->dictionary_page_header->num_values, 4);
  }
  // A different dictionary in a later call: PLAIN from that call on.
  {
    io::BufferOutputStream sink;
    auto writer = WriteDictionaryCalls(
        {DictionaryArrayFromIndices(type, {2, 0, 1}, dict),
         DictionaryArrayFromIndices(type, {0, 1, 1, 0}, StringArrayFromVector({"x", "y"}))},
        &sink);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    // (Listed as Arrow C++ lists them: dictionary page, then by encoding.)
    EXPECT_EQ(EncodingStats(**writer), (std::vector<Stat>{{PageType::kDictionaryPage, Encoding::kPlain, 1},
                                                          {PageType::kDataPage, Encoding::kPlain, 1},
                                                          {PageType::kDataPage, Encoding::kRleDictionary, 1}}));
  }
  // Duplicate dictionary values: PLAIN from the start, after a dictionary
  // page that no data page uses (as Arrow C++ writes it).
  {
    io::BufferOutputStream sink;
    auto writer = WriteDictionaryCalls(
        {DictionaryArrayFromIndices(type, {0, 1, 2, 3, 2}, StringArrayFromVector({"a", "b", "a", "c"}))},
        &sink);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    EXPECT_EQ(EncodingStats(**writer), (std::vector<Stat>{{PageType::kDictionaryPage, Encoding::kPlain, 1},
                                                          {PageType::kDataPage, Encoding::kPlain, 1}}));
  }
  // Invalid UTF-8 in an unused entry: refused (every entry is written).
  {
    io::BufferOutputStream sink;
    auto writer = WriteDictionaryCalls(
        {DictionaryArrayFromIndices(type, {0}, StringArrayFromVector({"a", std::string("\xff", 1)}))},
        &sink);
    ASSERT_FALSE(writer.ok());
    EXPECT_NE(writer.status().message().find("dictionary entry 1"), std::string::npos)
        << writer.status().ToString();
  }
}

// An Arrow dictionary above 1 MiB under ZSTD: its page body is compressed
// piece by piece as it is written, in place: the frame is the one-shot
// frame of the PLAIN body, byte for byte.
TEST(FileWriter, LargeArrowDictionaryCompressedInPieces) {
  std::mt19937 rng(5);
  std::vector<std::string> entries;
  std::string plain;
  for (int i = 0; i < 20000; ++i) {
    std::string v = std::to_string(i) + "-";
    const int len = 60 + static_cast<int>(rng() % 61);
    for (int k = 0; k < len; ++k) v.push_back(static_cast<char>('a' + rng() % 26));
    const auto n = static_cast<uint32_t>(v.size());
    for (int b = 0; b < 4; ++b) plain.push_back(static_cast<char>(n >> (8 * b)));
    plain += v;
    entries.push_back(std::move(v));
  }
  ASSERT_GT(plain.size(), size_t{1} << 20);
  std::vector<int64_t> indices;
  for (int64_t i = 0; i < 30000; ++i) indices.push_back((i * 7919) % 20000);
  const auto type = dictionary(int32(), utf8());
  auto array = DictionaryArrayFromIndices(type, indices, StringArrayFromVector(entries));
  auto schema = quiver::schema({field("d", type)});
  WriterOptions options;
  options.compression = {compression::CompressionCodec::ZSTD, {}};
  options.compression_level = {1, {}};
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->WriteRecordBatch(RecordBatch(schema, array->length, {array})).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  const auto& md = *ThriftOf(*(*writer)->metadata().ValueOrDie()).row_groups[0].columns[0].meta_data;
  auto file = sink.Finish();
  ASSERT_TRUE(file.ok());
  const int64_t at = *md.dictionary_page_offset;
  int64_t header_len = 0;
  auto header = thrift::DeserializeThrift<format::PageHeader>((*file)->data() + at, (*file)->size() - at,
                                                              &header_len);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  ASSERT_TRUE(header->dictionary_page_header.has_value());
  EXPECT_EQ(header->dictionary_page_header->num_values, 20000);
  EXPECT_EQ(header->uncompressed_page_size, static_cast<int32_t>(plain.size()));
  auto codec = compression::Codec::Create(compression::CompressionCodec::ZSTD, 1);
  ASSERT_TRUE(codec.ok());
  std::vector<uint8_t> whole(static_cast<size_t>((*codec)->MaxCompressedLength(static_cast<int64_t>(plain.size()))));
  auto n = (*codec)->Compress(reinterpret_cast<const uint8_t*>(plain.data()), static_cast<int64_t>(plain.size()),
                              whole.data(), static_cast<int64_t>(whole.size()));
  ASSERT_TRUE(n.ok());
  whole.resize(static_cast<size_t>(*n));
  ASSERT_EQ(header->compressed_page_size, static_cast<int32_t>(whole.size()));
  const uint8_t* body = (*file)->data() + at + header_len;
  EXPECT_TRUE(std::equal(whole.begin(), whole.end(), body));
}

// A sink that keeps large buffers (the in-memory ChunkedOutputStream) gets
// an Arrow dictionary's page built while its entries are checked, and kept
// as is: the file is the same bytes as through a sink that copies, also
// when a repeated entry makes the dictionary go through the memo table.
TEST(FileWriter, ArrowDictionaryPageKeptByTheSinkIsTheSameFile) {
  std::mt19937 rng(9);
  for (bool repeated : {false, true}) {
    SCOPED_TRACE(repeated ? "a repeated entry" : "distinct entries");
    std::vector<std::string> entries;
    for (int i = 0; i < 4000; ++i) {
      std::string v = std::to_string(i) + ":";
      const int len = static_cast<int>(rng() % 150);
      for (int k = 0; k < len; ++k) v.push_back(static_cast<char>('A' + rng() % 26));
      entries.push_back(std::move(v));
    }
    if (repeated) entries[3000] = entries[10];
    std::vector<int64_t> indices;
    std::vector<bool> valid;
    for (int64_t i = 0; i < 9000; ++i) {
      indices.push_back(static_cast<int64_t>(rng() % 4000));
      valid.push_back(rng() % 5 != 0);
    }
    const auto type = dictionary(int32(), utf8());
    auto array = DictionaryArrayFromIndices(type, indices, StringArrayFromVector(entries), valid);
    auto schema = quiver::schema({field("d", type)});
    WriterOptions options;
    options.compression = {compression::CompressionCodec::UNCOMPRESSED, {}};
    options.max_rows_per_page = 1000;
    auto write = [&](io::OutputStream* sink) {
      auto writer = FileWriter::Open(sink, schema, options);
      ASSERT_TRUE(writer.ok()) << writer.status().ToString();
      ASSERT_TRUE((*writer)->WriteRecordBatch(RecordBatch(schema, array->length, {array})).ok());
      ASSERT_TRUE((*writer)->Close().ok());
    };
    io::BufferOutputStream copying;
    io::ChunkedOutputStream keeping;
    ASSERT_GT(keeping.MinAdoptedBytes(), 0);
    ASSERT_LT(keeping.MinAdoptedBytes(), 300 * 1024);  // (the dictionary page is ~320 KB)
    write(&copying);
    write(&keeping);
    auto expected = copying.Finish();
    auto pieces = keeping.Finish();
    ASSERT_TRUE(expected.ok() && pieces.ok());
    std::string got;
    for (const auto& piece : *pieces) got.append(reinterpret_cast<const char*>(piece->data()), piece->size());
    ASSERT_EQ(got.size(), static_cast<size_t>((*expected)->size()));
    EXPECT_TRUE(got == std::string(reinterpret_cast<const char*>((*expected)->data()), got.size()));
    EXPECT_GT(pieces->size(), 2u);  // (kept: the dictionary page is a piece of its own)
  }
}

TEST(CdcMask, MatchesTheDocumentedValues) {
  EXPECT_EQ(*CdcMask({256 * 1024, 1024 * 1024, 0}), 0xFFFE000000000000ULL);
  EXPECT_EQ(*CdcMask({256 * 1024, 1024 * 1024, 1}), 0xFFFC000000000000ULL);
  EXPECT_EQ(*CdcMask({256 * 1024, 1024 * 1024, -1}), 0xFFFF000000000000ULL);
  EXPECT_EQ(*CdcMask({0, 64, 0}), 0xC000000000000000ULL);
  EXPECT_EQ(std::popcount(*CdcMask({4096, 16384, 0})), 9);
  EXPECT_TRUE(CdcMask({-1, 10, 0}).status().IsInvalid());
  EXPECT_TRUE(CdcMask({10, 10, 0}).status().IsInvalid());
  EXPECT_TRUE(CdcMask({256 * 1024, 1024 * 1024, 20}).status().IsInvalid());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

TEST(FileWriter, DevicesAndPipesAreWrittenInPlace) {
  // A temporary file + rename would replace /dev/null with a regular file.
  auto batch = SmallBatch();
  auto writer = FileWriter::Open("/dev/null", batch->schema());
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  struct stat st;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  // A directory is refused.
  TempDir dir;
  auto bad = FileWriter::Open(dir.path(), batch->schema());
  EXPECT_TRUE(bad.status().IsIOError());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

// The column writer's pages from packed definition levels (the writer's
// path without CDC) are those from int16 levels (the CDC path's), for
// nullable leaves and a nullable struct's required leaf, sparse and dense,
// in v1 and v2 pages, with and without the dictionary, over several write
// calls (sliced inputs at odd offsets).
TEST(ColumnChunkWriter, PackedLevelsWriteTheSamePagesAsInt16Levels) {
  const int64_t n = 5000;
  std::mt19937_64 rng(99);
  std::vector<bool> sparse(n), dense(n);
  std::vector<int64_t> values(n);
  for (int64_t i = 0; i < n; ++i) {
    // Sparse (1%, none in [2000, 2600)), dense (80%); values repeat in the
    // first 3000 slots (dictionary pages), then are distinct (fallback).
    const auto r = static_cast<int64_t>(rng() % 1000);
    sparse[i] = (i < 2000 || i >= 2600) && r < 10;
    dense[i] = r < 800;
    values[i] = i < 3000 ? r % 37 : static_cast<int64_t>(rng() >> 1);
  }
  auto required = ArrayFromVector<int64_t>(int64(), values);
  auto st_type = struct_({field("a", int64(), false)});
  const std::vector<std::pair<std::shared_ptr<const Field>, ArrayDataPtr>> inputs = {
      {field("sparse", int64(), true), ArrayFromVector<int64_t>(int64(), values, sparse)},
      {field("dense", int64(), true), ArrayFromVector<int64_t>(int64(), values, dense)},
      {field("st", st_type, true), StructArrayFromChildren(st_type, n, {required}, sparse)},
  };
  for (const auto& [f, data] : inputs) {
    auto schema = ArrowToParquetSchema(Schema({f}));
    ASSERT_TRUE(schema.ok()) << schema.status();
    for (const bool v2 : {false, true}) {
      for (const bool dictionary : {false, true}) {
        ColumnChunkOptions options;
        options.page_version = v2 ? DataPageVersion::kV2 : DataPageVersion::kV1;
        options.dictionary = dictionary;
        options.max_rows_per_page = 700;
        options.codec = compression::CompressionCodec::UNCOMPRESSED;
        std::string bytes[2];
        for (const bool packed : {false, true}) {
          auto w = ColumnChunkWriter::Make(schema->descriptor.column(0), schema->leaves[0], options);
          ASSERT_TRUE(w.ok()) << w.status();
          for (int64_t at = 0; at < n;) {
            const int64_t len = std::min<int64_t>(n - at, 1 + at % 1777);
            auto levels = ComputeLevels(schema->arrow, 0, data->Slice(at, len), packed);
            ASSERT_TRUE(levels.ok()) << levels.status();
            ASSERT_EQ((*levels)[0].def_packed, packed);
            ASSERT_TRUE((*w)->Write((*levels)[0]).ok());
            at += len;
          }
          auto out = (*w)->Finish();
          ASSERT_TRUE(out.ok()) << out.status();
          for (const auto& b : out->bytes) bytes[packed].append(reinterpret_cast<const char*>(b->data()), b->size());
        }
        EXPECT_FALSE(bytes[0].empty());
        EXPECT_EQ(bytes[0], bytes[1]) << f->name() << " v2 " << v2 << " dictionary " << dictionary;
      }
    }
  }
}

// A timestamp that the stored unit cannot hold (precision lost, int64
// overflow) fails the write with a message naming the column, the value and
// the option; nothing is written at the path. The same values truncate when
// allowed, toward zero.
TEST(FileWriter, TimestampsThatDoNotConvertAreRefused) {
  TempDir dir;
  const std::string path = dir.path() + "/ts.parquet";
  auto ns = timestamp(TimeUnit::kNano, "UTC");
  auto schema = quiver::schema({field("t", ns)});
  auto batch = std::make_shared<RecordBatch>(
      schema, 4, std::vector<ArrayDataPtr>{ArrayFromVector<int64_t>(ns, {2000, -1001, 7, 4000},
                                                                    {true, true, false, true})});
  struct Case {
    WriterOptions options;
    std::vector<std::string> words;
  };
  std::vector<Case> cases(2);
  cases[0].options.version = FormatVersion::k2_4;
  cases[0].options.allow_truncated_timestamps = true;  // (applies to coerce_timestamps only)
  cases[0].words = {"column 't'", "would lose data: -1001", "version '2.4'", "allow_truncated_timestamps"};
  cases[1].options.coerce_timestamps = TimeUnit::kMilli;
  cases[1].words = {"column 't'", "timestamp[ns, tz=UTC] to timestamp[ms, tz=UTC] would lose data: 2000",
                    "coerce_timestamps='ms'", "allow_truncated_timestamps=True"};
  for (const Case& c : cases) {
    auto writer = FileWriter::Open(path, schema, c.options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    const Status st = (*writer)->WriteRecordBatch(*batch);
    ASSERT_TRUE(st.IsInvalid()) << st;
    for (const auto& w : c.words) EXPECT_NE(st.message().find(w), std::string::npos) << w << ": " << st;
    EXPECT_TRUE((*writer)->Close().IsInvalid());
    EXPECT_TRUE(dir.Files().empty());
  }
  auto s = timestamp(TimeUnit::kSecond);
  auto big = std::make_shared<RecordBatch>(quiver::schema({field("s", s)}), 1,
                                           std::vector<ArrayDataPtr>{ArrayFromVector<int64_t>(s, {int64_t{1} << 62})});
  auto writer = FileWriter::Open(path, big->schema());
  ASSERT_TRUE(writer.ok());
  const Status st = (*writer)->WriteRecordBatch(*big);
  EXPECT_NE(st.message().find("column 's': integer overflow when casting timestamp value 4611686018427387904 "
                              "from timestamp[s] to timestamp[ms]"),
            std::string::npos)
      << st;
  (*writer)->Abort();
  // Truncation allowed: toward zero; the null slot's 7 is never looked at.
  WriterOptions truncate;
  truncate.coerce_timestamps = TimeUnit::kMicro;
  truncate.allow_truncated_timestamps = true;
  io::BufferOutputStream sink;
  auto ok = FileWriter::Open(&sink, schema, truncate);
  ASSERT_TRUE(ok.ok());
  ASSERT_TRUE((*ok)->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE((*ok)->Close().ok());
  const auto& stats = *ThriftOf(*(*ok)->metadata().ValueOrDie()).row_groups[0].columns[0].meta_data->statistics;
  int64_t min = 0, max = 0;
  std::memcpy(&min, stats.min_value->data(), 8);
  std::memcpy(&max, stats.max_value->data(), 8);
  EXPECT_EQ(min, -1);  // -1001 ns -> -1 us (toward zero)
  EXPECT_EQ(max, 4);
}

// Format 1.0 writes FileMetaData.version 1 and PLAIN_DICTIONARY pages.
TEST(FileWriter, FormatVersion1) {
  auto batch = SmallBatch();
  for (FormatVersion v : {FormatVersion::k1_0, FormatVersion::k2_4, FormatVersion::k2_6}) {
    WriterOptions options;
    options.version = v;
    io::BufferOutputStream sink;
    auto writer = FileWriter::Open(&sink, batch->schema(), options);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
    ASSERT_TRUE((*writer)->Close().ok());
    const auto& md = ThriftOf(*(*writer)->metadata().ValueOrDie());
    EXPECT_EQ(md.version, v == FormatVersion::k1_0 ? 1 : 2);
    const auto& cm = *md.row_groups[0].columns[1].meta_data;
    const auto dict = v == FormatVersion::k1_0 ? format::Encoding::kPlainDictionary : format::Encoding::kPlain;
    const auto data = v == FormatVersion::k1_0 ? format::Encoding::kPlainDictionary
                                               : format::Encoding::kRleDictionary;
    std::vector<format::Encoding> expected = {dict, format::Encoding::kRle};
    if (data != dict) expected.push_back(data);
    EXPECT_EQ(cm.encodings, expected);
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

TEST(FileWriter, AddKeyValueMetadataMergesIntoTheFooter) {
  auto batch = SmallBatch();
  auto schema = batch->schema()->WithMetadata(key_value_metadata({{"k", "old"}, {"owner", "x"}}));
  auto with_metadata = std::make_shared<RecordBatch>(schema, batch->num_rows(), batch->columns_data());
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, schema);
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->WriteRecordBatch(*with_metadata).ok());
  ASSERT_TRUE((*writer)->AddKeyValueMetadata(KeyValueMetadata({"k", "b"}, {"new", "1"})).ok());
  ASSERT_TRUE((*writer)->AddKeyValueMetadata(KeyValueMetadata({"b"}, {"2"})).ok());
  auto refused = (*writer)->AddKeyValueMetadata(KeyValueMetadata({"ARROW:schema"}, {"x"}));
  EXPECT_TRUE(refused.IsInvalid()) << refused;
  ASSERT_TRUE((*writer)->Close().ok());
  auto md = (*writer)->metadata();
  ASSERT_TRUE(md.ok()) << md.status();
  auto kv = (*md)->key_value_metadata();
  ASSERT_TRUE(kv.has_value());
  std::vector<std::string> keys, values;
  for (const auto& p : *kv) {
    keys.push_back(p.key);
    values.push_back(p.key == "ARROW:schema" ? "" : p.value.value_or("<none>"));
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"k", "owner", "ARROW:schema", "b"}));
  EXPECT_EQ(values, (std::vector<std::string>{"new", "x", "", "2"}));
  EXPECT_TRUE((*writer)->AddKeyValueMetadata(KeyValueMetadata({"c"}, {"1"})).IsInvalid());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
