"""The cases of `make bench-filter` (bench/peers/filter_run.py), pure logic
without peer processes: the inputs (TPC-H lineitem and a ClickBench-like
table, rewritten by pyarrow with a page index), the predicates and their
literals (chosen from the data's quantiles so that the selectivity is real),
the projections, the oracle (pyarrow reads the whole file, then filters) and
the check of a peer's result against it.

A predicate is a conjunction of clauses, each clause a disjunction of terms
[column, op, literal] (ops < <= > >= ==): {"and": [[term, ...], ...]}. A
literal of a date column travels as {"date": days since the epoch}. Every
peer builds its own filter from it (pyarrow/Quiver filters=, duckdb SQL,
polars expressions, arrow-rs one ArrowPredicateFn per clause).
"""

import datetime
import math
import os
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

SELECTIVITIES = (0.001, 0.01, 0.1, 0.5)
KINDS = ("sorted_key", "unsorted_int", "date", "string", "two_conjuncts", "or")
PROJECTIONS = ("filter_payload", "all", "payload")
CODECS = ("none", "zstd")
ROWS_PER_PAGE = 20_000
SEED = 45
# The ClickBench-like table's rows (TPC-H lineitem SF1 has 6,001,215).
CLICKBENCH_ROWS = 2_000_000
EPOCH = datetime.date(1970, 1, 1)


@dataclass
class Dataset:
    name: str
    # kind -> the columns its predicate uses (two_conjuncts / or: two).
    columns: dict
    payload: tuple  # two columns no predicate uses


DATASETS = {
    "lineitem": Dataset("lineitem", {
        "sorted_key": ("l_orderkey",), "unsorted_int": ("l_partkey",), "date": ("l_shipdate",),
        "string": ("l_comment",), "two_conjuncts": ("l_suppkey", "l_receiptdate"),
        "or": ("l_partkey", "l_commitdate")}, ("l_extendedprice", "l_shipmode")),
    "clickbench": Dataset("clickbench", {
        "sorted_key": ("CounterID",), "unsorted_int": ("WatchID",), "date": ("EventDate",),
        "string": ("URL",), "two_conjuncts": ("UserID", "EventDate"),
        "or": ("WatchID", "RegionID")}, ("ResolutionWidth", "SearchPhrase")),
}


# ---------------------------------------------------------------------------
# Inputs.

