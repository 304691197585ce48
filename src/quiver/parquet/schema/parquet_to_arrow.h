// Parquet schema -> Arrow schema, as pyarrow reads it (Arrow C++
// parquet/arrow/schema.cc: FromParquetSchema, SchemaManifest,
// ApplyOriginalMetadata), for the reader.
//
// The result is the Arrow schema the reader returns and, beside it, one
// ReadNode per Arrow array to build: where its slots are in the levels of
// the leaves below it, and for a leaf which column it decodes. The reader's
// assembly reads only these nodes, so every rule about legacy layouts
// (LogicalTypes.md "Backward-compatibility rules": 2-level lists, repeated
// fields without a LIST annotation, `array` / `<name>_tuple` element names,
// MAP_KEY_VALUE) lives here, once.
//
// Levels, per node (level_info.h gives the meaning of LevelInfo). For any
// leaf below a node, a level entry (def, rep) of that leaf
//   - is a slot of the node when rep <= levels.rep_level and
//     def >= levels.repeated_ancestor_def_level;
//   - is a null slot when def < levels.def_level (only when the field is
//     nullable; a non-nullable field's slot under a null ancestor is not
//     null in its own array, its value is zero / empty).
// Lists and maps (kList, kMap) also carry the levels of their repeated
// Parquet node, `repeated`: a slot's first entry starts an element when
// def >= repeated.def_level (else the list is empty or null); each later
// entry with rep == repeated.rep_level starts another element; entries with
// rep > repeated.rep_level continue the current element. The element's own
// node (children[0]) has levels with repeated_ancestor_def_level ==
// repeated.def_level and rep_level == repeated.rep_level.
// A map is a list whose element is the non-nullable struct "entries" of
// (key, value); a legacy repeated field without a LIST annotation is a
// non-nullable list whose element is the repeated node itself (non-nullable).
//
// Types (pyarrow 26's choices, checked against pyarrow in the tests): the
// leaf's Arrow type comes from its logical type, else its converted type,
// else its physical type; then, when the file's ARROW:schema is given and
// matches the tree (same field names and nesting), each field takes its
// original type where the reader can produce it from the stored values (see
// LeafConversion), its nullability where the stored one allows it, and its
// metadata; a mismatch ignores the original for that field and adds a
// warning. The original schema is never trusted for sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/parquet/schema/level_info.h"
#include "quiver/parquet/schema/schema_descriptor.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

struct ParquetToArrowOptions {
  // pyarrow's coerce_int96_timestamp_unit (default "ns").
  TimeUnit int96_unit = TimeUnit::kNano;
  // pyarrow's read_dictionary: leaf columns (dotted paths as
  // ColumnDescriptor::path, or a top-level name meaning every leaf below it)
  // whose BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY values are read as
  // dictionary<int32, value type>. A name that is no column is Invalid.
  std::vector<std::string> read_dictionary;
  // pyarrow's binary_type (binary, large_binary or binary_view; unset:
  // binary) for BYTE_ARRAY leaves without a string annotation, and
  // list_type (list or large_list; unset: list). Both are ignored for
  // fields whose type comes from ARROW:schema, as pyarrow ignores them.
  std::optional<Type> binary_type;
  std::optional<Type> list_type;
};

// How a leaf's stored values become its Arrow array (the column reader
// implements each). `type` is the leaf ReadNode's field type.
//   BOOLEAN              -> bool
//   INT32                -> int32, int8, int16, uint8, uint16, uint32, date32,
//                           date64 (days x 86400000), time32(s|ms), decimal32/64/128/256
//                           (the unscaled value, sign-extended), null (all null)
//   INT64                -> int64, uint64, timestamp(any unit, any tz) of the
//                           stored unit, time64(us|ns), duration(unit),
//                           decimal64/128/256
//   INT96                -> timestamp(ParquetToArrowOptions::int96_unit, tz)
//   FLOAT / DOUBLE       -> float32 / float64
//   FIXED_LEN_BYTE_ARRAY -> fixed_size_binary(type_length), float16 (length 2),
//                           decimal32/64/128/256 (big-endian two's complement),
//                           dictionary<int32, fixed_size_binary>
//   BYTE_ARRAY           -> binary, string, large_binary, large_string,
//                           binary_view, string_view, decimal128/256 (big-endian),
//                           dictionary<int32, binary | string | large_* >
// (timestamp units are never converted: a unit other than the stored one
// is not producible, and the inferred type is kept).
bool CanConvertLeaf(const ColumnDescriptor& column, const DataType& type);

// One Arrow array of the result: a top-level column or a nested child.
struct ReadNode {
  enum class Kind : uint8_t { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  // The field as the reader returns it (name, final type, nullable, metadata).
  // kList: list, large_list or fixed_size_list; kMap: map.
  FieldPtr field;
  // The Parquet node this array comes from (the LIST / MAP group for lists
  // and maps, the repeated node for legacy unannotated repeated fields).
  int32_t node = 0;
  LevelInfo levels;
  // kList / kMap: the levels of the repeated node.
  LevelInfo repeated;
  // kLeaf: index into SchemaDescriptor::columns().
  int32_t column = -1;
  // kStruct: one per field; kList: the element; kMap: the non-nullable
  // struct "entries" with children key and value.
  std::vector<ReadNode> children;
  // Leaf columns below this node (itself for a leaf), in column order.
  std::vector<int32_t> columns;
};

struct ArrowReadSchema {
  SchemaPtr schema;             // the fields and the file's key/value metadata
                                // (ARROW:schema itself removed, as pyarrow does)
  std::vector<ReadNode> fields;  // one per schema field
  std::vector<std::string> warnings;
};

// `file_metadata`: the footer's key/value metadata (may be null).
// `origin`: the schema decoded from ARROW:schema (null if absent or if it
// did not decode; the reader reports that as a warning).
Result<ArrowReadSchema> ParquetToArrowSchema(const SchemaDescriptor& descriptor,
                                             const KeyValueMetadata* file_metadata,
                                             const Schema* origin,
                                             const ParquetToArrowOptions& options = {});

}  // namespace quiver::parquet
