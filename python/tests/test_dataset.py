"""Datasets (issue 46 section 3): quiver.write_to_dataset, quiver.ParquetDataset
and read_table of a directory / glob / list of files. pyarrow is the judge
(pyarrow.dataset and pq.read_table read what Quiver writes, and Quiver reads
what pyarrow writes, equal), duckdb and polars read Quiver's datasets back
equal, and a counting fsspec filesystem shows partition filters open no
pruned file."""

import collections
import datetime
import os
import uuid

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest
from fsspec.implementations.memory import MemoryFileSystem

import quiver
from quiver.compute import field


def sample(n=300, seed=1):
    rng = np.random.default_rng(seed)
    cities = np.array(["Paris", "New York", "a/b=c%", "Zürich"])
    return pa.table({
        "year": pa.array(rng.integers(2020, 2024, n), pa.int64()),
        "city": pa.array(cities[rng.integers(0, 4, n)]).cast(pa.string()),
        "id": pa.array(np.arange(n), pa.int64()),
        "amount": pa.array(rng.random(n) * 100),
        "note": pa.array([None if i % 7 == 0 else f"n{i}" for i in range(n)], pa.string()),
    })


def sorted_rows(table, by="id"):
    return sorted(pa.table(table).to_pylist(), key=lambda r: r[by])


def files_of(root):
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, fs in os.walk(root) for f in fs)


# --- write_to_dataset ------------------------------------------------------------------


def test_write_layout_and_names_match_pyarrow(tmp_path):
    t = sample()
    quiver.write_to_dataset(t, str(tmp_path / "q"), partition_cols=["year", "city"])
    pq.write_to_dataset(t, str(tmp_path / "p"), partition_cols=["year", "city"])
    strip = lambda names: sorted(os.path.dirname(n) for n in names)  # noqa: E731
    q_files, p_files = files_of(tmp_path / "q"), files_of(tmp_path / "p")
    assert strip(q_files) == strip(p_files)
    assert "year=2021/city=a%2Fb%3Dc%25" in strip(q_files)
    assert "year=2021/city=Z%C3%BCrich" in strip(q_files)
    assert "year=2021/city=New%20York" in strip(q_files)
    # "<uuid4 hex>-0.parquet", one uuid for the call
    bases = {os.path.basename(n) for n in q_files}
    assert len(bases) == 1
    (base,) = bases
    assert base.endswith("-0.parquet") and uuid.UUID(hex=base[:-len("-0.parquet")]).version == 4


def test_write_read_back_by_pyarrow_dataset_equal(tmp_path):
    t = sample()
    quiver.write_to_dataset(quiver.table(t), str(tmp_path), partition_cols=["year", "city"])
    back = pads.dataset(str(tmp_path), partitioning="hive").to_table()
    assert back.num_rows == t.num_rows
    got = sorted_rows(back.select(t.column_names))
    assert got == sorted_rows(t)
    # rows within a partition in input order
    part = pq.read_table(str(tmp_path / "year=2022" / "city=Paris"))
    want = t.filter((pa.compute.field("year") == 2022) & (pa.compute.field("city") == "Paris"))
    assert part.column("id").to_pylist() == want.column("id").to_pylist()
    assert part.column_names == ["id", "amount", "note"]


def test_write_read_back_by_duckdb_and_polars(tmp_path):
    t = sample()
    quiver.write_to_dataset(t, str(tmp_path), partition_cols=["year", "city"])
    glob = str(tmp_path / "**" / "*.parquet")
    con = duckdb.connect()
    rows = con.execute(f"select year, city, id, amount, note from read_parquet('{glob}', "
                       f"hive_partitioning=true) order by id").fetchall()
    assert [tuple(r.values()) for r in sorted_rows(t)] == [tuple(r) for r in rows]
    pl_rows = (pl.scan_parquet(glob, hive_partitioning=True).sort("id")
               .select(["year", "city", "id", "amount", "note"]).collect().to_dicts())
    assert pl_rows == sorted_rows(t)


