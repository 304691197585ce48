"""The Python half of quiver.Table, RecordBatch, Array, ChunkedArray, Schema
and Field (the C++ half: python/src/table_bindings.cc, schema_bindings.cc,
pylist.cc): pyarrow's names and behaviour for __getitem__, __repr__,
to_pylist / to_pydict (Quiver's own conversion, no pyarrow needed),
to_pyarrow / to_pandas (through pyarrow), equality, pickling (Arrow IPC
bytes); the constructors and column editing are in _table_build.py.

The methods are set on the extension's classes (at the end of this file), so
that every Table the C++ side returns has them."""

import operator as _operator

from quiver import _quiver
from quiver._quiver import Array, ChunkedArray, Field, RecordBatch, Schema, Table
from quiver._scalar import DataType, Scalar
from quiver._table_build import (  # noqa: F401 - array, table...: re-exported by quiver
    _add_column, _append_column, _cast, _drop_columns, _from_arrays, _from_batches, _from_pandas,
    _from_pydict, _import_pyarrow, _itercolumns, _pandas_metadata, _remove_column,
    _rename_columns, _replace_schema_metadata, _set_column, array, concat_tables, table,
    type_for_alias)


# --- repr previews (pyarrow's Table.__repr__: PrettyPrint with skip_new_lines) ---------

_WINDOW = 5            # values shown at each end of a column preview
_CONTAINER_WINDOW = 2  # list slots and chunks shown at each end


def _one_line(text):
    """A multi-line PrettyPrint rendering on one line, as Arrow's skip_new_lines
    option prints it ("[1,2,...,9]")."""
    lines = [line.strip() for line in text.split("\n")]
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if line == "..." and i + 1 < len(lines):
            out.append(",")
    return "".join(out)


def _array_preview(array, indent=0):
    """One array as pyarrow's skip_new_lines PrettyPrint shows it at `indent`
    (struct and dictionary arrays keep Arrow's own section lines)."""
    name = array.type.name
    if name == "null":
        return f"{len(array)} nulls"
    pad = " " * indent
    if name == "struct":
        from quiver import compute

        out = pad + "-- is_valid:"
        if array.null_count:
            out += pad + _array_preview(compute.is_valid(array))
        else:
            out += " all not null"
        for k, child in enumerate(_quiver._struct_children(array)):
            out += f"\n{pad}-- child {k} type: {child.type}\n" + _array_preview(child)
        return out
    if name == "dictionary":
        dictionary, indices = _quiver._dictionary_parts(array)
        return (f"{pad}-- dictionary:\n" + _array_preview(dictionary) +
                f"{pad}-- indices:\n" + _array_preview(indices))
    return _one_line(_quiver._pretty(array, _WINDOW, _CONTAINER_WINDOW))


def _chunks_preview(chunks):
    n = len(chunks)
    parts = []
    for i, chunk in enumerate(chunks):
        if _CONTAINER_WINDOW <= i < n - _CONTAINER_WINDOW:  # Arrow elides one chunk too
            if i == _CONTAINER_WINDOW:
                parts.append("...")
            continue
        text = _array_preview(chunk, indent=2)
        # Arrow starts a struct chunk on a new line.
        parts.append("\n" + text if chunk.type.name == "struct" else text)
    return "[" + ",".join(parts) + "]"


def _tabular_to_string(self, *, show_metadata=False, preview_cols=0):
    """pyarrow's Table/RecordBatch.to_string: the schema, then with
    preview_cols the first rows of that many columns."""
    kind = "Table" if isinstance(self, Table) else "RecordBatch"
    schema = self.schema.to_string(show_field_metadata=show_metadata,
                                   show_schema_metadata=show_metadata)
    pieces = [f"quiver.{kind}\n{schema}"]
    if preview_cols:
        pieces.append("----")
        for i in range(min(self.num_columns, preview_cols)):
            column = self.column(i)
            if isinstance(self, Table):
                text = _chunks_preview(column.chunks)
            else:
                text = _array_preview(column)
            pieces.append(f"{self.field(i).name}: {text}")
        if preview_cols < self.num_columns:
            pieces.append("...")
    return "\n".join(pieces)


def _tabular_repr(self):
    return self.to_string(preview_cols=10)


# --- shared by Table and RecordBatch --------------------------------------------------


def _tabular_getitem(self, key):
    """t[i] / t["name"]: a column; t[a:b]: rows a..b (step 1), as pyarrow."""
    if isinstance(key, slice):
        start, stop, step = key.indices(self.num_rows)
        if step != 1:
            raise IndexError("only slices with step 1 are supported")
        return self.slice(start, max(stop - start, 0))
    return self.column(key)


