"""Small writes with warm and with cold caches (Quiver's Python path).

The peer harness (bench/peers/run.py) times one write per arm per round, with
the other peers' writes in between, so a 0.2 ms case (bool_non_null) measures
mostly the cold-cache cost of a write's fixed path. This times, in one
process, the median of N writes of the same table back to back ("warm") and
each after touching every cache line of 64 MB ("cold"), into the sink of
bench/sinks.py that --sink names (mem: write_parquet(table, None), one buffer
the caller owns; file: a file on /dev/shm):

    LD_PRELOAD=libjemalloc.so.2 MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1 \
    OPENBLAS_NUM_THREADS=1 PYTHONPATH=build/release/python \
    .venv/bin/python bench/cold_write.py [INPUT.arrow] [--reps N] [--sink mem|file]

INPUT defaults to the harness's bool_non_null input
(build/peers/inputs/bool_non_null.1048576.arrow, written by make bench-peers).
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import pyarrow.ipc as ipc

import quiver

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sinks  # noqa: E402
import writer_matrix as wm  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", nargs="?",
                    default=os.path.join(HERE, "..", "build", "peers", "inputs",
                                         "bool_non_null.1048576.arrow"))
    ap.add_argument("--reps", type=int, default=41)
    ap.add_argument("--sink", default="mem", choices=sinks.SINKS)
    args = ap.parse_args()
    with ipc.open_file(args.input) as f:
        table = f.read_all().combine_chunks()
    full, small = quiver.table(table), quiver.table(table.slice(0, 10))
    opts = wm.variant_options("default", table)
    path = f"/dev/shm/cold_write-{os.getpid()}.parquet"
    thrash = np.zeros(64 << 20, dtype=np.uint8)

    def median_us(fn, cold):
        xs = []
        for _ in range(args.reps):
            if cold:
                thrash[::64] += 1
            t0 = time.perf_counter_ns()
            out = fn()
            xs.append(time.perf_counter_ns() - t0)
            del out  # (freed, or the file removed, outside the timing)
            if os.path.exists(path):
                os.unlink(path)
        return statistics.median(xs) / 1e3

    def write(t):
        if args.sink == "mem":
            return lambda: sinks.quiver_to_memory(t, **opts)
        return lambda: sinks.quiver_to_file(t, path, **opts)

    cases = {f"{table.num_rows} rows": write(full), "10 rows": write(small)}
    print(f"cold_write: {args.sink} sink, {args.reps} writes each")
    for name, fn in cases.items():
        print(f"{name:>14}: warm {median_us(fn, False):8.1f} us   cold {median_us(fn, True):8.1f} us")


if __name__ == "__main__":
    main()
