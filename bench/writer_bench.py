#!/usr/bin/env python3
"""Parquet writer matrix: Quiver vs pyarrow alone, docs/benchmarks.md section 1.

Mirrors arrow-rs `parquet/benches/arrow_writer.rs`: one batch of 1,048,576
rows per data group, one row group, and the variants of
writer_matrix.VARIANTS (number_distinct_values is left out: pyarrow cannot
write distinct counts; bench/peers/run.py has the whole matrix). Both writers
get the same pyarrow table and the same options (benchmarks.md section 1);
pyarrow runs single-threaded. The peer harness (make bench-peers) is the
published comparison; this script is the quick two-writer check.

Rules of measurement (benchmarks.md):
  - every figure is a ratio Quiver/pyarrow measured in the same run;
  - the arms are interleaved (pyarrow, Quiver, control, rotated every
    repetition so each arm takes each position equally often) and the median
    of N repetitions is reported, with the per-repetition ratio range;
  - a control arm (pyarrow timed a second time as its own arm) gives the
    spread printed beside every result: a Quiver/pyarrow ratio inside the
    control's range is noise;
  - the allocator is pinned (bench/allocators.py): jemalloc preloaded with
    decay -1 for the process and Quiver's pool, asserted through mallctl,
    pyarrow on its own jemalloc pool with decay -1; any other MALLOC_CONF is
    refused (exit status 2). --unpinned measures the allocators as shipped
    instead (QUIVER_PEER_ALLOCATOR=shipped), for comparison only;
  - each group runs in its own child process (--in-process to turn off):
    with decay off, pyarrow's writes of nested data keep adding resident
    pages in the process allocator, and one process running the whole
    matrix was killed by the OOM killer at 23 GB.

Sinks (--sinks, bench/sinks.py; the same for both writers):
  file  each writer creates a file in /dev/shm (a tmpfs) with its normal
        API: pq.write_table(table, path) and quiver.write_parquet(table,
        path) (temporary file, fsync, rename: Quiver's defaults; pyarrow
        does not fsync). Unlinked before every call, outside the timing.
  mem   one contiguous buffer the caller owns: pyarrow BufferOutputStream +
        getvalue(), quiver.write_parquet(table, None).

Timed: the whole call (writer set-up, Quiver's zero-copy C Data Interface
import, write, close with footer, until the file is closed or the caller
holds the buffer). Data are built once per group, outside the timing.

Before timing, each (group, variant) passes a correctness gate: pyarrow reads
Quiver's file back and it must equal pyarrow's read of its own file (and the
input is compared too, reported). A failure is printed and that cell is not
timed.

Run with the repository's .venv python and PYTHONPATH=<build>/python
(bench/run_writer.sh does both).
"""

import argparse
import ast
import gc
import io
import json
import os
import statistics
import sys
import time

from allocators import MODE_VAR, ensure_pinned_process, pin_allocators

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import quiver  # noqa: E402
import sinks  # noqa: E402
# The matrix's definitions (tests and other scripts reach them as writer_bench.X).
from writer_matrix import (  # noqa: E402,F401
    ALL_VARIANTS, BASE_OPTIONS, CDC_DEFAULTS, EXTRA_VARIANTS, FULL_ROWS, GROUPS, LAYOUT_SEP,
    MATRIX_VARIANTS, PEER_LAYOUTS, QUICK_ROWS, QUIVER_ONLY_OPTIONS, VARIANTS, build_group,
    comparable, first_difference, layout_variant, leaf_paths, variant_options)

SHM_DIR = "/dev/shm/quiver-writer-bench"


# ---------------------------------------------------------------------------
# The timed calls.

def make_calls(sink, table, opts, path_q, path_p, quiver_extra=None):
    """(pyarrow call, quiver call, pre-call hook) for one sink (bench/sinks.py)."""
    qopts = dict(opts, **(quiver_extra or {}))
    if sink == "mem":
        def run_p():
            return sinks.pyarrow_to_memory(table, **opts)

        def run_q():
            return sinks.quiver_to_memory(table, **qopts)
        return run_p, run_q, None
    if sink == "file":
        def run_p():
            sinks.pyarrow_to_file(table, path_p, **opts)

        def run_q():
            sinks.quiver_to_file(table, path_q, **qopts)

        def unlink():
            for p in (path_p, path_q):
                try:
                    os.unlink(p)
                except FileNotFoundError:
                    pass
        return run_p, run_q, unlink
    raise ValueError(f"unknown sink {sink!r}")