def test_write_nulls_bools_dates_and_no_partitions(tmp_path):
    t = pa.table({"k": pa.array([1, None, 1], pa.int32()),
                  "b": [True, False, True],
                  "d": pa.array([datetime.date(2024, 1, 2)] * 3),
                  "v": [1, 2, 3]})
    quiver.write_to_dataset(t, str(tmp_path / "a"), partition_cols=["k", "b", "d"])
    assert sorted(os.path.dirname(f) for f in files_of(tmp_path / "a")) == [
        "k=1/b=true/d=2024-01-02", "k=__HIVE_DEFAULT_PARTITION__/b=false/d=2024-01-02"]
    back = pq.read_table(str(tmp_path / "a"))
    assert sorted(back.column("v").to_pylist()) == [1, 2, 3]
    assert back.filter(pa.compute.field("v") == 2).column("k").to_pylist() == [None]
    quiver.write_to_dataset(t, str(tmp_path / "flat"))
    (name,) = files_of(tmp_path / "flat")
    assert pq.read_table(str(tmp_path / "flat" / name)).equals(t)


def test_use_threads_writes_the_same_files(tmp_path):
    t = sample()
    for threads in (False, True):
        collected = []
        quiver.write_to_dataset(t, str(tmp_path / str(threads)), partition_cols=["year", "city"],
                                basename_template="p-{i}.parquet", max_rows_per_file=7,
                                use_threads=threads, metadata_collector=collected)
        assert sum(m.num_rows for m in collected) == t.num_rows
        assert max(m.num_rows for m in collected) == 7
    assert files_of(tmp_path / "False") == files_of(tmp_path / "True")
    for name in files_of(tmp_path / "False"):
        assert pq.read_table(str(tmp_path / "False" / name)).equals(
            pq.read_table(str(tmp_path / "True" / name)))


def test_max_rows_per_file_and_basename_template(tmp_path):
    t = pa.table({"k": [1] * 10 + [2] * 3, "v": list(range(13))})
    quiver.write_to_dataset(t, str(tmp_path), partition_cols=["k"], max_rows_per_file=4,
                            basename_template="part-{i}.parquet")
    assert files_of(tmp_path) == [f"k=1/part-{i}.parquet" for i in range(3)] + ["k=2/part-0.parquet"]
    assert pq.read_table(str(tmp_path / "k=1" / "part-2.parquet")).column("v").to_pylist() == [8, 9]
    back = pq.read_table(str(tmp_path))
    assert sorted(back.column("v").to_pylist()) == list(range(13))


def test_writer_options_reach_the_files(tmp_path):
    t = pa.table({"k": [1, 1, 2], "v": [1.0, 2.0, 3.0]})
    quiver.write_to_dataset(t, str(tmp_path), partition_cols=["k"], compression="zstd",
                            row_group_size=1)
    md = pq.ParquetFile(str(tmp_path / "k=1" / files_of(tmp_path / "k=1")[0])).metadata
    assert md.num_row_groups == 2
    assert md.row_group(0).column(0).compression == "ZSTD"


def test_existing_data_behavior(tmp_path):
    t = pa.table({"k": [1, 2], "v": [10, 20]})
    root = str(tmp_path / "ds")
    quiver.write_to_dataset(t, root, partition_cols=["k"], basename_template="a-{i}.parquet")
    # overwrite_or_ignore: same name replaced, other names kept
    quiver.write_to_dataset(pa.table({"k": [1], "v": [11]}), root, partition_cols=["k"],
                            basename_template="b-{i}.parquet")
    assert files_of(root) == ["k=1/a-0.parquet", "k=1/b-0.parquet", "k=2/a-0.parquet"]
    with pytest.raises(quiver.InvalidError, match="already holds data"):
        quiver.write_to_dataset(t, root, partition_cols=["k"], existing_data_behavior="error")
    quiver.write_to_dataset(t, str(tmp_path / "new"), existing_data_behavior="error")
    # delete_matching: only the partitions written are emptied first
    quiver.write_to_dataset(pa.table({"k": [1], "v": [12]}), root, partition_cols=["k"],
                            existing_data_behavior="delete_matching",
                            basename_template="c-{i}.parquet")
    assert files_of(root) == ["k=1/c-0.parquet", "k=2/a-0.parquet"]
    assert sorted(pq.read_table(root).column("v").to_pylist()) == [12, 20]
    # without partitions the root is the partition (as pyarrow's)
    flat = str(tmp_path / "flat")
    quiver.write_to_dataset(t, flat, basename_template="a-{i}.parquet")
    quiver.write_to_dataset(t, flat, basename_template="b-{i}.parquet",
                            existing_data_behavior="delete_matching")
    assert files_of(flat) == ["b-0.parquet"]


