"""Tests of the peer harness's schedule and gates with scripted peers (no
processes): who stops when, the interval, the checks and the verdicts; the
time budget (budget.py) on a fake clock: shares, deadlines, cut cases, and
the dry projection of the last full run.

    .venv/bin/python -m pytest -q bench/peers/schedule_test.py
"""

import gzip
import json
import math
import os
import random
import sys
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import budget  # noqa: E402
import estimate  # noqa: E402
import gate  # noqa: E402
import merge  # noqa: E402
import peer_process  # noqa: E402
import report  # noqa: E402
import schedule  # noqa: E402
from schedule import Arm, Case  # noqa: E402

TABLE = pa.table({"a": pa.array([1, 2, 2, None, 5], pa.int64()),
                  "s": pa.array(["x", "y", "x", None, "z"]),
                  "l": pa.array([[1, 2], None, [2], [], [None, 3]], pa.list_(pa.int32()))})


class ScriptedPeer:
    """A peer whose write takes `seconds(arm_name, sink, call_index)`; its
    gate run writes TABLE (or `wrong`) with pyarrow."""

    def __init__(self, times, wrong=None, unsupported=()):
        self.times, self.wrong, self.unsupported = times, wrong, unsupported
        self.calls = []

    def call(self, _timeout=None, **cmd):
        if cmd["cmd"] == "settings":
            if cmd["variant"] in self.unsupported:
                return {"error": f"unsupported: {cmd['variant']}"}
            return {"settings": {}, "differences": []}
        name = cmd.pop("_arm", None)
        if cmd["variant"] in self.unsupported:
            return {"error": f"unsupported: {cmd['variant']}"}
        self.calls.append(cmd)
        if cmd.get("out"):
            pq.write_table(self.wrong if self.wrong is not None else TABLE, cmd["out"])
        return {"seconds": [self.times(name, cmd["sink"], len(self.calls))], "bytes": 100}


def peers_for(spec):
    """{proc: ScriptedPeer} from {proc: seconds function}."""
    return {proc: ScriptedPeer(fn) for proc, fn in spec.items()}


@pytest.fixture(autouse=True)
def named_calls(monkeypatch):
    """Passes the arm's name to the scripted peer (a real peer knows itself)."""
    real = schedule.call

    def call(peer, arm, work, reps=1, out=None, timeout=None):
        orig = peer.call
        peer.call = lambda **cmd: orig(_arm=arm.name, **cmd)
        try:
            return real(peer, arm, work, reps, out, timeout)
        finally:
            peer.call = orig
    monkeypatch.setattr(schedule, "call", call)


def noisy(base, spread=0.002, seed=1):
    rng = random.Random(seed)
    return lambda name, sink, i: base * (1 + rng.uniform(-spread, spread))


def write_case(arms):
    return Case("matrix", "g", "default", "write", arms, TABLE)


def arms_for(names, sink="file"):
    out = [Arm("quiver", sink, "quiver", "main", "default"),
           Arm("control", sink, "control", "control", "default")]
    return out + [Arm(n, sink, n, "peer", "default") for n in names]


def test_far_peer_leaves_after_one_round_and_a_close_one_runs_to_the_maximum(tmp_path):
    """The slow peer (5x Quiver's time in its gate run and first round, not
    the fastest): decided after one round, its interval the range of its
    gate run's and its round's ratios; the close one runs R_MAX rounds."""
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "slow": noisy(0.050, seed=3), "close": noisy(0.0101, seed=4)})
    rec = schedule.run_case(write_case(arms_for(["slow", "close"])), peers, str(tmp_path))
    s = rec["sinks"]["file"]
    assert s["rounds"]["slow"] == 1 and rec["left_after"]["slow/file"] == 1
    st = s["stats"]["slow"]
    assert st["far_after_one"] and st["interval"][0] <= st["ratio"] <= st["interval"][1]
    assert st["interval"][1] < 1 / schedule.FAR
    assert s["rounds"]["close"] == schedule.R_MAX
    assert rec["rounds"] == schedule.R_MAX
    assert s["ratio"]["slow"] == pytest.approx(0.2, rel=0.01)
    assert s["fastest"] == "close"
    lo, hi = s["fastest_interval"]
    assert lo <= s["ratio_fastest"] <= hi
    assert s["verdict"] == "tie"  # 0.99: within 0.98-1.02


def test_a_far_peer_that_is_the_fastest_runs_the_minimum(tmp_path):
    """Both peers far (2.5x and 5x Quiver's time): the faster stays for
    R_MIN rounds (the order check runs it both ways), the other leaves
    after one."""
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "a": noisy(0.025, seed=3), "b": noisy(0.050, seed=4)})
    rec = schedule.run_case(write_case(arms_for(["a", "b"])), peers, str(tmp_path))
    s = rec["sinks"]["file"]
    assert s["rounds"]["a"] == schedule.R_MIN and s["rounds"]["b"] == 1
    assert s["fastest"] == "a" and "order_from" not in s  # the rotation ran both orders
    # Only a peer is judged far: Quiver's use_threads arm stays.
    assert schedule.far_after_one([], {}, set()) == set()


def test_a_case_far_from_one_stops_after_the_minimum(tmp_path):
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "a": noisy(0.020, seed=3), "b": noisy(0.040, seed=4)})
    rec = schedule.run_case(write_case(arms_for(["a", "b"])), peers, str(tmp_path))
    s = rec["sinks"]["file"]
    assert rec["rounds"] == schedule.R_MIN
    assert s["verdict"] == "win"
    assert s["ratio_fastest"] == pytest.approx(0.5, rel=0.01)
    assert s["order_rounds"][0] >= 1 and s["order_rounds"][1] >= 1  # both orders


