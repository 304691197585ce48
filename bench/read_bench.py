#!/usr/bin/env python3
"""Parquet read matrix: Quiver vs pyarrow, from bytes in memory.

The files are the writer-matrix groups (docs/benchmarks.md section 1, the
tables bench/writer_bench.py builds: 1,048,576 rows, one row group), written
once by pyarrow with the matrix's base options (v1 pages, dictionary on,
1 MiB pages, 20,000 rows per page, statistics, ARROW:schema) under each codec
of --codecs (default none, snappy, zstd level 1). Each file is held in memory
as one bytes object; the timed calls are

    P  pq.read_table(pa.BufferReader(data), use_threads=False)
    Q  quiver.read_table(data)            (zero-copy over the bytes object)
    C  P again: the control arm

interleaved in a rotating order (each arm takes each position equally
often), --reps repetitions each after one untimed warm-up of P and Q. The
table prints per group and codec the medians, Quiver/pyarrow (median of Q /
median of P, with the per-repetition range), and the control's ratio and
range: a Quiver/pyarrow ratio inside the control's range is noise.

Both readers return their table in the timed call (pyarrow's has its
dictionary columns as dictionaries, as ARROW:schema says; so has Quiver's).
Before timing, a correctness gate: Quiver's table must equal pyarrow's
(types and values; pa.Table.equals); a failing cell is reported, not timed.

Allocators are pinned as in writer_bench.py (jemalloc preloaded for the
process and Quiver's pool, decay -1, asserted through mallctl; pyarrow on its
own jemalloc pool with decay -1, one CPU thread, one I/O thread), and each
group runs in its own child process.

--breakdown adds, per group, what pyarrow and Quiver spend outside
decoding: the share of Quiver's time that is decompression, estimated as
(t_codec - t_none) / t_codec from the same run (same data, same pages; only
the codec differs).

Run with the repository's .venv python and PYTHONPATH=<build>/python
(bench/run_read.sh does both).
"""

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)
import writer_bench as wb  # noqa: E402  (data groups, allocator pin, interleaving)

pa = wb.pa
pq = wb.pq
quiver = wb.quiver

CODECS = {"none": {"compression": "none"},
          "snappy": {"compression": "snappy"},
          "zstd": {"compression": "zstd", "compression_level": 1}}

WRITE_OPTIONS = {k: v for k, v in wb.BASE_OPTIONS.items() if k != "compression"}


def write_pyarrow(table, codec):
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, **WRITE_OPTIONS, **CODECS[codec])
    return sink.getvalue().to_pybytes()


def read_p(data):
    return pq.read_table(pa.BufferReader(data), use_threads=False)


def read_q(data):
    return quiver.read_table(data)


def gate(data):
    """None if Quiver reads the file as pyarrow does, else the first difference."""
    expect = read_p(data)
    got = pa.table(read_q(data))
    if got.schema != expect.schema:
        return f"schema differs:\n  quiver  {got.schema}\n  pyarrow {expect.schema}"
    for name, a, b in zip(expect.column_names, wb.comparable(got), wb.comparable(expect)):
        if not a.equals(b):  # floats by bit pattern: NaN == NaN
            return f"column {name!r} differs (quiver {a.null_count} nulls, " \
                   f"pyarrow {b.null_count})"
    return None


def run_group(group, rows, codecs, reps):
    table = wb.build_group(group, rows)
    results = []
    for codec in codecs:
        data = write_pyarrow(table, codec)
        row = {"group": group, "codec": codec, "file_bytes": len(data),
               "arrow_bytes": table.nbytes}
        problem = gate(data)
        if problem:
            row.update(status="gate failed", message=problem)
            results.append(row)
            continue
        wall, cpu = wb.measure(lambda: read_p(data), lambda: read_q(data), None, reps)
        row.update(status="ok", wall=wall, cpu=cpu, summary=wb.summarize(wall))
        results.append(row)
    return results


def fmt_ratio(s):
    lo, hi = s["ratio_pairs"]
    clo, chi = s["control_pairs"]
    return (f"{s['ratio']:5.2f} [{lo:4.2f}-{hi:4.2f}]   control {s['control']:4.2f} "
            f"[{clo:4.2f}-{chi:4.2f}]")


