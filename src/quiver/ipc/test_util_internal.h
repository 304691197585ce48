// Test-only helpers for the IPC tests: a record batch holding every type
// Quiver has (with nulls), built by hand with array/test_util_internal.h,
// and small round-trip helpers. Not installed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quiver/io/memory.h"
#include "quiver/array/array.h"
#include "quiver/array/record_batch.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"

namespace quiver::ipc::testing {

using testutil::ArrayFromVector;

// Slot i is valid unless i % 3 == 1 (so sliced views start anywhere in the
// pattern); `n` slots.
inline std::vector<bool> Validity(int64_t n, int period = 3) {
  std::vector<bool> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i % period != 1;
  return v;
}

template <typename T>
std::vector<T> Sequence(int64_t n, T start, T step) {
  std::vector<T> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<T>(start + static_cast<T>(i) * step));
  return v;
}

inline std::vector<std::string> Strings(int64_t n, int salt = 0) {
  std::vector<std::string> v;
  for (int64_t i = 0; i < n; ++i) {
    // Short, empty and long (> 12 bytes, out-of-line for views) values.
    switch ((i + salt) % 4) {
      case 0: v.push_back("s" + std::to_string(i)); break;
      case 1: v.push_back(""); break;
      case 2: v.push_back("a longer string number " + std::to_string(i)); break;
      default: v.push_back(std::string(static_cast<size_t>(i % 13), 'x')); break;
    }
  }
  return v;
}

inline std::vector<std::string> FixedStrings(int64_t n, int width) {
  std::vector<std::string> v;
  for (int64_t i = 0; i < n; ++i) {
    std::string s(static_cast<size_t>(width), '\0');
    for (int b = 0; b < width; ++b) s[static_cast<size_t>(b)] = static_cast<char>(i * 7 + b);
    v.push_back(s);
  }
  return v;
}

struct NamedArray {
  std::string name;
  ArrayDataPtr data;
  bool nullable = true;
};

