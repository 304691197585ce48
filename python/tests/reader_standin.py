"""A pyarrow imitation of Quiver's reading API (docs/interfaces.md, "Reading, as pyarrow
names it"), used ONLY to check the reader tests themselves before quiver.read_table exists:

    QUIVER_READER_STANDIN=pyarrow pytest python/tests/test_reader_*.py

With it the tests compare pyarrow with pyarrow: a pass says the manifest, the file
generators and reader_compare.py work, and nothing about Quiver. It is never the default
(reader_compare.reader_api). Where pyarrow's own API differs from Quiver's promise, this
module adds what the promise says: unknown keywords raise TypeError, unknown columns raise
an error naming them (pyarrow's ParquetFile ignores them), errors are quiver.QuiverError
subclasses, encrypted files raise NotImplementedError.
"""

from __future__ import annotations

import contextlib
import os

import pyarrow as pa
import pyarrow.parquet as pq

import quiver

IS_STANDIN = True

QuiverError = quiver.QuiverError
Table = pa.Table

# read_table's options besides columns and row_groups (pyarrow's names).
FILE_OPTIONS = ("read_dictionary", "binary_type", "list_type", "coerce_int96_timestamp_unit",
                "page_checksum_verification", "thrift_string_size_limit",
                "thrift_container_size_limit")
OPTIONS = FILE_OPTIONS + ("batch_size",)


@contextlib.contextmanager
def _as_quiver_errors():
    try:
        yield
    except quiver.QuiverError:
        raise
    except (pa.ArrowException, OSError, ValueError) as e:
        msg = str(e)
        if "crypt" in msg:
            raise quiver.NotImplementedError(f"encrypted Parquet files are not supported: {msg}") from e
        for arrow, ours in ((pa.ArrowNotImplementedError, quiver.NotImplementedError),
                            (pa.ArrowIndexError, quiver.IndexError),
                            (pa.ArrowKeyError, quiver.KeyError),
                            (pa.ArrowTypeError, quiver.TypeError),
                            (pa.ArrowCapacityError, quiver.CapacityError),
                            (pa.ArrowMemoryError, quiver.OutOfMemoryError),
                            (OSError, quiver.IOError)):
            if isinstance(e, arrow):
                raise ours(msg) from e
        raise quiver.InvalidError(msg) from e


def _source(source):
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return pa.BufferReader(pa.py_buffer(source))
    if hasattr(source, "read") and hasattr(source, "seek"):
        return source
    raise TypeError(f"source must be a path, a buffer or a binary file object, not {type(source).__name__}")


def _check_columns(pf, columns):
    if columns is None:
        return
    top = set(pf.schema_arrow.names)
    leaves = [pf.schema.column(i).path for i in range(len(pf.schema))]
    for name in columns:
        if name in top or any(p == name or p.startswith(name + ".") for p in leaves):
            continue
        raise quiver.KeyError(f"no column named {name!r} in the file")


def _leaf_paths(source, names):
    """read_dictionary's names as leaf paths (parquet_to_arrow.h: a top-level name means
    every leaf below it; a name that is no column is Invalid)."""
    with _as_quiver_errors():
        schema = pq.ParquetFile(_source(source)).schema
    leaves = [schema.column(i).path for i in range(len(schema))]
    out = []
    for name in names:
        below = [p for p in leaves if p == name or p.startswith(name + ".")]
        if not below:
            raise quiver.InvalidError(f"read_dictionary: no column named {name!r}")
        out += below
    if hasattr(source, "seek"):
        source.seek(0)
    return out


class ParquetFile:
    def __init__(self, source, **options):
        unknown = sorted(set(options) - set(FILE_OPTIONS))
        if unknown:
            raise TypeError(f"ParquetFile() got an unexpected keyword argument {unknown[0]!r}")
        if options.get("read_dictionary"):
            options["read_dictionary"] = _leaf_paths(source, options["read_dictionary"])
        with _as_quiver_errors():
            self._pf = pq.ParquetFile(_source(source), **options)

    @property
    def metadata(self):
        return self._pf.metadata

    @property
    def schema_arrow(self):
        return self._pf.schema_arrow

    @property
    def num_row_groups(self):
        return self._pf.num_row_groups

    def _row_groups(self, row_groups):
        for i in row_groups:
            if not 0 <= i < self._pf.num_row_groups:
                raise quiver.IndexError(f"row group {i} out of range: the file has "
                                        f"{self._pf.num_row_groups}")

    def read(self, columns=None):
        _check_columns(self._pf, columns)
        with _as_quiver_errors():
            return self._pf.read(columns=columns)

    def read_row_group(self, i, columns=None):
        return self.read_row_groups([i], columns)

    def read_row_groups(self, row_groups, columns=None):
        self._row_groups(row_groups)
        _check_columns(self._pf, columns)
        with _as_quiver_errors():
            return self._pf.read_row_groups(row_groups, columns=columns)

    def iter_batches(self, batch_size=65536, row_groups=None, columns=None):
        if row_groups is not None:
            self._row_groups(row_groups)
        _check_columns(self._pf, columns)
        with _as_quiver_errors():
            yield from self._pf.iter_batches(batch_size=batch_size, row_groups=row_groups,
                                             columns=columns)


def read_table(source, columns=None, row_groups=None, **options):
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise TypeError(f"read_table() got an unexpected keyword argument {unknown[0]!r}")
    options.pop("batch_size", None)
    f = ParquetFile(source, **options)
    if options.get("read_dictionary"):
        options["read_dictionary"] = _leaf_paths(source, options["read_dictionary"])
    if row_groups is None and columns is None:
        # pq.read_table, not ParquetFile.read: the latter fails on some files the former
        # reads (list<dictionary> over many row groups: "Nested data conversions not
        # implemented for chunked array outputs").
        if hasattr(source, "seek"):
            source.seek(0)
        with _as_quiver_errors():
            return pq.read_table(_source(source), **options)
    if row_groups is None:
        return f.read(columns=columns)
    return f.read_row_groups(list(row_groups), columns=columns)


read_parquet = read_table
