"""pyarrow / polars / duckdb -> Quiver -> pyarrow, through the Arrow PyCapsule interface."""

import pyarrow as pa
import pytest

import quiver
from arrow_samples import all_samples, flat_samples, nest

SAMPLES = all_samples()
IDS = [name for name, _ in SAMPLES]


def roundtrip_table(table):
    q = quiver.table(table)
    assert isinstance(q, quiver.Table)
    assert q.num_rows == table.num_rows
    q.validate()
    return pa.table(q)


def assert_tables_equal(got, expected):
    assert got.schema.equals(expected.schema, check_metadata=True), (got.schema, expected.schema)
    assert got.equals(expected), (got, expected)


@pytest.mark.parametrize("name,arr", SAMPLES, ids=IDS)
@pytest.mark.parametrize("nullable", [True, False])
def test_table_roundtrip_every_type(name, arr, nullable):
    if not nullable and name == "null":
        pytest.skip("a null-type field is always nullable")
    if not nullable and arr.null_count > 0:
        if pa.types.is_binary_view(arr.type) or pa.types.is_string_view(arr.type):
            # pyarrow has no filter kernel for views: rebuild without the nulls.
            arr = pa.array([v for v in arr.to_pylist() if v is not None], arr.type)
        else:
            arr = arr.drop_null()
    field = pa.field("c", arr.type, nullable=nullable, metadata={"k": "v"})
    table = pa.Table.from_arrays([arr], schema=pa.schema([field], metadata={"m": "1"}))
    assert_tables_equal(roundtrip_table(table), table)


@pytest.mark.parametrize("name,arr", SAMPLES, ids=IDS)
def test_sliced_empty_and_all_null(name, arr):
    for variant in [arr.slice(3), arr.slice(2, 5), arr.slice(0, 0), arr.slice(len(arr))]:
        table = pa.table({"c": variant})
        assert_tables_equal(roundtrip_table(table), table)
    all_null = pa.nulls(7, arr.type)
    table = pa.table({"c": all_null})
    assert_tables_equal(roundtrip_table(table), table)


@pytest.mark.parametrize("name,arr", flat_samples(), ids=[n for n, _ in flat_samples()])
def test_nested_two_levels(name, arr):
    nested = nest(arr)
    table = pa.table({"n": nested.slice(0, len(nested) - 1), "s": nested.slice(1)})
    assert_tables_equal(roundtrip_table(table), table)


def _addresses(arr):
    return [b.address for b in arr.buffers() if b is not None and b.size > 0]


@pytest.mark.parametrize("name,arr", SAMPLES, ids=IDS)
def test_zero_copy(name, arr):
    table = pa.table({"c": arr})
    back = roundtrip_table(table)
    original = set(_addresses(table.column(0).chunk(0)))
    returned = set(_addresses(back.column(0).chunk(0)))
    if name.startswith("dictionary"):
        original |= set(_addresses(table.column(0).chunk(0).dictionary))
        returned |= set(_addresses(back.column(0).chunk(0).dictionary))
    assert returned <= original, f"{name}: buffers were copied"


def test_chunked_and_multi_column():
    t1 = pa.table({"a": [1, 2, 3], "b": ["x", None, "z"]})
    t2 = pa.table({"a": [4, None], "b": ["w", "v"]})
    table = pa.concat_tables([t1, t2])
    assert table.column(0).num_chunks == 2
    back = roundtrip_table(table)
    assert back.equals(table)
    assert back.column(0).num_chunks == 2


def test_array_roundtrip():
    arr = pa.array([1, None, 3], pa.int64())
    q = quiver.array(arr)
    assert len(q) == 3 and q.null_count == 1 and q.type == "int64"
    assert pa.array(q).equals(arr)


def test_polars_and_duckdb_objects_import():
    import duckdb
    import polars as pl

    df = pl.DataFrame({"a": [1, 2, None], "s": ["x", "yy", None]})
    q = quiver.table(df)
    assert q.num_rows == 3
    back = pa.table(q)
    assert back.column("a").to_pylist() == [1, 2, None]
    assert back.column("s").to_pylist() == ["x", "yy", None]
    assert pl.DataFrame(q).equals(df)

    rel = duckdb.sql("select i, i::varchar as s from range(5) t(i)")
    q2 = quiver.table(rel)
    assert q2.num_rows == 5
    assert pa.table(q2).column("s").to_pylist() == ["0", "1", "2", "3", "4"]
    assert duckdb.sql("select sum(i) as s from q2").fetchall() == [(10,)]


def test_errors_are_quiver_exceptions():
    with pytest.raises(TypeError):
        quiver.table(42)
    assert issubclass(quiver.InvalidError, ValueError)
    assert issubclass(quiver.IOError, OSError)


def test_memory_pool_backend():
    assert quiver.memory_pool_backend() in {"jemalloc", "mimalloc", "system"}


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("compression", [None, "lz4", "zstd"])
def test_ipc_files_and_streams_both_ways(tmp_path, stream, compression):
    import pyarrow.ipc as ipc

    samples = [(name, arr) for name, arr in SAMPLES if name != "null" and len(arr) == 10]
    table = pa.table({name: arr for name, arr in samples})
    # Quiver writes, pyarrow reads.
    path = str(tmp_path / "q.arrow")
    quiver.write_ipc(table, path, stream=stream, compression=compression)
    with open(path, "rb") as f:
        got = ipc.open_stream(f).read_all() if stream else ipc.open_file(f).read_all()
    assert_tables_equal(got, table)
    # pyarrow writes, Quiver reads.
    path2 = str(tmp_path / "p.arrow")
    options = ipc.IpcWriteOptions(compression=compression)
    with open(path2, "wb") as f:
        writer = (ipc.new_stream if stream else ipc.new_file)(f, table.schema, options=options)
        writer.write_table(table, max_chunksize=4)
        writer.close()
    back = quiver.read_ipc(path2)
    assert_tables_equal(pa.table(back), table)


def test_ipc_errors(tmp_path):
    bad = tmp_path / "bad.arrow"
    bad.write_bytes(b"ARROW1\x00\x00garbage")
    with pytest.raises(quiver.QuiverError):
        quiver.read_ipc(str(bad))
    with pytest.raises(quiver.IOError):
        quiver.read_ipc(str(tmp_path / "missing.arrow"))


def test_star_import_keeps_builtin_exceptions():
    namespace = {}
    exec("from quiver import *", namespace)
    for name in ("IOError", "NotImplementedError", "KeyError", "TypeError", "IndexError"):
        assert name not in namespace, name
        assert issubclass(getattr(quiver, name), quiver.QuiverError)
    assert "InvalidError" in namespace and "read_table" in namespace
