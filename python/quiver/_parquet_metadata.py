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
    was stored, the one that logical type maps back to (ToConvertedType);
  - its sort order (types.cc GetSortOrder): None by the physical type
    (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY unsigned, INT96 unknown, the rest
    signed), else the logical type's;
  - a chunk has statistics (is_stats_set) when the footer has them, the sort
    order is known, and the writer is trusted for them
    (metadata.cc ApplicationVersion::HasCorrectStatistics): parquet-cpp
    before 1.3.0 and parquet-mr before 1.10.0 computed every bound in signed
    order, so only signed sort orders (or min == max) count, and
    parquet-mr before 1.8.0 wrote wrong byte-array bounds (PARQUET-251);
  - the bounds are min_value / max_value when the footer's column order is
    TYPE_ORDER, else the legacy min / max, and those only for a signed sort
    order (their order; for unsigned columns they are wrong, and
    min_value / max_value without a column order are not taken either, as
    pyarrow 26 reads testdata/quiver/compat_*stats*.parquet); min_raw /
    max_raw are the PLAIN-decoded physical values, min / max the Arrow
    scalar pyarrow makes of them (StatisticsAsScalars) as Python values.
A later change moves this decoding into the C++ library.
"""

import datetime as _datetime
import decimal as _decimal
import re as _re
import struct as _struct

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


def sort_order(logical, physical):
    """types.cc GetSortOrder: 'SIGNED', 'UNSIGNED' or 'UNKNOWN'."""
    kind = logical._kind
    if kind == "NONE":
        if physical in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
            return "UNSIGNED"
        return "UNKNOWN" if physical == "INT96" else "SIGNED"
    if kind in ("STRING", "ENUM", "JSON", "BSON", "UUID"):
        return "UNSIGNED"
    if kind == "INT":
        return "SIGNED" if logical._params["signed"] else "UNSIGNED"
    if kind in ("DECIMAL", "DATE", "TIME", "TIMESTAMP", "FLOAT16"):
        return "SIGNED"
    return "UNKNOWN"


# --- The writer's version (metadata.cc ApplicationVersion) ---------------------

_VERSION = _re.compile(r"^\s*(\S+)\s*(?:version\s*(\S*))?")


class _ApplicationVersion:
    def __init__(self, created_by):
        self.application, self.version = "unknown", (0, 0, 0)
        if created_by is None:
            return
        m = _VERSION.match(created_by)
        if m is None:
            return
        self.application = m.group(1).lower()
        numbers = []
        for part in _re.split(r"[.\-+]", m.group(2) or "")[:3]:
            digits = _re.match(r"\d+", part)
            numbers.append(int(digits.group(0)) if digits else 0)
        self.version = tuple(numbers + [0] * (3 - len(numbers)))

    def older_than(self, application, version):
        return self.application == application and self.version < version

    def has_correct_statistics(self, physical, order, min_raw, max_raw):
        if self.older_than("parquet-cpp", (1, 3, 0)) or self.older_than("parquet-mr", (1, 10, 0)):
            # Bounds computed in signed order: right for signed sort orders,
            # or when min == max.
            same = min_raw is not None and max_raw is not None and min_raw == max_raw
            if order != "SIGNED" and not same:
                return False
            if physical not in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
                return True
        if self.application == "unknown":
            return True
        return not self.older_than("parquet-mr", (1, 8, 0))  # PARQUET-251


# --- Statistics ------------------------------------------------------------------

_PLAIN = {"INT32": "<i", "INT64": "<q", "FLOAT": "<f", "DOUBLE": "<d"}


def _plain(raw, physical, length):
    """A PLAIN-encoded bound as pyarrow's min_raw / max_raw."""
    if physical == "BOOLEAN":
        return bool(raw[0] & 1) if raw else False
    if physical in _PLAIN:
        return _struct.unpack(_PLAIN[physical], raw[:_struct.calcsize(_PLAIN[physical])])[0]
    if physical == "FIXED_LEN_BYTE_ARRAY":
        return bytes(raw[:length])
    if physical == "BYTE_ARRAY":
        return bytes(raw)
    return None  # INT96: pyarrow gives no raw value


def _utc():
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo("UTC")
    except Exception:  # pragma: no cover
        return _datetime.timezone.utc


def _microseconds(value, unit):
    """A time or timestamp value in microseconds, as pyarrow's as_py needs it: nanoseconds
    that are not whole microseconds raise ValueError, as pyarrow does (without pandas)."""
    if unit == "ms":
        return value * 1000
    if unit == "ns":
        if value % 1000:
            raise ValueError(f"Nanosecond resolution temporal type {value} is not safely "
                             "convertible to microseconds to convert to datetime.datetime")
        return value // 1000
    return value


