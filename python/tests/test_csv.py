"""quiver.read_csv and `quiver convert` on CSV, judged by pyarrow.csv.read_csv
on the same bytes (types and values): hand-made edge cases, random CSVs with
quotes, delimiters, CR/LF inside values and CRLF line ends, errors located
by line and column, and the options pyarrow has that Quiver refuses."""

import gzip
import io
import os
import random
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

import quiver

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))
needs_cli = pytest.mark.skipif(not CLI.is_file(), reason=f"no quiver CLI at {CLI}")

EDGE_CASES = [
    "a\n1\ntrue\n", "a\n2\ntrue\n", "a\n+1\n", "a\n007\n", "a\n 1\n", "a\n1e5\n", "a\ninf\n",
    "a\n-Infinity\n", "a\n12:30\n", "a\n12:30:15\n", "a\n12:30:15.5\n",
    "a\n2020-01-01\n2020-01-01 10:00\n", "a\n2020-01-01T10:00:00.123\n",
    "a\n2020-01-01 10:00:00Z\n", "a\n2020-01-01 10:00:00+01:00\n",
    "a\n2020-01-01 10:00:00+0100\n", "a\n2020-01-01 10:00:00.5+01\n", "a\nTrue\nFALSE\n",
    "a\nNA\n\n", "a\nx\nNA\n\n", 'a\n""\n1\n', ",a,a\n1,2,3\n", "a\n1.\n", "a\n.5\n", "a\n1_0\n",
    "a\n0x10\n", "a\n9223372036854775808\n", "a\n-0\n", b"a\n\xff\n", "\ufeffa\n1\n", 'a\n"x"y\n',
    'a\nx"y\n', "a\r1\r2\r", "a\n2020-1-1\n", "a\n1.5e\n", "a\n  \n", "a\nnan\n1\n",
    "a\n24:00:00\n", "a\n2020-02-30\n", "a\n10000-01-01\n", "a\n1.0E+3\n", "a\n+inf\n",
    "a,b\n1,2\n\n3,4\n", 'a\n"1"\n2\n', 'a,b\n"",x\n1,y\n', 'a\n"line\nbreak"\n', "a,b\n",
    "a,b\r\n1,2\r\n3,4", 'a,b\n"x,""y""",2\n', "a\n1\n2\n\n", "a,b\n1,\n,2\n",
    "a,b\n1,2\r\n3,4\n5,6\r\n",  # CRLF and LF mixed
    "a,b,\n1,2,\n",  # trailing delimiters: an empty-named column
    "x\n" + "y" * 300000 + "\n",  # a huge field
]


def pyarrow_read(data, **kw):
    kw.setdefault("parse_options", pcsv.ParseOptions(newlines_in_values=True))
    return pcsv.read_csv(io.BytesIO(data), **kw)


def assert_same(data, **kw):
    expected = pyarrow_read(data, **{k: v for k, v in kw.items() if k != "quiver_only"})
    got = pa.table(quiver.read_csv(data, **{k: v for k, v in kw.items()
                                            if k != "parse_options"}))
    assert got.schema == expected.schema, (data[:200], got.schema, expected.schema)
    assert got.equals(expected), (data[:200], got.to_pydict(), expected.to_pydict())


@pytest.mark.parametrize("text", EDGE_CASES, ids=range(len(EDGE_CASES)))
def test_edge_cases_read_as_pyarrow(text):
    data = text if isinstance(text, bytes) else text.encode()
    assert_same(data)


@pytest.mark.parametrize("text", ["a,b\n1\n", "a,b\n1,2,\n", "a\n1,5\n"])
def test_ragged_rows_are_located_errors(text):
    with pytest.raises(pa.ArrowInvalid):
        pyarrow_read(text.encode())
    with pytest.raises(quiver.InvalidError, match=r"<bytes>:2: expected \d columns, got \d"):
        quiver.read_csv(text.encode())


