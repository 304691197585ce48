#!/usr/bin/env python3
"""`make bench-peers`: Quiver's Parquet writer (and reader) against other
implementations, each a long-running peer process speaking the line protocol
of bench/peers/PROTOCOL.md.

Peers: pyarrow (Arrow C++), duckdb (COPY ... (FORMAT parquet), threads=1),
polars (write_parquet, one thread) (bench/peers/py_peer.py), arrow-rs and
arrow-go (bench/peers/arrow-rs, bench/peers/arrow-go; skipped, loudly, when
their binaries are missing). Multi-threaded arms quiver-mt (use_threads=True),
duckdb-mt, polars-mt run on the matrix's default variant and on TPC-H.

Sections (--sections):
  matrix  every writer-matrix group (bench/writer_bench.py build_group,
          1,048,576 rows) x variant (writer_bench.VARIANTS);
  cdc     CDC overhead in each writer that has CDC: the four ~64 MiB inputs
          of docs/benchmarks.md section 2 (bench/cdc_overhead.py
          make_inputs), each written with `default` and `cdc`. The chunker
          alone is not a peer case: no peer exposes its chunker (arrow-rs
          60.1.0 declares `pub(crate) mod chunker`; pyarrow has no binding
          for it; arrow-go v18.8.0 has no CDC). Quiver's chunker alone is
          bench/chunker_benchmark.cc (`make bench`);
  read    every peer reads the pyarrow-written file (bench/read_bench.py
          write_pyarrow) of each group, uncompressed and zstd;
  tpch    TPC-H lineitem (tpchgen-cli, scale factor 1) from an in-memory
          Arrow table: default, snappy, zstd, cdc_snappy, cdc_zstd, then the
          multi-threaded arms against their single-threaded selves.

Same input for every peer: each table is written once to an Arrow IPC file
under build/peers/inputs/ (cached) and `load`ed by every peer process before
any timing. Per case: a correctness gate (each peer writes the file once,
pyarrow reads it back and it must equal the input up to the type changes a
peer legitimately makes, which are listed; this write is also the first
untimed warm-up, followed by EXTRA_WARMUPS more), then --reps rounds; in round r the arms run in an order rotated by
r (r * arms / reps positions), each writing once. Arms: every peer, a
control arm (a second Quiver process), and in the matrix the layout arms
(quiver@polars, quiver@arrow-go: Quiver writing that peer's own page layout,
writer_bench.PEER_LAYOUTS, for the settings the peer cannot take; reported
beside the peer, and "q/fastest, layouts" counts such a peer against the
better of Quiver's two ways). Reported: medians; Quiver's median
divided by each peer's and by the fastest peer's; beside it the control's
spread (median control/Quiver and the per-round min..max); the order check
(Quiver/fastest in the rounds where Quiver ran before the fastest peer,
divided by the same in the rounds where it ran after). A case whose control
or order effect is off by more than --threshold (3%) is flagged and run again
(up to --max-repeats more times); the last attempt is reported, with the
number of attempts.

Output: <out-dir>/peers_<date>.md (tables, settings and differences per peer,
machine), .json (raw; .gitignore keeps it out of the repository), .png (ratios,
log scale, lines at 1.0 and 0.67).
Default out-dir bench/results; --quick writes to build/peers/results-quick.
The .md and .json are rewritten after every input, so a run that is stopped
leaves its finished cases.

A peer that does not answer a command within REPLY_TIMEOUT seconds per rep is
killed; a peer that dies (an out-of-memory kill, say) fails the case it was in
(or only its own arm, in the gate) and is started again, with the input
loaded, for the next case (at most MAX_RESTARTS times per set of processes).

Run through bench/peers/run.sh (builds the extension and the Rust/Go peers).
"""

import argparse
import datetime
import hashlib
import json
import math
import os
import platform
import queue
import shutil
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
import writer_bench as wb  # noqa: E402  (groups, variants, options, comparison)
import read_bench as rb  # noqa: E402  (the pyarrow-written read files)
import cdc_overhead  # noqa: E402  (the section-2 CDC inputs)

pa, pq = wb.pa, wb.pq

PY_PEERS = ("quiver", "quiver-mt", "pyarrow", "duckdb", "duckdb-mt", "polars", "polars-mt")
NATIVE_PEERS = {
    "arrow-rs": ("QUIVER_PEER_ARROW_RS", "build/peers/arrow-rs/release/quiver-peer-arrow-rs"),
    "arrow-go": ("QUIVER_PEER_ARROW_GO", "build/peers/arrow-go/quiver-peer-arrow-go"),
}
ST_PEERS = ("pyarrow", "duckdb", "polars", "arrow-rs", "arrow-go")
MT_ARMS = ("quiver-mt", "duckdb-mt", "polars-mt")
DEFAULT_PEERS = ST_PEERS + MT_ARMS
MAIN, CONTROL = "quiver", "control"
# Layout arms: Quiver (its main process) writing a peer's own page layout
# (writer_bench.PEER_LAYOUTS), beside that peer in the same rounds, for the
# peers that cannot take some matrix settings. Arm "quiver@<peer>".
LAYOUT_PEERS = tuple(wb.PEER_LAYOUTS)


def layout_arm(peer):
    return f"{MAIN}{wb.LAYOUT_SEP}{peer}"


def is_layout_arm(name):
    return name.startswith(MAIN + wb.LAYOUT_SEP)
MATRIX_VARIANTS = "default,bloom_filter,parquet_2,zstd,zstd_parquet_2,cdc"
TPCH_VARIANTS = "default,snappy,zstd,cdc_snappy,cdc_zstd"
# codec variant -> the same variant without the codec (the codec's share of a
# writer's time is (t_codec - t_none) / t_codec, same peer, same input).
CODEC_BASE = {"zstd": "default", "snappy": "default", "zstd_parquet_2": "parquet_2",
              "cdc_zstd": "cdc", "cdc_snappy": "cdc"}
# CDC variant -> the same writer without CDC (overhead = cdc / base - 1).
CDC_BASE = {"cdc": "default", "cdc_zstd": "zstd", "cdc_snappy": "snappy"}
SHM = "/dev/shm/quiver-peers"
# This run's gate and read files: a directory of its own, so that two runs at
# once do not read (or delete) each other's files.
RUN_SHM = os.path.join(SHM, f"run-{os.getpid()}")
# Peak resident memory of a peer process as a multiple of its input's size
# (decay off, so a process keeps its peak). TPC-H SF1 (1.0 GB in Arrow):
# Quiver 2.5, pyarrow 1.7, duckdb 6 (duckdb-mt was OOM-killed at 6.4), polars
# killed at 4.2 on a loaded machine. The string group (326 MB), measured
# after its default variant: polars-mt 8.9, polars 8.4, arrow-rs 6.7,
# pyarrow 5.7, quiver-mt 5.3, quiver 4.9 (duckdb was OOM-killed, and again
# at a factor of 8 on the parquet_2 variant). The factors are those peaks with
# a margin. Others: 6. Scaled by --mem-factor.
MEM_FACTOR = {"quiver": 5.5, "control": 5.5, "quiver-mt": 6.0, "pyarrow": 6.5,
              "duckdb": 12.0, "duckdb-mt": 13.0, "polars": 9.5, "polars-mt": 10.0,
              "arrow-rs": 7.5, "arrow-go": 6.0}
QUICK_ROWS = 1 << 14
# Seconds a peer may take to answer one command (per rep): past it the peer is
# killed and the case reports it (a stuck or thrashing peer must not stall the run).
REPLY_TIMEOUT = 600
# Times a peer that died is started again within one set of processes.
MAX_RESTARTS = 2


def log(*a):
    print(*a, flush=True)


# ---------------------------------------------------------------------------
# Peer processes.

class PeerDied(Exception):
    pass


