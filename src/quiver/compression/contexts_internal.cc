#include "quiver/compression/contexts_internal.h"

#include <lz4frame.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <cstring>

namespace quiver::compression::internal {

namespace {

// A non-null address for libraries that reject null buffers of length 0.
const uint8_t* NonNullIn(const uint8_t* p) {
  static const uint8_t dummy = 0;
  return p != nullptr ? p : &dummy;
}
uint8_t* NonNullOut(uint8_t* p) {
  static uint8_t dummy;
  return p != nullptr ? p : &dummy;
}

}  // namespace

// --- zstd ---------------------------------------------------------------------

namespace {

// One compression context a thread keeps between the compressors it makes
// (a writer makes one per column chunk): a context's first frame allocates
// and clears its workspace, which costs as much as compressing a few small
// pages (measured: 53 pages of 2.5 KB, 317 us with a reused context, 334 us
// with a new one). Only a context whose workspace is small is kept (the
// default levels' are under 1 MiB; level 19's are tens of MiB).
constexpr size_t kKeptContextBytes = 4 << 20;

// Set when the thread's kept context is gone (at thread exit): a
// compressor destroyed after that (a static object's) frees its own.
thread_local bool kept_context_gone = false;
struct KeptContext {
  ZSTD_CCtx* ctx = nullptr;
  ~KeptContext() {
    ZSTD_freeCCtx(ctx);
    ctx = nullptr;
    kept_context_gone = true;
  }
};
thread_local KeptContext kept_context;

ZSTD_CCtx* TakeKeptContext() {
  if (kept_context_gone) return nullptr;
  ZSTD_CCtx* ctx = kept_context.ctx;
  kept_context.ctx = nullptr;
  return ctx;
}

// Keeps `ctx` for the thread's next compressor, or frees it.
void KeepOrFree(ZSTD_CCtx* ctx) {
  if (ctx == nullptr) return;
  if (!kept_context_gone && kept_context.ctx == nullptr && ZSTD_sizeof_CCtx(ctx) <= kKeptContextBytes) {
    kept_context.ctx = ctx;
  } else {
    ZSTD_freeCCtx(ctx);
  }
}

}  // namespace

ZstdCompressor::~ZstdCompressor() { KeepOrFree(ctx_); }

int64_t ZstdCompressor::MaxCompressedLength(int64_t input_len) {
  return static_cast<int64_t>(ZSTD_compressBound(static_cast<size_t>(input_len)));
}

// The context, made on first use (or the thread's kept one).
Status ZstdCompressor::EnsureContext() {
  if (ctx_ == nullptr) ctx_ = TakeKeptContext();
  if (ctx_ == nullptr) {
    ctx_ = ZSTD_createCCtx();
    if (ctx_ == nullptr) return Status::OutOfMemory("ZSTD_createCCtx failed");
  }
  return Status::OK();
}

Result<int64_t> ZstdCompressor::Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                                         int64_t out_capacity, int level) {
  QUIVER_RETURN_NOT_OK(EnsureContext());
  const size_t ret = ZSTD_compressCCtx(ctx_, NonNullOut(out), static_cast<size_t>(out_capacity),
                                       NonNullIn(in), static_cast<size_t>(in_len), level);
  if (ZSTD_isError(ret)) {
    if (ZSTD_getErrorCode(ret) == ZSTD_error_dstSize_tooSmall) {
      return Status::CapacityError("zstd frame does not fit in ", out_capacity, " bytes");
    }
    return Status::IOError("zstd compression failed: ", ZSTD_getErrorName(ret));
  }
  return static_cast<int64_t>(ret);
}

ZstdDecompressor::~ZstdDecompressor() { ZSTD_freeDCtx(ctx_); }

Status ZstdDecompressor::Init() {
  if (ctx_ == nullptr) {
    ctx_ = ZSTD_createDCtx();
    if (ctx_ == nullptr) return Status::OutOfMemory("ZSTD_createDCtx failed");
  }
  return Status::OK();
}

Result<int64_t> ZstdDecompressor::Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                                             int64_t out_capacity) {
  QUIVER_RETURN_NOT_OK(Init());
  const size_t ret = ZSTD_decompressDCtx(ctx_, NonNullOut(out), static_cast<size_t>(out_capacity),
                                         NonNullIn(in), static_cast<size_t>(in_len));
  if (ZSTD_isError(ret)) {
    if (ZSTD_getErrorCode(ret) == ZSTD_error_dstSize_tooSmall) {
      return Status::CapacityError("zstd data decompresses to more than ", out_capacity,
                                   " bytes");
    }
    return Status::Invalid(ZSTD_getErrorName(ret));
  }
  return static_cast<int64_t>(ret);
}

Result<StreamStep> ZstdDecompressor::DecompressStep(const uint8_t* in, size_t in_size,
                                                    uint8_t* out, size_t out_size) {
  QUIVER_RETURN_NOT_OK(Init());
  ZSTD_inBuffer input{in, in_size, 0};
  ZSTD_outBuffer output{out, out_size, 0};
  const size_t ret = ZSTD_decompressStream(ctx_, &output, &input);
  if (ZSTD_isError(ret)) {
    return Status::Invalid("corrupt zstd frame: ", ZSTD_getErrorName(ret));
  }
  return StreamStep{input.pos, output.pos, ret == 0};
}

// --- LZ4 frame ------------------------------------------------------------------

namespace {

LZ4F_preferences_t Lz4FramePreferences(int64_t input_len, int level) {
  LZ4F_preferences_t prefs;
  std::memset(&prefs, 0, sizeof(prefs));
  prefs.compressionLevel = level;
  prefs.frameInfo.contentSize = static_cast<unsigned long long>(input_len);
  return prefs;
}

}  // namespace

int64_t MaxLz4FrameLength(int64_t input_len, int level) {
  const LZ4F_preferences_t prefs = Lz4FramePreferences(input_len, level);
  return static_cast<int64_t>(LZ4F_compressFrameBound(static_cast<size_t>(input_len), &prefs));
}

Result<int64_t> CompressLz4Frame(const uint8_t* in, int64_t in_len, uint8_t* out,
                                 int64_t out_capacity, int level) {
  const LZ4F_preferences_t prefs = Lz4FramePreferences(in_len, level);
  const size_t n = LZ4F_compressFrame(out, static_cast<size_t>(out_capacity), in,
                                      static_cast<size_t>(in_len), &prefs);
  if (LZ4F_isError(n)) {
    return Status::IOError("LZ4 frame compression failed: ", LZ4F_getErrorName(n));
  }
  return static_cast<int64_t>(n);
}

Lz4FrameDecompressor::~Lz4FrameDecompressor() {
  if (ctx_ != nullptr) LZ4F_freeDecompressionContext(ctx_);
}

Result<StreamStep> Lz4FrameDecompressor::DecompressStep(const uint8_t* in, size_t in_size,
                                                        uint8_t* out, size_t out_size) {
  if (ctx_ == nullptr) {
    LZ4F_dctx* ctx = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION)) || ctx == nullptr) {
      return Status::OutOfMemory("cannot create an LZ4 decompression context");
    }
    ctx_ = ctx;
  }
  size_t dst = out_size;
  size_t src = in_size;
  const size_t ret = LZ4F_decompress(ctx_, out, &dst, in, &src, nullptr);
  if (LZ4F_isError(ret)) {
    return Status::Invalid("corrupt LZ4 frame: ", LZ4F_getErrorName(ret));
  }
  return StreamStep{src, dst, ret == 0};
}

}  // namespace quiver::compression::internal
