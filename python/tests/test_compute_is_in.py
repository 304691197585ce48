"""quiver.compute.is_in judged by pyarrow.compute.is_in: every type of the list
(the matrix is generated from it, so a listed type that Quiver refuses fails),
random arrays of lengths 0, 1, 63, 64, 65 and 5000 sliced at odd offsets with
0/10/50/100% nulls, value sets with and without nulls under both skip_nulls,
small sets (direct compares) and large ones (hash tables), dictionaries,
chunked arrays and scalars; the casts pyarrow applies when the value set's
type differs (and their exceptions: same class, same message). The view
layouts, which pyarrow 26 has no kernel for, are judged by pyarrow on the
values cast to string / binary."""

import decimal
import math

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import quiver
import quiver.compute as qc
from arrow_samples import random_array
from test_compute_agg import slices
from test_compute_string import check_result

TYPES = [pa.bool_(), pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(),
         pa.uint32(), pa.uint64(), pa.float32(), pa.float64(), pa.date32(), pa.date64(),
         pa.time32("s"), pa.time32("ms"), pa.time64("us"), pa.time64("ns"), pa.timestamp("s"),
         pa.timestamp("ms", tz="UTC"), pa.timestamp("ns"), pa.duration("s"), pa.duration("us"),
         pa.decimal128(10, 3), pa.decimal128(38, 5), pa.decimal256(40, 2), pa.string(),
         pa.large_string(), pa.binary(), pa.large_binary(), pa.binary(3), pa.binary(16),
         pa.null(), pa.dictionary(pa.int8(), pa.string()), pa.dictionary(pa.int32(), pa.int64())]
# Beyond pyarrow 26 (no kernel there): judged on the values cast to these.
VIEWS = {pa.string_view(): pa.string(), pa.binary_view(): pa.binary()}
LENGTHS = [0, 1, 63, 64, 65, 5000]
NULL_PROBS = [0.0, 0.1, 0.5, 1.0]
ERRORS = {pa.ArrowNotImplementedError: quiver.NotImplementedError,
          pa.ArrowInvalid: quiver.InvalidError, pa.ArrowTypeError: quiver.TypeError}


def check(values, value_set, judge_values=None, judge_set=None, **options):
    """quiver's is_in against pyarrow's (on judge_values / judge_set when given:
    the same values in a type pyarrow has a kernel for)."""
    pv = values if judge_values is None else judge_values
    ps = value_set if judge_set is None else judge_set
    try:
        expected = pc.is_in(pv, value_set=ps, **options)
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid, pa.ArrowTypeError) as e:
        with pytest.raises(ERRORS[type(e)]) as info:
            qc.is_in(values, value_set=value_set, **options)
        assert str(info.value) == str(e).split("\n")[0]
        return
    check_result(qc.is_in(values, value_set=value_set, **options), expected)


