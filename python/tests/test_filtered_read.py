"""filters= in the reader (quiver.read_table, ParquetFile.read / read_row_group(s) /
iter_batches) judged by pyarrow's decode-then-filter:

    quiver.read_table(f, columns=C, filters=F)
      == pq.read_table(f, columns=needed).filter(pq.filters_to_expression(F)).select(C)

(values and order; the same exception class where pyarrow raises), on random pyarrow-
and Quiver-written files (test_pruning's generators: several row groups, small pages,
page index on and off, sorted and unsorted columns, nulls, NaN, strings, dates,
decimals, dictionaries, bloom filters) with random DNF filters and expression trees.
Plus pruning made visible: read_stats on a sorted column's 0.1% range, and a counting
file object showing the skipped bytes were never asked for.
"""
import io
import json
import math
import os
import pathlib
import subprocess
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest

import quiver
import quiver.compute as qc
from test_pruning import random_expression, random_filters, random_table, write_file

ERROR_CLASSES = [
    (pa.ArrowNotImplementedError, quiver.NotImplementedError),
    (pa.ArrowTypeError, TypeError),
    (pa.ArrowInvalid, quiver.InvalidError),
    (OverflowError, OverflowError),
    (TypeError, TypeError),
    (ValueError, ValueError),
]


def names_of(filters):
    if isinstance(filters, pc.Expression):
        filters = qc.Expression.from_pyarrow(filters)
    expr = filters if isinstance(filters, qc.Expression) else qc.filters_to_expression(filters)
    return expr.fields()


def oracle(path, columns, filters, names=None):
    """pyarrow's decode-then-filter, or the exception it raises."""
    try:
        if isinstance(filters, qc.Expression):
            filters = filters.to_pyarrow()
        expr = filters if isinstance(filters, pc.Expression) else pq.filters_to_expression(filters)
        needed = None
        if columns is not None:
            needed = list(columns) + [n for n in (names or names_of(filters)) if n not in columns]
        table = pq.read_table(path, columns=needed).filter(expr)
        return table.select(columns) if columns is not None else table
    except Exception as e:  # noqa: BLE001 - the class is what is judged
        return e


def expected_class(error):
    for pa_class, quiver_class in ERROR_CLASSES:
        if isinstance(error, pa_class):
            return quiver_class
    raise AssertionError(f"unexpected pyarrow error {type(error).__name__}: {error}")


def check(path, columns, filters):
    names = filters.fields() if isinstance(filters, qc.Expression) else None
    want = oracle(path, columns, filters, names)
    if isinstance(want, Exception):
        cls = expected_class(want)
        try:
            got = quiver.read_table(str(path), columns=columns, filters=filters)
        except cls:
            return False
        # A data error (uint64 values past 2^63 against an int64 literal) in
        # rows the statistics prove cannot match is not raised (pyarrow's own
        # read_table(filters=) skips it too, or not, as its simplification
        # goes); where pyarrow's pushdown answers, Quiver gives its rows.
        assert isinstance(want, pa.ArrowInvalid) and "not in range" in str(want), want
        pa_filters = filters.to_pyarrow() if isinstance(filters, qc.Expression) else filters
        try:
            pushed = pq.read_table(path, columns=columns, filters=pa_filters)
        except pa.ArrowInvalid:
            return False
        assert pa.table(got).num_rows == pushed.num_rows, (filters, columns)
        return False
    got = pa.table(quiver.read_table(str(path), columns=columns, filters=filters))
    assert got.num_rows == want.num_rows, (filters, columns)
    assert got.schema.names == want.schema.names
    assert got.schema == want.schema, (filters, columns)
    for name in got.column_names:
        a, b = got.column(name), want.column(name)
        if not a.equals(b):  # (NaN != NaN there: compare value by value)
            same = [x == y or (x != x and y != y) for x, y in zip(a.to_pylist(), b.to_pylist())]
            assert all(same), (filters, columns, name)
    return True


