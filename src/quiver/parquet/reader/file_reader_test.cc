#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/array/test_util_internal.h"
#include "quiver/io/file.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/reader/test_files_internal.h"
#include "quiver/parquet/reader/test_util_internal.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/base64.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using namespace quiver::testutil;  // NOLINT
using format::FieldRepetitionType;
using format::Type;
using testing::DataPageV1;
using testing::DataPageV2;
using testing::Leaf;
using testing::MakeParquetFile;
using testing::Root;
using testing::TestChunk;
using testing::TestRowGroup;
using testing::WriteToBuffer;
using testing::AsFile;

constexpr auto kRequired = FieldRepetitionType::kRequired;
constexpr auto kOptional = FieldRepetitionType::kOptional;
constexpr auto kRepeated = FieldRepetitionType::kRepeated;

Result<TablePtr> ReadAll(std::shared_ptr<io::RandomAccessFile> file, ReaderOptions options = {}) {
  QUIVER_ASSIGN_OR_RAISE(auto reader, FileReader::Open(std::move(file), options));
  QUIVER_ASSIGN_OR_RAISE(auto table, reader->ReadTable());
  QUIVER_RETURN_NOT_OK(table->ValidateFull());
  return table;
}

TablePtr MakeTable(FieldVector fields, std::vector<ArrayDataPtr> columns) {
  std::vector<ChunkedArrayPtr> chunked;
  for (size_t i = 0; i < columns.size(); ++i) {
    chunked.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(columns[i])},
                                                     fields[i]->type()));
  }
  auto table = Table::Make(schema(std::move(fields)), std::move(chunked));
  EXPECT_TRUE(table.ok()) << table.status();
  return *table;
}

void ExpectRoundTrip(const TablePtr& table, WriterOptions options = {}) {
  auto read = ReadAll(AsFile(WriteToBuffer(*table, std::move(options))));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE((*read)->Equals(*table)) << (*read)->schema()->ToString() << "\nvs\n"
                                       << table->schema()->ToString();
}

// A flat table of n rows with nulls in every nullable column.
TablePtr FlatTable(int64_t n) {
  std::vector<bool> valid = Validity(n, 3);
  std::vector<bool> bools;
  for (int64_t i = 0; i < n; ++i) bools.push_back(i % 5 < 2);
  return MakeTable(
      {field("i32", int32()), field("i64", int64(), false), field("f64", float64()),
       field("b", boolean()), field("s", utf8()), field("bin", binary(), false)},
      {ArrayFromVector(int32(), Sequence<int32_t>(n, -5, 3), valid),
       ArrayFromVector(int64(), Sequence<int64_t>(n, 1LL << 40, 7)),
       ArrayFromVector(float64(), Sequence<double>(n, 0.5, 1.25), valid),
       BooleanArrayFromVector(bools, valid), StringArrayFromVector(Strings(n), valid),
       StringArrayFromVector(Strings(n, 3), {}, binary())});
}

TEST(FileReaderTest, FlatRoundTripUnderOptionSets) {
  const TablePtr table = FlatTable(3000);
  ExpectRoundTrip(table);
  WriterOptions plain;
  plain.use_dictionary.default_value = false;
  plain.data_page_size = 512;
  ExpectRoundTrip(table, plain);
  WriterOptions v2;
  v2.data_page_version = DataPageVersion::kV2;
  v2.compression.default_value = compression::CompressionCodec::ZSTD;
  v2.max_rows_per_page = 100;
  ExpectRoundTrip(table, v2);
  WriterOptions groups;
  groups.row_group_size = 700;
  groups.compression.default_value = compression::CompressionCodec::GZIP;
  ExpectRoundTrip(table, groups);
}

