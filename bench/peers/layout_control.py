#!/usr/bin/env python3
"""Layout control: Quiver writing the file layout a peer writes, side by side
with that peer and with Quiver's matrix arm, in one interleaved run.

Some peers cannot be given every setting of the writer matrix: arrow-go and
polars have no rows-per-page limit (their pages run to 1 MiB where the
matrix's hold at most 20,000 rows), and polars decides per column by its own
heuristic whether to try a dictionary (bench/peers/run.py prints each peer's
`settings` differences). Where such a peer is faster than Quiver in the
matrix table, this says whether it is faster at the same work: each `--arm`
is a Quiver process whose writer options are the variant's with the arm's
JSON put over them (py_peer.py --quiver-options), chosen so that its file has
the peer's layout (the bytes column shows the sizes side by side).

    bench/peers/layout_control.py --input build/peers/inputs/G.1048576.arrow \\
        --variant zstd --peer arrow-go --rounds 30 [--sink file|mem] \\
        --arm 'one page={"max_rows_per_page": 100000000}'

Arms, each its own process, every write untimed three times first and
checked once (pyarrow reads the file back equal to the input): `quiver` (the
matrix's options), `control` (a second such process: its ratio to `quiver`,
median and per-round range, is the run's noise), the `--arm`s, and the peer.
Each round every arm writes once, in a rotating order that is reversed every
other round. Printed as Markdown: each arm's median, its file's size, and
its median ratio to the peer and to `quiver`. Run it the way run.sh runs
run.py (PYTHONPATH with build/release/python, the Rust/Go binaries from
QUIVER_PEER_ARROW_RS / QUIVER_PEER_ARROW_GO or their build directories).
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peer_process as pp  # noqa: E402  (Peer, peer_argv, native_binaries)
import writer_matrix as wm  # noqa: E402
from gate import write_gate  # noqa: E402
from inputs import read_ipc  # noqa: E402
from schedule import ST_PEERS  # noqa: E402


def parse_arm(text):
    label, sep, opts = text.partition("=")
    if not sep or not label:
        raise argparse.ArgumentTypeError(f"--arm wants LABEL=JSON, got {text!r}")
    try:
        extra = json.loads(opts)
    except json.JSONDecodeError as e:
        raise argparse.ArgumentTypeError(f"--arm {label}: {e}") from None
    if not isinstance(extra, dict):
        raise argparse.ArgumentTypeError(f"--arm {label}: the options must be a JSON object")
    return label, extra


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", required=True, help="an Arrow IPC file (run.py's inputs)")
    ap.add_argument("--variant", required=True, help="a writer-matrix variant")
    ap.add_argument("--peer", required=True, help="the peer to compare with")
    ap.add_argument("--arm", type=parse_arm, action="append", default=[], metavar="LABEL=JSON")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--sink", default="file", choices=("file", "mem"),
                    help="bench/peers/PROTOCOL.md's sinks (default file)")
    ap.add_argument("--peer-bin", action="append", default=[], metavar="NAME=PATH")
    args = ap.parse_args()
    if args.peer not in ST_PEERS:
        ap.error(f"--peer must be one of {', '.join(ST_PEERS)}")
    if args.variant not in wm.ALL_VARIANTS:
        ap.error(f"unknown variant {args.variant!r}")
    bins = pp.native_binaries(args.peer_bin, [args.peer]) if args.peer in pp.NATIVE_PEERS else {}
    if args.peer in pp.NATIVE_PEERS and args.peer not in bins:
        sys.exit(f"layout_control: no {args.peer} binary")

    py_peer = os.path.join(HERE, "py_peer.py")
    arms = [("quiver", pp.peer_argv("quiver", bins)), ("control", pp.peer_argv("quiver", bins))]
    for label, extra in args.arm:
        arms.append((label, [sys.executable, py_peer, "--peer", "quiver",
                             "--quiver-options", json.dumps(extra)]))
    arms.append((args.peer, pp.peer_argv(args.peer, bins)))

    expected = read_ipc(args.input)
    work = tempfile.mkdtemp(prefix="layout-control-", dir="/dev/shm")
    procs = {}
    try:
        for i, (label, argv) in enumerate(arms):
            procs[label] = pp.Peer(f"arm{i}", argv, os.path.join(work, "logs"))
        for p in procs.values():
            p.wait_hello()
        sizes, settings = {}, {}
        sink = {"sink": args.sink, "path": os.path.join(work, "out.parquet")}
        for label, p in procs.items():
            p.call(cmd="load", input=args.input)
            out = os.path.join(work, "gate.parquet")
            r = p.call(cmd="write", variant=args.variant, reps=1, out=out, **sink)
            if "error" in r:
                sys.exit(f"layout_control: {label}: {r['error']}")
            ok, msg, _ = write_gate(out, expected)
            os.unlink(out)
            if not ok:
                sys.exit(f"layout_control: {label}'s file: {msg}")
            sizes[label] = r["bytes"]
            settings[label] = p.call(cmd="settings", variant=args.variant,
                                     sink=args.sink).get("differences", [])
            p.call(cmd="write", variant=args.variant, reps=3, out=None, **sink)
        labels = list(procs)
        times = {label: [] for label in labels}
        for r in range(args.rounds):
            k = r % len(labels)
            order = labels[k:] + labels[:k]
            if r % 2:
                order.reverse()
            for label in order:
                times[label].append(
                    procs[label].call(cmd="write", variant=args.variant, reps=1,
                                      out=None, **sink)["seconds"][0])
    finally:
        for p in procs.values():
            p.quit()
        shutil.rmtree(work, ignore_errors=True)

    med = {label: statistics.median(t) for label, t in times.items()}
    ctl = [c / q for c, q in zip(times["control"], times["quiver"])]
    print(f"Input {os.path.basename(args.input)}, variant {args.variant}, peer {args.peer}, "
          f"{args.sink} sink, {args.rounds} rounds; control/quiver {statistics.median(ctl):.3f} "
          f"[{min(ctl):.2f}..{max(ctl):.2f}]\n")
    print(f"| arm | options over the variant's | ms | bytes | / {args.peer} | / quiver |")
    print("|---|---|---|---|---|---|")
    extras = dict(args.arm)
    for label in labels:
        opts = json.dumps(extras[label]) if label in extras else ""
        print(f"| {label} | {opts} | {med[label] * 1e3:.3f} | {sizes[label]:,} | "
              f"{med[label] / med[args.peer]:.3f} | {med[label] / med['quiver']:.3f} |")
    print(f"\n{args.peer}'s differences from the matrix settings: "
          + " / ".join(settings[args.peer]))


if __name__ == "__main__":
    main()
