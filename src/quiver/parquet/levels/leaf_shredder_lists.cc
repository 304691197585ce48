// LeafShredder's list paths (leaf_shredder_internal.h): a list of a leaf
// (possibly through a struct) and a list of lists of a leaf, their levels
// counted, then written in flat passes over the offsets and validity
// bitmaps; what they cannot take goes to the general walk.
#include <algorithm>
#include <bit>
#include <cstring>

#include "quiver/parquet/levels/leaf_shredder_internal.h"
#include "quiver/util/dcheck.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver::parquet {

// The list at `depth` whose child is the leaf, or a struct whose child
// (at depth + 2) is the leaf, as the flat passes see it; none for a
// null-type leaf, a required leaf or struct with a validity bitmap (the
// general walk reports their nulls).
inline std::optional<LeafShredder::ListOfLeafLevels> LeafShredder::ListOfLeafAt(size_t depth) const {
  const ArrowNode& node = *path_[depth].node;
  const bool via_struct = path_[depth + 1].node->kind == ArrowNodeKind::kStruct;
  const size_t leaf_depth = depth + (via_struct ? 2 : 1);
  const ArrowNode& leaf_node = *path_[leaf_depth].node;
  const ArrayData& leaf = *path_[leaf_depth].data;
  if (leaf.type->id() == Type::kNull) return std::nullopt;
  const uint8_t* leaf_valid = leaf.validity();
  if (leaf_valid != nullptr && !leaf_node.nullable) return std::nullopt;
  const int16_t present = leaf_node.levels.def_level;
  ListOfLeafLevels l{ListSlots(node, *path_[depth].data),
                     static_cast<int16_t>(node.levels.def_level - (node.nullable ? 1 : 0)),
                     node.levels.def_level,
                     path_[depth + 1].node->levels.rep_level,
                     node.nullable,
                     &leaf,
                     leaf_valid,
                     present,
                     static_cast<int16_t>(present - (leaf_node.nullable ? 1 : 0))};
  l.elements = leaf.length;
  if (leaf_valid != nullptr) l.leaf_valid_bytes = leaf.buffers[0]->size();
  if (via_struct) {
    const ArrowNode& struct_node = *path_[depth + 1].node;
    const ArrayData& st = *path_[depth + 1].data;
    l.struct_valid = st.validity();
    if (l.struct_valid != nullptr && !struct_node.nullable) return std::nullopt;
    l.struct_offset = st.offset;
    if (l.struct_valid != nullptr) l.struct_valid_bytes = st.buffers[0]->size();
    l.struct_null_def = static_cast<int16_t>(struct_node.levels.def_level - 1);
    l.elements = std::max<int64_t>(0, std::min(st.length, leaf.length - st.offset));
  }
  return l;
}

// ListOfLeafAt(depth), made once per depth (a list inside a list or a
// struct is visited once per run of its parent's slots).
inline const std::optional<LeafShredder::ListOfLeafLevels>& LeafShredder::CachedListOfLeafAt(size_t depth) {
  if (list_of_leaf_.size() <= depth) list_of_leaf_.resize(depth + 1);
  auto& [made, at] = list_of_leaf_[depth];
  if (!made) {
    at = ListOfLeafAt(depth);
    made = true;
  }
  return at;
}

// The number of levels of list slots [start, end) (one per null or empty
// slot, one per element otherwise) added to *total; false for what the
// general walk must see (a null in a required list, bad offsets).
inline bool LeafShredder::CountListOfLeaf(const ListOfLeafLevels& l, int64_t start, int64_t end, int64_t* total) {
  return CountListOfLeafT<false>(l, start, end, nullptr, total);
}

// (kMarks: slot i counts, and is judged, only where the running sum of
// marks[0 .. i - start] is 0.)
template <bool kMarks>
inline bool LeafShredder::CountListOfLeafT(const ListOfLeafLevels& l, int64_t start, int64_t end, const int8_t* marks,
                             int64_t* total) {
  // Without a branch per slot (null and empty slots are random in
  // practice); the offsets of a null slot are read but not judged.
  int64_t count = 0;
  bool bad = false;
  int64_t cs, ce;
  int excluded = 0;
  for (int64_t i = start; i < end; ++i) {
    // (In bit operations: GCC 12 made `valid ? ... : ...` a branch.)
    const int64_t valid = l.slots.IsValid(i);
    l.slots.Bounds(i, &cs, &ce);
    const int64_t len = ce - cs;
    const bool slot_bad = (valid & ((cs < 0) | (len < 0) | (ce > l.elements))) | ((valid ^ 1) & !l.list_nullable);
    const int64_t levels = std::max<int64_t>(len & -valid, 1);
    if constexpr (kMarks) {
      excluded += marks[i - start];
      bad |= slot_bad & (excluded == 0);
      count += excluded == 0 ? levels : 0;
    } else {
      bad |= slot_bad;
      count += levels;
    }
  }
  if (bad) return false;
  *total += count;
  return true;
}

