// The C Stream Interface both ways: Quiver readers exported as
// ArrowArrayStream (spec conformance of get_schema / get_next / get_last_error /
// release, errors mid-stream) and foreign streams imported as readers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/c_data/bridge.h"
#include "quiver/c_data/test_producer_internal.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using ::testing::HasSubstr;

SchemaPtr TestSchema() {
  return schema({field("a", int32()), field("b", utf8())}, key_value_metadata({{"k", "v"}}));
}

RecordBatchPtr TestBatch(int32_t base) {
  auto a = testutil::ArrayFromVector<int32_t>(int32(), {base, base + 1, base + 2},
                                              {true, false, true});
  auto b = testutil::StringArrayFromVector({"x" + std::to_string(base), "", "z"});
  return RecordBatch::Make(TestSchema(), 3, {a, b}).ValueOrDie();
}

// Yields `batches`, then fails with `error` (if not OK), then ends.
class ScriptedReader final : public RecordBatchReader {
 public:
  ScriptedReader(std::vector<RecordBatchPtr> batches, Status error)
      : batches_(std::move(batches)), error_(std::move(error)) {}
  SchemaPtr schema() const override { return TestSchema(); }
  Result<RecordBatchPtr> Next() override {
    ++calls;
    if (next_ < batches_.size()) return batches_[next_++];
    if (!error_.ok()) return error_;
    return RecordBatchPtr();
  }
  int calls = 0;

 private:
  std::vector<RecordBatchPtr> batches_;
  Status error_;
  size_t next_ = 0;
};

void ExpectSameBatch(const RecordBatch& expected, const RecordBatch& actual) {
  ASSERT_EQ(actual.num_rows(), expected.num_rows());
  ASSERT_EQ(actual.num_columns(), expected.num_columns());
  EXPECT_TRUE(actual.schema()->Equals(*expected.schema(), /*check_metadata=*/true));
  for (int i = 0; i < expected.num_columns(); ++i) {
    const ArrayData& e = *expected.column_data(i);
    const ArrayData& a = *actual.column_data(i);
    EXPECT_EQ(a.GetNullCount(), e.GetNullCount());
    ASSERT_EQ(a.buffers.size(), e.buffers.size());
    for (size_t k = 1; k < e.buffers.size(); ++k) {
      EXPECT_EQ(a.buffers[k]->data(), e.buffers[k]->data()) << "column " << i << " buffer " << k;
    }
  }
}

TEST(CDataStream, ExportFollowsTheSpec) {
  auto reader = std::make_shared<ScriptedReader>(
      std::vector<RecordBatchPtr>{TestBatch(1), TestBatch(10)}, Status::OK());
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportRecordBatchReader(reader, &stream).ok());
  ASSERT_NE(stream.release, nullptr);

  ArrowSchema c_schema{};
  ASSERT_EQ(stream.get_schema(&stream, &c_schema), 0);
  auto s = ImportSchema(&c_schema);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE((*s)->Equals(*TestSchema(), /*check_metadata=*/true));

  for (int i = 0; i < 2; ++i) {
    ArrowArray c_array{};
    ASSERT_EQ(stream.get_next(&stream, &c_array), 0);
    ASSERT_NE(c_array.release, nullptr);
    EXPECT_EQ(c_array.length, 3);
    EXPECT_EQ(c_array.n_children, 2);
    c_array.release(&c_array);
  }
  ArrowArray end{};
  end.release = reinterpret_cast<void (*)(ArrowArray*)>(0x1);  // must be overwritten
  ASSERT_EQ(stream.get_next(&stream, &end), 0);
  EXPECT_EQ(end.release, nullptr) << "end of stream is a released array";
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);

  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
  EXPECT_EQ(reader.use_count(), 1) << "release frees the reader";
}

TEST(CDataStream, ExportReportsErrorsWithErrnoAndMessage) {
  struct Case {
    Status error;
    int code;
  };
  const Case cases[] = {
      {Status::IOError("disk on fire"), EIO},
      {Status::Invalid("bad row 7"), EINVAL},
      {Status::OutOfMemory("no room"), ENOMEM},
      {Status::NotImplemented("later"), ENOSYS},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.error.ToString());
    auto reader =
        std::make_shared<ScriptedReader>(std::vector<RecordBatchPtr>{TestBatch(1)}, c.error);
    ArrowArrayStream stream{};
    ASSERT_TRUE(ExportRecordBatchReader(reader, &stream).ok());
    ArrowArray c_array{};
    ASSERT_EQ(stream.get_next(&stream, &c_array), 0);
    c_array.release(&c_array);
    EXPECT_EQ(stream.get_next(&stream, &c_array), c.code);
    const char* message = stream.get_last_error(&stream);
    ASSERT_NE(message, nullptr);
    EXPECT_THAT(std::string(message), HasSubstr(c.error.message()));
    // The error state is sticky: the reader is not called again.
    const int calls = reader->calls;
    EXPECT_EQ(stream.get_next(&stream, &c_array), c.code);
    EXPECT_EQ(reader->calls, calls);
    stream.release(&stream);
  }
}

