"""The byte ranges a read asks of its source (issue 45 §2, "reading only needed
bytes"): opening is one suffix read; a plain read fetches each row group's
column chunks once, coalesced (one request a row group when every column is
read), no byte twice; a read of some columns asks for those chunks only; a
filtered read on a sorted column asks for the footer, the page indexes and
the few pages it needs. The expected ranges come from pyarrow's metadata of
files pyarrow writes. Sources: a recording file object (read/seek recorded)
and a file of fsspec's memory filesystem behind the same recorder."""

import io

import fsspec
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import quiver

TAIL = 64 * 1024  # the footer's suffix read


class Recorder:
    """A binary file object over `inner` recording every read as (offset, length)."""

    def __init__(self, inner):
        self.inner = inner
        self.reads = []

    def seek(self, offset, whence=0):
        return self.inner.seek(offset, whence)

    def tell(self):
        return self.inner.tell()

    def read(self, n=-1):
        pos = self.inner.tell()
        out = self.inner.read(n)
        self.reads.append((pos, len(out)))
        return out

    @property
    def closed(self):
        return self.inner.closed

    def close(self):
        self.inner.close()

    def take(self):
        out, self.reads = self.reads, []
        return out


def _bytesio(data):
    return Recorder(io.BytesIO(data))


def _fsspec_memory(data):
    fs = fsspec.filesystem("memory")
    path = "/quiver-ranges/file.parquet"
    fs.pipe(path, data)
    return Recorder(fs.open(path, "rb"))


SOURCES = {"bytesio": _bytesio, "fsspec_memory": _fsspec_memory}


def _table(n):
    rng = np.random.default_rng(7)
    return pa.table({
        "a": pa.array(np.arange(n, dtype=np.int64)),
        "b": pa.array(rng.random(n)),
        "c": pa.array([f"value {i % 1000}" for i in range(n)]),
        "d": pa.array(rng.integers(0, 1 << 40, n)),
    })


def _chunk_ranges(metadata, group):
    """[start, end) of each column chunk of row group `group`, from pyarrow."""
    out = []
    rg = metadata.row_group(group)
    for c in range(rg.num_columns):
        col = rg.column(c)
        start = col.data_page_offset
        if col.dictionary_page_offset is not None and 0 < col.dictionary_page_offset < start:
            start = col.dictionary_page_offset
        out.append((start, start + col.total_compressed_size))
    return out


def _disjoint(reads):
    spans = sorted((o, o + n) for o, n in reads)
    return all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


def _footer_offset(data):
    return len(data) - 8 - int.from_bytes(data[-8:-4], "little")


