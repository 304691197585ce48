#!/usr/bin/env bash
# `make bench-peers`: Quiver against arrow-rs (two builds), arrow-go, pyarrow,
# duckdb and polars (bench/peers/run.py; the protocol is bench/peers/PROTOCOL.md).
#
#  1. builds Quiver's Python extension in the release tree (as
#     bench/run_writer.sh does; SKIP_BUILD=1 reuses it);
#  2. takes the Rust and Go peers that `make bench-peers-build`
#     (bench/peers/build_peers.sh: arrow-rs for the default target and with
#     -C target-cpu=native, arrow-go) built, when their stamps are current;
#     nothing is built here. A peer not built or stale is announced loudly
#     and left out of the run (README "Benchmarks against other
#     implementations" says how to get cargo and go);
#  3. starts the time budget (QUIVER_BENCH_START: the builds are not in it),
#     runs bench/peers/run.py with the repository's .venv python, and prints
#     the wall time of all of it.
#
# Arguments go to run.py, e.g.
#   bench/peers/run.sh --quick                       # smoke test, results in build/peers/results-quick
#   bench/peers/run.sh --sections matrix --groups primitive,string --variants default,zstd
#   bench/peers/run.sh                               # full run; also writes the README summary
# Environment: JOBS (build parallelism, default 2), SKIP_BUILD=1,
# QUIVER_PEER_ARROW_RS / QUIVER_PEER_ARROW_RS_NATIVE / QUIVER_PEER_ARROW_GO
# (use these binaries instead of the built ones).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=bench/runner.sh
source bench/runner.sh  # runner_start, build_release, use_peers, peer_args, budget_start
runner_start bench-peers
build_release _quiver
use_peers arrow-rs=QUIVER_PEER_ARROW_RS arrow-rs-native=QUIVER_PEER_ARROW_RS_NATIVE \
  arrow-go=QUIVER_PEER_ARROW_GO
budget_start

export PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}"
"$python" bench/peers/run.py "${peer_args[@]}" "$@"
