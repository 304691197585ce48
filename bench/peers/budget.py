"""The time budget of `make bench-peers` (run.py --budget-minutes, 57 by
default; the clock starts when run.sh has built the extension, after
`make bench-peers-build` built the Rust and Go peers: builds are not in
it): it binds.

Issue 43: every make bench-* ends within 60 minutes on 2 cores. The
budget is planned from an earlier full run (estimate.Reference: the newest
in bench/results), each case costed under today's schedule (Plan) by two
figures: its floor, the work no deadline removes (gate, warm-ups, R_MIN
rounds of one repetition, R_NEAR for a case with an arm within 1 +- NEAR;
the far peers other than the fastest leave after one), and its full cost
(every round the rule wants, its repetitions).

- Inputs. When an input starts, the time left is split over it and every
  input still to come in proportion to their full costs, but never below a
  floor (short of the floors, in proportion to them): the input's share,
  ending at its deadline.
- Cases. Before each case in each session of the input, what is left of
  the share (less the set-up of the sessions still to come) is split the
  same way over this case and the input's cases still to run, a case's
  costs spread over its sessions by their processes (Quiver, its control
  and the session's peers). Now plus this case's part is its deadline.
- A case's repetitions are cut (the same for every arm) so that R_MIN
  rounds fit before its deadline; past it, the case finishes the round in
  progress and stops, never before R_MIN rounds (R_NEAR while an undecided
  ratio lies within 1 +- NEAR) (schedule.run_case). Every
  arm of a round runs, the control and order checks are reported, and a
  ratio not yet decided is "undecided", flagged "budget: stopped at N
  rounds", never a win, tie or loss.

Time a case leaves unused goes to the cases after it, and an overrun is
taken from them; the run ends at the budget as long as the floors fit in
it. simulate() replays the reference's cases under these rules on a fake
clock (estimate.py --simulate, also for a run of some sections or sinks;
schedule_test.py checks that the last full run would end within the
budget, its floor leaving room for more rounds).

"""

import math
import os
import statistics
import time

from peer_process import CONTROL, MAIN, plan_parts
import schedule


# Seconds the budget keeps for the run's end: the last case's round in
# progress past its deadline (a TPC-H round is about 40 s) and the report.
RESERVE_S = 60.0


def split(left, this, later):
    """Seconds of `left` for `this` ((floor, full) seconds) ahead of
    `later` (the (floor, full) of each thing after it): in proportion to
    the full costs, but never below a floor: each gets max(floor, k x full),
    k such that all add up to `left`. Short of the floors, in proportion
    to them."""
    items = [(f, max(f, c)) for f, c in [this] + list(later)]
    floors = sum(f for f, _ in items)
    if left <= floors:
        return left * this[0] / floors if floors > 0 else 0.0
    free, pinned = items, 0.0
    while True:
        total = sum(c for _, c in free)
        if total <= 0:  # every floor met, nothing to spread by: by the floors
            return this[0] + (left - floors) * this[0] / floors
        k = (left - pinned) / total
        low = [(f, c) for f, c in free if f > k * c]
        if not low:
            return max(items[0][0], k * items[0][1])
        pinned += sum(f for f, _ in low)
        free = [(f, c) for f, c in free if f <= k * c]


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1])


class Budget:
    """The run's budget: `limit_s` seconds from `t0` (default: now) on
    `clock`; `costs` {(section, input): (floor, full) seconds} of every
    input the run will do. math.inf: no budget (no deadlines)."""

    def __init__(self, limit_s, costs, clock=time.time, t0=None):
        self.limit, self.clock = limit_s, clock
        self.t0 = clock() if t0 is None else t0
        self.left = dict(costs)
        self.entries = []   # one per input done (the report's _budget)
        self.cut = []       # ids of the cases its deadlines stopped

    @property
    def binding(self):
        return math.isfinite(self.limit)

    def share(self, section, name):
        """Starts an input: its share of the time left."""
        now = self.clock()
        key = (section, name)
        this = self.left.get(key, (0.0, 1.0))
        later = [c for k, c in self.left.items() if k != key]
        if not self.binding:
            return Share(self, section, name, now, math.inf)
        return Share(self, section, name, now,
                     split(max(0.0, self.t0 + self.limit - RESERVE_S - now), this, later))

    def done(self, share, cut_ids, reps_cut=()):
        """Ends an input; `cut_ids`: its cases that a deadline stopped,
        `reps_cut`: those whose repetitions it cut."""
        now = self.clock()
        self.left.pop((share.section, share.name), None)
        self.cut += cut_ids
        entry = {"after": f"{share.section}/{share.name}",
                 "share_min": share.seconds / 60 if self.binding else None,
                 "used_min": (now - share.start) / 60, "spent_min": (now - self.t0) / 60,
                 "cut": len(cut_ids), "reps_cut": len(reps_cut)}
        self.entries.append(entry)
        return entry