TEST(FileReaderTest, NestedRoundTrip) {
  // list<int64>: [0, 1], null, [], [null, 4], [5]
  auto items = ArrayFromVector(int64(), std::vector<int64_t>{0, 1, 0, 4, 5},
                               {true, true, false, true, true});
  auto lists = ListArrayFromOffsets(list(int64()), {0, 2, 2, 2, 4, 5}, items,
                                    {true, false, true, true, true});
  // struct<a: int32, b: string> with a null struct and a null child.
  auto a = ArrayFromVector(int32(), std::vector<int32_t>{1, 2, 3, 4, 5}, {true, true, true, false, true});
  auto b = StringArrayFromVector({"x", "", "zz", "w", "v"}, {true, true, false, true, true});
  auto st_type = struct_({field("a", int32()), field("b", utf8())});
  auto st = StructArrayFromChildren(st_type, 5, {a, b}, {true, false, true, true, true});
  // map<string, int64>
  auto keys = StringArrayFromVector({"k1", "k2", "k3"});
  auto values = ArrayFromVector(int64(), std::vector<int64_t>{10, 20, 30}, {true, false, true});
  auto map_type = map(utf8(), int64());
  auto entries = StructArrayFromChildren(map_type->field(0)->type(), 3, {keys, values});
  auto maps = ListArrayFromOffsets(map_type, {0, 1, 1, 3, 3, 3}, entries,
                                   {true, true, true, false, true});
  // list<struct<x: list<int32>>>
  auto inner_items = ArrayFromVector(int32(), std::vector<int32_t>{7, 8, 9});
  auto inner = ListArrayFromOffsets(list(int32()), {0, 2, 2, 3}, inner_items, {true, true, true});
  auto elem_type = struct_({field("x", list(int32()))});
  auto elems = StructArrayFromChildren(elem_type, 3, {inner}, {true, true, true});
  auto outer = ListArrayFromOffsets(list(elem_type), {0, 1, 1, 3, 3, 3}, elems,
                                    {true, true, true, true, false});
  const TablePtr table =
      MakeTable({field("l", list(int64())), field("s", st_type), field("m", map_type),
                 field("ls", list(elem_type))},
                {lists, st, maps, outer});
  ExpectRoundTrip(table);
  WriterOptions v2;
  v2.data_page_version = DataPageVersion::kV2;
  v2.use_dictionary.default_value = false;
  ExpectRoundTrip(table, v2);
}

TEST(FileReaderTest, BatchesAcrossPagesAndRowGroups) {
  const TablePtr table = FlatTable(2500);
  WriterOptions options;
  options.row_group_size = 1000;
  options.max_rows_per_page = 64;
  auto bytes = WriteToBuffer(*table, options);
  for (int64_t batch_size : {1, 7, 1024, 65536}) {
    auto reader = FileReader::Open(AsFile(bytes));
    ASSERT_TRUE(reader.ok()) << reader.status();
    auto batches = (*reader)->GetRecordBatchReader(std::nullopt, std::nullopt, batch_size);
    ASSERT_TRUE(batches.ok()) << batches.status();
    auto read = (*batches)->ToTable();
    ASSERT_TRUE(read.ok()) << read.status();
    ASSERT_TRUE((*read)->ValidateFull().ok());
    EXPECT_TRUE((*read)->Equals(*table)) << "batch_size " << batch_size;
  }
}

TEST(FileReaderTest, ProjectionAndRowGroups) {
  const TablePtr table = FlatTable(100);
  WriterOptions options;
  options.row_group_size = 30;
  auto reader = FileReader::Open(AsFile(WriteToBuffer(*table, options)));
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->num_row_groups(), 4);
  auto part = (*reader)->ReadTable(std::vector<std::string>{"s", "i32"}, std::vector<int>{1, 3});
  ASSERT_TRUE(part.ok()) << part.status();
  EXPECT_EQ((*part)->num_rows(), 40);
  EXPECT_EQ((*part)->schema()->field(0)->name(), "s");
  EXPECT_EQ((*part)->schema()->field(1)->name(), "i32");
  auto unknown = (*reader)->ReadTable(std::vector<std::string>{"nope"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("no column named 'nope'"), std::string::npos);
  auto bad_group = (*reader)->ReadTable(std::nullopt, std::vector<int>{4});
  ASSERT_FALSE(bad_group.ok());
  EXPECT_NE(bad_group.status().message().find("row group 4 out of range"), std::string::npos);
}

TEST(FileReaderTest, StructLeafProjection) {
  auto a = ArrayFromVector(int32(), std::vector<int32_t>{1, 2});
  auto b = StringArrayFromVector({"x", "y"});
  auto st_type = struct_({field("a", int32()), field("b", utf8())});
  const TablePtr table = MakeTable({field("s", st_type)}, {StructArrayFromChildren(st_type, 2, {a, b})});
  auto reader = FileReader::Open(AsFile(WriteToBuffer(*table)));
  ASSERT_TRUE(reader.ok());
  auto read = (*reader)->ReadTable(std::vector<std::string>{"s.b"});
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ((*read)->schema()->field(0)->type()->ToString(), "struct<b: string>");
}

TEST(FileReaderTest, NoColumnsStillCountsRows) {
  auto reader = FileReader::Open(AsFile(WriteToBuffer(*FlatTable(50))));
  ASSERT_TRUE(reader.ok());
  auto read = (*reader)->ReadTable(std::vector<std::string>{});
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ((*read)->num_columns(), 0);
  EXPECT_EQ((*read)->num_rows(), 50);
}

