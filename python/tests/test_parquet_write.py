"""quiver.write_parquet judged by other readers: a randomised, property-style matrix.

Every case writes one random table with Quiver and checks that
  - pyarrow reads it back equal to the input (values, schema, field and schema
    metadata), and with the same Arrow schema as pyarrow's own file of the same data;
  - the file's structure is sound (parquet_pages, an independent page reader);
  - column chunk statistics equal pyarrow's for the same data and options;
  - duckdb and polars read it equal to the input. Where a reader cannot handle some
    data at all (it fails, or changes it, on pyarrow's own file of the same table too),
    it must read Quiver's file exactly as it reads pyarrow's.

The option matrix (type x nullable x nesting x data page version x dictionary x codec x
page sizing x table shape) is covered pairwise by default, and as a full product over
everything but the table shape when QUIVER_DEEP_TESTS=1. Case ids are stable; the data
comes from the `rng` fixture (QUIVER_TEST_SEED=<seed printed on failure> replays it).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parquet_pages
import quiver
from arrow_samples import NEST_KINDS, nested_column, writer_samples

DEEP = os.environ.get("QUIVER_DEEP_TESTS", "") not in ("", "0")

TYPES = writer_samples()
TYPE_BY_NAME = dict(TYPES)

# Layers listed from the leaf outwards ("struct/list" is list<struct<v: leaf, s>>);
# "randomN" draws N layers from the rng.
NESTINGS = ["", "list", "large_list", "fixed_size_list", "struct", "map", "struct/list",
            "map/fixed_size_list", "large_list/map", "list/struct/large_list",
            "fixed_size_list/map/struct", "random2", "random3"]
CODECS = ["none", "snappy", "gzip", "brotli", "lz4", "lz4_raw", "zstd", "zstd:7"]
SHAPES = ["plain", "sliced", "chunked", "multi_row_group", "row_group_bytes", "empty", "all_null"]

DIMENSIONS = {
    "type": [n for n, _ in TYPES],
    "nullable": [True, False],
    "nesting": NESTINGS,
    "version": ["1.0", "2.0"],
    "dictionary": [True, False],
    "codec": CODECS,
    "pages": ["default", "small"],
    "shape": SHAPES,
}


def case_is_valid(c):
    """Constraints on (possibly partial) cases."""
    if c.get("nullable") is False and c.get("type") == "null":
        return False  # a null-type field is always nullable
    if c.get("nullable") is False and c.get("shape") == "all_null":
        return False
    return True


def pairwise_cases(dims, valid, seed=20240611, tries=6):
    """A covering array of strength 2 (every valid value pair of every two dimensions in
    some case), built greedily (AETG style) with a fixed seed so case ids are stable."""
    rng = random.Random(seed)
    names = list(dims)
    uncovered = set()
    for i, j in itertools.combinations(range(len(names)), 2):
        for a in dims[names[i]]:
            for b in dims[names[j]]:
                if valid({names[i]: a, names[j]: b}):
                    uncovered.add(((names[i], a), (names[j], b)))

    def gain(case, name, value):
        g = 0
        for other, ov in case.items():
            key = ((other, ov), (name, value)) if names.index(other) < names.index(name) else \
                ((name, value), (other, ov))
            g += key in uncovered
        return g

    cases = []
    while uncovered:
        seed_pair = rng.choice(sorted(uncovered, key=repr)[:64]) if len(uncovered) > 64 else \
            sorted(uncovered, key=repr)[0]
        best, best_score = None, -1
        for _ in range(tries):
            case = dict(seed_pair)
            rest = [n for n in names if n not in case]
            rng.shuffle(rest)
            for name in rest:
                options = [v for v in dims[name] if valid({**case, name: v})]
                scored = [(gain(case, name, v), rng.random(), v) for v in options]
                case[name] = max(scored, key=lambda s: (s[0], s[1]))[2]
            score = sum(1 for p in itertools.combinations(sorted(case.items(),
                                                                 key=lambda kv: names.index(kv[0])), 2)
                        if p in uncovered)
            if score > best_score:
                best, best_score = case, score
        for p in itertools.combinations(sorted(best.items(), key=lambda kv: names.index(kv[0])), 2):
            uncovered.discard(p)
        cases.append({n: best[n] for n in names})
    return cases


def full_cases(dims, valid):
    names = [n for n in dims if n != "shape"]
    out = []
    for k, values in enumerate(itertools.product(*(dims[n] for n in names))):
        case = dict(zip(names, values))
        shapes = dims["shape"][k % len(dims["shape"]):] + dims["shape"][:k % len(dims["shape"])]
        case["shape"] = next((s for s in shapes if valid({**case, "shape": s})), None)
        if case["shape"] is not None and valid(case):
            out.append(case)
    return out


def case_id(i, c):
    return (f"{i:04d}-{c['type']}-{'null' if c['nullable'] else 'req'}-{c['nesting'] or 'flat'}"
            f"-v{c['version']}-{'dict' if c['dictionary'] else 'plain'}-{c['codec']}-{c['pages']}"
            f"-{c['shape']}").replace("/", ">")


CASES = full_cases(DIMENSIONS, case_is_valid) if DEEP else pairwise_cases(DIMENSIONS, case_is_valid)
CASE_IDS = [case_id(i, c) for i, c in enumerate(CASES)]


# --- Shared helpers (also used by the other test_parquet_*.py files) ---------

def codec_options(codec):
    if codec == "zstd:7":
        return {"compression": "zstd", "compression_level": 7}
    return {"compression": codec}


def strip_views(t):
    """`t` with view types replaced by their non-view equivalents (pyarrow cannot write
    sliced views in some nested positions; the bytes and statistics are the same)."""
    if pa.types.is_string_view(t):
        return pa.string()
    if pa.types.is_binary_view(t):
        return pa.binary()
    return map_type(t, strip_views)


def decode_type(t):
    """`t` with every dictionary replaced by its value type."""
    if pa.types.is_dictionary(t):
        return decode_type(t.value_type)
    return map_type(t, decode_type)


def map_type(t, f):
    """`t` with f applied to its children (keeping names, nullability, metadata)."""
    def field(fl):
        return pa.field(fl.name, f(fl.type), nullable=fl.nullable, metadata=fl.metadata)
    if pa.types.is_list(t):
        return pa.list_(field(t.value_field))
    if pa.types.is_large_list(t):
        return pa.large_list(field(t.value_field))
    if pa.types.is_fixed_size_list(t):
        return pa.list_(field(t.value_field), t.list_size)
    if pa.types.is_map(t):
        return pa.map_(field(t.key_field), field(t.item_field), keys_sorted=t.keys_sorted)
    if pa.types.is_struct(t):
        return pa.struct([field(t.field(i)) for i in range(t.num_fields)])
    return t


def has_type(t, pred):
    if pred(t):
        return True
    if pa.types.is_dictionary(t):
        return has_type(t.value_type, pred)
    return any(has_type(t.field(i).type, pred) for i in range(t.num_fields))


def pyarrow_read_type(t):
    """The type pyarrow (26) reads back for an Arrow type `t` it or Quiver wrote: dates,
    times and timestamps in seconds come back in milliseconds (stored so), date64 as date32;
    list and map child names are Parquet's (compared with ==, which ignores them)."""
    if pa.types.is_date64(t):
        return pa.date32()
    if pa.types.is_time32(t) and t.unit == "s":
        return pa.time32("ms")
    if pa.types.is_timestamp(t) and t.unit == "s":
        return pa.timestamp("ms", tz=t.tz)
    if pa.types.is_dictionary(t):
        return pa.dictionary(t.index_type, pyarrow_read_type(t.value_type), t.ordered)
    return map_type(t, pyarrow_read_type)


