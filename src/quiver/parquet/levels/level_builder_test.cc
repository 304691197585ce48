#include "quiver/parquet/levels/level_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using namespace ::quiver::testutil;  // NOLINT

using Ranges = std::vector<std::pair<int64_t, int64_t>>;
using Levels = LevelVector;

// Validity of n slots in stretches of 64 ([0, 64), [64, 128), [128, 192),
// then the rest), each valid with its percentage (0 and 100: all null, all
// valid).
std::vector<bool> Stretches(std::mt19937_64& rng, int64_t n, const std::array<int, 4>& percent) {
  std::vector<bool> valid(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    valid[static_cast<size_t>(i)] = static_cast<int>(rng() % 100) < percent[std::min<size_t>(i / 64, 3)];
  }
  return valid;
}

std::vector<int32_t> Iota(int64_t n) {
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<int32_t>(i);
  return v;
}

// The slot-by-slot reference of the tests below for a present, non-empty
// list slot whose elements are leaf slots [begin, end): each at `present`
// or `present - 1` (item_valid), the first at repetition level `first`, the
// others at `elem`; the leaf range appended to `ranges` (merged with the
// last when adjacent).
struct Reference {
  Levels def, rep;
  Ranges ranges;
  int64_t values = 0;

  void Elements(int64_t begin, int64_t end, const std::vector<bool>& item_valid, int16_t present,
                int16_t first, int16_t elem) {
    for (int64_t e = begin; e < end; ++e) {
      const bool v = item_valid[static_cast<size_t>(e)];
      def.push_back(v ? present : static_cast<int16_t>(present - 1));
      rep.push_back(e == begin ? first : elem);
      values += v;
    }
    AddRange(begin, end);
  }
  void AddRange(int64_t begin, int64_t end) {
    if (!ranges.empty() && ranges.back().second == begin) {
      ranges.back().second = end;
    } else {
      ranges.emplace_back(begin, end);
    }
  }
  void Level(int16_t d, int16_t r) {
    def.push_back(d);
    rep.push_back(r);
  }
  // The levels, ranges and counts of `l` equal these.
  void Check(const LeafLevels& l, const std::string& where) const {
    ASSERT_EQ(l.def_levels, def) << where;
    ASSERT_EQ(l.rep_levels, rep) << where;
    EXPECT_EQ(l.ranges, ranges) << where;
    EXPECT_EQ(l.num_values, values) << where;
    EXPECT_EQ(l.num_levels, static_cast<int64_t>(def.size())) << where;
  }
  // List slot i (offsets, validity) whose present level is `present`: a
  // null or empty slot is one level at repetition level r (true: done);
  // false when it has elements for the caller to add.
  bool NullOrEmpty(const std::vector<int64_t>& offsets, const std::vector<bool>& valid, int64_t i,
                   int16_t present, int16_t r) {
    const bool v = valid[static_cast<size_t>(i)];
    if (v && offsets[static_cast<size_t>(i)] != offsets[static_cast<size_t>(i) + 1]) return false;
    Level(v ? present : static_cast<int16_t>(present - 1), r);
    return true;
  }
  // Outer slots [begin, end) of a nullable list<nullable list<nullable
  // leaf>> (def levels 0..5, rep 0..2).
  void ListsOfLists(const std::vector<int64_t>& outer_offsets, const std::vector<bool>& outer_valid,
                    int64_t begin, int64_t end, const std::vector<int64_t>& inner_offsets,
                    const std::vector<bool>& inner_valid, const std::vector<bool>& item_valid) {
    for (int64_t i = begin; i < end; ++i) {
      if (NullOrEmpty(outer_offsets, outer_valid, i, 1, 0)) continue;
      for (int64_t j = outer_offsets[static_cast<size_t>(i)]; j < outer_offsets[static_cast<size_t>(i) + 1];
           ++j) {
        const int16_t r = j == outer_offsets[static_cast<size_t>(i)] ? 0 : 1;
        if (NullOrEmpty(inner_offsets, inner_valid, j, 3, r)) continue;
        Elements(inner_offsets[static_cast<size_t>(j)], inner_offsets[static_cast<size_t>(j) + 1], item_valid, 5,
                 r, 2);
      }
    }
  }
};

