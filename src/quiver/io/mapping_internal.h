// The owner of a memory mapping that a Buffer wraps (a mapped file, a
// MappedOutputStream's bytes): unmapped with the last reference.
#pragma once

#include <sys/mman.h>

#include <cstddef>

namespace quiver::io::internal {

struct Mapping {
  void* address = nullptr;
  size_t length = 0;
  ~Mapping() {
    if (address != nullptr) ::munmap(address, length);
  }
};

}  // namespace quiver::io::internal
