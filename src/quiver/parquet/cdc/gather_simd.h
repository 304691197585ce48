// AVX-512 kernels of the chunker's loops for columns with levels
// (level_cuts.cc): gathering the hashed bytes of a stretch of levels
// (GatherStretch, whose portable loop costs ~30 instructions per level;
// these take ~25 per 8-16 levels) and counting the min-size skip
// (LevelCuts). Compiled for AVX-512 and chosen at run time; the portable
// loops stay the reference (chunker_test.cc runs the property tests both
// ways).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace quiver::parquet::cdc::internal {

// True if this CPU runs GatherRepeated and SkipLevels (AVX-512 F/BW/VL,
// BMI2), resp. GatherEverySlot (also AVX-512 VBMI2), and the kernels are
// not switched off.
bool GatherSimdEnabled();
bool GatherSimdVbmi2Enabled();
// Switches the kernels off (false) or back on where the CPU has them (true)
// for the whole process; returns the previous setting. For tests.
bool SetGatherSimd(bool on);

// Where the next leaf slot is: `slot` in ranges[range] (level_cuts.cc's
// SlotCursor). Leaf slot ranges [first, second) are visited in order; taking
// the last slot of a range moves to the first of the next; the last range
// runs on (as do the slots when there are no ranges).
struct SlotPosition {
  const std::pair<int64_t, int64_t>* ranges;
  size_t num_ranges;
  size_t range;
  int64_t slot;
};

// Gathers levels [0, count) of a repeated column whose present values are
// W bytes wide (W = 4 or 8), as the portable loop does: per level its def
// and rep levels as two little-endian int16, then the value's W bytes if
// def == max_def. Levels with def >= slot_def take the next leaf slot (*at
// moves on); the value of a present level is values[its slot]. Appends to
// buf from *pos.
//
// Works in blocks of 16 levels and stops before a block that could bring
// *pos to pos_limit or run past count; returns the levels gathered (a
// multiple of 16). Reads exactly the slots taken; writes up to 64 bytes
// past the new *pos.
template <int W>
int64_t GatherRepeated(const int16_t* def, const int16_t* rep, int64_t count, int16_t max_def,
                       int16_t slot_def, const uint8_t* values, SlotPosition* at, uint8_t* buf,
                       int64_t* pos, int64_t pos_limit);

// The min-size skip of columns with levels (level_cuts.cc, LevelCuts): whole
// blocks of 64 levels of [0, count) while their bytes (level_bytes per
// level, plus width per level whose def level is max_def) stay below
// `room`. Adds those bytes to *size and the levels with def >= slot_def
// (which take a leaf slot) to *took; returns the levels skipped (a
// multiple of 64). Needs GatherSimdEnabled().
int64_t SkipLevels(const int16_t* def, int64_t count, int16_t max_def, int16_t slot_def,
                   int64_t level_bytes, int64_t width, int64_t room, int64_t* size,
                   int64_t* took);

// Gathers levels [0, count) of a nullable, non-repeated column of W-byte
// values (W = 2, 4 or 8) whose level k's slot is values[k] (read whether
// or not the level takes it: LevelCuts's EverySlotBase): level k's def
// level as a little-endian int16, then values[k]'s W bytes if its def
// level is max_def. Appends to buf from *pos, in blocks of 16 levels (8 for
// W = 8); stops before a block that could bring *pos to pos_limit or run
// past count; returns the levels gathered. Reads the values of exactly
// those levels; writes up to 64 bytes past the new *pos.
template <int W>
int64_t GatherEverySlot(const int16_t* def, int64_t count, int16_t max_def, const uint8_t* values,
                        uint8_t* buf, int64_t* pos, int64_t pos_limit);

}  // namespace quiver::parquet::cdc::internal
