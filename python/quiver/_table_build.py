"""Building quiver Tables and Arrays, as pyarrow names it (quiver.table,
quiver.array, Table.from_pydict / from_arrays / from_pandas / from_batches,
quiver.concat_tables, quiver.type_for_alias) and the column-editing methods
(append_column, add_column, set_column, remove_column, drop_columns,
rename_columns). python/quiver/_table.py sets the methods on the classes.
Python values are converted by Quiver (python/src/pyconvert.cc) where they
are None/bool/int/float/str/bytes, else through pyarrow."""

from quiver import _quiver
from quiver._quiver import Array, ChunkedArray, Field, Schema, Table


def _import_pyarrow(what):
    try:
        import pyarrow
    except ImportError:
        raise ImportError(f"{what} needs pyarrow, which is not installed (pip install pyarrow); "
                          "Quiver itself reads, writes, filters and computes without it") from None
    return pyarrow


# --- building tables ---------------------------------------------------------------------


def _column_from_py(values, type_=None):
    """A column for from_pydict / from_arrays: quiver or Arrow arrays and
    chunked arrays as they are; Python sequences and numpy arrays converted
    (Quiver's own conversion for None/bool/int/float/str/bytes values, else
    pyarrow's when installed)."""
    if isinstance(values, (Array, ChunkedArray)) or hasattr(values, "__arrow_c_array__"):
        return values
    if hasattr(values, "__arrow_c_stream__") and hasattr(values, "chunks"):
        return values
    if type_ is None:
        type_ = _numpy_type(values)
    if hasattr(values, "tolist") and not isinstance(values, (list, tuple)):
        values = values.tolist()  # numpy arrays, pandas Series
    if isinstance(values, (list, tuple)):
        return _quiver._array_from_pylist(list(values), type_)
    raise TypeError(f"a column must be an array, chunked array or sequence, got "
                    f"{type(values).__name__}")


def _from_pydict(mapping, schema=None, metadata=None):
    """A quiver.Table of {name: values} (pyarrow's Table.from_pydict): values
    are quiver / pyarrow Arrays or ChunkedArrays, or Python sequences
    (None, bool, int, float, str, bytes values are converted by Quiver; other
    Python values need pyarrow). `schema` gives the names and types, in its
    order; `metadata` the schema's key/value metadata."""
    if schema is not None:
        schema = Schema._import(schema) if not isinstance(schema, Schema) else schema
        missing = [n for n in schema.names if n not in mapping]
        if missing:
            raise KeyError(f"from_pydict: no values for the schema's fields {missing}")
        columns = [_column_from_py(mapping[n], schema.field(i).type)
                   for i, n in enumerate(schema.names)]
        table = _quiver._table_from_columns(columns, schema.names, schema)
    else:
        names = [str(n) for n in mapping]
        columns = [_column_from_py(v) for v in mapping.values()]
        table = _quiver._table_from_columns(columns, names, None)
    if metadata is not None:
        table = table.replace_schema_metadata(metadata)
    return table


def _from_arrays(arrays, names=None, schema=None, metadata=None):
    """A quiver.Table of columns (pyarrow's Table.from_arrays)."""
    if schema is None:
        if names is None:
            raise ValueError("from_arrays needs names or a schema")
        return _from_pydict(dict(zip(names, arrays)), metadata=metadata) \
            if len(set(names)) == len(names) else \
            _quiver._table_from_columns([_column_from_py(a) for a in arrays], list(names), None)
    schema = Schema._import(schema) if not isinstance(schema, Schema) else schema
    columns = [_column_from_py(a, schema.field(i).type) for i, a in enumerate(arrays)]
    table = _quiver._table_from_columns(columns, schema.names, schema)
    if metadata is not None:
        table = table.replace_schema_metadata(metadata)
    return table


