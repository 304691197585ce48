"""quiver.write_to_dataset: a table written as a directory of Parquet files,
hive-partitioned (key=value directories) as pyarrow.parquet.write_to_dataset
writes it.

    quiver.write_to_dataset(table, "out", partition_cols=["year", "city"])
    # out/year=2024/city=New%20York/<uuid>-0.parquet, ...
"""

import datetime
import uuid
from urllib.parse import quote

from quiver._dataset_fs import Place

HIVE_NULL = "__HIVE_DEFAULT_PARTITION__"
_BEHAVIORS = ("overwrite_or_ignore", "error", "delete_matching")


def _quiver():
    import quiver

    return quiver


def _segment(name, value):
    """The key=value directory name of a partition value, escaped as pyarrow
    escapes it (percent-encoding of everything but A-Z a-z 0-9 - _ . ~);
    a null is __HIVE_DEFAULT_PARTITION__."""
    if value is None:
        text = HIVE_NULL
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int):
        text = str(value)
    elif isinstance(value, str):
        text = value
    elif isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        text = value.isoformat()
    else:
        raise _quiver().NotImplementedError(
            f"write_to_dataset: partition column {name!r} holds {type(value).__name__} values; "
            f"Quiver partitions by integer, string, boolean and date columns")
    return f"{name}={quote(text, safe='')}"


def _groups(table, partition_cols):
    """{(value, ...): [row, ...]} of the distinct key combinations, in the
    order they first appear; the rows of each in input order."""
    keys = [table.column(name).to_pylist() for name in partition_cols]
    groups = {}
    for row, key in enumerate(zip(*keys)):
        groups.setdefault(key, []).append(row)
    return groups


def _chunks(table, max_rows_per_file):
    if not max_rows_per_file or table.num_rows <= max_rows_per_file:
        return [table]
    return [table.slice(start, max_rows_per_file)
            for start in range(0, table.num_rows, max_rows_per_file)]


def _check(table, partition_cols, basename_template, existing_data_behavior, max_rows_per_file):
    q = _quiver()
    if existing_data_behavior not in _BEHAVIORS:
        raise q.InvalidError(f"write_to_dataset: existing_data_behavior must be one of "
                             f"{', '.join(map(repr, _BEHAVIORS))}, not {existing_data_behavior!r}")
    if basename_template is not None and "{i}" not in basename_template:
        raise q.InvalidError(f"write_to_dataset: basename_template {basename_template!r} "
                             f"must contain '{{i}}' (the file's number)")
    if max_rows_per_file is not None and (not isinstance(max_rows_per_file, int)
                                          or max_rows_per_file <= 0):
        raise q.InvalidError(f"write_to_dataset: max_rows_per_file must be a positive "
                             f"integer, not {max_rows_per_file!r}")
    names = table.column_names
    for name in partition_cols:
        if name not in names:
            raise q.KeyError(f"write_to_dataset: no partition column {name!r} in the table "
                             f"(columns: {names})")
    if partition_cols and len(partition_cols) == len(names):
        raise q.InvalidError("write_to_dataset: every column is a partition column; "
                             "the files would hold no column")


def write_to_dataset(table, root_path, partition_cols=None, basename_template=None,
                     existing_data_behavior="overwrite_or_ignore", max_rows_per_file=None,
                     filesystem=None, metadata_collector=None, use_threads=None,
                     **writer_options):
    """Writes a table as a dataset directory (pyarrow.parquet.write_to_dataset's
    names and defaults). Without partition_cols: files directly in root_path;
    with them: one directory level per column, key=value, the value
    percent-escaped as pyarrow does (a null is __HIVE_DEFAULT_PARTITION__),
    the partition columns left out of the files, the rows of each partition
    in input order. Files are named basename_template with {i} their number
    in their directory (default "<uuid4 hex>-{i}.parquet", one uuid per
    call); max_rows_per_file splits a partition's rows into several files.

    existing_data_behavior: 'overwrite_or_ignore' (files of the same name
    are replaced, others left), 'error' (quiver.InvalidError if root_path
    already holds a file), 'delete_matching' (each partition directory
    written is emptied first). filesystem: as write_parquet's (a root_path
    URI works too). Other keywords go to quiver.write_parquet
    (compression=, row_group_size=, ...). metadata_collector: a list each
    file's quiver.FileMetaData is appended to, its file_path the file's path
    under root_path (for quiver.write_metadata's _metadata). Any Arrow table
    is taken. use_threads (None or True, as pyarrow's: yes): the partitions
    are taken and written several at once (a partition's rows and files in
    order either way; metadata_collector in partition order)."""
    q = _quiver()
    if not isinstance(table, q.Table):
        table = q.table(table)
    partition_cols = list(partition_cols or [])
    _check(table, partition_cols, basename_template, existing_data_behavior, max_rows_per_file)
    place = Place(root_path, filesystem, writing=True)
    if existing_data_behavior == "error" and place.exists(place.root) and (
            not place.isdir(place.root) or place.files_under(place.root)):
        raise q.InvalidError(f"write_to_dataset: {place.name(place.root)} already holds data "
                             f"and existing_data_behavior='error'")
    template = basename_template or (uuid.uuid4().hex + "-{i}.parquet")
    data = table.drop_columns(partition_cols) if partition_cols else table
    groups = list(_groups(table, partition_cols).items()) if partition_cols else [((), None)]

    def write_group(group):
        """Writes one partition's files; their FileMetaData when collecting."""
        key, rows = group
        directory = place.join(*(_segment(n, v) for n, v in zip(partition_cols, key)))
        part = data if rows is None else q.compute.take(data, q.array(rows, type="int64"))
        if existing_data_behavior == "delete_matching":
            place.delete_dir(directory)
        place.makedirs(directory)
        collected = []
        for i, chunk in enumerate(_chunks(part, max_rows_per_file)):
            path = f"{directory.rstrip('/')}/{template.format(i=i)}"
            if metadata_collector is None:
                q.write_parquet(chunk, path, filesystem=place.fs, **writer_options)
                continue
            written = []
            q.write_parquet(chunk, path, filesystem=place.fs, metadata_collector=written,
                            **writer_options)
            written[0].set_file_path(path[len(place.root):].lstrip("/").replace("\\", "/"))
            collected.append(written[0])
        return collected

    if (use_threads is None or use_threads) and len(groups) > 1:
        from quiver._dataset import _pool

        results = list(_pool().map(write_group, groups))
    else:
        results = [write_group(g) for g in groups]
    if metadata_collector is not None:
        for collected in results:
            metadata_collector.extend(collected)
