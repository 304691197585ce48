// ParquetToArrowSchema on schemas built by hand, one rule at a time (the
// rules are pyarrow 26's; parquet_to_arrow_files_test.cc checks them
// against pyarrow itself over real and crafted files).
#include "quiver/parquet/schema/parquet_to_arrow.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "quiver/parquet/schema/parquet_to_arrow_internal.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using Kind = ReadNode::Kind;
using PType = format::Type;
using format::ConvertedType;
using format::FieldRepetitionType;
using format::LogicalType;
using format::SchemaElement;

constexpr auto kRequired = FieldRepetitionType::kRequired;
constexpr auto kOptional = FieldRepetitionType::kOptional;
constexpr auto kRepeated = FieldRepetitionType::kRepeated;

// --- Building schemas ---------------------------------------------------------

struct Tree {
  SchemaElement element;
  std::vector<Tree> children;

  Tree&& Logical(LogicalType lt) && {
    element.logical_type = std::move(lt);
    return std::move(*this);
  }
  Tree&& Converted(ConvertedType ct) && {
    element.converted_type = ct;
    return std::move(*this);
  }
  Tree&& Decimal(int32_t precision, int32_t scale) && {
    element.precision = precision;
    element.scale = scale;
    return std::move(*this);
  }
  Tree&& Id(int32_t id) && {
    element.field_id = id;
    return std::move(*this);
  }
};

Tree Leaf(std::string name, FieldRepetitionType rep, PType type, int32_t length = 0) {
  Tree t;
  t.element.name = std::move(name);
  t.element.repetition_type = rep;
  t.element.type = type;
  if (length > 0) t.element.type_length = length;
  return t;
}

Tree Group(std::string name, FieldRepetitionType rep, std::vector<Tree> children) {
  Tree t;
  t.element.name = std::move(name);
  t.element.repetition_type = rep;
  t.element.num_children = static_cast<int32_t>(children.size());
  t.children = std::move(children);
  return t;
}

format::TimeUnit Unit(TimeUnit unit) {
  format::TimeUnit u;
  if (unit == TimeUnit::kMilli) u.millis.emplace();
  if (unit == TimeUnit::kMicro) u.micros.emplace();
  if (unit == TimeUnit::kNano) u.nanos.emplace();
  return u;
}

// The LogicalType whose member of this IDL name is set (default-valued).
LogicalType Lt(std::string_view idl_name) {
  LogicalType lt;
  lt.ForEachField([&](int16_t, std::string_view name, auto& member) {
    if (name == idl_name) member.emplace();
  });
  return lt;
}
LogicalType Decimal(int32_t precision, int32_t scale) {
  LogicalType lt;
  lt.decimal = format::DecimalType{scale, precision};
  return lt;
}
LogicalType Int(int bits, bool is_signed) {
  LogicalType lt;
  lt.integer = format::IntType{static_cast<int8_t>(bits), is_signed};
  return lt;
}
// TIMESTAMP or TIME (is_time), adjusted to UTC or not, of a unit or none.
LogicalType Temporal(bool is_time, bool utc, std::optional<TimeUnit> unit) {
  LogicalType lt;
  const format::TimeUnit u = unit ? Unit(*unit) : format::TimeUnit();
  if (is_time) {
    lt.time = format::TimeType{utc, u};
  } else {
    lt.timestamp = format::TimestampType{utc, u};
  }
  return lt;
}
LogicalType Timestamp(bool utc, std::optional<TimeUnit> unit) { return Temporal(false, utc, unit); }
LogicalType Time(bool utc, std::optional<TimeUnit> unit) { return Temporal(true, utc, unit); }

void Flatten(const Tree& t, std::vector<SchemaElement>* out) {
  out->push_back(t.element);
  for (const Tree& c : t.children) Flatten(c, out);
}

// A schema, its descriptor and its conversion.
struct Converted {
  SchemaDescriptor descriptor;
  Result<ArrowReadSchema> result = Status::Invalid("not converted");

  const ArrowReadSchema& operator*() const { return *result; }
  const ArrowReadSchema* operator->() const { return &*result; }
  const ReadNode& field(int i) const { return result->fields[static_cast<size_t>(i)]; }
  const SchemaNode& node(int32_t i) const { return descriptor.node(i); }
};

Converted Convert(const std::vector<Tree>& fields, const ParquetToArrowOptions& options = {},
                  const Schema* origin = nullptr, const KeyValueMetadata* file_metadata = nullptr) {
  std::vector<SchemaElement> elements(1);
  elements[0].name = "schema";
  elements[0].num_children = static_cast<int32_t>(fields.size());
  for (const Tree& t : fields) Flatten(t, &elements);
  Converted out;
  SchemaDescriptorOptions descriptor_options;
  descriptor_options.max_depth = 1000;
  auto d = SchemaDescriptor::Make(elements, descriptor_options);
  EXPECT_TRUE(d.ok()) << d.status();
  if (!d.ok()) return out;
  out.descriptor = std::move(*d);
  out.result = ParquetToArrowSchema(out.descriptor, file_metadata, origin, options);
  return out;
}

// Each top-level field as "name: type [not null]".
std::vector<std::string> Fields(const Converted& c) {
  std::vector<std::string> out;
  if (!c.result.ok()) return {c.result.status().ToString()};
  for (const FieldPtr& f : c->schema->fields()) out.push_back(f->ToString());
  return out;
}

std::vector<std::pair<std::string, std::string>> Pairs(const MetadataPtr& metadata) {
  std::vector<std::pair<std::string, std::string>> out;
  if (metadata == nullptr) return out;
  for (int64_t i = 0; i < metadata->size(); ++i)
    out.emplace_back(metadata->key(i), metadata->value(i));
  return out;
}

LevelInfo Levels(int16_t def, int16_t rep, int16_t ancestor) {
  LevelInfo l;
  l.def_level = def;
  l.rep_level = rep;
  l.repeated_ancestor_def_level = ancestor;
  return l;
}

void ExpectRefused(const std::vector<Tree>& fields, const std::string& path,
                   const ParquetToArrowOptions& options = {}) {
  Converted c = Convert(fields, options);
  ASSERT_FALSE(c.result.ok()) << path << ": " << Fields(c)[0];
  EXPECT_EQ(c.result.status().code(), StatusCode::kInvalid) << c.result.status();
  EXPECT_NE(c.result.status().message().find("'" + path + "'"), std::string::npos)
      << c.result.status();
}

SchemaPtr Origin(FieldVector fields, MetadataPtr metadata = nullptr) {
  return schema(std::move(fields), std::move(metadata));
}

// --- Leaf types -------------------------------------------------------------------

TEST(ParquetToArrow, PhysicalTypes) {
  ParquetToArrowOptions options;
  Converted c = Convert({Leaf("b", kOptional, PType::kBoolean), Leaf("i", kRequired, PType::kInt32),
                         Leaf("l", kOptional, PType::kInt64), Leaf("t", kOptional, PType::kInt96),
                         Leaf("f", kOptional, PType::kFloat), Leaf("d", kOptional, PType::kDouble),
                         Leaf("s", kOptional, PType::kByteArray),
                         Leaf("x", kOptional, PType::kFixedLenByteArray, 5)});
  EXPECT_EQ(Fields(c), (std::vector<std::string>{"b: bool", "i: int32 not null", "l: int64",
                                                 "t: timestamp[ns]", "f: float", "d: double",
                                                 "s: binary", "x: fixed_size_binary[5]"}));
  options.int96_unit = TimeUnit::kMilli;  // pyarrow's coerce_int96_timestamp_unit
  EXPECT_EQ(Fields(Convert({Leaf("t", kOptional, PType::kInt96)}, options)),
            std::vector<std::string>{"t: timestamp[ms]"});
}

