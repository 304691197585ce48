// Memo tables: hash sets that give each distinct value a dense index (0, 1,
// 2, ... in insertion order) and keep the distinct values in that order. The
// DictionaryBuilder uses them to deduplicate values; the Parquet writer's
// dictionary encoder reuses them (the index is the dictionary index, the
// values in order are the dictionary page).
//
// Design (as Arrow C++'s arrow/util/hashing.h ScalarMemoTable /
// BinaryMemoTable and DuckDB's dictionary writer): open addressing with
// linear probing in a power-of-two table of slots, kept at most 9/16 full
// (doubling and re-inserting when it gets there; MaxFill). 9/16 rather than
// 1/2: a table reserved for a power of two of values plus a small margin
// (the Parquet writer's dictionary size limit plus one mini-batch) is not
// twice as large, and linear probing at 9/16 costs about the same as at 1/2
// (2.6 instead of 2.5 slots read by a miss, on average). A ScalarMemoTable
// slot is 4 bytes: the value's index + 1 in its low log2(capacity) bits (0 =
// empty) and, above them, as many bits of the value's hash as are left (a
// tag); the value itself is read from the values array only when the tag
// matches. A table of 2^19 slots (2^18 int32s plus a margin, the Parquet
// writer's 1 MiB dictionary limit) is 2 MB whatever the value's width,
// where a slot holding the value was 4 MB for int32 and 8 MB for int64: the
// table of a column that overflows its dictionary limit (random keys, every
// probe a cache miss) fits a core's L2 instead of two to four times it. A
// BinaryMemoTable slot holds the index (-1 = empty) and the 64-bit hash
// (its bytes live in one data buffer with int64 offsets, so that the
// distinct values are already laid out as an Arrow binary array). Byte
// strings are hashed with XXH3-64 (xxHash, Debian's libxxhash), which is
// fast for short keys and has good low bits, so masking it to the table size
// is fine. Scalars are hashed inline, as Arrow
// C++'s ScalarHelper does: the value's bits times an odd 64-bit constant,
// byte-swapped, so the well-mixed high bits of the product become the low
// bits the mask keeps; the lookup of a value already in the table is inline
// too (only an insertion that must grow the table is a call). The indices
// (insertion order) do not depend on the hash.
//
// Equality is bitwise, except that for float and double every NaN equals
// every other NaN (one dictionary entry for NaN, the first one's bits kept);
// -0.0 and 0.0 differ. Indices are int32: a table holds at most 2^31 - 1
// values (CapacityError past that). All memory comes from the MemoryPool.
// Nulls are not memoised: callers track them separately.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "quiver/memory/memory_pool.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/result.h"

namespace quiver::internal {

// Whether a[0, n) == b[0, n). Up to 16 bytes inline, by two overlapping
// loads of 8, 4, 2 or 1 bytes that stay within the n bytes (short values,
// where a memcmp call costs more than the compare); memcmp beyond. n == 0
// reads nothing (the pointers may be null).
inline bool BytesEqual(const void* a, const void* b, size_t n) {
  const auto* p = static_cast<const uint8_t*>(a);
  const auto* q = static_cast<const uint8_t*>(b);
  auto same = [&](auto width) {
    using W = decltype(width);
    W x0, y0, x1, y1;
    std::memcpy(&x0, p, sizeof(W));
    std::memcpy(&y0, q, sizeof(W));
    std::memcpy(&x1, p + n - sizeof(W), sizeof(W));
    std::memcpy(&y1, q + n - sizeof(W), sizeof(W));
    return ((x0 ^ y0) | (x1 ^ y1)) == 0;
  };
  if (n > 16) return std::memcmp(p, q, n) == 0;
  if (n >= 8) return same(uint64_t{});
  if (n >= 4) return same(uint32_t{});
  if (n >= 2) return same(uint16_t{});
  return n == 0 || *p == *q;
}

inline constexpr int32_t kKeyNotFound = -1;
inline constexpr int64_t kMaxMemoTableSize = INT32_MAX;

// The most values a table of `capacity` slots holds before it grows.
inline constexpr int64_t MaxFill(int64_t capacity) { return capacity / 2 + capacity / 16; }

// XXH3-64 of `length` bytes.
uint64_t HashBytes(const void* data, int64_t length);

// A hash of at most 64 of the `length` bytes: HashBytes up to 64 bytes,
// else XXH3-64 (seeded with the length) of the first, middle and last 16
// bytes. Equal strings hash equal; long strings that differ only elsewhere
// collide. For searches that compare the bytes on a hash match and can
// tell when such collisions pile up (FindRepeatedValue's max_collisions):
// it reads a long value's three cache lines, not all of it.
uint64_t HashBytesSampled(const void* data, int64_t length);

// A memo table of fixed-width values: every integer type, float and double
// (explicitly instantiated in memo_table.cc).
template <typename T>
class ScalarMemoTable {
  static_assert(std::is_arithmetic_v<T>, "ScalarMemoTable holds integers or floats");

