// ReaderOptions::invalid_utf8 on hand-made files: the default error names
// the file, row group, column, page, value and the option; kBinary reads
// the string leaves that hold invalid UTF-8 as binary, per read, the same
// way through ReadTable and GetRecordBatchReader.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/io/memory.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/test_util_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using format::FieldRepetitionType;
using format::Type;
using testing::DataPageV1;
using testing::PlainByteArray;
using testing::TestChunk;
using testing::TestRowGroup;
using Strings = std::vector<std::string>;
using InvalidUtf8 = ReaderOptions::InvalidUtf8;

format::SchemaElement StringLeaf(std::string name) {
  auto leaf = testing::Leaf(std::move(name), Type::kByteArray, FieldRepetitionType::kRequired);
  leaf.converted_type = format::ConvertedType::kUtf8;
  return leaf;
}

// Required UTF8 columns "s" and "clean", one row group per entry of
// `groups` (each: the values of s; clean holds "c" in every row), one
// PLAIN page per chunk.
std::string TwoColumns(const std::vector<Strings>& groups) {
  std::vector<TestRowGroup> row_groups;
  for (const Strings& values : groups) {
    TestRowGroup group;
    const auto n = static_cast<int32_t>(values.size());
    TestChunk s;
    s.pages = {DataPageV1(n, PlainByteArray(values))};
    s.meta = testing::ChunkMeta(Type::kByteArray, {"s"});
    TestChunk clean;
    clean.pages = {DataPageV1(n, PlainByteArray(Strings(values.size(), "c")))};
    clean.meta = testing::ChunkMeta(Type::kByteArray, {"clean"});
    group.chunks = {std::move(s), std::move(clean)};
    group.num_rows = n;
    row_groups.push_back(std::move(group));
  }
  return testing::MakeParquetFile({testing::Root(2), StringLeaf("s"), StringLeaf("clean")},
                                  std::move(row_groups));
}

std::unique_ptr<FileReader> Open(const std::string& bytes, ReaderOptions options) {
  auto reader = FileReader::Open(
      std::make_shared<io::BufferReader>(Buffer::FromString(bytes), "utf8.parquet"), options);
  EXPECT_TRUE(reader.ok()) << reader.status();
  return reader.ok() ? std::move(*reader) : nullptr;
}

ReaderOptions Binary() {
  ReaderOptions options;
  options.invalid_utf8 = InvalidUtf8::kBinary;
  return options;
}

// The values of a binary or string column as strings.
Strings Values(const ChunkedArray& column) {
  Strings out;
  for (const ArrayPtr& chunk : column.chunks()) {
    const ArrayData& d = *chunk->data();
    const int32_t* offsets = d.buffers[1]->data_as<int32_t>() + d.offset;
    const char* chars = reinterpret_cast<const char*>(d.buffers[2]->data());
    for (int64_t i = 0; i < d.length; ++i) {
      out.emplace_back(chars + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
    }
  }
  return out;
}

const std::vector<Strings> kGroups = {{"a", "b"}, {"ok", "caf\xE9", "z"}};

TEST(InvalidUtf8Test, TheErrorNamesWhereAndTheOption) {
  auto reader = Open(TwoColumns(kGroups), {});
  auto table = reader->ReadTable();
  ASSERT_FALSE(table.ok());
  const std::string& m = table.status().message();
  EXPECT_TRUE(table.status().IsInvalid());
  for (const char* part : {"utf8.parquet", "row group 1", "column 's'", "page 0",
                           "invalid UTF-8 in string value 1 of the page",
                           "invalid_utf8='binary'"}) {
    EXPECT_NE(m.find(part), std::string::npos) << part << " not in: " << m;
  }
  // The row group without a bad value reads.
  ASSERT_TRUE(reader->ReadTable(std::nullopt, std::vector<int>{0}).ok());
}

TEST(InvalidUtf8Test, BinaryRetypesTheLeafOverTheWholeRead) {
  auto reader = Open(TwoColumns(kGroups), Binary());
  auto table = reader->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_TRUE((*table)->ValidateFull().ok());
  EXPECT_EQ((*table)->schema()->field(0)->type()->ToString(), "binary");
  EXPECT_EQ((*table)->schema()->field(1)->type()->ToString(), "string");
  EXPECT_EQ((*table)->column(0)->type()->ToString(), "binary");
  EXPECT_EQ(Values(*(*table)->column(0)), (Strings{"a", "b", "ok", "caf\xE9", "z"}));
  // A read of the valid row group alone keeps the string type.
  auto first = reader->ReadTable(std::nullopt, std::vector<int>{0});
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ((*first)->schema()->field(0)->type()->ToString(), "string");
  // The stored types are the file's.
  EXPECT_EQ(reader->schema()->field(0)->type()->ToString(), "string");
}

TEST(InvalidUtf8Test, BatchesHaveTheReadersSchemaFromTheFirst) {
  auto reader = Open(TwoColumns(kGroups), Binary());
  auto batches = reader->GetRecordBatchReader(std::nullopt, std::nullopt, 1);
  ASSERT_TRUE(batches.ok()) << batches.status();
  EXPECT_EQ((*batches)->schema()->field(0)->type()->ToString(), "binary");
  EXPECT_EQ((*batches)->schema()->field(1)->type()->ToString(), "string");
  int count = 0;
  while (true) {
    auto batch = (*batches)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status();
    if (*batch == nullptr) break;
    ++count;
    EXPECT_TRUE((*batch)->schema()->Equals(*(*batches)->schema()));
    EXPECT_TRUE((*batch)->ValidateFull().ok());
  }
  EXPECT_EQ(count, 5);
  // Only the valid row group: strings.
  auto valid = reader->GetRecordBatchReader(std::nullopt, std::vector<int>{0}, 1);
  ASSERT_TRUE(valid.ok()) << valid.status();
  EXPECT_EQ((*valid)->schema()->field(0)->type()->ToString(), "string");
}

TEST(InvalidUtf8Test, DictionaryReadsBecomeDictionariesOfBinary) {
  ReaderOptions options = Binary();
  options.arrow.read_dictionary = {"s", "clean"};
  auto reader = Open(TwoColumns(kGroups), options);
  auto table = reader->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_TRUE((*table)->ValidateFull().ok());
  EXPECT_EQ((*table)->schema()->field(0)->type()->ToString(),
            "dictionary<values=binary, indices=int32, ordered=0>");
  EXPECT_EQ((*table)->schema()->field(1)->type()->ToString(),
            "dictionary<values=string, indices=int32, ordered=0>");
  auto batches = reader->GetRecordBatchReader(std::nullopt, std::nullopt, 2);
  ASSERT_TRUE(batches.ok()) << batches.status();
  auto all = (*batches)->ToTable();
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_TRUE((*all)->schema()->Equals(*(*table)->schema()));
  ASSERT_TRUE((*all)->ValidateFull().ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
