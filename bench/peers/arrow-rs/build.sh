#!/usr/bin/env bash
# Builds the arrow-rs peer of make bench-peers into the shared build tree and
# prints the binary's path. Run from anywhere; paths are the repo root's.
#   build/peers/arrow-rs/release/quiver-peer-arrow-rs
# cargo runs from this directory so that .cargo/config.toml (the jemalloc
# decay pin) applies; --locked keeps the versions of Cargo.lock.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
target="$root/build/peers/arrow-rs"
cd "$here"
CARGO_TARGET_DIR="$target" CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}" \
    nice cargo build --release --locked --quiet >&2
echo "$target/release/quiver-peer-arrow-rs"
