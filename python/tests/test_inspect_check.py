"""`quiver inspect --check`: the lint of slow or costly Parquet files.

Each condition gets a file written by pyarrow (the judge of what the file
holds: its metadata is asserted before the check runs), whose `--check`
output (text and --json) must equal its golden file under
golden/inspect_check/ (QUIVER_UPDATE_GOLDEN=1 rewrites them). The fix
command printed for a file is then run, and the rewritten file must have
none of the findings a rewrite fixes (pyarrow confirming the fix where it
can see it).

The binary is $QUIVER_CLI, by default build/release/quiver.
"""

import json
import os
import random
import shlex
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))
GOLDEN = Path(__file__).resolve().parent / "golden" / "inspect_check"
UPDATE = os.environ.get("QUIVER_UPDATE_GOLDEN") == "1"

pytestmark = pytest.mark.skipif(
    not (CLI.is_file() and os.access(CLI, os.X_OK)),
    reason=f"the quiver CLI is not built at {CLI} (run `make release` or set QUIVER_CLI)",
)

OK, FINDINGS, USAGE = 0, 1, 2


def run(*args, cwd=None):
    return subprocess.run([str(CLI), *map(str, args)], capture_output=True, timeout=120,
                          cwd=cwd)


def base_table(n=20_000):
    return pa.table({
        "id": pa.array(range(n), pa.int64()),
        "city": pa.array([f"city-{i % 37}" for i in range(n)]),
        "price": pa.array([i * 0.25 for i in range(n)], pa.float64()),
    })


def write(table, path, **options):
    options.setdefault("write_page_index", True)
    pq.write_table(table, path, **options)


# name -> (writer, extra --check flags, the finding ids expected, a pyarrow check of the file)
def _clean(p):
    write(base_table(), p)


def _no_page_index(p):
    write(base_table(), p, write_page_index=False)


def _no_statistics(p):
    write(base_table(), p, write_statistics=["id", "price"])


def _no_min_max(p):
    # pyarrow leaves min/max out for byte-array values over 4096 bytes.
    t = pa.table({"id": pa.array(range(3), pa.int64()),
                  "blob": pa.array(["a" * 5000, "b", "c"])})
    write(t, p)


def _large_page(p):
    # 10,000 rows of 1,000 bytes in one page (pyarrow cuts pages at 20,000 rows).
    t = pa.table({"big": pa.array([f"{i:08d}" * 125 for i in range(10_000)])})
    write(t, p, compression="zstd", use_dictionary=False, data_page_size=32 << 20)


def _large_value(p):
    # One 9 MiB value: its page cannot be made smaller (no fix flag).
    write(pa.table({"big": pa.array(["x" * (9 << 20)])}), p, compression="zstd")


def _hand_written(p, values, stats, claimed_size=None):
    """A one-page required BYTE_ARRAY column 's' (PLAIN, uncompressed) written by hand;
    `stats` (min, max) go to min_value/max_value; `claimed_size` replaces the chunk's
    sizes in the footer."""
    from hostile_parquet import BINARY, I32, I64, LIST, STRUCT, parquet_file, tstruct
    body = b"".join(len(v).to_bytes(4, "little") + v for v in values)
    header = tstruct((1, I32, 0), (2, I32, len(body)), (3, I32, len(body)),
                     (5, STRUCT, tstruct((1, I32, len(values)), (2, I32, 0), (3, I32, 3),
                                         (4, I32, 3))))
    chunk = header + body
    size = claimed_size or len(chunk)
    meta = [(1, I32, 6), (2, LIST, (I32, [0])), (3, LIST, (BINARY, ["s"])), (4, I32, 0),
            (5, I64, len(values)), (6, I64, size), (7, I64, size), (9, I64, 4)]
    if stats:
        meta.append((12, STRUCT, tstruct((5, BINARY, stats[1]), (6, BINARY, stats[0]))))
    column = tstruct((2, I64, 4), (3, STRUCT, tstruct(*meta)))
    footer = tstruct(
        (1, I32, 1),
        (2, LIST, (STRUCT, [tstruct((4, BINARY, "schema"), (5, I32, 1)),
                            tstruct((1, I32, 6), (3, I32, 0), (4, BINARY, "s"))])),
        (3, I64, len(values)),
        (4, LIST, (STRUCT, [tstruct((1, LIST, (STRUCT, [column])), (2, I64, size),
                                    (3, I64, len(values)))])),
        (6, BINARY, "parquet-cpp-arrow version 26.0.1"),
        (7, LIST, (STRUCT, [tstruct((1, STRUCT, tstruct()))])))  # TYPE_ORDER
    Path(p).write_bytes(parquet_file(chunk, footer))


