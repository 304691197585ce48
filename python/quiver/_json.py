"""quiver.read_json: JSON Lines to a quiver.Table with Quiver's own reader
(src/quiver/json: Debian's simdjson, pyarrow.json's type inference), taking
pyarrow.json's option objects (ReadOptions, ParseOptions), dicts of their
fields, or the same names as keywords. An option Quiver does not honour
raises quiver.NotImplementedError naming it; nothing is ignored.

As pyarrow.json.read_json, types are widened over the whole input (an int64
column that holds a fraction further down is double), and a field that
first appears in a later row is added (``unexpected_field_behavior="infer"``).
``use_threads`` is taken for pyarrow's option set: the blocks are parsed on
the calling thread, and the table is the one pyarrow's threads would give.
Objects may span lines (whatever ``newlines_in_values`` says) when they do
not cross a block boundary.
"""

import os

import quiver as _quiver_pkg
from quiver import _quiver
from quiver._csv import _Options as _csv_options
from quiver._csv import _decompress_file

__all__ = ["ReadOptions", "ParseOptions", "read_json"]

_READ_FIELDS = {"use_threads": True, "block_size": None}
_PARSE_FIELDS = {"explicit_schema": None, "newlines_in_values": False,
                 "unexpected_field_behavior": "infer"}


class _Options(_csv_options):
    _module = "json"


class ReadOptions(_Options):
    """pyarrow.json.ReadOptions' fields and defaults."""
    _fields = _READ_FIELDS


class ParseOptions(_Options):
    """pyarrow.json.ParseOptions' fields and defaults."""
    _fields = _PARSE_FIELDS


def _fields_of(obj, fields, what):
    if obj is None:
        return {}
    if isinstance(obj, dict):
        unknown = set(obj) - set(fields)
        if unknown:
            raise _quiver_pkg.NotImplementedError(
                f"read_json: {what}: option {sorted(unknown)[0]!r} is not supported")
        return dict(obj)
    return {name: getattr(obj, name) for name in fields if hasattr(obj, name)}


def _source(source):
    """A path (str) for the C++ reader (.gz and .zst decompressed there), or
    the bytes of the input."""
    if hasattr(source, "__fspath__"):
        source = os.fspath(source)
    if isinstance(source, str):
        if source.lower().endswith((".bz2", ".xz")):
            return _decompress_file(source)
        return source
    if isinstance(source, (bytes, bytearray, memoryview)) or hasattr(source, "__buffer__"):
        return bytes(memoryview(source))
    if hasattr(source, "read"):
        data = source.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if hasattr(source, "to_pybytes"):  # a pyarrow Buffer
        return source.to_pybytes()
    raise TypeError(f"read_json: source must be a path, bytes, a buffer or a binary file "
                    f"object, not {type(source).__name__}")


def read_json(source, read_options=None, parse_options=None, memory_pool=None, **options):
    """Reads JSON Lines (path, bytes, buffer or binary file object) into a
    quiver.Table, as pyarrow.json.read_json does; see the module docstring."""
    if memory_pool is not None:
        raise _quiver_pkg.NotImplementedError("read_json: memory_pool is not supported")
    r = _fields_of(read_options, _READ_FIELDS, "read_options")
    p = _fields_of(parse_options, _PARSE_FIELDS, "parse_options")
    for name, value in options.items():
        if name in _READ_FIELDS:
            r[name] = value
        elif name in _PARSE_FIELDS:
            p[name] = value
        else:
            raise TypeError(f"read_json: unexpected keyword {name!r}")

    if r.get("use_threads", True) not in (True, False):
        raise TypeError("read_json: use_threads must be a bool")
    read = {}
    if r.get("block_size") is not None:
        block_size = r["block_size"]
        if not isinstance(block_size, int) or block_size <= 0:
            raise ValueError(f"read_json: block_size must be a positive int, got {block_size!r}")
        read["block_size"] = block_size
    parse = {"newlines_in_values": bool(p.get("newlines_in_values", False))}
    behavior = p.get("unexpected_field_behavior", "infer")
    if behavior not in ("ignore", "error", "infer"):
        raise ValueError(f"read_json: unexpected_field_behavior must be 'ignore', 'error' or "
                         f"'infer', got {behavior!r}")
    parse["unexpected_field_behavior"] = behavior
    if p.get("explicit_schema") is not None:
        parse["explicit_schema"] = p["explicit_schema"]
    return _quiver._read_json(_source(source), read, parse)
