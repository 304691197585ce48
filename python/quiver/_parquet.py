"""Reading Parquet files, as pyarrow.parquet names it.

    t = quiver.read_table("data.parquet", columns=["a", "b.c"])
    f = quiver.ParquetFile("data.parquet")
    f.metadata.row_group(0).column(0).statistics.min
    for batch in f.iter_batches(batch_size=65536): ...

Results are quiver.Table / quiver.RecordBatch objects: pyarrow, polars and
duckdb take them zero-copy through the Arrow PyCapsule interface
(pa.table(t), pl.DataFrame(t), duckdb.sql("select * from t")).
"""

import warnings as _warnings

from quiver import _filesystem

from quiver._parquet_metadata import (  # noqa: F401 - re-exported by quiver
    ColumnChunkMetaData,
    FileMetaData,
    ParquetLogicalType,
    RowGroupMetaData,
    Statistics,
)
from quiver._quiver import Schema, _ParquetFile


def read_table(source, columns=None, row_groups=None, filters=None, use_threads=True,
               filesystem=None, **options):
    """Reads a Parquet file into a quiver.Table (pyarrow.parquet.read_table's
    names: columns, row_groups, read_dictionary, binary_type, list_type,
    coerce_int96_timestamp_unit, page_checksum_verification,
    thrift_string_size_limit, thrift_container_size_limit,
    arrow_extensions_enabled; batch_size chunks the result; memory_limit
    caps the reader's memory in bytes; invalid_utf8='error' (the default)
    or 'binary': a string column holding invalid UTF-8 in the rows read is
    read as binary rather than refused). `source`: a path, a bytes-like
    object or a binary file object.

    `filters`: the rows to keep, as pyarrow's: a list of (column, op, value)
    tuples (an AND), a list of such lists (an OR), ops '==' '=' '!=' '<'
    '<=' '>' '>=' 'in' 'not in'; or a quiver.compute.Expression
    (quiver.compute.field("x") > 5, &, |, ~, .isin(), .is_null(),
    .is_valid()); or a pyarrow.compute.Expression of those forms
    (translated; any other is quiver.NotImplementedError naming
    quiver.compute.field). The result equals reading the columns plus the
    filter's and filtering (a null drops the row), rows in file order; the
    filter's columns are not returned unless in `columns` (columns=[]: no
    columns, num_rows the matches). Row groups whose statistics or bloom
    filters prove no match are not read, and with a page index only the
    pages that may hold a match are (ParquetFile.read_stats counts them).

    `use_threads` (True, as pyarrow's): row groups and columns are decoded
    on Quiver's thread pool (one thread per CPU the process may use;
    QUIVER_NUM_THREADS caps it), the result, read_stats and any error
    being those of one thread; reads of under 1 MiB of column data, and
    reads with a memory_limit, stay on the calling thread. False: the
    calling thread alone.

    `source` a directory, a glob or a list of files: the files are read as
    one table by quiver.ParquetDataset (hive partition keys as columns,
    filters on them pruning whole files; the other options are each file's).

    `filesystem`: a pyarrow.fs.FileSystem or an fsspec AbstractFileSystem
    that `source` (a path) is read from; without it a URI source (s3://,
    gs://, hf://, memory://, http(s)://, file://) is opened through fsspec
    (quiver.NotImplementedError naming the package to install when it or
    the protocol's package is missing). Remote files are opened without
    read-ahead and only the byte ranges the read needs are fetched (the
    footer in one suffix read, then the selected column chunks or pages,
    nearby ranges coalesced). A local path (or file://, or a local
    filesystem) is read directly.

    `decryption_properties`: from quiver.decryption_properties(...), the
    keys of a file written with Parquet Modular Encryption. Any other
    keyword is a TypeError."""
    from quiver import _dataset

    if _dataset.is_dataset_source(source, filesystem):
        if row_groups is not None:
            raise _dataset_row_groups(source)
        return _dataset.read_dataset_table(source, columns, filters, use_threads, filesystem,
                                           options)
    batch_size = options.get("batch_size")
    expression = _filter_expression(filters)
    f = opened = None
    try:
        try:
            src, opened = _filesystem.open_input(source, filesystem)
            with _filesystem.naming(opened):
                f = _open(src, options)
        except (_errors().IOError, _errors().InvalidError):
            # A remote directory: an object store has no directories, so
            # opening its prefix fails (no such key) or gives an empty file
            # (s3fs); only then is the store asked whether it is one.
            if row_groups is None and _dataset.is_remote_directory(source, filesystem):
                return _dataset.read_dataset_table(source, columns, filters, use_threads,
                                                   filesystem, options)
            raise
        with _filesystem.naming(opened):
            return f.read(columns, row_groups, batch_size, expression, bool(use_threads))
    finally:
        if f is not None:
            f.close()
        if opened is not None:
            opened.close()


def _errors():
    import quiver

    return quiver


def _dataset_row_groups(source):
    return _errors().InvalidError(
        f"{source!r} is a dataset (several files): row_groups= selects one file's row "
        f"groups (read the file with quiver.ParquetFile)")


def _filter_expression(filters):
    """filters= as the C++ expression the reader takes (None: no filter)."""
    if filters is None:
        return None
    from quiver._compute_expression import filters_to_expression

    return filters_to_expression(filters)._e


def _open(source, options):
    f = _ParquetFile(source, **options)
    # What the reader worked around (e.g. an ARROW:schema that does not
    # decode, which is then ignored) is reported, not hidden.
    for message in f.warnings:
        _warnings.warn(f"quiver: {message}", RuntimeWarning, stacklevel=3)
    return f


