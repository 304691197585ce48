#!/usr/bin/env python3
"""Writes reader_manifest.json: what Quiver's reader must do with each Parquet file of
testdata/parquet-testing and testdata/quiver (test_reader_corpus.py reads it). Keys are paths
relative to testdata/parquet-testing, or "quiver/<name>" for testdata/quiver.

Every file whose name ends in .parquet or .parquet.encrypted, recursively, gets an entry:
  {"outcome": "equal"}  pyarrow reads it (ValidateFull passes): Quiver's read_table must
      equal pq.read_table. "checksum_error": "<text>" is added when pyarrow's read with
      page_checksum_verification=True fails (a corrupt page CRC): Quiver must then raise an
      error containing the text; without it, Quiver must read the file equal with
      verification on too.
  {"outcome": "error", "contains": "<text>", "raises": "<quiver exception class>",
   "why": "...", "pyarrow": "<pyarrow's error>"}  pyarrow cannot read it: Quiver must raise
      that class (a QuiverError subclass) with a message containing the text (compared
      case-insensitively). The texts are guesses at Quiver's wording, to adjust when the
      reader exists; REASONS below holds them, so the JSON is always regenerated whole.
      "slow": "<why>" marks a file read only when QUIVER_DEEP_TESTS=1.

Run from anywhere: .venv/bin/python python/tests/make_reader_manifest.py [--check]
(--check: exit 1 if the committed JSON differs from what pyarrow says now). Reading
large_string_map.brotli.parquet takes pyarrow ~8 s and 4 GB (2 GiB of keys).
"""

import json
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
TESTDATA = HERE.parents[1] / "testdata"
CORPUS = TESTDATA / "parquet-testing"
QUIVER = TESTDATA / "quiver"
MANIFEST = HERE / "reader_manifest.json"

UTF8 = {
    "contains": "invalid_utf8='binary'",
    "raises": "InvalidError",
    "why": "a string column holding invalid UTF-8 (testdata/quiver/make_compat.py): pyarrow "
           "returns arrays that fail ValidateFull; Quiver refuses, naming the page and the "
           "option invalid_utf8='binary' (test_reader_invalid_utf8.py reads them with it)",
}

ENCRYPTED = {
    "contains": "encrypted",
    "raises": "NotImplementedError",
    "why": "Parquet Modular Encryption, read here without keys: pyarrow cannot open it without "
           "decryption properties and Quiver refuses it (NotImplementedError naming the "
           "encryption); test_decryption.py reads every encrypted file with its published keys",
}

# File name -> the expected error, for files pyarrow cannot read that are not encrypted.
REASONS = {
    "incorrect_map_schema.parquet": {
        "contains": "map key",
        "raises": "QuiverError",
        "why": "a MAP whose key field is optional; pyarrow 26 refuses the schema (Arrow C++ "
               "schema.cc: 'Map keys must be annotated as required'), as Quiver's "
               "parquet_to_arrow follows it",
    },
    "large_string_map.brotli.parquet": {
        "contains": "chunked",
        "raises": "QuiverError",
        "why": "map<string, int32> whose two keys hold 2 GiB + 101 bytes (more than 32-bit "
               "offsets address); pyarrow splits the string column into chunks and cannot "
               "assemble a nested column from them. If Quiver reads it (chunked output), "
               "compare with iter_batches instead and change this entry",
        "slow": "decompresses 2 GiB (pyarrow: 8-25 s, 4 GB): only with QUIVER_DEEP_TESTS=1",
    },
    "compat_physical_type_9.parquet": {
        "contains": "unknown physical type 9",
        "raises": "InvalidError",
        "why": "a leaf whose physical type parquet.thrift does not name; pyarrow refuses it too",
    },
    "compat_utf8_dictionary.parquet": UTF8,
    "compat_utf8_plain.parquet": UTF8,
    "compat_utf8_v2.parquet": UTF8,
    "compat_utf8_nested.parquet": UTF8,
}
for _v in (22, 23, 25, 1000, -1):
    REASONS[f"compat_converted_{_v}.parquet"] = {
        "contains": "cannot annotate a leaf",
        "raises": "InvalidError",
        "why": "a converted type past parquet.thrift's (INTERVAL = 21) other than 24 (Arrow "
               "C++'s NA); pyarrow refuses it too ('UNKNOWN cannot be applied to a primitive "
               "type')",
    }

# Files pyarrow reads that Quiver refuses on purpose, and why.
REFUSED = {
    "compat_repetition_3.parquet": {
        "contains": "VECTOR repetition",
        "raises": "NotImplementedError",
        "why": "repetition type 3 is VECTOR in the parquet.thrift Quiver follows (a fixed-size "
               "vector of vector_length slots a parent); pyarrow does not know it and reads the "
               "field as REQUIRED, which misreads a real VECTOR column, so Quiver refuses it",
    },
}


def corpus_files(root=CORPUS):
    """The Parquet files of the corpus, as POSIX paths relative to `root` (testdata/quiver's
    as "quiver/<name>"), sorted."""
    files = [p.relative_to(root).as_posix() for p in root.rglob("*")
             if p.is_file() and (p.name.endswith(".parquet") or p.name.endswith(".parquet.encrypted"))]
    if root == CORPUS:
        files += ["quiver/" + p.name for p in QUIVER.glob("*.parquet")]
    return sorted(files)


def path_of(rel):
    """The file of a manifest key."""
    return TESTDATA / rel if rel.startswith("quiver/") else CORPUS / rel


def _message(e):
    """pyarrow's error, without this checkout's absolute path."""
    return f"{type(e).__name__}: {e}".replace(str(CORPUS) + "/", "").replace(str(QUIVER) + "/", "")


def _read(path, **options):
    t = pq.read_table(path, **options)
    for col in t.columns:
        col.validate(full=True)
    return t


def entry(rel):
    path = path_of(rel)
    name = Path(rel).name
    try:
        _read(path)
    except (pa.ArrowException, OSError, ValueError) as e:
        if name.endswith(".encrypted"):
            reason = ENCRYPTED
        elif name in REASONS:
            reason = REASONS[name]
        else:
            raise SystemExit(f"{rel}: pyarrow cannot read it ({type(e).__name__}: {e}); "
                             "add the expected error to REASONS") from e
        return {"outcome": "error", **reason, "pyarrow": _message(e)}
    if name in REFUSED:
        return {"outcome": "error", **REFUSED[name], "pyarrow": "reads it"}
    out = {"outcome": "equal"}
    try:
        _read(path, page_checksum_verification=True)
    except (pa.ArrowException, OSError) as e:
        out["checksum_error"] = "checksum"
        out["pyarrow"] = "page_checksum_verification=True: " + _message(e)
    return out


def build():
    return {rel: entry(rel) for rel in corpus_files()}


def dump(manifest):
    return json.dumps(manifest, indent=1, sort_keys=True) + "\n"


def main(argv):
    text = dump(build())
    if "--check" in argv:
        if MANIFEST.read_text() != text:
            print(f"{MANIFEST} is out of date: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    MANIFEST.write_text(text)
    print(f"wrote {MANIFEST} ({len(json.loads(text))} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
