"""quiver.compute: kernels over Arrow arrays with pyarrow.compute's names,
options and semantics (src/quiver/compute; docs/design.md "Compute")."""

from quiver._quiver import _compute


def simd_levels():
    """{'detected': level, 'active': level}: the SIMD level this CPU supports
    and the one the kernels use ('scalar', 'avx2' or 'avx512'; the
    QUIVER_SIMD_LEVEL environment variable caps it)."""
    return dict(_compute.simd_levels())


# --- Selection: filter, take (and quiver.concat_arrays) --------------------


def _as_array(obj):
    """An object ArrayFromPy takes: a pyarrow ChunkedArray combined into one
    array; a Python list or tuple through pyarrow.array (as pyarrow.compute
    accepts them)."""
    if isinstance(obj, (list, tuple)):
        import pyarrow

        return pyarrow.array(obj)
    if not hasattr(obj, "__arrow_c_array__") and hasattr(obj, "combine_chunks"):
        return obj.combine_chunks()
    return obj


def _tabular(obj):
    """'table' or 'batch' for a quiver or pyarrow Table / RecordBatch."""
    name = type(obj).__name__
    if name == "Table" and hasattr(obj, "__arrow_c_stream__"):
        return "table"
    if name == "RecordBatch" and (hasattr(obj, "__arrow_c_array__")
                                  or hasattr(obj, "__arrow_c_stream__")):
        return "batch"
    return None


def filter(values, mask, null_selection_behavior="drop"):  # noqa: A001 - pyarrow's name
    """The rows of `values` where the boolean `mask` is true, as
    pyarrow.compute.filter. A null in the mask drops the row
    (null_selection_behavior='drop') or gives a null ('emit_null'). `values`:
    a quiver.Array or any object with __arrow_c_array__ (an Array out), or a
    quiver / pyarrow Table or RecordBatch (the same kind out; the mask may be
    a ChunkedArray)."""
    mask = _as_array(mask)
    kind = _tabular(values)
    if kind is not None:
        return _compute.filter_table(values, mask, null_selection_behavior, kind == "batch")
    return _compute.filter(_as_array(values), mask, null_selection_behavior)


def take(data, indices, boundscheck=True):
    """The rows of `data` at `indices` (any integer type; a null index gives
    a null row; an index out of range raises quiver.IndexError), as
    pyarrow.compute.take. Arrays, Tables and RecordBatches as filter.
    Indices are always checked: boundscheck=False is accepted for pyarrow's
    signature and changes nothing."""
    indices = _as_array(indices)
    kind = _tabular(data)
    if kind is not None:
        return _compute.take_table(data, indices, bool(boundscheck), kind == "batch")
    return _compute.take(_as_array(data), indices, bool(boundscheck))


def concat_arrays(arrays):
    """The arrays one after the other, as pyarrow.concat_arrays (one type;
    dictionaries that differ are unified). Also quiver.concat_arrays."""
    return _compute.concat_arrays([_as_array(a) for a in arrays])


__all__ = ["simd_levels", "filter", "take"]


# --- Arithmetic and comparisons (python/src/compute_arith.cc) ----------------
# Arguments as pyarrow.compute takes them: arrays (anything with
# __arrow_c_array__), chunked arrays (a quiver.ChunkedArray comes back),
# Python values typed as pa.scalar types them (an int is int64), quiver or
# pyarrow scalars. Two scalars give a quiver.Scalar.


def add(x, y, /):
    """x + y; integers wrap on overflow (add_checked raises)."""
    return _compute.add(x, y)


def add_checked(x, y, /):
    """x + y; integer overflow raises InvalidError("overflow")."""
    return _compute.add_checked(x, y)


def subtract(x, y, /):
    """x - y; integers wrap on overflow (subtract_checked raises)."""
    return _compute.subtract(x, y)


def subtract_checked(x, y, /):
    """x - y; integer overflow raises InvalidError("overflow")."""
    return _compute.subtract_checked(x, y)


def multiply(x, y, /):
    """x * y; integers wrap on overflow (multiply_checked raises)."""
    return _compute.multiply(x, y)


def multiply_checked(x, y, /):
    """x * y; integer overflow raises InvalidError("overflow")."""
    return _compute.multiply_checked(x, y)


def divide(x, y, /):
    """x / y; integer division truncates toward zero and raises
    InvalidError("divide by zero") for a zero divisor; floats are IEEE."""
    return _compute.divide(x, y)


def divide_checked(x, y, /):
    """x / y; a zero divisor (floats too) and INT_MIN / -1 raise InvalidError."""
    return _compute.divide_checked(x, y)


def equal(x, y, /):
    """x == y as a boolean array (null where either side is null)."""
    return _compute.equal(x, y)


def not_equal(x, y, /):
    """x != y as a boolean array (NaN != anything is true)."""
    return _compute.not_equal(x, y)


def less(x, y, /):
    """x < y as a boolean array."""
    return _compute.less(x, y)


def less_equal(x, y, /):
    """x <= y as a boolean array."""
    return _compute.less_equal(x, y)


def greater(x, y, /):
    """x > y as a boolean array."""
    return _compute.greater(x, y)


def greater_equal(x, y, /):
    """x >= y as a boolean array."""
    return _compute.greater_equal(x, y)


def last_simd_level():
    """The SIMD level ('scalar', 'avx2', ...) the last kernel call on this
    thread ran at."""
    return _compute.last_simd_level()


__all__ += [
    "add", "add_checked", "subtract", "subtract_checked", "multiply", "multiply_checked",
    "divide", "divide_checked", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "last_simd_level",
]
