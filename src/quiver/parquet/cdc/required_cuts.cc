// The content-defined chunker's loops for required, not nested columns
// (chunker.cc): a decision after each value; for bytes in one buffer, the
// first match of each run found by one tight loop.
#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "quiver/parquet/cdc/boundary_internal.h"
#include "quiver/parquet/cdc/slot_bytes_internal.h"

namespace quiver::parquet::cdc::internal {

namespace {

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

}  // namespace

Status FindRequiredCuts(const LeafLevels& levels, int64_t begin, int64_t end, const Limits& limits,
                        ChunkerState& s, std::vector<int64_t>* cuts) {
  return VisitBytes(*levels.leaf, [&](const auto& bytes) {
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
  });
}

}  // namespace quiver::parquet::cdc::internal
