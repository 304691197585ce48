"""The report of `make bench-compute`: the .md (summary counts over the
whole matrix, the required check, the seed cases in ns per call, the kernels
at 65,536 and 1,048,576 rows with GB/s for filter and take, the call floors
of the Python arms), the raw .json.gz, the plot and the README block. The
pieces shared with `make bench-peers` come from report.py."""

import gzip
import json
import statistics

import compute_cases as cc
import report
from report import control_text, count_text, fmt, interval_text, order_text
from schedule import MAIN, RULE

SINKS = {"cpp": ("Quiver's C++ kernels vs arrow-rs (default and -C target-cpu=native: the "
                 "faster is the peer)", ("arrow-rs", "arrow-rs-native")),
         "py": ("quiver.compute vs pyarrow.compute (one thread)", ("pyarrow",))}
PLOT_MARKS = {"cpp": ("D", "black"), "py": ("o", "tab:blue")}
TARGET = 0.67
BEGIN, END = "<!-- bench-compute:begin -->", "<!-- bench-compute:end -->"
DIFFERENCES = [
    "add/subtract: arrow-rs's add_wrapping/sub_wrapping (pyarrow's add wraps integers; on "
    "these f32 inputs every library computes the same IEEE sums).",
    "cast: each library's safe cast (arrow-rs's default CastOptions turn a value that does not "
    "fit into null, pyarrow and Quiver raise); the inputs hold only values every target takes, "
    "so all three check and none fails.",
    "sum of f32: arrow-rs returns f32 (its own lane-wise f32 sum), pyarrow and Quiver a double "
    "(pairwise summation); the gate accepts a relative 1e-3.",
    "array equality: arrow-rs `a == b` on two arrays (equal.rs), Quiver's ArrayEquals, "
    "Array.equals in Python; element-wise `equal` is its own kernel.",
    "NOT LIKE: arrow-rs's nlike; Quiver and pyarrow invert(match_like(...)) (two calls).",
    "filter context: arrow-rs FilterBuilder::optimize, Quiver's FilterContext, both built "
    "outside the timing; neither Python library has one (not measured there).",
    "is_in: the arrow crates have none (no peer for the C++ arm).",
    "min of strings: arrow-rs's min_string returns a borrowed &str; Quiver and pyarrow an "
    "owned scalar (a copy of the bytes).",
]


def arm_time(rec, sink, name):
    return rec.get("sinks", {}).get(sink, {}).get("median_s", {}).get(name)


def fmt_time(seconds, unit):
    if seconds is None:
        return "-"
    return f"{seconds * 1e9:,.0f}" if unit == "ns" else f"{seconds * 1e6:,.1f}"


def compute_verdict(rec, sink):
    """The case's verdict in `sink`, or why it was not measured."""
    s = rec.get("sinks", {}).get(sink)
    if s and "verdict" in s:
        return s["verdict"]
    if rec.get("error"):
        return "not measured (error)"
    main = rec.get("arms", {}).get(f"{MAIN}/{sink}")
    if main is None:
        return "not run"
    if main["status"] == "skipped":
        return "no peer"
    if main["status"] == "unsupported":
        return "not measured (unsupported)"
    return f"not measured (quiver {main['status']})"


def counts(results, section, sink):
    out = {}
    recs = [r for r in results if r["section"] == section]
    for r in recs:
        v = compute_verdict(r, sink)
        v = v if v in report.VERDICTS or v == "no peer" else "not measured"
        out[v] = out.get(v, 0) + 1
    return out, len(recs)


def target_text(s):
    r = s.get("ratio_fastest")
    if r is None:
        return "-"
    return "met" if r <= TARGET else "missed"


def flags(rec, sink):
    out = [report.flags_text(rec, sink)] if report.flags_text(rec, sink) else []
    for k, a in rec.get("arms", {}).items():
        if k.endswith("/" + sink) and a["status"] == "unsupported" and a["message"]:
            out.append(f"{a['name']}: {a['message'][:90]}")
    return "; ".join(out)


def gbps_text(rec, sink, peers):
    nbytes = rec.get("bytes_moved")
    if not nbytes or rec.get("rows") != cc.SIZES[-1]:
        return "-"
    s = rec.get("sinks", {}).get(sink, {})
    q = cc.gbps(nbytes, arm_time(rec, sink, MAIN))
    f = s.get("fastest")
    fp = cc.gbps(nbytes, arm_time(rec, sink, f)) if f else None
    return f"{fmt(q, 1)} / {fmt(fp, 1)}"


