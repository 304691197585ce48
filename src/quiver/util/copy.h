// Copying into memory that is not read again soon.
#pragma once

#include <cstdint>

namespace quiver {

// Copies `n` bytes from `src` to `dst` (not overlapping) with non-temporal
// stores where the CPU has them (x86-64 with AVX; elsewhere a plain
// memcpy). A plain copy reads each destination cache line
// from memory before writing it; these stores write whole lines to memory
// without reading them or taking cache room. For large copies into memory
// that is read again only after much more has been written: the chunks of
// a file built in memory (io::ChunkedOutputStream), not data about to be
// used.
void CopyNonTemporal(uint8_t* dst, const uint8_t* src, int64_t n);

}  // namespace quiver
