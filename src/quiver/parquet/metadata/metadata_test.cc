#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/array/record_batch.h"
#include "quiver/io/file.h"
#include "quiver/io/memory.h"
#include "quiver/io/test_util_internal.h"
#include "quiver/parquet/metadata/bloom_filter_reader_internal.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/metadata/page_index_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/writer/file_writer.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

const std::string kTestData = QUIVER_TESTDATA_DIR;

std::shared_ptr<Buffer> ReadBytes(const std::string& path) {
  auto buffer = io::ReadFileToBuffer(path);
  EXPECT_TRUE(buffer.ok()) << buffer.status();
  return *buffer;
}

using io::testutil::RecordingFile;

// A small file written by Quiver: two row groups, dictionary and plain
// pages, page index, checksums, a bloom filter on "id".
std::shared_ptr<Buffer> SmallFile(int64_t rows = 2000) {
  Int64Builder ids;
  StringBuilder names;
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(ids.Append(i * 7).ok());
    EXPECT_TRUE(names.Append("name-" + std::to_string(i % 50)).ok());
  }
  auto schema = quiver::schema({field("id", int64(), false), field("name", utf8(), false)});
  auto id_array = ids.FinishArray();
  auto name_array = names.FinishArray();
  EXPECT_TRUE(id_array.ok() && name_array.ok());
  auto table = Table::Make(
      schema, {std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{*id_array}, int64()),
               std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{*name_array}, utf8())});
  EXPECT_TRUE(table.ok()) << table.status();
  WriterOptions options;
  options.row_group_size = rows / 2;
  options.max_rows_per_page = 300;
  options.write_page_index = true;
  options.write_page_checksum = true;
  options.bloom_filter.by_column["id"] = BloomFilterOptions{static_cast<int64_t>(rows), 0.01};
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status();
  EXPECT_TRUE((*writer)->WriteTable(**table).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return *sink.Finish();
}

std::string AsString(const Buffer& b) { return std::string(b.view()); }

Status FooterStatus(const std::string& bytes, const FooterOptions& options = {}) {
  io::BufferReader file(Buffer::FromString(bytes), "t.parquet");
  return ReadFooter(file, options).status();
}

TEST(ReadFooter, ReadsOneTailWhenTheFooterFits) {
  auto bytes = SmallFile();
  auto reference = ReadFooter(io::BufferReader(bytes));
  ASSERT_TRUE(reference.ok());
  // A file smaller than the tail is read whole, in one read.
  {
    RecordingFile whole(bytes);
    ASSERT_TRUE(ReadFooter(whole).ok());
    ASSERT_LT(bytes->size(), FooterOptions{}.tail_size);
    ASSERT_EQ(whole.reads().size(), 1u);
    EXPECT_EQ(whole.reads()[0].length, bytes->size());
  }
  RecordingFile file(bytes);
  FooterOptions options;
  options.tail_size = reference->footer_length + 8 + 100;
  auto footer = ReadFooter(file, options);
  ASSERT_TRUE(footer.ok()) << footer.status();
  EXPECT_EQ(footer->metadata.num_rows, 2000);
  EXPECT_EQ(footer->metadata.row_groups.size(), 2u);
  EXPECT_EQ(footer->file_size, bytes->size());
  EXPECT_EQ(footer->footer_offset + footer->footer_length + 8, bytes->size());
  // One suffix read: the tail, nothing else (the leading magic is not
  // asked for when the tail does not hold it).
  auto reads = file.reads();
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].end(), bytes->size());
  EXPECT_EQ(reads[0].length, options.tail_size);
}

