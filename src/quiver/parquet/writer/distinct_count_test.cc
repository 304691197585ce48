// Distinct counts: the counters, and the counts a FileWriter writes with
// write_distinct_count, against sets computed here from the values written
// (python/tests/test_parquet_distinct.py judges them against pyarrow's
// count_distinct over every type and option).
#include "quiver/parquet/writer/distinct_count_internal.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/parquet/writer/file_writer.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using namespace ::quiver::testutil;  // NOLINT

TEST(DistinctCounter, FixedWidthValuesByTheirBits) {
  FixedDistinctCounter<uint64_t> doubles(DefaultMemoryPool());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double payload = std::bit_cast<double>(std::bit_cast<uint64_t>(nan) | 1);
  const std::vector<double> v = {0.0, -0.0, nan, nan, payload, -nan, 1.5, 1.5};
  ASSERT_TRUE(doubles.Add(v.data(), static_cast<int64_t>(v.size())).ok());
  EXPECT_EQ(doubles.count(), 6);  // 0, -0, nan, nan|1, -nan, 1.5
  ASSERT_TRUE(doubles.Add(v.data(), 2).ok());
  EXPECT_EQ(doubles.count(), 6);
  FixedDistinctCounter<int32_t> ints(DefaultMemoryPool());
  std::vector<int32_t> many;
  for (int i = 0; i < 100000; ++i) many.push_back(i % 777);
  ASSERT_TRUE(ints.Add(many.data(), static_cast<int64_t>(many.size())).ok());
  EXPECT_EQ(ints.count(), 777);
}

TEST(DistinctCounter, BytesAndRunsOfEqualValues) {
  BytesDistinctCounter bytes(DefaultMemoryPool());
  const std::string a = "abc", b = "abc", c = "ab";
  const std::vector<std::string_view> v = {a, b, c, "", "", std::string_view(a.data(), 0), "abd"};
  ASSERT_TRUE(bytes.Add(v.data(), static_cast<int64_t>(v.size())).ok());
  EXPECT_EQ(bytes.count(), 4);  // "abc", "ab", "", "abd"
  ASSERT_TRUE(bytes.Add("zz").ok());
  EXPECT_EQ(bytes.count(), 5);
}

// A table of one column per entry of `columns`, each of those chunks.
TablePtr MakeTable(const SchemaPtr& schema, const std::vector<std::vector<ArrayDataPtr>>& columns) {
  std::vector<ChunkedArrayPtr> chunked;
  for (size_t i = 0; i < columns.size(); ++i) {
    std::vector<ArrayPtr> chunks;
    for (const auto& c : columns[i]) chunks.push_back(MakeArray(c));
    chunked.push_back(std::make_shared<ChunkedArray>(chunks, schema->field(static_cast<int>(i))->type()));
  }
  auto table = Table::Make(schema, chunked);
  EXPECT_TRUE(table.ok()) << table.status();
  return *table;
}

// The distinct counts of every column chunk of a file written into memory.
std::vector<std::vector<int64_t>> WrittenCounts(const Table& table, const WriterOptions& options) {
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, table.schema(), options);
  EXPECT_TRUE(writer.ok()) << writer.status();
  EXPECT_TRUE((*writer)->WriteTable(table).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  auto bytes = *sink.Finish();
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes->data() + bytes->size() - 8, 4);
  auto md = thrift::DeserializeThrift<format::FileMetaData>(bytes->data() + bytes->size() - 8 - footer_len,
                                                            footer_len);
  EXPECT_TRUE(md.ok()) << md.status();
  std::vector<std::vector<int64_t>> out;
  for (const auto& rg : md->row_groups) {
    out.emplace_back();
    for (const auto& cc : rg.columns) {
      const auto& stats = cc.meta_data->statistics;
      out.back().push_back(stats.has_value() && stats->distinct_count.has_value() ? *stats->distinct_count
                                                                                  : -1);
    }
  }
  return out;
}

template <typename T>
int64_t CountDistinct(const std::vector<T>& values, const std::vector<bool>& valid, int64_t begin,
                      int64_t end) {
  std::set<T> seen;
  for (int64_t i = begin; i < end; ++i) {
    if (valid.empty() || valid[static_cast<size_t>(i)]) seen.insert(values[static_cast<size_t>(i)]);
  }
  return static_cast<int64_t>(seen.size());
}

