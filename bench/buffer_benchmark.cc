// Buffer benchmarks: docs/benchmarks.md, section 3.
//
// BufferCreate mirrors arrow-rs arrow/benches/buffer_create.rs: 32,768 inner
// lists of u32 with lengths uniform 0..32 (std::mt19937, seed 42), appended
// element by element, list by list as slices (capacity 0, then the exact
// capacity reserved), from a trusted-length iterator (Reserve + UnsafeAppend),
// and as a parity bitmap built bit by bit.
//
// EmptyCompare: 1,048,576 compares of empty values through quiver::BytesEqual
// (the memcmp behind Buffer::Equals) with a length the compiler cannot see,
// for (a) zero-size buffers, (b) real allocations of length 0 and (c) a
// control at a small unmapped address (what a dangling pointer looks like).
// The three cases run the same code over identically shaped pointer arrays
// prepared outside the timed loop; they differ only in where the pointers
// point. With glibc >= 2.35 on AVX-512 machines memcmp masks its loads, and a
// masked load of zero bytes at an unmapped address still walks the page
// tables: (c) must come out much slower than (a), or the benchmark does not
// measure what it claims. bench/run.sh checks the ratios.
//
// Append64MiB: 64 MiB of uint64 appended after Reserve (no zeroing) versus
// after a zeroing allocation (what a calloc-like allocation costs).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <ranges>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "quiver/memory/buffer.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/memory/zero_size_area.h"

