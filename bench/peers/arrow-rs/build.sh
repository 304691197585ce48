#!/usr/bin/env bash
# Builds the arrow-rs peer of make bench-peers twice into the shared build
# tree and prints the two binaries' paths, one a line, default target first:
#   build/peers/arrow-rs/release/quiver-peer-arrow-rs          (x86-64 baseline)
#   build/peers/arrow-rs-native/release/quiver-peer-arrow-rs   (RUSTFLAGS="-C target-cpu=native")
# Each build has its own target directory (RUSTFLAGS would otherwise rebuild
# the other's every time); docs/benchmarks.md: "arrow-rs built with -C
# target-cpu=native as well as by default; the faster counts". Run from
# anywhere; paths are the repo root's. cargo runs from this directory so that
# .cargo/config.toml (the jemalloc decay pin) applies; --locked keeps the
# versions of Cargo.lock. NATIVE=0 builds the default target only.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cd "$here"
build() {  # build TARGET_DIR [RUSTFLAGS]
  CARGO_TARGET_DIR="$1" RUSTFLAGS="${2:-}" CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}" \
      nice cargo build --release --locked --quiet >&2
  echo "$1/release/quiver-peer-arrow-rs"
}
build "$root/build/peers/arrow-rs"
if [[ "${NATIVE:-1}" != "0" ]]; then
  build "$root/build/peers/arrow-rs-native" "-C target-cpu=native"
fi