def _tabular_to_pydict(self):
    """{column name: list of Python values} (pyarrow's to_pydict; no pyarrow needed)."""
    return {name: column.to_pylist()
            for name, column in zip(self.column_names, self.columns)}


def _tabular_to_pylist(self):
    """One dict per row (pyarrow's to_pylist; no pyarrow needed)."""
    names = self.column_names
    columns = [c.to_pylist() for c in self.columns]
    if not columns:
        return [{} for _ in range(self.num_rows)]
    return [dict(zip(names, row)) for row in zip(*columns)]


def _tabular_take(self, indices):
    """The rows at `indices` (pyarrow's Table.take)."""
    from quiver import compute

    return compute.take(self, indices)


def _tabular_shape(self):
    return (self.num_rows, self.num_columns)


def _tabular_eq(self, other):
    try:
        return self.equals(other)
    except TypeError:
        return NotImplemented


def _as_same_kind(self, other):
    if isinstance(other, type(self)):
        return other
    if not (hasattr(other, "__arrow_c_stream__") or hasattr(other, "__arrow_c_array__")):
        raise TypeError(f"cannot compare a quiver.{type(self).__name__} with "
                        f"{type(other).__name__}")
    t = _quiver.table(other)
    return t if isinstance(self, Table) else t._to_batch()


def _table_equals(self, other, check_metadata=False):
    """Same schema (field names, types, nullability; metadata too with
    check_metadata) and values, whatever the chunking (pyarrow's Table.equals).
    `other`: a quiver Table or any Arrow table (pyarrow, polars...)."""
    other = _as_same_kind(self, other)
    if check_metadata and not self.schema.equals(other.schema, check_metadata=True):
        return False
    return Table._equals(self, other)


def _batch_equals(self, other, check_metadata=False):
    if not isinstance(other, RecordBatch):
        if not (hasattr(other, "__arrow_c_stream__") or hasattr(other, "__arrow_c_array__")):
            raise TypeError(f"cannot compare a quiver.RecordBatch with {type(other).__name__}")
    if check_metadata and not self.schema.equals(_quiver.table(other).schema, check_metadata=True):
        return False
    return RecordBatch._equals(self, other)


def _table_to_pyarrow(self):
    """A pyarrow.Table of the same data (zero-copy through __arrow_c_stream__)."""
    return _import_pyarrow("Table.to_pyarrow()").table(self)


def _batch_to_pyarrow(self):
    return _import_pyarrow("RecordBatch.to_pyarrow()").record_batch(self)


def _to_pandas(self, **kwargs):
    """A pandas DataFrame, as pyarrow's to_pandas (same keywords; the pandas
    metadata written by from_pandas restores the index)."""
    _import_pyarrow("to_pandas()")
    return self.to_pyarrow().to_pandas(**kwargs)


def _table_from_ipc(data):
    return _quiver._table_from_ipc(data)


def _batch_from_ipc(data):
    return _quiver._batch_from_ipc(data)


def _table_reduce(self):
    """Pickled as the bytes of an Arrow IPC stream (Dask and Ray ship tables so)."""
    return (_table_from_ipc, (self._ipc_bytes(),))


def _batch_reduce(self):
    return (_batch_from_ipc, (self._ipc_bytes(),))


# --- Array / ChunkedArray -------------------------------------------------------------------


def _index_or_slice(self, key):
    """(None, self[a:b]) for a slice, else (i, None): i the index key names,
    negative from the end, checked against len(self)."""
    if isinstance(key, slice):
        start, stop, step = key.indices(len(self))
        if step != 1:
            raise IndexError("only slices with step 1 are supported")
        return None, self.slice(start, max(stop - start, 0))
    i = _operator.index(key)
    n = len(self)
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError(f"index {key} out of range (length {n})")
    return i, None


def _array_getitem(self, key):
    """a[i]: a quiver.Scalar (negative i from the end); a[a:b]: a slice."""
    i, sliced = _index_or_slice(self, key)
    return sliced if i is None else _scalar_of(self, i)


def _scalar_of(array, i):
    """A quiver.Scalar of array[i]: the library's Scalar where it holds the
    type (usable as a compute argument), else a view of the value."""
    s = _quiver._scalar_at(array, i)
    return Scalar(s) if s is not None else _ValueScalar(array, i)


def _array_iter(self):
    for i in range(len(self)):
        yield _scalar_of(self, i)


