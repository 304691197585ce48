"""`python -m quiver.demo` (what `make demo` runs), in a small mode: it exits 0,
prints every section, and its dedup table (Quiver's own numbers) shows CDC
sharing more than no CDC after an insertion in the middle. Also
examples/cdc_dedup_demo.py, which shares the demo's table and edits."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

pa = pytest.importorskip("pyarrow")
for judge in ("pyarrow.parquet", "duckdb", "polars"):
    pytest.importorskip(judge)

from quiver import demo  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(*args):
    proc = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def shared_percent(out, edit, cdc):
    """(page level, byte level) shared % of the dedup table's row for edit, CDC on/off."""
    row = re.search(rf"^\s*{re.escape(edit)}\s+{'on' if cdc else 'off'}\s+.*$", out, re.M)
    assert row, f"no dedup row for {edit!r}, CDC {cdc}:\n{out}"
    page, byte = re.findall(r"([\d.]+)%", row.group(0).split("|", 1)[1])
    return float(page), float(byte)


def test_demo_small_run():
    # 100,000 rows: enough for CDC's 256 KiB minimum chunk to cut pages.
    out = run("-m", "quiver.demo", "--rows", "100000", "--reps", "1")
    for section in ("Quiver demo: 100,000 rows x 6 columns", "single-threaded",
                    f"{os.cpu_count()} cores", "1. Write", "2. Read", "3. Content-defined chunking",
                    "4. pyarrow, duckdb and polars read the 10 files Quiver wrote",
                    "demo: done in"):
        assert section in out, f"{section!r} missing:\n{out}"
    assert len(re.findall(r"Quiver/pyarrow time: \d+\.\d\d ", out)) == 2, out
    for reader in ("pyarrow", "duckdb", "polars"):
        assert re.search(rf"^\s+{reader}\s+OK: 10 files equal", out, re.M), out
    for edit in ("insert 1% rows in the middle", "delete 1% rows (at 1/3)",
                 "update price x1.1 on 1% rows", "append 1% rows"):
        shared_percent(out, edit, False)
        shared_percent(out, edit, True)
    off = shared_percent(out, "insert 1% rows in the middle", cdc=False)
    on = shared_percent(out, "insert 1% rows in the middle", cdc=True)
    assert on[0] > off[0] + 10 and on[1] > off[1] + 10, (on, off, out)


def test_first_difference_names_the_column_and_row():
    rng = demo.np.random.default_rng(1)
    table = demo.make_rows(rng, 0, 1000)
    assert demo._first_difference(table, table) is None
    # Another reader's types (large_string, large_list) compare equal after a cast.
    wide = table.cast(pa.schema([f.with_type(pa.large_list(pa.int32()))
                                 if f.name == "tags" else
                                 f.with_type(pa.large_string()) if f.name in ("city", "note") else f
                                 for f in table.schema]))
    assert demo._first_difference(wide, table) is None
    notes = table.column("note").to_pylist()
    notes[777] = "changed"
    other = table.set_column(table.schema.get_field_index("note"), "note", pa.array(notes))
    assert demo._first_difference(other, table).startswith("column note, row 777: 'changed'")
    assert "rows" in demo._first_difference(table.slice(1), table)


def test_edits_are_the_four_of_the_issue_and_reproducible():
    def build():
        rng = demo.np.random.default_rng(7)
        table = demo.make_rows(rng, 0, 10_000)
        return table, demo.edits(table, rng)
    table, edited = build()
    assert [name for name, _ in edited] == [
        "insert 1% rows in the middle", "delete 1% rows (at 1/3)", "update price x1.1 on 1% rows",
        "append 1% rows"]
    assert [t.num_rows for _, t in edited] == [10_100, 9_900, 10_000, 10_100]
    again, edited_again = build()
    assert again.equals(table)
    assert all(a.equals(b) for (_, a), (_, b) in zip(edited, edited_again))


def test_cdc_dedup_example_runs():
    out = run(ROOT / "examples" / "cdc_dedup_demo.py", "--rows", "20000", "--backend", "python")
    assert "insert 1% rows near the start" in out and "append 1% rows" in out


def test_a_reader_difference_exits_non_zero(monkeypatch, capsys):
    real_judges = demo._judges

    def judges(*modules):
        out = real_judges(*modules)
        name, read = out[1]
        return out[:1] + [(name, lambda path: read(path).slice(1))] + out[2:]

    monkeypatch.setattr(demo, "_judges", judges)
    cpus, io_threads = pa.cpu_count(), pa.io_thread_count()
    try:
        assert demo.main(["--rows", "20000", "--reps", "1"]) == 1
    finally:
        pa.set_cpu_count(cpus)
        pa.set_io_thread_count(io_threads)
    out = capsys.readouterr().out
    assert re.search(r"pyarrow\s+OK", out)
    assert re.search(r"duckdb\s+quiver\.parquet: 19,999 rows, expected 20,000", out), out
    assert "demo: done" not in out