TEST(ParquetToArrow, LogicalTypes) {
  Converted c = Convert({
      Leaf("i8", kOptional, PType::kInt32).Logical(Int(8, true)),
      Leaf("u8", kOptional, PType::kInt32).Logical(Int(8, false)),
      Leaf("i16", kOptional, PType::kInt32).Logical(Int(16, true)),
      Leaf("u32", kOptional, PType::kInt32).Logical(Int(32, false)),
      Leaf("u64", kOptional, PType::kInt64).Logical(Int(64, false)),
      Leaf("date", kOptional, PType::kInt32).Logical(Lt("DATE")),
      Leaf("t_ms", kOptional, PType::kInt32).Logical(Time(true, TimeUnit::kMilli)),
      Leaf("t_us", kOptional, PType::kInt64).Logical(Time(false, TimeUnit::kMicro)),
      Leaf("t_ns", kOptional, PType::kInt64).Logical(Time(true, TimeUnit::kNano)),
      Leaf("ts_ms", kOptional, PType::kInt64).Logical(Timestamp(false, TimeUnit::kMilli)),
      Leaf("ts_us_utc", kOptional, PType::kInt64).Logical(Timestamp(true, TimeUnit::kMicro)),
      Leaf("ts_ns_utc", kOptional, PType::kInt64).Logical(Timestamp(true, TimeUnit::kNano)),
      Leaf("str", kOptional, PType::kByteArray).Logical(Lt("STRING")),
      Leaf("enum", kOptional, PType::kByteArray).Logical(Lt("ENUM")),
      Leaf("bson", kOptional, PType::kByteArray).Logical(Lt("BSON")),
      Leaf("geo", kOptional, PType::kByteArray).Logical(Lt("GEOMETRY")),
      Leaf("f16", kOptional, PType::kFixedLenByteArray, 2).Logical(Lt("FLOAT16")),
      Leaf("null_i32", kOptional, PType::kInt32).Logical(Lt("UNKNOWN")),
      Leaf("null_ba", kRequired, PType::kByteArray).Logical(Lt("UNKNOWN")),
  });
  EXPECT_EQ(
      Fields(c),
      (std::vector<std::string>{
          "i8: int8", "u8: uint8", "i16: int16", "u32: uint32", "u64: uint64", "date: date32[day]",
          "t_ms: time32[ms]", "t_us: time64[us]", "t_ns: time64[ns]", "ts_ms: timestamp[ms]",
          "ts_us_utc: timestamp[us, tz=UTC]", "ts_ns_utc: timestamp[ns, tz=UTC]", "str: string",
          "enum: binary", "bson: binary", "geo: binary", "f16: halffloat", "null_i32: null",
          // UNKNOWN is null on any physical type, required or not.
          "null_ba: null not null"}));
}

TEST(ParquetToArrow, ConvertedTypes) {
  Converted c = Convert({
      Leaf("utf8", kOptional, PType::kByteArray).Converted(ConvertedType::kUtf8),
      Leaf("enum", kOptional, PType::kByteArray).Converted(ConvertedType::kEnum),
      Leaf("i8", kOptional, PType::kInt32).Converted(ConvertedType::kInt8),
      Leaf("u16", kOptional, PType::kInt32).Converted(ConvertedType::kUint16),
      Leaf("u64", kOptional, PType::kInt64).Converted(ConvertedType::kUint64),
      Leaf("date", kOptional, PType::kInt32).Converted(ConvertedType::kDate),
      Leaf("t_ms", kOptional, PType::kInt32).Converted(ConvertedType::kTimeMillis),
      Leaf("t_us", kOptional, PType::kInt64).Converted(ConvertedType::kTimeMicros),
      // The legacy timestamps are UTC-normalized.
      Leaf("ts_ms", kOptional, PType::kInt64).Converted(ConvertedType::kTimestampMillis),
      Leaf("ts_us", kOptional, PType::kInt64).Converted(ConvertedType::kTimestampMicros),
      Leaf("interval", kOptional, PType::kFixedLenByteArray, 12)
          .Converted(ConvertedType::kInterval),
      Leaf("dec", kOptional, PType::kInt32).Converted(ConvertedType::kDecimal).Decimal(5, 2),
      // The converted DECIMAL's precision is not checked against INT32.
      Leaf("dec12", kOptional, PType::kInt32).Converted(ConvertedType::kDecimal).Decimal(12, 4),
      Leaf("dec_flba2", kOptional, PType::kFixedLenByteArray, 2)
          .Converted(ConvertedType::kDecimal)
          .Decimal(10, 2),
  });
  EXPECT_EQ(Fields(c), (std::vector<std::string>{
                           "utf8: string", "enum: binary", "i8: int8", "u16: uint16", "u64: uint64",
                           "date: date32[day]", "t_ms: time32[ms]", "t_us: time64[us]",
                           "ts_ms: timestamp[ms, tz=UTC]", "ts_us: timestamp[us, tz=UTC]",
                           "interval: fixed_size_binary[12]", "dec: decimal128(5, 2)",
                           "dec12: decimal128(12, 4)", "dec_flba2: decimal128(10, 2)"}));
}

// Converted type 24, one past parquet.thrift's values, is Arrow C++'s NA
// (Thrift v is its ConvertedType v + 1; PARQUET-1990): a null column on any
// physical type, as pyarrow reads testdata/quiver/compat_na_*.parquet.
TEST(ParquetToArrow, ConvertedTypeNaIsNull) {
  const auto na = static_cast<ConvertedType>(24);
  Converted c = Convert({
      Leaf("a", kOptional, PType::kInt32).Converted(na),
      Leaf("b", kRequired, PType::kByteArray).Converted(na),
      Leaf("c", kOptional, PType::kInt32).Converted(na).Logical(Int(16, true)),
  });
  EXPECT_EQ(Fields(c), (std::vector<std::string>{"a: null", "b: null not null", "c: int16"}));
}

TEST(ParquetToArrow, LogicalTypeWinsOverConvertedType) {
  Converted c = Convert({
      Leaf("a", kOptional, PType::kInt32).Logical(Int(16, true)).Converted(ConvertedType::kDate),
      // Even over a converted type that could not annotate a leaf.
      Leaf("b", kOptional, PType::kInt32).Logical(Int(8, true)).Converted(ConvertedType::kMap),
      Leaf("c", kOptional, PType::kInt64)
          .Logical(Timestamp(false, TimeUnit::kMilli))
          .Converted(ConvertedType::kTimestampMillis),
      // A logical type this reader does not know: the physical type, not
      // the converted one.
      Leaf("d", kOptional, PType::kInt32).Logical(LogicalType()).Converted(ConvertedType::kInt8),
  });
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{"a: int16", "b: int8", "c: timestamp[ms]", "d: int32"}));
}