def print_table(results, breakdown):
    print(f"\n{'group':40} {'codec':6} {'file MiB':>8} {'pyarrow ms':>10} {'Quiver ms':>10}"
          f"   Quiver/pyarrow [range]   control [range]")
    for r in results:
        head = f"{r['group']:40} {r['codec']:6} {r['file_bytes'] / 2**20:8.1f}"
        if r["status"] != "ok":
            print(f"{head}   {r['status']}: {r.get('message', '')}")
            continue
        s = r["summary"]
        print(f"{head} {s['median_s']['P'] * 1e3:10.1f} {s['median_s']['Q'] * 1e3:10.1f}"
              f"   {fmt_ratio(s)}")
    ok = [r for r in results if r["status"] == "ok"]
    if not ok:
        return
    print()
    for codec in sorted({r["codec"] for r in ok}, key=list(CODECS).index):
        ratios = sorted(r["summary"]["ratio"] for r in ok if r["codec"] == codec)
        worst = max((r for r in ok if r["codec"] == codec), key=lambda r: r["summary"]["ratio"])
        print(f"{codec:6}: median Quiver/pyarrow {statistics.median(ratios):.2f} over "
              f"{len(ratios)} groups; worst {worst['summary']['ratio']:.2f} ({worst['group']})")
    if breakdown:
        print("\ndecompression share of each reader's time, (t_codec - t_none) / t_codec:")
        by = {(r["group"], r["codec"]): r["summary"]["median_s"] for r in ok}
        for (group, codec), med in by.items():
            base = by.get((group, "none"))
            if codec == "none" or base is None:
                continue
            share = {a: max(0.0, (med[a] - base[a]) / med[a]) for a in ("P", "Q")}
            print(f"  {group:40} {codec:6} pyarrow {share['P'] * 100:4.0f}%   "
                  f"Quiver {share['Q'] * 100:4.0f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--groups", default="all",
                    help="comma-separated data groups (default all): " + ", ".join(wb.GROUPS))
    ap.add_argument("--codecs", default="none,snappy,zstd", help="comma-separated: none, "
                    "snappy, zstd")
    ap.add_argument("--reps", type=int, default=5, help="repetitions per arm (default 5)")
    ap.add_argument("--rows", type=int, default=wb.FULL_ROWS, help="rows per group")
    ap.add_argument("--breakdown", action="store_true",
                    help="print the decompression share of each reader's time")
    ap.add_argument("--json", metavar="OUT", help="write all raw timings to this JSON file")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--in-process", action="store_true",
                    help="run every group in this process (default: one child per group)")
    args = ap.parse_args()
    groups = wb.GROUPS if args.groups == "all" else args.groups.split(",")
    codecs = args.codecs.split(",")
    for g in groups:
        if g not in wb.GROUPS:
            ap.error(f"unknown group {g!r}")
    for c in codecs:
        if c not in CODECS:
            ap.error(f"unknown codec {c!r}")

    wb.ensure_pinned_process()
    pin = wb.pin_allocators()
    if args.child:
        results = [r for g in groups for r in run_group(g, args.rows, codecs, args.reps)]
        with open(args.json, "w") as f:
            json.dump(results, f)
        return

    print(f"read_bench: {args.rows:,} rows per group, {args.reps} interleaved repetitions per "
          f"arm; {pin}")
    print(f"  files written by pyarrow {pa.__version__} with {WRITE_OPTIONS} and codecs "
          f"{codecs}; read from bytes in memory")
    print("  timed: pq.read_table(pa.BufferReader(data), use_threads=False) vs "
          "quiver.read_table(data)")
    t0 = time.perf_counter()
    results = []
    worst = 0
    if args.in_process:
        for g in groups:
            results += run_group(g, args.rows, codecs, args.reps)
    else:
        with tempfile.TemporaryDirectory(prefix="read-bench-") as tmp:
            for g in groups:
                out = os.path.join(tmp, g + ".json")
                argv = [sys.executable, os.path.abspath(__file__), "--child", "--groups", g,
                        "--codecs", args.codecs, "--reps", str(args.reps), "--rows",
                        str(args.rows), "--json", out]
                rc = subprocess.call(argv)
                if rc != 0 or not os.path.exists(out):
                    worst = 1
                    results.append({"group": g, "codec": "*", "file_bytes": 0,
                                    "status": "error", "message": f"child exited {rc}"})
                    continue
                with open(out) as f:
                    part = json.load(f)
                results += part
                for r in part:
                    s = r.get("summary")
                    print(f"  {g:40} {r['codec']:6} "
                          + (fmt_ratio(s) if s else r["status"]), flush=True)
    print_table(results, args.breakdown)
    print(f"\nread_bench: done in {time.perf_counter() - t0:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": args.rows, "reps": args.reps, "pin": pin,
                       "options": WRITE_OPTIONS, "results": results}, f, indent=1)
    if worst or any(r["status"] != "ok" for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
