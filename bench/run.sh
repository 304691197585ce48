#!/usr/bin/env bash
# Runs Quiver's buffer benchmarks and checks what docs/benchmarks.md (section 3
# and "Rules of measurement") requires of them, then the chunker benchmarks
# (section 2: MB/s of logical bytes and chunks found, per input, each with
# the AVX-512 kernels and with the portable loops alone: their speed ratio is
# printed and their chunks must agree):
#   - the allocator pin refuses an override: MALLOC_CONF=dirty_decay_ms:1000
#     must make each binary exit non-zero before any benchmark runs;
#   - 5 repetitions, randomly interleaved across benchmarks; medians reported
#     with the spread of the repetitions (min..max as % of the median) beside
#     every result, and ratios per pair;
#   - EmptyCompare: (a) zero_size must not be more than 10% slower than
#     (b) allocated_len0, and (c) unmapped_control must be at least 3x slower
#     than (a) -- if it is not, the benchmark does not measure what it claims.
# Build first with `make bench-build` (or `make bench`, which runs this).
# Extra arguments go to the benchmark binary (e.g. --benchmark_min_time=0.2).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
start=$(date +%s)
trap 'echo "bench/run.sh: wall time $(( ($(date +%s) - start) / 60 )) min $(( ($(date +%s) - start) % 60 )) s"' EXIT

bin=build/release/bench/quiver_buffer_benchmark
json=build/release/bench/buffer_benchmark.json
if [[ ! -x "$bin" ]]; then
  echo "run.sh: $bin not found; build it with 'make bench-build'" >&2
  exit 1
fi

chunker_bin=build/release/bench/quiver_chunker_benchmark
chunker_json=build/release/bench/chunker_benchmark.json
if [[ ! -x "$chunker_bin" ]]; then
  echo "run.sh: $chunker_bin not found; build it with 'make bench-build'" >&2
  exit 1
fi

# 1. The allocator pin must refuse an environment override (in every binary).
for b in "$bin" "$chunker_bin"; do
  set +e
  control_err=$(MALLOC_CONF=dirty_decay_ms:1000 "$b" --benchmark_filter='^$' 2>&1 >/dev/null)
  control_rc=$?
  set -e
  if [[ $control_rc -eq 0 ]] || ! grep -q "refusing to run" <<<"$control_err"; then
    echo "run.sh: FAIL: with MALLOC_CONF=dirty_decay_ms:1000 $b" \
         "did not refuse to run (exit status $control_rc). Its stderr:" >&2
    echo "$control_err" >&2
    exit 1
  fi
  echo "allocator pin check: $(basename "$b") refused as expected (exit status $control_rc" \
       "with MALLOC_CONF=dirty_decay_ms:1000)"
done

# Runs benchmark binary $1 with 5 interleaved repetitions (aggregates only),
# its JSON report to $2; the remaining arguments go to the binary.
run_benchmark() {
  local binary=$1 out=$2
  shift 2
  "$binary" --benchmark_repetitions=5 \
            --benchmark_enable_random_interleaving=true \
            --benchmark_display_aggregates_only=true \
            --benchmark_out="$out" --benchmark_out_format=json \
            "$@"
}

# 2. The benchmarks.
run_benchmark "$bin" "$json" "$@"

# 3. Medians, spreads, ratios and the EmptyCompare checks.
python3 - "$json" <<'EOF'
import json
import statistics
import sys

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}

with open(sys.argv[1]) as f:
    report = json.load(f)

runs = {}      # run_name -> [cpu ns per iteration, one per repetition]
errors = []
for b in report["benchmarks"]:
    if b.get("error_occurred"):
        errors.append(f'{b["name"]}: {b.get("error_message", "error")}')
    if b.get("run_type") != "iteration":
        continue
    runs.setdefault(b["run_name"], []).append(b["cpu_time"] * TO_NS[b["time_unit"]])

def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:8.3f} {unit}"
    return f"{ns:8.1f} ns"

def spread(times):
    m = statistics.median(times)
    return f"spread {100 * (min(times) / m - 1):+.1f}%..{100 * (max(times) / m - 1):+.1f}%"

median = {name: statistics.median(t) for name, t in runs.items()}

print()
print(f"Medians of {max(len(t) for t in runs.values())} interleaved repetitions "
      "(CPU time per iteration; spread = min..max of the repetitions vs the median):")
for name, times in sorted(runs.items()):
    print(f"  {name:44s} {fmt_time(median[name])}   {spread(times)}")

def ratio(num, den):
    r = median[num] / median[den]
    pairs = [a / b for a, b in zip(runs[num], runs[den])]
    return r, f"(per repetition {min(pairs):.2f}..{max(pairs):.2f})"

failures = list(errors)
a, b, c = ("EmptyCompare/zero_size", "EmptyCompare/allocated_len0",
           "EmptyCompare/unmapped_control")
