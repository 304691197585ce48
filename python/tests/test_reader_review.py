"""Regressions from the reader's review: each case once gave an invalid array,
wrong data or a race (see docs/design.md, "Parquet reader")."""

import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import quiver
from reader_compare import assert_tables_equal, validate_full


def test_null_type_columns_are_valid(tmp_path):
    path = tmp_path / "nulls.parquet"
    t = pa.table({"n": pa.array([None] * 5, pa.null()),
                  "l": pa.array([[None], [], None, [None, None], []], pa.list_(pa.null()))})
    pq.write_table(t, path)
    got = quiver.read_table(str(path))
    validate_full(got)
    assert_tables_equal(got, pq.read_table(path))
    for batch in quiver.ParquetFile(str(path)).iter_batches(batch_size=2):
        pa.record_batch(batch).validate(full=True)


def test_map_value_projection_keeps_the_map_whole(tmp_path):
    path = tmp_path / "map.parquet"
    t = pa.table({"m": pa.array([[("k", {"a": 1, "b": 2})], None, []],
                                pa.map_(pa.string(), pa.struct([("a", pa.int64()), ("b", pa.int64())])))})
    pq.write_table(t, path)
    got = quiver.read_table(str(path), columns=["m.key_value.key", "m.key_value.value.a"])
    validate_full(got)
    assert_tables_equal(got, pq.read_table(path))


def _d8_parts():
    return [pa.array([f"{p}{i}" for i in range(100)]).dictionary_encode()
            .cast(pa.dictionary(pa.int8(), pa.string())) for p in "ab"]


def test_batches_take_the_page_dictionary_as_pyarrow_does(tmp_path):
    # 2 row groups of 100 distinct values, dictionary<int8>: every batch's
    # dictionary is its row group's page dictionary (pyarrow's too), one
    # copy shared by the row group's batches; indices as in the pages.
    path = tmp_path / "d8.parquet"
    pq.write_table(pa.table({"d": pa.chunked_array(_d8_parts())}), path, row_group_size=100)
    got = quiver.read_table(str(path))
    validate_full(got)
    assert_tables_equal(got, pq.read_table(path))
    batches = [pa.record_batch(b) for b in quiver.ParquetFile(str(path)).iter_batches(batch_size=60)]
    expected = list(pq.ParquetFile(path).iter_batches(batch_size=60))
    assert [b.num_rows for b in batches] == [60, 40, 60, 40]  # batches end at row groups
    assert pa.Table.from_batches(batches).equals(pa.Table.from_batches(expected))
    group_dictionaries = [expected[0].column(0).dictionary, expected[-1].column(0).dictionary]
    for i, b in enumerate(batches):
        b.validate(full=True)
        assert b.column(0).dictionary.equals(group_dictionaries[i // 2])
    address = [b.column(0).dictionary.buffers()[2].address for b in batches]
    assert address[0] == address[1] and address[2] == address[3] and address[0] != address[2]
    assert batches[1].column(0).indices.to_pylist() == list(range(60, 100))


def test_dictionary_fallback_within_a_batch(tmp_path):
    # One row group of 200 distinct values: pyarrow writes the first chunk's
    # dictionary, then falls back to PLAIN for the second. A batch of both
    # gathers its values in a memo (int8 indices suffice for each batch, not
    # for the row group; pyarrow's iter_batches stops at its third batch).
    path = tmp_path / "d8_fallback.parquet"
    parts = _d8_parts()
    pq.write_table(pa.table({"d": pa.chunked_array(parts)}), path, row_group_size=200)
    encodings = pq.ParquetFile(path).metadata.row_group(0).column(0).encodings
    assert "PLAIN" in encodings and "RLE_DICTIONARY" in encodings
    batches = [pa.record_batch(b) for b in quiver.ParquetFile(str(path)).iter_batches(batch_size=60)]
    for b in batches:
        b.validate(full=True)
    values = [v for b in batches for v in b.column(0).to_pylist()]
    assert values == pa.chunked_array(parts).to_pylist()
    assert [len(b.column(0).dictionary) for b in batches] == [100, 120, 60, 20]
    expected = pq.ParquetFile(path).iter_batches(batch_size=60)
    for b in batches[:2]:
        assert b.column(0).dictionary.equals(next(expected).column(0).dictionary)
    with pytest.raises(quiver.QuiverError, match="more than its index type can address"):
        quiver.read_table(str(path))


def test_non_nullable_dictionary_leaf_under_null_parents(tmp_path):
    path = tmp_path / "dict_struct.parquet"
    st = pa.struct([pa.field("a", pa.string(), nullable=False)])
    pq.write_table(pa.table({"s": pa.array([None, None, None], st)}), path)
    got = quiver.read_table(str(path), read_dictionary=["s.a"])
    validate_full(got)


def test_file_object_read_from_threads(tmp_path):
    path = tmp_path / "race.parquet"
    t = pa.table({"x": pa.array(range(20000), pa.int64()), "s": [str(i) for i in range(20000)]})
    pq.write_table(t, path, row_group_size=5000)
    expected = [pq.read_table(path).slice(5000 * i, 5000) for i in range(4)]
    with open(path, "rb") as f:
        pf = quiver.ParquetFile(f)
        results, errors = {}, []

        def read(i):
            try:
                for _ in range(5):
                    results[i] = pa.table(pf.read_row_group(i))
                    assert results[i].equals(expected[i])
            except Exception as e:  # noqa: BLE001
                errors.append(e)

        threads = [threading.Thread(target=read, args=(i,)) for i in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    assert not errors, errors


def test_iter_batches_from_two_threads_is_an_error_not_a_race(tmp_path):
    path = tmp_path / "iter.parquet"
    pq.write_table(pa.table({"x": pa.array(range(400000), pa.int64())}), path, row_group_size=50000)
    it = iter(quiver.ParquetFile(str(path)).iter_batches(batch_size=1000))
    rows, errors = [], []

    def drain():
        while True:
            try:
                b = next(it)
            except StopIteration:
                return
            except ValueError as e:
                errors.append(str(e))
                continue
            rows.append(b.num_rows)

    threads = [threading.Thread(target=drain) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sum(rows) == 400000
    assert all("already executing" in e for e in errors)