// One column per type of type.h (and a few nested combinations), `n` rows.
inline std::vector<NamedArray> AllTypeColumns(int64_t n) {
  using namespace testutil;  // NOLINT
  const auto valid = Validity(n);
  std::vector<NamedArray> cols;
  auto add = [&](std::string name, ArrayDataPtr data, bool nullable = true) {
    cols.push_back({std::move(name), std::move(data), nullable});
  };
  auto fsb = [&](TypePtr type, int width) {
    return FixedSizeBinaryArrayFromVector(std::move(type), FixedStrings(n, width), valid);
  };
  const int64_t big = int64_t{1} << 40;
  add("null", NullArrayOfLength(n));
  add("bool", BooleanArrayFromVector(Validity(n, 2), valid));
  add("int8", ArrayFromVector(int8(), Sequence<int8_t>(n, -5, 3), valid));
  add("int16", ArrayFromVector(int16(), Sequence<int16_t>(n, -300, 7)));
  add("int32", ArrayFromVector(int32(), Sequence<int32_t>(n, -100000, 12345), valid));
  add("int64", ArrayFromVector(int64(), Sequence<int64_t>(n, -big, 1 << 20), valid));
  add("uint8", ArrayFromVector(uint8(), Sequence<uint8_t>(n, 200, 3), valid));
  add("uint16", ArrayFromVector(uint16(), Sequence<uint16_t>(n, 60000, 11)));
  add("uint32", ArrayFromVector(uint32(), Sequence<uint32_t>(n, 4000000000u, 3), valid));
  add("uint64", ArrayFromVector(uint64(), Sequence<uint64_t>(n, ~uint64_t{0} - 100, 1), valid));
  add("float16", ArrayFromVector(float16(), Sequence<uint16_t>(n, 0x3C00, 1), valid));
  add("float32", ArrayFromVector(float32(), Sequence<float>(n, -1.5f, 0.25f), valid));
  add("float64", ArrayFromVector(float64(), Sequence<double>(n, 1e100, -3e99), valid));
  add("utf8", StringArrayFromVector(Strings(n), valid));
  add("large_utf8", StringArrayFromVector(Strings(n, 1), valid, large_utf8()));
  add("binary", StringArrayFromVector(Strings(n, 2), {}, binary()), false);
  add("large_binary", StringArrayFromVector(Strings(n, 3), valid, large_binary()));
  add("utf8_view", BinaryViewArrayFromVector(Strings(n), valid));
  add("binary_view", BinaryViewArrayFromVector(Strings(n, 2), {}, binary_view()));
  add("fsb", fsb(fixed_size_binary(3), 3));
  add("fsb0", fsb(fixed_size_binary(0), 0));
  add("date32", ArrayFromVector(date32(), Sequence<int32_t>(n, 18000, 1), valid));
  add("date64", ArrayFromVector(date64(), Sequence<int64_t>(n, 0, 86400000), valid));
  add("ts", ArrayFromVector(timestamp(TimeUnit::kMicro, "UTC"),
                            Sequence<int64_t>(n, 1600000000000000, 999), valid));
  add("ts_naive", ArrayFromVector(timestamp(TimeUnit::kNano), Sequence<int64_t>(n, 5, 5)));
  add("time32", ArrayFromVector(time32(TimeUnit::kMilli), Sequence<int32_t>(n, 1000, 10), valid));
  add("time64", ArrayFromVector(time64(TimeUnit::kNano), Sequence<int64_t>(n, 1000, 10), valid));
  add("duration", ArrayFromVector(duration(TimeUnit::kSecond), Sequence<int64_t>(n, -3, 1), valid));
  add("months", ArrayFromVector(month_interval(), Sequence<int32_t>(n, 1, 1), valid));
  add("day_time", ArrayFromVector(day_time_interval(), Sequence<int64_t>(n, 7, 1 << 16), valid));
  add("mdn", fsb(month_day_nano_interval(), 16));
  add("dec32", fsb(decimal32(9, 2), 4));
  add("dec64", fsb(decimal64(18, 2), 8));
  add("dec128", fsb(decimal128(38, 2), 16));
  add("dec256", fsb(decimal256(76, 2), 32));
  {
    // list<int32>: list i has i % 4 values.
    std::vector<int64_t> offsets{0};
    for (int64_t i = 0; i < n; ++i) offsets.push_back(offsets.back() + i % 4);
    const int64_t total = offsets.back();
    auto values = ArrayFromVector(int32(), Sequence<int32_t>(total, 0, 1), Validity(total, 5));
    add("list", ListArrayFromOffsets(list(int32()), offsets, values, valid));
    auto strings = StringArrayFromVector(Strings(total));
    add("large_list", ListArrayFromOffsets(large_list(utf8()), offsets, strings, valid));
    // map<utf8, int64> with the same shape.
    auto map_type = map(utf8(), int64());
    auto keys = StringArrayFromVector(Strings(total, 1));
    auto items = ArrayFromVector(int64(), Sequence<int64_t>(total, 10, 10), Validity(total, 4));
    auto entries = StructArrayFromChildren(map_type->field(0)->type(), total, {keys, items});
    add("map", ListArrayFromOffsets(map_type, offsets, entries, valid));
  }
  {
    auto values = ArrayFromVector(int16(), Sequence<int16_t>(2 * n, 0, 1), Validity(2 * n, 7));
    add("fsl", FixedSizeListArrayFromChild(fixed_size_list(int16(), 2), n, values, valid));
  }
  {
    auto type = struct_({field("a", int32()), field("b", utf8()), field("c", boolean(), false)});
    auto a = ArrayFromVector(int32(), Sequence<int32_t>(n, 0, -1), Validity(n, 2));
    auto b = StringArrayFromVector(Strings(n, 1), Validity(n, 4));
    auto c = BooleanArrayFromVector(Validity(n, 3));
    add("struct", StructArrayFromChildren(type, n, {a, b, c}, valid));
  }
  {
    auto dict = StringArrayFromVector({"red", "green", "blue", "a much longer colour name"});
    std::vector<int64_t> indices;
    for (int64_t i = 0; i < n; ++i) indices.push_back((i * 3) % 4);
    add("dict", DictionaryArrayFromIndices(dictionary(int32(), utf8()), indices, dict, valid));
    auto dict2 = ArrayFromVector(int64(), std::vector<int64_t>{100, 200, 300}, {true, false, true});
    std::vector<int64_t> idx2;
    for (int64_t i = 0; i < n; ++i) idx2.push_back(i % 3);
    add("dict_u8", DictionaryArrayFromIndices(dictionary(uint8(), int64(), true), idx2, dict2));
    // list<dictionary<int16, utf8>>
    std::vector<int64_t> offsets{0};
    for (int64_t i = 0; i < n; ++i) offsets.push_back(offsets.back() + (i % 3));
    std::vector<int64_t> inner_idx;
    for (int64_t i = 0; i < offsets.back(); ++i) inner_idx.push_back(i % 4);
    auto inner_type = dictionary(int16(), utf8());
    auto inner = DictionaryArrayFromIndices(inner_type, inner_idx, dict);
    add("list_dict", ListArrayFromOffsets(list(inner_type), offsets, inner));
  }
  return cols;
}

