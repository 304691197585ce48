"""Quiver's reading API (docs/interfaces.md, "Reading, as pyarrow names it") against pyarrow's.

Projection, row group selection, batch sizes across page and row group boundaries, every
kind of source, ParquetFile's metadata, the reader options (read_dictionary, binary_type,
list_type, coerce_int96_timestamp_unit, page_checksum_verification, thrift limits), unknown
keywords, errors; Quiver's own files read back (the writer matrix of test_parquet_write.py);
results handed to polars and duckdb.

Projection follows pyarrow's ParquetFile.read(columns=): a name is a top-level column or a
dotted Parquet path ("st.inner.x", "l.list.element") or a prefix of one, and the result keeps
the nesting (a struct keeps only the selected children), in the file's column order. (pq.read_table
instead returns a selected nested field as a new top-level column named by its last part.)
Where pyarrow silently ignores a name that is no column, Quiver raises an error naming it.
"""

import io
import os
import math
import random
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parquet_pages
import quiver
import test_parquet_write as writer_tests  # the writer's matrix (CASES, build_case) and helpers
from reader_compare import (assert_schemas_equal, assert_tables_equal, batches_to_table, is_standin,
                            to_batch, to_table, validate_full)

ROWS = 2500
ROW_GROUP = 700  # row groups of 700, 700, 700, 400 rows
CORPUS = Path(__file__).resolve().parents[2] / "testdata" / "parquet-testing"


def _api_table():
    rng = random.Random(20250611)
    rows = range(ROWS)

    def maybe(v, p=0.15):
        return None if rng.random() < p else v
    return pa.table({
        "id": pa.array(rows, pa.int64()),
        "f": pa.array([maybe(math.nan if i % 31 == 0 else i / 8) for i in rows], pa.float64()),
        "s": pa.array([maybe(f"cat{rng.randrange(12)}") for _ in rows], pa.string()),
        "b": pa.array([maybe(bytes(rng.randrange(256) for _ in range(rng.randrange(9)))) for _ in rows]),
        "st": pa.array([maybe({"a": maybe(i), "b": maybe(str(i)),
                               "inner": maybe({"x": maybe(i * 0.5), "y": maybe([i, maybe(i + 1)])})})
                        for i in rows],
                       pa.struct([("a", pa.int32()), ("b", pa.string()),
                                  ("inner", pa.struct([("x", pa.float64()), ("y", pa.list_(pa.int32()))]))])),
        "l": pa.array([maybe([f"v{j}" for j in range(i % 5)]) for i in rows], pa.list_(pa.string())),
        "m": pa.array([maybe([(f"k{j}", maybe(j)) for j in range(i % 3)]) for i in rows],
                      pa.map_(pa.string(), pa.int32())),
        "ts": pa.array([maybe(i * 1_000_003) for i in rows], pa.timestamp("us", tz="Europe/Paris")),
    })


@pytest.fixture(scope="module")
def api_file(tmp_path_factory):
    """A pyarrow file of ROWS rows: 4 row groups of small pages (many per column chunk)."""
    path = tmp_path_factory.mktemp("reader_api") / "api.parquet"
    pq.write_table(_api_table(), path, row_group_size=ROW_GROUP, data_page_size=512, write_batch_size=64,
                   write_page_index=True, compression="snappy")
    meta = pq.ParquetFile(path).metadata
    assert meta.num_row_groups == 4
    pages = [p for p in parquet_pages.read_file(path).row_groups[0].columns[0].pages if p.is_data]
    assert len(pages) > 5, "the test file should have many pages per column chunk"
    return path


def _read_expected(path, columns=None, row_groups=None):
    f = pq.ParquetFile(path)
    if row_groups is None:
        return f.read(columns=columns) if columns is not None else pq.read_table(path)
    return f.read_row_groups(row_groups, columns=columns)


# --- The result --------------------------------------------------------------------------

def test_read_table_and_read_parquet(reader, api_file):
    got = reader.read_table(api_file)
    assert hasattr(got, "__arrow_c_stream__")
    if not is_standin(reader):
        assert isinstance(got, quiver.Table)
    validate_full(got)
    expected = pq.read_table(api_file)
    assert_tables_equal(got, expected)
    assert_tables_equal(reader.read_parquet(str(api_file)), expected)


# --- Projection --------------------------------------------------------------------------

