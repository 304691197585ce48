#!/usr/bin/env python3
"""`make bench-peers`: Quiver's Parquet writer (and reader) against other
implementations, each a long-running peer process speaking the line protocol
of bench/peers/PROTOCOL.md.

Peers: pyarrow (Arrow C++), duckdb (COPY ... (FORMAT parquet), threads=1),
polars (write_parquet, one thread) (bench/peers/py_peer.py), arrow-rs built
twice (default target and -C target-cpu=native: both reported, the faster
counts) and arrow-go (bench/peers/arrow-rs, bench/peers/arrow-go; skipped,
loudly, when their binaries are missing). Multi-threaded arms: quiver-mt
(use_threads=True, in Quiver's own process), duckdb-mt and polars-mt, on the
matrix's default variant of every group (and quiver-mt on TPC-H); in the
read section, the sink `read-mt` (below).

Sinks (bench/sinks.py, PROTOCOL.md): `file`, every writer creates a file on
/dev/shm with its normal API and defaults (the headline; Quiver's temporary
file, fsync and rename included: Quiver fsyncs, the peers do not), and
`mem`, every writer ends with one contiguous buffer the caller owns (duckdb
has none: absent, and the table says why).

Sections (--sections):
  matrix   every writer-matrix group (writer_matrix.build_group, 1,048,576
           rows) x variant (writer_matrix.MATRIX_VARIANTS, the seven of
           docs/benchmarks.md), both sinks;
  shipped  every group at the default variant again, file sink, every peer
           with the allocator it ships with (QUIVER_PEER_ALLOCATOR=shipped,
           fresh processes), beside the pinned run;
  cdc      CDC overhead in each writer that has CDC: the four ~64 MiB inputs
           of docs/benchmarks.md section 2 (bench/cdc_overhead.py
           make_inputs), each written with `default` and `cdc`;
  read     every peer reads the pyarrow-written file (read_bench.write_pyarrow)
           of each group, uncompressed and zstd; the gate compares each
           peer's decoded values with pyarrow's reading. Two sinks: `read`,
           one thread everywhere (Quiver read_table(use_threads=False),
           pyarrow use_threads=False, duckdb threads=1, polars
           POLARS_MAX_THREADS=1, arrow-rs, arrow-go on one thread), and
           `read-mt`, Quiver use_threads=True (and its control) against
           pyarrow's default (pyarrow-mt: use_threads=True, pools at every
           core), duckdb-mt and polars-mt on every core; arrow-rs and
           arrow-go read on one thread only: "n/a" in that table, and said
           among the differences;
  tpch     TPC-H lineitem (tpchgen-cli, scale factor 1) from an in-memory
           Arrow table into a file: snappy, zstd, cdc_snappy, cdc_zstd
           (docs/benchmarks.md section 4), and Quiver's use_threads arm.

Each case: a correctness gate (bench/peers/gate.py), warm-ups, then rounds
until the stopping rule of bench/peers/schedule.py (RULE, printed in every
report) says it is measured, or its deadline has passed. Same input for
every peer: each table is written once to an Arrow IPC file under
build/peers/inputs/ (cached) and `load`ed by every peer process before any
timing. Every pinned peer is first checked to refuse its allocator override
(peer_process.pin_selftest).

Time budget (--budget-minutes, 57 by default, from run.sh's start): it
binds (bench/peers/budget.py). Planned from the newest full run in
bench/results (--reference; estimate.Reference), each input gets a share
of the time left and each case a deadline; a case past it ends with the
round in progress (at least 2 rounds) and is flagged, a ratio it had not
decided reported "undecided". The same reference's measured peaks plan the
sessions of processes that fit in memory.

Output: <out-dir>/peers_<date>_<commit>[_partial].md (every case, with its
interval), .json.gz (raw: every round of every arm), .png; the README block
between <!-- bench-peers:begin --> and <!-- bench-peers:end --> is written by
a full run (or --update-readme). Default out-dir bench/results; --quick
writes to build/peers/results-quick. The .md and .json.gz are rewritten after
every input, so a run that is stopped leaves its finished cases. The run's
wall time is printed at the end (and per section).

Run through bench/peers/run.sh (builds the extension and the Rust/Go peers).
"""

