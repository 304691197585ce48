"""quiver.compute's arithmetic (add, subtract, multiply, divide and their
_checked variants) judged by pyarrow.compute: every numeric type, lengths
around the 64-row word, odd slice offsets, 0/10/50/100% nulls, NaN, +-0,
+-inf, the types' extremes, array-array, array-scalar and scalar-array, and
every pair of numeric types for the promotion rules. A result must equal
pyarrow's (type included) and pass validate(); an error must be the same
class with the same message."""

import math
import random

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import quiver
import quiver.compute as qc

INT_TYPES = [pa.int8(), pa.int16(), pa.int32(), pa.int64(),
             pa.uint8(), pa.uint16(), pa.uint32(), pa.uint64()]
FLOAT_TYPES = [pa.float32(), pa.float64()]
NUMERIC_TYPES = INT_TYPES + FLOAT_TYPES
LENGTHS = [0, 1, 63, 64, 65, 3000]
NULL_FRACTIONS = [0.0, 0.1, 0.5, 1.0]
ARITH = ["add", "add_checked", "subtract", "subtract_checked",
         "multiply", "multiply_checked", "divide", "divide_checked"]
ERRORS = {pa.ArrowInvalid: quiver.InvalidError,
          pa.ArrowNotImplementedError: quiver.NotImplementedError,
          pa.ArrowTypeError: quiver.TypeError}


def int_range(t):
    bits = t.bit_width
    if pa.types.is_signed_integer(t):
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def random_values(rng, t, n, nonzero=False):
    """n values of type t, a fraction of them the type's special values."""
    out = []
    if pa.types.is_floating(t):
        specials = [0.0, -0.0, 1.0, -1.0, math.nan, math.inf, -math.inf,
                    3.4e38 if t == pa.float32() else 1.7e308]
        for _ in range(n):
            v = rng.choice(specials) if rng.random() < 0.2 else rng.uniform(-1e3, 1e3)
            out.append(1.5 if nonzero and v == 0 else v)
        return out
    lo, hi = int_range(t)
    specials = [lo, hi, 0, 1, hi - 1, lo + 1] + ([-1] if lo < 0 else [])
    for _ in range(n):
        r = rng.random()
        v = rng.choice(specials) if r < 0.2 else (
            rng.randint(lo, hi) if r < 0.6 else rng.randint(max(lo, -100), min(hi, 100)))
        out.append(3 if nonzero and v == 0 else v)
    return out


def random_array(rng, t, n, null_fraction, offset=3, nonzero=False):
    """An array of n rows of type t: a slice at an odd offset of a longer one."""
    values = random_values(rng, t, n + offset, nonzero)
    values = [None if rng.random() < null_fraction else v for v in values]
    return pa.array(values, type=t).slice(offset, n)


def same_value(a, b):
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def run_quiver(fn, x, y):
    try:
        return getattr(qc, fn)(x, y), None
    except quiver.QuiverError as e:
        return None, e
    except TypeError as e:
        return None, e


def run_pyarrow(fn, x, y):
    try:
        return getattr(pc, fn)(x, y), None
    except (pa.ArrowException, TypeError) as e:
        return None, e


def assert_result_equal(got, expected, where=""):
    """got (quiver) equals expected (pyarrow): type, nulls and values."""
    if isinstance(expected, pa.Scalar):
        assert isinstance(got, quiver.Scalar), where
        assert str(got.type) == str(expected.type), where
        assert got.is_valid == expected.is_valid, where
        assert same_value(got.as_py(), expected.as_py()), where
        return
    if isinstance(expected, pa.ChunkedArray):
        assert isinstance(got, quiver.ChunkedArray), where
        got.validate()
        pa_got = got.to_pyarrow()
        assert pa_got.type == expected.type, where
        assert len(pa_got) == len(expected), where
        assert_lists_equal(pa_got.to_pylist(), expected.to_pylist(), where)
        return
    assert isinstance(got, quiver.Array), where
    got.validate()
    pa_got = got.to_pyarrow()
    assert pa_got.type == expected.type, f"{where}: {pa_got.type} != {expected.type}"
    assert len(pa_got) == len(expected), where
    assert pa_got.null_count == expected.null_count, where
    if pa_got.null_count == 0:
        assert pa_got.buffers()[0] is None, f"{where}: a validity buffer without nulls"
    assert_lists_equal(pa_got.to_pylist(), expected.to_pylist(), where)


