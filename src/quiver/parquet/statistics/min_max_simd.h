// Vector min/max of fixed-width values for the page statistics, chosen at
// run time: AVX-512F, else AVX2, else none (the statistics' own scalar
// loop). A write's statistics pass is often the first read of the input
// (from L3 or memory): a scalar loop loads 4 or 8 bytes an instruction
// and waits on them (76% of IntegerStatistics<int64>::Update's samples
// on one load), where a vector loop has 64 bytes in flight per load.
#pragma once

#include <cstdint>

namespace quiver::parquet::internal {

enum class MinMaxIsa { kNone, kAvx2, kAvx512 };

// The best kernel set this CPU runs.
MinMaxIsa MinMaxIsaOfCpu();

// Folds v[0, n) into *lo / *hi (the running minimum and maximum, compared
// as T) with the kernels of `isa` (which the CPU must run; kNone: a plain
// loop). Integers compare as their type (unsigned ones unsigned).
template <typename T>
void MinMaxInt(MinMaxIsa isa, const T* v, int64_t n, T* lo, T* hi);

// Floats: as the statistics' scalar loop, a NaN never becomes the minimum
// or maximum (x < lo and x > hi are false for it) and is counted into
// *nans; of equal values (zeros of either sign) the running one is kept.
template <typename T>
void MinMaxFloat(MinMaxIsa isa, const T* v, int64_t n, T* lo, T* hi, int64_t* nans);

}  // namespace quiver::parquet::internal