def test_a_control_off_by_more_than_the_threshold_is_noise_after_the_repeat(tmp_path):
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.0105, seed=2),
                       "a": noisy(0.030, seed=3)})
    rec = schedule.run_case(write_case(arms_for(["a"])), peers, str(tmp_path))
    s = rec["sinks"]["file"]
    assert rec["rounds"] == schedule.R_CHECK
    assert s["verdict"] == "noise"
    assert any(f.startswith("control +5") for f in s["flags"])
    # The far peer left after the minimum; Quiver and the control went on.
    assert s["rounds"]["a"] == schedule.R_MIN and s["rounds"]["quiver"] == schedule.R_CHECK


def test_only_the_open_sink_runs_on(tmp_path):
    """A close peer in the memory sink keeps that sink going; the file sink,
    whose peer is far and whose checks hold, stops after the minimum."""
    def t(base, close=None):
        f = noisy(base)
        return lambda name, sink, i: (close if sink == "mem" and close else f(name, sink, i))
    peers = {"quiver": ScriptedPeer(t(0.010)), "control": ScriptedPeer(t(0.010)),
             "a": ScriptedPeer(t(0.030, close=0.0101))}
    arms = arms_for(["a"], "file") + arms_for(["a"], "mem")
    rec = schedule.run_case(write_case(arms), peers, str(tmp_path))
    f, m = rec["sinks"]["file"], rec["sinks"]["mem"]
    assert f["rounds"]["quiver"] == schedule.R_MIN and f["rounds"]["a"] == schedule.R_MIN
    assert m["rounds"]["quiver"] == schedule.R_MAX and m["rounds"]["a"] == schedule.R_MAX
    assert f["verdict"] == "win" and m["verdict"] == "tie"


def test_an_order_effect_is_caught(tmp_path):
    """A peer 20% slower whenever it runs right after Quiver's arm."""
    last = {}

    def quiver(name, sink, i):
        last["q"] = True
        return 0.010

    def other(name, sink, i):
        was = last.pop("q", False)
        return 0.020 * (1.2 if was else 1.0)
    peers = {"quiver": ScriptedPeer(quiver), "control": ScriptedPeer(lambda *a: 0.010),
             "a": ScriptedPeer(other)}
    arms = arms_for(["a"])
    # Quiver, then the peer at once in some rounds; not in the others.
    rec = schedule.run_case(write_case(arms), peers, str(tmp_path))
    s = rec["sinks"]["file"]
    assert "order_effect" in s
    assert abs(s["order_effect"]) > schedule.THRESHOLD
    assert s["verdict"] == "noise"


def test_a_peer_whose_file_differs_fails_the_gate_and_is_not_timed(tmp_path):
    wrong = TABLE.set_column(0, "a", pa.array([1, 2, 3, None, 5], pa.int64()))
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "a": noisy(0.020, seed=3)})
    peers["bad"] = ScriptedPeer(noisy(0.005), wrong=wrong)
    rec = schedule.run_case(write_case(arms_for(["a", "bad"])), peers, str(tmp_path))
    assert rec["arms"]["bad/file"]["status"] == "FAIL"
    assert "column 'a' differs first at row 2" in rec["arms"]["bad/file"]["message"]
    assert "bad" not in rec["sinks"]["file"]["ratio"]
    assert rec["sinks"]["file"]["fastest"] == "a"


def test_peers_of_a_sink_without_quiver_are_not_run(tmp_path):
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "a": noisy(0.020, seed=3)})
    peers["quiver"].unsupported = peers["control"].unsupported = ("default",)
    rec = schedule.run_case(write_case(arms_for(["a"])), peers, str(tmp_path))
    assert rec["sinks"] == {}
    assert rec["arms"]["a/file"]["status"] == "skipped"
    assert peers["a"].calls == []


def test_verdicts():
    assert schedule.verdict({"median_s": {}, "ratio_fastest": 0.5, "flags": []}) == "win"
    assert schedule.verdict({"median_s": {}, "ratio_fastest": 1.019, "flags": []}) == "tie"
    assert schedule.verdict({"median_s": {}, "ratio_fastest": 0.981, "flags": []}) == "tie"
    assert schedule.verdict({"median_s": {}, "ratio_fastest": 1.05, "flags": []}) == "loss"
    assert schedule.verdict({"median_s": {}, "ratio_fastest": 0.5,
                             "flags": ["control +4.0%"]}) == "noise"
    assert schedule.verdict({"median_s": {}, "flags": []}) == "no peer"


def test_ratio_stats_is_paired_and_its_interval_holds_the_ratio():
    rng = np.random.default_rng(0)
    q = {r: 0.010 * (1 + 0.5 * (r % 2)) for r in range(11)}  # drifting machine
    p = {r: 2 * t for r, t in q.items()}  # the peer drifts with it
    st = schedule.ratio_stats(q, p, rng)
    assert st["ratio"] == pytest.approx(0.5)
    assert st["interval"] == pytest.approx([0.5, 0.5])
    assert st["rounds"] == 11
    assert schedule.decided(st)
    close = schedule.ratio_stats({0: 1.0, 1: 1.0, 2: 1.0}, {0: 1.05, 1: 0.97, 2: 1.0}, rng)
    assert not schedule.decided(close)