class Share:
    """One input's share of the budget: `seconds` from `start`."""

    def __init__(self, budget, section, name, start, seconds):
        self.budget, self.section, self.name = budget, section, name
        self.start, self.seconds = start, seconds
        self.deadline = start + seconds

    def case_deadline(self, this, later=(), reserve=0.0):
        """The next case's deadline (None: no budget): what is left of the
        share, less `reserve` seconds (set-up still to come), split between
        this case (`this`: (floor, full)) and the cases after it (`later`:
        the (floor, full) of each)."""
        if not math.isfinite(self.deadline):
            return None
        now = self.budget.clock()
        return now + split(max(0.0, self.deadline - now - reserve), this, later)


def case_slots(costs, part_procs):
    """[(session, case, this, later)] in run order: every case (`costs`:
    its (floor, full)) in every session (`part_procs`: the processes of
    each), a case's costs spread over its sessions by their processes;
    `later`: the costs of the slots after it."""
    total = float(sum(part_procs)) or 1.0
    slots = [(i, j, (f * n / total, c * n / total)) for i, n in enumerate(part_procs)
             for j, (f, c) in enumerate(costs)]
    return [(i, j, w, [x[2] for x in slots[k + 1:]]) for k, (i, j, w) in enumerate(slots)]


# ---------------------------------------------------------------------------
# A reference run's cases under today's schedule (the plan and the
# simulation).

class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


class _Arm:
    """What schedule.case_reps reads of an arm."""

    def __init__(self, gate_s, warmups_s):
        self.gate_s, self.warmups_s, self.kernel = gate_s, warmups_s, None


def _owner(arm):
    """Whose session an arm runs in: Quiver's (every session), the first
    session (quiver-mt), or its peer's."""
    if arm["role"] in ("main", "control") or (arm["proc"] in (MAIN, CONTROL)
                                              and arm["role"] == "follower"):
        return MAIN
    if arm["role"] == "mt":
        return "first"
    if arm["role"] == "layout":
        return arm["name"].split(schedule.LAYOUT_SEP)[1]
    return arm["proc"]


def _warmups(arm, today=True, main_gate_s=None):
    """The arm's untimed runs under today's rule (schedule.warms_up: none
    after a long gate run, nor for a peer far from Quiver's gate run
    `main_gate_s`), or as the reference ran them."""
    if today and not schedule.warms_up(arm.get("gate_s"), arm["role"], main_gate_s):
        return []
    return list(arm.get("warmups_s") or [])


# The reference's seconds outside the timing per call of a Python peer
# (quiver, control, pyarrow, duckdb, polars): its full garbage collection
# before each run, before py_peer's freeze_heap (a least-squares fit over
# the 165ba56 run's sessions: 25 ms a Python call, about 0 a Rust or Go
# call, 1.8 s a session; 35-45 ms measured per collection on a loaded
# machine). Today's: a repetition after the first costs REP_S plus REP_FRAC
# of the write outside the timing (the file sink's unlink; measured 0.1-8
# ms for 8-170 ms writes), a collection about nothing.
GC_S, REP_S, REP_FRAC = 0.025, 0.001, 0.05
PY_PROCS = ("quiver", "control", "pyarrow", "pyarrow-mt", "duckdb", "duckdb-mt", "polars",
            "polars-mt")


