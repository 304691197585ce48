"""examples/filtered_read (the README's "Filtered reads" section): the demo file it writes,
its rows judged by pyarrow's decode-then-filter, its counters pinned to the figures the
README shows, and the README's Python and CLI blocks of the same read giving those figures.

The binary is $QUIVER_FILTERED_READ, by default build/release/examples/filtered_read (the
release tree builds the examples); the CLI is $QUIVER_CLI, by default build/release/quiver.
"""
import os
import re
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest

import quiver
import quiver.compute as qc

import parquet_pages

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = Path(os.environ.get("QUIVER_FILTERED_READ",
                              str(REPO / "build" / "release" / "examples" / "filtered_read")))
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))
README = REPO / "README.md"

# The counters the README shows for the demo filter (all pinned here, in one place): its
# Python block (ParquetFile.read(filters=)) and the example's output
# (FileReader::ReadTable(filter)) show README_STATS; its CLI block (`quiver cat --format csv
# --stats`, batch by batch) the same but for values_decoded and bytes_read, README_CLI; its
# prose the rows `value` and `quantity` decode (README_PAYLOAD_ROWS each) and a whole read's
# counters (README_WHOLE_READ). When the reader changes them, re-pin here and paste the new
# output into the README.
README_STATS = {"row_groups_pruned_statistics": 3, "row_groups_pruned_bloom": 0,
                "row_groups_pruned_dictionary": 0, "pages_skipped": 96, "pages_decompressed": 6,
                "bytes_read": 44992, "values_decoded": 29992}
# A batch read starts decoding value and quantity at the first match (3 values fewer each)
# and reads the pages it needs by the page reader's windows (no hole between them read
# through, as a table read's one coalesced fetch per row group does).
README_CLI = dict(README_STATS, bytes_read=39097, values_decoded=29986)
README_PAYLOAD_ROWS = 4996
README_WHOLE_READ = {"pages_decompressed": 408, "bytes_read": 3876193, "values_decoded": 4000000}

WHERE = "id >= 400000 and id < 405000 and category == 'c3'"
FILTERS = [("id", ">=", 400_000), ("id", "<", 405_000), ("category", "==", "c3")]
MATCHES = 625
ROWS = 1_000_000

pytestmark = pytest.mark.skipif(
    not (EXAMPLE.is_file() and os.access(EXAMPLE, os.X_OK)),
    reason=f"examples/filtered_read is not built at {EXAMPLE} (run `make release` or set "
           "QUIVER_FILTERED_READ)")


def run(*args, timeout=120):
    return subprocess.run([str(EXAMPLE), *map(str, args)], capture_output=True, timeout=timeout)


def parse_output(stdout):
    """filtered_read's stdout as (filter text, matched rows, total rows, counters)."""
    lines = stdout.decode().splitlines()
    if lines and lines[0].startswith("wrote "):
        lines = lines[1:]
    assert lines[0].startswith("filter: ") and lines[1].startswith("rows: "), lines
    matched, total = re.fullmatch(r"rows: (\d+) of (\d+)", lines[1]).groups()
    counters = {}
    for line in lines[2:]:
        key, value = line.split(": ")
        counters[key] = int(value)
    return lines[0][len("filter: "):], int(matched), int(total), counters


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo file written by `filtered_read --make`, the matches it wrote with --output,
    and its output."""
    folder = tmp_path_factory.mktemp("filtered_read")
    path, out = folder / "demo.parquet", folder / "matches.parquet"
    got = run("--make", path, "--output", out)
    assert got.returncode == 0, got.stderr.decode()
    assert got.stdout.decode().splitlines()[0] == f"wrote {path}"
    return path, out, parse_output(got.stdout)


def oracle(path, columns=None):
    """pyarrow's decode-then-filter of the demo filter."""
    return pq.read_table(path).filter(pq.filters_to_expression(FILTERS)).select(
        columns or ["id", "category", "value", "quantity"])


