"""filesystem= and URIs (issue 46 section 2), against fsspec's memory://, a
local HTTP server that honours Range, and fake hf:// / gs:// protocols (the
S3 server tests are test_filesystems_s3.py). pyarrow is the judge: what Quiver
reads equals pq.read_table of the same file with the same columns and filters,
and what Quiver writes pq.read_table reads back equal."""

import http.server
import importlib
import os
import subprocess
import sys
import threading
import uuid

import fsspec
import numpy as np
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
import pytest
from fsspec.implementations.memory import MemoryFileSystem

import quiver


def wide_table(rows=20_000, columns=10, seed=3):
    """`columns` int64/float64 columns of random values (incompressible: a
    column's chunk is about rows * 8 bytes)."""
    rng = np.random.default_rng(seed)
    data = {}
    for i in range(columns):
        if i % 2:
            data[f"c{i}"] = pa.array(rng.random(rows))
        else:
            data[f"c{i}"] = pa.array(rng.integers(0, 1 << 60, rows))
    return pa.table(data)


def small_table(n=1000):
    return pa.table({"k": pa.array(np.arange(n, dtype=np.int64)),
                     "s": pa.array([f"v{i % 37}" for i in range(n)]),
                     "x": pa.array(np.linspace(0, 1, n))})


@pytest.fixture
def memfs():
    """fsspec's memory filesystem and a fresh folder on it (removed after)."""
    fs = fsspec.filesystem("memory")
    root = f"/quiver-fs-{uuid.uuid4().hex}"
    fs.mkdir(root)
    yield fs, root
    fs.rm(root, recursive=True)


def to_bytes(data):
    sink = pa.BufferOutputStream()
    pq.write_table(data, sink, row_group_size=250)
    return sink.getvalue().to_pybytes()


# --- memory:// -----------------------------------------------------------------


def test_memory_uri_write_then_read(memfs):
    fs, root = memfs
    t = small_table()
    uri = f"memory://{root}/t.parquet"
    assert quiver.write_parquet(t, uri, row_group_size=300) is None
    assert fs.exists(f"{root}/t.parquet")
    assert pq.read_table(f"{root}/t.parquet", filesystem=fs).equals(t)
    assert pq.ParquetFile(fs.open(f"{root}/t.parquet")).metadata.num_row_groups == 4
    assert pa.table(quiver.read_table(uri)).equals(t)


@pytest.mark.parametrize("columns, filters", [
    (["s"], None),
    (["x", "k"], [("k", ">=", 500), ("s", "in", ["v1", "v2"])]),
    (None, [[("k", "<", 10)], [("x", ">", 0.99)]]),
    ([], [("s", "==", "v3")]),
])
def test_memory_columns_and_filters_as_pyarrow(memfs, columns, filters):
    fs, root = memfs
    fs.pipe(f"{root}/t.parquet", to_bytes(small_table()))
    expected = pq.read_table(f"{root}/t.parquet", filesystem=fs, columns=columns, filters=filters)
    got = quiver.read_table(f"memory://{root}/t.parquet", columns=columns, filters=filters)
    assert pa.table(got).equals(expected)
    # The same file by path on the filesystem object, and on pyarrow's
    # wrapper of it.
    got = quiver.read_table(f"{root}/t.parquet", columns=columns, filters=filters, filesystem=fs)
    assert pa.table(got).equals(expected)
    wrapped = pafs.PyFileSystem(pafs.FSSpecHandler(fs))
    got = quiver.read_table(f"{root}/t.parquet", columns=columns, filters=filters, filesystem=wrapped)
    assert pa.table(got).equals(expected)


def test_memory_parquet_file(memfs):
    fs, root = memfs
    t = small_table()
    fs.pipe(f"{root}/t.parquet", to_bytes(t))
    with quiver.ParquetFile(f"{root}/t.parquet", filesystem=fs) as f:
        assert f.num_row_groups == 4 and f.metadata.num_rows == 1000
        assert f.schema_arrow.equals(quiver.schema(t.schema))
        assert pa.table(f.read_row_group(2, columns=["k"])).equals(t.select(["k"]).slice(500, 250))
        rows = sum(b.num_rows for b in f.iter_batches(batch_size=100, filters=[("k", "<", 120)]))
        assert rows == 120
        assert f.read_stats["bytes_read"] > 0
        assert not f.closed
    assert f.closed
    f = quiver.ParquetFile(f"memory://{root}/t.parquet")
    assert pa.table(f.read(columns=["s"])).equals(t.select(["s"]))
    f.close()
    with pytest.raises(quiver.InvalidError, match="closed"):
        f.read()


