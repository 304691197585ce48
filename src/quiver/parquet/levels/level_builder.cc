#include "quiver/parquet/levels/level_builder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <string>

#include "quiver/parquet/schema/arrow_to_parquet.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/dcheck.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver::parquet {

namespace {

// One node on the path from the column's root to a leaf: the Arrow field
// (its kind, nullability and levels) and its array.
struct Step {
  const ArrowNode* node;
  const ArrayData* data;
};

// Slot access of a list-like array (list, large_list, map: offsets;
// fixed_size_list: a size): slot i's child range and validity.
class ListSlots {
 public:
  ListSlots(const ArrowNode& node, const ArrayData& d)
      : off32_(node.kind == ArrowNodeKind::kList || node.kind == ArrowNodeKind::kMap
                   ? d.GetValues<int32_t>(1)
                   : nullptr),
        off64_(node.kind == ArrowNodeKind::kLargeList ? d.GetValues<int64_t>(1) : nullptr),
        fixed_(node.kind == ArrowNodeKind::kFixedSizeList ? TypeAs<ListType>(*d.type).list_size() : 0),
        offset_(d.offset),
        valid_(d.validity()) {}

  void Bounds(int64_t i, int64_t* cs, int64_t* ce) const {
    if (off32_ != nullptr) {
      *cs = off32_[i];
      *ce = off32_[i + 1];
    } else if (off64_ != nullptr) {
      *cs = off64_[i];
      *ce = off64_[i + 1];
    } else {
      *cs = (offset_ + i) * fixed_;
      *ce = *cs + fixed_;
    }
  }
  bool IsValid(int64_t i) const { return valid_ == nullptr || bit_util::GetBit(valid_, offset_ + i); }
  // The validity bitmap (null: none) and its bit offset.
  const uint8_t* validity() const { return valid_; }
  int64_t offset() const { return offset_; }

  // Whether the child ranges of slots [start, end) are in order within
  // [0, elements]: slot start's begins at or after 0, each ends where the
  // next begins and at or after its own start, and slot end - 1's ends at
  // or before `elements` (offsets: one pass over them without a branch;
  // a fixed-size list's always are, if the last ends in time). Then every
  // slot's range lies within [slot start's start, slot end - 1's end].
  bool InOrder(int64_t start, int64_t end, int64_t elements) const {
    if (start >= end) return true;
    if (off32_ != nullptr) return OffsetsInOrder(off32_ + start, end - start, elements);
    if (off64_ != nullptr) return OffsetsInOrder(off64_ + start, end - start, elements);
    return (offset_ + end) * fixed_ <= elements;
  }

 private:
  // (int32 offsets four at a time with SSE2: -O2 does not vectorise the
  // loop, which took 5% of a list<list<int32>> write's instructions.)
  template <typename O>
  static bool OffsetsInOrder(const O* o, int64_t n, int64_t elements) {
    if (o[0] < 0 || o[n] > elements) return false;
    int64_t i = 0;
    bool decreasing = false;
#if defined(__SSE2__)
    if constexpr (sizeof(O) == 4) {
      __m128i down = _mm_setzero_si128();
      for (; i + 4 <= n; i += 4) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(o + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(o + i + 1));
        down = _mm_or_si128(down, _mm_cmpgt_epi32(a, b));
      }
      decreasing = _mm_movemask_epi8(down) != 0;
    }
#endif
    for (; i < n; ++i) decreasing |= o[i + 1] < o[i];
    return !decreasing;
  }

  const int32_t* off32_;
  const int64_t* off64_;
  int64_t fixed_;
  int64_t offset_;
  const uint8_t* valid_;
};

// The errors of a leaf's own slots (LeafShredder and LevelsFromSibling).
Status NullInRequired(const ArrowNode& node, int64_t slot) {
  return Status::Invalid("field '", node.name, "' is not nullable but has a null at slot ", slot);
}
Status BeyondLeaf(const ArrowNode& node, int64_t start, int64_t end, int64_t length) {
  return Status::Invalid("field '", node.name, "': child range [", start, ", ", end,
                         ") is beyond the leaf array's length ", length);
}

class LeafShredder {
 public:
  LeafShredder(std::vector<Step> path, LeafLevels* out) : path_(std::move(path)), out_(out) {}

  Status Run(int64_t length) {
    return Visit(0, 0, length, 0, 0);
  }

 private:
  // Room in def_bits for n more levels (new bits are 0).
  uint8_t* GrowBits(int64_t n) {
    out_->def_bits.resize(static_cast<size_t>(bit_util::BytesForBits(out_->num_levels + n)));
    return out_->def_bits.data();
  }

  void Emit(int16_t def, int16_t rep) {
    if (out_->def_packed) {
      bit_util::SetBitTo(GrowBits(1), out_->num_levels, def != 0);
    } else if (out_->max_def > 0) {
      out_->def_levels.push_back(def);
    }
    if (out_->max_rep > 0) out_->rep_levels.push_back(rep);
    ++out_->num_levels;
  }