def timed(fn):
    w0, c0 = time.perf_counter_ns(), time.process_time_ns()
    out = fn()  # (a mem sink's buffer is freed after the timing)
    c1, w1 = time.process_time_ns(), time.perf_counter_ns()
    del out
    return (w1 - w0) / 1e9, (c1 - c0) / 1e9


WARMUPS = 3


def measure(run_p, run_q, before, reps):
    """Interleaved repetitions of pyarrow (P), Quiver (Q), control (C = P again)."""
    arms = {"P": run_p, "Q": run_q, "C": run_p}
    order = ["P", "Q", "C"]
    wall = {a: [] for a in arms}
    cpu = {a: [] for a in arms}
    # Untimed warm-ups of each arm: memory pools take a few runs to settle
    # (pyarrow's first three writes of the string group's 326 MB file took
    # 1.7, 0.75 and 0.48 s, then 0.33 s; one warm-up overstated Quiver's lead).
    for _ in range(WARMUPS):
        for a in order[:2]:
            if before:
                before()
            arms[a]()
    for r in range(reps):
        rot = order[r % 3:] + order[:r % 3]
        for a in rot:
            if before:
                before()
            gc.collect()
            gc.disable()
            try:
                w, c = timed(arms[a])
            finally:
                gc.enable()
            wall[a].append(w)
            cpu[a].append(c)
    if before:
        before()
    return wall, cpu


def summarize(times):
    med = {a: statistics.median(t) for a, t in times.items()}
    q_pairs = [q / p for q, p in zip(times["Q"], times["P"])]
    c_pairs = [c / p for c, p in zip(times["C"], times["P"])]
    return {
        "median_s": med,
        "ratio": med["Q"] / med["P"],
        "ratio_pairs": [min(q_pairs), max(q_pairs)],
        "control": med["C"] / med["P"],
        "control_pairs": [min(c_pairs), max(c_pairs)],
    }

# ---------------------------------------------------------------------------
# Correctness gate.

def gate(table, opts, path_q, path_p, quiver_extra=None):
    """(status, message): status is 'ok', 'n/a' (not implemented) or 'FAIL'."""
    try:
        quiver.write_parquet(table, path_q, **dict(opts, **(quiver_extra or {})))
    except quiver.NotImplementedError as e:
        return "n/a", f"not implemented: {e}"
    except Exception as e:  # noqa: BLE001 - reported, not hidden
        return "FAIL", f"Quiver raised {type(e).__name__}: {e}"
    try:
        got = pq.read_table(path_q)
    except Exception as e:  # noqa: BLE001
        return "FAIL", f"pyarrow cannot read Quiver's file: {type(e).__name__}: {e}"
    pq.write_table(table, path_p, **opts)
    want = pq.read_table(path_p)
    diff = first_difference(got, want)
    note = ""
    if diff is None:
        vs_input = first_difference(got, table)
        note = "equal to pyarrow's read-back and to the input" if vs_input is None else \
            f"equal to pyarrow's read-back (input differs: {vs_input})"
    if diff is not None:
        return "FAIL", "read-back of Quiver's file != read-back of pyarrow's file: " + diff
    size_q, size_p = os.path.getsize(path_q), os.path.getsize(path_p)
    return "ok", f"{note}; file sizes Quiver {size_q:,} B, pyarrow {size_p:,} B"


def probe_variant(variant):
    """None if Quiver accepts the variant, else the NotImplemented message."""
    tiny = pa.table({"x": pa.array([1, 2, 3], pa.int32())})
    try:
        quiver.write_parquet(tiny, io.BytesIO(), **variant_options(variant, tiny))
    except quiver.NotImplementedError as e:
        return str(e)
    return None


# ---------------------------------------------------------------------------
# Allocators.


