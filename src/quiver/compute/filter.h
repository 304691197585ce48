// filter: the rows of an array (or of every column of a record batch) where
// a boolean mask is true, as pyarrow.compute.filter.
//
// A null mask slot drops the row (NullSelection::kDrop, pyarrow's 'drop')
// or emits a null (kEmitNull, 'emit_null'). The mask's selection is worked
// out once (FilterContext: the selected rows counted first, the output sized
// exactly; runs of rows for a dense mask, indices for a sparse one, built
// only when a column's type needs them) and applied to as many columns as
// share the mask. Every type: null, boolean, primitives, half-float,
// decimals, temporal, fixed_size_binary, (large) binary/string and their
// views, (large) list, fixed_size_list, struct, map, dictionary (indices
// filtered, the dictionary shared) and their nestings. Fixed-width values
// are filtered one 64-row mask word at a time, with AVX-512 compress where
// the CPU has it (compute/simd_level.h; the level that ran is recorded).
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/array/array_data.h"
#include "quiver/array/record_batch.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

struct FilterOptions {
  enum class NullSelection : uint8_t { kDrop, kEmitNull };
  NullSelection null_selection_behavior = NullSelection::kDrop;
  static FilterOptions Defaults() { return {}; }
};

class FilterContext;
Result<ArrayDataPtr> Filter(const ArrayDataPtr& values, const ArrayDataPtr& mask,
                            FilterOptions options = {}, MemoryPool* pool = DefaultMemoryPool());

// A mask's selection, computed once and applied to many columns.
// Immutable after Make; Apply may run on several threads at once.
class FilterContext {
 public:
  // NotImplemented when the mask is not boolean.
  static Result<FilterContext> Make(const ArrayDataPtr& mask, FilterOptions options = {},
                                    MemoryPool* pool = DefaultMemoryPool());

  // Rows the mask covers (every column must have as many) and rows out.
  int64_t input_length() const;
  int64_t output_length() const;

  // The filtered column; Invalid when its length differs from the mask's.
  // A mask selecting every row (and emitting no null) returns `values`
  // itself.
  Result<ArrayDataPtr> Apply(const ArrayDataPtr& values) const;
  Result<RecordBatchPtr> Apply(const RecordBatch& batch) const;

  struct Impl;

 private:
  // The one-column Filter makes a context it applies once: it does not
  // build the runs of a dense mask for a fixed-width column.
  friend Result<ArrayDataPtr> Filter(const ArrayDataPtr& values, const ArrayDataPtr& mask,
                                     FilterOptions options, MemoryPool* pool);
  static Result<FilterContext> Make(const ArrayDataPtr& mask, FilterOptions options,
                                    MemoryPool* pool, bool reusable);
  explicit FilterContext(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

Result<RecordBatchPtr> Filter(const RecordBatch& batch, const ArrayDataPtr& mask,
                              FilterOptions options = {}, MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver::compute
