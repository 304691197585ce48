"""The writer matrix of docs/benchmarks.md section 1, in one place: its data
groups (seeded generators), its variants and the writer options of each (the
same values for every writer: pyarrow's `pq.write_table` names, which Quiver
takes too), the peers' page layouts (PEER_LAYOUTS), and the value comparison
the correctness gates use.

Used by bench/writer_bench.py, bench/read_bench.py and bench/peers/, and by
the tests that hash the writer's output (python/tests/test_golden.py, through
writer_bench). Imports numpy and pyarrow only (no Quiver).
"""

import numpy as np
import pyarrow as pa

FULL_ROWS = 1 << 20
QUICK_ROWS = 1 << 15

BASE_OPTIONS = dict(
    version="2.6",
    data_page_version="1.0",
    compression="none",
    use_dictionary=True,
    data_page_size=1 << 20,
    dictionary_pagesize_limit=1 << 20,
    max_rows_per_page=20000,
    write_batch_size=1024,
    write_statistics=True,
    write_page_index=False,
    store_schema=True,
    row_group_size=1 << 20,
)

# Content-defined chunking: min 256 KiB, max 1 MiB, norm level 0 (the
# Arrow C++ / arrow-go / arrow-rs defaults).
CDC_DEFAULTS = {"min_chunk_size": 256 * 1024, "max_chunk_size": 1024 * 1024, "norm_level": 0}

# name -> option changes. bloom_filter is filled per table (every leaf
# column, ndv = rows, fpp 0.05). These six are the ones
# python/tests/test_golden.py hashes Quiver's output under.
VARIANTS = {
    "default": {},
    "bloom_filter": {"bloom_filter_options": "EVERY_LEAF"},  # non-BOOLEAN leaves
    "parquet_2": {"data_page_version": "2.0"},
    "zstd": {"compression": "zstd", "compression_level": 1},
    "zstd_parquet_2": {"compression": "zstd", "compression_level": 1, "data_page_version": "2.0"},
    "cdc": {"use_content_defined_chunking": CDC_DEFAULTS},
}
# The matrix's seventh variant: an exact distinct count in each column
# chunk's statistics (Quiver's write_distinct_count). pyarrow's write_table
# has no such option (Arrow C++'s WriterProperties neither): a pyarrow-side
# peer is never given an option of QUIVER_ONLY_OPTIONS and replies
# "unsupported" instead. Not in VARIANTS: the golden hashes are not about it.
DISTINCT_COUNT_VARIANTS = {
    "number_distinct_values": {"write_distinct_count": True},
}
QUIVER_ONLY_OPTIONS = ("write_distinct_count",)
# The whole matrix of docs/benchmarks.md section 1 (bench/peers/run.py).
MATRIX_VARIANTS = {**VARIANTS, **DISTINCT_COUNT_VARIANTS}
# Not part of the matrix: the peer benchmark's TPC-H cases
# (bench/peers/PROTOCOL.md). variant_options takes all of them.
EXTRA_VARIANTS = {
    "snappy": {"compression": "snappy"},
    "cdc_zstd": {"use_content_defined_chunking": CDC_DEFAULTS, "compression": "zstd",
                 "compression_level": 1},
    "cdc_snappy": {"use_content_defined_chunking": CDC_DEFAULTS, "compression": "snappy"},
}
ALL_VARIANTS = {**MATRIX_VARIANTS, **EXTRA_VARIANTS}

# Quiver writing a peer's own page layout, for the peers that cannot take
# some of the matrix settings (bench/peers/run.py's layout arms;
# bench/peers/layout_control.py takes any options as arms instead):
# "<variant>@<peer>" is the variant's options with these over them. Quiver
# only; the options undo what the peer cannot match (its `settings`
# differences).
PEER_LAYOUTS = {
    # A dictionary only where it pays (polars' own per-column heuristic
    # writes distinct numbers PLAIN: Quiver's dictionary_cost_fallback,
    # parquet-java's rule, decided after a column's first page); the page
    # index always. The matrix's 20,000-row pages are kept (polars has no
    # row limit, but without it the first page, and so the decision, would
    # come only at the dictionary's size limit): more pages than polars
    # writes, which costs Quiver, not the peer.
    "polars": {"dictionary_cost_fallback": True, "write_page_index": True},
    # No rows-per-page limit (pages cut at the 1 MiB data page size only).
    "arrow-go": {"max_rows_per_page": 1 << 30},
}
LAYOUT_SEP = "@"


def layout_variant(variant):
    """(matrix variant, peer whose layout, or None) of a variant name."""
    base, sep, peer = variant.partition(LAYOUT_SEP)
    if sep and peer not in PEER_LAYOUTS:
        raise ValueError(f"no layout for peer {peer!r} (writer_bench.PEER_LAYOUTS: "
                         f"{', '.join(PEER_LAYOUTS)})")
    return base, (peer if sep else None)

