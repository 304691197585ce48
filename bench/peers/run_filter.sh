#!/usr/bin/env bash
# `make bench-filter`: Quiver's filtered reads against pyarrow, duckdb,
# polars and arrow-rs (bench/peers/filter_run.py; the protocol's `filter`
# command is in bench/peers/PROTOCOL.md).
#
#  1. builds Quiver's Python extension in the release tree (SKIP_BUILD=1
#     reuses it);
#  2. takes the arrow-rs peer (default target and -C target-cpu=native) that
#     `make bench-peers-build` built, when its stamp is current (loudly left
#     out otherwise: bench/runner.sh use_peers); nothing is built here;
#  3. starts the time budget (the builds are not in it), runs
#     filter_run.py with the repository's .venv python, and prints the wall
#     time of all of it.
#
# Arguments go to filter_run.py, e.g.
#   bench/peers/run_filter.sh --quick        # smoke test, results in build/peers/results-quick
#   bench/peers/run_filter.sh --datasets lineitem --kinds sorted_key,or
#   bench/peers/run_filter.sh                # full run (its budget: 43 minutes)
#   bench/peers/run_filter.sh --resume bench/results/filter_..._partial.json.gz
# Environment: JOBS (build parallelism, default 2), SKIP_BUILD=1,
# QUIVER_PEER_ARROW_RS / QUIVER_PEER_ARROW_RS_NATIVE (use these binaries
# instead of the built ones).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source bench/runner.sh  # runner_start, build_release, use_peers, peer_args, budget_start (shellcheck: bench/runner.sh)
runner_start bench-filter && build_release _quiver
use_peers arrow-rs=QUIVER_PEER_ARROW_RS arrow-rs-native=QUIVER_PEER_ARROW_RS_NATIVE
budget_start
PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}" \
  "$python" bench/peers/filter_run.py "${peer_args[@]}" "$@"