def test_memory_parquet_writer_streams_row_groups(memfs):
    fs, root = memfs
    t = small_table()
    path = f"{root}/w.parquet"
    with quiver.ParquetWriter(path, t.schema, filesystem=fs) as w:
        w.write_table(t.slice(0, 400))
        # The first row group is at the destination before the writer closes.
        assert fs.exists(path) and fs.size(path) > 4
        w.write_table(t.slice(400))
    assert pq.read_table(path, filesystem=fs).equals(t)
    assert pq.ParquetFile(fs.open(path)).metadata.num_row_groups == 2
    w = quiver.ParquetWriter(f"memory://{root}/w2.parquet", t.schema)
    w.write_batch(t)
    w.close()
    assert pq.read_table(f"{root}/w2.parquet", filesystem=fs).equals(t)


def test_memory_concurrent_readers_of_one_file(memfs):
    # memory:// hands every open of a path the same file object: readers in
    # several threads (each decoding on the thread pool too) must not
    # interleave their seek + read.
    fs, root = memfs
    rng = np.random.default_rng(5)
    t = pa.table({f"c{i}": rng.random(40_000) for i in range(4)})
    sink = pa.BufferOutputStream()
    pq.write_table(t, sink, row_group_size=2000, compression="none")
    fs.pipe(f"{root}/t.parquet", sink.getvalue().to_pybytes())
    results = []

    def work():
        for _ in range(3):
            results.append(pa.table(quiver.read_table(f"memory://{root}/t.parquet")).equals(t))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert results == [True] * 12


def failing_stream(table, fail_after):
    """A stream of `table`'s rows, 100 at a time, raising after `fail_after` batches."""
    def batches():
        for i, b in enumerate(table.to_batches(max_chunksize=100)):
            if i == fail_after:
                raise RuntimeError("the source failed")
            yield b
    return pa.RecordBatchReader.from_batches(table.schema, batches())


def test_memory_failed_writes_leave_nothing(memfs):
    fs, root = memfs
    t = small_table()
    path = f"{root}/bad.parquet"
    with pytest.raises(Exception, match="the source failed"):
        quiver.write_parquet(failing_stream(t, 7), f"memory://{path}", row_group_size=200)
    assert not fs.exists(path)
    with pytest.raises(RuntimeError, match="inside"):
        with quiver.ParquetWriter(path, t.schema, filesystem=fs) as w:
            w.write_table(t)
            assert fs.exists(path)  # row groups were streamed
            raise RuntimeError("inside the with block")
    assert not fs.exists(path)
    # A writer dropped without close() leaves nothing either.
    w = quiver.ParquetWriter(path, t.schema, filesystem=fs)
    w.write_table(t)
    del w
    assert not fs.exists(path)
    # A data error (schema mismatch) mid-write: the writer stays failed, its
    # close() raises the error again and leaves nothing.
    w = quiver.ParquetWriter(path, t.schema, filesystem=fs)
    w.write_table(t)
    with pytest.raises(quiver.InvalidError, match="schema"):
        w.write_table(pa.table({"other": [1]}))
    with pytest.raises(quiver.InvalidError, match="schema"):
        w.close()
    assert not fs.exists(path)
    # Closing inside a with block that then fails keeps the closed file.
    with pytest.raises(RuntimeError):
        with quiver.ParquetWriter(path, t.schema, filesystem=fs) as w:
            w.write_table(t)
            w.close()
            raise RuntimeError("after close")
    assert pq.read_table(path, filesystem=fs).equals(t)


def test_missing_file_names_the_uri(memfs):
    fs, root = memfs
    uri = f"memory://{root}/missing.parquet"
    with pytest.raises(quiver.IOError, match=f"{uri}: no such file"):
        quiver.read_table(uri)
    with pytest.raises(quiver.IOError, match="missing.parquet: no such file"):
        quiver.ParquetFile(f"{root}/missing.parquet", filesystem=fs)
    fs.pipe(f"{root}/junk.parquet", b"not a parquet file at all")
    with pytest.raises(quiver.InvalidError, match=f"memory://{root}/junk.parquet"):
        quiver.read_table(f"memory://{root}/junk.parquet")


