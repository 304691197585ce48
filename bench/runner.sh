# Sourced by the benchmark runners (bench/run_read.sh, bench/run_writer.sh,
# bench/peers/run.sh for make bench-peers, bench/peers/run_compute.sh for make
# bench-compute), from the repository's root:
#   runner_start NAME     prints NAME's wall time (builds included) when
#                         the script exits;
#   build_release TARGET...  checks .venv/bin/python (as $python) and builds
#                         TARGETs in the release tree (unless SKIP_BUILD=1;
#                         JOBS, default 2);
#   use_peers NAME=ENVVAR...  collects the Rust/Go peers that `make
#                         bench-peers-build` built (and are current) as
#                         --peer-bin options in the array peer_args; a peer
#                         not built or stale is announced loudly and left out
#                         (README "Benchmarks against other implementations"
#                         says how to get cargo and go);
#   budget_start          exports QUIVER_BENCH_START: the run's time budget
#                         starts after the builds.
runner_start() {
  BENCH_NAME=$1
  runner_t0=$(date +%s)
  export BENCH_NAME
  trap 'echo "$BENCH_NAME: wall time $(( ($(date +%s) - runner_t0) / 60 )) min $(( ($(date +%s) - runner_t0) % 60 )) s (builds included)"' EXIT
}

build_release() {
  python=.venv/bin/python
  if [[ ! -x "$python" ]]; then
    echo "${BENCH_NAME:-$(basename "$0")}: $python not found (scripts/install-deps.sh sets up .venv)" >&2
    exit 1
  fi
  if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
    cmake --preset release >/dev/null
    cmake --build --preset release --target "$@" -j "${JOBS:-2}"
  fi
}

peer_args=()
# use_peers NAME=ENVVAR...: the Rust/Go peers `make bench-peers-build` built
# (bench/peers/build_peers.sh --check: current stamps only; nothing is built
# here, so no build runs inside a timed run), as --peer-bin options in the
# array peer_args. A NAME whose ENVVAR is set uses that binary instead. A
# peer not built, stale, or without its toolchain is announced loudly by the
# check and left out of the run.
use_peers() {
  local pair var bins="" line
  local -A built=()
  for pair in "$@"; do
    var=${pair#*=}
    if [[ -z "${!var:-}" ]]; then
      bins=$(bench/peers/build_peers.sh --check) || true
      break
    fi
  done
  while IFS= read -r line; do
    [[ -n "$line" ]] && built[${line%%=*}]=${line#*=}
  done <<<"$bins"
  for pair in "$@"; do
    var=${pair#*=}
    local name=${pair%%=*}
    if [[ -n "${!var:-}" ]]; then
      peer_args+=(--peer-bin "$name=${!var}")
    elif [[ -n "${built[$name]:-}" ]]; then
      peer_args+=(--peer-bin "$name=${built[$name]}")
    fi
  done
}

# budget_start: the run's time budget starts now (after the builds), in
# QUIVER_BENCH_START, which the drivers' --budget-minutes count from.
budget_start() {
  export QUIVER_BENCH_START=$(date +%s)
}
