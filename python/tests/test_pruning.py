"""Filter pruning (src/quiver/parquet/pruning/) judged by pyarrow's
decode-then-filter: for random files and random predicates, every row group
and row range that pruning drops holds no row that

    pq.read_table(f).filter(pq.filters_to_expression(F))

keeps (checked by row position), through the private binding
quiver._quiver._prune_row_groups (python/src/pruning_bindings.cc). Plus
effectiveness on a sorted column and hand-made and parquet-testing files
for each bug class (legacy statistics, null pages, INT96, unsigned order,
NaN, truncated bounds).
"""
import datetime
import decimal
import math
import os
import pathlib
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import quiver
import quiver.compute as qc
from quiver import _quiver

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTDATA = ROOT / "testdata"
BUDGET_S = float(os.environ.get("QUIVER_PRUNING_BUDGET_S", "24"))
DEEP = os.environ.get("QUIVER_DEEP_TESTS") == "1"


# ---- the judge ----------------------------------------------------------------

def kept_rows(path, filters):
    """Row positions pyarrow's decode-then-filter keeps, or None when pyarrow raises."""
    table = pq.read_table(path)
    table = table.append_column("__row", pa.array(np.arange(table.num_rows, dtype=np.int64)))
    try:
        expr = filters if isinstance(filters, pc.Expression) else pq.filters_to_expression(filters)
        kept = table.filter(expr)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError, TypeError, OverflowError):
        return None
    return kept.column("__row").to_numpy()


def row_group_starts(path):
    md = pq.ParquetFile(path).metadata
    starts, s = [], 0
    for i in range(md.num_row_groups):
        starts.append(s)
        s += md.row_group(i).num_rows
    return starts, s


def check_sound(path, filters, pages="index", dictionaries=None, expr=None):
    """Prunes `path` by `filters` and checks that no kept row was dropped.
    Returns the binding's per-row-group results (None if pyarrow raised)."""
    kept = kept_rows(path, filters)
    if kept is None:
        return None
    if expr is None:
        expr = qc.filters_to_expression(filters)
    results = _quiver._prune_row_groups(str(path), expr._e, pages, dictionaries)
    starts, total = row_group_starts(path)
    for rg, res in enumerate(results):
        lo = starts[rg]
        hi = starts[rg + 1] if rg + 1 < len(starts) else total
        here = kept[(kept >= lo) & (kept < hi)] - lo
        if res["reason"] is not None:
            assert len(here) == 0, (
                f"row group {rg} pruned by {res['reason']} but pyarrow keeps rows "
                f"{here[:5].tolist()} for {filters}")
            continue
        allowed = np.zeros(hi - lo, dtype=bool)
        for b, e in res["ranges"]:
            allowed[b:e] = True
        missing = here[~allowed[here]]
        assert len(missing) == 0, (
            f"row group {rg}: rows {missing[:5].tolist()} kept by pyarrow lie outside the "
            f"selected ranges {res['ranges'][:6]} for {filters} (pages={pages})")
    return results


# ---- random tables --------------------------------------------------------------

