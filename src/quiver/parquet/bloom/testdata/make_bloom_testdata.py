#!/usr/bin/env python3
"""Writes bloom_filters.parquet: a reference file whose split-block Bloom
filters were written by Arrow C++ (through pyarrow >= 22, which has
bloom_filter_options). bloom_filter_test.cc rebuilds every filter with
quiver::parquet::BloomFilter from the same values and (ndv, fpp) and
requires the serialized filter (Thrift header + bitset) to be byte-identical
to the bytes at the column chunk's bloom_filter_offset.

The values and (ndv, fpp) below are mirrored in bloom_filter_test.cc
(PyarrowReference*): keep the two in sync. All values are exactly
representable, so C++ computes the same bits.

Every ndv below is at most the column's real number of distinct values
(1000): pyarrow 26 shrinks a row group's filter when the row group holds
fewer distinct values than ndv (observed: 1000 rows of 10 distinct values
with ndv=100000 give a 32-byte filter), so a larger ndv would not give the
size that OptimalNumBytes(ndv, fpp) predicts.

Usage: python3 make_bloom_testdata.py   (writes next to this script)
"""

import os

import pyarrow as pa
import pyarrow.parquet as pq

N = 1000

# column -> (ndv, fpp); the sizes exercise several OptimalNumBytes results.
OPTIONS = {
    "i32": (1000, 0.05),  # 1024 bytes
    "i64": (1000, 0.05),  # 1024 bytes
    "f32": (100, 0.1),  # 128 bytes
    "f64": (700, 0.001),  # 2048 bytes
    "s": (1000, 0.05),  # 1024 bytes
    "b": (300, 0.2),  # 256 bytes
}


def main():
    rows = range(N)
    table = pa.table(
        {
            "i32": pa.array([i * 7919 - 500_000 for i in rows], pa.int32()),
            "i64": pa.array([(i - 500) * 0x1_0000_0001 for i in rows], pa.int64()),
            "f32": pa.array([(i - 500) * 0.25 for i in rows], pa.float32()),
            "f64": pa.array([(i - 500) / 8.0 + 1e9 for i in rows], pa.float64()),
            "s": pa.array(["" if i == 0 else f"value-{i}" for i in rows], pa.utf8()),
            "b": pa.array([f"{i:06d}".encode() for i in rows], pa.binary(6)),
        }
    )
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bloom_filters.parquet")
    pq.write_table(
        table,
        path,
        use_dictionary=False,
        compression="zstd",
        write_statistics=False,
        store_schema=False,
        bloom_filter_options={c: {"ndv": ndv, "fpp": fpp} for c, (ndv, fpp) in OPTIONS.items()},
    )
    meta = pq.ParquetFile(path).metadata
    print(f"pyarrow {pa.__version__}: wrote {path} ({os.path.getsize(path)} bytes)")
    for j in range(meta.num_columns):
        col = meta.row_group(0).column(j)
        print(f"  {col.path_in_schema}: bloom filter at {col.bloom_filter_offset}, "
              f"{col.bloom_filter_length} bytes")


if __name__ == "__main__":
    main()
