// Test helpers for the schema tests that compare with pyarrow over the
// files of testdata/: a small JSON reader (for pyarrow_levels.json and
// pyarrow_schemas.json, as json.dump writes them), whole-file reads and the
// footer of a plaintext-footer Parquet file.
#pragma once

#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet::schema_test {

// A JSON value: objects, arrays, strings (with the escapes json.dump
// writes), integers, booleans, null.
struct Json {
  enum class Kind {
    kObject,
    kArray,
    kString,
    kNumber,
    kBool,
    kNull,
    kMissing
  } kind = Kind::kMissing;
  std::map<std::string, Json> object;
  std::vector<Json> array;
  std::string string;
  int64_t number = 0;
  bool boolean = false;

  const Json& operator[](const std::string& key) const {
    static const Json kMissing;
    auto it = object.find(key);
    return it == object.end() ? kMissing : it->second;
  }
};

class JsonReader {
 public:
  explicit JsonReader(std::string text) : text_(std::move(text)) {}

  bool Read(Json* out) {
    if (!Value(out)) return false;
    Space();
    return pos_ == text_.size();
  }

 private:
  void Space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Eat(char c) {
    Space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size()) return false;
        const char e = text_[pos_++];
        if (e == 'u') {
          uint32_t code = 0;
          if (!Hex4(&code)) return false;
          // json.dump escapes non-ASCII as \uXXXX, outside the BMP as a
          // surrogate pair: UTF-8 encode.
          if (code >= 0xD800 && code < 0xDC00 && text_.compare(pos_, 2, "\\u") == 0) {
            pos_ += 2;
            uint32_t low = 0;
            if (!Hex4(&low)) return false;
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(code, out);
          continue;
        }
        c = e == 'n'   ? '\n'
            : e == 't' ? '\t'
            : e == 'r' ? '\r'
            : e == 'b' ? '\b'
            : e == 'f' ? '\f'
                       : e;
      }
      out->push_back(c);
    }
    return Eat('"');
  }
  bool Hex4(uint32_t* code) {
    if (pos_ + 4 > text_.size()) return false;
    *code = static_cast<uint32_t>(std::stoul(text_.substr(pos_, 4), nullptr, 16));
    pos_ += 4;
    return true;
  }
  static void AppendUtf8(uint32_t code, std::string* out) {
    if (code < 0x80) {
      out->push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (code >> 6)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (code >> 12)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (code >> 18)));
      out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }
  bool Value(Json* out) {
    Space();
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '{') {
      out->kind = Json::Kind::kObject;
      ++pos_;
      if (Eat('}')) return true;
      do {
        std::string key;
        if (!String(&key) || !Eat(':') || !Value(&out->object[key])) return false;
      } while (Eat(','));
      return Eat('}');
    }
    if (c == '[') {
      out->kind = Json::Kind::kArray;
      ++pos_;
      if (Eat(']')) return true;
      do {
        out->array.emplace_back();
        if (!Value(&out->array.back())) return false;
      } while (Eat(','));
      return Eat(']');
    }
    if (c == '"') {
      out->kind = Json::Kind::kString;
      return String(&out->string);
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      out->kind = Json::Kind::kNumber;
      size_t used = 0;
      out->number = std::stoll(text_.substr(pos_, 24), &used);
      pos_ += used;
      return true;
    }
    for (const char* word : {"true", "false", "null"}) {
      if (text_.compare(pos_, std::strlen(word), word) == 0) {
        pos_ += std::strlen(word);
        out->kind = word[0] == 'n' ? Json::Kind::kNull : Json::Kind::kBool;
        out->boolean = word[0] == 't';
        return true;
      }
    }
    return false;
  }

  std::string text_;
  size_t pos_ = 0;
};

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The footer's FileMetaData, or an error.
inline Result<format::FileMetaData> ReadFooter(const std::string& file) {
  if (file.size() < 12 || file.compare(file.size() - 4, 4, "PAR1") != 0) {
    return Status::Invalid("not a plaintext-footer Parquet file");
  }
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);  // little-endian hosts only
  if (length > file.size() - 12) return Status::Invalid("footer length ", length, " too large");
  const auto* footer = reinterpret_cast<const uint8_t*>(file.data()) + file.size() - 8 - length;
  return thrift::DeserializeThrift<format::FileMetaData>(footer, length);
}

}  // namespace quiver::parquet::schema_test
