#!/usr/bin/env bash
# `make bench-peers`: Quiver against arrow-rs, arrow-go, pyarrow, duckdb and
# polars (bench/peers/run.py; the protocol is bench/peers/PROTOCOL.md).
#
#  1. builds Quiver's Python extension in the release tree (as
#     bench/run_writer.sh does; SKIP_BUILD=1 reuses it);
#  2. builds the Rust and Go peers with bench/peers/arrow-rs/build.sh and
#     bench/peers/arrow-go/build.sh (each prints its binary's path) when cargo
#     and go are installed; a peer whose toolchain or build script is missing,
#     or whose build fails, is announced loudly and left out of the run
#     (README "Benchmarks against other implementations" says how to get
#     cargo and go);
#  3. runs bench/peers/run.py with the repository's .venv python.
#
# Arguments go to run.py, e.g.
#   bench/peers/run.sh --quick                       # smoke test, results in build/peers/results-quick
#   bench/peers/run.sh --sections matrix --groups primitive,string --variants default,zstd
#   bench/peers/run.sh                               # full run; also writes the README summary
# Environment: JOBS (build parallelism, default 2), SKIP_BUILD=1,
# QUIVER_PEER_ARROW_RS / QUIVER_PEER_ARROW_GO (use these binaries, build nothing).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

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
build_peer() {  # build_peer NAME TOOL ENVVAR
  local name=$1 tool=$2 var=$3 script="bench/peers/$1/build.sh" bin
  if [[ -n "${!var:-}" ]]; then
    peer_args+=(--peer-bin "$name=${!var}")
    return
  fi
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "" >&2
    echo "!!! bench-peers: '$tool' is not installed: running WITHOUT the $name peer" >&2
    echo "!!! (README, 'Benchmarks against other implementations', says how to get it)" >&2
    echo "" >&2
    return
  fi
  if [[ ! -x "$script" ]]; then
    echo "" >&2
    echo "!!! bench-peers: $script is missing: running WITHOUT the $name peer" >&2
    echo "" >&2
    return
  fi
  echo "bench-peers: building the $name peer ($script)" >&2
  if bin=$(nice "$script" | tail -n 1) && [[ -x "$bin" ]]; then
    peer_args+=(--peer-bin "$name=$bin")
  else
    echo "" >&2
    echo "!!! bench-peers: $script failed: running WITHOUT the $name peer" >&2
    echo "" >&2
  fi
}
build_peer arrow-rs cargo QUIVER_PEER_ARROW_RS
build_peer arrow-go go QUIVER_PEER_ARROW_GO

export PYTHONPATH="$PWD/build/release/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$python" bench/peers/run.py "${peer_args[@]}" "$@"
