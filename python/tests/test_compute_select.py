"""quiver.compute.filter / take and quiver.concat_arrays, judged by
pyarrow.compute.filter / take and pa.concat_arrays: for every type of the
generated list, random arrays of lengths 0, 1, 63, 64, 65 and 5000, sliced
at odd offsets, with 0, 10, 50 and 100% nulls; masks all false, all true,
1%, 50% and 99% selected, without and with nulls under both null selection
behaviours; indices of several integer types, repeated, with nulls (over an
out-of-range value), out of range. Equal values and types, the same
exception class, and every result passes validate(). Where pyarrow has no
kernel (filter and take of the view types) the reference is built from
to_pylist. Seeded (QUIVER_TEST_SEED reproduces a failing run)."""

import decimal
import os

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import quiver
import quiver.compute as qc

LENGTHS = [0, 1, 63, 64, 65, 5000]
NULL_FRACTIONS = [0.0, 0.1, 0.5, 1.0]
MASK_SHAPES = [0.0, 1.0, 0.01, 0.5, 0.99]

SMALL_DICT = pa.array(["red", "green", "blue", "a much longer colour name", "", "x"])

# The generated list: every type filter/take/concat_arrays must handle.
TYPES = {
    "null": pa.null(),
    "bool": pa.bool_(),
    "int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "int64": pa.int64(),
    "uint8": pa.uint8(), "uint16": pa.uint16(), "uint32": pa.uint32(), "uint64": pa.uint64(),
    "float16": pa.float16(), "float32": pa.float32(), "float64": pa.float64(),
    "decimal32": pa.decimal32(7, 2), "decimal64": pa.decimal64(15, 3),
    "decimal128": pa.decimal128(38, 10), "decimal256": pa.decimal256(76, 20),
    "date32": pa.date32(), "date64": pa.date64(),
    "timestamp_s": pa.timestamp("s"), "timestamp_us_tz": pa.timestamp("us", tz="UTC"),
    "timestamp_ns": pa.timestamp("ns"),
    "time32_ms": pa.time32("ms"), "time64_ns": pa.time64("ns"),
    "duration_us": pa.duration("us"),
    "month_day_nano": pa.month_day_nano_interval(),
    "fsb5": pa.binary(5),
    "string": pa.string(), "large_string": pa.large_string(),
    "binary": pa.binary(), "large_binary": pa.large_binary(),
    "string_view": pa.string_view(), "binary_view": pa.binary_view(),
    "list_int32": pa.list_(pa.int32()),
    "large_list_string": pa.large_list(pa.string()),
    "fixed_size_list_int16": pa.list_(pa.int16(), 3),
    "struct": pa.struct([("a", pa.int32()), ("b", pa.string()), ("c", pa.list_(pa.bool_()))]),
    "map": pa.map_(pa.string(), pa.int64()),
    "dictionary_string": pa.dictionary(pa.int32(), pa.string()),
    "dictionary_int8_int64": pa.dictionary(pa.int8(), pa.int64()),
    "list_dictionary": pa.list_(pa.dictionary(pa.int16(), pa.string())),
    "list_struct": pa.list_(pa.struct([("x", pa.float64()), ("y", pa.large_binary())])),
    "struct_fsl": pa.struct([("v", pa.list_(pa.float32(), 2)), ("s", pa.string_view())]),
    "list_string_view": pa.list_(pa.string_view()),
    "fixed_size_list_list": pa.list_(pa.list_(pa.int8()), 2),
}


def _mask(rng, n, fraction):
    if fraction <= 0:
        return None
    return rng.random(n) < fraction


def _mask_array(mask):
    return None if mask is None else pa.array(mask)


