// bit_util: tiny inline helpers for integer rounding, bit counting, single-bit
// access to bitmaps, endianness and unaligned loads/stores.
//
// Bitmaps follow the Arrow validity-bitmap convention: bit i lives in byte
// i / 8 at position i % 8 counted from the least significant bit (LSB-first).
// Everything here is header-only and constexpr where the language allows it.
// Offsets, lengths and indices are non-negative; these helpers do no checking.
// Modelled on Arrow C++'s arrow/util/bit_util.h.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace quiver::bit_util {

// ---------------------------------------------------------------------------
// Rounding and sizes

// Smallest multiple of `factor` (> 0) that is >= `value` (>= 0).
constexpr int64_t RoundUp(int64_t value, int64_t factor) {
  return (value + (factor - 1)) / factor * factor;
}

constexpr int64_t RoundUpToMultipleOf64(int64_t value) {
  return (value + 63) & ~static_cast<int64_t>(63);
}

constexpr int64_t RoundUpToMultipleOf8(int64_t value) {
  return (value + 7) & ~static_cast<int64_t>(7);
}

// Number of bytes needed to hold `bits` bits.
constexpr int64_t BytesForBits(int64_t bits) { return (bits >> 3) + ((bits & 7) != 0); }

constexpr bool IsPowerOf2(int64_t value) { return value > 0 && (value & (value - 1)) == 0; }
constexpr bool IsPowerOf2(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

// ---------------------------------------------------------------------------
// Bit counting

constexpr int CountLeadingZeros(uint32_t value) { return std::countl_zero(value); }
constexpr int CountLeadingZeros(uint64_t value) { return std::countl_zero(value); }
constexpr int CountTrailingZeros(uint32_t value) { return std::countr_zero(value); }
constexpr int CountTrailingZeros(uint64_t value) { return std::countr_zero(value); }
constexpr int PopCount(uint64_t value) { return std::popcount(value); }

// Number of bits needed to represent `value` (0 for 0).
constexpr int NumRequiredBits(uint64_t value) { return 64 - std::countl_zero(value); }

// Ceiling of log2(value): Log2(1) == 0, Log2(2) == 1, Log2(3) == 2. Log2(0) == 0.
constexpr int Log2(uint64_t value) { return value <= 1 ? 0 : NumRequiredBits(value - 1); }

// ---------------------------------------------------------------------------
// Masks

// kBitmask[i] has only bit i set; kFlippedBitmask[i] has every bit but i set.
inline constexpr uint8_t kBitmask[] = {1, 2, 4, 8, 16, 32, 64, 128};
inline constexpr uint8_t kFlippedBitmask[] = {254, 253, 251, 247, 239, 223, 191, 127};

// kPrecedingBitmask[i] has the bits below i set; kTrailingBitmask[i] has bit i
// and the bits above it set.
inline constexpr uint8_t kPrecedingBitmask[] = {0, 1, 3, 7, 15, 31, 63, 127};
inline constexpr uint8_t kTrailingBitmask[] = {255, 254, 252, 248, 240, 224, 192, 128};

// Byte with bits [0, i) set, for 0 <= i <= 8.
constexpr uint8_t PrecedingBitmask(int i) {
  return static_cast<uint8_t>((1u << i) - 1u);
}

// Byte with bits [i, 8) set, for 0 <= i <= 8.
constexpr uint8_t TrailingBitmask(int i) {
  return static_cast<uint8_t>(~PrecedingBitmask(i));
}

// 64-bit word with bits [0, n) set, for 0 <= n <= 64.
constexpr uint64_t LeastSignificantBitMask(int n) {
  return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
}

// ---------------------------------------------------------------------------
// Single bits of a bitmap (LSB-first)

constexpr bool GetBit(const uint8_t* bits, int64_t i) {
  return ((bits[i >> 3] >> (i & 7)) & 1) != 0;
}

constexpr void SetBit(uint8_t* bits, int64_t i) { bits[i >> 3] |= kBitmask[i & 7]; }

constexpr void ClearBit(uint8_t* bits, int64_t i) { bits[i >> 3] &= kFlippedBitmask[i & 7]; }

// Branch-free: flips exactly the bits where the byte differs from the
// broadcast of `bit_is_set`, masked to bit i.
constexpr void SetBitTo(uint8_t* bits, int64_t i, bool bit_is_set) {
  uint8_t& byte = bits[i >> 3];
  const uint8_t broadcast = static_cast<uint8_t>(-static_cast<int>(bit_is_set));
  byte ^= static_cast<uint8_t>((broadcast ^ byte) & kBitmask[i & 7]);
}

// ---------------------------------------------------------------------------
// Endianness

template <typename T>
constexpr T ByteSwap(T value) {
  static_assert(std::is_integral_v<T>, "ByteSwap needs an integer type");
  using U = std::make_unsigned_t<T>;
  const U u = static_cast<U>(value);
  if constexpr (sizeof(T) == 1) {
    return value;
  } else if constexpr (sizeof(T) == 2) {
    return static_cast<T>(__builtin_bswap16(u));
  } else if constexpr (sizeof(T) == 4) {
    return static_cast<T>(__builtin_bswap32(u));
  } else {
    static_assert(sizeof(T) == 8, "unsupported integer size");
    return static_cast<T>(__builtin_bswap64(u));
  }
}

// Converts between the little-endian storage order of Arrow buffers and the
// native order. Identity on little-endian machines.
template <typename T>
constexpr T FromLittleEndian(T value) {
  static_assert(std::endian::native == std::endian::little ||
                    std::endian::native == std::endian::big,
                "mixed-endian machines are not supported");
  if constexpr (std::endian::native == std::endian::little) {
    return value;
  } else {
    return ByteSwap(value);
  }
}

template <typename T>
constexpr T ToLittleEndian(T value) {
  return FromLittleEndian(value);
}

// ---------------------------------------------------------------------------
// Unaligned access without undefined behaviour

template <typename T>
inline T SafeLoad(const void* ptr) {
  static_assert(std::is_trivially_copyable_v<T>, "SafeLoad needs a trivially copyable type");
  T value;
  std::memcpy(&value, ptr, sizeof(T));
  return value;
}

template <typename T>
inline void SafeStore(void* ptr, T value) {
  static_assert(std::is_trivially_copyable_v<T>, "SafeStore needs a trivially copyable type");
  std::memcpy(ptr, &value, sizeof(T));
}

// ---------------------------------------------------------------------------
// Fixed-width values stored in a given byte order (file formats: Parquet
// lengths and doubles, IPC prefixes, Hadoop LZ4 frames), at any alignment.
// T is an integer or a floating-point type; the load is one memcpy and, on a
// machine of the other byte order, one byte swap.

namespace detail {
template <typename T>
using UnsignedOfSize = std::conditional_t<
    sizeof(T) == 1, uint8_t,
    std::conditional_t<sizeof(T) == 2, uint16_t,
                       std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

template <typename T, std::endian kOrder>
inline T LoadOrdered(const void* ptr) {
  static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8, "needs an integer or a float");
  using U = UnsignedOfSize<T>;
  U bits = SafeLoad<U>(ptr);
  if constexpr (std::endian::native != kOrder) bits = ByteSwap(bits);
  return std::bit_cast<T>(bits);
}

template <typename T, std::endian kOrder>
inline void StoreOrdered(void* ptr, T value) {
  static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8, "needs an integer or a float");
  using U = UnsignedOfSize<T>;
  U bits = std::bit_cast<U>(value);
  if constexpr (std::endian::native != kOrder) bits = ByteSwap(bits);
  SafeStore(ptr, bits);
}
}  // namespace detail

// The T stored little-endian at `ptr`.
template <typename T>
inline T LoadLittleEndian(const void* ptr) {
  return detail::LoadOrdered<T, std::endian::little>(ptr);
}
// The T stored big-endian at `ptr`.
template <typename T>
inline T LoadBigEndian(const void* ptr) {
  return detail::LoadOrdered<T, std::endian::big>(ptr);
}
// Stores `value` little-endian at `ptr`.
template <typename T>
inline void StoreLittleEndian(void* ptr, T value) {
  detail::StoreOrdered<T, std::endian::little>(ptr, value);
}

inline uint32_t LoadLE32(const void* ptr) { return LoadLittleEndian<uint32_t>(ptr); }
inline uint64_t LoadLE64(const void* ptr) { return LoadLittleEndian<uint64_t>(ptr); }

}  // namespace quiver::bit_util
