// Speed (docs/cdc.md, "Speed"). The statement of the algorithm is a byte at
// a time: each item (a 2-byte level, or one value's bytes) adds its length
// to the chunk size and, if the size has reached min_chunk_size, rolls all
// of its bytes into the gear hash; after each slot (record start, for
// repeated columns) a cut is decided. chunker_test.cc keeps that statement
// as its reference and checks this file against it on random inputs. What
// makes this file faster while cutting at exactly the same places:
//
//  1. The min-size window is skipped without hashing. Inside it nothing is
//     hashed, so no match can be recorded, and the size stays below
//     min < max, so no cut can be decided either: only the sizes matter.
//     (A match can only be pending while the size is >= min, because the
//     size only drops below min at a cut, and a cut clears it; the loops
//     still check, and take the plain path if a state from elsewhere holds
//     one.) Required fixed-width columns skip by a division, required binary
//     columns by a binary search over the offsets, columns with levels by a
//     size-only loop. The item whose bytes reach min is then hashed whole,
//     as the statement says, and hashing continues until the next cut.
//  2. Separate loops for required columns (values only) and for columns
//     with def levels, with or without rep levels, each instantiated per
//     value layout (fixed width 1/2/4/8, other widths, boolean, binary with
//     32/64-bit offsets, binary views, no bytes), reading the Arrow buffers
//     directly: no per-value switch or indirect call.
//  3. Rolling reports "some byte matched" as one compare against a
//     threshold (gear_roll_internal.h, which also says why the hash chain
//     is not split per word here).
//  4. In the level loops, no unpredictable branch per level besides
//     validity: the leaf slot advances by a 0/1 add, and the decision at a
//     record start is entered only when a match is pending or max is
//     reached.
//  5. Long stretches are hashed as contiguous runs of bytes by one tight
//     loop that stops at the first match (internal::FirstMatch,
//     gear_roll_internal.h; with AVX-512 VBMI and at least ~4 KiB of bytes,
//     gear_simd.h's FirstMatchSimd: 8 lanes and the scalar chain side by
//     side, 1.7x as fast). Only the first match of a stretch is needed (the
//     table changes after it), so matches are found first and the per-slot
//     logic replayed on them: ContiguousCuts for required fixed-width and
//     binary columns, whose bytes already lie in one buffer; GatherStretch
//     (and GatherBinaryStretch for strings and binary) for columns with
//     levels, whose level and value bytes are first copied into one
//     buffer, for fixed widths without a branch on presence (with
//     AVX-512, gather_simd.h: lists of 4- and 8-byte values, and nullable
//     flat columns of 2/4/8-byte values, a block of levels at a time).
//  6. The min-size window of fixed-width columns with levels is skipped in
//     blocks of levels whose sizes are counted (vectorised; with AVX-512,
//     gather_simd.h's SkipLevels first), not summed one by one.
#include "quiver/parquet/cdc/chunker.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "quiver/parquet/cdc/gather_simd.h"
#include "quiver/parquet/cdc/gear_roll_internal.h"
#include "quiver/parquet/cdc/gear_simd.h"
#include "quiver/parquet/cdc/gear_table.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet::cdc {

using internal::Scratch;

