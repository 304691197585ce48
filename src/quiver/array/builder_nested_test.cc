// Tests of the nested builders (builder_nested.h).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_nested.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/array/builder_test_util_internal.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using buildertest::FinishAs;

template <typename OffsetT>
std::vector<OffsetT> Offsets(const BaseListArray<OffsetT>& a) {
  return std::vector<OffsetT>(a.raw_value_offsets(), a.raw_value_offsets() + a.length() + 1);
}

// --- list / large_list -------------------------------------------------------

template <typename ListBuilderT>
class ListBuilderTest : public ::testing::Test {};
using ListBuilderTypes = ::testing::Types<ListBuilder, LargeListBuilder>;
TYPED_TEST_SUITE(ListBuilderTest, ListBuilderTypes);

TYPED_TEST(ListBuilderTest, ValuesNullsEmptyListsAndOffsets) {
  using OffsetT = typename TypeParam::offset_type;
  TypeParam b(std::make_unique<Int32Builder>());
  auto* values = static_cast<Int32Builder*>(b.value_builder());
  EXPECT_EQ(b.num_children(), 1);
  EXPECT_EQ(b.child(0), values);
  BASSERT_OK(b.Append());
  BASSERT_OK(values->Append(1));
  BASSERT_OK(values->Append(2));
  BASSERT_OK(b.AppendNull());
  BASSERT_OK(b.Append());  // []
  BASSERT_OK(b.Append());
  BASSERT_OK(values->AppendNull());
  BASSERT_OK(values->Append(5));
  BASSERT_OK(values->Append(6));
  BASSERT_OK(b.AppendNulls(2));
  BASSERT_OK(b.AppendEmptyValues(1));
  auto a = FinishAs<BaseListArray<OffsetT>>(b);
  ASSERT_EQ(a->length(), 7);
  EXPECT_EQ(a->null_count(), 3);
  EXPECT_EQ(Offsets(*a), (std::vector<OffsetT>{0, 2, 2, 2, 5, 5, 5, 5}));
  EXPECT_TRUE(a->IsValid(0));
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_TRUE(a->IsValid(2));
  EXPECT_EQ(a->value_length(2), 0);
  EXPECT_TRUE(a->IsNull(4));
  EXPECT_TRUE(a->IsNull(5));
  EXPECT_TRUE(a->IsValid(6));
  const auto& v = ArrayAs<Int32Array>(*a->values());
  ASSERT_EQ(v.length(), 5);
  EXPECT_EQ(v.null_count(), 1);
  EXPECT_EQ(v.Value(0), 1);
  EXPECT_EQ(v.Value(1), 2);
  EXPECT_TRUE(v.IsNull(2));
  EXPECT_EQ(v.Value(4), 6);
  EXPECT_TRUE(a->type()->Equals(*b.type()));
  EXPECT_EQ(b.value_builder()->length(), 0);  // child reset too
}

TYPED_TEST(ListBuilderTest, EmptyAndReuse) {
  using OffsetT = typename TypeParam::offset_type;
  TypeParam b(std::make_unique<StringBuilder>());
  BASSIGN(ArrayDataPtr data, b.Finish());
  EXPECT_EQ(data->length, 0);
  EXPECT_EQ(data->buffers[0], nullptr);
  ASSERT_EQ(data->buffers[1]->size(), static_cast<int64_t>(sizeof(OffsetT)));
  EXPECT_EQ(data->buffers[1]->data_as<OffsetT>()[0], 0);
  ASSERT_EQ(data->children.size(), 1u);
  EXPECT_EQ(data->children[0]->length, 0);

  auto* strings = static_cast<StringBuilder*>(b.value_builder());
  BASSERT_OK(b.Append());
  BASSERT_OK(strings->Append("x"));
  auto a = FinishAs<BaseListArray<OffsetT>>(b);
  BASSERT_OK(b.Append());
  BASSERT_OK(strings->Append("y"));
  BASSERT_OK(strings->Append("z"));
  auto again = FinishAs<BaseListArray<OffsetT>>(b);
  EXPECT_EQ(Offsets(*a), (std::vector<OffsetT>{0, 1}));
  EXPECT_EQ(Offsets(*again), (std::vector<OffsetT>{0, 2}));
  EXPECT_EQ(ArrayAs<StringArray>(*again->values()).GetView(1), "z");
  EXPECT_EQ(ArrayAs<StringArray>(*a->values()).GetView(0), "x");
}