// Every leaf's packed levels (where the column packs: max_def 1, max_rep
// 0) are its int16 levels as bits, with the same ranges and counts.
void ExpectPackedMatches(const std::vector<LeafLevels>& plain,
                         const std::vector<LeafLevels>& packed) {
  ASSERT_EQ(plain.size(), packed.size());
  for (size_t i = 0; i < plain.size(); ++i) {
    const LeafLevels& a = plain[i];
    const LeafLevels& b = packed[i];
    EXPECT_FALSE(a.def_packed);
    ASSERT_EQ(b.def_packed, a.max_def == 1 && a.max_rep == 0) << "leaf " << i;
    EXPECT_EQ(a.num_levels, b.num_levels);
    EXPECT_EQ(a.num_values, b.num_values);
    EXPECT_EQ(a.ranges, b.ranges);
    EXPECT_EQ(a.rep_levels, b.rep_levels);
    if (!b.def_packed) {
      EXPECT_EQ(a.def_levels, b.def_levels);
      continue;
    }
    EXPECT_TRUE(b.def_levels.empty());
    ASSERT_EQ(static_cast<int64_t>(b.def_bits.size()), bit_util::BytesForBits(b.num_levels));
    Levels unpacked;
    for (int64_t k = 0; k < b.num_levels; ++k) {
      unpacked.push_back(bit_util::GetBit(b.def_bits.data(), k) ? 1 : 0);
    }
    EXPECT_EQ(a.def_levels, unpacked) << "leaf " << i;
  }
}

// The levels of a one-leaf field; the packed levels are checked against
// them on the way.
LeafLevels One(const Field& field, const ArrayDataPtr& data) {
  auto r = ComputeLevels(field, data);
  EXPECT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->size(), 1u);
  auto packed = ComputeLevels(field, data, /*pack_flat_def_levels=*/true);
  EXPECT_TRUE(packed.ok()) << packed.status();
  if (r.ok() && packed.ok()) ExpectPackedMatches(*r, *packed);
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

