#!/usr/bin/env python3
"""The dataset section of `make bench-peers` (issue 46, section 6):
Quiver's datasets (quiver.ParquetDataset with filters=, write_to_dataset)
against pyarrow.dataset, duckdb and polars, each a long-running peer process
(bench/peers/dataset_py_peer.py and its `dsread` / `dswrite` commands),
from local disk (/dev/shm) and from a
local S3 server (moto on 127.0.0.1, started here; requests and bytes
counted on the server).

Input: TPC-H lineitem (tpchgen-cli; scale factor 1, --quick 0.1) with
year = year(l_shipdate), written once by pyarrow as a hive-partitioned
dataset by l_shipmode and year (7 x 7 partitions, two files each: about 100
files, snappy; bench/peers/dataset_cases.py), cached under
build/peers/inputs*/, copied to /dev/shm for the run and uploaded once to
the S3 server.

Cases: (a) reads with a partition filter plus a column filter (narrow,
wide), a partition filter alone and a column filter alone, each with three
projections (the filter's columns and two payload columns, all columns,
the payload only), locally and on S3 (--quick: one projection per filter);
(b) write_to_dataset of the in-memory table (lineitem + year) into a fresh
directory on /dev/shm, partitioned by both keys, snappy, row groups of up
to 1 << 20 rows. Sinks: `st` (Quiver use_threads=False, a second Quiver
process as control, pyarrow use_threads=False, duckdb threads=1, polars on
one thread) and `mt` (Quiver use_threads=True against pyarrow-mt, duckdb-mt
and polars-mt on every core). duckdb reads local directories only (its S3
extension downloads at run time): unsupported on S3, said in the report.

Every arm's result is checked before it is timed: a read's against the
oracle (pyarrow reads the whole dataset, then filters; rows compared as a
multiset, since dataset readers order files as they list them), a written
dataset read back by pyarrow file by file against the input. Rounds,
control, order check, bootstrap intervals and verdicts are
bench/peers/schedule.py's (RULE in the report); deadlines from the budget
(--budget-minutes, default 15: make bench-peers runs this after run.py).
After each S3 case every arm reads once more, untimed, with the server's
request log reset: its requests (by method) and the bytes it fetched.

Output: <out-dir>/dataset_<date>_<commit>[_partial].{md,json.gz}
(bench/peers/dataset_report.py), rewritten after every case. Run through
bench/peers/run_dataset.sh.
"""

import argparse
import datetime
import os
import shutil
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
sys.path.insert(0, HERE)

import dataset_cases as dc  # noqa: E402
import dataset_report  # noqa: E402
import peer_process  # noqa: E402
import schedule  # noqa: E402
from dataset_s3 import Server, summarize  # noqa: E402
from filter_run import Budgeter  # noqa: E402
from inputs import Inputs, read_ipc, write_ipc  # noqa: E402
from peer_process import PeerDied, Session, log, pin_selftest  # noqa: E402
from run import clean_shm, commit  # noqa: E402
from schedule import Arm, Case  # noqa: E402

SHM = "/dev/shm/quiver-dataset"
RUN_SHM = os.path.join(SHM, f"run-{os.getpid()}")
ST_PEERS = ("pyarrow", "duckdb", "polars")
MT_PEERS = ("pyarrow-mt", "duckdb-mt", "polars-mt")
PROCS = ("quiver", "control") + ST_PEERS + MT_PEERS
PIN_OVERRIDES = {p: peer_process.PIN_OVERRIDES[p] for p in ("quiver", "pyarrow", "duckdb",
                                                            "polars")}
S3_PREFIX = "lineitem"


def argv_of(name, bins):
    base = "quiver" if name == "control" else name
    return [sys.executable, os.path.join(HERE, "dataset_py_peer.py"), "--peer", base]


def sink_arms(sink, cmd, mt_fields, peers, procs):
    """Quiver, its control and the peers of one sink, all with command `cmd`."""
    q = dict(cmd, **mt_fields)
    arms = [Arm(schedule.MAIN, sink, "quiver", "main", kernel=dict(q)),
            Arm(schedule.CONTROL, sink, "control", "control", kernel=dict(q))]
    arms += [Arm(p, sink, p, "peer", kernel=dict(cmd)) for p in peers]
    return [a for a in arms if a.proc in procs]


