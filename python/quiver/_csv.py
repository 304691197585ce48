"""quiver.read_csv: CSV to a quiver.Table with Quiver's own reader
(src/quiver/csv: a vectorized RFC 4180 tokenizer, pyarrow.csv's type
inference), taking pyarrow.csv's option objects, dicts of their fields, or
the same names as keywords. An option pyarrow has and Quiver does not honour
raises quiver.NotImplementedError naming it; nothing is ignored.

Differences from pyarrow.csv, on purpose:
- newlines inside quoted values are read whether or not
  ``newlines_in_values`` is set (pyarrow reads them too within a block; the
  option only makes its block splitting safe, which Quiver's always is);
- ``infer_rows`` (Quiver extra): the rows type inference looks at (default:
  the first block, as pyarrow; ``"all"`` reads the input twice) and
  ``on_error`` (``"fail"`` or ``"skip"``: rows that do not parse or convert
  are dropped and counted in ``quiver.read_csv.last_rows_rejected``).
"""

import os

import quiver as _quiver_pkg
from quiver import _quiver

__all__ = ["ReadOptions", "ParseOptions", "ConvertOptions", "read_csv"]


class _Options:
    """An options object of pyarrow's shape: its fields and defaults in
    _fields, keywords checked, compared and printed by value (quiver.csv's
    and quiver.json's)."""
    _fields = {}
    _module = "csv"

    def __init__(self, **kwargs):
        for name, default in self._fields.items():
            setattr(self, name, kwargs.pop(name, default))
        if kwargs:
            raise TypeError(f"{type(self).__name__}: unexpected option {sorted(kwargs)[0]!r}")

    def _as_dict(self):
        return {name: getattr(self, name) for name in self._fields}

    def __repr__(self):
        body = ", ".join(f"{k}={v!r}" for k, v in self._as_dict().items())
        return f"quiver.{self._module}.{type(self).__name__}({body})"

    def __eq__(self, other):
        return type(self) is type(other) and self._as_dict() == other._as_dict()


class ReadOptions(_Options):
    """pyarrow.csv.ReadOptions' fields and defaults."""
    _fields = {"use_threads": True, "block_size": None, "skip_rows": 0,
               "skip_rows_after_names": 0, "column_names": None,
               "autogenerate_column_names": False, "encoding": "utf8"}


class ParseOptions(_Options):
    """pyarrow.csv.ParseOptions' fields and defaults."""
    _fields = {"delimiter": ",", "quote_char": '"', "double_quote": True,
               "escape_char": False, "newlines_in_values": False,
               "ignore_empty_lines": True, "invalid_row_handler": None}


class ConvertOptions(_Options):
    """pyarrow.csv.ConvertOptions' fields and defaults, plus Quiver's
    ``infer_rows`` and ``on_error``."""
    _fields = {"check_utf8": True, "column_types": None, "null_values": None,
               "true_values": None, "false_values": None, "decimal_point": ".",
               "strings_can_be_null": False, "quoted_strings_can_be_null": True,
               "include_columns": None, "include_missing_columns": False,
               "auto_dict_encode": False, "auto_dict_max_cardinality": None,
               "timestamp_parsers": None, "infer_rows": None, "on_error": "fail"}


def _fields_of(obj, cls, what):
    """The option values of a quiver or pyarrow options object, or a dict."""
    if obj is None:
        return {}
    if isinstance(obj, dict):
        unknown = set(obj) - set(cls._fields)
        if unknown:
            raise TypeError(f"read_csv: {what}: unknown option {sorted(unknown)[0]!r}")
        return dict(obj)
    out = {}
    for name in cls._fields:
        if hasattr(obj, name):
            out[name] = getattr(obj, name)
    if not out:
        raise TypeError(f"read_csv: {what} must be a quiver.csv.{cls.__name__}, a "
                        f"pyarrow.csv.{cls.__name__} or a dict, not {type(obj).__name__}")
    return out


def _refuse(option, value, default):
    if value is not None and value != default:
        raise _quiver_pkg.NotImplementedError(
            f"read_csv: {option}={value!r} is not supported by Quiver's CSV reader")


def _char(name, value):
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    if not isinstance(value, str) or len(value) != 1 or ord(value) > 127:
        raise ValueError(f"read_csv: {name} must be one ASCII character, got {value!r}")
    return value


def _read_source(source, encoding):
    """A path (str) for the C++ reader, or the bytes of the input."""
    if hasattr(source, "__fspath__"):
        source = os.fspath(source)
    if isinstance(source, bytes) and not isinstance(source, str):
        data = source
    elif isinstance(source, str):
        lower = source.lower()
        if lower.endswith((".gz", ".bz2", ".xz", ".zst", ".zstd", ".lz4")):
            data = _decompress_file(source)
        elif encoding is None:
            return source
        else:
            with open(source, "rb") as f:
                data = f.read()
    elif isinstance(source, (bytearray, memoryview)) or hasattr(source, "__buffer__"):
        data = bytes(memoryview(source))
    elif hasattr(source, "read"):
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
    elif hasattr(source, "to_pybytes"):  # a pyarrow Buffer
        data = source.to_pybytes()
    else:
        raise TypeError(f"read_csv: source must be a path, bytes, a buffer or a binary file "
                        f"object, not {type(source).__name__}")
    if encoding is not None:
        data = data.decode(encoding).encode("utf-8")
    return bytes(data)


