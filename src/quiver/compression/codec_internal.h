// Internal to the compression module: the per-library codec factories and the
// checks they share. Each factory gets an already validated, resolved level.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>

#include "quiver/compression/codec.h"
#include "quiver/util/status.h"

namespace quiver::compression::internal {

// Parquet page sizes are i32, and zlib/lz4/brotli take 32-bit lengths.
inline constexpr int64_t kMaxCodecBufferSize = std::numeric_limits<int32_t>::max();

// Arrow C++ defaults (cpp/src/arrow/util/compression_internal.h).
inline constexpr int kGzipDefaultLevel = 9;
inline constexpr int kBrotliDefaultLevel = 8;
inline constexpr int kZstdDefaultLevel = 1;
inline constexpr int kLz4DefaultLevel = 1;

// Decompress(): Invalid unless 0 <= in_len, out_len <= kMaxCodecBufferSize.
Status CheckDecompressSizes(CompressionCodec codec, int64_t in_len, int64_t out_len);
// Compress(): Invalid unless 0 <= in_len <= kMaxCodecBufferSize and
// out_capacity >= 0 (a larger capacity is fine).
Status CheckCompressSizes(CompressionCodec codec, int64_t in_len, int64_t out_capacity);

Status DecompressedSizeMismatch(CompressionCodec codec, int64_t actual, int64_t expected);
Status OutputTooSmall(CompressionCodec codec, int64_t in_len, int64_t out_capacity,
                      int64_t bound);

// A non-null address for libraries that reject null buffers of length 0.
inline uint8_t* NonNull(uint8_t* p) {
  static uint8_t dummy;
  return p != nullptr ? p : &dummy;
}
inline const uint8_t* NonNull(const uint8_t* p) {
  static const uint8_t dummy = 0;
  return p != nullptr ? p : &dummy;
}

// DecompressedSizeHint() for data of size > 0.
Result<std::optional<int64_t>> SnappyDecompressedSize(const uint8_t* data, int64_t size);
Result<std::optional<int64_t>> ZstdDecompressedSize(const uint8_t* data, int64_t size);

std::unique_ptr<Codec> MakeSnappyCodec();
std::unique_ptr<Codec> MakeGzipCodec(int level);
std::unique_ptr<Codec> MakeBrotliCodec(int level);
std::unique_ptr<Codec> MakeZstdCodec(int level);
std::unique_ptr<Codec> MakeLz4RawCodec(int level);
std::unique_ptr<Codec> MakeLz4HadoopCodec();

}  // namespace quiver::compression::internal
