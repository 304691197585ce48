#include "quiver/parquet/thrift/compact_protocol_internal.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace quiver::parquet::thrift {
namespace {
namespace QUIVER_UNITY_ID {

using ::testing::HasSubstr;

std::vector<uint8_t> Bytes(const std::string& s) { return {s.begin(), s.end()}; }

// Runs `write` against a fresh writer and returns the bytes.
template <typename F>
std::vector<uint8_t> Encode(F&& write) {
  std::string out;
  CompactWriter writer(&out);
  EXPECT_TRUE(write(writer)) << writer.status();
  EXPECT_TRUE(writer.status().ok());
  return Bytes(out);
}

// The primitives return bool and keep the error in status().
#define ASSERT_OK(obj, call) ASSERT_TRUE((obj).call) << (obj).status().ToString()

// Runs a call that must fail; returns the error message.
template <typename T>
std::string ErrorOfImpl(bool ok, const T& obj) {
  EXPECT_FALSE(ok);
  return obj.status().message();
}
#define ERROR_OF(obj, call) ErrorOfImpl((obj).call, (obj))

TEST(CompactWriterTest, StructWithOneI32Field) {
  // The brief's example: struct { 1: i32 = 5 } -> 0x15 0x0a 0x00.
  auto bytes = Encode([](CompactWriter& w) -> bool {
    if (!w.WriteStructBegin()) return false;
    if (!w.WriteFieldBegin(CompactType::kI32, 1)) return false;
    if (!w.WriteI32(5)) return false;
    return w.WriteStructEnd();
  });
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0x15, 0x0A, 0x00}));
}

TEST(CompactWriterTest, FieldIdDeltaAndLongForm) {
  auto bytes = Encode([](CompactWriter& w) -> bool {
    if (!w.WriteStructBegin()) return false;
    if (!w.WriteFieldBegin(CompactType::kI32, 1)) return false;   // delta 1
    if (!w.WriteI32(0)) return false;
    if (!w.WriteFieldBegin(CompactType::kI32, 16)) return false;  // delta 15: short
    if (!w.WriteI32(0)) return false;
    if (!w.WriteFieldBegin(CompactType::kI64, 40)) return false;  // delta 24: long
    if (!w.WriteI64(1)) return false;
    if (!w.WriteFieldBegin(CompactType::kI8, 3)) return false;    // going back: long
    if (!w.WriteI8(-1)) return false;
    if (!w.WriteFieldBegin(CompactType::kBinary, 300)) return false;
    if (!w.WriteBinary("abc")) return false;
    return w.WriteStructEnd();
  });
  EXPECT_EQ(bytes, (std::vector<uint8_t>{
                       0x15, 0x00,                    // 1: i32 0
                       0xF5, 0x00,                    // 16: i32 0
                       0x06, 0x50, 0x02,              // 40 (zigzag 80): i64 1
                       0x03, 0x06, 0xFF,              // 3 (zigzag 6): i8 -1
                       0x08, 0xD8, 0x04, 0x03, 'a', 'b', 'c',  // 300 (zigzag 600)
                       0x00}));
}

TEST(CompactWriterTest, BoolFieldsLiveInTheHeader) {
  auto bytes = Encode([](CompactWriter& w) -> bool {
    if (!w.WriteStructBegin()) return false;
    if (!w.WriteBoolField(1, true)) return false;
    if (!w.WriteBoolField(2, false)) return false;
    if (!w.WriteBoolField(20, true)) return false;
    return w.WriteStructEnd();
  });
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0x11, 0x12, 0x01, 0x28, 0x00}));
}

