// FileMetaData and its row groups and column chunks, on files in testdata
// (values as pyarrow 26 reports them) and on a file Quiver writes.
#include "quiver/parquet/metadata/file_metadata.h"

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/array/record_batch.h"
#include "quiver/io/file.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/writer/file_writer.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

const std::string kTestData = QUIVER_TESTDATA_DIR;

std::shared_ptr<const FileMetaData> Read(const std::string& name) {
  auto buffer = io::ReadFileToBuffer(kTestData + "/" + name);
  EXPECT_TRUE(buffer.ok()) << buffer.status();
  io::BufferReader file(*buffer, name);
  auto metadata = ReadFileMetaData(file);
  EXPECT_TRUE(metadata.ok()) << metadata.status();
  return *metadata;
}

TEST(FileMetaData, ImpalaAllTypes) {
  auto m = Read("parquet-testing/alltypes_plain.parquet");
  EXPECT_EQ(m->num_rows(), 8);
  EXPECT_EQ(m->num_row_groups(), 1);
  EXPECT_EQ(m->num_columns(), 11);
  EXPECT_EQ(m->version(), 1);
  EXPECT_EQ(m->created_by(),
            "impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)");
  EXPECT_EQ(m->writer_version().application(), "impala");
  EXPECT_EQ(m->writer_version().major(), 1);
  EXPECT_EQ(m->writer_version().minor(), 3);
  EXPECT_EQ(m->serialized_size(), 730);
  EXPECT_FALSE(m->key_value_metadata().has_value());

  const auto schema = m->schema_elements();
  ASSERT_EQ(schema.size(), 12u);
  EXPECT_EQ(schema[0].name, "schema");
  EXPECT_EQ(schema[0].num_children, 11);
  EXPECT_FALSE(schema[0].physical_type.has_value());
  EXPECT_EQ(schema[1].name, "id");
  EXPECT_EQ(schema[1].physical_type, PhysicalType::kInt32);
  EXPECT_EQ(schema[1].repetition, Repetition::kOptional);
  EXPECT_EQ(schema[11].name, "timestamp_col");
  EXPECT_EQ(schema[11].physical_type, PhysicalType::kInt96);

  auto rg = m->row_group(0);
  ASSERT_TRUE(rg.ok()) << rg.status();
  EXPECT_EQ(rg->index(), 0);
  EXPECT_EQ(rg->num_rows(), 8);
  EXPECT_EQ(rg->total_byte_size(), 671);
  EXPECT_FALSE(rg->sorting_columns().has_value());
  ASSERT_EQ(rg->num_columns(), 11);

  // pyarrow: column(0) and column(10).
  auto id = rg->column(0);
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(id->path_in_schema(), std::vector<std::string>{"id"});
  EXPECT_EQ(id->dotted_path(), "id");
  EXPECT_EQ(id->physical_type(), PhysicalType::kInt32);
  EXPECT_EQ(id->encodings(),
            (std::vector<Encoding>{Encoding::kRle, Encoding::kPlainDictionary, Encoding::kPlain}));
  EXPECT_EQ(id->codec(), compression::CompressionCodec::UNCOMPRESSED);
  EXPECT_EQ(id->num_values(), 8);
  EXPECT_EQ(id->total_compressed_size(), 73);
  EXPECT_EQ(id->total_uncompressed_size(), 73);
  EXPECT_EQ(id->data_page_offset(), 49);
  EXPECT_EQ(id->dictionary_page_offset(), 4);
  EXPECT_EQ(id->file_offset(), 77);
  EXPECT_FALSE(id->file_path().has_value());
  EXPECT_FALSE(id->column_index_offset().has_value());
  EXPECT_FALSE(id->offset_index_offset().has_value());
  EXPECT_FALSE(id->bloom_filter_offset().has_value());
  // Impala 1.3 wrote no statistics (pyarrow: is_stats_set false).
  EXPECT_FALSE(id->has_statistics());
  auto stats = id->statistics();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_FALSE(stats->has_value());

  auto ts = rg->column(10);
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(ts->physical_type(), PhysicalType::kInt96);
  EXPECT_EQ(ts->data_page_offset(), 1040);
  EXPECT_EQ(ts->dictionary_page_offset(), 929);
  EXPECT_EQ(ts->total_compressed_size(), 139);
  auto flag = rg->column(1);
  ASSERT_TRUE(flag.ok());
  EXPECT_FALSE(flag->dictionary_page_offset().has_value());
}

