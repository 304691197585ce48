"""Reading Parquet files, as pyarrow.parquet names it.

    t = quiver.read_table("data.parquet", columns=["a", "b.c"])
    f = quiver.ParquetFile("data.parquet")
    f.metadata.row_group(0).column(0).statistics.min
    for batch in f.iter_batches(batch_size=65536): ...

Results are quiver.Table / quiver.RecordBatch objects: pyarrow, polars and
duckdb take them zero-copy through the Arrow PyCapsule interface
(pa.table(t), pl.DataFrame(t), duckdb.sql("select * from t")).
"""

import datetime as _datetime
import decimal as _decimal
import struct as _struct
import warnings as _warnings

from quiver._quiver import _ParquetFile


def read_table(source, columns=None, row_groups=None, **options):
    """Reads a Parquet file into a quiver.Table (pyarrow.parquet.read_table's
    names: columns, row_groups, read_dictionary, binary_type, list_type,
    coerce_int96_timestamp_unit, page_checksum_verification,
    thrift_string_size_limit, thrift_container_size_limit; batch_size chunks
    the result; memory_limit caps the reader's memory in bytes). `source`: a
    path, a bytes-like object or a binary file object. Any other keyword is
    a TypeError."""
    batch_size = options.get("batch_size")
    f = _open(source, options)
    return f.read(columns, row_groups, batch_size)


def _open(source, options):
    f = _ParquetFile(source, **options)
    # What the reader worked around (e.g. an ARROW:schema that does not
    # decode, which is then ignored) is reported, not hidden.
    for message in f.warnings:
        _warnings.warn(f"quiver: {message}", RuntimeWarning, stacklevel=3)
    return f


read_parquet = read_table


class Schema:
    """An Arrow schema held by Quiver (pa.schema(s) takes it zero-copy)."""

    def __init__(self, file, columns=None):
        self._file = file
        self._columns = columns

    def __arrow_c_schema__(self):
        return self._file.schema_capsule(self._columns)

    def to_string(self):
        import pyarrow as pa  # only for printing

        return pa.schema(self).to_string()

    def __repr__(self):
        return "quiver.Schema\n" + self._file.schema_string()


class ParquetFile:
    """A Parquet file opened for reading (pyarrow.parquet.ParquetFile's names)."""

    def __init__(self, source, **options):
        self._file = _open(source, options)
        self._metadata = None

    @property
    def metadata(self):
        if self._metadata is None:
            self._metadata = FileMetaData(self._file.metadata_dict())
        return self._metadata

    @property
    def schema_arrow(self):
        return Schema(self._file)

    @property
    def num_row_groups(self):
        return self._file.num_row_groups

    @property
    def warnings(self):
        """Problems the reader worked around (e.g. a corrupt ARROW:schema)."""
        return list(self._file.warnings)

    def read(self, columns=None):
        return self._file.read(columns, None, None)

    def bloom_filter(self, row_group, column):
        """The bloom filter of a column chunk (`column`: leaf index or dotted
        path), or None when it has none. `value in f` / f.might_contain(value):
        False means the value is certainly not in the chunk."""
        d = self._file.metadata_dict()
        paths = [c["path"] for c in d["columns"]]
        if isinstance(column, str):
            if column not in paths:
                raise KeyError(f"no leaf column {column!r} (leaf columns: {paths})")
            column = paths.index(column)
        if not 0 <= row_group < len(d["row_groups"]):
            raise IndexError(f"row group {row_group} out of range (the file has {len(d['row_groups'])})")
        chunks = d["row_groups"][row_group]["columns"]
        if not 0 <= column < len(chunks):
            raise IndexError(f"column {column} out of range (the row group has {len(chunks)})")
        if chunks[column].get("bloom_filter_offset") is None:
            return None
        return BloomFilter(self._file, row_group, column)

    def read_row_group(self, i, columns=None):
        return self._file.read(columns, [i], None)

    def read_row_groups(self, row_groups, columns=None):
        return self._file.read(columns, list(row_groups), None)

    def iter_batches(self, batch_size=65536, row_groups=None, columns=None):
        return self._file.iter_batches(columns, row_groups, batch_size)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class BloomFilter:
    """A column chunk's bloom filter (split block, as parquet-format BloomFilter.md)."""

    def __init__(self, file, row_group, column):
        self._file, self._row_group, self._column = file, row_group, column

    def might_contain(self, value):
        """False: `value` (a Python value of the column's physical type; str or bytes for
        byte arrays) is certainly not in the chunk. True: it may be."""
        return bool(self._file.bloom_filter_contains(self._row_group, self._column, value))

    __contains__ = might_contain


_PLAIN_STRUCT = {"INT32": "<i", "INT64": "<q", "FLOAT": "<f", "DOUBLE": "<d"}


