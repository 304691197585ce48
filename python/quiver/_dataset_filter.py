"""Which files of a dataset a filter keeps, and what each file's read filters.

A filter (pyarrow's DNF lists or an Expression) splits three ways:
- predicates on partition keys only: evaluated on the files' key values
  (a table of one row per distinct combination, with Quiver's own
  expression semantics), before any file is opened; a file no conjunction
  can match is not read;
- predicates on file columns only: pushed into the file's read (the
  reader's filters=, with row group and page pruning);
- an Expression mixing both (which is not split): applied to each file's
  rows after its key columns are added (no pruning by it).
A DNF conjunction is split predicate by predicate: a file keeps the
conjunctions whose key predicates hold, and reads the OR of their column
predicates (no filter if one of them has none).
"""

import functools
import operator

from quiver import _dataset_schema as _schema


def _quiver():
    import quiver

    return quiver


def _is_dnf(filters):
    return isinstance(filters, (list, tuple))


def _conjunctions(filters):
    q = _quiver()
    if len(filters) == 0 or any(len(f) == 0 for f in filters):
        raise q.InvalidError("Malformed filters")
    if isinstance(filters[0][0], str):
        filters = [filters]
    for conjunction in filters:
        for predicate in conjunction:
            if not isinstance(predicate, (list, tuple)) or len(predicate) != 3:
                raise q.InvalidError(f"Malformed filters: {predicate!r} is not a "
                                     f"(column, op, value) tuple")
    return [list(c) for c in filters]


def _and(exprs):
    exprs = [e for e in exprs if e is not None]
    return functools.reduce(operator.and_, exprs) if exprs else None


class KeyRows:
    """The distinct combinations of the files' partition key values as one
    table (a row each), each expression evaluated once over all of them: a
    file passes when its combination's row does. Built once per dataset
    (ParquetDataset keeps it) and shared by its plans, also from several
    threads: an expression's result is kept with the expression itself (so
    that its id is not reused while kept), the last 64."""

    def __init__(self, keys, key_types, files):
        self._keys, self._types = keys, key_types
        distinct = {id(f.keys): f.keys for f in files}  # a dict per directory
        self._combo_of = {i: tuple(d.get(k) for k in keys) for i, d in distinct.items()}
        self._dicts = list(distinct.values())  # (kept alive: their ids key _combo_of)
        self._combos = list(dict.fromkeys(self._combo_of.values()))
        self._table, self._passing = None, {}

    def passes(self, f, expr):
        entry = self._passing.get(id(expr))
        if entry is None or entry[0] is not expr:
            entry = (expr, self._evaluate(expr))
            if len(self._passing) >= 64:
                self._passing.clear()
            self._passing[id(expr)] = entry
        combo = self._combo_of.get(id(f.keys))
        if combo is None:  # a file this object was not built with
            combo = tuple(f.keys.get(k) for k in self._keys)
        return combo in entry[1]

    def _evaluate(self, expr):
        """The combinations whose row passes `expr`."""
        q = _quiver()
        table = self._table
        if table is None:
            index = "__quiver_combination"
            while index in self._keys:
                index += "_"
            columns = {k: _schema.key_values([c[i] for c in self._combos], self._types[k])
                       for i, k in enumerate(self._keys)}
            columns[index] = q.array(list(range(len(self._combos))), type="int64")
            self._index, self._table = index, q.table(columns)
            table = self._table
        try:
            kept = table.filter(expr).column(self._index).to_pylist()
        except q.QuiverError as e:
            types = ", ".join(f"{k} {_schema._type_name(self._types[k])}" for k in self._keys)
            raise type(e)(f"filters on partition keys ({types}): {e}") from e
        return {self._combos[i] for i in kept}


def plan(files, keys, key_types, filters, may_match=None, rows=None):
    """[(file, pushed Expression or None, post Expression or None)] for the
    files the filters may keep, in order. may_match(file, conjunctions):
    False when no row group of the file can hold a row of any of the DNF
    conjunctions (the _metadata statistics say so), which drops the file.
    rows: the dataset's KeyRows (built here when None)."""
    from quiver._compute_expression import filters_to_expression

    keyset = set(keys)
    if rows is None:
        rows = KeyRows(keys, key_types, files)
    pushed_of = {}  # the OR of the same alive conjunctions, built once

    def or_of(alive):
        key = tuple(id(c) for c in alive)  # (the conjunctions live as long as `parsed`)
        if key not in pushed_of:
            pushed_of[key] = filters_to_expression(alive)
        return pushed_of[key]
    parsed = []
    for flt in filters:
        if _is_dnf(flt):
            split = []
            for conj in _conjunctions(flt):
                on_keys = [p for p in conj if p[0] in keyset]
                on_file = [p for p in conj if p[0] not in keyset]
                split.append((filters_to_expression([on_keys]) if on_keys else None,
                              on_file))
            parsed.append(("dnf", split))
        else:
            expr = filters_to_expression(flt)
            used = set(expr.fields())
            kind = "keys" if used and used <= keyset else ("pushed" if not used & keyset else "post")
            parsed.append((kind, expr))
    # What the keys decide is the same for every file sharing them (a
    # directory's files share one dict): decided once per dict, the pushed
    # and post expressions shared. (keep, pushed, post, the DNF conjunctions
    # left alive that may_match tests per file.)
    decided = {}

    def decide(keys_of):
        pushed, post, alive_lists = [], [], []
        for kind, what in parsed:
            if kind == "dnf":
                alive = [on_file for on_keys, on_file in what
                         if on_keys is None or rows.passes(keys_of, on_keys)]
                if not alive:
                    return False, None, None, None
                if all(alive):
                    alive_lists.append(alive)
                    pushed.append(or_of(alive))
            elif kind == "keys":
                if not rows.passes(keys_of, what):
                    return False, None, None, None
            elif kind == "pushed":
                pushed.append(what)
            else:
                post.append(what)
        return True, _and(pushed), _and(post), alive_lists

    out = []
    for f in files:
        d = decided.get(id(f.keys))
        if d is None:
            d = decided[id(f.keys)] = decide(f)
        keep, pushed, post, alive_lists = d
        if not keep:
            continue
        if may_match is not None and not all(may_match(f, alive) for alive in alive_lists):
            continue
        out.append((f, pushed, post))
    return out
