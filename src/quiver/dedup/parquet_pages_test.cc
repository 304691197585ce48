#include "quiver/dedup/parquet_pages.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

#include "quiver/dedup/test_util_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace quiver::dedup {
namespace {
namespace QUIVER_UNITY_ID {

namespace format = parquet::format;
using testing::Bytes;
using testing::MakeTable;
using testing::Size;
using testing::WriteParquet;

format::FileMetaData Footer(const std::string& file) {
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  auto md = parquet::thrift::DeserializeThrift<format::FileMetaData>(
      Bytes(file) + file.size() - 8 - length, length);
  md.status().Abort("footer");
  return *md;
}

// `file` with its footer replaced by `md` (the data part is kept).
std::string WithFooter(const std::string& file, const format::FileMetaData& md) {
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  std::string out = file.substr(0, file.size() - 8 - length);
  std::string footer;
  parquet::thrift::SerializeThrift(md, &footer).Abort("serialize");
  out += footer;
  const auto n = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&n), 4);
  out += "PAR1";
  return out;
}

// Two row groups (rows_per_group, then the rest), several pages per chunk.
std::string SmallFile(bool dictionary = true, int64_t rows = 2000, int64_t rows_per_group = 1500,
                      int64_t rows_per_page = 700) {
  parquet::WriterOptions options;
  options.use_dictionary.default_value = dictionary;
  options.max_rows_per_page = rows_per_page;
  options.row_group_size = rows_per_group;
  return WriteParquet(*MakeTable(0, rows, 5), options);
}

Status Listed(const std::string& file) {
  return ListParquetPages(Bytes(file), Size(file)).status();
}

void ExpectInvalid(const std::string& file, const std::string& fragment) {
  Status st = Listed(file);
  EXPECT_TRUE(st.IsInvalid()) << st;
  EXPECT_NE(st.message().find(fragment), std::string::npos) << st;
}

TEST(ListParquetPages, PagesTileEachChunkAndMatchTheOffsetIndex) {
  for (bool dictionary : {false, true}) {
    const std::string file = SmallFile(dictionary);
    const format::FileMetaData md = Footer(file);
    auto pages = ListParquetPages(Bytes(file), Size(file));
    ASSERT_TRUE(pages.ok()) << pages.status();
    ASSERT_EQ(md.row_groups.size(), 2u);
    size_t p = 0;
    for (size_t r = 0; r < md.row_groups.size(); ++r) {
      for (size_t c = 0; c < md.row_groups[r].columns.size(); ++c) {
        const format::ColumnChunk& chunk = md.row_groups[r].columns[c];
        const format::ColumnMetaData& cmd = *chunk.meta_data;
        const int64_t start = cmd.dictionary_page_offset.value_or(cmd.data_page_offset);
        EXPECT_EQ(cmd.dictionary_page_offset.has_value(), dictionary);
        // The data pages, as the offset index (written by Quiver's writer,
        // read here without the code under test) records them.
        auto oi = parquet::thrift::DeserializeThrift<format::OffsetIndex>(
            Bytes(file) + *chunk.offset_index_offset, *chunk.offset_index_length);
        ASSERT_TRUE(oi.ok()) << oi.status();
        int64_t pos = start;
        int64_t values = 0;
        size_t data_page = 0;
        while (pos < start + cmd.total_compressed_size) {
          ASSERT_LT(p, pages->size());
          const PageSpan& page = (*pages)[p++];
          EXPECT_EQ(page.row_group, static_cast<int32_t>(r));
          EXPECT_EQ(page.column, static_cast<int32_t>(c));
          EXPECT_EQ(page.offset, pos);
          EXPECT_GT(page.header_size, 0);
          EXPECT_GT(page.size, page.header_size);
          if (page.type == parquet::PageType::kDictionaryPage) {
            EXPECT_EQ(page.offset, *cmd.dictionary_page_offset);
            EXPECT_GT(page.num_values, 0);
          } else {
            ASSERT_EQ(page.type, parquet::PageType::kDataPage);
            ASSERT_LT(data_page, oi->page_locations.size());
            EXPECT_EQ(page.offset, oi->page_locations[data_page].offset);
            EXPECT_EQ(page.size, oi->page_locations[data_page].compressed_page_size);
            ++data_page;
            values += page.num_values;
          }
          pos += page.size;
        }
        EXPECT_EQ(pos, start + cmd.total_compressed_size);
        EXPECT_EQ(data_page, oi->page_locations.size());
        // max_rows_per_page = 700: 1500 rows in row group 0, 500 in 1.
        EXPECT_GE(data_page, r == 0 ? 3u : 1u);
        EXPECT_EQ(values, cmd.num_values);
      }
    }
    EXPECT_EQ(p, pages->size());
    auto listed = ReadParquetPages(Bytes(file), Size(file));
    ASSERT_TRUE(listed.ok()) << listed.status();
    EXPECT_EQ(listed->pages.size(), pages->size());
    EXPECT_EQ(listed->column_paths,
              (std::vector<std::string>{"id", "x", "name", "tags.list.element"}));
  }
}

