#!/usr/bin/env python3
"""`make bench-compute`: Quiver's compute kernels against arrow-rs (C++ arm)
and pyarrow.compute (Python arm), each arm a long-running peer process
speaking the `kernel` command of bench/peers/PROTOCOL.md.

Sinks (what is compared with what):
  cpp  Quiver's C++ kernels (bench/compute_peer.cc, the release tree's
       quiver_compute_peer) and a second process of it (the control) against
       arrow-rs 60.1 built for the default target and with -C
       target-cpu=native (bench/peers/arrow-rs `kernel`): the faster counts.
  py   quiver.compute and its control against pyarrow.compute, one thread
       (bench/peers/compute_py_peer.py), each with its call floor (the same
       call on empty inputs) measured and printed beside it. Verdicts use the
       raw median of complete calls, never floor-subtracted.

Cases (bench/peers/compute_cases.py): the ARROW-11045 table at its sizes
(section seed, reported in ns per call) and every kernel at 65,536 and
1,048,576 rows with 0% and 10% nulls (section size; GB/s for filter and take
at 1,048,576 rows). Each case's input is one Arrow IPC file written once,
seeded, to /dev/shm and given to every peer; each peer's result is checked
against pyarrow.compute's (the gate) before any timing.

A timing runs one call K times (K chosen per arm so a timing lasts about the
target: --target-ms, cut to fit the budget), each call producing its result
and dropping it. Rounds, control, order check, bootstrap intervals and
verdicts are bench/peers/schedule.py's (RULE in the report).

Output: <out-dir>/compute_<date>_<commit>[_partial].{md,json.gz,png}; the
README block between <!-- bench-compute:begin --> and <!-- bench-compute:end
--> on a full run (or --update-readme). --quick (seed cases and each kernel
at 65,536 rows with 10% nulls, short timings) writes to
build/peers/results-quick. Run through bench/peers/run_compute.sh.
"""

import argparse
import datetime
import os
import shutil
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
sys.path.insert(0, HERE)
import pyarrow as pa  # noqa: E402

import compute_cases as cc  # noqa: E402
import compute_report  # noqa: E402
import schedule  # noqa: E402
from inputs import read_ipc, write_ipc  # noqa: E402
import peer_process  # noqa: E402
from peer_process import (PeerDied, Session, log, native_binaries,  # noqa: E402
                          pin_selftest)
from run import commit  # noqa: E402
from schedule import Arm, Case  # noqa: E402

SHM = "/dev/shm/quiver-compute"
RUN_SHM = os.path.join(SHM, f"run-{os.getpid()}")
CPP_BIN = "build/release/peers/quiver_compute_peer"
# Processes: name -> (sink, role, how it is started).
PROCS = {
    "quiver-cpp": ("cpp", "main"), "control-cpp": ("cpp", "control"),
    "arrow-rs": ("cpp", "peer"), "arrow-rs-native": ("cpp", "peer"),
    "quiver-py": ("py", "main"), "control-py": ("py", "control"), "pyarrow": ("py", "peer"),
}
# The allocator override each pinned process must refuse (bench-peers' own,
# by library: the Python peers and the C++ peer are Quiver's or pyarrow's).
PIN_OVERRIDES = {p: peer_process.PIN_OVERRIDES[p if p.startswith(("arrow-rs", "pyarrow"))
                                               else "quiver"]
                 for p in ("quiver-cpp", "quiver-py", "pyarrow", "arrow-rs", "arrow-rs-native")}
ARM_NAMES = {"main": schedule.MAIN, "control": schedule.CONTROL}
DEFAULT_TARGET_MS = 100.0
QUICK_TARGET_MS = 5.0
FLOOR_REPS = 3


def argv_of(name, bins):
    if name in ("quiver-cpp", "control-cpp"):
        return [bins["quiver-cpp"]]
    if name in ("quiver-py", "control-py", "pyarrow"):
        return [sys.executable, os.path.join(HERE, "compute_py_peer.py"), "--peer",
                "pyarrow" if name == "pyarrow" else "quiver"]
    return [bins[name]]


def kernel_cmd(spec, path, iters=1):
    return {"name": spec.kernel.name, "input": path, "columns": spec.kernel.columns,
            "args": spec.kernel.args, "iters": iters}


def make_arms(spec, path, procs):
    arms = []
    for proc in procs:
        sink, role = PROCS[proc]
        arms.append(Arm(ARM_NAMES.get(role, proc), sink, proc, role,
                        kernel=kernel_cmd(spec, path)))
    return arms


def timed(peer, arm, reps=1, iters=1, empty=False):
    """Seconds per call of `reps` timings (None if the peer refuses)."""
    cmd = dict(arm.kernel, iters=iters, empty=empty)
    r = peer.call(cmd="kernel", reps=reps, **{k: v for k, v in cmd.items() if k != "reps"})
    return None if "error" in r else r["seconds"]


