// The footer's key/value metadata as the writer builds it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/parquet/writer/properties.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// "quiver.cdc" says that the writer cut the pages by content, with which
// parameters, as JSON: {"min_chunk_size":N,"max_chunk_size":N,"norm_level":N};
// tools (`quiver inspect --check --for-dedup`, `--html`) read it. Nothing
// else in a file tells CDC pages from others.
inline constexpr std::string_view kCdcKey = "quiver.cdc";
std::string CdcKeyValue(const CdcOptions& cdc);

// The schema's own pairs (an ARROW:schema or quiver.cdc among them skipped:
// only this write's options decide those), then quiver.cdc when `cdc` is
// set, then, with store_schema, ARROW:schema: the IPC schema message in
// base64, as Arrow C++ writes it. nullopt when there is no pair.
Result<std::optional<std::vector<format::KeyValue>>> FooterKeyValues(
    const Schema& schema, bool store_schema, const std::optional<CdcOptions>& cdc,
    MemoryPool* pool);

// An appended file's pairs keep quiver.cdc only when the appended row groups
// are chunked with the same parameters (`cdc`); a file without it stays
// without.
void DropStaleCdcKey(const std::optional<CdcOptions>& cdc,
                     std::optional<std::vector<format::KeyValue>>* kv);

// add_key_value_metadata's pairs into `kv`: a key already there takes the
// added value in place (the added value wins, as in Arrow C++'s
// KeyValueMetadata::Merge), a new key goes after the others, in the order
// added.
void MergeKeyValues(const KeyValueMetadata& added, std::optional<std::vector<format::KeyValue>>* kv);

}  // namespace quiver::parquet
