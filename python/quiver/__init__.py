"""Quiver: Arrow columnar data and Apache Parquet, fast.

    import pyarrow as pa, quiver
    q = quiver.table(pa.table({"x": [1, 2, 3]}))   # any Arrow PyCapsule object
    pa.table(q)                                    # and back, zero-copy

Errors raise QuiverError subclasses whose message is the C++ Status message.
"""

import builtins as _builtins


class QuiverError(Exception):
    """Base class of every error raised by Quiver."""


class InvalidError(QuiverError, ValueError):
    """Invalid input: bad data, a malformed file, a wrong option."""


class IOError(QuiverError, _builtins.OSError):  # noqa: A001 - the C++ status name
    """An I/O failure."""


class OutOfMemoryError(QuiverError, _builtins.MemoryError):
    """An allocation failed or exceeded a memory cap."""


class NotImplementedError(QuiverError, _builtins.NotImplementedError):  # noqa: A001
    """A feature Quiver does not support (yet)."""


class KeyError(QuiverError, _builtins.KeyError):  # noqa: A001
    """A missing key or name."""


class TypeError(QuiverError, _builtins.TypeError):  # noqa: A001
    """A type mismatch."""


class IndexError(QuiverError, _builtins.IndexError):  # noqa: A001
    """An index out of range."""


class CapacityError(QuiverError):
    """Data too large for its container (e.g. 32-bit offsets overflow)."""


from quiver._quiver import (  # noqa: E402
    __version__,
    Array,
    append_parquet,
    BufferOutputStream,
    ChunkedArray,
    Field,
    RecordBatch,
    Table,
    Schema,
    field,
    memory_pool_backend,
    read_ipc,
    schema,
    write_ipc,
)

from quiver._decryption import DecryptionProperties, decryption_properties  # noqa: E402,F401
from quiver._encryption import EncryptionProperties, encryption_properties  # noqa: E402,F401
from quiver._parquet import (  # noqa: E402
    BloomFilter,
    ColumnChunkMetaData,
    FileMetaData,
    ParquetFile,
    RowGroupMetaData,
    Statistics,
    read_parquet,
    read_table,
)
from quiver._scalar import DataType, Scalar  # noqa: E402
from quiver._writer import ParquetWriter, write_metadata, write_parquet  # noqa: E402
from quiver._dataset_write import write_to_dataset  # noqa: E402
from quiver._dataset import ParquetDataset  # noqa: E402
from quiver._table import array, concat_tables, table, type_for_alias  # noqa: E402,F401
from quiver._csv import read_csv  # noqa: E402
from quiver._json import read_json  # noqa: E402

# The exception classes named like Python's builtins (IOError,
# NotImplementedError, KeyError, TypeError, IndexError) stay reachable as
# quiver.X but are kept out of __all__, so that `from quiver import *` does
# not shadow the builtins.
__all__ = [
    "Array",
    "ChunkedArray",
    "RecordBatch",
    "read_table",
    "read_parquet",
    "read_csv",
    "read_json",
    "ParquetFile",
    "FileMetaData",
    "RowGroupMetaData",
    "ColumnChunkMetaData",
    "Statistics",
    "Scalar",
    "DataType",
    "Schema",
    "Field",
    "field",
    "schema",
    "concat_tables",
    "type_for_alias",
    "BloomFilter",
    "Table",
    "array",
    "table",
    "write_parquet",
    "write_to_dataset",
    "write_metadata",
    "ParquetDataset",
    "append_parquet",
    "write_ipc",
    "read_ipc",
    "ParquetWriter",
    "BufferOutputStream",
    "memory_pool_backend",
    "QuiverError",
    "InvalidError",
    "OutOfMemoryError",
    "CapacityError",
]
from quiver import compute  # noqa: E402,F401
from quiver import csv  # noqa: E402,F401
from quiver.compute import concat_arrays  # noqa: E402

__all__.append("concat_arrays")


def __getattr__(name):
    """quiver.dask and quiver.ray, imported on first use: importing quiver
    imports neither Dask nor Ray (an ImportError naming the package to
    install when it is missing)."""
    if name in ("dask", "ray"):
        import importlib

        return importlib.import_module(f"quiver.{name}")
    raise AttributeError(f"module 'quiver' has no attribute {name!r}")