def value_set_of(arr, rng, size, with_null):
    """A value set of arr's value type: some of arr's values, some new ones, maybe a
    null, shuffled (built with take / concat: no Python round trip of the values)."""
    dictionary = pa.types.is_dictionary(arr.type)
    t = arr.type.value_type if dictionary else arr.type
    plain = arr.dictionary_decode() if dictionary else arr
    valid = [i for i, ok in enumerate(pc.is_valid(plain).to_pylist()) if ok]
    idx = [rng.choice(valid) for _ in range(size // 2)] if valid else []
    parts = [plain.take(pa.array(idx, pa.int64())), random_array(t, size - len(idx), rng, 0.0)]
    if with_null:
        parts.append(pa.nulls(1, t))
    values = pa.concat_arrays(parts)
    order = list(range(len(values)))
    rng.shuffle(order)
    return values.take(pa.array(order, pa.int64()))


@pytest.mark.parametrize("t", TYPES + list(VIEWS), ids=str)
def test_matrix(t, rng):
    judge_type = VIEWS.get(t)
    for n in LENGTHS:
        for p in NULL_PROBS:
            base = random_array(judge_type or t, n, rng, p, distinct=rng.choice([3, 30]))
            arr = base.cast(t) if judge_type else base
            for set_size in (1, 5, 40):
                for with_null in (False, True):
                    vs = value_set_of(base, rng, set_size, with_null)
                    for a, b in zip(slices(arr), slices(base)):
                        for skip in (False, True):
                            check(a, vs, judge_values=b if judge_type else None, skip_nulls=skip)


def test_float_bits_and_specials():
    values = pa.array([0.0, -0.0, math.nan, math.inf, -math.inf, 1.5, None, 3.4e38], pa.float64())
    for vs in ([0.0], [-0.0], [math.nan], [math.inf, None], [1.5, 3.4e38]):
        for t in (pa.float32(), pa.float64()):
            check(values.cast(t), pa.array(vs, t))
            check(values.cast(t), pa.array(vs, pa.float64()))
    # A float64 set cast to float32 without a check (0.1 matches 0.1f).
    check(pa.array([1.0, 0.1], pa.float32()), pa.array([1.0, 0.1, 1e300]))


def test_cross_type_casts():
    i8 = pa.array([1, 2, None, 3, -128], pa.int8())
    cases = [
        (i8, pa.array([1, None])), (i8, pa.array([1, 300])), (i8, pa.array([1.0, 2.0])),
        (i8, pa.array([1.5])), (i8, pa.array([1000.0])), (i8, pa.array([math.nan])),
        (i8, pa.array([-128], pa.int16())), (i8, pa.array(["1", "-128"])), (i8, pa.array(["x"])),
        (i8, pa.array([True])), (i8, pa.array([1], pa.uint64())), (i8, pa.array([None, None])),
        (pa.array([1.0, 2.5]), pa.array([1, 2**60])), (pa.array([1.0, 2.0]), pa.array([1, 2**60])),
        (pa.array([1.0, math.nan]), pa.array([1, 2**60])),
        (pa.array([1.0, 1e19]), pa.array([1, 2**60])), (pa.array([-0.5]), pa.array([1, 2**60])),
        (pa.array([1.0, 2.5], pa.float32()), pa.array([1, 2**30 + 1])),
        (pa.array([1.5], pa.float32()), pa.array([16777217], pa.int32())),
        (pa.array([2**25 + 1], pa.int32()), pa.array([1.5], pa.float32())),
        (pa.array([1], pa.uint64()), pa.array([-1, 1])),
        (pa.array([2**63], pa.uint64()), pa.array([-1])),
        (pa.array([1], pa.int64()), pa.array([2**63], pa.uint64())),
        (pa.array([1.5, 2.0]), pa.array(["1.5", "inf", "+2"])),
        (pa.array([True, False]), pa.array([0, 5])), (pa.array([True, False]), pa.array([0.5])),
        (pa.array([True, False]), pa.array(["true"])), (pa.array([True, False]), pa.array(["yes"])),
        (pa.array(["1"]), pa.array([1])), (pa.array(["1"], pa.large_string()), pa.array([1])),
        (pa.array(["a", "b"]), pa.array([b"a", b"\xff"])), (pa.array(["a"]), pa.array([b"a"])),
        (pa.array([b"a"]), pa.array(["a"])), (pa.array(["a"]), pa.array(["a"], pa.large_string())),
        (pa.array(["a"]), pa.array(["a"], pa.string_view())), (pa.array(["a", None]), pa.array([None])),
        (pa.array([b"1", b"x"]), pa.array([1])), (pa.array([b"1", b"2"]), pa.array([1])),
        (pa.array([b"a"], pa.large_binary()), pa.array([b"a"], pa.binary_view())),
        (pa.array([b"ab", b"cd"], pa.binary(2)), pa.array([b"ab"])),
        (pa.array([b"ab", b"cd"], pa.binary(2)), pa.array([b"abc"])),
        (pa.array([b"ab", b"cd"], pa.binary(2)), pa.array([b"abc"], pa.binary(3))),
        (pa.array([b"abc", b"ab"]), pa.array([b"ab", b"cd"], pa.binary(2))),
        (pa.array([None, None]), pa.array([1])), (pa.array([None, None]), pa.array([None, 1])),
        (pa.array([None, None]), pa.array([], pa.int64())), (pa.array([None]), pa.array(["a", None])),
        (pa.array([1, 2]), pa.array(["a"]).dictionary_encode()),
        (pa.array([1, 2]), pa.array([1, 1]).dictionary_encode()),
        (pa.array(["a", "b"]), pa.array(["a"]).dictionary_encode()),
        (pa.array([1, 2], pa.int8()).dictionary_encode(), pa.array([1, 300])),
        (pa.array([1, 2], pa.int8()).dictionary_encode(), pa.array([1.5, 2.0])),
    ]
    d = decimal.Decimal
    dec = pa.array([d("1.5"), d("2.0"), d("-1.5"), None])
    cases += [
        (dec, pa.array([d("1.50")])), (dec, pa.array([d("1.55")])), (dec, pa.array([2])),
        (dec, pa.array([2], pa.int8())), (pa.array([d("2.0")], pa.decimal128(20, 1)), pa.array([2])),
        (pa.array([2]), pa.array([d("2.0")])), (pa.array([2]), pa.array([d("2.5")])),
        (pa.array([d("1.5")], pa.decimal128(3, 1)), pa.array([d("1234.5")])),
        (pa.array([d("1.55")], pa.decimal128(3, 2)), pa.array([d("1.5"), d("99.9")], pa.decimal128(3, 1))),
        (pa.array([d("1234.5")], pa.decimal128(5, 1)), pa.array([d("1.55"), d("1.5")], pa.decimal128(3, 2))),
        (pa.array([d("1.5")], pa.decimal256(40, 1)), pa.array([d("1.5")])),
        (dec, pa.array([d("1.5")], pa.decimal32(5, 1))), (dec, pa.array([d("1.50")], pa.decimal64(12, 2))),
        (pa.array([d("1.5")], pa.decimal256(60, 20)), pa.array([d("1.5")], pa.decimal256(70, 30))),
        (pa.array([d("1000")], pa.decimal128(4, 0)), pa.array([1000, 2**40])),
    ]
    ts = pa.array([1, 1500, None], pa.timestamp("ms"))
    cases += [
        (ts, pa.array([1500], pa.timestamp("ms"))), (ts, pa.array([1500000000, 1500000001], pa.timestamp("ns"))),
        (ts, pa.array([1], pa.timestamp("s"))), (ts, pa.array([1], pa.timestamp("ms", "UTC"))),
        (pa.array([1], pa.timestamp("ms", "UTC")), pa.array([1], pa.timestamp("ms", "Europe/Paris"))),
        (ts, pa.array([1500])), (pa.array([1500]), ts),
        (pa.array([1000, 1500, 1], pa.timestamp("ms")), pa.array([1, 2**62], pa.timestamp("s"))),
        (pa.array([2**62], pa.timestamp("s")), pa.array([1001], pa.timestamp("ns"))),
        (pa.array([1], pa.date32()), pa.array([86400000, 86400001], pa.date64())),
        (pa.array([86400000], pa.date64()), pa.array([1], pa.date32())),
        (pa.array([86400000, -1], pa.timestamp("ms")), pa.array([1, -1], pa.date32())),
        (pa.array([1, -1], pa.date32()), pa.array([86400001, -1], pa.timestamp("ms"))),
        (pa.array([1], pa.time32("s")), pa.array([1000, 1001], pa.time32("ms"))),
        (pa.array([1000000], pa.time64("us")), pa.array([1], pa.time32("s"))),
        (pa.array([1], pa.time32("s")), pa.array([1000001, 1], pa.time64("us"))),
        (pa.array([1], pa.duration("s")), pa.array([1000], pa.duration("ms"))),
        (pa.array([1], pa.duration("s")), pa.array([1001], pa.duration("ms"))),
        (pa.array([1], pa.duration("s")), pa.array([1])), (pa.array([1], pa.time32("s")), pa.array([1], pa.duration("s"))),
        (pa.array([1], pa.int32()), pa.array([1], pa.date32())), (pa.array([1], pa.int64()), pa.array([1], pa.date32())),
        (pa.array([1], pa.date32()), pa.array([1, 2**40])), (pa.array([1], pa.int8()), pa.array([1], pa.timestamp("s"))),
    ]
    for values, value_set in cases:
        check(values, value_set)
        check(values, value_set, skip_nulls=True)


def test_month_day_nano_and_refused_types():
    mdn = pa.array([pa.MonthDayNano([1, 2, 3]), None, pa.MonthDayNano([1, 2, 4])])
    check(mdn, pa.array([pa.MonthDayNano([1, 2, 3]), None]))
    check(mdn, pa.array([1]))
    for t in (pa.float16(), pa.decimal32(5, 1), pa.decimal64(10, 2), pa.list_(pa.int64()),
              pa.struct([("a", pa.int64())])):
        with pytest.raises(quiver.NotImplementedError) as info:
            qc.is_in(pa.array([None], t), value_set=pa.array([None], t))
        assert str(info.value) == f"Function 'is_in' has no kernel matching input types ({t})"


def test_dictionaries_with_null_values():
    d = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 2, 0]), pa.array(["a", None, "c"]))
    for vs in (pa.array(["a", None]), pa.array(["a"]), pa.array(["c", "x"]), pa.array([], pa.string())):
        for skip in (False, True):
            check(d, vs, skip_nulls=skip)
            check(d.slice(1), vs, skip_nulls=skip)