  // Emits `n` level slots at definition level `def`, the first at
  // repetition level first_rep and the others at rest_rep.
  void EmitRun(int64_t n, int16_t def, int16_t first_rep, int16_t rest_rep) {
    if (n <= 0) return;
    if (out_->def_packed) {
      uint8_t* bits = GrowBits(n);
      if (def != 0) bitmap::SetBitsTo(bits, out_->num_levels, n, true);
    } else if (out_->max_def > 0) {
      if (def == 0) {
        // (A memset, where a fill of a runtime value of int16 is a loop.
        // Null runs are level 0. resize does not zero LevelVector.)
        const size_t at = out_->def_levels.size();
        out_->def_levels.resize(at + static_cast<size_t>(n));
        std::memset(out_->def_levels.data() + at, 0, static_cast<size_t>(n) * sizeof(int16_t));
      } else {
        out_->def_levels.insert(out_->def_levels.end(), static_cast<size_t>(n), def);
      }
    }
    if (out_->max_rep > 0) {
      out_->rep_levels.push_back(first_rep);
      out_->rep_levels.insert(out_->rep_levels.end(), static_cast<size_t>(n - 1), rest_rep);
    }
    out_->num_levels += n;
  }

  // Definition levels of a leaf with a validity bitmap: `present` where the
  // bit is set, `absent` where not, 64 slots at a time (all-null and
  // all-valid words are filled without looking at single bits).
  // Packed levels (present 1, absent 0) are the bits themselves.
  void EmitFromBitmap(const uint8_t* valid, int64_t bit_offset, int64_t n, int16_t present,
                      int16_t absent) {
    if (out_->def_packed) {
      bitmap::CopyBitmap(valid, bit_offset, n, GrowBits(n), out_->num_levels);
      return;
    }
    const size_t at = out_->def_levels.size();
    out_->def_levels.resize(at + static_cast<size_t>(n));
    int16_t* o = out_->def_levels.data() + at;
    // A word is filled with the majority level, 4 levels a store, then the
    // minority's slots are set one by one (few in sparse or dense words).
    const uint64_t absent4 = 0x0001000100010001ull * static_cast<uint16_t>(absent);
    const uint64_t present4 = 0x0001000100010001ull * static_cast<uint16_t>(present);
    auto fill = [](int16_t* dst, int nb, uint64_t level4, int16_t level) {
      int b = 0;
      for (; b + 4 <= nb; b += 4) std::memcpy(dst + b, &level4, sizeof(level4));
      for (; b < nb; ++b) dst[b] = level;
    };
    for (int64_t pos = 0; pos < n; pos += 64) {
      const int nb = n - pos < 64 ? static_cast<int>(n - pos) : 64;
      const uint64_t w = bitmap::LoadBits(valid, bit_offset + pos, nb);
      int16_t* dst = o + pos;
      if (2 * std::popcount(w) <= nb) {
        fill(dst, nb, absent4, absent);
        for (uint64_t x = w; x != 0; x &= x - 1) dst[std::countr_zero(x)] = present;
      } else {
        fill(dst, nb, present4, present);
        for (uint64_t x = ~w & bit_util::LeastSignificantBitMask(nb); x != 0; x &= x - 1) {
          dst[std::countr_zero(x)] = absent;
        }
      }
    }
  }

  // The first null slot in [start, end) (there is one).
  static int64_t FirstNull(const uint8_t* valid, int64_t offset, int64_t start, int64_t end) {
    for (int64_t i = start; i < end; ++i) {
      if (!bit_util::GetBit(valid, offset + i)) return i;
    }
    return end;
  }