def _spent(part, k):
    """(seconds, python calls, arms) of a reference session `k` of a case:
    the seconds of its gates, warm-ups and rounds (Quiver's gate ran in the
    first session only), its Python peers' calls, and its arms {key: (arm,
    {round: seconds of one repetition})}."""
    spent, py, arms = 0.0, 0, {}
    reps = part.get("reps", 1)  # (a timed run's time is the median of its reps)
    for key, a in part.get("arms", {}).items():
        t = dict(part.get("times_s", {}).get(key, []))
        arms[key] = (a, t)
        n = len(a.get("warmups_s") or []) + len(t)
        if a.get("gate_s") is not None and (k == 0 or _owner(a) != MAIN):
            spent += a["gate_s"]
            n += 1
        spent += sum(a.get("warmups_s") or []) + sum(t.values()) * reps
        py += n if a["proc"] in PY_PROCS else 0
    return spent, py, arms


def _near(rec):
    """{(sink, arm name)} of a reference case's deciding arms whose ratio
    lay within 1 +- NEAR (schedule.near_one): such a case has R_NEAR rounds
    before a deadline may stop it."""
    out = set()
    for sink, s in rec.get("sinks", {}).items():
        for name, st in s.get("stats", {}).items():
            if schedule.near_one(st):
                out.add((sink, name))
    roles = {(a["sink"], a["name"]): a["role"] for p in rec.get("parts", [rec])
             for a in p.get("arms", {}).values()}
    return {k for k in out if roles.get(k) in schedule.DECIDERS}


def _leader(arm):
    """The peer a follower arm goes with (a peer's -mt arm, a layout arm
    quiver@PEER, a CDC writer's PEER:default), or None."""
    n = arm["name"]
    if arm["role"] not in ("follower", "layout"):
        return None
    if n.endswith("-mt"):
        return n[:-3]
    if schedule.LAYOUT_SEP in n:
        return n.split(schedule.LAYOUT_SEP)[1]
    return n.split(":")[0] if ":" in n else None


def _far_one(rec, arms):
    """Keys of `arms` ({key: (arm, times, session)}) that leave after one
    round under today's rule (schedule.far_after_one), judged from the
    reference's figures: peer arms other than their sink's fastest whose
    ratio and gate runs' ratio both lie FAR or more from Quiver's on the
    same side, and the arms that follow them."""
    far = set()
    gates = {(a["sink"], a["name"]): a.get("gate_s") for a, _, _ in arms.values()}
    lo, hi = 1 / schedule.FAR, schedule.FAR
    for a, _, _ in arms.values():
        s = rec.get("sinks", {}).get(a["sink"], {})
        st = s.get("stats", {}).get(a["name"])
        q, g = gates.get((a["sink"], MAIN)), a.get("gate_s")
        if a["role"] != "peer" or st is None or a["name"] == s.get("fastest") or not q or not g:
            continue
        if (st["ratio"] < lo and q / g < lo) or (st["ratio"] > hi and q / g > hi):
            far.add((a["sink"], a["name"]))
    return {key for key, (a, _, _) in arms.items()
            if (a["sink"], a["name"]) in far or (a["sink"], _leader(a)) in far}


