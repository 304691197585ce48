"""ParquetFile.read_stats (docs/interfaces.md) on plain reads: its keys, pages
decompressed as an independent page walker (parquet_pages) counts them, no
page skipped, values decoded as the table's non-null values, bytes read as a
counting file object saw them, reset by each read call and accumulated over
iter_batches' batches."""

import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parquet_pages
import quiver

KEYS = ["row_groups_pruned_statistics", "row_groups_pruned_bloom",
        "row_groups_pruned_dictionary", "pages_skipped", "pages_decompressed",
        "bytes_read", "values_decoded"]
ROWS = 3000


def _table():
    return pa.table({
        "i": pa.array([None if k % 7 == 0 else k for k in range(ROWS)], pa.int64()),
        "f": pa.array([k / 3 for k in range(ROWS)], pa.float64()),
        "s": pa.array([None if k % 5 == 0 else f"s{k % 40}" for k in range(ROWS)]),
        "b": pa.array([k % 3 == 0 for k in range(ROWS)]),
    })


def _write(writer, **options):
    sink = io.BytesIO()
    if writer == "pyarrow":
        pq.write_table(_table(), sink, row_group_size=1000, write_batch_size=50,
                       max_rows_per_page=100, data_page_size=1 << 20, **options)
    else:
        quiver.write_parquet(_table(), sink, row_group_size=1000, max_rows_per_page=100,
                             **options)
    return sink.getvalue()


class CountingFile(io.BytesIO):
    """A binary file object counting the bytes its read() calls return."""

    def __init__(self, data):
        super().__init__(data)
        self.bytes = 0

    def read(self, n=-1):
        out = super().read(n)
        self.bytes += len(out)
        return out

    def readinto(self, b):
        n = super().readinto(b)
        self.bytes += n
        return n


def _pages(data, row_groups=None):
    """Dictionary and data pages of the chunks of `row_groups` (all: None)."""
    structure = parquet_pages.read_structure(data)
    return sum(len(c.pages) for c in structure.chunks()
               if row_groups is None or c.row_group in row_groups)


def _values(table):
    return sum(len(c) - c.null_count for c in table.columns)


@pytest.mark.parametrize("writer", ["pyarrow", "quiver"])
@pytest.mark.parametrize("options", [{}, {"compression": "zstd", "data_page_version": "2.0"},
                                     {"use_dictionary": False, "compression": "none"}])
def test_plain_read_counts(writer, options):
    data = _write(writer, **options)
    counting = CountingFile(data)
    with quiver.ParquetFile(counting) as f:
        assert f.read_stats == dict.fromkeys(KEYS, 0)  # nothing read yet
        before = counting.bytes
        table = f.read()
        stats = f.read_stats
        assert list(stats) == KEYS
        assert stats["pages_skipped"] == 0
        assert stats["row_groups_pruned_statistics"] == 0
        assert stats["row_groups_pruned_bloom"] == 0
        assert stats["row_groups_pruned_dictionary"] == 0
        assert stats["pages_decompressed"] == _pages(data)
        assert stats["values_decoded"] == _values(pa.table(table))
        assert stats["bytes_read"] == counting.bytes - before
        # The column chunks' bytes are all read, and not much more.
        chunk_bytes = sum(c.total_compressed_size for c in parquet_pages.read_structure(data).chunks())
        assert chunk_bytes <= stats["bytes_read"] <= len(data)

        # Each read call starts afresh.
        before = counting.bytes
        one = f.read_row_group(1, columns=["i", "s"])
        stats = f.read_stats
        structure = parquet_pages.read_structure(data)
        assert stats["pages_decompressed"] == sum(
            len(c.pages) for c in structure.row_groups[1].columns if c.path[0] in ("i", "s"))
        assert stats["values_decoded"] == _values(pa.table(one))
        assert stats["bytes_read"] == counting.bytes - before

        # iter_batches adds each batch's work.
        before = counting.bytes
        batches = f.iter_batches(batch_size=400)
        assert f.read_stats == dict.fromkeys(KEYS, 0)
        seen = []
        values = 0
        for batch in batches:
            values += _values(pa.record_batch(batch))
            stats = f.read_stats
            seen.append(stats["pages_decompressed"])
            assert stats["values_decoded"] == values
            assert stats["bytes_read"] == counting.bytes - before
        assert seen == sorted(seen) and seen[0] < seen[-1]
        assert f.read_stats["pages_decompressed"] == _pages(data)


def test_sources_and_columns():
    data = _write("quiver")
    for source in (data, memoryview(data), io.BytesIO(data)):
        with quiver.ParquetFile(source) as f:
            f.read(columns=["f"])
            stats = f.read_stats
            assert stats["values_decoded"] == ROWS
            structure = parquet_pages.read_structure(data)
            assert stats["pages_decompressed"] == sum(
                len(c.pages) for c in structure.chunks() if c.path == ["f"])
            f.read(columns=[])
            assert f.read_stats["pages_decompressed"] == 0
            assert f.read_stats["values_decoded"] == 0
