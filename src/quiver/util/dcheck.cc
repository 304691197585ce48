#include "quiver/util/dcheck.h"

#include <cstdio>
#include <cstdlib>

namespace quiver::internal {

void DCheckFailed(const char* file, int line, const char* condition, const std::string& detail) {
  std::fprintf(stderr, "quiver: DCHECK failed at %s:%d: %s%s%s\n", file, line, condition,
               detail.empty() ? "" : " ", detail.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace quiver::internal