@pytest.mark.parametrize("writer", ["pyarrow", "quiver"])
@pytest.mark.parametrize("page_index", [True, False])
def test_random_filters_equal_decode_then_filter(tmp_path, rng, writer, page_index):
    deadline = time.monotonic() + 6
    checked = 0
    for files in range(2):
        table = random_table(rng, rng.choice([1500, 3000]))
        path = tmp_path / f"f{files}.parquet"
        write_file(path, table, rng, writer, page_index)
        for i in range(200):
            if time.monotonic() > deadline and i >= 15:
                break
            if rng.random() < 0.3:
                filters = random_expression(rng, table)
            else:
                filters = random_filters(rng, table)
            r = rng.random()
            if r < 0.3:
                columns = None
            elif r < 0.4:
                columns = []
            else:
                columns = rng.sample(table.column_names, rng.randrange(1, 4))
            checked += check(path, columns, filters)
    assert checked > 10


def test_quiver_expression_and_pyarrow_expression(tmp_path):
    path = tmp_path / "e.parquet"
    pq.write_table(pa.table({"a": list(range(100)), "s": [str(i) for i in range(100)]}), path,
                   row_group_size=30)
    f = qc.field
    for filters in [(f("a") > 90) | (f("s") == "5"), ~f("a").isin([1, 2, 3]) & (f("a") < 6),
                    pc.field("a") >= 97, f("a").is_valid()]:
        want = pq.read_table(path).filter(
            filters.to_pyarrow() if isinstance(filters, qc.Expression) else filters)
        assert pa.table(quiver.read_table(str(path), filters=filters)).equals(want)
    with pytest.raises(quiver.NotImplementedError, match="quiver.compute.field"):
        quiver.read_table(str(path), filters=pc.field("a") + 1 > 3)


def test_errors_as_pyarrow(tmp_path):
    path = tmp_path / "err.parquet"
    t = pa.table({"a": [1, 2, 3], "s": pa.array([{"x": 1}, {"x": 2}, None])})
    pq.write_table(t, path)
    for filters in [[("s.x", "==", 1)], [("zz", "==", 1)], [("a", "==", "x")], [],
                    [("a", "<", 2**70)], [("a", "IN", [1])]]:
        want = oracle(path, None, filters)
        assert isinstance(want, Exception)
        with pytest.raises(expected_class(want)) as got:
            quiver.read_table(str(path), filters=filters)
        if isinstance(want, pa.ArrowInvalid):
            assert str(got.value).splitlines()[0] == str(want).splitlines()[0]
    # Raised even when the statistics prune every row group.
    with pytest.raises(quiver.NotImplementedError):
        quiver.read_table(str(path), filters=[("a", ">", 100), ("s", "<", 3)])


class CountingFile(io.RawIOBase):
    """A binary file object recording every byte range read."""

    def __init__(self, data):
        self._f = io.BytesIO(data)
        self.ranges = []

    def readable(self):
        return True

    def seekable(self):
        return True

    def seek(self, pos, whence=0):
        return self._f.seek(pos, whence)

    def tell(self):
        return self._f.tell()

    def readinto(self, b):
        start = self._f.tell()
        n = self._f.readinto(b)
        self.ranges.append((start, start + n))
        return n

    def read(self, n=-1):
        start = self._f.tell()
        data = self._f.read(n)
        self.ranges.append((start, start + len(data)))
        return data


