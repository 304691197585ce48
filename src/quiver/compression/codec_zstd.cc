// ZSTD: one zstd frame per page (readers also accept several concatenated
// frames and skippable frames, as libzstd does), through the shared context
// classes of contexts_internal.h: the compression and decompression
// contexts are created on first use and reused, since per-call context
// creation dominates the cost of compressing small pages.
#include <zstd.h>

#include "quiver/compression/codec_internal.h"
#include "quiver/compression/contexts_internal.h"

namespace quiver::compression::internal {

namespace {

class ZstdCodec final : public Codec {
 public:
  explicit ZstdCodec(int level) : Codec(CompressionCodec::ZSTD, level) {}

  int64_t MaxCompressedLength(int64_t input_len) const override {
    return ZstdCompressor::MaxCompressedLength(input_len);
  }

  Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                             int64_t out_len) override {
    QUIVER_RETURN_NOT_OK(CheckDecompressSizes(codec(), in_len, out_len));
    if (in_len == 0 && out_len == 0) return 0;
    Result<int64_t> produced = decompressor_.Decompress(in, in_len, out, out_len);
    if (!produced.ok()) {
      if (produced.status().IsCapacityError()) {
        return Status::Invalid("ZSTD decompression: data decompresses to more than the ",
                               out_len, " bytes the page header says");
      }
      if (produced.status().IsInvalid()) {
        return Status::Invalid("ZSTD decompression failed: ", produced.status().message(), " (",
                               in_len, " input bytes, ", out_len, " expected)");
      }
      return produced.status();
    }
    if (*produced != out_len) return DecompressedSizeMismatch(codec(), *produced, out_len);
    return out_len;
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                           int64_t out_capacity) override {
    QUIVER_RETURN_NOT_OK(CheckCompressSizes(codec(), in_len, out_capacity));
    Result<int64_t> written = compressor_.Compress(in, in_len, out, out_capacity, level());
    // The context reports a full output buffer as CapacityError.
    if (written.ok() || !written.status().IsCapacityError()) return written;
    return OutputTooSmall(codec(), in_len, out_capacity, MaxCompressedLength(in_len));
  }

 private:
  ZstdCompressor compressor_;
  ZstdDecompressor decompressor_;
};

}  // namespace

Result<std::optional<int64_t>> ZstdDecompressedSize(const uint8_t* data, int64_t size) {
  const unsigned long long content = ZSTD_getFrameContentSize(data, static_cast<size_t>(size));
  if (content == ZSTD_CONTENTSIZE_ERROR) {
    return Status::Invalid("ZSTD data: corrupt or truncated frame header (", size,
                           " input bytes)");
  }
  if (content == ZSTD_CONTENTSIZE_UNKNOWN) return std::optional<int64_t>();
  // Another frame after the first adds to the size (an error here is a
  // truncated first frame: then it is the only one).
  const size_t frame = ZSTD_findFrameCompressedSize(data, static_cast<size_t>(size));
  if (!ZSTD_isError(frame) && frame < static_cast<size_t>(size)) return std::optional<int64_t>();
  if (content > static_cast<unsigned long long>(std::numeric_limits<int64_t>::max())) {
    return Status::Invalid("ZSTD data: frame header states ", content, " bytes");
  }
  return std::optional<int64_t>(static_cast<int64_t>(content));
}

std::unique_ptr<Codec> MakeZstdCodec(int level) { return std::make_unique<ZstdCodec>(level); }

}  // namespace quiver::compression::internal
