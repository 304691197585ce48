// Plumbing the binary kernels (arithmetic.cc, compare*.cc) share: argument
// shapes and lengths, the result's validity, exact-size output buffers and
// the values of each argument in the common C type. Not installed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "quiver/array/array_data.h"
#include "quiver/compute/datum.h"
#include "quiver/memory/buffer.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/result.h"

namespace quiver::compute::internal {

// A buffer of exactly `bytes` bytes, not zeroed: the kernel writes every
// byte, then Freeze()s it (which zeroes only the allocation's padding).
Result<MutableBuffer> AllocateOutput(int64_t bytes, MemoryPool* pool);

// Rows of the result: an array's length (both arrays: equal lengths, else
// Invalid as pyarrow words it); two scalars: 1.
Result<int64_t> BinaryLength(const Datum& left, const Datum& right);

// pyarrow's words: "Function '<name>' has no kernel matching input types
// (<left type>, <right type>)".
Status NoKernel(std::string_view name, const DataType& left, const DataType& right);

// The result's validity over `length` rows: the AND of the arrays'
// bitmaps at their offsets (a null scalar or a null-type argument makes
// every row null). `bitmap` is null when no row is null; when only one
// argument has nulls and its offset is a whole byte, it is a slice of that
// argument's bitmap (no copy).
struct ResultValidity {
  std::shared_ptr<Buffer> bitmap;
  int64_t null_count = 0;
  bool all_null = false;
};
Result<ResultValidity> IntersectValidity(const Datum& left, const Datum& right, int64_t length,
                                         MemoryPool* pool);

// One argument's fixed-width values in the kernel's C type: an array's own
// values (offset applied), a converted copy of them (`owned`), or a
// scalar's value in `storage`. Not copyable: `data` may point into
// `storage`.
struct Values {
  Values() = default;
  Values(const Values&) = delete;
  Values& operator=(const Values&) = delete;

  const void* data = nullptr;
  std::shared_ptr<Buffer> owned;
  alignas(32) unsigned char storage[32] = {};

  template <typename T>
  const T* as() const {
    return static_cast<const T*>(data);
  }
};

// Fills `out` with `arg`'s values as numeric or temporal type `to`
// (cast_numeric_internal.h's safe casts when the types differ). A null
// scalar leaves `out` pointing at zeros.
Status PrepareValues(const Datum& arg, const TypePtr& to, Values* out, MemoryPool* pool);

// An all-null result of `type` over `length` rows (values zeroed).
Result<ArrayDataPtr> AllNullResult(const TypePtr& type, int64_t length, MemoryPool* pool);

// The Datum to return: `result` itself, or its only row as a Scalar when
// both arguments were scalars.
Result<Datum> FinishResult(const Datum& left, const Datum& right, ArrayDataPtr result);

}  // namespace quiver::compute::internal