// One chunk per row group, each its own count; the dictionary on
// throughout, off, and given up part-way (a small dictionary_pagesize_limit,
// dictionary_cost_fallback), each with and without use_threads: the counts
// are the same.
TEST(DistinctCount, EachChunkItsOwnCountWhateverTheEncoding) {
  const int64_t n = 5000, group = 1700;
  std::mt19937_64 rng(7);
  std::vector<int64_t> ints(n);
  std::vector<uint64_t> double_bits(n);
  std::vector<std::string> strings(n);
  std::vector<bool> valid(n), flags(n);
  const uint64_t kNanBits[] = {0x7FF8000000000000ULL, 0x7FF8000000000001ULL, 0xFFF8000000000000ULL,
                               0x8000000000000000ULL, 0};
  for (int64_t i = 0; i < n; ++i) {
    // Few values early (the dictionary pays), many later (it falls back).
    const uint64_t range = i < n / 3 ? 50 : 1u << 20;
    ints[static_cast<size_t>(i)] = static_cast<int64_t>(rng() % range) - 25;
    double_bits[static_cast<size_t>(i)] =
        rng() % 4 == 0 ? kNanBits[rng() % 5] : std::bit_cast<uint64_t>(static_cast<double>(rng() % range));
    strings[static_cast<size_t>(i)] = "s" + std::to_string(rng() % range);
    valid[static_cast<size_t>(i)] = rng() % 5 != 0;
    flags[static_cast<size_t>(i)] = i >= 2 * group && i < 2 * group + 10 ? true : rng() % 2 == 0;
  }
  std::vector<double> doubles(n);
  for (int64_t i = 0; i < n; ++i) doubles[static_cast<size_t>(i)] = std::bit_cast<double>(double_bits[static_cast<size_t>(i)]);
  auto schema = quiver::schema({field("i", int64()), field("d", float64()), field("s", utf8()),
                                field("b", boolean()), field("z", null())});
  std::vector<bool> flag_values = flags;
  for (int64_t i = 2 * group; i < n; ++i) flag_values[static_cast<size_t>(i)] = true;
  auto table = MakeTable(schema, {{ArrayFromVector<int64_t>(int64(), ints, valid)},
                                  {ArrayFromVector<double>(float64(), doubles, valid)},
                                  {StringArrayFromVector(strings, valid)},
                                  {BooleanArrayFromVector(flag_values, valid)},
                                  {NullArrayOfLength(n)}});
  std::vector<std::vector<int64_t>> expected;
  for (int64_t start = 0; start < n; start += group) {
    const int64_t end = std::min(n, start + group);
    expected.push_back({CountDistinct(ints, valid, start, end), CountDistinct(double_bits, valid, start, end),
                        CountDistinct(strings, valid, start, end),
                        CountDistinct(std::vector<int>(flag_values.begin(), flag_values.end()), valid, start, end),
                        0});
  }
  ASSERT_EQ(expected[2][3], 1);  // (the last chunk's booleans are all true)
  std::vector<std::pair<std::string, WriterOptions>> sets;
  WriterOptions base;
  base.row_group_size = group;
  base.write_distinct_count = true;
  sets.emplace_back("dictionary", base);
  WriterOptions plain = base;
  plain.use_dictionary.default_value = false;
  sets.emplace_back("no dictionary", plain);
  WriterOptions fallback = base;
  fallback.dictionary_pagesize_limit = 512;
  fallback.data_page_size = 256;
  sets.emplace_back("fallback", fallback);
  WriterOptions cost = base;
  cost.dictionary_cost_fallback.default_value = true;
  cost.max_rows_per_page = 300;
  sets.emplace_back("cost fallback", cost);
  WriterOptions cdc = base;
  cdc.content_defined_chunking = CdcOptions{1024, 8192, 0};
  sets.emplace_back("cdc", cdc);
  for (auto& [name, options] : sets) {
    for (bool threads : {false, true}) {
      options.use_threads = threads;
      EXPECT_EQ(WrittenCounts(*table, options), expected) << name << (threads ? ", threads" : "");
    }
  }
  // Off: no distinct_count anywhere.
  WriterOptions off;
  off.row_group_size = group;
  for (const auto& rg : WrittenCounts(*table, off)) {
    for (int64_t c : rg) EXPECT_EQ(c, -1);
  }
}

// An Arrow dictionary written as is (its entries become the dictionary page,
// used or not): only the entries the rows use count, and after a later
// call with another dictionary makes the chunk fall back, the values of
// both parts are joined.
TEST(DistinctCount, ArrowDictionaryCountsTheEntriesUsed) {
  const TypePtr type = dictionary(int32(), utf8());
  auto schema = quiver::schema({field("c", type)});
  auto dict1 = StringArrayFromVector({"a", "b", "c", "d", "unused"});
  auto first = DictionaryArrayFromIndices(type, {0, 1, 0, 3, 1}, dict1, {true, true, false, true, true});
  auto dict2 = StringArrayFromVector({"d", "e", "a"});
  auto second = DictionaryArrayFromIndices(type, {0, 1, 2, 1}, dict2);
  WriterOptions options;
  options.write_distinct_count = true;
  for (bool bloom : {false, true}) {
    if (bloom) options.bloom_filter.default_value = BloomFilterOptions{};
    // One call: a, b, d used ("c" only under a null, "unused" never).
    EXPECT_EQ(WrittenCounts(*MakeTable(schema, {{first}}), options), (std::vector<std::vector<int64_t>>{{3}}));
    // Two chunks of one row group: {a, b, d} + {d, e, a} = 4.
    EXPECT_EQ(WrittenCounts(*MakeTable(schema, {{first, second}}), options),
              (std::vector<std::vector<int64_t>>{{4}}));
  }
}

// Timestamps are counted as stored: two nanoseconds in one microsecond
// are one value once truncated.
TEST(DistinctCount, CoercedTimestampsCountAsWritten) {
  auto schema = quiver::schema({field("t", timestamp(TimeUnit::kNano))});
  auto table = MakeTable(schema, {{ArrayFromVector<int64_t>(timestamp(TimeUnit::kNano),
                                                            {1000, 1001, 1999, 2000, -1, 0})}});
  WriterOptions options;
  options.write_distinct_count = true;
  EXPECT_EQ(WrittenCounts(*table, options), (std::vector<std::vector<int64_t>>{{6}}));
  options.coerce_timestamps = TimeUnit::kMicro;
  options.allow_truncated_timestamps = true;
  // 1, 1, 1, 2, 0 (toward zero), 0.
  EXPECT_EQ(WrittenCounts(*table, options), (std::vector<std::vector<int64_t>>{{3}}));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
