"""quiver.append_parquet and `quiver append`: rows added to an existing Parquet file
without rewriting it (issue 46, section 4).

Judged by pyarrow, duckdb and polars (the appended file reads as the concatenation, the
same as a file pyarrow writes from the concatenated table), by the bytes (everything
before the old footer unchanged at its offset) and by `quiver dedup` (every page of the
old file shared with the new one).
"""

import json
import os
import subprocess
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq
import pytest

import parquet_pages as pp
import quiver

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))
needs_cli = pytest.mark.skipif(not (CLI.is_file() and os.access(CLI, os.X_OK)),
                               reason=f"the quiver CLI is not built at {CLI}")


def cli(*args):
    return subprocess.run([str(CLI), *map(str, args)], capture_output=True, timeout=120)


def data_end(data):
    """Where a Parquet file's footer starts."""
    footer_len = int.from_bytes(data[-8:-4], "little")
    return len(data) - 8 - footer_len


def rows(start, n):
    """Nulls, nested types and a dictionary column."""
    idx = range(start, start + n)
    return pa.table({
        "id": pa.array(idx, pa.int64()),
        "s": pa.array([None if i % 7 == 0 else f"v{i % 13}" for i in idx]),
        "f": pa.array([None if i % 11 == 0 else i / 4 for i in idx], pa.float64()),
        "l": pa.array([None if i % 5 == 0 else list(range(i % 4)) for i in idx], pa.list_(pa.int32())),
        "st": pa.array([None if i % 9 == 0 else {"x": i, "y": f"y{i % 3}"} for i in idx],
                       pa.struct([("x", pa.int64()), ("y", pa.string())])),
        "d": pa.array([f"cat{i % 5}" if i % 6 else None for i in idx]).dictionary_encode(),
    })


def no_temp_files(folder):
    return [p.name for p in Path(folder).iterdir() if ".quiver-" in p.name] == []


@pytest.mark.parametrize("page_index", [True, False])
def test_several_appends_read_as_the_concatenation(tmp_path, page_index):
    path = tmp_path / "f.parquet"
    parts = [rows(0, 3000)]
    quiver.write_parquet(parts[0], str(path), write_page_index=page_index, row_group_size=1000)
    for k, n in enumerate([1, 2500, 40]):
        before = path.read_bytes()
        part = rows(10_000 * (k + 1), n)
        quiver.append_parquet(str(path), part, write_page_index=page_index, row_group_size=1000)
        parts.append(part)
        after = path.read_bytes()
        end = data_end(before)
        assert after[:end] == before[:end]
        assert len(after) > end
        assert no_temp_files(tmp_path)
    expected = pa.concat_tables(parts)
    got = pq.read_table(path)
    assert got.schema == expected.schema
    assert got.equals(expected)
    md = pq.ParquetFile(path).metadata
    assert md.num_rows == expected.num_rows
    assert md.num_row_groups == 3 + 1 + 3 + 1
    for i in range(md.num_row_groups):
        assert md.row_group(i).column(0).has_column_index == page_index
        assert md.row_group(i).column(0).has_offset_index == page_index
    # pyarrow reads every page through the page index too.
    if page_index:
        assert pq.ParquetFile(path).read_row_group(7).equals(parts[-1].combine_chunks())

    # duckdb and polars: the appended file reads as the concatenation written by pyarrow.
    ref = tmp_path / "ref.parquet"
    pq.write_table(expected, ref)
    for query in ["SELECT * FROM read_parquet('{}') ORDER BY id",
                  "SELECT count(*), sum(id), count(s), sum(f), count(l), sum(st.x), count(d) FROM read_parquet('{}')"]:
        assert duckdb.sql(query.format(path)).fetchall() == duckdb.sql(query.format(ref)).fetchall()
    assert pl.read_parquet(path).equals(pl.read_parquet(ref))
    assert quiver.read_table(str(path)).to_pyarrow().equals(expected)


def test_an_old_file_written_by_pyarrow(tmp_path):
    path = tmp_path / "f.parquet"
    first = rows(0, 500)
    pq.write_table(first, path)  # no page index, pyarrow's created_by
    before = path.read_bytes()
    more = rows(500, 300)
    quiver.append_parquet(path, more)
    assert path.read_bytes()[:data_end(before)] == before[:data_end(before)]
    assert pq.read_table(path).equals(pa.concat_tables([first, more]))
    md = pq.ParquetFile(path).metadata
    assert md.created_by == pq.ParquetFile(pa.BufferReader(before)).metadata.created_by
    assert not md.row_group(0).column(0).has_column_index
    assert md.row_group(1).column(0).has_column_index


