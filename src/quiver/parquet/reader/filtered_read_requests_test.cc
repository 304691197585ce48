// The requests a filtered read makes (issue 46 §6: on an object store each
// costs a round trip): counted on a recording io::RandomAccessFile over a
// file of several row groups, 256-row pages and a page index, and compared
// with the plan this test derives from the file's own offset indexes:
//
//   - the page index of the row groups the footer (and dictionaries) keep,
//     fetched once for the whole read: the filter fields' column and offset
//     indexes and the read's other offset indexes, coalesced, less what the
//     footer's suffix read already brought (held for the read);
//   - per row group, the filter columns' bytes (their chunks, or the pages
//     the page index kept) in one coalesced fetch, then the payload's pages
//     the matches touch in another;
//   - a dictionary page that dictionary pruning read is not asked for again;
//   - coalescing with io::CoalesceOptions' defaults: a request holds bytes
//     of pages the read skips only inside holes of at most 8 KiB.
//
// Results equal reading everything and filtering; with use_threads the same
// requests (the row group's fetch is shared by its units on the pool).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/array/test_util_internal.h"
#include "quiver/compute/expression.h"
#include "quiver/io/read_ranges.h"
#include "quiver/io/test_util_internal.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"
#include "quiver/parquet/reader/late_materialization_internal.h"
#include "quiver/parquet/reader/test_files_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace filtered_read_requests_test {

using compute::Expression;
using io::ReadRange;
using io::testutil::RecordingFile;

constexpr int64_t kGroupRows = 8192;
constexpr int kGroups = 4;
constexpr int64_t kRows = kGroupRows * kGroups;
constexpr int64_t kPageRows = 256;
// The leaves, in file order.
enum Leaf : int { kK = 0, kV = 1, kS = 2, kU = 3, kR = 4, kC = 5, kLeaves = 6 };

int32_t UValue(int64_t i) { return static_cast<int32_t>(i * 7919 % 1000); }
// c: "a" and "c" in row groups 0 and 1; "a", "b", "c" in 2 and 3 (so that
// c == "b" passes the statistics everywhere and the dictionary prunes 0, 1).
std::string CValue(int64_t i) {
  const bool has_b = i / kGroupRows >= 2;
  const int64_t m = i % (has_b ? 3 : 2);
  return m == 0 ? "a" : (has_b && m == 1 ? "b" : "c");
}

struct Data {
  TablePtr table;
  std::vector<int32_t> r;  // random in [0, 1000)
  std::shared_ptr<Buffer> bytes;
};

const Data& TestData() {
  static const Data data = [] {
    Data d;
    std::mt19937_64 rng(46);
    std::vector<int64_t> k(kRows);
    std::vector<double> v(kRows);
    std::vector<int32_t> u(kRows);
    std::vector<std::string> s(kRows);
    std::vector<std::string> c(kRows);
    d.r.resize(kRows);
    for (int64_t i = 0; i < kRows; ++i) {
      k[i] = i;
      v[i] = static_cast<double>(rng() % 1000000) / 7.0;
      s[i] = "value-" + std::to_string(rng() % 100000000);
      u[i] = UValue(i);
      d.r[i] = static_cast<int32_t>(rng() % 1000);
      c[i] = CValue(i);
    }
    auto schema = quiver::schema({quiver::field("k", int64()), quiver::field("v", float64()),
                                  quiver::field("s", utf8()), quiver::field("u", int32()),
                                  quiver::field("r", int32()), quiver::field("c", utf8())});
    std::vector<ChunkedArrayPtr> columns;
    for (ArrayDataPtr array : {testutil::ArrayFromVector(int64(), k),
                               testutil::ArrayFromVector(float64(), v),
                               testutil::StringArrayFromVector(s),
                               testutil::ArrayFromVector(int32(), u),
                               testutil::ArrayFromVector(int32(), d.r),
                               testutil::StringArrayFromVector(c)}) {
      columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(array)},
                                                       array->type));
    }
    d.table = std::make_shared<Table>(schema, std::move(columns), kRows);
    WriterOptions options;
    options.row_group_size = kGroupRows;
    options.max_rows_per_page = kPageRows;
    options.write_page_index = true;
    options.use_dictionary.default_value = false;
    options.use_dictionary.by_column["c"] = true;
    d.bytes = testing::WriteToBuffer(*d.table, options);
    return d;
  }();
  return data;
}

