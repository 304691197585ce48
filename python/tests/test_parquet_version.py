"""The writer options `version`, `coerce_timestamps` and `allow_truncated_timestamps`,
judged by pyarrow 26 writing the same table with the same options.

For every type of the writer tests (test_parquet_write.TYPES, flat and nested) under each
version ('1.0', '2.4', '2.6') and some page/dictionary options, Quiver's file has
  - pyarrow's Parquet schema: the raw SchemaElements (physical, logical and converted
    types, lengths, precision and scale, read by parquet_pages), FileMetaData.version;
  - pyarrow's encodings: ColumnMetaData.encodings and encoding_stats, every page's type
    and encoding (PLAIN_DICTIONARY under '1.0'), pages cut where pyarrow cuts them;
  - pyarrow's reading: pq.read_table gives the Arrow schema and values it gives for
    pyarrow's own file (uint32 read as int64 under '1.0', nanoseconds as microseconds up
    to '2.4', ...);
  - pyarrow's column chunk statistics (those of the values as written).
Where pyarrow refuses to write (a timestamp that would lose precision, or overflow), Quiver
refuses too, with an InvalidError (a ValueError, as pyarrow's ArrowInvalid) naming the
value, the column and the option to set, and writes nothing.

Intended differences, listed where they apply: Quiver annotates INT32/INT64 signed
integers with INT(n, true) / INT_n (pyarrow 26 leaves them plain); the reference is written
with store_decimal_as_integer=True and write_time_adjusted_to_utc=True, which is how
Quiver stores decimals and times. Two more in test_values_under_null_parents_are_not_checked.
"""

from __future__ import annotations

import datetime
import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parquet_pages
import quiver
from arrow_samples import NEST_KINDS, nested_column
from test_parquet_write import (TYPES, compare_file_statistics, compare_page_layout, leaf_kinds, map_type,
                                retype_table, strip_views, tables_match, write_reference,
                                write_stats_reference)

VERSIONS = ["1.0", "2.4", "2.6"]

# How Quiver stores decimals and times, asked of pyarrow for the reference file.
REFERENCE_EXTRA = {"store_decimal_as_integer": True, "write_time_adjusted_to_utc": True}

# parquet.thrift ids: SchemaElement fields and ConvertedType values.
TYPE, CONVERTED, LOGICAL = 1, 6, 10
INT_32, INT_64 = 17, 18


def _to_micros(t):
    if pa.types.is_timestamp(t) and t.unit == "ns":
        return pa.timestamp("us", t.tz)
    if pa.types.is_dictionary(t):
        return pa.dictionary(t.index_type, _to_micros(t.value_type), t.ordered)
    return map_type(t, _to_micros)


def _micros_exact(arr):
    """`arr` with every nanosecond timestamp (nested too) made a whole number of
    microseconds, so that versions '1.0' and '2.4' can store it."""
    us = _to_micros(arr.type)
    if us == arr.type:
        return arr
    return arr.cast(us, safe=False).cast(arr.type)


def normalized_schema(path):
    """The file's SchemaElements as parquet_pages decodes them (dicts of field ids)."""
    return [dict(e) for e in parquet_pages.read_file(path).schema]


def compare_schema(q_path, p_path):
    """Quiver's SchemaElements equal pyarrow's, but for the signed INT32/INT64 annotation
    and the root's repetition_type (Arrow C++ writes REQUIRED, Quiver none: the root has no
    repetition in parquet-format)."""
    q, p = normalized_schema(q_path), normalized_schema(p_path)
    assert len(q) == len(p), (len(q), len(p))
    assert q[0].pop(3, None) is None and p[0].pop(3, None) in (None, 0)
    for a, b in zip(q, p):
        name = a.get(4)
        if a != b and a.get(CONVERTED) in (INT_32, INT_64) and CONVERTED not in b and LOGICAL not in b:
            integer = a.get(LOGICAL, {}).get(10, {})
            assert integer.get(2) is True and integer.get(1) == (32 if a[CONVERTED] == INT_32 else 64), a
            a = {k: v for k, v in a.items() if k not in (CONVERTED, LOGICAL)}
        assert a == b, (name, a, b)