TEST(ParquetToArrow, LogicalTypesThatDoNotFitReadAsThePhysicalType) {
  Converted c = Convert({
      Leaf("string_int32", kOptional, PType::kInt32).Logical(Lt("STRING")),
      Leaf("dec10_int32", kOptional, PType::kInt32).Logical(Decimal(10, 2)),
      Leaf("dec19_int64", kOptional, PType::kInt64).Logical(Decimal(19, 2)),
      Leaf("dec7_flba3", kOptional, PType::kFixedLenByteArray, 3).Logical(Decimal(7, 2)),
      Leaf("dec_float", kOptional, PType::kFloat).Logical(Decimal(5, 2)),
      Leaf("ts_float", kOptional, PType::kFloat).Logical(Timestamp(true, TimeUnit::kMilli)),
      Leaf("ts_int96", kOptional, PType::kInt96).Logical(Timestamp(false, TimeUnit::kNano)),
      Leaf("time_ms_int64", kOptional, PType::kInt64).Logical(Time(true, TimeUnit::kMilli)),
      Leaf("f16_flba3", kOptional, PType::kFixedLenByteArray, 3).Logical(Lt("FLOAT16")),
      Leaf("uuid_flba8", kOptional, PType::kFixedLenByteArray, 8).Logical(Lt("UUID")),
      Leaf("int64_int32", kOptional, PType::kInt32).Logical(Int(64, true)),
      Leaf("date_int64", kOptional, PType::kInt64).Logical(Lt("DATE")),
      Leaf("json_int32", kOptional, PType::kInt32).Logical(Lt("JSON")),
      Leaf("list_leaf", kOptional, PType::kInt32).Logical(Lt("LIST")),
      Leaf("variant_leaf", kOptional, PType::kByteArray).Logical(Lt("VARIANT")),
      Leaf("unknown_member", kOptional, PType::kDouble).Logical(LogicalType()),
  });
  EXPECT_EQ(Fields(c), (std::vector<std::string>{
                           "string_int32: int32", "dec10_int32: int32", "dec19_int64: int64",
                           "dec7_flba3: fixed_size_binary[3]", "dec_float: float",
                           "ts_float: float", "ts_int96: timestamp[ns]", "time_ms_int64: int64",
                           "f16_flba3: fixed_size_binary[3]", "uuid_flba8: fixed_size_binary[8]",
                           "int64_int32: int32", "date_int64: int64", "json_int32: int32",
                           "list_leaf: int32", "variant_leaf: binary", "unknown_member: double"}));
}

TEST(ParquetToArrow, DecimalWidths) {
  Converted c = Convert({
      Leaf("i32", kOptional, PType::kInt32).Logical(Decimal(9, 2)),
      Leaf("i64_small", kOptional, PType::kInt64).Logical(Decimal(5, 2)),
      Leaf("flba16", kOptional, PType::kFixedLenByteArray, 16).Logical(Decimal(38, 0)),
      Leaf("flba32", kOptional, PType::kFixedLenByteArray, 32).Logical(Decimal(76, 10)),
      Leaf("flba1", kOptional, PType::kFixedLenByteArray, 1).Logical(Decimal(2, 0)),
      Leaf("flba16_39", kOptional, PType::kFixedLenByteArray, 16).Logical(Decimal(39, 0)),
      // Arrow C++ computes log10(2^(8n - 1)) in doubles: past 128 bytes the
      // power is infinite and every precision fits.
      Leaf("flba129", kOptional, PType::kFixedLenByteArray, 129).Logical(Decimal(10, 2)),
      Leaf("ba", kOptional, PType::kByteArray).Logical(Decimal(40, 2)),
  });
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{"i32: decimal128(9, 2)", "i64_small: decimal128(5, 2)",
                                      "flba16: decimal128(38, 0)", "flba32: decimal256(76, 10)",
                                      "flba1: decimal128(2, 0)", "flba16_39: fixed_size_binary[16]",
                                      "flba129: decimal128(10, 2)", "ba: decimal256(40, 2)"}));
}

TEST(ParquetToArrow, InvalidAnnotationsAreRefusedNamingTheField) {
  auto leaf = [](PType type, int32_t length = 0) { return Leaf("c", kOptional, type, length); };
  const std::vector<Tree> refused = {
      leaf(PType::kInt32).Converted(ConvertedType::kUtf8),
      leaf(PType::kInt64).Converted(ConvertedType::kInt8),
      leaf(PType::kInt32).Converted(ConvertedType::kUint64),
      leaf(PType::kInt64).Converted(ConvertedType::kDate),
      leaf(PType::kInt32).Converted(ConvertedType::kTimestampMillis),
      leaf(PType::kFixedLenByteArray, 8).Converted(ConvertedType::kInterval),
      leaf(PType::kFixedLenByteArray, 4).Converted(ConvertedType::kEnum),
      leaf(PType::kInt32).Converted(ConvertedType::kMap),
      leaf(PType::kInt32).Converted(ConvertedType::kList),
      leaf(PType::kInt32).Converted(static_cast<ConvertedType>(99)),
      // Past INTERVAL (21) only 24 (Arrow C++'s NA) is read.
      leaf(PType::kInt32).Converted(static_cast<ConvertedType>(22)),
      leaf(PType::kInt32).Converted(static_cast<ConvertedType>(23)),
      leaf(PType::kInt32).Converted(static_cast<ConvertedType>(25)),
      leaf(PType::kInt32).Converted(static_cast<ConvertedType>(-1)),
      leaf(PType::kFloat).Converted(ConvertedType::kDecimal).Decimal(5, 1),
      leaf(PType::kInt32).Converted(ConvertedType::kDecimal),  // no precision
      leaf(PType::kInt32).Converted(ConvertedType::kDecimal).Decimal(3, 4),
      leaf(PType::kInt32).Converted(ConvertedType::kDecimal).Decimal(5, -1),
      leaf(PType::kByteArray).Converted(ConvertedType::kDecimal).Decimal(80, 2),
      leaf(PType::kInt32).Logical(Decimal(0, 0)),
      leaf(PType::kInt32).Logical(Decimal(3, 5)),
      leaf(PType::kFloat).Logical(Decimal(0, 0)),  // before the fit is looked at
      leaf(PType::kFixedLenByteArray, 40).Logical(Decimal(80, 2)),
      leaf(PType::kByteArray).Logical(Decimal(80, 2)),
      leaf(PType::kInt64).Logical(Timestamp(true, std::nullopt)),
      leaf(PType::kInt64).Logical(Time(true, std::nullopt)),
      leaf(PType::kInt32).Logical(Int(7, true)),
  };
  for (const Tree& t : refused) {
    SCOPED_TRACE(t.element.converted_type
                     ? "converted " + std::to_string(static_cast<int>(*t.element.converted_type))
                     : "logical");
    ExpectRefused({Group("outer", kOptional, {t})}, "outer.c");
  }
  // Groups: LIST, MAP, MAP_KEY_VALUE and VARIANT only, also where the walk
  // would not look (the repeated group of a list of structs).
  for (LogicalType lt : {Lt("STRING"), Lt("UNKNOWN"), LogicalType(), Decimal(3, 1)}) {
    ExpectRefused({Group("g", kOptional, {leaf(PType::kInt32)}).Logical(lt)}, "g");
  }
  ExpectRefused({Group("g", kOptional, {leaf(PType::kInt32)}).Converted(ConvertedType::kUtf8)},
                "g");
  ExpectRefused(
      {Group("l", kOptional,
             {Group("list", kRepeated, {leaf(PType::kInt32), Leaf("d", kOptional, PType::kInt32)})
                  .Converted(ConvertedType::kDecimal)})
           .Logical(Lt("LIST"))},
      "l.list");
}

TEST(ParquetToArrow, ExtensionsAsMetadata) {
  const std::vector<Tree> fields = {
      Leaf("u", kOptional, PType::kFixedLenByteArray, 16).Logical(Lt("UUID")).Id(3),
      Leaf("j", kOptional, PType::kByteArray).Logical(Lt("JSON")),
      Leaf("cj", kOptional, PType::kByteArray).Converted(ConvertedType::kJson),
  };
  Converted c = Convert(fields);
  ASSERT_TRUE(c.result.ok()) << c.result.status();
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{"u: fixed_size_binary[16]", "j: string", "cj: string"}));
  using P = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(Pairs(c->schema->field(0)->metadata()), (P{{"PARQUET:field_id", "3"},
                                                       {"ARROW:extension:name", "arrow.uuid"},
                                                       {"ARROW:extension:metadata", ""}}));
  EXPECT_EQ(Pairs(c->schema->field(1)->metadata()),
            (P{{"ARROW:extension:name", "arrow.json"}, {"ARROW:extension:metadata", ""}}));
  EXPECT_EQ(internal::ExtensionName(c->schema->field(2)->metadata().get()), "arrow.json");

  ParquetToArrowOptions plain;
  plain.arrow_extensions_enabled = false;
  Converted p = Convert(fields, plain);
  ASSERT_TRUE(p.result.ok());
  EXPECT_EQ(Pairs(p->schema->field(0)->metadata()), (P{{"PARQUET:field_id", "3"}}));
  EXPECT_EQ(p->schema->field(1)->metadata(), nullptr);
}

