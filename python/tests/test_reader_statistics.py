"""quiver.ParquetFile(...).metadata against pyarrow's, attribute by attribute, for every
column chunk of every file of the corpus: testdata/parquet-testing, testdata/quiver,
testdata/peers, and files pyarrow writes here for every type it writes (with nulls,
all-null chunks, NaN, empty and long strings, negative decimals, v1 and v2 pages,
format versions 1.0 and 2.6, statistics off).

Every attribute of pyarrow's ColumnChunkMetaData and Statistics (pyarrow 26 has no
is_min_exact / is_max_exact) is compared, the logical type by its string and kind; where
pyarrow raises (a string bound that is not UTF-8, a nanosecond time it will not make a
datetime), Quiver must raise the same exception class. This is the safety net of the
statistics rules (python/quiver/_parquet_metadata.py, and the C++ decoding that replaces
it later): a difference anywhere fails with the file, row group, column and attribute.
"""

import decimal
import math
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import quiver
from make_reader_manifest import REFUSED

REPO = Path(__file__).resolve().parents[2]
TESTDATA = REPO / "testdata"

CHUNK_ATTRIBUTES = (
    "file_offset", "file_path", "physical_type", "num_values", "path_in_schema",
    "is_stats_set", "compression", "encodings", "has_dictionary_page", "dictionary_page_offset",
    "data_page_offset", "total_compressed_size",
    "total_uncompressed_size", "bloom_filter_offset", "bloom_filter_length", "has_offset_index",
    "has_column_index",
)
# pyarrow 26 raises NotImplementedError for has_index_page and index_page_offset; Quiver
# gives the footer's (checked against the raw footer in differences()).
STATISTICS_ATTRIBUTES = (
    "has_min_max", "min", "max", "min_raw", "max_raw", "null_count", "has_null_count",
    "distinct_count", "has_distinct_count", "num_values", "physical_type", "converted_type",
)


def corpus_files():
    files = []
    for folder in ("parquet-testing", "quiver", "peers"):
        for p in sorted((TESTDATA / folder).rglob("*.parquet")):
            files.append(p)
    return files