def test_sorted_range_prunes_and_skips_bytes(tmp_path):
    n = 200_000
    rng = np.random.default_rng(3)
    table = pa.table({"key": np.arange(n, dtype=np.int64), "payload": rng.random(n),
                      "s": pa.array([f"row{i}" for i in range(n)])})
    path = tmp_path / "sorted.parquet"
    # (No dictionaries: a chunk's dictionary page is read whatever the rows.)
    pq.write_table(table, path, row_group_size=50_000, data_page_size=8000,
                   write_batch_size=1000, write_page_index=True, use_dictionary=False)
    lo, hi = 123_456, 123_456 + n // 1000  # 0.1%
    filters = [("key", ">=", lo), ("key", "<", hi)]
    data = path.read_bytes()

    counting = CountingFile(data)
    with quiver.ParquetFile(counting) as f:
        counting.ranges.clear()  # (the footer's suffix read may cover the last chunk's tail)
        got = f.read(columns=["payload"], filters=filters)
        stats = f.read_stats
    want = table.slice(lo, hi - lo).select(["payload"])
    assert pa.table(got).equals(want)
    assert stats["row_groups_pruned_statistics"] == 3
    assert stats["pages_skipped"] > 0
    assert stats["pages_decompressed"] < 12

    whole = CountingFile(data)
    with quiver.ParquetFile(whole) as f:
        f.read(columns=["payload", "key"])
        whole_stats = f.read_stats
    assert stats["bytes_read"] * 20 < whole_stats["bytes_read"]
    # The file object itself: bytes asked for by the filtered read are a
    # small part of the file; none of them lies in a pruned
    # row group's column chunks.
    read_bytes = sum(e - b for b, e in counting.ranges)
    assert read_bytes * 5 < len(data)
    md = pq.ParquetFile(path).metadata
    for rg in (0, 1, 3):
        for c in range(md.num_columns):
            chunk = md.row_group(rg).column(c)
            start = chunk.dictionary_page_offset or chunk.data_page_offset
            end = start + chunk.total_compressed_size
            assert not any(b < end and e > start for b, e in counting.ranges), (rg, c)


def test_bloom_filters_fetched_only_for_equality_and_set_lookups(tmp_path):
    # A bloom filter prunes only == and is_in: a range filter on a column
    # with one never fetches its bytes (counted on the file object); an
    # equality that the statistics cannot decide does, and prunes by it.
    n = 40_000
    rng = np.random.default_rng(46)
    ints = rng.integers(0, 10**9, n)
    table = pa.table({"x": ints, "y": rng.integers(0, 100, n)})
    path = tmp_path / "bloom.parquet"
    pq.write_table(table, path, row_group_size=10_000, bloom_filter_options={"x": True},
                   write_page_index=True)
    data = path.read_bytes()
    md = quiver.ParquetFile(data).metadata
    blooms = []  # the byte range of each row group's bloom filter of x
    for rg in range(md.num_row_groups):
        chunk = md.row_group(rg).column(0)
        assert chunk.path_in_schema == "x" and chunk.bloom_filter_offset is not None
        blooms.append((chunk.bloom_filter_offset,
                       chunk.bloom_filter_offset + chunk.bloom_filter_length))

    def touched(filters):
        counting = CountingFile(data)
        with quiver.ParquetFile(counting) as f:
            counting.ranges.clear()
            got = f.read(filters=filters)
            stats = f.read_stats
        want = table.filter(pq.filters_to_expression(filters))
        assert pa.table(got).equals(want)
        hit = sum(any(b < e2 and e > b2 for b, e in counting.ranges) for b2, e2 in blooms)
        return hit, stats

    hit, stats = touched([("x", "<", 500_000_000)])
    assert hit == 0 and stats["row_groups_pruned_bloom"] == 0
    hit, stats = touched([("y", "==", 5), ("x", ">", 10)])  # x not tested for equality
    assert hit == 0
    absent = 10**9 // 2 + 1  # inside every row group's bounds, (almost surely) absent
    assert absent not in set(ints.tolist())
    hit, stats = touched([("x", "==", absent)])
    assert hit == md.num_row_groups and stats["row_groups_pruned_bloom"] >= 3
    hit, stats = touched([("x", "in", [absent, absent + 2])])
    assert hit == md.num_row_groups and stats["row_groups_pruned_bloom"] >= 3


def test_nan_not_equal_is_correct_where_pyarrow_prunes_it(tmp_path):
    path = tmp_path / "nan.parquet"
    pq.write_table(pa.table({"x": [5.0, math.nan, 5.0]}), path)
    got = pa.table(quiver.read_table(str(path), filters=[("x", "!=", 5)]))
    want = pq.read_table(path).filter(pc.field("x") != 5)
    assert got.num_rows == want.num_rows == 1 and math.isnan(got.column("x")[0].as_py())
    # pyarrow's own read_table(filters=) drops the NaN row by the statistics
    # (min == max == 5).
    assert pq.read_table(path, filters=[("x", "!=", 5)]).num_rows == 0


