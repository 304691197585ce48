// filter (filter.h). The strategy follows arrow-rs arrow-select/src/filter.rs
// (FilterBuilder / FilterPredicate): count the selected rows first
// (CountSetBits of the mask, or of mask AND validity under 'drop'), then
// pick how to walk them: the mask's own words for fixed-width values and
// bitmaps (selection.cc, polars-compute's word loop and AVX-512 compress),
// runs of set bits when the mask keeps at least 80% of the rows (arrow-rs'
// FILTER_SLICES_SELECTIVITY_THRESHOLD: few, long runs, one memcpy each),
// the indices of the set bits otherwise. Under 'emit_null' a null mask slot
// selects its row and forces it null: the selection bitmap is
// value | !valid and the forced-null bitmap of the output is the mask's
// validity filtered by it.
#include "quiver/compute/filter.h"

#include <bit>
#include <mutex>
#include <vector>

#include "quiver/compute/selection_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute {

using internal::Run;
using internal::Selection;

namespace {
// Selectivity from which a mask's positions are kept as runs (4/5).
constexpr int64_t kRunsNumerator = 4;
constexpr int64_t kRunsDenominator = 5;
// A reusable context whose runs average at least this many rows gathers
// every column by its runs, fixed-width values and bitmaps too: one memcpy
// per run, and bitmaps a whole word at a time at one shift per run
// (selection.cc AppendRunsOfBits), beat the mask's word loops once the
// runs are built (arrow-rs FilterBuilder::optimize keeps its slices for
// every type).
constexpr int64_t kLongRun = 256;
const int64_t kNoIndex[1] = {0};
}  // namespace

struct FilterContext::Impl {
  ArrayDataPtr mask;  // keeps the mask's bits alive
  FilterOptions options;
  bool reusable = true;
  MemoryPool* pool = nullptr;
  int64_t rows = 0;
  int64_t count = 0;
  // The selection bitmap: the mask's values, or a computed one (owned).
  std::shared_ptr<Buffer> owned_bits;
  const uint8_t* bits = nullptr;
  int64_t bits_offset = 0;
  // emit_null with null mask slots: the output's forced-null bitmap.
  std::shared_ptr<Buffer> valid_bits;
  int64_t forced_nulls = 0;

  // Positions, built at the first column that needs them.
  mutable std::once_flag positions_once;
  mutable bool use_runs = false;
  mutable std::vector<Run> runs;
  mutable std::vector<int64_t> indices;

  void BuildPositions() const {
    if (count * kRunsDenominator >= rows * kRunsNumerator) {
      use_runs = true;
      bitmap::VisitSetBitRuns(bits, bits_offset, rows, [this](int64_t start, int64_t length) {
        runs.push_back({start, length});
      });
      return;
    }
    indices.resize(static_cast<size_t>(count));
    int64_t k = 0;
    for (int64_t pos = 0; pos < rows; pos += 64) {
      const int nbits = rows - pos < 64 ? static_cast<int>(rows - pos) : 64;
      uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, nbits);
      while (w != 0) {
        indices[static_cast<size_t>(k++)] = pos + std::countr_zero(w);
        w &= w - 1;
      }
    }
  }

  // Whether every column is gathered by the runs (reusable, dense, long
  // runs: built here, once, if not yet).
  bool RunsForAll() const {
    if (!reusable || count * kRunsDenominator < rows * kRunsNumerator) return false;
    std::call_once(positions_once, [this] { BuildPositions(); });
    return use_runs && static_cast<int64_t>(runs.size()) * kLongRun <= count;
  }

  Selection MakeSelection(bool with_positions) const {
    Selection sel;
    sel.length = count;
    sel.bits = bits;
    sel.bits_offset = bits_offset;
    sel.rows = rows;
    if (forced_nulls > 0) {
      sel.valid_bits = valid_bits->data();
      sel.forced_nulls = forced_nulls;
    }
    if (with_positions) {
      std::call_once(positions_once, [this] { BuildPositions(); });
      if (use_runs) {
        sel.runs = &runs;
      } else {
        sel.indices = indices.empty() ? kNoIndex : indices.data();
      }
    }
    return sel;
  }
};

Result<FilterContext> FilterContext::Make(const ArrayDataPtr& mask, FilterOptions options,
                                          MemoryPool* pool) {
  return Make(mask, options, pool, /*reusable=*/true);
}

