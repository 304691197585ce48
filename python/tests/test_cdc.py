"""Content-defined chunking: Quiver's page boundaries equal pyarrow's.

docs/cdc.md: with use_content_defined_chunking, Quiver must cut data pages exactly
where Arrow C++ (pyarrow >= 21) cuts them, so files written by either deduplicate
against each other. Every test here writes the same table with
pyarrow.parquet.write_table and quiver.write_parquet under identical options and
compares, per column chunk, the sequence of data-page num_values, read by the
independent page-header reader parquet_pages (not Quiver's own code).

Covered: every leaf kind (fixed width of every width, booleans, binary/string and
large and view variants, fixed-size binary, dictionaries, null), required /
nullable / all-null, struct children, list / large_list / map / fixed_size_list
at depth 1-3, many write calls (chunked tables), several row groups, page size
and max-rows-per-page limits, write_batch_size, data page v1/v2, page index,
dictionary on/off, every codec; seeded random tables with several CDC parameter
sets and edited versions of them (insert, delete, update, append, prepend);
option validation and defaults.

Facts checked against pyarrow 26.0.1 that docs/cdc.md states otherwise: the chunker
state of a leaf column continues across row groups (test_state_continues_across_row_groups),
and pyarrow accepts string_view / binary_view with CDC for flat and list columns (but
cannot write a view under a nullable struct at all), so pyarrow always writes views as
string / binary here and flat / list views are also compared with pyarrow's own view pages.

DictionaryArrays of binary-like values are written as pyarrow writes them (the Arrow
dictionary as the Parquet dictionary, indices as is, no dictionary size limit, PLAIN after a
dictionary change): their pages are compared like every other column's, with page and
dictionary size limits in reach and changing dictionaries (test_direct_dictionary_*).

QUIVER_DEEP_TESTS=1 runs many more seeds and option combinations (about 35 minutes on a
shared 2-core machine). A failure names the seed and parameters; QUIVER_CDC_SEED=<seed>
reruns one random case.
"""

from __future__ import annotations

import dataclasses
import os
import random

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parquet_pages
import quiver

DEEP = os.environ.get("QUIVER_DEEP_TESTS", "") not in ("", "0")

# CDC parameter sets (min, max, norm_level); small sizes give many chunks per column.
CDC_PARAMS = [(256, 1024, 0), (256, 1024, -1), (256, 1024, 2), (1024, 4096, 0), (1024, 4096, 1),
              (4096, 16384, 0), (4096, 16384, -1), (4096, 16384, 2), (0, 512, 0), (100, 2000, 1)]
CODECS = [None, "snappy", "gzip", "brotli", "lz4", "zstd"]


# --- Comparing pages ---------------------------------------------------------

def data_page_counts(path):
    """{(row group, column path): [num_values of each data page]} (independent reader)."""
    fs = parquet_pages.read_file(path)
    return {(rg.index, ".".join(c.path)): [p.num_values for p in c.pages if p.is_data]
            for rg in fs.row_groups for c in rg.columns}


def _short(seq, at, width=6):
    lo = max(0, at - width)
    return f"[{'..., ' if lo else ''}{', '.join(map(str, seq[lo:at + width]))}{', ...' if at + width < len(seq) else ''}]"


def _first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def _no_views(t):
    """`t` with string_view / binary_view replaced by string / binary, at any depth."""
    if pa.types.is_string_view(t):
        return pa.string()
    if pa.types.is_binary_view(t):
        return pa.binary()
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_no_views(f.type)) for f in t])
    if pa.types.is_map(t):
        return pa.map_(_no_views(t.key_type), t.item_field.with_type(_no_views(t.item_type)), t.keys_sorted)
    if pa.types.is_fixed_size_list(t):
        return pa.list_(t.value_field.with_type(_no_views(t.value_type)), t.list_size)
    if pa.types.is_large_list(t):
        return pa.large_list(t.value_field.with_type(_no_views(t.value_type)))
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(_no_views(t.value_type)))
    return t


def without_views(table):
    """The same data with views as plain string / binary (docs/cdc.md: Quiver feeds the
    same bytes for both). pyarrow 26 cannot write a view under a nullable parent (it
    raises "Slicing not implemented for StringView", and with CDC on aborts the process
    on a failed Check), so pyarrow always gets this form."""
    for i, f in enumerate(table.schema):
        t = _no_views(f.type)
        if t != f.type:  # cast only these columns (pyarrow 26 miscasts list<null> in place)
            table = table.set_column(i, f.with_type(t), table.column(i).cast(t))
    return table


def write_both(table, tmp_path, opts, pa_table=None, name="t"):
    """Writes `table` with Quiver and `pa_table` (default: `table` without views) with
    pyarrow; returns (pyarrow counts, quiver counts)."""
    pa_path = tmp_path / f"{name}_pyarrow.parquet"
    q_path = tmp_path / f"{name}_quiver.parquet"
    pq.write_table(without_views(table) if pa_table is None else pa_table, pa_path, **opts)
    quiver.write_parquet(table, str(q_path), **opts)
    return data_page_counts(pa_path), data_page_counts(q_path)


def assert_same_pages(table, tmp_path, opts, context, pa_table=None, name="t"):
    """Asserts equal data-page num_values sequences per column chunk; on failure says
    where (`context` names the seed / parameters)."""
    expected, got = write_both(table, tmp_path, opts, pa_table, name)
    if expected == got:
        return expected
    lines = [f"page boundaries differ from pyarrow's: {context}", f"options: {opts}",
             f"table: {table.num_rows} rows, chunks {[len(c) for c in table.column(0).chunks][:40]}",
             f"schema: {table.schema}"]
    if expected.keys() != got.keys():
        lines.append(f"column chunks: pyarrow {sorted(expected)} quiver {sorted(got)}")
    for key in sorted(expected.keys() & got.keys()):
        a, b = expected[key], got[key]
        if a != b:
            i = _first_difference(a, b)
            lines.append(f"row group {key[0]} column {key[1]}: {len(a)} vs {len(b)} pages, first "
                         f"difference at page {i} (levels before it: {sum(a[:i])}): "
                         f"pyarrow {_short(a, i)} quiver {_short(b, i)}")
    raise AssertionError("\n".join(lines))


def cdc(min_size, max_size, norm=0):
    return {"min_chunk_size": min_size, "max_chunk_size": max_size, "norm_level": norm}


def options(cdc_params=(256, 1024, 0), **kw):
    """Writer options shared by both sides; 'pure CDC' unless limits are given."""
    o = dict(use_content_defined_chunking=cdc(*cdc_params), compression=None, use_dictionary=False,
             data_page_size=1 << 30, max_rows_per_page=1 << 30, write_batch_size=1024,
             data_page_version="1.0", write_page_index=False, row_group_size=1 << 30)
    o.update(kw)
    return o


# Page-limit profiles: (name, options); each also varies version / page index / dictionary.
PROFILES = [
    ("pure", {}),
    ("v1_limits_dict", dict(data_page_size=2000, max_rows_per_page=300, write_batch_size=128,
                            use_dictionary=True, compression="snappy")),
    ("v2_index_limits", dict(data_page_size=1500, max_rows_per_page=250, write_batch_size=100,
                             data_page_version="2.0", write_page_index=True, compression="zstd")),
    ("v1_index_rows", dict(max_rows_per_page=97, write_batch_size=64, write_page_index=True,
                           use_dictionary=True)),
    ("v2_noindex_size", dict(data_page_size=700, write_batch_size=1024, data_page_version="2.0",
                             compression="gzip")),
    ("v1_batch7", dict(write_batch_size=7, data_page_size=5000, use_dictionary=True)),
    ("v1_tiny_dict_limit", dict(use_dictionary=True, dictionary_pagesize_limit=300,
                                data_page_size=3000, max_rows_per_page=1000)),
]
PROFILE_BY_NAME = dict(PROFILES)