def values_match(got, expected):
    """Column values equal, after decoding dictionaries and casting the expected values to
    the type the reader chose (unsafe casts truncate as readers do); a cast pyarrow cannot
    do falls back to comparing Python values."""
    if isinstance(got, pa.Array):
        got = pa.chunked_array([got], got.type)
    if isinstance(expected, pa.Array):
        expected = pa.chunked_array([expected], expected.type)
    if len(got) != len(expected):
        return False
    try:
        got = got.cast(decode_type(got.type)) if got.type != decode_type(got.type) else got
        expected = expected.cast(decode_type(expected.type)) if expected.type != decode_type(expected.type) \
            else expected
    except pa.ArrowException:
        # pyarrow cannot cast some dictionaries nested in structs (ArrowIndexError on an
        # empty dictionary under null slots): compare Python values instead.
        return got.to_pylist() == expected.to_pylist()
    if got.type != expected.type:
        try:
            expected = expected.cast(got.type, safe=False)
        except (pa.ArrowNotImplementedError, pa.ArrowInvalid, pa.ArrowTypeError):
            return got.to_pylist() == expected.to_pylist()
    return got.equals(expected)


def tables_match(got, expected):
    """(ok, message): same column names and matching values."""
    if got.num_rows != expected.num_rows:
        return False, f"{got.num_rows} rows, expected {expected.num_rows}"
    names = expected.column_names
    if got.column_names != names:
        return False, f"columns {got.column_names}, expected {names}"
    for name in names:
        if not values_match(got.column(name), expected.column(name)):
            return False, f"column {name!r} differs: got {got.column(name).type}, " \
                          f"expected {expected.column(name).type}"
    return True, ""