TEST(ReadFooter, AsksForExactlyTheMissingBytes) {
  auto bytes = SmallFile();
  auto reference = ReadFooter(io::BufferReader(bytes));
  ASSERT_TRUE(reference.ok());
  for (int64_t tail : {int64_t{8}, int64_t{9}, int64_t{100}, reference->footer_length + 7,
                       reference->footer_length + 8, reference->footer_length + 9}) {
    RecordingFile file(bytes);
    FooterOptions options;
    options.tail_size = tail;
    auto footer = ReadFooter(file, options);
    ASSERT_TRUE(footer.ok()) << footer.status() << " tail " << tail;
    EXPECT_TRUE(footer->metadata == reference->metadata) << tail;
    auto reads = file.reads();
    const int64_t tail_start = bytes->size() - tail;
    int64_t total = 0;
    for (const auto& r : reads) total += r.length;
    if (reference->footer_offset >= tail_start) {
      EXPECT_EQ(reads.size(), 1u) << tail;
      EXPECT_EQ(total, tail) << tail;
    } else {
      // Tail, then [footer_offset, tail_start): no byte twice.
      ASSERT_EQ(reads.size(), 2u) << tail;
      EXPECT_EQ(reads[1].offset, reference->footer_offset);
      EXPECT_EQ(reads[1].end(), tail_start);
      EXPECT_EQ(total, bytes->size() - reference->footer_offset) << tail;
    }
  }
}

TEST(ReadFooter, RefusesWhatIsNotParquet) {
  const std::string file = AsString(*SmallFile());
  struct Case {
    std::string bytes;
    std::string fragment;
  };
  std::string bad_head = file;
  bad_head[1] = 'X';
  std::string encrypted = file;
  encrypted.replace(encrypted.size() - 4, 4, "PARE");
  std::vector<Case> cases = {
      {"", "0 bytes is too small"},
      {"PAR1PAR1", "8 bytes is too small"},
      {std::string("PAR1\0\0\0PAR1", 11), "too small"},
      {"hello world, not parquet", "does not end with the magic PAR1 (found quet)"},
      {bad_head, "does not start with the magic PAR1 (found PXR1)"},
      {std::string("PAR1\0\0\0\0PAR1", 12), "cannot decode the footer (FileMetaData, 0 bytes"},
  };
  for (const auto& c : cases) {
    Status st = FooterStatus(c.bytes);
    EXPECT_TRUE(st.IsInvalid()) << st;
    EXPECT_NE(st.message().find(c.fragment), std::string::npos) << st;
  }
  Status st = FooterStatus(encrypted);
  EXPECT_TRUE(st.IsNotImplemented()) << st;
  EXPECT_NE(st.message().find("encrypted"), std::string::npos);
}

TEST(ReadFooter, FooterLengthsPastTheFile) {
  const std::string file = AsString(*SmallFile());
  const int64_t size = static_cast<int64_t>(file.size());
  for (uint32_t length : {uint32_t(size - 12 + 1), uint32_t(size - 8), uint32_t(size),
                          uint32_t(size + 1), 0x7fffffffu, 0xffffffffu}) {
    std::string bad = file;
    std::memcpy(bad.data() + size - 8, &length, 4);
    for (int64_t tail : {int64_t{8}, int64_t{64} * 1024}) {
      FooterOptions options;
      options.tail_size = tail;
      Status st = FooterStatus(bad, options);
      EXPECT_TRUE(st.IsInvalid()) << st;
      EXPECT_NE(st.message().find("corrupt footer length " + std::to_string(length)),
                std::string::npos)
          << st;
    }
  }
  // The longest footer there can be (the data region empty) is read.
  std::string bytes = "PAR1";
  bytes += std::string("\x15\x00", 2);  // an i32 field, then stop: not a valid FileMetaData
  const uint32_t length = 2;
  bytes.append(reinterpret_cast<const char*>(&length), 4);
  bytes += "PAR1";
  Status st = FooterStatus(bytes);
  EXPECT_NE(st.message().find("cannot decode the footer (FileMetaData, 2 bytes at offset 4)"),
            std::string::npos)
      << st;
}

TEST(ReadFooter, TruncatedAtEveryLength) {
  const std::string file = AsString(*SmallFile(200));
  for (size_t n = 0; n < file.size(); ++n) {
    for (int64_t tail : {int64_t{8}, int64_t{4096}}) {
      FooterOptions options;
      options.tail_size = tail;
      io::BufferReader reader(Buffer::FromString(file.substr(0, n)));
      auto footer = ReadFooter(reader, options);
      EXPECT_FALSE(footer.ok()) << n;
      EXPECT_TRUE(footer.status().IsInvalid()) << footer.status();
    }
  }
}