TEST(CompactWriterTest, ZigZagVarints) {
  struct Case {
    int64_t value;
    std::vector<uint8_t> bytes;
  };
  const std::vector<Case> cases = {
      {0, {0x00}},
      {-1, {0x01}},
      {1, {0x02}},
      {-64, {0x7F}},
      {64, {0x80, 0x01}},
      {-65, {0x81, 0x01}},
      {std::numeric_limits<int32_t>::max(), {0xFE, 0xFF, 0xFF, 0xFF, 0x0F}},
      {std::numeric_limits<int32_t>::min(), {0xFF, 0xFF, 0xFF, 0xFF, 0x0F}},
      {std::numeric_limits<int64_t>::max(),
       {0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}},
      {std::numeric_limits<int64_t>::min(),
       {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}},
  };
  for (const auto& c : cases) {
    auto bytes = Encode([&](CompactWriter& w) { return w.WriteI64(c.value); });
    EXPECT_EQ(bytes, c.bytes) << c.value;
    CompactReader reader(bytes.data(), static_cast<int64_t>(bytes.size()));
    int64_t back = 0;
    ASSERT_OK(reader, ReadI64(&back));
    EXPECT_EQ(back, c.value);
    EXPECT_EQ(reader.remaining(), 0);
    if (c.value >= std::numeric_limits<int32_t>::min() &&
        c.value <= std::numeric_limits<int32_t>::max()) {
      auto bytes32 =
          Encode([&](CompactWriter& w) { return w.WriteI32(static_cast<int32_t>(c.value)); });
      EXPECT_EQ(bytes32, c.bytes) << c.value;
      CompactReader reader32(bytes32.data(), static_cast<int64_t>(bytes32.size()));
      int32_t back32 = 0;
      ASSERT_OK(reader32, ReadI32(&back32));
      EXPECT_EQ(back32, c.value);
    }
  }
  // The spec's LEB128 example.
  EXPECT_EQ(Encode([](CompactWriter& w) { return w.WriteVarint(50399); }),
            (std::vector<uint8_t>{0xDF, 0x89, 0x03}));
  EXPECT_EQ(Encode([](CompactWriter& w) { return w.WriteI16(-32768); }),
            (std::vector<uint8_t>{0xFF, 0xFF, 0x03}));
}

TEST(CompactWriterTest, DoubleIsLittleEndian) {
  EXPECT_EQ(Encode([](CompactWriter& w) { return w.WriteDouble(1.0); }),
            (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
  EXPECT_EQ(Encode([](CompactWriter& w) { return w.WriteDouble(-2.5); }),
            (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0x04, 0xC0}));
}

TEST(CompactWriterTest, ListHeaders) {
  // 3 x i32: short form 0x35.
  EXPECT_EQ(Encode([](CompactWriter& w) -> bool {
              if (!w.WriteListBegin(CompactType::kI32, 3)) return false;
              for (int v : {1, -1, 2}) if (!w.WriteI32(v)) return false;
              return true;
            }),
            (std::vector<uint8_t>{0x35, 0x02, 0x01, 0x04}));
  // 20 x i32: long form 0xF5 + varint 20.
  auto bytes = Encode([](CompactWriter& w) -> bool {
    if (!w.WriteListBegin(CompactType::kI32, 20)) return false;
    for (int v = 0; v < 20; ++v) if (!w.WriteI32(v)) return false;
    return true;
  });
  std::vector<uint8_t> expected = {0xF5, 0x14};
  for (int v = 0; v < 20; ++v) expected.push_back(static_cast<uint8_t>(2 * v));
  EXPECT_EQ(bytes, expected);
  // 14 elements is the largest short form; 15 is long.
  EXPECT_EQ(Encode([](CompactWriter& w) { return w.WriteListBegin(CompactType::kBinary, 14); }),
            (std::vector<uint8_t>{0xE8}));
  EXPECT_EQ(Encode([](CompactWriter& w) { return w.WriteListBegin(CompactType::kBinary, 15); }),
            (std::vector<uint8_t>{0xF8, 0x0F}));
  // list<bool>: element type 2 and values 1 / 2.
  EXPECT_EQ(Encode([](CompactWriter& w) -> bool {
              if (!w.WriteListBegin(kListBool, 2)) return false;
              if (!w.WriteBool(true)) return false;
              return w.WriteBool(false);
            }),
            (std::vector<uint8_t>{0x22, 0x01, 0x02}));
}

TEST(CompactWriterTest, NestedStructRestoresTheOuterFieldId) {
  auto bytes = Encode([](CompactWriter& w) -> bool {
    if (!w.WriteStructBegin()) return false;
    if (!w.WriteFieldBegin(CompactType::kStruct, 1)) return false;
    if (!w.WriteStructBegin()) return false;
    if (!w.WriteFieldBegin(CompactType::kI32, 5)) return false;
    if (!w.WriteI32(5)) return false;
    if (!w.WriteStructEnd()) return false;
    if (!w.WriteFieldBegin(CompactType::kI32, 2)) return false;  // delta 1 from field 1
    if (!w.WriteI32(7)) return false;
    return w.WriteStructEnd();
  });
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0x1C, 0x55, 0x0A, 0x00, 0x15, 0x0E, 0x00}));
}

