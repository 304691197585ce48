// AVX2 NaN tests of is_nan / is_null(nan_is_null) (null_predicates.cc calls
// them only when ActiveSimdLevel() >= kAvx2). Compiled function by function
// with __attribute__((target("avx2"))).
#pragma once

#include <cstdint>

namespace quiver::compute::internal {

// Bit i of `out` (LSB-first from out[0]) = whether v[i] is NaN, for
// i < n; n is a multiple of 64 (whole 64-bit words are stored).
void NanBitsAvx2(const double* v, int64_t n, uint8_t* out);
void NanBitsAvx2(const float* v, int64_t n, uint8_t* out);

}  // namespace quiver::compute::internal