# --- Random data (numpy, seeded) --------------------------------------------

def _validity(g, n, null_prob):
    """(validity buffer or None, null count, numpy bool valid mask)."""
    if null_prob <= 0:
        return None, 0, np.ones(n, bool)
    valid = g.random(n) >= null_prob
    return pa.py_buffer(np.packbits(valid, bitorder="little").tobytes()), int(n - valid.sum()), valid


def _pick(g, pool, n, pattern):
    """n values from `pool` (a numpy array): uniform, or in runs."""
    if pattern == "runs":
        runs = g.integers(1, 40, max(1, n // 8 + 1))
        idx = np.repeat(g.integers(0, len(pool), len(runs)), runs)[:n]
        if len(idx) < n:
            idx = np.concatenate([idx, g.integers(0, len(pool), n - len(idx))])
        return pool[idx]
    return pool[g.integers(0, len(pool), n)]


def _int_values(g, dtype, n, pattern, lo=None, hi=None):
    info = np.iinfo(dtype)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    if pattern == "random":
        return g.integers(lo, hi, n, dtype=dtype, endpoint=True)
    pool = g.integers(lo, hi, 25 if pattern == "lowcard" else 300, dtype=dtype, endpoint=True)
    return _pick(g, pool, n, pattern)


def _float_values(g, dtype, n, pattern):
    if pattern == "random":
        v = (g.standard_normal(n) * 1000).astype(dtype)
        special = g.random(n) < 0.01
        v[special] = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], dtype)[g.integers(0, 5, special.sum())]
        return v
    pool = (g.standard_normal(25 if pattern == "lowcard" else 300) * 100).astype(dtype)
    return _pick(g, pool, n, pattern)


TIME_RANGE = {"s": 86400, "ms": 86400_000, "us": 86400_000_000, "ns": 86400_000_000_000}


def _fixed_storage(t, g, n, pattern):
    """Storage bytes (numpy array) of n random values of fixed-width type t."""
    if pa.types.is_integer(t):
        return _int_values(g, t.to_pandas_dtype(), n, pattern)
    if pa.types.is_floating(t):
        return _float_values(g, {16: np.float16, 32: np.float32, 64: np.float64}[t.bit_width], n, pattern)
    if t == pa.date32():
        return _int_values(g, np.int32, n, pattern, -40000, 40000)
    if t == pa.date64():
        return _int_values(g, np.int64, n, pattern, -40000, 40000) * 86400000
    if pa.types.is_time32(t):
        return _int_values(g, np.int32, n, pattern, 0, TIME_RANGE[t.unit] - 1)
    if pa.types.is_time64(t):
        return _int_values(g, np.int64, n, pattern, 0, TIME_RANGE[t.unit] - 1)
    if pa.types.is_timestamp(t) or pa.types.is_duration(t):
        return _int_values(g, np.int64, n, pattern, -(1 << 52), 1 << 52)
    if pa.types.is_decimal(t):
        digits = min(t.precision, 18)
        unscaled = _int_values(g, np.int64, n, pattern, -(10 ** digits - 1), 10 ** digits - 1)
        width = t.byte_width
        if width == 4:
            return unscaled.astype(np.int32)
        if width == 8:
            return unscaled
        words = np.empty((n, width // 8), np.int64)
        words[:, 0] = unscaled
        words[:, 1:] = np.where(unscaled < 0, -1, 0)[:, None]
        return words
    if pa.types.is_fixed_size_binary(t):
        w = t.byte_width
        if pattern == "random":
            return g.integers(0, 256, (n, w), dtype=np.uint8)
        pool = g.integers(0, 256, (25 if pattern == "lowcard" else 300, w), dtype=np.uint8)
        return _pick(g, pool, n, pattern)
    raise NotImplementedError(str(t))


def _binary_array(t, g, n, pattern, validity, null_count, max_len):
    text = pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)
    alphabet = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz0123456789 ", np.uint8)
    def one(length):
        if text:
            return alphabet[g.integers(0, len(alphabet), length)]
        return g.integers(0, 256, length, dtype=np.uint8)
    if pattern == "random":
        lengths = g.integers(0, max_len + 1, n)
        lengths[g.random(n) < 0.1] = 0  # empty strings
        data = one(int(lengths.sum()))
    else:
        k = 25 if pattern == "lowcard" else 300
        pool_len = g.integers(0, max_len + 1, k)
        pool_len[0] = 0
        pool = [one(int(m)) for m in pool_len]
        idx = _pick(g, np.arange(k), n, pattern)
        lengths = pool_len[idx]
        data = np.concatenate([pool[i] for i in idx]) if n else np.zeros(0, np.uint8)
    large = pa.types.is_large_string(t) or pa.types.is_large_binary(t)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64 if large else np.int32)
    base = (pa.large_string() if large else pa.string()) if text else (pa.large_binary() if large else pa.binary())
    arr = pa.Array.from_buffers(base, n, [validity, pa.py_buffer(offsets.tobytes()),
                                          pa.py_buffer(data.astype(np.uint8).tobytes())], null_count=null_count)
    return arr if arr.type == t else arr.cast(t)


# Leaf kinds: name -> Arrow type.
LEAF_TYPES = {
    "int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "int64": pa.int64(),
    "uint8": pa.uint8(), "uint16": pa.uint16(), "uint32": pa.uint32(), "uint64": pa.uint64(),
    "float16": pa.float16(), "float32": pa.float32(), "float64": pa.float64(),
    "date32": pa.date32(), "date64": pa.date64(),
    "time32_s": pa.time32("s"), "time32_ms": pa.time32("ms"),
    "time64_us": pa.time64("us"), "time64_ns": pa.time64("ns"),
    "timestamp_s": pa.timestamp("s"), "timestamp_ms": pa.timestamp("ms"),
    "timestamp_us_tz": pa.timestamp("us", tz="UTC"), "timestamp_ns": pa.timestamp("ns"),
    "duration_s": pa.duration("s"), "duration_ms": pa.duration("ms"), "duration_us": pa.duration("us"),
    "duration_ns": pa.duration("ns"),
    "decimal32": pa.decimal32(9, 2), "decimal64": pa.decimal64(18, 3),
    "decimal128": pa.decimal128(38, 5), "decimal128_small": pa.decimal128(7, 2),
    "decimal256": pa.decimal256(76, 10),
    "bool": pa.bool_(),
    "string": pa.string(), "binary": pa.binary(), "large_string": pa.large_string(),
    "large_binary": pa.large_binary(), "string_view": pa.string_view(), "binary_view": pa.binary_view(),
    "fixed_size_binary1": pa.binary(1), "fixed_size_binary5": pa.binary(5),
    "fixed_size_binary16": pa.binary(16),
    "dict_int8_string": pa.dictionary(pa.int8(), pa.string()),
    "dict_int16_string": pa.dictionary(pa.int16(), pa.string()),
    "dict_int32_int64": pa.dictionary(pa.int32(), pa.int64()),
    "dict_int64_binary": pa.dictionary(pa.int64(), pa.binary()),
    "null": pa.null(),
}
LEAF_KINDS = list(LEAF_TYPES)
PATTERNS = ["random", "lowcard", "runs"]


