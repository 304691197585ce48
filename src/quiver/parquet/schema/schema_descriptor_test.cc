#include "quiver/parquet/schema/schema_descriptor_internal.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace quiver::parquet {

void PrintTo(const LevelInfo& l, std::ostream* os) {
  *os << "{def " << l.def_level << ", rep " << l.rep_level << ", repeated ancestor def "
      << l.repeated_ancestor_def_level << "}";
}

namespace {
namespace QUIVER_UNITY_ID {

using format::ConvertedType;
using format::FieldRepetitionType;
using format::SchemaElement;
using PType = format::Type;

constexpr auto kRequired = FieldRepetitionType::kRequired;
constexpr auto kOptional = FieldRepetitionType::kOptional;
constexpr auto kRepeated = FieldRepetitionType::kRepeated;

SchemaElement Root(int32_t children, std::string name = "schema") {
  SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  return e;
}

SchemaElement Group(std::string name, std::optional<FieldRepetitionType> repetition,
                    int32_t children, std::optional<ConvertedType> converted = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = repetition;
  e.num_children = children;
  e.converted_type = converted;
  if (converted == ConvertedType::kList) e.logical_type.emplace().list.emplace();
  if (converted == ConvertedType::kMap) e.logical_type.emplace().map.emplace();
  return e;
}

SchemaElement Leaf(std::string name, std::optional<FieldRepetitionType> repetition, PType type,
                   bool string = false) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = repetition;
  e.type = type;
  if (string) {
    e.converted_type = ConvertedType::kUtf8;
    e.logical_type.emplace().string.emplace();
  }
  return e;
}

SchemaDescriptor Describe(const std::vector<SchemaElement>& elements) {
  auto d = SchemaDescriptor::Make(elements);
  EXPECT_TRUE(d.ok()) << d.status();
  return d.ok() ? std::move(*d) : SchemaDescriptor();
}

// Each node's LevelInfo, in element order.
std::vector<LevelInfo> NodeLevels(const SchemaDescriptor& d) {
  std::vector<LevelInfo> out;
  for (const SchemaNode& n : d.nodes()) out.push_back(n.levels);
  return out;
}

struct Expected {
  std::string path;
  int16_t max_def;
  int16_t max_rep;
  std::vector<int32_t> path_nodes;
};

void ExpectColumns(const SchemaDescriptor& d, const std::vector<Expected>& expected) {
  ASSERT_EQ(d.num_columns(), static_cast<int>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    const ColumnDescriptor& c = d.column(static_cast<int>(i));
    EXPECT_EQ(c.path, expected[i].path) << i;
    EXPECT_EQ(c.max_def, expected[i].max_def) << c.path;
    EXPECT_EQ(c.max_rep, expected[i].max_rep) << c.path;
    EXPECT_EQ(c.path_nodes, expected[i].path_nodes) << c.path;
    ASSERT_EQ(c.path_parts.size(), c.path_nodes.size()) << c.path;
    for (size_t k = 0; k < c.path_nodes.size(); ++k) {
      EXPECT_EQ(c.path_parts[k], d.node(c.path_nodes[k]).name) << c.path;
    }
    EXPECT_EQ(c.node, c.path_nodes.back()) << c.path;
    const SchemaNode& leaf = d.node(c.node);
    EXPECT_EQ(leaf.column, static_cast<int32_t>(i));
    EXPECT_EQ(leaf.levels.def_level, c.max_def);
    EXPECT_EQ(leaf.levels.rep_level, c.max_rep);
    EXPECT_EQ(leaf.physical_type, c.physical_type);
  }
}

using L = LevelInfo;

// parquet-format LogicalTypes.md, "Lists": the 3-level layout, all four
// nullabilities of list and element.
TEST(SchemaDescriptor, ThreeLevelLists) {
  const std::vector<SchemaElement> elements = {
      Root(4),
      // List<String> (list non-null, elements nullable)
      Group("a", kRequired, 1, ConvertedType::kList),
      Group("list", kRepeated, 1),
      Leaf("element", kOptional, PType::kByteArray, true),
      // List<String> (list nullable, elements non-null)
      Group("b", kOptional, 1, ConvertedType::kList),
      Group("list", kRepeated, 1),
      Leaf("element", kRequired, PType::kByteArray, true),
      // both nullable
      Group("c", kOptional, 1, ConvertedType::kList),
      Group("list", kRepeated, 1),
      Leaf("element", kOptional, PType::kInt32),
      // neither
      Group("d", kRequired, 1, ConvertedType::kList),
      Group("list", kRepeated, 1),
      Leaf("element", kRequired, PType::kInt32),
  };
  SchemaDescriptor d = Describe(elements);
  EXPECT_EQ(NodeLevels(d), (std::vector<LevelInfo>{
                               L{0, 0, 0},                           // root
                               L{0, 0, 0}, L{1, 1, 1}, L{2, 1, 1},   // a
                               L{1, 0, 0}, L{2, 1, 2}, L{2, 1, 2},   // b
                               L{1, 0, 0}, L{2, 1, 2}, L{3, 1, 2},   // c
                               L{0, 0, 0}, L{1, 1, 1}, L{1, 1, 1}})); // d
  ExpectColumns(d, {{"a.list.element", 2, 1, {1, 2, 3}},
                    {"b.list.element", 2, 1, {4, 5, 6}},
                    {"c.list.element", 3, 1, {7, 8, 9}},
                    {"d.list.element", 1, 1, {10, 11, 12}}});
  // The tree: the root's children, parents and depths.
  EXPECT_EQ(std::vector<int32_t>(d.children(0).begin(), d.children(0).end()),
            (std::vector<int32_t>{1, 4, 7, 10}));
  EXPECT_EQ(std::vector<int32_t>(d.children(8).begin(), d.children(8).end()),
            (std::vector<int32_t>{9}));
  EXPECT_TRUE(d.children(9).empty());
  EXPECT_EQ(d.node(9).parent, 8);
  EXPECT_EQ(d.node(8).parent, 7);
  EXPECT_EQ(d.node(7).parent, 0);
  EXPECT_EQ(d.node(0).parent, -1);
  EXPECT_EQ(d.node(9).depth, 3);
  EXPECT_TRUE(d.node(7).is_group());
  EXPECT_EQ(d.node(7).converted_type, ConvertedType::kList);
  ASSERT_TRUE(d.node(7).logical_type.has_value());
  EXPECT_TRUE(d.node(7).logical_type->list.has_value());
  EXPECT_TRUE(d.column(0).logical_type->string.has_value());
  EXPECT_EQ(d.column(0).converted_type, ConvertedType::kUtf8);
  EXPECT_EQ(d.FindColumn("c.list.element"), 2);
  EXPECT_EQ(d.FindColumn("c.list"), -1);
}

// LogicalTypes.md, "Backward-compatibility rules": 2-level lists, whose
// repeated field is the element (a primitive, or a group of several fields,
// or a group named `array` or `<list>_tuple` with one field).
TEST(SchemaDescriptor, LegacyTwoLevelLists) {
  const std::vector<SchemaElement> elements = {
      Root(4),
      // List<Integer> (nullable list, non-null elements)
      Group("a", kOptional, 1, ConvertedType::kList),
      Leaf("element", kRepeated, PType::kInt32),
      // List<Tuple<String, Integer>> (nullable list, non-null elements)
      Group("b", kOptional, 1, ConvertedType::kList),
      Group("element", kRepeated, 2),
      Leaf("str", kRequired, PType::kByteArray, true),
      Leaf("num", kRequired, PType::kInt32),
      // List<OneTuple<String>> (nullable list, non-null elements)
      Group("c", kOptional, 1, ConvertedType::kList),
      Group("array", kRepeated, 1),
      Leaf("str", kRequired, PType::kByteArray, true),
      // List<OneTuple<String>> (nullable list, non-null elements)
      Group("d", kOptional, 1, ConvertedType::kList),
      Group("d_tuple", kRepeated, 1),
      Leaf("str", kRequired, PType::kByteArray, true),
  };
  SchemaDescriptor d = Describe(elements);
  EXPECT_EQ(NodeLevels(d), (std::vector<LevelInfo>{
                               L{0, 0, 0},
                               L{1, 0, 0}, L{2, 1, 2},
                               L{1, 0, 0}, L{2, 1, 2}, L{2, 1, 2}, L{2, 1, 2},
                               L{1, 0, 0}, L{2, 1, 2}, L{2, 1, 2},
                               L{1, 0, 0}, L{2, 1, 2}, L{2, 1, 2}}));
  ExpectColumns(d, {{"a.element", 2, 1, {1, 2}},
                    {"b.element.str", 2, 1, {3, 4, 5}},
                    {"b.element.num", 2, 1, {3, 4, 6}},
                    {"c.array.str", 2, 1, {7, 8, 9}},
                    {"d.d_tuple.str", 2, 1, {10, 11, 12}}});
  EXPECT_TRUE(d.node(2).is_leaf());
  EXPECT_TRUE(d.node(2).is_repeated());
}

// LogicalTypes.md: repeated fields that are neither LIST nor MAP are lists
// of required elements; and the Dremel paper's Document example, whose
// levels the paper lists (Melnik et al. 2010, figure 2).
TEST(SchemaDescriptor, RepeatedFieldsWithoutAnnotation) {
  const std::vector<SchemaElement> unannotated = {
      Root(2),
      // List<Integer> (non-null list, non-null elements)
      Leaf("num", kRepeated, PType::kInt32),
      // List<Tuple<Integer, String>> (non-null list, non-null elements)
      Group("my_list", kRepeated, 2),
      Leaf("num", kRequired, PType::kInt32),
      Leaf("str", kOptional, PType::kByteArray, true),
  };
  SchemaDescriptor d = Describe(unannotated);
  EXPECT_EQ(NodeLevels(d), (std::vector<LevelInfo>{L{0, 0, 0}, L{1, 1, 1}, L{1, 1, 1},
                                                    L{1, 1, 1}, L{2, 1, 1}}));
  ExpectColumns(d, {{"num", 1, 1, {1}}, {"my_list.num", 1, 1, {2, 3}},
                    {"my_list.str", 2, 1, {2, 4}}});

  const std::vector<SchemaElement> document = {
      Root(3, "Document"),
      Leaf("DocId", kRequired, PType::kInt64),
      Group("Links", kOptional, 2),
      Leaf("Backward", kRepeated, PType::kInt64),
      Leaf("Forward", kRepeated, PType::kInt64),
      Group("Name", kRepeated, 2),
      Group("Language", kRepeated, 2),
      Leaf("Code", kRequired, PType::kByteArray, true),
      Leaf("Country", kOptional, PType::kByteArray, true),
      Leaf("Url", kOptional, PType::kByteArray, true),
  };
  d = Describe(document);
  EXPECT_EQ(NodeLevels(d), (std::vector<LevelInfo>{
                               L{0, 0, 0}, L{0, 0, 0}, L{1, 0, 0}, L{2, 1, 2}, L{2, 1, 2},
                               L{1, 1, 1}, L{2, 2, 2}, L{2, 2, 2}, L{3, 2, 2}, L{2, 1, 1}}));
  ExpectColumns(d, {{"DocId", 0, 0, {1}},
                    {"Links.Backward", 2, 1, {2, 3}},
                    {"Links.Forward", 2, 1, {2, 4}},
                    {"Name.Language.Code", 2, 2, {5, 6, 7}},
                    {"Name.Language.Country", 3, 2, {5, 6, 8}},
                    {"Name.Url", 2, 1, {5, 9}}});
  EXPECT_EQ(std::vector<int32_t>(d.children(5).begin(), d.children(5).end()),
            (std::vector<int32_t>{6, 9}));
  EXPECT_EQ(d.node(0).name, "Document");
}

// LogicalTypes.md, "Maps": MAP with key_value, a nullable map of nullable
// values, and the legacy MAP_KEY_VALUE-annotated layout; a map in a list.
TEST(SchemaDescriptor, Maps) {
  const std::vector<SchemaElement> elements = {
      Root(3),
      // Map<String, Integer>
      Group("m", kRequired, 1, ConvertedType::kMap),
      Group("key_value", kRepeated, 2),
      Leaf("key", kRequired, PType::kByteArray, true),
      Leaf("value", kOptional, PType::kInt32),
      // legacy: MAP_KEY_VALUE on the repeated group
      Group("legacy", kOptional, 1, ConvertedType::kMap),
      Group("map", kRepeated, 2, ConvertedType::kMapKeyValue),
      Leaf("key", kRequired, PType::kByteArray, true),
      Leaf("value", kRequired, PType::kInt32),
      // list<map<int32, list<int64>>>, all nullable
      Group("lm", kOptional, 1, ConvertedType::kList),
      Group("list", kRepeated, 1),
      Group("element", kOptional, 1, ConvertedType::kMap),
      Group("key_value", kRepeated, 2),
      Leaf("key", kRequired, PType::kInt32),
      Group("value", kOptional, 1, ConvertedType::kList),
      Group("list", kRepeated, 1),
      Leaf("element", kOptional, PType::kInt64),
  };
  SchemaDescriptor d = Describe(elements);
  EXPECT_EQ(NodeLevels(d), (std::vector<LevelInfo>{
                               L{0, 0, 0},
                               L{0, 0, 0}, L{1, 1, 1}, L{1, 1, 1}, L{2, 1, 1},
                               L{1, 0, 0}, L{2, 1, 2}, L{2, 1, 2}, L{2, 1, 2},
                               L{1, 0, 0}, L{2, 1, 2}, L{3, 1, 2}, L{4, 2, 4}, L{4, 2, 4},
                               L{5, 2, 4}, L{6, 3, 6}, L{7, 3, 6}}));
  ExpectColumns(d, {{"m.key_value.key", 1, 1, {1, 2, 3}},
                    {"m.key_value.value", 2, 1, {1, 2, 4}},
                    {"legacy.map.key", 2, 1, {5, 6, 7}},
                    {"legacy.map.value", 2, 1, {5, 6, 8}},
                    {"lm.list.element.key_value.key", 4, 2, {9, 10, 11, 12, 13}},
                    {"lm.list.element.key_value.value.list.element", 7, 3,
                     {9, 10, 11, 12, 14, 15, 16}}});
  EXPECT_EQ(d.node(6).converted_type, ConvertedType::kMapKeyValue);
}

TEST(SchemaDescriptor, NodeFacts) {
  SchemaElement dec = Leaf("dec", kOptional, PType::kFixedLenByteArray);
  dec.type_length = 16;
  dec.converted_type = ConvertedType::kDecimal;
  dec.precision = 38;
  dec.scale = 9;
  auto& logical = dec.logical_type.emplace().decimal.emplace();
  logical.precision = 38;
  logical.scale = 9;
  dec.field_id = 42;
  SchemaElement root = Root(3);
  root.repetition_type = kRepeated;  // ignored, as Arrow C++ ignores it
  SchemaElement no_repetition = Leaf("plain", std::nullopt, PType::kInt96);
  SchemaElement zero_children = Leaf("zero", kOptional, PType::kDouble);
  zero_children.num_children = 0;  // parquet-cpp wrote this on leaves: still a leaf
  SchemaDescriptor d = Describe({root, dec, no_repetition, zero_children});
  const SchemaNode& r = d.node(0);
  EXPECT_EQ(r.repetition, kRequired);
  EXPECT_EQ(r.levels, (L{0, 0, 0}));
  EXPECT_EQ(r.num_children, 3);
  const SchemaNode& n = d.node(1);
  EXPECT_EQ(n.physical_type, PType::kFixedLenByteArray);
  EXPECT_EQ(n.type_length, 16);
  EXPECT_EQ(n.precision, 38);
  EXPECT_EQ(n.scale, 9);
  EXPECT_EQ(n.field_id, 42);
  EXPECT_EQ(n.converted_type, ConvertedType::kDecimal);
  ASSERT_TRUE(n.logical_type.has_value() && n.logical_type->decimal.has_value());
  EXPECT_EQ(n.logical_type->decimal->precision, 38);
  EXPECT_EQ(d.column(0).type_length, 16);
  // A missing repetition_type is REQUIRED, as Arrow C++ reads it.
  EXPECT_EQ(d.node(2).repetition, kRequired);
  EXPECT_EQ(d.node(2).field_id, std::nullopt);
  ExpectColumns(d, {{"dec", 1, 0, {1}}, {"plain", 0, 0, {2}}, {"zero", 1, 0, {3}}});
  EXPECT_EQ(d.column(1).physical_type, PType::kInt96);
}

TEST(SchemaDescriptor, EmptySchemaAndEmptyGroups) {
  // A file without columns: the root alone, with num_children 0 or none.
  SchemaDescriptor d = Describe({Root(0)});
  EXPECT_EQ(d.num_columns(), 0);
  EXPECT_EQ(d.nodes().size(), 1u);
  SchemaElement bare;
  bare.name = "schema";
  d = Describe({bare});
  EXPECT_EQ(d.num_columns(), 0);
  EXPECT_TRUE(d.node(0).is_group());
  // A group with num_children 0 and no type is an empty group (as Arrow
  // C++ reads it): no leaves below it.
  d = Describe({Root(2), Group("empty", kOptional, 0), Leaf("x", kRequired, PType::kInt32)});
  EXPECT_TRUE(d.node(1).is_group());
  EXPECT_EQ(d.node(1).levels, (L{1, 0, 0}));
  ExpectColumns(d, {{"x", 0, 0, {2}}});
}

// --- Hostile schemas ---------------------------------------------------------

void ExpectRefused(const std::vector<SchemaElement>& elements, const std::string& text,
                   const SchemaDescriptorOptions& options = {}) {
  auto d = SchemaDescriptor::Make(elements, options);
  ASSERT_FALSE(d.ok()) << "accepted; expected: " << text;
  EXPECT_TRUE(d.status().IsInvalid()) << d.status();
  EXPECT_NE(d.status().message().find(text), std::string::npos)
      << "expected '" << text << "' in: " << d.status();
}

TEST(SchemaDescriptor, RefusesInconsistentChildrenCounts) {
  ExpectRefused({}, "the Parquet schema has no elements");
  ExpectRefused({Root(1), Leaf("a", kRequired, PType::kInt32), Leaf("b", kRequired, PType::kInt32)},
                "schema element 2 ('b') is one of 1 element(s) beyond the root's descendants");
  ExpectRefused({Root(0), Leaf("a", kRequired, PType::kInt32)},
                "schema element 1 ('a') is one of 1 element(s) beyond");
  ExpectRefused({Root(3), Leaf("a", kRequired, PType::kInt32), Leaf("b", kRequired, PType::kInt32)},
                "schema element 0 ('schema') has num_children 3, but only 2 element(s) follow");
  ExpectRefused({Root(2), Group("g", kOptional, 2), Leaf("a", kRequired, PType::kInt32),
                 Leaf("b", kRequired, PType::kInt32)},
                "schema element 1 ('g') has num_children 2, but only 2 element(s) follow for "
                "the 3 children still expected");
  ExpectRefused({Root(-1)}, "schema element 0 ('schema') has num_children -1");
  ExpectRefused({Root(1), Group("g", kOptional, -5)}, "schema element 1 ('g') has num_children -5");
  // A huge count is refused before anything is allocated for it.
  ExpectRefused({Root(1), Group("g", kOptional, INT32_MAX), Leaf("a", kRequired, PType::kInt32)},
                "schema element 1 ('g') has num_children 2147483647");
}

// What pyarrow reads of real files although the spec does not allow it
// (testdata/quiver/compat_*.parquet): a physical type on the root or on a
// group with children is ignored (Arrow C++ Unflatten); a repetition type
// parquet.thrift does not name is REQUIRED (LoadEnumSafe's UNDEFINED).
TEST(SchemaDescriptor, ReadsWhatArrowCppReads) {
  SchemaElement root = Root(1);
  root.type = PType::kInt32;
  SchemaDescriptor d = Describe({root, Leaf("a", kOptional, PType::kInt32)});
  EXPECT_TRUE(d.node(0).is_group());
  EXPECT_FALSE(d.node(0).physical_type.has_value());
  ASSERT_EQ(d.num_columns(), 1);
  EXPECT_EQ(d.column(0).max_def, 1);

  SchemaElement typed_group = Group("g", kOptional, 1);
  typed_group.type = PType::kInt64;
  d = Describe({Root(1), typed_group, Leaf("a", kOptional, PType::kInt32)});
  EXPECT_TRUE(d.node(1).is_group());
  ASSERT_EQ(d.num_columns(), 1);
  EXPECT_EQ(d.column(0).path, "g.a");
  EXPECT_EQ(d.column(0).max_def, 2);

  for (int32_t value : {4, 7, -1}) {
    d = Describe({Root(1), Leaf("r", static_cast<FieldRepetitionType>(value), PType::kInt32)});
    EXPECT_EQ(d.node(1).repetition, kRequired) << value;
    EXPECT_EQ(d.column(0).max_def, 0) << value;
    EXPECT_EQ(d.column(0).max_rep, 0) << value;
  }
}

TEST(SchemaDescriptor, RefusesBadNodes) {
  SchemaElement untyped;
  untyped.name = "u";
  untyped.repetition_type = kOptional;
  ExpectRefused({Root(1), untyped}, "schema element 1 ('u') is a leaf (no num_children) without a "
                                    "physical type");
  SchemaElement flba = Leaf("f", kRequired, PType::kFixedLenByteArray);
  ExpectRefused({Root(1), flba},
                "schema element 1 ('f') is a FIXED_LEN_BYTE_ARRAY with no type_length");
  flba.type_length = 0;
  ExpectRefused({Root(1), flba}, "with type_length 0; it needs a positive one");
  flba.type_length = -3;
  ExpectRefused({Root(1), flba}, "with type_length -3");
  SchemaElement unknown_type = Leaf("t", kRequired, static_cast<PType>(9));
  ExpectRefused({Root(1), unknown_type}, "schema element 1 ('t') has an unknown physical type 9");
  auto vector = SchemaDescriptor::Make(
      std::vector<SchemaElement>{Root(1), Leaf("v", FieldRepetitionType::kVector, PType::kInt32)});
  ASSERT_FALSE(vector.ok());
  EXPECT_TRUE(vector.status().IsNotImplemented()) << vector.status();
  // Names in errors are cut at 64 bytes.
  SchemaElement long_name = Leaf(std::string(1000, 'n'), kRequired, PType::kFixedLenByteArray);
  ExpectRefused({Root(1), long_name}, "schema element 1 ('" + std::string(64, 'n') + "...')");
}

// A chain of `depth` groups, each the only child of the one above, ending
// in a leaf.
std::vector<SchemaElement> Chain(int depth, FieldRepetitionType repetition,
                                 FieldRepetitionType leaf_repetition = kRequired) {
  std::vector<SchemaElement> elements{Root(1)};
  for (int i = 0; i < depth; ++i) elements.push_back(Group("g", repetition, 1));
  elements.push_back(Leaf("leaf", leaf_repetition, PType::kInt32));
  return elements;
}

TEST(SchemaDescriptor, RefusesDeepNesting) {
  SchemaDescriptorOptions options;
  options.max_depth = 10;
  // Nine groups: the leaf is at depth 10.
  auto ok = SchemaDescriptor::Make(Chain(9, kOptional), options);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->column(0).max_def, 9);
  EXPECT_EQ(ok->column(0).path_nodes.size(), 10u);
  ExpectRefused(Chain(10, kOptional), "schema element 11 ('leaf') is nested 11 levels deep; the "
                                      "limit is 10", options);

