"""Writing Parquet Modular Encryption (issue 48): files Quiver writes with
quiver.encryption_properties are read by pyarrow 26 equal to the input
(create_decryption_properties for one key; CryptoFactory with an in-memory KMS for
per-column keys, whose PKMT1 key material Quiver stores as key metadata) and by Quiver;
files pyarrow's CryptoFactory writes are read by Quiver through a key_retriever;
wrong keys are refused by both, and no key appears in a message or repr. (The
tamper, nonce and 2^32 tests are the C++ encrypted_write_test.cc.)"""

import base64
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe
import pytest

import quiver

KEY_128 = b"0123456789012345"
KEY_192 = b"012345678901234567890123"
KEY_256 = b"01234567890123456789012345678901"
COLUMN_KEY = b"1234567890123450"


def _table(n=20_000):
    return pa.table({
        "i": pa.array(range(n), pa.int64()),
        "s": pa.array([f"value {k % 97}" if k % 11 else None for k in range(n)]),
        "l": pa.array([[k, k + 1] if k % 5 else [] for k in range(n)], pa.list_(pa.int32())),
    })


def _write(tmp_path, name, props, table=None, **options):
    path = str(tmp_path / name)
    quiver.write_parquet(table if table is not None else _table(), path,
                         encryption_properties=props, **options)
    return path


@pytest.mark.parametrize("key", [KEY_128, KEY_192, KEY_256], ids=["128", "192", "256"])
@pytest.mark.parametrize("algorithm", ["AES_GCM_V1", "AES_GCM_CTR_V1"])
@pytest.mark.parametrize("plaintext_footer", [False, True])
def test_uniform_key_read_by_pyarrow_and_quiver(tmp_path, key, algorithm, plaintext_footer):
    table = _table()
    props = quiver.encryption_properties(key, encryption_algorithm=algorithm,
                                         plaintext_footer=plaintext_footer)
    path = _write(tmp_path, "u.parquet", props, table, row_group_size=7000,
                  bloom_filter_options=True, compression="zstd")
    with open(path, "rb") as f:
        magic = f.read(4)
    assert magic == (b"PAR1" if plaintext_footer else b"PARE")
    got = pq.read_table(path, decryption_properties=pe.create_decryption_properties(key))
    assert got.equals(table)
    ours = quiver.read_table(path, decryption_properties=quiver.decryption_properties(key))
    assert ours.to_pyarrow().equals(table)
    # A wrong key: refused by both, the key in no message.
    wrong = bytes(len(key))
    with pytest.raises(Exception) as e:
        pq.read_table(path, decryption_properties=pe.create_decryption_properties(wrong))
    with pytest.raises(quiver.QuiverError) as e:
        quiver.read_table(path, decryption_properties=quiver.decryption_properties(wrong))
    assert key.decode() not in str(e.value) and wrong.decode() not in str(e.value)


@pytest.mark.parametrize("store", [True, False])
def test_aad_prefix_stored_or_supplied(tmp_path, store):
    table = _table(1000)
    props = quiver.encryption_properties(KEY_128, aad_prefix=b"tester", store_aad_prefix=store)
    path = _write(tmp_path, "aad.parquet", props, table)
    got = pq.read_table(path, decryption_properties=pe.create_decryption_properties(
        KEY_128, aad_prefix=b"tester"))
    assert got.equals(table)
    if not store:
        with pytest.raises(Exception):
            pq.read_table(path, decryption_properties=pe.create_decryption_properties(KEY_128))
        with pytest.raises(quiver.QuiverError, match="aad_prefix"):
            quiver.read_table(path, decryption_properties=quiver.decryption_properties(KEY_128))
    ours = quiver.read_table(path, decryption_properties=quiver.decryption_properties(
        KEY_128, aad_prefix=b"tester"))
    assert ours.to_pyarrow().equals(table)


