"""quiver.dask: Parquet datasets as Dask DataFrames, Quiver reading and
writing the files in the workers.

    import quiver.dask
    ddf = quiver.dask.read_parquet("s3://bucket/sales", columns=["city", "amount"],
                                   filters=[("year", ">=", 2024)])
    quiver.dask.to_parquet(ddf, "out", partition_on=["year"],
                           use_content_defined_chunking=True)

read_parquet: one partition per file (split_row_groups=True: per row group;
an integer n: n row groups per partition). Files are pruned by their
partition keys and row groups by the statistics in their footers (or in the
directory's _metadata) on the client before the graph is built; the client
reads footers only, each partition's data is read in a worker
(quiver._scaleout). The partitions are pandas frames converted as
dask.dataframe.read_parquet converts them (see _TypesMapper).

to_parquet: one file per partition written in the workers, named
part.N.parquet as Dask names them (partition_on: hive directories through
quiver.write_to_dataset, part.N.M.parquet in each, M the file's number in
its directory); returns the files' quiver.FileMetaData, file_path set
relative to the root.

Importing quiver does not import Dask; `quiver.dask` (or `import
quiver.dask`) does, with an ImportError naming the packages when it is not
installed.
"""

try:
    import dask
    import dask.dataframe as dd
    import pandas as pd
    import pyarrow as pa
except ImportError as e:  # pragma: no cover - exercised in the minimal venv test
    raise ImportError(f"quiver.dask needs the 'dask[dataframe]' and 'distributed' packages "
                      f"(pip install 'dask[dataframe]' distributed): {e}") from e

from quiver import _scaleout

_WHO_READ = "quiver.dask.read_parquet"
_WHO_WRITE = "quiver.dask.to_parquet"
_BACKENDS = (None, "numpy_nullable", "pyarrow")


def _quiver():
    import quiver

    return quiver


class _TypesMapper:
    """pyarrow -> pandas dtypes as dask.dataframe.read_parquet maps them
    (dask/dataframe/io/parquet/arrow.py, _determine_type_mapper): with
    dask's 'dataframe.convert-string' (on by default) strings become
    pd.StringDtype('pyarrow') and dates and decimals pd.ArrowDtype; then
    dtype_backend 'numpy_nullable' (pandas' nullable dtypes) or 'pyarrow'
    (pd.ArrowDtype for every column, strings as pd.StringDtype('pyarrow'))."""

    def __init__(self, dtype_backend, convert_string):
        self.dtype_backend, self.convert_string = dtype_backend, convert_string

    def __call__(self, t):
        if self.convert_string:
            if t in (pa.string(), pa.large_string()):
                return pd.StringDtype("pyarrow")
            if t in (pa.date32(), pa.date64()) or pa.types.is_decimal(t):
                return pd.ArrowDtype(t)
        if self.dtype_backend == "numpy_nullable":
            return _NULLABLE.get(t)
        if self.dtype_backend == "pyarrow":
            if t in (pa.string(), pa.large_string()):
                return pd.StringDtype("pyarrow")
            return pd.ArrowDtype(t)
        return None


_NULLABLE = {
    pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int32(): pd.Int32Dtype(),
    pa.int64(): pd.Int64Dtype(), pa.uint8(): pd.UInt8Dtype(), pa.uint16(): pd.UInt16Dtype(),
    pa.uint32(): pd.UInt32Dtype(), pa.uint64(): pd.UInt64Dtype(), pa.bool_(): pd.BooleanDtype(),
    pa.string(): pd.StringDtype(), pa.large_string(): pd.StringDtype(),
    pa.float32(): pd.Float32Dtype(), pa.float64(): pd.Float64Dtype(),
}


class _ReadPartition:
    """The function of the graph's read tasks: a part's rows as a pandas
    frame. `columns` (dask's column projection, ddf[["a"]]) narrows what
    is read."""

    def __init__(self, reader, mapper):
        self.reader, self.mapper = reader, mapper

    def to_pandas(self, table):
        return table.to_pandas(types_mapper=self.mapper, use_threads=False,
                               ignore_metadata=False)

    def __call__(self, part, columns=None):
        reader = self.reader
        if columns is not None and list(columns) != reader.names:
            reader = reader.with_columns(columns)
        return self.to_pandas(reader(part))