def _decode_stat(raw, column):
    """A statistics bound as pyarrow's Statistics.min/max gives it."""
    if raw is None:
        return None
    physical = column["physical_type"]
    logical = column.get("logical_type") or {}
    name = logical.get("name")
    converted = column.get("converted_type")
    if physical == "BOOLEAN":
        return raw[:1] != b"\x00"
    if physical in _PLAIN_STRUCT:
        value = _struct.unpack(_PLAIN_STRUCT[physical], raw)[0]
        if physical in ("INT32", "INT64"):
            bits = 32 if physical == "INT32" else 64
            unsigned = (name == "INTEGER" and not logical.get("signed")) or (
                converted in ("UINT_8", "UINT_16", "UINT_32", "UINT_64"))
            if unsigned and value < 0:
                value += 1 << bits
            if name == "DATE" or converted == "DATE":
                return _datetime.date(1970, 1, 1) + _datetime.timedelta(days=value)
            if name == "DECIMAL" or converted == "DECIMAL":
                return _decimal.Decimal(value).scaleb(-(logical.get("scale", column.get("scale") or 0)))
            if name == "TIMESTAMP" or converted in ("TIMESTAMP_MILLIS", "TIMESTAMP_MICROS"):
                unit = logical.get("unit") or ("ms" if converted == "TIMESTAMP_MILLIS" else "us")
                utc = logical.get("utc", True)
                if unit == "ns":
                    return value  # pyarrow gives nanosecond bounds as integers
                micros = value * 1000 if unit == "ms" else value
                tz = _datetime.timezone.utc
                try:
                    from zoneinfo import ZoneInfo

                    tz = ZoneInfo("UTC")
                except Exception:  # pragma: no cover
                    pass
                ts = _datetime.datetime(1970, 1, 1) + _datetime.timedelta(microseconds=micros)
                return ts.replace(tzinfo=tz) if utc else ts
            if name == "TIME" or converted in ("TIME_MILLIS", "TIME_MICROS"):
                unit = logical.get("unit") or ("ms" if converted == "TIME_MILLIS" else "us")
                if unit == "ns":
                    return value
                micros = value * 1000 if unit == "ms" else value
                return (_datetime.datetime(1970, 1, 1) + _datetime.timedelta(microseconds=micros)).time()
        return value
    if physical == "INT96":
        return raw
    # Byte arrays.
    if name in ("STRING", "ENUM", "JSON") or converted in ("UTF8", "ENUM", "JSON"):
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw
    if name == "DECIMAL" or converted == "DECIMAL":
        value = int.from_bytes(raw, "big", signed=True)
        return _decimal.Decimal(value).scaleb(-(logical.get("scale", column.get("scale") or 0)))
    return raw


class Statistics:
    """A column chunk's statistics (pyarrow.parquet.Statistics's names)."""

    def __init__(self, stats, column, num_values):
        self._stats = stats
        self._column = column
        self.num_values = num_values
        self.physical_type = column["physical_type"]
        signed = self.physical_type in ("INT32", "INT64", "FLOAT", "DOUBLE", "BOOLEAN")
        self.min_raw = stats["min_value"]
        self.max_raw = stats["max_value"]
        if self.min_raw is None and self.max_raw is None and signed:
            # Legacy min/max hold signed-order bounds only.
            self.min_raw = stats["min"]
            self.max_raw = stats["max"]

    @property
    def has_min_max(self):
        return self.min_raw is not None and self.max_raw is not None

    @property
    def min(self):
        return _decode_stat(self.min_raw, self._column)

    @property
    def max(self):
        return _decode_stat(self.max_raw, self._column)

    @property
    def null_count(self):
        return self._stats["null_count"]

    @property
    def has_null_count(self):
        return self._stats["null_count"] is not None

    @property
    def distinct_count(self):
        return self._stats["distinct_count"]

    @property
    def has_distinct_count(self):
        return self._stats["distinct_count"] is not None

    @property
    def nan_count(self):
        return self._stats["nan_count"]

    def __repr__(self):
        return (f"quiver.Statistics(min={self.min!r}, max={self.max!r}, "
                f"null_count={self.null_count!r})")


class ColumnChunkMetaData:
    """One column chunk's metadata (pyarrow's ColumnChunkMetaData names)."""

    def __init__(self, chunk, column):
        self._chunk = chunk
        self._column = column
        for key in ("path_in_schema", "file_offset", "physical_type", "encodings", "compression",
                    "num_values", "total_compressed_size", "total_uncompressed_size",
                    "data_page_offset", "index_page_offset", "dictionary_page_offset",
                    "bloom_filter_offset", "bloom_filter_length"):
            setattr(self, key, chunk.get(key))
        self.file_path = chunk.get("file_path") or ""

    @property
    def has_dictionary_page(self):
        return self.dictionary_page_offset is not None

    @property
    def has_index_page(self):
        return self.index_page_offset is not None

    @property
    def has_offset_index(self):
        return self._chunk.get("offset_index_offset") is not None

    @property
    def has_column_index(self):
        return self._chunk.get("column_index_offset") is not None

    @property
    def is_stats_set(self):
        return self._chunk.get("statistics") is not None

    @property
    def statistics(self):
        stats = self._chunk.get("statistics")
        if stats is None:
            return None
        return Statistics(stats, self._column, self.num_values)


class RowGroupMetaData:
    """One row group's metadata (pyarrow's RowGroupMetaData names)."""

    def __init__(self, group, columns):
        self._group = group
        self._columns = columns
        self.num_rows = group["num_rows"]
        self.total_byte_size = group["total_byte_size"]
        self.num_columns = len(group["columns"])

    def column(self, i):
        if not 0 <= i < self.num_columns:
            raise IndexError(f"column {i} out of range (the row group has {self.num_columns})")
        return ColumnChunkMetaData(self._group["columns"][i], self._columns[i])


class FileMetaData:
    """A Parquet file's footer (pyarrow's FileMetaData names)."""

    def __init__(self, d):
        self._d = d
        self.num_rows = d["num_rows"]
        self.num_row_groups = len(d["row_groups"])
        self.num_columns = d["num_columns"]
        self.created_by = d["created_by"]
        self.metadata = d["metadata"] or None
        self.format_version = "1.0" if d["version"] == 1 else "2.6"

    def row_group(self, i):
        if not 0 <= i < self.num_row_groups:
            raise IndexError(f"row group {i} out of range (the file has {self.num_row_groups})")
        return RowGroupMetaData(self._d["row_groups"][i], self._d["columns"])

    def __repr__(self):
        return (f"quiver.FileMetaData(num_rows={self.num_rows}, "
                f"num_row_groups={self.num_row_groups}, num_columns={self.num_columns}, "
                f"created_by={self.created_by!r})")
