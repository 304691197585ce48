"""The cases of the dataset section (bench/peers/dataset_run.py), pure logic
without peer processes: the hive-partitioned TPC-H lineitem input (written
once by pyarrow), the filters (a partition filter plus a column filter, at a
few selectivities) and their forms for each peer (pyarrow's DNF and
expressions, duckdb SQL, polars expressions), the projections, the oracle
(pyarrow reads the whole dataset, then filters) and the gates of a read's
result and of a written dataset.

A filter travels as a DNF conjunction of terms [column, op, value] (ops
== != < <= > >= in; one conjunction: no OR); a decimal literal as
{"decimal": "10"}.
"""

import decimal
import os
import shutil
from dataclasses import dataclass
from urllib.parse import unquote

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

PARTITION_COLS = ("l_shipmode", "year")
# The input's files: rows per file (and per row group) at scale factor 1,
# scaled by the scale factor, so that 7 ship modes x 7 years give about 100
# files at every scale (two per partition).
FILE_ROWS_SF1 = 65_536
CODEC = "snappy"
# The write cases: every writer's row groups (a partition of SF1 holds about
# 122,000 rows: one row group per file for every writer).
WRITE_ROW_GROUP = 1 << 20
# A unique key of lineitem: the gates sort by it.
KEY = ("l_orderkey", "l_linenumber")
PAYLOAD = ("l_extendedprice", "l_discount")
PROJECTIONS = ("filter_payload", "all", "payload")


def D(text):
    return {"decimal": text}


# kind -> the DNF conjunction. Achieved selectivities are printed by the run
# (SF1: narrow about 0.7%, wide about 12%, column_only 18%, partition_only 2%).
FILTERS = {
    "narrow": [["l_shipmode", "in", ["AIR", "RAIL"]], ["year", "==", 1995],
               ["l_quantity", "<", D("10")]],
    "wide": [["l_shipmode", "in", ["AIR", "RAIL", "SHIP", "TRUCK"]], ["year", ">=", 1994],
             ["year", "<=", 1996], ["l_quantity", "<", D("25")]],
    "partition_only": [["l_shipmode", "==", "MAIL"], ["year", "==", 1996]],
    "column_only": [["l_quantity", "<", D("10")]],
}
KINDS = tuple(FILTERS)


def file_rows(sf):
    return max(1000, int(round(FILE_ROWS_SF1 * sf)))


# ---------------------------------------------------------------------------
# The input.

def with_year(table):
    """lineitem with the partition column `year` = year(l_shipdate), int32."""
    return table.append_column("year", pc.year(table.column("l_shipdate")).cast(pa.int32()))


def write_input(table, root, sf):
    """The dataset every reader reads: pyarrow's write_to_dataset, hive
    directories l_shipmode=X/year=Y, snappy, statistics (pyarrow's default),
    at most file_rows(sf) rows per file and per row group, files
    part-N.parquet. Written beside `root` and renamed into place."""
    tmp = root + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    n = file_rows(sf)
    pq.write_to_dataset(table, tmp, partition_cols=list(PARTITION_COLS), compression=CODEC,
                        max_rows_per_file=n, row_group_size=n, min_rows_per_group=n,
                        basename_template="part-{i}.parquet", existing_data_behavior="error")
    shutil.rmtree(root, ignore_errors=True)
    os.replace(tmp, root)
    return root


def dataset_files(root):
    """The dataset's data files, sorted, relative to root."""
    out = []
    for d, _, names in os.walk(root):
        out += [os.path.relpath(os.path.join(d, n), root) for n in names
                if n.endswith(".parquet")]
    return sorted(out)


# ---------------------------------------------------------------------------
# Filters.

def value(v):
    """A literal as Python's value."""
    if isinstance(v, dict):
        return decimal.Decimal(v["decimal"])
    if isinstance(v, list):
        return [value(x) for x in v]
    return v


def dnf(terms):
    """pyarrow's filters= list (one conjunction of tuples)."""
    return [(c, "=" if op == "==" else op, value(v)) for c, op, v in terms]


def pyarrow_expression(terms):
    out = None
    for c, op, v in terms:
        f, v = pc.field(c), value(v)
        e = {"==": lambda: f == v, "!=": lambda: f != v, "<": lambda: f < v, "<=": lambda: f <= v,
             ">": lambda: f > v, ">=": lambda: f >= v, "in": lambda: f.isin(v)}[op]()
        out = e if out is None else out & e
    return out