// --- Options ----------------------------------------------------------------------

TEST(ParquetToArrow, BinaryTypeCoversStrings) {
  const std::vector<Tree> fields = {Leaf("b", kOptional, PType::kByteArray),
                                    Leaf("s", kOptional, PType::kByteArray).Logical(Lt("STRING")),
                                    Leaf("j", kOptional, PType::kByteArray).Logical(Lt("JSON")),
                                    Leaf("d", kOptional, PType::kByteArray).Logical(Decimal(5, 1)),
                                    Leaf("f", kOptional, PType::kFixedLenByteArray, 4)};
  ParquetToArrowOptions options;
  options.binary_type = Type::kLargeBinary;
  EXPECT_EQ(Fields(Convert(fields, options)),
            (std::vector<std::string>{"b: large_binary", "s: large_string", "j: large_string",
                                      "d: decimal128(5, 1)", "f: fixed_size_binary[4]"}));
  options.binary_type = Type::kBinaryView;
  EXPECT_EQ(Fields(Convert(fields, options)),
            (std::vector<std::string>{"b: binary_view", "s: string_view", "j: string_view",
                                      "d: decimal128(5, 1)", "f: fixed_size_binary[4]"}));
}

TEST(ParquetToArrow, ReadDictionary) {
  const std::vector<Tree> fields = {
      Leaf("b", kOptional, PType::kByteArray),
      Leaf("s", kOptional, PType::kByteArray).Logical(Lt("STRING")),
      Leaf("j", kOptional, PType::kByteArray).Logical(Lt("JSON")),
      Leaf("f", kOptional, PType::kFixedLenByteArray, 4),
      Group("st", kOptional, {Leaf("x", kOptional, PType::kByteArray).Logical(Lt("STRING"))}),
      Group("l", kOptional,
            {Group("list", kRepeated, {Leaf("element", kOptional, PType::kByteArray)})})
          .Logical(Lt("LIST"))};
  ParquetToArrowOptions options;
  options.read_dictionary = {"b", "s", "j", "f", "st.x", "l.list.element"};
  Converted c = Convert(fields, options);
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{
                "b: dictionary<values=binary, indices=int32, ordered=0>",
                "s: dictionary<values=string, indices=int32, ordered=0>",
                "j: string",                // the arrow.json extension is not dictionary-read
                "f: fixed_size_binary[4]",  // only binary and string are
                "st: struct<x: dictionary<values=string, indices=int32, ordered=0>>",
                "l: list<element: dictionary<values=binary, indices=int32, ordered=0>>"}));
  // Nor large / view types from binary_type.
  options.binary_type = Type::kLargeBinary;
  EXPECT_EQ(Fields(Convert(fields, options))[1], "s: large_string");

  // Only leaf paths: a group, a typo are refused (pyarrow: KeyError).
  for (std::string name : {"st", "l", "nope", "l.list"}) {
    ParquetToArrowOptions bad;
    bad.read_dictionary = {name};
    Converted r = Convert(fields, bad);
    ASSERT_FALSE(r.result.ok()) << name;
    EXPECT_NE(r.result.status().message().find("'" + name + "'"), std::string::npos);
  }
}

TEST(ParquetToArrow, ListTypeCoversEveryList) {
  ParquetToArrowOptions options;
  options.list_type = Type::kLargeList;
  Converted c = Convert(
      {Group("l", kOptional,
             {Group("list", kRepeated, {Leaf("element", kOptional, PType::kInt32)})})
           .Logical(Lt("LIST")),
       Leaf("r", kRepeated, PType::kInt32),
       Group("m", kOptional,
             {Group(
                 "key_value", kRepeated,
                 {Leaf("key", kRequired, PType::kInt32), Leaf("value", kOptional, PType::kInt32)})})
           .Logical(Lt("MAP"))},
      options);
  EXPECT_EQ(Fields(c), (std::vector<std::string>{"l: large_list<element: int32>",
                                                 "r: large_list<r: int32 not null> not null",
                                                 "m: map<int32, int32>"}));
}

TEST(ParquetToArrow, OptionsAreChecked) {
  ParquetToArrowOptions options;
  options.binary_type = Type::kString;
  EXPECT_FALSE(Convert({Leaf("a", kOptional, PType::kInt32)}, options).result.ok());
  options = {};
  options.list_type = Type::kFixedSizeList;
  EXPECT_FALSE(Convert({Leaf("a", kOptional, PType::kInt32)}, options).result.ok());
}

// --- Nesting ----------------------------------------------------------------------

// The standard 3-level list (LogicalTypes.md "Lists"), inside a struct so
// that the levels start above zero.
TEST(ParquetToArrow, ThreeLevelList) {
  Converted c =
      Convert({Group("s", kOptional,
                     {Group("a", kOptional,
                            {Group("list", kRepeated, {Leaf("element", kOptional, PType::kInt64)})})
                          .Logical(Lt("LIST"))})});
  ASSERT_TRUE(c.result.ok()) << c.result.status();
  EXPECT_EQ(Fields(c), std::vector<std::string>{"s: struct<a: list<element: int64>>"});
  const ReadNode& s = c.field(0);
  EXPECT_EQ(s.kind, Kind::kStruct);
  EXPECT_EQ(s.node, 1);
  EXPECT_EQ(s.levels, Levels(1, 0, 0));
  const ReadNode& a = s.children[0];
  EXPECT_EQ(a.kind, Kind::kList);
  EXPECT_EQ(a.node, 2);  // the LIST group
  EXPECT_EQ(a.levels, Levels(2, 0, 0));
  EXPECT_EQ(a.repeated, Levels(3, 1, 3));
  const ReadNode& element = a.children[0];
  EXPECT_EQ(element.kind, Kind::kLeaf);
  EXPECT_EQ(element.node, 4);
  EXPECT_EQ(element.column, 0);
  EXPECT_EQ(element.levels, Levels(4, 1, 3));
  EXPECT_EQ(s.columns, std::vector<int32_t>{0});
  EXPECT_EQ(element.field.get(), TypeAs<ListType>(*a.field->type()).value_field().get());

  // Element and list non-nullable, named as stored.
  Converted r = Convert(
      {Group("a", kRequired, {Group("list", kRepeated, {Leaf("item", kRequired, PType::kInt32)})})
           .Converted(ConvertedType::kList)});
  EXPECT_EQ(Fields(r), std::vector<std::string>{"a: list<item: int32 not null> not null"});
}

