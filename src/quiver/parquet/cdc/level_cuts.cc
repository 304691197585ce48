// The content-defined chunker's loops for columns with levels (chunker.cc):
// nullable (definition levels) and repeated (definition and repetition
// levels) columns, a decision at each record start; long stretches of
// levels and values gathered into one buffer and hashed to their first
// match.
#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "quiver/parquet/cdc/boundary_internal.h"
#include "quiver/parquet/cdc/gather_simd.h"
#include "quiver/parquet/cdc/slot_bytes_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet::cdc::internal {

namespace {

// --- With levels: nullable (def levels) and repeated (def and rep levels) ----

// The leaf slot each consuming level takes, walking `ranges` in order.
class SlotCursor {
 public:
  explicit SlotCursor(const std::vector<std::pair<int64_t, int64_t>>& ranges) : ranges_(&ranges) {
    slot = ranges.empty() ? 0 : ranges[0].first;
    SetEnd();
  }
  // Moves past the current slot if the level took it, without a branch on
  // `took` (unpredictable for nested data): one rarely taken branch for the
  // end of a range.
  void Advance(bool took) {
    slot += took ? 1 : 0;
    if (static_cast<int>(took) & static_cast<int>(slot == end_)) [[unlikely]] {
      ++range_;
      slot = (*ranges_)[range_].first;
      SetEnd();
    }
  }
  // `count` times Advance(true).
  void AdvanceBy(int64_t count) {
    while (slot + count >= end_) {
      count -= end_ - slot;
      ++range_;
      slot = (*ranges_)[range_].first;
      SetEnd();
    }
    slot += count;
  }
  int64_t slot = 0;
  // The same position for the SIMD kernels (gather_simd.h), and back.
  internal::SlotPosition Position() const {
    return {ranges_->data(), ranges_->size(), range_, slot};
  }
  void SetPosition(const internal::SlotPosition& at) {
    range_ = at.range;
    slot = at.slot;
    SetEnd();
  }

  // Where the cursor is, to continue it in a later FindCuts over the next
  // range of the same call.
  void Save(internal::Scratch* scratch) const {
    scratch->cursor_range = range_;
    scratch->cursor_slot = slot;
  }
  void Restore(const internal::Scratch& scratch) {
    range_ = scratch.cursor_range;
    slot = scratch.cursor_slot;
    SetEnd();
  }

