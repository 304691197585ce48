// The three-valued evaluation of a filter over spans (pruning.h), shared
// by the row-group and page entry points. Not installed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/parquet/pruning/pruning.h"

namespace quiver::parquet {

// What is known of one referenced field over the spans.
struct FieldFacts {
  const std::vector<ColumnSummary>* summaries = nullptr;  // num_spans, or null: nothing
  // One span only (a row group):
  const BloomFilter* bloom_filter = nullptr;
  const PhysicalColumn* physical = nullptr;
  ArrayDataPtr dictionary;  // every non-null value of the span is one of these
};

class SpanEvaluator {
 public:
  SpanEvaluator(const FilterPruner& pruner, std::vector<FieldFacts> facts, int64_t num_spans);
  ~SpanEvaluator();
  Result<std::vector<Possible>> Run();

 private:
  struct FieldState;
  using Results = std::vector<Possible>;

  Result<Results> Eval(const compute::Expression& e);
  Result<Results> EvalComparison(const compute::Expression& e, size_t field);
  Result<Results> EvalIsIn(const compute::Expression& e, size_t field);
  Results EvalNullCheck(const compute::Expression& e, size_t field);
  Result<Results> EvalBooleanField(size_t field);
  Result<Results> EvalOnDictionary(const compute::Expression& e, size_t field);
  Result<Results> EvalConstant(const compute::Expression& e);

  // The expression's result on each element of `values` (the field's read
  // type), as bits: kMayBeTrue / kMayBeFalse / kMayBeNull.
  Result<Results> EvalOnValues(const compute::Expression& e, size_t field,
                               const ArrayDataPtr& values);
  Result<FieldState*> State(size_t field);
  Results Fill(Possible p) const { return Results(static_cast<size_t>(num_spans_), p); }
  std::optional<size_t> FieldIndex(const std::string& name) const;

  const FilterPruner& pruner_;
  std::vector<FieldFacts> facts_;
  int64_t num_spans_;
  std::vector<std::unique_ptr<FieldState>> states_;
};

// Bloom filter probes (bloom_probe.cc): the hashes of the physical values
// a field's value must have to make `field == literal` true (the literal
// typed as Evaluate types it), or nullopt when that set cannot be
// established exactly (then the bloom filter says nothing). An empty set:
// no value can match.
std::optional<std::vector<uint64_t>> EqualityProbeHashes(const compute::Expression& normalized,
                                                          const std::string& field_name,
                                                          const TypePtr& read_type,
                                                          const PhysicalColumn& physical);
// The same for is_in's non-null, non-NaN value set brought to the read
// type as is_in brings it (`set` already so brought).
std::optional<std::vector<uint64_t>> SetProbeHashes(const ArrayData& set, const TypePtr& read_type,
                                                    const PhysicalColumn& physical);

}  // namespace quiver::parquet
