// Round trips through the IPC stream and file formats: every type, with
// and without compression, sliced input, dictionaries (new, unchanged,
// delta, replacement), alignment, the framing bytes, files on disk.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "quiver/io/file.h"
#include "quiver/io/memory.h"
#include "quiver/ipc/message_internal.h"
#include "quiver/ipc/metadata_internal.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/test_util_internal.h"
#include "quiver/ipc/writer.h"
#include "quiver/util/bit_util.h"

namespace quiver::ipc {
namespace {
namespace QUIVER_UNITY_ID {

using testing::AllTypesBatch;
using testing::ExpectBatchesEqual;
using testing::ReadFile;
using testing::ReadStream;
using testing::WriteFile;
using testing::WriteStream;
namespace fb = internal::fb;

IpcReadOptions FullValidation() {
  IpcReadOptions options;
  options.validate_full = true;
  return options;
}

IpcWriteOptions WithCompression(Compression c) {
  IpcWriteOptions options;
  options.compression = c;
  return options;
}

class RoundTrip : public ::testing::TestWithParam<Compression> {
 protected:
  IpcWriteOptions Options() const {
    IpcWriteOptions options;
    options.compression = GetParam();
    return options;
  }
};

TEST_P(RoundTrip, StreamOfEveryType) {
  auto batch = AllTypesBatch(21, key_value_metadata({{"origin", "test"}}));
  ASSERT_NE(batch, nullptr);
  auto second = AllTypesBatch(5, key_value_metadata({{"origin", "test"}}));
  auto buffer = WriteStream({batch, second, batch}, Options());
  ASSERT_NE(buffer, nullptr);
  auto reader = RecordBatchStreamReader::Open(buffer);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_TRUE((*reader)->schema()->Equals(*batch->schema(), true));
  for (const auto& expected : {batch, second, batch}) {
    auto got = (*reader)->Next();
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_NE(*got, nullptr);
    ExpectBatchesEqual(*expected, **got);
    ASSERT_TRUE((*got)->ValidateFull().ok());
  }
  auto end = (*reader)->Next();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
  end = (*reader)->Next();  // stays at the end
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
  ReadStats stats = (*reader)->stats();
  EXPECT_EQ(stats.num_record_batches, 3);
  // dict, dict_u8 and list_dict: their dictionaries are sent once (the
  // second batch has equal dictionaries).
  EXPECT_EQ(stats.num_dictionary_batches, 3);
  EXPECT_EQ(stats.num_messages, 1 + 3 + 3);
}

TEST_P(RoundTrip, FileOfEveryType) {
  auto batch = AllTypesBatch(21);
  auto second = AllTypesBatch(9);
  auto options = Options();
  options.footer_metadata = key_value_metadata({{"footer", "yes"}});
  auto buffer = WriteFile({batch, second}, options);
  ASSERT_NE(buffer, nullptr);
  auto reader = RecordBatchFileReader::Open(buffer);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->num_record_batches(), 2);
  EXPECT_EQ((*reader)->num_dictionaries(), 3);
  ASSERT_NE((*reader)->metadata(), nullptr);
  EXPECT_EQ((*reader)->metadata()->Get("footer"), "yes");
  EXPECT_TRUE((*reader)->schema()->Equals(*batch->schema(), true));
  // Random access, any order.
  auto b1 = (*reader)->ReadRecordBatch(1);
  ASSERT_TRUE(b1.ok()) << b1.status();
  ExpectBatchesEqual(*second, **b1);
  auto b0 = (*reader)->ReadRecordBatch(0);
  ASSERT_TRUE(b0.ok()) << b0.status();
  ExpectBatchesEqual(*batch, **b0);
  EXPECT_TRUE((*reader)->ReadRecordBatch(2).status().IsIndexError());
  EXPECT_TRUE((*reader)->ReadRecordBatch(-1).status().IsIndexError());
  auto table = (*reader)->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ((*table)->num_rows(), 30);
  // The stream inside the file is readable as a stream too.
  auto inner = SliceBuffer(buffer, 8, buffer->size() - 8);
  auto streamed = ReadStream(inner);
  ASSERT_TRUE(streamed.ok()) << streamed.status();
  ASSERT_EQ(streamed->size(), 2u);
  ExpectBatchesEqual(*second, *(*streamed)[1]);
}

TEST_P(RoundTrip, EverySliceOfEveryType) {
  auto batch = AllTypesBatch(21);
  ASSERT_NE(batch, nullptr);
  const int64_t n = batch->num_rows();
  for (int64_t offset = 0; offset <= n; offset += 1) {
    for (int64_t length : {int64_t{0}, int64_t{1}, int64_t{5}, n - offset}) {
      if (offset + length > n) continue;
      SCOPED_TRACE("slice " + std::to_string(offset) + "+" + std::to_string(length));
      auto sliced = batch->Slice(offset, length);
      auto buffer = WriteStream({sliced}, Options());
      ASSERT_NE(buffer, nullptr);
      auto got = ReadStream(buffer, FullValidation());
      ASSERT_TRUE(got.ok()) << got.status();
      ASSERT_EQ(got->size(), 1u);
      ExpectBatchesEqual(*sliced, *(*got)[0]);
    }
  }
}

TEST_P(RoundTrip, SlicingWritesOnlyTheVisibleRange) {
  auto big = AllTypesBatch(200);
  auto whole = WriteStream({big}, Options());
  auto slice = WriteStream({big->Slice(100, 3)}, Options());
  ASSERT_NE(whole, nullptr);
  ASSERT_NE(slice, nullptr);
  EXPECT_LT(slice->size() * 3, whole->size());
}

INSTANTIATE_TEST_SUITE_P(Ipc, RoundTrip,
                         ::testing::Values(Compression::kNone, Compression::kLz4Frame,
                                           Compression::kZstd),
                         [](const auto& info) { return std::string(CompressionName(info.param)); });

TEST(IpcRoundTrip, ReadingIsZeroCopy) {
  auto batch = AllTypesBatch(21);
  auto buffer = WriteStream({batch});
  auto got = ReadStream(buffer);
  ASSERT_TRUE(got.ok()) << got.status();
  const uint8_t* begin = buffer->data();
  const uint8_t* end = begin + buffer->size();
  int checked = 0;
  for (const auto& column : (*got)[0]->columns_data()) {
    for (size_t i = 1; i < column->buffers.size(); ++i) {
      const auto& b = column->buffers[i];
      if (b == nullptr || b->size() == 0) continue;
      EXPECT_GE(b->data(), begin);
      EXPECT_LE(b->data() + b->size(), end);
      ++checked;
    }
  }
  EXPECT_GT(checked, 30);
}

TEST(IpcRoundTrip, CompressionShrinksCompressibleData) {
  std::vector<int64_t> zeros(100000, 42);
  auto col = testutil::ArrayFromVector(int64(), zeros);
  auto batch = *RecordBatch::Make(schema({field("z", int64())}), 100000,
                                  std::vector<ArrayDataPtr>{col});
  auto plain = WriteStream({batch});
  for (Compression c : {Compression::kLz4Frame, Compression::kZstd}) {
    IpcWriteOptions options;
    options.compression = c;
    auto compressed = WriteStream({batch}, options);
    ASSERT_NE(compressed, nullptr);
    EXPECT_LT(compressed->size() * 20, plain->size()) << CompressionName(c);
    auto got = ReadStream(compressed);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectBatchesEqual(*batch, *(*got)[0]);
  }
}

TEST(IpcRoundTrip, IncompressibleBuffersAreStoredRawWithMinusOne) {
  std::vector<uint64_t> noise(64);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& v : noise) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v = x;
  }
  auto col = testutil::ArrayFromVector(uint64(), noise);
  auto batch = *RecordBatch::Make(schema({field("n", uint64(), false)}), 64,
                                  std::vector<ArrayDataPtr>{col});
  IpcWriteOptions options;
  options.compression = Compression::kZstd;
  auto buffer = WriteStream({batch}, options);
  ASSERT_NE(buffer, nullptr);
  // The values buffer is the second buffer of the record batch body: find
  // it and check its prefix.
  auto reader = io::BufferReader(buffer);
  auto schema_message = internal::ReadMessage(&reader, 64, DefaultMemoryPool());
  ASSERT_TRUE(schema_message.ok());
  auto message = internal::ReadMessage(&reader, 64, DefaultMemoryPool());
  ASSERT_TRUE(message.ok()) << message.status();
  const auto* rb = (*message)->flatbuffer().header_as_RecordBatch();
  ASSERT_NE(rb, nullptr);
  ASSERT_NE(rb->compression(), nullptr);
  EXPECT_EQ(rb->compression()->codec(), fb::CompressionType::ZSTD);
  ASSERT_EQ(rb->buffers()->size(), 2u);
  EXPECT_EQ(rb->buffers()->Get(0)->length(), 0);  // no validity
  const auto* values = rb->buffers()->Get(1);
  EXPECT_EQ(values->length(), 8 + 64 * 8);
  int64_t prefix;
  std::memcpy(&prefix, (*message)->body()->data() + values->offset(), 8);
  EXPECT_EQ(prefix, -1);
  auto got = ReadStream(buffer);
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectBatchesEqual(*batch, *(*got)[0]);
}

