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
start=$(date +%s)
export QUIVER_BENCH_START=$start  # run.py's time budget counts the builds too
wall() { echo "bench-peers: wall time $(( ($(date +%s) - start) / 60 )) min $(( ($(date +%s) - start) % 60 )) s (builds included)"; }
trap wall EXIT

python=.venv/bin/python
if [[ ! -x "$python" ]]; then
  echo "run.sh: $python not found (scripts/install-deps.sh python-bench sets up .venv)" >&2
  exit 1
fi

if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
  cmake --preset release >/dev/null
  cmake --build --preset release --target _quiver -j "${JOBS:-2}"
fi

peer_args=()
loud() {
  echo "" >&2
  echo "!!! bench-peers: $*" >&2
  echo "" >&2
}
# build_peer DIR TOOL NAME=ENVVAR...: runs DIR's build script (one binary path
# a line, in the order of the NAMEs) unless every NAME's variable is set.
build_peer() {
  local dir=$1 tool=$2 script="bench/peers/$1/build.sh" pairs=("${@:3}") all_set=1 pair bins
  for pair in "${pairs[@]}"; do
    local var=${pair#*=}
    if [[ -n "${!var:-}" ]]; then
      peer_args+=(--peer-bin "${pair%%=*}=${!var}")
    else
      all_set=0
    fi
  done
  [[ $all_set == 1 ]] && return
  if ! command -v "$tool" >/dev/null 2>&1; then
    loud "'$tool' is not installed: running WITHOUT the $dir peer (README, 'Benchmarks against other implementations', says how to get it)"
    return
  fi
  if [[ ! -x "$script" ]]; then
    loud "$script is missing: running WITHOUT the $dir peer"
    return
  fi
  echo "bench-peers: building the $dir peer ($script)" >&2
  if ! bins=$(nice "$script"); then
    loud "$script failed: running WITHOUT the $dir peer"
    return
  fi
  local i=0
  while IFS= read -r bin; do
    pair=${pairs[$i]:-}
    [[ -z "$pair" ]] && break
    local var=${pair#*=}
    if [[ -z "${!var:-}" && -x "$bin" ]]; then
      peer_args+=(--peer-bin "${pair%%=*}=$bin")
    fi
    i=$((i + 1))
  done <<<"$bins"
}
build_peer arrow-rs cargo arrow-rs=QUIVER_PEER_ARROW_RS arrow-rs-native=QUIVER_PEER_ARROW_RS_NATIVE
build_peer arrow-go go arrow-go=QUIVER_PEER_ARROW_GO

export PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}"
"$python" bench/peers/run.py "${peer_args[@]}" "$@"
