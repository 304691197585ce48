"""quiver.dask (issue 46 section 5) on a distributed.LocalCluster of two
worker processes on 127.0.0.1 (started and stopped here): read_parquet's
results equal pyarrow's, its partitions pruned by partition keys and row
group statistics before the graph is built, the client reading footers only
(a counting fsspec filesystem, counting in the client's process), its meta
dask's own; to_parquet's files read back equal by pyarrow.dataset and duckdb.
Also `quiver dedup` of two directories (the scale-out dedup measure)."""

import collections
import json
import os
import subprocess
import sys
from pathlib import Path

import cloudpickle
import dask.dataframe as dd
import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest
from distributed import Client, LocalCluster
from fsspec.implementations.local import LocalFileSystem
from test_filesystems_s3 import BUCKET, s3, s3fs_fs  # noqa: F401 - s3 is a fixture

import quiver
import quiver.dask

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))


@pytest.fixture(scope="module")
def client():
    # The workers unpickle this module's counting filesystem by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, host="127.0.0.1") as cluster, \
            Client(cluster) as c:
        yield c
    cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def sample(n=40000, seed=3):
    rng = np.random.default_rng(seed)
    return pa.table({
        "id": pa.array(np.arange(n), pa.int64()),
        "year": pa.array(2020 + (np.arange(n) * 4 // n), pa.int64()),
        "city": pa.array(np.array(["Paris", "Oslo", "Lima"])[rng.integers(0, 3, n)]),
        "amount": pa.array(rng.random(n) * 100),
        "note": pa.array([None if i % 7 == 0 else f"n{i}" for i in range(n)], pa.string()),
    })


def by_id(df):
    return df.sort_values("id").reset_index(drop=True)


@pytest.fixture(scope="module")
def hive(tmp_path_factory):
    """pyarrow's hive dataset: year=2020..2023, one file each, 10 row groups
    of 1000 rows per file (ids sorted, so statistics prune by id)."""
    root = tmp_path_factory.mktemp("hive")
    t = sample()
    for year in range(2020, 2024):
        part = t.filter(pa.compute.field("year") == year).drop_columns(["year"])
        (root / f"year={year}").mkdir()
        pq.write_table(part, root / f"year={year}" / "data.parquet", row_group_size=1000)
    return root, t


def test_read_equals_pyarrow_with_dask_meta(client, hive):
    root, _ = hive
    ddf = quiver.dask.read_parquet(str(root))
    assert ddf.npartitions == 4
    want = pq.read_table(root).to_pandas()
    got = ddf.compute()
    pd.testing.assert_frame_equal(by_id(got), by_id(want[list(got.columns)]),
                                  check_dtype=False, check_categorical=False)
    # meta: dask's own read_parquet meta, column for column
    theirs = dd.read_parquet(str(root))._meta
    assert list(ddf._meta.columns) == list(theirs.columns)
    for c in theirs.columns:
        if c == "year":  # both categorical; dask's categories are unknown in meta
            assert isinstance(ddf._meta[c].dtype, pd.CategoricalDtype)
            assert isinstance(theirs[c].dtype, pd.CategoricalDtype)
            assert list(ddf._meta[c].cat.categories) == [2020, 2021, 2022, 2023]
        else:
            assert ddf._meta[c].dtype == theirs[c].dtype, c
    assert got.dtypes.to_dict() == ddf._meta.dtypes.to_dict()
    # a glob and a list of files: one partition per file too
    files = sorted(str(p) for p in root.rglob("*.parquet"))
    for source in (str(root / "year=202[23]" / "*.parquet"), files[2:]):
        ddf = quiver.dask.read_parquet(source, columns=["id"])
        assert ddf.npartitions == 2
        assert sorted(ddf.compute()["id"]) == list(range(20000, 40000))


def test_meta_matches_dask_for_many_types(client, tmp_path):
    t = pa.table({
        "i": pa.array([1, 2, 3], pa.int64()), "i32": pa.array([1, None, 3], pa.int32()),
        "f": [1.0, None, 3.0], "s": ["a", None, "c"], "b": [True, False, None],
        "ts": pa.array([1, 2, 3], pa.timestamp("us")), "d": pa.array([1, 2, 3], pa.date32()),
        "dec": pa.array([1, 2, 3], pa.decimal128(5, 2)), "bin": [b"a", b"b", None],
        "l": [[1], [2, 3], None],
    })
    pq.write_table(t, tmp_path / "t.parquet")
    for backend in (None, "numpy_nullable", "pyarrow"):
        ours = quiver.dask.read_parquet(str(tmp_path / "t.parquet"), dtype_backend=backend)
        theirs = dd.read_parquet(str(tmp_path / "t.parquet"), dtype_backend=backend)
        assert ours._meta.dtypes.to_dict() == theirs._meta.dtypes.to_dict(), backend
        a, b = ours.compute(), theirs.compute()
        assert a.dtypes.to_dict() == b.dtypes.to_dict(), backend
        pd.testing.assert_frame_equal(a, b)
    with pytest.raises(quiver.InvalidError, match="dtype_backend"):
        quiver.dask.read_parquet(str(tmp_path / "t.parquet"), dtype_backend="arrow")


def test_filters_prune_before_the_graph(client, hive):
    root, t = hive
    # partition keys: one file of four
    ddf = quiver.dask.read_parquet(str(root), filters=[("year", "=", 2021)],
                                   columns=["id", "amount"])
    assert ddf.npartitions == 1
    want = t.filter(pa.compute.field("year") == 2021).select(["id", "amount"]).to_pandas()
    pd.testing.assert_frame_equal(by_id(ddf.compute()), by_id(want))
    # statistics: ids 10500..12499 are in 3 of the 2021 file's row groups
    # (and in no other file: pruned by their footers' statistics)
    flt = [("id", ">=", 10500), ("id", "<", 12500)]
    ddf = quiver.dask.read_parquet(str(root), filters=flt, split_row_groups=True)
    assert ddf.npartitions == 3  # row groups 10000-10999, 11000-11999, 12000-12999
    got = ddf.compute()
    assert sorted(got["id"]) == list(range(10500, 12500))
    assert set(got["year"].astype(int)) == {2021}
    # one partition per file: the files whose statistics may match
    assert quiver.dask.read_parquet(str(root), filters=flt).npartitions == 1
    # two row groups per partition
    assert quiver.dask.read_parquet(str(root), split_row_groups=2).npartitions == 4 * 5
    # an OR of conjunctions, one on keys and one on columns
    ddf = quiver.dask.read_parquet(str(root), filters=[[("year", "=", 2020)],
                                                       [("id", "=", 39999)]])
    assert ddf.npartitions == 2
    assert len(ddf.compute()) == 10001
    # everything pruned: one empty partition with the columns
    ddf = quiver.dask.read_parquet(str(root), filters=[("id", ">", 10**9)])
    assert ddf.npartitions == 1
    empty = ddf.compute()
    assert len(empty) == 0 and list(empty.columns) == ["id", "city", "amount", "note", "year"]
    # an Expression filter: pushed into the workers' reads
    field = quiver.compute.field
    got = quiver.dask.read_parquet(str(root), filters=(field("id") < 5) & (field("year") == 2020))
    assert sorted(got.compute()["id"]) == [0, 1, 2, 3, 4]


def test_bad_arguments_raise_clear_errors(client, hive):
    root, _ = hive
    with pytest.raises(quiver.KeyError, match="nope"):
        quiver.dask.read_parquet(str(root), filters=[("nope", "=", 1)])
    with pytest.raises(quiver.KeyError, match="nope"):
        quiver.dask.read_parquet(str(root), columns=["id", "nope"])
    with pytest.raises(quiver.InvalidError, match="split_row_groups"):
        quiver.dask.read_parquet(str(root), split_row_groups=0)
    with pytest.raises(quiver.IOError, match="no such file"):
        quiver.dask.read_parquet(str(root / "missing"))


class _CountedFile:
    def __init__(self, inner, path):
        self._inner, self._path = inner, path

    def read(self, n=-1):
        out = self._inner.read(n)
        CountingLocalFS.bytes_read[self._path] += len(out)
        return out

    def __getattr__(self, name):
        return getattr(self._inner, name)


class CountingLocalFS(LocalFileSystem):
    """The local disk, counting the bytes read in this process, by file."""

    bytes_read = collections.Counter()

    def _open(self, path, mode="rb", **kwargs):
        f = super()._open(path, mode, **kwargs)
        return _CountedFile(f, self._strip_protocol(path)) if "r" in mode else f


def test_client_reads_footers_only_workers_read_the_data(client, hive):
    root, t = hive
    fs = CountingLocalFS()
    CountingLocalFS.bytes_read.clear()
    ddf = quiver.dask.read_parquet(str(root), filesystem=fs, columns=["id", "note", "year"])
    planned = dict(CountingLocalFS.bytes_read)
    files = sorted(str(p) for p in root.rglob("*.parquet"))
    assert sorted(planned) == files
    for f in files:
        size = os.path.getsize(f)
        footer = int.from_bytes(open(f, "rb").read()[-8:-4], "little") + 8
        # the footer, in one suffix read of at most 64 KiB (or the footer's size)
        assert footer <= planned[f] <= max(footer, 65536) < size / 3, f
    got = ddf.compute()
    assert CountingLocalFS.bytes_read == planned  # no byte more read by the client
    assert sorted(got["id"]) == list(range(t.num_rows))
    assert got["note"].isna().sum() == t.column("note").null_count


def test_column_projection_reaches_the_read(client, hive):
    root, t = hive
    ddf = quiver.dask.read_parquet(str(root))
    got = ddf[["amount", "id"]].compute()
    assert list(got.columns) == ["amount", "id"]
    assert np.isclose(got["amount"].sum(), pc_sum(t, "amount"))


def pc_sum(t, name):
    return pa.compute.sum(t.column(name)).as_py()


def test_to_parquet_roundtrip(client, tmp_path):
    df = sample(3000).to_pandas()
    ddf = dd.from_pandas(df, npartitions=3)
    out = tmp_path / "flat"
    written = quiver.dask.to_parquet(ddf, str(out), compression="zstd", write_metadata_file=True)
    assert sorted(os.listdir(out)) == ["_metadata", "part.0.parquet", "part.1.parquet",
                                       "part.2.parquet"]
    assert [md.row_group(0).column(0).file_path for md in written] == \
        [f"part.{i}.parquet" for i in range(3)]
    assert [md.num_rows for md in written] == [1000, 1000, 1000]
    assert pq.ParquetFile(out / "part.1.parquet").metadata.row_group(0).column(0).compression \
        == "ZSTD"
    back = pads.dataset(str(out), format="parquet").to_table().to_pandas()
    pd.testing.assert_frame_equal(by_id(back), by_id(df), check_dtype=False)
    duck = duckdb.sql(f"select * from read_parquet('{out}/*.parquet')").df()
    assert sorted(duck["id"]) == list(range(3000))
    assert np.isclose(duck["amount"].sum(), df["amount"].sum())
    summary = pads.parquet_dataset(str(out / "_metadata"))
    assert summary.to_table().num_rows == 3000
    # read back by quiver.dask (its _metadata used)
    again = quiver.dask.read_parquet(str(out)).compute()
    pd.testing.assert_frame_equal(by_id(again), by_id(df), check_dtype=False)


def test_to_parquet_partition_on(client, tmp_path):
    df = sample(2000).to_pandas()
    ddf = dd.from_pandas(df, npartitions=2)
    out = tmp_path / "hive"
    written = quiver.dask.to_parquet(ddf, str(out), partition_on=["year"])
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*.parquet"))
    assert names == ["year=2020/part.0.0.parquet", "year=2021/part.0.0.parquet",
                     "year=2022/part.1.0.parquet", "year=2023/part.1.0.parquet"]
    assert sorted(md.row_group(0).column(0).file_path for md in written) == names
    back = pads.dataset(str(out), format="parquet", partitioning="hive").to_table()
    assert sorted(back.column("id").to_pylist()) == list(range(2000))
    assert sorted(zip(back.column("id").to_pylist(), back.column("year").to_pylist())) == \
        list(zip(df["id"], df["year"]))
    duck = duckdb.sql(f"select year, count(*) n from read_parquet('{out}/**/*.parquet', "
                      f"hive_partitioning=true) group by year order by year").fetchall()
    assert duck == [(2020, 500), (2021, 500), (2022, 500), (2023, 500)]


def test_on_s3_workers_write_and_read_client_fetches_footers(client, s3):  # noqa: F811
    """A local S3 server (moto, counting requests on the server): the workers
    write the objects and read the data; building the graph fetches, of the
    one object the partition filter keeps, its footer in one ranged GET."""
    fs = s3fs_fs(s3)
    df = sample(8000).to_pandas()
    root = f"{BUCKET}/dask-hive"
    written = quiver.dask.to_parquet(dd.from_pandas(df, npartitions=2), root, filesystem=fs,
                                     partition_on=["year"])
    keys = sorted(o["Key"] for o in s3["client"].list_objects_v2(
        Bucket=BUCKET, Prefix="dask-hive/")["Contents"])
    assert keys == ["dask-hive/year=2020/part.0.0.parquet", "dask-hive/year=2021/part.0.0.parquet",
                    "dask-hive/year=2022/part.1.0.parquet", "dask-hive/year=2023/part.1.0.parquet"]
    assert sum(md.num_rows for md in written) == 8000
    s3["counter"].take()
    ddf = quiver.dask.read_parquet(root, filesystem=fs, filters=[("year", "=", 2022)])
    planned = [e for e in s3["counter"].take() if e[0] == "GET" and ".parquet" in e[1]]
    assert [(e[1], e[2].startswith("bytes=")) for e in planned] == \
        [(f"/{BUCKET}/dask-hive/year=2022/part.1.0.parquet", True)]
    got = ddf.compute()
    events = s3["counter"].take()
    in_workers = [e for e in events if e[0] == "GET" and ".parquet" in e[1]]
    assert in_workers and all("year=2022" in e[1] for e in in_workers)
    # The workers open the object with the size the client's listing gave:
    # no HEAD request for it.
    assert [e for e in events if e[0] == "HEAD" and ".parquet" in e[1]] == []
    assert sorted(got["id"]) == sorted(df[df["year"] == 2022]["id"])


def test_to_parquet_lazy_overwrite_and_names(client, tmp_path):
    df = sample(600).to_pandas()
    out = tmp_path / "lazy"
    pending = quiver.dask.to_parquet(dd.from_pandas(df, npartitions=3), str(out),
                                     name_function=lambda i: f"chunk-{i:03d}.parquet",
                                     compute=False)
    assert not list(out.glob("*.parquet"))  # nothing written before compute()
    written = pending.compute()
    assert sorted(os.listdir(out)) == ["chunk-000.parquet", "chunk-001.parquet",
                                       "chunk-002.parquet"]
    assert [md.num_rows for md in written] == [200, 200, 200]
    # overwrite: the directory emptied first (else the 3 old files would stay)
    quiver.dask.to_parquet(dd.from_pandas(df, npartitions=2), str(out), overwrite=True)
    assert sorted(os.listdir(out)) == ["part.0.parquet", "part.1.parquet"]
    back = pq.read_table(out).to_pandas()
    pd.testing.assert_frame_equal(by_id(back), by_id(df), check_dtype=False)


def test_to_parquet_errors(client, tmp_path):
    ddf = dd.from_pandas(sample(100).to_pandas(), npartitions=2)
    with pytest.raises(TypeError, match="no_such_option"):  # write_parquet's error
        quiver.dask.to_parquet(ddf, str(tmp_path / "x"), no_such_option=1)
    assert not list((tmp_path / "x").glob("*.parquet"))
    with pytest.raises(quiver.KeyError, match="nope"):
        quiver.dask.to_parquet(ddf, str(tmp_path / "y"), partition_on=["nope"])
    with pytest.raises(quiver.TypeError, match="dask DataFrame"):
        quiver.dask.to_parquet(sample(10).to_pandas(), str(tmp_path / "z"))


@pytest.mark.skipif(not CLI.exists(), reason=f"the quiver CLI is not built at {CLI}")
def test_dedup_of_two_directories_with_cdc(client, tmp_path):
    """Two runs with different partition counts, CDC on: `quiver dedup A B`
    treats each directory as one input and finds most of B's pages in A."""
    df = pd.DataFrame({"id": np.arange(200_000), "v": np.arange(200_000) * 7 % 1009})
    cdc = {"min_chunk_size": 8 * 1024, "max_chunk_size": 64 * 1024}
    for name, n in (("a", 4), ("b", 5)):
        quiver.dask.to_parquet(dd.from_pandas(df, npartitions=n), str(tmp_path / name),
                               use_content_defined_chunking=cdc, use_dictionary=False,
                               write_index=False, write_metadata_file=True)
    out = subprocess.run([str(CLI), "dedup", "--json", str(tmp_path / "a"), str(tmp_path / "b")],
                         capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    a, b = report["files"]
    # _metadata (a name starting with '_') is not counted, as datasets skip it
    assert (a["directory_files"], b["directory_files"]) == (4, 5)
    assert a["size"] == sum(os.path.getsize(p) for p in (tmp_path / "a").glob("part.*"))
    assert b["against"] == [str(tmp_path / "a")]
    assert b["byte_level"]["bytes"] == b["size"]
    assert b["page_level"]["shared_ratio"] > 0.5
    text = subprocess.run([str(CLI), "dedup", str(tmp_path / "a"), str(tmp_path / "b")],
                          capture_output=True, text=True, check=True).stdout
    assert f"{tmp_path / 'a'}/ (4 files)" in text and "all 2 inputs" in text


def test_importing_quiver_imports_neither_dask_nor_ray():
    code = ("import sys, quiver; assert 'dask' not in sys.modules and 'ray' not in sys.modules;"
            "quiver.dask; assert 'dask' in sys.modules and 'ray' not in sys.modules;"
            "print(quiver.dask.read_parquet.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "quiver.dask"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        quiver.nope  # noqa: B018
    # Dask or Ray missing (None in sys.modules makes their import fail):
    # an ImportError naming what to install.
    for blocked, needed in (("dask", "dask[dataframe]"), ("ray", "ray[data]")):
        code = (f"import sys; sys.modules[{blocked!r}] = None; import quiver\n"
                f"try:\n    quiver.{blocked}\nexcept ImportError as e:\n    print(e)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert f"quiver.{blocked} needs the '{needed}'" in out.stdout
