"""quiver.compute.cast and quiver.compute.CastOptions (src/quiver/compute/cast.h;
python/src/compute_cast.cc)."""

from quiver._quiver import _compute
from quiver._scalar import DataType

_ALLOW_FLAGS = ("allow_int_overflow", "allow_time_truncate", "allow_time_overflow",
                "allow_decimal_truncate", "allow_float_truncate", "allow_invalid_utf8")


class CastOptions:
    """Options of quiver.compute.cast, as pyarrow.compute.CastOptions: a target
    type and one switch, `safe`. pyarrow's allow_* attributes read as `not safe`
    (Quiver's cast turns every check on or off together)."""

    __slots__ = ("target_type", "_safe")

    def __init__(self, target_type=None, safe=True):
        self.target_type = target_type
        self._safe = bool(safe)

    @classmethod
    def safe(cls, target_type=None):
        return cls(target_type, True)

    @classmethod
    def unsafe(cls, target_type=None):
        return cls(target_type, False)

    def is_safe(self):
        return self._safe

    def __getattr__(self, name):
        if name in _ALLOW_FLAGS:
            return not self._safe
        raise AttributeError(name)

    def __repr__(self):
        return f"quiver.compute.CastOptions(target_type={self.target_type}, safe={self._safe})"


def _from_options(options):
    """(target_type, safe) of a quiver or pyarrow CastOptions."""
    if isinstance(options, CastOptions):
        return options.target_type, options.is_safe()
    flags = [getattr(options, name, None) for name in _ALLOW_FLAGS]
    if any(f is None for f in flags):
        raise TypeError(f"options must be a CastOptions, got {type(options)}")
    if len(set(flags)) > 1:
        on = [name for name, f in zip(_ALLOW_FLAGS, flags) if f]
        raise NotImplementedError(
            "quiver.compute.cast has one switch, safe (every check on or off): options "
            f"that allow only {', '.join(on)} are not supported")
    # pyarrow's CastOptions shows its target type only in its text.
    text = repr(options)
    start = text.find("to_type=")
    end = text.find(", allow_int_overflow=")
    target = text[start + len("to_type="):end] if 0 <= start < end else None
    if target in (None, "", "<NULLPTR>", "null_type"):
        target = None
    return target, not flags[0]


def cast(arr, target_type=None, safe=None, options=None):
    """`arr` cast to `target_type`, as pyarrow.compute.cast.

    arr: an array (anything with __arrow_c_array__), a chunked array (a
    quiver.ChunkedArray comes back), a Python list (through pyarrow.array),
    or a scalar (a quiver.Scalar comes back). target_type: any object with
    __arrow_c_schema__ (a pyarrow DataType), a quiver.DataType, or a type
    string: pyarrow's aliases ('int64', 'i8', 'float', 'str', 'timestamp[ms]',
    'duration[s]', 'date32[day]', case-insensitive) and the forms Arrow prints
    ('timestamp[ms, tz=UTC]', 'time32[s]', 'decimal128(10, 2)',
    'fixed_size_binary[3]'); an unknown string is a ValueError, as pyarrow's.
    safe (default True): out-of-range integers, integers beyond 2^24 / 2^53
    to float32 / float64, floats with a fraction, NaN or out of range to
    integers, temporal values losing precision or overflowing, bytes that
    are not UTF-8 to a string type, decimals losing digits or past the
    target's precision, and decimals out of an integer type's range raise
    quiver.InvalidError; safe=False wraps / truncates as pyarrow's unchecked
    cast (docs/design.md, Cast). Text parsed as integers ('-12', '0x1F'),
    floats ('+1.5e3', 'inf', 'nan') or booleans ('true', '0') raises
    quiver.InvalidError naming the last value that does not parse, safe or
    not.
    options: a quiver.compute.CastOptions or a pyarrow.compute.CastOptions
    whose allow_* flags are all equal, instead of target_type and safe.
    A pair of types Quiver cannot cast raises quiver.NotImplementedError
    naming both ("Unsupported cast from int32 to binary using function
    cast_binary")."""
    if options is not None:
        if target_type is not None or safe is not None:
            raise ValueError(
                "Must either pass values for 'target_type' and 'safe' or pass a value for 'options'")
        target_type, safe = _from_options(options)
    if target_type is None:
        raise TypeError("DataType expected, got <class 'NoneType'>")
    if isinstance(target_type, DataType):
        target_type = target_type._t  # exported through __arrow_c_schema__, nested types too
    if isinstance(arr, (list, tuple)):
        import pyarrow

        arr = pyarrow.array(arr)
    return _compute.cast(arr, target_type, True if safe is None else bool(safe))


__all__ = ["cast", "CastOptions"]
