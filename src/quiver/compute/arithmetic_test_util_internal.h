// Helpers the binary kernels' tests share (arithmetic_test.cc,
// compare_test.cc): the SIMD levels to run, random validity. Not installed.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "quiver/compute/simd_level.h"

namespace quiver::compute::testing {

constexpr int64_t kLengths[] = {0, 1, 63, 64, 65, 3000};
constexpr double kNullFractions[] = {0.0, 0.1, 0.5, 1.0};

// Every level this CPU has (the scalar one always).
inline std::vector<SimdLevel> Levels() {
  std::vector<SimdLevel> out;
  for (SimdLevel l : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    if (l <= DetectedSimdLevel()) out.push_back(l);
  }
  return out;
}

// n validity flags, each false with probability `null_fraction`.
inline std::vector<bool> RandomValidity(std::mt19937_64& rng, int64_t n, double null_fraction) {
  std::vector<bool> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<double>(rng() % 1000) >= null_fraction * 1000.0;
  }
  return v;
}

}  // namespace quiver::compute::testing
