"""`make bench-filter ARGS="--resume PREV.json.gz"` (filter_run.py): a run
that ran out of budget, or was stopped, continued. The cases PREV measured
(a record that was neither skipped for the budget, never reached, nor
ended by an error) are taken as they are, marked `resumed_from`; the
others run now; one merged result is written, every case of the matrix in
its order, each either measured (now or in PREV) or reported as not run
and why (the budget's skip, or "not reached"): none is dropped.

PREV must be of the same kind of run (--quick or not: the inputs' sizes
differ) and the same commit (one build's figures, not two).
"""

import gzip
import json


def case_id(spec):
    """The id schedule.Case gives a filter case of `spec` (a CaseSpec)."""
    return f"filter/{spec.input_name}/{spec.label}"


def measured(rec):
    """Whether a record holds a measured case (its figures, or its arms'
    failures), as opposed to one not run."""
    return not rec.get("skipped") and not rec.get("error")


def load(path, quick, commit):
    """(done, figures, info) of the earlier run at `path`: {case id: its
    record} of the cases it measured, its sorted-key figures
    {(dataset, codec): ...}, and what the report says of it. Raises
    ValueError if it is not a run this one can continue."""
    with gzip.open(path, "rt") as f:
        blob = json.load(f)
    prev_quick = blob.get("quick")
    if prev_quick is None:
        prev_quick = "--quick" in blob.get("argv", [])
    if bool(prev_quick) != bool(quick):
        raise ValueError(f"--resume {path}: that run was {'' if prev_quick else 'not '}--quick "
                         f"and this one is {'' if quick else 'not '}(its inputs differ)")
    prev_commit = blob.get("machine", {}).get("commit")
    if prev_commit and commit and prev_commit != commit:
        raise ValueError(f"--resume {path}: that run measured commit {prev_commit}, this is "
                         f"{commit}: one result holds one build's figures")
    done = {r["id"]: dict(r, resumed_from=r.get("resumed_from", path))
            for r in blob.get("results", []) if measured(r)}
    figures = {tuple(k.split(".", 1)): v for k, v in blob.get("figures", {}).items()}
    info = {"from": path, "started": blob.get("started"), "wall_s": blob.get("wall_s"),
            "commit": prev_commit, "cases": len(done),
            "of": len(blob.get("results", []))}
    return done, figures, info


def not_reached(spec, reason):
    return {"id": case_id(spec), "section": "filter", "input": spec.input_name,
            "label": spec.label, "kind": "filter", "sinks": {}, "arms": {},
            "skipped": reason, "not_reached": True, "dataset": spec.dataset,
            "codec": spec.codec, "predicate_kind": spec.kind,
            "selectivity": spec.selectivity, "projection": spec.projection}


def merged(specs, new, done, reason="not reached: the run ended before it"):
    """Every spec's record, in the matrix's order: this run's (`new`), else
    the earlier run's (`done`), else one saying it was not reached
    (`reason`)."""
    by_new = {r["id"]: r for r in new}
    out = []
    for s in specs:
        i = case_id(s)
        out.append(by_new.get(i) or done.get(i) or not_reached(s, reason))
    return out