def assert_lists_equal(a, b, where):
    assert len(a) == len(b), where
    for i, (x, y) in enumerate(zip(a, b)):
        assert same_value(x, y), f"{where}: row {i}: {x!r} != {y!r}"


def judge(fn, x, y, where=""):
    """quiver.compute.fn(x, y) against pyarrow.compute.fn(x, y)."""
    expected, pa_error = run_pyarrow(fn, x, y)
    got, q_error = run_quiver(fn, x, y)
    if pa_error is not None:
        assert q_error is not None, f"{where}: pyarrow raised {pa_error!r}, quiver returned {got}"
        want = ERRORS.get(type(pa_error), TypeError)
        assert isinstance(q_error, want), f"{where}: {q_error!r} is not a {want} ({pa_error!r})"
        assert str(q_error) == str(pa_error), f"{where}: message {q_error} != {pa_error}"
        return None
    assert q_error is None, f"{where}: quiver raised {q_error!r}, pyarrow gave {expected}"
    assert_result_equal(got, expected, where)
    return got


def scalar_for(rng, t, nonzero=False):
    return pa.scalar(random_values(rng, t, 1, nonzero)[0], type=t)


@pytest.mark.parametrize("t", NUMERIC_TYPES, ids=str)
def test_matrix(rng, t):
    for fn in ARITH:
        divide = fn.startswith("divide") and pa.types.is_integer(t)
        for n in LENGTHS:
            for null_fraction in NULL_FRACTIONS:
                x = random_array(rng, t, n, null_fraction, offset=1 + 2 * (n % 3))
                # Integer division by zero raises; covered on its own below.
                y = random_array(rng, t, n, null_fraction / 2, offset=5, nonzero=divide)
                where = f"{fn} {t} n={n} nulls={null_fraction}"
                judge(fn, x, y, where + " array-array")
                s = scalar_for(rng, t, nonzero=divide)
                judge(fn, x, s, where + " array-scalar")
                judge(fn, s, y, where + " scalar-array")
                judge(fn, x, pa.scalar(None, t), where + " array-null scalar")


@pytest.mark.parametrize("fn", ARITH)
def test_every_type_pair(rng, fn):
    """pyarrow's promotion for every pair of numeric types, with values that
    the implicit casts can refuse (uint64 past 2^63, ints past 2^24 / 2^53)."""
    for a in NUMERIC_TYPES:
        for b in NUMERIC_TYPES:
            x = random_array(rng, a, 40, 0.1)
            y = random_array(rng, b, 40, 0.1, nonzero=True)
            judge(fn, x, y, f"{fn} {a} {b}")
            # Small values: the casts succeed and the result type shows.
            small_x = pa.array([2, 3, None, 3], type=a)
            small_y = pa.array([2, 1, 1, None], type=b)
            got = judge(fn, small_x, small_y, f"{fn} {a} {b} small")
            assert got is not None


@pytest.mark.parametrize("t", NUMERIC_TYPES, ids=str)
def test_python_literals(t):
    """Python values are typed as pa.scalar types them: an int is int64, a
    float is float64 (int8 + 1 is int64, float32 + 0.5 is float64)."""
    x = pa.array([1, 2, None, 100], type=t)
    for literal in [1, -1, 0, 1000, 2**40, 1.5, -0.0, math.nan, math.inf, True, None, 2**63, "a"]:
        for fn in ["add", "multiply_checked", "divide"]:
            judge(fn, x, literal, f"{fn} {t} {literal!r}")
            judge(fn, literal, x, f"{fn} {literal!r} {t}")


