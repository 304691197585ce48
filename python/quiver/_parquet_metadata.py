"""A Parquet footer as pyarrow.parquet shows it: FileMetaData, RowGroupMetaData,
ColumnChunkMetaData, Statistics and ParquetLogicalType, with pyarrow's names
and values, built from the plain dicts the extension gives
(_ParquetFile.metadata_dict()).

The rules are Arrow C++'s (pyarrow 26), checked attribute by attribute against
pyarrow over the test corpus by python/tests/test_reader_statistics.py:
  - a leaf's logical type: its LogicalType when it fits the physical type
    (else Undefined), else the one its converted type stands for
    (LogicalType::FromConvertedType; Thrift converted type 24 is Arrow's NA,
    the Null type), else None; its converted type, when the logical type
    was stored, the one that logical type maps back to (ToConvertedType).
Statistics are decoded by the library, once, with every rule (sort orders, trusted
writers, column orders, legacy fields, typed bounds): src/quiver/parquet/metadata/
statistics.h; this module decodes no statistics bytes and only names what it gets.
"""

from quiver._scalar import Scalar

# --- Logical types ------------------------------------------------------------

_UNITS = {"ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}
_TO_PYARROW_TYPE = {
    "STRING": "STRING", "MAP": "MAP", "LIST": "LIST", "ENUM": "ENUM", "DECIMAL": "DECIMAL",
    "DATE": "DATE", "TIME": "TIME", "TIMESTAMP": "TIMESTAMP", "INTERVAL": "INTERVAL",
    "INT": "INT", "NULL": "UNKNOWN", "JSON": "JSON", "BSON": "BSON", "UUID": "UUID",
    "FLOAT16": "FLOAT16", "NONE": "NONE", "UNDEFINED": "UNDEFINED", "VARIANT": "VARIANT",
    "GEOMETRY": "GEOMETRY", "GEOGRAPHY": "GEOGRAPHY",
}


class ParquetLogicalType:
    """A column's logical type as pyarrow shows it: str() is Arrow C++'s
    LogicalType::ToString, .type pyarrow's name of the kind."""

    def __init__(self, kind, **params):
        self._kind = kind
        self._params = params

    @property
    def type(self):
        return _TO_PYARROW_TYPE[self._kind]

    def __str__(self):
        k, p = self._kind, self._params
        if k == "INT":
            return f"Int(bitWidth={p['bit_width']}, isSigned={_b(p['signed'])})"
        if k == "DECIMAL":
            return f"Decimal(precision={p['precision']}, scale={p['scale']})"
        if k == "TIME":
            return f"Time(isAdjustedToUTC={_b(p['utc'])}, timeUnit={_UNITS[p['unit']]})"
        if k == "TIMESTAMP":
            return (f"Timestamp(isAdjustedToUTC={_b(p['utc'])}, timeUnit={_UNITS[p['unit']]}, "
                    f"is_from_converted_type={_b(p.get('from_converted', False))}, "
                    f"force_set_converted_type=false)")
        if k == "GEOMETRY":
            return f"Geometry(crs={p.get('crs') or ''})"
        if k == "GEOGRAPHY":
            algorithm = _ALGORITHMS.get(p.get("algorithm") or 0, "unknown")
            return f"Geography(crs={p.get('crs') or ''}, algorithm={algorithm})"
        return {"STRING": "String", "MAP": "Map", "LIST": "List", "ENUM": "Enum", "DATE": "Date",
                "INTERVAL": "Interval", "NULL": "Null", "JSON": "JSON", "BSON": "BSON",
                "UUID": "UUID", "FLOAT16": "Float16", "NONE": "None",
                "UNDEFINED": "Undefined", "VARIANT": "Variant", "GEOMETRY": "Geometry",
                "GEOGRAPHY": "Geography"}[k]

    def __repr__(self):
        return f"<quiver.ParquetLogicalType {self}>"

    def __eq__(self, other):
        return str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


# parquet.thrift EdgeInterpolationAlgorithm (absent: SPHERICAL).
_ALGORITHMS = {0: "spherical", 1: "vincenty", 2: "thomas", 3: "andoyer", 4: "karney"}


def _b(flag):
    return "true" if flag else "false"


_INT_CONVERTED = {
    "INT_8": (8, True), "INT_16": (16, True), "INT_32": (32, True), "INT_64": (64, True),
    "UINT_8": (8, False), "UINT_16": (16, False), "UINT_32": (32, False), "UINT_64": (64, False),
}


def _fits(kind, params, physical, length):
    """LogicalType::is_applicable."""
    if kind in ("STRING", "ENUM", "JSON", "BSON"):
        return physical == "BYTE_ARRAY"
    if kind == "INT":
        return physical == ("INT64" if params["bit_width"] == 64 else "INT32")
    if kind == "DATE":
        return physical == "INT32"
    if kind == "TIME":
        return physical == ("INT32" if params["unit"] == "ms" else "INT64")
    if kind == "TIMESTAMP":
        return physical == "INT64"
    if kind == "DECIMAL":
        p = params["precision"]
        if physical == "INT32":
            return 1 <= p <= 9
        if physical == "INT64":
            return 1 <= p <= 18
        if physical == "BYTE_ARRAY":
            return True
        if physical == "FIXED_LEN_BYTE_ARRAY":
            import math

            return length > 128 or p <= int(math.floor(math.log10(2.0 ** (8 * length - 1))))
        return False
    if kind == "UUID":
        return physical == "FIXED_LEN_BYTE_ARRAY" and length == 16
    if kind == "FLOAT16":
        return physical == "FIXED_LEN_BYTE_ARRAY" and length == 2
    if kind in ("GEOMETRY", "GEOGRAPHY"):
        return physical == "BYTE_ARRAY"
    if kind == "NULL":
        return True
    return False  # MAP, LIST, VARIANT on a leaf, members this reader does not know


def leaf_logical_type(column):
    """(ParquetLogicalType, converted type name) of a leaf column dict."""
    physical, length = column["physical_type"], column.get("type_length") or 0
    stored = column.get("logical_type")
    converted = column.get("converted_type")
    if stored is not None:
        name = stored.get("name", "")
        kind, params = {
            "STRING": ("STRING", {}), "MAP": ("MAP", {}), "LIST": ("LIST", {}),
            "ENUM": ("ENUM", {}), "DATE": ("DATE", {}), "UNKNOWN": ("NULL", {}),
            "JSON": ("JSON", {}), "BSON": ("BSON", {}), "UUID": ("UUID", {}),
            "FLOAT16": ("FLOAT16", {}), "VARIANT": ("VARIANT", {}),
            "GEOMETRY": ("GEOMETRY", {"crs": stored.get("crs")}),
            "GEOGRAPHY": ("GEOGRAPHY", {"crs": stored.get("crs"),
                                        "algorithm": stored.get("algorithm")}),
            "DECIMAL": ("DECIMAL", {"precision": stored.get("precision"),
                                    "scale": stored.get("scale")}),
            "TIME": ("TIME", {"utc": stored.get("utc"), "unit": stored.get("unit")}),
            "TIMESTAMP": ("TIMESTAMP", {"utc": stored.get("utc"), "unit": stored.get("unit")}),
            "INTEGER": ("INT", {"bit_width": stored.get("bit_width"),
                                "signed": stored.get("signed")}),
        }.get(name, ("UNDEFINED", {}))
        if kind == "UNDEFINED" or not _fits(kind, params, physical, length):
            return ParquetLogicalType("UNDEFINED"), "NONE"
        return ParquetLogicalType(kind, **params), _to_converted(kind, params)
    if converted is None:
        return ParquetLogicalType("NONE"), "NONE"
    if converted == 24:
        return ParquetLogicalType("NULL"), "NA"
    if converted in _INT_CONVERTED:
        bits, signed = _INT_CONVERTED[converted]
        return ParquetLogicalType("INT", bit_width=bits, signed=signed), converted
    simple = {"UTF8": "STRING", "MAP": "MAP", "MAP_KEY_VALUE": "MAP", "LIST": "LIST",
              "ENUM": "ENUM", "DATE": "DATE", "INTERVAL": "INTERVAL", "JSON": "JSON",
              "BSON": "BSON"}
    if converted in simple:
        return ParquetLogicalType(simple[converted]), converted
    if converted == "DECIMAL":
        return ParquetLogicalType("DECIMAL", precision=column.get("precision"),
                                  scale=column.get("scale")), converted
    if converted in ("TIME_MILLIS", "TIME_MICROS"):
        unit = "ms" if converted == "TIME_MILLIS" else "us"
        return ParquetLogicalType("TIME", utc=True, unit=unit), converted
    if converted in ("TIMESTAMP_MILLIS", "TIMESTAMP_MICROS"):
        unit = "ms" if converted == "TIMESTAMP_MILLIS" else "us"
        return ParquetLogicalType("TIMESTAMP", utc=True, unit=unit,
                                  from_converted=True), converted
    return ParquetLogicalType("UNDEFINED"), "NONE"


def _to_converted(kind, params):
    """LogicalType::ToConvertedType, as pyarrow names it."""
    if kind == "INT":
        return ("INT_" if params["signed"] else "UINT_") + str(params["bit_width"])
    if kind == "TIME":
        if params["utc"] and params["unit"] in ("ms", "us"):
            return "TIME_MILLIS" if params["unit"] == "ms" else "TIME_MICROS"
        return "NONE"
    if kind == "TIMESTAMP":
        if params["utc"] and params["unit"] in ("ms", "us"):
            return "TIMESTAMP_MILLIS" if params["unit"] == "ms" else "TIMESTAMP_MICROS"
        return "NONE"
    return {"STRING": "UTF8", "MAP": "MAP", "LIST": "LIST", "ENUM": "ENUM",
            "DECIMAL": "DECIMAL", "DATE": "DATE", "INTERVAL": "INTERVAL", "JSON": "JSON",
            "BSON": "BSON"}.get(kind, "NONE")


# --- Statistics ------------------------------------------------------------------


class Statistics:
    """A column chunk's statistics (pyarrow.parquet.Statistics's names), a view of the
    library's (src/quiver/parquet/metadata/statistics.h decodes them, with every rule).
    min / max are the bounds as pyarrow gives them (its scalar's as_py), min_raw / max_raw
    the physical values; min_scalar / max_scalar the library's typed quiver.Scalar."""

    def __init__(self, stats, column, logical, converted):
        self._s = stats
        self._column = column
        self._logical = logical
        self.physical_type = stats.physical_type
        self.converted_type = converted
        self.num_values = stats.num_values
        self.null_count = stats.null_count
        self.has_null_count = self.null_count is not None
        self.distinct_count = stats.distinct_count
        self.has_distinct_count = self.distinct_count is not None
        self.nan_count = stats.nan_count
        self.has_min_max = stats.has_min_max
        self.is_min_value_exact = stats.is_min_value_exact
        self.is_max_value_exact = stats.is_max_value_exact

    @property
    def logical_type(self):
        return self._logical

    @property
    def sort_order(self):
        """"SIGNED", "UNSIGNED" or "UNKNOWN" (the order the bounds are in)."""
        return self._s.sort_order

    @property
    def min_scalar(self):
        return Scalar(self._s.min) if self.has_min_max else None

    @property
    def max_scalar(self):
        return Scalar(self._s.max) if self.has_min_max else None

    @property
    def min_raw(self):
        return self._s.min_physical.raw if self.has_min_max else None

    @property
    def max_raw(self):
        return self._s.max_physical.raw if self.has_min_max else None

    def _bound(self, typed, physical):
        if not self.has_min_max:
            return None
        bound_type = self._s.bound_type
        if bound_type is not None and bound_type.name == "halffloat":
            # pyarrow 26 gives FLOAT16 bounds as their two bytes (StatisticsAsScalars
            # makes a fixed_size_binary[2] scalar of them).
            return physical.raw
        if typed.is_valid:
            return Scalar(typed).as_py()
        if bound_type is not None and bound_type.name == "string":
            return physical.raw.decode("utf-8")  # raises UnicodeDecodeError, as pyarrow
        raise ValueError(f"the statistics bound {physical.raw!r} is no value of "
                         f"{bound_type if bound_type is not None else self.physical_type}")

    @property
    def min(self):
        return self._bound(self._s.min, self._s.min_physical)

    @property
    def max(self):
        return self._bound(self._s.max, self._s.max_physical)

    def to_dict(self):
        return {"has_min_max": self.has_min_max, "min": self.min, "max": self.max,
                "null_count": self.null_count, "distinct_count": self.distinct_count,
                "num_values": self.num_values, "physical_type": self.physical_type}

    def __repr__(self):
        return (f"quiver.Statistics(has_min_max={self.has_min_max}, min_raw={self.min_raw!r}, "
                f"max_raw={self.max_raw!r}, null_count={self.null_count!r}, "
                f"num_values={self.num_values})")


# --- Footer objects ------------------------------------------------------------------

# pyarrow's names of the codecs (Arrow's Compression enum: LZ4 is LZ4_RAW;
# pyarrow 26 names the Hadoop-framed LZ4, Thrift's LZ4, "UNKNOWN").
_CODECS = {"UNCOMPRESSED": "UNCOMPRESSED", "SNAPPY": "SNAPPY", "GZIP": "GZIP", "LZO": "LZO",
           "BROTLI": "BROTLI", "LZ4": "UNKNOWN", "ZSTD": "ZSTD", "LZ4_RAW": "LZ4"}


class ColumnChunkMetaData:
    """One column chunk's metadata (pyarrow's ColumnChunkMetaData names)."""

    def __init__(self, chunk, column):
        self._chunk = chunk
        self._column = column
        for key in ("file_offset", "physical_type", "encodings", "num_values",
                    "total_compressed_size", "total_uncompressed_size", "data_page_offset",
                    "bloom_filter_offset", "bloom_filter_length"):
            setattr(self, key, chunk.get(key))
        self.path_in_schema = chunk.get("path_in_schema")
        self.compression = _CODECS.get(chunk.get("compression"), chunk.get("compression"))
        self.file_path = chunk.get("file_path") or ""
        self.dictionary_page_offset = chunk.get("dictionary_page_offset")
        self.index_page_offset = chunk.get("index_page_offset")

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

    def _statistics(self):
        stats = self._chunk.get("statistics")
        if stats is None:
            return None
        logical, converted = leaf_logical_type(self._column)
        return Statistics(stats, self._column, logical, converted)

    @property
    def is_stats_set(self):
        return self._statistics() is not None

    @property
    def statistics(self):
        return self._statistics()

    def to_dict(self):
        stats = self.statistics
        return {"file_offset": self.file_offset, "file_path": self.file_path,
                "physical_type": self.physical_type, "num_values": self.num_values,
                "path_in_schema": self.path_in_schema, "is_stats_set": stats is not None,
                "statistics": None if stats is None else stats.to_dict(),
                "compression": self.compression, "encodings": self.encodings,
                "has_dictionary_page": self.has_dictionary_page,
                "dictionary_page_offset": self.dictionary_page_offset,
                "data_page_offset": self.data_page_offset,
                "total_compressed_size": self.total_compressed_size,
                "total_uncompressed_size": self.total_uncompressed_size,
                "bloom_filter_offset": self.bloom_filter_offset,
                "bloom_filter_length": self.bloom_filter_length}


class RowGroupMetaData:
    """One row group's metadata (pyarrow's RowGroupMetaData names)."""

    def __init__(self, group, file):
        self._group = group
        self._file = file
        self.num_rows = group["num_rows"]
        self.total_byte_size = group["total_byte_size"]
        self.num_columns = len(group["columns"])

    def column(self, i):
        if not 0 <= i < self.num_columns:
            raise IndexError(f"column {i} out of range (the row group has {self.num_columns})")
        return ColumnChunkMetaData(self._group["columns"][i], self._file._d["columns"][i])


def write_bytes(data, where, filesystem, _filesystem):
    """Writes a small file whole: locally through a temporary file renamed
    into place, on a filesystem through its sink (nothing left on failure)."""
    import os
    import tempfile

    target = _filesystem.resolve(where, filesystem, writing=True)
    if target is None or target.kind == "local":
        path = os.fspath(where if target is None else target.path)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".quiver-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return
    sink = _filesystem._Sink(target)
    try:
        sink.file.write(data)
    except BaseException:
        sink.abort()
        raise
    sink.commit()


def _from_footer(footer):
    """A FileMetaData from its serialized footer (the pickle's constructor)."""
    from quiver._quiver import _metadata_dict_from_footer

    return FileMetaData(_metadata_dict_from_footer(footer), footer)


class FileMetaData:
    """A Parquet file's footer (pyarrow's FileMetaData names). It pickles (Dask and Ray
    ship it to workers) as its Thrift footer; two are equal when their footers are."""

    def __init__(self, d, footer):
        """`footer`: the serialized FileMetaData, or a callable giving it (read lazily)."""
        self._d = d
        self._footer = footer
        self.num_rows = d["num_rows"]
        self.num_row_groups = len(d["row_groups"])
        self.num_columns = d["num_columns"]
        self.created_by = d["created_by"] or ""  # pyarrow: "" when absent
        self.metadata = d["metadata"] or None
        self.format_version = "1.0" if d["version"] == 1 else "2.6"

    def row_group(self, i):
        if not 0 <= i < self.num_row_groups:
            raise IndexError(f"row group {i} out of range (the file has {self.num_row_groups})")
        return RowGroupMetaData(self._d["row_groups"][i], self)

    def _footer_bytes(self):
        if callable(self._footer):
            self._footer = self._footer()
        return self._footer

    def __reduce__(self):
        return (_from_footer, (self._footer_bytes(),))

    def _replace(self, footer):
        from quiver._quiver import _metadata_dict_from_footer

        self.__init__(_metadata_dict_from_footer(footer), footer)

    def set_file_path(self, path):
        """Sets every column chunk's file_path (pyarrow's: the path of the data
        file relative to a _metadata file; "" clears it), in place."""
        from quiver._quiver import _footer_set_file_path

        if not isinstance(path, str):
            raise TypeError(f"set_file_path: path must be a str, not {type(path).__name__}")
        self._replace(_footer_set_file_path(self._footer_bytes(), path))

    def append_row_groups(self, other):
        """Appends the row groups of another FileMetaData of the same Parquet
        schema (quiver.InvalidError otherwise), in place (pyarrow's)."""
        from quiver._quiver import _footer_append_row_groups

        if not isinstance(other, FileMetaData):
            raise TypeError(f"append_row_groups: expected a quiver.FileMetaData, not "
                            f"{type(other).__name__}")
        self._replace(_footer_append_row_groups(self._footer_bytes(), other._footer_bytes()))

    def serialize(self):
        """The serialized footer (Thrift compact)."""
        return self._footer_bytes()

    def write_metadata_file(self, where, filesystem=None):
        """Writes this footer as a Parquet file of no data ("PAR1", the footer,
        its length, "PAR1"), as a _metadata file is."""
        from quiver import _filesystem

        footer = self._footer_bytes()
        data = b"PAR1" + footer + len(footer).to_bytes(4, "little") + b"PAR1"
        write_bytes(data, where, filesystem, _filesystem)

    def __eq__(self, other):
        if not isinstance(other, FileMetaData):
            return NotImplemented
        return self._footer_bytes() == other._footer_bytes()

    def equals(self, other):
        """pyarrow's name for ==."""
        return self == other

    __hash__ = None

    def __repr__(self):
        return (f"quiver.FileMetaData(num_rows={self.num_rows}, "
                f"num_row_groups={self.num_row_groups}, num_columns={self.num_columns}, "
                f"created_by={self.created_by!r})")