namespace {

using internal::RollByte;
using internal::RollBytes;
using internal::RollFixed;
using internal::RollLevel;

// Layouts whose bytes lie in one buffer, slot after slot (see ContiguousCuts).
template <typename Bytes>
concept ContiguousLayout = requires(const Bytes& b) { b.Data(); };

struct Limits {
  int64_t min_size;
  int64_t max_size;
  // A hash value h matches iff h < threshold, i.e. (h & mask) == 0.
  uint64_t threshold;
};

// internal::FirstMatch with table kGearTable[run], with AVX-512 where the
// CPU has it and the run is long enough to pay off (gear_simd.h).
int64_t FirstMatchAnyWay(int run, const uint8_t* p, int64_t n, uint64_t threshold, uint64_t& h) {
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
constexpr int64_t kConstantBlock = 256;
// Blocks checked ahead of the hashing at most: the check past the first
// match is wasted, and scanning to the end of a long input on every call
// (a required string column's window of ~256 KiB, a match every ~32 KiB,
// before ContiguousCuts stopped using this search) took two thirds as long
// as the hashing itself. Still bounds it for long values hashed in place
// and for RollOn.
constexpr int64_t kLookAheadBytes = 4096;
int64_t FindFirstMatch(int run, const uint8_t* p, int64_t n, uint64_t threshold, uint64_t& h) {
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

// --- The bytes of leaf slot i, per Arrow layout ---------------------------------
// (docs/cdc.md, "What is fed to the hash"). Slots are logical indices: the
// array's offset is applied once, in the pointers. Each layout provides
//   Length(i)                 the number of bytes,
//   Roll(table, threshold, i, h)  rolls them (gear_roll_internal.h),
//   Skip(k, n, limit, &size)  the first slot j in [k, n) whose bytes bring
//                             size + (bytes of slots k..j) to >= limit,
//                             having added the bytes of k..j-1 to size
//                             (n, with all of them added, if none does).

// Fixed width W known at compile time (1, 2, 4, 8 bytes; dictionary indices).
template <int W>
struct FixedBytes {
  static constexpr int kWidth = W;
  const uint8_t* values;
  static int64_t Length(int64_t) { return W; }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    return RollFixed<W>(table, values + i * W, threshold, h);
  }
  static int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) {
    // Slots whose bytes keep size below limit: (limit - size - 1) / W.
    const int64_t skip = std::min((limit - *size - 1) / W, n - k);
    *size += skip * W;
    return k + skip;
  }
  // Contiguous layout (ContiguousCuts): the bytes of slot k start at
  // Data() + Begin(k); SlotAt(b, lo, hi) is the slot in [lo, hi) whose bytes
  // hold byte b.
  const uint8_t* Data() const { return values; }
  static int64_t Begin(int64_t k) { return k * W; }
  static int64_t SlotAt(int64_t b, int64_t, int64_t) { return b / W; }
};

// Fixed width known at run time (decimals, fixed_size_binary, intervals).
struct WideBytes {
  const uint8_t* values;
  int64_t width;  // > 0
  int64_t Length(int64_t) const { return width; }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    return RollBytes(table, values + i * width, width, threshold, h);
  }
  int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) const {
    const int64_t skip = std::min((limit - *size - 1) / width, n - k);
    *size += skip * width;
    return k + skip;
  }
  const uint8_t* Data() const { return values; }
  int64_t Begin(int64_t k) const { return k * width; }
  int64_t SlotAt(int64_t b, int64_t, int64_t) const { return b / width; }
};

// Boolean: one byte, 0 or 1.
struct BoolBytes {
  const uint8_t* bits;
  int64_t offset;
  static int64_t Length(int64_t) { return 1; }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    return RollByte(table, bit_util::GetBit(bits, offset + i) ? 1 : 0, threshold, h);
  }
  static int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) {
    return FixedBytes<1>::Skip(k, n, limit, size);
  }
};

// Binary and string with 32- or 64-bit offsets: the raw bytes.
template <typename Offset>
struct BinaryBytes {
  const Offset* offsets;  // offsets[i], offsets[i + 1] bound slot i
  const uint8_t* data;
  int64_t Length(int64_t i) const { return int64_t{offsets[i + 1]} - offsets[i]; }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    const int64_t length = Length(i);
    return length == 0 ? 0 : RollBytes(table, data + offsets[i], length, threshold, h);
  }
  int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) const {
    // The first j with offsets[j + 1] - offsets[k] >= limit - size: a binary
    // search over the (non-decreasing) offsets.
    const int64_t target = int64_t{offsets[k]} + (limit - *size);
    const Offset* end = std::lower_bound(offsets + k + 1, offsets + n + 1, target,
                                         [](Offset o, int64_t t) { return int64_t{o} < t; });
    const int64_t j = (end - offsets) - 1;
    *size += int64_t{offsets[j]} - offsets[k];
    return j;
  }
  const uint8_t* Data() const { return data; }
  int64_t Begin(int64_t k) const { return offsets[k]; }
  // The last slot in [lo, hi) starting at or before b: the non-empty slot
  // holding b (empty slots share their start with the next slot).
  int64_t SlotAt(int64_t b, int64_t lo, int64_t hi) const {
    const Offset* at = std::upper_bound(offsets + lo, offsets + hi, b,
                                        [](int64_t t, Offset o) { return t < int64_t{o}; });
    return (at - offsets) - 1;
  }
};