TEST(CompactWriterTest, MapHeaders) {
  EXPECT_EQ(Encode([](CompactWriter& w) {
              return w.WriteMapBegin(CompactType::kBinary, CompactType::kI32, 0);
            }),
            (std::vector<uint8_t>{0x00}));
  EXPECT_EQ(Encode([](CompactWriter& w) {
              return w.WriteMapBegin(CompactType::kBinary, CompactType::kI32, 200);
            }),
            (std::vector<uint8_t>{0xC8, 0x01, 0x85}));
}

TEST(CompactWriterTest, MutableBufferAndStringGetTheSameBytes) {
  MutableBuffer buffer;
  std::string str;
  for (int sink = 0; sink < 2; ++sink) {
    CompactWriter w = sink == 0 ? CompactWriter(&buffer) : CompactWriter(&str);
    ASSERT_OK(w, WriteStructBegin());
    ASSERT_OK(w, WriteFieldBegin(CompactType::kBinary, 1));
    ASSERT_OK(w, WriteBinary(std::string(300, 'x')));
    ASSERT_OK(w, WriteFieldBegin(CompactType::kDouble, 2));
    ASSERT_OK(w, WriteDouble(0.5));
    ASSERT_OK(w, WriteStructEnd());
    EXPECT_EQ(w.bytes_written(), 1 + 2 + 300 + 1 + 8 + 1);
  }
  ASSERT_EQ(buffer.size(), static_cast<int64_t>(str.size()));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buffer.data()), str.size()), str);
}

TEST(CompactWriterTest, RejectsMisuse) {
  std::string out;
  CompactWriter w(&out);
  EXPECT_FALSE(w.WriteStructEnd());
  EXPECT_TRUE(w.status().IsInvalid());
  EXPECT_THAT(w.status().message(), HasSubstr("WriteStructEnd without WriteStructBegin"));
  // Each misuse on a fresh writer: the first error is the one kept.
  auto error_of = [](auto&& call) {
    std::string sink;
    CompactWriter fresh(&sink);
    EXPECT_FALSE(call(fresh));
    EXPECT_TRUE(sink.empty());
    return fresh.status().message();
  };
  EXPECT_THAT(error_of([](CompactWriter& f) { return f.WriteListBegin(CompactType::kI32, -1); }),
              HasSubstr("list size -1 is out of range"));
  EXPECT_THAT(error_of([](CompactWriter& f) {
                return f.WriteListBegin(CompactType::kI32, int64_t{1} << 31);
              }),
              HasSubstr("list size 2147483648 is out of range"));
  EXPECT_THAT(error_of([](CompactWriter& f) { return f.WriteListBegin(CompactType::kStop, 1); }),
              HasSubstr("invalid list element type 0"));
  EXPECT_THAT(error_of([](CompactWriter& f) { return f.WriteFieldBegin(CompactType::kStop, 1); }),
              HasSubstr("cannot write a field of type 0"));
  EXPECT_THAT(error_of([](CompactWriter& f) {
                return f.WriteBinary(reinterpret_cast<const uint8_t*>(""), -1);
              }),
              HasSubstr("binary of -1 bytes is out of range"));
  EXPECT_TRUE(out.empty());
}

