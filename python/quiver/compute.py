"""quiver.compute: kernels over Arrow arrays with pyarrow.compute's names,
options and semantics (src/quiver/compute; docs/design.md "Compute")."""

from quiver._quiver import _Scalar, _compute
from quiver._scalar import Scalar


def simd_levels():
    """{'detected': level, 'active': level}: the SIMD level this CPU supports
    and the one the kernels use ('scalar', 'avx2' or 'avx512'; the
    QUIVER_SIMD_LEVEL environment variable caps it)."""
    return dict(_compute.simd_levels())


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


__all__ = [
    "simd_levels",
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
