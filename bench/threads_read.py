#!/usr/bin/env python3
"""Reader use_threads speedup: quiver.read_table(use_threads=True) against False.

Two parts, both on files written once to /dev/shm (no disk in the timing):

  speedup    a 16-column zstd file of --rows rows (default 600,000; 4 row groups
             of 150,000): int32/int64/float64/decimal-like ints, low- and
             high-cardinality strings, dates, booleans, nullable columns. Three
             arms run interleaved, rotated every repetition: S (use_threads=False),
             T (use_threads=True), C (S again, the control). Printed: median(S) /
             median(T), the range of per-repetition S/T ratios, the control
             median(S) / median(C) (a speedup within the control's distance of 1
             is noise), T's CPU time / wall time (how much of the read ran on two
             CPUs at once), and /proc/loadavg before and after. Issue 45 asks for
             >= 1.3x on 2 cores.

  crossover  files of growing size (uncompressed column bytes from 64 KiB to
             8 MiB, 8 columns, 4 row groups) read with QUIVER_MIN_TASK_WORK=0
             (every read of two or more units goes to the pool) against
             use_threads=False: where the parallel read starts to win. The
             reader's default threshold (kParallelReadMinBytes, 1 MiB) keeps
             reads below it on the calling thread; this shows whether that is
             where the gain starts.

Wall-clock numbers mean something only on an idle machine (check the load
printed). On a loaded one, use the CPU-time ratio and callgrind instead
(docs/design.md "Parallel reads").

  .venv/bin/python bench/threads_read.py                 # both parts
  .venv/bin/python bench/threads_read.py --part speedup --reps 15 --rows 1000000
  .venv/bin/python bench/threads_read.py --write-only /dev/shm/wide16.parquet
  valgrind --tool=callgrind --separate-threads=yes \
      .venv/bin/python bench/threads_read.py --once /dev/shm/wide16.parquet --threads 1
      (one read, for instruction counts per thread: docs/design.md "Parallel reads")
"""

import argparse
import gc
import os
import statistics
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import quiver

SHM = "/dev/shm/quiver-threads-read"


def wide_table(n, seed=7):
    """16 columns of mixed types, like a fact table."""
    rng = np.random.default_rng(seed)
    words = np.array([f"word{i:05d}" for i in range(5000)])
    null = rng.random(n) < 0.1
    cols = {
        "orderkey": pa.array(np.cumsum(rng.integers(1, 8, n)), pa.int64()),
        "partkey": pa.array(rng.integers(1, 200_000, n), pa.int64()),
        "suppkey": pa.array(rng.integers(1, 10_000, n), pa.int32()),
        "linenumber": pa.array(rng.integers(1, 8, n), pa.int32()),
        "quantity": pa.array(rng.integers(1, 51, n).astype(np.float64)),
        "price": pa.array(rng.random(n) * 100_000),
        "discount": pa.array(np.round(rng.random(n) * 0.1, 2)),
        "tax": pa.array(np.round(rng.random(n) * 0.08, 2), mask=null),
        "returnflag": pa.array(rng.choice(["A", "N", "R"], n)),
        "linestatus": pa.array(rng.choice(["F", "O"], n)),
        "shipdate": pa.array(rng.integers(8000, 11000, n).astype("int32"), pa.date32()),
        "commitdate": pa.array(rng.integers(8000, 11000, n).astype("int32"), pa.date32()),
        "flag": pa.array(rng.random(n) < 0.3),
        "shipmode": pa.array(rng.choice(words[:7], n)),
        "comment": pa.array([" ".join(w) for w in rng.choice(words, (n, 3))], mask=null),
        "value": pa.array(rng.normal(size=n), mask=rng.random(n) < 0.05),
    }
    return pa.table(cols)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def timed(path, threads):
    gc.collect()
    c0 = os.times()
    t0 = time.perf_counter()
    quiver.read_table(path, use_threads=threads)
    wall = time.perf_counter() - t0
    c1 = os.times()
    return wall, (c1.user - c0.user) + (c1.system - c0.system)


