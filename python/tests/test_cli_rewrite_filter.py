"""`quiver rewrite IN OUT --where EXPR --sort-by COL[:asc|:desc][:nulls_first|:nulls_last]`
run as a subprocess, judged by pyarrow: the rows written equal
pq.read_table(IN).filter(expr) and, sorted, the table taken at
pyarrow.compute.sort_indices' order (stable, so equal rows keep their order);
every row group's sorting_columns, read by pyarrow, are the keys asked for
(leaf indices, nested columns before them included); bad column names and
bad expressions are clear errors with a non-zero exit and no output file.

The binary is $QUIVER_CLI, by default build/release/quiver."""

import math
import os
import subprocess
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver"))).resolve()

pytestmark = pytest.mark.skipif(
    not (CLI.is_file() and os.access(CLI, os.X_OK)),
    reason=f"the quiver CLI is not built at {CLI} (run `make release` or set QUIVER_CLI)",
)

OK, FAILURE, USAGE = 0, 1, 2


def run(*args):
    return subprocess.run([str(CLI), *map(str, args)], capture_output=True, timeout=300)


def ok(*args):
    r = run(*args)
    assert r.returncode == OK, (r.returncode, r.stderr.decode())
    return r


def sample(n=20000, seed=7):
    rng = np.random.default_rng(seed)
    f = rng.standard_normal(n).round(1)
    f[rng.random(n) < 0.05] = np.nan
    f[rng.random(n) < 0.02] = -0.0
    return pa.table({
        # A nested column first: the later columns' leaf indices are shifted by 2.
        "p": pa.array([{"x": int(i), "y": str(i)} for i in range(n)]),
        "k": pa.array(rng.integers(0, 50, n), mask=rng.random(n) < 0.1),
        "f": pa.array(f, mask=rng.random(n) < 0.05),
        "name": pa.array([["ams", "ber", "cph", "dub", None][int(i)]
                          for i in rng.integers(0, 5, n)]),
        "d": pa.array(rng.integers(0, 5, n).astype(str)).dictionary_encode(),
        "ts": pa.array(rng.integers(0, 10**12, n), pa.timestamp("ms")),
        "row": pa.array(range(n), pa.int64()),
    })


@pytest.fixture(scope="module")
def src(tmp_path_factory):
    path = tmp_path_factory.mktemp("rewrite") / "in.parquet"
    pq.write_table(sample(), path, row_group_size=6000)
    return path


def nan_safe(rows):
    """to_pylist rows with NaN made comparable."""
    def fix(v):
        return "NaN" if isinstance(v, float) and math.isnan(v) else v
    return [{k: fix(v) for k, v in row.items()} for row in rows]


def assert_rows(got, expected):
    assert got.schema.names == expected.schema.names
    assert got.num_rows == expected.num_rows
    assert nan_safe(got.to_pylist()) == nan_safe(expected.to_pylist())


def sorted_by(table, keys):
    """table at pyarrow's sort_indices order; its dictionary columns are
    sorted by value through a decoded copy (pyarrow 26 sorts no dictionary
    column of a table)."""
    judge = pa.table({n: c.cast(c.type.value_type) if pa.types.is_dictionary(c.type) else c
                      for n, c in zip(table.column_names, table.columns)})
    return table.take(pc.sort_indices(judge, sort_keys=keys))


def leaf_of(name):
    return {"k": 2, "f": 3, "name": 4, "d": 5, "ts": 6, "row": 7}[name]


WHERES = [
    ("k >= 10 and k < 20", (pc.field("k") >= 10) & (pc.field("k") < 20)),
    ("name in ('ams', 'dub') or f > 1.5",
     pc.field("name").isin(["ams", "dub"]) | (pc.field("f") > 1.5)),
    ("name is null and not (k = 3)", pc.field("name").is_null() & ~(pc.field("k") == 3)),
    ("row < 0", pc.field("row") < 0),
    ("ts >= timestamp '2000-01-01 00:00:00'",
     pc.field("ts") >= pa.scalar(946_684_800_000, pa.timestamp("ms"))),
]


@pytest.mark.parametrize("where,expr", WHERES)
def test_where_equals_pyarrow_filter(src, tmp_path, where, expr):
    out = tmp_path / "out.parquet"
    ok("rewrite", src, out, "--where", where, "-q")
    expected = pq.read_table(src).filter(expr)
    assert 0 < expected.num_rows < 20000 or where == "row < 0"
    assert_rows(pq.read_table(out), expected)
    md = pq.ParquetFile(out).metadata
    assert all(md.row_group(i).sorting_columns == () for i in range(md.num_row_groups))


