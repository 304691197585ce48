// Array values as Python objects, without pyarrow: the values pyarrow's
// Array.to_pylist() / Scalar.as_py() give for every type the reader returns.
//   null -> None; bool, ints -> bool, int; float16/32/64 -> float;
//   string (all layouts) -> str; binary (all layouts) -> bytes;
//   date32/64 -> datetime.date; time32/64 -> datetime.time;
//   timestamp -> datetime.datetime (time-zone aware when the type has a
//   zone, in that zone); duration -> datetime.timedelta. Nanosecond units as
//   pyarrow: with pandas importable, timestamps are pandas.Timestamp,
//   durations pandas.Timedelta and times truncated to microseconds; without
//   it, a value that is not a whole number of microseconds raises
//   pyarrow's ValueError;
//   decimals -> decimal.Decimal with the type's scale as exponent;
//   list / large_list / fixed_size_list / list views -> list; struct -> dict;
//   map -> list of (key, value) tuples; dictionary -> its value;
//   month intervals -> int; day_time -> (days, milliseconds);
//   month_day_nano -> (months, days, nanoseconds) (pyarrow's MonthDayNano
//   is a tuple of those).
// Dates and times are built with CPython's datetime C API from the civil date
// of the day number (H. Hinnant's days_from_civil inverse,
// https://howardhinnant.github.io/date_algorithms.html#civil_from_days).
#include <Python.h>
#include <datetime.h>

#include <cstring>
#include <string>

#include "common.h"
#include "objects.h"
#include "quiver/array/validate.h"
#include "quiver/compute/cast_numeric_internal.h"

namespace quiver::python {

namespace {

struct Civil {
  int year, month, day;
};

Civil CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int>(y + (m <= 2)), static_cast<int>(m), static_cast<int>(d)};
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

nb::object Steal(PyObject* p) {
  if (p == nullptr) throw nb::python_error();
  return nb::steal(p);
}

[[noreturn]] void RaiseValueError(const std::string& message) {
  PyErr_SetString(PyExc_ValueError, message.c_str());
  throw nb::python_error();
}

// pandas, once imported (None when it is not installed): pyarrow converts
// nanosecond values through it.
nb::object Pandas() {
  static bool tried = false;
  static PyObject* pandas = nullptr;  // kept for the process's life
  if (!tried) {
    tried = true;
    PyObject* m = PyImport_ImportModule("pandas");
    if (m == nullptr) {
      PyErr_Clear();
    } else {
      pandas = m;
    }
  }
  return pandas == nullptr ? nb::none() : nb::borrow(pandas);
}

// `value` in `unit` as microseconds; nanoseconds must be whole microseconds
// (`what` names the Python type for pyarrow's error), unless `truncate`.
int64_t Micros(int64_t value, TimeUnit unit, const char* what = "datetime.datetime",
               bool truncate = false) {
  switch (unit) {
    case TimeUnit::kSecond: return value * 1000000;
    case TimeUnit::kMilli: return value * 1000;
    case TimeUnit::kMicro: return value;
    case TimeUnit::kNano:
      if (value % 1000 != 0 && !truncate) {
        const bool duration = std::strcmp(what, "datetime.timedelta") == 0;
        RaiseValueError(std::string(duration ? "Nanosecond duration " :
                                               "Nanosecond resolution temporal type ") +
                        std::to_string(value) + " is not safely convertible to microseconds to "
                        "convert to " + what + ". Install pandas to return as " +
                        (duration ? "Timedelta" : "Timestamp") +
                        " with nanosecond support or access the .value attribute.");
      }
      return FloorDiv(value, 1000);
  }
  return value;
}

nb::object MakeDate(int64_t days) {
  const Civil c = CivilFromDays(days);
  if (c.year < 1 || c.year > 9999) {
    RaiseValueError("date of day " + std::to_string(days) + " is out of datetime.date's range");
  }
  return Steal(PyDate_FromDate(c.year, c.month, c.day));
}

class Converter {
 public:
  Converter() {
    if (PyDateTimeAPI == nullptr) {
      PyDateTime_IMPORT;
      if (PyDateTimeAPI == nullptr) throw nb::python_error();
    }
  }

