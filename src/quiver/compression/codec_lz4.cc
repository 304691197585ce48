// LZ4_RAW: one bare LZ4 block (no frame), as the Parquet spec defines it.
// Levels 1..2 use the fast compressor, 3..12 LZ4-HC, as Arrow C++ does; the
// compression states are allocated once and reused (the *_extState APIs).
//
// LZ4 (Parquet codec 5, deprecated): Hadoop's framing, a sequence of
// [big-endian u32 uncompressed size][big-endian u32 compressed size][block].
// Only decompression is offered; like Arrow C++ it falls back to reading a
// bare LZ4 block when the Hadoop framing does not fit (old parquet-cpp files).
#include <lz4.h>
#include <lz4hc.h>

#include <memory>

#include "quiver/compression/codec_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::compression::internal {

namespace {

int64_t LoadBigEndian32(const uint8_t* p) { return bit_util::LoadBigEndian<uint32_t>(p); }

// Decompresses one bare LZ4 block into exactly out_len bytes; returns the
// number of bytes produced, or -1 if the block is corrupt or does not fit.
int64_t DecompressBlock(const uint8_t* in, int64_t in_len, uint8_t* out, int64_t out_len) {
  return LZ4_decompress_safe(reinterpret_cast<const char*>(NonNull(in)),
                             reinterpret_cast<char*>(NonNull(out)), static_cast<int>(in_len),
                             static_cast<int>(out_len));
}

class Lz4RawCodec final : public Codec {
 public:
  explicit Lz4RawCodec(int level) : Codec(CompressionCodec::LZ4_RAW, level) {}

  int64_t MaxCompressedLength(int64_t input_len) const override {
    if (input_len <= LZ4_MAX_INPUT_SIZE) {
      return LZ4_compressBound(static_cast<int>(input_len));
    }
    return input_len + input_len / 255 + 16;  // LZ4_COMPRESSBOUND's formula
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                           int64_t out_capacity) override {
    QUIVER_RETURN_NOT_OK(CheckCompressSizes(codec(), in_len, out_capacity));
    if (in_len > LZ4_MAX_INPUT_SIZE) {
      return Status::Invalid("LZ4_RAW compression: input of ", in_len,
                             " bytes exceeds LZ4's limit of ", LZ4_MAX_INPUT_SIZE);
    }
    const int capacity =
        static_cast<int>(out_capacity < kMaxCodecBufferSize ? out_capacity : kMaxCodecBufferSize);
    const char* src = reinterpret_cast<const char*>(NonNull(in));
    char* dst = reinterpret_cast<char*>(NonNull(out));
    int written;
    if (level() < LZ4HC_CLEVEL_MIN) {
      if (!fast_state_) fast_state_ = std::make_unique<uint64_t[]>(Words(LZ4_sizeofState()));
      written = LZ4_compress_fast_extState(fast_state_.get(), src, dst, static_cast<int>(in_len),
                                           capacity, /*acceleration=*/1);
    } else {
      if (!hc_state_) hc_state_ = std::make_unique<uint64_t[]>(Words(LZ4_sizeofStateHC()));
      written = LZ4_compress_HC_extStateHC(hc_state_.get(), src, dst, static_cast<int>(in_len),
                                           capacity, level());
    }
    if (written <= 0) {
      return OutputTooSmall(codec(), in_len, out_capacity, MaxCompressedLength(in_len));
    }
    return written;
  }

  Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                             int64_t out_len) override {
    QUIVER_RETURN_NOT_OK(CheckDecompressSizes(codec(), in_len, out_len));
    if (in_len == 0 && out_len == 0) return 0;
    const int64_t produced = DecompressBlock(in, in_len, out, out_len);
    if (produced < 0) {
      return Status::Invalid("LZ4_RAW decompression: corrupt block, or it decompresses to more "
                             "than the ", out_len, " bytes the page header says (", in_len,
                             " input bytes)");
    }
    if (produced != out_len) return DecompressedSizeMismatch(codec(), produced, out_len);
    return out_len;
  }

 private:
  static size_t Words(int bytes) { return (static_cast<size_t>(bytes) + 7) / 8; }

  // uint64_t storage: the states must be 8-byte aligned.
  std::unique_ptr<uint64_t[]> fast_state_;
  std::unique_ptr<uint64_t[]> hc_state_;
};

class Lz4HadoopCodec final : public Codec {
 public:
  Lz4HadoopCodec() : Codec(CompressionCodec::LZ4, 0) {}

  int64_t MaxCompressedLength(int64_t input_len) const override {
    return kPrefixLength + (input_len <= LZ4_MAX_INPUT_SIZE
                                ? LZ4_compressBound(static_cast<int>(input_len))
                                : input_len + input_len / 255 + 16);
  }

  Result<int64_t> Compress(const uint8_t*, int64_t, uint8_t*, int64_t) override {
    return Status::NotImplemented(
        "writing the deprecated Hadoop-framed LZ4 codec is not supported; use LZ4_RAW "
        "(compression 'lz4' or 'lz4_raw')");
  }

  Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                             int64_t out_len) override {
    QUIVER_RETURN_NOT_OK(CheckDecompressSizes(codec(), in_len, out_len));
    if (in_len == 0 && out_len == 0) return 0;
    if (TryHadoopFrames(in, in_len, out, out_len)) return out_len;
    const int64_t produced = DecompressBlock(in, in_len, out, out_len);
    if (produced == out_len) return out_len;
    return Status::Invalid("LZ4 (Hadoop) decompression: data is neither Hadoop-framed LZ4 nor a "
                           "bare LZ4 block decompressing to the ", out_len,
                           " bytes the page header says (", in_len, " input bytes)");
  }

 private:
  static constexpr int64_t kPrefixLength = 8;

  // True if in[0, in_len) is a sequence of Hadoop frames decompressing to
  // exactly out_len bytes in all.
  static bool TryHadoopFrames(const uint8_t* in, int64_t in_len, uint8_t* out,
                              int64_t out_len) {
    int64_t pos = 0;
    int64_t produced = 0;
    while (pos < in_len) {
      if (in_len - pos < kPrefixLength) return false;
      const int64_t raw_size = LoadBigEndian32(in + pos);
      const int64_t block_size = LoadBigEndian32(in + pos + 4);
      pos += kPrefixLength;
      if (block_size > in_len - pos || raw_size > out_len - produced) return false;
      if (DecompressBlock(in + pos, block_size, out + produced, raw_size) != raw_size) {
        return false;
      }
      pos += block_size;
      produced += raw_size;
    }
    return produced == out_len;
  }
};

}  // namespace

std::unique_ptr<Codec> MakeLz4RawCodec(int level) { return std::make_unique<Lz4RawCodec>(level); }
std::unique_ptr<Codec> MakeLz4HadoopCodec() { return std::make_unique<Lz4HadoopCodec>(); }

}  // namespace quiver::compression::internal
