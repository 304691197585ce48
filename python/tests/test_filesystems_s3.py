"""filesystem= and s3:// URIs against a real S3 server on 127.0.0.1: moto in
server mode (ThreadedMotoServer), started and stopped by a fixture, reached
through s3fs (URIs and filesystem=), pyarrow.fs.S3FileSystem and boto3, with
dummy credentials. Nothing leaves the machine.

Requests are counted ON THE SERVER: the moto server is a werkzeug WSGI
server, and the fixture wraps its WSGI application (server.app, which
werkzeug's request handler calls for every request) in a middleware that
records each request's method, path and Range header and counts the body
bytes the application returns. Every request any client makes reaches that
middleware, so the counts do not depend on what the clients report."""

import os
import threading

import boto3
import numpy as np
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
import pytest
import s3fs
from moto.server import ThreadedMotoServer

import quiver

BUCKET = "quiver-test"


class Counting:
    """WSGI middleware: logs (method, path, Range, body bytes) of every request."""

    def __init__(self, app):
        self.app = app
        self.log = []
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        entry = [environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""),
                 environ.get("HTTP_RANGE"), 0]
        with self.lock:
            self.log.append(entry)
        for chunk in self.app(environ, start_response):
            entry[3] += len(chunk)
            yield chunk

    def take(self):
        with self.lock:
            out, self.log = self.log, []
        return out


@pytest.fixture(scope="module")
def s3():
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
           "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true"}
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    counter = Counting(server._server.app)
    server._server.app = counter
    endpoint = f"http://{host}:{port}"
    env["AWS_ENDPOINT_URL_S3"] = endpoint  # s3:// URIs (s3fs through botocore) go there
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    s3fs.S3FileSystem.clear_instance_cache()
    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
    client.create_bucket(Bucket=BUCKET)
    yield {"endpoint": endpoint, "host": host, "port": port, "client": client, "counter": counter}
    s3fs.S3FileSystem.clear_instance_cache()
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    server.stop()


def s3fs_fs(s3, **kwargs):
    return s3fs.S3FileSystem(key="testing", secret="testing", skip_instance_cache=True,
                             client_kwargs={"endpoint_url": s3["endpoint"], "region_name": "us-east-1"},
                             **kwargs)


def pyarrow_fs(s3):
    return pafs.S3FileSystem(access_key="testing", secret_key="testing", region="us-east-1",
                             endpoint_override=f"{s3['host']}:{s3['port']}", scheme="http")


def exists(s3, key):
    return "Contents" in s3["client"].list_objects_v2(Bucket=BUCKET, Prefix=key)


def wide_file(rows=50_000, columns=10):
    """A file of 10 incompressible 8-byte columns (about 4 MB), one row group."""
    rng = np.random.default_rng(11)
    t = pa.table({f"c{i}": (rng.random(rows) if i % 2 else rng.integers(0, 1 << 60, rows))
                  for i in range(columns)})
    sink = pa.BufferOutputStream()
    pq.write_table(t, sink, compression="none")
    return t, sink.getvalue().to_pybytes()


@pytest.fixture(scope="module")
def wide(s3):
    t, data = wide_file()
    s3["client"].put_object(Bucket=BUCKET, Key="wide.parquet", Body=data)
    return t, data


def s3_reads(log):
    gets = [e for e in log if e[0] == "GET"]
    return gets, sum(e[3] for e in gets)


@pytest.mark.parametrize("how", ["uri", "s3fs", "pyarrow"])
def test_two_of_ten_columns_fetch_a_fraction_in_few_requests(s3, wide, how):
    t, data = wide
    s3["counter"].take()
    if how == "uri":
        got = quiver.read_table(f"s3://{BUCKET}/wide.parquet", columns=["c3", "c7"])
    elif how == "s3fs":
        got = quiver.read_table(f"{BUCKET}/wide.parquet", columns=["c3", "c7"], filesystem=s3fs_fs(s3))
    else:
        got = quiver.read_table(f"s3://{BUCKET}/wide.parquet", columns=["c3", "c7"],
                                filesystem=pyarrow_fs(s3))
    assert pa.table(got).equals(t.select(["c3", "c7"]))
    log = s3["counter"].take()
    gets, body = s3_reads(log)
    assert all(e[1] == f"/{BUCKET}/wide.parquet" and e[2] is not None for e in gets), gets
    assert 1 <= len(gets) <= 4, gets
    assert body <= 0.25 * len(data), (body, len(data))
    # Two chunks of 400 kB: what was fetched is about them and the footer.
    assert body >= 2 * t.num_rows * 8


def test_parquet_file_and_filters_on_s3(s3, wide):
    t, data = wide
    expected = pq.read_table(pa.BufferReader(data), columns=["c1", "c2"], filters=[("c2", "<", 1 << 56)])
    with quiver.ParquetFile(f"s3://{BUCKET}/wide.parquet") as f:
        assert f.metadata.num_rows == t.num_rows and f.num_row_groups == 1
        got = f.read(columns=["c1", "c2"], filters=[("c2", "<", 1 << 56)])
        assert pa.table(got).equals(expected)


