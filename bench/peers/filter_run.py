#!/usr/bin/env python3
"""`make bench-filter`: Quiver's filtered reads (read_table(filters=))
against pyarrow, duckdb, polars and arrow-rs 60.1, each a long-running peer
process speaking the `filter` command of bench/peers/PROTOCOL.md.

Inputs (bench/peers/filter_cases.py; cached under build/peers/inputs/,
--quick: build/peers/inputs-quick/): TPC-H lineitem at scale factor 1
(tpchgen-cli; --quick 0.1) and a seeded ClickBench-like table (2,000,000
rows; --quick 200,000), each rewritten once by pyarrow with statistics, a
page index and 20,000-row pages, uncompressed and zstd. Each file is copied
to /dev/shm for the run: the peers map it or read its bytes into memory
(duckdb reads the path; the report's "sources" say which).

Cases: predicates on a sorted key, unsorted ints, dates, strings, two
conjuncts and an OR, at 0.1%, 1%, 10% and 50% (literals from the data's
quantiles; the achieved selectivity is printed), each with three projections
(the filter's columns and two payload columns, all columns, the payload
only). Arms, sink `st` (one thread): Quiver (read_table(filters=),
use_threads=False) and its control (a second Quiver process), Quiver
reading the rows then filtering (`quiver-rtf`: read_table of the
projection and filter columns, then Table.filter(expression); timed beside
Quiver, never a peer), pyarrow, duckdb, polars, arrow-rs and
arrow-rs-native. Sink `mt`: Quiver with use_threads=True and its control
(likewise) against pyarrow-mt (pyarrow's default: use_threads=True, its
pools at every core), duckdb-mt and polars-mt on all cores (a build of
Quiver that refused use_threads would leave the sink unsupported, and the
report says so). duckdb's memory limit: max(4 GiB, 6x the file's size)
(filter_cases.duckdb_memory_limit). Every arm's
result is checked against the oracle (pyarrow reads the file, then
filters; values in file order, the mt arms as a multiset of rows) before it
is timed; an arm that fails is reported, not timed.

Rounds, control, order check, bootstrap intervals and verdicts are
bench/peers/schedule.py's (RULE in the report). The time budget
(--budget-minutes, default 43; the clock starts when run_filter.sh has
built the extension, the peers being built by make bench-peers-build
beforehand; make bench-filter must end within 45) is split over the cases
still to run by their estimated costs (budget.split): each case gets a
deadline, its repetitions are cut so that two rounds fit, and past it the
case stops ("budget: stopped at N rounds", "undecided").

Output: <out-dir>/filter_<date>_<commit>[_partial].{md,json.gz} (report
written by bench/peers/filter_report.py; the issue's required figures
checked there), rewritten after every case and when the run is stopped
(SIGINT, SIGTERM), every case of the matrix in it: measured, not run for
the budget, or not reached. --resume PREV.json.gz continues such a run
(bench/peers/filter_resume.py): the cases PREV measured are kept, the
others run under this run's budget, and one merged result is written. Run
through bench/peers/run_filter.sh.
"""

import argparse
import datetime
import os
import shutil
import signal
import sys
import time
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
sys.path.insert(0, HERE)
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import budget  # noqa: E402
import filter_cases as fc  # noqa: E402
import filter_report  # noqa: E402
import filter_resume  # noqa: E402
import peer_process  # noqa: E402
import schedule  # noqa: E402
from inputs import Inputs, read_ipc  # noqa: E402
from peer_process import PeerDied, Session, log, native_binaries, pin_selftest  # noqa: E402
from run import clean_shm, commit  # noqa: E402
from schedule import Arm, Case  # noqa: E402

SHM = "/dev/shm/quiver-filter"
RUN_SHM = os.path.join(SHM, f"run-{os.getpid()}")
# Processes: name -> the arms it serves, as (arm name, sink, role, command fields).
ST_PEERS = ("pyarrow", "duckdb", "polars", "arrow-rs", "arrow-rs-native")
MT_PEERS = ("pyarrow-mt", "duckdb-mt", "polars-mt")
PROCS = ("quiver", "control") + ST_PEERS + MT_PEERS
PIN_OVERRIDES = {p: peer_process.PIN_OVERRIDES[p] for p in
                 ("quiver", "pyarrow", "duckdb", "polars", "arrow-rs", "arrow-rs-native")}
MEM_NOTE = "memory"


def argv_of(name, bins):
    if name in ("arrow-rs", "arrow-rs-native"):
        return [bins[name]]
    base = "quiver" if name == "control" else name
    return [sys.executable, os.path.join(HERE, "filter_py_peer.py"), "--peer", base]


