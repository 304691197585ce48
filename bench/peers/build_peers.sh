#!/usr/bin/env bash
# `make bench-peers-build`: builds the Rust and Go peers of make bench-peers,
# bench-compute and bench-filter once, outside their timed runs (a cold build
# of arrow-rs, twice, takes about 40 minutes on a loaded 2-core machine).
#
#   bench/peers/build_peers.sh          build what is missing or stale, then
#                                       print NAME=PATH of every peer built
#   bench/peers/build_peers.sh --check  build nothing: print NAME=PATH of the
#                                       peers built and current; say loudly
#                                       (stderr) which are missing or stale
#
# Peers: arrow-rs and arrow-rs-native (bench/peers/arrow-rs/build.sh, the
# default x86-64 target and -C target-cpu=native), arrow-go
# (bench/peers/arrow-go/build.sh). Each build leaves a stamp,
# build/peers/<peer>.stamp: a SHA-256 over the peer's sources (build script,
# manifests and lock files, source files), its toolchain's versions and, for
# arrow-rs (whose native build is compiled for this CPU), the CPU's model and
# flags. A build whose stamp matches and whose binaries exist is skipped, so
# a second call is a no-op; any change to the sources, the toolchain or the
# CPU builds again. A peer whose toolchain is missing is announced loudly and
# left out (README "Benchmarks against other implementations" says how to get
# cargo and go); a build that fails leaves no stamp and makes the exit status
# 1 after the other peer was built.
# Environment: CARGO_BUILD_JOBS (default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
check=0
[[ "${1:-}" == "--check" ]] && check=1

loud() {
  echo "" >&2
  echo "!!! bench-peers-build: $*" >&2
  echo "" >&2
}

# stamp_of DIR TOOLCHAIN_TEXT: the SHA-256 of DIR's sources and TOOLCHAIN_TEXT.
stamp_of() {
  local dir=$1 extra=$2
  {
    (cd "$dir" && find . -type f \( -name '*.rs' -o -name '*.go' -o -name '*.toml' \
        -o -name 'Cargo.lock' -o -name 'go.mod' -o -name 'go.sum' -o -name 'build.sh' \) \
        -not -path './target/*' | LC_ALL=C sort | while IFS= read -r f; do
          echo "== $f"
          cat "$f"
        done)
    echo "== toolchain"
    echo "$extra"
  } | sha256sum | cut -d' ' -f1
}

cpu_text() {
  grep -m1 '^model name' /proc/cpuinfo || true
  grep -m1 '^flags' /proc/cpuinfo || true
}

status=0
# peer DIR TOOL VERSION_CMD STAMPFILE NAME=BIN...: checks (and unless --check
# builds) the peer of bench/peers/DIR, then prints its NAME=BIN pairs.
peer() {
  local dir=$1 tool=$2 version_cmd=$3 stampfile=$4
  shift 4
  local pairs=("$@") pair stamp have ok=1
  if ! command -v "$tool" >/dev/null 2>&1; then
    # (Without the toolchain the stamp cannot be checked either.)
    loud "'$tool' is not installed: the $dir peer cannot be built or checked (running WITHOUT it)"
    return
  fi
  local extra
  extra="$($version_cmd 2>&1)"
  [[ $dir == arrow-rs ]] && extra+=$'\n'"$(cpu_text)"
  stamp=$(stamp_of "bench/peers/$dir" "$extra")
  have=$(cat "$stampfile" 2>/dev/null || true)
  for pair in "${pairs[@]}"; do
    [[ -x "${pair#*=}" ]] || ok=0
  done
  if [[ $ok == 1 && "$have" == "$stamp" ]]; then
    [[ $check == 1 ]] || echo "bench-peers-build: $dir is current (stamp $stampfile)" >&2
  elif [[ $check == 1 ]]; then
    if [[ $ok == 0 ]]; then
      loud "the $dir peer is not built: run 'make bench-peers-build' (running WITHOUT it)"
    else
      loud "the $dir peer is stale (its sources, toolchain or CPU changed since its build): run 'make bench-peers-build' (running WITHOUT it)"
    fi
    return
  else
    echo "bench-peers-build: building the $dir peer (bench/peers/$dir/build.sh)" >&2
    local t0=$SECONDS
    rm -f "$stampfile"
    if ! nice bench/peers/"$dir"/build.sh >/dev/null; then
      loud "bench/peers/$dir/build.sh failed: no stamp written"
      status=1
      return
    fi
    mkdir -p "$(dirname "$stampfile")"
    echo "$stamp" >"$stampfile"
    echo "bench-peers-build: $dir built in $(( (SECONDS - t0) / 60 )) min $(( (SECONDS - t0) % 60 )) s" >&2
  fi
  for pair in "${pairs[@]}"; do
    echo "$pair"
  done
}

rust_versions() { rustc -V && cargo -V; }
go_versions() { go version; }

peer arrow-rs cargo rust_versions "$root/build/peers/arrow-rs.stamp" \
  "arrow-rs=$root/build/peers/arrow-rs/release/quiver-peer-arrow-rs" \
  "arrow-rs-native=$root/build/peers/arrow-rs-native/release/quiver-peer-arrow-rs"
peer arrow-go go go_versions "$root/build/peers/arrow-go.stamp" \
  "arrow-go=$root/build/peers/arrow-go/quiver-peer-arrow-go"
exit $status