def test_page_index_statistics_threads_and_checksums_on_encrypted_files(tmp_path):
    table = _table()
    props = quiver.encryption_properties(KEY_256)
    path = _write(tmp_path, "opts.parquet", props, table, write_page_index=True,
                  use_threads=True, data_page_version="2.0", write_page_checksum=True,
                  row_group_size=5000)
    dec = pe.create_decryption_properties(KEY_256)
    f = pq.ParquetFile(path, decryption_properties=dec, page_checksum_verification=True)
    assert f.read().equals(table)
    md = f.metadata
    assert md.num_row_groups == 4
    stats = md.row_group(1).column(0).statistics
    assert (stats.min, stats.max) == (5000, 9999)
    assert md.row_group(0).column(0).has_offset_index
    assert md.row_group(0).column(0).has_column_index
    ours = quiver.read_table(path, decryption_properties=quiver.decryption_properties(KEY_256),
                             page_checksum_verification=True)
    assert ours.to_pyarrow().equals(table)


def test_cdc_on_encrypted_files(tmp_path):
    table = _table()
    props = quiver.encryption_properties(KEY_128)
    path = _write(tmp_path, "cdc.parquet", props, table, use_content_defined_chunking=True)
    assert pq.read_table(path, decryption_properties=pe.create_decryption_properties(
        KEY_128)).equals(table)


def test_parquet_writer_and_write_to_dataset(tmp_path):
    table = _table(3000)
    props = quiver.encryption_properties(KEY_128)
    path = str(tmp_path / "w.parquet")
    with quiver.ParquetWriter(path, table.schema, encryption_properties=props) as w:
        w.write_table(table.slice(0, 1000))
        w.write_table(table.slice(1000))
    dec = pe.create_decryption_properties(KEY_128)
    assert pq.read_table(path, decryption_properties=dec).equals(table)
    root = tmp_path / "ds"
    parted = table.append_column("p", pa.array([k % 3 for k in range(3000)], pa.int32()))
    quiver.write_to_dataset(parted, str(root), partition_cols=["p"], encryption_properties=props)
    files = sorted(root.rglob("*.parquet"))
    assert len(files) == 3
    rows = 0
    for f in files:
        with open(f, "rb") as fh:
            assert fh.read(4) == b"PARE"
        rows += pq.read_table(str(f), decryption_properties=dec).num_rows
    assert rows == 3000


# A small in-memory KMS for pyarrow's CryptoFactory: "wrapping" is base64 of the key
# with its master key id (a test stand-in; a real KMS encrypts with the master key).
MASTER_KEYS = {"kf": KEY_128, "kc1": COLUMN_KEY}


class InMemoryKms(pe.KmsClient):
    def __init__(self, config):
        pe.KmsClient.__init__(self)

    def wrap_key(self, key_bytes, master_key_identifier):
        return base64.b64encode(master_key_identifier.encode() + b":" + key_bytes)

    def unwrap_key(self, wrapped_key, master_key_identifier):
        raw = base64.b64decode(wrapped_key)
        master, key = raw.split(b":", 1)
        assert master.decode() == master_key_identifier
        return key


def _crypto_factory():
    return pe.CryptoFactory(lambda config: InMemoryKms(config))


def _pkmt1(master_key_id, dek, footer):
    # PKMT1 key material (parquet-format KeyManagement, as Arrow C++ stores it inside
    # the file), which CryptoFactory's decryption unwraps through the KMS.
    material = {"keyMaterialType": "PKMT1", "internalStorage": True, "isFooterKey": footer,
                "masterKeyID": master_key_id, "doubleWrapping": False,
                "wrappedDEK": InMemoryKms(None).wrap_key(dek, master_key_id).decode()}
    if footer:
        material["kmsInstanceID"] = "DEFAULT"
        material["kmsInstanceURL"] = "DEFAULT"
    return json.dumps(material).encode()