TEST(IpcRoundTrip, StreamFramingBytes) {
  auto batch = AllTypesBatch(4);
  auto buffer = WriteStream({batch});
  ASSERT_NE(buffer, nullptr);
  const uint8_t* d = buffer->data();
  const int64_t n = buffer->size();
  EXPECT_EQ(n % 8, 0);
  const uint8_t eos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  EXPECT_EQ(std::memcmp(d + n - 8, eos, 8), 0);
  // Walk the messages: each starts with the marker, lengths add up, every
  // message is 8-aligned, every buffer within its body.
  int64_t pos = 0;
  int messages = 0;
  while (true) {
    ASSERT_LE(pos + 8, n);
    uint32_t marker;
    int32_t length;
    std::memcpy(&marker, d + pos, 4);
    std::memcpy(&length, d + pos + 4, 4);
    ASSERT_EQ(marker, 0xFFFFFFFFu);
    if (length == 0) break;
    EXPECT_EQ((8 + length) % 8, 0);
    auto message = internal::VerifyMessage(d + pos + 8, length, 64);
    ASSERT_TRUE(message.ok()) << message.status();
    EXPECT_EQ((*message)->version(), fb::MetadataVersion::V5);
    const int64_t body = (*message)->bodyLength();
    EXPECT_EQ(body % 8, 0);
    if (const auto* rb = (*message)->header_as_RecordBatch()) {
      EXPECT_EQ(rb->length(), 4);
      for (const fb::Buffer* b : *rb->buffers()) {
        EXPECT_EQ(b->offset() % 8, 0);
        EXPECT_LE(b->offset() + b->length(), body);
      }
      // One variadic count per view column.
      ASSERT_NE(rb->variadicBufferCounts(), nullptr);
      EXPECT_EQ(rb->variadicBufferCounts()->size(), 2u);
    }
    pos += 8 + length + body;
    ++messages;
  }
  EXPECT_EQ(pos + 8, n);
  EXPECT_EQ(messages, 1 + 3 + 1);  // schema, 3 dictionaries, 1 batch
}

