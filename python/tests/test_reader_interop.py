"""Quiver's Parquet reader on files other writers make, at test time, into tmp_path.

  pyarrow  every type group (TYPE_GROUPS: each Arrow type pyarrow writes, with nulls;
           nested lists / structs / maps; dictionaries; large and view types; timestamps
           with time zones; durations; decimals of every width; float16 with NaNs) under
           every option set of PYARROW_OPTIONS (each encoding, each codec, data page v1 and
           v2, dictionary on / off, small pages, many row groups, page index, checksums,
           no stored schema, non-compliant nested names, INT96, format 1.0, CDC);
  duckdb   COPY ... TO (FORMAT parquet, COMPRESSION, ROW_GROUP_SIZE), flat and nested;
  polars   write_parquet, several codecs and sizes, with lists and structs.

For each file Quiver's read_table equals pq.read_table, types included, and passes
ValidateFull. Test ids name the writer, the options and the type group. The tables have
about ROWS rows and fixed seeds (the group name), so a failure reproduces as it is.
"""

import functools
import math
import random
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from arrow_samples import nested_column, random_array
from reader_compare import assert_tables_equal, is_standin, validate_full

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import writer_matrix as wb  # noqa: E402  (leaf_paths: pyarrow's dotted leaf column paths)

ROWS = 2000


# --- Type groups -------------------------------------------------------------------------

def _floats_with_specials(t, rng):
    """A float column with NaN, -0.0, +-inf and nulls among random values."""
    arr = random_array(t, ROWS, rng, null_prob=0.1)
    specials = [math.nan, -0.0, 0.0, math.inf, -math.inf]
    values = [v if v is None or rng.random() < 0.8 else rng.choice(specials) for v in arr.to_pylist()]
    return pa.array(values, t)


def _large_list_view(rng):
    values = random_array(pa.list_(pa.string()), ROWS, rng).to_pylist()
    return pa.array(values, pa.large_list_view(pa.string()))


def _nested(leaf, kinds, nullable=True):
    return lambda rng: nested_column(leaf, kinds, ROWS, rng, nullable=nullable)[0]


def _required(t):
    """A non-nullable column of type `t` without nulls (children nullable as `t` says)."""
    return lambda rng: random_array(t, ROWS, rng, null_prob=0.0)


STRUCT_AB = pa.struct([("a", pa.int32()), ("b", pa.string())])