inline RecordBatchPtr AllTypesBatch(int64_t n, MetadataPtr metadata = nullptr) {
  FieldVector fields;
  std::vector<ArrayDataPtr> columns;
  for (auto& col : AllTypeColumns(n)) {
    fields.push_back(field(col.name, col.data->type, col.nullable));
    columns.push_back(col.data);
  }
  auto batch = RecordBatch::Make(schema(std::move(fields), std::move(metadata)), n, columns);
  EXPECT_TRUE(batch.ok()) << batch.status();
  if (batch.ok()) {
    Status st = (*batch)->ValidateFull();
    EXPECT_TRUE(st.ok()) << st;
  }
  return batch.ok() ? *batch : nullptr;
}

inline void ExpectBatchesEqual(const RecordBatch& expected, const RecordBatch& actual) {
  ASSERT_EQ(expected.num_rows(), actual.num_rows());
  ASSERT_TRUE(expected.schema()->Equals(*actual.schema(), true))
      << expected.schema()->ToString() << "\nvs\n" << actual.schema()->ToString();
  for (int i = 0; i < expected.num_columns(); ++i) {
    EXPECT_TRUE(expected.column(i)->Equals(*actual.column(i)))
        << "column " << expected.schema()->field(i)->name() << "\nexpected: "
        << expected.column(i)->ToString() << "\nactual:   " << actual.column(i)->ToString();
  }
}

inline std::shared_ptr<Buffer> WriteStream(const std::vector<RecordBatchPtr>& batches,
                                           const IpcWriteOptions& options = {}) {
  io::BufferOutputStream sink;
  auto writer = MakeStreamWriter(&sink, batches.at(0)->schema(), options);
  EXPECT_TRUE(writer.ok()) << writer.status();
  if (!writer.ok()) return nullptr;
  for (const auto& b : batches) {
    Status st = (*writer)->WriteRecordBatch(*b);
    EXPECT_TRUE(st.ok()) << st;
  }
  Status st = (*writer)->Close();
  EXPECT_TRUE(st.ok()) << st;
  auto out = sink.Finish();
  EXPECT_TRUE(out.ok());
  return *out;
}

inline std::shared_ptr<Buffer> WriteFile(const std::vector<RecordBatchPtr>& batches,
                                         const IpcWriteOptions& options = {}) {
  io::BufferOutputStream sink;
  auto writer = MakeFileWriter(&sink, batches.at(0)->schema(), options);
  EXPECT_TRUE(writer.ok()) << writer.status();
  if (!writer.ok()) return nullptr;
  for (const auto& b : batches) {
    Status st = (*writer)->WriteRecordBatch(*b);
    EXPECT_TRUE(st.ok()) << st;
  }
  Status st = (*writer)->Close();
  EXPECT_TRUE(st.ok()) << st;
  auto out = sink.Finish();
  EXPECT_TRUE(out.ok());
  return *out;
}

// Every batch of a stream (or the error).
inline Result<std::vector<RecordBatchPtr>> ReadStream(std::shared_ptr<Buffer> buffer,
                                                      const IpcReadOptions& options = {}) {
  QUIVER_ASSIGN_OR_RAISE(auto reader, RecordBatchStreamReader::Open(std::move(buffer), options));
  std::vector<RecordBatchPtr> out;
  while (true) {
    QUIVER_ASSIGN_OR_RAISE(auto batch, reader->Next());
    if (batch == nullptr) break;
    out.push_back(std::move(batch));
  }
  return out;
}

inline Result<std::vector<RecordBatchPtr>> ReadFile(std::shared_ptr<Buffer> buffer,
                                                    const IpcReadOptions& options = {}) {
  QUIVER_ASSIGN_OR_RAISE(auto reader, RecordBatchFileReader::Open(std::move(buffer), options));
  std::vector<RecordBatchPtr> out;
  for (int i = 0; i < reader->num_record_batches(); ++i) {
    QUIVER_ASSIGN_OR_RAISE(auto batch, reader->ReadRecordBatch(i));
    out.push_back(std::move(batch));
  }
  return out;
}

}  // namespace quiver::ipc::testing
