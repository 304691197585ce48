#include "quiver/parquet/cdc/gather_simd.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <limits>
#include <type_traits>

// g++ 12 warns that the intrinsics' own "undefined" source registers may be
// used uninitialized (they are not: the masks zero those lanes).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace quiver::parquet::cdc::internal {

namespace {

bool CpuHasKernels() {
  // (libgcc's check includes the OS saving the AVX-512 state; the init is
  // in case this runs before libgcc's own constructor.)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("popcnt");
}

bool CpuHasVbmi2() { return CpuHasKernels() && __builtin_cpu_supports("avx512vbmi2"); }

std::atomic<bool>& Enabled() {
  static std::atomic<bool> enabled{CpuHasKernels()};
  return enabled;
}

}  // namespace

bool GatherSimdEnabled() { return Enabled().load(std::memory_order_relaxed); }

bool GatherSimdVbmi2Enabled() {
  static const bool vbmi2 = CpuHasVbmi2();
  return vbmi2 && GatherSimdEnabled();
}

bool SetGatherSimd(bool on) {
  return Enabled().exchange(on && CpuHasKernels(), std::memory_order_relaxed);
}

// Blocks of records of `units` units each (a unit: the word or dword a
// kernel compresses): bit r * units + offset for every record r < records.
// With offset 0, every record's first unit; with offset 1 (times a run of
// ones), its value units.
constexpr uint64_t RecordBits(int records, int units, int offset) {
  uint64_t bits = 0;
  for (int r = 0; r < records; ++r) bits |= uint64_t{1} << (r * units + offset);
  return bits;
}

// The kernels are compiled for AVX-512 (and run only where GatherSimdEnabled),
// function by function: a target attribute on each function (lambdas and
// helpers included) that uses the intrinsics, which g++ and clang both
// honour (clang has no `#pragma GCC target`). g++ ignores a target attribute
// on the definition of a template declared without one (gather_simd.h), so
// the templates declared there forward to kernels defined here.
#define QUIVER_GATHER_KERNEL __attribute__((target("avx512f,avx512bw,avx512vl,bmi2,popcnt")))
#define QUIVER_GATHER_VBMI2_KERNEL \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2,bmi2,popcnt")))

namespace {

// Leaf slot ranges, walked in order (SlotPosition).
class RangeWalk {
 public:
  // (With no ranges, the slots run on from at.slot: as in a last range.)
  explicit QUIVER_GATHER_KERNEL RangeWalk(const SlotPosition& at)
      : ranges_(at.ranges),
        last_(at.num_ranges > 0 ? at.num_ranges - 1 : 0),
        range_(at.range),
        slot_(at.slot) {}

  // Calls fn(first slot, number of slots) for the next `n` slots taken, one
  // call per range reached, and moves past them.
  template <typename Fn>
  QUIVER_GATHER_KERNEL void Take(int64_t n, Fn&& fn) {
    while (n > 0) {
      const int64_t end = range_ < last_ ? ranges_[range_].second
                                         : std::numeric_limits<int64_t>::max();
      const int64_t here = std::min(n, end - slot_);
      fn(slot_, here);
      n -= here;
      slot_ += here;
      if (slot_ == end) {  // (an empty range is passed over)
        ++range_;
        slot_ = ranges_[range_].first;
      }
    }
  }
  // Slots left in the current range (unbounded in the last one).
  QUIVER_GATHER_KERNEL int64_t Room() const {
    return range_ < last_ ? ranges_[range_].second - slot_ : std::numeric_limits<int64_t>::max();
  }
  QUIVER_GATHER_KERNEL int64_t slot() const { return slot_; }
  QUIVER_GATHER_KERNEL void Store(SlotPosition* at) const {
    at->range = range_;
    at->slot = slot_;
  }

