#include "quiver/dedup/dedup.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "quiver/dedup/test_util_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace quiver::dedup {
namespace {
namespace QUIVER_UNITY_ID {

namespace format = parquet::format;
using testing::Bytes;
using testing::MakeTable;
using testing::MakeTableOfRows;
using testing::RandomBytes;
using testing::Size;
using testing::WriteParquet;

FileBytes View(const std::string& name, const std::string& bytes) {
  return FileBytes{name, Bytes(bytes), Size(bytes)};
}
FileBytes View(const std::string& name, const std::vector<uint8_t>& bytes) {
  return FileBytes{name, bytes.data(), static_cast<int64_t>(bytes.size())};
}

DedupReport Compare(const std::vector<FileBytes>& base, const FileBytes& target,
                    const DedupOptions& options = {}) {
  auto report = CompareFiles(base, target, options);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? *report : DedupReport{};
}

parquet::WriterOptions CdcOptions(bool dictionary) {
  parquet::WriterOptions options;
  options.content_defined_chunking = parquet::CdcOptions{16 * 1024, 64 * 1024, 0};
  options.use_dictionary.default_value = dictionary;
  options.compression.default_value = compression::CompressionCodec::ZSTD;
  return options;
}

TEST(Dedup, AFileAgainstItselfSharesEverything) {
  const std::string file = WriteParquet(*MakeTable(0, 30000, 1), CdcOptions(true));
  const DedupReport r = Compare({View("a", file)}, View("a", file));
  EXPECT_EQ(r.target, "a");
  EXPECT_EQ(r.target_size, Size(file));
  EXPECT_EQ(r.base_files, 1);
  EXPECT_EQ(r.base_size, Size(file));
  ASSERT_TRUE(r.has_page_level);
  EXPECT_GT(r.pages.count, 4);  // 4 columns, each a dictionary and data pages
  EXPECT_EQ(r.pages.shared_count, r.pages.count);
  EXPECT_EQ(r.pages.shared_bytes, r.pages.bytes);
  EXPECT_DOUBLE_EQ(r.pages.shared_ratio(), 1.0);
  EXPECT_EQ(r.chunks.bytes, Size(file));
  EXPECT_EQ(r.chunks.shared_bytes, Size(file));
  EXPECT_EQ(r.chunks.new_bytes(), 0);
  EXPECT_DOUBLE_EQ(r.chunks.shared_ratio(), 1.0);
  // The page bytes are most of the file (the rest: footer, page index, magic).
  EXPECT_LT(r.pages.bytes, Size(file));
  EXPECT_GT(r.pages.bytes, Size(file) * 8 / 10);
}

TEST(Dedup, UnrelatedRandomDataSharesAlmostNothing) {
  // Parquet files of unrelated random rows (other row ids, other seed).
  const std::string a = WriteParquet(*MakeTable(0, 60000, 11), {});
  const std::string b = WriteParquet(*MakeTable(1'000'000'000, 1'000'060'000, 12), {});
  const DedupReport r = Compare({View("a", a)}, View("b", b));
  ASSERT_TRUE(r.has_page_level);
  EXPECT_GT(r.chunks.count, 10);
  EXPECT_LT(r.pages.shared_ratio(), 0.01);
  EXPECT_LT(r.chunks.shared_ratio(), 0.01);
  // Raw random bytes (not Parquet: the page level is skipped).
  std::vector<uint8_t> x = RandomBytes(3 * 1024 * 1024, 1);
  std::vector<uint8_t> y = RandomBytes(3 * 1024 * 1024, 2);
  DedupOptions bytes_only;
  bytes_only.page_level = false;
  const DedupReport raw = Compare({View("x", x)}, View("y", y), bytes_only);
  EXPECT_FALSE(raw.has_page_level);
  EXPECT_EQ(raw.pages.count, 0);
  EXPECT_EQ(raw.chunks.bytes, 3 * 1024 * 1024);
  EXPECT_EQ(raw.chunks.shared_bytes, 0);
  // Without page_level = false, a non-Parquet file is an error naming it.
  auto refused = CompareFiles({View("x", x)}, View("y", y));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("'x'"), std::string::npos) << refused.status();
}

TEST(Dedup, PrefixedAndAppendedBytesKeepMostChunks) {
  DedupOptions bytes_only;
  bytes_only.page_level = false;
  const int64_t size = 4 * 1024 * 1024;
  std::vector<uint8_t> base = RandomBytes(size, 3);
  const int64_t base_chunks = Compare({}, View("b", base), bytes_only).chunks.count;
  EXPECT_GT(base_chunks, 40);

  std::vector<uint8_t> prefixed = RandomBytes(777, 4);
  prefixed.insert(prefixed.end(), base.begin(), base.end());
  DedupReport r = Compare({View("base", base)}, View("prefixed", prefixed), bytes_only);
  // At most the first two chunks change (the new bytes, then the chunk that
  // re-synchronises): at most 2 * 128 KiB + 777 new bytes.
  EXPECT_GE(r.chunks.shared_count, base_chunks - 2);
  EXPECT_LE(r.chunks.new_bytes(), 2 * 128 * 1024 + 777);
  EXPECT_GT(r.chunks.shared_ratio(), 0.9);

  std::vector<uint8_t> appended = base;
  std::vector<uint8_t> tail = RandomBytes(300 * 1024, 5);
  appended.insert(appended.end(), tail.begin(), tail.end());
  r = Compare({View("base", base)}, View("appended", appended), bytes_only);
  // Cuts are made from the start: every base chunk but the last is kept.
  EXPECT_GE(r.chunks.shared_count, base_chunks - 1);
  EXPECT_GE(r.chunks.shared_bytes, size - 128 * 1024);
  EXPECT_LE(r.chunks.new_bytes(), 300 * 1024 + 128 * 1024);

  // A deletion in the middle: the chunks around it change, the rest stay.
  std::vector<uint8_t> deleted = base;
  deleted.erase(deleted.begin() + size / 2, deleted.begin() + size / 2 + 5000);
  r = Compare({View("base", base)}, View("deleted", deleted), bytes_only);
  EXPECT_GE(r.chunks.shared_count, r.chunks.count - 3);
}

// Pages of `file` grouped by column chunk, as content keys in file order.
struct ChunkPages {
  std::vector<ContentKey> dictionary;  // 0 or 1
  std::vector<ContentKey> data;
};
std::map<std::pair<int, int>, ChunkPages> PagesByChunk(const std::string& file) {
  auto pages = ListParquetPages(Bytes(file), Size(file));
  pages.status().Abort("pages");
  std::map<std::pair<int, int>, ChunkPages> out;
  for (const PageSpan& page : *pages) {
    ChunkPages& chunk = out[{page.row_group, page.column}];
    const ContentKey key = HashContent(Bytes(file) + page.offset, page.size);
    if (page.type == parquet::PageType::kDictionaryPage) {
      chunk.dictionary.push_back(key);
    } else {
      chunk.data.push_back(key);
    }
  }
  return out;
}

// Appending rows to a CDC-written table: the CDC state and the page
// boundaries depend only on the rows from the start of the row group, so
// every data page but the last one of each column chunk comes back byte for
// byte, in the same order at the start of the same column chunk; row
// groups that were already full come back whole. The last data page of a
// chunk gains rows; a dictionary page gains the new distinct values.
TEST(Dedup, AppendingRowsToACdcTableKeepsEveryEarlierPage) {
  for (bool dictionary : {false, true}) {
    SCOPED_TRACE(dictionary ? "dictionary" : "plain");
    parquet::WriterOptions options = CdcOptions(dictionary);
    options.row_group_size = 25000;
    const std::string original = WriteParquet(*MakeTable(0, 60000, 7), options);
    const std::string appended = WriteParquet(*MakeTable(0, 70000, 7), options);
    auto before = PagesByChunk(original);
    auto after = PagesByChunk(appended);
    ASSERT_EQ(before.size(), 12u);  // 3 row groups x 4 columns
    ASSERT_EQ(after.size(), 12u);
    std::set<std::pair<uint64_t, uint64_t>> after_keys;
    for (const auto& [where, chunk] : after) {
      for (const auto& k : chunk.dictionary) after_keys.insert({k.low, k.high});
      for (const auto& k : chunk.data) after_keys.insert({k.low, k.high});
    }
    int64_t kept_bytes = 0;
    int64_t lost_bytes = 0;
    for (const auto& [where, chunk] : before) {
      const ChunkPages& now = after.at(where);
      const bool last_row_group = where.first == 2;
      ASSERT_GE(chunk.data.size(), 2u);
      if (!last_row_group) {
        // Full row groups: identical column chunks.
        EXPECT_EQ(now.dictionary, chunk.dictionary);
        EXPECT_EQ(now.data, chunk.data);
      } else {
        // The partial row group: its pages but the last are a prefix of
        // the new chunk's pages.
        ASSERT_GT(now.data.size(), chunk.data.size() - 1);
        for (size_t i = 0; i + 1 < chunk.data.size(); ++i) {
          EXPECT_EQ(now.data[i], chunk.data[i]) << "column " << where.second << " page " << i;
        }
        EXPECT_NE(now.data[chunk.data.size() - 1], chunk.data.back());
        if (dictionary) {
          ASSERT_EQ(chunk.dictionary.size(), 1u);
          // int64 ids, random doubles and random names gain dictionary
          // entries; the 50 possible tag values were all seen already.
          if (where.second == 3) {
            EXPECT_EQ(now.dictionary, chunk.dictionary);
          } else {
            EXPECT_NE(now.dictionary, chunk.dictionary);
          }
        }
      }
      for (const auto& k : chunk.data) {
        (after_keys.count({k.low, k.high}) ? kept_bytes : lost_bytes) += k.size;
      }
    }
    // The whole-file report agrees: everything but 4 last pages (and with
    // dictionaries, 3 dictionary pages) of the original is shared.
    const DedupReport r = Compare({View("after", appended)}, View("before", original));
    const int64_t missing = r.pages.count - r.pages.shared_count;
    EXPECT_EQ(missing, dictionary ? 4 + 3 : 4);
    // Per column: one last page each, plus the dictionary page of id, x
    // and name.
    ASSERT_EQ(r.page_columns.size(), 4u);
    const std::vector<std::string> paths{"id", "x", "name", "tags.list.element"};
    SharedStats sum;
    for (size_t c = 0; c < 4; ++c) {
      const ColumnShare& column = r.page_columns[c];
      EXPECT_EQ(column.column, paths[c]);
      EXPECT_EQ(column.pages.count - column.pages.shared_count, (dictionary && c < 3) ? 2 : 1)
          << column.column;
      sum.count += column.pages.count;
      sum.shared_count += column.pages.shared_count;
      sum.bytes += column.pages.bytes;
      sum.shared_bytes += column.pages.shared_bytes;
    }
    EXPECT_EQ(sum.count, r.pages.count);
    EXPECT_EQ(sum.shared_count, r.pages.shared_count);
    EXPECT_EQ(sum.bytes, r.pages.bytes);
    EXPECT_EQ(sum.shared_bytes, r.pages.shared_bytes);
    EXPECT_GT(kept_bytes, 10 * lost_bytes);
    EXPECT_GT(r.pages.shared_ratio(), 0.8);
  }
}

// The motivating case (docs/cdc.md, "Why"): rows inserted in the middle.
// Without CDC every page after the insertion point changes; with CDC only
// the pages around it.
TEST(Dedup, InsertingRowsInTheMiddleKeepsMostCdcPages) {
  const int64_t n = 100000;
  std::vector<int64_t> rows;
  for (int64_t i = 0; i < n; ++i) rows.push_back(i);
  std::vector<int64_t> inserted = rows;
  std::vector<int64_t> extra;
  for (int64_t i = 0; i < 1000; ++i) extra.push_back(5'000'000 + i);
  inserted.insert(inserted.begin() + n / 2, extra.begin(), extra.end());
  auto ratio = [&](const parquet::WriterOptions& options) {
    const std::string a = WriteParquet(*MakeTableOfRows(rows, 3), options);
    const std::string b = WriteParquet(*MakeTableOfRows(inserted, 3), options);
    return Compare({View("a", a)}, View("b", b));
  };
  parquet::WriterOptions plain;
  plain.use_dictionary.default_value = false;
  plain.compression.default_value = compression::CompressionCodec::ZSTD;
  const DedupReport without = ratio(plain);
  const DedupReport with = ratio(CdcOptions(false));
  // Without CDC: the pages before the insertion point (a little under half).
  EXPECT_LT(without.pages.shared_ratio(), 0.55);
  EXPECT_GT(with.pages.shared_ratio(), 0.85);
  EXPECT_GT(with.chunks.shared_ratio(), without.chunks.shared_ratio());
}

TEST(Dedup, IndexAccumulatesFilesAndPathsAreRead) {
  const std::string a = WriteParquet(*MakeTable(0, 20000, 1), CdcOptions(false));
  const std::string b = WriteParquet(*MakeTable(0, 30000, 1), CdcOptions(false));
  char dir_template[] = "/tmp/quiver-dedup-test-XXXXXX";
  const std::string dir = ::mkdtemp(dir_template);
  const std::string pa = dir + "/a.parquet";
  const std::string pb = dir + "/b.parquet";
  std::ofstream(pa, std::ios::binary).write(a.data(), static_cast<std::streamsize>(a.size()));
  std::ofstream(pb, std::ios::binary).write(b.data(), static_cast<std::streamsize>(b.size()));
  auto from_paths = ComparePaths({pa}, pb);
  ASSERT_TRUE(from_paths.ok()) << from_paths.status();
  const DedupReport from_memory = Compare({View(pa, a)}, View(pb, b));
  EXPECT_EQ(from_paths->target, pb);
  EXPECT_EQ(from_paths->pages.shared_bytes, from_memory.pages.shared_bytes);
  EXPECT_EQ(from_paths->chunks.shared_bytes, from_memory.chunks.shared_bytes);
  EXPECT_GT(from_paths->pages.shared_ratio(), 0.5);

  auto missing = ComparePaths({dir + "/nope.parquet"}, pb);
  EXPECT_TRUE(missing.status().IsIOError());
  EXPECT_NE(missing.status().message().find("nope.parquet"), std::string::npos);
  auto directory = DigestPath(dir);
  EXPECT_TRUE(directory.status().IsIOError());

  DedupIndex index;
  auto da = DigestPath(pa);
  auto db = DigestPath(pb);
  ASSERT_TRUE(da.ok() && db.ok());
  index.Add(*da);
  index.Add(*db);
  EXPECT_EQ(index.num_files(), 2);
  EXPECT_EQ(index.total_size(), Size(a) + Size(b));
  // a's pages are (nearly all) in b: the distinct pages are fewer than the sum.
  EXPECT_LT(index.distinct_pages(), static_cast<int64_t>(da->pages.size() + db->pages.size()));
  EXPECT_LT(index.distinct_page_bytes(), da->page_bytes() + db->page_bytes());
  EXPECT_GE(index.distinct_page_bytes(), db->page_bytes());
  EXPECT_LE(index.distinct_chunk_bytes(), Size(a) + Size(b));
  EXPECT_GE(index.distinct_chunk_bytes(), Size(b));
  const DedupReport self = index.Compare(*db);
  EXPECT_DOUBLE_EQ(self.pages.shared_ratio(), 1.0);
  // Adding a file twice stores nothing new.
  const int64_t held = index.distinct_chunk_bytes();
  index.Add(*db);
  EXPECT_EQ(index.distinct_chunk_bytes(), held);
  EXPECT_EQ(self.base_files, 2);
  EXPECT_EQ(index.num_files(), 3);

  // An empty file: no pages can be listed.
  const std::string pe = dir + "/empty";
  std::ofstream(pe, std::ios::binary).flush();
  EXPECT_TRUE(DigestPath(pe).status().IsInvalid());
  DedupOptions bytes_only;
  bytes_only.page_level = false;
  auto empty = DigestPath(pe, bytes_only);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(empty->chunks.empty());

  for (const auto& p : {pa, pb, pe}) std::remove(p.c_str());
  ::rmdir(dir.c_str());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::dedup
