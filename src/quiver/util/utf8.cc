#include "quiver/util/utf8.h"

#include <bit>

#include "quiver/util/bit_util.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver {

namespace {

constexpr uint64_t kHighBits = 0x8080808080808080ULL;

}  // namespace

int64_t FindInvalidUtf8(const uint8_t* data, int64_t size, bool* ascii) {
  int64_t i = 0;
  bool multi_byte = false;
  while (i < size) {
    // ASCII fast path: 64 bytes (SSE2), 16, then 8 bytes at a time; in a
    // word with a non-ASCII byte, skip the ASCII bytes before it
    // (little-endian order).
#if defined(__SSE2__)
    while (size - i >= 64) {
      const auto* p = reinterpret_cast<const __m128i*>(data + i);
      const __m128i any = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(p), _mm_loadu_si128(p + 1)),
                                       _mm_or_si128(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3)));
      if (_mm_movemask_epi8(any) != 0) break;
      i += 64;
    }
#endif
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
    multi_byte = true;
    const int length = Utf8SequenceLength(data + i, size - i);
    if (length == 0) return i;
    i += length;
  }
  if (ascii != nullptr) *ascii = !multi_byte;
  return -1;
}

}  // namespace quiver
