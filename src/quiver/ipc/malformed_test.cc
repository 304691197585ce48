// Malformed and hostile IPC input: truncation at every byte, byte flips at
// every position, hand-made messages with bad nodes / buffers / counts,
// corrupt compression prefixes, dictionary misuse. Every case must give an
// error Status (never a crash, never an unbounded allocation); run under
// ASan + UBSan.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "quiver/io/file.h"
#include "quiver/io/memory.h"
#include "quiver/ipc/message_internal.h"
#include "quiver/ipc/metadata_internal.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/schema.h"
#include "quiver/ipc/test_util_internal.h"
#include "quiver/ipc/writer.h"

namespace quiver::ipc {
namespace {
namespace QUIVER_UNITY_ID {

using testing::AllTypesBatch;
using testing::ReadFile;
using testing::ReadStream;
using testing::WriteFile;
using testing::WriteStream;
namespace fb = internal::fb;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

std::shared_ptr<Buffer> ExactCopy(const uint8_t* data, int64_t size) {
  // An exact-size heap block: ASan reports any read past it.
  return Buffer::FromVector(std::vector<uint8_t>(data, data + size));
}

IpcReadOptions Strict() {
  IpcReadOptions options;
  options.validate_full = true;
  return options;
}

// Uses everything a reader returned, to catch arrays that passed
// validation but are not safe to read.
void Exercise(const std::vector<RecordBatchPtr>& batches) {
  for (const auto& batch : batches) {
    ASSERT_TRUE(batch->ValidateFull().ok());
    for (int i = 0; i < batch->num_columns(); ++i) (void)batch->column(i)->ToString();
  }
}

// A few rows of one column per buffer layout (null, bitmap, fixed width,
// offsets + data, views, list, fixed-size list, struct, map, dictionary):
// small enough to truncate and flip at every byte.
RecordBatchPtr SmallBatch() {
  const std::vector<std::string> names = {"null",   "bool", "int32", "dec128",  "utf8",
                                          "utf8_view", "list", "fsl", "struct", "map",
                                          "dict"};
  FieldVector fields;
  std::vector<ArrayDataPtr> columns;
  for (auto& col : testing::AllTypeColumns(3)) {
    if (std::find(names.begin(), names.end(), col.name) == names.end()) continue;
    fields.push_back(field(col.name, col.data->type, col.nullable));
    columns.push_back(col.data);
  }
  return *RecordBatch::Make(schema(fields), 3, columns);
}

TEST(IpcMalformed, StreamTruncatedAtEveryLength) {
  for (Compression c : {Compression::kNone, Compression::kZstd}) {
    IpcWriteOptions options;
    options.compression = c;
    auto batch = SmallBatch();
    auto stream = WriteStream({batch, batch}, options);
    ASSERT_NE(stream, nullptr);
    int errors = 0;
    int tries = 0;
    // Every length uncompressed; every third one compressed (same paths,
    // plus the decoder's).
    const int64_t step = c == Compression::kNone ? 1 : 3;
    for (int64_t n = 0; n < stream->size(); n += step) {
      ++tries;
      auto got = ReadStream(ExactCopy(stream->data(), n), Strict());
      if (!got.ok()) {
        ++errors;
        EXPECT_FALSE(got.status().message().empty());
        continue;
      }
      // Cut between messages: a clean end with fewer batches.
      EXPECT_LE(got->size(), 2u) << n;
      for (const auto& b : *got) testing::ExpectBatchesEqual(*batch, *b);
    }
    EXPECT_GT(errors, tries * 9 / 10);
  }
}

TEST(IpcMalformed, FileTruncatedAtEveryLength) {
  auto batch = SmallBatch();
  auto file = WriteFile({batch});
  ASSERT_NE(file, nullptr);
  for (int64_t n = 0; n < file->size(); ++n) {
    auto reader = RecordBatchFileReader::Open(ExactCopy(file->data(), n));
    EXPECT_FALSE(reader.ok()) << "accepted a file truncated to " << n << " bytes";
  }
  // Cut off the front instead: the footer's blocks then point elsewhere.
  for (int64_t n = 1; n < file->size(); n += 7) {
    auto got = ReadFile(ExactCopy(file->data() + n, file->size() - n), Strict());
    if (got.ok()) Exercise(*got);
  }
}

// Flips bits of every byte from `dense_from` on, and of every `step`-th
// byte before it.
void FlipEveryByte(const std::shared_ptr<Buffer>& original, bool file, int64_t step = 1,
                   int64_t dense_from = 0) {
  int accepted = 0;
  int rejected = 0;
  for (int64_t i = 0; i < original->size(); i += (i >= dense_from ? 1 : step)) {
    for (uint8_t x : {0x01, 0x80}) {
      std::vector<uint8_t> bytes(original->data(), original->data() + original->size());
      bytes[static_cast<size_t>(i)] ^= x;
      auto buffer = Buffer::FromVector(std::move(bytes));
      auto got = file ? ReadFile(buffer, Strict()) : ReadStream(buffer, Strict());
      if (got.ok()) {
        ++accepted;
        Exercise(*got);
      } else {
        ++rejected;
        EXPECT_FALSE(got.status().message().empty());
      }
      // The structural checks alone must be safe too (no reads of values).
      if (x == 0x80) {
        auto lenient = file ? ReadFile(buffer) : ReadStream(buffer);
        (void)lenient;
      }
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(accepted, 0);  // flips in values and padding are harmless
}

TEST(IpcMalformed, StreamSurvivesEveryByteFlip) {
  auto batch = SmallBatch();
  FlipEveryByte(WriteStream({batch}), false);
}

TEST(IpcMalformed, CompressedStreamSurvivesEveryByteFlip) {
  IpcWriteOptions options;
  options.compression = Compression::kLz4Frame;
  auto batch = SmallBatch();
  FlipEveryByte(WriteStream({batch}, options), false, /*step=*/3, /*dense_from=*/1 << 30);
}

TEST(IpcMalformed, FileSurvivesEveryByteFlip) {
  IpcWriteOptions options;
  options.compression = Compression::kZstd;
  auto batch = SmallBatch();
  auto file = WriteFile({batch}, options);
  ASSERT_NE(file, nullptr);
  // The messages are covered by the stream tests: sample them, flip every
  // byte of the footer, its length and the magic.
  int32_t footer_length;
  std::memcpy(&footer_length, file->data() + file->size() - 10, 4);
  FlipEveryByte(file, true, /*step=*/7, file->size() - 10 - footer_length);
}

// --- Hand-made messages ---------------------------------------------------------------

// A schema message, then the given messages, then an end-of-stream marker.
class StreamBuilder {
 public:
  explicit StreamBuilder(const Schema& schema) {
    auto message = SerializeSchema(schema);
    EXPECT_TRUE(message.ok());
    Append((*message)->data(), (*message)->size());
  }

  // A message whose header is built by `build`, with `body` (padded to 8).
  template <typename Build>
  StreamBuilder& Add(fb::MessageHeader type, std::vector<uint8_t> body, Build&& build) {
    body.resize((body.size() + 7) / 8 * 8, 0);
    FlatBufferBuilder fbb;
    Offset<void> header = build(fbb);
    auto framed = internal::FinishMessage(fbb, type, header, static_cast<int64_t>(body.size()), 8,
                                          DefaultMemoryPool());
    EXPECT_TRUE(framed.ok());
    Append((*framed)->data(), (*framed)->size());
    Append(body.data(), static_cast<int64_t>(body.size()));
    return *this;
  }

  std::shared_ptr<Buffer> Finish() {
    const uint8_t eos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
    Append(eos, 8);
    return Buffer::FromVector(bytes_);
  }

 private:
  void Append(const void* data, int64_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  std::vector<uint8_t> bytes_;
};

struct BatchSpec {
  int64_t length = 3;
  std::vector<fb::FieldNode> nodes;
  std::vector<fb::Buffer> buffers;
  std::vector<int64_t> variadic;
  bool with_variadic = false;
  bool compressed = false;
};

Offset<fb::RecordBatch> BuildBatch(FlatBufferBuilder& fbb, const BatchSpec& spec) {
  auto nodes = fbb.CreateVectorOfStructs(spec.nodes);
  auto buffers = fbb.CreateVectorOfStructs(spec.buffers);
  Offset<flatbuffers::Vector<int64_t>> variadic;
  if (spec.with_variadic) variadic = fbb.CreateVector(spec.variadic);
  Offset<fb::BodyCompression> compression;
  if (spec.compressed) compression = fb::CreateBodyCompression(fbb, fb::CompressionType::ZSTD);
  return fb::CreateRecordBatch(fbb, spec.length, nodes, buffers, compression, variadic);
}

std::vector<uint8_t> Int32Body(std::vector<int32_t> values) {
  std::vector<uint8_t> body(values.size() * 4);
  std::memcpy(body.data(), values.data(), body.size());
  return body;
}

Status ReadHandMade(const Schema& schema, const BatchSpec& spec, std::vector<uint8_t> body,
                    const IpcReadOptions& options = {}) {
  auto stream = StreamBuilder(schema)
                    .Add(fb::MessageHeader::RecordBatch, std::move(body),
                         [&](FlatBufferBuilder& fbb) { return BuildBatch(fbb, spec).Union(); })
                    .Finish();
  auto got = ReadStream(stream, options);
  return got.status();
}

TEST(IpcMalformed, HandMadeInt32BatchIsReadable) {
  auto s = schema({field("x", int32())});
  BatchSpec spec;
  spec.nodes = {fb::FieldNode(3, 0)};
  spec.buffers = {fb::Buffer(0, 0), fb::Buffer(0, 12)};
  auto stream = StreamBuilder(*s)
                    .Add(fb::MessageHeader::RecordBatch, Int32Body({7, 8, 9}),
                         [&](FlatBufferBuilder& fbb) { return BuildBatch(fbb, spec).Union(); })
                    .Finish();
  auto got = ReadStream(stream);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 1u);
  ArrayPtr column = (*got)[0]->column(0);
  const auto& values = ArrayAs<Int32Array>(*column);
  EXPECT_EQ(values.Value(0), 7);
  EXPECT_EQ(values.Value(2), 9);
}

TEST(IpcMalformed, BadNodesAndBuffers) {
  auto s = schema({field("x", int32())});
  struct Case {
    std::string name;
    BatchSpec spec;
    std::string expected;
  };
  auto make = [](int64_t length, std::vector<fb::FieldNode> nodes,
                 std::vector<fb::Buffer> buffers) {
    BatchSpec spec;
    spec.length = length;
    spec.nodes = std::move(nodes);
    spec.buffers = std::move(buffers);
    return spec;
  };
  using Node = fb::FieldNode;
  using Buf = fb::Buffer;
  const int64_t h59 = int64_t{1} << 59;
  const int64_t h62 = int64_t{1} << 62;
  std::vector<Case> cases = {
      {"buffer past the body", make(3, {Node(3, 0)}, {Buf(0, 0), Buf(8, 12)}), "outside"},
      {"huge buffer offset", make(3, {Node(3, 0)}, {Buf(0, 0), Buf(h62, 12)}), "outside"},
      {"negative buffer length", make(3, {Node(3, 0)}, {Buf(0, 0), Buf(0, -4)}), "outside"},
      {"short values", make(3, {Node(3, 0)}, {Buf(0, 0), Buf(0, 8)}), "12 needed"},
      {"missing buffer", make(3, {Node(3, 0)}, {Buf(0, 0)}), "buffers"},
      {"missing node", make(3, {}, {Buf(0, 0), Buf(0, 12)}), "field nodes"},
      {"null count over length", make(3, {Node(3, 4)}, {Buf(0, 1), Buf(0, 12)}), "null count"},
      {"negative length", make(3, {Node(-1, 0)}, {Buf(0, 0), Buf(0, 12)}), "length"},
      {"huge length", make(h59, {Node(h59, 0)}, {Buf(0, 0), Buf(0, 16)}), "needed"},
      {"overflowing length", make(h62, {Node(h62, 0)}, {Buf(0, 0), Buf(0, 16)}), "overflows"},
      {"nulls without bitmap", make(3, {Node(3, 1)}, {Buf(0, 0), Buf(0, 12)}), "validity"},
      {"batch length mismatch", make(4, {Node(3, 0)}, {Buf(0, 0), Buf(0, 12)}), "rows"},
      {"negative batch length", make(-3, {Node(3, 0)}, {Buf(0, 0), Buf(0, 12)}), "negative"},
  };
  for (auto& c : cases) {
    Status st = ReadHandMade(*s, c.spec, Int32Body({1, 2, 3, 4}));
    ASSERT_FALSE(st.ok()) << c.name;
    EXPECT_TRUE(st.IsInvalid()) << c.name << ": " << st;
    EXPECT_NE(st.message().find(c.expected), std::string::npos) << c.name << ": " << st;
    if (c.spec.length >= 0) {
      EXPECT_NE(st.message().find("'x'"), std::string::npos) << c.name << ": " << st;
    }
  }
}

TEST(IpcMalformed, BadOffsetsAndViews) {
  // string column whose offsets point past the data: caught by validation.
  auto strings = schema({field("s", utf8())});
  BatchSpec spec;
  spec.nodes = {fb::FieldNode(2, 0)};
  spec.buffers = {fb::Buffer(0, 0), fb::Buffer(0, 12), fb::Buffer(16, 4)};
  Status st = ReadHandMade(*strings, spec, Int32Body({0, 2, 100, 0, 0x61616161}));
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(st.IsInvalid()) << st;

  // View column: variadic counts missing, negative, too large.
  auto views = schema({field("v", utf8_view())});
  std::vector<uint8_t> body(64, 0);  // two inline empty views
  BatchSpec vspec;
  vspec.length = 2;
  vspec.nodes = {fb::FieldNode(2, 0)};
  vspec.buffers = {fb::Buffer(0, 0), fb::Buffer(0, 32), fb::Buffer(32, 8)};
  st = ReadHandMade(*views, vspec, body);
  EXPECT_NE(st.message().find("variadic"), std::string::npos) << st;
  vspec.with_variadic = true;
  vspec.variadic = {5};
  st = ReadHandMade(*views, vspec, body);
  EXPECT_NE(st.message().find("data buffers"), std::string::npos) << st;
  vspec.variadic = {-1};
  st = ReadHandMade(*views, vspec, body);
  EXPECT_NE(st.message().find("data buffers"), std::string::npos) << st;
  vspec.variadic = {1};
  st = ReadHandMade(*views, vspec, body);
  EXPECT_TRUE(st.ok()) << st;
  // A view pointing outside its data buffer: caught by validation.
  std::vector<uint8_t> bad = body;
  int32_t view[4] = {20, 0, 0, 100};  // 20 bytes in buffer 0 at offset 100
  std::memcpy(bad.data(), view, 16);
  st = ReadHandMade(*views, vspec, bad, Strict());
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("view at slot 0"), std::string::npos) << st;
}

TEST(IpcMalformed, MessageOrderAndTypes) {
  auto s = schema({field("d", dictionary(int32(), utf8()))});
  BatchSpec indices;
  indices.nodes = {fb::FieldNode(3, 0)};
  indices.buffers = {fb::Buffer(0, 0), fb::Buffer(0, 12)};
  // A record batch before its dictionary.
  auto stream = StreamBuilder(*s)
                    .Add(fb::MessageHeader::RecordBatch, Int32Body({0, 0, 0}),
                         [&](FlatBufferBuilder& fbb) { return BuildBatch(fbb, indices).Union(); })
                    .Finish();
  auto got = ReadStream(stream);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("before any dictionary"), std::string::npos)
      << got.status();

  // Dictionary batches for an unknown id, and a delta before any dictionary.
  BatchSpec dict;
  dict.length = 1;
  dict.nodes = {fb::FieldNode(1, 0)};
  dict.buffers = {fb::Buffer(0, 0), fb::Buffer(0, 8), fb::Buffer(8, 1)};
  std::vector<uint8_t> dict_body = {0, 0, 0, 0, 1, 0, 0, 0, 'z'};
  for (auto [id, delta, expected] :
       {std::tuple<int64_t, bool, const char*>{7, false, "no field"}, {0, true, "delta"}}) {
    auto bad = StreamBuilder(*s)
                   .Add(fb::MessageHeader::DictionaryBatch, dict_body,
                        [&](FlatBufferBuilder& fbb) {
                          return fb::CreateDictionaryBatch(fbb, id, BuildBatch(fbb, dict), delta)
                              .Union();
                        })
                   .Finish();
    got = ReadStream(bad);
    ASSERT_FALSE(got.ok());
    EXPECT_NE(got.status().message().find(expected), std::string::npos) << got.status();
  }

  // A valid dictionary then the batch works; indices out of range are
  // caught by full validation.
  auto ok_stream = StreamBuilder(*s)
                       .Add(fb::MessageHeader::DictionaryBatch, dict_body,
                            [&](FlatBufferBuilder& fbb) {
                              return fb::CreateDictionaryBatch(fbb, 0, BuildBatch(fbb, dict))
                                  .Union();
                            })
                       .Add(fb::MessageHeader::RecordBatch, Int32Body({0, 0, 5}),
                            [&](FlatBufferBuilder& fbb) {
                              return BuildBatch(fbb, indices).Union();
                            })
                       .Finish();
  EXPECT_TRUE(ReadStream(ok_stream).ok());
  got = ReadStream(ok_stream, Strict());
  ASSERT_FALSE(got.ok());

  // A second schema, a tensor, nothing but a record batch.
  auto twice = StreamBuilder(*s)
                   .Add(fb::MessageHeader::Schema, {},
                        [&](FlatBufferBuilder& fbb) { return fb::CreateSchema(fbb).Union(); })
                   .Finish();
  got = ReadStream(twice);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("Schema"), std::string::npos) << got.status();
  auto tensor = StreamBuilder(*s)
                    .Add(fb::MessageHeader::Tensor, {},
                         [&](FlatBufferBuilder& fbb) {
                           auto shape = fbb.CreateVector(std::vector<Offset<fb::TensorDim>>{});
                           fb::Buffer data(0, 0);
                           return fb::CreateTensor(fbb, fb::Type::Null, fb::CreateNull(fbb).Union(),
                                                   shape, 0, &data)
                               .Union();
                         })
                    .Finish();
  got = ReadStream(tensor);
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(got.status().IsNotImplemented()) << got.status();
  // A stream that starts with a record batch.
  FlatBufferBuilder fbb;
  auto framed = internal::FinishMessage(fbb, fb::MessageHeader::RecordBatch,
                                        BuildBatch(fbb, indices).Union(), 0, 8,
                                        DefaultMemoryPool());
  ASSERT_TRUE(framed.ok());
  auto no_schema = RecordBatchStreamReader::Open(*framed);
  ASSERT_FALSE(no_schema.ok());
  EXPECT_NE(no_schema.status().message().find("instead of a schema"), std::string::npos);
  EXPECT_FALSE(RecordBatchStreamReader::Open(Buffer::Empty()).ok());
}

TEST(IpcMalformed, FileMayNotReplaceDictionaries) {
  // Write a stream with a replacement, then wrap its messages in a file
  // whose footer lists both dictionary batches.
  auto s = schema({field("d", dictionary(int32(), utf8()))});
  auto make = [&](std::vector<std::string> values) {
    auto dict = testutil::StringArrayFromVector(values);
    return *RecordBatch::Make(
        s, 1,
        std::vector<ArrayDataPtr>{testutil::DictionaryArrayFromIndices(s->field(0)->type(), {0},
                                                                       dict)});
  };
  auto stream = WriteStream({make({"a"}), make({"b"})});
  ASSERT_NE(stream, nullptr);
  std::vector<uint8_t> file = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
  std::vector<fb::Block> dictionaries;
  std::vector<fb::Block> batches;
  io::BufferReader reader(stream);
  while (true) {
    const int64_t offset = *reader.Tell();
    auto message = internal::ReadMessage(&reader, 64, DefaultMemoryPool());
    ASSERT_TRUE(message.ok());
    const int64_t end = *reader.Tell();
    if (*message == nullptr) break;
    const int64_t body = (*message)->body()->size();
    fb::Block block(8 + offset, static_cast<int32_t>(end - offset - body), body);
    if ((*message)->type() == fb::MessageHeader::DictionaryBatch) dictionaries.push_back(block);
    if ((*message)->type() == fb::MessageHeader::RecordBatch) batches.push_back(block);
  }
  file.insert(file.end(), stream->data(), stream->data() + stream->size());
  FlatBufferBuilder fbb;
  auto mapper = internal::DictionaryFieldMapper::FromSchema(*s, 64);
  auto schema_offset = internal::SchemaToFlatbuffer(fbb, *s, *mapper);
  fbb.Finish(fb::CreateFooter(fbb, fb::MetadataVersion::V5, *schema_offset,
                              fbb.CreateVectorOfStructs(dictionaries),
                              fbb.CreateVectorOfStructs(batches)));
  file.insert(file.end(), fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  int32_t footer_size = static_cast<int32_t>(fbb.GetSize());
  const auto* size_bytes = reinterpret_cast<const uint8_t*>(&footer_size);
  file.insert(file.end(), size_bytes, size_bytes + 4);
  file.insert(file.end(), {'A', 'R', 'R', 'O', 'W', '1'});
  auto opened = RecordBatchFileReader::Open(Buffer::FromVector(file));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find("replacing"), std::string::npos) << opened.status();
}

// --- Compression ---------------------------------------------------------------------------

// The body offset and spec of the values buffer (buffer 1) of the first
// record batch in a stream.
struct Located {
  int64_t body_start;
  int64_t buffer_offset;
  int64_t buffer_length;
};

Located LocateValues(const Buffer& stream) {
  int64_t pos = 0;
  while (true) {
    auto prefix = internal::DecodeMessagePrefix(stream.data() + pos, stream.size() - pos);
    EXPECT_TRUE(prefix.ok());
    auto message = internal::VerifyMessage(stream.data() + pos + 8, prefix->metadata_length, 64);
    EXPECT_TRUE(message.ok());
    const int64_t body_start = pos + 8 + prefix->metadata_length;
    if (const auto* rb = (*message)->header_as_RecordBatch()) {
      return {body_start, rb->buffers()->Get(1)->offset(), rb->buffers()->Get(1)->length()};
    }
    pos = body_start + (*message)->bodyLength();
  }
}

TEST(IpcMalformed, CorruptCompressionPrefixes) {
  std::vector<int64_t> values(50000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i % 100);
  auto col = testutil::ArrayFromVector(int64(), values);
  auto batch = *RecordBatch::Make(schema({field("v", int64(), false)}), 50000,
                                  std::vector<ArrayDataPtr>{col});
  for (Compression c : {Compression::kLz4Frame, Compression::kZstd}) {
    SCOPED_TRACE(std::string(CompressionName(c)));
    IpcWriteOptions options;
    options.compression = c;
    auto stream = WriteStream({batch}, options);
    ASSERT_NE(stream, nullptr);
    Located where = LocateValues(*stream);
    const int64_t prefix_at = where.body_start + where.buffer_offset;
    int64_t declared;
    std::memcpy(&declared, stream->data() + prefix_at, 8);
    ASSERT_EQ(declared, 400000);
    const int64_t payload = where.buffer_length - 8;
    ASSERT_LT(payload, 400000 / 4);  // it did compress

    struct Case {
      int64_t prefix;
      const char* expected;
    };
    for (Case k : {Case{int64_t{1} << 60, "more than the limit"}, Case{-2, "negative"},
                   Case{399999, "more than its declared"}, Case{400001, "decodes to 400000"},
                   Case{payload * 20000, ""}}) {
      std::vector<uint8_t> bytes(stream->data(), stream->data() + stream->size());
      std::memcpy(bytes.data() + prefix_at, &k.prefix, 8);
      // A pool capped far below what the prefixes claim.
      CappedMemoryPool pool(DefaultMemoryPool(), 4 << 20);
      IpcReadOptions read_options;
      read_options.pool = &pool;
      read_options.max_decompressed_buffer_size = int64_t{1} << 40;
      if (k.prefix == (int64_t{1} << 60)) read_options.max_decompressed_buffer_size = 1 << 30;
      auto got = ReadStream(Buffer::FromVector(bytes), read_options);
      ASSERT_FALSE(got.ok()) << k.prefix;
      EXPECT_TRUE(got.status().IsInvalid()) << got.status();
      EXPECT_NE(got.status().message().find(k.expected), std::string::npos) << got.status();
      EXPECT_NE(got.status().message().find("buffer 1"), std::string::npos) << got.status();
      EXPECT_LT(pool.max_memory(), 4 << 20);
    }
    // A prefix beyond what the payload can physically produce.
    {
      std::vector<uint8_t> bytes(stream->data(), stream->data() + stream->size());
      int64_t impossible = payload * 40000 + (1 << 20);
      std::memcpy(bytes.data() + prefix_at, &impossible, 8);
      auto got = ReadStream(Buffer::FromVector(bytes));
      ASSERT_FALSE(got.ok());
      EXPECT_NE(got.status().message().find("cannot hold"), std::string::npos) << got.status();
    }
    // Garbage compressed bytes.
    {
      std::vector<uint8_t> bytes(stream->data(), stream->data() + stream->size());
      for (int64_t i = 0; i < std::min<int64_t>(payload, 64); ++i) {
        bytes[static_cast<size_t>(prefix_at + 8 + i)] ^= 0x5A;
      }
      auto got = ReadStream(Buffer::FromVector(bytes));
      ASSERT_FALSE(got.ok());
      EXPECT_NE(got.status().message().find("corrupt"), std::string::npos) << got.status();
    }
    // A compressed buffer shorter than its prefix.
    auto short_stream = StreamBuilder(*batch->schema())
                            .Add(fb::MessageHeader::RecordBatch, {1, 2, 3, 4},
                                 [&](FlatBufferBuilder& fbb) {
                                   BatchSpec spec;
                                   spec.length = 1;
                                   spec.compressed = true;
                                   spec.nodes = {fb::FieldNode(1, 0)};
                                   spec.buffers = {fb::Buffer(0, 0), fb::Buffer(0, 4)};
                                   return BuildBatch(fbb, spec).Union();
                                 })
                            .Finish();
    auto got = ReadStream(short_stream);
    ASSERT_FALSE(got.ok());
    EXPECT_NE(got.status().message().find("shorter than its 8-byte"), std::string::npos)
        << got.status();
  }
}

TEST(IpcMalformed, StreamLengthsBeyondTheInputDoNotAllocate) {
  // A pipe-like source whose metadata length claims 1 GiB but holds a few
  // bytes: the read fails as truncated, having allocated little.
  char path_template[] = "/tmp/quiver_ipc_malformedXXXXXX";
  int fd = mkstemp(path_template);
  ASSERT_GE(fd, 0);
  const uint8_t bytes[16] = {0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x40,
                             1,    2,    3,    4,    5,    6,    7,    8};
  ASSERT_EQ(::write(fd, bytes, sizeof(bytes)), 16);
  ::close(fd);
  CappedMemoryPool pool(DefaultMemoryPool(), 1 << 20);
  auto source = io::FileInputStream::Open(path_template, &pool);
  ASSERT_TRUE(source.ok());
  IpcReadOptions options;
  options.pool = &pool;
  auto reader = RecordBatchStreamReader::Open(source->get(), options);
  ASSERT_FALSE(reader.ok());
  EXPECT_TRUE(reader.status().IsInvalid()) << reader.status();
  EXPECT_NE(reader.status().message().find("ends inside message metadata"), std::string::npos)
      << reader.status();
  EXPECT_LT(pool.max_memory(), 1 << 20);
  std::remove(path_template);
}

TEST(IpcMalformed, FileFooterProblems) {
  auto batch = SmallBatch();
  auto file = WriteFile({batch});
  ASSERT_NE(file, nullptr);
  const int64_t n = file->size();
  auto patched = [&](int64_t at, std::vector<uint8_t> value) {
    std::vector<uint8_t> bytes(file->data(), file->data() + n);
    std::memcpy(bytes.data() + at, value.data(), value.size());
    return RecordBatchFileReader::Open(Buffer::FromVector(bytes));
  };
  // Footer length: zero, negative, larger than the file.
  for (std::vector<uint8_t> len : {std::vector<uint8_t>{0, 0, 0, 0}, {0xFF, 0xFF, 0xFF, 0xFF},
                                   {0xFF, 0xFF, 0xFF, 0x7F}, {0x00, 0x00, 0x01, 0x00}}) {
    auto r = patched(n - 10, len);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsInvalid()) << r.status();
  }
  // Magic bytes.
  EXPECT_FALSE(patched(0, {'X'}).ok());
  EXPECT_FALSE(patched(n - 1, {'X'}).ok());
  EXPECT_FALSE(RecordBatchFileReader::Open(Buffer::Empty()).ok());
  // Block offsets: make the footer point at the wrong places by reading a
  // footer from a different file.
  auto other = WriteFile({AllTypesBatch(40)});
  std::vector<uint8_t> mixed(file->data(), file->data() + n);
  int32_t footer_length;
  std::memcpy(&footer_length, other->data() + other->size() - 10, 4);
  mixed.resize(static_cast<size_t>(n - 10 - 0));
  // Replace this file's footer with the other file's footer.
  int32_t own_length;
  std::memcpy(&own_length, file->data() + n - 10, 4);
  mixed.resize(static_cast<size_t>(n - 10 - own_length));
  const uint8_t* other_footer = other->data() + other->size() - 10 - footer_length;
  mixed.insert(mixed.end(), other_footer, other_footer + footer_length + 10);
  auto got = ReadFile(Buffer::FromVector(mixed), Strict());
  EXPECT_FALSE(got.ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::ipc
