"""A case that ran in several sessions (bench/peers/run.py: the peers in
sets of processes that fit in memory, peer_process.plan_parts): its
records merged into one."""

import statistics

from peer_process import CONTROL, MAIN
from schedule import verdict


def merge_parts(recs):
    """Each peer's figures are to the Quiver of its own session; the fastest
    peer of a sink is the one with the largest ratio; control, order and the
    verdict come from the fastest peer's session."""
    if len(recs) == 1:
        return recs[0]
    merged = dict(recs[0])
    merged["parts"] = recs
    merged["arms"] = {}
    for r in recs:
        for k, a in r.get("arms", {}).items():
            # Quiver's arms are in every session (a layout arm in its peer's
            # session only): one that ran, if any did.
            if k not in merged["arms"] or (merged["arms"][k]["status"] != "ok"
                                           and a["status"] == "ok"):
                merged["arms"][k] = a
    merged["rounds"] = max(r.get("rounds", 0) for r in recs)
    cuts = [r["cut"] for r in recs if r.get("cut")]
    merged["cut"] = max(cuts) if cuts else None
    merged["reps"] = min((r["reps"] for r in recs if "reps" in r), default=merged.get("reps"))
    rule = [r["reps_cut"] for r in recs if r.get("reps_cut")]
    merged["reps_cut"] = max(rule) if rule else None
    merged["seconds_total"] = sum(r.get("seconds_total", 0) for r in recs)
    sinks = {}
    for sink in dict.fromkeys(s for r in recs for s in r.get("sinks", {})):
        parts = [r["sinks"][sink] for r in recs if "median_s" in r.get("sinks", {}).get(sink, {})]
        if not parts:
            continue
        s = {"median_s": {}, "rounds": {}, "ratio": {}, "stats": {}, "to_leader": {}}
        for p in parts:
            for k in ("median_s", "rounds"):
                s[k].update({a: v for a, v in p[k].items() if a not in (MAIN, CONTROL)})
            for k in ("ratio", "stats", "to_leader"):
                s[k].update(p.get(k, {}))
        s["median_s"][MAIN] = statistics.median(p["median_s"][MAIN] for p in parts)
        s["quiver_medians_by_part"] = [p["median_s"][MAIN] for p in parts]
        home = parts[0]
        with_fastest = [p for p in parts if "fastest" in p]
        if with_fastest:
            home = max(with_fastest, key=lambda p: p["ratio_fastest"])
        for k in ("fastest", "ratio_fastest", "fastest_interval", "control", "control_range",
                  "order_effect", "order_before", "order_after", "order_rounds", "order_from",
                  "layout", "ratio_fastest_layouts", "flags", "budget", "budget_cut"):
            if k in home:
                s[k] = home[k]
        layouts = {}
        for p in parts:
            layouts.update(p.get("layout", {}))
        if layouts:
            s["layout"] = layouts
        s["other_part_flags"] = [f for p in parts if p is not home
                                 for f in p.get("flags", []) + ([p["budget"]] if "budget" in p
                                                                 else [])]
        s["verdict"] = verdict(s)
        sinks[sink] = s
    merged["sinks"] = sinks
    return merged