def compare_encodings(q_path, p_path, schema):
    """ColumnMetaData.encodings and encoding_stats equal pyarrow's (Quiver lists v2 data
    pages as DATA_PAGE_V2 in encoding_stats where Arrow C++ says DATA_PAGE). Skipped as in
    compare_page_layout: null-type columns (pyarrow writes an empty dictionary page) and
    Arrow dictionary columns (pyarrow's dictionary page holds the unused values too)."""
    q, p = parquet_pages.read_file(q_path), parquet_pages.read_file(p_path)
    p_groups = [rg for rg in p.row_groups if rg.num_rows > 0]
    assert len(q.row_groups) == len(p_groups)
    leaves = leaf_kinds(schema, dictionaries=True)
    for qg, pg in zip(q.row_groups, p_groups):
        for a, b, leaf in zip(qg.columns, pg.columns, leaves):
            if pa.types.is_null(leaf) or pa.types.is_dictionary(leaf):
                continue
            where = f"row group {a.row_group} column {'.'.join(a.path)}"
            assert a.encodings == b.encodings, (where, a.encodings, b.encodings)
            stats = [(t.replace("DATA_PAGE_V2", "DATA_PAGE"), e, c) for t, e, c in a.encoding_stats]
            assert stats == b.encoding_stats, (where, stats, b.encoding_stats)


def compare_reading(q_path, p_path):
    """pyarrow reads Quiver's file as it reads its own (view types aside: the reference
    may have been written with them stripped)."""
    got, ref = pq.read_table(q_path), pq.read_table(p_path)
    if not got.schema.equals(ref.schema, check_metadata=True):
        stripped = retype_table(got, strip_views)
        assert stripped.schema.equals(ref.schema), (got.schema, ref.schema)
    ok, msg = tables_match(got, ref)
    assert ok, msg
    return got


def write_and_compare(table, tmp_path, options, name="t"):
    """Writes `table` with Quiver and with pyarrow (same options), compares everything."""
    q_path, p_path = tmp_path / f"{name}.quiver.parquet", tmp_path / f"{name}.pyarrow.parquet"
    quiver.write_parquet(table, str(q_path), **options)
    extra = dict(REFERENCE_EXTRA, **{k: options[k] for k in ("bloom_filter_options", "use_content_defined_chunking")
                                     if k in options})
    write_reference(table, str(p_path), options, extra=extra)
    qf = parquet_pages.read_file(q_path)
    assert qf.version == parquet_pages.read_file(p_path).version == (1 if options.get("version") == "1.0" else 2)
    compare_schema(q_path, p_path)
    compare_encodings(q_path, p_path, table.schema)
    compare_page_layout(q_path, p_path, table.schema)
    got = compare_reading(q_path, p_path)
    compare_file_statistics(q_path, write_stats_reference(table, str(tmp_path / f"{name}.dense.parquet"), options,
                                                          None, p_path, extra=extra))
    return got


OPTION_SETS = {
    "defaults": {},
    "plain": {"use_dictionary": False},
    "v2_pages": {"data_page_version": "2.0"},
    "fallback": {"dictionary_pagesize_limit": 24, "data_page_size": 64, "write_batch_size": 4},
}


def all_types_table():
    cols = {n: a for n, a in TYPES if len(a) == 10}
    cols["timestamp_ns"] = pa.array([None if i % 3 == 1 else i * 1000 for i in range(10)], pa.timestamp("ns"))
    return pa.table(cols)