Result<FilterContext> FilterContext::Make(const ArrayDataPtr& mask, FilterOptions options,
                                          MemoryPool* pool, bool reusable) {
  if (mask->type->id() != Type::kBool) {
    return Status::NotImplemented("filter: the mask must be of type bool, not ",
                                  mask->type->ToString());
  }
  auto impl = std::make_shared<Impl>();
  impl->mask = mask;
  impl->options = options;
  impl->reusable = reusable;
  impl->pool = pool;
  const int64_t n = mask->length;
  impl->rows = n;
  const uint8_t* values = n == 0 ? nullptr : mask->buffers[1]->data();
  const uint8_t* validity = mask->validity();
  const int64_t nulls = validity == nullptr ? 0 : mask->GetNullCount();
  if (nulls == 0) {
    impl->bits = values;
    impl->bits_offset = mask->offset;
    impl->count = n == 0 ? 0 : bitmap::CountSetBits(values, mask->offset, n);
  } else {
    QUIVER_ASSIGN_OR_RAISE(auto sel, internal::AllocateBitmap(n, pool));
    if (options.null_selection_behavior == FilterOptions::NullSelection::kDrop) {
      bitmap::BitmapAnd(values, mask->offset, validity, mask->offset, n, sel.data(), 0);
    } else {
      // value | !valid == !(valid & !value)
      bitmap::BitmapAndNot(validity, mask->offset, values, mask->offset, n, sel.data(), 0);
      bitmap::InvertBitmap(sel.data(), 0, n, sel.data(), 0);
    }
    impl->count = bitmap::CountSetBits(sel.data(), 0, n);
    if (options.null_selection_behavior == FilterOptions::NullSelection::kEmitNull) {
      QUIVER_ASSIGN_OR_RAISE(auto valid,
                             internal::AllocateBitmap(impl->count, pool));
      internal::FilterBits(validity, mask->offset, sel.data(), 0, n, valid.data(),
                           valid.size());
      impl->valid_bits = valid.Freeze();
      impl->forced_nulls = nulls;
    }
    impl->owned_bits = sel.Freeze();
    impl->bits = impl->owned_bits->data();
    impl->bits_offset = 0;
  }
  return FilterContext(std::move(impl));
}

int64_t FilterContext::input_length() const { return impl_->rows; }
int64_t FilterContext::output_length() const { return impl_->count; }

Result<ArrayDataPtr> FilterContext::Apply(const ArrayDataPtr& values) const {
  const Impl& impl = *impl_;
  if (values->length != impl.rows) {
    return Status::Invalid("filter: the values have ", values->length, " rows and the mask ",
                           impl.rows, "; they must all be the same length");
  }
  RecordSimdLevel(SimdLevel::kScalar);
  if (impl.count == impl.rows && impl.forced_nulls == 0) return values;
  if (impl.RunsForAll()) {
    Selection sel = impl.MakeSelection(true);
    sel.bits = nullptr;  // the runs, for every type
    return internal::Gather(*values, sel, "filter", impl.pool);
  }
  const Selection sel = impl.MakeSelection(internal::NeedsPositions(*values->type));
  return internal::Gather(*values, sel, "filter", impl.pool);
}

Result<RecordBatchPtr> FilterContext::Apply(const RecordBatch& batch) const {
  if (batch.num_rows() != impl_->rows) {
    return Status::Invalid("filter: the batch has ", batch.num_rows(), " rows and the mask ",
                           impl_->rows, "; they must all be the same length");
  }
  std::vector<ArrayDataPtr> columns;
  columns.reserve(static_cast<size_t>(batch.num_columns()));
  for (const auto& column : batch.columns_data()) {
    QUIVER_ASSIGN_OR_RAISE(auto filtered, Apply(column));
    columns.push_back(std::move(filtered));
  }
  return RecordBatch::Make(batch.schema(), impl_->count, std::move(columns));
}

Result<ArrayDataPtr> Filter(const ArrayDataPtr& values, const ArrayDataPtr& mask,
                            FilterOptions options, MemoryPool* pool) {
  if (values->length != mask->length) {
    return Status::Invalid("filter: the values have ", values->length, " rows and the mask ",
                           mask->length, "; they must all be the same length");
  }
  QUIVER_ASSIGN_OR_RAISE(auto context, FilterContext::Make(mask, options, pool, false));
  return context.Apply(values);
}

Result<RecordBatchPtr> Filter(const RecordBatch& batch, const ArrayDataPtr& mask,
                              FilterOptions options, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(auto context, FilterContext::Make(mask, options, pool));
  return context.Apply(batch);
}

}  // namespace quiver::compute
