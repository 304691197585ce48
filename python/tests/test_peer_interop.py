"""Quiver's Parquet reader on the files other writers made: testdata/peers/PEER/*.parquet.

The files are committed with their generator (bench/peers/gen_interop.py; versions in
testdata/peers/README.md): the writer-matrix groups written by duckdb and polars (and
arrow-rs / arrow-go once their peer programs have run it) under their interop variants.
This test needs none of those writers: for each file, quiver.read_table must equal
pyarrow.parquet.read_table, types included, and pass ValidateFull (reader_compare.py).
"""

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from reader_compare import assert_tables_equal, validate_full

PEERS_DIR = Path(__file__).resolve().parents[2] / "testdata" / "peers"
FILES = sorted(PEERS_DIR.glob("*/*.parquet"))


def test_files_are_there():
    peers = {f.parent.name for f in FILES}
    assert {"duckdb", "polars"} <= peers, f"testdata/peers has files of {sorted(peers)} only"


@pytest.mark.parametrize("path", FILES, ids=[f"{f.parent.name}-{f.stem}" for f in FILES])
def test_peer_file(reader, path):
    expected = pq.read_table(path)
    got = reader.read_table(str(path))
    validate_full(got)
    assert_tables_equal(got, expected)
