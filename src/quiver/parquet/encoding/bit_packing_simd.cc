// AVX2 unpacking of whole blocks of 32 values of width 1..25
// (bit_packing_internal.h, UnpackBlocks32). Eight values of width w are
// exactly w bytes, so one pattern repeats every eight values: the first four
// lie in the 16 bytes from the group's start, the last four in the 16 bytes
// from byte floor(4w / 8); both halves go into one register (one 128-bit
// load each), a byte shuffle puts the 4 bytes holding each value in its
// 32-bit lane, a per-lane shift (VPSRLVD) and a mask finish it: about seven
// instructions per eight values, where the scalar routine takes about four
// per value. A value of width w <= 25 starting at any bit of a byte lies
// within 4 bytes (7 + 25 = 32), and the last byte a group needs is within
// its 16-byte halves (floor((4 + 3w) / 8) + 3 <= 15), hence the limit; wider
// values (dictionaries past 2^25 entries, rare) take the scalar routine.
// The halves read up to floor(4w / 8) + 16 bytes from a group's start, past
// the w it needs: groups are unpacked here only while those bytes are inside
// the caller's buffer, the rest by the scalar routine.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <utility>

#include "quiver/parquet/encoding/bit_packing_internal.h"

namespace quiver::parquet::internal {

namespace {

constexpr int kMaxSimdWidth = 25;

bool CpuHasAvx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"); }

std::atomic<bool>& SimdSwitch() {
  static std::atomic<bool> on{CpuHasAvx2()};
  return on;
}

// The shuffle and shift of lane j (value j of a group of eight).
template <int W>
struct GroupPattern {
  std::array<uint8_t, 32> shuffle{};
  std::array<uint32_t, 8> shift{};
  constexpr GroupPattern() {
    constexpr int half = (4 * W) / 8;  // byte where the second half starts
    for (int j = 0; j < 8; ++j) {
      const int base = j < 4 ? 0 : half;
      const int bit = j * W - 8 * base;  // within its half
      for (int b = 0; b < 4; ++b) {
        shuffle[static_cast<size_t>((j < 4 ? 0 : 16) + (j % 4) * 4 + b)] =
            static_cast<uint8_t>(bit / 8 + b);
      }
      shift[static_cast<size_t>(j)] = static_cast<uint32_t>(bit % 8);
    }
  }
};

// (clang ignores GCC's target pragma: its attribute pragma gives every
// function of the region the target.)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi2")
#endif

template <int W>
void UnpackGroupsAvx2(const uint8_t* in, int64_t groups, uint32_t* out) {
  static constexpr GroupPattern<W> kPattern{};
  constexpr int kHalf = (4 * W) / 8;
  const __m256i shuffle = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kPattern.shuffle.data()));
  const __m256i shift = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kPattern.shift.data()));
  const __m256i mask = _mm256_set1_epi32(static_cast<int>((uint32_t{1} << W) - 1));
  for (int64_t g = 0; g < groups; ++g) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + kHalf));
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    v = _mm256_shuffle_epi8(v, shuffle);
    v = _mm256_srlv_epi32(v, shift);
    v = _mm256_and_si256(v, mask);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), v);
    in += W;
    out += 8;
  }
}

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

using GroupsFn = void (*)(const uint8_t*, int64_t, uint32_t*);

template <size_t... W>
constexpr std::array<GroupsFn, sizeof...(W)> MakeGroups(std::index_sequence<W...>) {
  // Index 0 is never called (width 0 takes the scalar routine).
  return {(W == 0 ? nullptr : &UnpackGroupsAvx2<static_cast<int>(W == 0 ? 1 : W)>)...};
}

constexpr auto kGroups = MakeGroups(std::make_index_sequence<kMaxSimdWidth + 1>{});

}  // namespace

bool SetUnpackSimd(bool on) { return SimdSwitch().exchange(on && CpuHasAvx2()); }

void UnpackBlocks32(const uint8_t* in, int64_t available, int bit_width, int64_t num_blocks,
                    uint32_t* out) {
  const int64_t block_bytes = 4 * int64_t{bit_width};
  int64_t done = 0;
  if (bit_width >= 1 && bit_width <= kMaxSimdWidth &&
      SimdSwitch().load(std::memory_order_relaxed)) {
    // Group g reads [g * w, g * w + floor(4w / 8) + 16).
    const int64_t reach = (4 * int64_t{bit_width}) / 8 + 16;
    if (available >= reach) {
      const int64_t safe_groups = (available - reach) / bit_width + 1;
      done = std::min(num_blocks, safe_groups / 4);
      if (done > 0) kGroups[static_cast<size_t>(bit_width)](in, done * 4, out);
    }
  }
  for (int64_t b = done; b < num_blocks; ++b) {
    Unpack32(in + b * block_bytes, bit_width, out + b * 32);
  }
}

}  // namespace quiver::parquet::internal