def _pyarrow_written(root):
    """Files pyarrow writes of every type, under the options that change statistics."""
    n = 40
    nulls = [None if i % 3 == 0 else i for i in range(n)]

    def arr(values, type_):
        return pa.array(values, type_)

    table = pa.table({
        "bool": arr([None if i % 4 == 0 else i % 2 == 0 for i in range(n)], pa.bool_()),
        "i8": arr([None if v is None else v - 20 for v in nulls], pa.int8()),
        "i16": arr([None if v is None else v * -300 for v in nulls], pa.int16()),
        "i32": arr([None if v is None else v * -70000 for v in nulls], pa.int32()),
        "i64": arr([None if v is None else v * -(1 << 40) for v in nulls], pa.int64()),
        "u8": arr([None if v is None else 250 - v for v in nulls], pa.uint8()),
        "u16": arr([None if v is None else 65000 - v for v in nulls], pa.uint16()),
        "u32": arr([None if v is None else 4_000_000_000 - v for v in nulls], pa.uint32()),
        "u64": arr([None if v is None else (1 << 63) + v for v in nulls], pa.uint64()),
        "f16": arr([None if v is None else v / 4 for v in nulls], pa.float16()),
        "f32": arr([None if v is None else (float("nan") if v == 5 else -v / 3) for v in nulls],
                   pa.float32()),
        "f64": arr([None if v is None else v / 7 - 2 for v in nulls], pa.float64()),
        "f64_nan": arr([float("nan")] * n, pa.float64()),
        "zero": arr([0.0, -0.0] * (n // 2), pa.float64()),
        "str": arr([None if v is None else f"s{v:03d}é" for v in nulls], pa.string()),
        "str_empty": arr(["" for _ in range(n)], pa.string()),
        "str_long": arr(["x" * 5000 + str(i) for i in range(n)], pa.string()),
        "large_str": arr([f"L{i}" for i in range(n)], pa.large_string()),
        "bin": arr([None if v is None else bytes([v, 255 - v]) for v in nulls], pa.binary()),
        "fsb": arr([bytes([i, 0, 255 - i]) for i in range(n)], pa.binary(3)),
        "date32": arr([None if v is None else v * 1000 - 5000 for v in nulls], pa.date32()),
        "date64": arr([v * 86_400_000 for v in range(n)], pa.date64()),
        "t32s": arr([v for v in range(n)], pa.time32("s")),
        "t32ms": arr([v * 1000 for v in range(n)], pa.time32("ms")),
        "t64us": arr([v for v in range(n)], pa.time64("us")),
        "t64ns": arr([v * 1000 for v in range(n)], pa.time64("ns")),
        "ts_s": arr([v - 20 for v in range(n)], pa.timestamp("s")),
        "ts_ms": arr([v for v in range(n)], pa.timestamp("ms", "UTC")),
        "ts_us": arr([v for v in range(n)], pa.timestamp("us", "Europe/Paris")),
        "ts_ns": arr([v * 1000 for v in range(n)], pa.timestamp("ns")),
        "dur": arr([v for v in range(n)], pa.duration("ms")),
        "dec9": arr([None if v is None else decimal.Decimal(v - 20) / 100 for v in nulls],
                    pa.decimal128(9, 2)),
        "dec18": arr([decimal.Decimal(-v) / 1000 for v in range(n)], pa.decimal128(18, 3)),
        "dec38": arr([decimal.Decimal(v - 20) * 10**20 for v in range(n)], pa.decimal128(38, 0)),
        "dec76": arr([decimal.Decimal(20 - v) for v in range(n)], pa.decimal256(76, 0)),
        "dict": arr([f"d{i % 3}" for i in range(n)], pa.string()).dictionary_encode(),
        "list": arr([[i, -i] if i % 5 else None for i in range(n)], pa.list_(pa.int32())),
        "struct": arr([{"a": i, "b": str(i)} for i in range(n)],
                      pa.struct([("a", pa.int64()), ("b", pa.string())])),
        "map": arr([[(str(i), i)] for i in range(n)], pa.map_(pa.string(), pa.int16())),
        "null": arr([None] * n, pa.null()),
        "all_null_i32": arr([None] * n, pa.int32()),
        "uuid": pa.array([bytes([i] * 16) for i in range(n)], pa.uuid()),
        "json": pa.array(['{"a": %d}' % i for i in range(n)], pa.json_()),
    })
    variants = {
        "default": {},
        "v1_format": {"version": "1.0"},
        "v2_pages": {"data_page_version": "2.0", "use_dictionary": False},
        "no_stats": {"write_statistics": False},
        "some_stats": {"write_statistics": ["i32", "str"]},
        "int96": {"use_deprecated_int96_timestamps": True},
        "small_groups": {"row_group_size": 7, "compression": "zstd"},
    }
    out = []
    for name, options in variants.items():
        path = root / f"pyarrow_{name}.parquet"
        pq.write_table(table, path, **options)
        out.append(path)
    return out


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    return _pyarrow_written(tmp_path_factory.mktemp("statistics"))


def _get(obj, name):
    """(value, None) or (None, exception class) of obj.name."""
    try:
        return getattr(obj, name), None
    except Exception as e:  # noqa: BLE001 - compared by class
        return None, type(e)


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if type(a) is not type(b) and not (a is None or b is None):
        return False
    if isinstance(a, decimal.Decimal):
        return a.as_tuple() == b.as_tuple()
    if hasattr(a, "tzinfo") and hasattr(b, "tzinfo"):
        return a == b and str(a.tzinfo) == str(b.tzinfo)
    return a == b


def differences(path):
    """Every attribute where Quiver's metadata differs from pyarrow's."""
    out = []
    expected = pq.ParquetFile(path).metadata
    got = quiver.ParquetFile(str(path)).metadata
    for name in ("num_rows", "num_row_groups", "num_columns", "created_by", "format_version"):
        if getattr(got, name) != getattr(expected, name):
            out.append(f"FileMetaData.{name}: {getattr(got, name)!r} != {getattr(expected, name)!r}")
    for r in range(expected.num_row_groups):
        e_group, g_group = expected.row_group(r), got.row_group(r)
        for name in ("num_rows", "total_byte_size", "num_columns"):
            if getattr(g_group, name) != getattr(e_group, name):
                out.append(f"row group {r}: {name}: {getattr(g_group, name)!r} != "
                           f"{getattr(e_group, name)!r}")
        for c in range(e_group.num_columns):
            e, g = e_group.column(c), g_group.column(c)
            where = f"row group {r}, column {c} ({e.path_in_schema})"
            for name in CHUNK_ATTRIBUTES:
                (ev, ee), (gv, ge) = _get(e, name), _get(g, name)
                if ee != ge or not _same(gv, ev):
                    out.append(f"{where}: {name}: {gv!r} ({ge}) != pyarrow {ev!r} ({ee})")
            if g.has_index_page != (g.index_page_offset is not None):
                out.append(f"{where}: has_index_page {g.has_index_page} but index_page_offset "
                           f"{g.index_page_offset}")
            es, gs = e.statistics, g.statistics
            if (es is None) != (gs is None):
                out.append(f"{where}: statistics: {gs!r} != pyarrow {es!r}")
                continue
            if es is None:
                continue
            for name in STATISTICS_ATTRIBUTES:
                (ev, ee), (gv, ge) = _get(es, name), _get(gs, name)
                if ee != ge or not _same(gv, ev):
                    out.append(f"{where}: Statistics.{name}: {gv!r} ({ge}) != pyarrow {ev!r} ({ee})")
            try:
                ed = es.to_dict()
            except Exception:  # noqa: BLE001 - a bound pyarrow cannot convert: compared above
                ed = None
            if ed is not None:
                gd = gs.to_dict()
                if set(gd) != set(ed) or any(not _same(gd[k], ed[k]) for k in ed):
                    out.append(f"{where}: Statistics.to_dict(): {gd} != pyarrow {ed}")
            e_logical, g_logical = es.logical_type, gs.logical_type
            if str(g_logical) != str(e_logical) or g_logical.type != e_logical.type:
                out.append(f"{where}: Statistics.logical_type: {g_logical} ({g_logical.type}) != "
                           f"pyarrow {e_logical} ({e_logical.type})")
    return out


def _openable(path):
    """pyarrow opens it, and Quiver does not refuse it on purpose (reader_manifest.json)."""
    if path.name in REFUSED:
        return False
    try:
        pq.ParquetFile(path).metadata
    except (pa.ArrowException, OSError):
        return False
    return True


CORPUS = [p for p in corpus_files() if _openable(p)]


def test_corpus_is_whole():
    names = {p.name for p in CORPUS}
    assert len(CORPUS) > 250, len(CORPUS)
    for expected in ("alltypes_plain.parquet", "typed.parquet", "compat_na_values.parquet"):
        assert expected in names


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(TESTDATA)))
def test_metadata_equals_pyarrow(path):
    diff = differences(path)
    assert not diff, f"{path.relative_to(TESTDATA)}:\n  " + "\n  ".join(diff[:40])


def test_pyarrow_written_files(written):
    failures = {}
    for path in written:
        diff = differences(path)
        if diff:
            failures[path.name] = diff[:20]
    assert not failures, "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in failures.items())


def test_legacy_bounds_of_unsigned_columns_are_not_used(tmp_path):
    """The issue's case: a footer with only the legacy min/max (no column orders) on a
    uint32 column: signed-order bounds, wrong there. pyarrow gives no bounds unless the
    writer is one it trusts; Quiver must agree, and never decode them as unsigned."""
    path = tmp_path / "u32.parquet"
    pq.write_table(pa.table({"u": pa.array([1, 4_000_000_000], pa.uint32())}), path)
    assert not differences(path)
    s = quiver.ParquetFile(str(path)).metadata.row_group(0).column(0).statistics
    assert (s.min, s.max) == (1, 4_000_000_000)