TEST(CDataStream, ExportOfAnUnexportableBatchIsAnError) {
  // A column whose ArrayData lacks its values buffer cannot be exported.
  auto bad = ArrayData::Make(int32(), 3, {nullptr});
  auto batch = std::make_shared<RecordBatch>(schema({field("a", int32())}), 3,
                                             std::vector<ArrayDataPtr>{bad});
  auto reader = RecordBatchReader::FromBatches(batch->schema(), {batch});
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportRecordBatchReader(reader, &stream).ok());
  ArrowArray c_array{};
  EXPECT_EQ(stream.get_next(&stream, &c_array), EINVAL);
  EXPECT_THAT(std::string(stream.get_last_error(&stream)), HasSubstr("has 1 buffers, expected 2"));
  stream.release(&stream);
}

TEST(CDataStream, QuiverToQuiverRoundTrip) {
  std::vector<RecordBatchPtr> batches{TestBatch(1), TestBatch(10)->Slice(1, 2), TestBatch(20)};
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportRecordBatchReader(RecordBatchReader::FromBatches(TestSchema(), batches),
                                      &stream)
                  .ok());
  auto imported = ImportRecordBatchReader(&stream);
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  EXPECT_EQ(stream.release, nullptr);
  RecordBatchReaderPtr reader = *imported;
  EXPECT_TRUE(reader->schema()->Equals(*TestSchema(), /*check_metadata=*/true));
  for (const auto& expected : batches) {
    auto next = reader->Next();
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    ASSERT_NE(*next, nullptr);
    ExpectSameBatch(*expected, **next);
  }
  auto end = reader->Next();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
  end = reader->Next();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
}

TEST(CDataStream, ErrorMidStreamCrossesBothWays) {
  // Quiver reader -> C stream -> Quiver reader: the status code family and
  // message survive.
  auto source = std::make_shared<ScriptedReader>(std::vector<RecordBatchPtr>{TestBatch(1)},
                                                 Status::Invalid("row 4 is bad"));
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportRecordBatchReader(source, &stream).ok());
  auto imported = ImportRecordBatchReader(&stream);
  ASSERT_TRUE(imported.ok());
  auto first = (*imported)->Next();
  ASSERT_TRUE(first.ok());
  ASSERT_NE(*first, nullptr);
  auto second = (*imported)->Next();
  ASSERT_FALSE(second.ok());
  EXPECT_TRUE(second.status().IsInvalid()) << second.status().ToString();
  EXPECT_THAT(second.status().message(), HasSubstr("get_next failed"));
  EXPECT_THAT(second.status().message(), HasSubstr("row 4 is bad"));
}

// --- A foreign (hand-written) stream producer ----------------------------------------

struct HandStream {
  int batches = 0;           // batches to produce
  int fail_code = 0;         // after them: fail with this code (0: end)
  int schema_fail_code = 0;  // get_schema fails with this code
  std::string error = "producer exploded";
  int produced = 0;
  int get_next_calls = 0;
  int* release_count = nullptr;
  int* array_release_count = nullptr;
  std::vector<int32_t> values = {5, 6, 7};
};

int HandGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* p = static_cast<HandStream*>(stream->private_data);
  if (p->schema_fail_code != 0) return p->schema_fail_code;
  *out = testutil::HandSchema(nullptr, "+s", "", 0, {testutil::HandSchema(nullptr, "i", "a")});
  return 0;
}

int HandGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* p = static_cast<HandStream*>(stream->private_data);
  ++p->get_next_calls;
  if (p->produced == p->batches) {
    if (p->fail_code != 0) return p->fail_code;
    out->release = nullptr;
    return 0;
  }
  ++p->produced;
  ArrowArray column =
      testutil::HandArray(p->array_release_count, 3, 0, 0, {nullptr, p->values.data()});
  *out = testutil::HandArray(p->array_release_count, 3, 0, 0, {nullptr}, {column});
  return 0;
}

