"""The `quiver` command-line program: `quiver convert` (Arrow IPC -> Parquet)
and `quiver inspect` (footer, chunks, pages), checked against pyarrow.

The binary is $QUIVER_CLI, by default build/release/quiver (`make release`).
These tests do not import the quiver Python package.
"""

import datetime
import decimal
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq
import quiver
import parquet_pages
import pytest

from hostile_parquet import (BINARY, I32, I64, LIST, STRUCT, column_chunk, mutate,
                            parquet_file, tstruct)

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))

pytestmark = pytest.mark.skipif(
    not (CLI.is_file() and os.access(CLI, os.X_OK)),
    reason=f"the quiver CLI is not built at {CLI} (run `make release` or set QUIVER_CLI)",
)

# Exit codes of the CLI.
OK, FAILURE, USAGE = 0, 1, 2


def run(*args, stdin=None, timeout=60):
    return subprocess.run(
        [str(CLI), *map(str, args)], input=stdin, capture_output=True, timeout=timeout
    )


def sample_table(n=1000):
    return pa.table(
        {
            "a": pa.array(range(n), pa.int64()),
            "s": pa.array([f"v{i % 10}" if i % 7 else None for i in range(n)]),
            "f": pa.array([i / 3 for i in range(n)], pa.float64()),
            "b": pa.array([i % 3 == 0 for i in range(n)]),
            "l": pa.array([[i, i + 1] if i % 5 else None for i in range(n)], pa.list_(pa.int32())),
        }
    )


