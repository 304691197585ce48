// The boundary logic of the content-defined chunker (chunker.cc, docs/cdc.md):
// the gear hash rolled over stretches of bytes to their first match (with
// AVX-512 where it pays, skipping runs of one byte value), and the cut
// decision after a slot. Shared by the required-column loops
// (required_cuts.cc) and the loops with levels (level_cuts.cc). Not
// installed.
#pragma once

#include <cstdint>
#include <vector>

#include "quiver/parquet/cdc/chunker.h"
#include "quiver/parquet/cdc/gear_roll_internal.h"
#include "quiver/parquet/cdc/gear_simd.h"
#include "quiver/parquet/cdc/gear_table.h"

namespace quiver::parquet::cdc::internal {

struct Limits {
  int64_t min_size;
  int64_t max_size;
  // A hash value h matches iff h < threshold, i.e. (h & mask) == 0.
  uint64_t threshold;
};

// internal::FirstMatch with table kGearTable[run], with AVX-512 where the
// CPU has it and the run is long enough to pay off (gear_simd.h).
inline int64_t FirstMatchAnyWay(int run, const uint8_t* p, int64_t n, uint64_t threshold, uint64_t& h) {
  if (internal::GearSimdWorthIt(n, threshold) && internal::GearSimdEnabled()) {
    return internal::FirstMatchSimd(run, p, n, threshold, h);
  }
  return internal::FirstMatch(kGearTable[run], p, n, threshold, h);
}

// Whether p[0..len) are all the byte b.
inline bool AllBytes(const uint8_t* p, int64_t len, uint8_t b) {
  const uint64_t pattern = uint64_t{b} * 0x0101010101010101ULL;
  int64_t k = 0;
  for (; k + 64 <= len; k += 64) {
    uint64_t differ = 0;
    for (int j = 0; j < 8; ++j) differ |= bit_util::SafeLoad<uint64_t>(p + k + 8 * j) ^ pattern;
    if (differ != 0) return false;
  }
  for (; k < len; ++k) {
    if (p[k] != b) return false;
  }
  return true;
}

// FirstMatchAnyWay, skipping stretches of one byte value where no hash can
// match: after 64 bytes b in a row every bit of the hash from before them
// has been shifted out, and the hash stays at the fixed point
// sum_k table[b] << k = -table[b] (mod 2^64) for as long as b repeats. So
// in a block of bytes b, if -table[b] >= threshold, no position from the
// 64th on matches, and the block costs at most its first 64 bytes' hashing
// (none when the hash is at the fixed point already). The null slots of a
// sparse or all-null column are such stretches (their definition levels,
// zero bytes). Blocks of kConstantBlock bytes from where each stretch
// starts; the same result and the same h as FirstMatchAnyWay over the
// whole.
inline constexpr int64_t kConstantBlock = 256;
// Blocks checked ahead of the hashing at most: the check past the first
// match is wasted, and scanning to the end of a long input on every call
// (a required string column's window of ~256 KiB, a match every ~32 KiB,
// before ContiguousCuts stopped using this search) took two thirds as long
// as the hashing itself. Still bounds it for long values hashed in place
// and for RollOn.
inline constexpr int64_t kLookAheadBytes = 4096;
inline int64_t FindFirstMatch(int run, const uint8_t* p, int64_t n, uint64_t threshold, uint64_t& h) {
  const uint64_t* table = kGearTable[run];
  int64_t i = 0;
  while (i < n) {
    const int64_t len = std::min(kConstantBlock, n - i);
    const uint8_t b = p[i];
    const uint64_t fixed = uint64_t{0} - table[b];
    if (fixed >= threshold && AllBytes(p + i, len, b)) {
      if (h != fixed) {
        const int64_t head = std::min<int64_t>(64, len);
        const int64_t m = internal::FirstMatch(table, p + i, head, threshold, h);
        if (m < head) return i + m;
        if (head < 64) {  // (the block ends before the hash reaches the fixed point)
          i += head;
          continue;
        }
      }
      i += len;  // (h == fixed, and stays so)
      continue;
    }
    // Up to the next block of one byte value that cannot match, the end,
    // or kLookAheadBytes.
    int64_t end = i + len;
    const int64_t ahead = std::min(n, i + kLookAheadBytes);
    while (end < ahead) {
      const int64_t next = std::min(kConstantBlock, n - end);
      const uint8_t c = p[end];
      if (uint64_t{0} - table[c] >= threshold && AllBytes(p + end, next, c)) break;
      end += next;
    }
    const int64_t m = FirstMatchAnyWay(run, p + i, end - i, threshold, h);
    if (m < end - i) return i + m;
    i = end;
  }
  return n;
}

// Rolls n bytes into h with table kGearTable[run] (the rest of a slot or
// level after its match, where further matches do not count): long runs
// (a long value) by the first-match loop with a threshold no hash is below,
// which can use the vector kernel; short ones by the plain loop.
inline void RollOn(int run, const uint8_t* p, int64_t n, uint64_t& h) {
  if (n >= internal::kGearSimdRound) {
    FindFirstMatch(run, p, n, /*threshold=*/0, h);
  } else {
    RollBytes(kGearTable[run], p, n, /*threshold=*/0, h);
  }
}

// The cut decision after a slot (docs/cdc.md, "Boundary check"); true if a
// chunk ends here (the state is then reset for the next one).
inline bool Decide(const Limits& limits, ChunkerState& s) {
  if (s.matched) {
    s.matched = false;
    if (++s.run == 8) {
      s.run = 0;
      s.size = 0;
      return true;
    }
  }
  if (s.size >= limits.max_size) {
    s.size = 0;
    return true;
  }
  return false;
}

// The cuts of levels [begin, end) of a required, not nested column (one
// value per level), relative to begin's slot.
Status FindRequiredCuts(const LeafLevels& levels, int64_t begin, int64_t end, const Limits& limits,
                        ChunkerState& s, std::vector<int64_t>* cuts);
// The cuts of levels [begin, end) of a column with definition levels (and
// repetition levels if `repeated`).
Status FindLevelCuts(const LeafLevels& levels, int64_t begin, int64_t end, bool repeated,
                     const Limits& limits, ChunkerState& s, std::vector<int64_t>* cuts,
                     Scratch* scratch);

}  // namespace quiver::parquet::cdc::internal
