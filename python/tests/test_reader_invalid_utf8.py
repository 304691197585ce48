"""String columns holding invalid UTF-8 (testdata/quiver/compat_utf8_*.parquet, written by
pyarrow, which reads them back unvalidated: its arrays fail ValidateFull).

Quiver refuses them by default with an error naming the file, row group, column, page and
the reader option invalid_utf8='binary'; with that option, each string leaf holding invalid
UTF-8 in the rows a read covers is read as binary (the others stay strings), through
read_table, ParquetFile.read, iter_batches (every batch with the reader's schema) and
read_dictionary, for dictionary and PLAIN pages, v1 and v2, nested list<string> and
struct<string>. The values are pyarrow's with those columns cast to binary.
"""

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import quiver
from reader_compare import assert_tables_equal, batches_to_table, to_table, validate_full

QUIVER_DATA = Path(__file__).resolve().parents[2] / "testdata" / "quiver"
FILES = {
    # file -> the columns pyarrow reads with invalid UTF-8
    "compat_utf8_dictionary.parquet": ["s"],
    "compat_utf8_plain.parquet": ["s"],
    "compat_utf8_v2.parquet": ["s", "p"],
    "compat_utf8_nested.parquet": ["l", "st"],
}


def as_binary(t):
    """`t` with its strings as binary (names and nullability kept)."""
    if t == pa.string():
        return pa.binary()
    if pa.types.is_dictionary(t):
        return pa.dictionary(t.index_type, as_binary(t.value_type))
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(as_binary(t.value_type)))
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(as_binary(f.type)) for f in t])
    return t


def expected(name, **options):
    """pyarrow's read with the invalid columns cast to binary (a cast that keeps the bytes)."""
    t = pq.read_table(QUIVER_DATA / name, **options)
    for column in FILES[name]:
        i = t.schema.get_field_index(column)
        target = as_binary(t.schema.field(i).type)
        t = t.set_column(i, t.schema.field(i).with_type(target), t.column(i).cast(target))
    return t


@pytest.mark.parametrize("name", sorted(FILES))
def test_default_error_names_where_and_the_option(name):
    with pytest.raises(quiver.InvalidError) as e:
        quiver.read_table(str(QUIVER_DATA / name))
    message = str(e.value)
    for part in (name, "row group", "column '", "page", "invalid UTF-8 in",
                 "invalid_utf8='binary'"):
        assert part in message, message


def test_error_names_the_value_of_the_page():
    # s: "ok", "caf\xe9", null, "ok", "\xff\xfe", "fine": the page's value 1 (the nulls hold
    # no value), PLAIN or dictionary-encoded alike.
    for name in ("compat_utf8_plain.parquet", "compat_utf8_dictionary.parquet"):
        with pytest.raises(quiver.InvalidError, match=r"row group 0, column 's', page \d+ at offset "
                                                      r"\d+: invalid UTF-8 in string value 1 of "
                                                      r"the page"):
            quiver.read_table(str(QUIVER_DATA / name), columns=["s"])


@pytest.mark.parametrize("name", sorted(FILES))
def test_binary_reads_equal_pyarrow_cast_to_binary(name):
    got = quiver.read_table(str(QUIVER_DATA / name), invalid_utf8="binary")
    validate_full(got)
    exp = expected(name)
    assert to_table(got).schema.equals(exp.schema), (to_table(got).schema, exp.schema)
    assert_tables_equal(got, exp)
    # Columns without invalid UTF-8 stay strings.
    if "clean" in exp.column_names:
        assert to_table(got).schema.field("clean").type == pa.string()


@pytest.mark.parametrize("name", sorted(FILES))
def test_iter_batches_have_one_schema(name):
    f = quiver.ParquetFile(str(QUIVER_DATA / name), invalid_utf8="binary")
    batches = list(f.iter_batches(batch_size=2))
    exp = expected(name)
    for b in batches:
        assert pa.record_batch(b).schema.equals(exp.schema)
    got = batches_to_table(batches, exp.schema)
    validate_full(got)
    assert_tables_equal(got, exp)


@pytest.mark.parametrize("name", ["compat_utf8_dictionary.parquet", "compat_utf8_plain.parquet",
                                  "compat_utf8_v2.parquet"])
def test_read_dictionary(name):
    got = quiver.read_table(str(QUIVER_DATA / name), invalid_utf8="binary",
                            read_dictionary=["s", "clean"])
    validate_full(got)
    schema = to_table(got).schema
    assert schema.field("s").type == pa.dictionary(pa.int32(), pa.binary())
    assert schema.field("clean").type == pa.dictionary(pa.int32(), pa.string())
    exp = expected(name, read_dictionary=["s", "clean"])
    assert_tables_equal(got, exp)
    f = quiver.ParquetFile(str(QUIVER_DATA / name), invalid_utf8="binary",
                           read_dictionary=["s", "clean"])
    batches = list(f.iter_batches(batch_size=4))
    assert all(pa.record_batch(b).schema.equals(schema) for b in batches)
    assert_tables_equal(batches_to_table(batches, schema), exp)


def test_decision_covers_the_rows_read():
    """compat_utf8_nested.parquet: row group 0 holds valid strings only, row group 1 the
    bad ones. The type follows what the read covers."""
    path = str(QUIVER_DATA / "compat_utf8_nested.parquet")
    first = to_table(quiver.read_table(path, row_groups=[0], invalid_utf8="binary"))
    assert first.schema.field("l").type == pa.list_(pa.string())
    assert first.schema.field("st").type == pa.struct([("s", pa.string())])
    validate_full(first)
    second = to_table(quiver.read_table(path, row_groups=[1], invalid_utf8="binary"))
    assert second.schema.field("l").type == pa.list_(pa.binary())
    # Without the option the valid row group reads, the other does not.
    assert to_table(quiver.read_table(path, row_groups=[0])).num_rows == 4
    with pytest.raises(quiver.InvalidError, match="row group 1"):
        quiver.read_table(path, row_groups=[1])
    f = quiver.ParquetFile(path, invalid_utf8="binary")
    assert pa.record_batch(next(iter(f.iter_batches(row_groups=[0])))).schema.field("l").type \
        == pa.list_(pa.string())


def test_option_values():
    path = str(QUIVER_DATA / "compat_utf8_plain.parquet")
    with pytest.raises(quiver.InvalidError):
        quiver.read_table(path, invalid_utf8="error")
    with pytest.raises(quiver.InvalidError, match="invalid_utf8: expected 'error' or 'binary'"):
        quiver.read_table(path, invalid_utf8="replace")
    with pytest.raises(quiver.InvalidError, match="invalid_utf8"):
        quiver.read_table(path, invalid_utf8=True)