TEST(ListParquetPages, RejectsBadFrames) {
  const std::string file = SmallFile();
  ExpectInvalid("", "too small");
  ExpectInvalid("PAR1\0\0\0\0PAR", "too small");
  ExpectInvalid(std::string("PAR1\0\0\0\0PAR1", 12), "footer");  // empty footer: no fields
  std::string bad_head = file;
  bad_head[0] = 'X';
  ExpectInvalid(bad_head, "magic");
  std::string bad_tail = file;
  bad_tail.back() = 'X';
  ExpectInvalid(bad_tail, "magic");
  std::string encrypted = file;
  encrypted.replace(encrypted.size() - 4, 4, "PARE");
  EXPECT_TRUE(Listed(encrypted).IsNotImplemented());
  std::string long_footer = file;
  const uint32_t huge = static_cast<uint32_t>(file.size());
  std::memcpy(long_footer.data() + long_footer.size() - 8, &huge, 4);
  ExpectInvalid(long_footer, "footer length");
  std::string garbage_footer = file;
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  std::memset(garbage_footer.data() + file.size() - 8 - length, 0xFF, length);
  ExpectInvalid(garbage_footer, "cannot decode the footer");
}

TEST(ListParquetPages, RejectsBadChunkRanges) {
  const std::string file = SmallFile();
  const format::FileMetaData md = Footer(file);
  auto mutate = [&](const std::function<void(format::ColumnMetaData*)>& f) {
    format::FileMetaData copy = md;
    f(&*copy.row_groups[1].columns[2].meta_data);
    return WithFooter(file, copy);
  };
  ExpectInvalid(mutate([](auto* m) { m->total_compressed_size = -1; }), "outside the data region");
  ExpectInvalid(mutate([](auto* m) { m->total_compressed_size += 1'000'000; }),
                "row group 1, column 2");
  ExpectInvalid(mutate([](auto* m) {
                  m->dictionary_page_offset.reset();
                  m->data_page_offset = 2;
                }),
                "outside the data");
  ExpectInvalid(mutate([&](auto* m) {
                  m->dictionary_page_offset.reset();
                  m->data_page_offset = static_cast<int64_t>(file.size());
                }),
                "outside the data");
  // A chunk pointing into the previous one.
  ExpectInvalid(mutate([](auto* m) { *m->dictionary_page_offset -= 10; }), "overlaps");
  // Page walk out of step: one byte further in, the header is garbage or
  // its page overruns the chunk.
  {
    format::FileMetaData copy = md;
    auto& m = *copy.row_groups[0].columns[0].meta_data;
    *m.dictionary_page_offset += 1;
    m.total_compressed_size -= 1;
    Status st = Listed(WithFooter(file, copy));
    EXPECT_TRUE(st.IsInvalid()) << st;
    EXPECT_NE(st.message().find("row group 0, column 0"), std::string::npos) << st;
  }
  // A chunk cut short in the middle of its last page.
  ExpectInvalid(mutate([](auto* m) { m->total_compressed_size -= 3; }),
                "run past the end of the column chunk");
  // No metadata, data in another file.
  {
    format::FileMetaData copy = md;
    copy.row_groups[0].columns[1].meta_data.reset();
    ExpectInvalid(WithFooter(file, copy), "without metadata");
    copy = md;
    copy.row_groups[0].columns[1].file_path = "other.parquet";
    EXPECT_TRUE(Listed(WithFooter(file, copy)).IsNotImplemented());
  }
  // An overwritten page header.
  {
    std::string broken = file;
    const auto& m = *md.row_groups[0].columns[3].meta_data;
    std::memset(broken.data() + *m.dictionary_page_offset, 0xFF, 6);
    ExpectInvalid(broken, "cannot decode the page header");
  }
  // Unchanged footer re-serialized: still fine.
  EXPECT_TRUE(Listed(WithFooter(file, md)).ok());
}

TEST(ListParquetPages, TruncatedAndCorruptedFilesNeverCrash) {
  const std::string file = SmallFile(true, 300, 200, 70);
  ASSERT_TRUE(Listed(file).ok());
  // Every truncation of the file (the footer is then missing or misplaced).
  int errors = 0;
  for (size_t n = 0; n < file.size(); ++n) {
    std::string cut = file.substr(0, n);
    // Keep a plausible trailer so the footer parser also sees garbage.
    if (n >= 12) cut.replace(n - 4, 4, "PAR1");
    errors += !Listed(cut).ok();
  }
  EXPECT_EQ(errors, static_cast<int>(file.size()));
  // Random byte flips: either an error or pages that lie inside the file.
  uint64_t state = 7;
  int ok = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string mutated = file;
    const int flips = 1 + iteration % 4;
    for (int f = 0; f < flips; ++f) {
      state = testing::Mix(state);
      // Favour the footer and the page headers near the chunk starts.
      const size_t pos = (iteration % 2 == 0) ? state % mutated.size()
                                              : mutated.size() - 1 - state % 400;
      mutated[pos] = static_cast<char>(mutated[pos] ^ (1 + (state >> 32) % 255));
    }
    auto pages = ListParquetPages(Bytes(mutated), Size(mutated));
    if (pages.ok()) {
      ++ok;
      for (const PageSpan& page : *pages) {
        EXPECT_GE(page.offset, 4);
        EXPECT_LE(page.offset + page.size, Size(mutated));
      }
    } else {
      EXPECT_FALSE(pages.status().message().empty());
    }
  }
  EXPECT_GT(ok, 0);
  EXPECT_LT(ok, 3000);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::dedup