@pytest.mark.parametrize("columns", [["id"], ["id", "s", "l"], ["st"], ["m", "ts"], []],
                         ids=lambda c: ",".join(c) or "none")
def test_projection_top_level(reader, api_file, columns):
    got = reader.read_table(api_file, columns=columns)
    assert to_table(got).column_names == columns
    assert_tables_equal(got, _read_expected(api_file, columns))


def test_projection_order_not_pinned(reader, api_file):
    """Columns asked out of file order: the same columns, each equal (the order of the result
    is not pinned: pyarrow's read_table keeps the request's, ParquetFile.read the file's)."""
    got = to_table(reader.read_table(api_file, columns=["ts", "id", "s"]))
    expected = pq.read_table(api_file, columns=["ts", "id", "s"])
    assert sorted(got.column_names) == sorted(expected.column_names)
    for name in expected.column_names:
        assert_tables_equal(got.select([name]), expected.select([name]))


@pytest.mark.parametrize("columns", [
    ["st.a"], ["st.inner.x"], ["st.inner"], ["st.a", "st.inner.y"], ["st.inner.y.list.element"],
    ["id", "st.b"], ["l.list.element"], ["m.key_value.key", "m.key_value.value"],
], ids=lambda c: ",".join(c))
def test_projection_dotted_paths(reader, api_file, columns):
    got = reader.read_table(api_file, columns=columns)
    validate_full(got)
    assert_tables_equal(got, _read_expected(api_file, columns))


@pytest.mark.parametrize("columns", [["nope"], ["id", "zz_missing"], ["st.nope"], ["st.inner.x.deeper"]],
                         ids=lambda c: ",".join(c))
def test_projection_unknown_column(reader, api_file, columns):
    with pytest.raises(quiver.QuiverError) as e:
        reader.read_table(api_file, columns=columns)
    assert columns[-1] in str(e.value), str(e.value)
    with pytest.raises(quiver.QuiverError) as e:
        reader.ParquetFile(api_file).read(columns=columns)
    assert columns[-1] in str(e.value), str(e.value)


# --- Row groups ----------------------------------------------------------------------------

@pytest.mark.parametrize("row_groups", [[0], [1, 3], [3, 0], [2, 2], []], ids=str)
@pytest.mark.parametrize("columns", [None, ["id", "st.inner.y"]], ids=["all", "projected"])
def test_row_groups(reader, api_file, row_groups, columns):
    got = reader.read_table(api_file, columns=columns, row_groups=row_groups)
    validate_full(got)
    assert_tables_equal(got, _read_expected(api_file, columns, row_groups))


@pytest.mark.parametrize("columns", [None, ["s", "m"]], ids=["all", "projected"])
def test_read_row_group_and_read(reader, api_file, columns):
    f = reader.ParquetFile(api_file)
    p = pq.ParquetFile(api_file)
    assert f.num_row_groups == 4
    for i in range(4):
        assert_tables_equal(f.read_row_group(i, columns=columns), p.read_row_group(i, columns=columns))
    assert_tables_equal(f.read(columns=columns), _read_expected(api_file, columns))


@pytest.mark.parametrize("bad", [[4], [-1], [0, 99]], ids=str)
def test_row_groups_out_of_range(reader, api_file, bad):
    with pytest.raises(quiver.QuiverError):
        reader.read_table(api_file, row_groups=bad)
    f = reader.ParquetFile(api_file)
    with pytest.raises(quiver.QuiverError):
        list(f.iter_batches(row_groups=bad))
    with pytest.raises(quiver.QuiverError):
        f.read_row_group(bad[-1])


# --- Batches -----------------------------------------------------------------------------

@pytest.mark.parametrize("batch_size", [1, 7, 1024, 65536])
@pytest.mark.parametrize("columns,row_groups", [(None, None), (["st.inner.y", "s", "m"], None), (None, [1, 3])],
                         ids=["all", "projected", "row_groups"])
def test_iter_batches(reader, api_file, batch_size, columns, row_groups):
    f = reader.ParquetFile(api_file)
    batches = [to_batch(b) for b in f.iter_batches(batch_size=batch_size, columns=columns, row_groups=row_groups)]
    expected = _read_expected(api_file, columns, row_groups)
    sizes = [b.num_rows for b in batches]
    assert all(0 < n <= batch_size for n in sizes), sizes
    assert sum(sizes) == expected.num_rows
    if batch_size >= ROWS:
        assert len(batches) <= 4  # at most one batch per row group
    for b in batches:
        b.validate(full=True)
    assert_tables_equal(batches_to_table(batches, f.schema_arrow), expected)