def gen_leaf(kind, g, n, null_prob, pattern="random", max_len=24, dictionary=None):
    """n random values of leaf kind `kind` (a null with probability null_prob)."""
    t = LEAF_TYPES[kind]
    if pa.types.is_null(t):
        return pa.nulls(n)
    validity, null_count, valid = _validity(g, n, null_prob)
    if pa.types.is_dictionary(t):
        values = dictionary if dictionary is not None else dictionary_values(t, g)
        idx = _int_values(g, t.index_type.to_pandas_dtype(), n, pattern, 0, len(values) - 1)
        indices = pa.Array.from_buffers(t.index_type, n, [validity, pa.py_buffer(idx.tobytes())],
                                        null_count=null_count)
        return pa.DictionaryArray.from_arrays(indices, values)
    if pa.types.is_boolean(t):
        bits = g.random(n) < (0.5 if pattern == "random" else 0.9)
        data = pa.py_buffer(np.packbits(bits, bitorder="little").tobytes())
        return pa.Array.from_buffers(t, n, [validity, data], null_count=null_count)
    if pa.types.is_binary(t) or pa.types.is_string(t) or pa.types.is_large_binary(t) or \
            pa.types.is_large_string(t) or pa.types.is_binary_view(t) or pa.types.is_string_view(t):
        return _binary_array(t, g, n, pattern, validity, null_count, max_len)
    storage = _fixed_storage(t, g, n, pattern)
    return pa.Array.from_buffers(t, n, [validity, pa.py_buffer(np.ascontiguousarray(storage).tobytes())],
                                 null_count=null_count)


def dictionary_values(t, g, size=None):
    size = size if size is not None else int(g.integers(2, 60))
    vt = t.value_type
    if pa.types.is_integer(vt):
        return pa.array(np.unique(g.integers(-10 ** 9, 10 ** 9, size * 2))[:size], vt)
    return pa.array([f"v{i}_{int(g.integers(0, 10 ** 6))}" * int(g.integers(1, 4)) for i in range(size)],
                    vt).unique()


@dataclasses.dataclass(frozen=True)
class Layer:
    kind: str            # list, large_list, fixed_size_list, map, struct
    nullable: bool       # whether this layer's slots may be null
    size: int = 2        # fixed_size_list size
    key: str = "int32"   # map key type


@dataclasses.dataclass(frozen=True)
class ColumnSpec:
    """A column: layers (outermost first) around a leaf."""
    leaf: str
    layers: tuple = ()
    nullable: bool = True      # the leaf (or, for no layers, the column) is nullable
    null_prob: float = 0.2
    pattern: str = "random"
    max_len: int = 24
    null_lists_own_values: bool = False  # null list slots own a non-empty child range

    def name(self):
        parts = [l.kind + ("?" if l.nullable else "") for l in self.layers]
        return "/".join(parts + [self.leaf + ("?" if self.nullable else "")])


LIST_LENGTHS = np.array([0, 1, 1, 2, 2, 3, 4, 6, 9])


def gen_column(spec, g, n, dictionary=None):
    """(array of length n, top-level field nullable) for `spec`."""
    arr = _gen(spec, list(spec.layers), g, n, dictionary)
    top_nullable = spec.layers[0].nullable if spec.layers else spec.nullable
    return arr, top_nullable


def _gen(spec, layers, g, n, dictionary):
    if not layers:
        return gen_leaf(spec.leaf, g, n, spec.null_prob if spec.nullable else 0.0, spec.pattern,
                        spec.max_len, dictionary)
    layer, rest = layers[0], layers[1:]
    child_nullable = rest[0].nullable if rest else spec.nullable
    mask = (g.random(n) < spec.null_prob) if layer.nullable and spec.null_prob > 0 else None
    if layer.kind == "struct":
        child = _gen(spec, rest, g, n, dictionary)
        sibling = gen_leaf("int32", g, n, spec.null_prob if child_nullable else 0.0)
        return pa.StructArray.from_arrays(
            [child, sibling], fields=[pa.field("v", child.type, child_nullable),
                                      pa.field("s", pa.int32(), child_nullable)],
            mask=None if mask is None else pa.array(mask))
    if layer.kind == "fixed_size_list":
        child = _gen(spec, rest, g, n * layer.size, dictionary)
        return pa.FixedSizeListArray.from_arrays(
            child, type=pa.list_(pa.field("item", child.type, child_nullable), layer.size),
            mask=None if mask is None else pa.array(mask))
    lengths = LIST_LENGTHS[g.integers(0, len(LIST_LENGTHS), n)]
    if mask is not None and not spec.null_lists_own_values:
        lengths[mask] = 0
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    total = int(offsets[-1])
    child = _gen(spec, rest, g, total, dictionary)
    pmask = None if mask is None else pa.array(mask)
    if layer.kind == "list":
        return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), child, mask=pmask,
                                        type=pa.list_(pa.field("item", child.type, child_nullable)))
    if layer.kind == "large_list":
        return pa.LargeListArray.from_arrays(pa.array(offsets, pa.int64()), child, mask=pmask,
                                             type=pa.large_list(pa.field("item", child.type, child_nullable)))
    if layer.kind == "map":
        if layer.key == "string":
            keys = pa.array([f"k{i}" for i in g.integers(0, 50, total)], pa.string())
        else:
            keys = pa.array(g.integers(-1000, 1000, total, dtype=np.int32), pa.int32())
        return pa.MapArray.from_arrays(pa.array(offsets, pa.int32()), keys, child, mask=pmask,
                                       type=pa.map_(keys.type, pa.field("value", child.type, child_nullable)))
    raise ValueError(layer.kind)


def gen_table(specs, g, n, dictionaries=None):
    cols, fields = [], []
    for i, spec in enumerate(specs):
        arr, nullable = gen_column(spec, g, n, None if dictionaries is None else dictionaries[i])
        cols.append(arr)
        fields.append(pa.field(f"c{i}", arr.type, nullable))
    return pa.Table.from_arrays(cols, schema=pa.schema(fields))


def split_chunks(table, g, pieces):
    """`table` as `pieces` write calls (aligned chunks at random row offsets)."""
    n = table.num_rows
    if pieces <= 1 or n < 2:
        return table
    cuts = sorted(set(int(x) for x in g.integers(1, n, pieces - 1)))
    bounds = [0] + cuts + [n]
    return pa.concat_tables([table.slice(a, b - a) for a, b in zip(bounds, bounds[1:])])


def random_layers(rng, depth):
    layers = []
    for _ in range(depth):
        kind = rng.choice(["list", "large_list", "fixed_size_list", "map", "struct"])
        layers.append(Layer(kind, rng.random() < 0.7, size=rng.choice([1, 2, 3]),
                            key=rng.choice(["int32", "string"])))
    return tuple(layers)


# --- The known vector ---------------------------------------------------------

def test_smoke_vector(tmp_path):
    """docs/cdc.md's vector: 200,000 required int64 from an LCG, min 64 KiB, max 256 KiB."""
    x = 0x243F6A8885A308D3
    vals = np.empty(200_000, np.uint64)
    for i in range(len(vals)):
        x = (6364136223846793005 * x + 1442695040888963407) & ((1 << 64) - 1)
        vals[i] = x
    table = pa.table({"a": pa.array(vals.view(np.int64))},
                     schema=pa.schema([pa.field("a", pa.int64(), nullable=False)]))
    expected = [17054, 17725, 12281, 14801, 17490, 15449, 19582, 14469, 22343, 16007, 10731, 20511, 1557]
    counts = assert_same_pages(table, tmp_path, options((64 * 1024, 256 * 1024, 0)), "smoke vector")
    assert counts == {(0, "a"): expected}


