"""quiver.compute's aggregates (sum, mean, min, max, min_max, count) judged by
pyarrow.compute: a generated matrix over every type pyarrow aggregates (and the
ones it refuses), lengths 0, 1, 63, 64, 65 and 5000, odd-offset slices, 0/10/50/100%
nulls, NaN, -0.0/+0.0, +-inf, the type's extremes, overflow, chunked inputs and the
options (skip_nulls, min_count, count's mode). Equal means: the same result type
string, the same validity, and the same value (floats: NaN for NaN, sums to a
relative 1e-12; a zero min/max compares as a number, see aggregate.h)."""

import decimal
import math
import random
import zlib

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import quiver
import quiver.compute as qc
from arrow_samples import random_array

# Types pyarrow 26 aggregates (sum/mean on the numeric ones, min/max on all).
NUMERIC = [pa.bool_(), pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(),
           pa.uint32(), pa.uint64(), pa.float32(), pa.float64(), pa.decimal128(10, 3),
           pa.decimal256(40, 2), pa.null()]
ORDERED = [pa.string(), pa.large_string(), pa.binary(), pa.large_binary(), pa.binary(3),
           pa.date32(), pa.date64(), pa.time32("s"), pa.time32("ms"), pa.time64("us"),
           pa.time64("ns"), pa.timestamp("s"), pa.timestamp("ms", tz="UTC"), pa.timestamp("ns")]
# Types pyarrow refuses for some aggregates (count takes every type).
REFUSED = [pa.float16(), pa.string_view(), pa.binary_view(), pa.duration("s"),
           pa.decimal32(7, 2), pa.decimal64(15, 2), pa.dictionary(pa.int8(), pa.string()),
           pa.list_(pa.int32())]
LENGTHS = [0, 1, 63, 64, 65, 5000]
NULL_PROBS = [0.0, 0.1, 0.5, 1.0]
FUNCTIONS = ["sum", "mean", "min", "max", "min_max"]


