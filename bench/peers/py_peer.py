#!/usr/bin/env python3
"""The Python-hosted peers of `make bench-peers` (bench/peers/PROTOCOL.md).

    py_peer.py --peer NAME                 server: one JSON command a line on stdin
    py_peer.py --peer NAME interop --input-dir DIR --out-dir OUT
    py_peer.py --peer quiver --quiver-options JSON   Quiver with writer options
                                           added to the variant's (layout_control.py)

NAME is one of
  quiver      quiver.write_parquet(table, file object, **opts)   (this tree's build)
  quiver-mt   the same with use_threads=True
  pyarrow     pq.write_table(table, pa.BufferOutputStream(), **opts)   (Arrow C++)
  duckdb      COPY (SELECT * FROM t) TO '/dev/shm/...' (FORMAT parquet, ...), SET threads=1
  duckdb-mt   the same with threads = the machine's cores
  polars      DataFrame.write_parquet(io.BytesIO(), ...), POLARS_MAX_THREADS=1
  polars-mt   the same with POLARS_MAX_THREADS = the machine's cores

The options are bench/writer_bench.py's (BASE_OPTIONS, VARIANTS,
variant_options: one place); duckdb and polars get the nearest settings their
APIs have, and the `settings` command names what they cannot match.

Allocators (PROTOCOL.md "Allocator pin"): the process re-executes itself
under LD_PRELOAD=libjemalloc.so.2 with MALLOC_CONF=dirty_decay_ms:-1,
muzzy_decay_ms:-1 (writer_bench.ensure_pinned_process) and asserts it through
mallctl, with Quiver's pool on that jemalloc and pyarrow on its own jemalloc
pool with decay -1 (writer_bench.pin_allocators). DuckDB and Polars carry
their own, prefixed jemallocs, which that MALLOC_CONF does not reach: they get
the same pin through their own variables (DUCKDB_JE_MALLOC_CONF,
_RJEM_MALLOC_CONF), read back through their own mallctl (duckdb_je_mallctl,
exported; Polars' _rjem_mallctl, a local symbol found through the runtime's
symbol table with `nm`). DuckDB's purge of its arenas after a task
(allocator_flush_threshold, allocator_bulk_deallocation_flush_threshold) is
set out of reach. Any other value already in the environment for one of
these variables is refused with exit status 2.
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
sys.path.insert(0, os.path.dirname(HERE))  # bench/: writer_bench

PEERS = ("quiver", "quiver-mt", "pyarrow", "duckdb", "duckdb-mt", "polars", "polars-mt")
INTEROP_VARIANTS = ("default", "parquet_2", "zstd", "cdc")
SHM_DIR = "/dev/shm/quiver-peers"
ENGINE_PIN_VARS = ("DUCKDB_JE_MALLOC_CONF", "_RJEM_MALLOC_CONF")


class Unsupported(Exception):
    """A variant (or input) the peer cannot do: the reply is "unsupported: ..."."""


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", required=True, choices=PEERS)
    ap.add_argument("--quiver-options", type=json.loads, default=None, metavar="JSON",
                    help="quiver peers only: writer options put over the variant's, e.g. "
                         "'{\"max_rows_per_page\": null}' (bench/peers/layout_control.py)")
    sub = ap.add_subparsers(dest="mode")
    inter = sub.add_parser("interop", help="write the interop files (PROTOCOL.md)")
    inter.add_argument("--input-dir", required=True)
    inter.add_argument("--out-dir", required=True)
    inter.add_argument("--variants", default=",".join(INTEROP_VARIANTS))
    return ap.parse_args()


ARGS = parse_args()
if ARGS.quiver_options is not None and not ARGS.peer.startswith("quiver"):
    sys.exit("py_peer: --quiver-options is for the quiver peers only")
THREADS = (os.cpu_count() or 1) if ARGS.peer.endswith("-mt") else 1

# Before writer_bench's re-exec (and before any import of polars): the
# engines' own jemalloc pins and Polars' thread count travel in the environment.
import writer_bench as wb  # noqa: E402  (imports numpy, pyarrow, quiver)

if os.environ.get("QUIVER_WRITER_BENCH_CHILD") != "1":
    for var in ENGINE_PIN_VARS:
        if os.environ.get(var, wb.MALLOC_PIN) != wb.MALLOC_PIN:
            print(f"py_peer: refusing to run: {var}={os.environ[var]!r} in the environment; "
                  f"the peers pin {wb.MALLOC_PIN} (bench/peers/PROTOCOL.md)", file=sys.stderr)
            sys.exit(2)
        os.environ[var] = wb.MALLOC_PIN
    os.environ["POLARS_MAX_THREADS"] = str(THREADS)
wb.ensure_pinned_process()

pa, pq, quiver = wb.pa, wb.pq, wb.quiver

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


read_decay = wb.read_decay  # exit 2 unless both decays read -1


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
    """What writer_bench.variant_options reads of a table."""

    def __init__(self, schema, num_rows):
        self.schema, self.num_rows = schema, num_rows


class KeepBytes:
    """Quiver's file-object sink: keeps what write() is given, at close, the
    file chunk by chunk (memoryviews of the writer's chunks: no copy)."""

    def __init__(self):
        self.parts = []

    def write(self, data):
        self.parts.append(data)
        return len(data)


def known_variant(variant):
    if variant not in wb.ALL_VARIANTS:
        raise Unsupported(f"variant {variant!r} is not one of writer_bench.ALL_VARIANTS "
                          f"({', '.join(wb.ALL_VARIANTS)})")


def codec_of(opts):
    return opts.get("compression", "none"), opts.get("compression_level")


# ---------------------------------------------------------------------------
# Peers. Each has load(table), write(variant) -> bytes-like (timed by the
# caller), settings(variant) -> (dict, [differences]), read_setup(path) ->
# state and read(state) -> rows.

class QuiverPeer:
    def __init__(self, mt, extra=None):
        self.mt = mt
        self.extra = dict(extra or {})  # --quiver-options: over the variant's options
        probe = KeepBytes()
        quiver.write_parquet(pa.table({"x": [1]}), probe)
        self.version = pq.ParquetFile(pa.BufferReader(b"".join(probe.parts))).metadata.created_by
        self.table = None

    def load(self, table):
        self.arrow = table
        self.table = quiver.table(table)  # zero-copy import, outside the timing

    def options(self, variant):
        # "<variant>@<peer>": Quiver in that peer's layout (writer_bench.PEER_LAYOUTS).
        try:
            base, _ = wb.layout_variant(variant)
        except ValueError as e:
            raise Unsupported(str(e)) from None
        known_variant(base)
        opts = wb.variant_options(variant, self.arrow)
        if self.mt:
            opts["use_threads"] = True
        opts.update(self.extra)
        return opts

    def prepare(self, variant):
        opts = self.options(variant)

        def run():
            sink = KeepBytes()
            quiver.write_parquet(self.table, sink, **opts)
            return sink.parts
        return run

    def settings(self, variant):
        opts = self.options(variant)
        diffs = ["sink: Quiver's Python file-object path: the file is built in Quiver's "
                 "in-memory ChunkedOutputStream (pyarrow: its BufferOutputStream) and handed "
                 "to write() chunk by chunk as memoryviews (no copy)"]
        if self.mt:
            diffs.append("use_threads=True (multi-threaded arm)")
        if self.extra:
            diffs.append(f"--quiver-options {json.dumps(self.extra)} over the variant's options")
        layout = wb.layout_variant(variant)[1]
        if layout is not None:
            diffs.append(f"in {layout}'s layout: {json.dumps(wb.PEER_LAYOUTS[layout])} over the "
                         "variant's options")
        return {"call": "quiver.write_parquet(table, file_object, **opts)", **opts}, diffs

    def read_setup(self, path):
        with open(path, "rb") as f:
            return f.read()

    def read(self, data):
        return quiver.read_table(data).num_rows


class PyarrowPeer:
    def __init__(self):
        self.version = f"pyarrow {pa.__version__} (Arrow C++ {pa.cpp_version})"

    def load(self, table):
        self.table = table

    def options(self, variant):
        known_variant(variant)
        return wb.variant_options(variant, self.table)

    def prepare(self, variant):
        opts = self.options(variant)

        def run():
            sink = pa.BufferOutputStream()
            pq.write_table(self.table, sink, **opts)
            return sink.getvalue()
        return run

    def settings(self, variant):
        return {"call": "pq.write_table(table, pa.BufferOutputStream(), **opts)",
                **self.options(variant)}, []

    def read_setup(self, path):
        with open(path, "rb") as f:
            return f.read()

    def read(self, data):
        return pq.read_table(pa.BufferReader(data), use_threads=False).num_rows


DUCKDB_DICTIONARY_ENTRIES = (1 << 20) // 8


class DuckdbPeer:
    def __init__(self, mt):
        import duckdb
        self.duckdb = duckdb
        self.mt = mt
        self.con = duckdb.connect(config={
            "threads": THREADS,
            "memory_limit": "64GB",  # generous: no spilling
            # DuckDB purges its jemalloc arenas after a task that allocated
            # more than these; out of reach, like the decay.
            "allocator_flush_threshold": "1TB",
            "allocator_bulk_deallocation_flush_threshold": "1TB",
            "allocator_background_threads": False,
            "preserve_insertion_order": True,
        })
        self.con.execute("SET enable_progress_bar = false")
        self.version = f"duckdb {duckdb.__version__}"
        os.makedirs(SHM_DIR, exist_ok=True)
        self.path = os.path.join(SHM_DIR, f"duckdb-{os.getpid()}.parquet")
        atexit.register(self.before)  # no file left on /dev/shm
        self.unsupported = None
        self.table = None

    def pin(self):
        lib = ctypes.CDLL(self.duckdb._duckdb.__file__)
        mallctl = mallctl_fn(ctypes.cast(lib.duckdb_je_mallctl, ctypes.c_void_p).value)
        values = read_decay(mallctl, "DuckDB's jemalloc")
        settings = dict(self.con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('threads', "
            "'allocator_flush_threshold', 'allocator_bulk_deallocation_flush_threshold', "
            "'allocator_background_threads')").fetchall())
        return (f"DuckDB's own jemalloc (duckdb_je_) pinned by DUCKDB_JE_MALLOC_CONF, read back "
                f"through duckdb_je_mallctl {values}; flush thresholds "
                f"{settings.get('allocator_flush_threshold')} / "
                f"{settings.get('allocator_bulk_deallocation_flush_threshold')}, background "
                f"threads {settings.get('allocator_background_threads')}")

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
        v = wb.ALL_VARIANTS[variant]
        if "use_content_defined_chunking" in v:
            raise Unsupported("DuckDB's Parquet writer has no content-defined chunking")
        opts = wb.variant_options(variant, self.table)
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

    def statement(self, variant):
        def lit(v):
            if isinstance(v, bool):
                return "true" if v else "false"
            return str(v)
        opts = ", ".join(f"{k} {lit(v)}" for k, v in self.copy_options(variant).items())
        return f"COPY (SELECT * FROM t) TO '{self.path}' ({opts})"

    def prepare(self, variant):
        sql = self.statement(variant)
        if self.unsupported:
            raise Unsupported(self.unsupported)

        def run():
            self.con.execute(sql).fetchall()
            return None
        return run

    def before(self):
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    def result(self):
        with open(self.path, "rb") as f:
            return f.read()

    def settings(self, variant):
        opts = self.copy_options(variant)
        diffs = [
            "sink: DuckDB writes files only: a file on /dev/shm (tmpfs), unlinked before each "
            "write (outside the timing)",
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
            "no content-defined chunking",
            "the table is read through DuckDB's Arrow scan of the registered pyarrow table "
            "(zero-copy) inside the timing, as part of the COPY",
        ]
        if self.mt:
            diffs.append(f"threads={THREADS} (multi-threaded arm)")
        return {"call": "con.execute(\"COPY (SELECT * FROM t) TO '/dev/shm/...' (...)\")",
                "threads": THREADS, "preserve_insertion_order": True, **opts}, diffs

    def read_setup(self, path):
        if not os.path.realpath(path).startswith("/dev/shm/"):
            local = os.path.join(SHM_DIR, f"duckdb-read-{os.getpid()}.parquet")
            shutil.copyfile(path, local)
            path = local
        return path

    def read(self, path):
        return self.con.sql(f"SELECT * FROM read_parquet('{path}')").to_arrow_table().num_rows


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
            wb.refuse(f"Polars' thread pool has {pool} threads, not {THREADS} "
                      f"(POLARS_MAX_THREADS={os.environ.get('POLARS_MAX_THREADS')})")
        path = loaded_library("_polars_runtime")
        mallctl = mallctl_fn(local_symbol(path, "_rjem_mallctl", "PyInit__polars_runtime"))
        values = read_decay(mallctl, "Polars' jemalloc")
        return (f"Polars' own jemalloc (tikv, _rjem_) pinned by _RJEM_MALLOC_CONF, read back "
                f"through _rjem_mallctl (runtime symbol table) {values}; thread pool {pool}")

    def load(self, table):
        self.df = None
        self.df = self.pl.from_arrow(table, rechunk=True)  # outside the timing
        # Only the shape stays (variant_options): the DataFrame holds the data.
        self.table = Shape(table.schema, table.num_rows)

    def write_kwargs(self, variant):
        known_variant(variant)
        v = wb.ALL_VARIANTS[variant]
        opts = wb.variant_options(variant, self.table)
        if "use_content_defined_chunking" in v:
            raise Unsupported("Polars' Parquet writer has no content-defined chunking")
        if "bloom_filter_options" in v:
            raise Unsupported("Polars' Parquet writer writes no bloom filters")
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

    def prepare(self, variant):
        kw = self.write_kwargs(variant)

        def run():
            sink = io.BytesIO()
            self.df.write_parquet(sink, **kw)
            return sink.getbuffer()
        return run

    def settings(self, variant):
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
            "no bloom filters; no content-defined chunking",
        ]
        if self.mt:
            diffs.append(f"POLARS_MAX_THREADS={THREADS} (multi-threaded arm)")
        return {"call": "df.write_parquet(io.BytesIO(), **kw)",
                "POLARS_MAX_THREADS": THREADS, **kw}, diffs

    def read_setup(self, path):
        with open(path, "rb") as f:
            return f.read()

    def read(self, data):
        return self.pl.read_parquet(io.BytesIO(data)).height


