#!/usr/bin/env python3
"""Writes the pyarrow files the reader's row-selection tests read
(src/quiver/parquet/reader/selection_read_test.cc; committed: run again
only to change them).

  .venv/bin/python src/quiver/parquet/reader/testdata/make_selection_files.py

(Beside the reader's tests rather than in testdata/, whose every file the
schema and corpus tests check against pyarrow's manifests.)

  selection_pyarrow_index.parquet    pyarrow, page index, data page v1,
                                     snappy, 2 row groups of 1,000 rows
  selection_pyarrow_noindex.parquet  the same table without page index
  selection_pyarrow_v2.parquet       the same table, data page v2, zstd,
                                     page index

Pages are small (write_batch_size 50, data_page_size 700 bytes, at most 97
rows a page), so that every column chunk has many of them; the `words`
column's dictionary page is capped at 300 bytes, so its chunks fall back
from dictionary to PLAIN pages mid-chunk; `long_lists` has lists of up to
60 values, so lists span pages where the writer lets them (no page index,
v1).
"""

import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))


def table(n=2000):
    rng = np.random.default_rng(45)
    valid = rng.random(n) > 0.15
    ints = [int(v) if ok else None for v, ok in zip(rng.integers(-2**40, 2**40, n), valid)]
    doubles = rng.normal(size=n)
    doubles[rng.random(n) < 0.05] = np.nan
    doubles[::17] = -0.0
    words = [f"word-{int(v)}" if ok else None
             for v, ok in zip(rng.integers(0, 10**6, n), rng.random(n) > 0.1)]
    colours = ["red", "green", "blue", "a much longer colour name"]
    dict_words = pa.array([colours[i % 4] if i % 9 else None for i in range(n)]).dictionary_encode()
    bools = [bool(v) if v % 7 else None for v in rng.integers(0, 100, n)]
    lists = [None if i % 11 == 0 else [int(x) for x in rng.integers(0, 1000, i % 5)]
             for i in range(n)]
    long_lists = [None if i % 23 == 0 else list(range(int(rng.integers(0, 60))))
                  for i in range(n)]
    structs = [None if i % 13 == 0 else {"a": i if i % 3 else None, "b": f"s{i}"}
               for i in range(n)]
    maps = [None if i % 19 == 0 else [(f"k{j}", i * j) for j in range(i % 4)] for i in range(n)]
    fixed = [bytes([i % 256, (i * 7) % 256, 3]) if i % 5 else None for i in range(n)]
    required = np.arange(n, dtype=np.int32)
    return pa.table({
        "required": pa.array(required),
        "ints": pa.array(ints, pa.int64()),
        "doubles": pa.array(doubles),
        "words": pa.array(words, pa.string()),
        "dict_words": dict_words,
        "bools": pa.array(bools, pa.bool_()),
        "lists": pa.array(lists, pa.list_(pa.int32())),
        "long_lists": pa.array(long_lists, pa.list_(pa.int16())),
        "structs": pa.array(structs, pa.struct([("a", pa.int64()), ("b", pa.string())])),
        "maps": pa.array(maps, pa.map_(pa.string(), pa.int64())),
        "fixed": pa.array(fixed, pa.binary(3)),
    })


def main():
    t = table()
    common = dict(row_group_size=1000, write_batch_size=50, data_page_size=700,
                  max_rows_per_page=97, dictionary_pagesize_limit=300)
    pq.write_table(t, os.path.join(HERE, "selection_pyarrow_index.parquet"),
                   write_page_index=True, **common)
    pq.write_table(t, os.path.join(HERE, "selection_pyarrow_noindex.parquet"),
                   write_page_index=False, **common)
    pq.write_table(t, os.path.join(HERE, "selection_pyarrow_v2.parquet"),
                   write_page_index=True, data_page_version="2.0", compression="zstd", **common)


if __name__ == "__main__":
    main()