class _ValueScalar(Scalar):
    """One value of an array, as pyarrow's arr[i] gives it: type, is_valid, as_py()."""

    __slots__ = ("_array", "_i")

    def __init__(self, array, i):
        self._array, self._i = array, i

    @property
    def type(self):
        return self._array.type

    @property
    def is_valid(self):
        return _quiver._is_valid(self._array, self._i)

    def as_py(self):
        return _quiver._scalar_as_py(self._array, self._i)

    def __eq__(self, other):
        if isinstance(other, Scalar):
            return str(self.type) == str(other.type) and self.as_py() == other.as_py()
        return NotImplemented

    def __hash__(self):
        return hash((str(self.type), repr(self.as_py())))

    def __str__(self):
        return str(self.as_py())

    def __repr__(self):
        return f"<quiver.Scalar {self.type}: {self.as_py()!r}>"


def _array_eq(self, other):
    try:
        return self.equals(other)
    except (TypeError, AttributeError):  # not an array / chunked array
        return NotImplemented


def _array_to_pandas(self, **kwargs):
    _import_pyarrow("to_pandas()")
    return self.to_pyarrow().to_pandas(**kwargs)


def _array_to_numpy(self, zero_copy_only=True, writable=False):
    """A numpy array of the values, as pyarrow's to_numpy (through pyarrow:
    zero-copy for primitive arrays without nulls)."""
    _import_pyarrow("to_numpy()")
    if isinstance(self, ChunkedArray):
        return self.to_pyarrow().to_numpy()
    return self.to_pyarrow().to_numpy(zero_copy_only=zero_copy_only, writable=writable)


def _array_take(self, indices):
    from quiver import compute

    return compute.take(self, indices)


def _array_filter(self, mask, null_selection_behavior="drop"):
    from quiver import compute

    return compute.filter(self, mask, null_selection_behavior)


def _array_reduce(self):
    t = _quiver._table_from_columns([self], [""], None)
    return (_array_from_ipc, (t._ipc_bytes(),))


def _array_from_ipc(data):
    return _quiver._batch_from_ipc(data).column(0)


def _chunked_slice(self, offset=0, length=None):
    """Rows [offset, offset + length), zero-copy (pyarrow's ChunkedArray.slice)."""
    if offset < 0:
        raise IndexError(f"slice offset {offset} is negative")
    n = len(self)
    start = min(offset, n)
    stop = n if length is None else min(start + length, n)
    chunks, base = [], 0
    for chunk in self.chunks:
        m = len(chunk)
        a, b = max(start, base), min(stop, base + m)
        if b > a:
            chunks.append(chunk.slice(a - base, b - a))
        base += m
    return _quiver._chunked_array(chunks, self.type)


def _chunked_getitem(self, key):
    i, sliced = _index_or_slice(self, key)
    if i is None:
        return sliced
    for chunk in self.chunks:
        if i < len(chunk):
            return chunk[i]
        i -= len(chunk)
    raise IndexError(key)  # pragma: no cover


def _chunked_iter(self):
    for chunk in self.chunks:
        yield from chunk


def _chunked_combine(self):
    """The chunks as one quiver.Array (pyarrow's combine_chunks)."""
    chunks = self.chunks
    if len(chunks) == 1:
        return chunks[0]
    if not chunks:
        return _quiver._empty_array(self.type)
    return _quiver._compute.concat_arrays(chunks)


def _chunked_to_string(self, window=5, container_window=2):
    """pyarrow's ChunkedArray.to_string layout: the chunks, each as Arrow's
    PrettyPrint shows an array, inside one pair of brackets."""
    chunks = self.chunks
    if not chunks:
        return "[\n\n]"
    parts = []
    for i, chunk in enumerate(chunks):
        if container_window <= i < len(chunks) - container_window:
            if i == container_window:
                parts.append("...")
            continue
        text = _quiver._pretty(chunk, window, container_window)
        parts.append("\n".join("  " + line for line in text.split("\n")))
    body = ""
    for i, part in enumerate(parts):
        body += part
        if i + 1 < len(parts):
            body += ",\n"  # pyarrow writes "...," too
    return "[\n" + body + "\n]"


def _chunked_repr(self):
    return f"quiver.ChunkedArray<{self.type}>\n" + self.to_string()


def _chunked_reduce(self):
    t = _quiver._table_from_columns([self], [""], None)
    return (_chunked_from_ipc, (t._ipc_bytes(),))


def _chunked_from_ipc(data):
    return _quiver._table_from_ipc(data).column(0)


