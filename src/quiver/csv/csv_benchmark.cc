// Parse-only speed of the CSV reader: tokenize + convert to Arrow record
// batches, one thread, no Parquet; CPU time (std::clock), three runs of the
// whole file. Not built by CMake yet (bench/CMakeLists.txt belongs to the
// benchmark harness); from a release tree:
//   B=build/release/src/quiver; g++ -O2 -std=c++20 -I src -I build/release/src \
//     src/quiver/csv/csv_benchmark.cc $B/csv/libquiver_csv.a $B/compute/libquiver_compute.a \
//     $B/io/libquiver_io.a $B/compression/libquiver_compression.a $B/array/libquiver_array.a \
//     $B/memory/libquiver_memory.a $B/util/libquiver_util.a $B/libquiver_zstd.a \
//     -lz -llz4 -lsnappy -lbrotlienc -lbrotlidec -lpthread -ljemalloc -o /tmp/csv_benchmark
//   .venv/bin/tpchgen-cli csv -s 1 --tables lineitem --output-dir /tmp/tpch_csv
//   /tmp/csv_benchmark /tmp/tpch_csv/lineitem.csv
#include <ctime>
#include <cstdio>
#include "quiver/csv/input.h"
#include "quiver/csv/reader.h"
using namespace quiver;
int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: csv_benchmark FILE.csv\n");
    return 2;
  }
  for (int run = 0; run < 3; ++run) {
    std::clock_t c0 = std::clock();
    auto in = csv::OpenInput(argv[1]).ValueOrDie();
    auto r = csv::StreamingReader::Open(std::move(in), argv[1], {}, {}, {}).ValueOrDie();
    int64_t rows = 0;
    while (true) { auto b = r->Next().ValueOrDie(); if (!b) break; rows += b->num_rows(); }
    double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("run %d: %ld rows, %ld bytes, cpu %.3f s = %.3f GB/s\n", run, (long)rows, (long)r->bytes_read(), cpu, r->bytes_read() / cpu / 1e9);
  }
}
