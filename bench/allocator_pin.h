// The allocator pin of Quiver's benchmark binaries and peer processes
// (docs/benchmarks.md, "Rules of measurement"; allocator_pin.cc says how).
#pragma once

#include <string>

namespace quiver::bench {

// Checks that jemalloc is the process allocator with dirty and muzzy decay
// -1 (read back through mallctl) and returns a line describing the pin;
// otherwise prints why on stderr, naming `program`, and exits with status 2.
std::string CheckAllocatorPinned(const char* program);

}  // namespace quiver::bench
