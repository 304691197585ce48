"""Requests a ParquetDataset makes to find its files on a local S3 server
(moto, the fixture of test_filesystems_s3.py, which counts every request on
the server): one recursive listing finds the files and the _metadata file
(no existence probes), and a root that is a file or an empty prefix is still
told apart as before."""

import pyarrow as pa
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
