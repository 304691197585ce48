// The JSON reader of Quiver's C++ peer (peer_json.h): the protocol's
// commands, escapes, and malformed lines (an error, never a crash).
#include "peer_json.h"

#include <string>

#include <gtest/gtest.h>

namespace quiver::bench {
namespace {
namespace QUIVER_UNITY_ID {

TEST(PeerJson, KernelCommand) {
  auto v = JsonValue::Parse(
      R"({"cmd": "kernel", "name": "add", "input": "/dev/shm/a.arrow", "columns": ["a", "b"],)"
      R"( "args": {"to": "int64", "value_set": [1, -2, 3e2]}, "reps": 3, "iters": 1000,)"
      R"( "empty": false, "out": null})");
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(*v->GetString("cmd"), "kernel");
  EXPECT_EQ(*v->GetString("input"), "/dev/shm/a.arrow");
  ASSERT_EQ((*v)["columns"].items().size(), 2u);
  EXPECT_EQ((*v)["columns"].items()[1].string(), "b");
  EXPECT_EQ(*(*v)["args"].GetString("to"), "int64");
  const auto& set = (*v)["args"]["value_set"].items();
  ASSERT_EQ(set.size(), 3u);
  EXPECT_EQ(set[1].number(), -2);
  EXPECT_EQ(set[2].number(), 300);
  EXPECT_EQ(*v->GetInt("reps", 1), 3);
  EXPECT_EQ(*v->GetInt("iters", 1), 1000);
  EXPECT_EQ(*v->GetInt("absent", 7), 7);
  EXPECT_FALSE(*v->GetBool("empty", true));
  EXPECT_TRUE(*v->GetBool("absent", true));
  EXPECT_TRUE((*v)["out"].is_null());
  EXPECT_TRUE((*v)["missing"]["deeper"].is_null());
  EXPECT_FALSE(v->GetString("reps").ok());  // a number, not a string
  EXPECT_FALSE(v->GetInt("name", 0).ok());
}

TEST(PeerJson, Literals) {
  EXPECT_TRUE(JsonValue::Parse("true")->boolean());
  EXPECT_FALSE(JsonValue::Parse("false")->boolean());
  EXPECT_EQ(JsonValue::Parse("false")->kind(), JsonValue::Kind::kBool);
  EXPECT_TRUE(JsonValue::Parse(" null ")->is_null());
  EXPECT_EQ(JsonValue::Parse("[]")->items().size(), 0u);
  EXPECT_EQ(JsonValue::Parse("{}")->kind(), JsonValue::Kind::kObject);
  EXPECT_EQ(JsonValue::Parse("-0.5e-1")->number(), -0.05);
}

TEST(PeerJson, StringEscapes) {
  auto v = JsonValue::Parse(R"("a\"b\\c\/d\n\t\u00e9\ud83d\ude00")");
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(v->string(), "a\"b\\c/d\n\t\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(JsonQuote("a\"b\\\n\x01"), R"("a\"b\\\u000a\u0001")");
  // A quoted string reads back as itself.
  const std::string text = "x\"y\\z\x1f\xc3\xa9";
  EXPECT_EQ(JsonValue::Parse(JsonQuote(text))->string(), text);
}

TEST(PeerJson, MalformedLinesAreErrors) {
  for (const char* bad :
       {"", "{", "{\"a\"}", "{\"a\": }", "[1, 2", "[1 2]", "\"open", "\"\\x\"", "\"\\u12\"",
        "tru", "nul", "1.2.3", "{} x", "{\"a\": 1,}", "+", "\"\\ud800\\u0041\""}) {
    EXPECT_FALSE(JsonValue::Parse(bad).ok()) << bad;
  }
  // Nesting is bounded.
  EXPECT_FALSE(JsonValue::Parse(std::string(100, '[') + std::string(100, ']')).ok());
  EXPECT_TRUE(JsonValue::Parse(std::string(20, '[') + std::string(20, ']')).ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::bench
