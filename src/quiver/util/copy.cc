#include "quiver/util/copy.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace quiver {

#if defined(__x86_64__)
namespace {

// 32-byte streamed stores (AVX), 128 bytes a step: two cache lines.
__attribute__((target("avx"))) int64_t CopyNonTemporalAvx(uint8_t* dst, const uint8_t* src, int64_t n) {
  int64_t done = 0;
  for (; n - done >= 128; done += 128) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + done));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + done + 32));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + done + 64));
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + done + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + done), a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + done + 32), b);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + done + 64), c);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + done + 96), d);
  }
  return done;
}

const bool kHaveAvx = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx") != 0;
}();

}  // namespace
#endif

void CopyNonTemporal(uint8_t* dst, const uint8_t* src, int64_t n) {
#if defined(__x86_64__)
  // A plain copy up to the first 32-byte aligned destination byte, the
  // streamed stores, then the tail (all plain without AVX: the 16-byte
  // stores of SSE2 measured no faster than memcpy).
  const int64_t head = std::min<int64_t>(n, (32 - (reinterpret_cast<uintptr_t>(dst) & 31)) & 31);
  std::memcpy(dst, src, static_cast<size_t>(head));
  dst += head;
  src += head;
  n -= head;
  const int64_t streamed = kHaveAvx ? CopyNonTemporalAvx(dst, src, n) : 0;
  // The streamed stores are ordered before what follows (the chunk handed
  // to another thread once written).
  if (streamed > 0) _mm_sfence();
  dst += streamed;
  src += streamed;
  n -= streamed;
#endif
  if (n > 0) std::memcpy(dst, src, static_cast<size_t>(n));
}

}  // namespace quiver