def test_merge_takes_the_fastest_from_its_own_session():
    def part(peer, ratio, control):
        return {"id": "x", "section": "matrix", "input": "g", "label": "default",
                "kind": "write", "rounds": 3, "seconds_total": 1.0,
                "arms": {f"{peer}/file": {"role": "peer", "status": "ok"},
                         "quiver/file": {"role": "main", "status": "ok"}},
                "sinks": {"file": {"median_s": {"quiver": 1.0, peer: 1.0 / ratio},
                                   "rounds": {"quiver": 3, peer: 3},
                                   "ratio": {peer: ratio},
                                   "stats": {peer: {"ratio": ratio, "interval": [ratio, ratio]}},
                                   "fastest": peer, "ratio_fastest": ratio,
                                   "fastest_interval": [ratio, ratio], "control": control,
                                   "flags": [] if control == 1.0 else ["control +5.0%"]}}}
    merged = merge.merge_parts([part("a", 0.4, 1.05), part("b", 0.8, 1.0)])
    s = merged["sinks"]["file"]
    assert s["fastest"] == "b" and s["ratio_fastest"] == 0.8
    assert s["control"] == 1.0 and s["verdict"] == "win"
    assert s["other_part_flags"] == ["control +5.0%"]
    assert set(s["ratio"]) == {"a", "b"}


def test_distinct_counts_of_nested_and_dictionary_columns():
    t = pa.table({"l": pa.array([[1, 1, None], None, [2]], pa.list_(pa.int32())),
                  "st": pa.StructArray.from_arrays(
                      [pa.array([1, 2, 2]), pa.array(["a", "b", "c"])], ["x", "y"],
                      mask=pa.array([False, True, False])),
                  "d": pa.array(["p", "q", "p"]).dictionary_encode()})
    # l: {1, 2}; st.x: {1, 2} (the null struct's 2 is not in the file); st.y:
    # {a, c}; d: {p, q}.
    assert gate.distinct_counts(t) == [2, 2, 2, 2]


def test_the_distinct_count_check_wants_the_statistic(tmp_path):
    path = tmp_path / "f.parquet"
    pq.write_table(TABLE, path)  # pyarrow writes no distinct_count
    ok, msg, _ = gate.write_gate(str(path), TABLE, gate.distinct_counts(TABLE))
    assert not ok and "no distinct_count" in msg
    ok, msg, _ = gate.write_gate(str(path), TABLE)
    assert ok and msg == "equal to the input"


def test_the_read_gate_compares_values(tmp_path):
    good, bad = tmp_path / "good.arrow", tmp_path / "bad.arrow"
    for path, t in ((good, TABLE), (bad, TABLE.set_column(1, "s", pa.array(
            ["x", "y", "x", None, "Z"])))):
        with pa.ipc.new_file(str(path), t.schema) as w:
            w.write_table(t)
    assert gate.read_gate(str(good), TABLE)[0]
    ok, msg = gate.read_gate(str(bad), TABLE)
    assert not ok and "column 's' differs first at row 4" in msg


def test_economy_does_not_repeat_a_failing_check(tmp_path):
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.0105, seed=2),
                       "a": noisy(0.030, seed=3)})
    rec = schedule.run_case(write_case(arms_for(["a"])), peers, str(tmp_path), economy=True)
    assert rec["rounds"] == schedule.R_MIN and rec["economy"]
    assert rec["sinks"]["file"]["verdict"] == "noise"


def test_a_session_whose_peers_cannot_run_the_case_times_nothing(tmp_path):
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "a": noisy(0.020, seed=3)})
    peers["a"].unsupported = ("default",)
    rec = schedule.run_case(write_case(arms_for(["a"])), peers, str(tmp_path))
    assert rec["sinks"] == {}
    assert peers["quiver"].calls == [] and peers["a"].calls == []
    assert rec["arms"]["a/file"]["status"] == "unsupported"


def test_quiver_is_gated_once_across_sessions(tmp_path):
    cache = {}
    first = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "a": noisy(0.020, seed=3)})
    schedule.run_case(write_case(arms_for(["a"])), first, str(tmp_path), cache)
    second = {"quiver": first["quiver"], "control": first["control"],
              "b": ScriptedPeer(noisy(0.040, seed=4))}
    n = len(first["quiver"].calls)
    rec = schedule.run_case(write_case(arms_for(["b"])), second, str(tmp_path), cache)
    later = first["quiver"].calls[n:]
    assert not any(c.get("out") for c in later)  # no second gate run
    assert len(rec["arms"]["quiver/file"]["warmups_s"]) == 1
    assert rec["sinks"]["file"]["ratio"]["b"] == pytest.approx(0.25, rel=0.01)


def test_runs_are_repeated_to_a_measurable_length_the_same_for_every_arm(tmp_path):
    peers = peers_for({"quiver": noisy(0.0005), "control": noisy(0.0005, seed=2),
                       "a": noisy(0.002, seed=3)})
    rec = schedule.run_case(write_case(arms_for(["a"])), peers, str(tmp_path))
    # The fastest arm's 0.5 ms: 100 repetitions would make 50 ms, capped at MAX_REPS.
    assert rec["reps"] == schedule.MAX_REPS
    timed = [c for c in peers["a"].calls if not c.get("out")][-rec["rounds"]:]
    assert {c["reps"] for c in timed} == {schedule.MAX_REPS}
    assert {c["reps"] for c in peers["quiver"].calls[-rec["rounds"]:]} == {schedule.MAX_REPS}