def random_table(rng, n):
    npr = np.random.default_rng(rng.randrange(2**32))

    def with_nulls(arr, frac):
        mask = npr.random(n) < frac
        return pa.array(arr, mask=mask) if frac else pa.array(arr)

    ints = npr.integers(-1000, 1000, n)
    floats = npr.normal(0, 10, n)
    specials = npr.random(n)
    floats[specials < 0.05] = np.nan
    floats[(specials >= 0.05) & (specials < 0.08)] = 0.0
    floats[(specials >= 0.08) & (specials < 0.11)] = -0.0
    f32 = floats.astype(np.float32)
    big = np.uint64(2**63) + npr.integers(0, 1000, n).astype(np.uint64)
    small_u = npr.integers(0, 1000, n).astype(np.uint64)
    u64 = np.where(npr.random(n) < 0.5, big, small_u)
    u32 = (np.uint32(2**31) + npr.integers(-500, 500, n)).astype(np.uint32)
    words = ["", "a", "ab", "b", "ba", "zz", "é", "x" * 80 + "a", "x" * 80 + "b", "y" * 70]
    strings = [words[i] for i in npr.integers(0, len(words), n)]
    low_card = [f"k{i}" for i in npr.integers(0, 12, n)]
    day0 = datetime.date(2020, 1, 1)
    dates = [day0 + datetime.timedelta(days=int(d)) for d in npr.integers(0, 400, n)]
    ts = npr.integers(0, 10**6, n) * 1_000_000 + 1_600_000_000_000_000
    decs = [decimal.Decimal(int(v)).scaleb(-2) for v in npr.integers(-50000, 50000, n)]
    all_nan = np.full(n, np.nan)
    return pa.table({
        "sorted": pa.array(np.arange(n, dtype=np.int64) * 3),
        "i32": with_nulls(ints.astype(np.int32), 0.1),
        "i64": with_nulls(ints.astype(np.int64) * 1_000_003, 0.0),
        "u64": with_nulls(u64, 0.05),
        "u32": pa.array(u32),
        "f64": with_nulls(floats, 0.05),
        "f32": pa.array(f32),
        "s": with_nulls(np.array(strings, dtype=object), 0.1),
        "k": pa.array(low_card),
        "d": with_nulls(np.array(dates, dtype=object), 0.1),
        "ts": pa.array(ts, pa.timestamp("us")),
        "dec": pa.array(decs, pa.decimal128(9, 2)),
        "b": with_nulls(npr.random(n) < 0.3, 0.1),
        "nulls": pa.nulls(n, pa.int64()),
        "nan": pa.array(all_nan),
    })


def sample_value(rng, table, name):
    col = table.column(name)
    valid = col.drop_null()
    if len(valid) == 0 or rng.random() < 0.15:
        # A value beyond the data, or a type edge.
        t = col.type
        if pa.types.is_string(t):
            return rng.choice(["", "aa", "zzz", "x" * 80, "x" * 81])
        if pa.types.is_floating(t):
            return rng.choice([math.nan, 0.0, -0.0, 1e300, -1e300, 0.5])
        if t == pa.uint64():
            return rng.choice([0, 2**63, 2**63 + 999, 2**64 - 1])
        if pa.types.is_integer(t):
            return rng.choice([-(2**40), 2**40, 0, -1])
        if pa.types.is_boolean(t):
            return rng.choice([True, False])
        if pa.types.is_date(t):
            return datetime.date(2019, 12, 31)
        if pa.types.is_timestamp(t):
            return datetime.datetime(2030, 1, 1)
        if pa.types.is_decimal(t):
            return decimal.Decimal("999.99")
        return None
    try:
        v = valid[rng.randrange(len(valid))].as_py()
    except ValueError:  # a nanosecond timestamp Python cannot hold
        return None
    if isinstance(v, float) and rng.random() < 0.3:
        v = v + rng.choice([-1e-9, 1e-9, 0.25])
    return v


OPS = ["==", "!=", "<", "<=", ">", ">=", "in", "not in"]


def random_term(rng, table):
    name = rng.choice([n for n in table.column_names if n not in ("nulls",)])
    op = rng.choice(OPS)
    if op in ("in", "not in"):
        values = [sample_value(rng, table, name) for _ in range(rng.randrange(1, 4))]
        if rng.random() < 0.2:
            values.append(None)
        values = [v for v in values if not (isinstance(v, float) and math.isnan(v))] or [0]
        if name == "u64":
            values = pa.array(values, pa.uint64())
        return (name, op, values)
    value = sample_value(rng, table, name)
    if name == "u64" and (value >= 2**63 or rng.random() < 0.5):
        # Typed uint64 (pyarrow compares them; an int64 literal against
        # values past 2^63 raises in pyarrow and Quiver alike).
        value = pa.scalar(value, pa.uint64())
    return (name, op, value)


def random_filters(rng, table):
    if rng.random() < 0.5:
        return [random_term(rng, table) for _ in range(rng.randrange(1, 3))]
    return [[random_term(rng, table) for _ in range(rng.randrange(1, 3))]
            for _ in range(rng.randrange(1, 3))]


def random_expression(rng, table, depth=0):
    """A tree with is_null / is_valid / ~ that DNF cannot spell."""
    f = qc.field
    name = rng.choice(table.column_names)
    r = rng.random()
    if depth >= 2 or r < 0.3:
        k = rng.randrange(4)
        if k == 0:
            return f(name).is_null(nan_is_null=rng.random() < 0.5)
        if k == 1:
            return f(name).is_valid()
        term = random_term(rng, table)
        return qc.filters_to_expression([term])
    a = random_expression(rng, table, depth + 1)
    b = random_expression(rng, table, depth + 1)
    return rng.choice([a & b, a | b, ~a])