def test_a_stream_is_appended(tmp_path):
    path = tmp_path / "f.parquet"
    quiver.write_parquet(rows(0, 10), str(path))
    more = rows(10, 2000)
    reader = pa.RecordBatchReader.from_batches(more.schema, more.to_batches(max_chunksize=300))
    quiver.append_parquet(str(path), reader, row_group_size=1000)
    assert pq.read_table(path).equals(pa.concat_tables([rows(0, 10), more]))
    assert pq.ParquetFile(path).metadata.num_row_groups == 3


def test_key_value_metadata_is_kept(tmp_path):
    import pandas as pd
    path = tmp_path / "f.parquet"
    df = pd.DataFrame({"x": [1, 2], "y": ["a", "b"]}, index=pd.Index([10, 11], name="key"))
    table = pa.Table.from_pandas(df).replace_schema_metadata(
        {**pa.Table.from_pandas(df).schema.metadata, b"owner": b"team"})
    pq.write_table(table, path)
    old = pq.ParquetFile(path).metadata.metadata
    more = pd.DataFrame({"x": [3], "y": ["c"]}, index=pd.Index([12], name="key"))
    quiver.append_parquet(str(path), pa.Table.from_pandas(more))
    assert pq.ParquetFile(path).metadata.metadata == old  # ARROW:schema and pandas too
    assert pd.read_parquet(path).equals(pd.concat([df, more]))


def _blooms(data):
    fs = pp.read_structure(data)
    return [[None if c.raw.get(3).get(14) is None else
             bytes(data[c.raw.get(3).get(14):c.raw.get(3).get(14) + c.raw.get(3).get(15)])
             for c in rg.columns] for rg in fs.row_groups]


def test_new_row_groups_get_bloom_filters_as_pyarrow_writes_them(tmp_path):
    path = tmp_path / "f.parquet"
    first, more = rows(0, 1000), rows(1000, 800)
    opts = {"bloom_filter_options": {"id": {"ndv": 1000, "fpp": 0.01}, "s": {}}}
    quiver.write_parquet(first, str(path), **opts)
    before = path.read_bytes()
    quiver.append_parquet(str(path), more, **opts)
    ref = tmp_path / "ref.parquet"
    pq.write_table(more, ref, **opts)
    got = _blooms(path.read_bytes())
    assert got[0] == _blooms(before)[0]
    assert got[1] == _blooms(ref.read_bytes())[0]
    assert got[1][0] is not None and got[1][1] is not None


def test_sorting_columns_kept_only_when_the_order_holds(tmp_path):
    path = tmp_path / "f.parquet"
    t = pa.table({"k": pa.array([1, 2, 3], pa.int64()), "v": ["a", "b", "c"]})
    quiver.write_parquet(t, str(path), sorting_columns=[pq.SortingColumn(0)])
    quiver.append_parquet(str(path), pa.table({"k": pa.array([3, 5], pa.int64()), "v": ["d", "e"]}))
    md = pq.ParquetFile(path).metadata
    assert md.row_group(1).sorting_columns == (pq.SortingColumn(0),)
    # 4 < 5, the file's last key: the new row group declares no order.
    quiver.append_parquet(str(path), pa.table({"k": pa.array([4, 9], pa.int64()), "v": ["f", "g"]}))
    md = pq.ParquetFile(path).metadata
    assert md.row_group(0).sorting_columns == (pq.SortingColumn(0),)
    assert md.row_group(2).sorting_columns == ()
    # Declared in the options and broken: an error, the file unchanged.
    before = path.read_bytes()
    with pytest.raises(quiver.InvalidError, match="sorting_columns"):
        quiver.append_parquet(str(path), pa.table({"k": pa.array([8, 7], pa.int64()), "v": ["h", "i"]}),
                              sorting_columns=[pq.SortingColumn(0)])
    assert path.read_bytes() == before
    assert no_temp_files(tmp_path)


def test_schema_mismatch_is_refused_and_the_file_unchanged(tmp_path):
    path = tmp_path / "f.parquet"
    quiver.write_parquet(rows(0, 100), str(path))
    before = path.read_bytes()
    bad = rows(0, 10).set_column(1, "s", pa.array(range(10), pa.int64()))
    with pytest.raises(quiver.InvalidError, match="field 's': the file has type string, the new rows int64"):
        quiver.append_parquet(str(path), bad)
    with pytest.raises(quiver.InvalidError, match="lack the file's field 'd'"):
        quiver.append_parquet(str(path), rows(0, 10).drop_columns(["d"]))
    renamed = rows(0, 10).rename_columns(["id", "s", "f", "l", "st", "D"])
    with pytest.raises(quiver.InvalidError, match="field 5 is 'd' in the file but 'D'"):
        quiver.append_parquet(str(path), renamed)
    # An option that would store a column differently.
    ts = tmp_path / "ts.parquet"
    t = pa.table({"t": pa.array([1, 2], pa.timestamp("ns"))})
    quiver.write_parquet(t, str(ts))
    ts_before = ts.read_bytes()
    with pytest.raises(quiver.InvalidError, match="column 't'"):
        quiver.append_parquet(str(ts), t, version="2.4")
    assert ts.read_bytes() == ts_before
    # Whole-file options an append cannot honour.
    with pytest.raises(quiver.InvalidError, match="store_schema"):
        quiver.append_parquet(str(path), rows(0, 10), store_schema=False)
    with pytest.raises(NotImplementedError, match="encryption_properties"):
        quiver.append_parquet(str(path), rows(0, 10),
                              encryption_properties=quiver.encryption_properties(b"k" * 16))
    assert path.read_bytes() == before
    assert no_temp_files(tmp_path)


