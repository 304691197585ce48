"""The read plan quiver.dask and quiver.ray share: a dataset cut into parts
(a file, or some of its row groups) on the client, data read in the workers.

On the client (plan()): the files are listed, those whose partition keys rule
out every conjunction of the filters are dropped unopened (as
ParquetDataset does), then the kept files' footers are read (or the
_metadata file alone, when the directory has one) and each row group whose
min/max statistics rule out every DNF conjunction is dropped
(quiver._dataset_summary's conservative test); no data page is read there.
Each part is then read in a worker (ReadPart.__call__): the file opened
there, its row groups read with the part's filter pushed in (the reader's
own row group and page pruning), partition keys added as columns, exactly as
ParquetDataset.read builds a file's rows.
"""

import copy

from quiver import _dataset_filter, _dataset_summary


def _quiver():
    import quiver

    return quiver


def _filter_fields(filters):
    """The column names a filter (DNF lists or an Expression) refers to."""
    from quiver._compute_expression import filters_to_expression

    return set(filters_to_expression(filters).fields())


class Part:
    """One unit of work: a file, the row groups of it to read (None: all), the
    filter pushed into its read and the one applied after the keys are added;
    `listed`: what the directory listing said of the file (its size opens it
    in the worker without a HEAD request; None when unknown)."""

    __slots__ = ("path", "keys", "row_groups", "pushed", "post", "num_rows", "size_bytes",
                 "listed")

    def __init__(self, path, keys, row_groups, pushed, post, num_rows, size_bytes,
                 listed=None):
        self.path, self.keys, self.row_groups = path, keys, row_groups
        self.listed = listed
        self.pushed, self.post = pushed, post
        self.num_rows, self.size_bytes = num_rows, size_bytes

    def __getstate__(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, state):
        self.listed = None  # (a Part pickled before `listed` existed)
        for k, v in state.items():
            setattr(self, k, v)

    def __repr__(self):
        return f"Part({self.path!r}, row_groups={self.row_groups})"


class ReadPart:
    """Reads a Part into a quiver.Table in whichever process calls it (pickled
    to the workers: holds the dataset's key types and dictionaries, its
    filesystem and read options, the unified file schema and the result's
    column names; no file list)."""

    def __init__(self, dataset, file_schema, names, use_threads):
        slim = copy.copy(dataset)
        slim._files, slim._filters, slim._schema = [], None, None
        slim._summary, slim._summary_groups = None, None
        self.dataset, self.file_schema, self.names = slim, file_schema, list(names)
        self.use_threads = bool(use_threads)

    def with_columns(self, names):
        out = copy.copy(self)
        out.names = list(names)
        return out

    def __call__(self, part):
        from quiver._dataset import _File

        ds = self.dataset
        f = _File(part.path, part.keys, part.listed)
        _, pf = ds._open_one(f)
        try:
            columns = ds._file_columns(self.names, part.post, pf, self.file_schema)
            if part.row_groups is None:
                t = pf.read(columns=columns, use_threads=self.use_threads, filters=part.pushed)
            else:
                t = pf.read_row_groups(part.row_groups, columns=columns,
                                       use_threads=self.use_threads, filters=part.pushed)
        finally:
            pf.close()
        return ds._finish(t, f, self.file_schema, self.names, part.post)

    def empty(self, keys):
        """The result's columns with no row, as a pyarrow Table, built as a
        part's rows are (a file's keys for the key columns' types), the key
        columns' dictionaries holding every key value as a part's do: the
        meta of a Dask frame, the schema of Ray's read tasks."""
        import pyarrow as pa

        from quiver._dataset import _File

        q = _quiver()
        ds = self.dataset
        empty = q.table(pa.schema(self.file_schema).empty_table())
        t = pa.table(ds._finish(empty, _File("", keys), self.file_schema, self.names, None))
        pkeys = ds._pkeys(self.file_schema)
        for i, field in enumerate(t.schema):
            if field.name in pkeys and pa.types.is_dictionary(field.type):
                values = pa.array(ds._dictionaries[field.name], field.type.value_type)
                column = pa.DictionaryArray.from_arrays(pa.array([], field.type.index_type),
                                                        values)
                t = t.set_column(i, field, column)
        return t