def test_chunked_scalars_and_arguments():
    chunked = pa.chunked_array([[1, 2, None], [], [3, 1]])
    check(chunked, pa.array([1, None]))
    check(pa.chunked_array([], pa.int64()), pa.array([1]))
    check(pa.array([1, 2, 3]), pa.chunked_array([[1], [3]]))
    got = qc.is_in(pa.array([1, 2, 3]), value_set=qc.is_in(pa.chunked_array([[1], [3]]), value_set=pa.array([1])))
    assert pa.array(got).to_pylist() == [True, False, False]  # the bool set [true, false] cast to 1, 0
    for s in (pa.scalar(1), pa.scalar(None, pa.int64()), pa.scalar("a"), pa.scalar(1.5)):
        check(s, pa.array([1, None]) if s.type != pa.string() else pa.array(["a"]))
    assert qc.is_in(1, value_set=pa.array([1])).as_py() is True
    assert pa.array(qc.is_in([1, 5], value_set=pa.array([1]))).to_pylist() == [True, False]
    # A quiver array as values and as value set.
    q = quiver.compute.filter(pa.array([1, 2, 3]), pa.array([True, True, True]))
    assert pa.array(qc.is_in(q, value_set=q)).to_pylist() == [True, True, True]
    with pytest.raises(TypeError, match="is not a valid value set"):
        qc.is_in(pa.array([1]), value_set=[1, 2])
    with pytest.raises(quiver.InvalidError, match="Set lookup value set must be Array or ChunkedArray"):
        qc.is_in(pa.array([1]), value_set=pa.scalar(1))
    with pytest.raises(quiver.InvalidError, match="cannot be called without options"):
        qc.is_in(pa.array([1]))
    opts = qc.SetLookupOptions(pa.array([1, None]), skip_nulls=True)
    assert pa.array(qc.is_in(pa.array([1, None]), options=opts)).to_pylist() == [True, False]
    with pytest.raises(TypeError, match="both an 'options' argument and additional arguments"):
        qc.is_in(pa.array([1]), value_set=pa.array([1]), options=opts)
    assert pa.array(qc.is_in(pa.array([None]), value_set=pa.array([None, 1]), skip_nulls=None)).to_pylist() == [True]
