"""quiver.Table / RecordBatch / Array / ChunkedArray / Schema / Field /
DataType as pyarrow users expect them (issue 46 section 1), each method
judged against pyarrow's result on the same data, sliced inputs (offset != 0)
and nulls included."""

import datetime
import decimal
import pickle

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import quiver
import quiver.compute as qc


def _typed_arrays():
    """(name, pyarrow array) for every type the reader returns, with nulls."""
    ts = [0, 1_600_000_000_123_456, None, -86_400_000_001]
    out = [
        ("int8", pa.array([1, None, -128, 127], pa.int8())),
        ("int16", pa.array([1, None, -32768, 7], pa.int16())),
        ("int32", pa.array([1, None, -5, 2**31 - 1], pa.int32())),
        ("int64", pa.array([1, None, -(2**63), 2**63 - 1], pa.int64())),
        ("uint8", pa.array([1, None, 255, 0], pa.uint8())),
        ("uint16", pa.array([1, None, 65535, 0], pa.uint16())),
        ("uint32", pa.array([1, None, 2**32 - 1, 0], pa.uint32())),
        ("uint64", pa.array([1, None, 2**64 - 1, 0], pa.uint64())),
        ("float16", pa.array(np.array([1.5, 0.0, -2.25, 65504.0], dtype=np.float16))),
        ("float32", pa.array([1.5, None, -0.0, float("inf")], pa.float32())),
        ("float64", pa.array([1.5, None, 1e300, float("-inf")], pa.float64())),
        ("bool", pa.array([True, None, False, True])),
        ("string", pa.array(["a", None, "", "héllo wörld, longer than twelve"])),
        ("large_string", pa.array(["a", None, "", "ü" * 20], pa.large_string())),
        ("string_view", pa.array(["a", None, "", "a string longer than 12"], pa.string_view())),
        ("binary", pa.array([b"a", None, b"", b"\x00\xff"], pa.binary())),
        ("large_binary", pa.array([b"a", None, b"", b"\x00\xff"], pa.large_binary())),
        ("binary_view", pa.array([b"a", None, b"", b"x" * 40], pa.binary_view())),
        ("fixed_size_binary", pa.array([b"ab", None, b"\x00\x01", b"zz"], pa.binary(2))),
        ("date32", pa.array([0, None, -1, 19000], pa.date32())),
        ("date64", pa.array([0, None, -86_400_000, 86_400_000 * 19000], pa.date64())),
        ("time32s", pa.array([0, None, 86399, 3600], pa.time32("s"))),
        ("time32ms", pa.array([0, None, 86_399_999, 1], pa.time32("ms"))),
        ("time64us", pa.array([0, None, 86_399_999_999, 1], pa.time64("us"))),
        ("time64ns", pa.array([0, None, 86_399_999_999_000, 1000], pa.time64("ns"))),
        ("time_out_of_day", pa.array([-5, None, 86_400_000_001, 3], pa.time64("us"))),
        ("timestamp_s", pa.array([0, None, 1_600_000_000, -1], pa.timestamp("s"))),
        ("timestamp_ms", pa.array([0, None, 1_600_000_000_123, -1], pa.timestamp("ms"))),
        ("timestamp_us", pa.array(ts, pa.timestamp("us"))),
        ("timestamp_ns", pa.array([0, None, 1_600_000_000_123_456_000, -1000], pa.timestamp("ns"))),
        ("timestamp_utc", pa.array(ts, pa.timestamp("us", tz="UTC"))),
        ("timestamp_ny", pa.array([0, 1_600_000_000_123, None, -86_400_001], pa.timestamp("ms", tz="America/New_York"))),
        ("timestamp_offset", pa.array(ts, pa.timestamp("us", tz="+05:30"))),
        ("duration_s", pa.array([0, None, -1, 10**9], pa.duration("s"))),
        ("duration_us", pa.array([0, None, -1, 10**12], pa.duration("us"))),
        ("decimal128", pa.array([decimal.Decimal("1.23"), None, decimal.Decimal("-0.05"),
                                 decimal.Decimal("99999999.99")], pa.decimal128(10, 2))),
        ("decimal128_s0", pa.array([decimal.Decimal("12"), None, decimal.Decimal("-7"),
                                    decimal.Decimal("0")], pa.decimal128(5, 0))),
        ("decimal256", pa.array([decimal.Decimal("1." + "1" * 40), None,
                                 decimal.Decimal("-3.0000000000000000000000000000000000000001"),
                                 decimal.Decimal("0")], pa.decimal256(60, 40))),
        ("list", pa.array([[1, 2], None, [], [None, 3]], pa.list_(pa.int32()))),
        ("large_list", pa.array([["a"], None, [], ["b", None]], pa.large_list(pa.string()))),
        ("fixed_size_list", pa.array([[1, 2], None, [3, None], [5, 6]], pa.list_(pa.int64(), 2))),
        ("struct", pa.array([{"a": 1, "b": "x"}, None, {"a": None, "b": None}, {"a": 4, "b": "y"}],
                            pa.struct([("a", pa.int64()), ("b", pa.string())]))),
        ("map", pa.array([[("a", 1)], None, [], [("b", None), ("c", 3)]],
                         pa.map_(pa.string(), pa.int64()))),
        ("dictionary", pa.array(["x", None, "y", "x"]).dictionary_encode()),
        ("null", pa.array([None, None, None, None], pa.null())),
        ("month_day_nano", pa.array([pa.MonthDayNano([1, 2, 3]), None, pa.MonthDayNano([-1, 0, 5]),
                                     pa.MonthDayNano([0, 0, 0])], pa.month_day_nano_interval())),
        ("nested", pa.array([[{"k": [1, None]}], None, [None], []],
                            pa.list_(pa.struct([("k", pa.list_(pa.int8()))])))),
    ]
    return out


