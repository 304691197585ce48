// Cross-check of the schema mapping, the SchemaDescriptor and level
// shredding: for Arrow schemas of every type arrow_to_parquet maps, nested
// several ways, the descriptor built from the mapped elements, the Arrow
// tree's levels and the levels ComputeLevels writes for random data all
// agree with levels computed here independently from the Arrow types.
#include "quiver/parquet/schema/arrow_to_parquet_internal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/parquet/levels/level_builder.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using namespace ::quiver::testutil;  // NOLINT

struct MaxLevels {
  int16_t def;
  int16_t rep;
  friend bool operator==(const MaxLevels&, const MaxLevels&) = default;
};

// The leaves' max levels of a field of `type`, from the Arrow type alone:
// a nullable field adds a definition level, a list (any kind) or a map adds
// a repeated group (one of each), a map's key is required.
void ReferenceLevels(const DataType& type, bool nullable, int16_t def, int16_t rep,
                     std::vector<MaxLevels>* out) {
  if (nullable) ++def;
  switch (type.id()) {
    case Type::kStruct:
      for (const auto& f : type.fields()) ReferenceLevels(*f->type(), f->nullable(), def, rep, out);
      return;
    case Type::kList:
    case Type::kLargeList:
    case Type::kFixedSizeList:
      ReferenceLevels(*type.field(0)->type(), type.field(0)->nullable(), static_cast<int16_t>(def + 1),
                      static_cast<int16_t>(rep + 1), out);
      return;
    case Type::kMap: {
      const auto& m = TypeAs<MapType>(type);
      const auto child_def = static_cast<int16_t>(def + 1);
      const auto child_rep = static_cast<int16_t>(rep + 1);
      ReferenceLevels(*m.key_type(), false, child_def, child_rep, out);
      ReferenceLevels(*m.item_type(), m.item_field()->nullable(), child_def, child_rep, out);
      return;
    }
    default:
      out->push_back({def, rep});
  }
}

// Random arrays of any mapped type: a quarter of the slots of nullable
// fields are null, lists hold 0 to 3 elements; values are zeros (levels do
// not depend on them).
class ArrayGenerator {
 public:
  explicit ArrayGenerator(uint64_t seed) : rng_(seed) {}

  ArrayDataPtr Make(const TypePtr& type, int64_t length, bool nullable) {
    std::vector<bool> valid;
    if (nullable) {
      for (int64_t i = 0; i < length; ++i) valid.push_back(rng_() % 4 != 0);
    }
    const DataType& t = *type;
    switch (t.id()) {
      case Type::kNull:
        return NullArrayOfLength(length);
      case Type::kBool:
        return BooleanArrayFromVector(std::vector<bool>(static_cast<size_t>(length)), valid);
      case Type::kString:
      case Type::kLargeString:
      case Type::kBinary:
      case Type::kLargeBinary:
        return StringArrayFromVector(std::vector<std::string>(static_cast<size_t>(length), "v"),
                                     valid, type);
      case Type::kStringView:
      case Type::kBinaryView:
        return BinaryViewArrayFromVector(
            std::vector<std::string>(static_cast<size_t>(length), "v"), valid, type);
      case Type::kDictionary:
        return DictionaryArrayFromIndices(type, std::vector<int64_t>(static_cast<size_t>(length)),
                                          StringArrayFromVector({"a"}), valid);
      case Type::kStruct: {
        std::vector<ArrayDataPtr> children;
        for (const auto& f : t.fields()) children.push_back(Make(f->type(), length, f->nullable()));
        return StructArrayFromChildren(type, length, std::move(children), valid);
      }
      case Type::kList:
      case Type::kLargeList:
      case Type::kMap: {
        std::vector<int64_t> offsets{0};
        for (int64_t i = 0; i < length; ++i) offsets.push_back(offsets.back() + rng_() % 4);
        const Field& child = *t.field(0);
        // A map's entries struct is never null.
        const bool child_nullable = t.id() != Type::kMap && child.nullable();
        return ListArrayFromOffsets(type, offsets, Make(child.type(), offsets.back(), child_nullable),
                                    valid);
      }
      case Type::kFixedSizeList: {
        const Field& child = *t.field(0);
        const int64_t size = TypeAs<ListType>(t).list_size();
        return FixedSizeListArrayFromChild(type, length,
                                           Make(child.type(), length * size, child.nullable()),
                                           valid);
      }
      default: {
        const int width = t.byte_width();
        EXPECT_GT(width, 0) << t.ToString();
        const std::string zeros(static_cast<size_t>(length * width), '\0');
        return ArrayData::Make(type, length, {ValidityBuffer(valid), MakeBuffer(zeros)},
                               CountFalse(valid));
      }
    }
  }

