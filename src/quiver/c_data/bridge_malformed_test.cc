// Malformed C Data Interface input: every case must give an Invalid status
// whose message says what is wrong and where, must not crash or read out of
// bounds (ASan), and must still release the producer's struct exactly once.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "quiver/c_data/bridge.h"
#include "quiver/c_data/test_producer_internal.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::HandArray;
using testutil::HandSchema;
using ::testing::HasSubstr;

// --- Schemas ----------------------------------------------------------------------

// Imports `schema` as a type; expects an error with `code` whose message
// contains `message`, and exactly `expected_releases` producer releases.
void ExpectTypeError(ArrowSchema schema, int* released, const std::string& message,
                     StatusCode code = StatusCode::kInvalid, int expected_releases = -1) {
  const int before = *released;
  auto r = ImportType(&schema);
  ASSERT_FALSE(r.ok()) << "imported as " << (*r)->ToString();
  EXPECT_EQ(r.status().code(), code) << r.status().ToString();
  EXPECT_THAT(r.status().message(), HasSubstr(message));
  EXPECT_EQ(schema.release, nullptr) << "the struct must be marked released";
  if (expected_releases < 0) expected_releases = 1;
  EXPECT_GE(*released - before, expected_releases) << "the producer was not released";
}

TEST(CDataMalformedSchema, BadFormatStrings) {
  struct Case {
    const char* format;
    const char* message;
  };
  const Case cases[] = {
      {"", "empty"},
      {"q", "unknown format"},
      {"ii", "unknown format"},
      {"i ", "unknown format"},
      {"w", "unknown format"},
      {"w:", "byte width"},
      {"w:abc", "byte width"},
      {"w:-1", "byte width"},
      {"w:3x", "byte width"},
      {"w:99999999999", "byte width"},
      {"d:5", "'d:precision,scale'"},
      {"d:", "'d:precision,scale'"},
      {"d5,2", "unknown format"},
      {"d:5,", "bad decimal scale"},
      {"d:,2", "bad decimal precision"},
      {"d:5,2,", "bad decimal bit width"},
      {"d:5,2,100", "bit width must be 32, 64, 128 or 256"},
      {"d:5,2,128,1", "'d:precision,scale'"},
      {"d:0,2", "precision"},
      {"d:10,2,32", "precision"},
      {"d:77,2,256", "precision"},
      {"d:5x,2", "bad decimal precision"},
      {"t", "truncated temporal format"},
      {"td", "truncated"},
      {"tdx", "unknown temporal"},
      {"tdDD", "unexpected characters"},
      {"tsu", "timestamp"},
      {"tsuUTC", "timestamp"},
      {"tsx:UTC", "time unit"},
      {"ttx", "unknown temporal"},
      {"tDx", "time unit"},
      {"tix", "unknown temporal"},
      {"tq1", "unknown temporal"},
      {"vx", "unknown format"},
      {"+", "unknown nested"},
      {"+x", "unknown nested"},
      {"+ll", "unknown nested"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string("format '") + c.format + "'");
    int released = 0;
    ExpectTypeError(HandSchema(&released, c.format), &released, c.message);
  }
}

TEST(CDataMalformedSchema, BadNestedFormatStrings) {
  int released = 0;
  auto child = [&] { return HandSchema(&released, "i", "item"); };
  ExpectTypeError(HandSchema(&released, "+w:", "", 2, {child()}), &released, "list size");
  ExpectTypeError(HandSchema(&released, "+w:-2", "", 2, {child()}), &released, "list size");
  ExpectTypeError(HandSchema(&released, "+w:2a", "", 2, {child()}), &released, "list size");
  EXPECT_THAT(released, 6) << "parents and children each released once";
}

TEST(CDataMalformedSchema, UnsupportedButValidFormatsAreNotImplemented) {
  for (const char* format : {"+vl", "+vL", "+r", "+ud:0,1", "+us:0"}) {
    SCOPED_TRACE(format);
    int released = 0;
    ExpectTypeError(HandSchema(&released, format), &released, "not supported",
                    StatusCode::kNotImplemented);
  }
}

