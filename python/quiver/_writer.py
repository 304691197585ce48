"""quiver.write_parquet and quiver.ParquetWriter with `filesystem=` and URI
destinations (quiver._filesystem); everything else is the C++ writer's."""

from quiver import _filesystem
from quiver._quiver import ParquetWriter as _ParquetWriter
from quiver._quiver import write_parquet as _write_parquet

_FILESYSTEM_DOC = """

filesystem: a pyarrow.fs.FileSystem or an fsspec AbstractFileSystem that `where` (a
path) is written on; without it a URI `where` (s3://, gs://, hf://, memory://, file://)
goes through fsspec. Bytes reach the destination row group by row group (through
fs.open(path, "wb") / open_output_stream(path)); a failed write leaves nothing there:
an object store's upload is aborted (fsspec files with discard(): no object is created,
an object already there stays), other files are removed. file:// URIs and local
filesystems write the local path as a plain path does."""


def write_parquet(data, where, filesystem=None, metadata_collector=None, **options):
    if metadata_collector is not None:
        return _write_collecting(data, where, filesystem, metadata_collector, options)
    target = _filesystem.resolve(where, filesystem, writing=True)
    if target is None:
        return _write_parquet(data, where, **options)
    if target.kind == "local":
        return _write_parquet(data, target.path, **options)
    sink = _filesystem._Sink(target)
    try:
        _write_parquet(data, sink.file, **options)
    except BaseException:
        sink.abort()
        raise
    sink.commit()
    return None


_COLLECTOR_DOC = """

metadata_collector: a list the written file's quiver.FileMetaData is appended to
(pyarrow's; with write_to_dataset its file_path is set to the file's path under the
root, for quiver.write_metadata). `where` must then be a path, a URI or None (the
footer is read back from the file, or taken from the returned bytes)."""


def _readable(f):
    try:
        return not f.closed and f.readable() and f.seekable()
    except (AttributeError, ValueError):
        return False


def _footer_of_bytes(data):
    data = bytes(data)
    n = int.from_bytes(data[-8:-4], "little")
    return data[-8 - n:-8]


def _write_collecting(data, where, filesystem, collector, options):
    from quiver import NotImplementedError as NotBuilt
    from quiver._parquet import ParquetFile
    from quiver._parquet_metadata import _from_footer

    if not hasattr(collector, "append"):
        raise TypeError(f"metadata_collector must be a list, not {type(collector).__name__}")
    if where is None:
        out = write_parquet(data, None, filesystem, **options)
        collector.append(_from_footer(_footer_of_bytes(out)))
        return out
    if not isinstance(where, (str, bytes)) and not hasattr(where, "__fspath__"):
        raise NotBuilt(f"metadata_collector= with a {type(where).__name__} destination: "
                       f"Quiver collects the metadata of a path, a URI or None (bytes)")
    write_parquet(data, where, filesystem, **options)
    with ParquetFile(where, filesystem=filesystem) as f:
        collector.append(f.metadata)
    return None


write_parquet.__doc__ = (_write_parquet.__doc__ or "") + _FILESYSTEM_DOC + _COLLECTOR_DOC


def write_metadata(schema, where, metadata_collector=None, filesystem=None, **options):
    """Writes a Parquet file of no data holding `schema` (pyarrow's
    write_metadata: a _common_metadata file), or with metadata_collector
    (FileMetaData of files of that schema, e.g. from write_to_dataset's
    metadata_collector=, their file_path set) the row groups of all of them
    (a _metadata file). quiver.InvalidError when a collected file's Parquet
    schema differs. Writer options (compression=, ...) as write_parquet's."""
    from quiver._parquet_metadata import _from_footer, write_bytes
    from quiver._quiver import Schema, _empty_table, _footer_without_row_groups

    if not isinstance(schema, Schema):
        schema = Schema._import(schema)
    empty = write_parquet(_empty_table(schema), None, **options)
    md = _from_footer(_footer_without_row_groups(_footer_of_bytes(empty)))
    for collected in metadata_collector or []:
        md.append_row_groups(collected)
    footer = md.serialize()
    data = b"PAR1" + footer + len(footer).to_bytes(4, "little") + b"PAR1"
    write_bytes(data, where, filesystem, _filesystem)


