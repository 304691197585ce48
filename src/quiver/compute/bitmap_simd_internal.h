// Bitmap AND / OR / XOR / AND NOT at the compute kernels' SIMD level
// (simd_level.h): util/bitmap.h's loops are SSE2 only (util/ sits below the
// run-time dispatch), so the boolean kernels call these, which run the
// whole 64-bit words of the range in AVX2 or AVX-512 registers and leave
// the rest (and the scalar level) to util/bitmap.h. Not installed.
#pragma once

#include <cstdint>

#include "quiver/compute/simd_level.h"

namespace quiver::compute::internal {

enum class BitOp : uint8_t { kAnd, kOr, kXor, kAndNot };

// dest bits [0, length) = op(left bits [left_offset, ...), right bits
// [right_offset, ...)); `dest` starts at bit 0 (the kernels' outputs do),
// the sources at any bit offset. Bits of `dest` past `length` in its last
// byte are kept. With `count`, *count is set to the number of set bits of
// the result. Returns the level that ran (scalar for ranges too short for
// a vector).
SimdLevel BitmapBinary(BitOp op, const uint8_t* left, int64_t left_offset, const uint8_t* right,
                       int64_t right_offset, int64_t length, uint8_t* dest,
                       int64_t* count = nullptr);

}  // namespace quiver::compute::internal