def with_specials(arr, rng):
    """Floats: some slots replaced by NaN, +-0.0, +-inf and the type's extremes."""
    if arr.type not in (pa.float32(), pa.float64()) or len(arr) == 0:
        return arr
    big = 3.4028234663852886e38 if arr.type == pa.float32() else 1.7976931348623157e308
    specials = [math.nan, 0.0, -0.0, math.inf, -math.inf, big, -big]
    values = arr.to_pylist()
    for _ in range(max(1, len(values) // 20)):
        i = rng.randrange(len(values))
        if values[i] is not None:
            values[i] = rng.choice(specials)
    return pa.array(values, arr.type)


def slices(arr):
    """The array, and an odd-offset slice of it."""
    out = [arr]
    if len(arr) >= 3:
        out.append(arr.slice(3, len(arr) - 4))
    elif len(arr) >= 1:
        out.append(arr.slice(1))
    return out


def raw_value(q, p):
    """The Python values to compare of a quiver and a pyarrow scalar of one type:
    temporal values as their integers (as_py would lose nanoseconds)."""
    t = p.type
    if pa.types.is_temporal(t):
        width = pa.int32() if t.bit_width == 32 else pa.int64()
        return q._s.raw, p.cast(width).as_py()
    return q.as_py(), p.as_py()


def same_value(qv, pv, rel):
    if isinstance(pv, float) and isinstance(qv, float):
        if math.isnan(pv):
            return math.isnan(qv)
        if math.isinf(pv) or pv == 0.0:
            return qv == pv
        return qv == pv or abs(qv - pv) <= rel * abs(pv)
    return qv == pv and type(qv) is type(pv)


def check_scalar(q, p, rel=0.0):
    assert isinstance(q, quiver.Scalar)
    assert str(q.type) == str(p.type), (q.type, p.type)
    assert q.is_valid == p.is_valid, (q, p)
    if not p.is_valid:
        assert q.as_py() is None
        return
    if pa.types.is_struct(p.type):
        items = q._s.raw  # [(field name, child), ...]
        assert [name for name, _ in items] == [f.name for f in p.type]
        for (_, child), f in zip(items, p.type):
            check_scalar(quiver.Scalar(child), p[f.name], rel)
        return
    qv, pv = raw_value(q, p)
    assert same_value(qv, pv, rel), (qv, pv)


def compare(function, data, rel=1e-12, **options):
    """quiver.compute.<function>(data, **options) against pyarrow's: equal results or
    the same exception class."""
    try:
        expected = getattr(pc, function)(data, **options)
    except pa.ArrowNotImplementedError:
        with pytest.raises(quiver.NotImplementedError, match="has no kernel matching input types"):
            getattr(qc, function)(data, **options)
        return
    got = getattr(qc, function)(data, **options)
    check_scalar(got, expected, rel)


OPTIONS = [{}, {"skip_nulls": False}, {"min_count": 0}, {"min_count": 3},
           {"skip_nulls": False, "min_count": 0}]


def matrix(t):
    """(length, array) for every length and null fraction, whole and sliced at an odd
    offset, with float specials; seeded by the type."""
    rng = random.Random(zlib.crc32(str(t).encode()))
    for n in LENGTHS:
        for null_prob in NULL_PROBS:
            for a in slices(with_specials(random_array(t, n, rng, null_prob=null_prob), rng)):
                yield n, a


@pytest.mark.parametrize("t", NUMERIC + ORDERED, ids=str)
def test_matrix(t):
    for n, a in matrix(t):
        for function in FUNCTIONS:
            for options in (OPTIONS if n in (0, 65) else OPTIONS[:2]):
                compare(function, a, **options)
        for mode in ["only_valid", "only_null", "all"]:
            compare("count", a, mode=mode)


@pytest.mark.parametrize("t", REFUSED, ids=str)
def test_refused_types(t):
    rng = random.Random(5)
    a = random_array(t, 10, rng, null_prob=0.2)
    for function in FUNCTIONS:
        compare(function, a)
    for mode in ["only_valid", "only_null", "all"]:
        compare("count", a, mode=mode)


@pytest.mark.parametrize("t", [pa.int64(), pa.float32(), pa.float64(), pa.uint8(), pa.bool_(),
                               pa.string(), pa.decimal128(10, 3), pa.timestamp("us"), pa.null()],
                         ids=str)
def test_chunked(t):
    rng = random.Random(11)
    for sizes in [[], [0], [5, 0, 70], [1000, 1, 64, 300], [17] * 9]:
        chunks = [with_specials(random_array(t, k, rng, null_prob=rng.choice(NULL_PROBS)), rng)
                  for k in sizes]
        data = pa.chunked_array(chunks, t)
        for function in FUNCTIONS:
            for options in OPTIONS:
                compare(function, data, **options)
        for mode in ["only_valid", "only_null", "all"]:
            compare("count", data, mode=mode)


def test_integer_overflow_wraps_like_pyarrow():
    big = [2**63 - 1, 1, 2**62, 2**62]
    compare("sum", pa.array(big, pa.int64()))
    compare("sum", pa.array([-(2**63), -1], pa.int64()))
    compare("sum", pa.array([2**64 - 1, 2], pa.uint64()))
    compare("mean", pa.array(big, pa.int64()))
    compare("mean", pa.array([2**64 - 1, 1], pa.uint64()))
    compare("sum", pa.array([127] * 1000, pa.int8()))
    compare("sum", pa.chunked_array([[2**63 - 1], [5]], pa.int64()))


def test_float_sums_on_long_inputs():
    """float64 sums without nulls add in Arrow's order: bit for bit pyarrow's.
    float32 sums add groups of 512 slots in 32 lanes (aggregate_float_sum.cc):
    pyarrow's values grouped differently, so equal to a relative 1e-12."""
    rng = random.Random(3)
    values = [rng.uniform(-1, 1) * 10 ** rng.randint(-5, 12) for _ in range(100_000)]
    for t, rel in [(pa.float64(), 0.0), (pa.float32(), 1e-12)]:
        a = pa.array(values, t)
        compare("sum", a, rel=rel)
        compare("mean", a, rel=rel)
        compare("sum", a.slice(7, 50_001), rel=rel)


@pytest.mark.parametrize("null_prob", [0.0, 0.1])
@pytest.mark.parametrize("t", [pa.float64(), pa.float32()], ids=str)
def test_float_sums_under_cancellation(t, null_prob):
    """Adversarial inputs: large values of both signs cancelling, small ones between.
    Quiver's sum and pyarrow's are each within their pairwise error bound of the
    exact sum (math.fsum): |error| <= (22 + log2(n / 512)) * 2^-53 * sum |x| for
    Quiver, (16 + log2(n / 16)) * 2^-53 * sum |x| for Arrow."""
    rng = random.Random(17)
    for n in [100, 5000, 200_003]:
        vals = []
        for _ in range(n):
            r = rng.random()
            if r < 0.25:
                vals.append(rng.uniform(-1, 1))
            else:
                vals.append(rng.choice([-1, 1]) * rng.uniform(1e6, 1e8) * (1e20 if r > 0.9 else 1))
        valid = [rng.random() >= null_prob for _ in range(n)]
        a = pa.array([v if ok else None for v, ok in zip(vals, valid)], t)
        for x in [a, a.slice(5, n - 9)]:
            xs = [v for v in x.to_pylist() if v is not None]
            exact = math.fsum(xs)
            magnitude = math.fsum(abs(v) for v in xs)
            got = qc.sum(x).as_py()
            want = pc.sum(x).as_py()
            ours = (22 + math.log2(max(1, len(x) / 512))) * 2.0**-53 * magnitude
            arrows = (16 + math.log2(max(1, len(x) / 16))) * 2.0**-53 * magnitude
            assert abs(got - exact) <= ours, (n, got, exact, ours)
            assert abs(got - want) <= ours + arrows, (n, got, want)


def test_float_sums_with_nulls_on_long_inputs():
    """Chunks with nulls take the masked pairwise sum (aggregate.cc): pyarrow's values
    grouped differently, so equal to a relative 1e-12 (the inputs' magnitudes vary
    over 17 orders; sums of mixed signs)."""
    rng = random.Random(5)
    n = 200_003
    values = [rng.uniform(-1, 1) * 10 ** rng.randint(-5, 12) for _ in range(n)]
    for null_prob in [0.01, 0.1, 0.5, 0.9]:
        valid = [rng.random() >= null_prob for _ in range(n)]
        for t in [pa.float64(), pa.float32(), pa.int32()]:
            data = values if t != pa.int32() else [int(v) % 2**31 - 2**30 for v in values]
            a = pa.array([v if ok else None for v, ok in zip(data, valid)], t)
            for x in [a, a.slice(7, 150_001), a.slice(64, 100_000), a.slice(1, 129)]:
                compare("sum", x)
                compare("mean", x)


def test_nan_and_infinities():
    nan, inf = math.nan, math.inf
    for values in [[nan, None], [nan, 1.0, nan], [inf, -inf], [inf, 1.0], [-0.0], [0.0, -0.0],
                   [nan] * 100, [1.0, None, nan]]:
        for t in [pa.float32(), pa.float64()]:
            a = pa.array(values, t)
            for function in FUNCTIONS:
                compare(function, a)
                compare(function, a, skip_nulls=False)


def test_min_max_struct_scalar():
    got = qc.min_max(pa.array([3, 1, None, 7], pa.int16()))
    assert got.as_py() == {"min": 1, "max": 7}
    assert str(got.type) == "struct<min: int16, max: int16>"
    assert str(got) == str(pc.min_max(pa.array([3, 1, None, 7], pa.int16())))
    assert got == qc.min_max(pa.array([7, 1], pa.int16()))
    s = qc.min_max(pa.array(["b", "a'", None]))
    assert s.as_py() == {"min": "a'", "max": "b"}
    assert str(s) == str(pc.min_max(pa.array(["b", "a'", None])))


def test_decimal_results():
    d = decimal.Decimal
    for values in [["1.01", "1.02"], ["-1.01", "-1.00"], ["0.02", "0", "0"], ["-0.02", "0", "0"],
                   ["999.99"] * 3]:
        a = pa.array([d(v) for v in values], pa.decimal128(5, 2))
        for function in FUNCTIONS:
            compare(function, a)
    # pyarrow returns a sum it cannot represent (39 digits in decimal128(38, 0), or a
    # value wrapped at 128 bits); quiver says so.
    a = pa.array([d("9" * 38)] * 2, pa.decimal128(38, 0))
    with pytest.raises(quiver.InvalidError, match="overflows decimal128"):
        qc.sum(a)


def test_options_and_errors():
    a = pa.array([1, None, 3])
    with pytest.raises(ValueError, match="is not a valid count mode"):
        qc.count(a, mode="bogus")
    with pytest.raises(ValueError, match="is not a valid count mode"):
        pc.count(a, mode="bogus")
    with pytest.raises(OverflowError):
        qc.min(a, min_count=-1)
    with pytest.raises(TypeError):
        qc.sum(object())
    assert qc.count(a).as_py() == 2
    assert qc.sum(quiver.array(a)).as_py() == 4  # a quiver.Array in