@pytest.fixture(scope="module")
def plain_file():
    sink = io.BytesIO()
    pq.write_table(_table(400_000), sink, row_group_size=100_000, compression="snappy",
                   write_page_index=True)
    return sink.getvalue()


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_plain_read_fetches_each_row_group_once(plain_file, source):
    data = plain_file
    metadata = pq.ParquetFile(io.BytesIO(data)).metadata
    rec = SOURCES[source](data)
    with quiver.ParquetFile(rec) as f:
        # Opening: one suffix read (the footer fits in 64 KiB here).
        assert rec.take() == [(len(data) - TAIL, TAIL)]
        got = f.read()
        stats = f.read_stats
    assert pa.table(got).equals(pq.read_table(io.BytesIO(data)))
    reads = rec.take()
    # One request a row group: exactly its chunks, which are contiguous.
    want = []
    for g in range(metadata.num_row_groups):
        chunks = _chunk_ranges(metadata, g)
        want.append((chunks[0][0], chunks[-1][1] - chunks[0][0]))
    assert sorted(reads) == want  # (threads: row groups in any order)
    assert _disjoint(reads)
    assert stats["bytes_read"] == sum(n for _, n in reads)
    assert stats["bytes_read"] <= _footer_offset(data)


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_some_columns_fetch_their_chunks_only(plain_file, source):
    data = plain_file
    metadata = pq.ParquetFile(io.BytesIO(data)).metadata
    rec = SOURCES[source](data)
    with quiver.ParquetFile(rec) as f:
        rec.take()
        got = f.read(columns=["b", "d"])
        stats = f.read_stats
    assert pa.table(got).equals(pq.read_table(io.BytesIO(data), columns=["b", "d"]))
    reads = rec.take()
    want = []
    for g in range(metadata.num_row_groups):
        chunks = _chunk_ranges(metadata, g)
        for c in (1, 3):  # b and d: c lies between them (far more than 8 KiB)
            want.append((chunks[c][0], chunks[c][1] - chunks[c][0]))
    assert sorted(reads) == want  # (threads: row groups in any order)
    assert stats["bytes_read"] == sum(n for _, n in reads)


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_filtered_read_on_a_sorted_column_fetches_few_bytes(source):
    n = 200_000
    table = _table(n)
    sink = io.BytesIO()
    pq.write_table(table, sink, row_group_size=50_000, data_page_size=8000,
                   write_batch_size=1000, write_page_index=True, use_dictionary=False)
    data = sink.getvalue()
    metadata = pq.ParquetFile(io.BytesIO(data)).metadata
    lo, hi = 123_456, 123_456 + 200
    rec = SOURCES[source](data)
    with quiver.ParquetFile(rec) as f:
        assert len(rec.take()) == 1
        got = f.read(columns=["b"], filters=[("a", ">=", lo), ("a", "<", hi)])
        stats = f.read_stats
    assert pa.table(got).equals(table.slice(lo, hi - lo).select(["b"]))
    reads = rec.take()
    assert stats["bytes_read"] == sum(n for _, n in reads)
    assert stats["bytes_read"] * 50 < len(data)
    # Data bytes come only from the row group holding the rows (2); the
    # rest are page indexes, after the last chunk.
    data_end = max(end for g in range(metadata.num_row_groups)
                   for _, end in _chunk_ranges(metadata, g))
    group = _chunk_ranges(metadata, 2)
    for offset, length in reads:
        if offset < data_end:
            assert group[0][0] <= offset and offset + length <= group[-1][1], (offset, length)
    assert len(reads) <= 12


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_selective_read_past_a_dictionary_fallback_skips_the_dictionary_page(source):
    """A unique sorted key overflows pyarrow's dictionary (1 MiB) and falls back
    to PLAIN mid-chunk: a range in the PLAIN pages reads neither dictionary
    page (the filter column's nor the payload's) nor decompresses it; a range
    in the dictionary-encoded pages reads them."""
    n = 400_000
    key = pa.array(np.arange(n, dtype=np.int64))
    payload = pa.array([f"value-{i:09d}" for i in range(n)])
    table = pa.table({"k": key, "p": payload})
    sink = io.BytesIO()
    pq.write_table(table, sink, row_group_size=n, data_page_size=16 * 1024,
                   write_batch_size=1000, write_page_index=True, compression="none")
    data = sink.getvalue()
    metadata = pq.ParquetFile(io.BytesIO(data)).metadata
    dictionaries = []
    for c in range(2):
        col = metadata.row_group(0).column(c)
        assert col.has_dictionary_page
        assert "PLAIN" in col.encodings and "RLE_DICTIONARY" in col.encodings
        dictionaries.append((col.dictionary_page_offset,
                             col.data_page_offset - col.dictionary_page_offset))
    assert min(length for _, length in dictionaries) > 100_000

    def read(lo, hi):
        rec = SOURCES[source](data)
        with quiver.ParquetFile(rec) as f:
            rec.take()
            got = f.read(filters=[("k", ">=", lo), ("k", "<", hi)])
            stats = f.read_stats
        assert pa.table(got).equals(table.slice(lo, hi - lo))
        reads = rec.take()
        assert stats["bytes_read"] == sum(length for _, length in reads)
        touched = [any(o < d + dl and d < o + length for o, length in reads)
                   for d, dl in dictionaries]
        return stats, touched

    # The last rows: PLAIN pages of both columns.
    stats, touched = read(n - 300, n - 200)
    assert touched == [False, False]
    assert stats["bytes_read"] < 100_000
    assert stats["pages_decompressed"] <= 4
    # The first rows: dictionary-encoded pages, which need their dictionaries.
    stats, touched = read(100, 200)
    assert touched == [True, True]
    assert stats["bytes_read"] > sum(length for _, length in dictionaries)
