"""The report of `make bench-filter` (bench/peers/filter_run.py):
<stem>.md and <stem>.json.gz, every cell, its ratios and verdicts
(schedule.py's rule), and the issue's required figures checked:

  1. no peer faster in any cell (one thread; and Quiver use_threads=True
     against the -mt peers where that sink ran);
  2. a 1% filter at most 0.5 of arrow-rs's time (the faster of the default
     and native builds);
  3. a 50% filter at most 1.05 of Quiver's read-then-filter;
  4. a 0.1% range on the sorted key reads at most 5% of that column's
     bytes (read_stats bytes_read of the key column's filtered read against
     the column chunks' compressed bytes).

A cell where Quiver skipped more pages or row groups than the arrow-rs peer's
own pruning (same page index) is marked "peer under-pruned" and not counted
as a win.
"""

import gzip
import json
import os

from report import fmt, machine
import schedule
from schedule import RULE

ST_PEERS = ("pyarrow", "duckdb", "polars", "arrow-rs", "arrow-rs-native")
MT_PEERS = ("pyarrow-mt", "duckdb-mt", "polars-mt")
REQ_1PCT_ARROW_RS = 0.5
REQ_50PCT_RTF = 1.05
REQ_SORTED_BYTES = 0.05


def arm(rec, name, sink):
    return rec.get("arms", {}).get(f"{name}/{sink}", {})


def under_pruned(rec):
    """Quiver's and the arrow-rs peer's pruning counts, and whether Quiver
    skipped more (pages or row groups)."""
    q = arm(rec, "quiver", "st").get("gate_reply", {}).get("read_stats")
    r = arm(rec, "arrow-rs", "st").get("gate_reply") or arm(rec, "arrow-rs-native", "st").get(
        "gate_reply")
    if not q or not r or "pages_skipped" not in r:
        return None, q, r
    more = (q.get("pages_skipped", 0) > r["pages_skipped"]
            or q.get("row_groups_pruned_statistics", 0) > r.get("row_groups_pruned", 0))
    return more, q, r


def cell_verdict(rec, sink):
    s = rec.get("sinks", {}).get(sink)
    if not s:
        return "not timed"
    v = s.get("verdict", "not measured")
    if sink == "st" and v == "win" and under_pruned(rec)[0]:
        return "win (peer under-pruned)"
    return v


def required(results, figures):
    """[(name, ok or None, detail lines)]."""
    out = []
    losses, open_, cells = [], [], 0
    for rec in results:
        for sink in ("st", "mt"):
            s = rec.get("sinks", {}).get(sink)
            if not s or "ratio_fastest" not in s:
                continue
            cells += 1
            line = (f"{rec['id']} [{sink}]: {s['fastest']} Quiver/peer {s['ratio_fastest']:.2f} "
                    f"({s.get('verdict')})")
            if s.get("verdict") == "loss":
                losses.append(line)
            elif s["ratio_fastest"] > 1 + schedule.TIE:
                open_.append(line + ": a peer may be faster, not decided")
    ok = False if losses else (None if open_ or not cells else True)
    out.append(("no peer faster in any cell", ok,
                [f"{cells} cells compared; {len(losses)} losses; {len(open_)} over 1 but noise "
                 f"or undecided"] + losses + open_))
    bad, seen = [], 0
    for rec in results:
        if rec.get("selectivity") != 0.01:
            continue
        s = rec.get("sinks", {}).get("st", {})
        ratios = [s.get("ratio", {}).get(p) for p in ("arrow-rs", "arrow-rs-native")]
        ratios = [r for r in ratios if r is not None]
        if not ratios:
            continue
        seen += 1
        r = max(ratios)  # against the faster arrow-rs build: the larger ratio
        if r > REQ_1PCT_ARROW_RS:
            bad.append(f"{rec['id']}: Quiver/arrow-rs {r:.2f}")
    out.append((f"1% filter <= {REQ_1PCT_ARROW_RS} of arrow-rs", (not bad) if seen else None,
                [f"{seen} cells at 1%; {len(bad)} over"] + bad))
    bad, seen = [], 0
    for rec in results:
        if rec.get("selectivity") != 0.5:
            continue
        r = rec.get("sinks", {}).get("st", {}).get("ratio", {}).get("quiver-rtf")
        if r is None:
            continue
        seen += 1
        if r > REQ_50PCT_RTF:
            bad.append(f"{rec['id']}: Quiver/read-then-filter {r:.2f}")
    out.append((f"50% filter <= {REQ_50PCT_RTF} of Quiver's read-then-filter",
                (not bad) if seen else None, [f"{seen} cells at 50%; {len(bad)} over"] + bad))
    lines, ok = [], None
    for (dataset, codec), f in sorted(figures.items()):
        if "error" in f:
            lines.append(f"{dataset}.{codec}: {f['error']}")
            ok = False
            continue
        good = f["fraction"] <= REQ_SORTED_BYTES
        ok = good if ok is None else ok and good
        lines.append(f"{dataset}.{codec}: {f['bytes_read']:,} of {f['column_bytes']:,} bytes "
                     f"({f['fraction']:.2%}); pages skipped {f['read_stats'].get('pages_skipped')}"
                     f", row groups pruned {f['read_stats'].get('row_groups_pruned_statistics')}")
    out.append((f"0.1% sorted-key range reads <= {REQ_SORTED_BYTES:.0%} of the key column's bytes",
                ok, lines))
    return out