# --- Sources -----------------------------------------------------------------------------

SOURCES = {
    "str": lambda p: str(p),
    "pathlib": lambda p: Path(p),
    "bytes": lambda p: p.read_bytes(),
    "bytearray": lambda p: bytearray(p.read_bytes()),
    "memoryview": lambda p: memoryview(p.read_bytes()),
    "memoryview_slice": lambda p: memoryview(b"xx" + p.read_bytes() + b"yy")[2:-2],
    "file_object": lambda p: open(p, "rb"),
    "bytesio": lambda p: io.BytesIO(p.read_bytes()),
}


@pytest.mark.parametrize("kind", list(SOURCES))
def test_sources(reader, api_file, kind):
    sources = [SOURCES[kind](api_file), SOURCES[kind](api_file)]
    try:
        got = reader.read_table(sources[0], columns=["id", "st", "l"])
        assert_tables_equal(got, _read_expected(api_file, ["id", "st", "l"]))
        f = reader.ParquetFile(sources[1])
        assert f.metadata.num_rows == ROWS and f.num_row_groups == 4
        assert_tables_equal(f.read_row_group(2), pq.ParquetFile(api_file).read_row_group(2))
        assert_tables_equal(f.read(columns=["m"]), _read_expected(api_file, ["m"]))
    finally:
        for source in sources:
            if hasattr(source, "close"):
                source.close()


