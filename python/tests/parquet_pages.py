"""An independent, pure-Python reader of Parquet file structure: footer,
row groups, column chunks, page headers and page indexes.

Written from the Parquet format specification (parquet-format's
parquet.thrift and README "File format"), sharing no code with Quiver, so
that tests can judge what Quiver writes. It decodes Thrift's compact
protocol (thrift's doc/specs/thrift-compact-protocol.md) generically:
every struct becomes a dict {field id: value}, so fields this module does
not know are decoded (and ignored) correctly whatever their wire type.
Only the fields the tests need are then given names.

File layout: "PAR1" <column chunks> [page indexes] <FileMetaData>
<4-byte little-endian footer length> "PAR1". A column chunk is a sequence
of pages, each a Thrift PageHeader followed by compressed_page_size bytes.
"""

from __future__ import annotations

import dataclasses
import struct
import zlib
from typing import Any, Callable, Dict, List, Optional

MAGIC = b"PAR1"

# parquet.thrift enums.
PAGE_TYPES = {0: "DATA_PAGE", 1: "INDEX_PAGE", 2: "DICTIONARY_PAGE", 3: "DATA_PAGE_V2"}
ENCODINGS = {
    0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED", 5: "DELTA_BINARY_PACKED",
    6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY", 8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT",
}
CODECS = {0: "UNCOMPRESSED", 1: "SNAPPY", 2: "GZIP", 3: "LZO", 4: "BROTLI", 5: "LZ4", 6: "ZSTD", 7: "LZ4_RAW"}
PHYSICAL_TYPES = {0: "BOOLEAN", 1: "INT32", 2: "INT64", 3: "INT96", 4: "FLOAT", 5: "DOUBLE",
                  6: "BYTE_ARRAY", 7: "FIXED_LEN_BYTE_ARRAY"}


class ThriftError(ValueError):
    pass


# --- Thrift compact protocol ------------------------------------------------

# Compact type ids.
T_STOP, T_TRUE, T_FALSE, T_BYTE, T_I16, T_I32, T_I64, T_DOUBLE, T_BINARY, T_LIST, T_SET, T_MAP, T_STRUCT, T_UUID = range(14)