TYPED = _typed_arrays()


@pytest.mark.parametrize("name,arr", TYPED, ids=[n for n, _ in TYPED])
def test_to_pylist_as_pyarrow(name, arr):
    q = quiver.array(arr)
    assert q.to_pylist() == arr.to_pylist()
    # Sliced: offset != 0 in the array (and its children).
    assert q.slice(1).to_pylist() == arr.slice(1).to_pylist()
    assert quiver.array(arr.slice(1, 2)).to_pylist() == arr.slice(1, 2).to_pylist()
    assert quiver.array(arr.slice(2)).to_pylist() == arr.slice(2).to_pylist()
    # Element access: a Scalar per value, as pyarrow's arr[i].
    for i in range(len(arr)):
        assert q[i].as_py() == arr[i].as_py(), i
        assert q[i].is_valid == arr[i].is_valid, i
    assert q[-1].as_py() == arr[-1].as_py()
    assert [v.as_py() for v in q] == [v.as_py() for v in arr]
    assert str(q[0].type) == str(arr.type)


def test_scalars_from_indexing_are_compute_arguments():
    a = quiver.array(pa.array([5, 7, None]))
    assert qc.add(a, a[0]).to_pylist() == [10, 12, None]
    assert qc.equal(a, a[1]).to_pylist() == [False, True, None]
    assert a[2].is_valid is False and a[2].as_py() is None


def test_to_pylist_time_zones_as_pyarrow():
    arr = pa.array([1_600_000_000_000], pa.timestamp("ms", tz="America/New_York"))
    got = quiver.array(arr).to_pylist()[0]
    want = arr.to_pylist()[0]
    assert got == want
    assert got.utcoffset() == want.utcoffset()
    assert got.hour == want.hour  # shown in the type's zone, not UTC
    naive = quiver.array(pa.array([0], pa.timestamp("s"))).to_pylist()[0]
    assert naive.tzinfo is None and naive == datetime.datetime(1970, 1, 1)


def test_decimal_keeps_the_scale():
    arr = pa.array([decimal.Decimal("1.20")], pa.decimal128(5, 2))
    got = quiver.array(arr).to_pylist()[0]
    assert got == arr.to_pylist()[0]
    assert got.as_tuple() == arr.to_pylist()[0].as_tuple()


@pytest.mark.parametrize("t", [pa.timestamp("ns"), pa.timestamp("ns", tz="UTC"),
                               pa.timestamp("ns", tz="America/New_York"), pa.duration("ns"),
                               pa.time64("ns")], ids=str)
@pytest.mark.parametrize("values", [[1000, None, -5000], [1001, None]], ids=["whole", "nanos"])
def test_nanoseconds_as_pyarrow(t, values):
    """pandas.Timestamp / Timedelta when pandas is installed, else datetime
    objects, and pyarrow's ValueError for what they cannot hold."""
    arr = pa.array(values, t)
    q = quiver.array(arr)
    try:
        want = arr.to_pylist()
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            q.to_pylist()
        assert str(got.value) == str(e)
        with pytest.raises(ValueError):
            q[0].as_py()
        return
    got = q.to_pylist()
    assert got == want
    assert [type(v) for v in got] == [type(v) for v in want]
    assert [q[i].as_py() for i in range(len(q))] == want
    assert [type(q[i].as_py()) for i in range(len(q))] == [type(v) for v in want]