def make_peer(name):
    mt = name.endswith("-mt")
    base = name[:-3] if mt else name
    if base == "quiver":
        return QuiverPeer(mt, ARGS.quiver_options)
    if base == "pyarrow":
        return PyarrowPeer()
    if base == "duckdb":
        return DuckdbPeer(mt)
    return PolarsPeer(mt)


# ---------------------------------------------------------------------------

def load_ipc(path):
    with pa.OSFile(path) as f:
        table = pa.ipc.open_file(f).read_all()
    return table.combine_chunks()


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


def do_write(peer, variant, reps, out):
    if getattr(peer, "table", None) is None and getattr(peer, "df", None) is None:
        raise ValueError("no table loaded (send load first)")
    run = peer.prepare(variant)
    before = getattr(peer, "before", None)
    seconds, cpu = [], []
    data = None
    for _ in range(reps):
        if before:
            before()
        data = None
        data, w, c = timed_call(run)
        seconds.append(w)
        cpu.append(c)
    if data is None:
        data = peer.result()
    parts = data if isinstance(data, list) else [data]  # (Quiver's: the file's chunks)
    nbytes = sum(len(p) if not isinstance(p, pa.Buffer) else p.size for p in parts)
    if out:
        with open(out, "wb") as f:
            for p in parts:
                f.write(p)
    return {"seconds": seconds, "bytes": nbytes, "cpu_seconds": cpu}


