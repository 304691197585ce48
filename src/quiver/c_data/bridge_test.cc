// Round trips through the C Data Interface: every type's format string, fields
// and schemas with flags and metadata, and arrays of every type (nullable or
// not, sliced, empty, all-null, nested) exported and imported back without a
// copy; plus the release protocol on both sides (exactly once, children moved
// out by the consumer, nothing leaked: LeakSanitizer runs in Debug builds).
#include "quiver/c_data/bridge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/c_data/test_producer_internal.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using testutil::BooleanArrayFromVector;
using testutil::BinaryViewArrayFromVector;
using testutil::CountFalse;
using testutil::DictionaryArrayFromIndices;
using testutil::FixedSizeListArrayFromChild;
using testutil::ListArrayFromOffsets;
using testutil::MakeBuffer;
using testutil::StringArrayFromVector;
using testutil::StructArrayFromChildren;
using testutil::ValidityBuffer;
using ::testing::HasSubstr;

#define ASSERT_OK(expr)                                    \
  do {                                                     \
    ::quiver::Status _st = (expr);                         \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (false)

#define ASSERT_OK_AND_ASSIGN(lhs, rexpr)                          \
  auto QUIVER_CONCAT(_r_, __LINE__) = (rexpr);                    \
  ASSERT_TRUE(QUIVER_CONCAT(_r_, __LINE__).ok())                  \
      << #rexpr << ": " << QUIVER_CONCAT(_r_, __LINE__).status().ToString(); \
  lhs = std::move(QUIVER_CONCAT(_r_, __LINE__)).MoveValueUnsafe();

// --- Types and format strings -------------------------------------------------

struct FormatCase {
  TypePtr type;
  std::string format;
};

std::vector<FormatCase> AllFormats() {
  return {
      {null(), "n"},
      {boolean(), "b"},
      {int8(), "c"},
      {uint8(), "C"},
      {int16(), "s"},
      {uint16(), "S"},
      {int32(), "i"},
      {uint32(), "I"},
      {int64(), "l"},
      {uint64(), "L"},
      {float16(), "e"},
      {float32(), "f"},
      {float64(), "g"},
      {binary(), "z"},
      {large_binary(), "Z"},
      {utf8(), "u"},
      {large_utf8(), "U"},
      {binary_view(), "vz"},
      {utf8_view(), "vu"},
      {fixed_size_binary(0), "w:0"},
      {fixed_size_binary(17), "w:17"},
      {decimal32(9, 2), "d:9,2,32"},
      {decimal64(18, -3), "d:18,-3,64"},
      {decimal128(38, 10), "d:38,10"},
      {decimal256(76, 0), "d:76,0,256"},
      {date32(), "tdD"},
      {date64(), "tdm"},
      {time32(TimeUnit::kSecond), "tts"},
      {time32(TimeUnit::kMilli), "ttm"},
      {time64(TimeUnit::kMicro), "ttu"},
      {time64(TimeUnit::kNano), "ttn"},
      {timestamp(TimeUnit::kSecond, "UTC"), "tss:UTC"},
      {timestamp(TimeUnit::kMilli, "Europe/Paris"), "tsm:Europe/Paris"},
      {timestamp(TimeUnit::kMicro), "tsu:"},
      {timestamp(TimeUnit::kNano, "+07:30"), "tsn:+07:30"},
      {duration(TimeUnit::kSecond), "tDs"},
      {duration(TimeUnit::kMilli), "tDm"},
      {duration(TimeUnit::kMicro), "tDu"},
      {duration(TimeUnit::kNano), "tDn"},
      {month_interval(), "tiM"},
      {day_time_interval(), "tiD"},
      {month_day_nano_interval(), "tin"},
      {list(int32()), "+l"},
      {large_list(utf8()), "+L"},
      {fixed_size_list(float64(), 3), "+w:3"},
      {struct_({field("a", int32()), field("b", utf8(), false)}), "+s"},
      {struct_({}), "+s"},
      {map(utf8(), int64()), "+m"},
      {map(int32(), list(utf8()), /*keys_sorted=*/true), "+m"},
      {dictionary(int8(), utf8()), "c"},
      {dictionary(uint32(), float64(), /*ordered=*/true), "I"},
      {dictionary(int64(), list(utf8())), "l"},
  };
}

TEST(CDataType, EveryTypeRoundTripsWithTheSpecFormat) {
  for (const auto& c : AllFormats()) {
    SCOPED_TRACE(c.type->ToString());
    ArrowSchema schema{};
    ASSERT_OK(ExportType(*c.type, &schema));
    EXPECT_STREQ(schema.format, c.format.c_str());
    EXPECT_STREQ(schema.name, "");
    EXPECT_EQ(schema.metadata, nullptr);
    EXPECT_EQ(schema.n_children, c.type->id() == Type::kDictionary ? 0 : c.type->num_fields());
    EXPECT_EQ(schema.dictionary != nullptr, c.type->id() == Type::kDictionary);
    ASSERT_OK_AND_ASSIGN(TypePtr back, ImportType(&schema));
    EXPECT_EQ(schema.release, nullptr) << "import must mark the struct released";
    EXPECT_TRUE(back->Equals(*c.type, /*check_metadata=*/true))
        << back->ToString() << " vs " << c.type->ToString();
  }
}

TEST(CDataType, FlagsOfDictionaryAndMap) {
  ArrowSchema schema{};
  ASSERT_OK(ExportType(*dictionary(int16(), utf8(), /*ordered=*/true), &schema));
  EXPECT_EQ(schema.flags, ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED);
  ASSERT_NE(schema.dictionary, nullptr);
  EXPECT_STREQ(schema.dictionary->format, "u");
  schema.release(&schema);

  ASSERT_OK(ExportType(*map(utf8(), int32(), /*keys_sorted=*/true), &schema));
  EXPECT_EQ(schema.flags, ARROW_FLAG_NULLABLE | ARROW_FLAG_MAP_KEYS_SORTED);
  ASSERT_EQ(schema.n_children, 1);
  const ArrowSchema* entries = schema.children[0];
  EXPECT_STREQ(entries->format, "+s");
  EXPECT_STREQ(entries->name, "entries");
  EXPECT_EQ(entries->flags, 0) << "map entries are not nullable";
  ASSERT_EQ(entries->n_children, 2);
  EXPECT_STREQ(entries->children[0]->name, "key");
  EXPECT_EQ(entries->children[0]->flags, 0);
  EXPECT_STREQ(entries->children[1]->name, "value");
  EXPECT_EQ(entries->children[1]->flags, ARROW_FLAG_NULLABLE);
  ASSERT_OK_AND_ASSIGN(TypePtr back, ImportType(&schema));
  ASSERT_EQ(back->id(), Type::kMap);
  EXPECT_TRUE(TypeAs<MapType>(*back).keys_sorted());
  EXPECT_EQ(TypeAs<MapType>(*back).entries_field()->name(), "entries");
  EXPECT_EQ(TypeAs<MapType>(*back).key_field()->name(), "key");
}

TEST(CDataType, ImportOnlySpellings) {
  // Formats Quiver never writes but must read.
  struct Case {
    const char* format;
    TypePtr type;
  };
  const Case cases[] = {
      {"d:5,2,128", decimal128(5, 2)},
      {"d:1,0", decimal128(1, 0)},
      {"tsu:", timestamp(TimeUnit::kMicro)},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.format);
    int released = 0;
    ArrowSchema schema = testutil::HandSchema(&released, c.format);
    ASSERT_OK_AND_ASSIGN(TypePtr type, ImportType(&schema));
    EXPECT_TRUE(type->Equals(*c.type)) << type->ToString();
    EXPECT_EQ(released, 1);
  }
}

