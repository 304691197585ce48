"""Where quiver.write_parquet / quiver.ParquetWriter put a file: a path (a
temporary file fsynced and renamed into place), a Python file object (given
the file row group by row group), a quiver.BufferOutputStream (one contiguous
buffer); and the ParquetWriter API around them (tell(), write_table's
row_group_size, __exit__ after an exception, options not built yet). Every
file is judged by pyarrow reading it back, and by its bytes against the same
write to a path."""

import gc
import io
import os
import shutil
import stat
import subprocess
import sys
import textwrap

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import quiver


def table_of(n, seed=0):
    return pa.table({"x": pa.array(range(seed, seed + n), pa.int64()),
                     "s": pa.array([f"v{(i * 7919) % 1000}" for i in range(n)])})


def path_bytes(tmp_path, table, name="ref.parquet", **opts):
    path = tmp_path / name
    quiver.write_parquet(table, path, **opts)
    return path.read_bytes()


def row_group_ends(data):
    """The offset just past each row group's column chunks."""
    md = pq.ParquetFile(pa.BufferReader(data)).metadata
    ends = []
    for i in range(md.num_row_groups):
        rg = md.row_group(i)
        ends.append(max(rg.column(c).file_offset + rg.column(c).total_compressed_size
                        for c in range(rg.num_columns)))
    return ends


class Recorder:
    """A file object that copies what it is given and records, at each write()
    call, how many bytes it has received by the end of that call."""

    def __init__(self):
        self.data = bytearray()
        self.totals = []

    def write(self, b):
        self.data += b
        self.totals.append(len(self.data))
        return len(b)


# --- A Python file object streams ------------------------------------------------

@pytest.mark.parametrize("use_threads", [False, True])
def test_file_object_gets_each_row_group_as_it_is_finished(tmp_path, use_threads):
    table = table_of(50_000)
    rec = Recorder()
    quiver.write_parquet(table, rec, row_group_size=10_000, compression="none", use_threads=use_threads)
    data = bytes(rec.data)
    assert data == path_bytes(tmp_path, table, row_group_size=10_000, compression="none")
    assert pq.read_table(pa.BufferReader(data)).equals(table)
    # write() saw the file end exactly at each row group's end, before the
    # footer: the bytes were passed on as each row group was finished.
    ends = row_group_ends(data)
    assert len(ends) == 5
    assert set(ends) <= set(rec.totals), (ends, rec.totals)
    assert rec.totals[-1] == len(data)


def test_parquet_writer_passes_row_groups_on_before_close():
    schema = pa.schema([("x", pa.int64()), ("s", pa.string())])
    sink = io.BytesIO()
    sizes = []
    with quiver.ParquetWriter(sink, schema, row_group_size=1000) as w:
        assert w.tell() == 4  # the magic, not passed on yet
        for i in range(4):
            w.write_table(table_of(1000, seed=i * 1000))
            sizes.append(len(sink.getvalue()))
            assert w.tell() == sizes[-1]
        before_close = len(sink.getvalue())
    assert sizes == sorted(sizes) and sizes[0] > 4 and len(set(sizes)) == 4
    data = sink.getvalue()
    assert w.tell() == len(data) > before_close
    assert row_group_ends(data) == sizes
    assert pq.read_table(io.BytesIO(data)).equals(
        pa.concat_tables([table_of(1000, seed=i * 1000) for i in range(4)]))


def test_file_object_not_at_position_zero(tmp_path):
    table = table_of(3000)
    sink = io.BytesIO()
    sink.write(b"header bytes")
    with quiver.ParquetWriter(sink, table.schema, row_group_size=1000) as w:
        w.write_table(table)
        assert w.tell() == len(sink.getvalue()) - len(b"header bytes")
    data = sink.getvalue()
    assert data.startswith(b"header bytes")
    # The Parquet file starts where the object was; its offsets count from there.
    assert data[12:] == path_bytes(tmp_path, table, row_group_size=1000)
    assert pq.read_table(pa.BufferReader(data[12:])).equals(table)


