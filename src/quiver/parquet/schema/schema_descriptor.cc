#include "quiver/parquet/schema/schema_descriptor_internal.h"

#include <algorithm>
#include <string>

namespace quiver::parquet {

namespace {

using format::FieldRepetitionType;
using format::SchemaElement;

// How an error names element i: its index and (at most 64 bytes of) its name.
std::string Which(size_t i, const std::string& name) {
  constexpr size_t kShown = 64;
  std::string out = "schema element " + std::to_string(i) + " ('";
  out.append(name, 0, std::min(name.size(), kShown));
  out += name.size() > kShown ? "...')" : "')";
  return out;
}

// A leaf's stored path costs its number of names plus their bytes. All
// leaves together may cost this many times the elements' own count plus
// name bytes (or kMinPathBudget): a real schema needs leaves averaging
// more than 32 levels deep to reach it, while a hostile one (a long chain
// of groups above many leaves) would otherwise make a small footer cost
// depth x leaves.
constexpr int64_t kPathBudgetFactor = 32;
constexpr int64_t kMinPathBudget = int64_t{1} << 20;

// A group waiting for its children: the groups on the path from the root to
// the element being read, outermost first.
struct OpenGroup {
  int32_t node;
  int32_t next_child;  // children seen so far
};

}  // namespace

std::span<const int32_t> SchemaDescriptor::children(int node) const {
  const SchemaNode& n = nodes_[static_cast<size_t>(node)];
  return std::span<const int32_t>(child_list_).subspan(static_cast<size_t>(n.children_offset),
                                                       static_cast<size_t>(n.num_children));
}

int SchemaDescriptor::FindColumn(std::string_view path) const {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].path == path) return static_cast<int>(i);
  }
  return -1;
}

