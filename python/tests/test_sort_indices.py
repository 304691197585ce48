"""quiver.compute.sort_indices judged by pyarrow.compute.sort_indices: random
arrays of every type sort_indices takes (integers, floats with NaN, +-0 and
+-inf, boolean, temporal, decimals, the three string and binary layouts,
fixed_size_binary, dictionaries), with nulls and many duplicates (the sort is
stable, so the indices must be pyarrow's exactly), both orders, both null
placements; tables and record batches (chunked too) by several keys; pyarrow's
option spellings; errors. Where pyarrow 26 has no kernel (float16, decimal32/64,
string_view, binary_view) the judge sorts the same values cast to a type it
has (float32, decimal128, string, binary). Seeded (QUIVER_TEST_SEED)."""

import decimal
import os

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import quiver
import quiver.compute as qc
from test_compute_select import TYPES as SELECT_TYPES

SEED = int(os.environ.get("QUIVER_TEST_SEED", "20261207"))
ORDERS = ["ascending", "descending"]
PLACEMENTS = ["at_end", "at_start"]

# The types of test_compute_select's generated list that sort_indices takes
# (nested types and intervals are NotImplemented), and one more dictionary.
SORTABLE = ("bool", "int", "uint", "float", "decimal", "date", "timestamp", "time", "duration",
            "fsb", "string", "large_string", "binary", "large_binary", "null", "dictionary_string",
            "dictionary_int8_int64")
TYPES = {name: t for name, t in SELECT_TYPES.items()
         if name.startswith(SORTABLE) and "list" not in name and "struct" not in name}
TYPES["dictionary_uint16_float64"] = pa.dictionary(pa.uint16(), pa.float64())

# The type pyarrow 26 sorts in place of one it has no kernel for.
JUDGE_TYPE = {
    pa.float16(): pa.float32(),
    pa.decimal32(7, 2): pa.decimal128(7, 2),
    pa.decimal64(15, 3): pa.decimal128(15, 3),
    pa.string_view(): pa.string(),
    pa.binary_view(): pa.binary(),
}


def _pool(t, rng):
    """A small pool of distinct values (duplicates come from drawing from it)."""
    if pa.types.is_boolean(t):
        return [False, True]
    if pa.types.is_integer(t):
        info = np.iinfo(t.to_pandas_dtype())
        extremes = [int(info.min), int(info.max), 0, 1]
        return extremes + [int(v) for v in rng.integers(info.min, info.max, 40, endpoint=True,
                                                        dtype=t.to_pandas_dtype())]
    if pa.types.is_floating(t):
        specials = [float("nan"), -0.0, 0.0, float("inf"), -float("inf"), 1.5, -1.5]
        return specials + [float(v) for v in np.round(rng.standard_normal(40) * 100, 1)]
    if pa.types.is_decimal(t):
        digits = min(t.precision, 18)
        ints = rng.integers(-(10 ** digits) + 1, 10 ** digits, 40, dtype=np.int64)
        return [decimal.Decimal(int(v)).scaleb(-t.scale) for v in ints] + [decimal.Decimal(0)]
    if pa.types.is_fixed_size_binary(t):
        w = t.byte_width
        return [bytes(rng.integers(0, 256, w, dtype=np.uint8)) for _ in range(20)] + [b"\0" * w]
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        stems = ["", "a", "abcdefgh", "abcdefghij", "abcdefghijklmnopq", "é", "zz", "a\0b"]
        return stems + ["abcdefgh" + "".join(chr(97 + int(c)) for c in rng.integers(0, 26, k))
                        for k in rng.integers(0, 12, 30)]
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return [b"", b"\xff", b"\x00", b"\x7f\x80", b"\x80"] + [
            bytes(rng.integers(0, 256, int(k), dtype=np.uint8)) for k in rng.integers(0, 20, 30)]
    raise AssertionError(t)


def gen(t, n, null_fraction, rng):
    """A random array of type t, n rows, about null_fraction nulls, many duplicates."""
    mask = rng.random(n) < null_fraction if null_fraction > 0 else None
    if pa.types.is_null(t):
        return pa.nulls(n)
    if pa.types.is_dictionary(t):
        dictionary = gen(t.value_type, 12, 0.1, rng)  # nulls and NaN among the values
        indices = rng.integers(0, len(dictionary), n)
        return pa.DictionaryArray.from_arrays(pa.array(indices, type=t.index_type, mask=mask),
                                              dictionary)
    if pa.types.is_temporal(t):
        # Raw integers of the storage width, cast (no Python datetimes).
        storage = pa.int32() if t.bit_width == 32 else pa.int64()
        limit = {pa.date32(): 30_000, pa.time32("ms"): 86_400_000,
                 pa.time64("ns"): 86_400 * 10**9}.get(t, 2**60)
        low = 0 if pa.types.is_time(t) else -limit
        pool = rng.integers(low, limit, 40, dtype=np.int64)
        if pa.types.is_date64(t):
            pool = pool // 86_400_000 * 86_400_000
        raw = pool[rng.integers(0, len(pool), n)].astype(storage.to_pandas_dtype())
        return pa.array(raw, type=storage, mask=mask).cast(t)
    pool = _pool(t, rng)
    values = [pool[int(i)] for i in rng.integers(0, len(pool), n)]
    if mask is not None:
        values = [None if m else v for v, m in zip(values, mask)]
    if pa.types.is_float16(t):
        return pa.array(values, type=pa.float32()).cast(t)
    return pa.array(values, type=t)