def sql_literal(v):
    v = value(v)
    if isinstance(v, list):
        return "(" + ", ".join(sql_literal(x) for x in v) + ")"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return str(v)


def sql_where(terms):
    ops = {"==": "=", "!=": "<>", "in": "IN"}
    return " AND ".join(f'"{c}" {ops.get(op, op)} {sql_literal(v)}' for c, op, v in terms)


def polars_expression(pl, terms):
    out = None
    for c, op, v in terms:
        col, v = pl.col(c), value(v)
        if op == "in":
            e = col.is_in(v)
        else:
            lit = pl.lit(v)
            e = {"==": col == lit, "!=": col != lit, "<": col < lit, "<=": col <= lit,
                 ">": col > lit, ">=": col >= lit}[op]
        out = e if out is None else out & e
    return out


def filter_columns(terms):
    return list(dict.fromkeys(t[0] for t in terms))


def text(terms):
    return " AND ".join(f"{c} {op} {value(v)!r}" for c, op, v in terms)


def projection(kind, name, names):
    """The columns a case returns: the filter's columns and the payload, all
    columns (the files' then the partition keys), or the payload only."""
    if name == "filter_payload":
        return list(dict.fromkeys(filter_columns(FILTERS[kind]) + list(PAYLOAD)))
    if name == "all":
        return list(names)
    if name == "payload":
        return list(PAYLOAD)
    raise ValueError(f"unknown projection {name!r}")


# ---------------------------------------------------------------------------
# Cases.

@dataclass
class ReadSpec:
    where: str  # local | s3
    kind: str
    projection: str

    @property
    def label(self):
        return f"{self.kind}/{self.projection}"

    @property
    def id(self):
        return f"dataset/{self.where}/{self.label}"


@dataclass
class WriteSpec:
    sink: str  # st | mt

    @property
    def label(self):
        return f"write_to_dataset/{self.sink}"

    @property
    def id(self):
        return f"dataset/write/{self.label}"


def case_specs(quick=False, wheres=("local", "s3"), sections=("read", "write")):
    """Every read case (where x kind x projection) and the two write cases.
    --quick: each kind once per place, the projection turning over."""
    out = []
    if "read" in sections:
        for where in wheres:
            for i, kind in enumerate(KINDS):
                projs = [PROJECTIONS[i % len(PROJECTIONS)]] if quick else PROJECTIONS
                out += [ReadSpec(where, kind, p) for p in projs]
    if "write" in sections:
        out += [WriteSpec("st"), WriteSpec("mt")]
    return out


# ---------------------------------------------------------------------------
# The oracle and the gates.

def reference(root):
    """pyarrow's reading of the whole dataset (hive keys as plain columns:
    l_shipmode string, year int32), the files' columns then the keys."""
    part = ds.partitioning(pa.schema([("l_shipmode", pa.string()), ("year", pa.int32())]),
                           flavor="hive")
    return ds.dataset(root, format="parquet", partitioning=part).to_table()


def oracle(table, terms, columns):
    """The rows of `table` (pyarrow's reading) passing the filter, projected."""
    return table.filter(pyarrow_expression(terms)).select(columns)


def _plain(t):
    """Every column as one plain chunk of a comparable type (string views,
    large strings and dictionaries as their values)."""
    cols = []
    for c in t.columns:
        c = c.combine_chunks() if isinstance(c, pa.ChunkedArray) else c
        if pa.types.is_dictionary(c.type):
            c = c.dictionary_decode()
        if pa.types.is_string_view(c.type) or pa.types.is_large_string(c.type):
            c = c.cast(pa.string())
        cols.append(c)
    return pa.table(cols, names=t.column_names)


def _ordered(t):
    keys = [k for k in KEY if k in t.column_names] or t.column_names
    if len(keys) < len(KEY):
        keys = t.column_names
    return t.take(pc.sort_indices(t, sort_keys=[(k, "ascending") for k in keys]))