TEST(IpcRoundTrip, FileFramingBytes) {
  auto batch = AllTypesBatch(4);
  auto buffer = WriteFile({batch, batch});
  ASSERT_NE(buffer, nullptr);
  const uint8_t* d = buffer->data();
  const int64_t n = buffer->size();
  EXPECT_EQ(std::memcmp(d, "ARROW1\0\0", 8), 0);
  EXPECT_EQ(std::memcmp(d + n - 6, "ARROW1", 6), 0);
  int32_t footer_length;
  std::memcpy(&footer_length, d + n - 10, 4);
  const int64_t footer_start = n - 10 - footer_length;
  ASSERT_GT(footer_length, 0);
  // The footer follows the end-of-stream marker.
  const uint8_t eos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  EXPECT_EQ(std::memcmp(d + footer_start - 8, eos, 8), 0);
  std::vector<uint8_t> footer_bytes(d + footer_start, d + footer_start + footer_length);
  auto footer = internal::VerifyFooter(footer_bytes.data(), footer_length, 64);
  ASSERT_TRUE(footer.ok()) << footer.status();
  EXPECT_EQ((*footer)->version(), fb::MetadataVersion::V5);
  ASSERT_EQ((*footer)->recordBatches()->size(), 2u);
  ASSERT_EQ((*footer)->dictionaries()->size(), 3u);
  for (const fb::Block* block : *(*footer)->recordBatches()) {
    EXPECT_EQ(block->offset() % 8, 0);
    EXPECT_EQ(block->metaDataLength() % 8, 0);
    uint32_t marker;
    std::memcpy(&marker, d + block->offset(), 4);
    EXPECT_EQ(marker, 0xFFFFFFFFu);
    EXPECT_LE(block->offset() + block->metaDataLength() + block->bodyLength(), footer_start);
  }
  // The first message (the schema) right after the magic.
  uint32_t marker;
  std::memcpy(&marker, d + 8, 4);
  EXPECT_EQ(marker, 0xFFFFFFFFu);
}

