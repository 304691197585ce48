#include "quiver/parquet/levels/level_builder.h"

#include <algorithm>
#include <string>

#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet {

namespace {

enum class StepKind { kStruct, kList, kLargeList, kFixedSizeList, kLeaf };

// One node on the path from the column's root to a leaf.
struct Step {
  StepKind kind;
  const ArrayData* data;
  bool nullable;
  int16_t rep_level;  // lists: this list's repetition level
  std::string name;
};

class LeafShredder {
 public:
  LeafShredder(std::vector<Step> path, LeafLevels* out) : path_(std::move(path)), out_(out) {}

  Status Run(int64_t length) {
    return Visit(0, 0, length, 0, 0, 0);
  }

 private:
  void Emit(int16_t def, int16_t rep) {
    if (out_->max_def > 0) out_->def_levels.push_back(def);
    if (out_->max_rep > 0) out_->rep_levels.push_back(rep);
    ++out_->num_levels;
  }

  // Emits `n` level slots at definition level `def`, the first at
  // repetition level first_rep and the others at rest_rep.
  void EmitRun(int64_t n, int16_t def, int16_t first_rep, int16_t rest_rep) {
    if (n <= 0) return;
    if (out_->max_def > 0) out_->def_levels.insert(out_->def_levels.end(), static_cast<size_t>(n), def);
    if (out_->max_rep > 0) {
      out_->rep_levels.push_back(first_rep);
      out_->rep_levels.insert(out_->rep_levels.end(), static_cast<size_t>(n - 1), rest_rep);
    }
    out_->num_levels += n;
  }

