// Details shared by the C Data Interface bridge files (not installed).
#pragma once

namespace quiver::internal {

// Deepest nesting of ArrowSchema children/dictionaries accepted on import
// (the root is level 0). Bounds the recursion on untrusted input, which also
// turns a cycle of child pointers into an error instead of a stack overflow.
inline constexpr int kMaxImportDepth = 64;

}  // namespace quiver::internal
