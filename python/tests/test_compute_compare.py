"""quiver.compute's comparisons (equal, not_equal, less, less_equal,
greater, greater_equal) judged by pyarrow.compute: every type of the list
in src/quiver/compute/compare.h, lengths around the 64-row word, odd slice
offsets, 0/10/50/100% nulls, NaN and +-0, array-array, array-scalar and
scalar-array, Python literals, mixed types (every numeric pair, temporal
units, binary layouts) and dictionaries. Where pyarrow has no kernel for a
type Quiver compares (float16, the view layouts), the judge is pyarrow on
the values cast to a type it has (float32, string / binary)."""

import datetime
import decimal
import math

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import quiver
import quiver.compute as qc
from test_compute_arith import (LENGTHS, NULL_FRACTIONS, NUMERIC_TYPES, assert_result_equal,
                                judge, random_values, run_quiver)

OPS = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
STRINGS = ["", "a", "ab", "abc", "b", "é", "日本", "a long value past twelve bytes",
           "a long value past twelve bytez", "A"]
TEMPORAL_TYPES = [pa.date32(), pa.date64(), pa.time32("s"), pa.time32("ms"), pa.time64("us"),
                  pa.time64("ns"), pa.timestamp("s"), pa.timestamp("ms"), pa.timestamp("us"),
                  pa.timestamp("ns"), pa.timestamp("us", "UTC"), pa.duration("s"),
                  pa.duration("ms"), pa.duration("us"), pa.duration("ns")]
BINARY_TYPES = [pa.string(), pa.binary(), pa.large_string(), pa.large_binary(),
                pa.string_view(), pa.binary_view()]
DECIMAL_TYPES = [pa.decimal32(7, 2), pa.decimal64(15, 3), pa.decimal128(20, 2),
                 pa.decimal256(45, 4)]
OTHER_TYPES = [pa.bool_(), pa.float16(), pa.binary(3)]
ALL_TYPES = NUMERIC_TYPES + TEMPORAL_TYPES + BINARY_TYPES + DECIMAL_TYPES + OTHER_TYPES
# Types pyarrow has no comparison kernel for, and the type its judgement
# casts them to.
JUDGE_AS = {pa.float16(): pa.float32(), pa.string_view(): pa.string(),
            pa.binary_view(): pa.binary()}


def values_of(rng, t, n):
    if pa.types.is_integer(t) or pa.types.is_floating(t) and t != pa.float16():
        return random_values(rng, t, n)
    if t == pa.float16():
        return [rng.choice([0.0, -0.0, 1.0, -1.5, 2.0, math.nan, math.inf]) for _ in range(n)]
    if t == pa.bool_():
        return [rng.random() < 0.5 for _ in range(n)]
    if pa.types.is_time32(t) or pa.types.is_time64(t):
        return [rng.choice([0, 1, 2, 59, 3599]) for _ in range(n)]
    if pa.types.is_temporal(t):
        return [rng.choice([-2, 0, 1, 2, 1000, 86400, 86400000]) for _ in range(n)]
    if pa.types.is_decimal(t):
        return [decimal.Decimal(rng.randint(-300, 300)).scaleb(-t.scale) for _ in range(n)]
    if pa.types.is_fixed_size_binary(t):
        return [bytes(rng.choice([0, 1, 255]) for _ in range(t.byte_width)) for _ in range(n)]
    if t in (pa.binary(), pa.large_binary(), pa.binary_view()):
        return [rng.choice(STRINGS).encode() + rng.choice([b"", b"\xff", b"\x00"]) for _ in range(n)]
    return [rng.choice(STRINGS) for _ in range(n)]


def array_of(rng, t, n, null_fraction, offset):
    values = values_of(rng, t, n + offset)
    values = [None if rng.random() < null_fraction else v for v in values]
    return pa.array(values, type=t).slice(offset, n)