@pytest.mark.parametrize("options", list(OPTION_SETS), ids=str)
@pytest.mark.parametrize("version", VERSIONS)
def test_every_type_every_version(tmp_path, version, options):
    """All sample types as columns of one file (nanosecond timestamps whole in
    microseconds), each version and option set."""
    table = all_types_table()
    got = write_and_compare(table, tmp_path, dict(OPTION_SETS[options], version=version))
    expected_u32 = pa.int64() if version == "1.0" else pa.uint32()
    assert got.schema.field("uint32").type == expected_u32
    assert got.column("uint32").to_pylist() == table.column("uint32").to_pylist()
    ns = got.schema.field("timestamp_ns").type
    assert ns == pa.timestamp("us" if version != "2.6" else "ns")
    # Quiver's reader reads the file as pyarrow does (PLAIN_DICTIONARY pages under '1.0').
    own = pa.table(quiver.read_table(str(tmp_path / "t.quiver.parquet")))
    assert own.schema == got.schema and own.equals(got)
    fs = parquet_pages.read_file(tmp_path / "t.quiver.parquet")
    for chunk in fs.chunks():
        for page in chunk.pages:
            if page.type == "DICTIONARY_PAGE" or page.encoding in ("PLAIN_DICTIONARY", "RLE_DICTIONARY"):
                assert page.encoding == ("PLAIN_DICTIONARY" if version == "1.0" else
                                         "PLAIN" if page.type == "DICTIONARY_PAGE" else "RLE_DICTIONARY")


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("type_name", [n for n, _ in TYPES])
def test_random_columns_every_version(tmp_path, rng, version, type_name):
    """A random column of each type, flat and nested (random layers), nullable or not,
    under each version with a random option set."""
    leaf_type = dict(TYPES)[type_name].type
    for trial in range(2):
        kinds = [rng.choice(NEST_KINDS) for _ in range(trial * rng.randint(1, 2))]
        nullable = pa.types.is_null(leaf_type) or rng.random() < 0.7
        arr, _ = nested_column(leaf_type, kinds, rng.randint(1, 300), rng, nullable, 0.2 if nullable else 0.0)
        if version != "2.6":
            arr = _micros_exact(arr)
        table = pa.table({"id": pa.array(range(len(arr)), pa.int64()),
                          "c": arr}, schema=pa.schema([pa.field("id", pa.int64(), False),
                                                       pa.field("c", arr.type, nullable)]))
        name = rng.choice(list(OPTION_SETS))
        write_and_compare(table, tmp_path, dict(OPTION_SETS[name], version=version), name=f"r{trial}")


def _refused_by_both(table, tmp_path, options, *words):
    """pyarrow refuses to write `table` (ArrowInvalid); so does Quiver, with an InvalidError
    (a ValueError) whose message has `words`, leaving nothing at the path or in a file
    object."""
    with pytest.raises(pa.ArrowInvalid):
        pq.write_table(table, tmp_path / "p.parquet", **options)
    with pytest.raises(quiver.InvalidError) as e:
        quiver.write_parquet(table, str(tmp_path / "q.parquet"), **options)
    assert isinstance(e.value, ValueError)
    for w in words:
        assert w in str(e.value), (w, str(e.value))
    assert not (tmp_path / "q.parquet").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    sink = io.BytesIO()
    with pytest.raises(quiver.InvalidError):
        quiver.write_parquet(table, sink, **options)
    assert sink.getvalue() == b""
    return str(e.value)


