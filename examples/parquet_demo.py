#!/usr/bin/env python3
"""Quiver's main job on built-in data: write Parquet, and let the real readers
judge it.

Builds a table of 1,000,000 rows (integers, floats with NaN, strings, a
timestamp with a time zone, a dictionary column, a list column, a struct),
writes it with Quiver (zstd, page index, statistics; once more with
content-defined chunking), reads it back with pyarrow, duckdb and polars and
checks every value, then prints what `quiver inspect` sees. (`make demo` runs
python -m quiver.demo instead; this example covers more column types.)

    PYTHONPATH=build/release/python .venv/bin/python examples/parquet_demo.py
"""
import os
import subprocess
import sys
import tempfile
import time

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

import quiver


def build_table(n=1_000_000, seed=42):
    rng = np.random.default_rng(seed)
    ints = pa.array(rng.integers(-10**9, 10**9, n), pa.int64(), mask=rng.random(n) < 0.1)
    floats = rng.random(n)
    floats[rng.random(n) < 0.01] = np.nan
    words = np.array(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"])
    strings = pa.array([f"{w}-{i}" for w, i in zip(words[rng.integers(0, 8, n)], rng.integers(0, 10**6, n))])
    ts = pa.array(rng.integers(1_600_000_000_000_000, 1_700_000_000_000_000, n), pa.timestamp("us", tz="UTC"))
    cats = pa.array(words[rng.integers(0, 8, n)]).dictionary_encode()
    lengths = rng.integers(0, 4, n)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    lists = pa.ListArray.from_arrays(pa.array(offsets), pa.array(rng.integers(0, 100, int(offsets[-1])), pa.int32()))
    struct = pa.StructArray.from_arrays([pa.array(rng.random(n), pa.float32()), pa.array(rng.integers(0, 2, n) == 1)],
                                        names=["score", "flag"])
    return pa.table({"id": pa.array(np.arange(n), pa.int64()), "value": ints, "ratio": pa.array(floats),
                     "label": strings, "at": ts, "category": cats, "tags": lists, "info": struct})


def tables_equal(a, b):
    """Table equality where NaN equals NaN (Table.equals says NaN != NaN)."""
    if a.schema != b.schema or a.num_rows != b.num_rows:
        return False
    for name in a.column_names:
        x, y = a[name].combine_chunks(), b[name].combine_chunks()
        if pa.types.is_floating(x.type):
            if not x.is_null().equals(y.is_null()):
                return False
            xs = x.fill_null(0).to_numpy(zero_copy_only=False)
            ys = y.fill_null(0).to_numpy(zero_copy_only=False)
            if not np.array_equal(xs, ys, equal_nan=True):
                return False
        elif not x.equals(y):
            return False
    return True


def main():
    table = build_table()
    print(f"table: {table.num_rows:,} rows, {table.num_columns} columns, "
          f"{table.nbytes / 2**20:.1f} MiB in memory")
    cli = os.environ.get("QUIVER_CLI", os.path.join(os.path.dirname(__file__), "..", "build", "release", "quiver"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, options in [("plain", {}), ("cdc", {"use_content_defined_chunking": True})]:
            path = os.path.join(tmp, f"demo_{name}.parquet")
            t0 = time.perf_counter()
            quiver.write_parquet(table, path, compression="zstd", **options)
            seconds = time.perf_counter() - t0
            print(f"\nwrote {path.split('/')[-1]} ({os.path.getsize(path) / 2**20:.1f} MiB) in {seconds:.2f} s"
                  f" with {options or 'default options'}")
            back = pq.read_table(path)
            assert tables_equal(back, table), "pyarrow read back a different table"
            print("  pyarrow: equal (types restored from ARROW:schema)")
            d = duckdb.sql(f"select count(*), sum(value), count(distinct label) from '{path}'").fetchall()[0]
            expect = (table.num_rows, pa.compute.sum(table["value"]).as_py(),
                      pa.compute.count_distinct(table["label"]).as_py())
            assert d == expect, (d, expect)
            print(f"  duckdb: count={d[0]:,} sum(value)={d[1]} distinct labels={d[2]:,}: equal")
            p = pl.read_parquet(path)
            assert p.to_arrow().select(["id", "value", "label"]).equals(
                table.select(["id", "value", "label"]).cast(p.to_arrow().select(["id", "value", "label"]).schema))
            print(f"  polars: {p.shape[0]:,} rows: equal")
            md = pq.ParquetFile(path).metadata
            col = md.row_group(0).column(1)
            print(f"  row groups: {md.num_row_groups}, value column: {col.compression}, {col.encodings}, "
                  f"min={col.statistics.min} max={col.statistics.max} nulls={col.statistics.null_count}")
            if os.path.exists(cli):
                out = subprocess.run([cli, "inspect", path], capture_output=True, text=True, check=True).stdout
                print("  quiver inspect (first lines):")
                for line in out.splitlines()[:8]:
                    print("    " + line)
    print("\ndemo: all readers agree")


if __name__ == "__main__":
    sys.exit(main())