@pytest.mark.parametrize("plaintext_footer", [False, True])
def test_column_keys_read_by_pyarrow_crypto_factory(tmp_path, plaintext_footer):
    table = _table(5000)
    footer_dek, column_dek = b"F" * 16, b"C" * 16
    props = quiver.encryption_properties(
        footer_dek, column_keys={"s": column_dek}, plaintext_footer=plaintext_footer,
        footer_key_metadata=_pkmt1("kf", footer_dek, True),
        column_key_metadata={"s": _pkmt1("kc1", column_dek, False)})
    path = _write(tmp_path, "cols.parquet", props, table)
    factory = _crypto_factory()
    dec = factory.file_decryption_properties(pe.KmsConnectionConfig(), pe.DecryptionConfiguration())
    assert pq.read_table(path, decryption_properties=dec).equals(table)
    # Quiver: the footer key alone reads the columns left in plaintext.
    only_footer = quiver.decryption_properties(footer_dek)
    part = quiver.read_table(path, columns=["i", "l"], decryption_properties=only_footer)
    assert part.to_pyarrow().equals(table.select(["i", "l"]))
    with pytest.raises(quiver.QuiverError, match="'s'"):
        quiver.read_table(path, decryption_properties=only_footer)
    both = quiver.decryption_properties(footer_dek, column_keys={"s": column_dek})
    assert quiver.read_table(path, decryption_properties=both).to_pyarrow().equals(table)
    if plaintext_footer:
        # Readers without keys see the schema and the plaintext columns.
        plain = pq.read_table(path, columns=["i"], decryption_properties=pe.create_decryption_properties(
            footer_dek))
        assert plain.equals(table.select(["i"]))


def test_pyarrow_crypto_factory_files_read_by_quiver_key_retriever(tmp_path):
    table = _table(5000)
    path = str(tmp_path / "pa.parquet")
    factory = _crypto_factory()
    config = pe.EncryptionConfiguration(footer_key="kf", column_keys={"kc1": ["s"]},
                                        double_wrapping=False, plaintext_footer=False)
    props = factory.file_encryption_properties(pe.KmsConnectionConfig(), config)
    pq.write_table(table, path, encryption_properties=props)

    def retriever(key_metadata):
        material = json.loads(key_metadata)
        return InMemoryKms(None).unwrap_key(material["wrappedDEK"], material["masterKeyID"])

    got = quiver.read_table(path, decryption_properties=quiver.decryption_properties(
        key_retriever=retriever))
    assert got.to_pyarrow().equals(table)


def test_pyarrow_writes_192_bit_keys(tmp_path):
    table = _table(100)
    path = str(tmp_path / "pa192.parquet")
    pq.write_table(table, path, encryption_properties=pe.create_encryption_properties(KEY_192))
    got = quiver.read_table(path, decryption_properties=quiver.decryption_properties(KEY_192))
    assert got.to_pyarrow().equals(table)


def test_one_properties_object_gives_each_file_its_own_aad(tmp_path):
    table = _table(100)
    props = quiver.encryption_properties(KEY_128, plaintext_footer=True)
    a = _write(tmp_path, "a.parquet", props, table)
    b = _write(tmp_path, "b.parquet", props, table)
    uniques = []
    for p in (a, b):
        md = pq.ParquetFile(p, decryption_properties=pe.create_decryption_properties(
            KEY_128)).metadata
        assert md.num_rows == 100
        with open(p, "rb") as f:
            uniques.append(f.read())
    assert uniques[0] != uniques[1]


def test_bad_arguments_name_what_without_the_key():
    with pytest.raises(ValueError, match="11 bytes"):
        quiver.encryption_properties(b"short key!!")
    with pytest.raises(ValueError, match="encryption_algorithm"):
        quiver.encryption_properties(KEY_128, encryption_algorithm="AES_CBC")
    with pytest.raises(ValueError, match="aad_prefix"):
        quiver.encryption_properties(KEY_128, store_aad_prefix=False)
    with pytest.raises(ValueError, match="column_key_metadata"):
        quiver.encryption_properties(KEY_128, column_key_metadata={"x": b"m"})
    props = quiver.encryption_properties(KEY_128, column_keys={"nope": COLUMN_KEY})
    assert KEY_128.decode() not in repr(props) and COLUMN_KEY.decode() not in repr(props)
    with pytest.raises(quiver.QuiverError, match="'nope'") as e:
        quiver.write_parquet(_table(10), None, encryption_properties=props)
    assert COLUMN_KEY.decode() not in str(e.value)
    with pytest.raises(TypeError, match="encryption_properties"):
        quiver.write_parquet(_table(10), None, encryption_properties=object())
