"""The pure logic of `make bench-filter` (bench/peers/filter_cases.py,
filter_report.py and the filter path of schedule.py), without peer
processes: the case matrix, the seeded ClickBench-like table, the predicate
literals (their selectivity is real), the predicate as pyarrow's filters=
(judged by pyarrow's own filtered read), the oracle check, and a case run
end to end with scripted peers and its report's required figures."""

import io
import os
import sys
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

PEERS = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "peers")
sys.path.insert(0, os.path.abspath(PEERS))
sys.path.insert(0, os.path.abspath(os.path.dirname(PEERS)))
import filter_cases as fc  # noqa: E402
import filter_report  # noqa: E402
import schedule  # noqa: E402
from schedule import Arm, Case  # noqa: E402

ROWS = 20_000


@pytest.fixture(scope="module")
def clickbench():
    return fc.clickbench_table(ROWS)


@pytest.fixture(scope="module")
def lineitem():
    """A table with lineitem's columns used by the cases (values seeded,
    shaped like TPC-H's: sorted order keys, dates over seven years)."""
    rng = np.random.default_rng(7)
    n = ROWS
    days = lambda: pa.array(rng.integers(8035, 8035 + 2526, n).astype(np.int32)).cast(pa.date32())  # noqa: E731
    return pa.table({
        "l_orderkey": pa.array(np.sort(rng.integers(1, n // 4, n))),
        "l_partkey": pa.array(rng.integers(1, 200_000, n)),
        "l_suppkey": pa.array(rng.integers(1, 10_000, n)),
        "l_extendedprice": pa.array(rng.random(n) * 1e5).cast(pa.decimal128(15, 2)),
        "l_shipdate": days(), "l_commitdate": days(), "l_receiptdate": days(),
        "l_shipmode": pa.array(rng.choice(["AIR", "MAIL", "SHIP", "TRUCK"], n).tolist()),
        "l_comment": pa.array([f"c{v:08d} text" for v in rng.integers(0, 10 ** 8, n)]),
    })


def test_matrix_covers_everything_and_quick_covers_every_value():
    specs = fc.case_specs()
    assert len(specs) == len(fc.DATASETS) * 2 * 6 * 4 * 3 == 288
    keys = {(s.dataset, s.codec, s.kind, s.selectivity, s.projection) for s in specs}
    assert len(keys) == 288
    quick = fc.case_specs(quick=True)
    assert len(quick) == 48
    assert {(s.dataset, s.kind, s.selectivity) for s in quick} == \
        {(d, k, x) for d in fc.DATASETS for k in fc.KINDS for x in fc.SELECTIVITIES}
    for d in fc.DATASETS:
        assert {s.codec for s in quick if s.dataset == d} == set(fc.CODECS)
        assert {s.projection for s in quick if s.dataset == d} == set(fc.PROJECTIONS)


def test_clickbench_table_is_seeded_and_shaped(clickbench):
    again = fc.clickbench_table(ROWS)
    assert clickbench.equals(again)
    assert not clickbench.equals(fc.clickbench_table(ROWS, seed=1))
    counter = clickbench.column("CounterID").to_numpy()
    assert (np.diff(counter) >= 0).all()
    empty = pc.equal(clickbench.column("SearchPhrase"), "")
    assert 0.80 < pc.mean(empty).as_py() < 0.90
    # Short runs: far fewer changes than random, far more than one per run of 100.
    changes = int(np.count_nonzero(np.diff(empty.to_numpy(zero_copy_only=False).astype(int))))
    assert ROWS / 40 < changes < ROWS / 3
    lengths = pc.utf8_length(clickbench.column("URL")).to_numpy()
    assert lengths.min() >= 40 and lengths.max() <= 260 and lengths.mean() > 100
    ids = clickbench.column("WatchID").to_numpy()
    assert (ids < 0).any() and (ids > 0).any() and len(np.unique(ids)) == ROWS


@pytest.mark.parametrize("dataset", list(fc.DATASETS))
def test_literals_give_the_selectivity_and_pyarrow_agrees(dataset, clickbench, lineitem):
    table = clickbench if dataset == "clickbench" else lineitem
    buf = io.BytesIO()
    pq.write_table(table, buf, write_page_index=True, max_rows_per_page=2000)
    data = pa.BufferReader(buf.getvalue())
    cache = {}
    for kind in fc.KINDS:
        for sel in fc.SELECTIVITIES:
            p = fc.make_predicate(table, dataset, kind, sel, cache)
            got = fc.achieved(table, p)
            # Ties (a sorted key's runs, dates) move it a little; never far.
            assert abs(got - sel) <= max(0.5 * sel, 0.002) + (0.03 if sel == 0.5 else 0), \
                (kind, sel, got, p.text())
            want = fc.oracle(table, p, fc.projection(dataset, kind, "filter_payload",
                                                     table.column_names))
            assert want.num_rows == round(got * table.num_rows)
            # pyarrow's own filtered read of the file, from the DNF form.
            cols = want.column_names
            read = pq.read_table(data, columns=cols, filters=fc.dnf(p))
            ok, msg = fc.check_result(read, want)
            assert ok, (kind, sel, msg)


def test_projections(clickbench):
    names = clickbench.column_names
    assert fc.projection("clickbench", "or", "filter_payload", names) == \
        ["WatchID", "RegionID", "ResolutionWidth", "SearchPhrase"]
    assert fc.projection("clickbench", "date", "all", names) == names
    assert fc.projection("clickbench", "date", "payload", names) == \
        ["ResolutionWidth", "SearchPhrase"]
    for d in fc.DATASETS.values():
        for cols in d.columns.values():
            assert not set(cols) & set(d.payload)


def test_the_check_compares_values_order_and_types():
    want = pa.table({"a": [1, 2, 3], "s": ["x", "", "z"]})
    assert fc.check_result(want, want)[0]
    views = pa.table({"a": [1, 2, 3], "s": pa.array(["x", "", "z"], pa.string_view())})
    assert fc.check_result(views, want)[0]
    large = pa.table({"a": pa.array([1, 2, 3], pa.int64()),
                      "s": pa.array(["x", "", "z"], pa.large_string())})
    assert fc.check_result(large, want)[0]
    # A "not null" field (TPC-H's) against a peer's nullable one, and back.
    strict = pa.table(want.columns, schema=pa.schema([pa.field("a", pa.int64(), False),
                                                      pa.field("s", pa.string(), False)]))
    assert fc.check_result(want, strict)[0] and fc.check_result(strict, want)[0]
    assert fc.check_result(strict, strict)[0]
    ok, msg = fc.check_result(pa.table({"a": [1, 2, 4], "s": ["x", "", "z"]}), want)
    assert not ok and "column a" in msg and "row 2" in msg
    ok, msg = fc.check_result(pa.table({"a": [1, 2], "s": ["x", ""]}), want)
    assert not ok and "2 rows" in msg
    swapped = pa.table({"a": [2, 1, 3], "s": ["", "x", "z"]})
    assert not fc.check_result(swapped, want)[0]
    assert fc.check_result(swapped, want, any_order=True)[0]
    ok, msg = fc.check_result(pa.table({"s": ["x", "", "z"], "a": [1, 2, 3]}), want)
    assert not ok and "columns" in msg


def test_dnf_of_an_or_and_of_a_conjunction():
    p = fc.Predicate("or", 0.1, [[["a", "<", 3], ["d", "<", {"date": 10}]]])
    assert fc.dnf(p) == [[("a", "<", 3)], [("d", "<", fc.EPOCH + fc.datetime.timedelta(10))]]
    q = fc.Predicate("two", 0.1, [[["a", ">=", 1]], [["s", "<", "m"]]])
    assert fc.dnf(q) == [[("a", ">=", 1), ("s", "<", "m")]]
    assert q.text() == "a >= 1 AND s < 'm'"


class FilterPeer:
    """A scripted peer of the `filter` command: `seconds` a read, `result`
    written to the gate's `out`, `extra` fields in every reply."""

    def __init__(self, seconds, result, **extra):
        self.seconds, self.result, self.calls = seconds, result, []
        self.reply = dict(extra, rows=result.num_rows)

    def call(self, _timeout=None, **cmd):
        self.calls.append(cmd)
        if cmd.get("out"):
            with pa.ipc.new_file(cmd["out"], self.result.schema) as w:
                w.write_table(self.result)
        return dict(self.reply, seconds=[self.seconds] * cmd["reps"])


def test_a_filter_case_runs_through_the_schedule_and_the_report(tmp_path):
    import filter_run
    table = pa.table({"k": list(range(100)), "v": [str(i) for i in range(100)]})
    pred = fc.Predicate("sorted_key", 0.01, [[["k", ">=", 10]], [["k", "<", 11]]])
    want = fc.oracle(table, pred, ["k", "v"])
    wrong = pa.table({"k": [10], "v": ["x"]})
    procs = ["quiver", "control", "pyarrow", "duckdb", "arrow-rs", "pyarrow-mt"]
    arms = filter_run.make_arms("/dev/shm/x.parquet", ["k", "v"], pred, procs)
    assert {a.key for a in arms} == {"quiver/st", "control/st", "quiver-rtf/st", "pyarrow/st",
                                     "duckdb/st", "arrow-rs/st", "quiver/mt", "control/mt",
                                     "pyarrow-mt/mt"}
    q = FilterPeer(1e-3, want, read_stats={"pages_skipped": 9, "row_groups_pruned_statistics": 0})

    class Quiver:
        calls = []

        def call(self, _timeout=None, **cmd):  # read-then-filter is slower; no threads
            self.calls.append(cmd)
            if cmd.get("use_threads"):
                return {"error": "unsupported: use_threads=True is not built yet"}
            if cmd.get("mode") == "read_then_filter":
                return FilterPeer(2e-3, want).call(**cmd)
            return q.call(**cmd)

    peers = {"quiver": Quiver(), "control": FilterPeer(1e-3, want),
             "pyarrow": FilterPeer(4e-3, want), "duckdb": FilterPeer(1e-3, wrong),
             "arrow-rs": FilterPeer(3e-3, want, pages_skipped=4, row_groups_pruned=0),
             "pyarrow-mt": FilterPeer(1e-4, want)}
    case = Case("filter", "t.none", "sorted_key@0.01/filter_payload", "filter", arms,
                filter_run.gate_for(want))
    rec = schedule.run_case(case, peers, str(tmp_path))
    assert all(c["cmd"] == "filter" and c["predicate"] == pred.as_json()
               for p in ("pyarrow", "arrow-rs") for c in peers[p].calls)
    a = rec["arms"]
    assert a["duckdb/st"]["status"] == "FAIL" and "column v" in a["duckdb/st"]["message"]
    # Quiver without use_threads: its multi-threaded sink is not run.
    assert a["quiver/mt"]["status"] == "unsupported"
    assert a["pyarrow-mt/mt"]["status"] == "skipped" and not peers["pyarrow-mt"].calls
    assert a["quiver/st"]["gate_reply"]["read_stats"]["pages_skipped"] == 9
    st = rec["sinks"]["st"]
    assert st["fastest"] == "arrow-rs" and st["ratio_fastest"] == pytest.approx(1 / 3)
    assert st["ratio"]["quiver-rtf"] == pytest.approx(0.5)
    assert "mt" not in rec["sinks"]
    # Quiver skipped more pages than the arrow-rs peer: not a win.
    assert filter_report.cell_verdict(rec, "st") == "win (peer under-pruned)"
    rec.update(selectivity=0.01, achieved=0.01, rows_out=1, dataset="t", predicate="k",
               predicate_kind="sorted_key")
    figures = {("t", "none"): {"bytes_read": 40, "column_bytes": 1000, "fraction": 0.04,
                               "read_stats": {"pages_skipped": 3}}}
    req = {name: ok for name, ok, _ in filter_report.required([rec], figures)}
    assert req == {"no peer faster in any cell": True, "1% filter <= 0.5 of arrow-rs": True,
                   "50% filter <= 1.05 of Quiver's read-then-filter": None,
                   "0.1% sorted-key range reads <= 5% of the key column's bytes": True}
    args = SimpleNamespace(budget_minutes=45, specs=[1], argv=["x"], quick=True)
    import datetime
    assert filter_report.write(args, [rec], {}, figures, datetime.datetime.now(),
                               str(tmp_path / "filter_x"), 1.0, final=True)
    md = (tmp_path / "filter_x.md").read_text()
    assert "peer under-pruned" in md and "PASS" in md and "duckdb FAIL" in md


def test_the_budget_gives_deadlines_and_stops_running_cases_it_cannot_afford():
    import time
    import filter_run
    b = filter_run.Budgeter(600.0, time.time(), [1.0, 3.0, 1.0])
    first = b.deadline(0) - time.time()
    # What is left (less the reserve) spread by weight: the first case a fifth.
    assert 0.15 * (600 - 60) < first < 0.25 * (600 - 60)
    assert b.affordable(0)
    b.record(0, 30.0)  # 30 s a weight: case 1 (weight 3) needs 45 s of floor
    assert b.affordable(1)
    b.record(1, 90.0)
    b.wall0 -= 560  # 560 s of the 600 gone: less than case 2's floor (15 s) is left
    assert not b.affordable(2)
    assert filter_run.weight(fc.CaseSpec("x", "none", "or", 0.5, "all")) == 6.0


def test_the_multi_threaded_sink_runs_quiver_and_its_control_with_threads(tmp_path):
    """Sink mt: Quiver and its control with use_threads=True against the
    -mt peers (each peer process reads on all its threads, so no
    use_threads goes to them); the one-thread sink never asks for threads."""
    import filter_run
    table = pa.table({"k": list(range(100))})
    pred = fc.Predicate("sorted_key", 0.01, [[["k", ">=", 10]], [["k", "<", 11]]])
    want = fc.oracle(table, pred, ["k"])
    procs = ["quiver", "control", "pyarrow", "pyarrow-mt", "duckdb-mt"]
    arms = filter_run.make_arms("/dev/shm/x.parquet", ["k"], pred, procs)

    class Threaded(FilterPeer):
        def call(self, _timeout=None, **cmd):  # 2x faster with threads
            self.seconds = 5e-4 if cmd.get("use_threads") else 1e-3
            return super().call(**cmd)
    peers = {"quiver": Threaded(1e-3, want), "control": Threaded(1e-3, want),
             "pyarrow": FilterPeer(3e-3, want), "pyarrow-mt": FilterPeer(2e-3, want),
             "duckdb-mt": FilterPeer(1e-3, want)}
    rec = schedule.run_case(Case("filter", "t.none", "sorted_key@0.01/filter_payload", "filter",
                                 arms, filter_run.gate_for(want)), peers, str(tmp_path))
    mt = rec["sinks"]["mt"]
    assert mt["median_s"]["quiver"] == pytest.approx(5e-4)
    assert mt["fastest"] == "duckdb-mt" and mt["ratio_fastest"] == pytest.approx(0.5)
    assert mt["control"] == pytest.approx(1.0) and mt["verdict"] == "win"
    assert rec["sinks"]["st"]["median_s"]["quiver"] == pytest.approx(1e-3)
    for name in ("quiver", "control"):
        st_calls = [c for c in peers[name].calls if not c.get("use_threads")]
        assert st_calls and len(st_calls) < len(peers[name].calls)
    assert not any(c.get("use_threads") for p in ("pyarrow", "pyarrow-mt", "duckdb-mt")
                   for c in peers[p].calls)


def test_duckdb_memory_limit_is_at_least_4_gib_and_six_times_the_file():
    assert fc.duckdb_memory_limit(10 << 20) == 4 << 30
    assert fc.duckdb_memory_limit(1 << 30) == 6 << 30


def fake_blob(path, results, quick=False, commit="abc1234", figures=None):
    import gzip
    import json
    with gzip.open(path, "wt") as f:
        json.dump({"started": "2026-12-07T10:00:00", "wall_s": 2580.0, "final": True,
                   "quick": quick, "machine": {"commit": commit}, "argv": ["x"],
                   "results": results, "figures": figures or {}}, f)


def test_resume_keeps_what_prev_measured_and_accounts_for_every_case(tmp_path):
    import datetime
    import filter_resume as fr
    specs = fc.case_specs(quick=True)[:5]
    ids = [fr.case_id(s) for s in specs]
    assert ids[0] == f"filter/{specs[0].input_name}/{specs[0].label}"
    prev = [
        {"id": ids[0], "input": specs[0].input_name, "label": specs[0].label,
         "sinks": {"st": {"verdict": "win"}}, "arms": {}},
        {"id": ids[1], "input": specs[1].input_name, "label": specs[1].label, "sinks": {},
         "arms": {}, "skipped": "not run: the budget's time was spent"},
        {"id": ids[2], "input": specs[2].input_name, "label": specs[2].label, "sinks": {},
         "error": "peer died"},
    ]
    path = str(tmp_path / "prev.json.gz")
    fig = {"bytes_read": 10, "column_bytes": 1000, "fraction": 0.01, "read_stats": {}}
    fake_blob(path, prev, quick=True, figures={"clickbench.none": fig})
    done, figures, info = fr.load(path, quick=True, commit="abc1234")
    assert set(done) == {ids[0]} and done[ids[0]]["resumed_from"] == path
    assert figures == {("clickbench", "none"): fig}
    assert info["cases"] == 1 and info["of"] == 3
    with pytest.raises(ValueError, match="--quick"):
        fr.load(path, quick=False, commit="abc1234")
    with pytest.raises(ValueError, match="commit abc1234"):
        fr.load(path, quick=True, commit="def5678")
    # This run measured case 1 (the budget's skip of PREV) and stopped.
    new = [{"id": ids[1], "input": specs[1].input_name, "label": specs[1].label,
            "sinks": {"st": {"verdict": "loss"}}, "arms": {}}]
    merged = fr.merged(specs, new, done, "not reached: the run was stopped before it")
    assert [r["id"] for r in merged] == ids  # every case, in the matrix's order
    assert merged[0] is done[ids[0]] and merged[1] is new[0]
    assert all(r["not_reached"] and r["skipped"].startswith("not reached") for r in merged[2:])
    text = filter_report.case_counts(merged, len(specs))
    assert text == ("2 of 5 cases measured (1 of them by the run resumed), 0 not run for the "
                    "budget, 3 not reached")
    args = SimpleNamespace(budget_minutes=43, specs=specs, argv=["x"], quick=True)
    filter_report.write(args, merged, {"_resumed": info}, figures, datetime.datetime.now(),
                        str(tmp_path / "merged"), 1.0, final=False)
    md = (tmp_path / "merged.md").read_text()
    assert f"Resumed from {path}" in md and "resumed" in md and "not reached" in md
    # The merged result is itself a run --resume can continue.
    done2, _, _ = fr.load(str(tmp_path / "merged.json.gz"), quick=True, commit=None)
    assert set(done2) == {ids[0], ids[1]}
    assert done2[ids[0]]["resumed_from"] == path