// LogicalTypes.md's backward-compatibility rules, as Arrow C++ reads them.
TEST(ParquetToArrow, LegacyLists) {
  auto list = [](std::string name, Tree repeated) {
    return Group(std::move(name), kOptional, {std::move(repeated)}).Logical(Lt("LIST"));
  };
  Converted c = Convert({
      // 2-level: the repeated leaf is the element.
      list("two", Leaf("x", kRepeated, PType::kInt32)),
      // A repeated group of several fields: a list of structs.
      list("several",
           Group("list", kRepeated,
                 {Leaf("x", kOptional, PType::kInt32), Leaf("y", kRequired, PType::kInt32)})),
      // One field, but named "array" or "<list>_tuple": a struct too.
      list("arr", Group("array", kRepeated, {Leaf("x", kOptional, PType::kInt32)})),
      list("t", Group("t_tuple", kRepeated, {Leaf("x", kOptional, PType::kInt32)})),
      // Any other name: 3-level, the single field is the element.
      list("bag", Group("bag", kRepeated, {Leaf("x", kOptional, PType::kInt32)})),
      // A repeated single field: a struct of it (itself a legacy list).
      list("rep", Group("bag", kRepeated, {Leaf("x", kRepeated, PType::kInt32)})),
  });
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{
                "two: list<x: int32 not null>",
                "several: list<list: struct<x: int32, y: int32 not null> not null>",
                "arr: list<array: struct<x: int32> not null>",
                "t: list<t_tuple: struct<x: int32> not null>", "bag: list<x: int32>",
                "rep: list<bag: struct<x: list<x: int32 not null> not null> not null>"}));
}

// A repeated field outside a LIST group: a non-nullable list whose levels
// are its Parquet parent's (here an element of a list, so not zero).
TEST(ParquetToArrow, RepeatedFieldsOutsideLists) {
  Converted c = Convert({
      Leaf("top", kRepeated, PType::kInt32),
      Group("l", kOptional,
            {Group("list", kRepeated,
                   {Group("element", kOptional,
                          {Leaf("r", kRepeated, PType::kInt32),
                           Group("g", kRepeated, {Leaf("x", kOptional, PType::kInt32)})})})})
          .Logical(Lt("LIST")),
  });
  ASSERT_TRUE(c.result.ok()) << c.result.status();
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{
                "top: list<top: int32 not null> not null",
                "l: list<element: struct<r: list<r: int32 not null> not null, g: list<g: "
                "struct<x: int32> not null> not null>>"}));
  const ReadNode& top = c.field(0);
  EXPECT_EQ(top.kind, Kind::kList);
  EXPECT_EQ(top.node, 1);
  EXPECT_EQ(top.levels, Levels(0, 0, 0));
  EXPECT_EQ(top.repeated, Levels(1, 1, 1));
  EXPECT_EQ(top.children[0].levels, Levels(1, 1, 1));
  EXPECT_FALSE(top.children[0].field->nullable());

  const ReadNode& element = c.field(1).children[0];  // optional group, def 3, rep 1
  EXPECT_EQ(element.levels, Levels(3, 1, 2));
  const ReadNode& r = element.children[0];
  EXPECT_EQ(r.kind, Kind::kList);
  EXPECT_EQ(r.levels, element.levels);  // the parent's levels
  EXPECT_EQ(r.repeated, Levels(4, 2, 4));
  EXPECT_EQ(r.children[0].kind, Kind::kLeaf);
  const ReadNode& g = element.children[1];
  EXPECT_EQ(g.levels, element.levels);
  EXPECT_EQ(g.repeated, Levels(4, 2, 4));
  EXPECT_EQ(g.children[0].kind, Kind::kStruct);
  EXPECT_EQ(g.children[0].node, g.node);  // the struct is the repeated group
  EXPECT_EQ(g.children[0].levels, Levels(4, 2, 4));
  EXPECT_EQ(g.children[0].children[0].levels, Levels(5, 2, 4));
  EXPECT_EQ(c.field(1).columns, (std::vector<int32_t>{1, 2}));
}

// A repeated LIST (or MAP) group as the element of a list: a 2-level list
// of lists, read as a non-nullable list named after the repeated group.
TEST(ParquetToArrow, TwoLevelListOfLists) {
  Converted c = Convert({
      Group("a", kOptional,
            {Group("array", kRepeated, {Leaf("item", kRepeated, PType::kInt32).Id(3)})
                 .Logical(Lt("LIST"))
                 .Id(2)})
          .Logical(Lt("LIST"))
          .Id(1),
      Group("b", kOptional,
            {Group("bag", kRepeated,
                   {Group("key_value", kRepeated,
                          {Leaf("key", kRequired, PType::kInt32),
                           Leaf("value", kOptional, PType::kInt32)})})
                 .Converted(ConvertedType::kMapKeyValue)})
          .Logical(Lt("LIST")),
  });
  ASSERT_TRUE(c.result.ok()) << c.result.status();
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{"a: list<array: list<item: int32 not null> not null>",
                                      "b: list<bag: map<int32, int32> not null>"}));
  const ReadNode& a = c.field(0);
  EXPECT_EQ(a.repeated, Levels(2, 1, 2));
  const ReadNode& inner = a.children[0];
  EXPECT_EQ(inner.kind, Kind::kList);
  EXPECT_EQ(inner.node, 2);
  EXPECT_EQ(inner.levels, Levels(2, 1, 2));
  EXPECT_EQ(inner.repeated, Levels(3, 2, 3));
  EXPECT_EQ(inner.children[0].levels, Levels(3, 2, 3));
  using P = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(Pairs(a.field->metadata()), (P{{"PARQUET:field_id", "1"}}));
  EXPECT_EQ(Pairs(inner.field->metadata()), (P{{"PARQUET:field_id", "2"}}));
  EXPECT_EQ(Pairs(inner.children[0].field->metadata()), (P{{"PARQUET:field_id", "3"}}));
  const ReadNode& bag = c.field(1).children[0];
  EXPECT_EQ(bag.kind, Kind::kMap);
  EXPECT_EQ(TypeAs<MapType>(*bag.field->type()).entries_field()->name(), "bag");
}

TEST(ParquetToArrow, Maps) {
  auto kv = [](std::string name, Tree key, Tree value) {
    return Group(std::move(name), kRepeated, {std::move(key), std::move(value)});
  };
  Converted c = Convert({
      Group("m", kOptional,
            {kv("key_value", Leaf("key", kRequired, PType::kByteArray).Logical(Lt("STRING")).Id(3),
                Leaf("value", kOptional, PType::kInt32).Id(4))
                 .Id(2)})
          .Logical(Lt("MAP"))
          .Id(1),
      // Legacy: MAP_KEY_VALUE on the map group itself, other names.
      Group("legacy", kRequired,
            {kv("map", Leaf("k", kRequired, PType::kInt32), Leaf("v", kRequired, PType::kInt32))})
          .Converted(ConvertedType::kMapKeyValue),
      // A key-value group with only a key: a list of keys (Arrow has no set).
      Group("set", kOptional,
            {Group("key_value", kRepeated, {Leaf("key", kRequired, PType::kInt32)})})
          .Logical(Lt("MAP")),
  });
  ASSERT_TRUE(c.result.ok()) << c.result.status();
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{"m: map<string, int32>", "legacy: map<int32, int32> not null",
                                      "set: list<key: int32 not null>"}));
  EXPECT_FALSE(TypeAs<MapType>(*c.field(1).field->type()).item_field()->nullable());
  const ReadNode& m = c.field(0);
  EXPECT_EQ(m.kind, Kind::kMap);
  EXPECT_EQ(m.node, 1);
  EXPECT_EQ(m.levels, Levels(1, 0, 0));
  EXPECT_EQ(m.repeated, Levels(2, 1, 2));
  const ReadNode& entries = m.children[0];
  EXPECT_EQ(entries.kind, Kind::kStruct);
  EXPECT_EQ(entries.node, 2);
  EXPECT_EQ(entries.levels, Levels(2, 1, 2));
  EXPECT_FALSE(entries.field->nullable());
  // The entries struct is named after the map and carries the key-value
  // group's field id, as in pyarrow.
  const MapType& type = TypeAs<MapType>(*m.field->type());
  EXPECT_EQ(type.entries_field(), entries.field);
  EXPECT_EQ(entries.field->name(), "m");
  using P = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(Pairs(entries.field->metadata()), (P{{"PARQUET:field_id", "2"}}));
  EXPECT_EQ(Pairs(type.key_field()->metadata()), (P{{"PARQUET:field_id", "3"}}));
  EXPECT_EQ(m.columns, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(TypeAs<MapType>(*c.field(1).field->type()).key_field()->name(), "k");
}