def test_write_errors(tmp_path):
    t = pa.table({"k": [1], "v": [1]})
    with pytest.raises(quiver.KeyError, match="no partition column 'x'"):
        quiver.write_to_dataset(t, str(tmp_path), partition_cols=["x"])
    with pytest.raises(quiver.InvalidError, match="existing_data_behavior"):
        quiver.write_to_dataset(t, str(tmp_path), existing_data_behavior="replace")
    with pytest.raises(quiver.InvalidError, match="must contain '\\{i\\}'"):
        quiver.write_to_dataset(t, str(tmp_path), basename_template="x.parquet")
    with pytest.raises(quiver.InvalidError, match="every column is a partition column"):
        quiver.write_to_dataset(t, str(tmp_path), partition_cols=["k", "v"])
    with pytest.raises(quiver.NotImplementedError, match="'f' holds float"):
        quiver.write_to_dataset(pa.table({"f": [1.5], "v": [1]}), str(tmp_path),
                                partition_cols=["f"])
    with pytest.raises(TypeError):
        quiver.write_to_dataset(t, str(tmp_path), no_such_option=1)


def test_write_and_read_on_memory_filesystem():
    t = sample(100)
    root = f"memory://ds-{uuid.uuid4().hex}"
    quiver.write_to_dataset(t, root, partition_cols=["city"])
    fs = MemoryFileSystem()
    path = root[len("memory://"):]
    assert len(fs.find(path)) == 4
    back = quiver.read_table(root)
    assert sorted_rows(back.select(t.column_names)) == sorted_rows(t)
    ds = quiver.ParquetDataset(path, filesystem=fs)
    assert ds.read(filters=[("city", "=", "Paris")]).num_rows == \
        t.filter(pa.compute.field("city") == "Paris").num_rows


# --- reading -------------------------------------------------------------------------


@pytest.fixture
def pyarrow_dataset(tmp_path):
    t = sample()
    pq.write_to_dataset(t, str(tmp_path), partition_cols=["year", "city"])
    return str(tmp_path), t


def test_read_table_of_a_directory_equals_pyarrow(pyarrow_dataset):
    root, _ = pyarrow_dataset
    got = pa.table(quiver.read_table(root))
    want = pq.read_table(root)
    assert got.schema == want.schema
    assert str(want.schema.field("year").type) == "dictionary<values=int32, indices=int32, ordered=0>"
    assert got.equals(want)


def test_key_types_follow_pyarrow(tmp_path):
    t = pa.table({"big": [10**12, 1, None], "small": [-3, 4, 5], "s": ["1", "x", "2"],
                  "v": [1, 2, 3]})
    pq.write_to_dataset(t, str(tmp_path), partition_cols=["big", "small", "s"])
    got, want = pa.table(quiver.read_table(str(tmp_path))), pq.read_table(str(tmp_path))
    assert got.schema == want.schema
    assert got.equals(want)


@pytest.mark.parametrize("filters", [
    [("year", "=", 2021)],
    [("year", ">=", 2022), ("city", "in", ["Paris", "a/b=c%"])],
    [[("year", "=", 2020)], [("city", "=", "Zürich"), ("amount", "<", 30)]],
    [("amount", ">", 50), ("note", "!=", "n3")],
    [("city", "not in", ["Paris"]), ("id", "<", 100)],
])
def test_filters_equal_pyarrow(pyarrow_dataset, filters):
    root, _ = pyarrow_dataset
    got = pa.table(quiver.read_table(root, filters=filters))
    want = pq.read_table(root, filters=filters)
    assert sorted_rows(got) == sorted_rows(want)
    assert got.schema == want.schema


def test_expression_filters(pyarrow_dataset):
    root, t = pyarrow_dataset
    ds = quiver.ParquetDataset(root)
    on_keys = ds.read(filters=field("year") == 2023)
    assert sorted_rows(on_keys) == sorted_rows(pq.read_table(root, filters=[("year", "=", 2023)]))
    mixed = (field("year") == 2023) | (field("amount") > 90)
    want = pq.read_table(root, filters=pa.compute.field("year").cast(pa.int32()) == 2023)
    got = ds.read(filters=mixed, columns=["id", "amount"])
    expected = {r["id"] for r in want.to_pylist()} | {
        r["id"] for r in t.to_pylist() if r["amount"] > 90}
    assert {r["id"] for r in got.to_pylist()} == expected
    assert got.column_names == ["id", "amount"]