def _can_read_back(where):
    from quiver._quiver import BufferOutputStream

    return (isinstance(where, (str, bytes, BufferOutputStream)) or hasattr(where, "__fspath__")
            or _readable(where))


class ParquetWriter(_ParquetWriter):
    __doc__ = (_ParquetWriter.__doc__ or "") + _FILESYSTEM_DOC + """

metadata_collector: a list close() appends the written file's quiver.FileMetaData to
(pyarrow's); `where` must then be readable back (a path, a URI, a BufferOutputStream
or a readable, seekable file object)."""

    def __init__(self, where, schema, filesystem=None, metadata_collector=None, **options):
        self._sink = None
        self._where, self._filesystem, self._metadata = where, filesystem, None
        if metadata_collector is not None and not hasattr(metadata_collector, "append"):
            raise TypeError(f"metadata_collector must be a list, "
                            f"not {type(metadata_collector).__name__}")
        if metadata_collector is not None and not _can_read_back(where):
            from quiver import NotImplementedError as NotBuilt
            raise NotBuilt(f"metadata_collector= with a {type(where).__name__} destination "
                           f"that cannot be read back: Quiver reads the metadata from the "
                           f"file written (a path, a URI, a BufferOutputStream or a "
                           f"readable, seekable file object)")
        self._collector = metadata_collector
        target = _filesystem.resolve(where, filesystem, writing=True)
        if target is None:
            super().__init__(where, schema, **options)
            return
        if target.kind == "local":
            super().__init__(target.path, schema, **options)
            return
        sink = _filesystem._Sink(target)
        try:
            super().__init__(sink.file, schema, **options)
        except BaseException:
            sink.abort()
            raise
        self._sink = sink

    def close(self):
        sink, self._sink = self._sink, None
        try:
            super().close()
        except BaseException:
            if sink is not None:
                sink.abort()
            raise
        if sink is not None:
            sink.commit()
        collector, self._collector = self._collector, None
        if collector is not None:
            collector.append(self.metadata)

    @property
    def metadata(self):
        """The written file's quiver.FileMetaData, once the writer is closed
        (pyarrow's ParquetWriter.writer.metadata): read back from the file's
        footer for a path or URI destination or a readable, seekable file
        object, taken from a BufferOutputStream's bytes; a write-only file
        object is not read back (quiver.NotImplementedError)."""
        from quiver import InvalidError
        from quiver import NotImplementedError as NotBuilt
        from quiver._parquet import ParquetFile
        from quiver._parquet_metadata import _from_footer
        from quiver._quiver import BufferOutputStream

        if self._metadata is not None:
            return self._metadata
        if self.is_open:
            raise InvalidError("ParquetWriter.metadata: the file's metadata is known once "
                               "the writer is closed")
        where = self._where
        if isinstance(where, BufferOutputStream):
            self._metadata = _from_footer(_footer_of_bytes(where.getvalue()))
        elif isinstance(where, (str, bytes)) or hasattr(where, "__fspath__"):
            with ParquetFile(where, filesystem=self._filesystem) as f:
                self._metadata = f.metadata
        elif _readable(where):
            end = where.seek(0, 2)
            where.seek(end - 8)
            n = int.from_bytes(where.read(4), "little")
            where.seek(end - 8 - n)
            self._metadata = _from_footer(where.read(n))
        else:
            raise NotBuilt(f"ParquetWriter.metadata of a {type(where).__name__} destination "
                           f"that cannot be read back: Quiver reads the metadata from the "
                           f"file written (a path, a URI, a BufferOutputStream or a "
                           f"readable, seekable file object)")
        return self._metadata

    def __exit__(self, exc_type, exc_value, traceback):
        if exc_type is None:
            self.close()
            return False
        sink, self._sink = self._sink, None
        try:
            super().__exit__(exc_type, exc_value, traceback)  # aborts the writer
        finally:
            if sink is not None:
                sink.abort()
        return False

    def __del__(self):
        # Dropped without close(): nothing is left at the destination (the C++
        # writer aborts as it goes; the file object must not commit its bytes).
        sink = getattr(self, "_sink", None)
        if sink is not None:
            self._sink = None
            try:
                super().__exit__(RuntimeError, None, None)
            finally:
                sink.abort()
