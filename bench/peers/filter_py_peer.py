#!/usr/bin/env python3
"""The Python arms of `make bench-filter` (bench/peers/PROTOCOL.md,
"Filtered reads"): one process per peer, speaking the `filter` command.

    filter_py_peer.py --peer quiver | pyarrow | pyarrow-mt | duckdb | duckdb-mt | polars | polars-mt

The process is bench/peers/py_peer.py's (imported: its allocator pins,
jemalloc for the process, Quiver's and pyarrow's pools, duckdb's and polars'
own jemallocs, one thread, or all cores for a -mt peer); this file adds the
`filter` command. pyarrow-mt is the pyarrow peer with pyarrow's CPU and I/O
pools back at the machine's cores.

Sources: the file is opened once per path with mmap (read-only, outside the
timing; the file lives on /dev/shm, so the mapping is the page cache's
memory and no read touches a disk). Quiver and pyarrow read that mapping as
an in-memory buffer (quiver.read_table(memoryview), pa.BufferReader);
polars is given the mapping's bytes as a memory source (scan_parquet takes
bytes; copied once into the process, outside the timing); duckdb reads the
path on /dev/shm (read_parquet takes paths only). Replies say which
("source").

duckdb's memory limit is set per file, outside the timing, to
max(4 GiB, 6x the file's size) (a large filtered read
of a compressed file must not fail for want of it); its replies say it
("memory_limit"; filter_cases.duckdb_memory_limit).
"""

import gc
import mmap
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # bench/
sys.path.insert(0, HERE)

FILTER_PEERS = ("quiver", "pyarrow", "pyarrow-mt", "duckdb", "duckdb-mt", "polars", "polars-mt")
# py_peer parses --peer itself: pyarrow-mt is its pyarrow peer.
_i = sys.argv.index("--peer") + 1 if "--peer" in sys.argv else None
NAME = os.environ.get("QUIVER_FILTER_PEER") or (
    sys.argv[_i] if _i is not None and _i < len(sys.argv) else None)
if NAME not in FILTER_PEERS:
    sys.exit(f"filter_py_peer: --peer one of {', '.join(FILTER_PEERS)}")
if NAME == "pyarrow-mt":
    # (py_peer's re-exec under jemalloc runs this argv again: the name stays
    # in the environment.)
    os.environ["QUIVER_FILTER_PEER"] = NAME
    sys.argv[_i] = "pyarrow"

import py_peer  # noqa: E402  (re-executes under jemalloc first, as every pinned peer)

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import filter_cases as fc  # noqa: E402
import quiver  # noqa: E402
import quiver.compute as qc  # noqa: E402

THREADS = (os.cpu_count() or 1) if NAME.endswith("-mt") else 1


def sql_literal(v):
    v = fc.python_value(v)
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    if hasattr(v, "isoformat"):
        return f"DATE '{v.isoformat()}'"
    return str(int(v))


def sql_where(pred):
    def term(t):
        return f'"{t[0]}" {"=" if t[1] == "==" else t[1]} {sql_literal(t[2])}'
    return " AND ".join("(" + " OR ".join(term(t) for t in c) + ")" for c in pred["and"])


def quiver_expression(pred):
    ops = {"<": lambda f, v: f < v, "<=": lambda f, v: f <= v, ">": lambda f, v: f > v,
           ">=": lambda f, v: f >= v, "==": lambda f, v: f == v}
    out = None
    for clause in pred["and"]:
        any_ = None
        for c, op, v in clause:
            e = ops[op](qc.field(c), fc.python_value(v))
            any_ = e if any_ is None else any_ | e
        out = any_ if out is None else out & any_
    return out


def polars_expression(pl, pred):
    out = None
    for clause in pred["and"]:
        any_ = None
        for c, op, v in clause:
            col, lit = pl.col(c), pl.lit(fc.python_value(v))
            e = {"<": col < lit, "<=": col <= lit, ">": col > lit, ">=": col >= lit,
                 "==": col == lit}[op]
            any_ = e if any_ is None else any_ | e
        out = any_ if out is None else out & any_
    return out


def filter_columns(pred):
    return list(dict.fromkeys(t[0] for c in pred["and"] for t in c))


class Sources:
    """The mapping of each file (kept while the path is the current one)."""

    def __init__(self):
        self.path = self.map = self.bytes = None

    def get(self, path, want_bytes=False):
        if path != self.path:
            self.map = self.bytes = None
            gc.collect()
            with open(path, "rb") as f:
                self.map = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
            self.path = path
        if want_bytes and self.bytes is None:
            self.bytes = bytes(self.map)
        return self.bytes if want_bytes else memoryview(self.map)


