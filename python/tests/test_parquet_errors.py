"""Bad input makes quiver.write_parquet / ParquetWriter fail with a clear error, and leaves
nothing behind: no file at the destination (an existing one is untouched), and no
`.<name>.quiver-XXXXXX` temporary file next to it."""

import io
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import quiver


def assert_nothing_written(folder, name="out.parquet", previous=None):
    """The destination is absent (or holds `previous`) and no temporary file is left."""
    entries = sorted(os.listdir(folder))
    temps = [e for e in entries if ".quiver-" in e]
    assert not temps, f"temporary files left behind: {temps}"
    if previous is None:
        assert name not in entries, f"{name} was written"
    else:
        assert (folder / name).read_bytes() == previous


def non_nullable(name, arr):
    return pa.Table.from_arrays([arr], schema=pa.schema([pa.field(name, arr.type, nullable=False)]))


def invalid_utf8(t=pa.string()):
    values = [b"ok", b"a\xff\xfeb", b"\xc3"]
    offsets = [0]
    for v in values:
        offsets.append(offsets[-1] + len(v))
    if t == pa.large_string():
        off = pa.array(offsets, pa.int64())
    else:
        off = pa.array(offsets, pa.int32())
    return pa.Array.from_buffers(pa.large_string() if t == pa.large_string() else pa.string(), len(values),
                                 [None, off.buffers()[1], pa.py_buffer(b"".join(values))])


NULL_IN_REQUIRED = [
    ("flat", non_nullable("count", pa.array([1, None, 3], pa.int64())), "count"),
    ("string", non_nullable("label", pa.array(["a", None])), "label"),
    ("struct_child", pa.Table.from_arrays(
        [pa.StructArray.from_arrays([pa.array([1, None], pa.int32())], fields=[pa.field("inner", pa.int32(), nullable=False)])],
        names=["outer"]), "inner"),
    ("list_element", pa.Table.from_arrays(
        [pa.array([[1], [2, None]], pa.list_(pa.field("elem", pa.int32(), nullable=False)))], names=["l"]), "elem"),
    ("list_itself", non_nullable("lst", pa.array([[1], None], pa.list_(pa.int32()))), "lst"),
    ("map_value", pa.Table.from_arrays(
        [pa.array([[("k", 1)], [("k", None)]], pa.map_(pa.string(), pa.field("value", pa.int32(), nullable=False)))],
        names=["m"]), "value"),
    ("dictionary", non_nullable("dict_col", pa.array(["a", None, "b"]).dictionary_encode()), "dict_col"),
    ("later_chunk", pa.Table.from_batches([
        pa.record_batch([pa.array([1, 2])], schema=pa.schema([pa.field("late", pa.int64(), nullable=False)])),
        pa.record_batch([pa.array([3, None])], schema=pa.schema([pa.field("late", pa.int64(), nullable=False)]))]),
        "late"),
]


@pytest.mark.parametrize("name,table,field", NULL_IN_REQUIRED, ids=[c[0] for c in NULL_IN_REQUIRED])
def test_null_in_non_nullable_field(tmp_path, name, table, field):
    """The message names the field (and, for a nested one, its column)."""
    column = table.column_names[0]
    with pytest.raises(quiver.InvalidError, match=f"'{field}'.*null") as e:
        quiver.write_parquet(table, str(tmp_path / "out.parquet"), row_group_size=1)
    assert f"'{column}'" in str(e.value)
    assert_nothing_written(tmp_path)
    w = quiver.ParquetWriter(str(tmp_path / "out.parquet"), table.schema)
    with pytest.raises(quiver.InvalidError, match=f"'{field}'"):
        for b in table.to_batches():
            w.write_batch(b)
    with pytest.raises(quiver.InvalidError):
        w.close()
    assert_nothing_written(tmp_path)


def test_null_under_a_null_parent_is_fine(tmp_path):
    """A non-nullable child's slot under a null struct slot is not a value: no error."""
    st = pa.StructArray.from_arrays([pa.array([1, None], pa.int32())], fields=[pa.field("inner", pa.int32(), nullable=False)],
                                    mask=pa.array([False, True]))
    table = pa.table({"outer": st})
    quiver.write_parquet(table, str(tmp_path / "out.parquet"))
    assert pq.read_table(tmp_path / "out.parquet").column(0).to_pylist() == [{"inner": 1}, None]