def test_empty_file_refused_as_pyarrow():
    with pytest.raises(pa.ArrowInvalid):
        pyarrow_read(b"")
    with pytest.raises(quiver.InvalidError, match="empty CSV file"):
        quiver.read_csv(b"")


def random_csv(rng, rows, cols):
    """Values of one kind per column (ints, floats, dates, timestamps, bools,
    text with quotes / delimiters / newlines), nulls, CRLF or LF."""
    kinds = [rng.choice(["int", "float", "date", "ts", "bool", "text", "mixed"])
             for _ in range(cols)]
    pieces = ["a", "b,c", '"', "\r\n", "\n", "x y", "é", "", "NA", "1", ";", "\t"]

    def value(kind):
        if rng.random() < 0.1:
            return rng.choice(["", "NA", "null", "NaN"])
        if kind == "int":
            return str(rng.randint(-10**12, 10**12))
        if kind == "float":
            return repr(rng.uniform(-1e6, 1e6))
        if kind == "date":
            return f"{rng.randint(1900, 2100):04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        if kind == "ts":
            return (f"2020-0{rng.randint(1, 9)}-1{rng.randint(0, 9)} "
                    f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}")
        if kind == "bool":
            return rng.choice(["true", "false", "True", "FALSE"])
        if kind == "mixed":
            return rng.choice([str(rng.randint(0, 9)), "2020-01-01", "x"])
        return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))

    lines = [",".join(f"c{i}" for i in range(cols))]
    for _ in range(rows):
        fields = []
        for k in kinds:
            v = value(k)
            if any(ch in v for ch in ',"\r\n') or rng.random() < 0.1:
                v = '"' + v.replace('"', '""') + '"'
            fields.append(v)
        lines.append(",".join(fields))
    eol = rng.choice(["\n", "\r\n"])
    return (eol.join(lines) + eol).encode()


@pytest.mark.parametrize("seed", range(12))
def test_random_csv_equals_pyarrow(seed):
    rng = random.Random(seed)
    data = random_csv(rng, rng.randint(1, 400), rng.randint(1, 6))
    assert_same(data)
    # Small blocks: rows, quotes and CRLF split across block boundaries.
    expected = pyarrow_read(data)
    got = pa.table(quiver.read_csv(data, read_options={"block_size": rng.randint(1, 300)},
                                   infer_rows="all"))
    assert got.equals(expected)


def test_options_as_pyarrow():
    data = b"# comment\nx|y|z\n1|a|yes\n2|NA|no\n"
    ro = pcsv.ReadOptions(skip_rows=1)
    po = pcsv.ParseOptions(delimiter="|")
    co = pcsv.ConvertOptions(true_values=["yes"], false_values=["no"], strings_can_be_null=True,
                             column_types={"x": pa.int16()}, include_columns=["z", "x", "y"])
    expected = pcsv.read_csv(io.BytesIO(data), ro, po, co)
    # pyarrow's option objects, quiver's, dicts and keywords give one table.
    for got in (quiver.read_csv(data, ro, po, co),
                quiver.read_csv(data, quiver.csv.ReadOptions(skip_rows=1),
                                quiver.csv.ParseOptions(delimiter="|"),
                                quiver.csv.ConvertOptions(
                                    true_values=["yes"], false_values=["no"],
                                    strings_can_be_null=True, column_types={"x": "int16"},
                                    include_columns=["z", "x", "y"])),
                quiver.read_csv(data, {"skip_rows": 1}, {"delimiter": "|"},
                                {"true_values": ["yes"], "false_values": ["no"],
                                 "strings_can_be_null": True, "column_types": {"x": pa.int16()},
                                 "include_columns": ["z", "x", "y"]}),
                quiver.read_csv(data, skip_rows=1, delimiter="|", true_values=["yes"],
                                false_values=["no"], strings_can_be_null=True,
                                column_types={"x": pa.int16()}, include_columns=["z", "x", "y"])):
        assert pa.table(got).equals(expected)
    no_header = b"1,2\n3,4\n"
    assert pa.table(quiver.read_csv(no_header, autogenerate_column_names=True)).equals(
        pyarrow_read(no_header, read_options=pcsv.ReadOptions(autogenerate_column_names=True)))
    assert pa.table(quiver.read_csv(no_header, column_names=["p", "q"])).equals(
        pyarrow_read(no_header, read_options=pcsv.ReadOptions(column_names=["p", "q"])))