def prepare(peer, sources, cmd):
    """(call, source): the timed call of one filtered read (returns the
    result), with what it needs made here."""
    path, cols, pred = cmd["file"], list(cmd["columns"]), cmd["predicate"]
    mode = cmd.get("mode", "pushdown")
    use_threads = bool(cmd.get("use_threads", False))
    if NAME == "quiver":
        buf = sources.get(path)
        expr = quiver_expression(pred)
        if mode == "read_then_filter":
            need = list(dict.fromkeys(cols + filter_columns(pred)))

            def call():
                t = quiver.read_table(buf, columns=need, use_threads=use_threads).filter(expr)
                # quiver.Table has no select() yet: the filter's extra columns
                # are dropped on pyarrow's view of it (zero-copy, microseconds).
                return t if need == cols else pa.table(t).select(cols)
            return call, "mmap of /dev/shm (memory)"
        state = {}

        def call():
            f = quiver.ParquetFile(buf)
            try:
                t = f.read(columns=cols, use_threads=use_threads, filters=expr)
                state["read_stats"] = f.read_stats
            finally:
                f.close()
            return t
        call.state = state
        return call, "mmap of /dev/shm (memory)"
    if use_threads or mode != "pushdown":
        raise py_peer.Unsupported(f"{NAME}: use_threads/mode are the quiver peer's arms")
    if NAME.startswith("pyarrow"):
        buf = pa.py_buffer(sources.get(path))
        filters = fc.dnf(fc.Predicate("", 0, pred["and"]))
        mt = NAME.endswith("-mt")
        return (lambda: pq.read_table(pa.BufferReader(buf), columns=cols, filters=filters,
                                      use_threads=mt)), "mmap of /dev/shm (memory)"
    if NAME.startswith("duckdb"):
        con = peer.con
        limit = fc.duckdb_memory_limit(os.path.getsize(path))
        # (fetchall: duckdb refuses the next statement while a result is open.)
        con.execute(f"SET memory_limit = '{-(-limit // (1 << 20))}MiB'").fetchall()
        sql = (f"SELECT {', '.join(chr(34) + c + chr(34) for c in cols)} FROM "
               f"read_parquet('{path}') WHERE {sql_where(pred)}")
        call = lambda: con.sql(sql).to_arrow_table()  # noqa: E731
        call.state = {"memory_limit": con.execute(
            "SELECT current_setting('memory_limit')").fetchall()[0][0]}
        return call, "path on /dev/shm"
    if NAME.startswith("polars"):
        pl = peer.pl
        data = sources.get(path, want_bytes=True)
        expr = polars_expression(pl, pred)
        return (lambda: pl.scan_parquet(data).filter(expr).select(cols).collect()), \
            "bytes in memory (a copy of the mapping)"
    raise py_peer.Unsupported(f"unknown peer {NAME}")


def to_arrow(result):
    if isinstance(result, pa.Table):
        return result
    if hasattr(result, "to_arrow"):  # polars
        return result.to_arrow()
    return pa.table(result)  # quiver.Table (PyCapsule)


def do_filter(peer, sources, cmd):
    call, source = prepare(peer, sources, cmd)
    reps = int(cmd.get("reps", 1))
    seconds, rows = [], 0
    for _ in range(reps):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter_ns()
            result = call()
            t1 = time.perf_counter_ns()
        finally:
            gc.enable()
        seconds.append((t1 - t0) / 1e9)
        rows = result.num_rows if hasattr(result, "num_rows") else len(result)
        if cmd.get("out") and _ == reps - 1:
            py_peer.write_ipc(to_arrow(result), cmd["out"])
        del result
    out = {"seconds": seconds, "rows": rows, "source": source}
    st = getattr(call, "state", {})
    for key in ("read_stats", "memory_limit"):
        if key in st:
            out[key] = st[key]
    return out


def main():
    sources = Sources()

    def hello(peer, allocator):
        if NAME == "pyarrow-mt":
            pa.set_cpu_count(THREADS)
            pa.set_io_thread_count(THREADS)
            allocator += f"; pyarrow pools set back to {pa.cpu_count()} CPU threads"
        return NAME, allocator, THREADS

    py_peer.serve(py_peer.ARGS.peer, {"filter": lambda peer, cmd: do_filter(peer, sources, cmd)},
                  hello)


if __name__ == "__main__":
    main()
