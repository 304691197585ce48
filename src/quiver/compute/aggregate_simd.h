// AVX2 (and AVX-512 for 64-bit min/max) loops of the aggregates (aggregate.cc calls them only when
// ActiveSimdLevel() >= kAvx2): each gives exactly the scalar loop's result.
// Compiled function by function with __attribute__((target("avx2"))), as
// parquet/statistics/min_max_simd.cc does.
#pragma once

#include <cstdint>

namespace quiver::compute::internal {

// Values per pairwise-summation block (Arrow C++ and numpy: 16).
inline constexpr int64_t kPairwiseBlock = 16;

// The sums of 4 * groups consecutive blocks of 16 values from v, each added
// in order from 0.0 as doubles (block k's sum to out[k]): four blocks run
// side by side in the four lanes, so every block sum is bit for bit the
// sequential one. (Integers up to 32 bits convert to double exactly;
// int64 and uint64, which AVX2 cannot convert, take the scalar loop, whose
// four interleaved blocks run as fast. float32 sums have their own loops:
// aggregate_float_sum.cc.)
void BlockSumsAvx2(const double* v, int64_t groups, double* out);
void BlockSumsAvx2(const int8_t* v, int64_t groups, double* out);
void BlockSumsAvx2(const int16_t* v, int64_t groups, double* out);
void BlockSumsAvx2(const int32_t* v, int64_t groups, double* out);
void BlockSumsAvx2(const uint8_t* v, int64_t groups, double* out);
void BlockSumsAvx2(const uint16_t* v, int64_t groups, double* out);
void BlockSumsAvx2(const uint32_t* v, int64_t groups, double* out);

// Masked pairwise sums (a chunk with nulls): the sums of `groups` groups
// of 128 slots from v, group g's validity in masks[2g] (slots 0-63) and
// masks[2g + 1] (64-127), a null slot counting as +0.0. Block b (0-7) of
// a group is slots b, b + 8, ..., b + 120 added in order from 0.0 (one
// SIMD lane each); the group's sum is the tree ((b0 + b4) + (b2 + b6)) +
// ((b1 + b5) + (b3 + b7)). The scalar loop in aggregate.cc computes the
// same (MaskedGroupSum), bit for bit. AVX-512 (F, VL, BW): one 8-lane
// vector per group, the validity bytes as load masks.
void MaskedGroupSumsAvx2(const double* v, const uint64_t* masks, int64_t groups, double* out);
void MaskedGroupSumsAvx2(const int8_t* v, const uint64_t* masks, int64_t groups, double* out);
void MaskedGroupSumsAvx2(const int16_t* v, const uint64_t* masks, int64_t groups, double* out);
void MaskedGroupSumsAvx2(const int32_t* v, const uint64_t* masks, int64_t groups, double* out);
void MaskedGroupSumsAvx2(const uint8_t* v, const uint64_t* masks, int64_t groups, double* out);
void MaskedGroupSumsAvx2(const uint16_t* v, const uint64_t* masks, int64_t groups, double* out);
void MaskedGroupSumsAvx2(const uint32_t* v, const uint64_t* masks, int64_t groups, double* out);
void MaskedGroupSumsAvx512(const double* v, const uint64_t* masks, int64_t groups,
                           double* out);
void MaskedGroupSumsAvx512(const int8_t* v, const uint64_t* masks, int64_t groups,
                           double* out);
void MaskedGroupSumsAvx512(const int16_t* v, const uint64_t* masks, int64_t groups,
                           double* out);
void MaskedGroupSumsAvx512(const int32_t* v, const uint64_t* masks, int64_t groups,
                           double* out);
void MaskedGroupSumsAvx512(const uint8_t* v, const uint64_t* masks, int64_t groups,
                           double* out);
void MaskedGroupSumsAvx512(const uint16_t* v, const uint64_t* masks, int64_t groups,
                           double* out);
void MaskedGroupSumsAvx512(const uint32_t* v, const uint64_t* masks, int64_t groups,
                           double* out);

// The sum of n values, wrapping modulo 2^64 (signed values sign-extended).
uint64_t WrappingSumAvx2(const int8_t* v, int64_t n);
uint64_t WrappingSumAvx2(const int16_t* v, int64_t n);
uint64_t WrappingSumAvx2(const int32_t* v, int64_t n);
uint64_t WrappingSumAvx2(const int64_t* v, int64_t n);
uint64_t WrappingSumAvx2(const uint8_t* v, int64_t n);
uint64_t WrappingSumAvx2(const uint16_t* v, int64_t n);
uint64_t WrappingSumAvx2(const uint32_t* v, int64_t n);
uint64_t WrappingSumAvx2(const uint64_t* v, int64_t n);

// *lo = min(*lo, v[0..n)), *hi = max(*hi, v[0..n)).
void MinMaxAvx2(const int8_t* v, int64_t n, int8_t* lo, int8_t* hi);
void MinMaxAvx2(const int16_t* v, int64_t n, int16_t* lo, int16_t* hi);
void MinMaxAvx2(const int32_t* v, int64_t n, int32_t* lo, int32_t* hi);
void MinMaxAvx2(const int64_t* v, int64_t n, int64_t* lo, int64_t* hi);
void MinMaxAvx2(const uint8_t* v, int64_t n, uint8_t* lo, uint8_t* hi);
void MinMaxAvx2(const uint16_t* v, int64_t n, uint16_t* lo, uint16_t* hi);
void MinMaxAvx2(const uint32_t* v, int64_t n, uint32_t* lo, uint32_t* hi);
void MinMaxAvx2(const uint64_t* v, int64_t n, uint64_t* lo, uint64_t* hi);

// The same for 64-bit integers with AVX-512F (which has 64-bit min and max;
// called only at SimdLevel kAvx512).
void MinMaxAvx512(const int64_t* v, int64_t n, int64_t* lo, int64_t* hi);
void MinMaxAvx512(const uint64_t* v, int64_t n, uint64_t* lo, uint64_t* hi);

}  // namespace quiver::compute::internal