import argparse
import datetime
import math
import os
import shutil
import subprocess
import sys
import time
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
sys.path.insert(0, HERE)
import writer_matrix as wm  # noqa: E402
import budget  # noqa: E402
import estimate  # noqa: E402
import gate  # noqa: E402
import merge  # noqa: E402
import report  # noqa: E402
import schedule  # noqa: E402
from inputs import CDC_INPUTS, Inputs, read_ipc  # noqa: E402
from peer_process import (CONTROL, MAIN, NATIVE_PEERS, PY_PEERS, PeerDied, Session,  # noqa: E402
                          log, native_binaries, pin_selftest, plan_parts)
from schedule import MT_ARM, ST_PEERS, Arm, Case  # noqa: E402

import pyarrow.parquet as pq  # noqa: E402

MT_PEERS = ("duckdb-mt", "polars-mt")
# The read section's multi-threaded peers (sink read-mt); pyarrow-mt only reads.
READ_MT_PEERS = ("pyarrow-mt", "duckdb-mt", "polars-mt")
READ_MT = "read-mt"
DEFAULT_PEERS = ST_PEERS + ("pyarrow-mt",) + MT_PEERS
MATRIX_VARIANTS = ",".join(wm.MATRIX_VARIANTS)
# docs/benchmarks.md section 4: snappy and zstd, with and without CDC.
TPCH_VARIANTS = "snappy,zstd,cdc_snappy,cdc_zstd"
SECTIONS = "matrix,shipped,cdc,read,tpch"
LAYOUT_PEERS = tuple(wm.PEER_LAYOUTS)
SHM = "/dev/shm/quiver-peers"
# This run's files: a directory of its own, so that two runs at once do not
# read (or delete) each other's files.
RUN_SHM = os.path.join(SHM, f"run-{os.getpid()}")
QUICK_ROWS = 1 << 14
# --quick's groups (a smoke test of every code path: flat, boolean, an Arrow
# dictionary, nested lists of structs, fixed-size binary).
QUICK_GROUPS = ("primitive", "bool", "string_dictionary", "list_struct_with_list", "fsb")
READ_CODECS = ("none", "zstd")


# ---------------------------------------------------------------------------
# Arms.

def write_arms(peers, variant, sinks, mt=False, layouts=False, first_part=True):
    """The arms of a write case: per sink Quiver, its control, every peer of
    this session; on the default variant the use_threads arm (first session
    only: it runs in Quiver's process) and the peers' -mt arms; the layout
    arms (Quiver in a peer's own page layout) beside their peer."""
    arms = []
    for sink in sinks:
        arms += [Arm(MAIN, sink, MAIN, "main", variant),
                 Arm(CONTROL, sink, CONTROL, "control", variant)]
        arms += [Arm(p, sink, p, "peer", variant) for p in ST_PEERS if p in peers]
        if mt:
            if first_part:
                arms.append(Arm(MT_ARM, sink, MAIN, "mt", variant, use_threads=True))
            arms += [Arm(p, sink, p, "follower", variant, leader=p[:-3])
                     for p in MT_PEERS if p in peers]
        if layouts:
            arms += [Arm(f"{MAIN}{wm.LAYOUT_SEP}{p}", sink, MAIN, "layout",
                         f"{variant}{wm.LAYOUT_SEP}{p}", leader=p)
                     for p in LAYOUT_PEERS if p in peers]
    return arms


def read_arms(peers, path):
    """Sink `read`: every arm on one thread (Quiver use_threads=False).
    Sink `read-mt`: Quiver and its control with use_threads=True against the
    -mt peers (arrow-rs and arrow-go have no multi-threaded read: n/a)."""
    arms = [Arm(MAIN, "read", MAIN, "main", file=path),
            Arm(CONTROL, "read", CONTROL, "control", file=path)]
    arms += [Arm(p, "read", p, "peer", file=path) for p in ST_PEERS if p in peers]
    if any(p in peers for p in READ_MT_PEERS):
        arms += [Arm(MAIN, READ_MT, MAIN, "main", file=path, use_threads=True),
                 Arm(CONTROL, READ_MT, CONTROL, "control", file=path, use_threads=True)]
        arms += [Arm(p, READ_MT, p, "peer", file=path) for p in READ_MT_PEERS if p in peers]
    return arms