def _long_statistics(p):
    # No writer at hand keeps long min/max (pyarrow drops them past 4096 bytes, duckdb and
    # polars truncate), old ones did: statistics of the whole 70,000-byte values (pyarrow
    # reads them back in judge()).
    values = [b"a" * 70_000, b"b" * 70_000]
    _hand_written(p, values, (values[0], values[1]))


def _large_row_group(p):
    # A footer that claims 2 GiB of column chunk (the data is 20 bytes: also `invalid`);
    # a real one would not fit in a test.
    _hand_written(p, [b"x", b"y"], (b"x", b"y"), claimed_size=2 << 30)


def _small_row_groups(p):
    write(base_table(25_000), p, row_group_size=4_000)


def _large_footer(p):
    t = base_table(100).replace_schema_metadata({"notes": "n" * (6 << 20)})
    write(t, p, compression="zstd")


def _dictionary_fallback(p):
    n = 30_000
    t = pa.table({"id": pa.array(range(n), pa.int64()),
                  "city": pa.array([f"city-{i % 37}" for i in range(n)]),
                  "uid": pa.array([f"user-{i:08d}-{(i * 7919) % 100003}" for i in range(n)])})
    write(t, p, dictionary_pagesize_limit=16_384, row_group_size=15_000)


def _int96(p):
    ts = pa.array([1_700_000_000_000_000 + i for i in range(20_000)], pa.timestamp("us"))
    write(pa.table({"ts": ts}), p, use_deprecated_int96_timestamps=True)


def _uncompressed(p):
    n = 20_000
    rng = random.Random(47)  # ids that do not compress: that column is no finding
    t = pa.table({"id": pa.array([rng.getrandbits(63) for _ in range(n)], pa.int64()),
                  "text": pa.array([f"the quick brown fox {i % 50} jumps" for i in range(n)])})
    write(t, p, compression="none", use_dictionary=False)


def _no_cdc(p):
    write(base_table(), p)


CASES = {
    "clean": (_clean, [], []),
    "no_page_index": (_no_page_index, [], ["no-page-index"]),
    "no_statistics": (_no_statistics, [], ["no-statistics"]),
    "no_min_max": (_no_min_max, [], ["no-min-max"]),
    "large_page": (_large_page, [], ["large-page"]),
    "large_value": (_large_value, [], ["no-min-max", "large-page"]),
    "long_statistics": (_long_statistics, [], ["no-page-index", "long-statistics", "uncompressed"]),
    "large_row_group": (_large_row_group, [], ["invalid", "no-page-index", "large-row-group"]),
    "small_row_groups": (_small_row_groups, [], ["small-row-groups"]),
    "large_footer": (_large_footer, [], ["large-footer"]),
    "dictionary_fallback": (_dictionary_fallback, [], ["dictionary-fallback"] * 2),
    "int96": (_int96, [], ["int96"]),
    "uncompressed": (_uncompressed, [], ["uncompressed"]),
    "no_cdc": (_no_cdc, ["--for-dedup"], ["no-cdc"]),
}


def judge(name, path):
    """pyarrow says the condition is in the file."""
    md = pq.ParquetFile(path).metadata
    cols = [md.row_group(r).column(c) for r in range(md.num_row_groups)
            for c in range(md.num_columns)]
    if name == "clean":
        assert all(c.has_offset_index and c.has_column_index for c in cols)
    elif name == "no_page_index":
        assert not any(c.has_offset_index for c in cols)
    elif name == "no_statistics":
        assert md.row_group(0).column(1).statistics is None
    elif name == "no_min_max":
        st = md.row_group(0).column(1).statistics
        assert st is not None and not st.has_min_max
    elif name == "large_page":
        assert md.row_group(0).column(0).total_uncompressed_size > 8 << 20
    elif name == "large_value":
        assert md.row_group(0).column(0).total_uncompressed_size > 9 << 20
    elif name == "long_statistics":
        st = md.row_group(0).column(0).statistics
        assert st.has_min_max and len(st.max) == 70_000
        assert pq.read_table(path)["s"].to_pylist() == [b"a" * 70_000, b"b" * 70_000]
    elif name == "large_row_group":
        assert md.row_group(0).column(0).total_compressed_size == 2 << 30
    elif name == "small_row_groups":
        assert [md.row_group(r).num_rows for r in range(md.num_row_groups)] == [4000] * 6 + [1000]
    elif name == "large_footer":
        assert md.serialized_size > 10 << 20
    elif name == "dictionary_fallback":
        for r in range(md.num_row_groups):
            assert "PLAIN" in md.row_group(r).column(2).encodings
    elif name == "int96":
        assert md.schema.column(0).physical_type == "INT96"
    elif name == "uncompressed":
        assert md.row_group(0).column(1).compression == "UNCOMPRESSED"