  // Definition levels of a leaf with a validity bitmap: `present` where the
  // bit is set, `absent` where not, 64 slots at a time (all-null and
  // all-valid words are filled without looking at single bits).
  void EmitFromBitmap(const uint8_t* valid, int64_t bit_offset, int64_t n, int16_t present,
                      int16_t absent) {
    const size_t at = out_->def_levels.size();
    out_->def_levels.resize(at + static_cast<size_t>(n));
    int16_t* o = out_->def_levels.data() + at;
    const int16_t step = static_cast<int16_t>(present - absent);
    for (int64_t pos = 0; pos < n; pos += 64) {
      const int nb = n - pos < 64 ? static_cast<int>(n - pos) : 64;
      const uint64_t w = bitmap::LoadBits(valid, bit_offset + pos, nb);
      int16_t* dst = o + pos;
      if (w == 0) {
        std::fill(dst, dst + nb, absent);
      } else if (w == bit_util::LeastSignificantBitMask(nb)) {
        std::fill(dst, dst + nb, present);
      } else {
        for (int b = 0; b < nb; ++b) {
          dst[b] = static_cast<int16_t>(absent + static_cast<int16_t>((w >> b) & 1) * step);
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

  Status NullInRequired(const Step& step, int64_t slot) {
    return Status::Invalid("field '", step.name, "' is not nullable but has a null at slot ",
                           slot);
  }

  Status Visit(size_t depth, int64_t start, int64_t end, int16_t def, int16_t first_rep,
               int16_t rest_rep) {
    if (start >= end) return Status::OK();
    const Step& step = path_[depth];
    const ArrayData& d = *step.data;
    const uint8_t* valid = d.type->id() == Type::kNull ? nullptr : d.validity();
    const bool all_null = d.type->id() == Type::kNull;
    switch (step.kind) {
      case StepKind::kLeaf: {
        const int16_t present = static_cast<int16_t>(def + (step.nullable ? 1 : 0));
        int64_t n = end - start;
        if (end > d.length) {
          return Status::Invalid("field '", step.name, "': child range [", start, ", ", end,
                                 ") is beyond the leaf array's length ", d.length);
        }
        if (all_null) {
          if (!step.nullable && n > 0) return NullInRequired(step, start);
          EmitRun(n, def, first_rep, rest_rep);
          AddRange(start, end, 0);
          return Status::OK();
        }
        int64_t values = n;
        if (valid != nullptr) {
          values = bitmap::CountSetBits(valid, d.offset + start, n);
          if (values != n && !step.nullable) {
            return NullInRequired(step, FirstNull(valid, d.offset, start, end));
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
      case StepKind::kStruct: {
        if (end > d.length) {
          return Status::Invalid("field '", step.name, "': slot range [", start, ", ", end,
                                 ") is beyond the struct array's length ", d.length);
        }
        const int16_t child_def = static_cast<int16_t>(def + (step.nullable ? 1 : 0));
        if (valid == nullptr) {
          return Visit(depth + 1, d.offset + start, d.offset + end, child_def, first_rep, rest_rep);
        }
        // Runs of valid slots descend; the null slots between them are
        // emitted as runs at this level.
        int64_t cursor = start;  // the first slot not emitted yet
        Status st;
        bitmap::VisitSetBitRuns(valid, d.offset + start, end - start, [&](int64_t pos, int64_t len) {
          if (!st.ok()) return;
          const int64_t run = start + pos;
          if (run > cursor) {
            if (!step.nullable) {
              st = NullInRequired(step, cursor);
              return;
            }
            EmitRun(run - cursor, def, cursor == start ? first_rep : rest_rep, rest_rep);
          }
          st = Visit(depth + 1, d.offset + run, d.offset + run + len, child_def,
                     run == start ? first_rep : rest_rep, rest_rep);
          cursor = run + len;
        });
        QUIVER_RETURN_NOT_OK(st);
        if (cursor < end) {
          if (!step.nullable) return NullInRequired(step, cursor);
          EmitRun(end - cursor, def, cursor == start ? first_rep : rest_rep, rest_rep);
        }
        return Status::OK();
      }
      case StepKind::kList:
      case StepKind::kLargeList:
      case StepKind::kFixedSizeList: {
        if (end > d.length) {
          return Status::Invalid("field '", step.name, "': slot range [", start, ", ", end,
                                 ") is beyond the list array's length ", d.length);
        }
        const int16_t empty_def = static_cast<int16_t>(def + (step.nullable ? 1 : 0));
        const int16_t elem_def = static_cast<int16_t>(empty_def + 1);
        const int32_t* off32 = step.kind == StepKind::kList ? d.GetValues<int32_t>(1) : nullptr;
        const int64_t* off64 = step.kind == StepKind::kLargeList ? d.GetValues<int64_t>(1) : nullptr;
        const int64_t fixed = step.kind == StepKind::kFixedSizeList
                                  ? TypeAs<ListType>(*d.type).list_size()
                                  : 0;
        for (int64_t i = start; i < end; ++i) {
          int16_t rep = i == start ? first_rep : rest_rep;
          if (valid != nullptr && !bit_util::GetBit(valid, d.offset + i)) {
            if (!step.nullable) return NullInRequired(step, i);
            Emit(def, rep);
            continue;
          }
          int64_t cs, ce;
          if (off32 != nullptr) {
            cs = off32[i];
            ce = off32[i + 1];
          } else if (off64 != nullptr) {
            cs = off64[i];
            ce = off64[i + 1];
          } else {
            cs = (d.offset + i) * fixed;
            ce = cs + fixed;
          }
          if (ce < cs) {
            return Status::Invalid("field '", step.name, "': list offsets decrease at slot ", i);
          }
          if (cs == ce) {
            Emit(empty_def, rep);
            continue;
          }
          QUIVER_RETURN_NOT_OK(Visit(depth + 1, cs, ce, elem_def, rep, step.rep_level));
        }
        return Status::OK();
      }
    }
    return Status::OK();
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
};

// Depth-first enumeration of leaf paths, computing max levels on the way.
class PathCollector {
 public:
  Status Collect(const Field& field, const ArrayData* data, std::vector<Step>* path,
                 int16_t max_def, int16_t max_rep, std::vector<LeafLevels>* leaves,
                 std::vector<std::vector<Step>>* paths, int depth) {
    if (depth > 128) return Status::Invalid("field '", field.name(), "' is nested too deeply");
    const DataType& type = *field.type();
    const bool nullable = field.nullable();
    const int16_t def_here = static_cast<int16_t>(max_def + (nullable ? 1 : 0));
    if (data->type->id() != type.id()) {
      return Status::TypeError("field '", field.name(), "' has type ", type.ToString(),
                               " but its array has type ", data->type->ToString());
    }
    switch (type.id()) {
      case Type::kStruct: {
        if (data->children.size() != static_cast<size_t>(type.num_fields())) {
          return Status::Invalid("struct field '", field.name(), "' has ", data->children.size(),
                                 " child arrays for ", type.num_fields(), " fields");
        }
        if (type.num_fields() == 0) {
          return Status::NotImplemented("struct field '", field.name(),
                                        "' has no children: Parquet cannot store an empty group");
        }
        path->push_back({StepKind::kStruct, data, nullable, 0, field.name()});
        for (int i = 0; i < type.num_fields(); ++i) {
          QUIVER_RETURN_NOT_OK(Collect(*type.field(i), data->children[static_cast<size_t>(i)].get(), path,
                                       def_here, max_rep, leaves, paths, depth + 1));
        }
        path->pop_back();
        return Status::OK();
      }
      case Type::kList:
      case Type::kLargeList:
      case Type::kFixedSizeList:
      case Type::kMap: {
        if (data->children.size() != 1) {
          return Status::Invalid("list field '", field.name(), "' needs one child array");
        }
        StepKind kind = type.id() == Type::kLargeList       ? StepKind::kLargeList
                        : type.id() == Type::kFixedSizeList ? StepKind::kFixedSizeList
                                                            : StepKind::kList;
        const int16_t rep = static_cast<int16_t>(max_rep + 1);
        path->push_back({kind, data, nullable, rep, field.name()});
        const int16_t child_def = static_cast<int16_t>(def_here + 1);
        const ArrayData* child = data->children[0].get();
        if (type.id() == Type::kMap) {
          // The entries struct is the repeated group itself: required, no level of its own.
          const Field& entries = *type.field(0);
          Field required_entries(entries.name(), entries.type(), false);
          QUIVER_RETURN_NOT_OK(
              Collect(required_entries, child, path, child_def, rep, leaves, paths, depth + 1));
        } else {
          QUIVER_RETURN_NOT_OK(
              Collect(*type.field(0), child, path, child_def, rep, leaves, paths, depth + 1));
        }
        path->pop_back();
        return Status::OK();
      }
      default: {
        path->push_back({StepKind::kLeaf, data, nullable, 0, field.name()});
        LeafLevels leaf;
        leaf.max_def = def_here;
        leaf.max_rep = max_rep;
        leaf.leaf_nullable = nullable;
        leaves->push_back(std::move(leaf));
        paths->push_back(*path);
        path->pop_back();
        return Status::OK();
      }
    }
  }
};

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

Result<std::vector<LeafLevels>> ComputeLevels(const Field& field, const ArrayDataPtr& column) {
  std::vector<LeafLevels> leaves;
  std::vector<std::vector<Step>> paths;
  std::vector<Step> path;
  QUIVER_RETURN_NOT_OK(
      PathCollector().Collect(field, column.get(), &path, 0, 0, &leaves, &paths, 0));
  for (size_t i = 0; i < leaves.size(); ++i) {
    LeafLevels& leaf = leaves[i];
    leaf.leaf = nullptr;
    // Keep the leaf array alive through the column (the path points into it).
    const ArrayData* leaf_data = paths[i].back().data;
    if (leaf.max_def > 0) leaf.def_levels.reserve(static_cast<size_t>(column->length));
    if (leaf.max_rep > 0) leaf.rep_levels.reserve(static_cast<size_t>(column->length));
    Status st = LeafShredder(paths[i], &leaf).Run(column->length);
    if (!st.ok()) {
      // A nested field's error names the inner field: say which column it is in.
      return paths[i].size() > 1 ? st.WithContext("column '", field.name(), "': ") : st;
    }
    // Find the shared_ptr of the leaf data by walking the path's parents.
    leaf.leaf = std::shared_ptr<ArrayData>(column, const_cast<ArrayData*>(leaf_data));
  }
  return leaves;
}

}  // namespace quiver::parquet
