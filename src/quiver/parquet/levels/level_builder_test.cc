#include "quiver/parquet/levels/level_builder.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "quiver/array/test_util_internal.h"

namespace quiver::parquet {
namespace {

using namespace ::quiver::testutil;  // NOLINT

using Ranges = std::vector<std::pair<int64_t, int64_t>>;
using Levels = std::vector<int16_t>;

LeafLevels One(const Field& field, const ArrayDataPtr& data) {
  auto r = ComputeLevels(field, data);
  EXPECT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->size(), 1u);
  return std::move((*r)[0]);
}

TEST(LevelBuilder, FlatNullableAndRequired) {
  auto data = ArrayFromVector<int32_t>(int32(), {1, 2, 3}, {true, false, true});
  LeafLevels l = One(Field("x", int32(), true), data);
  EXPECT_EQ(l.max_def, 1);
  EXPECT_EQ(l.max_rep, 0);
  EXPECT_EQ(l.def_levels, (Levels{1, 0, 1}));
  EXPECT_TRUE(l.rep_levels.empty());
  EXPECT_EQ(l.num_levels, 3);
  EXPECT_EQ(l.num_values, 2);
  EXPECT_EQ(l.ranges, (Ranges{{0, 3}}));

  auto req = ArrayFromVector<int32_t>(int32(), {1, 2, 3});
  LeafLevels r = One(Field("x", int32(), false), req);
  EXPECT_EQ(r.max_def, 0);
  EXPECT_TRUE(r.def_levels.empty());
  EXPECT_EQ(r.num_levels, 3);
  EXPECT_EQ(r.num_values, 3);
}

TEST(LevelBuilder, NullInNonNullableFieldIsInvalid) {
  auto data = ArrayFromVector<int32_t>(int32(), {1, 2}, {true, false});
  auto r = ComputeLevels(Field("x", int32(), false), data);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_NE(r.status().message().find("'x' is not nullable but has a null at slot 1"),
            std::string::npos)
      << r.status();
}

TEST(LevelBuilder, ListWithNullsAtEveryLevel) {
  // [[1, 2], null, [], [null, 4]]
  auto child = ArrayFromVector<int32_t>(int32(), {1, 2, 0, 4}, {true, true, false, true});
  auto type = list(int32());
  auto data = ListArrayFromOffsets(type, {0, 2, 2, 2, 4}, child, {true, false, true, true});
  LeafLevels l = One(Field("l", type, true), data);
  EXPECT_EQ(l.max_def, 3);
  EXPECT_EQ(l.max_rep, 1);
  EXPECT_EQ(l.def_levels, (Levels{3, 3, 0, 1, 2, 3}));
  EXPECT_EQ(l.rep_levels, (Levels{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(l.num_values, 3);
  EXPECT_EQ(l.ranges, (Ranges{{0, 4}}));

  // A slice [null, []]: no values, two records.
  LeafLevels s = One(Field("l", type, true), data->Slice(1, 2));
  EXPECT_EQ(s.def_levels, (Levels{0, 1}));
  EXPECT_EQ(s.rep_levels, (Levels{0, 0}));
  EXPECT_EQ(s.num_values, 0);
  EXPECT_TRUE(s.ranges.empty());
}

TEST(LevelBuilder, NullListSlotOwningAChildRange) {
  auto child = ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4, 5});
  auto type = list(field("item", int32(), false));
  auto data = ListArrayFromOffsets(type, {0, 2, 4, 5}, child, {true, false, true});
  LeafLevels l = One(Field("l", type, true), data);
  EXPECT_EQ(l.max_def, 2);
  EXPECT_EQ(l.def_levels, (Levels{2, 2, 0, 2}));
  EXPECT_EQ(l.rep_levels, (Levels{0, 1, 0, 0}));
  EXPECT_EQ(l.ranges, (Ranges{{0, 2}, {4, 5}}));
  EXPECT_EQ(l.num_values, 3);
}

TEST(LevelBuilder, StructWithNullsAndSlices) {
  auto a = ArrayFromVector<int32_t>(int32(), {1, 9, 0, 7}, {true, true, false, true});
  auto type = struct_({field("a", int32())});
  auto data = StructArrayFromChildren(type, 4, {a}, {true, false, true, true});
  LeafLevels l = One(Field("s", type, true), data);
  EXPECT_EQ(l.max_def, 2);
  EXPECT_EQ(l.def_levels, (Levels{2, 0, 1, 2}));
  EXPECT_EQ(l.ranges, (Ranges{{0, 1}, {2, 4}}));
  EXPECT_EQ(l.num_values, 2);

  // Slicing the struct offsets into the child.
  LeafLevels s = One(Field("s", type, true), data->Slice(2, 2));
  EXPECT_EQ(s.def_levels, (Levels{1, 2}));
  EXPECT_EQ(s.ranges, (Ranges{{2, 4}}));
}

// The word-at-a-time paths (leaf def levels from the validity bitmap, struct
// null runs) against a slot-by-slot reference, for struct<a: int32> with
// random validity at both levels (sparse, dense, all-null and all-valid
// stretches), sliced at offsets 0..70 so every bit alignment is seen.
TEST(LevelBuilder, BitmapPathsMatchSlotBySlotReference) {
  const int64_t n = 300;
  uint64_t seed = 12345;
  auto next = [&]() {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 33;
  };
  std::vector<bool> struct_valid(n), leaf_valid(n);
  std::vector<int32_t> values(n);
  for (int64_t i = 0; i < n; ++i) {
    // Stretches: 0-63 sparse (1%), 64-127 all valid, 128-191 all null, then 50%.
    const int64_t r = static_cast<int64_t>(next() % 100);
    struct_valid[i] = i < 64 ? r < 3 : i < 128 ? true : i < 192 ? false : r < 50;
    leaf_valid[i] = i >= 64 && i < 128 ? (r < 90) : r < 60;
    values[i] = static_cast<int32_t>(i);
  }
  auto a = ArrayFromVector<int32_t>(int32(), values, leaf_valid);
  auto type = struct_({field("a", int32())});
  auto data = StructArrayFromChildren(type, n, {a}, struct_valid);
  for (int64_t offset = 0; offset <= 70; ++offset) {
    const int64_t len = n - offset - (offset % 7);
    LeafLevels l = One(Field("s", type, true), data->Slice(offset, len));
    Levels expected;
    int64_t expected_values = 0;
    for (int64_t i = offset; i < offset + len; ++i) {
      if (!struct_valid[i]) {
        expected.push_back(0);
      } else if (!leaf_valid[i]) {
        expected.push_back(1);
      } else {
        expected.push_back(2);
        ++expected_values;
      }
    }
    ASSERT_EQ(l.def_levels, expected) << "offset " << offset;
    EXPECT_EQ(l.num_levels, len);
    EXPECT_EQ(l.num_values, expected_values) << "offset " << offset;
  }
  // A required struct with a null: the error names the first null slot.
  auto r = ComputeLevels(Field("s", type, false), data->Slice(64, 100));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("has a null at slot 64"), std::string::npos) << r.status();
}

TEST(LevelBuilder, MapKeysAndValues) {
  // [{"a": 1, "b": null}, null]
  auto keys = StringArrayFromVector({"a", "b"});
  auto values = ArrayFromVector<int32_t>(int32(), {1, 0}, {true, false});
  auto type = map(utf8(), int32());
  auto entries = StructArrayFromChildren(type->field(0)->type(), 2, {keys, values});
  auto data = ListArrayFromOffsets(type, {0, 2, 2}, entries, {true, false});
  auto r = ComputeLevels(Field("m", type, true), data);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 2u);
  const LeafLevels& k = (*r)[0];
  const LeafLevels& v = (*r)[1];
  EXPECT_EQ(k.max_def, 2);
  EXPECT_EQ(k.max_rep, 1);
  EXPECT_EQ(k.def_levels, (Levels{2, 2, 0}));
  EXPECT_EQ(k.rep_levels, (Levels{0, 1, 0}));
  EXPECT_EQ(v.max_def, 3);
  EXPECT_EQ(v.def_levels, (Levels{3, 2, 0}));
  EXPECT_EQ(v.num_values, 1);
}

