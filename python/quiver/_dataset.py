"""quiver.ParquetDataset: a directory, a glob or a list of Parquet files read
as one table, hive partition keys (key=value directories) as columns.

    ds = quiver.ParquetDataset("out", filters=[("year", ">=", 2024)])
    ds.files, ds.schema
    t = ds.read(columns=["city", "amount"], filters=[("amount", ">", 10)])

Filters on partition keys prune whole files before any is opened; the rest
is pushed into each file's read (the reader's filters=, with its row group
and page pruning). See docs/design.md "Datasets".
"""

import concurrent.futures
import os
import re
import threading
from urllib.parse import unquote

from quiver import _dataset_schema as _schema
from quiver import _filesystem
from quiver._dataset_fs import GLOB_CHARS, Place, _hidden
from quiver._dataset_write import HIVE_NULL

_INT = re.compile(r"^[+-]?[0-9]+$")
_INT32 = (-(2**31), 2**31 - 1)


def _quiver():
    import quiver

    return quiver


def _hive_keys(relpath):
    """{key: value or None} of the key=value directories of a relative path."""
    keys = {}
    for segment in relpath.split("/")[:-1]:
        if "=" in segment:
            k, v = segment.split("=", 1)
            v = unquote(v)
            keys[unquote(k)] = None if v == HIVE_NULL else v
    return keys


def _infer_type(values):
    """pyarrow's hive inference: int32 if every value is an integer that fits,
    else string."""
    present = [v for v in values if v is not None]
    if present and all(_INT.match(v) and _INT32[0] <= int(v) <= _INT32[1] for v in present):
        return "int32"
    return "string"


class _File:
    """A data file: its path, its partition keys ({key: value text or None};
    the files of one directory share one dict, which is never modified) and
    what the directory listing said of it (`listed`: fsspec's info dict or a
    pyarrow.fs.FileInfo, whose size opens it without a request; None)."""

    __slots__ = ("path", "keys", "listed")

    def __init__(self, path, keys, listed=None):
        self.path, self.keys, self.listed = path, keys, listed


def _files_of(found, partitioning):
    """[_File] of [(path, relative path, listed)]: each directory's keys
    parsed once, its files sharing them."""
    by_dir, out, none = {}, [], {}
    for path, rel, listed in found:
        if not partitioning:
            out.append(_File(path, none, listed))
            continue
        cut = rel.rfind("/")
        d = rel[:cut] if cut >= 0 else ""
        keys = by_dir.get(d)
        if keys is None:
            keys = by_dir[d] = _hive_keys(rel)
        out.append(_File(path, keys, listed))
    return out


