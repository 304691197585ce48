// Not installed: the default-pool choice, exposed for tests.
#pragma once

#include <string>

#include "quiver/memory/memory_pool.h"

namespace quiver::internal {

// The pool a process with QUIVER_MEMORY_POOL=`requested` (nullptr: unset)
// uses by default. An unknown or unavailable name keeps the default and sets
// `*warning` to the one line to print.
MemoryPool* ChooseMemoryPool(const char* requested, std::string* warning);

}  // namespace quiver::internal