TEST(LevelBuilder, NullListSlotsWithOffsetsOutsideTheChild) {
  // A null slot's offsets are not judged: here they point before the child
  // (-200, and one far out) and past it. Its one level and nothing read
  // outside the child's validity (or a struct's, between list and leaf).
  for (const int64_t bad : {int64_t{-200}, int64_t{-2000000000}, int64_t{1000}}) {
    auto items = ArrayFromVector<int32_t>(int32(), {7, 8}, {true, false});
    auto type = list(int32());
    auto data = ListArrayFromOffsets(type, {0, bad, 0, 2}, items, {false, false, true});
    LeafLevels l = One(Field("l", type, true), data);
    EXPECT_EQ(l.def_levels, (Levels{0, 0, 3, 2})) << bad;
    EXPECT_EQ(l.rep_levels, (Levels{0, 0, 0, 1})) << bad;
    EXPECT_EQ(l.num_values, 1) << bad;

    auto x = ArrayFromVector<int32_t>(int32(), {5, 6});
    auto struct_type = struct_({field("x", int32(), false)});
    auto structs = StructArrayFromChildren(struct_type, 2, {x}, {true, false});
    auto outer = list(struct_type);
    auto with_struct = ListArrayFromOffsets(outer, {0, bad, 0, 2}, structs, {false, false, true});
    LeafLevels s = One(Field("l", outer, true), with_struct);
    EXPECT_EQ(s.def_levels, (Levels{0, 0, 3, 2})) << bad;
    EXPECT_EQ(s.rep_levels, (Levels{0, 0, 0, 1})) << bad;
    EXPECT_EQ(s.num_values, 1) << bad;
  }
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
  std::mt19937_64 rng(12345);
  // The struct: sparse, all valid, all null, then half; the leaf: 90% valid
  // under the struct's all-valid stretch, else 60%.
  const std::vector<bool> struct_valid = Stretches(rng, n, {3, 100, 0, 50});
  const std::vector<bool> leaf_valid = Stretches(rng, n, {60, 90, 60, 60});
  const std::vector<int32_t> values = Iota(n);
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

// Packed levels (max_def 1: a nullable leaf, or a nullable struct with a
// required leaf) from every path that emits them (validity copies, null
// runs, all-valid runs, a null-type leaf), at every bit alignment.
TEST(LevelBuilder, PackedFlatLevelsMatchInt16Levels) {
  const int64_t n = 300;
  std::mt19937_64 rng(777);
  const std::vector<bool> struct_valid = Stretches(rng, n, {3, 100, 0, 50});
  const std::vector<bool> leaf_valid = Stretches(rng, n, {2, 100, 0, 60});
  const std::vector<int32_t> values = Iota(n);
  auto leaf = ArrayFromVector<int32_t>(int32(), values, leaf_valid);
  auto required = ArrayFromVector<int32_t>(int32(), values);
  auto type = struct_({field("a", int32(), false)});
  auto st = StructArrayFromChildren(type, n, {required}, struct_valid);
  auto two = struct_({field("a", int32(), false), field("b", int32(), true)});
  auto st2 = StructArrayFromChildren(two, n, {required, leaf}, struct_valid);
  for (int64_t offset = 0; offset <= 70; ++offset) {
    const int64_t len = n - offset - (offset % 7);
    One(Field("x", int32(), true), leaf->Slice(offset, len));
    One(Field("s", type, true), st->Slice(offset, len));
    // Two leaves: a packs (max_def 1), b does not (max_def 2).
    auto plain = ComputeLevels(Field("t", two, true), st2->Slice(offset, len));
    auto packed = ComputeLevels(Field("t", two, true), st2->Slice(offset, len), true);
    ASSERT_TRUE(plain.ok() && packed.ok());
    ExpectPackedMatches(*plain, *packed);
  }
  One(Field("n", null(), true), NullArrayOfLength(77));

  // A required leaf with a validity bitmap of its own: nulls under null
  // struct slots only are allowed (the packed path copies the struct's
  // bits); a null under a valid struct slot is an error naming the leaf
  // slot, the same packed or not.
  std::vector<bool> masked = struct_valid;
  auto under_nulls = ArrayFromVector<int32_t>(int32(), values, masked);
  auto st_masked = StructArrayFromChildren(type, n, {under_nulls}, struct_valid);
  for (int64_t offset = 0; offset <= 70; offset += 5) {
    One(Field("s", type, true), st_masked->Slice(offset, n - offset));
  }
  // The child sliced (its own offset, 71): its one null, under a valid
  // struct slot, is found at its own bit (71 bits on, where no struct slot
  // is: a read that forgot the offset would miss it).
  constexpr int64_t kChildOffset = 71;
  int64_t bad_slot = 0;
  for (int64_t i = n - kChildOffset; i < n; ++i) {
    if (struct_valid[static_cast<size_t>(i)]) {
      bad_slot = i;
      break;
    }
  }
  ASSERT_GT(bad_slot, 0);
  std::vector<bool> one_null(static_cast<size_t>(n + kChildOffset), true);
  one_null[static_cast<size_t>(bad_slot + kChildOffset)] = false;
  auto with_null =
      ArrayFromVector<int32_t>(int32(), Iota(n + kChildOffset), one_null)->Slice(kChildOffset, n);
  auto st_bad = StructArrayFromChildren(type, n, {with_null}, struct_valid);
  for (const bool pack : {false, true}) {
    auto r = ComputeLevels(Field("s", type, true), st_bad->Slice(100, n - 100), pack);
    ASSERT_FALSE(r.ok()) << "packed " << pack;
    EXPECT_NE(r.status().message().find("'a' is not nullable but has a null at slot " + std::to_string(bad_slot)),
              std::string::npos)
        << r.status();
  }
}

// Lists of leaves (levels written in two flat passes) against a slot-by-slot
// reference: list and large_list of nullable int32, with null lists that
// own child ranges, empty lists and null items, sliced at every offset.
TEST(LevelBuilder, ListOfLeavesMatchesSlotBySlotReference) {
  std::mt19937_64 rng(2024);
  const int64_t n = 200;
  std::vector<int64_t> offsets = {0};
  std::vector<bool> list_valid;
  for (int64_t i = 0; i < n; ++i) {
    offsets.push_back(offsets.back() + static_cast<int64_t>(rng() % 5));  // 0..4 (a null may own some)
    list_valid.push_back(rng() % 4 != 0);
  }
  const int64_t m = offsets.back();
  const std::vector<bool> item_valid = Stretches(rng, m, {70, 100, 0, 75});
  auto items = ArrayFromVector<int32_t>(int32(), Iota(m), item_valid);
  for (const TypePtr& type : {list(int32()), large_list(int32())}) {
    auto data = ListArrayFromOffsets(type, offsets, items, list_valid);
    for (int64_t offset = 0; offset < 40; ++offset) {
      const int64_t len = n - offset - offset % 3;
      LeafLevels l = One(Field("l", type, true), data->Slice(offset, len));
      Reference ref;
      for (int64_t i = offset; i < offset + len; ++i) {
        // (A top-level list: every slot is a new row, repetition level 0.)
        if (ref.NullOrEmpty(offsets, list_valid, i, 1, 0)) continue;
        ref.Elements(offsets[i], offsets[i + 1], item_valid, 3, 0, 1);
      }
      ref.Check(l, type->ToString() + " offset " + std::to_string(offset));
    }
  }
}

TEST(LevelBuilder, ListOfListsMatchesSlotBySlotReference) {
  // list<list<int32>> (and large_list at either level) with nulls at every
  // level, empty lists, null lists owning child ranges, at every slice
  // offset: the flat passes against a slot-by-slot reference.
  // With `backward`, some null slots' offsets go back (the writer does
  // not judge a null slot's offsets), so that the ranges of the slots
  // around them do not join.
  std::mt19937_64 rng(2025);
  const int64_t n = 150;
  for (bool backward : {false, true}) {
  auto offsets_of = [&](int64_t slots, int valid_in, std::vector<bool>* valid) {
    std::vector<int64_t> offsets = {0};
    for (int64_t i = 0; i < slots; ++i) {
      valid->push_back(rng() % valid_in != 0);
      const int64_t at = offsets.back();
      offsets.push_back(backward && !valid->back() && rng() % 2 == 0
                            ? std::max<int64_t>(0, at - static_cast<int64_t>(rng() % 3))
                            : at + static_cast<int64_t>(rng() % 4));  // 0..3
    }
    return offsets;
  };
  std::vector<bool> outer_valid, inner_valid;
  const std::vector<int64_t> outer_offsets = offsets_of(n, 4, &outer_valid);
  const int64_t m = *std::max_element(outer_offsets.begin(), outer_offsets.end());
  const std::vector<int64_t> inner_offsets = offsets_of(m, 5, &inner_valid);
  const int64_t k = *std::max_element(inner_offsets.begin(), inner_offsets.end());
  const std::vector<bool> item_valid = Stretches(rng, k, {70, 100, 0, 75});
  auto items = ArrayFromVector<int32_t>(int32(), Iota(k), item_valid);
  for (bool large_outer : {false, true}) {
    for (bool large_inner : {false, true}) {
      const TypePtr inner_type = large_inner ? large_list(int32()) : list(int32());
      const TypePtr outer_type = large_outer ? large_list(inner_type) : list(inner_type);
      auto inner = ListArrayFromOffsets(inner_type, inner_offsets, items, inner_valid);
      auto outer = ListArrayFromOffsets(outer_type, outer_offsets, inner, outer_valid);
      for (int64_t offset = 0; offset < 30; ++offset) {
        const int64_t len = n - offset - offset % 4;
        LeafLevels l = One(Field("ll", outer_type, true), outer->Slice(offset, len));
        Reference ref;
        ref.ListsOfLists(outer_offsets, outer_valid, offset, offset + len, inner_offsets, inner_valid, item_valid);
        const std::string where =
            outer_type->ToString() + " offset " + std::to_string(offset) + (backward ? " backward" : "");
        ref.Check(l, where);
      }
    }
  }
  }
  // A null in a required inner list: the general walk's error.
  auto items = ArrayFromVector<int32_t>(int32(), Iota(2), {true, true});
  auto inner = ListArrayFromOffsets(list(int32()), {0, 1, 1}, items, {true, false});
  const auto required_inner = list(std::make_shared<Field>("item", list(int32()), false));
  auto r = ComputeLevels(Field("ll", required_inner, true),
                         ListArrayFromOffsets(required_inner, {0, 2}, inner));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is not nullable but has a null"), std::string::npos) << r.status();
  // A null outer slot whose offsets go back to the start, so that the two
  // valid slots around it own the same inner slots: more levels than the
  // slots the arrays hold (the writer does not judge a null slot's
  // offsets; the bound from the offsets must not be used).
  {
    std::vector<bool> twelve(12, true);
    auto leaves = ArrayFromVector<int32_t>(int32(), Iota(12), twelve);
    const std::vector<int64_t> in_off = {0, 4, 8, 12};
    const std::vector<int64_t> out_off = {0, 3, 0, 3};
    const std::vector<bool> in_valid = {true, true, true}, out_valid = {true, false, true};
    auto in_lists = ListArrayFromOffsets(list(int32()), in_off, leaves, in_valid);
    auto again = ListArrayFromOffsets(list(list(int32())), out_off, in_lists, out_valid);
    LeafLevels l = One(Field("ll", list(list(int32())), true), again);
    Reference ref;
    ref.ListsOfLists(out_off, out_valid, 0, 3, in_off, in_valid, twelve);
    ref.Check(l, "slots owning the same inner slots");
  }
  // The same with the going-back null slot at each of the positions 1..12
  // of 16 outer slots (the order check reads int32 offsets four at a time:
  // each lane and the scalar tail), the slots after it owning all three
  // inner slots again.
  for (int64_t p = 1; p <= 12; ++p) {
    std::vector<bool> twelve(12, true);
    auto leaves = ArrayFromVector<int32_t>(int32(), Iota(12), twelve);
    const std::vector<int64_t> in_off = {0, 4, 8, 12};
    std::vector<int64_t> out_off;
    std::vector<bool> out_valid;
    for (int64_t k = 0; k <= 16; ++k) out_off.push_back(std::min<int64_t>(k <= p ? k : k - p - 1, 3));
    for (int64_t k = 0; k < 16; ++k) out_valid.push_back(k != p);
    auto in_lists = ListArrayFromOffsets(list(int32()), in_off, leaves);
    auto again = ListArrayFromOffsets(list(list(int32())), out_off, in_lists, out_valid);
    LeafLevels l = One(Field("ll", list(list(int32())), true), again);
    Reference ref;
    ref.ListsOfLists(out_off, out_valid, 0, 16, in_off, std::vector<bool>(3, true), twelve);
    ref.Check(l, "going back after slot " + std::to_string(p));
  }
  // Dense lists (no null or empty slot): the levels are the leaf slots,
  // the bound from the offsets is nearly tight.
  {
    std::vector<bool> all(24, true);
    auto leaves = ArrayFromVector<int32_t>(int32(), Iota(24), all);
    const std::vector<int64_t> in_off = {0, 4, 8, 12, 16, 20, 24};
    const std::vector<int64_t> out_off = {0, 3, 6};
    auto in_lists = ListArrayFromOffsets(list(int32()), in_off, leaves);
    auto dense = ListArrayFromOffsets(list(list(int32())), out_off, in_lists);
    LeafLevels l = One(Field("ll", list(list(int32())), true), dense);
    Reference ref;
    for (int64_t i = 0; i < 2; ++i) {
      for (int64_t j = out_off[i]; j < out_off[i + 1]; ++j) {
        ref.Elements(in_off[j], in_off[j + 1], all, 5, j == out_off[i] ? 0 : 1, 2);
      }
    }
    ref.Check(l, "dense lists");
  }
  // A null in a required outer list: the same.
  auto full = ListArrayFromOffsets(list(int32()), {0, 1, 2}, items, {true, true});
  auto outer_null = ListArrayFromOffsets(list(list(int32())), {0, 1, 2, 2}, full, {true, true, false});
  auto q = ComputeLevels(Field("ll", list(list(int32())), false), outer_null);
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.status().message().find("'ll' is not nullable but has a null at slot 2"), std::string::npos)
      << q.status();
  // A required inner list without a validity bitmap (nothing to judge):
  // the levels as with a nullable one.
  auto plain_inner = ListArrayFromOffsets(list(int32()), {0, 1, 1, 2}, items);
  auto r_ok = ComputeLevels(Field("ll", required_inner, true),
                            ListArrayFromOffsets(required_inner, {0, 2, 3}, plain_inner, {true, true}));
  ASSERT_TRUE(r_ok.ok()) << r_ok.status();
  EXPECT_EQ((*r_ok)[0].def_levels, (Levels{4, 2, 4}));
  EXPECT_EQ((*r_ok)[0].rep_levels, (Levels{0, 1, 0}));
}