  // Emits the levels of slots [start, end) of path_[depth]'s array; the
  // first slot's repetition level is first_rep, the others' rest_rep.
  // Each node's levels are its LevelInfo (from the SchemaDescriptor): a
  // present node is at def_level, a null one at def_level - 1.
  Status Visit(size_t depth, int64_t start, int64_t end, int16_t first_rep, int16_t rest_rep) {
    if (start >= end) return Status::OK();
    const ArrowNode& node = *path_[depth].node;
    const ArrayData& d = *path_[depth].data;
    const uint8_t* valid = d.type->id() == Type::kNull ? nullptr : d.validity();
    const bool all_null = d.type->id() == Type::kNull;
    // The definition level of a null slot (the parent's): a non-nullable
    // node adds no level.
    const int16_t present = node.levels.def_level;
    const auto def = static_cast<int16_t>(present - (node.nullable ? 1 : 0));
    switch (node.kind) {
      case ArrowNodeKind::kLeaf: {
        int64_t n = end - start;
        if (end > d.length) return BeyondLeaf(node, start, end, d.length);
        if (all_null) {
          if (!node.nullable && n > 0) return NullInRequired(node, start);
          EmitRun(n, def, first_rep, rest_rep);
          AddRange(start, end, 0);
          return Status::OK();
        }
        int64_t values = n;
        if (valid != nullptr) {
          values = bitmap::CountSetBits(valid, d.offset + start, n);
          if (values != n && !node.nullable) {
            return NullInRequired(node, FirstNull(valid, d.offset, start, end));
          }
        }
        if (values == n || values == 0) {
          EmitRun(n, values == n ? present : def, first_rep, rest_rep);
        } else {
          if (out_->max_def > 0) EmitFromBitmap(valid, d.offset + start, n, present, def);
          if (out_->max_rep > 0) {
            out_->rep_levels.push_back(first_rep);
            out_->rep_levels.insert(out_->rep_levels.end(), static_cast<size_t>(n - 1), rest_rep);
          }
          out_->num_levels += n;
        }
        AddRange(start, end, values);
        return Status::OK();
      }
      case ArrowNodeKind::kStruct: {
        if (end > d.length) {
          return Status::Invalid("field '", node.name, "': slot range [", start, ", ", end,
                                 ") is beyond the struct array's length ", d.length);
        }
        if (valid == nullptr) {
          return Visit(depth + 1, d.offset + start, d.offset + end, first_rep, rest_rep);
        }
        if (path_[depth + 1].node->kind == ArrowNodeKind::kLeaf &&
            (PackedStructOfLeaf(depth, start, end) ||
             StructOfLeaf(depth, start, end, first_rep, rest_rep, def, node.nullable))) {
          return Status::OK();
        }
        // Runs of valid slots descend; the null slots between them are
        // emitted as runs at this level.
        int64_t cursor = start;  // the first slot not emitted yet
        Status st;
        bitmap::VisitSetBitRuns(valid, d.offset + start, end - start, [&](int64_t pos, int64_t len) {
          if (!st.ok()) return;
          const int64_t run = start + pos;
          if (run > cursor) {
            if (!node.nullable) {
              st = NullInRequired(node, cursor);
              return;
            }
            EmitRun(run - cursor, def, cursor == start ? first_rep : rest_rep, rest_rep);
          }
          st = Visit(depth + 1, d.offset + run, d.offset + run + len,
                     run == start ? first_rep : rest_rep, rest_rep);
          cursor = run + len;
        });
        QUIVER_RETURN_NOT_OK(st);
        if (cursor < end) {
          if (!node.nullable) return NullInRequired(node, cursor);
          EmitRun(end - cursor, def, cursor == start ? first_rep : rest_rep, rest_rep);
        }
        return Status::OK();
      }
      case ArrowNodeKind::kList:
      case ArrowNodeKind::kMap:
      case ArrowNodeKind::kLargeList:
      case ArrowNodeKind::kFixedSizeList: {
        if (end > d.length) {
          return Status::Invalid("field '", node.name, "': slot range [", start, ", ", end,
                                 ") is beyond the list array's length ", d.length);
        }
        // An empty list is present at the list's level; its elements'
        // repetition level is the repeated group's, which the element (or
        // a map's entries) has.
        const int16_t empty_def = present;
        const int16_t elem_rep = path_[depth + 1].node->levels.rep_level;
        const ListSlots slots(node, d);
        auto bounds = [&](int64_t i, int64_t* cs, int64_t* ce) { slots.Bounds(i, cs, ce); };
        auto is_valid = [&](int64_t i) { return slots.IsValid(i); };
        const ArrowNodeKind child_kind = path_[depth + 1].node->kind;
        const bool grandchild_leaf =
            depth + 2 < path_.size() && path_[depth + 2].node->kind == ArrowNodeKind::kLeaf;
        if ((child_kind == ArrowNodeKind::kLeaf ||
             (child_kind == ArrowNodeKind::kStruct && grandchild_leaf)) &&
            ListOfLeaf(depth, start, end, first_rep, rest_rep)) {
          return Status::OK();
        }
        const bool list_of_list_of_leaf =
            (grandchild_leaf && IsListLike(child_kind)) ||
            (child_kind == ArrowNodeKind::kStruct && depth + 3 < path_.size() &&
             IsListLike(path_[depth + 2].node->kind) &&
             path_[depth + 3].node->kind == ArrowNodeKind::kLeaf);
        if (list_of_list_of_leaf && ListOfListOfLeaf(depth, start, end, first_rep, rest_rep)) {
          return Status::OK();
        }
        int64_t i = start;
        while (i < end) {
          const int16_t rep = i == start ? first_rep : rest_rep;
          if (!is_valid(i)) {
            if (!node.nullable) return NullInRequired(node, i);
            Emit(def, rep);
            ++i;
            continue;
          }
          int64_t cs, ce;
          bounds(i, &cs, &ce);
          if (ce < cs) {
            return Status::Invalid("field '", node.name, "': list offsets decrease at slot ", i);
          }
          if (cs == ce) {
            Emit(empty_def, rep);
            ++i;
            continue;
          }
          // A run of present, non-empty slots [i, j) owns the contiguous
          // child range [cs, run_end): visited at once (one descent, not
          // one per slot), then the first element of each slot after the
          // first gets its slot's repetition level.
          int64_t j = i + 1;
          int64_t run_end = ce;
          while (j < end && is_valid(j)) {
            int64_t s2, e2;
            bounds(j, &s2, &e2);
            if (s2 != run_end || e2 <= s2) break;  // (an empty slot, or bad offsets: checked above)
            run_end = e2;
            ++j;
          }
          const int64_t base = out_->num_levels;
          QUIVER_RETURN_NOT_OK(Visit(depth + 1, cs, run_end, rep, elem_rep));
          if (j > i + 1) MarkListStarts(base, i, j, cs, run_end - cs, elem_rep, rest_rep, bounds);
          i = j;
        }
        return Status::OK();
      }
    }
    return Status::OK();
  }