def write_reference(table, path, options, row_group_rows=None, dense=False, extra=None):
    """Writes `table` with pyarrow with the same options (and the same row groups as Quiver's
    file when `row_group_rows` is given). Returns the table actually written. `dense`:
    dictionary columns are decoded first (pyarrow's statistics of dictionary arrays with
    nulls cover the whole dictionary, not the values used: see write_stats_reference).
    `extra`: pyarrow-only options (e.g. store_decimal_as_integer)."""
    # Quiver writes the page index by default, pyarrow does not; ask pyarrow for it too, as
    # it changes where pyarrow cuts pages of repeated columns (they start on records then).
    kw = {"write_page_index": True, **(extra or {})}
    for k in ("compression", "compression_level", "use_dictionary", "data_page_version",
              "data_page_size", "write_batch_size", "dictionary_pagesize_limit", "max_rows_per_page",
              "write_statistics", "store_schema", "write_page_index", "write_page_checksum",
              "version", "coerce_timestamps", "allow_truncated_timestamps"):
        if k in options:
            kw[k] = options[k]
    if row_group_rows is None and options.get("row_group_size"):
        size = options["row_group_size"]
        row_group_rows = [size] * (table.num_rows // size) + ([table.num_rows % size] if table.num_rows % size else [])

    def attempt(t):
        rows = row_group_rows
        if rows is None or len(rows) <= 1:
            pq.write_table(t, path, **kw)
        elif len(set(rows[:-1])) == 1 and rows[-1] <= rows[0]:
            pq.write_table(t, path, row_group_size=rows[0], **kw)
        else:
            with pq.ParquetWriter(path, t.schema, **kw) as w:
                start = 0
                for n in rows:
                    w.write_table(t.slice(start, n), row_group_size=n)
                    start += n
        return t
    if dense:
        table = retype_table(table, decode_type)
    try:
        return attempt(table)
    except pa.ArrowNotImplementedError:
        return attempt(retype_table(table, strip_views))


def has_dictionary(schema):
    return any(has_type(f.type, pa.types.is_dictionary) for f in schema)


def retype_table(table, retype):
    """`table` with every column cast to retype(its type) (rebuilt from Python values where
    pyarrow's cast of sliced nested data produces invalid arrays)."""
    cols = []
    for col, f in zip(table.columns, table.schema):
        t = retype(f.type)
        if t == f.type:
            cols.append(col)
            continue
        chunks = []
        for chunk in col.chunks:
            try:
                c = chunk.cast(t)
                c.validate(full=True)
            except pa.ArrowException:
                c = pa.array(chunk.to_pylist(), t)
            chunks.append(c)
        cols.append(pa.chunked_array(chunks, t))
    return pa.Table.from_arrays(cols, schema=pa.schema([f.with_type(retype(f.type)) for f in table.schema],
                                                        metadata=table.schema.metadata))


def write_stats_reference(table, path, options, row_group_rows=None, reference_path=None, extra=None):
    """The pyarrow file to compare statistics with: `reference_path` (already written by
    write_reference) unless `table` has dictionary columns. pyarrow 26 computes the
    statistics of an Arrow dictionary array that has a null over every dictionary value,
    used or not (DictionaryArray [null, 0] over ["b", "a"] -> min "a", max "b"); Quiver
    uses only the values present, as it does (and pyarrow does) for dense input. So those
    columns are compared with pyarrow's statistics of the decoded values."""
    if reference_path is not None and not has_dictionary(table.schema):
        return reference_path
    write_reference(table, path, options, row_group_rows, dense=True, extra=extra)
    return path


def check_pyarrow_read(path, table, reference_path=None):
    """pq.read_table equals the input (schema with metadata as pyarrow_read_type says)."""
    got = pq.read_table(path)
    assert got.num_rows == table.num_rows
    assert got.schema.metadata == table.schema.metadata, (got.schema.metadata, table.schema.metadata)
    assert got.column_names == table.column_names
    for f_got, f_in in zip(got.schema, table.schema):
        assert f_got.nullable == f_in.nullable, f_got
        assert f_got.metadata == f_in.metadata, (f_got, f_in)
        assert f_got.type == pyarrow_read_type(f_in.type), (f_got.type, f_in.type)
    ok, msg = tables_match(got, table)
    assert ok, msg
    if reference_path is not None:
        try:
            ref = pq.read_table(reference_path)
        except pa.ArrowInvalid:
            # pyarrow 26 can write a file it cannot read back: a nested Arrow dictionary
            # column at a tiny data_page_size gets a leading data page of 0 values in each
            # row group, and read_table then fails ("Column 1 named c expected length 1 but
            # got length 0"; deep matrix case dictionary-req-random2-v1.0-dict-brotli-
            # small-multi_row_group, seed 54122007). Quiver's file was checked above.
            if has_dictionary(table.schema):
                return got
            raise
        if ref.schema.equals(got.schema, check_metadata=True):
            return got
        # The reference may have been written with views stripped.
        assert ref.schema.metadata == got.schema.metadata
        for f_got, f_ref in zip(got.schema, ref.schema):
            if f_got.equals(f_ref, check_metadata=True):
                continue
            assert f_ref.type == strip_views(f_got.type), (f_got, f_ref)
            assert (f_ref.name, f_ref.nullable, f_ref.metadata) == (f_got.name, f_got.nullable, f_got.metadata)
    return got


# --- Statistics ---------------------------------------------------------------

def _same_float(a, b):
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def _stat_value(v):
    # numpy scalars (float16) -> Python
    if hasattr(v, "item") and not isinstance(v, (bytes, str)):
        return v.item()
    return v


def _min_max(stats):
    """(min, max) as Python values, or None when pyarrow cannot convert them."""
    try:
        return _stat_value(stats.min), _stat_value(stats.max)
    except (ValueError, OverflowError, pa.ArrowException):
        return None


def compare_chunk_statistics(q_meta, p_meta, where, truncate=64, q_struct=None):
    """Quiver's column chunk statistics equal pyarrow's (`p_meta`) for the same data; byte
    arrays whose bound is longer than `truncate` bytes are checked as truncated bounds
    (with the exactness flags read by parquet_pages from `q_struct`)."""
    qs, ps = q_meta.statistics, p_meta.statistics
    assert q_meta.num_values == p_meta.num_values, where
    if ps is None:
        assert qs is None or not qs.has_min_max, where
        return
    assert qs is not None, f"{where}: Quiver wrote no statistics, pyarrow did"
    assert qs.has_null_count == ps.has_null_count and qs.null_count == ps.null_count, \
        (where, qs.null_count, ps.null_count)
    assert qs.has_min_max == ps.has_min_max, (where, qs, ps)
    if not ps.has_min_max:
        return
    exact = q_struct.statistics if q_struct is not None else None
    if ps.physical_type in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY") and qs.physical_type == ps.physical_type \
            and (len(ps.min_raw) > truncate or len(ps.max_raw) > truncate):
        # Long byte arrays: Quiver truncates bounds to `truncate` bytes, pyarrow does not.
        if len(ps.min_raw) > truncate:
            assert len(qs.min_raw) <= truncate and ps.min_raw.startswith(qs.min_raw), (where, qs.min_raw, ps.min_raw)
            assert exact is None or exact.is_min_value_exact is False, where
        else:
            assert qs.min_raw == ps.min_raw, where
            assert exact is None or exact.is_min_value_exact is True, where
        if len(ps.max_raw) > truncate and qs.max_raw != ps.max_raw:
            assert len(qs.max_raw) <= truncate and qs.max_raw > ps.max_raw, (where, qs.max_raw, ps.max_raw)
            assert exact is None or exact.is_max_value_exact is False, where
        else:
            assert qs.max_raw == ps.max_raw, where
            assert exact is None or exact.is_max_value_exact is True, where
        return
    if exact is not None:
        assert exact.is_min_value_exact is True and exact.is_max_value_exact is True, where
    q, p = _min_max(qs), _min_max(ps)
    if q is not None and p is not None:
        if any(isinstance(v, float) for v in q + p):
            assert _same_float(q[0], p[0]) and _same_float(q[1], p[1]), (where, q, p)
        else:
            assert q == p, (where, q, p)
    else:
        assert qs.physical_type == ps.physical_type, (where, "cannot compare", qs, ps)
    if qs.physical_type == ps.physical_type:
        assert (qs.min_raw, qs.max_raw) == (ps.min_raw, ps.max_raw), (where, qs, ps)


def compare_file_statistics(q_path, p_path, truncate=64):
    qm, pm = pq.ParquetFile(q_path).metadata, pq.ParquetFile(p_path).metadata
    p_groups = [i for i in range(pm.num_row_groups) if pm.row_group(i).num_rows > 0]
    assert qm.num_row_groups == len(p_groups)
    structure = parquet_pages.read_file(q_path)
    for i, pi in enumerate(p_groups):
        assert qm.row_group(i).num_rows == pm.row_group(pi).num_rows
        for j in range(qm.num_columns):
            compare_chunk_statistics(qm.row_group(i).column(j), pm.row_group(pi).column(j),
                                     f"row group {i} column {qm.row_group(i).column(j).path_in_schema}",
                                     truncate, structure.row_groups[i].columns[j])


# --- Structure (independent page reader) --------------------------------------

def _decompress(body, size, codec):
    name = {"SNAPPY": "snappy", "GZIP": "gzip", "BROTLI": "brotli", "LZ4_RAW": "lz4_raw",
            "ZSTD": "zstd"}[codec]
    return pa.decompress(body, decompressed_size=size, codec=name, asbytes=True)


def leaf_kinds(schema, dictionaries=False):
    """Arrow leaf type of every Parquet leaf column, in order (`dictionaries`: Arrow
    dictionary leaves as their dictionary types, not their value types)."""
    out = []

    def walk(t):
        if pa.types.is_dictionary(t):
            out.append(t if dictionaries else t.value_type)
        elif pa.types.is_map(t):
            walk(t.key_type)
            walk(t.item_type)
        elif t.num_fields:
            for i in range(t.num_fields):
                walk(t.field(i).type)
        else:
            out.append(t)
    for f in schema:
        walk(f.type)
    return out


def check_structure(path, schema, options):
    """Checks every page of every column chunk of the file at `path` (written with `options`
    from a table with Arrow `schema`) against the format's invariants and the options."""
    data = open(path, "rb").read()
    fs = parquet_pages.read_structure(data)
    md = pq.ParquetFile(path).metadata
    leaves = leaf_kinds(schema)
    assert fs.num_rows == md.num_rows
    assert sum(rg.num_rows for rg in fs.row_groups) == fs.num_rows
    assert len(leaves) == (len(fs.row_groups[0].columns) if fs.row_groups else len(leaves))
    version = options.get("data_page_version", "1.0")
    max_rows = options.get("max_rows_per_page", 20000)
    use_dict = options.get("use_dictionary", True)
    codec_name = str(options.get("compression", "snappy") or "none").upper()
    codec_name = {"NONE": "UNCOMPRESSED", "LZ4": "LZ4_RAW"}.get(codec_name, codec_name)
    want_index = options.get("write_page_index", True)
    format_1_0 = options.get("version") == "1.0"
    dict_page_encoding = "PLAIN_DICTIONARY" if format_1_0 else "PLAIN"
    index_encoding = "PLAIN_DICTIONARY" if format_1_0 else "RLE_DICTIONARY"
    assert fs.version == (1 if format_1_0 else 2)
    prev_end = 4
    for rg in fs.row_groups:
        assert rg.num_rows > 0, "empty row groups are not written"
        for chunk, leaf in zip(rg.columns, leaves):
            where = f"row group {rg.index} column {'.'.join(chunk.path)}"
            cm = md.row_group(rg.index).column(chunk.column)
            assert chunk.codec == codec_name, (where, chunk.codec)
            assert chunk.start >= prev_end, f"{where}: chunks overlap"
            prev_end = chunk.start + chunk.total_compressed_size
            pages = chunk.pages
            assert pages, where
            data_pages = chunk.data_pages
            dict_pages = chunk.dictionary_pages
            assert sum(p.total_size for p in pages) == chunk.total_compressed_size, where
            assert sum(p.header_size + p.uncompressed_size for p in pages) == chunk.total_uncompressed_size, where
            assert sum(p.num_values for p in data_pages) == chunk.num_values == cm.num_values, where
            assert all(p.type == ("DATA_PAGE" if version == "1.0" else "DATA_PAGE_V2") for p in data_pages), where
            # Uncompressed sizes are what the pages decompress to.
            for p in pages:
                assert parquet_pages.uncompressed_page_size(data, p, chunk.codec, _decompress) == \
                    p.uncompressed_size, f"{where}: page at {p.offset}"
            if options.get("write_page_checksum"):
                for p in pages:
                    assert p.crc == parquet_pages.page_crc(data, p), f"{where}: page CRC at {p.offset}"
            else:
                assert all(p.crc is None for p in pages), where
            # Dictionary: one PLAIN dictionary page, first; then RLE_DICTIONARY pages, then PLAIN
            # after a fallback (format version '1.0': PLAIN_DICTIONARY for both, as Arrow C++).
            is_bool = pa.types.is_boolean(leaf)
            is_null = pa.types.is_null(leaf)
            dictionary = use_dict and not is_bool and not is_null
            assert len(dict_pages) <= 1, where
            if dict_pages:
                assert dictionary, f"{where}: dictionary page without use_dictionary"
                assert pages[0].type == "DICTIONARY_PAGE" and pages[0].encoding == dict_page_encoding, where
                assert chunk.dictionary_page_offset == pages[0].offset, where
                assert cm.has_dictionary_page
            else:
                assert not chunk.dictionary_page_offset, where
            assert chunk.data_page_offset == data_pages[0].offset, where
            encs = [p.encoding for p in data_pages]
            if dictionary:
                assert dict_pages, f"{where}: no dictionary page"
                k = next((i for i, e in enumerate(encs) if e != index_encoding), len(encs))
                assert all(e == "PLAIN" for e in encs[k:]), (where, encs)
            elif is_bool and version == "2.0" and not format_1_0:
                assert set(encs) == {"RLE"}, (where, encs)
            else:
                assert set(encs) == {"PLAIN"}, (where, encs)
            expected_encs = {p.encoding for p in pages} | {"RLE"}
            assert set(cm.encodings) == expected_encs, (where, cm.encodings, expected_encs)
            stats_count = {}
            for p in pages:
                stats_count[(p.type, p.encoding)] = stats_count.get((p.type, p.encoding), 0) + 1
            assert {(t, e): c for t, e, c in chunk.encoding_stats} == stats_count, where
            # Rows per page.
            if version == "2.0":
                assert sum(p.num_rows for p in data_pages) == rg.num_rows, where
                # (An empty page can occur where Arrow C++ writes one too: see compare_page_layout.)
                assert all(0 <= p.num_rows <= max_rows for p in data_pages), (where, [p.num_rows for p in data_pages])
                assert all((p.num_rows == 0) == (p.num_values == 0) for p in data_pages), where
                if chunk.statistics is not None and chunk.statistics.null_count is not None:
                    assert sum(p.num_nulls for p in data_pages) == chunk.statistics.null_count, where
                for p in data_pages:
                    # With a codec, values the codec does not make smaller are stored as they
                    # are (is_compressed false), as Arrow C++ 26 writes them.
                    if codec_name == "UNCOMPRESSED":
                        assert not p.is_compressed, where
                    elif p.is_compressed:
                        assert p.compressed_size < p.uncompressed_size, (where, p)
                    else:
                        assert p.compressed_size == p.uncompressed_size, (where, p)
            # Page index: offset index pages are the data pages; rows per page from it.
            if want_index:
                assert chunk.offset_index_offset is not None, where
                oi = parquet_pages.parse_offset_index(data, chunk.offset_index_offset, chunk.offset_index_length)
                locs = oi["page_locations"]
                assert [(l.offset, l.compressed_page_size) for l in locs] == \
                    [(p.offset, p.total_size) for p in data_pages], where
                firsts = [l.first_row_index for l in locs] + [rg.num_rows]
                assert firsts[0] == 0, where
                rows = [b - a for a, b in zip(firsts, firsts[1:])]
                assert all(0 <= r <= max_rows for r in rows), (where, rows)
                assert all(r > 0 or p.num_values == 0 for r, p in zip(rows, data_pages)), (where, rows)
                if version == "2.0":
                    assert rows == [p.num_rows for p in data_pages], where
                if chunk.statistics is not None and chunk.statistics.null_count is not None:
                    assert chunk.column_index_offset is not None, where
                    ci = parquet_pages.parse_column_index(data, chunk.column_index_offset,
                                                          chunk.column_index_length)
                    assert len(ci["null_pages"]) == len(data_pages), where
                    assert sum(ci["null_counts"]) == chunk.statistics.null_count, where
            else:
                assert chunk.offset_index_offset is None and chunk.column_index_offset is None, where
    return fs


def compare_page_layout(q_path, p_path, schema):
    """Quiver cuts pages where pyarrow does (same options, same data): every column chunk
    has the same pages (type, encoding, values, rows), in order. Null-type columns are
    skipped: pyarrow gives them an empty dictionary page, Quiver no dictionary; so are Arrow
    dictionary columns: pyarrow writes the Arrow dictionary as it is (unused values too),
    so its dictionary page and fallback point differ."""
    q, p = parquet_pages.read_file(q_path), parquet_pages.read_file(p_path)
    p_groups = [rg for rg in p.row_groups if rg.num_rows > 0]  # pyarrow writes empty row groups
    assert len(q.row_groups) == len(p_groups)
    leaves = leaf_kinds(schema, dictionaries=True)
    for qg, pg in zip(q.row_groups, p_groups):
        for a, b, leaf in zip(qg.columns, pg.columns, leaves):
            if pa.types.is_null(leaf) or pa.types.is_dictionary(leaf) or a.physical_type != b.physical_type:
                continue  # (decimals of precision <= 18: INT32/INT64 here, FLBA in pyarrow)
            qa = [(x.type, x.encoding, x.num_values, x.num_rows) for x in a.pages]
            pa_ = [(x.type, x.encoding, x.num_values, x.num_rows) for x in b.pages]
            if qa != pa_:
                k = next((i for i in range(min(len(qa), len(pa_))) if qa[i] != pa_[i]), min(len(qa), len(pa_)))
                raise AssertionError(
                    f"row group {a.row_group} column {'.'.join(a.path)}: pages differ from pyarrow's at page {k} "
                    f"of {len(qa)} (pyarrow: {len(pa_)}): quiver {qa[max(0, k - 2):k + 3]} "
                    f"pyarrow {pa_[max(0, k - 2):k + 3]}")


# --- Other readers -------------------------------------------------------------

@pytest.fixture(scope="module")
def duck():
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    yield con
    con.close()


def read_duckdb(con, path):
    return con.read_parquet(str(path)).to_arrow_table()


def read_polars(path):
    import polars as pl
    return pl.read_parquet(str(path)).to_arrow()


def _attempt(fn, *args):
    try:
        return fn(*args), None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # polars panics are BaseExceptions
        return None, e


def check_reader(name, read, q_path, ref_path, table):
    """The reader reads Quiver's file equal to `table`; or, where it cannot handle the data
    even from pyarrow's file (`ref_path`), reads Quiver's file as it reads pyarrow's.
    Returns "ok", or "limited: ..." for the second case."""
    got, err = _attempt(read, q_path)
    if err is None:
        ok, msg = tables_match(got, table)
        if ok:
            return "ok"
    else:
        msg = f"{type(err).__name__}: {err}"
    ref, ref_err = _attempt(read, ref_path)
    if ref_err is None:
        ref_ok, _ = tables_match(ref, table)
        assert not ref_ok, f"{name} reads pyarrow's file of this table correctly but not Quiver's: {msg}"
        assert err is None, f"{name} reads pyarrow's file but fails on Quiver's: {msg}"
        same, why = tables_match(got, ref)
        assert same, f"{name} reads Quiver's and pyarrow's files differently: {why}"
        return f"limited: {msg}"
    # The reader fails on pyarrow's file too (a reader limitation); Quiver's may fail as well.
    return f"limited: {type(ref_err).__name__}"


# --- The matrix ------------------------------------------------------------------

@dataclasses.dataclass
class Built:
    table: pa.Table
    options: dict
    kinds: list


def build_case(case, rng):
    leaf_type = TYPE_BY_NAME[case["type"]].type
    nesting = case["nesting"]
    if nesting.startswith("random"):
        kinds = [rng.choice(NEST_KINDS) for _ in range(int(nesting[-1]))]
    else:
        kinds = nesting.split("/") if nesting else []
    shape = case["shape"]
    nullable = case["nullable"]
    n = 0 if shape == "empty" else rng.choice([rng.randint(1, 40), rng.randint(40, 700)])
    null_prob = 1.0 if shape == "all_null" else (rng.choice([0.0, 0.1, 0.3, 0.7]) if nullable else 0.0)
    arr, _ = nested_column(leaf_type, kinds, n, rng, nullable, null_prob if nullable else 0.2,
                           force_slice=shape == "sliced")
    if shape == "all_null":
        arr = pa.nulls(len(arr), arr.type) if rng.random() < 0.5 else arr
    if shape == "empty":
        arr = arr.slice(0, 0)
    rows = len(arr)
    ids = pa.array(range(rows), pa.int64())
    if shape == "chunked" and rows > 2:
        cuts = sorted(rng.sample(range(1, rows), min(rows - 1, rng.randint(1, 3))))
        bounds = [0] + cuts + [rows]
        if rng.random() < 0.5:
            bounds.insert(1, 0)  # an empty chunk
        col = pa.chunked_array([arr.slice(a, b - a) for a, b in zip(bounds, bounds[1:])], arr.type)
        idc = pa.chunked_array([ids.slice(a, b - a) for a, b in zip(bounds, bounds[1:])], pa.int64())
    else:
        col, idc = pa.chunked_array([arr], arr.type), pa.chunked_array([ids], pa.int64())
    schema = pa.schema([pa.field("id", pa.int64(), nullable=False),
                        pa.field("c", arr.type, nullable=nullable, metadata={"field": "c"})],
                       metadata={"origin": "quiver-tests", "type": case["type"]})
    table = pa.Table.from_arrays([idc, col], schema=schema)

    options = {"data_page_version": case["version"], "use_dictionary": case["dictionary"],
               **codec_options(case["codec"])}
    if case["pages"] == "small":
        options["data_page_size"] = rng.randint(64, 4096)
        options["max_rows_per_page"] = rng.randint(1, 50)
        options["write_batch_size"] = rng.randint(1, 64)
        if rng.random() < 0.3:
            options["dictionary_pagesize_limit"] = rng.choice([1, 16, 256])
    if shape == "multi_row_group":
        options["row_group_size"] = rng.randint(1, max(1, rows // 3))
    if shape == "row_group_bytes":
        options["row_group_bytes"] = rng.choice([1, 64, 512, 4096])
    if rng.random() < 0.2:
        options["write_page_checksum"] = True
    return Built(table, options, kinds)


def run_case(case, rng, tmp_path, duck, readers=True):
    built = build_case(case, rng)
    table, options = built.table, built.options
    q_path = tmp_path / "quiver.parquet"
    quiver.write_parquet(table, str(q_path), **options)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quiver.parquet"], "temporary file left behind"
    fs = check_structure(q_path, table.schema, options)
    rg_rows = [rg.num_rows for rg in fs.row_groups]
    if "row_group_size" in options:
        size = options["row_group_size"]
        assert rg_rows == [size] * (table.num_rows // size) + ([table.num_rows % size] if table.num_rows % size else [])
    elif "row_group_bytes" not in options:
        assert len(rg_rows) == (1 if table.num_rows else 0)
    elif options["row_group_bytes"] == 1:
        # Every write_batch_size rows (or chunk end) buffers more than one byte.
        assert all(r <= options.get("write_batch_size", 1024) for r in rg_rows), rg_rows
    p_path = tmp_path / "pyarrow.parquet"
    write_reference(table, str(p_path), options, rg_rows)
    check_pyarrow_read(q_path, table, p_path)
    if "row_group_bytes" not in options:  # (a Quiver extra: pyarrow's row groups differ)
        compare_page_layout(q_path, p_path, table.schema)
    compare_file_statistics(q_path, write_stats_reference(table, str(tmp_path / "dense.parquet"), options,
                                                          rg_rows, p_path))
    notes = {}
    if readers:
        notes["duckdb"] = check_reader("duckdb", lambda p: read_duckdb(duck, p), q_path, p_path, table)
        notes["polars"] = check_reader("polars", read_polars, q_path, p_path, table)
    return notes


# (reader, sample type) pairs a reader cannot handle from pyarrow's files either: duckdb
# reads decimal256(50, 1) as DOUBLE (its decimals stop at 38 digits); polars refuses or
# panics on precision > 38; both have failed on the null type nested in lists. Any other
# "limited" outcome fails the matrix, so the fallback oracle cannot hide a problem.
KNOWN_READER_LIMITS = {("duckdb", "decimal256"), ("polars", "decimal256"), ("duckdb", "null"), ("polars", "null")}


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_matrix(case, rng, tmp_path, duck):
    notes = run_case(case, rng, tmp_path, duck)
    for reader, note in notes.items():
        assert note == "ok" or (reader, case["type"]) in KNOWN_READER_LIMITS, f"{reader}: {note}"


def test_matrix_is_pairwise():
    """Every valid pair of option values of any two dimensions is in some case."""
    names = list(DIMENSIONS)
    seen = set()
    for c in CASES:
        for a, b in itertools.combinations(names, 2):
            seen.add((a, c[a], b, c[b]))
    for a, b in itertools.combinations(names, 2):
        for va in DIMENSIONS[a]:
            for vb in DIMENSIONS[b]:
                if case_is_valid({a: va, b: vb}):
                    assert (a, va, b, vb) in seen, (a, va, b, vb)


# --- Focused cases -------------------------------------------------------------------

def test_every_type_every_codec_one_file(tmp_path, duck):
    """All supported sample types as columns of one file, with every codec."""
    cols = {n: a for n, a in TYPES if len(a) == 10}
    table = pa.table(cols)
    for codec in CODECS:
        path = tmp_path / f"{codec.replace(':', '_')}.parquet"
        ref = tmp_path / f"{codec.replace(':', '_')}.ref.parquet"
        quiver.write_parquet(table, str(path), **codec_options(codec))
        write_reference(table, str(ref), codec_options(codec))
        check_pyarrow_read(path, table, ref)
        check_structure(path, table.schema, codec_options(codec))
        compare_file_statistics(path, write_stats_reference(table, str(tmp_path / "d.parquet"),
                                                            codec_options(codec), None, ref))


def test_samples_nested_two_levels(tmp_path, duck):
    """arrow_samples.nest (list<struct<v>>) of every type, sliced both ways, in one file."""
    from arrow_samples import nest
    cols = {}
    for n, a in TYPES:
        if len(a) != 10:
            continue
        nested = nest(a)
        cols[n] = nested.slice(0, len(nested) - 1)
        cols[n + "_s"] = nested.slice(1)
    table = pa.table(cols)
    path, ref = tmp_path / "q.parquet", tmp_path / "p.parquet"
    quiver.write_parquet(table, str(path))
    write_reference(table, str(ref), {})
    check_pyarrow_read(path, table, ref)
    check_structure(path, table.schema, {})
    compare_file_statistics(path, write_stats_reference(table, str(tmp_path / "d.parquet"), {}, None, ref))
    check_reader("duckdb", lambda p: read_duckdb(duck, p), path, ref, table)
    check_reader("polars", read_polars, path, ref, table)


def test_empty_table_and_no_columns_metadata(tmp_path):
    table = pa.table({"a": pa.array([], pa.int32()), "s": pa.array([], pa.string())})
    path = tmp_path / "e.parquet"
    quiver.write_parquet(table, str(path))
    got = pq.read_table(path)
    assert got.num_rows == 0 and got.schema == table.schema
    assert pq.ParquetFile(path).metadata.num_row_groups == 0
    check_structure(path, table.schema, {})


def test_large_and_many_row_groups(tmp_path, duck, rng):
    """A bigger table (several default-sized pages, several row groups), all codecs sampled."""
    n = 60_000
    import numpy as np
    g = np.random.default_rng(rng.seed_value)
    table = pa.table({
        "i": pa.array(g.integers(-1 << 40, 1 << 40, n)),
        "f": pa.array(g.normal(size=n)),
        "s": pa.array([f"v{x}" for x in g.integers(0, 500, n)]),
        "l": pa.array([[int(x)] * (int(x) % 4) for x in g.integers(0, 100, n)], pa.list_(pa.int16())),
    })
    opts = {"row_group_size": 25_000, "compression": rng.choice(["zstd", "snappy", "lz4"]),
            "data_page_version": rng.choice(["1.0", "2.0"])}
    path, ref = tmp_path / "q.parquet", tmp_path / "p.parquet"
    quiver.write_parquet(table, str(path), **opts)
    fs = check_structure(path, table.schema, opts)
    assert [rg.num_rows for rg in fs.row_groups] == [25_000, 25_000, 10_000]
    assert max(len(c.data_pages) for c in fs.chunks()) > 1
    write_reference(table, str(ref), opts, [25_000, 25_000, 10_000])
    check_pyarrow_read(path, table, ref)
    compare_file_statistics(path, ref)
    check_reader("duckdb", lambda p: read_duckdb(duck, p), path, ref, table)
    check_reader("polars", read_polars, path, ref, table)


def test_nan_and_signed_zero_roundtrip(tmp_path):
    """NaN payloads and -0.0 survive bit for bit (no reader equality hides them)."""
    import numpy as np
    vals = np.array([float("nan"), -0.0, 0.0, float("-inf"), 1.5, float("nan")], dtype=np.float64)
    vals_bits = vals.view(np.uint64).copy()
    vals_bits[5] = 0x7FF8_0000_DEAD_BEEF  # a NaN with a payload
    vals = vals_bits.view(np.float64)
    table = pa.table({"d": pa.array(vals), "f": pa.array(vals.astype(np.float32)),
                      "h": pa.array(vals.astype(np.float16))})
    for dictionary in (True, False):
        path = tmp_path / f"n{dictionary}.parquet"
        quiver.write_parquet(table, str(path), use_dictionary=dictionary)
        got = pq.read_table(path)
        for name, dt in (("d", np.uint64), ("f", np.uint32), ("h", np.uint16)):
            a = table.column(name).to_numpy().view(dt)
            b = got.column(name).to_numpy().view(dt)
            assert list(a) == list(b), name


def test_schema_mapping_matches_pyarrow(tmp_path):
    """Parquet schema (physical / logical / converted types, levels) of every sample type,
    compared with pyarrow's. Known, intended differences are listed explicitly."""
    cols = {n: a for n, a in TYPES if len(a) == 10}
    table = pa.table(cols)
    qp, pp = tmp_path / "q.parquet", tmp_path / "p.parquet"
    quiver.write_parquet(table, str(qp))
    pq.write_table(table, str(pp))
    sq, sp = pq.ParquetFile(qp).schema, pq.ParquetFile(pp).schema
    assert len(sq) == len(sp)
    differences = {}
    for i in range(len(sq)):
        a, b = sq.column(i), sp.column(i)
        ka = (a.path, a.physical_type, str(a.logical_type), a.converted_type, a.max_definition_level,
              a.max_repetition_level, a.length, a.precision, a.scale)
        kb = (b.path, b.physical_type, str(b.logical_type), b.converted_type, b.max_definition_level,
              b.max_repetition_level, b.length, b.precision, b.scale)
        if ka != kb:
            differences[a.path] = (ka[1:4] + ka[6:7], kb[1:4] + kb[6:7])
    # Quiver (as Arrow C++ before 2024 and parquet-java) annotates signed 32/64-bit integers
    # with INT(n, true); pyarrow 26 leaves them plain. Decimals of precision <= 18 are stored
    # as INT32/INT64 (pyarrow: store_decimal_as_integer=True); pyarrow's default is FLBA.
    # Times are written isAdjustedToUTC=true with the legacy converted type; pyarrow 26
    # writes isAdjustedToUTC=false (write_time_adjusted_to_utc=False).
    expected_paths = {"int32", "int64", "decimal32", "decimal64", "time32_s", "time32_ms", "time64_us",
                      "time64_ns", "list.list.element", "large_list.list.element", "struct.a",
                      "map.key_value.value"}
    assert set(differences) == expected_paths, differences
    for path, (q, p) in differences.items():
        if path.startswith("time"):
            assert "isAdjustedToUTC=true" in q[1] and "isAdjustedToUTC=false" in p[1]
        elif path.startswith("decimal"):
            assert q[0] in ("INT32", "INT64") and p[0] == "FIXED_LEN_BYTE_ARRAY" and q[1] == p[1]
        else:
            assert q[1].startswith("Int(") and p[1] == "None" and q[0] == p[0]


def test_file_object_gets_the_file_chunk_by_chunk(tmp_path):
    """A file object is given the file chunk by chunk (as each row group is
    finished, test_parquet_sinks.py), as read-only memoryviews that stay valid
    after the writer is gone (the views keep the chunks alive); end to end they
    are the bytes written to a path."""
    import gc

    table = pa.table({"x": pa.array(range(400_000), pa.int64()),
                      "s": pa.array([f"v{i % 977}" for i in range(400_000)])})

    class Keep:
        def __init__(self):
            self.parts = []

        def write(self, data):
            self.parts.append(data)  # the view itself, not a copy
            return len(data)

    kept = Keep()
    quiver.write_parquet(table, kept, compression="none")
    gc.collect()
    quiver.write_parquet(table, tmp_path / "a.parquet", compression="none")
    assert len(kept.parts) > 1
    assert all(isinstance(p, memoryview) and p.readonly for p in kept.parts)
    data = b"".join(kept.parts)
    assert data == (tmp_path / "a.parquet").read_bytes()
    assert pq.read_table(pa.BufferReader(data)).equals(table)
    # Plain bytes (format "B", one dimension, contiguous), each view the one
    # holder of its chunk's owner: released, nothing else keeps the chunk.
    import sys
    assert all(p.format == "B" and p.itemsize == 1 and p.ndim == 1 and p.contiguous
               for p in kept.parts)
    owner = kept.parts[0].obj
    assert sys.getrefcount(owner) == 3  # owner, the view, getrefcount's argument
    kept.parts[0].release()
    assert sys.getrefcount(owner) == 2


def test_nullable_booleans_sliced_at_every_offset():
    """Nullable booleans (the valid slots' bits are gathered a word at a
    time), sliced at random offsets, every null density, v1 and v2 pages
    (v2: RLE from the bitmap), small pages and batches: pyarrow reads back
    the values."""
    import io

    rng = random.Random(1)
    for trial in range(150):
        n = rng.randint(0, 3000)
        p_null = rng.choice([0.0, 0.02, 0.3, 0.7, 0.98, 1.0])
        p_true = rng.choice([0.1, 0.5, 0.9])
        vals = [None if rng.random() < p_null else rng.random() < p_true for _ in range(n)]
        off = rng.randint(0, n)
        table = pa.table({"b": pa.array(vals, pa.bool_()).slice(off, rng.randint(0, n - off))})
        opts = dict(data_page_size=rng.choice([64, 1024, 1 << 20]),
                    write_batch_size=rng.choice([7, 64, 1024]),
                    data_page_version=rng.choice(["1.0", "2.0"]), use_dictionary=False,
                    compression="none")
        ours = io.BytesIO()
        quiver.write_parquet(table, ours, **opts)
        got = pq.read_table(pa.BufferReader(ours.getvalue()))
        assert got.column(0).to_pylist() == table.column(0).to_pylist(), (trial, opts)
