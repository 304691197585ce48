// LeafShredder's general walk (leaf_shredder_internal.h): a depth-first
// visit of the path's arrays, runs of levels emitted at once, and the
// struct-of-leaf paths.
#include <algorithm>
#include <bit>
#include <cstring>

#include "quiver/parquet/levels/leaf_shredder_internal.h"
#include "quiver/util/dcheck.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver::parquet {

Status NullInRequired(const ArrowNode& node, int64_t slot) {
  return Status::Invalid("field '", node.name, "' is not nullable but has a null at slot ", slot);
}
Status BeyondLeaf(const ArrowNode& node, int64_t start, int64_t end, int64_t length) {
  return Status::Invalid("field '", node.name, "': child range [", start, ", ", end,
                         ") is beyond the leaf array's length ", length);
}

// Room in def_bits for n more levels (new bits are 0).
inline uint8_t* LeafShredder::GrowBits(int64_t n) {
  out_->def_bits.resize(static_cast<size_t>(bit_util::BytesForBits(out_->num_levels + n)));
  return out_->def_bits.data();
}

inline void LeafShredder::Emit(int16_t def, int16_t rep) {
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
inline void LeafShredder::EmitRun(int64_t n, int16_t def, int16_t first_rep, int16_t rest_rep) {
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
inline void LeafShredder::EmitFromBitmap(const uint8_t* valid, int64_t bit_offset, int64_t n, int16_t present,
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
inline int64_t LeafShredder::FirstNull(const uint8_t* valid, int64_t offset, int64_t start, int64_t end) {
  for (int64_t i = start; i < end; ++i) {
    if (!bit_util::GetBit(valid, offset + i)) return i;
  }
  return end;
}

// Emits the levels of slots [start, end) of path_[depth]'s array; the
// first slot's repetition level is first_rep, the others' rest_rep.
// Each node's levels are its LevelInfo (from the SchemaDescriptor): a
// present node is at def_level, a null one at def_level - 1.
Status LeafShredder::Visit(size_t depth, int64_t start, int64_t end, int16_t first_rep, int16_t rest_rep) {
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

inline bool LeafShredder::IsListLike(ArrowNodeKind kind) {
  return kind == ArrowNodeKind::kList || kind == ArrowNodeKind::kLargeList ||
         kind == ArrowNodeKind::kMap || kind == ArrowNodeKind::kFixedSizeList;
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
inline bool LeafShredder::PackedStructOfLeaf(size_t depth, int64_t start, int64_t end) {
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
inline bool LeafShredder::StructOfLeaf(size_t depth, int64_t start, int64_t end, int16_t first_rep, int16_t rest_rep,
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

}  // namespace quiver::parquet