def write_file(path, table, rng, writer, page_index):
    rows_per_group = rng.choice([300, 700, 1000])
    if writer == "pyarrow":
        pq.write_table(
            table, path, row_group_size=rows_per_group, data_page_size=rng.choice([256, 1024]),
            write_batch_size=rng.choice([50, 128]), write_page_index=page_index,
            use_dictionary=["k", "s"] if rng.random() < 0.7 else False,
            bloom_filter_options={"i32": True, "s": True, "k": True, "f64": True, "u64": True,
                                  "d": True, "dec": True} if rng.random() < 0.7 else None)
    else:
        quiver.write_parquet(
            table, str(path), row_group_size=rows_per_group, max_rows_per_page=rng.choice([64, 200]),
            write_page_index=page_index, use_dictionary=["k", "s"],
            bloom_filter_options={"i32": {"ndv": 1000, "fpp": 0.05}, "s": {"ndv": 100, "fpp": 0.05},
                                  "f32": {"ndv": 1000, "fpp": 0.05}})


def dictionaries_of(path):
    """Each row group's distinct values per column, as the dictionary a chunk
    whose data pages are all dictionary-encoded holds (a subset of it)."""
    f = pq.ParquetFile(path)
    out = {}
    for rg in range(f.num_row_groups):
        t = f.read_row_group(rg)
        for name in t.column_names:
            out[(rg, name)] = pc.unique(t.column(name).combine_chunks().drop_null())
    return out


@pytest.mark.parametrize("writer", ["pyarrow", "quiver"])
@pytest.mark.parametrize("page_index", [True, False])
def test_random_files_are_pruned_soundly(tmp_path, rng, writer, page_index):
    deadline = time.monotonic() + BUDGET_S / 4
    files = 0
    checked = pruned_rg = 0
    while files < (6 if DEEP else 2) or (DEEP and time.monotonic() < deadline):
        files += 1
        table = random_table(rng, rng.choice([1500, 3000]))
        path = tmp_path / f"f{files}.parquet"
        write_file(path, table, rng, writer, page_index)
        dicts = dictionaries_of(path)
        pages = "index" if page_index else "headers"
        for i in range(400):
            if time.monotonic() > deadline and i >= 20:
                break
            if rng.random() < 0.3:
                expr = random_expression(rng, table)
                filters = expr.to_pyarrow()
            else:
                filters = random_filters(rng, table)
                expr = None
            use_dicts = dicts if rng.random() < 0.5 else None
            res = check_sound(path, filters, pages=pages, dictionaries=use_dicts, expr=expr)
            if res is not None:
                checked += 1
                pruned_rg += sum(r["reason"] is not None for r in res)
    assert checked > 20
    assert pruned_rg > 0  # the predicates do prune somewhere


def test_sorted_column_range_keeps_only_its_pages(tmp_path):
    n = 200_000
    table = pa.table({"key": np.arange(n, dtype=np.int64), "payload": np.random.rand(n)})
    path = tmp_path / "sorted.parquet"
    pq.write_table(table, path, row_group_size=n, data_page_size=8000,
                   write_batch_size=1000, write_page_index=True)
    # 0.1% of the rows.
    lo, hi = 123_456, 123_456 + n // 1000
    filters = [("key", ">=", lo), ("key", "<", hi)]
    res = check_sound(path, filters)
    assert len(res) == 1 and res[0]["reason"] is None
    skipped = res[0]["pages_skipped"]["key"]
    num_pages = len(skipped)
    kept_pages = num_pages - sum(skipped)
    selected = sum(e - b for b, e in res[0]["ranges"])
    rows_per_page = n / num_pages
    assert num_pages >= 100
    # Only the pages holding rows [lo, hi) stay: at most one partial page on each side.
    assert kept_pages <= math.ceil((hi - lo) / rows_per_page) + 1
    assert selected < (hi - lo) + 2 * rows_per_page
    # The same from page header statistics (no column index).
    path2 = tmp_path / "sorted_noindex.parquet"
    pq.write_table(table, path2, row_group_size=n, data_page_size=8000,
                   write_batch_size=1000, write_page_index=False)
    res2 = check_sound(path2, filters, pages="headers")
    assert sum(e - b for b, e in res2[0]["ranges"]) < (hi - lo) + 2 * rows_per_page


