// Masked reads (ReadRowGroupsMasked, ColumnReader::ReadRecordsMasked and
// the runs decoders) against reading the same selection and filtering it:
// every type the writer takes, with and without nulls, required columns,
// PLAIN, dictionary (falling back to PLAIN mid-chunk), DELTA and
// BYTE_STREAM_SPLIT pages of different sizes, v1 and v2 pages, with and
// without the page index; random masks of densities 0.001 to 0.9, one
// thread and several; every array ValidateFull'd.
#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/array/test_util_internal.h"
#include "quiver/compute/filter.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"
#include "quiver/parquet/reader/test_files_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using testing::AsFile;
using testing::WriteToBuffer;

constexpr int64_t kRows = 3000;
constexpr int64_t kGroupRows = 1000;

// AllTypeColumns (those the writer takes), plus low-cardinality strings and
// integers (dictionary pages that hold), a mostly-null column and required
// (max definition level 0) ones.
TablePtr MaskTable() {
  FieldVector fields;
  std::vector<ChunkedArrayPtr> columns;
  auto add = [&](const std::string& name, ArrayDataPtr data, bool nullable) {
    fields.push_back(field(name, data->type, nullable));
    columns.push_back(
        std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(data)}, data->type));
  };
  for (auto& column : testutil::AllTypeColumns(kRows)) {
    io::BufferOutputStream probe;
    auto one = schema({field(column.name, column.data->type, column.nullable)});
    auto writer = FileWriter::Open(&probe, one);
    if (!writer.ok() ||
        !(*writer)->WriteRecordBatch(RecordBatch(one, kRows, {column.data})).ok()) {
      continue;
    }
    add(column.name, column.data, column.nullable);
  }
  std::vector<std::string> few;
  std::vector<int64_t> small;
  std::vector<int32_t> sparse;
  std::vector<bool> few_valid, sparse_valid, flags;
  const char* kWords[] = {"alpha", "", "gamma", "a longer value than twelve bytes", "e"};
  for (int64_t i = 0; i < kRows; ++i) {
    few.push_back(kWords[(i * i) % 5]);
    few_valid.push_back(i % 3 != 2);
    small.push_back((i * 7) % 11 - 5);
    sparse.push_back(static_cast<int32_t>(i));
    sparse_valid.push_back(i % 50 == 0);
    flags.push_back((i * 13) % 7 < 3);
  }
  add("lowcard_str", testutil::StringArrayFromVector(few, few_valid), true);
  add("lowcard_i64", testutil::ArrayFromVector(int64(), small), true);
  add("mostly_null", testutil::ArrayFromVector(int32(), sparse, sparse_valid), true);
  add("req_i64", testutil::ArrayFromVector(int64(), small), false);
  add("req_str", testutil::StringArrayFromVector(few), false);
  add("req_bool", testutil::BooleanArrayFromVector(flags), false);
  auto table = Table::Make(schema(std::move(fields)), std::move(columns));
  EXPECT_TRUE(table.ok()) << table.status();
  return *table;
}

struct Variant {
  std::string name;
  WriterOptions options;
};

std::vector<Variant> Variants(const Schema& schema) {
  std::vector<Variant> out;
  auto base = [] {
    WriterOptions o;
    o.row_group_size = kGroupRows;
    o.compression.default_value = compression::CompressionCodec::UNCOMPRESSED;
    return o;
  };
  {
    WriterOptions o = base();
    o.use_dictionary.default_value = false;
    o.max_rows_per_page = 37;
    out.push_back({"plain_v1_index", o});
  }
  {
    // Dictionaries falling back to PLAIN mid-chunk (the distinct strings
    // and numbers pass 200 bytes), v2 pages, zstd.
    WriterOptions o = base();
    o.dictionary_pagesize_limit = 200;
    o.data_page_version = DataPageVersion::kV2;
    o.compression.default_value = compression::CompressionCodec::ZSTD;
    o.max_rows_per_page = 100;
    o.write_batch_size = 16;
    out.push_back({"dictionary_fallback_v2", o});
  }
  {
    // DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
    // BYTE_STREAM_SPLIT, pages of up to 300 rows or 1 KiB.
    WriterOptions o = base();
    o.use_dictionary.default_value = false;
    o.max_rows_per_page = 300;
    o.data_page_size = 1024;
    for (const char* name : {"int8", "int32", "int64", "uint16", "uint64", "date32", "ts",
                             "lowcard_i64", "req_i64", "mostly_null"}) {
      if (schema.GetFieldIndex(name) >= 0) {
        o.column_encoding[name] = ColumnEncoding::kDeltaBinaryPacked;
      }
    }
    for (const char* name : {"utf8", "large_utf8", "req_str"}) {
      if (schema.GetFieldIndex(name) >= 0) {
        o.column_encoding[name] = ColumnEncoding::kDeltaLengthByteArray;
      }
    }
    for (const char* name : {"binary", "large_binary", "lowcard_str"}) {
      if (schema.GetFieldIndex(name) >= 0) o.column_encoding[name] = ColumnEncoding::kDeltaByteArray;
    }
    for (const char* name : {"float32", "float64", "int16", "time64"}) {
      if (schema.GetFieldIndex(name) >= 0) o.use_byte_stream_split.by_column[name] = true;
    }
    out.push_back({"delta_bss", o});
  }
  {
    // No page index (unselected runs skipped by levels), pages of up to
    // 512 bytes (different row counts), dictionaries kept.
    WriterOptions o = base();
    o.write_page_index = false;
    o.compression.default_value = compression::CompressionCodec::SNAPPY;
    o.data_page_size = 512;
    o.max_rows_per_page = 400;
    o.write_batch_size = 8;
    out.push_back({"dictionary_no_index_small_pages", o});
  }
  return out;
}

