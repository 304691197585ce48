#include "json_writer.h"

#include <cassert>
#include <cmath>

#include <fmt/format.h>

namespace quiver::cli {

namespace {

// Length of the well-formed UTF-8 sequence at s[0..n), or 0 if the bytes
// there do not start one (Unicode Table 3-7).
size_t Utf8SequenceLength(const unsigned char* s, size_t n) {
  const unsigned char c = s[0];
  if (c < 0x80) return 1;
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (n < len) return 0;
  if (s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < len; ++i) {
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  }
  return len;
}

}  // namespace

void JsonWriter::AppendQuoted(std::string_view text, std::string* out) {
  out->push_back('"');
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c >= 0x80) {
      size_t len = Utf8SequenceLength(s + i, n - i);
      if (len == 0) {
        out->append("\xEF\xBF\xBD");  // U+FFFD for one ill-formed byte
        ++i;
      } else {
        out->append(reinterpret_cast<const char*>(s + i), len);
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (c < 0x20 || c == 0x7F) {
          fmt::format_to(std::back_inserter(*out), "\\u{:04x}", c);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

void JsonWriter::Newline() {
  out_->push_back('\n');
  out_->append(2 * stack_.size(), ' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  assert(stack_.back().bracket == '[');
  if (!stack_.back().empty) out_->push_back(',');
  stack_.back().empty = false;
  Newline();
}

void JsonWriter::Key(std::string_view key) {
  assert(!stack_.empty() && stack_.back().bracket == '{' && !after_key_);
  if (!stack_.back().empty) out_->push_back(',');
  stack_.back().empty = false;
  Newline();
  AppendQuoted(key, out_);
  out_->append(": ");
  after_key_ = true;
}

void JsonWriter::Open(char bracket) {
  BeforeValue();
  out_->push_back(bracket);
  stack_.push_back(Level{bracket});
}

void JsonWriter::Close(char bracket) {
  assert(!stack_.empty() && stack_.back().bracket == (bracket == '}' ? '{' : '['));
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) Newline();
  out_->push_back(bracket);
  if (stack_.empty()) out_->push_back('\n');
}

void JsonWriter::String(std::string_view value) {
  BeforeValue();
  AppendQuoted(value, out_);
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  fmt::format_to(std::back_inserter(*out_), "{}", value);
}

void JsonWriter::UInt(uint64_t value) {
  BeforeValue();
  fmt::format_to(std::back_inserter(*out_), "{}", value);
}

void JsonWriter::Double(double value) {
  if (std::isnan(value)) return String("NaN");
  if (std::isinf(value)) return String(value > 0 ? "Infinity" : "-Infinity");
  BeforeValue();
  // fmt's shortest round-trip form ("1", "0.1", "1e+300") is valid JSON.
  fmt::format_to(std::back_inserter(*out_), "{}", value);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_->append(value ? "true" : "false");
}

void JsonWriter::Null() {
  BeforeValue();
  out_->append("null");
}

}  // namespace quiver::cli
