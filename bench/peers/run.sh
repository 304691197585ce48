#!/usr/bin/env bash
# `make bench-peers`: Quiver against arrow-rs (two builds), arrow-go, pyarrow,
# duckdb and polars (bench/peers/run.py; the protocol is bench/peers/PROTOCOL.md).
#
#  1. builds Quiver's Python extension in the release tree (as
#     bench/run_writer.sh does; SKIP_BUILD=1 reuses it);
#  2. builds the Rust and Go peers with bench/peers/arrow-rs/build.sh (the
#     default target and -C target-cpu=native, each into its own target
#     directory) and bench/peers/arrow-go/build.sh when cargo and go are
#     installed; a peer whose toolchain or build script is missing, or whose
#     build fails, is announced loudly and left out of the run (README
#     "Benchmarks against other implementations" says how to get cargo and go);
#  3. runs bench/peers/run.py with the repository's .venv python, and prints
#     the wall time of all of it.
#
# Arguments go to run.py, e.g.
#   bench/peers/run.sh --quick                       # smoke test, results in build/peers/results-quick
#   bench/peers/run.sh --sections matrix --groups primitive,string --variants default,zstd
#   bench/peers/run.sh                               # full run; also writes the README summary
# Environment: JOBS (build parallelism, default 2), SKIP_BUILD=1,
# QUIVER_PEER_ARROW_RS / QUIVER_PEER_ARROW_RS_NATIVE / QUIVER_PEER_ARROW_GO
# (use these binaries, build nothing).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=bench/runner.sh
source bench/runner.sh  # runner_start, build_release, build_peer, peer_args
runner_start bench-peers
build_release _quiver
build_peer arrow-rs cargo arrow-rs=QUIVER_PEER_ARROW_RS arrow-rs-native=QUIVER_PEER_ARROW_RS_NATIVE
build_peer arrow-go go arrow-go=QUIVER_PEER_ARROW_GO

export PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}"
"$python" bench/peers/run.py "${peer_args[@]}" "$@"