SORTS = [
    (["k"], [("k", "ascending", "at_end")]),
    (["f:desc"], [("f", "descending", "at_end")]),
    (["f:nulls_first"], [("f", "ascending", "at_start")]),
    (["name:desc:nulls_first,k"], [("name", "descending", "at_start"), ("k", "ascending", "at_end")]),
    (["d", "ts:desc"], [("d", "ascending", "at_end"), ("ts", "descending", "at_end")]),
    (["k:desc:nulls_last", "f:asc:nulls_first", "name"],
     [("k", "descending", "at_end"), ("f", "ascending", "at_start"), ("name", "ascending", "at_end")]),
]


def sort_args(flags):
    args = []
    for f in flags:
        args += ["--sort-by", f]
    return args


def check_sorting_columns(path, keys):
    md = pq.ParquetFile(path).metadata
    expected = tuple(pq.SortingColumn(leaf_of(name), descending=order == "descending",
                                      nulls_first=placement == "at_start")
                     for name, order, placement in keys)
    assert md.num_row_groups > 1
    for rg in range(md.num_row_groups):
        assert md.row_group(rg).sorting_columns == expected, rg


@pytest.mark.parametrize("flags,keys", SORTS)
def test_sort_by_equals_pyarrow_sort(src, tmp_path, flags, keys):
    out = tmp_path / "out.parquet"
    ok("rewrite", src, out, *sort_args(flags), "--row-group-size", "5000", "-q")
    table = pq.read_table(src)
    expected = sorted_by(table, keys)
    assert_rows(pq.read_table(out), expected)
    check_sorting_columns(out, keys)


def test_sort_by_matches_table_sort_by(src, tmp_path):
    out = tmp_path / "out.parquet"
    ok("rewrite", src, out, "--sort-by", "k,row:desc", "--row-group-size", "4096", "-q")
    expected = pq.read_table(src).sort_by([("k", "ascending"), ("row", "descending")])
    assert_rows(pq.read_table(out), expected)


def test_where_and_sort_by_together(src, tmp_path):
    out = tmp_path / "out.parquet"
    ok("rewrite", src, out, "--where", "k < 25 and f is not null", "--sort-by", "f:desc",
       "--sort-by", "name:nulls_first", "--row-group-size", "2000", "--compression", "zstd", "-q")
    table = pq.read_table(src).filter((pc.field("k") < 25) & pc.field("f").is_valid())
    keys = [("f", "descending", "at_end"), ("name", "ascending", "at_start")]
    assert_rows(pq.read_table(out), sorted_by(table, keys))
    check_sorting_columns(out, keys)


def test_sort_by_in_place(src, tmp_path):
    path = tmp_path / "data.parquet"
    path.write_bytes(src.read_bytes())
    ok("rewrite", path, "--in-place", "--sort-by", "ts", "-q")
    table = pq.read_table(src)
    assert_rows(pq.read_table(path), table.sort_by("ts"))


def test_sort_by_no_matching_rows(src, tmp_path):
    out = tmp_path / "out.parquet"
    ok("rewrite", src, out, "--where", "k > 1000", "--sort-by", "k", "-q")
    got = pq.read_table(out)
    assert got.num_rows == 0
    assert got.schema.names == pq.read_table(src).schema.names


def assert_no_output(tmp_path, out):
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [], list(tmp_path.iterdir())


@pytest.mark.parametrize("args,code,message", [
    (["--sort-by", "nope"], FAILURE, "--sort-by: no column named 'nope' (columns: p, k, f"),
    (["--sort-by", "k:sideways"], FAILURE, "no column named 'k:sideways'"),
    (["--sort-by", "p"], FAILURE, "column 'p' is struct"),
    (["--sort-by", ":desc"], USAGE, "expected COL[:asc|:desc]"),
    (["--sort-by", "k", "--sorting-column", "2"], USAGE, "give no --sorting-column"),
    (["--where", "k >>= 3"], USAGE, "--where:"),
    (["--where", "k = 'abc' and"], USAGE, "--where:"),
    (["--where", "missing = 3"], FAILURE, "missing"),
    (["--where", "missing = 3", "--sort-by", "k"], FAILURE, "missing"),
])
def test_errors_leave_no_output(src, tmp_path, args, code, message):
    work = tmp_path / "w"
    work.mkdir()
    out = work / "out.parquet"
    r = run("rewrite", src, out, *args)
    assert r.returncode == code, r.stderr.decode()
    assert message in r.stderr.decode(), r.stderr.decode()
    assert r.stderr.decode().startswith("quiver rewrite:") or "rewrite" in r.stderr.decode()
    assert_no_output(work, out)


def test_help_says_what_memory_the_sort_needs():
    r = ok("rewrite", "--help")
    text = r.stdout.decode()
    assert "--where" in text and "--sort-by" in text
    assert "in memory" in text and "no external sort" in text
