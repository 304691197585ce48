// Reading IPC streams written by another implementation. The fixtures are
// Arrow streams produced by ClickHouse 26.8 (which writes through Arrow C++)
// with `FORMAT ArrowStream`, as published in the test suite of the
// intellistream datahub project (Apache-2.0): six rows of
// (timeseries_id, timestamp, value) with ids 11,11,11,12,12,12, timestamps
// 1700000000000 + 1000 * row (ms, UTC) and values row / 10. Their
// flatbuffers were laid out by another writer (Arrow C++'s builder calls,
// not ours), so these check our reading of the wire format itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quiver/ipc/reader.h"
#include "quiver/ipc/schema.h"
#include "quiver/ipc/test_util_internal.h"
#include "quiver/ipc/writer.h"
#include "quiver/util/base64.h"

namespace quiver::ipc {
namespace {
namespace QUIVER_UNITY_ID {

constexpr const char* kFloat32Stream =
    "/////+gAAAAQAAAAAAAKAAwABgAFAAgACgAAAAABBAAMAAAACAAIAAAABAAIAAAABAAAAAMAAAB8AAAAMAAAAAQAAACc"
    "////AAAAAwgAAAAUAAAABQAAAHZhbHVlAAYACAAGAAYAAAAAAAEAxP///wAAAAoIAAAAHAAAAAkAAAB0aW1lc3RhbXAA"
    "AAAIAAwABgAIAAgAAAAAAAEABAAAAAMAAABVVEMADAAQAAgAAAAHAAwADAAAAAAAAAIIAAAAIAAAAA0AAAB0aW1lc2Vy"
    "aWVzX2lkAAAACAAMAAgABwAIAAAAAAAAAUAAAAAAAAAA/////+gAAAAUAAAAAAAAAAwAFgAGAAUACAAMAAwAAAAAAwQA"
    "GAAAAHgAAAAAAAAAAAAKABgADAAEAAgACgAAAHwAAAAQAAAABgAAAAAAAAAAAAAABgAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAADAAAAAAAAAAMAAAAAAAAAAAAAAAAAAAADAAAAAAAAAAMAAAAAAAAABgAAAAAAAAAAAAAAAAAAAAYAAAAAAA"
    "AAAYAAAAAAAAAAAAAAADAAAABgAAAAAAAAAAAAAAAAAAAAYAAAAAAAAAAAAAAAAAAAAGAAAAAAAAAAAAAAAAAAAACwAA"
    "AAAAAAALAAAAAAAAAAsAAAAAAAAADAAAAAAAAAAMAAAAAAAAAAwAAAAAAAAAAGjlz4sBAADoa+XPiwEAANBv5c+LAQAA"
    "uHPlz4sBAACgd+XPiwEAAIh75c+LAQAAAAAAAM3MzD3NzEw+mpmZPs3MzD4AAAA//////wAAAAA=";

constexpr const char* kFloat64Stream =
    "/////+gAAAAQAAAAAAAKAAwABgAFAAgACgAAAAABBAAMAAAACAAIAAAABAAIAAAABAAAAAMAAAB8AAAAMAAAAAQAAACc"
    "////AAAAAwgAAAAUAAAABQAAAHZhbHVlAAYACAAGAAYAAAAAAAIAxP///wAAAAoIAAAAHAAAAAkAAAB0aW1lc3RhbXAA"
    "AAAIAAwABgAIAAgAAAAAAAEABAAAAAMAAABVVEMADAAQAAgAAAAHAAwADAAAAAAAAAIIAAAAIAAAAA0AAAB0aW1lc2Vy"
    "aWVzX2lkAAAACAAMAAgABwAIAAAAAAAAAUAAAAAAAAAA/////+gAAAAUAAAAAAAAAAwAFgAGAAUACAAMAAwAAAAAAwQA"
    "GAAAAJAAAAAAAAAAAAAKABgADAAEAAgACgAAAHwAAAAQAAAABgAAAAAAAAAAAAAABgAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAADAAAAAAAAAAMAAAAAAAAAAAAAAAAAAAADAAAAAAAAAAMAAAAAAAAABgAAAAAAAAAAAAAAAAAAAAYAAAAAAA"
    "AAAwAAAAAAAAAAAAAAADAAAABgAAAAAAAAAAAAAAAAAAAAYAAAAAAAAAAAAAAAAAAAAGAAAAAAAAAAAAAAAAAAAACwAA"
    "AAAAAAALAAAAAAAAAAsAAAAAAAAADAAAAAAAAAAMAAAAAAAAAAwAAAAAAAAAAGjlz4sBAADoa+XPiwEAANBv5c+LAQAA"
    "uHPlz4sBAACgd+XPiwEAAIh75c+LAQAAAAAAAAAAAACamZmZmZm5P5qZmZmZmck/MzMzMzMz0z+amZmZmZnZPwAAAAAA"
    "AOA//////wAAAAA=";

constexpr const char* kTextStream =
    "/////+AAAAAQAAAAAAAKAAwABgAFAAgACgAAAAABBAAMAAAACAAIAAAABAAIAAAABAAAAAMAAAB4AAAALAAAAAQAAACg"
    "////AAAABQgAAAAUAAAABQAAAHZhbHVlAAAABAAEAAQAAADE////AAAACggAAAAcAAAACQAAAHRpbWVzdGFtcAAAAAgA"
    "DAAGAAgACAAAAAAAAQAEAAAAAwAAAFVUQwAMABAACAAAAAcADAAMAAAAAAAAAggAAAAgAAAADQAAAHRpbWVzZXJpZXNf"
    "aWQAAAAIAAwACAAHAAgAAAAAAAABQAAAAP/////4AAAAFAAAAAAAAAAMABYABgAFAAgADAAMAAAAAAMEABgAAACQAAAA"
    "AAAAAAAACgAYAAwABAAIAAoAAACMAAAAEAAAAAYAAAAAAAAAAAAAAAcAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAw"
    "AAAAAAAAADAAAAAAAAAAAAAAAAAAAAAwAAAAAAAAADAAAAAAAAAAYAAAAAAAAAAAAAAAAAAAAGAAAAAAAAAAHAAAAAAA"
    "AACAAAAAAAAAAAwAAAAAAAAAAAAAAAMAAAAGAAAAAAAAAAAAAAAAAAAABgAAAAAAAAAAAAAAAAAAAAYAAAAAAAAAAAAA"
    "AAAAAAALAAAAAAAAAAsAAAAAAAAACwAAAAAAAAAMAAAAAAAAAAwAAAAAAAAADAAAAAAAAAAAaOXPiwEAAOhr5c+LAQAA"
    "0G/lz4sBAAC4c+XPiwEAAKB35c+LAQAAiHvlz4sBAAAAAAAAAgAAAAQAAAAGAAAACAAAAAoAAAAMAAAAAAAAAHYwdjF2"
    "MnYzdjR2NQAAAAD/////AAAAAA==";

std::shared_ptr<Buffer> DecodeBase64(const std::string& text) {
  auto bytes = Base64Decode(text);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  if (!bytes.ok()) return Buffer::Empty();
  return Buffer::FromVector(std::vector<uint8_t>(bytes->begin(), bytes->end()));
}

RecordBatchPtr ReadOnlyBatch(const char* base64) {
  auto buffer = DecodeBase64(base64);
  auto batches = testing::ReadStream(buffer, IpcReadOptions{});
  EXPECT_TRUE(batches.ok()) << batches.status();
  if (!batches.ok()) return nullptr;
  EXPECT_EQ(batches->size(), 1u);
  return batches->empty() ? nullptr : (*batches)[0];
}

void ExpectIdsAndTimestamps(const RecordBatch& batch) {
  ASSERT_EQ(batch.num_rows(), 6);
  ASSERT_EQ(batch.num_columns(), 3);
  EXPECT_EQ(batch.schema()->field(0)->name(), "timeseries_id");
  EXPECT_EQ(batch.schema()->field(1)->name(), "timestamp");
  EXPECT_EQ(batch.schema()->field(2)->name(), "value");
  EXPECT_TRUE(batch.schema()->field(1)->type()->Equals(*timestamp(TimeUnit::kMilli, "UTC")))
      << batch.schema()->field(1)->type()->ToString();
  auto ids = batch.column(0);
  auto timestamps = batch.column(1);
  ASSERT_EQ(ids->type()->bit_width(), 64) << ids->type()->ToString();
  const int64_t expected_ids[] = {11, 11, 11, 12, 12, 12};
  for (int64_t r = 0; r < 6; ++r) {
    EXPECT_EQ(ids->data()->GetValues<int64_t>(1)[r], expected_ids[r]);
    EXPECT_EQ(ArrayAs<Int64Array>(*timestamps).Value(r), 1700000000000 + 1000 * r);
  }
  EXPECT_TRUE(batch.ValidateFull().ok());
}

TEST(IpcInterop, ReadsArrowCppFloat32Stream) {
  auto batch = ReadOnlyBatch(kFloat32Stream);
  ASSERT_NE(batch, nullptr);
  ExpectIdsAndTimestamps(*batch);
  EXPECT_EQ(batch->schema()->field(2)->type()->id(), Type::kFloat);
  auto values = batch->column(2);
  for (int64_t r = 0; r < 6; ++r) {
    EXPECT_EQ(ArrayAs<FloatArray>(*values).Value(r), static_cast<float>(r / 10.0));
  }
}

TEST(IpcInterop, ReadsArrowCppFloat64Stream) {
  auto batch = ReadOnlyBatch(kFloat64Stream);
  ASSERT_NE(batch, nullptr);
  ExpectIdsAndTimestamps(*batch);
  EXPECT_EQ(batch->schema()->field(2)->type()->id(), Type::kDouble);
  auto values = batch->column(2);
  for (int64_t r = 0; r < 6; ++r) EXPECT_EQ(ArrayAs<DoubleArray>(*values).Value(r), r / 10.0);
}

TEST(IpcInterop, ReadsArrowCppStringStream) {
  auto batch = ReadOnlyBatch(kTextStream);
  ASSERT_NE(batch, nullptr);
  ExpectIdsAndTimestamps(*batch);
  EXPECT_EQ(batch->schema()->field(2)->type()->id(), Type::kString);
  auto values = batch->column(2);
  for (int64_t r = 0; r < 6; ++r) {
    EXPECT_EQ(ArrayAs<StringArray>(*values).GetString(r), "v" + std::to_string(r));
  }
}

TEST(IpcInterop, ForeignSchemaSurvivesOurRoundTrip) {
  // Their schema through our writer and reader; their batch through ours.
  for (const char* fixture : {kFloat32Stream, kFloat64Stream, kTextStream}) {
    auto batch = ReadOnlyBatch(fixture);
    ASSERT_NE(batch, nullptr);
    auto message = SerializeSchema(*batch->schema());
    ASSERT_TRUE(message.ok());
    auto schema = ReadSchemaMessage(**message);
    ASSERT_TRUE(schema.ok()) << schema.status();
    EXPECT_TRUE((*schema)->Equals(*batch->schema(), true));
    auto again = testing::ReadStream(testing::WriteStream({batch}));
    ASSERT_TRUE(again.ok()) << again.status();
    testing::ExpectBatchesEqual(*batch, *(*again)[0]);
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::ipc