def _from_pandas(df, schema=None, preserve_index=None, nthreads=None, columns=None):
    """A quiver.Table of a pandas DataFrame, as pyarrow's Table.from_pandas
    (the index stored as pyarrow stores it: a RangeIndex in the pandas
    metadata, other indexes as columns), through pyarrow."""
    pa = _import_pyarrow("Table.from_pandas()")
    return _quiver.table(pa.Table.from_pandas(df, schema=schema, preserve_index=preserve_index,
                                              nthreads=nthreads, columns=columns))


def _replace_schema_metadata(self, metadata=None):
    """The same columns under the schema with `metadata` (pyarrow's name)."""
    schema = self.schema.with_metadata(metadata) if metadata is not None \
        else self.schema.remove_metadata()
    return _quiver._table_from_columns(self.columns, schema.names, schema)


def _as_field(field_or_name, column):
    if isinstance(field_or_name, str):
        return _quiver.field(field_or_name, column.type)
    return field_or_name if isinstance(field_or_name, Field) else Field._import(field_or_name)


def _with_columns(self, fields, columns):
    """A table (or record batch) of `columns` under `fields`, keeping the schema's metadata."""
    schema = _quiver.schema(fields, metadata=self.schema.metadata)
    table = _quiver._table_from_columns(columns, schema.names, schema)
    return table if isinstance(self, Table) else table._to_batch()


def _add_column(self, i, field_, column):
    """A new table with `column` inserted at position i (pyarrow's add_column;
    `field_`: a name or a Field; `column`: an array, chunked array or sequence)."""
    type_ = None if isinstance(field_, str) else _as_field(field_, None).type
    column = _column_from_py(column, type_)
    fields = list(self.schema)
    columns = list(self.columns)
    if not 0 <= i <= len(fields):
        raise IndexError(f"column index {i} out of range (0..{len(fields)})")
    fields.insert(i, _as_field(field_, column))
    columns.insert(i, column)
    return _with_columns(self, fields, columns)


def _append_column(self, field_, column):
    """add_column at the end (pyarrow's append_column)."""
    return _add_column(self, self.num_columns, field_, column)


def _set_column(self, i, field_, column):
    """The column at position i replaced (pyarrow's set_column)."""
    return _add_column(_remove_column(self, i), i, field_, column)


def _remove_column(self, i):
    """The table without the column at position i (pyarrow's remove_column)."""
    if not 0 <= i < self.num_columns:
        raise IndexError(f"column index {i} out of range ({self.num_columns} columns)")
    fields = [f for k, f in enumerate(self.schema) if k != i]
    columns = [c for k, c in enumerate(self.columns) if k != i]
    return _with_columns(self, fields, columns)


def _drop_columns(self, columns):
    """The table without the named columns (pyarrow's drop_columns; a missing
    name is a KeyError naming it)."""
    if isinstance(columns, str):
        columns = [columns]
    missing = [c for c in columns if c not in self.column_names]
    if missing:
        raise KeyError(f"Column(s) {missing} not found")
    keep = [k for k, name in enumerate(self.column_names) if name not in set(columns)]
    return self.select(keep)


def _rename_columns(self, names):
    """The same columns under new names (pyarrow's rename_columns: a list, or
    a dict {old: new})."""
    if isinstance(names, dict):
        unknown = [n for n in names if n not in self.column_names]
        if unknown:
            raise KeyError(f"Column(s) {unknown} not found")
        names = [names.get(n, n) for n in self.column_names]
    names = list(names)
    if len(names) != self.num_columns:
        raise ValueError(f"{len(names)} names for {self.num_columns} columns")
    fields = [_quiver.field(n, f.type, f.nullable, f.metadata) for n, f in zip(names, self.schema)]
    return _with_columns(self, fields, list(self.columns))


def _cast(self, target_schema, safe=None):
    """The columns cast to the target schema's types, under its names,
    nullability and metadata (pyarrow's Table.cast: the field names must
    match; `safe` as quiver.compute.cast's)."""
    from quiver import compute

    target = target_schema if isinstance(target_schema, Schema) else _quiver.schema(target_schema)
    if target.names != self.column_names:
        raise ValueError(f"Target schema's field names are not matching the table's field names: "
                         f"{self.column_names}, {target.names}")
    columns = [c if c.type == f.type else compute.cast(c, f.type, safe=safe)
               for c, f in zip(self.columns, target)]
    table = _quiver._table_from_columns(columns, target.names, target)
    return table if isinstance(self, Table) else table._to_batch()


