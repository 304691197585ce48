#!/usr/bin/env python3
"""CDC overhead, Quiver vs pyarrow (docs/benchmarks.md section 2).

Four inputs of ~64 MiB of logical bytes: required int64, nullable int64 (25%
nulls), nested list<int32> (lengths 0..4, 25% nulls), required string (lengths
0..399). Writer settings: v1 pages, uncompressed, dictionary on, one row group.
For each input and each library, write times with and without CDC (defaults:
256 KiB / 1 MiB / 0) are measured interleaved (A B A B ...), medians reported:
overhead = with / without - 1, added = with - without (seconds). A control
(pyarrow without CDC timed as two arms) shows the run's noise. The "paired"
columns give the median of per-rep differences between arms timed side by
side (added time, its ratio, and the control's, which is noise in seconds).
Both write files on /dev/shm (the file sink of bench/sinks.py), each file
removed before the next write, outside the timing; allocators pinned as
bench/allocators.py says (the script re-executes itself under jemalloc).

    PYTHONPATH=build/release/python .venv/bin/python bench/cdc_overhead.py [--reps 5]
"""
import argparse
import os
import random
import statistics
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import quiver

MiB = 1 << 20


def make_inputs(seed=42):
    rng = np.random.default_rng(seed)
    n64 = 64 * MiB // 8
    req = pa.array(rng.integers(-2**62, 2**62, n64), pa.int64())
    vals = rng.integers(-2**62, 2**62, n64)
    mask = rng.random(n64) < 0.25
    nullable = pa.array(vals, pa.int64(), mask=mask)
    # list<int32>: ~64 MiB of (levels + values): each slot ~ 4 bytes def/rep + 4 value bytes.
    nlists = 64 * MiB // 16
    lengths = rng.integers(0, 5, nlists)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    child = pa.array(rng.integers(-2**31, 2**31, int(offsets[-1])).astype(np.int32),
                     mask=rng.random(int(offsets[-1])) < 0.25)
    lst = pa.ListArray.from_arrays(pa.array(offsets), child,
                                   mask=pa.array(rng.random(nlists) < 0.25))
    # strings: lengths 0..399, ~64 MiB
    nstr = 64 * MiB // 200
    lens = rng.integers(0, 400, nstr)
    alphabet = np.frombuffer(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", np.uint8)
    data = alphabet[rng.integers(0, len(alphabet), int(lens.sum()))].tobytes()
    soff = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    strs = pa.StringArray.from_buffers(nstr, pa.py_buffer(soff.tobytes()), pa.py_buffer(data))
    return {
        "required_int64": pa.table({"v": req}, schema=pa.schema([pa.field("v", pa.int64(), False)])),
        "nullable_int64": pa.table({"v": nullable}),
        "list_int32": pa.table({"v": lst}),
        "required_string": pa.table({"v": strs}, schema=pa.schema([pa.field("v", pa.string(), False)])),
    }


OPTS = dict(compression="none", use_dictionary=True, data_page_version="1.0",
            row_group_size=1 << 30, write_page_index=False, write_statistics=True)


def time_once(fn, path):
    """Seconds of fn() writing `path`, removed first (outside the timing)."""
    if os.path.exists(path):
        os.unlink(path)
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out", default="/dev/shm")
    ap.add_argument("--inputs", default="", help="comma-separated input names (default: all four)")
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import allocators
    allocators.ensure_pinned_process()
    print(f"cdc_overhead: {allocators.pin_allocators()}")
    inputs = make_inputs()
    shuffle = random.Random(7)
    qpath, ppath = f"{args.out}/cdc_q.parquet", f"{args.out}/cdc_p.parquet"
    arms = {
        "quiver": lambda t: time_once(lambda: quiver.write_parquet(t, qpath, **OPTS), qpath),
        "quiver+cdc": lambda t: time_once(lambda: quiver.write_parquet(
            t, qpath, use_content_defined_chunking=True, **OPTS), qpath),
        "pyarrow": lambda t: time_once(lambda: pq.write_table(t, ppath, **OPTS), ppath),
        "pyarrow+cdc": lambda t: time_once(lambda: pq.write_table(
            t, ppath, use_content_defined_chunking=True, **OPTS), ppath),
        "control": lambda t: time_once(lambda: pq.write_table(t, ppath, **OPTS), ppath),
    }
    print(f"{'input':16} {'quiver':>8} {'+cdc':>8} {'ovh':>6} {'added':>7} | {'pyarrow':>8} {'+cdc':>8} {'ovh':>6} {'added':>7} | added ratio | control spread"
          f" || paired: {'q added':>7} {'p added':>7} {'ratio':>5} {'ctrl':>7}")
    wanted = [x for x in args.inputs.split(",") if x]
    for name, table in inputs.items():
        if wanted and name not in wanted:
            continue
        times = {k: [] for k in arms}
        # Arms in a new random order each rep, so that no arm always follows
        # the same one (position effects showed as a control up to 4% off).
        order = list(arms)
        for _ in range(args.reps):
            shuffle.shuffle(order)
            for k in order:
                times[k].append(arms[k](table))
        med = {k: statistics.median(v) for k, v in times.items()}
        q_ovh = med["quiver+cdc"] / med["quiver"] - 1
        p_ovh = med["pyarrow+cdc"] / med["pyarrow"] - 1
        q_add = med["quiver+cdc"] - med["quiver"]
        p_add = med["pyarrow+cdc"] - med["pyarrow"]
        ctrl = med["control"] / med["pyarrow"] - 1
        # Paired: the median of the per-rep differences between arms timed
        # next to each other, less sensitive to drift over the run than the
        # difference of medians; the control's paired difference (two arms
        # doing the same work) shows the noise in seconds.
        def paired(a, b):
            return statistics.median(x - y for x, y in zip(times[a], times[b]))
        qp, pp = paired("quiver+cdc", "quiver"), paired("pyarrow+cdc", "pyarrow")
        cp = paired("control", "pyarrow")
        print(f"{name:16} {med['quiver']:8.3f} {med['quiver+cdc']:8.3f} {q_ovh:6.1%} {q_add:7.3f} | "
              f"{med['pyarrow']:8.3f} {med['pyarrow+cdc']:8.3f} {p_ovh:6.1%} {p_add:7.3f} | "
              f"{q_add / p_add if p_add > 0 else float('nan'):11.2f} | {ctrl:+13.1%}"
              f" || {qp:15.3f} {pp:7.3f} {qp / pp if pp > 0 else float('nan'):5.2f} {cp:+7.3f}")


if __name__ == "__main__":
    main()