def clickbench_table(rows, seed=SEED):
    """A ClickBench-like hits table, seeded: CounterID sorted (runs of one
    counter), WatchID/UserID random 64-bit ids, EventDate over three years,
    SearchPhrase 85% empty in short runs, URL long (40-200 characters)."""
    rng = np.random.default_rng(seed)
    counter = np.sort(rng.integers(0, max(1, rows // 20), rows, dtype=np.int32))
    watch = rng.integers(-(1 << 63), (1 << 63) - 1, rows, dtype=np.int64)
    user = rng.integers(-(1 << 63), (1 << 63) - 1, rows, dtype=np.int64)
    date = rng.integers(15_700, 15_700 + 3 * 365, rows, dtype=np.int32)
    region = rng.integers(0, 10_000, rows, dtype=np.int32)
    width = rng.choice(np.array([0, 1024, 1280, 1366, 1440, 1920, 2560], np.int16), rows)
    # SearchPhrase: alternating runs (mean length 6) of empty and non-empty
    # strings, a run empty with probability 0.85.
    runs = rng.geometric(1 / 6, rows // 3 + 16)
    empty_run = rng.random(len(runs)) < 0.85
    empty = np.repeat(empty_run, runs)[:rows]
    if len(empty) < rows:
        empty = np.concatenate([empty, np.ones(rows - len(empty), bool)])
    words = np.array(["parquet", "arrow", "filter", "page", "index", "weather", "news", "car",
                      "cheap", "flight", "hotel", "music", "video", "game", "recipe", "map"])
    w = rng.integers(0, len(words), (rows, 3))
    nums = rng.integers(0, 1000, rows)
    phrase = np.char.add(np.char.add(np.char.add(words[w[:, 0]], " "), words[w[:, 1]]),
                         np.char.add(" ", nums.astype(str)))
    phrase = np.where(empty, "", phrase)
    # URL: a host among 5,000 and one of 100,000 random hex paths, 40-200
    # characters in all.
    pool = min(rows, 100_000)
    plen = rng.integers(20, 180, pool)
    chars = np.frombuffer(b"0123456789abcdef", np.uint8)[
        rng.integers(0, 16, (pool, 180), dtype=np.uint8)]
    paths = np.array([chars[i, :plen[i]].tobytes().decode() for i in range(pool)])
    host = rng.integers(0, 5000, rows).astype(str)
    url = np.char.add(np.char.add(np.char.add("https://www.site", host), ".example.com/"),
                      paths[rng.integers(0, pool, rows)])
    return pa.table({
        "CounterID": pa.array(counter), "WatchID": pa.array(watch), "UserID": pa.array(user),
        "EventDate": pa.array(date, pa.int32()).cast(pa.date32()),
        "RegionID": pa.array(region), "ResolutionWidth": pa.array(width),
        "SearchPhrase": pa.array(phrase.tolist(), pa.string()), "URL": pa.array(url.tolist(), pa.string()),
    })


def rewrite(table, path, codec):
    """The file every peer reads: pyarrow's writer, statistics, page index,
    20,000-row pages, `codec` (none or zstd), pyarrow's default row groups."""
    tmp = path + ".tmp"
    pq.write_table(table, tmp, compression=codec, write_statistics=True,
                   write_page_index=True, max_rows_per_page=ROWS_PER_PAGE)
    os.replace(tmp, path)
    return path


# ---------------------------------------------------------------------------
# Predicates.

def _literal(value, typ):
    if pa.types.is_date32(typ):
        if isinstance(value, datetime.date):
            return {"date": (value - EPOCH).days}
        return {"date": int(value)}
    if pa.types.is_integer(typ):
        return int(value)
    return value


def _scalar(lit, typ):
    """The literal as a pyarrow scalar of the column's type."""
    if isinstance(lit, dict):
        return pa.scalar(EPOCH + datetime.timedelta(days=lit["date"]), pa.date32())
    return pa.scalar(lit, typ)


def python_value(lit):
    """The literal as Python's value (filters= tuples, polars)."""
    if isinstance(lit, dict):
        return EPOCH + datetime.timedelta(days=lit["date"])
    return lit


def sorted_values(column):
    """The column's values sorted (dates as their days), for quantile()."""
    arr = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if pa.types.is_date32(arr.type):
        arr = arr.cast(pa.int32())
    return arr.take(pc.sort_indices(arr))


def quantile(values, q):
    """The value at quantile q of sorted `values` (index round(q * n),
    clamped): `col < quantile(sorted_values(col), s)` keeps about s."""
    i = min(len(values) - 1, max(0, int(round(q * len(values)))))
    return values[i].as_py()


@dataclass
class Predicate:
    kind: str
    selectivity: float
    clauses: list  # [[[col, op, literal], ...], ...]
    columns: tuple = field(default=())

    def as_json(self):
        return {"and": self.clauses}

    def text(self):
        def term(t):
            v = python_value(t[2])
            return f"{t[0]} {t[1]} {v!r}" if isinstance(v, str) else f"{t[0]} {t[1]} {v}"
        parts = [" OR ".join(term(t) for t in c) for c in self.clauses]
        return " AND ".join(f"({p})" if len(c) > 1 else p for p, c in zip(parts, self.clauses))


def make_predicate(table, dataset, kind, sel, cache=None):
    """The predicate of `kind` on `dataset`'s columns keeping about `sel` of
    `table`'s rows: a range around the middle of the sorted key; `col < q`
    (q the sel quantile) on one column; two conjuncts at sqrt(sel) each; an
    OR of two terms at 1 - sqrt(1 - sel) each. `cache`: {column: sorted values}, kept
    across calls."""
    cols = DATASETS[dataset].columns[kind]
    cache = {} if cache is None else cache

    def lit(c, q):
        if c not in cache:
            cache[c] = sorted_values(table.column(c))
        return _literal(quantile(cache[c], q), table.schema.field(c).type)

    if kind == "sorted_key":
        c = cols[0]
        lo, hi = lit(c, 0.5 - sel / 2), lit(c, 0.5 + sel / 2)
        clauses = [[[c, ">=", lo]], [[c, "<", hi]]]
    elif kind in ("unsorted_int", "date", "string"):
        clauses = [[[cols[0], "<", lit(cols[0], sel)]]]
    elif kind == "two_conjuncts":
        q = math.sqrt(sel)
        clauses = [[[cols[0], "<", lit(cols[0], q)]], [[cols[1], "<", lit(cols[1], q)]]]
    elif kind == "or":
        q = 1 - math.sqrt(1 - sel)  # two independent terms: 1 - (1 - q)^2 = sel
        clauses = [[[cols[0], "<", lit(cols[0], q)], [cols[1], "<", lit(cols[1], q)]]]
    else:
        raise ValueError(f"unknown predicate kind {kind!r}")
    return Predicate(kind, sel, clauses, tuple(cols))


def dnf(pred):
    """pyarrow's filters= list (DNF) of a predicate: conjunctions of single
    terms, or one clause of several terms (an OR). Others have no DNF form
    here (none of the cases)."""
    if all(len(c) == 1 for c in pred.clauses):
        return [[(c[0][0], c[0][1], python_value(c[0][2])) for c in pred.clauses]]
    if len(pred.clauses) == 1:
        return [[(t[0], t[1], python_value(t[2]))] for t in pred.clauses[0]]
    raise ValueError("predicate has no DNF form here")


def mask(table, pred):
    """The predicate evaluated by pyarrow.compute (nulls drop the row)."""
    ops = {"<": pc.less, "<=": pc.less_equal, ">": pc.greater, ">=": pc.greater_equal,
           "==": pc.equal}
    out = None
    for clause in pred.clauses:
        any_ = None
        for c, op, v in clause:
            col = table.column(c)
            m = ops[op](col, _scalar(v, col.type))
            any_ = m if any_ is None else pc.or_kleene(any_, m)
        out = any_ if out is None else pc.and_kleene(out, any_)
    return pc.fill_null(out, False)


def projection(dataset, kind, name, schema_names):
    """The columns a case returns: the filter's columns plus the two payload
    columns, all columns, or the payload only."""
    d = DATASETS[dataset]
    if name == "filter_payload":
        return list(dict.fromkeys(d.columns[kind] + d.payload))
    if name == "all":
        return list(schema_names)
    if name == "payload":
        return list(d.payload)
    raise ValueError(f"unknown projection {name!r}")


@dataclass
class CaseSpec:
    dataset: str
    codec: str
    kind: str
    selectivity: float
    projection: str

    @property
    def input_name(self):
        return f"{self.dataset}.{self.codec}"

    @property
    def label(self):
        return f"{self.kind}@{self.selectivity:g}/{self.projection}"


def case_specs(quick=False):
    """Every (dataset, codec, kind, selectivity, projection). --quick: each
    (dataset, kind, selectivity) once, the codec and projection turning over
    (so every one of them is run), 48 cases."""
    out = []
    for d in DATASETS:
        for codec in CODECS:
            for kind in KINDS:
                for sel in SELECTIVITIES:
                    for proj in PROJECTIONS:
                        out.append(CaseSpec(d, codec, kind, sel, proj))
    if not quick:
        return out
    quick_out = []
    for d in DATASETS:
        i = 0
        for kind in KINDS:
            for sel in SELECTIVITIES:
                quick_out.append(CaseSpec(d, CODECS[i % 2], kind, sel,
                                          PROJECTIONS[(i // 2) % 3]))
                i += 1
    return sorted(quick_out, key=lambda s: (s.dataset, CODECS.index(s.codec)))


def duckdb_memory_limit(file_bytes):
    """Bytes the duckdb peers may use to read a file of `file_bytes`:
    max(4 GiB, 6x its size) (set per file, outside the timing: a filtered
    read of all the columns of a compressed file holds several times its
    bytes decoded)."""
    return max(4 << 30, 6 * file_bytes)


# ---------------------------------------------------------------------------
# The oracle and the gate.

def oracle(table, pred, columns):
    """pyarrow's answer: the whole table (read by pyarrow) filtered, then
    projected, rows in file order."""
    return table.filter(mask(table, pred)).select(columns)


def _canonical(t):
    """Every column as one plain chunk of a comparable type (string views
    and large strings as string)."""
    cols = []
    for c in t.columns:
        c = c.combine_chunks() if isinstance(c, pa.ChunkedArray) else c
        if pa.types.is_string_view(c.type) or pa.types.is_large_string(c.type):
            c = c.cast(pa.string())
        elif pa.types.is_dictionary(c.type):
            c = c.dictionary_decode()
        cols.append(c)
    return pa.table(cols, names=t.column_names)


def _sorted(t):
    keys = [(n, "ascending") for n in t.column_names]
    return t.take(pc.sort_indices(t, sort_keys=keys))


def check_result(got, want, any_order=False):
    """(ok, message): `got` (a peer's result) has `want`'s columns, in order,
    and its values, in file order (`any_order`: as multisets of rows, for the
    multi-threaded arms). Types may differ where the values cannot (string
    views, large strings, dictionaries): the values are compared as
    `want`'s type."""
    if got.column_names != want.column_names:
        return False, f"columns {got.column_names} != {want.column_names}"
    if got.num_rows != want.num_rows:
        return False, f"{got.num_rows} rows, expected {want.num_rows}"
    w = _canonical(want)  # (fields as nullable: a peer need not keep "not null")
    try:
        g = _canonical(got).cast(w.schema)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        return False, f"types {got.schema} do not cast to {w.schema}: {e}"
    for arr in g.columns:
        arr.validate(full=True)
    if g.equals(w):
        return True, "values equal, in file order"
    if any_order and _sorted(g).equals(_sorted(w)):
        return True, "values equal, as a multiset of rows (order not kept)"
    for name in w.column_names:
        a, b = g.column(name), w.column(name)
        if not a.equals(b):
            ne = pc.not_equal(a, b)
            first = pc.index(ne, True).as_py() if ne.null_count < len(ne) else 0
            return False, (f"column {name} differs first at row {first}: "
                           f"{a[first].as_py()!r} != {b[first].as_py()!r}")
    return False, "rows differ in order"


def achieved(table, pred):
    """The fraction of `table`'s rows the predicate keeps."""
    return pc.sum(mask(table, pred)).as_py() / max(1, table.num_rows)


def column_chunk_bytes(metadata, column):
    """Compressed bytes of `column`'s chunks over all row groups (the
    denominator of the sorted-key read figure)."""
    idx = metadata.schema.names.index(column)
    return sum(metadata.row_group(i).column(idx).total_compressed_size
               for i in range(metadata.num_row_groups))