def read_arms(root, s3, columns, terms, procs):
    cmd = {"cmd": "dsread", "root": root, "s3": s3, "columns": columns, "filters": terms}
    return (sink_arms("st", cmd, {}, ST_PEERS, procs)
            + sink_arms("mt", cmd, {"use_threads": True}, MT_PEERS, procs))


def write_arms(sink, procs):
    arms = sink_arms(sink, {"cmd": "dswrite"}, {"use_threads": True} if sink == "mt" else {},
                     ST_PEERS if sink == "st" else MT_PEERS, procs)
    for a in arms:
        a.kernel["dir"] = os.path.join(RUN_SHM, "write", f"{a.name}.{sink}")
    return arms


def weight(spec):
    if isinstance(spec, dc.WriteSpec):
        return 8.0
    w = 3.0 if spec.projection == "all" else 1.0
    return w * (3.0 if spec.where == "s3" else 1.0) * (2.0 if spec.kind == "column_only" else 1.0)


def prepare_inputs(args):
    """(IPC file of lineitem + year, the dataset's directory on /dev/shm, its
    files, pyarrow's reading of it)."""
    inputs = Inputs(args.quick)
    sf = 0.1 if args.quick else 1.0
    name = f"dataset_lineitem_sf{sf:g}"
    ipc = os.path.join(inputs.dir, name + ".arrow")
    cached = os.path.join(inputs.dir, name)
    stamp = cached + ".stamp"
    want = f"{dc.PARTITION_COLS} {dc.file_rows(sf)} {dc.CODEC}"
    if not os.path.exists(ipc) or not os.path.exists(stamp) or open(stamp).read() != want:
        t0 = time.perf_counter()
        table = dc.with_year(read_ipc(inputs.tpch(sf)))
        write_ipc(table, ipc)
        dc.write_input(table, cached, sf)
        with open(stamp, "w") as f:
            f.write(want)
        del table
        log(f"  input {name}: {len(dc.dataset_files(cached))} files "
            f"({time.perf_counter() - t0:.1f} s)")
    files = dc.dataset_files(cached)
    local = os.path.join(RUN_SHM, "inputs", name)
    shutil.copytree(cached, local)
    size = sum(os.path.getsize(os.path.join(local, f)) for f in files)
    log(f"  dataset: {len(files)} files, {size / 1e6:,.1f} MB, on {local}")
    return ipc, local, files, size


def count_requests(case, session, server, rec):
    """Each arm of an S3 case once more, untimed, with the server's log reset."""
    out = {}
    for key, a in rec.get("arms", {}).items():
        if a["status"] != "ok" or a["role"] == "control":
            continue
        arm = next(x for x in case.arms if x.key == key)
        p = session.peers.get(arm.proc)
        if p is None:
            continue
        server.counter.take()
        try:
            r = schedule.call(p, arm, RUN_SHM)
        except PeerDied as e:
            out[key] = {"error": str(e)}
            continue
        log_ = server.counter.take()
        out[key] = dict(summarize(log_), seconds=r.get("seconds", [None])[0])
        if "error" in r:
            out[key]["error"] = r["error"]
    return out


