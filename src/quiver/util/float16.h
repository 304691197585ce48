// IEEE 754 binary16 ("half float", Arrow's halffloat, Parquet's FLOAT16
// logical type) to and from binary32. Exact in the widening direction; the
// narrowing one rounds to nearest, ties to even, overflowing to infinity and
// keeping NaN a NaN (its payload's high bits kept, as numpy and Arrow do);
// DoubleToHalf rounds a binary64 the same way, once.
#pragma once

#include <bit>
#include <cstdint>

namespace quiver::util {

inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1F) {  // infinity or NaN
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {  // normal
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {  // zero
    bits = sign;
  } else {  // subnormal: normalise
    int e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while ((mantissa & 0x400u) == 0);
    bits = sign | (static_cast<uint32_t>(112 - e) << 23) | ((mantissa & 0x3FFu) << 13);
  }
  return std::bit_cast<float>(bits);
}

inline uint16_t FloatToHalf(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t abs = bits & 0x7FFFFFFFu;
  if (abs >= 0x7F800000u) {  // infinity or NaN
    if (abs == 0x7F800000u) return sign | 0x7C00u;
    return static_cast<uint16_t>(sign | 0x7E00u | ((abs >> 13) & 0x3FFu));
  }
  if (abs >= 0x477FF000u) return sign | 0x7C00u;  // rounds past 65504
  if (abs < 0x38800000u) {  // below the smallest normal half: subnormal or zero
    if (abs < 0x33000000u) return sign;  // below half the smallest subnormal
    const uint32_t exponent = abs >> 23;
    const uint32_t mantissa = (abs & 0x7FFFFFu) | 0x800000u;
    const uint32_t shift = 126 - exponent;  // 14..24
    uint32_t value = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (value & 1u) != 0)) ++value;
    return static_cast<uint16_t>(sign | value);
  }
  // Normal: rebias the exponent, round the mantissa to 10 bits.
  uint32_t value = ((abs >> 13) - (112u << 10));
  const uint32_t rest = abs & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (value & 1u) != 0)) ++value;
  return static_cast<uint16_t>(sign | value);
}

// binary64 to binary16, rounded once (to nearest, ties to even; a double
// rounded to float first could round twice), overflowing to infinity and
// keeping NaN a NaN, as Arrow's Float16::FromDouble.
inline uint16_t DoubleToHalf(double d) {
  const uint64_t bits = std::bit_cast<uint64_t>(d);
  const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
  const uint64_t abs = bits & 0x7FFFFFFFFFFFFFFFull;
  if (abs >= 0x7FF0000000000000ull) {  // infinity or NaN
    if (abs == 0x7FF0000000000000ull) return sign | 0x7C00u;
    return static_cast<uint16_t>(sign | 0x7E00u | ((abs >> 42) & 0x3FFu));
  }
  const int exponent = static_cast<int>(abs >> 52) - 1023;
  if (exponent > 15) return sign | 0x7C00u;
  const uint64_t mantissa = (abs & 0xFFFFFFFFFFFFFull) | (uint64_t{1} << 52);
  uint64_t value;
  uint64_t rest;
  uint64_t halfway;
  if (exponent >= -14) {  // a normal half: rebias, round the mantissa to 10 bits
    value = (static_cast<uint64_t>(exponent + 15) << 10) | ((mantissa >> 42) & 0x3FFu);
    rest = mantissa & ((uint64_t{1} << 42) - 1);
    halfway = uint64_t{1} << 41;
  } else {  // subnormal (or zero): units of 2^-24
    if (exponent < -25) return sign;
    const int shift = 28 - exponent;  // 43..53
    value = mantissa >> shift;
    rest = mantissa & ((uint64_t{1} << shift) - 1);
    halfway = uint64_t{1} << (shift - 1);
  }
  if (rest > halfway || (rest == halfway && (value & 1u) != 0)) ++value;
  if (value >= 0x7C00u) return sign | 0x7C00u;  // rounded past 65504
  return static_cast<uint16_t>(sign | value);
}

}  // namespace quiver::util