def _case_parts(rec, new_parts, gc_s, rep, today=True, sinks=None):
    """The sessions of one case under today's plan `new_parts` (lists of
    peer processes): per session None (nothing timed there) or {"fixed":
    seconds of gates, warm-ups and what the reference spent outside the
    timing (less `gc_s` a Python call), "rounds": [(a, b)] a round's
    seconds being a times the repetitions plus b, "wanted": the rounds the
    rule wants, "min_rounds": the rounds no deadline removes (R_MIN, R_NEAR
    with an arm within 1 +- NEAR), "extra": a repeat round's (a, b),
    "arms", "reps": the rule's repetitions}. `rep(seconds)`: seconds outside
    the timing of a repetition after the first. today=False: as the
    reference ran (its warm-ups, one repetition, no repeat of a failing
    check, R_MIN). `sinks`: only these sinks' arms (a run of some sinks)."""
    parts = rec.get("parts", [rec])
    arms = {}   # key -> (arm, times {round: s}, reference session)
    outside = []
    for k, p in enumerate(parts):
        spent, py, here = _spent(p, k)
        for key, (a, t) in here.items():
            if sinks is not None and a["sink"] not in sinks:
                continue
            if _owner(a) != MAIN or key not in arms or len(t) > len(arms[key][1]):
                arms[key] = (a, t, k)
        outside.append(p.get("seconds_total", 0.0) - spent - gc_s * py)
    wants_repeat = today and rec.get("economy") and any(
        s.get("flags") for s in rec.get("sinks", {}).values())
    near = _near(rec) if today else set()
    far = _far_one(rec, arms) if today else set()
    out = []
    for i, procs in enumerate(new_parts):
        mine = {key: v for key, v in arms.items()
                if _owner(v[0]) in procs or (_owner(v[0]) == "first" and i == 0)}
        if not any(v[0]["role"] in schedule.DECIDERS for v in mine.values()):
            out.append(None)  # nothing timed in this session
            continue
        qc = {key: v for key, v in arms.items() if _owner(v[0]) == MAIN}
        refs = {v[2] for v in mine.values()}
        rounds = max(len(v[1]) for v in mine.values())
        live = {**mine, **qc}
        mains = {a["sink"]: a.get("gate_s") for a, _, _ in live.values() if a["role"] == "main"}
        fixed = max(0.0, sum(outside[k] for k in refs) / len(refs))
        for key, (a, t, _) in live.items():
            if a.get("gate_s") is None:
                continue
            if _owner(a) != MAIN or i == 0:
                fixed += a["gate_s"] + sum(_warmups(a, today, mains.get(a["sink"])))
            elif schedule.warms_up(a["gate_s"]) or not today:  # reuse_gate's warm-up
                fixed += statistics.median(t.values()) if t else a["gate_s"]
        per_round = []
        for r in range(rounds):
            a_ = b_ = 0.0
            for key, (a, t, _) in live.items():
                here = r in t if _owner(a) != MAIN else any(
                    r in v[1] for v in mine.values() if v[0]["sink"] == a["sink"])
                if r >= 1 and key in far:
                    here = False  # decided after one round today
                if here and t:
                    x = t.get(r, statistics.median(t.values()))
                    a_ += x + rep(x)
                    b_ -= rep(x)
            per_round.append((a_, b_))
        close = {(a["sink"], a["name"]) for a, _, _ in mine.values()} & near
        min_rounds = schedule.R_NEAR if close else schedule.R_MIN
        if len(per_round) < min_rounds:
            # The reference stopped it sooner (its budget): the rounds to
            # R_NEAR run the close arms with their sinks' Quiver and control.
            a_ = b_ = 0.0
            for a, t, _ in live.values():
                if t and ((a["sink"], a["name"]) in close or (
                        a["role"] in ("main", "control") and a["sink"] in {s for s, _ in close})):
                    x = statistics.median(t.values())
                    a_ += x + rep(x)
                    b_ -= rep(x)
            per_round += [(a_, b_)] * (min_rounds - len(per_round))
        extra = [0.0, 0.0]
        if wants_repeat and rounds < schedule.R_CHECK:
            # The reference ran in economy (no repeat of a failing check):
            # today the failing sink's Quiver, control and fastest peer go on.
            for s in rec.get("sinks", {}).values():
                if s.get("flags"):
                    for name in (MAIN, CONTROL, s.get("fastest")):
                        t = next((v[1] for v in live.values() if v[0]["name"] == name), None)
                        if t:
                            x = statistics.median(t.values())
                            extra[0] += x + rep(x)
                            extra[1] -= rep(x)
        arms_ = [_Arm(a["gate_s"], _warmups(a, today, mains.get(a["sink"])))
                 for a, t, _ in live.values() if t and a.get("gate_s")]
        out.append({"fixed": fixed, "rounds": per_round, "extra": tuple(extra),
                    "wanted": max(len(per_round), schedule.R_CHECK if extra[0] else 0),
                    "min_rounds": min_rounds,
                    "arms": arms_, "reps": schedule.case_reps(arms_) if today else 1})
    return out


def gc_cost(ref):
    """GC_S, or 0 for a reference whose Python peers froze their heap
    (run.py says so in the registry's "_harness")."""
    frozen = (ref.run or {}).get("registry", {}).get("_harness", {}).get("py_heap_frozen")
    return 0.0 if frozen else GC_S


def session_costs(m):
    """(floor, full) seconds of a session model of _case_parts."""
    if m is None:
        return (0.0, 0.0)
    floor = m["fixed"] + sum(a + b for a, b in m["rounds"][:m["min_rounds"]])
    full = m["fixed"] + sum(a * m["reps"] + b for a, b in m["rounds"])
    full += max(0, m["wanted"] - len(m["rounds"])) * (m["extra"][0] * m["reps"] + m["extra"][1])
    return (floor, full)