GROUPS = [
    "primitive", "primitive_non_null", "bool", "bool_non_null", "string", "string_non_null",
    "string_empty", "string_dictionary", "string_dictionary_low_cardinality_20",
    "string_dictionary_low_cardinality_100", "string_dictionary_low_cardinality_400",
    "float_with_nans", "list_primitive", "list_primitive_non_null", "struct_non_null",
    "struct_sparse_99pct_null", "primitive_sparse_99pct_null", "primitive_all_null",
    "list_nested", "list_struct_with_list", "fsb",
]

# ---------------------------------------------------------------------------
# Data (docs/benchmarks.md section 1). One numpy Generator seeded 42 per
# top-level column; within a column the draws go: validity (uniform < null
# density means null), then lengths/offsets, then values, then children, in
# that order. Non-nullable fields get no nulls.

ALNUM = np.frombuffer(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                      dtype=np.uint8)


def seeded():
    return np.random.default_rng(42)


def null_mask(rng, n, density):
    """A boolean mask, True where null, or None without nulls."""
    if density <= 0.0:
        return None
    return rng.random(n, dtype=np.float32) < np.float32(density)


def bitmap(mask):
    """Arrow validity bitmap (1 = valid) from a True-is-null mask."""
    if mask is None:
        return None
    return pa.py_buffer(np.packbits(~mask, bitorder="little"))


def null_count(mask):
    return 0 if mask is None else int(mask.sum())


def gen_int(rng, dtype, n):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)


def gen_primitive(rng, typ, n, density):
    mask = null_mask(rng, n, density)
    if typ == pa.int32():
        values = gen_int(rng, np.int32, n)
    elif typ == pa.int64():
        values = gen_int(rng, np.int64, n)
    elif typ == pa.uint32():
        values = gen_int(rng, np.uint32, n)
    elif typ == pa.uint64():
        values = gen_int(rng, np.uint64, n)
    elif typ == pa.float32():
        values = rng.random(n, dtype=np.float32)
    elif typ == pa.float64():
        values = rng.random(n, dtype=np.float64)
    elif typ == pa.date64():
        # Whole days (uniform over the int32 day range) in milliseconds, so the
        # value survives Parquet's DATE (int32 days) and the read-back compares.
        values = gen_int(rng, np.int32, n).astype(np.int64) * 86_400_000
    else:
        raise ValueError(f"no generator for {typ}")
    return pa.Array.from_buffers(typ, n, [bitmap(mask), pa.py_buffer(values)],
                                 null_count=null_count(mask))


def gen_bool(rng, n, density, true_density=0.75):
    mask = null_mask(rng, n, density)
    values = rng.random(n, dtype=np.float32) < np.float32(true_density)
    return pa.Array.from_buffers(pa.bool_(), n,
                                 [bitmap(mask), pa.py_buffer(np.packbits(values, bitorder="little"))],
                                 null_count=null_count(mask))


def gen_string(rng, typ, n, density, min_len=0, max_len=399):
    """Alphanumeric strings, lengths uniform min_len..max_len; nulls are empty."""
    mask = null_mask(rng, n, density)
    lengths = rng.integers(min_len, max_len, size=n, endpoint=True, dtype=np.int64)
    if mask is not None:
        lengths[mask] = 0
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    data = ALNUM[rng.integers(0, len(ALNUM), size=int(offsets[-1]), dtype=np.uint8)]
    offset_type = np.int64 if typ in (pa.large_string(), pa.large_binary()) else np.int32
    return pa.Array.from_buffers(typ, n, [bitmap(mask), pa.py_buffer(offsets.astype(offset_type)),
                                          pa.py_buffer(data)],
                                 null_count=null_count(mask))


def gen_list_offsets(rng, n, large):
    lengths = rng.integers(0, 4, size=n, endpoint=True, dtype=np.int64)  # 0..4
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets.astype(np.int64 if large else np.int32), int(offsets[-1])