class ParquetDataset:
    """Parquet files read as one table (pyarrow.parquet.ParquetDataset's names).

    path_or_paths: a directory (every file below it, sorted, names starting
    with '.' or '_' skipped), a glob ('data/*/part-*.parquet', the keys
    parsed below the part before the first wildcard) or a list of files.
    partitioning: 'hive' (key=value directories become columns, typed as
    pyarrow's pq.read_table types them: dictionary<int32> when every value
    is an int32, else dictionary<string>, __HIVE_DEFAULT_PARTITION__ a null;
    or as `schema` types them) or None (no partition columns).
    filters: pyarrow's DNF lists or an Expression, applied to every read
    (read()'s own filters are ANDed to them). schema: the schema of the
    result (file columns cast to it, missing ones nulls, others dropped).
    promote_options: 'default' (every file read must have the first's
    columns and types; quiver.InvalidError naming the two files and the
    field otherwise) or 'permissive' (the union of the columns, missing
    ones nulls; integers widened, integer and float to float64, string to
    large_string). Other keywords are read options of read_table's
    (read_dictionary=, binary_type=, ...)."""

    def __init__(self, path_or_paths, filters=None, partitioning="hive", filesystem=None,
                 schema=None, promote_options="default", **read_options):
        q = _quiver()
        if partitioning not in ("hive", None):
            raise q.NotImplementedError(
                f"ParquetDataset: partitioning={partitioning!r}: Quiver reads hive "
                f"partitioning ('hive') or none (None)")
        if promote_options not in ("default", "permissive"):
            raise q.InvalidError(f"ParquetDataset: promote_options must be 'default' or "
                                 f"'permissive', not {promote_options!r}")
        if "row_groups" in read_options:
            raise q.InvalidError("row_groups= reads one file's row groups; a dataset has "
                                 "several files (use quiver.ParquetFile)")
        self._filters = filters
        self._promote, self._read_options = promote_options, read_options
        self._user_schema = None if schema is None else (
            schema if isinstance(schema, q.Schema) else q.Schema._import(schema))
        found, self._place, summary = self._discover(path_or_paths, filesystem)
        # With a _metadata file: its path, and each file's row groups in it.
        self._summary, self._summary_groups = summary if summary else (None, None)
        files = _files_of(found, partitioning)
        if not files:
            raise q.InvalidError(f"ParquetDataset: no file in {path_or_paths!r}")
        self._files = files
        # Key names, types and dictionaries from the distinct key dicts (one
        # per directory), in the order the files first show them.
        distinct = list({id(f.keys): f.keys for f in files}.values())
        self._keys = list(dict.fromkeys(k for keys in distinct for k in keys))
        self._key_types = {}
        for k in self._keys:
            user = self._user_field(k)
            self._key_types[k] = user.type if user is not None else \
                _infer_type([keys.get(k) for keys in distinct])
        self._dictionaries = {k: list(dict.fromkeys(
            _schema.typed(keys.get(k), self._key_types[k]) for keys in distinct
            if keys.get(k) is not None)) for k in self._keys}
        self._schema = None
        self._read_stats, self._files_pruned = _sum_stats([]), 0
        self._files_opened = self._opens_last = 0
        # What every read of the dataset shares, built once when first
        # needed: "rows" (the key combinations' KeyRows), "key_types" (the
        # partition columns' Arrow types). Not pickled (quiver.dask ships a
        # copy of the dataset): a copy builds its own.
        self._memo = {}

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_memo"] = {}
        return state

    # --- discovery -----------------------------------------------------------------

    @staticmethod
    def _discover(path_or_paths, filesystem):
        """([(path, path the keys are parsed from, what the listing said of
        it or None)], the Place, the _metadata file's path or None)."""
        if isinstance(path_or_paths, (list, tuple)):
            if not path_or_paths:
                raise _quiver().InvalidError("ParquetDataset: an empty list of files")
            places = [Place(p, filesystem) for p in path_or_paths]
            for p, given in zip(places, path_or_paths):
                if (p.kind, p.fs) != (places[0].kind, places[0].fs):
                    raise _quiver().InvalidError(
                        f"ParquetDataset: the files are on different filesystems "
                        f"({path_or_paths[0]!r} and {given!r})")
            return [(p.root, p.root, None) for p in places], places[0], None
        place = Place(path_or_paths, filesystem)
        root = place.root
        if any(c in root for c in GLOB_CHARS) and not place.exists(root):
            return [(p, rel, None) for p, rel in place.glob(root) if not _hidden(rel)], \
                place, None
        # On a remote filesystem each call is a request: one recursive listing
        # tells a directory (files below the root), its files and whether it
        # has a _metadata file. (Nothing below the root: a file, an empty
        # directory or nothing, told apart as on a local path.)
        listing = _remote_listing(place) if place.kind != "local" else None
        if listing:
            if any(e[1] == "_metadata" for e in listing):
                found, groups = _summary_files(place, known=True)
                return found, place, (place.join("_metadata"), groups)
            return [e for e in listing if not _hidden(e[1])], place, None
        if place.isdir(root):
            summary = _summary_files(place)
            if summary is not None:
                found, groups = summary
                return found, place, (place.join("_metadata"), groups)
            return place.listing(root), place, None
        if not place.exists(root):
            raise _quiver().IOError(f"{place.name(root)}: no such file or directory")
        return [(root, os.path.basename(root), None)], place, None

    def _user_field(self, name):
        s = self._user_schema
        if s is None or name not in s.names:
            return None
        return s.field(s.get_field_index(name))

    @property
    def files(self):
        """The files' paths (on the filesystem: no scheme), in read order."""
        return [f.path for f in self._files]

    @property
    def partition_keys(self):
        """The partition columns' names, as they come after the file columns."""
        return list(self._keys)

    @property
    def schema(self):
        """The schema read() returns (from the _metadata file when the directory
        has one, else from every file's footer, read once)."""
        if self._schema is None and self._summary is not None:
            q = _quiver()
            with q.ParquetFile(self._summary, filesystem=self._place.fs) as f:
                s = f.schema_arrow
            base = s if self._user_schema is None else \
                _schema.without(self._user_schema, self._keys)
            self._schema = self._result_schema(base)
        if self._schema is None:
            opened = self._open(self._files, True)
            try:
                self._schema = self._result_schema(self._file_schema(opened))
            finally:
                self._keep(opened)
        return self._schema

    @property
    def read_stats(self):
        """What the last read() or iter_batches() did: ParquetFile.read_stats's
        counters summed over the files read (iter_batches adds each batch's
        work as it is read), and files_pruned: the files the partition key
        filters left unopened, and files_opened: the files it opened (a
        footer read each; those .schema opened are not opened again)."""
        return dict(self._read_stats, files_pruned=self._files_pruned,
                    files_opened=self._files_opened)

    # --- reading ---------------------------------------------------------------------

    def _open_one(self, f):
        q = _quiver()
        try:
            return f, self._parquet_file(f)
        except q.QuiverError as e:
            name = self._place.name(f.path)
            if str(e).startswith(name) or str(e).startswith(f"'{name}'"):
                raise
            raise type(e)(f"{name}: {e}") from e

    def _parquet_file(self, f):
        """The ParquetFile of a data file; a file the remote listing found is
        opened with the size the listing gave (no request before the
        footer's)."""
        q = _quiver()
        place = self._place
        if place.kind == "local" or f.listed is None:
            return q.ParquetFile(f.path, filesystem=place.fs, **self._read_options)
        remote = _filesystem.open_listed(place.kind, place.fs, f.path, place.name(f.path),
                                         f.listed)
        try:
            with _filesystem.naming(remote):
                pf = q.ParquetFile(remote, **self._read_options)
        except BaseException:
            remote.close()
            raise
        # Closed with the ParquetFile, as a file it opens on a filesystem.
        pf._opened, pf._close_source = remote, True
        return pf

    def _open(self, files, use_threads=False):
        """[(file, ParquetFile)]: the footers read, several files at once with
        use_threads or on a remote filesystem (a remote open waits on the
        network, as pyarrow's I/O threads do whatever use_threads says). A
        file .schema opened and kept (_keep) is taken, not opened again: its
        footer is read once. On an error every file opened is closed."""
        spare = self._memo.setdefault("spare", {})
        opened = [(f, spare.pop(f.path, None)) for f in files]
        todo = [i for i, (_, pf) in enumerate(opened) if pf is None]
        parallel = (use_threads or self._place.kind != "local") and len(todo) > 1
        futures = [_pool().submit(self._open_one, files[i]) for i in todo] if parallel else []
        error = None
        for n, i in enumerate(todo):
            try:
                opened[i] = futures[n].result() if parallel else self._open_one(files[i])
            except BaseException as e:  # noqa: BLE001 - the first is raised once all are done
                error = error or e
                if not parallel:
                    break
        if error is not None:
            _close([(f, pf) for f, pf in opened if pf is not None])
            raise error
        self._opens_last = len(todo)
        return opened

    def _keep(self, opened):
        """The files .schema opened, kept open for the next read (which takes
        those it reads: their footers are read once), up to _KEEP_OPEN of
        them; the others closed. (A read closes its files: the next read
        opens them again, as a new dataset would.)"""
        spare = self._memo.setdefault("spare", {})
        for f, pf in opened:
            if len(spare) < _KEEP_OPEN and spare.setdefault(f.path, pf) is pf:
                continue
            pf.close()

    def _file_schema(self, opened):
        """The unified schema of the files' columns (with schema=, its fields
        less the partition keys)."""
        if self._user_schema is not None:
            return _schema.without(self._user_schema, self._keys)
        # Files whose schemas print the same have the same fields: the first
        # file of each distinct schema stands for the others (one schema
        # imported for a dataset whose files agree).
        seen, schemas = set(), []
        for f, pf in opened:
            text = pf._file.schema_string()
            if text not in seen:
                seen.add(text)
                schemas.append((self._place.name(f.path), pf.schema_arrow))
        if len(schemas) == 1 and self._promote != "permissive":
            return schemas[0][1]  # (unify's answer: every file's schema is the first's)
        return _schema.unify(schemas, self._promote == "permissive")

    def _pkeys(self, file_schema):
        """The keys added as partition columns: those the files do not hold
        (a key the files hold too, as polars writes them, is read from the
        files, as polars and duckdb read it; the path still prunes)."""
        return [k for k in self._keys if k not in file_schema.names]

    def _result_schema(self, file_schema):
        types = self._memo.get("key_types")
        if types is None:
            types = self._memo["key_types"] = {k: _schema.key_type(
                self._key_types[k], self._dictionaries[k]) for k in self._keys}
        return _schema.with_partitions(file_schema, self._pkeys(file_schema), types,
                                       self._user_schema)

    def _plan(self, filters):
        """[(file, pushed Expression or None, post Expression or None)] of the
        files some row of which may pass the filters."""
        from quiver import _dataset_filter

        may_match = None
        if self._summary_groups is not None:
            from quiver import _dataset_summary

            groups = self._summary_groups
            may_match = lambda f, conjunctions: _dataset_summary.may_match(  # noqa: E731
                groups.get(f.path, []), conjunctions)
        rows = self._memo.get("rows")
        if rows is None:
            rows = self._memo["rows"] = _dataset_filter.KeyRows(self._keys, self._key_types,
                                                                 self._files)
        return _dataset_filter.plan(self._files, self._keys, self._key_types,
                                    [f for f in (self._filters, filters) if f is not None],
                                    may_match, rows)

    def read(self, columns=None, use_threads=True, filters=None):
        """The rows of every file (after pruning) as one quiver.Table, files in
        order, the file columns then the partition columns (or `columns`, in
        their order). filters: ANDed to the dataset's."""
        return self._read(columns, use_threads, filters, None)

    def _read(self, columns, use_threads, filters, batch_size):
        """read(); batch_size (read_table's): each file's rows in chunks of it."""
        q = _quiver()
        plan = self._plan(filters)
        files = [f for f, _, _ in plan]
        self._read_stats = _sum_stats([])
        self._files_pruned = len(self._files) - len(files)
        if not files:  # every file pruned: the empty result needs the schema
            return self._empty(columns)
        opened = self._open(files, use_threads)
        self._files_opened = self._opens_last
        try:
            file_schema = self._file_schema(opened)
            result = self._result_schema(file_schema)
            names = self._names(result, columns)
            fast = self._plain_columns(opened, plan, file_schema, names)
            if fast is not None:
                tables = self._read_plain(opened, plan, fast, use_threads, batch_size)
            else:
                jobs = [(pf, f, file_schema, names, pushed, post, use_threads, batch_size)
                        for (f, pf), (_, pushed, post) in zip(opened, plan)]
                if use_threads and len(jobs) > 1:
                    tables = list(_pool().map(lambda job: self._read_one(*job), jobs))
                else:
                    tables = [self._read_one(*job) for job in jobs]
            self._read_stats = _sum_stats(pf.read_stats for _, pf in opened)
        finally:
            _close(opened)
        if fast is not None:
            return self._assemble(tables, files, file_schema, names)
        return q.concat_tables(tables)

    def _plain_columns(self, opened, plan, file_schema, names):
        """The file columns every file is read with when no file needs
        _finish's per-file work (every file's schema printing as the
        first's, the columns wanted there with the unified types, no filter
        applied after the keys are added, no duplicate name), else None."""
        if not names or len(set(names)) != len(names) or any(p is not None for _, _, p in plan):
            return None
        first = opened[0][1]._file.schema_string()
        if any(pf._file.schema_string() != first for _, pf in opened[1:]):
            return None
        pkeys = self._pkeys(file_schema)
        wanted = [n for n in names if n not in pkeys]
        have = opened[0][1].schema_arrow
        for n in wanted:
            if n not in have.names or str(have.field(have.get_field_index(n)).type) != \
                    str(file_schema.field(file_schema.get_field_index(n)).type):
                return None
        return wanted

    def _read_plain(self, opened, plan, wanted, use_threads, batch_size):
        """Each file's rows of the columns `wanted`, as the reader gives them."""
        from quiver._parquet import _filter_expression

        exprs = {}  # the files of a directory share their pushed expression

        def expr(pushed):
            if id(pushed) not in exprs:
                exprs[id(pushed)] = _filter_expression(pushed)
            return exprs[id(pushed)]

        jobs = [(pf, expr(pushed)) for (_, pf), (_, pushed, _) in zip(opened, plan)]
        threads = bool(use_threads)

        def one(job):
            return job[0]._reader().read(wanted, None, batch_size, job[1], threads)
        if use_threads and len(jobs) > 1:
            return list(_pool().map(one, jobs))
        return [one(job) for job in jobs]

    def _assemble(self, tables, files, file_schema, names):
        """The result of _read_plain's tables: the file columns concatenated
        (a chunk per file as the reader gave it), each partition column
        built once per distinct value at the largest file's row count and
        sliced per file (a chunk per file, as _finish adds it)."""
        q = _quiver()
        from quiver import _quiver as native

        pkeys = self._pkeys(file_schema)
        wanted = [n for n in names if n not in pkeys]
        rows = [t.num_rows for t in tables]
        merged = q.concat_tables(tables) if wanted else None
        columns = []
        for n in names:
            if n not in pkeys:
                columns.append(merged.column(wanted.index(n)))
                continue
            longest = {}
            for f, r in zip(files, rows):
                v = f.keys.get(n)
                longest[v] = max(r, longest.get(v, 0))
            base = {v: _schema.key_column(v, r, self._key_types[n],
                                          dictionary=self._dictionaries[n])
                    for v, r in longest.items()}
            chunks = [base[f.keys.get(n)].slice(0, r) for f, r in zip(files, rows)]
            columns.append(native._chunked_array(chunks, chunks[0].type))
        return native._table_from_columns(columns, names, None)

    def iter_batches(self, batch_size=65536, columns=None, use_threads=True, filters=None):
        """The rows as quiver.RecordBatches of at most batch_size rows, file by
        file (each file's batches as ParquetFile.iter_batches yields them)."""
        plan = self._plan(filters)
        self._read_stats = _sum_stats([])
        self._files_pruned = len(self._files) - len(plan)
        if not plan:
            return
        opened = self._open([f for f, _, _ in plan], use_threads)
        self._files_opened = self._opens_last
        try:
            file_schema = self._file_schema(opened)
            result = self._result_schema(file_schema)
            names = self._names(result, columns)
            for (f, pf), (_, pushed, post) in zip(opened, plan):
                done = self._read_stats
                file_cols = self._file_columns(names, post, pf, file_schema)
                for batch in pf.iter_batches(batch_size=batch_size, columns=file_cols,
                                             use_threads=use_threads, filters=pushed):
                    self._read_stats = _sum_stats([done, pf.read_stats])
                    t = _quiver().Table.from_batches([batch])
                    t = self._finish(t, f, file_schema, names, post)
                    if t.num_rows:
                        yield from t.to_batches()
        finally:
            _close(opened)

    def _names(self, result, columns):
        if columns is None:
            return list(result.names)
        missing = [c for c in columns if c not in result.names]
        if missing:
            raise _quiver().KeyError(f"ParquetDataset: no column {missing[0]!r} (columns: "
                                     f"{list(result.names)})")
        return list(columns)

    def _file_columns(self, names, post, pf, file_schema):
        pkeys = self._pkeys(file_schema)
        wanted = [n for n in names if n not in pkeys]
        if post is not None:
            wanted += [n for n in post.fields() if n not in pkeys and n not in wanted]
        present = set(pf.schema_arrow.names)
        return [n for n in wanted if n in present]

    def _read_one(self, pf, f, file_schema, names, pushed, post, use_threads, batch_size):
        from quiver._parquet import _filter_expression

        t = pf._reader().read(self._file_columns(names, post, pf, file_schema), None, batch_size,
                              _filter_expression(pushed), bool(use_threads))
        return self._finish(t, f, file_schema, names, post)

    def _finish(self, t, f, file_schema, names, post):
        """A file's rows as the result's columns `names`: file columns
        conformed to the unified schema, partition columns added, the
        post-filter (an expression mixing keys and columns) applied."""
        pkeys = self._pkeys(file_schema)
        wanted = list(names)
        if post is not None:
            wanted += [n for n in post.fields() if n not in wanted]
        t = _schema.conform(t, file_schema, [n for n in wanted if n not in pkeys],
                            self._place.name(f.path))
        if post is not None:
            for k in (n for n in post.fields() if n in pkeys):
                t = t.append_column(k, _schema.key_column(f.keys.get(k), t.num_rows,
                                                          self._key_types[k], plain=True))
            t = t.filter(post)
        t = t.select([n for n in names if n not in pkeys])
        for i, n in enumerate(names):
            if n in pkeys:
                t = t.add_column(i, n, _schema.key_column(
                    f.keys.get(n), t.num_rows, self._key_types[n],
                    dictionary=self._dictionaries[n]))
        return t

    def _empty(self, columns):
        """No file passes the filters: no rows, the columns of the _metadata
        file's schema, or else of the first file's footer (the only file
        opened)."""
        if self._summary is not None:
            # _metadata is a Parquet file (no data): its footer gives the columns.
            opened = self._open([_File(self._summary, {})])
        else:
            opened = self._open(self._files[:1])
        self._files_opened = self._opens_last
        try:
            file_schema = self._file_schema(opened)
            result = self._result_schema(file_schema)
            names = self._names(result, columns)
            (f, pf), = opened
            t = pf.read_row_groups([], columns=self._file_columns(names, None, pf, file_schema))
            return self._finish(t, f, file_schema, names, None)
        finally:
            _close(opened)