// The file's layout, read by a reader of its own (nothing recorded).
class Layout {
 public:
  Layout() {
    auto recording = std::make_shared<RecordingFile>(TestData().bytes);
    auto opened = FileReader::Open(recording);
    EXPECT_TRUE(opened.ok()) << opened.status();
    reader_ = std::move(*opened);
    const auto reads = recording->reads();
    EXPECT_EQ(reads.size(), 1u);
    // The suffix read's page index bytes.
    int64_t index_start = reads.front().offset + reads.front().length;
    for (int g = 0; g < kGroups; ++g) {
      for (int leaf = 0; leaf < kLeaves; ++leaf) {
        index_start = std::min(index_start, *Chunk(g, leaf).column_index_offset);
        index_start = std::min(index_start, *Chunk(g, leaf).offset_index_offset);
      }
    }
    const int64_t begin = std::max(reads.front().offset, index_start);
    tail = {begin, reads.front().offset + reads.front().length - begin};
  }
  // The page index bytes of the footer's suffix read: a filtered read
  // holds them.
  ReadRange tail;
  const format::ColumnChunk& Chunk(int g, int leaf) const {
    return ThriftOf(*reader_->metadata())
        .row_groups[static_cast<size_t>(g)]
        .columns[static_cast<size_t>(leaf)];
  }
  ReadRange ChunkRange(int g, int leaf) const {
    const auto& meta = *Chunk(g, leaf).meta_data;
    const int64_t start = ColumnChunkStart(meta);
    return {start, meta.total_compressed_size};
  }
  // The dictionary page (empty: none).
  ReadRange Dictionary(int g, int leaf) const {
    const auto& meta = *Chunk(g, leaf).meta_data;
    if (!meta.dictionary_page_offset.has_value()) return {};
    return {*meta.dictionary_page_offset, meta.data_page_offset - *meta.dictionary_page_offset};
  }
  std::vector<PageLocation> Pages(int g, int leaf) const {
    auto index = reader_->ReadOffsetIndex(g, leaf);
    EXPECT_TRUE(index.ok() && index->has_value());
    return (*index)->page_locations;
  }
  // The rows of the pages of `leaf` that `rows` touches.
  RowRanges PageRows(int g, int leaf, const RowRanges& rows) const {
    std::vector<RowRange> out;
    const auto pages = Pages(g, leaf);
    for (size_t p = 0; p < pages.size(); ++p) {
      const int64_t end = p + 1 < pages.size() ? pages[p + 1].first_row_index : kGroupRows;
      RowRanges page = *RowRanges::Make({{pages[p].first_row_index, end}});
      if (!rows.Intersect(page).empty()) out.push_back({pages[p].first_row_index, end});
    }
    return *RowRanges::Make(std::move(out));
  }
  // What reading `rows` of `leaf` needs: the chunk for every row, else the
  // pages `rows` touches and the dictionary page; less `held` (bytes read
  // before).
  void Needed(int g, int leaf, const RowRanges& rows, const std::vector<ReadRange>& held,
              std::vector<ReadRange>* out) const {
    if (rows.empty()) return;
    std::vector<ReadRange> ranges;
    if (rows == RowRanges::All(kGroupRows)) {
      ranges.push_back(ChunkRange(g, leaf));
    } else {
      if (Dictionary(g, leaf).length > 0) ranges.push_back(Dictionary(g, leaf));
      const auto pages = Pages(g, leaf);
      for (size_t p = 0; p < pages.size(); ++p) {
        const int64_t end = p + 1 < pages.size() ? pages[p + 1].first_row_index : kGroupRows;
        if (!rows.Intersect(*RowRanges::Make({{pages[p].first_row_index, end}})).empty()) {
          ranges.push_back({pages[p].offset, pages[p].compressed_page_size});
        }
      }
    }
    for (const ReadRange& r : ranges) Trim(r, held, out);
  }
  // `r` less the bytes `held` (and the tail) hold at either end.
  void Trim(ReadRange r, const std::vector<ReadRange>& held, std::vector<ReadRange>* out) const {
    std::vector<ReadRange> all = held;
    all.push_back(tail);
    bool cut = true;
    while (cut && r.length > 0) {
      cut = false;
      for (const ReadRange& h : all) {
        if (h.length <= 0) continue;
        if (h.offset <= r.offset && h.end() > r.offset) {  // a held head
          const int64_t end = r.end();
          r.offset = std::min(h.end(), end);
          r.length = end - r.offset;
          cut = true;
        } else if (h.offset < r.end() && h.end() >= r.end() && h.offset > r.offset) {
          r.length = h.offset - r.offset;  // a held end
          cut = true;
        }
      }
    }
    if (r.length > 0) out->push_back(r);
  }
  void IndexRanges(int g, int leaf, bool column_index, std::vector<ReadRange>* out) const {
    const auto& chunk = Chunk(g, leaf);
    if (column_index) {
      out->push_back({*chunk.column_index_offset, *chunk.column_index_length});
    } else {
      out->push_back({*chunk.offset_index_offset, *chunk.offset_index_length});
    }
  }