def test_columns_and_constructor_filters(pyarrow_dataset):
    root, _ = pyarrow_dataset
    ds = quiver.ParquetDataset(root, filters=[("year", "<", 2022)])
    got = ds.read(columns=["city", "id"], filters=[("amount", ">", 50)])
    want = pq.read_table(root, columns=["city", "id"],
                         filters=[("year", "<", 2022), ("amount", ">", 50)])
    assert got.column_names == ["city", "id"]
    assert sorted_rows(got) == sorted_rows(want)
    with pytest.raises(quiver.KeyError, match="no column 'nope'"):
        ds.read(columns=["nope"])


def test_files_schema_and_iter_batches(pyarrow_dataset):
    root, t = pyarrow_dataset
    ds = quiver.ParquetDataset(root)
    want = pq.ParquetDataset(root)
    assert ds.files == want.files
    assert ds.schema.to_pyarrow() == pq.read_table(root).schema
    batches = list(ds.iter_batches(batch_size=7, columns=["id", "year"]))
    assert all(b.num_rows <= 7 for b in batches)
    ids = [i for b in batches for i in b.column(0).to_pylist()]
    assert sorted(ids) == list(range(t.num_rows))
    assert ds.partition_keys == ["year", "city"]


def test_glob_and_list_of_files(pyarrow_dataset):
    root, t = pyarrow_dataset
    got = quiver.read_table(os.path.join(root, "year=2021", "*", "*.parquet"))
    assert sorted(got.column("city").to_pylist()) == sorted(
        t.filter(pa.compute.field("year") == 2021).column("city").to_pylist())
    files = quiver.ParquetDataset(root).files[:3]
    from_list = quiver.read_table(files)
    assert from_list.num_rows == sum(pq.read_metadata(f).num_rows for f in files)
    assert pa.table(from_list).equals(pq.read_table(files))  # keys parsed as pyarrow does


def test_no_file_passes(pyarrow_dataset):
    root, _ = pyarrow_dataset
    got = pa.table(quiver.read_table(root, filters=[("year", "=", 1999)]))
    want = pq.read_table(root, filters=[("year", "=", 1999)])
    assert got.num_rows == 0 and got.schema == want.schema


class CountingFS(MemoryFileSystem):
    """memory:// counting the files opened (by path)."""

    protocol = ("countingmem",)
    opened = collections.Counter()

    def _open(self, path, mode="rb", **kwargs):
        CountingFS.opened[self._strip_protocol(path)] += 1
        return super()._open(path, mode, **kwargs)


def test_partition_filters_open_no_pruned_file():
    fs = CountingFS()
    root = f"/counting-{uuid.uuid4().hex}"
    t = sample()
    quiver.write_to_dataset(t, root, partition_cols=["year", "city"], filesystem=fs)
    CountingFS.opened.clear()
    ds = quiver.ParquetDataset(root, filesystem=fs)
    assert len(ds.files) == 16 and not CountingFS.opened  # listing opens nothing
    got = ds.read(filters=[("year", "=", 2021), ("city", "=", "Paris"), ("amount", ">", 10)])
    (wanted,) = [f for f in ds.files if "year=2021/city=Paris/" in f]
    assert set(CountingFS.opened) == {wanted}
    want = t.filter((pa.compute.field("year") == 2021) & (pa.compute.field("city") == "Paris")
                    & (pa.compute.field("amount") > 10))
    assert sorted(got.column("id").to_pylist()) == want.column("id").to_pylist()


def test_schema_mismatch_error_and_unification(tmp_path):
    pq.write_table(pa.table({"a": pa.array([1, 2], pa.int32()), "b": ["x", "y"]}),
                   str(tmp_path / "f1.parquet"))
    pq.write_table(pa.table({"a": pa.array([3], pa.int64()), "c": [1.5]}),
                   str(tmp_path / "f2.parquet"))
    with pytest.raises(quiver.InvalidError,
                       match=r"field 'a' is int32 in .*f1.parquet and int64 in .*f2.parquet"):
        quiver.read_table(str(tmp_path))
    got = quiver.ParquetDataset(str(tmp_path), promote_options="permissive").read()
    assert str(got.schema.field(0).type) == "int64"
    assert got.to_pylist() == [{"a": 1, "b": "x", "c": None}, {"a": 2, "b": "y", "c": None},
                               {"a": 3, "b": None, "c": 1.5}]
    want = pads.dataset(str(tmp_path), schema=pa.schema([("a", pa.int64()), ("c", pa.float64())]))
    got = quiver.ParquetDataset(str(tmp_path),
                                schema=pa.schema([("a", pa.int64()), ("c", pa.float64())])).read()
    assert pa.table(got).equals(want.to_table())


