#!/usr/bin/env python3
"""Parquet writer matrix: Quiver vs pyarrow, docs/benchmarks.md section 1.

Mirrors arrow-rs `parquet/benches/arrow_writer.rs`: one batch of 1,048,576
rows per data group, one row group, and the variants default / parquet_2 /
zstd / zstd_parquet_2 (bloom_filter and cdc are probed and printed as
"n/a (not implemented)" while Quiver refuses them). Both writers get the same
pyarrow table and the same options (benchmarks.md section 1); pyarrow runs
single-threaded.

Rules of measurement (benchmarks.md):
  - every figure is a ratio Quiver/pyarrow measured in the same run;
  - the arms are interleaved (pyarrow, Quiver, control, rotated every
    repetition so each arm takes each position equally often) and the median
    of N repetitions is reported, with the per-repetition ratio range;
  - a control arm (pyarrow timed a second time as its own arm) gives the
    spread printed beside every result: a Quiver/pyarrow ratio inside the
    control's range is noise;
  - the allocator is pinned: the script re-executes itself with
    LD_PRELOAD=libjemalloc.so.2 and MALLOC_CONF=dirty_decay_ms:-1,
    muzzy_decay_ms:-1, so jemalloc is the process allocator and Quiver's pool;
    before timing it asserts through mallctl that opt.dirty_decay_ms and
    opt.muzzy_decay_ms read -1 and that Quiver's pool is jemalloc; any other
    MALLOC_CONF in the environment is refused (exit status 2). pyarrow is
    switched to its own (bundled) jemalloc pool with decay -1
    (pa.jemalloc_set_decay_ms). --unpinned measures the allocators a plain
    `python` gets instead (glibc malloc, Quiver's mimalloc pool, pyarrow's
    default pool), for comparison only: Quiver's times depend on the
    allocator much more than pyarrow's;
  - each group runs in its own child process (--in-process to turn off):
    with decay off, pyarrow's writes of nested data keep adding resident
    pages in the process allocator, and one process running the whole
    matrix was killed by the OOM killer at 23 GB.

Sinks (--sinks):
  mem   pyarrow pa.BufferOutputStream()  vs  Quiver's file-object path (it
        buffers in memory and calls .write(bytes) once at the end; the object
        here discards). Both keep the whole file in memory.
  file  both write a file in /dev/shm (a tmpfs), unlinked before every call.
  mock  pyarrow pa.MockOutputStream() (counts bytes, keeps nothing: the
        discarding sink of benchmarks.md) vs the same discarding Quiver file
        object (which still buffers the file and copies it into a bytes
        object): not like-for-like, it charges Quiver for that copy; Quiver's
        Python API has no discarding sink.

Timed: the whole pq.write_table / quiver.write_parquet call (writer set-up,
Quiver's zero-copy C Data Interface import, write, close with footer).
Data are built once per group, outside the timing.

Before timing, each (group, variant) passes a correctness gate: pyarrow reads
Quiver's file back and it must equal pyarrow's read of its own file (and the
input is compared too, reported). A failure is printed and that cell is not
timed.

Run with the repository's .venv python and PYTHONPATH=<build>/python
(bench/run_writer.sh does both).
"""

import argparse
import ast
import ctypes
import gc
import json
import os
import statistics
import sys
import time

MALLOC_PIN = "dirty_decay_ms:-1,muzzy_decay_ms:-1"


def refuse(why):
    print(f"writer_bench: refusing to run: {why}\n"
          f"  MALLOC_CONF in the environment: {os.environ.get('MALLOC_CONF', '(unset)')}\n"
          f"  Quiver's jemalloc must run with {MALLOC_PIN} (docs/benchmarks.md, Rules of "
          "measurement); unset MALLOC_CONF and run again.", file=sys.stderr)
    sys.exit(2)