def gen(t, n, null_fraction, rng):
    """A random array of type t and length n with about null_fraction nulls."""
    mask = _mask(rng, n, null_fraction)
    if pa.types.is_null(t):
        return pa.nulls(n)
    if pa.types.is_boolean(t):
        return pa.array(rng.random(n) < 0.5, mask=mask)
    if pa.types.is_integer(t):
        info = np.iinfo(t.to_pandas_dtype())
        values = rng.integers(info.min, info.max, n, endpoint=True, dtype=t.to_pandas_dtype())
        return pa.array(values, type=t, mask=mask)
    if pa.types.is_floating(t):
        values = rng.standard_normal(n) * 1e3
        special = rng.random(n)
        values[special < 0.02] = np.nan
        values[(special >= 0.02) & (special < 0.03)] = np.inf
        values[(special >= 0.03) & (special < 0.04)] = -0.0
        return pa.array(values.astype(t.to_pandas_dtype()), type=t, mask=mask)
    if pa.types.is_decimal(t):
        digits = min(t.precision, 18)
        ints = rng.integers(-(10 ** digits) + 1, 10 ** digits, n, dtype=np.int64)
        values = [decimal.Decimal(int(v)).scaleb(-t.scale) for v in ints]
        return pa.array(values, type=t, mask=mask)
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        limit = 86_400_000 if pa.types.is_time32(t) else 100_000
        return pa.array(rng.integers(0, limit, n, dtype=np.int32), mask=mask).cast(t)
    if pa.types.is_date64(t):
        days = rng.integers(-10_000, 100_000, n, dtype=np.int64)
        return pa.array(days * 86_400_000, mask=mask).cast(t)
    if pa.types.is_time64(t):
        return pa.array(rng.integers(0, 86_400 * 10**9, n, dtype=np.int64), mask=mask).cast(t)
    if pa.types.is_timestamp(t) or pa.types.is_duration(t):
        return pa.array(rng.integers(-2**60, 2**60, n, dtype=np.int64), mask=mask).cast(t)
    if t == pa.month_day_nano_interval():
        values = [(int(a), int(b), int(c)) for a, b, c in
                  zip(rng.integers(-100, 100, n), rng.integers(-100, 100, n),
                      rng.integers(-2**40, 2**40, n))]
        return pa.array(values, type=t, mask=mask)
    if pa.types.is_fixed_size_binary(t):
        return pa.array([rng.bytes(t.byte_width) for _ in range(n)], type=t, mask=mask)
    if (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)):
        lengths = rng.integers(0, 24, n)
        values = ["".join(chr(97 + int(c)) for c in rng.integers(0, 26, k)) + ("é" if k % 5 == 1 else "")
                  for k in lengths]
        return pa.array(values, type=t, mask=mask)
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)):
        return pa.array([rng.bytes(int(k)) for k in rng.integers(0, 24, n)], type=t, mask=mask)
    if pa.types.is_dictionary(t):
        if pa.types.is_string(t.value_type):
            dictionary = SMALL_DICT
        else:
            dictionary = pa.array(np.arange(40, dtype=np.int64) * 7 - 100, type=t.value_type)
        indices = rng.integers(0, len(dictionary), n)
        return pa.DictionaryArray.from_arrays(pa.array(indices, type=t.index_type, mask=mask),
                                              dictionary)
    if pa.types.is_fixed_size_list(t):
        child = gen(t.value_type, n * t.list_size, 0.1, rng)
        return pa.FixedSizeListArray.from_arrays(child, t.list_size, mask=_mask_array(mask))
    if pa.types.is_map(t):
        lengths = rng.integers(0, 4, n)
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
        keys = gen(t.key_type, int(offsets[-1]), 0.0, rng)
        items = gen(t.item_type, int(offsets[-1]), 0.2, rng)
        return pa.MapArray.from_arrays(pa.array(offsets), keys, items,
                                       mask=_mask_array(mask))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        lengths = rng.integers(0, 4, n)
        dtype = np.int64 if pa.types.is_large_list(t) else np.int32
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(dtype)
        child = gen(t.value_type, int(offsets[-1]), 0.1, rng)
        cls = pa.LargeListArray if pa.types.is_large_list(t) else pa.ListArray
        return cls.from_arrays(pa.array(offsets), child, type=t, mask=_mask_array(mask))
    if pa.types.is_struct(t):
        children = [gen(f.type, n, 0.1, rng) for f in t]
        return pa.StructArray.from_arrays(children, fields=list(t), mask=_mask_array(mask))
    raise AssertionError(f"no generator for {t}")


def sliced(t, n, null_fraction, rng):
    """An array of length n that is a slice at offset 3 of a longer one."""
    return gen(t, n + 7, null_fraction, rng).slice(3, n)


def to_pa(q):
    q.validate()
    return pa.array(q)


