// BROTLI: a raw brotli stream (RFC 7932), quality = level, window 22 (the
// library default, as Arrow C++ uses). Compression is the library's one-shot
// call; decompression drives a fresh decoder instance through
// BrotliDecoderDecompressStream so that it can tell "more output than the
// page header says" from "truncated input" and reject trailing bytes (brotli
// 1.0 has no way to reset a decoder for reuse).
#include <brotli/decode.h>
#include <brotli/encode.h>

#include "quiver/compression/codec_internal.h"

namespace quiver::compression::internal {

namespace {

class BrotliCodec final : public Codec {
 public:
  explicit BrotliCodec(int level) : Codec(CompressionCodec::BROTLI, level) {}

  int64_t MaxCompressedLength(int64_t input_len) const override {
    const size_t bound = BrotliEncoderMaxCompressedSize(static_cast<size_t>(input_len));
    // 0 means "too large to bound": the formula below is the same bound.
    if (bound == 0) return input_len + (input_len >> 14) * 4 + 6;
    return static_cast<int64_t>(bound);
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                           int64_t out_capacity) override {
    QUIVER_RETURN_NOT_OK(CheckCompressSizes(codec(), in_len, out_capacity));
    size_t encoded = static_cast<size_t>(out_capacity);
    if (BrotliEncoderCompress(level(), BROTLI_DEFAULT_WINDOW, BROTLI_DEFAULT_MODE,
                              static_cast<size_t>(in_len), NonNull(in), &encoded,
                              NonNull(out)) != BROTLI_TRUE) {
      return OutputTooSmall(codec(), in_len, out_capacity, MaxCompressedLength(in_len));
    }
    return static_cast<int64_t>(encoded);
  }

  Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                             int64_t out_len) override {
    QUIVER_RETURN_NOT_OK(CheckDecompressSizes(codec(), in_len, out_len));
    if (in_len == 0 && out_len == 0) return 0;
    BrotliDecoderState* state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
    if (state == nullptr) return Status::OutOfMemory("BrotliDecoderCreateInstance failed");
    size_t avail_in = static_cast<size_t>(in_len);
    const uint8_t* next_in = NonNull(in);
    size_t avail_out = static_cast<size_t>(out_len);
    uint8_t* next_out = NonNull(out);
    const BrotliDecoderResult result =
        BrotliDecoderDecompressStream(state, &avail_in, &next_in, &avail_out, &next_out, nullptr);
    const BrotliDecoderErrorCode error = BrotliDecoderGetErrorCode(state);
    BrotliDecoderDestroyInstance(state);
    switch (result) {
      case BROTLI_DECODER_RESULT_SUCCESS:
        break;
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
        return Status::Invalid("BROTLI decompression: data decompresses to more than the ",
                               out_len, " bytes the page header says");
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        return Status::Invalid("BROTLI decompression: truncated stream (", in_len,
                               " input bytes end after ", out_len - avail_out, " of ",
                               out_len, " output bytes)");
      default:
        return Status::Invalid("BROTLI decompression: corrupt data: ",
                               BrotliDecoderErrorString(error), " (", in_len,
                               " input bytes)");
    }
    if (avail_in != 0) {
      return Status::Invalid("BROTLI decompression: ", avail_in,
                             " unexpected bytes after the end of the stream");
    }
    const int64_t produced = out_len - static_cast<int64_t>(avail_out);
    if (produced != out_len) return DecompressedSizeMismatch(codec(), produced, out_len);
    return out_len;
  }
};

}  // namespace

std::unique_ptr<Codec> MakeBrotliCodec(int level) { return std::make_unique<BrotliCodec>(level); }

}  // namespace quiver::compression::internal
