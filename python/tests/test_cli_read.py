"""The reading commands of the `quiver` program: `cat`, `schema`, `rewrite`,
`convert` from Parquet, the progress line and closed pipes. Values are
judged against pyarrow (pq.read_table), page bytes with the independent page
reader parquet_pages; stable text outputs against golden files under
golden/cli/ (QUIVER_UPDATE_GOLDEN=1 rewrites them, as in test_golden.py).

The binary is $QUIVER_CLI, by default build/release/quiver.
"""

import base64
import csv
import datetime
import decimal
import io
import json
import math
import os
import pty
import select
import subprocess
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq
import pytest

import parquet_pages

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver"))).resolve()
GOLDEN = Path(__file__).resolve().parent / "golden" / "cli"
TYPED = REPO / "testdata" / "quiver" / "typed.parquet"
UPDATE = os.environ.get("QUIVER_UPDATE_GOLDEN") == "1"

pytestmark = pytest.mark.skipif(
    not (CLI.is_file() and os.access(CLI, os.X_OK)),
    reason=f"the quiver CLI is not built at {CLI} (run `make release` or set QUIVER_CLI)",
)

OK, FAILURE, USAGE = 0, 1, 2


def run(*args, timeout=120, cwd=None):
    return subprocess.run([str(CLI), *map(str, args)], capture_output=True, timeout=timeout,
                          cwd=cwd)


def ok(*args, **kw):
    r = run(*args, **kw)
    assert r.returncode == OK, (r.returncode, r.stderr.decode())
    return r


def sample_table(n=3000):
    return pa.table({
        "a": pa.array(range(n), pa.int64()),
        "s": pa.array([("x" * (i % 60) + ",\"\n" * (i % 3 == 0)) if i % 7 else None
                       for i in range(n)]),
        "e": pa.array(["" if i % 4 == 0 else "é" for i in range(n)]),
        "f": pa.array([i / 3 if i % 11 else (math.nan if i % 2 else math.inf) for i in range(n)]),
        "f32": pa.array([i / 7 for i in range(n)], pa.float32()),
        "b": pa.array([i % 3 == 0 if i % 5 else None for i in range(n)]),
        "l": pa.array([[i, None] if i % 5 else None for i in range(n)], pa.list_(pa.int32())),
        "st": pa.array([{"x": i, "y": str(i)} if i % 6 else None for i in range(n)]),
        "m": pa.array([[("k", i), ("j", None)] for i in range(n)], pa.map_(pa.string(), pa.int64())),
        "ts": pa.array([datetime.datetime(2020, 1, 1) + datetime.timedelta(seconds=i)
                        for i in range(n)], pa.timestamp("us", tz="UTC")),
        "d32": pa.array([datetime.date(2020, 1, 1) + datetime.timedelta(days=i) for i in range(n)]),
        "dec": pa.array([decimal.Decimal(i - 50) / 100 for i in range(n)], pa.decimal128(10, 2)),
        "bin": pa.array([bytes([i % 256, 0, 255]) for i in range(n)]),
        "u64": pa.array([2**64 - 1 - i for i in range(n)], pa.uint64()),
        "dict": pa.array((["a", "b", "c"] * n)[:n]).dictionary_encode(),
    })


@pytest.fixture(scope="module")
def table():
    return sample_table()


@pytest.fixture
def pq_file(tmp_path, table):
    path = tmp_path / "t.parquet"
    pq.write_table(table, path, row_group_size=1000)
    return path


