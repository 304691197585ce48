"""Golden outputs: what a refactoring must leave unchanged, byte for byte.

1. The writer's files. Every table of the writer matrix (bench/writer_bench.py
   generators, docs/benchmarks.md section 1, at GOLDEN_ROWS rows) is written
   by Quiver under a range of option sets; the SHA-256 of each file must equal
   the one recorded in golden/writer_hashes.json.
2. `quiver inspect` (text and --json) and `quiver dedup` (text, --json,
   --by-column, --bytes-only): stdout, stderr and exit code on every file of
   testdata/parquet-testing, the files of testdata/quiver, hand-made hostile
   footers, files that are not Parquet, and seeded corruptions of the
   testdata/quiver files; each must equal its file under golden/cli/.

QUIVER_UPDATE_GOLDEN=1 rewrites the expected values instead of comparing (do
that only for a change that is meant to change the output, and say so in the
commit).
"""

import hashlib
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
TESTDATA = REPO / "testdata"
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))
UPDATE = os.environ.get("QUIVER_UPDATE_GOLDEN") == "1"

GOLDEN_ROWS = 10_000

# ---------------------------------------------------------------------------
# 1. Writer output hashes

sys.path.insert(0, str(REPO / "bench"))
import writer_matrix as wb  # noqa: E402  (the writer matrix's data generators)

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import quiver  # noqa: E402
from hostile_parquet import (BINARY, I32, I64, LIST, STRUCT, column_chunk, mutate,  # noqa: E402
                            parquet_file, tstruct)


def _leaf_encodings(table):
    """column_encoding for every leaf that has a non-PLAIN choice."""
    out = {}
    for path, t in wb.leaf_paths(table.schema):
        if pa.types.is_dictionary(t):
            t = t.value_type
        if pa.types.is_integer(t) or pa.types.is_date(t):
            out[path] = "DELTA_BINARY_PACKED"
        elif pa.types.is_string(t) or pa.types.is_large_string(t):
            out[path] = "DELTA_LENGTH_BYTE_ARRAY"
        elif pa.types.is_fixed_size_binary(t):
            out[path] = "DELTA_BYTE_ARRAY"
        elif pa.types.is_floating(t):
            out[path] = "BYTE_STREAM_SPLIT"
        elif pa.types.is_boolean(t):
            out[path] = "RLE"
    return out


def option_sets(table):
    """name -> write_parquet options (the benchmark variants, Quiver's own
    defaults, and sets that make many pages, row groups and encodings)."""
    sets = {v: wb.variant_options(v, table) for v in wb.VARIANTS}
    sets["quiver_defaults"] = {}
    sets["small_pages"] = dict(
        data_page_size=2048, max_rows_per_page=700, write_batch_size=97, row_group_size=4000,
        write_page_index=True, write_page_checksum=True, dictionary_pagesize_limit=4096)
    sets["small_pages_v2_zstd"] = dict(sets["small_pages"], data_page_version="2.0",
                                       compression="zstd", compression_level=3)
    for codec in ("gzip", "brotli", "lz4", "snappy"):
        sets[codec] = dict(compression=codec, data_page_size=8192, row_group_size=6000)
    sets["no_dictionary_bss"] = dict(use_dictionary=False, use_byte_stream_split=True,
                                     compression="none", max_rows_per_page=3000)
    sets["delta_encodings"] = dict(use_dictionary=False, column_encoding=_leaf_encodings(table),
                                   data_page_version="2.0", data_page_size=4096)
    sets["cdc_small"] = dict(
        use_content_defined_chunking={"min_chunk_size": 1024, "max_chunk_size": 8192,
                                      "norm_level": 1},
        compression="zstd", data_page_version="2.0", row_group_size=7000)
    sets["no_stats_no_schema"] = dict(write_statistics=False, store_schema=False,
                                      write_page_index=False, compression="none")
    return sets