def test_demo_file_is_what_the_readme_says(demo):
    path, _, _ = demo
    f = pq.ParquetFile(path)
    md = f.metadata
    assert (md.num_rows, md.num_row_groups) == (ROWS, 4)
    assert f.schema_arrow == pa.schema([("id", pa.int64()), ("category", pa.string()),
                                        ("value", pa.float64()), ("quantity", pa.int32())])
    table = f.read()
    assert table.column("id").to_pylist() == list(range(ROWS))
    assert table.column("category").to_pylist()[:9] == [f"c{i % 8}" for i in range(9)]
    assert pc.min(table.column("value")).as_py() >= 0
    assert pc.max(table.column("value")).as_py() < 1000
    for rg in range(4):
        group = md.row_group(rg)
        assert group.num_rows == 250_000
        for c in range(4):
            chunk = group.column(c)
            assert chunk.compression == "ZSTD"
            assert chunk.has_column_index and chunk.has_offset_index
            assert chunk.statistics.has_min_max
        assert (group.column(0).statistics.min, group.column(0).statistics.max) == (
            rg * 250_000, rg * 250_000 + 249_999)
        # id and value are PLAIN (no dictionary), category and quantity dictionary-encoded.
        assert [group.column(c).has_dictionary_page for c in range(4)] == [False, True, False,
                                                                           True]
    # Pages (read by the independent parquet_pages): 25 data pages of 10,000 rows per column
    # chunk, plus the dictionary pages of category and quantity: 408 in all.
    pages = parquet_pages.list_pages(str(path))
    data = [p for p in pages if p[2] == "DATA_PAGE"]
    assert len(data) == 4 * 4 * 25 and {p[4] for p in data} == {10_000}
    assert sorted({(p[0], p[1]) for p in pages if p[2] == "DICTIONARY_PAGE"}) == [
        (rg, c) for rg in range(4) for c in ("category", "quantity")]
    assert len(pages) == 408


def test_rows_and_counters(demo):
    path, out, (text, matched, total, counters) = demo
    # The expression built with the C++ API prints as pyarrow's of the same filters.
    assert text == str(pq.filters_to_expression(FILTERS))
    assert (matched, total) == (MATCHES, ROWS)
    assert counters == README_STATS
    # One row group read (3 pruned by statistics: their id ranges miss [400000, 405000)); its
    # 100 data pages are each skipped or decompressed (decompressed pages may also count the
    # 2 dictionary pages): no page is both, none is missed.
    assert counters["row_groups_pruned_statistics"] == 3
    assert 100 <= counters["pages_skipped"] + counters["pages_decompressed"] <= 102
    assert counters["bytes_read"] < os.path.getsize(path) // 50
    # The rows it read (written to --output by Quiver's writer, read back by pyarrow) are
    # pyarrow's decode-then-filter, in file order.
    assert pq.read_table(out).equals(oracle(path))
    # Python's filtered read of the same file: the same counters.
    with quiver.ParquetFile(str(path)) as f:
        f.read(filters=FILTERS)
        assert f.read_stats == README_STATS
        # The filter columns decode their page's 10,000 rows, value and quantity
        # README_PAYLOAD_ROWS rows each.
        f.read(columns=["id", "category"], filters=FILTERS)
        assert f.read_stats["values_decoded"] == 2 * 10_000
        f.read(columns=["value"], filters=FILTERS)
        assert f.read_stats["values_decoded"] == 2 * 10_000 + README_PAYLOAD_ROWS
        f.read()
        whole = f.read_stats
        assert {k: whole[k] for k in README_WHOLE_READ} == README_WHOLE_READ
        # Batch by batch (the page reader's windows, no prefetch): the same bytes, none
        # asked twice.
        assert sum(b.num_rows for b in f.iter_batches(use_threads=False)) == ROWS
        batches = f.read_stats
        assert {k: batches[k] for k in README_WHOLE_READ} == README_WHOLE_READ
    # And `quiver cat --stats` of the whole file (batch by batch too).
    if CLI.is_file() and os.access(CLI, os.X_OK):
        got = subprocess.run([str(CLI), "cat", str(path), "--format", "csv", "--stats"],
                             capture_output=True, timeout=120)
        assert got.returncode == 0, got.stderr.decode()
        cat = dict(line.split(": ") for line in got.stderr.decode().splitlines())
        assert {k: int(cat[k]) for k in README_WHOLE_READ} == README_WHOLE_READ


def test_where_and_columns(demo, tmp_path):
    path, _, _ = demo
    # --where with the README's text: the same expression, rows and counters.
    out = tmp_path / "where.parquet"
    got = run(path, "--where", WHERE, "--output", out)
    assert got.returncode == 0, got.stderr.decode()
    text, matched, total, counters = parse_output(got.stdout)
    assert (text, matched, total, counters) == (str(pq.filters_to_expression(FILTERS)), MATCHES,
                                                ROWS, README_STATS)
    assert pq.read_table(out).equals(oracle(path))
    # --columns: only those columns, the filter's need not be among them.
    got = run(path, "--where", "id < 20 or id >= 999990", "--columns", "value,quantity",
              "--output", out)
    assert got.returncode == 0, got.stderr.decode()
    text, matched, _, counters = parse_output(got.stdout)
    want = pq.read_table(path).filter(
        pq.filters_to_expression([[("id", "<", 20)], [("id", ">=", 999_990)]])).select(
            ["value", "quantity"])
    assert text == "((id < 20) or (id >= 999990))"
    assert matched == want.num_rows == 30
    assert pq.read_table(out).equals(want)
    assert counters["row_groups_pruned_statistics"] == 2