# group -> [(column name, Arrow type or function(rng) -> array, nullable)]
TYPE_GROUPS = {
    "ints": [(str(t), t, True) for t in (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(),
                                         pa.uint16(), pa.uint32(), pa.uint64())],
    "floats": [("float16", lambda rng: _floats_with_specials(pa.float16(), rng), True),
               ("float32", lambda rng: _floats_with_specials(pa.float32(), rng), True),
               ("float64", lambda rng: _floats_with_specials(pa.float64(), rng), True),
               ("float64_required", _required(pa.float64()), False)],
    "bool": [("bool", pa.bool_(), True), ("bool_required", _required(pa.bool_()), False)],
    "decimals": [("d32", pa.decimal32(9, 2), True), ("d64", pa.decimal64(18, 3), True),
                 ("d128", pa.decimal128(38, 10), True), ("d128_1", pa.decimal128(1, 0), True),
                 ("d256", pa.decimal256(76, 20), True), ("d256_40", pa.decimal256(40, 0), True)],
    "temporal": [(f"c{i}", t, True) for i, t in enumerate([
        pa.date32(), pa.date64(), pa.time32("s"), pa.time32("ms"), pa.time64("us"), pa.time64("ns"),
        pa.timestamp("s"), pa.timestamp("ms", tz="UTC"), pa.timestamp("us", tz="America/New_York"),
        pa.timestamp("ns", tz="+05:30"), pa.timestamp("ns"), pa.duration("s"), pa.duration("ms"),
        pa.duration("us"), pa.duration("ns")])],
    "binary": [("binary", pa.binary(), True), ("string", pa.string(), True),
               ("large_binary", pa.large_binary(), True), ("large_string", pa.large_string(), True),
               ("fixed_size_binary", pa.binary(5), True),
               ("long_strings", lambda rng: random_array(pa.string(), ROWS, rng, long_values=True), True),
               ("string_required", _required(pa.string()), False)],
    "views": [("string_view", pa.string_view(), True), ("binary_view", pa.binary_view(), True)],
    "dictionary": [("dict_string", pa.dictionary(pa.int32(), pa.string()), True),
                   ("dict_binary_ordered", pa.dictionary(pa.int8(), pa.binary(), ordered=True), True),
                   ("dict_large_string", pa.dictionary(pa.uint16(), pa.large_string()), True),
                   ("dict_int64_index", pa.dictionary(pa.int64(), pa.string()), True)],
    "null": [("null", pa.null(), True), ("int32", pa.int32(), True)],
    "lists": [("list", pa.list_(pa.int32()), True), ("large_list", pa.large_list(pa.string()), True),
              ("fixed_size_list", pa.list_(pa.int16(), 3), True),
              ("list_list", pa.list_(pa.list_(pa.int64())), True),
              ("list_view", pa.list_view(pa.int32()), True), ("large_list_view", _large_list_view, True),
              ("list_required_items", pa.list_(pa.field("item", pa.int64(), nullable=False)), True),
              ("list_of_dictionary", pa.list_(pa.dictionary(pa.int32(), pa.string())), True)],
    "structs": [("struct", STRUCT_AB, True),
                ("struct_nested", pa.struct([("x", pa.struct([("y", pa.float64()), ("z", pa.list_(pa.string()))])),
                                             ("w", pa.bool_())]), True),
                ("struct_required_child", pa.struct([pa.field("r", pa.int64(), nullable=False),
                                                     ("o", pa.string())]), True),
                ("struct_required", _required(STRUCT_AB), False)],
    "maps": [("map", pa.map_(pa.string(), pa.int64()), True),
             ("map_of_list", pa.map_(pa.int32(), pa.list_(pa.string())), True),
             ("map_of_struct", pa.map_(pa.string(), pa.struct([("a", pa.int32()), ("b", pa.float64())])), True),
             ("map_sorted", pa.map_(pa.string(), pa.string(), keys_sorted=True), True)],
    "deep": [("list_struct_map", _nested(pa.string(), ["map", "struct", "list"]), True),
             ("struct_large_list_list", _nested(pa.float64(), ["list", "large_list", "struct"]), True),
             ("fsl_map_struct", _nested(pa.int32(), ["struct", "map", "fixed_size_list"]), True),
             ("required_list_struct", _nested(pa.int64(), ["struct", "list"], nullable=False), False)],
}


@functools.lru_cache(maxsize=None)
def group_table(group):
    rng = random.Random(f"reader-interop-{group}")
    arrays, fields = [], []
    for name, spec, nullable in TYPE_GROUPS[group]:
        if isinstance(spec, pa.DataType):
            arr = random_array(spec, ROWS, rng, null_prob=0.2 if nullable else 0.0)
        else:
            arr = spec(rng)
        arrays.append(arr)
        fields.append(pa.field(name, arr.type, nullable=nullable))
    rows = min(len(a) for a in arrays)  # nested_column makes "about" ROWS rows
    return pa.Table.from_arrays([a.slice(0, rows) for a in arrays], schema=pa.schema(fields))


@functools.lru_cache(maxsize=None)
def group_leaves(group):
    """[(dotted leaf path, physical type)] of the group's table as pyarrow writes it."""
    sink = pa.BufferOutputStream()
    pq.write_table(group_table(group), sink)
    schema = pq.ParquetFile(pa.BufferReader(sink.getvalue())).schema
    return [(schema.column(i).path, schema.column(i).physical_type) for i in range(len(schema))]


# --- pyarrow's option sets ---------------------------------------------------------------

ENCODING_RULES = {
    # name -> {physical type: encoding}; other leaves keep PLAIN.
    "delta": {"INT32": "DELTA_BINARY_PACKED", "INT64": "DELTA_BINARY_PACKED",
              "BYTE_ARRAY": "DELTA_LENGTH_BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY": "DELTA_BYTE_ARRAY",
              "BOOLEAN": "RLE", "FLOAT": "BYTE_STREAM_SPLIT", "DOUBLE": "BYTE_STREAM_SPLIT"},
    "delta_byte_array": {"BYTE_ARRAY": "DELTA_BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY": "DELTA_BYTE_ARRAY",
                         "INT32": "DELTA_BINARY_PACKED", "BOOLEAN": "RLE"},
    "byte_stream_split": {t: "BYTE_STREAM_SPLIT" for t in ("INT32", "INT64", "FLOAT", "DOUBLE",
                                                           "FIXED_LEN_BYTE_ARRAY")},
}


