"""Reader options docs/interfaces.md names: decryption_properties takes what
quiver.decryption_properties() returns (anything else is a TypeError naming it;
test_decryption.py reads encrypted files); filesystem= is built: test_filesystems.py;
use_threads is accepted everywhere, True by default (test_read_threads.py checks
what it does); read_table's and ParquetFile's signatures are interfaces.md's; any other
keyword is a TypeError naming it. ParquetFile.close() / `with` release the source as
pyarrow does (the descriptor of a path is closed: checked in /proc/self/fd), `closed` is
pyarrow's, and a read after close() raises a clear error."""

import inspect
import io
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import quiver


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "t.parquet"
    pq.write_table(pa.table({"a": [1, 2, 3], "b": ["x", "y", "z"]}), p, row_group_size=2)
    return p


def test_signatures_are_the_interfaces():
    params = inspect.signature(quiver.read_table).parameters
    assert list(params)[:6] == ["source", "columns", "row_groups", "filters", "use_threads",
                                "filesystem"]
    assert params["use_threads"].default is True  # as pyarrow's
    assert params["filters"].default is None and params["filesystem"].default is None
    assert any(p.kind is p.VAR_KEYWORD for p in params.values())
    assert list(inspect.signature(quiver.ParquetFile).parameters)[:2] == ["source", "filesystem"]
    assert quiver.read_parquet is quiver.read_table


def test_read_table_decryption_properties_type(path):
    with pytest.raises(TypeError, match="decryption_properties"):
        quiver.read_table(str(path), decryption_properties=object())


def test_defaults_and_none_are_accepted(path):
    expected = pq.read_table(path)
    for options in ({}, {"filters": None}, {"filesystem": None}, {"use_threads": False},
                    {"use_threads": True}, {"decryption_properties": None}):
        assert pa.table(quiver.read_table(str(path), **options)).equals(expected)


def test_parquet_file_decryption_properties_type(path):
    with pytest.raises(TypeError, match="decryption_properties"):
        quiver.ParquetFile(str(path), decryption_properties=object())


def test_parquet_file_use_threads_accepted(path):
    f = quiver.ParquetFile(str(path))
    expected = pq.read_table(path)
    for threads in (True, False):
        assert pa.table(f.read(use_threads=threads)).equals(expected)
        assert pa.table(f.read_row_group(1, use_threads=threads)).equals(
            pq.ParquetFile(path).read_row_group(1))
        assert pa.table(f.read_row_groups([1, 0], use_threads=threads)).num_rows == 3
        assert sum(b.num_rows for b in f.iter_batches(use_threads=threads)) == 3
    for method in (f.read, f.read_row_group, f.read_row_groups, f.iter_batches):
        assert inspect.signature(method).parameters["use_threads"].default is True


@pytest.mark.parametrize("keyword", ["no_such_option", "memory_map", "schema"])
def test_other_keywords_are_type_errors(path, keyword):
    with pytest.raises(TypeError, match=keyword):
        quiver.read_table(str(path), **{keyword: None})
    with pytest.raises(TypeError, match=keyword):
        quiver.ParquetFile(str(path), **{keyword: None})


def _open_descriptors_of(p):
    target = os.path.realpath(p)
    out = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") == target:
                out += 1
        except OSError:
            pass
    return out


def test_close_releases_the_descriptor(path):
    assert _open_descriptors_of(path) == 0
    f = quiver.ParquetFile(str(path))
    assert _open_descriptors_of(path) == 1
    assert not f.closed
    f.close()
    assert f.closed
    assert _open_descriptors_of(path) == 0
    f.close()  # idempotent
    assert f.metadata.num_rows == 3  # the footer stays readable
    for call in (f.read, lambda: f.read_row_group(0), lambda: f.iter_batches(),
                 lambda: f.read_row_groups([0, 1])):
        with pytest.raises(quiver.InvalidError, match="closed"):
            call()


def test_context_manager_closes(path):
    with quiver.ParquetFile(str(path)) as f:
        assert _open_descriptors_of(path) == 1
        assert pa.table(f.read()).num_rows == 3
    assert f.closed
    assert _open_descriptors_of(path) == 0
    # Also when the block raises.
    with pytest.raises(RuntimeError):
        with quiver.ParquetFile(str(path)) as g:
            raise RuntimeError("boom")
    assert g.closed and _open_descriptors_of(path) == 0


def test_read_table_does_not_keep_the_file_open(path):
    quiver.read_table(str(path))
    assert _open_descriptors_of(path) == 0


def test_an_iterator_after_close_raises(tmp_path):
    p = tmp_path / "big.parquet"
    pq.write_table(pa.table({"a": list(range(100_000))}), p, row_group_size=10_000)
    f = quiver.ParquetFile(str(p))
    batches = f.iter_batches(batch_size=10_000)
    next(batches)
    f.close()
    assert _open_descriptors_of(p) == 0
    with pytest.raises(quiver.IOError, match="closed"):
        for _ in batches:
            pass


def test_file_objects_stay_the_callers(path):
    """As pyarrow: close() leaves a file object the caller opened open (closed reflects it);
    close(force=True) closes it."""
    with open(path, "rb") as source:
        f = quiver.ParquetFile(source)
        e = pq.ParquetFile(source)
        f.close()
        e.close()
        assert not source.closed
        assert f.closed == e.closed is False
        assert pa.table(f.read()).num_rows == 3
    assert f.closed == e.closed is True
    source = open(path, "rb")
    f = quiver.ParquetFile(source)
    f.close(force=True)
    assert source.closed and f.closed


def test_bytes_source_close(path):
    """A bytes-like source (pyarrow takes none) is let go by close(): Quiver's view of it is
    released."""
    data = bytearray(path.read_bytes())
    f = quiver.ParquetFile(data)
    assert not f.closed
    with pytest.raises(BufferError):
        data.append(0)  # exported to Quiver: cannot resize
    f.close()
    assert f.closed
    data.append(0)  # released
    with pytest.raises(quiver.InvalidError, match="closed"):
        f.read()