def case_rows(recs, sink, unit):
    _, peers = SINKS[sink]
    py = sink == "py"
    cols = ["case", "rows", "nulls", f"quiver {unit}"] + \
        ([f"quiver floor {unit}"] if py else []) + [f"{p} {unit}" for p in peers] + \
        ([f"{peers[0]} floor {unit}"] if py else []) + \
        ["fastest", "q/fastest [95%]", "verdict", f"target {TARGET}", "rounds",
         "GB/s q / fastest", "control [min..max]", "order", "flags"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in recs:
        s = r.get("sinks", {}).get(sink, {})
        fl = r.get("floors_s", {})
        row = [r.get("title", r["label"]) if r["section"] == "seed" else r.get("kernel_label", ""),
               f"{r.get('rows', 0):,}", f"{r.get('nulls', 0):.0%}",
               fmt_time(arm_time(r, sink, MAIN), unit)]
        if py:
            row.append(fmt_time(fl.get(f"{MAIN}/{sink}"), unit))
        row += [fmt_time(arm_time(r, sink, p), unit) for p in peers]
        if py:
            row.append(fmt_time(fl.get(f"{peers[0]}/{sink}"), unit))
        row += [s.get("fastest", "-"), interval_text(s), compute_verdict(r, sink), target_text(s),
                str(r.get("rounds", "-")), gbps_text(r, sink, peers), control_text(s),
                order_text(s), flags(r, sink)]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def summary_rows(results):
    rows = []
    for section in ("seed", "size"):
        for sink in SINKS:
            recs = [r for r in results if r["section"] == section]
            if not recs:
                continue
            c, m = counts(results, section, sink)
            ratios = [r["sinks"][sink]["ratio_fastest"] for r in recs
                      if "ratio_fastest" in r.get("sinks", {}).get(sink, {})]
            met = sum(x <= TARGET for x in ratios)
            rows.append((section, sink, m, c, statistics.median(ratios) if ratios else None,
                         f"{met} of {len(ratios)}"))
    return rows


def summary_table(rows):
    lines = ["| section | arm | cases (M) | wins | ties | losses | noise | no peer | "
             f"not measured | median q/fastest | at most {TARGET} of the fastest |",
             "|" + "---|" * 11]
    for section, sink, m, c, med, met in rows:
        nm = sum(v for k, v in c.items() if k not in report.VERDICTS and k != "no peer")
        lines.append(f"| {section} | {sink} | {m} | {c.get('win', 0)} | {c.get('tie', 0)} | "
                     f"{c.get('loss', 0)} | {c.get('noise', 0)} | {c.get('no peer', 0)} | {nm} | "
                     f"{fmt(med)} | {met} |")
    return lines


def required_lines(results):
    """Issue 44's requirement: no peer faster on any case at 65,536 and
    1,048,576 rows (a loss; noise is listed apart)."""
    out = []
    for sink in SINKS:
        size = [r for r in results if r["section"] == "size"]
        losses = [r for r in size if compute_verdict(r, sink) == "loss"]
        noise = [r for r in size if compute_verdict(r, sink) == "noise"]
        text = "none" if not losses else ", ".join(
            f"{r['input']} {r['label']} ({r['sinks'][sink]['fastest']} "
            f"{r['sinks'][sink]['ratio_fastest']:.2f})" for r in losses)
        out.append(f"- {sink}: peers faster in {len(losses)} of {len(size)} cases: {text}"
                   + (f"; noise (not decided) in {len(noise)}" if noise else "") + ".")
    return out


def write(args, results, registry, started, stem, wall, final):
    mach = report.machine()
    when = started.strftime("%Y-%m-%d %H:%M")
    plan = registry.get("_plan", {})
    md = [f"# Quiver compute kernels vs arrow-rs and pyarrow.compute ({when})", "",
          f"Machine: {mach.get('Model name', '?')}, {mach['cores']} cores, "
          f"{mach.get('memory', '?')} RAM, Linux {mach['kernel']}, Python {mach['python']}, "
          f"commit {mach.get('commit', '?')}. Wall time {wall / 60:.1f} min"
          + ("" if final else " so far (the run is not finished)") + ". "
          + ("QUICK smoke run (short timings, a subset): the numbers mean little. "
             if args.quick else ""), "", f"Command: `{' '.join(args.argv)}`", "",
          "Times are medians of complete calls (each producing its materialized result), over "
          "the rounds; q/fastest is Quiver's median over the faster peer's, with its 95% "
          "bootstrap interval (below 1: Quiver faster). Floors: the same call on empty inputs "
          "(printed beside, never subtracted). control = a second Quiver process / Quiver "
          "[per-round min..max]; order = (Quiver/fastest when Quiver ran first) / (... second) "
          "- 1. GB/s: bytes of the inputs and the result over the median time (filter and take "
          "at 1,048,576 rows).", "", "**Schedule:** " + RULE, "",
          f"**Plan:** {plan.get('cases')} cases; one timing lasts about "
          f"{plan.get('target_s', 0) * 1e3:.1f} ms (calls per timing chosen per arm); planned "
          f"{plan.get('least_min', 0):.1f} to {plan.get('most_min', 0):.1f} min within a "
          f"{plan.get('budget_min', 0):g}-min budget.", "",
          "**Differences no setting removes:**", ""] + [f"- {d}" for d in DIFFERENCES]
    if registry.get("_selftest"):
        md += ["", "**Allocator pin self-test** (each pinned peer started with its override "
                   "must refuse to run): " + "; ".join(f"{p} with `{o}`: {r}"
                                                       for p, o, r in registry["_selftest"])]
    eco = [b["after"] for b in registry.get("_budget", []) if b["economy"]]
    if eco:
        md += ["", f"**Budget:** projected past it after {eco[0]}: failing checks were not "
                   "repeated from there (\"economy\")."]
    missing = [p for p in ("arrow-rs", "arrow-rs-native") if p not in args.procs]
    dead = registry.get("_dead", {})
    if missing or dead:
        md += ["", "**Peers missing from this run:** " + "; ".join(
            [f"{p} (no binary)" for p in missing] + [f"{p}: {e}" for p, e in dead.items()])]
    md += ["", "## Summary", ""] + summary_table(summary_rows(results))
    md += ["", "Required (issue 44): no peer faster at 65,536 and 1,048,576 rows:", ""]
    md += required_lines(results)
    for section, title, unit in (("seed", "Seed cases (the ARROW-11045 table), ns per call", "ns"),
                                 ("size", "Each kernel at 65,536 and 1,048,576 rows, us per call",
                                  "us")):
        recs = [r for r in results if r["section"] == section]
        if not recs:
            continue
        for sink, (sink_title, _) in SINKS.items():
            c, m = counts(results, section, sink)
            md += ["", f"## {title} -- {sink_title}", "", count_text(c, m) + ".", ""]
            md += case_rows(recs, sink, unit)
    md += ["", "## Peers", ""]
    for name, h in registry.get("pinned", {}).items():
        md.append(f"- **{name}** {h.get('version')}; threads {h.get('threads')}"
                  + (f"; target {h['target_features']}" if h.get("target_features") else "")
                  + (f"; SIMD {h['simd_level']}" if h.get("simd_level") else "")
                  + f"; allocator: {h.get('allocator')}")
    md += ["", "## Machine", "", "```", json.dumps(mach, indent=1), "```", ""]
    with open(stem + ".md", "w") as f:
        f.write("\n".join(md))
    with gzip.open(stem + ".json.gz", "wt") as f:
        json.dump({"date": started.isoformat(), "wall_s": wall, "final": final, "machine": mach,
                   "argv": args.argv, "rule": RULE, "registry": registry,
                   "results": results}, f)
    if final:
        report.plot(results, args, stem + ".png", when, mach, PLOT_MARKS,
                    "Quiver compute vs arrow-rs / pyarrow.compute")


def update_readme(path_md, started, results, args, wall):
    mach = report.machine()
    rel = report.os.path.relpath(path_md, report.ROOT)
    lines = [BEGIN, "",
             f"Latest `make bench-compute` ({started.strftime('%Y-%m-%d')}, commit "
             f"{mach.get('commit', '?')}, {wall / 60:.0f} minutes; {mach.get('Model name', '?')}, "
             f"{mach['cores']} cores; every case in [{rel}]({rel})). Arms: cpp = Quiver's C++ "
             "kernels vs the faster arrow-rs 60.1 build; py = quiver.compute vs "
             "pyarrow.compute, one thread. Ratio = Quiver's median time over the faster "
             "peer's (median of the cases).", ""]
    lines += summary_table(summary_rows(results))
    lines += [""] + required_lines(results)
    lines += ["- Schedule: " + RULE, "", END]
    if report.write_readme_block(BEGIN, END, lines):
        print("README.md: compute summary updated", flush=True)
