"""quiver.decryption_properties: the keys to read files written with Parquet
Modular Encryption (docs/interfaces.md; the names of pyarrow 26's
create_decryption_properties, extended with per-column keys)."""

_KEY_SIZES = (16, 24, 32)


def _key_bytes(key, what):
    if isinstance(key, str):
        key = key.encode("utf-8")
    elif isinstance(key, (bytearray, memoryview)):
        key = bytes(key)
    if not isinstance(key, bytes):
        raise TypeError(f"{what}: expected bytes (or str), got {type(key).__name__}")
    if len(key) not in _KEY_SIZES:
        # The size only: a key is never put in a message.
        raise ValueError(f"{what} has {len(key)} bytes; AES keys have 16, 24 or 32 bytes")
    return key


class DecryptionProperties:
    """What quiver.decryption_properties() returns: pass it as
    decryption_properties= to read_table, ParquetFile and the dataset readers.
    Its repr never shows a key."""

    __slots__ = ("_footer_key", "_column_keys", "_key_retriever", "_aad_prefix",
                 "_check_footer_integrity", "_allow_plaintext_files")

    def __repr__(self):
        return (f"quiver.DecryptionProperties(footer_key={'<set>' if self._footer_key else None}, "
                f"column_keys={sorted(self._column_keys)}, "
                f"key_retriever={'<set>' if self._key_retriever else None}, "
                f"aad_prefix={'<set>' if self._aad_prefix is not None else None}, "
                f"check_footer_integrity={self._check_footer_integrity}, "
                f"allow_plaintext_files={self._allow_plaintext_files})")


def decryption_properties(footer_key=None, *, column_keys=None, key_retriever=None,
                          aad_prefix=None, check_footer_integrity=True,
                          allow_plaintext_files=False):
    """Keys for reading encrypted Parquet files.

    `footer_key`: the footer key (bytes, or a str taken as UTF-8; 16, 24 or
    32 bytes), which also decrypts the columns encrypted with it.
    `column_keys`: {column: key}, a column named by its dotted leaf path
    ("int64_field.list.element") or a top-level field (every leaf under it).
    `key_retriever`: a callable given a key's stored key_metadata (bytes)
    that returns the key, for the footer and for columns without an explicit
    key (any KMS can be plugged in). `aad_prefix`: required for files written
    without storing their AAD prefix; a different prefix from the stored one
    is an error. `check_footer_integrity`: verify a plaintext footer's
    signature (needs the footer key). `allow_plaintext_files`: read files
    that are not encrypted too (refused otherwise).
    """
    p = DecryptionProperties()
    p._footer_key = None if footer_key is None else _key_bytes(footer_key, "footer_key")
    p._column_keys = {}
    for column, key in (column_keys or {}).items():
        if not isinstance(column, str):
            raise TypeError(f"column_keys: expected str column names, got {type(column).__name__}")
        p._column_keys[column] = _key_bytes(key, f"column_keys[{column!r}]")
    if key_retriever is not None and not callable(key_retriever):
        raise TypeError("key_retriever: expected a callable taking key_metadata (bytes)")
    p._key_retriever = key_retriever
    if aad_prefix is not None:
        if isinstance(aad_prefix, str):
            aad_prefix = aad_prefix.encode("utf-8")
        if not isinstance(aad_prefix, (bytes, bytearray, memoryview)):
            raise TypeError(f"aad_prefix: expected bytes or str, got {type(aad_prefix).__name__}")
        aad_prefix = bytes(aad_prefix)
    p._aad_prefix = aad_prefix
    p._check_footer_integrity = bool(check_footer_integrity)
    p._allow_plaintext_files = bool(allow_plaintext_files)
    if p._footer_key is None and not p._column_keys and p._key_retriever is None:
        raise ValueError("decryption_properties: give footer_key, column_keys or key_retriever")
    return p
