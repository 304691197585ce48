"""The directory operations datasets need (list, glob, make, delete, is-dir)
on the three kinds of place quiver._filesystem resolves: a local path, an
fsspec filesystem and a pyarrow.fs.FileSystem. Files are opened for reading
and writing by quiver._filesystem (read_table / write_parquet with
`filesystem=`); listing a directory opens no file."""

import glob as _glob
import os
import shutil

from quiver import _filesystem

GLOB_CHARS = "*?["
_OBJECT_STORES = ("s3", "gcs", "abfs")


class Place:
    """A root (a directory, a glob or a file) and the filesystem it is on.
    `fs` is what read_table / write_parquet take as `filesystem=` (None for a
    local path); paths are the filesystem's own (no scheme)."""

    def __init__(self, root, filesystem, writing=False):
        if isinstance(root, os.PathLike):
            root = os.fspath(root)
        target = _filesystem.resolve(root, filesystem, writing=writing)
        if target is None:
            self.kind, self.root, self.fs = "local", root, None
        else:
            self.kind, self.root = target.kind, target.path
            self.fs = target.fs if target.kind != "local" else None
        self._uri = None if target is None or target.kind == "local" else target.name
        self.root = self.root.rstrip("/") or "/"

    def name(self, path):
        """A path as messages show it (a URI for a remote filesystem)."""
        if self.kind == "fsspec":
            return self.fs.unstrip_protocol(path)
        if self.kind == "pyarrow":
            return f"{self.fs.type_name}://{path}"
        return path

    def join(self, *parts):
        return "/".join([self.root, *parts]) if self.kind != "local" else os.path.join(self.root, *parts)

    def isdir(self, path):
        if self.kind == "local":
            return os.path.isdir(path)
        if self.kind == "fsspec":
            return self.fs.isdir(path)
        import pyarrow.fs as pafs

        return self.fs.get_file_info(path).type == pafs.FileType.Directory

    def exists(self, path):
        if self.kind == "local":
            return os.path.exists(path)
        if self.kind == "fsspec":
            return self.fs.exists(path)
        import pyarrow.fs as pafs

        return self.fs.get_file_info(path).type != pafs.FileType.NotFound

    def makedirs(self, path):
        if self.kind == "local":
            os.makedirs(path, exist_ok=True)
        elif self.kind == "fsspec":
            self.fs.makedirs(path, exist_ok=True)
        elif self.fs.type_name not in _OBJECT_STORES:
            # An object store has no directories: pyarrow's create_dir would
            # leave an empty "dir/" marker object for each.
            self.fs.create_dir(path, recursive=True)

    def delete_dir(self, path):
        """Removes a directory and everything under it (nothing if absent)."""
        if not self.exists(path):
            return
        if self.kind == "local":
            shutil.rmtree(path)
        elif self.kind == "fsspec":
            self.fs.rm(path, recursive=True)
        else:
            self.fs.delete_dir(path)

    def files_under(self, path, detail=False):
        """Every file below a directory, sorted, as (path, path relative to
        it); detail: (path, relative path, what the listing said of the
        file: fsspec's info dict, a pyarrow.fs.FileInfo, None for a local
        file). One request on an object store."""
        out = []
        if self.kind == "local":
            # (os.walk's paths start with `path`: the relative path is the
            # rest, without os.path.relpath's normalization per file.)
            cut = len(path if path.endswith(os.sep) else path + os.sep)
            for d, dirs, files in os.walk(path):
                dirs.sort()
                for f in files:
                    full = os.path.join(d, f)
                    out.append((full, full[cut:].replace(os.sep, "/"), None))
        elif self.kind == "fsspec":
            prefix = path.rstrip("/") + "/"
            for full, info in self.fs.find(path, detail=True).items():
                full = self.fs._strip_protocol(full)
                out.append((full, full[len(prefix):] if full.startswith(prefix) else full, info))
        else:
            import pyarrow.fs as pafs

            prefix = path.rstrip("/") + "/"
            for info in self.fs.get_file_info(pafs.FileSelector(path, recursive=True)):
                if info.type == pafs.FileType.File:
                    full = info.path
                    out.append((full, full[len(prefix):] if full.startswith(prefix) else full,
                                info))
        out.sort(key=lambda e: e[0])
        return out if detail else [(full, rel) for full, rel, _ in out]

    def listing(self, path):
        """The data files below a directory, sorted, as files_under(detail=True)
        gives them, less names starting with '.' or '_' (pyarrow's
        ignore_prefixes): a local directory so named is not even entered
        (os.scandir, no stat per file), an object store's one listing is
        filtered. The sizes an object store's listing gives open the files
        without asking again (quiver._filesystem.open_listed)."""
        if self.kind == "local":
            out = _scan_local(path)
            out.sort(key=lambda e: e[0])
            return out
        return [e for e in self.files_under(path, detail=True) if not _hidden(e[1])]

    def glob(self, pattern):
        """The files a glob pattern matches, sorted, as (path, path relative to
        the pattern's directory part before its first wildcard)."""
        cut = min(i for i in (pattern.find(c) for c in GLOB_CHARS) if i >= 0)
        base = pattern[:cut].rsplit("/", 1)[0] if "/" in pattern[:cut] else ""
        if self.kind == "local":
            found = [p for p in _glob.glob(pattern, recursive=True) if os.path.isfile(p)]
        elif self.kind == "fsspec":
            found = [self.fs._strip_protocol(p) for p in self.fs.glob(pattern)
                     if not self.fs.isdir(p)]
        else:
            from quiver import NotImplementedError as NotBuilt

            raise NotBuilt(f"{pattern}: glob patterns are not expanded on a pyarrow.fs "
                           f"filesystem (pass the directory or a list of files)")
        prefix = base + "/" if base else ""
        return sorted((p, p[len(prefix):] if prefix and p.startswith(prefix) else p) for p in found)


def _hidden(relpath):
    """pyarrow's ignore_prefixes: a file or directory named '.x' or '_x'."""
    return any(part.startswith((".", "_")) for part in relpath.split("/"))


def _scan_local(root):
    """[(path, relative path, None)] of the files below a local directory
    (os.scandir: a directory entry's type comes with the listing, no stat
    per file), names starting with '.' or '_' skipped and not entered;
    symbolic links to directories are not followed (as os.walk). A
    directory that cannot be listed is an error naming it."""
    out = []
    stack = [(root, "")]
    while stack:
        d, rel = stack.pop()
        try:
            with os.scandir(d) as it:
                entries = list(it)
        except OSError as e:
            from quiver import IOError as QuiverIOError

            raise QuiverIOError(f"{d}: cannot list the directory: {e.strerror or e}") from e
        for entry in entries:
            name = entry.name
            if name.startswith((".", "_")):
                continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if not entry.is_symlink():
                    stack.append((entry.path, rel + name + "/"))
            else:
                out.append((entry.path, rel + name, None))
    return out