def _table():
    """A two-chunk table with nulls in every column."""
    a = pa.table({
        "i": pa.array([1, None, 3, 4, 5], pa.int64()),
        "s": pa.array(["a", "b", None, "d", "e"]),
        "l": pa.array([[1], None, [2, 3], [], [4]], pa.list_(pa.int32())),
        "ts": pa.array([0, 1, None, 3, 4], pa.timestamp("us", tz="UTC")),
    })
    b = pa.table({
        "i": pa.array([6, 7, None], pa.int64()),
        "s": pa.array([None, "g", "h"]),
        "l": pa.array([[5], [6, None], None], pa.list_(pa.int32())),
        "ts": pa.array([5, None, 7], pa.timestamp("us", tz="UTC")),
    })
    return pa.concat_tables([a, b])


def test_table_attributes_as_pyarrow():
    p = _table()
    q = quiver.table(p)
    assert q.num_rows == p.num_rows and len(q) == len(p)
    assert q.num_columns == p.num_columns
    assert q.shape == p.shape
    assert q.column_names == p.column_names
    assert isinstance(q.schema, quiver.Schema)
    assert q.schema == p.schema and pa.schema(q.schema) == p.schema
    assert q.schema.names == p.schema.names
    assert [str(t) for t in q.schema.types] == [str(t) for t in p.schema.types]
    assert q.schema.types == p.schema.types
    for i, name in enumerate(p.column_names):
        assert q.column(i).to_pylist() == p.column(i).to_pylist()
        assert q.column(name).to_pylist() == p.column(name).to_pylist()
        assert q[name].to_pylist() == p[name].to_pylist()
        assert q[i].to_pylist() == p[i].to_pylist()
        assert q.column(i).num_chunks == p.column(i).num_chunks
        assert q.column(i).type == p.column(i).type
        assert q.field(i) == p.field(i)
    assert q.column(-1).to_pylist() == p.column(-1).to_pylist()
    assert q.to_pydict() == p.to_pydict()
    assert q.to_pylist() == p.to_pylist()
    assert q.to_pyarrow().equals(p)


def test_column_errors_name_what_is_missing():
    q = quiver.table(_table())
    with pytest.raises(KeyError, match="nope"):
        q.column("nope")
    with pytest.raises(IndexError, match="out of range"):
        q.column(9)
    with pytest.raises(KeyError, match="nope"):
        q.select(["i", "nope"])


@pytest.mark.parametrize("offset,length", [(0, None), (2, None), (3, 4), (4, 2), (5, 0),
                                           (7, 5), (0, 100), (8, None)])
def test_slice_as_pyarrow(offset, length):
    p = _table()
    q = quiver.table(p)
    got, want = q.slice(offset, length), p.slice(offset, length)
    assert got.num_rows == want.num_rows
    assert got.to_pydict() == want.to_pydict()
    assert got.equals(want)
    assert q[offset:offset + (length or 100)].to_pydict() == p[offset:offset + (length or 100)].to_pydict()
    # Of a slice (offsets add up) and of a record batch.
    assert got.slice(1).to_pydict() == want.slice(1).to_pydict()
    pb = p.combine_chunks().to_batches()[0]
    qb = quiver.table(pb).to_batches()[0]
    assert qb.slice(offset, length).to_pydict() == pb.slice(offset, length).to_pydict()
    assert q.column("s").slice(offset, length).to_pylist() == p.column("s").slice(offset, length).to_pylist()
    with pytest.raises(IndexError):
        q.slice(-1)


def test_select_filter_take_as_pyarrow():
    p = _table()
    q = quiver.table(p)
    assert q.select(["s", "i"]).to_pydict() == p.select(["s", "i"]).to_pydict()
    assert q.select([3, 0]).column_names == p.select([3, 0]).column_names
    mask = pa.array([True, False, None, True, True, False, True, False])
    assert q.filter(mask).to_pydict() == p.filter(mask).to_pydict()
    expr_q = qc.field("i") > 3
    assert q.filter(expr_q).to_pydict() == p.filter(pc.field("i") > 3).to_pydict()
    assert q.take([7, 0, 3]).to_pydict() == p.take([7, 0, 3]).to_pydict()
    sliced_q, sliced_p = q.slice(2, 5), p.slice(2, 5)
    assert sliced_q.take([0, 4]).to_pydict() == sliced_p.take([0, 4]).to_pydict()
    assert sliced_q.filter(mask.slice(0, 5)).to_pydict() == sliced_p.filter(mask.slice(0, 5)).to_pydict()
    arr = quiver.array(pa.array([1, None, 3, 4]))
    assert arr.take([3, 0]).to_pylist() == [4, 1]
    assert arr.filter(pa.array([True, True, False, True])).to_pylist() == [1, None, 4]


