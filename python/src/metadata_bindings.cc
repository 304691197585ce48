#include "metadata_bindings.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <string>

#include "common.h"
#include "objects.h"
#include "quiver/c_data/bridge.h"

namespace quiver::python {

namespace {

struct PyDataType {
  TypePtr type;
};

nb::object WrapType(const TypePtr& type) {
  if (type == nullptr) return nb::none();
  return nb::cast(PyDataType{type});
}

// The value as the plainest Python object (quiver/_scalar.py makes the
// pyarrow-like as_py of it): None, bool, int, float, str, bytes, for
// decimals (sign, digits, scale) as decimal.Decimal's tuple wants them, for
// structs the list of (field name, child _Scalar).
nb::object RawValue(const Scalar& s) {
  if (!s.is_valid()) return nb::none();
  switch (s.type()->id()) {
    case Type::kBool: return nb::bool_(s.bool_value());
    case Type::kUInt8:
    case Type::kUInt16:
    case Type::kUInt32:
    case Type::kUInt64: return nb::int_(s.uint_value());
    case Type::kHalfFloat:
    case Type::kFloat:
    case Type::kDouble: return nb::float_(s.double_value());
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256:
      return nb::make_tuple(s.decimal().is_negative() ? 1 : 0, s.decimal().MagnitudeDigits(),
                            TypeAs<DecimalType>(*s.type()).scale());
    case Type::kString:
    case Type::kLargeString: return nb::str(s.bytes().data(), s.bytes().size());
    case Type::kBinary:
    case Type::kLargeBinary:
    case Type::kFixedSizeBinary: return nb::bytes(s.bytes().data(), s.bytes().size());
    case Type::kStruct: {  // [(field name, child _Scalar), ...]
      nb::list items;
      for (size_t i = 0; i < s.children().size(); ++i) {
        items.append(nb::make_tuple(s.type()->field(static_cast<int>(i))->name(), s.children()[i]));
      }
      return items;
    }
    default: return nb::int_(s.int_value());  // signed ints, dates, times, durations
  }
}

template <typename T>
nb::object Optional(const std::optional<T>& v) {
  if (!v.has_value()) return nb::none();
  return nb::cast(*v);
}

}  // namespace

nb::object WrapDataType(const TypePtr& type) {
  if (type == nullptr) return nb::none();
  return nb::module_::import_("quiver._scalar").attr("DataType")(WrapType(type));
}

nb::object WrapStatistics(std::optional<parquet::Statistics> statistics) {
  if (!statistics.has_value()) return nb::none();
  return nb::cast(std::move(*statistics));
}

void BindMetadata(nb::module_& m) {
  nb::class_<PyDataType>(m, "_DataType")
      .def("__str__", [](const PyDataType& t) { return t.type->ToString(); })
      .def_prop_ro("name", [](const PyDataType& t) { return std::string(t.type->name()); })
      .def_prop_ro("unit",
                   [](const PyDataType& t) -> nb::object {
                     if (auto* temporal = dynamic_cast<const TemporalType*>(t.type.get())) {
                       return nb::str(std::string(TimeUnitName(temporal->unit())).c_str());
                     }
                     return nb::none();
                   })
      .def_prop_ro("tz",
                   [](const PyDataType& t) -> nb::object {
                     auto* temporal = dynamic_cast<const TemporalType*>(t.type.get());
                     if (temporal == nullptr || temporal->timezone().empty()) return nb::none();
                     return nb::str(temporal->timezone().c_str());
                   })
      .def("__eq__", [](const PyDataType& a, const PyDataType& b) {
        return a.type->Equals(*b.type);
      })
      .def_prop_ro("num_fields", [](const PyDataType& t) { return t.type->num_fields(); })
      .def("field",
           [](const PyDataType& t, int i) {
             if (i < 0 || i >= t.type->num_fields()) {
               Raise(Status::IndexError("child field index ", i, " out of range (",
                                        t.type->num_fields(), " fields)"));
             }
             return WrapField(t.type->field(i));
           })
      .def("__arrow_c_schema__",
           [](const PyDataType& t) {
             // A nullable field named "" of the type, as pyarrow exports a DataType.
             nb::object field = WrapField(quiver::field("", t.type, true));
             return field.attr("__arrow_c_schema__")();
           })
      .def_static("_import", [](nb::handle obj) {
        nb::object capsule = obj.attr("__arrow_c_schema__")();
        ArrowSchema c = MoveOutSchemaCapsule(capsule);
        return WrapType(Unwrap(ImportType(&c)));
      });

  nb::class_<Scalar>(m, "_Scalar")
      .def_prop_ro("type", [](const Scalar& s) { return WrapType(s.type()); })
      .def_prop_ro("is_valid", &Scalar::is_valid)
      .def_prop_ro("raw", &RawValue)
      .def("__str__", &Scalar::ToString)
      .def("__eq__", [](const Scalar& a, const Scalar& b) { return a.Equals(b); });

  nb::class_<parquet::Statistics>(m, "_Statistics")
      .def_prop_ro("physical_type",
                   [](const parquet::Statistics& s) {
                     return std::string(parquet::PhysicalTypeName(s.physical_type()));
                   })
      .def_prop_ro("sort_order",
                   [](const parquet::Statistics& s) {
                     return std::string(parquet::SortOrderName(s.sort_order()));
                   })
      .def_prop_ro("bound_type",
                   [](const parquet::Statistics& s) { return WrapType(s.bound_type()); })
      .def_prop_ro("has_min_max", &parquet::Statistics::has_min_max)
      .def_prop_ro("min", &parquet::Statistics::min)
      .def_prop_ro("max", &parquet::Statistics::max)
      .def_prop_ro("min_physical", &parquet::Statistics::min_physical)
      .def_prop_ro("max_physical", &parquet::Statistics::max_physical)
      .def_prop_ro("null_count",
                   [](const parquet::Statistics& s) { return Optional(s.null_count()); })
      .def_prop_ro("distinct_count",
                   [](const parquet::Statistics& s) { return Optional(s.distinct_count()); })
      .def_prop_ro("nan_count",
                   [](const parquet::Statistics& s) { return Optional(s.nan_count()); })
      .def_prop_ro("is_min_value_exact",
                   [](const parquet::Statistics& s) { return Optional(s.is_min_value_exact()); })
      .def_prop_ro("is_max_value_exact",
                   [](const parquet::Statistics& s) { return Optional(s.is_max_value_exact()); })
      .def_prop_ro("num_values", &parquet::Statistics::num_values);
}

}  // namespace quiver::python