class Peer:
    """One peer process (PROTOCOL.md): hello line, then a reply per command."""

    def __init__(self, arm, kind, argv, log_dir):
        self.arm, self.kind, self.argv = arm, kind, argv
        os.makedirs(log_dir, exist_ok=True)
        self.log_path = os.path.join(log_dir, f"{arm}.log")
        self.log = open(self.log_path, "a")
        self.log.write(f"\n=== {datetime.datetime.now().isoformat()} {' '.join(argv)}\n")
        self.log.flush()
        env = dict(os.environ)
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, bufsize=1, cwd=ROOT, env=env)
        self.hello = None
        # Replies are read by a thread into a queue, so that a reply is waited
        # for with a deadline and a peer that dies (an OOM kill leaves a zombie
        # whose pipe may stay open) is noticed by polling its status.
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _reply(self, what, timeout):
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=1.0)
            except queue.Empty:
                line = ""
                if self.proc.poll() is None:
                    if time.monotonic() < deadline:
                        continue
                    self.proc.kill()
                    self.proc.wait()
                    raise PeerDied(f"{self.arm}: no reply to {what} in {timeout:.0f} s: killed; "
                                   f"{self.tail()}")
            if not line:
                rc = self.proc.wait()
                raise PeerDied(f"{self.arm} exited with status {rc} on {what}"
                               + (" (allocator pin refused)" if rc == 2 else "")
                               + (" (killed: out of memory?)" if rc == -9 else "")
                               + f"; see {self.log_path}: {self.tail()}")
            return json.loads(line)

    def wait_hello(self):
        self.hello = self._reply("start-up (before its hello line)", REPLY_TIMEOUT)

    def tail(self, n=5):
        try:
            with open(self.log_path) as f:
                return " | ".join(f.read().strip().splitlines()[-n:])
        except OSError:
            return ""

    def call(self, **cmd):
        try:
            self.proc.stdin.write(json.dumps(cmd) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise PeerDied(f"{self.arm}: {e}; {self.tail()}") from None
        return self._reply(cmd.get("cmd"), REPLY_TIMEOUT * max(1, cmd.get("reps", 1)))

    def quit(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=60)
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def peer_argv(name, bins):
    """The command line of a peer process (`control` is a second quiver)."""
    base = "quiver" if name == CONTROL else name
    if base in PY_PEERS:
        return [sys.executable, os.path.join(HERE, "py_peer.py"), "--peer", base]
    return [bins[base]]


def native_binaries(args):
    """{name: path} of the Rust/Go peers that exist; says loudly which do not."""
    found = {}
    overrides = dict(item.split("=", 1) for item in args.peer_bin)
    for name, (env, default) in NATIVE_PEERS.items():
        path = overrides.get(name) or os.environ.get(env) or os.path.join(ROOT, default)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            found[name] = path
        else:
            log(f"\n!!! peer {name}: no binary at {path} -- running WITHOUT {name} "
                f"(build it with bench/peers/{name}/build.sh, or give --peer-bin {name}=PATH "
                f"or {env}=PATH)\n")
    return found


# ---------------------------------------------------------------------------
# Inputs (written once, cached under build/peers/inputs).

def source_stamp():
    h = hashlib.sha256()
    for p in ("writer_bench.py", "cdc_overhead.py"):
        with open(os.path.join(BENCH, p), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def write_ipc(table, path):
    """One record batch per file (PROTOCOL.md: the inputs are one batch)."""
    table = table.combine_chunks()
    tmp = path + ".tmp"
    with pa.OSFile(tmp, "wb") as f:
        with pa.ipc.new_file(f, table.schema) as w:
            batches = table.to_batches(max_chunksize=max(1, table.num_rows))
            for b in batches:
                w.write_batch(b)
    os.replace(tmp, path)


def read_ipc(path):
    """The input table, memory-mapped (the driver holds no copy of it)."""
    return pa.ipc.open_file(pa.memory_map(path)).read_all()


def mem_available():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 1 << 40


class Inputs:
    def __init__(self, root, quick):
        self.dir = os.path.join(root, "build/peers", "inputs-quick" if quick else "inputs")
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
        return self.cached(f"{g}.{rows}", lambda: wb.build_group(g, rows))

    def cdc(self, quick):
        """The section-2 inputs (a 1/32 slice of each in --quick)."""
        names = ["required_int64", "nullable_int64", "list_int32", "required_string"]
        paths = {n: os.path.join(self.dir, f"cdc_{n}.arrow") for n in names}
        if not all(os.path.exists(p) for p in paths.values()):
            tables = cdc_overhead.make_inputs()
            for n, t in tables.items():
                if quick:
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


# ---------------------------------------------------------------------------
# Correctness gate: pyarrow reads a peer's file; it must equal the input up
# to legitimate type changes.

def canon_type(t):
    if pa.types.is_dictionary(t):
        return canon_type(t.value_type)
    if pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return pa.string()
    if (pa.types.is_large_binary(t) or pa.types.is_binary_view(t)
            or pa.types.is_fixed_size_binary(t)):
        return pa.binary()
    if (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t)
            or pa.types.is_large_list_view(t)):
        return pa.list_(pa.field("item", canon_type(t.value_type), True))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(t.field(i).name, canon_type(t.field(i).type), True)
                          for i in range(t.num_fields)])
    if pa.types.is_date64(t):
        return pa.date32()
    return t


def canonical(table, types):
    cols = []
    for col, t in zip(table.columns, types):
        cols.append(col.cast(t) if col.type != t else col)
    return pa.table(cols, schema=pa.schema([pa.field(n, t, True)
                                            for n, t in zip(table.column_names, types)]))


def gate_compare(path, expected):
    """(ok, message, facts) for a peer's file against the input table; one
    column at a time (the TPC-H table is a gigabyte)."""
    facts = {}
    try:
        pf = pq.ParquetFile(path, memory_map=True)
        md = pf.metadata
        rg0 = md.row_group(0) if md.num_row_groups else None
        facts = {"bytes": os.path.getsize(path), "row_groups": md.num_row_groups,
                 "created_by": md.created_by,
                 "arrow_schema": bool(md.metadata and b"ARROW:schema" in md.metadata),
                 "page_index": bool(rg0 and rg0.num_columns and
                                    (rg0.column(0).has_offset_index
                                     or rg0.column(0).has_column_index))}
        schema = pf.schema_arrow
    except Exception as e:  # noqa: BLE001
        return False, f"pyarrow cannot read it: {type(e).__name__}: {e}", facts
    if schema.names != expected.column_names:
        return False, f"columns {schema.names} != {expected.column_names}", facts
    if md.num_rows != expected.num_rows:
        return False, f"{md.num_rows} rows, expected {expected.num_rows}", facts
    changes = [f"{f.name}: {e.type} -> {f.type}" for f, e in zip(schema, expected.schema)
               if f.type != e.type]
    facts["type_changes"] = changes
    for i, name in enumerate(expected.column_names):
        try:
            got = pf.read(columns=[name], use_threads=False)
        except Exception as e:  # noqa: BLE001
            return False, f"pyarrow cannot read column {name!r}: {type(e).__name__}: {e}", facts
        want = expected.select([i])
        types = [canon_type(want.schema[0].type)]
        try:
            a, b = canonical(got, types), canonical(want, types)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
            return False, (f"column {name!r}: type {got.schema[0].type} is not an allowed "
                           f"change of {want.schema[0].type}: {e}"), facts
        diff = wb.first_difference(a, b)
        del got, a, b
        if diff is not None:
            return False, diff, facts
    return True, "equal to the input" + (f" (types: {'; '.join(changes)})" if changes else ""), \
        facts


# ---------------------------------------------------------------------------
# Cases.

class Arm:
    def __init__(self, name, proc, variant=None, file=None):
        self.name, self.proc, self.variant, self.file = name, proc, variant, file
        self.status, self.message, self.facts, self.warmup = "ok", "", {}, None


class Case:
    def __init__(self, section, input_name, label, kind, arms, main=MAIN, fastest_pool=None):
        self.section, self.input, self.label, self.kind = section, input_name, label, kind
        self.arms = arms
        self.main = main
        # Arms among which "the fastest peer" is chosen.
        self.fastest_pool = fastest_pool

    @property
    def id(self):
        return f"{self.section}/{self.input}/{self.label}"