TEST(IpcRoundTrip, Alignment64) {
  auto batch = AllTypesBatch(13);
  IpcWriteOptions options;
  options.alignment = 64;
  auto buffer = WriteStream({batch}, options);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(buffer->size() % 8, 0);
  io::BufferReader reader(buffer);
  int record_batches = 0;
  while (true) {
    auto position = reader.Tell();
    ASSERT_TRUE(position.ok());
    EXPECT_EQ((*position) % 64, 0);  // every message starts 64-aligned
    auto message = internal::ReadMessage(&reader, 64, DefaultMemoryPool());
    ASSERT_TRUE(message.ok()) << message.status();
    if (*message == nullptr) break;
    EXPECT_EQ((*message)->body()->size() % 64, 0);
    if (const auto* rb = (*message)->flatbuffer().header_as_RecordBatch()) {
      ++record_batches;
      for (const fb::Buffer* b : *rb->buffers()) EXPECT_EQ(b->offset() % 64, 0);
    }
  }
  EXPECT_EQ(record_batches, 1);
  auto got = ReadStream(buffer);
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectBatchesEqual(*batch, *(*got)[0]);
  auto file = WriteFile({batch}, options);
  auto from_file = ReadFile(file);
  ASSERT_TRUE(from_file.ok()) << from_file.status();
  ExpectBatchesEqual(*batch, *(*from_file)[0]);

  options.alignment = 12;
  io::BufferOutputStream sink;
  EXPECT_FALSE(MakeStreamWriter(&sink, batch->schema(), options).ok());
}

TEST(IpcRoundTrip, EmptyBatchesAndEmptyStreams) {
  auto empty = AllTypesBatch(0);
  auto buffer = WriteStream({empty, empty});
  auto got = ReadStream(buffer, FullValidation());
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 2u);
  ExpectBatchesEqual(*empty, *(*got)[1]);
  // No batches at all.
  io::BufferOutputStream sink;
  auto writer = MakeStreamWriter(&sink, empty->schema());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Close().ok());
  ASSERT_TRUE((*writer)->Close().ok());  // twice is fine
  EXPECT_FALSE((*writer)->WriteRecordBatch(*empty).ok());
  auto stream = sink.Finish();
  ASSERT_TRUE(stream.ok());
  auto none = ReadStream(*stream);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
  io::BufferOutputStream file_sink;
  auto file_writer = MakeFileWriter(&file_sink, empty->schema());
  ASSERT_TRUE(file_writer.ok());
  ASSERT_TRUE((*file_writer)->Close().ok());
  auto file = file_sink.Finish();
  auto reader = RecordBatchFileReader::Open(*file);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->num_record_batches(), 0);
  EXPECT_TRUE((*reader)->schema()->Equals(*empty->schema(), true));
  // A schema without fields.
  auto no_fields = *RecordBatch::Make(schema({}), 5, std::vector<ArrayDataPtr>{});
  auto b = ReadStream(WriteStream({no_fields}));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ((*b)[0]->num_rows(), 5);
}

