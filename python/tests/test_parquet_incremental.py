"""quiver.ParquetWriter: incremental writes (write_batch / write_table, mixed), row group
splitting, file objects, and the result as pyarrow, duckdb and polars read it.

Row groups (file_writer.h): write_batch appends rows to the open row group, starting a new
one every row_group_size rows; write_table first ends the open row group, then writes
row groups of row_group_size rows (as pyarrow's write_table)."""

import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parquet_pages
import quiver
from arrow_samples import nested_column, random_array
from test_parquet_write import (check_pyarrow_read, check_reader, check_structure, compare_file_statistics,
                                duck, read_duckdb, read_polars, write_reference)  # noqa: F401 (fixture)


def make_schema():
    return pa.schema([pa.field("id", pa.int64(), nullable=False),
                      pa.field("s", pa.string(), metadata={"note": "text"}),
                      pa.field("l", pa.list_(pa.field("item", pa.int32(), nullable=False))),
                      pa.field("st", pa.struct([("x", pa.float64()), ("d", pa.dictionary(pa.int32(), pa.string()))]))],
                     metadata={"writer": "incremental"})


def random_part(schema, start, n, rng):
    cols = [pa.array(range(start, start + n), pa.int64())]
    for f in list(schema)[1:]:
        cols.append(random_array(f.type, n, rng, null_prob=0.2))
    return pa.Table.from_arrays(cols, schema=schema)


def expected_row_groups(ops, size):
    """Row group sizes the writer produces for ops [(kind, rows)]."""
    groups, open_rows = [], 0
    for kind, n in ops:
        if kind == "table":
            if open_rows:
                groups.append(open_rows)
                open_rows = 0
            full, rest = divmod(n, size)
            groups += [size] * full + ([rest] if rest else [])
        else:
            while n:
                take = min(n, size - open_rows)
                open_rows += take
                n -= take
                if open_rows == size:
                    groups.append(open_rows)
                    open_rows = 0
    if open_rows:
        groups.append(open_rows)
    return groups


def test_expected_row_groups_model():
    assert expected_row_groups([("batch", 3), ("batch", 4), ("table", 5), ("batch", 2)], 4) == [4, 3, 4, 1, 2]


