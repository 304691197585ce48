#!/usr/bin/env python3
"""The Python-hosted peers of `make bench-peers` (bench/peers/PROTOCOL.md).

    py_peer.py --peer NAME                 server: one JSON command a line on stdin
    py_peer.py --peer NAME interop --input-dir DIR --out-dir OUT
    py_peer.py --peer quiver --quiver-options JSON   Quiver with writer options
                                           added to the variant's (layout_control.py)

NAME is one of (each writes to the two sinks of PROTOCOL.md, bench/sinks.py):
  quiver      quiver.write_parquet(table, PATH | None, **opts) (this tree's build);
              `"use_threads": true` in a write command: the multi-threaded arm
  pyarrow     pq.write_table(table, PATH | pa.BufferOutputStream(), **opts) (Arrow C++)
  pyarrow-mt  reads only (the read section's multi-threaded arm): pq.read_table with
              use_threads=True and pyarrow's CPU and I/O pools at the machine's cores
  duckdb      COPY (SELECT * FROM t) TO 'PATH' (FORMAT parquet, ...), SET threads=1
              (files only: no memory sink)
  duckdb-mt   the same with threads = the machine's cores
  polars      DataFrame.write_parquet(PATH | io.BytesIO(), ...), POLARS_MAX_THREADS=1
  polars-mt   the same with POLARS_MAX_THREADS = the machine's cores

The options are bench/writer_matrix.py's (BASE_OPTIONS, MATRIX_VARIANTS,
variant_options: one place); duckdb and polars get the nearest settings their
APIs have, and the `settings` command names what they cannot match.

Allocators (PROTOCOL.md "Allocators"), by QUIVER_PEER_ALLOCATOR:
  pinned (default): the process re-executes itself under
    LD_PRELOAD=libjemalloc.so.2 with MALLOC_CONF=dirty_decay_ms:-1,
    muzzy_decay_ms:-1 (bench/allocators.py) and asserts it through mallctl,
    with Quiver's pool on that jemalloc and pyarrow on its own jemalloc pool
    with decay -1. DuckDB and Polars carry their own, prefixed jemallocs,
    which that MALLOC_CONF does not reach: they get the same pin through
    their own variables (DUCKDB_JE_MALLOC_CONF, _RJEM_MALLOC_CONF), read back
    through their own mallctl (duckdb_je_mallctl, exported; Polars'
    _rjem_mallctl, a local symbol found through the runtime's symbol table
    with `nm`). DuckDB's purge of its arenas after a task
    (allocator_flush_threshold, allocator_bulk_deallocation_flush_threshold)
    is set out of reach. Any other value already in the environment for one
    of these variables is refused with exit status 2.
  shipped: every library with the allocator it ships with (glibc malloc for
    the process, Quiver's and pyarrow's default pools, DuckDB's and Polars'
    jemallocs with their default configuration, DuckDB's default flush
    thresholds); any allocator variable in the environment is refused.
"""

import argparse
import atexit
import ctypes
import gc
import io
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # bench/

import allocators  # noqa: E402  (nothing heavy: the re-exec comes before the imports)

PEERS = ("quiver", "pyarrow", "pyarrow-mt", "duckdb", "duckdb-mt", "polars", "polars-mt")
INTEROP_VARIANTS = ("default", "parquet_2", "zstd", "cdc")
ENGINE_PIN_VARS = ("DUCKDB_JE_MALLOC_CONF", "_RJEM_MALLOC_CONF")


class Unsupported(Exception):
    """A variant, sink or input the peer cannot do: the reply is "unsupported: ..."."""


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", required=True, choices=PEERS)
    ap.add_argument("--quiver-options", type=json.loads, default=None, metavar="JSON",
                    help="quiver peer only: writer options put over the variant's, e.g. "
                         "'{\"max_rows_per_page\": null}' (bench/peers/layout_control.py)")
    sub = ap.add_subparsers(dest="mode")
    inter = sub.add_parser("interop", help="write the interop files (PROTOCOL.md)")
    inter.add_argument("--input-dir", required=True)
    inter.add_argument("--out-dir", required=True)
    inter.add_argument("--variants", default=",".join(INTEROP_VARIANTS))
    return ap.parse_args()