# The created_by the golden hashes were recorded with. Files carry "quiver version X.Y.Z
# (build HASH)" (test_writer_created_by.py checks it), which changes with every commit: it is
# put back to this string before hashing, so that the hashes judge everything else, byte for
# byte.
GOLDEN_CREATED_BY = "quiver version 0.1.0"


def _varint(n):
    out = bytearray()
    while True:
        if n < 0x80:
            out.append(n)
            return bytes(out)
        out.append((n & 0x7F) | 0x80)
        n >>= 7


def with_golden_created_by(data):
    """`data` (a Parquet file) with the footer's created_by (a Thrift compact string: its
    varint length, then its bytes) replaced by GOLDEN_CREATED_BY, and the footer length
    fixed."""
    from parquet_pages import read_structure
    created_by = read_structure(data, with_pages=False).created_by
    assert created_by is not None and created_by.startswith("quiver version "), created_by
    footer_len = int.from_bytes(data[-8:-4], "little")
    start = len(data) - 8 - footer_len
    footer = data[start:-8]
    old = _varint(len(created_by.encode())) + created_by.encode()
    assert footer.count(old) == 1, created_by
    footer = footer.replace(old, _varint(len(GOLDEN_CREATED_BY)) + GOLDEN_CREATED_BY.encode())
    return data[:start] + footer + len(footer).to_bytes(4, "little") + data[-4:]


def _hash_file(table, options, path):
    try:
        quiver.write_parquet(table, str(path), **options)
    except Exception as e:  # noqa: BLE001 - the error is part of the golden value
        return f"error: {type(e).__name__}: {e}"
    return hashlib.sha256(with_golden_created_by(path.read_bytes())).hexdigest()


def _load_json(path):
    return json.loads(path.read_text()) if path.exists() else {}


@pytest.mark.parametrize("group", wb.GROUPS)
def test_writer_output_hashes(group, tmp_path):
    table = wb.build_group(group, GOLDEN_ROWS)
    got = {name: _hash_file(table, opts, tmp_path / "out.parquet")
           for name, opts in option_sets(table).items()}
    golden_path = GOLDEN / "writer_hashes.json"
    golden = _load_json(golden_path)
    if UPDATE:
        golden[group] = got
        golden_path.parent.mkdir(parents=True, exist_ok=True)
        golden_path.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
        return
    assert group in golden, f"no golden hashes for {group}: run with QUIVER_UPDATE_GOLDEN=1"
    changed = {k: (golden[group].get(k), v) for k, v in got.items() if golden[group].get(k) != v}
    assert not changed, f"{group}: the writer's output changed for {sorted(changed)}: {changed}"


def _threaded_sets(table):
    """The writer matrix's variants (CDC included) and the golden sets with
    many pages, row groups and encodings."""
    sets = option_sets(table)
    keep = set(wb.VARIANTS) | {"small_pages_v2_zstd", "cdc_small", "delta_encodings"}
    return {k: v for k, v in sets.items() if k in keep}


@pytest.mark.parametrize("group", wb.GROUPS)
def test_use_threads_output_is_identical(group, tmp_path, monkeypatch):
    """use_threads=True encodes the fields of a row group on the thread pool;
    the file must be byte for byte the single-threaded one, for every option
    set (CDC included), through write_table and through batch-by-batch writes
    (ParquetWriter.write_batch; there the chunks are finished on the pool).
    These tables are below the work that makes threads pay, so
    QUIVER_MIN_TASK_WORK=0 sends every field to the pool as a task of its own."""
    monkeypatch.setenv("QUIVER_MIN_TASK_WORK", "0")
    table = wb.build_group(group, GOLDEN_ROWS)
    # More fields than cores, so tasks queue and finish out of order.
    wide = pa.Table.from_arrays([table.column(i % table.num_columns) for i in range(9)],
                                names=[f"c{i}" for i in range(9)])
    for name, opts in _threaded_sets(wide).items():
        one = _hash_file(wide, dict(opts, use_threads=False), tmp_path / "one.parquet")
        many = _hash_file(wide, dict(opts, use_threads=True), tmp_path / "many.parquet")
        assert one == many, f"{group} / {name}: use_threads changed the file"
        assert not one.startswith("error"), one
    for opts in (dict(row_group_size=4000), dict(row_group_bytes=64 * 1024, compression="zstd",
                                                 write_batch_size=500, write_page_index=True)):
        batched = {_write_batches(wide, dict(opts, use_threads=threads), tmp_path / "b.parquet")
                   for threads in (False, True)}
        assert len(batched) == 1, f"{group} / {opts}: use_threads changed batch-by-batch writes"
        assert not batched.pop().startswith("error")