const char* HandGetLastError(ArrowArrayStream* stream) {
  return static_cast<HandStream*>(stream->private_data)->error.c_str();
}

void HandRelease(ArrowArrayStream* stream) {
  auto* p = static_cast<HandStream*>(stream->private_data);
  ++*p->release_count;
  stream->release = nullptr;
}

ArrowArrayStream MakeHandStream(HandStream* p) {
  ArrowArrayStream s{};
  s.get_schema = &HandGetSchema;
  s.get_next = &HandGetNext;
  s.get_last_error = &HandGetLastError;
  s.release = &HandRelease;
  s.private_data = p;
  return s;
}

TEST(CDataStream, ImportForeignStreamWithErrorMidStream) {
  int released = 0, arrays_released = 0;
  HandStream p;
  p.batches = 2;
  p.fail_code = EINVAL;
  p.release_count = &released;
  p.array_release_count = &arrays_released;
  ArrowArrayStream stream = MakeHandStream(&p);
  {
    auto imported = ImportRecordBatchReader(&stream);
    ASSERT_TRUE(imported.ok()) << imported.status().ToString();
    EXPECT_EQ(stream.release, nullptr) << "the stream was moved into the reader";
    RecordBatchReaderPtr reader = *imported;
    EXPECT_EQ(reader->schema()->field(0)->name(), "a");
    for (int i = 0; i < 2; ++i) {
      auto batch = reader->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      ASSERT_NE(*batch, nullptr);
      auto column = (*batch)->column(0);
      EXPECT_EQ(ArrayAs<Int32Array>(*column).Value(2), 7);
      EXPECT_EQ(ArrayAs<Int32Array>(*column).raw_values(), p.values.data()) << "zero-copy";
    }
    EXPECT_EQ(arrays_released, 4) << "each batch (struct + column) released once";
    auto failed = reader->Next();
    ASSERT_FALSE(failed.ok());
    EXPECT_TRUE(failed.status().IsInvalid());
    EXPECT_THAT(failed.status().message(),
                HasSubstr("get_next failed with error code 22"));
    EXPECT_THAT(failed.status().message(), HasSubstr("producer exploded"));
    // Sticky: the producer is not called after an error.
    EXPECT_EQ(p.get_next_calls, 3);
    auto again = reader->Next();
    EXPECT_EQ(again.status(), failed.status());
    EXPECT_EQ(p.get_next_calls, 3);
    EXPECT_EQ(released, 0);
  }
  EXPECT_EQ(released, 1) << "the stream is released once, with the reader";
}

TEST(CDataStream, ImportForeignStreamToTheEnd) {
  int released = 0, arrays_released = 0;
  HandStream p;
  p.batches = 3;
  p.release_count = &released;
  p.array_release_count = &arrays_released;
  ArrowArrayStream stream = MakeHandStream(&p);
  auto imported = ImportRecordBatchReader(&stream);
  ASSERT_TRUE(imported.ok());
  auto table = (*imported)->ToTable();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->num_rows(), 9);
  auto end = (*imported)->Next();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
  EXPECT_EQ(p.get_next_calls, 4) << "no call after the end";
  table = Result<TablePtr>(Status::Cancelled("drop"));
  imported = Result<RecordBatchReaderPtr>(Status::Cancelled("drop"));
  EXPECT_EQ(released, 1);
  EXPECT_EQ(arrays_released, 6);
}

TEST(CDataStream, ImportFailures) {
  int released = 0;
  HandStream p;
  p.release_count = &released;

  // get_schema fails: the error carries the message; the stream is released.
  p.schema_fail_code = EIO;
  ArrowArrayStream stream = MakeHandStream(&p);
  auto r = ImportRecordBatchReader(&stream);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsIOError());
  EXPECT_THAT(r.status().message(), HasSubstr("get_schema failed"));
  EXPECT_THAT(r.status().message(), HasSubstr("producer exploded"));
  EXPECT_EQ(released, 1);
  EXPECT_EQ(stream.release, nullptr);

  // Released stream.
  r = ImportRecordBatchReader(&stream);
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_THAT(r.status().message(), HasSubstr("released"));
  EXPECT_EQ(released, 1);

  // Missing callback.
  p.schema_fail_code = 0;
  stream = MakeHandStream(&p);
  stream.get_next = nullptr;
  r = ImportRecordBatchReader(&stream);
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_THAT(r.status().message(), HasSubstr("NULL get_schema or get_next"));
  EXPECT_EQ(released, 2);

  EXPECT_TRUE(ImportRecordBatchReader(nullptr).status().IsInvalid());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
