// Internals of ParquetToArrowSchema shared by its two files:
// parquet_to_arrow.cc (the Parquet tree to Arrow fields) and
// parquet_to_arrow_origin.cc (ARROW:schema applied to those fields).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/parquet/schema/parquet_to_arrow.h"
#include "quiver/parquet/schema/schema_descriptor.h"
#include "quiver/util/status.h"

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
