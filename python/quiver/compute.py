"""quiver.compute: kernels over Arrow arrays with pyarrow.compute's names,
options and semantics (src/quiver/compute; docs/design.md "Compute")."""

from quiver._quiver import _Scalar, _compute
from quiver._scalar import Scalar


def simd_levels():
    """{'detected': level, 'active': level}: the SIMD level this CPU supports
    and the one the kernels use ('scalar', 'avx2' or 'avx512'; the
    QUIVER_SIMD_LEVEL environment variable caps it)."""
    return dict(_compute.simd_levels())


# --- Selection: filter, take (and quiver.concat_arrays) --------------------


def _as_array(obj):
    """An object ArrayFromPy takes: a pyarrow or quiver ChunkedArray combined
    into one array; a Python list or tuple typed as pyarrow.array types it
    (as pyarrow.compute accepts them: None/bool/int/float/str/bytes values
    by Quiver, others through pyarrow)."""
    if isinstance(obj, (list, tuple)):
        from quiver._quiver import _array_from_pylist

        return _array_from_pylist(list(obj), None)
    if not hasattr(obj, "__arrow_c_array__") and hasattr(obj, "combine_chunks"):
        return obj.combine_chunks()
    if not hasattr(obj, "__arrow_c_array__") and hasattr(obj, "num_chunks"):
        # A quiver.ChunkedArray (what a kernel gives for a chunked input).
        if obj.num_chunks == 1:
            return obj.chunk(0)
        if obj.num_chunks > 1:
            return _compute.concat_arrays([obj.chunk(i) for i in range(obj.num_chunks)])
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

# --- Aggregates (src/quiver/compute/aggregate.h) ------------------------------
# (sum, min and max below shadow the builtins in this module: code here that
# needs those uses builtins.sum / builtins.min / builtins.max.)


def _aggregate(function, array, skip_nulls, min_count, mode="only_valid"):
    if isinstance(min_count, bool) or not isinstance(min_count, int):
        raise TypeError(f"min_count must be an int, not {type(min_count).__name__}")
    if min_count < 0:
        raise OverflowError("can't convert negative value to uint32_t")
    if min_count > 0xFFFFFFFF:
        raise OverflowError("value too large to convert to uint32_t")
    return Scalar(_compute.aggregate(function, array, bool(skip_nulls), min_count, mode))


def sum(array, /, *, skip_nulls=True, min_count=1):  # noqa: A001 (pyarrow's name)
    """The sum of the values (pyarrow.compute.sum): int64 / uint64 for integers
    (wrapping), uint64 for booleans, double for floats (pairwise summation),
    decimal128(38, s) / decimal256(76, s) for decimals. A ChunkedArray (or any
    object with __arrow_c_stream__) sums over every chunk."""
    return _aggregate("sum", array, skip_nulls, min_count)


def mean(array, /, *, skip_nulls=True, min_count=1):
    """The mean of the values (pyarrow.compute.mean): double, or the decimal
    type of a decimal input (rounded half away from zero)."""
    return _aggregate("mean", array, skip_nulls, min_count)


def min(array, /, *, skip_nulls=True, min_count=1):  # noqa: A001
    """The smallest value (pyarrow.compute.min); floats skip NaN unless every
    value is NaN."""
    return _aggregate("min", array, skip_nulls, min_count)


def max(array, /, *, skip_nulls=True, min_count=1):  # noqa: A001
    """The largest value (pyarrow.compute.max)."""
    return _aggregate("max", array, skip_nulls, min_count)


def min_max(array, /, *, skip_nulls=True, min_count=1):
    """{'min': ..., 'max': ...} as a struct scalar (pyarrow.compute.min_max)."""
    return _aggregate("min_max", array, skip_nulls, min_count)


def count(array, /, mode="only_valid"):
    """The number of valid ('only_valid'), null ('only_null') or all ('all')
    values, an int64 scalar (pyarrow.compute.count)."""
    return _aggregate("count", array, True, 1, mode)


# --- Boolean kernels and null predicates (boolean.h, null_predicates.h) ---------


def _wrap(result):
    return Scalar(result) if isinstance(result, _Scalar) else result


def and_(x, y, /):
    """x AND y, null where either is null (pyarrow.compute.and_)."""
    return _wrap(_compute.boolean("and", x, y))


def or_(x, y, /):
    """x OR y, null where either is null (pyarrow.compute.or_)."""
    return _wrap(_compute.boolean("or", x, y))


def xor(x, y, /):
    """x XOR y, null where either is null (pyarrow.compute.xor)."""
    return _wrap(_compute.boolean("xor", x, y))


def and_kleene(x, y, /):
    """x AND y in Kleene logic: false AND null is false (pyarrow.compute.and_kleene)."""
    return _wrap(_compute.boolean("and_kleene", x, y))


def or_kleene(x, y, /):
    """x OR y in Kleene logic: true OR null is true (pyarrow.compute.or_kleene)."""
    return _wrap(_compute.boolean("or_kleene", x, y))


def invert(values, /):
    """NOT values, null where null (pyarrow.compute.invert)."""
    return _wrap(_compute.invert(values))


def is_null(values, /, *, nan_is_null=False):
    """Whether each value is null (or NaN, with nan_is_null), a boolean array
    without nulls (pyarrow.compute.is_null)."""
    return _wrap(_compute.null_predicate("is_null", values, bool(nan_is_null)))


def is_valid(values, /):
    """Whether each value is valid (pyarrow.compute.is_valid)."""
    return _wrap(_compute.null_predicate("is_valid", values, False))


def is_nan(values, /):
    """Whether each value is NaN, null where null: numeric types only
    (pyarrow.compute.is_nan)."""
    return _wrap(_compute.null_predicate("is_nan", values, False))


__all__ += [
    "sum",
    "mean",
    "min",
    "max",
    "min_max",
    "count",
    "and_",
    "or_",
    "xor",
    "and_kleene",
    "or_kleene",
    "invert",
    "is_null",
    "is_valid",
    "is_nan",
]

from quiver._compute_string import *  # noqa: E402,F401,F403 - is_in, match_like, starts_with, ...
from quiver._compute_string import __all__ as _string_names; __all__ += _string_names  # noqa: E402,E702
from quiver._compute_cast import CastOptions, cast  # noqa: E402,F401 (cast.h)

__all__ += ["cast", "CastOptions"]
from quiver._compute_expression import Expression, field, filters_to_expression, scalar  # noqa: E402,F401 (expression.h)

__all__ += ["Expression", "field", "scalar", "filters_to_expression"]
from quiver._compute_sort import SortOptions, sort_indices  # noqa: E402,F401 (sort.h)

__all__ += ["sort_indices", "SortOptions"]
