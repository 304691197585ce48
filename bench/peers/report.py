"""The peer harness's report: the .md with every case of every section and
sink (ratios, the interval of Quiver/fastest, verdict, rounds, control,
order), the counts over the whole matrix ("N of M"), the shipped-allocator
run beside the pinned one, use_threads speedups over every group, the peers'
settings and differences; the raw .json.gz; the plot; and the README block."""

import gzip
import json
import os
import platform
import statistics
import subprocess
import sys

from peer_process import MAIN, NATIVE_PEERS
from schedule import MT_ARM, RULE, ST_PEERS, budget_notes

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# undecided: a case its time budget stopped before the rule had decided
# its fastest peer (bench/peers/budget.py).
VERDICTS = ("win", "tie", "loss", "noise", "undecided")
SINK_TITLES = {"file": "file sink: each writer creates a file on /dev/shm (the headline)",
               "mem": "memory sink: each writer ends with one contiguous buffer the caller owns",
               "read": "reading the pyarrow-written file from memory, one thread everywhere "
                       "(Quiver use_threads=False)",
               "read-mt": "reading the pyarrow-written file from memory, multi-threaded: Quiver "
                          "use_threads=True against pyarrow's default (use_threads=True), duckdb "
                          "and polars on every core; arrow-rs and arrow-go n/a (one thread)"}
# Sinks whose peers are the -mt processes: a peer column p shows p-mt, and
# the peers without a multi-threaded read say why.
MT_SINKS = ("read-mt",)
NO_MT = {"arrow-rs": "n/a: one thread", "arrow-rs-native": "n/a: one thread",
         "arrow-go": "n/a: one thread"}
# codec variant -> the same variant without the codec; CDC variant -> without CDC.
CODEC_BASE = {"zstd": "default", "snappy": "default", "zstd_parquet_2": "parquet_2",
              "cdc_zstd": "cdc", "cdc_snappy": "cdc"}
CDC_BASE = {"cdc": "default", "cdc_zstd": "zstd", "cdc_snappy": "snappy"}
DIFFERENCES = [
    "Quiver fsyncs, the peers do not: in the file sink Quiver's write_parquet(table, path) "
    "writes a temporary file, fsyncs it and renames it into place (its defaults, included in "
    "its time); every peer writes the path in place without fsync.",
    "duckdb has no in-memory Parquet output (COPY writes files): it is absent from the memory "
    "sink.",
    "arrow-rs is built twice, for the default x86-64 target and with -C target-cpu=native; "
    "both are reported, and the faster is the peer (\"fastest\" is taken over both).",
    "Reading on one thread (sink read): Quiver read_table(use_threads=False), pyarrow "
    "use_threads=False, duckdb threads=1, polars POLARS_MAX_THREADS=1, arrow-rs and arrow-go "
    "(GOMAXPROCS=1) on one thread. Multi-threaded (sink read-mt): Quiver use_threads=True "
    "against pyarrow's default (pyarrow-mt: use_threads=True, its pools at every core), "
    "duckdb-mt and polars-mt on every core. arrow-rs and arrow-go are n/a there: the arrow-rs "
    "peer's ParquetRecordBatchReader decodes on the calling thread, and the arrow-go peer runs "
    "on one P; the fastest multi-threaded peer is taken over pyarrow-mt, duckdb-mt and "
    "polars-mt only.",
]


