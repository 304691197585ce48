"""Filter pruning by dictionaries and by page-header statistics (files without a
page index, as pyarrow writes by default), on pyarrow-written files, judged by
pyarrow's decode-then-filter; read_stats shows the pruning.
"""
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import quiver


def decode_then_filter(path, filters, columns=None):
    expr = pq.filters_to_expression(filters)
    table = pq.read_table(path).filter(expr)
    return table.select(columns) if columns is not None else table


def read(path, filters, columns=None):
    with quiver.ParquetFile(str(path)) as f:
        got = pa.table(f.read(columns=columns, filters=filters))
        return got, dict(f.read_stats)


def test_dictionary_prunes_row_groups_statistics_cannot(tmp_path):
    path = tmp_path / "dict.parquet"
    n = 40_000
    cities = np.array(["Bergen", "Lima", "Oslo", "Quito"])
    table = pa.table({"city": pa.array(cities[np.arange(n) % 4]),
                      "x": np.arange(n, dtype=np.int64)})
    pq.write_table(table, path, row_group_size=10_000)
    md = pq.ParquetFile(path).metadata
    assert not md.row_group(0).column(0).has_column_index  # pyarrow's default
    # "Paris" lies within every chunk's [Bergen, Quito], in no dictionary.
    for filters in ([("city", "==", "Paris")], [("city", "in", ["Madrid", "Paris"])],
                    [[("city", ">", "Lima"), ("city", "<", "Oslo")]]):
        got, stats = read(path, filters)
        want = decode_then_filter(path, filters)
        assert got.equals(want) and got.num_rows == 0
        assert stats["row_groups_pruned_statistics"] == 0
        assert stats["row_groups_pruned_dictionary"] == 4, filters
        assert stats["pages_decompressed"] == 0
    # Entries that match keep the row groups; rows as pyarrow's.
    filters = [("city", "==", "Oslo"), ("x", "<", 25_000)]
    got, stats = read(path, filters, columns=["x"])
    assert got.equals(decode_then_filter(path, filters, columns=["x"]))
    assert stats["row_groups_pruned_dictionary"] == 0
    assert stats["row_groups_pruned_statistics"] == 1


def test_dictionary_and_nulls(tmp_path):
    path = tmp_path / "dict_nulls.parquet"
    values = ["a", None, "c", "e"] * 2500
    pq.write_table(pa.table({"k": values}), path, row_group_size=5000)
    # is_null may be true: the chunk's null count says nulls are there.
    for filters in ([("k", "==", "b")], [("k", "not in", ["a", "c", "e"])],
                    [[("k", "==", "b")], [("k", "==", "e")]]):
        got, stats = read(path, filters)
        assert got.equals(decode_then_filter(path, filters)), filters
    got, stats = read(path, [("k", "==", "b")])
    assert stats["row_groups_pruned_dictionary"] == 2
    expr = (pc.field("k") == "b") | pc.field("k").is_null()
    with quiver.ParquetFile(str(path)) as f:
        got = pa.table(f.read(filters=expr))
        assert f.read_stats["row_groups_pruned_dictionary"] == 0
    assert got.equals(pq.read_table(path).filter(expr))
    assert got.num_rows == 2500


def test_dictionary_fallback_is_not_pruned_by_the_dictionary(tmp_path):
    path = tmp_path / "fallback.parquet"
    n = 20_000
    # Distinct values past a 1 KiB dictionary: pyarrow falls back to PLAIN
    # mid-chunk; 2 * i + 1 never occurs, 2 * i once.
    table = pa.table({"v": np.arange(n, dtype=np.int64) * 2})
    pq.write_table(table, path, row_group_size=10_000, dictionary_pagesize_limit=1024,
                   data_page_size=2048)
    for value in (30_000, 2, 30_001):
        filters = [("v", "==", value)]
        got, stats = read(path, filters)
        assert got.equals(decode_then_filter(path, filters))
        assert stats["row_groups_pruned_dictionary"] == 0


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_page_header_statistics_skip_pages_without_a_page_index(tmp_path, version):
    n = 200_000
    rng = np.random.default_rng(5)
    table = pa.table({"key": np.arange(n, dtype=np.int64), "payload": rng.random(n)})
    path = tmp_path / "noindex.parquet"
    pq.write_table(table, path, row_group_size=50_000, data_page_size=8000,
                   write_batch_size=1000, use_dictionary=False, data_page_version=version)
    md = pq.ParquetFile(path).metadata
    assert not md.row_group(0).column(0).has_column_index
    assert not md.row_group(0).column(0).has_offset_index
    lo, hi = 123_456, 123_456 + n // 1000  # 0.1%
    filters = [("key", ">=", lo), ("key", "<", hi)]
    got, stats = read(path, filters, columns=["payload"])
    assert got.equals(decode_then_filter(path, filters, columns=["payload"]))
    assert got.num_rows == hi - lo
    assert stats["row_groups_pruned_statistics"] == 3
    # key's pages of the row group read but those holding the rows are not
    # decompressed (found by their headers); payload skips rows by levels.
    assert stats["pages_skipped"] > 40
    whole = read(path, [("key", ">=", 0)], columns=["payload"])[1]
    assert stats["pages_decompressed"] * 2 < whole["pages_decompressed"]
    for filters in ([("key", "<", 5)], [("key", ">", n - 3)], [("key", "!=", 7)],
                    [[("key", "==", 3)], [("key", "==", 150_001)]]):
        got, _ = read(path, filters)
        assert got.equals(decode_then_filter(path, filters)), filters
