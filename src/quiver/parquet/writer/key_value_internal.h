// The footer's key/value metadata as the writer builds it.
#pragma once

#include <optional>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// The schema's own pairs (an ARROW:schema among them skipped), then, with
// store_schema, ARROW:schema: the IPC schema message in base64, as Arrow
// C++ writes it. nullopt when there is no pair.
Result<std::optional<std::vector<format::KeyValue>>> FooterKeyValues(const Schema& schema,
                                                                     bool store_schema,
                                                                     MemoryPool* pool);

// add_key_value_metadata's pairs into `kv`: a key already there takes the
// added value in place (the added value wins, as in Arrow C++'s
// KeyValueMetadata::Merge), a new key goes after the others, in the order
// added.
void MergeKeyValues(const KeyValueMetadata& added, std::optional<std::vector<format::KeyValue>>* kv);

}  // namespace quiver::parquet