// binary_view / string_view: the same bytes as binary.
struct ViewBytes {
  const ArrayData* array;
  const uint8_t* views;  // 16 bytes per slot
  const uint8_t* Bytes(int64_t i, int64_t* length) const {
    const uint8_t* view = views + i * 16;
    int32_t n;
    std::memcpy(&n, view, 4);
    *length = n;
    if (n <= 12) return view + 4;
    int32_t buffer, offset;
    std::memcpy(&buffer, view + 8, 4);
    std::memcpy(&offset, view + 12, 4);
    return array->buffers[static_cast<size_t>(2 + buffer)]->data() + offset;
  }
  int64_t Length(int64_t i) const {
    int32_t n;
    std::memcpy(&n, views + i * 16, 4);
    return n;
  }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    int64_t length;
    const uint8_t* p = Bytes(i, &length);
    return RollBytes(table, p, length, threshold, h);
  }
  int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) const {
    for (; k < n; ++k) {
      const int64_t length = Length(k);
      if (*size + length >= limit) return k;
      *size += length;
    }
    return n;
  }
};

// Null type and zero-width values: nothing.
struct NoBytes {
  static int64_t Length(int64_t) { return 0; }
  static uint64_t Roll(const uint64_t*, uint64_t, int64_t, uint64_t&) { return 0; }
  static int64_t Skip(int64_t, int64_t n, int64_t, int64_t*) { return n; }
};

