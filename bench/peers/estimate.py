#!/usr/bin/env python3
"""Dry estimates of a full `make bench-peers`: from a partial run, or by
simulating the budget over an earlier full run.

    bench/peers/estimate.py PARTIAL.json.gz [PARTIAL2.json.gz ...] [--reference REF]
    bench/peers/estimate.py --simulate [--reference REF] [--budget-minutes 57]
                            [--sections S,...] [--sinks file|mem,read,read-mt]

The reference (Reference below) is the newest full run in bench/results
(its .json.gz: the wall time of each input, `_timing`, each case's
seconds in every session, the sessions each input took and each process's
peak memory); an older report's .md (REFERENCE_MD: one round of every arm
per case, from its tables) when there is no such run. run.py's Budget
plans with the same reference.

A partial run (run.py --groups ... --sections ...) records the wall time of
each input of each section (`_timing`). The partial run's wall time over
the reference cost of the same inputs is that section's factor; the
estimate of the section is the factor times the reference cost of all its
inputs. The shipped run is costed as the matrix's default variant when the
reference has none. A section the partial run did not measure takes the
matrix's factor, and says so. Printed: each section's factor (and the
spread of the per-input factors), its estimate, the total, and the run's
fixed start-up.

A machine busier than the reference run's inflates the factor. pyarrow's
memory-sink write is the same call in both harnesses (BufferOutputStream +
getvalue()), so its median time over its reference time, across the matrix
cases of the partial run, measures that load; the estimate is also printed
divided by it (for an idle machine like the reference's; the extra rounds
that a noisy machine causes stay in it).

--simulate replays the reference's cases under today's schedule and the
binding budget (budget.simulate): each case's gate, warm-ups and rounds as
they were measured, with today's repetitions per run and today's sessions
(peer_process.plan_parts with the measured peaks), each case stopped at
its deadline as run.py would; prints the projected end and the cases cut.
"""

import argparse
import gzip
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RESULTS = os.path.join(ROOT, "bench/results")
QUICK_RESULTS = os.path.join(ROOT, "build/peers/results-quick")
QUICK_SECTIONS = ("matrix", "shipped", "cdc", "read", "tpch")
PEER_COLS = ("pyarrow", "duckdb", "polars", "arrow-rs", "arrow-rs-native", "arrow-go")
# The fallback reference when bench/results holds no full run's .json.gz.
REFERENCE_MD = os.path.join(RESULTS, "peers_2026-12-05.md")
REF_SECTIONS = {"Writer matrix": "matrix", "CDC inputs": "cdc", "Reading": "read",
                "TPC-H lineitem": "tpch"}


def newest_full_run(results_dir=RESULTS, quick=False):
    """(path, run) of the newest full run's .json.gz in `results_dir`
    (final, with every section and group: args.full), or None. quick=True:
    the newest --quick run of every section and quick group instead."""
    best = None
    try:
        names = sorted(os.listdir(results_dir))
    except OSError:
        return None
    for name in names:
        if not (name.startswith("peers_") and name.endswith(".json.gz")) or "_partial" in name:
            continue
        path = os.path.join(results_dir, name)
        try:
            with gzip.open(path, "rt") as f:
                run = json.load(f)
        except (OSError, ValueError):
            continue
        a = run.get("args", {})
        whole = a.get("quick") and a.get("full_groups") and \
            sorted(a.get("sections", [])) == sorted(QUICK_SECTIONS) if quick else a.get("full")
        if not run.get("final") or not whole:
            continue
        if best is None or run.get("date", "") > best[1].get("date", ""):
            best = (path, run)
    return best


def case_seconds(rec):
    """A case's seconds in every session it ran in."""
    return sum(p.get("seconds_total", 0.0) for p in rec.get("parts", [rec]))