def test_errors(demo, tmp_path):
    path, _, _ = demo
    got = run()
    assert got.returncode == 2 and b"usage: filtered_read" in got.stderr
    got = run(path, "--bogus")
    assert got.returncode == 2 and b"unknown option --bogus" in got.stderr
    got = run(path, "--where")
    assert got.returncode == 2 and b"--where needs a value" in got.stderr
    got = run(path, path)
    assert got.returncode == 2 and b"one file only" in got.stderr
    got = run(path, "--where", "id >>= 3")  # a syntax error names the column of the text
    assert got.returncode == 2 and b"at column 5" in got.stderr
    got = run(path, "--where", "zz = 1")  # pyarrow's message, and the file
    assert got.returncode == 1
    assert b"No match for FieldRef.Name(zz)" in got.stderr and str(path).encode() in got.stderr
    got = run(path, "--columns", "nope")
    assert got.returncode == 1 and b"no column named 'nope'" in got.stderr
    missing = tmp_path / "missing.parquet"
    got = run(missing)
    assert got.returncode == 1 and str(missing).encode() in got.stderr
    got = run("--make", tmp_path / "no" / "such" / "dir.parquet")
    assert got.returncode == 1 and b"writing " in got.stderr
    assert got.stdout == b""


def readme_section():
    text = README.read_text()
    start = text.index("## Filtered reads\n")
    return text[start:text.index("\n## ", start + 1)]


def readme_counters(block):
    """The `key: value` / 'key': value pairs of a README block."""
    return {k: int(v) for k, v in re.findall(r"'?(\w+)'?: (\d+)", block)
            if k in README_STATS}


def test_readme_shows_the_pinned_output(demo, tmp_path):
    """The README's three blocks show the pinned counters, and running what they show gives
    them: Python's read_stats (test_rows_and_counters), the example's output (above), and
    `quiver cat --where ... --format csv --stats` here."""
    section = readme_section()
    python = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    example = re.search(r"\$ build/release/examples/filtered_read --make demo.parquet.*?\n(.*?)```",
                        section, re.S).group(1)
    cli = re.search(r"\$ quiver cat demo.parquet (.*?)```", section, re.S).group(1)
    assert readme_counters(python) == README_STATS
    assert readme_counters(example) == README_STATS
    assert readme_counters(cli) == README_CLI
    assert f"rows: {MATCHES} of {ROWS}" in example
    assert f"filter: {pq.filters_to_expression(FILTERS)}" in example
    assert f"t.num_rows   # {MATCHES}" in python
    assert f'--where "{WHERE}"' in cli
    prose = " ".join(section.split())
    assert f"the {README_PAYLOAD_ROWS:,} rows from id 400,000" in prose
    assert (f"decompresses {README_WHOLE_READ['pages_decompressed']:,} pages, reads "
            f"{README_WHOLE_READ['bytes_read']:,} bytes and decodes "
            f"{README_WHOLE_READ['values_decoded']:,} values") in prose

    # The Python block's reads.
    path, _, _ = demo
    assert quiver.read_table(str(path), filters=FILTERS).num_rows == MATCHES
    e = ((qc.field("id") >= 400_000) & (qc.field("id") < 405_000)
         & (qc.field("category") == "c3"))
    assert quiver.read_table(str(path), filters=e).num_rows == MATCHES
    # The CLI block's command.
    if not (CLI.is_file() and os.access(CLI, os.X_OK)):
        pytest.skip(f"the quiver CLI is not built at {CLI}")
    got = subprocess.run([str(CLI), "cat", str(path), "--where", WHERE, "--format", "csv",
                          "--stats"], capture_output=True, timeout=120)
    assert got.returncode == 0, got.stderr.decode()
    assert got.stderr.decode().splitlines() == [
        f"{k}: {v}" for k, v in README_CLI.items()]
    rows = pa_csv.read_csv(pa.py_buffer(got.stdout))
    assert rows.num_rows == MATCHES
    assert rows.column("id").to_pylist() == oracle(path).column("id").to_pylist()