TEST(ListBuilder, BulkOffsets) {
  ListBuilder b(std::make_unique<Int64Builder>());
  auto* values = static_cast<Int64Builder*>(b.value_builder());
  BASSERT_OK(values->AppendValues(std::vector<int64_t>{1, 2, 3, 4, 5}));
  const std::vector<int32_t> starts = {0, 2, 2, 3};
  BASSERT_OK(b.AppendValues(starts.data(), 4, std::vector<uint8_t>{1, 1, 0, 1}.data()));
  const std::vector<int32_t> bad = {4, 1};
  EXPECT_TRUE(b.AppendValues(bad.data(), 2).IsInvalid());
  const std::vector<int32_t> past = {6};
  EXPECT_TRUE(b.AppendValues(past.data(), 1).IsInvalid());
  auto a = FinishAs<ListArray>(b);
  EXPECT_EQ(Offsets(*a), (std::vector<int32_t>{0, 2, 2, 3, 5}));
  EXPECT_TRUE(a->IsNull(2));
  EXPECT_EQ(a->null_count(), 1);
}

TEST(ListBuilder, OffsetOverflowIsACapacityError) {
  // A list<null> child holds 2^31 slots without allocating anything.
  ListBuilder b(std::make_unique<NullBuilder>());
  BASSERT_OK(b.Append());
  BASSERT_OK(b.value_builder()->AppendNulls(int64_t{1} << 31));
  Status st = b.Append();
  ASSERT_TRUE(st.IsCapacityError()) << st.ToString();
  EXPECT_NE(st.message().find("2147483647"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("large_list"), std::string::npos) << st.message();
  EXPECT_EQ(b.length(), 1);
  st = b.Finish().status();
  EXPECT_TRUE(st.IsCapacityError()) << st.ToString();

  // large_list takes it.
  LargeListBuilder large(std::make_unique<NullBuilder>());
  BASSERT_OK(large.Append());
  BASSERT_OK(large.value_builder()->AppendNulls(int64_t{1} << 31));
  BASSERT_OK(large.Append());
  auto a = FinishAs<LargeListArray>(large);
  EXPECT_EQ(a->value_offset(1), int64_t{1} << 31);
  EXPECT_EQ(a->values()->length(), int64_t{1} << 31);
}

TEST(ListBuilder, ChildTypeMismatchIsATypeError) {
  ListBuilder b(list(int64()), std::make_unique<Int32Builder>());
  BASSERT_OK(b.Append());
  Status st = b.Finish().status();
  EXPECT_TRUE(st.IsTypeError()) << st.ToString();
  EXPECT_EQ(b.length(), 1);  // nothing was finished
}

// --- struct ------------------------------------------------------------------

TEST(StructBuilder, FieldsAndNulls) {
  auto type = struct_({field("a", int32()), field("b", utf8()), field("c", boolean(), false)});
  BASSIGN(auto builder, MakeBuilder(type));
  auto& b = static_cast<StructBuilder&>(*builder);
  ASSERT_EQ(b.num_fields(), 3);
  auto* fa = static_cast<Int32Builder*>(b.field_builder(0));
  auto* fb = static_cast<StringBuilder*>(b.field_builder(1));
  auto* fc = static_cast<BooleanBuilder*>(b.field_builder(2));
  BASSERT_OK(b.Append());
  BASSERT_OK(fa->Append(1));
  BASSERT_OK(fb->Append("one"));
  BASSERT_OK(fc->Append(true));
  BASSERT_OK(b.AppendNull());  // fills every field
  BASSERT_OK(b.Append());
  BASSERT_OK(fa->AppendNull());
  BASSERT_OK(fb->Append("three"));
  BASSERT_OK(fc->Append(false));
  BASSERT_OK(b.AppendEmptyValue());
  auto a = FinishAs<StructArray>(b);
  ASSERT_EQ(a->length(), 4);
  EXPECT_EQ(a->null_count(), 1);
  EXPECT_TRUE(a->IsNull(1));
  const auto ca = a->field(0);
  const auto cb = a->field(1);
  const auto cc = a->field(2);
  ASSERT_EQ(ca->length(), 4);
  EXPECT_EQ(ArrayAs<Int32Array>(*ca).Value(0), 1);
  EXPECT_TRUE(ca->IsNull(1));   // nullable field: null under the null struct
  EXPECT_TRUE(ca->IsNull(2));
  EXPECT_EQ(ArrayAs<Int32Array>(*ca).Value(3), 0);
  EXPECT_TRUE(ca->IsValid(3));
  EXPECT_EQ(ArrayAs<StringArray>(*cb).GetView(0), "one");
  EXPECT_TRUE(cb->IsNull(1));
  EXPECT_EQ(ArrayAs<StringArray>(*cb).GetView(2), "three");
  EXPECT_EQ(ArrayAs<StringArray>(*cb).GetView(3), "");
  EXPECT_EQ(cc->null_count(), 0);  // non-nullable field: an empty value instead
  EXPECT_TRUE(ArrayAs<BooleanArray>(*cc).Value(0));
  EXPECT_FALSE(ArrayAs<BooleanArray>(*cc).Value(1));
  EXPECT_EQ(a->GetFieldByName("b")->length(), 4);
}

TEST(StructBuilder, MisalignedFieldsAreInvalidAndNothingIsLost) {
  auto type = struct_({field("x", int32()), field("y", int32())});
  BASSIGN(auto builder, MakeBuilder(type));
  auto& b = static_cast<StructBuilder&>(*builder);
  BASSERT_OK(b.Append());
  BASSERT_OK(static_cast<Int32Builder*>(b.field_builder(0))->Append(1));
  Status st = b.Finish().status();
  ASSERT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("field 'y' has 0 values"), std::string::npos) << st.message();
  // Fix it up and finish.
  BASSERT_OK(static_cast<Int32Builder*>(b.field_builder(1))->Append(2));
  auto a = FinishAs<StructArray>(b);
  ASSERT_EQ(a->length(), 1);
  EXPECT_EQ(ArrayAs<Int32Array>(*a->field(1)).Value(0), 2);
}

