// The JSON of the peer line protocol (bench/peers/PROTOCOL.md) for Quiver's
// C++ peer: a command line parsed into a small value tree, and strings
// escaped for a reply. Enough for the protocol's commands (objects, arrays,
// strings, numbers, true/false/null); not a general JSON library.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quiver/util/result.h"

namespace quiver::bench {

class JsonValue {
 public:
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

  JsonValue() = default;
  static Result<JsonValue> Parse(std::string_view text);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool boolean() const { return bool_; }
  double number() const { return number_; }
  const std::string& string() const { return string_; }
  const std::vector<JsonValue>& items() const { return items_; }
  // The member `key` of an object, or a null value (absent, or not an object).
  const JsonValue& operator[](std::string_view key) const;

  // Typed reads of a member, with a default when it is absent or null;
  // Invalid when it has another type.
  Result<std::string> GetString(std::string_view key) const;
  Result<int64_t> GetInt(std::string_view key, int64_t fallback) const;
  Result<bool> GetBool(std::string_view key, bool fallback) const;

 private:
  friend class JsonParser;
  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> items_;                 // array items, or object values
  std::vector<std::string> keys_;                // object keys (parallel to items_)
};

// `text` as a JSON string literal, quotes included.
std::string JsonQuote(std::string_view text);

}  // namespace quiver::bench
