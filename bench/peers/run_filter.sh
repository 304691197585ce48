#!/usr/bin/env bash
# `make bench-filter`: Quiver's filtered reads against pyarrow, duckdb,
# polars and arrow-rs (bench/peers/filter_run.py; the protocol's `filter`
# command is in bench/peers/PROTOCOL.md).
#
#  1. builds Quiver's Python extension in the release tree (SKIP_BUILD=1
#     reuses it);
#  2. builds the arrow-rs peer with bench/peers/arrow-rs/build.sh (default
#     target and -C target-cpu=native) when cargo is installed (loudly left
#     out otherwise: bench/runner.sh);
#  3. runs filter_run.py with the repository's .venv python, and prints the
#     wall time of all of it (its budget counts the builds too).
#
# Arguments go to filter_run.py, e.g.
#   bench/peers/run_filter.sh --quick        # smoke test, results in build/peers/results-quick
#   bench/peers/run_filter.sh --datasets lineitem --kinds sorted_key,or
#   bench/peers/run_filter.sh                # full run (about 45 minutes with the builds)
# Environment: JOBS (build parallelism, default 2), SKIP_BUILD=1,
# QUIVER_PEER_ARROW_RS / QUIVER_PEER_ARROW_RS_NATIVE (use these binaries).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source bench/runner.sh  # runner_start, build_release, build_peer, peer_args (shellcheck: bench/runner.sh)
runner_start bench-filter && build_release _quiver
build_peer arrow-rs cargo arrow-rs=QUIVER_PEER_ARROW_RS arrow-rs-native=QUIVER_PEER_ARROW_RS_NATIVE
PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}" \
  "$python" bench/peers/filter_run.py "${peer_args[@]}" "$@"
