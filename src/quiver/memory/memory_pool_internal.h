// Not installed: the default-pool choice, exposed for tests.
#pragma once

#include <string>

#include "quiver/memory/memory_pool.h"

namespace quiver::internal {

// The pool a process with QUIVER_MEMORY_POOL=`requested` (nullptr: unset)
// uses by default. An unknown or unavailable name keeps the default and sets
// `*warning` to the one line to print.
MemoryPool* ChooseMemoryPool(const char* requested, std::string* warning);

class HugeBlockCache;
// The mimalloc pool's cache of freed huge blocks (huge_block_cache_internal.h);
// nullptr when mimalloc is not available.
HugeBlockCache* MimallocHugeBlockCache();

}  // namespace quiver::internal