def test_reps_keep_the_slowest_arm_under_a_second():
    def arm(gate):
        a = Arm("x", "file", "x", "peer", "default")
        a.gate_s = gate
        return a
    assert schedule.case_reps([arm(0.001), arm(0.25)]) == 4  # 50 wanted, 4 x 0.25 s
    assert schedule.case_reps([arm(0.001), arm(2.0)]) == 1
    assert schedule.case_reps([arm(0.2), arm(0.3)]) == 1
    assert schedule.case_reps([arm(0.02), arm(0.03)]) == 3
    k = arm(0.000001)
    k.kernel = {"name": "add"}  # a kernel arm times its calls per run itself
    assert schedule.case_reps([k, arm(0.001)]) == 1


def test_a_long_gate_run_has_no_warm_up(tmp_path):
    peers = peers_for({"quiver": noisy(0.3), "control": noisy(0.3, seed=2),
                       "a": noisy(0.5, seed=3)})
    assert schedule.LONG_RUN_S <= 0.3
    rec = schedule.run_case(write_case(arms_for(["a"])), peers, str(tmp_path))
    assert all(a["warmups_s"] == [] for a in rec["arms"].values())
    assert rec["reps"] == 1


def test_a_peer_far_from_quiver_has_no_warm_up(tmp_path):
    """Gate runs 10 ms (Quiver), 30 ms and 4 ms (3x and 1/2.5 of it: far),
    15 ms (near): only Quiver, its control and the near peer warm up."""
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "slow": noisy(0.030, seed=3), "fast": noisy(0.004, seed=4),
                       "near": noisy(0.015, seed=5)})
    rec = schedule.run_case(write_case(arms_for(["slow", "fast", "near"])), peers,
                            str(tmp_path))
    warm = {a["name"]: len(a["warmups_s"]) for a in rec["arms"].values()}
    assert warm["slow"] == 0 and warm["fast"] == 0
    assert warm["quiver"] >= 1 and warm["control"] >= 1 and warm["near"] >= 1
    assert schedule.warms_up(0.010, "peer", 0.010) and not schedule.warms_up(0.021, "peer", 0.010)
    assert schedule.warms_up(0.021, "follower", 0.010)  # only peers are judged far


# ---------------------------------------------------------------------------
# The time budget (budget.py): shares, deadlines, cut cases.

class ClockedPeer(ScriptedPeer):
    """A scripted peer whose runs move a fake clock: each call takes its
    time times its repetitions."""

    def __init__(self, times, clock, **kw):
        super().__init__(times, **kw)
        self.clock = clock

    def call(self, _timeout=None, **cmd):
        reps = cmd.get("reps", 1)
        res = super().call(_timeout, **cmd)
        if "seconds" in res:
            self.clock.advance(res["seconds"][0] * reps)
        return res


def clocked(spec, clock):
    return {proc: ClockedPeer(fn, clock) for proc, fn in spec.items()}


def fixed(seconds):
    return lambda name, sink, i: seconds


def test_split_is_in_proportion_to_the_costs_but_never_below_a_floor():
    assert budget.split(100, (10, 30), [(10, 30)]) == pytest.approx(50)
    assert budget.split(30, (10, 10), [(0, 20)]) == pytest.approx(10)
    assert budget.split(300, (0, 10), [(0, 20)]) == pytest.approx(100)  # time to spare
    # 100 s by the costs would give this one 25, under its floor of 40: it
    # gets 40, the other the rest.
    assert budget.split(100, (40, 50), [(0, 150)]) == pytest.approx(40)
    assert budget.split(100, (0, 150), [(40, 50)]) == pytest.approx(60)
    # Short of the floors: in proportion to them.
    assert budget.split(10, (10, 30), [(30, 40)]) == pytest.approx(2.5)


def test_the_budget_splits_the_time_left_after_each_input():
    clock = budget.FakeClock()
    limit = budget.RESERVE_S + 100
    b = budget.Budget(limit, {("matrix", "a"): (10, 30), ("matrix", "b"): (10, 10),
                              ("cdc", "c"): (0, 20)}, clock=clock, t0=0.0)
    a = b.share("matrix", "a")
    assert a.seconds == pytest.approx(50)
    clock.advance(70)  # a overran its share by 20 s: the others have 30 left
    assert b.done(a, ["matrix/a/default"])["cut"] == 1
    s = b.share("matrix", "b")
    assert s.seconds == pytest.approx(10)  # its floor: c may use the rest
    clock.advance(5)
    b.done(s, [])
    c = b.share("cdc", "c")
    assert c.seconds == pytest.approx(25)
    clock.advance(30)
    entry = b.done(c, [])
    assert entry["spent_min"] == pytest.approx(105 / 60) and b.cut == ["matrix/a/default"]
    assert [e["after"] for e in b.entries] == ["matrix/a", "matrix/b", "cdc/c"]


def test_no_budget_gives_no_deadlines():
    b = budget.Budget(math.inf, {("matrix", "a"): (1, 2)})
    share = b.share("matrix", "a")
    assert share.case_deadline((1, 2), (3, 4)) is None


def test_case_slots_spread_a_case_over_its_sessions_by_their_processes():
    slots = budget.case_slots([(1.0, 2.0), (3.0, 6.0)], [4, 2])
    assert [(i, j) for i, j, _, _ in slots] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert slots[0][2] == pytest.approx((4 / 6, 8 / 6))
    assert slots[3][2] == pytest.approx((1.0, 2.0))
    assert [len(later) for _, _, _, later in slots] == [3, 2, 1, 0]
    assert slots[0][3][0] == pytest.approx((3 * 4 / 6, 6 * 4 / 6))
    # A share's case deadline: what is left, split the same way.
    clock = budget.FakeClock()
    b = budget.Budget(budget.RESERVE_S + 40, {("matrix", "g"): (4.0, 8.0)}, clock=clock, t0=0)
    share = b.share("matrix", "g")
    clock.advance(4)
    # 36 s left, 6 of them kept for the set-up of the second session.
    d = share.case_deadline(slots[0][2], slots[0][3], reserve=6.0)
    assert d - clock() == pytest.approx(budget.split(30, slots[0][2], slots[0][3]))