def _encodings(rule):
    def options(group):
        enc = {path: ENCODING_RULES[rule][phys] for path, phys in group_leaves(group)
               if phys in ENCODING_RULES[rule]}
        return {"use_dictionary": False, "column_encoding": enc} if enc else {"use_dictionary": False}
    return options


def _byte_stream_split_flag(group):
    floats = [path for path, phys in group_leaves(group) if phys in ("FLOAT", "DOUBLE")]
    return {"use_dictionary": False, "use_byte_stream_split": floats or False}


SMALL_PAGES = {"data_page_size": 1024, "write_batch_size": 100, "dictionary_pagesize_limit": 1024}

# name -> write_table keywords, or function(group) -> keywords.
PYARROW_OPTIONS = {
    "default": {},
    "no_dictionary": {"use_dictionary": False},
    **{f"codec_{c}": {"compression": c} for c in ("none", "snappy", "gzip", "brotli", "lz4", "zstd")},
    "v2": {"data_page_version": "2.0"},
    "v2_no_dictionary_zstd": {"data_page_version": "2.0", "use_dictionary": False, "compression": "zstd"},
    "small_pages": SMALL_PAGES,
    "small_pages_v2_gzip": {**SMALL_PAGES, "data_page_version": "2.0", "compression": "gzip"},
    "small_pages_no_dictionary": {**SMALL_PAGES, "use_dictionary": False, "max_rows_per_page": 37},
    "many_row_groups": {"row_group_size": 100},
    "page_index": {"write_page_index": True},
    "page_checksum": {"write_page_checksum": True, "data_page_version": "2.0"},
    "no_store_schema": {"store_schema": False},
    "non_compliant_nested": {"use_compliant_nested_type": False},
    "encodings_delta_v2": lambda g: {**_encodings("delta")(g), "data_page_version": "2.0"},
    "encodings_delta_byte_array": _encodings("delta_byte_array"),
    "encodings_byte_stream_split": _encodings("byte_stream_split"),
    "use_byte_stream_split": _byte_stream_split_flag,
    "decimal_as_integer": {"store_decimal_as_integer": True},
    "int96_timestamps": {"use_deprecated_int96_timestamps": True},
    "format_1_0": {"version": "1.0", "coerce_timestamps": "us", "allow_truncated_timestamps": True},
    "content_defined_chunking": {"use_content_defined_chunking": True, "compression": "zstd"},
}

PYARROW_CASES = [(o, g) for o in PYARROW_OPTIONS for g in TYPE_GROUPS]


def pyarrow_options(name, group):
    opts = PYARROW_OPTIONS[name]
    return dict(opts(group) if callable(opts) else opts)


def _list_view_as_list(t):
    """Quiver's Arrow types have no list views (docs/design.md, "Parquet reader"): an
    ARROW:schema list_view / large_list_view is ignored for that field, which reads as the
    list pyarrow infers from the Parquet schema. The values are the same."""
    if isinstance(t, pa.Table):
        return pa.table([_list_view_as_list(c) for c in t.columns],
                        schema=pa.schema([pa.field(f.name, _list_view_as_list(f.type), f.nullable,
                                                   f.metadata) for f in t.schema]))
    if isinstance(t, pa.ChunkedArray):
        if t.type == _list_view_as_list(t.type):
            return t
        return pa.chunked_array([pa.array(t.to_pylist(), _list_view_as_list(t.type))])
    if pa.types.is_list_view(t) or pa.types.is_large_list_view(t):
        return pa.list_(t.value_field.with_type(_list_view_as_list(t.value_type)))
    return t


def check_file(reader, path, expected=None):
    expected = pq.read_table(path) if expected is None else expected
    expected = _list_view_as_list(expected)
    got = reader.read_table(str(path))
    validate_full(got)
    assert_tables_equal(got, expected)


def _delta_on_dictionary(table, options):
    """Whether `options` put a DELTA_(LENGTH_)BYTE_ARRAY encoding on a leaf that is an Arrow
    dictionary: pyarrow 26 writes such files but cannot read them back ("Not yet
    implemented: DecodeArrow of DictAccumulator for DeltaLengthByteArrayDecoder")."""
    encodings = options.get("column_encoding") or {}
    return any(pa.types.is_dictionary(t) and encodings.get(p, "").startswith("DELTA_")
               for p, t in wb.leaf_paths(table.schema))