// Calls fn(bytes) with the layout of `leaf`'s values.
template <typename Fn>
Status VisitBytes(const ArrayData& leaf, Fn&& fn) {
  auto buffer = [&](size_t i) -> const uint8_t* {
    return i < leaf.buffers.size() && leaf.buffers[i] != nullptr ? leaf.buffers[i]->data()
                                                                 : nullptr;
  };
  const Type id = leaf.type->id();
  switch (id) {
    case Type::kNull:
      fn(NoBytes{});
      return Status::OK();
    case Type::kBool:
      fn(BoolBytes{buffer(1), leaf.offset});
      return Status::OK();
    case Type::kString:
    case Type::kBinary:
      fn(BinaryBytes<int32_t>{leaf.GetValues<int32_t>(1), buffer(2)});
      return Status::OK();
    case Type::kLargeString:
    case Type::kLargeBinary:
      fn(BinaryBytes<int64_t>{leaf.GetValues<int64_t>(1), buffer(2)});
      return Status::OK();
    case Type::kStringView:
    case Type::kBinaryView: {
      const uint8_t* views = buffer(1);
      fn(ViewBytes{&leaf, views == nullptr ? nullptr : views + leaf.offset * 16});
      return Status::OK();
    }
    default:
      break;
  }
  // Fixed width; dictionary arrays feed their indices.
  const int width = id == Type::kDictionary
                        ? TypeAs<DictionaryType>(*leaf.type).index_type()->byte_width()
                        : leaf.type->byte_width();
  if (width < 0) {
    return Status::Invalid("content-defined chunking: unsupported leaf type ",
                           leaf.type->ToString());
  }
  const uint8_t* values = buffer(1);
  if (width == 0) {
    fn(NoBytes{});
    return Status::OK();
  }
  if (values == nullptr) {
    // No values buffer (only valid if no value is present): the generic
    // layout, which reads present values only.
    fn(WideBytes{nullptr, width});
    return Status::OK();
  }
  values += leaf.offset * width;
  switch (width) {
    case 1:
      fn(FixedBytes<1>{values});
      break;
    case 2:
      fn(FixedBytes<2>{values});
      break;
    case 4:
      fn(FixedBytes<4>{values});
      break;
    case 8:
      fn(FixedBytes<8>{values});
      break;
    default:
      fn(WideBytes{values, width});
      break;
  }
  return Status::OK();
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

// --- Required, not nested: values only, a decision after each -----------------

// (Not inlined: one compact function per layout, rather than every loop
// inlined into VisitBytes.)
template <typename Bytes>
[[gnu::noinline]] void RequiredCuts(const Bytes& bytes, int64_t first, int64_t n,
                                    const Limits& limits, ChunkerState& s,
                                    std::vector<int64_t>* cuts) {
  // Slots first..end-1; level index = slot - first.
  const int64_t end = first + n;
  int64_t k = first;
  if (s.matched && n > 0) {
    // A match left pending by a repeated column's state (not reachable from
    // this column's own calls, which decide after every value): slot 0 the
    // plain way, which folds it into the first decision.
    s.size += bytes.Length(k);
    if (s.size >= limits.min_size) {
      s.matched |= bytes.Roll(kGearTable[s.run], limits.threshold, k, s.hash) != 0;
    }
    if (Decide(limits, s)) cuts->push_back(0);
    ++k;
  }
  while (k < end) {
    if (s.size < limits.min_size) {
      k = bytes.Skip(k, end, limits.min_size, &s.size);
      if (k == end) break;
      // Slot k brings the size to min: it is hashed whole, below.
    }
    // Hashing until the next cut; the size stays >= min.
    const uint64_t* table = kGearTable[s.run];
    uint64_t h = s.hash;
    int64_t size = s.size;
    int run = s.run;
    for (; k < end; ++k) {
      size += bytes.Length(k);
      const bool matched = bytes.Roll(table, limits.threshold, k, h) != 0;
      if (matched) {
        if (++run == 8) {
          run = 0;
          size = 0;
          cuts->push_back(k++ - first);
          break;
        }
        table = kGearTable[run];
      }
      if (size >= limits.max_size) {
        size = 0;
        cuts->push_back(k++ - first);
        break;
      }
    }
    s.hash = h;
    s.size = size;
    s.run = run;
  }
}

// --- Required, contiguous bytes: the first match of each run -------------------
//
// For required fixed-width and binary columns the bytes fed to the hash are
// a contiguous buffer (values, or binary data), so after the min-size skip
// the hashing runs over one stretch of bytes, with one table, until the
// first match or until max_chunk_size is reached. internal::FirstMatch
// finds that match (gear_roll_internal.h) without any per-slot work; the
// per-slot logic is then replayed on the few events: the slot holding the
// matching byte advances the run (and is hashed to its end with the same
// table), and a cut ends the chunk after that slot (8th run) or after the
// slot reaching max_chunk_size.
template <typename Bytes>
[[gnu::noinline]] void ContiguousCuts(const Bytes& bytes, int64_t first, int64_t n,
                                      const Limits& limits, ChunkerState& s,
                                      std::vector<int64_t>* cuts) {
  const int64_t end = first + n;
  int64_t k = first;
  if ((s.matched || s.size >= limits.max_size) && n > 0) {
    // Only a state left by a repeated column (decisions at record starts
    // only) holds a pending match or a size at max: slot 0 the plain way,
    // which folds it into the first decision.
    s.size += bytes.Length(k);
    if (s.size >= limits.min_size) {
      s.matched |= bytes.Roll(kGearTable[s.run], limits.threshold, k, s.hash) != 0;
    }
    if (Decide(limits, s)) cuts->push_back(0);
    ++k;
  }
  const uint8_t* data = bytes.Data();
  while (k < end) {
    if (s.size < limits.min_size) {
      k = bytes.Skip(k, end, limits.min_size, &s.size);
      if (k == end) break;
      // Slot k brings the size to min: it is hashed whole, below.
    }
    // s.size counts the slots before k (< max). The stretch: slots k..j,
    // where slot j brings the size to max (j == end if none does).
    int64_t size = s.size;
    const int64_t j = bytes.Skip(k, end, limits.max_size, &size);
    const int64_t hi = j < end ? j + 1 : end;  // slots k..hi-1
    const int64_t from = bytes.Begin(k);
    const int64_t to = bytes.Begin(hi);
    uint64_t h = s.hash;
    // Not FindFirstMatch: a required column's values rarely hold 256-byte
    // stretches of one byte value (null slots' levels do, and those are
    // gathered), and checking for them ahead of the hashing made it the
    // first reader of the data: without it, string_non_null cdc takes
    // 0.88-0.90 of the time, primitive_non_null cdc 0.94-0.96.
    const int64_t m = from + FirstMatchAnyWay(s.run, data + from, to - from, limits.threshold, h);
    if (m == to) {
      // No match: a max-size cut after slot j, or the end of the call.
      s.hash = h;
      if (j < end) {
        s.size = 0;
        cuts->push_back(j - first);
      } else {
        s.size = size;
      }
      k = hi;
      continue;
    }
    // Slot t holds the match: hash the rest of it with the same table, then
    // decide after it.
    const int64_t t = bytes.SlotAt(m, k, hi);
    const int64_t t_end = bytes.Begin(t + 1);
    RollOn(s.run, data + m + 1, t_end - (m + 1), h);
    s.hash = h;
    s.size += t_end - from;
    s.matched = true;
    if (Decide(limits, s)) cuts->push_back(t - first);
    k = t + 1;
  }
}

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

void internal::Scratch::Reserve(int64_t num_bytes) {
  if (byte_capacity < num_bytes) {
    bytes = std::make_unique<uint8_t[]>(static_cast<size_t>(num_bytes));
    byte_capacity = num_bytes;
  }
}

Chunker::Chunker(const ChunkerOptions& options) : options_(options) {
  if (options_.state == nullptr) options_.state = std::make_shared<ChunkerState>();
  state_ = *options_.state;
}

Status Chunker::FindCuts(const LeafLevels& levels, std::vector<int64_t>* cuts) {
  return FindCuts(levels, 0, levels.num_levels, cuts);
}

Status Chunker::FindCuts(const LeafLevels& levels, int64_t begin, int64_t end,
                         std::vector<int64_t>* cuts) {
  cuts->clear();
  const bool has_levels = levels.max_def > 0 || levels.max_rep > 0;
  if (begin < 0 || end < begin || end > levels.num_levels ||
      (has_levels && begin != 0 && begin != scratch_.next_level)) {
    return Status::Invalid("content-defined chunking: levels [", begin, ", ", end,
                           ") do not continue the previous range of this call's ",
                           levels.num_levels, " levels");
  }
  scratch_.next_level = end;
  const int64_t min_size = options_.min_chunk_size;
  const int64_t max_size = options_.max_chunk_size;
  if (min_size < 0 || max_size <= min_size) {
    return Status::Invalid("content-defined chunking: need 0 <= min_chunk_size < max_chunk_size, "
                           "got min ",
                           min_size, ", max ", max_size);
  }
  // The skipped min-size window relies on max > min (no max-size cut can
  // fall inside it) and the match test on the mask's shape.
  const uint64_t mask = options_.mask;
  const int zeros = std::countr_zero(mask);
  if (mask == 0 || zeros == 0 || mask != (~uint64_t{0} << zeros)) {
    return Status::Invalid("content-defined chunking: the mask must be the top 1..63 bits of a "
                           "word, got ",
                           mask);
  }
  const Limits limits{min_size, max_size, uint64_t{1} << zeros};

  const bool has_def = levels.max_def > 0;
  const bool has_rep = levels.max_rep > 0;
  if (has_rep && !has_def) {
    return Status::Invalid("content-defined chunking: repetition levels without definition levels");
  }
  ChunkerState& s = state_;
  const Status st = VisitBytes(*levels.leaf, [&](const auto& bytes) {
    if (!has_def && !has_rep) {
      // Required, not nested: one contiguous leaf range, a value per level
      // (cuts are found relative to `begin`, then shifted).
      const int64_t first = (levels.ranges.empty() ? 0 : levels.ranges[0].first) + begin;
      using Bytes = std::decay_t<decltype(bytes)>;
      bool done = false;
      if constexpr (ContiguousLayout<Bytes>) {
        if (bytes.Data() != nullptr) {
          ContiguousCuts(bytes, first, end - begin, limits, s, cuts);
          done = true;
        }
      }
      if (!done) RequiredCuts(bytes, first, end - begin, limits, s, cuts);
      if (begin != 0) {
        for (int64_t& c : *cuts) c += begin;
      }
    } else if (!has_rep) {
      LevelCuts<false>(bytes, levels, begin, end, limits, s, cuts, &scratch_);
    } else {
      LevelCuts<true>(bytes, levels, begin, end, limits, s, cuts, &scratch_);
    }
  });
  *options_.state = state_;
  return st;
}

}  // namespace quiver::parquet::cdc