inline void LeafShredder::ExtendRange(OpenRange* r, int64_t cs, int64_t ce) {
  if (cs == r->end) {
    r->end = ce;
    return;
  }
  if (r->start >= 0) AddRange(r->start, r->end, 0);
  r->start = cs;
  r->end = ce;
}

inline void LeafShredder::CloseRange(const OpenRange& r) {
  if (r.start >= 0) AddRange(r.start, r.end, 0);
}

// Writes the levels CountListOfLeaf counted at *dp / *rp (advancing
// them): the first slot at first_rep, the others at rest_rep. A slot of
// at most 8 levels (null, empty, or up to 8 elements) writes 8 levels'
// room at once and keeps its own (the buffers have kLevelSlack levels of
// room past the end), with no branch on the slot's kind.
inline void LeafShredder::WriteListOfLeaf(const ListOfLeafLevels& l, int64_t start, int64_t end, int16_t first_rep,
                     int16_t rest_rep, int16_t** dp, int16_t** rp, int64_t* values,
                     OpenRange* range, const OuterRun* outer) {
  // (`outer`: the inner slots of that run of outer slots; see OuterRun.)
  const bool struct_nulls = l.struct_valid != nullptr;
  if (struct_nulls && outer != nullptr) {
    WriteListOfLeafT<true, true>(l, start, end, first_rep, rest_rep, dp, rp, values, range, outer);
  } else if (struct_nulls) {
    WriteListOfLeafT<true, false>(l, start, end, first_rep, rest_rep, dp, rp, values, range);
  } else if (outer != nullptr) {
    WriteListOfLeafT<false, true>(l, start, end, first_rep, rest_rep, dp, rp, values, range, outer);
  } else {
    WriteListOfLeafT<false, false>(l, start, end, first_rep, rest_rep, dp, rp, values, range);
  }
}

// (kStructNulls: a struct with a validity bitmap between the list and
// the leaf; compiled apart so that lists of leaves pay nothing for it.
// kOuter: the inner slots of a run of outer slots, `outer`.)
template <bool kStructNulls, bool kOuter>
inline void LeafShredder::WriteListOfLeafT(const ListOfLeafLevels& l, int64_t start, int64_t end, int16_t first_rep,
                      int16_t rest_rep, int16_t** dp, int16_t** rp, int64_t* values,
                      OpenRange* range, const OuterRun* outer) {
  int16_t* d = *dp;
  int16_t* r = *rp;
  int64_t cs, ce;
  // kOuter: o is the outer slot of inner slot i; its inner slots end at
  // `next`, where outer slot o + 1's start.
  int64_t o = 0, next = 0, unused = 0;
  if constexpr (kOuter) {
    o = outer->first;
    outer->slots->Bounds(o, &unused, &next);
    next += outer->shift;
  }
  int64_t present_values = 0;
  // (Locals: the level stores could alias `l`'s fields.)
  const int16_t present = l.present, leaf_null = l.leaf_null, elem_rep = l.elem_rep;
  const int16_t empty_def = l.empty_def, null_def = l.null_def, struct_null = l.struct_null_def;
  const uint8_t* const leaf_valid = l.leaf_valid;
  const uint8_t* const struct_valid = l.struct_valid;
  const int64_t leaf_valid_bytes = l.leaf_valid_bytes, struct_valid_bytes = l.struct_valid_bytes;
  const int64_t struct_offset = l.struct_offset;  // element 0's leaf slot
  const int64_t leaf_offset = l.leaf->offset + struct_offset;  // its validity bit
  const int64_t shift = struct_offset;
#if defined(__SSE2__)
  const __m128i lanes = _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128);
  const __m128i present8 = _mm_set1_epi16(present);
  const __m128i null8 = _mm_set1_epi16(leaf_null);
  const __m128i struct_null8 = _mm_set1_epi16(struct_null);
  const __m128i elem_rep8 = _mm_set1_epi16(elem_rep);