Result<SchemaDescriptor> SchemaDescriptor::Make(std::span<const SchemaElement> elements,
                                                const SchemaDescriptorOptions& options) {
  const size_t n = elements.size();
  if (n == 0) return Status::Invalid("the Parquet schema has no elements (not even a root)");
  if (n > static_cast<size_t>(INT32_MAX)) {
    return Status::Invalid("the Parquet schema has ", n, " elements, more than 2^31 - 1");
  }
  int64_t name_bytes = 0;
  for (const SchemaElement& e : elements) name_bytes += static_cast<int64_t>(e.name.size());
  const int64_t path_budget =
      std::max(kMinPathBudget, kPathBudgetFactor * (static_cast<int64_t>(n) + name_bytes));
  int64_t path_cost = 0;

  SchemaDescriptor d;
  d.nodes_.reserve(n);
  d.child_list_.reserve(n - 1);
  std::vector<OpenGroup> open;
  // Children promised by the groups read so far; each element after the
  // root is exactly one child, so a valid schema promises n - 1 in all.
  int64_t promised = 0;

  for (size_t i = 0; i < n; ++i) {
    const SchemaElement& e = elements[i];
    SchemaNode node;
    node.name = e.name;
    node.logical_type = e.logical_type;
    node.converted_type = e.converted_type;
    node.precision = e.precision;
    node.scale = e.scale;
    node.field_id = e.field_id;
    if (i > 0) {
      while (!open.empty() && open.back().next_child == d.nodes_[static_cast<size_t>(
                                                           open.back().node)].num_children) {
        open.pop_back();
      }
      if (open.empty()) {
        return Status::Invalid(Which(i, e.name), " is one of ", n - i,
                               " element(s) beyond the root's descendants (the root and its "
                               "num_children counts account for ", i, " elements)");
      }
      OpenGroup& parent = open.back();
      const SchemaNode& p = d.nodes_[static_cast<size_t>(parent.node)];
      d.child_list_[static_cast<size_t>(p.children_offset + parent.next_child++)] =
          static_cast<int32_t>(i);
      node.parent = parent.node;
      node.depth = static_cast<int32_t>(open.size());
      if (node.depth > options.max_depth) {
        return Status::Invalid(Which(i, e.name), " is nested ", node.depth,
                               " levels deep; the limit is ", options.max_depth);
      }
      if (e.repetition_type.has_value()) {
        node.repetition = *e.repetition_type;
        if (node.repetition == FieldRepetitionType::kVector) {
          return Status::NotImplemented(Which(i, e.name),
                                        ": VECTOR repetition is not supported");
        }
        // A value parquet.thrift does not name is read as REQUIRED, as
        // Arrow C++ does (LoadEnumSafe gives Repetition::UNDEFINED, which
        // is neither optional nor repeated).
        if (format::EnumName(node.repetition).empty()) {
          node.repetition = FieldRepetitionType::kRequired;
        }
      }
      if (!p.levels.Child(node.is_optional(), node.is_repeated(), &node.levels)) {
        return Status::Invalid(Which(i, e.name), " needs more than ", INT16_MAX,
                               node.levels.def_level == INT16_MAX ? " definition" : " repetition",
                               " levels");
      }
    }

    if (e.num_children.has_value() && *e.num_children < 0) {
      return Status::Invalid(Which(i, e.name), " has num_children ", *e.num_children);
    }
    const int32_t num_children = e.num_children.value_or(0);
    // A leaf has a type and no children (parquet-cpp used to write
    // num_children = 0 on leaves); anything else is a group.
    const bool leaf = i > 0 && e.type.has_value() && num_children == 0;
    if (!leaf) {
      // A group's physical type (the root's, as some writers set it, or
      // one with children) is ignored, as Arrow C++'s Unflatten ignores it.
      if (i > 0 && !e.num_children.has_value()) {
        return Status::Invalid(Which(i, e.name),
                               " is a leaf (no num_children) without a physical type");
      }
      promised += num_children;
      if (promised > static_cast<int64_t>(n - 1)) {
        return Status::Invalid(Which(i, e.name), " has num_children ", num_children,
                               ", but only ", n - 1 - i, " element(s) follow for the ",
                               promised - static_cast<int64_t>(i), " children still expected");
      }
      node.num_children = num_children;
      node.children_offset = static_cast<int32_t>(d.child_list_.size());
      d.child_list_.resize(d.child_list_.size() + static_cast<size_t>(num_children), -1);
      d.nodes_.push_back(std::move(node));
      open.push_back({static_cast<int32_t>(i), 0});
      continue;
    }

    // A leaf column.
    const format::Type type = *e.type;
    if (format::EnumName(type).empty()) {
      return Status::Invalid(Which(i, e.name), " has an unknown physical type ",
                             static_cast<int32_t>(type));
    }
    node.physical_type = type;
    node.type_length = e.type_length.value_or(0);
    if (type == format::Type::kFixedLenByteArray && node.type_length <= 0) {
      return Status::Invalid(Which(i, e.name), " is a FIXED_LEN_BYTE_ARRAY with ",
                             e.type_length.has_value()
                                 ? "type_length " + std::to_string(*e.type_length)
                                 : std::string("no type_length"),
                             "; it needs a positive one");
    }
    node.column = static_cast<int32_t>(d.columns_.size());

    ColumnDescriptor c;
    c.node = static_cast<int32_t>(i);
    c.physical_type = type;
    c.type_length = node.type_length;
    c.logical_type = e.logical_type;
    c.converted_type = e.converted_type;
    c.max_def = node.levels.def_level;
    c.max_rep = node.levels.rep_level;
    // open[0] is the root, which is not part of a path.
    path_cost += static_cast<int64_t>(open.size());
    for (size_t k = 1; k < open.size(); ++k) {
      path_cost += static_cast<int64_t>(d.nodes_[static_cast<size_t>(open[k].node)].name.size());
    }
    path_cost += static_cast<int64_t>(e.name.size());
    if (path_cost > path_budget) {
      return Status::Invalid(Which(i, e.name), ": the leaves' paths up to it total ", path_cost,
                             " names and bytes, more than ", kPathBudgetFactor,
                             " times the schema's own (", path_budget, ")");
    }
    c.path_nodes.reserve(open.size());
    c.path_parts.reserve(open.size());
    for (size_t k = 1; k < open.size(); ++k) c.path_nodes.push_back(open[k].node);
    c.path_nodes.push_back(static_cast<int32_t>(i));
    for (int32_t k : c.path_nodes) {
      const std::string& part = k == static_cast<int32_t>(i) ? node.name
                                                             : d.nodes_[static_cast<size_t>(k)].name;
      if (!c.path.empty()) c.path += '.';
      c.path += part;
      c.path_parts.push_back(part);
    }
    d.nodes_.push_back(std::move(node));
    d.columns_.push_back(std::move(c));
  }

  // Every element after the root filled one promised child and no more than
  // n - 1 were promised, so no group is left waiting for children here.
  return d;
}

}  // namespace quiver::parquet
