#!/usr/bin/env python3
"""Dry estimate of a full `make bench-peers` from a partial run.

    bench/peers/estimate.py PARTIAL.json.gz [PARTIAL2.json.gz ...] \\
        [--reference bench/results/peers_2026-12-05.md]

A partial run (run.py --groups ... --sections ...) records the wall time of
each input of each section (`_timing`). The reference is an earlier full
run's report, whose tables give every case's median time of every arm; the
cost of an input is taken as the sum over its cases of those medians (one
round of every arm: Quiver, its control and each peer). The partial run's
wall time over the reference cost of the same inputs is that section's
factor; the estimate of the section is the factor times the reference cost
of all its inputs. The shipped run is costed as the matrix's default
variant. A section the partial run did not measure takes the matrix's
factor, and says so. Printed: each section's factor (and the spread of the
per-input factors), its estimate, the total, and the run's fixed start-up.

A machine busier than the reference run's inflates the factor. pyarrow's
memory-sink write is the same call in both harnesses (BufferOutputStream +
getvalue()), so its median time over its reference time, across the matrix
cases of the partial run, measures that load; the estimate is also printed
divided by it (for an idle machine like the reference's; the extra rounds
that a noisy machine causes stay in it).
"""

import argparse
import gzip
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEER_COLS = ("pyarrow", "duckdb", "polars", "arrow-rs", "arrow-rs-native", "arrow-go")
# The full run whose arms' times cost the inputs (here and in run.py's Budget).
REFERENCE = os.path.join(ROOT, "bench/results/peers_2026-12-05.md")
REF_SECTIONS = {"Writer matrix": "matrix", "CDC inputs": "cdc", "Reading": "read",
                "TPC-H lineitem": "tpch"}


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
    ap.add_argument("partial", nargs="+", help="partial runs' .json.gz")
    ap.add_argument("--reference", default=REFERENCE)
    args = ap.parse_args()
    ref, ref_pyarrow = reference_costs(args.reference)
    ref["shipped"] = {g: {"default": c["default"]} for g, c in ref.get("matrix", {}).items()
                      if "default" in c}
    timing, startup, load = [], [], []
    for p in args.partial:
        with gzip.open(p, "rt") as f:
            run = json.load(f)
        timing += run["registry"].get("_timing", [])
        for r in run["results"]:
            t = r.get("sinks", {}).get("mem", {}).get("median_s", {}).get("pyarrow")
            if r["section"] == "matrix" and t and (r["input"], r["label"]) in ref_pyarrow:
                load.append(t / ref_pyarrow[(r["input"], r["label"])])
        total = run.get("wall_s", 0)
        startup.append(total - sum(t["seconds"] for t in run["registry"].get("_timing", [])))
    # read runs inside the matrix's sessions: its inputs' time is in "matrix".
    per = {}
    for t in timing:
        sec = t["section"]
        cost = sum(ref.get(sec, {}).get(t["input"], {}).values())
        if sec == "matrix" and "read" in ref:
            cost += sum(ref["read"].get(t["input"], {}).values())
        if cost > 0:
            per.setdefault(sec, []).append((t["input"], t["seconds"], cost))
    if "matrix" not in per:
        sys.exit("estimate: the partial runs have no matrix input to calibrate with")
    factors = {}
    print(f"reference: {os.path.relpath(args.reference, ROOT)}")
    for sec, rows in per.items():
        k = sum(s for _, s, _ in rows) / sum(c for _, _, c in rows)
        each = [s / c for _, s, c in rows]
        factors[sec] = k
        print(f"{sec}: {len(rows)} inputs measured ({', '.join(i for i, _, _ in rows)}): "
              f"{sum(s for _, s, _ in rows) / 60:.1f} min for {sum(c for _, _, c in rows):.1f} s "
              f"of reference rounds: factor {k:.1f} (per input {min(each):.1f}..{max(each):.1f})")
    total = 0.0
    for sec in ("matrix", "shipped", "cdc", "tpch"):
        inputs = ref.get(sec, {})
        cost = sum(sum(v.values()) for v in inputs.values())
        if sec == "matrix":
            cost += sum(sum(v.values()) for v in ref.get("read", {}).values())
        k = factors.get(sec, factors["matrix"])
        est = k * cost
        total += est
        print(f"  {sec:8s} {len(inputs):3d} inputs, reference {cost:7.1f} s a round, factor "
              f"{k:5.1f}{'' if sec in factors else ' (the matrix factor: not measured)'}: "
              f"{est / 60:5.1f} min")
    fixed = statistics.median(startup) if startup else 0.0
    print(f"  fixed start-up (pin self-test, outside the sections): {fixed / 60:.1f} min")
    print(f"estimate of the full run: {(total + fixed) / 60:.0f} min (builds excluded)")
    if load:
        k = statistics.median(load)
        print(f"load: pyarrow's memory-sink writes took {k:.2f}x their reference time (median "
              f"of {len(load)} cases, {min(load):.2f}..{max(load):.2f}); on an idle machine "
              f"like the reference's: {(total + fixed) / k / 60:.0f} min")


if __name__ == "__main__":
    main()