def gen_field(rng, field, n, density):
    """A random array for `field` (density applies where the field is nullable)."""
    d = density if field.nullable else 0.0
    t = field.type
    if pa.types.is_boolean(t):
        return gen_bool(rng, n, d)
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return gen_string(rng, t, n, d)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        mask = null_mask(rng, n, d)
        offsets, child_len = gen_list_offsets(rng, n, pa.types.is_large_list(t))
        child = gen_field(rng, t.value_field, child_len, density)
        return pa.Array.from_buffers(t, n, [bitmap(mask), pa.py_buffer(offsets)],
                                     null_count=null_count(mask), children=[child])
    if pa.types.is_struct(t):
        mask = null_mask(rng, n, d)
        children = [gen_field(rng, t.field(i), n, density) for i in range(t.num_fields)]
        return pa.Array.from_buffers(t, n, [bitmap(mask)], null_count=null_count(mask),
                                     children=children)
    if pa.types.is_fixed_size_binary(t):
        mask = null_mask(rng, n, d)
        data = rng.integers(0, 256, size=n * t.byte_width, dtype=np.uint8)
        return pa.Array.from_buffers(t, n, [bitmap(mask), pa.py_buffer(data)],
                                     null_count=null_count(mask))
    return gen_primitive(rng, t, n, d)


def random_table(fields, n, density):
    schema = pa.schema(fields)
    return pa.Table.from_arrays([gen_field(seeded(), f, n, density) for f in fields],
                                schema=schema)


PRIMITIVE_TYPES = [pa.int32(), pa.int64(), pa.uint32(), pa.uint64(), pa.float32(),
                   pa.float64(), pa.date64()]


def primitive_fields(nullable):
    return [pa.field(f"_{i + 1}", t, nullable) for i, t in enumerate(PRIMITIVE_TYPES)]


def list_fields(nullable):
    return [
        pa.field("_1", pa.list_(pa.field("item", pa.int32(), nullable)), nullable),
        pa.field("_2", pa.list_(pa.field("item", pa.bool_(), nullable)), nullable),
        pa.field("_3", pa.large_list(pa.field("item", pa.string(), nullable)), nullable),
    ]


def struct_field():
    return pa.field("_1", pa.struct([pa.field("_1", pa.int32(), False),
                                     pa.field("_2", pa.int64(), False),
                                     pa.field("_3", pa.float32(), False)]), True)


def low_cardinality_table(n, cardinality):
    rng = seeded()
    categories = gen_string(rng, pa.string(), cardinality, 0.0, min_len=10, max_len=24)
    indices = pa.array(np.arange(n, dtype=np.int64) % cardinality, type=pa.int32())
    dict_array = pa.DictionaryArray.from_arrays(indices, categories)
    return pa.Table.from_arrays(
        [dict_array], schema=pa.schema([pa.field("_1", dict_array.type, False)]))


def float_with_nans_table(n):
    columns = []
    for typ, np_type in ((pa.float16(), np.float16), (pa.float32(), np.float32),
                         (pa.float64(), np.float64)):
        rng = seeded()
        nan = rng.random(n, dtype=np.float32) < np.float32(0.5)
        values = rng.random(n, dtype=np.float64 if np_type is np.float64 else np.float32)
        values = values.astype(np_type)
        values[nan] = np.nan
        columns.append(pa.Array.from_buffers(typ, n, [None, pa.py_buffer(values)]))
    return pa.Table.from_arrays(
        columns, schema=pa.schema([pa.field(f"_{i + 1}", c.type, False)
                                   for i, c in enumerate(columns)]))


def build_group(name, n):
    if name == "primitive":
        return random_table(primitive_fields(True), n, 0.25)
    if name == "primitive_non_null":
        return random_table(primitive_fields(False), n, 0.25)
    if name == "bool":
        return random_table([pa.field("_1", pa.bool_(), True)], n, 0.25)
    if name == "bool_non_null":
        return random_table([pa.field("_1", pa.bool_(), False)], n, 0.25)
    if name == "string":
        return random_table([pa.field("_1", pa.string(), True),
                             pa.field("_2", pa.large_string(), True)], n, 0.25)
    if name == "string_non_null":
        return random_table([pa.field("_1", pa.string(), False),
                             pa.field("_2", pa.large_string(), False)], n, 0.25)
    if name == "string_empty":
        offsets = pa.py_buffer(np.zeros(n + 1, dtype=np.int32))
        empty = pa.Array.from_buffers(pa.string(), n, [None, offsets, pa.py_buffer(b"")])
        return pa.Table.from_arrays([empty], schema=pa.schema([pa.field("_1", pa.string(), False)]))
    if name == "string_dictionary":
        strings = gen_string(seeded(), pa.string(), n, 0.25)
        dict_array = strings.dictionary_encode()  # Dictionary(Int32, Utf8), near-unique
        return pa.Table.from_arrays([dict_array],
                                    schema=pa.schema([pa.field("_1", dict_array.type, True)]))
    if name.startswith("string_dictionary_low_cardinality_"):
        return low_cardinality_table(n, int(name.rsplit("_", 1)[1]))
    if name == "float_with_nans":
        return float_with_nans_table(n)
    if name == "list_primitive":
        return random_table(list_fields(True), n, 0.25)
    if name == "list_primitive_non_null":
        return random_table(list_fields(False), n, 0.25)
    if name == "struct_non_null":
        return random_table([struct_field()], n, 0.0)
    if name == "struct_sparse_99pct_null":
        return random_table([struct_field()], n, 0.99)
    if name == "primitive_sparse_99pct_null":
        return random_table(primitive_fields(True), n, 0.99)
    if name == "primitive_all_null":
        return random_table(primitive_fields(True), n, 1.0)
    if name == "list_nested":
        inner = pa.list_(pa.field("item", pa.int32(), True))
        return random_table([pa.field("_1", pa.list_(pa.field("item", inner, True)), True)],
                            n, 0.25)
    if name == "list_struct_with_list":
        st = pa.struct([pa.field("a", pa.int32(), True), pa.field("b", pa.float32(), True),
                        pa.field("c", pa.list_(pa.field("item", pa.int32(), True)), True)])
        return random_table([pa.field("_1", pa.list_(pa.field("item", st, True)), True)], n, 0.25)
    if name == "fsb":
        return random_table([pa.field("_1", pa.binary(16), True)], n, 0.9)
    raise ValueError(f"unknown group {name!r}")