def peer_units(procs, with_mt, read_mt=False):
    """[[peer, peer-mt], ...]: a peer and its multi-threaded arm share a
    session (pyarrow-mt, which only reads, when `read_mt`)."""
    def mt(p):
        return (with_mt and p + "-mt" in MT_PEERS) or (read_mt and p + "-mt" in READ_MT_PEERS)
    return [[p] + ([p + "-mt"] if mt(p) and p + "-mt" in procs else [])
            for p in procs if p in ST_PEERS]


# ---------------------------------------------------------------------------
# Sessions and sections.

def run_in_parts(args, path, units, make_cases, variants, sinks, expected_bytes, registry,
                 settings, results, mode="pinned", load=True, share=None):
    """The cases of one input. Quiver's two processes (Quiver and its
    control) hold the input for all of them; the peers come in sets that fit
    in memory beside them (plan_parts, with the peaks the reference run
    measured), each set running every case, so a case's figures may come
    from several sets (merge.merge_parts). Quiver's gate is made once a
    case (schedule.gate_arms' cache). `share` (budget.Share): the input's
    part of the time budget, which gives each case its deadline."""
    by_id, order, gate_cache = {}, [], {}
    store = settings.setdefault(mode, {})
    quiver = Session([MAIN, CONTROL], args.bins, args.log_dir, registry, mode)
    parts = plan_parts(units, expected_bytes, args.mem_factor, sinks,
                       peaks=args.reference.input_peaks(mode, path)) or [[]]
    try:
        if load:
            quiver.load(path)
            quiver.settings(variants, sinks, store)
        for i, part in enumerate(parts):
            session = Session(part, args.bins, args.log_dir, registry, mode)
            try:
                if load:
                    session.load(path)
                    session.settings(variants, sinks, store)
                view = SimpleNamespace(peers={**quiver.peers, **session.peers})
                cases = make_cases(view, i == 0)
                slots = budget.case_slots(
                    [args.plan.case(c.section, c.input, c.label) for c in cases],
                    [2 + len(p) for p in parts])[i * len(cases):(i + 1) * len(cases)]
                setup = args.plan.setup(share.section, share.name) if share else 0.0
                for case, (_, _, this, later) in zip(cases, slots):
                    deadline = share.case_deadline(this, later, setup * (len(parts) - 1 - i)) \
                        if share is not None else None
                    try:
                        rec = schedule.run_case(case, view.peers, RUN_SHM, gate_cache,
                                                deadline=deadline, clock=args.budget.clock)
                    except (PeerDied, RuntimeError) as e:
                        log(f"!!! {case.id}: {e}")
                        rec = {"id": case.id, "section": case.section, "input": case.input,
                               "label": case.label, "kind": case.kind, "error": str(e),
                               "sinks": {}}
                    rec["allocators"] = mode
                    if rec["id"] not in by_id:
                        order.append(rec["id"])
                    by_id.setdefault(rec["id"], []).append(rec)
                    quiver.revive()
                    session.revive()
                    view.peers = {**quiver.peers, **session.peers}
            finally:
                session.close(expected_bytes)
    finally:
        quiver.close(expected_bytes)
    for i in order:
        results.append(merge.merge_parts(by_id[i]))


def start_input(args, section, name):
    """The input's share of the budget, and its start."""
    return args.budget.share(section, name), time.perf_counter()