def same_rows(got, want):
    """(ok, message): `got` has `want`'s columns (in order) and its rows as a
    multiset (dataset readers order files as they list them; values compared
    as want's types: a peer's hive key may be int64 or a dictionary)."""
    if got.column_names != want.column_names:
        return False, f"columns {got.column_names} != {want.column_names}"
    if got.num_rows != want.num_rows:
        return False, f"{got.num_rows} rows, expected {want.num_rows}"
    w = _plain(want)
    fields = [pa.field(f.name, f.type) for f in w.schema]  # (nullable: peers need not keep it)
    w = w.cast(pa.schema(fields))
    try:
        g = _plain(got).cast(w.schema)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        return False, f"types {got.schema} do not cast to {w.schema}: {e}"
    for arr in g.columns:
        arr.validate(full=True)
    if g.equals(w):
        return True, "values equal, in the oracle's order"
    g, w = _ordered(g), _ordered(w)
    if g.equals(w):
        return True, "values equal, as a multiset of rows"
    for name in w.column_names:
        a, b = g.column(name), w.column(name)
        if not a.equals(b):
            ne = pc.fill_null(pc.not_equal(a, b), True)
            first = pc.index(ne, True).as_py()
            return False, (f"column {name} differs (rows sorted) first at row {first}: "
                           f"{a[first].as_py()!r} != {b[first].as_py()!r}")
    return False, "rows differ"


def hive_keys(relpath):
    keys = {}
    for seg in relpath.split("/")[:-1]:
        if "=" in seg:
            k, v = seg.split("=", 1)
            keys[unquote(k)] = unquote(v)
    return keys


def sorted_by_key(table):
    """`table` as plain columns, its rows sorted by lineitem's unique key
    (the written-dataset gate's reference, made once)."""
    t = _plain(table)
    return t.take(pc.sort_indices(t, sort_keys=[(k, "ascending") for k in KEY]))


def check_written(root, table, want_sorted=None):
    """(ok, message, facts) of a dataset a writer wrote from `table`: every
    file under key=value directories of both partition columns, snappy,
    read by pyarrow file by file (a key a writer also stored in the file
    must equal its directory's), its keys added from the path; together
    the input's rows (as a multiset: sorted by lineitem's key and compared
    column by column with `want_sorted`, sorted_by_key(table), so that
    the gate holds one sorted copy of each side at most)."""
    files = dataset_files(root)
    if not files:
        return False, "no .parquet file written", {}
    parts, row_groups, codecs, nbytes = [], 0, set(), 0
    key_types = {k: table.schema.field(k).type for k in PARTITION_COLS}
    dirs = set()
    for rel in files:
        keys = hive_keys(rel)
        if sorted(keys) != sorted(PARTITION_COLS):
            return False, f"{rel}: directories {keys} are not both partition keys", {}
        dirs.add(tuple(keys[k] for k in PARTITION_COLS))
        path = os.path.join(root, rel)
        nbytes += os.path.getsize(path)
        f = pq.ParquetFile(path)
        md = f.metadata
        row_groups += md.num_row_groups
        for i in range(md.num_row_groups):
            for j in range(md.num_columns):
                codecs.add(md.row_group(i).column(j).compression)
        t = f.read()
        for k in PARTITION_COLS:
            want = pa.scalar(keys[k]).cast(key_types[k])
            if k in t.column_names:
                col = t.column(k)
                if not pc.all(pc.equal(col.cast(key_types[k]), want)).as_py():
                    return False, f"{rel}: column {k} holds values other than its directory's", {}
                t = t.drop_columns([k])
            t = t.append_column(k, pa.array([want.as_py()] * t.num_rows, key_types[k]))
        parts.append(_plain(t.select(table.column_names)))
    facts = {"files": len(files), "partitions": len(dirs), "row_groups": row_groups,
             "bytes": nbytes, "codecs": sorted(codecs)}
    if codecs != {CODEC.upper()}:
        return False, f"codecs {sorted(codecs)}, not {CODEC}", facts
    got = pa.concat_tables([p.cast(parts[0].schema) for p in parts])
    del parts
    where = f"{len(files)} files in {len(dirs)} partitions, {row_groups} row groups"
    if got.num_rows != table.num_rows:
        return False, f"{got.num_rows} rows, expected {table.num_rows}; {where}", facts
    want = sorted_by_key(table) if want_sorted is None else want_sorted
    got = got.take(pc.sort_indices(got, sort_keys=[(k, "ascending") for k in KEY]))
    for name in want.column_names:
        a = got.column(name).combine_chunks()
        b = want.column(name).combine_chunks()
        if a.type != b.type:
            try:
                a = a.cast(b.type)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
                return False, f"column {name}: {a.type} does not cast to {b.type}: {e}", facts
        if not a.equals(b):
            ne = pc.fill_null(pc.not_equal(a, b), True)
            first = pc.index(ne, True).as_py()
            return False, (f"column {name} differs (rows sorted by {', '.join(KEY)}) first at "
                           f"row {first}: {a[first].as_py()!r} != {b[first].as_py()!r}; "
                           f"{where}"), facts
    return True, f"values equal, as a multiset of rows; {where}", facts
