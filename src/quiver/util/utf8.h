// UTF-8 validation: the one validator of Quiver (array validation, the
// Parquet writer's string columns and schema names, the CLI's text output).
//
// Well-formed means Unicode 15, section 3.9, table 3-7 "Well-Formed UTF-8
// Byte Sequences": the table's byte ranges reject overlong forms, surrogates
// (U+D800..U+DFFF), code points above U+10FFFF and truncated sequences.
// FindInvalidUtf8 runs an ASCII fast path 16 and 8 bytes at a time and
// checks each non-ASCII sequence with Utf8SequenceLength.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver {

// Whether `byte` is a continuation byte (10xxxxxx), i.e. not the start of a
// character.
constexpr bool IsUtf8Continuation(uint8_t byte) { return (byte & 0xC0) == 0x80; }

// Length (1..4) of the well-formed UTF-8 sequence that starts at s[0], of
// the `size` >= 1 bytes at `s`; 0 if no well-formed sequence starts there.
inline int Utf8SequenceLength(const uint8_t* s, int64_t size) {
  // Table 3-7: C0, C1 would be overlong 2-byte forms; E0 80..9F overlong
  // 3-byte forms; ED A0..BF surrogates; F0 80..8F overlong 4-byte forms;
  // F4 90..BF and F5..FF code points above U+10FFFF.
  const uint8_t lead = s[0];
  if (lead < 0x80) return 1;
  if (lead < 0xC2) return 0;
  if (lead < 0xE0) return size >= 2 && IsUtf8Continuation(s[1]) ? 2 : 0;
  if (lead < 0xF0) {
    if (size < 3) return 0;
    const uint8_t lo = lead == 0xE0 ? 0xA0 : 0x80;
    const uint8_t hi = lead == 0xED ? 0x9F : 0xBF;
    return s[1] >= lo && s[1] <= hi && IsUtf8Continuation(s[2]) ? 3 : 0;
  }
  if (lead < 0xF5) {
    if (size < 4) return 0;
    const uint8_t lo = lead == 0xF0 ? 0x90 : 0x80;
    const uint8_t hi = lead == 0xF4 ? 0x8F : 0xBF;
    return s[1] >= lo && s[1] <= hi && IsUtf8Continuation(s[2]) && IsUtf8Continuation(s[3])
               ? 4
               : 0;
  }
  return 0;
}

// The code point of the well-formed sequence of `len` (1..4) bytes at `s`
// (as Utf8SequenceLength measured it).
inline uint32_t DecodeUtf8(const uint8_t* s, int len) {
  switch (len) {
    case 1: return s[0];
    case 2: return (uint32_t{s[0]} & 0x1F) << 6 | (s[1] & 0x3F);
    case 3: return (uint32_t{s[0]} & 0x0F) << 12 | (uint32_t{s[1]} & 0x3F) << 6 | (s[2] & 0x3F);
    default:
      return (uint32_t{s[0]} & 0x07) << 18 | (uint32_t{s[1]} & 0x3F) << 12 |
             (uint32_t{s[2]} & 0x3F) << 6 | (s[3] & 0x3F);
  }
}

// Writes code point `cp` (at most U+10FFFF) in UTF-8 at `out`; returns the
// bytes written (1..4).
inline int EncodeUtf8(uint32_t cp, uint8_t* out) {
  if (cp < 0x80) {
    out[0] = static_cast<uint8_t>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<uint8_t>(0xC0 | (cp >> 6));
    out[1] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<uint8_t>(0xE0 | (cp >> 12));
    out[1] = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<uint8_t>(0xF0 | (cp >> 18));
  out[1] = static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
  return 4;
}

// Index of the first byte of the first ill-formed (or truncated) UTF-8
// sequence in [data, data + size), or -1 if the bytes are well-formed.
// With `ascii`, also whether the bytes are all ASCII (set when -1 is
// returned): a caller that checks strings a run at a time and then looks
// for values that start inside a character can skip that look, since ASCII
// has no continuation bytes.
int64_t FindInvalidUtf8(const uint8_t* data, int64_t size, bool* ascii = nullptr);

inline bool IsValidUtf8(const uint8_t* data, int64_t size) {
  return FindInvalidUtf8(data, size) < 0;
}
inline bool IsValidUtf8(std::string_view s) {
  return IsValidUtf8(reinterpret_cast<const uint8_t*>(s.data()), static_cast<int64_t>(s.size()));
}

// Copies `size` bytes from `src` to `dst` (not overlapping) and tells
// whether they are all ASCII (below 0x80): a copy that is also the ASCII
// half of a UTF-8 check, so that bytes copied from memory are read once.
// Bytes that are not all ASCII need FindInvalidUtf8.
inline bool CopyAscii(uint8_t* dst, const uint8_t* src, int64_t size) {
#if defined(__SSE2__)
  if (size >= 16) {
    __m128i any = _mm_setzero_si128();
    int64_t i = 0;
    for (; size - i >= 64; i += 64) {
      const auto* p = reinterpret_cast<const __m128i*>(src + i);
      auto* q = reinterpret_cast<__m128i*>(dst + i);
      const __m128i a = _mm_loadu_si128(p), b = _mm_loadu_si128(p + 1);
      const __m128i c = _mm_loadu_si128(p + 2), d = _mm_loadu_si128(p + 3);
      _mm_storeu_si128(q, a);
      _mm_storeu_si128(q + 1, b);
      _mm_storeu_si128(q + 2, c);
      _mm_storeu_si128(q + 3, d);
      any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)));
    }
    for (; size - i >= 16; i += 16) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), a);
      any = _mm_or_si128(any, a);
    }
    if (i < size) {  // the last 16 bytes, overlapping the ones copied
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + size - 16));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + size - 16), a);
      any = _mm_or_si128(any, a);
    }
    return _mm_movemask_epi8(any) == 0;
  }
#endif
  // Short values: two words that overlap (or bytes) cover them.
  uint64_t any = 0;
  int64_t i = 0;
  for (; size - i >= 8; i += 8) {
    uint64_t w;
    std::memcpy(&w, src + i, 8);
    std::memcpy(dst + i, &w, 8);
    any |= w;
  }
  if (i < size && size >= 8) {
    uint64_t w;
    std::memcpy(&w, src + size - 8, 8);
    std::memcpy(dst + size - 8, &w, 8);
    any |= w;
  } else if (size - i >= 4) {
    uint32_t a, b;
    std::memcpy(&a, src + i, 4);
    std::memcpy(&b, src + size - 4, 4);
    std::memcpy(dst + i, &a, 4);
    std::memcpy(dst + size - 4, &b, 4);
    any |= a | b;
  } else {
    for (; i < size; ++i) {
      dst[i] = src[i];
      any |= src[i];
    }
  }
  return (any & 0x8080808080808080ULL) == 0;
}

}  // namespace quiver