// ---------------------------------------------------------------- reader

TEST(CompactReaderTest, ReadsTheHandMadeStructs) {
  const std::vector<uint8_t> bytes = {0x1C, 0x55, 0x0A, 0x00, 0x15, 0x0E,
                                      0x11, 0x22, 0x06, 0x50, 0x02, 0x00};
  CompactReader r(bytes.data(), static_cast<int64_t>(bytes.size()));
  CompactType type;
  int16_t id;
  int32_t i32;
  int64_t i64;
  ASSERT_OK(r, ReadStructBegin());
  ASSERT_OK(r, ReadFieldBegin(&type, &id));
  EXPECT_EQ(type, CompactType::kStruct);
  EXPECT_EQ(id, 1);
  ASSERT_OK(r, ReadStructBegin());
  ASSERT_OK(r, ReadFieldBegin(&type, &id));
  EXPECT_EQ(type, CompactType::kI32);
  EXPECT_EQ(id, 5);
  ASSERT_OK(r, ReadI32(&i32));
  EXPECT_EQ(i32, 5);
  ASSERT_OK(r, ReadFieldBegin(&type, &id));
  EXPECT_EQ(type, CompactType::kStop);
  ASSERT_OK(r, ReadStructEnd());
  ASSERT_OK(r, ReadFieldBegin(&type, &id));
  EXPECT_EQ(type, CompactType::kI32);
  EXPECT_EQ(id, 2);
  ASSERT_OK(r, ReadI32(&i32));
  EXPECT_EQ(i32, 7);
  ASSERT_OK(r, ReadFieldBegin(&type, &id));
  EXPECT_EQ(type, CompactType::kBooleanTrue);
  EXPECT_EQ(id, 3);
  ASSERT_OK(r, ReadFieldBegin(&type, &id));
  EXPECT_EQ(type, CompactType::kBooleanFalse);
  EXPECT_EQ(id, 5);
  ASSERT_OK(r, ReadFieldBegin(&type, &id));
  EXPECT_EQ(type, CompactType::kI64);
  EXPECT_EQ(id, 40);
  ASSERT_OK(r, ReadI64(&i64));
  EXPECT_EQ(i64, 1);
  ASSERT_OK(r, ReadFieldBegin(&type, &id));
  EXPECT_EQ(type, CompactType::kStop);
  ASSERT_OK(r, ReadStructEnd());
  EXPECT_EQ(r.remaining(), 0);
}

TEST(CompactReaderTest, ListsOfBoolAcceptBothElementCodes) {
  for (uint8_t header : {0x31, 0x32}) {
    const std::vector<uint8_t> bytes = {header, 0x01, 0x02, 0x00};
    CompactReader r(bytes.data(), 4);
    int32_t size;
    ASSERT_OK(r, ReadListBeginOf(kListBool, &size));
    ASSERT_EQ(size, 3);
    bool a, b, c;
    ASSERT_OK(r, ReadBool(&a));
    ASSERT_OK(r, ReadBool(&b));
    ASSERT_OK(r, ReadBool(&c));
    EXPECT_TRUE(a);
    EXPECT_FALSE(b);
    EXPECT_FALSE(c);
  }
  const std::vector<uint8_t> bad = {0x11, 0x03};
  CompactReader r(bad.data(), 2);
  int32_t size;
  ASSERT_OK(r, ReadListBeginOf(kListBool, &size));
  bool value;
  EXPECT_FALSE(r.ReadBool(&value));
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_THAT(r.status().message(), HasSubstr("invalid bool value 3 at byte 1"));
}