def judge_input(arr):
    t = arr.type
    if pa.types.is_dictionary(t) and t.value_type in JUDGE_TYPE:
        return arr.cast(pa.dictionary(t.index_type, JUDGE_TYPE[t.value_type]))
    return arr.cast(JUDGE_TYPE[t]) if t in JUDGE_TYPE else arr


def indices(result):
    out = pa.array(result)
    assert out.type == pa.uint64()
    assert out.null_count == 0
    return out.to_pylist()


@pytest.mark.parametrize("name", list(TYPES))
@pytest.mark.parametrize("n", [0, 1, 65, 3000])
def test_array_every_type(name, n):
    rng = np.random.default_rng([SEED, n, len(name)])
    t = TYPES[name]
    for null_fraction in [0.0, 0.2]:
        arr = gen(t, n, null_fraction, rng)
        judge = judge_input(arr)
        for order in ORDERS:
            for placement in PLACEMENTS:
                expected = pc.sort_indices(
                    judge, sort_keys=[("x", order, placement)]).to_pylist()
                got = qc.sort_indices(arr, sort_keys=[("x", order, placement)])
                assert indices(got) == expected, (name, n, null_fraction, order, placement)
                # The overriding null_placement argument (pyarrow's, deprecated there).
                got = qc.sort_indices(arr, sort_keys=[("x", order)], null_placement=placement)
                assert indices(got) == expected


def test_array_defaults_sliced_and_chunked():
    rng = np.random.default_rng(SEED)
    arr = gen(pa.float64(), 500, 0.2, rng)
    assert indices(qc.sort_indices(arr)) == pc.sort_indices(arr).to_pylist()
    part = arr.slice(37, 301)
    assert indices(qc.sort_indices(part)) == pc.sort_indices(part).to_pylist()
    chunked = pa.chunked_array([arr.slice(0, 100), arr.slice(100, 0), arr.slice(100)])
    expected = pc.sort_indices(chunked, sort_keys=[("x", "descending")]).to_pylist()
    assert indices(qc.sort_indices(chunked, sort_keys=[("x", "descending")])) == expected
    # A quiver array, and a Python list (typed as pa.array types it).
    assert indices(qc.sort_indices(quiver.table(pa.table({"a": arr})).column(0))) == \
        pc.sort_indices(arr).to_pylist()
    assert indices(qc.sort_indices([3, None, 1, 2])) == [2, 3, 0, 1]


def test_nan_and_zero_order_as_pyarrow():
    nan = float("nan")
    arr = pa.array([1.0, None, nan, -0.0, 0.0, -1.0, nan, None, float("inf")])
    for order in ORDERS:
        for placement in PLACEMENTS:
            keys = [("x", order, placement)]
            assert indices(qc.sort_indices(arr, sort_keys=keys)) == \
                pc.sort_indices(arr, sort_keys=keys).to_pylist()
    # Hand-checked against pyarrow 26: NaN after numbers, before nulls, in both orders.
    assert indices(qc.sort_indices(arr, sort_keys=[("x", "descending")])) == \
        [8, 0, 3, 4, 5, 2, 6, 1, 7]


def _table(rng, n):
    return pa.table({
        "i": gen(pa.int16(), n, 0.1, rng),
        "f": gen(pa.float64(), n, 0.1, rng),
        "s": gen(pa.string(), n, 0.1, rng),
        "b": gen(pa.bool_(), n, 0.1, rng),
        "d": gen(pa.dictionary(pa.int32(), pa.string()), n, 0.1, rng),
        "t": gen(pa.timestamp("us", tz="UTC"), n, 0.1, rng),
        "m": gen(pa.decimal128(38, 10), n, 0.1, rng),
        "x": gen(pa.binary(3), n, 0.1, rng),
    })


def decoded(table):
    """The table with its dictionary columns decoded: pyarrow 26 sorts a
    dictionary array by value, but not a dictionary column of a table
    ("Unsupported type for RecordBatch sorting"); Quiver sorts both by value."""
    return pa.table({name: col.cast(col.type.value_type) if pa.types.is_dictionary(col.type)
                     else col for name, col in zip(table.column_names, table.columns)})