EXCEPTIONS = {
    pa.ArrowInvalid: quiver.InvalidError,
    pa.ArrowIndexError: quiver.IndexError,
    pa.ArrowNotImplementedError: quiver.NotImplementedError,
    pa.ArrowCapacityError: quiver.CapacityError,
    pa.ArrowTypeError: quiver.TypeError,
}


def same_outcome(ours, theirs, reference=None):
    """Runs both; equal arrays (type and values), or the same exception
    class. `reference` builds the expected array when pyarrow has no kernel
    for the type (ArrowNotImplementedError)."""
    try:
        try:
            expected = theirs()
        except pa.ArrowNotImplementedError:
            if reference is None:
                raise
            expected = reference()
    except pa.ArrowException as e:
        cls = next(q for p, q in EXCEPTIONS.items() if isinstance(e, p))
        with pytest.raises(cls):
            ours()
        return
    got = to_pa(ours())
    assert got.type == expected.type, (got.type, expected.type)
    # Array.equals has NaN != NaN: then the values, NaN equal to NaN.
    if not got.equals(expected):
        assert _same(got.to_pylist(), expected.to_pylist()), (got.to_pylist()[:20],
                                                               expected.to_pylist()[:20])


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def filter_reference(values, mask, behaviour):
    out = []
    for v, m in zip(values.to_pylist(), mask.to_pylist()):
        if m is None:
            if behaviour == "emit_null":
                out.append(None)
        elif m:
            out.append(v)
    return pa.array(out, type=values.type)


def take_reference(values, indices):
    vals = values.to_pylist()
    for i in indices.to_pylist():
        if i is not None and not 0 <= i < len(vals):
            raise pa.ArrowIndexError(f"Index {i} out of bounds")
    return pa.array([None if i is None else vals[i] for i in indices.to_pylist()], type=values.type)


def masks(n, rng):
    """(mask, behaviour) pairs: each shape without nulls, then with 10% nulls
    under both behaviours; each mask a slice at offset 5."""
    for p in MASK_SHAPES:
        values = rng.random(n + 9) < p if 0 < p < 1 else np.full(n + 9, p == 1.0)
        plain = pa.array(values).slice(5, n)
        yield plain, "drop"
        with_nulls = pa.array(values, mask=rng.random(n + 9) < 0.1).slice(5, n)
        yield with_nulls, "drop"
        yield with_nulls, "emit_null"


