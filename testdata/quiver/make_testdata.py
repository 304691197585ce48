#!/usr/bin/env python3
"""Writes the small Parquet files in this folder (committed; run again only to
change them, and then update the golden outputs that depend on them).

  PYTHONPATH=build/release/python .venv/bin/python testdata/quiver/make_testdata.py

  typed.parquet        Quiver: many types, 2 row groups, small pages, page
                       checksums, bloom filters, page index, dictionary + PLAIN
                       fallback, nested columns
  pyarrow_v2.parquet   pyarrow: data page v2, page index, zstd, 3 row groups
  edit_a.parquet       Quiver, CDC (small chunks) + zstd: a table ...
  edit_b.parquet       ... and the same table with 1% of rows inserted mid-way
  edit_a_plain.parquet / edit_b_plain.parquet: the same two without CDC

They are the fixed inputs of python/tests/test_golden.py (the `quiver
inspect` / `quiver dedup` golden outputs): the files themselves, and seeded
corruptions of them made by that test.
"""

import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import quiver

HERE = os.path.dirname(os.path.abspath(__file__))


def typed_table(n=3000):
    rng = np.random.default_rng(7)
    ints = rng.integers(-1000, 1000, n)
    valid = rng.random(n) > 0.2
    words = np.array(["alpha", "beta", "gamma", "delta", "épsilon", ""], dtype=object)
    strings = [f"{words[i % 6]}-{int(v) % 97}" if ok else None
               for i, (v, ok) in enumerate(zip(ints, valid))]
    lists = [None if i % 11 == 0 else [int(x) for x in range(i % 4)] for i in range(n)]
    structs = [None if i % 13 == 0 else {"x": i, "y": float(i) / 3} for i in range(n)]
    return pa.table({
        "i32": pa.array(ints.astype(np.int32), mask=~valid),
        "i64": pa.array(np.arange(n, dtype=np.int64) * 1_000_003),
        "f64": pa.array(rng.random(n)),
        "flag": pa.array(rng.random(n) > 0.5),
        "name": pa.array(strings, pa.string()),
        "unique": pa.array([f"row-{i:06d}-{int(rng.integers(1 << 30))}" for i in range(n)]),
        "ts": pa.array(np.arange(n, dtype=np.int64) * 1_000_000, pa.timestamp("us", "UTC")),
        "dec": pa.array([None if i % 7 == 0 else i * 10 for i in range(n)], pa.decimal128(12, 2)),
        "fsb": pa.array([bytes([i % 256]) * 4 for i in range(n)], pa.binary(4)),
        "tags": pa.array(lists, pa.list_(pa.int32())),
        "point": pa.array(structs, pa.struct([("x", pa.int64()), ("y", pa.float64())])),
        "attrs": pa.array([[("k", i)] if i % 5 else [] for i in range(n)],
                          pa.map_(pa.string(), pa.int64())),
    })


def edit_table(n=20_000):
    rng = np.random.default_rng(11)
    return pa.table({
        "id": pa.array(np.arange(n, dtype=np.int64)),
        "value": pa.array(rng.random(n)),
        "name": pa.array([f"name-{int(x)}" for x in rng.integers(0, 5000, n)]),
        "tags": pa.array([[int(x)] * (int(x) % 3) for x in rng.integers(0, 100, n)],
                         pa.list_(pa.int32())),
    })


def main():
    typed = typed_table()
    quiver.write_parquet(
        typed, os.path.join(HERE, "typed.parquet"), compression="snappy", row_group_size=1800,
        data_page_size=4096, max_rows_per_page=500, write_page_checksum=True,
        dictionary_pagesize_limit=2048,
        bloom_filter_options={"i32": {"ndv": 2000, "fpp": 0.05}, "name": {"ndv": 500, "fpp": 0.01}})
    pq.write_table(typed, os.path.join(HERE, "pyarrow_v2.parquet"), data_page_version="2.0",
                   write_page_index=True, compression="zstd", row_group_size=1000,
                   data_page_size=8192)

    a = edit_table()
    k = a.num_rows // 2
    inserted = edit_table(a.num_rows // 100).set_column(0, "id", pa.array(
        np.arange(a.num_rows // 100, dtype=np.int64) + 10_000_000))
    b = pa.concat_tables([a.slice(0, k), inserted, a.slice(k)])
    cdc = {"min_chunk_size": 4096, "max_chunk_size": 16384}
    for name, table in (("edit_a", a), ("edit_b", b)):
        quiver.write_parquet(table, os.path.join(HERE, f"{name}.parquet"), compression="zstd",
                             use_content_defined_chunking=cdc)
        quiver.write_parquet(table, os.path.join(HERE, f"{name}_plain.parquet"),
                             compression="zstd", data_page_size=16384)
    for name in sorted(os.listdir(HERE)):
        if name.endswith(".parquet"):
            print(f"{name}: {os.path.getsize(os.path.join(HERE, name))} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