# --- Every leaf kind, flat ---------------------------------------------------

FLAT_VARIANTS = [
    # (name, nullable, null_prob, pattern)
    ("required", False, 0.0, "random"),
    ("nullable", True, 0.15, "random"),
    ("mostly_null", True, 0.9, "lowcard"),
    ("all_null", True, 1.0, "random"),
    ("nullable_runs", True, 0.3, "runs"),
]


def _kind_profiles(kind):
    """Profiles to run for a leaf kind: pure CDC plus one (all when deep) with limits."""
    if DEEP:
        return [name for name, _ in PROFILES]
    others = [name for name, _ in PROFILES if name != "pure"]
    return ["pure", others[LEAF_KINDS.index(kind) % len(others)]]


@pytest.mark.parametrize("kind", LEAF_KINDS)
def test_flat_kind(kind, tmp_path):
    seed = 1000 + LEAF_KINDS.index(kind)
    g = np.random.default_rng(seed)
    specs = [ColumnSpec(kind, (), nullable, p, pattern)
             for _, nullable, p, pattern in FLAT_VARIANTS if nullable or kind != "null"]
    n = 6000 if kind not in ("bool", "int8", "uint8") else 20000
    table = gen_table(specs, g, n)
    for profile in _kind_profiles(kind):
        for params in ([(256, 1024, 0), (1024, 4096, 1)] if not DEEP else CDC_PARAMS):
            opts = options(params, **PROFILE_BY_NAME[profile])
            context = f"kind={kind} seed={seed} profile={profile} cdc={params}"
            assert_same_pages(table, tmp_path, opts, context)
            # The same data as many write calls, over several row groups.
            chunked = split_chunks(table, np.random.default_rng(seed + 1), 9)
            assert_same_pages(chunked, tmp_path, dict(opts, row_group_size=2500),
                              context + " chunked(9) row_group_size=2500")


def test_empty_strings_only(tmp_path):
    """Empty strings feed 0 value bytes: only def levels (nullable) move the hash."""
    n = 30000
    g = np.random.default_rng(7)
    table = pa.table({
        "req": pa.array([""] * n, pa.string()),
        "opt": pa.array([None if x else "" for x in g.random(n) < 0.3], pa.string()),
        "bin": pa.array([b""] * n, pa.large_binary()),
        "view": pa.array([None if x else "" for x in g.random(n) < 0.5], pa.string_view()),
    }, schema=pa.schema([pa.field("req", pa.string(), False), pa.field("opt", pa.string()),
                         pa.field("bin", pa.large_binary(), False), pa.field("view", pa.string_view())]))
    for params in [(256, 1024, 0), (0, 64, 0), (100, 2000, 1)]:
        assert_same_pages(table, tmp_path, options(params), f"empty strings cdc={params}")


def test_all_null_and_null_type(tmp_path):
    n = 20000
    table = pa.table({"n": pa.nulls(n), "i": pa.nulls(n, pa.int64()), "s": pa.nulls(n, pa.string()),
                      "l": pa.nulls(n, pa.list_(pa.int32())),
                      "st": pa.nulls(n, pa.struct([("a", pa.int8())]))})
    for params in [(256, 1024, 0), (1024, 4096, 0)]:
        for profile in ["pure", "v2_index_limits", "v1_index_rows"]:
            assert_same_pages(split_chunks(table, np.random.default_rng(3), 5), tmp_path,
                              options(params, **PROFILE_BY_NAME[profile]),
                              f"all-null cdc={params} profile={profile}")


# --- Views: same bytes as string / binary -------------------------------------

@pytest.mark.parametrize("view,base", [("string_view", "string"), ("binary_view", "binary")])
def test_view_matches_plain_binary(view, base, tmp_path):
    """Quiver's view column pages equal pyarrow's pages of the same data as string /
    binary (docs/cdc.md: the same bytes are fed). pyarrow 26 itself accepts views with
    CDC for flat and list columns, so those are also compared with pyarrow's view pages."""
    g = np.random.default_rng(11)
    for nullable, p in [(False, 0.0), (True, 0.25)]:
        for max_len in [8, 40]:  # inline (<= 12 bytes) and out-of-line views
            arr = gen_leaf(base, g, 12000, p, "random", max_len)
            vtab = pa.Table.from_arrays([arr.cast(LEAF_TYPES[view])],
                                        schema=pa.schema([pa.field("v", LEAF_TYPES[view], nullable)]))
            btab = pa.Table.from_arrays([arr], schema=pa.schema([pa.field("v", arr.type, nullable)]))
            for profile in ["pure", "v1_limits_dict", "v2_index_limits"]:
                opts = options((256, 1024, 0), **PROFILE_BY_NAME[profile])
                ctx = f"{view} vs {base} nullable={nullable} max_len={max_len} profile={profile}"
                assert_same_pages(vtab, tmp_path, opts, ctx + " (pyarrow writes " + base + ")",
                                  pa_table=btab)
                assert_same_pages(vtab, tmp_path, opts, ctx + " (pyarrow writes the view)", pa_table=vtab)
            # Nested views.
            lst = pa.ListArray.from_arrays(pa.array(np.arange(0, 12001, 3), pa.int32()),
                                           arr.cast(LEAF_TYPES[view]))
            blst = pa.ListArray.from_arrays(pa.array(np.arange(0, 12001, 3), pa.int32()), arr)
            for pa_table in [pa.table({"l": blst}), pa.table({"l": lst})]:
                assert_same_pages(pa.table({"l": lst}), tmp_path, options((256, 1024, 0)),
                                  f"list<{view}> nullable={nullable} (pyarrow writes {pa_table.schema[0].type})",
                                  pa_table=pa_table)


# --- Nested columns ----------------------------------------------------------

NESTINGS = [
    ("list",), ("large_list",), ("fixed_size_list",), ("map",), ("struct",),
    ("list", "struct"), ("struct", "list"), ("map", "list"), ("large_list", "fixed_size_list"),
    ("fixed_size_list", "map"), ("list", "list"), ("struct", "struct"),
    ("list", "struct", "large_list"), ("map", "struct", "list"), ("fixed_size_list", "list", "map"),
    ("struct", "large_list", "struct"), ("list", "list", "list"),
]
NESTED_LEAVES = ["int32", "int8", "float64", "bool", "string", "large_binary", "fixed_size_binary5",
                 "decimal128", "dict_int16_string", "string_view", "null", "timestamp_s"]


def _nesting_id(nesting):
    return "-".join(nesting)