TEST(FileMetaData, ParquetMrIndexesBloomFilterAndEncodingStats) {
  auto m = Read("parquet-testing/data_index_bloom_encoding_stats.parquet");
  EXPECT_EQ(m->num_rows(), 14);
  EXPECT_EQ(m->num_columns(), 1);
  EXPECT_EQ(m->serialized_size(), 403);
  EXPECT_EQ(m->writer_version().application(), "parquet-mr");
  EXPECT_EQ(m->writer_version().minor(), 13);
  auto kv = m->key_value_metadata();
  ASSERT_TRUE(kv.has_value());
  ASSERT_EQ(kv->size(), 2u);
  EXPECT_EQ((*kv)[0].key, "parquet.avro.schema");
  EXPECT_EQ((*kv)[1], (KeyValuePair{"writer.model.name", "avro"}));

  auto rg = m->row_group(0);
  ASSERT_TRUE(rg.ok());
  EXPECT_EQ(rg->total_byte_size(), 163);
  auto c = rg->column(0);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->dotted_path(), "String");
  EXPECT_EQ(c->physical_type(), PhysicalType::kByteArray);
  EXPECT_EQ(c->codec(), compression::CompressionCodec::GZIP);
  EXPECT_EQ(c->encodings(),
            (std::vector<Encoding>{Encoding::kBitPacked, Encoding::kRle, Encoding::kPlain}));
  EXPECT_EQ(c->total_compressed_size(), 152);
  EXPECT_EQ(c->total_uncompressed_size(), 163);
  EXPECT_EQ(c->data_page_offset(), 4);
  EXPECT_EQ(c->file_offset(), 4);
  EXPECT_EQ(c->bloom_filter_offset(), 192);
  EXPECT_FALSE(c->bloom_filter_length().has_value());
  // pyarrow: has_column_index, has_offset_index.
  EXPECT_TRUE(c->column_index_offset().has_value() && c->column_index_length().has_value());
  EXPECT_TRUE(c->offset_index_offset().has_value() && c->offset_index_length().has_value());
  // The column index follows the chunk, [4, 156), at once.
  EXPECT_EQ(*c->column_index_offset(), 156);
  auto enc = c->encoding_stats();
  ASSERT_TRUE(enc.has_value());
  ASSERT_EQ(enc->size(), 1u);
  EXPECT_EQ((*enc)[0], (PageEncodingCount{PageType::kDataPage, Encoding::kPlain, 1}));
  // The internal view is the same footer.
  EXPECT_EQ(ThriftOf(*m).row_groups[0].columns[0].column_index_offset, c->column_index_offset());

  auto stats = c->statistics();
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_TRUE(stats->has_value());
  EXPECT_TRUE((*stats)->has_min_max());
  EXPECT_EQ((*stats)->min().ToString(), "Hello");
  EXPECT_EQ((*stats)->max().ToString(), "today");
  EXPECT_EQ((*stats)->null_count(), 0);
  EXPECT_EQ((*stats)->num_values(), 14);
}

TEST(FileMetaData, IndexesOutOfRangeAreErrors) {
  auto m = Read("parquet-testing/alltypes_plain.parquet");
  for (int i : {-1, 1, 1000}) {
    auto rg = m->row_group(i);
    ASSERT_TRUE(rg.status().IsInvalid()) << i;
    EXPECT_NE(rg.status().message().find("row group " + std::to_string(i) + " out of range"),
              std::string::npos)
        << rg.status();
  }
  auto rg = m->row_group(0);
  ASSERT_TRUE(rg.ok());
  for (int i : {-1, 11}) {
    auto c = rg->column(i);
    ASSERT_TRUE(c.status().IsInvalid()) << i;
    EXPECT_NE(c.status().message().find("column " + std::to_string(i) + " out of range"),
              std::string::npos)
        << c.status();
  }
}