def test_overflow_and_division_errors():
    i32 = pa.int32()
    lo, hi = int_range(i32)
    cases = [
        ("add_checked", [hi, 1], [1, 1]),
        ("subtract_checked", [lo, 0], [1, 0]),
        ("multiply_checked", [hi // 2 + 1, 3], [2, 3]),
        ("divide", [1, 2], [0, 1]),
        ("divide_checked", [1, 2], [0, 1]),
        ("divide", [lo], [-1]),                       # wraps to 0
        ("divide_checked", [lo], [-1]),               # overflow
        ("divide_checked", [lo, 1], [-1, 0]),         # the last failing row wins
        ("divide_checked", [1, lo], [0, -1]),
        ("add", [hi], [1]),                           # wraps
        ("multiply", [hi], [hi]),
    ]
    for fn, a, b in cases:
        judge(fn, pa.array(a, i32), pa.array(b, i32), f"{fn} {a} {b}")
    # A null row never raises.
    judge("divide", pa.array([1, None], i32), pa.array([None, 0], i32), "zero under nulls")
    judge("add_checked", pa.array([hi, None], i32), pa.array([None, 1], i32), "null overflow")
    for t in FLOAT_TYPES:
        judge("divide", pa.array([1.0, -1.0, 0.0], t), pa.array([0.0, 0.0, 0.0], t), f"{t} / 0")
        judge("divide_checked", pa.array([1.0], t), pa.array([0.0], t), f"{t} checked / 0")
        judge("divide_checked", pa.array([1.0], t), pa.array([-0.0], t), f"{t} checked / -0")


def test_shapes_and_lengths():
    x = pa.array([1, 2, 3])
    judge("add", x, pa.array([1, 2]), "lengths differ")
    judge("add", 1, 2, "two Python scalars")
    judge("add", pa.scalar(1, pa.int8()), pa.scalar(2, pa.uint8()), "two scalars")
    judge("add", None, None, "two nulls")
    judge("add", x, None, "null literal")
    judge("add", pa.nulls(3), x, "null array")
    judge("add", x, "a", "no kernel")
    judge("add", pa.array([1], pa.float16()), pa.array([1], pa.float16()), "float16")
    judge("add", pa.array([1], pa.timestamp("s")), 2, "temporal")


def test_chunked(rng):
    a = pa.chunked_array([random_values(rng, pa.int16(), 70), [], random_values(rng, pa.int16(), 5)],
                         pa.int16())
    b = pa.chunked_array([random_values(rng, pa.int16(), 10), random_values(rng, pa.int16(), 65)],
                         pa.int16())
    for fn in ARITH:
        judge(fn, a, b, f"{fn} chunked-chunked")
        judge(fn, a, 7, f"{fn} chunked-scalar")
        judge(fn, pa.array(random_values(rng, pa.int16(), 75), pa.int16()), b, f"{fn} array-chunked")
    empty = pa.chunked_array([], pa.int32())
    got = judge("add", empty, 1, "no chunks")
    assert got.num_chunks == 0 and got.type == "int64"


def test_quiver_inputs_and_outputs():
    x = quiver.array(pa.array([1, 2, None], pa.int32()))
    r = qc.add(x, quiver.array(pa.array([10, None, 1], pa.int32())))
    assert isinstance(r, quiver.Array)
    assert r.to_pylist() == [11, None, None]
    assert r.equals(pa.array([11, None, None], pa.int32()))
    assert not r.equals(pa.array([11, None, None], pa.int64()))
    assert pa.array(r).to_pylist() == [11, None, None]
    s = qc.multiply(6, 7)
    assert isinstance(s, quiver.Scalar) and s.as_py() == 42 and str(s.type) == "int64"
    # A quiver.Scalar as an argument.
    assert qc.add(x, s).to_pylist() == [43, 44, None]


def test_simd_level_is_recorded():
    x = pa.array(list(range(1000)), pa.int32())
    qc.add(x, x)
    levels = qc.simd_levels()
    expected = "avx2" if levels["active"] in ("avx2", "avx512") else "scalar"
    assert qc.last_simd_level() == expected


def test_scalar_level_gives_the_same_results():
    import os
    import subprocess
    import sys
    code = (
        "import pyarrow as pa, pyarrow.compute as pc, quiver.compute as qc\n"
        "x = pa.array([i * 7919 % 1000 - 500 for i in range(3000)], pa.int32())\n"
        "y = pa.array([float(i % 13) - 6 for i in range(3000)])\n"
        "assert qc.add(x, 3).to_pyarrow().equals(pc.add(x, 3))\n"
        "assert qc.last_simd_level() == 'scalar'\n"
        "assert qc.less(x, y).to_pyarrow().equals(pc.less(x, y))\n"
        "assert qc.last_simd_level() == 'scalar'\n")
    env = dict(os.environ, QUIVER_SIMD_LEVEL="scalar")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)


def test_unusable_argument():
    with pytest.raises(TypeError, match="cannot use a"):
        qc.add(pa.array([1]), object())