def index_arrays(n, rng):
    """Indices into n rows: int64 repeated, with nulls over out-of-range
    values, other integer types, out of range (an error)."""
    if n == 0:
        yield pa.array([], pa.int64())
        yield pa.array([None, None], pa.int32())
        yield pa.array([0], pa.int64())  # out of range
        return
    m = max(1, n // 2)
    repeated = rng.integers(0, n, m + 3)
    yield pa.array(repeated)
    nulls = rng.random(m) < 0.1
    over = rng.integers(0, n, m)
    over[nulls] = n + 17
    yield pa.array(over, mask=nulls)
    narrow = pa.int8() if n <= 127 else pa.int16()
    yield pa.array(rng.integers(0, n, m), type=narrow)
    yield pa.array(rng.integers(0, n, m), type=pa.uint32())
    yield pa.array(rng.integers(0, n, m).astype(np.uint64), type=pa.uint64())
    yield pa.array([0, n])  # out of range
    yield pa.array([-1], pa.int32())  # negative


@pytest.fixture
def nrng(rng):
    return np.random.default_rng(rng.seed_value)


def arrays_of(name, nrng):
    """(length, array) for every length and null fraction of the matrix."""
    for n in LENGTHS:
        for null_fraction in NULL_FRACTIONS:
            yield n, sliced(TYPES[name], n, null_fraction, nrng)


@pytest.mark.parametrize("name", list(TYPES))
def test_filter_every_type(name, nrng):
    for n, values in arrays_of(name, nrng):
        for mask, behaviour in masks(n, nrng):
            same_outcome(lambda: qc.filter(values, mask, null_selection_behavior=behaviour),
                         lambda: pc.filter(values, mask, null_selection_behavior=behaviour),
                         lambda: filter_reference(values, mask, behaviour))


@pytest.mark.parametrize("name", list(TYPES))
def test_take_every_type(name, nrng):
    for n, values in arrays_of(name, nrng):
        for indices in index_arrays(n, nrng):
            same_outcome(lambda: qc.take(values, indices),
                         lambda: pc.take(values, indices),
                         lambda: take_reference(values, indices))


@pytest.mark.parametrize("name", list(TYPES))
def test_concat_arrays_every_type(name, nrng):
    t = TYPES[name]
    for null_fraction in NULL_FRACTIONS:
        pieces = [sliced(t, n, null_fraction, nrng) for n in (0, 1, 63, 65, 300)]
        same_outcome(lambda: quiver.concat_arrays(pieces), lambda: pa.concat_arrays(pieces))
        one = [pieces[3]]
        same_outcome(lambda: quiver.concat_arrays(one), lambda: pa.concat_arrays(one))


def test_filter_and_take_keep_the_kind_of_input(nrng):
    n = 300
    table = pa.table({name: sliced(TYPES[name], n, 0.1, nrng)
                      for name in ("int64", "string", "struct", "dictionary_string", "list_int32")})
    # Several chunks per column, and the mask as a ChunkedArray.
    chunked = pa.Table.from_batches(table.to_batches(max_chunksize=70))
    mask_values = nrng.random(n) < 0.4
    mask = pa.chunked_array([mask_values[:100], mask_values[100:]])
    got = qc.filter(chunked, mask)
    assert isinstance(got, quiver.Table)
    assert pa.table(got).equals(pc.filter(chunked, mask))
    # Filtered batch by batch: the chunks stay (no column concatenated).
    assert pa.table(got).column("int64").num_chunks == chunked.column("int64").num_chunks
    got = qc.filter(quiver.table(table), pa.array(mask_values), null_selection_behavior="emit_null")
    assert pa.table(got).equals(table.filter(pa.array(mask_values)))
    batch = table.to_batches()[0]
    got_batch = qc.filter(batch, pa.array(mask_values))
    assert isinstance(got_batch, quiver.RecordBatch)
    got_batch.validate()
    assert pa.record_batch(got_batch).equals(batch.filter(pa.array(mask_values)))
    indices = pa.array(nrng.integers(0, n, 500))
    assert pa.table(qc.take(chunked, indices)).equals(pc.take(chunked, indices))
    got_batch = qc.take(batch, indices)
    assert isinstance(got_batch, quiver.RecordBatch)
    assert pa.record_batch(got_batch).equals(batch.take(indices))
    with pytest.raises(quiver.IndexError, match="Index 300 out of bounds"):
        qc.take(chunked, pa.array([0, 300]))
    with pytest.raises(quiver.InvalidError):
        qc.filter(batch, pa.array([True]))
    # Chunked values and Python lists, as pyarrow.compute takes them.
    chunked_column = chunked.column("int64")
    assert to_pa(qc.filter(chunked_column, mask)).equals(
        pc.filter(chunked_column, mask).combine_chunks())
    assert to_pa(qc.take(table.column("string").chunk(0), [2, 0, None])).equals(
        pc.take(table.column("string").chunk(0), [2, 0, None]))
    # A quiver array in, a quiver array out.
    q = qc.take(table.column("int64").chunk(0), [1, 2])
    assert isinstance(qc.filter(q, [True, False]), quiver.Array)


def test_errors_as_pyarrow():
    a = pa.array([1, 2, 3])
    same_outcome(lambda: qc.filter(a, pa.array([True])), lambda: pc.filter(a, pa.array([True])))
    same_outcome(lambda: qc.filter(a, pa.array([1, 0, 1])), lambda: pc.filter(a, pa.array([1, 0, 1])))
    with pytest.raises(ValueError):
        qc.filter(a, pa.array([True, False, True]), null_selection_behavior="sometimes")
    for indices in (pa.array([0, 5]), pa.array([-1], pa.int8()), pa.array([2**64 - 1], pa.uint64()),
                    pa.array([0.0]), pa.nulls(2)):
        same_outcome(lambda: qc.take(a, indices), lambda: pc.take(a, indices))
    with pytest.raises(quiver.IndexError, match="Index 5 out of bounds"):
        qc.take(a, pa.array([0, 5]))
    # An index out of range under a null is not looked at.
    same_outcome(lambda: qc.take(a, pa.array([0, 5], mask=np.array([False, True]))),
                 lambda: pc.take(a, pa.array([0, 5], mask=np.array([False, True]))))
    same_outcome(lambda: quiver.concat_arrays([a, pa.array(["x"])]),
                 lambda: pa.concat_arrays([a, pa.array(["x"])]))
    same_outcome(lambda: quiver.concat_arrays([]), lambda: pa.concat_arrays([]))


def test_concat_unifies_differing_dictionaries():
    d1 = pa.array(["a", "b", "a"]).dictionary_encode()
    d2 = pa.array(["c", "a", None]).dictionary_encode()
    same_outcome(lambda: quiver.concat_arrays([d1, d2]), lambda: pa.concat_arrays([d1, d2]))
    got = to_pa(quiver.concat_arrays([d1, d2]))
    assert got.dictionary.to_pylist() == ["a", "b", "c"]
    # Nested, and int8 indices.
    t = pa.list_(pa.dictionary(pa.int8(), pa.string()))
    l1 = pa.array([["a"], None, ["b", "a"]]).cast(t)
    l2 = pa.array([["z"], []]).cast(t)
    same_outcome(lambda: quiver.concat_arrays([l1, l2]), lambda: pa.concat_arrays([l1, l2]))
    # A dictionary holding a null cannot be unified; an index type too narrow.
    with_null = pa.DictionaryArray.from_arrays(pa.array([0, 1], pa.int8()), pa.array([None, "x"]))
    other = pa.DictionaryArray.from_arrays(pa.array([0], pa.int8()), pa.array(["y"]))
    same_outcome(lambda: quiver.concat_arrays([with_null, other]),
                 lambda: pa.concat_arrays([with_null, other]))
    wide = pa.DictionaryArray.from_arrays(pa.array([0], pa.int8()), pa.array([str(i) for i in range(128)]))
    more = pa.DictionaryArray.from_arrays(pa.array([0], pa.int8()), pa.array(["new"]))
    same_outcome(lambda: quiver.concat_arrays([wide, more]), lambda: pa.concat_arrays([wide, more]))


def test_outputs_are_exact_and_null_free_without_validity(nrng):
    values = pa.array(nrng.integers(0, 100, 1000))
    mask = pa.array(nrng.random(1000) < 0.5)
    got = to_pa(qc.filter(values, mask))
    assert got.buffers()[0] is None
    assert got.buffers()[1].size == len(got) * 8
    assert got.buffers()[1].address % 64 == 0
    strings = pa.array(["x" * (i % 7) for i in range(1000)])
    got = to_pa(qc.take(strings, pa.array(nrng.integers(0, 1000, 400))))
    assert got.buffers()[0] is None
    assert got.buffers()[1].size == (len(got) + 1) * 4
    assert got.buffers()[2].size == sum(len(s) for s in got.to_pylist())


@pytest.mark.skipif(os.environ.get("QUIVER_DEEP_TESTS") != "1",
                    reason="allocates over 2 GiB (QUIVER_DEEP_TESTS=1)")
def test_deep_offset_overflow():
    big = pa.array(["q" * (2**30 + 1)])
    # concat_arrays: pyarrow raises ArrowInvalid; so do we.
    same_outcome(lambda: quiver.concat_arrays([big, big]), lambda: pa.concat_arrays([big, big]))
    with pytest.raises((quiver.CapacityError, quiver.InvalidError)):
        qc.take(big, pa.array([0, 0]))
    large = big.cast(pa.large_string())
    assert len(to_pa(qc.take(large, pa.array([0, 0])))) == 2


def test_a_kernels_chunked_result_filters_a_table():
    """The mask a comparison gives for a chunked column (a quiver.ChunkedArray)
    filters the table, as pyarrow's filter with pyarrow's mask (README example)."""
    table = pa.Table.from_batches(
        pa.table({"id": list(range(10)), "name": ["a", None, "c", "a", "b"] * 2}).to_batches(
            max_chunksize=3))
    mask = qc.equal(table["name"], "a")
    assert isinstance(mask, quiver.ChunkedArray) and mask.num_chunks > 1
    got = qc.filter(table, mask)
    assert pa.table(got).equals(table.filter(pc.equal(table["name"], "a")))
    one = qc.equal(pa.chunked_array([table["name"].combine_chunks()]), "a")
    assert pa.table(qc.filter(table, one)).equals(table.filter(pc.equal(table["name"], "a")))