def _decompress_file(path):
    lower = path.lower()
    if lower.endswith(".gz"):
        import gzip
        with gzip.open(path, "rb") as f:
            return f.read()
    if lower.endswith(".bz2"):
        import bz2
        with bz2.open(path, "rb") as f:
            return f.read()
    if lower.endswith(".xz"):
        import lzma
        with lzma.open(path, "rb") as f:
            return f.read()
    raise _quiver_pkg.NotImplementedError(
        f"read_csv: {os.path.basename(path)}: compressed input of this kind is read by "
        "`quiver convert` only; decompress it first")


def _type_map(column_types):
    if column_types is None:
        return None
    if isinstance(column_types, dict):
        return dict(column_types)
    if hasattr(column_types, "names") and hasattr(column_types, "types"):  # a schema
        return dict(zip(column_types.names, column_types.types))
    return {name: t for name, t in column_types}


def read_csv(source, read_options=None, parse_options=None, convert_options=None, **options):
    """Reads a CSV file (path, bytes, buffer or binary file object) into a
    quiver.Table, as pyarrow.csv.read_csv does; see the module docstring for
    the options and the differences."""
    r = _fields_of(read_options, ReadOptions, "read_options")
    p = _fields_of(parse_options, ParseOptions, "parse_options")
    c = _fields_of(convert_options, ConvertOptions, "convert_options")
    for name, value in options.items():
        for target, cls in ((r, ReadOptions), (p, ParseOptions), (c, ConvertOptions)):
            if name in cls._fields:
                target[name] = value
                break
        else:
            raise TypeError(f"read_csv: unexpected keyword {name!r}")

    _refuse("skip_rows_after_names", r.get("skip_rows_after_names"), 0)
    _refuse("escape_char", p.get("escape_char"), False)
    _refuse("invalid_row_handler", p.get("invalid_row_handler"), None)
    _refuse("include_missing_columns", c.get("include_missing_columns"), False)
    _refuse("auto_dict_encode", c.get("auto_dict_encode"), False)
    # (auto_dict_max_cardinality only matters with auto_dict_encode, refused above.)
    _refuse("timestamp_parsers", c.get("timestamp_parsers") or None, None)
    if r.get("use_threads", True) not in (True, False):
        raise TypeError("read_csv: use_threads must be a bool")

    read = {}
    if r.get("block_size") is not None:
        read["block_size"] = int(r["block_size"])
    read["skip_rows"] = int(r.get("skip_rows") or 0)
    if r.get("column_names"):
        read["column_names"] = [str(n) for n in r["column_names"]]
    read["autogenerate_column_names"] = bool(r.get("autogenerate_column_names", False))
    # use_threads (pyarrow's default True): the columns of each block are
    # converted on the CPU pool; the table is the same either way.
    read["use_threads"] = bool(r.get("use_threads", True))
    encoding = r.get("encoding") or "utf8"
    if encoding.lower().replace("-", "").replace("_", "") in ("utf8",):
        encoding = None

    parse = {"delimiter": _char("delimiter", p.get("delimiter", ","))}
    quote = p.get("quote_char", '"')
    parse["quote_char"] = False if quote is False else _char("quote_char", quote)
    for name in ("double_quote", "ignore_empty_lines", "newlines_in_values"):
        if name in p:
            parse[name] = bool(p[name])

    convert = {}
    for name in ("null_values", "true_values", "false_values", "include_columns"):
        if c.get(name) is not None:
            convert[name] = [str(v) for v in c[name]]
    for name in ("check_utf8", "strings_can_be_null", "quoted_strings_can_be_null"):
        if name in c:
            convert[name] = bool(c[name])
    convert["decimal_point"] = _char("decimal_point", c.get("decimal_point", "."))
    types = _type_map(c.get("column_types"))
    if types:
        convert["column_types"] = types
    infer_rows = c.get("infer_rows")
    if infer_rows is not None:
        if infer_rows == "all":
            convert["infer_rows"] = "all"
        elif isinstance(infer_rows, int) and infer_rows > 0:
            convert["infer_rows"] = infer_rows
        else:
            raise ValueError(f"read_csv: infer_rows must be a positive int or 'all', "
                             f"got {infer_rows!r}")
    on_error = c.get("on_error", "fail")
    if on_error not in ("fail", "skip"):
        raise ValueError(f"read_csv: on_error must be 'fail' or 'skip', got {on_error!r}")
    convert["on_error"] = on_error

    data = _read_source(source, encoding)
    table, rejected = _quiver._read_csv(data, read, parse, convert)
    read_csv.last_rows_rejected = rejected
    return table


read_csv.last_rows_rejected = 0
