#include "quiver/parquet/reader/assembly_internal.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "quiver/array/concatenate.h"
#include "quiver/array/nulls.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/levels/level_decoder_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/dcheck.h"

namespace quiver::parquet::internal {
namespace {

// The levels of a node's first leaf (nullptr arrays: all 0).
struct Levels {
  const int16_t* def;
  const int16_t* rep;
  int64_t n;
  int16_t DefAt(int64_t i) const { return def == nullptr ? 0 : def[i]; }
  int16_t RepAt(int64_t i) const { return rep == nullptr ? 0 : rep[i]; }
};

Levels LevelsOf(const ReadNode& node, const std::vector<ColumnReader*>& readers) {
  QUIVER_DCHECK(!node.columns.empty(), "a node without leaves has no levels");
  const ColumnReader* leaf = readers[static_cast<size_t>(node.columns.front())];
  return Levels{leaf->def_levels(), leaf->rep_levels(), leaf->num_levels()};
}

Status LengthMismatch(const ReadNode& node, const ReadNode& child, int64_t expected,
                      int64_t actual) {
  return Status::Invalid("field '", node.field->name(), "': its child '", child.field->name(),
                         "' has ", actual, " values where the levels give ", expected,
                         " (the columns' levels disagree)");
}

// Slots of `node` and, if it is nullable, its validity bitmap.
struct Slots {
  int64_t length = 0;
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity;
};

Result<Slots> StructSlots(const ReadNode& node, const Levels& levels, MemoryPool* pool) {
  const LevelInfo& info = node.levels;
  Slots slots;
  const bool nullable = node.field->nullable() && info.def_level > info.repeated_ancestor_def_level;
  MutableBuffer bits(pool);
  if (nullable) QUIVER_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(levels.n)));
  if (levels.rep == nullptr && info.repeated_ancestor_def_level == 0) {
    // No list above: every level is a slot.
    slots.length = levels.n;
    if (nullable && levels.def != nullptr) {
      slots.null_count = levels.n - LevelsToBitmap(levels.def, levels.n, info.def_level,
                                                   bits.data(), 0);
    } else if (nullable) {
      slots.null_count = info.def_level > 0 ? levels.n : 0;
    }
    if (slots.null_count > 0) slots.validity = bits.Freeze();
    return slots;
  }
  // Below a list: branch-free, a byte a slot, packed after.
  MutableBuffer valid_bytes(pool);
  if (nullable) QUIVER_RETURN_NOT_OK(valid_bytes.Reserve(levels.n));
  uint8_t* valid_out = valid_bytes.data();
  // Locals: the byte stores may alias anything in memory.
  const int16_t rep_level = info.rep_level;
  const int16_t slot_def = info.repeated_ancestor_def_level;
  const int16_t def_level = info.def_level;
  int64_t length = 0;
  int64_t nulls = 0;
  for (int64_t i = 0; i < levels.n; ++i) {
    const int16_t def = levels.DefAt(i);
    const int slot = (levels.RepAt(i) <= rep_level) & (def >= slot_def);
    if (nullable) {
      const int valid = def >= def_level;
      valid_out[length] = static_cast<uint8_t>(valid);
      nulls += slot & (1 - valid);
    }
    length += slot;
  }
  slots.length = length;
  slots.null_count = nulls;
  if (nullable) bitmap::PackBytes(valid_out, slots.length, bits.data());
  if (slots.null_count > 0) slots.validity = bits.Freeze();
  return slots;
}

