// Limits that protect a Parquet reader from hostile metadata: the footer's
// and every page header's Thrift decoding obey them (the compact protocol
// reader, compact_protocol_internal.h, is not installed). A reader's options
// carry one (ReaderOptions::thrift_limits, pyarrow's thrift_string_size_limit
// and thrift_container_size_limit).
#pragma once

#include <cstdint>

namespace quiver::parquet::thrift {

struct ThriftLimits {
  // Longest string/binary value, in bytes (Arrow: thrift_string_size_limit).
  int64_t string_size_limit = 100'000'000;
  // Most elements in one list/set or entries in one map (Arrow:
  // thrift_container_size_limit).
  int64_t container_size_limit = 1'000'000;
  // Deepest nesting of structs, lists and maps. Values above
  // kMaxDepthHardLimit are treated as kMaxDepthHardLimit (the decoder
  // recurses, so the stack must stay bounded).
  int32_t max_depth = 64;

  static constexpr int32_t kMaxDepthHardLimit = 1000;
};

}  // namespace quiver::parquet::thrift