class CompactReader:
    """Decodes compact-protocol values from `buf` starting at `pos`."""

    def __init__(self, buf: bytes, pos: int = 0, end: Optional[int] = None, max_depth: int = 64):
        self.buf = memoryview(buf)
        self.pos = pos
        self.end = len(buf) if end is None else end
        self.max_depth = max_depth

    def _byte(self) -> int:
        if self.pos >= self.end:
            raise ThriftError(f"unexpected end of data at byte {self.pos}")
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def _bytes(self, n: int) -> bytes:
        if n < 0 or self.pos + n > self.end:
            raise ThriftError(f"{n} bytes at byte {self.pos} run past the end ({self.end})")
        out = bytes(self.buf[self.pos:self.pos + n])
        self.pos += n
        return out

    def varint(self) -> int:
        # Locals, not attributes, in this loop: it runs for every integer of every header.
        buf, pos, end = self.buf, self.pos, self.end
        shift = 0
        result = 0
        while True:
            if pos >= end:
                self.pos = pos
                raise ThriftError(f"unexpected end of data at byte {pos}")
            b = buf[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                self.pos = pos
                return result
            shift += 7
            if shift > 70:
                self.pos = pos
                raise ThriftError(f"varint too long at byte {pos}")

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def value(self, ctype: int, depth: int = 0) -> Any:
        if depth > self.max_depth:
            raise ThriftError("nesting too deep")
        # The commonest first: integers and structs make up most of a page header.
        if ctype == T_I32 or ctype == T_I64 or ctype == T_I16:
            n = self.varint()
            return (n >> 1) ^ -(n & 1)
        if ctype == T_STRUCT:
            return self.struct(depth + 1)
        if ctype == T_TRUE:
            return True
        if ctype == T_FALSE:
            return False
        if ctype == T_BYTE:
            b = self._byte()
            return b - 256 if b >= 128 else b
        if ctype == T_DOUBLE:
            return struct.unpack("<d", self._bytes(8))[0]
        if ctype == T_BINARY:
            return self._bytes(self.varint())
        if ctype == T_UUID:
            return self._bytes(16)
        if ctype in (T_LIST, T_SET):
            header = self._byte()
            size = header >> 4
            etype = header & 0x0F
            if size == 15:
                size = self.varint()
            out = []
            for _ in range(size):
                if etype in (T_TRUE, T_FALSE):
                    # Booleans in collections take one byte: 1 true, 0/2 false.
                    out.append(self._byte() == 1)
                else:
                    out.append(self.value(etype, depth + 1))
            return out
        if ctype == T_MAP:
            size = self.varint()
            if size == 0:
                return {}
            types = self._byte()
            ktype, vtype = types >> 4, types & 0x0F
            out = {}
            for _ in range(size):
                k = self._byte() == 1 if ktype in (T_TRUE, T_FALSE) else self.value(ktype, depth + 1)
                v = self._byte() == 1 if vtype in (T_TRUE, T_FALSE) else self.value(vtype, depth + 1)
                out[k] = v
            return out
        raise ThriftError(f"unknown compact type {ctype} at byte {self.pos}")

    def struct(self, depth: int = 0) -> Dict[int, Any]:
        """A struct as {field id: value}; unknown fields are decoded like any other."""
        fields: Dict[int, Any] = {}
        last_id = 0
        buf = self.buf
        while True:
            pos = self.pos
            if pos >= self.end:
                raise ThriftError(f"unexpected end of data at byte {pos}")
            header = buf[pos]
            self.pos = pos + 1
            if header == T_STOP:
                return fields
            ctype = header & 0x0F
            delta = header >> 4
            field_id = last_id + delta if delta else self.zigzag()
            fields[field_id] = self.value(ctype, depth)
            last_id = field_id


def decode_struct(buf: bytes, pos: int = 0, end: Optional[int] = None):
    """(struct dict, position after it)."""
    r = CompactReader(buf, pos, end)
    s = r.struct()
    return s, r.pos


# --- Named views of the structures the tests need ---------------------------

@dataclasses.dataclass
class Statistics:
    null_count: Optional[int]
    distinct_count: Optional[int]
    min_value: Optional[bytes]
    max_value: Optional[bytes]
    is_min_value_exact: Optional[bool]
    is_max_value_exact: Optional[bool]
    min_legacy: Optional[bytes]
    max_legacy: Optional[bytes]
    nan_count: Optional[int]

    @classmethod
    def from_thrift(cls, s: Optional[Dict[int, Any]]) -> Optional["Statistics"]:
        if s is None:
            return None
        return cls(null_count=s.get(3), distinct_count=s.get(4), max_value=s.get(5), min_value=s.get(6),
                   is_max_value_exact=s.get(7), is_min_value_exact=s.get(8),
                   max_legacy=s.get(1), min_legacy=s.get(2), nan_count=s.get(9))


@dataclasses.dataclass
class Page:
    offset: int            # file offset of the page header
    header_size: int
    type: str
    uncompressed_size: int
    compressed_size: int
    crc: Optional[int]
    num_values: int
    encoding: Optional[str]
    num_rows: Optional[int] = None       # v2 only
    num_nulls: Optional[int] = None      # v2 only
    def_levels_byte_length: int = 0      # v2 only
    rep_levels_byte_length: int = 0      # v2 only
    is_compressed: bool = True           # v2 only (default true)
    def_level_encoding: Optional[str] = None  # v1 only
    rep_level_encoding: Optional[str] = None  # v1 only
    statistics: Optional[Statistics] = None
    raw: Dict[int, Any] = dataclasses.field(default_factory=dict, repr=False)

    @property
    def is_data(self) -> bool:
        return self.type in ("DATA_PAGE", "DATA_PAGE_V2")

    @property
    def data_offset(self) -> int:
        return self.offset + self.header_size

    @property
    def total_size(self) -> int:
        return self.header_size + self.compressed_size

    def summary(self):
        """(page type, encoding, num_values, num_rows (v2), compressed size, uncompressed size)."""
        return (self.type, self.encoding, self.num_values, self.num_rows, self.compressed_size,
                self.uncompressed_size)


@dataclasses.dataclass
class PageLocation:
    offset: int
    compressed_page_size: int
    first_row_index: int


@dataclasses.dataclass
class ColumnChunk:
    row_group: int
    column: int
    path: List[str]
    physical_type: str
    codec: str
    encodings: List[str]
    num_values: int
    total_uncompressed_size: int
    total_compressed_size: int
    data_page_offset: int
    dictionary_page_offset: Optional[int]
    index_page_offset: Optional[int]
    statistics: Optional[Statistics]
    encoding_stats: List[tuple]      # (page type, encoding, count)
    offset_index_offset: Optional[int]
    offset_index_length: Optional[int]
    column_index_offset: Optional[int]
    column_index_length: Optional[int]
    raw: Dict[int, Any] = dataclasses.field(repr=False, default_factory=dict)
    pages: List[Page] = dataclasses.field(default_factory=list)

    @property
    def start(self) -> int:
        """File offset of the chunk's first page: the smaller of the dictionary and data page
        offsets that point into the file (writers use 0 for "none": parquet-mr for a missing
        dictionary page, Arrow C++ for the missing data page of an empty row group)."""
        offsets = [o for o in (self.dictionary_page_offset, self.data_page_offset) if o is not None and o >= 4]
        return min(offsets) if offsets else self.data_page_offset

    @property
    def data_pages(self) -> List[Page]:
        return [p for p in self.pages if p.is_data]

    @property
    def dictionary_pages(self) -> List[Page]:
        return [p for p in self.pages if p.type == "DICTIONARY_PAGE"]


@dataclasses.dataclass
class RowGroup:
    index: int
    num_rows: int
    total_byte_size: int
    total_compressed_size: Optional[int]
    file_offset: Optional[int]
    ordinal: Optional[int]
    columns: List[ColumnChunk]
    raw: Dict[int, Any] = dataclasses.field(repr=False, default_factory=dict)


@dataclasses.dataclass
class FileStructure:
    size: int
    footer_offset: int
    footer_length: int
    version: int
    num_rows: int
    created_by: Optional[str]
    key_value_metadata: Dict[str, Optional[bytes]]
    schema: List[Dict[int, Any]]
    row_groups: List[RowGroup]
    raw: Dict[int, Any] = dataclasses.field(repr=False, default_factory=dict)

    def chunks(self):
        for rg in self.row_groups:
            yield from rg.columns


def _name(table, key):
    if key is None:
        return None
    return table.get(key, f"UNKNOWN({key})")


def _str(b):
    return None if b is None else bytes(b).decode("utf-8", "replace")


def parse_page_header(data: bytes, pos: int, end: Optional[int] = None) -> Page:
    h, after = decode_struct(data, pos, end)
    if 1 not in h or 2 not in h or 3 not in h:
        raise ThriftError(f"page header at byte {pos} lacks a required field: {sorted(h)}")
    page = Page(offset=pos, header_size=after - pos, type=_name(PAGE_TYPES, h[1]),
                uncompressed_size=h[2], compressed_size=h[3], crc=h.get(4), num_values=0,
                encoding=None, raw=h)
    if h[1] == 0:
        d = h.get(5)
        if d is None:
            raise ThriftError(f"DATA_PAGE at byte {pos} has no data_page_header")
        page.num_values = d[1]
        page.encoding = _name(ENCODINGS, d.get(2))
        page.def_level_encoding = _name(ENCODINGS, d.get(3))
        page.rep_level_encoding = _name(ENCODINGS, d.get(4))
        page.statistics = Statistics.from_thrift(d.get(5))
    elif h[1] == 3:
        d = h.get(8)
        if d is None:
            raise ThriftError(f"DATA_PAGE_V2 at byte {pos} has no data_page_header_v2")
        page.num_values = d[1]
        page.num_nulls = d[2]
        page.num_rows = d[3]
        page.encoding = _name(ENCODINGS, d.get(4))
        page.def_levels_byte_length = d.get(5, 0)
        page.rep_levels_byte_length = d.get(6, 0)
        page.is_compressed = d.get(7, True)
        page.statistics = Statistics.from_thrift(d.get(8))
    elif h[1] == 2:
        d = h.get(7)
        if d is None:
            raise ThriftError(f"DICTIONARY_PAGE at byte {pos} has no dictionary_page_header")
        page.num_values = d[1]
        page.encoding = _name(ENCODINGS, d.get(2))
    return page


def parse_offset_index(data: bytes, pos: int, length: int) -> Dict[str, Any]:
    s, after = decode_struct(data, pos, pos + length)
    if after != pos + length:
        raise ThriftError(f"offset index at {pos}: decoded {after - pos} bytes of {length}")
    locs = [PageLocation(p[1], p[2], p[3]) for p in s.get(1, [])]
    return {"page_locations": locs, "unencoded_byte_array_data_bytes": s.get(2)}


def parse_column_index(data: bytes, pos: int, length: int) -> Dict[str, Any]:
    s, after = decode_struct(data, pos, pos + length)
    if after != pos + length:
        raise ThriftError(f"column index at {pos}: decoded {after - pos} bytes of {length}")
    return {"null_pages": s.get(1), "min_values": s.get(2), "max_values": s.get(3),
            "boundary_order": s.get(4), "null_counts": s.get(5), "nan_counts": s.get(8)}


def read_structure(data: bytes, with_pages: bool = True) -> FileStructure:
    """Parses the footer and (optionally) walks every page of every column chunk."""
    data = bytes(data)
    n = len(data)
    if n < 12 or data[:4] != MAGIC or data[-4:] != MAGIC:
        raise ThriftError("not a Parquet file (magic bytes missing)")
    (footer_len,) = struct.unpack("<I", data[-8:-4])
    footer_offset = n - 8 - footer_len
    if footer_offset < 4:
        raise ThriftError(f"footer length {footer_len} does not fit in a {n}-byte file")
    fmd, after = decode_struct(data, footer_offset, n - 8)
    if after != n - 8:
        raise ThriftError(f"footer decoded to byte {after}, expected {n - 8}")
    kv = {}
    for item in fmd.get(5, []) or []:
        kv[_str(item.get(1))] = item.get(2)
    row_groups = []
    for rgi, rg in enumerate(fmd.get(4, [])):
        cols = []
        for ci, cc in enumerate(rg.get(1, [])):
            md = cc.get(3)
            if md is None:
                raise ThriftError(f"row group {rgi} column {ci} has no meta_data")
            chunk = ColumnChunk(
                row_group=rgi, column=ci, path=[_str(p) for p in md.get(3, [])],
                physical_type=_name(PHYSICAL_TYPES, md.get(1)), codec=_name(CODECS, md.get(4)),
                encodings=[_name(ENCODINGS, e) for e in md.get(2, [])], num_values=md[5],
                total_uncompressed_size=md[6], total_compressed_size=md[7], data_page_offset=md[9],
                index_page_offset=md.get(10), dictionary_page_offset=md.get(11),
                statistics=Statistics.from_thrift(md.get(12)),
                encoding_stats=[(_name(PAGE_TYPES, s.get(1)), _name(ENCODINGS, s.get(2)), s.get(3))
                                for s in md.get(13, []) or []],
                offset_index_offset=cc.get(4), offset_index_length=cc.get(5),
                column_index_offset=cc.get(6), column_index_length=cc.get(7), raw=cc)
            if with_pages:
                chunk.pages = read_pages(data, chunk.start, chunk.total_compressed_size)
            cols.append(chunk)
        row_groups.append(RowGroup(index=rgi, num_rows=rg.get(3), total_byte_size=rg.get(2),
                                   total_compressed_size=rg.get(6), file_offset=rg.get(5),
                                   ordinal=rg.get(7), columns=cols, raw=rg))
    return FileStructure(size=n, footer_offset=footer_offset, footer_length=footer_len,
                         version=fmd.get(1), num_rows=fmd.get(3), created_by=_str(fmd.get(6)),
                         key_value_metadata=kv, schema=fmd.get(2, []), row_groups=row_groups, raw=fmd)


def read_pages(data: bytes, start: int, total_compressed_size: int) -> List[Page]:
    """Every page in [start, start + total_compressed_size); the pages must tile it exactly."""
    end = start + total_compressed_size
    if total_compressed_size == 0:
        return []  # a chunk without pages (Arrow C++ writes them in empty row groups)
    if start < 4 or end > len(data):
        raise ThriftError(f"column chunk [{start}, {end}) is outside the file")
    pages = []
    pos = start
    while pos < end:
        page = parse_page_header(data, pos, end)
        if page.compressed_size < 0 or page.uncompressed_size < 0:
            raise ThriftError(f"page at {pos} has a negative size")
        pos = page.data_offset + page.compressed_size
        if pos > end:
            raise ThriftError(f"page at {page.offset} runs past the column chunk end {end}")
        pages.append(page)
    return pages


def read_file(path) -> FileStructure:
    with open(path, "rb") as f:
        return read_structure(f.read())


def list_pages(path_or_bytes) -> List[tuple]:
    """[(row group, column path, page type, encoding, num_values, num_rows (v2), compressed size,
    uncompressed size)] for every page of every column chunk."""
    data = path_or_bytes if isinstance(path_or_bytes, (bytes, bytearray)) else open(path_or_bytes, "rb").read()
    fs = read_structure(data)
    out = []
    for chunk in fs.chunks():
        for p in chunk.pages:
            out.append((chunk.row_group, ".".join(chunk.path)) + p.summary())
    return out


def page_body(data: bytes, page: Page) -> bytes:
    return bytes(data[page.data_offset:page.data_offset + page.compressed_size])


def page_crc(data: bytes, page: Page) -> int:
    """CRC-32 of the page's bytes as stored (what PageHeader.crc covers), as a signed i32."""
    c = zlib.crc32(page_body(data, page))
    return c - (1 << 32) if c >= (1 << 31) else c


def uncompressed_page_size(data: bytes, page: Page, codec: str,
                           decompress: Callable[[bytes, int, str], bytes]) -> int:
    """Decompresses the page with `decompress(body, expected size, codec)` and returns its
    uncompressed length (v2: the uncompressed level prefix plus the decompressed values)."""
    body = page_body(data, page)
    if page.type == "DATA_PAGE_V2":
        prefix = page.def_levels_byte_length + page.rep_levels_byte_length
        rest = body[prefix:]
        if codec == "UNCOMPRESSED" or not page.is_compressed:
            return prefix + len(rest)
        return prefix + len(decompress(rest, page.uncompressed_size - prefix, codec))
    if codec == "UNCOMPRESSED":
        return len(body)
    return len(decompress(body, page.uncompressed_size, codec))
