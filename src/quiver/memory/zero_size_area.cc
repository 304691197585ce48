#include "quiver/memory/zero_size_area.h"

namespace quiver::internal {

alignas(kZeroSizeAreaAlignment) const uint8_t kZeroSizeArea[kZeroSizeAreaAlignment] = {};

}  // namespace quiver::internal
