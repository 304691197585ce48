// Width-specialised bit packing (see bit_packing_internal.h for the layout).
#include <array>
#include <cstring>
#include <utility>

#include "quiver/parquet/encoding/bit_packing_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet::internal {

namespace {

inline uint32_t LoadWord(const uint8_t* p) {
  return bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(p));
}
inline void StoreWord(uint8_t* p, uint32_t w) {
  bit_util::SafeStore(p, bit_util::ToLittleEndian(w));
}

template <int W>
void Unpack32Fixed(const uint8_t* in, uint32_t* out) {
  if constexpr (W == 0) {
    std::memset(out, 0, 32 * sizeof(uint32_t));
  } else if constexpr (W == 32) {
    for (int i = 0; i < 32; ++i) out[i] = LoadWord(in + 4 * i);
  } else {
    constexpr uint32_t kMask = (uint32_t{1} << W) - 1;
    uint32_t w[W];
    for (int k = 0; k < W; ++k) w[k] = LoadWord(in + 4 * k);
#pragma GCC unroll 32
    for (int i = 0; i < 32; ++i) {
      const int bit = i * W;
      const int k = bit >> 5;
      const int off = bit & 31;
      uint32_t v = w[k] >> off;
      if (off + W > 32) v |= w[k + 1] << (32 - off);
      out[i] = v & kMask;
    }
  }
}

template <int W>
void Unpack64Fixed(const uint8_t* in, uint64_t* out) {
  if constexpr (W == 0) {
    std::memset(out, 0, 32 * sizeof(uint64_t));
  } else {
    constexpr uint64_t kMask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
    uint32_t w[W];
    for (int k = 0; k < W; ++k) w[k] = LoadWord(in + 4 * k);
#pragma GCC unroll 32
    for (int i = 0; i < 32; ++i) {
      const int bit = i * W;
      const int k = bit >> 5;
      const int off = bit & 31;
      uint64_t v = w[k] >> off;
      int got = 32 - off;
      if (got < W) {
        v |= uint64_t{w[k + 1]} << got;
        got += 32;
      }
      if (got < W) v |= uint64_t{w[k + 2]} << got;
      out[i] = v & kMask;
    }
  }
}

template <int W>
void Pack32Fixed(const uint32_t* in, uint8_t* out) {
  if constexpr (W == 32) {
    for (int i = 0; i < 32; ++i) StoreWord(out + 4 * i, in[i]);
  } else if constexpr (W > 0) {
    constexpr uint32_t kMask = (uint32_t{1} << W) - 1;
    uint32_t w[W] = {};
#pragma GCC unroll 32
    for (int i = 0; i < 32; ++i) {
      const uint32_t v = in[i] & kMask;
      const int bit = i * W;
      const int k = bit >> 5;
      const int off = bit & 31;
      w[k] |= v << off;
      if (off + W > 32) w[k + 1] |= v >> (32 - off);
    }
    for (int k = 0; k < W; ++k) StoreWord(out + 4 * k, w[k]);
  }
}

template <int W>
void Pack64Fixed(const uint64_t* in, uint8_t* out) {
  if constexpr (W > 0) {
    constexpr uint64_t kMask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
    uint32_t w[W] = {};
#pragma GCC unroll 32
    for (int i = 0; i < 32; ++i) {
      const uint64_t v = in[i] & kMask;
      const int bit = i * W;
      const int k = bit >> 5;
      const int off = bit & 31;
      w[k] |= static_cast<uint32_t>(v << off);
      int stored = 32 - off;
      if (stored < W) {
        w[k + 1] |= static_cast<uint32_t>(v >> stored);
        stored += 32;
      }
      if (stored < W) w[k + 2] |= static_cast<uint32_t>(v >> stored);
    }
    for (int k = 0; k < W; ++k) StoreWord(out + 4 * k, w[k]);
  }
}

using Unpack32Fn = void (*)(const uint8_t*, uint32_t*);
using Unpack64Fn = void (*)(const uint8_t*, uint64_t*);
using Pack32Fn = void (*)(const uint32_t*, uint8_t*);
using Pack64Fn = void (*)(const uint64_t*, uint8_t*);

template <size_t... W>
constexpr std::array<Unpack32Fn, sizeof...(W)> MakeUnpack32(std::index_sequence<W...>) {
  return {&Unpack32Fixed<static_cast<int>(W)>...};
}
template <size_t... W>
constexpr std::array<Unpack64Fn, sizeof...(W)> MakeUnpack64(std::index_sequence<W...>) {
  return {&Unpack64Fixed<static_cast<int>(W)>...};
}
template <size_t... W>
constexpr std::array<Pack32Fn, sizeof...(W)> MakePack32(std::index_sequence<W...>) {
  return {&Pack32Fixed<static_cast<int>(W)>...};
}
template <size_t... W>
constexpr std::array<Pack64Fn, sizeof...(W)> MakePack64(std::index_sequence<W...>) {
  return {&Pack64Fixed<static_cast<int>(W)>...};
}

constexpr auto kUnpack32 = MakeUnpack32(std::make_index_sequence<33>{});
constexpr auto kUnpack64 = MakeUnpack64(std::make_index_sequence<65>{});
constexpr auto kPack32 = MakePack32(std::make_index_sequence<33>{});
constexpr auto kPack64 = MakePack64(std::make_index_sequence<65>{});

}  // namespace

void Unpack32(const uint8_t* in, int bit_width, uint32_t* out) { kUnpack32[bit_width](in, out); }
void Unpack64(const uint8_t* in, int bit_width, uint64_t* out) { kUnpack64[bit_width](in, out); }
void Pack32(const uint32_t* in, int bit_width, uint8_t* out) { kPack32[bit_width](in, out); }
void Pack64(const uint64_t* in, int bit_width, uint8_t* out) { kPack64[bit_width](in, out); }

}  // namespace quiver::parquet::internal