@pytest.mark.parametrize("version", ["1.0", "2.4"])
def test_lossy_nanoseconds_refused_up_to_2_4(tmp_path, version):
    """Up to '2.4', nanoseconds are stored as microseconds: a value that is not a whole
    number of microseconds is refused (even with allow_truncated_timestamps=True, as
    pyarrow: that option applies to coerce_timestamps), in a flat, nested or dictionary
    column; the message names the value, the column, `version` and
    `allow_truncated_timestamps`."""
    lossy = pa.array([1000, None, -1001, 5000], pa.timestamp("ns", tz="UTC"))
    tables = {
        "flat": pa.table({"ts": lossy}),
        "list": pa.table({"ts": pa.ListArray.from_arrays(pa.array([0, 2, 4], pa.int32()), lossy)}),
        "dictionary": pa.table({"ts": pa.DictionaryArray.from_arrays(pa.array([0, 1, 0]), lossy.slice(2))}),
    }
    for allow in (False, True):
        for name, table in tables.items():
            msg = _refused_by_both(table, tmp_path, {"version": version, "allow_truncated_timestamps": allow},
                                   "-1001", "'ts", f"version '{version}'", "allow_truncated_timestamps",
                                   "coerce_timestamps='us'")
            assert "would lose data" in msg, (name, msg)
    # The way out the message gives: coerce_timestamps='us' with truncation.
    got = write_and_compare(tables["flat"], tmp_path, {"version": version, "coerce_timestamps": "us",
                                                       "allow_truncated_timestamps": True})
    assert got.column("ts").cast(pa.int64()).to_pylist() == [1, None, -1, 5]


UNITS = ["s", "ms", "us", "ns"]


def _timestamp_values(unit):
    """Values of every kind for a unit: exact in every coarser unit, lossy by one, negative
    lossy (truncation is toward zero), nulls, and for s and ms the extremes that survive
    scaling up to microseconds and one past them (an overflow there, not in milliseconds)."""
    per_second = {"s": 1, "ms": 1000, "us": 10 ** 6, "ns": 10 ** 9}[unit]
    limit = (2 ** 63 - 1) // (10 ** 6 // min(per_second, 10 ** 6)) if per_second < 10 ** 6 else None
    vals = [0, per_second * 86400 * 365 * 30, 1, -1, per_second + 1, -per_second - 1, 1999, -1999, None]
    if limit is not None:
        vals += [limit, -limit, limit + 1]
    return vals


@pytest.mark.parametrize("tz", [None, "UTC", "Europe/Paris"])
@pytest.mark.parametrize("unit", UNITS)
def test_coerce_timestamps_matrix(tmp_path, unit, tz):
    """Every unit and time zone x coerce_timestamps 'ms'/'us' x allow_truncated_timestamps x
    version: where pyarrow writes, Quiver's file equals pyarrow's (schema, values,
    statistics); where pyarrow refuses (a lossy value without truncation, or an overflow),
    Quiver refuses with the value and the option named."""
    typ = pa.timestamp(unit, tz=tz)
    exact = pa.array([v * 1000 if v is not None and unit != "s" else v for v in [0, 5, -7, None, 86400]], typ) \
        if unit in ("us", "ns") else pa.array([0, 5, -7, None, 86400], typ)
    mixed = pa.array(_timestamp_values(unit), typ)
    outcomes = {"refused": 0, "written": 0}
    for coerce in ("ms", "us"):
        for allow in (False, True):
            for version in VERSIONS:
                options = {"coerce_timestamps": coerce, "allow_truncated_timestamps": allow, "version": version}
                for label, arr in (("exact", exact), ("mixed", mixed)):
                    table = pa.table({"ts": arr, "n": pa.array(range(len(arr)))})
                    try:
                        pq.write_table(table, tmp_path / "probe.parquet", **options)
                    except pa.ArrowInvalid as e:
                        msg = _refused_by_both(table, tmp_path, options, "'ts'")
                        outcomes["refused"] += 1
                        if "overflow" in str(e):
                            assert "integer overflow when casting timestamp value" in msg, msg
                        else:
                            assert f"coerce_timestamps='{coerce}'" in msg and \
                                "allow_truncated_timestamps=True" in msg, msg
                        continue
                    got = write_and_compare(table, tmp_path, options, name=f"{coerce}{allow}{version}{label}")
                    assert got.schema.field("ts").type == pa.timestamp(coerce, tz=tz), options
                    outcomes["written"] += 1
    assert outcomes["refused"] > 0 and outcomes["written"] > 0, outcomes


