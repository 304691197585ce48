"""How one case of the peer harness is measured: its arms, the correctness
gate and warm-ups, the rounds and when they stop, and the figures of each
sink (ratios with bootstrap intervals, control, order check, verdict).

The rule (RULE below is printed in every report):
- Warm-up: each arm writes (or reads) once for the correctness gate, then
  once more untimed, and again (at most MAX_WARMUPS in all) while a run is
  more than 10% faster than the one before it (a pool still settling; the
  median of the rounds absorbs one more). An arm whose gate run took
  LONG_RUN_S (0.25 s) or more has no further warm-up: such a run warms
  itself (its allocations are made once and, decay off, kept). Nor has a
  peer arm whose gate run took FAR (2) times Quiver's or more, or under
  1/FAR of it: a first timed run some percent slow cannot bring its ratio
  within reach of 1 +- NEAR, and its gate run was its warm-up.
- A run is REPS back-to-back repetitions and its time their median, REPS
  the same for every arm of a case: enough that the case's fastest arm runs
  MIN_RUN_S, at most MAX_REPS, and at most what keeps its slowest arm's run
  under MAX_RUN_S (a write of a millisecond or less, timed once a round,
  is at the mercy of one interrupt; two rounds of it decided nothing). The gate's comparison runs in a
  thread of the driver meanwhile: nothing else runs during a timed round.
- Rounds: every active arm runs once a round, in a rotating order: round 0
  places each sink's Quiver opposite (half the arms away from) the peer
  that was fastest in the warm-ups, round 1 turns the order by half, so the
  two run in both orders, and later rounds turn it by multiples of the
  golden ratio (any prefix of them spreads every pair over both orders).
- After R_MIN rounds, and after each further round, each peer arm (and
  Quiver's use_threads arm) gets Quiver's time divided by its own, as the
  ratio of medians over the rounds both ran, with a 95% bootstrap interval
  (the rounds resampled in pairs, B resamples). An arm whose ratio and whole
  interval lie outside 1 +- NEAR is decided and leaves the rounds (arms that
  follow it, a layout arm or a peer's -mt arm, leave with it). Sooner, after
  one round: a peer arm, not its sink's fastest in that round, whose gate
  run and first round both put it FAR (2x) or more from Quiver on the same
  side (far_after_one; its interval is the range of those two ratios): the
  slow peers' second round decided nothing.
- The case stops when every arm is decided and both checks hold in every
  sink, or at R_MAX rounds. So a case whose ratio comes within 10% of 1 runs
  R_MAX (11) rounds and reports its interval.
- Checks, per sink: control (a second Quiver process / Quiver, ratio of
  medians) and order (Quiver / fastest peer in the rounds where Quiver ran
  first, over the same where it ran second). One over THRESHOLD (3%) keeps
  that sink's Quiver, control and (order) fastest peer running, the repeat,
  up to R_CHECK (7) rounds; still over then: the case is "noise" in that
  sink, not a win. Only what is still open runs on (an undecided arm and its
  sink's Quiver and control; a failing sink). Where the rotation never ran
  the pair both ways, the pair runs alone in both orders.
- Verdict per case and sink, from Quiver / the fastest peer: noise (above),
  tie (0.98-1.02), win (below), loss (above).
- Deadlines (make bench-peers: run.py's budget, bench/peers/budget.py):
  a case may have one. Its repetitions are cut (the same for every arm) so
  that R_MIN rounds fit before it (R_NEAR when the warm-ups put an arm
  within 1 +- NEAR of Quiver); past it, the case finishes the round in
  progress and stops, never before R_MIN rounds, nor before R_NEAR (3)
  while an undecided arm's ratio lies within 1 +- NEAR (a case within 10%
  of 1 gets at least three rounds under any budget). A sink still open then
  (an arm undecided, a check failing) is flagged "budget: stopped at N
  rounds", and its verdict is "undecided" where the fastest peer's ratio
  was not decided (never a win, tie or loss); the control and order checks
  are reported as ever. make bench-compute has no deadlines: while its run
  is projected past its budget, checks are not repeated (economy).
"""

import hashlib
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from gate import file_hash, read_gate, write_gate
from peer_process import CONTROL, MAIN, PeerDied, log

R_MIN = 2
R_NEAR = 3
R_CHECK = 7
R_MAX = 11
NEAR = 0.10
THRESHOLD = 0.03
TIE = 0.02
MIN_WARMUPS, MAX_WARMUPS, SETTLING = 1, 2, 0.9
LONG_RUN_S = 0.25
FAR = 2.0
MIN_RUN_S, MAX_RUN_S, MAX_REPS = 0.05, 1.0, 50
BOOTSTRAP = 2000
PHI = (5 ** 0.5 - 1) / 2

