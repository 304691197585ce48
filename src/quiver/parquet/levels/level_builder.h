// Level shredding: Arrow arrays -> Parquet definition/repetition levels.
//
// Dremel-style shredding (Melnik et al., "Dremel: Interactive Analysis of
// Web-Scale Datasets", 2010; parquet-format's README, "Nested encoding").
// For each leaf column of an Arrow field (depth-first order, as the Parquet
// schema lists leaves) this computes:
//   - def_levels: how many optional/repeated ancestors (and the leaf itself)
//     are present at each level slot;
//   - rep_levels: at which repeated ancestor a new value starts (0 = new row);
//   - the leaf slot ranges whose valid slots are the values to encode.
// The Parquet schema shape is the one schema mapping writes (a list /
// large_list / fixed_size_list / map adds a repeated group, map entries are
// the repeated group itself; dictionary arrays are leaves, their indices'
// validity saying which slots are null), and the levels of every node are
// not derived here: shredding follows the ArrowTree of ArrowToParquetSchema,
// whose nodes carry the LevelInfo of their Parquet node (level_info.h).
//
// Null list/struct slots never descend into children, so a null list slot
// that owns a non-empty child range writes one level and no values, and a
// sliced input only visits the child ranges its slots reach.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/parquet/schema/arrow_tree.h"
#include "quiver/util/default_init_allocator.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// Levels: int16 values that resize() does not zero (the shredder grows the
// vectors, then writes every level it added).
using LevelVector = std::vector<int16_t, DefaultInitAllocator<int16_t>>;

struct LeafLevels {
  // The leaf array (whole; `ranges` index it in logical slots).
  ArrayDataPtr leaf;
  // Whether the leaf node itself is optional.
  bool leaf_nullable = false;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  // One entry per level slot. Empty when max_def == 0 (resp. max_rep == 0),
  // and def_levels when they are packed.
  LevelVector def_levels;
  LevelVector rep_levels;
  // Packed definition levels (ComputeLevels with pack_flat_def_levels, for a
  // column with max_def == 1 and max_rep == 0: one optional node on the
  // path and no repetition): bit i (LSB first) is slot i's level, 0 or 1.
  // A sixteenth of the memory the int16 levels take, and filled from the
  // optional node's validity bitmap by a bit copy.
  bool def_packed = false;
  std::vector<uint8_t> def_bits;
  // Number of level slots (== rows for non-repeated columns).
  int64_t num_levels = 0;
  // Leaf slot ranges [first, second) visited in order; the values to write
  // are the valid slots inside them. Adjacent ranges are merged.
  std::vector<std::pair<int64_t, int64_t>> ranges;
  // Number of leaf values to write (valid slots in ranges).
  int64_t num_values = 0;
};

// Shreds `column` (an array of top-level field `field` of the schema that
// `tree` maps, any offset) into one LeafLevels per Parquet leaf of that
// field. TypeError if an array's type is not its field's; Invalid if a
// non-nullable field has a null in a reachable slot, or if the data is
// structurally inconsistent. With pack_flat_def_levels, the leaves whose
// max_def is 1 and max_rep 0 get packed definition levels (def_bits).
Result<std::vector<LeafLevels>> ComputeLevels(const ArrowTree& tree, int field,
                                              const ArrayDataPtr& column,
                                              bool pack_flat_def_levels = false);

// The same for `field` alone: maps it (ArrowToParquetSchema of a schema of
// that one field, whose errors it returns) and shreds `column`.
Result<std::vector<LeafLevels>> ComputeLevels(const Field& field, const ArrayDataPtr& column,
                                              bool pack_flat_def_levels = false);

// Number of Parquet leaves an Arrow type maps to.
int CountLeaves(const DataType& type);

}  // namespace quiver::parquet