  nb::object Value(const ArrayData& d, int64_t i) {
    if (!d.IsValid(i)) return nb::none();
    const DataType& type = *d.type;
    switch (type.id()) {
      case Type::kNull: return nb::none();
      case Type::kBool:
        return nb::bool_(bit_util::GetBit(d.buffers[1]->data(), d.offset + i));
      case Type::kInt8: return nb::int_(d.GetValues<int8_t>(1)[i]);
      case Type::kInt16: return nb::int_(d.GetValues<int16_t>(1)[i]);
      case Type::kInt32: return nb::int_(d.GetValues<int32_t>(1)[i]);
      case Type::kInt64: return nb::int_(d.GetValues<int64_t>(1)[i]);
      case Type::kUInt8: return nb::int_(d.GetValues<uint8_t>(1)[i]);
      case Type::kUInt16: return nb::int_(d.GetValues<uint16_t>(1)[i]);
      case Type::kUInt32: return nb::int_(d.GetValues<uint32_t>(1)[i]);
      case Type::kUInt64: return nb::int_(d.GetValues<uint64_t>(1)[i]);
      case Type::kFloat: return nb::float_(d.GetValues<float>(1)[i]);
      case Type::kDouble: return nb::float_(d.GetValues<double>(1)[i]);
      case Type::kHalfFloat:
        return nb::float_(Unwrap(compute::internal::ScalarFromArray(d, i)).double_value());
      case Type::kString:
      case Type::kBinary: {
        const int32_t* o = d.GetValues<int32_t>(1);
        return Bytes(type.id() == Type::kString, d.buffers[2]->data() + o[i], o[i + 1] - o[i]);
      }
      case Type::kLargeString:
      case Type::kLargeBinary: {
        const int64_t* o = d.GetValues<int64_t>(1);
        return Bytes(type.id() == Type::kLargeString, d.buffers[2]->data() + o[i], o[i + 1] - o[i]);
      }
      case Type::kStringView:
      case Type::kBinaryView: {
        const uint8_t* view = d.buffers[1]->data() + (d.offset + i) * 16;
        int32_t length;
        std::memcpy(&length, view, 4);
        const uint8_t* bytes = view + 4;
        if (length > 12) {
          int32_t buffer_index, offset;
          std::memcpy(&buffer_index, view + 8, 4);
          std::memcpy(&offset, view + 12, 4);
          bytes = d.buffers[static_cast<size_t>(2 + buffer_index)]->data() + offset;
        }
        return Bytes(type.id() == Type::kStringView, bytes, length);
      }
      case Type::kFixedSizeBinary: {
        const int64_t w = TypeAs<FixedSizeBinaryType>(type).fixed_byte_width();
        return Bytes(false, d.buffers[1]->data() + (d.offset + i) * w, w);
      }
      case Type::kDate32: return MakeDate(d.GetValues<int32_t>(1)[i]);
      case Type::kDate64: return MakeDate(FloorDiv(d.GetValues<int64_t>(1)[i], 86400000));
      case Type::kTimestamp: return Timestamp(d, i);
      case Type::kTime32:
      case Type::kTime64: {
        const auto& t = TypeAs<TemporalType>(type);
        const int64_t raw = type.id() == Type::kTime32 ? d.GetValues<int32_t>(1)[i]
                                                       : d.GetValues<int64_t>(1)[i];
        const bool pandas = t.unit() == TimeUnit::kNano && !Pandas().is_none();
        // Out-of-day values wrap around the day, as pyarrow's (epoch + delta).time().
        const int64_t day = 86400LL * 1000000;
        const int64_t us = Micros(raw, t.unit(), "datetime.datetime", pandas) -
                           FloorDiv(Micros(raw, t.unit(), "datetime.datetime", pandas), day) * day;
        const int64_t s = us / 1000000;
        return Steal(PyTime_FromTime(static_cast<int>(s / 3600), static_cast<int>(s / 60 % 60),
                                     static_cast<int>(s % 60), static_cast<int>(us % 1000000)));
      }
      case Type::kDuration: {
        const int64_t raw = d.GetValues<int64_t>(1)[i];
        const TimeUnit unit = TypeAs<TemporalType>(type).unit();
        if (unit == TimeUnit::kNano) {
          nb::object pd = Pandas();
          if (!pd.is_none()) return pd.attr("Timedelta")(raw, nb::arg("unit") = "ns");
        }
        const int64_t us = Micros(raw, unit, "datetime.timedelta");
        const int64_t days = FloorDiv(us, 86400LL * 1000000);
        const int64_t rest = us - days * 86400LL * 1000000;
        return Steal(PyDelta_FromDSU(static_cast<int>(days), static_cast<int>(rest / 1000000),
                                     static_cast<int>(rest % 1000000)));
      }
      case Type::kIntervalMonths: return nb::int_(d.GetValues<int32_t>(1)[i]);
      case Type::kIntervalDayTime: {
        const uint8_t* p = d.buffers[1]->data() + 8 * (d.offset + i);
        int32_t days, millis;
        std::memcpy(&days, p, 4);
        std::memcpy(&millis, p + 4, 4);
        return nb::make_tuple(days, millis);
      }
      case Type::kIntervalMonthDayNano: {
        const uint8_t* p = d.buffers[1]->data() + 16 * (d.offset + i);
        int32_t months, days;
        int64_t nanos;
        std::memcpy(&months, p, 4);
        std::memcpy(&days, p + 4, 4);
        std::memcpy(&nanos, p + 8, 8);
        return nb::make_tuple(months, days, nanos);
      }
      case Type::kDecimal32:
      case Type::kDecimal64:
      case Type::kDecimal128:
      case Type::kDecimal256: {
        const Scalar s = Unwrap(compute::internal::ScalarFromArray(d, i));
        const int32_t scale = TypeAs<DecimalType>(type).scale();
        const std::string text = s.decimal().ToString() + "E" + std::to_string(-scale);
        if (!decimal_.is_valid()) decimal_ = nb::module_::import_("decimal").attr("Decimal");
        return decimal_(nb::str(text.c_str()));
      }
      case Type::kList: {
        const int32_t* o = d.GetValues<int32_t>(1);
        return Slots(*d.children[0], o[i], o[i + 1]);
      }
      case Type::kLargeList: {
        const int64_t* o = d.GetValues<int64_t>(1);
        return Slots(*d.children[0], o[i], o[i + 1]);
      }
      case Type::kFixedSizeList: {
        const int64_t n = TypeAs<ListType>(type).list_size();
        return Slots(*d.children[0], (d.offset + i) * n, (d.offset + i + 1) * n);
      }
      case Type::kMap: {
        const int32_t* o = d.GetValues<int32_t>(1);
        const ArrayData& entries = *d.children[0];
        nb::list out;
        for (int64_t j = o[i]; j < o[i + 1]; ++j) {
          const int64_t at = entries.offset + j;
          out.append(nb::make_tuple(Value(*entries.children[0], at), Value(*entries.children[1], at)));
        }
        return out;
      }
      case Type::kStruct: {
        nb::dict out;
        for (int f = 0; f < type.num_fields(); ++f) {
          out[nb::str(type.field(f)->name().c_str())] =
              Value(*d.children[static_cast<size_t>(f)], d.offset + i);
        }
        return out;
      }
      case Type::kDictionary: {
        const DataType& index_type = *TypeAs<DictionaryType>(type).index_type();
        int64_t index = 0;
        switch (index_type.id()) {
          case Type::kInt8: index = d.GetValues<int8_t>(1)[i]; break;
          case Type::kUInt8: index = d.GetValues<uint8_t>(1)[i]; break;
          case Type::kInt16: index = d.GetValues<int16_t>(1)[i]; break;
          case Type::kUInt16: index = d.GetValues<uint16_t>(1)[i]; break;
          case Type::kInt32: index = d.GetValues<int32_t>(1)[i]; break;
          case Type::kUInt32: index = d.GetValues<uint32_t>(1)[i]; break;
          case Type::kInt64: index = d.GetValues<int64_t>(1)[i]; break;
          default: index = static_cast<int64_t>(d.GetValues<uint64_t>(1)[i]); break;
        }
        if (index < 0 || index >= d.dictionary->length) {
          Raise(Status::IndexError("dictionary index ", index, " out of range (",
                                   d.dictionary->length, " values)"));
        }
        return Value(*d.dictionary, index);
      }
      default:
        Raise(Status::NotImplemented("to_pylist: values of type ", type.ToString(),
                                     " have no Python conversion in Quiver (to_pyarrow() "
                                     "then to_pylist())"));
    }
  }

