#include "quiver/parquet/encoding/big_endian_decimal.h"

namespace quiver::parquet::internal {

void BigEndianToDecimal(const uint8_t* in, int64_t length, uint8_t* out, int out_width) {
  const bool negative = length > 0 && (in[0] & 0x80) != 0;
  for (int64_t i = 0; i < length; ++i) out[i] = in[length - 1 - i];
  std::memset(out + length, negative ? 0xFF : 0, static_cast<size_t>(out_width - length));
}

namespace {

template <int kOutWidth>
void Wide(const uint8_t* in, int length, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    WideBigEndianToDecimal<kOutWidth>(in + i * length, length, out + i * kOutWidth);
  }
}

}  // namespace

void BigEndianToDecimals(const uint8_t* in, int length, int64_t n, uint8_t* out, int out_width) {
  int64_t wide = 0;
  if (length >= 1 && length <= 16 && length <= out_width &&
      (out_width == 4 || out_width == 8 || out_width == 16)) {
    // Value i may load 16 bytes from i * length: i <= n - ceil(16 / length) - 1 keeps them in.
    wide = n - (16 + length - 1) / length;
    if (wide < 0) wide = 0;
    switch (out_width) {
      case 4: Wide<4>(in, length, wide, out); break;
      case 8: Wide<8>(in, length, wide, out); break;
      default: Wide<16>(in, length, wide, out); break;
    }
  }
  for (int64_t i = wide; i < n; ++i) {
    BigEndianToDecimal(in + i * length, length, out + i * out_width, out_width);
  }
}

}  // namespace quiver::parquet::internal