def test_equality():
    p = _table()
    q = quiver.table(p)
    assert q == quiver.table(p)
    assert q.equals(p)  # any Arrow table
    assert q != quiver.table(p.slice(1))
    assert not q.equals(p.slice(1))
    assert (q == 5) is False
    rechunked = quiver.table(p.combine_chunks())
    assert q == rechunked  # chunking does not matter
    with_meta = quiver.table(p.replace_schema_metadata({"k": "v"}))
    assert q.equals(with_meta) and not q.equals(with_meta, check_metadata=True)
    a = quiver.array(pa.array([1, 2, None]))
    assert a == quiver.array(pa.array([1, 2, None])) and a != quiver.array(pa.array([1, 2, 3]))
    assert (a == 5) is False and (q.column(0) == 5) is False and (q.schema == 5) is False
    assert q.column("s") == quiver.table(p).column("s") and q.column("s") == p.column("s")


def test_repr_as_pyarrow():
    st = pa.struct([("a", pa.int64()), ("b", pa.list_(pa.string()))])
    tables = [
        _table().select(["i", "s", "l"]),
        pa.table({"a": list(range(30)), "s": ["x", None] * 15, "l": [[1, 2]] * 30}),
        pa.table({"a": pa.chunked_array([[i] for i in range(12)])}),
        pa.table({"n": pa.array([None, None])}),
        pa.table({"f": [1.5, float("nan")], "d": pa.array([0, 1], pa.date32()),
                  "b": pa.array([b"ab", None])}),
        pa.table({"x": pa.array([1], pa.int8())}, metadata={"k": "v"}),
        pa.table({"s": pa.chunked_array([pa.array([{"a": 1, "b": ["x"]}, {"a": 2, "b": None}], st),
                                         pa.array([{"a": 3, "b": []}, None], st)]),
                  "d": pa.chunked_array([pa.array(["a", "b", None]).dictionary_encode(),
                                         pa.array(["c"]).dictionary_encode()]),
                  "m": pa.array([[("a", 1)], None, [], [("b", 2)]], pa.map_(pa.string(), pa.int64()))}),
        pa.table({"s": pa.array([{"a": i} for i in range(12)])}),
    ]
    for p in tables:
        q = quiver.table(p)
        # pyarrow's repr of the same chunks (a table crosses the C stream
        # interface as record batches: chunks cut wherever any column's are).
        want = repr(pa.table(q)).replace("pyarrow.Table", "quiver.Table", 1)
        assert repr(q) == want
    for batch in [pa.record_batch({"a": [1, 2], "s": ["x", None]}),
                  pa.record_batch({"n": pa.array([None, None])}),
                  pa.record_batch({"s": pa.array([{"a": 3}, None]),
                                   "d": pa.array(["a", "b"]).dictionary_encode()})]:
        got = repr(quiver.table(batch).to_batches()[0])
        assert got == repr(batch).replace("pyarrow.RecordBatch", "quiver.RecordBatch", 1)
    nulls = pa.table({"n": pa.chunked_array([pa.array([None, None]), pa.array([None])])})
    assert repr(quiver.table(nulls)) == repr(nulls).replace("pyarrow", "quiver", 1)