TEST(FileMetaData, ColumnWithoutColumnMetaDataIsAnError) {
  auto m = Read("parquet-testing/alltypes_plain.parquet");
  format::FileMetaData thrift = ThriftOf(*m);
  thrift.row_groups[0].columns[3].meta_data.reset();
  auto edited = MakeFileMetaData(std::move(thrift), 0);
  auto rg = edited->row_group(0);
  ASSERT_TRUE(rg.ok());
  EXPECT_TRUE(rg->column(2).ok());
  auto c = rg->column(3);
  ASSERT_TRUE(c.status().IsInvalid());
  EXPECT_NE(c.status().message().find("row group 0 column 3 has no ColumnMetaData"),
            std::string::npos)
      << c.status();
}

TEST(FileMetaData, StatisticsNeedASchemaThatBuilds) {
  auto m = Read("parquet-testing/data_index_bloom_encoding_stats.parquet");
  format::FileMetaData thrift = ThriftOf(*m);
  thrift.schema[0].num_children = 5;  // more children than elements
  auto edited = MakeFileMetaData(std::move(thrift), 0);
  EXPECT_FALSE(SchemaOf(*edited).ok());
  EXPECT_EQ(edited->num_columns(), 1);  // counted from the elements
  auto c = (*edited->row_group(0)).column(0);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->has_statistics());
  auto stats = c->statistics();
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find("statistics of row group 0 column 0"),
            std::string::npos)
      << stats.status();
}

// A file Quiver writes: two row groups, sorting columns, statistics,
// page index and a bloom filter.
TEST(FileMetaData, QuiverFile) {
  Int64Builder ids;
  StringBuilder names;
  for (int64_t i = 0; i < 100; ++i) {
    ASSERT_TRUE(ids.Append(i * 3).ok());
    ASSERT_TRUE(names.Append("n" + std::to_string(i % 7)).ok());
  }
  auto schema = quiver::schema({field("id", int64(), false), field("name", utf8(), true)});
  auto id_array = ids.FinishArray();
  auto name_array = names.FinishArray();
  ASSERT_TRUE(id_array.ok() && name_array.ok());
  auto table = Table::Make(
      schema, {std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{*id_array}, int64()),
               std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{*name_array}, utf8())});
  ASSERT_TRUE(table.ok()) << table.status();
  WriterOptions options;
  options.row_group_size = 60;
  options.sorting_columns = {SortingColumn{0, false, true}};
  options.bloom_filter.by_column["id"] = BloomFilterOptions{100, 0.01};
  options.compression.default_value = compression::CompressionCodec::ZSTD;
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->WriteTable(**table).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto bytes = sink.Finish();
  ASSERT_TRUE(bytes.ok());
  io::BufferReader file(*bytes, "q.parquet");
  auto read = ReadFileMetaData(file);
  ASSERT_TRUE(read.ok()) << read.status();
  const FileMetaData& m = **read;

  EXPECT_EQ(m.num_rows(), 100);
  EXPECT_EQ(m.num_row_groups(), 2);
  EXPECT_EQ(m.num_columns(), 2);
  EXPECT_EQ(m.writer_version().application(), "quiver");
  auto kv = m.key_value_metadata();
  ASSERT_TRUE(kv.has_value());
  bool has_arrow_schema = false;
  for (const auto& p : *kv) has_arrow_schema |= p.key == "ARROW:schema";
  EXPECT_TRUE(has_arrow_schema);
  // The footer's length as stored before the trailing magic.
  const std::string_view all = (*bytes)->view();
  uint32_t length = 0;
  std::memcpy(&length, all.data() + all.size() - 8, 4);
  EXPECT_EQ(m.serialized_size(), length);

  int64_t rows = 0;
  for (int r = 0; r < m.num_row_groups(); ++r) {
    auto rg = m.row_group(r);
    ASSERT_TRUE(rg.ok());
    EXPECT_EQ(rg->ordinal(), r);
    EXPECT_EQ(rg->sorting_columns(), (std::vector<SortingColumnInfo>{{0, false, true}}));
    ASSERT_TRUE(rg->total_compressed_size().has_value());
    auto id = rg->column(0);
    auto name = rg->column(1);
    ASSERT_TRUE(id.ok() && name.ok());
    EXPECT_EQ(rg->file_offset(), id->dictionary_page_offset().value_or(id->data_page_offset()));
    EXPECT_EQ(*rg->total_compressed_size(),
              id->total_compressed_size() + name->total_compressed_size());
    EXPECT_EQ(id->codec(), compression::CompressionCodec::ZSTD);
    EXPECT_EQ(id->num_values(), rg->num_rows());
    EXPECT_TRUE(id->bloom_filter_offset().has_value() && id->bloom_filter_length().has_value());
    EXPECT_FALSE(name->bloom_filter_offset().has_value());
    EXPECT_TRUE(id->column_index_offset().has_value() && id->offset_index_offset().has_value());
    auto stats = id->statistics();
    ASSERT_TRUE(stats.ok() && stats->has_value());
    EXPECT_EQ((*stats)->min().ToString(), std::to_string(rows * 3));
    EXPECT_EQ((*stats)->max().ToString(), std::to_string((rows + rg->num_rows() - 1) * 3));
    EXPECT_EQ((*stats)->null_count(), 0);
    auto name_stats = name->statistics();
    ASSERT_TRUE(name_stats.ok() && name_stats->has_value());
    EXPECT_EQ((*name_stats)->min().ToString(), "n0");
    EXPECT_EQ((*name_stats)->max().ToString(), "n6");
    rows += rg->num_rows();
  }
  EXPECT_EQ(rows, 100);
}