TEST(FileReaderTest, PageIndexAndBloomFilter) {
  const TablePtr table = FlatTable(3000);
  WriterOptions options;
  options.max_rows_per_page = 500;
  options.bloom_filter.by_column["i64"] = BloomFilterOptions{3000, 0.01};
  auto reader = FileReader::Open(AsFile(WriteToBuffer(*table, options)));
  ASSERT_TRUE(reader.ok());
  const int i64 = ParquetSchemaOf(**reader).FindColumn("i64");
  auto offsets = (*reader)->ReadOffsetIndex(0, i64);
  ASSERT_TRUE(offsets.ok()) << offsets.status();
  ASSERT_TRUE(offsets->has_value());
  EXPECT_EQ((*offsets)->page_locations.size(), 6u);
  EXPECT_EQ((*offsets)->page_locations[1].first_row_index, 500);
  auto index = (*reader)->ReadColumnIndex(0, i64);
  ASSERT_TRUE(index.ok() && index->has_value());
  EXPECT_EQ((*index)->num_pages(), 6);
  EXPECT_EQ((*index)->value_type()->ToString(), "int64");
  EXPECT_EQ((*index)->boundary_order(), BoundaryOrder::kAscending);
  // FlatTable's i64 is 2^40 + 7 * row: page p holds rows [500p, 500p + 500).
  for (int p = 0; p < 6; ++p) {
    EXPECT_EQ((*index)->min_values()[p], Scalar::MakeInt64((int64_t{1} << 40) + 7 * 500 * p));
    EXPECT_EQ((*index)->max_values()[p],
              Scalar::MakeInt64((int64_t{1} << 40) + 7 * (500 * p + 499)));
  }
  auto stats = (*reader)->ReadStatistics(0, i64);
  ASSERT_TRUE(stats.ok() && stats->has_value());
  EXPECT_EQ((*stats)->min(), Scalar::MakeInt64(int64_t{1} << 40));
  EXPECT_EQ((*stats)->max(), Scalar::MakeInt64((int64_t{1} << 40) + 7 * 2999));
  EXPECT_EQ((*stats)->null_count(), 0);
  EXPECT_FALSE((*reader)->ReadStatistics(0, 99).ok());
  // The typed footer says the same.
  const auto metadata = (*reader)->metadata();
  EXPECT_EQ(metadata->num_rows(), 3000);
  EXPECT_EQ(metadata->num_row_groups(), (*reader)->num_row_groups());
  auto chunk = (*metadata->row_group(0)).column(i64);
  ASSERT_TRUE(chunk.ok()) << chunk.status();
  EXPECT_EQ(chunk->dotted_path(), "i64");
  EXPECT_TRUE(chunk->bloom_filter_offset().has_value());
  auto typed_stats = chunk->statistics();
  ASSERT_TRUE(typed_stats.ok() && typed_stats->has_value());
  EXPECT_EQ((*typed_stats)->min(), (*stats)->min());
  EXPECT_EQ((*typed_stats)->max(), (*stats)->max());
  auto bloom = (*reader)->ReadBloomFilter(0, i64);
  ASSERT_TRUE(bloom.ok()) << bloom.status();
  ASSERT_TRUE(bloom->has_value());
  int found = 0;
  int false_positives = 0;
  for (int64_t i = 0; i < 3000; ++i) {
    found += (*bloom)->FindHash(BloomFilter::Hash((int64_t{1} << 40) + 7 * i));
    false_positives += (*bloom)->FindHash(BloomFilter::Hash((int64_t{1} << 40) + 7 * i + 3));
  }
  EXPECT_EQ(found, 3000);
  EXPECT_LT(false_positives, 150);
  auto none = (*reader)->ReadBloomFilter(0, 0);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_FALSE((*reader)->ReadBloomFilter(1, 0).ok());
  EXPECT_FALSE((*reader)->ReadColumnIndex(0, 99).ok());
}

// ---------------------------------------------------------------------------
// Hand-made bad files: each gives a clear error, never a crash.

// A file of one row group of `num_rows` rows and one top-level column
// `leaf`: the pages given.
std::string OneLeafFile(const format::SchemaElement& leaf, std::vector<testing::TestPage> pages,
                        int64_t num_rows) {
  TestChunk chunk;
  chunk.pages = std::move(pages);
  chunk.meta = testing::ChunkMeta(*leaf.type, {leaf.name});
  TestRowGroup group;
  group.chunks.push_back(std::move(chunk));
  group.num_rows = num_rows;
  return MakeParquetFile({Root(1), leaf}, {std::move(group)});
}