def test_not_parquet_and_truncated_files_are_refused(tmp_path):
    path = tmp_path / "f.parquet"
    path.write_bytes(b"this is not a Parquet file, it is text\n" * 3)
    before = path.read_bytes()
    with pytest.raises(quiver.QuiverError, match="appending to '.*f.parquet'"):
        quiver.append_parquet(str(path), rows(0, 5))
    assert path.read_bytes() == before
    quiver.write_parquet(rows(0, 100), str(path))
    cut = path.read_bytes()[:-30]
    path.write_bytes(cut)
    with pytest.raises(quiver.QuiverError, match="appending to"):
        quiver.append_parquet(str(path), rows(0, 5))
    assert path.read_bytes() == cut
    with pytest.raises(quiver.QuiverError, match="No such file"):
        quiver.append_parquet(str(tmp_path / "missing.parquet"), rows(0, 5))
    with pytest.raises(quiver.InvalidError, match="local files only"):
        quiver.append_parquet("s3://bucket/f.parquet", rows(0, 5))
    assert no_temp_files(tmp_path)


@needs_cli
def test_dedup_shares_every_old_page(tmp_path):
    old = tmp_path / "old.parquet"
    new = tmp_path / "new.parquet"
    first = rows(0, 200_000)
    opts = dict(use_content_defined_chunking=True, compression="zstd")
    quiver.write_parquet(first, str(old), **opts)
    new.write_bytes(old.read_bytes())
    quiver.append_parquet(str(new), rows(200_000, 5000), **opts)
    out = cli("dedup", old, new, "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    base, appended = report["files"]
    page = appended["page_level"]
    # Every page of the old file is in the new one (and a new page may equal an old one:
    # the 'd' column's dictionary page); only the new rows' pages are new.
    assert page["shared_count"] >= base["pages"]
    assert page["shared_bytes"] >= base["page_bytes"]
    assert page["new_bytes"] <= appended["page_bytes"] - base["page_bytes"]
    assert appended["pages"] > base["pages"]
    # Byte level (content-defined chunks of the whole file, as a store such as Xet cuts
    # it): everything but the chunk that straddles the old footer is shared.
    end = data_end(old.read_bytes())
    max_chunk = report["byte_chunker"]["max_size"]
    assert appended["byte_level"]["shared_bytes"] >= end - max_chunk
    assert appended["byte_level"]["new_bytes"] <= appended["size"] - end + max_chunk


@needs_cli
def test_cli_append(tmp_path):
    path = tmp_path / "f.parquet"
    first = rows(0, 1000)
    quiver.write_parquet(first, str(path))
    arrow = tmp_path / "more.arrow"
    with ipc.new_file(arrow, first.schema) as w:
        w.write_table(rows(1000, 50))
    pq_in = tmp_path / "more.parquet"
    pq.write_table(rows(1050, 20), pq_in)
    before = path.read_bytes()
    out = cli("append", path, arrow, pq_in, "--compression", "zstd")
    assert out.returncode == 0, out.stderr
    assert b"appended 70 rows in 1 row group from 2 inputs; now 1070 rows" in out.stdout
    assert f"the first {data_end(before)} bytes kept in place".encode() in out.stdout
    assert pq.read_table(path).equals(pa.concat_tables([first, rows(1000, 70)]))
    assert path.read_bytes()[:data_end(before)] == before[:data_end(before)]
    # A schema mismatch: exit 1, the error names the field, the file unchanged.
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"id": pa.array([1], pa.int32())}), other)
    before = path.read_bytes()
    out = cli("append", path, other)
    assert out.returncode == 1
    assert b"field 'id': the file has type int64, the new rows int32" in out.stderr
    assert path.read_bytes() == before
    # The second input differs: named, nothing appended.
    out = cli("append", path, pq_in, other)
    assert out.returncode == 1
    assert b"field 'id': the file has type int64, the new rows int32" in out.stderr
    assert path.read_bytes() == before
    text = tmp_path / "text.parquet"
    text.write_bytes(b"not parquet at all, just some words")
    out = cli("append", text, pq_in)
    assert out.returncode == 1 and b"appending to" in out.stderr
    assert text.read_bytes() == b"not parquet at all, just some words"
    assert no_temp_files(tmp_path)