def note_time(args, state, started, n_before):
    """Wall time of one input of a section (estimate.py scales from these),
    and what the budget did to its cases."""
    share, t0 = started
    registry, _, results = state
    registry.setdefault("_timing", []).append(
        {"section": share.section, "input": share.name, "seconds": time.perf_counter() - t0})
    recs = results[n_before:]
    entry = args.budget.done(share, [r["id"] for r in recs if r.get("cut")],
                             [r["id"] for r in recs if r.get("reps_cut")])
    registry.setdefault("_budget", []).append(entry)
    if share.seconds != float("inf"):
        log(f"  budget: {share.section}/{share.name} had {share.seconds / 60:.1f} min, took "
            f"{entry['used_min']:.1f}; {entry['cut']} of {len(recs)} cases stopped at their "
            f"deadline, {entry['reps_cut']} with fewer repetitions; {entry['spent_min']:.1f} of "
            f"{args.budget.limit / 60:.0f} min spent")


def budget_costs(args):
    """{(section, input): (floor, full) seconds} of every input this run
    will do, in its order, from the reference run (budget.Plan)."""
    costs = {}
    write, read = "matrix" in args.sections, "read" in args.sections
    if write or read:
        for g in args.groups:
            labels = ([("matrix", v) for v in args.variants] if write else []) + \
                ([("read", c) for c in READ_CODECS] if read else [])
            costs[("matrix", g)] = args.plan.input("matrix", g, labels)
    if "shipped" in args.sections:
        for g in args.groups:
            costs[("shipped", g)] = args.plan.input("shipped", g, [("shipped", "default")])
    if "cdc" in args.sections:
        for n in CDC_INPUTS:
            costs[("cdc", n)] = args.plan.input("cdc", n, [("cdc", "cdc vs default")])
    if "tpch" in args.sections:
        name = f"lineitem_sf{args.tpch_sf:g}"
        costs[("tpch", name)] = args.plan.input("tpch", name,
                                                [("tpch", v) for v in args.tpch_variants])
    return costs


def section_matrix(args, inputs, state):
    write, read = "matrix" in args.sections, "read" in args.sections
    for g in args.groups:
        started, n = start_input(args, "matrix", g), len(state[2])
        path = inputs.group(g, args.rows)
        expected = read_ipc(path)
        log(f"\n== {g}: {expected.num_rows:,} rows, {expected.nbytes / 1e6:,.1f} MB")
        distinct = (gate.distinct_counts(expected)
                    if write and "number_distinct_values" in args.variants else None)
        reads = {}
        if read:
            import read_bench  # noqa: E402  (the pyarrow-written read files)
            for codec in READ_CODECS:
                f = os.path.join(RUN_SHM, "read", f"{g}.{args.rows}.{codec}.parquet")
                os.makedirs(os.path.dirname(f), exist_ok=True)
                with open(f, "wb") as fh:
                    fh.write(read_bench.write_pyarrow(expected, codec))
                reads[codec] = (f, pq.read_table(f, use_threads=False))

        def make_cases(session, first):
            cases = []
            if write:
                for v in args.variants:
                    arms = write_arms(session.peers, v, args.sinks, mt=(v == "default"),
                                      layouts=args.layout_arms, first_part=first)
                    cases.append(Case("matrix", g, v, "write", arms, expected,
                                      distinct if v == "number_distinct_values" else None))
            for codec, (f, want) in reads.items():
                cases.append(Case("read", g, codec, "read", read_arms(session.peers, f), want))
            return cases
        run_in_parts(args, path, peer_units(args.procs, with_mt=write, read_mt=read), make_cases,
                     args.variants, args.sinks, expected.nbytes, *state, load=write,
                     share=started[0])
        for f, _ in reads.values():
            os.unlink(f)
        del expected, reads
        note_time(args, state, started, n)
        args.checkpoint()


def section_shipped(args, inputs, state):
    for g in args.groups:
        started, n = start_input(args, "shipped", g), len(state[2])
        path = inputs.group(g, args.rows)
        expected = read_ipc(path)
        log(f"\n== {g} (allocators as shipped): {expected.num_rows:,} rows")

        def make_cases(session, first):
            return [Case("shipped", g, "default", "write",
                         write_arms(session.peers, "default", args.shipped_sinks), expected)]
        run_in_parts(args, path, peer_units(args.procs, with_mt=False), make_cases, ["default"],
                     args.shipped_sinks, expected.nbytes, *state, mode="shipped",
                     share=started[0])
        del expected
        note_time(args, state, started, n)
        args.checkpoint()


