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

// The every-type columns live with the array test helpers (the
// concatenation tests use them too).
using testutil::AllTypeColumns;
using testutil::FixedStrings;
using testutil::NamedArray;
using testutil::Sequence;
using testutil::Strings;
using testutil::Validity;

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
