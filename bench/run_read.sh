#!/usr/bin/env bash
# Runs the Parquet read matrix: Quiver vs pyarrow.parquet.read_table
# (use_threads=False) on the writer-matrix groups written by pyarrow
# (uncompressed, snappy, zstd), from bytes in memory: bench/read_bench.py.
# Builds the Python extension in the release tree first, then runs the
# benchmark with the repository's .venv python and
# PYTHONPATH=build/release/python. read_bench.py pins the allocator as
# writer_bench.py does and exits non-zero if a correctness gate fails.
#
# Arguments go to read_bench.py, e.g.
#   bench/run_read.sh --groups primitive,string --codecs none,zstd --reps 5
#   bench/run_read.sh --breakdown --profile 3    # decompression shares, perf profiles
# Environment: JOBS (build parallelism, default 2), SKIP_BUILD=1 to reuse the
# existing build.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=bench/runner.sh
source bench/runner.sh  # build_release
build_release _quiver

export PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$python" bench/read_bench.py "$@"