def typed_table():
    n = 30
    return pa.table(
        {
            "i8": pa.array(range(n), pa.int8()),
            "u64": pa.array([2**64 - 1 - i for i in range(n)], pa.uint64()),
            "dec": pa.array([decimal.Decimal("12.34") * i for i in range(n)], pa.decimal128(10, 2)),
            "ts": pa.array([datetime.datetime(2020, 1, 1 + i % 28) for i in range(n)], pa.timestamp("us")),
            "bin": pa.array([bytes([i, 255]) for i in range(n)], pa.binary()),
            "st": pa.array([{"x": i, "y": str(i)} for i in range(n)]),
            "dict": pa.array(["a", "b", "c"] * (n // 3)).dictionary_encode(),
        }
    )


def write_ipc_file(path, table, max_chunksize=300):
    with ipc.new_file(str(path), table.schema) as w:
        w.write_table(table, max_chunksize=max_chunksize)
    return path


def write_ipc_stream(path, table, max_chunksize=300):
    with ipc.new_stream(str(path), table.schema) as w:
        w.write_table(table, max_chunksize=max_chunksize)
    return path


def ipc_stream_bytes(table):
    sink = pa.BufferOutputStream()
    with ipc.new_stream(sink, table.schema) as w:
        w.write_table(table, max_chunksize=256)
    return sink.getvalue().to_pybytes()


@pytest.fixture
def table():
    return sample_table()


@pytest.fixture
def ipc_file(tmp_path, table):
    return write_ipc_file(tmp_path / "in.arrow", table)


def convert(tmp_path, ipc_path, *options, name="out.parquet"):
    out = tmp_path / name
    r = run("convert", ipc_path, out, *options)
    assert r.returncode == OK, r.stderr.decode()
    return out


def inspect_json(path, *options):
    r = run("inspect", "--json", path, *options)
    assert r.returncode == OK, r.stderr.decode()
    return json.loads(r.stdout)


def assert_failed_cleanly(r, tmp_path, before, code=FAILURE, command="convert"):
    """Non-zero exit with a message, and no new file (output or temporary) left."""
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    err = r.stderr.decode()
    assert err.startswith(f"quiver {command}: "), err
    assert "\n" in err and len(err.strip()) > len(f"quiver {command}:")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


# --- version / help / usage ------------------------------------------------


def test_version_and_help():
    """`quiver --version`: the project version and the commit built from, as the created_by
    of the files it writes says (test_writer_created_by.py checks that string)."""
    r = run("--version")
    assert r.returncode == OK
    commit = quiver._quiver.build_commit
    assert r.stdout.decode().strip() == f"quiver {quiver.__version__}" + (f" (build {commit})" if commit else "")
    r = run("--help")
    assert r.returncode == OK
    out = r.stdout.decode()
    assert "convert" in out and "inspect" in out
    r = run("convert", "--help")
    assert r.returncode == OK
    out = r.stdout.decode()
    for flag in [
        "--compression", "--compression-level", "--no-dictionary", "--dictionary-columns",
        "--dictionary-pagesize-limit", "--data-page-version", "--data-page-size",
        "--max-rows-per-page", "--write-batch-size", "--row-group-size", "--row-group-bytes",
        "--no-statistics", "--no-page-index", "--write-page-index", "--write-page-checksum",
        "--no-store-schema", "--column-encoding", "--use-byte-stream-split", "--bloom-filter",
        "--sorting-column", "--cdc", "--cdc-min-size", "--cdc-max-size", "--cdc-norm-level",
        "--no-validate-utf8", "--dictionary-cost-fallback", "--dictionary-cost-fallback-columns",
        "--no-fsync",
    ]:
        assert flag in out, flag
    r = run("inspect", "--help")
    assert r.returncode == OK and "--json" in r.stdout.decode()


@pytest.mark.parametrize(
    "args",
    [[], ["frobnicate"], ["convert"], ["convert", "only-input.arrow"], ["inspect"],
     ["inspect", "a", "b"], ["convert", "a", "b", "--bogus"], ["inspect", "f", "--max-pages", "x"]],
    ids=lambda a: " ".join(a) or "nothing",
)
def test_usage_errors(args):
    r = run(*args)
    assert r.returncode == USAGE, (r.stdout, r.stderr)
    assert r.stderr.decode().startswith("quiver")
    assert "--help" in r.stderr.decode()


# --- convert ----------------------------------------------------------------


def test_convert_ipc_file(tmp_path, table, ipc_file):
    r = run("convert", ipc_file, tmp_path / "out.parquet")
    assert r.returncode == OK, r.stderr.decode()
    summary = r.stdout.decode()
    assert summary.count("\n") == 1
    assert "1000 rows" in summary and "1 row group" in summary and "IPC file" in summary
    assert "4 batches" in summary
    size = (tmp_path / "out.parquet").stat().st_size
    assert f"{size} bytes" in summary
    assert pq.read_table(tmp_path / "out.parquet").equals(table)
    # Only the input and the output are there (no temporary file).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.arrow", "out.parquet"]


def test_convert_ipc_stream(tmp_path, table):
    src = write_ipc_stream(tmp_path / "in.arrows", table)
    r = run("convert", src, tmp_path / "out.parquet")
    assert r.returncode == OK, r.stderr.decode()
    assert "IPC stream" in r.stdout.decode()
    assert pq.read_table(tmp_path / "out.parquet").equals(table)


def test_convert_stdin_stream_and_file(tmp_path, table):
    r = run("convert", "-", tmp_path / "a.parquet", stdin=ipc_stream_bytes(table))
    assert r.returncode == OK, r.stderr.decode()
    assert "<stdin>" in r.stdout.decode()
    assert pq.read_table(tmp_path / "a.parquet").equals(table)
    # The file format through a pipe works too (detected by its magic).
    data = write_ipc_file(tmp_path / "in.arrow", table).read_bytes()
    r = run("convert", "-", tmp_path / "b.parquet", stdin=data)
    assert r.returncode == OK, r.stderr.decode()
    assert pq.read_table(tmp_path / "b.parquet").equals(table)


def test_convert_to_stdout(tmp_path, table, ipc_file):
    r = run("convert", ipc_file, "-")
    assert r.returncode == OK, r.stderr.decode()
    assert "<stdout>" in r.stderr.decode()  # the summary moves to stderr
    got = pq.read_table(pa.BufferReader(r.stdout))
    assert got.equals(table)


def test_convert_types(tmp_path):
    t = typed_table()
    out = convert(tmp_path, write_ipc_file(tmp_path / "t.arrow", t))
    got = pq.read_table(out)
    # Dictionary arrays come back as dictionaries thanks to ARROW:schema.
    assert got.equals(t), (got.schema, t.schema)


def test_convert_empty_stream(tmp_path, table):
    src = tmp_path / "empty.arrows"
    with ipc.new_stream(str(src), table.schema):
        pass
    out = convert(tmp_path, src)
    got = pq.read_table(out)
    assert got.num_rows == 0 and got.schema.names == table.schema.names
    assert pq.ParquetFile(out).metadata.num_row_groups == 0


@pytest.mark.parametrize(
    "flag,expected",
    [("none", "UNCOMPRESSED"), ("snappy", "SNAPPY"), ("gzip", "GZIP"), ("brotli", "BROTLI"),
     ("lz4", "LZ4"), ("ZSTD", "ZSTD")],
)
def test_convert_compression(tmp_path, table, ipc_file, flag, expected):
    out = convert(tmp_path, ipc_file, "--compression", flag)
    md = pq.ParquetFile(out).metadata
    for i in range(md.num_columns):
        assert md.row_group(0).column(i).compression == expected
    assert pq.read_table(out).equals(table)
    if flag == "lz4":  # pyarrow says LZ4 for LZ4_RAW; the footer says which one
        codecs = {c["codec"] for c in inspect_json(out)["row_groups"][0]["columns"]}
        assert codecs == {"LZ4_RAW"}


def test_convert_per_column_compression_and_level(tmp_path, table, ipc_file):
    out = convert(tmp_path, ipc_file, "--compression", "zstd", "--compression", "s=gzip",
                  "--compression-level", "7", "--compression-level", "s=9")
    rg = pq.ParquetFile(out).metadata.row_group(0)
    codecs = {rg.column(i).path_in_schema: rg.column(i).compression for i in range(rg.num_columns)}
    assert codecs == {"a": "ZSTD", "s": "GZIP", "f": "ZSTD", "b": "ZSTD", "l.list.element": "ZSTD"}
    assert pq.read_table(out).equals(table)


def test_convert_data_page_v2_and_pages(tmp_path, table, ipc_file):
    out = convert(tmp_path, ipc_file, "--data-page-version", "2.0", "--max-rows-per-page", "100")
    doc = inspect_json(out)
    for col in doc["row_groups"][0]["columns"]:
        data_pages = [p for p in col["pages"] if p["type"].startswith("DATA_PAGE")]
        assert {p["type"] for p in data_pages} == {"DATA_PAGE_V2"}
        assert len(data_pages) == 10  # 1000 rows, at most 100 per page
        assert sum(p["num_rows"] for p in data_pages) == 1000
    assert pq.read_table(out).equals(table)
    out1 = convert(tmp_path, ipc_file, name="v1.parquet")
    types = {p["type"] for c in inspect_json(out1)["row_groups"][0]["columns"] for p in c["pages"]}
    assert types == {"DATA_PAGE", "DICTIONARY_PAGE"}


def test_convert_format_version_timestamps_distinct_count(tmp_path):
    """--format-version, --coerce-timestamps, --allow-truncated-timestamps and
    --write-distinct-count do what write_parquet's version, coerce_timestamps,
    allow_truncated_timestamps and write_distinct_count do: pyarrow's file for the same
    options reads the same; a lossy value is refused (exit 1, nothing written)."""
    t = pa.table({"u": pa.array([1, 2, 2, None], pa.uint32()),
                  "ns": pa.array([1_000, 2_000, 2_000, None], pa.timestamp("ns")),
                  "us": pa.array([1_001, 1_999, 5_000, None], pa.timestamp("us", tz="UTC"))})
    src = write_ipc_file(tmp_path / "t.arrow", t)
    out = convert(tmp_path, src, "--format-version", "1.0", "--coerce-timestamps", "ms",
                  "--allow-truncated-timestamps", "--write-distinct-count")
    pq.write_table(t, tmp_path / "p.parquet", version="1.0", coerce_timestamps="ms", allow_truncated_timestamps=True)
    got, ref = pq.read_table(out), pq.read_table(tmp_path / "p.parquet")
    assert got.schema == ref.schema and got.equals(ref)
    assert got.schema.field("u").type == pa.int64() and got.schema.field("ns").type == pa.timestamp("ms")
    fs = parquet_pages.read_file(out)
    assert fs.version == 1
    # u {1, 2}; ns 1000, 2000 -> 0 ms; us 1001, 1999 -> 1 ms, 5000 -> 5 ms.
    assert [c.statistics.distinct_count for c in fs.chunks()] == [2, 1, 2]
    before = sorted(p.name for p in tmp_path.iterdir())
    r = run("convert", src, tmp_path / "lossy.parquet", "--coerce-timestamps", "ms")
    assert_failed_cleanly(r, tmp_path, before)
    err = r.stderr.decode()
    assert "column 'ns'" in err and "would lose data: 1000" in err and "allow_truncated_timestamps" in err, err
    # Nanoseconds under 2.4 are microseconds.
    out = convert(tmp_path, src, "--format-version", "2.4", name="v24.parquet")
    assert pq.read_table(out).schema.field("ns").type == pa.timestamp("us")


def test_convert_row_groups(tmp_path, table, ipc_file):
    out = convert(tmp_path, ipc_file, "--row-group-size", "300")
    md = pq.ParquetFile(out).metadata
    assert md.num_row_groups == 4
    assert [md.row_group(i).num_rows for i in range(4)] == [300, 300, 300, 100]
    assert pq.read_table(out).equals(table)
    out = convert(tmp_path, ipc_file, "--row-group-bytes", "2KiB", name="bytes.parquet")
    assert pq.ParquetFile(out).metadata.num_row_groups > 1
    assert pq.read_table(out).equals(table)


def test_convert_dictionary_options(tmp_path, table, ipc_file):
    out = convert(tmp_path, ipc_file, "--no-dictionary")
    rg = pq.ParquetFile(out).metadata.row_group(0)
    for i in range(rg.num_columns):
        c = rg.column(i)
        assert not c.has_dictionary_page, c.path_in_schema
        assert "RLE_DICTIONARY" not in c.encodings and "PLAIN_DICTIONARY" not in c.encodings
    out = convert(tmp_path, ipc_file, "--dictionary-columns", "s,f", name="some.parquet")
    rg = pq.ParquetFile(out).metadata.row_group(0)
    with_dict = {rg.column(i).path_in_schema for i in range(rg.num_columns) if rg.column(i).has_dictionary_page}
    assert with_dict == {"s", "f"}
    assert pq.read_table(out).equals(table)


def test_convert_dictionary_cost_fallback(tmp_path, ipc_file):
    """--dictionary-cost-fallback[-columns] write what write_parquet's dictionary_cost_fallback
    writes (a column of distinct values gives up its dictionary after its first page)."""
    n = 5000
    t = pa.table({"a": pa.array(range(0, 7 * n, 7), pa.int64()),
                  "s": pa.array([f"distinct-{i}" for i in range(n)]),
                  "k": pa.array([i % 5 for i in range(n)], pa.int32())})
    src = write_ipc_file(tmp_path / "t.arrow", t)
    opts = {"max_rows_per_page": 1000, "compression": "none"}
    flags = ["--max-rows-per-page", "1000", "--compression", "none"]
    for cli_flags, option in ((["--dictionary-cost-fallback"], True),
                              (["--dictionary-cost-fallback-columns", "a,k"], ["a", "k"])):
        out = convert(tmp_path, src, *flags, *cli_flags, name="cli.parquet")
        quiver.write_parquet(t, str(tmp_path / "py.parquet"), dictionary_cost_fallback=option, **opts)
        assert out.read_bytes() == (tmp_path / "py.parquet").read_bytes(), cli_flags
        encodings = {c.path[0]: [p.encoding for p in c.data_pages] for c in parquet_pages.read_file(out).chunks()}
        assert encodings["a"] == ["RLE_DICTIONARY"] + ["PLAIN"] * 4
        assert encodings["k"] == ["RLE_DICTIONARY"] * 5
        assert encodings["s"] == (["RLE_DICTIONARY"] + ["PLAIN"] * 4 if option is True else ["RLE_DICTIONARY"] * 5)
        assert pq.read_table(out).equals(t)


def test_convert_statistics_page_index_schema(tmp_path, table, ipc_file):
    out = convert(tmp_path, ipc_file)
    md = pq.ParquetFile(out).metadata
    c = md.row_group(0).column(0)
    assert c.is_stats_set and c.statistics.min == 0 and c.statistics.max == 999
    assert c.has_column_index and c.has_offset_index  # Quiver's default
    assert b"ARROW:schema" in md.metadata

    out = convert(tmp_path, ipc_file, "--no-statistics", "--no-page-index", "--no-store-schema",
                  name="bare.parquet")
    md = pq.ParquetFile(out).metadata
    for i in range(md.num_columns):
        c = md.row_group(0).column(i)
        assert not c.is_stats_set
        assert not c.has_column_index and not c.has_offset_index
    assert md.metadata is None or b"ARROW:schema" not in md.metadata
    assert pq.read_table(out).column("a").equals(table.column("a"))

    out = convert(tmp_path, ipc_file, "--statistics-columns", "a,s", name="some_stats.parquet")
    rg = pq.ParquetFile(out).metadata.row_group(0)
    with_stats = {rg.column(i).path_in_schema for i in range(rg.num_columns) if rg.column(i).is_stats_set}
    assert with_stats == {"a", "s"}


def test_convert_checksums_and_sorting(tmp_path, table, ipc_file):
    out = convert(tmp_path, ipc_file, "--write-page-checksum", "--sorting-column", "0:desc:nulls_first",
                  "--sorting-column", "2")
    doc = inspect_json(out)
    pages = [p for c in doc["row_groups"][0]["columns"] for p in c["pages"]]
    assert pages and all(p["crc_present"] and p["crc_ok"] for p in pages)
    got = pq.read_table(out, page_checksum_verification=True)
    assert got.equals(table)
    sc = pq.ParquetFile(out).metadata.row_group(0).sorting_columns
    assert [(s.column_index, s.descending, s.nulls_first) for s in sc] == [(0, True, True), (2, False, False)]


@pytest.mark.parametrize(
    "options",
    [["--cdc"], ["--cdc-min-size", "4KiB", "--cdc-max-size", "16KiB"], ["--bloom-filter", "a:1000:0.01"],
     ["--no-dictionary", "--column-encoding", "a=DELTA_BINARY_PACKED"], ["--use-byte-stream-split", "--no-dictionary"],
     ["--use-threads"], ["--write-distinct-count"], ["--format-version", "2.4"]],
    ids=lambda o: " ".join(o),
)
def test_convert_newer_features(tmp_path, table, ipc_file, options):
    """Options added after the first ones: each writes a correct file (a failure is a
    failure)."""
    r = run("convert", ipc_file, tmp_path / "out.parquet", *options)
    assert r.returncode == OK, r.stderr.decode()
    assert pq.read_table(tmp_path / "out.parquet").equals(table)


@pytest.mark.parametrize("options", [[], ["--cdc", "--compression", "zstd"], ["--row-group-size", "700"]],
                         ids=lambda o: " ".join(o) or "default")
def test_convert_use_threads_same_bytes(tmp_path, table, ipc_file, options):
    """--use-threads encodes the columns on several threads: the same file."""
    assert run("convert", ipc_file, tmp_path / "one.parquet", *options).returncode == OK
    assert run("convert", ipc_file, tmp_path / "many.parquet", "--use-threads", *options).returncode == OK
    assert (tmp_path / "one.parquet").read_bytes() == (tmp_path / "many.parquet").read_bytes()
    assert pq.read_table(tmp_path / "many.parquet").equals(table)


@pytest.mark.parametrize(
    "options",
    [["--compression", "foo"], ["--compression", "=zstd"], ["--compression", "snappy", "--compression-level", "3"],
     ["--data-page-version", "3.0"], ["--max-rows-per-page", "0"], ["--max-rows-per-page", "many"],
     ["--row-group-size", "-5"], ["--column-encoding", "a"], ["--column-encoding", "a=FANCY"],
     ["--bloom-filter", "a:x"], ["--sorting-column", "x"], ["--sorting-column", "0:sideways"],
     ["--no-dictionary", "--dictionary-columns", "a"], ["--cdc-min-size", "100", "--cdc-max-size", "50"],
     ["--format-version", "2.0"], ["--coerce-timestamps", "ns"], ["--write-distinct-count", "--no-statistics"]],
    ids=lambda o: " ".join(o),
)
def test_convert_bad_options(tmp_path, ipc_file, options):
    before = sorted(p.name for p in tmp_path.iterdir())
    r = run("convert", ipc_file, tmp_path / "out.parquet", *options)
    assert_failed_cleanly(r, tmp_path, before, code=USAGE)


def test_convert_bad_inputs(tmp_path, table):
    good_file = write_ipc_file(tmp_path / "good.arrow", table).read_bytes()
    good_stream = ipc_stream_bytes(table)
    inputs = {
        "text.arrow": b"hello, this is not Arrow data at all\n",
        "empty.arrow": b"",
        "truncated_file.arrow": good_file[: len(good_file) // 2],
        "truncated_stream.arrows": good_stream[: len(good_stream) // 2],
        "parquet.arrow": b"PAR1" + b"\0" * 100 + b"PAR1",
    }
    for name, data in inputs.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "a_dir").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    for name in [*inputs, "does_not_exist.arrow", "a_dir"]:
        r = run("convert", tmp_path / name, tmp_path / "out.parquet")
        assert_failed_cleanly(r, tmp_path, before)
        assert name in r.stderr.decode()
    # The same through stdin.
    r = run("convert", "-", tmp_path / "out.parquet", stdin=good_stream[:100])
    assert_failed_cleanly(r, tmp_path, before)


def syscalls(tmp_path, *args):
    """The fsync and rename calls of `quiver *args`, as strace prints them."""
    log = tmp_path / "strace.log"
    r = subprocess.run(["strace", "-f", "-qq", "-o", str(log), "-e",
                        "trace=fsync,fdatasync,rename,renameat,renameat2", str(CLI), *map(str, args)],
                       capture_output=True, timeout=120)
    assert r.returncode == OK, r.stderr.decode()
    return [line.split(None, 1)[-1] for line in log.read_text().splitlines()]


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_convert_and_rewrite_fsync_unless_told_not_to(tmp_path, table, ipc_file):
    """The file is fsynced before its rename and the folder after it;
    --no-fsync skips both (convert and rewrite). Same bytes either way."""
    out = tmp_path / "out.parquet"
    calls = syscalls(tmp_path, "convert", ipc_file, out, "-q")
    names = [c.split("(")[0] for c in calls]
    assert names.count("rename") == 1 and names.count("fsync") == 2, calls
    assert names.index("fsync") < names.index("rename") < len(names) - 1 - names[::-1].index("fsync")
    durable = out.read_bytes()
    calls = syscalls(tmp_path, "convert", ipc_file, out, "-q", "--no-fsync")
    assert [c for c in calls if c.startswith(("fsync", "fdatasync"))] == [], calls
    assert out.read_bytes() == durable
    rewritten = tmp_path / "re.parquet"
    calls = syscalls(tmp_path, "rewrite", out, rewritten, "-q", "--no-fsync")
    assert [c for c in calls if c.startswith(("fsync", "fdatasync"))] == [], calls
    assert any(c.startswith("rename") for c in calls)
    assert pq.read_table(rewritten).equals(table)
    calls = syscalls(tmp_path, "rewrite", out, rewritten, "-q")
    assert [c.split("(")[0] for c in calls].count("fsync") == 2, calls


def test_convert_unwritable_output(tmp_path, ipc_file):
    (tmp_path / "a_file").write_bytes(b"x")
    before = sorted(p.name for p in tmp_path.iterdir())
    for out in [tmp_path / "missing_dir" / "out.parquet", tmp_path / "a_file" / "out.parquet"]:
        r = run("convert", ipc_file, out)
        assert_failed_cleanly(r, tmp_path, before)
        assert str(out) in r.stderr.decode()
    if os.geteuid() != 0:  # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        try:
            r = run("convert", ipc_file, ro / "out.parquet")
            assert r.returncode == FAILURE and list(ro.iterdir()) == []
        finally:
            ro.chmod(0o700)


def test_convert_failure_keeps_existing_output(tmp_path, ipc_file, table):
    out = tmp_path / "out.parquet"
    out.write_bytes(b"previous content")
    (tmp_path / "bad.arrow").write_bytes(b"garbage" * 10)
    before = sorted(p.name for p in tmp_path.iterdir())
    r = run("convert", tmp_path / "bad.arrow", out)
    assert_failed_cleanly(r, tmp_path, before)
    assert out.read_bytes() == b"previous content"
    # A failure in the middle of the data (the last batch is cut off).
    stream = ipc_stream_bytes(table)
    r = run("convert", "-", out, stdin=stream[:-200])
    assert_failed_cleanly(r, tmp_path, before)
    assert out.read_bytes() == b"previous content"
    # Success replaces it.
    convert(tmp_path, ipc_file)
    assert pq.read_table(out).equals(table)


def test_convert_interrupted(tmp_path):
    """SIGINT while writing: exit 130, nothing at the destination, no
    temporary file (if the conversion wins the race, it must be complete)."""
    np = pytest.importorskip("numpy")
    n = 3_000_000
    t = pa.table({"a": np.random.default_rng(7).integers(0, 1 << 62, n)})
    src = write_ipc_file(tmp_path / "big.arrow", t, max_chunksize=20_000)
    out = tmp_path / "out.parquet"
    p = subprocess.Popen([str(CLI), "convert", src, out, "--compression", "gzip",
                          "--compression-level", "9", "--no-dictionary", "--row-group-size", "100000000"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while p.poll() is None and time.monotonic() < deadline:
        if any(x.name.startswith(".out.parquet.") for x in tmp_path.iterdir()):
            break
        time.sleep(0.005)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    if p.returncode == OK:
        assert pq.read_table(out).num_rows == n
    else:
        assert p.returncode == 128 + signal.SIGINT, err
        assert b"interrupted" in err
        assert not out.exists()
    assert sorted(x.name for x in tmp_path.iterdir()) in (["big.arrow"], ["big.arrow", "out.parquet"])


def test_convert_invalid_utf8(tmp_path):
    arr = pa.array([b"ok", b"\xff\xfe"], pa.binary()).view(pa.string())
    t = pa.table({"s": arr})
    src = write_ipc_stream(tmp_path / "bad_utf8.arrows", t)
    before = sorted(p.name for p in tmp_path.iterdir())
    r = run("convert", src, tmp_path / "out.parquet")
    assert_failed_cleanly(r, tmp_path, before)
    assert "utf" in r.stderr.decode().lower()


# --- inspect ----------------------------------------------------------------


def column_map(doc, rg=0):
    return {c["path"]: c for c in doc["row_groups"][rg]["columns"]}


def check_against_pyarrow(path):
    """The JSON report agrees with pyarrow's reading of the footer, and the
    page walk adds up to the column chunk totals."""
    doc = inspect_json(path)
    md = pq.ParquetFile(path).metadata
    assert doc["file_size"] == Path(path).stat().st_size
    assert doc["footer_length"] == md.serialized_size
    assert doc["num_rows"] == md.num_rows
    assert doc["num_row_groups"] == md.num_row_groups == len(doc["row_groups"])
    assert doc["num_columns"] == md.num_columns
    assert doc["created_by"] == md.created_by
    assert doc["problems"] == [] and doc["num_problems"] == 0
    keys = [kv["key"] for kv in doc["key_value_metadata"]]
    assert keys == [k.decode() for k in (md.metadata or {})]
    for kv in doc["key_value_metadata"]:
        if kv["key"] == "ARROW:schema":
            assert kv["value"] == f"<{kv['value_size']} bytes>"
            assert kv["value_size"] == len(md.metadata[b"ARROW:schema"])
    leaves = [e["path"] for e in doc["schema"] if e["is_leaf"]]
    assert leaves == [md.schema.column(i).path for i in range(md.num_columns)]
    for r in range(md.num_row_groups):
        rg = md.row_group(r)
        jrg = doc["row_groups"][r]
        assert jrg["num_rows"] == rg.num_rows
        assert jrg["total_byte_size"] == rg.total_byte_size
        for i in range(rg.num_columns):
            c = rg.column(i)
            j = jrg["columns"][i]
            assert j["path"] == c.path_in_schema
            assert j["type"] == c.physical_type
            codec = "LZ4" if j["codec"] == "LZ4_RAW" else j["codec"]
            assert codec == c.compression
            assert j["num_values"] == c.num_values
            assert j["total_compressed_size"] == c.total_compressed_size
            assert j["total_uncompressed_size"] == c.total_uncompressed_size
            assert j["data_page_offset"] == c.data_page_offset
            if c.has_dictionary_page:
                assert j["dictionary_page_offset"] == c.dictionary_page_offset
            assert sorted(j["encodings"]) == sorted(c.encodings)
            assert j["page_index"]["has_column_index"] == c.has_column_index
            assert j["page_index"]["has_offset_index"] == c.has_offset_index
            assert j["problems"] == []
            if c.is_stats_set:
                s = c.statistics
                js = j["statistics"]
                if s.null_count is not None:
                    assert js["null_count"] == s.null_count
                if s.has_min_max and c.physical_type in ("INT32", "INT64", "DOUBLE", "BOOLEAN") \
                        and not isinstance(s.min, (datetime.date, datetime.datetime, decimal.Decimal)):
                    assert js["min"] == s.min and js["max"] == s.max
                if s.has_min_max and isinstance(s.min, str):
                    assert js["min"] == s.min and js["max"] == s.max
                if s.has_min_max and isinstance(s.min, decimal.Decimal):
                    assert decimal.Decimal(js["min"]) == s.min and decimal.Decimal(js["max"]) == s.max
            # Every page header, summed, gives the chunk's totals.
            pages = j["pages"]
            assert sum(p["header_size"] + p["compressed_page_size"] for p in pages) == c.total_compressed_size
            assert sum(p["header_size"] + p["uncompressed_page_size"] for p in pages) == c.total_uncompressed_size
            assert sum(p["num_values"] for p in pages if p["type"].startswith("DATA_PAGE")) == c.num_values
            first = c.dictionary_page_offset if c.has_dictionary_page else c.data_page_offset
            assert pages[0]["offset"] == first
            if c.has_dictionary_page:
                assert pages[0]["type"] == "DICTIONARY_PAGE"
            if c.has_offset_index:
                n_data = sum(1 for p in pages if p["type"].startswith("DATA_PAGE"))
                assert j["page_index"]["offset_index_pages"] == n_data
    return doc


def test_inspect_quiver_file(tmp_path, table, ipc_file):
    out = convert(tmp_path, ipc_file, "--row-group-size", "400", "--max-rows-per-page", "150",
                  "--write-page-checksum", "--compression", "zstd")
    doc = check_against_pyarrow(out)
    assert doc["created_by"].startswith("quiver")
    cols = column_map(doc)
    assert cols["a"]["statistics"]["min"] == 0 and cols["a"]["statistics"]["max"] == 399
    assert cols["s"]["statistics"]["min"] == "v0" and cols["s"]["statistics"]["null_count"] == 58
    assert cols["b"]["statistics"] ["min"] is False and cols["b"]["statistics"]["max"] is True
    assert all(p["crc_ok"] for c in cols.values() for p in c["pages"])
    names = [(e["name"], e["depth"]) for e in doc["schema"]]
    assert names[:3] == [("schema", 0), ("a", 1), ("s", 1)]
    assert ("element", 3) in names
    s_elem = next(e for e in doc["schema"] if e["name"] == "s")
    assert s_elem["logical_type"] == "STRING" and s_elem["repetition_type"] == "OPTIONAL"

    r = run("inspect", out)
    assert r.returncode == OK, r.stderr.decode()
    text = r.stdout.decode()
    md = pq.ParquetFile(out).metadata
    assert f"ARROW:schema  <{len(md.metadata[b'ARROW:schema'])} bytes>" in text
    assert "row group 2: 200 rows" in text
    assert "column 4 'l.list.element': INT32 ZSTD" in text
    assert "DICTIONARY_PAGE" in text and "RLE_DICTIONARY" in text
    assert text.rstrip().endswith("no problems found")
    assert r.stderr == b""


def test_inspect_typed_quiver_file(tmp_path):
    out = convert(tmp_path, write_ipc_file(tmp_path / "t.arrow", typed_table()))
    doc = check_against_pyarrow(out)
    cols = column_map(doc)
    assert cols["u64"]["statistics"]["max"] == 2**64 - 1
    assert cols["dec"]["statistics"]["max"] == "357.86"
    assert cols["bin"]["statistics"]["min"] == {"hex": "00ff"}
    assert cols["st.y"]["statistics"]["max"] == "9"


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_inspect_pyarrow_file(tmp_path, version):
    t = sample_table(5000).append_column("t", typed_table().column("dec").take([i % 30 for i in range(5000)]))
    path = tmp_path / "pa.parquet"
    pq.write_table(t, path, row_group_size=2000, data_page_size=4096, write_page_index=True,
                   data_page_version=version, write_page_checksum=True, compression="zstd",
                   use_dictionary=["s"])
    doc = check_against_pyarrow(path)
    assert doc["num_row_groups"] == 3
    kinds = {p["type"] for c in doc["row_groups"][0]["columns"] for p in c["pages"]}
    assert ("DATA_PAGE_V2" if version == "2.0" else "DATA_PAGE") in kinds
    assert all(p.get("crc_ok") for rg in doc["row_groups"] for c in rg["columns"] for p in c["pages"])
    r = run("inspect", path)
    assert r.returncode == OK and b"no problems found" in r.stdout


def test_inspect_stdin_and_options(tmp_path, ipc_file):
    out = convert(tmp_path, ipc_file)
    r = run("inspect", "-", "--json", stdin=out.read_bytes())
    assert r.returncode == OK
    assert json.loads(r.stdout)["num_rows"] == 1000
    doc = inspect_json(out, "--no-pages")
    assert all("pages" not in c for c in doc["row_groups"][0]["columns"])
    doc = inspect_json(out, "--max-pages", "3")
    kept = sum(len(c["pages"]) for c in doc["row_groups"][0]["columns"])
    assert kept == 3
    assert sum(c["num_pages"] for c in doc["row_groups"][0]["columns"]) > 3


def test_inspect_json_escaping(tmp_path):
    weird_key = 'quote" back\\slash\nnew\tline \x01 é'
    t = pa.table({"x": [1, 2]}).replace_schema_metadata({weird_key: b"bad utf8 \xff\xfe end"})
    path = tmp_path / "weird.parquet"
    pq.write_table(t, path)
    doc = inspect_json(path)
    kv = {e["key"]: e["value"] for e in doc["key_value_metadata"]}
    assert kv[weird_key] == "bad utf8 \ufffd\ufffd end"
    r = run("inspect", path)
    assert r.returncode == OK
    assert b"\\xff" in r.stdout or b"\\x01" in r.stdout  # escaped in the text report


def test_inspect_not_parquet(tmp_path, ipc_file):
    cases = {
        "empty": b"",
        "short": b"PAR1PAR1",
        "text": b"hello world, certainly not a parquet file",
        "no_tail_magic": b"PAR1" + b"\0" * 50,
        "no_head_magic": b"XXXX" + b"\0" * 50 + b"\x10\0\0\0PAR1",
        "huge_footer_len": b"PAR1" + b"\0" * 50 + b"\xff\xff\xff\x7fPAR1",
        "garbage_footer": b"PAR1" + bytes(range(200)) + b"\xc8\0\0\0PAR1",
        "encrypted": b"PAR1" + b"\0" * 50 + b"\x10\0\0\0PARE",
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    for name in [*cases, "missing", ipc_file.name]:
        r = run("inspect", tmp_path / name)
        assert r.returncode == FAILURE, (name, r.stdout, r.stderr)
        assert r.stderr.decode().startswith("quiver inspect: "), name
        assert r.stdout == b"", name
    r = run("inspect", tmp_path / "encrypted")
    assert "encrypted" in r.stderr.decode()


def test_inspect_detects_page_corruption(tmp_path, ipc_file):
    out = convert(tmp_path, ipc_file, "--write-page-checksum", "--compression", "none")
    doc = inspect_json(out)
    page = column_map(doc)["a"]["pages"][-1]
    data = bytearray(out.read_bytes())
    body = page["offset"] + page["header_size"]
    data[body + page["compressed_page_size"] // 2] ^= 0x40
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(bytes(data))
    r = run("inspect", "--json", bad)
    assert r.returncode == FAILURE
    assert "CRC" in r.stderr.decode()
    doc = json.loads(r.stdout)  # the report is still printed
    assert doc["num_problems"] == 1
    assert column_map(doc)["a"]["pages"][-1]["crc_ok"] is False
    # Without checksum verification the flipped value byte goes unnoticed.
    r = run("inspect", bad, "--no-checksums")
    assert r.returncode == OK


def test_inspect_hostile_footers(tmp_path):
    # An empty data page header (v1, 0 values, 0 bytes): 13 bytes.
    page = tstruct((1, I32, 0), (2, I32, 0), (3, I32, 0),
                   (5, STRUCT, tstruct((1, I32, 0), (2, I32, 0), (3, I32, 0), (4, I32, 0))))
    body = page * 8000
    leaf_schema = (2, LIST, (STRUCT, [tstruct((4, BINARY, "schema"), (5, I32, 1)),
                                      tstruct((1, I32, 1), (3, I32, 0), (4, BINARY, "x"))]))

    # The well-formed version: 8000 pages, all found, no problem.
    rg = tstruct((1, LIST, (STRUCT, [column_chunk(4, len(body))])), (2, I64, len(body)), (3, I64, 0))
    ok = parquet_file(body, tstruct((1, I32, 2), leaf_schema, (3, I64, 0), (4, LIST, (STRUCT, [rg]))))
    (tmp_path / "ok.parquet").write_bytes(ok)
    r = run("inspect", "--json", tmp_path / "ok.parquet")
    assert r.returncode == OK, r.stderr
    assert json.loads(r.stdout)["row_groups"][0]["columns"][0]["num_pages"] == 8000

    # 3000 row groups whose chunks all claim the same 100 KB: walking them
    # all would decode 24 million page headers; the overlap is reported.
    rgs = [rg] * 3000
    overlap = parquet_file(body, tstruct((1, I32, 2), leaf_schema, (3, I64, 0), (4, LIST, (STRUCT, rgs))))
    (tmp_path / "overlap.parquet").write_bytes(overlap)
    start = time.monotonic()
    r = run("inspect", "--json", tmp_path / "overlap.parquet", timeout=60)
    assert time.monotonic() - start < 30
    assert r.returncode == FAILURE
    assert "overlap" in r.stderr.decode()
    assert json.loads(r.stdout)["num_problems"] == 2999

    # A schema chain 20000 groups deep (paths would cost depth^2 bytes).
    chain = [tstruct((4, BINARY, "schema"), (5, I32, 1))]
    chain += [tstruct((3, I32, 1), (4, BINARY, "g"), (5, I32, 1)) for _ in range(20000)]
    chain += [tstruct((1, I32, 1), (3, I32, 1), (4, BINARY, "leaf"))]
    deep = parquet_file(b"", tstruct((1, I32, 2), (2, LIST, (STRUCT, chain)), (3, I64, 0), (4, LIST, (STRUCT, []))))
    (tmp_path / "deep.parquet").write_bytes(deep)
    r = run("inspect", tmp_path / "deep.parquet", timeout=60)
    assert r.returncode == FAILURE
    assert "deeper than" in r.stderr.decode()

    # Offsets past the end, negative sizes, a chunk inside the footer.
    for name, chunk in [("past_end", column_chunk(4, 1 << 40)), ("negative", column_chunk(4, -5)),
                        ("in_footer", column_chunk(len(body) + 10, 20)), ("before_magic", column_chunk(0, 10))]:
        rg = tstruct((1, LIST, (STRUCT, [chunk])), (2, I64, 0), (3, I64, 0))
        data = parquet_file(body, tstruct((1, I32, 2), leaf_schema, (3, I64, 0), (4, LIST, (STRUCT, [rg]))))
        (tmp_path / name).write_bytes(data)
        r = run("inspect", tmp_path / name)
        assert r.returncode == FAILURE, name
        assert "outside the data region" in r.stderr.decode(), (name, r.stderr)


def test_inspect_survives_corruption(tmp_path, table, ipc_file, rng):
    """Hundreds of seeded corruptions: never a crash, a hang or a bad exit
    code; failures explain themselves; the JSON output always parses."""
    quiver_file = convert(tmp_path, ipc_file, "--write-page-checksum", "--max-rows-per-page", "300",
                          "--row-group-size", "500")
    pa_file = tmp_path / "pa.parquet"
    pq.write_table(table, pa_file, write_page_index=True, data_page_version="2.0", row_group_size=600)
    bases = [quiver_file.read_bytes(), pa_file.read_bytes()]
    target = tmp_path / "corrupt.parquet"
    counts = {OK: 0, FAILURE: 0}
    iterations = int(os.environ.get("QUIVER_CLI_FUZZ_ITERATIONS", "300"))
    for i in range(iterations):
        data = mutate(bases[i % 2], rng)
        target.write_bytes(data)
        args = ["inspect", target] + (["--json"] if i % 3 == 0 else [])
        r = run(*args, timeout=20)
        assert r.returncode in (OK, FAILURE), (i, r.returncode, r.stderr[-500:])
        counts[r.returncode] += 1
        if r.returncode == FAILURE:
            assert r.stderr.decode().startswith("quiver inspect: "), (i, r.stderr)
        if "--json" in args and r.stdout:
            doc = json.loads(r.stdout)
            assert (doc["num_problems"] > 0) == (r.returncode == FAILURE)
    # Most corruptions are noticed (footer flips, truncations, checksums).
    assert counts[FAILURE] > iterations // 2, counts


def test_convert_survives_corrupt_ipc(tmp_path, rng):
    """Seeded bit flips and truncations of IPC files and streams: exit 0 with
    a readable file, or 1 with a message; never a crash or a leftover."""
    t = typed_table()
    bases = [write_ipc_file(tmp_path / "a.arrow", t, 10).read_bytes(),
             write_ipc_stream(tmp_path / "a.arrows", t, 10).read_bytes()]
    src, out = tmp_path / "in", tmp_path / "out.parquet"
    iterations = int(os.environ.get("QUIVER_CLI_FUZZ_ITERATIONS", "300")) // 2
    for i in range(iterations):
        data = bytearray(bases[i % 2])
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        if rng.random() < 0.2:
            data = data[: rng.randrange(len(data))]
        src.write_bytes(bytes(data))
        r = run("convert", src, out, timeout=30)
        assert r.returncode in (OK, FAILURE), (i, r.returncode, r.stderr[-500:])
        if r.returncode == OK:
            pq.read_metadata(out)
            out.unlink()
        else:
            assert r.stderr.decode().startswith("quiver convert: "), (i, r.stderr)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.arrow", "a.arrows", "in"], i
