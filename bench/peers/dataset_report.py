"""The report of the dataset section (bench/peers/dataset_run.py):
<stem>.md and <stem>.json.gz, every case of the matrix (measured, not run
for the budget, or not reached), its ratios and verdicts (schedule.py's
rule), the S3 request counts, and issue 46 section 6's figures checked:

  1. no peer faster (every case and sink: no "loss");
  2. the target: Quiver at most 0.67 of the fastest peer's time;
  3. on S3, fewer requests than any peer (one read, counted on the server).
"""

import gzip
import json
import os

from report import fmt, machine
from schedule import RULE

TARGET = 0.67
PEERS = {"st": ("pyarrow", "duckdb", "polars"), "mt": ("pyarrow-mt", "duckdb-mt", "polars-mt")}


def accounted(specs, results, reason):
    """`results` plus a record for every spec not run yet (`reason`)."""
    done = {r.get("spec") for r in results}
    return results + [{"id": s.id, "spec": s.id, "label": s.label, "sinks": {}, "arms": {},
                       "skipped": reason, "not_reached": True,
                       "input": getattr(s, "where", "write")}
                      for s in specs if s.id not in done]


def cells(results):
    for rec in results:
        for sink in ("st", "mt"):
            s = rec.get("sinks", {}).get(sink)
            if s and "ratio_fastest" in s:
                yield rec, sink, s


def fewer_requests(rec):
    """[(sink, quiver's requests, {peer: requests}, ok)] of an S3 case."""
    req = rec.get("s3_requests") or {}
    out = []
    for sink in ("st", "mt"):
        q = req.get(f"quiver/{sink}", {}).get("requests")
        peers = {k.split("/")[0]: v.get("requests") for k, v in req.items()
                 if k.endswith("/" + sink) and not k.startswith("quiver/")
                 and v.get("requests") is not None}
        if q is None or not peers:
            continue
        out.append((sink, q, peers, all(q < n for n in peers.values())))
    return out


def required(results):
    out = []
    losses, open_, n = [], [], 0
    over_target = []
    for rec, sink, s in cells(results):
        n += 1
        line = f"{rec['id']} [{sink}]: {s['fastest']} Quiver/peer {s['ratio_fastest']:.2f} " \
               f"({s.get('verdict')})"
        if s.get("verdict") == "loss":
            losses.append(line)
        elif s["ratio_fastest"] > 1.02:
            open_.append(line + ": over 1, noise or undecided")
        if s["ratio_fastest"] > TARGET:
            over_target.append(line)
    out.append(("no peer faster", False if losses else (True if n and not open_ else None),
                [f"{n} cells compared; {len(losses)} losses; {len(open_)} over 1 but noise or "
                 "undecided"] + losses + open_))
    out.append((f"target: Quiver at most {TARGET} of the fastest peer",
                (not over_target) if n else None,
                [f"{n - len(over_target)} of {n} cells at or under {TARGET}"] + over_target))
    bad, seen = [], 0
    for rec in results:
        for sink, q, peers, ok in fewer_requests(rec):
            seen += 1
            if not ok:
                bad.append(f"{rec['id']} [{sink}]: Quiver {q} requests; "
                           + ", ".join(f"{p} {v}" for p, v in sorted(peers.items())))
    out.append(("S3: fewer requests than any peer", (not bad) if seen else None,
                [f"{seen} S3 cells counted; {len(bad)} where a peer needed as few or fewer"]
                + bad))
    return out


def ms(x):
    return "-" if x is None else f"{x * 1e3:.1f}"


def arm(rec, name, sink):
    return rec.get("arms", {}).get(f"{name}/{sink}", {})


