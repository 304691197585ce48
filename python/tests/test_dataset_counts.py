"""What a ParquetDataset read costs, asserted as counts (never as wall time):
the directories listed, the files opened (each a footer read), the filesystem
calls made to open them, the per-directory work done once. The wall times of
the dataset benchmark's reads are measured by bench/peers/dataset_run.py; the
requests on an object store by test_dataset_s3_requests.py."""

import os

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from fsspec.spec import AbstractBufferedFile, AbstractFileSystem

import quiver
from quiver import _dataset, _dataset_filter

MODES = ["AIR", "MAIL", "RAIL"]
YEARS = [1994, 1995, 1996]


def lineitem(n=3600):
    return pa.table({
        "l_orderkey": pa.array(range(n), pa.int64()),
        "l_quantity": pa.array([i % 50 + 1 for i in range(n)], pa.int64()),
        "l_extendedprice": pa.array([i * 1.5 for i in range(n)]),
        "l_shipmode": [MODES[i % 3] for i in range(n)],
        "year": pa.array([YEARS[(i // 3) % 3] for i in range(n)], pa.int32()),
    })


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """lineitem by l_shipmode and year, two files per partition (18 files in
    9 directories under 3), and what the readers must skip: a '_temporary'
    directory and a '.hidden' file."""
    root = str(tmp_path_factory.mktemp("counts") / "lineitem")
    pq.write_to_dataset(lineitem(), root, partition_cols=["l_shipmode", "year"],
                        max_rows_per_file=200, row_group_size=200,
                        basename_template="part-{i}.parquet")
    os.makedirs(os.path.join(root, "_temporary", "l_shipmode=AIR"))
    with open(os.path.join(root, "_temporary", "l_shipmode=AIR", "junk.parquet"), "wb") as f:
        f.write(b"not parquet")
    with open(os.path.join(root, "l_shipmode=AIR", ".hidden"), "wb") as f:
        f.write(b"not parquet")
    return root


FILTERS = {
    "partition_only": ([("l_shipmode", "=", "MAIL"), ("year", "=", 1996)], 2),
    "narrow": ([("l_shipmode", "in", ["AIR", "RAIL"]), ("year", "=", 1995),
                ("l_quantity", "<", 10)], 4),
    "column_only": ([("l_quantity", "<", 10)], 18),
}


def want(root, filters, columns):
    return pq.read_table(root, filters=filters, columns=columns)


@pytest.mark.parametrize("kind", list(FILTERS))
def test_files_opened_per_case(dataset, kind):
    filters, files_read = FILTERS[kind]
    columns = ["l_extendedprice", "l_shipmode", "year"]
    d = quiver.ParquetDataset(dataset)
    assert len(d.files) == 18
    for use_threads in (False, True):
        got = d.read(columns=columns, filters=filters, use_threads=use_threads)
        assert d.read_stats["files_opened"] == files_read
        assert d.read_stats["files_pruned"] == 18 - files_read
        assert pa.table(got).equals(want(dataset, filters, columns))


def test_schema_then_read_opens_each_file_once(dataset):
    filters, files_read = FILTERS["narrow"]
    d = quiver.ParquetDataset(dataset)
    assert d.schema.names == ["l_orderkey", "l_quantity", "l_extendedprice", "l_shipmode",
                              "year"]
    got = d.read(filters=filters)
    assert d.read_stats["files_opened"] == 0  # the footers .schema read are reused
    assert pa.table(got).equals(want(dataset, filters, None))
    d.read(filters=filters)  # a read closes its files: the next one opens them again
    assert d.read_stats["files_opened"] == files_read


def test_directory_work_is_done_once(dataset, monkeypatch):
    """The keys of a directory are parsed once (its files share them), the
    listing enters no '_' or '.' directory, the key combinations' table is built
    once per dataset and each combination decided once per read."""
    parsed, scanned, evaluated = [], [], []
    hive_keys, scandir = _dataset._hive_keys, os.scandir
    evaluate = _dataset_filter.KeyRows._evaluate
    monkeypatch.setattr(_dataset, "_hive_keys", lambda rel: parsed.append(rel) or hive_keys(rel))
    monkeypatch.setattr(os, "scandir", lambda p: scanned.append(p) or scandir(p))
    monkeypatch.setattr(_dataset_filter.KeyRows, "_evaluate",
                        lambda self, e: evaluated.append(e) or evaluate(self, e))
    d = quiver.ParquetDataset(dataset)
    assert len(parsed) == 9 and len(set(os.path.dirname(p) for p in parsed)) == 9
    assert len(scanned) == 1 + 3 + 9  # the root, 3 l_shipmode=, 9 year= directories
    assert not any("_temporary" in p for p in scanned)
    for kind in ("partition_only", "narrow"):
        d.read(filters=FILTERS[kind][0])
    rows = d._memo["rows"]
    assert len(evaluated) == 2  # one key expression per read, over the 9 combinations
    assert rows._table.num_rows == 9
    d.read(filters=FILTERS["narrow"][0])
    assert d._memo["rows"] is rows


def test_partition_columns_chunks_as_pyarrow(tmp_path):
    """The partition columns built once per value and sliced per file: a chunk
    per file, nulls (__HIVE_DEFAULT_PARTITION__) as pyarrow's, equal to
    pq.read_table chunk for chunk."""
    t = pa.table({"k": ["a", None, "b", "a", None, "c"] * 50, "n": [1, 2, None, 4, 5, 6] * 50,
                  "x": list(range(300))})
    root = str(tmp_path / "nulls")
    pq.write_to_dataset(t, root, partition_cols=["k", "n"], max_rows_per_file=20,
                        row_group_size=20)
    for filters in (None, [("x", ">", 100)], [("k", "=", "a")]):
        got = pa.table(quiver.read_table(root, filters=filters))
        ref = pq.read_table(root, filters=filters)
        assert got.equals(ref)
        assert got.column("k").num_chunks == ref.column("k").num_chunks
        for a, b in zip(got.column("k").chunks, ref.column("k").chunks):
            assert a.equals(b)


# --- fsspec: opening a listed file asks nothing -------------------------------------------


class BufferedFile(AbstractBufferedFile):
    def _fetch_range(self, start, end):
        self.fs.ranges += 1
        return self.fs.store[self.path][start:end]


class BufferedFS(AbstractFileSystem):
    """A filesystem of buffered files (fsspec's AbstractBufferedFile, as s3fs's,
    gcsfs's and hf's) in a dict, counting its info() calls and opens."""

    protocol = "bufferedtest"

    def __init__(self, store, **kwargs):
        super().__init__(**kwargs)
        self.store, self.infos, self.opens, self.ranges = store, 0, 0, 0

    def ls(self, path, detail=True, **kwargs):
        path = self._strip_protocol(path).rstrip("/")
        out = {}
        for p, data in self.store.items():
            if p.startswith(path + "/"):
                name = p[len(path) + 1:].split("/", 1)
                full = f"{path}/{name[0]}"
                out[full] = {"name": full, "size": len(data), "type": "file"} if len(name) == 1 \
                    else {"name": full, "size": 0, "type": "directory"}
        if not out and path not in self.store:
            raise FileNotFoundError(path)
        return list(out.values()) if detail else list(out)

    def info(self, path, **kwargs):
        self.infos += 1
        path = self._strip_protocol(path).rstrip("/")
        if path in self.store:
            return {"name": path, "size": len(self.store[path]), "type": "file"}
        if any(p.startswith(path + "/") for p in self.store):
            return {"name": path, "size": 0, "type": "directory"}
        raise FileNotFoundError(path)

    def _open(self, path, mode="rb", block_size=None, autocommit=True, cache_options=None,
              **kwargs):
        self.opens += 1
        return BufferedFile(self, path, mode, block_size, autocommit,
                            cache_options=cache_options, **kwargs)


class NoSizeFS(BufferedFS):
    """An implementation whose open() takes no size= (nor other options)."""

    protocol = "nosizetest"

    def _open(self, path, mode="rb", block_size=None, autocommit=True, cache_options=None,
              cache_type="readahead"):
        self.opens += 1
        return BufferedFile(self, path, mode, block_size, autocommit, cache_type=cache_type,
                            cache_options=cache_options)


def store_of(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                out["/ds/" + os.path.relpath(p, root)] = f.read()
    return out


@pytest.mark.parametrize("cls", [BufferedFS, NoSizeFS])
def test_listed_files_open_without_info(dataset, cls):
    fs = cls(store_of(dataset), skip_instance_cache=True)
    filters, files_read = FILTERS["narrow"]
    d = quiver.ParquetDataset("/ds", filesystem=fs)
    assert len(d.files) == 18 and fs.opens == 0
    infos = fs.infos
    got = d.read(columns=["l_extendedprice", "year"], filters=filters)
    assert fs.opens == files_read
    # the listing's size and info dict: no info() per file; an open() that takes
    # no size= is called without it, and the file asks its size itself
    assert fs.infos - infos == (0 if cls is BufferedFS else files_read)
    ref = want(dataset, filters, ["l_extendedprice", "year"])
    assert pa.table(got).equals(ref)
    assert pc.sum(pa.table(got)["l_extendedprice"]).as_py() == \
        pc.sum(ref["l_extendedprice"]).as_py()
