// quiver.compute's arithmetic and comparison functions: add, add_checked,
// ..., divide_checked, equal, ..., greater_equal (src/quiver/compute
// arithmetic.h and compare.h), with pyarrow.compute's argument handling
// (compute_datum.h).
#include <string>

#include "compute_datum.h"
#include "quiver/compute/arithmetic.h"
#include "quiver/compute/compare.h"

namespace quiver::python {

void BindArithmetic(nb::module_& c) {
  using compute::ArithmeticOp;
  using compute::CompareOp;
  for (ArithmeticOp op : {ArithmeticOp::kAdd, ArithmeticOp::kSubtract, ArithmeticOp::kMultiply,
                          ArithmeticOp::kDivide}) {
    for (bool checked : {false, true}) {
      const std::string name(compute::ArithmeticFunctionName(op, checked));
      c.def(
          name.c_str(),
          [op, checked](nb::object x, nb::object y) {
            return CallBinary(
                [op, checked](const compute::Datum& l, const compute::Datum& r) {
                  return compute::Arithmetic(op, checked, l, r);
                },
                x, y);
          },
          nb::arg("x").none(), nb::arg("y").none());
    }
  }
  for (CompareOp op : {CompareOp::kEqual, CompareOp::kNotEqual, CompareOp::kLess,
                       CompareOp::kLessEqual, CompareOp::kGreater, CompareOp::kGreaterEqual}) {
    const std::string name(compute::CompareFunctionName(op));
    c.def(
        name.c_str(),
        [op](nb::object x, nb::object y) {
          return CallBinary(
              [op](const compute::Datum& l, const compute::Datum& r) {
                return compute::Compare(op, l, r);
              },
              x, y);
        },
        nb::arg("x").none(), nb::arg("y").none());
  }
}

}  // namespace quiver::python