def ref_sessions(rec):
    """The peer processes of each session a reference case ran in."""
    return [sorted({_owner(a) for a in p["arms"].values()} - {MAIN, "first"})
            for p in rec.get("parts", [rec])]


# The read section's multi-threaded sink (run.py READ_MT): Quiver and its
# control with use_threads, and the peers' -mt processes. A reference run
# without it is costed with a copy of its one-thread arms (the same
# processes' sessions; a multi-threaded read takes at most about its
# one-thread time on 2 cores, so the copy errs long).
READ_MT = "read-mt"
READ_MT_NAMES = {MAIN: MAIN, CONTROL: CONTROL, "pyarrow": "pyarrow-mt",
                 "duckdb": "duckdb-mt", "polars": "polars-mt"}


def with_read_mt(rec):
    """`rec`, or for a read case without the read-mt sink, a copy of it
    with that sink's arms, rounds and figures copied from its read sink's
    (Quiver's, the control's, pyarrow's, duckdb's and polars')."""
    parts = rec.get("parts", [rec])
    if rec.get("section") != "read" or any(
            a["sink"] == READ_MT for p in parts for a in p.get("arms", {}).values()):
        return rec

    def copy_part(p):
        q = dict(p, arms=dict(p.get("arms", {})), times_s=dict(p.get("times_s", {})),
                 sinks=dict(p.get("sinks", {})))
        added = 0.0
        for key, a in p.get("arms", {}).items():
            name = READ_MT_NAMES.get(a["name"])
            if a["sink"] != "read" or name is None:
                continue
            new = f"{name}/{READ_MT}"
            q["arms"][new] = dict(a, name=name, sink=READ_MT)
            t = p.get("times_s", {}).get(key)
            if t is not None:
                q["times_s"][new] = list(t)
                added += sum(x for _, x in t) * p.get("reps", 1)
            added += (a.get("gate_s") or 0.0) + sum(a.get("warmups_s") or [])
        s = p.get("sinks", {}).get("read")
        if s is not None:
            q["sinks"][READ_MT] = {"stats": {READ_MT_NAMES[n]: st for n, st in
                                             s.get("stats", {}).items() if n in READ_MT_NAMES},
                                   "flags": list(s.get("flags", []))}
        q["seconds_total"] = p.get("seconds_total", 0.0) + added
        return q
    if "parts" not in rec:
        return copy_part(rec)
    out = dict(rec, parts=[copy_part(p) for p in parts])
    out["arms"] = {k: a for p in out["parts"] for k, a in p["arms"].items()}
    s = rec.get("sinks", {}).get("read")
    if s is not None:
        out["sinks"] = dict(rec.get("sinks", {}))
        out["sinks"][READ_MT] = {"stats": {READ_MT_NAMES[n]: st for n, st in
                                           s.get("stats", {}).items() if n in READ_MT_NAMES},
                                 "flags": list(s.get("flags", []))}
    return out


def today_records(ref, today=True):
    """The reference's cases as today's run has them (with_read_mt), or as
    they ran (today=False)."""
    if not today:
        return ref.records
    cached = getattr(ref, "_today_records", None)
    if cached is None:
        cached = ref._today_records = [with_read_mt(r) for r in ref.records]
    return cached


class Plan:
    """(floor, full) seconds of each case of the reference `ref`
    (estimate.Reference) under today's schedule, in the sessions it ran in
    then; a reference without rounds (an older .md) gives a floor of 0 and
    its cost as the full."""

    def __init__(self, ref, gc_s=None, rep_s=REP_S, rep_frac=REP_FRAC, today=True, sinks=None):
        self.ref = ref
        self.cases = {}
        gc_s = gc_cost(ref) if gc_s is None else gc_s
        for r in today_records(ref, today):
            models = _case_parts(r, ref_sessions(r), gc_s, lambda t: rep_s + rep_frac * t,
                                 today, sinks)
            cost = (0.0, 0.0)
            for m in models:
                cost = _add(cost, session_costs(m))
            self.cases[(r["section"], r["input"], r["label"])] = cost
        if not ref.records:
            self.cases = {k: (0.0, c) for k, c in ref.cases.items()}

    def case(self, section, name, label):
        base = "matrix" if section == "read" else section
        key = (section, self.ref._input_name(base, name), label)
        if key in self.cases:
            return self.cases[key]
        same = [c for (s, _, _), c in self.cases.items() if s == section]
        if not same:
            return (0.0, 1.0)
        return (statistics.median(f for f, _ in same), statistics.median(c for _, c in same))

    def setup(self, section, name):
        """Seconds of one session's set-up (loads, read files)."""
        base = self.ref._input_name(section, name)
        return self.ref.overhead(section, name) / self.ref.parts.get((section, base), 1)

    def input(self, section, name, labels):
        """(floor, full) of an input with the cases `labels` ([(section, label)])."""
        base = self.ref._input_name(section, name)
        setup = self.ref.overhead(section, name)
        cost = (setup, setup)
        for sec, lab in labels:
            cost = _add(cost, self.case(sec, name, lab))
        return cost