 public:
  // `expected_size` distinct values fit without rehashing.
  explicit ScalarMemoTable(MemoryPool* pool = DefaultMemoryPool(), int64_t expected_size = 0);
  ScalarMemoTable(ScalarMemoTable&&) noexcept = default;
  ScalarMemoTable& operator=(ScalarMemoTable&&) noexcept = default;

  int32_t size() const { return size_; }
  // The index of `value`, or kKeyNotFound.
  int32_t Get(T value) const;
  // The index of `value`, inserting it (as index size()) if new;
  // `*inserted` (if given) says which. OutOfMemory / CapacityError on failure
  // (the table is unchanged then).
  Result<int32_t> GetOrInsert(T value, bool* inserted = nullptr) {
    const int32_t index = Probe(value, inserted);
    if (QUIVER_PREDICT_TRUE(index != kMustGrow)) return index;
    return InsertGrowing(value, inserted);
  }

  // GetOrInsert of values[0, n) in order (each bit-cast to T): out[j] = the
  // index of values[j], and on_insert(j) is called for each value new to the
  // table (it must not use the table). The slot of the value kPrefetchAhead
  // places on is prefetched, so that the cache misses of a table larger than
  // the cache overlap instead of following one another; the values go in
  // runs that fit without growing the table, the table's state in locals.
  // On failure, out[0, n) is unspecified and the values before the failing
  // one are in the table.
  template <typename Src, typename OnInsert>
  Status GetOrInsertBatch(const Src* values, int64_t n, int32_t* out, OnInsert&& on_insert) {
    static_assert(sizeof(Src) == sizeof(T) && std::is_trivially_copyable_v<Src>);
    constexpr int64_t kPrefetchAhead = 16;
    int64_t j = 0;
    while (j < n) {
      // Every value of the run can be new: no room check per value.
      const int64_t run = std::min(n - j, max_fill_ - size_);
      if (QUIVER_PREDICT_FALSE(run <= 0)) {  // full, or no slots yet
        bool inserted = false;
        QUIVER_ASSIGN_OR_RAISE(out[j], InsertGrowing(std::bit_cast<T>(values[j]), &inserted));
        if (inserted) on_insert(j);
        ++j;
        continue;
      }
      // The table's parameters in locals: the stores below (through
      // uint32_t and T pointers) may alias the members as far as the
      // compiler knows, which reloaded them every value and spilled the
      // loop's state (perf annotate of the float column's loop).
      const Params p = params();
      uint32_t* const slots = slots_.template data_as<uint32_t>();
      T* const stored = values_.template data_as<T>();
      int32_t size = size_;
      const int64_t end = j + run;
      for (; j < end; ++j) {
        if (j + kPrefetchAhead < n) {
          __builtin_prefetch(
              slots + (Hash(std::bit_cast<T>(values[j + kPrefetchAhead]), p.hash_mask) & p.mask), 1);
        }
        const T value = std::bit_cast<T>(values[j]);
        const uint64_t hash = Hash(value, p.hash_mask);
        uint64_t pos = 0;
        int32_t index = Find(p, slots, stored, value, hash, &pos);
        if (index == kKeyNotFound) {
          index = size++;
          slots[pos] = MakeSlot(hash, index, p.tag_mask);
          stored[index] = value;
          on_insert(j);
        }
        out[j] = index;
      }
      size_ = size;
      values_.UnsafeSetSize(static_cast<int64_t>(size) * static_cast<int64_t>(sizeof(T)));
    }
    return Status::OK();
  }

