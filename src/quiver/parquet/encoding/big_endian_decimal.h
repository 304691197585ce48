// Decimals as Parquet stores them in FIXED_LEN_BYTE_ARRAY (and BYTE_ARRAY):
// big-endian two's complement integers of `length` bytes; Arrow's decimals
// are little-endian integers of 4, 8, 16 or 32 bytes.
#pragma once

#include <cstdint>
#include <cstring>

namespace quiver::parquet::internal {

// One value: `length` bytes (1..out_width) big-endian at `in` into
// `out_width` little-endian bytes at `out`, sign-extended.
void BigEndianToDecimal(const uint8_t* in, int64_t length, uint8_t* out, int out_width);

// n values of `length` bytes each, back to back at `in`, into n values of
// `out_width` bytes at `out` (length <= out_width). Values of up to 16
// bytes into up to 16 take WideBigEndianToDecimal (the few whose 16 bytes
// would pass the end of `in`: the byte loop).
void BigEndianToDecimals(const uint8_t* in, int length, int64_t n, uint8_t* out, int out_width);

// One value of `length` bytes (1..16, at most kOutWidth: 4, 8 or 16) by
// whole-word loads and a byte swap: in[0, 8) must be readable for a
// length up to 8, in[0, 16) above.
template <int kOutWidth>
inline void WideBigEndianToDecimal(const uint8_t* in, int length, uint8_t* out) {
  static_assert(kOutWidth == 4 || kOutWidth == 8 || kOutWidth == 16);
  if (length <= 8) {
    uint64_t word;
    std::memcpy(&word, in, 8);
    // The value's bytes in the high end, then shifted down with its sign.
    const int64_t value = static_cast<int64_t>(__builtin_bswap64(word)) >> ((8 - length) * 8);
    if constexpr (kOutWidth <= 8) {
      std::memcpy(out, &value, kOutWidth);
    } else {
      const int64_t words[2] = {value, value >> 63};
      std::memcpy(out, words, 16);
    }
    return;
  }
  uint64_t hi;
  uint64_t lo;
  std::memcpy(&hi, in, 8);
  std::memcpy(&lo, in + 8, 8);
  const auto be =
      (static_cast<unsigned __int128>(__builtin_bswap64(hi)) << 64) | __builtin_bswap64(lo);
  const __int128 value = static_cast<__int128>(be) >> ((16 - length) * 8);
  std::memcpy(out, &value, kOutWidth);
}

}  // namespace quiver::parquet::internal
