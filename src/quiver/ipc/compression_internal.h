// Per-buffer body compression for IPC (Arrow format/Message.fbs,
// BodyCompressionMethod BUFFER): a compressed buffer is an int64
// little-endian uncompressed length followed by one LZ4 frame (lz4frame.h)
// or one Zstandard frame; the length -1 marks bytes stored uncompressed.
//
// Decompression never trusts the length prefix for its allocation: the
// output grows with what the decoder actually produces (at most twice that),
// the prefix must be physically reachable from the compressed size (LZ4
// cannot expand more than 255:1, a Zstandard block of 128 KiB costs at least
// 4 bytes), it is capped by the caller, and the decoded size must equal the
// prefix exactly.
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/ipc/compression.h"
#include "quiver/memory/buffer.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::ipc::internal {

// The framed form of `size` bytes at `data`: prefix + compressed bytes, or
// prefix -1 + the raw bytes when compression does not make them smaller.
// `level` is the codec's level (ignored by LZ4; zstd: 1 if unset).
Result<std::shared_ptr<Buffer>> CompressBodyBuffer(Compression codec, int level,
                                                   const uint8_t* data, int64_t size,
                                                   MemoryPool* pool);

// Decodes one framed buffer. An empty input stays empty. `max_size` caps
// the uncompressed length accepted from the prefix.
Result<std::shared_ptr<Buffer>> DecompressBodyBuffer(Compression codec,
                                                     const std::shared_ptr<Buffer>& framed,
                                                     int64_t max_size, MemoryPool* pool);

// Largest uncompressed size the codec can produce from `compressed_size`
// bytes (a physical bound, used to reject impossible length prefixes).
int64_t MaxDecompressedSize(Compression codec, int64_t compressed_size);

}  // namespace quiver::ipc::internal