 private:
  std::unique_ptr<FileReader> reader_;
};

// A filtered read as this test plans it: the row groups kept and the rows
// of each the page index kept, the filter's leaf, the other leaves read,
// which rows match, and the dictionary pages the pruning read (held).
struct Plan {
  int filter_leaf = 0;
  std::vector<int> payload;
  std::vector<int> groups;
  std::vector<RowRanges> selections;
  std::function<bool(int64_t)> matches;  // by row of the file
  std::vector<ReadRange> dictionaries;   // read by the pruning, in order
};

std::vector<ReadRange> Sorted(std::vector<ReadRange> v) {
  std::sort(v.begin(), v.end(), [](const ReadRange& a, const ReadRange& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.length < b.length;
  });
  return v;
}

// The requests `plan` makes, and (per request) the needed ranges in it.
std::vector<ReadRange> Expected(const Layout& layout, const Plan& plan,
                                std::vector<ReadRange>* needed_all) {
  std::vector<ReadRange> out;  // the dictionaries first (those the tail lacks)
  for (const ReadRange& d : plan.dictionaries) layout.Trim(d, {}, &out);
  std::vector<ReadRange> index;
  for (int g : plan.groups) {
    layout.IndexRanges(g, plan.filter_leaf, true, &index);
    layout.IndexRanges(g, plan.filter_leaf, false, &index);
    for (int leaf : plan.payload) layout.IndexRanges(g, leaf, false, &index);
  }
  std::vector<ReadRange> index_needed;
  for (const ReadRange& r : index) layout.Trim(r, {}, &index_needed);
  *needed_all = index_needed;
  for (const ReadRange& r : io::CoalesceRanges(index_needed)) out.push_back(r);
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const int g = plan.groups[i];
    const RowRanges& selection = plan.selections[i];
    std::vector<ReadRange> first;
    layout.Needed(g, plan.filter_leaf, selection, plan.dictionaries, &first);
    // The matches among the selected rows, and the rows the payload reads.
    std::vector<uint8_t> keep(static_cast<size_t>(bit_util::BytesForBits(selection.row_count())));
    int64_t pos = 0;
    for (const RowRange& range : selection.ranges()) {
      for (int64_t row = range.begin; row < range.end; ++row, ++pos) {
        if (plan.matches(g * kGroupRows + row)) bit_util::SetBit(keep.data(), pos);
      }
    }
    std::vector<uint8_t> cover_keep;
    int64_t cover_length = 0;
    bool exact = true;
    const RowRanges cover = internal::CoverMatches(selection, keep.data(), 0,
                                                   internal::kMergeGapRows, &cover_keep,
                                                   &cover_length, &exact);
    std::vector<ReadRange> second;
    for (int leaf : plan.payload) layout.Needed(g, leaf, cover, plan.dictionaries, &second);
    for (const auto* phase : {&first, &second}) {
      needed_all->insert(needed_all->end(), phase->begin(), phase->end());
      for (const ReadRange& r : io::CoalesceRanges(*phase)) out.push_back(r);
    }
  }
  needed_all->insert(needed_all->end(), plan.dictionaries.begin(), plan.dictionaries.end());
  return out;
}

// Within each request, the bytes not needed (those of pages skipped, or
// index entries of other columns) lie in holes of at most 8 KiB between
// needed ranges, and each request starts and ends with needed bytes.
void ExpectHolesWithinLimit(const std::vector<ReadRange>& reads,
                            const std::vector<ReadRange>& needed) {
  const int64_t limit = io::CoalesceOptions{}.hole_size_limit;
  for (const ReadRange& read : reads) {
    std::vector<ReadRange> inside;
    for (const ReadRange& n : needed) {
      if (n.offset >= read.offset && n.end() <= read.end()) inside.push_back(n);
    }
    inside = Sorted(inside);
    ASSERT_FALSE(inside.empty()) << "request [" << read.offset << ", " << read.end()
                                 << ") holds no needed byte";
    EXPECT_EQ(inside.front().offset, read.offset);
    int64_t end = inside.front().end();
    for (const ReadRange& n : inside) {
      EXPECT_LE(n.offset - end, limit) << "a hole of " << n.offset - end << " bytes at " << end;
      end = std::max(end, n.end());
    }
    EXPECT_EQ(end, read.end());
  }
}