TEST(ParquetToArrow, MalformedListsAndMapsAreRefused) {
  auto element = [] { return Leaf("element", kOptional, PType::kInt32); };
  auto key = [] { return Leaf("key", kRequired, PType::kInt32); };
  auto value = [] { return Leaf("value", kOptional, PType::kInt32); };
  // A group `name` annotated `annotation` (LIST or MAP) around `children`.
  auto annotated = [](std::string name, FieldRepetitionType rep, std::string_view annotation,
                      std::vector<Tree> children) {
    return Group(std::move(name), rep, std::move(children)).Logical(Lt(annotation));
  };
  const std::vector<std::pair<Tree, std::string>> refused = {
      {annotated("a", kRepeated, "LIST", {Group("list", kRepeated, {element()})}), "a"},
      {annotated("a", kOptional, "LIST",
                 {Leaf("x", kRepeated, PType::kInt32), Leaf("y", kRepeated, PType::kInt32)}),
       "a"},
      {annotated("a", kOptional, "LIST", {}), "a"},
      {annotated("a", kOptional, "LIST", {Group("list", kOptional, {element()})}), "a"},
      {annotated("a", kOptional, "LIST", {Group("list", kRepeated, {})}), "a.list"},
      // A repeated LIST group in a list is a 2-level list; it cannot hold a
      // 3-level one (its repeated child has one non-repeated field).
      {annotated("a", kOptional, "LIST",
                 {annotated("list", kRepeated, "LIST", {Group("inner", kRepeated, {element()})})}),
       "a.list"},
      {annotated("m", kOptional, "MAP", {Group("key_value", kRepeated, {key(), value(), value()})}),
       "m"},
      {annotated("m", kOptional, "MAP",
                 {Group("key_value", kRepeated, {Leaf("key", kOptional, PType::kInt32), value()})}),
       "m"},
      {annotated("m", kOptional, "MAP", {Group("key_value", kOptional, {key(), value()})}), "m"},
      {annotated("m", kOptional, "MAP", {Leaf("key_value", kRepeated, PType::kInt32)}), "m"},
      {annotated("m", kRepeated, "MAP", {Group("key_value", kRepeated, {key(), value()})}), "m"},
      // A repeated MAP group in a list whose key-value group is a set: read
      // as a list, which cannot be repeated.
      {annotated("a", kOptional, "LIST",
                 {annotated("array", kRepeated, "MAP", {Group("key_value", kRepeated, {key()})})}),
       "a.array"},
  };
  for (const auto& [tree, path] : refused) ExpectRefused({tree}, path);
}

TEST(ParquetToArrow, EmptyStructs) {
  Converted c = Convert({Group("e", kOptional, {}), Group("r", kRepeated, {})});
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{"e: struct<>", "r: list<r: struct<> not null> not null"}));
  EXPECT_TRUE(c.field(0).columns.empty());
}

TEST(ParquetToArrow, VariantGroupIsAStruct) {
  Converted c = Convert({Group("v", kOptional,
                               {Leaf("metadata", kRequired, PType::kByteArray),
                                Leaf("value", kOptional, PType::kByteArray)})
                             .Logical(Lt("VARIANT"))});
  EXPECT_EQ(Fields(c),
            std::vector<std::string>{"v: struct<metadata: binary not null, value: binary>"});
}

TEST(ParquetToArrow, FieldIds) {
  Converted c = Convert({Leaf("a", kOptional, PType::kInt32).Id(0),
                         Leaf("b", kOptional, PType::kInt32).Id(-5),
                         Group("s", kOptional, {Leaf("x", kOptional, PType::kInt32).Id(2)}).Id(1),
                         Group("r", kRepeated, {Leaf("x", kOptional, PType::kInt32)}).Id(4),
                         Leaf("p", kRepeated, PType::kInt32).Id(5)});
  ASSERT_TRUE(c.result.ok());
  using P = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(Pairs(c.field(0).field->metadata()), (P{{"PARQUET:field_id", "0"}}));
  EXPECT_EQ(c.field(1).field->metadata(), nullptr);  // negative: none
  EXPECT_EQ(Pairs(c.field(2).children[0].field->metadata()), (P{{"PARQUET:field_id", "2"}}));
  // A repeated group: the list and its struct both carry the id; a
  // repeated leaf: the list only.
  EXPECT_EQ(Pairs(c.field(3).field->metadata()), (P{{"PARQUET:field_id", "4"}}));
  EXPECT_EQ(Pairs(c.field(3).children[0].field->metadata()), (P{{"PARQUET:field_id", "4"}}));
  EXPECT_EQ(Pairs(c.field(4).field->metadata()), (P{{"PARQUET:field_id", "5"}}));
  EXPECT_EQ(c.field(4).children[0].field->metadata(), nullptr);
}