def test_schema_types_partition_keys(tmp_path):
    pq.write_to_dataset(pa.table({"k": [1, 2], "v": [1, 2]}), str(tmp_path), partition_cols=["k"])
    schema = pa.schema([("v", pa.int64()), ("k", pa.int64())])
    got = pa.table(quiver.ParquetDataset(str(tmp_path), schema=schema).read())
    want = pads.dataset(str(tmp_path), schema=schema, partitioning="hive").to_table()
    assert got.schema == schema and sorted_rows(got, "v") == sorted_rows(want, "v")


def test_read_errors(tmp_path):
    with pytest.raises(quiver.NotImplementedError, match="partitioning"):
        quiver.ParquetDataset(str(tmp_path), partitioning="directory")
    with pytest.raises(quiver.InvalidError, match="no file"):
        quiver.ParquetDataset(str(tmp_path))
    with pytest.raises(quiver.InvalidError, match="promote_options"):
        quiver.ParquetDataset(str(tmp_path), promote_options="lenient")
    pq.write_table(pa.table({"k": [1]}), str(tmp_path / "k=1" / "x.parquet")
                   if os.makedirs(tmp_path / "k=1") is None else None)
    assert pa.table(quiver.read_table(str(tmp_path))).schema == pa.schema([("k", pa.int64())])
    with pytest.raises(quiver.InvalidError, match="row_groups"):
        quiver.read_table(str(tmp_path), row_groups=[0])


def test_pyarrow_filesystem():
    import pyarrow.fs as pafs

    fs = pafs._MockFileSystem()
    t = pa.table({"k": [1, 2, 1], "v": [1, 2, 3]})
    quiver.write_to_dataset(t, "root/ds", partition_cols=["k"], filesystem=fs,
                            basename_template="p-{i}.parquet")
    infos = fs.get_file_info(pafs.FileSelector("root", recursive=True))
    assert sorted(i.path for i in infos if i.type == pafs.FileType.File) == [
        "root/ds/k=1/p-0.parquet", "root/ds/k=2/p-0.parquet"]
    got = pa.table(quiver.read_table("root/ds", filesystem=fs))
    assert got.equals(pq.read_table("root/ds", filesystem=fs))
    assert quiver.ParquetDataset("root/ds", filesystem=fs).read(
        filters=[("k", "=", 2)]).to_pylist() == [{"v": 2, "k": 2}]
    with pytest.raises(quiver.InvalidError, match="mock://root/ds already holds data"):
        quiver.write_to_dataset(t, "root/ds", partition_cols=["k"], filesystem=fs,
                                existing_data_behavior="error")


# --- metadata_collector, write_metadata, _metadata ------------------------------------


def test_metadata_collector_and_write_metadata(tmp_path):
    t = pa.table({"k": [1, 2, 1], "v": [1.0, 2.0, 3.0]})
    root = str(tmp_path)
    collected = []
    quiver.write_to_dataset(t, root, partition_cols=["k"], metadata_collector=collected)
    paths = sorted(m.row_group(0).column(0).file_path for m in collected)
    assert paths == sorted(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                           for d, _, fs in os.walk(root) for f in fs)
    assert [m.num_rows for m in collected] == [2, 1]
    schema = pa.schema([("v", pa.float64())])
    quiver.write_metadata(schema, os.path.join(root, "_common_metadata"))
    quiver.write_metadata(schema, os.path.join(root, "_metadata"), metadata_collector=collected)
    common = pq.read_metadata(os.path.join(root, "_common_metadata"))
    assert common.num_row_groups == 0 and common.schema.to_arrow_schema() == schema
    md = pq.read_metadata(os.path.join(root, "_metadata"))
    assert (md.num_rows, md.num_row_groups) == (3, 2)
    assert sorted(md.row_group(i).column(0).file_path for i in range(2)) == paths
    # pyarrow reads the dataset from the _metadata file alone
    back = pads.parquet_dataset(os.path.join(root, "_metadata"), partitioning="hive").to_table()
    assert sorted(back.column("v").to_pylist()) == [1.0, 2.0, 3.0]
    # and pyarrow's own collector output equals in content
    pa_collected = []
    pq.write_to_dataset(t, str(tmp_path / "pa"), partition_cols=["k"],
                        metadata_collector=pa_collected)
    assert sorted(m.num_rows for m in pa_collected) == sorted(m.num_rows for m in collected)


