#include "quiver/util/base64.h"

#include <array>

namespace quiver {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Character -> 6-bit value, or -1.
constexpr std::array<int8_t, 256> MakeDecodeTable() {
  std::array<int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int8_t>(i);
  return table;
}
constexpr std::array<int8_t, 256> kDecode = MakeDecodeTable();

}  // namespace

std::string Base64Encode(const uint8_t* data, int64_t size) {
  std::string out;
  out.reserve(static_cast<size_t>((size + 2) / 3 * 4));
  int64_t i = 0;
  for (; i + 3 <= size; i += 3) {
    uint32_t v = (uint32_t{data[i]} << 16) | (uint32_t{data[i + 1]} << 8) | data[i + 2];
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  if (i < size) {
    uint32_t v = uint32_t{data[i]} << 16;
    if (i + 1 < size) v |= uint32_t{data[i + 1]} << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(i + 1 < size ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) {
    return Status::Invalid("base64: length ", text.size(), " is not a multiple of 4");
  }
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  const size_t data_chars = text.size() - padding;
  uint32_t bits = 0;
  for (size_t i = 0; i < data_chars; ++i) {
    const int8_t v = kDecode[static_cast<uint8_t>(text[i])];
    if (v < 0) {
      return Status::Invalid("base64: invalid character 0x", "0123456789abcdef"[(text[i] >> 4) & 15],
                             "0123456789abcdef"[text[i] & 15], " at position ", i);
    }
    bits = (bits << 6) | static_cast<uint32_t>(v);
    if (i % 4 == 3) {
      out.push_back(static_cast<char>(bits >> 16));
      out.push_back(static_cast<char>(bits >> 8));
      out.push_back(static_cast<char>(bits));
      bits = 0;
    }
  }
  // The last group: 2 characters (12 bits) give 1 byte, 3 (18 bits) give 2;
  // the bits past those bytes must be zero.
  if (padding == 2) {
    if ((bits & 0xF) != 0) return Status::Invalid("base64: non-zero padding bits");
    out.push_back(static_cast<char>(bits >> 4));
  } else if (padding == 1) {
    if ((bits & 0x3) != 0) return Status::Invalid("base64: non-zero padding bits");
    out.push_back(static_cast<char>(bits >> 10));
    out.push_back(static_cast<char>(bits >> 2));
  }
  return out;
}

}  // namespace quiver