def close_case_peers(clock):
    # The peer is 1% slower than Quiver: undecided after any number of rounds.
    return clocked({"quiver": fixed(0.010), "control": fixed(0.010),
                    "close": fixed(0.0101)}, clock)


def test_a_case_past_its_deadline_ends_with_the_round_in_progress(tmp_path):
    clock = budget.FakeClock()
    gates = 2 * (0.010 + 0.010 + 0.0101)  # gate run and one warm-up each
    reps = rule_reps()  # the fastest arm's 10 ms to 50 ms
    one_round = reps * (0.010 + 0.010 + 0.0101)
    deadline = gates + 3.5 * one_round  # passed during round 4
    rec = schedule.run_case(write_case(arms_for(["close"])), close_case_peers(clock),
                            str(tmp_path), deadline=deadline, clock=clock)
    assert rec["reps"] == reps and not rec["reps_cut"]
    assert rec["rounds"] == 4 and rec["cut"] == 4
    assert clock() == pytest.approx(gates + 4 * one_round)
    s = rec["sinks"]["file"]
    # Every arm ran every round: the round in progress was finished.
    assert [len(rec["times_s"][k]) for k in ("quiver/file", "control/file", "close/file")] == \
        [4, 4, 4]
    assert s["budget"] == "budget: stopped at 4 rounds"
    assert s["verdict"] == "undecided"  # never a tie made up from 4 rounds
    assert s["control"] == pytest.approx(1.0) and "order_effect" in s  # checks still reported
    assert "budget: stopped at 4 rounds" in report.flags_text(rec, "file")
    # Without a deadline the same case runs the rule's 11 rounds: a tie.
    rec = schedule.run_case(write_case(arms_for(["close"])),
                            close_case_peers(budget.FakeClock()), str(tmp_path))
    assert rec["rounds"] == schedule.R_MAX and rec["cut"] is None
    assert rec["sinks"]["file"]["verdict"] == "tie" and "budget" not in rec["sinks"]["file"]


def test_a_case_whose_deadline_has_passed_still_runs_the_minimum(tmp_path):
    """A close case (ratio 0.99, within 1 +- NEAR): R_NEAR rounds; a far
    one (0.5): R_MIN."""
    clock = budget.FakeClock()
    clock.advance(100)
    rec = schedule.run_case(write_case(arms_for(["close"])), close_case_peers(clock),
                            str(tmp_path), deadline=50.0, clock=clock)
    assert schedule.R_NEAR == 3 > schedule.R_MIN
    assert rec["rounds"] == schedule.R_NEAR and rec["cut"] == schedule.R_NEAR
    # Its repetitions were cut to one (the same for every arm), and it says so.
    assert rec["reps"] == 1 and rec["reps_cut"] == rule_reps() > 1
    s = rec["sinks"]["file"]
    assert s["verdict"] == "undecided" and s["budget"] == "budget: stopped at 3 rounds"
    assert f"budget: 1 reps a run (the rule's {rule_reps()})" in schedule.budget_notes(rec, s)
    clock = budget.FakeClock()
    clock.advance(100)
    peers = clocked({"quiver": fixed(0.010), "control": fixed(0.0105), "far": fixed(0.020)},
                    clock)
    rec = schedule.run_case(write_case(arms_for(["far"])), peers, str(tmp_path),
                            deadline=50.0, clock=clock)
    assert rec["rounds"] == schedule.R_MIN and rec["cut"] == schedule.R_MIN


def test_a_close_case_cuts_its_repetitions_for_three_rounds(tmp_path):
    def arm(name, role, gate):
        a = Arm(name, "file", name, role, "default")
        a.gate_s = gate
        return a
    far = [arm("quiver", "main", 0.010), arm("control", "control", 0.010),
           arm("p", "peer", 0.020)]
    close = far[:2] + [arm("p", "peer", 0.0105)]
    assert not schedule.guess_near(far) and schedule.guess_near(close)
    assert schedule.reps_within(far, 0.4, 50) == 5       # 2 rounds x 5 x 40 ms
    assert schedule.reps_within(close, 0.4, 50, schedule.R_NEAR) == 4  # 3 x 4 x 30.5 ms


def rule_reps():
    """The rule's repetitions for close_case_peers' arms."""
    arms = []
    for t in (0.010, 0.010, 0.0101):
        a = Arm("x", "file", "x", "peer", "default")
        a.gate_s, a.warmups_s = t, [t]
        arms.append(a)
    return schedule.case_reps(arms)


def test_repetitions_are_cut_so_that_the_minimum_rounds_fit(tmp_path):
    def arm(gate):
        a = Arm("x", "file", "x", "peer", "default")
        a.gate_s = gate
        return a
    live = [arm(0.001), arm(0.002)]  # the rule: 50 repetitions
    assert schedule.case_reps(live) == 50
    assert schedule.reps_within(live, 10.0, 50) == 50
    assert schedule.reps_within(live, 0.0601, 50) == 10  # 2 rounds x 10 x 3 ms
    assert schedule.reps_within(live, 0.0, 50) == 1