  // 100,000 deep (as a hostile footer can say): refused at the default
  // limit, after reading about a thousand elements.
  const std::vector<SchemaElement> deep = Chain(100'000, kRepeated);
  const auto start = std::chrono::steady_clock::now();
  ExpectRefused(deep, "schema element 1001 ('g') is nested 1001 levels deep; the limit is 1000");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 0.5);
}

TEST(SchemaDescriptor, RefusesMoreLevelsThanInt16) {
  SchemaDescriptorOptions options;
  options.max_depth = 40'000;
  // 32767 optional groups and a required leaf: def 32767 fits.
  auto ok = SchemaDescriptor::Make(Chain(32'767, kOptional), options);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->column(0).max_def, 32'767);
  EXPECT_EQ(ok->column(0).max_rep, 0);
  // An optional leaf below them needs def 32768.
  ExpectRefused(Chain(32'767, kOptional, kOptional),
                "schema element 32768 ('leaf') needs more than 32767 definition levels", options);
  ExpectRefused(Chain(32'767, kRepeated, kRepeated),
                "schema element 32768 ('leaf') needs more than 32767 definition levels", options);
}

TEST(SchemaDescriptor, RefusesLeafPathsFarLargerThanTheSchema) {
  // 900 nested groups above 10,000 leaves: 10,900 elements, whose leaf
  // paths would hold 9 million names.
  std::vector<SchemaElement> elements = Chain(899, kRequired);
  elements.pop_back();
  elements.push_back(Group("wide", kRequired, 10'000));
  for (int i = 0; i < 10'000; ++i) elements.push_back(Leaf("x", kOptional, PType::kInt32));
  ExpectRefused(elements, "the leaves' paths up to it total");
  // The same leaves 30 deep are fine.
  elements = Chain(29, kRequired);
  elements.pop_back();
  elements.push_back(Group("wide", kRequired, 10'000));
  for (int i = 0; i < 10'000; ++i) elements.push_back(Leaf("x", kOptional, PType::kInt32));
  auto ok = SchemaDescriptor::Make(elements);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->num_columns(), 10'000);
  EXPECT_EQ(ok->column(9'999).path_parts.size(), 31u);
  EXPECT_EQ(ok->column(9'999).max_def, 1);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
