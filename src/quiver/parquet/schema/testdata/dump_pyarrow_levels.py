#!/usr/bin/env python3
"""Writes pyarrow_levels.json: for every footer the schema descriptor test
reads (testdata/parquet-testing/*.parquet and testdata/quiver/*.parquet, named
relative to testdata/), the leaf columns as pyarrow's
ParquetFile(f).schema lists them: dotted path, max_definition_level,
max_repetition_level. schema_descriptor_test.cc builds a SchemaDescriptor
from each file's footer and compares its leaves with these.

Files pyarrow cannot open are listed under "skipped" with pyarrow's error
(e.g. footers encrypted with keys pyarrow is not given); the C++ test skips
them too, and fails on a file that is in neither list.

Usage (from the repository root):
  .venv/bin/python src/quiver/parquet/schema/testdata/dump_pyarrow_levels.py
"""

import glob
import json
import os

import pyarrow
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "..", "testdata"))
PATTERNS = ["parquet-testing/*.parquet", "quiver/*.parquet"]


def leaves_of(path):
    schema = pq.ParquetFile(path).schema
    out = []
    for i in range(len(schema)):
        column = schema.column(i)
        out.append({
            "path": column.path,
            "max_def": column.max_definition_level,
            "max_rep": column.max_repetition_level,
        })
    return out


def main():
    files = {}
    skipped = {}
    for pattern in PATTERNS:
        for path in sorted(glob.glob(os.path.join(TESTDATA, pattern))):
            rel = os.path.relpath(path, TESTDATA)
            try:
                files[rel] = leaves_of(path)
            except Exception as e:  # noqa: BLE001 - any failure means "pyarrow cannot open it"
                skipped[rel] = f"{type(e).__name__}: {e}"
    out = {
        "generator": "src/quiver/parquet/schema/testdata/dump_pyarrow_levels.py",
        "pyarrow": pyarrow.__version__,
        "files": files,
        "skipped": skipped,
    }
    with open(os.path.join(HERE, "pyarrow_levels.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{len(files)} files, {len(skipped)} skipped")
    for rel, why in skipped.items():
        print(f"  skipped {rel}: {why}")


if __name__ == "__main__":
    main()