def section_cdc(args, inputs, state):
    for name, path in inputs.cdc().items():
        started, n = start_input(args, "cdc", name), len(state[2])
        expected = read_ipc(path)
        log(f"\n== CDC input {name}: {expected.num_rows:,} rows, {expected.nbytes / 1e6:,.1f} MB")

        def make_cases(session, first):
            arms = []
            for sink in args.cdc_sinks:
                arms += [Arm(MAIN, sink, MAIN, "main", "cdc"),
                         Arm(f"{MAIN}:default", sink, MAIN, "follower", "default", leader=MAIN),
                         Arm(CONTROL, sink, CONTROL, "control", "cdc")]
                for p in ST_PEERS:
                    if p in session.peers:
                        arms += [Arm(p, sink, p, "peer", "cdc"),
                                 Arm(f"{p}:default", sink, p, "follower", "default", leader=p)]
            return [Case("cdc", name, "cdc vs default", "write", arms, expected)]
        run_in_parts(args, path, peer_units(args.procs, with_mt=False), make_cases,
                     ["default", "cdc"], args.cdc_sinks, expected.nbytes, *state,
                     share=started[0])
        del expected
        note_time(args, state, started, n)
        args.checkpoint()


def section_tpch(args, inputs, state):
    name = f"lineitem_sf{args.tpch_sf:g}"
    started, n = start_input(args, "tpch", name), len(state[2])
    path = inputs.tpch(args.tpch_sf)
    expected = read_ipc(path)
    log(f"\n== TPC-H {name}: {expected.num_rows:,} rows, {expected.num_columns} columns, "
        f"{expected.nbytes / 1e6:,.1f} MB")

    def make_cases(session, first):
        return [Case("tpch", name, v, "write",
                     write_arms(session.peers, v, args.tpch_sinks, mt=True, first_part=first),
                     expected) for v in args.tpch_variants]
    run_in_parts(args, path, peer_units(args.procs, with_mt=False), make_cases,
                 args.tpch_variants, args.tpch_sinks, expected.nbytes, *state,
                 share=started[0])
    del expected
    note_time(args, state, started, n)
    args.checkpoint()


# ---------------------------------------------------------------------------