@pytest.mark.parametrize("kind", ["string", "large_string", "string_view", "dictionary", "nested"])
def test_invalid_utf8(tmp_path, kind):
    bad = invalid_utf8(pa.large_string() if kind == "large_string" else pa.string())
    if kind == "string_view":
        bad = bad.cast(pa.binary()).cast(pa.binary_view()).view(pa.string_view())
    elif kind == "dictionary":
        bad = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2, 1], pa.int32()), bad)
    elif kind == "nested":
        bad = pa.ListArray.from_arrays(pa.array([0, 1, 3], pa.int32()), bad)
    table = pa.table({"text": bad})
    for dictionary in (True, False):
        with pytest.raises(quiver.InvalidError, match="text.*UTF-8"):
            quiver.write_parquet(table, str(tmp_path / "out.parquet"), use_dictionary=dictionary)
        assert_nothing_written(tmp_path)
    # validate_utf8=False writes the bytes as they are.
    quiver.write_parquet(table, str(tmp_path / "out.parquet"), validate_utf8=False)
    got = pq.read_table(tmp_path / "out.parquet")
    as_binary = {"string": pa.binary(), "large_string": pa.large_binary(), "string_view": pa.binary_view()}
    if kind in as_binary:
        raw = pq.read_table(tmp_path / "out.parquet", schema=pa.schema([pa.field("text", as_binary[kind])]))
        assert raw.column(0).to_pylist() == [b"ok", b"a\xff\xfeb", b"\xc3"]
    assert got.num_rows == len(bad)


def strings_from_bytes(values, t, nulls=()):
    """A string array of `values` (bytes, not checked), null at `nulls`."""
    offsets, data = [0], b""
    for i, v in enumerate(values):
        if i not in nulls:
            data += v
        offsets.append(len(data))
    off = pa.array(offsets, pa.int64() if t == pa.large_string() else pa.int32())
    validity = pa.array([i not in nulls for i in range(len(values))]).buffers()[1] if nulls else None
    return pa.Array.from_buffers(t, len(values), [validity, off.buffers()[1], pa.py_buffer(data)])