// A mask of `n` bits at about `density`: independent bits, or (clustered)
// runs of random lengths.
std::vector<uint8_t> RandomMask(std::mt19937_64& rng, int64_t n, double density, bool clustered) {
  std::vector<uint8_t> bits(static_cast<size_t>(bit_util::BytesForBits(n) + 8), 0);
  std::uniform_real_distribution<double> unit(0, 1);
  int64_t i = 0;
  while (i < n) {
    const int64_t run = clustered ? 1 + static_cast<int64_t>(rng() % 40) : 1;
    const bool on = unit(rng) < density;
    for (int64_t k = 0; k < run && i < n; ++k, ++i) {
      if (on) bit_util::SetBit(bits.data(), i);
    }
  }
  return bits;
}

// A row group's selection: every row, or kept runs covering about 70%.
RowRanges RandomSelection(std::mt19937_64& rng, bool all) {
  if (all) return RowRanges::All(kGroupRows);
  std::vector<RowRange> ranges;
  int64_t i = 0;
  while (i < kGroupRows) {
    const int64_t run = 1 + static_cast<int64_t>(rng() % 150);
    const int64_t end = std::min(kGroupRows, i + run);
    if (rng() % 10 < 7) ranges.push_back({i, end});
    i = end;
  }
  auto made = RowRanges::Make(std::move(ranges));
  EXPECT_TRUE(made.ok());
  return *made;
}

// Each column of `table` (the selections' rows, in order) filtered by
// bits [0, rows) of `keep`.
TablePtr FilterColumns(const Table& table, const std::vector<uint8_t>& keep) {
  std::vector<ChunkedArrayPtr> columns;
  int64_t rows = 0;
  for (const ChunkedArrayPtr& column : table.columns()) {
    std::vector<ArrayPtr> pieces;
    int64_t at = 0;
    for (const ArrayPtr& chunk : column->chunks()) {
      auto bits = Buffer::Copy(keep.data(), static_cast<int64_t>(keep.size()));
      EXPECT_TRUE(bits.ok());
      auto mask = ArrayData::Make(boolean(), chunk->length(), {nullptr, *bits}, 0, at);
      auto kept = compute::Filter(chunk->data(), mask);
      EXPECT_TRUE(kept.ok()) << kept.status();
      pieces.push_back(MakeArray(*kept));
      at += chunk->length();
    }
    rows = 0;
    for (const auto& piece : pieces) rows += piece->length();
    columns.push_back(std::make_shared<ChunkedArray>(std::move(pieces), column->type()));
  }
  return std::make_shared<Table>(table.schema(), std::move(columns), rows);
}

void ExpectSame(const Table& got, const Table& want, const std::string& what) {
  ASSERT_TRUE(got.schema()->Equals(*want.schema())) << what;
  ASSERT_EQ(got.num_rows(), want.num_rows()) << what;
  EqualOptions options;
  options.nans_equal = true;
  for (int c = 0; c < got.num_columns(); ++c) {
    for (const ArrayPtr& chunk : got.column(c)->chunks()) {
      const Status valid = chunk->ValidateFull();
      ASSERT_TRUE(valid.ok()) << what << ": column " << got.schema()->field(c)->name() << ": "
                              << valid.ToString();
    }
    EXPECT_TRUE(got.column(c)->Equals(*want.column(c), options))
        << what << ": column " << got.schema()->field(c)->name();
  }
}