void ExpectDisjoint(const std::vector<ReadRange>& reads) {
  const auto sorted = Sorted(reads);
  for (size_t i = 1; i < sorted.size(); ++i) {
    EXPECT_LE(sorted[i - 1].end(), sorted[i].offset)
        << "byte " << sorted[i].offset << " requested twice";
  }
}

Expression Int(int64_t v) { return compute::literal(Scalar::MakeInt64(v)); }

TablePtr Oracle(const Expression& filter, const std::optional<std::vector<std::string>>& columns) {
  auto kept = compute::FilterByExpression(*TestData().table, filter);
  EXPECT_TRUE(kept.ok()) << kept.status();
  if (!columns.has_value()) return *kept;
  FieldVector fields;
  std::vector<ChunkedArrayPtr> out;
  for (const std::string& name : *columns) {
    const int i = (*kept)->schema()->GetFieldIndex(name);
    fields.push_back((*kept)->schema()->field(i));
    out.push_back((*kept)->column(i));
  }
  return std::make_shared<Table>(quiver::schema(fields), std::move(out), (*kept)->num_rows());
}

struct Read {
  std::vector<ReadRange> reads;
  ReadStats stats;
};

// The filtered read on a fresh reader over a recording file: its
// requests (after the footer's) and stats; the result checked.
Read ReadFiltered(const Expression& filter, const std::optional<std::vector<std::string>>& columns,
                  bool threads) {
  auto recording = std::make_shared<RecordingFile>(TestData().bytes);
  auto opened = FileReader::Open(recording);
  EXPECT_TRUE(opened.ok()) << opened.status();
  FileReader& reader = **opened;
  reader.set_use_threads(threads);
  if (threads) SetParallelReadMinBytes(reader, 0);
  const size_t footer = recording->reads().size();
  auto got = reader.ReadTable(filter, columns);
  EXPECT_TRUE(got.ok()) << got.status();
  Read out;
  if (!got.ok()) return out;
  EXPECT_TRUE((*got)->Equals(*Oracle(filter, columns)));
  const auto all = recording->reads();
  for (size_t i = footer; i < all.size(); ++i) out.reads.push_back({all[i].offset, all[i].length});
  out.stats = reader.read_stats();
  int64_t bytes = 0;
  for (const ReadRange& r : out.reads) bytes += r.length;
  EXPECT_EQ(out.stats.bytes_read, bytes);
  return out;
}

void ExpectPlan(const Expression& filter, const std::optional<std::vector<std::string>>& columns,
                const Plan& plan) {
  const Layout layout;
  std::vector<ReadRange> needed;
  const std::vector<ReadRange> want = Expected(layout, plan, &needed);
  for (bool threads : {false, true}) {
    SCOPED_TRACE(threads ? "use_threads" : "one thread");
    const Read read = ReadFiltered(filter, columns, threads);
    EXPECT_EQ(read.reads.size(), want.size());
    EXPECT_EQ(Sorted(read.reads), Sorted(want));
    ExpectDisjoint(read.reads);
    ExpectHolesWithinLimit(read.reads, needed);
  }
}

std::vector<int> AllGroups() { return {0, 1, 2, 3}; }
std::vector<RowRanges> AllRows(size_t n) {
  return std::vector<RowRanges>(n, RowRanges::All(kGroupRows));
}

TEST(FilteredReadRequests, PlainReadIsOneRequestPerRowGroup) {
  auto recording = std::make_shared<RecordingFile>(TestData().bytes);
  auto reader = FileReader::Open(recording);
  ASSERT_TRUE(reader.ok());
  const size_t footer = recording->reads().size();
  ASSERT_TRUE((*reader)->ReadTable().ok());
  const Layout layout;
  std::vector<ReadRange> want;
  for (int g = 0; g < kGroups; ++g) {
    const ReadRange first = layout.ChunkRange(g, kK);
    const ReadRange last = layout.ChunkRange(g, kC);
    want.push_back({first.offset, last.end() - first.offset});
  }
  const auto all = recording->reads();
  std::vector<ReadRange> got;
  for (size_t i = footer; i < all.size(); ++i) got.push_back({all[i].offset, all[i].length});
  EXPECT_EQ(got, want);
}

// A filter no statistics or page prunes (half the rows, scattered): the
// page index once, then a request per row group for the filter column,
// and (all columns) the others' chunks.
TEST(FilteredReadRequests, OneColumnFilter) {
  const Expression filter = compute::less(compute::field("u"), Int(500));
  Plan plan;
  plan.filter_leaf = kU;
  plan.groups = AllGroups();
  plan.selections = AllRows(kGroups);
  plan.matches = [](int64_t i) { return UValue(i) < 500; };
  ExpectPlan(filter, std::vector<std::string>{"u"}, plan);
}