def _chunks(row_groups, split_row_groups):
    """The parts' row group lists of one file."""
    if split_row_groups is False:
        return [row_groups]
    size = 1 if split_row_groups is True else split_row_groups
    return [row_groups[i:i + size] for i in range(0, len(row_groups), size)]


def _check_split(split_row_groups, who):
    if split_row_groups is True or split_row_groups is False:
        return
    if isinstance(split_row_groups, int) and split_row_groups > 0:
        return
    raise _quiver().InvalidError(
        f"{who}: split_row_groups must be False (one part per file), True (one per row "
        f"group) or a positive integer (that many row groups per part), not "
        f"{split_row_groups!r}")


def plan(path, columns, filters, filesystem, split_row_groups, use_threads, who, **dataset_options):
    """(ReadPart, [Part], the keys of the first file) of a dataset, pruned by
    partition keys and by row group statistics before any data is read."""
    q = _quiver()
    _check_split(split_row_groups, who)
    if isinstance(columns, str):
        raise q.InvalidError(f"{who}: columns must be a list of names, not the string "
                             f"{columns!r}")
    ds = q.ParquetDataset(path, filesystem=filesystem, **dataset_options)
    # Each file's DNF conjunctions left alive by its keys (when each has a
    # predicate on file columns): what its row groups' statistics are tested on.
    alive = {}

    def record(f, conjunctions):
        alive[f.path] = conjunctions
        return True

    planned = _dataset_filter.plan(ds._files, ds._keys, ds._key_types,
                                   [] if filters is None else [filters], record)
    kept = [f for f, _, _ in planned] or ds._files[:1]
    if ds._summary_groups is not None:
        groups = {f.path: ds._summary_groups.get(f.path, []) for f in kept}
        if ds._user_schema is not None:
            file_schema = ds._file_schema([])
        else:
            with q.ParquetFile(ds._summary, filesystem=ds._place.fs) as summary:
                file_schema = summary.schema_arrow
    else:
        opened = ds._open(kept, use_threads=True)
        try:
            file_schema = ds._file_schema(opened)
            groups = {}
            for f, pf in opened:
                md = pf.metadata
                groups[f.path] = [md.row_group(i) for i in range(md.num_row_groups)]
        finally:
            for _, pf in opened:
                pf.close()
    result = ds._result_schema(file_schema)
    names = ds._names(result, columns)
    if filters is not None:
        missing = sorted(_filter_fields(filters) - set(result.names))
        if missing:
            raise q.KeyError(f"{who}: filters name no column {missing[0]!r} (columns: "
                             f"{list(result.names)})")
    reader = ReadPart(ds, file_schema, names, use_threads)
    parts = []
    for f, pushed, post in planned:
        conjunctions = alive.get(f.path)
        indexed = [(i, rg) for i, rg in enumerate(groups[f.path])
                   if rg.num_rows > 0 and (conjunctions is None or
                                           _dataset_summary.may_match([rg], conjunctions))]
        for chunk in _chunks(indexed, split_row_groups) if indexed else []:
            everything = split_row_groups is False and len(chunk) == len(groups[f.path])
            parts.append(Part(f.path, f.keys, None if everything else [i for i, _ in chunk],
                              pushed, post, sum(rg.num_rows for _, rg in chunk),
                              sum(rg.total_byte_size for _, rg in chunk), f.listed))
    if not parts:  # everything pruned: one part reading no row group of the first file
        parts.append(Part(kept[0].path, kept[0].keys, [], None, None, 0, 0, kept[0].listed))
    return reader, parts, ds._files[0].keys