std::string OptionalInt32File(std::vector<testing::TestPage> pages, int64_t num_rows,
                              FieldRepetitionType repetition = kOptional) {
  return OneLeafFile(Leaf("x", Type::kInt32, repetition), std::move(pages), num_rows);
}

// A required UTF8 column "s": the pages given.
std::string Utf8File(std::vector<testing::TestPage> pages, int64_t num_rows) {
  auto leaf = Leaf("s", Type::kByteArray, kRequired);
  leaf.converted_type = format::ConvertedType::kUtf8;
  format::LogicalType logical;
  logical.string = format::StringType{};
  leaf.logical_type = logical;
  return OneLeafFile(leaf, std::move(pages), num_rows);
}

void ExpectReadError(const std::string& file, const std::string& fragment,
                     ReaderOptions options = {}) {
  auto read = ReadAll(AsFile(file, "bad.parquet"), options);
  ASSERT_FALSE(read.ok()) << "expected an error containing: " << fragment;
  EXPECT_NE(read.status().message().find(fragment), std::string::npos)
      << "message: " << read.status().message();
  EXPECT_NE(read.status().message().find("bad.parquet"), std::string::npos)
      << read.status().message();
}

TEST(FileReaderHostileTest, GoodHandMadeFileReads) {
  // 4 rows: 1, null, 2, null.
  std::string levels = testing::WithLengthPrefix(
      std::string("\x03\x05", 2));  // bit-packed run of 8 values: 1,0,1,0 (+ padding)
  auto file = OptionalInt32File({DataPageV1(4, levels + testing::PlainInt32({1, 2}))}, 4);
  auto read = ReadAll(AsFile(file));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ((*read)->num_rows(), 4);
  EXPECT_EQ((*read)->column(0)->null_count(), 2);
}

TEST(FileReaderHostileTest, EmptyGroupReadsAsNulls) {
  // A group without children beside a leaf: pyarrow reads it as struct<>
  // of null rows; it has no levels of its own.
  TestChunk chunk;
  chunk.pages = {DataPageV1(3, testing::PlainInt32({1, 2, 3}))};
  chunk.meta = testing::ChunkMeta(Type::kInt32, {"x"});
  TestRowGroup group;
  group.chunks.push_back(std::move(chunk));
  group.num_rows = 3;
  auto file = MakeParquetFile(
      {Root(2), Leaf("x", Type::kInt32, kRequired), testing::Group("e", 0, kOptional)},
      {std::move(group)});
  auto read = ReadAll(AsFile(file));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ((*read)->num_columns(), 2);
  EXPECT_EQ((*read)->column(1)->type()->ToString(), "struct<>");
  EXPECT_EQ((*read)->column(1)->null_count(), 3);
  auto batches = FileReader::Open(AsFile(file));
  ASSERT_TRUE(batches.ok());
  auto reader = (*batches)->GetRecordBatchReader(std::nullopt, std::nullopt, 2);
  ASSERT_TRUE(reader.ok());
  auto table = (*reader)->ToTable();
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE((*table)->ValidateFull().ok());
}

TEST(FileReaderHostileTest, FewerLevelsThanNumValues) {
  // num_values 10, but the RLE run holds 5 levels.
  std::string levels = testing::WithLengthPrefix(testing::RleRun(5, 1, 1));
  ExpectReadError(OptionalInt32File({DataPageV1(10, levels + testing::PlainInt32({1, 2, 3, 4, 5}))}, 10),
                  "page 0");
}

TEST(FileReaderHostileTest, RepetitionLevelsStartingAtOne) {
  TestChunk chunk;
  std::string rep = testing::RleRun(3, 1, 1);
  std::string def = testing::RleRun(3, 1, 1);
  chunk.pages = {DataPageV2(3, 0, 1, rep, def, testing::PlainInt32({1, 2, 3}))};
  chunk.meta = testing::ChunkMeta(Type::kInt32, {"l", "x"});
  TestRowGroup group;
  group.chunks.push_back(std::move(chunk));
  group.num_rows = 1;
  auto repeated = Leaf("x", Type::kInt32, kRepeated);
  format::SchemaElement l = testing::Group("l", 1, kRequired);
  auto file = MakeParquetFile({Root(1), l, repeated}, {std::move(group)});
  ExpectReadError(file, "first repetition level is 1");
}

TEST(FileReaderHostileTest, DictionaryIndexOutOfRange) {
  // Dictionary of 2 values; indices bit width 2, RLE run of index 3.
  std::string indices = std::string("\x02", 1) + testing::RleRun(4, 3, 2);
  auto page = DataPageV1(4, indices, format::Encoding::kRleDictionary);
  auto file = OptionalInt32File({testing::DictionaryPage(2, testing::PlainInt32({7, 8})), page}, 4,
                                kRequired);
  ExpectReadError(file, "page 1");
}