def do_read(peer, path, reps):
    state = peer.read_setup(path)
    seconds, cpu, rows = [], [], None
    for _ in range(reps):
        rows, w, c = timed_call(lambda: peer.read(state))
        seconds.append(w)
        cpu.append(c)
    return {"seconds": seconds, "rows": rows, "cpu_seconds": cpu}


def startup(peer_name):
    pin = wb.pin_allocators()  # process jemalloc + Quiver's pool + pyarrow's pool
    peer = make_peer(peer_name)
    extra = peer.pin() if hasattr(peer, "pin") else None
    allocator = (f"jemalloc (LD_PRELOAD={wb.JEMALLOC_SONAME}, MALLOC_CONF={wb.MALLOC_PIN}) "
                 f"read back through mallctl; {pin}" + (f"; {extra}" if extra else ""))
    return peer, allocator


def serve(peer_name):
    peer, allocator = startup(peer_name)
    reply({"peer": peer_name, "version": peer.version, "allocator": allocator,
           "threads": THREADS})
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
                table = load_ipc(cmd["input"])
                peer.load(table)
                reply({"ok": True, "rows": table.num_rows, "columns": table.num_columns})
                del table  # the peer keeps what it needs
            elif op == "write":
                reply(do_write(peer, cmd["variant"], int(cmd.get("reps", 1)), cmd.get("out")))
            elif op == "read":
                reply(do_read(peer, cmd["file"], int(cmd.get("reps", 1))))
            elif op == "settings":
                settings, diffs = peer.settings(cmd["variant"])
                reply({"settings": settings, "differences": diffs})
            else:
                reply({"error": f"unknown command {op!r}"})
        except Unsupported as e:
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
                do_write(peer, v, 1, out)
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
