// Python file objects and quiver.BufferOutputStream as writer sinks (see
// output_bindings.h).
#include "output_bindings.h"

#include <utility>
#include <vector>

namespace nb = nanobind;

namespace quiver::python {

namespace {

// BufferExporter: the smallest exporter of a read-only buffer (the buffer
// protocol, PyBUF_READ) that keeps a Quiver buffer alive, so that Python
// gets a memoryview of it without a copy. (A NumPy array as the owner did
// the same with far more code on the way: most of a small write's time when
// the caches are cold.)
struct BufferExporter {
  PyObject_HEAD
  std::shared_ptr<Buffer>* bytes;  // owned
};

int ExporterGetBuffer(PyObject* self, Py_buffer* view, int flags) {
  const Buffer& b = **reinterpret_cast<BufferExporter*>(self)->bytes;
  return PyBuffer_FillInfo(view, self, const_cast<uint8_t*>(b.data()), static_cast<Py_ssize_t>(b.size()),
                           /*readonly=*/1, flags);
}

void ExporterDealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  delete reinterpret_cast<BufferExporter*>(self)->bytes;
  type->tp_free(self);
  Py_DECREF(type);  // a heap type's instances hold a reference to it
}

}  // namespace

nb::object BufferView(std::shared_ptr<Buffer> bytes) {
  static PyObject* type = [] {
    static PyType_Slot slots[] = {{Py_bf_getbuffer, reinterpret_cast<void*>(ExporterGetBuffer)},
                                  {Py_tp_dealloc, reinterpret_cast<void*>(ExporterDealloc)},
                                  {0, nullptr}};
    static PyType_Spec spec = {"quiver._quiver.BufferExporter", sizeof(BufferExporter), 0, Py_TPFLAGS_DEFAULT,
                               slots};
    return PyType_FromSpec(&spec);
  }();
  if (type == nullptr) {
    if (PyErr_Occurred() == nullptr) PyErr_SetString(PyExc_RuntimeError, "quiver: no BufferExporter type");
    throw nb::python_error();
  }
  auto owned = std::make_unique<std::shared_ptr<Buffer>>(std::move(bytes));
  auto* tp = reinterpret_cast<PyTypeObject*>(type);
  PyObject* exporter = tp->tp_alloc(tp, 0);
  if (exporter == nullptr) throw nb::python_error();
  reinterpret_cast<BufferExporter*>(exporter)->bytes = owned.release();
  PyObject* view = PyMemoryView_FromObject(exporter);
  Py_DECREF(exporter);  // the view holds it
  if (view == nullptr) throw nb::python_error();
  return nb::steal(view);
}

// --- PyFileSink ----------------------------------------------------------------

PyFileSink::PyFileSink(nb::handle file) : write_(file.attr("write")) {}

PyFileSink::~PyFileSink() = default;

Status PyFileSink::Flush() {
  if (error_ != nullptr) return Status::IOError("the file object's write() raised an exception earlier");
  std::vector<std::shared_ptr<Buffer>> pieces = buffer_.Take();
  if (pieces.empty()) return Status::OK();
  nb::gil_scoped_acquire gil;
  try {
    for (const auto& piece : pieces) {
      int64_t done = 0;
      while (done < piece->size()) {
        const int64_t rest = piece->size() - done;
        nb::object written = write_(BufferView(done == 0 ? piece : SliceBuffer(piece, done, rest)));
        if (written.is_none()) break;  // a write() that returns nothing wrote everything
        int64_t n = 0;
        if (!nb::try_cast<int64_t>(written, n) || n <= 0 || n > rest) {
          return Status::IOError("the file object's write() returned ", nb::repr(written).c_str(), " for ",
                                 rest, " bytes");
        }
        done += n;
      }
    }
  } catch (nb::python_error& e) {
    error_ = std::make_unique<nb::python_error>(std::move(e));
    return Status::IOError("the file object's write() raised ", error_->what());
  }
  return Status::OK();
}

Status PyFileSink::Close() {
  if (closed_) return Status::OK();
  Status st = Flush();
  closed_ = true;
  return st;
}

void PyFileSink::RaiseIfFailed() {
  if (error_ == nullptr) return;
  nb::python_error e = std::move(*error_);
  error_.reset();
  throw e;
}

// --- quiver.BufferOutputStream -------------------------------------------------

void BindOutput(nb::module_& m) {
  nb::class_<PyBufferOutputStream>(
      m, "BufferOutputStream",
      "An in-memory destination for quiver.write_parquet and quiver.ParquetWriter, as\n"
      "pyarrow.BufferOutputStream: getvalue() returns everything written as ONE contiguous,\n"
      "read-only buffer-protocol object (a memoryview) over Quiver's memory, with no copy;\n"
      "the object keeps that memory alive after the stream is gone. getvalue() ends the\n"
      "stream (later writes fail) and returns the same object on every call.")
      .def(nb::init<>())
      .def("getvalue",
           [](PyBufferOutputStream& s) -> nb::object {
             if (s.in_use) {
               Raise(Status::Invalid("getvalue() while a ParquetWriter is writing into this "
                                     "BufferOutputStream: close the writer first"));
             }
             if (!s.value.is_valid()) s.value = BufferView(Unwrap(s.stream->Finish()));
             return s.value;
           })
      .def("tell", [](const PyBufferOutputStream& s) { return s.value.is_valid() ? nb::len(s.value) : Unwrap(s.stream->Tell()); },
           "Bytes written so far")
      .def_prop_ro("closed", [](const PyBufferOutputStream& s) { return s.stream->closed(); });
}

}  // namespace quiver::python
