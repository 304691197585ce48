// A recursive-descent reader of RFC 8259 JSON, for one protocol line at a
// time (peer_json.h). \uXXXX escapes (surrogate pairs included) become
// UTF-8; nesting is limited so a hostile line cannot exhaust the stack.
#include "peer_json.h"

#include <cstdio>
#include <cstdlib>

namespace quiver::bench {

namespace {
constexpr int kMaxDepth = 32;
const JsonValue kNullValue;
}  // namespace

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  Result<JsonValue> ParseDocument() {
    QUIVER_ASSIGN_OR_RAISE(JsonValue v, ParseValue(0));
    SkipSpace();
    if (pos_ != text_.size()) return Error("trailing characters");
    return v;
  }

 private:
  Status Error(const char* what) const {
    return Status::Invalid("JSON: ", what, " at offset ", pos_);
  }

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Result<JsonValue> ParseValue(int depth) {
    if (depth > kMaxDepth) return Error("nesting too deep");
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end");
    JsonValue v;
    const char c = text_[pos_];
    if (c == '{' || c == '[') {
      const bool object = c == '{';
      v.kind_ = object ? JsonValue::Kind::kObject : JsonValue::Kind::kArray;
      ++pos_;
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == (object ? '}' : ']')) {
        ++pos_;
        return v;
      }
      while (true) {
        if (object) {
          SkipSpace();
          QUIVER_ASSIGN_OR_RAISE(std::string key, ParseString());
          SkipSpace();
          if (!Consume(":")) return Error("':' expected");
          v.keys_.push_back(std::move(key));
        }
        QUIVER_ASSIGN_OR_RAISE(JsonValue item, ParseValue(depth + 1));
        v.items_.push_back(std::move(item));
        SkipSpace();
        if (Consume(",")) continue;
        if (Consume(object ? "}" : "]")) return v;
        return Error(object ? "',' or '}' expected" : "',' or ']' expected");
      }
    }
    if (c == '"') {
      v.kind_ = JsonValue::Kind::kString;
      QUIVER_ASSIGN_OR_RAISE(v.string_, ParseString());
      return v;
    }
    if (Consume("true") || Consume("false")) {
      v.kind_ = JsonValue::Kind::kBool;
      v.bool_ = text_[pos_ - 4] == 't';  // "true" ends 4 back, "false" has 'a' there
      return v;
    }
    if (Consume("null")) return v;
    // A number: strtod on a copy bounded by the number's characters.
    size_t end = pos_;
    while (end < text_.size() && std::string_view("+-0123456789.eE").find(text_[end]) !=
                                     std::string_view::npos) {
      ++end;
    }
    if (end == pos_) return Error("a value expected");
    const std::string digits(text_.substr(pos_, end - pos_));
    char* stop = nullptr;
    v.number_ = std::strtod(digits.c_str(), &stop);
    if (stop != digits.c_str() + digits.size()) return Error("malformed number");
    v.kind_ = JsonValue::Kind::kNumber;
    pos_ = end;
    return v;
  }

  // A code point as 1 to 4 UTF-8 bytes: a lead byte carrying the length,
  // then six bits a byte.
  static void AppendUtf8(std::string* out, uint32_t cp) {
    static constexpr uint8_t kLead[] = {0, 0x00, 0xC0, 0xE0, 0xF0};
    const int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    out->push_back(static_cast<char>(kLead[n] | (cp >> (6 * (n - 1)))));
    for (int shift = 6 * (n - 2); shift >= 0; shift -= 6) {
      out->push_back(static_cast<char>(0x80 | ((cp >> shift) & 0x3F)));
    }
  }

  Result<uint32_t> ParseHex4() {
    if (pos_ + 4 > text_.size()) return Error("short \\u escape");
    uint32_t cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      cp <<= 4;
      if (h >= '0' && h <= '9') {
        cp |= static_cast<uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        cp |= static_cast<uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        cp |= static_cast<uint32_t>(h - 'A' + 10);
      } else {
        return Error("bad \\u escape");
      }
    }
    return cp;
  }

  Result<std::string> ParseString() {
    if (!Consume("\"")) return Error("'\"' expected");
    std::string out;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) break;
      const char e = text_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out.push_back(e); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          QUIVER_ASSIGN_OR_RAISE(uint32_t cp, ParseHex4());
          if (cp >= 0xD800 && cp < 0xDC00 && Consume("\\u")) {
            QUIVER_ASSIGN_OR_RAISE(uint32_t low, ParseHex4());
            if (low < 0xDC00 || low > 0xDFFF) return Error("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(&out, cp);
          break;
        }
        default: return Error("bad escape");
      }
    }
    return Error("unterminated string");
  }

  std::string_view text_;
  size_t pos_ = 0;
};

Result<JsonValue> JsonValue::Parse(std::string_view text) {
  return JsonParser(text).ParseDocument();
}

const JsonValue& JsonValue::operator[](std::string_view key) const {
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return items_[i];
  }
  return kNullValue;
}

Result<std::string> JsonValue::GetString(std::string_view key) const {
  const JsonValue& v = (*this)[key];
  if (v.kind() != Kind::kString) return Status::Invalid("\"", key, "\": a string expected");
  return v.string();
}

Result<int64_t> JsonValue::GetInt(std::string_view key, int64_t fallback) const {
  const JsonValue& v = (*this)[key];
  if (v.is_null()) return fallback;
  if (v.kind() != Kind::kNumber) return Status::Invalid("\"", key, "\": a number expected");
  return static_cast<int64_t>(v.number());
}

Result<bool> JsonValue::GetBool(std::string_view key, bool fallback) const {
  const JsonValue& v = (*this)[key];
  if (v.is_null()) return fallback;
  if (v.kind() != Kind::kBool) return Status::Invalid("\"", key, "\": true or false expected");
  return v.boolean();
}

std::string JsonQuote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", u);
      out += buf;
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace quiver::bench