def _units(procs, with_mt):
    return [[p] + ([p + "-mt"] if with_mt and p + "-mt" in procs else [])
            for p in procs if p in schedule.ST_PEERS]


def _input_file(section, name, rows):
    if section == "cdc":
        return f"cdc_{name}.arrow"
    if section == "tpch":
        return f"tpch_{name}.arrow"
    return f"{name}.{rows}.arrow"


def simulate(ref, limit_s, replan=True, available=None, gc_s=None, rep_s=REP_S,
             rep_frac=REP_FRAC, today=True, sections=None, sinks=None):
    """A full run replayed from the reference (estimate.Reference of a full
    run's .json.gz) under today's schedule and a binding budget of
    `limit_s`: {"end_s", "cut", "cases", "inputs": [...], "floor_s"}.
    `replan`: today's sessions (plan_parts with the measured peaks, memory
    as the reference machine's) instead of the reference's. `gc_s`,
    `rep_s`, `rep_frac`: see GC_S. today=False, replan=False, gc_s=0 and
    no budget replay the reference as it ran (its wall time, within a few
    percent: the model's check). Today's run has the read section's
    multi-threaded sink, which a reference may lack (with_read_mt).
    `sections`, `sinks`: a run of these only (run.py --sections, and the
    sinks of every section: --sinks file stands for the matrix's and the
    others' file sink), each with its own budget."""
    run = ref.run
    gc_s = gc_cost(ref) if gc_s is None else gc_s
    procs = run["args"]["procs"]
    rows = run["args"]["rows"]
    mem = available
    if mem is None:
        kb = str(run.get("machine", {}).get("memory", "")).split()
        mem = int(kb[0]) * 1024 if kb and kb[0].isdigit() else None
    sizes = {}
    for p in run["registry"].get("_peak_rss", []):
        if p.get("factor"):
            sizes[(p["mode"], os.path.basename(p["input"] or ""))] = p["peak_bytes"] / p["factor"]
    order = [(t["section"], t["input"]) for t in run["registry"].get("_timing", [])]
    startup = max(0.0, run.get("wall_s", 0.0) - sum(ref.inputs[k] for k in order))
    plan = Plan(ref, gc_s, rep_s, rep_frac, today=today, sinks=sinks)
    records = [r for r in today_records(ref, today)
               if sections is None or r["section"] in sections]
    labels = {}
    for r in records:
        key = ("matrix" if r["section"] == "read" else r["section"], r["input"])
        labels.setdefault(key, []).append((r["section"], r["label"]))
    order = [k for k in order if k in labels]
    clock = FakeClock()
    budget = Budget(limit_s, {k: plan.input(*k, labels.get(k, [])) for k in order},
                    clock=clock, t0=0.0)
    clock.advance(startup)  # the pin self-test, outside the inputs
    floor, inputs, ncases, undecided = clock(), [], 0, 0
    for sec, name in order:
        secs = ("matrix", "read") if sec == "matrix" else (sec,)
        recs = [r for r in records if r["section"] in secs and r["input"] == name]
        mode = "shipped" if sec == "shipped" else "pinned"
        if replan:
            fname = _input_file(sec, name, rows)
            units = _units(procs, with_mt=sec == "matrix")
            size = sizes.get((mode, fname), 0.0)
            used = run["args"]["sinks"] if sec == "matrix" else ["file"]
            new = plan_parts(units, size, 1.0, used, peaks=ref.input_peaks(mode, fname),
                             available=mem, quiet=True) or [[]]
        else:
            new = ref_sessions(recs[0])
        models = [_case_parts(r, new, gc_s, lambda t: rep_s + rep_frac * t, today, sinks)
                  for r in recs]
        share = budget.share(sec, name)
        setup = plan.setup(sec, name)
        slots = case_slots([plan.case(r["section"], name, r["label"]) for r in recs],
                           [2 + len(p) for p in new])
        cut, reps_cut, stopped = set(), set(), {}
        for i, j, w, later in slots:
            if j == 0:
                clock.advance(setup)
                floor += setup
            m = models[j][i]
            if m is None:
                continue
            deadline = share.case_deadline(w, later, setup * (len(new) - 1 - i))
            clock.advance(m["fixed"])
            reps = m["reps"]
            if deadline is not None:
                reps = schedule.reps_within(m["arms"], deadline - clock(), reps,
                                            m["min_rounds"])
            if reps < m["reps"]:
                reps_cut.add(recs[j]["id"])
            cost = [a * reps + b for a, b in m["rounds"]]
            floor += m["fixed"] + sum(a + b for a, b in m["rounds"][:m["min_rounds"]])
            for r in range(m["wanted"]):
                clock.advance(cost[r] if r < len(cost) else m["extra"][0] * reps + m["extra"][1])
                if r + 1 >= m["min_rounds"] and r + 1 < m["wanted"] and deadline is not None \
                        and clock() >= deadline:
                    cut.add(recs[j]["id"])
                    stopped[recs[j]["id"]] = min(stopped.get(recs[j]["id"], r + 1), r + 1)
                    break
        ncases += len(recs)
        undecided += sum(_undecided(r, stopped[r["id"]]) for r in recs if r["id"] in stopped)
        entry = budget.done(share, sorted(cut), sorted(reps_cut))
        entry.update(parts=len(new), ref_parts=ref.parts.get((sec, name), 1),
                     ref_min=ref.inputs[(sec, name)] / 60)
        inputs.append(entry)
    return {"end_s": clock(), "limit_s": limit_s, "cut": len(budget.cut), "cases": ncases,
            "reps_cut": sum(e["reps_cut"] for e in inputs), "undecided": undecided,
            "inputs": inputs,
            "floor_s": floor, "reference": ref.source}


