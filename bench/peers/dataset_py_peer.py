#!/usr/bin/env python3
"""The Python arms of the dataset section (bench/peers/dataset_run.py): one
process per peer, speaking bench/peers/PROTOCOL.md's hello line, `settings`
and `quit`, and these commands (one JSON line each way):

- {"cmd": "dsread", "root": DIR or S3 prefix, "s3": null | {"endpoint",
  "bucket", "key", "secret", "region"}, "columns": [...], "filters":
  [[col, op, value], ...] (one conjunction; dataset_cases.py), "use_threads":
  false, "reps": R, "out": null | PATH.arrow}: R timed reads; reply
  {"seconds": [...], "rows": N, "source": "..."} (+ Quiver's read_stats,
  files_pruned included). `out`: the last result as an IPC file (the gate).
- {"cmd": "dsload", "input": PATH.arrow} / {"cmd": "dsunload"}: hold (drop)
  the table the writes write.
- {"cmd": "dswrite", "dir": DIR, "partition_cols": [...], "compression":
  "snappy", "row_group_size": N, "use_threads": false, "reps": R, "out": null
  | PATH}: R timed writes into DIR (absent before each); reply {"seconds":
  [...], "bytes": N, "files": N}. `out`: the last dataset left at PATH.d and
  the list of its files at PATH (the gate).
- {"cmd": "dssettings"}: {"differences": [...]} (the report's).
use_threads (Quiver's multi-threaded arm) and S3 on duckdb reply
"unsupported: ...".

    dataset_py_peer.py --peer quiver | pyarrow | pyarrow-mt | duckdb | duckdb-mt | polars | polars-mt

The process is bench/peers/py_peer.py's (imported: its allocator pins,
jemalloc for the process, Quiver's and pyarrow's pools, duckdb's and
polars' own jemallocs, one thread, or all cores for a -mt peer).

Reads (timed: from the dataset's root to the result table, discovery
included; a filesystem object is made once per root, outside the timing):
  quiver   quiver.ParquetDataset(root, filesystem=fs).read(columns=, filters=DNF,
           use_threads=) (fs: None locally, s3fs.S3FileSystem(endpoint_url=...,
           use_listings_cache=False) on S3)
  pyarrow  pyarrow.dataset.dataset(root, format="parquet", partitioning="hive",
           filesystem=fs).to_table(columns=, filter=expression, use_threads=)
           (fs: None locally, pyarrow.fs.S3FileSystem(endpoint_override=..., scheme="http"))
  duckdb   SELECT cols FROM read_parquet('root/**/*.parquet', hive_partitioning=true)
           WHERE ... then .to_arrow_table() (local only: its S3 extension is
           downloaded at run time)
  polars   pl.scan_parquet('root/**/*.parquet', hive_partitioning=True,
           storage_options=...).filter(expr).select(cols).collect()
Writes (timed: the call writing the loaded table to a directory that does
not exist yet, on /dev/shm; removed after each repetition, outside the
timing): quiver.write_to_dataset, pq.write_to_dataset, duckdb COPY ... TO
(PARTITION_BY ...), polars DataFrame.write_parquet(partition_by=), all
snappy with row groups of up to 1 << 20 rows.
"""

import gc
import json
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # bench/
sys.path.insert(0, HERE)

DATASET_PEERS = ("quiver", "pyarrow", "pyarrow-mt", "duckdb", "duckdb-mt", "polars", "polars-mt")
_i = sys.argv.index("--peer") + 1 if "--peer" in sys.argv else None
NAME = sys.argv[_i] if _i is not None and _i < len(sys.argv) else None
if NAME not in DATASET_PEERS:
    sys.exit(f"dataset_py_peer: --peer one of {', '.join(DATASET_PEERS)}")

import py_peer  # noqa: E402  (re-executes under jemalloc first, as every pinned peer)

import pyarrow as pa  # noqa: E402
import pyarrow.dataset as ds  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import dataset_cases as dc  # noqa: E402
import quiver  # noqa: E402

MT = NAME.endswith("-mt")
BASE = NAME[:-3] if MT else NAME
THREADS = (os.cpu_count() or 1) if MT else 1
DIFFERENCES = {
    "quiver": ["write_to_dataset writes each file through a temporary file, fsynced and "
               "renamed (write_parquet's default); the peers do not fsync"],
    "pyarrow": [],
    "duckdb": ["reads the local directory only (its S3 extension is downloaded at run time)",
               "hive key `year` read as BIGINT (duckdb's autocast)"],
    "polars": ["hive key `year` read as Int64; writes the partition keys into the files too "
               "where its writer does"],
}