def check_golden(name, text):
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    assert path.is_file(), f"no golden {path}: run with QUIVER_UPDATE_GOLDEN=1"
    assert text == path.read_text(), f"--check output differs from {path}"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("inspect_check")
    for name, (writer, _, _) in CASES.items():
        writer(str(d / f"{name}.parquet"))
    return d


@pytest.mark.parametrize("name", list(CASES))
def test_check_golden(files, name):
    writer, flags, expected = CASES[name]
    judge(name, files / f"{name}.parquet")
    text = run("inspect", "--check", *flags, f"{name}.parquet", cwd=files)
    assert text.stderr == b""
    assert text.returncode == (FINDINGS if expected else OK), text.stdout.decode()
    check_golden(f"{name}.txt", text.stdout.decode())
    js = run("inspect", "--check", "--json", *flags, f"{name}.parquet", cwd=files)
    assert js.returncode == text.returncode
    check_golden(f"{name}.json", js.stdout.decode())
    doc = json.loads(js.stdout)
    (result,) = doc["files"]
    assert [f["id"] for f in result["findings"]] == expected
    assert doc["findings"] == len(expected)


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c[2]])
def test_fix_command_fixes(files, tmp_path, name):
    """The printed `quiver rewrite` command removes every finding a rewrite fixes."""
    _, flags, _ = CASES[name]
    doc = json.loads(run("inspect", "--check", "--json", *flags, f"{name}.parquet",
                         cwd=files).stdout)
    (result,) = doc["files"]
    fixable = [f["id"] for f in result["findings"] if f["rewrite_fixes"]]
    if "invalid" in [f["id"] for f in result["findings"]]:
        assert result["rewrite"] is None  # a file with problems gets no command
        return
    if not fixable:
        assert result["rewrite"] is None
        return
    words = shlex.split(result["rewrite"])
    assert words[:4] == ["quiver", "rewrite", f"{name}.parquet", f"{name}.fixed.parquet"]
    out = tmp_path / "fixed.parquet"
    done = run(words[1], files / f"{name}.parquet", out, *words[4:], "--quiet", "--no-fsync")
    assert done.returncode == 0, done.stderr.decode()
    after = json.loads(run("inspect", "--check", "--json", *flags, out).stdout)
    left = [f["id"] for f in after["files"][0]["findings"]]
    assert not set(left) & set(fixable), (result["rewrite"], left)
    # The rows are the same, and pyarrow sees the fix.
    assert pq.read_table(out).equals(pq.read_table(files / f"{name}.parquet"))
    md = pq.ParquetFile(out).metadata
    if name == "no_page_index":
        assert md.row_group(0).column(0).has_offset_index
    if name == "small_row_groups":
        assert md.num_row_groups == 1
    if name == "uncompressed":
        assert md.row_group(0).column(1).compression == "ZSTD"
        assert md.row_group(0).column(0).compression == "UNCOMPRESSED"  # kept
    if name == "int96":
        assert md.schema.column(0).physical_type == "INT64"


def test_several_files_and_unreadable(files, tmp_path):
    (tmp_path / "notes.txt").write_text("not parquet\n")
    r = run("inspect", "--check", files / "clean.parquet", tmp_path / "notes.txt",
            tmp_path / "missing.parquet")
    assert r.returncode == FINDINGS
    text = r.stdout.decode()
    assert f"{files / 'clean.parquet'}: no findings" in text
    assert "notes.txt: 1 finding\n  [unreadable]" in text
    assert "missing.parquet: 1 finding\n  [unreadable]" in text
    assert text.endswith("3 files checked: 2 findings in 2 files\n")
    clean = run("inspect", "--check", files / "clean.parquet", files / "clean.parquet")
    assert clean.returncode == OK
    # Standard input, and --no-checksums (nothing to verify: no CRCs written).
    with open(files / "no_cdc.parquet", "rb") as f:
        r = subprocess.run([str(CLI), "inspect", "--check", "--for-dedup", "--no-checksums", "-"],
                           stdin=f, capture_output=True, timeout=60)
    assert r.returncode == FINDINGS
    assert r.stdout.decode().startswith("<stdin>: 1 finding\n  [no-cdc]")