ARGS = parse_args()
if ARGS.quiver_options is not None and ARGS.peer != "quiver":
    sys.exit("py_peer: --quiver-options is for the quiver peer only")
THREADS = (os.cpu_count() or 1) if ARGS.peer.endswith("-mt") else 1
MODE = allocators.mode()

# Before the re-exec (and before any import of polars): the engines' own
# jemalloc pins and Polars' thread count travel in the environment.
if MODE == "pinned" and os.environ.get("QUIVER_WRITER_BENCH_CHILD") != "1":
    for var in ENGINE_PIN_VARS:
        if os.environ.get(var, allocators.MALLOC_PIN) != allocators.MALLOC_PIN:
            print(f"py_peer: refusing to run: {var}={os.environ[var]!r} in the environment; "
                  f"the peers pin {allocators.MALLOC_PIN} (bench/peers/PROTOCOL.md)",
                  file=sys.stderr)
            sys.exit(2)
        os.environ[var] = allocators.MALLOC_PIN
os.environ["POLARS_MAX_THREADS"] = str(THREADS)
allocators.ensure_pinned_process()

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import quiver  # noqa: E402
import sinks  # noqa: E402
import writer_matrix as wm  # noqa: E402

# The protocol owns file descriptor 1; anything a library prints goes to stderr.
PROTO = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr


def reply(obj):
    PROTO.write(json.dumps(obj) + "\n")
    PROTO.flush()


def mallctl_fn(address):
    return ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p,
                            ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p,
                            ctypes.c_size_t)(address)


def loaded_library(fragment):
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and fragment in parts[5]:
                return parts[5]
    raise RuntimeError(f"no loaded library matching {fragment!r}")


