// Datum: a kernel's argument or result, an array or a scalar (pyarrow.compute
// takes both: add(array, 1), equal(array, pa.scalar("a"))). Kernels run on
// the calling thread and return materialized arrays; a ChunkedArray is
// handled a chunk at a time by the caller (the Python bindings).
#pragma once

#include <cstdint>
#include <utility>
#include <variant>

#include "quiver/array/array_data.h"
#include "quiver/array/scalar.h"
#include "quiver/array/type.h"

namespace quiver::compute {

class Datum {
 public:
  Datum() : value_(Scalar()) {}
  Datum(ArrayDataPtr array) : value_(std::move(array)) {}  // NOLINT: implicit on purpose
  Datum(Scalar scalar) : value_(std::move(scalar)) {}      // NOLINT

  bool is_array() const { return std::holds_alternative<ArrayDataPtr>(value_); }
  bool is_scalar() const { return std::holds_alternative<Scalar>(value_); }
  const ArrayDataPtr& array() const { return std::get<ArrayDataPtr>(value_); }
  const Scalar& scalar() const { return std::get<Scalar>(value_); }
  const TypePtr& type() const { return is_array() ? array()->type : scalar().type(); }
  // Rows: the array's length; a scalar broadcasts (1).
  int64_t length() const { return is_array() ? array()->length : 1; }

 private:
  std::variant<ArrayDataPtr, Scalar> value_;
};

}  // namespace quiver::compute
