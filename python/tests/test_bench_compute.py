"""The pure logic of `make bench-compute` (bench/peers/compute_cases.py,
compute_report.py and the kernel path of schedule.py), without peer
processes: the case matrix, the seeded inputs, the gate, calls per timing,
the time plan, and a case run end to end with scripted peers."""

import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

PEERS = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "peers")
sys.path.insert(0, os.path.abspath(PEERS))
sys.path.insert(0, os.path.abspath(os.path.dirname(PEERS)))
import compute_cases as cc  # noqa: E402
import compute_report  # noqa: E402
import schedule  # noqa: E402
from schedule import Arm, Case  # noqa: E402


def test_matrix_covers_every_kernel_at_both_sizes_and_densities():
    specs = cc.case_specs()
    size = {(s.kernel.key, s.rows, s.nulls) for s in specs if s.section == "size"}
    assert size == {(k, r, n) for k in cc.KERNELS for r in cc.SIZES for n in cc.NULL_DENSITIES}
    seed = [s for s in specs if s.section == "seed"]
    assert len(seed) == len(cc.SEED_CASES) == 21
    # The six numeric casts at 512 with 10% nulls; LIKE on 65,536 strings.
    casts = [s for s in seed if s.kernel.name == "cast"]
    assert len(casts) == 6 and {(s.rows, s.nulls) for s in casts} == {(512, 0.1)}
    assert {s.rows for s in seed if s.kernel.name in ("like", "not_like")} == {65_536}
    assert {s.rows for s in seed if s.kernel.name in ("and", "or")} == {40_960}
    ids = [(s.section, s.kernel.key, s.rows, s.nulls) for s in specs]
    assert len(ids) == len(set(ids))
    quick = cc.case_specs(quick=True)
    assert {s.rows for s in quick if s.section == "size"} == {65_536}
    assert len([s for s in quick if s.section == "size"]) == len(cc.KERNELS)


@pytest.mark.parametrize("key", list(cc.KERNELS))
def test_inputs_are_seeded_and_every_kernel_has_an_expected_result(key):
    spec = cc.CaseSpec("size", cc.KERNELS[key], 4096, 0.1, "")
    cols = spec.columns()
    again = spec.columns()
    assert list(cols) == spec.kernel.columns or set(spec.kernel.columns) <= set(cols)
    for name in spec.kernel.columns:
        c = cols[name]
        assert len(c) == 4096 and c.equals(again[name])
        c.validate(full=True)
        if name == "mask":
            assert c.null_count == 0
        else:
            assert 0.05 < c.null_count / len(c) < 0.15, (name, c.null_count)
    want = spec.kernel.expected(cols, spec.kernel.args)
    assert isinstance(want, pa.Array)
    ok, msg = cc.check_result(want, want, spec.kernel.gate)
    assert ok, msg
    # Another seed, another input.
    other = cc.CaseSpec("size", cc.KERNELS[key], 4096, 0.0, "").columns()
    assert not other[spec.kernel.columns[0]].equals(cols[spec.kernel.columns[0]])


def test_inputs_make_the_kernels_meaningful():
    s = cc.strings(cc.rng_for("t"), 20_000, 0.0)
    assert 0.08 < pc.sum(pc.equal(s, "xxxx")).as_py() / len(s) < 0.12
    prefixed = pc.sum(pc.starts_with(s, "xxxx")).as_py() / len(s)
    assert 0.18 < prefixed < 0.22
    assert max(len(x) for x in s.to_pylist()) < cc.MAX_STRING
    f = cc.filter_input(cc.rng_for("f"), 65_536, 0.0)
    kept = pc.sum(f["mask"]).as_py()
    assert 65_536 * (1 - 3 / 1024) < kept < 65_536
    pair = cc.float_pair(cc.rng_for("e"), 10_000, 0.0)
    eq = pc.sum(pc.equal(pair["a"], pair["b"])).as_py()
    assert 4_000 < eq < 6_000
    # Every cast's input is taken by its target under pyarrow's safe cast
    # (it raises on a value out of range, fractional or inexact).
    for k in cc.KERNELS.values():
        if k.name == "cast":
            cols = k.make(cc.rng_for("cast", k.key), 200_000, 0.1)
            assert len(k.expected(cols, k.args)) == 200_000