TEST(IpcRoundTrip, WriteTable) {
  auto a = AllTypesBatch(7);
  auto b = AllTypesBatch(3);
  auto table = Table::FromRecordBatches(a->schema(), {a, b});
  ASSERT_TRUE(table.ok()) << table.status();
  auto stream = SerializeTableToStream(**table);
  ASSERT_TRUE(stream.ok()) << stream.status();
  auto reader = RecordBatchStreamReader::Open(*stream);
  ASSERT_TRUE(reader.ok());
  auto read_table = (*reader)->ToTable();
  ASSERT_TRUE(read_table.ok()) << read_table.status();
  EXPECT_TRUE((*read_table)->Equals(**table));
  auto file = SerializeTableToFile(**table, WithCompression(Compression::kZstd));
  ASSERT_TRUE(file.ok()) << file.status();
  auto file_reader = RecordBatchFileReader::Open(*file);
  ASSERT_TRUE(file_reader.ok()) << file_reader.status();
  auto t2 = (*file_reader)->ReadTable();
  ASSERT_TRUE(t2.ok());
  EXPECT_TRUE((*t2)->Equals(**table));
}

TEST(IpcRoundTrip, RejectsBatchesOfAnotherSchema) {
  auto batch = AllTypesBatch(3);
  auto other = *RecordBatch::Make(schema({field("x", int32())}), 1,
                                  std::vector<ArrayDataPtr>{testutil::ArrayFromVector(
                                      int32(), std::vector<int32_t>{1})});
  io::BufferOutputStream sink;
  auto writer = MakeStreamWriter(&sink, batch->schema());
  ASSERT_TRUE(writer.ok());
  Status st = (*writer)->WriteRecordBatch(*other);
  EXPECT_TRUE(st.IsInvalid()) << st;
}

// --- Dictionaries -------------------------------------------------------------------

RecordBatchPtr DictBatch(const std::vector<std::string>& values,
                         const std::vector<int64_t>& indices) {
  auto type = dictionary(int16(), utf8());
  auto dict = testutil::StringArrayFromVector(values);
  auto data = testutil::DictionaryArrayFromIndices(type, indices, dict);
  return *RecordBatch::Make(schema({field("d", type)}), static_cast<int64_t>(indices.size()),
                            std::vector<ArrayDataPtr>{data});
}

std::vector<std::string> Decode(const RecordBatch& batch) {
  std::vector<std::string> out;
  auto column = batch.column(0);
  const auto& dict_array = ArrayAs<DictionaryArray>(*column);
  const auto& values = ArrayAs<StringArray>(*dict_array.dictionary());
  for (int64_t i = 0; i < column->length(); ++i) {
    out.push_back(column->IsNull(i) ? "<null>" : values.GetString(dict_array.GetValueIndex(i)));
  }
  return out;
}

TEST(IpcDictionaries, DeltaDictionariesInStreamsAndFiles) {
  auto b1 = DictBatch({"a", "b"}, {0, 1, 1});
  auto b2 = DictBatch({"a", "b", "c", "d"}, {3, 2, 0});
  auto b3 = DictBatch({"a", "b", "c", "d", "e"}, {4, 4});
  IpcWriteOptions options;
  options.emit_dictionary_deltas = true;
  for (bool file : {false, true}) {
    SCOPED_TRACE(file ? "file" : "stream");
    io::BufferOutputStream sink;
    auto writer = file ? MakeFileWriter(&sink, b1->schema(), options)
                       : MakeStreamWriter(&sink, b1->schema(), options);
    ASSERT_TRUE(writer.ok());
    for (const auto& b : {b1, b2, b3}) ASSERT_TRUE((*writer)->WriteRecordBatch(*b).ok());
    ASSERT_TRUE((*writer)->Close().ok());
    EXPECT_EQ((*writer)->stats().num_dictionary_batches, 3);
    EXPECT_EQ((*writer)->stats().num_dictionary_deltas, 2);
    auto buffer = *sink.Finish();
    auto got = file ? ReadFile(buffer) : ReadStream(buffer);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->size(), 3u);
    EXPECT_EQ(Decode(*(*got)[0]), (std::vector<std::string>{"a", "b", "b"}));
    EXPECT_EQ(Decode(*(*got)[1]), (std::vector<std::string>{"d", "c", "a"}));
    EXPECT_EQ(Decode(*(*got)[2]), (std::vector<std::string>{"e", "e"}));
    // The reader's dictionary is the concatenation.
    auto dict = ArrayAs<DictionaryArray>(*(*got)[2]->column(0)).dictionary();
    EXPECT_EQ(dict->length(), 5);
    if (!file) {
      auto reader = RecordBatchStreamReader::Open(buffer);
      ASSERT_TRUE(reader.ok());
      while (true) {
        auto next = (*reader)->Next();
        ASSERT_TRUE(next.ok());
        if (*next == nullptr) break;
      }
      EXPECT_EQ((*reader)->stats().num_dictionary_deltas, 2);
    }
  }
}

