// The argument conversion every quiver.compute binding uses, and the small
// quiver.ChunkedArray results of chunked inputs come back as.
//
// An argument is
//  - an array: a quiver.Array or anything with __arrow_c_array__ (zero-copy);
//  - a chunked array: a quiver.ChunkedArray, or anything with
//    __arrow_c_stream__ and `chunks` (pyarrow's ChunkedArray);
//  - a scalar: None (a null of the null type, which takes the other
//    argument's type), bool, int (int64 as pa.scalar types it; beyond
//    int64's range a TypeError, as pyarrow.compute's), float (float64), str (utf8), bytes
//    (binary), datetime / date / time / timedelta and decimal.Decimal (as
//    pa.scalar types them: pyarrow is imported for these), a quiver.Scalar,
//    or a pyarrow Scalar (plain types from as_py(), others through a
//    one-row pyarrow array of their type).
#pragma once

#include <functional>
#include <vector>

#include <nanobind/nanobind.h>

#include "common.h"
#include "quiver/compute/datum.h"

namespace quiver::python {

// A chunked array: its chunks and their type (kept for zero chunks).
struct ChunkedData {
  std::vector<ArrayDataPtr> chunks;
  TypePtr type;
  int64_t length() const;
};

struct ComputeArg {
  bool chunked = false;
  compute::Datum datum;  // when !chunked
  ChunkedData chunks;    // when chunked
};

ComputeArg ComputeArgFromPy(nb::handle obj);

// The chunks of a quiver.ChunkedArray, or of anything with `chunks` (each
// with __arrow_c_array__) and a `type` with __arrow_c_schema__.
ChunkedData ChunksFromPy(nb::handle obj);

// A kernel's result as Python sees it: a quiver.Array, or a quiver.Scalar
// for two scalars.
nb::object WrapDatum(const compute::Datum& datum);
// Chunks as a quiver.ChunkedArray.
nb::object WrapChunked(ChunkedData data);

// Applies a binary kernel to two arguments, without the GIL while it runs:
// chunk by chunk when either is chunked (the chunks cut where either
// argument's chunks do), giving a quiver.ChunkedArray.
using BinaryKernel = std::function<Result<compute::Datum>(const compute::Datum&,
                                                          const compute::Datum&)>;
nb::object CallBinary(const BinaryKernel& kernel, nb::handle left, nb::handle right);

// Applies a unary kernel to one argument, without the GIL while it runs:
// chunk by chunk for a chunked array (a quiver.ChunkedArray of the same
// chunking comes back).
using UnaryKernel = std::function<Result<compute::Datum>(const compute::Datum&)>;
nb::object CallUnary(const UnaryKernel& kernel, nb::handle values);

// quiver.ChunkedArray, in module `m`.
void BindChunkedArray(nb::module_& m);

// The arithmetic and comparison functions (compute_arith.cc), in the
// _compute submodule `c`.
void BindArithmetic(nb::module_& c);

}  // namespace quiver::python
