// quiver.compute's boolean kernels and null predicates (and_, or_, xor,
// invert, and_kleene, or_kleene, is_null, is_valid, is_nan; the wrappers
// are in python/quiver/compute.py). Arguments: a quiver.Array or anything
// with __arrow_c_array__, or a scalar: None (pyarrow types it null), bool,
// int, float, str, bytes, a quiver.Scalar, or a pyarrow scalar of a
// boolean, integer, floating-point, string or binary type (and any null
// pyarrow scalar). The kernels run without the GIL.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <limits>
#include <string>
#include <utility>

#include "common.h"
#include "quiver/array/array.h"
#include "quiver/c_data/bridge.h"
#include "quiver/compute/boolean.h"
#include "quiver/compute/datum.h"
#include "quiver/compute/null_predicates.h"

namespace quiver::python {

namespace {

using compute::Datum;

[[noreturn]] void Unsupported(nb::handle obj) {
  const std::string type = Py_TYPE(obj.ptr())->tp_name;
  throw nb::type_error(("quiver.compute: cannot use a " + type +
                        " here (an array with __arrow_c_array__ or a scalar is needed; chunked "
                        "arrays are not supported by this function yet)")
                           .c_str());
}

// A Python int as the int64 scalar pyarrow makes of it (uint64 above
// int64's range).
Scalar IntScalar(nb::handle obj) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (overflow == 0) return Scalar::MakeInt64(v);
  const unsigned long long u = PyLong_AsUnsignedLongLong(obj.ptr());
  if (PyErr_Occurred()) throw nb::python_error();
  return Unwrap(Scalar::MakeUInt(uint64(), u));
}

// The value of a pyarrow scalar (type, is_valid, as_py()) as a Scalar of
// its type.
Scalar PyArrowScalar(nb::handle obj) {
  nb::object schema_capsule = obj.attr("type").attr("__arrow_c_schema__")();
  ArrowSchema schema = MoveOutSchemaCapsule(schema_capsule);
  TypePtr type = Unwrap(ImportType(&schema));
  if (!nb::cast<bool>(obj.attr("is_valid"))) return Scalar::MakeNull(type);
  nb::object value = obj.attr("as_py")();
  const Type id = type->id();
  if (id == Type::kBool) return Scalar::MakeBool(nb::cast<bool>(value));
  if (IsSignedInteger(id)) return Unwrap(Scalar::MakeInt(type, nb::cast<int64_t>(value)));
  if (IsUnsignedInteger(id)) return Unwrap(Scalar::MakeUInt(type, nb::cast<uint64_t>(value)));
  if (id == Type::kFloat) return Scalar::MakeFloat(static_cast<float>(nb::cast<double>(value)));
  if (id == Type::kDouble) return Scalar::MakeDouble(nb::cast<double>(value));
  if (id == Type::kString || id == Type::kLargeString) {
    return Unwrap(Scalar::MakeBytes(type, nb::cast<std::string>(value)));
  }
  if (id == Type::kBinary || id == Type::kLargeBinary || id == Type::kFixedSizeBinary) {
    nb::bytes b = nb::cast<nb::bytes>(value);
    return Unwrap(Scalar::MakeBytes(type, std::string(b.c_str(), b.size())));
  }
  Unsupported(obj);
}

Datum DatumFromPy(nb::handle obj) {
  if (obj.is_none()) return Scalar();  // pyarrow types a bare None as null
  if (PyBool_Check(obj.ptr())) return Scalar::MakeBool(obj.ptr() == Py_True);
  if (nb::isinstance<Scalar>(obj)) return nb::cast<Scalar>(obj);
  if (nb::hasattr(obj, "_s") && nb::isinstance<Scalar>(obj.attr("_s"))) {
    return nb::cast<Scalar>(obj.attr("_s"));  // quiver.Scalar
  }
  if (nb::hasattr(obj, "__arrow_c_array__")) {
    auto [array, field] = ArrayFromPy(obj);
    return array->data();
  }
  if (PyLong_Check(obj.ptr())) return IntScalar(obj);
  if (PyFloat_Check(obj.ptr())) return Scalar::MakeDouble(nb::cast<double>(obj));
  if (PyUnicode_Check(obj.ptr())) return Scalar::MakeString(nb::cast<std::string>(obj));
  if (PyBytes_Check(obj.ptr())) {
    nb::bytes b = nb::borrow<nb::bytes>(obj);
    return Scalar::MakeBinary(std::string(b.c_str(), b.size()));
  }
  if (nb::hasattr(obj, "as_py") && nb::hasattr(obj, "is_valid") && nb::hasattr(obj, "type") &&
      nb::hasattr(obj.attr("type"), "__arrow_c_schema__")) {
    return PyArrowScalar(obj);
  }
  Unsupported(obj);
}

// An array result as a quiver.Array, a scalar one as a quiver._Scalar.
nb::object WrapDatum(Result<Datum> result) {
  Datum d = Unwrap(std::move(result));
  if (d.is_array()) return WrapArray(MakeArray(d.array()));
  return nb::cast(d.scalar());
}

template <typename Fn>
nb::object Run(Fn&& fn) {
  Result<Datum> result = [&] {
    nb::gil_scoped_release release;
    return fn();
  }();
  return WrapDatum(std::move(result));
}

nb::object BooleanBinary(const std::string& function, nb::handle left, nb::handle right) {
  const Datum l = DatumFromPy(left);
  const Datum r = DatumFromPy(right);
  using Kernel = Result<Datum> (*)(const Datum&, const Datum&, MemoryPool*);
  Kernel kernel = nullptr;
  if (function == "and") kernel = &compute::And;
  if (function == "or") kernel = &compute::Or;
  if (function == "xor") kernel = &compute::Xor;
  if (function == "and_kleene") kernel = &compute::AndKleene;
  if (function == "or_kleene") kernel = &compute::OrKleene;
  if (kernel == nullptr) throw nb::value_error(("unknown boolean function '" + function + "'").c_str());
  return Run([&] { return kernel(l, r, DefaultMemoryPool()); });
}

nb::object BooleanInvert(nb::handle values) {
  const Datum v = DatumFromPy(values);
  return Run([&] { return compute::Invert(v, DefaultMemoryPool()); });
}

nb::object NullPredicate(const std::string& function, nb::handle values, bool nan_is_null) {
  const Datum v = DatumFromPy(values);
  if (function == "is_null") {
    return Run([&] { return compute::IsNull(v, nan_is_null, DefaultMemoryPool()); });
  }
  if (function == "is_valid") return Run([&] { return compute::IsValid(v, DefaultMemoryPool()); });
  if (function == "is_nan") return Run([&] { return compute::IsNan(v, DefaultMemoryPool()); });
  throw nb::value_error(("unknown null predicate '" + function + "'").c_str());
}

}  // namespace

void BindComputeBoolean(nb::module_& c) {
  c.def("boolean", &BooleanBinary, nb::arg("function"), nb::arg("left").none(),
        nb::arg("right").none(),
        "and / or / xor / and_kleene / or_kleene of two booleans (arrays or scalars)");
  c.def("invert", &BooleanInvert, nb::arg("values").none(), "NOT of a boolean array or scalar");
  c.def("null_predicate", &NullPredicate, nb::arg("function"), nb::arg("values").none(),
        nb::arg("nan_is_null"), "is_null / is_valid / is_nan of an array or scalar");
}

}  // namespace quiver::python
