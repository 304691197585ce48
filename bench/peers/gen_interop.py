#!/usr/bin/env python3
"""Generates testdata/peers/<peer>/GROUP.VARIANT.parquet: small files other
Parquet writers make, read by Quiver's reader in `make test`
(python/tests/test_peer_interop.py: equal to what pyarrow reads).

The inputs are the writer-matrix groups (bench/writer_matrix.py build_group,
seeded) at ROWS rows, written once as Arrow IPC files; each peer's interop
mode (bench/peers/PROTOCOL.md, "Interop files") writes every group under the
interop variants it can do (default, parquet_2, zstd, cdc). Groups whose
random, incompressible data would make the committed set large are left out
(LEFT_OUT); the script prints the total size and warns above BUDGET.

    PYTHONPATH=build/release/python .venv/bin/python bench/peers/gen_interop.py \\
        [--peers duckdb,polars,arrow-rs,arrow-go] [--peer-bin arrow-rs=PATH ...]

Peers default to every one whose program is there (arrow-rs and arrow-go:
build/peers/... as bench/peers/run.sh builds them, or QUIVER_PEER_ARROW_RS /
QUIVER_PEER_ARROW_GO, or --peer-bin). A peer's directory is replaced whole;
the others are kept. testdata/peers/manifest.json records each peer's
version, rows and files, and testdata/peers/README.md is written from it.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import writer_matrix as wm  # noqa: E402
from inputs import write_ipc  # noqa: E402
from peer_process import NATIVE_PEERS, PY_PEERS, native_binaries, peer_argv  # noqa: E402

ROWS = 2000
INTEROP_PEERS = ("duckdb", "polars", "arrow-rs", "arrow-go")
# Near-incompressible strings and lists of strings: 0.5 to 0.8 MB per peer
# and variant each at 2,000 rows. Their types are still covered by the
# low-cardinality dictionary groups, string_empty and the nested groups.
LEFT_OUT = ("string", "string_non_null", "string_dictionary", "list_primitive",
            "list_primitive_non_null", "primitive_non_null")
BUDGET = 3 << 20
OUT = os.path.join(ROOT, "testdata", "peers")


def peer_version(argv):
    """The peer's hello line (server mode), then quit."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         cwd=ROOT)
    line = p.stdout.readline()
    try:
        p.stdin.write('{"cmd": "quit"}\n')
        p.stdin.flush()
    except BrokenPipeError:
        pass
    p.wait(timeout=60)
    if not line:
        raise RuntimeError(f"{' '.join(argv)}: no hello line (exit status {p.returncode})")
    return json.loads(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peers", default=None,
                    help=f"comma-separated (default: those of {', '.join(INTEROP_PEERS)} "
                         "whose program exists)")
    ap.add_argument("--peer-bin", action="append", default=[], metavar="NAME=PATH")
    args = ap.parse_args()

    bins = native_binaries(args.peer_bin, [p for p in INTEROP_PEERS if p in NATIVE_PEERS])
    wanted = args.peers.split(",") if args.peers else [
        p for p in INTEROP_PEERS if p in PY_PEERS or p in bins]
    for p in wanted:
        if p not in INTEROP_PEERS:
            ap.error(f"unknown interop peer {p!r}")
        if p in NATIVE_PEERS and p not in bins:
            ap.error(f"no program for {p} (build it, or give --peer-bin {p}=PATH)")

    manifest_path = os.path.join(OUT, "manifest.json")
    manifest = {}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    groups = [g for g in wm.GROUPS if g not in LEFT_OUT]
    failed = False
    with tempfile.TemporaryDirectory(prefix="quiver-interop-") as tmp:
        inputs = os.path.join(tmp, "inputs")
        os.makedirs(inputs)
        for g in groups:
            write_ipc(wm.build_group(g, ROWS), os.path.join(inputs, g + ".arrow"))
        for peer in wanted:
            argv = peer_argv(peer, bins)
            hello = peer_version(argv)
            staging = os.path.join(tmp, peer)
            rc = subprocess.call(argv + ["interop", "--input-dir", inputs, "--out-dir", staging],
                                 cwd=ROOT)
            if rc != 0:
                print(f"gen_interop: {peer} interop exited with status {rc}; "
                      f"testdata/peers/{peer} left as it was", file=sys.stderr)
                failed = True
                continue
            dest = os.path.join(OUT, peer)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(staging, dest)
            files = sorted(os.listdir(dest))
            manifest[peer] = {
                "version": hello.get("version"),
                "generated": datetime.date.today().isoformat(),
                "rows": ROWS,
                "groups": groups,
                "command": " ".join(["bench/peers/gen_interop.py", "--peers", peer]),
                "files": {f: os.path.getsize(os.path.join(dest, f)) for f in files},
            }
            size = sum(manifest[peer]["files"].values())
            print(f"gen_interop: {peer} ({hello.get('version')}): {len(files)} files, "
                  f"{size / 1e6:.2f} MB")
    os.makedirs(OUT, exist_ok=True)
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    write_readme(manifest)
    total = sum(sum(m["files"].values()) for m in manifest.values())
    print(f"gen_interop: testdata/peers holds {total / 1e6:.2f} MB"
          + (f" -- OVER the {BUDGET / 1e6:.1f} MB budget: leave out more groups"
             if total > BUDGET else ""))
    sys.exit(1 if failed else 0)


def write_readme(manifest):
    lines = [
        "# Parquet files other writers make (read by Quiver's reader in `make test`)",
        "",
        "Made by `bench/peers/gen_interop.py` (do not edit by hand): the writer-matrix groups",
        f"of `bench/writer_bench.py` (`build_group`, seeded) at {ROWS:,} rows, each written by a",
        "peer's interop mode (`bench/peers/PROTOCOL.md`, \"Interop files\") as",
        "`PEER/GROUP.VARIANT.parquet` under the variants it can do of `default`, `parquet_2`,",
        "`zstd`, `cdc` (the settings are those of `bench/peers/py_peer.py` and the Rust/Go",
        "peers, the same as the benchmark's). Left out for size (random strings do not",
        "compress): " + ", ".join(f"`{g}`" for g in LEFT_OUT) + ".",
        "",
        "`python/tests/test_peer_interop.py` reads every file with `quiver.read_table` and",
        "with `pyarrow.parquet.read_table` and requires the same table (types and values).",
        "Regenerate (e.g. after a peer's version changes, or once the Rust/Go peers are built):",
        "",
        "    PYTHONPATH=build/release/python .venv/bin/python bench/peers/gen_interop.py [--peers NAME,...]",
        "",
        "| peer | version | generated | files | bytes |",
        "|---|---|---|---|---|",
    ]
    for peer in sorted(manifest):
        m = manifest[peer]
        lines.append(f"| {peer} | {m['version']} | {m['generated']} | {len(m['files'])} | "
                     f"{sum(m['files'].values()):,} |")
    lines.append("")
    with open(os.path.join(OUT, "README.md"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