def test_a_decided_fastest_peer_keeps_its_verdict_when_the_budget_stops_the_case(tmp_path):
    """Quiver's use_threads arm is 1% faster (undecided, within 1 +- NEAR):
    it keeps the case going to R_NEAR rounds; the fastest peer is 2x slower
    (decided): still a win, flagged."""
    clock = budget.FakeClock()
    peers = clocked({"quiver": lambda name, sink, i: 0.0099 if name == schedule.MT_ARM
                     else 0.010, "control": fixed(0.010), "far": fixed(0.020)}, clock)
    arms = arms_for(["far"]) + [Arm(schedule.MT_ARM, "file", "quiver", "mt", "default",
                                    use_threads=True)]
    rec = schedule.run_case(write_case(arms), peers, str(tmp_path), deadline=0.0, clock=clock)
    s = rec["sinks"]["file"]
    assert rec["cut"] == schedule.R_NEAR
    assert s["verdict"] == "win" and s["budget"] == "budget: stopped at 3 rounds"


def test_a_failing_check_stopped_by_the_budget_is_noise(tmp_path):
    clock = budget.FakeClock()
    peers = clocked({"quiver": fixed(0.010), "control": fixed(0.0105),
                     "far": fixed(0.030)}, clock)
    rec = schedule.run_case(write_case(arms_for(["far"])), peers, str(tmp_path),
                            deadline=0.0, clock=clock)
    s = rec["sinks"]["file"]
    assert rec["rounds"] == schedule.R_MIN < schedule.R_CHECK
    assert s["verdict"] == "noise" and s["budget"] == "budget: stopped at 2 rounds"
    assert any(f.startswith("control +5") for f in s["flags"])


def test_a_sink_closed_before_the_deadline_is_not_flagged(tmp_path):
    """The file sink's peer is far (closed after 2 rounds); the memory
    sink's is close (3 rounds): only the memory sink is stopped by the
    budget."""
    clock = budget.FakeClock()

    def t(base, close):
        return lambda name, sink, i: close if sink == "mem" else base
    peers = {"quiver": ClockedPeer(fixed(0.010), clock),
             "control": ClockedPeer(fixed(0.010), clock),
             "a": ClockedPeer(t(0.030, 0.0101), clock)}
    arms = arms_for(["a"], "file") + arms_for(["a"], "mem")
    rec = schedule.run_case(write_case(arms), peers, str(tmp_path), deadline=0.0, clock=clock)
    f, m = rec["sinks"]["file"], rec["sinks"]["mem"]
    assert "budget" not in f and f["verdict"] == "win"
    assert m["budget"] == "budget: stopped at 3 rounds" and m["verdict"] == "undecided"
    assert f["rounds"]["a"] == schedule.R_MIN and m["rounds"]["a"] == schedule.R_NEAR


def test_merge_carries_the_budget_of_the_fastest_peers_session():
    def part(peer, ratio, cut):
        s = {"median_s": {"quiver": 1.0, peer: 1.0 / ratio}, "rounds": {"quiver": 3, peer: 3},
             "ratio": {peer: ratio}, "stats": {peer: {"ratio": ratio,
                                                      "interval": [ratio - .1, ratio + .1]}},
             "fastest": peer, "ratio_fastest": ratio, "fastest_interval": [ratio, ratio],
             "control": 1.0, "flags": []}
        if cut:
            s.update(budget_cut=cut, budget=f"budget: stopped at {cut} rounds")
        return {"id": "x", "section": "matrix", "input": "g", "label": "default",
                "kind": "write", "rounds": 3, "seconds_total": 1.0, "cut": cut, "reps": 4,
                "reps_cut": None, "arms": {f"{peer}/file": {"role": "peer", "status": "ok"}},
                "sinks": {"file": s}}
    merged = merge.merge_parts([part("a", 0.5, None), part("b", 0.99, 3)])
    s = merged["sinks"]["file"]
    assert s["fastest"] == "b" and s["verdict"] == "undecided"
    assert merged["cut"] == 3
    merged = merge.merge_parts([part("a", 0.99, None), part("b", 0.5, 3)])
    s = merged["sinks"]["file"]
    assert s["fastest"] == "a" and s["verdict"] == "tie"
    assert s["other_part_flags"] == ["budget: stopped at 3 rounds"] and merged["cut"] == 3


def test_the_report_counts_undecided_cases_and_says_what_the_budget_did():
    assert "undecided" in report.VERDICTS
    text = report.count_text({"win": 1, "undecided": 2}, 3)
    assert "2 undecided (stopped by the time budget)" in text
    rec = {"cut": 2, "reps": 1, "reps_cut": 5,
           "sinks": {"file": {"verdict": "undecided", "budget": "budget: stopped at 2 rounds"}}}
    registry = {"_budget_plan": {"reference": "bench/results/x.json.gz", "minutes": 57,
                                 "floor_min": 50.0, "full_min": 90.0},
                "_budget": [{"spent_min": 55.0}]}
    line = " ".join(report.budget_lines(SimpleNamespace(), [rec, {"sinks": {}}], registry,
                                        55 * 60))
    assert "**Time budget** 57 min" in line and "1 of 2 cases were stopped" in line
    assert "1 ran fewer repetitions" in line and "1 case-sinks are \"undecided\"" in line
    assert "Wall time 55.0 min" in line


# ---------------------------------------------------------------------------
# The reference, the memory plan and the dry projection.

def fake_run(path, date, final=True, full=True, quick=False):
    args = {"full": full and not quick, "quick": quick, "full_groups": True,
            "sections": list(estimate.QUICK_SECTIONS)}
    with gzip.open(path, "wt") as f:
        json.dump({"date": date, "final": final, "args": args, "results": [],
                   "registry": {"_timing": [{"section": "matrix", "input": "g",
                                             "seconds": 10.0}]}}, f)


