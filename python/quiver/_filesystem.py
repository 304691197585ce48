"""Filesystems and URIs: where `filesystem=` and URI sources and destinations go.

    quiver.read_table("s3://bucket/data.parquet", columns=["a"])      # through fsspec
    quiver.read_table("bucket/data.parquet", filesystem=pyarrow_s3)   # a pyarrow.fs.FileSystem
    quiver.write_parquet(table, "memory://out.parquet")

Dispatch, in order:
- no `filesystem` and not a string with a scheme (`scheme://`): the source or
  destination goes to the C++ reader or writer as it is (a local path is read
  with pread/mmap and written through a temporary file renamed into place);
- `file://` URIs, fsspec's LocalFileSystem and pyarrow.fs.LocalFileSystem:
  the local path, on the same C++ fast path;
- any other URI: fsspec.core.url_to_fs (s3://, gs://, hf://, memory://,
  http(s):// for reading...), with a quiver.NotImplementedError naming the
  package to install when fsspec or the protocol's package is missing;
- a `filesystem=`: a pyarrow.fs.FileSystem or an fsspec AbstractFileSystem,
  told apart by the classes' own modules (neither package is imported unless
  the object comes from it; quiver imports without both).

Reads: the file is opened without read-ahead (fsspec: cache_type="none";
pyarrow: open_input_file, read with read_at) and given to the C++ range
reader, which asks only for the byte ranges it needs (a suffix read for the
footer, then the selected column chunks or pages, coalesced). Writes: the
C++ writer streams into fs.open(path, "wb") / open_output_stream(path) row
group by row group; a failed write leaves nothing at the destination (see
_Sink.abort).
"""

import contextlib
import os
import re
import threading
import weakref

# `scheme://`: a URI (a Windows drive letter "C:/" has no "//").
_URI = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")

# The package that gives fsspec each protocol (fsspec's own registry names
# the same ones when fsspec is installed).
_PACKAGES = {
    "s3": "s3fs", "s3a": "s3fs", "gs": "gcsfs", "gcs": "gcsfs", "hf": "huggingface_hub",
    "http": "aiohttp", "https": "aiohttp", "az": "adlfs", "abfs": "adlfs", "abfss": "adlfs",
    "adl": "adlfs", "hdfs": "pyarrow", "sftp": "paramiko", "ssh": "paramiko",
    "memory": None, "file": None,
}


def _errors():
    import quiver

    return quiver


def _scheme(source):
    """The URI scheme of a string source (lower case), or None."""
    if not isinstance(source, str):
        return None
    m = _URI.match(source)
    return m.group(1).lower() if m else None


class _Target:
    """Where a read or a write goes: kind 'local' (path, the C++ fast path),
    'fsspec' or 'pyarrow' (fs, path); `name` is what messages call it."""

    def __init__(self, kind, path, fs=None, name=None):
        self.kind, self.path, self.fs = kind, path, fs
        self.name = name if name is not None else path


def _filesystem_kind(filesystem):
    """('fsspec' | 'pyarrow', filesystem); quiver.TypeError for anything else.
    A pyarrow PyFileSystem over fsspec's FSSpecHandler is its fsspec
    filesystem (so that a failed write can discard() its file)."""
    roots = {c.__module__.split(".")[0] for c in type(filesystem).__mro__}
    if "pyarrow" in roots:
        import pyarrow.fs as pafs

        if isinstance(filesystem, pafs.FileSystem):
            handler = getattr(filesystem, "handler", None)
            if isinstance(filesystem, pafs.PyFileSystem) and isinstance(handler, pafs.FSSpecHandler):
                return "fsspec", handler.fs
            return "pyarrow", filesystem
    if "fsspec" in roots:
        import fsspec

        if isinstance(filesystem, fsspec.AbstractFileSystem):
            return "fsspec", filesystem
    cls = type(filesystem)
    raise _errors().TypeError(
        f"filesystem must be a pyarrow.fs.FileSystem or an fsspec AbstractFileSystem, "
        f"not {cls.__module__}.{cls.__qualname__}")


def _local_path_of_file_uri(uri):
    from urllib.parse import unquote, urlparse

    parsed = urlparse(uri)
    if parsed.netloc not in ("", "localhost"):
        raise _errors().InvalidError(
            f"{uri}: a file:// URI names a host ({parsed.netloc!r}); only local files are read")
    return unquote(parsed.path)


def _missing(uri, scheme, what, error=None):
    """quiver.NotImplementedError naming the packages a URI needs."""
    package = _PACKAGES.get(scheme, "")
    if what == "fsspec":
        need = "fsspec" + (f" and {package}" if package else "")
        detail = f"{scheme}:// URIs are opened through fsspec, which is not installed"
        if package == "":
            detail += f" (and the fsspec implementation of {scheme}:// then)"
    else:
        need = package or f"the fsspec implementation of {scheme}://"
        detail = f"fsspec could not load {scheme}://" + (f" ({error})" if error else "")
    return _errors().NotImplementedError(f"{uri}: {detail}: pip install {need}")