# --- Schema / Field ------------------------------------------------------------------------


def _schema_eq(self, other):
    """== of a Schema or Field: equals() against anything with
    __arrow_c_schema__, False when that refuses it."""
    if not hasattr(other, "__arrow_c_schema__"):
        return NotImplemented
    try:
        return self.equals(other)
    except Exception:
        return False


def _schema_repr(self):
    """pyarrow's repr of a schema: its to_string() (fields, then metadata)."""
    return self.to_string()


def _schema_iter(self):
    for i in range(len(self)):
        yield self.field(i)


def _schema_reduce(self):
    return (_schema_from_ipc, (_quiver._empty_table(self)._ipc_bytes(),))


def _schema_from_ipc(data):
    return _quiver._table_from_ipc(data).schema


def _field_repr(self):
    return f"quiver.Field<{self}>"


def _field_reduce(self):
    schema = _quiver.schema([self])
    return (_field_from_ipc, (_quiver._empty_table(schema)._ipc_bytes(),))


def _field_from_ipc(data):
    return _quiver._table_from_ipc(data).schema.field(0)


def _to_pyarrow_schema(self):
    return _import_pyarrow("Schema.to_pyarrow()").schema(self)


def _to_pyarrow_field(self):
    return _import_pyarrow("Field.to_pyarrow()").field(self)


def _set(cls, **methods):
    for name, fn in methods.items():
        setattr(cls, name, fn)


Table._equals = Table.equals
RecordBatch._equals = RecordBatch.equals

_set(Table,
     to_string=_tabular_to_string, __repr__=_tabular_repr, __getitem__=_tabular_getitem,
     to_pydict=_tabular_to_pydict, to_pylist=_tabular_to_pylist, take=_tabular_take,
     shape=property(_tabular_shape), __eq__=_tabular_eq, equals=_table_equals,
     to_pyarrow=_table_to_pyarrow, to_pandas=_to_pandas, __reduce__=_table_reduce,
     replace_schema_metadata=_replace_schema_metadata,
     from_pydict=staticmethod(_from_pydict), from_arrays=staticmethod(_from_arrays),
     from_pandas=staticmethod(_from_pandas), from_batches=staticmethod(_from_batches),
     add_column=_add_column, append_column=_append_column, set_column=_set_column,
     remove_column=_remove_column, drop_columns=_drop_columns, drop=_drop_columns,
     rename_columns=_rename_columns, itercolumns=_itercolumns, cast=_cast)
_set(RecordBatch,
     to_string=_tabular_to_string, __repr__=_tabular_repr, __getitem__=_tabular_getitem,
     to_pydict=_tabular_to_pydict, to_pylist=_tabular_to_pylist, take=_tabular_take,
     shape=property(_tabular_shape), __eq__=_tabular_eq, equals=_batch_equals,
     to_pyarrow=_batch_to_pyarrow, to_pandas=_to_pandas, __reduce__=_batch_reduce,
     from_pydict=staticmethod(lambda mapping, schema=None, metadata=None:
                              _from_pydict(mapping, schema, metadata)._to_batch()),
     add_column=_add_column, append_column=_append_column, set_column=_set_column,
     remove_column=_remove_column, drop_columns=_drop_columns,
     rename_columns=_rename_columns, itercolumns=_itercolumns, cast=_cast)
_set(Array,
     __getitem__=_array_getitem, __iter__=_array_iter, __eq__=_array_eq,
     to_pandas=_array_to_pandas, take=_array_take, filter=_array_filter,
     __reduce__=_array_reduce, to_numpy=_array_to_numpy)
_set(ChunkedArray,
     slice=_chunked_slice, __getitem__=_chunked_getitem, __iter__=_chunked_iter,
     __eq__=_array_eq, to_pandas=_array_to_pandas, take=_array_take, filter=_array_filter,
     to_numpy=_array_to_numpy,
     combine_chunks=_chunked_combine, __reduce__=_chunked_reduce,
     to_string=_chunked_to_string, __repr__=_chunked_repr)
_set(Schema,
     __eq__=_schema_eq, __repr__=_schema_repr, __str__=lambda self: self.to_string(),
     __iter__=_schema_iter, __reduce__=_schema_reduce, to_pyarrow=_to_pyarrow_schema,
     pandas_metadata=property(_pandas_metadata))
_set(Field,
     __eq__=_schema_eq, __repr__=_field_repr, __reduce__=_field_reduce,
     to_pyarrow=_to_pyarrow_field)

__all__ = ["array", "concat_tables", "table", "type_for_alias", "DataType"]