# Debian's libjemalloc.so.2 cannot be dlopen'ed into a running Python
# ("cannot allocate memory in static TLS block"), so Quiver's jemalloc pool is
# only available when jemalloc is the process allocator: the script re-executes
# itself once with LD_PRELOAD=libjemalloc.so.2 and MALLOC_CONF set to the pin
# (jemalloc reads MALLOC_CONF at its first allocation, at interpreter start-up;
# a C extension cannot compile malloc_conf in). A MALLOC_CONF already in the
# environment that differs from the pin is refused, not replaced, and
# pin_allocators() reads the result back through mallctl before any timing.
JEMALLOC_SONAME = "libjemalloc.so.2"


def ensure_pinned_process():
    """Re-executes this script under jemalloc with the decay pin (once)."""
    if os.environ.get("QUIVER_WRITER_BENCH_CHILD") == "1":
        return
    if os.environ.get("MALLOC_CONF", MALLOC_PIN) != MALLOC_PIN:
        refuse("MALLOC_CONF overrides the pinned decay settings")
    env = dict(os.environ, MALLOC_CONF=MALLOC_PIN, QUIVER_WRITER_BENCH_CHILD="1")
    # numpy's OpenBLAS threads spin after numpy calls (seen in perf profiles
    # of this script); on a 2-core machine they steal time from the arms.
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    preload = env.get("LD_PRELOAD", "")
    if JEMALLOC_SONAME not in preload.split():
        env["LD_PRELOAD"] = (JEMALLOC_SONAME + " " + preload).strip()
    sys.stdout.flush()
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import quiver  # noqa: E402

FULL_ROWS = 1 << 20
QUICK_ROWS = 1 << 15
SHM_DIR = "/dev/shm/quiver-writer-bench"

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

