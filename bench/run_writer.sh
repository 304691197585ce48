#!/usr/bin/env bash
# Runs the Parquet writer matrix (docs/benchmarks.md section 1): Quiver vs
# pyarrow through Python, bench/writer_bench.py. Builds the Python extension in
# the release tree first (cmake --preset release), then runs the benchmark with
# the repository's .venv python and PYTHONPATH=build/release/python.
# writer_bench.py pins the allocator itself (it re-executes with jemalloc
# preloaded and MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1, and refuses to
# run under any other MALLOC_CONF) and exits non-zero if a correctness gate
# fails.
#
# Arguments go to writer_bench.py, e.g.
#   bench/run_writer.sh --groups primitive,string --variants default,zstd --reps 5
#   bench/run_writer.sh --quick            # smoke test, 32,768 rows
#   bench/run_writer.sh --json build/release/bench/writer_bench.json
# Environment: JOBS (build parallelism, default 2), SKIP_BUILD=1 to reuse the
# existing build.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=bench/runner.sh
source bench/runner.sh  # build_release
build_release _quiver

export PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$python" bench/writer_bench.py "$@"