def test_the_reference_is_the_newest_full_run(tmp_path):
    fake_run(tmp_path / "peers_2026-12-01_aaa.json.gz", "2026-12-01T10:00:00")
    fake_run(tmp_path / "peers_2026-12-03_bbb.json.gz", "2026-12-03T10:00:00")
    fake_run(tmp_path / "peers_2026-12-04_ccc.json.gz", "2026-12-04T10:00:00", final=False)
    fake_run(tmp_path / "peers_2026-12-05_ddd_partial.json.gz", "2026-12-05T10:00:00")
    fake_run(tmp_path / "peers_2026-12-06_eee.json.gz", "2026-12-06T10:00:00", full=False)
    fake_run(tmp_path / "peers_2026-12-07_fff.json.gz", "2026-12-07T10:00:00", quick=True)
    path, run = estimate.newest_full_run(str(tmp_path))
    assert path.endswith("peers_2026-12-03_bbb.json.gz")
    assert estimate.newest_full_run(str(tmp_path), quick=True)[0].endswith("_fff.json.gz")
    assert estimate.newest_full_run(str(tmp_path / "none")) is None


def test_the_reference_costs_inputs_from_their_wall_time():
    ref = estimate.Reference()
    if not ref.records:
        pytest.skip("no full run in bench/results")
    run = ref.run
    t = run["registry"]["_timing"][0]
    assert ref.inputs[(t["section"], t["input"])] == pytest.approx(t["seconds"])
    # An input's cases and the time outside them add up to its wall time.
    cases = sum(c for (s, n, _), c in ref.cases.items()
                if n == t["input"] and s in ("matrix", "read"))
    assert ref.overhead(t["section"], t["input"]) == pytest.approx(t["seconds"] - cases)
    assert ref.case_cost("tpch", "lineitem_sf0.01", "zstd") == \
        ref.cases[("tpch", "lineitem_sf1", "zstd")]  # quick's TPC-H: the only one
    plan = budget.Plan(ref)
    floor, full = plan.input("matrix", t["input"], [("matrix", "default")])
    assert 0 < floor < full