// --- Fields and schemas -------------------------------------------------------

TEST(CDataField, NameFlagsAndMetadataRoundTrip) {
  auto md = key_value_metadata({{"k", "v1"}, {"key2", ""}, {"k", "duplicate"}});
  auto f = field("col", list(field("elem", int32(), false, key_value_metadata({{"x", "y"}}))),
                 /*nullable=*/false, md);
  ArrowSchema schema{};
  ASSERT_OK(ExportField(*f, &schema));
  EXPECT_STREQ(schema.name, "col");
  EXPECT_EQ(schema.flags, 0);
  // The spec's encoding, byte for byte.
  const std::string expected =
      testutil::EncodeTestMetadata({{"k", "v1"}, {"key2", ""}, {"k", "duplicate"}});
  ASSERT_NE(schema.metadata, nullptr);
  EXPECT_EQ(std::string(schema.metadata, expected.size()), expected);
  EXPECT_STREQ(schema.children[0]->name, "elem");

  ASSERT_OK_AND_ASSIGN(FieldPtr back, ImportField(&schema));
  EXPECT_TRUE(back->Equals(*f, /*check_metadata=*/true)) << back->ToString();
  ASSERT_NE(back->metadata(), nullptr);
  EXPECT_EQ(back->metadata()->keys(), md->keys());
  EXPECT_EQ(back->metadata()->values(), md->values());
  const auto& child = TypeAs<ListType>(*back->type()).value_field();
  EXPECT_EQ(child->name(), "elem");
  EXPECT_FALSE(child->nullable());
  EXPECT_EQ(child->metadata()->Get("x"), "y");
}

TEST(CDataSchema, FieldsAndSchemaMetadataRoundTrip) {
  auto s = schema(
      {
          field("a", int32()),
          field("b", utf8(), false, key_value_metadata({{"comment", "not null"}})),
          field("c", dictionary(int16(), utf8(), true)),
          field("d", struct_({field("x", float64()), field("y", map(utf8(), date32(), true))})),
      },
      key_value_metadata({{"origin", "quiver"}, {"empty", ""}}));
  ArrowSchema c_schema{};
  ASSERT_OK(ExportSchema(*s, &c_schema));
  EXPECT_STREQ(c_schema.format, "+s");
  EXPECT_EQ(c_schema.flags, 0);
  EXPECT_EQ(c_schema.n_children, 4);
  EXPECT_EQ(c_schema.children[2]->flags, ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED);
  ASSERT_OK_AND_ASSIGN(SchemaPtr back, ImportSchema(&c_schema));
  EXPECT_EQ(c_schema.release, nullptr);
  EXPECT_TRUE(back->Equals(*s, /*check_metadata=*/true)) << back->ToString();
  ASSERT_NE(back->metadata(), nullptr);
  EXPECT_EQ(back->metadata()->Get("origin"), "quiver");
  EXPECT_EQ(back->metadata()->Get("empty"), "");
}

