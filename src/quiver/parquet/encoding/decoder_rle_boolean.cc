// RLE booleans behind the decoder interface (decoder_internal.h): Encodings.md, "Run
// Length Encoding / Bit-Packing Hybrid (RLE = 3)", for BOOLEAN values in
// data pages v1 and v2: a 4-byte little-endian length, then the
// RLE/bit-packed hybrid of bit width 1 (rle_bit_packed.h decodes it). Runs
// let a few bytes stand for many values, so the count is checked as the
// values are decoded: a page that ends early is Invalid.
#include <algorithm>

#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet::internal {
namespace {

class RleBoolDecoder final : public BooleanDecoder {
 public:
  RleBoolDecoder() : BooleanDecoder(kType, format::Encoding::kRle) {}

  // Runs may stand for any count: checked as the values are decoded.
  Status StartPage(int64_t, const uint8_t* data, int64_t size) override {
    decoder_ = RleBitPackedDecoder();
    auto length = RleBitPackedDecoder::ReadLengthPrefix(data, size);
    if (!length.ok()) return length.status().WithContext("RLE BOOLEAN page: ");
    decoder_ = RleBitPackedDecoder(data + RleBitPackedEncoder::kLengthPrefixSize, *length, 1);
    return Status::OK();
  }

  Status Decode(int64_t n, bool* out) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    // 0 or 1 only: a run value wider than bit width 1 stops the decoder.
    const int64_t got = decoder_.GetBatch(reinterpret_cast<uint8_t*>(out), n);
    return Finish(n, got);
  }

  Status Skip(int64_t n) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    return Finish(n, decoder_.Skip(n));
  }

  Status Decode(int64_t n, uint8_t* out_bits, int64_t out_offset) override {
    QUIVER_RETURN_NOT_OK(CheckWanted(n));
    uint8_t bytes[kScratchValues];
    for (int64_t done = 0; done < n;) {
      const int64_t m = std::min(n - done, kScratchValues);
      const int64_t got = decoder_.GetBatch(bytes, m);
      if (got != m) return Finish(n, done + got);
      // 64 values a word of output.
      for (int64_t i = 0; i < m; i += 64) {
        const int k = static_cast<int>(std::min<int64_t>(64, m - i));
        uint64_t bits = 0;
        for (int j = 0; j < k; ++j) bits |= uint64_t{bytes[i + j]} << j;
        bitmap::StoreBits(out_bits, out_offset + done + i, k, bits);
      }
      done += m;
    }
    return Finish(n, n);
  }

 private:
  Status Finish(int64_t n, int64_t got) {
    if (got == n) {
      values_left_ -= n;
      return Status::OK();
    }
    Status st = decoder_.status().ok() ? EndedEarly(n, got)
                                       : decoder_.status().WithContext("RLE BOOLEAN page: ");
    values_left_ = 0;
    return st;
  }

  RleBitPackedDecoder decoder_;
};

}  // namespace

std::unique_ptr<Decoder> MakeRleBooleanDecoder() { return std::make_unique<RleBoolDecoder>(); }

}  // namespace quiver::parquet::internal