@pytest.mark.parametrize("options,group", PYARROW_CASES, ids=[f"pyarrow-{o}-{g}" for o, g in PYARROW_CASES])
def test_pyarrow_written(reader, tmp_path, options, group):
    table, opts = group_table(group), pyarrow_options(options, group)
    path = tmp_path / "pyarrow.parquet"
    pq.write_table(table, path, **opts)
    expected = None
    if _delta_on_dictionary(table, opts):
        # pyarrow cannot read this file; the encoding does not change what a reader
        # returns, so Quiver must read it as pyarrow reads the same table written PLAIN.
        with pytest.raises((pa.ArrowNotImplementedError, OSError), match="DictAccumulator"):
            pq.read_table(path)
        if is_standin(reader):
            pytest.skip("the pyarrow stand-in cannot read this file")
        plain = tmp_path / "plain.parquet"
        pq.write_table(table, plain, **{k: v for k, v in opts.items() if k != "column_encoding"})
        expected = pq.read_table(plain)
    check_file(reader, path, expected)


# --- duckdb --------------------------------------------------------------------------------

DUCKDB_ROWS = 2100  # duckdb cuts row groups at multiples of 2048 rows: two row groups

DUCKDB_GROUPS = {
    "flat": """
        i::INTEGER AS i, (i * 7919)::BIGINT AS b, (i % 100)::TINYINT AS ti, (i % 30000)::SMALLINT AS si,
        (i * 3)::UINTEGER AS ui, (i * 1000003)::UBIGINT AS ub, (i % 200)::UTINYINT AS ut,
        CASE WHEN i % 11 = 0 THEN NULL ELSE i / 3.0 END::DOUBLE AS d,
        CASE WHEN i % 13 = 0 THEN 'NaN'::FLOAT ELSE (i / 7.0)::FLOAT END AS f,
        ((i % 999) * 0.1)::DECIMAL(4, 1) AS dec4, (i * 1.25)::DECIMAL(9, 2) AS dec9,
        (i * 1.25)::DECIMAL(18, 3) AS dec18, (i * 1.25)::DECIMAL(38, 5) AS dec38,
        i::HUGEINT AS hi, CASE WHEN i % 5 = 0 THEN NULL ELSE 'str' || (i % 97) END AS s,
        ('blob' || i)::BLOB AS bl, i % 3 = 0 AS bo, DATE '2020-01-01' + (i % 5000)::INTEGER AS dt,
        TIMESTAMP '2020-01-01' + to_seconds(i * 37) AS ts,
        TIMESTAMPTZ '2020-01-01 00:00:00+00' + to_seconds(i) AS tstz,
        TIMESTAMP_MS '2020-01-01 00:00:00' + to_seconds(i) AS ts_ms,
        TIMESTAMP_NS '2020-01-01 00:00:00' + to_seconds(i) AS ts_ns,
        TIME '00:00:00' + to_seconds(i % 86400) AS tm, to_seconds(i) AS iv,
        ('00000000-0000-0000-0000-' || lpad(i::VARCHAR, 12, '0'))::UUID AS u,
        CASE WHEN i % 4 = 0 THEN NULL ELSE ['a', 'b', 'c'][1 + i % 3] END::ENUM_T AS e""",
    "nested": """
        i::INTEGER AS i,
        CASE WHEN i % 7 = 0 THEN NULL ELSE [i, i + 1, NULL] END AS lst,
        {'a': i, 'b': 's' || i, 'c': [i::DOUBLE, NULL]} AS st,
        CASE WHEN i % 9 = 0 THEN NULL ELSE {'x': i % 4 = 0, 'y': NULL::VARCHAR} END AS st_null,
        MAP(['k' || (i % 10), 'z'], [i, NULL]) AS mp,
        MAP([i], [[{'p': i}]]) AS mp_nested,
        [{'x': i, 'y': ['a', NULL, 'b']}] AS lst_st,
        [[i], [], NULL, [i, i]] AS ll,
        [i, i + 1]::INTEGER[2] AS arr,
        CASE WHEN i % 3 = 0 THEN [] ELSE ['s' || i] END AS lst_str""",
}