TEST(CDataSchema, ImportSchemaNeedsAStruct) {
  int released = 0;
  ArrowSchema c_schema = testutil::HandSchema(&released, "i");
  auto r = ImportSchema(&c_schema);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_THAT(r.status().message(), HasSubstr("must be a struct"));
  EXPECT_EQ(released, 1);
  EXPECT_EQ(c_schema.release, nullptr);
}

TEST(CDataSchema, DeepButLegalNestingImports) {
  TypePtr type = int32();
  for (int i = 0; i < 64; ++i) type = list(type);  // 65 levels: root + 64
  ArrowSchema schema{};
  ASSERT_OK(ExportType(*type, &schema));
  ASSERT_OK_AND_ASSIGN(TypePtr back, ImportType(&schema));
  EXPECT_TRUE(back->Equals(*type));
}

TEST(CDataSchema, ConsumerMayMoveAChildOut) {
  auto s = schema({field("a", int32()), field("b", list(utf8()))});
  ArrowSchema parent{};
  ASSERT_OK(ExportSchema(*s, &parent));
  // Move child 1 out, as the spec allows, then release the parent first.
  ArrowSchema moved = *parent.children[1];
  parent.children[1]->release = nullptr;
  parent.release(&parent);
  EXPECT_EQ(parent.release, nullptr);
  EXPECT_STREQ(moved.format, "+l");
  EXPECT_STREQ(moved.name, "b");
  EXPECT_STREQ(moved.children[0]->format, "u");
  ASSERT_OK_AND_ASSIGN(FieldPtr f, ImportField(&moved));
  EXPECT_TRUE(f->Equals(*s->field(1)));
}

// --- Arrays ---------------------------------------------------------------------

// Length-5 arrays of every type; `validity` empty means no validity buffer.
using Factory = std::function<ArrayDataPtr(const std::vector<bool>& validity)>;

struct ArrayCase {
  std::string name;
  Factory make;
};

ArrayDataPtr FixedWidth(const TypePtr& type, const std::vector<bool>& validity) {
  const int64_t width = type->id() == Type::kFixedSizeBinary
                            ? TypeAs<FixedSizeBinaryType>(*type).fixed_byte_width()
                            : type->byte_width();
  std::vector<uint8_t> bytes(static_cast<size_t>(5 * width));
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 1);
  return ArrayData::Make(type, 5, {ValidityBuffer(validity), MakeBuffer(bytes.data(), 5 * width)},
                         CountFalse(validity));
}

ArrayDataPtr Strings(const TypePtr& type, const std::vector<bool>& validity) {
  return StringArrayFromVector({"a", "", "hello, world", "xyz", "q"}, validity, type);
}

ArrayDataPtr Views(const TypePtr& type, const std::vector<bool>& validity) {
  return BinaryViewArrayFromVector(
      {"short", "", "a string longer than twelve bytes", "x", "another long string!!"}, validity,
      type);
}

ArrayDataPtr Int32s(std::vector<int32_t> values) { return ArrayFromVector(int32(), values); }

ArrayDataPtr ListOfInt32(const TypePtr& type, const std::vector<bool>& validity) {
  return ListArrayFromOffsets(type, {0, 2, 2, 5, 6, 7}, Int32s({1, 2, 3, 4, 5, 6, 7}), validity);
}

ArrayDataPtr StructOf2(const std::vector<bool>& validity) {
  auto type = struct_({field("a", int32()), field("b", utf8(), false)});
  return StructArrayFromChildren(type, 5,
                                 {Int32s({10, 20, 30, 40, 50}), Strings(utf8(), {})}, validity);
}

ArrayDataPtr MapUtf8Int32(bool keys_sorted, const std::vector<bool>& validity) {
  auto type = map(utf8(), int32(), keys_sorted);
  auto keys = StringArrayFromVector({"a", "b", "c", "d", "e", "f"});
  auto items = ArrayFromVector<int32_t>(int32(), {1, 2, 3, 4, 5, 6}, {true, false, true, true,
                                                                      true, false});
  auto entries = StructArrayFromChildren(type->field(0)->type(), 6, {keys, items});
  return ListArrayFromOffsets(type, {0, 1, 3, 3, 5, 6}, entries, validity);
}

ArrayDataPtr DictOfStrings(const TypePtr& index, bool ordered, const std::vector<bool>& validity) {
  return DictionaryArrayFromIndices(dictionary(index, utf8(), ordered), {0, 1, 2, 1, 0},
                                    StringArrayFromVector({"x", "yy", "zzz"}), validity);
}

// list<struct<a: int32, b: list<utf8>>>
ArrayDataPtr ListOfStructOfList(const std::vector<bool>& validity) {
  auto inner_list_type = list(utf8());
  auto inner = ListArrayFromOffsets(inner_list_type, {0, 1, 1, 3, 4},
                                    StringArrayFromVector({"p", "q", "r", "s"}), {true, false,
                                                                                 true, true});
  auto struct_type = struct_({field("a", int32()), field("b", inner_list_type)});
  auto structs = StructArrayFromChildren(struct_type, 4, {Int32s({1, 2, 3, 4}), inner},
                                         {true, true, false, true});
  return ListArrayFromOffsets(list(struct_type), {0, 1, 1, 2, 4, 4}, structs, validity);
}