 private:
  const std::pair<int64_t, int64_t>* ranges_;
  size_t last_;
  size_t range_;
  int64_t slot_;
};

// The layout of a block of GatherRepeated<W>: 16 levels of kDwords dwords
// each (def | rep << 16, then W / 4 value dwords), in kDwords vectors of 16.
// Output vector c takes level dwords from the first source (the 16
// levels) and value dwords from the second, whose dword 0 is value dword
// Base(c) of the block (values of level j: dwords j * W / 4 ...).
template <int W>
struct RepeatedBlock {
  static constexpr int kDwords = 1 + W / 4;
  static constexpr int Base(int c) { return W == 4 ? 0 : 8 * c; }
  static constexpr std::array<uint32_t, 16 * kDwords> Index() {
    std::array<uint32_t, 16 * kDwords> index{};
    for (int w = 0; w < 16 * kDwords; ++w) {
      const int level = w / kDwords, part = w % kDwords;
      index[static_cast<size_t>(w)] = static_cast<uint32_t>(
          part == 0 ? level : 16 + level * (W / 4) + part - 1 - Base(w / 16));
    }
    return index;
  }
  static constexpr uint64_t kLevelDwords = RecordBits(16, kDwords, 0);
  static constexpr uint64_t kFirstValueDwords = RecordBits(16, kDwords, 1);
  static constexpr uint64_t kValueRun = (uint64_t{1} << (W / 4)) - 1;
  alignas(64) static constexpr std::array<uint32_t, 16 * kDwords> kIndex = Index();
};

// The first n (<= 64 / W) W-byte values at `from`, read with a mask.
template <int W>
inline QUIVER_GATHER_KERNEL __m512i LoadFirst(int64_t n, const void* from) {
  if constexpr (W == 4) {
    return _mm512_maskz_loadu_epi32(
        static_cast<__mmask16>(_bzhi_u32(0xFFFFu, static_cast<unsigned>(n))), from);
  } else {
    return _mm512_maskz_loadu_epi64(
        static_cast<__mmask8>(_bzhi_u32(0xFFu, static_cast<unsigned>(n))), from);
  }
}

template <int W>
QUIVER_GATHER_KERNEL int64_t GatherRepeatedKernel(const int16_t* def, const int16_t* rep,
                                                  int64_t count, int16_t max_def,
                                                  int16_t slot_def, const uint8_t* values,
                                                  SlotPosition* at, uint8_t* buf, int64_t* pos,
                                                  int64_t pos_limit) {
  static_assert(W == 4 || W == 8);
  using Value = std::conditional_t<W == 4, int32_t, int64_t>;
  using Block = RepeatedBlock<W>;
  // A block of 16 levels gathers at most 16 * (4 + W) bytes.
  constexpr int64_t kBlock = 16;
  constexpr int64_t kMaxBytes = kBlock * (4 + W);
  // Values per vector.
  constexpr int64_t kLanes = 64 / W;
  // Levels per pass (the values a pass takes are found first, below).
  constexpr int64_t kPass = 1024;
  alignas(64) Value dense[kPass + kBlock];
  __m512i index[Block::kDwords];
  for (int c = 0; c < Block::kDwords; ++c) {
    index[c] = _mm512_load_si512(Block::kIndex.data() + 16 * c);
  }
  const __m256i max_defs = _mm256_set1_epi16(max_def);
  const __m256i slot_defs = _mm256_set1_epi16(slot_def);
  const auto* slot_values = reinterpret_cast<const Value*>(values);
  int64_t p = *pos;
  int64_t k = 0;
  while (k + kBlock <= count && p + kMaxBytes < pos_limit) {
    // The blocks of this pass, and the slots they take.
    const int64_t pass_end = k + std::min(kPass, (count - k) / kBlock * kBlock);
    int64_t num_taken = 0;
    for (int64_t j = k; j < pass_end; j += kBlock) {
      const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(def + j));
      num_taken += _mm_popcnt_u32(_mm256_cmpge_epi16_mask(d, slot_defs));
    }
    // Their values, in the order the levels take them: where the current
    // range holds them all (long ranges), the leaf's values as they are;
    // else a copy, range by range (null lists that keep child values make
    // ranges of a few slots), so that the blocks need no range logic.
    const Value* taken_values;
    RangeWalk walk(*at);
    const bool copied = num_taken > walk.Room();
    if (!copied) {
      taken_values = slot_values + walk.slot();
    } else {
      Value* out = dense;
      walk.Take(num_taken, [&](int64_t first, int64_t n) QUIVER_GATHER_KERNEL {
        const Value* from = slot_values + first;
        for (; n > kLanes; n -= kLanes, from += kLanes, out += kLanes) {
          _mm512_storeu_si512(out, _mm512_loadu_si512(from));
        }
        _mm512_storeu_si512(out, LoadFirst<W>(n, from));
        out += n;
      });
      taken_values = dense;
    }
    int64_t t = 0;  // values taken so far in this pass
    for (; k < pass_end && p + kMaxBytes < pos_limit; k += kBlock) {
      const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(def + k));
      const __m256i r = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rep + k));
      const unsigned present = _mm256_cmpeq_epi16_mask(d, max_defs);
      const unsigned takes = _mm256_cmpge_epi16_mask(d, slot_defs);
      // def | rep << 16 per level.
      const __m512i level = _mm512_or_si512(
          _mm512_cvtepu16_epi32(d), _mm512_slli_epi32(_mm512_cvtepu16_epi32(r), 16));
      // The next values to the levels that take a slot; source c of the
      // output vectors (RepeatedBlock).
      __m512i source[Block::kDwords];
      if constexpr (W == 4) {
        const unsigned num = _mm_popcnt_u32(takes);
        source[0] = _mm512_maskz_expand_epi32(static_cast<__mmask16>(takes),
                                              LoadFirst<W>(num, taken_values + t));
        source[1] = source[0];
        t += num;
      } else {
        const unsigned num_lo = _mm_popcnt_u32(takes & 0xFFu);
        const unsigned num_hi = _mm_popcnt_u32(takes >> 8);
        const __m512i lo = _mm512_maskz_expand_epi64(static_cast<__mmask8>(takes),
                                                     LoadFirst<W>(num_lo, taken_values + t));
        const __m512i hi = _mm512_maskz_expand_epi64(
            static_cast<__mmask8>(takes >> 8), LoadFirst<W>(num_hi, taken_values + t + num_lo));
        source[0] = lo;
        source[1] = _mm512_alignr_epi32(hi, lo, 8);  // values of levels 4..11
        source[2] = hi;
        t += num_lo + num_hi;
      }
      // Keep every level dword, and the value dwords of present levels.
      const uint64_t keep =
          Block::kLevelDwords | _pdep_u64(present, Block::kFirstValueDwords) * Block::kValueRun;
      for (int c = 0; c < Block::kDwords; ++c) {
        const __m512i out = _mm512_permutex2var_epi32(level, index[c], source[c]);
        const auto m = static_cast<__mmask16>(keep >> (16 * c));
        _mm512_storeu_si512(buf + p, _mm512_maskz_compress_epi32(m, out));
        p += 4 * _mm_popcnt_u32(m);
      }
    }
    // The slot after the last one taken (walked again if pos_limit
    // stopped the pass before the slots copied).
    if (!copied) {
      walk.Take(t, [](int64_t, int64_t) {});
    } else if (t < num_taken) {
      walk = RangeWalk(*at);
      walk.Take(t, [](int64_t, int64_t) {});
    }
    walk.Store(at);
  }
  *pos = p;
  return k;
}

}  // namespace

