// Content-defined chunker benchmarks: docs/benchmarks.md, section 2.
//
// Six inputs of ~64 MiB of logical bytes each (the bytes docs/cdc.md feeds
// the hash: 2-byte def/rep levels where the column has them, plus the value
// bytes of present values), built with Quiver's builders from std::mt19937_64
// seeded with 42:
//   int64_required     required int64, uniform over the full range;
//   int64_nullable     nullable int64, 25% nulls;
//   list_int32         nullable list<int32>, lengths uniform 0..4, 25% null
//                      lists and 25% null items (as section 1's list_primitive);
//   list_int32_null_children  the same, but each null list keeps 0..4 child
//                      values (as pyarrow's ListArray.from_arrays with a mask
//                      makes them, and cdc_overhead.py's input): the leaf
//                      slots come in short ranges;
//   string_required    required utf8, lengths uniform 0..399, alphanumeric;
//   string_nullable    the same, nullable, 25% nulls (not one of section
//                      2's four: strings with levels, gathered as such).
// Levels are shredded once (ComputeLevels) outside the timed loop; an
// iteration is one Chunker::FindCuts over the whole column from a fresh state,
// with the default CDC options (min 256 KiB, max 1 MiB, norm 0, mask from
// parquet::CdcMask). bytes_per_second counts every logical byte, including
// the min-size windows the chunker skips without hashing; "chunks" is the
// number of chunks found (cuts + 1). Each input runs twice: with the AVX-512
// kernels where this CPU has them (the label says which), and as
// <input>_portable with the portable loops alone; the two must find the
// same chunks (run.sh checks it and prints their speed ratio).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_nested.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/parquet/cdc/chunker.h"
#include "quiver/parquet/cdc/gather_simd.h"
#include "quiver/parquet/cdc/gear_simd.h"
#include "quiver/parquet/levels/level_builder.h"
#include "quiver/parquet/writer/properties.h"

namespace quiver {
namespace {

void CheckOk(const Status& status) {
  if (QUIVER_PREDICT_FALSE(!status.ok())) status.Abort("chunker_benchmark");
}

template <typename T>
T ValueOrAbort(Result<T> result) {
  CheckOk(result.status());
  return std::move(*result);
}

constexpr int64_t kTargetBytes = int64_t{64} << 20;
constexpr double kNullProbability = 0.25;

struct Input {
  parquet::LeafLevels levels;
  int64_t logical_bytes = 0;
};

// The bytes docs/cdc.md feeds to the hash for `levels`, counted independently
// of the chunker.
int64_t LogicalBytes(const parquet::LeafLevels& levels) {
  const ArrayData& leaf = *levels.leaf;
  auto value_bytes = [&](int64_t slot) -> int64_t {
    switch (leaf.type->id()) {
      case Type::kString: {
        const int32_t* o = leaf.GetValues<int32_t>(1);
        return o[slot + 1] - o[slot];
      }
      case Type::kInt32:
        return 4;
      case Type::kInt64:
        return 8;
      default:
        std::fprintf(stderr, "chunker_benchmark: unexpected leaf type\n");
        std::abort();
    }
  };
  const int16_t slot_def =
      static_cast<int16_t>(levels.max_def - (levels.leaf_nullable ? 1 : 0));
  int64_t bytes = 0;
  size_t range = 0;
  int64_t slot = levels.ranges.empty() ? 0 : levels.ranges[0].first;
  for (int64_t i = 0; i < levels.num_levels; ++i) {
    const int16_t def = levels.max_def > 0 ? levels.def_levels[static_cast<size_t>(i)] : 0;
    if (levels.max_def > 0) bytes += 2;
    if (levels.max_rep > 0) bytes += 2;
    if (def < slot_def) continue;
    if (def == levels.max_def) bytes += value_bytes(slot);
    if (++slot == levels.ranges[range].second && range + 1 < levels.ranges.size()) {
      slot = levels.ranges[++range].first;
    }
  }
  return bytes;
}

Input Shred(const Field& field, const ArrayDataPtr& column) {
  auto leaves = ValueOrAbort(parquet::ComputeLevels(field, column));
  if (leaves.size() != 1) std::abort();
  Input input;
  input.levels = std::move(leaves[0]);
  input.logical_bytes = LogicalBytes(input.levels);
  return input;
}

Input MakeInt64(bool nullable) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uniform01(0.0, 1.0);
  Int64Builder builder(int64());
  int64_t bytes = 0;
  while (bytes < kTargetBytes) {
    if (nullable && uniform01(rng) < kNullProbability) {
      CheckOk(builder.AppendNull());
    } else {
      CheckOk(builder.Append(static_cast<int64_t>(rng())));
      bytes += 8;
    }
    if (nullable) bytes += 2;
  }
  return Shred(Field("x", int64(), nullable), ValueOrAbort(builder.Finish()));
}

// With null_children, a null list keeps a child range of 0..4 values, as
// pyarrow's ListArray.from_arrays(offsets, values, mask=...) makes them (and
// bench/cdc_overhead.py's input): the leaf slots the levels reach then come
// in short ranges, one break per such null list.
Input MakeListInt32(bool null_children) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uniform01(0.0, 1.0);
  std::uniform_int_distribution<int> length(0, 4);
  Int32Builder values(int32());
  std::vector<int64_t> offsets{0};
  std::vector<bool> validity;
  // Appends n child values; returns their logical bytes (if a valid list
  // holds them): a def + rep level each, and 4 bytes if present.
  auto append_values = [&](int n) {
    int64_t added = 0;
    for (int k = 0; k < n; ++k) {
      if (uniform01(rng) < kNullProbability) {
        CheckOk(values.AppendNull());
        added += 4;
      } else {
        CheckOk(values.Append(static_cast<int32_t>(rng())));
        added += 8;
      }
    }
    offsets.push_back(offsets.back() + n);
    return added;
  };
  int64_t bytes = 0;
  while (bytes < kTargetBytes) {
    if (uniform01(rng) < kNullProbability) {
      validity.push_back(false);
      append_values(null_children ? length(rng) : 0);
      bytes += 4;  // one def + rep level
      continue;
    }
    validity.push_back(true);
    const int n = length(rng);
    if (n == 0) bytes += 4;
    bytes += append_values(n);
  }
  ArrayDataPtr child = ValueOrAbort(values.Finish());
  return Shred(Field("l", list(int32()), true),
               testutil::ListArrayFromOffsets(list(int32()), offsets, std::move(child), validity));
}