def test_nan_with_equal_bounds_is_not_pruned(tmp_path):
    # min == max == 5 with NaN in the chunk: x != 5 keeps the NaN rows
    # (pyarrow's own read_table(filters=) drops them).
    path = tmp_path / "nan.parquet"
    pq.write_table(pa.table({"x": [5.0, math.nan, 5.0]}), path)
    res = check_sound(path, [("x", "!=", 5)])
    assert res[0]["reason"] is None
    assert len(kept_rows(path, [("x", "!=", 5)])) == 1
    # All-NaN chunk: no bounds; x < 1 holds nowhere, x != 1 everywhere.
    path2 = tmp_path / "allnan.parquet"
    pq.write_table(pa.table({"x": [math.nan] * 4}), path2)
    assert check_sound(path2, [("x", "!=", 1)])[0]["reason"] is None
    assert check_sound(path2, [("x", "<", 1)])[0]["reason"] in (None, "statistics")


def test_null_pages(tmp_path):
    values = [None] * 2000 + list(range(2000))
    path = tmp_path / "nullpages.parquet"
    quiver.write_parquet(pa.table({"x": pa.array(values, pa.int64())}), str(path),
                         write_page_index=True, max_rows_per_page=100)
    res = check_sound(path, [("x", ">=", 0)])
    assert res[0]["ranges"][0][0] >= 1900  # the all-null pages are skipped
    res = check_sound(path, qc.field("x").is_null().to_pyarrow(), expr=qc.field("x").is_null())
    assert res[0]["ranges"][-1][1] <= 2100  # pages without nulls skipped
    assert check_sound(TESTDATA / "parquet-testing/int32_with_null_pages.parquet",
                       [("int32_field", "<", 0)]) is not None


def test_int96_is_never_pruned_by_value(tmp_path):
    path = tmp_path / "int96.parquet"
    ts = pa.array([datetime.datetime(2020, 1, 1), datetime.datetime(2020, 1, 2)], pa.timestamp("ns"))
    pq.write_table(pa.table({"t": ts}), path, use_deprecated_int96_timestamps=True,
                   write_page_index=True)
    for op in ["<", ">", "==", "!="]:
        res = check_sound(path, [("t", op, datetime.datetime(2000, 1, 1))])
        if res is not None:
            assert res[0]["reason"] is None and res[0]["ranges"] == [(0, 2)]


def test_unsigned_order(tmp_path):
    path = tmp_path / "unsigned.parquet"
    u32 = pa.array([2**31 + 1, 2**31 + 5, 7], pa.uint32())
    u64 = pa.array([2**63 + 1, 2**63 + 5, 2**63 + 9], pa.uint64())
    pq.write_table(pa.table({"u32": u32, "u64": u64}), path)
    assert check_sound(path, [("u32", ">", 2**31 + 10)])[0]["reason"] == "statistics"
    assert check_sound(path, [("u32", "<", 8)])[0]["reason"] is None
    assert check_sound(path, [("u32", "==", 2**31 + 5)])[0]["reason"] is None
    res = check_sound(path, [("u64", "==", 2**63 + 5)])
    assert res is None or res[0]["reason"] is None


def test_dictionary_pruning_needs_all_pages_dictionary_encoded(tmp_path):
    path = tmp_path / "dict.parquet"
    table = pa.table({"k": ["a", "c", "e"] * 100})
    pq.write_table(table, path, use_dictionary=True)
    dicts = dictionaries_of(path)
    res = check_sound(path, [("k", "==", "b")], dictionaries=dicts)
    assert res[0]["fully_dictionary"]["k"] is True
    assert res[0]["reason"] == "dictionary"
    res = check_sound(path, [("k", "not in", ["a", "c", "e"])], dictionaries=dicts)
    assert res[0]["reason"] == "dictionary"
    path2 = tmp_path / "plain.parquet"
    pq.write_table(table, path2, use_dictionary=False)
    res = check_sound(path2, [("k", "==", "b")], dictionaries=dictionaries_of(path2))
    assert res[0]["fully_dictionary"]["k"] is False and res[0]["reason"] is None