def write_arms(procs, variant, with_mt, layouts=False):
    arms = [Arm(MAIN, MAIN, variant), Arm(CONTROL, CONTROL, variant)]
    arms += [Arm(p, p, variant) for p in procs if p in ST_PEERS]
    if with_mt:
        arms += [Arm(p, p, variant) for p in procs if p in MT_ARMS]
    if layouts:  # in the same set of processes as its peer
        arms += [Arm(layout_arm(p), MAIN, f"{variant}{wb.LAYOUT_SEP}{p}")
                 for p in procs if p in LAYOUT_PEERS]
    return arms


def run_round(case, order, peers, results, dead=None):
    """One timed run of each arm in `order`. A peer other than Quiver's that
    dies is recorded in `dead` (arm name -> message) and left out from then
    on, so the case goes on without it; Quiver's death ends the case."""
    for arm in order:
        if dead is not None and arm.name in dead:
            continue
        p = peers[arm.proc]
        try:
            if arm.variant is not None and case.kind == "write":
                r = p.call(cmd="write", variant=arm.variant, reps=1, out=None)
            else:
                r = p.call(cmd="read", file=arm.file, reps=1)
        except PeerDied as e:
            if dead is None or arm.proc in (case.main, CONTROL):
                raise
            log(f"!!! {case.id}: {e}")
            for a in case.arms:  # every arm of that process
                if a.proc == arm.proc:
                    dead[a.name] = str(e)
            continue
        if "error" in r:
            raise RuntimeError(f"{arm.name}: {r['error']}")
        results[arm.name].append(r["seconds"][0])
        if "bytes" in r:
            results.setdefault("_bytes", {})[arm.name] = r["bytes"]


EXTRA_WARMUPS = 2  # untimed runs of each arm after the gate's, before timing


def gate(case, peers, expected, expected_rows):
    """Runs each arm once (the warm-up), checks the result; drops failing arms."""
    os.makedirs(os.path.join(RUN_SHM, "gate"), exist_ok=True)
    for arm in case.arms:
        p = peers.get(arm.proc)
        if p is None:
            arm.status, arm.message = "absent", "peer not running"
            continue
        try:
            if case.kind == "write":
                out = os.path.join(RUN_SHM, "gate", f"{arm.name}.parquet")
                if os.path.exists(out):
                    os.unlink(out)
                r = p.call(cmd="write", variant=arm.variant, reps=1, out=out)
            else:
                r = p.call(cmd="read", file=arm.file, reps=1)
            # More untimed runs: a memory pool takes a few runs to settle (pyarrow's
            # first three writes of the 326 MB string file: 1.7, 0.75, 0.48 s, then 0.33).
            if "error" not in r:
                if case.kind == "write":
                    p.call(cmd="write", variant=arm.variant, reps=EXTRA_WARMUPS, out=None)
                else:
                    p.call(cmd="read", file=arm.file, reps=EXTRA_WARMUPS)
        except PeerDied as e:
            log(f"!!! {case.id}: {e}")
            arm.status, arm.message = "died", str(e)
            continue
        if "error" in r:
            err = r["error"]
            arm.status = "unsupported" if err.startswith("unsupported") else "error"
            arm.message = err
            continue
        arm.warmup = r["seconds"][0]
        if case.kind == "write":
            ok, msg, facts = gate_compare(out, expected)
            os.unlink(out)
            arm.facts = facts
            arm.message = msg
            if not ok:
                arm.status = "FAIL"
        else:
            if r.get("rows") != expected_rows:
                arm.status, arm.message = "FAIL", f"read {r.get('rows')} rows, " \
                                                  f"expected {expected_rows}"
            else:
                arm.message = f"{expected_rows:,} rows"


