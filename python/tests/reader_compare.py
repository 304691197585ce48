"""Judging what Quiver's Parquet reader returns against pyarrow's reading of the same file.

  assert_tables_equal(quiver_result, expected)  the result (anything pa.table() accepts:
      quiver.Table through __arrow_c_stream__, a pa.Table, record batches) equals the
      pyarrow table: the same column names, exactly the same types (timezones, units,
      large / view / dictionary types, child field names and nullability; field and schema
      metadata are not compared), the same nullability, and the same values, NaN-aware
      (NaN equals NaN at the same position, at any depth; dictionaries compared by value).
      A failure names the first differing column and row.
  assert_schemas_equal(got, expected)           the same for two schemas.
  validate_full(t)                              pyarrow's ValidateFull on every column.
  reader_api()                                  the reader under test (see below).

The reader under test is `quiver` (read_table, read_parquet, ParquetFile). Until Quiver's
Python module has `read_table`, the reader tests skip. QUIVER_READER_STANDIN=pyarrow swaps
in reader_standin.py, a pyarrow-based imitation of the same API, only to check the test
suite itself (its manifest, file generators and this comparison) before the reader exists:
with it the tests compare pyarrow with pyarrow and prove nothing about Quiver.
"""

from __future__ import annotations

import os

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

STANDIN_ENV = "QUIVER_READER_STANDIN"


def reader_api():
    """The module whose read_table / read_parquet / ParquetFile the reader tests call."""
    standin = os.environ.get(STANDIN_ENV, "")
    if standin == "pyarrow":
        import reader_standin
        return reader_standin
    if standin:
        raise ValueError(f"{STANDIN_ENV}={standin!r}: the only stand-in is 'pyarrow'")
    import quiver
    if not hasattr(quiver, "read_table"):
        pytest.skip("quiver.read_table is not built yet (QUIVER_READER_STANDIN=pyarrow runs "
                    "these tests against a pyarrow stand-in, to check the tests themselves)")
    return quiver


def is_standin(api):
    return getattr(api, "IS_STANDIN", False)


# --- Conversion ------------------------------------------------------------------------

def to_table(obj):
    """A pa.Table from a reader result (stream, batch or table)."""
    if isinstance(obj, pa.Table):
        return obj
    if isinstance(obj, pa.RecordBatch):
        return pa.Table.from_batches([obj])
    if hasattr(obj, "__arrow_c_stream__"):
        return pa.table(obj)
    if hasattr(obj, "__arrow_c_array__"):
        return pa.Table.from_batches([pa.record_batch(obj)])
    raise TypeError(f"not an Arrow table or batch: {type(obj).__name__}")


def to_batch(obj):
    """A pa.RecordBatch from one item of iter_batches."""
    if isinstance(obj, pa.RecordBatch):
        return obj
    if hasattr(obj, "__arrow_c_array__"):
        return pa.record_batch(obj)
    raise TypeError(f"iter_batches yielded {type(obj).__name__}, which has no __arrow_c_array__")


def batches_to_table(batches, schema):
    """The batches of iter_batches as one table (`schema` for an empty iteration)."""
    batches = [to_batch(b) for b in batches]
    return pa.Table.from_batches(batches, schema=batches[0].schema if batches else pa.schema(schema))


def validate_full(t):
    """pyarrow's full validation of every column of a reader result."""
    t = to_table(t)
    for name, col in zip(t.column_names, t.columns):
        try:
            col.validate(full=True)
        except pa.ArrowException as e:
            raise AssertionError(f"column {name!r} ({col.type}) fails ValidateFull: {e}") from None


# --- Types -----------------------------------------------------------------------------

def _field_differences(got, exp, where, out):
    if got.name != exp.name:
        out.append(f"{where}: field name {got.name!r}, expected {exp.name!r}")
    if got.nullable != exp.nullable:
        out.append(f"{where}: nullable={got.nullable}, expected nullable={exp.nullable}")
    _type_differences(got.type, exp.type, where, out)


def _type_differences(got, exp, where, out):
    """Appends to `out` where two types differ (the outermost difference of each branch)."""
    if isinstance(exp, pa.BaseExtensionType) or isinstance(got, pa.BaseExtensionType):
        if got != exp:
            out.append(f"{where}: type {got}, expected {exp}")
        return
    if got.id != exp.id:
        out.append(f"{where}: type {got}, expected {exp}")
        return
    if pa.types.is_dictionary(exp):
        if got.index_type != exp.index_type or got.ordered != exp.ordered:
            out.append(f"{where}: type {got}, expected {exp}")
        _type_differences(got.value_type, exp.value_type, where + "<dictionary values>", out)
        return
    if exp.num_fields:
        if got.num_fields != exp.num_fields:
            out.append(f"{where}: type {got}, expected {exp}")
            return
        if pa.types.is_fixed_size_list(exp) and got.list_size != exp.list_size:
            out.append(f"{where}: type {got}, expected {exp}")
        if pa.types.is_map(exp) and got.keys_sorted != exp.keys_sorted:
            out.append(f"{where}: keys_sorted={got.keys_sorted}, expected {exp.keys_sorted}")
        if pa.types.is_map(exp):
            # The map's entries struct: its name is not compared, as pyarrow's C Data
            # Interface import (pa.table(q)) always names it "entries" and Map equality
            # ignores it.
            _field_differences(got.key_field, exp.key_field, where + ".key", out)
            _field_differences(got.item_field, exp.item_field, where + ".value", out)
            if got.field(0).nullable != exp.field(0).nullable:
                out.append(f"{where}: entries nullable={got.field(0).nullable}, expected "
                           f"{exp.field(0).nullable}")
            return
        for i in range(exp.num_fields):
            _field_differences(got.field(i), exp.field(i), f"{where}.{exp.field(i).name}", out)
        return
    if got != exp:  # units, timezones, precision and scale, widths
        out.append(f"{where}: type {got}, expected {exp}")