template <int W>
int64_t GatherRepeated(const int16_t* def, const int16_t* rep, int64_t count, int16_t max_def,
                       int16_t slot_def, const uint8_t* values, SlotPosition* at, uint8_t* buf,
                       int64_t* pos, int64_t pos_limit) {
  return GatherRepeatedKernel<W>(def, rep, count, max_def, slot_def, values, at, buf, pos,
                                 pos_limit);
}

template int64_t GatherRepeated<4>(const int16_t*, const int16_t*, int64_t, int16_t, int16_t,
                                   const uint8_t*, SlotPosition*, uint8_t*, int64_t*, int64_t);
template int64_t GatherRepeated<8>(const int16_t*, const int16_t*, int64_t, int16_t, int16_t,
                                   const uint8_t*, SlotPosition*, uint8_t*, int64_t*, int64_t);

QUIVER_GATHER_KERNEL int64_t SkipLevels(const int16_t* def, int64_t count, int16_t max_def,
                                      int16_t slot_def, int64_t level_bytes, int64_t width,
                                      int64_t room, int64_t* size, int64_t* took) {
  constexpr int64_t kBlock = 64;
  const __m512i max_defs = _mm512_set1_epi16(max_def);
  const __m512i slot_defs = _mm512_set1_epi16(slot_def);
  int64_t bytes = 0;
  int64_t taken = 0;
  int64_t k = 0;
  for (; k + kBlock <= count; k += kBlock) {
    const __m512i a = _mm512_loadu_si512(def + k);
    const __m512i b = _mm512_loadu_si512(def + k + 32);
    const int64_t present =
        _mm_popcnt_u32(_mm512_cmpeq_epi16_mask(a, max_defs)) +
        _mm_popcnt_u32(_mm512_cmpeq_epi16_mask(b, max_defs));
    const int64_t add = kBlock * level_bytes + present * width;
    if (bytes + add >= room) break;
    bytes += add;
    taken += _mm_popcnt_u32(_mm512_cmpge_epi16_mask(a, slot_defs)) +
             _mm_popcnt_u32(_mm512_cmpge_epi16_mask(b, slot_defs));
  }
  *size += bytes;
  *took += taken;
  return k;
}

