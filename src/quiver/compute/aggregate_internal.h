// Pieces the aggregate files share (aggregate.cc: sum, mean, count and the
// entry points; aggregate_min_max.cc: min, max, min_max). Not installed.
#pragma once

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