def judged_as(v, t):
    """v cast to the type pyarrow's judgement uses (a dictionary through
    its dictionary: pyarrow cannot take from a view array)."""
    if not hasattr(v, "cast"):
        return v
    target = JUDGE_AS.get(t, t)
    if isinstance(v.type, pa.DictionaryType):
        v = pa.DictionaryArray.from_arrays(v.indices, v.dictionary.cast(target))
    return v.cast(target)


def judge_compare(fn, x, y, where):
    """judge(), except for a type pyarrow cannot compare: then pyarrow on the
    values cast (JUDGE_AS) judges."""
    types = [getattr(v, "type", None) for v in (x, y)]
    types = [t.value_type if isinstance(t, pa.DictionaryType) else t for t in types]
    if not any(t in JUDGE_AS for t in types):
        return judge(fn, x, y, where)
    cast = [judged_as(v, t) for v, t in zip((x, y), types)]
    expected = getattr(pc, fn)(*cast)
    got, error = run_quiver(fn, x, y)
    assert error is None, f"{where}: {error!r}"
    assert_result_equal(got, expected, where)
    return got


def python_literal(v):
    """The Python value of a scalar where pyarrow takes one as a literal."""
    if isinstance(v, (bool, int, float, str, bytes)):
        return v
    return None


@pytest.mark.parametrize("t", ALL_TYPES, ids=str)
def test_matrix(rng, t):
    for op in OPS:
        for i, n in enumerate(LENGTHS):
            null_fraction = NULL_FRACTIONS[i % len(NULL_FRACTIONS)]
            x = array_of(rng, t, n, null_fraction, offset=1 + 2 * (i % 3))
            y = array_of(rng, t, n, null_fraction / 2, offset=5)
            where = f"{op} {t} n={n} nulls={null_fraction}"
            judge_compare(op, x, y, where + " array-array")
            value = values_of(rng, t, 1)[0]
            s = pa.scalar(value, type=t)
            if t not in JUDGE_AS:
                judge_compare(op, x, s, where + " array-scalar")
                judge_compare(op, s, y, where + " scalar-array")
                judge_compare(op, x, pa.scalar(None, t), where + " null scalar")
            literal = python_literal(value)
            if literal is not None and t not in JUDGE_AS:
                judge(op, x, literal, where + f" array-literal {literal!r}")
                judge(op, literal, y, where + f" literal-array {literal!r}")
            if t not in JUDGE_AS and t not in (pa.decimal32(7, 2), pa.decimal64(15, 3)):
                # (pyarrow has no kernel for decimal32 / decimal64 against a
                # null literal; Quiver gives nulls, as for every other type.)
                judge(op, x, None, where + " None")


@pytest.mark.parametrize("op", ["equal", "less"])
def test_every_numeric_pair(rng, op):
    for a in NUMERIC_TYPES:
        for b in NUMERIC_TYPES:
            judge(op, array_of(rng, a, 70, 0.1, 1), array_of(rng, b, 70, 0.1, 3), f"{op} {a} {b}")
            judge(op, pa.array([1, 2, None], a), pa.array([2, 2, 2], b), f"{op} {a} {b} small")


@pytest.mark.parametrize("op", ["equal", "greater_equal"])
def test_temporal_pairs(rng, op):
    for a in TEMPORAL_TYPES:
        for b in TEMPORAL_TYPES:
            judge(op, array_of(rng, a, 20, 0.1, 1), array_of(rng, b, 20, 0.1, 3), f"{op} {a} {b}")


@pytest.mark.parametrize("op", ["equal", "less"])
def test_binary_pairs(rng, op):
    types = [pa.string(), pa.binary(), pa.large_string(), pa.large_binary(), pa.binary(3),
             pa.binary(2), pa.string_view(), pa.binary_view()]
    for a in types:
        for b in types:
            x = array_of(rng, a, 30, 0.1, 1)
            y = array_of(rng, b, 30, 0.1, 3)
            judge(op, x, y, f"{op} {a} {b}")
        judge(op, array_of(rng, a, 30, 0.1, 1), "ab", f"{op} {a} 'ab'")
        judge(op, array_of(rng, a, 30, 0.1, 1), b"ab\xff", f"{op} {a} b'ab'")


