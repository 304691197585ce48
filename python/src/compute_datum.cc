// Argument conversion for quiver.compute and quiver.ChunkedArray (see
// compute_datum.h).
#include "compute_datum.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "quiver/array/array.h"
#include "quiver/array/nulls.h"
#include "quiver/c_data/bridge.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "objects.h"

namespace quiver::python {

namespace {

struct PyChunkedArray {
  ChunkedData data;
};

// A Python int as pa.scalar types it: int64; beyond int64's range
// pyarrow.compute refuses the argument with this TypeError.
Scalar IntScalar(nb::handle obj) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (overflow == 0) {
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    return Scalar::MakeInt64(v);
  }
  throw nb::type_error("Got unexpected argument type <class 'int'> for compute function");
}

TypePtr TypeFromPy(nb::handle type_obj) {
  nb::object capsule = type_obj.attr("__arrow_c_schema__")();
  ArrowSchema schema = MoveOutSchemaCapsule(capsule);
  return Unwrap(ImportType(&schema));
}

// str(obj) (nb::str(h) would only borrow h as a str).
std::string PyStr(nb::handle obj) {
  PyObject* s = PyObject_Str(obj.ptr());
  if (s == nullptr) throw nb::python_error();
  return nb::cast<std::string>(nb::steal<nb::str>(s));
}

// A pyarrow Scalar of a plain type, from its as_py() (no array round
// trip: this runs on every call with a scalar argument); nullopt for other
// types. The type is told by pyarrow's type id, Arrow's Type enum, which
// Quiver's mirrors for these types.
std::optional<Scalar> PlainPyarrowScalar(nb::handle obj) {
  nb::object type_obj = obj.attr("type");
  if (!nb::hasattr(type_obj, "id")) return std::nullopt;
  const int id_value = nb::cast<int>(type_obj.attr("id"));
  if (id_value < static_cast<int>(Type::kBool) || id_value > static_cast<int>(Type::kLargeBinary)) {
    return std::nullopt;
  }
  const auto id = static_cast<Type>(id_value);
  TypePtr type;
  switch (id) {
    case Type::kBool: type = boolean(); break;
    case Type::kInt8: type = int8(); break;
    case Type::kInt16: type = int16(); break;
    case Type::kInt32: type = int32(); break;
    case Type::kInt64: type = int64(); break;
    case Type::kUInt8: type = uint8(); break;
    case Type::kUInt16: type = uint16(); break;
    case Type::kUInt32: type = uint32(); break;
    case Type::kUInt64: type = uint64(); break;
    case Type::kFloat: type = float32(); break;
    case Type::kDouble: type = float64(); break;
    case Type::kString: type = utf8(); break;
    case Type::kBinary: type = binary(); break;
    case Type::kLargeString: type = large_utf8(); break;
    case Type::kLargeBinary: type = large_binary(); break;
    default: return std::nullopt;
  }
  nb::object v = obj.attr("as_py")();
  if (v.is_none()) return Scalar::MakeNull(type);
  if (IsSignedInteger(id)) return Unwrap(Scalar::MakeInt(type, nb::cast<int64_t>(v)));
  if (IsUnsignedInteger(id)) return Unwrap(Scalar::MakeUInt(type, nb::cast<uint64_t>(v)));
  if (id == Type::kFloat) return Scalar::MakeFloat(static_cast<float>(nb::cast<double>(v)));
  if (id == Type::kDouble) return Scalar::MakeDouble(nb::cast<double>(v));
  if (id == Type::kBool) return Scalar::MakeBool(nb::cast<bool>(v));
  if (PyBytes_Check(v.ptr())) {
    return Unwrap(Scalar::MakeBytes(
        type, std::string(PyBytes_AsString(v.ptr()), static_cast<size_t>(PyBytes_Size(v.ptr())))));
  }
  return Unwrap(Scalar::MakeBytes(type, nb::cast<std::string>(v)));
}

// A pyarrow Scalar: through a one-row pyarrow array of its type.
Scalar PyarrowScalar(nb::handle obj) {
  if (std::optional<Scalar> plain = PlainPyarrowScalar(obj)) return *std::move(plain);
  nb::object pa = nb::module_::import_("pyarrow");
  nb::object one = pa.attr("array")(nb::make_tuple(obj), nb::arg("type") = obj.attr("type"));
  auto [array, field] = ArrayFromPy(one);
  return Unwrap(compute::internal::ScalarFromArray(*array->data(), 0));
}

// A datetime.date / datetime / time / timedelta or a decimal.Decimal.
bool IsTemporalOrDecimalLiteral(nb::handle obj) {
  nb::object datetime = nb::module_::import_("datetime");
  for (const char* name : {"date", "time", "timedelta"}) {  // datetime is a date
    if (nb::isinstance(obj, datetime.attr(name))) return true;
  }
  return nb::isinstance(obj, nb::module_::import_("decimal").attr("Decimal"));
}

bool IsQuiverScalar(nb::handle obj) {
  nb::object cls = nb::module_::import_("quiver._scalar").attr("Scalar");
  return nb::isinstance(obj, cls);
}

// The chunk of `arg` covering rows [start, start + length), which lie
// within one chunk of every chunked argument.
compute::Datum Piece(const ComputeArg& arg, int64_t start, int64_t length) {
  if (!arg.chunked) {
    if (arg.datum.is_scalar()) return arg.datum;
    return arg.datum.array()->Slice(start, length);
  }
  int64_t base = 0;
  for (const auto& chunk : arg.chunks.chunks) {
    if (start < base + chunk->length || (length == 0 && start == base)) {
      return chunk->Slice(start - base, length);
    }
    base += chunk->length;
  }
  return Unwrap(MakeArrayOfNulls(arg.chunks.type, 0));
}

void ChunkEnds(const ComputeArg& arg, std::vector<int64_t>* ends) {
  if (!arg.chunked) return;
  int64_t end = 0;
  for (const auto& chunk : arg.chunks.chunks) {
    end += chunk->length;
    ends->push_back(end);
  }
}

// --- the ArrowArrayStream of a ChunkedArray ------------------------------------

struct StreamState {
  ChunkedData data;
  size_t next = 0;
  std::string error;
};

int StreamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* state = static_cast<StreamState*>(stream->private_data);
  Status st = ExportType(*state->data.type, out);
  if (!st.ok()) {
    state->error = st.ToString();
    return EINVAL;
  }
  return 0;
}

int StreamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* state = static_cast<StreamState*>(stream->private_data);
  if (state->next >= state->data.chunks.size()) {
    out->release = nullptr;
    return 0;
  }
  Status st = ExportArray(state->data.chunks[state->next++], out);
  if (!st.ok()) {
    state->error = st.ToString();
    return EINVAL;
  }
  return 0;
}

const char* StreamGetLastError(ArrowArrayStream* stream) {
  auto* state = static_cast<StreamState*>(stream->private_data);
  return state->error.empty() ? nullptr : state->error.c_str();
}

void StreamRelease(ArrowArrayStream* stream) {
  delete static_cast<StreamState*>(stream->private_data);
  stream->release = nullptr;
}

void ReleaseStreamCapsule(PyObject* capsule) noexcept {
  auto* p = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, "arrow_array_stream"));
  if (p == nullptr) {
    PyErr_Clear();
    return;
  }
  if (p->release != nullptr) p->release(p);
  std::free(p);
}

nb::object StreamCapsule(const ChunkedData& data) {
  auto* stream = static_cast<ArrowArrayStream*>(std::calloc(1, sizeof(ArrowArrayStream)));
  if (stream == nullptr) throw std::bad_alloc();
  stream->get_schema = &StreamGetSchema;
  stream->get_next = &StreamGetNext;
  stream->get_last_error = &StreamGetLastError;
  stream->release = &StreamRelease;
  stream->private_data = new StreamState{data, 0, {}};
  return nb::steal(PyCapsule_New(stream, "arrow_array_stream", ReleaseStreamCapsule));
}

nb::object ToPyarrow(const PyChunkedArray& self) {
  return nb::module_::import_("pyarrow").attr("chunked_array")(nb::cast(self));
}

}  // namespace

ChunkedData ChunksFromPy(nb::handle obj) {
  if (nb::isinstance<PyChunkedArray>(obj)) return nb::cast<const PyChunkedArray&>(obj).data;
  ChunkedData out;
  for (nb::handle chunk : obj.attr("chunks")) {
    out.chunks.push_back(ArrayFromPy(chunk).first->data());
  }
  out.type = TypeFromPy(obj.attr("type"));
  return out;
}

nb::object WrapChunked(ChunkedData data) { return nb::cast(PyChunkedArray{std::move(data)}); }

int64_t ChunkedData::length() const {
  int64_t n = 0;
  for (const auto& c : chunks) n += c->length;
  return n;
}