# name -> (option changes, needs per-column dict). bloom_filter is filled per
# table (every leaf column, ndv = rows, fpp 0.05).
VARIANTS = {
    "default": {},
    "bloom_filter": {"bloom_filter_options": "EVERY_LEAF"},  # non-BOOLEAN leaves
    "parquet_2": {"data_page_version": "2.0"},
    "zstd": {"compression": "zstd", "compression_level": 1},
    "zstd_parquet_2": {"compression": "zstd", "compression_level": 1, "data_page_version": "2.0"},
    "cdc": {"use_content_defined_chunking": CDC_DEFAULTS},
}
# Not part of the matrix (nor of its golden hashes): the peer benchmark's
# TPC-H cases (bench/peers/PROTOCOL.md). variant_options takes both.
EXTRA_VARIANTS = {
    "snappy": {"compression": "snappy"},
    "cdc_zstd": {"use_content_defined_chunking": CDC_DEFAULTS, "compression": "zstd",
                 "compression_level": 1},
    "cdc_snappy": {"use_content_defined_chunking": CDC_DEFAULTS, "compression": "snappy"},
}
ALL_VARIANTS = {**VARIANTS, **EXTRA_VARIANTS}

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
    """The options of a variant (writer_bench.ALL_VARIANTS), or of a layout
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
# Sinks and the timed calls.

class DiscardingFile:
    """A file object whose write() discards (Quiver's file-object path)."""

    def write(self, data):
        return len(data)


def make_calls(sink, table, opts, path_q, path_p, quiver_extra=None):
    """(pyarrow call, quiver call, pre-call hook) for one sink kind."""
    qopts = dict(opts, **(quiver_extra or {}))
    if sink == "mem":
        def run_p():
            pq.write_table(table, pa.BufferOutputStream(), **opts)

        def run_q():
            quiver.write_parquet(table, DiscardingFile(), **qopts)
        return run_p, run_q, None
    if sink == "mock":
        def run_p():
            pq.write_table(table, pa.MockOutputStream(), **opts)

        def run_q():
            quiver.write_parquet(table, DiscardingFile(), **qopts)
        return run_p, run_q, None
    if sink == "file":
        def run_p():
            pq.write_table(table, path_p, **opts)

        def run_q():
            quiver.write_parquet(table, path_q, **qopts)

        def unlink():
            for p in (path_p, path_q):
                try:
                    os.unlink(p)
                except FileNotFoundError:
                    pass
        return run_p, run_q, unlink
    raise ValueError(f"unknown sink {sink!r}")


def timed(fn):
    w0, c0 = time.perf_counter_ns(), time.process_time_ns()
    fn()
    c1, w1 = time.process_time_ns(), time.perf_counter_ns()
    return (w1 - w0) / 1e9, (c1 - c0) / 1e9


WARMUPS = 3


def measure(run_p, run_q, before, reps):
    """Interleaved repetitions of pyarrow (P), Quiver (Q), control (C = P again)."""
    arms = {"P": run_p, "Q": run_q, "C": run_p}
    order = ["P", "Q", "C"]
    wall = {a: [] for a in arms}
    cpu = {a: [] for a in arms}
    # Untimed warm-ups of each arm: memory pools take a few runs to settle
    # (pyarrow's first three writes of the string group's 326 MB file took
    # 1.7, 0.75 and 0.48 s, then 0.33 s; one warm-up overstated Quiver's lead).
    for _ in range(WARMUPS):
        for a in order[:2]:
            if before:
                before()
            arms[a]()
    for r in range(reps):
        rot = order[r % 3:] + order[:r % 3]
        for a in rot:
            if before:
                before()
            gc.collect()
            gc.disable()
            try:
                w, c = timed(arms[a])
            finally:
                gc.enable()
            wall[a].append(w)
            cpu[a].append(c)
    if before:
        before()
    return wall, cpu


def summarize(times):
    med = {a: statistics.median(t) for a, t in times.items()}
    q_pairs = [q / p for q, p in zip(times["Q"], times["P"])]
    c_pairs = [c / p for c, p in zip(times["C"], times["P"])]
    return {
        "median_s": med,
        "ratio": med["Q"] / med["P"],
        "ratio_pairs": [min(q_pairs), max(q_pairs)],
        "control": med["C"] / med["P"],
        "control_pairs": [min(c_pairs), max(c_pairs)],
    }


# ---------------------------------------------------------------------------
# Correctness gate.

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


def gate(table, opts, path_q, path_p, quiver_extra=None):
    """(status, message): status is 'ok', 'n/a' (not implemented) or 'FAIL'."""
    try:
        quiver.write_parquet(table, path_q, **dict(opts, **(quiver_extra or {})))
    except quiver.NotImplementedError as e:
        return "n/a", f"not implemented: {e}"
    except Exception as e:  # noqa: BLE001 - reported, not hidden
        return "FAIL", f"Quiver raised {type(e).__name__}: {e}"
    try:
        got = pq.read_table(path_q)
    except Exception as e:  # noqa: BLE001
        return "FAIL", f"pyarrow cannot read Quiver's file: {type(e).__name__}: {e}"
    pq.write_table(table, path_p, **opts)
    want = pq.read_table(path_p)
    diff = first_difference(got, want)
    note = ""
    if diff is None:
        vs_input = first_difference(got, table)
        note = "equal to pyarrow's read-back and to the input" if vs_input is None else \
            f"equal to pyarrow's read-back (input differs: {vs_input})"
    if diff is not None:
        return "FAIL", "read-back of Quiver's file != read-back of pyarrow's file: " + diff
    size_q, size_p = os.path.getsize(path_q), os.path.getsize(path_p)
    return "ok", f"{note}; file sizes Quiver {size_q:,} B, pyarrow {size_p:,} B"


def probe_variant(variant):
    """None if Quiver accepts the variant, else the NotImplemented message."""
    tiny = pa.table({"x": pa.array([1, 2, 3], pa.int32())})
    try:
        quiver.write_parquet(tiny, DiscardingFile(), **variant_options(variant, tiny))
    except quiver.NotImplementedError as e:
        return str(e)
    return None


# ---------------------------------------------------------------------------
# Allocators.

def read_decay(mallctl, who):
    """{opt.dirty_decay_ms, opt.muzzy_decay_ms} through `mallctl`; exit 2 unless both -1."""
    values = {}
    for name in ("opt.dirty_decay_ms", "opt.muzzy_decay_ms"):
        v = ctypes.c_ssize_t(0)
        size = ctypes.c_size_t(ctypes.sizeof(v))
        rc = mallctl(name.encode(), ctypes.byref(v), ctypes.byref(size), None, 0)
        if rc != 0:
            refuse(f"{who}: mallctl({name}) failed with {rc}")
        values[name] = v.value
    if any(v != -1 for v in values.values()):
        refuse(f"{who} reads {values} (both must be -1)")
    return values


def pin_allocators():
    """Returns a line describing the pin; refuses (exit 2) if it does not hold."""
    # Quiver: its default pool must be jemalloc, and jemalloc's decay off.
    quiver.write_parquet(pa.table({"x": [1]}), DiscardingFile())  # first allocation
    backend = quiver.memory_pool_backend()
    if backend != "jemalloc":
        refuse(f"Quiver's memory pool is {backend!r}, not jemalloc "
               f"(QUIVER_MEMORY_POOL={os.environ.get('QUIVER_MEMORY_POOL', '(unset)')})")
    je = ctypes.CDLL(None)  # the process's symbols: jemalloc is the process allocator
    if not hasattr(je, "mallctl"):
        refuse("mallctl is not in the process: jemalloc is not the process allocator "
               f"(LD_PRELOAD={os.environ.get('LD_PRELOAD', '(unset)')})")
    mallctl = je.mallctl
    mallctl.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t),
                        ctypes.c_void_p, ctypes.c_size_t]
    values = read_decay(mallctl, "Quiver's jemalloc")
    # pyarrow: its jemalloc pool, decay off, single thread.
    pool = pa.jemalloc_memory_pool()
    pa.set_memory_pool(pool)
    pa.jemalloc_set_decay_ms(-1)
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    return (f"Quiver pool {backend} ({values}); pyarrow {pa.__version__} pool "
            f"{pa.default_memory_pool().backend_name} (decay -1), cpu_count "
            f"{pa.cpu_count()}, io_thread_count {pa.io_thread_count()}")


