"""quiver.encryption_properties: the keys and choices to write files with
Parquet Modular Encryption (docs/interfaces.md; the names of pyarrow 26's
create_encryption_properties, extended with per-column keys)."""

from quiver._decryption import _key_bytes
from quiver._quiver import _make_encryption_properties

_ALGORITHMS = ("AES_GCM_V1", "AES_GCM_CTR_V1")


def _bytes(value, what):
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what}: expected bytes or str, got {type(value).__name__}")


class EncryptionProperties:
    """What quiver.encryption_properties() returns: pass it as
    encryption_properties= to write_parquet, ParquetWriter and write_to_dataset.
    Every file written with it gets its own aad_file_unique and random nonces;
    the files share one count of the modules encrypted under each key (refused
    past 2^32). Its repr never shows a key."""

    __slots__ = ("_native", "_columns", "_algorithm", "_plaintext_footer", "_aad")

    def __repr__(self):
        return (f"quiver.EncryptionProperties(footer_key=<set>, column_keys={self._columns}, "
                f"encryption_algorithm={self._algorithm!r}, "
                f"plaintext_footer={self._plaintext_footer}, aad_prefix={self._aad})")


def encryption_properties(footer_key, *, column_keys=None, aad_prefix=None,
                          store_aad_prefix=True, encryption_algorithm="AES_GCM_V1",
                          plaintext_footer=False, footer_key_metadata=None,
                          column_key_metadata=None):
    """Keys and choices for writing an encrypted Parquet file.

    `footer_key`: bytes (or a str taken as UTF-8) of 16, 24 or 32 bytes
    (AES-128/192/256); it encrypts the footer and, without `column_keys`,
    every column. `column_keys`: {column: key} (as quiver.decryption_properties
    takes them), a column named by its dotted leaf path
    ("int64_field.list.element") or a top-level field (every leaf under it);
    with it only the columns named are encrypted, each with its key, and the
    others stay plaintext. `aad_prefix`: bytes or str bound into every
    module's AAD; stored in the file unless `store_aad_prefix` is False (a
    reader must then supply it). `encryption_algorithm`: 'AES_GCM_V1' or
    'AES_GCM_CTR_V1' (page bodies with AES-CTR). `plaintext_footer`: leave
    the footer readable (signed with the footer key) instead of "PARE".
    `footer_key_metadata`, `column_key_metadata` ({column: bytes}): stored
    as given, for a reader's key_retriever.
    """
    footer = _key_bytes(footer_key, "footer_key")
    columns = {}
    for column, key in (column_keys or {}).items():
        if not isinstance(column, str):
            raise TypeError(f"column_keys: expected str column names, got {type(column).__name__}")
        columns[column] = _key_bytes(key, f"column_keys[{column!r}]")
    metadata = {}
    for column, value in (column_key_metadata or {}).items():
        if column not in columns:
            raise ValueError(f"column_key_metadata names {column!r}, which column_keys does not")
        metadata[column] = _bytes(value, f"column_key_metadata[{column!r}]")
    if encryption_algorithm not in _ALGORITHMS:
        raise ValueError(f"encryption_algorithm: expected 'AES_GCM_V1' or 'AES_GCM_CTR_V1', "
                         f"got {encryption_algorithm!r}")
    prefix = None if aad_prefix is None else _bytes(aad_prefix, "aad_prefix")
    if not store_aad_prefix and prefix is None:
        raise ValueError("store_aad_prefix=False needs an aad_prefix")
    footer_md = None if footer_key_metadata is None else _bytes(footer_key_metadata,
                                                                 "footer_key_metadata")
    p = EncryptionProperties()
    p._native = _make_encryption_properties(
        footer, columns, metadata, prefix, bool(store_aad_prefix),
        encryption_algorithm == "AES_GCM_CTR_V1", bool(plaintext_footer), footer_md)
    p._columns = sorted(columns)
    p._algorithm = encryption_algorithm
    p._plaintext_footer = bool(plaintext_footer)
    p._aad = None if prefix is None else ("stored" if store_aad_prefix else "supplied")
    return p
