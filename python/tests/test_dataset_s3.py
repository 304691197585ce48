"""Datasets on a local S3 server (moto, the fixture of test_filesystems_s3.py,
which counts every request on the server): write_to_dataset to an s3:// URI,
ParquetDataset / read_table through s3fs and pyarrow.fs.S3FileSystem, and a
partition filter that fetches only the matching partition's objects."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from test_filesystems_s3 import BUCKET, pyarrow_fs, s3, s3fs_fs  # noqa: F401 - s3 is a fixture

import quiver


def sample():
    n = 400
    return pa.table({"year": [2020 + i % 4 for i in range(n)], "id": list(range(n)),
                     "x": [i * 0.5 for i in range(n)]})


@pytest.mark.parametrize("how", ["uri", "s3fs", "pyarrow"])
def test_dataset_on_s3(s3, how):  # noqa: F811 - the fixture
    t = sample()
    root = f"{BUCKET}/ds-{how}"
    source, fs = {"uri": (f"s3://{root}", None), "s3fs": (root, s3fs_fs(s3)),
                  "pyarrow": (root, pyarrow_fs(s3))}[how]
    quiver.write_to_dataset(t, source, partition_cols=["year"], filesystem=fs,
                            basename_template="part-{i}.parquet")
    keys = sorted(o["Key"] for o in s3["client"].list_objects_v2(
        Bucket=BUCKET, Prefix=f"ds-{how}/")["Contents"])
    assert keys == [f"ds-{how}/year={y}/part-0.parquet" for y in range(2020, 2024)]
    s3["counter"].take()
    got = quiver.read_table(source, filesystem=fs, filters=[("year", "=", 2022), ("id", "<", 100)])
    gets = [e for e in s3["counter"].take() if e[0] == "GET" and "year=" in e[1]]
    assert gets and all("year=2022" in e[1] for e in gets), gets
    want = pq.read_table(root, filesystem=pyarrow_fs(s3),
                         filters=[("year", "=", 2022), ("id", "<", 100)])
    assert pa.table(got).equals(want)
    assert pa.table(quiver.read_table(source, filesystem=fs)).sort_by("id").equals(
        pq.read_table(root, filesystem=pyarrow_fs(s3)).sort_by("id"))
