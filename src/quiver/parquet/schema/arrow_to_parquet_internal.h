// Arrow schema -> Parquet schema (parquet-format LogicalTypes.md).
//
// Every Arrow field becomes a Parquet node of the same name; nullable fields
// are OPTIONAL, others REQUIRED. Nested types use the compliant shapes:
//   list / large_list / fixed_size_list:
//     <rep> group name (LIST) { repeated group list { <rep> element } }
//   map:
//     <rep> group name (MAP) { repeated group key_value { required key; <rep> value } }
//   struct: <rep> group name { children }
// Leaves (physical type / logical type):
//   bool BOOLEAN; int8/16/32 INT32 INT(n, true); uint8/16/32 INT32 INT(n, false);
//   int64 / uint64 INT64 INT(64, s); float16 FLBA(2) FLOAT16; float/double;
//   decimal(p, s): INT32 if p <= 9, INT64 if p <= 18, else FLBA(minimal
//   bytes), DECIMAL(p, s); date32 / date64 INT32 DATE (date64 converted to
//   days); time32 INT32 TIME(MILLIS) (seconds converted to ms); time64 INT64
//   TIME(MICROS|NANOS); timestamp INT64 TIMESTAMP(unit, adjusted = has tz)
//   with the converted type TIMESTAMP_MILLIS/MICROS for ms/us, time zone or
//   not (Arrow C++'s force_set_converted_type, ARROW-5878), in the unit
//   TimestampUnit() chooses (seconds as ms; MappingOptions); duration INT64
//   (no logical type, restored from ARROW:schema); string / large_string /
//   string_view BYTE_ARRAY
//   STRING; binary kinds BYTE_ARRAY; fixed_size_binary FLBA(n); null
//   INT32 UNKNOWN (always null); dictionary: its value type.
// Legacy converted types are set alongside where one exists, as Arrow C++
// does. Intervals have no faithful Parquet type: NotImplemented.
//
// The one walk over the Arrow fields gives the SchemaElements, the writer's
// Arrow facts per leaf (ArrowLeaf) and the tree of Arrow fields that level
// shredding follows (ArrowTree); the levels and the Parquet facts of every
// leaf then come from the SchemaDescriptor built from those elements, the
// same description a reader builds from a file's footer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/parquet/schema/arrow_tree.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/parquet/statistics/statistics.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// How Arrow values become Parquet physical values.
enum class ValueKind : uint8_t {
  kNull,           // all null, INT32
  kBool,           // bitmap -> BOOLEAN
  kInt8,           // widened to INT32
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,          // 4-byte values as they are (int32, uint32, date32, time32[ms], decimal32)
  kTime32Seconds,  // x 1000 -> INT32 milliseconds
  kDate64,         // ms / 86400000 -> INT32 days
  kInt64,          // 8-byte values as they are
  kUInt32ToInt64,  // uint32 zero-extended -> INT64 (format version 1.0)
  // Timestamps stored in another unit (StoredTimestampUnit): x time_factor,
  // an overflow refused; / time_factor toward zero, a lossy value refused
  // unless truncate_timestamps (as Arrow C++ 26 writes them).
  kTimestampScaleUp,
  kTimestampScaleDown,
  kFloat16,        // 2 bytes -> FLBA(2)
  kFloat,
  kDouble,
  kBinary,         // int32 offsets -> BYTE_ARRAY
  kLargeBinary,    // int64 offsets
  kBinaryView,     // views -> BYTE_ARRAY
  kFixedSizeBinary,
  kDecimalToInt32,  // decimal64/128/256 with precision <= 9 (low 4 bytes)
  kDecimalToInt64,  // decimal128/256 with precision <= 18 (low 8 bytes)
  kDecimalToFlba,   // little-endian two's complement -> big-endian, type_length bytes
};

// The writer's Arrow facts about one leaf column. Its Parquet facts (path,
// physical type, type length, levels) are the ColumnDescriptor of the same
// index in ParquetSchema::descriptor.
struct ArrowLeaf {
  int top_level_field = 0;
  ValueKind value_kind = ValueKind::kInt32;
  int32_t arrow_byte_width = 0;  // source value width (decimals, fsb)
  bool dictionary = false;       // the Arrow leaf is dictionary-encoded
  StatsKind stats_kind = StatsKind::kInt32;
  bool is_string = false;        // string values (STRING logical type): UTF-8 is checked
  TypePtr arrow_type;            // the leaf's Arrow type (dictionary: the dictionary type)
  // Timestamps stored in another unit (kTimestampScaleUp / ScaleDown): the
  // factor between the units (1000, 10^6 or 10^9), the stored unit, and,
  // scaling down, whether a value that is not a whole number of the stored
  // unit is truncated (else an error, which names `coercion` as its cause:
  // the option that asked for the unit).
  int64_t time_factor = 1;
  TimeUnit stored_unit = TimeUnit::kMilli;
  bool truncate_timestamps = false;
  std::string coercion;
};

// The writer options that change how Arrow types are stored (pyarrow's
// `version`, `coerce_timestamps`, `allow_truncated_timestamps`; see
// writer/properties.h).
struct MappingOptions {
  bool version_1_0 = false;    // uint32 as INT64 without annotation
  bool nanos_as_micros = false;  // versions 1.0 and 2.4: timestamp[ns] as microseconds
  std::string version_name = "2.6";  // for messages
  std::optional<TimeUnit> coerce_timestamps;  // kMilli or kMicro
  bool allow_truncated_timestamps = false;
};

// The unit a timestamp column of unit `unit` is stored in, as Arrow C++
// decides it (parquet/arrow/schema.cc GetTimestampMetadata): the coerced
// unit if asked; else seconds as milliseconds (Parquet has no seconds),
// nanoseconds as microseconds when nanos_as_micros; else its own unit.
TimeUnit StoredTimestampUnit(TimeUnit unit, const MappingOptions& options);

// An Arrow schema mapped to Parquet, in one walk of its fields.
struct ParquetSchema {
  std::vector<format::SchemaElement> elements;  // depth-first, root first
  SchemaDescriptor descriptor;                  // of `elements`: paths, types, levels
  std::vector<ArrowLeaf> leaves;                // the Arrow side of descriptor.columns()
  ArrowTree arrow;                              // what level shredding follows
};

Result<ParquetSchema> ArrowToParquetSchema(const Schema& schema, const MappingOptions& options = {});

// Bytes of a FIXED_LEN_BYTE_ARRAY holding a decimal of `precision` digits.
int32_t DecimalFlbaLength(int32_t precision);

}  // namespace quiver::parquet