@pytest.mark.parametrize("n", [0, 7, 2000])
def test_table_several_keys(n):
    rng = np.random.default_rng([SEED, n])
    table = _table(rng, n)
    # Chunked differently per column: the judge sees the same rows.
    chunked = pa.concat_tables([table.slice(0, n // 3), table.slice(n // 3)])
    names = table.column_names
    for trial in range(12):
        k = int(rng.integers(1, 4))
        chosen = [names[int(j)] for j in rng.choice(len(names), k, replace=False)]
        keys = [(c, ORDERS[int(rng.integers(0, 2))], PLACEMENTS[int(rng.integers(0, 2))])
                for c in chosen]
        expected = pc.sort_indices(decoded(table), sort_keys=keys).to_pylist()
        assert indices(qc.sort_indices(table, sort_keys=keys)) == expected, keys
        assert indices(qc.sort_indices(chunked, sort_keys=keys)) == expected, keys
        batch = table.combine_chunks().to_batches()[0] if n else pa.RecordBatch.from_pylist(
            [], schema=table.schema)
        assert indices(qc.sort_indices(batch, sort_keys=keys)) == expected, keys
        assert indices(qc.sort_indices(quiver.table(table), sort_keys=keys)) == expected
    # Keys by index, two-element tuples, the overriding null_placement.
    keys = [(2, "descending"), ("i", "ascending")]
    assert indices(qc.sort_indices(table, sort_keys=keys, null_placement="at_start")) == \
        pc.sort_indices(decoded(table), sort_keys=[(2, "descending", "at_start"),
                                          ("i", "ascending", "at_start")]).to_pylist()


def test_all_keys_equal_and_many_keys():
    # More than 64 bits of ranks: several LSD rounds.
    rng = np.random.default_rng(SEED + 1)
    n = 3000
    cols = {f"c{i}": pa.array(rng.integers(0, 2**40, n)) for i in range(4)}
    cols["same"] = pa.array([7] * n)
    cols["few"] = pa.array(rng.integers(0, 3, n))
    table = pa.table(cols)
    keys = [("few", "ascending"), ("same", "descending"), ("c0", "descending"),
            ("c1", "ascending"), ("c2", "descending"), ("c3", "ascending")]
    assert indices(qc.sort_indices(table, sort_keys=keys)) == \
        pc.sort_indices(table, sort_keys=keys).to_pylist()


def test_options_objects():
    arr = pa.array([3, None, 1, 2])
    table = pa.table({"a": [2, 1, None, 1], "b": ["x", "y", "z", None]})
    for opts in [pc.SortOptions(sort_keys=[("a", "descending", "at_start"), ("b", "ascending")]),
                 qc.SortOptions(sort_keys=[("a", "descending", "at_start"), ("b", "ascending")]),
                 pc.SortOptions(sort_keys=[(0, "descending", "at_start"), (1, "ascending")])]:
        assert indices(qc.sort_indices(table, options=opts)) == \
            pc.sort_indices(table, options=pc.SortOptions(
                sort_keys=[("a", "descending", "at_start"), ("b", "ascending")])).to_pylist()
    assert indices(qc.sort_indices(arr, options=pc.SortOptions())) == [2, 3, 0, 1]
    with pytest.raises(TypeError, match="both an 'options' argument"):
        qc.sort_indices(arr, [("x", "ascending")], options=pc.SortOptions())


def test_errors():
    table = pa.table({"a": [1, 2], "b": ["x", "y"]})
    with pytest.raises(quiver.InvalidError, match="Must specify one or more sort keys"):
        qc.sort_indices(table)
    with pytest.raises(quiver.InvalidError, match="no column named 'c'"):
        qc.sort_indices(table, sort_keys=[("c", "ascending")])
    with pytest.raises(quiver.InvalidError, match="index 5 out of range"):
        qc.sort_indices(table, sort_keys=[(5, "ascending")])
    with pytest.raises(ValueError, match='"up" is not a valid sort order'):
        qc.sort_indices(table, sort_keys=[("a", "up")])
    with pytest.raises(ValueError, match='"middle" is not a valid null placement'):
        qc.sort_indices(table, sort_keys=[("a", "ascending")], null_placement="middle")
    with pytest.raises(quiver.NotImplementedError, match="sort_indices.*list"):
        qc.sort_indices(pa.array([[1], [2]]))
    with pytest.raises(quiver.NotImplementedError, match="memory_pool"):
        qc.sort_indices(pa.array([1]), memory_pool=pa.default_memory_pool())
    with pytest.raises(TypeError):
        qc.sort_indices(table, sort_keys=["a"])