TEST(FileReaderHostileTest, BitWidthWiderThanTheType) {
  // DELTA_BINARY_PACKED INT32: block 128, 4 miniblocks, 2 values, first 0,
  // min delta 0, miniblock widths 33, 0, 0, 0 (33 bits cannot be an INT32
  // delta), then the miniblock's 32 values of 33 bits.
  std::string delta("\x80\x01\x04\x02\x00\x00\x21\x00\x00\x00", 10);
  delta += std::string(132, '\0');
  ExpectReadError(OptionalInt32File({DataPageV1(2, delta, format::Encoding::kDeltaBinaryPacked)}, 2,
                                    kRequired),
                  "page 0");
  // Dictionary indices with a bit width of 40.
  std::string indices = std::string("\x28", 1) + testing::RleRun(2, 0, 8);
  ExpectReadError(OptionalInt32File({testing::DictionaryPage(2, testing::PlainInt32({7, 8})),
                                     DataPageV1(2, indices, format::Encoding::kRleDictionary)},
                                    2, kRequired),
                  "page 1");
}

TEST(FileReaderHostileTest, HugeAndNegativeNumValues) {
  std::string levels = testing::WithLengthPrefix(testing::RleRun(4, 1, 1));
  ExpectReadError(OptionalInt32File({DataPageV1(INT32_MAX, levels + testing::PlainInt32({1, 2, 3, 4}))}, 4),
                  "page 0");
  ExpectReadError(OptionalInt32File({DataPageV1(-5, levels + testing::PlainInt32({1, 2, 3, 4}))}, 4),
                  "negative");
}

TEST(FileReaderHostileTest, V2UncompressedSizeMismatch) {
  auto page = DataPageV2(2, 0, 2, "", "", testing::PlainInt32({1, 2}));
  page.header.uncompressed_page_size += 8;  // is_compressed = false, sizes differ
  ExpectReadError(OptionalInt32File({page}, 2, kRequired), "page 0");
}

TEST(FileReaderHostileTest, TruncatedV2LevelSection) {
  auto page = DataPageV2(4, 0, 4, "", testing::RleRun(4, 1, 1), testing::PlainInt32({1, 2, 3, 4}));
  page.header.data_page_header_v2->definition_levels_byte_length = 1000;
  ExpectReadError(OptionalInt32File({page}, 4), "page 0");
}

TEST(FileReaderHostileTest, ByteStreamSplitSizeNotAMultiple) {
  auto page = DataPageV1(2, std::string(7, '\x01'), format::Encoding::kByteStreamSplit);
  ExpectReadError(OptionalInt32File({page}, 2, kRequired), "page 0");
}

TEST(FileReaderHostileTest, RequiredColumnWithNulls) {
  auto page = DataPageV2(4, 2, 4, "", "", testing::PlainInt32({1, 2}));
  ExpectReadError(OptionalInt32File({page}, 4, kRequired), "page 0");
}

TEST(FileReaderHostileTest, FooterLongerThanFile) {
  std::string file = OptionalInt32File({DataPageV1(1, testing::PlainInt32({1}))}, 1, kRequired);
  const uint32_t huge = 1u << 30;
  std::memcpy(file.data() + file.size() - 8, &huge, 4);
  auto reader = FileReader::Open(AsFile(file, "bad.parquet"));
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find("footer"), std::string::npos) << reader.status();
}

TEST(FileReaderHostileTest, InconsistentAndDeepSchemas) {
  // Children counts that need more elements than there are.
  auto bad = MakeParquetFile({Root(3), Leaf("x", Type::kInt32, kRequired)}, {});
  EXPECT_FALSE(FileReader::Open(AsFile(bad)).ok());
  // 5000 nested groups.
  std::vector<format::SchemaElement> deep{Root(1)};
  for (int i = 0; i < 5000; ++i) deep.push_back(testing::Group("g", 1, kOptional));
  deep.push_back(Leaf("x", Type::kInt32, kOptional));
  auto reader = FileReader::Open(AsFile(MakeParquetFile(deep, {})));
  ASSERT_FALSE(reader.ok());
}

TEST(FileReaderHostileTest, InvalidUtf8InStringColumn) {
  ExpectReadError(Utf8File({DataPageV1(2, testing::PlainByteArray({"ok", "\xC3\x28"}))}, 2),
                  "invalid UTF-8");
  // Each value must be well-formed on its own: "\xE2\x82" + "\xAC" is the
  // euro sign, but neither value is UTF-8 (the run's bytes are, and are not
  // all ASCII: the values' starts are checked).
  ExpectReadError(
      Utf8File({DataPageV1(3, testing::PlainByteArray({"ab", "\xE2\x82", "\xAC"}))}, 3),
      "starts inside a character");
}

