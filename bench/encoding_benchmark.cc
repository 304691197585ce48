// Micro-benchmarks of the encodings' hot loops: RLE/bit-packed levels and
// dictionary indices, DELTA_BINARY_PACKED, and raw bit unpacking
// (src/quiver/parquet/encoding/). Built with the other benchmarks
// (make bench-build); main() is bench_main.cc's, which pins the allocator.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/encoding/bit_packing_internal.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"

namespace quiver::parquet {
namespace {

constexpr int64_t kValues = 1 << 20;

// Definition levels of a column with ~10% nulls (width 1), or dictionary
// indices (random, width from the argument).
std::vector<int32_t> MakeValues(int bit_width, bool levels) {
  std::mt19937_64 rng(1);
  std::vector<int32_t> v(kValues);
  for (auto& x : v) {
    x = levels ? (rng() % 10 != 0) : static_cast<int32_t>(rng() & ((1u << bit_width) - 1));
  }
  return v;
}

void BM_RleEncode(benchmark::State& state) {
  const int w = static_cast<int>(state.range(0));
  const auto values = MakeValues(w, w == 1);
  MutableBuffer out;
  for (auto _ : state) {
    out.Clear();
    RleBitPackedEncoder encoder(w, &out);
    if (!encoder.PutBatch(values.data(), kValues).ok()) state.SkipWithError("put");
    benchmark::DoNotOptimize(encoder.Flush());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleEncode)->Arg(1)->Arg(8)->Arg(17);

void BM_RleDecode(benchmark::State& state) {
  const int w = static_cast<int>(state.range(0));
  const auto values = MakeValues(w, w == 1);
  MutableBuffer out;
  RleBitPackedEncoder encoder(w, &out);
  if (!encoder.PutBatch(values.data(), kValues).ok() || !encoder.Flush().ok()) return;
  std::vector<int32_t> back(kValues);
  for (auto _ : state) {
    RleBitPackedDecoder decoder(out.data(), out.size(), w);
    benchmark::DoNotOptimize(decoder.GetBatch(back.data(), kValues));
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleDecode)->Arg(1)->Arg(8)->Arg(17);

void BM_Unpack32(benchmark::State& state) {
  const int w = static_cast<int>(state.range(0));
  std::vector<uint8_t> packed(static_cast<size_t>(kValues / 32 * 4 * w), 0x5A);
  std::vector<uint32_t> out(kValues);
  for (auto _ : state) {
    for (int64_t b = 0; b < kValues / 32; ++b) {
      internal::Unpack32(packed.data() + b * 4 * w, w, out.data() + b * 32);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_Unpack32)->Arg(1)->Arg(7)->Arg(16)->Arg(32);

void BM_DeltaRoundTrip(benchmark::State& state) {
  std::vector<int64_t> values(kValues);
  std::mt19937_64 rng(2);
  int64_t x = 0;
  for (auto& v : values) v = (x += static_cast<int64_t>(rng() % 1000));
  std::vector<int64_t> back(kValues);
  MutableBuffer out;
  for (auto _ : state) {
    out.Clear();
    DeltaBinaryPackedEncoder<int64_t> encoder;
    if (!encoder.Put(values.data(), kValues).ok() || !encoder.Flush(&out).ok()) return;
    DeltaBinaryPackedDecoder<int64_t> decoder;
    if (!decoder.Init(out.data(), out.size()).ok()) return;
    benchmark::DoNotOptimize(decoder.GetBatch(back.data(), kValues));
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DeltaRoundTrip);

}  // namespace
}  // namespace quiver::parquet