TEST(StructBuilder, NoFieldsAndBulkValidity) {
  StructBuilder b(struct_({}), {});
  BASSERT_OK(b.AppendValues(5, std::vector<uint8_t>{1, 0, 1, 1, 0}.data()));
  BASSERT_OK(b.Append(false));
  auto a = FinishAs<StructArray>(b);
  ASSERT_EQ(a->length(), 6);
  EXPECT_EQ(a->null_count(), 3);
  EXPECT_EQ(a->num_fields(), 0);
  EXPECT_EQ(a->data()->buffers.size(), 1u);
}

// --- fixed_size_list ---------------------------------------------------------

TEST(FixedSizeListBuilder, ValuesAndNulls) {
  FixedSizeListBuilder b(std::make_unique<Int16Builder>(), 2);
  EXPECT_EQ(b.list_size(), 2);
  EXPECT_TRUE(b.type()->Equals(*fixed_size_list(int16(), 2)));
  auto* v = static_cast<Int16Builder*>(b.value_builder());
  BASSERT_OK(b.Append());
  BASSERT_OK(v->Append(1));
  BASSERT_OK(v->Append(2));
  BASSERT_OK(b.AppendNull());  // two child nulls
  BASSERT_OK(b.AppendEmptyValue());
  auto a = FinishAs<FixedSizeListArray>(b);
  ASSERT_EQ(a->length(), 3);
  EXPECT_EQ(a->null_count(), 1);
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_EQ(a->value_offset(2), 4);
  const auto& values = ArrayAs<Int16Array>(*a->values());
  ASSERT_EQ(values.length(), 6);
  EXPECT_EQ(values.Value(0), 1);
  EXPECT_EQ(values.Value(1), 2);
  EXPECT_TRUE(values.IsNull(2));
  EXPECT_TRUE(values.IsNull(3));
  EXPECT_TRUE(values.IsValid(4));
  EXPECT_EQ(values.Value(5), 0);
}

TEST(FixedSizeListBuilder, WrongValueCountIsInvalid) {
  FixedSizeListBuilder b(std::make_unique<Int16Builder>(), 3);
  BASSERT_OK(b.Append());
  BASSERT_OK(static_cast<Int16Builder*>(b.value_builder())->Append(1));
  Status st = b.Finish().status();
  ASSERT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("need 3"), std::string::npos) << st.message();
}

// --- map ---------------------------------------------------------------------