@pytest.mark.parametrize("version", VERSIONS)
def test_default_seconds_overflow_refused(tmp_path, version):
    """timestamp[s] is stored as milliseconds: a value whose milliseconds overflow int64 is
    refused, as pyarrow 26 refuses it (Quiver wrapped it around before); one that fits is
    written."""
    fits = (2 ** 63 - 1) // 1000
    table = pa.table({"s": pa.array([fits, -fits, None], pa.timestamp("s"))})
    got = write_and_compare(table, tmp_path, {"version": version})
    assert got.column("s").cast(pa.int64()).to_pylist() == [fits * 1000, -fits * 1000, None]
    msg = _refused_by_both(pa.table({"s": pa.array([fits + 1], pa.timestamp("s"))}), tmp_path,
                           {"version": version}, "'s'", str(fits + 1), "overflow")
    assert "timestamp[s]" in msg and "timestamp[ms]" in msg


def test_other_temporal_types_are_not_coerced(tmp_path):
    """coerce_timestamps touches timestamps only: times, dates and durations are written as
    without it (as pyarrow)."""
    table = pa.table({
        "t32s": pa.array([1, 86399, None], pa.time32("s")),
        "t32ms": pa.array([1, 1001, None], pa.time32("ms")),
        "t64us": pa.array([1, 1001, None], pa.time64("us")),
        "t64ns": pa.array([1, 1001, None], pa.time64("ns")),
        "d32": pa.array([1, -5, None], pa.date32()),
        "d64": pa.array([86400000, 86400000 * 3, None], pa.date64()),
        "dur": pa.array([1, 1001, None], pa.duration("ns")),
    })
    for coerce in ("ms", "us"):
        for version in VERSIONS:
            write_and_compare(table, tmp_path, {"coerce_timestamps": coerce, "version": version},
                              name=f"{coerce}{version}")


def test_values_under_null_parents_are_not_checked(tmp_path):
    """Only the values written are checked: a null slot, or a slot under a null list, map or
    struct, may hold any value. pyarrow agrees for null slots and null lists; for a value
    under a null struct it refuses the file (it checks the struct child's own slots), where
    Quiver writes it, correctly (the value is not in the file). Listed here on purpose."""
    vals = np.array([1001, 2000, 3003], dtype=np.int64)
    valid = pa.array([True, True, False]).buffers()[1]
    hidden = pa.Array.from_buffers(pa.timestamp("ns"), 3, [valid, pa.py_buffer(vals.tobytes())], null_count=1)
    options = {"coerce_timestamps": "us"}
    # A null slot holding 3003 (the other values need truncating: only 2000 is kept).
    flat = pa.table({"a": hidden.slice(1)})
    got = write_and_compare(flat, tmp_path, options, name="flat")
    assert got.column("a").cast(pa.int64()).to_pylist() == [2, None]
    # A null list whose child range holds 1001.
    lst = pa.ListArray.from_arrays(pa.array([0, 1, 3], pa.int32()),
                                   pa.array([1001, 2000, 3000], pa.timestamp("ns")), mask=pa.array([True, False]))
    got = write_and_compare(pa.table({"l": lst}), tmp_path, options, name="list")
    assert got.column("l").to_pylist()[0] is None
    # A null struct whose child holds 1001 (and a timestamp[s] whose milliseconds overflow).
    struct = pa.StructArray.from_arrays([pa.array([1001, 2000], pa.timestamp("ns")),
                                         pa.array([2 ** 62, 5], pa.timestamp("s"))],
                                        names=["t", "s"], mask=pa.array([True, False]))
    table = pa.table({"st": struct})
    with pytest.raises(pa.ArrowInvalid):
        pq.write_table(table, tmp_path / "p.parquet", **options)
    quiver.write_parquet(table, str(tmp_path / "q.parquet"), **options)
    got = pq.read_table(tmp_path / "q.parquet")
    assert got.column("st").to_pylist() == [None, {"t": datetime.datetime(1970, 1, 1, 0, 0, 0, 2),
                                                   "s": datetime.datetime(1970, 1, 1, 0, 0, 5)}]