  // The distinct values in insertion order (size() of them).
  const T* values() const { return values_.data_as<T>(); }
  T value(int32_t index) const { return values()[index]; }
  // Copies values [start, size()) to `out`.
  void CopyValues(int32_t start, T* out) const;
  // visit(index, value) for values [start, size()) in insertion order.
  template <typename Visit>
  void VisitValues(int32_t start, Visit&& visit) const {
    const T* v = values();
    for (int32_t i = start; i < size_; ++i) visit(i, v[i]);
  }

  // Grows the table (if needed) so that `n` distinct values fit without
  // rehashing: for a caller that sees the table is going to be large, one
  // rehash instead of a doubling after another. Indices do not change.
  Status Reserve(int64_t n);
  // Empties the table and frees its memory.
  void Clear();
  // Bytes held (slots and values).
  int64_t memory_used() const { return slots_.capacity() + values_.capacity(); }

  // Tests only, on an empty table: hashes are ANDed with `mask` (e.g. 3 makes
  // nearly every value collide).
  void set_hash_mask_for_testing(uint64_t mask) { hash_mask_ = mask; }

 private:
  static constexpr int32_t kMustGrow = -2;
  // A slot's tag for a value of hash `hash`: the hash's bits above bit 32 +
  // log2(capacity) (the slot's position uses its low bits), where a slot
  // holds them above its index + 1.
  static uint32_t Tag(uint64_t hash, uint32_t tag_mask) {
    return static_cast<uint32_t>(hash >> 32) & tag_mask;
  }
  uint32_t Tag(uint64_t hash) const { return Tag(hash, tag_mask_); }
  // The slot of value `index`, of hash `hash`.
  static uint32_t MakeSlot(uint64_t hash, int32_t index, uint32_t tag_mask) {
    return Tag(hash, tag_mask) | static_cast<uint32_t>(index + 1);
  }
  // The index a full slot holds.
  static int32_t SlotIndex(uint32_t slot, uint32_t tag_mask) {
    return static_cast<int32_t>((slot & ~tag_mask) - 1);
  }
  // What a lookup reads of the table: capacity - 1, tag_mask_, hash_mask_.
  struct Params {
    uint64_t mask;
    uint32_t tag_mask;
    uint64_t hash_mask;
  };
  Params params() const { return {static_cast<uint64_t>(capacity_ - 1), tag_mask_, hash_mask_}; }
  // The index of `value` (of hash `hash`), or kKeyNotFound with `*empty`
  // the slot it would go in. The slots are read four at a time (one 16-byte
  // load, compared at once for empty slots and for the tag): a value whose
  // probe sequence ends within its first four slots, as most do in a table
  // at most 9/16 full, costs no branch on what each slot holds, where a
  // slot-by-slot loop mispredicts its exit about once a value.
  static int32_t Find(const Params& p, const uint32_t* slots, const T* stored, T value, uint64_t hash,
                      uint64_t* empty) {
    const uint64_t mask = p.mask;
    const uint32_t tag = Tag(hash, p.tag_mask);
    uint64_t pos = hash & mask;
    for (;;) {
      uint32_t empties;
      uint32_t matches;
      if (QUIVER_PREDICT_TRUE(pos + 4 <= mask + 1)) {
        SlotMasks4(slots + pos, tag, p.tag_mask, &empties, &matches);
      } else {  // the last three slots: one at a time, wrapping to slot 0
        const uint32_t slot = slots[pos];
        empties = slot == 0 ? 1 : 0;
        matches = slot != 0 && (slot & p.tag_mask) == tag ? 1 : 0;
      }
      // Tag matches before the first empty slot (all four if none is).
      for (uint32_t candidates = matches & ((empties & (0 - empties)) - 1); candidates != 0;
           candidates &= candidates - 1) {
        const int32_t index =
            SlotIndex(slots[pos + static_cast<uint64_t>(std::countr_zero(candidates))], p.tag_mask);
        if (Equal(stored[index], value)) return index;
      }
      if (QUIVER_PREDICT_TRUE(empties != 0)) {
        *empty = pos + static_cast<uint64_t>(std::countr_zero(empties));
        return kKeyNotFound;
      }
      pos = (pos + (pos + 4 <= mask + 1 ? 4 : 1)) & mask;
    }
  }
  int32_t Find(const uint32_t* slots, const T* stored, T value, uint64_t hash, uint64_t* empty) const {
    return Find(params(), slots, stored, value, hash, empty);
  }
  // Bit k of *empties: slots[k] is empty; of *matches: slots[k] is full
  // and holds `tag`; k in [0, 4).
  static void SlotMasks4(const uint32_t* slots, uint32_t tag, uint32_t tag_mask, uint32_t* empties,
                         uint32_t* matches) {
#if defined(__SSE2__)
    const __m128i s = _mm_loadu_si128(reinterpret_cast<const __m128i*>(slots));
    const __m128i e = _mm_cmpeq_epi32(s, _mm_setzero_si128());
    const __m128i t = _mm_cmpeq_epi32(_mm_and_si128(s, _mm_set1_epi32(static_cast<int>(tag_mask))),
                                      _mm_set1_epi32(static_cast<int>(tag)));
    *empties = static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(e)));
    *matches = static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_andnot_si128(e, t))));
