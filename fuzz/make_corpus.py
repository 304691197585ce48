#!/usr/bin/env python3
"""Regenerates the committed seed corpora of Quiver's libFuzzer targets
(fuzz/corpus/<target>/) from real inputs: the Parquet files of
testdata/parquet-testing and testdata/quiver, and Arrow IPC streams written
by pyarrow. Run with the project's venv (pyarrow is a test requirement):

    .venv/bin/python fuzz/make_corpus.py

Each corpus is replaced as a whole. Inputs are kept small (libFuzzer's
default -max_len follows the largest seed): at most MAX_INPUT bytes each.

- quiver_parquet_metadata_fuzz: whole Parquet files of at most 8 KiB.
- quiver_parquet_reader_fuzz: whole Parquet files of at most 16 KiB, from testdata
  and written by pyarrow (every codec, v1/v2 pages, dictionary on/off, the
  DELTA and BYTE_STREAM_SPLIT encodings, nested and typed columns).
- quiver_parquet_thrift_fuzz: the Thrift FileMetaData of small files, and
  one page header of each (page type, encoding, physical type) found.
- quiver_ipc_fuzz: the ARROW:schema IPC messages stored in Parquet footers,
  and pyarrow-written IPC streams and files (nulls, strings, nested,
  dictionary, lz4/zstd body compression, schema only).
- quiver_parquet_encoding_fuzz: page values of each (encoding, physical
  type) found, prefixed with the selector byte that makes encoding_fuzz.cc
  pick that decoder (selector % 9 picks it, selector / 9 the bit or byte
  width), and the definition levels (RLE) of v1 and v2 pages.

Page bodies are decompressed with Python's zlib and pyarrow's codecs (the
Hadoop-framed LZ4 pages are skipped). Written from python/tests/
parquet_pages.py, the project's independent Parquet structure reader.
"""

from __future__ import annotations

import base64
import io
import pathlib
import shutil
import sys
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python" / "tests"))
import parquet_pages as pp  # noqa: E402

CORPUS = ROOT / "fuzz" / "corpus"
PARQUET_DIRS = [ROOT / "testdata" / "parquet-testing", ROOT / "testdata" / "quiver"]
MAX_INPUT = 4096       # bytes per corpus input
MAX_FOOTER = 2000      # footers larger than this are left out
MAX_WHOLE_FILE = 8192  # whole files for the metadata target
MAX_READER_FILE = 16384  # whole files for the reader target
PER_KEY = 1            # inputs per distinct (encoding, type, ...) key

# encoding_fuzz.cc: selector % 9 picks the decoder.
RLE, DICT_INDICES, DBP32, DBP64, DLBA, DBA, BSS, PLAIN_BYTE_ARRAY, PLAIN_FIXED = range(9)
PLAIN_WIDTH = {"INT32": 4, "INT64": 8, "FLOAT": 4, "DOUBLE": 8, "INT96": 12, "BOOLEAN": 1}


def parquet_files():
    for d in PARQUET_DIRS:
        yield from sorted(d.glob("*.parquet"))


def leaf_levels(schema):
    """(max definition level, max repetition level) of each leaf, in column order."""
    out = []

    def walk(i, d, r):
        el = schema[i]
        if i > 0:
            rep = el.get(3, 0)
            d += rep != 0
            r += rep == 2
        children = el.get(5, 0)
        if i > 0 and not children:
            out.append((d, r))
            return i + 1
        j = i + 1
        for _ in range(children):
            j = walk(j, d, r)
        return j

    walk(0, 0, 0)
    return out


def decompress(codec, data, size):
    if codec == "UNCOMPRESSED":
        return data
    if codec == "GZIP":
        return zlib.decompressobj(47).decompress(data)
    if codec in ("SNAPPY", "ZSTD", "BROTLI", "LZ4_RAW"):
        import pyarrow
        return pyarrow.decompress(data, size, codec=codec.lower(), asbytes=True)
    raise ValueError(f"codec {codec} not handled")


def width_of(chunk, schema_leaf):
    if chunk.physical_type == "FIXED_LEN_BYTE_ARRAY":
        return schema_leaf.get(2)  # type_length
    return PLAIN_WIDTH.get(chunk.physical_type)