// A list read as fixed_size_list (ARROW:schema): every non-null list must
// hold list_size elements; a null list stored with none gets list_size null
// children (the child is rebuilt from slices and null runs).
template <typename Offset>
Result<ArrayDataPtr> ToFixedSizeList(const ReadNode& node, const Offset* o, int64_t length,
                                     std::shared_ptr<Buffer> validity, int64_t null_count,
                                     ArrayDataPtr child, MemoryPool* pool) {
  const TypePtr& type = node.field->type();
  const int64_t size = TypeAs<ListType>(*type).list_size();
  bool padded = false;
  for (int64_t i = 0; i < length; ++i) {
    const bool is_null = validity != nullptr && !bit_util::GetBit(validity->data(), i);
    const int64_t n = o[i + 1] - o[i];
    if (n == size) continue;
    if (is_null && n == 0) {
      padded = true;
      continue;
    }
    return Status::Invalid("field '", node.field->name(), "': list ", i, " has ", n,
                           " elements; its type ", type->ToString(), " has ", size);
  }
  if (padded) {
    // Runs of stored lists are slices of the child; runs of empty null
    // lists are null children.
    std::vector<ArrayDataPtr> pieces;
    int64_t i = 0;
    while (i < length) {
      int64_t j = i;
      const bool stored = o[i + 1] - o[i] == size;
      while (j < length && (o[j + 1] - o[j] == size) == stored) ++j;
      if (stored) {
        pieces.push_back(child->Slice(o[i], o[j] - o[i]));
      } else {
        // The list size comes from ARROW:schema: bound the padding it asks for.
        if (size > 0 && (j - i) > (std::numeric_limits<int32_t>::max() - o[length]) / size) {
          return Status::CapacityError("field '", node.field->name(), "': ", j - i,
                                       " null lists of ", size,
                                       " elements need more list elements than int32 offsets "
                                       "address");
        }
        QUIVER_ASSIGN_OR_RAISE(auto nulls,
                               MakeArrayOfNulls(child->type, (j - i) * size, pool));
        pieces.push_back(std::move(nulls));
      }
      i = j;
    }
    QUIVER_ASSIGN_OR_RAISE(child, Concatenate(pieces, pool));
  } else if (length > 0 && o[0] != 0) {
    child = child->Slice(o[0], o[length] - o[0]);
  }
  return ArrayData::Make(type, length, {std::move(validity)}, {std::move(child)}, null_count);
}

template <typename Offset>
Result<ArrayDataPtr> AssembleList(const ReadNode& node, const std::vector<ColumnReader*>& readers,
                                  MemoryPool* pool) {
  const Levels levels = LevelsOf(node, readers);
  const LevelInfo& info = node.levels;
  const LevelInfo& rep_info = node.repeated;
  const bool nullable = node.field->nullable() && info.def_level > info.repeated_ancestor_def_level;
  MutableBuffer offsets(pool);
  MutableBuffer bits(pool);
  QUIVER_RETURN_NOT_OK(offsets.Reserve((levels.n + 1) * static_cast<int64_t>(sizeof(Offset))));
  if (nullable) QUIVER_RETURN_NOT_OK(bits.Resize(bit_util::BytesForBits(levels.n)));
  int64_t length = 0;
  int64_t null_count = 0;
  int64_t elements = 0;
  // Elements are at most the levels: past the offsets' range only when
  // the levels are.
  if (levels.n > std::numeric_limits<Offset>::max()) {
    int64_t most = 0;
    for (int64_t i = 0; i < levels.n; ++i) {
      most += levels.RepAt(i) <= info.rep_level ? levels.DefAt(i) >= rep_info.def_level
                                                : levels.RepAt(i) == rep_info.rep_level;
    }
    if (most > std::numeric_limits<Offset>::max()) {
      return Status::CapacityError("field '", node.field->name(), "': more than ",
                                   std::numeric_limits<Offset>::max(),
                                   " list elements in one batch");
    }
  }
  // Branch-free: each level writes the next slot's offset and bit, and
  // advances only if it starts a slot of this list.
  // A byte a slot for validity (packed after the loop): no bit's
  // read-modify-write waits on the previous level's.
  Offset* ends = offsets.data_as<Offset>();
  MutableBuffer valid_bytes(pool);
  if (nullable) QUIVER_RETURN_NOT_OK(valid_bytes.Reserve(levels.n));
  uint8_t* valid_out = valid_bytes.data();
  const int16_t slot_def = info.repeated_ancestor_def_level;
  const int16_t* rep_levels = levels.rep;
  const int16_t* def_levels = levels.def;
  auto scan = [&](auto has_def, auto is_nullable) {
    // Locals (not the captured counters, which the stores to ends[] could
    // alias) and bitwise ands of the conditions, so nothing branches.
    const int16_t rep_level = info.rep_level;
    const int16_t def_level = info.def_level;
    const int16_t element_def = std::max(rep_info.def_level, slot_def);
    const int16_t element_rep = rep_info.rep_level;
    const int64_t n = levels.n;
    int64_t len = 0;
    int64_t count = 0;
    int64_t nulls = 0;
    for (int64_t i = 0; i < n; ++i) {
      int16_t def = 0;
      if constexpr (has_def) def = def_levels[i];
      const int16_t rep = rep_levels[i];
      const int new_list = rep <= rep_level;
      const int slot = new_list & (def >= slot_def);
      const int element = (new_list & (def >= element_def)) | ((1 - new_list) & (rep == element_rep));
      ends[len] = static_cast<Offset>(count);
      if constexpr (is_nullable) {
        const int valid = def >= def_level;
        valid_out[len] = static_cast<uint8_t>(valid);
        nulls += slot & (1 - valid);
      }
      len += slot;
      count += element;
    }
    length = len;
    elements = count;
    null_count = nulls;
  };
  QUIVER_DCHECK(rep_levels != nullptr, "a list's first leaf has repetition levels");
  const bool has_def = def_levels != nullptr;
  if (has_def && nullable) scan(std::true_type{}, std::true_type{});
  if (has_def && !nullable) scan(std::true_type{}, std::false_type{});
  if (!has_def && nullable) scan(std::false_type{}, std::true_type{});
  if (!has_def && !nullable) scan(std::false_type{}, std::false_type{});
  if (nullable) bitmap::PackBytes(valid_out, length, bits.data());
  ends[length] = static_cast<Offset>(elements);
  offsets.UnsafeSetSize((length + 1) * static_cast<int64_t>(sizeof(Offset)));
  QUIVER_ASSIGN_OR_RAISE(auto child,
                         AssembleArray(node.children.front(), readers, pool, elements));
  if (child->length != elements) {
    return LengthMismatch(node, node.children.front(), elements, child->length);
  }
  std::shared_ptr<Buffer> validity;
  if (null_count > 0) validity = bits.Freeze();
  const TypePtr& type = node.field->type();
  if (type->id() == Type::kFixedSizeList) {
    return ToFixedSizeList<Offset>(node, offsets.data_as<Offset>(), length, std::move(validity),
                                   null_count, std::move(child), pool);
  }
  return ArrayData::Make(type, length, {std::move(validity), offsets.Freeze()}, {std::move(child)},
                         null_count);
}

}  // namespace