@pytest.mark.parametrize("compression", ["none", "zstd"])
def test_use_threads_with_enough_work_is_identical(compression, tmp_path):
    """At the default threshold: a table whose fields each pass it (eight
    fields, 200,000 rows, two row groups) takes the parallel path; the file,
    at a path and through a file object, is the single-threaded one."""
    rng = np.random.default_rng(5)
    n = 200_000
    table = pa.table({
        "i": pa.array(rng.integers(0, 1 << 40, n)),
        "j": pa.array(rng.integers(0, 100, n).astype(np.int32),
                      mask=rng.random(n) < 0.2),
        "f": pa.array(rng.random(n)),
        "s": wb.gen_string(rng, pa.string(), n, 0.1, max_len=60),
        "b": pa.array(rng.random(n) < 0.3),
        "d": pa.array(rng.integers(0, 20000, n).astype(np.int32), pa.date32()),
        "l": pa.array([[1, 2]] * n, pa.list_(pa.int64())),
        "c": pa.array(np.array(["red", "green", "blue"])[rng.integers(0, 3, n)]).dictionary_encode(),
    })
    opts = dict(compression=compression, row_group_size=120_000)
    hashes = set()
    for threads in (False, True):
        hashes.add(_hash_file(table, dict(opts, use_threads=threads), tmp_path / "t.parquet"))
        sink = io.BytesIO()
        quiver.write_parquet(table, sink, use_threads=threads, **opts)
        hashes.add(hashlib.sha256(with_golden_created_by(sink.getvalue())).hexdigest())
    assert len(hashes) == 1, hashes
    back = pq.read_table(tmp_path / "t.parquet")
    assert back.column("s").equals(table.column("s"))
    assert back.column("j").equals(table.column("j"))
    assert back.column("c").to_pylist() == table.column("c").to_pylist()


def _write_batches(table, options, path):
    """The hash of the file ParquetWriter makes from 3,000-row batches."""
    try:
        with quiver.ParquetWriter(str(path), table.schema, **options) as w:
            for batch in table.to_batches(max_chunksize=3000):
                w.write_batch(batch)
    except Exception as e:  # noqa: BLE001 - the error is part of the value compared
        return f"error: {type(e).__name__}: {e}"
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------
# 2. CLI outputs

cli_required = pytest.mark.skipif(
    not (CLI.is_file() and os.access(CLI, os.X_OK)),
    reason=f"the quiver CLI is not built at {CLI} (run `make release` or set QUIVER_CLI)")

