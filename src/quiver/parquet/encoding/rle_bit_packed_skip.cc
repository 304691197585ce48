// RleBitPackedDecoder's skips (rle_bit_packed.h): RLE runs passed by their
// counts, bit-packed runs by arithmetic on the value index; a block of 32
// values is unpacked only when a later read lands inside it.
#include <algorithm>

#include "quiver/parquet/encoding/rle_bit_packed.h"

namespace quiver::parquet {

int64_t RleBitPackedDecoder::Skip(int64_t n) {
  int64_t done = 0;
  while (done < n) {
    if (rle_left_ > 0) {
      const int64_t k = std::min(rle_left_, n - done);
      rle_left_ -= k;
      done += k;
    } else if (lit_left_ > 0) {
      const int64_t k = std::min(lit_left_, n - done);
      SkipLiteral(k);
      done += k;
    } else if (!NextRun()) {
      break;
    }
  }
  return done;
}

}  // namespace quiver::parquet
