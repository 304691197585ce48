// SNAPPY: a raw snappy block (varint uncompressed length + elements), through
// snappy's C API. snappy_uncompress() validates every copy against the
// length in the block header, which is checked against out_len first, so
// corrupt input can never write past the output.
#include <snappy-c.h>

#include "quiver/compression/codec_internal.h"

namespace quiver::compression::internal {

namespace {

class SnappyCodec final : public Codec {
 public:
  SnappyCodec() : Codec(CompressionCodec::SNAPPY, 0) {}

  int64_t MaxCompressedLength(int64_t input_len) const override {
    return static_cast<int64_t>(snappy_max_compressed_length(static_cast<size_t>(input_len)));
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                           int64_t out_capacity) override {
    QUIVER_RETURN_NOT_OK(CheckCompressSizes(codec(), in_len, out_capacity));
    size_t out_len = static_cast<size_t>(out_capacity);
    const snappy_status st =
        snappy_compress(reinterpret_cast<const char*>(NonNull(in)), static_cast<size_t>(in_len),
                        reinterpret_cast<char*>(NonNull(out)), &out_len);
    if (st == SNAPPY_BUFFER_TOO_SMALL) {
      return OutputTooSmall(codec(), in_len, out_capacity, MaxCompressedLength(in_len));
    }
    if (st != SNAPPY_OK) return Status::IOError("SNAPPY compression failed (status ", st, ")");
    return static_cast<int64_t>(out_len);
  }

  Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                             int64_t out_len) override {
    QUIVER_RETURN_NOT_OK(CheckDecompressSizes(codec(), in_len, out_len));
    if (in_len == 0 && out_len == 0) return 0;
    const char* src = reinterpret_cast<const char*>(NonNull(in));
    size_t length = 0;
    if (snappy_uncompressed_length(src, static_cast<size_t>(in_len), &length) != SNAPPY_OK) {
      return Status::Invalid("SNAPPY decompression: corrupt block header (", in_len,
                             " input bytes)");
    }
    if (length != static_cast<size_t>(out_len)) {
      return DecompressedSizeMismatch(codec(), static_cast<int64_t>(length), out_len);
    }
    size_t written = static_cast<size_t>(out_len);
    if (snappy_uncompress(src, static_cast<size_t>(in_len), reinterpret_cast<char*>(NonNull(out)),
                          &written) != SNAPPY_OK) {
      return Status::Invalid("SNAPPY decompression: corrupt data (", in_len,
                             " input bytes, ", out_len, " expected)");
    }
    if (written != static_cast<size_t>(out_len)) {
      return DecompressedSizeMismatch(codec(), static_cast<int64_t>(written), out_len);
    }
    return out_len;
  }
};

}  // namespace

Result<std::optional<int64_t>> SnappyDecompressedSize(const uint8_t* data, int64_t size) {
  size_t length = 0;
  if (snappy_uncompressed_length(reinterpret_cast<const char*>(data), static_cast<size_t>(size),
                                 &length) != SNAPPY_OK) {
    return Status::Invalid("SNAPPY data: corrupt block header (", size, " input bytes)");
  }
  return std::optional<int64_t>(static_cast<int64_t>(length));
}

std::unique_ptr<Codec> MakeSnappyCodec() { return std::make_unique<SnappyCodec>(); }

}  // namespace quiver::compression::internal