TEST(LevelBuilder, ListOfStructsMatchesSlotBySlotReference) {
  // list<struct<a: int32, b: int32 not null, c: int32, d: null, e: int32>>
  // with null lists owning child ranges, empty lists, null structs (whose
  // leaf slots hold values that must not be written), null leaves, and the
  // struct array itself sliced: each leaf's levels, ranges and value counts
  // against a slot-by-slot reference, at every slice offset of the list.
  // Leaves b..e take their levels from the leaf before them
  // (LevelsFromSibling): b without a bitmap, c with one after b, d of the
  // null type, e with nulls only in slots under null structs (a bitmap,
  // every consumed slot valid).
  std::mt19937_64 rng(2026);
  const int64_t n = 160;
  std::vector<int64_t> offsets = {0};
  std::vector<bool> list_valid;
  for (int64_t i = 0; i < n; ++i) {
    offsets.push_back(offsets.back() + static_cast<int64_t>(rng() % 12));  // 0..11: both paths
    list_valid.push_back(rng() % 5 != 0);
  }
  const int64_t m = offsets.back();
  const int64_t shift = 3;  // the struct array is a slice starting at slot 3 of its children
  const std::vector<bool> struct_valid = Stretches(rng, m + shift, {70, 100, 0, 80});
  const std::vector<bool> a_valid = Stretches(rng, m + shift, {60, 100, 50, 75});
  const std::vector<bool> c_valid = Stretches(rng, m + shift, {30, 0, 90, 100});
  const std::vector<bool> e_valid = struct_valid;
  auto a = ArrayFromVector<int32_t>(int32(), Iota(m + shift), a_valid);
  auto b = ArrayFromVector<int32_t>(int32(), Iota(m + shift));
  auto c = ArrayFromVector<int32_t>(int32(), Iota(m + shift), c_valid);
  auto d = NullArrayOfLength(m + shift);
  auto e = ArrayFromVector<int32_t>(int32(), Iota(m + shift), e_valid);
  auto struct_type = struct_({field("a", int32()), field("b", int32(), false), field("c", int32()),
                              field("d", null()), field("e", int32())});
  auto structs =
      StructArrayFromChildren(struct_type, m + shift, {a, b, c, d, e}, struct_valid)->Slice(shift, m);
  auto type = list(struct_type);
  auto data = ListArrayFromOffsets(type, offsets, structs, list_valid);
  for (int64_t offset = 0; offset < 30; ++offset) {
    const int64_t len = n - offset - offset % 3;
    auto r = ComputeLevels(Field("l", type, true), data->Slice(offset, len));
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->size(), 5u);
    for (int leaf = 0; leaf < 5; ++leaf) {
      const LeafLevels& l = (*r)[static_cast<size_t>(leaf)];
      const bool required = leaf == 1;
      Reference ref;
      for (int64_t i = offset; i < offset + len; ++i) {
        if (ref.NullOrEmpty(offsets, list_valid, i, 1, 0)) continue;
        for (int64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
          const int64_t slot = e + shift;  // the leaf's slot
          const int16_t rep = e == offsets[i] ? 0 : 1;
          if (!struct_valid[static_cast<size_t>(slot)]) {
            ref.Level(2, rep);
            continue;
          }
          const auto u = static_cast<size_t>(slot);
          const bool v = leaf == 0 ? a_valid[u] : leaf == 1 ? true : leaf == 2 ? c_valid[u]
                         : leaf == 3 ? false : e_valid[u];
          ref.Level(required ? 3 : (v ? 4 : 3), rep);
          ref.values += v;
          ref.AddRange(slot, slot + 1);
        }
      }
      const std::string where = "leaf " + std::to_string(leaf) + " offset " + std::to_string(offset);
      ASSERT_EQ(l.max_def, required ? 3 : 4) << where;
      ref.Check(l, where);
    }
  }
}