class Reference:
    """An earlier full run's costs (quick=True: the newest --quick run's,
    if there is one), in seconds:
    inputs   {(section, input): wall time of the input} (a matrix input's
             time holds its read cases: they run in its sessions);
    cases    {(section, input, label): the case's seconds, every session};
    parts    {(section, input): sessions the input took};
    peaks    {(mode, input file name): {process: peak resident bytes}};
    pyarrow  {(group, variant): pyarrow's memory-sink seconds in the matrix};
    records  the json's results (budget.simulate replays them);
    source   the file read."""

    def __init__(self, path=None, quick=False):
        self.inputs, self.cases, self.parts, self.peaks, self.pyarrow = {}, {}, {}, {}, {}
        self.records, self.run = [], None
        found = (path, None) if path else None
        if found is None and quick:
            found = newest_full_run(QUICK_RESULTS, quick=True)
        if found is None:
            found = newest_full_run()
        if found is not None and found[0].endswith(".json.gz"):
            self.source = found[0]
            run = found[1]
            if run is None:
                with gzip.open(self.source, "rt") as f:
                    run = json.load(f)
            self._from_run(run)
        else:
            self.source = path or REFERENCE_MD
            costs, self.pyarrow = reference_costs(self.source)
            for sec, inputs in costs.items():
                for name, labels in inputs.items():
                    for label, c in labels.items():
                        self.cases[(sec, name, label)] = c
                    key = ("matrix" if sec == "read" else sec, name)
                    self.inputs[key] = self.inputs.get(key, 0.0) + sum(labels.values())

    def _from_run(self, run):
        self.run = run
        self.records = run["results"]
        for t in run["registry"].get("_timing", []):
            key = (t["section"], t["input"])
            self.inputs[key] = self.inputs.get(key, 0.0) + t["seconds"]
        for r in self.records:
            self.cases[(r["section"], r["input"], r["label"])] = case_seconds(r)
            t = r.get("sinks", {}).get("mem", {}).get("median_s", {}).get("pyarrow")
            if r["section"] == "matrix" and t:
                self.pyarrow[(r["input"], r["label"])] = t
            key = ("matrix" if r["section"] == "read" else r["section"], r["input"])
            self.parts[key] = max(self.parts.get(key, 1), len(r.get("parts", [r])))
        for p in run["registry"].get("_peak_rss", []):
            k = (p["mode"], os.path.basename(p["input"] or ""))
            d = self.peaks.setdefault(k, {})
            d[p["peer"]] = max(d.get(p["peer"], 0), p["peak_bytes"])

    def _input_name(self, section, name):
        """`name`, or the section's only input (TPC-H at another scale)."""
        if (section, name) in self.inputs:
            return name
        names = [n for s, n in self.inputs if s == section]
        return names[0] if len(names) == 1 else name

    def case_cost(self, section, name, label):
        """Seconds of a case; a case the reference lacks: the median of its
        section's cases (1 s if none)."""
        base = "matrix" if section == "read" else section
        key = (section, self._input_name(base, name), label)
        if key in self.cases:
            return self.cases[key]
        same = [c for (s, _, _), c in self.cases.items() if s == section]
        return statistics.median(same) if same else 1.0

    def overhead(self, section, name):
        """Seconds of an input outside its cases (loads, sessions, read files)."""
        name = self._input_name(section, name)
        if (section, name) not in self.inputs:
            return 0.0
        secs = ("matrix", "read") if section == "matrix" else (section,)
        inside = sum(c for (s, n, _), c in self.cases.items() if s in secs and n == name)
        return max(0.0, self.inputs[(section, name)] - inside)

    def input_cost(self, section, name, labels):
        """Seconds of an input with the cases `labels` ([(section, label)])."""
        return self.overhead(section, name) + sum(self.case_cost(s, name, lab)
                                                  for s, lab in labels)

    def input_peaks(self, mode, path):
        """{process: peak bytes} measured with the input file `path` (or {})."""
        return dict(self.peaks.get((mode, os.path.basename(path)), {}))