def test_edge_cases():
    u64 = pa.array([0, 1, 2**63 - 1, None], pa.uint64())
    for literal in [-1, 0, 2**63 - 1, 2**63, 1.5, "1"]:
        for op in OPS:
            judge(op, u64, literal, f"{op} uint64 {literal!r}")
    judge("equal", pa.array([2**63], pa.uint64()), -1, "uint64 at 2^63 vs -1")
    judge("equal", pa.array([2**63], pa.uint64()), pa.array([1], pa.int64()), "uint64 vs int64")
    f32 = pa.array([0.1, 0.5, math.nan, -0.0, None], pa.float32())
    for op in OPS:
        for literal in [0.1, 0.5, math.nan, 0.0, 1]:
            judge(op, f32, literal, f"{op} float32 {literal!r}")
    nan = pa.array([math.nan, -0.0, 0.0, math.inf], pa.float64())
    zero = pa.array([math.nan, 0.0, -0.0, math.nan], pa.float64())
    for op in OPS:
        judge(op, nan, zero, f"{op} IEEE")
    judge("equal", pa.array([1], pa.timestamp("s")), pa.array([1], pa.timestamp("s", "UTC")),
          "zone vs no zone")
    judge("equal", pa.array([1], pa.timestamp("s")), pa.array([1], pa.timestamp("ms", "UTC")),
          "zone vs no zone, units differ")
    judge("equal", pa.array([1], pa.timestamp("s", "UTC")),
          pa.array([1], pa.timestamp("s", "Europe/Paris")), "two zones")
    judge("equal", pa.array([1], pa.int32()), True, "int vs bool")
    judge("equal", pa.array([1]), pa.array([1, 2]), "lengths differ")
    judge("equal", None, pa.array([1]), "None vs array")
    judge("less", pa.scalar(1), pa.scalar(2.5), "two scalars")
    judge("less", "a", "b", "two Python strings")
    judge("equal", pa.array([datetime.date(2024, 1, 1)]), pa.scalar(datetime.date(2024, 1, 1)),
          "date scalar")
    judge("greater", pa.array([1], pa.decimal128(5, 2)), pa.scalar(decimal.Decimal("0.50")),
          "decimal scalar")


def test_temporal_and_decimal_literals():
    """datetime, date, time, timedelta and Decimal values are typed as
    pa.scalar types them."""
    utc = datetime.timezone.utc
    cases = [
        (pa.array([0, 86400 * 10**6, None], pa.timestamp("us")), datetime.datetime(1970, 1, 2)),
        (pa.array([0, 86400, None], pa.timestamp("s")), datetime.datetime(1970, 1, 2)),
        (pa.array([0, 86400, None], pa.timestamp("s", "UTC")),
         datetime.datetime(1970, 1, 2, tzinfo=utc)),
        (pa.array([0, 1, None], pa.date32()), datetime.date(1970, 1, 2)),
        (pa.array([0, 10**6], pa.time64("us")), datetime.time(0, 0, 1)),
        (pa.array([0, 10**6], pa.duration("us")), datetime.timedelta(seconds=1)),
        (pa.array([decimal.Decimal("1.25"), None], pa.decimal128(5, 2)), decimal.Decimal("1.3")),
    ]
    for x, literal in cases:
        for op in OPS:
            judge(op, x, literal, f"{op} {x.type} {literal!r}")
            judge(op, literal, x, f"{op} {literal!r} {x.type}")