TEST(CDataMalformedSchema, WrongNumberOfChildren) {
  int released = 0;
  auto leaf = [&](const char* name) { return HandSchema(&released, "i", name); };
  ExpectTypeError(HandSchema(&released, "i", "", 2, {leaf("x")}), &released,
                  "format 'i' takes 0 children, got n_children 1");
  ExpectTypeError(HandSchema(&released, "+l"), &released, "takes 1 child, got n_children 0");
  ExpectTypeError(HandSchema(&released, "+L", "", 2, {leaf("a"), leaf("b")}), &released,
                  "takes 1 child, got n_children 2");
  ExpectTypeError(HandSchema(&released, "+w:2"), &released, "takes 1 child");
  ExpectTypeError(HandSchema(&released, "+m"), &released, "takes 1 child");
  // A map's child must be a struct of exactly two fields.
  ExpectTypeError(HandSchema(&released, "+m", "", 2, {leaf("entries")}), &released,
                  "struct of two fields");
  ExpectTypeError(
      HandSchema(&released, "+m", "", 2,
                 {HandSchema(&released, "+s", "entries", 0, {leaf("key")})}),
      &released, "struct of two fields");
}

TEST(CDataMalformedSchema, NullPointers) {
  int released = 0;
  EXPECT_TRUE(ImportType(nullptr).status().IsInvalid());

  ArrowSchema s = HandSchema(&released, "i");
  s.format = nullptr;
  ExpectTypeError(s, &released, "<root>: format is a null pointer");

  s = HandSchema(&released, "+s", "", 0, {HandSchema(&released, "i", "a")});
  s.children = nullptr;
  ExpectTypeError(s, &released, "children is NULL but n_children is 1");

  s = HandSchema(&released, "+s", "", 0, {HandSchema(&released, "i", "a")});
  static_cast<testutil::HandSchemaPrivate*>(s.private_data)->child_pointers[0] = nullptr;
  ExpectTypeError(s, &released, "<root>.children[0] is a null pointer");

  s = HandSchema(&released, "+s", "", 0, {HandSchema(&released, "i", "a")});
  s.children[0]->format = nullptr;
  ExpectTypeError(s, &released, "<root>.children[0]('a'): format is a null pointer");

  s = HandSchema(&released, "+s");
  s.n_children = -1;
  ExpectTypeError(s, &released, "negative n_children -1");
}

TEST(CDataMalformedSchema, ReleasedStructs) {
  int released = 0;
  ArrowSchema s = HandSchema(&released, "i");
  s.release(&s);
  EXPECT_EQ(released, 1);
  auto r = ImportType(&s);
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_THAT(r.status().message(), HasSubstr("released"));
  EXPECT_EQ(released, 1) << "a released struct must not be released again";

  // A released child inside a live parent.
  s = HandSchema(&released, "+l", "", 2, {HandSchema(&released, "i", "item")});
  ArrowSchema* child = s.children[0];
  child->release(child);
  ExpectTypeError(s, &released, "<root>.children[0] is released");
  EXPECT_EQ(released, 3) << "the released child is not released again";

  // Released dictionary.
  ArrowSchema dict = HandSchema(&released, "u");
  s = HandSchema(&released, "i", "", 2, {}, &dict);
  s.dictionary->release(s.dictionary);
  ExpectTypeError(s, &released, "<root>.dictionary is released");
}

TEST(CDataMalformedSchema, DictionaryIndexMustBeAnInteger) {
  for (const char* index : {"u", "f", "b", "tdD", "n"}) {
    SCOPED_TRACE(index);
    int released = 0;
    ArrowSchema dict = HandSchema(&released, "u");
    ExpectTypeError(HandSchema(&released, index, "", 2, {}, &dict), &released,
                    "dictionary index type must be an integer");
    EXPECT_EQ(released, 2);
  }
  // The dictionary's own type is checked too.
  int released = 0;
  ArrowSchema dict = HandSchema(&released, "w:");
  ExpectTypeError(HandSchema(&released, "i", "", 2, {}, &dict), &released,
                  "<root>.dictionary: invalid format string 'w:'");
}

TEST(CDataMalformedSchema, DepthIsBounded) {
  int released = 0;
  // 100 nested lists.
  ArrowSchema s = HandSchema(&released, "i", "item");
  for (int i = 0; i < 100; ++i) s = HandSchema(&released, "+l", "item", 2, {s});
  ExpectTypeError(s, &released, "nesting deeper than 64");
  EXPECT_EQ(released, 101);

  // Dictionaries nested in dictionaries count too.
  s = HandSchema(&released, "u");
  for (int i = 0; i < 80; ++i) {
    ArrowSchema dict = s;
    s = HandSchema(&released, "i", "", 2, {}, &dict);
  }
  ExpectTypeError(s, &released, "nesting deeper than 64");

  // A cycle: a struct whose child is itself.
  released = 0;
  ArrowSchema top = HandSchema(&released, "+s", "", 0, {HandSchema(&released, "+s", "loop", 0,
                                                                   {HandSchema(&released, "i")})});
  ArrowSchema* loop = top.children[0];
  auto* loop_private = static_cast<testutil::HandSchemaPrivate*>(loop->private_data);
  loop_private->child_pointers[0] = loop;  // children[0] now points back at itself
  loop->children = loop_private->child_pointers.data();
  auto r = ImportType(&top);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("cycle"));
  // The producer's release still frees what it owns (top, loop and the
  // original grandchild), once each.
  EXPECT_EQ(released, 3);
}