 private:
  std::mt19937_64 rng_;
};

ArrowNodeKind KindOf(const DataType& type) {
  switch (type.id()) {
    case Type::kStruct: return ArrowNodeKind::kStruct;
    case Type::kList: return ArrowNodeKind::kList;
    case Type::kLargeList: return ArrowNodeKind::kLargeList;
    case Type::kFixedSizeList: return ArrowNodeKind::kFixedSizeList;
    case Type::kMap: return ArrowNodeKind::kMap;
    default: return ArrowNodeKind::kLeaf;
  }
}

void CheckSchema(const Schema& schema, uint64_t seed) {
  SCOPED_TRACE(schema.ToString());
  auto mapped = ArrowToParquetSchema(schema);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  const ParquetSchema& ps = *mapped;

  std::vector<MaxLevels> expected;
  for (const auto& f : schema.fields()) ReferenceLevels(*f->type(), f->nullable(), 0, 0, &expected);

  // The descriptor of the mapped elements, built again from them alone.
  auto described = SchemaDescriptor::Make(ps.elements);
  ASSERT_TRUE(described.ok()) << described.status();
  const SchemaDescriptor& d = *described;
  ASSERT_EQ(d.num_columns(), static_cast<int>(expected.size()));
  ASSERT_EQ(ps.descriptor.num_columns(), d.num_columns());
  ASSERT_EQ(ps.leaves.size(), expected.size());
  for (int i = 0; i < d.num_columns(); ++i) {
    const ColumnDescriptor& c = d.column(i);
    EXPECT_EQ((MaxLevels{c.max_def, c.max_rep}), expected[static_cast<size_t>(i)]) << c.path;
    EXPECT_EQ(c.path, ps.descriptor.column(i).path);
    EXPECT_EQ(c.max_def, ps.descriptor.column(i).max_def);
    EXPECT_EQ(c.max_rep, ps.descriptor.column(i).max_rep);
    EXPECT_EQ(c.physical_type, ps.elements[static_cast<size_t>(c.node)].type);
  }

  // The Arrow tree: kinds from the types, levels from the descriptor, the
  // leaves in column order.
  int next_column = 0;
  for (size_t i = 0; i < ps.arrow.nodes.size(); ++i) {
    const ArrowNode& node = ps.arrow.nodes[i];
    ASSERT_NE(node.type, nullptr) << i;
    EXPECT_EQ(node.levels, d.node(node.element).levels) << node.name;
    EXPECT_EQ(node.kind, KindOf(*node.type)) << node.name;
    if (node.kind == ArrowNodeKind::kLeaf) {
      EXPECT_EQ(d.node(node.element).column, node.column) << node.name;
    }
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    // Depth-first from each top-level field, the leaves come in order.
    std::vector<int32_t> stack{i};
    while (!stack.empty()) {
      const ArrowNode& node = ps.arrow.nodes[static_cast<size_t>(stack.back())];
      stack.pop_back();
      if (node.kind == ArrowNodeKind::kLeaf) {
        EXPECT_EQ(node.column, next_column++);
        EXPECT_EQ(ps.leaves[static_cast<size_t>(node.column)].top_level_field, i);
      }
      for (int32_t k = node.num_children - 1; k >= 0; --k) stack.push_back(node.first_child + k);
    }
  }
  EXPECT_EQ(next_column, d.num_columns());

  // Shredding random data of every field.
  ArrayGenerator generator(seed);
  int column = 0;
  constexpr int64_t kRows = 300;
  for (int i = 0; i < schema.num_fields(); ++i) {
    const Field& field = *schema.field(i);
    const ArrayDataPtr data = generator.Make(field.type(), kRows, field.nullable());
    auto shredded = ComputeLevels(ps.arrow, i, data);
    ASSERT_TRUE(shredded.ok()) << shredded.status();
    auto alone = ComputeLevels(field, data);
    ASSERT_TRUE(alone.ok()) << alone.status();
    ASSERT_EQ(shredded->size(), alone->size());
    for (size_t k = 0; k < shredded->size(); ++k, ++column) {
      const LeafLevels& l = (*shredded)[k];
      const ColumnDescriptor& c = d.column(column);
      SCOPED_TRACE(c.path);
      EXPECT_EQ(l.max_def, c.max_def);
      EXPECT_EQ(l.max_rep, c.max_rep);
      EXPECT_EQ(l.def_levels, (*alone)[k].def_levels);
      EXPECT_EQ(l.rep_levels, (*alone)[k].rep_levels);
      EXPECT_EQ(l.num_values, (*alone)[k].num_values);
      // Every level is within the column's; each row starts at rep 0; the
      // slots at max_def are exactly the values.
      if (c.max_def > 0) {
        ASSERT_EQ(static_cast<int64_t>(l.def_levels.size()), l.num_levels);
        EXPECT_GE(*std::min_element(l.def_levels.begin(), l.def_levels.end()), 0);
        EXPECT_LE(*std::max_element(l.def_levels.begin(), l.def_levels.end()), c.max_def);
        EXPECT_EQ(std::count(l.def_levels.begin(), l.def_levels.end(), c.max_def), l.num_values);
      } else {
        EXPECT_EQ(l.num_values, l.num_levels);
      }
      if (c.max_rep > 0) {
        ASSERT_EQ(static_cast<int64_t>(l.rep_levels.size()), l.num_levels);
        EXPECT_LE(*std::max_element(l.rep_levels.begin(), l.rep_levels.end()), c.max_rep);
        EXPECT_EQ(std::count(l.rep_levels.begin(), l.rep_levels.end(), 0), kRows);
      } else {
        EXPECT_EQ(l.num_levels, kRows);
      }
    }
  }
}