def test_schema_field_datatype():
    p = pa.schema([
        pa.field("l", pa.list_(pa.int64())),
        pa.field("s", pa.struct([("a", pa.int64()), ("b", pa.list_(pa.string()))]),
                 nullable=False, metadata={"k": "v"}),
        pa.field("m", pa.map_(pa.string(), pa.int64())),
        pa.field("d", pa.dictionary(pa.int32(), pa.string())),
        pa.field("ts", pa.timestamp("us", tz="UTC")),
    ], metadata={"a": "x" * 100, "b": "short"})
    q = quiver.schema(p)
    assert str(q) == str(p) and repr(q) == repr(p)
    assert q.to_string(show_field_metadata=False, show_schema_metadata=False) == \
        p.to_string(show_field_metadata=False, show_schema_metadata=False)
    assert q.metadata == p.metadata
    assert q.field("s").metadata == p.field("s").metadata
    assert q.field(1).nullable is False and q.field("s").name == "s"
    assert repr(q.field("s")) == repr(p.field("s")).replace("pyarrow", "quiver")
    assert pa.schema(q).equals(p, check_metadata=True)
    assert pa.field(q.field("m")) == p.field("m")
    assert q.equals(p) and q == p
    assert len(q) == len(p) and [f.name for f in q] == p.names
    assert q.get_field_index("m") == p.get_field_index("m")
    assert q.field("ts").type == p.field("ts").type
    assert pa.DataType._import_from_c_capsule(q.field("ts").type.__arrow_c_schema__()) == p.field("ts").type \
        if hasattr(pa.DataType, "_import_from_c_capsule") else True
    assert q.remove_metadata().metadata is None
    built = quiver.schema([quiver.field("x", pa.int32(), nullable=False), ("y", pa.string())],
                          metadata={"k": "v"})
    assert pa.schema(built) == pa.schema([pa.field("x", pa.int32(), nullable=False), ("y", pa.string())])
    assert built.metadata == {b"k": b"v"}
    with pytest.raises(KeyError, match="zz"):
        q.field("zz")
    # Types by name, as pyarrow's aliases.
    by_name = quiver.schema([quiver.field("a", "int16"), ("t", "timestamp[ms, tz=UTC]"),
                             ("d", "decimal128(10, 2)"), ("s", "str")])
    assert pa.schema(by_name) == pa.schema([("a", pa.int16()), ("t", pa.timestamp("ms", tz="UTC")),
                                            ("d", pa.decimal128(10, 2)), ("s", pa.string())])
    for alias in ["i8", "int8", "u2", "f4", "double", "str", "large_str", "date32[day]",
                  "timestamp[ns]", "duration[ms]", "time64[us]", "bool", "binary"]:
        assert quiver.type_for_alias(alias) == pa.type_for_alias(alias), alias
    with pytest.raises(ValueError, match="No type alias"):
        quiver.type_for_alias("nonsense")


def test_parquet_file_schema_arrow_is_a_schema(tmp_path):
    p = _table()
    path = tmp_path / "t.parquet"
    quiver.write_parquet(p, str(path))
    f = quiver.ParquetFile(str(path))
    assert isinstance(f.schema_arrow, quiver.Schema)
    assert f.schema_arrow.names == p.column_names
    assert quiver.read_table(str(path)).schema == p.schema


def test_pickle_round_trips(tmp_path):
    p = _table()
    q = quiver.table(p)
    for obj in [q, q.slice(2, 3), q.schema, q.field(2), q.column(2), q.column(0).type,
                q.to_batches()[0], quiver.array(p.column("l").chunk(0))]:
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj)
        assert back == obj, obj
    t = pickle.loads(pickle.dumps(q))
    assert t.to_pydict() == p.to_pydict()
    meta_schema = quiver.schema(p.schema.with_metadata({"k": "v"}))
    assert pickle.loads(pickle.dumps(meta_schema)).metadata == {b"k": b"v"}
    path = tmp_path / "m.parquet"
    quiver.write_parquet(p, str(path))
    md = quiver.ParquetFile(str(path)).metadata
    back = pickle.loads(pickle.dumps(md))
    assert back == md and back.num_rows == p.num_rows


