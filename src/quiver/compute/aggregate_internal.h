// Pieces the aggregate files share (aggregate.cc: sum, mean, count and the
// entry points; aggregate_min_max.cc: min, max, min_max). Not installed.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>

#include "quiver/array/array_data.h"
#include "quiver/array/scalar.h"
#include "quiver/compute/aggregate.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/result.h"

namespace quiver::compute::internal {

// Runs of valid values shorter than this stay on the scalar loops.
inline constexpr int64_t kMinVectorRun = 64;

inline bool UseAvx2() { return ActiveSimdLevel() >= SimdLevel::kAvx2; }

// visit(position, length) for every run of valid slots of `a` (positions
// relative to its offset).
template <typename Visit>
void VisitValidRuns(const ArrayData& a, Visit&& visit) {
  if (a.length == 0) return;
  const uint8_t* validity = a.validity();
  if (validity == nullptr || a.GetNullCount() == 0) {
    visit(int64_t{0}, a.length);
    return;
  }
  bitmap::VisitSetBitRuns(validity, a.offset, a.length, visit);
}

// Arrow C++'s non-recursive pairwise summation (aggregate_internal.h,
// SumArray, after numpy): block sums enter a binary counter whose level i
// holds the sum of 2^i blocks; two at a level add into the next one.
class PairwiseSum {
 public:
  void AddBlock(double block_sum) { AddAt(0, block_sum); }
  // Four block sums in a row, exactly as four AddBlock calls: when the two
  // lowest levels are empty (holding +0.0), the two pairs and their sum
  // form directly, then enter at level 2.
  void AddFourBlocks(const double* b) {
    if ((mask_ & 3) != 0) {
      for (int k = 0; k < 4; ++k) AddAt(0, b[k]);
      return;
    }
    const double p = (0.0 + b[0]) + b[1];
    const double q = (0.0 + b[2]) + b[3];
    root_ = std::max(root_, 1);
    AddAt(2, (0.0 + p) + q);
  }
  double Total() {
    Touch(root_);
    double s = sums_[0];  // (the levels folded upward, without copying them)
    for (int i = 1; i <= root_; ++i) s = sums_[static_cast<size_t>(i)] + s;
    return s;
  }

 private:
  // Levels up to `level` hold +0.0 or a sum (levels are zeroed when first
  // reached, not all 65 at construction: a short sum touches a few).
  void Touch(int level) {
    while (touched_ <= level) sums_[static_cast<size_t>(touched_++)] = 0;
  }
  // `sum` enters level `level`, carrying up while two meet.
  void AddAt(int level, double sum) {
    Touch(level);
    uint64_t bit = uint64_t{1} << level;
    sums_[static_cast<size_t>(level)] += sum;
    mask_ ^= bit;
    while ((mask_ & bit) == 0) {
      sum = sums_[static_cast<size_t>(level)];
      sums_[static_cast<size_t>(level)] = 0;
      ++level;
      Touch(level);
      bit <<= 1;
      sums_[static_cast<size_t>(level)] += sum;
      mask_ ^= bit;
    }
    root_ = std::max(root_, level);
  }

  std::array<double, 65> sums_;  // (levels below touched_ only)
  uint64_t mask_ = 0;
  int root_ = 0;
  int touched_ = 0;
};

// The double sum of a float32 chunk's valid values (aggregate_float_sum.cc):
// groups of 512 slots summed in 32 lanes, the group sums folded pairwise.
// The same bits at every SIMD level; *used is raised to the level that ran.
double Float32ChunkSum(const ArrayData& a, SimdLevel* used);

// pyarrow's NotImplemented for a type an aggregate lacks: "Function 'sum'
// has no kernel matching input types (string)" (min and max name the
// min_max kernel they share).
Status NoKernel(AggregateKind kind, const DataType& type);

// Valid slots of a boolean array holding true.
uint64_t TrueCount(const ArrayData& a);

// A decimal128 (width 16, sign-extended) or decimal256 (width 32) value
// stored little-endian at p.
Int256 LoadDecimal(const uint8_t* p, int width);
// -1, 0 or 1 as a is below, equal to or above b (signed).
int CompareInt256(const Int256& a, const Int256& b);

// The min / max / min_max aggregator for `type` (NoKernel for a type
// without one).
Result<std::unique_ptr<Aggregator>> MakeMinMaxAggregator(AggregateKind kind, const TypePtr& type,
                                                         const ScalarAggregateOptions& options);

}  // namespace quiver::compute::internal
