// ULEB128 varints and zigzag, as used by the RLE/bit-packed hybrid headers
// and the DELTA_BINARY_PACKED headers (apache/parquet-format Encodings.md;
// https://en.wikipedia.org/wiki/LEB128, protobuf's zigzag).
#pragma once

#include <cstdint>

namespace quiver::parquet::internal {

inline constexpr int kMaxUleb128Bytes = 10;  // for a uint64_t

// Writes `value` as ULEB128 at `out` (room for kMaxUleb128Bytes); returns the
// number of bytes written.
inline int PutUleb128(uint64_t value, uint8_t* out) {
  int n = 0;
  while (value >= 0x80) {
    out[n++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  out[n++] = static_cast<uint8_t>(value);
  return n;
}

inline int Uleb128Size(uint64_t value) {
  int n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

// Reads a ULEB128 value from [*pos, end), advancing *pos. False (and *pos
// unchanged) if the varint is truncated or does not fit in 64 bits.
inline bool GetUleb128(const uint8_t** pos, const uint8_t* end, uint64_t* value) {
  const uint8_t* p = *pos;
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end) return false;
    const uint8_t byte = *p++;
    const uint64_t bits = byte & 0x7f;
    if (shift == 63 && bits > 1) return false;  // more than 64 bits
    result |= bits << shift;
    if ((byte & 0x80) == 0) {
      *pos = p;
      *value = result;
      return true;
    }
  }
  return false;
}

inline uint64_t ZigZagEncode(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

inline int64_t ZigZagDecode(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

}  // namespace quiver::parquet::internal
