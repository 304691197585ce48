// Comparison kernels with pyarrow.compute's semantics: equal, not_equal,
// less, less_equal, greater, greater_equal, each giving a boolean array
// (or a boolean scalar for two scalars).
//
//  - Types: every integer, float16/32/64 (IEEE: NaN compares false and
//    not_equal with NaN is true, -0.0 == +0.0), boolean, date32/64,
//    time32/64, timestamp, duration, decimal32/64/128/256 (different
//    scales, and decimals against integers, at the larger scale as
//    pyarrow's casts put them),
//    string / binary in their three layouts and fixed_size_binary (bytes in
//    memcmp order), and dictionary arrays: against a scalar the dictionary
//    is compared once, then the indices pick the results; against another
//    array (dictionary or not) the dictionary is decoded first, as pyarrow
//    does.
//  - Mixed types are brought to pyarrow's common type first
//    (type_promotion.h): numbers by CommonNumeric with safe casts (uint64
//    vs int64 compares as int64, a uint64 value past 2^63 is Invalid as
//    pyarrow's cast), temporal types by CommonTemporal (finest unit),
//    binaries by CommonBinary (compared as bytes without a copy). A
//    timestamp with a zone against one without is Invalid, as pyarrow's.
//  - Nulls: a row is null when either side's is; a null scalar or a
//    null-type argument gives an all-null result; no validity buffer when
//    no row is null.
//  - Results are packed 64 rows to a word. int32/int64/float/double have
//    AVX2 loops chosen through simd_level.h (RecordSimdLevel says which
//    ran).
//  - Not supported (NotImplemented naming the function and the types):
//    decimals against floats (pyarrow compares them as float64), view
//    layouts against the other layouts, nested types, intervals.
#pragma once

#include <cstdint>
#include <string_view>

#include "quiver/compute/datum.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

enum class CompareOp : uint8_t { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };

// pyarrow's function name: "equal", "less_equal", ...
std::string_view CompareFunctionName(CompareOp op);

Result<Datum> Compare(CompareOp op, const Datum& left, const Datum& right,
                      MemoryPool* pool = DefaultMemoryPool());

inline Result<Datum> Equal(const Datum& l, const Datum& r, MemoryPool* pool = DefaultMemoryPool()) {
  return Compare(CompareOp::kEqual, l, r, pool);
}
inline Result<Datum> NotEqual(const Datum& l, const Datum& r,
                              MemoryPool* pool = DefaultMemoryPool()) {
  return Compare(CompareOp::kNotEqual, l, r, pool);
}
inline Result<Datum> Less(const Datum& l, const Datum& r, MemoryPool* pool = DefaultMemoryPool()) {
  return Compare(CompareOp::kLess, l, r, pool);
}
inline Result<Datum> LessEqual(const Datum& l, const Datum& r,
                               MemoryPool* pool = DefaultMemoryPool()) {
  return Compare(CompareOp::kLessEqual, l, r, pool);
}
inline Result<Datum> Greater(const Datum& l, const Datum& r,
                             MemoryPool* pool = DefaultMemoryPool()) {
  return Compare(CompareOp::kGreater, l, r, pool);
}
inline Result<Datum> GreaterEqual(const Datum& l, const Datum& r,
                                  MemoryPool* pool = DefaultMemoryPool()) {
  return Compare(CompareOp::kGreaterEqual, l, r, pool);
}

}  // namespace quiver::compute