def row(rec, sink):
    s = rec.get("sinks", {}).get(sink, {})
    med, ratio = s.get("median_s", {}), s.get("ratio", {})
    rows = rec.get("rows_out", rec.get("rows_in", "-"))
    cols = [rec["label"], f"{rec['achieved']:.2%}" if "achieved" in rec else "-", str(rows),
            ms(med.get("quiver"))]
    for p in PEERS[sink]:
        a = arm(rec, p, sink)
        if p in med:
            cols.append(f"{ms(med[p])} ({fmt(ratio.get(p))})")
        else:
            cols.append(a.get("status", "-") if a else "-")
    cols += [s.get("fastest", "-"), fmt(s.get("ratio_fastest")),
             (f"[{fmt(s['fastest_interval'][0])}, {fmt(s['fastest_interval'][1])}]"
              if s.get("fastest_interval") else "-"),
             fmt(s.get("control"), 3), s.get("verdict", "not timed") if s else "not timed"]
    q = arm(rec, "quiver", sink).get("gate_reply", {}).get("read_stats")
    if rec.get("input") == "write":
        cols.append(f"{arm(rec, 'quiver', sink).get('gate_reply', {}).get('files', '-')} files")
    else:
        opened = f"{q['files_opened']} opened, " if q and "files_opened" in q else ""
        cols.append(f"{q.get('files_pruned')} pruned, {opened}{q.get('bytes_read', 0) / 1e6:.1f} MB"
                    if q else "-")
    if rec.get("input") == "s3":
        req = rec.get("s3_requests", {})
        cols.append(" ".join(f"{k.split('/')[0]}={v.get('requests', '?')}"
                             for k, v in req.items() if k.endswith("/" + sink)))
    flags = list(s.get("flags", [])) + ([rec["skipped"]] if rec.get("skipped") else [])
    if s.get("budget"):
        flags.append(s["budget"])
    if rec.get("error"):
        flags.append("error: " + rec["error"][:120])
    flags += [f"{k.split('/')[0]} {a['status']}: {a['message'][:100]}"
              for k, a in rec.get("arms", {}).items()
              if k.endswith("/" + sink) and a["status"] not in ("ok", "skipped", "unsupported")]
    cols.append("; ".join(flags))
    return "| " + " | ".join(str(c).replace("|", "/") for c in cols) + " |"


def table(recs, sink, where):
    head = ["case", "rows kept", "rows", "Quiver ms"] + [f"{p} ms (Q/p)" for p in PEERS[sink]]
    head += ["fastest", "Q/fastest", "95% interval", "control", "verdict",
             "Quiver files" if where == "write" else "Quiver: files pruned, opened, bytes read"]
    if where == "s3":
        head.append("requests (one read)")
    head.append("flags")
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + \
        [row(r, sink) for r in recs]


def request_table(results):
    lines = ["| case | arm | requests | by method | LIST | range GETs | MB fetched |",
             "|---|---|---|---|---|---|---|"]
    for rec in results:
        for key, v in (rec.get("s3_requests") or {}).items():
            if "requests" not in v:
                lines.append(f"| {rec['label']} | {key} | {v.get('error', '?')[:80]} | | | | |")
                continue
            by = " ".join(f"{m} {n}" for m, n in sorted(v["by_method"].items()))
            lines.append(f"| {rec['label']} | {key} | {v['requests']} | {by} | "
                         f"{v['list_requests']} | {v['range_gets']} | {v['bytes'] / 1e6:.2f} |")
    return lines


