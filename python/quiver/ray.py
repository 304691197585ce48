"""quiver.ray: Parquet datasets read and written by Ray Data, Quiver doing
the I/O in Ray's tasks.

    import quiver.ray
    ds = quiver.ray.read_parquet("s3://bucket/sales", columns=["city", "amount"],
                                 filters=[("year", ">=", 2024)])
    sink = quiver.ray.ParquetDatasink("out", use_content_defined_chunking=True)
    ds.write_datasink(sink)
    sink.metadata          # the files' quiver.FileMetaData

read_parquet: a ParquetDatasource (a ray.data.Datasource) whose read tasks
each read a file (split_row_groups=True: a row group; n: n row groups),
planned on the driver from the footers only, pruned by partition keys and
row group statistics (quiver._scaleout); the data is read in the tasks.
ParquetDatasink: one Parquet file per write task, its blocks written one
after another (one row group or more each) by quiver.ParquetWriter.

Importing quiver does not import Ray; `quiver.ray` does, with an ImportError
naming the package when it is not installed.
"""

import uuid

try:
    import pyarrow as pa
    import ray.data
    from ray.data.block import BlockAccessor, BlockMetadata
    from ray.data.datasource import Datasink, Datasource, ReadTask
except ImportError as e:  # pragma: no cover - exercised in the minimal venv test
    raise ImportError(f"quiver.ray needs the 'ray[data]' package (pip install "
                      f"'ray[data]'): {e}") from e

from quiver import _scaleout

_WHO_READ = "quiver.ray.read_parquet"


def _quiver():
    import quiver

    return quiver


def _read_parts(reader, parts):
    """A read task's blocks: its parts read here (in the Ray task)."""
    for part in parts:
        yield reader(part).to_pyarrow()


class ParquetDatasource(Datasource):
    """A Parquet dataset as a Ray Data source (quiver.ray.read_parquet's
    arguments). The plan (files kept, row groups kept, one part each) is
    made when the source is built, from the footers; get_read_tasks makes
    one read task per part, or groups consecutive parts into `parallelism`
    tasks when Ray asks for fewer."""

    def __init__(self, paths, columns=None, filters=None, filesystem=None, *,
                 split_row_groups=False, partitioning="hive", schema=None,
                 promote_options="default", use_threads=False, **read_options):
        super().__init__()
        self._reader, self._parts, keys = _scaleout.plan(
            paths, columns, filters, filesystem, split_row_groups, use_threads, _WHO_READ,
            partitioning=partitioning, schema=schema, promote_options=promote_options,
            **read_options)
        self._schema = self._reader.empty(keys).schema

    @property
    def parts(self):
        """The planned parts, each (file path, row groups or None for all)."""
        return [(p.path, p.row_groups) for p in self._parts]

    def get_name(self):
        return "QuiverParquet"

    def estimate_inmemory_data_size(self):
        return sum(p.size_bytes for p in self._parts)

    def get_read_tasks(self, parallelism, per_task_row_limit=None, data_context=None):
        parts = self._parts
        n = max(1, min(int(parallelism), len(parts))) if parallelism and parallelism > 0 \
            else len(parts)
        groups = [parts[i * len(parts) // n:(i + 1) * len(parts) // n] for i in range(n)]
        tasks = []
        for group in groups:
            meta = BlockMetadata(num_rows=sum(p.num_rows for p in group),
                                 size_bytes=sum(p.size_bytes for p in group),
                                 input_files=tuple(dict.fromkeys(p.path for p in group)),
                                 exec_stats=None)
            reader = self._reader
            tasks.append(ReadTask(lambda reader=reader, group=group: _read_parts(reader, group),
                                  meta, schema=self._schema,
                                  per_task_row_limit=per_task_row_limit))
        return tasks


def read_parquet(paths, columns=None, filters=None, filesystem=None, *, split_row_groups=False,
                 partitioning="hive", schema=None, promote_options="default", use_threads=False,
                 override_num_blocks=None, ray_remote_args=None, **read_options):
    """A ray.data.Dataset of a Parquet file, a directory (hive keys as
    columns), a glob or a list of files, on a local path, a URI or
    `filesystem`: columns, filters, split_row_groups, partitioning,
    schema, promote_options and read options as quiver.dask.read_parquet's.
    override_num_blocks and ray_remote_args: ray.data.read_datasource's."""
    source = ParquetDatasource(paths, columns, filters, filesystem,
                               split_row_groups=split_row_groups, partitioning=partitioning,
                               schema=schema, promote_options=promote_options,
                               use_threads=use_threads, **read_options)
    kwargs = {}
    if override_num_blocks is not None:
        kwargs["override_num_blocks"] = override_num_blocks
    if ray_remote_args is not None:
        kwargs["ray_remote_args"] = ray_remote_args
    return ray.data.read_datasource(source, **kwargs)


class ParquetDatasink(Datasink):
    """Writes a ray.data.Dataset as a directory of Parquet files, for
    Dataset.write_datasink: one file per write task (its blocks in order),
    named <filename_prefix>_<task index, 6 digits>.parquet, the prefix a
    uuid4 hex per sink unless given (so two writes into one directory do not
    collide); a task with no row writes no file. Writer options are
    quiver.write_parquet's (compression=, row_group_size=,
    use_content_defined_chunking=True, ...;
    an unknown one raises in the first write). After the write, .metadata
    is the files' quiver.FileMetaData (file_path relative to `path`), in
    task order."""

    def __init__(self, path, *, filesystem=None, filename_prefix=None, **writer_options):
        from quiver._dataset_fs import Place

        self._place = Place(path, filesystem, writing=True)
        self._prefix = filename_prefix or uuid.uuid4().hex
        self._options = writer_options
        self.metadata = None

    def get_name(self):
        return "QuiverParquet"

    def on_write_start(self, schema=None):
        self._place.makedirs(self._place.root)

    def write(self, blocks, ctx):
        q = _quiver()
        name = f"{self._prefix}_{ctx.task_idx:06d}.parquet"
        path = f"{self._place.root.rstrip('/')}/{name}"
        writer = None
        try:
            for block in blocks:
                table = BlockAccessor.for_block(block).to_arrow()
                if table.num_rows == 0:
                    continue
                if writer is None:
                    writer = q.ParquetWriter(path, table.schema, filesystem=self._place.fs,
                                             **self._options)
                writer.write_table(table)
        except BaseException as e:
            if writer is not None:  # aborted: nothing left at the destination
                writer.__exit__(type(e), e, e.__traceback__)
            raise
        if writer is None:
            return []
        writer.close()
        md = writer.metadata
        md.set_file_path(name)
        return [md]

    def on_write_complete(self, write_result):
        self.metadata = [md for written in write_result.write_returns for md in written]