TEST(CDataMalformedSchema, BadMetadata) {
  int released = 0;
  ArrowSchema s = HandSchema(&released, "i", "x");
  testutil::SetHandMetadata(&s, testutil::EncodeTestMetadata({}).replace(0, 4, "\xff\xff\xff\xff"));
  auto r = ImportField(&s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("negative pair count -1"));
  EXPECT_EQ(released, 1);

  s = HandSchema(&released, "i", "x");
  std::string bytes = testutil::EncodeTestMetadata({{"k", "v"}});
  bytes.replace(4 + 4 + 1, 4, "\xfe\xff\xff\xff");  // value length -2
  testutil::SetHandMetadata(&s, bytes);
  r = ImportField(&s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("metadata value 0 (key 'k') has a negative length"));

  // Empty metadata (count 0) is fine and means none.
  s = HandSchema(&released, "i", "x");
  testutil::SetHandMetadata(&s, testutil::EncodeTestMetadata({}));
  r = ImportField(&s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->metadata(), nullptr);
  EXPECT_EQ(released, 3);
}

// --- Arrays -----------------------------------------------------------------------

// Imports `array` as `type`; expects Invalid with `message`, the input
// marked released and every node of the producer's tree released once.
void ExpectArrayError(ArrowArray array, const TypePtr& type, int* released, int nodes,
                      const std::string& message) {
  const int before = *released;
  auto r = ImportArray(&array, type);
  ASSERT_FALSE(r.ok()) << "imported: " << type->ToString();
  EXPECT_TRUE(r.status().IsInvalid()) << r.status().ToString();
  EXPECT_THAT(r.status().message(), HasSubstr(message));
  EXPECT_EQ(array.release, nullptr);
  EXPECT_EQ(*released - before, nodes) << "every producer node released exactly once";
}

const int32_t kInts[] = {1, 2, 3, 4};
const uint8_t kBits[] = {0xff};

TEST(CDataMalformedArray, NegativeAndImpossibleCounts) {
  int released = 0;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  ExpectArrayError(HandArray(&released, -1, 0, 0, {nullptr, kInts}), int32(), &released, 1,
                   "<root>: negative length -1");
  ExpectArrayError(HandArray(&released, 2, 0, -3, {nullptr, kInts}), int32(), &released, 1,
                   "negative offset -3");
  ExpectArrayError(HandArray(&released, 2, -2, 0, {nullptr, kInts}), int32(), &released, 1,
                   "negative null_count -2");
  ExpectArrayError(HandArray(&released, 2, 3, 0, {kBits, kInts}), int32(), &released, 1,
                   "null_count 3 exceeds the length 2");
  ExpectArrayError(HandArray(&released, kMax, 0, 10, {nullptr, kInts}), int32(), &released, 1,
                   "overflows 64 bits");
  ExpectArrayError(HandArray(&released, kMax / 2, 0, 0, {nullptr, kInts}), int64(), &released, 1,
                   "overflows 64 bits");
  ExpectArrayError(HandArray(&released, kMax, 0, 0, {nullptr, kInts, kInts}), utf8(), &released,
                   1, "offset + length + 1 overflows");
  // null_count -1 (unknown) is fine.
  ArrowArray ok = HandArray(&released, 4, -1, 0, {kBits, kInts});
  auto r = ImportArray(&ok, int32());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->GetNullCount(), 0);
}

TEST(CDataMalformedArray, WrongBufferAndChildCounts) {
  int released = 0;
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, kInts, kInts}), int32(), &released, 1,
                   "n_buffers is 3, expected 2");
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr}), utf8(), &released, 1,
                   "n_buffers is 1, expected 3");
  ExpectArrayError(HandArray(&released, 2, 2, 0, {nullptr}), null(), &released, 1,
                   "n_buffers is 1, expected 0");
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, kInts}), utf8_view(), &released, 1,
                   "expected 3 or more");
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, kInts},
                             {HandArray(&released, 0, 0, 0, {nullptr, kInts})}),
                   int32(), &released, 2, "n_children is 1, expected 0");
  ExpectArrayError(HandArray(&released, 1, 0, 0, {nullptr, kInts}), list(int32()), &released, 1,
                   "n_children is 0, expected 1");
  ExpectArrayError(HandArray(&released, 1, 0, 0, {nullptr}),
                   struct_({field("a", int32()), field("b", int32())}), &released, 1,
                   "n_children is 0, expected 2");
}