@pytest.mark.parametrize("nesting", NESTINGS, ids=_nesting_id)
def test_nested(nesting, tmp_path):
    seed = 2000 + NESTINGS.index(nesting)
    rng = random.Random(seed)
    g = np.random.default_rng(seed)
    leaves = NESTED_LEAVES if DEEP else rng.sample(NESTED_LEAVES, 4)
    specs = []
    for i, leaf in enumerate(leaves):
        nullable = leaf == "null" or i % 2 == 0
        layers = tuple(Layer(k, nullable or k == "struct" and i % 3 == 0, size=1 + i % 3,
                             key="string" if i % 2 else "int32") for k in nesting)
        specs.append(ColumnSpec(leaf, layers, nullable, 0.2 if nullable else 0.0,
                                rng.choice(PATTERNS), null_lists_own_values=i % 4 == 1))
    table = gen_table(specs, g, 3000)
    profiles = [name for name, _ in PROFILES] if DEEP else \
        ["pure", PROFILES[1 + NESTINGS.index(nesting) % (len(PROFILES) - 1)][0]]
    for profile in profiles:
        for params in ([(256, 1024, 0), (1024, 4096, -1)] if not DEEP else CDC_PARAMS):
            opts = options(params, **PROFILE_BY_NAME[profile])
            ctx = (f"nesting={nesting} seed={seed} profile={profile} cdc={params} "
                   f"columns={[s.name() for s in specs]}")
            assert_same_pages(table, tmp_path, opts, ctx)
            chunked = split_chunks(table, np.random.default_rng(seed + 1), 7)
            assert_same_pages(chunked, tmp_path, dict(opts, row_group_size=1100),
                              ctx + " chunked(7) row_group_size=1100")


# --- Write calls, row groups, page limits, codecs ---------------------------

def _mixed_specs():
    return [ColumnSpec("int64", (), False), ColumnSpec("string", (), True, 0.1),
            ColumnSpec("int16", (Layer("list", True),), True, 0.2),
            ColumnSpec("float32", (Layer("struct", True),), True, 0.2),
            ColumnSpec("dict_int8_string", (), True, 0.1, "lowcard"),
            ColumnSpec("binary", (Layer("map", True, key="string"), Layer("list", False)), True, 0.2)]


def _page_first_rows(table, tmp_path, opts):
    """First row of each of pyarrow's data pages of the first leaf (row group 0), from
    the offset index (pyarrow writes with write_page_index=True for this)."""
    path = tmp_path / "rows.parquet"
    pq.write_table(table, path, **dict(opts, write_page_index=True))
    chunk = parquet_pages.read_file(path).row_groups[0].columns[0]
    data = path.read_bytes()
    oi = parquet_pages.parse_offset_index(data, chunk.offset_index_offset, chunk.offset_index_length)
    return [loc.first_row_index for loc in oi["page_locations"]]


def test_split_at_chunk_boundaries(tmp_path):
    """Write calls that start exactly at a CDC cut: flat columns flush the previous tail
    as its own page; repeated columns drop a cut at their first level (docs/cdc.md)."""
    g = np.random.default_rng(21)
    for spec in [ColumnSpec("int64", (), False), ColumnSpec("int32", (), True, 0.2),
                 ColumnSpec("int32", (Layer("list", True),), True, 0.2),
                 ColumnSpec("string", (Layer("struct", True), Layer("large_list", False)), True, 0.1)]:
        table = gen_table([spec], g, 8000)
        opts = options((256, 1024, 0))
        starts = _page_first_rows(table, tmp_path, opts)
        assert len(starts) > 20
        cut_rows = [r for r in starts[1:] if 0 < r < table.num_rows][:12]
        for delta in (0, -1, 1):
            rows = sorted(set(min(max(1, r + delta), table.num_rows - 1) for r in cut_rows))
            bounds = [0] + rows + [table.num_rows]
            split = pa.concat_tables([table.slice(a, b - a) for a, b in zip(bounds, bounds[1:])])
            assert_same_pages(split, tmp_path, opts, f"split at page starts{delta:+d} {rows} spec={spec.name()}")


@pytest.mark.parametrize("pieces", [1, 2, 17, 200])
@pytest.mark.parametrize("row_group_size", [1 << 30, 4000, 777])
def test_write_calls_and_row_groups(pieces, row_group_size, tmp_path):
    seed = 3000 + pieces * 7 + row_group_size % 1000
    g = np.random.default_rng(seed)
    table = split_chunks(gen_table(_mixed_specs(), g, 9000), g, pieces)
    for params in [(256, 1024, 0), (4096, 16384, 1)]:
        assert_same_pages(table, tmp_path, options(params, row_group_size=row_group_size),
                          f"seed={seed} pieces={pieces} row_group_size={row_group_size} cdc={params}")


def test_state_continues_across_row_groups(tmp_path):
    """pyarrow 26 keeps each leaf column's chunker state across row groups (docs/cdc.md
    says Arrow C++ resets it; pyarrow is right): cutting a flat column into row groups
    only adds the row group boundaries to the pages of the single row group file."""
    g = np.random.default_rng(3400)
    table = gen_table([ColumnSpec("int64", (), False), ColumnSpec("string", (), True, 0.2)], g, 20000)
    opts = options((256, 1024, 0))
    single = assert_same_pages(table, tmp_path, opts, "one row group")
    multi = assert_same_pages(table, tmp_path, dict(opts, row_group_size=5000), "row groups of 5000")
    for col in ["c0", "c1"]:
        bounds = sorted(set(np.cumsum(single[(0, col)]).tolist()) | {5000, 10000, 15000})
        expected = np.diff([0] + bounds).tolist()
        assert [n for rg in range(4) for n in multi[(rg, col)]] == expected, col


def test_parquet_writer_several_write_table_calls(tmp_path):
    """pyarrow.parquet.ParquetWriter and quiver.ParquetWriter, several write_table calls:
    each call starts new row groups, and (pyarrow 26) every leaf column's chunker state
    continues across row groups and calls."""
    g = np.random.default_rng(3500)
    table = gen_table(_mixed_specs(), g, 6000)
    opts = options((256, 1024, 0), row_group_size=None)
    del opts["row_group_size"]
    parts = [table.slice(0, 1000), split_chunks(table.slice(1000, 3000), g, 5), table.slice(4000)]
    pa_path, q_path = tmp_path / "w_pyarrow.parquet", tmp_path / "w_quiver.parquet"
    with pq.ParquetWriter(pa_path, table.schema, **opts) as w:
        for part in parts:
            w.write_table(part, row_group_size=1500)
    with quiver.ParquetWriter(str(q_path), table.schema, row_group_size=1500, **opts) as w:
        for part in parts:
            w.write_table(part)
    expected, got = data_page_counts(pa_path), data_page_counts(q_path)
    assert len({k[0] for k in expected}) == 5
    assert got == expected


PAGE_LIMITS = [
    dict(),
    dict(data_page_size=1000),
    dict(max_rows_per_page=123),
    dict(data_page_size=3000, max_rows_per_page=400, write_batch_size=50),
    dict(write_batch_size=1),
    dict(data_page_size=64, write_batch_size=16),
]


@pytest.mark.parametrize("version", ["1.0", "2.0"])
@pytest.mark.parametrize("page_index", [False, True])
@pytest.mark.parametrize("dictionary", [False, True])
@pytest.mark.parametrize("limits", range(len(PAGE_LIMITS)))
def test_page_limits(version, page_index, dictionary, limits, tmp_path):
    seed = 4000 + limits
    g = np.random.default_rng(seed)
    table = split_chunks(gen_table(_mixed_specs(), g, 5000), g, 4)
    opts = options((1024, 4096, 0), data_page_version=version, write_page_index=page_index,
                   use_dictionary=dictionary, row_group_size=3000, **PAGE_LIMITS[limits])
    assert_same_pages(table, tmp_path, opts, f"seed={seed} limits={PAGE_LIMITS[limits]}")