ComputeArg ComputeArgFromPy(nb::handle obj) {
  ComputeArg arg;
  if (obj.is_none()) {
    arg.datum = Scalar();
  } else if (PyBool_Check(obj.ptr())) {
    arg.datum = Scalar::MakeBool(obj.ptr() == Py_True);
  } else if (PyLong_Check(obj.ptr())) {
    arg.datum = IntScalar(obj);
  } else if (PyFloat_Check(obj.ptr())) {
    arg.datum = Scalar::MakeDouble(PyFloat_AsDouble(obj.ptr()));
  } else if (PyUnicode_Check(obj.ptr())) {
    arg.datum = Scalar::MakeString(nb::cast<std::string>(obj));
  } else if (PyBytes_Check(obj.ptr())) {
    arg.datum = Scalar::MakeBinary(std::string(PyBytes_AsString(obj.ptr()),
                                               static_cast<size_t>(PyBytes_Size(obj.ptr()))));
  } else if (nb::isinstance<PyChunkedArray>(obj) ||
             (nb::hasattr(obj, "__arrow_c_stream__") && nb::hasattr(obj, "chunks") &&
              !nb::hasattr(obj, "__arrow_c_array__"))) {
    arg.chunked = true;
    arg.chunks = ChunksFromPy(obj);
  } else if (nb::hasattr(obj, "__arrow_c_array__")) {
    arg.datum = ArrayFromPy(obj).first->data();
  } else if (IsQuiverScalar(obj)) {
    arg.datum = nb::cast<Scalar>(obj.attr("_s"));
  } else if (nb::hasattr(obj, "as_py") && nb::hasattr(obj, "type") &&
             nb::hasattr(obj.attr("type"), "__arrow_c_schema__")) {
    arg.datum = PyarrowScalar(obj);
  } else if (IsTemporalOrDecimalLiteral(obj)) {
    // pa.scalar's typing of these (timestamp[us] with the datetime's zone,
    // date32, time64[us], duration[us], decimal128 of the digits).
    arg.datum = PyarrowScalar(nb::module_::import_("pyarrow").attr("scalar")(obj));
  } else {
    throw nb::type_error(
        ("quiver.compute: cannot use a " + PyStr(obj.type()) +
         " as an argument (an array, chunked array, scalar or Python value)")
            .c_str());
  }
  return arg;
}

nb::object WrapDatum(const compute::Datum& datum) {
  if (datum.is_array()) return WrapArray(MakeArray(datum.array()));
  nb::object raw = nb::cast(datum.scalar());
  return nb::module_::import_("quiver._scalar").attr("Scalar")(raw);
}

// The pieces of a chunked call, without the GIL: piece(0) .. piece(n - 1)
// as the chunks of a quiver.ChunkedArray, whose type comes from the kernel
// on empty arguments (`empty`: the result's only information when there
// are no chunks); the first error raises.
static nb::object RunChunked(int64_t n, const std::function<Result<compute::Datum>(int64_t)>& piece,
                      const std::function<Result<compute::Datum>()>& empty) {
  ChunkedData out;
  Status status;
  {
    nb::gil_scoped_release release;
    for (int64_t i = 0; i < n && status.ok(); ++i) {
      Result<compute::Datum> one = piece(i);
      if (one.ok()) {
        out.chunks.push_back(one->array());
      } else {
        status = one.status();
      }
    }
    if (status.ok()) {
      Result<compute::Datum> typed = empty();
      if (typed.ok()) {
        out.type = typed->type();
      } else if (out.chunks.empty()) {
        status = typed.status();
      } else {
        out.type = out.chunks.front()->type;
      }
    }
  }
  Check(status);
  return WrapChunked(std::move(out));
}

nb::object CallBinary(const BinaryKernel& kernel, nb::handle left, nb::handle right) {
  const ComputeArg l = ComputeArgFromPy(left);
  const ComputeArg r = ComputeArgFromPy(right);
  if (!l.chunked && !r.chunked) {
    Result<compute::Datum> result = [&] {
      nb::gil_scoped_release release;
      return kernel(l.datum, r.datum);
    }();
    return WrapDatum(Unwrap(std::move(result)));
  }
  const int64_t length = l.chunked ? l.chunks.length() : r.chunks.length();
  const ComputeArg& other = l.chunked ? r : l;
  const int64_t other_length =
      other.chunked ? other.chunks.length() : (other.datum.is_array() ? other.datum.length() : length);
  if (other_length != length) {
    Raise(Status::Invalid("Array arguments must all be the same length (", length, " and ",
                          other_length, ")"));
  }
  std::vector<int64_t> ends;
  ChunkEnds(l, &ends);
  ChunkEnds(r, &ends);
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  // The pieces: the spans between consecutive chunk ends of either argument.
  std::vector<std::pair<int64_t, int64_t>> spans;
  int64_t start = 0;
  for (int64_t end : ends) {
    if (end == start) continue;
    spans.emplace_back(start, end - start);
    start = end;
  }
  return RunChunked(
      static_cast<int64_t>(spans.size()),
      [&](int64_t i) {
        const auto [at, n] = spans[static_cast<size_t>(i)];
        return kernel(Piece(l, at, n), Piece(r, at, n));
      },
      [&] { return kernel(Piece(l, 0, 0), Piece(r, 0, 0)); });
}