def peak_rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run_children(args, groups, pin):
    """Runs each group in a child process (same arguments, one group each),
    then merges their JSON reports; the exit status is the worst child's."""
    import subprocess
    import tempfile
    t_start = time.perf_counter()
    results = []
    worst = 0
    with tempfile.TemporaryDirectory(prefix="writer-bench-") as tmp:
        for g in groups:
            out = os.path.join(tmp, g + ".json")
            argv = [sys.executable, os.path.abspath(__file__)] + strip_groups_json(sys.argv[1:])
            argv += ["--groups", g, "--json", out, "--child"]
            rc = subprocess.call(argv)
            if rc != 0:
                print(f"writer_bench: group {g}: child exited with status {rc}"
                      + (" (killed: out of memory?)" if rc < 0 else ""), file=sys.stderr)
                worst = worst or rc
                results.append({"group": g, "variant": "*", "status": "error",
                                "message": f"child exited with status {rc}"})
            if os.path.exists(out):
                with open(out) as f:
                    results += json.load(f)["results"]
    print(f"\nwriter_bench: done in {time.perf_counter() - t_start:.0f} s")
    if args.json:
        rows = args.rows or (QUICK_ROWS if args.quick else FULL_ROWS)
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "reps": args.reps, "pin": pin, "options": BASE_OPTIONS,
                       "results": results}, f, indent=1)
        print(f"writer_bench: raw timings in {args.json}")
    if worst != 0:
        sys.exit(1)


def strip_groups_json(argv):
    """argv without --groups/--json (and their values)."""
    out = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("--groups", "--json"):
            skip = True
            continue
        if a.startswith("--groups=") or a.startswith("--json="):
            continue
        out.append(a)
    return out


