"""quiver.compute.sort_indices and quiver.compute.SortOptions
(src/quiver/compute/sort.h; python/src/compute_sort.cc), with
pyarrow.compute's signature, options and results."""

import re

from quiver._quiver import _compute

_ORDERS = ("ascending", "descending")
_PLACEMENTS = ("at_start", "at_end")


def _check_order(order):
    if order not in _ORDERS:
        raise ValueError(f'"{order}" is not a valid sort order')
    return order


def _check_placement(placement):
    if placement not in _PLACEMENTS:
        raise ValueError(f'"{placement}" is not a valid null placement')
    return placement


def _normalize_keys(sort_keys):
    """[(column, order, null_placement)] from pyarrow's (name, order) or
    (name, order, null_placement) tuples (column: a str name or an int)."""
    keys = []
    for key in sort_keys:
        if not isinstance(key, tuple) or len(key) not in (2, 3):
            raise TypeError("sort_keys must be (name, order) or (name, order, null_placement) "
                            f"tuples, got {key!r}")
        name, order = key[0], _check_order(key[1])
        placement = _check_placement(key[2]) if len(key) == 3 else "at_end"
        if isinstance(name, bool) or not isinstance(name, (str, int)):
            raise TypeError(f"a sort key's column must be a name (str) or an index (int), "
                            f"got {name!r}")
        keys.append((name, order, placement))
    return keys


class SortOptions:
    """Options of quiver.compute.sort_indices, as pyarrow.compute.SortOptions:
    `sort_keys`, (name, order[, null_placement]) tuples; `null_placement`, when
    not None, overrides every key's."""

    __slots__ = ("sort_keys", "null_placement")

    def __init__(self, sort_keys=(), *, null_placement=None):
        self.sort_keys = _normalize_keys(sort_keys)
        self.null_placement = None if null_placement is None else _check_placement(null_placement)

    def __repr__(self):
        return (f"quiver.compute.SortOptions(sort_keys={self.sort_keys!r}, "
                f"null_placement={self.null_placement!r})")


# pyarrow's SortOptions shows its keys only in its text:
# "SortOptions(sort_keys=[FieldRef.Name(x) DESC NULLS FIRST, FieldRef.FieldPath(0) ASC ...])".
_PYARROW_KEY = re.compile(r"FieldRef\.(Name|FieldPath)\((.*?)\) (ASC|DESC) NULLS (FIRST|LAST)"
                          r"(?=, FieldRef\.|\]\)$)")


def _from_pyarrow_options(options):
    text = repr(options)
    if not text.startswith("SortOptions(sort_keys=["):
        raise TypeError(f"options must be a SortOptions, got {type(options)}")
    keys = []
    for kind, name, order, nulls in _PYARROW_KEY.findall(text):
        if kind == "FieldPath":
            if not name.isdigit():
                raise NotImplementedError(f"quiver.compute.sort_indices: nested sort key {name}")
            name = int(name)
        keys.append((name, "ascending" if order == "ASC" else "descending",
                     "at_start" if nulls == "FIRST" else "at_end"))
    if text != "SortOptions(sort_keys=[])" and not keys:
        raise NotImplementedError(f"quiver.compute.sort_indices: cannot read the keys of {text}")
    return SortOptions(keys)


def sort_indices(input, /, sort_keys=(), *, null_placement=None, options=None,  # noqa: A002
                 memory_pool=None):
    """The indices (uint64) that sort `input` stably, as
    pyarrow.compute.sort_indices: an array or chunked array by its values
    (the first sort key's order and null placement, else ascending, at_end),
    a Table or RecordBatch by its sort_keys, (name or index, order[,
    null_placement]) tuples, first key first. NaN sorts after every number
    and before the nulls; null_placement, when given, overrides every key's.
    `options`: a quiver or pyarrow SortOptions, instead of the arguments.
    `memory_pool` must be None (Quiver allocates from its own pool)."""
    if memory_pool is not None:
        from quiver import NotImplementedError as QuiverNotImplemented

        raise QuiverNotImplemented("quiver.compute.sort_indices: memory_pool (Quiver allocates "
                                   "from its own pool; pass None)")
    if options is not None:
        if sort_keys or null_placement is not None:
            raise TypeError("Function 'sort_indices' called with both an 'options' argument "
                            "and additional arguments")
        if not isinstance(options, SortOptions):
            options = _from_pyarrow_options(options)
    else:
        options = SortOptions(sort_keys, null_placement=null_placement)
    keys = options.sort_keys
    if options.null_placement is not None:
        keys = [(name, order, options.null_placement) for name, order, _ in keys]
    from quiver.compute import _as_array, _tabular

    if _tabular(input) is not None:
        return _compute.sort_indices_table(input, keys)
    order, placement = (keys[0][1], keys[0][2]) if keys else (
        "ascending", options.null_placement or "at_end")
    return _compute.sort_indices(_as_array(input), order, placement)


__all__ = ["sort_indices", "SortOptions"]