def test_explicit_types_convert_as_pyarrow():
    data = b"a,b,c,d,e\n1,2020-01-01 10:00:00.123,12:30:00,1.5,x\n,2020-01-02,01:00:00,,\n"
    types = {"a": pa.int8(), "b": pa.timestamp("ms"), "c": pa.time32("s"), "d": pa.float32(),
             "e": pa.large_string()}
    expected = pyarrow_read(data, convert_options=pcsv.ConvertOptions(column_types=types))
    got = pa.table(quiver.read_csv(data, column_types=types))
    assert got.equals(expected)


def test_unsupported_options_refused_by_name():
    for kw in ({"escape_char": "\\"}, {"auto_dict_encode": True}, {"skip_rows_after_names": 1},
               {"timestamp_parsers": ["%Y"]}, {"include_missing_columns": True},
               {"invalid_row_handler": lambda row: "skip"}):
        name = next(iter(kw))
        with pytest.raises(quiver.NotImplementedError, match=name):
            quiver.read_csv(b"a\n1\n", **kw)
    with pytest.raises(TypeError, match="bogus"):
        quiver.read_csv(b"a\n1\n", bogus=1)


def test_type_change_after_inference_names_the_way_out():
    data = ("n\n" + "".join(f"{i}\n" for i in range(200000)) + "oops\n").encode()
    with pytest.raises(quiver.InvalidError,
                       match=r"<bytes>:200002: column 'n' \(number 1\): 'oops' is not a valid "
                             r"int64 .*--infer-rows all.*--schema 'n:string'"):
        quiver.read_csv(data)
    got = pa.table(quiver.read_csv(data, infer_rows="all"))
    assert got.schema.field("n").type == pa.string()
    assert got.num_rows == 200001 and got["n"][-1].as_py() == "oops"


def test_on_error_skip_counts_rejects():
    data = b"a,b\n1,2\nx,3\n4\n5,6\n"
    got = pa.table(quiver.read_csv(data, column_types={"a": pa.int64()}, on_error="skip"))
    assert got.to_pydict() == {"a": [1, 5], "b": [2, 6]}
    assert quiver.read_csv.last_rows_rejected == 2


def test_encoding_latin1_as_pyarrow():
    data = "name\ncafé\nnaïve\n".encode("latin-1")
    expected = pyarrow_read(data, read_options=pcsv.ReadOptions(encoding="latin1"))
    assert pa.table(quiver.read_csv(data, encoding="latin1")).equals(expected)


def test_invalid_utf8_is_binary_as_pyarrow():
    data = b"s,t\n\xff\xfe,ok\nabc,fine\n"
    assert_same(data)


def cli(*args, stdin=None):
    return subprocess.run([str(CLI), *map(str, args)], input=stdin, capture_output=True,
                          timeout=120)