x, y = "Append64MiB/reserve_no_zero", "Append64MiB/zeroing_alloc"
missing = [n for n in (a, b, c) if n not in median]
if missing:
    failures.append("EmptyCompare checks not done, results missing for: " + ", ".join(missing))
else:
    print()
    print("EmptyCompare (1,048,576 compares of empty values per iteration):")
    for name in (a, b, c):
        print(f"  {name:44s} {fmt_time(median[name])}   "
              f"{median[name] / (1 << 20):7.2f} ns/compare   {spread(runs[name])}")
    rba, rba_s = ratio(b, a)
    rca, rca_s = ratio(c, a)
    print(f"  (b)/(a) allocated_len0 / zero_size        = {rba:6.2f}  {rba_s}   "
          "[(a) may be at most 10% slower: ratio >= 0.91]")
    print(f"  (c)/(a) unmapped_control / zero_size      = {rca:6.2f}  {rca_s}   "
          "[must be >= 3]")
    if median[a] > 1.10 * median[b]:
        failures.append(
            f"EmptyCompare: (a) zero_size is {median[a] / median[b]:.2f}x (b) allocated_len0, "
            "more than 10% slower: comparing empty values at the zero-size area costs more "
            "than at a real allocation (is the zero-size area's page mapped?)")
    if median[c] < 3 * median[a]:
        failures.append(
            f"EmptyCompare: (c) unmapped_control is only {rca:.2f}x (a), not >= 3x: the "
            "benchmark does not measure what it claims (memcmp inlined or elided by the "
            "compiler? a non-EVEX memcmp chosen by glibc, e.g. through GLIBC_TUNABLES or "
            "a CPU without AVX-512? check with objdump/gdb)")

if x in median and y in median:
    print()
    print("Append64MiB (64 MiB of uint64 per iteration):")
    for name in (x, y):
        mib_s = 64 * 1e9 / median[name]
        print(f"  {name:44s} {fmt_time(median[name])}   {mib_s / 1024:6.2f} GiB/s   "
              f"{spread(runs[name])}")
    ryx, ryx_s = ratio(y, x)
    print(f"  zeroing_alloc / reserve_no_zero           = {ryx:6.2f}  {ryx_s}")
else:
    print()
    print("Append64MiB: not run (filtered out)")

print()
if failures:
    for message in failures:
        print(f"run.sh: FAIL: {message}", file=sys.stderr)
    sys.exit(1)
print("run.sh: all checks passed")
EOF

# 4. The chunker benchmarks (docs/benchmarks.md, section 2), the same way:
#    5 interleaved repetitions, medians with their spread.
run_benchmark "$chunker_bin" "$chunker_json" "$@"

python3 - "$chunker_json" <<'EOF'
import json
import statistics
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)

rates = {}   # run_name -> [MB/s of logical bytes, one per repetition]
chunks = {}  # run_name -> chunks found (the same in every repetition)
errors = []
for b in report["benchmarks"]:
    if b.get("error_occurred"):
        errors.append(f'{b["name"]}: {b.get("error_message", "error")}')
    if b.get("run_type") != "iteration":
        continue
    rates.setdefault(b["run_name"], []).append(b["bytes_per_second"] / 1e6)
    chunks.setdefault(b["run_name"], set()).add(int(b["chunks"]))

print()
if not rates:
    print("Chunker: not run (filtered out)")
else:
    print("Chunker (FindCuts over ~64 MiB of logical bytes, default CDC options; MB/s = 10^6 "
          "logical bytes per second, median of the repetitions):")
    for name, values in sorted(rates.items()):
        m = statistics.median(values)
        print(f"  {name:44s} {m:8.0f} MB/s   spread {100 * (min(values) / m - 1):+.1f}%.."
              f"{100 * (max(values) / m - 1):+.1f}%   chunks {sorted(chunks[name])}")
        if len(chunks[name]) != 1:
            errors.append(f"{name}: the number of chunks differs between repetitions")
    # Kernels against the portable loops, same run (chunker_benchmark.cc).
    pairs = [(n, n + "_portable") for n in sorted(rates) if n + "_portable" in rates]
    if pairs:
        print("Kernels vs portable loops (ratio of the medians, same run):")
    for kernels, portable in pairs:
        ratio = statistics.median(rates[kernels]) / statistics.median(rates[portable])
        print(f"  {kernels:44s} {ratio:5.2f}x")
        if chunks[kernels] != chunks[portable]:
            errors.append(f"{kernels}: the kernels and the portable loops find different chunks")

print()
if errors:
    for message in errors:
        print(f"run.sh: FAIL: {message}", file=sys.stderr)
    sys.exit(1)
print("run.sh: chunker benchmarks done")
EOF