#endif
  for (int64_t i = start; i < end; ++i) {
    int16_t rep = i == start ? first_rep : rest_rep;
    if constexpr (kOuter) {
      // (Without a branch: outer slots of 1..4 inner slots are random.)
      const bool starts_outer = i == next;
      o += starts_outer;
      outer->slots->Bounds(o, &unused, &next);
      next += outer->shift;
      rep = starts_outer ? outer->outer_rep : rep;
    }
    const bool valid = l.slots.IsValid(i);
    l.slots.Bounds(i, &cs, &ce);
    const int64_t len = valid ? ce - cs : 0;
    if (len <= 8) {
      const int n = static_cast<int>(len);
      const int64_t some = -static_cast<int64_t>(n > 0);  // all ones if the slot has elements
      const uint64_t all = bit_util::LeastSignificantBitMask(n);
      const uint64_t leaf_bits =
          leaf_valid == nullptr ? all : bitmap::LoadBitsIn(leaf_valid, leaf_valid_bytes, leaf_offset + cs, n);
      const uint64_t struct_bits =
          kStructNulls ? bitmap::LoadBitsIn(struct_valid, struct_valid_bytes, struct_offset + cs, n) : all;
#if defined(__SSE2__)
      const __m128i leaf_set =
          _mm_cmpeq_epi16(_mm_and_si128(_mm_set1_epi16(static_cast<int16_t>(leaf_bits)), lanes), lanes);
      __m128i defs = _mm_or_si128(_mm_and_si128(leaf_set, present8), _mm_andnot_si128(leaf_set, null8));
      if constexpr (kStructNulls) {
        const __m128i struct_set =
            _mm_cmpeq_epi16(_mm_and_si128(_mm_set1_epi16(static_cast<int16_t>(struct_bits)), lanes), lanes);
        defs = _mm_or_si128(_mm_and_si128(struct_set, defs), _mm_andnot_si128(struct_set, struct_null8));
      }
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d), defs);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(r), elem_rep8);
      // An empty or null slot's one level, chosen without a branch (a
      // fifth of the slots of random lengths 0..4 are empty: a branch on
      // n == 0 mispredicted often).
      const auto first = static_cast<int16_t>(_mm_cvtsi128_si32(defs));
      const int16_t none = valid ? empty_def : null_def;
      d[0] = static_cast<int16_t>((first & some) | (none & ~some));
#else
      for (int k = 0; k < 8; ++k) {
        d[k] = ((struct_bits >> k) & 1) == 0 ? struct_null : ((leaf_bits >> k) & 1) != 0 ? present : leaf_null;
        r[k] = elem_rep;
      }
      if (n == 0) d[0] = valid ? empty_def : null_def;
#endif
      r[0] = rep;
      present_values += std::popcount(kStructNulls ? leaf_bits & struct_bits : leaf_bits);
      const int step = n + static_cast<int>(n == 0);  // max(n, 1), n >= 0
      d += step;
      r += step;
      // An empty or null slot extends the open range by nothing (its
      // bounds are the range's end; struct_bits == all == 0 for it).
      const int64_t from = ((shift + cs) & some) | (range->end & ~some);
      const int64_t to = ((shift + ce) & some) | (range->end & ~some);
      if (!kStructNulls || struct_bits == all) {
        ExtendRange(range, from, to);
      } else {
        ExtendRuns(range, struct_bits, from);
      }
      continue;
    }
    r[0] = rep;
    std::fill(r + 1, r + len, elem_rep);
    r += len;
    if constexpr (!kStructNulls) {
      if (leaf_valid == nullptr) {
        std::fill(d, d + len, present);
        present_values += len;
      } else {
        int64_t n = 0;
        for (int64_t k = 0; k < len; ++k) {
          const bool v = bit_util::GetBit(leaf_valid, leaf_offset + cs + k);
          d[k] = v ? present : leaf_null;
          n += v;
        }
        present_values += n;
      }
      ExtendRange(range, shift + cs, shift + ce);
    } else {
      int64_t n = 0;
      for (int64_t k = 0; k < len; ++k) {
        const bool s = bit_util::GetBit(struct_valid, struct_offset + cs + k);
        const bool v = s && (leaf_valid == nullptr || bit_util::GetBit(leaf_valid, leaf_offset + cs + k));
        d[k] = !s ? struct_null : v ? present : leaf_null;
        n += v;
        if (s) ExtendRange(range, shift + cs + k, shift + cs + k + 1);
      }
      present_values += n;
    }
    d += len;
  }
  *values += present_values;
  *dp = d;
  *rp = r;
}

