// quiver.compute's aggregates (sum, mean, min, max, min_max, count; the
// wrappers are in python/quiver/compute.py): one array, or every chunk of
// an object with __arrow_c_stream__ (a pyarrow ChunkedArray) combined as
// pyarrow combines them (compute/aggregate.h's Aggregator, chunk by chunk
// in order). The work runs without the GIL.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "quiver/c_data/abi.h"
#include "quiver/c_data/bridge.h"
#include "quiver/compute/aggregate.h"

namespace quiver::python {

namespace {

struct Chunks {
  TypePtr type;
  std::vector<ArrayDataPtr> arrays;
};

// Releases a moved-out stream however the import ends.
struct StreamGuard {
  ArrowArrayStream* stream;
  ~StreamGuard() {
    if (stream->release != nullptr) stream->release(stream);
  }
};

std::string StreamError(ArrowArrayStream* stream, int code) {
  const char* message = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
  return message != nullptr ? std::string(message)
                            : "the array stream failed with error " + std::to_string(code);
}

// Every array of the stream of `obj` (its __arrow_c_stream__ capsule).
Chunks ChunksFromStream(nb::handle obj) {
  nb::object capsule = obj.attr("__arrow_c_stream__")();
  auto* p = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule.ptr(), "arrow_array_stream"));
  if (p == nullptr) throw nb::python_error();
  if (p->release == nullptr) Raise(Status::Invalid("the arrow_array_stream capsule was already consumed"));
  ArrowArrayStream stream = *p;
  p->release = nullptr;
  StreamGuard guard{&stream};
  Chunks out;
  ArrowSchema schema{};
  if (const int code = stream.get_schema(&stream, &schema); code != 0) {
    Raise(Status::IOError(StreamError(&stream, code)));
  }
  out.type = Unwrap(ImportType(&schema));
  for (;;) {
    ArrowArray array{};
    if (const int code = stream.get_next(&stream, &array); code != 0) {
      Raise(Status::IOError(StreamError(&stream, code)));
    }
    if (array.release == nullptr) break;
    out.arrays.push_back(Unwrap(ImportArray(&array, out.type)));
  }
  return out;
}

// One chunk for a quiver.Array or an object with __arrow_c_array__; the
// stream's arrays for one with only __arrow_c_stream__.
Chunks ChunksFromPy(nb::handle obj) {
  if (!nb::hasattr(obj, "__arrow_c_array__") && nb::hasattr(obj, "__arrow_c_stream__")) {
    return ChunksFromStream(obj);
  }
  auto [array, field] = ArrayFromPy(obj);
  return Chunks{array->type(), {array->data()}};
}

compute::AggregateKind KindOf(const std::string& name) {
  using compute::AggregateKind;
  for (AggregateKind kind : {AggregateKind::kSum, AggregateKind::kMean, AggregateKind::kMin,
                             AggregateKind::kMax, AggregateKind::kMinMax, AggregateKind::kCount}) {
    if (compute::AggregateName(kind) == name) return kind;
  }
  throw nb::value_error(("unknown aggregate '" + name + "'").c_str());
}

Scalar Aggregate(const std::string& function, nb::handle data, bool skip_nulls, uint32_t min_count,
                 const std::string& mode_name) {
  const compute::AggregateKind kind = KindOf(function);
  const compute::CountMode mode = Unwrap(compute::ParseCountMode(mode_name));
  const Chunks chunks = ChunksFromPy(data);
  Result<Scalar> result = [&]() -> Result<Scalar> {
    nb::gil_scoped_release release;
    QUIVER_ASSIGN_OR_RAISE(std::unique_ptr<compute::Aggregator> agg,
                           compute::Aggregator::Make(kind, chunks.type, {skip_nulls, min_count}, mode));
    for (const ArrayDataPtr& chunk : chunks.arrays) QUIVER_RETURN_NOT_OK(agg->Consume(*chunk));
    return agg->Finalize();
  }();
  return Unwrap(std::move(result));
}

}  // namespace

void BindComputeAgg(nb::module_& c) {
  c.def("aggregate", &Aggregate, nb::arg("function"), nb::arg("data"), nb::arg("skip_nulls"),
        nb::arg("min_count"), nb::arg("mode"),
        "sum / mean / min / max / min_max / count of an array or of every chunk of a stream "
        "(a quiver._Scalar)");
}

}  // namespace quiver::python