def test_source_errors(reader, tmp_path, api_file):
    with pytest.raises(quiver.IOError) as e:
        reader.read_table(tmp_path / "missing.parquet")
    assert isinstance(e.value, OSError)
    (tmp_path / "text.parquet").write_bytes(b"this is not a Parquet file at all")
    with pytest.raises(quiver.QuiverError):
        reader.read_table(tmp_path / "text.parquet")
    data = api_file.read_bytes()
    for cut in (len(data) - 1, len(data) // 2, 8, 0):
        with pytest.raises(quiver.QuiverError):
            reader.read_table(data[:cut])
    with pytest.raises(TypeError):
        reader.read_table(12345)


# --- ParquetFile's metadata ------------------------------------------------------------------

META_FILE_COLUMNS = {
    "i32": pa.array([None if i % 9 == 0 else i - 500 for i in range(1500)], pa.int32()),
    "i64": pa.array([i * 1_000_000_007 for i in range(1500)], pa.int64()),
    "f64": pa.array([None if i % 4 == 0 else i / 3 for i in range(1500)], pa.float64()),
    "f32": pa.array([i / 7 for i in range(1500)], pa.float32()),
    "s": pa.array([f"name{i % 37:03d}" for i in range(1500)], pa.string()),
    "bin": pa.array([None if i % 5 == 0 else bytes([i % 251, 7]) for i in range(1500)], pa.binary()),
    "bo": pa.array([i % 3 == 0 for i in range(1500)], pa.bool_()),
    "l": pa.array([[i, i + 1] if i % 6 else None for i in range(1500)], pa.list_(pa.int64())),
    "st": pa.array([{"x": i % 10, "y": None} for i in range(1500)],
                   pa.struct([("x", pa.int16()), ("y", pa.string())])),
}

COLUMN_CHUNK_FIELDS = ("path_in_schema", "physical_type", "compression", "num_values", "total_compressed_size",
                       "total_uncompressed_size", "data_page_offset", "dictionary_page_offset",
                       "has_dictionary_page", "file_offset")
STATISTICS_FIELDS = ("has_min_max", "min", "max", "null_count", "has_null_count")


@pytest.mark.parametrize("options", [{"compression": "zstd"}, {"compression": "none", "use_dictionary": False},
                                     {"compression": "gzip", "data_page_version": "2.0",
                                      "column_encoding": {"i64": "DELTA_BINARY_PACKED", "s": "DELTA_BYTE_ARRAY"},
                                      "use_dictionary": ["bin"]}],
                         ids=["zstd", "plain", "v2_delta"])
def test_parquet_file_metadata(reader, tmp_path, options):
    path = tmp_path / "meta.parquet"
    pq.write_table(pa.table(META_FILE_COLUMNS), path, row_group_size=600, **options)
    f, p = reader.ParquetFile(path), pq.ParquetFile(path)
    q, m = f.metadata, p.metadata
    assert (q.num_rows, q.num_row_groups, q.num_columns) == (m.num_rows, m.num_row_groups, m.num_columns) == \
        (1500, 3, 10)
    assert f.num_row_groups == 3
    assert q.created_by == m.created_by
    assert_schemas_equal(f.schema_arrow, p.schema_arrow)
    for i in range(m.num_row_groups):
        qg, pg = q.row_group(i), m.row_group(i)
        assert (qg.num_rows, qg.num_columns, qg.total_byte_size) == (pg.num_rows, pg.num_columns, pg.total_byte_size)
        for j in range(pg.num_columns):
            qc, pc = qg.column(j), pg.column(j)
            where = f"row group {i} column {pc.path_in_schema}"
            for name in COLUMN_CHUNK_FIELDS:
                assert getattr(qc, name) == getattr(pc, name), f"{where}: {name}"
            assert list(qc.encodings) == list(pc.encodings), f"{where}: encodings"
            assert (qc.statistics is None) == (pc.statistics is None), f"{where}: statistics"
            if pc.statistics is not None:
                for name in STATISTICS_FIELDS:
                    assert getattr(qc.statistics, name) == getattr(pc.statistics, name), \
                        f"{where}: statistics.{name}"


# --- Reader options ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def untyped_file(tmp_path_factory):
    """Strings, binaries and lists without ARROW:schema (pyarrow's binary_type / list_type
    apply only where the stored Arrow schema does not say the type)."""
    path = tmp_path_factory.mktemp("reader_options") / "untyped.parquet"
    t = pa.table({
        "s": pa.array(["a", "bb", None, "a"] * 300),
        "b": pa.array([b"x", None, b"yy", b"x"] * 300),
        "l": pa.array([["p", None], None, [], ["q"]] * 300, pa.list_(pa.string())),
        "ll": pa.array([[[1], []], None, [[2, 3]], []] * 300, pa.list_(pa.list_(pa.int64()))),
        "i": pa.array(range(1200), pa.int32()),
        "fsb": pa.array([b"abc", b"def", None, b"abc"] * 300, pa.binary(3)),
    })
    pq.write_table(t, path, store_schema=False, row_group_size=500)
    return path


def _leaves(path, names):
    """pyarrow's read_dictionary takes leaf paths only (ParquetFile raises KeyError for
    others, read_table ignores them); parquet_to_arrow.h also takes a top-level name for
    every leaf below it. The leaf paths a list of names means."""
    schema = pq.ParquetFile(path).schema
    leaves = [schema.column(i).path for i in range(len(schema))]
    return [p for p in leaves if any(p == n or p.startswith(n + ".") for n in names)]


@pytest.mark.parametrize("read_dictionary", [["s"], ["b", "l.list.element"], ["l"], ["fsb"], ["i"], ["s", "b", "l"]],
                         ids=lambda c: ",".join(c))
def test_read_dictionary(reader, untyped_file, read_dictionary):
    got = reader.read_table(untyped_file, read_dictionary=read_dictionary)
    validate_full(got)
    expected = pq.read_table(untyped_file, read_dictionary=_leaves(untyped_file, read_dictionary))
    assert_tables_equal(got, expected)
    if "s" in read_dictionary:
        assert to_table(got).schema.field("s").type == pa.dictionary(pa.int32(), pa.string())
    if "l" in read_dictionary:
        assert to_table(got).schema.field("l").type.value_type == pa.dictionary(pa.int32(), pa.string())


def test_read_dictionary_unknown_column(reader, untyped_file):
    # parquet_to_arrow.h: "A name that is no column is Invalid" (pyarrow ignores it).
    with pytest.raises(quiver.QuiverError, match="no_such_column"):
        reader.read_table(untyped_file, read_dictionary=["no_such_column"])


@pytest.mark.parametrize("binary_type", [None, pa.binary(), pa.large_binary(), pa.binary_view()], ids=str)
@pytest.mark.parametrize("list_type", [None, pa.ListType, pa.LargeListType], ids=str)
def test_binary_type_and_list_type(reader, untyped_file, binary_type, list_type):
    options = {k: v for k, v in (("binary_type", binary_type), ("list_type", list_type)) if v is not None}
    got = reader.read_table(untyped_file, **options)
    validate_full(got)
    expected = pq.read_table(untyped_file, **options)
    assert_tables_equal(got, expected)
    if binary_type is not None:
        assert expected.schema.field("b").type == binary_type
    if list_type is pa.LargeListType:
        assert pa.types.is_large_list(expected.schema.field("l").type)


def test_binary_and_list_type_yield_to_stored_schema(reader, api_file):
    got = reader.read_table(api_file, binary_type=pa.large_binary(), list_type=pa.LargeListType)
    assert_tables_equal(got, pq.read_table(api_file, binary_type=pa.large_binary(), list_type=pa.LargeListType))


@pytest.fixture(scope="module")
def int96_file(tmp_path_factory):
    """INT96 timestamps (as Spark and Impala write them) with nulls, in two row groups;
    "far" holds years 1000 and 2500, beyond int64 nanoseconds."""
    path = tmp_path_factory.mktemp("int96") / "int96.parquet"
    near = [0, None, 1_700_000_000_123_456, 1, -1, -86_400_000_001, None, 253_402_300_799_999_999 // 100]
    far = [-30_610_224_000_000_000, None, 16_725_225_600_000_001, 0] * 2
    t = pa.table({"ts": pa.array(near * 50, pa.timestamp("us")),
                  "ts_tz": pa.array(near * 50, pa.timestamp("us", tz="UTC")),
                  "far": pa.array(far * 50, pa.timestamp("us"))})
    pq.write_table(t, path, use_deprecated_int96_timestamps=True, store_schema=False, row_group_size=300)
    assert pq.ParquetFile(path).schema.column(0).physical_type == "INT96"
    return path


@pytest.mark.parametrize("unit", [None, "s", "ms", "us", "ns"])
@pytest.mark.parametrize("source", ["spark", "pyarrow"])
def test_coerce_int96_timestamp_unit(reader, int96_file, unit, source):
    path = CORPUS / "int96_from_spark.parquet" if source == "spark" else int96_file
    options = {} if unit is None else {"coerce_int96_timestamp_unit": unit}
    if source == "pyarrow" and unit in (None, "ns"):
        options["columns"] = ["ts", "ts_tz"]  # "far" overflows nanoseconds (pyarrow wraps)
    got = reader.read_table(path, **options)
    validate_full(got)
    assert_tables_equal(got, pq.read_table(path, **options))
    assert to_table(got).schema.field(0).type.unit == (unit or "ns")


# (filesystem, filters, decryption_properties and use_threads are named by
# docs/interfaces.md: test_reader_options.py.)
@pytest.mark.parametrize("keyword", ["memory_map", "buffer_size", "pre_buffer", "use_pandas_metadata",
                                     "partitioning", "schema", "ignore_prefixes",
                                     "schema_depth_limit", "no_such_option"])
def test_unknown_keyword(reader, api_file, keyword):
    with pytest.raises(TypeError, match=re.escape(keyword)):
        reader.read_table(api_file, **{keyword: None})


def test_thrift_limits(reader, tmp_path):
    path = tmp_path / "wide.parquet"
    pq.write_table(pa.table({f"c{i}": [i, None] for i in range(60)}), path)
    expected = pq.read_table(path)
    for option in ("thrift_string_size_limit", "thrift_container_size_limit"):
        assert_tables_equal(reader.read_table(path, **{option: 1 << 20}), expected)
        with pytest.raises((pa.ArrowException, OSError), match="Exceeded size limit"):
            pq.read_table(path, **{option: 10})
        with pytest.raises(quiver.QuiverError):
            reader.read_table(path, **{option: 10})


# --- Page checksums --------------------------------------------------------------------------

CORRUPT_PAGE = 2  # 0-based among the column chunk's data pages


def _corrupt_page_file(tmp_path, **options):
    """(path of a file whose CORRUPT_PAGE-th data page of column "payload" has one body byte
    flipped, that page's header offset)."""
    table = pa.table({"payload": pa.array(range(5000), pa.int64()), "other": pa.array(range(5000), pa.int32())})
    table = table.cast(pa.schema([pa.field("payload", pa.int64(), False), pa.field("other", pa.int32(), False)]))
    path = tmp_path / "corrupt.parquet"
    pq.write_table(table, path, write_page_checksum=True, data_page_size=1024, write_batch_size=100, **options)
    data = bytearray(path.read_bytes())
    chunk = parquet_pages.read_structure(bytes(data)).row_groups[0].columns[0]
    page = chunk.data_pages[CORRUPT_PAGE]
    assert page.crc is not None
    data[page.data_offset + page.compressed_size // 2] ^= 0x40
    path.write_bytes(bytes(data))
    return path, page.offset


CORRUPTIONS = {"plain": {"use_dictionary": False, "compression": "none"},
               "dictionary_snappy_v2": {"compression": "snappy", "data_page_version": "2.0"}}


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
def test_page_checksum_verification(reader, tmp_path, kind):
    path, offset = _corrupt_page_file(tmp_path, **CORRUPTIONS[kind])
    with pytest.raises((pa.ArrowException, OSError), match="CRC checksum verification failed"):
        pq.read_table(path, page_checksum_verification=True)
    with pytest.raises(quiver.QuiverError) as e:
        reader.read_table(path, page_checksum_verification=True)
    msg = str(e.value)
    assert "checksum" in msg.lower() or "crc" in msg.lower(), msg
    # The page is named: by its ordinal (0- or 1-based) or by its file offset.
    assert re.search(rf"page\D{{0,24}}\b({CORRUPT_PAGE}|{CORRUPT_PAGE + 1})\b", msg) or str(offset) in msg, msg
    with pytest.raises(quiver.QuiverError):
        list(reader.ParquetFile(path, page_checksum_verification=True).iter_batches(batch_size=100))
    # Unverified, the file reads (the flipped byte is data) or fails cleanly: no crash.
    for options in ({}, {"page_checksum_verification": False}):
        try:
            got = reader.read_table(path, **options)
        except quiver.QuiverError:
            continue
        validate_full(got)
        if kind == "plain":
            assert_tables_equal(got, pq.read_table(path))
    # The column the corruption is not in reads with verification on.
    assert_tables_equal(reader.read_table(path, columns=["other"], page_checksum_verification=True),
                        pq.ParquetFile(path).read(columns=["other"]))


# --- Quiver's own files ------------------------------------------------------------------------


@pytest.mark.parametrize("case", writer_tests.CASES, ids=writer_tests.CASE_IDS)
def test_quiver_roundtrip(reader, tmp_path, rng, case):
    """Every table of the writer matrix, written by quiver.write_parquet, reads back equal
    to pyarrow's reading of the same file (which test_parquet_write checks against the input)
    and to the input's values. Quiver writes every case of the matrix: a writer error is a
    failure (what Quiver refuses on purpose is in WRITER_REFUSES, none of it in the matrix)."""
    built = writer_tests.build_case(case, rng)
    path = tmp_path / "quiver.parquet"
    quiver.write_parquet(built.table, str(path), **built.options)
    got = reader.read_table(path)
    validate_full(got)
    assert_tables_equal(got, pq.read_table(path))
    ok, msg = writer_tests.tables_match(to_table(got), built.table)
    assert ok, msg


def _decimal_negative_scale():
    return pa.Array.from_buffers(pa.decimal128(5, -2), 1, [None, pa.py_buffer(bytes(16))])


# What quiver.write_parquet refuses on purpose: (name, table, options, Quiver's error class, a
# regex of its message, whether pyarrow 26 refuses it too, why). Each is asserted below; any
# other writer error in the round-trip tests is a failure.
WRITER_REFUSES = [
    # Parquet has no interval type matching Arrow's month_day_nano (pyarrow: "Unhandled type").
    ("interval", lambda: pa.table({"x": pa.array([pa.MonthDayNano([1, 2, 3])], pa.month_day_nano_interval())}),
     {}, quiver.NotImplementedError, "'x'.*month_day_nano", True),
    # A Parquet group needs a child.
    ("empty_struct", lambda: pa.table({"x": pa.array([{}, None], pa.struct([]))}),
     {}, quiver.NotImplementedError, "'x'.*no children", True),
    # FIXED_LEN_BYTE_ARRAY needs a positive length.
    ("fixed_size_binary_0", lambda: pa.table({"x": pa.array([b"", b""], pa.binary(0))}),
     {}, quiver.NotImplementedError, "'x'.*positive length", True),
    # A row that refers to a null dictionary value (pyarrow refuses any null in the dictionary;
    # Quiver writes a dictionary with nulls the rows do not use).
    ("null_dictionary_value", lambda: pa.table({"x": pa.DictionaryArray.from_arrays(
        pa.array([0, 1]), pa.array(["a", None]))}), {}, quiver.InvalidError, "'x'.*null dictionary value", True),
    # Dictionaries of nested values have no Parquet form (pyarrow: "not yet supported").
    ("dictionary_of_list", lambda: pa.table({"x": pa.DictionaryArray.from_arrays(
        pa.array([0, 0]), pa.array([[1], [2]]))}), {}, quiver.NotImplementedError, "'x'.*dictionary of", True),
    # Parquet's DECIMAL needs 0 <= scale <= precision.
    ("decimal_negative_scale", lambda: pa.table({"x": _decimal_negative_scale()}),
     {}, quiver.InvalidError, "'x'.*scale", True),
    # Invalid UTF-8 in a string column: pyarrow writes it unchecked; Quiver refuses unless
    # validate_utf8=False (a reader would build invalid string arrays from it).
    ("invalid_utf8", lambda: pa.table({"x": pa.array([b"\xff"], pa.binary()).view(pa.string())}),
     {}, quiver.InvalidError, "'x'.*invalid UTF-8.*validate_utf8=False", False),
    # Nanoseconds stored as microseconds (version '2.4') that would lose precision, as pyarrow.
    ("lossy_nanoseconds_v2_4", lambda: pa.table({"x": pa.array([1001], pa.timestamp("ns"))}),
     {"version": "2.4"}, quiver.InvalidError, "'x'.*would lose data: 1001.*version '2.4'", True),
    # Seconds stored as milliseconds that do not fit in int64, as pyarrow.
    ("timestamp_overflow", lambda: pa.table({"x": pa.array([2 ** 62], pa.timestamp("s"))}),
     {}, quiver.InvalidError, "'x'.*overflow", True),
]


@pytest.mark.parametrize("name,make,options,error,match,pyarrow_refuses", WRITER_REFUSES,
                         ids=[c[0] for c in WRITER_REFUSES])
def test_writer_refuses(tmp_path, name, make, options, error, match, pyarrow_refuses):
    table = make()
    with pytest.raises(error, match=match):
        quiver.write_parquet(table, str(tmp_path / "q.parquet"), **options)
    assert list(tmp_path.iterdir()) == []
    try:
        pq.write_table(table, tmp_path / "p.parquet", **options)
        refused = False
    except (pa.ArrowException, OSError, ValueError):
        refused = True
    assert refused == pyarrow_refuses


@pytest.mark.parametrize("codec", writer_tests.CODECS)
def test_quiver_roundtrip_every_type(reader, tmp_path, codec):
    table = pa.table({n: a for n, a in writer_tests.TYPES if len(a) == 10})
    path = tmp_path / "all.parquet"
    quiver.write_parquet(table, str(path), **writer_tests.codec_options(codec))
    got = reader.read_table(path)
    validate_full(got)
    assert_tables_equal(got, pq.read_table(path))
    ok, msg = writer_tests.tables_match(to_table(got), table)
    assert ok, msg


# --- Handing the result on ---------------------------------------------------------------------

def test_result_into_polars_and_duckdb(reader, tmp_path):
    import duckdb
    import polars as pl

    path = tmp_path / "hand.parquet"
    pq.write_table(pa.table({
        "i": pa.array(range(300), pa.int64()),
        "s": pa.array([None if i % 7 == 0 else f"s{i}" for i in range(300)]),
        "f": pa.array([i / 4 for i in range(300)], pa.float64()),
        "l": pa.array([[i, None] if i % 3 else None for i in range(300)], pa.list_(pa.int32())),
        "st": pa.array([{"a": i, "b": str(i)} for i in range(300)]),
        "ts": pa.array(range(300), pa.timestamp("ms", tz="UTC")),
    }), path, row_group_size=128)
    expected = pq.read_table(path)
    q = reader.read_table(path)
    assert pl.from_arrow(pa.table(q)).equals(pl.from_arrow(expected))
    assert pl.DataFrame(q).equals(pl.from_arrow(expected))
    got = duckdb.sql("select * from q order by i").to_arrow_table()
    want = duckdb.sql("select * from expected order by i").to_arrow_table()
    assert_tables_equal(got, want)


# --- bloom filters, page index, bounded memory -------------------------------------------

def test_bloom_filter_might_contain(tmp_path):
    path = tmp_path / "bloom.parquet"
    n = 5000
    table = pa.table({"i": pa.array(range(0, 3 * n, 3), pa.int64()),
                      "s": pa.array([f"key-{k}" for k in range(n)]),
                      "x": pa.array(range(n), pa.int32())})
    quiver.write_parquet(table, str(path), bloom_filter_options={"i": {"ndv": n, "fpp": 0.01},
                                                                 "s": {"ndv": n, "fpp": 0.01}})
    f = quiver.ParquetFile(str(path))
    bi, bs = f.bloom_filter(0, "i"), f.bloom_filter(0, 1)
    assert f.bloom_filter(0, "x") is None
    assert all(bi.might_contain(v) for v in range(0, 3 * n, 3))
    assert all(f"key-{k}" in bs for k in range(n))
    false_positives = sum(bi.might_contain(v) for v in range(1, 3 * n, 3))
    assert false_positives < 0.05 * n, false_positives
    assert sum(f"other-{k}" in bs for k in range(n)) < 0.05 * n
    with pytest.raises(KeyError, match="nope"):
        f.bloom_filter(0, "nope")


def test_iter_batches_bounded_memory(tmp_path):
    # 512 MiB decoded (8x a 64 MiB cap), written from one 8 MiB batch repeated.
    path = tmp_path / "big.parquet"
    rows = 65536
    batch = pa.record_batch({f"c{k}": pa.array(range(k, k + rows), pa.int64()) for k in range(16)})
    assert batch.nbytes == 8 << 20
    with quiver.ParquetWriter(str(path), batch.schema, compression="zstd", use_dictionary=False,
                              row_group_size=1 << 20) as w:
        for _ in range(64):
            w.write_batch(batch)
    f = quiver.ParquetFile(str(path), memory_limit=64 << 20)
    total = 0
    for b in f.iter_batches(batch_size=32768):
        total += b.num_rows
        del b
    assert total == 64 * rows
    # The cap is real: a cap below one batch fails cleanly.
    tiny = quiver.ParquetFile(str(path), memory_limit=1 << 20)
    with pytest.raises(quiver.OutOfMemoryError):
        for _ in tiny.iter_batches(batch_size=32768):
            pass


def test_dictionary_reservation_is_a_hint_under_a_memory_limit(tmp_path):
    # A dictionary of one long entry among short ones: the string buffer's
    # reservation for the chunk (values x the entries' lengths) is far past
    # a 32 MiB cap though the values take 40 KB. The pool's refusal of that
    # hint is not the read's error; the values still read equal to pyarrow.
    path = tmp_path / "skewed.parquet"
    values = ["a"] * 39_999 + ["x" * 100_000]
    table = pa.table({"s": values})
    pq.write_table(table, path, use_dictionary=True, dictionary_pagesize_limit=1 << 20)
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).encodings.count(
        "RLE_DICTIONARY") == 1
    got = quiver.read_table(str(path), memory_limit=32 << 20, use_threads=False)
    assert pa.table(got).equals(pq.read_table(path))


@pytest.mark.skipif(os.environ.get("QUIVER_DEEP_TESTS") != "1",
                    reason="deep mode (QUIVER_DEEP_TESTS=1): reads 2.2 GiB of strings")
def test_row_group_of_more_than_2gib_strings_reads_chunked(tmp_path):
    path = tmp_path / "big_strings.parquet"
    n, value = 2200, "x" * (1 << 20)
    column = pa.DictionaryArray.from_arrays(pa.array([0] * n, pa.int32()), pa.array([value]))
    quiver.write_parquet(pa.table({"s": column}), str(path), store_schema=False,
                         row_group_size=n)
    got = quiver.read_table(str(path))
    assert got.num_chunks(0) >= 2
    t = pa.table(got)
    assert t.schema.field("s").type == pa.string()
    assert t.num_rows == n
    t.validate(full=True)
    assert t.equals(pq.read_table(path))


def test_corrupt_arrow_schema_is_ignored_with_a_warning(tmp_path):
    path = tmp_path / "corrupt_schema.parquet"
    table = pa.table({"x": pa.array([1, 2, None], pa.int64())})
    pq.write_table(table, path)
    data = path.read_bytes()
    value = pq.ParquetFile(path).metadata.metadata[b"ARROW:schema"]
    at = data.rindex(value)
    # Same length, still base64, but zeros: not an IPC schema message.
    path.write_bytes(data[:at] + b"A" * len(value) + data[at + len(value):])
    with pytest.warns(RuntimeWarning, match="ARROW:schema"):
        got = quiver.read_table(str(path))
    assert pa.table(got).column("x").to_pylist() == [1, 2, None]