@pytest.mark.parametrize("codec", CODECS)
def test_codecs(codec, tmp_path):
    g = np.random.default_rng(5000)
    table = split_chunks(gen_table(_mixed_specs(), g, 6000), g, 3)
    for profile in ["pure", "v2_index_limits"]:
        opts = options((256, 1024, 0), **dict(PROFILE_BY_NAME[profile], compression=codec))
        assert_same_pages(table, tmp_path, opts, f"codec={codec} profile={profile}")


def _changing_dictionary_table(value_type, seed=6000):
    """Five write calls of a dictionary column; calls 0, 1, 3, 4 have their own dictionary,
    call 2 reuses call 0's."""
    g = np.random.default_rng(seed)
    t = pa.dictionary(pa.int16(), value_type)
    parts, first = [], None
    for i in range(5):
        values = dictionary_values(t, g, 40) if i != 2 else first
        first = values if first is None else first
        idx = _int_values(g, np.int16, 3000, "random", 0, len(values) - 1)
        validity, nulls, _ = _validity(g, 3000, 0.1)
        indices = pa.Array.from_buffers(pa.int16(), 3000, [validity, pa.py_buffer(idx.tobytes())],
                                        null_count=nulls)
        parts.append(pa.table({"d": pa.DictionaryArray.from_arrays(indices, values)}))
    return pa.concat_tables(parts)


@pytest.mark.parametrize("value_type", [pa.string(), pa.int64()], ids=["string", "int64"])
def test_dictionary_changes_between_write_calls(value_type, tmp_path):
    """Dictionary arrays whose dictionary differs between write calls: dictionary encoding
    off (both sides write the values), or non-binary dictionary values (both hash them);
    binary-like values with the dictionary on: test_direct_dictionary_changes_*."""
    table = _changing_dictionary_table(value_type)
    for profile in ["pure", "v1_limits_dict", "v1_index_rows", "v2_index_limits"]:
        for dictionary in ([False, True] if value_type == pa.int64() else [False]):
            opts = options((256, 1024, 0), **dict(PROFILE_BY_NAME[profile], use_dictionary=dictionary))
            assert_same_pages(table, tmp_path, opts, f"dictionary changes profile={profile} dict={dictionary}")


def test_direct_dictionary_changes_between_write_calls(tmp_path):
    table = _changing_dictionary_table(pa.string())
    assert_same_pages(table, tmp_path, options((256, 1024, 0), use_dictionary=True),
                      "dictionary<string> changing between write calls")


def test_direct_dictionary_page_size_estimate(tmp_path):
    """1000-entry dictionary, 5 values used: pyarrow's estimate uses a 10-bit width."""
    g = np.random.default_rng(6100)
    dictionary = pa.array([f"value{i}" for i in range(1000)])
    arr = pa.DictionaryArray.from_arrays(pa.array(g.integers(0, 5, 20000).astype(np.int16)), dictionary)
    assert_same_pages(pa.table({"d": arr}), tmp_path,
                      options((1024, 4096, 0), use_dictionary=True, data_page_size=1000, write_batch_size=100),
                      "dictionary<string> with a large dictionary, data_page_size=1000")


def test_direct_dictionary_ignores_dictionary_limit(tmp_path):
    g = np.random.default_rng(6200)
    dictionary = pa.array([f"value{i}" for i in range(1000)])
    arr = pa.DictionaryArray.from_arrays(pa.array(g.integers(0, 1000, 20000).astype(np.int16)), dictionary)
    assert_same_pages(pa.table({"d": arr}), tmp_path,
                      options((256, 1024, 0), use_dictionary=True, dictionary_pagesize_limit=300,
                              write_batch_size=7),
                      "dictionary<string>, dictionary_pagesize_limit=300")


def test_direct_dictionary_nested(tmp_path):
    """Arrow dictionaries of strings / binary, flat and nested, written directly on both
    sides, with and without page limits in reach."""
    g = np.random.default_rng(6300)
    specs = [ColumnSpec("dict_int8_string", (), True, 0.2), ColumnSpec("dict_int16_string", (), False),
             ColumnSpec("dict_int64_binary", (Layer("list", True),), True, 0.1, "runs"),
             ColumnSpec("dict_int16_string", (Layer("struct", True), Layer("map", False)), True, 0.2)]
    table = split_chunks(gen_table(specs, g, 6000), g, 6)
    for profile in ["pure", "v1_index_rows", "v1_limits_dict", "v2_index_limits"]:
        opts = options((256, 1024, 0), **dict(PROFILE_BY_NAME[profile], use_dictionary=True))
        assert_same_pages(table, tmp_path, opts, f"direct dictionaries profile={profile}")


def _chunk_pages(path):
    """[(page type, encoding, num_values)] of the first column chunk."""
    return [(p.type, p.encoding, p.num_values)
            for p in parquet_pages.read_file(path).row_groups[0].columns[0].pages]


@pytest.mark.parametrize("value_type", [pa.string(), pa.large_string(), pa.binary(), pa.large_binary()],
                         ids=str)
def test_direct_dictionary_pages_equal_pyarrow(value_type, tmp_path):
    """The whole Arrow dictionary (used or not, in its order) is the dictionary page, the
    Arrow indices are the data page's: page bodies byte-identical to pyarrow's. Duplicate
    dictionary values make both fall back to PLAIN after a dictionary page of the distinct
    values; a dictionary with nulls is refused by pyarrow and hashed by Quiver."""
    values = pa.array([f"v{i}".encode() if value_type in (pa.binary(), pa.large_binary()) else f"v{i}"
                       for i in range(1000)], value_type)
    arr = pa.DictionaryArray.from_arrays(pa.array([5, 3, None, 900, 3], pa.int32()), values)
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    for table, expected in [
            (pa.table({"d": arr}), [("DICTIONARY_PAGE", "PLAIN", 1000), ("DATA_PAGE", "RLE_DICTIONARY", 5)]),
            (pa.table({"d": pa.DictionaryArray.from_arrays(pa.array([0, 1, 2, 3, 2], pa.int32()),
                                                           pa.array(["a", "b", "a", "c"], value_type))}),
             [("DICTIONARY_PAGE", "PLAIN", 3), ("DATA_PAGE", "PLAIN", 5)])]:
        quiver.write_parquet(table, str(q), compression="none")
        pq.write_table(table, p, compression="none")
        assert _chunk_pages(q) == _chunk_pages(p) == expected
        assert pq.read_table(q).column("d").to_pylist() == table.column("d").to_pylist()
        if expected[1][1] == "RLE_DICTIONARY":
            qd, pd = q.read_bytes(), p.read_bytes()
            qc, pc = (parquet_pages.read_structure(x).row_groups[0].columns[0] for x in (qd, pd))
            assert [parquet_pages.page_body(qd, x) for x in qc.pages] == \
                [parquet_pages.page_body(pd, x) for x in pc.pages]
    with_null = pa.table({"d": pa.DictionaryArray.from_arrays(pa.array([0, 2, 0], pa.int32()),
                                                              pa.array(["a", None, "c"], value_type))})
    with pytest.raises(pa.ArrowNotImplementedError):
        pq.write_table(with_null, p)
    quiver.write_parquet(with_null, str(q))
    text = value_type in (pa.string(), pa.large_string())
    assert pq.read_table(q).column("d").to_pylist() == (["a", "c", "a"] if text else [b"a", b"c", b"a"])


