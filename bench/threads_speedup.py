#!/usr/bin/env python3
"""use_threads speedup: quiver.write_parquet with use_threads=True against False.

For each table (the writer matrix's groups, bench/writer_matrix.py build_group,
and two wider tables: "mixed8", 8 columns of mixed types, and
"lineitem_like", TPC-H lineitem's 16 columns generated here), each sink
(file: a file on /dev/shm, unlinked before every call; mem: write_parquet(table,
None), one contiguous buffer the caller owns) and each variant (writer_matrix VARIANTS),
three arms run interleaved, rotated every repetition: S (use_threads=False),
T (use_threads=True) and C (S timed again, the control). Printed: the speedup
median(S) / median(T), the range of the per-repetition S/T ratios, the
control median(S) / median(C) (a speedup within the control's distance of 1
is noise), and /proc/loadavg before and after each case: on a shared machine
wall-clock speedups are only as good as the load beside them.

The process runs under the writer benchmark's pinned allocator
(allocators.ensure_pinned_process: jemalloc, decay off) unless --unpinned.

  .venv/bin/python bench/threads_speedup.py --groups mixed8,primitive --reps 15
"""

import argparse
import gc
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import allocators  # noqa: E402
import writer_matrix as wb  # noqa: E402

if "--unpinned" not in sys.argv:
    allocators.ensure_pinned_process()  # re-executes this script under jemalloc, decay off

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402

import quiver  # noqa: E402

SHM = "/dev/shm/quiver-threads-speedup"
WIDE = ["mixed8", "lineitem_like"]


def mixed8(n):
    """8 columns of mixed types, 1/4 nulls where nullable (writer_matrix's generators)."""
    fields = [pa.field("i32", pa.int32()), pa.field("i64", pa.int64(), False),
              pa.field("f64", pa.float64()), pa.field("s", pa.string()),
              pa.field("b", pa.bool_()), pa.field("d", pa.date64(), False),
              pa.field("u64", pa.uint64()), pa.field("fsb", pa.binary(16))]
    table = wb.random_table(fields, n, 0.25)
    low = wb.low_cardinality_table(n, 100).column(0)
    return table.append_column(pa.field("cat", low.type, False), low).remove_column(7)


def lineitem_like(n):
    """TPC-H lineitem's columns and types (tpchgen-cli's Arrow schema), values drawn
    roughly as dbgen does; not TPC-H data, the same shape of work."""
    rng = np.random.default_rng(7)
    # Orders of 1-7 lines, keys ascending with gaps (dbgen's sparse keys).
    orderkey = (np.cumsum(rng.random(n) < 0.25) + 1).astype(np.int64) * 4
    dec = pa.decimal128(15, 2)

    def decimals(lo, hi):  # unscaled values (cents) in [lo, hi), as little-endian int128
        v = np.zeros((n, 2), dtype=np.int64)
        v[:, 0] = rng.integers(lo, hi, n)
        return pa.Array.from_buffers(dec, n, [None, pa.py_buffer(v)])

    def days(lo, hi):
        return pa.array(rng.integers(lo, hi, n).astype(np.int32), pa.date32())

    def choice(words):
        return pa.array(np.array(words, dtype=object)[rng.integers(0, len(words), n)], pa.string())

    comments = wb.gen_string(rng, pa.string(), n, 0.0, min_len=10, max_len=43)
    cols = {
        "l_orderkey": pa.array(orderkey), "l_partkey": pa.array(rng.integers(1, 200_000, n)),
        "l_suppkey": pa.array(rng.integers(1, 10_000, n)),
        "l_linenumber": pa.array(rng.integers(1, 8, n).astype(np.int32)),
        "l_quantity": decimals(100, 5001), "l_extendedprice": decimals(90_000, 10_500_000),
        "l_discount": decimals(0, 11), "l_tax": decimals(0, 9),
        "l_returnflag": choice(["A", "N", "R"]), "l_linestatus": choice(["F", "O"]),
        "l_shipdate": days(8036, 10561), "l_commitdate": days(8035, 10591),
        "l_receiptdate": days(8037, 10591),
        "l_shipinstruct": choice(["DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"]),
        "l_shipmode": choice(["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"]),
        "l_comment": comments,
    }
    return pa.table(cols)


def build(name, n):
    if name == "mixed8":
        return mixed8(n)
    if name == "lineitem_like":
        return lineitem_like(n)
    return wb.build_group(name, n)


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def measure(arms, before, reps):
    times = {a: [] for a in arms}
    order = list(arms)
    for _ in range(2):  # warm-ups: pools and page cache settle
        for a in order:
            before()
            arms[a]()
    for r in range(reps):
        for a in order[r % 3:] + order[:r % 3]:
            before()
            gc.collect()
            gc.disable()
            t0 = time.perf_counter()
            try:
                arms[a]()
            finally:
                t1 = time.perf_counter()
                gc.enable()
            times[a].append(t1 - t0)
    before()
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--groups", default=",".join(WIDE + wb.GROUPS),
                    help="comma-separated: " + ", ".join(WIDE + wb.GROUPS))
    ap.add_argument("--variants", default="default", help="writer_matrix variants")
    ap.add_argument("--sinks", default="file,mem", help="file (/dev/shm), mem")
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--rows", type=int, default=wb.FULL_ROWS)
    ap.add_argument("--unpinned", action="store_true", help="(allocators' flag)")
    args = ap.parse_args()
    pin = "unpinned" if args.unpinned else allocators.pin_allocators()
    t_start = time.perf_counter()
    print(f"threads_speedup: {args.rows:,} rows, {args.reps} reps; {pin}; "
          f"os.sched_getaffinity: {len(os.sched_getaffinity(0))} CPUs; "
          f"QUIVER_NUM_THREADS={os.environ.get('QUIVER_NUM_THREADS', '(unset)')}")
    os.makedirs(SHM, exist_ok=True)
    path = os.path.join(SHM, "t.parquet")

    def unlink():
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass

    print(f"{'group':40} {'variant':8} {'sink':4} {'S ms':>8} {'T ms':>8} {'speedup':>7} "
          f"{'pairs':>13} {'control':>7}  load before/after")
    speedups = []
    for group in args.groups.split(","):
        table = build(group, args.rows)
        for variant in args.variants.split(","):
            opts = wb.variant_options(variant, table)
            for sink in args.sinks.split(","):
                where = path if sink == "file" else None

                def call(threads, where=where, opts=opts):
                    quiver.write_parquet(table, where, use_threads=threads, **opts)  # None: one buffer in memory
                load0 = loadavg()
                t = measure({"S": lambda: call(False), "T": lambda: call(True),
                             "C": lambda: call(False)}, unlink, args.reps)
                med = {a: statistics.median(v) for a, v in t.items()}
                pairs = [s / x for s, x in zip(t["S"], t["T"])]
                sp = med["S"] / med["T"]
                speedups.append(sp)
                print(f"{group:40} {variant:8} {sink:4} {med['S'] * 1e3:8.1f} {med['T'] * 1e3:8.1f} "
                      f"{sp:6.2f}x [{min(pairs):4.2f}..{max(pairs):4.2f}] "
                      f"{med['S'] / med['C']:7.3f}  {load0}/{loadavg()}", flush=True)
    if speedups:
        print(f"\nspeedup over {len(speedups)} cases: min {min(speedups):.2f}x, median "
              f"{statistics.median(speedups):.2f}x, max {max(speedups):.2f}x; "
              f"done in {time.perf_counter() - t_start:.0f} s")


if __name__ == "__main__":
    main()
