"""reader_compare.py judged on pyarrow tables: what it must call equal, and what not.

These run without Quiver's reader; they keep the reader tests' oracle honest.
"""

import math

import pyarrow as pa
import pytest

from reader_compare import assert_tables_equal, column_difference, validate_full


def _chunked(*arrays):
    return pa.chunked_array(arrays, arrays[0].type)


def differs(got, expected, match):
    with pytest.raises(AssertionError, match=match):
        assert_tables_equal(got, expected)


NAN = math.nan


def test_nan_aware_at_any_depth():
    t = pa.table({
        "f64": pa.array([1.0, NAN, None, -0.0]),
        "f32": pa.array([NAN, 2.0, None], pa.float32()).slice(0, 3).take([0, 1, 2, 0]),
        "f16": pa.array([NAN, None, 1.5, NAN], pa.float16()),
        "list": pa.array([[NAN, 1.0], None, [], [None, NAN]]),
        "struct": pa.array([{"x": NAN}, {"x": 1.0}, None, {"x": None}]),
        "map": pa.array([[("a", NAN)], None, [], [("b", 2.0)]], pa.map_(pa.string(), pa.float64())),
        "dict": pa.array(["a", None, "b", "a"]).dictionary_encode(),
    })
    assert not t.equals(t)  # pyarrow's equality is not NaN-aware
    assert_tables_equal(t, t)
    rebuilt = pa.Table.from_batches(t.to_batches(max_chunksize=3))
    assert rebuilt.column(0).num_chunks == 2
    assert_tables_equal(rebuilt, t)


def test_value_differences_name_column_and_row():
    t = pa.table({"a": [1, 2, 3], "f": [NAN, 1.0, 2.0]})
    differs(pa.table({"a": [1, 2, 4], "f": [NAN, 1.0, 2.0]}), t, r"column 'a' \(int64\) differs at row 2: got 4, expected 3")
    differs(pa.table({"a": [1, 2, 3], "f": [1.0, 1.0, 2.0]}), t, r"column 'f' .* row 0: got 1.0, expected nan")
    differs(pa.table({"a": [1, None, 3], "f": [NAN, 1.0, 2.0]}), t, "row 1: got None, expected 2")
    differs(pa.table({"a": [1, 2], "f": [NAN, 1.0]}), t, "2 rows, expected 3")


def test_nested_differences():
    exp = pa.table({"l": pa.array([[1.0, NAN], [2.0], None, [3.0]] * 50)})
    bad = exp.column(0).to_pylist()
    bad[123] = [2.0, 0.0]
    differs(pa.table({"l": pa.array(bad)}), exp, "row 123")
    bad = exp.column(0).to_pylist()
    bad[77] = []
    differs(pa.table({"l": pa.array(bad)}), exp, "row 77: got \\[\\], expected \\[2.0\\]")
    s = pa.table({"s": pa.array([{"x": NAN, "y": "a"}, {"x": 1.0, "y": "b"}])})
    differs(pa.table({"s": pa.array([{"x": NAN, "y": "a"}, {"x": 1.0, "y": "c"}])}), s, "row 1")
    m = pa.table({"m": pa.array([[("k", NAN)], [("k", 1.0)]], pa.map_(pa.string(), pa.float64()))})
    differs(pa.table({"m": pa.array([[("k", NAN)], [("j", 1.0)]], pa.map_(pa.string(), pa.float64()))}), m, "row 1")


def test_dictionaries_compare_by_value():
    a = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 0], pa.int32()), pa.array(["x", "y"]))
    b = pa.DictionaryArray.from_arrays(pa.array([1, 0, None, 1], pa.int32()), pa.array(["y", "x", "unused"]))
    assert_tables_equal(pa.table({"d": b}), pa.table({"d": a}))
    c = pa.DictionaryArray.from_arrays(pa.array([1, 0, None, 0], pa.int32()), pa.array(["y", "x"]))
    differs(pa.table({"d": c}), pa.table({"d": a}), "row 3: got 'y', expected 'x'")