TEST(IpcDictionaries, ReplacementInStreamsNotInFiles) {
  auto b1 = DictBatch({"a", "b"}, {0, 1});
  auto b2 = DictBatch({"x", "y", "z"}, {2, 0});
  auto b3 = DictBatch({"x", "y", "z"}, {1});  // equal to b2's: not resent
  io::BufferOutputStream sink;
  auto writer = MakeStreamWriter(&sink, b1->schema());
  ASSERT_TRUE(writer.ok());
  for (const auto& b : {b1, b2, b3}) ASSERT_TRUE((*writer)->WriteRecordBatch(*b).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ((*writer)->stats().num_dictionary_batches, 2);
  EXPECT_EQ((*writer)->stats().num_replaced_dictionaries, 1);
  auto buffer = *sink.Finish();
  auto reader = RecordBatchStreamReader::Open(buffer);
  ASSERT_TRUE(reader.ok());
  std::vector<std::vector<std::string>> decoded;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status();
    if (*batch == nullptr) break;
    decoded.push_back(Decode(**batch));
  }
  EXPECT_EQ(decoded, (std::vector<std::vector<std::string>>{{"a", "b"}, {"z", "x"}, {"y"}}));
  EXPECT_EQ((*reader)->stats().num_replaced_dictionaries, 1);

  // Without deltas a growing dictionary is a replacement too.
  auto grown = DictBatch({"a", "b", "c"}, {2});
  io::BufferOutputStream file_sink;
  auto file_writer = MakeFileWriter(&file_sink, b1->schema());
  ASSERT_TRUE(file_writer.ok());
  ASSERT_TRUE((*file_writer)->WriteRecordBatch(*b1).ok());
  Status st = (*file_writer)->WriteRecordBatch(*grown);
  EXPECT_TRUE(st.IsInvalid()) << st;
  EXPECT_NE(st.message().find("replacement"), std::string::npos) << st;
  st = (*file_writer)->WriteRecordBatch(*b2);
  EXPECT_TRUE(st.IsInvalid()) << st;
}

TEST(IpcDictionaries, NestedDictionaries) {
  // A dictionary whose values are structs holding a dictionary column.
  auto inner_type = dictionary(int8(), utf8());
  auto outer_type =
      dictionary(int32(), struct_({field("name", inner_type), field("n", int32())}));
  auto inner_dict = testutil::StringArrayFromVector({"p", "q"});
  auto inner = testutil::DictionaryArrayFromIndices(inner_type, {1, 0, 1}, inner_dict);
  auto n = testutil::ArrayFromVector(int32(), std::vector<int32_t>{10, 20, 30});
  auto outer_dict = testutil::StructArrayFromChildren(
      TypeAs<DictionaryType>(*outer_type).value_type(), 3, {inner, n});
  auto column = testutil::DictionaryArrayFromIndices(outer_type, {2, 2, 0, 1}, outer_dict,
                                                     {true, false, true, true});
  auto batch = *RecordBatch::Make(schema({field("x", outer_type)}), 4,
                                  std::vector<ArrayDataPtr>{column});
  for (bool file : {false, true}) {
    auto buffer = file ? WriteFile({batch, batch}) : WriteStream({batch, batch});
    auto got = file ? ReadFile(buffer) : ReadStream(buffer);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->size(), 2u);
    ExpectBatchesEqual(*batch, *(*got)[0]);
    ExpectBatchesEqual(*batch, *(*got)[1]);
  }
}