TEST(LevelBuilder, SiblingLeafChecksItsOwnSlots) {
  // list<struct<a: int32, b: int32 not null>>: b's levels come from a's
  // (LevelsFromSibling), and b's own checks still hold: a null in a slot
  // b consumes is an error naming the slot, as b alone reports it; a null
  // in a slot under a null struct is not; b shorter than the slots the
  // struct reaches is an error, not a read past its end.
  const std::vector<int64_t> offsets = {0, 2, 2, 5};
  const std::vector<bool> struct_valid = {true, true, false, true, true};
  auto a = ArrayFromVector<int32_t>(int32(), Iota(5));
  auto struct_type = struct_({field("a", int32()), field("b", int32(), false)});
  auto type = list(struct_type);
  auto one_type = list(struct_({field("b", int32(), false)}));
  auto levels = [&](const std::vector<bool>& b_valid, int64_t b_length, bool alone) {
    auto b = ArrayFromVector<int32_t>(int32(), Iota(b_length), b_valid);
    auto structs = alone ? StructArrayFromChildren(one_type->field(0)->type(), 5, {b}, struct_valid)
                         : StructArrayFromChildren(struct_type, 5, {a, b}, struct_valid);
    return ComputeLevels(Field("l", alone ? one_type : type, true),
                         ListArrayFromOffsets(alone ? one_type : type, offsets, structs, {}));
  };
  // A null under the null struct (slot 2): fine.
  auto ok = levels({true, true, false, true, true}, 5, false);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[1].def_levels, (Levels{3, 3, 1, 2, 3, 3}));
  EXPECT_EQ((*ok)[1].num_values, 4);
  // A null in consumed slot 3.
  auto bad = levels({true, true, true, false, true}, 5, false);
  ASSERT_FALSE(bad.ok());
  auto bad_alone = levels({true, true, true, false, true}, 5, true);
  ASSERT_FALSE(bad_alone.ok());
  EXPECT_EQ(bad.status().message(), bad_alone.status().message());
  EXPECT_NE(bad.status().message().find("at slot 3"), std::string::npos) << bad.status();
  // b shorter than the struct's slots.
  auto short_b = levels({}, 4, false);
  ASSERT_FALSE(short_b.ok());
  EXPECT_NE(short_b.status().message().find("beyond the leaf array's length 4"), std::string::npos)
      << short_b.status();
}