Input MakeString(bool nullable) {
  static constexpr char kAlphabet[] =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> length(0, 399);
  std::uniform_int_distribution<int> letter(0, sizeof(kAlphabet) - 2);
  std::uniform_real_distribution<double> uniform01(0.0, 1.0);
  StringBuilder builder;
  std::string value;
  int64_t bytes = 0;
  while (bytes < kTargetBytes) {
    if (nullable) {
      bytes += 2;  // the def level
      if (uniform01(rng) < 0.25) {
        CheckOk(builder.AppendNull());
        continue;
      }
    }
    value.resize(static_cast<size_t>(length(rng)));
    for (char& c : value) c = kAlphabet[letter(rng)];
    CheckOk(builder.Append(value));
    bytes += static_cast<int64_t>(value.size());
  }
  return Shred(Field("s", utf8(), nullable), ValueOrAbort(builder.Finish()));
}

enum class Kind {
  kInt64Required,
  kInt64Nullable,
  kListInt32,
  kListInt32NullChildren,
  kStringRequired,
  kStringNullable,
};

const Input& GetInput(Kind kind) {
  switch (kind) {
    case Kind::kInt64Required: {
      static const Input input = MakeInt64(false);
      return input;
    }
    case Kind::kInt64Nullable: {
      static const Input input = MakeInt64(true);
      return input;
    }
    case Kind::kListInt32: {
      static const Input input = MakeListInt32(false);
      return input;
    }
    case Kind::kListInt32NullChildren: {
      static const Input input = MakeListInt32(true);
      return input;
    }
    case Kind::kStringNullable: {
      static const Input input = MakeString(true);
      return input;
    }
    case Kind::kStringRequired:
    default: {
      static const Input input = MakeString(false);
      return input;
    }
  }
}

// `kernels`: with the AVX-512 kernels where this CPU has them
// (gather_simd.h, gear_simd.h), or with the portable loops alone; run.sh
// prints the ratio of each pair, measured in the same run.
void FindCuts(benchmark::State& state, Kind kind, bool kernels) {
  const Input& input = GetInput(kind);
  const parquet::CdcOptions cdc;  // the defaults: 256 KiB, 1 MiB, norm 0
  const uint64_t mask = ValueOrAbort(parquet::CdcMask(cdc));
  std::vector<int64_t> cuts;
  const bool previous = parquet::cdc::internal::SetGatherSimd(kernels);
  state.SetLabel(parquet::cdc::internal::GatherSimdEnabled()
                     ? (parquet::cdc::internal::GearSimdEnabled() ? "avx512+vbmi" : "avx512")
                     : "portable");
  for (auto _ : state) {
    // A fresh state per iteration, so that every iteration does the same work.
    parquet::cdc::Chunker chunker(
        parquet::cdc::ChunkerOptions{cdc.min_chunk_size, cdc.max_chunk_size, mask});
    CheckOk(chunker.FindCuts(input.levels, &cuts));
    benchmark::DoNotOptimize(cuts.data());
    benchmark::ClobberMemory();
  }
  parquet::cdc::internal::SetGatherSimd(previous);
  state.SetBytesProcessed(state.iterations() * input.logical_bytes);
  state.counters["chunks"] = static_cast<double>(cuts.size() + 1);
  state.counters["logical_MiB"] = static_cast<double>(input.logical_bytes) / (1 << 20);
}

#define QUIVER_CHUNKER_BENCHMARK(name, kind)                                               \
  BENCHMARK_CAPTURE(FindCuts, name, kind, true)->Unit(benchmark::kMillisecond);          \
  BENCHMARK_CAPTURE(FindCuts, name##_portable, kind, false)->Unit(benchmark::kMillisecond)

QUIVER_CHUNKER_BENCHMARK(int64_required, Kind::kInt64Required);
QUIVER_CHUNKER_BENCHMARK(int64_nullable, Kind::kInt64Nullable);
QUIVER_CHUNKER_BENCHMARK(list_int32, Kind::kListInt32);
QUIVER_CHUNKER_BENCHMARK(list_int32_null_children, Kind::kListInt32NullChildren);
QUIVER_CHUNKER_BENCHMARK(string_required, Kind::kStringRequired);
QUIVER_CHUNKER_BENCHMARK(string_nullable, Kind::kStringNullable);

}  // namespace
}  // namespace quiver
