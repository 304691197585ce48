#!/usr/bin/env python3
"""The Python arms of `make bench-compute` (bench/peers/PROTOCOL.md,
"Compute kernels"): quiver.compute and pyarrow.compute, one process each.

    compute_py_peer.py --peer quiver | pyarrow     server: one JSON command a line

Allocators as every pinned peer (bench/allocators.py): the process runs on
jemalloc with decay -1 (re-executed under LD_PRELOAD), Quiver's pool on it,
pyarrow on its own jemalloc pool with decay -1, and pyarrow on one CPU thread
and one I/O thread (pa.set_cpu_count(1), pa.set_io_thread_count(1)).

Inputs: the quiver peer reads the IPC file through Quiver's reader
(quiver.read_ipc) and calls the kernels with quiver.Array columns; the
pyarrow peer reads it with pyarrow.ipc and calls them with pyarrow.Array
columns: each library on its own arrays, as a user of it has them. Python
has no filter context in either library.
"""

import argparse
import gc
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # bench/

import allocators  # noqa: E402  (nothing heavy: the re-exec comes before the imports)

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--peer", required=True, choices=("quiver", "pyarrow"))
ARGS = ap.parse_args()
allocators.ensure_pinned_process()

import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402

import quiver  # noqa: E402
import quiver.compute as qc  # noqa: E402

# The protocol owns file descriptor 1; anything a library prints goes to stderr.
PROTO = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr


class Unsupported(Exception):
    pass


def load_columns(path, peer):
    """{name: pyarrow array} of the IPC file's one batch, read by `peer`'s
    library: for quiver through Quiver's reader (the arrays exported without
    a copy, so the buffers stay Quiver's)."""
    if peer == "quiver":
        table = pa.table(quiver.read_ipc(path))
    else:
        with pa.OSFile(path) as f:
            table = pa.ipc.open_file(f).read_all()
    return {n: table.column(n).chunk(0) for n in table.column_names}


def native(array, peer):
    """The array as the peer's library holds it (quiver.Array for quiver,
    imported without a copy)."""
    return quiver.array(array) if peer == "quiver" else array


def prepare(peer, name, cols, args):
    """The call (no arguments) of kernel `name`; what it needs besides the
    columns is made here, outside the timing."""
    lib = qc if peer == "quiver" else pc
    concat = quiver.concat_arrays if peer == "quiver" else pa.concat_arrays
    a = cols[0]
    b = cols[1] if len(cols) > 1 else None
    if name == "add":
        return lambda: lib.add(a, b)
    if name == "subtract":
        return lambda: lib.subtract(a, b)
    if name == "and":
        return lambda: lib.and_(a, b)
    if name == "or":
        return lambda: lib.or_(a, b)
    if name == "equal":
        return lambda: lib.equal(a, b)
    if name == "array_equals":
        return lambda: a.equals(b)
    if name == "concat":
        return lambda: concat([a, b])
    if name == "filter":
        return lambda: lib.filter(a, b)
    if name == "filter_context":
        raise Unsupported("no filter context in the Python API (quiver.compute and "
                          "pyarrow.compute both filter one array per call)")
    if name == "take":
        return lambda: lib.take(a, b)
    if name == "min":
        return lambda: lib.min(a)
    if name == "sum":
        return lambda: lib.sum(a)
    if name == "cast":
        to = pa.type_for_alias(args["to"])
        return lambda: lib.cast(a, to)
    if name in ("like", "not_like"):
        like, pattern = lib.match_like, args["pattern"]
        if name == "like":
            return lambda: like(a, pattern)
        return lambda: lib.invert(like(a, pattern))
    if name == "is_in":
        value_set = pa.array(args["value_set"], pa.int32())
        if peer == "quiver":
            value_set = quiver.array(value_set)
        is_in = lib.is_in
        return lambda: is_in(a, value_set=value_set)
    raise Unsupported(f"unknown kernel {name!r}")


def as_arrow(result):
    """The result as a pyarrow array (untimed; the gate's run): an aggregate
    (a scalar, or array_equals' bool) as one row of its Python value (the
    gate compares aggregates by value)."""
    if hasattr(result, "__arrow_c_array__"):
        return pa.array(result)
    return pa.array([result if isinstance(result, bool) else result.as_py()])


def run_kernel(cache, cmd):
    path = cmd["input"]
    if cache.get("path") != path:
        cache.clear()
        cache["columns"] = load_columns(path, ARGS.peer)
        cache["path"] = path
    cols = [cache["columns"][c] for c in cmd["columns"]]
    if cmd.get("empty"):
        cols = [c.slice(0, 0) for c in cols]
    cols = [native(c, ARGS.peer) for c in cols]
    fn = prepare(ARGS.peer, cmd["name"], cols, cmd.get("args") or {})
    reps, iters = int(cmd.get("reps", 1)), max(1, int(cmd.get("iters", 1)))
    seconds = []
    for _ in range(reps):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter_ns()
            for _ in range(iters):
                fn()
            t1 = time.perf_counter_ns()
        finally:
            gc.enable()
        seconds.append((t1 - t0) / 1e9 / iters)
    if cmd.get("out"):
        result = as_arrow(fn())
        batch = pa.record_batch([result], names=["result"])
        with pa.OSFile(cmd["out"], "wb") as f, pa.ipc.new_file(f, batch.schema) as w:
            w.write_batch(batch)
    return {"seconds": seconds, "iters": iters}


def main():
    pin = allocators.pin_allocators()
    if ARGS.peer == "quiver":
        version = (f"quiver {quiver.__version__} (quiver.compute; SIMD "
                   f"{qc.simd_levels().get('active')})")
    else:
        version = f"pyarrow {pa.__version__} (pyarrow.compute, Arrow C++ {pa.cpp_version})"
    mode = allocators.mode()
    allocator = (f"jemalloc (LD_PRELOAD={allocators.JEMALLOC_SONAME}, MALLOC_CONF="
                 f"{allocators.MALLOC_PIN}) read back through mallctl; {pin}"
                 if mode == "pinned" else pin)
    PROTO.write(json.dumps({"peer": ARGS.peer, "version": version, "allocator": allocator,
                            "allocator_mode": mode, "threads": 1}) + "\n")
    cache = {}
    for line in filter(str.strip, sys.stdin):
        reply = answer(line, cache)
        if reply is None:
            return
        PROTO.write(json.dumps(reply) + "\n")


def answer(line, cache):
    """The reply to one command line (None: quit). Errors are replies; the
    peer keeps serving."""
    try:
        cmd = json.loads(line)
        if cmd.get("cmd") == "quit":
            return None
        if cmd.get("cmd") != "kernel":
            raise ValueError(f"unknown command {cmd.get('cmd')!r}")
        return run_kernel(cache, cmd)
    except Unsupported as e:
        return {"error": str(e) if str(e).startswith("unsupported") else f"unsupported: {e}"}
    except Exception as e:  # noqa: BLE001 - reported to the driver
        return {"error": f"{type(e).__name__}: {e}"}


if __name__ == "__main__":
    main()
