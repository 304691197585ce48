"""Late materialization against read-everything-then-filter, in callgrind
instruction counts (repeatable on a loaded machine; docs/design.md "Filtered
reads" has the table this prints).

    python bench/late_materialization.py BUILD_DIR [--rows N] [--out DIR]

Files (pyarrow, one row group of N = 1,000,000 rows, no page index, snappy and
zstd): r (int64, uniform 0..N-1: a scattered predicate), k (int64 0..N-1: a
sorted one), and payloads p_plain (random int64, PLAIN), p_dict (strings of
40 categories, dictionary-encoded), p_str (unique 20-40 byte strings, PLAIN).
For each selectivity 0.1/1/10/50/90/100%, predicate (r < t, k < t) and
payload, the read of [payload] where the predicate holds: "readall" (the
payload and the filter column read whole, then FilterByExpression: the
filtered read before late materialization, the baseline) and late
materialization with the default merge gap, through
BUILD_DIR/bench/quiver_late_materialization_callgrind (no pruning: only the
execution differs). Prints Ir of each and the ratio.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

SELECTIVITIES = [0.001, 0.01, 0.1, 0.5, 0.9, 1.0]
PAYLOADS = ["p_plain", "p_dict", "p_str"]


def write_files(out, n):
    rng = np.random.default_rng(45)
    cats = np.array([f"category-{i:02d}-{'x' * (i % 9)}" for i in range(40)], dtype=object)
    lengths = rng.integers(20, 41, n)
    strs = [("s%d-" % i).ljust(int(l), "z") for i, l in zip(range(n), lengths)]
    table = pa.table({
        "r": pa.array(rng.permutation(n), pa.int64()),
        "k": pa.array(np.arange(n), pa.int64()),
        "p_plain": pa.array(rng.integers(-2**62, 2**62, n), pa.int64()),
        "p_dict": pa.array(cats[rng.integers(0, 40, n)], pa.string()),
        "p_str": pa.array(strs, pa.string()),
    })
    paths = {}
    for codec in ("snappy", "zstd"):
        path = out / f"late_{codec}.parquet"
        pq.write_table(table, path, row_group_size=n, compression=codec,
                       use_dictionary=["p_dict"], write_page_index=False)
        paths[codec] = path
    return paths


def instructions(tool, path, where, gap, column):
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "cg.out"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(tool),
             str(path), where, gap, column], capture_output=True, text=True, check=True)
        total = re.search(r"Collected : (\d+)", run.stderr)
        if total is None:
            raise RuntimeError(run.stderr)
        return int(total.group(1)), run.stdout.strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--out", default="/tmp/late_materialization_bench")
    parser.add_argument("--gap", default="32")
    args = parser.parse_args()
    tool = pathlib.Path(args.build) / "bench" / "quiver_late_materialization_callgrind"
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    paths = write_files(out, args.rows)
    print("| codec | predicate | sel % | payload | read+filter Ir | late Ir | late / read+filter |")
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    for codec, path in paths.items():
        for column in ("r", "k"):
            for sel in SELECTIVITIES:
                where = f"{column} < {int(sel * args.rows)}"
                for payload in PAYLOADS:
                    base, base_out = instructions(tool, path, where, "readall", payload)
                    late, late_out = instructions(tool, path, where, args.gap, payload)
                    assert base_out.split()[1] == late_out.split()[1], (base_out, late_out)
                    ratio = late / base
                    worst = max(worst, ratio)
                    kind = "random" if column == "r" else "sorted"
                    print(f"| {codec} | {kind} | {sel * 100:g} | {payload} | {base:,} | {late:,} "
                          f"| {ratio:.3f} |", flush=True)
    print(f"worst late / read+filter: {worst:.3f}")


if __name__ == "__main__":
    sys.exit(main())
