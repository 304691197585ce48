"""Pruning a dataset's files by the statistics of its _metadata file, before
any file is opened (quiver.ParquetDataset with a _metadata file).

A file is skipped only when the min/max bounds of each of its row groups
prove that no DNF conjunction can hold there. The test is conservative: a
predicate counts as "may match" unless it is one of = == < <= > >= in on a
flat column whose row group has usable bounds (has_min_max and a known sort
order), its value compares with them (a TypeError, as between a timestamp
with a time zone and one without, means "may match"), and the bounds rule
it out. != and not in always may match (a float's NaN is in no bound, and
NaN != x holds), and so does a NaN value (`in` matches NaN). Bounds are lower and upper bounds even when truncated
(is_min/max_value_exact false), which is all this needs. Rows that pass it
are filtered again by each file's read, so it can only save work, never
change a result.
"""

_OPS = {"=", "==", "<", "<=", ">", ">=", "in"}


def _bounds(rg, column):
    """(min, max) of a flat column in a row group, or None when unusable."""
    for i in range(rg.num_columns):
        chunk = rg.column(i)
        if chunk.path_in_schema != column:
            continue
        st = chunk.statistics
        if st is None or not st.has_min_max or st.sort_order not in ("SIGNED", "UNSIGNED"):
            return None
        try:
            return st.min, st.max
        except (ValueError, UnicodeDecodeError):
            return None
    return None


def _predicate_may_match(rg, column, op, value):
    if op not in _OPS:
        return True
    bounds = _bounds(rg, column)
    if bounds is None:
        return True
    lo, hi = bounds
    values = value if op == "in" else [value]
    if any(v != v for v in values if isinstance(v, float)):
        return True  # NaN is in no bound, and `in` matches it
    try:
        if op in ("=", "=="):
            return value is None or lo <= value <= hi
        if op == "<":
            return value is None or lo < value
        if op == "<=":
            return value is None or lo <= value
        if op == ">":
            return value is None or hi > value
        if op == ">=":
            return value is None or hi >= value
        return any(v is None or lo <= v <= hi for v in value)  # in
    except TypeError:
        return True


def may_match(row_groups, conjunctions):
    """Whether some row group may hold a row of some conjunction (a list of
    (column, op, value) tuples)."""
    for rg in row_groups:
        if rg.num_rows == 0:
            continue
        for conj in conjunctions:
            if all(_predicate_may_match(rg, c, op, v) for c, op, v in conj):
                return True
    return False