def make_arms(path, columns, pred, procs):
    cmd = {"cmd": "filter", "file": path, "columns": columns, "predicate": pred.as_json()}
    arms = [Arm(schedule.MAIN, "st", "quiver", "main", kernel=dict(cmd)),
            Arm(schedule.CONTROL, "st", "control", "control", kernel=dict(cmd)),
            Arm("quiver-rtf", "st", "quiver", "follower", leader=schedule.MAIN,
                kernel=dict(cmd, mode="read_then_filter"))]
    arms += [Arm(p, "st", p, "peer", kernel=dict(cmd)) for p in ST_PEERS if p in procs]
    arms += [Arm(schedule.MAIN, "mt", "quiver", "main", use_threads=True,
                 kernel=dict(cmd, use_threads=True)),
             Arm(schedule.CONTROL, "mt", "control", "control", use_threads=True,
                 kernel=dict(cmd, use_threads=True))]
    arms += [Arm(p, "mt", p, "peer", kernel=dict(cmd)) for p in MT_PEERS if p in procs]
    return [a for a in arms if a.proc in procs]


def gate_for(want):
    """The case's gate: (ok, message) of an arm's result file (the mt sink's
    arms, named *.mt.arrow by schedule.gate_run, as a multiset of rows)."""
    def gate(out):
        return fc.check_result(read_ipc(out), want, any_order=out.endswith(".mt.arrow"))
    return gate


def sorted_key_bytes(path, key, pred):
    """The 0.1% sorted-key figure: Quiver's bytes_read for the filtered read
    of the key column alone, against the key column's chunk bytes (untimed,
    in the driver)."""
    import quiver
    import quiver.compute as qc
    expr = None
    for clause in pred.clauses:
        c, op, v = clause[0]
        e = {">=": qc.field(c) >= fc.python_value(v), "<": qc.field(c) < fc.python_value(v)}[op]
        expr = e if expr is None else expr & e
    f = quiver.ParquetFile(path)
    try:
        f.read(columns=[key], filters=expr)
        stats = dict(f.read_stats)
    finally:
        f.close()
    chunk = fc.column_chunk_bytes(pq.ParquetFile(path).metadata, key)
    return {"bytes_read": stats["bytes_read"], "column_bytes": chunk,
            "fraction": stats["bytes_read"] / chunk, "read_stats": stats}


class Budgeter:
    """Deadlines: what is left of the budget split over this case and the
    ones after it by their weights (budget.split), a weight's seconds learnt
    from the cases run so far (first guess: GUESS_S a weight)."""
    GUESS_S = 20.0
    FLOOR_SHARE = (schedule.R_MIN + 3) / (schedule.R_MAX + 3)
    SKIP_SHARE = 0.5

    def __init__(self, budget_s, wall0, weights):
        self.budget_s, self.wall0, self.weights = budget_s, wall0, weights
        self.spent = self.done = 0.0

    def per_weight(self):
        return self.spent / self.done if self.done else self.GUESS_S

    def deadline(self, i):
        left = self.budget_s - budget.RESERVE_S - (time.time() - self.wall0)
        k = self.per_weight()
        costs = [(w * k * self.FLOOR_SHARE, w * k) for w in self.weights[i:]]
        return time.time() + max(0.0, budget.split(left, costs[0], costs[1:]))

    def affordable(self, i):
        """Whether case i's floor (SKIP_SHARE of its weight's measured cost)
        fits in what is left: past that, the cases left are not run (and
        reported so) rather than the run overrunning its budget."""
        left = self.budget_s - budget.RESERVE_S - (time.time() - self.wall0)
        return self.done == 0 or left >= self.weights[i] * self.per_weight() * self.SKIP_SHARE

    def record(self, i, seconds):
        self.spent += seconds
        self.done += self.weights[i]


def weight(spec):
    """A case's relative cost: reading all columns costs most; more rows
    returned cost more."""
    return (3.0 if spec.projection == "all" else 1.0) * (1.0 + 2 * spec.selectivity)


def prepare_inputs(args):
    """{input name: (file on /dev/shm, pyarrow's reading of it)} built lazily
    per dataset (the TPC-H table or the ClickBench-like one, both codecs)."""
    inputs = Inputs(args.quick)
    sf = 0.1 if args.quick else 1.0
    rows = fc.CLICKBENCH_ROWS // (10 if args.quick else 1)

    def source(dataset):
        if dataset == "lineitem":
            return lambda: read_ipc(inputs.tpch(sf))
        return lambda: fc.clickbench_table(rows)

    def files(dataset):
        table = None
        out = {}
        for codec in fc.CODECS:
            size = f"sf{sf:g}" if dataset == "lineitem" else str(rows)
            name = f"filter_{dataset}_{size}.{codec}.parquet"
            cached = os.path.join(inputs.dir, name)
            if not os.path.exists(cached):
                if table is None:
                    table = source(dataset)()
                t0 = time.perf_counter()
                fc.rewrite(table, cached, codec)
                log(f"  input {name}: {os.path.getsize(cached) / 1e6:,.1f} MB "
                    f"({time.perf_counter() - t0:.1f} s)")
            shm = os.path.join(RUN_SHM, "inputs", f"{dataset}.{codec}.parquet")
            os.makedirs(os.path.dirname(shm), exist_ok=True)
            shutil.copyfile(cached, shm)
            out[codec] = shm
        return out
    return files


