"""Tests of the peer harness's schedule and gates with scripted peers (no
processes): who stops when, the interval, the checks and the verdicts.

    .venv/bin/python -m pytest -q bench/peers/schedule_test.py
"""

import os
import random
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import gate  # noqa: E402
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


def test_far_peer_leaves_after_the_minimum_and_a_close_one_runs_to_the_maximum(tmp_path):
    peers = peers_for({"quiver": noisy(0.010), "control": noisy(0.010, seed=2),
                       "slow": noisy(0.050, seed=3), "close": noisy(0.0101, seed=4)})
    rec = schedule.run_case(write_case(arms_for(["slow", "close"])), peers, str(tmp_path))
    s = rec["sinks"]["file"]
    assert s["rounds"]["slow"] == schedule.R_MIN
    assert s["rounds"]["close"] == schedule.R_MAX
    assert rec["rounds"] == schedule.R_MAX
    assert s["ratio"]["slow"] == pytest.approx(0.2, rel=0.01)
    assert s["fastest"] == "close"
    lo, hi = s["fastest_interval"]
    assert lo <= s["ratio_fastest"] <= hi
    assert s["verdict"] == "tie"  # 0.99: within 0.98-1.02


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
    merged = schedule.merge_parts([part("a", 0.4, 1.05), part("b", 0.8, 1.0)])
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
    peers = peers_for({"quiver": noisy(1.5), "control": noisy(1.5, seed=2),
                       "a": noisy(3.0, seed=3)})
    rec = schedule.run_case(write_case(arms_for(["a"])), peers, str(tmp_path))
    assert all(a["warmups_s"] == [] for a in rec["arms"].values())
    assert rec["reps"] == 1