TEST(MapBuilder, EntriesKeysItems) {
  MapBuilder b(std::make_unique<StringBuilder>(), std::make_unique<Int32Builder>());
  EXPECT_TRUE(b.type()->Equals(*map(utf8(), int32())));
  auto* keys = static_cast<StringBuilder*>(b.key_builder());
  auto* items = static_cast<Int32Builder*>(b.item_builder());
  BASSERT_OK(b.Append());
  BASSERT_OK(keys->Append("a"));
  BASSERT_OK(items->Append(1));
  BASSERT_OK(keys->Append("b"));
  BASSERT_OK(items->AppendNull());
  BASSERT_OK(b.AppendNull());
  BASSERT_OK(b.Append());  // {}
  BASSERT_OK(b.Append());
  BASSERT_OK(keys->Append("c"));
  BASSERT_OK(items->Append(3));
  BASSIGN(ArrayDataPtr data, b.Finish());
  MapArray a(data);
  ASSERT_EQ(a.length(), 4);
  EXPECT_EQ(a.null_count(), 1);
  EXPECT_EQ(Offsets<int32_t>(a), (std::vector<int32_t>{0, 2, 2, 2, 3}));
  ASSERT_EQ(data->children.size(), 1u);
  const auto& entries = *data->children[0];
  EXPECT_EQ(entries.length, 3);
  EXPECT_EQ(entries.null_count, 0);
  EXPECT_EQ(entries.buffers[0], nullptr);
  const auto& k = ArrayAs<StringArray>(*a.keys());
  const auto& it = ArrayAs<Int32Array>(*a.items());
  EXPECT_EQ(k.GetView(0), "a");
  EXPECT_EQ(k.GetView(1), "b");
  EXPECT_EQ(k.GetView(2), "c");
  EXPECT_EQ(it.Value(0), 1);
  EXPECT_TRUE(it.IsNull(1));
  EXPECT_EQ(it.Value(2), 3);
}

TEST(MapBuilder, Errors) {
  MapBuilder b(std::make_unique<Int32Builder>(), std::make_unique<Int32Builder>());
  auto* keys = static_cast<Int32Builder*>(b.key_builder());
  auto* items = static_cast<Int32Builder*>(b.item_builder());
  BASSERT_OK(b.Append());
  BASSERT_OK(keys->Append(1));
  Status st = b.Finish().status();
  ASSERT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("1 keys and 0 items"), std::string::npos) << st.message();
  BASSERT_OK(items->Append(10));
  BASSERT_OK(b.Append());
  BASSERT_OK(keys->AppendNull());
  BASSERT_OK(items->Append(20));
  st = b.Finish().status();
  ASSERT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("null keys"), std::string::npos) << st.message();
}

TEST(MapBuilder, AppendingThroughTheEntriesStruct) {
  BASSIGN(auto builder, MakeBuilder(map(int8(), float64(), true)));
  auto& b = static_cast<MapBuilder&>(*builder);
  StructBuilder* entries = b.value_builder();
  BASSERT_OK(b.Append());
  for (int i = 0; i < 3; ++i) {
    BASSERT_OK(entries->Append());
    auto* key = static_cast<Int8Builder*>(entries->field_builder(0));
    BASSERT_OK(key->Append(static_cast<int8_t>(i)));
    BASSERT_OK(static_cast<DoubleBuilder*>(entries->field_builder(1))->Append(i * 0.5));
  }
  BASSERT_OK(b.Append());
  BASSIGN(ArrayDataPtr data, b.Finish());
  MapArray a(data);
  EXPECT_TRUE(a.type()->Equals(*map(int8(), float64(), true)));
  EXPECT_EQ(Offsets<int32_t>(a), (std::vector<int32_t>{0, 3, 3}));
  EXPECT_EQ(ArrayAs<DoubleArray>(*a.items()).Value(2), 1.0);
}

// --- two levels deep ---------------------------------------------------------

