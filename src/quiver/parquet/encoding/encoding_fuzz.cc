// libFuzzer target for every decoder of this module: the first input byte
// picks the decoder (and a bit width / value width), the rest is its data.
// Built by the fuzz preset (clang, libFuzzer, ASan+UBSan) and run by
// `make fuzz` over fuzz/corpus/quiver_parquet_encoding_fuzz/.
// The decoders must return errors, never crash or read outside the input.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "quiver/parquet/encoding/byte_stream_split.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/delta_byte_array.h"
#include "quiver/parquet/encoding/delta_length_byte_array.h"
#include "quiver/parquet/encoding/dictionary_indices.h"
#include "quiver/parquet/encoding/plain.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"

namespace {

using namespace quiver::parquet;  // NOLINT(build/namespaces)

constexpr int64_t kBatch = 97;         // odd, to cross block boundaries
constexpr int64_t kMaxValues = 1 << 16;  // stop decoding huge (legitimate) runs

template <typename Decoder, typename T>
void DrainResult(Decoder& decoder) {
  std::vector<T> out(kBatch);
  int64_t total = 0;
  while (decoder.values_left() > 0 && total < kMaxValues) {
    auto got = decoder.GetBatch(out.data(), kBatch);
    if (!got.ok() || *got == 0) return;
    total += *got;
  }
}

void Fuzz(const uint8_t* data, size_t size) {
  if (size < 1) return;
  const uint8_t selector = data[0];
  const uint8_t* p = data + 1;
  const auto n = static_cast<int64_t>(size - 1);
  switch (selector % 9) {
    case 0: {  // RLE / bit-packed hybrid, width from the selector
      RleBitPackedDecoder decoder(p, n, (selector / 9) % 33);
      std::vector<uint32_t> out(kBatch);
      for (int64_t total = 0; total < kMaxValues;) {
        const int64_t got = decoder.GetBatch(out.data(), kBatch);
        if (got == 0) break;
        total += got;
      }
      break;
    }
    case 1: {
      auto decoder = MakeDictionaryIndexDecoder(p, n);
      if (decoder.ok()) {
        std::vector<int32_t> out(kBatch);
        for (int64_t total = 0, got = 1; got > 0 && total < kMaxValues; total += got) {
          got = decoder->GetBatch(out.data(), kBatch);
        }
      }
      break;
    }
    case 2: {
      DeltaBinaryPackedDecoder<int32_t> decoder;
      if (decoder.Init(p, n).ok()) DrainResult<decltype(decoder), int32_t>(decoder);
      break;
    }
    case 3: {
      DeltaBinaryPackedDecoder<int64_t> decoder;
      if (decoder.Init(p, n).ok()) DrainResult<decltype(decoder), int64_t>(decoder);
      break;
    }
    case 4: {
      DeltaLengthByteArrayDecoder decoder;
      if (decoder.Init(p, n).ok()) DrainResult<decltype(decoder), std::string_view>(decoder);
      break;
    }
    case 5: {
      DeltaByteArrayDecoder decoder;
      if (decoder.Init(p, n).ok()) DrainResult<decltype(decoder), std::string_view>(decoder);
      break;
    }
    case 6: {
      ByteStreamSplitDecoder decoder;
      const int width = 1 + (selector / 9) % 16;
      if (decoder.Init(p, n - n % width, width).ok()) {
        std::vector<uint8_t> out(static_cast<size_t>(kBatch * width));
        while (decoder.GetBatch(out.data(), kBatch) > 0) {
        }
      }
      break;
    }
    case 7: {
      PlainByteArrayDecoder decoder(p, n);
      std::vector<std::string_view> out(1);
      while (!decoder.at_end() && decoder.Decode(1, out.data()).ok()) {
      }
      break;
    }
    default: {
      const int width = 1 + (selector / 9) % 16;
      PlainFixedWidthDecoder decoder(p, n, width);
      std::vector<uint8_t> out(static_cast<size_t>(kBatch * width));
      (void)decoder.Decode(std::min<int64_t>(kBatch, decoder.values_left() + 1), out.data());
      PlainBooleanDecoder booleans(p, n);
      std::vector<uint8_t> bits(static_cast<size_t>(n) + 1);
      (void)booleans.Decode(std::min<int64_t>(8 * n, 8 * n + (selector & 1)), bits.data(), 3);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Fuzz(data, size);
  return 0;
}