def nan_equal(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(nan_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(nan_equal(a[k], b[k]) for k in a)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return nan_equal(list(a), list(b))
    return a == b


def as_float32(v):
    """A number rounded to float32 (shortest float32 text reads back exactly)."""
    return pa.array([float(v)], pa.float32())[0].as_py()


def assert_same_table(got, expected):
    """Equal schemas (metadata aside) and values (NaN equal to NaN; dictionary
    chunks compared by value)."""
    assert got.schema.remove_metadata() == expected.schema.remove_metadata()
    assert got.num_rows == expected.num_rows
    for name in expected.column_names:
        assert nan_equal(got[name].to_pylist(), expected[name].to_pylist()), name


def check_golden(name, text):
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    assert path.exists(), f"no golden output {path}: run with QUIVER_UPDATE_GOLDEN=1"
    assert path.read_text() == text


def cli_transcript(*args, cwd):
    r = run(*args, cwd=cwd)
    return (f"$ quiver {' '.join(map(str, args))}\nexit: {r.returncode}\n--- stdout\n"
            + r.stdout.decode("utf-8", "backslashreplace")
            + "--- stderr\n" + r.stderr.decode("utf-8", "backslashreplace"))


# --- expected cell values, from pyarrow's Python values ---------------------


def special_float(v, nan, inf, minus_inf):
    """The spelling of NaN and the infinities, or the float itself."""
    if math.isnan(v):
        return nan
    if math.isinf(v):
        return inf if v > 0 else minus_inf
    return v


def json_value(v, typ):
    """What `cat --format jsonl` writes for a pyarrow value of type `typ`."""
    if v is None:
        return None
    if pa.types.is_dictionary(typ):
        return json_value(v, typ.value_type)
    if pa.types.is_floating(typ):
        return special_float(v, "NaN", "Infinity", "-Infinity")
    if pa.types.is_decimal(typ):
        return v  # compared as Decimal (parse_float=Decimal)
    if pa.types.is_binary(typ) or pa.types.is_fixed_size_binary(typ):
        return base64.b64encode(v).decode()
    if pa.types.is_timestamp(typ):
        text = v.strftime("%Y-%m-%d %H:%M:%S.%f")
        return text + ("Z" if typ.tz else "")
    if pa.types.is_date(typ):
        return v.isoformat()
    if pa.types.is_map(typ):
        return [{"key": json_value(k, typ.key_type), "value": json_value(x, typ.item_type)}
                for k, x in v]
    if pa.types.is_list(typ):
        return [json_value(x, typ.value_type) for x in v]
    if pa.types.is_struct(typ):
        return {f.name: json_value(v[f.name], f.type) for f in typ}
    return v


def text_value(v, typ):
    """What a CSV cell holds for a non-null pyarrow value."""
    if pa.types.is_dictionary(typ):
        return text_value(v, typ.value_type)
    if pa.types.is_floating(typ):
        return special_float(v, "nan", "inf", "-inf")  # finite ones compared as floats
    if pa.types.is_boolean(typ):
        return "true" if v else "false"
    if pa.types.is_binary(typ):
        return v.hex().upper()
    if pa.types.is_decimal(typ):
        return str(v)
    if pa.types.is_nested(typ):
        return json_value(v, typ)  # compared after json.loads
    if pa.types.is_string(typ):
        return v
    return str(json_value(v, typ))


# --- cat ----------------------------------------------------------------------


def test_cat_jsonl_values_equal_pyarrow(pq_file):
    expected = pq.read_table(pq_file)
    r = ok("cat", pq_file, "--format", "jsonl")
    lines = r.stdout.decode().splitlines()
    assert len(lines) == expected.num_rows
    rows = [json.loads(line, parse_float=decimal.Decimal) for line in lines]
    for name in expected.column_names:
        typ = expected.schema.field(name).type
        for i, v in enumerate(expected[name].to_pylist()):
            got = rows[i][name]
            want = json_value(v, typ)
            if name == "f32" and got is not None:
                got = as_float32(got)
                want = as_float32(want)
            elif pa.types.is_floating(typ) and isinstance(got, decimal.Decimal):
                got = float(got)
            assert nan_equal(got, want) or got == want, (name, i, got, want)
    assert list(rows[0].keys()) == expected.column_names
    assert r.stderr == b""


def test_cat_csv_values_equal_pyarrow(pq_file):
    expected = pq.read_table(pq_file)
    r = ok("cat", pq_file, "--format", "csv")
    text = r.stdout.decode()
    records = list(csv.reader(io.StringIO(text, newline="")))
    assert records[0] == expected.column_names
    records = records[1:]
    assert len(records) == expected.num_rows
    # Quoted empty strings are empty strings, unquoted empty fields nulls.
    raw_lines = text.split("\n")
    assert any(line.split(",")[2] == '""' for line in raw_lines[1:50] if line.count(",") > 10)
    for c, name in enumerate(expected.column_names):
        typ = expected.schema.field(name).type
        for i, v in enumerate(expected[name].to_pylist()):
            got = records[i][c]
            if v is None:
                assert got == "", (name, i, got)
                continue
            want = text_value(v, typ)
            if pa.types.is_nested(typ):
                got = json.loads(got, parse_float=decimal.Decimal)
            elif isinstance(want, float):
                got = float(got)
                if name == "f32":
                    got, want = as_float32(got), as_float32(want)
            assert got == want, (name, i, got, want)


def test_cat_arrow_stream_equals_pyarrow(pq_file):
    r = ok("cat", pq_file, "--format", "arrow")
    got = ipc.open_stream(r.stdout).read_all()
    assert_same_table(got, pq.read_table(pq_file))


def test_cat_columns_rows_groups_and_head(pq_file, table):
    # Top-level names and a dotted leaf path, as pq.read_table(columns=...).
    r = ok("cat", pq_file, "--columns", "a,st.y", "--format", "arrow")
    got = ipc.open_stream(r.stdout).read_all()
    # A struct selected by a leaf keeps only that field (pyarrow would
    # name the column "y").
    full = pq.read_table(pq_file)
    assert got.schema.names == ["a", "st"]
    assert got.schema.field("st").type == pa.struct([("y", pa.string())])
    assert got["a"].to_pylist() == full["a"].to_pylist()
    assert got["st"].to_pylist() == [None if v is None else {"y": v["y"]}
                                     for v in full["st"].to_pylist()]
    r = ok("cat", pq_file, "--row-groups", "2,0", "--format", "arrow")
    got = ipc.open_stream(r.stdout).read_all()
    pf = pq.ParquetFile(pq_file)
    assert_same_table(got, pf.read_row_groups([2, 0]))
    r = ok("cat", pq_file, "--head", "1234", "--format", "arrow")
    got = ipc.open_stream(r.stdout).read_all()
    assert_same_table(got, pq.read_table(pq_file).slice(0, 1234))
    r = ok("cat", pq_file, "--head", "0", "--format", "csv")
    assert r.stdout.decode() == ",".join(table.column_names) + "\n"
    r = ok("cat", pq_file, "--head", "3", "--row-groups", "1", "--format", "jsonl")
    assert [json.loads(x)["a"] for x in r.stdout.decode().splitlines()] == [1000, 1001, 1002]


def test_cat_unknown_column_and_row_group(pq_file):
    r = run("cat", pq_file, "--columns", "a,nope")
    assert r.returncode == FAILURE and r.stdout == b""
    err = r.stderr.decode()
    assert err.startswith("quiver cat: ") and "nope" in err and str(pq_file) in err
    assert err.count(str(pq_file)) == 1, err
    r = run("cat", pq_file, "--row-groups", "3")
    assert r.returncode == FAILURE and "row group 3" in r.stderr.decode()
    r = run("cat", pq_file, "--format", "xml")
    assert r.returncode == USAGE
    r = run("cat", pq_file, "--head", "-1")
    assert r.returncode == USAGE
    r = run("cat", pq_file.parent / "missing.parquet")
    assert r.returncode == FAILURE and "missing.parquet" in r.stderr.decode()


def corrupt_row_group(path, rg):
    """Overwrites the first page header of every column chunk of row group `rg`."""
    data = bytearray(path.read_bytes())
    for chunk in parquet_pages.read_file(path).row_groups[rg].columns:
        start = chunk.start
        data[start:start + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))


def test_cat_head_reads_only_what_it_needs(pq_file):
    corrupt_row_group(pq_file, 2)
    # The first rows come out; the corrupt row group is never read.
    r = ok("cat", pq_file, "--head", "10", "--format", "csv")
    assert len(list(csv.reader(io.StringIO(r.stdout.decode(), newline="")))) == 11
    r = ok("cat", pq_file, "--head", "2000", "--format", "jsonl")
    assert len(r.stdout.decode().splitlines()) == 2000
    # Reading on fails, naming the file and the row group.
    r = run("cat", pq_file, "--format", "csv")
    assert r.returncode == FAILURE
    err = r.stderr.decode()
    assert err.startswith("quiver cat: ") and str(pq_file) in err and "row group 2" in err, err


def test_cat_head_stops_within_a_column_chunk(tmp_path):
    """Pages past the first rows are not decoded: a corrupt header of the
    last page of the only row group goes unnoticed by --head."""
    n = 100_000
    path = tmp_path / "pages.parquet"
    pq.write_table(pa.table({"a": pa.array(range(n), pa.int64())}), path, data_page_size=8192,
                   compression="none", use_dictionary=False, write_statistics=False)
    pages = parquet_pages.read_file(path).row_groups[0].columns[0].pages
    assert len(pages) > 10
    data = bytearray(path.read_bytes())
    header = pages[-2].data_offset + pages[-2].compressed_size  # the last page's header
    data[header:header + 6] = b"\xff" * 6
    path.write_bytes(bytes(data))
    r = ok("cat", path, "--head", "5", "--format", "csv")
    assert r.stdout.decode().split() == ["a", "0", "1", "2", "3", "4"]
    r = run("cat", path, "--format", "csv")
    assert r.returncode == FAILURE
    err = r.stderr.decode()
    assert f"page {len(pages) - 1}" in err and "row group 0" in err and "'a'" in err, err


def test_cat_reads_arrow_ipc_and_stdin(tmp_path, pq_file):
    table = pa.table({"a": [1, 2, None], "s": ["x", None, "z"]})
    path = tmp_path / "t.arrows"
    with ipc.new_stream(str(path), table.schema) as w:
        w.write_table(table)
    r = ok("cat", path, "--format", "jsonl")
    assert [json.loads(x) for x in r.stdout.decode().splitlines()] == table.to_pylist()
    r = run("cat", path, "--columns", "a")
    assert r.returncode == FAILURE and "needs a Parquet input" in r.stderr.decode()
    r = subprocess.run([str(CLI), "cat", "-", "--head", "2", "--columns", "a", "--format", "jsonl"],
                       input=pq_file.read_bytes(), capture_output=True, timeout=60)
    assert r.returncode == OK and r.stdout == b'{"a":0}\n{"a":1}\n', r


def test_cat_closed_pipe_is_a_quiet_end(tmp_path):
    n = 400_000
    big = pa.table({"a": pa.array(range(n), pa.int64()), "s": pa.array([f"value {i}" for i in range(n)])})
    path = tmp_path / "big.parquet"
    pq.write_table(big, path, row_group_size=50_000)
    for fmt in ("table", "csv", "jsonl", "arrow"):
        p = subprocess.Popen([str(CLI), "cat", str(path), "--format", fmt],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdout.read(100)
        p.stdout.close()
        err = p.stderr.read()
        assert p.wait(timeout=60) == OK, (fmt, err)
        assert err == b"", (fmt, err)
    # And through a shell pipeline, as users write it.
    r = subprocess.run(f"'{CLI}' cat '{path}' --format csv | head -1; echo \"${{PIPESTATUS[0]}}\"",
                       shell=True, executable="/bin/bash", capture_output=True, timeout=60)
    assert r.stdout.decode().splitlines() == ["a,s", "0"], r
    assert r.stderr == b""


def test_cat_table_golden(tmp_path):
    (tmp_path / "typed.parquet").write_bytes(TYPED.read_bytes())
    text = cli_transcript("cat", "typed.parquet", "--head", "12", cwd=tmp_path)
    text += cli_transcript("cat", "typed.parquet", "--head", "4", "--max-width", "8",
                           "--columns", "i32,name,point.y,attrs", cwd=tmp_path)
    text += cli_transcript("cat", "typed.parquet", "--head", "0", cwd=tmp_path)
    check_golden("cat/typed_table.txt", text)


def test_cat_table_layout(pq_file):
    r = ok("cat", pq_file, "--head", "30", "--max-width", "12")
    lines = r.stdout.decode().splitlines()
    assert lines[0].split()[:3] == ["a", "s", "e"]
    assert set(lines[2]) <= {"-", " "}
    assert len(lines) == 3 + 30
    assert "null" in lines[3]  # s is null in row 0
    assert "\\n" in r.stdout.decode() or "\u2026" in r.stdout.decode()  # escaped / cut
    # Every data line is as long as the rule (aligned columns) or shorter
    # only by trailing blanks.
    width = len(lines[2])
    assert all(len(x) <= width for x in lines[3:])


# --- schema -------------------------------------------------------------------


def test_schema_golden(tmp_path):
    (tmp_path / "typed.parquet").write_bytes(TYPED.read_bytes())
    text = cli_transcript("schema", "typed.parquet", cwd=tmp_path)
    text += cli_transcript("schema", "--json", "typed.parquet", cwd=tmp_path)
    check_golden("schema/typed.txt", text)


def test_schema_json_matches_pyarrow(tmp_path):
    table = sample_table(10).replace_schema_metadata({"huggingface": '{"info": 1}'})
    table = table.set_column(0, pa.field("a", pa.int64(), nullable=False,
                                         metadata={"PARQUET:field_id": "7"}),
                             table["a"])
    path = tmp_path / "s.parquet"
    pq.write_table(table, path)
    doc = json.loads(ok("schema", "--json", path).stdout)
    arrow_schema = pq.read_schema(path)
    assert [f["name"] for f in doc["arrow"]["fields"]] == arrow_schema.names
    for f, pf in zip(doc["arrow"]["fields"], arrow_schema):
        assert f["nullable"] == pf.nullable
    assert doc["arrow"]["fields"][0]["type"] == "int64"
    assert doc["arrow"]["metadata"]["huggingface"] == '{"info": 1}'
    st = next(f for f in doc["arrow"]["fields"] if f["name"] == "st")
    assert [c["name"] for c in st["children"]] == ["x", "y"]
    # The Parquet tree: every column path of pyarrow's ParquetSchema is a leaf.
    pschema = pq.ParquetFile(path).schema
    leaves = [n["path"] for n in doc["parquet"] if n["is_leaf"]]
    assert leaves == [pschema.column(i).path for i in range(len(pschema))]
    a = next(n for n in doc["parquet"] if n["path"] == "a")
    assert a["repetition_type"] == "REQUIRED" and a["type"] == "INT64" and a["field_id"] == 7
    s = next(n for n in doc["parquet"] if n["path"] == "s")
    assert s["logical_type"] == "STRING" and s["converted_type"] == "UTF8"
    assert doc["warnings"] == []
    text = ok("schema", path).stdout.decode()
    assert "arrow schema:" in text and "parquet schema:" in text and "huggingface" in text


def test_schema_errors(tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 not really")
    r = run("schema", bad)
    assert r.returncode == FAILURE and r.stderr.decode().startswith("quiver schema: ")
    assert "bad.parquet" in r.stderr.decode() and r.stdout == b""
    assert run("schema").returncode == USAGE


# --- rewrite / convert from Parquet ----------------------------------------------


def test_rewrite_equals_input_and_keeps_metadata(tmp_path, table):
    # An input with key/value metadata but no ARROW:schema (pyarrow's
    # store_schema=False drops both; quiver's --no-store-schema keeps the pairs).
    meta = {"huggingface": '{"dataset": "x"}', "pandas": '{"columns": []}', "other": "1"}
    arrow_path = tmp_path / "in.arrow"
    plain = table.drop_columns(["dict", "u64", "ts"])  # types ARROW:schema would restore
    with ipc.new_file(str(arrow_path), plain.schema.with_metadata(meta)) as w:
        w.write_table(plain)
    src = tmp_path / "in.parquet"
    ok("convert", arrow_path, src, "--no-store-schema", "--row-group-size", "700")
    assert b"ARROW:schema" not in pq.ParquetFile(src).metadata.metadata
    out = tmp_path / "out.parquet"
    r = ok("rewrite", src, out, "--compression", "zstd", "--row-group-size", "1000")
    assert b"3000 rows" in r.stdout
    assert_same_table(pq.read_table(out), pq.read_table(src))
    md = pq.ParquetFile(out).metadata
    kv = md.metadata
    for k, v in meta.items():
        assert kv[k.encode()] == v.encode()
    # ARROW:schema is written by the writer (the input had none).
    assert b"ARROW:schema" in kv
    # Row groups follow the writer options, not the input's 700 rows.
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [1000, 1000, 1000]
    assert md.row_group(0).column(0).compression == "ZSTD"


def test_rewrite_regenerates_arrow_schema(tmp_path, table):
    src = tmp_path / "in.parquet"
    pq.write_table(table.replace_schema_metadata({"k": "v"}), src)
    out = tmp_path / "out.parquet"
    ok("rewrite", src, out)
    kv_in = pq.ParquetFile(src).metadata.metadata
    kv_out = pq.ParquetFile(out).metadata.metadata
    assert kv_out[b"k"] == b"v"
    assert list(kv_out).count(b"ARROW:schema") == 1
    # The regenerated schema reads back as the original types (dictionary,
    # tz, uint64) and the same metadata.
    got = pq.read_table(out)
    assert got.schema == pq.read_table(src).schema
    assert got.schema.metadata == {b"k": b"v"}
    assert kv_in[b"k"] == b"v"


def test_convert_reads_parquet(tmp_path, pq_file):
    out = tmp_path / "c.parquet"
    r = ok("convert", pq_file, out, "--no-dictionary")
    assert b"(Parquet, " in r.stdout
    assert_same_table(pq.read_table(out), pq.read_table(pq_file))
    # From standard input too.
    r = subprocess.run([str(CLI), "convert", "-", str(tmp_path / "d.parquet")],
                       input=pq_file.read_bytes(), capture_output=True, timeout=60)
    assert r.returncode == OK, r.stderr
    assert_same_table(pq.read_table(tmp_path / "d.parquet"), pq.read_table(pq_file))


def page_bodies(path):
    data = path.read_bytes()
    fs = parquet_pages.read_file(path)
    return [(chunk.row_group, ".".join(chunk.path), p.type, parquet_pages.page_body(data, p))
            for chunk in fs.chunks() for p in chunk.pages]


def test_rewrite_cdc_pages_equal_convert_cdc(tmp_path):
    n = 60_000
    table = pa.table({
        "id": pa.array(range(n), pa.int64()),
        "s": pa.array([f"text {i * 7919 % 10007}" for i in range(n)]),
        "f": pa.array([(i * 31) % 977 / 7 for i in range(n)]),
    })
    arrow_path = tmp_path / "in.arrow"
    with ipc.new_file(str(arrow_path), table.schema) as w:
        w.write_table(table, max_chunksize=4096)
    plain = tmp_path / "plain.parquet"
    pq.write_table(table, plain, row_group_size=25_000)
    cdc_opts = ["--cdc", "--compression", "zstd", "--cdc-min-size", "4096", "--cdc-max-size", "16384"]
    converted = tmp_path / "converted.parquet"
    rewritten = tmp_path / "rewritten.parquet"
    ok("convert", arrow_path, converted, *cdc_opts)
    ok("rewrite", plain, rewritten, *cdc_opts)
    a, b = page_bodies(converted), page_bodies(rewritten)
    assert len(a) > 3 * 3  # several pages per column
    assert a == b
    # Same schema, no extra metadata: the files are byte for byte the same.
    assert converted.read_bytes() == rewritten.read_bytes()


def test_rewrite_refuses_its_input(tmp_path, pq_file):
    before = pq_file.read_bytes()
    (tmp_path / "hard.parquet").hardlink_to(pq_file)
    (tmp_path / "sym.parquet").symlink_to(pq_file)
    for out in (pq_file, tmp_path / "hard.parquet", tmp_path / "sym.parquet",
                Path(f"{tmp_path}/./t.parquet")):
        r = run("rewrite", pq_file, out)
        assert r.returncode == USAGE, (out, r.stderr)
        assert "--in-place" in r.stderr.decode()
    r = run("convert", pq_file, pq_file)
    assert r.returncode == USAGE
    assert pq_file.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard.parquet", "sym.parquet", "t.parquet"]
    assert run("rewrite", pq_file).returncode == USAGE  # no OUT, no --in-place
    assert run("rewrite", pq_file, tmp_path / "x.parquet", "--in-place").returncode == USAGE
    assert run("rewrite", pq_file, tmp_path / "x.parquet", "--compression", "nope").returncode == USAGE


def test_rewrite_in_place(tmp_path, pq_file):
    expected = pq.read_table(pq_file)
    ok("rewrite", pq_file, "--in-place", "--row-group-size", "500", "--compression", "gzip")
    md = pq.ParquetFile(pq_file).metadata
    assert md.num_row_groups == 6 and md.row_group(0).column(0).compression == "GZIP"
    assert_same_table(pq.read_table(pq_file), expected)
    ok("rewrite", pq_file, pq_file, "--in-place")
    assert_same_table(pq.read_table(pq_file), expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.parquet"]


def test_rewrite_failures_leave_nothing(tmp_path, pq_file):
    corrupt_row_group(pq_file, 1)
    before = sorted(p.name for p in tmp_path.iterdir())
    r = run("rewrite", pq_file, tmp_path / "out.parquet")
    assert r.returncode == FAILURE
    err = r.stderr.decode()
    assert err.startswith("quiver rewrite: ") and "t.parquet" in err and "row group 1" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    # In place: the input stays as it was.
    data = pq_file.read_bytes()
    r = run("rewrite", pq_file, "--in-place")
    assert r.returncode == FAILURE
    assert pq_file.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    # Not Parquet.
    arrow_path = tmp_path / "x.arrow"
    with ipc.new_file(str(arrow_path), pa.schema([("a", pa.int64())])) as w:
        pass
    r = run("rewrite", arrow_path, tmp_path / "out.parquet")
    assert r.returncode == FAILURE and "not a Parquet file" in r.stderr.decode()
    assert not (tmp_path / "out.parquet").exists()


# --- progress line -----------------------------------------------------------------


def run_with_tty_stderr(args, timeout=60):
    """Runs the CLI with stderr on a pseudo-terminal; returns (exit code, what
    the terminal received)."""
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([str(CLI), *map(str, args)], stdout=subprocess.DEVNULL,
                             stderr=slave, stdin=subprocess.DEVNULL)
        os.close(slave)
        slave = -1
        received = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                received += chunk
            elif p.poll() is not None:
                break
        return p.wait(timeout=timeout), received
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)


@pytest.mark.parametrize("command", ["convert", "rewrite", "cat"])
def test_progress_line_on_a_terminal_only(command, tmp_path, pq_file):
    args = {"convert": ["convert", pq_file, tmp_path / "o.parquet"],
            "rewrite": ["rewrite", pq_file, tmp_path / "o.parquet"],
            "cat": ["cat", pq_file, "--format", "csv"]}[command]
    code, received = run_with_tty_stderr(args)
    assert code == OK, received
    text = received.decode()
    assert "3,000 / 3,000 rows (100%)" in text, text
    assert "MB/s" in text and text.endswith("\r\n")  # finished with a newline (tty: \r\n)
    # Not a terminal: nothing on stderr.
    r = run(*args)
    assert r.returncode == OK and r.stderr == b""
    # --quiet: nothing on the terminal.
    code, received = run_with_tty_stderr([*args, "--quiet"])
    assert code == OK and received == b"", received