TEST(NestedBuilders, ListOfStructWithAListOfStrings) {
  // list<struct<a: int32, b: list<string>>>
  auto type = list(struct_({field("a", int32()), field("b", list(utf8()))}));
  BASSIGN(auto builder, MakeBuilder(type));
  auto& lb = static_cast<ListBuilder&>(*builder);
  auto& sb = static_cast<StructBuilder&>(*lb.value_builder());
  auto& ab = static_cast<Int32Builder&>(*sb.field_builder(0));
  auto& bb = static_cast<ListBuilder&>(*sb.field_builder(1));
  auto& strs = static_cast<StringBuilder&>(*bb.value_builder());

  // [ [{a: 1, b: ["x", "y"]}, {a: null, b: null}], null, [], [{a: 4, b: []}] ]
  BASSERT_OK(lb.Append());
  BASSERT_OK(sb.Append());
  BASSERT_OK(ab.Append(1));
  BASSERT_OK(bb.Append());
  BASSERT_OK(strs.Append("x"));
  BASSERT_OK(strs.Append("y"));
  BASSERT_OK(sb.Append());
  BASSERT_OK(ab.AppendNull());
  BASSERT_OK(bb.AppendNull());
  BASSERT_OK(lb.AppendNull());
  BASSERT_OK(lb.Append());
  BASSERT_OK(lb.Append());
  BASSERT_OK(sb.Append());
  BASSERT_OK(ab.Append(4));
  BASSERT_OK(bb.Append());

  auto a = FinishAs<ListArray>(lb);
  ASSERT_EQ(a->length(), 4);
  EXPECT_TRUE(a->type()->Equals(*type));
  EXPECT_EQ(a->null_count(), 1);
  EXPECT_EQ(Offsets(*a), (std::vector<int32_t>{0, 2, 2, 2, 3}));
  const auto& s = ArrayAs<StructArray>(*a->values());
  ASSERT_EQ(s.length(), 3);
  EXPECT_EQ(s.null_count(), 0);
  const ArrayPtr field_a = s.field(0);  // field() returns a new view: keep it alive
  const ArrayPtr field_b = s.field(1);
  const auto& sa = ArrayAs<Int32Array>(*field_a);
  EXPECT_EQ(sa.Value(0), 1);
  EXPECT_TRUE(sa.IsNull(1));
  EXPECT_EQ(sa.Value(2), 4);
  const auto& sl = ArrayAs<ListArray>(*field_b);
  EXPECT_EQ(Offsets(sl), (std::vector<int32_t>{0, 2, 2, 2}));
  EXPECT_TRUE(sl.IsNull(1));
  EXPECT_TRUE(sl.IsValid(2));
  const auto& leaf = ArrayAs<StringArray>(*sl.values());
  ASSERT_EQ(leaf.length(), 2);
  EXPECT_EQ(leaf.GetView(0), "x");
  EXPECT_EQ(leaf.GetView(1), "y");
  EXPECT_EQ(leaf.null_bitmap_data(), nullptr);

  // Every level was reset.
  EXPECT_EQ(lb.length(), 0);
  EXPECT_EQ(sb.length(), 0);
  EXPECT_EQ(strs.length(), 0);
}

TEST(NestedBuilders, MapOfStringToListOfInt64) {
  // map<string, list<int64>>
  auto type = map(utf8(), list(int64()));
  BASSIGN(auto builder, MakeBuilder(type));
  auto& mb = static_cast<MapBuilder&>(*builder);
  auto& keys = static_cast<StringBuilder&>(*mb.key_builder());
  auto& items = static_cast<ListBuilder&>(*mb.item_builder());
  auto& ints = static_cast<Int64Builder&>(*items.value_builder());

  // [ {"p": [1, 2, 3], "q": null}, null, {"r": []} ]
  BASSERT_OK(mb.Append());
  BASSERT_OK(keys.Append("p"));
  BASSERT_OK(items.Append());
  BASSERT_OK(ints.AppendValues(std::vector<int64_t>{1, 2, 3}));
  BASSERT_OK(keys.Append("q"));
  BASSERT_OK(items.AppendNull());
  BASSERT_OK(mb.AppendNull());
  BASSERT_OK(mb.Append());
  BASSERT_OK(keys.Append("r"));
  BASSERT_OK(items.Append());

  BASSIGN(ArrayDataPtr data, mb.Finish());
  MapArray a(data);
  EXPECT_TRUE(a.type()->Equals(*type));
  ASSERT_EQ(a.length(), 3);
  EXPECT_EQ(a.null_count(), 1);
  EXPECT_EQ(Offsets<int32_t>(a), (std::vector<int32_t>{0, 2, 2, 3}));
  const auto& k = ArrayAs<StringArray>(*a.keys());
  EXPECT_EQ(k.GetView(0), "p");
  EXPECT_EQ(k.GetView(1), "q");
  EXPECT_EQ(k.GetView(2), "r");
  const auto& il = ArrayAs<ListArray>(*a.items());
  EXPECT_EQ(Offsets(il), (std::vector<int32_t>{0, 3, 3, 3}));
  EXPECT_TRUE(il.IsNull(1));
  EXPECT_TRUE(il.IsValid(2));
  const auto& leaf = ArrayAs<Int64Array>(*il.values());
  ASSERT_EQ(leaf.length(), 3);
  EXPECT_EQ(leaf.Value(0), 1);
  EXPECT_EQ(leaf.Value(2), 3);

  // Reuse.
  BASSERT_OK(mb.Append());
  BASSIGN(data, mb.Finish());
  EXPECT_EQ(data->length, 1);
  EXPECT_EQ(data->children[0]->length, 0);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