def ms(x):
    return "-" if x is None else f"{x * 1e3:.1f}"


def cell_row(rec, sink, peers):
    s = rec.get("sinks", {}).get(sink, {})
    med = s.get("median_s", {})
    ratio = s.get("ratio", {})
    cols = [rec["label"], f"{rec.get('achieved', 0):.3%}", str(rec.get("rows_out", "-")),
            ms(med.get("quiver"))]
    for p in peers:
        a = arm(rec, p, sink)
        if p in med:
            cols.append(f"{ms(med[p])} ({fmt(ratio.get(p))})")
        elif a:
            cols.append(a.get("status", "-"))
        else:
            cols.append("-")
    if sink == "st":
        cols.append(fmt(ratio.get("quiver-rtf")))
    cols += [s.get("fastest", "-"), fmt(s.get("ratio_fastest")),
             (f"[{fmt(s['fastest_interval'][0])}, {fmt(s['fastest_interval'][1])}]"
              if s.get("fastest_interval") else "-"),
             fmt(s.get("control"), 3), cell_verdict(rec, sink)]
    flags = list(s.get("flags", [])) + ([rec["skipped"]] if rec.get("skipped") else []) + \
        (["resumed"] if rec.get("resumed_from") else [])
    if s.get("budget"):
        flags.append(s["budget"])
    if sink == "st":
        more, q, r = under_pruned(rec)
        if q is not None:
            cols.append(f"{q.get('pages_skipped', '-')}/{q.get('row_groups_pruned_statistics', '-')}")
        else:
            cols.append("-")
        cols.append(f"{r['pages_skipped']}/{r['row_groups_pruned']}" if r and "pages_skipped" in r
                    else "-")
        if more:
            flags.append("peer under-pruned")
    fails = [f"{k.split('/')[0]} {a['status']}: {a['message'][:80]}"
             for k, a in rec.get("arms", {}).items()
             if k.endswith("/" + sink) and a["status"] not in ("ok", "skipped")]
    cols.append("; ".join(flags + fails) or "")
    return "| " + " | ".join(c.replace("|", "/") for c in cols) + " |"


def table(recs, sink):
    peers = ST_PEERS if sink == "st" else MT_PEERS
    head = ["case", "achieved", "rows", "Quiver ms"] + [f"{p} ms (Q/p)" for p in peers]
    if sink == "st":
        head.append("Q/read-then-filter")
    head += ["fastest", "Q/fastest", "95% interval", "control", "verdict"]
    if sink == "st":
        head += ["Quiver pages/rg skipped", "arrow-rs pages/rg skipped"]
    head.append("flags")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += [cell_row(r, sink, peers) for r in recs]
    return lines


def sources(results):
    out = {}
    for rec in results:
        for k, a in rec.get("arms", {}).items():
            src = a.get("gate_reply", {}).get("source")
            if src:
                out.setdefault(k.split("/")[0], src)
    return out


def case_counts(results, m):
    """'N of M cases measured (...)': every case of the matrix accounted for."""
    skipped = [r for r in results if r.get("skipped")]
    budget = sum(1 for r in skipped if not r.get("not_reached"))
    resumed = sum(1 for r in results if r.get("resumed_from") and not r.get("skipped"))
    return (f"{len(results) - len(skipped)} of {m} cases measured"
            + (f" ({resumed} of them by the run resumed)" if resumed else "")
            + f", {budget} not run for the budget, {len(skipped) - budget} not reached"
            + (f", {m - len(results)} missing" if len(results) != m else ""))