def arms(path, reps):
    times = {"S": [], "T": [], "C": []}
    cpu_t = []
    order = ["S", "T", "C"]
    for _ in range(2):  # warm-up (page cache, pool threads, allocator)
        timed(path, False)
        timed(path, True)
    for r in range(reps):
        for arm in order[r % 3:] + order[:r % 3]:
            wall, cpu = timed(path, arm == "T")
            times[arm].append(wall)
            if arm == "T":
                cpu_t.append(cpu / wall if wall > 0 else 0)
    return times, cpu_t


def speedup(args):
    os.environ.pop("QUIVER_MIN_TASK_WORK", None)
    os.makedirs(SHM, exist_ok=True)
    path = os.path.join(SHM, "wide16.parquet")
    table = wide_table(args.rows)
    pq.write_table(table, path, compression="zstd", row_group_size=max(args.rows // 4, 1))
    assert pa.table(quiver.read_table(path, use_threads=True)).equals(
        pa.table(quiver.read_table(path, use_threads=False)))
    size = os.path.getsize(path)
    print(f"speedup: 16 columns, {args.rows:,} rows, zstd, {size / 2**20:.1f} MiB "
          f"(cpus: {os.cpu_count()}, affinity: {len(os.sched_getaffinity(0))})")
    before = loadavg()
    times, cpu_t = arms(path, args.reps)
    after = loadavg()
    s, t, c = (statistics.median(times[a]) for a in "STC")
    ratios = [a / b for a, b in zip(times["S"], times["T"])]
    print(f"  S (one thread) {s * 1e3:8.1f} ms   T (threads) {t * 1e3:8.1f} ms   "
          f"C (control) {c * 1e3:8.1f} ms")
    print(f"  speedup S/T {s / t:.2f}x (per rep {min(ratios):.2f}..{max(ratios):.2f}), "
          f"control S/C {s / c:.2f}, T cpu/wall {statistics.median(cpu_t):.2f}")
    print(f"  load {before} -> {after}")
    os.unlink(path)


def crossover(args):
    os.makedirs(SHM, exist_ok=True)
    print("crossover: 8 int64/float64 columns, 4 row groups, zstd; parallel forced "
          "(QUIVER_MIN_TASK_WORK=0) vs use_threads=False")
    print(f"  {'bytes':>10} {'S ms':>9} {'T ms':>9} {'S/T':>6}")
    for kib in (64, 128, 256, 512, 1024, 2048, 4096, 8192):
        rows = max(kib * 1024 // (8 * 8), 8)
        rng = np.random.default_rng(kib)
        table = pa.table({f"c{i}": (pa.array(rng.integers(0, 1 << 40, rows)) if i % 2 else
                                    pa.array(rng.random(rows))) for i in range(8)})
        path = os.path.join(SHM, f"x{kib}.parquet")
        pq.write_table(table, path, compression="zstd", row_group_size=max(rows // 4, 1))
        os.environ["QUIVER_MIN_TASK_WORK"] = "0"
        times, _ = arms(path, args.reps * 3)
        os.environ.pop("QUIVER_MIN_TASK_WORK", None)
        s, t = statistics.median(times["S"]), statistics.median(times["T"])
        print(f"  {kib:>7} KiB {s * 1e3:9.3f} {t * 1e3:9.3f} {s / t:6.2f}")
        os.unlink(path)
    print(f"  load {loadavg()}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--part", choices=["speedup", "crossover", "both"], default="both")
    p.add_argument("--rows", type=int, default=600_000)
    p.add_argument("--reps", type=int, default=11)
    p.add_argument("--write-only", metavar="PATH", help="write the speedup file and stop")
    p.add_argument("--once", metavar="PATH", help="read PATH once (--threads 0/1) and stop")
    p.add_argument("--threads", type=int, choices=[0, 1], default=1)
    args = p.parse_args()
    if args.write_only:
        pq.write_table(wide_table(args.rows), args.write_only, compression="zstd",
                       row_group_size=max(args.rows // 4, 1))
        return
    if args.once:
        print(quiver.read_table(args.once, use_threads=bool(args.threads)).num_rows)
        return
    if args.part in ("speedup", "both"):
        speedup(args)
    if args.part in ("crossover", "both"):
        crossover(args)


if __name__ == "__main__":
    sys.exit(main())