namespace {

// The layout of a block of GatherEverySlot<W>: kLevels levels of kWords
// 16-bit words each (the def level, then W / 2 value words), in two
// vectors of 32 words.
template <int W>
struct EverySlotBlock {
  static constexpr int kLevels = W == 8 ? 8 : 16;
  static constexpr int kWords = 1 + W / 2;
  static_assert(kLevels * kWords <= 64);
  // Output word w is word index[w] of (values, def levels): value words
  // are numbered 0..31, def levels 32 + level.
  static constexpr std::array<uint16_t, 64> Index() {
    std::array<uint16_t, 64> index{};
    for (int w = 0; w < kLevels * kWords; ++w) {
      const int level = w / kWords, part = w % kWords;
      index[static_cast<size_t>(w)] =
          static_cast<uint16_t>(part == 0 ? 32 + level : level * (W / 2) + part - 1);
    }
    return index;
  }
  static constexpr uint64_t kDefWords = RecordBits(kLevels, kWords, 0);
  static constexpr uint64_t kFirstValueWords = RecordBits(kLevels, kWords, 1);
  static constexpr uint64_t kValueRun = (uint64_t{1} << (W / 2)) - 1;
  alignas(64) static constexpr std::array<uint16_t, 64> kIndex = Index();
};

template <int W>
QUIVER_GATHER_VBMI2_KERNEL int64_t GatherEverySlotKernel(const int16_t* def, int64_t count,
                                                         int16_t max_def, const uint8_t* values,
                                                         uint8_t* buf, int64_t* pos,
                                                         int64_t pos_limit) {
  using Block = EverySlotBlock<W>;
  constexpr int64_t kLevels = Block::kLevels;
  constexpr int64_t kMaxBytes = kLevels * (2 + W);
  const __m512i index_lo = _mm512_load_si512(Block::kIndex.data());
  const __m512i index_hi = _mm512_load_si512(Block::kIndex.data() + 32);
  const __m512i max_defs = _mm512_set1_epi16(max_def);
  constexpr auto kDefMask = static_cast<__mmask32>(kLevels == 8 ? 0xFF : 0xFFFF);
  int64_t p = *pos;
  int64_t k = 0;
  for (; k + kLevels <= count && p + kMaxBytes < pos_limit; k += kLevels) {
    const __m512i d = _mm512_maskz_loadu_epi16(kDefMask, def + k);
    const uint64_t present = _mm512_mask_cmpeq_epi16_mask(kDefMask, d, max_defs);
    if (present == 0) {  // (all null: the levels alone, as they are)
      _mm512_mask_storeu_epi16(buf + p, kDefMask, d);
      p += 2 * kLevels;
      continue;
    }
    const __m512i v = _mm512_maskz_loadu_epi8(
        kLevels * W == 64 ? ~__mmask64{0} : (__mmask64{1} << (kLevels * W)) - 1, values + k * W);
    const uint64_t keep = Block::kDefWords |
                          _pdep_u64(present, Block::kFirstValueWords) * Block::kValueRun;
    const __m512i lo = _mm512_permutex2var_epi16(v, index_lo, d);
    const auto keep_lo = static_cast<__mmask32>(keep);
    _mm512_storeu_si512(buf + p, _mm512_maskz_compress_epi16(keep_lo, lo));
    p += 2 * _mm_popcnt_u32(keep_lo);
    if constexpr (kLevels * Block::kWords > 32) {
      const __m512i hi = _mm512_permutex2var_epi16(v, index_hi, d);
      const auto keep_hi = static_cast<__mmask32>(keep >> 32);
      _mm512_storeu_si512(buf + p, _mm512_maskz_compress_epi16(keep_hi, hi));
      p += 2 * _mm_popcnt_u32(keep_hi);
    }
  }
  *pos = p;
  return k;
}

}  // namespace

template <int W>
int64_t GatherEverySlot(const int16_t* def, int64_t count, int16_t max_def, const uint8_t* values,
                        uint8_t* buf, int64_t* pos, int64_t pos_limit) {
  return GatherEverySlotKernel<W>(def, count, max_def, values, buf, pos, pos_limit);
}

template int64_t GatherEverySlot<2>(const int16_t*, int64_t, int16_t, const uint8_t*, uint8_t*,
                                    int64_t*, int64_t);
template int64_t GatherEverySlot<4>(const int16_t*, int64_t, int16_t, const uint8_t*, uint8_t*,
                                    int64_t*, int64_t);
template int64_t GatherEverySlot<8>(const int16_t*, int64_t, int16_t, const uint8_t*, uint8_t*,
                                    int64_t*, int64_t);

#undef QUIVER_GATHER_KERNEL
#undef QUIVER_GATHER_VBMI2_KERNEL

}  // namespace quiver::parquet::cdc::internal