TEST(CDataMalformedArray, NullPointers) {
  int released = 0;
  EXPECT_TRUE(ImportArray(nullptr, int32()).status().IsInvalid());

  ArrowArray a = HandArray(&released, 2, 0, 0, {nullptr, kInts});
  a.buffers = nullptr;
  ExpectArrayError(a, int32(), &released, 1, "buffers is NULL but n_buffers is 2");

  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, nullptr}), int32(), &released, 1,
                   "buffer 1 (values) is NULL but the array needs 8 bytes");
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, nullptr}), boolean(), &released, 1,
                   "buffer 1 (values) is NULL");
  ExpectArrayError(HandArray(&released, 2, 1, 0, {nullptr, kInts}), int32(), &released, 1,
                   "null_count is 1 but the validity buffer is NULL");
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, nullptr, kInts}), utf8(), &released,
                   1, "buffer 1 (offsets) is NULL");
  static const int32_t kOffsets[] = {0, 2, 4};
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, kOffsets, nullptr}), utf8(),
                   &released, 1, "buffer 2 (data) is NULL but the array needs 4 bytes");
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, nullptr},
                             {HandArray(&released, 4, 0, 0, {nullptr, kInts})}),
                   list(int32()), &released, 2, "buffer 1 (offsets) is NULL");

  a = HandArray(&released, 1, 0, 0, {nullptr, kOffsets},
                {HandArray(&released, 4, 0, 0, {nullptr, kInts})});
  a.children = nullptr;
  ExpectArrayError(a, list(int32()), &released, 2, "children is NULL but n_children is 1");

  a = HandArray(&released, 1, 0, 0, {nullptr, kOffsets},
                {HandArray(&released, 4, 0, 0, {nullptr, kInts})});
  static_cast<testutil::HandArrayPrivate*>(a.private_data)->child_pointers[0] = nullptr;
  // The producer's release still frees the child it owns.
  ExpectArrayError(a, list(int32()), &released, 2, "<root>.children[0] is a null pointer");

  // A required child buffer, reported with its path.
  ExpectArrayError(HandArray(&released, 1, 0, 0, {nullptr},
                             {HandArray(&released, 1, 0, 0, {nullptr, nullptr})}),
                   struct_({field("a", int64())}), &released, 2,
                   "<root>.children[0]: buffer 1 (values) is NULL but the array needs 8 bytes");
}

TEST(CDataMalformedArray, ReleasedStructs) {
  int released = 0;
  ArrowArray a = HandArray(&released, 2, 0, 0, {nullptr, kInts});
  a.release(&a);
  auto r = ImportArray(&a, int32());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_THAT(r.status().message(), HasSubstr("released"));
  EXPECT_EQ(released, 1);

  a = HandArray(&released, 1, 0, 0, {nullptr}, {HandArray(&released, 1, 0, 0, {nullptr, kInts})});
  ArrowArray* child = testutil::HandChild(&a, 0);
  child->release(child);
  ExpectArrayError(a, struct_({field("a", int32())}), &released, 1,
                   "<root>.children[0] is released");
}

TEST(CDataMalformedArray, Dictionaries) {
  int released = 0;
  static const int8_t kIndices[] = {0, 1};
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, kIndices}),
                   dictionary(int8(), int32()), &released, 1, "dictionary is NULL");
  ArrowArray dict = HandArray(&released, 2, 0, 0, {nullptr, kInts});
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, kInts}, {}, &dict), int32(), &released,
                   2, "non-dictionary type int32 has a dictionary");
  // The dictionary's own structure is checked, with its path.
  dict = HandArray(&released, 2, 0, 0, {nullptr, nullptr});
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, kIndices}, {}, &dict),
                   dictionary(int8(), int32()), &released, 2,
                   "<root>.dictionary: buffer 1 (values) is NULL");
  // Out-of-range indices are a ValidateFull matter, not a structural one.
  static const int8_t kBadIndices[] = {0, 9};
  dict = HandArray(&released, 2, 0, 0, {nullptr, kInts});
  ArrowArray ok = HandArray(&released, 2, 0, 0, {nullptr, kBadIndices}, {}, &dict);
  EXPECT_TRUE(ImportArray(&ok, dictionary(int8(), int32())).ok());
}

