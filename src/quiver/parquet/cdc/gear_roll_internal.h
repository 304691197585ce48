// Rolling bytes into the gear hash of content-defined chunking (docs/cdc.md,
// "Gear hash"): h = (h << 1) + table[b] per byte. Used by chunker.cc; in a
// header so that chunker_test.cc can check the variants against each other.
//
// Each function rolls its bytes into `h` and returns a value that is
// non-zero iff some byte left h below `threshold`. With the mask made of the
// top bits of a word (what CdcMask makes), (h & mask) == 0 is exactly
// h < threshold with threshold = 2^(64 - mask bits), so a match is one
// unsigned compare. Only whether a slot matched matters to the chunker (its
// run advances at most once per slot), not where or how often.
//
// Speed, measured on this project's machines (AMD EPYC, g++ 12 -O2;
// bench/chunker_benchmark.cc with interleaved runs, and micro-benchmarks of
// these loops): the hash step compiles to one `lea h, [t + h*2]`, a 1-cycle
// instruction, so the chain through h is not what bounds the loop; the
// instructions per byte are (two loads, the lea, the compare). Hence:
//   - short fixed-width values (RollFixed): a running minimum compared once
//     (int64 column: 4.0 vs 3.3 GB/s with a count, medians of 12 runs);
//   - long runs (RollBytes): a count of compares in two accumulators (random
//     strings of 0..399 bytes, micro-benchmark: 1.8 GB/s of hashed bytes vs
//     0.9 GB/s with a running minimum, whose cmov chain then bounds it);
//   - not the per-word split chain (RollWordSplit) that docs/cdc.md
//     suggests: it takes the chain through h down to one shift-add per word
//     but adds a shift and an add per byte, which costs more than it saves
//     here (chunker benchmark, medians of 10 interleaved runs: int64 5.1 ->
//     3.9 GB/s, strings 5.0 -> 4.0 GB/s). It is kept, tested bit-identical
//     (chunker_test.cc), for machines where a shift-add step costs more
//     than a cycle.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace quiver::parquet::cdc::internal {

inline uint64_t RollByte(const uint64_t* table, uint8_t b, uint64_t threshold, uint64_t& h) {
  h = (h << 1) + table[b];
  return h < threshold;
}

// A value of W bytes (W small): non-zero (1) iff the smallest hash value
// after any of its bytes is below threshold.
template <int W>
inline uint64_t RollFixed(const uint64_t* table, const uint8_t* p, uint64_t threshold,
                          uint64_t& h) {
  uint64_t lo = std::numeric_limits<uint64_t>::max();
#pragma GCC unroll 8
  for (int j = 0; j < W; ++j) {
    h = (h << 1) + table[p[j]];
    lo = std::min(lo, h);
  }
  return lo < threshold;
}

// 8 bytes with the hash chain split per word: after byte j,
// H_j = (H << (j + 1)) + p_j where p_j rolls the word's own bytes from zero
// (p_0 = table[b_0], p_j = (p_{j-1} << 1) + table[b_j]), so the p_j do not
// depend on H and the chain through H is one shift-add per word. All 8
// positions are tested; returns the number of matches (the same h and the
// same count as 8 calls of RollByte).
inline uint64_t RollWordSplit(const uint64_t* table, const uint8_t* p, uint64_t threshold,
                              uint64_t& h) {
  uint64_t prefix[8];
  prefix[0] = table[p[0]];
#pragma GCC unroll 8
  for (int j = 1; j < 8; ++j) prefix[j] = (prefix[j - 1] << 1) + table[p[j]];
  uint64_t matches = 0;
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) matches += ((h << (j + 1)) + prefix[j]) < threshold;
  h = (h << 8) + prefix[7];
  return matches;
}

// `n` bytes: the number of matches.
inline uint64_t RollBytes(const uint64_t* table, const uint8_t* p, int64_t n, uint64_t threshold,
                          uint64_t& h) {
  // Two counters, so that consecutive compares do not wait on each other.
  uint64_t even = 0, odd = 0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
#pragma GCC unroll 4
    for (int j = 0; j < 8; j += 2) {
      even += RollByte(table, p[i + j], threshold, h);
      odd += RollByte(table, p[i + j + 1], threshold, h);
    }
  }
  for (; i < n; ++i) even += RollByte(table, p[i], threshold, h);
  return even + odd;
}

// --- Finding the first match in a contiguous run of bytes ---------------------
//
// What the chunker needs from a long run of bytes hashed with one table (a
// required column's values buffer or binary data buffer, from where hashing
// resumes up to where max_chunk_size is reached; or the bytes of a stretch
// of levels gathered into one buffer) is only where the first match is: the
// table changes after it (the run advances), so nothing after it can be
// computed yet. A branch per byte that is almost never taken costs less
// than counting or a running minimum (cmp and jb fuse into one macro-op:
// four per byte with the two loads and the lea), and stopping at the first
// match is then free.
//
// Measured here (micro-benchmark, 32 MiB of random bytes, no match, GB/s
// of hashed bytes): this loop unrolled by 8, 3.45; the same without
// unrolling, 1.8; RollFixed<8>'s running minimum, 2.3; 4 chains
// interleaved over 4 segments of the run (each but the first warmed up on
// the 64 bytes before it, which is exact: after 64 bytes the hash has
// shifted out all earlier state), 2.2, with 8 bytes loaded per word and
// split by shifts, 2.9; AVX-512 with 8 chains in lanes and a gather per
// byte, 1.7. The single chain of one 1-cycle lea per byte is not what
// bounds the loop on this machine; the instructions per byte are. What does
// beat it is in gear_simd.h: table entries looked up without gathers, 64 at
// a time, for 8 lanes on segments of their own, beside this loop on the
// segment before them (1.7-1.8x on the machine of 2026-12-01, a Zen 5).

// The index of the first byte of p[0..n) after which the hash (rolled from
// h) is below threshold, or n if there is none; h becomes the hash after
// that byte (after all n bytes if none).
inline int64_t FirstMatch(const uint64_t* table, const uint8_t* p, int64_t n,
                          uint64_t threshold, uint64_t& h) {
  uint64_t x = h;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
      x = (x << 1) + table[p[i + j]];
      if (x < threshold) [[unlikely]] {
        h = x;
        return i + j;
      }
    }
  }
  for (; i < n; ++i) {
    x = (x << 1) + table[p[i]];
    if (x < threshold) [[unlikely]] {
      h = x;
      return i;
    }
  }
  h = x;
  return n;
}

// A def or rep level, as 2 little-endian bytes: the number of matches.
inline uint64_t RollLevel(const uint64_t* table, int16_t level, uint64_t threshold, uint64_t& h) {
  const auto u = static_cast<uint16_t>(level);
  return RollByte(table, static_cast<uint8_t>(u & 0xFF), threshold, h) +
         RollByte(table, static_cast<uint8_t>(u >> 8), threshold, h);
}

}  // namespace quiver::parquet::cdc::internal