TEST(CompactReaderTest, EmptyListsMayHaveAnyElementType) {
  for (uint8_t header : {0x00, 0x05, 0x0C, 0x0F}) {
    CompactReader r(&header, 1);
    int32_t size = -1;
    ASSERT_OK(r, ReadListBeginOf(CompactType::kStruct, &size));
    EXPECT_EQ(size, 0);
  }
  const uint8_t wrong[] = {0x15, 0x02};
  CompactReader r(wrong, 2);
  int32_t size;
  EXPECT_THAT(ERROR_OF(r, ReadListBeginOf(CompactType::kStruct, &size)),
              HasSubstr("list of i32 where a list of struct was expected"));
}

TEST(CompactReaderTest, ErrorsSayWhatAndWhere) {
  struct Case {
    std::vector<uint8_t> bytes;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{}, "unexpected end of input reading a field header at byte 0"},
      {{0x15}, "unexpected end of input inside a varint at byte 1"},
      {{0x15, 0x80, 0x80}, "unexpected end of input inside a varint at byte 3"},
      {{0x1E}, "invalid field type 14 at byte 0"},
      {{0x16, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02},
       "varint overflows 64 bits at byte 11"},
      {{0x18, 0x05, 'a', 'b'},
       "binary of 5 bytes runs past the end of input (2 bytes left) at byte 1"},
      {{0x17, 0x00, 0x00}, "unexpected end of input skipping a double at byte 1"},
      {{0x19, 0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F},
       "list size 4294967295 is out of range at byte 2"},
      {{0x19, 0x30}, "invalid element type 0 at byte 2"},
      {{0xF5, 0x00, 0x05, 0xFE, 0xFF, 0x03, 0x00, 0x15, 0x00}, "field id overflows i16"},
  };
  for (const auto& c : cases) {
    CompactReader r(c.bytes.data(), static_cast<int64_t>(c.bytes.size()));
    bool ok = r.ReadStructBegin();
    while (ok) {
      CompactType type;
      int16_t id;
      ok = r.ReadFieldBegin(&type, &id);
      if (!ok || type == CompactType::kStop) break;
      ok = r.Skip(type);
    }
    ASSERT_FALSE(ok) << c.message;
    const Status& st = r.status();
    EXPECT_TRUE(st.IsInvalid());
    EXPECT_THAT(st.message(), HasSubstr("thrift: "));
    EXPECT_THAT(st.message(), HasSubstr(c.message));
  }
}