# ---------------------------------------------------------------------------

def peak_rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run_children(args, groups, pin):
    """Runs each group in a child process (same arguments, one group each),
    then merges their JSON reports; the exit status is the worst child's."""
    import subprocess
    import tempfile
    t_start = time.perf_counter()
    results = []
    worst = 0
    with tempfile.TemporaryDirectory(prefix="writer-bench-") as tmp:
        for g in groups:
            out = os.path.join(tmp, g + ".json")
            argv = [sys.executable, os.path.abspath(__file__)] + strip_groups_json(sys.argv[1:])
            argv += ["--groups", g, "--json", out, "--child"]
            rc = subprocess.call(argv)
            if rc != 0:
                print(f"writer_bench: group {g}: child exited with status {rc}"
                      + (" (killed: out of memory?)" if rc < 0 else ""), file=sys.stderr)
                worst = worst or rc
                results.append({"group": g, "variant": "*", "status": "error",
                                "message": f"child exited with status {rc}"})
            if os.path.exists(out):
                with open(out) as f:
                    results += json.load(f)["results"]
    print(f"\nwriter_bench: done in {time.perf_counter() - t_start:.0f} s")
    if args.json:
        rows = args.rows or (QUICK_ROWS if args.quick else FULL_ROWS)
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "reps": args.reps, "pin": pin, "options": BASE_OPTIONS,
                       "results": results}, f, indent=1)
        print(f"writer_bench: raw timings in {args.json}")
    if worst != 0:
        sys.exit(1)


def strip_groups_json(argv):
    """argv without --groups/--json (and their values)."""
    out = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("--groups", "--json"):
            skip = True
            continue
        if a.startswith("--groups=") or a.startswith("--json="):
            continue
        out.append(a)
    return out