#else
    uint32_t e = 0, m = 0;
    for (int k = 0; k < 4; ++k) {
      e |= static_cast<uint32_t>(slots[k] == 0) << k;
      m |= static_cast<uint32_t>(slots[k] != 0 && (slots[k] & tag_mask) == tag) << k;
    }
    *empties = e;
    *matches = m;
#endif
  }
  // The index of `value`, inserting it if it is new and the table has room
  // (max_fill_: the values buffer is reserved to match); kMustGrow if it is
  // new and the table is full or has no slots yet. Inline, no Status: the
  // common path of GetOrInsert.
  int32_t Probe(T value, bool* inserted) {
    if (QUIVER_PREDICT_FALSE(capacity_ == 0)) return kMustGrow;
    uint32_t* slots = slots_.template data_as<uint32_t>();
    const uint64_t hash = Hash(value);
    uint64_t pos = 0;
    const int32_t found = Find(slots, values(), value, hash, &pos);
    if (found != kKeyNotFound) {
      if (inserted != nullptr) *inserted = false;
      return found;
    }
    if (QUIVER_PREDICT_FALSE(size_ >= max_fill_)) return kMustGrow;
    const int32_t index = size_++;
    slots[pos] = MakeSlot(hash, index, tag_mask_);
    values_.UnsafeAppend(value);
    if (inserted != nullptr) *inserted = true;
    return index;
  }
  uint64_t Hash(T value) const { return Hash(value, hash_mask_); }
  static uint64_t Hash(T value, uint64_t hash_mask) {
    using Bits = std::conditional_t<sizeof(T) == 1, uint8_t,
                 std::conditional_t<sizeof(T) == 2, uint16_t,
                 std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    if constexpr (std::is_floating_point_v<T>) {
      if (value != value) value = std::numeric_limits<T>::quiet_NaN();  // one NaN
    }
    Bits bits;
    std::memcpy(&bits, &value, sizeof(T));
    return __builtin_bswap64(static_cast<uint64_t>(bits) * 0x9E3779B97F4A7C15ull) & hash_mask;
  }
  static bool Equal(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      // Bitwise (so -0.0 != 0.0), except that NaNs are all one value.
      return std::memcmp(&a, &b, sizeof(T)) == 0 || (a != a && b != b);
    } else {
      return a == b;
    }
  }
  // GetOrInsert's path for a new value when the table must grow first (or
  // has no slots yet).
  Result<int32_t> InsertGrowing(T value, bool* inserted);
  Status Rehash(int64_t new_capacity);

  MemoryPool* pool_;
  MutableBuffer slots_;   // capacity_ uint32: tag | (index + 1), 0 = empty
  MutableBuffer values_;
  int64_t capacity_ = 0;  // slots, a power of two (0 before the first insert)
  int64_t max_fill_ = 0;  // MaxFill(capacity_); values_ has room for as many
  uint32_t tag_mask_ = 0;  // a slot's bits above its index + 1's
  int32_t size_ = 0;
  int64_t initial_capacity_;
  uint64_t hash_mask_ = ~uint64_t{0};
};

extern template class ScalarMemoTable<int8_t>;
extern template class ScalarMemoTable<uint8_t>;
extern template class ScalarMemoTable<int16_t>;
extern template class ScalarMemoTable<uint16_t>;
extern template class ScalarMemoTable<int32_t>;
extern template class ScalarMemoTable<uint32_t>;
extern template class ScalarMemoTable<int64_t>;
extern template class ScalarMemoTable<uint64_t>;
extern template class ScalarMemoTable<float>;
extern template class ScalarMemoTable<double>;