TEST(CompactReaderTest, IntegersMustFitTheirType) {
  const uint8_t i32[] = {0x80, 0x80, 0x80, 0x80, 0x10};
  CompactReader r(i32, 5);
  int32_t v32;
  EXPECT_THAT(ERROR_OF(r, ReadI32(&v32)), HasSubstr("i32 value out of range at byte 0"));
  const uint8_t i16[] = {0x80, 0x80, 0x04};
  CompactReader r2(i16, 3);
  int16_t v16;
  EXPECT_THAT(ERROR_OF(r2, ReadI16(&v16)), HasSubstr("i16 value out of range at byte 0"));
  // A non-canonical (padded) varint is fine when the value fits.
  const uint8_t padded[] = {0x82, 0x80, 0x80, 0x00};
  CompactReader r3(padded, 4);
  ASSERT_OK(r3, ReadI32(&v32));
  EXPECT_EQ(v32, 1);
  // A 10th byte with a continuation bit (or more than the 64th bit): never
  // more than 10 bytes are read.
  const uint8_t endless[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x80};
  CompactReader r4(endless, 11);
  uint64_t raw;
  EXPECT_THAT(ERROR_OF(r4, ReadVarint(&raw)), HasSubstr("varint overflows 64 bits at byte 10"));
  const uint8_t top_bit[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  CompactReader r5(top_bit, 10);
  ASSERT_OK(r5, ReadVarint(&raw));
  EXPECT_EQ(raw, uint64_t{1} << 63);
}

TEST(CompactReaderTest, SkipsEveryWireType) {
  std::string bytes;
  CompactWriter w(&bytes);
  ASSERT_OK(w, WriteStructBegin());
  ASSERT_OK(w, WriteBoolField(1, true));
  ASSERT_OK(w, WriteBoolField(2, false));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kI8, 3));
  ASSERT_OK(w, WriteI8(-5));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kI16, 4));
  ASSERT_OK(w, WriteI16(-300));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kI32, 5));
  ASSERT_OK(w, WriteI32(1 << 30));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kI64, 6));
  ASSERT_OK(w, WriteI64(-(int64_t{1} << 60)));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kDouble, 7));
  ASSERT_OK(w, WriteDouble(3.25));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kBinary, 8));
  ASSERT_OK(w, WriteBinary("hello"));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kList, 9));
  ASSERT_OK(w, WriteListBegin(kListBool, 3));
  for (bool b : {true, false, true}) ASSERT_OK(w, WriteBool(b));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kSet, 10));
  ASSERT_OK(w, WriteListBegin(CompactType::kDouble, 2));
  ASSERT_OK(w, WriteDouble(1));
  ASSERT_OK(w, WriteDouble(2));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kMap, 11));
  ASSERT_OK(w, WriteMapBegin(CompactType::kBinary, CompactType::kStruct, 2));
  for (int i = 0; i < 2; ++i) {
    ASSERT_OK(w, WriteBinary("k"));
    ASSERT_OK(w, WriteStructBegin());
    ASSERT_OK(w, WriteFieldBegin(CompactType::kList, 1));
    ASSERT_OK(w, WriteListBegin(CompactType::kList, 1));
    ASSERT_OK(w, WriteListBegin(CompactType::kI64, 20));
    for (int v = 0; v < 20; ++v) ASSERT_OK(w, WriteI64(v));
    ASSERT_OK(w, WriteStructEnd());
  }
  ASSERT_OK(w, WriteFieldBegin(CompactType::kMap, 12));
  ASSERT_OK(w, WriteMapBegin(CompactType::kI32, CompactType::kI32, 0));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kUuid, 13));
  for (int i = 0; i < 16; ++i) ASSERT_OK(w, WriteByte(static_cast<uint8_t>(i)));
  ASSERT_OK(w, WriteFieldBegin(CompactType::kStruct, 14));
  ASSERT_OK(w, WriteStructBegin());
  ASSERT_OK(w, WriteFieldBegin(CompactType::kStruct, 1));
  ASSERT_OK(w, WriteStructBegin());
  ASSERT_OK(w, WriteBoolField(1, true));
  ASSERT_OK(w, WriteStructEnd());
  ASSERT_OK(w, WriteStructEnd());
  ASSERT_OK(w, WriteFieldBegin(CompactType::kI32, 15));
  ASSERT_OK(w, WriteI32(42));
  ASSERT_OK(w, WriteStructEnd());

  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  CompactReader r(data, static_cast<int64_t>(bytes.size()));
  ASSERT_OK(r, ReadStructBegin());
  int seen = 0;
  while (true) {
    CompactType type;
    int16_t id;
    ASSERT_OK(r, ReadFieldBegin(&type, &id));
    if (type == CompactType::kStop) break;
    ++seen;
    EXPECT_EQ(id, seen);
    if (id == 15) {
      int32_t v;
      ASSERT_OK(r, ReadI32(&v));
      EXPECT_EQ(v, 42);
    } else {
      ASSERT_OK(r, Skip(type));
    }
  }
  ASSERT_OK(r, ReadStructEnd());
  EXPECT_EQ(seen, 15);
  EXPECT_EQ(r.remaining(), 0);
  // The skipped struct is whole: the whole message skips as one struct too.
  CompactReader whole(data, static_cast<int64_t>(bytes.size()));
  ASSERT_OK(whole, Skip(CompactType::kStruct));
  EXPECT_EQ(whole.remaining(), 0);
  // And a stop is not a value.
  EXPECT_THAT(ERROR_OF(whole, Skip(CompactType::kStop)), HasSubstr("cannot skip"));
}