def fmt_ms(s):
    return f"{s * 1e3:9.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--groups", default="all",
                    help="comma-separated data groups (default all): " + ", ".join(GROUPS))
    ap.add_argument("--variants", default="default,bloom_filter,parquet_2,zstd,zstd_parquet_2,cdc",
                    help="comma-separated variants: " + ", ".join(VARIANTS))
    ap.add_argument("--sinks", default="mem,file", help="comma-separated: mem, file, mock")
    ap.add_argument("--reps", type=int, default=5, help="repetitions per arm (default 5)")
    ap.add_argument("--quick", action="store_true",
                    help=f"smoke test: {QUICK_ROWS} rows instead of {FULL_ROWS}")
    ap.add_argument("--rows", type=int, default=None, help="override the row count")
    ap.add_argument("--no-gate", action="store_true", help="skip the correctness gate")
    ap.add_argument("--quiver-option", action="append", default=[], metavar="KEY=VALUE",
                    help="extra option for Quiver only (a Python literal), for what-if runs, "
                         "e.g. validate_utf8=False; printed in the header")
    ap.add_argument("--unpinned", action="store_true",
                    help="measure the allocators as a user gets them (plain python: glibc "
                         "malloc, Quiver's default pool, pyarrow's default pool); no pin, no "
                         "refusal. For comparison only: docs/benchmarks.md requires the pin")
    ap.add_argument("--in-process", action="store_true",
                    help="run all groups in this process (default: one child process per "
                         "group, so no group inherits another's allocator state; with decay "
                         "off, a single process running the whole matrix grew past 20 GiB)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", metavar="OUT", help="write all raw timings to this JSON file")
    args = ap.parse_args()

    groups = GROUPS if args.groups == "all" else args.groups.split(",")
    variants = args.variants.split(",")
    sinks = args.sinks.split(",")
    for g in groups:
        if g not in GROUPS:
            ap.error(f"unknown group {g!r}")
    for v in variants:
        if v not in VARIANTS:
            ap.error(f"unknown variant {v!r}")
    for s in sinks:
        if s not in ("mem", "file", "mock"):
            ap.error(f"unknown sink {s!r}")
    rows = args.rows or (QUICK_ROWS if args.quick else FULL_ROWS)
    quiver_extra = {}
    for item in args.quiver_option:
        key, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--quiver-option {item!r}: expected KEY=VALUE")
        try:
            quiver_extra[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            quiver_extra[key] = value

    if args.unpinned:
        pa.set_cpu_count(1)
        pa.set_io_thread_count(1)
        pin = (f"UNPINNED allocators (as a user gets them): Quiver pool "
               f"{quiver.memory_pool_backend()}, pyarrow pool "
               f"{pa.default_memory_pool().backend_name}, process malloc as started "
               f"(LD_PRELOAD={os.environ.get('LD_PRELOAD', '(unset)')}); pyarrow cpu_count "
               f"{pa.cpu_count()}")
    else:
        ensure_pinned_process()
        pin = pin_allocators()
    say = (lambda *a, **k: None) if args.child else print
    say(f"writer_bench: {rows:,} rows, {args.reps} interleaved repetitions per arm; {pin}")
    say(f"  timed call: pq.write_table(table, sink, **opts) vs quiver.write_parquet(table, "
          f"sink, **opts); base opts {BASE_OPTIONS}")
    if quiver_extra:
        say(f"  extra options for Quiver only (what-if run): {quiver_extra}")
    say("  ratio = median(Quiver) / median(pyarrow), wall clock [per-repetition min..max]; "
          "cpu = the same with process CPU time;")
    say("  control = median(pyarrow 2nd arm) / median(pyarrow) [per-repetition min..max]: "
          "the noise band for the ratio beside it.")
    unavailable = {}
    for v in variants:
        why = probe_variant(v)
        if why is not None:
            unavailable[v] = why
            say(f"  variant {v}: n/a (not implemented): {why}")
    os.makedirs(SHM_DIR, exist_ok=True)
    path_q = os.path.join(SHM_DIR, f"quiver-{os.getpid()}.parquet")
    path_p = os.path.join(SHM_DIR, f"pyarrow-{os.getpid()}.parquet")

    if not args.in_process and not args.child and len(groups) > 1:
        return run_children(args, groups, pin)

    results = []
    gate_failures = []
    header = (f"{'group':38s} {'variant':15s} {'sink':4s} {'pyarrow ms':>10s} {'quiver ms':>10s} "
              f"{'ratio':>6s} {'[min..max]':>13s} {'cpu':>5s} {'control':>8s} {'[min..max]':>13s} "
              f"{'Q MB/s':>7s}")
    t_start = time.perf_counter()
    for g in groups:
        t0 = time.perf_counter()
        table = build_group(g, rows)
        mb = table.nbytes / 1e6
        print(f"\n== {g}: {table.num_rows:,} rows, {table.num_columns} columns, "
              f"{mb:,.1f} MB in memory (built in {time.perf_counter() - t0:.1f} s); "
              f"schema: {', '.join(f'{f.name}: {f.type}' for f in table.schema)}", flush=True)
        print(header)
        for v in variants:
            if v in unavailable:
                print(f"{g:38s} {v:15s} n/a (not implemented)")
                results.append({"group": g, "variant": v, "status": "n/a",
                                "message": unavailable[v]})
                continue
            opts = variant_options(v, table)
            if not args.no_gate:
                status, message = gate(table, opts, path_q, path_p, quiver_extra)
                for p in (path_q, path_p):
                    if os.path.exists(p):
                        os.unlink(p)
                if status != "ok":
                    print(f"{g:38s} {v:15s} gate {status}: {message}")
                    results.append({"group": g, "variant": v, "status": status,
                                    "message": message})
                    if status == "FAIL":
                        gate_failures.append(f"{g}/{v}: {message}")
                    continue
                print(f"{'':38s} {v:15s} gate ok: {message}")
            for s in sinks:
                run_p, run_q, before = make_calls(s, table, opts, path_q, path_p, quiver_extra)
                try:
                    wall, cpu = measure(run_p, run_q, before, args.reps)
                except Exception as e:  # noqa: BLE001 - reported, not hidden
                    print(f"{g:38s} {v:15s} {s:4s} ERROR {type(e).__name__}: {e}")
                    results.append({"group": g, "variant": v, "sink": s, "status": "error",
                                    "message": str(e)})
                    continue
                sw, sc = summarize(wall), summarize(cpu)
                print(f"{g:38s} {v:15s} {s:4s} {fmt_ms(sw['median_s']['P']):>10s} "
                      f"{fmt_ms(sw['median_s']['Q']):>10s} {sw['ratio']:6.2f} "
                      f"[{sw['ratio_pairs'][0]:5.2f}..{sw['ratio_pairs'][1]:5.2f}] "
                      f"{sc['ratio']:5.2f} {sw['control']:8.2f} "
                      f"[{sw['control_pairs'][0]:5.2f}..{sw['control_pairs'][1]:5.2f}] "
                      f"{mb / sw['median_s']['Q']:7.0f}", flush=True)
                results.append({"group": g, "variant": v, "sink": s, "status": "ok",
                                "rows": rows, "input_bytes": table.nbytes,
                                "wall_s": wall, "cpu_s": cpu, "wall": sw, "cpu": sc})
        del table
        gc.collect()
        print(f"{'':38s} (process peak RSS so far: {peak_rss_mib():,.0f} MiB)", flush=True)
    if not args.child:
        print(f"\nwriter_bench: done in {time.perf_counter() - t_start:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "reps": args.reps, "pin": pin, "options": BASE_OPTIONS,
                       "quiver_extra": quiver_extra,
                       "results": results}, f, indent=1)
        if not args.child:
            print(f"writer_bench: raw timings in {args.json}")
    if gate_failures:
        print("\nwriter_bench: correctness gate FAILED for:", file=sys.stderr)
        for line in gate_failures:
            print("  " + line, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
