"""Reading Parquet Modular Encryption (issue 48): every encrypted file of parquet-testing
read with its published keys (parquet-testing data/README.md) equals pyarrow's read of its
set's uniform_encryption file (pyarrow's create_decryption_properties takes one key, so it
reads the uniform files only); wrong, missing and tampered keys, AAD prefixes and bytes are
refused with an error naming what, and no key appears in any message."""

import pyarrow as pa
import pyarrow.compute  # noqa: F401
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe
import pytest

import quiver
from make_reader_manifest import path_of

FOOTER_128 = b"0123456789012345"
COLUMNS_128 = {"double_field": b"1234567890123450", "float_field": b"1234567890123451"}
FOOTER_256 = b"01234567890123456789012345678901"
_K256 = b"1234567890123456789012345678901"
COLUMNS_256 = {
    "double_field": _K256 + b"2", "float_field": _K256 + b"3", "boolean_field": _K256 + b"4",
    "int32_field": _K256 + b"5", "ba_field": _K256 + b"6", "flba_field": _K256 + b"7",
    "int64_field.list.element": _K256 + b"8", "int96_field": _K256 + b"9",
}
# Key metadata as stored, for a key_retriever.
METADATA_128 = {b"kf": FOOTER_128, b"kc1": COLUMNS_128["double_field"],
                b"kc2": COLUMNS_128["float_field"]}

SET_128 = ["uniform_encryption", "encrypt_columns_and_footer", "encrypt_columns_and_footer_aad",
           "encrypt_columns_and_footer_ctr", "encrypt_columns_and_footer_disable_aad_storage",
           "encrypt_columns_plaintext_footer"]
SET_256 = ["aes256/uniform_encryption", "aes256/encrypt_columns_and_footer",
           "aes256/encrypt_columns_and_footer_ctr",
           "aes256/encrypt_columns_and_footer_disable_aad_storage",
           "aes256/encrypt_columns_plaintext_footer"]
ALL_KEYS = [FOOTER_128, FOOTER_256, *COLUMNS_128.values(), *COLUMNS_256.values()]


def path(name):
    return path_of(name + ".parquet.encrypted")


def props(name, **extra):
    footer, columns = (FOOTER_256, COLUMNS_256) if name.startswith("aes256/") else (
        FOOTER_128, COLUMNS_128)
    kw = {"column_keys": columns}
    if "disable_aad_storage" in name:
        kw["aad_prefix"] = b"tester"
    kw.update(extra)
    return quiver.decryption_properties(footer, **kw)


def uniform(name):
    rel = "aes256/uniform_encryption" if name.startswith("aes256/") else "uniform_encryption"
    key = FOOTER_256 if name.startswith("aes256/") else FOOTER_128
    return pq.read_table(path(rel), decryption_properties=pe.create_decryption_properties(key))


def assert_no_key(message):
    for key in ALL_KEYS:
        assert key.decode() not in message and key.hex() not in message


@pytest.mark.parametrize("name", SET_128 + SET_256)
def test_encrypted_file_equals_uniform(name):
    expected = uniform(name)
    got = pa.table(quiver.read_table(path(name), decryption_properties=props(name)))
    assert got.num_rows == 50
    assert got.equals(expected), name
    with quiver.ParquetFile(path(name), decryption_properties=props(name)) as f:
        assert pa.table(f.read()).equals(expected)


def test_key_retriever_gets_key_metadata():
    seen = []

    def retriever(metadata):
        seen.append(metadata)
        return METADATA_128[metadata]

    for name in ["encrypt_columns_and_footer", "encrypt_columns_plaintext_footer"]:
        dp = quiver.decryption_properties(key_retriever=retriever)
        got = pa.table(quiver.read_table(path(name), decryption_properties=dp))
        assert got.equals(uniform(name))
    assert set(seen) == {b"kf", b"kc1", b"kc2"}


