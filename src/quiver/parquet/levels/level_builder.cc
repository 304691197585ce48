#include "quiver/parquet/levels/level_builder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <string>

#include "quiver/parquet/levels/leaf_shredder_internal.h"
#include "quiver/util/dcheck.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver::parquet {

namespace {

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