def fmt_ms(s):
    return f"{s * 1e3:9.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--groups", default="all",
                    help="comma-separated data groups (default all): " + ", ".join(GROUPS))
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help="comma-separated variants: " + ", ".join(VARIANTS))
    ap.add_argument("--sinks", default="file,mem", help="comma-separated: file, mem "
                    "(bench/sinks.py)")
    ap.add_argument("--reps", type=int, default=5, help="repetitions per arm (default 5)")
    ap.add_argument("--quick", action="store_true",
                    help=f"smoke test: {QUICK_ROWS} rows instead of {FULL_ROWS}")
    ap.add_argument("--rows", type=int, default=None, help="override the row count")
    ap.add_argument("--no-gate", action="store_true", help="skip the correctness gate")
    ap.add_argument("--quiver-option", action="append", default=[], metavar="KEY=VALUE",
                    help="extra option for Quiver only (a Python literal), for what-if runs, "
                         "e.g. validate_utf8=False; printed in the header")
    ap.add_argument("--unpinned", action="store_true",
                    help="measure the allocators as shipped (bench/allocators.py, "
                         f"{MODE_VAR}=shipped: glibc malloc, Quiver's default pool, pyarrow's "
                         "default pool). Beside a pinned run, not instead of it")
    ap.add_argument("--in-process", action="store_true",
                    help="run all groups in this process (default: one child process per "
                         "group, so no group inherits another's allocator state; with decay "
                         "off, a single process running the whole matrix grew past 20 GiB)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", metavar="OUT", help="write all raw timings to this JSON file")
    args = ap.parse_args()

    groups = GROUPS if args.groups == "all" else args.groups.split(",")
    variants = args.variants.split(",")
    sink_list = args.sinks.split(",")
    for g in groups:
        if g not in GROUPS:
            ap.error(f"unknown group {g!r}")
    for v in variants:
        if v not in VARIANTS:
            ap.error(f"unknown variant {v!r}")
    for s in sink_list:
        if s not in sinks.SINKS:
            ap.error(f"unknown sink {s!r}")
    rows = args.rows or (QUICK_ROWS if args.quick else FULL_ROWS)
    quiver_extra = {}
    for item in args.quiver_option:
        key, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--quiver-option {item!r}: expected KEY=VALUE")
        try:
            quiver_extra[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            quiver_extra[key] = value

    if args.unpinned:
        os.environ[MODE_VAR] = "shipped"  # (the child processes inherit it)
    ensure_pinned_process()
    pin = pin_allocators()
    say = (lambda *a, **k: None) if args.child else print
    say(f"writer_bench: {rows:,} rows, {args.reps} interleaved repetitions per arm; {pin}")
    say(f"  timed call: pq.write_table(table, sink, **opts) vs quiver.write_parquet(table, "
          f"sink, **opts); base opts {BASE_OPTIONS}")
    if quiver_extra:
        say(f"  extra options for Quiver only (what-if run): {quiver_extra}")
    say("  ratio = median(Quiver) / median(pyarrow), wall clock [per-repetition min..max]; "
          "cpu = the same with process CPU time;")
    say("  control = median(pyarrow 2nd arm) / median(pyarrow) [per-repetition min..max]: "
          "the noise band for the ratio beside it.")
    unavailable = {}
    for v in variants:
        why = probe_variant(v)
        if why is not None:
            unavailable[v] = why
            say(f"  variant {v}: n/a (not implemented): {why}")
    os.makedirs(SHM_DIR, exist_ok=True)
    path_q = os.path.join(SHM_DIR, f"quiver-{os.getpid()}.parquet")
    path_p = os.path.join(SHM_DIR, f"pyarrow-{os.getpid()}.parquet")

    if not args.in_process and not args.child and len(groups) > 1:
        return run_children(args, groups, pin)

    results = []
    gate_failures = []
    header = (f"{'group':38s} {'variant':15s} {'sink':4s} {'pyarrow ms':>10s} {'quiver ms':>10s} "
              f"{'ratio':>6s} {'[min..max]':>13s} {'cpu':>5s} {'control':>8s} {'[min..max]':>13s} "
              f"{'Q MB/s':>7s}")
    t_start = time.perf_counter()
    for g in groups:
        t0 = time.perf_counter()
        table = build_group(g, rows)
        mb = table.nbytes / 1e6
        print(f"\n== {g}: {table.num_rows:,} rows, {table.num_columns} columns, "
              f"{mb:,.1f} MB in memory (built in {time.perf_counter() - t0:.1f} s); "
              f"schema: {', '.join(f'{f.name}: {f.type}' for f in table.schema)}", flush=True)
        print(header)
        for v in variants:
            if v in unavailable:
                print(f"{g:38s} {v:15s} n/a (not implemented)")
                results.append({"group": g, "variant": v, "status": "n/a",
                                "message": unavailable[v]})
                continue
            opts = variant_options(v, table)
            if not args.no_gate:
                status, message = gate(table, opts, path_q, path_p, quiver_extra)
                for p in (path_q, path_p):
                    if os.path.exists(p):
                        os.unlink(p)
                if status != "ok":
                    print(f"{g:38s} {v:15s} gate {status}: {message}")
                    results.append({"group": g, "variant": v, "status": status,
                                    "message": message})
                    if status == "FAIL":
                        gate_failures.append(f"{g}/{v}: {message}")
                    continue
                print(f"{'':38s} {v:15s} gate ok: {message}")
            for s in sink_list:
                run_p, run_q, before = make_calls(s, table, opts, path_q, path_p, quiver_extra)
                try:
                    wall, cpu = measure(run_p, run_q, before, args.reps)
                except Exception as e:  # noqa: BLE001 - reported, not hidden
                    print(f"{g:38s} {v:15s} {s:4s} ERROR {type(e).__name__}: {e}")
                    results.append({"group": g, "variant": v, "sink": s, "status": "error",
                                    "message": str(e)})
                    continue
                sw, sc = summarize(wall), summarize(cpu)
                print(f"{g:38s} {v:15s} {s:4s} {fmt_ms(sw['median_s']['P']):>10s} "
                      f"{fmt_ms(sw['median_s']['Q']):>10s} {sw['ratio']:6.2f} "
                      f"[{sw['ratio_pairs'][0]:5.2f}..{sw['ratio_pairs'][1]:5.2f}] "
                      f"{sc['ratio']:5.2f} {sw['control']:8.2f} "
                      f"[{sw['control_pairs'][0]:5.2f}..{sw['control_pairs'][1]:5.2f}] "
                      f"{mb / sw['median_s']['Q']:7.0f}", flush=True)
                results.append({"group": g, "variant": v, "sink": s, "status": "ok",
                                "rows": rows, "input_bytes": table.nbytes,
                                "wall_s": wall, "cpu_s": cpu, "wall": sw, "cpu": sc})
        del table
        gc.collect()
        print(f"{'':38s} (process peak RSS so far: {peak_rss_mib():,.0f} MiB)", flush=True)
    if not args.child:
        print(f"\nwriter_bench: done in {time.perf_counter() - t_start:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "reps": args.reps, "pin": pin, "options": BASE_OPTIONS,
                       "quiver_extra": quiver_extra,
                       "results": results}, f, indent=1)
        if not args.child:
            print(f"writer_bench: raw timings in {args.json}")
    if gate_failures:
        print("\nwriter_bench: correctness gate FAILED for:", file=sys.stderr)
        for line in gate_failures:
            print("  " + line, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

