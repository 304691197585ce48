#include "quiver/csv/scan_internal.h"

#include <cstring>

#include "quiver/compute/simd_level.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace quiver::csv::internal {

namespace {

// The resolution shared by both versions: from the raw masks of one chunk,
// the structural mask, with the state carried to the next chunk.
inline uint64_t Resolve(uint64_t quote, uint64_t special, uint64_t inside, uint64_t valid,
                        ScanState* state) {
  // `inside` = prefix XOR of `quote` (bit i: an odd number of quotes at or
  // before i), flipped when the chunk starts inside quotes.
  inside ^= state->in_quote;
  const uint64_t structural = special & ~inside;
  const uint64_t open = quote & inside;
  const uint64_t close = quote & ~inside;
  const uint64_t before_ok = ((structural | close) << 1) | state->prev_ok;
  const uint64_t after_ok = ((structural | open | ~valid) >> 1) | (1ULL << 63);
  uint64_t bad = (open & ~before_ok) | (close & ~after_ok);
  if (state->pending_close & ~((structural | open) & 1)) bad |= 1;
  if (bad != 0) state->anomaly = true;
  state->in_quote = static_cast<uint64_t>(static_cast<int64_t>(inside) >> 63);
  state->prev_ok = ((structural | close) >> 63) & 1;
  state->pending_close = (close >> 63) & 1;
  return structural;
}

inline uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

inline uint64_t ValidMask(int64_t chunk, int64_t num_chunks, int last_valid) {
  if (chunk + 1 < num_chunks || last_valid >= 64) return ~0ULL;
  return (1ULL << last_valid) - 1;
}

}  // namespace

void ScanChunksScalar(const uint8_t* data, int64_t num_chunks, int last_valid,
                      const ScanParams& params, ScanState* state, uint64_t* structural) {
  for (int64_t c = 0; c < num_chunks; ++c) {
    const uint8_t* p = data + c * 64;
    const uint64_t valid = ValidMask(c, num_chunks, last_valid);
    uint64_t quote = 0, special = 0;
    for (int i = 0; i < 64; ++i) {
      const uint8_t b = p[i];
      quote |= static_cast<uint64_t>(params.quoting && b == params.quote) << i;
      special |= static_cast<uint64_t>(b == params.delimiter || b == '\n' || b == '\r') << i;
    }
    quote &= valid;
    special &= valid;
    structural[c] = Resolve(quote, special, PrefixXor(quote), valid, state);
  }
}

#if defined(__x86_64__)
__attribute__((target("avx2,pclmul"))) void ScanChunksAvx2(const uint8_t* data,
                                                            int64_t num_chunks, int last_valid,
                                                            const ScanParams& params,
                                                            ScanState* state,
                                                            uint64_t* structural) {
  const __m256i vdelim = _mm256_set1_epi8(static_cast<char>(params.delimiter));
  const __m256i vquote = _mm256_set1_epi8(static_cast<char>(params.quote));
  const __m256i vlf = _mm256_set1_epi8('\n');
  const __m256i vcr = _mm256_set1_epi8('\r');
  const __m128i all_ones = _mm_set1_epi8(static_cast<char>(0xFF));
  for (int64_t c = 0; c < num_chunks; ++c) {
    const uint8_t* p = data + c * 64;
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    const uint64_t valid = ValidMask(c, num_chunks, last_valid);
    const __m256i s_lo = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(lo, vdelim), _mm256_cmpeq_epi8(lo, vlf)),
        _mm256_cmpeq_epi8(lo, vcr));
    const __m256i s_hi = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(hi, vdelim), _mm256_cmpeq_epi8(hi, vlf)),
        _mm256_cmpeq_epi8(hi, vcr));
    const uint64_t special =
        (static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(s_lo))) |
         (static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(s_hi))) << 32)) &
        valid;
    uint64_t quote = 0, inside = 0;
    if (params.quoting) {
      quote = (static_cast<uint64_t>(static_cast<uint32_t>(
                   _mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, vquote)))) |
               (static_cast<uint64_t>(static_cast<uint32_t>(
                    _mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, vquote))))
                << 32)) &
              valid;
      if (quote != 0) {
        inside = static_cast<uint64_t>(_mm_cvtsi128_si64(
            _mm_clmulepi64_si128(_mm_set_epi64x(0, static_cast<int64_t>(quote)), all_ones, 0)));
      }
    }
    structural[c] = Resolve(quote, special, inside, valid, state);
  }
}

bool ScanAvx2Supported() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul");
}
#else
void ScanChunksAvx2(const uint8_t* data, int64_t num_chunks, int last_valid,
                    const ScanParams& params, ScanState* state, uint64_t* structural) {
  ScanChunksScalar(data, num_chunks, last_valid, params, state, structural);
}
bool ScanAvx2Supported() { return false; }
#endif

void ScanChunks(const uint8_t* data, int64_t num_chunks, int last_valid, const ScanParams& params,
                ScanState* state, uint64_t* structural) {
  static const bool avx2 = ScanAvx2Supported();
  if (avx2 && compute::ActiveSimdLevel() >= compute::SimdLevel::kAvx2) {
    compute::RecordSimdLevel(compute::SimdLevel::kAvx2);
    ScanChunksAvx2(data, num_chunks, last_valid, params, state, structural);
  } else {
    compute::RecordSimdLevel(compute::SimdLevel::kScalar);
    ScanChunksScalar(data, num_chunks, last_valid, params, state, structural);
  }
}

}  // namespace quiver::csv::internal