FieldVector LeafFields() {
  return {
      field("bool", boolean()),
      field("i8", int8()),
      field("i16", int16(), false),
      field("i32", int32()),
      field("i64", int64(), false),
      field("u8", uint8()),
      field("u16", uint16()),
      field("u32", uint32(), false),
      field("u64", uint64()),
      field("f16", float16()),
      field("f32", float32(), false),
      field("f64", float64()),
      field("d32", decimal32(9, 2)),
      field("d64", decimal64(18, 3), false),
      field("d128_small", decimal128(5, 1)),
      field("d128", decimal128(38, 10)),
      field("d256", decimal256(76, 5), false),
      field("date32", date32()),
      field("date64", date64(), false),
      field("t32s", time32(TimeUnit::kSecond)),
      field("t32ms", time32(TimeUnit::kMilli)),
      field("t64us", time64(TimeUnit::kMicro), false),
      field("t64ns", time64(TimeUnit::kNano)),
      field("ts_s", timestamp(TimeUnit::kSecond)),
      field("ts_ms_utc", timestamp(TimeUnit::kMilli, "UTC")),
      field("ts_us", timestamp(TimeUnit::kMicro), false),
      field("ts_ns_tz", timestamp(TimeUnit::kNano, "Europe/Paris")),
      field("dur", duration(TimeUnit::kMilli)),
      field("str", utf8()),
      field("lstr", large_utf8(), false),
      field("vstr", utf8_view()),
      field("bin", binary(), false),
      field("lbin", large_binary()),
      field("vbin", binary_view()),
      field("fsb", fixed_size_binary(5)),
      field("null", null()),
      field("dict", dictionary(int32(), utf8())),
  };
}

