// LeafShredder: the definition and repetition levels of one leaf of an
// Arrow column (level_builder.h), and the pieces the level builder's files
// share. The general walk and the struct paths are in leaf_shredder.cc, the
// list paths (a list of a leaf, a list of lists of a leaf: levels written
// in flat passes over the offsets) in leaf_shredder_lists.cc. Not installed.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "quiver/parquet/levels/level_builder.h"
#include "quiver/parquet/schema/arrow_to_parquet_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver::parquet {

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
Status NullInRequired(const ArrowNode& node, int64_t slot);
Status BeyondLeaf(const ArrowNode& node, int64_t start, int64_t end, int64_t length);

class LeafShredder {
 public:
  LeafShredder(std::vector<Step> path, LeafLevels* out) : path_(std::move(path)), out_(out) {}

  Status Run(int64_t length) {
    return Visit(0, 0, length, 0, 0);
  }

 private:
  uint8_t* GrowBits(int64_t n);
  void Emit(int16_t def, int16_t rep);
  void EmitRun(int64_t n, int16_t def, int16_t first_rep, int16_t rest_rep);
  void EmitFromBitmap(const uint8_t* valid, int64_t bit_offset, int64_t n, int16_t present,
                      int16_t absent);
  static int64_t FirstNull(const uint8_t* valid, int64_t offset, int64_t start, int64_t end);
  Status Visit(size_t depth, int64_t start, int64_t end, int16_t first_rep, int16_t rest_rep);
  static bool IsListLike(ArrowNodeKind kind);

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
  std::optional<ListOfLeafLevels> ListOfLeafAt(size_t depth) const;
  const std::optional<ListOfLeafLevels>& CachedListOfLeafAt(size_t depth);
  static bool CountListOfLeaf(const ListOfLeafLevels& l, int64_t start, int64_t end, int64_t* total);
  template <bool kMarks>
  static bool CountListOfLeafT(const ListOfLeafLevels& l, int64_t start, int64_t end, const int8_t* marks,
                               int64_t* total);

  // The leaf range being extended by the flat passes, added when a gap ends
  // it (AddRange per slot, which merges too, measured 2% slower on
  // list_struct_with_list).
  struct OpenRange {
    int64_t start = -1, end = -1;
  };
  // (Inlined at every call, as it was while the class was file-local: GCC
  // keeps this inline function of a class split over files out of line.)
  [[gnu::always_inline]] inline void ExtendRange(OpenRange* r, int64_t cs, int64_t ce);
  void CloseRange(const OpenRange& r);

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
  void WriteListOfLeaf(const ListOfLeafLevels& l, int64_t start, int64_t end, int16_t first_rep,
                       int16_t rest_rep, int16_t** dp, int16_t** rp, int64_t* values,
                       OpenRange* range, const OuterRun* outer = nullptr);
  template <bool kStructNulls, bool kOuter>
  void WriteListOfLeafT(const ListOfLeafLevels& l, int64_t start, int64_t end, int16_t first_rep,
                        int16_t rest_rep, int16_t** dp, int16_t** rp, int64_t* values,
                        OpenRange* range, const OuterRun* outer = nullptr);
  void ExtendRuns(OpenRange* range, uint64_t bits, int64_t at);

  // Room for `total` more levels and kLevelSlack beyond (WriteListOfLeaf
  // writes past the last level; EndFlatPasses drops the slack); the int16
  // pointers to fill them.
  static constexpr int64_t kLevelSlack = 8;
  void GrowLevels(int64_t total, int16_t** dp, int16_t** rp);
  void EndFlatPasses(const OpenRange& range, int64_t values, int64_t total, int64_t unused = 0);
  bool ListOfLeaf(size_t depth, int64_t start, int64_t end, int16_t first_rep, int16_t rest_rep);

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
                            int64_t end, int64_t shift, int64_t elements);
  bool ListOfListOfLeaf(size_t depth, int64_t start, int64_t end, int16_t first_rep,
                        int16_t rest_rep);
  int64_t BoundListsOfLists(const ListSlots& outer, bool nullable, const ListOfLeafLevels& inner, int64_t start,
                            int64_t end, int64_t elements, int64_t shift);
  bool PackedStructOfLeaf(size_t depth, int64_t start, int64_t end);
  bool StructOfLeaf(size_t depth, int64_t start, int64_t end, int16_t first_rep, int16_t rest_rep,
                    int16_t null_def, bool struct_nullable);

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

}  // namespace quiver::parquet
