// What the cast files share (cast.cc dispatches; cast_numeric_internal.cc,
// cast_temporal.cc, cast_string.cc, cast_format.cc, cast_parse.cc and
// cast_decimal.cc hold the kernels).
// Not installed.
//
// Every kernel takes an array of its source family and a target type of
// its family, and returns a result at offset 0 whose validity is the
// input's (ResultValidity): shared when the input's offset is a whole
// byte, copied to offset 0 otherwise, absent when no slot is null. (Casts
// that only rename the layout keep the input's buffers and offset.)
#pragma once

#include <memory>
#include <string>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/memory/buffer.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute::internal {

struct CastContext {
  bool safe = true;
  MemoryPool* pool = nullptr;
};

// pyarrow's "Unsupported cast from X to Y using function cast_Z".
Status UnsupportedCast(const DataType& from, const DataType& to);

// The input's validity for a result at offset 0 (see the top of this
// file), and its null count.
struct CastValidity {
  std::shared_ptr<Buffer> bitmap;
  int64_t null_count = 0;
};
Result<CastValidity> ResultValidity(const ArrayData& in, MemoryPool* pool);

// An uninitialised buffer of exactly `bytes` bytes (64-byte aligned).
Result<std::shared_ptr<Buffer>> AllocateExact(int64_t bytes, MemoryPool* pool,
                                              uint8_t** data);

// A fixed-width result: `values` of `to`'s width over in.length rows and
// in's validity.
Result<ArrayDataPtr> FixedWidthResult(const ArrayData& in, const TypePtr& to,
                                      std::shared_ptr<Buffer> values, MemoryPool* pool);

// --- kernels, by family ---

// bool, integers, float16/32/64 among each other (cast_numeric_internal.cc
// for the value loops; bool here).
bool IsNumericCastType(Type id);
Result<ArrayDataPtr> CastNumericArray(const ArrayData& in, const TypePtr& to,
                                      const CastContext& ctx);

// Temporal types among each other and integers to and from the temporal
// types of their width (cast_temporal.cc). `Supported` says whether the
// pair is one of them.
bool TemporalCastSupported(const DataType& from, const DataType& to);
Result<ArrayDataPtr> CastTemporalArray(const ArrayData& in, const TypePtr& to,
                                       const CastContext& ctx);

// binary, large_binary, binary_view, string, large_string, string_view and
// fixed_size_binary among each other (cast_string.cc).
bool IsBinaryCastType(Type id);
bool BinaryCastSupported(const DataType& from, const DataType& to);
Result<ArrayDataPtr> CastBinaryArray(const ArrayDataPtr& in, const TypePtr& to,
                                     const CastContext& ctx);
// The checks of CastBinaryArray alone (UTF-8 towards a string type under
// `safe`, widths towards fixed_size_binary), for a caller that reads the
// bytes in the input's own layout (is_in); a supported pair.
Status CheckBinaryCast(const ArrayData& in, const DataType& to, bool safe);

// bool, integers, floats (float16 too) and decimals to string, large_string
// and string_view, formatted as Arrow C++ does (cast_format.cc).
bool FormatCastSupported(const DataType& from, const DataType& to);
Result<ArrayDataPtr> CastToStringArray(const ArrayData& in, const TypePtr& to,
                                       const CastContext& ctx);

// binary, large_binary, binary_view, string, large_string and string_view
// parsed as bool, integers and floats (cast_parse.cc).
bool ParseCastSupported(const DataType& from, const DataType& to);
Result<ArrayDataPtr> CastParseArray(const ArrayData& in, const TypePtr& to, const CastContext& ctx);

// Decimals among each other, integers to decimals and decimals to integers
// (cast_decimal.cc).
bool DecimalCastSupported(const DataType& from, const DataType& to);
Result<ArrayDataPtr> CastDecimalArray(const ArrayData& in, const TypePtr& to,
                                      const CastContext& ctx);

// Pairs Arrow C++ casts and Quiver does not (strings parsed as decimals,
// dates and timestamps; decimals to and from floats; temporal values as
// strings; dictionary encoding), for the dictionary messages of cast.cc
// and for is_in, which tells a cast pyarrow lacks (TypeError) from one
// Quiver lacks (NotImplemented).
bool ArrowOnlyCast(const DataType& from, const DataType& to);

}  // namespace quiver::compute::internal