// ExtendRange for each run of set bits of `bits` (bit k: slot at + k).
inline void LeafShredder::ExtendRuns(OpenRange* range, uint64_t bits, int64_t at) {
  while (bits != 0) {
    const int s = std::countr_zero(bits);
    const uint64_t t = ~(bits >> s);
    const int len = t == 0 ? 64 - s : std::countr_zero(t);
    ExtendRange(range, at + s, at + s + len);
    bits &= ~(bit_util::LeastSignificantBitMask(len) << s);
  }
}

inline void LeafShredder::GrowLevels(int64_t total, int16_t** dp, int16_t** rp) {
  const size_t at = out_->def_levels.size();
  out_->def_levels.resize(at + static_cast<size_t>(total + kLevelSlack));
  out_->rep_levels.resize(at + static_cast<size_t>(total + kLevelSlack));
  *dp = out_->def_levels.data() + at;
  *rp = out_->rep_levels.data() + at;
}

// After the flat passes wrote `total` levels with `values` leaf values:
// the slack dropped, the open range added, the counts kept.
// `unused`: levels of room that were not written (a bound's rest).
inline void LeafShredder::EndFlatPasses(const OpenRange& range, int64_t values, int64_t total, int64_t unused) {
  out_->def_levels.resize(out_->def_levels.size() - static_cast<size_t>(kLevelSlack + unused));
  out_->rep_levels.resize(out_->rep_levels.size() - static_cast<size_t>(kLevelSlack + unused));
  CloseRange(range);
  out_->num_values += values;
  out_->num_levels += total;
}

// A list whose child is the leaf (list<primitive>, the inner list of
// nested lists), or a struct whose child is the leaf (a list of structs'
// primitive fields): the levels of slots [start, end) in two flat passes,
// the first counting them, the second writing them, with no descent per
// run of slots. Returns false, having emitted nothing, for any input the
// general walk must see (it reports errors: a null in a required list,
// struct or leaf, bad offsets; and a null-type leaf).
bool LeafShredder::ListOfLeaf(size_t depth, int64_t start, int64_t end, int16_t first_rep, int16_t rest_rep) {
  const std::optional<ListOfLeafLevels>& at = CachedListOfLeafAt(depth);
  if (!at.has_value()) return false;
  const ListOfLeafLevels& l = *at;
  int64_t total = 0;
  if (!CountListOfLeaf(l, start, end, &total)) return false;
  int16_t *dp, *rp;
  GrowLevels(total, &dp, &rp);
  int64_t values = 0;
  OpenRange range;
  WriteListOfLeaf(l, start, end, first_rep, rest_rep, &dp, &rp, &values, &range);
  EndFlatPasses(range, values, total);
  return true;
}

inline int64_t LeafShredder::CountListsOfLists(const ListSlots& outer, bool nullable, const ListOfLeafLevels& inner, int64_t start,
                          int64_t end, int64_t shift, int64_t elements) {
  int64_t first, last, cs, ce;
  outer.Bounds(start, &first, &ce);
  outer.Bounds(end - 1, &cs, &last);
  if (first < 0 || last < first || last > elements) return kNotCounted;
  const int64_t span = last - first;
  marks_.assign(static_cast<size_t>(span + 1), 0);
  int8_t* const marks = marks_.data();
  int64_t prev = first, lone = 0, nulls = 0;
  bool apart = false;
  for (int64_t i = start; i < end; ++i) {
    outer.Bounds(i, &cs, &ce);
    const bool valid = outer.IsValid(i);
    apart |= (cs != prev) | (ce < cs);
    lone += !valid | (ce == cs);
    nulls += !valid;
    // (Clamped: offsets that leave [first, last] are found apart.)
    const int8_t owned = !valid & (ce > cs);
    marks[std::clamp<int64_t>(cs - first, 0, span)] += owned;
    marks[std::clamp<int64_t>(ce - first, 0, span)] -= owned;
    prev = ce;
  }
  if (apart) return kNotCounted;
  if (nulls > 0 && !nullable) return kBadLists;
  int64_t total = lone;
  if (!CountListOfLeafT<true>(inner, shift + first, shift + last, marks, &total)) return kBadLists;
  return total;
}