def test_write_parquet_metadata_collector(tmp_path):
    t = pa.table({"x": list(range(10))})
    collected = []
    quiver.write_parquet(t, str(tmp_path / "a.parquet"), metadata_collector=collected,
                         row_group_size=4)
    data = quiver.write_parquet(t, None, metadata_collector=collected)
    assert pq.read_table(pa.BufferReader(bytes(data))).equals(t)
    assert [m.num_row_groups for m in collected] == [3, 1]
    assert collected[0] == quiver.ParquetFile(str(tmp_path / "a.parquet")).metadata
    with pytest.raises(quiver.NotImplementedError, match="metadata_collector"):
        quiver.write_parquet(t, quiver.BufferOutputStream(), metadata_collector=[])


def test_set_file_path_and_append_row_groups(tmp_path):
    a = quiver.write_parquet(pa.table({"x": [1, 2]}), None)
    b = quiver.write_parquet(pa.table({"x": [3]}), None)
    ma, mb = quiver.ParquetFile(a).metadata, quiver.ParquetFile(b).metadata
    ma.set_file_path("p/a.parquet")
    assert ma.row_group(0).column(0).file_path == "p/a.parquet"
    ma.append_row_groups(mb)
    assert (ma.num_rows, ma.num_row_groups) == (3, 2)
    assert ma.row_group(1).column(0).file_path == ""
    other = quiver.ParquetFile(quiver.write_parquet(pa.table({"y": ["s"]}), None)).metadata
    with pytest.raises(quiver.InvalidError, match="equal schemas"):
        ma.append_row_groups(other)
    ma.write_metadata_file(str(tmp_path / "_metadata"))
    assert pq.read_metadata(str(tmp_path / "_metadata")).num_rows == 3


def test_dataset_reads_metadata_file_instead_of_footers():
    fs = CountingFS()
    root = f"/summary-{uuid.uuid4().hex}"
    t = sample(120)
    collected = []
    quiver.write_to_dataset(t, root, partition_cols=["city"], filesystem=fs,
                            metadata_collector=collected)
    quiver.write_metadata(t.drop_columns(["city"]).schema, f"{root}/_metadata",
                          metadata_collector=collected, filesystem=fs)
    CountingFS.opened.clear()
    ds = quiver.ParquetDataset(root, filesystem=fs)
    assert len(ds.files) == 4
    assert ds.schema.names == ["year", "id", "amount", "note", "city"]
    assert set(CountingFS.opened) == {f"{root}/_metadata"}
    got = ds.read(filters=[("city", "=", "Paris")])
    assert sorted(got.column("id").to_pylist()) == t.filter(
        pa.compute.field("city") == "Paris").column("id").to_pylist()


def test_bad_files_and_filters_are_named(tmp_path):
    os.makedirs(tmp_path / "k=1")
    (tmp_path / "k=1" / "x.txt").write_bytes(b"hello")
    with pytest.raises(quiver.InvalidError, match=r"k=1/x.txt: not a Parquet file"):
        quiver.read_table(str(tmp_path))
    with pytest.raises(quiver.IOError, match="nonexist: no such file or directory"):
        quiver.ParquetDataset(str(tmp_path / "nonexist"))
    (tmp_path / "k=1" / "x.txt").unlink()
    pq.write_table(pa.table({"v": [1]}), str(tmp_path / "k=1" / "x.parquet"))
    with pytest.raises(quiver.QuiverError, match=r"filters on partition keys \(k int32\)"):
        quiver.read_table(str(tmp_path), filters=[("k", "=", "a")])


