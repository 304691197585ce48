// Units per second of an Arrow TimeUnit (pretty printing and Scalar text).
#pragma once

#include <cstdint>

#include "quiver/array/type.h"

namespace quiver {

inline int64_t TimeUnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1;
    case TimeUnit::kMilli: return 1000;
    case TimeUnit::kMicro: return 1000000;
    case TimeUnit::kNano: return 1000000000;
  }
  return 1;
}

}  // namespace quiver