def arrange(case, live):
    """Arm order for round 0: Quiver first, the likely fastest peer (by warm-up)
    in the middle, so the rotation runs that pair in both orders."""
    pool = [a for a in live if a.name in (case.fastest_pool or ()) and a.warmup is not None]
    rest = [a for a in live if a.name != case.main]
    main = [a for a in live if a.name == case.main]
    if not main:
        return live
    if pool:
        guess = min(pool, key=lambda a: a.warmup)
        rest.remove(guess)
        rest.insert(max(0, (len(live) // 2) - 1), guess)
    return main + rest


def rotations(n, reps):
    return [(r * n) // reps if reps <= n else r % n for r in range(reps)]


def summarize(case, times, orders, threshold):
    med = {a: statistics.median(v) for a, v in times.items() if v and not a.startswith("_")}
    s = {"median_s": med}
    if case.main not in med:
        return s
    q = med[case.main]
    s["ratio"] = {a: q / m for a, m in med.items()
                  if a not in (case.main, CONTROL) and not is_layout_arm(a)}
    pool = [a for a in (case.fastest_pool or ()) if a in med]
    if pool:
        fastest = min(pool, key=lambda a: med[a])
        s["fastest"] = fastest
        s["ratio_fastest"] = q / med[fastest]
    if CONTROL in med:
        per = [c / m for c, m in zip(times[CONTROL], times[case.main])]
        s["control"] = med[CONTROL] / q
        s["control_range"] = [min(per), max(per)]
    if "fastest" in s:
        f = s["fastest"]
        before, after = [], []
        for order, tq, tf in zip(orders, times[case.main], times[f]):
            (before if order.index(case.main) < order.index(f) else after).append(tq / tf)
        s["order_rounds"] = [len(before), len(after)]
        if before and after:
            s["order_before"] = statistics.median(before)
            s["order_after"] = statistics.median(after)
            s["order_effect"] = s["order_before"] / s["order_after"] - 1
    add_layouts(s)
    flags = []
    if "control" in s and abs(s["control"] - 1) > threshold:
        flags.append(f"control {s['control'] - 1:+.1%}")
    if "order_effect" in s and abs(s["order_effect"]) > threshold:
        flags.append(f"order {s['order_effect']:+.1%}")
    s["flags"] = flags
    return s


def add_layouts(s):
    """From a summary's medians: s["layout"][peer] = Quiver in the peer's layout
    / the peer (same set of processes, same rounds), and
    s["ratio_fastest_layouts"]: Quiver/fastest where each peer that has a
    layout arm counts against the better of Quiver's two ways to write it
    (the matrix settings, or the peer's layout)."""
    med, ratio = s["median_s"], s.get("ratio", {})
    s["layout"] = {p: med[layout_arm(p)] / med[p] for p in LAYOUT_PEERS
                   if layout_arm(p) in med and p in med}
    pool = [p for p in ST_PEERS if p in ratio]
    if pool and s["layout"]:
        s["ratio_fastest_layouts"] = max(min(ratio[p], s["layout"].get(p, ratio[p]))
                                         for p in pool)


def order_check(case, peers, fastest, reps):
    """The pair (Quiver, fastest) alone, in both orders, when the rotation did
    not run it both ways."""
    arms = {a.name: a for a in case.arms}
    pair = [arms[case.main], arms[fastest]]
    times = {case.main: [], fastest: []}
    orders = []
    for r in range(2 * max(2, reps // 2)):
        order = pair if r % 2 == 0 else pair[::-1]
        run_round(case, order, peers, times)
        orders.append([a.name for a in order])
    before = [q / f for o, q, f in zip(orders, times[case.main], times[fastest])
              if o.index(case.main) == 0]
    after = [q / f for o, q, f in zip(orders, times[case.main], times[fastest])
             if o.index(case.main) == 1]
    return statistics.median(before), statistics.median(after)


def run_case(case, peers, expected, expected_rows, args):
    t0 = time.perf_counter()
    gate(case, peers, expected, expected_rows)
    live = [a for a in case.arms if a.status == "ok"]
    # A layout arm goes with its peer (none for a variant the peer cannot do).
    names = {a.name for a in live}
    live = [a for a in live if not is_layout_arm(a.name)
            or a.name.split(wb.LAYOUT_SEP, 1)[1] in names]
    # CDC section: a peer's default arm goes with its cdc arm.
    if case.section == "cdc":
        names = {a.name for a in live}
        live = [a for a in live if not a.name.endswith(":default")
                or a.name[:-len(":default")] in names]
    record = {"id": case.id, "section": case.section, "input": case.input, "label": case.label,
              "kind": case.kind,
              "arms": {a.name: {"proc": a.proc, "variant": a.variant, "status": a.status,
                                "message": a.message, "facts": a.facts, "warmup_s": a.warmup}
                       for a in case.arms},
              "attempts": []}
    if not any(a.name == case.main for a in live):
        record["summary"] = {"flags": [f"quiver: {case.arms[0].status}"]}
        log(f"  {case.id}: quiver {case.arms[0].status}: {case.arms[0].message}")
        return record
    order0 = arrange(case, live)
    dead = {}
    for attempt in range(1 + args.max_repeats):
        order0 = [a for a in order0 if a.name not in dead]
        times = {a.name: [] for a in order0}
        orders = []
        for shift in rotations(len(order0), args.reps):
            order = order0[shift:] + order0[:shift]
            run_round(case, order, peers, times, dead)
            orders.append([a.name for a in order if a.name not in dead])
        for name, msg in dead.items():
            times.pop(name, None)
            record["arms"][name]["status"], record["arms"][name]["message"] = "died", msg
        orders = [[n for n in o if n not in dead] for o in orders]
        bytes_ = times.pop("_bytes", {})
        for name in dead:
            bytes_.pop(name, None)
        s = summarize(case, times, orders, args.threshold)
        if "fastest" in s and "order_effect" not in s:
            b, a = order_check(case, peers, s["fastest"], args.reps)
            s["order_before"], s["order_after"] = b, a
            s["order_effect"] = b / a - 1
            s["order_from"] = "pair run alone in both orders"
            if abs(s["order_effect"]) > args.threshold:
                s["flags"].append(f"order {s['order_effect']:+.1%}")
        record["attempts"].append({"times_s": times, "orders": orders, "bytes": bytes_,
                                   "summary": s})
        if not s["flags"]:
            break
        if attempt < args.max_repeats:
            log(f"  {case.id}: {', '.join(s['flags'])} -> repeating")
    record["summary"] = record["attempts"][-1]["summary"]
    record["bytes"] = record["attempts"][-1]["bytes"]
    record["repeated"] = len(record["attempts"]) - 1
    record["seconds_total"] = time.perf_counter() - t0
    print_case(record)
    return record


def print_case(rec):
    s = rec["summary"]
    if "median_s" not in s:
        return
    q = s["median_s"].get(MAIN)
    peers = " ".join(f"{a}={r:.2f}" for a, r in s.get("ratio", {}).items())
    ctl = (f"ctl {s['control']:.3f} [{s['control_range'][0]:.2f}..{s['control_range'][1]:.2f}]"
           if "control" in s else "")
    fast = (f"fastest {s['fastest']} {s['ratio_fastest']:.2f}" if "fastest" in s else "")
    order = f"order {s['order_effect']:+.1%}" if "order_effect" in s else ""
    lay = f" | layouts {layout_text(s)}" if s.get("layout") else ""
    log(f"  {rec['id']:52s} quiver {q * 1e3:9.1f} ms | {peers} | {fast}{lay} | {ctl} {order}"
        + (f" | FLAGGED {s['flags']}" if s["flags"] else "")
        + (f" (repeated {rec['repeated']}x)" if rec["repeated"] else ""))


# ---------------------------------------------------------------------------
# Sessions: a set of peer processes holding one input.

class Session:
    def __init__(self, procs, bins, args, registry):
        self.peers = {}
        self.bins, self.args, self.registry = bins, args, registry
        self.wanted = list(procs)
        self.restarts = {}
        self.cannot_load = set()
        self.path = None
        # Started together (start-up is imports: seconds each), then each hello read.
        started = {name: self._spawn(name) for name in procs}
        for name, p in started.items():
            self._hello(name, p)

    def _spawn(self, name):
        return Peer(name, "native" if name in NATIVE_PEERS else "python",
                    peer_argv(name, self.bins), self.args.log_dir)

    def _hello(self, name, p):
        try:
            p.wait_hello()
        except PeerDied as e:
            log(f"!!! {e}")
            self.registry.setdefault("_dead", {})[name] = str(e)
            p.quit()
            return False
        self.peers[name] = p
        key = "quiver" if name == CONTROL else name
        self.registry.setdefault(key, p.hello)
        return True

    def _load(self, name, p, path):
        try:
            r = p.call(cmd="load", input=path)
        except PeerDied as e:
            log(f"!!! {e}")
            del self.peers[name]
            return
        if "error" in r:
            # (A peer that cannot load the input is not started again for it.)
            log(f"!!! {name}: load {path}: {r['error']}")
            self.cannot_load.add(name)
            p.quit()
            del self.peers[name]

    def load(self, path):
        self.path = path
        for name, p in list(self.peers.items()):
            self._load(name, p, path)

    def revive(self):
        """Starts again (and loads the input into) each peer that died during a
        case, at most MAX_RESTARTS times each: the next cases still have it."""
        for name in self.wanted:
            p = self.peers.get(name)
            if p is not None and p.proc.poll() is None:
                continue
            if p is not None:
                p.quit()
                del self.peers[name]
            if self.restarts.get(name, 0) >= MAX_RESTARTS or name in self.cannot_load or \
                    name in self.registry.get("_dead", {}):
                continue
            self.restarts[name] = self.restarts.get(name, 0) + 1
            log(f"  restarting {name} (restart {self.restarts[name]} of {MAX_RESTARTS})")
            p = self._spawn(name)
            if self._hello(name, p) and self.path is not None:
                self._load(name, p, self.path)

    def settings(self, variants, store):
        for name, p in self.peers.items():
            if name == CONTROL:
                continue
            for v in variants:
                key = f"{name}|{v}"
                if key in store:
                    continue
                try:
                    store[key] = p.call(cmd="settings", variant=v)
                except PeerDied:
                    pass

    def close(self):
        for p in self.peers.values():
            p.quit()
        self.peers = {}


def run_cases(session, cases, expected, rows, args, out):
    for case in cases:
        try:
            out.append(run_case(case, session.peers, expected, rows, args))
        except (PeerDied, RuntimeError) as e:
            log(f"!!! {case.id}: {e}")
            out.append({"id": case.id, "section": case.section, "input": case.input,
                        "label": case.label, "kind": case.kind, "error": str(e),
                        "summary": {"flags": ["error"]}})
        session.revive()


def plan_parts(units, input_bytes, args):
    """Splits the peer units (lists of processes that must share a session: a
    peer and its multi-threaded arm) into sessions that fit in memory beside
    Quiver and the control: every process holds the whole input and what it
    writes, and with decay off keeps its peak (MEM_FACTOR)."""
    def need(procs):
        return args.mem_factor * input_bytes * sum(MEM_FACTOR.get(p, 6.0) for p in procs)
    budget = 0.8 * mem_available()
    parts, cur = [], []
    for u in units:
        if cur and need([MAIN, CONTROL] + cur + u) > budget:
            parts.append(cur)
            cur = []
        cur = cur + u
    if cur:
        parts.append(cur)
    if len(parts) > 1:
        log(f"  memory: {budget / 2**30:.1f} GiB available, about "
            f"{need([MAIN, CONTROL] + [p for u in units for p in u]) / 2**30:.1f} GiB needed: "
            f"the peers run in {len(parts)} sets of processes, each with its own Quiver and "
            f"control: {' | '.join(','.join(p) for p in parts)}")
    return parts


def merge_parts(recs):
    """One record for a case that ran in several sets of processes: each peer's
    ratio is to the Quiver of its own set; the fastest peer is the one with the
    largest ratio; control and order come from the fastest peer's set."""
    if len(recs) == 1:
        return recs[0]
    ok = [r for r in recs if "median_s" in r.get("summary", {})]
    if not ok:
        return recs[0]
    merged = dict(ok[0])
    merged["parts"] = recs
    merged["arms"] = {}
    for r in recs:
        for name, a in r.get("arms", {}).items():
            merged["arms"].setdefault(name, a)
    ratio, med, bytes_ = {}, {}, {}
    for r in ok:
        ratio.update(r["summary"].get("ratio", {}))
        for k, v in r["summary"]["median_s"].items():
            if k not in (MAIN, CONTROL):
                med[k] = v
        bytes_.update(r.get("bytes", {}))
    qs = [r["summary"]["median_s"][MAIN] for r in ok]
    med[MAIN] = statistics.median(qs)
    s = {"median_s": med, "ratio": ratio, "flags": [], "quiver_medians_by_part": qs}
    pool = [a for a in ST_PEERS if a in ratio]
    home = ok[0]
    if pool:
        fastest = max(pool, key=lambda a: ratio[a])
        s["fastest"], s["ratio_fastest"] = fastest, ratio[fastest]
        home = next(r for r in ok if fastest in r["summary"].get("ratio", {}))
    for k in ("control", "control_range", "order_effect", "order_before", "order_after",
              "order_rounds", "order_from"):
        if k in home["summary"]:
            s[k] = home["summary"][k]
    add_layouts(s)  # each layout arm and its peer ran in one set
    for r in ok:
        s["flags"] += [f for f in r["summary"].get("flags", []) if f not in s["flags"]]
    merged["summary"] = s
    merged["bytes"] = bytes_
    merged["repeated"] = max(r.get("repeated", 0) for r in recs)
    return merged


def run_in_parts(path, units, args, bins, registry, settings, results, make_cases, variants,
                 expected, load=True):
    by_id = {}
    order = []
    for part in plan_parts(units, expected.nbytes, args):
        session = Session([MAIN, CONTROL] + part, bins, args, registry)
        out = []
        try:
            if load:
                session.load(path)
                session.settings(variants, settings)
            run_cases(session, make_cases(session), expected, expected.num_rows, args, out)
        finally:
            session.close()
        for r in out:
            if r["id"] not in by_id:
                order.append(r["id"])
            by_id.setdefault(r["id"], []).append(r)
    for i in order:
        results.append(merge_parts(by_id[i]))
    if args.checkpoint:
        args.checkpoint()


def peer_units(procs, with_mt):
    """[[peer, peer-mt], ...]: a peer and its multi-threaded arm stay together."""
    units = []
    for p in procs:
        if p in ST_PEERS:
            units.append([p] + ([p + "-mt"] if with_mt and p + "-mt" in procs else []))
    if with_mt and "quiver-mt" in procs:
        units.insert(0, ["quiver-mt"])
    return units


def section_matrix(args, inputs, bins, procs, registry, settings, results, read_too):
    write = "matrix" in args.sections
    for g in args.groups:
        path = inputs.group(g, args.rows)
        expected = read_ipc(path)
        log(f"\n== {g}: {expected.num_rows:,} rows, {expected.nbytes / 1e6:,.1f} MB")
        read_files = {}
        if read_too:
            for codec in ("none", "zstd"):
                f = os.path.join(RUN_SHM, "read", f"{g}.{args.rows}.{codec}.parquet")
                os.makedirs(os.path.dirname(f), exist_ok=True)
                if not os.path.exists(f):
                    with open(f, "wb") as fh:
                        fh.write(rb.write_pyarrow(expected, codec))
                read_files[codec] = f

        def make_cases(session):
            cases = []
            if write:
                cases += [Case("matrix", g, v, "write",
                               write_arms(session.peers, v, with_mt=(v == "default"),
                                          layouts=args.layout_arms),
                               fastest_pool=ST_PEERS) for v in args.variants]
            for codec, f in read_files.items():
                arms = [Arm(MAIN, MAIN, file=f), Arm(CONTROL, CONTROL, file=f)]
                arms += [Arm(p, p, file=f) for p in session.peers if p in ST_PEERS]
                cases.append(Case("read", g, codec, "read", arms, fastest_pool=ST_PEERS))
            return cases
        run_in_parts(path, peer_units(procs, with_mt=write), args, bins, registry, settings,
                     results, make_cases, args.variants, expected, load=write)
        for f in read_files.values():
            os.unlink(f)
        del expected


def section_cdc(args, inputs, bins, procs, registry, settings, results):
    paths = inputs.cdc(args.quick)
    for name, path in paths.items():
        expected = read_ipc(path)
        log(f"\n== CDC input {name}: {expected.num_rows:,} rows, {expected.nbytes / 1e6:,.1f} MB")

        def make_cases(session):
            arms = [Arm(MAIN, MAIN, "cdc"), Arm(f"{MAIN}:default", MAIN, "default"),
                    Arm(CONTROL, CONTROL, "cdc")]
            for p in session.peers:
                if p in ST_PEERS:
                    arms += [Arm(p, p, "cdc"), Arm(f"{p}:default", p, "default")]
            return [Case("cdc", name, "cdc vs default", "write", arms, fastest_pool=ST_PEERS)]
        run_in_parts(path, peer_units(procs, with_mt=False), args, bins, registry, settings,
                     results, make_cases, ["default", "cdc"], expected)
        del expected


def section_tpch(args, inputs, bins, procs, registry, settings, results):
    path = inputs.tpch(args.tpch_sf)
    expected = read_ipc(path)
    name = f"lineitem_sf{args.tpch_sf:g}"
    log(f"\n== TPC-H {name}: {expected.num_rows:,} rows, {expected.num_columns} columns, "
        f"{expected.nbytes / 1e6:,.1f} MB")

    def st_cases(session):
        return [Case("tpch", name, v, "write", write_arms(session.peers, v, with_mt=False),
                     fastest_pool=ST_PEERS) for v in args.tpch_variants]
    run_in_parts(path, peer_units(procs, with_mt=False), args, bins, registry, settings,
                 results, st_cases, args.tpch_variants, expected)
    # The multi-threaded arms against their single-threaded selves, in their
    # own processes (every process holds the whole table).
    units = [u for u in peer_units(procs, with_mt=True) if any(p in MT_ARMS for p in u)]
    if units:
        def mt_cases(session):
            cases = []
            for v in args.tpch_variants:
                arms = [Arm(MAIN, MAIN, v), Arm(CONTROL, CONTROL, v)]
                arms += [Arm(p, p, v) for p in session.peers if p not in (MAIN, CONTROL)]
                cases.append(Case("tpch-mt", name, v, "write", arms, fastest_pool=ST_PEERS))
            return cases
        run_in_parts(path, units, args, bins, registry, settings, results, mt_cases,
                     args.tpch_variants, expected)
    del expected


# ---------------------------------------------------------------------------
# Report.

def machine():
    info = {"python": sys.version.split()[0], "kernel": platform.release()}
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            k, _, v = line.partition(":")
            if k.strip() in ("Model name", "CPU(s)", "Thread(s) per core"):
                info[k.strip()] = v.strip()
    except OSError:
        pass
    info["cores"] = os.cpu_count()
    try:
        with open("/proc/meminfo") as f:
            info["memory"] = f.readline().split(":")[1].strip()
    except OSError:
        pass
    try:
        info["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                        capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    return info


def fmt_ratio(x):
    return "" if x is None else f"{x:.2f}"


def cell(rec, arm):
    a = rec.get("arms", {}).get(arm)
    if a is None:
        return "-"
    if a["status"] == "unsupported":
        return "unsup"
    if a["status"] in ("FAIL", "error", "died"):
        return a["status"]
    r = rec["summary"].get("ratio", {}).get(arm)
    return fmt_ratio(r) if r is not None else "-"


def control_text(s):
    if "control" not in s:
        return ""
    return f"{s['control']:.3f} [{s['control_range'][0]:.2f}..{s['control_range'][1]:.2f}]"


def order_text(s):
    if "order_effect" not in s:
        return "n/a"
    return f"{s['order_effect']:+.1%}" + (" (pair)" if s.get("order_from") else "")


def flags_text(rec):
    s = rec.get("summary", {})
    out = list(s.get("flags", []))
    if rec.get("repeated"):
        out.append(f"repeated {rec['repeated']}x")
    for name, a in rec.get("arms", {}).items():
        if a["status"] in ("FAIL", "error", "died"):
            out.append(f"{name} {a['status']}")
    if rec.get("error"):
        out.append("error: " + rec["error"][:80])
    return "; ".join(out)


def layout_text(s):
    return ", ".join(f"{p} {r:.2f}" for p, r in s.get("layout", {}).items()) or "-"


def ratio_table(recs, peers, title_cols):
    layouts = any(r.get("summary", {}).get("layout") for r in recs)
    cols = title_cols + ["quiver ms"] + [f"q/{p}" for p in peers] + \
        ["fastest", "q/fastest"] + \
        (["q in the peer's layout / peer", "q/fastest, layouts"] if layouts else []) + \
        ["control [min..max]", "order", "flags"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for rec in recs:
        s = rec.get("summary", {})
        q = s.get("median_s", {}).get(MAIN)
        row = [rec["input"], rec["label"], f"{q * 1e3:.1f}" if q else "-"]
        row += [cell(rec, p) for p in peers]
        row += [s.get("fastest", "-"), fmt_ratio(s.get("ratio_fastest"))]
        if layouts:
            row += [layout_text(s), fmt_ratio(s.get("ratio_fastest_layouts",
                                                    s.get("ratio_fastest")))]
        row += [control_text(s), order_text(s), flags_text(rec)]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def mt_table(recs):
    lines = ["| input | variant | quiver ms | quiver-mt ms | quiver speedup | duckdb speedup | "
             "polars speedup | quiver-mt/duckdb-mt | quiver-mt/polars-mt | control | flags |",
             "|" + "---|" * 11]
    for rec in recs:
        s = rec.get("summary", {})
        m, r = s.get("median_s", {}), s.get("ratio", {})
        if not any(a in m for a in MT_ARMS):
            continue

        def sp(a, b):  # a peer against its own multi-threaded arm (same processes)
            return f"{m[a] / m[b]:.2f}x" if a in m and b in m else "-"

        # Quiver's arms through the ratios to the Quiver of their own set.
        q_sp = f"{r['quiver-mt']:.2f}x" if "quiver-mt" in r else "-"

        def rt(b):
            return f"{r[b] / r['quiver-mt']:.2f}" if b in r and "quiver-mt" in r else "-"
        q, qm = m.get(MAIN), m.get("quiver-mt")
        lines.append(f"| {rec['input']} | {rec['label']} | "
                     + (f"{q * 1e3:.1f} | " if q else "- | ")
                     + (f"{qm * 1e3:.1f} | " if qm else "- | ")
                     + f"{q_sp} | {sp('duckdb', 'duckdb-mt')} | {sp('polars', 'polars-mt')} | "
                     f"{rt('duckdb-mt')} | {rt('polars-mt')} | {control_text(s)} | "
                     f"{flags_text(rec)} |")
    return lines


def codec_share(results):
    """{(section, input, variant): {arm: share}} from the same peer's times."""
    by = {(r["section"], r["input"], r["label"]): r for r in results if "summary" in r}
    out = {}
    for (sec, inp, v), rec in by.items():
        base = CODEC_BASE.get(v)
        if base is None or (sec, inp, base) not in by:
            continue
        mc = rec["summary"].get("median_s", {})
        mn = by[(sec, inp, base)]["summary"].get("median_s", {})
        out[(sec, inp, v)] = {a: (mc[a] - mn[a]) / mc[a] for a in mc if a in mn and a != CONTROL}
    return out


def write_report(args, results, registry, settings, started, path_md, path_json, path_png):
    when = started.strftime("%Y-%m-%d %H:%M")
    mach = machine()
    arms_seen = [p for p in (MAIN,) + ST_PEERS if p in registry]
    st_peers = [p for p in ST_PEERS if p in registry]
    md = [f"# Quiver vs peers: Parquet write and read ({when})", ""]
    md.append(f"Machine: {mach.get('Model name', '?')}, {mach['cores']} cores, "
              f"{mach.get('memory', '?')} RAM, Linux {mach['kernel']}, Python {mach['python']}, "
              f"commit {mach.get('commit', '?')}. "
              f"{'QUICK smoke run (small inputs): the numbers mean nothing. ' if args.quick else ''}"
              f"Reps {args.reps} per arm per attempt (+1 untimed warm-up that is the correctness "
              f"gate, then {EXTRA_WARMUPS} more untimed); threshold {args.threshold:.0%}.")
    md.append("")
    md.append("Cells are Quiver's median time divided by the peer's (below 1: Quiver faster). "
              "control = second Quiver process / Quiver, median [per-round min..max]: a ratio "
              "inside that band is noise. order = (Quiver/fastest when Quiver ran first) / "
              "(... when it ran second) - 1. unsup = the peer cannot do the variant (see "
              "differences below); FAIL = its file did not read back equal to the input.")
    dead = registry.get("_dead", {})
    missing = [p for p in NATIVE_PEERS if p not in registry]
    if missing or dead:
        md.append("")
        md.append("**Peers missing from this run:** " + "; ".join(
            [f"{p} (no binary)" for p in missing if p not in dead]
            + [f"{p}: {e}" for p, e in dead.items()]))
    sections = [("matrix", "Writer matrix (group x variant)", ["group", "variant"]),
                ("cdc", "CDC inputs (docs/benchmarks.md section 2): Quiver with CDC vs each peer "
                        "with CDC", ["input", "case"]),
                ("read", "Reading the pyarrow-written file of each group", ["group", "codec"]),
                ("tpch", "TPC-H lineitem, in-memory Arrow table to Parquet", ["input", "variant"])]
    for sec, title, cols in sections:
        recs = [r for r in results if r["section"] == sec]
        if not recs:
            continue
        md += ["", f"## {title}", ""]
        md += ratio_table(recs, st_peers, cols)
        ratios = [r["summary"]["ratio_fastest"] for r in recs
                  if "ratio_fastest" in r.get("summary", {})]
        if ratios:
            md += ["", f"Median Quiver/fastest over {len(ratios)} cases: "
                       f"{statistics.median(ratios):.2f} (geometric mean "
                       f"{math.exp(statistics.mean(math.log(x) for x in ratios)):.2f}); "
                       f"{sum(x <= 1 for x in ratios)} of {len(ratios)} at or below 1."]
        if any("layout" in r.get("summary", {}) and r["summary"]["layout"] for r in recs):
            lr = [r["summary"].get("ratio_fastest_layouts", r["summary"]["ratio_fastest"])
                  for r in recs if "ratio_fastest" in r.get("summary", {})]
            md += ["", "Layout arms: `quiver@<peer>` is Quiver writing that peer's own page "
                       "layout (options over the variant's: " + "; ".join(
                           f"{p} `{json.dumps(o)}`" for p, o in wb.PEER_LAYOUTS.items()) +
                   "), in the same rounds as the peer, for the settings the peer cannot take "
                   "(its differences below). \"q/fastest, layouts\" counts each such peer "
                   "against the better of Quiver's two ways to write it: "
                   f"{sum(x <= 1 for x in lr)} of {len(lr)} at or below 1 "
                   f"(median {statistics.median(lr):.2f})."]
    mt_recs = [r for r in results if r["section"] in ("matrix", "tpch-mt")
               and r.get("label") in ("default",) + tuple(args.tpch_variants)]
    mt_lines = mt_table([r for r in mt_recs if r["section"] == "tpch-mt"
                         or r["label"] == "default"])
    if len(mt_lines) > 2:
        md += ["", f"## Multi-threaded writers ({mach['cores']} cores)", "",
               "speedup = the single-threaded arm's median / the multi-threaded arm's, same "
               "run; quiver-mt is quiver.write_parquet(use_threads=True).", ""]
        md += mt_lines
    cdc = [r for r in results if r["section"] == "cdc" and "median_s" in r.get("summary", {})]
    if cdc:
        md += ["", "## CDC overhead per writer (same run, interleaved)", "",
               "| input | writer | default ms | cdc ms | overhead | added ms | output MB "
               "(default / cdc) |", "|---|---|---|---|---|---|---|"]
        for r in cdc:
            m = r["summary"]["median_s"]
            b = r.get("bytes", {})
            for w in arms_seen:
                if w in m and f"{w}:default" in m:
                    d, c = m[f"{w}:default"], m[w]
                    md.append(f"| {r['input']} | {w} | {d * 1e3:.1f} | {c * 1e3:.1f} | "
                              f"{c / d - 1:+.1%} | {(c - d) * 1e3:.1f} | "
                              f"{b.get(w + ':default', 0) / 1e6:.1f} / {b.get(w, 0) / 1e6:.1f} |")
    by = {(r["section"], r["input"], r["label"]): r for r in results
          if r["section"] in ("matrix", "tpch") and "median_s" in r.get("summary", {})}
    cdc_rows = [(sec, inp, v, CDC_BASE[v]) for (sec, inp, v) in by
                if v in CDC_BASE and (sec, inp, CDC_BASE[v]) in by]
    if cdc_rows:
        md += ["", "## CDC overhead per writer in the matrix and TPC-H (cdc / the same variant "
                   "without CDC - 1; added ms in brackets; the two cases ran one after the other)",
               "", "| case | " + " | ".join(arms_seen) + " |",
               "|" + "---|" * (len(arms_seen) + 1)]
        for sec, inp, v, base in cdc_rows:
            m = by[(sec, inp, v)]["summary"]["median_s"]
            mb = by[(sec, inp, base)]["summary"]["median_s"]
            md.append(f"| {sec} {inp} {v} vs {base} | " + " | ".join(
                f"{m[w] / mb[w] - 1:+.1%} ({(m[w] - mb[w]) * 1e3:+.1f})" if w in m and w in mb
                else "-" for w in arms_seen) + " |")
    shares = codec_share(results)
    if shares:
        md += ["", "## The codec's share of each writer's time", "",
               "(t_codec - t_none) / t_codec, the same peer's medians; t_none from the same "
               "input's variant without the codec (" +
               ", ".join(f"{k} vs {v}" for k, v in CODEC_BASE.items()) + ").", "",
               "| case | " + " | ".join(arms_seen) + " |", "|" + "---|" * (len(arms_seen) + 1)]
        for (sec, inp, v), sh in shares.items():
            md.append(f"| {sec} {inp} {v} | " + " | ".join(
                f"{sh[w]:.0%}" if w in sh else "-" for w in arms_seen) + " |")
    writes = [r for r in results if r.get("kind") == "write" and r.get("bytes")]
    if writes:
        size_arms = arms_seen + [layout_arm(p) for p in LAYOUT_PEERS
                                 if any(layout_arm(p) in r["bytes"] for r in writes)]
        md += ["", "## Output size (MB)", "", "| case | " + " | ".join(size_arms) + " |",
               "|" + "---|" * (len(size_arms) + 1)]
        for r in writes:
            b = r["bytes"]
            md.append(f"| {r['section']} {r['input']} {r['label']} | " + " | ".join(
                f"{b[w] / 1e6:.2f}" if w in b else "-" for w in size_arms) + " |")
    # Gate notes: type changes and file facts per peer (first case that has them).
    md += ["", "## Peers: versions, allocator pin, settings and differences", ""]
    for name in [MAIN] + [p for p in ST_PEERS + MT_ARMS if p in registry]:
        h = registry.get(name)
        if not h:
            continue
        md += [f"### {name}", "", f"- version: {h.get('version')}; threads: {h.get('threads')}",
               f"- allocator: {h.get('allocator')}"]
        s = settings.get(f"{name}|default") or next(
            (v for k, v in settings.items() if k.startswith(name + "|")), None)
        if s and "settings" in s:
            md.append(f"- settings (default variant): `{json.dumps(s['settings'])}`")
        per_variant = {k.split("|", 1)[1]: v for k, v in settings.items()
                       if k.startswith(name + "|")}
        unsup = sorted({f"{v}: {r['error']}" for v, r in per_variant.items() if "error" in r})
        diffs = []
        for r in per_variant.values():
            for d in r.get("differences", []):
                if d not in diffs:
                    diffs.append(d)
        if diffs:
            md.append("- cannot match:")
            md += [f"  - {d}" for d in diffs]
        if unsup:
            md.append("- variants it cannot do:")
            md += [f"  - {u}" for u in unsup]
        changes, facts = set(), None
        for r in results:
            a = r.get("arms", {}).get(name)
            if a and a.get("facts"):
                changes.update(a["facts"].get("type_changes", []))
                facts = facts or a["facts"]
        if facts:
            md.append(f"- its files (first case): ARROW:schema "
                      f"{'yes' if facts.get('arrow_schema') else 'no'}, page index "
                      f"{'yes' if facts.get('page_index') else 'no'}, created_by "
                      f"`{facts.get('created_by')}`")
        if changes:
            md.append("- types as pyarrow reads its files back (allowed by the gate): "
                      + "; ".join(sorted(changes)))
        md.append("")
    md += ["## Machine", "", "```", json.dumps(mach, indent=1), "```", "",
           f"Command: `{' '.join(sys.argv)}`", ""]
    with open(path_md, "w") as f:
        f.write("\n".join(md))
    with open(path_json, "w") as f:
        json.dump({"date": started.isoformat(), "machine": mach,
                   "args": {k: v for k, v in vars(args).items() if k != "checkpoint"},
                   "peers": registry, "settings": settings, "results": results}, f, indent=1)
    if path_png:
        plot(results, st_peers, path_png, when, mach)


def plot(results, peers, path, when, mach):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing: no plot (scripts/install-deps.sh python-bench)")
        return
    order = ("matrix", "cdc", "read", "tpch")
    recs = sorted([r for r in results if "ratio" in r.get("summary", {})
                   and r["section"] in order], key=lambda r: order.index(r["section"]))
    if not recs:
        return
    colors = {"pyarrow": "tab:blue", "duckdb": "tab:orange", "polars": "tab:green",
              "arrow-rs": "tab:red", "arrow-go": "tab:purple"}
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.22 * len(recs)))
    ys = list(range(len(recs)))[::-1]
    for y, r in zip(ys, recs):
        s = r["summary"]
        for p in peers:
            if p in s["ratio"]:
                ax.plot(s["ratio"][p], y, "o", ms=4, color=colors.get(p, "gray"), alpha=0.7)
        if "ratio_fastest" in s:
            ax.plot(s["ratio_fastest"], y, "D", ms=6, color="black")
    for p in peers:
        ax.plot([], [], "o", color=colors.get(p, "gray"), label=f"quiver / {p}")
    ax.plot([], [], "D", color="black", label="quiver / fastest peer")
    ax.axvline(1.0, color="black", lw=1)
    ax.axvline(0.67, color="gray", lw=1, ls="--")
    ax.set_xscale("log")
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{r['section']} {r['input']} {r['label']}" for r in recs], fontsize=6)
    ax.set_xlabel("Quiver time / peer time (log; < 1: Quiver faster; dashed 0.67)")
    ax.set_title(f"Quiver vs peers, {when}, {mach.get('Model name', '')} "
                 f"({mach['cores']} cores)", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def update_readme(path_md, when, mach, results):
    """The README's peer summary, between its markers."""
    readme = os.path.join(ROOT, "README.md")
    begin, end = "<!-- bench-peers:begin -->", "<!-- bench-peers:end -->"
    with open(readme) as f:
        text = f.read()
    if begin not in text or end not in text:
        return
    lines = [begin, "",
             f"Latest `make bench-peers` ({when}; {mach.get('Model name', '?')}, "
             f"{mach['cores']} cores, Linux {mach['kernel']}; full tables in "
             f"[{os.path.relpath(path_md, ROOT)}]({os.path.relpath(path_md, ROOT)})): "
             "median of Quiver's time divided by each peer's, per section.", "",
             "| section | cases | " + " | ".join(f"q/{p}" for p in ST_PEERS) +
             " | q/fastest | cases <= 1 | cases <= 1, layouts |",
             "|" + "---|" * (len(ST_PEERS) + 5)]
    for sec in ("matrix", "cdc", "read", "tpch"):
        recs = [r for r in results if r["section"] == sec and "ratio" in r.get("summary", {})]
        if not recs:
            continue

        def med(key):
            xs = [r["summary"]["ratio"][key] for r in recs if key in r["summary"]["ratio"]]
            return f"{statistics.median(xs):.2f}" if xs else "-"
        fx = [r["summary"]["ratio_fastest"] for r in recs if "ratio_fastest" in r["summary"]]
        lx = [r["summary"].get("ratio_fastest_layouts", r["summary"]["ratio_fastest"])
              for r in recs if "ratio_fastest" in r["summary"]]
        has_layouts = any("ratio_fastest_layouts" in r["summary"] for r in recs)
        lines.append(f"| {sec} | {len(recs)} | " + " | ".join(med(p) for p in ST_PEERS)
                     + (f" | {statistics.median(fx):.2f} | {sum(x <= 1 for x in fx)} | "
                        if fx else " | - | - | ")
                     + (f"{sum(x <= 1 for x in lx)} |" if has_layouts else "- |"))
    lines += ["", "\"layouts\": each of polars and arrow-go against the better of Quiver's two "
              "ways to write its case, the matrix settings or that peer's own page layout "
              "(layout arms, in the same rounds; see the full tables).", end]
    text = text[:text.index(begin)] + "\n".join(lines) + text[text.index(end) + len(end):]
    with open(readme, "w") as f:
        f.write(text)
    log(f"README.md: peer summary updated")


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sections", default="matrix,cdc,read,tpch")
    ap.add_argument("--groups", default="all", help="writer-matrix groups (default all)")
    ap.add_argument("--variants", default=MATRIX_VARIANTS, help="matrix variants")
    ap.add_argument("--tpch-variants", default=TPCH_VARIANTS)
    ap.add_argument("--peers", default=",".join(DEFAULT_PEERS),
                    help="peers and multi-threaded arms besides quiver and its control "
                         f"(default {','.join(DEFAULT_PEERS)})")
    ap.add_argument("--reps", type=int, default=None,
                    help="rounds per case (default 5; 3 with --quick)")
    ap.add_argument("--quick", action="store_true",
                    help=f"smoke test: {QUICK_ROWS:,} rows a group, 1/32 of the CDC inputs, "
                         "TPC-H scale factor 0.01; results to build/peers/results-quick")
    ap.add_argument("--rows", type=int, default=None)
    ap.add_argument("--tpch-sf", type=float, default=None)
    ap.add_argument("--threshold", type=float, default=0.03)
    ap.add_argument("--mem-factor", type=float, default=1.0,
                    help="scales the memory estimates (MEM_FACTOR) by which the peers are "
                         "split into sets of processes that fit in memory (default 1)")
    ap.add_argument("--max-repeats", type=int, default=None,
                    help="repeats of a flagged case (default 1; 0 with --quick)")
    ap.add_argument("--no-layout-arms", dest="layout_arms", action="store_false",
                    help="matrix cases without the layout arms (Quiver writing polars' and "
                         "arrow-go's own page layouts beside them: writer_bench.PEER_LAYOUTS)")
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--peer-bin", action="append", default=[], metavar="NAME=PATH",
                    help="binary of a native peer (arrow-rs, arrow-go)")
    ap.add_argument("--update-readme", action="store_true",
                    help="write the summary into README.md (done anyway by a full run with the "
                         "default sections, groups, variants and sizes)")
    args = ap.parse_args()
    args.sections = args.sections.split(",")
    args.groups = wb.GROUPS if args.groups == "all" else args.groups.split(",")
    args.variants = args.variants.split(",")
    args.tpch_variants = args.tpch_variants.split(",")
    for v in args.variants + args.tpch_variants:
        if v not in wb.ALL_VARIANTS:
            ap.error(f"unknown variant {v!r} (writer_bench.ALL_VARIANTS: {', '.join(wb.ALL_VARIANTS)})")
    for g in args.groups:
        if g not in wb.GROUPS:
            ap.error(f"unknown group {g!r}")
    args.rows = args.rows or (QUICK_ROWS if args.quick else wb.FULL_ROWS)
    if args.reps is None:
        args.reps = 3 if args.quick else 5
    if args.max_repeats is None:
        args.max_repeats = 0 if args.quick else 1
    args.tpch_sf = args.tpch_sf or (0.01 if args.quick else 1.0)
    args.out_dir = args.out_dir or os.path.join(
        ROOT, "build/peers/results-quick" if args.quick else "bench/results")
    args.log_dir = os.path.join(ROOT, "build/peers/logs")
    started = datetime.datetime.now()

    bins = native_binaries(args)
    wanted = args.peers.split(",")
    procs = []
    for p in wanted:
        if p in NATIVE_PEERS and p not in bins:
            continue
        if p not in PY_PEERS and p not in NATIVE_PEERS:
            ap.error(f"unknown peer {p!r}")
        if p != MAIN:
            procs.append(p)

    # Files a killed DuckDB peer or a killed run left on /dev/shm (tmpfs: memory).
    if os.path.isdir(SHM):
        for name in os.listdir(SHM):
            pid = name.split("-")[-1].split(".")[0]
            if not pid.isdigit() or os.path.exists(f"/proc/{pid}"):
                continue
            if name.startswith("duckdb-"):
                os.unlink(os.path.join(SHM, name))
            elif name.startswith("run-"):
                shutil.rmtree(os.path.join(SHM, name), ignore_errors=True)
    inputs = Inputs(ROOT, args.quick)
    registry, settings, results = {}, {}, []
    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, f"peers_{started.strftime('%Y-%m-%d')}")

    def checkpoint():
        """The report so far (no plot), after each input: a run that is stopped
        or dies still leaves its finished cases."""
        write_report(args, results, registry, settings, started, stem + ".md", stem + ".json",
                     None)
    args.checkpoint = checkpoint
    log(f"bench-peers: sections {','.join(args.sections)}; {len(args.groups)} groups x "
        f"{len(args.variants)} variants at {args.rows:,} rows; peers quiver (+control), "
        f"{', '.join(procs)}; {args.reps} rounds a case")
    t0 = time.perf_counter()
    if "matrix" in args.sections or "read" in args.sections:
        section_matrix(args, inputs, bins, procs, registry, settings, results,
                       read_too="read" in args.sections)
    if "cdc" in args.sections:
        section_cdc(args, inputs, bins, procs, registry, settings, results)
    if "tpch" in args.sections:
        section_tpch(args, inputs, bins, procs, registry, settings, results)
    shutil.rmtree(RUN_SHM, ignore_errors=True)

    args.checkpoint = None
    write_report(args, results, registry, settings, started, stem + ".md", stem + ".json",
                 stem + ".png")
    log(f"\nbench-peers: done in {time.perf_counter() - t0:.0f} s; {stem}.md, .json, .png")
    full_default = (not args.quick and args.sections == ["matrix", "cdc", "read", "tpch"]
                    and args.groups == wb.GROUPS and args.rows == wb.FULL_ROWS
                    and args.variants == MATRIX_VARIANTS.split(",")
                    and args.tpch_sf == 1.0 and args.reps >= 5)
    if (args.update_readme or full_default) and not args.quick:
        update_readme(stem + ".md", started.strftime("%Y-%m-%d"), machine(), results)
    # A peer whose file does not read back equal is reported (FAIL in the
    # tables: duckdb's v2-page files, for one, do not read in pyarrow:
    # "Unexpected end of stream: InitBlock EOF"); Quiver's failing fails the run.
    fails = [(r["id"], name) for r in results for name, a in r.get("arms", {}).items()
             if a["status"] == "FAIL"]
    peer_fails = [f"{i} ({n})" for i, n in fails if a_proc(n) != MAIN]
    ours = [f"{i} ({n})" for i, n in fails if a_proc(n) == MAIN]
    if peer_fails:
        log("bench-peers: peers' files that failed the correctness gate: " + ", ".join(peer_fails))
    if ours:
        log("bench-peers: Quiver's files FAILED the correctness gate in: " + ", ".join(ours))
        sys.exit(1)


def a_proc(arm_name):
    """The process behind an arm name ('quiver:default' -> quiver; control
    and quiver-mt are Quiver too)."""
    base = arm_name.split(":")[0]
    return MAIN if base in (MAIN, CONTROL, "quiver-mt") else base


if __name__ == "__main__":
    main()
