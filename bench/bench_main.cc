// main() for every Quiver benchmark binary: pins the allocator
// (allocator_pin.h: jemalloc with decay off, asserted before any benchmark
// runs), then runs Google Benchmark.
#include <cstdio>

#include <benchmark/benchmark.h>

#include "allocator_pin.h"

int main(int argc, char** argv) {
  // stderr, so that --benchmark_format=json on stdout stays valid JSON.
  std::fprintf(stderr, "%s\n", quiver::bench::CheckAllocatorPinned("quiver benchmarks").c_str());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