def run_cases(args, session, state, ipc, local):
    s3 = state.server.spec() if state.server else None
    loaded = set()
    for spec in state.to_run:
        i = state.index
        state.index += 1
        meta = {"spec": spec.id}
        if isinstance(spec, dc.ReadSpec):
            terms = dc.FILTERS[spec.kind]
            oracle_table = state.oracle
            columns = dc.projection(spec.kind, spec.projection, oracle_table.column_names)
            want = dc.oracle(oracle_table, terms, columns)
            root = local if spec.where == "local" else S3_PREFIX
            arms = read_arms(root, s3 if spec.where == "s3" else None, columns, terms,
                             session.peers)
            case = Case("dataset", spec.where, spec.label, "filter", arms,
                        lambda out, w=want: dc.same_rows(read_ipc(out), w))
            meta.update(where=spec.where, filter_kind=spec.kind, projection=spec.projection,
                        columns=columns, filter=dc.text(terms), rows_out=want.num_rows,
                        achieved=want.num_rows / max(1, oracle_table.num_rows))
        else:
            # (The reads are done: the server's objects and the read oracle's
            # table go before the writes' inputs are loaded.)
            if state.server is not None:
                state.server.stop()
                state.server = None
            state.oracle = oracle_table = None
            arms = write_arms(spec.sink, session.peers)
            need = {a.proc for a in arms}
            # The writes come last and each sink's peers are its own: a peer
            # no later case needs quits (a pinned process keeps its peak, and
            # eight processes holding SF1 exceed the machine's memory).
            later = {a.proc for s_ in state.to_run[i:] if isinstance(s_, dc.WriteSpec)
                     for a in write_arms(s_.sink, session.peers)}
            for p in [p for p in session.peers if p not in later]:
                session.peers.pop(p).quit()
                session.wanted.remove(p)
                loaded.discard(p)
            for p in sorted(loaded - need):
                session.peers[p].call(cmd="dsunload")
                loaded.discard(p)
            for p in sorted(need - loaded):
                r = session.peers[p].call(cmd="dsload", input=ipc)
                if "error" in r:
                    log(f"!!! {p}: dsload: {r['error']}")
                else:
                    loaded.add(p)
            os.makedirs(os.path.join(RUN_SHM, "write"), exist_ok=True)

            def gate(out):
                try:
                    ok, msg, _ = dc.check_written(out + ".d", oracle_input(ipc),
                                                  sorted_input(ipc))
                    return ok, msg
                finally:
                    shutil.rmtree(out + ".d", ignore_errors=True)
            case = Case("dataset", "write", spec.label, "filter", arms, gate)
            meta.update(where="write", sink=spec.sink, rows_in=oracle_input(ipc).num_rows)
        if not state.budgeter.affordable(i):
            state.results.append({"id": case.id, "section": case.section, "input": case.input,
                                  "label": case.label, "kind": case.kind, "sinks": {},
                                  "arms": {}, "skipped": "not run: the budget's time was spent",
                                  **meta})
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
        rec.update(meta)
        if isinstance(spec, dc.ReadSpec) and spec.where == "s3":
            rec["s3_requests"] = count_requests(case, session, state.server, rec)
        state.results.append(rec)
        state.budgeter.record(i, time.perf_counter() - c0)
        session.revive()
        state.report(final=False, reason="not reached yet (the run is in progress)")
    for p in loaded:
        session.peers[p].call(cmd="dsunload")


_INPUT = {}


def oracle_input(ipc):
    """The input table of the write cases (memory-mapped, once)."""
    if ipc not in _INPUT:
        _INPUT[ipc] = read_ipc(ipc)
    return _INPUT[ipc]


def sorted_input(ipc):
    """The input sorted by lineitem's key (the write gates' reference, once)."""
    if ("sorted", ipc) not in _INPUT:
        _INPUT[("sorted", ipc)] = dc.sorted_by_key(oracle_input(ipc))
    return _INPUT[("sorted", ipc)]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="smoke test: TPC-H SF 0.1, each filter once per place with one "
                         "projection; results to build/peers/results-quick")
    ap.add_argument("--sections", default="read,write")
    ap.add_argument("--where", default="local,s3", help="read cases: local, s3 or both")
    ap.add_argument("--budget-minutes", type=float, default=15.0,
                    help="the section's budget, from run_dataset.sh's budget_start (default 15)")
    ap.add_argument("--no-pin-selftest", dest="pin_selftest", action="store_false")
    ap.add_argument("--out-dir", default=None)
    args = ap.parse_args()
    args.argv = sys.argv
    sections, wheres = args.sections.split(","), args.where.split(",")
    for s in sections:
        if s not in ("read", "write"):
            ap.error(f"unknown section {s!r} (read, write)")
    for w in wheres:
        if w not in ("local", "s3"):
            ap.error(f"unknown place {w!r} (local, s3)")
    args.specs = dc.case_specs(args.quick, wheres, sections)
    args.full = not args.quick and len(args.specs) == len(dc.case_specs())
    args.out_dir = args.out_dir or os.path.join(
        ROOT, "build/peers/results-quick" if args.quick else "bench/results")
    args.log_dir = os.path.join(ROOT, "build/peers/logs")
    args.procs = list(PROCS)
    return args