def test_from_pydict_arrays_concat():
    t = quiver.Table.from_pydict({"i": [1, None, 3], "f": [1.5, 2, None], "s": ["a", None, "c"],
                                  "b": [True, None, False], "y": [b"x", None, b""],
                                  "n": [None, None, None]})
    want = pa.Table.from_pydict({"i": [1, None, 3], "f": [1.5, 2, None], "s": ["a", None, "c"],
                                 "b": [True, None, False], "y": [b"x", None, b""],
                                 "n": [None, None, None]})
    assert t.equals(want)
    assert t.schema == want.schema
    # Arrow arrays as they are; numpy arrays; an explicit schema.
    schema = pa.schema([("a", pa.int16()), ("c", pa.string())])
    t2 = quiver.Table.from_pydict({"c": pa.array(["x", "y"]), "a": np.array([1, 2])}, schema=schema)
    assert t2.schema == schema and t2.to_pydict() == {"a": [1, 2], "c": ["x", "y"]}
    with pytest.raises(quiver.InvalidError, match="does not fit"):
        quiver.Table.from_pydict({"a": [70000]}, schema=pa.schema([("a", pa.int16())]))
    with pytest.raises(quiver.InvalidError, match="rows"):
        quiver.Table.from_pydict({"a": [1, 2], "b": [1]})
    # Types Quiver does not convert itself go through pyarrow.
    d = quiver.Table.from_pydict({"d": [datetime.date(2020, 1, 2), None]})
    assert d.to_pydict() == {"d": [datetime.date(2020, 1, 2), None]}
    assert quiver.Table.from_pydict({"x": [1]}, metadata={"k": "v"}).schema.metadata == {b"k": b"v"}
    arrays = quiver.Table.from_arrays([pa.array([1, 2]), quiver.array(pa.array(["a", "b"]))],
                                      names=["x", "y"])
    assert arrays.to_pydict() == {"x": [1, 2], "y": ["a", "b"]}
    batch = quiver.RecordBatch.from_pydict({"x": [1, 2]})
    assert isinstance(batch, quiver.RecordBatch) and batch.to_pydict() == {"x": [1, 2]}

    p = _table()
    q = quiver.concat_tables([quiver.table(p), p.slice(3), quiver.table(p.slice(0, 0))])
    want = pa.concat_tables([p, p.slice(3), p.slice(0, 0)])
    assert q.equals(want) and q.num_rows == want.num_rows
    with pytest.raises(quiver.InvalidError, match="schema"):
        quiver.concat_tables([quiver.table(p), pa.table({"x": [1]})])


def test_chunked_array_methods():
    p = _table().column("l")
    q = quiver.table(_table()).column("l")
    assert len(q) == len(p) and q.num_chunks == p.num_chunks
    assert q.to_pylist() == p.to_pylist()
    for off, n in [(0, 8), (3, 4), (5, 3), (6, 0)]:
        assert q.slice(off, n).to_pylist() == p.slice(off, n).to_pylist()
        assert q[off:off + n].to_pylist() == p[off:off + n].to_pylist()
    assert [v.as_py() for v in q] == [v.as_py() for v in p]
    assert q[6].as_py() == p[6].as_py() and q[-1].as_py() == p[-1].as_py()
    assert q.combine_chunks().to_pylist() == p.combine_chunks().to_pylist()
    assert q.to_pyarrow().equals(p)
    assert q.take([0, 6]).to_pylist() == p.take([0, 6]).to_pylist()
    ints = quiver.table(pa.table({"i": pa.chunked_array([[1, 2], [3]])})).column(0)
    assert ints.to_numpy().tolist() == [1, 2, 3]
    assert ints.chunk(0).to_numpy().tolist() == [1, 2]
    for chunked in [p, pa.chunked_array([[1, 2], [3]]), pa.chunked_array([], pa.int8()),
                    pa.chunked_array([list(range(30))]),
                    pa.chunked_array([[i] for i in range(7)])]:
        assert quiver.table(pa.table({"c": chunked})).column(0).to_string() == chunked.to_string()


def test_write_accepts_streams_batch_by_batch(tmp_path):
    produced = []

    def batches():
        for i in range(5):
            produced.append(i)
            yield pa.record_batch({"x": pa.array(range(i * 10, i * 10 + 10), pa.int64())})

    reader = pa.RecordBatchReader.from_batches(pa.schema([("x", pa.int64())]), batches())
    path = tmp_path / "s.parquet"
    quiver.write_parquet(reader, str(path), row_group_size=20)
    got = quiver.read_table(str(path))
    assert got.to_pydict() == {"x": list(range(50))}
    md = quiver.ParquetFile(str(path)).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [20, 20, 10]
    # ParquetWriter.write_table with a stream, and a raw stream capsule.
    reader2 = pa.RecordBatchReader.from_batches(pa.schema([("x", pa.int64())]), batches())
    path2 = tmp_path / "w.parquet"
    with quiver.ParquetWriter(str(path2), pa.schema([("x", pa.int64())])) as w:
        w.write_table(reader2)
        w.write_table(pa.table({"x": [1]}).__arrow_c_stream__())
    assert quiver.read_table(str(path2)).num_rows == 51
    # Never loaded whole: row groups reach a file object while the stream is
    # still producing batches.
    class Sink:
        def __init__(self):
            self.written = 0

        def write(self, data):
            self.written += len(memoryview(data))
            return len(memoryview(data))

    sink = Sink()
    seen = []

    def watched():
        for i in range(6):
            seen.append(sink.written)
            yield pa.record_batch({"x": pa.array(range(i * 100, i * 100 + 100), pa.int64())})

    quiver.write_parquet(pa.RecordBatchReader.from_batches(pa.schema([("x", pa.int64())]), watched()),
                         sink, row_group_size=100)
    # (a full row group goes out when the next batch arrives)
    assert seen[0] == 0 and seen[5] > seen[4] > seen[3] > seen[2] > 0, seen
    # A stream whose schema differs from the writer's is refused.
    bad = pa.RecordBatchReader.from_batches(pa.schema([("y", pa.int8())]), [])
    with quiver.ParquetWriter(str(tmp_path / "b.parquet"), pa.schema([("x", pa.int64())])) as w:
        with pytest.raises(quiver.InvalidError, match="schema"):
            w.write_table(bad)


