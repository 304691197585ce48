// Projection of the reader: the Arrow schema it reads a file as, the
// top-level fields FileReader's `columns` names, and a field's ReadNode tree cut down to some of its leaves
// (`columns` by dotted leaf path; the string leaves an
// invalid_utf8='binary' scan reads).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "quiver/parquet/schema/parquet_to_arrow_internal.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet::internal {

// `node` pruned to the leaves in `selected` (leaf column indices) into
// *out; false when none is below it. Structs keep the fields that have a
// selected leaf; lists keep their element (pruned when it is a struct);
// maps keep their entries whole.
bool PruneNode(const ReadNode& node, const std::set<int32_t>& selected, ReadNode* out);

// The Arrow read schema of a file (parquet_to_arrow.h): ARROW:schema
// restoring the original types (one that is not base64 or does not decode
// is ignored with a warning appended to *warnings, as are the
// conversion's), read_dictionary naming leaves or a group's dotted path
// (every leaf below it).
Result<ArrowReadSchema> ReadSchema(const SchemaDescriptor& descriptor,
                                   const format::FileMetaData& metadata,
                                   const ParquetToArrowOptions& options,
                                   std::vector<std::string>* warnings);

// The top-level nodes a read of `columns` builds (top-level names or
// dotted leaf paths), in the order first named; nullopt: every field. A
// name nothing matches is Invalid naming `file_name`.
Result<std::vector<ReadNode>> SelectNodes(const ArrowReadSchema& arrow,
                                          const SchemaDescriptor& descriptor,
                                          const std::string& file_name,
                                          const std::optional<std::vector<std::string>>& columns);

}  // namespace quiver::parquet::internal
