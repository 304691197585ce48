// The SchemaDescriptor of every footer in testdata/parquet-testing/*.parquet
// and testdata/quiver/*.parquet against pyarrow's ParquetFile(f).schema:
// each leaf's dotted path, max definition and max repetition level, as
// testdata/dump_pyarrow_levels.py wrote them to pyarrow_levels.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/parquet/schema/schema_test_util_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

namespace fs = std::filesystem;
using schema_test::Json;
using schema_test::JsonReader;
using schema_test::ReadFile;
using schema_test::ReadFooter;

TEST(SchemaDescriptorFiles, LevelsAgreeWithPyarrow) {
  const fs::path testdata = QUIVER_TESTDATA_DIR;
  Json expected;
  ASSERT_TRUE(JsonReader(ReadFile(fs::path(QUIVER_PARQUET_SCHEMA_TESTDATA_DIR) /
                                  "pyarrow_levels.json"))
                  .Read(&expected));
  const Json& files = expected["files"];
  const Json& skipped = expected["skipped"];
  ASSERT_EQ(files.kind, Json::Kind::kObject);
  ASSERT_GT(files.object.size(), 60u);

  int compared_files = 0;
  int compared_columns = 0;
  int refused_on_purpose = 0;
  for (const char* folder : {"parquet-testing", "quiver"}) {
    for (const auto& entry : fs::directory_iterator(testdata / folder)) {
      if (entry.path().extension() != ".parquet") continue;
      const std::string name = std::string(folder) + "/" + entry.path().filename().string();
      SCOPED_TRACE(name);
      auto metadata = ReadFooter(ReadFile(entry.path()));
      ASSERT_TRUE(metadata.ok()) << metadata.status();
      auto described = SchemaDescriptor::Make(metadata->schema);
      // Every schema in testdata is well-formed, also those pyarrow refuses
      // to convert to Arrow (incorrect_map_schema.parquet: a map whose keys
      // are optional), but the hand-made compat files the descriptor
      // refuses: pyarrow too (a physical type parquet.thrift does not name,
      // in "skipped"), or on purpose (VECTOR repetition, which pyarrow reads
      // as REQUIRED).
      if (name == "quiver/compat_repetition_3.parquet") {
        ASSERT_FALSE(described.ok());
        EXPECT_TRUE(described.status().IsNotImplemented()) << described.status();
        ++refused_on_purpose;
        continue;
      }
      if (name == "quiver/compat_physical_type_9.parquet") {
        ASSERT_FALSE(described.ok());
        ASSERT_EQ(skipped.object.count(name), 1u);
        continue;
      }
      ASSERT_TRUE(described.ok()) << described.status();
      if (skipped.object.count(name) > 0) continue;
      ASSERT_EQ(files.object.count(name), 1u)
          << "not in pyarrow_levels.json: run testdata/dump_pyarrow_levels.py";
      const Json& leaves = files[name];
      const SchemaDescriptor& d = *described;
      ASSERT_EQ(d.num_columns(), static_cast<int>(leaves.array.size()));
      for (int i = 0; i < d.num_columns(); ++i) {
        const Json& leaf = leaves.array[static_cast<size_t>(i)];
        const ColumnDescriptor& c = d.column(i);
        EXPECT_EQ(c.path, leaf["path"].string);
        EXPECT_EQ(c.max_def, leaf["max_def"].number) << c.path;
        EXPECT_EQ(c.max_rep, leaf["max_rep"].number) << c.path;
        // And the stored path of each of the file's column chunks.
        for (const format::RowGroup& rg : metadata->row_groups) {
          ASSERT_EQ(rg.columns.size(), static_cast<size_t>(d.num_columns()));
          const auto& chunk = rg.columns[static_cast<size_t>(i)];
          if (chunk.meta_data.has_value()) {
            EXPECT_EQ(chunk.meta_data->path_in_schema, c.path_parts);
          }
        }
        ++compared_columns;
      }
      ++compared_files;
    }
  }
  EXPECT_EQ(compared_files + refused_on_purpose, static_cast<int>(files.object.size()));
  EXPECT_GT(compared_columns, 500);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
