"""quiver.compute's is_in and string predicates (match_like, starts_with,
ends_with, match_substring), with pyarrow.compute's signatures and semantics
(src/quiver/compute/set_lookup.h, string_predicates.h; docs/design.md
"Compute"). compute.py imports them."""

from quiver._quiver import _compute

_NO_VALUE = object()


class SetLookupOptions:
    """Options of is_in, as pyarrow.compute.SetLookupOptions: the value set
    (an array or chunked array) and whether nulls are skipped."""

    def __init__(self, value_set, *, skip_nulls=False):
        self.value_set = value_set
        self.skip_nulls = skip_nulls

    def __repr__(self):
        return f"SetLookupOptions(value_set={self.value_set!r}, skip_nulls={bool(self.skip_nulls)})"


class MatchSubstringOptions:
    """Options of the string predicates, as
    pyarrow.compute.MatchSubstringOptions: the pattern (str or bytes) and
    whether case is ignored."""

    def __init__(self, pattern, *, ignore_case=False):
        self.pattern = pattern
        self.ignore_case = ignore_case

    def __repr__(self):
        return f"MatchSubstringOptions(pattern={self.pattern!r}, ignore_case={bool(self.ignore_case)})"


def _values(obj):
    """A list or tuple of values becomes an array, as pyarrow.compute makes
    one (through pyarrow.array); anything else goes as it is."""
    if isinstance(obj, (list, tuple)):
        import pyarrow

        return pyarrow.array(obj)
    return obj


def _value_set(obj):
    """The value set as one array: a ChunkedArray (quiver or pyarrow) is
    combined; a scalar is pyarrow's InvalidError, another object its
    TypeError."""
    from quiver import InvalidError
    from quiver.compute import _as_array

    if hasattr(obj, "__arrow_c_array__"):
        return obj
    if hasattr(obj, "num_chunks") or hasattr(obj, "combine_chunks"):
        return _as_array(obj)
    if hasattr(obj, "as_py") and hasattr(obj, "type"):
        raise InvalidError("Set lookup value set must be Array or ChunkedArray")
    raise TypeError(f'"{obj}" is not a valid value set')


def _options(function, options, cls, given):
    if options is None:
        return None
    if given:
        raise TypeError(
            f"Function '{function}' called with both an 'options' argument and additional arguments")
    if not isinstance(options, cls):
        raise TypeError(
            f"quiver.compute.{function} takes a quiver.compute.{cls.__name__} as options "
            f"(got {type(options).__module__}.{type(options).__name__}, whose fields Quiver cannot read)")
    return options


def is_in(values, /, value_set=_NO_VALUE, *, skip_nulls=_NO_VALUE, options=None):
    """Whether each value is in `value_set`, as pyarrow.compute.is_in: a
    boolean array without nulls (a null value is true when the value set
    holds a null and skip_nulls is false). The value set is cast to the
    values' type as pyarrow casts it (or the values to its type when that
    fails); numbers compare by their bits (0.0 is not -0.0). Values: an
    array, a ChunkedArray (a quiver.ChunkedArray back) or a scalar; every
    primitive, temporal, decimal128/256, boolean, string / binary (the view
    layouts too), fixed-size binary and dictionary type."""
    opts = _options("is_in", options, SetLookupOptions,
                    value_set is not _NO_VALUE or skip_nulls is not _NO_VALUE)
    if opts is not None:
        value_set, skip_nulls = opts.value_set, opts.skip_nulls
    if value_set is _NO_VALUE or value_set is None:
        from quiver import InvalidError

        raise InvalidError("Function 'is_in' cannot be called without options")
    skip = False if skip_nulls is _NO_VALUE or skip_nulls is None else bool(skip_nulls)
    return _compute.is_in(_values(values), _value_set(value_set), skip)


def _match(function, strings, pattern, ignore_case, options):
    opts = _options(function, options, MatchSubstringOptions,
                    pattern is not _NO_VALUE or ignore_case is not _NO_VALUE)
    if opts is not None:
        pattern, ignore_case = opts.pattern, opts.ignore_case
    if pattern is _NO_VALUE:
        from quiver import InvalidError

        raise InvalidError(f"Function '{function}' cannot be called without options")
    if isinstance(pattern, str):
        pattern = pattern.encode("utf-8")
    elif not isinstance(pattern, (bytes, bytearray, memoryview)):
        raise TypeError(f"expected bytes, {type(pattern).__name__} found")
    fold = False if ignore_case is _NO_VALUE else bool(ignore_case)
    return _compute.string_match(function, _values(strings), bytes(pattern), fold)


def match_like(strings, /, pattern=_NO_VALUE, *, ignore_case=_NO_VALUE, options=None):
    """Whether each string matches the SQL LIKE `pattern`, as
    pyarrow.compute.match_like: '%' matches any run of characters, '_' one
    character (a code point; a byte of a binary value), '\\' makes the next
    character literal. ignore_case: Unicode simple case folding, as
    pyarrow's. NOT LIKE is invert(match_like(...)). Strings: string,
    large_string, string_view, binary, large_binary, binary_view."""
    return _match("match_like", strings, pattern, ignore_case, options)


def starts_with(strings, /, pattern=_NO_VALUE, *, ignore_case=_NO_VALUE, options=None):
    """Whether each string starts with `pattern` (a literal), as
    pyarrow.compute.starts_with."""
    return _match("starts_with", strings, pattern, ignore_case, options)


def ends_with(strings, /, pattern=_NO_VALUE, *, ignore_case=_NO_VALUE, options=None):
    """Whether each string ends with `pattern` (a literal), as
    pyarrow.compute.ends_with."""
    return _match("ends_with", strings, pattern, ignore_case, options)


def match_substring(strings, /, pattern=_NO_VALUE, *, ignore_case=_NO_VALUE, options=None):
    """Whether each string contains `pattern` (a literal), as
    pyarrow.compute.match_substring."""
    return _match("match_substring", strings, pattern, ignore_case, options)


__all__ = [
    "SetLookupOptions", "MatchSubstringOptions", "is_in", "match_like", "starts_with",
    "ends_with", "match_substring",
]
