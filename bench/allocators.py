"""Allocators of the Python benchmark processes (docs/benchmarks.md, "Rules
of measurement"), in two modes chosen by QUIVER_PEER_ALLOCATOR:

  pinned   (default) jemalloc is the process allocator and Quiver's pool,
           with dirty/muzzy decay -1, asserted through mallctl before any
           timing; pyarrow on its own jemalloc pool with decay -1. Any other
           MALLOC_CONF in the environment is refused (exit status 2).
  shipped  every library with the allocator it ships with, as a user gets
           it: the process's glibc malloc, Quiver's default pool (the one a
           plain `import quiver` picks with QUIVER_MEMORY_POOL unset),
           pyarrow's default pool with its default decay. Any allocator
           variable in the environment (SHIPPED_REFUSED) is refused: the run
           would not be "as shipped".

Both modes run pyarrow on one CPU thread and one I/O thread (threads are a
setting of the comparison, not of the allocator).

Debian's libjemalloc.so.2 cannot be dlopen'ed into a running Python
("cannot allocate memory in static TLS block"), so Quiver's jemalloc pool is
only available when jemalloc is the process allocator: a pinned process
re-executes itself once with LD_PRELOAD=libjemalloc.so.2 and MALLOC_CONF set
to the pin (jemalloc reads MALLOC_CONF at its first allocation, at
interpreter start-up; a C extension cannot compile malloc_conf in), and
pin_allocators() reads the result back through mallctl.
"""

import ctypes
import io
import os
import sys

MALLOC_PIN = "dirty_decay_ms:-1,muzzy_decay_ms:-1"
JEMALLOC_SONAME = "libjemalloc.so.2"
MODE_VAR = "QUIVER_PEER_ALLOCATOR"
MODES = ("pinned", "shipped")
# Variables that change an allocator of one of the peers: a shipped run
# starts its processes without them (bench/peers/run.py) and refuses them.
SHIPPED_REFUSED = ("MALLOC_CONF", "LD_PRELOAD", "QUIVER_MEMORY_POOL", "ARROW_DEFAULT_MEMORY_POOL",
                   "DUCKDB_JE_MALLOC_CONF", "_RJEM_MALLOC_CONF", "MIMALLOC_PURGE_DELAY")


def mode():
    m = os.environ.get(MODE_VAR, "pinned")
    if m not in MODES:
        refuse(f"{MODE_VAR}={m!r} (expected one of {', '.join(MODES)})")
    return m


def refuse(why):
    print(f"{os.path.basename(sys.argv[0])}: refusing to run: {why}\n"
          f"  MALLOC_CONF in the environment: {os.environ.get('MALLOC_CONF', '(unset)')}\n"
          f"  pinned runs use {MALLOC_PIN} (docs/benchmarks.md, Rules of measurement); "
          f"shipped runs ({MODE_VAR}=shipped) no allocator variable at all.", file=sys.stderr)
    sys.exit(2)


def ensure_pinned_process():
    """Re-executes this script under jemalloc with the decay pin (once); in
    shipped mode, checks that no allocator variable is set instead."""
    if mode() == "shipped":
        present = [v for v in SHIPPED_REFUSED if os.environ.get(v)]
        if present:
            refuse(f"shipped allocators, but {', '.join(present)} set in the environment")
        return
    if os.environ.get("QUIVER_WRITER_BENCH_CHILD") == "1":
        return
    if os.environ.get("MALLOC_CONF", MALLOC_PIN) != MALLOC_PIN:
        refuse("MALLOC_CONF overrides the pinned decay settings")
    env = dict(os.environ, MALLOC_CONF=MALLOC_PIN, QUIVER_WRITER_BENCH_CHILD="1")
    # numpy's OpenBLAS threads spin after numpy calls (seen in perf profiles
    # of these scripts); on a 2-core machine they steal time from the arms.
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    preload = env.get("LD_PRELOAD", "")
    if JEMALLOC_SONAME not in preload.split():
        env["LD_PRELOAD"] = (JEMALLOC_SONAME + " " + preload).strip()
    sys.stdout.flush()
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


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


def one_thread_pyarrow():
    import pyarrow as pa
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    return f"cpu_count {pa.cpu_count()}, io_thread_count {pa.io_thread_count()}"


def first_quiver_allocation():
    """The default pool is chosen at the first allocation: write a tiny file
    (into memory, untimed) so that memory_pool_backend() names it."""
    import pyarrow as pa
    import quiver
    quiver.write_parquet(pa.table({"x": [1]}), io.BytesIO())
    return quiver.memory_pool_backend()


def pin_allocators():
    """Pinned mode: returns a line describing the pin; refuses (exit 2) if it
    does not hold. Shipped mode: describes the allocators as they are."""
    import pyarrow as pa
    if mode() == "shipped":
        backend = first_quiver_allocation()
        threads = one_thread_pyarrow()
        return (f"SHIPPED allocators: process malloc as started (glibc, no LD_PRELOAD); "
                f"Quiver pool {backend} (its default, QUIVER_MEMORY_POOL unset); pyarrow "
                f"{pa.__version__} pool {pa.default_memory_pool().backend_name} (its default, "
                f"default decay); {threads}")
    backend = first_quiver_allocation()
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
    # pyarrow: its jemalloc pool, decay off.
    pa.set_memory_pool(pa.jemalloc_memory_pool())
    pa.jemalloc_set_decay_ms(-1)
    threads = one_thread_pyarrow()
    return (f"Quiver pool {backend} ({values}); pyarrow {pa.__version__} pool "
            f"{pa.default_memory_pool().backend_name} (decay -1), {threads}")