class State:
    def __init__(self):
        self.table = None  # pyarrow table (pyarrow, duckdb) / quiver table / polars frame
        self.fs = {}  # (kind, endpoint) -> filesystem object


STATE = State()


def s3_filesystem(kind, s3):
    key = (kind, s3["endpoint"])
    if key not in STATE.fs:
        if kind == "s3fs":
            import s3fs

            STATE.fs[key] = s3fs.S3FileSystem(
                key=s3["key"], secret=s3["secret"], skip_instance_cache=True,
                use_listings_cache=False,
                client_kwargs={"endpoint_url": s3["endpoint"], "region_name": s3["region"]})
        else:
            import pyarrow.fs as pafs

            host = s3["endpoint"].split("://", 1)[1]
            STATE.fs[key] = pafs.S3FileSystem(access_key=s3["key"], secret_key=s3["secret"],
                                              region=s3["region"], endpoint_override=host,
                                              scheme="http")
    return STATE.fs[key]


def polars_storage(s3):
    return {"aws_access_key_id": s3["key"], "aws_secret_access_key": s3["secret"],
            "aws_region": s3["region"], "aws_endpoint_url": s3["endpoint"],
            "aws_allow_http": "true"}


def prepare_read(peer, cmd):
    """(call, source): the timed call of one dataset read."""
    root, cols, terms, s3 = cmd["root"], list(cmd["columns"]), cmd["filters"], cmd.get("s3")
    use_threads = bool(cmd.get("use_threads", False))
    if use_threads and BASE != "quiver":
        raise py_peer.Unsupported(f"{NAME}: use_threads is the quiver peer's arm (the -mt "
                                  f"peers run on every core)")
    if BASE == "quiver":
        fs = s3_filesystem("s3fs", s3) if s3 else None
        path = f"{s3['bucket']}/{root}" if s3 else root
        filters = dc.dnf(terms)
        state = {}

        def call():
            d = quiver.ParquetDataset(path, filesystem=fs)
            t = d.read(columns=cols, filters=filters, use_threads=use_threads)
            state["read_stats"] = d.read_stats
            return t
        call.state = state
        return call, ("s3fs.S3FileSystem (use_listings_cache=False)" if s3 else
                      "directory on /dev/shm")
    if BASE == "pyarrow":
        fs = s3_filesystem("pyarrow", s3) if s3 else None
        path = f"{s3['bucket']}/{root}" if s3 else root
        expr = dc.pyarrow_expression(terms)
        return (lambda: ds.dataset(path, format="parquet", partitioning="hive", filesystem=fs)
                .to_table(columns=cols, filter=expr, use_threads=MT)), \
            ("pyarrow.fs.S3FileSystem (endpoint_override)" if s3 else "directory on /dev/shm")
    if BASE == "duckdb":
        if s3:
            raise py_peer.Unsupported("duckdb reads S3 through its httpfs extension, which it "
                                      "downloads at run time: local directory only")
        con = peer.con
        sql = (f"SELECT {', '.join(chr(34) + c + chr(34) for c in cols)} FROM "
               f"read_parquet('{root}/**/*.parquet', hive_partitioning=true) "
               f"WHERE {dc.sql_where(terms)}")
        return (lambda: con.sql(sql).to_arrow_table()), "directory on /dev/shm"
    if BASE == "polars":
        pl = peer.pl
        expr = dc.polars_expression(pl, terms)
        if s3:
            src = f"s3://{s3['bucket']}/{root}/**/*.parquet"
            opts = polars_storage(s3)
            return (lambda: pl.scan_parquet(src, hive_partitioning=True, storage_options=opts)
                    .filter(expr).select(cols).collect()), "storage_options (object_store)"
        src = f"{root}/**/*.parquet"
        return (lambda: pl.scan_parquet(src, hive_partitioning=True).filter(expr)
                .select(cols).collect()), "directory on /dev/shm"
    raise py_peer.Unsupported(f"unknown peer {NAME}")


def to_arrow(result):
    if isinstance(result, pa.Table):
        return result
    if hasattr(result, "to_arrow"):  # polars
        return result.to_arrow()
    return pa.table(result)  # quiver.Table (PyCapsule)


def timed(call):
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter_ns()
        result = call()
        t1 = time.perf_counter_ns()
    finally:
        gc.enable()
    return result, (t1 - t0) / 1e9


