// Quiver's version and the source it was built from.
//
// Version() is CMake's project(VERSION) (also the Python package's version
// and `quiver --version`); BuildCommit() the git commit of the source tree,
// read at build time (cmake/QuiverBuildInfo.cmake regenerates the one file
// that holds both at every build and rewrites it only when they change, so
// a new commit recompiles that file alone). A tree without git (a source
// archive) gives an empty BuildCommit().
#pragma once

#include <string_view>

namespace quiver {

std::string_view Version();      // "X.Y.Z"
std::string_view BuildCommit();  // 40 hex digits, or empty

}  // namespace quiver