def selector_for(encoding, chunk, page, width):
    """(selector, key) for a page's values, or None if encoding_fuzz.cc has no decoder."""
    t = chunk.physical_type
    if page.type == "DICTIONARY_PAGE" or encoding == "PLAIN":
        if t == "BYTE_ARRAY":
            return PLAIN_BYTE_ARRAY
        if width and 1 <= width <= 16:
            return PLAIN_FIXED + 9 * (width - 1)
        return None
    if encoding in ("RLE_DICTIONARY", "PLAIN_DICTIONARY"):
        return DICT_INDICES
    if encoding == "DELTA_BINARY_PACKED":
        return DBP32 if t == "INT32" else DBP64
    if encoding == "DELTA_LENGTH_BYTE_ARRAY":
        return DLBA
    if encoding == "DELTA_BYTE_ARRAY":
        return DBA
    if encoding == "BYTE_STREAM_SPLIT" and width and 1 <= width <= 16:
        return BSS + 9 * (width - 1)
    if encoding == "RLE" and t == "BOOLEAN":
        return RLE + 9 * 1  # width 1, after the 4-byte length prefix
    return None


class Corpus:
    def __init__(self, name):
        self.dir = CORPUS / name
        self.counts = {}
        self.seen = set()
        self.files = 0

    def add(self, key, name, data, max_input=MAX_INPUT):
        data = bytes(data[:max_input])
        if self.counts.get(key, 0) >= PER_KEY or data in self.seen or not data:
            return
        self.counts[key] = self.counts.get(key, 0) + 1
        self.seen.add(data)
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
        (self.dir / safe).write_bytes(data)
        self.files += 1


def main():
    names = ["quiver_parquet_thrift_fuzz", "quiver_ipc_fuzz", "quiver_parquet_encoding_fuzz",
             "quiver_parquet_metadata_fuzz", "quiver_parquet_reader_fuzz"]
    for name in names:
        shutil.rmtree(CORPUS / name, ignore_errors=True)
        (CORPUS / name).mkdir(parents=True)
    thrift, ipc, enc, meta, reader = (Corpus(n) for n in names)

    for path in parquet_files():
        data = path.read_bytes()
        # metadata_fuzz.cc reads whole files: the small ones, whole.
        if len(data) <= MAX_WHOLE_FILE:
            meta.add(("file", path.name), f"file-{path.name}", data, max_input=MAX_WHOLE_FILE)
        # reader_fuzz.cc too (it decodes every page).
        if len(data) <= MAX_READER_FILE:
            reader.add(("file", path.name), f"file-{path.name}", data, max_input=MAX_READER_FILE)
        try:
            fs = pp.read_structure(data)
        except pp.ThriftError:
            continue  # (malformed on purpose)
        stem = path.stem.replace(".", "_")
        if fs.footer_length <= MAX_FOOTER:
            thrift.add(("footer", stem), f"footer-{stem}",
                       data[fs.footer_offset:fs.footer_offset + fs.footer_length])
        schema_b64 = fs.key_value_metadata.get("ARROW:schema")
        if schema_b64 is not None:
            message = base64.b64decode(schema_b64)
            if len(message) <= MAX_INPUT:
                ipc.add(("schema", stem), f"arrow_schema-{stem}", message)
        levels = leaf_levels(fs.schema)
        leaves = [el for el in fs.schema[1:] if not el.get(5)]
        for chunk in fs.chunks():
            max_def, max_rep = levels[chunk.column]
            width = width_of(chunk, leaves[chunk.column])
            for page in chunk.pages:
                key = (page.type, page.encoding, chunk.physical_type)
                tag = f"{stem}-c{chunk.column}-{page.type}-{page.encoding}-{chunk.physical_type}"
                thrift.add(("header",) + key, f"page_header-{tag}",
                           data[page.offset:page.offset + page.header_size])
                body = pp.page_body(data, page)
                try:
                    if page.type == "DATA_PAGE_V2":
                        split = page.rep_levels_byte_length + page.def_levels_byte_length
                        def_levels = body[page.rep_levels_byte_length:split]
                        values = body[split:]
                        if page.is_compressed:
                            values = decompress(chunk.codec, values, page.uncompressed_size - split)
                    else:
                        body = decompress(chunk.codec, body, page.uncompressed_size)
                        def_levels = b""
                        pos = 0
                        if page.type == "DATA_PAGE":
                            if max_rep > 0:
                                pos += 4 + int.from_bytes(body[pos:pos + 4], "little")
                            if max_def > 0:
                                n = int.from_bytes(body[pos:pos + 4], "little")
                                def_levels = body[pos + 4:pos + 4 + n]
                                pos += 4 + n
                        values = body[pos:]
                except Exception:  # noqa: BLE001 (a codec we cannot decode here)
                    continue
                if def_levels and max_def > 0:
                    sel = RLE + 9 * max_def.bit_length()
                    enc.add(("levels", max_def.bit_length()), f"def_levels-{tag}",
                            bytes([sel]) + def_levels)
                sel = selector_for(page.encoding, chunk, page, width)
                if sel is None:
                    continue
                if sel == RLE + 9:
                    values = values[4:]
                enc.add(key, f"values-{tag}", bytes([sel]) + values)

    for name, blob in ipc_streams():
        ipc.add(("pyarrow", name), name, blob)

    for name, data in reader_files():
        reader.add(("written", name), name, data, max_input=MAX_READER_FILE)

    for c in (thrift, ipc, enc, meta, reader):
        size = sum(p.stat().st_size for p in c.dir.iterdir())
        print(f"{c.dir.relative_to(ROOT)}: {c.files} inputs, {size} bytes")