 private:
  static nb::object Bytes(bool text, const uint8_t* p, int64_t n) {
    const auto* c = reinterpret_cast<const char*>(p);
    if (text) return Steal(PyUnicode_DecodeUTF8(c, static_cast<Py_ssize_t>(n), "strict"));
    return Steal(PyBytes_FromStringAndSize(c, static_cast<Py_ssize_t>(n)));
  }

  // The child's logical slots [begin, end) as a list.
  nb::object Slots(const ArrayData& child, int64_t begin, int64_t end) {
    nb::list out;
    for (int64_t j = begin; j < end; ++j) out.append(Value(child, j));
    return out;
  }

  nb::object Timestamp(const ArrayData& d, int64_t i) {
    const auto& t = TypeAs<TemporalType>(*d.type);
    if (t.unit() == TimeUnit::kNano) {
      nb::object pd = Pandas();
      if (!pd.is_none()) {
        const int64_t raw = d.GetValues<int64_t>(1)[i];
        if (t.timezone().empty()) return pd.attr("Timestamp")(raw, nb::arg("unit") = "ns");
        return pd.attr("Timestamp")(raw, nb::arg("unit") = "ns", nb::arg("tz") = "UTC")
            .attr("tz_convert")(nb::str(t.timezone().c_str()));
      }
    }
    const int64_t us = Micros(d.GetValues<int64_t>(1)[i], t.unit());
    const int64_t day_us = 86400LL * 1000000;
    const int64_t days = FloorDiv(us, day_us);
    const int64_t in_day = us - days * day_us;
    const Civil c = CivilFromDays(days);
    if (c.year < 1 || c.year > 9999) {
      RaiseValueError("timestamp " + std::to_string(d.GetValues<int64_t>(1)[i]) +
                      " is out of datetime.datetime's range");
    }
    const int64_t s = in_day / 1000000;
    const bool aware = !t.timezone().empty();
    PyObject* dt = PyDateTimeAPI->DateTime_FromDateAndTime(
        c.year, c.month, c.day, static_cast<int>(s / 3600), static_cast<int>(s / 60 % 60),
        static_cast<int>(s % 60), static_cast<int>(in_day % 1000000),
        aware ? PyDateTime_TimeZone_UTC : Py_None, PyDateTimeAPI->DateTimeType);
    nb::object moment = Steal(dt);
    if (!aware) return moment;
    if (!tz_.is_valid() || tz_name_ != t.timezone()) {
      tz_ = nb::module_::import_("quiver._scalar").attr("_tzinfo")(nb::str(t.timezone().c_str()));
      tz_name_ = t.timezone();
    }
    return moment.attr("astimezone")(tz_);
  }