// --- Legacy framing, files on disk -------------------------------------------------------

// Rewrites a stream in the pre-0.15 framing: no continuation markers (so
// every flatbuffer and body sits 4 bytes off 8-byte alignment).
std::shared_ptr<Buffer> ToLegacyStream(const Buffer& stream) {
  std::vector<uint8_t> out;
  int64_t pos = 0;
  while (pos < stream.size()) {
    int32_t length;
    std::memcpy(&length, stream.data() + pos + 4, 4);
    const uint8_t* len_bytes = stream.data() + pos + 4;
    out.insert(out.end(), len_bytes, len_bytes + 4);
    if (length == 0) break;
    auto message = internal::VerifyMessage(stream.data() + pos + 8, length, 64);
    EXPECT_TRUE(message.ok());
    const int64_t body = (*message)->bodyLength();
    out.insert(out.end(), stream.data() + pos + 8, stream.data() + pos + 8 + length + body);
    pos += 8 + length + body;
  }
  return Buffer::FromVector(std::move(out));
}

TEST(IpcRoundTrip, ReadsLegacyStreams) {
  auto batch = AllTypesBatch(11);
  for (Compression c : {Compression::kNone, Compression::kZstd}) {
    IpcWriteOptions options;
    options.compression = c;
    auto legacy = ToLegacyStream(*WriteStream({batch, batch}, options));
    auto got = ReadStream(legacy);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->size(), 2u);
    ExpectBatchesEqual(*batch, *(*got)[1]);
    // Misaligned buffers were copied to aligned memory.
    for (const auto& column : (*got)[0]->columns_data()) {
      for (const auto& b : column->buffers) {
        if (b) {
          EXPECT_EQ(reinterpret_cast<uintptr_t>(b->data()) % 8, 0u);
        }
      }
    }
  }
}

TEST(IpcRoundTrip, FilesOnDisk) {
  char path_template[] = "/tmp/quiver_ipc_testXXXXXX";
  int fd = mkstemp(path_template);
  ASSERT_GE(fd, 0);
  ::close(fd);
  const std::string path = path_template;
  auto batch = AllTypesBatch(17);
  {
    auto sink = io::FileOutputStream::Open(path);
    ASSERT_TRUE(sink.ok()) << sink.status();
    auto writer =
        MakeFileWriter(sink->get(), batch->schema(), WithCompression(Compression::kLz4Frame));
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
    ASSERT_TRUE((*writer)->Close().ok());
    ASSERT_TRUE((*sink)->Close().ok());
  }
  for (bool mapped : {false, true}) {
    auto buffer = mapped ? io::MemoryMapFile(path) : io::ReadFileToBuffer(path);
    ASSERT_TRUE(buffer.ok()) << buffer.status();
    auto got = ReadFile(*buffer);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectBatchesEqual(*batch, *(*got)[0]);
  }
  // A stream through a FileInputStream.
  {
    auto sink = io::FileOutputStream::Open(path);
    ASSERT_TRUE(sink.ok());
    auto writer = MakeStreamWriter(sink->get(), batch->schema());
    ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
    ASSERT_TRUE((*writer)->WriteRecordBatch(*batch->Slice(3, 4)).ok());
    ASSERT_TRUE((*writer)->Close().ok());
    ASSERT_TRUE((*sink)->Close().ok());
    auto source = io::FileInputStream::Open(path);
    ASSERT_TRUE(source.ok());
    auto reader = RecordBatchStreamReader::Open(source->get());
    ASSERT_TRUE(reader.ok()) << reader.status();
    auto table = (*reader)->ToTable();
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_EQ((*table)->num_rows(), 21);
  }
  EXPECT_FALSE(io::ReadFileToBuffer(path + ".missing").ok());
  EXPECT_FALSE(io::FileOutputStream::Open("/nonexistent-dir/x").ok());
  std::remove(path.c_str());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::ipc
