// take (take.h): the indices are checked against the values' length and
// brought to int64 once (int64 indices without nulls are used in place),
// then the gather of selection.cc copies the rows (one index per row). An
// index out of range is set to row 0 in the converted copy (so that the
// gather never reads outside the values; only one under a null can remain
// there, any other is the error); a null index's output row is forced null
// (and binary/list slots get length 0). Bounds are checked only on valid
// indices, as pyarrow (its IndexBoundsCheck visits the validity's set
// runs).
#include "quiver/compute/take.h"

#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "quiver/array/nulls.h"
#include "quiver/compute/selection_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute {

namespace {

const int64_t kNoIndex[1] = {0};

struct PreparedIndices {
  std::unique_ptr<int64_t[]> owned;
  const int64_t* indices = kNoIndex;
  int64_t length = 0;
  const uint8_t* valid_bits = nullptr;
  int64_t valid_offset = 0;
  int64_t nulls = 0;
};

template <typename T>
Status IndexOutOfBounds(T value) {
  using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
  return Status::IndexError("Index ", static_cast<Wide>(value), " out of bounds");
}

template <typename T>
bool OutOfBounds(T value, int64_t rows) {
  if constexpr (std::is_signed_v<T>) {
    return value < 0 || static_cast<int64_t>(value) >= rows;
  } else {
    return static_cast<uint64_t>(value) >= static_cast<uint64_t>(rows);
  }
}

template <typename T>
Status PrepareTyped(const ArrayData& indices, int64_t rows, PreparedIndices* out) {
  const int64_t n = indices.length;
  const T* src = indices.GetValues<T>(1);
  if constexpr (std::is_same_v<T, int64_t>) {
    if (out->nulls == 0) {
      // In place: one pass for the bounds, branch-free until a bad one.
      bool bad = false;
      for (int64_t i = 0; i < n; ++i) bad |= static_cast<uint64_t>(src[i]) >= static_cast<uint64_t>(rows);
      if (bad) {
        for (int64_t i = 0; i < n; ++i) {
          if (OutOfBounds(src[i], rows)) return IndexOutOfBounds(src[i]);
        }
      }
      out->indices = src;
      return Status::OK();
    }
  }
  out->owned.reset(new int64_t[static_cast<size_t>(n)]);
  int64_t* dst = out->owned.get();
  // One branch-free (vectorised) pass: an index out of range becomes row
  // 0; if there was any, a second pass names the first valid one (one
  // under a null index is no error: it stays row 0, never read).
  bool bad = false;
  for (int64_t i = 0; i < n; ++i) {
    // One unsigned compare: a negative index widens to a huge one.
    const int64_t x = static_cast<int64_t>(src[i]);
    const bool oob = static_cast<uint64_t>(x) >= static_cast<uint64_t>(rows);
    bad |= oob;
    dst[i] = oob ? 0 : x;
  }
  if (bad) {
    for (int64_t i = 0; i < n; ++i) {
      const bool valid =
          out->nulls == 0 || bit_util::GetBit(out->valid_bits, out->valid_offset + i);
      if (valid && OutOfBounds(src[i], rows)) return IndexOutOfBounds(src[i]);
    }
  }
  out->indices = dst;
  return Status::OK();
}

Result<PreparedIndices> PrepareIndices(const ArrayData& indices, int64_t rows) {
  PreparedIndices p;
  p.length = indices.length;
  const uint8_t* validity = indices.validity();
  if (validity != nullptr && indices.GetNullCount() > 0) {
    p.valid_bits = validity;
    p.valid_offset = indices.offset;
    p.nulls = indices.GetNullCount();
  }
  if (p.length == 0) return p;
  Status st;
  switch (indices.type->id()) {
    case Type::kInt8: st = PrepareTyped<int8_t>(indices, rows, &p); break;
    case Type::kInt16: st = PrepareTyped<int16_t>(indices, rows, &p); break;
    case Type::kInt32: st = PrepareTyped<int32_t>(indices, rows, &p); break;
    case Type::kInt64: st = PrepareTyped<int64_t>(indices, rows, &p); break;
    case Type::kUInt8: st = PrepareTyped<uint8_t>(indices, rows, &p); break;
    case Type::kUInt16: st = PrepareTyped<uint16_t>(indices, rows, &p); break;
    case Type::kUInt32: st = PrepareTyped<uint32_t>(indices, rows, &p); break;
    case Type::kUInt64: st = PrepareTyped<uint64_t>(indices, rows, &p); break;
    default:
      return Status::NotImplemented("take: the indices must be of an integer type, not ",
                                    indices.type->ToString());
  }
  QUIVER_RETURN_NOT_OK(st);
  return p;
}

Status CheckIndexType(const ArrayData& indices) {
  if (!IsInteger(indices.type->id())) {
    return Status::NotImplemented("take: the indices must be of an integer type, not ",
                                  indices.type->ToString());
  }
  return Status::OK();
}

// Every index null and no row to point at: the output is all null.
Result<ArrayDataPtr> AllNull(const ArrayData& values, int64_t length, MemoryPool* pool) {
  if (values.type->id() == Type::kFixedSizeBinary && values.type->byte_width() == 0) {
    // MakeArrayOfNulls refuses a width of 0 (its bit width is 0).
    QUIVER_ASSIGN_OR_RAISE(auto validity, internal::AllocateBitmap(length, pool));
    bitmap::SetBitsTo(validity.data(), 0, length, false);
    return ArrayData::Make(values.type, length, {validity.Freeze(), Buffer::Empty()}, length);
  }
  QUIVER_ASSIGN_OR_RAISE(auto out, MakeArrayOfNulls(values.type, length, pool));
  if (values.type->id() == Type::kDictionary) out->dictionary = values.dictionary;
  return out;
}

Result<ArrayDataPtr> TakePrepared(const ArrayData& values, const PreparedIndices& p,
                                  MemoryPool* pool) {
  RecordSimdLevel(SimdLevel::kScalar);
  // Only null indices can reach an empty array (any valid one failed the
  // bounds check).
  if (values.length == 0 && p.length > 0) return AllNull(values, p.length, pool);
  internal::Selection sel;
  sel.length = p.length;
  sel.indices = p.indices;
  if (p.nulls > 0) {
    sel.valid_bits = p.valid_bits;
    sel.valid_offset = p.valid_offset;
    sel.forced_nulls = p.nulls;
  }
  return internal::Gather(values, sel, "take", pool);
}

}  // namespace

Result<ArrayDataPtr> Take(const ArrayDataPtr& values, const ArrayDataPtr& indices,
                          TakeOptions options, MemoryPool* pool) {
  QUIVER_RETURN_NOT_OK(CheckIndexType(*indices));
  QUIVER_ASSIGN_OR_RAISE(auto prepared, PrepareIndices(*indices, values->length));
  return TakePrepared(*values, prepared, pool);
}

Result<RecordBatchPtr> Take(const RecordBatch& batch, const ArrayDataPtr& indices,
                            TakeOptions options, MemoryPool* pool) {
  QUIVER_RETURN_NOT_OK(CheckIndexType(*indices));
  QUIVER_ASSIGN_OR_RAISE(auto prepared, PrepareIndices(*indices, batch.num_rows()));
  std::vector<ArrayDataPtr> columns;
  columns.reserve(static_cast<size_t>(batch.num_columns()));
  for (const auto& column : batch.columns_data()) {
    QUIVER_ASSIGN_OR_RAISE(auto taken, TakePrepared(*column, prepared, pool));
    columns.push_back(std::move(taken));
  }
  return RecordBatch::Make(batch.schema(), indices->length, std::move(columns));
}

}  // namespace quiver::compute
