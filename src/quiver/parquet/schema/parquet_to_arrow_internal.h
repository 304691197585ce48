// ParquetToArrowSchema (the reader's Arrow schema over the SchemaDescriptor,
// by the rules of parquet_to_arrow.h) and its internals shared by its two files:
// parquet_to_arrow.cc (the Parquet tree to Arrow fields) and
// parquet_to_arrow_origin.cc (ARROW:schema applied to those fields).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/parquet/schema/level_info.h"
#include "quiver/parquet/schema/parquet_to_arrow.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/util/result.h"
#include "quiver/util/status.h"

namespace quiver::parquet {

// How a leaf's stored values become its Arrow array (the column reader
// implements each). `type` is the leaf ReadNode's field type.
//   BOOLEAN              -> bool
//   INT32                -> int32, int8, int16, uint8, uint16, uint32, date32,
//                           date64 (days x 86400000), time32(s|ms), decimal32/64/128/256
//                           (the unscaled value, sign-extended)
//   INT64                -> int64, uint64, timestamp(any unit, any tz) of the
//                           stored unit, time64(us|ns), duration(unit),
//                           decimal32/64/128/256
//   INT96                -> timestamp(ParquetToArrowOptions::int96_unit, tz)
//   FLOAT / DOUBLE       -> float32 / float64
//   FIXED_LEN_BYTE_ARRAY -> fixed_size_binary(type_length), float16 (length 2),
//                           decimal32/64/128/256 (big-endian two's complement),
//                           dictionary<int32, fixed_size_binary>
//   BYTE_ARRAY           -> binary, string, large_binary, large_string,
//                           binary_view, string_view, decimal32/64/128/256 (big-endian),
//                           dictionary<int32, binary | string | large_* >
//   any                  -> null (levels only: every slot null)
// Dictionary indices may be any integer type (ARROW:schema keeps the
// writer's: dictionary<int8, string> reads back as such in pyarrow).
// (timestamp units are never converted: a unit other than the stored one
// is not producible, and the inferred type is kept). For an extension field
// `type` is the storage type.
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
  // The fields and, as pyarrow: with an applied origin, the origin schema's
  // own metadata (not the footer's); without one, the footer's key/value
  // metadata, less ARROW:schema when `origin` is null (the reader could not
  // decode it) and with it when the origin was ignored (field count).
  SchemaPtr schema;
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

namespace quiver::parquet::internal {

inline constexpr std::string_view kFieldIdKey = "PARQUET:field_id";
inline constexpr std::string_view kExtensionNameKey = "ARROW:extension:name";
inline constexpr std::string_view kExtensionMetadataKey = "ARROW:extension:metadata";
inline constexpr std::string_view kArrowSchemaKey = "ARROW:schema";
inline constexpr std::string_view kUuidExtension = "arrow.uuid";
inline constexpr std::string_view kJsonExtension = "arrow.json";

// The dotted path of node `node` (its name and its ancestors' below the
// root), for messages.
std::string NodePath(const SchemaDescriptor& descriptor, int32_t node);

// The extension name in `metadata` (empty if none).
std::string_view ExtensionName(const KeyValueMetadata* metadata);

// `metadata` without the extension keys (null if nothing is left).
MetadataPtr WithoutExtension(const MetadataPtr& metadata);

// `metadata` (may be null) with ARROW:extension:name = name and
// ARROW:extension:metadata = serialized appended last (replacing any).
MetadataPtr WithExtension(const MetadataPtr& metadata, std::string_view name,
                          std::string_view serialized);

// Applies `origin` (as many fields as `fields`) to the inferred fields, as
// pyarrow's ApplyOriginalMetadata does, field by field.
void ApplyOrigin(const Schema& origin, const SchemaDescriptor& descriptor,
                 std::vector<ReadNode>* fields, std::vector<std::string>* warnings);

}  // namespace quiver::parquet::internal