Result<ArrayDataPtr> AssembleArray(const ReadNode& node, const std::vector<ColumnReader*>& readers,
                                   MemoryPool* pool, int64_t length) {
  if (node.columns.empty()) {
    if (node.field->nullable()) return MakeArrayOfNulls(node.field->type(), length, pool);
    if (node.field->type()->id() != Type::kStruct) {
      return Status::Invalid("field '", node.field->name(), "' has no leaf column");
    }
    std::vector<ArrayDataPtr> children;
    for (const ReadNode& child : node.children) {
      QUIVER_ASSIGN_OR_RAISE(auto array, AssembleArray(child, readers, pool, length));
      children.push_back(std::move(array));
    }
    return ArrayData::Make(node.field->type(), length, {nullptr}, std::move(children), 0);
  }
  switch (node.kind) {
    case ReadNode::Kind::kLeaf:
      return readers[static_cast<size_t>(node.column)]->FinishLeaf();
    case ReadNode::Kind::kStruct: {
      QUIVER_ASSIGN_OR_RAISE(Slots slots, StructSlots(node, LevelsOf(node, readers), pool));
      std::vector<ArrayDataPtr> children;
      children.reserve(node.children.size());
      for (const ReadNode& child : node.children) {
        QUIVER_ASSIGN_OR_RAISE(auto array, AssembleArray(child, readers, pool, slots.length));
        if (array->length != slots.length) {
          return LengthMismatch(node, child, slots.length, array->length);
        }
        children.push_back(std::move(array));
      }
      return ArrayData::Make(node.field->type(), slots.length, {std::move(slots.validity)},
                             std::move(children), slots.null_count);
    }
    case ReadNode::Kind::kList:
    case ReadNode::Kind::kMap:
      if (node.field->type()->id() == Type::kLargeList) {
        return AssembleList<int64_t>(node, readers, pool);
      }
      return AssembleList<int32_t>(node, readers, pool);
  }
  return Status::Invalid("unknown read node kind");
}

}  // namespace quiver::parquet::internal