TEST(LevelBuilder, ListOfStructsOfListsMatchesSlotBySlotReference) {
  // list<struct<c: list<int32>>> with null outer lists owning child ranges,
  // empty outer and inner lists, null structs over valid inner lists, null
  // inner lists, null items and a sliced struct array, at every slice
  // offset of the outer list, against a slot-by-slot reference.
  std::mt19937_64 rng(2027);
  const int64_t n = 140;
  std::vector<int64_t> outer_offsets = {0};
  std::vector<bool> outer_valid;
  for (int64_t i = 0; i < n; ++i) {
    outer_offsets.push_back(outer_offsets.back() + static_cast<int64_t>(rng() % 4));
    outer_valid.push_back(rng() % 5 != 0);
  }
  const int64_t shift = 2;  // the struct array is a slice starting at slot 2 of its child
  const int64_t m = outer_offsets.back() + shift;
  std::vector<int64_t> inner_offsets = {0};
  std::vector<bool> inner_valid;
  for (int64_t j = 0; j < m; ++j) {
    inner_offsets.push_back(inner_offsets.back() + static_cast<int64_t>(rng() % 4));
    inner_valid.push_back(rng() % 5 != 0);
  }
  const std::vector<bool> struct_valid = Stretches(rng, m, {70, 100, 0, 80});
  const int64_t k = inner_offsets.back();
  const std::vector<bool> item_valid = Stretches(rng, k, {70, 100, 0, 75});
  auto items = ArrayFromVector<int32_t>(int32(), Iota(k), item_valid);
  auto inner = ListArrayFromOffsets(list(int32()), inner_offsets, items, inner_valid);
  auto struct_type = struct_({field("c", list(int32()))});
  auto structs = StructArrayFromChildren(struct_type, m, {inner}, struct_valid)->Slice(shift, m - shift);
  auto type = list(struct_type);
  auto data = ListArrayFromOffsets(type, outer_offsets, structs, outer_valid);
  for (int64_t offset = 0; offset < 25; ++offset) {
    const int64_t len = n - offset - offset % 3;
    LeafLevels l = One(Field("l", type, true), data->Slice(offset, len));
    Reference ref;
    for (int64_t i = offset; i < offset + len; ++i) {
      if (ref.NullOrEmpty(outer_offsets, outer_valid, i, 1, 0)) continue;
      for (int64_t e = outer_offsets[i]; e < outer_offsets[i + 1]; ++e) {
        const int64_t j = e + shift;  // the struct's slot in its child, the inner list's slot
        const int16_t r = e == outer_offsets[i] ? 0 : 1;
        if (!struct_valid[static_cast<size_t>(j)]) {
          ref.Level(2, r);
        } else if (!ref.NullOrEmpty(inner_offsets, inner_valid, j, 4, r)) {
          ref.Elements(inner_offsets[j], inner_offsets[j + 1], item_valid, 6, r, 2);
        }
      }
    }
    const std::string where = "offset " + std::to_string(offset);
    ASSERT_EQ(l.max_def, 6) << where;
    ref.Check(l, where);
  }
}

