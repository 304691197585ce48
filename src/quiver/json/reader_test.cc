#include "quiver/json/reader.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "quiver/array/array.h"
#include "quiver/array/pretty_print.h"
#include "quiver/io/memory.h"

namespace quiver::json {
namespace {
namespace QUIVER_UNITY_ID {

Result<std::unique_ptr<StreamingReader>> Open(const std::string& text, ReadOptions read = {},
                                              ParseOptions parse = {}) {
  auto input = std::make_unique<io::BufferReader>(Buffer::FromString(text), "t.jsonl");
  return StreamingReader::Open(std::move(input), "t.jsonl", read, parse);
}

std::string SchemaOf(const std::string& text, ReadOptions read = {}) {
  auto reader = Open(text, read);
  if (!reader.ok()) return reader.status().message();
  return (*reader)->schema()->ToString();
}

std::string ErrorOf(const std::string& text, ReadOptions read = {}, ParseOptions parse = {}) {
  auto reader = Open(text, read, parse);
  if (!reader.ok()) return reader.status().message();
  auto batches = ReadAll(reader->get());
  return batches.ok() ? "ok" : batches.status().message();
}

TEST(JsonReader, InfersAsPyarrow) {
  EXPECT_EQ(SchemaOf("{\"a\":1}\n{\"a\":2.5}\n"), "a: double");
  EXPECT_EQ(SchemaOf("{\"a\":99999999999999999999}\n"), "a: double");
  EXPECT_EQ(SchemaOf("{\"a\":null,\"t\":\"2020-01-01T10:00:00Z\",\"s\":\"2020-01-01 1:2\"}\n"),
            "a: null\nt: timestamp[s]\ns: string");
  EXPECT_EQ(SchemaOf("{\"a\":{\"x\":[1]}}\n{\"a\":{\"y\":true},\"b\":[]}\n"),
            "a: struct<x: list<item: int64>, y: bool>\nb: list<item: null>");
}

TEST(JsonReader, OneBatchPerBlockAndTypesFromTheFirstBlock) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "{\"a\":" + std::to_string(i) + "}\n";
  ReadOptions read;
  read.block_size = 64;
  auto reader = Open(text, read);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  auto batches = ReadAll(reader->get());
  ASSERT_TRUE(batches.ok());
  EXPECT_GT(batches->size(), 10u);
  EXPECT_EQ((*reader)->rows_read(), 100);
  EXPECT_EQ((*reader)->bytes_read(), static_cast<int64_t>(text.size()));
  // A later value that does not fit: located, and how to widen the inference.
  EXPECT_EQ(ErrorOf(text + "{\"a\":0.5}\n", read),
            "t.jsonl:101: column /a: value 0.5 does not fit type int64 inferred from the first "
            "1 block(s) of 64 bytes; infer over more blocks or give the type");
  read.infer_blocks = ReadOptions::kInferAll;
  EXPECT_EQ(ErrorOf(text + "{\"a\":0.5}\n", read), "ok");
  EXPECT_EQ(SchemaOf(text + "{\"a\":0.5}\n", read), "a: double");
}

TEST(JsonReader, LocatedErrors) {
  EXPECT_EQ(ErrorOf("{\"a\":1}\n\n{\"a\":\"x\"}\n"),
            "t.jsonl:3: column /a changed from number to string (value \"x\")");
  EXPECT_EQ(ErrorOf("{\"a\":1}\n{\"a\" 1}\n").substr(0, 25), "t.jsonl:2: invalid JSON (");
  EXPECT_NE(ErrorOf("{\"a\":1}\n{\"a\" 1}\n").find("byte offset 8"), std::string::npos);
  EXPECT_EQ(ErrorOf("3\n"), "t.jsonl:1: a JSON Lines row must be an object, got number 3");
  EXPECT_EQ(ErrorOf(""), "t.jsonl: empty JSON Lines input (no rows)");
  ReadOptions read;
  read.block_size = 0;
  EXPECT_EQ(ErrorOf("{}\n", read), "JSON reader: block_size must be positive, got 0");
}

TEST(JsonReader, ExplicitSchema) {
  ParseOptions parse;
  parse.explicit_schema = schema({field("a", int8()), field("d", date32())});
  EXPECT_EQ(ErrorOf("{\"a\":1,\"d\":\"2020-01-02\",\"z\":1}\n", {}, parse), "ok");
  EXPECT_EQ(ErrorOf("{\"a\":300}\n", {}, parse),
            "t.jsonl:1: column /a: value 300 does not convert to int8 (explicit_schema)");
  parse.unexpected_field_behavior = UnexpectedFieldBehavior::kError;
  EXPECT_EQ(ErrorOf("{\"a\":1,\"z\":1}\n", {}, parse),
            "t.jsonl:1: unexpected field /z (not in explicit_schema; "
            "unexpected_field_behavior='error')");
  parse.explicit_schema = schema({field("a", fixed_size_binary(2))});
  EXPECT_EQ(ErrorOf("{}\n", {}, parse).substr(0, 44), "JSON reader: explicit_schema type fixed_size");
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::json
