"""The pure logic of the dataset section (bench/peers/dataset_cases.py,
dataset_report.py, dataset_s3.summarize), without peer processes or a
server: the case matrix, each filter in every peer's form judged against
pyarrow's filtered read of a hive dataset, the read gate and the gate of a
written dataset, the request summary and the report's required figures.

    .venv/bin/python -m pytest -q bench/peers/dataset_test.py
"""

import decimal
import os
import sys

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import dataset_cases as dc  # noqa: E402
import dataset_report  # noqa: E402
from dataset_s3 import summarize  # noqa: E402

MODES = ["AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB", "REG AIR"]


def lineitem(n=3000):
    """lineitem's key, filter and payload columns, seeded, with `year`."""
    import numpy as np

    rng = np.random.default_rng(46)
    q = rng.integers(1, 51, n)
    return dc.with_year(pa.table({
        "l_orderkey": pa.array(np.arange(n) // 4, pa.int64()),
        "l_linenumber": pa.array(np.arange(n) % 4 + 1, pa.int32()),
        "l_quantity": pa.array([decimal.Decimal(int(x)) for x in q], pa.decimal128(15, 2)),
        "l_extendedprice": pa.array([decimal.Decimal(int(x)) / 4 for x in rng.integers(0, 10**6, n)],
                                    pa.decimal128(15, 2)),
        "l_discount": pa.array([decimal.Decimal(int(x)) / 100 for x in rng.integers(0, 11, n)],
                               pa.decimal128(15, 2)),
        "l_shipdate": pa.array(rng.integers(8036, 8036 + 7 * 365, n).astype("int32"),
                               pa.int32()).cast(pa.date32()),
        "l_shipmode": pa.array([MODES[i] for i in rng.integers(0, len(MODES), n)]),
    }))


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    t = lineitem()
    root = str(tmp_path_factory.mktemp("ds") / "lineitem")
    dc.write_input(t, root, 0.01)
    return t, root


def test_case_matrix():
    full, quick = dc.case_specs(), dc.case_specs(quick=True)
    assert len(full) == 2 * len(dc.KINDS) * len(dc.PROJECTIONS) + 2
    assert len({s.id for s in full}) == len(full)
    assert len(quick) == 2 * len(dc.KINDS) + 2
    assert {s.projection for s in quick if isinstance(s, dc.ReadSpec)} == set(dc.PROJECTIONS)
    assert [s.id for s in dc.case_specs(wheres=("local",), sections=("read",))] == \
        [s.id for s in full if getattr(s, "where", None) == "local"]


def test_input_is_hive_partitioned(dataset):
    t, root = dataset
    files = dc.dataset_files(root)
    keys = {tuple(dc.hive_keys(f)[k] for k in dc.PARTITION_COLS) for f in files}
    want = {(m, str(y)) for m, y in zip(t["l_shipmode"].to_pylist(), t["year"].to_pylist())}
    assert keys == want
    for f in files:  # the key columns live in the paths only; at most file_rows per file
        md = pq.ParquetFile(os.path.join(root, f)).metadata
        assert "year" not in md.schema.names and md.num_rows <= dc.file_rows(0.01)
    assert dc.same_rows(dc.reference(root), t.select(dc.reference(root).column_names))[0]


@pytest.mark.parametrize("kind", dc.KINDS)
def test_every_peer_form_of_a_filter_keeps_the_oracles_rows(dataset, kind):
    t, root = dataset
    terms = dc.FILTERS[kind]
    ref = dc.reference(root)
    cols = dc.projection(kind, "filter_payload", ref.column_names)
    want = dc.oracle(ref, terms, cols)
    assert 0 < want.num_rows < ref.num_rows
    # The judge: pyarrow's own filtered read of the dataset with the DNF tuples.
    judge = pq.read_table(root, columns=cols, filters=dc.dnf(terms))
    assert dc.same_rows(judge, want)[0]
    got = ds.dataset(root, partitioning="hive").to_table(
        columns=cols, filter=dc.pyarrow_expression(terms))
    assert dc.same_rows(got, want)[0]
    con = duckdb.connect()
    got = con.sql(f"SELECT {', '.join(cols)} FROM read_parquet('{root}/**/*.parquet', "
                  f"hive_partitioning=true) WHERE {dc.sql_where(terms)}").to_arrow_table()
    assert dc.same_rows(got, want)[0]
    got = pl.scan_parquet(f"{root}/**/*.parquet", hive_partitioning=True).filter(
        dc.polars_expression(pl, terms)).select(cols).collect().to_arrow()
    assert dc.same_rows(got, want)[0]


def test_read_gate_finds_differences(dataset):
    t, _ = dataset
    want = t.select(["l_shipmode", "year", "l_quantity"])
    ok, msg = dc.same_rows(want.take(list(range(want.num_rows))[::-1]), want)
    assert ok and "multiset" in msg
    assert dc.same_rows(want.set_column(1, "year", want["year"].cast(pa.int64())), want)[0]
    assert not dc.same_rows(want.slice(1), want)[0]
    changed = want.set_column(1, "year", pa.array([1990] + want["year"].to_pylist()[1:],
                                                  pa.int32()))
    ok, msg = dc.same_rows(changed, want)
    assert not ok and "year" in msg
    assert not dc.same_rows(want.select(["year", "l_shipmode", "l_quantity"]), want)[0]


def test_written_dataset_gate(dataset, tmp_path):
    t, _ = dataset
    good = str(tmp_path / "good")
    pq.write_to_dataset(t, good, partition_cols=list(dc.PARTITION_COLS), compression="snappy")
    ok, msg, facts = dc.check_written(good, t)
    assert ok, msg
    assert facts["partitions"] == len(set(zip(t["l_shipmode"].to_pylist(),
                                              t["year"].to_pylist())))
    short = str(tmp_path / "short")
    pq.write_to_dataset(t.slice(1), short, partition_cols=list(dc.PARTITION_COLS),
                        compression="snappy")
    assert not dc.check_written(short, t)[0]
    zstd = str(tmp_path / "zstd")
    pq.write_to_dataset(t, zstd, partition_cols=list(dc.PARTITION_COLS), compression="zstd")
    ok, msg, _ = dc.check_written(zstd, t)
    assert not ok and "codecs" in msg
    # A writer that keeps the keys in the files too (polars): equal to the path's.
    kept = str(tmp_path / "kept")
    pl.from_arrow(t).write_parquet(kept, partition_by=list(dc.PARTITION_COLS),
                                   compression="snappy")
    assert dc.check_written(kept, t)[0]


def test_request_summary():
    log = [["GET", "/bucket", None, 900], ["HEAD", "/bucket/a/x.parquet", None, 0],
           ["GET", "/bucket/a/x.parquet", "bytes=10-19", 10],
           ["GET", "/bucket/a/x.parquet", "bytes=0-9", 10]]
    assert summarize(log) == {"requests": 4, "by_method": {"GET": 3, "HEAD": 1},
                              "list_requests": 1, "range_gets": 2, "bytes": 920}


def sink(ratio, verdict, fastest="pyarrow"):
    return {"ratio_fastest": ratio, "verdict": verdict, "fastest": fastest}


def test_required_figures():
    results = [
        {"id": "dataset/local/a", "sinks": {"st": sink(0.5, "win"), "mt": sink(0.6, "win")}},
        {"id": "dataset/s3/a", "sinks": {"st": sink(0.6, "win")},
         "s3_requests": {"quiver/st": {"requests": 5}, "pyarrow/st": {"requests": 6},
                         "polars/st": {"requests": 7}}},
    ]
    req = {name: ok for name, ok, _ in dataset_report.required(results)}
    assert list(req.values()) == [True, True, True]
    results[1]["s3_requests"]["polars/st"]["requests"] = 5  # as few: not fewer
    results[0]["sinks"]["mt"] = sink(1.3, "loss")
    req = [ok for _, ok, _ in dataset_report.required(results)]
    assert req == [False, False, False]
    results[0]["sinks"]["mt"] = sink(1.3, "noise")
    assert dataset_report.required(results)[0][1] is None  # over 1 but not decided
