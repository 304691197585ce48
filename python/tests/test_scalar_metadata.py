"""quiver.Scalar (the library's typed value) and FileMetaData's pickle, judged by pyarrow:
a statistics bound's Scalar has pyarrow's type string, as_py() and str() of the same value,
and a FileMetaData survives pickle (Dask and Ray ship it) equal and whole."""

import datetime
import decimal
import pickle

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import quiver

N = 30
COLUMNS = {
    "bool": (pa.bool_(), [i % 3 == 0 for i in range(N)]),
    "i8": (pa.int8(), [i - 15 for i in range(N)]),
    "u16": (pa.uint16(), [65535 - i for i in range(N)]),
    "u32": (pa.uint32(), [4_000_000_000 + i for i in range(N)]),
    "u64": (pa.uint64(), [(1 << 64) - 1 - i for i in range(N)]),
    "i64": (pa.int64(), [-(1 << 62) + i for i in range(N)]),
    "f32": (pa.float32(), [i / 3 for i in range(N)]),
    "f64": (pa.float64(), [i * 1e17 - 3 for i in range(N)]),
    "str": (pa.string(), [f"é{i:02d}" for i in range(N)]),
    "bin": (pa.binary(), [bytes([i, 39, 92, 10]) for i in range(N)]),
    "fsb": (pa.binary(2), [bytes([i, 255]) for i in range(N)]),
    "d32": (pa.date32(), [i * 400 - 9000 for i in range(N)]),
    "t32": (pa.time32("ms"), [i * 2_900_123 for i in range(N)]),
    "t64": (pa.time64("us"), [i * 1_000_001 for i in range(N)]),
    "ts_utc": (pa.timestamp("ms", "UTC"), [i * 86_400_123 - 10**12 for i in range(N)]),
    "ts_naive": (pa.timestamp("us"), [i * 123_456_789 for i in range(N)]),
    "dec": (pa.decimal128(9, 3), [decimal.Decimal(i * 7 - 100) / 1000 for i in range(N)]),
    "dec_wide": (pa.decimal128(30, 5), [decimal.Decimal(10**20 - i) / 10**5 for i in range(N)]),
    "dec256": (pa.decimal256(50, 0), [decimal.Decimal(-(10**45) + i) for i in range(N)]),
}


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    p = tmp_path_factory.mktemp("scalar") / "typed.parquet"
    table = pa.table({k: pa.array(v, t) for k, (t, v) in COLUMNS.items()})
    pq.write_table(table, p)
    return p


def _bounds(path):
    expected = pq.ParquetFile(path).metadata.row_group(0)
    got = quiver.ParquetFile(str(path)).metadata.row_group(0)
    for i, name in enumerate(COLUMNS):
        yield name, expected.column(i).statistics, got.column(i).statistics


def test_bound_scalars_are_pyarrows_values(path):
    for name, e, g in _bounds(path):
        assert g.has_min_max, name
        for which in ("min", "max"):
            scalar = getattr(g, f"{which}_scalar")
            assert isinstance(scalar, quiver.Scalar)
            assert scalar.is_valid
            value = getattr(e, which)
            assert scalar.as_py() == value, (name, which)
            assert type(scalar.as_py()) is type(value), (name, which)
            # The type pyarrow reads the column as, and str() as pyarrow prints the value.
            pa_type = COLUMNS[name][0]
            assert str(scalar.type) == str(pa_type), name
            assert str(scalar) == str(pa.scalar(value, pa_type)), (name, which)


def test_scalar_equality_and_repr(path):
    md = quiver.ParquetFile(str(path)).metadata
    a = md.row_group(0).column(1).statistics
    b = quiver.ParquetFile(str(path)).metadata.row_group(0).column(1).statistics
    assert a.min_scalar == b.min_scalar
    assert a.min_scalar != a.max_scalar
    assert a.min_scalar.type == b.min_scalar.type
    assert repr(a.min_scalar) == "<quiver.Scalar int8: -15>"
    assert hash(a.min_scalar) == hash(b.min_scalar)


def test_time_zones_and_nanoseconds(tmp_path):
    p = tmp_path / "tz.parquet"
    table = pa.table({
        "paris": pa.array([0, 1_700_000_000_000_000], pa.timestamp("us", "Europe/Paris")),
        "ns": pa.array([1, 5_000], pa.timestamp("ns")),
    })
    pq.write_table(table, p)
    md = quiver.ParquetFile(str(p)).metadata.row_group(0)
    s = md.column(0).statistics
    # Parquet keeps only "adjusted to UTC": the bounds read as UTC, as pyarrow's.
    assert s.max == pq.ParquetFile(p).metadata.row_group(0).column(0).statistics.max
    assert s.max == datetime.datetime(2023, 11, 14, 22, 13, 20, tzinfo=datetime.timezone.utc)
    ns = md.column(1).statistics
    # As pyarrow: a pandas.Timestamp when pandas is installed; without it, 1 ns
    # (not a whole microsecond) raises ValueError.
    try:
        want = pa.scalar(1, pa.timestamp("ns")).as_py()
    except ValueError:
        with pytest.raises(ValueError):
            ns.min_scalar.as_py()
    else:
        assert ns.min_scalar.as_py() == want and type(ns.min_scalar.as_py()) is type(want)
    assert ns.max_scalar.as_py() == datetime.datetime(1970, 1, 1, 0, 0, 0, 5)
    assert str(ns.min_scalar) == "1970-01-01 00:00:00.000000001"


def test_file_metadata_pickles(path):
    md = quiver.ParquetFile(str(path)).metadata
    back = pickle.loads(pickle.dumps(md))
    assert back == md
    assert back.equals(md)
    assert (back.num_rows, back.num_row_groups, back.num_columns, back.created_by) == (
        md.num_rows, md.num_row_groups, md.num_columns, md.created_by)
    for i in range(md.num_columns):
        a, b = md.row_group(0).column(i), back.row_group(0).column(i)
        assert a.path_in_schema == b.path_in_schema
        assert a.statistics.min == b.statistics.min
        assert a.statistics.max_raw == b.statistics.max_raw
    buf = pa.BufferOutputStream()
    pq.write_table(pa.table({"x": [1]}), buf)
    other = quiver.ParquetFile(buf.getvalue().to_pybytes()).metadata
    assert other != md
    assert pickle.loads(pickle.dumps(other)) == other