def read_parquet(path, columns=None, filters=None, filesystem=None, *, split_row_groups=False,
                 partitioning="hive", schema=None, promote_options="default", dtype_backend=None,
                 use_threads=False, **read_options):
    """A dask DataFrame of a Parquet file, a directory (hive partition keys as
    columns), a glob or a list of files, on a local path, a URI or
    `filesystem` (as quiver.ParquetDataset takes them).

    columns: the columns (file columns and partition keys) in this order.
    filters: pyarrow's DNF lists or an Expression, as read_table's: files
    whose partition keys rule out every conjunction and (DNF filters) row
    groups whose footer statistics do are left out of the graph; the rest is
    filtered in the workers' reads. split_row_groups: False (one partition
    per file), True (one per row group left) or n (n row groups per
    partition). partitioning, schema, promote_options and other keywords
    (read_dictionary=, binary_type=, ...): as ParquetDataset's.
    dtype_backend: None, 'numpy_nullable' or 'pyarrow', as dask's.
    use_threads: each read also decodes on Quiver's thread pool (off by
    default: Dask's workers are the parallelism). The index is the pandas
    metadata's, as pyarrow's to_pandas restores it; divisions are unknown."""
    q = _quiver()
    if dtype_backend not in _BACKENDS:
        raise q.InvalidError(f"{_WHO_READ}: dtype_backend must be None, 'numpy_nullable' or "
                             f"'pyarrow', not {dtype_backend!r}")
    reader, parts, first_keys = _scaleout.plan(
        path, columns, filters, filesystem, split_row_groups, use_threads, _WHO_READ,
        partitioning=partitioning, schema=schema, promote_options=promote_options,
        **read_options)
    # dask's 'dataframe.convert-string': None (unset) means on.
    mapper = _TypesMapper(dtype_backend,
                          dask.config.get("dataframe.convert-string") is not False)
    func = _ReadPartition(reader, mapper)
    meta = func.to_pandas(reader.empty(first_keys))
    # The parts convert their strings themselves (the mapper, as dask's
    # read_parquet does): from_map's own conversion, on with dask's
    # 'dataframe.convert-string', would turn every object column (lists,
    # binary) into strings.
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_map(func, parts, meta=meta, label="quiver-read-parquet",
                           enforce_metadata=False)


def _write_partition(df, index, root, fs, partition_on, name_function, preserve_index,
                     writer_options):
    """Writes one partition (in a worker): its files' FileMetaData."""
    q = _quiver()
    table = q.Table.from_pandas(df, preserve_index=preserve_index)
    collected = []
    if partition_on:
        stem = name_function(index)
        if stem.endswith(".parquet"):
            stem = stem[:-len(".parquet")]
        q.write_to_dataset(table, root, partition_cols=partition_on,
                           basename_template=stem + ".{i}.parquet", filesystem=fs,
                           metadata_collector=collected, use_threads=False, **writer_options)
        return collected
    name = name_function(index)
    q.write_parquet(table, f"{root.rstrip('/')}/{name}", filesystem=fs,
                    metadata_collector=collected, **writer_options)
    collected[0].set_file_path(name)
    return collected


def _finish_write(results, root, fs, write_metadata_file):
    collected = [md for written in results for md in written]
    if write_metadata_file and collected:
        from quiver._parquet_metadata import _from_footer

        summary = _from_footer(collected[0].serialize())
        for md in collected[1:]:
            summary.append_row_groups(md)
        summary.write_metadata_file(f"{root.rstrip('/')}/_metadata", filesystem=fs)
    return collected


def _default_name(i):
    return f"part.{i}.parquet"


def to_parquet(ddf, path, partition_on=None, filesystem=None, *, name_function=None,
               write_index=True, write_metadata_file=False, overwrite=False, compute=True,
               **writer_options):
    """Writes a dask DataFrame as a directory of Parquet files, one per
    partition, each written by the worker holding the partition.

    Files: `path`/part.N.parquet (N the partition's number; name_function(N)
    names them otherwise); partition_on: hive directories key=value as
    quiver.write_to_dataset writes them, the partition's rows of each key in
    `path`/key=value/.../part.N.M.parquet. write_index: the index stored as
    pyarrow's from_pandas stores it (a RangeIndex in the pandas metadata,
    another index as columns); False: not stored. write_metadata_file: a
    _metadata file of every file's row groups (False by default, as
    dask's). overwrite: the directory emptied first (else files of the same
    name are replaced and others left). Other keywords are
    quiver.write_parquet's (compression=, row_group_size=,
    use_content_defined_chunking=True, ...;
    an unknown one raises in the first write).

    Returns the files' quiver.FileMetaData (file_path relative to `path`),
    partition by partition; compute=False: a dask Delayed computing them."""
    q = _quiver()
    from quiver._dataset_fs import Place

    if not isinstance(ddf, dd.DataFrame):
        raise q.TypeError(f"{_WHO_WRITE}: a dask DataFrame, not {type(ddf).__name__}")
    partition_on = [partition_on] if isinstance(partition_on, str) else list(partition_on or [])
    missing = [c for c in partition_on if c not in ddf.columns]
    if missing:
        raise q.KeyError(f"{_WHO_WRITE}: no partition_on column {missing[0]!r} (columns: "
                         f"{list(ddf.columns)})")
    name_function = name_function or _default_name
    place = Place(path, filesystem, writing=True)
    if overwrite:
        place.delete_dir(place.root)
    place.makedirs(place.root)
    preserve_index = None if write_index else False
    writes = [dask.delayed(_write_partition)(part, i, place.root, place.fs, partition_on,
                                             name_function, preserve_index, writer_options)
              for i, part in enumerate(ddf.to_delayed())]
    done = dask.delayed(_finish_write)(writes, place.root, place.fs, write_metadata_file)
    return done.compute() if compute else done