def run_input(args, session, dataset, paths, specs, state):
    results, figures = state.results, state.figures
    # The oracle reads the uncompressed file (the zstd one holds the same values).
    table = pq.read_table(paths[fc.CODECS[0]])
    cache, preds = {}, {}
    for spec in specs:
        key = (spec.kind, spec.selectivity)
        if key not in preds:
            p = fc.make_predicate(table, dataset, spec.kind, spec.selectivity, cache)
            preds[key] = (p, fc.achieved(table, p))
            log(f"  {dataset} {spec.kind} at {spec.selectivity:.1%}: achieved "
                f"{preds[key][1]:.3%}: {p.text()[:100]}")
    del cache
    for spec in specs:
        i = state.index
        state.index += 1
        pred, got_sel = preds[(spec.kind, spec.selectivity)]
        path = paths[spec.codec]
        columns = fc.projection(dataset, spec.kind, spec.projection, table.column_names)
        want = fc.oracle(table, pred, columns)
        arms = make_arms(path, columns, pred, args.procs)
        case = Case("filter", spec.input_name, spec.label, "filter", arms, gate_for(want))
        meta = dict(dataset=dataset, codec=spec.codec, predicate_kind=spec.kind,
                    selectivity=spec.selectivity, achieved=got_sel, projection=spec.projection,
                    columns=columns, predicate=pred.text(), rows_out=want.num_rows)
        if not state.budgeter.affordable(i):
            results.append({"id": case.id, "section": case.section, "input": case.input,
                            "label": case.label, "kind": case.kind, "sinks": {}, "arms": {},
                            "skipped": "not run: the budget's time was spent", **meta})
            log(f"  {case.id}: not run (budget)")
            continue
        c0 = time.perf_counter()
        deadline = state.budgeter.deadline(i)
        try:
            rec = schedule.run_case(case, session.peers, RUN_SHM, deadline=deadline)
        except (PeerDied, RuntimeError) as e:
            log(f"!!! {case.id}: {e}")
            rec = {"id": case.id, "section": case.section, "input": case.input,
                   "label": case.label, "kind": case.kind, "error": str(e), "sinks": {}}
        rec.update(meta, deadline_s=deadline - time.time() + (time.perf_counter() - c0))
        if spec.kind == "sorted_key" and spec.selectivity == 0.001 and \
                (dataset, spec.codec) not in figures:
            try:
                figures[(dataset, spec.codec)] = sorted_key_bytes(
                    path, fc.DATASETS[dataset].columns["sorted_key"][0], pred)
            except Exception as e:  # noqa: BLE001 - reported
                figures[(dataset, spec.codec)] = {"error": f"{type(e).__name__}: {e}"}
        results.append(rec)
        state.budgeter.record(i, time.perf_counter() - c0)
        session.revive()
        # After every case: a run stopped any time leaves what it measured
        # (and --resume continues from it).
        state.report(final=False, reason="not reached yet (the run is in progress)")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="smoke test: TPC-H SF 0.1, 200,000 ClickBench-like rows, 48 cases "
                         "(each predicate and selectivity once); results to "
                         "build/peers/results-quick")
    ap.add_argument("--datasets", default=",".join(fc.DATASETS))
    ap.add_argument("--kinds", default=",".join(fc.KINDS))
    ap.add_argument("--budget-minutes", type=float, default=43.0,
                    help="the run's budget, from run_filter.sh's budget_start (after the builds) "
                         "(default 43; make bench-filter must end within 45)")
    ap.add_argument("--no-pin-selftest", dest="pin_selftest", action="store_false")
    ap.add_argument("--resume", default=None, metavar="PREV.json.gz",
                    help="continue the run whose raw result is PREV (one that ran out of budget "
                         "or was stopped; same --quick and commit): the cases it measured are "
                         "kept, the others run, and one merged result is written "
                         "(bench/peers/filter_resume.py)")
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--peer-bin", action="append", default=[], metavar="NAME=PATH",
                    help="binary of arrow-rs or arrow-rs-native")
    args = ap.parse_args()
    args.argv = sys.argv
    datasets, kinds = args.datasets.split(","), args.kinds.split(",")
    for d in datasets:
        if d not in fc.DATASETS:
            ap.error(f"unknown dataset {d!r} (one of {', '.join(fc.DATASETS)})")
    for k in kinds:
        if k not in fc.KINDS:
            ap.error(f"unknown predicate kind {k!r} (one of {', '.join(fc.KINDS)})")
    args.specs = [s for s in fc.case_specs(args.quick) if s.dataset in datasets and s.kind in kinds]
    args.full = not args.quick and len(args.specs) == len(fc.case_specs())
    args.out_dir = args.out_dir or os.path.join(
        ROOT, "build/peers/results-quick" if args.quick else "bench/results")
    args.log_dir = os.path.join(ROOT, "build/peers/logs")
    args.bins = native_binaries(args.peer_bin, names=("arrow-rs", "arrow-rs-native"))
    args.procs = [p for p in PROCS if p in args.bins or not p.startswith("arrow-rs")]
    return args