def leaf_paths(schema):
    """(Parquet column path (dotted, as pyarrow names it), Arrow type) of every leaf."""
    out = []

    def walk(prefix, t):
        if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
            walk(prefix + ".list.element", t.value_type)
        elif pa.types.is_struct(t):
            for i in range(t.num_fields):
                walk(prefix + "." + t.field(i).name, t.field(i).type)
        elif pa.types.is_map(t):
            walk(prefix + ".key_value.key", t.key_type)
            walk(prefix + ".key_value.value", t.item_type)
        else:
            out.append((prefix, t))

    for f in schema:
        walk(f.name, f.type)
    return out


def variant_options(variant, table):
    """The options of a variant (ALL_VARIANTS), or of a layout
    variant "<variant>@<peer>" (PEER_LAYOUTS: Quiver's options only)."""
    variant, layout = layout_variant(variant)
    opts = dict(BASE_OPTIONS)
    if layout is not None:
        opts.update(PEER_LAYOUTS[layout])
    for k, v in ALL_VARIANTS[variant].items():
        if v == "EVERY_LEAF":
            # Every leaf but BOOLEAN ones: both writers refuse a bloom filter
            # on a BOOLEAN column (pyarrow 26: "BloomFilterBuilder does not
            # support boolean type"; Quiver: InvalidError).
            v = {p: {"ndv": table.num_rows, "fpp": 0.05} for p, t in leaf_paths(table.schema)
                 if not pa.types.is_boolean(t)}
            if not v:
                continue  # no eligible column: the variant is the default
        opts[k] = v
    return opts


# ---------------------------------------------------------------------------
# Value comparison (the correctness gates).

def float_bits(chunked):
    """Float columns compared by bit pattern (NaN == NaN), validity kept."""
    arr = chunked.combine_chunks() if isinstance(chunked, pa.ChunkedArray) else chunked
    width = {2: pa.int16(), 4: pa.int32(), 8: pa.int64()}[arr.type.byte_width]
    return arr.view(width)


def comparable(table):
    cols = []
    for col in table.columns:
        if pa.types.is_floating(col.type):
            cols.append(float_bits(col))
        else:
            cols.append(col.combine_chunks() if col.num_chunks != 1 else col.chunk(0))
    return cols


def first_difference(a, b):
    if a.schema != b.schema:
        fa, fb = list(a.schema), list(b.schema)
        diffs = [f"{x.name}: {x.type}{'' if x.nullable else ' not null'} vs "
                 f"{y.type}{'' if y.nullable else ' not null'}"
                 for x, y in zip(fa, fb) if not x.equals(y)]
        if len(fa) != len(fb):
            diffs.append(f"{len(fa)} vs {len(fb)} fields")
        if not diffs:
            diffs.append("schema metadata")
        return "schema differs (" + "; ".join(diffs) + ")"
    if a.num_rows != b.num_rows:
        return f"row counts differ: {a.num_rows} vs {b.num_rows}"
    for name, ca, cb in zip(a.column_names, comparable(a), comparable(b)):
        if not ca.equals(cb):
            n = len(ca)
            for start in range(0, n, 4096):
                sa, sb = ca.slice(start, 4096), cb.slice(start, 4096)
                if not sa.equals(sb):
                    for i in range(len(sa)):
                        if not sa.slice(i, 1).equals(sb.slice(i, 1)):
                            return (f"column {name!r} differs first at row {start + i}: "
                                    f"{sa.slice(i, 1).to_pylist()} vs {sb.slice(i, 1).to_pylist()}")
            return f"column {name!r} differs"
    return None