// map<utf8, list<int64>>
ArrayDataPtr MapOfLists(const std::vector<bool>& validity) {
  auto type = map(utf8(), large_list(int64()));
  auto keys = StringArrayFromVector({"k1", "k2", "k3"});
  auto values = ListArrayFromOffsets(large_list(int64()), {0, 2, 2, 3},
                                     ArrayFromVector<int64_t>(int64(), {7, 8, 9}));
  auto entries = StructArrayFromChildren(type->field(0)->type(), 3, {keys, values});
  return ListArrayFromOffsets(type, {0, 1, 1, 3, 3, 3}, entries, validity);
}

// struct<s: struct<x: float64>, d: dictionary<int32, utf8>, f: fixed_size_list<int16>[2]>
ArrayDataPtr StructOfNested(const std::vector<bool>& validity) {
  auto inner_type = struct_({field("x", float64())});
  auto inner = StructArrayFromChildren(
      inner_type, 5, {ArrayFromVector<double>(float64(), {1.5, 2.5, 3.5, 4.5, 5.5})},
      {true, false, true, true, true});
  auto dict = DictOfStrings(int32(), false, {true, true, false, true, true});
  auto fsl_type = fixed_size_list(int16(), 2);
  auto fsl = FixedSizeListArrayFromChild(
      fsl_type, 5, ArrayFromVector<int16_t>(int16(), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  auto type = struct_({field("s", inner_type), field("d", dict->type), field("f", fsl_type)});
  return StructArrayFromChildren(type, 5, {inner, dict, fsl}, validity);
}

std::vector<ArrayCase> AllArrayCases() {
  std::vector<ArrayCase> cases;
  auto fixed = [&](const TypePtr& type) {
    cases.push_back({type->ToString(), [type](const auto& v) { return FixedWidth(type, v); }});
  };
  cases.push_back({"null", [](const auto&) { return testutil::NullArrayOfLength(5); }});
  cases.push_back({"bool", [](const auto& v) {
                     return BooleanArrayFromVector({true, false, true, true, false}, v);
                   }});
  for (const TypePtr& t :
       {int8(), uint8(), int16(), uint16(), int32(), uint32(), int64(), uint64(), float16(),
        float32(), float64(), fixed_size_binary(3), fixed_size_binary(0), decimal32(9, 2),
        decimal64(18, 3), decimal128(38, 10), decimal256(76, 5), date32(), date64(),
        time32(TimeUnit::kSecond), time32(TimeUnit::kMilli), time64(TimeUnit::kMicro),
        time64(TimeUnit::kNano), timestamp(TimeUnit::kSecond, "UTC"),
        timestamp(TimeUnit::kMilli), timestamp(TimeUnit::kMicro, "Asia/Tokyo"),
        timestamp(TimeUnit::kNano), duration(TimeUnit::kSecond), duration(TimeUnit::kMilli),
        duration(TimeUnit::kMicro), duration(TimeUnit::kNano), month_interval(),
        day_time_interval(), month_day_nano_interval()}) {
    fixed(t);
  }
  for (const TypePtr& t : {utf8(), binary(), large_utf8(), large_binary()}) {
    cases.push_back({t->ToString(), [t](const auto& v) { return Strings(t, v); }});
  }
  for (const TypePtr& t : {utf8_view(), binary_view()}) {
    cases.push_back({t->ToString(), [t](const auto& v) { return Views(t, v); }});
  }
  cases.push_back({"list", [](const auto& v) { return ListOfInt32(list(int32()), v); }});
  cases.push_back(
      {"large_list", [](const auto& v) { return ListOfInt32(large_list(int32()), v); }});
  cases.push_back({"fixed_size_list", [](const auto& v) {
                     return FixedSizeListArrayFromChild(
                         fixed_size_list(int32(), 2), 5,
                         Int32s({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), v);
                   }});
  cases.push_back({"struct", [](const auto& v) { return StructOf2(v); }});
  cases.push_back({"map", [](const auto& v) { return MapUtf8Int32(false, v); }});
  cases.push_back({"map keys_sorted", [](const auto& v) { return MapUtf8Int32(true, v); }});
  for (const TypePtr& index : {int8(), uint8(), int16(), uint16(), int32(), uint32(), int64(),
                               uint64()}) {
    cases.push_back({"dictionary<" + index->ToString() + ">",
                     [index](const auto& v) { return DictOfStrings(index, false, v); }});
  }
  cases.push_back({"ordered dictionary",
                   [](const auto& v) { return DictOfStrings(int8(), true, v); }});
  cases.push_back({"list<struct<int32, list<utf8>>>",
                   [](const auto& v) { return ListOfStructOfList(v); }});
  cases.push_back({"map<utf8, large_list<int64>>", [](const auto& v) { return MapOfLists(v); }});
  cases.push_back({"struct<struct, dictionary, fixed_size_list>",
                   [](const auto& v) { return StructOfNested(v); }});
  return cases;
}

// The byte size the importer must give buffer `i` of `data` (the C Data
// Interface carries none: it follows from the type, offset and length).
int64_t ExpectedImportedSize(const ArrayData& data, size_t i) {
  const Type id = data.type->id();
  const int64_t end = data.offset + data.length;
  if (i == 0) return bit_util::BytesForBits(end);
  switch (id) {
    case Type::kBool: return bit_util::BytesForBits(end);
    case Type::kString:
    case Type::kBinary:
    case Type::kList:
    case Type::kMap:
      if (i == 1) return data.length == 0 ? 0 : (end + 1) * 4;
      return data.length == 0 ? 0 : data.buffers[1]->data_as<int32_t>()[end];
    case Type::kLargeString:
    case Type::kLargeBinary:
    case Type::kLargeList:
      if (i == 1) return data.length == 0 ? 0 : (end + 1) * 8;
      return data.length == 0 ? 0 : data.buffers[1]->data_as<int64_t>()[end];
    case Type::kStringView:
    case Type::kBinaryView:
      return i == 1 ? end * 16 : data.buffers[i]->size();
    case Type::kDictionary:
      return end * TypeAs<DictionaryType>(*data.type).index_type()->byte_width();
    case Type::kFixedSizeBinary:
      return end * TypeAs<FixedSizeBinaryType>(*data.type).fixed_byte_width();
    default: return end * data.type->byte_width();
  }
}

// Same structure, same bytes, same addresses (zero-copy) at every level.
void ExpectSameData(const ArrayData& original, const ArrayData& imported,
                    const std::string& where) {
  SCOPED_TRACE(where);
  ASSERT_NE(imported.type, nullptr);
  EXPECT_TRUE(imported.type->Equals(*original.type, /*check_metadata=*/true))
      << imported.type->ToString() << " vs " << original.type->ToString();
  EXPECT_EQ(imported.length, original.length);
  EXPECT_EQ(imported.offset, original.offset);
  EXPECT_EQ(imported.GetNullCount(), original.GetNullCount());
  ASSERT_EQ(imported.buffers.size(), original.buffers.size());
  for (size_t i = 0; i < original.buffers.size(); ++i) {
    SCOPED_TRACE("buffer " + std::to_string(i));
    if (original.buffers[i] == nullptr) {
      EXPECT_EQ(imported.buffers[i], nullptr);
      continue;
    }
    ASSERT_NE(imported.buffers[i], nullptr);
    const Buffer& a = *original.buffers[i];
    const Buffer& b = *imported.buffers[i];
    ASSERT_NE(b.data(), nullptr);
    EXPECT_EQ(b.size(), ExpectedImportedSize(original, i));
    ASSERT_LE(b.size(), a.size());
    EXPECT_TRUE(BytesEqual(a.data(), b.data(), b.size()));
    if (b.size() > 0) {
      EXPECT_EQ(static_cast<const void*>(b.data()), static_cast<const void*>(a.data()))
          << "the import copied the buffer";
    } else {
      EXPECT_TRUE(IsZeroSizeArea(b.data()));
    }
  }
  ASSERT_EQ(imported.children.size(), original.children.size());
  for (size_t i = 0; i < original.children.size(); ++i) {
    ExpectSameData(*original.children[i], *imported.children[i],
                   where + ".children[" + std::to_string(i) + "]");
  }
  ASSERT_EQ(imported.dictionary != nullptr, original.dictionary != nullptr);
  if (original.dictionary) {
    ExpectSameData(*original.dictionary, *imported.dictionary, where + ".dictionary");
  }
}

// Exports `data` with its schema, imports it back and compares.
void RoundTrip(const ArrayDataPtr& data, const std::string& where) {
  SCOPED_TRACE(where);
  const long use_count_before = data.use_count();
  ArrowArray c_array{};
  ArrowSchema c_schema{};
  ASSERT_OK(ExportArray(data, &c_array, &c_schema));
  EXPECT_EQ(c_array.length, data->length);
  EXPECT_EQ(c_array.offset, data->offset);
  EXPECT_GT(data.use_count(), use_count_before) << "the export must hold the data alive";
  ASSERT_OK_AND_ASSIGN(ArrayDataPtr imported, ImportArray(&c_array, &c_schema));
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(c_schema.release, nullptr);
  ExpectSameData(*data, *imported, where);
  imported.reset();  // releases the exported struct
  EXPECT_EQ(data.use_count(), use_count_before) << "the exported struct was not released";
}

TEST(CDataArray, EveryTypeRoundTripsZeroCopy) {
  const std::vector<bool> some_nulls = {true, false, true, true, false};
  const std::vector<bool> all_null(5, false);
  for (const auto& c : AllArrayCases()) {
    SCOPED_TRACE(c.name);
    ArrayDataPtr nullable = c.make(some_nulls);
    RoundTrip(nullable, "nullable");
    RoundTrip(c.make({}), "no validity buffer");
    RoundTrip(c.make(all_null), "all null");
    RoundTrip(nullable->Slice(1, 3), "sliced [1, 4)");
    RoundTrip(nullable->Slice(4, 1), "sliced [4, 5)");
    RoundTrip(nullable->Slice(0, 0), "empty at 0");
    RoundTrip(nullable->Slice(3, 0), "empty at 3");
  }
}

TEST(CDataArray, ExportedStructFields) {
  auto data = StringArrayFromVector({"ab", "c", "", "def"}, {true, true, false, true})->Slice(1, 2);
  ArrowArray c_array{};
  ASSERT_OK(ExportArray(data, &c_array));
  EXPECT_EQ(c_array.length, 2);
  EXPECT_EQ(c_array.offset, 1);
  EXPECT_EQ(c_array.null_count, -1) << "a slice's null count is not known";
  EXPECT_EQ(c_array.n_buffers, 3);
  EXPECT_EQ(c_array.n_children, 0);
  EXPECT_EQ(c_array.children, nullptr);
  EXPECT_EQ(c_array.dictionary, nullptr);
  EXPECT_EQ(c_array.buffers[0], data->buffers[0]->data());
  EXPECT_EQ(c_array.buffers[1], data->buffers[1]->data());
  EXPECT_EQ(c_array.buffers[2], data->buffers[2]->data());
  c_array.release(&c_array);
  EXPECT_EQ(c_array.release, nullptr);

  // Binary views: the variadic sizes buffer follows the data buffers.
  auto views = Views(utf8_view(), {});
  ASSERT_OK(ExportArray(views, &c_array));
  ASSERT_EQ(c_array.n_buffers, 4);
  EXPECT_EQ(c_array.buffers[0], nullptr);
  EXPECT_EQ(c_array.null_count, 0);
  EXPECT_EQ(c_array.buffers[2], views->buffers[2]->data());
  int64_t size;
  std::memcpy(&size, c_array.buffers[3], sizeof size);
  EXPECT_EQ(size, views->buffers[2]->size());
  EXPECT_EQ(size, static_cast<int64_t>(std::strlen("a string longer than twelve bytes") +
                                       std::strlen("another long string!!")));
  c_array.release(&c_array);

  // Null arrays have no buffers and a null count equal to their length.
  ASSERT_OK(ExportArray(testutil::NullArrayOfLength(4), &c_array));
  EXPECT_EQ(c_array.n_buffers, 0);
  EXPECT_EQ(c_array.null_count, 4);
  c_array.release(&c_array);
}

TEST(CDataArray, ImportedValuesReadThroughTypedViews) {
  auto strings = StringArrayFromVector({"ab", "c", "", "def", "ghij"}, {true, true, false, true,
                                                                        true});
  ArrowArray c_array{};
  ASSERT_OK(ExportArray(strings->Slice(2, 3), &c_array));
  ASSERT_OK_AND_ASSIGN(ArrayDataPtr imported, ImportArray(&c_array, utf8()));
  auto view = MakeArray(imported);
  const auto& s = ArrayAs<StringArray>(*view);
  ASSERT_EQ(s.length(), 3);
  EXPECT_TRUE(s.IsNull(0));
  EXPECT_EQ(s.GetView(1), "def");
  EXPECT_EQ(s.GetView(2), "ghij");
  EXPECT_EQ(s.null_count(), 1);

  auto dict = DictOfStrings(int16(), false, {});
  ASSERT_OK(ExportArray(dict, &c_array));
  ASSERT_OK_AND_ASSIGN(imported, ImportArray(&c_array, dict->type));
  auto dict_view = MakeArray(imported);
  const auto& d = ArrayAs<DictionaryArray>(*dict_view);
  EXPECT_EQ(d.GetValueIndex(2), 2);
  EXPECT_EQ(ArrayAs<StringArray>(*d.dictionary()).GetView(2), "zzz");

  auto lists = ListOfInt32(list(int32()), {});
  ASSERT_OK(ExportArray(lists->Slice(2, 2), &c_array));
  ASSERT_OK_AND_ASSIGN(imported, ImportArray(&c_array, lists->type));
  auto list_view = MakeArray(imported);
  const auto& l = ArrayAs<ListArray>(*list_view);
  EXPECT_EQ(l.value_length(0), 3);
  auto first = l.value_slice(0);
  EXPECT_EQ(ArrayAs<Int32Array>(*first).Value(0), 3);
  EXPECT_EQ(ArrayAs<Int32Array>(*first).Value(2), 5);
}

TEST(CDataArray, ExportRejectsMalformedArrayData) {
  // A struct whose second child lacks its values buffer: the error names the
  // node; nothing is left to release (the first child's export is undone, and
  // the schema exported alongside is released again).
  auto bad_child = ArrayData::Make(int32(), 5, {nullptr});
  auto data = StructArrayFromChildren(struct_({field("a", int32()), field("b", int32())}), 5,
                                      {Int32s({1, 2, 3, 4, 5}), bad_child});
  ArrowArray c_array{};
  ArrowSchema c_schema{};
  Status st = ExportArray(data, &c_array, &c_schema);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_THAT(st.message(),
              HasSubstr("ArrayData <root>.children[1] of type int32 has 1 buffers, expected 2"));
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(c_schema.release, nullptr);
  EXPECT_EQ(data->children[0].use_count(), 1) << "the partial export was undone";

  auto no_dictionary = ArrayData::Make(dictionary(int8(), utf8()), 0, {nullptr, Buffer::Empty()});
  st = ExportArray(no_dictionary, &c_array);
  EXPECT_THAT(st.message(), HasSubstr("dictionary ArrayData <root> has no dictionary"));
  auto no_child = ArrayData::Make(list(int32()), 0, {nullptr, Buffer::Empty()});
  st = ExportArray(no_child, &c_array);
  EXPECT_THAT(st.message(), HasSubstr("has 0 children, expected 1"));
}

// --- Release protocol ---------------------------------------------------------------

TEST(CDataArray, ExportReleaseFreesChildrenTheConsumerKept) {
  ArrayDataPtr data = StructOfNested({});
  const long before = data->children[1].use_count();
  ArrowArray parent{};
  ASSERT_OK(ExportArray(data, &parent));
  ASSERT_EQ(parent.n_children, 3);
  EXPECT_GT(data->children[1].use_count(), before);

  // Move child 1 (the dictionary column) out, then release the parent.
  ArrowArray moved = *parent.children[1];
  parent.children[1]->release = nullptr;
  parent.release(&parent);
  EXPECT_EQ(parent.release, nullptr);
  EXPECT_GT(data->children[1].use_count(), before) << "the moved child must stay alive";

  // The moved child is still fully usable: read its dictionary's bytes.
  ASSERT_NE(moved.dictionary, nullptr);
  EXPECT_EQ(moved.dictionary->length, 3);
  const auto* offsets = static_cast<const int32_t*>(moved.dictionary->buffers[1]);
  const auto* chars = static_cast<const char*>(moved.dictionary->buffers[2]);
  EXPECT_EQ(std::string(chars + offsets[2], static_cast<size_t>(offsets[3] - offsets[2])), "zzz");

  // ...and importable on its own.
  ASSERT_OK_AND_ASSIGN(ArrayDataPtr child, ImportArray(&moved, data->children[1]->type));
  ExpectSameData(*data->children[1], *child, "moved child");
  child.reset();
  EXPECT_EQ(data->children[1].use_count(), before);
}

TEST(CDataArray, ImportReleasesTheProducerOnceWhenTheLastBufferDies) {
  static const int32_t kValues[] = {1, 2, 3, 4};
  static const uint8_t kValidity[] = {0b1011};
  int released = 0;
  ArrowArray c_array = testutil::HandArray(&released, 4, 1, 0, {kValidity, kValues});
  ASSERT_OK_AND_ASSIGN(ArrayDataPtr data, ImportArray(&c_array, int32()));
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(released, 0);
  EXPECT_EQ(data->buffers[1]->data(), reinterpret_cast<const uint8_t*>(kValues));
  EXPECT_EQ(data->buffers[1]->size(), 16);
  EXPECT_EQ(data->GetNullCount(), 1);
  std::shared_ptr<Buffer> keep = data->buffers[1];
  data.reset();
  EXPECT_EQ(released, 0) << "a buffer is still alive";
  keep.reset();
  EXPECT_EQ(released, 1);
}

TEST(CDataArray, NestedImportReleasesTheWholeTreeOnce) {
  // list<int32> with a hand-made child; the parent's release frees the child.
  static const int32_t kOffsets[] = {0, 2, 3};
  static const int32_t kValues[] = {7, 8, 9};
  int released = 0;
  ArrowArray child = testutil::HandArray(&released, 3, 0, 0, {nullptr, kValues});
  ArrowArray parent = testutil::HandArray(&released, 2, 0, 0, {nullptr, kOffsets}, {child});
  ASSERT_OK_AND_ASSIGN(ArrayDataPtr data, ImportArray(&parent, list(int32())));
  EXPECT_EQ(data->buffers[0], nullptr);
  EXPECT_EQ(data->children[0]->buffers[1]->data(), reinterpret_cast<const uint8_t*>(kValues));
  ArrayDataPtr values = data->children[0];
  data.reset();
  EXPECT_EQ(released, 0);
  values.reset();
  EXPECT_EQ(released, 2) << "parent and child, each exactly once";
}

TEST(CDataArray, NullBuffersAllowedByTheSpec) {
  int released = 0;
  // Length-0 arrays may give NULL for every buffer.
  ArrowArray empty_strings = testutil::HandArray(&released, 0, 0, 0, {nullptr, nullptr, nullptr});
  ASSERT_OK_AND_ASSIGN(ArrayDataPtr data, ImportArray(&empty_strings, utf8()));
  EXPECT_EQ(data->buffers[0], nullptr);
  ASSERT_NE(data->buffers[1], nullptr);
  ASSERT_NE(data->buffers[2], nullptr);
  EXPECT_TRUE(IsZeroSizeArea(data->buffers[1]->data()));
  EXPECT_TRUE(IsZeroSizeArea(data->buffers[2]->data()));
  EXPECT_EQ(data->buffers[1]->size(), 0);

  ArrowArray empty_list =
      testutil::HandArray(&released, 0, 0, 7, {nullptr, nullptr},
                          {testutil::HandArray(&released, 0, 0, 0, {nullptr, nullptr})});
  ASSERT_OK_AND_ASSIGN(data, ImportArray(&empty_list, list(int64())));
  EXPECT_TRUE(IsZeroSizeArea(data->buffers[1]->data()));
  EXPECT_TRUE(IsZeroSizeArea(data->children[0]->buffers[1]->data()));

  // A string array whose values are all empty may have a NULL data buffer.
  static const int32_t kOffsets[] = {0, 0, 0};
  ArrowArray all_empty = testutil::HandArray(&released, 2, -1, 0, {nullptr, kOffsets, nullptr});
  ASSERT_OK_AND_ASSIGN(data, ImportArray(&all_empty, binary()));
  EXPECT_EQ(data->GetNullCount(), 0) << "no validity buffer: no nulls";
  EXPECT_TRUE(IsZeroSizeArea(data->buffers[2]->data()));

  // Binary views without data buffers: the sizes buffer may be NULL too.
  uint8_t view[16] = {3, 0, 0, 0, 'a', 'b', 'c'};
  ArrowArray inline_views = testutil::HandArray(&released, 1, 0, 0, {nullptr, view, nullptr});
  ASSERT_OK_AND_ASSIGN(data, ImportArray(&inline_views, utf8_view()));
  EXPECT_EQ(data->buffers.size(), 2u);
  EXPECT_EQ(ArrayAs<BinaryViewArray>(*MakeArray(data)).GetView(0), "abc");
  data.reset();
  EXPECT_EQ(released, 5);
}

TEST(CDataArray, ImportWithSchemaReleasesBothOnEveryPath) {
  static const int32_t kValues[] = {1, 2};
  int array_released = 0, schema_released = 0;
  {
    // Success.
    ArrowArray a = testutil::HandArray(&array_released, 2, 0, 0, {nullptr, kValues});
    ArrowSchema s = testutil::HandSchema(&schema_released, "i");
    ASSERT_OK_AND_ASSIGN(ArrayDataPtr data, ImportArray(&a, &s));
    EXPECT_EQ(schema_released, 1);
    EXPECT_EQ(array_released, 0);
  }
  EXPECT_EQ(array_released, 1);
  {
    // Bad schema: the array is released too.
    ArrowArray a = testutil::HandArray(&array_released, 2, 0, 0, {nullptr, kValues});
    ArrowSchema s = testutil::HandSchema(&schema_released, "?");
    auto r = ImportArray(&a, &s);
    EXPECT_TRUE(r.status().IsInvalid());
    EXPECT_EQ(schema_released, 2);
    EXPECT_EQ(array_released, 2);
    EXPECT_EQ(a.release, nullptr);
    EXPECT_EQ(s.release, nullptr);
  }
  {
    // Bad array for a good schema.
    ArrowArray a = testutil::HandArray(&array_released, 2, 0, 0, {nullptr, kValues});
    ArrowSchema s = testutil::HandSchema(&schema_released, "i");
    a.n_buffers = 3;  // int32 arrays have 2 buffers
    auto r = ImportArray(&a, &s);
    EXPECT_TRUE(r.status().IsInvalid());
    EXPECT_EQ(schema_released, 3);
    EXPECT_EQ(array_released, 3);
  }
}

// --- Record batches ---------------------------------------------------------------

TEST(CDataRecordBatch, RoundTripWithSchemaMetadata) {
  auto s = schema({field("id", int64(), false), field("name", utf8()),
                   field("tags", list(utf8()))},
                  key_value_metadata({{"pandas", "{}"}}));
  auto ids = ArrayFromVector<int64_t>(int64(), {1, 2, 3, 4, 5});
  auto names = Strings(utf8(), {true, false, true, true, true});
  auto tags = ListArrayFromOffsets(list(utf8()), {0, 0, 1, 3, 3, 5},
                                   StringArrayFromVector({"a", "b", "c", "d", "e"}));
  ASSERT_OK_AND_ASSIGN(RecordBatchPtr batch, RecordBatch::Make(s, 5, {ids, names, tags}));
  for (const RecordBatchPtr& b : {batch, batch->Slice(1, 3), batch->Slice(5, 0)}) {
    ArrowArray c_array{};
    ArrowSchema c_schema{};
    ASSERT_OK(ExportRecordBatch(*b, &c_array, &c_schema));
    EXPECT_STREQ(c_schema.format, "+s");
    EXPECT_EQ(c_array.length, b->num_rows());
    EXPECT_EQ(c_array.null_count, 0);
    EXPECT_EQ(c_array.buffers[0], nullptr);
    ASSERT_OK_AND_ASSIGN(RecordBatchPtr back, ImportRecordBatch(&c_array, &c_schema));
    EXPECT_TRUE(back->schema()->Equals(*s, /*check_metadata=*/true));
    ASSERT_EQ(back->num_rows(), b->num_rows());
    for (int i = 0; i < 3; ++i) {
      ExpectSameData(*b->column_data(i), *back->column_data(i), "column " + std::to_string(i));
    }
  }
}

TEST(CDataRecordBatch, StructOffsetSlicesTheColumns) {
  // A foreign struct array with offset 1: columns become slices.
  static const int32_t kA[] = {10, 20, 30};
  int released = 0;
  ArrowArray a = testutil::HandArray(&released, 3, 0, 0, {nullptr, kA});
  ArrowArray st = testutil::HandArray(&released, 2, 0, 1, {nullptr}, {a});
  auto s = schema({field("a", int32())});
  ASSERT_OK_AND_ASSIGN(RecordBatchPtr batch, ImportRecordBatch(&st, s));
  EXPECT_EQ(batch->num_rows(), 2);
  auto col = batch->column(0);
  EXPECT_EQ(col->length(), 2);
  EXPECT_EQ(ArrayAs<Int32Array>(*col).Value(0), 20);
  EXPECT_EQ(ArrayAs<Int32Array>(*col).Value(1), 30);
  batch.reset();
  col.reset();
  EXPECT_EQ(released, 2);
}

TEST(CDataRecordBatch, StructWithNullRowsIsRejected) {
  static const int32_t kA[] = {10, 20};
  static const uint8_t kValidity[] = {0b01};
  int released = 0;
  ArrowArray a = testutil::HandArray(&released, 2, 0, 0, {nullptr, kA});
  ArrowArray st = testutil::HandArray(&released, 2, 1, 0, {kValidity}, {a});
  auto r = ImportRecordBatch(&st, schema({field("a", int32())}));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_THAT(r.status().message(), HasSubstr("null rows"));
  EXPECT_EQ(released, 2);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