@pytest.mark.parametrize("t", [pa.string(), pa.large_string()], ids=["string", "large_string"])
@pytest.mark.parametrize("length", [3, 15, 16, 17, 63, 64, 65, 200])
def test_invalid_utf8_at_every_place_of_a_plain_page(tmp_path, t, length):
    """PLAIN pages check strings as they copy them (an ASCII check in the copy, the full
    check only where a byte is not ASCII): a bad byte anywhere in values of every length
    of the copy's paths is found and named, with nulls and a slice offset; well-formed
    non-ASCII values and values that are fine only when joined are told apart."""
    base = [bytes([0x41 + (i + k) % 26 for k in range(length)]) for i in range(40)]
    for at in sorted({0, 1, length // 2, length - 1}):
        values = list(base)
        values[23] = values[23][:at] + b"\xff" + values[23][at + 1:]
        arr = strings_from_bytes(values, t, nulls={3, 30})
        for table in (pa.table({"text": arr}), pa.table({"text": arr.slice(2)})):
            for dictionary in (True, False):
                with pytest.raises(quiver.InvalidError, match=f"'text': invalid UTF-8 at byte {at} of a string value"):
                    quiver.write_parquet(table, str(tmp_path / "out.parquet"), use_dictionary=dictionary,
                                         dictionary_pagesize_limit=1)
                assert_nothing_written(tmp_path)
    # Well-formed non-ASCII values (2-, 3- and 4-byte characters at the copy's edges).
    good = [(b"\xc3\xa9" * length)[:length - 1] + b"x" if length > 1 else b"x" for _ in range(5)]
    good += [b"\xe2\x82\xac" + b"a" * length, b"b" * length + b"\xf0\x9f\x98\x80", b""]
    good = [g.decode("utf-8", "ignore").encode() for g in good]
    arr = strings_from_bytes(good, t, nulls={1})
    path = tmp_path / "good.parquet"
    quiver.write_parquet(pa.table({"text": arr}), str(path), use_dictionary=False)
    assert pq.read_table(path).column(0).to_pylist() == arr.to_pylist()
    # Each value ill-formed, their bytes together well-formed: one character split
    # between two values (and across an empty value between them).
    for split in ([b"a" * length + b"\xc3", b"\xa9" + b"b" * length],
                  [b"a" * length + b"\xe2\x82", b"", b"\xac"]):
        arr = strings_from_bytes(split, t)
        with pytest.raises(quiver.InvalidError, match=f"'text': invalid UTF-8 at byte {length} of a string value"):
            quiver.write_parquet(pa.table({"text": arr}), str(tmp_path / "out.parquet"), use_dictionary=False)
        assert_nothing_written(tmp_path)


def test_writer_schema_mismatch(tmp_path):
    schema = pa.schema([pa.field("a", pa.int64()), pa.field("b", pa.string())])
    good = pa.record_batch([pa.array([1, 2]), pa.array(["x", "y"])], schema=schema)
    path = tmp_path / "out.parquet"
    for bad in (pa.record_batch([pa.array([1]), pa.array([2])], names=["a", "b"]),          # type
                pa.record_batch([pa.array([1]), pa.array(["x"])], names=["a", "c"]),        # name
                pa.record_batch([pa.array([1])], names=["a"]),                              # columns
                pa.table({"b": ["x"], "a": [1]})):                                          # order
        w = quiver.ParquetWriter(str(path), schema)
        w.write_batch(good)
        with pytest.raises(quiver.InvalidError, match="schema"):
            w.write_batch(bad)
        # The writer failed: it refuses more data and its close() reports the failure.
        with pytest.raises(quiver.QuiverError):
            w.write_batch(good)
        with pytest.raises(quiver.QuiverError):
            w.close()
        assert_nothing_written(tmp_path)
        w2 = quiver.ParquetWriter(str(path), schema)
        with pytest.raises(quiver.InvalidError, match="schema"):
            w2.write_table(pa.Table.from_batches([bad]) if isinstance(bad, pa.RecordBatch) else bad)
        del w2
        assert_nothing_written(tmp_path)


def test_write_after_close(tmp_path):
    table = pa.table({"a": [1, 2]})
    path = tmp_path / "out.parquet"
    w = quiver.ParquetWriter(str(path), table.schema)
    w.write_table(table)
    w.close()
    assert not w.is_open
    before = path.read_bytes()
    for call in (lambda: w.write_table(table), lambda: w.write_batch(table.to_batches()[0])):
        with pytest.raises(quiver.InvalidError, match="closed"):
            call()
    w.close()  # closing again is a no-op
    assert path.read_bytes() == before
    assert pq.read_table(path).equals(table)


def test_unknown_option(tmp_path):
    table = pa.table({"a": [1]})
    for kwargs in ({"compresion": "zstd"}, {"row_group_rows": 5}, {"use_dictionnary": False}):
        with pytest.raises(TypeError, match=list(kwargs)[0]):
            quiver.write_parquet(table, str(tmp_path / "out.parquet"), **kwargs)
        with pytest.raises(TypeError, match=list(kwargs)[0]):
            quiver.ParquetWriter(str(tmp_path / "out.parquet"), table.schema, **kwargs)
        assert_nothing_written(tmp_path)


BAD_OPTIONS = [
    ({"compression": "foo"}, "compression"),
    ({"compression": 5}, "compression"),
    ({"compression": {"a": "nope"}}, "compression"),
    ({"compression": "zstd", "compression_level": 99}, "compression"),
    ({"compression": "zstd", "compression_level": 2**40}, "compression_level"),
    ({"compression": "gzip", "compression_level": 10}, "compression"),
    ({"compression": "brotli", "compression_level": 12}, "compression"),
    ({"compression": "snappy", "compression_level": 3}, "compression"),
    ({"compression": "zstd", "compression_level": {"a": 99}}, "compression_level"),
    ({"compression_level": "high"}, "compression_level"),
    ({"use_dictionary": "yes"}, "use_dictionary"),
    ({"use_dictionary": 5}, "use_dictionary"),
    ({"write_statistics": 3}, "write_statistics"),
    ({"dictionary_pagesize_limit": 0}, "dictionary_pagesize_limit"),
    ({"data_page_version": "3.0"}, "data_page_version"),
    ({"data_page_version": 2}, "data_page_version"),
    ({"data_page_size": 0}, "data_page_size"),
    ({"data_page_size": -5}, "data_page_size"),
    ({"data_page_size": 1.5}, "data_page_size"),
    ({"data_page_size": 2**70}, "data_page_size"),
    ({"max_rows_per_page": 0}, "max_rows_per_page"),
    ({"write_batch_size": 0}, "write_batch_size"),
    ({"row_group_size": 0}, "row_group_size"),
    ({"row_group_size": True}, "row_group_size"),
    ({"row_group_bytes": 0}, "row_group_bytes"),
    ({"write_page_index": 1}, "write_page_index"),
    ({"write_page_checksum": "no"}, "write_page_checksum"),
    ({"store_schema": None}, "store_schema"),
    ({"validate_utf8": 0}, "validate_utf8"),
    ({"use_threads": "yes"}, "use_threads"),
    ({"version": "2.0"}, "version"),
    ({"version": 2.6}, "version"),
    ({"coerce_timestamps": "ns"}, "coerce_timestamps"),
    ({"allow_truncated_timestamps": 1}, "allow_truncated_timestamps"),
    ({"write_distinct_count": "yes"}, "write_distinct_count"),
    ({"write_distinct_count": True, "write_statistics": False}, "write_distinct_count"),
    ({"column_encoding": "NOPE"}, "column_encoding"),
    ({"column_encoding": 5}, "column_encoding"),
    ({"column_encoding": {"a": "NOPE"}}, "column_encoding"),
    ({"column_encoding": {"a": "RLE_DICTIONARY"}}, "column_encoding"),
    ({"use_byte_stream_split": 7}, "use_byte_stream_split"),
    ({"bloom_filter_options": 5}, "bloom_filter_options"),
    ({"bloom_filter_options": {"a": 5}}, "bloom_filter_options"),
    ({"bloom_filter_options": {"a": {"fpp": 2.0}}}, "bloom filter"),
    ({"bloom_filter_options": {"a": {"fpp": "x"}}}, "bloom_filter_options"),
    ({"bloom_filter_options": {"a": {"ndv": "x"}}}, "bloom_filter_options"),
    ({"sorting_columns": 5}, "sorting_columns"),
    ({"sorting_columns": [5]}, "sorting_columns"),
    ({"sorting_columns": [(0, "x", False)]}, "sorting_columns"),
    ({"use_content_defined_chunking": 5}, "use_content_defined_chunking"),
    ({"use_content_defined_chunking": {"min_chunk_size": 10}}, "use_content_defined_chunking"),
    ({"use_content_defined_chunking": {"min_chunk_size": 100, "max_chunk_size": 10}}, "content-defined chunking"),
    ({"use_content_defined_chunking": {"min_chunk_size": 1, "max_chunk_size": 2, "size": 3}},
     "use_content_defined_chunking"),
]


@pytest.mark.parametrize("options,names", BAD_OPTIONS, ids=[repr(o) for o, _ in BAD_OPTIONS])
def test_bad_option_value(tmp_path, options, names):
    table = pa.table({"a": [1, 2]})
    with pytest.raises(quiver.InvalidError, match=names):
        quiver.write_parquet(table, str(tmp_path / "out.parquet"), **options)
    with pytest.raises(quiver.InvalidError, match=names):
        quiver.ParquetWriter(str(tmp_path / "out.parquet"), table.schema, **options)
    assert_nothing_written(tmp_path)
    sink = io.BytesIO()
    with pytest.raises(quiver.InvalidError):
        quiver.write_parquet(table, sink, **options)
    assert sink.getvalue() == b""


# Features that once were optional: every one is implemented, so the file must read back
# equal (a writer error is a failure). Intervals have no Parquet type at all (test_unsupported_type).
MAYBE_UNSUPPORTED = [
    {"bloom_filter_options": True},
    {"bloom_filter_options": {"a": {"ndv": 100, "fpp": 0.01}}},
    {"column_encoding": {"a": "DELTA_BINARY_PACKED"}, "use_dictionary": False},
    {"column_encoding": {"a": "PLAIN", "s": "DELTA_BYTE_ARRAY"}, "use_dictionary": False},
    {"use_byte_stream_split": True, "use_dictionary": False},
    {"use_byte_stream_split": ["f"], "use_dictionary": ["s"]},
    {"use_content_defined_chunking": True},
    {"use_content_defined_chunking": {"min_chunk_size": 1024, "max_chunk_size": 8192}},
    {"version": "1.0"},
    {"version": "2.4", "coerce_timestamps": "ms"},
    {"write_distinct_count": True},
]


@pytest.mark.parametrize("options", MAYBE_UNSUPPORTED, ids=repr)
def test_optional_features_work(tmp_path, options):
    table = pa.table({"a": pa.array(range(1000), pa.int64()), "s": [str(i % 10) for i in range(1000)],
                      "f": pa.array([i / 7 for i in range(1000)], pa.float32())})
    path = tmp_path / "out.parquet"
    quiver.write_parquet(table, str(path), **options)
    assert pq.read_table(path).equals(table)


UNSUPPORTED_TYPES = [
    ("month_day_nano", pa.array([pa.MonthDayNano([1, 2, 3])], pa.month_day_nano_interval())),
    ("nested_interval", pa.array([[pa.MonthDayNano([1, 2, 3])]], pa.list_(pa.month_day_nano_interval()))),
    ("empty_struct", pa.array([{}, None], pa.struct([]))),
]


@pytest.mark.parametrize("name,arr", UNSUPPORTED_TYPES, ids=[n for n, _ in UNSUPPORTED_TYPES])
def test_unsupported_type(tmp_path, name, arr):
    table = pa.table({"ok": pa.array(range(len(arr))), "bad": arr})
    with pytest.raises(quiver.NotImplementedError, match="'bad"):
        quiver.write_parquet(table, str(tmp_path / "out.parquet"))
    assert_nothing_written(tmp_path)
    with pytest.raises(quiver.NotImplementedError):
        quiver.ParquetWriter(str(tmp_path / "out.parquet"), table.schema)
    assert_nothing_written(tmp_path)


def test_failed_write_keeps_existing_file(tmp_path):
    """A failed write does not touch an existing destination; a successful one replaces it."""
    path = tmp_path / "out.parquet"
    quiver.write_parquet(pa.table({"a": [1]}), str(path))
    before = path.read_bytes()
    with pytest.raises(quiver.InvalidError):
        quiver.write_parquet(non_nullable("a", pa.array([1, None])), str(path))
    assert_nothing_written(tmp_path, previous=before)
    w = quiver.ParquetWriter(str(path), pa.schema([("a", pa.int64())]))
    w.write_table(pa.table({"a": [5, 6]}))
    assert path.read_bytes() == before  # not replaced before close()
    w.close()
    assert pq.read_table(path).column(0).to_pylist() == [5, 6]
    assert_nothing_written(tmp_path, previous=path.read_bytes())


def test_context_manager_exception_writes_nothing(tmp_path):
    path = tmp_path / "out.parquet"
    table = pa.table({"a": [1, 2, 3]})
    with pytest.raises(RuntimeError, match="boom"):
        with quiver.ParquetWriter(str(path), table.schema) as w:
            w.write_table(table)
            raise RuntimeError("boom")
    assert not w.is_open
    assert_nothing_written(tmp_path)
    with pytest.raises(quiver.InvalidError, match="closed"):
        w.write_table(table)
    # And a failing write inside the block.
    with pytest.raises(quiver.InvalidError):
        with quiver.ParquetWriter(str(path), table.schema) as w:
            w.write_table(table)
            w.write_table(pa.table({"a": ["not an int"]}))
    assert_nothing_written(tmp_path)
    # A file object cannot be taken back: it keeps the row groups it was
    # given as they were finished, but never gets a footer, so no reader
    # takes it for a Parquet file (test_parquet_sinks.py has the details).
    sink = io.BytesIO()
    with pytest.raises(RuntimeError):
        with quiver.ParquetWriter(sink, table.schema) as w:
            w.write_table(table)
            raise RuntimeError("boom")
    assert sink.getvalue().startswith(b"PAR1") and not sink.getvalue().endswith(b"PAR1")
    with pytest.raises(pa.ArrowInvalid):
        pq.read_table(pa.BufferReader(sink.getvalue()))


def test_abandoned_writer_writes_nothing(tmp_path):
    """A writer dropped without close() removes its temporary file."""
    import gc
    path = tmp_path / "out.parquet"
    w = quiver.ParquetWriter(str(path), pa.schema([("a", pa.int64())]))
    w.write_table(pa.table({"a": [1]}))
    assert [e for e in os.listdir(tmp_path) if ".quiver-" in e], "expected a temporary file while open"
    del w
    gc.collect()
    assert_nothing_written(tmp_path)


def test_missing_folder_is_an_io_error(tmp_path):
    with pytest.raises(quiver.IOError, match="no-such-dir"):
        quiver.write_parquet(pa.table({"a": [1]}), str(tmp_path / "no-such-dir" / "out.parquet"))
    assert os.listdir(tmp_path) == []


def test_not_arrow_data(tmp_path):
    with pytest.raises(TypeError):
        quiver.write_parquet(42, str(tmp_path / "out.parquet"))
    with pytest.raises(TypeError):
        quiver.ParquetWriter(str(tmp_path / "out.parquet"), "not a schema")
    assert_nothing_written(tmp_path)


def test_dictionary_with_null_value(tmp_path):
    """An index that points at a null dictionary entry (a null, logically): pyarrow 26 refuses
    to write it too ("not yet supported"); Quiver says so clearly, naming the column."""
    d = pa.DictionaryArray.from_arrays(pa.array([0, 1, 0], pa.int32()), pa.array(["a", None]))
    with pytest.raises((quiver.InvalidError, quiver.NotImplementedError), match="'c'.*null dictionary value"):
        quiver.write_parquet(pa.table({"c": d}), str(tmp_path / "out.parquet"))
    assert_nothing_written(tmp_path)


def test_malformed_arrays_are_rejected(tmp_path):
    """Structurally invalid input (an out-of-range dictionary index; pyarrow's constructors
    refuse most other kinds) is an error naming the column, never a crash or a file."""
    bad_dict = pa.DictionaryArray.from_arrays(pa.array([0, 5, 0], pa.int32()), pa.array(["a", "b"]), safe=False)
    for dictionary in (True, False):
        with pytest.raises(quiver.InvalidError, match="'d'"):
            quiver.write_parquet(pa.table({"d": bad_dict}), str(tmp_path / "out.parquet"), use_dictionary=dictionary)
        assert_nothing_written(tmp_path)


@pytest.mark.parametrize("typ", [pa.decimal128(5, 7), pa.decimal128(5, -2), pa.decimal256(40, 41)],
                         ids=str)
def test_decimal_scale_outside_parquet_range(tmp_path, typ):
    """Arrow allows a negative scale or one above the precision; Parquet does not (readers
    reject such files), so the writer refuses them by name, and writes nothing."""
    table = pa.table({"d": pa.array([None], typ)})
    with pytest.raises(quiver.InvalidError, match="'d'.*scale"):
        quiver.write_parquet(table, str(tmp_path / "out.parquet"))
    assert_nothing_written(tmp_path)


def test_field_name_not_utf8(tmp_path):
    """A field name that is not UTF-8 (possible through the C Data Interface) cannot be a
    Parquet column name: clear error, nothing written."""
    # Build the schema through the C interface: pyarrow itself only makes UTF-8 names.
    import ctypes
    schema = pa.schema([pa.field("ab", pa.int32())])
    capsule = schema.__arrow_c_schema__()
    ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
    ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    ptr = ctypes.pythonapi.PyCapsule_GetPointer(capsule, b"arrow_schema")

    class ArrowSchema(ctypes.Structure):
        _fields_ = [("format", ctypes.c_char_p), ("name", ctypes.c_char_p),
                    ("metadata", ctypes.c_char_p), ("flags", ctypes.c_int64),
                    ("n_children", ctypes.c_int64), ("children", ctypes.c_void_p),
                    ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p),
                    ("private_data", ctypes.c_void_p)]

    root = ArrowSchema.from_address(ptr)
    child = ArrowSchema.from_address(ctypes.cast(root.children, ctypes.POINTER(ctypes.c_void_p))[0])
    name_ptr = ctypes.c_void_p.from_buffer(child, ArrowSchema.name.offset).value  # char* "ab"
    ctypes.memmove(name_ptr, b"\xff\xfe", 2)  # same length, no longer UTF-8

    class Holder:
        def __arrow_c_schema__(self):
            return capsule

    with pytest.raises(quiver.InvalidError, match="not valid UTF-8"):
        quiver.ParquetWriter(str(tmp_path / "out.parquet"), Holder())
    assert_nothing_written(tmp_path)