ST_PEERS = ("pyarrow", "duckdb", "polars", "arrow-rs", "arrow-rs-native", "arrow-go")
MT_ARM = "quiver-mt"
LAYOUT_SEP = "@"
# Roles: main (Quiver), control (a second Quiver process), peer (a
# single-threaded peer: the fastest is chosen among them), mt (Quiver with
# use_threads), follower (a peer's -mt arm, a layout arm, a CDC arm of the
# default variant: runs exactly when its leader does).
DECIDERS = ("peer", "mt")

RULE = (
    f"Each arm: the correctness gate's run, then {MIN_WARMUPS} to {MAX_WARMUPS} untimed runs "
    f"(more while a run is over {1 - SETTLING:.0%} faster than the one before; none after a "
    f"gate run of {LONG_RUN_S:g} s or more, nor for a peer whose gate run took {FAR:g}x "
    f"Quiver's or more, or under 1/{FAR:g} of it). A run is the median of back-to-back repetitions, "
    f"as many for every arm of a case, so that its fastest arm runs {MIN_RUN_S * 1e3:g} ms "
    f"(at most {MAX_REPS}, and its slowest under {MAX_RUN_S:g} s). Rounds in a "
    f"rotating order; a peer arm other than its sink's fastest whose gate run and first "
    f"round both put it {FAR:g}x or more from Quiver leaves after that round (interval: the "
    f"range of the two ratios); after {R_MIN} rounds, and after each further round, every peer arm "
    f"whose ratio (Quiver/peer, ratio of medians over the rounds both ran) and whole 95% "
    f"bootstrap interval lie outside 1 +- {NEAR:.2f} is decided and leaves the rounds; the "
    f"case stops when all are decided and the control and order checks are within "
    f"{THRESHOLD:.0%}, else at {R_MAX} rounds (so every case within 10% of 1 has {R_MAX} "
    f"rounds and an interval). A check over {THRESHOLD:.0%} keeps that sink's Quiver, "
    f"control and fastest peer running (the repeat) up to {R_CHECK} rounds; still over then, "
    f"the case is \"noise\" in that sink. Verdict from Quiver/fastest peer: tie within "
    f"{1 - TIE:.2f}-{1 + TIE:.2f}, win below, loss above. A case's deadline (make "
    f"bench-peers' time budget) cuts its repetitions so that {R_MIN} rounds fit, and past "
    f"it the case ends with the round in progress (at least {R_MIN}, and {R_NEAR} while an "
    f"undecided ratio lies within 1 +- {NEAR:.2f}): a sink left open is "
    f"flagged \"budget: stopped at N rounds\", and \"undecided\" where the fastest peer's "
    f"ratio was not decided (make bench-compute: no deadlines; no repeat while its run is "
    f"projected past its budget, \"economy\").")


class Arm:
    """One timed thing of a case. Writes have a `variant`, reads a `file`;
    a compute kernel (make bench-compute) has `kernel`, the fields of its
    `kernel` command (PROTOCOL.md, "Compute kernels"); a filtered read (make
    bench-filter) has `kernel` too, with "cmd": "filter" and that command's
    fields ("Filtered reads"). `gate_reply`: the gate run's reply less its
    seconds (what a peer says about the run: pruning counts, its source)."""

    def __init__(self, name, sink, proc, role, variant=None, file=None, leader=None,
                 use_threads=False, kernel=None):
        self.name, self.sink, self.proc, self.role = name, sink, proc, role
        self.variant, self.file, self.leader, self.use_threads = variant, file, leader, use_threads
        self.kernel = kernel
        self.status, self.message, self.facts = "ok", "", {}
        self.gate_s, self.warmups_s, self.bytes = None, [], None
        self.gate_reply = {}
        self.reps = 1  # repetitions of a timed run (run_case sets them per case)
        self.far_gate_ratio = None  # set when decided after one round (far_after_one)

    @property
    def key(self):
        return f"{self.name}/{self.sink}"

    @property
    def leader_key(self):
        return f"{self.leader}/{self.sink}" if self.leader else None


