"""The schemas of a dataset's files made one (quiver.ParquetDataset): the
default check (every file as the first), promote_options='permissive'
(union, integer widening, missing columns as nulls) and schema=; the
partition key columns."""

_SIGNED = ["int8", "int16", "int32", "int64"]
_UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
_FLOATS = ["float16", "float", "double"]


def _quiver():
    import quiver

    return quiver


def _type_name(t):
    return t if isinstance(t, str) else str(t)


def _wider(a, b):
    """The type both a and b (type names) convert to without loss, or None."""
    if a == b:
        return a
    if a in _SIGNED + _UNSIGNED and b in _SIGNED + _UNSIGNED:
        if a in _SIGNED and b in _SIGNED:
            return _SIGNED[max(_SIGNED.index(a), _SIGNED.index(b))]
        if a in _UNSIGNED and b in _UNSIGNED:
            return _UNSIGNED[max(_UNSIGNED.index(a), _UNSIGNED.index(b))]
        s, u = (a, b) if a in _SIGNED else (b, a)
        need = max(_SIGNED.index(s), _UNSIGNED.index(u) + 1)
        return _SIGNED[need] if need < len(_SIGNED) else None
    numeric = _SIGNED + _UNSIGNED + _FLOATS
    if a in numeric and b in numeric:
        return "double"
    if {a, b} == {"string", "large_string"}:
        return "large_string"
    if {a, b} == {"binary", "large_binary"}:
        return "large_binary"
    return None


def unify(schemas, permissive):
    """The one schema of [(file name, Schema)]: the first's when every file's
    columns and types equal it (else quiver.InvalidError naming the two
    files and the field); permissive: the union of the columns in order of
    first appearance, types widened by _wider."""
    q = _quiver()
    first_name, first = schemas[0]
    if not permissive:
        want = [(f.name, str(f.type)) for f in first]
        for name, s in schemas[1:]:
            got = [(f.name, str(f.type)) for f in s]
            if got == want:
                continue
            wd, gd = dict(want), dict(got)
            for n, t in want:
                if n not in gd:
                    why = f"field {n!r} ({t}) is in {first_name} and not in {name}"
                    break
                if gd[n] != t:
                    why = f"field {n!r} is {t} in {first_name} and {gd[n]} in {name}"
                    break
            else:
                extra = [n for n, _ in got if n not in wd]
                why = (f"field {extra[0]!r} is in {name} and not in {first_name}" if extra
                       else f"the fields are in another order in {name} than in {first_name}")
            raise q.InvalidError(
                f"ParquetDataset: the files' schemas differ: {why} (promote_options="
                f"'permissive' or schema= unify them)")
        return first
    fields, owner = {}, {}
    for name, s in schemas:
        for f in s:
            if f.name not in fields:
                fields[f.name], owner[f.name] = f, name
                continue
            have = str(fields[f.name].type)
            wide = _wider(have, str(f.type))
            if wide is None:
                raise q.InvalidError(
                    f"ParquetDataset: field {f.name!r} is {have} in {owner[f.name]} and "
                    f"{f.type} in {name}: no type holds both")
            if wide != have:
                fields[f.name] = q.field(f.name, wide)
    # A column some file lacks is read as nulls there.
    return q.schema([q.field(f.name, f.type) for f in fields.values()])


def without(schema, names):
    q = _quiver()
    return q.schema([f for f in schema if f.name not in names])


def typed(raw, key_type):
    """A partition value (the directory's text) as a Python value of its type."""
    if raw is None:
        return None
    name = _type_name(key_type)
    if name in _SIGNED + _UNSIGNED:
        return int(raw)
    return raw


def key_values(raws, key_type):
    """A plain column of partition values (directory texts, None a null) of
    the key's inferred type ('int32' / 'string') or schema='s type."""
    q = _quiver()
    if not isinstance(key_type, str):  # schema= gave the type
        strings = q.array(list(raws), type="string")
        return q.compute.cast(strings, key_type) if str(key_type) != "string" else strings
    return q.array([typed(r, key_type) for r in raws], type=key_type)


def key_column(raw, n, key_type, plain=False, dictionary=None):
    """The column of a partition key over a file's n rows: its inferred type
    ('int32' / 'string'; with `dictionary`, dictionary-encoded as pyarrow's
    pq.read_table gives it, when pyarrow is installed) or schema='s type."""
    q = _quiver()
    if not isinstance(key_type, str):  # schema= gave the type
        return key_values([raw] * n, key_type)
    value = typed(raw, key_type)
    if plain or dictionary is None:
        return q.array([value] * n, type=key_type)
    try:
        import pyarrow as pa
    except ImportError:
        return q.array([value] * n, type=key_type)
    value_type = pa.int32() if key_type == "int32" else pa.string()
    # A null key is a dictionary [null] with indices 0, as pyarrow 26 gives it.
    values = pa.array([None] if value is None else dictionary, type=value_type)
    index = 0 if value is None else dictionary.index(value)
    indices = pa.repeat(pa.scalar(index, pa.int32()), n) if n else pa.array([], pa.int32())
    return q.array(pa.DictionaryArray.from_arrays(indices, values))


def key_type(key_type, dictionary):
    """The Arrow type of a partition column (key_column's)."""
    return key_column(None, 0, key_type, dictionary=dictionary).type


def with_partitions(file_schema, keys, types, user_schema):
    """The result schema: the file columns, then the partition keys
    (`types`: {key: its Arrow type})."""
    q = _quiver()
    fields = list(file_schema)
    for k in keys:
        fields.append(q.field(k, types[k]))
    if user_schema is not None:
        order = {n: i for i, n in enumerate(user_schema.names)}
        fields.sort(key=lambda f: order.get(f.name, len(order)))
    return q.schema(fields)


def conform(t, file_schema, names, file_name):
    """A file's table as the unified schema's columns `names`: cast where the
    file's type differs, nulls where the file lacks the column."""
    q = _quiver()
    if not names:
        return t.select([])
    columns = {}
    for n in names:
        target = file_schema.field(file_schema.get_field_index(n)).type
        if n in t.column_names:
            col = t.column(n)
            if str(col.type) != str(target):
                try:
                    col = q.compute.cast(col, target)
                except q.QuiverError as e:
                    raise type(e)(f"{file_name}: column {n!r} ({col.type}) does not "
                                  f"convert to {target}: {e}") from e
            columns[n] = col
        else:
            columns[n] = q.array([None] * t.num_rows, type=str(target))
    fields = [q.field(n, columns[n].type) for n in names]
    return q.table(columns, schema=q.schema(fields))