def test_what_write_is_given_stays_valid():
    """A file object that keeps the objects it is given (no copy) still holds
    the right bytes once the writer is gone: nothing handed out is written
    again."""
    class Keep:
        def __init__(self):
            self.parts = []

        def write(self, b):
            self.parts.append(b)

    table = table_of(200_000)
    keep = Keep()
    quiver.write_parquet(table, keep, row_group_size=30_000, compression="zstd")
    gc.collect()
    data = b"".join(keep.parts)
    ref = io.BytesIO()
    quiver.write_parquet(table, ref, row_group_size=30_000, compression="zstd")
    assert data == ref.getvalue()
    assert all(isinstance(p, memoryview) and p.readonly for p in keep.parts)
    assert pq.read_table(pa.BufferReader(data)).equals(table)


def test_short_writes_are_completed():
    """A raw file's write() may take fewer bytes than given: the rest is given again."""
    class Short:
        def __init__(self):
            self.data = bytearray()

        def write(self, b):
            n = max(1, len(b) // 3)
            self.data += bytes(b[:n])
            return n

    table = table_of(5000)
    short, full = Short(), io.BytesIO()
    quiver.write_parquet(table, short)
    quiver.write_parquet(table, full)
    assert bytes(short.data) == full.getvalue()


class Boom(Exception):
    pass


class FailingFile:
    def __init__(self, fail_at):
        self.calls = 0
        self.fail_at = fail_at
        self.data = bytearray()
        self.raised = None

    def write(self, b):
        self.calls += 1
        if self.calls == self.fail_at:
            self.raised = Boom("disk full, says the file object")
            raise self.raised
        self.data += b
        return len(b)


def test_exception_from_write_propagates_unchanged():
    table = table_of(20_000)
    f = FailingFile(fail_at=2)
    with pytest.raises(Boom) as info:
        quiver.write_parquet(table, f, row_group_size=5000)
    assert info.value is f.raised
    # ParquetWriter: the same exception, and the writer is failed afterwards.
    f = FailingFile(fail_at=1)
    w = quiver.ParquetWriter(f, table.schema, row_group_size=5000)
    with pytest.raises(Boom) as info:
        w.write_table(table)
    assert info.value is f.raised
    with pytest.raises(quiver.InvalidError, match="failed earlier"):
        w.write_table(table)
    with pytest.raises(quiver.QuiverError):
        w.close()
    assert not w.is_open


def test_write_returning_nonsense_is_an_error():
    class Bad:
        def write(self, b):
            return "all of it"

    with pytest.raises(quiver.IOError, match="write\\(\\) returned 'all of it'"):
        quiver.write_parquet(table_of(10), Bad())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_file_object_memory_stays_about_one_row_group(tmp_path):
    """Writing a ~200 MB file to a file object that discards what it gets
    grows the process by about one row group (and the sink's chunk), not by
    the file: the peak resident size is measured in a child process."""
    script = textwrap.dedent("""
        import resource, sys
        import numpy as np, pyarrow as pa, quiver
        n = 25_000_000
        table = pa.table({"x": pa.array(np.arange(n, dtype=np.int64) * 7919)})
        class Discard:
            def write(self, b):
                return len(b)
        quiver.write_parquet(pa.table({"x": pa.array([1])}), Discard())  # warm up
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        quiver.write_parquet(table, Discard(), compression="none", use_dictionary=False,
                             row_group_size=1_000_000)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print((after - before) // 1024)  # MiB
    """)
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    grown_mib = int(out.stdout.strip())
    # 200 MB of file, 8 MB row groups: a whole-file buffer grew it by 191
    # MiB; one row group, the sink's current chunk (at most 8 MiB) and the
    # page buffers by 18 here.
    assert grown_mib < 48, grown_mib


# --- quiver.BufferOutputStream ----------------------------------------------------

def test_buffer_output_stream_holds_the_file(tmp_path):
    table = table_of(100_000)
    stream = quiver.BufferOutputStream()
    quiver.write_parquet(table, stream, row_group_size=30_000)
    value = stream.getvalue()
    assert isinstance(value, memoryview) and value.readonly and value.contiguous
    assert value.format == "B" and value.ndim == 1
    assert bytes(value) == path_bytes(tmp_path, table, row_group_size=30_000)
    assert pq.read_table(pa.BufferReader(value)).equals(table)
    assert pq.read_table(pa.py_buffer(value)).equals(table)
    # The same object every time; ended: further writes fail.
    assert stream.getvalue() is value
    assert stream.closed and stream.tell() == len(value)
    with pytest.raises(quiver.IOError, match="closed"):
        quiver.write_parquet(table, stream)


def test_buffer_output_stream_value_outlives_the_stream(tmp_path):
    table = table_of(50_000)
    stream = quiver.BufferOutputStream()
    quiver.write_parquet(table, stream)
    value = stream.getvalue()
    del stream
    gc.collect()
    junk = [bytes(1 << 20) for _ in range(20)]  # reuse freed memory, if any was freed
    assert bytes(value) == path_bytes(tmp_path, table)
    del junk


def test_buffer_output_stream_edges():
    # getvalue() before any write: empty, and the stream is ended.
    stream = quiver.BufferOutputStream()
    assert stream.tell() == 0
    empty = stream.getvalue()
    assert len(empty) == 0 and bytes(empty) == b""
    assert stream.getvalue() is empty
    # While a writer writes into it: refused; after close: the file.
    stream = quiver.BufferOutputStream()
    table = table_of(10)
    w = quiver.ParquetWriter(stream, table.schema)
    w.write_table(table)
    with pytest.raises(quiver.InvalidError, match="close the writer first"):
        stream.getvalue()
    with pytest.raises(quiver.InvalidError, match="another ParquetWriter"):
        quiver.ParquetWriter(stream, table.schema)
    w.close()
    assert pq.read_table(pa.BufferReader(stream.getvalue())).equals(table)
    # A writer aborted by an exception frees the stream too.
    stream = quiver.BufferOutputStream()
    with pytest.raises(Boom):
        with quiver.ParquetWriter(stream, table.schema) as w:
            raise Boom()
    assert bytes(stream.getvalue()) == b"PAR1"


def test_write_parquet_to_none_returns_the_buffer(tmp_path):
    table = table_of(20_000)
    value = quiver.write_parquet(table, None, compression="zstd")
    assert isinstance(value, memoryview) and value.readonly
    assert bytes(value) == path_bytes(tmp_path, table, compression="zstd")
    assert pq.read_table(pa.BufferReader(value)).equals(table)
    assert quiver.write_parquet(table, tmp_path / "x.parquet") is None


@pytest.mark.parametrize("pool", ["system", "jemalloc", "mimalloc"])
def test_buffer_output_stream_with_every_pool(tmp_path, pool):
    """The in-memory output grows and hands over one buffer with every memory
    pool (each in its own process: the default pool is chosen once)."""
    script = textwrap.dedent("""
        import sys, numpy as np, pyarrow as pa, pyarrow.parquet as pq, quiver
        if quiver.memory_pool_backend() != sys.argv[1]:
            print("unavailable"); sys.exit(0)
        t = pa.table({"x": pa.array(np.arange(3_000_000, dtype=np.int64)),
                      "s": pa.array([str(i % 5000) for i in range(300_000)] * 10)})
        v = quiver.write_parquet(t, None, compression="none", use_dictionary=["s"])
        quiver.write_parquet(t, sys.argv[2], compression="none", use_dictionary=["s"])
        assert bytes(v) == open(sys.argv[2], "rb").read()
        assert pq.read_table(pa.BufferReader(v)).equals(t)
        print("ok", len(v))
    """)
    env = dict(os.environ, QUIVER_MEMORY_POOL=pool)
    jemalloc = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"
    if pool == "jemalloc" and os.path.exists(jemalloc):
        # (jemalloc cannot be dlopen'ed into a running process: static TLS.)
        env["LD_PRELOAD"] = jemalloc
    out = subprocess.run([sys.executable, "-c", script, pool, str(tmp_path / "f.parquet")],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    if out.stdout.startswith("unavailable"):
        pytest.skip(f"the {pool} pool cannot be loaded here")
    assert out.stdout.startswith("ok")


# --- ParquetWriter API --------------------------------------------------------------

def test_exception_in_with_leaves_nothing_at_the_path(tmp_path):
    table = table_of(5000)
    path = tmp_path / "out.parquet"
    with pytest.raises(Boom):
        with quiver.ParquetWriter(path, table.schema, row_group_size=1000) as w:
            w.write_table(table)
            raise Boom()
    assert os.listdir(tmp_path) == []
    # An existing file is left as it was.
    quiver.write_parquet(table_of(10), path)
    before = path.read_bytes()
    with pytest.raises(Boom):
        with quiver.ParquetWriter(path, table.schema) as w:
            w.write_table(table)
            raise Boom()
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["out.parquet"]


def test_exception_in_with_leaves_whole_row_groups_in_a_file_object(tmp_path):
    """A file object cannot be taken back: it holds the magic and the row
    groups finished before the exception, and no footer."""
    table = table_of(4000)
    sink = io.BytesIO()
    with pytest.raises(Boom):
        with quiver.ParquetWriter(sink, table.schema, row_group_size=1000) as w:
            w.write_table(table.slice(0, 2000))
            w.write_batch(table.slice(2000, 500))  # an open row group: not passed on
            raise Boom()
    data = sink.getvalue()
    full = path_bytes(tmp_path, table.slice(0, 2000), row_group_size=1000)
    assert data == full[:row_group_ends(full)[-1]]
    assert data.startswith(b"PAR1") and not data.endswith(b"PAR1")
    with pytest.raises(pa.ArrowInvalid):
        pq.read_table(pa.BufferReader(data))


@pytest.mark.parametrize("row_group_size", [None, -1, 1, 7, 1000, 2500, 2_000_000])
def test_write_table_row_group_size_as_pyarrow(tmp_path, row_group_size):
    table = table_of(6000)
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    with quiver.ParquetWriter(q, table.schema, compression="snappy") as w:
        w.write_table(table.slice(0, 3000), row_group_size=row_group_size)
        w.write_table(table.slice(3000), row_group_size=row_group_size)
    with pq.ParquetWriter(p, table.schema, compression="snappy") as w:
        w.write_table(table.slice(0, 3000), row_group_size=row_group_size)
        w.write_table(table.slice(3000), row_group_size=row_group_size)
    qm, pm = pq.ParquetFile(q).metadata, pq.ParquetFile(p).metadata
    assert [qm.row_group(i).num_rows for i in range(qm.num_row_groups)] == \
        [pm.row_group(i).num_rows for i in range(pm.num_row_groups)]
    assert pq.read_table(q).equals(table)


def test_write_table_row_group_size_errors(tmp_path):
    table = table_of(10)
    with quiver.ParquetWriter(tmp_path / "a.parquet", table.schema) as w:
        with pytest.raises(quiver.InvalidError, match="row_group_size must be positive"):
            w.write_table(table, row_group_size=0)
        with pytest.raises(quiver.InvalidError, match="row_group_size"):
            w.write_table(table, row_group_size="10")
    with quiver.ParquetWriter(tmp_path / "b.parquet", table.schema, row_group_bytes=1 << 20) as w:
        with pytest.raises(quiver.InvalidError, match="row_group_bytes"):
            w.write_table(table, row_group_size=5)


# (filesystem= is built: test_filesystems.py; metadata_collector=: test_dataset.py and
# test_parquet_incremental.py; encryption_properties=: test_encryption_write.py.)
def test_encryption_properties_must_come_from_quiver(tmp_path):
    """encryption_properties= takes what quiver.encryption_properties() returns; anything
    else is a TypeError naming the option, and nothing is written."""
    table = table_of(10)
    with pytest.raises(TypeError, match="encryption_properties"):
        quiver.write_parquet(table, tmp_path / "a.parquet", encryption_properties=object())
    with pytest.raises(TypeError, match="encryption_properties"):
        quiver.ParquetWriter(tmp_path / "b.parquet", table.schema, encryption_properties=[])
    assert not (tmp_path / "a.parquet").exists() and not (tmp_path / "b.parquet").exists()
    # None is the default, and accepted.
    quiver.write_parquet(table, tmp_path / "c.parquet", encryption_properties=None)
    assert pq.read_table(tmp_path / "c.parquet").equals(table)


def test_unknown_keyword_is_a_type_error(tmp_path):
    with pytest.raises(TypeError, match="no_such_option"):
        quiver.write_parquet(table_of(1), tmp_path / "a.parquet", no_such_option=1)
    with pytest.raises(TypeError, match="flavor"):
        quiver.ParquetWriter(tmp_path / "a.parquet", table_of(1).schema, flavor="spark")


# --- fsync ------------------------------------------------------------------------------

def test_fsync_option(tmp_path):
    table = table_of(1000)
    for fsync in (True, False):
        path = tmp_path / f"f{fsync}.parquet"
        quiver.write_parquet(table, path, fsync=fsync)
        assert pq.read_table(path).equals(table)
    with pytest.raises(quiver.InvalidError, match="fsync"):
        quiver.write_parquet(table, tmp_path / "g.parquet", fsync="no")
    # A file object is its owner's to make durable: fsync=True is refused
    # there (it would do nothing), fsync=False is what happens anyway.
    with pytest.raises(quiver.InvalidError, match="fsync"):
        quiver.write_parquet(table, io.BytesIO(), fsync=True)
    quiver.write_parquet(table, io.BytesIO(), fsync=False)
    assert bytes(quiver.write_parquet(table, None, fsync=False)) == \
        (tmp_path / "fTrue.parquet").read_bytes()


def test_existing_file_keeps_its_mode_and_links_stay_links(tmp_path):
    table = table_of(100)
    real = tmp_path / "real.parquet"
    quiver.write_parquet(table_of(5), real)
    os.chmod(real, 0o640)
    link = tmp_path / "link.parquet"
    link.symlink_to("real.parquet")
    quiver.write_parquet(table, link)
    assert link.is_symlink() and stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert pq.read_table(real).equals(table)
    quiver.write_ipc(table, str(link))
    assert link.is_symlink() and stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert pa.ipc.open_file(str(real)).read_all().equals(table)
    assert sorted(os.listdir(tmp_path)) == ["link.parquet", "real.parquet"]


def test_write_ipc_is_atomic_and_takes_fsync(tmp_path):
    table = table_of(100)
    path = tmp_path / "t.arrow"
    quiver.write_ipc(table, str(path), fsync=False)
    assert pa.ipc.open_file(str(path)).read_all().equals(table)
    before = path.read_bytes()
    with pytest.raises(quiver.QuiverError):
        quiver.write_ipc(table, str(path), compression="no-such-codec")
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["t.arrow"]


def strace_calls(argv, tmp_path):
    """The fsync/rename/open-folder calls `argv` makes, as strace shows them."""
    log = tmp_path / "strace.log"
    out = subprocess.run(["strace", "-f", "-qq", "-o", str(log), "-e",
                          "trace=fsync,fdatasync,rename,renameat,renameat2,openat"] + argv,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return [line.split(None, 1)[1] if line[0].isdigit() else line
            for line in log.read_text().splitlines()]


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_fsync_order_seen_by_strace(tmp_path):
    """fsync of the temporary file, its rename over the path, then fsync of
    the folder; none of them with fsync=False."""
    script = ("import sys, pyarrow as pa, quiver; "
              "quiver.write_parquet(pa.table({'a': [1, 2]}), sys.argv[1], fsync=sys.argv[2] == '1')")
    for fsync in (True, False):
        target = tmp_path / f"out{int(fsync)}.parquet"
        try:
            calls = strace_calls([sys.executable, "-c", script, str(target), "1" if fsync else "0"],
                                 tmp_path)
        except AssertionError as e:
            if "ptrace" in str(e) or "Operation not permitted" in str(e):
                pytest.skip("strace cannot trace here")
            raise
        assert pq.read_table(target).num_rows == 2
        renames = [i for i, c in enumerate(calls) if c.startswith("rename") and str(target) in c]
        assert len(renames) == 1, calls
        r = renames[0]
        temp_fd = [c for c in calls[:r] if ".out" in c and "quiver-" in c and c.startswith("openat")]
        assert len(temp_fd) == 1 and "O_EXCL" in temp_fd[0] and "0666" in temp_fd[0], temp_fd
        fsyncs_before = [c for c in calls[:r] if c.startswith("fsync")]
        dir_open = [i for i, c in enumerate(calls) if i > r and "O_DIRECTORY" in c
                    and f'"{tmp_path}"' in c]
        fsyncs_after = [c for c in calls[r:] if c.startswith("fsync")]
        if fsync:
            assert len(fsyncs_before) == 1 and len(fsyncs_after) == 1, calls
            assert dir_open, calls
        else:
            assert not fsyncs_before and not fsyncs_after and not dir_open, calls