def stopped(signum, frame):
    """SIGTERM: as an interrupt (the report of what was measured is written)."""
    raise KeyboardInterrupt(f"signal {signum}")


def main():
    args = parse_args()
    started = datetime.datetime.now()
    args.t0 = time.perf_counter()
    start = os.environ.get("QUIVER_BENCH_START")
    wall0 = float(start) if start else time.time()
    clean_shm(SHM)
    os.makedirs(args.out_dir, exist_ok=True)
    args.stem = os.path.join(args.out_dir, f"filter_{started.strftime('%Y-%m-%d')}_{commit()}"
                             + ("" if args.full or args.quick else "_partial"))
    registry, results, figures = {}, [], {}
    done = {}
    if args.resume:
        try:
            done, prev_figures, registry["_resumed"] = filter_resume.load(
                args.resume, args.quick, commit())
        except (OSError, ValueError) as e:
            sys.exit(f"bench-filter: {e}")
        figures.update(prev_figures)
    to_run = [s for s in args.specs if filter_resume.case_id(s) not in done]
    registry["_plan"] = {"cases": len(args.specs), "procs": args.procs,
                         "budget_min": args.budget_minutes, "to_run": len(to_run)}
    log(f"bench-filter: {len(args.specs)} cases"
        + (f" ({len(args.specs) - len(to_run)} measured by {args.resume}, {len(to_run)} to run)"
           if args.resume else "")
        + f", processes {', '.join(args.procs)}; budget "
        f"{args.budget_minutes:g} min ({(time.time() - wall0) / 60:.1f} spent before the run)")
    log("rule: " + schedule.RULE)
    if args.pin_selftest:
        registry["_selftest"] = pin_selftest(
            [p for p in args.procs if p in PIN_OVERRIDES], args.bins, argv_of, PIN_OVERRIDES)
        log("allocator pin self-test: " + "; ".join(
            f"{p} with {o}: {r}" for p, o, r in registry["_selftest"]))
    os.makedirs(RUN_SHM, exist_ok=True)
    files = prepare_inputs(args)
    budgeter = Budgeter(args.budget_minutes * 60, wall0, [weight(s) for s in to_run])

    def report(final, reason):
        return filter_report.write(args, filter_resume.merged(args.specs, results, done, reason),
                                   registry, figures, started, args.stem,
                                   time.perf_counter() - args.t0, final=final)
    state = SimpleNamespace(registry=registry, results=results, figures=figures,
                            budgeter=budgeter, index=0, started=started, report=report)
    signal.signal(signal.SIGTERM, stopped)
    session = Session(args.procs, args.bins, args.log_dir, registry, argv_of=argv_of)
    try:
        for dataset in dict.fromkeys(s.dataset for s in to_run):
            paths = files(dataset)
            specs = [s for s in to_run if s.dataset == dataset]
            run_input(args, session, dataset, paths, specs, state)
            for p in paths.values():
                os.unlink(p)
    except KeyboardInterrupt as e:
        report(final=False, reason="not reached: the run was stopped before it")
        log(f"\nbench-filter: stopped ({e or 'interrupt'}); {args.stem}.md, .json.gz hold what "
            f"it measured (--resume {args.stem}.json.gz continues it)")
        sys.exit(130)
    finally:
        session.close()
        shutil.rmtree(RUN_SHM, ignore_errors=True)
    wall = time.perf_counter() - args.t0
    ok = report(final=True, reason="not reached: the run ended before it")
    log(f"\nbench-filter: wall time {wall / 60:.1f} min (since the budget started: "
        f"{(time.time() - wall0) / 60:.1f} min); {args.stem}.md, .json.gz")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