def test_reads_duckdb_and_polars_datasets(tmp_path):
    t = sample(200)
    con = duckdb.connect()
    con.register("t", t)
    con.execute(f"copy t to '{tmp_path / 'duck'}' (format parquet, partition_by (year, city))")
    for root in (tmp_path / "duck",):
        got, want = pa.table(quiver.read_table(str(root))), pq.read_table(str(root))
        assert got.schema == want.schema, root
        assert sorted_rows(got) == sorted_rows(want)
        f = [("year", "=", 2022), ("amount", "<", 50)]
        assert sorted_rows(quiver.read_table(str(root), filters=f)) == \
            sorted_rows(pq.read_table(str(root), filters=f))
    # polars keeps the key columns in its files: pyarrow refuses the dataset
    # (the types clash); Quiver reads the keys from the files, as polars and
    # duckdb do, and still prunes by the paths.
    root = str(tmp_path / "polars")
    pl.DataFrame(t).write_parquet(root, partition_by=["year", "city"])
    with pytest.raises(pa.ArrowTypeError, match="year"):
        pq.read_table(root)
    got = pa.table(quiver.read_table(root))
    assert got.schema == t.schema.remove_metadata().set(
        1, pa.field("city", pa.large_string())).set(4, pa.field("note", pa.large_string()))
    by_polars = pl.scan_parquet(root, hive_partitioning=True).collect().to_arrow()
    assert sorted_rows(got) == sorted_rows(by_polars) == sorted_rows(t)
    ds = quiver.ParquetDataset(root)
    f = [("year", "=", 2021), ("amount", ">", 50)]
    got = ds.read(filters=f)
    assert sorted_rows(got) == sorted_rows(t.filter(
        (pa.compute.field("year") == 2021) & (pa.compute.field("amount") > 50)))
    assert ds.read_stats["files_pruned"] == 12


def test_use_threads_same_result(pyarrow_dataset):
    root, _ = pyarrow_dataset
    f = [("amount", ">", 20)]
    one = quiver.read_table(root, filters=f, use_threads=False)
    many = quiver.read_table(root, filters=f, use_threads=True)
    assert pa.table(one).equals(pa.table(many))
    assert pa.table(many).equals(pq.read_table(root, filters=f))


def test_column_filters_are_pushed_into_each_file(tmp_path):
    # ids sorted within each file, 10 rows a row group: a filter on id prunes
    # row groups by their statistics in every file read.
    t = pa.table({"k": [i % 2 for i in range(200)], "id": list(range(200))})
    quiver.write_to_dataset(t, str(tmp_path), partition_cols=["k"], row_group_size=10)
    ds = quiver.ParquetDataset(str(tmp_path))
    got = ds.read(filters=[("k", "=", 1), ("id", ">=", 180)])
    assert got.column("id").to_pylist() == list(range(181, 200, 2))
    stats = ds.read_stats
    assert stats["files_pruned"] == 1
    assert stats["row_groups_pruned_statistics"] == 9  # of the k=1 file's 10
    batches = list(ds.iter_batches(filters=[("id", "<", 20)]))
    assert sorted(i for b in batches for i in b.column(0).to_pylist()) == list(range(20))
    assert ds.read_stats["files_pruned"] == 0
    assert ds.read_stats["row_groups_pruned_statistics"] == 18


def test_read_table_options_reach_each_file(pyarrow_dataset):
    root, _ = pyarrow_dataset
    t = quiver.read_table(root, batch_size=5)
    assert max(len(c) for c in t.column("id").chunks) == 5
    t = pa.table(quiver.read_table(root, read_dictionary=["note"]))
    assert pa.types.is_dictionary(t.schema.field("note").type)
    with pytest.raises(TypeError, match="no_such_option"):
        quiver.read_table(root, no_such_option=1)


def test_list_of_files_on_two_filesystems_is_refused(tmp_path):
    local = str(tmp_path / "a.parquet")
    pq.write_table(pa.table({"x": [1]}), local)
    remote = f"memory://two-{uuid.uuid4().hex}/b.parquet"
    quiver.write_parquet(pa.table({"x": [2]}), remote)
    with pytest.raises(quiver.InvalidError, match="different filesystems"):
        quiver.read_table([local, remote])
    assert quiver.read_table([remote, remote]).column("x").to_pylist() == [2, 2]