def test_polars_frames_accepted(tmp_path):
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({"a": [1, 2, None], "s": ["x", None, "z"]})
    q = quiver.table(df)
    assert q.to_pydict() == {"a": [1, 2, None], "s": ["x", None, "z"]}
    path = tmp_path / "p.parquet"
    quiver.write_parquet(df, str(path))
    assert pl.read_parquet(path).equals(df)


def test_pandas_frames_with_their_index(tmp_path):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": [1, 2, 3], "s": ["x", None, "z"]},
                      index=pd.Index([10, 20, 30], name="idx"))
    q = quiver.Table.from_pandas(df)
    want = pa.Table.from_pandas(df)
    assert q.equals(want, check_metadata=True)
    assert quiver.table(df).equals(want, check_metadata=True)
    path = tmp_path / "pd.parquet"
    quiver.write_parquet(df, str(path))
    back = pd.read_parquet(path)
    pd.testing.assert_frame_equal(back, df)
    pd.testing.assert_frame_equal(quiver.read_table(str(path)).to_pandas(), df)
    with quiver.ParquetWriter(str(tmp_path / "w.parquet"), want.schema) as w:
        w.write_table(df)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "w.parquet"), df)
    # A RangeIndex is kept as metadata, as pyarrow stores it.
    plain = pd.DataFrame({"a": [1.5, None]})
    assert quiver.table(plain).schema.metadata == pa.Table.from_pandas(plain).schema.metadata
    pd.testing.assert_frame_equal(quiver.table(plain).to_pandas(), plain)
    assert quiver.array(pa.array([1, 2])).to_pandas().tolist() == [1, 2]


def test_column_editing_as_pyarrow():
    p = _table()
    q = quiver.table(p)
    new = pa.array(list(range(8)), pa.int16())
    pairs = [
        (q.append_column("n", new), p.append_column("n", new)),
        (q.add_column(1, "n", new), p.add_column(1, "n", new)),
        (q.add_column(0, pa.field("n", pa.int16(), nullable=False), new),
         p.add_column(0, pa.field("n", pa.int16(), nullable=False), new)),
        (q.append_column("py", [1, 2, 3, 4, 5, 6, 7, None]),
         p.append_column("py", pa.array([1, 2, 3, 4, 5, 6, 7, None]))),
        (q.set_column(2, "x", new), p.set_column(2, "x", new)),
        (q.remove_column(1), p.remove_column(1)),
        (q.drop_columns(["s", "l"]), p.drop_columns(["s", "l"])),
        (q.drop_columns("s"), p.drop_columns("s")),
        (q.rename_columns(["A", "B", "C", "D"]), p.rename_columns(["A", "B", "C", "D"])),
        (q.rename_columns({"s": "S"}), p.rename_columns({"s": "S"})),
    ]
    for got, want in pairs:
        assert got.equals(want), (got.schema, want.schema)
        assert got.schema == want.schema
    assert [c.to_pylist() for c in q.itercolumns()] == [c.to_pylist() for c in p.itercolumns()]
    with pytest.raises(KeyError, match="nope"):
        q.drop_columns(["nope"])
    with pytest.raises(quiver.InvalidError, match="rows"):
        q.append_column("short", pa.array([1]))
    target = pa.schema([("i", pa.float64()), ("s", pa.large_string()), ("l", pa.list_(pa.int32())),
                        ("ts", pa.timestamp("ns", tz="UTC"))], metadata={"k": "v"})
    got, want = q.cast(target), p.cast(target)
    assert got.equals(want, check_metadata=True) and got.schema == want.schema
    assert q.to_batches()[0].cast(target).to_pydict() == p.to_batches()[0].cast(target).to_pydict()
    with pytest.raises(ValueError, match="names"):
        q.cast(pa.schema([("x", pa.int8())]))
    with pytest.raises(quiver.InvalidError):
        q.cast(pa.schema([("i", pa.int8()), ("s", pa.int8()), ("l", pa.list_(pa.int32())),
                          ("ts", pa.timestamp("ms", tz="UTC"))]))
    batches = p.to_batches()
    assert quiver.Table.from_batches(batches).equals(pa.Table.from_batches(batches))
    empty = quiver.Table.from_batches([], schema=p.schema)
    assert empty.num_rows == 0 and empty.schema == p.schema
    b = q.to_batches()[0]
    assert b.append_column("n", pa.array(range(b.num_rows))).to_pydict() == \
        p.to_batches()[0].append_column("n", pa.array(range(b.num_rows))).to_pydict()