def test_bad_filesystem_arguments(memfs, tmp_path):
    fs, root = memfs
    t = small_table(10)
    with pytest.raises(quiver.TypeError, match="pyarrow.fs.FileSystem or an fsspec"):
        quiver.read_table("x.parquet", filesystem=object())
    with pytest.raises(quiver.TypeError, match="builtins.dict"):
        quiver.write_parquet(t, "x.parquet", filesystem={})
    with pytest.raises(quiver.InvalidError, match="not a path"):
        quiver.read_table(b"PAR1", filesystem=fs)
    with pytest.raises(quiver.InvalidError, match="not a path"):
        quiver.ParquetWriter(pa.BufferOutputStream(), t.schema, filesystem=fs)
    with pytest.raises(quiver.InvalidError, match="nosuchproto://x.parquet: .*nosuchproto"):
        quiver.read_table("nosuchproto://x.parquet")
    with pytest.raises(quiver.InvalidError, match="read-only"):
        quiver.write_parquet(t, "https://127.0.0.1:1/x.parquet")


def test_missing_packages_are_named(monkeypatch):
    # adlfs is not installed: fsspec knows az:// and names it.
    with pytest.raises(quiver.NotImplementedError, match=r"az://acct/x.parquet: .*pip install adlfs"):
        quiver.read_table("az://acct/x.parquet")
    # Without fsspec at all: the error names fsspec and the protocol's package.
    for name in [m for m in sys.modules if m == "fsspec" or m.startswith("fsspec.")]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(quiver.NotImplementedError, match="pip install fsspec and s3fs"):
        quiver.read_table("s3://bucket/x.parquet")
    with pytest.raises(quiver.NotImplementedError, match="pip install fsspec and huggingface_hub"):
        quiver.write_parquet(small_table(1), "hf://datasets/a/b/x.parquet")
    with pytest.raises(quiver.NotImplementedError, match="pip install fsspec$"):
        quiver.read_table("memory://x.parquet")


def test_file_uri_and_local_filesystems_take_the_local_path(tmp_path):
    t = small_table()
    p = tmp_path / "a b.parquet"
    quiver.write_parquet(t, p.as_uri())  # file:///.../a%20b.parquet
    assert pq.read_table(p).equals(t)
    assert pa.table(quiver.read_table(p.as_uri(), columns=["s"])).equals(t.select(["s"]))
    for fs in (pafs.LocalFileSystem(), fsspec.filesystem("file")):
        q = tmp_path / f"{type(fs).__name__}.parquet"
        with quiver.ParquetWriter(str(q), t.schema, filesystem=fs) as w:
            w.write_table(t)
        assert pq.read_table(q).equals(t)
        f = quiver.ParquetFile(str(q), filesystem=fs)
        # The C++ reader opened the path itself (no Python file object).
        assert f._opened is None
        assert pa.table(f.read()).equals(t)
        f.close()


# --- fake hf:// and gs:// --------------------------------------------------------


class FakeRemote(MemoryFileSystem):
    """A memory filesystem registered under another protocol, recording opens."""

    store = {}
    pseudo_dirs = [""]
    opened = []

    @classmethod
    def _strip_protocol(cls, path):
        for p in ("hf://", "gs://"):
            if isinstance(path, str) and path.startswith(p):
                path = path[len(p):]
        return super()._strip_protocol(path)

    def _open(self, path, mode="rb", **kwargs):
        FakeRemote.opened.append((self.protocol, path, mode, kwargs.get("cache_type")))
        return super()._open(path, mode, **kwargs)


@pytest.fixture
def fake_protocols():
    # (fsspec.registry the attribute is a read-only view; the module holds the dict.)
    registry = importlib.import_module("fsspec.registry")
    saved = dict(registry._registry)
    for name in ("hf", "gs"):
        cls = type(f"Fake_{name}", (FakeRemote,), {"protocol": (name,)})
        fsspec.register_implementation(name, cls, clobber=True)
    FakeRemote.store.clear()
    FakeRemote.opened.clear()
    yield FakeRemote
    registry._registry.clear()
    registry._registry.update(saved)
    FakeRemote.store.clear()


@pytest.mark.parametrize("uri", ["hf://datasets/someone/some-data/train.parquet",
                                 "gs://some-bucket/dir/train.parquet"])
def test_hf_and_gs_dispatch_through_fsspec(fake_protocols, uri):
    t = small_table()
    quiver.write_parquet(t, uri)
    key = "/" + uri.split("://", 1)[1]
    assert key in fake_protocols.store
    protocol = uri.split("://")[0]
    assert fake_protocols.opened[-1] == ((protocol,), key, "wb", None)
    got = quiver.read_table(uri, columns=["k"], filters=[("k", "<", 5)])
    assert pa.table(got).equals(t.select(["k"]).slice(0, 5))
    # Opened for reading without a read-ahead cache.
    assert fake_protocols.opened[-1] == ((protocol,), key, "rb", "none")
    with pytest.raises(quiver.IOError, match=f"{protocol}://nope/x.parquet: no such file"):
        quiver.read_table(f"{protocol}://nope/x.parquet")