// A memo table of byte strings (binary, string, fixed-size binary,
// decimals). The distinct values are stored back to back in data() with
// size() + 1 int64 offsets.
class BinaryMemoTable {
 public:
  explicit BinaryMemoTable(MemoryPool* pool = DefaultMemoryPool(), int64_t expected_size = 0,
                           int64_t expected_bytes = 0);
  BinaryMemoTable(BinaryMemoTable&&) noexcept = default;
  BinaryMemoTable& operator=(BinaryMemoTable&&) noexcept = default;

  int32_t size() const { return size_; }
  int32_t Get(const void* bytes, int64_t length) const;
  int32_t Get(std::string_view value) const {
    return Get(value.data(), static_cast<int64_t>(value.size()));
  }
  Result<int32_t> GetOrInsert(const void* bytes, int64_t length, bool* inserted = nullptr);
  Result<int32_t> GetOrInsert(std::string_view value, bool* inserted = nullptr) {
    return GetOrInsert(value.data(), static_cast<int64_t>(value.size()), inserted);
  }

  std::string_view value(int32_t index) const {
    const int64_t* o = offsets();
    return {reinterpret_cast<const char*>(data()) + o[index],
            static_cast<size_t>(o[index + 1] - o[index])};
  }
  // size() + 1 offsets into data(), the first 0 (an empty table's point at
  // a zero, in the zero-size area).
  const int64_t* offsets() const { return offsets_.data_as<int64_t>(); }
  const uint8_t* data() const { return data_.data(); }
  // Bytes of all the distinct values.
  int64_t data_length() const { return data_.size(); }
  // Bytes of values [start, size()).
  int64_t data_length(int32_t start) const {
    return start >= size_ ? 0 : data_.size() - offsets()[start];
  }
  // visit(index, std::string_view) for values [start, size()).
  template <typename Visit>
  void VisitValues(int32_t start, Visit&& visit) const {
    for (int32_t i = start; i < size_; ++i) visit(i, value(i));
  }

  void Clear();
  int64_t memory_used() const {
    return slots_.capacity() + offsets_.capacity() + data_.capacity();
  }
  void set_hash_mask_for_testing(uint64_t mask) { hash_mask_ = mask; }

 private:
  struct Slot {
    uint64_t hash;
    int32_t index;  // kKeyNotFound = empty
  };
  Status Rehash(int64_t new_capacity);
  Status Init();

  MemoryPool* pool_;
  MutableBuffer slots_;
  MutableBuffer offsets_;  // int64, size() + 1 of them once initialised
  MutableBuffer data_;
  int64_t capacity_ = 0;
  int32_t size_ = 0;
  int64_t initial_capacity_;
  int64_t expected_bytes_;
  uint64_t hash_mask_ = ~uint64_t{0};
};

// The first value of the byte strings [offsets[k], offsets[k + 1]) of
// `data`, k in [0, length), that equals an earlier one: its k, or -1 if the
// values are distinct. Checks an Arrow binary array's values (Offset int32
// or int64) in place, without a memo table's copy of them. hashes[k] is
// value k's hash (HashBytes, or any function of the bytes: equal values
// must have equal hashes), computed by the caller in its own pass over the
// values; a table of (hash bits, k) slots at most 9/16 full, each prefetched
// a few values ahead. With max_collisions >= 0, a search that has compared
// that many pairs of distinct values with equal hash bits stops and returns
// kTooManyCollisions (a weak hash, such as HashBytesSampled's, met values
// it cannot tell apart: search again with a full one).
inline constexpr int64_t kTooManyCollisions = -2;
template <typename Offset>
Result<int64_t> FindRepeatedValue(const Offset* offsets, const uint8_t* data,
                                  const uint64_t* hashes, int64_t length, MemoryPool* pool,
                                  int64_t max_collisions = -1);
extern template Result<int64_t> FindRepeatedValue(const int32_t*, const uint8_t*,
                                                  const uint64_t*, int64_t, MemoryPool*,
                                                  int64_t);
extern template Result<int64_t> FindRepeatedValue(const int64_t*, const uint8_t*,
                                                  const uint64_t*, int64_t, MemoryPool*,
                                                  int64_t);

}  // namespace quiver::internal
