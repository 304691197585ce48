"""Column chunk statistics written by Quiver, read through pyarrow's metadata API (and the
independent parquet_pages reader for what pyarrow does not expose: exactness flags,
nan_count, page header statistics), compared with what pyarrow writes for the same data.

Quiver's rules (docs/interfaces.md, "Statistics"): TYPE_ORDER; floats: NaN never in
min/max, all-NaN -> no min/max, a zero min is -0.0 and a zero max +0.0, nan_count written;
byte arrays: bounds longer than 64 bytes truncated (min: prefix at a UTF-8 boundary, max:
prefix incremented) and flagged inexact.
"""

import math
import struct

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parquet_pages
import quiver
from arrow_samples import random_array, writer_samples
from test_parquet_write import compare_file_statistics, write_stats_reference

TYPES = writer_samples()


def write_both(tmp_path, table, name="t", **options):
    """Quiver's file and pyarrow's file to compare its statistics with."""
    q, p = tmp_path / f"{name}.q.parquet", tmp_path / f"{name}.p.parquet"
    quiver.write_parquet(table, str(q), **options)
    write_stats_reference(table, str(p), options)
    return q, p


def chunk_stats(path, rg=0, col=0):
    return pq.ParquetFile(path).metadata.row_group(rg).column(col).statistics


def raw_stats(path, rg=0, col=0):
    return parquet_pages.read_file(path).row_groups[rg].columns[col].statistics