def test_sessions_are_planned_from_measured_peaks_largest_first():
    gib = 1 << 30
    units = [["pyarrow"], ["duckdb", "duckdb-mt"], ["polars", "polars-mt"], ["arrow-rs"]]
    peaks = {"quiver": 2 * gib, "control": 2 * gib, "pyarrow": 2 * gib, "duckdb": 6 * gib,
             "duckdb-mt": 2 * gib, "polars": 3 * gib, "polars-mt": 3 * gib,
             "arrow-rs": gib // 2}
    # 0.8 x 20 GiB = 16 GiB, Quiver and its control 5 of it with the margin:
    # duckdb's 10 first, polars' 7.5 beside pyarrow's 2.5, arrow-rs where
    # it first fits. In order, unit by unit, it would take three sessions.
    parts = peer_process.plan_parts(units, gib, 1.0, peaks=peaks, available=20 * gib,
                                    quiet=True)
    assert parts == [["pyarrow", "polars", "polars-mt"], ["duckdb", "duckdb-mt", "arrow-rs"]]
    for part in parts:
        need = sum(peaks[p] for p in ["quiver", "control"] + part) * peer_process.PEAK_MARGIN
        assert need <= 16 * gib
    # Without peaks, the factors times the input's size.
    parts = peer_process.plan_parts(units, gib // 8, 1.0, available=20 * gib, quiet=True)
    assert [p for part in parts for p in part] == [p for u in units for p in u]


def test_the_last_full_run_replayed_under_the_budget_ends_within_it():
    """The dry projection: the newest full run's cases, as measured, under
    today's schedule, sessions and budget (budget.simulate) end within 57
    minutes; without the budget they would not."""
    ref = estimate.Reference()
    if not ref.records:
        pytest.skip("no full run in bench/results")
    # The model first: replayed as it ran, the reference's wall time.
    as_ran = budget.simulate(ref, math.inf, replan=False, gc_s=0.0, today=False)
    assert as_ran["end_s"] == pytest.approx(ref.run["wall_s"], rel=0.05)
    sim = budget.simulate(ref, 57 * 60)
    assert sim["floor_s"] < sim["end_s"] <= 57 * 60, budget.print_simulation(sim)
    free = budget.simulate(ref, math.inf)
    assert free["cut"] == 0 and free["end_s"] > sim["end_s"]


def test_today_the_floor_leaves_room_under_the_budget():
    """Issue 43: with 2 rounds a case (and the warm-ups of every arm) the
    last full run's floor all but filled the 57 minutes, so no check was
    ever repeated. Today's rule (no warm-up after a 0.25 s gate run nor for
    a peer 2x from Quiver, far peers other than the fastest decided after
    one round, 3 rounds for a case within 10% of 1, the read-mt sink added)
    leaves at least 5 minutes for the rounds the rule wants."""
    ref = estimate.Reference()
    if not ref.records:
        pytest.skip("no full run in bench/results")
    sim = budget.simulate(ref, 57 * 60)
    assert sim["floor_s"] <= 52 * 60, budget.print_simulation(sim)


def test_the_simulation_runs_sections_and_sinks_apart():
    ref = estimate.Reference()
    if not ref.records:
        pytest.skip("no full run in bench/results")
    tpch = budget.simulate(ref, math.inf, sections=["tpch"])
    assert tpch["cases"] == 4 and [e["after"].split("/")[0] for e in tpch["inputs"]] == ["tpch"]
    both = budget.simulate(ref, math.inf, sections=["matrix"])
    mem = budget.simulate(ref, math.inf, sections=["matrix"], sinks=["mem"])
    assert both["cases"] == mem["cases"] == 147
    assert tpch["end_s"] < mem["end_s"] < both["end_s"]


def read_record():
    arms, times = {}, {}
    for name, role, t in (("quiver", "main", 0.010), ("control", "control", 0.010),
                          ("pyarrow", "peer", 0.020), ("arrow-rs", "peer", 0.008)):
        arms[f"{name}/read"] = {"name": name, "sink": "read", "proc": name, "role": role,
                                "gate_s": t, "warmups_s": [t], "status": "ok"}
        times[f"{name}/read"] = [[0, t], [1, t]]
    stats = {"pyarrow": {"ratio": 0.5, "interval": [0.5, 0.5]},
             "arrow-rs": {"ratio": 1.25, "interval": [1.25, 1.25]}}
    return {"id": "read/g/none", "section": "read", "input": "g", "label": "none",
            "arms": arms, "times_s": times, "reps": 1, "seconds_total": 1.0,
            "sinks": {"read": {"stats": stats, "fastest": "arrow-rs", "flags": []}}}


def test_a_reference_without_the_read_mt_sink_is_costed_with_it():
    rec = read_record()
    out = budget.with_read_mt(rec)
    assert {"quiver/read-mt", "control/read-mt", "pyarrow-mt/read-mt"} <= set(out["arms"])
    assert "arrow-rs/read-mt" not in out["arms"]  # no multi-threaded arrow-rs
    assert out["arms"]["pyarrow-mt/read-mt"]["proc"] == "pyarrow"  # in pyarrow's session
    assert out["times_s"]["pyarrow-mt/read-mt"] == rec["times_s"]["pyarrow/read"]
    # gate, warm-up and two rounds of Quiver, the control and pyarrow-mt
    assert out["seconds_total"] == pytest.approx(1.0 + 2 * 4 * 0.010 + 4 * 0.020)
    assert budget.with_read_mt(out) is out
    assert budget.with_read_mt(dict(rec, section="matrix")) is not None


def test_the_read_section_times_threads_against_threads():
    """Sink read: Quiver with use_threads=False against one-thread peers;
    sink read-mt: Quiver (and its control) with use_threads=True against
    the -mt peers; arrow-rs only in the first."""
    import run
    peers = dict.fromkeys(["quiver", "control", "pyarrow", "arrow-rs", "pyarrow-mt",
                           "duckdb-mt"])
    arms = run.read_arms(peers, "/f.parquet")
    by = {a.key: a for a in arms}
    assert not by["quiver/read"].use_threads and not by["control/read"].use_threads
    assert by["quiver/read-mt"].use_threads and by["control/read-mt"].use_threads
    assert {a.name for a in arms if a.sink == "read" and a.role == "peer"} == \
        {"pyarrow", "arrow-rs"}
    assert {a.name for a in arms if a.sink == "read-mt" and a.role == "peer"} == \
        {"pyarrow-mt", "duckdb-mt"}
    sent = []

    class Recorder:
        def call(self, _timeout=None, **cmd):
            sent.append(cmd)
            return {"seconds": [0.1]}
    schedule.call(Recorder(), by["quiver/read"], "/w")
    schedule.call(Recorder(), by["quiver/read-mt"], "/w")
    assert sent[0]["cmd"] == sent[1]["cmd"] == "read"
    assert "use_threads" not in sent[0] and sent[1]["use_threads"] is True
    procs = ["pyarrow", "pyarrow-mt", "duckdb", "duckdb-mt", "arrow-rs"]
    assert run.peer_units(procs, with_mt=True) == [["pyarrow"], ["duckdb", "duckdb-mt"],
                                                   ["arrow-rs"]]
    assert run.peer_units(procs, with_mt=False, read_mt=True) == \
        [["pyarrow", "pyarrow-mt"], ["duckdb", "duckdb-mt"], ["arrow-rs"]]


def test_the_report_shows_arrow_rs_as_n_a_in_the_multi_threaded_read():
    rec = {"section": "read", "input": "g", "label": "none",
           "arms": {"pyarrow-mt/read-mt": {"name": "pyarrow-mt", "status": "ok"}},
           "sinks": {"read-mt": {"ratio": {"pyarrow-mt": 0.8}, "ratio_fastest": 0.8,
                                 "verdict": "win", "median_s": {"quiver": 0.01}}}}
    assert report.cell(rec, "read-mt", "arrow-rs") == "n/a: one thread"
    assert report.cell(rec, "read-mt", "pyarrow-mt") == "0.80"
    args = SimpleNamespace(sections=["read"], sinks=[], shipped_sinks=[], cdc_sinks=[],
                           tpch_sinks=[], groups=["g"], variants=[])
    rows = {sink: med for sec, sink, m, c, med in report.summary_rows(args, [rec])}
    assert rows["read-mt"]["pyarrow"] == 0.8 and rows["read-mt"]["arrow-rs"] == "n/a: one thread"
    assert any("n/a: one thread" in line for line in report.summary_table(
        report.summary_rows(args, [rec])))
    assert any("arrow-rs and arrow-go are n/a" in d for d in report.DIFFERENCES)


def test_a_layout_arm_is_not_run_without_its_peer(tmp_path):
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "a": noisy(0.020, seed=3)})
    arms = arms_for(["a"]) + [Arm("quiver@polars", "file", "quiver", "layout",
                                  "default@polars", leader="polars")]
    rec = schedule.run_case(write_case(arms), peers, str(tmp_path))
    assert rec["arms"]["quiver@polars/file"]["status"] == "absent"
    assert not any(c["variant"] == "default@polars" for c in peers["quiver"].calls)
