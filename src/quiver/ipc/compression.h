// Body compression codecs of the Arrow IPC format (Message.fbs
// BodyCompression): each body buffer is compressed on its own with LZ4 frame
// or Zstandard and prefixed with its uncompressed length.
#pragma once

#include <string_view>

#include "quiver/util/result.h"

namespace quiver::ipc {

enum class Compression { kNone, kLz4Frame, kZstd };

// "none", "lz4_frame", "zstd".
std::string_view CompressionName(Compression compression);
// Parses the names above (any case); "lz4" is accepted for LZ4 frame, as
// pyarrow's IpcWriteOptions accepts it.
Result<Compression> CompressionFromName(std::string_view name);

}  // namespace quiver::ipc