TEST(FilteredReadRequests, AllColumnsFilter) {
  const Expression filter = compute::less(compute::field("u"), Int(500));
  Plan plan;
  plan.filter_leaf = kU;
  plan.payload = {kK, kV, kS, kR, kC};
  plan.groups = AllGroups();
  plan.selections = AllRows(kGroups);
  plan.matches = [](int64_t i) { return UValue(i) < 500; };
  ExpectPlan(filter, std::nullopt, plan);
  // At most 1 page index request (none when the footer's suffix read
  // holds it) and 3 a row group: u's chunk, then the others' (k, v, s and
  // r, c: u's chunk, already read, lies between them and is longer than
  // the hole limit).
  const Layout layout;
  std::vector<ReadRange> needed;
  const std::vector<ReadRange> want = Expected(layout, plan, &needed);
  EXPECT_GE(want.size(), 3u * kGroups);
  EXPECT_LE(want.size(), 1u + 3 * kGroups);
}

// 8 rows of a sorted column: the statistics keep one row group, its
// column index one page of k; the payload reads that page's rows of each
// column.
TEST(FilteredReadRequests, PagePruning) {
  const int64_t lo = kGroupRows + 1000;
  const Expression filter = compute::and_kleene(
      compute::greater_equal(compute::field("k"), Int(lo)), compute::less(compute::field("k"), Int(lo + 8)));
  const Layout layout;
  Plan plan;
  plan.filter_leaf = kK;
  plan.payload = {kV, kS, kU, kR, kC};
  plan.groups = {1};
  plan.selections = {layout.PageRows(1, kK, *RowRanges::Make({{1000, 1008}}))};
  EXPECT_EQ(plan.selections[0].row_count(), kPageRows);
  plan.matches = [&](int64_t i) { return i >= lo && i < lo + 8; };
  ExpectPlan(filter, std::nullopt, plan);
  const Read read = ReadFiltered(filter, std::nullopt, false);
  EXPECT_EQ(read.stats.row_groups_pruned_statistics, 3);
}

// About 0.1% of the rows, scattered (r == 7): no page is pruned; the
// payload reads only the pages around the matches, coalesced where they
// are at most 8 KiB apart.
TEST(FilteredReadRequests, SelectiveScattered) {
  const Expression filter = compute::equal(compute::field("r"), Int(7));
  const auto& r = TestData().r;
  Plan plan;
  plan.filter_leaf = kR;
  plan.payload = {kK, kV, kS};
  plan.groups = AllGroups();
  plan.selections = AllRows(kGroups);
  plan.matches = [&](int64_t i) { return r[static_cast<size_t>(i)] == 7; };
  int64_t matches = 0;
  for (int64_t i = 0; i < kRows; ++i) matches += plan.matches(i) ? 1 : 0;
  ASSERT_GT(matches, kRows / 2000);
  ASSERT_LT(matches, kRows / 500);
  ExpectPlan(filter, std::vector<std::string>{"k", "v", "s"}, plan);
  // Fewer bytes than the plain read of those columns and r.
  const Read read = ReadFiltered(filter, std::vector<std::string>{"k", "v", "s"}, false);
  int64_t plain = 0;
  const Layout layout;
  for (int g = 0; g < kGroups; ++g) {
    for (int leaf : {kK, kV, kS, kR}) plain += layout.ChunkRange(g, leaf).length;
  }
  EXPECT_LT(read.stats.bytes_read, plain);
  EXPECT_GT(read.stats.pages_skipped, 0);
}

// c == "b": the dictionaries prune row groups 0 and 1 and keep 2 and 3;
// the dictionary pages read for that (one request each) are not asked for
// again by the read of c that follows.
TEST(FilteredReadRequests, DictionaryReadOnce) {
  const Expression filter =
      compute::equal(compute::field("c"), compute::literal(Scalar::MakeString("b")));
  const Layout layout;
  Plan plan;
  plan.filter_leaf = kC;
  plan.payload = {kK};
  plan.groups = {2, 3};
  plan.selections = AllRows(2);
  plan.matches = [](int64_t i) { return CValue(i) == "b"; };
  for (int g = 0; g < kGroups; ++g) plan.dictionaries.push_back(layout.Dictionary(g, kC));
  ASSERT_GT(plan.dictionaries.front().length, 0);
  ExpectPlan(filter, std::vector<std::string>{"k"}, plan);
  const Read read = ReadFiltered(filter, std::vector<std::string>{"k"}, false);
  EXPECT_EQ(read.stats.row_groups_pruned_dictionary, 2);
}

}  // namespace filtered_read_requests_test
}  // namespace quiver::parquet