def test_bloom_filter_file():
    # Its content by construction (parquet-java's test writer): pyarrow's single-key API
    # cannot read its per-column keys.
    t = pa.table(quiver.read_table(path("encrypt_columns_and_footer_bloom_filter"),
                                   decryption_properties=props("x")))
    n = t.num_rows
    assert n == 2000
    assert t.column("int32_field").to_pylist() == list(range(n))
    assert t.column("double_field").to_pylist() == [i + 0.5 for i in range(n)]
    assert t.column("float_field").to_pylist() == [i + 0.25 for i in range(n)]
    assert t.column("name").to_pylist() == [f"name_{i}" for i in range(n)]


def test_projection_without_the_column_keys():
    # Columns encrypted with the footer key (or not at all) read with the footer key alone.
    dp = quiver.decryption_properties(FOOTER_128)
    got = pa.table(quiver.read_table(path("encrypt_columns_and_footer"),
                                     columns=["int32_field", "ba_field"], decryption_properties=dp))
    assert got.equals(uniform("x").select(["int32_field", "ba_field"]))
    with pytest.raises(quiver.InvalidError, match="column 'float_field'.*no key") as e:
        quiver.read_table(path("encrypt_columns_and_footer"), decryption_properties=dp)
    assert_no_key(str(e.value))


def test_no_decryption_properties():
    with pytest.raises(quiver.NotImplementedError, match="encrypted footer.*decryption_properties"):
        quiver.read_table(path("encrypt_columns_and_footer"))
    with pytest.raises(quiver.NotImplementedError, match="column '(double|float)_field'.*encrypted"):
        quiver.read_table(path("encrypt_columns_plaintext_footer"))


@pytest.mark.parametrize("name,kwargs,match", [
    ("encrypt_columns_and_footer", {"footer": b"0123456789012346"}, "footer: the GCM tag"),
    ("encrypt_columns_plaintext_footer", {"footer": b"0123456789012346"},
     "plaintext footer's signature does not verify"),
    ("encrypt_columns_and_footer", {"column_keys": {**COLUMNS_128, "float_field": b"x" * 16}},
     "column metadata of row group 0, column 'float_field'"),
    ("encrypt_columns_and_footer_ctr", {"column_keys": {**COLUMNS_128, "float_field": b"x" * 16}},
     "column 'float_field'"),
    ("encrypt_columns_and_footer_disable_aad_storage", {"aad_prefix": None},
     "does not store: decryption_properties need its aad_prefix"),
    ("encrypt_columns_and_footer_aad", {"aad_prefix": b"other"}, "differs from the AAD prefix"),
])
def test_wrong_keys_and_prefixes(name, kwargs, match):
    footer = kwargs.pop("footer", FOOTER_128)
    kw = {"column_keys": COLUMNS_128}
    if "disable_aad_storage" in name:
        kw["aad_prefix"] = b"tester"
    kw.update(kwargs)
    if kw.get("aad_prefix") is None:
        kw.pop("aad_prefix", None)
    with pytest.raises(quiver.InvalidError, match=match) as e:
        quiver.read_table(path(name), decryption_properties=quiver.decryption_properties(footer, **kw))
    assert_no_key(str(e.value))


def test_unverified_plaintext_footer_reads_with_the_column_keys():
    dp = quiver.decryption_properties(column_keys=COLUMNS_128, check_footer_integrity=False)
    got = pa.table(quiver.read_table(path("encrypt_columns_plaintext_footer"),
                                     decryption_properties=dp))
    assert got.equals(uniform("x"))


def encrypted_chunks(name):
    """(column index, first byte, end) of the column-key-encrypted chunks of row group 0."""
    out = []
    with quiver.ParquetFile(path(name), decryption_properties=props(name)) as f:
        group = f.metadata.row_group(0)
        for i in range(group.num_columns):
            c = group.column(i)
            if c.path_in_schema in COLUMNS_128:
                start = c.dictionary_page_offset or c.data_page_offset
                out.append((i, start, start + c.total_compressed_size))
    assert len(out) == 2
    return out


