"""quiver.read_json and `quiver convert` of JSON Lines against pyarrow.json
(src/quiver/json): types and values equal, or a located error."""

import gzip
import io
import json
import os
import random
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.json as pj
import pyarrow.parquet as pq
import pytest

import quiver

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))
needs_cli = pytest.mark.skipif(not CLI.is_file(), reason=f"no quiver CLI at {CLI}")

EDGE_CASES = [
    '{"a":1}\n{"a":2.5}\n',  # int widened to double
    '{"a":1.0}\n{"a":1}\n',
    '{"a":null}\n{"a":null}\n',  # all null: null type
    '{"a":null}\n{"a":3}\n',
    '{"a":true}\n{"a":null}\n{"a":false}\n',
    '{"a":"x"}\n{"a":"2020-01-01"}\n',
    '{"a":"2020-01-01"}\n{"a":"2020-01-01T00:00:01"}\n',  # timestamp[s]
    '{"a":"2020-01-01T00:00:01Z"}\n{"a":"2020-01-01 10:00:00+01:00"}\n',
    '{"a":"2020-01-01 00:00:01.5"}\n',  # a fraction: string
    '{"a":"12:00:00"}\n',
    '{"a":99999999999999999999}\n',  # beyond 64 bits: double
    '{"a":-99999999999999999999,"s":"99999999999999999999"}\n',
    '{"a":18446744073709551615}\n',
    '{"a":-9223372036854775808}\n{"a":9223372036854775807}\n',
    '{"a":1e3}\n{"a":-0.0}\n',
    '{"a":null}\n{"a":[1,2]}\n{"a":[]}\n{"a":[null,1.5]}\n',
    '{"a":[[1],[2,3],[]]}\n{"a":[null]}\n',
    '{"a":{"x":1}}\n{"a":{"y":"s"}}\n{"b":true}\n',  # fields added later, missing -> null
    '{"a":{"b":{"c":{"d":[{"e":1},{"f":"x"}]}}}}\n{"a":null}\n{"a":{"b":null}}\n',
    '{"a":[{"x":1},{"x":2.5,"y":[true]}]}\n',
    '\n\n{"a":1}\n  \n{"a":2}',  # blank lines, no final newline
    '{"a":1}\r\n{"a":2}\r\n',
    '{"a":1} {"a":2}\n',  # two objects on a line
    '{"a":"\\u00e9\\ud83d\\ude00\\n\\t\\"\\\\"}\n{"a":"h\u00e9 \u4e16"}\n',  # escapes, UTF-8
    '{"b":1,"a":2}\n{"a":3,"b":4}\n',  # field order from the first row
    '{}\n{}\n',
    '{}\n{"a":1}\n',
    '{"a":[]}\n',  # an empty list: list<null>
    '{"a":{}}\n',  # an empty struct
    '{"a":"' + "y" * 300000 + '"}\n',  # a huge value
]


def pyarrow_read(data, **kw):
    return pj.read_json(io.BytesIO(data), **kw)


def assert_same(data, **kw):
    expected = pyarrow_read(data, **kw)
    got = pa.table(quiver.read_json(data, **kw))
    assert got.schema == expected.schema, (data[:200], got.schema, expected.schema)
    assert got.num_rows == expected.num_rows
    assert got.equals(expected), (data[:200], got.to_pydict(), expected.to_pydict())


@pytest.mark.parametrize("text", EDGE_CASES, ids=range(len(EDGE_CASES)))
def test_edge_cases_read_as_pyarrow(text):
    assert_same(text.encode())


# (input, what the located error says)
ERRORS = [
    ('{"a":1}\n{"a":"x"}\n', ":2: column /a changed from number to string"),
    ('{"a":true}\n{"a":1}\n', ":2: column /a changed from boolean to number"),
    ('{"a":{"x":1}}\n{"a":5}\n', ":2: column /a changed from object to number"),
    ('{"a":[1,"x"]}\n', ":1: column /a/[] changed from number to string"),
    ('{"a":1,"a":2}\n', ":1: field /a is given twice"),
    ('{"a":1}\n[1,2]\n', ":2: a JSON Lines row must be an object, got array"),
    ('{"a":1}\n\n{"a":}\n', ":3: invalid JSON"),
    ('{"a":1}\n{"a":"x\n', ":2: invalid JSON"),
    ('', "empty JSON Lines input"),
]