TEST(CDataMalformedArray, BinaryViews) {
  int released = 0;
  uint8_t views[32] = {20, 0, 0, 0, 'a', 'b', 'c', 'd', 0, 0, 0, 0, 0, 0, 0, 0};
  static const char kData[] = "abcdefghijklmnopqrstuvwxyz";
  const int64_t kSizes[] = {26};
  const int64_t kNegative[] = {-5};
  ExpectArrayError(HandArray(&released, 1, 0, 0, {nullptr, views, kData, nullptr}), utf8_view(),
                   &released, 1, "variadic buffer sizes buffer (buffer 3) is NULL");
  ExpectArrayError(HandArray(&released, 1, 0, 0, {nullptr, views, kData, kNegative}),
                   binary_view(), &released, 1, "variadic data buffer 0 has a negative size -5");
  ExpectArrayError(HandArray(&released, 1, 0, 0, {nullptr, views, nullptr, kSizes}),
                   binary_view(), &released, 1, "buffer 2 (variadic data) is NULL");
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, nullptr, kSizes}), binary_view(),
                   &released, 1, "buffer 1 (views) is NULL");
  // Well-formed: one out-of-line view into a 26-byte buffer.
  ArrowArray ok = HandArray(&released, 1, 0, 0, {nullptr, views, kData, kSizes});
  auto r = ImportArray(&ok, utf8_view());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ((*r)->buffers.size(), 3u);
  EXPECT_EQ((*r)->buffers[2]->size(), 26);
  EXPECT_EQ((*r)->buffers[2]->data(), reinterpret_cast<const uint8_t*>(kData));
}

TEST(CDataMalformedArray, OffsetsCaughtByValidate) {
  int released = 0;
  // The last offset sizes the data buffer; a negative one is rejected at once.
  static const int32_t kNegativeLast[] = {0, -4};
  ExpectArrayError(HandArray(&released, 1, 0, 0, {nullptr, kNegativeLast, "abcd"}), utf8(),
                   &released, 1, "last offset (at index 1) is negative: -4");
  static const int64_t kLargeNegative[] = {0, 3, -1};
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, kLargeNegative, "abc"}), large_utf8(),
                   &released, 1, "is negative: -1");
  // First offset after the last: structural validation.
  static const int32_t kDecreasing[] = {3, 1};
  ExpectArrayError(HandArray(&released, 1, 0, 0, {nullptr, kDecreasing, "abc"}), binary(),
                   &released, 1, "is invalid");
  // A list whose last offset points past its child.
  static const int32_t kPastChild[] = {0, 2, 9};
  ExpectArrayError(HandArray(&released, 2, 0, 0, {nullptr, kPastChild},
                             {HandArray(&released, 4, 0, 0, {nullptr, kInts})}),
                   list(int32()), &released, 2, "is invalid");
  // A fixed_size_list whose child is too short.
  ExpectArrayError(HandArray(&released, 3, 0, 0, {nullptr},
                             {HandArray(&released, 4, 0, 0, {nullptr, kInts})}),
                   fixed_size_list(int32(), 2), &released, 2, "is invalid");
  // A struct child shorter than the struct.
  ExpectArrayError(HandArray(&released, 3, 0, 1, {nullptr},
                             {HandArray(&released, 3, 0, 0, {nullptr, kInts})}),
                   struct_({field("a", int32())}), &released, 2, "is invalid");
}

TEST(CDataMalformedArray, RecordBatchErrors) {
  int released = 0;
  auto s = schema({field("a", int32())});
  // Not a struct array: the struct type of the schema needs one buffer.
  ArrowArray a = HandArray(&released, 2, 0, 0, {nullptr, kInts});
  auto r = ImportRecordBatch(&a, s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("n_buffers is 2, expected 1"));
  EXPECT_EQ(released, 1);
  // Null schema pointer: the array is still released.
  a = HandArray(&released, 2, 0, 0, {nullptr, kInts});
  r = ImportRecordBatch(&a, SchemaPtr());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_EQ(a.release, nullptr);
  EXPECT_EQ(released, 2);
  // A C schema that is not a struct.
  a = HandArray(&released, 2, 0, 0, {nullptr, kInts});
  ArrowSchema c_schema = HandSchema(&released, "i");
  r = ImportRecordBatch(&a, &c_schema);
  EXPECT_THAT(r.status().message(), HasSubstr("must be a struct"));
  EXPECT_EQ(released, 4);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
