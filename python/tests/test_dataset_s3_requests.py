"""Requests a ParquetDataset makes to find its files on a local S3 server
(moto, the fixture of test_filesystems_s3.py, which counts every request on
the server): one recursive listing finds the files and the _metadata file
(no existence probes), and a root that is a file or an empty prefix is still
told apart as before."""

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from test_filesystems_s3 import BUCKET, pyarrow_fs, s3, s3fs_fs  # noqa: F401 - s3 is a fixture

import quiver


def table():
    return pa.table({"k": [i % 3 for i in range(300)], "x": list(range(300))})


@pytest.mark.parametrize("how", ["s3fs", "pyarrow"])
def test_discovery_is_one_listing(s3, how):  # noqa: F811 - the fixture
    fs = s3fs_fs(s3) if how == "s3fs" else pyarrow_fs(s3)
    root = f"{BUCKET}/req-{how}"
    quiver.write_to_dataset(table(), root, partition_cols=["k"], filesystem=fs)
    s3["counter"].take()
    d = quiver.ParquetDataset(root, filesystem=fs)
    log = s3["counter"].take()
    assert len(d.files) == 3
    # One request: a GET of the bucket (the listing), nothing else.
    assert [(e[0], e[1].strip("/")) for e in log] == [("GET", BUCKET)], log
    got = d.read(filters=[("k", "=", 1)])
    want = pq.read_table(root, filesystem=pyarrow_fs(s3), filters=[("k", "=", 1)])
    assert pa.table(got).equals(want)


def test_metadata_found_by_the_listing(s3):  # noqa: F811 - the fixture
    fs = s3fs_fs(s3)
    root = f"{BUCKET}/req-md"
    collector = []
    quiver.write_to_dataset(table(), root, partition_cols=["k"], filesystem=fs,
                            metadata_collector=collector)
    quiver.write_metadata(pa.table(table()).drop_columns(["k"]).schema, f"{root}/_metadata",
                          metadata_collector=collector, filesystem=fs)
    s3["counter"].take()
    d = quiver.ParquetDataset(root, filesystem=fs)
    log = s3["counter"].take()
    assert [e[0] for e in log if e[0] == "HEAD" and e[1].endswith("/_metadata")] == [], log
    assert d._summary is not None and len(d.files) == 3
    assert pa.table(d.read()).sort_by("x").equals(
        pq.read_table(root, filesystem=pyarrow_fs(s3)).sort_by("x"))


def test_file_and_missing_root(s3):  # noqa: F811 - the fixture
    fs = s3fs_fs(s3)
    path = f"{BUCKET}/req-one.parquet"
    quiver.write_parquet(table(), path, filesystem=fs)
    assert pa.table(quiver.ParquetDataset(path, filesystem=fs).read()).equals(table())
    with pytest.raises(quiver.IOError, match="no such file"):
        quiver.ParquetDataset(f"{BUCKET}/req-nothing", filesystem=fs)


# --- the requests of a dataset read, counted per case ----------------------------------
#
# A hive-partitioned dataset as the dataset benchmark's (bench/peers/dataset_cases.py:
# lineitem by l_shipmode and year, two files per partition, written by pyarrow), read
# with its four filters. On the server, a read is: one LIST (the recursive listing
# that finds the files and gives their sizes), no HEAD (s3fs opens each file with the
# listing's size and info dict), one GET per file read for its footer (a suffix range:
# the footer and what precedes it, up to 64 KiB), then the GETs of the file's column
# chunks and page indexes, which are the C++ reader's (src/quiver/parquet/reader): the
# same GETs ParquetFile(path).read of that file alone makes, asserted equal here.
# pyarrow.dataset on the same server LISTs twice and sends a HEAD besides.

MODES = ["AIR", "MAIL", "RAIL", "SHIP", "TRUCK"]
YEARS = [1994, 1995, 1996]
CASES = {
    # kind: (filters, columns, the (mode, year) partitions read)
    "partition_only": ([("l_shipmode", "=", "MAIL"), ("year", "=", 1996)],
                       ["l_extendedprice", "l_discount"], {("MAIL", 1996)}),
    "narrow": ([("l_shipmode", "in", ["AIR", "RAIL"]), ("year", "=", 1995),
                ("l_quantity", "<", 10)],
               ["l_shipmode", "year", "l_quantity", "l_extendedprice", "l_discount"],
               {("AIR", 1995), ("RAIL", 1995)}),
    "wide": ([("l_shipmode", "in", ["AIR", "RAIL", "SHIP", "TRUCK"]), ("year", ">=", 1995),
              ("year", "<=", 1996), ("l_quantity", "<", 25)],
             ["l_shipmode", "year", "l_quantity", "l_extendedprice", "l_discount"],
             {(m, y) for m in ["AIR", "RAIL", "SHIP", "TRUCK"] for y in (1995, 1996)}),
    "column_only": ([("l_quantity", "<", 10)], ["l_extendedprice", "l_discount"],
                    {(m, y) for m in MODES for y in YEARS}),
}
FILES_PER_PARTITION = 2


