// Codec: one-shot compression of whole Parquet pages (module
// quiver_compression, which owns every compression library binding of
// Quiver; IPC body buffers use the same zstd / LZ4 contexts, see
// contexts_internal.h).
//
// A Parquet page is compressed as one unit; the page header records both
// sizes, so decompression always knows the exact output size. Codec values
// mirror parquet.thrift's CompressionCodec enum (and keep its spelling, so
// that they grep the same as the format). Behaviour follows Arrow C++
// (cpp/src/arrow/util/compression*.cc), which is what pyarrow writes:
//
//   codec        format written                        levels (default)
//   UNCOMPRESSED bytes as they are                     none
//   SNAPPY       raw snappy block                      none
//   GZIP         gzip stream (RFC 1952: deflate with   -1..9 (9, Arrow's
//                a gzip header/trailer, windowBits     kGZipDefaultCompressionLevel;
//                15 + 16); reads gzip or zlib streams  -1 is zlib's default, 6)
//   LZO          not supported (NotImplemented)
//   BROTLI       raw brotli stream, window 22          0..11 (8, as Arrow)
//   LZ4          deprecated Hadoop framing; decompress none
//                only (frames of [BE u32 raw size][BE u32 compressed size]
//                [lz4 block], falling back to a bare lz4 block as Arrow does);
//                Compress() is NotImplemented: write LZ4_RAW instead
//   ZSTD         zstd frame                            ZSTD_minCLevel()..22 (1, as
//                                                      Arrow); 0 means zstd's own 3
//   LZ4_RAW      bare lz4 block                        1..12, >= 3 uses LZ4-HC (1)
//
// A level given for a codec without levels is Invalid, as in Arrow's
// Codec::Create (pyarrow's write_table raises for compression_level with
// 'snappy'). Sizes are limited to INT32_MAX bytes: Parquet page sizes are i32.
//
// Decompress() must be given the exact uncompressed size from the page
// header; any mismatch, truncation or corruption is Invalid, and the output
// buffer is never written past out_len. Both directions reuse their library
// contexts (z_stream, ZSTD_CCtx/DCtx, LZ4 state) across calls, so a Codec is
// cheap to call per page but is NOT thread-safe: use one per thread / per
// column writer.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>

#include "quiver/util/result.h"

namespace quiver::compression {

enum class CompressionCodec : int32_t {
  UNCOMPRESSED = 0,
  SNAPPY = 1,
  GZIP = 2,
  LZO = 3,
  BROTLI = 4,
  LZ4 = 5,  // deprecated Hadoop-framed LZ4
  ZSTD = 6,
  LZ4_RAW = 7,
};

// "UNCOMPRESSED", "SNAPPY", ..., "LZ4_RAW" (the parquet.thrift names), or
// "UNKNOWN" for a value outside the enum.
std::string_view CompressionCodecName(CompressionCodec codec);

// Parses a writer option value (see shared/docs/interfaces.md), ignoring case:
// 'none' / 'uncompressed', 'snappy', 'gzip', 'brotli', 'lz4' (LZ4_RAW, as
// pyarrow writes it), 'lz4_raw', 'zstd', 'lzo' (parsed; Create() then fails
// with NotImplemented as in pyarrow). Anything else is Invalid.
Result<CompressionCodec> ParseCompression(std::string_view name);

// The uncompressed size that compressed data states in its own header,
// read without decompressing anything, so that a reader can refuse a page
// whose header disagrees before allocating the output: SNAPPY's block
// header; ZSTD's frame header when the data is one frame (possibly
// truncated) that records its content size. nullopt for the other codecs,
// for empty data, for several zstd frames and for a frame without a content
// size. Invalid when that header is corrupt or cut off (Decompress() would
// refuse the data too).
Result<std::optional<int64_t>> DecompressedSizeHint(CompressionCodec codec, const uint8_t* data,
                                                    int64_t size);

class Codec {
 public:
  // "Use the codec's default level" (Arrow's kUseDefaultCompressionLevel).
  static constexpr int kDefaultLevel = std::numeric_limits<int>::min();

  // A codec object. Invalid for an unknown codec value or a level the codec
  // does not accept; NotImplemented for LZO.
  static Result<std::unique_ptr<Codec>> Create(CompressionCodec codec,
                                               int level = kDefaultLevel);

  // Whether Create() accepts an explicit level for this codec.
  static bool SupportsLevel(CompressionCodec codec);
  // The level used for kDefaultLevel, and the accepted range; Invalid for a
  // codec without levels.
  static Result<int> DefaultLevel(CompressionCodec codec);
  static Result<int> MinimumLevel(CompressionCodec codec);
  static Result<int> MaximumLevel(CompressionCodec codec);

  virtual ~Codec() = default;
  Codec(const Codec&) = delete;
  Codec& operator=(const Codec&) = delete;

  // Upper bound of Compress()'s output for `input_len` bytes.
  virtual int64_t MaxCompressedLength(int64_t input_len) const = 0;

  // Compresses in[0, in_len) into out[0, out_capacity); returns the number of
  // bytes written. out_capacity >= MaxCompressedLength(in_len) always
  // suffices; a smaller buffer may fail with Invalid.
  virtual Result<int64_t> Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                                   int64_t out_capacity) = 0;

  // Decompresses in[0, in_len) into exactly out_len bytes at `out`; returns
  // out_len. Invalid if the data is corrupt or truncated, or does not
  // decompress to exactly out_len bytes. Never writes past out + out_len.
  // An empty input with out_len == 0 is accepted for every codec.
  virtual Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                                     int64_t out_len) = 0;

  CompressionCodec codec() const { return codec_; }
  // The effective level (the default resolved); 0 for codecs without levels.
  int level() const { return level_; }
  std::string_view name() const { return CompressionCodecName(codec_); }

 protected:
  Codec(CompressionCodec codec, int level) : codec_(codec), level_(level) {}

 private:
  CompressionCodec codec_;
  int level_;
};

}  // namespace quiver::compression