  static bool IsListLike(ArrowNodeKind kind) {
    return kind == ArrowNodeKind::kList || kind == ArrowNodeKind::kLargeList ||
           kind == ArrowNodeKind::kMap || kind == ArrowNodeKind::kFixedSizeList;
  }

  // A list (path_[depth]) whose child is the leaf, or a struct whose child
  // is the leaf, as the flat passes below see it: its slots, its levels,
  // the struct's and the leaf's.
  struct ListOfLeafLevels {
    ListSlots slots;
    int16_t null_def;   // a null list slot
    int16_t empty_def;  // an empty one
    int16_t elem_rep;   // an element after a slot's first
    bool list_nullable;
    const ArrayData* leaf;
    const uint8_t* leaf_valid;
    int16_t present;    // a valid element
    int16_t leaf_null;  // a null one
    // A struct between the list and the leaf (list<struct<..., leaf, ...>>):
    // element k is struct slot k, whose leaf slot is struct_offset + k; a
    // null struct slot is at struct_null_def and adds no leaf slot to the
    // ranges. Without one: no validity, offset 0.
    const uint8_t* struct_valid = nullptr;
    int64_t struct_offset = 0;
    int16_t struct_null_def = 0;
    // Elements (list child slots) there are: the leaf's, or the struct's
    // that have a leaf slot.
    int64_t elements = 0;
    // Bytes of the leaf's and the struct's validity buffers (LoadBitsIn).
    int64_t leaf_valid_bytes = 0;
    int64_t struct_valid_bytes = 0;
  };