read_parquet = read_table


class _SchemaCapsule:
    """Hands a schema capsule to Schema._import."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __arrow_c_schema__(self):
        return self._capsule


class ParquetFile:
    """A Parquet file opened for reading (pyarrow.parquet.ParquetFile's names).

    Options as read_table's (less columns, row_groups, filters,
    use_threads). read(), read_row_group(s)() and iter_batches() take
    read_table's `filters` (iter_batches yields only batches holding a
    match) and `use_threads` (True by default, as pyarrow's: read() and
    read_row_group(s)() decode row groups and columns on the thread pool,
    iter_batches the columns of each batch; see read_table). close() (or leaving a `with` block) releases the source as
    pyarrow does: a path's file descriptor and a bytes-like object are let
    go; a file object the caller opened stays open (close(force=True)
    closes it); a file opened on a `filesystem` (or for a URI) is closed. Reading after close() raises quiver.InvalidError; the
    metadata stays readable."""

    def __init__(self, source, filesystem=None, **options):
        src, self._opened = _filesystem.open_input(source, filesystem)
        try:
            with _filesystem.naming(self._opened):
                self._file = _open(src, options)
        except BaseException:
            if self._opened is not None:
                self._opened.close()
            raise
        self._source = source
        # As pyarrow: a source that has `closed` (a file object) is the
        # caller's, anything else (a path, bytes, a file Quiver opened on a
        # filesystem) is ours to close.
        self._close_source = self._opened is not None or getattr(source, "closed", True)
        self._metadata = None

    def close(self, force=False):
        """Releases the source (see the class); idempotent."""
        if self._close_source or force:
            self._file.close()
            if self._opened is not None:
                self._opened.close()
            if force and hasattr(self._source, "close"):
                self._source.close()

    @property
    def closed(self):
        """Whether the source is closed (pyarrow's ParquetFile.closed)."""
        if self._file.closed:
            return True
        return bool(getattr(self._source, "closed", False))

    def _reader(self):
        if self._file.closed:
            from quiver import InvalidError

            raise InvalidError("the ParquetFile is closed")
        return self._file

    @property
    def metadata(self):
        if self._metadata is None:
            self._metadata = FileMetaData(self._file.metadata_dict(), self._file.footer_bytes)
        return self._metadata

    @property
    def schema_arrow(self):
        """The Arrow schema the file reads as (a quiver.Schema)."""
        return Schema._import(_SchemaCapsule(self._file.schema_capsule(None)))

    @property
    def num_row_groups(self):
        return self._file.num_row_groups

    @property
    def warnings(self):
        """Problems the reader worked around (e.g. a corrupt ARROW:schema)."""
        return list(self._file.warnings)

    @property
    def read_stats(self):
        """What the last read call did, as a dict: row_groups_pruned_statistics,
        row_groups_pruned_bloom, row_groups_pruned_dictionary (row groups a
        filter's pruning left out), pages_skipped (data pages neither read nor
        decompressed), pages_decompressed (dictionary and data pages read and
        decompressed, uncompressed ones included), bytes_read (bytes asked of
        the source, page indexes included, the footer not) and values_decoded
        (non-null leaf values decoded into the result). Each read(),
        read_row_group(s)() and iter_batches() call starts them at 0;
        iter_batches adds each batch's work as it is read."""
        return dict(self._file.read_stats)

    def read(self, columns=None, use_threads=True, filters=None):
        return self._reader().read(columns, None, None, _filter_expression(filters),
                                   bool(use_threads))

    def bloom_filter(self, row_group, column):
        """The bloom filter of a column chunk (`column`: leaf index or dotted
        path), or None when it has none. `value in f` / f.might_contain(value):
        False means the value is certainly not in the chunk."""
        d = self._file.metadata_dict()
        paths = [c["path"] for c in d["columns"]]
        if isinstance(column, str):
            if column not in paths:
                raise KeyError(f"no leaf column {column!r} (leaf columns: {paths})")
            column = paths.index(column)
        if not 0 <= row_group < len(d["row_groups"]):
            raise IndexError(f"row group {row_group} out of range (the file has {len(d['row_groups'])})")
        chunks = d["row_groups"][row_group]["columns"]
        if not 0 <= column < len(chunks):
            raise IndexError(f"column {column} out of range (the row group has {len(chunks)})")
        if chunks[column].get("bloom_filter_offset") is None:
            return None
        return BloomFilter(self._reader(), row_group, column)

    def read_row_group(self, i, columns=None, use_threads=True, filters=None):
        return self._reader().read(columns, [i], None, _filter_expression(filters),
                                   bool(use_threads))

    def read_row_groups(self, row_groups, columns=None, use_threads=True, filters=None):
        return self._reader().read(columns, list(row_groups), None, _filter_expression(filters),
                                   bool(use_threads))

    def iter_batches(self, batch_size=65536, row_groups=None, columns=None, use_threads=True,
                     filters=None):
        return self._reader().iter_batches(columns, row_groups, batch_size,
                                           _filter_expression(filters), bool(use_threads))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class BloomFilter:
    """A column chunk's bloom filter (split block, as parquet-format BloomFilter.md)."""

    def __init__(self, file, row_group, column):
        self._file, self._row_group, self._column = file, row_group, column

    def might_contain(self, value):
        """False: `value` (a Python value of the column's physical type; str or bytes for
        byte arrays) is certainly not in the chunk. True: it may be."""
        return bool(self._file.bloom_filter_contains(self._row_group, self._column, value))

    __contains__ = might_contain