def ipc_streams():
    """Small IPC streams and files written by pyarrow."""
    import pyarrow as pa
    import pyarrow.ipc as paipc

    def stream(batches, schema, **options):
        sink = io.BytesIO()
        with paipc.new_stream(sink, schema, options=paipc.IpcWriteOptions(**options)) as w:
            for b in batches:
                w.write_batch(b)
        return sink.getvalue()

    def file(batches, schema):
        sink = io.BytesIO()
        with paipc.new_file(sink, schema) as w:
            for b in batches:
                w.write_batch(b)
        return sink.getvalue()

    flat = pa.record_batch({
        "i": pa.array([1, None, 3, -4], pa.int32()),
        "s": pa.array(["a", "bb", None, ""], pa.string()),
        "f": pa.array([1.5, None, float("nan"), -0.0], pa.float64()),
        "b": pa.array([True, False, None, True]),
    })
    nested = pa.record_batch({
        "l": pa.array([[1, 2], None, [], [3]], pa.list_(pa.int64())),
        "st": pa.array([{"x": 1, "y": "p"}, None, {"x": None, "y": "q"}, {"x": 4, "y": None}],
                       pa.struct([("x", pa.int16()), ("y", pa.string())])),
        "m": pa.array([[("k", 1)], None, [], [("a", 2), ("b", 3)]], pa.map_(pa.string(), pa.int32())),
    })
    dictionary = pa.record_batch({
        "d": pa.array(["red", "green", "red", None, "blue"]).dictionary_encode(),
        "ts": pa.array([0, 1, 2, None, 4], pa.timestamp("ms", tz="UTC")),
    })
    decimals = pa.record_batch({
        "dec": pa.array([1, None, -2], pa.decimal128(9, 2)),
        "fsb": pa.array([b"abcd", None, b"wxyz"], pa.binary(4)),
        "ls": pa.array(["x", None, "yz"], pa.large_string()),
        "date": pa.array([0, None, 19000], pa.date32()),
    })
    yield "stream-flat", stream([flat, flat.slice(1, 2)], flat.schema)
    yield "stream-nested", stream([nested], nested.schema)
    yield "stream-dictionary", stream([dictionary], dictionary.schema)
    yield "stream-decimal-binary", stream([decimals], decimals.schema)
    yield "stream-lz4", stream([flat], flat.schema, compression="lz4")
    yield "stream-zstd", stream([nested], nested.schema, compression="zstd")
    yield "stream-schema-only", stream([], flat.schema)
    yield "file-flat", file([flat], flat.schema)
    yield "file-dictionary", file([dictionary], dictionary.schema)