def hostile_files():
    """Hand-made footers: offsets, lengths and schemas a reader must refuse."""
    page = tstruct((1, I32, 0), (2, I32, 0), (3, I32, 0),
                    (5, STRUCT, tstruct((1, I32, 0), (2, I32, 0), (3, I32, 0), (4, I32, 0))))
    body = page * 300
    schema = (2, LIST, (STRUCT, [tstruct((4, BINARY, "schema"), (5, I32, 1)),
                                 tstruct((1, I32, 1), (3, I32, 0), (4, BINARY, "x"))]))

    def file_with(chunks, rows=0):
        rg = tstruct((1, LIST, (STRUCT, chunks)), (2, I64, len(body)), (3, I64, rows))
        return parquet_file(body, tstruct((1, I32, 2), schema, (3, I64, rows),
                                       (4, LIST, (STRUCT, [rg]))))

    files = {
        "hostile_ok": file_with([column_chunk(4, len(body))]),
        "hostile_dict_offset_zero": file_with([column_chunk(4, len(body), dict_offset=0)]),
        "hostile_dict_offset_after": file_with([column_chunk(4, len(body), dict_offset=40)]),
        "hostile_past_end": file_with([column_chunk(4, 1 << 40)]),
        "hostile_negative": file_with([column_chunk(4, -5)]),
        "hostile_in_footer": file_with([column_chunk(len(body) + 10, 20)]),
        "hostile_before_magic": file_with([column_chunk(0, 10)]),
        "hostile_mid_page": file_with([column_chunk(5, len(body) - 1)]),
        "hostile_values_mismatch": file_with([column_chunk(4, len(body), num_values=7)]),
    }
    rg = tstruct((1, LIST, (STRUCT, [column_chunk(4, len(body))])), (2, I64, len(body)), (3, I64, 0))
    files["hostile_overlap"] = parquet_file(body, tstruct((1, I32, 2), schema, (3, I64, 0),
                                                       (4, LIST, (STRUCT, [rg] * 40))))
    chain = [tstruct((4, BINARY, "schema"), (5, I32, 1))]
    chain += [tstruct((3, I32, 1), (4, BINARY, "g"), (5, I32, 1)) for _ in range(300)]
    chain += [tstruct((1, I32, 1), (3, I32, 1), (4, BINARY, "leaf"))]
    files["hostile_deep_schema"] = parquet_file(b"", tstruct((1, I32, 2), (2, LIST, (STRUCT, chain)),
                                                          (3, I64, 0), (4, LIST, (STRUCT, []))))
    bad_children = [tstruct((4, BINARY, "schema"), (5, I32, 3)),
                    tstruct((1, I32, 1), (3, I32, 0), (4, BINARY, "x"))]
    files["hostile_missing_children"] = parquet_file(
        b"", tstruct((1, I32, 2), (2, LIST, (STRUCT, bad_children)), (3, I64, 0),
                      (4, LIST, (STRUCT, []))))
    files["not_empty"] = b""
    files["not_short"] = b"PAR1PAR1"
    files["not_text"] = b"hello world, certainly not a parquet file"
    files["not_tail_magic"] = b"PAR1" + b"\0" * 50
    files["not_head_magic"] = b"XXXX" + b"\0" * 50 + b"\x10\0\0\0PAR1"
    files["not_huge_footer_len"] = b"PAR1" + b"\0" * 50 + b"\xff\xff\xff\x7fPAR1"
    files["not_garbage_footer"] = b"PAR1" + bytes(range(200)) + b"\xc8\0\0\0PAR1"
    files["not_encrypted_magic"] = b"PAR1" + b"\0" * 50 + b"\x10\0\0\0PARE"
    return files


QUIVER_FILES = ["typed.parquet", "pyarrow_v2.parquet", "edit_a.parquet", "edit_b.parquet",
                "edit_a_plain.parquet", "edit_b_plain.parquet"]
MUTANTS = 60


def inspect_corpus():
    """name -> bytes of every file `quiver inspect` is checked on."""
    corpus = {}
    pt = TESTDATA / "parquet-testing"
    for p in sorted(pt.rglob("*")):
        if p.is_file() and p.suffix in (".parquet", ".encrypted", ".bin"):
            corpus["pt_" + str(p.relative_to(pt)).replace("/", "_")] = p.read_bytes()
    for name in QUIVER_FILES:
        corpus["q_" + name] = (TESTDATA / "quiver" / name).read_bytes()
    corpus.update(hostile_files())
    rng = random.Random(20261201)
    bases = [(TESTDATA / "quiver" / n).read_bytes() for n in ("typed.parquet", "pyarrow_v2.parquet")]
    for i in range(MUTANTS):
        corpus[f"mutant_{i:03d}"] = mutate(bases[i % 2], rng)
    return corpus