@pytest.mark.parametrize("text,message", ERRORS, ids=range(len(ERRORS)))
def test_errors_are_located(text, message):
    with pytest.raises(Exception):
        pyarrow_read(text.encode())  # pyarrow refuses them too
    with pytest.raises(quiver.InvalidError) as err:
        quiver.read_json(text.encode())
    assert "<bytes>" + message in str(err.value) or message in str(err.value), str(err.value)


def test_invalid_json_names_line_and_byte_offset():
    data = b'{"a":1}\n{"a":2}\n{"a":tru}\n'
    with pytest.raises(quiver.InvalidError, match=r"<bytes>:3: invalid JSON .* byte offset 16"):
        quiver.read_json(data)


def test_widening_across_blocks_as_pyarrow():
    # pyarrow widens over the whole input: int64 in the first blocks, double later.
    data = b'{"a":1,"b":null}\n' * 2000 + b'{"a":2.5,"b":"x","c":[1]}\n'
    kw = {"read_options": pj.ReadOptions(block_size=4096)}
    assert_same(data, **kw)
    assert quiver.read_json(data, block_size=4096).num_rows == 2001


def test_explicit_schema_and_unexpected_fields():
    data = b'{"a":1,"b":"x","c":{"d":2,"e":3}}\n{"a":null,"z":true}\n'
    schema = pa.schema([("c", pa.struct([("d", pa.int32())])), ("a", pa.int16())])
    for behavior in ("infer", "ignore"):
        opts = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior=behavior)
        assert_same(data, parse_options=opts)
    opts = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
    with pytest.raises(pa.ArrowInvalid):
        pyarrow_read(data, parse_options=opts)
    with pytest.raises(quiver.InvalidError, match="<bytes>:1: unexpected field /b"):
        quiver.read_json(data, parse_options=opts)
    # A value that does not fit the given type is located.
    with pytest.raises(quiver.InvalidError, match=r":1: column /a: value 300000 does not convert"):
        quiver.read_json(b'{"a":300000}\n', explicit_schema=schema)


def test_options_as_dicts_keywords_and_refusals(tmp_path):
    data = b'{"a":1}\n{"b":2}\n'
    expected = pyarrow_read(data)
    assert pa.table(quiver.read_json(data, read_options={"block_size": 8})).equals(expected)
    assert pa.table(quiver.read_json(io.BytesIO(data), use_threads=False)).equals(expected)
    path = tmp_path / "x.jsonl.gz"
    path.write_bytes(gzip.compress(data))
    assert pa.table(quiver.read_json(path)).equals(expected)
    with pytest.raises(quiver.NotImplementedError, match="memory_pool"):
        quiver.read_json(data, memory_pool=pa.default_memory_pool())
    with pytest.raises(quiver.NotImplementedError, match="'bogus'"):
        quiver.read_json(data, parse_options={"bogus": 1})
    with pytest.raises(ValueError, match="unexpected_field_behavior"):
        quiver.read_json(data, unexpected_field_behavior="drop")


def random_value(rng, depth, kind, struct_lists=True):
    if rng.random() < 0.15:
        return None
    if kind == "int":
        return rng.choice([rng.randint(-10**6, 10**6), rng.randint(-2**63, 2**63 - 1)])
    if kind == "num":
        return rng.choice([rng.randint(-100, 100), rng.uniform(-1e9, 1e9), 1e300])
    if kind == "str":
        return rng.choice(["", "plain", "h\u00e9 \u4e16 \U0001f600", 'q"\\/\n\t', "2020-01-01"])
    if kind == "ts":
        return f"20{rng.randint(10, 30)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T0{rng.randint(0, 9)}:00:00"
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "list":
        return [random_value(rng, depth + 1, "num") for _ in range(rng.randint(0, 4))]
    # a struct, some fields missing
    out = {}
    for name, sub in (("i", "int"), ("s", "str"), ("l", "list")):
        if rng.random() < 0.7 and (struct_lists or sub != "list"):
            out[name] = random_value(rng, depth + 1, sub)
    return out