@pytest.mark.parametrize("name,arr", TYPES, ids=[n for n, _ in TYPES])
@pytest.mark.parametrize("dictionary", [True, False], ids=["dict", "plain"])
def test_every_type_matches_pyarrow(tmp_path, rng, name, arr, dictionary):
    """Random data of each type, several row groups, nulls and sliced input."""
    n = rng.randint(30, 200)
    data = random_array(arr.type, n + 5, rng, null_prob=rng.choice([0.0, 0.2, 0.9])).slice(3, n)
    table = pa.table({"c": data, "all_null": pa.nulls(n, arr.type)})
    q, p = write_both(tmp_path, table, row_group_size=max(1, n // 3), use_dictionary=dictionary)
    compare_file_statistics(q, p)


@pytest.mark.parametrize("string", [True, False], ids=["string", "binary"])
def test_long_byte_arrays_are_truncated(tmp_path, rng, string):
    """Bounds over 64 bytes: Quiver's min is a prefix of the true min (cut at a UTF-8
    boundary for strings), its max is greater than the true max, both flagged inexact and
    at most 64 bytes; short bounds stay exact. pyarrow keeps them whole."""
    t = pa.string() if string else pa.binary()
    for trial in range(20):
        data = random_array(t, 40, rng, null_prob=0.1, long_values=trial % 2 == 0)
        if trial % 4 == 1:
            data = pa.array(["é" * 40, "é" * 40 + "z", "\U0010ffff" * 20, "\U0010ffff" * 17] if string
                            else [b"\xff" * 70, b"\xff" * 80, b"\x00" * 65], t)
        table = pa.table({"c": data})
        q, p = write_both(tmp_path, table, name=f"t{trial}")
        compare_file_statistics(q, p)
        qs, ps, exact = chunk_stats(q), chunk_stats(p), raw_stats(q)
        if not ps.has_min_max:
            continue
        true_min, true_max = ps.min_raw, ps.max_raw
        assert len(qs.min_raw) <= 64 and true_min.startswith(qs.min_raw)
        assert exact.is_min_value_exact == (qs.min_raw == true_min)
        if string:
            qs.min_raw.decode("utf-8")  # a whole number of code points
        if len(true_max) > 64 and qs.max_raw != true_max:
            assert len(qs.max_raw) <= 64 and qs.max_raw > true_max and exact.is_max_value_exact is False
            if string:
                qs.max_raw.decode("utf-8")
        else:
            # Short, or cannot be incremented (all 0xFF / U+10FFFF): kept whole and exact.
            assert qs.max_raw == true_max and exact.is_max_value_exact is True


def _floats(values, t):
    if t == pa.float16():
        mask = np.array([v is None for v in values])
        return pa.array(np.array([0.0 if v is None else v for v in values], dtype=np.float16), mask=mask)
    return pa.array(values, t)


def _bits(v, t):
    fmt = {pa.float16(): "<e", pa.float32(): "<f", pa.float64(): "<d"}[t]
    return struct.pack(fmt, v)


FLOAT_CASES = [
    # values, expected (min, max) or None for no min/max, expected nan_count
    ([float("nan"), 1.0, -2.0], (-2.0, 1.0), 1),
    ([float("nan"), float("nan")], None, 2),
    ([float("nan"), None], None, 1),
    ([0.0, 1.0], (-0.0, 1.0), 0),
    ([-0.0, 1.0], (-0.0, 1.0), 0),
    ([-1.0, 0.0], (-1.0, 0.0), 0),
    ([-1.0, -0.0], (-1.0, 0.0), 0),
    ([0.0, -0.0, float("nan")], (-0.0, 0.0), 1),
    ([-0.0], (-0.0, 0.0), 0),
    ([float("-inf"), float("inf"), float("nan")], (float("-inf"), float("inf")), 1),
    ([None, None], None, 0),
]


@pytest.mark.parametrize("t", [pa.float16(), pa.float32(), pa.float64()], ids=str)
@pytest.mark.parametrize("dictionary", [True, False], ids=["dict", "plain"])
@pytest.mark.parametrize("values,expected,nans", FLOAT_CASES, ids=[repr(c[0]) for c in FLOAT_CASES])
def test_float_nan_and_zero(tmp_path, t, dictionary, values, expected, nans):
    table = pa.table({"c": _floats(values, t)})
    q, p = write_both(tmp_path, table, use_dictionary=dictionary)
    qs, ps = chunk_stats(q), chunk_stats(p)
    raw, praw = raw_stats(q), raw_stats(p)
    assert qs.null_count == sum(v is None for v in values)
    assert raw.nan_count == nans
    if expected is None:
        assert not qs.has_min_max
        assert raw.min_value is None and raw.max_value is None
    else:
        assert qs.has_min_max
        assert (raw.min_value, raw.max_value) == (_bits(expected[0], t), _bits(expected[1], t)), (qs.min, qs.max)
    # pyarrow applies the same rules (a difference would be reported here).
    assert ps.has_min_max == qs.has_min_max
    assert (praw.min_value, praw.max_value) == (raw.min_value, raw.max_value), ((ps.min, ps.max), (qs.min, qs.max))


def test_float_rules_in_page_headers_and_column_index(tmp_path):
    """Page statistics follow the same rules, page by page (one page per 2 rows here)."""
    vals = [float("nan"), float("nan"), 0.0, 3.0, -0.0, -5.0, None, float("nan")]
    table = pa.table({"c": pa.array(vals, pa.float64())})
    path = tmp_path / "f.parquet"
    quiver.write_parquet(table, str(path), max_rows_per_page=2, data_page_version="2.0", use_dictionary=False)
    data = path.read_bytes()
    fs = parquet_pages.read_structure(data)
    chunk = fs.row_groups[0].columns[0]
    pages = chunk.data_pages
    assert [p.num_rows for p in pages] == [2, 2, 2, 2]
    d = lambda b: None if b is None else struct.unpack("<d", b)[0]
    got = [(d(p.statistics.min_value), d(p.statistics.max_value), p.statistics.null_count) for p in pages]
    assert got[0] == (None, None, 0)
    assert got[1] == (-0.0, 3.0, 0) and math.copysign(1, got[1][0]) == -1
    assert got[2] == (-5.0, 0.0, 0) and math.copysign(1, got[2][1]) == 1
    assert got[3] == (None, None, 1)
    # NaN counts: in the chunk statistics and the column index (page headers may omit them,
    # as Arrow C++ does).
    assert [p.statistics.nan_count for p in pages] in ([2, 0, 0, 1], [None] * 4)
    assert chunk.statistics.nan_count == 3
    # A page with values but no bounds (NaNs only) leaves the chunk without a column index,
    # as Arrow C++ writes it (it would need min/max for a page that is not a null page).
    assert chunk.column_index_offset is None
    p = tmp_path / "p.parquet"
    pq.write_table(table, p, max_rows_per_page=2, data_page_version="2.0", use_dictionary=False,
                   write_page_index=True)
    assert parquet_pages.read_structure(p.read_bytes()).row_groups[0].columns[0].column_index_offset is None

    # Without such a page, the column index carries the NaN counts.
    vals = [float("nan"), 1.0, 0.0, 3.0, -0.0, -5.0, None, 2.0]
    quiver.write_parquet(pa.table({"c": pa.array(vals, pa.float64())}), str(path),
                         max_rows_per_page=2, data_page_version="2.0", use_dictionary=False)
    data = path.read_bytes()
    chunk = parquet_pages.read_structure(data).row_groups[0].columns[0]
    ci = parquet_pages.parse_column_index(data, chunk.column_index_offset, chunk.column_index_length)
    assert ci["null_pages"] == [False, False, False, False]
    assert ci["null_counts"] == [0, 0, 0, 1]
    assert ci["nan_counts"] == [1, 0, 0, 0]
    assert [d(v) for v in ci["min_values"]] == [1.0, 0.0, -5.0, 2.0]
    assert math.copysign(1, d(ci["min_values"][1])) == -1  # a zero min is -0.0


@pytest.mark.parametrize("t,values", [
    (pa.uint32(), [0, 1, 2**31, 2**32 - 1, None]),
    (pa.uint64(), [0, 2**63, 2**64 - 1, 5]),
    (pa.uint8(), [255, 0, 128]),
    (pa.int64(), [-(2**63), 2**63 - 1, 0]),
    (pa.decimal128(30, 2), [-1, 10**27, -(10**27), 0]),
    (pa.decimal256(60, 0), [-(10**59), 10**59, -1]),
    (pa.decimal128(5, 1), [-12.5, 3, 9999.9]),
    (pa.decimal64(16, 3), [-1, 1]),
    (pa.binary(3), [b"\xff\x00\x00", b"\x00\xff\xff", b"\x7f\x80\x80"]),
    (pa.string(), ["", "a", "\u00e9", "z" * 64]),
    (pa.bool_(), [True, None, True]),
    (pa.date64(), [0, 86400000 * -365, 86400000 * 366]),
    (pa.time32("s"), [0, 86399, 12]),
    (pa.timestamp("s", tz="UTC"), [-(10**9), 10**9]),
], ids=lambda x: str(x) if isinstance(x, pa.DataType) else "")
def test_type_order(tmp_path, t, values):
    """Sort orders (unsigned, signed decimals, unsigned bytes, false < true) as pyarrow."""
    import decimal
    if pa.types.is_decimal(t):
        ctx = decimal.Context(prec=80)
        values = [decimal.Decimal(v).quantize(decimal.Decimal(1).scaleb(-t.scale), context=ctx) for v in values]
    table = pa.table({"c": pa.array(values, t)})
    q, p = write_both(tmp_path, table)
    compare_file_statistics(q, p)
    qs = chunk_stats(q)
    nonnull = [v for v in values if v is not None]
    if not pa.types.is_temporal(t):
        assert qs.min == min(nonnull) and qs.max == max(nonnull), (qs.min, qs.max)


def test_dictionary_input_uses_referenced_values_only(tmp_path):
    """An Arrow dictionary whose dictionary holds values no row uses: min/max come from the
    rows (as pyarrow)."""
    arr = pa.DictionaryArray.from_arrays(pa.array([1, 1, None, 2], pa.int8()), pa.array(["a", "m", "n", "z"]))
    table = pa.table({"c": arr})
    q, p = write_both(tmp_path, table)
    compare_file_statistics(q, p)
    s = chunk_stats(q)
    assert (s.min, s.max, s.null_count) == ("m", "n", 1)


@pytest.mark.xfail(strict=True, reason="pyarrow 26 bug, not Quiver's: statistics of an Arrow dictionary "
                   "array with a null cover the whole dictionary (min 'a', max 'b' here, where only 'b' is "
                   "used); Quiver writes min = max = 'b'")
def test_pyarrow_dictionary_statistics_with_nulls(tmp_path):
    arr = pa.DictionaryArray.from_arrays(pa.array([None, 0, 0], pa.int32()), pa.array(["b", "a"]))
    table = pa.table({"c": arr})
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    quiver.write_parquet(table, str(q))
    pq.write_table(table, str(p))
    assert (chunk_stats(q).min, chunk_stats(q).max) == ("b", "b")
    assert (chunk_stats(p).min, chunk_stats(p).max) == ("b", "b")


def test_nested_null_counts(tmp_path):
    """null_count counts every level slot below the leaf's max definition level (null lists,
    empty lists, null structs, null values), as pyarrow."""
    arr = pa.array([[1, None], None, [], [None], [2]], pa.list_(pa.int64()))
    st = pa.array([{"a": 1}, None, {"a": None}], pa.struct([("a", pa.int32())]))
    for name, col in (("l", arr), ("s", st)):
        table = pa.table({name: col})
        q, p = write_both(tmp_path, table, name=name)
        compare_file_statistics(q, p)
    assert chunk_stats(tmp_path / "l.q.parquet").null_count == 4
    assert chunk_stats(tmp_path / "s.q.parquet").null_count == 2


def test_write_statistics_option(tmp_path):
    table = pa.table({"a": [1, 2], "b": ["x", "y"], "c": [1.5, None]})
    q = tmp_path / "none.parquet"
    quiver.write_parquet(table, str(q), write_statistics=False)
    md = pq.ParquetFile(q).metadata
    for j in range(3):
        s = md.row_group(0).column(j).statistics
        assert s is None or not s.has_min_max
    fs = parquet_pages.read_file(q)
    assert all(c.statistics is None for c in fs.chunks())
    # Data page headers carry an empty Statistics struct, as pyarrow's do
    # (test_pages_without_statistics_equal_pyarrow).
    assert all(p.statistics is not None and p.statistics.null_count is None and
               p.statistics.min_value is None and p.statistics.max_value is None
               for c in fs.chunks() for p in c.pages if p.is_data)
    q2 = tmp_path / "some.parquet"
    quiver.write_parquet(table, str(q2), write_statistics=["b"])
    md = pq.ParquetFile(q2).metadata
    assert md.row_group(0).column(1).statistics.has_min_max
    assert md.row_group(0).column(1).statistics.min == "x"
    for j in (0, 2):
        s = md.row_group(0).column(j).statistics
        assert s is None or not s.has_min_max
    p2 = tmp_path / "some.p.parquet"
    pq.write_table(table, p2, write_statistics=["b"])
    compare_file_statistics(q2, p2)


def test_page_statistics_bracket_the_chunk(tmp_path, rng):
    """Page header statistics and the column index agree with the chunk statistics: the
    chunk min/max are the min/max over pages, null counts add up."""
    n = 3000
    vals = [None if rng.random() < 0.1 else rng.randint(-10**12, 10**12) for _ in range(n)]
    table = pa.table({"c": pa.array(vals, pa.int64())})
    path = tmp_path / "p.parquet"
    quiver.write_parquet(table, str(path), data_page_size=1024, write_batch_size=64, use_dictionary=False)
    data = path.read_bytes()
    chunk = parquet_pages.read_structure(data).row_groups[0].columns[0]
    pages = chunk.data_pages
    assert len(pages) > 3
    q = lambda b: struct.unpack("<q", b)[0]
    assert min(q(p.statistics.min_value) for p in pages) == q(chunk.statistics.min_value) == \
        min(v for v in vals if v is not None)
    assert max(q(p.statistics.max_value) for p in pages) == q(chunk.statistics.max_value)
    assert sum(p.statistics.null_count for p in pages) == chunk.statistics.null_count == vals.count(None)
    ci = parquet_pages.parse_column_index(data, chunk.column_index_offset, chunk.column_index_length)
    assert [q(v) for v in ci["min_values"]] == [q(p.statistics.min_value) for p in pages]
    assert [q(v) for v in ci["max_values"]] == [q(p.statistics.max_value) for p in pages]
    assert ci["null_counts"] == [p.statistics.null_count for p in pages]
    # Legacy min/max (signed order) alongside min_value/max_value, as Arrow C++.
    assert chunk.statistics.min_legacy == chunk.statistics.min_value


def page_statistics_equal_pyarrow(tmp_path, table, options):
    """Writes `table` with Quiver and pyarrow (same options) and checks that the first column
    chunk has more than 50 data pages, every page's header min/max equal to pyarrow's.
    Returns (Quiver's path, pyarrow's path, their column chunks)."""
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    quiver.write_parquet(table, str(q), **options)
    pq.write_table(table, str(p), **options)
    qs, ps = (parquet_pages.read_file(x).row_groups[0].columns[0] for x in (q, p))
    assert len(qs.data_pages) == len(ps.data_pages) > 50
    for i, (a, b) in enumerate(zip(qs.data_pages, ps.data_pages)):
        assert (a.statistics.min_value, a.statistics.max_value) == \
            (b.statistics.min_value, b.statistics.max_value), f"page {i}"
    return q, p, qs, ps


@pytest.mark.parametrize("value_type", [pa.string(), pa.binary(), pa.large_binary()], ids=str)
def test_dictionary_written_as_is_page_statistics(tmp_path, value_type):
    """An Arrow dictionary written as is: page min/max skip entries whose first 8 bytes
    (a sort key) lie strictly inside the page's range so far. Entries that tie on those
    bytes (a shared 8-byte prefix, values shorter than 8 bytes with and without trailing
    zero bytes, the empty value) must still be compared whole: every page's statistics in
    its header equal pyarrow's, over many pages; the dictionary page equals pyarrow's, with
    an entry larger than the 64 KiB pieces it is written in."""
    g = np.random.default_rng(7100)
    binary = not pa.types.is_string(value_type)
    words = {b"", b"a", b"ab", b"prefix__", b"prefix__a", b"prefix__b", b"prefix__\x00", b"zz",
             b"prefix_", b"\x7f" * 9}
    if binary:
        words |= {b"ab\x00", b"ab\x00\x00", b"\x00", b"\xff" * 8, b"\xff" * 8 + b"\x00"}
    words |= {f"prefix__{i:05d}".encode() for i in range(300)}
    words |= {g.bytes(int(g.integers(0, 12))).hex().encode() for _ in range(300)}
    # The last entry, 70,000 bytes, is in the dictionary page but used by no row (its
    # bounds would be truncated by Quiver and not by pyarrow).
    entries = sorted(words, key=lambda w: g.random()) + [b"\x01" * 70000]
    values = pa.array(entries if binary else [w.decode() for w in entries], value_type)
    indices = pa.array(g.integers(0, len(entries) - 1, 30000).astype(np.int32))
    table = pa.table({"d": pa.DictionaryArray.from_arrays(indices, values)})
    options = dict(compression="none", max_rows_per_page=500, write_batch_size=100)
    q, p, qs, ps = page_statistics_equal_pyarrow(tmp_path, table, options)
    qd, pd = q.read_bytes(), p.read_bytes()
    assert [parquet_pages.page_body(qd, x) for x in qs.pages] == [parquet_pages.page_body(pd, x) for x in ps.pages]
    compare_file_statistics(q, p)


@pytest.mark.parametrize("value_type", [pa.string(), pa.binary(), pa.large_string()], ids=str)
@pytest.mark.parametrize("dictionary", [True, False], ids=["dict", "plain"])
def test_byte_array_page_statistics_with_sort_key_ties(tmp_path, value_type, dictionary):
    """Byte-array page min/max skip values whose first 8 bytes (a sort key) lie strictly
    inside the page's range so far, in PLAIN pages and in the dictionary's pages (once per
    entry per page). Values that tie on those bytes (a shared 8-byte prefix, values shorter
    than 8 bytes with and without trailing zero bytes, the empty value, bytes above 0x7f,
    which order unsigned) must still be compared whole: every page's statistics in its
    header equal pyarrow's, over many pages, with nulls between the values."""
    g = np.random.default_rng(7200)
    binary = pa.types.is_binary(value_type)
    words = [b"", b"a", b"ab", b"prefix__", b"prefix__a", b"prefix__b", b"prefix_", b"zz",
             b"\x7f" * 9, b"prefix__\x00"]
    if binary:
        words += [b"ab\x00", b"ab\x00\x00", b"\x00", b"\xff" * 8, b"\xff" * 8 + b"\x00",
                  b"\x80", b"\x80\x00" * 5]
    else:
        words += ["é".encode(), "\u00e9t\u00e9 long".encode(), "\U0001F600".encode()]
    words += [f"prefix__{i:05d}".encode() for i in range(300)]
    words += [g.bytes(int(g.integers(0, 12))).hex().encode() for _ in range(300)]
    picks = g.integers(0, len(words), 40000)
    # Runs of one value now and then, and a sorted stretch (every value a new max).
    picks[1000:1400] = picks[1000]
    values = [words[k] for k in picks]
    values[20000:22000] = sorted(values[20000:22000])
    mask = g.random(len(values)) < 0.1
    pylist = [None if m else (v if binary else v.decode()) for v, m in zip(values, mask)]
    table = pa.table({"c": pa.array(pylist, value_type)})
    options = dict(compression="none", max_rows_per_page=700, write_batch_size=100,
                   use_dictionary=dictionary)
    q, p, _, _ = page_statistics_equal_pyarrow(tmp_path, table, options)
    compare_file_statistics(q, p)


@pytest.mark.parametrize("index_type", [pa.int8(), pa.uint8(), pa.int16(), pa.uint16(), pa.int32(),
                                        pa.uint32(), pa.int64(), pa.uint64()], ids=str)
@pytest.mark.parametrize("statistics", [True, False], ids=["stats", "nostats"])
def test_dictionary_written_as_is_every_index_type(tmp_path, index_type, statistics):
    """An Arrow dictionary written as is, indices of every integer type, nulls among them and
    a sliced input, into a file object (the in-memory sink, which keeps a dictionary page
    above 256 KiB without copying it): pages equal pyarrow's byte for byte, and the values
    read back equal; an index out of range (negative, or past the dictionary) is refused by
    column and slot."""
    g = np.random.default_rng(7200)
    entries = [f"{i:04d}-".encode() + g.bytes(int(g.integers(0, 40))).hex().encode() for i in range(120)]
    # The last entry takes the dictionary page past 256 KiB; no row uses it (its
    # statistics would be truncated by Quiver and dropped by pyarrow).
    entries.append(b"x" * 300_000)
    values = pa.array([e.decode() for e in entries])
    raw = g.integers(0, len(entries) - 1, 5000)
    mask = g.random(5000) < 0.2
    indices = pa.array(raw, type=index_type, mask=mask)
    table = pa.table({"d": pa.DictionaryArray.from_arrays(indices, values)}).slice(3, 4990)
    options = dict(compression="none", max_rows_per_page=700, write_batch_size=128,
                   write_statistics=statistics)

    class Sink:
        def __init__(self):
            self.parts = []

        def write(self, data):
            self.parts.append(bytes(data))
            return len(data)

    sink = Sink()
    quiver.write_parquet(table, sink, **options)
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    q.write_bytes(b"".join(sink.parts))
    pq.write_table(table, str(p), **options)
    assert pq.read_table(q).column("d").to_pylist() == table.column("d").to_pylist()
    qs, ps = (parquet_pages.read_file(x).row_groups[0].columns[0] for x in (q, p))
    qd, pd = q.read_bytes(), p.read_bytes()
    assert len(qs.pages) == len(ps.pages) > 5
    assert [parquet_pages.page_body(qd, x) for x in qs.pages] == [parquet_pages.page_body(pd, x) for x in ps.pages]
    if statistics:
        compare_file_statistics(q, p)
    else:
        assert not pq.ParquetFile(q).metadata.row_group(0).column(0).is_stats_set

    bad = [0, len(entries)] if index_type.id in (pa.uint8().id, pa.uint16().id, pa.uint32().id,
                                                 pa.uint64().id) else [0, -1]
    bad_table = pa.table({"d": pa.DictionaryArray.from_arrays(pa.array(bad, index_type), values,
                                                              safe=False)})
    with pytest.raises(quiver.InvalidError, match=f"'d'.*dictionary index {bad[1]} at slot 1"):
        quiver.write_parquet(bad_table, Sink(), **options)


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_large_arrow_dictionary_compressed_in_pieces(tmp_path, version):
    """A zstd-compressed Arrow dictionary page above 1 MiB is compressed piece by piece as it
    is written (in place: the same frame as compressing it whole, which the codec's own test
    checks byte for byte): it decompresses to pyarrow's dictionary page, every data page
    equals pyarrow's once decompressed, and both readers read the values back."""
    g = np.random.default_rng(7300)
    entries = [f"{i:06d}-{g.bytes(int(g.integers(0, 120))).hex()}" for i in range(12000)]
    values = pa.array(entries)
    indices = pa.array(g.integers(0, len(entries), 30000).astype(np.int32), mask=g.random(30000) < 0.1)
    table = pa.table({"d": pa.DictionaryArray.from_arrays(indices, values)})
    options = dict(compression="zstd", compression_level=1, data_page_version=version,
                   max_rows_per_page=4000)
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    quiver.write_parquet(table, str(q), **options)
    pq.write_table(table, str(p), **options)
    qs, ps = (parquet_pages.read_file(x).row_groups[0].columns[0] for x in (q, p))
    qd, pd = q.read_bytes(), p.read_bytes()
    assert qs.pages[0].uncompressed_size == ps.pages[0].uncompressed_size > (1 << 20)

    def body(data, page):
        raw = parquet_pages.page_body(data, page)
        prefix = 0
        if page.type == "DATA_PAGE_V2":
            prefix = page.def_levels_byte_length + page.rep_levels_byte_length
            if not page.is_compressed:
                return raw
        return raw[:prefix] + pa.decompress(raw[prefix:], decompressed_size=page.uncompressed_size - prefix,
                                            codec="zstd", asbytes=True)

    assert len(qs.pages) == len(ps.pages)
    assert [body(qd, x) for x in qs.pages] == [body(pd, x) for x in ps.pages]
    assert pq.read_table(q).column("d").to_pylist() == table.column("d").to_pylist()
    got = pa.table(quiver.read_table(str(q))).column("d")
    assert got.to_pylist() == table.column("d").to_pylist()


@pytest.mark.parametrize("version", ["1.0", "2.0"])
@pytest.mark.parametrize("statistics", [False, ["s"]], ids=["none", "only_s"])
def test_pages_without_statistics_equal_pyarrow(tmp_path, version, statistics):
    """Columns written without statistics get an empty Statistics struct in each data page
    header, as Arrow C++ writes it: every page (header and body) equals pyarrow's, and the
    chunk has no statistics; a column listed in write_statistics keeps its own."""
    n = 50_000
    table = pa.table({"x": pa.array([None if i % 7 == 0 else i for i in range(n)]),
                      "s": pa.array([f"v{i % 3000}" for i in range(n)])})
    options = dict(write_page_index=False, write_statistics=statistics, max_rows_per_page=20_000,
                   data_page_version=version, compression="none")
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    quiver.write_parquet(table, str(q), **options)
    pq.write_table(table, str(p), **options)
    qd, pd = q.read_bytes(), p.read_bytes()
    qf, pf = parquet_pages.read_file(q), parquet_pages.read_file(p)
    for qc, pc in zip(qf.row_groups[0].columns, pf.row_groups[0].columns):
        assert len(qc.pages) == len(pc.pages) > 2
        for a, b in zip(qc.pages, pc.pages):
            assert qd[a.offset:a.data_offset + a.compressed_size] == pd[b.offset:b.data_offset + b.compressed_size]
    meta = pq.ParquetFile(q).metadata.row_group(0)
    assert not meta.column(0).is_stats_set
    assert meta.column(1).is_stats_set == (statistics == ["s"])