TEST(MaskedReadTest, MaskedReadsEveryType) {
  const TablePtr table = MaskTable();
  for (const Variant& variant : Variants(*table->schema())) {
    const auto bytes = WriteToBuffer(*table, variant.options);
    ASSERT_NE(bytes, nullptr) << variant.name;
    for (bool threads : {false, true}) {
      ReaderOptions read_options;
      read_options.use_threads = threads;
      auto reader = FileReader::Open(AsFile(bytes, variant.name), read_options);
      ASSERT_TRUE(reader.ok()) << reader.status();
      if (threads) SetParallelReadMinBytes(**reader, 0);
      ASSERT_EQ((*reader)->num_row_groups(), 3);
      uint64_t seed = 0;
      for (double density : {0.001, 0.02, 0.2, 0.9}) {
        // (Several threads: the first round.)
        for (int round = 0; round < (threads ? 1 : 2); ++round, ++seed) {
          std::mt19937_64 rng(seed * 31 + (threads ? 7 : 0));
          const std::vector<int> groups = round == 0 ? std::vector<int>{0, 1, 2}
                                                     : std::vector<int>{2, 0};
          std::vector<RowRanges> selections;
          int64_t selected = 0;
          for (size_t g = 0; g < groups.size(); ++g) {
            selections.push_back(RandomSelection(rng, round == 0 || g == 0));
            selected += selections.back().row_count();
          }
          const std::vector<uint8_t> keep = RandomMask(rng, selected, density, round == 1);
          auto keep_bits = Buffer::Copy(keep.data(), static_cast<int64_t>(keep.size()));
          ASSERT_TRUE(keep_bits.ok());
          auto read = (*reader)->ReadRowGroups(groups, selections);
          ASSERT_TRUE(read.ok()) << read.status();
          const TablePtr want = FilterColumns(**read, keep);
          for (bool decode_masked : {true, false}) {
            std::vector<RowMask> masks;
            int64_t offset = 0;
            for (const RowRanges& selection : selections) {
              masks.push_back({*keep_bits, offset, decode_masked});
              offset += selection.row_count();
            }
            const std::string what = variant.name + (threads ? " threads" : " one thread") +
                                     " density " + std::to_string(density) + " round " +
                                     std::to_string(round) +
                                     (decode_masked ? " masked" : " filtered");
            auto got = ReadRowGroupsMasked(**reader, groups, selections, masks, std::nullopt);
            ASSERT_TRUE(got.ok()) << what << ": " << got.status();
            ExpectSame(**got, *want, what);
          }
        }
      }
    }
  }
}

// values_decoded counts the values a masked read decodes: those of the
// selected rows that are not null, nothing for the rows skipped.
TEST(MaskedReadTest, CountsOnlyTheValuesDecoded) {
  const TablePtr table = MaskTable();
  const std::vector<std::string> columns = {"int32", "req_str", "lowcard_str", "mostly_null",
                                            "bool", "fsb"};
  for (const Variant& variant : Variants(*table->schema())) {
    auto reader = FileReader::Open(AsFile(WriteToBuffer(*table, variant.options), variant.name));
    ASSERT_TRUE(reader.ok()) << reader.status();
    std::mt19937_64 rng(5);
    const std::vector<uint8_t> keep = RandomMask(rng, kRows, 0.01, false);
    auto keep_bits = Buffer::Copy(keep.data(), static_cast<int64_t>(keep.size()));
    ASSERT_TRUE(keep_bits.ok());
    const std::vector<int> groups = {0, 1, 2};
    const std::vector<RowRanges> selections(3, RowRanges::All(kGroupRows));
    const std::vector<RowMask> masks = {
        {*keep_bits, 0, true}, {*keep_bits, kGroupRows, true}, {*keep_bits, 2 * kGroupRows, true}};
    auto got = ReadRowGroupsMasked(**reader, groups, selections, masks, columns);
    ASSERT_TRUE(got.ok()) << got.status();
    int64_t values = 0;
    for (const ChunkedArrayPtr& column : (*got)->columns()) {
      values += column->length() - column->null_count();
    }
    EXPECT_GT((*got)->num_rows(), 10) << variant.name;
    EXPECT_EQ((*reader)->read_stats().values_decoded, values) << variant.name;
  }
}

// Errors keep their place: a mask too short for its selection.
TEST(MaskedReadTest, MaskShorterThanTheSelectionIsInvalid) {
  const TablePtr table = MaskTable();
  auto reader = FileReader::Open(AsFile(WriteToBuffer(*table, Variants(*table->schema())[0].options)));
  ASSERT_TRUE(reader.ok());
  auto bits = Buffer::Copy(std::vector<uint8_t>(16, 0xFF).data(), 16);
  ASSERT_TRUE(bits.ok());
  auto got = ReadRowGroupsMasked(**reader, {0}, {RowRanges::All(kGroupRows)}, {{*bits, 0, true}},
                                 std::vector<std::string>{"int32"});
  ASSERT_TRUE(got.status().IsInvalid()) << got.status();
  EXPECT_NE(got.status().message().find("fewer bits than its 1000 selected rows"),
            std::string::npos)
      << got.status();
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
