// Python sequences to Arrow arrays without pyarrow (Table.from_pydict's
// lists): None, bool, int, float, str and bytes values, typed as pyarrow
// types them (ints int64, ints with floats double, str utf8, bytes binary,
// only None the null type), or into an explicit type of those kinds (ints
// range-checked into the type). Other values (datetimes, Decimals, lists,
// dicts...) go through pyarrow.array when it is installed; without it, a
// TypeError names the value's type.
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "common.h"
#include "objects.h"
#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/c_data/bridge.h"

namespace quiver::python {

namespace {

enum class Kind { kNone, kBool, kInt, kFloat, kStr, kBytes, kOther };

Kind KindOf(PyObject* v) {
  if (v == Py_None) return Kind::kNone;
  if (PyBool_Check(v)) return Kind::kBool;
  if (PyLong_Check(v)) return Kind::kInt;
  if (PyFloat_Check(v)) return Kind::kFloat;
  if (PyUnicode_Check(v)) return Kind::kStr;
  if (PyBytes_Check(v)) return Kind::kBytes;
  return Kind::kOther;
}

std::string TypeName(PyObject* v) { return Py_TYPE(v)->tp_name; }

[[noreturn]] void Mismatch(PyObject* v, int64_t i, const DataType& type) {
  Raise(Status::TypeError("value ", i, " (a Python ", TypeName(v), ") cannot be stored as ",
                          type.ToString()));
}

template <typename T>
ArrayDataPtr BuildInts(nb::list values, const TypePtr& type) {
  NumericBuilder<T> b(type);
  Check(b.Reserve(static_cast<int64_t>(values.size())));
  int64_t i = 0;
  for (nb::handle h : values) {
    PyObject* v = h.ptr();
    if (v == Py_None) {
      Check(b.AppendNull());
    } else if (PyLong_Check(v) && !PyBool_Check(v)) {
      T x;
      if constexpr (std::is_signed_v<T>) {
        int overflow = 0;
        const long long w = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow != 0 || w < std::numeric_limits<T>::min() || w > std::numeric_limits<T>::max()) {
          Raise(Status::Invalid("value ", i, " does not fit in ", type->ToString()));
        }
        x = static_cast<T>(w);
      } else {
        const unsigned long long w = PyLong_AsUnsignedLongLong(v);
        if (PyErr_Occurred() || w > std::numeric_limits<T>::max()) {
          PyErr_Clear();
          Raise(Status::Invalid("value ", i, " does not fit in ", type->ToString()));
        }
        x = static_cast<T>(w);
      }
      Check(b.Append(x));
    } else {
      Mismatch(v, i, *type);
    }
    ++i;
  }
  return Unwrap(b.Finish());
}

template <typename T>
ArrayDataPtr BuildFloats(nb::list values, const TypePtr& type) {
  NumericBuilder<T> b(type);
  Check(b.Reserve(static_cast<int64_t>(values.size())));
  int64_t i = 0;
  for (nb::handle h : values) {
    PyObject* v = h.ptr();
    if (v == Py_None) {
      Check(b.AppendNull());
    } else if (PyFloat_Check(v) || (PyLong_Check(v) && !PyBool_Check(v))) {
      const double d = PyFloat_AsDouble(v);
      if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
      Check(b.Append(static_cast<T>(d)));
    } else {
      Mismatch(v, i, *type);
    }
    ++i;
  }
  return Unwrap(b.Finish());
}

ArrayDataPtr BuildBools(nb::list values, const TypePtr& type) {
  BooleanBuilder b;
  Check(b.Reserve(static_cast<int64_t>(values.size())));
  int64_t i = 0;
  for (nb::handle h : values) {
    PyObject* v = h.ptr();
    if (v == Py_None) {
      Check(b.AppendNull());
    } else if (PyBool_Check(v)) {
      Check(b.Append(v == Py_True));
    } else {
      Mismatch(v, i, *type);
    }
    ++i;
  }
  return Unwrap(b.Finish());
}

template <typename Builder>
ArrayDataPtr BuildBinary(nb::list values, const TypePtr& type, bool text) {
  Builder b;
  Check(b.Reserve(static_cast<int64_t>(values.size())));
  int64_t i = 0;
  for (nb::handle h : values) {
    PyObject* v = h.ptr();
    if (v == Py_None) {
      Check(b.AppendNull());
    } else if (PyUnicode_Check(v)) {
      Py_ssize_t n = 0;
      const char* p = PyUnicode_AsUTF8AndSize(v, &n);
      if (p == nullptr) throw nb::python_error();
      Check(b.Append(std::string_view(p, static_cast<size_t>(n))));
    } else if (!text && PyBytes_Check(v)) {
      Check(b.Append(std::string_view(PyBytes_AsString(v), static_cast<size_t>(PyBytes_Size(v)))));
    } else {
      Mismatch(v, i, *type);
    }
    ++i;
  }
  return Unwrap(b.Finish());
}

// The array, or nullptr when the type is not one built here.
ArrayDataPtr Build(nb::list values, const TypePtr& type) {
  switch (type->id()) {
    case Type::kNull: {
      for (nb::handle h : values) {
        if (!h.is_none()) Mismatch(h.ptr(), 0, *type);
      }
      NullBuilder b;
      Check(b.AppendNulls(static_cast<int64_t>(values.size())));
      return Unwrap(b.Finish());
    }
    case Type::kBool: return BuildBools(values, type);
    case Type::kInt8: return BuildInts<int8_t>(values, type);
    case Type::kInt16: return BuildInts<int16_t>(values, type);
    case Type::kInt32: return BuildInts<int32_t>(values, type);
    case Type::kInt64: return BuildInts<int64_t>(values, type);
    case Type::kUInt8: return BuildInts<uint8_t>(values, type);
    case Type::kUInt16: return BuildInts<uint16_t>(values, type);
    case Type::kUInt32: return BuildInts<uint32_t>(values, type);
    case Type::kUInt64: return BuildInts<uint64_t>(values, type);
    case Type::kFloat: return BuildFloats<float>(values, type);
    case Type::kDouble: return BuildFloats<double>(values, type);
    case Type::kString: return BuildBinary<StringBuilder>(values, type, true);
    case Type::kLargeString: return BuildBinary<LargeStringBuilder>(values, type, true);
    case Type::kBinary: return BuildBinary<BinaryBuilder>(values, type, false);
    case Type::kLargeBinary: return BuildBinary<LargeBinaryBuilder>(values, type, false);
    default: return nullptr;
  }
}

// pyarrow's inference over plain values; nullptr for another value.
TypePtr Infer(nb::list values) {
  bool any_bool = false, any_int = false, any_float = false, any_str = false, any_bytes = false;
  for (nb::handle h : values) {
    switch (KindOf(h.ptr())) {
      case Kind::kNone: break;
      case Kind::kBool: any_bool = true; break;
      case Kind::kInt: any_int = true; break;
      case Kind::kFloat: any_float = true; break;
      case Kind::kStr: any_str = true; break;
      case Kind::kBytes: any_bytes = true; break;
      case Kind::kOther: return nullptr;
    }
  }
  const int kinds = any_bool + (any_int || any_float) + any_str + any_bytes;
  if (kinds > 1) {
    Raise(Status::TypeError("the values mix ", any_bool ? "bool " : "", any_int ? "int " : "",
                            any_float ? "float " : "", any_str ? "str " : "",
                            any_bytes ? "bytes " : "", "(give one kind, or a type)"));
  }
  if (any_bool) return boolean();
  if (any_float) return float64();
  if (any_int) return int64();
  if (any_str) return utf8();
  if (any_bytes) return binary();
  return null();
}

nb::object ViaPyarrow(nb::list values, nb::handle type) {
  nb::object pa;
  try {
    pa = nb::module_::import_("pyarrow");
  } catch (nb::python_error&) {
    for (nb::handle h : values) {
      if (KindOf(h.ptr()) == Kind::kOther) {
        Raise(Status::TypeError("Quiver converts None, bool, int, float, str and bytes values "
                                "itself; a Python ", TypeName(h.ptr()),
                                " needs pyarrow (pip install pyarrow) or an Arrow array"));
      }
    }
    Raise(Status::TypeError("this type needs pyarrow to convert Python values (pip install "
                            "pyarrow), or give an Arrow array"));
  }
  nb::object arr = type.is_none() ? pa.attr("array")(values)
                                  : pa.attr("array")(values, nb::arg("type") = type);
  auto [array, field] = ArrayFromPy(arr);
  return WrapArray(array);
}

}  // namespace

void BindPyConvert(nb::module_& m) {
  m.def(
      "_array_from_pylist",
      [](nb::list values, nb::handle type_obj) -> nb::object {
        TypePtr type;
        if (!type_obj.is_none()) {
          type = TypeOfPy(type_obj);
        } else {
          type = Infer(values);
          if (type == nullptr) return ViaPyarrow(values, type_obj);
        }
        ArrayDataPtr data = Build(values, type);
        if (data == nullptr) return ViaPyarrow(values, type_obj);
        return WrapArray(MakeArray(std::move(data)));
      },
      nb::arg("values"), nb::arg("type").none(),
      "An array of Python values (see python/src/pyconvert.cc)");
}

}  // namespace quiver::python
