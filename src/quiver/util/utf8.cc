#include "quiver/util/utf8.h"

#include <bit>

#include "quiver/util/bit_util.h"

namespace quiver {

namespace {

constexpr uint64_t kHighBits = 0x8080808080808080ULL;

}  // namespace

int64_t FindInvalidUtf8(const uint8_t* data, int64_t size) {
  int64_t i = 0;
  while (i < size) {
    // ASCII fast path: 16 bytes, then 8 bytes at a time; in a word with a
    // non-ASCII byte, skip the ASCII bytes before it (little-endian order).
    while (size - i >= 16) {
      if (((bit_util::LoadLE64(data + i) | bit_util::LoadLE64(data + i + 8)) & kHighBits) != 0) {
        break;
      }
      i += 16;
    }
    if (size - i >= 8) {
      const uint64_t high = bit_util::LoadLE64(data + i) & kHighBits;
      if (high == 0) {
        i += 8;
        continue;
      }
      i += std::countr_zero(high) >> 3;
    } else {
      while (i < size && data[i] < 0x80) ++i;
      if (i == size) break;
    }
    // data[i] >= 0x80: a multi-byte sequence must start here.
    const int length = Utf8SequenceLength(data + i, size - i);
    if (length == 0) return i;
    i += length;
  }
  return -1;
}

}  // namespace quiver
