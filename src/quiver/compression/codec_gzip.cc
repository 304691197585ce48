// GZIP: Parquet's GZIP is a gzip stream (RFC 1952): deflate with a gzip
// header and trailer, zlib windowBits 15 + 16. Reading auto-detects gzip or
// zlib (RFC 1950) streams (windowBits 15 + 32) as Arrow C++ does, and also
// accepts several concatenated gzip members (as `gzip -d` does); any other
// bytes after the end of the stream are Invalid.
//
// The deflate and inflate states are initialised on first use and reset for
// each page (deflateReset / inflateReset keep the allocations).
#include <zlib.h>

#include <cstring>

#include "quiver/compression/codec_internal.h"

namespace quiver::compression::internal {

namespace {

constexpr int kWindowBits = 15;
constexpr int kGzipWrapper = 16;   // windowBits + 16: write a gzip wrapper
constexpr int kDetectWrapper = 32;  // windowBits + 32: read gzip or zlib
constexpr int kMemLevel = 8;       // zlib's default

Status ZlibError(const char* what, int ret, const z_stream& s) {
  return Status::IOError("GZIP ", what, " failed: ", s.msg != nullptr ? s.msg : zError(ret),
                         " (zlib code ", ret, ")");
}

class GzipCodec final : public Codec {
 public:
  explicit GzipCodec(int level) : Codec(CompressionCodec::GZIP, level) {}
  ~GzipCodec() override {
    if (deflate_ready_) deflateEnd(&deflate_);
    if (inflate_ready_) inflateEnd(&inflate_);
  }

  int64_t MaxCompressedLength(int64_t input_len) const override {
    // zlib's compressBound() (zlib wrapper, 6 bytes) plus the 12 more bytes of
    // the gzip wrapper (18 in all), plus slack as Arrow adds (ARROW-3514).
    const auto n = static_cast<uint64_t>(input_len);
    return static_cast<int64_t>(n + (n >> 12) + (n >> 14) + (n >> 25) + 13 + 12 + 12);
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                           int64_t out_capacity) override {
    QUIVER_RETURN_NOT_OK(CheckCompressSizes(codec(), in_len, out_capacity));
    if (!deflate_ready_) {
      std::memset(&deflate_, 0, sizeof(deflate_));
      const int ret = deflateInit2(&deflate_, level(), Z_DEFLATED, kWindowBits + kGzipWrapper,
                                   kMemLevel, Z_DEFAULT_STRATEGY);
      if (ret != Z_OK) return ZlibError("deflateInit2", ret, deflate_);
      deflate_ready_ = true;
    } else {
      const int ret = deflateReset(&deflate_);
      if (ret != Z_OK) return ZlibError("deflateReset", ret, deflate_);
    }
    const int64_t capacity = out_capacity < kMaxCodecBufferSize ? out_capacity
                                                                 : kMaxCodecBufferSize;
    deflate_.next_in = const_cast<Bytef*>(NonNull(in));
    deflate_.avail_in = static_cast<uInt>(in_len);
    deflate_.next_out = NonNull(out);
    deflate_.avail_out = static_cast<uInt>(capacity);
    const int ret = deflate(&deflate_, Z_FINISH);
    if (ret == Z_OK || ret == Z_BUF_ERROR) {
      return OutputTooSmall(codec(), in_len, out_capacity, MaxCompressedLength(in_len));
    }
    if (ret != Z_STREAM_END) return ZlibError("deflate", ret, deflate_);
    return capacity - static_cast<int64_t>(deflate_.avail_out);
  }

  Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                             int64_t out_len) override {
    QUIVER_RETURN_NOT_OK(CheckDecompressSizes(codec(), in_len, out_len));
    if (in_len == 0 && out_len == 0) return 0;
    if (!inflate_ready_) {
      std::memset(&inflate_, 0, sizeof(inflate_));
      const int ret = inflateInit2(&inflate_, kWindowBits + kDetectWrapper);
      if (ret != Z_OK) return ZlibError("inflateInit2", ret, inflate_);
      inflate_ready_ = true;
    } else {
      const int ret = inflateReset(&inflate_);
      if (ret != Z_OK) return ZlibError("inflateReset", ret, inflate_);
    }
    inflate_.next_in = const_cast<Bytef*>(NonNull(in));
    inflate_.avail_in = static_cast<uInt>(in_len);
    inflate_.next_out = NonNull(out);
    inflate_.avail_out = static_cast<uInt>(out_len);
    while (true) {
      const int ret = inflate(&inflate_, Z_FINISH);
      if (ret == Z_STREAM_END) {
        if (inflate_.avail_in == 0) break;
        // Another gzip member follows (magic 1f 8b)?
        if (inflate_.avail_in >= 2 && inflate_.next_in[0] == 0x1f &&
            inflate_.next_in[1] == 0x8b) {
          const int reset = inflateReset(&inflate_);
          if (reset != Z_OK) return ZlibError("inflateReset", reset, inflate_);
          continue;
        }
        return Status::Invalid("GZIP decompression: ", inflate_.avail_in,
                               " unexpected bytes after the end of the stream (", in_len,
                               " input bytes)");
      }
      if (ret == Z_OK || ret == Z_BUF_ERROR) {
        if (inflate_.avail_out == 0) {
          return Status::Invalid("GZIP decompression: data decompresses to more than the ",
                                 out_len, " bytes the page header says");
        }
        return Status::Invalid("GZIP decompression: truncated stream (", in_len,
                               " input bytes end after ", out_len - inflate_.avail_out,
                               " of ", out_len, " output bytes)");
      }
      if (ret == Z_MEM_ERROR) return Status::OutOfMemory("GZIP decompression: out of memory");
      return Status::Invalid("GZIP decompression: corrupt data: ",
                             inflate_.msg != nullptr ? inflate_.msg : zError(ret),
                             " (zlib code ", ret, ", ", in_len, " input bytes)");
    }
    const int64_t produced = out_len - static_cast<int64_t>(inflate_.avail_out);
    if (produced != out_len) return DecompressedSizeMismatch(codec(), produced, out_len);
    return out_len;
  }

 private:
  z_stream deflate_;
  z_stream inflate_;
  bool deflate_ready_ = false;
  bool inflate_ready_ = false;
};

}  // namespace

std::unique_ptr<Codec> MakeGzipCodec(int level) { return std::make_unique<GzipCodec>(level); }

}  // namespace quiver::compression::internal
