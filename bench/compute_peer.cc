// Quiver's C++ peer of `make bench-compute` (bench/peers/PROTOCOL.md,
// "Compute kernels"; bench/peers/compute_run.py drives it): a long-running
// process that reads one JSON command a line on stdin and answers one line
// on stdout, timing Quiver's C++ kernels (src/quiver/compute) on columns
// read through Quiver's IPC file reader.
//
//     {"cmd": "kernel", "name": "add", "input": "PATH.arrow", "columns": ["a", "b"],
//      "args": {...}, "reps": R, "iters": K, "empty": false, "out": null | "PATH.arrow"}
//     -> {"seconds": [R seconds per call], "iters": K}
//
// The input file is read into one pool buffer (the last one is kept) and its
// columns are prepared outside the timing (a FilterContext is made there for
// `filter_context`). A timing runs the call K times; each call produces its
// materialized result, dropped inside the loop, as the other peers do.
// `empty` times the call on zero-row slices (the call floor); `out` writes
// the result of one more untimed call as an IPC file with one column
// `result` (an aggregate as one row) for the driver's correctness gate.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "allocator_pin.h"
#include "peer_json.h"
#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/array/compare.h"
#include "quiver/array/concatenate.h"
#include "quiver/array/record_batch.h"
#include "quiver/compute/aggregate.h"
#include "quiver/compute/arithmetic.h"
#include "quiver/compute/boolean.h"
#include "quiver/compute/compare.h"
#include "quiver/compute/filter.h"
#include "quiver/compute/simd_level.h"
#include "quiver/compute/take.h"
#include "quiver/io/file.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"
#include "quiver/util/version.h"

#include "quiver/compute/cast.h"
#include "quiver/compute/set_lookup.h"
#include "quiver/compute/string_predicates.h"