def test_no_columns_counts_the_matches(tmp_path):
    path = tmp_path / "c.parquet"
    pq.write_table(pa.table({"a": list(range(1000))}), path, row_group_size=100)
    t = quiver.read_table(str(path), columns=[], filters=[("a", "<", 250)])
    assert t.num_columns == 0 and t.num_rows == 250
    assert pq.read_table(path, columns=[], filters=[("a", "<", 250)]).num_rows == 250


def test_parquet_file_methods_and_iter_batches(tmp_path):
    path = tmp_path / "b.parquet"
    table = pa.table({"a": list(range(1000)), "b": [i % 7 for i in range(1000)]})
    pq.write_table(table, path, row_group_size=300, data_page_size=256, write_batch_size=50)
    filters = [[("b", "==", 3)], [("a", ">", 990)]]
    expr = pq.filters_to_expression(filters)
    with quiver.ParquetFile(str(path)) as f:
        assert pa.table(f.read(filters=filters)).equals(table.filter(expr))
        assert pa.table(f.read(columns=["a"], filters=filters)).equals(
            table.filter(expr).select(["a"]))
        rg = pq.ParquetFile(path).read_row_group(1)
        assert pa.table(f.read_row_group(1, filters=filters)).equals(rg.filter(expr))
        assert pa.table(f.read_row_groups([0, 2], filters=filters)).equals(
            pq.ParquetFile(path).read_row_groups([0, 2]).filter(expr))
        batches = list(f.iter_batches(batch_size=64, columns=["a"], filters=filters))
        assert all(b.num_rows > 0 for b in batches)
        assert pa.Table.from_batches([pa.record_batch(b) for b in batches]).equals(
            table.filter(expr).select(["a"]))
        list(f.iter_batches(batch_size=64, filters=[("a", ">", 5000)]))
        assert f.read_stats["row_groups_pruned_statistics"] == 4


# ---- late materialization ---------------------------------------------------------


def late_table(rng, n):
    """A random filter column, a sorted one, and payloads: plain ints, dictionary and
    plain strings, lists and structs with nulls."""
    ints = rng.integers(0, 1000, n)
    words = np.array(["alpha", "beta", "gamma", "delta", ""], dtype=object)
    return pa.table({
        "r": pa.array(ints, pa.int32()),
        "k": pa.array(np.arange(n), pa.int64()),
        "v": pa.array(rng.integers(-2**40, 2**40, n), pa.int64()),
        "d": pa.array(words[rng.integers(0, 5, n)]).dictionary_encode(),
        "s": pa.array([f"s{x}-{x * 7}" if x % 9 else None for x in ints.tolist()]),
        "l": pa.array([[x, x + 1][: x % 3] if x % 11 else None for x in ints.tolist()],
                      pa.list_(pa.int32())),
        "st": pa.array([{"a": x, "b": str(x)} if x % 13 else None for x in ints.tolist()],
                       pa.struct([("a", pa.int32()), ("b", pa.string())])),
    })