def test_write_uri_s3fs_and_pyarrow(s3):
    t, _ = wide_file(rows=5000)
    quiver.write_parquet(t, f"s3://{BUCKET}/out/uri.parquet", row_group_size=1000)
    with quiver.ParquetWriter(f"{BUCKET}/out/s3fs.parquet", t.schema, filesystem=s3fs_fs(s3)) as w:
        w.write_table(t.slice(0, 2500))
        w.write_table(t.slice(2500))
    quiver.write_parquet(t, f"{BUCKET}/out/pyarrow.parquet", filesystem=pyarrow_fs(s3))
    fs = s3fs_fs(s3)
    for name, groups in (("uri", 5), ("s3fs", 2), ("pyarrow", 1)):
        with fs.open(f"{BUCKET}/out/{name}.parquet", "rb") as f:
            assert pq.read_table(f).equals(t)
            assert pq.ParquetFile(f).metadata.num_row_groups == groups
        assert pa.table(quiver.read_table(f"{BUCKET}/out/{name}.parquet",
                                          filesystem=pyarrow_fs(s3))).equals(t)


def failing_stream(table, fail_after, rows=10_000):
    def batches():
        for i, b in enumerate(table.to_batches(max_chunksize=rows)):
            if i == fail_after:
                raise RuntimeError("the source failed")
            yield b
    return pa.RecordBatchReader.from_batches(table.schema, batches())


def test_failed_writes_create_no_object(s3):
    # 12 MB written before the failure, in 5 MiB parts: s3fs has started a
    # multipart upload, which the failure aborts.
    t, _ = wide_file(rows=150_000)
    client = s3["client"]
    key = "bad/s3fs.parquet"
    fs = s3fs_fs(s3, default_block_size=5 * 2**20)
    s3["counter"].take()
    with pytest.raises(Exception, match="the source failed"):
        quiver.write_parquet(failing_stream(t, 14), f"{BUCKET}/{key}", filesystem=fs,
                             row_group_size=10_000)
    log = s3["counter"].take()
    methods = [e[0] for e in log]
    assert methods.count("PUT") >= 2  # upload parts reached the server
    assert "DELETE" in methods  # AbortMultipartUpload
    assert not exists(s3, key)
    assert client.list_multipart_uploads(Bucket=BUCKET).get("Uploads", []) == []
    # A small failed write (no multipart upload started), by URI.
    with pytest.raises(RuntimeError, match="inside"):
        with quiver.ParquetWriter(f"s3://{BUCKET}/bad/uri.parquet", t.schema) as w:
            w.write_table(t.slice(0, 1000))
            raise RuntimeError("inside the with block")
    assert not exists(s3, "bad/uri.parquet")
    # pyarrow's S3 stream completes its upload when closed: the object is
    # then deleted.
    with pytest.raises(Exception, match="the source failed"):
        quiver.write_parquet(failing_stream(t, 3), f"{BUCKET}/bad/pyarrow.parquet",
                             filesystem=pyarrow_fs(s3), row_group_size=10_000)
    assert not exists(s3, "bad/pyarrow.parquet")
    # An object already at the key stays as it was after a failed s3fs write.
    client.put_object(Bucket=BUCKET, Key="bad/old.parquet", Body=b"old")
    with pytest.raises(Exception, match="the source failed"):
        quiver.write_parquet(failing_stream(t, 14), f"{BUCKET}/bad/old.parquet", filesystem=fs)
    assert client.get_object(Bucket=BUCKET, Key="bad/old.parquet")["Body"].read() == b"old"


def test_missing_object_and_bucket(s3):
    with pytest.raises(quiver.IOError, match=f"s3://{BUCKET}/missing.parquet: no such file"):
        quiver.read_table(f"s3://{BUCKET}/missing.parquet")
    with pytest.raises(quiver.IOError, match=f"s3://{BUCKET}/missing.parquet: no such file"):
        quiver.ParquetFile(f"{BUCKET}/missing.parquet", filesystem=pyarrow_fs(s3))


def test_server_counts_match_read_stats(s3, wide):
    # Opening is one suffix GET (the footer); a read's GETs carry exactly the
    # bytes read_stats counts; adjacent column chunks are one GET.
    t, data = wide
    s3["counter"].take()
    f = quiver.ParquetFile(f"s3://{BUCKET}/wide.parquet")
    gets, body = s3_reads(s3["counter"].take())
    assert len(gets) == 1 and gets[0][2] == f"bytes={len(data) - body}-{len(data) - 1}"
    f.read(columns=["c3", "c7"])
    gets, body = s3_reads(s3["counter"].take())
    assert len(gets) == 2 and body == f.read_stats["bytes_read"]
    f.read(columns=["c3", "c4"])
    gets, body = s3_reads(s3["counter"].take())
    assert len(gets) == 1 and body == f.read_stats["bytes_read"]
    f.close()
