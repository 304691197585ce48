#!/usr/bin/env python3
"""What content-defined chunking (CDC) buys in a deduplicating store.

Builds a seeded table (ints, floats, strings, a list column; 1,000,000 rows by
default), writes it with Quiver with and without CDC, applies typical edits
(insert 1% of rows in the middle, and near the start; delete 1% of rows; update
one column over a 1% range; append 1% of rows), writes each edited table the
same way, and prints how much of each edited file a content-addressed store
that already holds the original would share:

  pages   (page level) pages as stored (header + compressed body) found in
          the original;
  chunks  (byte level) content-defined chunks of the whole file (FastCDC,
          8/64/128 KiB, as dedup storage backends cut files) found in the original.

The dedup numbers come from Quiver's C++ code (src/quiver/dedup), through
quiver._quiver.dedup_compare when the extension has it, else through the
`quiver dedup --json` command; nothing is re-implemented here. Python-side
work is only building the tables (pyarrow + numpy) and printing. The table,
the edits and the printed table come from quiver.demo (`make demo` runs it
with the write/read timings and the reader checks).

    PYTHONPATH=build/release/python .venv/bin/python examples/cdc_dedup_demo.py
        [--rows N] [--seed S] [--compression zstd|snappy] [--backend auto|python|cli]
        [--quiver-cli build/release/quiver] [--out DIR] [--json]

docs/cdc.md ("Why") states the expected shape: without CDC most of the bytes
after an insertion are new; with CDC only the pages around the edit are.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import pyarrow as pa

import quiver
from quiver.demo import dedup_table, edits, make_rows, mib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(table, path, cdc, compression, use_dictionary, writer):
    options = {"compression": compression, "use_dictionary": use_dictionary}
    if cdc:
        options["use_content_defined_chunking"] = True  # pyarrow's defaults: 256 KiB / 1 MiB
    if writer == "pyarrow":  # a cross-check: the same options through Arrow C++
        import pyarrow.parquet as pq
        pq.write_table(table, path, **options)
    else:
        quiver.write_parquet(table, path, **options)


class Dedup:
    """Quiver's C++ dedup measurement, through the extension or the CLI."""

    def __init__(self, backend, cli):
        has_binding = hasattr(quiver._quiver, "dedup_compare")
        if backend == "auto":
            backend = "python" if has_binding else "cli"
        if backend == "python" and not has_binding:
            sys.exit("this quiver._quiver has no dedup_compare (see the report for the wiring); "
                     "use --backend cli")
        if backend == "cli" and not (cli and os.access(cli, os.X_OK)):
            sys.exit(f"no quiver CLI at {cli!r}: build it or pass --quiver-cli")
        self.backend = backend
        self.cli = cli

    def compare(self, base, target):
        if self.backend == "python":
            r = quiver._quiver.dedup_compare([base], target)
            return r["page_level"], r["byte_level"], r["page_columns"]
        out = subprocess.run([self.cli, "dedup", "--json", base, target], check=True,
                             capture_output=True, text=True).stdout
        doc = json.loads(out)
        f = doc["files"][1]
        return f["page_level"], f["byte_level"], f["page_columns"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=20250601)
    ap.add_argument("--compression", default="zstd", choices=["zstd", "snappy", "none"])
    ap.add_argument("--backend", default="auto", choices=["auto", "python", "cli"])
    ap.add_argument("--quiver-cli", default=os.path.join(REPO, "build", "release", "quiver"))
    ap.add_argument("--out", help="keep the files in this folder (default: a temporary one)")
    ap.add_argument("--writer", default="quiver", choices=["quiver", "pyarrow"],
                    help="who writes the files (pyarrow: a cross-check with Arrow C++)")
    ap.add_argument("--no-dictionary", action="store_true",
                    help="write without dictionary encoding (use_dictionary=False)")
    ap.add_argument("--by-column", action="store_true",
                    help="also print the page level per column for each edit")
    ap.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = ap.parse_args()
    compression = None if args.compression == "none" else args.compression

    dedup = Dedup(args.backend, args.quiver_cli)
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    original = make_rows(rng, 0, args.rows)
    edited = edits(original, rng, near_start=True)
    print(f"table: {args.rows:,} rows x {original.num_columns} columns "
          f"({', '.join(f'{f.name}: {f.type}' for f in original.schema)}), seed {args.seed}; "
          f"built in {time.perf_counter() - t0:.1f} s")
    print(f"written by {'pyarrow ' + pa.__version__ if args.writer == 'pyarrow' else 'Quiver'}, "
          f"compression={args.compression}, "
          f"dictionary {'off' if args.no_dictionary else 'on'}, CDC off / on (pyarrow's defaults: "
          f"min 256 KiB, max 1 MiB, norm 0); dedup measured by Quiver's C++ "
          f"code via "
          f"{'quiver._quiver.dedup_compare' if dedup.backend == 'python' else dedup.cli}\n")

    out_dir = args.out or tempfile.mkdtemp(prefix="quiver-cdc-dedup-")
    os.makedirs(out_dir, exist_ok=True)
    results = []
    try:
        for cdc in (False, True):
            tag = "cdc" if cdc else "plain"
            base = os.path.join(out_dir, f"original.{tag}.parquet")
            write(original, base, cdc, compression, not args.no_dictionary, args.writer)
            for i, (name, table) in enumerate(edited):
                target = os.path.join(out_dir, f"edit{i}.{tag}.parquet")
                write(table, target, cdc, compression, not args.no_dictionary, args.writer)
                pages, chunks, columns = dedup.compare(base, target)
                results.append({"edit": name, "cdc": cdc, "original_size": os.path.getsize(base),
                                "size": os.path.getsize(target), "page_level": pages,
                                "byte_level": chunks, "page_columns": columns})
    finally:
        if not args.out:
            shutil.rmtree(out_dir, ignore_errors=True)

    rows = [(name, r["cdc"], r["size"], r) for name, _ in edited
            for r in results if r["edit"] == name]
    print("\n".join(dedup_table(rows)))
    print("\nshared = bytes of the edited file (its pages / its chunks) already stored with the "
          "original;\nnew = bytes a deduplicating store must add for the edited file.")
    if args.by_column:
        for r in results:
            print(f"\n{r['edit']}, CDC {'on' if r['cdc'] else 'off'}: page level by column")
            for c in r["page_columns"]:
                p = c["page_level"]
                print(f"  {c['column']:<20} pages {p['shared_count']:>4}/{p['count']:<4} "
                      f"shared {100 * p['shared_ratio']:5.1f}%  new {mib(p['new_bytes']):>9}")
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