class Case:
    def __init__(self, section, input_name, label, kind, arms, expected=None, distinct=None):
        self.section, self.input, self.label, self.kind = section, input_name, label, kind
        self.arms = arms
        # write: the input table; read: pyarrow's reading; kernel: a function
        # of the result file giving (ok, message).
        self.expected = expected
        self.distinct = distinct  # write: expected distinct counts, or None

    @property
    def id(self):
        return f"{self.section}/{self.input}/{self.label}"


# ---------------------------------------------------------------------------
# Calls.

def reply_timeout(arm):
    """Seconds a timed run may take before its peer is taken for stuck: 20
    times its gate run, at least a minute (a peer thrashing for want of
    memory must not hold the run for REPLY_TIMEOUT)."""
    return max(60.0, 20 * (arm.gate_s or 30.0) * arm.reps)


def timed(peer, arm, work, timeout=None):
    """One timed run of `arm`: the median of its arm.reps repetitions."""
    res = call(peer, arm, work, reps=arm.reps, timeout=timeout)
    if "error" in res:
        return res
    return {**res, "seconds": [statistics.median(res["seconds"])]}


def case_reps(live):
    """The repetitions of every timed run of a case (see the module's rule):
    from the fastest and slowest arm's best untimed run. Kernel arms (make
    bench-compute) time a chosen number of calls per run already: 1."""
    if any(a.kernel is not None and a.kernel.get("cmd", "kernel") == "kernel" for a in live):
        return 1
    best = [min([a.gate_s] + a.warmups_s) for a in live if a.gate_s]
    if not best:
        return 1
    reps = min(MAX_REPS, max(1, -(-MIN_RUN_S // min(best))))
    return int(max(1, min(reps, MAX_RUN_S // max(best))))


def reps_within(live, seconds, reps, rounds=R_MIN):
    """`reps`, or fewer (at least 1, the same for every arm) so that
    `rounds` rounds of the arms `live` fit in `seconds`, each arm's run
    taken as its best untimed one times the repetitions."""
    per_rep = sum(min([a.gate_s] + a.warmups_s) for a in live if a.gate_s)
    if per_rep <= 0:
        return reps
    return int(max(1, min(reps, seconds // (rounds * per_rep))))


def warms_up(gate_s, role=None, main_gate_s=None):
    """Whether an arm whose gate run took `gate_s` gets untimed warm-ups:
    not after a run of LONG_RUN_S or more (it warmed itself), nor for a
    peer arm FAR or more from Quiver's gate run (`main_gate_s`) either way,
    whose ratio a first timed run a little slow cannot bring within reach
    of 1 +- NEAR (its gate run was its warm-up)."""
    if gate_s is None or gate_s >= LONG_RUN_S:
        return False
    if role == "peer" and main_gate_s:
        return 1 / FAR < gate_s / main_gate_s < FAR
    return True


def far_after_one(live, times, active):
    """Keys of the peer arms decided after one round: in each sink, every
    peer arm but the one fastest in round 0 whose gate run and round-0 run
    both put it FAR or more from Quiver's, on the same side (Quiver / peer
    under 1/FAR in both, or over FAR in both). Each such arm gets
    `far_gate_ratio` (its gate runs' ratio): its reported interval is the
    range of the two ratios."""
    out = set()
    for sink in dict.fromkeys(a.sink for a in live):
        main = next((a for a in live if a.sink == sink and a.role == "main"), None)
        if main is None or 0 not in times.get(main.key, {}) or not main.gate_s:
            continue
        peers = [a for a in live if a.sink == sink and a.role == "peer" and a.key in active
                 and 0 in times.get(a.key, {}) and a.gate_s]
        if len(peers) < 2:
            continue
        fastest = min(peers, key=lambda a: times[a.key][0])
        for a in peers:
            if a is fastest:
                continue
            r0, g = times[main.key][0] / times[a.key][0], main.gate_s / a.gate_s
            if (r0 < 1 / FAR and g < 1 / FAR) or (r0 > FAR and g > FAR):
                a.far_gate_ratio = g
                out.add(a.key)
    return out


def near_one(st):
    """Whether a ratio's point estimate lies within 1 +- NEAR."""
    return st is not None and abs(st["ratio"] - 1) <= NEAR


def guess_near(live):
    """Whether the warm-ups put some deciding arm within 1 +- NEAR of its
    sink's Quiver (such a case has R_NEAR rounds before a deadline may stop
    it: its repetitions are cut for R_NEAR rounds)."""
    best = {a.key: min([a.gate_s] + a.warmups_s) for a in live if a.gate_s}
    mains = {a.sink: best.get(a.key) for a in live if a.role == "main"}
    return any(a.role in DECIDERS and best.get(a.key) and mains.get(a.sink)
               and abs(mains[a.sink] / best[a.key] - 1) <= NEAR for a in live)


def call(peer, arm, work, reps=1, out=None, timeout=None):
    if arm.kernel is not None:
        fields = dict(arm.kernel)
        name = fields.pop("cmd", "kernel")
        return peer.call(cmd=name, reps=reps, out=out, _timeout=timeout, **fields)
    if arm.file is not None:
        extra = {"use_threads": True} if arm.use_threads else {}
        return peer.call(cmd="read", file=arm.file, reps=reps, out=out, _timeout=timeout,
                         **extra)
    cmd = {"cmd": "write", "variant": arm.variant, "reps": reps, "sink": arm.sink, "out": out}
    if arm.sink == "file":
        cmd["path"] = os.path.join(work, "files", arm.key.replace("/", ".") + ".parquet")
    if arm.use_threads:
        cmd["use_threads"] = True
    return peer.call(_timeout=timeout, **cmd)


def gate_arms(case, peers, work, cache=None):
    """Each arm once (checked) and its warm-ups; failing arms are left out.
    A sink is gated only if some peer arm of this session can run the case
    (asked with `settings`, which costs nothing): Quiver alone is not timed.
    Quiver's arms go first: the peers of a sink where Quiver cannot run are
    only asked whether they could, not run. The comparisons run in one
    thread beside the next arms' untimed runs, and all end here, before any
    timed round. `cache` ({(case id, arm key): gate result}) carries Quiver's
    gate from one session of a case to the next (its processes stay): there
    it warms up once instead."""
    os.makedirs(os.path.join(work, "gate"), exist_ok=True)
    os.makedirs(os.path.join(work, "files"), exist_ok=True)
    cache = {} if cache is None else cache
    verdicts = {}  # (variant, sha256 of the file) -> (ok, message, facts)
    pending = []
    mains = [a for a in case.arms if a.role == "main"]
    idle = {m.sink for m in mains if not can_compare(case, m.sink, peers)}
    with ThreadPoolExecutor(max_workers=1) as checker:
        for arm in mains + [a for a in case.arms if a.role != "main"]:
            p = peers.get(arm.proc)
            if p is None:
                arm.status, arm.message = "absent", "peer not running"
                continue
            if arm.sink in idle:
                skip(arm, p, "nothing to compare with in this session")
                continue
            if arm.leader not in (None, MAIN) and arm.leader not in peers:
                # (A layout arm or a peer's -mt arm runs only beside its leader.)
                arm.status, arm.message = "absent", f"{arm.leader} is not in this session"
                continue
            main = next((m for m in mains if m.sink == arm.sink), None)
            if arm.role != "main" and (main is None or main.status != "ok"):
                skip(arm, p, "not run: Quiver cannot run in this sink"
                     + (f" ({main.status})" if main is not None else ""))
                continue
            key = (case.id, arm.key)
            if arm.role in ("main", "control") and key in cache:
                reuse_gate(arm, p, work, cache[key])
                continue
            out = gate_run(case, arm, p, work, main)
            if out is not None:
                pending.append((arm, checker.submit(check, case, arm, out, verdicts)))
            elif arm.role in ("main", "control"):
                cache[key] = gate_state(arm)
        for arm, future in pending:
            ok, msg, facts = future.result()
            arm.facts, arm.message = facts, msg
            if not ok:
                arm.status = "FAIL"
            if arm.role in ("main", "control"):
                cache[(case.id, arm.key)] = gate_state(arm)


def can_compare(case, sink, peers):
    """Whether a peer-like arm of `sink` could run here: Quiver's use_threads
    arm always can (if Quiver can); a peer unless it says unsupported."""
    for a in case.arms:
        if a.sink != sink or a.role not in DECIDERS or a.proc not in peers:
            continue
        if a.proc in (MAIN, CONTROL) or a.file is not None or a.kernel is not None:
            return True
        try:
            r = peers[a.proc].call(cmd="settings", variant=a.variant, sink=a.sink)
        except PeerDied:
            continue
        if not r.get("error", "").startswith("unsupported"):
            return True
    return False


def gate_state(arm):
    return {"status": arm.status, "message": arm.message, "facts": arm.facts,
            "bytes": arm.bytes, "gate_s": arm.gate_s}


def reuse_gate(arm, p, work, state):
    """Quiver's arm in a later session of a case: its gate as before, one
    warm-up (its pools are warm; the caches are not)."""
    for k in ("status", "message", "facts", "bytes", "gate_s"):
        setattr(arm, k, state[k])
    if arm.status != "ok":
        return
    if not warms_up(arm.gate_s):
        return
    try:
        arm.warmups_s.append(call(p, arm, work)["seconds"][0])
    except PeerDied as e:
        arm.status, arm.message = "died", str(e)


def skip(arm, peer, message):
    """An arm not run (`message` says why): unsupported if its peer says so."""
    arm.status, arm.message = "skipped", message
    if arm.file is None and arm.kernel is None:
        try:
            r = peer.call(cmd="settings", variant=arm.variant, sink=arm.sink)
        except PeerDied:
            return
        if r.get("error", "").startswith("unsupported"):
            arm.status, arm.message = "unsupported", r["error"]


def gate_run(case, arm, p, work, main=None):
    """The arm's gate run (its output left at the returned path) and its
    warm-ups (warms_up: against `main`, its sink's Quiver arm); None, with
    the arm's status set, if it could not run."""
    suffix = ".arrow" if case.kind in ("read", "kernel", "filter") else ".parquet"
    out = os.path.join(work, "gate", arm.key.replace("/", ".") + suffix)
    if os.path.exists(out):
        os.unlink(out)
    try:
        r = call(p, arm, work, out=out)
        if "error" not in r:
            arm.gate_s = r["seconds"][0]
            arm.bytes = r.get("bytes")
            arm.gate_reply = {k: v for k, v in r.items() if k != "seconds"}
            prev = arm.gate_s
            main_s = main.gate_s if main is not None and main is not arm else None
            for k in range(MAX_WARMUPS if warms_up(arm.gate_s, arm.role, main_s) else 0):
                t = call(p, arm, work)["seconds"][0]
                arm.warmups_s.append(t)
                if k + 1 >= MIN_WARMUPS and t > SETTLING * prev:
                    break
                prev = t
    except PeerDied as e:
        log(f"!!! {case.id}: {e}")
        arm.status, arm.message = "died", str(e)
        return None
    if "error" in r:
        err = r["error"]
        arm.status = "unsupported" if err.startswith("unsupported") else "error"
        arm.message = err
        return None
    return out


def check(case, arm, out, verdicts):
    """(ok, message, facts) of an arm's gate output, which it removes. Two
    identical files of one variant (a peer's two sinks, Quiver and its
    control) are compared once."""
    try:
        if case.kind in ("kernel", "filter"):
            return (*case.expected(out), {})
        if case.kind == "read":
            return (*read_gate(out, case.expected), {})
        key = (arm.variant, file_hash(out))
        if key not in verdicts:
            verdicts[key] = write_gate(out, case.expected, case.distinct)
        return verdicts[key]
    finally:
        os.unlink(out)


def arrange(live):
    """Round 0's order: each sink's Quiver opposite (half the arms away) the
    peer that was fastest in the warm-ups, the other arms in between."""
    n = len(live)
    slots = [None] * n
    mains = [a for a in live if a.role == "main"]
    for i, m in enumerate(mains):
        slots[i] = m
        peers = [a for a in live if a.role == "peer" and a.sink == m.sink and a.gate_s]
        if peers:
            guess = min(peers, key=lambda a: (a.warmups_s or [a.gate_s])[-1])
            j = (i + n // 2) % n
            while slots[j] is not None:
                j = (j + 1) % n
            slots[j] = guess
    rest = iter(a for a in live if a not in slots)
    return [s if s is not None else next(rest) for s in slots]


def run_round(case, order, peers, work, times, positions, r, dead):
    """One timed run of each arm in `order`. A peer other than Quiver's that
    dies is recorded in `dead` and left out from then on; Quiver's death
    ends the case."""
    positions[r] = {}
    for pos, arm in enumerate(order):
        if arm.key in dead:
            continue
        try:
            res = timed(peers[arm.proc], arm, work, timeout=reply_timeout(arm))
        except PeerDied as e:
            if arm.proc in (MAIN, CONTROL) or arm.role in ("main", "control"):
                raise
            log(f"!!! {case.id}: {e}")
            for a in case.arms:
                if a.proc == arm.proc:
                    dead[a.key] = str(e)
            continue
        if "error" in res:
            raise RuntimeError(f"{arm.key}: {res['error']}")
        times[arm.key][r] = res["seconds"][0]
        positions[r][arm.key] = pos


# ---------------------------------------------------------------------------
# Figures.

def ratio_stats(num, den, rng):
    """Ratio of medians over the rounds both ran, with a paired 95%
    bootstrap interval and the per-round range. num, den: {round: seconds}."""
    rounds = sorted(set(num) & set(den))
    if not rounds:
        return None
    q = np.array([num[r] for r in rounds])
    p = np.array([den[r] for r in rounds])
    point = float(np.median(q) / np.median(p))
    per = q / p
    out = {"ratio": point, "rounds": len(rounds), "range": [float(per.min()), float(per.max())]}
    if len(rounds) >= 2:
        idx = rng.integers(0, len(rounds), size=(BOOTSTRAP, len(rounds)))
        samples = np.median(q[idx], axis=1) / np.median(p[idx], axis=1)
        lo, hi = np.percentile(samples, [2.5, 97.5])
        out["interval"] = [float(lo), float(hi)]
    else:
        out["interval"] = [point, point]
    return out


def decided(st):
    lo, hi = st["interval"]
    return (st["ratio"] < 1 - NEAR and hi < 1 - NEAR) or (st["ratio"] > 1 + NEAR and lo > 1 + NEAR)


def order_effect(times, positions, qk, fk):
    before, after = [], []
    for r, pos in positions.items():
        if qk in pos and fk in pos:
            (before if pos[qk] < pos[fk] else after).append(times[qk][r] / times[fk][r])
    out = {"order_rounds": [len(before), len(after)]}
    if before and after:
        out["order_before"] = statistics.median(before)
        out["order_after"] = statistics.median(after)
        out["order_effect"] = out["order_before"] / out["order_after"] - 1
    return out


def sink_summary(arms, times, positions, rng):
    """Figures of one sink's arms (`arms`: the live arms of that sink)."""
    by = {a.key: a for a in arms}
    main = next((a for a in arms if a.role == "main"), None)
    if main is None or not times.get(main.key):
        return {"flags": ["quiver: no times"]}
    q = times[main.key]
    s = {"median_s": {a.name: statistics.median(times[a.key].values())
                      for a in arms if times.get(a.key)},
         "rounds": {a.name: len(times[a.key]) for a in arms if times.get(a.key)},
         "ratio": {}, "stats": {}}
    for a in arms:
        if a is main or not times.get(a.key):
            continue
        if a.role == "control":
            st = ratio_stats(times[a.key], q, rng)
            s["control"], s["control_range"] = st["ratio"], st["range"]
            continue
        st = ratio_stats(q, times[a.key], rng)
        if st is None:
            continue
        if getattr(a, "far_gate_ratio", None) is not None and st["rounds"] == 1:
            st["interval"] = sorted([st["ratio"], a.far_gate_ratio])
            st["far_after_one"] = True
        s["ratio"][a.name] = st["ratio"]
        s["stats"][a.name] = st
        if a.leader and a.leader != MAIN and by.get(a.leader_key) is not None \
                and times.get(a.leader_key):
            # A follower against its leader: a layout arm's ratio to its peer,
            # a peer's -mt arm's speedup, a CDC writer's cdc/default.
            s.setdefault("to_leader", {})[a.name] = ratio_stats(times[a.key],
                                                                 times[a.leader_key], rng)
    pool = [a for a in arms if a.role == "peer" and a.name in s["ratio"]]
    if pool:
        f = min(pool, key=lambda a: s["median_s"][a.name])
        s["fastest"] = f.name
        s["ratio_fastest"] = s["ratio"][f.name]
        s["fastest_interval"] = s["stats"][f.name]["interval"]
        s.update(order_effect(times, positions, main.key, f.key))
        layouts = {lp: st["ratio"] for lp, st in s.get("to_leader", {}).items()
                   if by[f"{lp}/{main.sink}"].role == "layout"}
        if layouts:
            # Quiver/fastest where each peer with a layout arm counts against
            # the better of Quiver's two ways to write its case.
            s["layout"] = {by[f"{lp}/{main.sink}"].leader: r for lp, r in layouts.items()}
            s["ratio_fastest_layouts"] = max(
                min(s["ratio"][a.name], s["layout"].get(a.name, s["ratio"][a.name]))
                for a in pool)
    s["flags"] = check_flags(s)
    return s


def check_flags(s):
    flags = []
    if "control" in s and abs(s["control"] - 1) > THRESHOLD:
        flags.append(f"control {s['control'] - 1:+.1%}")
    if "order_effect" in s and abs(s["order_effect"]) > THRESHOLD:
        flags.append(f"order {s['order_effect']:+.1%}")
    return flags


def verdict(s):
    if "ratio_fastest" not in s:
        return "no peer" if "median_s" in s else "not measured"
    if s["flags"]:
        return "noise"
    if s.get("budget_cut") and not decided(s["stats"][s["fastest"]]):
        return "undecided"
    r = s["ratio_fastest"]
    if abs(r - 1) <= TIE:
        return "tie"
    return "win" if r < 1 else "loss"


def summaries(live, times, positions, rng):
    return {sink: sink_summary([a for a in live if a.sink == sink], times, positions, rng)
            for sink in dict.fromkeys(a.sink for a in live)}


# ---------------------------------------------------------------------------

def order_pair_check(case, peers, work, qa, fa, s):
    """The pair (Quiver, fastest) alone, two rounds in each order, when the
    rotation did not run it both ways."""
    t = {qa.key: [], fa.key: []}
    firsts = []
    for r in range(4):
        pair = [qa, fa] if r % 2 == 0 else [fa, qa]
        for a in pair:
            t[a.key].append(timed(peers[a.proc], a, work)["seconds"][0])
        firsts.append(pair[0] is qa)
    ratios = [x / y for x, y in zip(t[qa.key], t[fa.key])]
    before = statistics.median(r for r, f in zip(ratios, firsts) if f)
    after = statistics.median(r for r, f in zip(ratios, firsts) if not f)
    s.update(order_before=before, order_after=after, order_effect=before / after - 1,
             order_from="pair run alone in both orders")
    s["flags"] = check_flags(s)


def run_case(case, peers, work, gate_cache=None, economy=False, deadline=None, clock=time.time):
    """Measures one case. `economy` (make bench-compute's budget is short):
    a failing check is not repeated (the case is noise at once). `deadline`
    (on `clock`; make bench-peers' budget): the repetitions are cut so that
    R_MIN rounds fit before it, and past it the case stops after the round
    in progress (see the module's rule)."""
    t0 = time.perf_counter()
    r_check = R_MIN if economy else R_CHECK
    gate_arms(case, peers, work, gate_cache)
    live = [a for a in case.arms if a.status == "ok"]
    keys = {a.key for a in live}
    # A follower goes with its leader; a sink without its Quiver has no case.
    live = [a for a in live if a.leader is None or a.leader == MAIN or a.leader_key in keys]
    # A sink is timed where Quiver runs and something is compared with it (a
    # session of several holds some peers only; Quiver alone there says nothing).
    mains = {a.sink for a in live if a.role == "main"}
    compared = {a.sink for a in live if a.role in DECIDERS}
    for a in live:
        if a.sink in mains and a.sink not in compared and a.role in ("main", "control"):
            a.status, a.message = "skipped", "nothing to compare with in this session"
    live = [a for a in live if a.sink in mains and a.sink in compared]
    record = {"id": case.id, "section": case.section, "input": case.input,
              "label": case.label, "kind": case.kind,
              "arms": {a.key: {"name": a.name, "sink": a.sink, "proc": a.proc, "role": a.role,
                               "variant": a.variant, "status": a.status, "message": a.message,
                               "facts": a.facts, "gate_s": a.gate_s, "warmups_s": a.warmups_s,
                               "bytes": a.bytes, "gate_reply": a.gate_reply}
                       for a in case.arms}}
    if not live:
        record["sinks"] = {}
        record["seconds_total"] = time.perf_counter() - t0
        log(f"  {case.id}: not timed: "
            + "; ".join(f"{a.key} {a.status}: {a.message[:100]}" for a in case.arms
                        if a.role == "main"))
        return record
    rng = np.random.default_rng(int(hashlib.sha256(case.id.encode()).hexdigest()[:8], 16))
    order0 = arrange(live)
    reps = rule_reps = case_reps(live)
    if deadline is not None:
        reps = reps_within(live, deadline - clock(), reps, R_NEAR if guess_near(live) else R_MIN)
    for a in live:
        a.reps = reps
    cut, cut_sinks = None, set()
    times = {a.key: {} for a in live}
    positions, dead, gone = {}, {}, {}  # gone: key -> round after which it left
    active = {a.key for a in live}
    r = 0
    while True:
        act = [a for a in order0 if a.key in active and a.key not in dead]
        shift = len(act) // 2 if r == 1 else int(((r * PHI) % 1.0) * len(act))
        run_round(case, act[shift:] + act[:shift], peers, work, times, positions, r, dead)
        r += 1
        if r < R_MIN:
            if r == 1:
                far = far_after_one(live, times, active)
                gone.update({k: r for k in far})
                active -= far | {a.key for a in live if a.leader_key in far}
            continue
        sums = summaries([a for a in live if a.key not in dead], times, positions, rng)
        undecided = set()
        for a in live:
            if a.role not in DECIDERS or a.key not in active or a.key in dead:
                continue
            st = sums.get(a.sink, {}).get("stats", {}).get(a.name)
            if st is not None and decided(st):
                gone[a.key] = r
            else:
                undecided.add(a.key)
        failing = {sink: s for sink, s in sums.items() if s.get("flags")}
        if r >= r_check:  # the checks' repeat is over: what still fails is noise
            failing = {}
        if (not undecided and not failing) or r >= R_MAX:
            break
        near = any(near_one(sums.get(a.sink, {}).get("stats", {}).get(a.name))
                   for a in live if a.key in undecided)
        if deadline is not None and clock() >= deadline and (r >= R_NEAR or not near):
            cut = r
            cut_sinks = set(failing) | {a.sink for a in live if a.key in undecided}
            break
        # Only what is still open runs on: the undecided arms, the sinks they
        # are in, and where a check fails that sink's Quiver, control and (for
        # the order check) its fastest peer.
        keep = set(undecided)
        for sink, s in failing.items():
            if any(f.startswith("order") for f in s["flags"]) and "fastest" in s:
                keep.add(f"{s['fastest']}/{sink}")
        open_sinks = set(failing) | {a.sink for a in live if a.key in undecided}
        active = {a.key for a in live
                  if (a.role in ("main", "control") and a.sink in open_sinks) or a.key in keep}
        active |= {a.key for a in live if a.leader_key in active and a.role not in DECIDERS}
    live = [a for a in live if a.key not in dead]
    sums = summaries(live, times, positions, rng)
    for sink, s in sums.items():
        if "fastest" in s and "order_effect" not in s:
            qa = next(a for a in live if a.sink == sink and a.role == "main")
            fa = next(a for a in live if a.sink == sink and a.name == s["fastest"])
            order_pair_check(case, peers, work, qa, fa, s)
        if sink in cut_sinks:
            s["budget_cut"] = cut
            s["budget"] = f"budget: stopped at {cut} rounds"
        s["verdict"] = verdict(s)
    for key, msg in dead.items():
        record["arms"][key]["status"], record["arms"][key]["message"] = "died", msg
    record.update(rounds=r, reps=reps, sinks=sums, left_after=gone, economy=economy,
                  deadline_left_s=None if deadline is None else deadline - clock(), cut=cut,
                  reps_cut=rule_reps if reps < rule_reps else None,
                  times_s={k: sorted(v.items()) for k, v in times.items() if k not in dead},
                  orders=[sorted(p, key=p.get) for _, p in sorted(positions.items())],
                  seconds_total=time.perf_counter() - t0)
    print_case(record)
    return record


def human_time(seconds):
    """'12.3 ms', '4.56 us', '789 ns': a time in the unit that suits it."""
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.2f} us"
    return f"{seconds * 1e9:.0f} ns"


def print_case(rec):
    for sink, s in rec.get("sinks", {}).items():
        if "median_s" not in s:
            continue
        q = s["median_s"].get(MAIN)
        peers = " ".join(f"{a}={r:.2f}" for a, r in s.get("ratio", {}).items())
        ctl = (f"ctl {s['control']:.3f}" if "control" in s else "")
        fast = ""
        if "fastest" in s:
            lo, hi = s["fastest_interval"]
            fast = f"fastest {s['fastest']} {s['ratio_fastest']:.2f} [{lo:.2f}..{hi:.2f}]"
        order = f"order {s['order_effect']:+.1%}" if "order_effect" in s else ""
        log(f"  {rec['id'] + ' ' + sink:58s} quiver {human_time(q):>9s} | {peers} | {fast} | "
            f"{ctl} {order} | {s.get('verdict')} | {rec['rounds']} rounds"
            + (f" x {rec['reps']} reps" if rec.get("reps", 1) > 1 else "")
            + (f" | {s['flags']}" if s["flags"] else "")
            + "".join(f" | {b}" for b in budget_notes(rec, s)))


def budget_notes(rec, s):
    """What a case's deadline did to the sink `s` of record `rec`."""
    out = [s["budget"]] if s.get("budget") else []
    if rec.get("reps_cut"):
        out.append(f"budget: {rec['reps']} reps a run (the rule's {rec['reps_cut']})")
    return out