@pytest.mark.parametrize("trial", range(12))
def test_random_sequences(tmp_path, rng, duck, trial):
    """Random sequences of write_batch / write_table calls (empty ones too), random
    row_group_size and options: the file is the concatenation of everything written."""
    schema = make_schema()
    size = rng.choice([1, 3, 50, 1000, 10**6])
    opts = {"row_group_size": size, "compression": rng.choice(["none", "snappy", "zstd"]),
            "data_page_version": rng.choice(["1.0", "2.0"]), "use_dictionary": rng.random() < 0.5,
            "max_rows_per_page": rng.choice([5, 20000])}
    path = tmp_path / "w.parquet"
    parts, ops, start = [], [], 0
    w = quiver.ParquetWriter(str(path), schema, **opts)
    assert w.is_open
    for _ in range(rng.randint(1, 8)):
        n = rng.choice([0, 1, 7, 60, 250])
        part = random_part(schema, start, n, rng)
        start += n
        kind = rng.choice(["batch", "table", "batches", "reader"])
        if kind == "batch":
            w.write_batch(part.combine_chunks().to_batches()[0] if n else
                          pa.RecordBatch.from_pylist([], schema=schema))
            ops.append(("batch", n))
        elif kind == "batches":
            # A chunked table through write_batch: one batch per chunk, in order.
            chunked = pa.concat_tables([part.slice(0, n // 2), part.slice(n // 2)])
            w.write_batch(chunked)
            ops += [("batch", n // 2), ("batch", n - n // 2)]
        elif kind == "reader":
            w.write_table(pa.RecordBatchReader.from_batches(schema, part.to_batches()))
            ops.append(("table", n))
        else:
            w.write_table(part)
            ops.append(("table", n))
        parts.append(part)
    w.close()
    assert not w.is_open
    table = pa.concat_tables(parts) if parts else schema.empty_table()
    fs = check_structure(path, schema, opts)
    rows = [rg.num_rows for rg in fs.row_groups]
    assert rows == [r for r in expected_row_groups(ops, size) if r], (ops, size, rows)
    check_pyarrow_read(path, table)
    ref = tmp_path / "ref.parquet"
    write_reference(table, str(ref), opts, rows, dense=True)
    compare_file_statistics(path, ref)
    check_reader("duckdb", lambda p: read_duckdb(duck, p), path, ref, table)
    check_reader("polars", read_polars, path, ref, table)


def test_write_batch_fills_row_groups(tmp_path):
    schema = pa.schema([("a", pa.int32())])
    path = tmp_path / "b.parquet"
    with quiver.ParquetWriter(str(path), schema, row_group_size=10) as w:
        for i in range(7):
            w.write_batch(pa.record_batch([pa.array(range(i * 4, i * 4 + 4), pa.int32())], schema=schema))
    md = pq.ParquetFile(path).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [10, 10, 8]
    assert pq.read_table(path).column(0).to_pylist() == list(range(28))


def test_write_table_starts_row_groups(tmp_path):
    schema = pa.schema([("a", pa.int32())])
    path = tmp_path / "t.parquet"
    with quiver.ParquetWriter(str(path), schema, row_group_size=4) as w:
        w.write_batch(pa.record_batch([pa.array([0, 1], pa.int32())], schema=schema))
        w.write_table(pa.table({"a": pa.array(range(2, 11), pa.int32())}))
        w.write_table(pa.table({"a": pa.array([11], pa.int32())}))
    md = pq.ParquetFile(path).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [2, 4, 4, 1, 1]
    assert pq.read_table(path).column(0).to_pylist() == list(range(12))


def test_same_as_pyarrow_writer(tmp_path, rng):
    """write_table calls: the same row groups, statistics and data as pyarrow's ParquetWriter."""
    schema = make_schema()
    parts = [random_part(schema, i * 100, rng.choice([0, 10, 100, 333]), rng) for i in range(5)]
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    opts = {"row_group_size": 64, "compression": "zstd"}
    with quiver.ParquetWriter(str(q), schema, **opts) as w:
        for part in parts:
            w.write_table(part)
    dense = pa.schema([f.with_type(pa.struct([("x", pa.float64()), ("d", pa.string())])) if f.name == "st" else f
                       for f in schema], metadata=schema.metadata)
    with pq.ParquetWriter(p, dense, compression="zstd") as w:
        for part in parts:
            if part.num_rows:
                w.write_table(part.cast(dense), row_group_size=64)
    qm, pm = pq.ParquetFile(q).metadata, pq.ParquetFile(p).metadata
    assert [qm.row_group(i).num_rows for i in range(qm.num_row_groups)] == \
        [pm.row_group(i).num_rows for i in range(pm.num_row_groups)]
    compare_file_statistics(q, p)
    assert pq.read_table(q).cast(dense).equals(pq.read_table(p))
    check_pyarrow_read(q, pa.concat_tables(parts))


def test_file_object_and_pathlike(tmp_path):
    schema = pa.schema([("a", pa.int64()), ("b", pa.string())])
    t1 = pa.table({"a": [1, 2], "b": ["x", None]})
    t2 = pa.table({"a": [3], "b": ["z"]})
    sink = io.BytesIO()
    w = quiver.ParquetWriter(sink, schema, row_group_size=2)
    w.write_table(t1)
    first = sink.getvalue()  # the finished row group is passed on at once
    assert first[:4] == b"PAR1" and len(first) > 4
    w.write_batch(t2)
    assert sink.getvalue() == first  # a row group still open is not
    w.close()
    data = sink.getvalue()
    assert data[:4] == b"PAR1" and data[-4:] == b"PAR1"
    assert pq.read_table(io.BytesIO(data)).equals(pa.concat_tables([t1, t2]))
    assert [rg.num_rows for rg in parquet_pages.read_structure(data).row_groups] == [2, 1]
    # pathlib.Path destinations and write_parquet to a file object.
    with quiver.ParquetWriter(tmp_path / "p.parquet", schema) as w:
        w.write_table(t1)
    assert pq.read_table(tmp_path / "p.parquet").equals(t1)
    sink = io.BytesIO()
    quiver.write_parquet(t2, sink)
    assert pq.read_table(io.BytesIO(sink.getvalue())).equals(t2)


def test_no_rows(tmp_path):
    """A writer closed without rows (or with only empty batches) makes a valid empty file
    carrying the schema and its metadata."""
    schema = make_schema()
    for name, feed in (("none", []), ("empty", [schema.empty_table(), pa.RecordBatch.from_pylist([], schema=schema)])):
        path = tmp_path / f"{name}.parquet"
        with quiver.ParquetWriter(str(path), schema) as w:
            for x in feed:
                if isinstance(x, pa.RecordBatch):
                    w.write_batch(x)
                else:
                    w.write_table(x)
        got = pq.read_table(path)
        assert got.num_rows == 0
        assert got.schema.metadata == schema.metadata
        assert got.schema.field("s").metadata == {b"note": b"text"}
        assert pq.ParquetFile(path).metadata.num_row_groups == 0


def test_many_small_batches_nested(tmp_path, rng, duck):
    """Hundreds of tiny batches of nested, sliced data into a few row groups."""
    pieces = []
    for i in range(300):
        arr, _ = nested_column(pa.string(), ["struct", "list"], rng.randint(0, 5), rng, True, force_slice=True)
        pieces.append(arr)
    schema = pa.schema([pa.field("c", pieces[0].type)])
    path = tmp_path / "n.parquet"
    with quiver.ParquetWriter(str(path), schema, row_group_size=97, max_rows_per_page=13) as w:
        for arr in pieces:
            w.write_batch(pa.record_batch([arr], schema=schema))
    table = pa.Table.from_batches([pa.record_batch([a], schema=schema) for a in pieces], schema=schema)
    check_structure(path, schema, {"row_group_size": 97, "max_rows_per_page": 13})
    check_pyarrow_read(path, table)
    md = pq.ParquetFile(path).metadata
    sizes = [md.row_group(i).num_rows for i in range(md.num_row_groups)]
    assert sizes == [97] * (table.num_rows // 97) + ([table.num_rows % 97] if table.num_rows % 97 else [])
    ref = tmp_path / "ref.parquet"
    write_reference(table, str(ref), {}, sizes)
    compare_file_statistics(path, ref)
    check_reader("duckdb", lambda p: read_duckdb(duck, p), path, ref, table)


def test_add_key_value_metadata_as_pyarrow(tmp_path):
    # The footer's pairs after add_key_value_metadata, judged by pyarrow's own
    # writer given the same calls: the schema's pairs, a key the schema has
    # taking the added value, new keys after them; ARROW:schema still readable.
    t = pa.table({"a": [1, 2, 3]}).replace_schema_metadata({"owner": "x", "k": "old"})
    calls = [{"k": "new", "b": "1"}, {b"c": b"\xff\x00", "b": "2"}]
    ours, theirs = tmp_path / "q.parquet", tmp_path / "p.parquet"
    with quiver.ParquetWriter(str(ours), t.schema) as w:
        w.write_table(t)
        for kv in calls:
            w.add_key_value_metadata(kv)
    with pq.ParquetWriter(str(theirs), t.schema) as w:
        w.write_table(t)
        for kv in calls:
            w.add_key_value_metadata(kv)
    got, want = pq.read_metadata(ours).metadata, pq.read_metadata(theirs).metadata
    assert {k: v for k, v in got.items() if k != b"ARROW:schema"} == \
        {k: v for k, v in want.items() if k != b"ARROW:schema"}
    assert got[b"k"] == b"new" and got[b"b"] == b"2" and got[b"c"] == b"\xff\x00"
    assert pq.read_table(ours).equals(pq.read_table(theirs), check_metadata=True)
    assert quiver.ParquetFile(str(ours)).metadata.metadata[b"b"] == b"2"


def test_add_key_value_metadata_errors(tmp_path):
    t = pa.table({"a": [1]})
    w = quiver.ParquetWriter(str(tmp_path / "e.parquet"), t.schema)
    with pytest.raises(quiver.InvalidError, match="ARROW:schema"):
        w.add_key_value_metadata({"ARROW:schema": "x"})
    with pytest.raises(TypeError, match="str or bytes"):
        w.add_key_value_metadata({"a": 1})
    w.write_table(t)
    w.close()
    with pytest.raises(quiver.InvalidError, match="closed"):
        w.add_key_value_metadata({"a": "1"})
    # store_schema=False leaves the key free (here the stored schema of a
    # uint32 column, which pyarrow then reads it as).
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"a": pa.array([1], pa.uint32())}), other)
    stored = pq.read_metadata(other).metadata[b"ARROW:schema"]
    path = tmp_path / "free.parquet"
    with quiver.ParquetWriter(str(path), pa.schema([("a", pa.uint32())]), store_schema=False) as w:
        w.write_table(pa.table({"a": pa.array([7], pa.uint32())}))
        w.add_key_value_metadata({"ARROW:schema": stored})
    assert pq.read_metadata(path).metadata == {b"ARROW:schema": stored}
    assert pq.read_table(path).column("a").to_pylist() == [7]


def test_writer_metadata_collector(tmp_path):
    t = pa.table({"a": list(range(10))})
    collected = []
    path = tmp_path / "c.parquet"
    with quiver.ParquetWriter(str(path), t.schema, metadata_collector=collected,
                              row_group_size=4) as w:
        w.write_table(t)
    assert len(collected) == 1
    md = collected[0]
    assert md.num_rows == 10 and md.num_row_groups == 3
    assert md.num_row_groups == pq.read_metadata(path).num_row_groups
    sink = quiver.BufferOutputStream()
    with quiver.ParquetWriter(sink, t.schema, metadata_collector=collected) as w:
        w.write_table(t)
    assert len(collected) == 2 and collected[1].num_rows == 10

    class WriteOnly:
        def write(self, b):
            return len(b)

    with pytest.raises(quiver.NotImplementedError, match="cannot be read back"):
        quiver.ParquetWriter(WriteOnly(), t.schema, metadata_collector=[])
    with pytest.raises(TypeError, match="must be a list"):
        quiver.ParquetWriter(str(tmp_path / "x.parquet"), t.schema, metadata_collector=3)
    assert not (tmp_path / "x.parquet").exists()