nb::object CallUnary(const UnaryKernel& kernel, nb::handle values) {
  const ComputeArg v = ComputeArgFromPy(values);
  if (!v.chunked) {
    Result<compute::Datum> result = [&] {
      nb::gil_scoped_release release;
      return kernel(v.datum);
    }();
    return WrapDatum(Unwrap(std::move(result)));
  }
  // Chunk for chunk, as pyarrow keeps a unary function's chunking.
  return RunChunked(
      static_cast<int64_t>(v.chunks.chunks.size()),
      [&](int64_t i) { return kernel(compute::Datum(v.chunks.chunks[static_cast<size_t>(i)])); },
      [&] { return kernel(Piece(v, 0, 0)); });
}

void BindChunkedArray(nb::module_& m) {
  nb::class_<PyChunkedArray>(m, "ChunkedArray",
                             "An immutable Arrow chunked array held by Quiver (the result of "
                             "quiver.compute on chunked input)")
      .def_prop_ro("type", [](const PyChunkedArray& c) { return WrapDataType(c.data.type); })
      .def_prop_ro("num_chunks",
                   [](const PyChunkedArray& c) { return static_cast<int64_t>(c.data.chunks.size()); })
      .def_prop_ro("chunks",
                   [](const PyChunkedArray& c) {
                     nb::list out;
                     for (const auto& chunk : c.data.chunks) out.append(WrapArray(MakeArray(chunk)));
                     return out;
                   })
      .def_prop_ro("null_count",
                   [](const PyChunkedArray& c) {
                     int64_t n = 0;
                     for (const auto& chunk : c.data.chunks) n += chunk->GetNullCount();
                     return n;
                   })
      .def("__len__", [](const PyChunkedArray& c) { return c.data.length(); })
      .def("chunk",
           [](const PyChunkedArray& c, int64_t i) {
             if (i < 0 || i >= static_cast<int64_t>(c.data.chunks.size())) {
               throw nb::index_error("chunk index out of range");
             }
             return WrapArray(MakeArray(c.data.chunks[static_cast<size_t>(i)]));
           })
      .def("validate",
           [](const PyChunkedArray& c) {
             for (const auto& chunk : c.data.chunks) Check(MakeArray(chunk)->ValidateFull());
           })
      .def("to_pyarrow", &ToPyarrow, "A pyarrow.ChunkedArray (through __arrow_c_stream__)")
      .def("to_pylist",
           [](const PyChunkedArray& c) {
             nb::list out;
             for (const auto& chunk : c.data.chunks) {
               for (nb::handle v : ArrayToPyList(*chunk)) out.append(v);
             }
             return out;
           },
           "The values as Python objects, as pyarrow's to_pylist (no pyarrow needed)")
      .def("equals",
           [](const PyChunkedArray& c, nb::handle other) {
             ChunkedData o = ChunksFromPy(other);
             if (!o.type->Equals(*c.data.type) || o.length() != c.data.length()) return false;
             // Compare over the union of both chunkings.
             ComputeArg a;
             a.chunked = true;
             a.chunks = c.data;
             ComputeArg b;
             b.chunked = true;
             b.chunks = o;
             std::vector<int64_t> ends;
             ChunkEnds(a, &ends);
             ChunkEnds(b, &ends);
             std::sort(ends.begin(), ends.end());
             int64_t start = 0;
             for (int64_t end : ends) {
               if (end == start) continue;
               ArrayPtr x = MakeArray(Piece(a, start, end - start).array());
               ArrayPtr y = MakeArray(Piece(b, start, end - start).array());
               if (!x->Equals(*y)) return false;
               start = end;
             }
             return true;
           })
      .def("__arrow_c_stream__",
           [](const PyChunkedArray& c, nb::object) { return StreamCapsule(c.data); },
           nb::arg("requested_schema") = nb::none())
      .def("__repr__", [](const PyChunkedArray& c) {
        return "quiver.ChunkedArray<" + c.data.type->ToString() + "> (" +
               std::to_string(c.data.chunks.size()) + " chunks, " +
               std::to_string(c.data.length()) + " rows)";
      });
}

}  // namespace quiver::python