def test_pandas_metadata():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": [1, 2]})
    assert quiver.table(df).schema.pandas_metadata == pa.Table.from_pandas(df).schema.pandas_metadata
    assert quiver.table(pa.table({"a": [1]})).schema.pandas_metadata is None


def test_malformed_arrays_are_errors_not_crashes():
    # Offsets corrupted after pyarrow checked them (the buffer is numpy's memory).
    offsets = np.array([0, 3], dtype=np.int32)
    arr = pa.Array.from_buffers(pa.string(), 1, [None, pa.py_buffer(offsets), pa.py_buffer(b"abc")])
    q = quiver.array(arr)
    offsets[1] = 100
    with pytest.raises(quiver.InvalidError):
        q.to_pylist()
    indices = np.array([0, 0], dtype=np.int32)
    d = pa.DictionaryArray.from_buffers(pa.dictionary(pa.int32(), pa.string()), 2,
                                        [None, pa.py_buffer(indices)], pa.array(["a"]))
    qd = quiver.array(d)
    indices[1] = 5
    with pytest.raises(quiver.QuiverError):
        qd.to_pylist()


def test_array_and_table_constructors_as_pyarrow():
    for values, type_ in [([1, None, 3], None), ([1.5, None, 2], None), (["a", None], None),
                          ([True, None], None), ([b"x", None], None), ([None, None], None),
                          ([1, 2], "int8"), ([1, None], pa.uint32()), (["a"], "large_string"),
                          ([datetime.date(2020, 1, 1), None], None)]:
        got = quiver.array(values, type=type_)
        want = pa.array(values, type=type_)
        assert got.type == want.type and got.to_pylist() == want.to_pylist(), (values, type_)
    for dtype in [np.int32, np.uint8, np.float32, np.float64, np.bool_, np.int64]:
        values = np.array([1, 0, 1], dtype=dtype)
        assert quiver.array(values).type == pa.array(values).type, dtype
        assert quiver.array(values).to_pylist() == pa.array(values).to_pylist()
    assert quiver.array(pa.array([1, 2]), type="float64").to_pylist() == [1.0, 2.0]
    with pytest.raises(quiver.TypeError, match="mix"):
        quiver.array([1, "a"])
    assert quiver.table({"x": [1, 2], "y": ["a", None]}).equals(pa.table({"x": [1, 2], "y": ["a", None]}))
    assert quiver.table([pa.array([1]), quiver.array(["z"])], names=["a", "b"]).to_pydict() == \
        {"a": [1], "b": ["z"]}
    assert quiver.table(pa.table({"x": [1]})).to_pydict() == {"x": [1]}
    assert quiver.table({"x": np.array([1, 2], dtype=np.int32)}).schema.types == [pa.int32()]


def test_read_tables_to_python_as_pyarrow(tmp_path):
    """Every sample type (flat and nested, with nulls) written by Quiver, read by
    Quiver and by pyarrow: to_pylist / to_pydict equal, sliced too."""
    import pyarrow.parquet as pq
    from arrow_samples import writer_samples

    for name, arr in writer_samples():
        path = tmp_path / f"{name}.parquet"
        quiver.write_parquet(pa.table({name: arr}), str(path))
        q = quiver.read_table(str(path))
        p = pq.read_table(path)
        assert q.schema == p.schema, name
        try:
            want = p.to_pydict()
        except ValueError:  # nanoseconds pyarrow cannot give without pandas
            with pytest.raises(ValueError):
                q.to_pydict()
            continue
        assert q.to_pydict() == want, name
        assert q.to_pylist() == p.to_pylist(), name
        n = len(arr)
        assert q.slice(1, n - 2).to_pydict() == p.slice(1, n - 2).to_pydict(), name
