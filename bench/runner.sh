# Sourced by the benchmark runners (bench/run_read.sh, bench/run_writer.sh,
# bench/peers/run.sh for make bench-peers, bench/peers/run_compute.sh for make
# bench-compute), from the repository's root:
#   runner_start NAME     exports QUIVER_BENCH_START (the runs' time budgets
#                         count the builds too) and prints NAME's wall time
#                         when the script exits;
#   build_release TARGET...  checks .venv/bin/python (as $python) and builds
#                         TARGETs in the release tree (unless SKIP_BUILD=1;
#                         JOBS, default 2);
#   build_peer DIR TOOL NAME=ENVVAR...  builds a Rust or Go peer and collects
#                         its binaries as --peer-bin options in the array
#                         peer_args. A peer whose toolchain or build script is
#                         missing, or whose build fails, is announced loudly and
#                         left out of the run (README "Benchmarks against other
#                         implementations" says how to get cargo and go).
runner_start() {
  BENCH_NAME=$1
  runner_t0=$(date +%s)
  export QUIVER_BENCH_START=$runner_t0 BENCH_NAME
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
loud() {
  echo "" >&2
  echo "!!! $BENCH_NAME: $*" >&2
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
  echo "$BENCH_NAME: building the $dir peer ($script)" >&2
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
