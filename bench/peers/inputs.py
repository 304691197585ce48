"""The peer harness's inputs: each table written once to an Arrow IPC file
(one record batch) under build/peers/inputs/, cached across runs (the writer
matrix's groups are rebuilt when bench/writer_matrix.py or
bench/cdc_overhead.py change), and `load`ed by every peer process before any
timing: the same input for every peer (bench/peers/PROTOCOL.md)."""

import hashlib
import os
import shutil
import subprocess
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
import writer_matrix as wm  # noqa: E402

CDC_INPUTS = ("required_int64", "nullable_int64", "list_int32", "required_string")


def log(*a):
    print(*a, flush=True)


def source_stamp():
    h = hashlib.sha256()
    for p in ("writer_matrix.py", "cdc_overhead.py"):
        with open(os.path.join(BENCH, p), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def write_ipc(table, path):
    """One record batch per file (PROTOCOL.md: the inputs are one batch)."""
    table = table.combine_chunks()
    tmp = path + ".tmp"
    with pa.OSFile(tmp, "wb") as f:
        with pa.ipc.new_file(f, table.schema) as w:
            for b in table.to_batches(max_chunksize=max(1, table.num_rows)):
                w.write_batch(b)
    os.replace(tmp, path)


def read_ipc(path):
    """A table memory-mapped from an IPC file (the driver holds no copy of it)."""
    return pa.ipc.open_file(pa.memory_map(path)).read_all()


class Inputs:
    def __init__(self, quick):
        self.dir = os.path.join(ROOT, "build/peers", "inputs-quick" if quick else "inputs")
        self.quick = quick
        os.makedirs(self.dir, exist_ok=True)
        stamp = os.path.join(self.dir, "generators.stamp")
        want = source_stamp()
        have = open(stamp).read().strip() if os.path.exists(stamp) else None
        if have != want:
            for name in os.listdir(self.dir):
                if name.endswith(".arrow") and not name.startswith("tpch_"):
                    os.unlink(os.path.join(self.dir, name))
            with open(stamp, "w") as f:
                f.write(want + "\n")

    def cached(self, name, make):
        path = os.path.join(self.dir, name + ".arrow")
        if not os.path.exists(path):
            t0 = time.perf_counter()
            table = make()
            write_ipc(table, path)
            log(f"  input {name}: {table.num_rows:,} rows, {table.nbytes / 1e6:,.1f} MB "
                f"({time.perf_counter() - t0:.1f} s) -> {os.path.relpath(path, ROOT)}")
        return path

    def group(self, g, rows):
        return self.cached(f"{g}.{rows}", lambda: wm.build_group(g, rows))

    def cdc(self):
        """The section-2 inputs (a 1/32 slice of each in --quick)."""
        paths = {n: os.path.join(self.dir, f"cdc_{n}.arrow") for n in CDC_INPUTS}
        if not all(os.path.exists(p) for p in paths.values()):
            import cdc_overhead  # (imports quiver: only when the inputs are made)
            tables = cdc_overhead.make_inputs()
            for n, t in tables.items():
                if self.quick:
                    t = t.slice(0, t.num_rows // 32)
                write_ipc(t, paths[n])
                log(f"  input cdc_{n}: {t.num_rows:,} rows, {t.nbytes / 1e6:,.1f} MB")
        return paths

    def tpch(self, sf):
        name = f"tpch_lineitem_sf{sf:g}"
        path = os.path.join(self.dir, name + ".arrow")
        if os.path.exists(path):
            return path
        exe = shutil.which("tpchgen-cli", path=os.path.dirname(sys.executable) + os.pathsep
                           + os.environ.get("PATH", ""))
        if exe is None:
            raise RuntimeError("tpchgen-cli not found (python/requirements-bench.txt installs "
                               "it into .venv: scripts/install-deps.sh python-bench)")
        tmp = os.path.join(self.dir, "tpch-tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        t0 = time.perf_counter()
        subprocess.run([exe, "parquet", "-s", f"{sf:g}", "-T", "lineitem", "-c", "UNCOMPRESSED",
                        "-o", tmp, "--no-progress", "-q"], check=True)
        table = pq.read_table(os.path.join(tmp, "lineitem.parquet"))
        # One Arrow schema every peer takes: string_view as string, no field ids.
        fields = [pa.field(f.name, pa.string() if pa.types.is_string_view(f.type) else f.type,
                           f.nullable) for f in table.schema]
        table = table.cast(pa.schema(fields))
        write_ipc(table, path)
        shutil.rmtree(tmp, ignore_errors=True)
        log(f"  input {name}: {table.num_rows:,} rows, {table.num_columns} columns, "
            f"{table.nbytes / 1e6:,.1f} MB (tpchgen-cli, {time.perf_counter() - t0:.0f} s)")
        return path