TEST(LevelBuilder, ListOfStructsOfListsWithGoingBackInnerOffsetsAfterTheStructsOffset) {
  // The struct array is a slice at 5 of its child: outer elements 0..4 are
  // inner list slots 5..9, whose offsets go back under null slot 6 (slots
  // 7..9 own leaves slot 5 owned too): more levels than a bound from the
  // offsets, which must be judged at the struct's offset (slots 0..5 are
  // in order), so the levels are counted.
  auto items = ArrayFromVector<int32_t>(int32(), Iota(9), std::vector<bool>(9, true));
  const std::vector<int64_t> in_off = {0, 1, 2, 3, 4, 5, 8, 0, 3, 6, 9};
  std::vector<bool> in_valid(10, true);
  in_valid[6] = false;
  auto inner = ListArrayFromOffsets(list(int32()), in_off, items, in_valid);
  auto struct_type = struct_({field("c", list(int32()))});
  for (const bool struct_nulls : {false, true}) {
    std::vector<bool> struct_valid(10, true);
    if (struct_nulls) struct_valid[8] = false;
    auto structs = StructArrayFromChildren(struct_type, 10, {inner}, struct_valid)->Slice(5, 5);
    const auto type = list(struct_type);
    const std::vector<int64_t> out_off = {0, 5};
    auto data = ListArrayFromOffsets(type, out_off, structs, {true});
    LeafLevels l = One(Field("l", type, true), data);
    Reference ref;
    for (int64_t e = 0; e < 5; ++e) {
      const int64_t j = e + 5;
      const int16_t r = e == 0 ? 0 : 1;
      if (!struct_valid[static_cast<size_t>(j)]) {
        ref.Level(2, r);
      } else if (!ref.NullOrEmpty(in_off, in_valid, j, 4, r)) {
        ref.Elements(in_off[j], in_off[j + 1], std::vector<bool>(9, true), 6, r, 2);
      }
    }
    ref.Check(l, struct_nulls ? "with a null struct" : "no struct nulls");
  }
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

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