TEST(ReadFooter, ThriftLimitsApply) {
  auto bytes = SmallFile();
  FooterOptions options;
  options.limits.container_size_limit = 2;  // the schema has 3 elements
  io::BufferReader reader(bytes);
  auto footer = ReadFooter(reader, options);
  ASSERT_FALSE(footer.ok());
  EXPECT_NE(footer.status().message().find("cannot decode the footer"), std::string::npos);
}

TEST(ReadFooter, ReadsFilesOnDisk) {
  for (const char* name : {"parquet-testing/alltypes_plain.parquet",
                           "parquet-testing/nested_structs.rust.parquet", "quiver/typed.parquet"}) {
    auto file = io::ReadableFile::Open(kTestData + "/" + name);
    ASSERT_TRUE(file.ok()) << file.status();
    auto footer = ReadFooter(**file);
    ASSERT_TRUE(footer.ok()) << name << ": " << footer.status();
    EXPECT_GT(footer->metadata.schema.size(), 1u) << name;
  }
}

// Every page of every chunk, walked with the iterator.
std::vector<PageInfo> AllPages(const Buffer& bytes, const ParquetFooter& footer) {
  std::vector<PageInfo> out;
  for (const auto& rg : footer.metadata.row_groups) {
    for (const auto& cc : rg.columns) {
      auto range = ColumnChunkRange(*cc.meta_data, footer.footer_offset);
      EXPECT_TRUE(range.ok()) << range.status();
      PageHeaderIterator pages(bytes.data() + range->offset, range->length, range->offset);
      PageInfo page;
      int64_t values = 0;
      while (true) {
        auto next = pages.Next(&page);
        EXPECT_TRUE(next.ok()) << next.status();
        if (!next.ok() || !*next) break;
        if (page.header.data_page_header) values += page.header.data_page_header->num_values;
        out.push_back(page);
      }
      EXPECT_EQ(pages.position(), range->length);
      EXPECT_EQ(values, cc.meta_data->num_values);
    }
  }
  return out;
}

TEST(PageHeaderIterator, PagesTileTheChunksAndMatchTheOffsetIndex) {
  auto bytes = SmallFile();
  io::BufferReader file(bytes);
  auto footer = ReadFooter(file);
  ASSERT_TRUE(footer.ok());
  auto pages = AllPages(*bytes, *footer);
  ASSERT_GT(pages.size(), 8u);
  size_t k = 0;
  for (const auto& rg : footer->metadata.row_groups) {
    for (const auto& cc : rg.columns) {
      auto oi = ReadOffsetIndex(file, cc, footer->footer_offset);
      ASSERT_TRUE(oi.ok()) << oi.status();
      ASSERT_TRUE(oi->has_value());
      auto ci = ReadColumnIndex(file, cc, footer->footer_offset);
      ASSERT_TRUE(ci.ok()) << ci.status();
      ASSERT_TRUE(ci->has_value());
      EXPECT_EQ((*ci)->null_pages.size(), (*oi)->page_locations.size());
      // Skip the dictionary page; data pages are where the offset index says.
      if (pages[k].header.type == format::PageType::kDictionaryPage) ++k;
      for (const auto& loc : (*oi)->page_locations) {
        ASSERT_LT(k, pages.size());
        EXPECT_EQ(loc.offset, pages[k].offset);
        EXPECT_EQ(loc.compressed_page_size, pages[k].size());
        ++k;
      }
    }
  }
  EXPECT_EQ(k, pages.size());
}

TEST(PageHeaderIterator, DictionaryPageOffsetQuirks) {
  // dictionary_page_offset = 0 for "no dictionary page" (a Dremio/parquet-mr
  // file): the chunk starts at data_page_offset with its only data page.
  auto bytes = ReadBytes(kTestData + "/parquet-testing/dict-page-offset-zero.parquet");
  io::BufferReader file(bytes);
  auto footer = ReadFooter(file);
  ASSERT_TRUE(footer.ok());
  const auto& m = *footer->metadata.row_groups[0].columns[0].meta_data;
  ASSERT_TRUE(m.dictionary_page_offset.has_value());
  EXPECT_EQ(*m.dictionary_page_offset, 0);
  EXPECT_EQ(ColumnChunkStart(m), m.data_page_offset);
  auto pages = AllPages(*bytes, *footer);
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].offset, 4);
  EXPECT_EQ(pages[0].header.type, format::PageType::kDataPage);
  // Absent, or after data_page_offset: the chunk starts at data_page_offset.
  format::ColumnMetaData md;
  md.data_page_offset = 100;
  EXPECT_EQ(ColumnChunkStart(md), 100);
  md.dictionary_page_offset = 150;
  EXPECT_EQ(ColumnChunkStart(md), 100);
  md.dictionary_page_offset = 40;
  EXPECT_EQ(ColumnChunkStart(md), 40);
  md.dictionary_page_offset = -3;
  EXPECT_EQ(ColumnChunkStart(md), 100);
}

