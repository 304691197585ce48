// use_threads: the file writer's fields on several threads
// (parallel_fields_internal.h). Also run under ThreadSanitizer: `make test-tsan`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/parquet/writer/parallel_fields_internal.h"
#include "quiver/parquet/writer/test_util_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using namespace ::quiver::testutil;  // NOLINT

// Sets an environment variable for a scope (QUIVER_MIN_TASK_WORK=0: every
// field a task of its own, so that small tables take the parallel path).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value == nullptr) {
      unsetenv(name);
    } else {
      setenv(name, value, 1);
    }
  }
  ~ScopedEnv() {
    if (old_.has_value()) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// Writes every type of type.h (and nested ones) as a table (write_table's
// path: fields encoded side by side) or batch by batch.
Result<std::string> WriteAllTypes(WriterOptions options, bool as_table, int64_t rows) {
  std::vector<FieldPtr> fields;
  std::vector<ArrayDataPtr> arrays;
  for (auto& c : testutil::AllTypeColumns(rows)) {
    auto f = field(c.name, c.data->type, c.nullable);
    // Only the columns the writer takes on their own (fsb0 has no Parquet
    // equivalent).
    io::BufferOutputStream probe;
    auto one = quiver::schema({f});
    auto w = FileWriter::Open(&probe, one);
    if (!w.ok() || !(*w)->WriteRecordBatch(RecordBatch(one, rows, {c.data})).ok()) continue;
    fields.push_back(f);
    arrays.push_back(c.data);
  }
  auto schema = quiver::schema(fields);
  io::BufferOutputStream sink;
  QUIVER_ASSIGN_OR_RAISE(auto writer, FileWriter::Open(&sink, schema, options));
  if (as_table) {
    std::vector<ChunkedArrayPtr> columns;
    for (auto& a : arrays) {
      // Two chunks per column, so a row group spans chunks.
      const int64_t half = rows / 3;
      columns.push_back(std::make_shared<ChunkedArray>(
          std::vector<ArrayPtr>{MakeArray(a->Slice(0, half)), MakeArray(a->Slice(half, rows - half))},
          a->type));
    }
    QUIVER_ASSIGN_OR_RAISE(auto table, Table::Make(schema, columns));
    QUIVER_RETURN_NOT_OK(writer->WriteTable(*table));
  } else {
    for (int64_t at = 0; at < rows; at += 700) {
      const int64_t n = std::min<int64_t>(700, rows - at);
      std::vector<ArrayDataPtr> slices;
      for (auto& a : arrays) slices.push_back(a->Slice(at, n));
      QUIVER_RETURN_NOT_OK(writer->WriteRecordBatch(RecordBatch(schema, n, slices)));
    }
  }
  QUIVER_RETURN_NOT_OK(writer->Close());
  QUIVER_ASSIGN_OR_RAISE(auto bytes, sink.Finish());
  return std::string(reinterpret_cast<const char*>(bytes->data()), static_cast<size_t>(bytes->size()));
}

// use_threads encodes fields on the CPU pool: the bytes must not change
// (QUIVER_MIN_TASK_WORK=0: the small table takes the parallel path;
// SameBytesWithEnoughWork below is at the default threshold).
TEST(FileWriterThreads, SameBytesAsOneThread) {
  std::vector<std::pair<std::string, WriterOptions>> sets;
  sets.emplace_back("defaults", WriterOptions{});
  WriterOptions small;
  small.row_group_size = 800;
  small.data_page_size = 2048;
  small.write_batch_size = 97;
  small.compression.default_value = compression::CompressionCodec::ZSTD;
  small.data_page_version = DataPageVersion::kV2;
  sets.emplace_back("small row groups, v2, zstd", small);
  WriterOptions cdc;
  cdc.content_defined_chunking = CdcOptions{1024, 8192, 1};
  cdc.bloom_filter.default_value = BloomFilterOptions{};
  cdc.write_distinct_count = true;
  sets.emplace_back("cdc, bloom filters, distinct counts", cdc);
  WriterOptions bytes_bounded;
  bytes_bounded.row_group_bytes = 32 * 1024;
  sets.emplace_back("byte-bounded row groups", bytes_bounded);
  ScopedEnv env("QUIVER_MIN_TASK_WORK", "0");
  for (const auto& [name, options] : sets) {
    for (bool as_table : {true, false}) {
      WriterOptions threaded = options;
      threaded.use_threads = true;
      auto one = WriteAllTypes(options, as_table, 2000);
      ASSERT_TRUE(one.ok()) << name << ": " << one.status();
      for (int round = 0; round < 2; ++round) {
        auto many = WriteAllTypes(threaded, as_table, 2000);
        ASSERT_TRUE(many.ok()) << name << ": " << many.status();
        EXPECT_TRUE(*one == *many) << name << (as_table ? " (table)" : " (batches)");
      }
    }
  }
}

// A table with enough work for the default threshold: eight fields of
// mixed types (each well over internal::kMinTaskWork), three row groups.
TablePtr WideTable(int64_t rows) {
  std::mt19937_64 rng(17);
  std::vector<FieldPtr> fields;
  std::vector<ChunkedArrayPtr> columns;
  auto add = [&](const std::string& name, ArrayDataPtr data) {
    fields.push_back(field(name, data->type));
    columns.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(data)}, data->type));
  };
  for (int k = 0; k < 3; ++k) {
    std::vector<int64_t> v(static_cast<size_t>(rows));
    std::vector<bool> valid(static_cast<size_t>(rows));
    for (int64_t i = 0; i < rows; ++i) {
      v[static_cast<size_t>(i)] = static_cast<int64_t>(rng() % (k == 0 ? 1000 : 1u << 30));
      valid[static_cast<size_t>(i)] = rng() % 4 != 0;
    }
    add("i" + std::to_string(k), ArrayFromVector<int64_t>(int64(), v, valid));
  }
  for (int k = 0; k < 3; ++k) {
    std::vector<double> v(static_cast<size_t>(rows));
    for (auto& x : v) x = static_cast<double>(rng() % 100000) / 7.0;
    add("d" + std::to_string(k), ArrayFromVector<double>(float64(), v));
  }
  for (int k = 0; k < 2; ++k) {
    std::vector<std::string> v(static_cast<size_t>(rows));
    for (auto& s : v) s = std::string(static_cast<size_t>(rng() % 40), static_cast<char>('a' + rng() % 26));
    add("s" + std::to_string(k), StringArrayFromVector(v));
  }
  auto table = Table::Make(quiver::schema(fields), columns);
  return table.ok() ? *table : nullptr;
}