def _itercolumns(self):
    for i in range(self.num_columns):
        yield self.column(i)


def _from_batches(batches, schema=None):
    """A quiver.Table of record batches (pyarrow's Table.from_batches; `schema`
    needed when there are none)."""
    tables = [_quiver.table(b) for b in batches]
    if not tables:
        if schema is None:
            raise ValueError("from_batches needs a schema when there are no batches")
        return _quiver._empty_table(schema)
    if schema is not None:
        schema = schema if isinstance(schema, Schema) else Schema._import(schema)
        tables = [_quiver._table_from_columns(t.columns, schema.names, schema) for t in tables]
    return _quiver.concat_tables(tables)


def _pandas_metadata(self):
    """The pandas metadata (the JSON under b"pandas") as a dict, or None."""
    import json

    metadata = self.metadata
    if not metadata or b"pandas" not in metadata:
        return None
    return json.loads(metadata[b"pandas"].decode("utf8"))


_NUMPY_KINDS = {"b": "bool", "i": None, "u": None, "f": None}


def _numpy_type(values):
    """The Arrow type name of a numpy array's dtype (as pyarrow.array types it),
    or None to infer from the values."""
    dtype = getattr(values, "dtype", None)
    if dtype is None or getattr(dtype, "kind", None) not in _NUMPY_KINDS:
        return None
    return _NUMPY_KINDS[dtype.kind] or str(dtype)


def array(obj, type=None):  # noqa: A002 - pyarrow's name
    """A quiver.Array, as pyarrow.array: any object with __arrow_c_array__
    (zero-copy; with `type`, cast to it), or a Python sequence or numpy array
    (typed as pyarrow types it, or `type`: a quiver or pyarrow DataType or a
    type name; None/bool/int/float/str/bytes values converted by Quiver,
    others through pyarrow)."""
    if hasattr(obj, "__arrow_c_array__"):
        arr = _quiver.array(obj)
        if type is not None and arr.type != type:
            from quiver import compute

            arr = compute.cast(arr, type)
        return arr
    if type is None:
        type = _numpy_type(obj)
    if hasattr(obj, "tolist") and not isinstance(obj, (list, tuple)):
        obj = obj.tolist()
    if not isinstance(obj, (list, tuple)):
        obj = list(obj)
    return _quiver._array_from_pylist(list(obj), type)


def table(data, names=None, schema=None, metadata=None):
    """A quiver.Table, as pyarrow.table: any object with __arrow_c_stream__ or
    __arrow_c_array__ (zero-copy; a pyarrow Table, a polars or pandas
    DataFrame, a duckdb result...), a dict of columns (Table.from_pydict) or
    a list of arrays with `names` or `schema` (Table.from_arrays)."""
    if isinstance(data, dict):
        return _from_pydict(data, schema=schema, metadata=metadata)
    if isinstance(data, (list, tuple)):
        return _from_arrays(data, names=names, schema=schema, metadata=metadata)
    if names is not None or schema is not None or metadata is not None:
        raise TypeError("names, schema and metadata are taken with a dict or a list of arrays")
    return _quiver.table(data)


def type_for_alias(name):
    """A quiver.DataType from its name: pyarrow.type_for_alias's aliases ("int64",
    "i8", "str", "timestamp[ms]"...) and Arrow's printed forms
    ("timestamp[ms, tz=UTC]", "decimal128(10, 2)"); ValueError for another."""
    return _quiver._compute.type_for_alias(name)


def concat_tables(tables):
    """The rows of the tables one after the other, zero-copy
    (pyarrow.concat_tables): the schemas must be equal (names, types,
    nullability); the result keeps the first table's metadata. Any Arrow
    table (pyarrow, polars...) may be given."""
    return _quiver.concat_tables([t if isinstance(t, Table) else _quiver.table(t)
                                  for t in tables])