def reader_files():
    """Small files pyarrow writes, one per encoding, codec, page version and shape, for
    the reader target (whole files)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = {
        "flat": pa.table({
            "i": pa.array([1, None, 3, -4, 5, 6], pa.int32()),
            "l64": pa.array([10, 20, None, 40, 50, 60], pa.int64()),
            "s": pa.array(["a", "bb", None, "", "ccc", "a"], pa.string()),
            "f": pa.array([1.5, None, float("nan"), -0.0, 2.0, 3.0], pa.float64()),
            "b": pa.array([True, False, None, True, True, False]),
        }),
        "nested": pa.table({
            "l": pa.array([[1, 2], None, [], [3], [None], [4, 5, 6]], pa.list_(pa.int64())),
            "st": pa.array([{"x": 1, "y": "p"}, None, {"x": None, "y": "q"}, {"x": 4, "y": None},
                            {"x": 5, "y": "r"}, None],
                           pa.struct([("x", pa.int16()), ("y", pa.string())])),
            "m": pa.array([[("k", 1)], None, [], [("a", 2), ("b", 3)], [], [("z", None)]],
                          pa.map_(pa.string(), pa.int32())),
            "ll": pa.array([[[1], []], None, [[None, 2]], [], [[3, 4]], [None]],
                           pa.list_(pa.list_(pa.int32()))),
        }),
        "typed": pa.table({
            "dec": pa.array([1, None, -2, 3], pa.decimal128(20, 2)),
            "dec9": pa.array([1, None, -2, 3], pa.decimal128(9, 2)),
            "fsb": pa.array([b"abcd", None, b"wxyz", b"0000"], pa.binary(4)),
            "ts": pa.array([0, 1, None, 3], pa.timestamp("us", tz="UTC")),
            "date": pa.array([0, None, 19000, 1], pa.date32()),
            "d": pa.array(["red", "green", "red", None]).dictionary_encode(),
            "ls": pa.array(["x", None, "yz", "w"], pa.large_string()),
            "h": pa.array([1.0, None, -2.5, 0.5], pa.float16()),
        }),
    }
    options = {
        "default": {},
        "v2": {"data_page_version": "2.0"},
        "plain": {"use_dictionary": False},
        "zstd": {"compression": "zstd"},
        "gzip": {"compression": "gzip"},
        "brotli": {"compression": "brotli"},
        "lz4": {"compression": "lz4"},
        "none_v2": {"compression": "none", "data_page_version": "2.0", "use_dictionary": False},
        "small_pages": {"data_page_size": 16, "write_batch_size": 2, "write_page_checksum": True},
        "int96": {"use_deprecated_int96_timestamps": True},
    }
    encodings = {
        "delta": {"i": "DELTA_BINARY_PACKED", "l64": "DELTA_BINARY_PACKED",
                  "s": "DELTA_BYTE_ARRAY"},
        "delta_length": {"s": "DELTA_LENGTH_BYTE_ARRAY"},
        "bss": {"f": "BYTE_STREAM_SPLIT", "i": "BYTE_STREAM_SPLIT", "l64": "BYTE_STREAM_SPLIT"},
    }
    for tname, table in tables.items():
        for oname, opts in options.items():
            out = io.BytesIO()
            pq.write_table(table, out, **opts)
            yield f"written-{tname}-{oname}", out.getvalue()
    for ename, encoding in encodings.items():
        out = io.BytesIO()
        pq.write_table(tables["flat"], out, use_dictionary=False, column_encoding=encoding)
        yield f"written-flat-{ename}", out.getvalue()
    # Filter pruning (reader_fuzz.cc's filtered reads): row groups of sorted
    # values and a low-cardinality dictionary, pages of 2 rows, without a page
    # index (page-header statistics) and with one.
    pruning = pa.table({"k": pa.array(range(24), pa.int64()),
                        "c": pa.array(["x", "y", None] * 8),
                        "v": pa.array([float(i % 5) for i in range(24)])})
    for pname, opts in {"noindex": {}, "index": {"write_page_index": True}}.items():
        out = io.BytesIO()
        pq.write_table(pruning, out, row_group_size=8, data_page_size=16, write_batch_size=2,
                       **opts)
        yield f"written-pruning-{pname}", out.getvalue()


if __name__ == "__main__":
    main()