def schema_differences(got, exp):
    out = []
    if got.names != exp.names:
        return [f"columns {got.names}, expected {exp.names}"]
    for g, e in zip(got, exp):
        _field_differences(g, e, repr(e.name), out)
    return out


def assert_schemas_equal(got, expected):
    if not isinstance(got, pa.Schema):
        got = pa.schema(got)  # an object with __arrow_c_schema__
    diffs = schema_differences(got, expected)
    assert not diffs, "schemas differ:\n  " + "\n  ".join(diffs) + \
        f"\ngot:\n{got.to_string(show_schema_metadata=False)}" \
        f"\nexpected:\n{expected.to_string(show_schema_metadata=False)}"


# --- Values ----------------------------------------------------------------------------

_FLOAT_DTYPES = {pa.float16(): np.float16, pa.float32(): np.float32, pa.float64(): np.float64}


def _needs_walk(t):
    """Whether Array.equals can call equal arrays unequal: NaNs, and dictionaries (equal
    values under different dictionaries)."""
    if pa.types.is_floating(t) or pa.types.is_dictionary(t):
        return True
    if isinstance(t, pa.BaseExtensionType):
        return _needs_walk(t.storage_type)
    return any(_needs_walk(t.field(i).type) for i in range(t.num_fields))


def _float_values(a):
    dtype = _FLOAT_DTYPES[a.type]
    return np.frombuffer(a.buffers()[1], dtype=dtype, count=a.offset + len(a))[a.offset:]


def _map_as_list(a):
    """A MapArray as the list<entries> array it is laid out as."""
    return pa.Array.from_buffers(pa.list_(a.type.field(0)), len(a), a.buffers()[:2],
                                 null_count=a.null_count, offset=a.offset, children=[a.values])


def arrays_equal(a, b):
    """Two arrays of the same type hold the same values, NaN-aware, at any depth."""
    if len(a) != len(b):
        return False
    if a.equals(b):
        return True
    if not _needs_walk(a.type) or len(a) == 0:
        return False
    if isinstance(a.type, pa.BaseExtensionType):
        return arrays_equal(a.storage, b.storage)
    if not a.is_null().equals(b.is_null()):
        return False
    t = a.type
    if pa.types.is_dictionary(t):
        return arrays_equal(a.dictionary_decode(), b.dictionary_decode())
    if pa.types.is_floating(t):
        valid = np.asarray(a.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
        return np.array_equal(_float_values(a)[valid], _float_values(b)[valid], equal_nan=True)
    if pa.types.is_struct(t):
        return all(arrays_equal(x, y) for x, y in zip(a.flatten(), b.flatten()))
    if pa.types.is_map(t):
        a, b = _map_as_list(a), _map_as_list(b)
    if pa.types.is_fixed_size_list(a.type):
        return arrays_equal(a.flatten(), b.flatten())
    if (pa.types.is_list(a.type) or pa.types.is_large_list(a.type) or pa.types.is_list_view(a.type)
            or pa.types.is_large_list_view(a.type)):
        if not pc.list_value_length(a).equals(pc.list_value_length(b)):
            return False
        return arrays_equal(a.flatten(), b.flatten())
    return False


def first_difference(a, b):
    """The first index where two arrays of one length differ (by bisection)."""
    lo, n = 0, len(a)
    while n > 1:
        half = n // 2
        if not arrays_equal(a.slice(lo, half), b.slice(lo, half)):
            n = half
        else:
            lo, n = lo + half, n - half
    return lo


def _aligned(ca, cb):
    """(row offset, slice of ca, slice of cb) over the union of both chunkings."""
    ia = ib = 0
    oa = ob = 0  # offsets inside the current chunks
    row = 0
    chunks_a = [c for c in ca.chunks if len(c)]
    chunks_b = [c for c in cb.chunks if len(c)]
    while ia < len(chunks_a) and ib < len(chunks_b):
        xa, xb = chunks_a[ia], chunks_b[ib]
        n = min(len(xa) - oa, len(xb) - ob)
        yield row, xa.slice(oa, n), xb.slice(ob, n)
        row += n
        oa += n
        ob += n
        if oa == len(xa):
            ia, oa = ia + 1, 0
        if ob == len(xb):
            ib, ob = ib + 1, 0


def _show(arr, i):
    try:
        text = repr(arr[i].as_py())
    except Exception:  # noqa: BLE001 - a value Python cannot hold: Arrow's own text
        text = str(arr[i])
    return text if len(text) <= 300 else text[:300] + "..."


def column_difference(ca, cb):
    """None, or a description of the first row where two chunked arrays differ."""
    if ca.equals(cb):
        return None
    for row, a, b in _aligned(ca, cb):
        if not arrays_equal(a, b):
            i = first_difference(a, b)
            return f"row {row + i}: got {_show(a, i)}, expected {_show(b, i)}"
    return None


def assert_tables_equal(quiver_result, expected):
    """The reader's result equals the pyarrow table (module docstring)."""
    got = to_table(quiver_result)
    assert_schemas_equal(got.schema, expected.schema)
    assert got.num_rows == expected.num_rows, f"{got.num_rows} rows, expected {expected.num_rows}"
    for name, ca, cb in zip(expected.column_names, got.columns, expected.columns):
        diff = column_difference(ca, cb)
        assert diff is None, f"column {name!r} ({cb.type}) differs at {diff}"