 private:
  // The last range runs on (as far as the levels consume).
  void SetEnd() {
    end_ = range_ + 1 < ranges_->size() ? (*ranges_)[range_].second
                                        : std::numeric_limits<int64_t>::max();
  }
  const std::vector<std::pair<int64_t, int64_t>>* ranges_;
  size_t range_ = 0;
  int64_t end_ = 0;
};

// Levels counted a block at a time (vectorised by the compiler): of the
// kCountBlock levels at def, those with a value (def == max_def) and those
// that take a leaf slot (def >= slot_def).
constexpr int64_t kCountBlock = 64;

struct BlockCounts {
  int64_t present;
  int64_t took;
};

inline BlockCounts CountBlock(const int16_t* def, int16_t max_def, int16_t slot_def) {
  int present = 0, took = 0;
  for (int64_t j = 0; j < kCountBlock; ++j) {
    present += def[j] == max_def;
    took += def[j] >= slot_def;
  }
  return {present, took};
}

// How many of levels def[0, count) take a leaf slot (those at or above
// slot_def: all of them when slot_def is 0).
inline int64_t SlotsTaken(const int16_t* def, int64_t count, int16_t slot_def) {
  if (slot_def <= 0) return count;
  int64_t took = 0;
  for (int64_t j = 0; j < count; ++j) took += def[j] >= slot_def;
  return took;
}

// The slot of level 0 when level k's leaf slot is that plus k, and every
// such slot can be read: a column that is not repeated, whose levels are
// its rows and whose leaf's slots are the rows' slots at a fixed offset
// (struct children line up with their parents; a level under a null
// struct takes no slot, but the slot is there). From the first level that
// takes a slot, which is the first slot of the first range. -1 otherwise
// (repeated, or no level takes a slot, or the slots would not all be in
// the leaf).
inline int64_t EverySlotBase(const LeafLevels& levels, int16_t slot_def) {
  if (levels.max_rep > 0 || levels.ranges.empty()) return -1;
  int64_t first = 0;
  if (slot_def > 0) {
    const int16_t* def = levels.def_levels.data();
    while (first < levels.num_levels && def[first] < slot_def) ++first;
    if (first == levels.num_levels) return -1;
  }
  const int64_t base = levels.ranges[0].first - first;
  if (base < 0 || base + levels.num_levels > levels.leaf->length) return -1;
  return base;
}

// Gathering (see LevelCuts): the bytes of a stretch of levels are copied
// into one buffer, so that internal::FirstMatch can hash them as a
// contiguous run. Layouts of small fixed width only (a value is one load
// and one store, copied even for absent values, whose bytes the next level
// overwrites).
template <typename Bytes>
concept GatherLayout = requires { Bytes::kWidth; };

// Bytes gathered per stretch: enough that the per-stretch work is small,
// few enough that the gathering done past a match (thrown away) stays small
// next to the expected gap between matches at the default options (32 KiB).
constexpr int64_t kGatherBytes = 8 * 1024;

// Gathering a level: its def (and rep) level as little-endian int16, at
// buf; returns the bytes stored.
template <bool kRepeated>
inline int64_t StoreLevels(uint8_t* buf, int16_t def, const int16_t* rep, int64_t level) {
  if constexpr (kRepeated) {
    // Both levels in one store.
    const uint32_t both = static_cast<uint16_t>(def) |
                          (uint32_t{static_cast<uint16_t>(rep[level])} << 16);
    std::memcpy(buf, &both, 4);
    return 4;
  } else {
    std::memcpy(buf, &def, 2);
    return 2;
  }
}

// Whether a stretch whose gathered bytes have reached `at_max` ends at
// `level`, its last one so far (for repeated columns, only a record start).
template <bool kRepeated>
inline bool EndsAtMax(int64_t pos, int64_t at_max, const int16_t* rep, int64_t level) {
  return pos >= at_max && (!kRepeated || rep[level] == 0);
}

// The end of a gathered stretch with no match in it: its bytes join the
// chunk, and where it reached max a cut follows its last level.
template <bool kRepeated>
int64_t EndStretch(uint64_t h, int64_t size, bool max_cut, int64_t last_level, ChunkerState& s,
                   std::vector<int64_t>* cuts) {
  s.hash = h;
  s.size = size;
  if (max_cut) {
    s.size = 0;
    if (!kRepeated || last_level > 0) cuts->push_back(last_level);
  }
  return last_level + 1;
}

// A match at byte m of a gathered stretch, in `level`, whose bytes end at
// byte `end`: the rest of them rolled with the same table, then the
// decision at that level if it is a record start (else the match waits for
// the level-by-level loop). Returns the next level.
template <bool kRepeated>
int64_t ReplayMatch(const uint8_t* buf, int64_t m, int64_t end, int64_t base, int64_t level,
                    const int16_t* rep, const Limits& limits, uint64_t h, ChunkerState& s,
                    std::vector<int64_t>* cuts) {
  RollOn(s.run, buf + m + 1, end - (m + 1), h);
  s.hash = h;
  s.size = base + end;
  s.matched = true;
  if (!kRepeated || rep[level] == 0) {
    if (Decide(limits, s) && (!kRepeated || level > 0)) cuts->push_back(level);
  }
  return level + 1;
}

// From level i (hashed whole, size >= min, no match pending): gathers the
// bytes of levels i.. until kGatherLevels levels (at most kGatherBytes) are
// gathered, the call ends, or
// a record start at max_chunk_size (where a cut falls unless a match comes
// first); finds the first match among them, and replays it: the level
// holding it is hashed to its end with the same table, and the decision
// follows at that level if it is a record start (else the pending match
// waits for the level-by-level loop). Returns the next level to process.
//
// kEverySlot: not repeated, and level k's slot is slot_base + k
// (EverySlotBase): its value bytes can be read whether or not it is
// present, with no cursor to walk; the cursor is moved past the slots the
// stretch's levels took once, after it.
template <bool kRepeated, bool kEverySlot, typename Bytes>
int64_t GatherStretch(const Bytes& bytes, const LeafLevels& levels, int64_t i, int64_t n,
                      SlotCursor& cursor, const Limits& limits, ChunkerState& s,
                      std::vector<int64_t>* cuts, Scratch* scratch, int64_t slot_base) {
  static_assert(std::endian::native == std::endian::little,
                "levels are gathered as little-endian int16");
  constexpr int64_t W = Bytes::kWidth;
  constexpr int64_t kLevelBytes = kRepeated ? 4 : 2;
  const int16_t* def = levels.def_levels.data();
  const int16_t* rep = kRepeated ? levels.rep_levels.data() : nullptr;
  const int16_t max_def = levels.max_def;
  const auto slot_def = static_cast<int16_t>(max_def - (levels.leaf_nullable ? 1 : 0));
  // At most kGatherLevels levels of at most kLevelBytes + W bytes each, a
  // value's W bytes stored past the end, and the 64 bytes the SIMD kernels
  // may store past it.
  constexpr int64_t kGatherLevels = kGatherBytes / (kLevelBytes + W);
  scratch->Reserve(kGatherLevels * (kLevelBytes + W) + W + 64);
  uint8_t* const buf = scratch->bytes.get();
  // (Locals, so that the stores into buf, which may alias anything, do not
  // make the compiler reload them.)
  const uint8_t* const value_bytes = bytes.values;
  const auto values = reinterpret_cast<uintptr_t>(value_bytes);
  static constexpr uint8_t kZeros[W] = {};
  const auto zeros = reinterpret_cast<uintptr_t>(kZeros);

  // The first record start at which the size reaches max ends the stretch.
  const int64_t base = s.size;
  const int64_t at_max = limits.max_size - base;  // gathered bytes that reach max
  // The last slot of the leaf array, whose bytes can always be read (-1 if
  // it has none).
  const int64_t last_slot = levels.leaf->length - 1;
  const SlotCursor start = cursor;
  SlotCursor walk = cursor;  // (a local, for the same reason)
  const int64_t k_end = std::min(n - i, kGatherLevels);
  int64_t pos = 0;
  int64_t k = 0;
  if constexpr (!kRepeated && kEverySlot && (W == 2 || W == 4 || W == 8)) {
    // Whole blocks of levels that stay below max (gather_simd.h), then the
    // rest level by level (the slots follow the levels: no cursor to move).
    if (internal::GatherSimdVbmi2Enabled()) {
      k = internal::GatherEverySlot<W>(def + i, k_end, max_def, value_bytes + (slot_base + i) * W,
                                       buf, &pos, at_max);
    }
  }
  if constexpr (kRepeated && (W == 4 || W == 8)) {
    // Whole blocks of levels that stay below max (gather_simd.h), then the
    // rest level by level.
    if (last_slot >= 0 && internal::GatherSimdEnabled()) {
      internal::SlotPosition at = walk.Position();
      k = internal::GatherRepeated<W>(def + i, rep + i, k_end, max_def, slot_def, value_bytes, &at,
                                      buf, &pos, at_max);
      walk.SetPosition(at);
    }
  }
  bool max_cut = false;
  while (k < k_end) {
    const int16_t d = def[i + k];
    pos += StoreLevels<kRepeated>(buf + pos, d, rep, i + k);
    const bool present = d == max_def;
    // The value's bytes, stored whether or not it is present (an absent
    // one's are overwritten by the next level), from a valid address, with
    // no branch (presence is unpredictable): the level's slot; else the
    // slot, or the leaf's last one once the levels have run past it (both
    // measured faster than the mask below); else (a leaf with no slot) a
    // mask that picks zeros for absent values, not a select the compiler
    // may turn into a branch.
    const uintptr_t take = uintptr_t{0} - static_cast<uintptr_t>(present);
    if constexpr (kEverySlot) {
      std::memcpy(buf + pos, value_bytes + (slot_base + i + k) * W, W);
    } else if (last_slot >= 0) {
      std::memcpy(buf + pos, value_bytes + std::min(walk.slot, last_slot) * W, W);
    } else {
      const uintptr_t address =
          ((values + static_cast<uintptr_t>(walk.slot) * W) & take) | (zeros & ~take);
      std::memcpy(buf + pos, reinterpret_cast<const uint8_t*>(address), W);
    }
    pos += W & static_cast<int64_t>(take);
    if constexpr (!kEverySlot) walk.Advance(d >= slot_def);
    ++k;
    if (EndsAtMax<kRepeated>(pos, at_max, rep, i + k - 1)) [[unlikely]] {
      max_cut = true;
      break;
    }
  }
  uint64_t h = s.hash;
  const int64_t m = FindFirstMatch(s.run, buf, pos, limits.threshold, h);
  if (m == pos) {
    cursor = walk;
    if constexpr (kEverySlot) cursor.AdvanceBy(SlotsTaken(def + i, k, slot_def));
    return EndStretch<kRepeated>(h, base + pos, max_cut, i + k - 1, s, cuts);
  }
  // Level i + t holds the match: the first level whose bytes end after
  // byte m (at `end`). Found by walking the levels again from the start of
  // the stretch, in counted blocks (as the min-size skip does) and then one
  // by one, moving the cursor (which went past that level) to just after it.
  cursor = start;
  int64_t t = 0;
  int64_t end = 0;
  while (t + kCountBlock <= k) {
    const auto [present, took] = CountBlock(def + i + t, max_def, slot_def);
    const int64_t add = kCountBlock * kLevelBytes + present * W;
    if (end + add > m) break;
    end += add;
    if constexpr (!kEverySlot) cursor.AdvanceBy(took);
    t += kCountBlock;
  }
  for (;; ++t) {  // (m < pos: some level t < k ends after it)
    const int16_t d = def[i + t];
    end += kLevelBytes + (d == max_def ? W : 0);
    if constexpr (!kEverySlot) cursor.Advance(d >= slot_def);
    if (end > m) break;
  }
  if constexpr (kEverySlot) cursor.AdvanceBy(SlotsTaken(def + i, t + 1, slot_def));
  return ReplayMatch<kRepeated>(buf, m, end, base, i + t, rep, limits, h, s, cuts);
}

// Binary and string layouts with levels (nullable strings, lists of
// strings): the same gathering, with each present value's bytes copied as
// they are. A stretch holds about kGatherBytes; a level whose bytes would
// not fit the buffer ends the stretch before it, or, as the stretch's first
// level, is hashed in place on its own.
template <typename Bytes>
concept BinaryLayout = requires(const Bytes& b) {
  b.offsets;
  b.data;
};

constexpr int64_t kBinaryGatherCapacity = 2 * kGatherBytes;


template <bool kRepeated, typename Bytes>
int64_t GatherBinaryStretch(const Bytes& bytes, const LeafLevels& levels, int64_t i, int64_t n,
                            SlotCursor& cursor, const Limits& limits, ChunkerState& s,
                            std::vector<int64_t>* cuts, Scratch* scratch) {
  static_assert(std::endian::native == std::endian::little,
                "levels are gathered as little-endian int16");
  constexpr int64_t kLevelBytes = kRepeated ? 4 : 2;
  const int16_t* def = levels.def_levels.data();
  const int16_t* rep = kRepeated ? levels.rep_levels.data() : nullptr;
  const int16_t max_def = levels.max_def;
  const auto slot_def = static_cast<int16_t>(max_def - (levels.leaf_nullable ? 1 : 0));
  auto level_bytes = [&](int64_t level, int64_t slot) {
    return kLevelBytes + (def[level] == max_def ? bytes.Length(slot) : 0);
  };
  const int64_t base = s.size;
  const int64_t at_max = limits.max_size - base;  // gathered bytes that reach max
  const uint64_t* table = kGearTable[s.run];

  if (level_bytes(i, cursor.slot) > kBinaryGatherCapacity) {
    // One long value: level i hashed in place, as the level-by-level loop
    // would (the first match found, then the rest of the value rolled with
    // the same table).
    const int16_t d = def[i];
    uint64_t h = s.hash;
    uint64_t matches = RollLevel(table, d, limits.threshold, h);
    if constexpr (kRepeated) matches += RollLevel(table, rep[i], limits.threshold, h);
    const int64_t length = bytes.Length(cursor.slot);  // (present: else it would fit)
    const uint8_t* value = bytes.data + bytes.Begin(cursor.slot);
    const int64_t m = FindFirstMatch(s.run, value, length, limits.threshold, h);
    if (m < length) {
      RollOn(s.run, value + m + 1, length - (m + 1), h);
      matches = 1;
    }
    cursor.Advance(true);
    s.hash = h;
    s.size = base + kLevelBytes + length;
    s.matched |= matches != 0;
    if ((!kRepeated || rep[i] == 0) && Decide(limits, s) && (!kRepeated || i > 0)) {
      cuts->push_back(i);
    }
    return i + 1;
  }

  scratch->Reserve(kBinaryGatherCapacity + 64);
  uint8_t* const buf = scratch->bytes.get();
  const uint8_t* const data = bytes.data;
  const SlotCursor start = cursor;
  SlotCursor walk = cursor;  // (a local: the stores into buf may alias anything)
  int64_t pos = 0;
  int64_t k = 0;
  bool max_cut = false;
  while (i + k < n && pos < kGatherBytes) {
    const int16_t d = def[i + k];
    const bool present = d == max_def;
    const int64_t length = present ? bytes.Length(walk.slot) : 0;
    if (pos + kLevelBytes + length > kBinaryGatherCapacity) break;  // (k > 0 here)
    pos += StoreLevels<kRepeated>(buf + pos, d, rep, i + k);
    if (length > 0) {
      std::memcpy(buf + pos, data + bytes.Begin(walk.slot), static_cast<size_t>(length));
      pos += length;
    }
    walk.Advance(d >= slot_def);
    ++k;
    if (EndsAtMax<kRepeated>(pos, at_max, rep, i + k - 1)) [[unlikely]] {
      max_cut = true;
      break;
    }
  }
  uint64_t h = s.hash;
  const int64_t m = FindFirstMatch(s.run, buf, pos, limits.threshold, h);
  if (m == pos) {
    cursor = walk;
    return EndStretch<kRepeated>(h, base + pos, max_cut, i + k - 1, s, cuts);
  }
  // Level i + t holds the match: the first level whose bytes end after
  // byte m (at `end`).
  cursor = start;
  int64_t t = 0;
  int64_t end = 0;
  for (;; ++t) {  // (m < pos: some level t < k ends after it)
    end += level_bytes(i + t, cursor.slot);
    cursor.Advance(def[i + t] >= slot_def);
    if (end > m) break;
  }
  return ReplayMatch<kRepeated>(buf, m, end, base, i + t, rep, limits, h, s, cuts);
}

// A run of equal levels without a value (nulls, at any depth) in a column
// that is not repeated, from level i, in a state at or past min with no
// match pending. Each such level rolls the same two bytes into the hash, and
// a byte's effect on the hash is shifted out 64 bytes later: after the run's
// first levels, the hash after each level's first byte and after its second
// is the same at every level. So the first kNullRunRolled levels are hashed
// as usual (any match, or max, decided where it falls), and if none matched
// the rest of the run cannot: it only adds to the size, up to max (a cut at
// the level that reaches it). Returns the next level, or -1 for a run of
// fewer than kNullRunMin levels (left to the usual path). Same cuts, same
// state as hashing the run level by level (chunker_test.cc).
constexpr int64_t kNullRunRolled = 40;  // > 33: both saturated values seen
constexpr int64_t kNullRunMin = 128;
int64_t NullRunCuts(const int16_t* def, int64_t i, int64_t n, int16_t slot_def,
                    const Limits& limits, ChunkerState& s, SlotCursor& cursor,
                    std::vector<int64_t>* cuts) {
  const int16_t d = def[i];
  // The run's end, looked for no further than the level at which the size
  // reaches max (a cut there; the next call goes on from it).
  const int64_t limit = std::min(n, i + (limits.max_size - s.size + 1) / 2);
  if (limit - i < kNullRunMin) return -1;
  int64_t end = i + 1;
#if defined(__SSE2__)
  const __m128i eight = _mm_set1_epi16(d);
  while (end + 8 <= limit &&
         _mm_movemask_epi8(_mm_cmpeq_epi16(
             _mm_loadu_si128(reinterpret_cast<const __m128i*>(def + end)), eight)) == 0xFFFF) {
    end += 8;
  }
#endif
  while (end < limit && def[end] == d) ++end;
  if (end - i < kNullRunMin) return -1;
  const uint64_t* table = kGearTable[s.run];
  uint64_t h = s.hash;
  int64_t size = s.size;
  const bool takes_slots = d >= slot_def;
  // The state at level `last` (the run's levels i..last hashed), then its
  // decision, as the level-by-level loop makes it.
  auto decide_at = [&](int64_t last, bool matched) {
    s.hash = h;
    s.size = size;
    s.matched = matched;
    if (takes_slots) cursor.AdvanceBy(last - i + 1);
    if (Decide(limits, s)) cuts->push_back(last);
    return last + 1;
  };
  int64_t j = i;
  for (; j < i + kNullRunRolled; ++j) {
    size += 2;
    const uint64_t matches = RollLevel(table, d, limits.threshold, h);
    if (matches != 0 || size >= limits.max_size) return decide_at(j, matches != 0);
  }
  // No match: none in the rest of the run. Levels until size reaches max
  // (at least one: size < max here).
  const int64_t to_max = (limits.max_size - size + 1) / 2;
  if (to_max <= end - j) {
    size += 2 * to_max;
    return decide_at(j + to_max - 1, false);
  }
  size += 2 * (end - j);
  s.hash = h;
  s.size = size;
  if (takes_slots) cursor.AdvanceBy(end - i);
  return end;
}

// Levels [begin, n) of a call; the slot cursor starts at the call's first
// slot (begin == 0) or where the previous range left it (scratch).
template <bool kRepeated, typename Bytes>
[[gnu::noinline]] void LevelCuts(const Bytes& bytes, const LeafLevels& levels, int64_t begin,
                                 int64_t n, const Limits& limits, ChunkerState& s,
                                 std::vector<int64_t>* cuts, Scratch* scratch) {
  const int16_t* def = levels.def_levels.data();
  const int16_t* rep = kRepeated ? levels.rep_levels.data() : nullptr;
  const int16_t max_def = levels.max_def;
  // Levels at or above slot_def reach the leaf and take a slot (a null leaf
  // value too); only max_def has a value.
  const auto slot_def = static_cast<int16_t>(max_def - (levels.leaf_nullable ? 1 : 0));
  constexpr int64_t kLevelBytes = kRepeated ? 4 : 2;
  const uint64_t threshold = limits.threshold;
  SlotCursor cursor(levels.ranges);
  if (begin > 0) cursor.Restore(*scratch);
  // (See GatherStretch.)
  if (begin == 0) scratch->slot_base = kRepeated ? -1 : EverySlotBase(levels, slot_def);
  const int64_t slot_base = scratch->slot_base;
  const bool every_slot = slot_base >= 0;
  // Decisions are made at record starts only; the first level of a call
  // decides but never reports a cut (docs/cdc.md, "From chunks to pages").
  auto decides = [&](int64_t i) { return !kRepeated || rep[i] == 0; };
  auto cut_at = [&](int64_t i) {
    if (!kRepeated || i > 0) cuts->push_back(i);
  };

  int64_t i = begin;
  while (i < n) {
    if (s.size < limits.min_size) {
      if (!s.matched) {
        // Size only: these levels are not hashed and cannot end a chunk.
        int64_t size = s.size;
        if constexpr (GatherLayout<Bytes>) {
          // Fixed widths: whole blocks of levels by counting (vectorised;
          // with AVX-512, gather_simd.h, then the portable loop, which
          // stops at once at the block the kernel stopped before).
          constexpr int64_t W = Bytes::kWidth;
          if (internal::GatherSimdEnabled()) {
            int64_t took = 0;
            const int64_t skipped =
                internal::SkipLevels(def + i, n - i, max_def, slot_def, kLevelBytes, W,
                                     limits.min_size - size, &size, &took);
            cursor.AdvanceBy(took);
            i += skipped;
          }
          while (n - i >= kCountBlock) {
            const auto [present, took] = CountBlock(def + i, max_def, slot_def);
            const int64_t add = kCountBlock * kLevelBytes + present * W;
            if (size + add >= limits.min_size) break;
            size += add;
            cursor.AdvanceBy(took);
            i += kCountBlock;
          }
        }
        for (; i < n; ++i) {
          const int16_t d = def[i];
          // (A select, not a branch, for fixed widths: their Length reads
          // no memory.)
          int64_t add = kLevelBytes;
          if (d == max_def) add += bytes.Length(cursor.slot);
          if (size + add >= limits.min_size) break;
          size += add;
          cursor.Advance(d >= slot_def);
        }
        s.size = size;
        if (i == n) break;
      }
      // Level i reaches min (or a match is pending, which only a state from
      // elsewhere can hold): item by item, each hashed whole iff the size
      // has reached min with it.
      const uint64_t* table = kGearTable[s.run];
      const int16_t d = def[i];
      uint64_t matches = 0;
      s.size += 2;
      if (s.size >= limits.min_size) matches += RollLevel(table, d, threshold, s.hash);
      if (kRepeated) {
        s.size += 2;
        if (s.size >= limits.min_size) matches += RollLevel(table, rep[i], threshold, s.hash);
      }
      if (d == max_def) {
        s.size += bytes.Length(cursor.slot);
        if (s.size >= limits.min_size) {
          matches += bytes.Roll(table, threshold, cursor.slot, s.hash);
        }
      }
      cursor.Advance(d >= slot_def);
      s.matched |= matches != 0;
      if (decides(i) && Decide(limits, s)) cut_at(i);
      ++i;
      continue;
    }
    if constexpr (!kRepeated) {
      if (!s.matched && def[i] != max_def) {
        const int64_t next = NullRunCuts(def, i, n, slot_def, limits, s, cursor, cuts);
        if (next >= 0) {
          i = next;
          continue;
        }
      }
    }
    if constexpr (GatherLayout<Bytes>) {
      if (!s.matched) {
        i = every_slot ? GatherStretch<kRepeated, true>(bytes, levels, i, n, cursor, limits, s,
                                                        cuts, scratch, slot_base)
                       : GatherStretch<kRepeated, false>(bytes, levels, i, n, cursor, limits, s,
                                                         cuts, scratch, slot_base);
        continue;
      }
    } else if constexpr (BinaryLayout<Bytes>) {
      if (!s.matched) {
        i = GatherBinaryStretch<kRepeated>(bytes, levels, i, n, cursor, limits, s, cuts, scratch);
        continue;
      }
    }
    // Hashing level by level until the next cut (for gathering layouts,
    // until the decision a pending match waits for).
    const uint64_t* table = kGearTable[s.run];
    uint64_t h = s.hash;
    int64_t size = s.size;
    bool matched = s.matched;
    for (; i < n; ++i) {
      const int16_t d = def[i];
      const bool present = d == max_def;
      size += kLevelBytes;
      uint64_t matches = RollLevel(table, d, threshold, h);
      if (kRepeated) matches += RollLevel(table, rep[i], threshold, h);
      if (present) {
        size += bytes.Length(cursor.slot);
        matches += bytes.Roll(table, threshold, cursor.slot, h);
      }
      cursor.Advance(d >= slot_def);
      matched |= matches != 0;
      // Rarely true (a match, or max reached): one predictable branch
      // instead of one per record start.
      if (!((matched || size >= limits.max_size) && decides(i))) continue;
      s.matched = matched;
      s.size = size;
      const bool cut = Decide(limits, s);
      matched = s.matched;
      size = s.size;
      if (cut) {
        cut_at(i++);
        break;
      }
      if constexpr (GatherLayout<Bytes> || BinaryLayout<Bytes>) {
        ++i;
        break;
      }
      table = kGearTable[s.run];
    }
    s.hash = h;
    s.size = size;
    s.matched = matched;
  }
  cursor.Save(scratch);
}

}  // namespace

Status FindLevelCuts(const LeafLevels& levels, int64_t begin, int64_t end, bool repeated,
                     const Limits& limits, ChunkerState& s, std::vector<int64_t>* cuts,
                     Scratch* scratch) {
  return VisitBytes(*levels.leaf, [&](const auto& bytes) {
    if (repeated) {
      LevelCuts<true>(bytes, levels, begin, end, limits, s, cuts, scratch);
    } else {
      LevelCuts<false>(bytes, levels, begin, end, limits, s, cuts, scratch);
    }
  });
}

}  // namespace quiver::parquet::cdc::internal
