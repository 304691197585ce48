// The vector width of ArrayEquals's value loops (compare.cc). Not
// installed.
#pragma once

namespace quiver::internal {

// Bytes per vector in the loops comparing fixed-width values 64 slots at a
// time: 64 (AVX-512), 32 (AVX2) or 16 (SSE2, the x86-64 baseline), the
// widest the CPU has, capped by QUIVER_SIMD_LEVEL (scalar: 16, avx2: 32).
int CompareVectorBytes();

// Tests: runs the loops at `bytes` (16, 32 or 64; 0 restores the detected
// width) in every thread; false, changing nothing, when the CPU lacks it.
bool SetCompareVectorBytesForTesting(int bytes);

}  // namespace quiver::internal
