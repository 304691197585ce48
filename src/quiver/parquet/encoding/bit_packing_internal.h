// Bit packing of blocks of 32 unsigned values, LSB first: value i occupies
// bits [i * w, (i + 1) * w) of the block, bit 0 being the least significant
// bit of byte 0. This is the packing of the RLE/bit-packed hybrid and of
// DELTA_BINARY_PACKED miniblocks (apache/parquet-format Encodings.md, note 1
// of "Run Length Encoding / Bit-Packing Hybrid").
//
// A block of 32 values of width w is exactly 4 * w bytes, i.e. w 32-bit
// little-endian words, and a value of width <= 32 (resp. <= 64) straddles at
// most 2 (resp. 3) of them. Each width has its own fully unrolled routine
// (a template instantiated for every width and picked from a table), which
// loads exactly the block's words, so the compiler turns every shift and mask
// into a constant (Lemire and Boytsov, "Decoding billions of integers per
// second through vectorization", 2012). Nothing outside the 4 * w bytes is
// read or written.
#pragma once

#include <cstdint>

namespace quiver::parquet::internal {

// Unpacks 32 values of `bit_width` (0..32) bits from in[0, 4 * bit_width).
void Unpack32(const uint8_t* in, int bit_width, uint32_t* out);
// Unpacks `num_blocks` consecutive blocks of 32 values of `bit_width`
// (0..32) bits from in[0, 4 * bit_width * num_blocks) to out[0, 32 *
// num_blocks), as Unpack32 block by block. `available` (>= the blocks'
// bytes) is how many bytes from `in` may be read: the AVX2 routine
// (bit_packing_simd.cc, widths 1..25, chosen at run time) reads up to
// floor(4 * bit_width / 8) + 16 bytes past a group of eight values' start,
// and unpacks only the groups whose reads stay inside it.
void UnpackBlocks32(const uint8_t* in, int64_t available, int bit_width, int64_t num_blocks,
                    uint32_t* out);
// Switches UnpackBlocks32's AVX2 routine off (false) or back on where the
// CPU has AVX2 (true) for the whole process; returns the previous setting.
// For tests.
bool SetUnpackSimd(bool on);

// Unpacks 32 values of `bit_width` (0..64) bits from in[0, 4 * bit_width).
void Unpack64(const uint8_t* in, int bit_width, uint64_t* out);

// Packs the low `bit_width` (0..32) bits of 32 values into out[0, 4 * bit_width).
void Pack32(const uint32_t* in, int bit_width, uint8_t* out);
// Packs the low `bit_width` (0..64) bits of 32 values into out[0, 4 * bit_width).
void Pack64(const uint64_t* in, int bit_width, uint8_t* out);

}  // namespace quiver::parquet::internal
