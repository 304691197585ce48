// ZSTD: one zstd frame per page (readers also accept several concatenated
// frames and skippable frames, as libzstd does). The compression and
// decompression contexts are created on first use and reused: per-call
// context creation dominates the cost of compressing small pages.
#include <zstd.h>
#include <zstd_errors.h>

#include "quiver/parquet/compression/codec_internal.h"

namespace quiver::parquet::internal {

namespace {

class ZstdCodec final : public Codec {
 public:
  explicit ZstdCodec(int level) : Codec(CompressionCodec::ZSTD, level) {}
  ~ZstdCodec() override {
    ZSTD_freeCCtx(cctx_);
    ZSTD_freeDCtx(dctx_);
  }

  int64_t MaxCompressedLength(int64_t input_len) const override {
    return static_cast<int64_t>(ZSTD_compressBound(static_cast<size_t>(input_len)));
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                           int64_t out_capacity) override {
    QUIVER_RETURN_NOT_OK(CheckCompressSizes(codec(), in_len, out_capacity));
    if (cctx_ == nullptr) {
      cctx_ = ZSTD_createCCtx();
      if (cctx_ == nullptr) return Status::OutOfMemory("ZSTD_createCCtx failed");
    }
    const size_t ret = ZSTD_compressCCtx(cctx_, NonNull(out), static_cast<size_t>(out_capacity),
                                         NonNull(in), static_cast<size_t>(in_len), level());
    if (ZSTD_isError(ret)) {
      if (ZSTD_getErrorCode(ret) == ZSTD_error_dstSize_tooSmall) {
        return OutputTooSmall(codec(), in_len, out_capacity, MaxCompressedLength(in_len));
      }
      return Status::IOError("ZSTD compression failed: ", ZSTD_getErrorName(ret));
    }
    return static_cast<int64_t>(ret);
  }

  Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                             int64_t out_len) override {
    QUIVER_RETURN_NOT_OK(CheckDecompressSizes(codec(), in_len, out_len));
    if (in_len == 0 && out_len == 0) return 0;
    if (dctx_ == nullptr) {
      dctx_ = ZSTD_createDCtx();
      if (dctx_ == nullptr) return Status::OutOfMemory("ZSTD_createDCtx failed");
    }
    const size_t ret = ZSTD_decompressDCtx(dctx_, NonNull(out), static_cast<size_t>(out_len),
                                           NonNull(in), static_cast<size_t>(in_len));
    if (ZSTD_isError(ret)) {
      if (ZSTD_getErrorCode(ret) == ZSTD_error_dstSize_tooSmall) {
        return Status::Invalid("ZSTD decompression: data decompresses to more than the ",
                               out_len, " bytes the page header says");
      }
      return Status::Invalid("ZSTD decompression failed: ", ZSTD_getErrorName(ret), " (",
                             in_len, " input bytes, ", out_len, " expected)");
    }
    if (ret != static_cast<size_t>(out_len)) {
      return DecompressedSizeMismatch(codec(), static_cast<int64_t>(ret), out_len);
    }
    return out_len;
  }

 private:
  ZSTD_CCtx* cctx_ = nullptr;
  ZSTD_DCtx* dctx_ = nullptr;
};

}  // namespace

std::unique_ptr<Codec> MakeZstdCodec(int level) { return std::make_unique<ZstdCodec>(level); }

}  // namespace quiver::parquet::internal
