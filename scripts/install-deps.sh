#!/usr/bin/env bash
# Installs what building and testing Quiver needs on a Debian 12 machine.
# apt packages are installed only when missing (apt-get update runs first, and
# only if something is missing). Python packages go into ./.venv from the pinned
# requirements file; the venv is refreshed only when that file changes.
#
#   scripts/install-deps.sh apt      # system packages + the pinned zstd source (library, CLI, tests)
#   scripts/install-deps.sh bench    # + Google Benchmark (make bench-build)
#   scripts/install-deps.sh fuzz     # + clang-14 and libFuzzer (make fuzz)
#   scripts/install-deps.sh python   # the .venv with everything the tests need
#   scripts/install-deps.sh python-build  # the .venv with the build requirements
#   scripts/install-deps.sh python-bench  # + matplotlib, tpchgen-cli (make bench-peers)
#   scripts/install-deps.sh          # both
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config curl ca-certificates
  libgtest-dev libgmock-dev
  libfmt-dev libcli11-dev
  libjemalloc-dev libmimalloc-dev
  libzstd-dev libsnappy-dev liblz4-dev libbrotli-dev zlib1g-dev
  libflatbuffers-dev flatbuffers-compiler libxxhash-dev libsimdjson-dev
  libssl-dev
  python3-venv python3-dev
  chromium  # headless, for the `quiver inspect --html` test (python/tests/test_inspect_html.py)
)
# Only the benchmarks need Google Benchmark; only the fuzz preset needs clang.
BENCH_PACKAGES=(libbenchmark-dev)
FUZZ_PACKAGES=(clang-14 libclang-rt-14-dev libfuzzer-14-dev)

# want_apt [package...]: the given packages (default: APT_PACKAGES).
want_apt() {
  local missing=()
  local wanted=("$@")
  [ ${#wanted[@]} -gt 0 ] || wanted=("${APT_PACKAGES[@]}")
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # python3-venv/python3-dev are only needed when the system python is Debian's.
  if [ ${#missing[@]} -eq 0 ]; then return 0; fi
  local SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "install-deps: installing missing apt packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# want_zstd_source: zstd's library source at the release Quiver pins (the one
# pyarrow 26 and arrow-rs' zstd-sys link; Debian 12 has 1.5.4, measurably
# slower at level 1: docs/design.md "The zstd Quiver links"), unpacked into
# build/deps/zstd-$ZSTD_VERSION/ (lib/ and the licence files), where
# cmake/QuiverCodecLibraries.cmake builds it. The upstream lib/ tree comes from
# the crates.io package zstd-sys (crates.io is a registry this project already
# uses), checked against its pinned sha256. Without the network, a warning:
# the build then links the system libzstd (same format, slower compression).
ZSTD_VERSION=1.5.7
ZSTD_CRATE=zstd-sys-2.1.3+zstd.$ZSTD_VERSION
ZSTD_CRATE_SHA256=f729a06d0257428fd9d997ac8db7e1407bd0262ab016b085b36bc52957c0052d
want_zstd_source() {
  local dest=build/deps/zstd-$ZSTD_VERSION
  [ -f "$dest/.complete" ] && return 0
  local tmp
  tmp=$(mktemp -d)
  local url="https://static.crates.io/crates/zstd-sys/$ZSTD_CRATE.crate"
  if ! curl -sSfL --retry 3 -o "$tmp/zstd.crate" "$url" 2>"$tmp/err"; then
    echo "install-deps: WARNING: could not download $url ($(tr '\n' ' ' < "$tmp/err")); the build links the system libzstd" >&2
    rm -rf "$tmp"
    return 0
  fi
  if ! echo "$ZSTD_CRATE_SHA256  $tmp/zstd.crate" | sha256sum -c --status; then
    echo "install-deps: $url does not match its pinned sha256 $ZSTD_CRATE_SHA256" >&2
    rm -rf "$tmp"
    exit 1
  fi
  tar -xzf "$tmp/zstd.crate" -C "$tmp" "$ZSTD_CRATE/zstd/lib" "$ZSTD_CRATE/zstd/LICENSE" "$ZSTD_CRATE/zstd/COPYING"
  rm -rf "$dest"
  mkdir -p "$(dirname "$dest")"
  mv "$tmp/$ZSTD_CRATE/zstd" "$dest"
  echo "$ZSTD_CRATE_SHA256" > "$dest/.complete"
  rm -rf "$tmp"
  echo "install-deps: zstd $ZSTD_VERSION source in $dest"
}

# want_python [requirements file]: the build requirements alone (for
# `make release`) or everything the tests need (the default).
want_python() {
  local req=${1:-python/requirements.txt}
  [ -f "$req" ] || return 0
  local stamp=.venv/.stamp-$(basename "$req")
  if [ -f "$stamp" ] && cmp -s "$req" "$stamp"; then return 0; fi
  local py="${PYTHON:-python3}"
  [ -x .venv/bin/python ] || "$py" -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check -r "$req"
  # A full install also satisfies the build requirements.
  cp "$req" "$stamp"
  if [ "$req" = python/requirements.txt ] || [ "$req" = python/requirements-bench.txt ]; then
    cp python/requirements-build.txt .venv/.stamp-requirements-build.txt
  fi
  if [ "$req" = python/requirements-bench.txt ]; then
    cp python/requirements.txt .venv/.stamp-requirements.txt
  fi
}

case "${1:-all}" in
  apt) want_apt; want_zstd_source ;;
  bench) want_apt "${APT_PACKAGES[@]}" "${BENCH_PACKAGES[@]}"; want_zstd_source ;;
  fuzz) want_apt "${APT_PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"; want_zstd_source ;;
  python) want_python ;;
  python-build) want_python python/requirements-build.txt ;;
  python-bench) want_python python/requirements-bench.txt ;;
  all) want_apt; want_zstd_source; want_python ;;
  *) echo "usage: $0 [apt|bench|fuzz|python|python-build|python-bench|all]" >&2; exit 2 ;;
esac
