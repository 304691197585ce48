#!/usr/bin/env python3
"""Summarises writer_bench.py --json files as one Markdown table.

  python3 bench/writer_bench_table.py run1.json [run2.json ...]

One row per (group, variant), one column block per sink: the Quiver/pyarrow
wall-clock ratio of medians with its per-repetition range, the CPU-time ratio,
and the control (pyarrow/pyarrow) range beside it. A ratio whose range lies
inside the control's range is noise. n/a and gate failures are listed too.
"""

import json
import sys


def main():
    rows = {}
    sinks = []
    order = []
    for path in sys.argv[1:]:
        with open(path) as f:
            report = json.load(f)
        for r in report["results"]:
            key = (r["group"], r["variant"])
            if key not in rows:
                rows[key] = {}
                order.append(key)
            sink = r.get("sink", "-")
            if r["status"] == "ok" and sink not in sinks:
                sinks.append(sink)
            rows[key][sink] = r
    head = "| group | variant | " + " | ".join(
        f"{s}: Q/P wall [range] | {s}: Q/P cpu | {s}: control [range]" for s in sinks) + " |"
    print(head)
    print("|" + "---|" * (2 + 3 * len(sinks)))
    for key in order:
        cells = rows[key]
        if "-" in cells:  # n/a or gate failure (no sink)
            r = cells["-"]
            print(f"| {key[0]} | {key[1]} | {r['status']}: {r['message'][:80]} |")
            continue
        out = []
        for s in sinks:
            r = cells.get(s)
            if r is None or r["status"] != "ok":
                out += ["", "", ""]
                continue
            w, c = r["wall"], r["cpu"]
            out += [f"{w['ratio']:.2f} [{w['ratio_pairs'][0]:.2f}..{w['ratio_pairs'][1]:.2f}]",
                    f"{c['ratio']:.2f}",
                    f"{w['control']:.2f} [{w['control_pairs'][0]:.2f}..{w['control_pairs'][1]:.2f}]"]
        print(f"| {key[0]} | {key[1]} | " + " | ".join(out) + " |")


if __name__ == "__main__":
    main()