@pytest.fixture(scope="module")
def lineitem(s3, tmp_path_factory):  # noqa: F811 - the fixture
    """The dataset on the server: {key: size} of its 30 objects, under BUCKET/lineitem."""
    import os

    import numpy as np

    rng = np.random.default_rng(46)
    n = len(MODES) * len(YEARS) * FILES_PER_PARTITION * 400
    t = pa.table({
        "l_orderkey": np.arange(n, dtype=np.int64),
        "l_quantity": rng.integers(1, 51, n),
        "l_extendedprice": rng.random(n) * 1000,
        "l_discount": rng.random(n) / 10,
        "l_comment": [f"comment {i % 977}" for i in range(n)],
        "l_shipmode": [MODES[i % len(MODES)] for i in range(n)],
        "year": pa.array([YEARS[(i // len(MODES)) % len(YEARS)] for i in range(n)], pa.int32()),
    })
    local = tmp_path_factory.mktemp("lineitem")
    pq.write_to_dataset(t, str(local), partition_cols=["l_shipmode", "year"],
                        max_rows_per_file=400, row_group_size=400, min_rows_per_group=400,
                        basename_template="part-{i}.parquet", existing_data_behavior="error")
    sizes = {}
    for d, _, names in os.walk(local):
        for name in names:
            path = os.path.join(d, name)
            key = "lineitem/" + os.path.relpath(path, local)
            s3["client"].upload_file(path, BUCKET, key)
            sizes[key] = os.path.getsize(path)
    assert len(sizes) == len(MODES) * len(YEARS) * FILES_PER_PARTITION
    return sizes


def classify(log, sizes):
    """The requests of a log by what they are: LIST (a GET of the bucket), HEAD,
    footer (a file's first GET when it is a suffix range, ending at its last
    byte) and data (its other GETs); `files`: the objects a GET touched."""
    out = {"LIST": 0, "HEAD": 0, "footer": 0, "data": 0, "other": [], "files": set()}
    seen = set()
    for method, path, rng, _ in log:
        key = path.lstrip("/").split("/", 1)[1] if "/" in path.lstrip("/") else ""
        if method == "GET" and key == "":
            out["LIST"] += 1
        elif method == "HEAD":
            out["HEAD"] += 1
        elif method == "GET" and key in sizes and rng:
            out["files"].add(key)
            first = key not in seen
            seen.add(key)
            if first and rng.endswith(f"-{sizes[key] - 1}"):  # a suffix: the footer
                out["footer"] += 1
            else:
                out["data"] += 1
        else:
            out["other"].append((method, path, rng))
    return out


def partition_of(key):
    parts = dict(p.split("=") for p in key.split("/")[1:3])
    return parts["l_shipmode"], int(parts["year"])


@pytest.mark.parametrize("kind", list(CASES))
def test_requests_of_a_dataset_read(s3, lineitem, kind):  # noqa: F811 - the fixture
    filters, columns, partitions = CASES[kind]
    fs = s3fs_fs(s3, use_listings_cache=False)
    s3["counter"].take()
    got = quiver.ParquetDataset(f"{BUCKET}/lineitem", filesystem=fs).read(
        columns=columns, filters=filters, use_threads=False)
    q = classify(s3["counter"].take(), lineitem)
    read = {k for k in lineitem if partition_of(k) in partitions}
    assert q["other"] == []
    assert q["LIST"] == 1   # the one recursive listing (files, sizes, ETags)
    assert q["HEAD"] == 0   # no file asked for its size: the listing gave it
    assert q["files"] == read  # no pruned file touched
    # one suffix GET per file read: 2, 4, 16 and 30 footers
    assert q["footer"] == len(read) == {"partition_only": 2, "narrow": 4, "wide": 16,
                                        "column_only": 30}[kind]
    # The rest: each file's column chunks and page indexes, as the reader fetches them
    # for that file alone (its own open adds a HEAD and the footer's GET).
    pushed = [p for p in filters if p[0] not in ("l_shipmode", "year")] or None
    file_columns = [c for c in columns if c not in ("l_shipmode", "year")]
    alone = 0
    for key in sorted(read):
        s3["counter"].take()
        with quiver.ParquetFile(f"{BUCKET}/{key}", filesystem=fs) as pf:
            pf.read(columns=file_columns, filters=pushed, use_threads=False)
        one = classify(s3["counter"].take(), lineitem)
        assert (one["LIST"], one["HEAD"], one["footer"]) == (0, 1, 1), one
        alone += one["data"]
    assert q["data"] == alone
    # pyarrow.dataset: the same rows; more requests besides the files' (2 LISTs, a HEAD)
    expr = pq.filters_to_expression(filters)
    want = ds.dataset(f"{BUCKET}/lineitem", format="parquet", partitioning="hive",
                      filesystem=pyarrow_fs(s3)).to_table(columns=columns, filter=expr)
    p = classify(s3["counter"].take(), lineitem)
    assert p["LIST"] + p["HEAD"] > q["LIST"] + q["HEAD"] == 1, p
    assert p["files"] >= read  # (and the first file's footer: pyarrow's schema)
    # (pyarrow.dataset types the keys plainly, pq.read_table and Quiver as dictionaries)
    got = pa.table(got).cast(want.schema)
    assert got.num_rows == want.num_rows > 0
    assert got.sort_by("l_extendedprice").equals(want.sort_by("l_extendedprice")), kind


def test_requests_with_threads_and_a_pyarrow_filesystem(s3, lineitem):  # noqa: F811
    filters, columns, partitions = CASES["narrow"]
    read = {k for k in lineitem if partition_of(k) in partitions}
    fs = s3fs_fs(s3, use_listings_cache=False)
    s3["counter"].take()
    quiver.ParquetDataset(f"{BUCKET}/lineitem", filesystem=fs).read(
        columns=columns, filters=filters, use_threads=True)
    q = classify(s3["counter"].take(), lineitem)
    assert (q["LIST"], q["HEAD"], q["footer"], q["files"]) == (1, 0, len(read), read)
    # pyarrow.fs.S3FileSystem: its open_input_file takes a path only (not the
    # listing's FileInfo) and sends a HEAD for the object's size: one per file.
    quiver.ParquetDataset(f"{BUCKET}/lineitem", filesystem=pyarrow_fs(s3)).read(
        columns=columns, filters=filters)
    p = classify(s3["counter"].take(), lineitem)
    assert (p["LIST"], p["HEAD"], p["footer"], p["files"]) == (1, len(read), len(read), read)


def test_schema_then_read_reads_each_footer_once(s3, lineitem):  # noqa: F811 - the fixture
    filters, columns, partitions = CASES["partition_only"]
    fs = s3fs_fs(s3, use_listings_cache=False)
    s3["counter"].take()
    d = quiver.ParquetDataset(f"{BUCKET}/lineitem", filesystem=fs)
    assert d.schema.names[-2:] == ["l_shipmode", "year"]
    first = classify(s3["counter"].take(), lineitem)
    assert (first["LIST"], first["HEAD"], first["footer"], first["data"]) == (1, 0, 30, 0)
    d.read(columns=columns, filters=filters)
    again = classify(s3["counter"].take(), lineitem)
    # the two files read: no footer fetched again, no listing, only their data
    assert (again["LIST"], again["HEAD"], again["footer"]) == (0, 0, 0)
    assert d.read_stats["files_opened"] == 0 and d.read_stats["files_pruned"] == 28
    d.read(columns=columns, filters=filters)  # a read closes its files: opened anew
    assert d.read_stats["files_opened"] == 2


def test_iter_batches_and_an_empty_result(s3, lineitem):  # noqa: F811 - the fixture
    filters, columns, partitions = CASES["narrow"]
    read = {k for k in lineitem if partition_of(k) in partitions}
    fs = s3fs_fs(s3, use_listings_cache=False)
    s3["counter"].take()
    d = quiver.ParquetDataset(f"{BUCKET}/lineitem", filesystem=fs)
    got = pa.Table.from_batches([pa.record_batch(b) for b in d.iter_batches(
        batch_size=100, columns=columns, filters=filters)])
    q = classify(s3["counter"].take(), lineitem)
    assert (q["LIST"], q["HEAD"], q["footer"], q["files"]) == (1, 0, len(read), read)
    want = pq.read_table(f"{BUCKET}/lineitem", filesystem=pyarrow_fs(s3), columns=columns,
                         filters=filters)
    s3["counter"].take()
    assert got.num_rows == want.num_rows > 0
    assert got.sort_by("l_extendedprice").equals(want.sort_by("l_extendedprice"))
    # every file pruned: the first file's footer gives the columns (one GET)
    empty = d.read(columns=columns, filters=[("year", "=", 1990)])
    q = classify(s3["counter"].take(), lineitem)
    assert empty.num_rows == 0 and empty.column_names == columns
    assert (q["LIST"], q["HEAD"], q["footer"], q["data"]) == (0, 0, 1, 0)