TEST(FileWriterThreads, SameBytesWithEnoughWork) {
  ScopedEnv env("QUIVER_MIN_TASK_WORK", nullptr);
  auto table = WideTable(300000);
  ASSERT_NE(table, nullptr);
  for (auto codec : {compression::CompressionCodec::UNCOMPRESSED, compression::CompressionCodec::ZSTD}) {
    std::string files[3];
    // One thread; threads with a sink for the calling thread only; threads
    // with a sink handed over to the workers.
    for (int arm : {0, 1, 2}) {
      WriterOptions options;
      options.row_group_size = 100000;
      options.use_threads = arm > 0;
      options.compression.default_value = codec;
      testing::CheckedSink sink(-1, /*any_thread=*/arm == 2);
      auto writer = FileWriter::Open(&sink, table->schema(), options);
      ASSERT_TRUE(writer.ok()) << writer.status();
      ASSERT_TRUE((*writer)->WriteTable(*table).ok());
      ASSERT_TRUE((*writer)->Close().ok());
      if (arm < 2) {
        EXPECT_EQ(sink.foreign_calls(), 0);
      }
      EXPECT_EQ(sink.overlapping_calls(), 0);
      files[arm] = sink.bytes();
    }
    EXPECT_TRUE(files[0] == files[1]);
    EXPECT_TRUE(files[0] == files[2]);
  }
}