def _from_uri(uri, scheme):
    try:
        import fsspec.core
    except ImportError as e:
        raise _missing(uri, scheme, "fsspec") from e
    try:
        fs, path = fsspec.core.url_to_fs(uri)
    except ImportError as e:
        raise _missing(uri, scheme, "package", e) from e
    except ValueError as e:
        raise _errors().InvalidError(f"{uri}: {e}") from e
    return _fsspec_target(fs, path, uri)


def _fsspec_target(fs, path, name=None):
    from fsspec.implementations.local import LocalFileSystem

    if type(fs) is LocalFileSystem:
        return _Target("local", fs._strip_protocol(path), name=name)
    path = fs._strip_protocol(path)
    if name is None:
        name = fs.unstrip_protocol(path)
    return _Target("fsspec", path, fs, name)


def _pyarrow_target(fs, path):
    import pyarrow.fs as pafs

    if _scheme(path) is not None:
        # "s3://bucket/key" on an S3FileSystem: its path is "bucket/key".
        path = path.split("://", 1)[1]
    if type(fs) is pafs.LocalFileSystem:
        return _Target("local", path)
    try:
        path = fs.normalize_path(path)
    except Exception as e:  # pyarrow's ArrowInvalid / NotImplemented
        raise _errors().InvalidError(f"{path}: not a path of {type(fs).__name__}: {e}") from e
    return _Target("pyarrow", path, fs, f"{fs.type_name}://{path}")


def resolve(source, filesystem, writing):
    """The _Target of a source or destination, or None when it goes to the C++
    reader or writer as it is (no filesystem, not a URI)."""
    if filesystem is None:
        scheme = _scheme(source)
        if scheme is None:
            return None
        if scheme == "file":
            return _Target("local", _local_path_of_file_uri(source), name=source)
        if writing and scheme in ("http", "https"):
            raise _errors().InvalidError(f"{source}: {scheme}:// URIs are read-only (no write over HTTP)")
        return _from_uri(source, scheme)
    if writing and isinstance(source, bytes):  # the writer's bytes are a path (read's: data)
        source = os.fsdecode(source)
    if not isinstance(source, (str, os.PathLike)):
        what = "destination" if writing else "source"
        raise _errors().InvalidError(
            f"filesystem= was given but the {what} is a {type(source).__name__}, not a path: "
            f"there is nothing to open with the filesystem")
    kind, fs = _filesystem_kind(filesystem)
    path = os.fspath(source)
    if kind == "fsspec":
        return _fsspec_target(fs, path)
    return _pyarrow_target(fs, path)


def _why(error, doing):
    """An open's OSError as a message."""
    if isinstance(error, FileNotFoundError):
        return "no such file" if doing == "reading" else f"cannot open for writing: no such directory or bucket ({error})"
    return f"cannot open for {doing}: {type(error).__name__}: {error}"


# --- reading -------------------------------------------------------------------


class _RemoteFile:
    """A file opened on a filesystem, as the C++ range reader takes it
    (seek / read / tell), named for messages by its URI. It keeps its own
    position and reads a range in one step: pyarrow files with read_at;
    fsspec files with seek + read under a lock of the underlying file, which
    fsspec may share between opens (memory:// hands every open of a path the
    same object), so that two readers of one file never interleave."""

    def __init__(self, inner, name, positional):
        self._inner, self.name, self._positional = inner, name, positional
        self._pos = 0
        if positional:
            self._size = inner.size()
        else:
            self._size = inner.seek(0, 2)
            self._lock = _lock_of(inner)

    def seek(self, offset, whence=0):
        if whence == 0:
            self._pos = offset
        elif whence == 1:
            self._pos += offset
        else:
            self._pos = self._size + offset
        return self._pos

    def tell(self):
        return self._pos

    def read(self, n=-1):
        if n is None or n < 0:
            n = self._size - self._pos
        if self._positional:
            out = self._inner.read_at(n, self._pos)
        else:
            with self._lock:
                self._inner.seek(self._pos)
                out = self._inner.read(n)
        self._pos += len(out)
        return out

    @property
    def closed(self):
        return self._inner.closed

    def close(self):
        self._inner.close()


_LOCKS = weakref.WeakKeyDictionary()
_LOCKS_GUARD = threading.Lock()


def _lock_of(f):
    """The lock of an fsspec file object: one per object for the files fsspec
    may hand to several opens; a file of its own (an AbstractBufferedFile,
    opened anew each time) needs none shared."""
    from fsspec.spec import AbstractBufferedFile

    if isinstance(f, AbstractBufferedFile):
        return threading.Lock()
    try:
        with _LOCKS_GUARD:
            lock = _LOCKS.get(f)
            if lock is None:
                lock = _LOCKS[f] = threading.Lock()
            return lock
    except TypeError:  # not weak-referenceable or not hashable
        return threading.Lock()


def open_input(source, filesystem):
    """(what the C++ reader is given, the file object Quiver opened or None)."""
    target = resolve(source, filesystem, writing=False)
    if target is None:
        return source, None
    if target.kind == "local":
        return target.path, None
    f = _open_remote(target, None)
    return f, f