def test_direct_dictionary_checks_utf8_of_every_entry(tmp_path):
    """Every entry of the Arrow dictionary goes into the file, so every entry is validated."""
    values = pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(np.array([0, 1, 2], np.int32).tobytes()),
                                                    pa.py_buffer(b"a\xff")])
    table = pa.table({"d": pa.DictionaryArray.from_arrays(pa.array([0, 0], pa.int32()), values)})
    with pytest.raises(Exception, match="invalid UTF-8.*dictionary entry 1"):
        quiver.write_parquet(table, str(tmp_path / "q.parquet"))
    assert not (tmp_path / "q.parquet").exists()
    quiver.write_parquet(table, str(tmp_path / "q.parquet"), validate_utf8=False)


@pytest.mark.parametrize("compression", ["none", "zstd"])
@pytest.mark.parametrize("text", ["ascii", "utf8"])
def test_direct_dictionary_of_entries_that_differ_where_the_sampled_hash_does_not_read(
        tmp_path, compression, text):
    """The search for a repeated entry of an Arrow dictionary hashes a long entry's first,
    middle and last 16 bytes only. Entries that differ only elsewhere (all 6,000 with the
    same sampled hash) are still told apart: distinct, the dictionary is written as is;
    with a repeat, both writers fall back to PLAIN. Pages equal pyarrow's, built while
    checked (zstd: a page over 1 MiB) or not; ASCII and not; a bad entry is still found."""
    n = 6000
    head = "\u00e9" * 8 if text == "utf8" else "h" * 16

    def entry(i):  # 200 bytes: the number at [40, 48), outside [0,16), [92,108), [184,200)
        return (head + "x" * 24 + f"{i:08d}" + "y" * 152).encode()

    g = np.random.default_rng(8200)
    indices = pa.array(g.integers(0, n - 1, 5000).astype(np.int32))
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    for repeat in [None, 7]:
        values = [entry(i) for i in range(n - 1)] + [entry(repeat if repeat is not None else n - 1)]
        assert all(len(v) == 200 for v in values)
        table = pa.table({"d": pa.DictionaryArray.from_arrays(indices, pa.array(values, pa.string()))})
        quiver.write_parquet(table, str(q), compression=compression)
        pq.write_table(table, p, compression=compression)
        expected = ([("DICTIONARY_PAGE", "PLAIN", n), ("DATA_PAGE", "RLE_DICTIONARY", 5000)] if repeat is None
                    else [("DICTIONARY_PAGE", "PLAIN", n - 1), ("DATA_PAGE", "PLAIN", 5000)])
        assert _chunk_pages(q) == _chunk_pages(p) == expected
        qd, pd = q.read_bytes(), p.read_bytes()
        qc, pc = (parquet_pages.read_structure(x).row_groups[0].columns[0] for x in (qd, pd))
        qb, pb = ([parquet_pages.page_body(d, x) if compression == "none" else
                   pa.decompress(parquet_pages.page_body(d, x), decompressed_size=x.uncompressed_size,
                                 codec=compression, asbytes=True) for x in c.pages]
                  for d, c in ((qd, qc), (pd, pc)))
        # The dictionary page: every entry, or the distinct ones, PLAIN. (pyarrow's
        # fallback page is sized for the whole Arrow dictionary: the distinct entries,
        # then leftover bytes.)
        plain = b"".join(len(v).to_bytes(4, "little") + v for v in values[:n if repeat is None else n - 1])
        assert qb[0] == plain and pb[0][:len(plain)] == plain
        assert qb[1:] == pb[1:]
        assert pq.read_table(q).column("d").to_pylist() == table.column("d").to_pylist()
    bad = [entry(i) for i in range(n)]
    bad[4321] = bad[4321][:100] + b"\xff" + bad[4321][101:]
    values = pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(np.arange(0, 200 * n + 1, 200,
                                                                                 dtype=np.int32).tobytes()),
                                                    pa.py_buffer(b"".join(bad))])
    table = pa.table({"d": pa.DictionaryArray.from_arrays(indices, values)})
    q.unlink()
    with pytest.raises(Exception, match="invalid UTF-8.*dictionary entry 4321"):
        quiver.write_parquet(table, str(q), compression=compression)
    assert not q.exists()


@pytest.mark.parametrize("profile", ["pure", "v1_limits_dict", "v1_batch7", "v2_index_limits"])
def test_columns_across_hashing_windows(profile, tmp_path):
    """Each write call is hashed and written ~256 KiB of hashed bytes at a time (the
    writer's hashing windows, column_writer.cc WriteChunked): calls many windows long,
    cut at many places, with page limits and odd batch sizes, cut pages as pyarrow, for
    required, nullable, struct-child and list columns."""
    g = np.random.default_rng(7100)
    n = 400_000
    lens = g.integers(0, 12, n)
    data = g.integers(97, 123, int(lens.sum()), dtype=np.uint8).tobytes()
    offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    strings = pa.StringArray.from_buffers(n, pa.py_buffer(offsets.tobytes()), pa.py_buffer(data))
    ints = pa.array(g.integers(-2**62, 2**62, n), pa.int64())
    bools = pa.array(g.random(n) < 0.5)
    nullable = pa.array(g.integers(-2**62, 2**62, n), pa.int64(), mask=g.random(n) < 0.25)
    lengths = g.integers(0, 5, n)
    list_offsets = pa.array(np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32))
    m = int(lengths.sum())
    lists = pa.ListArray.from_arrays(list_offsets, pa.array(g.integers(-2**31, 2**31, m).astype(np.int32),
                                                            mask=g.random(m) < 0.25),
                                     mask=pa.array(g.random(n) < 0.1))
    text_lists = pa.ListArray.from_arrays(list_offsets, pa.array([f"t{x}" for x in g.integers(0, 50, m)]))
    struct = pa.StructArray.from_arrays([nullable, strings], names=["x", "y"], mask=pa.array(g.random(n) < 0.2))
    schema = pa.schema([pa.field("s", pa.string(), False), pa.field("i", pa.int64(), False),
                        pa.field("b", pa.bool_(), False), pa.field("n", pa.int64()),
                        pa.field("l", lists.type), pa.field("t", text_lists.type),
                        pa.field("st", struct.type)])
    table = pa.Table.from_arrays([strings, ints, bools, nullable, lists, text_lists, struct], schema=schema)
    table = split_chunks(table, g, 3)
    for params in [(256, 1024, 0), (4096, 16384, 1), (64 * 1024, 256 * 1024, 0)]:
        opts = options(params, **PROFILE_BY_NAME[profile])
        counts = assert_same_pages(table, tmp_path, opts, f"windows profile={profile} cdc={params}")
        assert max(len(v) for v in counts.values()) > 8


def test_default_sizes(tmp_path):
    """use_content_defined_chunking=True means 256 KiB / 1 MiB / norm 0."""
    g = np.random.default_rng(8000)
    table = gen_table([ColumnSpec("int64", (), False), ColumnSpec("string", (), True, 0.1, max_len=40)], g,
                      400_000)
    base = options(data_page_size=1 << 30)
    expected = assert_same_pages(table, tmp_path, dict(base, use_content_defined_chunking=True),
                                 "use_content_defined_chunking=True")
    assert all(len(v) > 2 for v in expected.values()), expected
    explicit = assert_same_pages(table, tmp_path,
                                 dict(base, use_content_defined_chunking=cdc(256 * 1024, 1024 * 1024, 0)),
                                 "explicit defaults")
    assert explicit == expected
    no_norm = assert_same_pages(
        table, tmp_path,
        dict(base, use_content_defined_chunking={"min_chunk_size": 256 * 1024, "max_chunk_size": 1024 * 1024}),
        "defaults without norm_level")
    assert no_norm == expected