def test_gate():
    a = pa.array([1.0, None, 3.0], pa.float32())
    assert cc.check_result(a, a, "exact") == (True, "")
    ok, msg = cc.check_result(a.cast(pa.float64()), a, "exact")
    assert not ok and "type double" in msg
    ok, msg = cc.check_result(pa.array([1.0, None, 4.0], pa.float32()), a, "exact")
    assert not ok and "row 2" in msg
    ok, msg = cc.check_result(pa.array([1.0], pa.float32()), a, "exact")
    assert not ok and "1 rows (expected 3)" in msg
    assert cc.check_result(pa.array(["ab"]), pa.array(["ab"]), "value")[0]
    assert not cc.check_result(pa.array(["ab"]), pa.array(["ac"]), "value")[0]
    assert not cc.check_result(pa.array(["ab", "c"]), pa.array(["ab"]), "value")[0]
    # approx: an f32 sum (arrow-rs) against pyarrow's double.
    assert cc.check_result(pa.array([100.0004], pa.float32()), pa.array([100.0]), "approx")[0]
    assert not cc.check_result(pa.array([100.5]), pa.array([100.0]), "approx")[0]
    assert cc.check_result(pa.array([None], pa.float64()), pa.array([None], pa.float64()),
                           "approx")[0]


def test_iters_plan_and_budget():
    assert cc.iters_for(1e-6, 0.1) == 100_000
    assert cc.iters_for(0.5, 0.1) == 1
    assert cc.iters_for(0.0, 0.1) == cc.MAX_ITERS
    assert cc.iters_for(1e-12, 1.0) == cc.MAX_ITERS
    least, most = cc.plan([7, 7], 0.1, 2, 11, overhead_s=0.0)
    assert least == pytest.approx(2 * 7 * (cc.FIXED_TIMINGS + 2) * 0.1)
    assert most == pytest.approx(2 * 7 * (cc.FIXED_TIMINGS + 11) * 0.1)
    # The timing shrinks until the worst case fits the budget, never below 1 ms.
    cases = [7] * 100
    t = cc.target_for(cases, 600, 2, 11, 0.1, overhead_s=0.0)
    assert cc.plan(cases, t, 2, 11, overhead_s=0.0)[1] == pytest.approx(600)
    assert cc.target_for(cases, 1e9, 2, 11, 0.1) == 0.1
    assert cc.target_for(cases, 1, 2, 11, 0.1) == 0.001
    assert cc.project(100, 0, 0, 50) == 100
    assert cc.project(100, 10, 20, 50) == pytest.approx(200)
    assert cc.gbps(2e9, 0.5) == 4.0 and cc.gbps(1, 0) is None
    a = pa.array(np.arange(1000, dtype=np.uint8))
    assert cc.bytes_moved([a, a], a) == 3000


class KernelPeer:
    """A scripted peer: its kernel call takes `seconds`, its result is
    `result` (written to `out` as the real peers do)."""

    def __init__(self, seconds, result=None, error=None):
        self.seconds, self.result, self.error = seconds, result, error
        self.calls = []

    def call(self, _timeout=None, **cmd):
        self.calls.append(cmd)
        if self.error:
            return {"error": self.error}
        if cmd.get("out"):
            batch = pa.record_batch([self.result], names=["result"])
            with pa.OSFile(cmd["out"], "wb") as f, pa.ipc.new_file(f, batch.schema) as w:
                w.write_batch(batch)
        return {"seconds": [self.seconds] * cmd["reps"], "iters": cmd.get("iters", 1)}


def kernel_case(peers_spec, want):
    arms = []
    for proc, (sink, role) in peers_spec.items():
        name = {"main": "quiver", "control": "control"}.get(role, proc)
        arms.append(Arm(name, sink, proc, role, kernel={"name": "add", "input": "x.arrow",
                                                        "columns": ["a"], "args": {}}))
    return Case("seed", "add", "512", "kernel", arms,
                lambda out: cc.check_result(pa.ipc.open_file(out).read_all().column(0)
                                            .combine_chunks(), want, "exact"))