@needs_cli
def test_convert_csv_equals_pyarrow(tmp_path):
    rng = random.Random(47)
    data = random_csv(rng, 3000, 6)
    src = tmp_path / "in.csv"
    src.write_bytes(data)
    # As pyarrow writes it to Parquet (timestamp[s] is stored as [ms]).
    sink = pa.BufferOutputStream()
    pq.write_table(pyarrow_read(data), sink)
    expected = pq.read_table(pa.BufferReader(sink.getvalue()))
    cases = [("in.csv", data), ("in.csv.gz", gzip.compress(data))]
    try:
        cases.append(("in.csv.zst", subprocess.run(["zstd", "-q", "-c"], input=data,
                                                   capture_output=True, check=True).stdout))
    except (OSError, subprocess.CalledProcessError):
        pass  # no zstd program: .zst is covered where it is installed
    for name, payload in cases:
        path = tmp_path / name
        path.write_bytes(payload)
        out = tmp_path / (name + ".parquet")
        r = cli("convert", path, out, "--block-size", "4096", "--infer-rows", "all")
        assert r.returncode == 0, r.stderr
        assert pq.read_table(out).equals(expected)
    # TSV by extension, ';' detected and printed, stdin.
    semi = data.replace(b",", b";") if b";" not in data else None
    plain = b"a;b\n1;x\n2;y\n"
    r = cli("convert", "-", tmp_path / "s.parquet", "--input-format", "csv", stdin=plain)
    assert r.returncode == 0, r.stderr
    assert b"delimiter ';' (detected" in r.stderr
    assert pq.read_table(tmp_path / "s.parquet").equals(
        pyarrow_read(plain, parse_options=pcsv.ParseOptions(delimiter=";")))
    (tmp_path / "t.tsv").write_bytes(b"a\tb\n1\t2\n")
    r = cli("convert", tmp_path / "t.tsv", tmp_path / "t.parquet")
    assert r.returncode == 0, r.stderr
    assert pq.read_table(tmp_path / "t.parquet").to_pydict() == {"a": [1], "b": [2]}
    del semi


@needs_cli
def test_convert_schema_errors_and_rejects(tmp_path):
    src = tmp_path / "bad.csv"
    src.write_bytes(b"a,b\n1,2020-01-01 00:00:01\nx,2020-01-02\n4\n5,2020-01-03\n")
    out = tmp_path / "out.parquet"
    r = cli("convert", src, out, "--schema", "a:int32,b:timestamp[ms]")
    assert r.returncode == 1
    assert f"{src}:3: column 'a' (number 1): 'x' is not a valid int32".encode() in r.stderr
    assert not out.exists()  # no partial output
    rejects = tmp_path / "rejects.csv"
    r = cli("convert", src, out, "--schema", "a:int32,b:timestamp[ms]", "--on-error", "skip",
            "--rejects", rejects)
    assert r.returncode == 1 and b"2 rows rejected" in r.stderr
    assert rejects.read_bytes() == b"x,2020-01-02\n4\n"
    t = pq.read_table(out)
    assert t.schema == pa.schema([("a", pa.int32()), ("b", pa.timestamp("ms"))])
    assert t["a"].to_pylist() == [1, 5]
    r = cli("convert", src, out, "--on-error", "skip", "--allow-rejects", "-q",
            "--schema", "a:int32")
    assert r.returncode == 0
    r = cli("convert", tmp_path / "x.jsonl", out)
    assert r.returncode == 1 and b"x.jsonl': No such file" in r.stderr  # JSON Lines: test_json.py


def test_threads_give_the_same_table():
    data = random_csv(random.Random(5), 2000, 6)
    one = pa.table(quiver.read_csv(data, use_threads=False, block_size=4096))
    many = pa.table(quiver.read_csv(data, use_threads=True, block_size=4096))
    assert one.equals(many) and one.equals(pyarrow_read(data))


@needs_cli
def test_convert_threads_write_the_same_file(tmp_path):
    src = tmp_path / "in.csv"
    src.write_bytes(random_csv(random.Random(6), 3000, 6))
    outs = []
    for threads in ("1", "2", "0"):
        out = tmp_path / f"t{threads}.parquet"
        r = cli("convert", src, out, "--threads", threads, "--block-size", "8192", "-q")
        assert r.returncode == 0, r.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == outs[2]
    r = cli("convert", tmp_path / "t1.parquet", tmp_path / "x.parquet", "--threads", "2")
    assert r.returncode == 2 and b"--threads applies to CSV / TSV input only" in r.stderr