def clean_shm(shm=SHM):
    """Directories that killed runs left on /dev/shm (tmpfs: memory)."""
    if not os.path.isdir(shm):
        return
    for name in os.listdir(shm):
        pid = name.split("-")[-1]
        if name.startswith("run-") and pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            shutil.rmtree(os.path.join(shm, name), ignore_errors=True)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sections", default=SECTIONS, help=f"default {SECTIONS}")
    ap.add_argument("--groups", default="all", help="writer-matrix groups (default all)")
    ap.add_argument("--variants", default=MATRIX_VARIANTS, help="matrix variants")
    ap.add_argument("--sinks", default="file,mem", help="the matrix's sinks (file, mem)")
    ap.add_argument("--shipped-sinks", default="file", help="the shipped run's sinks")
    ap.add_argument("--cdc-sinks", default="file", help="the CDC section's sinks")
    ap.add_argument("--tpch-sinks", default="file", help="the TPC-H section's sinks")
    ap.add_argument("--tpch-variants", default=TPCH_VARIANTS)
    ap.add_argument("--peers", default=",".join(DEFAULT_PEERS),
                    help="peers besides quiver and its control (default "
                         f"{','.join(DEFAULT_PEERS)})")
    ap.add_argument("--quick", action="store_true",
                    help=f"smoke test: {QUICK_ROWS:,} rows a group, the groups "
                         f"{', '.join(QUICK_GROUPS)} (unless --groups), 1/32 of the CDC inputs, "
                         "TPC-H scale factor 0.01; results to build/peers/results-quick")
    ap.add_argument("--rows", type=int, default=None)
    ap.add_argument("--tpch-sf", type=float, default=None)
    ap.add_argument("--mem-factor", type=float, default=1.0,
                    help="scales the memory estimates (peer_process.MEM_FACTOR) by which the "
                         "peers are split into sets of processes that fit in memory")
    ap.add_argument("--no-layout-arms", dest="layout_arms", action="store_false",
                    help="matrix cases without the layout arms (Quiver writing polars' and "
                         "arrow-go's own page layouts beside them: writer_matrix.PEER_LAYOUTS)")
    ap.add_argument("--budget-minutes", type=float, default=57.0,
                    help="the run's time budget, from run.sh's budget_start (after the "
                         "builds: make bench-peers-build builds the peers) (default 57; 0: none): it binds, each input and case getting a "
                         "share and a deadline planned from --reference (bench/peers/"
                         "budget.py); a case past its deadline ends with the round in "
                         "progress (at least 2) and says so")
    ap.add_argument("--reference", default=None,
                    help="the full run the budget and the memory plan are costed from (a "
                         ".json.gz; default: the newest full run in bench/results; --quick: "
                         "the newest quick run in build/peers/results-quick if any)")
    ap.add_argument("--no-pin-selftest", dest="pin_selftest", action="store_false",
                    help="skip the start-up check that every pinned peer refuses an override")
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--peer-bin", action="append", default=[], metavar="NAME=PATH",
                    help="binary of a native peer (" + ", ".join(NATIVE_PEERS) + ")")
    ap.add_argument("--update-readme", action="store_true",
                    help="write the summary into README.md (done anyway by a full run)")
    args = ap.parse_args()
    args.argv = sys.argv
    for key in ("sections", "variants", "sinks", "shipped_sinks", "cdc_sinks", "tpch_sinks",
                "tpch_variants"):
        setattr(args, key, getattr(args, key).split(","))
    for s in args.sections:
        if s not in SECTIONS.split(","):
            ap.error(f"unknown section {s!r} (one of {SECTIONS})")
    args.full_groups = args.groups == "all"
    if args.groups == "all":
        args.groups = list(QUICK_GROUPS) if args.quick else wm.GROUPS
    else:
        args.groups = args.groups.split(",")
    for v in args.variants + args.tpch_variants:
        if v not in wm.ALL_VARIANTS:
            ap.error(f"unknown variant {v!r} (writer_matrix.ALL_VARIANTS: "
                     f"{', '.join(wm.ALL_VARIANTS)})")
    for g in args.groups:
        if g not in wm.GROUPS:
            ap.error(f"unknown group {g!r}")
    for s in args.sinks + args.shipped_sinks + args.cdc_sinks + args.tpch_sinks:
        if s not in ("file", "mem"):
            ap.error(f"unknown sink {s!r} (file or mem)")
    args.rows = args.rows or (QUICK_ROWS if args.quick else wm.FULL_ROWS)
    args.tpch_sf = args.tpch_sf or (0.01 if args.quick else 1.0)
    args.out_dir = args.out_dir or os.path.join(
        ROOT, "build/peers/results-quick" if args.quick else "bench/results")
    args.log_dir = os.path.join(ROOT, "build/peers/logs")
    args.full = (not args.quick and args.full_groups and args.sections == SECTIONS.split(",")
                 and args.variants == MATRIX_VARIANTS.split(",") and args.rows == wm.FULL_ROWS
                 and args.tpch_sf == 1.0 and args.sinks == ["file", "mem"])
    args.bins = native_binaries(args.peer_bin)
    args.procs = []
    for p in args.peers.split(","):
        if p not in PY_PEERS and p not in NATIVE_PEERS:
            ap.error(f"unknown peer {p!r}")
        if (p in NATIVE_PEERS and p not in args.bins) or p == MAIN:
            continue
        args.procs.append(p)
    return args


def commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True).stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def main():
    args = parse_args()
    started = datetime.datetime.now()
    t0 = time.perf_counter()
    clean_shm()
    os.makedirs(RUN_SHM, exist_ok=True)
    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, f"peers_{started.strftime('%Y-%m-%d')}_{commit()}"
                        + ("" if args.full or args.quick else "_partial"))
    registry, settings, results = {}, {}, []
    state = (registry, settings, results)
    args.reference = estimate.Reference(args.reference, quick=args.quick)
    args.plan = budget.Plan(args.reference, sinks=set(
        args.sinks + args.shipped_sinks + args.cdc_sinks + args.tpch_sinks + ["read", READ_MT]))
    start = os.environ.get("QUIVER_BENCH_START")
    args.budget = budget.Budget(args.budget_minutes * 60 if args.budget_minutes else math.inf,
                                budget_costs(args), t0=float(start) if start else None)
    # What a later run's budget.Plan reads of this one (py_peer.freeze_heap).
    registry["_harness"] = {"py_heap_frozen": True}
    registry["_budget_plan"] = {
        "reference": os.path.relpath(args.reference.source, ROOT),
        "minutes": args.budget_minutes or None,
        "floor_min": sum(f for f, _ in args.budget.left.values()) / 60,
        "full_min": sum(c for _, c in args.budget.left.values()) / 60}
    if args.pin_selftest:
        registry["_selftest"] = pin_selftest([MAIN] + args.procs, args.bins)
        log("allocator pin self-test: " + "; ".join(
            f"{p} with {o}: {r}" for p, o, r in registry["_selftest"]))

    def checkpoint():
        report.write(args, results, registry, settings, started, stem,
                     time.perf_counter() - t0, final=False)
    args.checkpoint = checkpoint
    log(f"bench-peers: sections {','.join(args.sections)}; {len(args.groups)} groups x "
        f"{len(args.variants)} variants at {args.rows:,} rows, sinks {','.join(args.sinks)}; "
        f"peers quiver (+control), {', '.join(args.procs)}")
    log("rule: " + schedule.RULE)
    plan = registry["_budget_plan"]
    if args.budget.binding:
        log(f"budget: {args.budget_minutes:g} min from the start of the run"
            f"{' (run.sh: after the builds)' if start else ''}, "
            f"{(time.time() - args.budget.t0) / 60:.1f} spent; planned from {plan['reference']}: "
            f"{plan['floor_min']:.0f} min the work no deadline removes, {plan['full_min']:.0f} "
            "min every round the rule wants")
    inputs = Inputs(args.quick)
    try:
        for sec, fn in (("matrix", section_matrix), ("shipped", section_shipped),
                        ("cdc", section_cdc), ("tpch", section_tpch)):
            if sec in args.sections or (sec == "matrix" and "read" in args.sections):
                s0 = time.perf_counter()
                fn(args, inputs, state)
                log(f"\nbench-peers: section {sec}{' + read' if sec == 'matrix' and 'read' in args.sections else ''} "
                    f"took {(time.perf_counter() - s0) / 60:.1f} min")
    finally:
        shutil.rmtree(RUN_SHM, ignore_errors=True)
    wall = time.perf_counter() - t0
    report.write(args, results, registry, settings, started, stem, wall, final=True)
    log(f"\nbench-peers: wall time {wall / 60:.1f} min; {stem}.md, .json.gz, .png")
    if (args.update_readme or args.full) and not args.quick:
        report.update_readme(stem + ".md", started, results, args, registry, wall)
    # A peer whose output does not check is reported (FAIL in the tables);
    # Quiver's failing fails the run.
    ours = [f"{r['id']} ({k})" for r in results for k, a in r.get("arms", {}).items()
            if a["status"] == "FAIL" and a["proc"] in (MAIN, CONTROL)]
    theirs = [f"{r['id']} ({k})" for r in results for k, a in r.get("arms", {}).items()
              if a["status"] == "FAIL" and a["proc"] not in (MAIN, CONTROL)]
    if theirs:
        log("bench-peers: peers' output that failed the correctness gate: " + ", ".join(theirs))
    if ours:
        log("bench-peers: Quiver's output FAILED the correctness gate in: " + ", ".join(ours))
        sys.exit(1)


if __name__ == "__main__":
    main()