def do_read(peer, cmd):
    call, source = prepare_read(peer, cmd)
    seconds, rows = [], 0
    reps = int(cmd.get("reps", 1))
    for i in range(reps):
        result, s = timed(call)
        seconds.append(s)
        rows = result.num_rows if hasattr(result, "num_rows") else len(result)
        if cmd.get("out") and i == reps - 1:
            py_peer.write_ipc(to_arrow(result), cmd["out"])
        del result
    out = {"seconds": seconds, "rows": rows, "source": source}
    st = getattr(call, "state", {})
    if "read_stats" in st:
        out["read_stats"] = st["read_stats"]
    return out


def do_load(peer, cmd):
    do_unload(peer, cmd)
    table = py_peer.load_ipc(cmd["input"])
    rows = table.num_rows
    if BASE == "quiver":
        STATE.table = quiver.table(table)
    elif BASE == "polars":
        STATE.table = peer.pl.from_arrow(table, rechunk=True)
    elif BASE == "duckdb":
        STATE.table = table
        peer.con.register("ds_input", table)
    else:
        STATE.table = table
    del table
    gc.collect()
    return {"ok": True, "rows": rows}


def do_unload(peer, cmd):
    if BASE == "duckdb" and STATE.table is not None:
        peer.con.unregister("ds_input")
    STATE.table = None
    gc.collect()
    return {"ok": True}


def prepare_write(peer, cmd):
    """The timed call writing the loaded table to directory `d`."""
    if STATE.table is None:
        raise ValueError("no table loaded (send dsload first)")
    parts = list(cmd.get("partition_cols", dc.PARTITION_COLS))
    codec, rg = cmd.get("compression", dc.CODEC), int(cmd.get("row_group_size",
                                                              dc.WRITE_ROW_GROUP))
    use_threads = bool(cmd.get("use_threads", False))
    if use_threads and BASE != "quiver":
        raise py_peer.Unsupported(f"{NAME}: use_threads is the quiver peer's arm")
    t = STATE.table
    if BASE == "quiver":
        return lambda d: quiver.write_to_dataset(t, d, partition_cols=parts, compression=codec,
                                                 row_group_size=rg, use_threads=use_threads)
    if BASE == "pyarrow":
        return lambda d: pq.write_to_dataset(t, d, partition_cols=parts, compression=codec,
                                             row_group_size=rg, min_rows_per_group=rg,
                                             use_threads=MT)
    if BASE == "duckdb":
        con = peer.con
        by = ", ".join(f'"{c}"' for c in parts)
        return lambda d: con.execute(
            f"COPY (SELECT * FROM ds_input) TO '{d}' (FORMAT parquet, PARTITION_BY ({by}), "
            f"COMPRESSION {codec}, ROW_GROUP_SIZE {rg})").fetchall()
    if BASE == "polars":
        return lambda d: t.write_parquet(d, partition_by=parts, compression=codec,
                                         row_group_size=rg)
    raise py_peer.Unsupported(f"unknown peer {NAME}")


def do_write(peer, cmd):
    call = prepare_write(peer, cmd)
    base = cmd["dir"]
    reps = int(cmd.get("reps", 1))
    seconds, nbytes, files = [], 0, 0
    for i in range(reps):
        shutil.rmtree(base, ignore_errors=True)
        _, s = timed(lambda: call(base))
        seconds.append(s)
        written = dc.dataset_files(base)
        files = len(written)
        nbytes = sum(os.path.getsize(os.path.join(base, f)) for f in written)
        if cmd.get("out") and i == reps - 1:
            # The gate's copy: the directory at OUT.d, OUT a list of its files.
            shutil.rmtree(cmd["out"] + ".d", ignore_errors=True)
            os.replace(base, cmd["out"] + ".d")
            with open(cmd["out"], "w") as f:
                json.dump(written, f)
        else:
            shutil.rmtree(base, ignore_errors=True)
    return {"seconds": seconds, "bytes": nbytes, "files": files}


def do_settings(peer, cmd):
    return {"settings": {"peer": NAME, "threads": THREADS},
            "differences": DIFFERENCES.get(BASE, [])}


def main():
    def hello(peer, allocator):
        return NAME, allocator, THREADS

    py_peer.serve(NAME, {"dsread": do_read, "dswrite": do_write, "dsload": do_load,
                         "dsunload": do_unload, "dssettings": do_settings}, hello)


if __name__ == "__main__":
    main()
