// Test-only helpers of the dedup tests: deterministic tables whose row i
// depends only on (seed, i), so that a table of n + m rows starts with the
// table of n rows, written to memory with Quiver's Parquet writer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quiver/io/memory.h"
#include "quiver/array/record_batch.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/io/interfaces.h"
#include "quiver/parquet/writer/file_writer.h"

namespace quiver::dedup::testing {

// SplitMix64 (S. Vigna): a well-mixed 64-bit value per counter.
inline uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

inline std::vector<uint8_t> RandomBytes(int64_t size, uint64_t seed) {
  std::vector<uint8_t> out(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; i += 8) {
    const uint64_t word = Mix(seed * 0x100000001B3ULL + static_cast<uint64_t>(i));
    for (int64_t j = 0; j < 8 && i + j < size; ++j) {
      out[static_cast<size_t>(i + j)] = static_cast<uint8_t>(word >> (8 * j));
    }
  }
  return out;
}

// The table of the given rows, with columns
//   id    int64 not null   = row index
//   x     float64          = a random double, every 17th row null
//   name  utf8             = "name-<random>" of 5..24 characters
//   tags  list<int32>      = 0..4 random small ints
inline TablePtr MakeTableOfRows(const std::vector<int64_t>& rows, uint64_t seed) {
  std::vector<int64_t> ids;
  std::vector<double> xs;
  std::vector<bool> x_valid;
  std::vector<std::string> names;
  std::vector<int64_t> tag_offsets{0};
  std::vector<int32_t> tags;
  for (int64_t i : rows) {
    const uint64_t r = Mix(seed ^ Mix(static_cast<uint64_t>(i)));
    ids.push_back(i);
    xs.push_back(static_cast<double>(r >> 11) * 0x1.0p-53 * 1000.0);
    x_valid.push_back(i % 17 != 0);
    std::string name = "name-" + std::to_string(r % 1000003);
    name.append(static_cast<size_t>((r >> 20) % 10), static_cast<char>('a' + (r >> 40) % 26));
    names.push_back(std::move(name));
    const int n_tags = static_cast<int>((r >> 50) % 5);
    for (int t = 0; t < n_tags; ++t) tags.push_back(static_cast<int32_t>((r >> (t * 4)) % 50));
    tag_offsets.push_back(static_cast<int64_t>(tags.size()));
  }
  auto schema = quiver::schema({field("id", int64(), false), field("x", float64()),
                                field("name", utf8()), field("tags", list(int32()))});
  const auto n = static_cast<int64_t>(rows.size());
  auto tag_values = testutil::ArrayFromVector<int32_t>(int32(), tags);
  std::vector<ArrayDataPtr> columns{
      testutil::ArrayFromVector<int64_t>(int64(), ids),
      testutil::ArrayFromVector<double>(float64(), xs, x_valid),
      testutil::StringArrayFromVector(names),
      testutil::ListArrayFromOffsets(list(int32()), tag_offsets, tag_values)};
  auto batch = std::make_shared<RecordBatch>(schema, n, std::move(columns));
  return Table::FromRecordBatches(schema, {batch}).ValueOrDie();
}

// Rows [begin, end).
inline TablePtr MakeTable(int64_t begin, int64_t end, uint64_t seed) {
  std::vector<int64_t> rows;
  for (int64_t i = begin; i < end; ++i) rows.push_back(i);
  return MakeTableOfRows(rows, seed);
}

inline std::string WriteParquet(const Table& table, const parquet::WriterOptions& options) {
  io::BufferOutputStream sink;
  auto writer = parquet::FileWriter::Open(&sink, table.schema(), options);
  writer.status().Abort("open writer");
  (*writer)->WriteTable(table).Abort("write table");
  (*writer)->Close().Abort("close writer");
  auto buffer = sink.Finish().ValueOrDie();
  return std::string(reinterpret_cast<const char*>(buffer->data()),
                     static_cast<size_t>(buffer->size()));
}

inline const uint8_t* Bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
inline int64_t Size(const std::string& s) { return static_cast<int64_t>(s.size()); }

}  // namespace quiver::dedup::testing
