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

--breakdown adds, per group, each reader's decompression share estimated
from the same run as (t_codec - t_none) / t_codec (same data and pages;
only the codec differs).

--profile K then profiles Quiver on the K cases with the highest
Quiver/pyarrow ratio: `perf record` of a process that only reads that
file with quiver.read_table in a loop, its samples summed by symbol into
decompression, page reading (headers, checksums), levels (level decoding,
record scan, validity), value decoding (decoders, dictionary indices,
builders, UTF-8), assembly (struct/list/map arrays from levels), memory
(copies, zeroing, allocation, and all kernel time: page faults, unmapping)
and other (Python, the rest).
Skipped with a message where perf is not installed or not permitted.

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


# Symbol patterns of each part of a Quiver read, checked in order.
PROFILE_PARTS = [
    ("decompression", r"libzstd|libsnappy|liblz4|libbrotli|libz\.so|ZSTD|HUF_|FSE_|snappy|"
                      r"Snappy|LZ4|Brotli|inflate|Decompress"),
    ("page reading", r"PageReader|thrift|Thrift|Crc32|crc32|ReadAt|Footer"),
    ("levels", r"LevelDecoder|LevelsToBitmap|FirstAbove|ColumnReader::(Consume|ReadRecords|"
               r"ReadFlat|FillPending)|RleBitPackedDecoder::(Count|GetBits|GetBatch<short>)"),
    ("assembly", r"Assemble|StructSlots|ToFixedSizeList|MakeArrayOfNulls"),
    ("value decoding", r"Decoder|Decode|Unpack|Plain|Dict|MaxIndex|Builder|Leaf|Utf8|Memo|"
                       r"HashBytes|Int96|ByteStreamSplit|Delta"),
    ("memory", r"^\[kernel|memmove|memcpy|memset|je_|jemalloc|malloc|free|mmap|munmap"),
]

PROFILE_LOOP = '''
import sys, time, quiver
data = open(sys.argv[1], "rb").read()
end = time.perf_counter() + float(sys.argv[2])
while time.perf_counter() < end:
    quiver.read_table(data)
'''


def profile_case(group, codec, rows, seconds=4.0):
    """{part: share of samples} of Quiver reading (group, codec), or a message."""
    import re
    import shutil
    if shutil.which("perf") is None:
        return "perf is not installed (apt-get install linux-perf)"
    table = wb.build_group(group, rows)
    with tempfile.TemporaryDirectory(prefix="read-profile-") as tmp:
        path = os.path.join(tmp, "f.parquet")
        with open(path, "wb") as f:
            f.write(write_pyarrow(table, codec))
        out = os.path.join(tmp, "perf.data")
        rec = subprocess.run(["perf", "record", "-F", "2000", "-o", out, "--", sys.executable,
                              "-c", PROFILE_LOOP, path, str(seconds)],
                             capture_output=True, text=True)
        if rec.returncode != 0:
            return "perf record failed: " + rec.stderr.strip().splitlines()[-1]
        rep = subprocess.run(["perf", "report", "-i", out, "--no-children", "--sort",
                              "dso,symbol", "--stdio", "--percent-limit", "0"],
                             capture_output=True, text=True)
    shares = {name: 0.0 for name, _ in PROFILE_PARTS}
    shares["other"] = 0.0
    for line in rep.stdout.splitlines():
        # "  12.34%  libzstd.so.1.5.4  [.] ZSTD_decompressBlock": the shared
        # object names the codec libraries even where their symbols are not.
        m = re.match(r"\s*([0-9.]+)%\s+(\S+)\s+\[[^\]]*\]\s+(.*)", line)
        if not m:
            continue
        pct, symbol = float(m.group(1)), m.group(2) + " " + m.group(3)
        for name, pattern in PROFILE_PARTS:
            if re.search(pattern, symbol):
                shares[name] += pct
                break
        else:
            shares["other"] += pct
    return shares


def print_profiles(results, k, rows):
    ok = sorted((r for r in results if r["status"] == "ok"),
                key=lambda r: -r["summary"]["ratio"])[:k]
    if not ok:
        return
    print(f"\nwhere Quiver's time goes on the {len(ok)} slowest cases (perf samples, %):")
    names = [name for name, _ in PROFILE_PARTS] + ["other"]
    print(f"  {'case':48} {'ratio':>5}  " + "  ".join(f"{n:>14}" for n in names))
    for r in ok:
        shares = profile_case(r["group"], r["codec"], rows)
        case = f"{r['group']} {r['codec']}"
        if isinstance(shares, str):
            print(f"  {case:48} {r['summary']['ratio']:5.2f}  {shares}")
            continue
        print(f"  {case:48} {r['summary']['ratio']:5.2f}  "
              + "  ".join(f"{shares[n]:14.1f}" for n in names), flush=True)


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
    ap.add_argument("--profile", type=int, default=0, metavar="K",
                    help="profile Quiver (perf) on the K cases with the highest ratio")
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
    if args.profile:
        print_profiles(results, args.profile, args.rows)
    print(f"\nread_bench: done in {time.perf_counter() - t0:.0f} s")
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump({"rows": args.rows, "reps": args.reps, "pin": pin,
                       "options": WRITE_OPTIONS, "results": results}, f, indent=1)
    if worst or any(r["status"] != "ok" for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
