// Projection of the reader: a field's ReadNode tree cut down to some of
// its leaves (FileReader's `columns` by dotted leaf path; the string leaves
// an invalid_utf8='binary' scan reads).
#pragma once

#include <cstdint>
#include <set>

#include "quiver/parquet/schema/parquet_to_arrow_internal.h"

namespace quiver::parquet::internal {

// `node` pruned to the leaves in `selected` (leaf column indices) into
// *out; false when none is below it. Structs keep the fields that have a
// selected leaf; lists keep their element (pruned when it is a struct);
// maps keep their entries whole.
bool PruneNode(const ReadNode& node, const std::set<int32_t>& selected, ReadNode* out);

}  // namespace quiver::parquet::internal