@pytest.mark.parametrize("page_index", [True, False])
def test_late_materialization_equals_decode_then_filter(tmp_path, page_index):
    rng = np.random.default_rng(45)
    n = 20_000
    table = late_table(rng, n)
    path = tmp_path / "late.parquet"
    pq.write_table(table, path, row_group_size=7000, data_page_size=2000,
                   write_batch_size=500, write_page_index=page_index, compression="zstd")
    for per_mille in (1, 10, 100, 500, 900, 1000):
        for filters in ([("r", "<", per_mille)], [("k", "<", n * per_mille // 1000)],
                        [("r", "<", per_mille), ("k", ">=", n // 3)]):
            for columns in (None, ["v", "s", "l", "st", "d"], ["st", "r", "v"], ["r"], []):
                want = oracle(path, columns, filters)
                got = pa.table(quiver.read_table(str(path), columns=columns, filters=filters))
                assert got.num_rows == want.num_rows, (filters, columns)
                assert got.equals(want), (filters, columns)
                with quiver.ParquetFile(str(path)) as f:
                    batches = [pa.record_batch(b) for b in
                               f.iter_batches(batch_size=999, columns=columns, filters=filters)]
                assert sum(b.num_rows for b in batches) == want.num_rows
                if columns != [] and batches:
                    assert pa.Table.from_batches(batches).equals(want), (filters, columns)


def test_payload_decoded_only_at_matches(tmp_path):
    """values_decoded: the filter column at every row, the payload at the matches
    only (read-then-filter would decode the payload at every row)."""
    rng = np.random.default_rng(7)
    n = 100_000
    table = pa.table({"r": pa.array(rng.integers(0, 100_000, n), pa.int64()),
                      "v": pa.array(rng.random(n)),
                      "s": pa.array([f"payload-{i}" for i in range(n)])})
    path = tmp_path / "sparse.parquet"
    pq.write_table(table, path, row_group_size=50_000, data_page_size=4000,
                   write_page_index=True)
    filters = [("r", "<", 100)]  # about 0.1%, scattered
    with quiver.ParquetFile(str(path)) as f:
        got = pa.table(f.read(columns=["v", "s"], filters=filters))
        stats = f.read_stats
    want = oracle(path, ["v", "s"], filters)
    assert got.equals(want)
    matches = want.num_rows
    assert 50 < matches < 200
    # r at the rows its page index keeps (the same read of r alone says how
    # many); v and s at the covering runs of the matches (matches closer than
    # the merge gap of 1024 rows decode the rows between them).
    with quiver.ParquetFile(str(path)) as f:
        f.read(columns=["r"], filters=filters)
        r_decoded = f.read_stats["values_decoded"]
    assert r_decoded > n // 2
    payload = stats["values_decoded"] - r_decoded
    assert 2 * matches <= payload <= 2 * n // 2, (payload, matches)
    # The payload's pages without a match are neither read nor decompressed.
    assert stats["pages_skipped"] > 0
    with quiver.ParquetFile(str(path)) as f:
        f.read(columns=["v", "s", "r"])
        assert f.read_stats["values_decoded"] == 3 * n
    # Batch by batch the same saving.
    with quiver.ParquetFile(str(path)) as f:
        rows = sum(b.num_rows for b in f.iter_batches(batch_size=4096, columns=["v", "s"],
                                                      filters=filters))
        assert rows == matches
        payload = f.read_stats["values_decoded"] - r_decoded
        assert 2 * matches <= payload <= 2 * n // 2, (payload, matches)


# ---- quiver cat --where ---------------------------------------------------------

CLI = pathlib.Path(os.environ.get("QUIVER_CLI", str(pathlib.Path(__file__).resolve().parents[2]
                                                    / "build" / "release" / "quiver")))
needs_cli = pytest.mark.skipif(not (CLI.is_file() and os.access(CLI, os.X_OK)),
                               reason=f"the quiver CLI is not built at {CLI}")


def cat(*args):
    return subprocess.run([str(CLI), "cat", *map(str, args)], capture_output=True, timeout=60)


@needs_cli
def test_cli_cat_where(tmp_path):
    path = tmp_path / "cli.parquet"
    table = pa.table({"x": list(range(10_000)), "name": [f"n{i % 5}" for i in range(10_000)],
                      "f": [float(i) / 3 for i in range(10_000)]})
    pq.write_table(table, path, row_group_size=1000, write_page_index=True)
    where = "x >= 5 and x < 4000 and (name == 'n3' or f > 1300) and not x in (8, 13)"
    got = cat(path, "--where", where, "--format", "csv", "--columns", "name,x")
    assert got.returncode == 0, got.stderr
    expr = ((pc.field("x") >= 5) & (pc.field("x") < 4000)
            & ((pc.field("name") == "n3") | (pc.field("f") > 1300)) & ~pc.field("x").isin([8, 13]))
    want = table.filter(expr).select(["name", "x"])
    out = pa_csv.read_csv(io.BytesIO(got.stdout))
    assert out.column("x").to_pylist() == want.column("x").to_pylist()
    assert out.column("name").to_pylist() == want.column("name").to_pylist()
    # --head N stops at N matches.
    got = cat(path, "--where", "x > 5000", "--head", 3, "--format", "jsonl", "--columns", "x")
    assert got.returncode == 0 and got.stdout.decode().split() == [
        '{"x":5001}', '{"x":5002}', '{"x":5003}']
    # A syntax error: exit 2 naming the column; a missing column: exit 1, pyarrow's words.
    got = cat(path, "--where", "x >>= 5")
    assert got.returncode == 2 and b"at column 4" in got.stderr
    got = cat(path, "--where", "zz = 1")
    assert got.returncode == 1 and b"No match for FieldRef.Name(zz)" in got.stderr
    # Arrow IPC input is filtered too.
    ipc = tmp_path / "cli.arrow"
    with pa.ipc.new_file(ipc, table.schema) as w:
        w.write_table(table, max_chunksize=700)
    got = cat(ipc, "--where", "x < 3 or x == 9999", "--format", "jsonl")
    assert got.returncode == 0 and [json.loads(r)["x"] for r in got.stdout.split()] == [0, 1, 2,
                                                                                       9999]


# ---- quiver cat --stats -------------------------------------------------------------

READ_STATS_KEYS = ["row_groups_pruned_statistics", "row_groups_pruned_bloom",
                   "row_groups_pruned_dictionary", "pages_skipped", "pages_decompressed",
                   "bytes_read", "values_decoded"]  # docs/interfaces.md, in that order


@needs_cli
def test_cli_cat_stats(tmp_path):
    """`cat --stats` prints, after the rows, the read's counters on stderr as `key: value`
    lines. `cat` reads batch by batch, so they are those of quiver.ParquetFile(...)
    .iter_batches(filters=...) with the CLI's batches (65,536 rows for csv) for the same
    file, filter and columns; the row groups pruned and the pages skipped and decompressed
    are also those of .read(filters=...), while bytes_read and values_decoded may differ from
    it (a batch read asks for each next page header with a window, then for the page; how
    many values around the matches are decoded depends on where batches end). The rows are
    pyarrow's decode-then-filter; the row groups pruned are those pyarrow's statistics rule
    out."""
    n = 200_000
    rng = np.random.default_rng(45)
    table = pa.table({"id": pa.array(np.arange(n), pa.int64()),
                      "g": pa.array([f"g{i % 7}" for i in range(n)]),
                      "v": pa.array(rng.random(n))})
    path = tmp_path / "stats.parquet"
    pq.write_table(table, path, row_group_size=50_000, data_page_size=16_384,
                   write_page_index=True, compression="zstd")
    row_group_bounds = [(rg.column(0).statistics.min, rg.column(0).statistics.max)
                        for rg in (pq.ParquetFile(path).metadata.row_group(i)
                                        for i in range(4))]
    cases = [  # (--where, the same as filters=, columns)
        ("id >= 120000 and id < 121000", [("id", ">=", 120_000), ("id", "<", 121_000)], None),
        ("id >= 120000 and id < 121000 and g == 'g3'",
         [("id", ">=", 120_000), ("id", "<", 121_000), ("g", "==", "g3")], ["v"]),
        ("id < 10 or id >= 199990", [[("id", "<", 10)], [("id", ">=", 199_990)]], ["g", "id"]),
        ("v > 2", [("v", ">", 2)], ["id"]),  # no match: every row group pruned
        ("g in ('g1', 'g5')", [("g", "in", ["g1", "g5"])], ["id"]),  # no pruning
    ]
    for where, filters, columns in cases:
        args = [path, "--where", where, "--stats", "--format", "csv"]
        if columns is not None:
            args += ["--columns", ",".join(columns)]
        got = cat(*args)
        assert got.returncode == 0, (where, got.stderr)
        with quiver.ParquetFile(str(path)) as f:
            f.read(columns=columns, filters=filters)
            whole = f.read_stats
            sum(b.num_rows for b in f.iter_batches(batch_size=65_536, columns=columns,
                                                   filters=filters))
            want = f.read_stats
        assert list(want) == READ_STATS_KEYS
        lines = got.stderr.decode().splitlines()
        assert lines == [f"{k}: {v}" for k, v in want.items()], (where, lines, want)
        for key in READ_STATS_KEYS[:5]:  # the pruning and page counters
            assert want[key] == whole[key], (where, key, want, whole)
        # The rows: pyarrow's decode-then-filter.
        oracle = table.filter(pq.filters_to_expression(filters))
        out = pa_csv.read_csv(io.BytesIO(got.stdout)) if got.stdout.strip() else None
        assert (0 if out is None else out.num_rows) == oracle.num_rows, where
        if out is not None and "id" in out.column_names:
            assert out.column("id").to_pylist() == oracle.column("id").to_pylist()
        # Row groups pruned by statistics: those whose id bounds (pyarrow's metadata) miss
        # an id-only range.
        stats = dict(line.split(": ") for line in lines)
        if where.startswith("id >= 120000"):
            assert int(stats["row_groups_pruned_statistics"]) == sum(
                1 for lo, hi in row_group_bounds if hi < 120_000 or lo >= 121_000) == 3
            assert int(stats["pages_skipped"]) > 0
        if where == "v > 2":
            assert int(stats["row_groups_pruned_statistics"]) == 4
            assert int(stats["pages_decompressed"]) == int(stats["values_decoded"]) == 0

    # Without --where: the plain read's counters (every page, every value), those of
    # iter_batches (a plain batch read asks for more bytes than ReadTable's row-group
    # prefetch: it reads each next page header with a window, then the page again).
    got = cat(path, "--stats", "--format", "csv", "--columns", "id,g")
    assert got.returncode == 0, got.stderr
    with quiver.ParquetFile(str(path)) as f:
        sum(b.num_rows for b in f.iter_batches(batch_size=65_536, columns=["id", "g"]))
        want = f.read_stats
        f.read(columns=["id", "g"])
        whole = f.read_stats
    assert got.stderr.decode().splitlines() == [f"{k}: {v}" for k, v in want.items()]
    assert want["values_decoded"] == whole["values_decoded"] == 2 * n
    assert want["pages_decompressed"] == whole["pages_decompressed"]
    # --stats goes to stderr only: stdout holds the rows alone.
    assert pa_csv.read_csv(io.BytesIO(got.stdout)).num_rows == n
    # --head N: the counters of the batches read until N rows were out, fewer than all.
    got = cat(path, "--stats", "--format", "csv", "--head", 5, "--columns", "id,g")
    assert got.returncode == 0, got.stderr
    head = dict(line.split(": ") for line in got.stderr.decode().splitlines())
    assert list(head) == READ_STATS_KEYS
    assert 0 < int(head["pages_decompressed"]) < want["pages_decompressed"]
    assert 0 < int(head["values_decoded"]) < want["values_decoded"]
    # A reader that goes away (`| head -1`) ends quietly, the counters still printed.
    proc = subprocess.Popen([str(CLI), "cat", str(path), "--stats", "--format", "csv"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0
    lines = proc.stderr.read().decode().splitlines()
    proc.stderr.close()
    assert [line.split(": ")[0] for line in lines] == READ_STATS_KEYS
    # An Arrow IPC input has no read stats.
    ipc = tmp_path / "stats.arrow"
    with pa.ipc.new_file(ipc, table.schema) as w:
        w.write_table(table.slice(0, 1000))
    got = cat(ipc, "--where", "id < 3", "--stats", "--format", "jsonl")
    assert got.returncode == 0, got.stderr
    assert got.stderr.decode().splitlines() == ["read_stats: none"]
    assert [json.loads(r)["id"] for r in got.stdout.split()] == [0, 1, 2]
    # An error prints no stats.
    got = cat(path, "--where", "zz = 1", "--stats")
    assert got.returncode == 1 and b"row_groups_pruned" not in got.stderr
    # The help names the flag.
    helped = subprocess.run([str(CLI), "cat", "--help"], capture_output=True, timeout=60)
    assert b"--stats" in helped.stdout