// A list of lists of the leaf (list<list<primitive>>), or of structs
// whose field is a list of the leaf (list<struct<..., list<primitive>>>):
// the same two flat passes over the outer slots, each present non-empty
// one handing its inner slots to the inner list's passes (the first at
// the outer slot's repetition level, the others at the inner list's; a
// null struct slot is one level), instead of one descent per run of
// outer slots and a repair of the runs' first levels (MarkListStarts);
// where the offsets give a bound on the levels (BoundListsOfLists), the
// counting pass is skipped. Returns false, having emitted nothing, as
// ListOfLeaf.
bool LeafShredder::ListOfListOfLeaf(size_t depth, int64_t start, int64_t end, int16_t first_rep,
                      int16_t rest_rep) {
  const ArrowNode& node = *path_[depth].node;
  const bool via_struct = path_[depth + 1].node->kind == ArrowNodeKind::kStruct;
  const size_t inner_depth = depth + (via_struct ? 2 : 1);
  const ArrayData& inner_data = *path_[inner_depth].data;
  const std::optional<ListOfLeafLevels>& at = CachedListOfLeafAt(inner_depth);
  if (!at.has_value()) return false;
  const ListOfLeafLevels& inner = *at;
  const ListSlots outer(node, *path_[depth].data);
  const auto null_def = static_cast<int16_t>(node.levels.def_level - (node.nullable ? 1 : 0));
  const int16_t empty_def = node.levels.def_level;
  const int16_t elem_rep = path_[depth + 1].node->levels.rep_level;
  // A struct between the lists (list<struct<..., list<leaf>, ...>>): outer
  // element k is struct slot k, whose inner list slot is struct_offset +
  // k; a null struct slot is one level at struct_null.
  const uint8_t* struct_valid = nullptr;
  int64_t struct_offset = 0;
  int16_t struct_null = 0;
  int64_t elements = inner_data.length;
  if (via_struct) {
    const ArrayData& st = *path_[depth + 1].data;
    struct_valid = st.validity();
    if (struct_valid != nullptr && !path_[depth + 1].node->nullable) return false;
    struct_offset = st.offset;
    struct_null = static_cast<int16_t>(path_[depth + 1].node->levels.def_level - 1);
    elements = std::max<int64_t>(0, std::min(st.length, inner_data.length - st.offset));
  }
  auto struct_null_at = [&](int64_t k) {
    return struct_valid != nullptr && !bit_util::GetBit(struct_valid, struct_offset + k);
  };
  // Without struct nulls, a run of present, non-empty outer slots whose
  // inner ranges join is one range of inner slots, written by one call
  // (told where each outer slot starts), not one per outer slot (it is
  // counted with the others by CountListsOfLists). run_end(i, ce) is the end of the
  // run that starts at outer slot i (range [cs, ce)): the first slot not
  // in it, and the end of its inner range; a slot whose offsets are bad
  // ends the run (and is judged as the run after it).
  auto run_end = [&](int64_t i, int64_t ce, int64_t* inner_end) {
    int64_t j = i + 1;
    int64_t s2, e2;
    for (; j < end && outer.IsValid(j); ++j) {
      outer.Bounds(j, &s2, &e2);
      if (s2 != ce || e2 <= s2 || e2 > elements) break;
      ce = e2;
    }
    *inner_end = ce;
    return j;
  };
  int64_t total = 0;
  int64_t cs, ce;
  // The levels are written within a bound taken from the offsets
  // (BoundListsOfLists, with or without a struct between the lists) and
  // the rest of it dropped, where the offsets allow: no count before.
  // Else, without struct nulls, counted in two passes without a branch
  // per slot (CountListsOfLists) where the outer offsets allow, else slot
  // by slot (which judges them).
  const int64_t bound = BoundListsOfLists(outer, node.nullable, inner, start, end, elements, struct_offset);
  if (bound == kBadLists) return false;
  const int64_t counted =
      bound >= 0 ? bound
      : struct_valid == nullptr ? CountListsOfLists(outer, node.nullable, inner, start, end, struct_offset, elements)
                                : kNotCounted;
  if (counted == kBadLists) return false;
  if (counted >= 0) total = counted;
  for (int64_t i = counted >= 0 ? end : start; i < end; ++i) {
    if (!outer.IsValid(i)) {
      if (!node.nullable) return false;
      ++total;
      continue;
    }
    outer.Bounds(i, &cs, &ce);
    if (cs < 0 || ce < cs || ce > elements) return false;
    if (cs == ce) {
      ++total;
    } else if (struct_valid == nullptr) {
      if (!CountListOfLeaf(inner, struct_offset + cs, struct_offset + ce, &total)) return false;
    } else {
      for (int64_t k = cs; k < ce; ++k) {
        if (struct_null_at(k)) {
          ++total;
        } else if (!CountListOfLeaf(inner, struct_offset + k, struct_offset + k + 1, &total)) {
          return false;
        }
      }
    }
  }
  int16_t *dp, *rp;
  GrowLevels(total, &dp, &rp);
  const int16_t* const first_level = dp;
  int64_t values = 0;
  OpenRange range;
  for (int64_t i = start; i < end; ++i) {
    const int16_t rep = i == start ? first_rep : rest_rep;
    if (!outer.IsValid(i)) {
      *dp++ = null_def;
      *rp++ = rep;
      continue;
    }
    outer.Bounds(i, &cs, &ce);
    if (cs == ce) {
      *dp++ = empty_def;
      *rp++ = rep;
      continue;
    }
    if (struct_valid == nullptr) {
      const int64_t j = run_end(i, ce, &ce);
      const OuterRun run{&outer, i, struct_offset, rest_rep};
      WriteListOfLeaf(inner, struct_offset + cs, struct_offset + ce, rep, elem_rep, &dp, &rp, &values, &range,
                      j > i + 1 ? &run : nullptr);
      i = j - 1;
      continue;
    }
    // Null struct slots one level each; runs of valid ones to the inner
    // list's pass (the run's first at the slot's level if it is the
    // slot's first element).
    for (int64_t k = cs; k < ce;) {
      const int16_t first = k == cs ? rep : elem_rep;
      if (struct_null_at(k)) {
        *dp++ = struct_null;
        *rp++ = first;
        ++k;
        continue;
      }
      int64_t e = k + 1;
      while (e < ce && !struct_null_at(e)) ++e;
      WriteListOfLeaf(inner, struct_offset + k, struct_offset + e, first, elem_rep, &dp, &rp, &values,
                      &range);
      k = e;
    }
  }
  // (Within a bound, `total` is what was written; the rest is dropped.)
  const int64_t written = dp - first_level;
  QUIVER_DCHECK_LE(written, total);
  EndFlatPasses(range, values, written, total - written);
  return true;
}

