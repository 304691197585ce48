#include "quiver/parquet/writer/key_value_internal.h"

#include <algorithm>
#include <string>
#include <utility>

#include "quiver/ipc/schema.h"
#include "quiver/util/base64.h"

namespace quiver::parquet {

std::string CdcKeyValue(const CdcOptions& c) {
  return "{\"min_chunk_size\":" + std::to_string(c.min_chunk_size) +
         ",\"max_chunk_size\":" + std::to_string(c.max_chunk_size) +
         ",\"norm_level\":" + std::to_string(c.norm_level) + "}";
}

Result<std::optional<std::vector<format::KeyValue>>> FooterKeyValues(
    const Schema& schema, bool store_schema, const std::optional<CdcOptions>& cdc,
    MemoryPool* pool) {
  std::vector<format::KeyValue> kv;
  if (schema.metadata() != nullptr) {
    for (int64_t i = 0; i < schema.metadata()->size(); ++i) {
      if (schema.metadata()->key(i) == "ARROW:schema") continue;
      if (schema.metadata()->key(i) == kCdcKey) continue;
      format::KeyValue p;
      p.key = schema.metadata()->key(i);
      p.value = schema.metadata()->value(i);
      kv.push_back(std::move(p));
    }
  }
  if (cdc.has_value()) {
    format::KeyValue p;
    p.key = std::string(kCdcKey);
    p.value = CdcKeyValue(*cdc);
    kv.push_back(std::move(p));
  }
  if (store_schema) {
    QUIVER_ASSIGN_OR_RAISE(auto message, ipc::SerializeSchema(schema, pool));
    format::KeyValue p;
    p.key = "ARROW:schema";
    p.value = Base64Encode(message->data(), message->size());
    kv.push_back(std::move(p));
  }
  if (kv.empty()) return std::optional<std::vector<format::KeyValue>>();
  return std::optional<std::vector<format::KeyValue>>(std::move(kv));
}

void DropStaleCdcKey(const std::optional<CdcOptions>& cdc,
                     std::optional<std::vector<format::KeyValue>>* kv) {
  if (!kv->has_value()) return;
  const std::optional<std::string> now =
      cdc.has_value() ? std::optional<std::string>(CdcKeyValue(*cdc)) : std::nullopt;
  std::erase_if(**kv, [&](const format::KeyValue& p) {
    return p.key == kCdcKey && (!now.has_value() || p.value != now);
  });
}

void MergeKeyValues(const KeyValueMetadata& added, std::optional<std::vector<format::KeyValue>>* kv) {
  if (added.size() == 0) return;
  if (!kv->has_value()) kv->emplace();
  auto& pairs = **kv;
  for (int64_t i = 0; i < added.size(); ++i) {
    auto same = std::find_if(pairs.begin(), pairs.end(),
                             [&](const format::KeyValue& p) { return p.key == added.key(i); });
    if (same != pairs.end()) {
      same->value = added.value(i);
    } else {
      format::KeyValue p;
      p.key = added.key(i);
      p.value = added.value(i);
      pairs.push_back(std::move(p));
    }
  }
}

}  // namespace quiver::parquet