// An optional column's v1 page: definition levels (bit width 1, one
// bit-packed run) from `valid`, then `body` (the values).
testing::TestPage OptionalPage(const std::vector<bool>& valid, const std::string& body,
                               format::Encoding encoding = format::Encoding::kPlain) {
  const size_t groups = (valid.size() + 7) / 8;
  std::string levels(1, static_cast<char>((groups << 1) | 1));
  for (size_t g = 0; g < groups; ++g) {
    uint8_t byte = 0;
    for (size_t k = 0; k < 8 && 8 * g + k < valid.size(); ++k) {
      byte |= static_cast<uint8_t>(valid[8 * g + k]) << k;
    }
    levels.push_back(static_cast<char>(byte));
  }
  return DataPageV1(static_cast<int32_t>(valid.size()), testing::WithLengthPrefix(levels) + body,
                    encoding);
}

TEST(FileReaderTest, NullableBooleansAcrossPagesOffTheByte) {
  // Pages of 5, 11, 3 (all null) and 20 slots: each page's slots start off
  // a byte boundary of the batch's bits but the first.
  std::mt19937_64 rng(3);
  std::vector<testing::TestPage> pages;
  std::vector<std::optional<bool>> expected;
  for (int slots : {5, 11, 3, 20}) {
    std::vector<bool> valid;
    std::vector<bool> values;
    for (int i = 0; i < slots; ++i) {
      valid.push_back(slots != 3 && rng() % 3 != 0);
      if (valid.back()) values.push_back(rng() % 2 == 0);
      expected.push_back(valid.back() ? std::optional<bool>(values.back()) : std::nullopt);
    }
    std::string body((values.size() + 7) / 8, '\0');
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i]) body[i / 8] = static_cast<char>(body[i / 8] | (1 << (i % 8)));
    }
    pages.push_back(OptionalPage(valid, body));
  }
  const std::string file = OneLeafFile(Leaf("b", Type::kBoolean, kOptional), std::move(pages),
                                      static_cast<int64_t>(expected.size()));
  // The whole row group as one batch, and batches of 7 (which end inside
  // pages: the page's level bits are taken out a batch at a time).
  for (int64_t batch_size : {int64_t{0}, int64_t{7}}) {
    SCOPED_TRACE(batch_size);
    Result<TablePtr> read = ReadAll(AsFile(file));
    if (batch_size > 0) {
      auto reader = FileReader::Open(AsFile(file));
      ASSERT_TRUE(reader.ok()) << reader.status();
      auto batches = (*reader)->GetRecordBatchReader(std::nullopt, std::nullopt, batch_size);
      ASSERT_TRUE(batches.ok()) << batches.status();
      read = (*batches)->ToTable();
    }
    ASSERT_TRUE(read.ok()) << read.status();
    int64_t i = 0;
    for (const ArrayPtr& chunk : (*read)->column(0)->chunks()) {
      const ArrayData& data = *chunk->data();
      ASSERT_TRUE(chunk->ValidateFull().ok());
      for (int64_t k = 0; k < data.length; ++k, ++i) {
        const bool is_valid = data.buffers[0] == nullptr ||
                              bit_util::GetBit(data.buffers[0]->data(), data.offset + k);
        ASSERT_EQ(is_valid, expected[static_cast<size_t>(i)].has_value()) << i;
        const bool value = bit_util::GetBit(data.buffers[1]->data(), data.offset + k);
        ASSERT_EQ(value, expected[static_cast<size_t>(i)].value_or(false)) << i;
      }
    }
    ASSERT_EQ(i, static_cast<int64_t>(expected.size()));
  }
}

// ---------------------------------------------------------------------------
// Dictionary columns: a page dictionary taken as the batch's dictionary as
// it is, or values gathered in a memo (leaf_builder.cc, DictionaryBuilder).

// An RLE_DICTIONARY v1 page of `indices` (bit width 8, one bit-packed run).
testing::TestPage IndexPage(const std::vector<uint8_t>& indices) {
  std::string body("\x08", 1);
  const size_t groups = (indices.size() + 7) / 8;
  body.push_back(static_cast<char>((groups << 1) | 1));
  for (size_t i = 0; i < groups * 8; ++i) {
    body.push_back(static_cast<char>(i < indices.size() ? indices[i] : 0));
  }
  return DataPageV1(static_cast<int32_t>(indices.size()), body, format::Encoding::kRleDictionary);
}

