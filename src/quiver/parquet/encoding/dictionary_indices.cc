#include "quiver/parquet/encoding/dictionary_indices.h"

#include "quiver/util/bit_util.h"

#include <algorithm>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace quiver::parquet {

int MinBitWidth(int64_t num_dictionary_values) {
  if (num_dictionary_values <= 0) return 0;
  if (num_dictionary_values == 1) return 1;
  return bit_util::Log2(static_cast<uint64_t>(num_dictionary_values));
}

Result<int64_t> EncodeDictionaryIndices(const int32_t* indices, int64_t num_indices,
                                        int bit_width, MutableBuffer* out) {
  if (bit_width < 0 || bit_width > RleBitPackedEncoder::kMaxBitWidth) {
    return Status::Invalid("dictionary indices: bit width ", bit_width, " is outside [0, 32]");
  }
  QUIVER_RETURN_NOT_OK(
      out->Reserve(1 + RleBitPackedEncoder::MaxEncodedSize(bit_width, num_indices)));
  out->UnsafeAppend(static_cast<uint8_t>(bit_width));
  RleBitPackedEncoder encoder(bit_width, out);
  QUIVER_RETURN_NOT_OK(encoder.PutBatch(indices, num_indices));
  QUIVER_ASSIGN_OR_RAISE(const int64_t bytes, encoder.Flush());
  return 1 + bytes;
}

Result<RleBitPackedDecoder> MakeDictionaryIndexDecoder(const uint8_t* data, int64_t size) {
  if (size < 1) return Status::Invalid("dictionary indices: missing the bit-width byte");
  const int bit_width = data[0];
  if (bit_width > RleBitPackedEncoder::kMaxBitWidth) {
    return Status::Invalid("dictionary indices: bit width ", bit_width, " is more than 32");
  }
  return RleBitPackedDecoder(data + 1, size - 1, bit_width);
}

uint32_t MaxIndex(const uint32_t* indices, int64_t n) {
  uint32_t max = 0;
  int64_t i = 0;
#if defined(__SSE4_1__)
  __m128i m0 = _mm_setzero_si128();
  __m128i m1 = _mm_setzero_si128();
  for (; i + 8 <= n; i += 8) {
    m0 = _mm_max_epu32(m0, _mm_loadu_si128(reinterpret_cast<const __m128i*>(indices + i)));
    m1 = _mm_max_epu32(m1, _mm_loadu_si128(reinterpret_cast<const __m128i*>(indices + i + 4)));
  }
  m0 = _mm_max_epu32(m0, m1);
  m0 = _mm_max_epu32(m0, _mm_shuffle_epi32(m0, _MM_SHUFFLE(1, 0, 3, 2)));
  m0 = _mm_max_epu32(m0, _mm_shuffle_epi32(m0, _MM_SHUFFLE(2, 3, 0, 1)));
  max = static_cast<uint32_t>(_mm_cvtsi128_si32(m0));
#endif
  for (; i < n; ++i) max = std::max(max, indices[i]);
  return max;
}

}  // namespace quiver::parquet