def local_symbol(path, symbol, anchor):
    """Address of a local (non-exported) symbol of a loaded library, from its
    symbol table (`nm`) and the load bias of an exported `anchor`."""
    out = subprocess.run(["nm", "--defined-only", path], capture_output=True, text=True,
                         check=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = int(parts[0], 16)
    if symbol not in table or anchor not in table:
        raise RuntimeError(f"{path}: {symbol} or {anchor} not in its symbol table")
    lib = ctypes.CDLL(path)
    bias = ctypes.cast(getattr(lib, anchor), ctypes.c_void_p).value - table[anchor]
    return bias + table[symbol]


class Shape:
    """What writer_matrix.variant_options reads of a table."""

    def __init__(self, schema, num_rows):
        self.schema, self.num_rows = schema, num_rows


def known_variant(variant):
    if variant not in wm.ALL_VARIANTS:
        raise Unsupported(f"variant {variant!r} is not one of writer_matrix.ALL_VARIANTS "
                          f"({', '.join(wm.ALL_VARIANTS)})")


def codec_of(opts):
    return opts.get("compression", "none"), opts.get("compression_level")


def no_threads_option(use_threads, who):
    if use_threads:
        raise Unsupported(f"{who}: use_threads is a quiver-peer arm (the -mt peers are "
                          "processes of their own)")


NO_DISTINCT_COUNT = {
    "pyarrow": "pyarrow 26 cannot write distinct_count: pq.write_table has no option for it "
               "(Arrow C++'s WriterProperties neither; its writer never sets it)",
    "duckdb": "DuckDB 2.0 cannot write distinct_count: COPY ... (FORMAT parquet) has no option "
              "for it and its files have none (checked)",
    "polars": "Polars 2.1 writes no distinct_count: write_parquet(statistics='full') and "
              "statistics={'distinct_count': True} are accepted, but the files have none "
              "(checked)",
}


# ---------------------------------------------------------------------------
# Peers. Each has load(table), prepare(variant, sink, path, use_threads) ->
# a callable (timed by the caller; the mem sink's returns the buffer),
# settings(variant, sink) -> (dict, [differences]), read_setup(path) ->
# state, read(state, use_threads) -> the decoded table (timed) and
# to_arrow(table) -> pyarrow.Table (the read gate, untimed). A read's
# use_threads is the quiver peer's multi-threaded arm; the others read with
# the process's THREADS (one, or every core for a -mt peer) and refuse it.

_OPTION_PROBES = {}


def quiver_option_missing(key):
    """None if this build takes writer option `key` (=True), else why not.
    (Whether it does what it says is the gate's question.)"""
    if key not in _OPTION_PROBES:
        try:
            quiver.write_parquet(pa.table({"x": [1]}), io.BytesIO(), **{key: True})
            _OPTION_PROBES[key] = None
        except (TypeError, quiver.NotImplementedError) as e:
            _OPTION_PROBES[key] = (f"this build of Quiver refuses write_parquet({key}=True): "
                                   f"{type(e).__name__}: {e}")
    return _OPTION_PROBES[key]


class QuiverPeer:
    def __init__(self, extra=None):
        self.extra = dict(extra or {})  # --quiver-options: over the variant's options
        probe = io.BytesIO()
        quiver.write_parquet(pa.table({"x": [1]}), probe)
        self.version = pq.ParquetFile(pa.BufferReader(probe.getvalue())).metadata.created_by
        self.table = None

    def load(self, table):
        self.arrow = table
        self.table = quiver.table(table)  # zero-copy import, outside the timing

    def options(self, variant, use_threads=False):
        # "<variant>@<peer>": Quiver in that peer's layout (writer_matrix.PEER_LAYOUTS).
        try:
            base, _ = wm.layout_variant(variant)
        except ValueError as e:
            raise Unsupported(str(e)) from None
        known_variant(base)
        for key in wm.ALL_VARIANTS[base]:
            if key in wm.QUIVER_ONLY_OPTIONS:
                why = quiver_option_missing(key)
                if why:
                    raise Unsupported(why)
        opts = wm.variant_options(variant, self.arrow)
        if use_threads:
            opts["use_threads"] = True
        opts.update(self.extra)
        return opts

    def prepare(self, variant, sink, path, use_threads=False):
        opts = self.options(variant, use_threads)
        table = self.table
        if sink == "mem":
            why = sinks.quiver_memory_output()
            if why:
                raise Unsupported(why)
            return lambda: sinks.quiver_to_memory(table, **opts)
        return lambda: sinks.quiver_to_file(table, path, **opts)

    def settings(self, variant, sink):
        opts = self.options(variant)
        if sink == "mem":
            call = "quiver.write_parquet(table, None, **opts)"
            diffs = ["memory sink: write_parquet(table, None) returns the file as one contiguous "
                     "buffer-protocol object the caller owns; timed until it is returned"]
        else:
            call = "quiver.write_parquet(table, path, **opts)"
            diffs = ["Quiver fsyncs, the peers do not: quiver.write_parquet(table, path) writes "
                     "a temporary file beside the destination, fsyncs it and renames it into "
                     "place (its defaults, fsync=True; the timing includes all of it); the "
                     "peers write the path in place without fsync"]
        layout = wm.layout_variant(variant)[1]
        if layout is not None:
            diffs.append(f"in {layout}'s layout: {json.dumps(wm.PEER_LAYOUTS[layout])} over the "
                         "variant's options")
        if self.extra:
            diffs.append(f"--quiver-options {json.dumps(self.extra)} over the variant's options")
        return {"call": call, **opts}, diffs

    def read_setup(self, path):
        with open(path, "rb") as f:
            return f.read()

    def read(self, data, use_threads=False):
        return quiver.read_table(data, use_threads=use_threads)

    def to_arrow(self, table):
        return pa.table(table)


PYARROW_MT_WRITES = ("pyarrow-mt is the read section's multi-threaded arm: pq.write_table "
                     "writes the columns of a row group one after another (no use_threads)")


class PyarrowPeer:
    def __init__(self, mt=False):
        self.version = f"pyarrow {pa.__version__} (Arrow C++ {pa.cpp_version})"
        self.mt = mt

    def load(self, table):
        # (pyarrow-mt only reads files: it keeps no input.)
        self.table = None if self.mt else table

    def options(self, variant):
        if self.mt:
            raise Unsupported(PYARROW_MT_WRITES)
        known_variant(variant)
        if any(k in wm.QUIVER_ONLY_OPTIONS for k in wm.ALL_VARIANTS[variant]):
            raise Unsupported(NO_DISTINCT_COUNT["pyarrow"])
        return wm.variant_options(variant, self.table)

    def prepare(self, variant, sink, path, use_threads=False):
        no_threads_option(use_threads, "pyarrow")
        opts = self.options(variant)
        table = self.table
        if sink == "mem":
            return lambda: sinks.pyarrow_to_memory(table, **opts)
        return lambda: sinks.pyarrow_to_file(table, path, **opts)

    def settings(self, variant, sink):
        if sink == "mem":
            call = "pq.write_table(table, sink := pa.BufferOutputStream(), **opts); sink.getvalue()"
            diffs = []
        else:
            call = "pq.write_table(table, path, **opts)"
            diffs = ["file sink: pyarrow opens the path through its LocalFileSystem's "
                     "open_output_stream (no buffering: buffer_size None), no fsync"]
        return {"call": call, **self.options(variant)}, diffs

    def read_setup(self, path):
        with open(path, "rb") as f:
            return f.read()

    def read(self, data, use_threads=False):
        no_threads_option(use_threads, "pyarrow")
        # One thread, or (pyarrow-mt) pyarrow's default: its pools at every core.
        return pq.read_table(pa.BufferReader(data), use_threads=self.mt)

    def to_arrow(self, table):
        return table


DUCKDB_DICTIONARY_ENTRIES = (1 << 20) // 8


class DuckdbPeer:
    def __init__(self, mt):
        import duckdb
        self.duckdb = duckdb
        self.mt = mt
        config = {
            "threads": THREADS,
            "memory_limit": "64GB",  # generous: no spilling
            "preserve_insertion_order": True,
        }
        if MODE == "pinned":
            # DuckDB purges its jemalloc arenas after a task that allocated
            # more than these; out of reach, like the decay.
            config.update({"allocator_flush_threshold": "1TB",
                           "allocator_bulk_deallocation_flush_threshold": "1TB",
                           "allocator_background_threads": False})
        self.con = duckdb.connect(config=config)
        self.con.execute("SET enable_progress_bar = false")
        self.version = f"duckdb {duckdb.__version__}"
        self.unsupported = None
        self.table = None
        self.read_copy = None
        atexit.register(self.remove_read_copy)

    def pin(self):
        settings = dict(self.con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('threads', "
            "'allocator_flush_threshold', 'allocator_bulk_deallocation_flush_threshold', "
            "'allocator_background_threads')").fetchall())
        flush = (f"flush thresholds {settings.get('allocator_flush_threshold')} / "
                 f"{settings.get('allocator_bulk_deallocation_flush_threshold')}, background "
                 f"threads {settings.get('allocator_background_threads')}")
        if MODE == "shipped":
            return f"DuckDB's own jemalloc (duckdb_je_) as shipped, default {flush}"
        lib = ctypes.CDLL(self.duckdb._duckdb.__file__)
        mallctl = mallctl_fn(ctypes.cast(lib.duckdb_je_mallctl, ctypes.c_void_p).value)
        values = allocators.read_decay(mallctl, "DuckDB's jemalloc")
        return (f"DuckDB's own jemalloc (duckdb_je_) pinned by DUCKDB_JE_MALLOC_CONF, read back "
                f"through duckdb_je_mallctl {values}; {flush}")

    def load(self, table):
        self.table = table
        self.unsupported = None
        try:
            self.con.unregister("t")
        except Exception:  # noqa: BLE001 - nothing registered yet
            pass
        try:
            self.con.register("t", table)
        except self.duckdb.Error as e:
            self.unsupported = f"DuckDB cannot scan this Arrow table: {e}"

    def copy_options(self, variant):
        known_variant(variant)
        v = wm.ALL_VARIANTS[variant]
        if "use_content_defined_chunking" in v:
            raise Unsupported("DuckDB's Parquet writer has no content-defined chunking")
        if any(k in wm.QUIVER_ONLY_OPTIONS for k in v):
            raise Unsupported(NO_DISTINCT_COUNT["duckdb"])
        opts = wm.variant_options(variant, self.table)
        codec, level = codec_of(opts)
        out = {"FORMAT": "parquet",
               "COMPRESSION": "uncompressed" if codec == "none" else codec,
               "ROW_GROUP_SIZE": opts["row_group_size"],
               "PARQUET_VERSION": "V2" if opts["data_page_version"] == "2.0" else "V1",
               "DATA_PAGE_SIZE_LIMIT": opts["data_page_size"],
               "DICTIONARY_SIZE_LIMIT": DUCKDB_DICTIONARY_ENTRIES,
               "STRING_DICTIONARY_PAGE_SIZE_LIMIT": opts["dictionary_pagesize_limit"],
               "WRITE_BLOOM_FILTER": "bloom_filter_options" in opts,
               "WRITE_PAGE_INDEX": opts["write_page_index"]}
        if level is not None:
            out["COMPRESSION_LEVEL"] = level
        if out["WRITE_BLOOM_FILTER"]:
            fpps = {b["fpp"] for b in opts["bloom_filter_options"].values()}
            out["BLOOM_FILTER_FALSE_POSITIVE_RATIO"] = fpps.pop()
        return out

    def statement(self, variant, path):
        def lit(v):
            if isinstance(v, bool):
                return "true" if v else "false"
            return str(v)
        opts = ", ".join(f"{k} {lit(v)}" for k, v in self.copy_options(variant).items())
        return f"COPY (SELECT * FROM t) TO '{path}' ({opts})"

    def prepare(self, variant, sink, path, use_threads=False):
        no_threads_option(use_threads, "duckdb")
        if sink == "mem":
            raise Unsupported(DUCKDB_NO_MEMORY)
        sql = self.statement(variant, path)
        if self.unsupported:
            raise Unsupported(self.unsupported)

        def run():
            self.con.execute(sql).fetchall()
        return run

    def settings(self, variant, sink):
        if sink == "mem":
            raise Unsupported(DUCKDB_NO_MEMORY)
        opts = self.copy_options(variant)
        diffs = [
            "encodings are DuckDB's own: a column chunk is dictionary-encoded or not as a whole "
            f"(DICTIONARY_SIZE_LIMIT is a count of distinct values: {DUCKDB_DICTIONARY_ENTRIES:,}"
            " = 1 MiB of 8-byte values; strings also STRING_DICTIONARY_PAGE_SIZE_LIMIT bytes), "
            "no fallback to PLAIN in the middle of a chunk as Arrow C++ does",
            "PARQUET_VERSION V2 means data page v2 *and* DuckDB's v2 encodings "
            "(DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT) instead of "
            "dictionary/PLAIN",
            "no limit on rows per page (max_rows_per_page 20,000 not settable); pages cut by "
            "DATA_PAGE_SIZE_LIMIT only; no write batch size (DuckDB vectors are 2,048 rows)",
            "no ARROW:schema in the key/value metadata (types are DuckDB's: date64 is written as "
            "DATE, fixed_size_binary as BLOB/BYTE_ARRAY, dictionary<string> as VARCHAR, every "
            "column optional); FileMetaData.version 1",
            "float16 (halffloat) is not a DuckDB type: such tables are unsupported",
            "bloom filters (WRITE_BLOOM_FILTER) only on dictionary-encoded chunks, sized by the "
            "chunk's distinct count, not ndv = rows",
            "no content-defined chunking; no distinct counts",
            "the table is read through DuckDB's Arrow scan of the registered pyarrow table "
            "(zero-copy) inside the timing, as part of the COPY",
            "memory sink: none (COPY writes files only)",
        ]
        if self.mt:
            diffs.append(f"threads={THREADS} (multi-threaded arm)")
        return {"call": "con.execute(\"COPY (SELECT * FROM t) TO 'path' (...)\")",
                "threads": THREADS, "preserve_insertion_order": True, **opts}, diffs

    def read_setup(self, path):
        if not os.path.realpath(path).startswith("/dev/shm/"):
            self.remove_read_copy()
            self.read_copy = os.path.join("/dev/shm", f"duckdb-read-{os.getpid()}.parquet")
            shutil.copyfile(path, self.read_copy)
            path = self.read_copy
        return path

    def remove_read_copy(self):
        if self.read_copy and os.path.exists(self.read_copy):
            os.unlink(self.read_copy)
        self.read_copy = None

    def read(self, path, use_threads=False):
        no_threads_option(use_threads, "duckdb")
        return self.con.sql(f"SELECT * FROM read_parquet('{path}')").to_arrow_table()

    def to_arrow(self, table):
        return table


DUCKDB_NO_MEMORY = ("DuckDB writes Parquet only to files (COPY ... TO 'path'): it has no "
                    "in-memory output, so it is absent from the memory sink")


class PolarsPeer:
    def __init__(self, mt):
        import polars as pl
        self.pl = pl
        self.mt = mt
        self.version = f"polars {pl.__version__}"
        self.df = None

    def pin(self):
        pool = self.pl.thread_pool_size()
        if pool != THREADS:
            allocators.refuse(f"Polars' thread pool has {pool} threads, not {THREADS} "
                              f"(POLARS_MAX_THREADS={os.environ.get('POLARS_MAX_THREADS')})")
        if MODE == "shipped":
            return f"Polars' own jemalloc (tikv, _rjem_) as shipped; thread pool {pool}"
        path = loaded_library("_polars_runtime")
        mallctl = mallctl_fn(local_symbol(path, "_rjem_mallctl", "PyInit__polars_runtime"))
        values = allocators.read_decay(mallctl, "Polars' jemalloc")
        return (f"Polars' own jemalloc (tikv, _rjem_) pinned by _RJEM_MALLOC_CONF, read back "
                f"through _rjem_mallctl (runtime symbol table) {values}; thread pool {pool}")

    def load(self, table):
        self.df = None
        self.df = self.pl.from_arrow(table, rechunk=True)  # outside the timing
        # Only the shape stays (variant_options): the DataFrame holds the data.
        self.table = Shape(table.schema, table.num_rows)

    def write_kwargs(self, variant):
        known_variant(variant)
        v = wm.ALL_VARIANTS[variant]
        if "use_content_defined_chunking" in v:
            raise Unsupported("Polars' Parquet writer has no content-defined chunking")
        if "bloom_filter_options" in v:
            raise Unsupported("Polars' Parquet writer writes no bloom filters")
        if any(k in wm.QUIVER_ONLY_OPTIONS for k in v):
            raise Unsupported(NO_DISTINCT_COUNT["polars"])
        opts = wm.variant_options(variant, self.table)
        if opts["data_page_version"] != "1.0":
            raise Unsupported("Polars' Parquet writer has no data page version option "
                              "(it writes v1 pages)")
        codec, level = codec_of(opts)
        kw = {"compression": "uncompressed" if codec == "none" else codec,
              "statistics": True,
              "row_group_size": opts["row_group_size"],
              "data_page_size": opts["data_page_size"],
              "use_pyarrow": False}
        if level is not None:
            kw["compression_level"] = level
        return kw

    def prepare(self, variant, sink, path, use_threads=False):
        no_threads_option(use_threads, "polars")
        kw = self.write_kwargs(variant)
        df = self.df
        if sink == "mem":
            def run():
                out = io.BytesIO()
                df.write_parquet(out, **kw)
                return out.getbuffer()
            return run
        return lambda: df.write_parquet(path, **kw)

    def settings(self, variant, sink):
        kw = self.write_kwargs(variant)
        diffs = [
            "the input is converted to a Polars DataFrame at load (outside the timing): "
            "strings become Polars String (view storage; written as large_string in "
            "ARROW:schema), dictionary<int32, string> becomes Categorical (written as "
            "dictionary<uint32, large_string>), list becomes List (large_list), date64 becomes "
            "Datetime(ms) (written as TIMESTAMP(MILLIS)), fixed_size_binary becomes Binary "
            "(BYTE_ARRAY)",
            "dictionary encoding by Polars' own heuristic per column (no dictionary page size "
            "limit option)",
            "page index (ColumnIndex/OffsetIndex) always written; no option to turn it off",
            "no limit on rows per page (max_rows_per_page 20,000 not settable); no write batch "
            "size option",
            "data page v1 only: parquet_2 variants unsupported",
            "no bloom filters; no content-defined chunking; no distinct counts",
        ]
        if sink == "mem":
            call = "df.write_parquet(out := io.BytesIO(), **kw); out.getbuffer()"
            diffs.append("memory sink: io.BytesIO, ended with getbuffer(), a memoryview of the "
                         "BytesIO's own buffer (one contiguous buffer, no copy; getvalue() may "
                         "copy to shrink it)")
        else:
            call = "df.write_parquet(path, **kw)"
        if self.mt:
            diffs.append(f"POLARS_MAX_THREADS={THREADS} (multi-threaded arm)")
        return {"call": call, "POLARS_MAX_THREADS": THREADS, **kw}, diffs

    def read_setup(self, path):
        with open(path, "rb") as f:
            return f.read()

    def read(self, data, use_threads=False):
        no_threads_option(use_threads, "polars")
        return self.pl.read_parquet(io.BytesIO(data))

    def to_arrow(self, df):
        return df.to_arrow()


def make_peer(name):
    mt = name.endswith("-mt")
    base = name[:-3] if mt else name
    if base == "quiver":
        return QuiverPeer(ARGS.quiver_options)
    if base == "pyarrow":
        return PyarrowPeer(mt)
    if base == "duckdb":
        return DuckdbPeer(mt)
    return PolarsPeer(mt)


# ---------------------------------------------------------------------------

def load_ipc(path):
    with pa.OSFile(path) as f:
        table = pa.ipc.open_file(f).read_all()
    return table.combine_chunks()


def write_ipc(table, path):
    table = table.combine_chunks()
    with pa.OSFile(path, "wb") as f:
        with pa.ipc.new_file(f, table.schema) as w:
            w.write_table(table, max_chunksize=max(1, table.num_rows))


def freeze_heap():
    """Moves every Python object alive now (the modules, the loaded input)
    into the collector's permanent generation: the collection before each
    timed call (timed_call) then scans only what was made since. A full
    collection over pyarrow, polars, duckdb and quiver's objects took 35-45
    ms, paid before every repetition outside the timing: with a run's
    repetitions (schedule.case_reps: up to 50) more than the writes it
    brackets."""
    gc.collect()
    gc.freeze()


def timed_call(fn):
    gc.collect()
    gc.disable()
    try:
        w0, c0 = time.perf_counter_ns(), time.process_time_ns()
        result = fn()
        c1, w1 = time.process_time_ns(), time.perf_counter_ns()
    finally:
        gc.enable()
    return result, (w1 - w0) / 1e9, (c1 - c0) / 1e9


def remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def do_write(peer, variant, reps, sink, path, out, use_threads=False):
    """PROTOCOL.md `write`: R timed writes into `sink`; the file sink's file
    is removed after each (outside the timing), the last one moved to `out`
    if asked; the mem sink's buffer is freed outside the timing too."""
    if isinstance(peer, PyarrowPeer) and peer.mt:
        raise Unsupported(PYARROW_MT_WRITES)
    if getattr(peer, "table", None) is None and getattr(peer, "df", None) is None:
        raise ValueError("no table loaded (send load first)")
    if sink not in sinks.SINKS:
        raise ValueError(f"unknown sink {sink!r} (one of {', '.join(sinks.SINKS)})")
    if sink == "file" and not path:
        raise ValueError("the file sink needs \"path\"")
    run = peer.prepare(variant, sink, path, use_threads)
    seconds, cpu, nbytes = [], [], 0
    for i in range(reps):
        if sink == "file":
            remove(path)
        data, w, c = timed_call(run)
        seconds.append(w)
        cpu.append(c)
        if sink == "file":
            nbytes = os.path.getsize(path)
            if out and i == reps - 1:
                os.replace(path, out)
            else:
                remove(path)
        else:
            nbytes = sinks.nbytes(data)
            if out and i == reps - 1:
                with open(out, "wb") as f:
                    f.write(data)
        del data
    return {"seconds": seconds, "bytes": nbytes, "cpu_seconds": cpu}


def do_read(peer, path, reps, out, use_threads=False):
    state = peer.read_setup(path)
    seconds, cpu, rows = [], [], None
    for i in range(reps):
        table, w, c = timed_call(lambda: peer.read(state, use_threads))
        seconds.append(w)
        cpu.append(c)
        arrow = peer.to_arrow(table)
        rows = arrow.num_rows
        if out and i == reps - 1:
            write_ipc(arrow, out)
        del table, arrow
    return {"seconds": seconds, "rows": rows, "cpu_seconds": cpu}


def startup(peer_name):
    pin = allocators.pin_allocators()  # process jemalloc + Quiver's pool + pyarrow's pool
    if peer_name == "pyarrow-mt":
        # pin_allocators leaves pyarrow on one thread: its default is every core.
        pa.set_cpu_count(THREADS)
        pa.set_io_thread_count(THREADS)
        pin += (f"; pyarrow pools set back to {pa.cpu_count()} CPU / "
                f"{pa.io_thread_count()} I/O threads")
    peer = make_peer(peer_name)
    extra = peer.pin() if hasattr(peer, "pin") else None
    if MODE == "pinned":
        allocator = (f"jemalloc (LD_PRELOAD={allocators.JEMALLOC_SONAME}, "
                     f"MALLOC_CONF={allocators.MALLOC_PIN}) read back through mallctl; {pin}")
    else:
        allocator = pin
    return peer, allocator + (f"; {extra}" if extra else "")


def serve(peer_name, commands=None, hello=None):
    """The server loop. `commands` ({name: fn(peer, cmd) -> reply}) adds
    commands (filter_py_peer.py's `filter`); `hello(peer, allocator)` ->
    (name, allocator, threads) changes what the hello line says."""
    peer, allocator = startup(peer_name)
    name, threads = peer_name, THREADS
    if hello is not None:
        name, allocator, threads = hello(peer, allocator)
    freeze_heap()
    reply({"peer": name, "version": peer.version, "allocator": allocator,
           "allocator_mode": MODE, "threads": threads})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            cmd = json.loads(line)
            op = cmd.get("cmd")
            if op == "quit":
                return
            if op == "load":
                gc.unfreeze()  # (an earlier input's objects can go)
                table = load_ipc(cmd["input"])
                peer.load(table)
                rows, columns = table.num_rows, table.num_columns
                del table  # the peer keeps what it needs
                freeze_heap()
                reply({"ok": True, "rows": rows, "columns": columns})
            elif op == "write":
                reply(do_write(peer, cmd["variant"], int(cmd.get("reps", 1)),
                               cmd.get("sink", "mem"), cmd.get("path"), cmd.get("out"),
                               bool(cmd.get("use_threads", False))))
            elif op == "read":
                reply(do_read(peer, cmd["file"], int(cmd.get("reps", 1)), cmd.get("out"),
                              bool(cmd.get("use_threads", False))))
            elif op == "settings":
                settings, diffs = peer.settings(cmd["variant"], cmd.get("sink", "mem"))
                reply({"settings": settings, "differences": diffs})
            elif commands and op in commands:
                reply(commands[op](peer, cmd))
            else:
                reply({"error": f"unknown command {op!r}"})
        except (Unsupported, sinks.Unavailable) as e:
            reply({"error": f"unsupported: {e}"})
        except quiver.NotImplementedError as e:
            reply({"error": f"unsupported: {e}"})
        except Exception as e:  # noqa: BLE001 - reported to the driver, the peer keeps serving
            reply({"error": f"{type(e).__name__}: {e}"})


def interop(peer_name, input_dir, out_dir, variants):
    peer, _ = startup(peer_name)
    os.makedirs(out_dir, exist_ok=True)
    failed = 0
    for name in sorted(os.listdir(input_dir)):
        if not name.endswith(".arrow"):
            continue
        group = name[:-len(".arrow")]
        peer.load(load_ipc(os.path.join(input_dir, name)))
        for v in variants:
            out = os.path.join(out_dir, f"{group}.{v}.parquet")
            try:
                do_write(peer, v, 1, "file", out + ".tmp", out)
            except (Unsupported, quiver.NotImplementedError) as e:
                print(f"py_peer {peer_name}: {group}.{v}: skipped (unsupported: {e})",
                      file=sys.stderr)
            except Exception as e:  # noqa: BLE001
                print(f"py_peer {peer_name}: {group}.{v}: FAILED: {type(e).__name__}: {e}",
                      file=sys.stderr)
                failed += 1
    return 1 if failed else 0


def main():
    if ARGS.mode == "interop":
        sys.exit(interop(ARGS.peer, ARGS.input_dir, ARGS.out_dir, ARGS.variants.split(",")))
    serve(ARGS.peer)


if __name__ == "__main__":
    main()