_CORPUS = None


def corpus():
    global _CORPUS
    if _CORPUS is None:
        _CORPUS = inspect_corpus()
    return _CORPUS


def _run_cli(args, cwd):
    r = subprocess.run([str(CLI), *args], capture_output=True, timeout=120, cwd=cwd)
    return (f"$ quiver {' '.join(args)}\nexit: {r.returncode}\n--- stdout\n"
            + r.stdout.decode("utf-8", "backslashreplace")
            + "--- stderr\n" + r.stderr.decode("utf-8", "backslashreplace"))


# Outputs longer than this are kept as their SHA-256 with their first and
# last lines (a 20 MB page listing does not belong in the repository; the
# lines kept show where a difference starts, and an old build regenerates
# the rest).
MAX_GOLDEN_BYTES = 64 * 1024


def _golden_form(text):
    if len(text.encode()) <= MAX_GOLDEN_BYTES:
        return text
    lines = text.splitlines(True)
    return (f"(output of {len(text.encode())} bytes, {len(lines)} lines; "
            f"sha256 {hashlib.sha256(text.encode()).hexdigest()}; first 150 and last 50 lines:)\n"
            + "".join(lines[:150]) + "...\n" + "".join(lines[-50:]))


def _check_golden(name, text):
    path = GOLDEN / "cli" / name
    text = _golden_form(text)
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    assert path.exists(), f"no golden output {path}: run with QUIVER_UPDATE_GOLDEN=1"
    expected = path.read_text()
    if expected != text:
        import difflib
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            "expected", "got", n=2))
        pytest.fail(f"{name} changed:\n{diff[:6000]}")


INSPECT_CASES = sorted(inspect_corpus().keys()) if TESTDATA.exists() else []


@cli_required
@pytest.mark.parametrize("case", INSPECT_CASES)
def test_inspect_golden(case, tmp_path):
    (tmp_path / case).write_bytes(corpus()[case])
    text = _run_cli(["inspect", case], tmp_path) + _run_cli(["inspect", "--json", case], tmp_path)
    if case.startswith("q_"):
        text += _run_cli(["inspect", "--no-pages", case], tmp_path)
        text += _run_cli(["inspect", "--max-pages", "3", "--json", case], tmp_path)
    _check_golden(f"inspect/{case}.txt", text)


DEDUP_CASES = {
    "edit_cdc": ["edit_a.parquet", "edit_b.parquet"],
    "edit_plain": ["edit_a_plain.parquet", "edit_b_plain.parquet"],
    "three": ["edit_a.parquet", "edit_a_plain.parquet", "edit_b.parquet"],
    "typed_vs_pyarrow": ["typed.parquet", "pyarrow_v2.parquet"],
    "self": ["typed.parquet", "typed.parquet"],
    "pt_alltypes": ["pt_alltypes_plain.parquet", "pt_alltypes_plain.snappy.parquet",
                    "pt_alltypes_dictionary.parquet"],
    "pt_tiny_pages": ["pt_alltypes_tiny_pages.parquet", "pt_alltypes_tiny_pages_plain.parquet"],
    "not_parquet": ["typed.parquet", "not_text"],
    "corrupt": ["typed.parquet", "mutant_000"],
}


@cli_required
@pytest.mark.parametrize("case", sorted(DEDUP_CASES))
def test_dedup_golden(case, tmp_path):
    files = DEDUP_CASES[case]
    for name in files:
        key = name if not name.endswith(".parquet") or name.startswith("pt_") else "q_" + name
        (tmp_path / name).write_bytes(corpus()[key])
    text = ""
    for extra in ([], ["--json"], ["--by-column"], ["--bytes-only"]):
        text += _run_cli(["dedup", *files, *extra], tmp_path)
    _check_golden(f"dedup/{case}.txt", text)