  // The list at `depth` whose child is the leaf, or a struct whose child
  // (at depth + 2) is the leaf, as the flat passes see it; none for a
  // null-type leaf, a required leaf or struct with a validity bitmap (the
  // general walk reports their nulls).
  std::optional<ListOfLeafLevels> ListOfLeafAt(size_t depth) const {
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
  const std::optional<ListOfLeafLevels>& CachedListOfLeafAt(size_t depth) {
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
  static bool CountListOfLeaf(const ListOfLeafLevels& l, int64_t start, int64_t end, int64_t* total) {
    return CountListOfLeafT<false>(l, start, end, nullptr, total);
  }
  // (kMarks: slot i counts, and is judged, only where the running sum of
  // marks[0 .. i - start] is 0.)
  template <bool kMarks>
  static bool CountListOfLeafT(const ListOfLeafLevels& l, int64_t start, int64_t end, const int8_t* marks,
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

  // The leaf range being extended by the flat passes, added when a gap ends
  // it (AddRange per slot, which merges too, measured 2% slower on
  // list_struct_with_list).
  struct OpenRange {
    int64_t start = -1, end = -1;
  };
  void ExtendRange(OpenRange* r, int64_t cs, int64_t ce) {
    if (cs == r->end) {
      r->end = ce;
      return;
    }
    if (r->start >= 0) AddRange(r->start, r->end, 0);
    r->start = cs;
    r->end = ce;
  }
  void CloseRange(const OpenRange& r) {
    if (r.start >= 0) AddRange(r.start, r.end, 0);
  }

  // The slots of an outer list whose inner slots one WriteListOfLeafT call
  // writes: outer slots first, first + 1, ... are present and non-empty,
  // and their inner ranges join (slot k's ends where k + 1's starts); the
  // inner slot that starts outer slot k > first is at outer_rep. An outer
  // slot's range [cs, ce) is inner slots [shift + cs, shift + ce).
  struct OuterRun {
    const ListSlots* slots;
    int64_t first;
    int64_t shift;
    int16_t outer_rep;
  };

  // Writes the levels CountListOfLeaf counted at *dp / *rp (advancing
  // them): the first slot at first_rep, the others at rest_rep. A slot of
  // at most 8 levels (null, empty, or up to 8 elements) writes 8 levels'
  // room at once and keeps its own (the buffers have kLevelSlack levels of
  // room past the end), with no branch on the slot's kind.
  void WriteListOfLeaf(const ListOfLeafLevels& l, int64_t start, int64_t end, int16_t first_rep,
                       int16_t rest_rep, int16_t** dp, int16_t** rp, int64_t* values,
                       OpenRange* range, const OuterRun* outer = nullptr) {
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
  void WriteListOfLeafT(const ListOfLeafLevels& l, int64_t start, int64_t end, int16_t first_rep,
                        int16_t rest_rep, int16_t** dp, int16_t** rp, int64_t* values,
                        OpenRange* range, const OuterRun* outer = nullptr) {
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
  void ExtendRuns(OpenRange* range, uint64_t bits, int64_t at) {
    while (bits != 0) {
      const int s = std::countr_zero(bits);
      const uint64_t t = ~(bits >> s);
      const int len = t == 0 ? 64 - s : std::countr_zero(t);
      ExtendRange(range, at + s, at + s + len);
      bits &= ~(bit_util::LeastSignificantBitMask(len) << s);
    }
  }

  // Room for `total` more levels and kLevelSlack beyond (WriteListOfLeaf
  // writes past the last level; EndFlatPasses drops the slack); the int16
  // pointers to fill them.
  static constexpr int64_t kLevelSlack = 8;
  void GrowLevels(int64_t total, int16_t** dp, int16_t** rp) {
    const size_t at = out_->def_levels.size();
    out_->def_levels.resize(at + static_cast<size_t>(total + kLevelSlack));
    out_->rep_levels.resize(at + static_cast<size_t>(total + kLevelSlack));
    *dp = out_->def_levels.data() + at;
    *rp = out_->rep_levels.data() + at;
  }
  // After the flat passes wrote `total` levels with `values` leaf values:
  // the slack dropped, the open range added, the counts kept.
  // `unused`: levels of room that were not written (a bound's rest).
  void EndFlatPasses(const OpenRange& range, int64_t values, int64_t total, int64_t unused = 0) {
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
  bool ListOfLeaf(size_t depth, int64_t start, int64_t end, int16_t first_rep, int16_t rest_rep) {
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

  // The levels of outer list slots [start, end) (no struct between the
  // lists): one per null or empty slot, and the inner slots' own under the
  // others. Two passes without a branch per slot (null and empty slots are
  // random in practice): the outer slots, checking that their offsets
  // never decrease and marking the inner range each null slot owns (Arrow
  // writers leave elements under null slots); then the inner slots from
  // the first outer slot's start to the last one's end, each counted and
  // judged outside the marked ranges only (as the run-by-run count does).
  // kNotCounted where the offsets decrease or leave the inner array (the
  // run-by-run count judges them); kBadLists for what the general walk
  // must see.
  static constexpr int64_t kNotCounted = -1;
  static constexpr int64_t kBadLists = -2;
  int64_t CountListsOfLists(const ListSlots& outer, bool nullable, const ListOfLeafLevels& inner, int64_t start,
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
  bool ListOfListOfLeaf(size_t depth, int64_t start, int64_t end, int16_t first_rep,
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
  int64_t BoundListsOfLists(const ListSlots& outer, bool nullable, const ListOfLeafLevels& inner, int64_t start,
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

  // A nullable struct with a validity bitmap whose child is a required
  // leaf, in a column of packed levels (a flat struct<..., leaf, ...>: one
  // definition bit a slot, set where the struct is valid): the bits are
  // the struct's validity copied at once, and the leaf ranges its runs of
  // set bits, each checked for a null in the leaf. The same levels, ranges
  // and errors as the walk, which descends once per run of valid slots and
  // emits the null runs between them one by one (a 99%-null struct: ~10,000
  // descents a million rows, each leaf). Returns false, having emitted
  // nothing, for what the walk must see (a null-type leaf, a struct past
  // the leaf's length).
  bool PackedStructOfLeaf(size_t depth, int64_t start, int64_t end) {
    const ArrowNode& node = *path_[depth].node;
    const ArrayData& d = *path_[depth].data;
    const ArrowNode& leaf_node = *path_[depth + 1].node;
    const ArrayData& leaf = *path_[depth + 1].data;
    if (!out_->def_packed || !node.nullable || leaf_node.nullable || leaf.type->id() == Type::kNull) {
      return false;
    }
    if (d.offset + end > leaf.length) return false;
    const uint8_t* valid = d.validity();
    const uint8_t* leaf_valid = leaf.validity();
    const int64_t n = end - start;
    // Judged before anything is emitted (on a null the walk runs instead).
    if (leaf_valid != nullptr) {
      bool clean = true;
      bitmap::VisitSetBitRuns(valid, d.offset + start, n, [&](int64_t pos, int64_t len) {
        const int64_t at = d.offset + start + pos;
        clean = clean && bitmap::CountSetBits(leaf_valid, leaf.offset + at, len) == len;
      });
      if (!clean) return false;  // (the walk names the first null)
    }
    bitmap::CopyBitmap(valid, d.offset + start, n, GrowBits(n), out_->num_levels);
    out_->num_levels += n;
    bitmap::VisitSetBitRuns(valid, d.offset + start, n, [&](int64_t pos, int64_t len) {
      const int64_t at = d.offset + start + pos;
      AddRange(at, at + len, len);
    });
    return true;
  }

  // A struct with a validity bitmap whose child is the leaf (a struct's
  // leaves inside lists): one level per slot [start, end), written in one
  // pass (struct null, leaf null or present) with no descent per run of
  // valid slots. Returns false, having emitted nothing, for what the
  // general walk must see (packed levels, errors, a null-type leaf).
  bool StructOfLeaf(size_t depth, int64_t start, int64_t end, int16_t first_rep, int16_t rest_rep,
                    int16_t null_def, bool struct_nullable) {
    const ArrayData& d = *path_[depth].data;
    const ArrowNode& leaf_node = *path_[depth + 1].node;
    const ArrayData& leaf = *path_[depth + 1].data;
    if (out_->def_packed || out_->max_def == 0 || leaf.type->id() == Type::kNull) return false;
    const uint8_t* valid = d.validity();
    const uint8_t* leaf_valid = leaf.validity();
    if (leaf_valid != nullptr && !leaf_node.nullable) return false;
    if (d.offset + end > leaf.length) return false;
    const int64_t n = end - start;
    if (!struct_nullable && bitmap::CountSetBits(valid, d.offset + start, n) != n) return false;
    const int16_t present = leaf_node.levels.def_level;
    const auto leaf_null = static_cast<int16_t>(present - (leaf_node.nullable ? 1 : 0));
    const size_t at = out_->def_levels.size();
    out_->def_levels.resize(at + static_cast<size_t>(n));
    int16_t* dp = out_->def_levels.data() + at;
    if (out_->max_rep > 0) {
      out_->rep_levels.push_back(first_rep);
      out_->rep_levels.insert(out_->rep_levels.end(), static_cast<size_t>(n - 1), rest_rep);
    }
    int64_t values = 0;
    int64_t run_start = -1;  // the leaf range of the current run of valid struct slots (as above)
    for (int64_t k = 0; k < n; ++k) {
      const int64_t slot = d.offset + start + k;  // the leaf's slot
      if (!bit_util::GetBit(valid, slot)) {
        dp[k] = null_def;
        if (run_start >= 0) AddRange(run_start, slot, 0);
        run_start = -1;
        continue;
      }
      const bool v = leaf_valid == nullptr || bit_util::GetBit(leaf_valid, leaf.offset + slot);
      dp[k] = v ? present : leaf_null;
      values += v;
      if (run_start < 0) run_start = slot;
    }
    if (run_start >= 0) AddRange(run_start, d.offset + end, 0);
    out_->num_values += values;
    out_->num_levels += n;
    return true;
  }

  // After the elements [cs, cs + elements) of list slots [i, j) were
  // emitted from level `base` on, each at elem_rep: the first element of
  // slots i + 1 .. j - 1 is set to slot_rep. An element's first level is
  // the one at a repetition level <= elem_rep (deeper levels are above
  // it); with one level per element, element e is level base + e - cs.
  template <typename Bounds>
  void MarkListStarts(int64_t base, int64_t i, int64_t j, int64_t cs, int64_t elements,
                      int16_t elem_rep, int16_t slot_rep, const Bounds& bounds) {
    int16_t* r = out_->rep_levels.data();
    int64_t first, last;
    if (out_->num_levels - base == elements) {
      for (int64_t k = i + 1; k < j; ++k) {
        bounds(k, &first, &last);
        r[base + first - cs] = slot_rep;
      }
      return;
    }
    int64_t elem = cs;  // the element whose first level is the next one at or below elem_rep
    int64_t l = base;
    for (int64_t k = i + 1; k < j; ++k) {
      bounds(k, &first, &last);
      for (;; ++l) {
        if (r[l] > elem_rep) continue;
        if (elem++ == first) {
          r[l++] = slot_rep;
          break;
        }
      }
    }
  }

  void AddRange(int64_t start, int64_t end, int64_t values) {
    out_->num_values += values;
    if (!out_->ranges.empty() && out_->ranges.back().second == start) {
      out_->ranges.back().second = end;
    } else {
      out_->ranges.emplace_back(start, end);
    }
  }

  std::vector<Step> path_;
  LeafLevels* out_;
  std::vector<std::pair<bool, std::optional<ListOfLeafLevels>>> list_of_leaf_;  // CachedListOfLeafAt
  std::vector<int8_t> marks_;  // CountListsOfLists
};

// Depth-first enumeration of the leaves' paths through the Arrow tree and
// the arrays, checking that the arrays have the tree's types and shapes.
// The levels are the tree's (the SchemaDescriptor's), not derived here.
class PathCollector {
 public:
  explicit PathCollector(const ArrowTree& tree) : tree_(tree) {}

  Status Collect(int32_t at, const ArrayData* data, std::vector<Step>* path,
                 std::vector<LeafLevels>* leaves, std::vector<std::vector<Step>>* paths) {
    const ArrowNode& node = tree_.nodes[static_cast<size_t>(at)];
    const DataType& type = *node.type;
    if (data->type->id() != type.id()) {
      return Status::TypeError("field '", node.name, "' has type ", type.ToString(),
                               " but its array has type ", data->type->ToString());
    }
    switch (node.kind) {
      case ArrowNodeKind::kStruct:
        if (data->children.size() != static_cast<size_t>(node.num_children)) {
          return Status::Invalid("struct field '", node.name, "' has ", data->children.size(),
                                 " child arrays for ", type.num_fields(), " fields");
        }
        break;
      case ArrowNodeKind::kList:
      case ArrowNodeKind::kLargeList:
      case ArrowNodeKind::kFixedSizeList:
      case ArrowNodeKind::kMap:
        if (data->children.size() != 1) {
          return Status::Invalid("list field '", node.name, "' needs one child array");
        }
        break;
      case ArrowNodeKind::kLeaf: {
        path->push_back({&node, data});
        LeafLevels leaf;
        leaf.max_def = node.levels.def_level;
        leaf.max_rep = node.levels.rep_level;
        leaf.leaf_nullable = node.nullable;
        leaves->push_back(std::move(leaf));
        paths->push_back(*path);
        path->pop_back();
        return Status::OK();
      }
    }
    path->push_back({&node, data});
    for (int32_t i = 0; i < node.num_children; ++i) {
      QUIVER_RETURN_NOT_OK(Collect(node.first_child + i,
                                   data->children[static_cast<size_t>(i)].get(), path, leaves,
                                   paths));
    }
    path->pop_back();
    return Status::OK();
  }

 private:
  const ArrowTree& tree_;
};

// Whether leaf path `b` is leaf path `a` but for the leaf itself: two
// fields of one struct, reached through the same arrays.
bool SiblingPaths(const std::vector<Step>& a, const std::vector<Step>& b) {
  if (a.size() != b.size() || a.size() < 2) return false;
  for (size_t k = 0; k + 1 < a.size(); ++k) {
    if (a[k].node != b[k].node || a[k].data != b[k].data) return false;
  }
  return a.back().node->kind == ArrowNodeKind::kLeaf && b.back().node->kind == ArrowNodeKind::kLeaf;
}

// For each 8-bit mask m of lanes: lane i holds 1 << (the number of set
// bits of m below bit i) where bit i is set, else 0 (LevelsFromSibling).
struct RankBits {
  alignas(16) int16_t bits[256][8];
};
constexpr RankBits MakeRankBits() {
  RankBits t{};
  for (int m = 0; m < 256; ++m) {
    int rank = 0;
    for (int i = 0; i < 8; ++i) {
      if ((m >> i) & 1) t.bits[m][i] = static_cast<int16_t>(1 << rank++);
    }
  }
  return t;
}
constexpr RankBits kRankBits = MakeRankBits();

// The levels of a leaf from those of a sibling (SiblingPaths): the same
// level slots, repetition levels and leaf slot ranges (the struct's slots
// index both leaves); the definition levels are the sibling's but where a
// leaf slot is consumed (level >= the parent's level, the struct's), which
// take this leaf's own validity. One pass over the levels instead of a
// second walk of the lists and structs above the leaves. The checks are
// the leaf's own of LeafShredder::Visit: the ranges within the array, no
// null in a consumed slot of a required leaf.
Status LevelsFromSibling(const LeafLevels& sibling, const ArrowNode& node, const ArrayData& d,
                         LeafLevels* out) {
  const auto parent = static_cast<int16_t>(out->max_def - (node.nullable ? 1 : 0));
  int64_t consumed = 0;
  for (const auto& [start, end] : sibling.ranges) {
    if (end > d.length) return BeyondLeaf(node, start, end, d.length);
    consumed += end - start;
  }
  const bool all_null = d.type->id() == Type::kNull;
  const uint8_t* valid = all_null ? nullptr : d.validity();
  // This leaf's validity over the consumed slots in order (bit k: the k-th
  // consumed slot; a byte of padding for the pass below), if it has nulls.
  std::vector<uint8_t> bits;
  int64_t values = all_null ? 0 : consumed;
  if (valid != nullptr) {
    bits.assign(static_cast<size_t>(bit_util::BytesForBits(consumed) + 1), 0);
    int64_t k = 0;
    for (const auto& [start, end] : sibling.ranges) {
      bitmap::CopyBitmap(valid, d.offset + start, end - start, bits.data(), k);
      k += end - start;
    }
    values = bitmap::CountSetBits(bits.data(), 0, consumed);
  }
  if (values != consumed && !node.nullable) {
    for (const auto& [start, end] : sibling.ranges) {
      for (int64_t i = start; i < end; ++i) {
        if (all_null || !bit_util::GetBit(valid, d.offset + i)) return NullInRequired(node, i);
      }
    }
  }
  out->num_levels = sibling.num_levels;
  out->num_values = values;
  out->ranges = sibling.ranges;
  // (A memcpy: libstdc++ copies a vector of a non-std allocator element by
  // element.)
  auto copy_levels = [](const LevelVector& from, LevelVector* to) {
    to->resize(from.size());
    if (!from.empty()) std::memcpy(to->data(), from.data(), from.size() * sizeof(int16_t));
  };
  copy_levels(sibling.rep_levels, &out->rep_levels);
  copy_levels(sibling.def_levels, &out->def_levels);
  int16_t* level = out->def_levels.data();
  const int64_t n = out->num_levels;
  if (valid == nullptr || values == consumed || values == 0) {
    // One level for every consumed slot. (Selects in bit operations: GCC
    // 12 compiles `c ? a : b` in such loops as a branch.)
    const auto level_of_slot = static_cast<int16_t>(values == 0 ? parent : out->max_def);
    for (int64_t l = 0; l < n; ++l) {
      const int16_t v = level[l];
      const auto keep = static_cast<int16_t>(-static_cast<int16_t>(v < parent));
      level[l] = static_cast<int16_t>((v & keep) | (level_of_slot & ~keep));
    }
    return Status::OK();
  }
  int64_t k = 0;  // the consumed slots before level l
  int64_t l = 0;
#if defined(__SSE2__)
  // 8 levels a step (the loop below carries k from level to level): the
  // consumed ones (level >= parent) take the next bits of `bits` in order,
  // lane i the bit at its rank among them (kRankBits: 1 << rank, per lane
  // of an 8-bit mask of consumed lanes). LoadBits reads at most byte
  // (k + 7) / 8 <= BytesForBits(consumed), which `bits` has (its padding).
  const __m128i parent_less_1 = _mm_set1_epi16(static_cast<int16_t>(parent - 1));
  const __m128i parent8 = _mm_set1_epi16(parent);
  for (; l + 8 <= n; l += 8) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(level + l));
    const __m128i c = _mm_cmpgt_epi16(v, parent_less_1);
    const auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(c, _mm_setzero_si128())) & 0xFF);
    const auto w = static_cast<int16_t>(bitmap::LoadBits(bits.data(), k, 8));
    const __m128i rank_bit = _mm_load_si128(reinterpret_cast<const __m128i*>(kRankBits.bits[m]));
    const __m128i set = _mm_cmpeq_epi16(_mm_and_si128(_mm_set1_epi16(w), rank_bit), rank_bit);
    const __m128i taken = _mm_sub_epi16(parent8, set);  // parent, or parent + 1 where the bit is set
    _mm_storeu_si128(reinterpret_cast<__m128i*>(level + l),
                     _mm_or_si128(_mm_and_si128(c, taken), _mm_andnot_si128(c, v)));
    k += std::popcount(m);
  }
#endif
  for (; l < n; ++l) {
    const int16_t v = level[l];
    const int c = v >= parent;
    const auto bit = static_cast<int16_t>((bits[static_cast<size_t>(k >> 3)] >> (k & 7)) & 1);
    const auto take = static_cast<int16_t>(-c);
    level[l] = static_cast<int16_t>((v & ~take) | ((parent + bit) & take));
    k += c;
  }
  return Status::OK();
}

}  // namespace

int CountLeaves(const DataType& type) {
  switch (type.id()) {
    case Type::kStruct:
    case Type::kList:
    case Type::kLargeList:
    case Type::kFixedSizeList:
    case Type::kMap: {
      int n = 0;
      for (const auto& f : type.fields()) n += CountLeaves(*f->type());
      return n;
    }
    default:
      return 1;
  }
}

Result<std::vector<LeafLevels>> ComputeLevels(const ArrowTree& tree, int field,
                                              const ArrayDataPtr& column,
                                              bool pack_flat_def_levels) {
  std::vector<LeafLevels> leaves;
  std::vector<std::vector<Step>> paths;
  std::vector<Step> path;
  QUIVER_RETURN_NOT_OK(PathCollector(tree).Collect(field, column.get(), &path, &leaves, &paths));
  for (size_t i = 0; i < leaves.size(); ++i) {
    LeafLevels& leaf = leaves[i];
    leaf.leaf = nullptr;
    // Keep the leaf array alive through the column (the path points into it).
    const ArrayData* leaf_data = paths[i].back().data;
    leaf.def_packed = pack_flat_def_levels && leaf.max_def == 1 && leaf.max_rep == 0;
    Status st;
    if (leaf.max_rep > 0 && i > 0 && SiblingPaths(paths[i - 1], paths[i])) {
      // (Repeated leaves only: a flat leaf's levels are its bitmaps' copies.)
      st = LevelsFromSibling(leaves[i - 1], *paths[i].back().node, *leaf_data, &leaf);
    } else {
      if (leaf.def_packed) {
        leaf.def_bits.reserve(static_cast<size_t>(bit_util::BytesForBits(column->length)));
      } else if (leaf.max_def > 0) {
        leaf.def_levels.reserve(static_cast<size_t>(column->length));
      }
      if (leaf.max_rep > 0) leaf.rep_levels.reserve(static_cast<size_t>(column->length));
      st = LeafShredder(paths[i], &leaf).Run(column->length);
    }
    if (!st.ok()) {
      // A nested field's error names the inner field: say which column it is in.
      return paths[i].size() > 1
                 ? st.WithContext("column '", tree.nodes[static_cast<size_t>(field)].name, "': ")
                 : st;
    }
    // Find the shared_ptr of the leaf data by walking the path's parents.
    leaf.leaf = std::shared_ptr<ArrayData>(column, const_cast<ArrayData*>(leaf_data));
  }
  return leaves;
}

Result<std::vector<LeafLevels>> ComputeLevels(const Field& field, const ArrayDataPtr& column,
                                              bool pack_flat_def_levels) {
  QUIVER_ASSIGN_OR_RAISE(
      ParquetSchema schema,
      ArrowToParquetSchema(Schema({std::make_shared<const Field>(field)})));
  return ComputeLevels(schema.arrow, 0, column, pack_flat_def_levels);
}

}  // namespace quiver::parquet
