#include "quiver/parquet/encoding/spaced_simd.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <bit>

#include "quiver/util/bitmap.h"

namespace quiver::parquet::internal {

namespace {

bool CpuHasKernels() {
  __builtin_cpu_init();  // (in case this runs before libgcc's own constructor)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("popcnt");
}

std::atomic<bool>& Enabled() {
  static std::atomic<bool> enabled{CpuHasKernels()};
  return enabled;
}

// Everything from here to pop_options is compiled for AVX-512 F/BW/VL and
// BMI2, and runs only where CpuHasKernels.
// (clang ignores GCC's target pragma: its attribute pragma gives every
// function of the region the target.)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512vl,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,bmi2,popcnt")
#endif

// Slots 64 at a time (one validity word), each word in blocks of 64 bytes
// of slots, kWidth / kLane lanes of kLane bytes (4 or 8) per slot: a
// block's values, as many lanes as its mask has bits, are loaded into the
// lanes the mask names, the others zeroed (VPEXPAND), and the block is
// stored (the last one only in its slots' lanes).
//
// In place (values the tail of `out`): the block of slots [b, b + s) is
// stored after its values are loaded, and every value not yet loaded lies
// at or past slot b + s: with j + c values taken by the end of the block,
// value j + c sits at slot num_slots - valid + j + c, and num_slots -
// valid (the nulls) is at least b + s - (j + c) (the nulls among the
// block's slots and those before it).
template <int kWidth, int kLane>
void ExpandBlocks(const uint8_t* values, const uint8_t* validity, int64_t validity_offset,
                  int64_t num_slots, uint8_t* out) {
  constexpr int kSlots = 64 / kWidth;
  constexpr uint64_t kBlock = (uint64_t{1} << kSlots) - 1;
  int64_t j = 0;  // the next value
  for (int64_t i = 0; i < num_slots; i += 64) {
    const int n = static_cast<int>(std::min<int64_t>(64, num_slots - i));
    const uint64_t bits = bitmap::LoadBits(validity, validity_offset + i, n);
    for (int b = 0; b < n; b += kSlots) {
      const uint64_t slots = (bits >> b) & kBlock;
      uint64_t lanes = slots;
      if constexpr (kWidth == 2 * kLane) {  // two lanes a slot: each bit twice
        const uint64_t spread = _pdep_u64(slots, 0x5555555555555555ull);
        lanes = spread | (spread << 1);
      }
      const uint8_t* from = values + j * kWidth;
      uint8_t* dest = out + (i + b) * kWidth;
      const int keep = b + kSlots <= n ? 64 / kLane : (n - b) * (kWidth / kLane);  // lanes stored
      if constexpr (kLane == 4) {
        const __m512i v = _mm512_maskz_expandloadu_epi32(static_cast<__mmask16>(lanes), from);
        _mm512_mask_storeu_epi32(dest, static_cast<__mmask16>((uint64_t{1} << keep) - 1), v);
      } else {
        const __m512i v = _mm512_maskz_expandloadu_epi64(static_cast<__mmask8>(lanes), from);
        _mm512_mask_storeu_epi64(dest, static_cast<__mmask8>((uint64_t{1} << keep) - 1), v);
      }
      j += std::popcount(slots);
    }
  }
}

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

}  // namespace

bool SpacedSimdEnabled(int64_t width) {
  return (width == 4 || width == 8 || width == 16) && Enabled().load(std::memory_order_relaxed);
}

bool SetSpacedSimd(bool on) {
  return Enabled().exchange(on && CpuHasKernels(), std::memory_order_relaxed);
}

void ExpandSpacedSimd(int64_t width, const uint8_t* values, int64_t /*valid*/, const uint8_t* validity,
                      int64_t validity_offset, int64_t num_slots, uint8_t* out) {
  switch (width) {
    case 4: return ExpandBlocks<4, 4>(values, validity, validity_offset, num_slots, out);
    case 8: return ExpandBlocks<8, 8>(values, validity, validity_offset, num_slots, out);
    case 16: return ExpandBlocks<16, 8>(values, validity, validity_offset, num_slots, out);
    default: return;
  }
}

}  // namespace quiver::parquet::internal