TEST(ArrowToParquet, LeafTypesAgreeWithTheDescriptorAndShredding) {
  CheckSchema(Schema(LeafFields()), 1);
}

TEST(ArrowToParquet, NestedTypesAgreeWithTheDescriptorAndShredding) {
  const TypePtr point = struct_({field("x", float64(), false), field("y", list(int8()))});
  const TypePtr inner = struct_({field("c", utf8()), field("d", int32(), false)});
  const std::vector<TypePtr> types = {
      struct_({field("a", int32(), false), field("b", inner)}),
      list(int32()),
      list(field("e", int64(), false)),
      large_list(utf8()),
      fixed_size_list(int16(), 3),
      fixed_size_list(field("f", int16(), false), 2),
      map(utf8(), int32()),
      map(field("k", int32(), false), field("v", point, false)),
      map(int32(), list(point)),
      list(list(list(int32()))),
      large_list(fixed_size_list(inner, 2)),
      struct_({field("l", list(map(utf8(), struct_({field("z", boolean())}))))}),
      list(struct_({field("s", struct_({field("t", large_list(dictionary(int32(), utf8())))}))})),
      struct_({field("n", null()), field("m", map(large_utf8(), float16()), false)}),
  };
  uint64_t seed = 100;
  for (const TypePtr& type : types) {
    for (bool nullable : {true, false}) {
      CheckSchema(Schema({field("col", type, nullable), field("after", int32())}), ++seed);
    }
  }
  // All of them side by side, with the leaves.
  FieldVector all = LeafFields();
  for (size_t i = 0; i < types.size(); ++i) all.push_back(field("n" + std::to_string(i), types[i]));
  CheckSchema(Schema(all), 7);
}

TEST(ArrowToParquet, RefusesFixedSizeBinaryOfWidthZero) {
  auto r = ArrowToParquetSchema(Schema({field("s", struct_({field("z", fixed_size_binary(0))}))}));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotImplemented()) << r.status();
  EXPECT_NE(r.status().message().find("field 's.z': fixed_size_binary"), std::string::npos)
      << r.status();
}

