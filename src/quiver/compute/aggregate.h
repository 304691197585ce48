// Scalar aggregates with pyarrow.compute's names, options and results:
// sum, mean, min, max, min_max and count over one array, or over the chunks
// of a chunked array through an Aggregator (Consume each chunk in order, or
// Merge the Aggregators of separate chunks) exactly as Arrow C++ combines
// chunks (arrow/compute/kernels/aggregate_basic_internal.h).
//
// Types and results (each as pyarrow 26 gives them):
//   sum   bool -> uint64 (true count); int8..int64 -> int64 and uint8..uint64
//         -> uint64, wrapping silently; float32/float64 -> double by
//         pairwise summation (float64: Arrow's order; float32: groups of
//         512 slots in 32 lanes, aggregate_float_sum.cc, equal to pyarrow's
//         up to rounding); decimal128/256(p, s) -> decimal128(38, s) /
//         decimal256(76, s); null -> int64.
//   mean  bool, integers, floats -> double (the pairwise double sum over the
//         count); decimals -> the input type, rounded half away from zero;
//         null -> double.
//   min, max, min_max: bool, integers, floats, date32/64, time32/64,
//         timestamp, decimal128/256, string, large_string, binary,
//         large_binary, fixed_size_binary, null -> the input type (min_max:
//         struct<min: T, max: T>). Floats skip NaN unless every value is NaN.
//   count any type -> int64 (only_valid, only_null or all).
// Any other type: NotImplemented "Function 'sum' has no kernel matching
// input types (string)", pyarrow's message.
//
// Nulls: skip_nulls=false with a null seen -> a null result (min_max: a
// struct of two nulls); fewer than min_count valid values -> null (min/max
// count at least one). An empty sum with min_count=0 is 0, an empty mean
// NaN (decimal mean: null).
//
// Where Quiver and pyarrow differ: a decimal sum or mean whose value leaves
// the result precision (pyarrow returns a value it cannot represent, or a
// wrapped one) is Invalid; the sign of a zero min/max of floats holding
// both -0.0 and +0.0 is the sign of the first zero (pyarrow's depends on
// which of its loops ran; tests compare zeros as numbers).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

#include "quiver/array/array_data.h"
#include "quiver/array/scalar.h"
#include "quiver/util/result.h"

namespace quiver::compute {

// pyarrow.compute.ScalarAggregateOptions.
struct ScalarAggregateOptions {
  bool skip_nulls = true;
  uint32_t min_count = 1;
};

// pyarrow.compute.CountOptions' mode.
enum class CountMode : uint8_t { kOnlyValid, kOnlyNull, kAll };
// "only_valid", "only_null", "all"; Invalid otherwise (as pyarrow's
// '"x" is not a valid count mode').
Result<CountMode> ParseCountMode(std::string_view name);

enum class AggregateKind : uint8_t { kSum, kMean, kMin, kMax, kMinMax, kCount };
// pyarrow's function name: "sum", "mean", "min", "max", "min_max", "count".
std::string_view AggregateName(AggregateKind kind);

// The running state of one aggregate over chunks of one type.
class Aggregator {
 public:
  // NotImplemented (pyarrow's message) for a type the aggregate lacks.
  static Result<std::unique_ptr<Aggregator>> Make(AggregateKind kind, const TypePtr& type,
                                                  const ScalarAggregateOptions& options = {},
                                                  CountMode mode = CountMode::kOnlyValid);
  virtual ~Aggregator() = default;

  AggregateKind kind() const { return kind_; }
  const TypePtr& type() const { return type_; }

  // Adds a chunk (of the type given to Make; Invalid otherwise).
  virtual Status Consume(const ArrayData& chunk) = 0;
  // Adds the state of another Aggregator of the same kind and type, as if
  // its chunks had been consumed after this one's.
  virtual Status Merge(const Aggregator& other) = 0;
  // The result (the Aggregator stays usable).
  virtual Result<Scalar> Finalize() const = 0;

  // For the implementations (aggregate.cc), which inherit it.
  Aggregator(AggregateKind kind, TypePtr type, const ScalarAggregateOptions& options)
      : kind_(kind), type_(std::move(type)), options_(options) {}

 protected:
  Status CheckChunk(const ArrayData& chunk) const;
  Status CheckOther(const Aggregator& other) const;

  AggregateKind kind_;
  TypePtr type_;
  ScalarAggregateOptions options_;
};

// One array (any offset).
Result<Scalar> Sum(const ArrayData& values, const ScalarAggregateOptions& options = {});
Result<Scalar> Mean(const ArrayData& values, const ScalarAggregateOptions& options = {});
Result<Scalar> Min(const ArrayData& values, const ScalarAggregateOptions& options = {});
Result<Scalar> Max(const ArrayData& values, const ScalarAggregateOptions& options = {});
// A valid struct<min: T, max: T> scalar (its children null when the result
// is null).
Result<Scalar> MinMax(const ArrayData& values, const ScalarAggregateOptions& options = {});
Result<Scalar> Count(const ArrayData& values, CountMode mode = CountMode::kOnlyValid);

}  // namespace quiver::compute
