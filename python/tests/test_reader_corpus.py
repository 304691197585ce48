"""Quiver's Parquet reader on every file of testdata/parquet-testing (the repository's copy)
and of testdata/quiver (Quiver's own and hand-made compatibility files, make_compat.py).

reader_manifest.json (written by make_reader_manifest.py, which asks pyarrow) says for each
file either "equal" (Quiver's read_table equals pq.read_table, types included, and passes
ValidateFull; so do reads from bytes, from a file object, and iter_batches(batch_size=7);
ParquetFile's metadata and Arrow schema agree with pyarrow's) or "error" (Quiver raises
the named QuiverError subclass, its message containing the given text). A file of the
corpus without an entry, or an entry without a file, fails test_manifest_covers_corpus.
Entries marked "slow" (large_string_map.brotli.parquet: 2 GiB of strings) are read only
with QUIVER_DEEP_TESTS=1.
"""

import functools
import json
import os

import pyarrow.parquet as pq
import pytest

import quiver
from make_reader_manifest import MANIFEST, corpus_files, path_of
from reader_compare import (assert_schemas_equal, assert_tables_equal, batches_to_table, to_batch,
                            validate_full)

DEEP = os.environ.get("QUIVER_DEEP_TESTS", "") not in ("", "0")
ENTRIES = json.loads(MANIFEST.read_text())
EQUAL = sorted(f for f, e in ENTRIES.items() if e["outcome"] == "equal")
ERRORS = sorted(f for f, e in ENTRIES.items() if e["outcome"] == "error")
CHECKSUM_ERRORS = sorted(f for f in EQUAL if "checksum_error" in ENTRIES[f])


@functools.lru_cache(maxsize=None)
def expected(rel):
    return pq.read_table(path_of(rel))


def test_manifest_covers_corpus():
    files = set(corpus_files())
    assert len(files) > 80, f"only {len(files)} corpus files: is testdata/parquet-testing complete?"
    missing = sorted(files - set(ENTRIES))
    stale = sorted(set(ENTRIES) - files)
    assert not missing and not stale, (
        f"reader_manifest.json: no entry for {missing}; entries without a file {stale} "
        "(run make_reader_manifest.py)")
    for rel, e in ENTRIES.items():
        assert e["outcome"] in ("equal", "error"), (rel, e)
        if e["outcome"] == "error":
            assert e["contains"] and e["why"] and issubclass(getattr(quiver, e["raises"]), quiver.QuiverError), (rel, e)


@pytest.mark.parametrize("rel", EQUAL)
def test_read_table_equals_pyarrow(reader, rel):
    got = reader.read_table(str(path_of(rel)))
    validate_full(got)
    assert_tables_equal(got, expected(rel))


@pytest.mark.parametrize("rel", EQUAL)
def test_bytes_source(reader, rel):
    got = reader.read_table(path_of(rel).read_bytes())
    validate_full(got)
    assert_tables_equal(got, expected(rel))


@pytest.mark.parametrize("rel", EQUAL)
def test_file_object_source(reader, rel):
    with open(path_of(rel), "rb") as f:
        got = reader.read_table(f)
    validate_full(got)
    assert_tables_equal(got, expected(rel))


@pytest.mark.parametrize("rel", EQUAL)
def test_iter_batches(reader, rel):
    f = reader.ParquetFile(str(path_of(rel)))
    batches = list(f.iter_batches(batch_size=7))
    sizes = [to_batch(b).num_rows for b in batches]
    assert all(0 < n <= 7 for n in sizes), sizes
    got = batches_to_table(batches, f.schema_arrow)
    validate_full(got)
    assert_tables_equal(got, expected(rel))


@pytest.mark.parametrize("rel", EQUAL)
def test_metadata_and_schema(reader, rel):
    f = reader.ParquetFile(str(path_of(rel)))
    p = pq.ParquetFile(path_of(rel))
    assert (f.metadata.num_rows, f.metadata.num_row_groups, f.num_row_groups) == \
        (p.metadata.num_rows, p.metadata.num_row_groups, p.metadata.num_row_groups)
    assert [f.metadata.row_group(i).num_rows for i in range(f.num_row_groups)] == \
        [p.metadata.row_group(i).num_rows for i in range(p.num_row_groups)]
    assert_schemas_equal(f.schema_arrow, expected(rel).schema)


@pytest.mark.parametrize("rel", EQUAL)
def test_page_checksum_verification(reader, rel):
    """With page_checksum_verification=True: files whose page CRCs are right (or absent) read
    equal; the corrupt-checksum files raise an error naming the checksum."""
    path = str(path_of(rel))
    entry = ENTRIES[rel]
    if "checksum_error" in entry:
        with pytest.raises(quiver.QuiverError) as e:
            reader.read_table(path, page_checksum_verification=True)
        assert entry["checksum_error"] in str(e.value).lower(), str(e.value)
        return
    got = reader.read_table(path, page_checksum_verification=True)
    assert_tables_equal(got, expected(rel))


def test_corrupt_checksum_files_are_listed():
    assert CHECKSUM_ERRORS == ["datapage_v1-corrupt-checksum.parquet",
                               "rle-dict-uncompressed-corrupt-checksum.parquet"]


@pytest.mark.parametrize("rel", ERRORS)
def test_unreadable_files_raise(reader, rel):
    entry = ENTRIES[rel]
    if "slow" in entry and not DEEP:
        pytest.skip(entry["slow"])
    with pytest.raises(quiver.QuiverError) as e:
        reader.read_table(str(path_of(rel)))
    assert isinstance(e.value, getattr(quiver, entry["raises"])), \
        f"{type(e.value).__name__}: {e.value} (expected {entry['raises']}: {entry['why']})"
    assert entry["contains"].lower() in str(e.value).lower(), \
        f"{type(e.value).__name__}: {e.value} (expected to contain {entry['contains']!r}: {entry['why']})"
