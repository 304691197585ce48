// main() for every Quiver benchmark binary: pins the allocator, then runs
// Google Benchmark.
//
// docs/benchmarks.md, "Rules of measurement": benchmark binaries run on
// jemalloc with decay off (dirty_decay_ms:-1, muzzy_decay_ms:-1), compiled in
// through the `malloc_conf` symbol, and assert at start-up, before any
// benchmark runs, that opt.dirty_decay_ms and opt.muzzy_decay_ms read -1.
// Without the pin, freed pages go back to the kernel on a timer and results
// depend on benchmark order (a freshly faulted page costs a minor fault).
//
// The environment variable MALLOC_CONF overrides the compiled-in string, which
// is exactly what the assertion catches (bench/run.sh tests that it does).
// Setting decay through mallctl here instead would hide such an override, so
// this file only reads.
#include <dlfcn.h>
#include <sys/types.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <benchmark/benchmark.h>

#include "quiver/memory/memory_pool.h"

// Read by jemalloc when it initialises (Debian's libjemalloc.so.2 is
// unprefixed and defines a weak default that this definition interposes).
extern "C" {
const char* malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:-1";
}

namespace {

using MallctlFn = int (*)(const char*, void*, size_t*, void*, size_t);

constexpr int kRefusedExitCode = 2;

[[noreturn]] void Refuse(const std::string& why) {
  const char* env = std::getenv("MALLOC_CONF");
  std::fprintf(stderr,
               "quiver benchmarks: refusing to run: the allocator is not pinned.\n"
               "  %s\n"
               "  MALLOC_CONF in the environment: %s\n"
               "  Benchmarks need jemalloc as the process allocator with "
               "dirty_decay_ms:-1,muzzy_decay_ms:-1 (compiled in via malloc_conf);\n"
               "  the likely cause is a MALLOC_CONF environment override (or /etc/malloc.conf,\n"
               "  or an LD_PRELOADed allocator). Unset it and run again "
               "(docs/benchmarks.md, Rules of measurement).\n",
               why.c_str(), env != nullptr ? env : "(unset)");
  std::exit(kRefusedExitCode);
}

// The shared object that defines the process's `symbol`, or "" if unknown.
std::string DefiningObject(const char* symbol) {
  void* address = dlsym(RTLD_DEFAULT, symbol);
  Dl_info info{};
  if (address == nullptr || dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "";
  return info.dli_fname;
}

// Checks the pin; returns the line to print, or exits with kRefusedExitCode.
std::string CheckAllocatorPinned() {
  // jemalloc must be the process malloc, not merely loaded.
  const std::string malloc_owner = DefiningObject("malloc");
  if (malloc_owner.find("jemalloc") == std::string::npos) {
    Refuse("malloc is not jemalloc's (it comes from '" + malloc_owner + "')");
  }
  auto mallctl = reinterpret_cast<MallctlFn>(dlsym(RTLD_DEFAULT, "mallctl"));
  if (mallctl == nullptr) Refuse("mallctl not found: jemalloc is not in this process");

  auto read_ssize = [&](const char* name) {
    ssize_t value = 0;
    size_t size = sizeof(value);
    if (int rc = mallctl(name, &value, &size, nullptr, 0); rc != 0) {
      Refuse(std::string("mallctl(\"") + name + "\") failed: " + std::strerror(rc));
    }
    return value;
  };
  const ssize_t dirty = read_ssize("opt.dirty_decay_ms");
  const ssize_t muzzy = read_ssize("opt.muzzy_decay_ms");
  if (dirty != -1 || muzzy != -1) {
    Refuse("opt.dirty_decay_ms = " + std::to_string(dirty) +
           ", opt.muzzy_decay_ms = " + std::to_string(muzzy) + " (both must be -1)");
  }

  const char* version = nullptr;
  size_t size = sizeof(version);
  if (mallctl("version", &version, &size, nullptr, 0) != 0 || version == nullptr) {
    version = "unknown";
  }
  return std::string("allocator pinned: jemalloc ") + version + " (" + malloc_owner +
         "), opt.dirty_decay_ms=" + std::to_string(dirty) +
         ", opt.muzzy_decay_ms=" + std::to_string(muzzy) +
         "; quiver default pool: " + quiver::DefaultMemoryPool()->backend_name();
}

}  // namespace

int main(int argc, char** argv) {
  // stderr, so that --benchmark_format=json on stdout stays valid JSON.
  std::fprintf(stderr, "%s\n", CheckAllocatorPinned().c_str());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