def _remote_listing(place):
    """[(file, path under the root, what the listing said of it)] of every
    file below a remote root (one listing; the _metadata file included), or
    [] when the root is no directory (a file, or nothing)."""
    try:
        listing = place.files_under(place.root, detail=True)
    except (FileNotFoundError, NotADirectoryError, OSError):
        return []
    prefix = place.root.rstrip("/") + "/"
    return [e for e in listing if e[0].startswith(prefix)]


def _summary_files(place, known=False):
    """([(file, its path under the directory)], {file: [RowGroupMetaData]})
    of the data files a directory's _metadata names (its row groups'
    file_path, in order), or None without one (`known`: the listing showed
    it, no request asks again). Only _metadata is opened: listing, .schema
    and pruning by its statistics open no data file."""
    path = place.join("_metadata")
    if not known and not place.exists(path):
        return None
    q = _quiver()
    with q.ParquetFile(path, filesystem=place.fs) as f:
        md = f.metadata
    row_groups = [md.row_group(i) for i in range(md.num_row_groups)] if md.num_columns else []
    by_file = {}
    for rg in row_groups:
        by_file.setdefault(rg.column(0).file_path, []).append(rg)
    if not by_file or "" in by_file:
        raise q.InvalidError(f"{place.name(path)}: a _metadata file whose row groups name "
                             f"no file_path (write it with quiver.write_metadata from "
                             f"write_to_dataset's metadata_collector)")
    found = [(place.join(*r.split("/")), r, None) for r in by_file]
    return found, {p: by_file[r] for p, r, _ in found}