  nb::object decimal_;
  nb::object tz_;
  std::string tz_name_;
};

}  // namespace

nb::list ArrayToPyList(const ArrayData& data) {
  // The converter trusts offsets, views and indices: checked first (O(n),
  // as the conversion is), so a malformed imported array is an error, not a
  // read out of bounds.
  Check(ValidateArrayFull(data));
  Converter converter;
  nb::list out;
  for (int64_t i = 0; i < data.length; ++i) out.append(converter.Value(data, i));
  return out;
}

void BindPyList(nb::module_& m) {
  m.def(
      "_to_pylist",
      [](nb::handle array) { return ArrayToPyList(*ArrayFromPy(array).first->data()); },
      nb::arg("array"), "The values of an array as Python objects (pyarrow's to_pylist)");
  m.def(
      "_scalar_as_py",
      [](nb::handle array, int64_t i) {
        const ArrayData& d = *ArrayFromPy(array).first->data();
        if (i < 0 || i >= d.length) Raise(Status::IndexError("index ", i, " out of range"));
        Check(ValidateArray(d));  // structure (O(1)); to_pylist checks every value
        Converter converter;
        return converter.Value(d, i);
      },
      nb::arg("array"), nb::arg("i"), "One value of an array as a Python object");
  m.def(
      "_scalar_at",
      [](nb::handle array, int64_t i) -> nb::object {
        const ArrayData& d = *ArrayFromPy(array).first->data();
        if (i < 0 || i >= d.length) Raise(Status::IndexError("index ", i, " out of range"));
        Result<Scalar> s = compute::internal::ScalarFromArray(d, i);
        if (!s.ok()) return nb::none();  // a type Scalar does not hold (nested, ...)
        return nb::cast(std::move(s).ValueOrDie());
      },
      nb::arg("array"), nb::arg("i"),
      "The library Scalar of one value, or None for a type it does not hold");
  m.def(
      "_is_valid",
      [](nb::handle array, int64_t i) {
        const ArrayData& d = *ArrayFromPy(array).first->data();
        if (i < 0 || i >= d.length) Raise(Status::IndexError("index ", i, " out of range"));
        return d.IsValid(i);
      },
      nb::arg("array"), nb::arg("i"));
}

}  // namespace quiver::python