def calibrate(peer, arm, target_s, empty=False):
    """Calls per timing for `arm`, from the fastest of three timings (a cold
    first call or a preempted timing does not set it), grown over up to four
    passes until a timing lasts an eighth of the target."""
    k = 1
    for _ in range(4):
        t = timed(peer, arm, reps=3, iters=k, empty=empty)
        if t is None:
            return 1
        per_call = min(t)
        if per_call * k >= target_s / 8:
            break
        k = cc.iters_for(per_call, target_s / 4)
    return cc.iters_for(per_call, target_s)


def floors(case, peers, target_s):
    """{arm key: median seconds of the same call on empty inputs}."""
    out = {}
    for arm in case.arms:
        if arm.status != "ok" or arm.proc not in peers:
            continue
        try:
            p = peers[arm.proc]
            k = calibrate(p, arm, min(target_s, 0.02), empty=True)
            t = timed(p, arm, reps=FLOOR_REPS, iters=k, empty=True)
        except PeerDied as e:
            log(f"!!! {case.id}: floor of {arm.key}: {e}")
            continue
        if t:
            out[arm.key] = statistics.median(t)
    return out


def run_spec(args, spec, session, state):
    registry, results = state
    os.makedirs(os.path.join(RUN_SHM, "inputs"), exist_ok=True)
    path = os.path.join(RUN_SHM, "inputs", spec.input_name + ".arrow")
    cols = spec.columns()
    write_ipc(pa.table(cols), path)
    want = spec.kernel.expected(cols, spec.kernel.args)

    def gate(out):
        got = read_ipc(out).column("result").combine_chunks()
        return cc.check_result(got, want, spec.kernel.gate)

    arms = make_arms(spec, path, [p for p in PROCS if p in session.peers])
    case = Case(spec.section, spec.kernel.key, spec.label if spec.section == "size"
                else spec.title, "kernel", arms, gate)
    for arm in arms:
        try:
            arm.kernel["iters"] = calibrate(session.peers[arm.proc], arm, args.target_s)
        except PeerDied as e:
            log(f"!!! {case.id}: calibrating {arm.key}: {e}")
    try:
        rec = schedule.run_case(case, session.peers, RUN_SHM, economy=args.economy)
        rec["floors_s"] = floors(case, session.peers, args.target_s)
    except (PeerDied, RuntimeError) as e:
        log(f"!!! {case.id}: {e}")
        rec = {"id": case.id, "section": case.section, "input": case.input, "label": case.label,
               "kind": case.kind, "error": str(e), "sinks": {}}
    rec.update(title=spec.title, rows=spec.rows, nulls=spec.nulls, kernel_label=spec.kernel.label,
               iters={a.key: a.kernel.get("iters") for a in arms})
    if spec.kernel.moves_bytes:
        rec["bytes_moved"] = cc.bytes_moved([cols[c] for c in spec.kernel.columns], want)
    results.append(rec)
    os.unlink(path)
    session.revive()


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="smoke test: the seed cases and each kernel at 65,536 rows with 10%% "
                         "nulls, 5 ms timings; results to build/peers/results-quick")
    ap.add_argument("--sections", default="seed,size", help="seed, size (default both)")
    ap.add_argument("--kernels", default="all",
                    help="kernel keys (compute_cases.KERNELS): " + ", ".join(cc.KERNELS))
    ap.add_argument("--target-ms", type=float, default=None,
                    help=f"length of one timing (default {DEFAULT_TARGET_MS:g}, --quick "
                         f"{QUICK_TARGET_MS:g}; cut to fit the budget)")
    ap.add_argument("--budget-minutes", type=float, default=55.0,
                    help="the run's budget, from run_compute.sh's budget_start (after the builds) "
                         "(default 55; make bench-compute must end within 60): the timings "
                         "are shortened so the plan's worst case fits, and while the run is "
                         "projected past it failing checks are not repeated (economy)")
    ap.add_argument("--no-pin-selftest", dest="pin_selftest", action="store_false")
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--peer-bin", action="append", default=[], metavar="NAME=PATH",
                    help="binary of quiver-cpp, arrow-rs or arrow-rs-native")
    ap.add_argument("--update-readme", action="store_true",
                    help="write the summary into README.md (done anyway by a full run)")
    args = ap.parse_args()
    args.argv = sys.argv
    args.sections = args.sections.split(",")
    for s in args.sections:
        if s not in ("seed", "size"):
            ap.error(f"unknown section {s!r}")
    keys = list(cc.KERNELS) if args.kernels == "all" else args.kernels.split(",")
    for k in keys:
        if k not in cc.KERNELS:
            ap.error(f"unknown kernel {k!r} (one of {', '.join(cc.KERNELS)})")
    args.specs = [s for s in cc.case_specs(args.quick)
                  if s.section in args.sections and s.kernel.key in keys]
    args.full = (not args.quick and args.kernels == "all" and args.sections == ["seed", "size"])
    args.out_dir = args.out_dir or os.path.join(
        ROOT, "build/peers/results-quick" if args.quick else "bench/results")
    args.log_dir = os.path.join(ROOT, "build/peers/logs")
    overrides = dict(item.split("=", 1) for item in args.peer_bin)
    args.bins = native_binaries([f"{k}={v}" for k, v in overrides.items() if k != "quiver-cpp"],
                                names=("arrow-rs", "arrow-rs-native"))
    cpp = overrides.get("quiver-cpp") or os.environ.get("QUIVER_COMPUTE_PEER") or \
        os.path.join(ROOT, CPP_BIN)
    if not os.access(cpp, os.X_OK):
        ap.error(f"no Quiver C++ peer at {cpp} (cmake --build --preset release --target "
                 "quiver_compute_peer; run_compute.sh builds it)")
    args.bins["quiver-cpp"] = cpp
    args.procs = [p for p in PROCS if p in args.bins or not p.startswith("arrow-rs")]
    return args


