"""Correctness gates of the peer harness: before an arm is timed, what it
wrote or read must be right, judged by pyarrow.

  write  pyarrow reads the peer's file back and it must equal the input, up
         to the type changes a peer legitimately makes (canon_type: listed in
         the report); in the number_distinct_values variant every column
         chunk's statistics must hold the exact distinct count, as
         pc.count_distinct counts the column's non-null values (bitwise, as
         the writers hash them; halffloat by its bits, which pyarrow 26
         miscounts).
  read   the table the peer decoded (written by it as an Arrow IPC file)
         must equal pyarrow's reading of the same file, up to the same type
         changes.
"""

import hashlib
import os
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import writer_matrix as wm  # noqa: E402


def canon_type(t):
    if pa.types.is_dictionary(t):
        return canon_type(t.value_type)
    if pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return pa.string()
    if (pa.types.is_large_binary(t) or pa.types.is_binary_view(t)
            or pa.types.is_fixed_size_binary(t)):
        return pa.binary()
    if (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t)
            or pa.types.is_large_list_view(t)):
        return pa.list_(pa.field("item", canon_type(t.value_type), True))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(t.field(i).name, canon_type(t.field(i).type), True)
                          for i in range(t.num_fields)])
    if pa.types.is_date64(t):
        return pa.date32()
    return t


def canonical(table, types):
    cols = []
    for col, t in zip(table.columns, types):
        cols.append(col.cast(t) if col.type != t else col)
    return pa.table(cols, schema=pa.schema([pa.field(n, t, True)
                                            for n, t in zip(table.column_names, types)]))


def compare_column(name, got, want):
    """None if one-column tables `got` and `want` hold the same values up to
    the allowed type changes, else what differs."""
    types = [canon_type(want.schema[0].type)]
    try:
        a, b = canonical(got, types), canonical(want, types)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        return (f"column {name!r}: type {got.schema[0].type} is not an allowed change of "
                f"{want.schema[0].type}: {e}")
    return wm.first_difference(a, b)


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def leaf_arrays(table):
    """The non-null-able leaf values of each Parquet leaf column, in the
    file's column order: lists flattened (values under null lists are not in
    the file), struct children with the parent's nulls, dictionaries decoded."""
    out = []

    def walk(arr):
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        t = arr.type
        if pa.types.is_dictionary(t):
            walk(arr.dictionary_decode())
        elif pa.types.is_list(t) or pa.types.is_large_list(t) or \
                pa.types.is_fixed_size_list(t):
            walk(arr.flatten())
        elif pa.types.is_struct(t):
            for child in arr.flatten():
                walk(child)
        elif pa.types.is_map(t):
            walk(arr.keys)
            walk(arr.items)
        else:
            out.append(arr)

    for col in table.columns:
        walk(col)
    return out


def _count_distinct(values):
    """pc.count_distinct of a leaf's non-null values; halffloat by its bits, as
    python/tests/test_parquet_distinct.py judges it: pyarrow 26's count_distinct
    miscounts halffloat (float_with_nans' _1: 9,583 distinct bit patterns counted
    as 2,023)."""
    if pa.types.is_float16(values.type):
        values = values.drop_null().view(pa.uint16())
    return pc.count_distinct(values, mode="only_valid").as_py()


def distinct_counts(table):
    """Exact distinct count of each leaf column's non-null values."""
    return [_count_distinct(a) for a in leaf_arrays(table)]


def check_distinct_counts(md, expected):
    """None if every column chunk of `md` (FileMetaData) has the expected
    distinct count in its statistics, else what differs."""
    for rg in range(md.num_row_groups):
        row_group = md.row_group(rg)
        if row_group.num_columns != len(expected):
            return f"{row_group.num_columns} leaf columns, expected {len(expected)}"
        for i, want in enumerate(expected):
            col = row_group.column(i)
            st = col.statistics
            if st is None or not st.has_distinct_count:
                return (f"row group {rg} column {col.path_in_schema}: no distinct_count in its "
                        "statistics")
            if md.num_row_groups == 1 and st.distinct_count != want:
                return (f"row group {rg} column {col.path_in_schema}: distinct_count "
                        f"{st.distinct_count}, pc.count_distinct says {want}")
    return None


def write_gate(path, expected, distinct=None):
    """(ok, message, facts) for a peer's file against the input table; one
    column at a time (the TPC-H table is a gigabyte). `distinct`: the
    expected distinct counts (number_distinct_values), or None."""
    facts = {}
    try:
        pf = pq.ParquetFile(path, memory_map=True)
        md = pf.metadata
        rg0 = md.row_group(0) if md.num_row_groups else None
        facts = {"bytes": os.path.getsize(path), "row_groups": md.num_row_groups,
                 "created_by": md.created_by,
                 "arrow_schema": bool(md.metadata and b"ARROW:schema" in md.metadata),
                 "page_index": bool(rg0 and rg0.num_columns and
                                    (rg0.column(0).has_offset_index
                                     or rg0.column(0).has_column_index))}
        schema = pf.schema_arrow
    except Exception as e:  # noqa: BLE001
        return False, f"pyarrow cannot read it: {type(e).__name__}: {e}", facts
    if schema.names != expected.column_names:
        return False, f"columns {schema.names} != {expected.column_names}", facts
    if md.num_rows != expected.num_rows:
        return False, f"{md.num_rows} rows, expected {expected.num_rows}", facts
    changes = [f"{f.name}: {e.type} -> {f.type}" for f, e in zip(schema, expected.schema)
               if f.type != e.type]
    facts["type_changes"] = changes
    for i, name in enumerate(expected.column_names):
        try:
            got = pf.read(columns=[name], use_threads=False)
        except Exception as e:  # noqa: BLE001
            return False, f"pyarrow cannot read column {name!r}: {type(e).__name__}: {e}", facts
        diff = compare_column(name, got, expected.select([i]))
        del got
        if diff is not None:
            return False, diff, facts
    msg = "equal to the input" + (f" (types: {'; '.join(changes)})" if changes else "")
    if distinct is not None:
        diff = check_distinct_counts(md, distinct)
        if diff is not None:
            return False, "values equal, but " + diff, facts
        msg += "; distinct counts exact"
    return True, msg, facts


def read_gate(ipc_path, want):
    """(ok, message): the peer's decoded table (an Arrow IPC file) against
    `want`, pyarrow's reading of the same Parquet file."""
    try:
        got = pa.ipc.open_file(pa.memory_map(ipc_path)).read_all()
    except Exception as e:  # noqa: BLE001
        return False, f"its decoded table cannot be read back: {type(e).__name__}: {e}"
    if got.column_names != want.column_names:
        return False, f"columns {got.column_names} != {want.column_names}"
    if got.num_rows != want.num_rows:
        return False, f"{got.num_rows} rows, pyarrow reads {want.num_rows}"
    changes = [f"{g.name}: {w.type} -> {g.type}" for g, w in zip(got.schema, want.schema)
               if g.type != w.type]
    for i, name in enumerate(want.column_names):
        diff = compare_column(name, got.select([i]), want.select([i]))
        if diff is not None:
            return False, diff
    return True, (f"{want.num_rows:,} rows equal to pyarrow's reading"
                  + (f" (types: {'; '.join(changes)})" if changes else ""))
