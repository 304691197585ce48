// The gear hash's first-match loop (gear_roll_internal.h, FirstMatch) with
// AVX-512 VBMI: 8 chains in the lanes of a vector, each hashing its own
// segment of the bytes, beside a scalar chain on the segment before them.
// Compiled for AVX-512 and chosen at run time (chunker.cc); FirstMatch stays
// the reference (chunker_test.cc checks them against each other).
//
// Why it is exact: the hash after byte i is sum over k < 64 of
// table[b(i - k)] << k (mod 2^64), so a chain started from 0 on the 64
// bytes before a segment holds the true hash at the segment's start, as
// long as those bytes were hashed with the same table, which holds up to
// the first match (the only match wanted: the table changes after it).
//
// A round of kGearSimdRound bytes: the scalar chain hashes the first
// kGearSimdScalarBytes from the caller's hash and stops at a match there;
// the 8 lanes hash the 8 segments after it (each first warmed up on the 64
// bytes before it), 8 bytes per lane per block: table entries looked up
// with vpermi2b as 8 byte planes, transposed to 64-bit lanes, rolled with
// 8 steps' prefixes, tested by one unsigned minimum per block. A block with
// a match records the lane's hash before it; the round's first match is in
// the scalar segment or else in the lowest lane with one, found again by
// the scalar loop from that record. Work after the match is lost, as are
// the warm-ups: about a fifth of the vector work at the default mask
// (a match every ~32 KiB), which is why short expected distances between
// matches keep to the scalar loop (GearSimdWorthIt).
#pragma once

#include <cstdint>

namespace quiver::parquet::cdc::internal {

// Bytes per round, and of them the scalar chain's.
inline constexpr int64_t kGearSimdScalarBytes = 896;
inline constexpr int64_t kGearSimdRound = kGearSimdScalarBytes + 8 * 384;

// True if this CPU runs FirstMatchSimd (AVX-512 F/BW/VBMI) and the AVX-512
// kernels are not switched off (gather_simd.h, SetGatherSimd).
bool GearSimdEnabled();

// Whether FirstMatchSimd pays off for n bytes at this threshold: at least a
// round, and matches expected no more often than every 4 KiB (12 mask bits
// or more; measured: 1.25x FirstMatch's speed at 12 bits, 0.95x at 11).
inline bool GearSimdWorthIt(int64_t n, uint64_t threshold) {
  return n >= kGearSimdRound && threshold <= (uint64_t{1} << 52);
}

// FirstMatch(kGearTable[run], p, n, threshold, h), the same result and the
// same h: the index of the first byte of p[0..n) after which the hash
// (rolled from h) is below threshold, or n; h becomes the hash after that
// byte (after all n if none). Needs GearSimdEnabled(). Reads p[0..n) only
// (and prefetches only within them).
int64_t FirstMatchSimd(int run, const uint8_t* p, int64_t n, uint64_t threshold, uint64_t& h);

}  // namespace quiver::parquet::cdc::internal