@pytest.mark.parametrize("got_type,expected_type", [
    (pa.timestamp("us", tz="UTC"), pa.timestamp("us")),
    (pa.timestamp("us", tz="UTC"), pa.timestamp("us", tz="Europe/Paris")),
    (pa.timestamp("ms"), pa.timestamp("us")),
    (pa.large_string(), pa.string()),
    (pa.string_view(), pa.string()),
    (pa.binary(), pa.string()),
    (pa.dictionary(pa.int8(), pa.string()), pa.dictionary(pa.int32(), pa.string())),
    (pa.dictionary(pa.int32(), pa.large_string()), pa.dictionary(pa.int32(), pa.string())),
    (pa.string(), pa.dictionary(pa.int32(), pa.string())),
    (pa.large_list(pa.int32()), pa.list_(pa.int32())),
    (pa.list_(pa.field("item", pa.int32())), pa.list_(pa.field("element", pa.int32()))),
    (pa.list_(pa.field("element", pa.int32(), nullable=False)), pa.list_(pa.field("element", pa.int32()))),
    (pa.struct([("a", pa.int32())]), pa.struct([("b", pa.int32())])),
    (pa.struct([("a", pa.int64())]), pa.struct([("a", pa.int32())])),
    (pa.map_(pa.string(), pa.int64()), pa.map_(pa.string(), pa.int32())),
    (pa.decimal128(10, 2), pa.decimal128(10, 3)),
    (pa.decimal64(10, 2), pa.decimal128(10, 2)),
    (pa.float16(), pa.float32()),
    (pa.list_(pa.int32(), 2), pa.list_(pa.int32(), 3)),
    (pa.date64(), pa.date32()),
])
def test_type_differences(got_type, expected_type):
    got = pa.table({"c": pa.nulls(2, got_type)})
    expected = pa.table({"c": pa.nulls(2, expected_type)})
    differs(got, expected, "schemas differ")


def test_nullability_and_names_differ_metadata_does_not():
    arr = pa.array([1, 2])
    t = pa.Table.from_arrays([arr], schema=pa.schema([pa.field("c", pa.int64(), nullable=False)]))
    differs(pa.table({"c": arr}), t, "nullable=True, expected nullable=False")
    differs(pa.table({"d": arr}), t, "columns")
    with_meta = pa.Table.from_arrays([arr], schema=pa.schema([pa.field("c", pa.int64(), False, {"k": "v"})],
                                                             metadata={"m": "1"}))
    assert_tables_equal(with_meta, t)


def test_through_the_c_stream_interface():
    """A map's entries field comes back from pyarrow's C import named "entries" whatever it
    was called (pyarrow's own reader calls it after the column): not a difference."""
    t = pa.table({"m": pa.array([[("a", 1)], None], pa.map_(pa.string(), pa.int64()))})
    renamed = pa.map_(pa.field("key", pa.string(), False), pa.field("value", pa.int64()))
    renamed = t.cast(pa.schema([pa.field("m", renamed)]))

    class Stream:
        def __arrow_c_stream__(self, requested_schema=None):
            return renamed.__arrow_c_stream__(requested_schema)
    assert_tables_equal(Stream(), renamed)


def test_column_difference_with_different_chunking():
    a = _chunked(pa.array([1, 2]), pa.array([3, 4, 5]))
    b = _chunked(pa.array([1]), pa.array([2, 3, 4]), pa.array([6]))
    assert column_difference(a, b) == "row 4: got 5, expected 6"
    assert column_difference(a, _chunked(pa.array([1, 2, 3, 4, 5]))) is None


def test_validate_full_catches_bad_utf8():
    bad = pa.Array.from_buffers(pa.string(), 1, [None, pa.py_buffer(b"\x00\x00\x00\x00\x02\x00\x00\x00"),
                                                 pa.py_buffer(b"\xff\xfe")])
    validate_full(pa.table({"ok": [1]}))
    with pytest.raises(AssertionError, match="column 'bad'"):
        validate_full(pa.table({"bad": bad}))