// Every call on a sink not callable from any thread comes from the calling
// thread (a Python file object is called on it).
TEST(FileWriterThreads, OnlyTheCallingThreadWritesTheSink) {
  ScopedEnv env("QUIVER_MIN_TASK_WORK", "0");
  auto table = WideTable(5000);
  ASSERT_NE(table, nullptr);
  for (bool as_table : {true, false}) {
    WriterOptions options;
    options.row_group_size = 2000;
    options.use_threads = true;
    testing::CheckedSink sink;
    auto writer = FileWriter::Open(&sink, table->schema(), options);
    ASSERT_TRUE(writer.ok());
    if (as_table) {
      ASSERT_TRUE((*writer)->WriteTable(*table).ok());
    } else {
      auto batches = table->ToRecordBatches();
      ASSERT_TRUE(batches.ok());
      for (const auto& b : *batches) ASSERT_TRUE((*writer)->WriteRecordBatch(*b).ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
    EXPECT_EQ(sink.foreign_calls(), 0) << (as_table ? "table" : "batches");
  }
}

// Two bad fields: the error is the first one's, as on one thread, whatever
// the timing.
TEST(FileWriterThreads, TheFirstBadFieldIsReported) {
  ScopedEnv env("QUIVER_MIN_TASK_WORK", "0");
  const int64_t rows = 3000;
  std::vector<FieldPtr> fields;
  std::vector<ArrayDataPtr> arrays;
  for (int c = 0; c < 8; ++c) {
    std::vector<std::string> v(static_cast<size_t>(rows), "fine");
    if (c == 2) v[2500] = std::string("\xc3\x28", 2);
    if (c == 5) v[10] = std::string("\xff", 1);
    fields.push_back(field("c" + std::to_string(c), utf8()));
    arrays.push_back(StringArrayFromVector(v));
  }
  auto schema = quiver::schema(fields);
  std::vector<ChunkedArrayPtr> cols;
  for (auto& a : arrays) cols.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(a)}, a->type));
  auto table = Table::Make(schema, cols);
  ASSERT_TRUE(table.ok());
  std::string expected;
  for (bool threads : {false, true}) {
    for (int round = 0; round < (threads ? 20 : 1); ++round) {
      for (bool as_table : {true, false}) {
        WriterOptions options;
        options.use_threads = threads;
        io::BufferOutputStream sink;
        auto writer = FileWriter::Open(&sink, schema, options);
        ASSERT_TRUE(writer.ok());
        Status st = as_table ? (*writer)->WriteTable(**table)
                             : (*writer)->WriteRecordBatch(RecordBatch(schema, rows, arrays));
        ASSERT_FALSE(st.ok());
        EXPECT_NE(st.message().find("column 'c2'"), std::string::npos) << st;
        if (expected.empty()) expected = st.message();
        EXPECT_EQ(st.message(), expected);
        EXPECT_FALSE((*writer)->Close().ok());
      }
    }
  }
}

// A failure on a pool thread is reported once, and the writer refuses more.
TEST(FileWriterThreads, ErrorFromAFieldIsReported) {
  ScopedEnv env("QUIVER_MIN_TASK_WORK", "0");
  auto schema = quiver::schema({field("a", int32()), field("s", utf8()), field("b", int64())});
  auto a = ArrayFromVector<int32_t>(int32(), {1, 2, 3});
  auto b = ArrayFromVector<int64_t>(int64(), {1, 2, 3});
  // Invalid UTF-8 in the middle field.
  auto s = StringArrayFromVector({"x", std::string("\xff\xfe", 2), "z"});
  WriterOptions options;
  options.use_threads = true;
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, schema, options);
  ASSERT_TRUE(writer.ok());
  std::vector<ChunkedArrayPtr> cols;
  for (auto& x : {a, s, b}) {
    cols.push_back(std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(x)}, x->type));
  }
  auto table = Table::Make(schema, cols);
  ASSERT_TRUE(table.ok());
  Status st = (*writer)->WriteTable(**table);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("UTF-8"), std::string::npos) << st;
  EXPECT_FALSE((*writer)->Close().ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
