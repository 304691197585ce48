// Folding of UTF-8 text and binary values (case_fold_internal.h).
#include <cstring>

#include "quiver/compute/case_fold_internal.h"
#include "quiver/util/utf8.h"

namespace quiver::compute::internal {

namespace {

uint8_t AsciiFold(uint8_t c) { return c >= 'A' && c <= 'Z' ? static_cast<uint8_t>(c + 0x20) : c; }

}  // namespace

int64_t FoldUtf8(std::string_view in, uint8_t* out) {
  const auto* s = reinterpret_cast<const uint8_t*>(in.data());
  const auto n = static_cast<int64_t>(in.size());
  int64_t i = 0;
  int64_t o = 0;
  while (i < n) {
    // ASCII runs eight bytes at a time.
    while (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, s + i, 8);
      if ((w & 0x8080808080808080ULL) != 0) break;
      for (int k = 0; k < 8; ++k) out[o + k] = AsciiFold(s[i + k]);
      i += 8;
      o += 8;
    }
    if (i >= n) break;
    const uint8_t c = s[i];
    if (c < 0x80) {
      out[o++] = AsciiFold(c);
      ++i;
      continue;
    }
    const int len = Utf8SequenceLength(s + i, n - i);
    if (len == 0) {  // not well-formed: the byte as it is
      out[o++] = c;
      ++i;
      continue;
    }
    o += EncodeUtf8(SimpleCaseFold(DecodeUtf8(s + i, len)), out + o);
    i += len;
  }
  return o;
}

bool FoldedStartsWith(std::string_view value, std::string_view folded, bool utf8, bool whole) {
  const auto* s = reinterpret_cast<const uint8_t*>(value.data());
  const auto* lit = reinterpret_cast<const uint8_t*>(folded.data());
  const auto n = static_cast<int64_t>(value.size());
  const auto m = static_cast<int64_t>(folded.size());
  int64_t i = 0;
  int64_t p = 0;
  while (p < m) {
    if (i >= n) return false;
    const uint8_t c = s[i];
    const int len = c < 0x80 || !utf8 ? 1 : Utf8SequenceLength(s + i, n - i);
    if (len <= 1) {  // ASCII, a binary byte, or a byte that starts no character
      if ((utf8 ? AsciiFold(c) : BinaryCaseFold(c)) != lit[p]) return false;
      ++p;
      ++i;
      continue;
    }
    uint8_t buf[4];
    const int k = EncodeUtf8(SimpleCaseFold(DecodeUtf8(s + i, len)), buf);
    if (m - p < k || std::memcmp(buf, lit + p, static_cast<size_t>(k)) != 0) return false;
    p += k;
    i += len;
  }
  return !whole || i == n;
}

bool FoldedEndsWith(std::string_view value, std::string_view folded, bool utf8) {
  const auto* s = reinterpret_cast<const uint8_t*>(value.data());
  const auto* lit = reinterpret_cast<const uint8_t*>(folded.data());
  const auto n = static_cast<int64_t>(value.size());
  int64_t e = n;
  auto p = static_cast<int64_t>(folded.size());
  while (p > 0) {
    if (e == 0) return false;
    const uint8_t c = s[e - 1];
    int64_t b = e - 1;  // the character's first byte
    if (utf8 && c >= 0x80) {
      while (b > 0 && e - b < 4 && IsUtf8Continuation(s[b])) --b;
      if (Utf8SequenceLength(s + b, n - b) != e - b) b = e - 1;
    }
    if (e - b == 1) {
      if ((utf8 ? AsciiFold(c) : BinaryCaseFold(c)) != lit[p - 1]) return false;
      --p;
      --e;
      continue;
    }
    uint8_t buf[4];
    const int k = EncodeUtf8(SimpleCaseFold(DecodeUtf8(s + b, static_cast<int>(e - b))), buf);
    if (p < k || std::memcmp(buf, lit + p - k, static_cast<size_t>(k)) != 0) return false;
    p -= k;
    e = b;
  }
  return true;
}

void FoldBinary(std::string_view in, uint8_t* out) {
  const auto* s = reinterpret_cast<const uint8_t*>(in.data());
  for (size_t i = 0; i < in.size(); ++i) out[i] = BinaryCaseFold(s[i]);
}

}  // namespace quiver::compute::internal