@pytest.mark.parametrize("op", ["equal", "less_equal"])
def test_decimal_pairs(rng, op):
    """Decimals of different widths and scales, and decimals against
    integers: pyarrow compares them at the larger scale (or refuses a
    precision past 76 digits)."""
    types = DECIMAL_TYPES + [pa.decimal128(10, 0), pa.decimal128(38, 38), pa.decimal256(76, 10),
                             pa.int8(), pa.uint64(), pa.int64()]
    for a in types:
        for b in types:
            if pa.types.is_integer(a) and pa.types.is_integer(b):
                continue
            x = array_of(rng, a, 70, 0.1, 1)
            y = array_of(rng, b, 70, 0.1, 3)
            judge(op, x, y, f"{op} {a} {b}")
            judge(op, x, values_of(rng, b, 1)[0] if pa.types.is_integer(b) else
                  pa.scalar(values_of(rng, b, 1)[0], b), f"{op} {a} scalar {b}")
    judge(op, pa.array([decimal.Decimal("1.5")], pa.decimal128(5, 1)), 1, f"{op} literal int")
    judge(op, None, pa.array([1]), f"{op} None")
    judge(op, None, None, f"{op} None None")


@pytest.mark.parametrize("index", [pa.int8(), pa.uint16(), pa.int32(), pa.int64()], ids=str)
def test_dictionary_against_scalar(rng, index):
    for value_type, pool in [(pa.string(), STRINGS), (pa.int64(), [-1, 0, 5, 2**40]),
                             (pa.float64(), [math.nan, 0.0, -0.0, 1.5])]:
        dictionary = pa.array(pool + [None], value_type)
        for n in [0, 1, 64, 65, 300]:
            indices = pa.array([None if rng.random() < 0.1 else rng.randrange(len(pool) + 1)
                                for _ in range(n + 3)], index)
            x = pa.DictionaryArray.from_arrays(indices, dictionary).slice(3, n)
            for op in OPS:
                where = f"{op} dictionary<{index}, {value_type}> n={n}"
                literal = pool[rng.randrange(len(pool))]
                judge(op, x, literal, where + f" {literal!r}")
                judge(op, literal, x, where + f" {literal!r} flipped")
                judge(op, x, pa.scalar(None, value_type), where + " null")


@pytest.mark.parametrize("value_type", [pa.string(), pa.large_binary(), pa.string_view(),
                                        pa.int32(), pa.float64(), pa.bool_(), pa.date64(),
                                        pa.decimal128(9, 2), pa.binary(3)], ids=str)
def test_dictionary_against_array(rng, value_type):
    """pyarrow decodes a dictionary compared with another array; so does Quiver."""
    for n in [0, 1, 65, 200]:
        dictionary = array_of(rng, value_type, 6, 0.2, 1)
        indices = pa.array([None if rng.random() < 0.1 else rng.randrange(6)
                            for _ in range(n + 1)], pa.int16())
        x = pa.DictionaryArray.from_arrays(indices, dictionary).slice(1, n)
        y = array_of(rng, value_type, n, 0.1, 3)
        for op in OPS:
            where = f"{op} dictionary<{value_type}> n={n}"
            judge_compare(op, x, y, where + " vs array")
            judge_compare(op, y, x, where + " array vs")
            judge_compare(op, x, x, where + " vs itself")


def test_chunked(rng):
    a = pa.chunked_array([values_of(rng, pa.string(), 70), [], values_of(rng, pa.string(), 5)])
    b = pa.chunked_array([values_of(rng, pa.string(), 10), values_of(rng, pa.string(), 65)])
    for op in OPS:
        judge(op, a, b, f"{op} chunked-chunked")
        judge(op, a, "ab", f"{op} chunked-literal")
        judge(op, "ab", b, f"{op} literal-chunked")
    got = qc.equal(a, b)
    assert got.equals(pc.equal(a, b))
    assert got.num_chunks == 3 and len(got) == 75 and got.type == "bool"
    assert pa.chunked_array(got).equals(pc.equal(a, b))


def test_results_are_packed_bits():
    x = pa.array(list(range(130)), pa.int64())
    r = qc.less(x, 64).to_pyarrow()
    assert r.buffers()[0] is None
    assert r.buffers()[1].to_pybytes()[:17] == b"\xff" * 8 + b"\x00" * 8 + b"\x00"