def test_a_kernel_case_runs_through_the_schedule(tmp_path):
    want = pa.array([1, 2, 3])
    wrong = pa.array([1, 2, 4])
    spec = {"quiver-cpp": ("cpp", "main"), "control-cpp": ("cpp", "control"),
            "arrow-rs": ("cpp", "peer"), "arrow-rs-native": ("cpp", "peer"),
            "quiver-py": ("py", "main"), "control-py": ("py", "control"),
            "pyarrow": ("py", "peer")}
    peers = {"quiver-cpp": KernelPeer(1e-6, want), "control-cpp": KernelPeer(1e-6, want),
             "arrow-rs": KernelPeer(3e-6, want), "arrow-rs-native": KernelPeer(2e-6, wrong),
             "quiver-py": KernelPeer(5e-6, want), "control-py": KernelPeer(5e-6, want),
             "pyarrow": KernelPeer(4e-6, want)}
    case = kernel_case(spec, want)
    rec = schedule.run_case(case, peers, str(tmp_path))
    # Every timed call was a kernel command with the arm's fields.
    assert all(c["cmd"] == "kernel" and c["name"] == "add" for p in peers.values()
               for c in p.calls)
    arms = rec["arms"]
    assert arms["arrow-rs-native/cpp"]["status"] == "FAIL"       # the gate compares values
    assert "row 2" in arms["arrow-rs-native/cpp"]["message"]
    cpp, py = rec["sinks"]["cpp"], rec["sinks"]["py"]
    assert cpp["fastest"] == "arrow-rs" and cpp["ratio_fastest"] == pytest.approx(1 / 3)
    assert cpp["verdict"] == "win"
    assert py["fastest"] == "pyarrow" and py["ratio_fastest"] == pytest.approx(1.25)
    assert py["verdict"] == "loss"
    assert compute_report.compute_verdict(rec, "cpp") == "win"
    rec.update(rows=512, nulls=0.0, title="add 512")
    lines = compute_report.case_rows([rec], "py", "ns")
    assert "5,000" in lines[2] and "loss" in lines[2]
    c, m = compute_report.counts([rec], "seed", "cpp")
    assert (c, m) == ({"win": 1}, 1)


def test_unsupported_and_no_peer(tmp_path):
    want = pa.array([1])
    absent = "unsupported: unknown kernel x"
    spec = {"quiver-cpp": ("cpp", "main"), "control-cpp": ("cpp", "control"),
            "arrow-rs": ("cpp", "peer"), "quiver-py": ("py", "main"),
            "control-py": ("py", "control"), "pyarrow": ("py", "peer")}
    peers = {"quiver-cpp": KernelPeer(1e-6, want, error=absent),
             "control-cpp": KernelPeer(1e-6, want, error=absent),
             "arrow-rs": KernelPeer(1e-6, want),
             "quiver-py": KernelPeer(1e-6, want), "control-py": KernelPeer(1e-6, want),
             "pyarrow": KernelPeer(1e-6, want, error="unsupported: no such kernel")}
    rec = schedule.run_case(kernel_case(spec, want), peers, str(tmp_path))
    assert compute_report.compute_verdict(rec, "cpp") == "not measured (unsupported)"
    assert compute_report.compute_verdict(rec, "py") == "no peer"
    c, _ = compute_report.counts([rec], "seed", "cpp")
    assert c == {"not measured": 1}


def test_calibration_aims_at_the_target():
    import compute_run
    arm = Arm("quiver", "cpp", "quiver-cpp", "main", kernel={"name": "add", "input": "x",
                                                           "columns": ["a"], "args": {}})
    fast, slow = KernelPeer(1e-6), KernelPeer(0.5)
    assert compute_run.calibrate(fast, arm, 0.1) == 100_000
    assert [c["iters"] for c in fast.calls] == [1, 25_000]
    assert all(c["reps"] == 3 for c in fast.calls)
    assert compute_run.calibrate(slow, arm, 0.1) == 1
    assert compute_run.calibrate(KernelPeer(1e-6, error="unsupported: x"), arm, 0.1) == 1
    # The floor: the same command on empty inputs.
    compute_run.calibrate(fast, arm, 0.02, empty=True)
    assert fast.calls[-1]["empty"] is True
