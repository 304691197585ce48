"""use_threads=True (the default, as pyarrow's): row groups and columns decoded on Quiver's
thread pool give what one thread gives, and what pyarrow reads: the writer matrix's types
over many row groups, nested columns, column and row group selections, filters, iter_batches,
file object and bytes sources, read_stats, and errors (a corrupt page in row group 3 column
5 gives the same message both ways). QUIVER_MIN_TASK_WORK=0 sends these small files down the
parallel path (reads of under 1 MiB otherwise stay on the calling thread); one test reads a
larger file with the default threshold."""

import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import quiver
from arrow_samples import random_array, writer_samples
from reader_compare import assert_tables_equal, batches_to_table, to_table, validate_full

ROWS = 3000


@pytest.fixture(autouse=True)
def parallel_small_reads(monkeypatch):
    monkeypatch.setenv("QUIVER_MIN_TASK_WORK", "0")


def _matrix_table(rng):
    """A column per writer sample type (random values, nulls), nested ones included."""
    columns = {}
    for name, sample in writer_samples():
        try:
            arr = random_array(sample.type, ROWS, rng)
        except Exception:  # a type random_array does not generate: the sample, tiled
            arr = pa.concat_arrays([sample] * (ROWS // len(sample) + 1)).slice(0, ROWS)
        columns[name] = arr
    table = pa.table(columns)
    keep = []
    for name in table.column_names:  # only what pyarrow writes and reads back
        try:
            sink = pa.BufferOutputStream()
            pq.write_table(table.select([name]).slice(0, 5), sink)
            pq.read_table(pa.BufferReader(sink.getvalue()))
            keep.append(name)
        except (pa.ArrowException, NotImplementedError):
            pass
    return table.select(keep)


@pytest.fixture(scope="module")
def matrix_file(tmp_path_factory):
    import random

    table = _matrix_table(random.Random(45))
    path = tmp_path_factory.mktemp("threads") / "matrix.parquet"
    pq.write_table(table, path, row_group_size=250, compression="zstd")  # 12 row groups
    assert pq.ParquetFile(path).num_row_groups == 12
    return path


def _both_ways(read):
    """read(use_threads) with and without threads: equal, valid tables and equal stats."""
    one = read(False)
    many = read(True)
    validate_full(to_table(many))
    assert_tables_equal(many, to_table(one))
    return many


def test_matrix_equals_one_thread_and_pyarrow(matrix_file):
    expected = pq.read_table(matrix_file)
    f = quiver.ParquetFile(matrix_file)
    stats = {}
    for threads in (False, True):
        got = f.read(use_threads=threads)
        validate_full(to_table(got))
        assert_tables_equal(got, expected)
        stats[threads] = f.read_stats
    assert stats[True] == stats[False]
    assert stats[True]["pages_decompressed"] > 0
    assert_tables_equal(quiver.read_table(matrix_file), expected)  # default: threads


def test_selections(matrix_file):
    f = quiver.ParquetFile(matrix_file)
    pf = pq.ParquetFile(matrix_file)
    names = pf.schema_arrow.names
    some = [names[5], names[1], names[-1]]
    got = _both_ways(lambda t: f.read(columns=some, use_threads=t))
    assert_tables_equal(got, pq.read_table(matrix_file, columns=some))
    got = _both_ways(lambda t: f.read_row_groups([5, 0, 3], columns=some, use_threads=t))
    assert_tables_equal(got, pf.read_row_groups([5, 0, 3], columns=some))
    got = _both_ways(lambda t: f.read_row_group(7, use_threads=t))
    assert_tables_equal(got, pf.read_row_group(7))
    got = _both_ways(lambda t: quiver.read_table(matrix_file, row_groups=[2, 9], use_threads=t))
    assert_tables_equal(got, pf.read_row_groups([2, 9]))
    assert quiver.read_table(matrix_file, columns=[], use_threads=True).num_rows == ROWS


def test_nested_leaf_paths():
    n = 4000
    table = pa.table({
        "s": pa.array([{"a": i, "b": str(i) if i % 3 else None} for i in range(n)]),
        "l": pa.array([[i, i + 1] if i % 4 else None for i in range(n)], pa.list_(pa.int64())),
        "m": pa.array([[("k", i)] for i in range(n)], pa.map_(pa.string(), pa.int32())),
        "x": pa.array(range(n), pa.int64()),
    })
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, row_group_size=500)
    data = sink.getvalue()
    expected = pq.read_table(pa.BufferReader(data))
    for columns in (None, ["l", "s"], ["m", "x"]):
        got = _both_ways(lambda t: quiver.read_table(data, columns=columns, use_threads=t))
        assert_tables_equal(got, expected.select(columns or expected.column_names))
    # Dotted leaf paths (a struct keeps the selected fields; pyarrow names them
    # differently): threads give what one thread gives.
    for columns in (["s.b", "x"], ["m", "s.a"]):
        got = _both_ways(lambda t: quiver.read_table(data, columns=columns, use_threads=t))
        assert to_table(got).column_names == [c.split(".")[0] for c in columns]


@pytest.mark.parametrize("filters", [
    [("int64", ">", 0)],
    [[("int32", "<", 0)], [("int8", ">", 5)]],
    [("int16", "in", [1, 2, 3, -7])],
])
def test_filters(matrix_file, filters):
    # (pyarrow's filter has no kernel for the view types: flat columns without them.)
    flat = ["bool", "int8", "int16", "int32", "int64", "uint32", "float32", "float64",
            "decimal128", "date32", "timestamp_ms_utc", "string", "binary", "large_string",
            "fixed_size_binary"]
    columns = [n for n in flat if n in pq.read_schema(matrix_file).names]
    assert len(columns) >= 10
    expected = pq.read_table(matrix_file, columns=columns, filters=filters)
    assert expected.num_rows < ROWS
    got = _both_ways(lambda t: quiver.read_table(matrix_file, columns=columns, filters=filters,
                                                 use_threads=t))
    assert_tables_equal(got, expected)


def test_iter_batches(matrix_file):
    f = quiver.ParquetFile(matrix_file)
    pf = pq.ParquetFile(matrix_file)
    for kwargs in ({"batch_size": 700}, {"batch_size": 100, "columns": ["int64", "string"]},
                   {"batch_size": 1000, "row_groups": [3, 1]}):
        expected = batches_to_table(list(pf.iter_batches(**kwargs)), None)
        results, sizes = [], []
        for threads in (False, True):
            batches = list(f.iter_batches(use_threads=threads, **kwargs))
            sizes.append([to_table(b).num_rows for b in batches])
            results.append(batches_to_table(batches, None))
        assert sizes[0] == sizes[1] and max(sizes[1]) <= kwargs["batch_size"]
        assert_tables_equal(results[1], results[0])
        assert_tables_equal(results[1], expected)


def test_file_object_and_bytes_sources(matrix_file):
    data = matrix_file.read_bytes()
    expected = pq.read_table(matrix_file)
    assert_tables_equal(quiver.read_table(io.BytesIO(data), use_threads=True), expected)
    assert_tables_equal(quiver.read_table(data, use_threads=True), expected)
    assert_tables_equal(quiver.read_table(memoryview(data), use_threads=True), expected)
    with open(matrix_file, "rb") as fh:
        assert_tables_equal(quiver.read_table(fh, use_threads=True), expected)


def _plain_ints(path):
    table = pa.table({f"c{i}": pa.array(range(i, i + 5000), pa.int64()) for i in range(8)})
    pq.write_table(table, path, row_group_size=500, compression="none", use_dictionary=False)
    return table


def _corrupt(path, chunks):
    """The first page header of each (row group, column) chunk overwritten with 0xFF."""
    meta = pq.ParquetFile(path).metadata
    data = bytearray(path.read_bytes())
    for group, column in chunks:
        offset = meta.row_group(group).column(column).data_page_offset
        data[offset:offset + 6] = b"\xff" * 6
    path.write_bytes(bytes(data))


def test_first_error_in_file_order(tmp_path):
    path = tmp_path / "bad.parquet"
    _plain_ints(path)
    _corrupt(path, [(3, 5), (3, 7), (8, 0)])
    with pytest.raises((pa.ArrowException, OSError)):
        pq.read_table(path)
    messages = set()
    for threads in [False] + [True] * 10:
        with pytest.raises(quiver.QuiverError) as e:
            quiver.read_table(path, use_threads=threads)
        messages.add(str(e.value))
    assert len(messages) == 1, messages
    message = messages.pop()
    assert "row group 3" in message and "c5" in message, message
    # Row groups without the corrupt chunks read as pyarrow reads them.
    got = _both_ways(lambda t: quiver.read_table(path, row_groups=[0, 1, 2, 4], use_threads=t))
    assert_tables_equal(got, pq.ParquetFile(path).read_row_groups([0, 1, 2, 4]))


def test_default_threshold_larger_file(tmp_path, monkeypatch):
    """Without QUIVER_MIN_TASK_WORK: a file of more than 1 MiB of column data (threads) and
    a single row group's single column (the calling thread) read as pyarrow does."""
    monkeypatch.delenv("QUIVER_MIN_TASK_WORK")
    n = 60_000
    table = pa.table({f"c{i}": pa.array([(j * (i + 3)) % 100_003 for j in range(n)], pa.int64())
                      for i in range(16)})
    path = tmp_path / "wide.parquet"
    pq.write_table(table, path, row_group_size=20_000, compression="zstd")
    f = quiver.ParquetFile(path)
    stats = []
    for threads in (False, True):
        assert_tables_equal(f.read(use_threads=threads), table)
        stats.append(f.read_stats)
        assert_tables_equal(f.read_row_group(1, columns=["c3"], use_threads=threads),
                            table.slice(20_000, 20_000).select(["c3"]))
    assert stats[0] == stats[1]
    assert stats[1]["values_decoded"] == 16 * n


def test_filter_mask_in_pieces(tmp_path):
    """A filter column of one row group longer than two of the mask's pieces (64 Ki rows):
    with threads the mask is evaluated in pieces on the pool; the rows and the filter
    column's values are pyarrow's decode-then-filter, and the same without threads."""
    n = 300_001
    k = pa.array([(j * 7919) % 1000 for j in range(n)], pa.int32())
    s = pa.array([None if j % 97 == 0 else f"v{j % 5000}" for j in range(n)])
    table = pa.table({"k": k, "s": s, "p": pa.array(range(n), pa.int64())})
    path = tmp_path / "one_group.parquet"
    pq.write_table(table, path, row_group_size=n)
    for filters in ([("k", "<", 3)], [("s", ">=", "v4990")], [("k", ">", 10), ("s", "!=", "v7")]):
        expected = pq.read_table(path).filter(pq.filters_to_expression(filters))
        for columns in (None, ["p"], ["k", "p"]):
            want = expected.select(columns) if columns is not None else expected
            got = _both_ways(lambda t: quiver.read_table(path, columns=columns, filters=filters,
                                                         use_threads=t))
            assert_tables_equal(got, want)