TEST(PageHeaderIterator, PagesBeyondTheChunk) {
  auto bytes = SmallFile();
  auto footer = ReadFooter(io::BufferReader(bytes));
  ASSERT_TRUE(footer.ok());
  const auto& m = *footer->metadata.row_groups[0].columns[0].meta_data;
  auto range = ColumnChunkRange(m, footer->footer_offset);
  ASSERT_TRUE(range.ok());
  // Every cut of the chunk: the walk ends in an error at the cut page (or
  // cleanly when the cut falls between pages), never reading past the cut.
  std::vector<int64_t> boundaries = {0};
  {
    PageHeaderIterator pages(bytes->data() + range->offset, range->length, range->offset);
    PageInfo p;
    while (*pages.Next(&p)) boundaries.push_back(pages.position());
  }
  for (int64_t cut = 0; cut <= range->length; ++cut) {
    // A copy of exactly `cut` bytes, so ASan sees any read past it.
    std::vector<uint8_t> copy(bytes->data() + range->offset, bytes->data() + range->offset + cut);
    PageHeaderIterator pages(copy.data(), cut, range->offset);
    PageInfo p;
    Result<bool> next = true;
    while (next.ok() && *next) next = pages.Next(&p);
    const bool on_boundary =
        std::find(boundaries.begin(), boundaries.end(), cut) != boundaries.end();
    EXPECT_EQ(next.ok(), on_boundary) << cut;
    if (!next.ok()) {
      EXPECT_TRUE(next.status().IsInvalid());
      EXPECT_NE(next.status().message().find("page "), std::string::npos);
      // Later calls repeat the error.
      EXPECT_FALSE(pages.Next(&p).ok());
    }
  }
  // A chunk range outside the data region.
  format::ColumnMetaData bad = m;
  bad.total_compressed_size = footer->footer_offset;
  auto r = ColumnChunkRange(bad, footer->footer_offset);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("lies outside the data region [4, "), std::string::npos);
  bad = m;
  bad.total_compressed_size = -1;
  EXPECT_FALSE(ColumnChunkRange(bad, footer->footer_offset).ok());
  bad = m;
  bad.data_page_offset = 2;
  bad.dictionary_page_offset.reset();
  EXPECT_FALSE(ColumnChunkRange(bad, footer->footer_offset).ok());
}

TEST(PageHeaderIterator, NegativeSizesAndGarbage) {
  format::PageHeader h;
  h.type = format::PageType::kDataPage;
  h.uncompressed_page_size = 10;
  h.compressed_page_size = -1;
  std::string bytes;
  ASSERT_TRUE(thrift::SerializeThrift(h, &bytes).ok());
  PageHeaderIterator pages(reinterpret_cast<const uint8_t*>(bytes.data()),
                           static_cast<int64_t>(bytes.size()), 1000);
  PageInfo p;
  auto next = pages.Next(&p);
  ASSERT_FALSE(next.ok());
  EXPECT_EQ(next.status().message(),
            "page 0 at offset 1000: negative page size (-1 compressed, 10 uncompressed)");
  const uint8_t garbage[] = {0xff, 0xff, 0xff, 0xff};
  PageHeaderIterator bad(garbage, 4, 50);
  next = bad.Next(&p);
  ASSERT_FALSE(next.ok());
  EXPECT_NE(next.status().message().find("page 0 at offset 50: cannot decode the page header"),
            std::string::npos);
}

