// Vector min/max of fixed-width values for the page statistics, chosen at
// run time: AVX-512F, else AVX2, else none (the statistics' own scalar
// loop). A write's statistics pass is often the first read of the input
// (from L3 or memory): a scalar loop loads 4 or 8 bytes an instruction
// and waits on them (76% of IntegerStatistics<int64>::Update's samples
// on one load), where a vector loop has 64 bytes in flight per load.
#pragma once

#include <algorithm>
#include <cstdint>

namespace quiver::parquet::internal {

enum class MinMaxIsa { kNone, kAvx2, kAvx512 };

// The best kernel set this CPU runs.
MinMaxIsa MinMaxIsaOfCpu();

// Folds v[0, n) into *lo / *hi (the running minimum and maximum, compared
// as T) with the kernels of `isa` (which the CPU must run; kNone:
// MinMaxIntScalar). Integers compare as their type (unsigned ones unsigned).
template <typename T>
void MinMaxInt(MinMaxIsa isa, const T* v, int64_t n, T* lo, T* hi);

// The scalar loops (no vector ISA, short runs, the kernels' tails), inline:
// the statistics call them per run of valid values, often a few values.
// Four independent lanes (one min/max chain was the loop's latency), as
// named locals: kept in an array, they were vectorized through memory,
// each step waiting on the last one's store.
template <typename T>
inline void MinMaxIntScalar(const T* v, int64_t n, T* lo, T* hi) {
  T lo0 = *lo, lo1 = *lo, lo2 = *lo, lo3 = *lo;
  T hi0 = *hi, hi1 = *hi, hi2 = *hi, hi3 = *hi;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    lo0 = std::min(lo0, v[i]);
    lo1 = std::min(lo1, v[i + 1]);
    lo2 = std::min(lo2, v[i + 2]);
    lo3 = std::min(lo3, v[i + 3]);
    hi0 = std::max(hi0, v[i]);
    hi1 = std::max(hi1, v[i + 1]);
    hi2 = std::max(hi2, v[i + 2]);
    hi3 = std::max(hi3, v[i + 3]);
  }
  for (; i < n; ++i) {
    lo0 = std::min(lo0, v[i]);
    hi0 = std::max(hi0, v[i]);
  }
  *lo = std::min({lo0, lo1, lo2, lo3});
  *hi = std::max({hi0, hi1, hi2, hi3});
}

// Branch-free, four independent lanes: a NaN compares false, so it never
// becomes the min or max, and is only counted into *nans. (The order in
// which equal zeros are met can leave -0.0 or +0.0: the statistics encode
// zeros as -0.0 / +0.0 whatever was seen.)
template <typename T>
inline void MinMaxFloatScalar(const T* v, int64_t n, T* lo, T* hi, int64_t* nans) {
  constexpr int kLanes = 4;
  T l[kLanes], h[kLanes];
  int64_t nan_lanes[kLanes] = {};
  for (int k = 0; k < kLanes; ++k) {
    l[k] = *lo;
    h[k] = *hi;
  }
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) {
      const T x = v[i + k];
      nan_lanes[k] += x != x;
      l[k] = x < l[k] ? x : l[k];
      h[k] = x > h[k] ? x : h[k];
    }
  }
  for (; i < n; ++i) {
    const T x = v[i];
    nan_lanes[0] += x != x;
    l[0] = x < l[0] ? x : l[0];
    h[0] = x > h[0] ? x : h[0];
  }
  for (int k = 0; k < kLanes; ++k) {
    *nans += nan_lanes[k];
    l[0] = l[k] < l[0] ? l[k] : l[0];
    h[0] = h[k] > h[0] ? h[k] : h[0];
  }
  *lo = l[0];
  *hi = h[0];
}

// Floats: as the statistics' scalar loop, a NaN never becomes the minimum
// or maximum (x < lo and x > hi are false for it) and is counted into
// *nans; of equal values (zeros of either sign) the running one is kept.
template <typename T>
void MinMaxFloat(MinMaxIsa isa, const T* v, int64_t n, T* lo, T* hi, int64_t* nans);

}  // namespace quiver::parquet::internal
