#!/usr/bin/env bash
# The dataset section of `make bench-peers` (issue 46 section 6): Quiver's
# ParquetDataset(filters=) and write_to_dataset against pyarrow.dataset,
# duckdb and polars, from /dev/shm and from a local S3 server (moto on
# 127.0.0.1, started by the driver) (bench/peers/dataset_run.py; the
# `dsread` / `dswrite` commands are in bench/peers/dataset_py_peer.py).
# Needs no Rust or Go peer.
#
#  1. builds Quiver's Python extension in the release tree (SKIP_BUILD=1
#     reuses it);
#  2. starts the time budget (the build is not in it) and runs
#     dataset_run.py with the repository's .venv python, printing the wall
#     time of all of it.
#
# Arguments go to dataset_run.py, e.g.
#   bench/peers/run_dataset.sh --quick               # SF 0.1, results in build/peers/results-quick
#   bench/peers/run_dataset.sh --where local --sections read
#   bench/peers/run_dataset.sh                       # full run (its budget: 15 minutes)
# Environment: JOBS (build parallelism, default 2), SKIP_BUILD=1.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source bench/runner.sh  # runner_start, build_release, budget_start (shellcheck: bench/runner.sh)
runner_start bench-dataset && build_release _quiver
budget_start
PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}" \
  "$python" bench/peers/dataset_run.py "$@"