def open_listed(kind, fs, path, name, listed):
    """A file a directory listing found on a filesystem (kind 'fsspec' or
    'pyarrow', as _filesystem_kind tells them), as open_input's file object:
    `listed` is what the listing said of it; fsspec's info dict gives the
    size, which opens the file without asking the filesystem again (s3fs's
    and gcsfs's HEAD request). A pyarrow.fs.FileInfo is not used: pyarrow's
    Python open_input_file takes a path only (its S3 file sends its own
    HEAD); None asks as open_input does."""
    return _open_remote(_Target(kind, path, fs, name), listed)


def _open_remote(target, listed):
    try:
        if target.kind == "pyarrow":
            # (pyarrow's Python open_input_file takes a path only, not the
            # listing's FileInfo: its S3 file asks the object's size itself.)
            f = _RemoteFile(target.fs.open_input_file(target.path), target.name, True)
        else:
            f = _RemoteFile(_fsspec_open_read(target.fs, target.path, listed), target.name, False)
    except OSError as e:
        raise _errors().IOError(f"{target.name}: {_why(e, 'reading')}") from e
    except ValueError as e:
        # e.g. fsspec's HTTP file of a server that gives no size: a stream,
        # which cannot seek.
        raise _errors().IOError(f"{target.name}: cannot be read by ranges (it does not "
                                f"seek: {type(e).__name__}: {e})") from e
    return f


@contextlib.contextmanager
def naming(opened):
    """Quiver errors raised while reading a file Quiver opened on a
    filesystem start with its URI (a local path's name the C++ reader gives)."""
    if opened is None:
        yield
        return
    try:
        yield
    except _errors().QuiverError as e:
        if str(e).startswith(opened.name):
            raise
        raise type(e)(f"{opened.name}: {e}") from e


def _fsspec_open_read(fs, path, listed=None):
    # cache_type="none": no read-ahead cache, each read fetches exactly the
    # range asked (s3fs, gcsfs, http, hf and every AbstractBufferedFile take
    # it; memory and local files ignore it).
    # listed: the file's info dict from a listing (fs.find(detail=True)),
    # which AbstractBufferedFile would otherwise ask for with fs.info() (a
    # HEAD request on s3fs and gcsfs): its size= to open(), then as the
    # file's `details` (s3fs reads the ETag there to check each range it
    # fetches against the object listed).
    options = {"cache_type": "none"}
    size = listed.get("size") if isinstance(listed, dict) else None
    if size is not None:
        options["size"] = int(size)
    while True:
        try:
            f = fs.open(path, "rb", **options)
            break
        except TypeError:
            # An implementation whose open() takes no size, then no cache
            # options.
            if not options:
                raise
            options.pop("size" if "size" in options else "cache_type")
    if size is not None and _takes_details(f):
        f.details = listed
    return f


def _takes_details(f):
    """Whether an fsspec file asks fs.info() for its `details` (an
    AbstractBufferedFile that has not yet)."""
    from fsspec.spec import AbstractBufferedFile

    return isinstance(f, AbstractBufferedFile) and f._details is None


# --- writing -------------------------------------------------------------------


class _Sink:
    """A destination file opened on a filesystem. commit() closes it (an object
    store creates the object then); abort() leaves nothing at the path."""

    def __init__(self, target):
        self.target = target
        try:
            if target.kind == "pyarrow":
                self.file = target.fs.open_output_stream(target.path)
            else:
                self.file = target.fs.open(target.path, "wb")
        except OSError as e:
            raise _errors().IOError(f"{target.name}: {_why(e, 'writing')}") from e

    def commit(self):
        try:
            self.file.close()
        except BaseException as e:
            self.abort()
            if isinstance(e, OSError) and not isinstance(e, _errors().QuiverError):
                raise _errors().IOError(f"{self.target.name}: the write failed on close: {e}") from e
            raise

    def abort(self):
        """After a failure: fsspec files that stage their bytes (object stores'
        multipart uploads: s3fs, gcsfs) are discard()ed, which aborts the upload
        and creates no object (an object already at the path stays as it was);
        files that write in place (memory, local, pyarrow streams, which
        complete their upload when closed) are closed and the path removed."""
        f, t = self.file, self.target
        if t.kind == "fsspec" and _stages_writes(f):
            try:
                f.discard()
            finally:
                # discard() leaves the file unusable but open: marking it
                # closed stops close() (and its __del__) from committing it.
                f.closed = True
            return
        try:
            f.close()
        except Exception:  # noqa: BLE001 - the write already failed; its error is raised
            pass
        try:
            if t.kind == "pyarrow":
                t.fs.delete_file(t.path)
            elif t.fs.exists(t.path):
                t.fs.rm_file(t.path)
        except FileNotFoundError:
            pass


def _stages_writes(f):
    """Whether an fsspec file holds its bytes back until close() commits them
    and says how to drop them (an AbstractBufferedFile with its own discard())."""
    from fsspec.spec import AbstractBufferedFile

    return isinstance(f, AbstractBufferedFile) and type(f).discard is not AbstractBufferedFile.discard