# The files .schema keeps open for the next read (_keep): their footers are
# read once; past this many, the others are closed.
_KEEP_OPEN = 128

_POOL = None
_POOL_LOCK = threading.Lock()


def _pool():
    """The threads that open and read a dataset's files at once (use_threads):
    as many as the CPUs the process may use, at least 8, since a remote file's
    reads wait on the network (each file's decoding has Quiver's own pool)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
                (os.cpu_count() or 1)
            _POOL = concurrent.futures.ThreadPoolExecutor(
                max_workers=max(8, cpus), thread_name_prefix="quiver-dataset")
        return _POOL


_STATS = ("row_groups_pruned_statistics", "row_groups_pruned_bloom",
          "row_groups_pruned_dictionary", "pages_skipped", "pages_decompressed", "bytes_read",
          "values_decoded")


def _sum_stats(stats):
    out = dict.fromkeys(_STATS, 0)
    for st in stats:
        for k in _STATS:
            out[k] += st.get(k, 0)
    return out


def _close(opened):
    for _, pf in opened:
        pf.close()


def is_dataset_source(source, filesystem):
    """Whether read_table's source is a dataset (a list of files, a glob, or
    a local directory; a remote directory is found when opening it fails)."""
    if isinstance(source, (list, tuple)):
        return True
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if not isinstance(source, str):
        return False
    place = Place(source, filesystem)
    if place.kind == "local":
        if os.path.isdir(place.root):
            return True
        return any(c in place.root for c in GLOB_CHARS) and not os.path.exists(place.root)
    return any(c in place.root for c in GLOB_CHARS)


def is_remote_directory(source, filesystem):
    try:
        place = Place(os.fspath(source), filesystem)
        return place.kind != "local" and place.isdir(place.root)
    except Exception:  # noqa: BLE001 - the caller re-raises its own error
        return False


def read_dataset_table(source, columns, filters, use_threads, filesystem, options):
    """read_table of a directory, a glob or a list of files."""
    options = dict(options)
    batch_size = options.pop("batch_size", None)
    return ParquetDataset(source, filesystem=filesystem, **options)._read(
        columns, use_threads, filters, batch_size)