struct DictionaryRead {
  std::vector<std::string> dictionary;
  std::vector<int32_t> indices;
  std::vector<std::string> values;  // dictionary[indices[i]]
};

Result<DictionaryRead> ReadDictionaryColumn(const std::string& file) {
  ReaderOptions options;
  options.arrow.read_dictionary = {"s"};
  QUIVER_ASSIGN_OR_RAISE(auto table, ReadAll(AsFile(file, "bad.parquet"), options));
  if (table->column(0)->num_chunks() != 1) return Status::Invalid("expected one chunk");
  const ArrayData& data = *table->column(0)->chunk(0)->data();
  if (data.type->ToString() != "dictionary<values=string, indices=int32, ordered=0>") {
    return Status::Invalid("type ", data.type->ToString());
  }
  DictionaryRead out;
  const ArrayData& dict = *data.dictionary;
  const int32_t* offsets = dict.buffers[1]->data_as<int32_t>() + dict.offset;
  const char* chars = reinterpret_cast<const char*>(dict.buffers[2]->data());
  for (int64_t i = 0; i < dict.length; ++i) {
    out.dictionary.emplace_back(chars + offsets[i],
                                static_cast<size_t>(offsets[i + 1] - offsets[i]));
  }
  const int32_t* indices = data.buffers[1]->data_as<int32_t>() + data.offset;
  for (int64_t i = 0; i < data.length; ++i) {
    out.indices.push_back(indices[i]);
    out.values.push_back(out.dictionary[static_cast<size_t>(indices[i])]);
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(FileReaderDictionaryTest, PageDictionaryIsTheBatchDictionary) {
  // All pages dictionary-encoded: the page's dictionary as it is (unused
  // and repeated entries too, as pyarrow reads it), indices unmapped.
  auto file = Utf8File({testing::DictionaryPage(4, testing::PlainByteArray({"a", "b", "a", "c"})),
                        IndexPage({3, 2, 1}), IndexPage({2, 3})},
                       5);
  auto read = ReadDictionaryColumn(file);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->dictionary, (Strings{"a", "b", "a", "c"}));
  EXPECT_EQ(read->indices, (std::vector<int32_t>{3, 2, 1, 2, 3}));
  EXPECT_EQ(read->values, (Strings{"c", "a", "b", "a", "c"}));
}

TEST(FileReaderDictionaryTest, FallbackToPlainWithinTheBatch) {
  // Dictionary pages, then PLAIN ones (a writer's fallback): the batch's
  // dictionary becomes its distinct values in order of first use (the
  // page dictionary's first, a repeated entry mapped to its first copy).
  auto file = Utf8File({testing::DictionaryPage(4, testing::PlainByteArray({"a", "b", "a", "c"})),
                        IndexPage({3, 2, 1}),
                        DataPageV1(3, testing::PlainByteArray({"d", "a", "d"})), IndexPage({2, 0})},
                       8);
  auto read = ReadDictionaryColumn(file);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->dictionary, (Strings{"a", "b", "c", "d"}));
  EXPECT_EQ(read->indices, (std::vector<int32_t>{2, 0, 1, 3, 0, 3, 0, 0}));
  EXPECT_EQ(read->values, (Strings{"c", "a", "b", "d", "a", "d", "a", "a"}));
}

TEST(FileReaderDictionaryTest, InvalidUtf8OnlyWhereUsed) {
  // A page dictionary with an entry that is not UTF-8 is not taken as a
  // whole: the batch's dictionary holds the entries it uses, and using the
  // bad one is an error naming the page.
  const std::string dictionary = testing::PlainByteArray({"ok", "\xC3\x28", "fine"});
  auto read = ReadDictionaryColumn(
      Utf8File({testing::DictionaryPage(3, dictionary), IndexPage({2, 0, 2})}, 3));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->dictionary, (Strings{"fine", "ok"}));
  EXPECT_EQ(read->values, (Strings{"fine", "ok", "fine"}));
  ExpectReadError(Utf8File({testing::DictionaryPage(3, dictionary), IndexPage({0, 1})}, 2),
                  "invalid UTF-8");
  // Read as strings (the decoder's all-ASCII shortcut must not apply).
  auto dense =
      ReadAll(AsFile(Utf8File({testing::DictionaryPage(3, dictionary), IndexPage({2, 0})}, 2)));
  ASSERT_TRUE(dense.ok()) << dense.status();
  auto bad = ReadAll(AsFile(Utf8File({testing::DictionaryPage(3, dictionary), IndexPage({0, 1})}, 2),
                            "bad.parquet"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("invalid UTF-8 in string value 1 of the page"),
            std::string::npos)
      << bad.status().message();
  // Not ASCII but valid: taken as a whole.
  read = ReadDictionaryColumn(Utf8File(
      {testing::DictionaryPage(3, testing::PlainByteArray({"\xC3\xA9t\xC3\xA9", "ok", "x"})),
       IndexPage({1, 0})},
      2));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->dictionary, (Strings{"\xC3\xA9t\xC3\xA9", "ok", "x"}));
  EXPECT_EQ(read->values, (Strings{"ok", "\xC3\xA9t\xC3\xA9"}));
}