def test_default_writer_options(tmp_path):
    """Only the CDC option given: every other default must agree with pyarrow's too."""
    g = np.random.default_rng(8100)
    table = gen_table(_mixed_specs(), g, 30000)
    for cdc_opt in [cdc(256, 1024, 0), cdc(4096, 16384, 0)]:
        assert_same_pages(table, tmp_path, {"use_content_defined_chunking": cdc_opt}, f"defaults cdc={cdc_opt}")


# --- Randomised tables and edits ---------------------------------------------

def _random_case(seed):
    rng = random.Random(seed)
    params = rng.choice(CDC_PARAMS)
    n_cols = rng.randint(1, 4)
    specs = []
    for _ in range(n_cols):
        depth = rng.choice([0, 0, 0, 1, 1, 2, 3])
        leaf = rng.choice(LEAF_KINDS)
        nullable = leaf == "null" or rng.random() < 0.6
        specs.append(ColumnSpec(leaf, random_layers(rng, depth), nullable,
                                rng.choice([0.05, 0.2, 0.6]) if nullable else 0.0,
                                rng.choice(PATTERNS), rng.choice([4, 16, 60]),
                                null_lists_own_values=rng.random() < 0.2))
    opts = options(params)
    profile = rng.choice([name for name, _ in PROFILES])
    opts.update(PROFILE_BY_NAME[profile])
    opts["compression"] = rng.choice(CODECS)
    if rng.random() < 0.5:
        opts["row_group_size"] = rng.choice([500, 2000, 5000])
    rows = rng.choice([800, 3000, 6000]) if max(len(s.layers) for s in specs) < 2 else rng.choice([500, 1500])
    pieces = rng.choice([1, 1, 3, 10, 40])
    return rng, specs, opts, profile, rows, pieces


def _edit(table, rng, g, specs, dictionaries, kind):
    n = table.num_rows
    k = rng.randint(1, max(1, n // 20))
    new = gen_table(specs, g, k, dictionaries)
    p = rng.randint(0, n)
    if kind == "insert":
        parts = [table.slice(0, p), new, table.slice(p)]
    elif kind == "delete":
        parts = [table.slice(0, p), table.slice(min(n, p + k))]
    elif kind == "update":
        parts = [table.slice(0, p), new, table.slice(min(n, p + k))]
    elif kind == "append":
        parts = [table, new]
    else:
        parts = [new, table]
    return pa.concat_tables([t for t in parts if t.num_rows > 0] or [table.slice(0, 0)])


EDITS = ["insert", "delete", "update", "append", "prepend"]
RANDOM_SEEDS = list(range(1, 401 if DEEP else 31))
if os.environ.get("QUIVER_CDC_SEED"):
    RANDOM_SEEDS = [int(os.environ["QUIVER_CDC_SEED"])]


@pytest.mark.parametrize("seed", RANDOM_SEEDS)
def test_random_tables_and_edits(seed, tmp_path):
    rng, specs, opts, profile, rows, pieces = _random_case(seed)
    g = np.random.default_rng(seed)
    # One dictionary per dictionary column, shared by the edits (so the edited table
    # keeps a single dictionary unless the seed asks for a new one).
    dictionaries = [dictionary_values(LEAF_TYPES[s.leaf], g) if pa.types.is_dictionary(LEAF_TYPES[s.leaf])
                    else None for s in specs]
    base = split_chunks(gen_table(specs, g, rows, dictionaries), g, pieces)
    ctx = (f"seed={seed} (QUIVER_CDC_SEED={seed}) profile={profile} rows={rows} pieces={pieces} "
           f"columns={[s.name() for s in specs]} patterns={[s.pattern for s in specs]}")
    assert_same_pages(base, tmp_path, opts, ctx + " base")
    for kind in (EDITS if DEEP else rng.sample(EDITS, 2)):
        edited = _edit(base, rng, g, specs, dictionaries, kind)
        if rng.random() < 0.3:
            edited = edited.combine_chunks()
        assert_same_pages(edited, tmp_path, opts, ctx + f" edit={kind}")


# --- Option validation -------------------------------------------------------

def _raises(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the test classifies it
        return e
    return None


VALIDATION_CASES = [
    (-1, 10, 0), (0, 0, 0), (10, 10, 0), (11, 10, 0), (0, 1, 0), (0, 15, 0), (0, 16, 0), (0, 31, 0),
    (0, 32, 0), (0, 64, 0), (0, 64, 1), (0, 64, -1), (256, 1024, 5), (256, 1024, 4), (256, 1024, -58),
    (256, 1024, -59), (0, 1 << 62, -4), (0, 1 << 62, -3), (0, 1 << 40, 36), (0, 1 << 40, 35),
    (1 << 20, (1 << 20) + 16, 0), (1 << 20, (1 << 20) + 15, 0), (262144, 1048576, 0), (262144, 1048576, 3),
    (262144, 1048576, 14), (262144, 1048576, 15), (262144, 1048576, -48), (262144, 1048576, -49),
]


@pytest.mark.parametrize("min_size,max_size,norm", VALIDATION_CASES)
def test_option_validation_matches_pyarrow(min_size, max_size, norm, tmp_path):
    table = pa.table({"a": pa.array(np.arange(100))})
    opt = cdc(min_size, max_size, norm)
    pa_err = _raises(lambda: pq.write_table(table, tmp_path / "p.parquet", use_content_defined_chunking=opt))
    q_err = _raises(lambda: quiver.write_parquet(table, str(tmp_path / "q.parquet"),
                                                 use_content_defined_chunking=opt))
    assert (pa_err is None) == (q_err is None), f"{opt}: pyarrow {pa_err!r}, quiver {q_err!r}"
    if q_err is not None:
        assert isinstance(q_err, quiver.InvalidError), repr(q_err)
        assert "chunk" in str(q_err) or "mask" in str(q_err), str(q_err)
        assert not (tmp_path / "q.parquet").exists()


@pytest.mark.parametrize("opt", [{"min_chunk_size": 1024}, {"max_chunk_size": 4096}, {},
                                 {"norm_level": 1}, {"min_chunk_size": 1024, "norm_level": 0}])
def test_dict_requires_both_sizes(opt, tmp_path):
    table = pa.table({"a": [1, 2, 3]})
    with pytest.raises(ValueError):  # pyarrow: "Missing options in 'use_content_defined_chunking'"
        pq.write_table(table, tmp_path / "p.parquet", use_content_defined_chunking=opt)
    with pytest.raises(quiver.InvalidError, match="min_chunk_size.*max_chunk_size"):
        quiver.write_parquet(table, str(tmp_path / "q.parquet"), use_content_defined_chunking=opt)


def test_option_types(tmp_path):
    table = pa.table({"a": [1, 2, 3]})
    with pytest.raises(quiver.InvalidError, match="unknown key 'foo'"):
        quiver.write_parquet(table, str(tmp_path / "q.parquet"),
                             use_content_defined_chunking=dict(cdc(256, 1024), foo=1))
    with pytest.raises(ValueError):
        pq.write_table(table, tmp_path / "p.parquet", use_content_defined_chunking=dict(cdc(256, 1024), foo=1))
    with pytest.raises(quiver.InvalidError):
        quiver.write_parquet(table, str(tmp_path / "q.parquet"), use_content_defined_chunking="yes")
    # False means off: the same pages as without the option.
    quiver.write_parquet(table, str(tmp_path / "off.parquet"), use_content_defined_chunking=False)
    assert data_page_counts(tmp_path / "off.parquet") == {(0, "a"): [3]}
