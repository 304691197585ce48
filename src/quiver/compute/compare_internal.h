// The comparison loops (compare_kernels.cc) that compare.cc dispatches to
// once both arguments have one physical type. Every loop writes the `n`
// result bits packed LSB-first to `out` (BytesForBits(n) bytes, bits past
// n zero), 64 rows to a word. The right argument may be a broadcast scalar;
// a scalar on the left is handled by the caller flipping the operator.
// Not installed.
#pragma once

#include <cstdint>
#include <string_view>

#include "quiver/array/array_data.h"
#include "quiver/compute/arithmetic_internal.h"
#include "quiver/compute/compare.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute::internal {

// The physical value kinds of fixed-width comparisons.
enum class CompareKind : uint8_t {
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat,
  kDouble,
  kHalf,        // IEEE binary16 bits, compared as floats
  kDecimal128,  // 16-byte two's complement
  kDecimal256,  // 32-byte two's complement
};

// less(a, b) == greater(b, a), ...: the operator with its arguments swapped.
CompareOp FlipCompare(CompareOp op);

// Fixed-width values: `left` n values, `right` n values or one
// (right_scalar).
void CompareFixed(CompareOp op, CompareKind kind, const void* left, const void* right,
                  bool right_scalar, int64_t n, uint8_t* out);

// Booleans: bits at bit offsets; a scalar side passes its value instead.
struct BoolSide {
  const uint8_t* bits = nullptr;
  int64_t offset = 0;
  bool is_scalar = false;
  bool value = false;
};
void CompareBool(CompareOp op, const BoolSide& left, const BoolSide& right, int64_t n,
                 uint8_t* out);

// Binary-like arrays (binary, string, large_*, *_view, fixed_size_binary),
// in any mix of layouts, or one against the bytes of a scalar
// (right_scalar non-null).
void CompareBinary(CompareOp op, const ArrayData& left, const ArrayData* right,
                   const std::string_view* right_scalar, int64_t n, uint8_t* out);

// A dictionary array decoded to a plain array of its value type (what
// pyarrow compares a dictionary array with another array as): row i is
// dictionary value indices[i], null where the index or that value is null.
// Values of fixed width, boolean, binary / string (32- and 64-bit
// offsets) and the view layouts (the views are copied, their data buffers
// shared); NotImplemented for another value type.
Result<ArrayDataPtr> DecodeDictionary(const ArrayData& array, MemoryPool* pool);

// Decimal digits an integer type's values can have (int8: 3, int64: 19,
// uint64: 20).
int32_t IntegerDigits(Type id);

// Decimals of different types or scales, or a decimal and an integer
// (compare_decimal.cc): the scale both are compared at (the larger one), or
// Invalid when the precision that holds both passes decimal128's (38
// digits; decimal256's 76 when either is one), as pyarrow.
Result<int32_t> CommonDecimalScale(const DataType& a, const DataType& b);
// `arg`'s values (decimal or integer) as 256-bit integers at `scale`, for
// CompareKind::kDecimal256.
Status PrepareDecimal256(const Datum& arg, int32_t scale, Values* out, MemoryPool* pool);

}  // namespace quiver::compute::internal
