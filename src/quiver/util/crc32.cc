#include "quiver/util/crc32.h"

#include <zlib.h>

#include <algorithm>

namespace quiver {

uint32_t Crc32Update(uint32_t crc, const uint8_t* data, int64_t size) {
  uLong value = crc;
  // zlib takes uInt lengths: feed larger inputs in pieces.
  while (size > 0) {
    const uInt n = static_cast<uInt>(std::min<int64_t>(size, int64_t{1} << 30));
    value = crc32(value, data, n);
    data += n;
    size -= n;
  }
  return static_cast<uint32_t>(value);
}

uint32_t Crc32(const uint8_t* data, int64_t size) { return Crc32Update(0, data, size); }

}  // namespace quiver
