#!/usr/bin/env bash
# `make bench-compute`: Quiver's compute kernels against arrow-rs (two
# builds) and pyarrow.compute (bench/peers/compute_run.py; the protocol's
# `kernel` command is in bench/peers/PROTOCOL.md).
#
#  1. builds Quiver's Python extension and the C++ peer
#     (quiver_compute_peer) in the release tree (SKIP_BUILD=1 reuses them);
#  2. takes the arrow-rs peer (default target and -C target-cpu=native) that
#     `make bench-peers-build` built, when its stamp is current (loudly left
#     out otherwise: bench/runner.sh use_peers); nothing is built here;
#  3. starts the time budget (the builds are not in it), runs
#     compute_run.py with the repository's .venv python, and prints the wall
#     time of all of it.
#
# Arguments go to compute_run.py, e.g.
#   bench/peers/run_compute.sh --quick        # smoke test, results in build/peers/results-quick
#   bench/peers/run_compute.sh --kernels filter,take --sections size
#   bench/peers/run_compute.sh                # full run; also writes the README summary
# Environment: JOBS (build parallelism, default 2), SKIP_BUILD=1,
# QUIVER_PEER_ARROW_RS / QUIVER_PEER_ARROW_RS_NATIVE / QUIVER_COMPUTE_PEER
# (use these binaries instead of the built ones).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# shellcheck source=bench/runner.sh
source bench/runner.sh  # runner_start, build_release, use_peers, peer_args, budget_start
runner_start bench-compute
build_release _quiver quiver_compute_peer
use_peers arrow-rs=QUIVER_PEER_ARROW_RS arrow-rs-native=QUIVER_PEER_ARROW_RS_NATIVE
budget_start

export PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}"
"$python" bench/peers/compute_run.py "${peer_args[@]}" "$@"