namespace quiver::bench {
namespace {

using compute::Datum;
// One prepared call; `want` asks for the result (the gate's run). A timed
// call of an aggregate computes its value and returns nullptr.
using Call = std::function<Result<ArrayDataPtr>(bool want)>;

// Keeps a value alive and opaque to the optimiser (the call must happen).
template <typename T>
void Keep(const T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

Result<ArrayDataPtr> ArrayOf(Result<Datum> r) {
  QUIVER_ASSIGN_OR_RAISE(Datum d, std::move(r));
  if (!d.is_array()) return Status::Invalid("the kernel returned a scalar");
  return d.array();
}

// An aggregate's value as a one-row array (the gate's run): bool, string
// or double, the types of the aggregates here.
Result<ArrayDataPtr> OneRow(const Scalar& s) {
  auto finish = [&](auto& builder, auto value) -> Result<ArrayDataPtr> {
    QUIVER_RETURN_NOT_OK(s.is_valid() ? builder.Append(value) : builder.AppendNull());
    return builder.Finish();
  };
  if (s.type()->id() == Type::kBool) {
    BooleanBuilder b;
    return finish(b, s.bool_value());
  }
  if (s.type()->id() == Type::kString) {
    StringBuilder b;
    return finish(b, std::string_view(s.bytes()));
  }
  DoubleBuilder b;
  return finish(b, s.double_value());
}

// A call whose result is one value: computed and kept in a timed call,
// turned into a one-row array only when wanted.
template <typename F>
Call ValueCall(F compute) {
  return [=](bool want) -> Result<ArrayDataPtr> {
    QUIVER_ASSIGN_OR_RAISE(Scalar value, compute());
    Keep(value);
    if (!want) return nullptr;
    return OneRow(value);
  };
}

class Inputs {
 public:
  Result<RecordBatchPtr> Load(const std::string& path) {
    if (path != path_) {
      batch_.reset();
      QUIVER_ASSIGN_OR_RAISE(auto bytes, io::ReadFileToBuffer(path));
      QUIVER_ASSIGN_OR_RAISE(auto reader, ipc::RecordBatchFileReader::Open(std::move(bytes)));
      if (reader->num_record_batches() != 1) {
        return Status::Invalid(path, ": ", reader->num_record_batches(),
                               " record batches (the inputs are one batch)");
      }
      QUIVER_ASSIGN_OR_RAISE(batch_, reader->ReadRecordBatch(0));
      path_ = path;
    }
    return batch_;
  }

 private:
  std::string path_;
  RecordBatchPtr batch_;
};

Result<TypePtr> CastType(const std::string& name) {
  if (name == "int8") return int8();
  if (name == "int16") return int16();
  if (name == "int32") return int32();
  if (name == "int64") return int64();
  if (name == "uint8") return uint8();
  if (name == "uint16") return uint16();
  if (name == "uint32") return uint32();
  if (name == "uint64") return uint64();
  if (name == "float32") return float32();
  if (name == "float64") return float64();
  return Status::Invalid("cast: unknown target type ", name);
}

// The call of kernel `name` on `cols` (PROTOCOL.md lists what each peer calls).
Result<Call> Prepare(const std::string& name, const std::vector<ArrayDataPtr>& cols,
                     const JsonValue& args) {
  auto want_cols = [&](size_t n) -> Status {
    if (cols.size() != n) {
      return Status::Invalid("kernel ", name, ": ", n, " columns expected, ", cols.size(),
                             " given");
    }
    return Status::OK();
  };
  if (name == "add" || name == "subtract") {
    QUIVER_RETURN_NOT_OK(want_cols(2));
    const auto op = name == "add" ? compute::ArithmeticOp::kAdd : compute::ArithmeticOp::kSubtract;
    return Call([=](bool) { return ArrayOf(compute::Arithmetic(op, false, cols[0], cols[1])); });
  }
  if (name == "and" || name == "or") {
    QUIVER_RETURN_NOT_OK(want_cols(2));
    if (name == "and") return Call([=](bool) { return ArrayOf(compute::And(cols[0], cols[1])); });
    return Call([=](bool) { return ArrayOf(compute::Or(cols[0], cols[1])); });
  }
  if (name == "cast") {
    QUIVER_RETURN_NOT_OK(want_cols(1));
    QUIVER_ASSIGN_OR_RAISE(std::string to_name, args.GetString("to"));
    QUIVER_ASSIGN_OR_RAISE(TypePtr to, CastType(to_name));
    return Call([=](bool) { return ArrayOf(compute::Cast(cols[0], to, compute::CastOptions{})); });
  }
  if (name == "concat") {
    QUIVER_RETURN_NOT_OK(want_cols(2));
    return Call([=](bool) { return Concatenate({cols[0], cols[1]}); });
  }
  if (name == "equal") {
    QUIVER_RETURN_NOT_OK(want_cols(2));
    return Call([=](bool) { return ArrayOf(compute::Equal(cols[0], cols[1])); });
  }
  if (name == "array_equals") {
    QUIVER_RETURN_NOT_OK(want_cols(2));
    return ValueCall([=]() -> Result<Scalar> {
      return Scalar::MakeBool(ArrayEquals(*cols[0], *cols[1]));
    });
  }
  if (name == "filter") {
    QUIVER_RETURN_NOT_OK(want_cols(2));
    return Call([=](bool) { return compute::Filter(cols[0], cols[1]); });
  }
  if (name == "filter_context") {
    QUIVER_RETURN_NOT_OK(want_cols(2));
    // Made once, outside the timing: the mask's selection for many columns.
    QUIVER_ASSIGN_OR_RAISE(auto context, compute::FilterContext::Make(cols[1]));
    return Call([=](bool) { return context.Apply(cols[0]); });
  }
  if (name == "like" || name == "not_like") {
    QUIVER_RETURN_NOT_OK(want_cols(1));
    QUIVER_ASSIGN_OR_RAISE(std::string pattern, args.GetString("pattern"));
    if (name == "like") {
      return Call([=](bool) {
        return ArrayOf(compute::MatchLike(cols[0], compute::MatchOptions{pattern}));
      });
    }
    // NOT LIKE = invert(match_like(...)), as the issue defines it.
    return Call([=](bool) -> Result<ArrayDataPtr> {
      QUIVER_ASSIGN_OR_RAISE(Datum m, compute::MatchLike(cols[0], compute::MatchOptions{pattern}));
      return ArrayOf(compute::Invert(m));
    });
  }
  if (name == "min") {
    QUIVER_RETURN_NOT_OK(want_cols(1));
    return ValueCall([=] { return compute::Min(*cols[0]); });
  }
  if (name == "sum") {
    QUIVER_RETURN_NOT_OK(want_cols(1));
    return ValueCall([=] { return compute::Sum(*cols[0]); });
  }
  if (name == "take") {
    QUIVER_RETURN_NOT_OK(want_cols(2));
    return Call([=](bool) { return compute::Take(cols[0], cols[1]); });
  }
  if (name == "is_in") {
    QUIVER_RETURN_NOT_OK(want_cols(1));
    // The value set (int32, from the command's "value_set" list), made once.
    Int32Builder set;
    for (const JsonValue& v : args["value_set"].items()) {
      QUIVER_RETURN_NOT_OK(set.Append(static_cast<int32_t>(v.number())));
    }
    compute::SetLookupOptions options;
    QUIVER_ASSIGN_OR_RAISE(auto value_set, set.Finish());
    options.value_set = Datum(value_set);
    return Call([=](bool) { return ArrayOf(compute::IsIn(cols[0], options)); });
  }
  return Status::NotImplemented("unsupported: unknown kernel ", name);
}

Status WriteResult(const std::string& path, const ArrayDataPtr& result) {
  auto sch = schema({field("result", result->type)});
  QUIVER_ASSIGN_OR_RAISE(auto batch, RecordBatch::Make(sch, result->length, {result}));
  QUIVER_ASSIGN_OR_RAISE(auto file, io::FileOutputStream::Open(path));
  QUIVER_ASSIGN_OR_RAISE(auto writer, ipc::MakeFileWriter(file.get(), sch));
  QUIVER_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  QUIVER_RETURN_NOT_OK(writer->Close());
  return file->Close();
}

Result<std::string> RunKernel(Inputs* inputs, const JsonValue& c) {
  QUIVER_ASSIGN_OR_RAISE(std::string name, c.GetString("name"));
  QUIVER_ASSIGN_OR_RAISE(std::string input, c.GetString("input"));
  QUIVER_ASSIGN_OR_RAISE(int64_t reps, c.GetInt("reps", 1));
  QUIVER_ASSIGN_OR_RAISE(int64_t iters, c.GetInt("iters", 1));
  QUIVER_ASSIGN_OR_RAISE(bool empty, c.GetBool("empty", false));
  iters = std::max<int64_t>(iters, 1);
  QUIVER_ASSIGN_OR_RAISE(auto batch, inputs->Load(input));
  std::vector<ArrayDataPtr> cols;
  for (const JsonValue& col : c["columns"].items()) {
    const int i = batch->schema()->GetFieldIndex(col.string());
    if (i < 0) return Status::Invalid(input, ": no column ", col.string());
    cols.push_back(empty ? batch->column_data(i)->Slice(0, 0) : batch->column_data(i));
  }
  QUIVER_ASSIGN_OR_RAISE(Call call, Prepare(name, cols, c["args"]));
  std::string seconds;
  for (int64_t r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int64_t k = 0; k < iters; ++k) {
      QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr result, call(false));
      Keep(result);
    }
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%s%.9g", r ? ", " : "", dt.count() / static_cast<double>(iters));
    seconds += buf;
  }
  if (const JsonValue& out = c["out"]; !out.is_null()) {
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr result, call(true));
    QUIVER_RETURN_NOT_OK(WriteResult(out.string(), result));
  }
  return "{\"seconds\": [" + seconds + "], \"iters\": " + std::to_string(iters) + "}";
}