@pytest.mark.parametrize("name", ["encrypt_columns_and_footer", "encrypt_columns_and_footer_ctr"])
def test_flipped_bytes_are_refused(name):
    data = bytearray(path(name).read_bytes())
    dp = props(name)
    # Each byte of the encrypted chunks flipped in turn (every 5th, to keep it quick): GCM
    # refuses every one; AES_GCM_CTR_V1 refuses those in headers (GCM) while its CTR pages
    # carry no tag (the spec: "tampering with the page data might go unnoticed").
    refused = 0
    for _, lo, hi in encrypted_chunks(name):
        for i in range(lo, hi, 5):
            data[i] ^= 0x01
            try:
                quiver.read_table(pa.BufferReader(bytes(data)), decryption_properties=dp)
            except quiver.InvalidError as e:
                refused += 1
                assert "cannot decrypt" in str(e) or "page" in str(e)
                assert_no_key(str(e))
            else:
                assert name.endswith("_ctr"), f"byte {i} flipped and read"
            data[i] ^= 0x01
    assert refused > 0


def test_tampered_header_and_page_name_the_module():
    name = "encrypt_columns_and_footer"
    (col, lo, hi), _ = encrypted_chunks(name)
    data = bytearray(path(name).read_bytes())
    # The first page header's length prefix is 4 bytes; byte 10 is inside its nonce.
    data[lo + 10] ^= 0x01
    with pytest.raises(quiver.InvalidError,
                       match=r"(dictionary|data) page header of row group 0, column") as e:
        quiver.read_table(pa.BufferReader(bytes(data)), decryption_properties=props(name))
    assert_no_key(str(e.value))
    data[lo + 10] ^= 0x01
    data[hi - 3] ^= 0x01  # the last page's tag
    with pytest.raises(quiver.InvalidError, match=r"data page of row group 0, column .*\(data page"):
        quiver.read_table(pa.BufferReader(bytes(data)), decryption_properties=props(name))


def test_plaintext_files():
    plain = path_of("alltypes_plain.parquet")
    with pytest.raises(quiver.InvalidError, match="not encrypted.*allow_plaintext_files"):
        quiver.read_table(plain, decryption_properties=quiver.decryption_properties(FOOTER_128))
    dp = quiver.decryption_properties(FOOTER_128, allow_plaintext_files=True)
    assert quiver.read_table(plain, decryption_properties=dp).num_rows == 8


def test_properties_checked_and_repr_hides_keys():
    with pytest.raises(ValueError, match="footer_key has 5 bytes"):
        quiver.decryption_properties(b"short")
    with pytest.raises(ValueError, match="give footer_key, column_keys or key_retriever"):
        quiver.decryption_properties()
    with pytest.raises(TypeError, match="key_retriever"):
        quiver.decryption_properties(key_retriever=5)
    assert_no_key(repr(props("x")))


def test_key_retriever_errors():
    def failing(metadata):
        raise KeyError("unknown key id")

    with pytest.raises(quiver.InvalidError, match="key_retriever.*KeyError"):
        quiver.read_table(path("encrypt_columns_and_footer"),
                          decryption_properties=quiver.decryption_properties(key_retriever=failing))


def test_filters_on_encrypted_columns():
    name = "encrypt_columns_and_footer_bloom_filter"
    with quiver.ParquetFile(path(name), decryption_properties=props("x")) as f:
        # Not used yet (docs/design.md): the reader does without them.
        assert f.bloom_filter(0, 0) is None
    for v in [7.5, 100.5, 1999.5]:
        got = pa.table(quiver.read_table(path(name), filters=[("double_field", "==", v)],
                                         decryption_properties=props("x")))
        assert got.column("int32_field").to_pylist() == [int(v)]
    got = pa.table(quiver.read_table(path("encrypt_columns_and_footer"),
                                     filters=[("double_field", ">", 40.0)],
                                     decryption_properties=props("x")))
    expected = uniform("x")
    assert got.equals(expected.filter(pa.compute.greater(expected["double_field"], 40.0)))
