"""quiver.ray (issue 46 section 5) on a local Ray (ray.init(num_cpus=2), no
dashboard, usage statistics off: nothing leaves the machine): read_parquet's
Datasource plans its read tasks from the footers, pruned by partition keys
and statistics, and the data is read in the tasks; ParquetDatasink writes one
file per write task, read back equal by pyarrow.dataset and duckdb."""

import os

os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # before ray is imported

import collections  # noqa: E402

import duckdb  # noqa: E402
import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.dataset as pads  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402
import ray  # noqa: E402

import quiver  # noqa: E402
import quiver.ray  # noqa: E402
from test_dask import CountingLocalFS  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    # Ray's workers inherit the environment: this directory on their path
    # lets them unpickle test_dask's counting filesystem.
    saved = os.environ.get("PYTHONPATH")
    here = os.path.dirname(os.path.abspath(__file__))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (here, saved) if p)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False, _node_ip_address="127.0.0.1")
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    yield
    ray.shutdown()
    if saved is None:
        del os.environ["PYTHONPATH"]
    else:
        os.environ["PYTHONPATH"] = saved


def sample(n=40000, seed=5):
    rng = np.random.default_rng(seed)
    return pa.table({
        "id": pa.array(np.arange(n), pa.int64()),
        "year": pa.array(2020 + (np.arange(n) * 4 // n), pa.int64()),
        "city": pa.array(np.array(["Paris", "Oslo", "Lima"])[rng.integers(0, 3, n)]),
        "amount": pa.array(rng.random(n) * 100),
    })


@pytest.fixture(scope="module")
def hive(tmp_path_factory):
    root = tmp_path_factory.mktemp("rayhive")
    t = sample()
    for year in range(2020, 2024):
        part = t.filter(pa.compute.field("year") == year).drop_columns(["year"])
        (root / f"year={year}").mkdir()
        pq.write_table(part, root / f"year={year}" / "data.parquet", row_group_size=1000)
    return root, t


def rows(ds):
    return sorted(ds.take_all(), key=lambda r: r["id"])


def test_read_equals_pyarrow_and_prunes(local_ray, hive):
    root, t = hive
    ds = quiver.ray.read_parquet(str(root))
    got = pa.Table.from_pylist(rows(ds))
    want = pq.read_table(root)
    assert got.column("id").to_pylist() == list(range(t.num_rows))
    assert got.column("amount").to_pylist() == \
        want.sort_by("id").column("amount").to_pylist()
    assert [int(y) for y in got.column("year").to_pylist()] == t.column("year").to_pylist()
    # pruning, seen in the plan (one read task per part)
    source = quiver.ray.ParquetDatasource(str(root), filters=[("year", ">=", 2022)])
    assert [os.path.relpath(p, root) for p, _ in source.parts] == \
        ["year=2022/data.parquet", "year=2023/data.parquet"]
    assert len(source.get_read_tasks(8)) == 2
    assert len(source.get_read_tasks(1)) == 1  # fewer tasks asked: parts grouped
    flt = [("id", ">=", 10500), ("id", "<", 12500)]
    source = quiver.ray.ParquetDatasource(str(root), filters=flt, split_row_groups=True)
    assert [rg for _, rg in source.parts] == [[0], [1], [2]]
    assert sum(t.metadata.num_rows for t in source.get_read_tasks(8)) == 3000
    ds = quiver.ray.read_parquet(str(root), filters=flt, columns=["id", "year"],
                                 split_row_groups=True)
    got = rows(ds)
    assert [r["id"] for r in got] == list(range(10500, 12500))
    assert {int(r["year"]) for r in got} == {2021}
    assert list(got[0]) == ["id", "year"]


def test_data_is_read_in_the_tasks(local_ray, hive):
    root, t = hive
    fs = CountingLocalFS()
    CountingLocalFS.bytes_read.clear()
    source = quiver.ray.ParquetDatasource(str(root), filesystem=fs)
    planned = dict(CountingLocalFS.bytes_read)
    for f, n in planned.items():
        assert n <= 65536 < os.path.getsize(f) / 2, f  # one suffix read: the footer
    ds = ray.data.read_datasource(source)
    assert ds.count() == t.num_rows and sum(r["id"] for r in ds.take_all()) == \
        sum(range(t.num_rows))
    assert CountingLocalFS.bytes_read == collections.Counter(planned)  # not here


def test_datasink_roundtrip(local_ray, tmp_path):
    t = sample(3000)
    ds = ray.data.from_arrow(t).repartition(3)
    out = tmp_path / "out"
    sink = quiver.ray.ParquetDatasink(str(out), compression="zstd", row_group_size=500)
    ds.write_datasink(sink)
    files = sorted(os.listdir(out))
    assert len(files) == 3 and len(set(f.split("_")[0] for f in files)) == 1
    assert sorted(md.row_group(0).column(0).file_path for md in sink.metadata) == files
    assert sum(md.num_rows for md in sink.metadata) == 3000
    assert pq.ParquetFile(out / files[0]).metadata.row_group(0).column(0).compression == "ZSTD"
    back = pads.dataset(str(out), format="parquet").to_table().sort_by("id")
    assert back.equals(t)
    duck = duckdb.sql(f"select count(*), sum(id), sum(amount) from "
                      f"read_parquet('{out}/*.parquet')").fetchall()[0]
    assert duck[:2] == (3000, sum(range(3000)))
    assert np.isclose(duck[2], pa.compute.sum(t.column("amount")).as_py())
    # a second write into the same directory: new names, nothing replaced
    ds.write_datasink(quiver.ray.ParquetDatasink(str(out)))
    assert len(os.listdir(out)) == 6


def test_datasink_unknown_option_raises(local_ray, tmp_path):
    ds = ray.data.from_arrow(sample(100))
    with pytest.raises(Exception, match="no_such_option"):
        ds.write_datasink(quiver.ray.ParquetDatasink(str(tmp_path / "x"), no_such_option=1))
    assert not list((tmp_path / "x").glob("*.parquet"))