DUCKDB_OPTIONS = {
    # No brotli: duckdb writes it at its slowest level (2-3 s a file); pyarrow's files have it.
    **{c: f"COMPRESSION {c}, ROW_GROUP_SIZE 2048" for c in ("uncompressed", "snappy", "gzip", "zstd", "lz4")},
    "zstd_one_row_group": "COMPRESSION zstd, ROW_GROUP_SIZE 100000",
    "v2_snappy": "COMPRESSION snappy, ROW_GROUP_SIZE 2048, PARQUET_VERSION v2",
    "no_dictionary": "COMPRESSION snappy, DICTIONARY_SIZE_LIMIT 1",
}

DUCKDB_CASES = [(o, g) for o in DUCKDB_OPTIONS for g in DUCKDB_GROUPS]


@pytest.fixture(scope="module")
def duck():
    import duckdb
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute("CREATE TYPE ENUM_T AS ENUM ('a', 'b', 'c')")
    yield con
    con.close()


@pytest.mark.parametrize("options,group", DUCKDB_CASES, ids=[f"duckdb-{o}-{g}" for o, g in DUCKDB_CASES])
def test_duckdb_written(reader, tmp_path, duck, options, group):
    path = tmp_path / "duckdb.parquet"
    duck.execute(f"COPY (SELECT {DUCKDB_GROUPS[group]} FROM range({DUCKDB_ROWS}) t(i)) "
                 f"TO '{path}' (FORMAT parquet, {DUCKDB_OPTIONS[options]})")
    check_file(reader, path)


# --- polars --------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def polars_frame():
    import polars as pl
    n = ROWS
    return pl.DataFrame({
        "i": pl.Series(range(n), dtype=pl.Int64),
        "u8": pl.Series([i % 256 for i in range(n)], dtype=pl.UInt8),
        "f": [None if i % 17 == 0 else (math.nan if i % 19 == 0 else i / 3) for i in range(n)],
        "f32": pl.Series([i / 7 for i in range(n)], dtype=pl.Float32),
        "s": [None if i % 4 == 0 else f"s{i % 300}" for i in range(n)],
        "bin": [bytes([i % 256]) * (i % 5) for i in range(n)],
        "bo": [None if i % 6 == 0 else i % 2 == 0 for i in range(n)],
        "cat": pl.Series([f"c{i % 5}" for i in range(n)], dtype=pl.Categorical),
        "enum": pl.Series(["a", "b", "c", "a"] * (n // 4), dtype=pl.Enum(["a", "b", "c"])),
        "dt": pl.Series([i * 1_000_003 for i in range(n)]).cast(pl.Datetime("us", "Europe/Paris")),
        "dt_ns": pl.Series([i * 1_000_000_007 for i in range(n)]).cast(pl.Datetime("ns")),
        "date": pl.Series(range(n)).cast(pl.Date),
        "time": pl.Series([i * 1_000_000 for i in range(n)]).cast(pl.Time),
        "dur": pl.Series(range(n)).cast(pl.Duration("ms")),
        "dec": pl.Series([i * 7 for i in range(n)]).cast(pl.Decimal(10, 2)),
        "l": [[i, None] if i % 3 else None for i in range(n)],
        "ls": [[f"x{i}"] * (i % 4) for i in range(n)],
        "arr": pl.Series([[i, i + 1] for i in range(n)], dtype=pl.Array(pl.Int32, 2)),
        "st": [{"a": i, "b": None if i % 5 == 0 else str(i), "c": [i]} for i in range(n)],
        "lst_st": [[{"p": i, "q": "v"}] if i % 2 else [] for i in range(n)],
    })


POLARS_OPTIONS = {
    **{c: {"compression": c} for c in ("uncompressed", "snappy", "gzip", "lz4", "zstd", "brotli")},
    "zstd_small_row_groups": {"compression": "zstd", "row_group_size": 300},
    "small_pages_no_statistics": {"compression": "snappy", "data_page_size": 1024, "statistics": False},
}


@pytest.mark.parametrize("options", list(POLARS_OPTIONS), ids=[f"polars-{o}-mixed" for o in POLARS_OPTIONS])
def test_polars_written(reader, tmp_path, options):
    path = tmp_path / "polars.parquet"
    polars_frame().write_parquet(path, **POLARS_OPTIONS[options])
    check_file(reader, path)
