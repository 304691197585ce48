// AVX-512 kernels of ExpandSpaced (spaced_internal.h): values spaced out to
// the slots whose validity bit is set, by VPEXPAND loads (the masked load
// takes the block's values, as many as its mask has bits, and puts them in
// the mask's lanes, zeroing the others): one instruction per 64 bytes of
// slots instead of a load, a mask and a store per slot. Measured on a Zen 4
// (1M slots, 75% valid at random): 4-byte values 8x, 8-byte values 4.5x the
// portable loop's speed. Compiled for AVX-512 and chosen at run time; the
// portable loops stay the reference (decoder_test.cc runs both).
#pragma once

#include <cstdint>

namespace quiver::parquet::internal {

// True if this CPU runs the kernels (AVX-512 F/BW/VL, BMI2), they are not
// switched off, and `width` is 4, 8 or 16 bytes (1 and 2 would need VBMI2's
// byte and word expands; they take the portable loop).
bool SpacedSimdEnabled(int64_t width);
// Switches the kernels off (false) or back on where the CPU has them (true)
// for the whole process; returns the previous setting. For tests.
bool SetSpacedSimd(bool on);

// ExpandSpaced's contract, for a width SpacedSimdEnabled accepts: `valid`
// values of `width` bytes go, in order, to the slots [0, num_slots) whose
// bit (from validity_offset) is set, the other slots are zeroed; values may
// be the tail of `out` (value j at slot num_slots - valid + j). Reads only
// the `valid` values and writes only the num_slots slots.
void ExpandSpacedSimd(int64_t width, const uint8_t* values, int64_t valid, const uint8_t* validity,
                      int64_t validity_offset, int64_t num_slots, uint8_t* out);

}  // namespace quiver::parquet::internal