def random_jsonl(rng, rows, struct_lists=True):
    kinds = {"i": "int", "n": "num", "s": "str", "t": "ts", "b": "bool", "l": "list", "o": "obj"}
    lines = []
    for _ in range(rows):
        row = {k: random_value(rng, 0, v, struct_lists) for k, v in kinds.items()
               if rng.random() < 0.9}
        if rng.random() < 0.05:
            row["late"] = rng.randint(0, 5)  # a field seen in few rows
        lines.append(json.dumps(dict(rng.sample(list(row.items()), len(row))), ensure_ascii=rng.random() < 0.5))
        if rng.random() < 0.02:
            lines.append("")
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_json_lines_as_pyarrow(seed):
    rng = random.Random(seed)
    data = random_jsonl(rng, 1500)
    assert len(data) < 1 << 20  # one pyarrow block (see below)
    assert_same(data)
    # Over several blocks pyarrow 26 builds invalid struct<list> columns
    # ("Length spanned by list offsets larger than values array") and wrong
    # values: Quiver's small blocks are checked against its one block (equal
    # to pyarrow's above) and against json.loads.
    small = pa.table(quiver.read_json(data, block_size=1 << 14))
    small.validate(full=True)
    assert small.equals(pa.table(quiver.read_json(data)))
    rows = [json.loads(line) for line in data.decode().splitlines() if line.strip()]
    lists = [r["o"]["l"] if r.get("o") and r["o"].get("l") is not None else None for r in rows]
    got = [o["l"] if o else None for o in small.column("o").to_pylist()]
    assert got == [None if v is None else [None if x is None else float(x) for x in v]
                   for v in lists]


def cli(*args, stdin=None):
    return subprocess.run([str(CLI), *map(str, args)], input=stdin, capture_output=True,
                          timeout=120)


def pyarrow_parquet_of(table, tmp_path):
    # pyarrow's own Parquet round trip of its JSON table (timestamp[s] is stored as ms).
    pq.write_table(table, tmp_path / "expected.parquet")
    return pq.read_table(tmp_path / "expected.parquet")


@needs_cli
def test_convert_jsonl_equals_pyarrow(tmp_path):
    # pyarrow 26 sometimes builds an invalid struct<list> column (see above):
    # without lists in structs here, so that pyarrow can judge.
    data = random_jsonl(random.Random(47), 3000, struct_lists=False)
    expected = pyarrow_parquet_of(pyarrow_read(data), tmp_path)
    cases = [("in.jsonl", data), ("in.ndjson", data), ("in.jsonl.gz", gzip.compress(data))]
    try:
        cases.append(("in.jsonl.zst", subprocess.run(["zstd", "-q", "-c"], input=data,
                                                      capture_output=True, check=True).stdout))
    except (OSError, subprocess.CalledProcessError):
        pass
    for name, payload in cases:
        src = tmp_path / name
        src.write_bytes(payload)
        out = tmp_path / (name + ".parquet")
        r = cli("convert", src, out)
        assert r.returncode == 0, r.stderr.decode()
        got = pq.read_table(out)
        assert got.schema == expected.schema, (name, got.schema, expected.schema)
        assert got.equals(expected), name
    out = tmp_path / "stdin.parquet"
    r = cli("convert", "--input-format", "jsonl", "-", out, stdin=data)
    assert r.returncode == 0, r.stderr.decode()
    assert pq.read_table(out).equals(expected)


@needs_cli
def test_convert_jsonl_schema_infer_all_and_errors(tmp_path):
    data = b'{"a":1,"b":"x"}\n' * 5000 + b'{"a":2.5,"b":"y"}\n'
    src = tmp_path / "in.jsonl"
    src.write_bytes(data)
    out = tmp_path / "out.parquet"
    # The first block says int64: the later fraction is a located error.
    r = cli("convert", src, out, "--block-size", "4096")
    assert r.returncode == 1
    assert f"{src}:5001: column /a: value 2.5 does not fit type int64".encode() in r.stderr
    assert not out.exists()
    r = cli("convert", src, out, "--block-size", "4096", "--infer-rows", "all")
    assert r.returncode == 0, r.stderr.decode()
    assert pq.read_table(out).equals(pyarrow_parquet_of(pyarrow_read(data), tmp_path))
    r = cli("convert", src, out, "--schema", "b:string,a:double")
    assert r.returncode == 0, r.stderr.decode()
    got = pq.read_table(out)
    assert got.schema == pa.schema([("b", pa.string()), ("a", pa.float64())])
    assert got.column("a").to_pylist()[-2:] == [1.0, 2.5]
    r = cli("convert", src, out, "--delimiter", ";")
    assert r.returncode != 0 and b"--delimiter applies to CSV / TSV input only" in r.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"a":1}\n{"a":1,}\n')
    r = cli("convert", bad, out)
    assert r.returncode == 1 and f"{bad}:2: invalid JSON".encode() in r.stderr
