// The definition and repetition levels of one node of a Parquet schema tree.
//
// Dremel's levels (Melnik et al. 2010; parquet-format README, "Nested
// encoding"), described per node as Arrow C++ does in
// parquet/level_conversion.h (LevelInfo). Walking from the root's child to a
// node, every OPTIONAL node adds one definition level and every REPEATED
// node adds one definition and one repetition level; REQUIRED nodes add
// none. Then, for a level slot of any leaf below the node:
//   def >= def_level                   the node is present (a group or a
//                                      leaf value exists, lists non-empty);
//   def == def_level - 1 (optional)    the node is null;
//   def <  repeated_ancestor_def_level the slot belongs to no element of the
//                                      nearest repeated node (an ancestor's
//                                      list is null or empty);
//   rep <  rep_level                   a new element of an ancestor list (or
//                                      a new row) starts at the slot.
// Shredding (levels/leaf_shredder*.cc) writes levels by these rules and the
// reader's assembly reads them by the same ones; both take a node's
// LevelInfo from the SchemaDescriptor (schema_descriptor_internal.h).
//
// Arrow C++'s LevelInfo also carries null_slot_usage, for fixed-size lists
// read back as such; Parquet has no fixed-size layout, so it is left out.
#pragma once

#include <cstdint>

namespace quiver::parquet {

struct LevelInfo {
  // Definition level at which the node is present: the number of OPTIONAL
  // and REPEATED nodes from the root's child down to this node, inclusive.
  int16_t def_level = 0;
  // The number of REPEATED nodes on that path, inclusive: levels below it
  // start a new element of this node's list (if repeated) or of an ancestor.
  int16_t rep_level = 0;
  // def_level of the nearest REPEATED node on that path, inclusive (0 when
  // there is none): slots with a smaller def have no element at this node.
  int16_t repeated_ancestor_def_level = 0;

  // The levels of a child with the given repetition; false if a level would
  // exceed int16_t (the caller reports it).
  [[nodiscard]] bool Child(bool optional, bool repeated, LevelInfo* child) const {
    *child = *this;
    if (!optional && !repeated) return true;
    if (def_level == INT16_MAX || (repeated && rep_level == INT16_MAX)) return false;
    ++child->def_level;
    if (repeated) {
      ++child->rep_level;
      child->repeated_ancestor_def_level = child->def_level;
    }
    return true;
  }

  friend bool operator==(const LevelInfo&, const LevelInfo&) = default;
};

}  // namespace quiver::parquet