def test_usage_errors(files):
    assert run("inspect", "--check").returncode == USAGE
    assert run("inspect", files / "clean.parquet", files / "clean.parquet").returncode == USAGE
    assert run("inspect", "--for-dedup", files / "clean.parquet").returncode == USAGE
    assert run("inspect", "--check", "--html", "x.html", files / "clean.parquet").returncode == USAGE


def test_cdc_footer_key(tmp_path):
    """Quiver names its CDC in the footer ("quiver.cdc" with the parameters); the key of a
    file read back is not carried into a rewrite without CDC."""
    import quiver
    t = base_table()
    quiver.write_parquet(t, str(tmp_path / "cdc.parquet"),
                         use_content_defined_chunking={"min_chunk_size": 65536,
                                                       "max_chunk_size": 262144})
    kv = pq.ParquetFile(tmp_path / "cdc.parquet").metadata.metadata
    assert json.loads(kv[b"quiver.cdc"]) == {"min_chunk_size": 65536, "max_chunk_size": 262144,
                                             "norm_level": 0}
    quiver.write_parquet(t, str(tmp_path / "plain.parquet"))
    assert b"quiver.cdc" not in pq.ParquetFile(tmp_path / "plain.parquet").metadata.metadata
    # A table read back from the CDC file carries the key as schema metadata: dropped.
    quiver.write_parquet(pq.read_table(tmp_path / "cdc.parquet"), str(tmp_path / "again.parquet"))
    assert b"quiver.cdc" not in pq.ParquetFile(tmp_path / "again.parquet").metadata.metadata
    r = run("inspect", "--check", "--for-dedup", "--json", tmp_path / "cdc.parquet")
    assert r.returncode == OK, r.stdout.decode()
    (result,) = json.loads(r.stdout)["files"]
    assert any("quiver.cdc" in n for n in result["notes"])
    r = run("rewrite", tmp_path / "cdc.parquet", tmp_path / "re.parquet", "--quiet", "--no-fsync",
            "--cdc", "--cdc-min-size", "131072", "--cdc-max-size", "524288")
    assert r.returncode == 0, r.stderr.decode()
    kv = pq.ParquetFile(tmp_path / "re.parquet").metadata.metadata
    assert json.loads(kv[b"quiver.cdc"])["min_chunk_size"] == 131072


def test_cdc_footer_key_on_append(tmp_path):
    """Appended rows keep "quiver.cdc" only when chunked with the same parameters."""
    import quiver
    cdc = {"min_chunk_size": 65536, "max_chunk_size": 262144}
    t = base_table(5_000)
    for again, kept in ((cdc, True), (None, False),
                        ({"min_chunk_size": 32768, "max_chunk_size": 262144}, False)):
        path = str(tmp_path / "a.parquet")
        quiver.write_parquet(t, path, use_content_defined_chunking=cdc)
        opts = {} if again is None else {"use_content_defined_chunking": again}
        quiver.append_parquet(path, t, **opts)
        kv = pq.ParquetFile(path).metadata.metadata
        assert (b"quiver.cdc" in kv) == kept, again
        assert pq.read_table(path).num_rows == 10_000
    # A file without the key does not get it from an appending CDC writer.
    path = str(tmp_path / "b.parquet")
    quiver.write_parquet(t, path)
    quiver.append_parquet(path, t, use_content_defined_chunking=cdc)
    assert b"quiver.cdc" not in pq.ParquetFile(path).metadata.metadata


def test_hostile_files(files, tmp_path):
    """Seeded corruptions of pyarrow files (footer bytes flipped, cut, lengths changed):
    --check reports each as checked or as a finding (exit 0 or 1, one JSON document, nothing
    on stderr), --html writes its page or fails cleanly; never a crash."""
    from hostile_parquet import mutate
    rng = random.Random(4703)
    sources = [(files / f"{n}.parquet").read_bytes()
               for n in ("clean", "dictionary_fallback", "int96", "no_min_max")]
    for i in range(48):
        path = tmp_path / f"m{i}.parquet"
        path.write_bytes(mutate(rng.choice(sources), rng))
        r = run("inspect", "--check", "--json", path)
        assert r.returncode in (OK, FINDINGS) and r.stderr == b"", (i, r.stderr)
        (result,) = json.loads(r.stdout)["files"]
        assert result["readable"] or [f["id"] for f in result["findings"]] == ["unreadable"]
        h = run("inspect", "--html", tmp_path / "m.html", path)
        assert h.returncode in (OK, FINDINGS), (i, h.stderr)
