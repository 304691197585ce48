// ULEB128 varints and zigzag: the one implementation, used by the Thrift
// compact protocol (field ids, i16/i32/i64, lengths) and by the Parquet
// encodings (RLE/bit-packed hybrid run headers, DELTA_BINARY_PACKED headers
// and block minimums). https://en.wikipedia.org/wiki/LEB128; zigzag as in
// protobuf; apache/parquet-format Encodings.md; thrift-compact-protocol.md.
//
// A ULEB128 value is 7 bits per byte, least significant group first, the
// high bit set on every byte but the last; a uint64_t takes 1..10 bytes,
// and the 10th byte may only hold bit 63 (0 or 1). Decoding accepts
// non-canonical (zero-padded) forms that fit in 64 bits.
#pragma once

#include <cstdint>

namespace quiver {

inline constexpr int kMaxUleb128Bytes = 10;  // for a uint64_t

// Writes `value` as ULEB128 at `out` (room for kMaxUleb128Bytes); returns
// the number of bytes written.
inline int PutUleb128(uint64_t value, uint8_t* out) {
  int n = 0;
  while (value >= 0x80) {
    out[n++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  out[n++] = static_cast<uint8_t>(value);
  return n;
}

// The number of bytes PutUleb128 writes for `value`.
constexpr int Uleb128Size(uint64_t value) {
  int n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

// DecodeUleb128's results other than a length.
inline constexpr int kUleb128Truncated = 0;  // the input ends inside the value
inline constexpr int kUleb128Overflow = -1;  // the value does not fit in 64 bits

// Decodes one ULEB128 value from [p, end): returns the number of bytes it
// takes (1..10) and sets *value, or returns kUleb128Truncated /
// kUleb128Overflow (the 10th byte is > 1) and leaves *value alone.
inline int DecodeUleb128(const uint8_t* p, const uint8_t* end, uint64_t* value) {
  uint64_t result = 0;
  for (int i = 0; i < kMaxUleb128Bytes; ++i) {
    if (p + i == end) return kUleb128Truncated;
    const uint8_t byte = p[i];
    if (i == kMaxUleb128Bytes - 1 && byte > 1) return kUleb128Overflow;
    result |= static_cast<uint64_t>(byte & 0x7F) << (7 * i);
    if ((byte & 0x80) == 0) {
      *value = result;
      return i + 1;
    }
  }
  return kUleb128Overflow;  // not reached: the 10th byte ends or overflows
}

// Reads a ULEB128 value from [*pos, end), advancing *pos. False (and *pos
// unchanged) if the varint is truncated or does not fit in 64 bits.
inline bool GetUleb128(const uint8_t** pos, const uint8_t* end, uint64_t* value) {
  const int n = DecodeUleb128(*pos, end, value);
  if (n <= 0) return false;
  *pos += n;
  return true;
}

// Zigzag maps signed to unsigned so that small magnitudes stay small:
// 0, -1, 1, -2, ... -> 0, 1, 2, 3, ...
constexpr uint64_t ZigZagEncode(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

constexpr int64_t ZigZagDecode(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

}  // namespace quiver