def test_bloom_filters(tmp_path):
    path = tmp_path / "bloom.parquet"
    n = 5000
    ints = np.random.default_rng(1).integers(0, 10**9, n)
    table = pa.table({"x": ints, "s": [f"v{i}" for i in ints], "f": ints.astype(np.float64),
                      "z": pa.array([-0.0] * n)})
    pq.write_table(table, path, row_group_size=1000,
                   bloom_filter_options={"x": True, "s": True, "f": True, "z": True})
    present = int(ints[1500])
    absent = [v for v in range(10**9 + 1, 10**9 + 50)]
    res = check_sound(path, [("x", "==", present)])
    assert [r["reason"] for r in res].count(None) >= 1
    reasons = [r["reason"] for r in check_sound(path, [("s", "==", "v5zz")])]
    assert reasons.count("bloom") >= 4
    reasons = [r["reason"] for r in check_sound(path, [("x", "in", [int(ints[0]) + 1, 17])])]
    assert reasons.count("bloom") + reasons.count("statistics") >= 3
    reasons = [r["reason"] for r in check_sound(path, [("f", "==", float(present))])]
    assert reasons.count(None) >= 1
    # -0.0 stored, 0.0 asked: equal, so never pruned by the bloom filter.
    assert all(r["reason"] is None for r in check_sound(path, [("z", "==", 0.0)]))
    assert absent  # (values past the statistics are pruned by statistics)


TESTING_FILES = [
    "parquet-testing/alltypes_tiny_pages.parquet",
    "parquet-testing/alltypes_plain.parquet",
    "parquet-testing/alltypes_dictionary.parquet",
    "parquet-testing/binary_truncated_min_max.parquet",
    "parquet-testing/data_index_bloom_encoding_stats.parquet",
    "parquet-testing/data_index_bloom_encoding_with_length.parquet",
    "parquet-testing/int32_with_null_pages.parquet",
    "parquet-testing/int96_from_spark.parquet",
    "parquet-testing/nan_in_stats.parquet",
    "parquet-testing/single_nan.parquet",
    "parquet-testing/float16_nonzeros_and_nans.parquet",
    "parquet-testing/float16_zeros_and_nans.parquet",
    "parquet-testing/floating_orders_nan_count.parquet",
    "parquet-testing/fixed_length_decimal.parquet",
    "parquet-testing/fixed_length_decimal_legacy.parquet",
    "parquet-testing/int32_decimal.parquet",
    "parquet-testing/int64_decimal.parquet",
    "parquet-testing/byte_array_decimal.parquet",
    "parquet-testing/nulls.snappy.parquet",
    "parquet-testing/datapage_v2.snappy.parquet",
    "parquet-testing/sort_columns.parquet",
    "quiver/compat_legacy_stats_arrow_26.parquet",
    "quiver/compat_legacy_stats_cpp_1_2_0.parquet",
    "quiver/compat_legacy_stats_mr_1_10_0.parquet",
    "quiver/compat_legacy_stats_mr_1_7_0.parquet",
    "quiver/compat_legacy_stats_mr_1_8_1.parquet",
    "quiver/compat_legacy_stats_none.parquet",
    "quiver/compat_stats_no_order.parquet",
    "quiver/compat_stats_type_order.parquet",
]


@pytest.mark.parametrize("name", TESTING_FILES)
def test_corpus_files(rng, name):
    path = TESTDATA / name
    try:
        table = pq.read_table(path)
    except Exception:
        pytest.skip("pyarrow cannot read it")
    flat = [f.name for f in table.schema
            if not pa.types.is_nested(f.type) and not pa.types.is_dictionary(f.type)
            and f.type != pa.null()]
    table = table.select(flat)
    for pages in ("index", "headers"):
        for _ in range(60):
            if not flat:
                break
            name_ = rng.choice(flat)
            op = rng.choice(OPS)
            if op in ("in", "not in"):
                term = (name_, op, [sample_value(rng, table, name_) for _ in range(2)])
            else:
                term = (name_, op, sample_value(rng, table, name_))
            if term[2] is None:
                continue
            try:
                check_sound(path, [term], pages=pages)
            except (quiver.QuiverError, TypeError, ValueError, OverflowError):
                continue  # refused before any pruning (binding errors, as pyarrow)
