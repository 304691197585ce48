#include "json_writer.h"

#include <cmath>

#include <fmt/format.h>

#include "quiver/util/dcheck.h"
#include "quiver/util/utf8.h"

namespace quiver::cli {

void JsonWriter::AppendQuoted(std::string_view text, std::string* out) {
  out->push_back('"');
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c >= 0x80) {
      const size_t len =
          static_cast<size_t>(Utf8SequenceLength(s + i, static_cast<int64_t>(n - i)));
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
  QUIVER_DCHECK(stack_.back().bracket == '[');
  if (!stack_.back().empty) out_->push_back(',');
  stack_.back().empty = false;
  Newline();
}

void JsonWriter::Key(std::string_view key) {
  QUIVER_DCHECK(!stack_.empty() && stack_.back().bracket == '{' && !after_key_);
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
  QUIVER_DCHECK(!stack_.empty() && stack_.back().bracket == (bracket == '}' ? '{' : '['));
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