TEST(LevelBuilder, ListOfLists) {
  // [[[1], []], [[2, 3]]]
  auto ints = ArrayFromVector<int32_t>(int32(), {1, 2, 3});
  auto inner_type = list(int32());
  auto inner = ListArrayFromOffsets(inner_type, {0, 1, 1, 3}, ints);
  auto outer_type = list(inner_type);
  auto outer = ListArrayFromOffsets(outer_type, {0, 2, 3}, inner);
  LeafLevels l = One(Field("ll", outer_type, true), outer);
  EXPECT_EQ(l.max_def, 5);
  EXPECT_EQ(l.max_rep, 2);
  EXPECT_EQ(l.def_levels, (Levels{5, 3, 5, 5}));
  EXPECT_EQ(l.rep_levels, (Levels{0, 1, 0, 2}));
  EXPECT_EQ(l.num_values, 3);
}

TEST(LevelBuilder, FixedSizeListAndNullType) {
  auto ints = ArrayFromVector<int16_t>(int16(), {1, 2, 3, 4, 5, 6});
  auto type = fixed_size_list(int16(), 2);
  auto data = FixedSizeListArrayFromChild(type, 3, ints, {true, false, true});
  LeafLevels l = One(Field("f", type, true), data->Slice(1, 2));
  EXPECT_EQ(l.def_levels, (Levels{0, 3, 3}));
  EXPECT_EQ(l.rep_levels, (Levels{0, 0, 1}));
  EXPECT_EQ(l.ranges, (Ranges{{4, 6}}));

  LeafLevels n = One(Field("n", null(), true), NullArrayOfLength(3));
  EXPECT_EQ(n.max_def, 1);
  EXPECT_EQ(n.def_levels, (Levels{0, 0, 0}));
  EXPECT_EQ(n.num_values, 0);
}

TEST(LevelBuilder, StructLeavesInOrder) {
  auto a = ArrayFromVector<int32_t>(int32(), {1, 2});
  auto b = StringArrayFromVector({"x", "y"});
  auto inner_type = struct_({field("b", utf8(), false)});
  auto inner = StructArrayFromChildren(inner_type, 2, {b});
  auto type = struct_({field("a", int32(), false), field("inner", inner_type)});
  auto data = StructArrayFromChildren(type, 2, {a, inner});
  EXPECT_EQ(CountLeaves(*type), 2);
  auto r = ComputeLevels(Field("s", type, false), data);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].max_def, 0);
  EXPECT_EQ((*r)[1].max_def, 1);
  EXPECT_EQ((*r)[1].def_levels, (Levels{1, 1}));
  EXPECT_EQ((*r)[1].leaf->type->id(), Type::kString);
}

}  // namespace
}  // namespace quiver::parquet
