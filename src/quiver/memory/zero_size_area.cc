#include "quiver/memory/zero_size_area.h"

namespace quiver::internal {

alignas(kZeroSizeAreaAlignment) uint8_t kZeroSizeArea[kZeroSizeAreaAlignment];

namespace {
// Maps the page at start-up (see zero_size_area.h).
[[maybe_unused]] const uint8_t kTouched = *static_cast<volatile uint8_t*>(kZeroSizeArea);
}  // namespace

}  // namespace quiver::internal