def test_coerced_column_dictionary_bloom_cdc_are_the_written_values(tmp_path):
    """A coerced, truncated column's dictionary page, bloom filter, statistics and CDC pages
    are pyarrow's: they follow the values as written (truncated to milliseconds), not the
    nanoseconds given. (CDC's chunk boundaries hash the Arrow values given, in both.)"""
    from test_parquet_bloom import _blooms
    g = np.random.default_rng(5)
    ns = g.integers(-10 ** 15, 10 ** 15, 20000) // 7
    ns[::5] = ns[1::5][: len(ns[::5])]  # repeats, so the dictionary pays
    table = pa.table({"t": pa.array(ns, pa.timestamp("ns", tz="UTC"), mask=g.random(20000) < 0.1),
                      "u": pa.array(ns // 1000, pa.timestamp("us"))})
    # (Uncompressed, so that page bodies compare as the values: snappy builds may differ.)
    base = {"coerce_timestamps": "ms", "allow_truncated_timestamps": True, "compression": "none"}
    sets = {
        "dictionary": dict(base, dictionary_pagesize_limit=1 << 20),
        "fallback": dict(base, dictionary_pagesize_limit=4096),
        "bloom": dict(base, bloom_filter_options={"t": {"ndv": 20000, "fpp": 0.05},
                                                  "u": {"ndv": 20000, "fpp": 0.05}}),
        "cdc": dict(base, use_content_defined_chunking={"min_chunk_size": 2048, "max_chunk_size": 8192},
                    use_dictionary=False),
    }
    for name, options in sets.items():
        write_and_compare(table, tmp_path, options, name=name)
        q = (tmp_path / f"{name}.quiver.parquet").read_bytes()
        p = (tmp_path / f"{name}.pyarrow.parquet").read_bytes()
        fq, fp = parquet_pages.read_structure(q), parquet_pages.read_structure(p)
        for a, b in zip(fq.chunks(), fp.chunks()):
            qd, pd = a.dictionary_pages, b.dictionary_pages
            assert len(qd) == len(pd), name
            for x, y in zip(qd, pd):
                assert parquet_pages.page_body(q, x) == parquet_pages.page_body(p, y), (name, a.path)
            assert [x.num_values for x in a.data_pages] == [y.num_values for y in b.data_pages], (name, a.path)
        if name == "bloom":
            assert _blooms(q) == _blooms(p)


def test_bad_values(tmp_path):
    """Values pyarrow refuses are refused, naming the option (InvalidError is a ValueError,
    as pyarrow's)."""
    table = pa.table({"t": pa.array([1], pa.timestamp("ns"))})
    for options, word in [({"version": "2.0"}, "version"), ({"version": "1"}, "version"),
                          ({"version": 2.6}, "version"), ({"coerce_timestamps": "ns"}, "coerce_timestamps"),
                          ({"coerce_timestamps": "s"}, "coerce_timestamps"),
                          ({"allow_truncated_timestamps": "yes"}, "allow_truncated_timestamps")]:
        with pytest.raises(quiver.InvalidError, match=word):
            quiver.write_parquet(table, str(tmp_path / "x.parquet"), **options)
        if "allow_truncated_timestamps" not in options:
            with pytest.raises(ValueError):
                pq.write_table(table, tmp_path / "p.parquet", **options)
    # None means the default, as in pyarrow.
    quiver.write_parquet(table, str(tmp_path / "x.parquet"), version=None, coerce_timestamps=None)
    assert parquet_pages.read_file(tmp_path / "x.parquet").version == 2