TEST(PageIndex, AbsentInconsistentAndOutOfRange) {
  auto bytes = SmallFile();
  io::BufferReader file(bytes);
  auto footer = ReadFooter(file);
  ASSERT_TRUE(footer.ok());
  const int64_t end = footer->footer_offset;
  format::ColumnChunk cc = footer->metadata.row_groups[0].columns[0];
  format::ColumnChunk none = cc;
  none.column_index_offset.reset();
  none.column_index_length.reset();
  auto absent = ReadColumnIndex(file, none, end);
  ASSERT_TRUE(absent.ok());
  EXPECT_FALSE(absent->has_value());
  format::ColumnChunk half = cc;
  half.offset_index_length.reset();
  auto r = ReadOffsetIndex(file, half, end);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "offset index: offset and length must both be set");
  format::ColumnChunk past = cc;
  past.column_index_offset = end - 2;
  auto p = ReadColumnIndex(file, past, end);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("column index [" + std::to_string(end - 2)),
            std::string::npos);
  EXPECT_NE(p.status().message().find("lies outside the data region"), std::string::npos);
  format::ColumnChunk shifted = cc;
  *shifted.offset_index_offset += 1;
  auto s = ReadOffsetIndex(file, shifted, end);
  EXPECT_FALSE(s.ok());
}

TEST(BloomFilterReader, FindsEveryValueWritten) {
  auto bytes = SmallFile();
  io::BufferReader file(bytes);
  auto footer = ReadFooter(file);
  ASSERT_TRUE(footer.ok());
  int64_t false_positives = 0;
  for (size_t rg = 0; rg < 2; ++rg) {
    const auto& id = *footer->metadata.row_groups[rg].columns[0].meta_data;
    const auto& name = *footer->metadata.row_groups[rg].columns[1].meta_data;
    auto none = ReadBloomFilter(file, name, footer->footer_offset);
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
    for (bool with_length : {true, false}) {
      format::ColumnMetaData m = id;
      if (!with_length) m.bloom_filter_length.reset();
      auto filter = ReadBloomFilter(file, m, footer->footer_offset);
      ASSERT_TRUE(filter.ok()) << filter.status();
      ASSERT_TRUE(filter->has_value());
      const int64_t first = static_cast<int64_t>(rg) * 1000;
      for (int64_t i = first; i < first + 1000; ++i) {
        EXPECT_TRUE((*filter)->FindHash(BloomFilter::Hash(i * 7))) << i;
        false_positives += (*filter)->FindHash(BloomFilter::Hash(i * 7 + 3));
      }
    }
  }
  EXPECT_LT(false_positives, 100);  // fpp 0.01 of 4000 probes: ~40
  // Out of the data region, a stated length too short for the bitset.
  const auto& id = *footer->metadata.row_groups[0].columns[0].meta_data;
  format::ColumnMetaData m = id;
  m.bloom_filter_offset = footer->footer_offset - 3;
  EXPECT_FALSE(ReadBloomFilter(file, m, footer->footer_offset).ok());
  m = id;
  m.bloom_filter_length = 20;
  auto short_length = ReadBloomFilter(file, m, footer->footer_offset);
  ASSERT_FALSE(short_length.ok());
  EXPECT_NE(short_length.status().message().find("runs past bloom_filter_length"),
            std::string::npos)
      << short_length.status();
  m = id;
  *m.bloom_filter_offset += 1;
  EXPECT_FALSE(ReadBloomFilter(file, m, footer->footer_offset).ok());
}

TEST(BloomFilterReader, ReadsParquetTestingFilters) {
  auto bytes = ReadBytes(kTestData + "/parquet-testing/data_index_bloom_encoding_stats.parquet");
  io::BufferReader file(bytes);
  auto footer = ReadFooter(file);
  ASSERT_TRUE(footer.ok());
  const auto& m = *footer->metadata.row_groups[0].columns[0].meta_data;
  auto filter = ReadBloomFilter(file, m, footer->footer_offset);
  ASSERT_TRUE(filter.ok()) << filter.status();
  ASSERT_TRUE(filter->has_value());
  // The column holds these strings (parquet-testing's README for the file).
  for (const char* v : {"Hello", "This is", "a", "test", "How", "are you", "doing ", "today",
                        "the quick", "brown fox", "jumps", "over", "the lazy", "dog"}) {
    EXPECT_TRUE((*filter)->FindHash(BloomFilter::Hash(std::string_view(v)))) << v;
  }
  EXPECT_FALSE((*filter)->FindHash(BloomFilter::Hash(std::string_view("not there at all"))));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