def reference_costs(path):
    """({section: {input: {label: seconds of one round of every arm}}},
    {(group, variant): pyarrow's seconds in the matrix})."""
    costs, pyarrow, sec, head = {}, {}, None, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                sec = next((v for k, v in REF_SECTIONS.items() if line[3:].startswith(k)), None)
                head = None
                continue
            if sec is None or not line.startswith("|") or line.startswith("|---"):
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if cells[0] in ("group", "input"):
                head = cells
                continue
            if head is None or "quiver ms" not in head:
                continue
            row = dict(zip(head, cells))
            try:
                q = float(row["quiver ms"]) / 1e3
            except ValueError:
                continue
            cost = 2 * q
            for p in PEER_COLS:
                try:
                    cost += q / float(row.get(f"q/{p}", ""))
                except ValueError:
                    pass
            label = row.get("variant") or row.get("codec") or row.get("case")
            costs.setdefault(sec, {}).setdefault(row[head[0]], {})[label] = cost
            try:
                if sec == "matrix":
                    pyarrow[(row[head[0]], label)] = q / float(row.get("q/pyarrow", ""))
            except ValueError:
                pass
    return costs, pyarrow


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("partial", nargs="*", help="partial runs' .json.gz")
    ap.add_argument("--reference", default=None,
                    help="a full run's .json.gz (or an older report's .md); default: the "
                         "newest full run in bench/results")
    ap.add_argument("--simulate", action="store_true",
                    help="replay the reference under today's schedule and budget")
    ap.add_argument("--budget-minutes", type=float, default=57.0,
                    help="--simulate: the budget (run.py's default 57; 0: none)")
    ap.add_argument("--sections", default=None,
                    help="--simulate: a run of these sections only (run.py --sections)")
    ap.add_argument("--sinks", default=None,
                    help="--simulate: these sinks only (file, mem; read and read-mt are the "
                         "read section's), e.g. a run with run.py --sinks file")
    args = ap.parse_args()
    ref = Reference(args.reference)
    print(f"reference: {os.path.relpath(ref.source, ROOT)}")
    if args.simulate:
        import budget
        if not ref.records:
            sys.exit("estimate: --simulate needs a full run's .json.gz as the reference")
        budget.print_simulation(budget.simulate(
            ref, args.budget_minutes * 60 if args.budget_minutes else float("inf"),
            sections=args.sections.split(",") if args.sections else None,
            sinks=args.sinks.split(",") if args.sinks else None))
        return
    if not args.partial:
        ap.error("give partial runs' .json.gz, or --simulate")
    timing, startup, load = [], [], []
    for p in args.partial:
        with gzip.open(p, "rt") as f:
            run = json.load(f)
        timing += run["registry"].get("_timing", [])
        for r in run["results"]:
            t = r.get("sinks", {}).get("mem", {}).get("median_s", {}).get("pyarrow")
            if r["section"] == "matrix" and t and (r["input"], r["label"]) in ref.pyarrow:
                load.append(t / ref.pyarrow[(r["input"], r["label"])])
        total = run.get("wall_s", 0)
        startup.append(total - sum(t["seconds"] for t in run["registry"].get("_timing", [])))
    inputs = dict(ref.inputs)
    if not any(s == "shipped" for s, _ in inputs):
        for (s, n, lab), c in ref.cases.items():
            if s == "matrix" and lab == "default":
                inputs[("shipped", n)] = c
    # (read runs inside the matrix's sessions: its inputs' time is in "matrix".)
    per = {}
    for t in timing:
        cost = inputs.get((t["section"], ref._input_name(t["section"], t["input"])), 0.0)
        if cost > 0:
            per.setdefault(t["section"], []).append((t["input"], t["seconds"], cost))
    if "matrix" not in per:
        sys.exit("estimate: the partial runs have no matrix input to calibrate with")
    factors = {}
    for sec, rows in per.items():
        k = sum(s for _, s, _ in rows) / sum(c for _, _, c in rows)
        each = [s / c for _, s, c in rows]
        factors[sec] = k
        print(f"{sec}: {len(rows)} inputs measured ({', '.join(i for i, _, _ in rows)}): "
              f"{sum(s for _, s, _ in rows) / 60:.1f} min for {sum(c for _, _, c in rows):.1f} s "
              f"of the reference: factor {k:.2f} (per input {min(each):.2f}..{max(each):.2f})")
    total = 0.0
    for sec in ("matrix", "shipped", "cdc", "tpch"):
        costs = [c for (s, _), c in inputs.items() if s == sec]
        k = factors.get(sec, factors["matrix"])
        est = k * sum(costs)
        total += est
        print(f"  {sec:8s} {len(costs):3d} inputs, reference {sum(costs):7.1f} s, factor "
              f"{k:5.2f}{'' if sec in factors else ' (the matrix factor: not measured)'}: "
              f"{est / 60:5.1f} min")
    fixed = statistics.median(startup) if startup else 0.0
    print(f"  fixed start-up (pin self-test, outside the sections): {fixed / 60:.1f} min")
    print(f"estimate of the full run without a budget: {(total + fixed) / 60:.0f} min "
          "(builds excluded)")
    if load:
        k = statistics.median(load)
        print(f"load: pyarrow's memory-sink writes took {k:.2f}x their reference time (median "
              f"of {len(load)} cases, {min(load):.2f}..{max(load):.2f}); on an idle machine "
              f"like the reference's: {(total + fixed) / k / 60:.0f} min")


if __name__ == "__main__":
    main()