TEST(CompactReaderTest, HostileListLengthFailsFastWithoutAllocating) {
  // A list header claiming 2^31 - 1 elements with 10 bytes left.
  std::vector<uint8_t> bytes = {0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0x07};
  bytes.resize(bytes.size() + 10, 0);
  ThriftLimits no_container_limit;
  no_container_limit.container_size_limit = std::numeric_limits<int32_t>::max();
  CompactReader r(bytes.data(), static_cast<int64_t>(bytes.size()), no_container_limit);
  const auto start = std::chrono::steady_clock::now();
  CompactType type;
  int32_t size;
  EXPECT_FALSE(r.ReadListBegin(&type, &size));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_THAT(r.status().message(),
              HasSubstr("list of 2147483647 struct elements cannot fit in the 10 remaining "
                        "bytes at byte 6"));
  EXPECT_LT(elapsed, std::chrono::milliseconds(50));
  // With the default limits the container limit trips first.
  CompactReader r2(bytes.data(), static_cast<int64_t>(bytes.size()));
  EXPECT_THAT(ERROR_OF(r2, ReadListBegin(&type, &size)),
              HasSubstr("list of 2147483647 elements exceeds the limit of 1000000"));
  // Doubles take 8 bytes each: 2 doubles do not fit in 15 bytes... but do in 16.
  std::vector<uint8_t> doubles = {0x27};
  doubles.resize(16, 0);
  CompactReader r3(doubles.data(), 16);
  EXPECT_THAT(ERROR_OF(r3, ReadListBegin(&type, &size)), HasSubstr("cannot fit"));
  doubles.push_back(0);
  CompactReader r4(doubles.data(), 17);
  ASSERT_OK(r4, ReadListBegin(&type, &size));
  EXPECT_EQ(size, 2);
  // Maps: each entry takes at least two bytes.
  const std::vector<uint8_t> map = {0x0A, 0x55, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  CompactReader r5(map.data(), static_cast<int64_t>(map.size()));
  EXPECT_THAT(ERROR_OF(r5, Skip(CompactType::kMap)),
              HasSubstr("map of 10 entries cannot fit in the 9 remaining bytes"));
}

TEST(CompactReaderTest, ReserveListIsCapped) {
  struct Big {
    char bytes[1024];
  };
  // max(64 KiB, 8 x remaining bytes) worth of elements at most.
  const uint8_t one = 0;
  CompactReader r(&one, 1);
  std::vector<Big> big;
  r.ReserveList(&big, 1'000'000);
  EXPECT_EQ(big.capacity(), 64u);
  const std::vector<uint8_t> mb(1 << 20);
  CompactReader r2(mb.data(), static_cast<int64_t>(mb.size()));
  std::vector<Big> big2;
  r2.ReserveList(&big2, 1'000'000);
  EXPECT_EQ(big2.capacity(), 8192u);
  std::vector<int32_t> small;
  r.ReserveList(&small, 10);
  EXPECT_EQ(small.capacity(), 10u);
}

TEST(CompactReaderTest, StringAndContainerLimits) {
  std::string bytes;
  CompactWriter w(&bytes);
  ASSERT_OK(w, WriteBinary(std::string(100, 'x')));
  ThriftLimits limits;
  limits.string_size_limit = 99;
  CompactReader r(reinterpret_cast<const uint8_t*>(bytes.data()),
                  static_cast<int64_t>(bytes.size()), limits);
  std::string out;
  EXPECT_THAT(ERROR_OF(r, ReadBinary(&out)),
              HasSubstr("binary of 100 bytes exceeds the limit of 99 at byte 0"));
  limits.string_size_limit = 100;
  CompactReader ok(reinterpret_cast<const uint8_t*>(bytes.data()),
                   static_cast<int64_t>(bytes.size()), limits);
  ASSERT_OK(ok, ReadBinary(&out));
  EXPECT_EQ(out, std::string(100, 'x'));

  bytes.clear();
  ASSERT_OK(w, WriteListBegin(CompactType::kI32, 20));
  for (int i = 0; i < 20; ++i) ASSERT_OK(w, WriteI32(i));
  limits.container_size_limit = 19;
  CompactReader r2(reinterpret_cast<const uint8_t*>(bytes.data()),
                   static_cast<int64_t>(bytes.size()), limits);
  EXPECT_THAT(ERROR_OF(r2, Skip(CompactType::kList)),
              HasSubstr("list of 20 elements exceeds the limit of 19"));
}

// Bytes of a struct whose field 1 nests `depth` structs (or lists).
std::string Nested(int depth, bool lists) {
  std::string bytes;
  CompactWriter w(&bytes);
  EXPECT_TRUE(w.WriteStructBegin());
  if (lists) {
    EXPECT_TRUE(w.WriteFieldBegin(CompactType::kList, 1));
    for (int i = 1; i < depth; ++i) EXPECT_TRUE(w.WriteListBegin(CompactType::kList, 1));
    EXPECT_TRUE(w.WriteListBegin(CompactType::kI32, 0));
  } else {
    for (int i = 0; i < depth; ++i) {
      EXPECT_TRUE(w.WriteFieldBegin(CompactType::kStruct, 1));
      EXPECT_TRUE(w.WriteStructBegin());
    }
    for (int i = 0; i < depth; ++i) EXPECT_TRUE(w.WriteStructEnd());
  }
  EXPECT_TRUE(w.WriteStructEnd());
  return bytes;
}

TEST(CompactReaderTest, NestingIsBounded) {
  for (bool lists : {false, true}) {
    // The outer struct is level 1: 63 more levels fit in the default 64.
    std::string fits = Nested(63, lists);
    CompactReader ok(reinterpret_cast<const uint8_t*>(fits.data()),
                     static_cast<int64_t>(fits.size()));
    ASSERT_OK(ok, Skip(CompactType::kStruct));
    EXPECT_EQ(ok.remaining(), 0);

    std::string deep = Nested(64, lists);
    CompactReader r(reinterpret_cast<const uint8_t*>(deep.data()),
                    static_cast<int64_t>(deep.size()));
    EXPECT_FALSE(r.Skip(CompactType::kStruct));
    EXPECT_TRUE(r.status().IsInvalid());
    EXPECT_THAT(r.status().message(), HasSubstr("nesting deeper than 64"));

    // Far deeper than any stack would like: still a clean error.
    std::string very_deep = Nested(100'000, lists);
    ThriftLimits huge;
    huge.max_depth = std::numeric_limits<int32_t>::max();  // clamped to the hard limit
    CompactReader r2(reinterpret_cast<const uint8_t*>(very_deep.data()),
                     static_cast<int64_t>(very_deep.size()), huge);
    EXPECT_THAT(ERROR_OF(r2, Skip(CompactType::kStruct)),
                HasSubstr("nesting deeper than 1000"));
  }
}

TEST(CompactReaderTest, BinaryViewPointsIntoTheInput) {
  const uint8_t bytes[] = {0x03, 'a', 'b', 'c', 0x00};
  CompactReader r(bytes, 5);
  std::string_view view;
  ASSERT_OK(r, ReadBinaryView(&view));
  EXPECT_EQ(view, "abc");
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(view.data()), bytes + 1);
  ASSERT_OK(r, ReadBinaryView(&view));
  EXPECT_EQ(view, "");
  EXPECT_EQ(r.position(), 5);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet::thrift

// File-local macros: not into the next file of a unity build.
#undef ASSERT_OK
#undef ERROR_OF