def main():
    args = parse_args()
    started = datetime.datetime.now()
    t0 = time.perf_counter()
    start = os.environ.get("QUIVER_BENCH_START")
    wall0 = float(start) if start else time.time()
    for name in os.listdir(SHM) if os.path.isdir(SHM) else []:
        pid = name[4:]
        if name.startswith("run-") and pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            shutil.rmtree(os.path.join(SHM, name), ignore_errors=True)
    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, f"compute_{started.strftime('%Y-%m-%d')}_{commit()}"
                        + ("" if args.full or args.quick else "_partial"))
    registry, results = {}, []
    budget_s = args.budget_minutes * 60 - (time.time() - wall0)
    per_case = [len(args.procs)] * len(args.specs)
    target_ms = args.target_ms or (QUICK_TARGET_MS if args.quick else DEFAULT_TARGET_MS)
    args.target_s = cc.target_for(per_case, budget_s, schedule.R_MIN, schedule.R_MAX,
                                  target_ms / 1e3)
    least, most = cc.plan(per_case, args.target_s, schedule.R_MIN, schedule.R_MAX)
    registry["_plan"] = {"cases": len(args.specs), "procs": args.procs,
                         "target_s": args.target_s, "least_min": least / 60,
                         "most_min": most / 60, "budget_min": args.budget_minutes}
    log(f"bench-compute: {len(args.specs)} cases, arms {', '.join(args.procs)}; timings of "
        f"{args.target_s * 1e3:.1f} ms; planned {least / 60:.1f} to {most / 60:.1f} min "
        f"(every case at {schedule.R_MIN} to {schedule.R_MAX} rounds) within "
        f"{budget_s / 60:.1f} min left of the {args.budget_minutes:g}-min budget")
    log("rule: " + schedule.RULE)
    if args.pin_selftest:
        registry["_selftest"] = pin_selftest([p for p in args.procs if p in PIN_OVERRIDES],
                                             args.bins, argv_of, PIN_OVERRIDES)
        log("allocator pin self-test: " + "; ".join(
            f"{p} with {o}: {r}" for p, o, r in registry["_selftest"]))
    os.makedirs(RUN_SHM, exist_ok=True)
    session = Session(args.procs, args.bins, args.log_dir, registry, argv_of=argv_of)
    args.economy = False
    units_per_case = [(cc.FIXED_TIMINGS + schedule.R_MAX) * n for n in per_case]
    done_units = done_s = 0.0
    try:
        for i, spec in enumerate(args.specs):
            c0 = time.perf_counter()
            run_spec(args, spec, session, (registry, results))
            done_units += units_per_case[i]
            done_s += time.perf_counter() - c0
            end = cc.project(time.time() - wall0, done_units, done_s, sum(units_per_case[i + 1:]))
            if (end > args.budget_minutes * 60) != args.economy:
                args.economy = not args.economy
                log(f"\nbudget: the run is projected to end at {end / 60:.0f} min: "
                    + ("failing checks are no longer repeated (economy)" if args.economy
                       else "checks are repeated again"))
            registry.setdefault("_budget", []).append(
                {"after": spec.input_name, "projected_min": end / 60, "economy": args.economy})
            if i % 8 == 7:
                compute_report.write(args, results, registry, started, stem,
                                     time.perf_counter() - t0, final=False)
    finally:
        session.close()
        shutil.rmtree(RUN_SHM, ignore_errors=True)
    wall = time.perf_counter() - t0
    compute_report.write(args, results, registry, started, stem, wall, final=True)
    log(f"\nbench-compute: wall time {wall / 60:.1f} min; {stem}.md, .json.gz, .png")
    if (args.update_readme or args.full) and not args.quick:
        compute_report.update_readme(stem + ".md", started, results, args, wall)
    ours = [f"{r['id']} ({k})" for r in results for k, a in r.get("arms", {}).items()
            if a["status"] == "FAIL" and a["role"] in ("main", "control")]
    if ours:
        log("bench-compute: Quiver's results FAILED the gate in: " + ", ".join(ours))
        sys.exit(1)


if __name__ == "__main__":
    main()
