// The allocator pin of every benchmark binary (docs/benchmarks.md, "Rules
// of measurement"): jemalloc with decay off (dirty_decay_ms:-1,
// muzzy_decay_ms:-1), compiled in through the `malloc_conf` symbol below,
// and asserted at start-up, before any benchmark runs, by reading
// opt.dirty_decay_ms and opt.muzzy_decay_ms back through mallctl.
//
// Without the pin, freed pages go back to the kernel on a timer and results
// depend on benchmark order (a freshly faulted page costs a minor fault).
// The environment variable MALLOC_CONF overrides the compiled-in string,
// which is exactly what the assertion catches (bench/run.sh and the peer
// harness test that it does). Setting decay through mallctl here instead
// would hide such an override, so this file only reads.
#include "allocator_pin.h"

#include <dlfcn.h>
#include <sys/types.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "quiver/memory/memory_pool.h"

// Read by jemalloc when it initialises (Debian's libjemalloc.so.2 is
// unprefixed and defines a weak default that this definition interposes).
extern "C" {
const char* malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:-1";
}

namespace quiver::bench {

namespace {

using MallctlFn = int (*)(const char*, void*, size_t*, void*, size_t);

constexpr int kRefusedExitCode = 2;

const char* g_program = "quiver benchmarks";

[[noreturn]] void Refuse(const std::string& why) {
  const char* env = std::getenv("MALLOC_CONF");
  std::fprintf(stderr,
               "%s: refusing to run: the allocator is not pinned.\n"
               "  %s\n"
               "  MALLOC_CONF in the environment: %s\n"
               "  Benchmarks need jemalloc as the process allocator with "
               "dirty_decay_ms:-1,muzzy_decay_ms:-1 (compiled in via malloc_conf);\n"
               "  the likely cause is a MALLOC_CONF environment override (or /etc/malloc.conf,\n"
               "  or an LD_PRELOADed allocator). Unset it and run again "
               "(docs/benchmarks.md, Rules of measurement).\n",
               g_program, why.c_str(), env != nullptr ? env : "(unset)");
  std::exit(kRefusedExitCode);
}

// The shared object that defines the process's `symbol`, or "" if unknown.
std::string DefiningObject(const char* symbol) {
  void* address = dlsym(RTLD_DEFAULT, symbol);
  Dl_info info{};
  if (address == nullptr || dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "";
  return info.dli_fname;
}

}  // namespace

std::string CheckAllocatorPinned(const char* program) {
  g_program = program;
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

}  // namespace quiver::bench