def _value(raw, physical, logical):
    """The bound as pyarrow's Statistics.min / max (the Arrow scalar's as_py)."""
    value = _plain(raw, physical, len(raw))
    kind, p = logical._kind, logical._params
    if physical in ("INT32", "INT64"):
        if kind == "INT":
            bits = p["bit_width"]
            value &= (1 << bits) - 1
            if p["signed"] and value >= 1 << (bits - 1):
                value -= 1 << bits
            return value
        if kind == "DATE":
            return _datetime.date(1970, 1, 1) + _datetime.timedelta(days=value)
        if kind == "DECIMAL":
            return _decimal.Decimal(value).scaleb(-p["scale"])
        if kind in ("TIME", "TIMESTAMP"):
            micros = _microseconds(value, p["unit"])
            moment = _datetime.datetime(1970, 1, 1) + _datetime.timedelta(microseconds=micros)
            if kind == "TIME":
                return moment.time()
            return moment.replace(tzinfo=_utc()) if p["utc"] else moment
        return value
    if physical in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        if kind == "STRING":
            return value.decode("utf-8")
        if kind == "DECIMAL":
            unscaled = int.from_bytes(value, "big", signed=True) if value else 0
            return _decimal.Decimal(unscaled).scaleb(-p["scale"])
        return value
    return value


class Statistics:
    """A column chunk's statistics (pyarrow.parquet.Statistics's names)."""

    def __init__(self, stats, column, num_values, type_order, order, logical, converted):
        self._column = column
        self._logical = logical
        self.physical_type = column["physical_type"]
        self.converted_type = converted
        null_count = stats["null_count"]
        self.num_values = num_values - (null_count or 0)
        self.has_null_count = null_count is not None
        self.null_count = null_count
        self.has_distinct_count = stats["distinct_count"] is not None
        self.distinct_count = stats["distinct_count"]
        self.nan_count = stats.get("nan_count")
        if order == "UNKNOWN" or type_order is False:
            # Bounds of an order nobody defined (INT96, geometries, ...), or
            # under a column order other than TYPE_ORDER (IEEE 754 total
            # order, which pyarrow 26 does not take).
            lo = hi = None
        elif type_order:
            lo, hi = stats["min_value"], stats["max_value"]
        elif order == "SIGNED":
            # Without a column order, only the legacy fields count, and only
            # where their signed order is the column's.
            lo, hi = stats["min"], stats["max"]
        else:
            lo = hi = None
        self.has_min_max = lo is not None and hi is not None
        self._min = lo if self.has_min_max else None
        self._max = hi if self.has_min_max else None

    @property
    def logical_type(self):
        return self._logical

    @property
    def min_raw(self):
        if self._min is None:
            return None
        return _plain(self._min, self.physical_type, self._column.get("type_length") or 0)

    @property
    def max_raw(self):
        if self._max is None:
            return None
        return _plain(self._max, self.physical_type, self._column.get("type_length") or 0)

    @property
    def min(self):
        return None if self._min is None else _value(self._min, self.physical_type, self._logical)

    @property
    def max(self):
        return None if self._max is None else _value(self._max, self.physical_type, self._logical)

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

    def __init__(self, chunk, column, writer, type_order):
        self._chunk = chunk
        self._column = column
        self._writer = writer
        self._type_order = type_order
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
        order = sort_order(logical, self.physical_type)
        s = Statistics(stats, self._column, self.num_values, self._type_order, order, logical,
                       converted)
        if not self._writer.has_correct_statistics(self.physical_type, order, s._min, s._max):
            return None
        return s

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
        f = self._file
        # True: TYPE_ORDER; False: another column order; None: none given.
        orders = f._d.get("column_orders")
        type_order = None
        if orders is not None:
            type_order = i < len(orders) and orders[i] == "TYPE_ORDER"
        return ColumnChunkMetaData(self._group["columns"][i], f._d["columns"][i], f._writer,
                                   type_order)


class FileMetaData:
    """A Parquet file's footer (pyarrow's FileMetaData names)."""

    def __init__(self, d):
        self._d = d
        self._writer = _ApplicationVersion(d["created_by"])
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

    def __repr__(self):
        return (f"quiver.FileMetaData(num_rows={self.num_rows}, "
                f"num_row_groups={self.num_row_groups}, num_columns={self.num_columns}, "
                f"created_by={self.created_by!r})")