namespace quiver {
namespace {

void CheckOk(const Status& status) {
  if (QUIVER_PREDICT_FALSE(!status.ok())) status.Abort("buffer_benchmark");
}

// --- BufferCreate ------------------------------------------------------------

constexpr int kNumLists = 32768;
constexpr uint32_t kMaxListLength = 32;  // inclusive, as arrow-rs's Uniform(0, 33)

struct ListData {
  std::vector<std::vector<uint32_t>> lists;
  int64_t num_values = 0;
  int64_t byte_size() const { return num_values * static_cast<int64_t>(sizeof(uint32_t)); }
};

const ListData& GetListData() {
  static const ListData data = [] {
    ListData d;
    std::mt19937 rng(42);
    std::uniform_int_distribution<uint32_t> uniform(0, kMaxListLength);
    d.lists.resize(kNumLists);
    for (auto& list : d.lists) {
      list.resize(uniform(rng));
      for (uint32_t& value : list) value = uniform(rng);
      d.num_values += static_cast<int64_t>(list.size());
    }
    return d;
  }();
  return data;
}

void SetListCounters(benchmark::State& state, const ListData& data) {
  state.SetBytesProcessed(state.iterations() * data.byte_size());
  state.SetItemsProcessed(state.iterations() * data.num_values);
}

// (i) Append<uint32_t> one element at a time, growing as needed.
void BufferCreateAppendElement(benchmark::State& state) {
  const ListData& data = GetListData();
  for (auto _ : state) {
    MutableBuffer result;
    for (const auto& list : data.lists) {
      for (uint32_t value : list) CheckOk(result.Append<uint32_t>(value));
    }
    std::shared_ptr<Buffer> frozen = result.Freeze();
    benchmark::DoNotOptimize(frozen);
  }
  SetListCounters(state, data);
}
BENCHMARK(BufferCreateAppendElement)->Name("BufferCreate/append_element");

// (ii), (iii) ExtendFromSlice per list into a buffer reserved with `capacity`.
void BufferCreateExtendFromSlice(benchmark::State& state, bool prepared) {
  const ListData& data = GetListData();
  int64_t capacity = prepared ? data.byte_size() : 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(capacity);
    MutableBuffer result;
    CheckOk(result.Reserve(capacity));
    for (const auto& list : data.lists) {
      CheckOk(result.ExtendFromSlice(list.data(),
                                     static_cast<int64_t>(list.size() * sizeof(uint32_t))));
    }
    std::shared_ptr<Buffer> frozen = result.Freeze();
    benchmark::DoNotOptimize(frozen);
  }
  SetListCounters(state, data);
}
BENCHMARK_CAPTURE(BufferCreateExtendFromSlice, extend_from_slice, false)
    ->Name("BufferCreate/extend_from_slice");
BENCHMARK_CAPTURE(BufferCreateExtendFromSlice, extend_from_slice_prepared, true)
    ->Name("BufferCreate/extend_from_slice_prepared");

// (iv) From a trusted-length iterator over the flattened lists: reserve the
// total once, then UnsafeAppend each element.
void BufferCreateFromIter(benchmark::State& state) {
  const ListData& data = GetListData();
  for (auto _ : state) {
    auto values = data.lists | std::views::join;
    MutableBuffer result;
    CheckOk(result.Reserve(data.byte_size()));
    for (uint32_t value : values) result.UnsafeAppend<uint32_t>(value);
    std::shared_ptr<Buffer> frozen = result.Freeze();
    benchmark::DoNotOptimize(frozen);
  }
  SetListCounters(state, data);
}
BENCHMARK(BufferCreateFromIter)->Name("BufferCreate/from_iter");

// (v) A bitmap of the values' parity, bit by bit, 8 bits per byte, LSB first.
void BufferCreateBoolBitset(benchmark::State& state) {
  const ListData& data = GetListData();
  for (auto _ : state) {
    MutableBuffer bitmap;
    uint8_t current = 0;
    int bit = 0;
    for (const auto& list : data.lists) {
      for (uint32_t value : list) {
        current |= static_cast<uint8_t>((value & 1u) << bit);
        if (++bit == 8) {
          CheckOk(bitmap.Push(current));
          current = 0;
          bit = 0;
        }
      }
    }
    if (bit != 0) CheckOk(bitmap.Push(current));
    std::shared_ptr<Buffer> frozen = bitmap.Freeze();
    benchmark::DoNotOptimize(frozen);
  }
  SetListCounters(state, data);
}
BENCHMARK(BufferCreateBoolBitset)->Name("BufferCreate/bool_bitset");

// --- EmptyCompare ------------------------------------------------------------

constexpr int64_t kNumEmptyCompares = int64_t{1} << 20;

struct PointerPair {
  const uint8_t* left;
  const uint8_t* right;
};
using PointerPairs = std::vector<PointerPair>;

[[noreturn]] void SetupFailed(const char* what) {
  std::fprintf(stderr, "buffer_benchmark: EmptyCompare set-up: %s\n", what);
  std::abort();
}

// (a) Distinct empty buffers (default-constructed and frozen-empty): all at
// the zero-size area.
const PointerPairs& ZeroSizePairs() {
  static const PointerPairs pairs = [] {
    PointerPairs p(kNumEmptyCompares);
    for (PointerPair& pair : p) {
      Buffer left;
      MutableBuffer right_builder;
      std::shared_ptr<Buffer> right = right_builder.Freeze();
      if (!IsZeroSizeArea(left.data()) || !IsZeroSizeArea(right->data())) {
        SetupFailed("an empty Buffer does not point at the zero-size area");
      }
      pair = {left.data(), right->data()};
    }
    return p;
  }();
  return pairs;
}

// (b) Distinct live pool allocations of 64 bytes, each written once and then
// cleared (length 0), as a builder's buffer is after Clear(). Two pitfalls
// would make (b) measure something else than where the pointer points:
//  - Fresh pool memory that was never written sits on pages the kernel has
//    not mapped yet. A masked load of zero bytes does not fault them in, so
//    every compare there costs as much as at an unmapped address (measured
//    ~300 ns, slower than the control). Hence the write.
//  - 2 x 1,048,576 distinct allocations span 128 MiB, and a zero-byte masked
//    load still touches its cache line: the compares then stream from DRAM
//    (~3x slower than (a)), which would hide a slow zero-size area from the
//    (a)-vs-(b) check. Hence kAllocatedPairs pairs (512 KiB, fits in L2 and
//    the TLB), used in turn by the 1,048,576 entries.
constexpr int64_t kAllocatedPairs = 4096;

const PointerPairs& AllocatedLen0Pairs() {
  static std::vector<MutableBuffer> allocations;  // kept alive for the process
  static const PointerPairs pairs = [] {
    allocations.reserve(2 * kAllocatedPairs);
    for (int64_t i = 0; i < 2 * kAllocatedPairs; ++i) {
      MutableBuffer buffer;
      CheckOk(buffer.AppendRepeated(0xA5, 64));  // allocates and writes
      buffer.Clear();                            // length 0, allocation kept
      if (IsZeroSizeArea(buffer.data())) SetupFailed("AppendRepeated did not allocate");
      allocations.push_back(std::move(buffer));
    }
    PointerPairs p(kNumEmptyCompares);
    for (int64_t i = 0; i < kNumEmptyCompares; ++i) {
      const int64_t k = i % kAllocatedPairs;
      p[i] = {allocations[2 * k].data(), allocations[2 * k + 1].data()};
    }
    return p;
  }();
  return pairs;
}

// (c) Control: small unmapped addresses, as a dangling "empty" pointer would be.
const PointerPairs& UnmappedControlPairs() {
  static const PointerPairs pairs(
      kNumEmptyCompares, PointerPair{reinterpret_cast<const uint8_t*>(0x80),
                                     reinterpret_cast<const uint8_t*>(0x100)});
  return pairs;
}

// Keeps GCC from turning the loop into something other than one memcmp call
// per pair (e.g. hoisting the length test and skipping the calls).
[[gnu::noinline]] int64_t CountEqual(const PointerPairs& pairs, int64_t length) {
  int64_t equal = 0;
  for (const PointerPair& pair : pairs) equal += BytesEqual(pair.left, pair.right, length);
  return equal;
}

void EmptyCompare(benchmark::State& state, const PointerPairs& (*make_pairs)()) {
  const PointerPairs& pairs = make_pairs();
  int64_t length = 0;
  int64_t equal = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(length);  // a run-time 0, opaque to the compiler
    equal += CountEqual(pairs, length);
    benchmark::DoNotOptimize(equal);
  }
  if (equal != state.iterations() * kNumEmptyCompares) {
    state.SkipWithError("empty values compared unequal");
  }
  state.SetItemsProcessed(state.iterations() * kNumEmptyCompares);
}
BENCHMARK_CAPTURE(EmptyCompare, zero_size, ZeroSizePairs)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(EmptyCompare, allocated_len0, AllocatedLen0Pairs)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(EmptyCompare, unmapped_control, UnmappedControlPairs)
    ->Unit(benchmark::kMicrosecond);

// --- Append64MiB ---------------------------------------------------------------

constexpr int64_t kAppendBytes = int64_t{64} << 20;
constexpr int64_t kAppendValues = kAppendBytes / static_cast<int64_t>(sizeof(uint64_t));

void Append64MiB(benchmark::State& state, bool zero_first) {
  for (auto _ : state) {
    MutableBuffer buffer;
    if (zero_first) {
      CheckOk(buffer.Resize(kAppendBytes, 0));  // a zeroing allocation
      buffer.Clear();                           // same appends over it below
    } else {
      CheckOk(buffer.Reserve(kAppendBytes));
    }
    for (int64_t i = 0; i < kAppendValues; ++i) {
      buffer.UnsafeAppend<uint64_t>(static_cast<uint64_t>(i));
    }
    std::shared_ptr<Buffer> frozen = buffer.Freeze();
    benchmark::DoNotOptimize(frozen->data());
  }
  state.SetBytesProcessed(state.iterations() * kAppendBytes);
}
BENCHMARK_CAPTURE(Append64MiB, reserve_no_zero, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Append64MiB, zeroing_alloc, true)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace quiver