def _undecided(rec, rounds):
    """Sinks of a reference case whose fastest peer had not left the rounds
    decided after `rounds` rounds (and whose checks held): what a deadline
    there leaves "undecided"."""
    n = 0
    for sink, s in rec.get("sinks", {}).items():
        if "fastest" not in s or s.get("flags"):
            continue
        key = f"{s['fastest']}/{sink}"
        part = next((p for p in rec.get("parts", [rec]) if key in p.get("times_s", {})), rec)
        left = part.get("left_after", {}).get(key)
        n += left is None or left > rounds
    return n


def print_simulation(sim):
    print(f"{'input':52s} {'ref min':>7s} {'sessions':>8s} {'share':>6s} {'used':>6s} "
          f"{'at':>6s} cut")
    for e in sim["inputs"]:
        share = "-" if e["share_min"] is None else f"{e['share_min']:.1f}"
        print(f"{e['after']:52s} {e['ref_min']:7.1f} {e['ref_parts']:>3d} -> {e['parts']:<2d} "
              f"{share:>6s} {e['used_min']:6.1f} {e['spent_min']:6.1f} {e['cut']}")
    limit = sim["limit_s"] / 60 if math.isfinite(sim["limit_s"]) else None
    print(f"projected end {sim['end_s'] / 60:.1f} min"
          + (f" of a {limit:g}-min budget" if limit else " (no budget)")
          + f"; {sim['cut']} of {sim['cases']} cases stopped at their deadline, "
          f"{sim['reps_cut']} with fewer repetitions than the rule's, about {sim['undecided']} "
          f"case-sinks left undecided; the work no deadline removes (gates, "
          f"warm-ups, {schedule.R_MIN} rounds of one repetition ({schedule.R_NEAR} for a case "
          f"within 1 +- {schedule.NEAR:g}), set-up): "
          f"{sim['floor_s'] / 60:.1f} min")
