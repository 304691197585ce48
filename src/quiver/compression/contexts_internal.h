// The libzstd and liblz4 (frame API) bindings of Quiver, shared by Parquet
// page codecs (codec_zstd.cc) and Arrow IPC body buffers
// (ipc/compression_internal.cc): classes owning one library context each,
// created on first use and reused across calls (creating a context costs
// more than compressing a small page). Not thread-safe: one per thread.
//
// The library headers stay out of this header (contexts are held as
// pointers to the libraries' opaque structs).
#pragma once

#include <cstddef>
#include <cstdint>

#include "quiver/util/result.h"

struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;
struct LZ4F_dctx_s;

namespace quiver::compression::internal {

// One step of a streaming decoder: what it consumed and produced.
struct StreamStep {
  size_t consumed = 0;
  size_t produced = 0;
  bool frame_done = false;  // the current frame is fully decoded and flushed
};

class ZstdCompressor {
 public:
  ZstdCompressor() = default;
  ~ZstdCompressor();
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;

  // ZSTD_compressBound: enough room for any input of `input_len` bytes.
  static int64_t MaxCompressedLength(int64_t input_len);

  // One zstd frame of in[0, in_len) at `level` into out[0, out_capacity);
  // returns its size. CapacityError if the frame does not fit, OutOfMemory
  // if the context cannot be made, IOError for other library errors.
  Result<int64_t> Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                           int64_t out_capacity, int level);

 private:
  Status EnsureContext();

  ZSTD_CCtx_s* ctx_ = nullptr;
};

class ZstdDecompressor {
 public:
  ZstdDecompressor() = default;
  ~ZstdDecompressor();
  ZstdDecompressor(const ZstdDecompressor&) = delete;
  ZstdDecompressor& operator=(const ZstdDecompressor&) = delete;

  // Decodes all of in[0, in_len) (one or more frames, skippable frames
  // included) into out[0, out_capacity); returns the bytes produced.
  // CapacityError if the data decodes to more than out_capacity bytes,
  // Invalid if it is corrupt or truncated.
  Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                             int64_t out_capacity);

  // Streaming: decodes what it can of in[0, in_size) into out[0, out_size).
  // Invalid if the data is corrupt.
  Result<StreamStep> DecompressStep(const uint8_t* in, size_t in_size, uint8_t* out,
                                    size_t out_size);

 private:
  Status Init();
  ZSTD_DCtx_s* ctx_ = nullptr;
};

// LZ4 frame format (lz4frame.h; the frame records the content size).
// Largest frame CompressLz4Frame can produce for `input_len` bytes.
int64_t MaxLz4FrameLength(int64_t input_len, int level);
// One LZ4 frame of in[0, in_len) into out[0, out_capacity); returns its
// size. IOError if it fails (out_capacity < MaxLz4FrameLength may).
Result<int64_t> CompressLz4Frame(const uint8_t* in, int64_t in_len, uint8_t* out,
                                 int64_t out_capacity, int level);

class Lz4FrameDecompressor {
 public:
  Lz4FrameDecompressor() = default;
  ~Lz4FrameDecompressor();
  Lz4FrameDecompressor(const Lz4FrameDecompressor&) = delete;
  Lz4FrameDecompressor& operator=(const Lz4FrameDecompressor&) = delete;

  // Streaming, as ZstdDecompressor::DecompressStep.
  Result<StreamStep> DecompressStep(const uint8_t* in, size_t in_size, uint8_t* out,
                                    size_t out_size);

 private:
  LZ4F_dctx_s* ctx_ = nullptr;
};

}  // namespace quiver::compression::internal