std::string ErrorReply(const Status& st) {
  // A kernel this build lacks, or one that refuses the input's type: the
  // driver reports the case "not measured" with this message.
  std::string msg = st.message();
  if (st.IsNotImplemented() && msg.rfind("unsupported", 0) != 0) msg = "unsupported: " + msg;
  return "{\"error\": " + JsonQuote(msg) + "}";
}

int Serve(const std::string& allocator) {
  // The protocol owns stdout; nothing else may print there.
  std::printf("{\"peer\": \"quiver-cpp\", \"version\": %s, \"allocator\": %s, "
              "\"allocator_mode\": \"pinned\", \"threads\": 1, \"simd_level\": %s}\n",
              JsonQuote("quiver " + std::string(Version()) + " (C++ kernels)").c_str(),
              JsonQuote(allocator).c_str(),
              JsonQuote(compute::SimdLevelName(compute::ActiveSimdLevel())).c_str());
  std::fflush(stdout);
  Inputs inputs;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string reply;
    auto cmd = JsonValue::Parse(line);
    if (!cmd.ok()) {
      reply = ErrorReply(cmd.status());
    } else if (auto name = cmd->GetString("cmd"); !name.ok()) {
      reply = ErrorReply(name.status());
    } else if (*name == "quit") {
      return 0;
    } else if (*name == "kernel") {
      auto r = RunKernel(&inputs, *cmd);
      reply = r.ok() ? *r : ErrorReply(r.status());
    } else {
      reply = ErrorReply(Status::Invalid("unknown command ", *name));
    }
    std::printf("%s\n", reply.c_str());
    if (std::fflush(stdout) != 0) return 1;  // the driver is gone
  }
  return 0;
}

}  // namespace
}  // namespace quiver::bench

int main() {
  const char* mode = std::getenv("QUIVER_PEER_ALLOCATOR");
  if (mode != nullptr && std::string(mode) != "pinned") {
    std::fprintf(stderr, "quiver-compute-peer: refusing to run: QUIVER_PEER_ALLOCATOR=%s (this "
                 "peer runs pinned only: jemalloc with decay -1 compiled in)\n", mode);
    return 2;
  }
  const std::string pin = quiver::bench::CheckAllocatorPinned("quiver-compute-peer");
  std::fprintf(stderr, "%s\n", pin.c_str());
  return quiver::bench::Serve(pin);
}