// The stored unit of every timestamp unit under the options that choose it
// (Arrow C++ 26, checked against pyarrow by python/tests/test_parquet_version.py):
// logical unit, legacy converted type (set for ms/us whether or not the
// column has a time zone), value conversion and its factor.
TEST(ArrowToParquet, TimestampUnitsFollowVersionAndCoercion) {
  struct Case {
    TimeUnit unit;
    MappingOptions options;
    TimeUnit stored;
    ValueKind kind;
    int64_t factor;
  };
  MappingOptions v26, v24, ms, us, us_truncate;
  v24.nanos_as_micros = true;
  v24.version_name = "2.4";
  ms.coerce_timestamps = TimeUnit::kMilli;
  us.coerce_timestamps = TimeUnit::kMicro;
  us_truncate = us;
  us_truncate.allow_truncated_timestamps = true;
  const std::vector<Case> cases = {
      {TimeUnit::kSecond, v26, TimeUnit::kMilli, ValueKind::kTimestampScaleUp, 1000},
      {TimeUnit::kMilli, v26, TimeUnit::kMilli, ValueKind::kInt64, 1},
      {TimeUnit::kMicro, v26, TimeUnit::kMicro, ValueKind::kInt64, 1},
      {TimeUnit::kNano, v26, TimeUnit::kNano, ValueKind::kInt64, 1},
      {TimeUnit::kSecond, v24, TimeUnit::kMilli, ValueKind::kTimestampScaleUp, 1000},
      {TimeUnit::kMicro, v24, TimeUnit::kMicro, ValueKind::kInt64, 1},
      {TimeUnit::kNano, v24, TimeUnit::kMicro, ValueKind::kTimestampScaleDown, 1000},
      {TimeUnit::kSecond, ms, TimeUnit::kMilli, ValueKind::kTimestampScaleUp, 1000},
      {TimeUnit::kMicro, ms, TimeUnit::kMilli, ValueKind::kTimestampScaleDown, 1000},
      {TimeUnit::kNano, ms, TimeUnit::kMilli, ValueKind::kTimestampScaleDown, 1000000},
      {TimeUnit::kSecond, us, TimeUnit::kMicro, ValueKind::kTimestampScaleUp, 1000000},
      {TimeUnit::kMilli, us, TimeUnit::kMicro, ValueKind::kTimestampScaleUp, 1000},
      {TimeUnit::kNano, us_truncate, TimeUnit::kMicro, ValueKind::kTimestampScaleDown, 1000},
  };
  for (const Case& c : cases) {
    for (const std::string& tz : {std::string(), std::string("UTC")}) {
      auto mapped = ArrowToParquetSchema(Schema({field("t", timestamp(c.unit, tz))}), c.options);
      ASSERT_TRUE(mapped.ok()) << mapped.status();
      const format::SchemaElement& e = mapped->elements[1];
      const ArrowLeaf& leaf = mapped->leaves[0];
      const std::string where = std::string(TimeUnitName(c.unit)) + " tz '" + tz + "'";
      ASSERT_TRUE(e.logical_type.has_value() && e.logical_type->timestamp.has_value()) << where;
      const auto& ts = *e.logical_type->timestamp;
      EXPECT_EQ(ts.is_adjusted_to_utc, !tz.empty()) << where;
      EXPECT_EQ(ts.unit.millis.has_value(), c.stored == TimeUnit::kMilli) << where;
      EXPECT_EQ(ts.unit.micros.has_value(), c.stored == TimeUnit::kMicro) << where;
      EXPECT_EQ(ts.unit.nanos.has_value(), c.stored == TimeUnit::kNano) << where;
      std::optional<format::ConvertedType> converted;
      if (c.stored == TimeUnit::kMilli) converted = format::ConvertedType::kTimestampMillis;
      if (c.stored == TimeUnit::kMicro) converted = format::ConvertedType::kTimestampMicros;
      EXPECT_EQ(e.converted_type, converted) << where;
      EXPECT_EQ(leaf.value_kind, c.kind) << where;
      EXPECT_EQ(leaf.time_factor, c.factor) << where;
      EXPECT_EQ(leaf.truncate_timestamps, c.options.allow_truncated_timestamps && c.factor > 1 &&
                                              c.kind == ValueKind::kTimestampScaleDown)
          << where;
      EXPECT_EQ(StoredTimestampUnit(c.unit, c.options), c.stored) << where;
    }
  }
}

// Format 1.0 (Arrow C++ PARQUET_1_0): uint32 is stored as INT64 without an
// annotation; other integers keep theirs.
TEST(ArrowToParquet, Uint32UnderFormat1IsInt64) {
  MappingOptions v10;
  v10.version_1_0 = true;
  v10.nanos_as_micros = true;
  auto mapped = ArrowToParquetSchema(Schema({field("u32", uint32()), field("u16", uint16())}), v10);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  EXPECT_EQ(mapped->elements[1].type, format::Type::kInt64);
  EXPECT_FALSE(mapped->elements[1].logical_type.has_value());
  EXPECT_FALSE(mapped->elements[1].converted_type.has_value());
  EXPECT_EQ(mapped->leaves[0].value_kind, ValueKind::kUInt32ToInt64);
  EXPECT_EQ(mapped->leaves[0].stats_kind, StatsKind::kInt64);
  EXPECT_EQ(mapped->elements[2].type, format::Type::kInt32);
  EXPECT_EQ(mapped->elements[2].converted_type, format::ConvertedType::kUint16);
  auto v26 = ArrowToParquetSchema(Schema({field("u32", uint32())}));
  ASSERT_TRUE(v26.ok());
  EXPECT_EQ(v26->elements[1].type, format::Type::kInt32);
  EXPECT_EQ(v26->elements[1].converted_type, format::ConvertedType::kUint32);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