def stopped(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main():
    from types import SimpleNamespace

    args = parse_args()
    started = datetime.datetime.now()
    args.t0 = time.perf_counter()
    start = os.environ.get("QUIVER_BENCH_START")
    wall0 = float(start) if start else time.time()
    clean_shm(SHM)
    os.makedirs(args.out_dir, exist_ok=True)
    args.commit = commit()  # (the code the run measures: HEAD may move while it runs)
    args.stem = os.path.join(args.out_dir, f"dataset_{started.strftime('%Y-%m-%d')}_{args.commit}"
                             + ("" if args.full or args.quick else "_partial"))
    registry, results = {}, []
    log(f"bench-dataset: {len(args.specs)} cases, processes {', '.join(args.procs)}; budget "
        f"{args.budget_minutes:g} min ({(time.time() - wall0) / 60:.1f} spent before the run)")
    log("rule: " + schedule.RULE)
    if args.pin_selftest:
        registry["_selftest"] = pin_selftest(
            [p for p in args.procs if p in PIN_OVERRIDES], {}, argv_of, PIN_OVERRIDES)
        log("allocator pin self-test: " + "; ".join(
            f"{p} with {o}: {r}" for p, o, r in registry["_selftest"]))
    os.makedirs(RUN_SHM, exist_ok=True)
    ipc, local, files, size = prepare_inputs(args)
    registry["_input"] = {"files": len(files), "bytes": size, "rows_per_file": dc.file_rows(
        0.1 if args.quick else 1.0), "codec": dc.CODEC, "partitions": dc.PARTITION_COLS}
    reads = any(isinstance(s, dc.ReadSpec) for s in args.specs)
    oracle_table = dc.reference(local) if reads else None
    server = None
    if any(isinstance(s, dc.ReadSpec) and s.where == "s3" for s in args.specs):
        t0 = time.perf_counter()
        server = Server()
        n = server.upload(local, S3_PREFIX, files)
        registry["_s3"] = {"endpoint": server.endpoint, "bucket": server.spec()["bucket"],
                           "prefix": S3_PREFIX, "uploaded_bytes": n}
        log(f"  S3: moto on {server.endpoint}, {len(files)} objects ({n / 1e6:,.1f} MB) "
            f"uploaded in {time.perf_counter() - t0:.1f} s")
    budgeter = Budgeter(args.budget_minutes * 60, wall0, [weight(s) for s in args.specs])

    def report(final, reason):
        return dataset_report.write(args, dataset_report.accounted(args.specs, results, reason),
                                    registry, started, args.stem,
                                    time.perf_counter() - args.t0, final=final)
    state = SimpleNamespace(results=results, budgeter=budgeter, index=0, to_run=args.specs,
                            report=report, server=server, oracle=oracle_table)
    del oracle_table, server
    signal.signal(signal.SIGTERM, stopped)
    session = Session(args.procs, {}, args.log_dir, registry, argv_of=argv_of)
    try:
        for name, p in session.peers.items():
            if name != "control":
                registry.setdefault("_differences", {})[name] = p.call(
                    cmd="dssettings").get("differences", [])
        run_cases(args, session, state, ipc, local)
    except KeyboardInterrupt as e:
        report(final=False, reason="not reached: the run was stopped before it")
        log(f"\nbench-dataset: stopped ({e or 'interrupt'}); {args.stem}.md, .json.gz hold what "
            f"it measured")
        sys.exit(130)
    finally:
        session.close()
        if state.server is not None:
            state.server.stop()
        shutil.rmtree(RUN_SHM, ignore_errors=True)
    wall = time.perf_counter() - args.t0
    ok = report(final=True, reason="not reached: the run ended before it")
    log(f"\nbench-dataset: wall time {wall / 60:.1f} min (since the budget started: "
        f"{(time.time() - wall0) / 60:.1f} min); {args.stem}.md, .json.gz")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