TEST(FileReaderHostileTest, CorruptArrowSchemaIsIgnoredWithAWarning) {
  TestChunk chunk;
  chunk.pages = {DataPageV1(2, testing::PlainInt32({5, 6}))};
  chunk.meta = testing::ChunkMeta(Type::kInt32, {"x"});
  TestRowGroup group;
  group.chunks.push_back(std::move(chunk));
  group.num_rows = 2;
  format::KeyValue kv;
  kv.key = "ARROW:schema";
  kv.value = Base64Encode("/////xAAAAAUAAAAAAAAAAoADAAKAAQAAAAAAGARAAAA");  // truncated message
  auto file = MakeParquetFile({Root(1), Leaf("x", Type::kInt32, kRequired)}, {std::move(group)}, {kv});
  auto reader = FileReader::Open(AsFile(file));
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_EQ((*reader)->warnings().size(), 1u);
  EXPECT_NE((*reader)->warnings()[0].find("ARROW:schema"), std::string::npos);
  auto table = (*reader)->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ((*table)->num_rows(), 2);
}

TEST(FileReaderHostileTest, DecompressionBomb) {
  // A ZSTD page that claims 2 GiB uncompressed: refused under a 64 MiB cap
  // without allocating it.
  auto page = DataPageV1(4, std::string("\x28\xB5\x2F\xFD\x00\x00\x01\x00\x00", 9));
  page.header.uncompressed_page_size = INT32_MAX;
  TestChunk chunk;
  chunk.pages = {page};
  chunk.meta = testing::ChunkMeta(Type::kInt32, {"x"}, format::CompressionCodec::kZstd);
  TestRowGroup group;
  group.chunks.push_back(std::move(chunk));
  group.num_rows = 4;
  ReaderOptions options;
  options.memory_limit = 64 << 20;
  ExpectReadError(MakeParquetFile({Root(1), Leaf("x", Type::kInt32, kRequired)}, {std::move(group)}),
                  "page 0", options);
}

TEST(FileReaderHostileTest, ChunkShorterOrLongerThanRowGroup) {
  ExpectReadError(OptionalInt32File({DataPageV1(2, testing::PlainInt32({1, 2}))}, 5, kRequired),
                  "ends after 2 rows");
  ExpectReadError(OptionalInt32File({DataPageV1(4, testing::PlainInt32({1, 2, 3, 4}))}, 2, kRequired),
                  "more than the 2 rows");
}

// The reader fuzz target's seed corpus and the inputs that once failed it
// (fuzz/regressions/quiver_parquet_reader_fuzz/), read as the target reads
// them, under ASan+UBSan in make test: an error or valid arrays, no crash.
TEST(FileReaderFuzzInputsTest, SeedsAndRegressionsReadOrFailCleanly) {
  const std::filesystem::path fuzz = std::filesystem::path(QUIVER_TESTDATA_DIR) / ".." / "fuzz";
  int inputs = 0;
  for (const char* dir : {"corpus", "regressions"}) {
    const auto folder = fuzz / dir / "quiver_parquet_reader_fuzz";
    if (!std::filesystem::is_directory(folder)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (!entry.is_regular_file()) continue;
      auto bytes = io::ReadFileToBuffer(entry.path().string());
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      ++inputs;
      for (int64_t batch_size : {7, 4096}) {
        ReaderOptions options;
        options.memory_limit = 256 << 20;
        options.page_checksum_verification = batch_size == 7;
        auto reader = FileReader::Open(AsFile(*bytes, entry.path().filename().string()), options);
        if (!reader.ok()) continue;
        auto batches = (*reader)->GetRecordBatchReader(std::nullopt, std::nullopt, batch_size);
        if (!batches.ok()) continue;
        while (true) {
          auto batch = (*batches)->Next();
          if (!batch.ok() || *batch == nullptr) break;
          ASSERT_TRUE((*batch)->ValidateFull().ok()) << entry.path();
        }
      }
    }
  }
  EXPECT_GT(inputs, 50);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
