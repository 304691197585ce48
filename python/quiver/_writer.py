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


def write_parquet(data, where, filesystem=None, **options):
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


write_parquet.__doc__ = (_write_parquet.__doc__ or "") + _FILESYSTEM_DOC


class ParquetWriter(_ParquetWriter):
    __doc__ = (_ParquetWriter.__doc__ or "") + _FILESYSTEM_DOC

    def __init__(self, where, schema, filesystem=None, **options):
        self._sink = None
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