def fmt(x, nd=2):
    return "-" if x is None else f"{x:.{nd}f}"


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def machine():
    info = {"python": sys.version.split()[0], "kernel": platform.release(),
            "cores": os.cpu_count()}
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            k, _, v = line.partition(":")
            if k.strip() in ("Model name", "CPU(s)", "Thread(s) per core", "Flags"):
                info[k.strip()] = v.strip()
        info["avx512f"] = "avx512f" in info.pop("Flags", "")
    except OSError:
        pass
    try:
        with open("/proc/meminfo") as f:
            info["memory"] = f.readline().split(":")[1].strip()
    except OSError:
        pass
    try:
        info["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                        capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    return info


# ---------------------------------------------------------------------------
# Verdicts and counts.

def case_verdict(rec, sink):
    s = rec.get("sinks", {}).get(sink)
    if s and "verdict" in s:
        return s["verdict"]
    main = rec.get("arms", {}).get(f"{MAIN}/{sink}")
    if rec.get("error"):
        return "not measured (error)"
    if main is None:
        return "not measured"
    if main["status"] == "skipped":
        return "no peer"
    return f"not measured (quiver {main['status']})"


def planned(args, section):
    """The cases the section's matrix has: (input, label) pairs."""
    if section == "matrix":
        return [(g, v) for g in args.groups for v in args.variants]
    if section == "shipped":
        return [(g, "default") for g in args.groups]
    if section == "read":
        return [(g, c) for g in args.groups for c in ("none", "zstd")]
    if section == "tpch":
        return [(f"lineitem_sf{args.tpch_sf:g}", v) for v in args.tpch_variants]
    if section == "cdc":
        return [(n, "cdc vs default") for n in
                ("required_int64", "nullable_int64", "list_int32", "required_string")]
    return []


def counts(args, results, section, sink):
    """{verdict: n}, M: over every planned case of the section."""
    by = {(r["input"], r["label"]): r for r in results if r["section"] == section}
    out = {}
    cases = planned(args, section)
    for key in cases:
        rec = by.get(key)
        v = case_verdict(rec, sink) if rec else "not run"
        v = v if v in VERDICTS or v == "no peer" else ("not run" if v == "not run"
                                                       else "not measured")
        out[v] = out.get(v, 0) + 1
    return out, len(cases)


def count_text(c, m):
    parts = [f"{c.get('win', 0)} of {m} wins", f"{c.get('tie', 0)} ties",
             f"{c.get('loss', 0)} losses", f"{c.get('noise', 0)} noise"]
    if c.get("undecided"):
        parts.append(f"{c['undecided']} undecided (stopped by the time budget)")
    for k in ("no peer", "not measured", "not run"):
        if c.get(k):
            parts.append(f"{c[k]} {k}")
    return ", ".join(parts)


def sink_recs(results, section, sink):
    return [r for r in results if r["section"] == section and sink in r.get("sinks", {})]


def summary_rows(args, results):
    """(section, sink, M, counts, medians) of every section and sink run."""
    rows = []
    plan = [("matrix", s) for s in args.sinks] + [("shipped", s) for s in args.shipped_sinks] \
        + [("cdc", s) for s in args.cdc_sinks] + [("read", "read"), ("read", "read-mt")] \
        + [("tpch", s) for s in args.tpch_sinks]
    for section, sink in plan:
        if section not in args.sections:
            continue
        recs = sink_recs(results, section, sink)
        c, m = counts(args, results, section, sink)
        ss = [r["sinks"][sink] for r in recs]
        med = {"fastest": median(s.get("ratio_fastest") for s in ss)}
        for p in ST_PEERS:
            if sink in MT_SINKS:
                med[p] = NO_MT.get(p) or median(s.get("ratio", {}).get(p + "-mt") for s in ss)
            else:
                med[p] = median(s.get("ratio", {}).get(p) for s in ss)
        rows.append((section, sink, m, c, med))
    return rows


def summary_table(rows):
    head = ("| section | sink | cases (M) | wins | ties | losses | noise | undecided (budget) | "
            "not measured | median q/fastest | " + " | ".join(f"q/{p}" for p in ST_PEERS) + " |")
    lines = [head, "|" + "---|" * (10 + len(ST_PEERS))]
    for section, sink, m, c, med in rows:
        nm = sum(c.get(k, 0) for k in ("no peer", "not measured", "not run"))
        lines.append(f"| {section} | {sink} | {m} | {c.get('win', 0)} | {c.get('tie', 0)} | "
                     f"{c.get('loss', 0)} | {c.get('noise', 0)} | {c.get('undecided', 0)} | "
                     f"{nm} | {fmt(med['fastest'])} | "
                     + " | ".join(med[p] if isinstance(med[p], str) else fmt(med[p])
                                  for p in ST_PEERS) + " |")
    return lines


def threads_summary(results, sinks):
    """{sink: {arm: [speedups over every group]}} from the matrix's default cases."""
    out = {}
    for sink in sinks:
        sp = {"quiver": [], "duckdb": [], "polars": []}
        for r in sink_recs(results, "matrix", sink):
            if r["label"] != "default":
                continue
            s = r["sinks"][sink]
            if MT_ARM in s.get("ratio", {}):
                sp["quiver"].append((r["input"], s["ratio"][MT_ARM]))
            for p in ("duckdb", "polars"):
                st = s.get("to_leader", {}).get(f"{p}-mt")
                if st:
                    sp[p].append((r["input"], 1 / st["ratio"]))
        out[sink] = sp
    return out


def spread_text(pairs):
    if not pairs:
        return "-"
    xs = sorted(pairs, key=lambda x: x[1])
    return (f"min {xs[0][1]:.2f}x ({xs[0][0]}), median {statistics.median(x for _, x in xs):.2f}x, "
            f"max {xs[-1][1]:.2f}x ({xs[-1][0]}) over {len(xs)} groups; "
            f"{sum(x < 1 for _, x in xs)} below 1.00x")


def native_text(results):
    """How the two arrow-rs builds compare, over every case where both ran."""
    ratios = []
    for r in results:
        for s in r.get("sinks", {}).values():
            m = s.get("median_s", {})
            if "arrow-rs" in m and "arrow-rs-native" in m:
                ratios.append(m["arrow-rs-native"] / m["arrow-rs"])
    if not ratios:
        return None
    return (f"arrow-rs built with -C target-cpu=native took {statistics.median(ratios):.2f} of "
            f"the default build's time (median over {len(ratios)} case-sinks; faster in "
            f"{sum(x < 1 for x in ratios)})")


# ---------------------------------------------------------------------------
# Tables.

def cell(rec, sink, peer):
    if sink in MT_SINKS and peer in NO_MT:
        return NO_MT[peer]
    a = rec.get("arms", {}).get(f"{peer}/{sink}")
    if a is None:
        return "-"
    if a["status"] == "unsupported":
        return "unsup"
    if a["status"] in ("FAIL", "error", "died", "absent", "skipped"):
        return a["status"]
    return fmt(rec.get("sinks", {}).get(sink, {}).get("ratio", {}).get(peer))


def interval_text(s):
    if "ratio_fastest" not in s:
        return "-"
    lo, hi = s["fastest_interval"]
    return f"{s['ratio_fastest']:.2f} [{lo:.2f}..{hi:.2f}]"


def control_text(s):
    if "control" not in s:
        return ""
    return f"{s['control']:.3f} [{s['control_range'][0]:.2f}..{s['control_range'][1]:.2f}]"


def order_text(s):
    if "order_effect" not in s:
        return "n/a"
    return f"{s['order_effect']:+.1%}" + (" (pair)" if s.get("order_from") else "")


def flags_text(rec, sink):
    s = rec.get("sinks", {}).get(sink, {})
    out = list(s.get("flags", []))
    out += [f"(other session: {f})" for f in s.get("other_part_flags", [])]
    for k, a in rec.get("arms", {}).items():
        if k.endswith("/" + sink) and a["status"] in ("FAIL", "error", "died"):
            out.append(f"{a['name']} {a['status']}")
    if rec.get("error"):
        out.append("error: " + rec["error"][:80])
    if rec.get("economy") and s.get("flags"):
        out.append("economy: not repeated")
    out += budget_notes(rec, s)
    return "; ".join(out)


def layout_text(s):
    return ", ".join(f"{p} {r:.2f}" for p, r in s.get("layout", {}).items()) or "-"


def case_table(recs, sink, peers, first_cols):
    layouts = any(r["sinks"].get(sink, {}).get("layout") for r in recs if sink in r["sinks"])
    cols = first_cols + ["quiver ms"] + [f"q/{p}" for p in peers] + \
        ["fastest", "q/fastest [95%]", "verdict", "rounds"] + \
        (["q in the peer's layout / peer", "q/fastest, layouts"] if layouts else []) + \
        ["control [min..max]", "order", "flags"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for rec in recs:
        s = rec.get("sinks", {}).get(sink, {})
        q = s.get("median_s", {}).get(MAIN)
        row = [rec["input"], rec["label"], fmt(q * 1e3 if q else None, 1)]
        row += [cell(rec, sink, p) for p in peers]
        row += [s.get("fastest", "-"), interval_text(s), case_verdict(rec, sink),
                str(rec.get("rounds", "-"))]
        if layouts:
            row += [layout_text(s), fmt(s.get("ratio_fastest_layouts", s.get("ratio_fastest")))]
        row += [control_text(s), order_text(s), flags_text(rec, sink)]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def mt_columns(peers):
    """A multi-threaded sink's peer columns: each peer's -mt process, or the
    peer itself where it has none (its cells say n/a)."""
    return [p + "-mt" if p + "-mt" in ("pyarrow-mt", "duckdb-mt", "polars-mt") else p
            for p in peers]


def threads_table(results, args):
    lines = ["| group | sink | quiver ms | quiver-mt ms | quiver speedup [95%] | duckdb speedup | "
             "polars speedup | rounds |", "|" + "---|" * 8]
    plan = [("matrix", s) for s in args.sinks] + [("tpch", s) for s in args.tpch_sinks]
    for section, sink in plan:
        for r in sink_recs(results, section, sink):
            s = r["sinks"][sink]
            st = s.get("stats", {}).get(MT_ARM)
            if r["label"] != "default" or st is None:
                continue
            m = s["median_s"]
            lo, hi = st["interval"]
            sp = []
            for p in ("duckdb", "polars"):
                x = s.get("to_leader", {}).get(f"{p}-mt")
                sp.append(f"{1 / x['ratio']:.2f}x" if x else "-")
            lines.append(f"| {r['input']} | {sink} | {m[MAIN] * 1e3:.1f} | "
                         f"{m[MT_ARM] * 1e3:.1f} | {st['ratio']:.2f}x [{lo:.2f}..{hi:.2f}] | "
                         f"{sp[0]} | {sp[1]} | {st['rounds']} |")
    return lines


def shipped_table(results, sinks):
    pinned = {(r["input"], sink): r["sinks"][sink] for sink in sinks
              for r in sink_recs(results, "matrix", sink) if r["label"] == "default"}
    lines = ["| group | sink | quiver ms | fastest | q/fastest shipped [95%] | verdict | "
             "q/fastest pinned | " + " | ".join(f"{p} shipped/pinned time" for p in
                                               (MAIN,) + ST_PEERS) + " | flags |",
             "|" + "---|" * (8 + len(ST_PEERS))]
    for sink in sinks:
        for r in sink_recs(results, "shipped", sink):
            s = r["sinks"][sink]
            p = pinned.get((r["input"], sink), {})
            q = s.get("median_s", {}).get(MAIN)
            rel = []
            for w in (MAIN,) + ST_PEERS:
                a, b = s.get("median_s", {}).get(w), p.get("median_s", {}).get(w)
                rel.append(fmt(a / b) if a and b else "-")
            lines.append(f"| {r['input']} | {sink} | {fmt(q * 1e3 if q else None, 1)} | "
                         f"{s.get('fastest', '-')} | {interval_text(s)} | "
                         f"{case_verdict(r, sink)} | {fmt(p.get('ratio_fastest'))} | "
                         + " | ".join(rel) + f" | {flags_text(r, sink)} |")
    return lines


def cdc_table(results):
    lines = ["| input | sink | writer | default ms | cdc ms | overhead | added ms |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        if r["section"] != "cdc":
            continue
        for sink, s in r.get("sinks", {}).items():
            m = s.get("median_s", {})
            for w in (MAIN,) + ST_PEERS:
                st = s.get("to_leader", {}).get(f"{w}:default")
                if w == MAIN and f"{MAIN}:default" in m:
                    d, c = m[f"{MAIN}:default"], m[MAIN]
                elif st and w in m:
                    d, c = m[f"{w}:default"], m[w]
                else:
                    continue
                lines.append(f"| {r['input']} | {sink} | {w} | {d * 1e3:.1f} | {c * 1e3:.1f} | "
                             f"{c / d - 1:+.1%} | {(c - d) * 1e3:.1f} |")
    return lines


def codec_table(results, sink):
    by = {(r["section"], r["input"], r["label"]): r["sinks"][sink] for r in results
          if r["section"] in ("matrix", "tpch") and sink in r.get("sinks", {})}
    writers = (MAIN,) + ST_PEERS
    lines = ["| case | " + " | ".join(writers) + " |", "|" + "---|" * (len(writers) + 1)]
    for (sec, inp, v), s in by.items():
        base = by.get((sec, inp, CODEC_BASE.get(v)))
        if base is None:
            continue
        mc, mn = s.get("median_s", {}), base.get("median_s", {})
        lines.append(f"| {sec} {inp} {v} | " + " | ".join(
            f"{(mc[w] - mn[w]) / mc[w]:.0%}" if w in mc and w in mn else "-"
            for w in writers) + " |")
    return lines if len(lines) > 2 else []


def size_table(results, sink):
    writers = (MAIN,) + ST_PEERS
    lines = ["| case | " + " | ".join(writers) + " |", "|" + "---|" * (len(writers) + 1)]
    for r in results:
        if r["section"] not in ("matrix", "tpch"):
            continue
        b = {a["name"]: a["bytes"] for a in r.get("arms", {}).values()
             if a["sink"] == sink and a.get("bytes")}
        if b:
            lines.append(f"| {r['input']} {r['label']} | " + " | ".join(
                f"{b[w] / 1e6:.2f}" if w in b else "-" for w in writers) + " |")
    return lines if len(lines) > 2 else []


def peers_section(registry, settings, results):
    md = []
    for mode in ("pinned", "shipped"):
        hellos = registry.get(mode, {})
        if not hellos:
            continue
        md += [f"### Allocators {mode}", ""]
        for name, h in hellos.items():
            md.append(f"- **{name}** {h.get('version')}; threads {h.get('threads')}"
                      + (f"; target {h['target_features']}" if h.get("target_features") else "")
                      + f"; allocator: {h.get('allocator')}")
        md.append("")
    store = settings.get("pinned", {})
    for name in dict.fromkeys(k.split("|")[0] for k in store):
        md += [f"### {name}", ""]
        for sink in ("file", "mem"):
            s = store.get(f"{name}|default|{sink}")
            if s and "settings" in s:
                md.append(f"- {sink} sink, default variant: `{json.dumps(s['settings'])}`")
        diffs = []
        for k, r in store.items():
            if k.startswith(name + "|"):
                diffs += [d for d in r.get("differences", []) if d not in diffs]
        if diffs:
            md.append("- cannot match:")
            md += [f"  - {d}" for d in diffs]
        unsup = sorted({f"{k.split('|')[1]} ({k.split('|')[2]}): {r['error']}"
                        for k, r in store.items() if k.startswith(name + "|") and "error" in r})
        if unsup:
            md.append("- cannot do:")
            md += [f"  - {u}" for u in unsup]
        changes, facts = set(), None
        for r in results:
            for a in r.get("arms", {}).values():
                if a["name"] == name and a.get("facts"):
                    changes.update(a["facts"].get("type_changes", []))
                    facts = facts or a["facts"]
        if facts:
            md.append(f"- its files (first case): ARROW:schema "
                      f"{'yes' if facts.get('arrow_schema') else 'no'}, page index "
                      f"{'yes' if facts.get('page_index') else 'no'}, created_by "
                      f"`{facts.get('created_by')}`")
        if changes:
            md.append("- types as pyarrow reads its files back (allowed by the gate): "
                      + "; ".join(sorted(changes)))
        md.append("")
    return md


SECTIONS = [("matrix", "Writer matrix (group x variant)", ["group", "variant"]),
            ("shipped", None, None),
            ("cdc", "CDC inputs (docs/benchmarks.md section 2): Quiver with CDC vs each peer "
                    "with CDC", ["input", "case"]),
            ("read", "Reading the pyarrow-written file of each group", ["group", "codec"]),
            ("tpch", "TPC-H lineitem, in-memory Arrow table to Parquet", ["input", "variant"])]


def budget_lines(args, results, registry, wall):
    """The header's account of the time budget (bench/peers/budget.py)."""
    plan = registry.get("_budget_plan")
    if not plan:
        return []
    done = registry.get("_budget", [])
    if not plan.get("minutes"):
        return ["", f"**Time budget:** none (--budget-minutes 0). Wall time {wall / 60:.1f} min."]
    cut = [r for r in results if r.get("cut")]
    reps = [r for r in results if r.get("reps_cut")]
    undecided = sum(1 for r in results for s in r.get("sinks", {}).values()
                    if s.get("verdict") == "undecided")
    spent = done[-1]["spent_min"] if done else None
    return ["", f"**Time budget** {plan['minutes']:g} min (run.py --budget-minutes, from "
                "run.sh's start after its builds), binding (bench/peers/budget.py): planned from "
                f"{plan['reference']} ({plan['floor_min']:.0f} min of work no deadline removes, "
                f"{plan['full_min']:.0f} min for every round the rule wants), each input a share "
                "and each case a deadline. "
                f"{len(cut)} of {len(results)} cases were stopped at their deadline after the "
                "round in progress (flag \"budget: stopped at N rounds\"), "
                f"{len(reps)} ran fewer repetitions a run than the rule's (flagged); "
                f"{undecided} case-sinks are \"undecided\" (the ratio to the fastest peer not "
                "decided when stopped: no win, tie or loss). Wall time "
                f"{wall / 60:.1f} min"
                + (f", {spent:.1f} min from the budget's start" if spent is not None else "")
                + "."]


def write(args, results, registry, settings, started, stem, wall, final):
    mach = machine()
    when = started.strftime("%Y-%m-%d %H:%M")
    peers = [p for p in ST_PEERS if p in registry.get("pinned", {})
             or p in registry.get("shipped", {})]
    md = [f"# Quiver vs peers: Parquet write and read ({when})", "",
          f"Machine: {mach.get('Model name', '?')}, {mach['cores']} cores, "
          f"{mach.get('memory', '?')} RAM, Linux {mach['kernel']}, Python {mach['python']}, "
          f"commit {mach.get('commit', '?')}. Wall time {wall / 60:.1f} min"
          + ("" if final else " so far (the run is not finished)") + ". "
          + ("QUICK smoke run (small inputs): the numbers mean nothing. " if args.quick else ""),
          "", f"Command: `{' '.join(args.argv)}`", "",
          "Cells are Quiver's median time divided by the peer's (below 1: Quiver faster), over "
          "the rounds both ran. q/fastest: against the fastest peer of that sink (the "
          "single-threaded peers; in read-mt the multi-threaded ones), with its 95% bootstrap "
          "interval. control = second Quiver process / Quiver "
          "[per-round min..max]. order = (Quiver/fastest when Quiver ran first) / (... when it "
          "ran second) - 1. unsup = the peer cannot do it (reasons below); FAIL = its output did "
          "not check (the gate).", "", "**Schedule:** " + RULE, "",
          "**Differences no setting removes:**", ""] + [f"- {d}" for d in DIFFERENCES]
    if registry.get("_selftest"):
        md += ["", "**Allocator pin self-test** (each pinned peer started with its override "
                   "must refuse to run): " + "; ".join(f"{p} with `{o}`: {r}"
                                                       for p, o, r in registry["_selftest"])]
    md += budget_lines(args, results, registry, wall)
    dead = registry.get("_dead", {})
    missing = [p for p in NATIVE_PEERS if p not in registry.get("pinned", {})]
    if missing or dead:
        md += ["", "**Peers missing from this run:** " + "; ".join(
            [f"{p} (no binary)" for p in missing] + [f"{p}: {e}" for p, e in dead.items()])]
    md += ["", "## Summary", ""] + summary_table(summary_rows(args, results))
    nt = native_text(results)
    if nt:
        md += ["", nt + "."]
    th = threads_summary(results, args.sinks)
    for sink, sp in th.items():
        md += ["", f"use_threads ({sink} sink, default variant, {mach['cores']} cores): quiver "
                   f"{spread_text(sp['quiver'])}; duckdb {spread_text(sp['duckdb'])}; polars "
                   f"{spread_text(sp['polars'])}."]
    for sec, title, cols in SECTIONS:
        if sec == "shipped":
            if any(r["section"] == "shipped" for r in results):
                md += ["", "## Allocators as shipped, beside the pinned run (default variant)",
                       "", "Every process started with QUIVER_PEER_ALLOCATOR=shipped and no "
                       "allocator variable (registry below says what each got). shipped/pinned "
                       "time: the writer's median here over its median in the matrix's default "
                       "case (other rounds of the same run).", ""]
                md += shipped_table(results, args.shipped_sinks)
            continue
        sinks = sorted({s for r in results if r["section"] == sec for s in r.get("sinks", {})},
                       key=lambda s: ("file", "mem", "read", "read-mt").index(s))
        for sink in sinks:
            recs = [r for r in results if r["section"] == sec]
            c, m = counts(args, results, sec, sink)
            md += ["", f"## {title} -- {SINK_TITLES[sink]}", "", count_text(c, m) + ".", ""]
            md += case_table(recs, sink, mt_columns(peers) if sink in MT_SINKS else peers, cols)
    md += ["", "## use_threads (multi-threaded arms against their single-threaded selves)", ""]
    md += threads_table(results, args)
    if any(r["section"] == "cdc" for r in results):
        md += ["", "## CDC overhead per writer (same run, interleaved)", ""] + cdc_table(results)
    for sink in args.sinks:
        ct = codec_table(results, sink)
        if ct:
            md += ["", f"## The codec's share of each writer's time ({sink} sink)", "",
                   "(t_codec - t_none) / t_codec, the same writer's medians, the same input's "
                   "variant without the codec.", ""] + ct
    st = size_table(results, "file")
    if st:
        md += ["", "## Output size (MB, file sink)", ""] + st
    md += ["", "## Peers: versions, allocators, settings and differences", ""]
    md += peers_section(registry, settings, results)
    md += ["## Machine", "", "```", json.dumps(mach, indent=1), "```", ""]
    with open(stem + ".md", "w") as f:
        f.write("\n".join(md))
    with gzip.open(stem + ".json.gz", "wt") as f:
        json.dump({"date": started.isoformat(), "wall_s": wall, "final": final, "machine": mach,
                   "argv": args.argv, "rule": RULE,
                   "args": {k: v for k, v in vars(args).items()
                            if k not in ("checkpoint", "bins", "argv", "budget", "reference",
                                         "plan")},
                   "registry": registry, "settings": settings, "results": results}, f)
    if final:
        plot(results, args, stem + ".png", when, mach)


# The plot's mark per sink (make bench-compute passes its own).
PLOT_MARKS = {"file": ("D", "black"), "mem": ("o", "tab:blue"), "read": ("s", "tab:green"),
              "read-mt": ("^", "tab:olive")}


def plot(results, args, path, when, mach, marks=None, title="Quiver vs peers"):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot (scripts/install-deps.sh python-bench)")
        return
    rows = [(r, sink) for r in results for sink in r.get("sinks", {})
            if "ratio_fastest" in r["sinks"][sink] and r["section"] != "shipped"]
    if not rows:
        return
    marks = marks or PLOT_MARKS
    labels = list(dict.fromkeys(f"{r['section']} {r['input']} {r['label']}" for r, _ in rows))
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.16 * len(labels)))
    ys = {lab: len(labels) - 1 - i for i, lab in enumerate(labels)}
    for r, sink in rows:
        s = r["sinks"][sink]
        y = ys[f"{r['section']} {r['input']} {r['label']}"]
        m, c = marks[sink]
        lo, hi = s["fastest_interval"]
        ax.plot([lo, hi], [y, y], "-", color=c, lw=1, alpha=0.6)
        ax.plot(s["ratio_fastest"], y, m, ms=4, color=c,
                alpha=0.4 if s.get("verdict") in ("noise", "undecided") else 1.0)
    for sink, (m, c) in marks.items():
        ax.plot([], [], m, color=c, label=f"quiver / fastest peer, {sink}")
    ax.axvline(1.0, color="black", lw=1)
    ax.axvspan(0.98, 1.02, color="gray", alpha=0.2)
    ax.set_xscale("log")
    ax.set_yticks(list(ys.values()))
    ax.set_yticklabels(list(ys), fontsize=5)
    ax.set_xlabel("Quiver time / fastest peer's (log; < 1: Quiver faster; band: tie; "
                  "lines: 95% interval; faded: noise or undecided)")
    ax.set_title(f"{title}, {when}, {mach.get('Model name', '')} "
                 f"({mach['cores']} cores)", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def update_readme(path_md, started, results, args, registry, wall):
    """The README's peer summary, between its markers."""
    begin, end = "<!-- bench-peers:begin -->", "<!-- bench-peers:end -->"
    mach = machine()
    rel = os.path.relpath(path_md, ROOT)
    lines = [begin, "",
             f"Latest `make bench-peers` ({started.strftime('%Y-%m-%d')}, commit "
             f"{mach.get('commit', '?')}, {wall / 60:.0f} minutes; {mach.get('Model name', '?')}, "
             f"{mach['cores']} cores, Linux {mach['kernel']}; every case in [{rel}]({rel}), raw "
             f"rounds in `{os.path.splitext(rel)[0]}.json.gz`). Counts are of the whole matrix "
             "(\"N of M\"); a ratio is Quiver's time over the peer's (median of the cases); "
             "verdicts from Quiver over the fastest peer: tie within 0.98-1.02, noise when the "
             "control or order check stayed over 3%, undecided when the time budget stopped the "
             "case before its ratio was decided.", ""]
    lines += summary_table(summary_rows(args, results))
    lines += budget_lines(args, results, registry, wall)
    lines += [""] + [f"- {d}" for d in DIFFERENCES]
    nt = native_text(results)
    if nt:
        lines.append(f"- {nt}.")
    for sink, sp in threads_summary(results, args.sinks).items():
        lines.append(f"- use_threads, {sink} sink, {mach['cores']} cores: quiver "
                     f"{spread_text(sp['quiver'])}.")
    if "shipped" in args.sections:
        for sink in args.shipped_sinks:
            c, m = counts(args, results, "shipped", sink)
            lines.append(f"- Allocators as shipped ({sink} sink, default variant): "
                         f"{count_text(c, m)}; pinned, the same cases: "
                         + count_text(*_default_counts(args, results, sink)) + ".")
    lines += ["- Schedule: " + RULE, "", end]
    if write_readme_block(begin, end, lines):
        print("README.md: peer summary updated", flush=True)


def write_readme_block(begin, end, lines):
    """Replaces README.md's text from the line `begin` to the line `end`
    (both markers included in `lines`); False if a marker is missing."""
    readme = os.path.join(ROOT, "README.md")
    with open(readme) as f:
        text = f.read()
    if begin not in text or end not in text:
        return False
    text = text[:text.index(begin)] + "\n".join(lines) + text[text.index(end) + len(end):]
    with open(readme, "w") as f:
        f.write(text)
    return True


def _default_counts(args, results, sink):
    out = {}
    for g in args.groups:
        rec = next((r for r in results if r["section"] == "matrix" and r["input"] == g
                    and r["label"] == "default"), None)
        v = case_verdict(rec, sink) if rec else "not run"
        v = v if v in VERDICTS or v == "not run" else "not measured"
        out[v] = out.get(v, 0) + 1
    return out, len(args.groups)