// A bound on the levels of outer slots [start, end) from the offsets
// alone (one per outer slot, one per inner slot of their span, one per
// leaf slot of those inner slots' span), where both lists' offsets are
// in order (ListSlots::InOrder: no range leaves its array, none overlaps
// another) and an inner list with a validity bitmap is nullable (its
// nulls need no judging). A null or empty slot is one level and a null
// outer slot skips what it owns, so the levels are at most that many
// (and the bound at most the slots the arrays hold). With a struct
// between the lists (`shift`: its offset), outer element k is struct
// slot k over inner slot shift + k; a null struct slot is one level, no
// more than the inner slot it hides. kNotCounted where the offsets do not
// allow it (the count judges them), kBadLists for a null in a required
// outer list.
inline int64_t LeafShredder::BoundListsOfLists(const ListSlots& outer, bool nullable, const ListOfLeafLevels& inner, int64_t start,
                          int64_t end, int64_t elements, int64_t shift) {
  if (!inner.list_nullable && inner.slots.validity() != nullptr) return kNotCounted;
  if (!outer.InOrder(start, end, elements)) return kNotCounted;
  if (!nullable && outer.validity() != nullptr &&
      bitmap::CountSetBits(outer.validity(), outer.offset() + start, end - start) != end - start) {
    return kBadLists;
  }
  int64_t first, last, unused;
  outer.Bounds(start, &first, &unused);
  outer.Bounds(end - 1, &unused, &last);
  first += shift;
  last += shift;
  if (!inner.slots.InOrder(first, last, inner.elements)) return kNotCounted;
  int64_t leaf_span = 0;
  if (last > first) {
    int64_t leaf_first, leaf_last;
    inner.slots.Bounds(first, &leaf_first, &unused);
    inner.slots.Bounds(last - 1, &unused, &leaf_last);
    leaf_span = leaf_last - leaf_first;
  }
  return (end - start) + (last - first) + leaf_span;
}

}  // namespace quiver::parquet