def test_schema_cast_failure_names_the_file(tmp_path):
    pq.write_table(pa.table({"a": [1, 1000]}), str(tmp_path / "f1.parquet"))
    with pytest.raises(quiver.QuiverError, match=r"f1.parquet: column 'a' \(int64\) does not "
                                                 r"convert to int8"):
        quiver.ParquetDataset(str(tmp_path), schema=pa.schema([("a", pa.int8())])).read()
    with pytest.raises(quiver.InvalidError, match="no type holds both"):
        pq.write_table(pa.table({"a": ["x"]}), str(tmp_path / "f2.parquet"))
        quiver.ParquetDataset(str(tmp_path), promote_options="permissive").read()


def test_parquet_writer_metadata_after_close(tmp_path):
    import io

    t = pa.table({"x": [1, 2, 3]})
    w = quiver.ParquetWriter(str(tmp_path / "a.parquet"), t.schema)
    w.write_table(t)
    with pytest.raises(quiver.InvalidError, match="once the writer is closed"):
        w.metadata  # noqa: B018
    w.close()
    assert w.metadata == quiver.ParquetFile(str(tmp_path / "a.parquet")).metadata
    assert w.metadata.num_rows == pq.read_metadata(str(tmp_path / "a.parquet")).num_rows == 3
    for dest in (quiver.BufferOutputStream(), io.BytesIO(),
                 f"memory://pw-{uuid.uuid4().hex}/x.parquet"):
        with quiver.ParquetWriter(dest, t.schema, row_group_size=2) as w:
            w.write_table(t)
        assert (w.metadata.num_rows, w.metadata.num_row_groups) == (3, 2)

    class WriteOnly(io.RawIOBase):
        def writable(self):
            return True

        def write(self, b):
            return len(b)

    with quiver.ParquetWriter(WriteOnly(), t.schema) as w:
        w.write_table(t)
    with pytest.raises(quiver.NotImplementedError, match="cannot be read back"):
        w.metadata  # noqa: B018


def test_metadata_statistics_prune_files_before_opening():
    fs = CountingFS()
    root = f"/summary-stats-{uuid.uuid4().hex}"
    # ids ascending: each city's file holds a disjoint id range
    t = pa.table({"city": ["a"] * 50 + ["b"] * 50 + ["c"] * 50, "id": list(range(150)),
                  "s": [f"s{i:03d}" for i in range(150)],
                  "x": [float(i) for i in range(150)]})
    collected = []
    quiver.write_to_dataset(t, root, partition_cols=["city"], filesystem=fs,
                            metadata_collector=collected, row_group_size=10)
    quiver.write_metadata(t.drop_columns(["city"]).schema, f"{root}/_metadata",
                          metadata_collector=collected, filesystem=fs)
    ds = quiver.ParquetDataset(root, filesystem=fs)
    cases = [
        ([("id", ">=", 120)], {"c"}),
        ([("id", "in", [3, 140])], {"a", "c"}),
        ([[("id", "<", 5)], [("s", "=", "s077")]], {"a", "b"}),
        ([("x", "<=", 49.0), ("id", ">", 45)], {"a"}),
        ([("id", "!=", 1)], {"a", "b", "c"}),   # != never prunes
        ([("id", ">", 1000)], set()),
    ]
    for filters, cities in cases:
        CountingFS.opened.clear()
        got = ds.read(filters=filters)
        opened = {p.split("city=")[1][0] for p in CountingFS.opened if "city=" in p}
        want = pq.read_table(root, filesystem=pa.fs.PyFileSystem(pa.fs.FSSpecHandler(fs)),
                             filters=filters, partitioning="hive",
                             ignore_prefixes=["_"]) if cities else None
        assert opened <= cities and (opened == cities or not cities), (filters, opened)
        if cities:
            assert sorted_rows(got) == sorted_rows(want), filters
        else:
            assert got.num_rows == 0


def test_metadata_pruning_keeps_nan_matches(tmp_path):
    t = pa.table({"k": [1, 1], "x": [1.0, float("nan")]})
    collected = []
    quiver.write_to_dataset(t, str(tmp_path), partition_cols=["k"], metadata_collector=collected)
    quiver.write_metadata(pa.schema([("x", pa.float64())]), str(tmp_path / "_metadata"),
                          metadata_collector=collected)
    with_summary = quiver.read_table(str(tmp_path), filters=[("x", "in", [float("nan")])])
    os.remove(tmp_path / "_metadata")
    without = quiver.read_table(str(tmp_path), filters=[("x", "in", [float("nan")])])
    assert with_summary.num_rows == without.num_rows == 1