TEST(ParquetToArrow, FileMetadataWithoutOrigin) {
  KeyValueMetadata md({"a", "ARROW:schema", "b"}, {"1", "garbage", "2"});
  // No origin given (ARROW:schema did not decode): the key goes.
  Converted c = Convert({Leaf("x", kOptional, PType::kInt32)}, {}, nullptr, &md);
  using P = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(Pairs(c->schema->metadata()), (P{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(Convert({Leaf("x", kOptional, PType::kInt32)})->schema->metadata(), nullptr);
}

// SchemaDescriptor allows 1000 levels; the walk recurses once per level.
TEST(ParquetToArrow, DeepNesting) {
  Tree t = Leaf("x", kOptional, PType::kInt32);
  for (int i = 0; i < 990; ++i) t = Group("g", kOptional, {std::move(t)});
  Converted c = Convert({std::move(t)});
  ASSERT_TRUE(c.result.ok()) << c.result.status();
  const ReadNode* n = &c.field(0);
  int depth = 0;
  while (!n->children.empty()) {
    n = &n->children[0];
    ++depth;
  }
  EXPECT_EQ(depth, 990);
  EXPECT_EQ(n->levels.def_level, 991);

  // Lists nest two Parquet levels each (with the ARROW:schema walk too).
  Tree l = Leaf("element", kOptional, PType::kInt32);
  TypePtr original = int32();
  for (int i = 0; i < 495; ++i) {
    l = Group("l", kOptional, {Group("list", kRepeated, {std::move(l)})}).Logical(Lt("LIST"));
    original = list(original);
  }
  auto origin = Origin({field("l", original)});
  Converted lists = Convert({std::move(l)}, {}, origin.get());
  ASSERT_TRUE(lists.result.ok()) << lists.result.status();
  EXPECT_EQ(lists.field(0).levels, Levels(1, 0, 0));
}

// --- ARROW:schema -----------------------------------------------------------------

Converted ConvertWithOrigin(const std::vector<Tree>& fields, const SchemaPtr& origin,
                            const ParquetToArrowOptions& options = {}) {
  return Convert(fields, options, origin.get());
}

TEST(ParquetToArrowOrigin, LeafRestorations) {
  auto ts = [](bool utc) {
    return Leaf("t", kOptional, PType::kInt64).Logical(Timestamp(utc, TimeUnit::kMilli));
  };
  Converted c = ConvertWithOrigin(
      {ts(true), ts(true), ts(false), Leaf("d", kOptional, PType::kInt64),
       Leaf("s", kOptional, PType::kByteArray).Logical(Lt("STRING")),
       Leaf("b", kOptional, PType::kByteArray),
       Leaf("sd", kOptional, PType::kByteArray).Logical(Lt("STRING")),
       Leaf("dec", kOptional, PType::kFixedLenByteArray, 3).Logical(Decimal(5, 1)),
       Leaf("dec2", kOptional, PType::kInt32).Logical(Decimal(5, 1))},
      Origin(
          {field("t", timestamp(TimeUnit::kSecond, "Europe/Paris")),  // the stored unit stays
           field("t", timestamp(TimeUnit::kMilli, "UTC")),
           field("t", timestamp(TimeUnit::kMilli, "Europe/Paris")),  // not UTC: not restored
           field("d", duration(TimeUnit::kNano)), field("s", large_utf8()),
           field("b", binary_view()),
           field("sd", dictionary(uint16(), binary(), true)),  // index and order; values inferred
           field("dec", decimal32(5, 1)), field("dec2", decimal256(6, 1))}));  // same p, s only
  EXPECT_EQ(Fields(c),
            (std::vector<std::string>{"t: timestamp[ms, tz=Europe/Paris]",
                                      "t: timestamp[ms, tz=UTC]", "t: timestamp[ms]",
                                      "d: duration[ns]", "s: large_string", "b: binary_view",
                                      "sd: dictionary<values=string, indices=uint16, ordered=1>",
                                      "dec: decimal32(5, 1)", "dec2: decimal128(5, 1)"}));
  EXPECT_TRUE(c->warnings.empty());
}

TEST(ParquetToArrowOrigin, WhatIsNotRestored) {
  Converted c = ConvertWithOrigin(
      {Leaf("a", kOptional, PType::kInt32).Logical(Lt("DATE")),
       Leaf("b", kOptional, PType::kInt32).Logical(Time(true, TimeUnit::kMilli)),
       Leaf("c", kOptional, PType::kInt32), Leaf("d", kOptional, PType::kFixedLenByteArray, 2),
       Leaf("e", kOptional, PType::kByteArray).Logical(Lt("STRING")),
       Leaf("f", kOptional, PType::kInt96),
       Leaf("g", kOptional, PType::kInt64).Logical(Int(64, false)),
       Leaf("h", kRequired, PType::kInt32)},
      Origin({field("a", date64()), field("b", time32(TimeUnit::kSecond)), field("c", uint32()),
              field("d", float16()), field("e", large_binary()),
              field("f", timestamp(TimeUnit::kNano, "UTC")),
              field("g", duration(TimeUnit::kSecond)),
              field("h", int32(), /*nullable=*/true)}));  // nullability is Parquet's
  EXPECT_EQ(Fields(c), (std::vector<std::string>{
                           "a: date32[day]", "b: time32[ms]", "c: int32", "d: fixed_size_binary[2]",
                           "e: string", "f: timestamp[ns]", "g: uint64", "h: int32 not null"}));
}

TEST(ParquetToArrowOrigin, ListKindsAndChildren) {
  auto list = [](std::string name, Tree element) {
    return Group(std::move(name), kOptional, {Group("list", kRepeated, {std::move(element)})})
        .Logical(Lt("LIST"));
  };
  auto i64 = [] { return Leaf("element", kOptional, PType::kInt64); };
  Converted c = ConvertWithOrigin(
      {list("a", i64()), list("b", i64()), list("c", i64()), Leaf("r", kRepeated, PType::kInt64),
       Group("s", kOptional,
             {Leaf("x", kOptional, PType::kInt64), Leaf("y", kOptional, PType::kInt64)})},
      Origin({field("a", large_list(field("item", duration(TimeUnit::kSecond)))),
              field("b", fixed_size_list(int64(), 3)),
              field("c", map(int64(), int64())),  // another shape: children untouched
              field("r", large_list(field("r", duration(TimeUnit::kMilli), false)), false),
              field("s", struct_({field("p", duration(TimeUnit::kSecond))}))}));  // 1 child, not 2
  EXPECT_EQ(Fields(c), (std::vector<std::string>{
                           "a: large_list<element: duration[s]>",  // the stored child name
                           "b: fixed_size_list<element: int64>[3]", "c: list<element: int64>",
                           "r: large_list<r: duration[ms] not null> not null",
                           "s: struct<x: int64, y: int64>"}));
  EXPECT_EQ(c.field(1).kind, Kind::kList);
  EXPECT_EQ(c->warnings.size(), 2u);  // c's and s's shapes
}

TEST(ParquetToArrowOrigin, MapKeysSortedOnlyWhenAChildChanged) {
  auto m = [](std::string name, Tree value) {
    return Group(std::move(name), kOptional,
                 {Group("key_value", kRepeated,
                        {Leaf("key", kRequired, PType::kInt64), std::move(value)})})
        .Logical(Lt("MAP"));
  };
  auto v64 = [] { return Leaf("value", kOptional, PType::kInt64); };
  Converted c = ConvertWithOrigin(
      {m("changed", v64()), m("same", v64()),
       m("string", Leaf("value", kOptional, PType::kByteArray).Logical(Lt("STRING"))),
       m("meta", v64())},
      Origin({field("changed", map(int64(), duration(TimeUnit::kSecond), true)),
              field("same", map(int64(), int64(), true)),
              // Equal string types still count as a change (Arrow's rule).
              field("string", map(int64(), utf8(), true)),
              field("meta",
                    map(field("key", int64(), false),
                        field("value", int64(), true, key_value_metadata({{"k", "v"}})), true))}));
  EXPECT_EQ(Fields(c), (std::vector<std::string>{"changed: map<int64, duration[s], keys_sorted>",
                                                 "same: map<int64, int64>",
                                                 "string: map<int64, string, keys_sorted>",
                                                 "meta: map<int64, int64, keys_sorted>"}));
  const ReadNode& changed = c.field(0);
  EXPECT_EQ(TypeAs<MapType>(*changed.field->type()).entries_field(), changed.children[0].field);
  EXPECT_EQ(changed.children[0].field->name(), "changed");
}

TEST(ParquetToArrowOrigin, ByPositionAndFieldCount) {
  const std::vector<Tree> fields = {Leaf("a", kOptional, PType::kInt64),
                                    Leaf("b", kOptional, PType::kInt64)};
  // Other names, same count: applied by position, with a warning.
  Converted c = ConvertWithOrigin(
      fields, Origin({field("x", duration(TimeUnit::kSecond)), field("b", int64())}));
  EXPECT_EQ(Fields(c), (std::vector<std::string>{"a: duration[s]", "b: int64"}));
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_NE(c->warnings[0].find("'x'"), std::string::npos);
  // Another field count: ignored, and ARROW:schema stays in the metadata.
  KeyValueMetadata md({"ARROW:schema", "k"}, {"xyz", "v"});
  auto origin = Origin({field("a", duration(TimeUnit::kSecond))});
  Converted d = Convert(fields, {}, origin.get(), &md);
  EXPECT_EQ(Fields(d), (std::vector<std::string>{"a: int64", "b: int64"}));
  EXPECT_EQ(d->warnings.size(), 1u);
  using P = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(Pairs(d->schema->metadata()), (P{{"ARROW:schema", "xyz"}, {"k", "v"}}));
}

TEST(ParquetToArrowOrigin, MetadataIsTheOrigins) {
  using P = std::vector<std::pair<std::string, std::string>>;
  KeyValueMetadata md({"ARROW:schema", "footer"}, {"xyz", "only in the footer"});
  auto origin =
      Origin({field("a", int64(), true,
                    key_value_metadata({{"z", "1"}, {"PARQUET:field_id", "9"}, {"a", "2"}}))},
             key_value_metadata({{"origin", "yes"}}));
  // The schema's metadata is the origin's own; field metadata: the
  // inferred keys first, then the origin's others.
  Converted c = Convert({Leaf("a", kOptional, PType::kInt64).Id(9)}, {}, origin.get(), &md);
  EXPECT_EQ(Pairs(c->schema->metadata()), (P{{"origin", "yes"}}));
  EXPECT_EQ(Pairs(c->schema->field(0)->metadata()),
            (P{{"PARQUET:field_id", "9"}, {"z", "1"}, {"a", "2"}}));
  auto bare = Origin({field("a", int64())});
  EXPECT_EQ(Convert({Leaf("a", kOptional, PType::kInt64)}, {}, bare.get(), &md)->schema->metadata(),
            nullptr);
}

TEST(ParquetToArrowOrigin, Extensions) {
  auto ext = [](std::string name, std::string serialized = "") {
    return key_value_metadata({{"ARROW:extension:name", std::move(name)},
                               {"ARROW:extension:metadata", std::move(serialized)}});
  };
  using P = std::vector<std::pair<std::string, std::string>>;
  Converted c = ConvertWithOrigin(
      {Leaf("u", kOptional, PType::kFixedLenByteArray, 16),
       Leaf("j", kOptional, PType::kByteArray).Logical(Lt("STRING")),
       Leaf("b8", kOptional, PType::kInt32).Logical(Int(8, true)),
       Leaf("b8_bad", kOptional, PType::kBoolean), Leaf("other", kOptional, PType::kByteArray),
       Group("tensor", kOptional,
             {Group("list", kRepeated, {Leaf("element", kOptional, PType::kFloat)})})
           .Logical(Lt("LIST")),
       Leaf("inferred", kOptional, PType::kByteArray).Logical(Lt("JSON"))},
      Origin(
          {field("u", fixed_size_binary(16), true, ext("arrow.uuid")),
           field("j", large_utf8(), true, ext("arrow.json")),
           field("b8", int8(), true, ext("arrow.bool8")),
           field("b8_bad", int8(), true, ext("arrow.bool8")),  // storage does not fit: dropped
           field("other", large_binary(), true, ext("geo.wkb", "{}")),  // unknown: plain metadata
           field("tensor", fixed_size_list(field("item", float32()), 4), true,
                 ext("arrow.fixed_shape_tensor", "{\"shape\":[2,2]}")),
           // An extension on an inferred one: applied when producible.
           field("inferred", fixed_size_binary(16), true, ext("arrow.uuid"))}));
  ASSERT_TRUE(c.result.ok()) << c.result.status();
  EXPECT_EQ(Fields(c), (std::vector<std::string>{"u: fixed_size_binary[16]", "j: large_string",
                                                 "b8: int8", "b8_bad: bool", "other: large_binary",
                                                 "tensor: fixed_size_list<item: float>[4]",
                                                 "inferred: string"}));
  auto name = [&](int i) { return internal::ExtensionName(c->schema->field(i)->metadata().get()); };
  EXPECT_EQ(name(0), "arrow.uuid");
  EXPECT_EQ(name(1), "arrow.json");
  EXPECT_EQ(name(2), "arrow.bool8");
  EXPECT_EQ(c->schema->field(3)->metadata(), nullptr);
  EXPECT_EQ(Pairs(c->schema->field(4)->metadata()),
            (P{{"ARROW:extension:name", "geo.wkb"}, {"ARROW:extension:metadata", "{}"}}));
  EXPECT_EQ(name(5), "arrow.fixed_shape_tensor");
  // The storage type is the original's, child names included; the
  // ReadNode children follow it.
  EXPECT_EQ(c.field(5).children[0].field->name(), "item");
  EXPECT_EQ(name(6), "arrow.json");  // fixed_size_binary(16) from BYTE_ARRAY: not producible
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_NE(c->warnings[0].find("inferred"), std::string::npos);
}

TEST(ParquetToArrowOrigin, OriginWinsOverOptions) {
  const std::vector<Tree> fields = {
      Leaf("s", kOptional, PType::kByteArray).Logical(Lt("STRING")),
      Leaf("b", kOptional, PType::kByteArray),
      Group("l", kOptional, {Group("list", kRepeated, {Leaf("element", kOptional, PType::kInt32)})})
          .Logical(Lt("LIST")),
      Leaf("d", kOptional, PType::kByteArray).Logical(Lt("STRING"))};
  const SchemaPtr origin = Origin({field("s", utf8()), field("b", binary()),
                                   field("l", list(int32())), field("d", large_utf8())});
  // The origin wins over binary_type and list_type...
  ParquetToArrowOptions options;
  options.binary_type = Type::kLargeBinary;
  options.list_type = Type::kLargeList;
  EXPECT_EQ(Fields(Convert(fields, options, origin.get())),
            (std::vector<std::string>{"s: string", "b: binary", "l: list<element: int32>",
                                      "d: large_string"}));
  // ...but read_dictionary wins over the origin.
  options = {};
  options.read_dictionary = {"d"};
  EXPECT_EQ(Fields(Convert(fields, options, origin.get()))[3],
            "d: dictionary<values=string, indices=int32, ordered=0>");
}

// --- CanConvertLeaf -----------------------------------------------------------------

TEST(CanConvertLeaf, StoredValuesToArrowTypes) {
  Converted c = Convert(
      {Leaf("i32", kOptional, PType::kInt32), Leaf("i64", kOptional, PType::kInt64),
       Leaf("ts", kOptional, PType::kInt64).Logical(Timestamp(true, TimeUnit::kMicro)),
       Leaf("ct_ts", kOptional, PType::kInt64).Converted(ConvertedType::kTimestampMillis),
       Leaf("i96", kOptional, PType::kInt96), Leaf("ba", kOptional, PType::kByteArray),
       Leaf("f2", kOptional, PType::kFixedLenByteArray, 2), Leaf("b", kOptional, PType::kBoolean)});
  ASSERT_TRUE(c.result.ok());
  auto can = [&](int column, const TypePtr& type) {
    return CanConvertLeaf(c.descriptor.column(column), *type);
  };
  EXPECT_TRUE(can(0, int8()));
  EXPECT_TRUE(can(0, date64()));
  EXPECT_TRUE(can(0, decimal64(5, 1)));
  EXPECT_FALSE(can(0, int64()));
  EXPECT_FALSE(can(0, utf8()));
  EXPECT_TRUE(can(1, duration(TimeUnit::kSecond)));
  EXPECT_FALSE(can(1, timestamp(TimeUnit::kMicro)));  // no stored unit
  EXPECT_TRUE(can(2, timestamp(TimeUnit::kMicro, "Asia/Tokyo")));
  EXPECT_FALSE(can(2, timestamp(TimeUnit::kNano)));  // units are not converted
  EXPECT_TRUE(can(3, timestamp(TimeUnit::kMilli)));
  EXPECT_TRUE(can(4, timestamp(TimeUnit::kSecond)));
  EXPECT_TRUE(can(5, utf8_view()));
  EXPECT_TRUE(can(5, dictionary(int8(), large_utf8())));
  EXPECT_FALSE(can(5, dictionary(int8(), utf8_view())));
  EXPECT_FALSE(can(5, fixed_size_binary(3)));
  EXPECT_TRUE(can(6, float16()));
  EXPECT_TRUE(can(6, dictionary(int32(), fixed_size_binary(2))));
  EXPECT_FALSE(can(6, fixed_size_binary(16)));
  EXPECT_TRUE(can(7, null()));  // every physical type
  EXPECT_FALSE(can(7, int8()));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