def write(args, results, registry, started, stem, wall, final):
    """Writes the report; returns False if a Quiver arm failed its gate."""
    req = required(results)
    mach = dict(machine(), commit=getattr(args, "commit", None) or machine().get("commit"))
    measured = sum(1 for r in results if not r.get("skipped"))
    budget = sum(1 for r in results if r.get("skipped") and not r.get("not_reached"))
    inp = registry.get("_input", {})
    lines = [f"# Dataset benchmark (make bench-peers, dataset section), "
             f"{started:%Y-%m-%d %H:%M}, commit {mach.get('commit', '?')}"
             + ("" if final else " (partial: in progress or stopped)"), "",
             f"Wall time {wall / 60:.1f} min; budget {args.budget_minutes:g} min; "
             f"{measured} of {len(results)} cases measured, {budget} not run for the budget, "
             f"{len(results) - measured - budget} not reached; command `{' '.join(args.argv)}`"
             + (" (--quick: correctness smoke test, timings not meaningful)"
                if args.quick else ""),
             "", f"Machine: {mach.get('Model name', '?')}, {mach.get('cores')} cores, "
             f"{mach.get('memory', '?')}. Load average at the end: {os.getloadavg()[0]:.1f} "
             "(measured with other jobs running: the machine is shared).", "",
             f"Input: TPC-H lineitem + year(l_shipdate), written once by pyarrow's "
             f"write_to_dataset, hive-partitioned by {', '.join(inp.get('partitions', []))}: "
             f"{inp.get('files')} files, {inp.get('bytes', 0) / 1e6:,.1f} MB, {inp.get('codec')}, "
             f"at most {inp.get('rows_per_file')} rows per file and row group. Local: a "
             "directory on /dev/shm. S3: " + (
                 f"moto on {registry['_s3']['endpoint']} (127.0.0.1), bucket "
                 f"{registry['_s3']['bucket']}, requests counted on the server"
                 if registry.get("_s3") else "not run") + ".", "",
             "## Required figures (issue 46, section 6)", ""]
    for name, ok, detail in req:
        mark = "PASS" if ok else ("not measured or not decided" if ok is None else "FAIL")
        lines.append(f"- **{mark}**: {name}")
        lines += [f"    - {d}" for d in detail[:40]]
    lines += ["", "## Peers", "", "| peer | version | allocator | differences |",
              "|---|---|---|---|"]
    diffs = registry.get("_differences", {})
    for name, hello in registry.get("pinned", {}).items():
        base = name[:-3] if name.endswith("-mt") else name
        lines.append(f"| {name} | {hello.get('version', '?')} | "
                     f"{str(hello.get('allocator', ''))[:100]} | "
                     f"{'; '.join(diffs.get(name, diffs.get(base, [])))} |")
    lines += ["", "Calls timed: bench/peers/dataset_py_peer.py's docstring (discovery included: "
              "each call starts from the dataset's root). duckdb on S3: unsupported (its httpfs "
              "extension is downloaded at run time).", "", "## Rule", "", RULE, ""]
    titles = {"local": "Reads from /dev/shm", "s3": "Reads from the local S3 server",
              "write": "write_to_dataset to /dev/shm"}
    for where in ("local", "s3", "write"):
        recs = [r for r in results if r.get("input") == where]
        if not recs:
            continue
        for sink in ("st", "mt"):
            sub = recs if where != "write" else [r for r in recs if r["label"].endswith(sink)]
            lines += [f"## {titles[where]}: "
                      + ("one thread" if sink == "st" else
                         "multi-threaded (Quiver use_threads=True, peers on all cores)"), ""]
            lines += table(sub, sink, where) + [""]
    if any(r.get("s3_requests") for r in results):
        lines += ["## S3 requests (one untimed read per arm, after its case; counted on the "
                  "server)", ""] + request_table(results) + [""]
    lines += ["## Filters", ""]
    seen = set()
    for r in results:
        if r.get("filter") and r.get("filter_kind") not in seen:
            seen.add(r["filter_kind"])
            lines.append(f"- {r['filter_kind']}: `{r['filter']}` (keeps {r['achieved']:.3%})")
    os.makedirs(os.path.dirname(stem) or ".", exist_ok=True)
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    blob = {"started": started.isoformat(), "wall_s": wall, "final": final, "machine": mach,
            "argv": args.argv, "quick": bool(args.quick), "registry": registry,
            "results": results,
            "required": [{"name": n, "ok": ok, "detail": d} for n, ok, d in req]}
    with gzip.open(stem + ".json.gz", "wt") as f:
        json.dump(blob, f, default=str)
    if final:
        for name, ok, detail in req:
            print(f"bench-dataset: {'PASS' if ok else ('not measured' if ok is None else 'FAIL')}"
                  f": {name} ({detail[0] if detail else ''})", flush=True)
    ours = [f"{r['id']} ({k})" for r in results for k, a in r.get("arms", {}).items()
            if a["status"] == "FAIL" and a["role"] in ("main", "control")]
    if ours and final:
        print("bench-dataset: Quiver's results FAILED the gate in: " + ", ".join(ours),
              flush=True)
    return not ours