def write(args, results, registry, figures, started, stem, wall, final):
    """Writes the report; returns False if a Quiver arm failed its gate."""
    req = required(results, figures)
    mach = machine()
    resumed = registry.get("_resumed")
    lines = [f"# make bench-filter, {started:%Y-%m-%d %H:%M}, commit {mach.get('commit', '?')}"
             + ("" if final else " (partial: in progress or stopped)"), "",
             f"Wall time {wall / 60:.1f} min; budget {args.budget_minutes:g} min; "
             + case_counts(results, len(args.specs)) + f"; command `{' '.join(args.argv)}`"
             + (" (--quick: correctness smoke test, timings not meaningful)" if args.quick else "")
             + (f". Resumed from {resumed['from']} (started {resumed.get('started')}, "
                f"{resumed['cases']} cases measured there, kept as they are: \"resumed\" in "
                "their flags)" if resumed else ""),
             "", f"Machine: {mach.get('Model name', '?')}, {mach.get('cores')} cores, "
             f"{mach.get('memory', '?')}. Load average at the end: {os.getloadavg()[0]:.1f}.",
             "", "## Required figures (issue 45, section 4)", ""]
    for name, ok, detail in req:
        mark = "PASS" if ok else ("not measured or not decided" if ok is None else "FAIL")
        lines.append(f"- **{mark}**: {name}")
        lines += [f"    - {d}" for d in detail[:40]]
    lines += ["", "## Peers and their sources", "",
              "| peer | version | source | allocator |", "|---|---|---|---|"]
    src = sources(results)
    for name, hello in registry.get("pinned", {}).items():
        lines.append(f"| {name} | {hello.get('version', '?')} | {src.get(name, '-')} | "
                     f"{str(hello.get('allocator', ''))[:120]} |")
    lines += ["", "quiver-rtf: Quiver reading the projection's and the filter's columns "
              "(every row) then Table.filter(expression), in the quiver process (source as "
              "quiver's).", "", "## Rule", "", RULE, ""]
    for inp in dict.fromkeys(r["input"] for r in results):
        recs = [r for r in results if r["input"] == inp]
        lines += [f"## {inp}: one thread", ""] + table(recs, "st") + [""]
        if any(r.get("sinks", {}).get("mt") for r in recs):
            lines += [f"## {inp}: multi-threaded (Quiver use_threads=True, peers on all cores)",
                      ""] + table(recs, "mt") + [""]
        else:
            why = {arm(r, "quiver", "mt").get("message", "") for r in recs} - {""}
            lines += [f"{inp}: multi-threaded sink not run: " + "; ".join(sorted(why))[:300], ""]
    lines += ["## Predicates", ""]
    seen = set()
    for r in results:
        key = (r.get("dataset"), r.get("predicate_kind"), r.get("selectivity"))
        if key not in seen and r.get("predicate"):
            seen.add(key)
            lines.append(f"- {key[0]} {key[1]} {key[2]:g}: `{r['predicate'][:160]}` "
                         f"(achieved {r.get('achieved', 0):.3%})")
    os.makedirs(os.path.dirname(stem) or ".", exist_ok=True)
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    blob = {"started": started.isoformat(), "wall_s": wall, "final": final, "machine": mach,
            "argv": args.argv, "quick": bool(args.quick), "registry": registry,
            "results": results,
            "figures": {f"{d}.{c}": v for (d, c), v in figures.items()},
            "required": [{"name": n, "ok": ok, "detail": d} for n, ok, d in req]}
    with gzip.open(stem + ".json.gz", "wt") as f:
        json.dump(blob, f, default=str)
    if final:
        for name, ok, detail in req:
            print(f"bench-filter: {'PASS' if ok else ('not measured' if ok is None else 'FAIL')}: "
                  f"{name} ({detail[0] if detail else ''})", flush=True)
    ours = [f"{r['id']} ({k})" for r in results for k, a in r.get("arms", {}).items()
            if a["status"] == "FAIL" and a["role"] in ("main", "control")]
    if ours and final:
        print("bench-filter: Quiver's results FAILED the oracle in: " + ", ".join(ours), flush=True)
    return not ours