# --- http(s):// --------------------------------------------------------------------


class RangeServer(http.server.ThreadingHTTPServer):
    """Serves `files` (path -> bytes) with HEAD and GET, honouring single
    `Range: bytes=a-b` requests (206 + Content-Range), and logs every request
    as (method, path, range header, body bytes sent)."""

    daemon_threads = True

    def __init__(self, files):
        self.files = files
        self.log = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), RangeHandler)


class RangeHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _send(self, body_len, status, headers, body=b""):
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(body_len))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if body:
            self.wfile.write(body)

    def _serve(self, head):
        data = self.server.files.get(self.path)
        if data is not None and self.path.startswith("/nosize/"):
            # A server that gives neither a size nor ranges: the whole body.
            self.send_response(200)
            self.end_headers()
            if not head:
                self.wfile.write(data)
            return
        rng = self.headers.get("Range")
        sent = 0
        if data is None:
            self._send(0, 404, {})
        elif rng is None:
            sent = 0 if head else len(data)
            self._send(len(data), 200, {}, b"" if head else data)
        else:
            start, _, end = rng.removeprefix("bytes=").partition("-")
            if start == "":  # a suffix range: the last `end` bytes
                start, end = max(0, len(data) - int(end)), len(data) - 1
            else:
                start, end = int(start), min(int(end) if end else len(data) - 1, len(data) - 1)
            if start >= len(data) or start > end:
                self._send(0, 416, {"Content-Range": f"bytes */{len(data)}"})
            else:
                body = data[start:end + 1]
                sent = 0 if head else len(body)
                self._send(len(body), 206, {"Content-Range": f"bytes {start}-{end}/{len(data)}"},
                           b"" if head else body)
        with self.server.lock:
            self.server.log.append((self.command, self.path, rng, sent))

    def do_GET(self):
        self._serve(head=False)

    def do_HEAD(self):
        self._serve(head=True)


@pytest.fixture(scope="module")
def http_server():
    server = RangeServer({})
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    thread.join()
    server.server_close()


def test_http_reads_only_the_ranges_needed(http_server):
    t = wide_table()
    data = to_bytes_one_group(t)
    http_server.files["/wide.parquet"] = data
    url = f"http://127.0.0.1:{http_server.server_address[1]}/wide.parquet"
    http_server.log.clear()
    got = quiver.read_table(url, columns=["c3", "c7"])
    assert pa.table(got).equals(t.select(["c3", "c7"]))
    gets = [e for e in http_server.log if e[0] == "GET"]
    sent = sum(e[3] for e in http_server.log)
    assert all(e[2] is not None for e in gets), gets  # every GET a range
    assert len(gets) <= 4, gets
    assert sent <= 0.25 * len(data), (sent, len(data))
    with quiver.ParquetFile(url) as f:
        assert f.metadata.num_rows == t.num_rows
        assert pa.table(f.read(columns=["c0"], filters=[("c0", "<", 1 << 50)])).equals(
            pq.read_table(pa.BufferReader(data), columns=["c0"], filters=[("c0", "<", 1 << 50)]))
    missing = f"http://127.0.0.1:{http_server.server_address[1]}/missing.parquet"
    with pytest.raises(quiver.IOError, match=f"{missing}: no such file"):
        quiver.read_table(missing)
    http_server.files["/nosize/wide.parquet"] = data
    nosize = f"http://127.0.0.1:{http_server.server_address[1]}/nosize/wide.parquet"
    with pytest.raises(quiver.IOError, match=f"{nosize}: cannot be read by ranges"):
        quiver.read_table(nosize)


def to_bytes_one_group(t):
    sink = pa.BufferOutputStream()
    pq.write_table(t, sink, compression="none")
    return sink.getvalue().to_pybytes()


def test_local_and_file_uri_import_neither_fsspec_nor_pyarrow(tmp_path):
    # quiver imports without fsspec and pyarrow, and only a filesystem or URI
    # of theirs imports them (file:// URIs are local paths).
    code = (
        "import pathlib, sys, quiver\n"
        "t = quiver.Table.from_pydict({'a': [1, 2, 3]})\n"
        "p = pathlib.Path(sys.argv[1])\n"
        "quiver.write_parquet(t, p.as_uri())\n"
        "assert quiver.read_table(str(p)) == t\n"
        "assert quiver.ParquetFile(p.as_uri()).read(columns=['a']) == t\n"
        "loaded = {m.split('.')[0] for m in sys.modules} & {'fsspec', 'pyarrow'}\n"
        "assert not loaded, loaded\n"
        "print('ok')\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(quiver.__file__))
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "t.parquet")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stdout + proc.stderr