// The schema's logical and converted types as Quiver's writer annotates
// these Arrow types (pyarrow 26 reads the same from this file). pyarrow 26's
// own writer differs on two: time64 is Time(isAdjustedToUTC=false) and
// int64 carries no annotation.
TEST(FileMetaData, SchemaAnnotations) {
  auto schema = quiver::schema({field("i8", int8()), field("u16", uint16()), field("s", utf8()),
                                field("ts", timestamp(TimeUnit::kMicro, "UTC")),
                                field("d", decimal128(10, 2)), field("day", date32()),
                                field("t", time64(TimeUnit::kNano)), field("i64", int64())});
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, schema, WriterOptions{});
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->Close().ok());
  auto bytes = sink.Finish();
  ASSERT_TRUE(bytes.ok());
  io::BufferReader file(*bytes, "annotations.parquet");
  auto read = ReadFileMetaData(file);
  ASSERT_TRUE(read.ok()) << read.status();
  const auto elements = (*read)->schema_elements();
  ASSERT_EQ(elements.size(), 9u);
  EXPECT_FALSE(elements[0].logical_type.has_value());

  using K = LogicalType::Kind;
  auto integer = [](int8_t bits, bool is_signed) {
    LogicalType t;
    t.kind = K::kInteger;
    t.bit_width = bits;
    t.is_signed = is_signed;
    return t;
  };
  EXPECT_EQ(elements[1].logical_type, integer(8, true));
  EXPECT_EQ(elements[1].converted_type, ConvertedType::kInt8);
  EXPECT_EQ(elements[2].logical_type, integer(16, false));
  EXPECT_EQ(elements[2].converted_type, ConvertedType::kUint16);
  LogicalType string;
  string.kind = K::kString;
  EXPECT_EQ(elements[3].logical_type, string);
  EXPECT_EQ(elements[3].converted_type, ConvertedType::kUtf8);
  LogicalType ts;
  ts.kind = K::kTimestamp;
  ts.is_adjusted_to_utc = true;
  ts.unit = LogicalType::TimeUnit::kMicros;
  EXPECT_EQ(elements[4].logical_type, ts);
  EXPECT_EQ(elements[4].converted_type, ConvertedType::kTimestampMicros);
  LogicalType decimal;
  decimal.kind = K::kDecimal;
  decimal.precision = 10;
  decimal.scale = 2;
  EXPECT_EQ(elements[5].logical_type, decimal);
  EXPECT_EQ(elements[5].converted_type, ConvertedType::kDecimal);
  EXPECT_EQ(elements[5].precision, 10);
  EXPECT_EQ(elements[5].scale, 2);
  LogicalType date;
  date.kind = K::kDate;
  EXPECT_EQ(elements[6].logical_type, date);
  EXPECT_EQ(elements[6].converted_type, ConvertedType::kDate);
  LogicalType time;
  time.kind = K::kTime;
  time.is_adjusted_to_utc = true;
  time.unit = LogicalType::TimeUnit::kNanos;
  EXPECT_EQ(elements[7].logical_type, time);
  EXPECT_FALSE(elements[7].converted_type.has_value());
  EXPECT_EQ(elements[8].logical_type, integer(64, true));
  EXPECT_EQ(elements[8].converted_type, ConvertedType::kInt64);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
