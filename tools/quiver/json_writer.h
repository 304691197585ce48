// A small streaming JSON writer (RFC 8259) for `quiver inspect --json`.
//
// Strings are escaped as the RFC requires (", \, control characters) and
// must come out as valid UTF-8: bytes that are not well-formed UTF-8 (the
// Unicode "maximal subparts" rule, Unicode 15 section 3.9) are replaced by
// U+FFFD, so that any file content (a corrupt key, binary statistics) still
// yields a document every JSON parser accepts. Non-finite doubles have no
// JSON spelling and are written as the strings "NaN", "Infinity" and
// "-Infinity". Output is indented by two spaces per level.
//
// Misuse (a value where a key is due, unbalanced End*) is a programming
// error of this tool and is not diagnosed beyond a debug assert.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace quiver::cli {

class JsonWriter {
 public:
  explicit JsonWriter(std::string* out) : out_(out) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }

  // The key of the next member of the current object.
  void Key(std::string_view key);

  void String(std::string_view value);
  void Int(int64_t value);
  void UInt(uint64_t value);
  void Double(double value);
  void Bool(bool value);
  void Null();

  // Key + value in one call.
  template <typename T>
  void Member(std::string_view key, const T& value) {
    Key(key);
    Value(value);
  }

  // Appends `text` as a JSON string literal (with quotes) to *out.
  static void AppendQuoted(std::string_view text, std::string* out);

 private:
  void Value(std::string_view v) { String(v); }
  void Value(const std::string& v) { String(v); }
  void Value(const char* v) { String(v); }
  void Value(bool v) { Bool(v); }
  void Value(int32_t v) { Int(v); }
  void Value(int64_t v) { Int(v); }
  void Value(uint64_t v) { UInt(v); }
  void Value(double v) { Double(v); }

  void Open(char bracket);
  void Close(char bracket);
  // Separator and indentation before a value (not after a key).
  void BeforeValue();
  void Newline();

  struct Level {
    char bracket;
    bool empty = true;
  };
  std::string* out_;
  std::vector<Level> stack_;
  bool after_key_ = false;
};

}  // namespace quiver::cli
