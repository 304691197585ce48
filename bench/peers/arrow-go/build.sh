#!/usr/bin/env bash
# Builds the arrow-go peer of `make bench-peers` into the shared build tree.
# Run from the repository root; prints the binary's path. go.mod/go.sum pin
# github.com/apache/arrow-go/v18 v18.8.0 and every dependency (-mod=readonly:
# go.sum is authoritative, nothing is resolved anew). The first build fetches
# the modules through the Go module proxy.
set -euo pipefail
root=$(pwd)
out="$root/build/peers/arrow-go/quiver-peer-arrow-go"
if [ ! -f bench/peers/arrow-go/go.mod ]; then
  echo "build.sh: run from the repository root (bench/peers/arrow-go/go.mod not found)" >&2
  exit 2
fi
command -v go >/dev/null || { echo "build.sh: go is not on PATH" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
export GOFLAGS="-mod=readonly -buildvcs=false"
export GOTOOLCHAIN=local
cd bench/peers/arrow-go
nice go build -trimpath -o ../../../build/peers/arrow-go/quiver-peer-arrow-go .
echo "$out"
