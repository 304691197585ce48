"""quiver.compute's boolean kernels (and_, or_, xor, invert, and_kleene, or_kleene)
and null predicates (is_null with nan_is_null, is_valid, is_nan) judged by
pyarrow.compute: the truth tables exhaustively (arrays, scalars on either side,
typed and untyped nulls), random arrays of lengths 0, 1, 63, 64, 65 and 5000
sliced at different bit offsets with 0/10/50/100% nulls, the predicates over every
type (nested, dictionary and view types included), and the same exception
classes. Every array result passes quiver's validate(), starts at offset 0 and
has a validity bitmap only when it has a null."""

import itertools
import math
import random

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import quiver
import quiver.compute as qc
from arrow_samples import random_array
from test_compute_agg import LENGTHS, NULL_PROBS, NUMERIC, ORDERED, REFUSED, matrix

BINARY = ["and_", "or_", "xor", "and_kleene", "or_kleene"]
TRI = [True, False, None]
ERRORS = {pa.ArrowNotImplementedError: quiver.NotImplementedError,
          pa.ArrowInvalid: quiver.InvalidError}


def check_array(got, expected):
    assert isinstance(got, quiver.Array), got
    got.validate()
    out = pa.array(got)
    assert out.type == expected.type
    assert out.equals(expected), (out, expected)
    assert out.null_count == expected.null_count == got.null_count
    assert (out.buffers()[0] is None) == (expected.null_count == 0)
    assert out.offset == 0


def check(function, *args, **options):
    """quiver.compute.<function>(*args) against pyarrow's: equal arrays or scalars,
    or the same exception class and message."""
    try:
        expected = getattr(pc, function)(*args, **options)
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid) as e:
        with pytest.raises(ERRORS[type(e)]) as info:
            getattr(qc, function)(*args, **options)
        assert str(info.value) == str(e).split("\n")[0]
        return
    got = getattr(qc, function)(*args, **options)
    if isinstance(expected, pa.Scalar):
        assert isinstance(got, quiver.Scalar)
        assert str(got.type) == str(expected.type)
        assert got.as_py() == expected.as_py()
    else:
        check_array(got, expected)


def test_truth_tables():
    pairs = list(itertools.product(TRI, TRI))
    left = pa.array([p[0] for p in pairs], pa.bool_())
    right = pa.array([p[1] for p in pairs], pa.bool_())
    for fn in BINARY:
        check(fn, left, right)
        check(fn, left.slice(1), right.slice(2, 7))
        for s in TRI:
            typed = pa.scalar(s, pa.bool_())
            check(fn, left, typed)
            check(fn, typed, left)
            check(fn, left, s)  # Python bool, or None (pyarrow's null type: refused)
            check(fn, s, left)
            for s2 in TRI:
                check(fn, typed, pa.scalar(s2, pa.bool_()))
                check(fn, s, s2)
    check("invert", left)
    check("invert", left.slice(3))
    for s in TRI:
        check("invert", pa.scalar(s, pa.bool_()))


@pytest.mark.parametrize("n", LENGTHS)
def test_random_arrays_at_bit_offsets(n):
    rng = random.Random(n)
    for lp, rp in itertools.product(NULL_PROBS, NULL_PROBS):
        left = random_array(pa.bool_(), n + 7, rng, null_prob=lp)
        right = random_array(pa.bool_(), n + 7, rng, null_prob=rp)
        for lo, ro in [(0, 0), (3, 5), (7, 1)]:
            a, b = left.slice(lo, n), right.slice(ro, n)
            for fn in BINARY:
                check(fn, a, b)
            check("invert", a)
            if lp == rp:
                for s in TRI:
                    for fn in BINARY:
                        check(fn, a, pa.scalar(s, pa.bool_()))
    left = random_array(pa.bool_(), n, rng, null_prob=0.3)
    # A quiver.Array in (pyarrow takes only its own arrays).
    check_array(qc.and_kleene(quiver.array(left), left), pc.and_kleene(left, left))


def test_boolean_errors():
    b = pa.array([True, False, None])
    check("and_", b, pa.array([1, 2, 3]))
    check("or_kleene", b, pa.array([True]))
    check("xor", b, pa.array([None, None, None]))
    check("invert", pa.array([1, 2]))
    check("invert", pa.array([None, None]))
    check("and_", b, 1)
    check("and_", b, pa.scalar(1.5))
    with pytest.raises(TypeError):
        qc.and_(b, object())


TYPES = (NUMERIC + ORDERED + REFUSED
         + [pa.float16(), pa.struct([("a", pa.int8()), ("b", pa.string())]),
            pa.dictionary(pa.int32(), pa.float64()), pa.large_list(pa.float64())])


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_null_predicates_every_type(t):
    for _, a in matrix(t):
        check("is_null", a)
        check("is_null", a, nan_is_null=True)
        check("is_valid", a)
        check("is_nan", a)


def test_nan_in_floats_and_dictionaries():
    nan, inf = math.nan, math.inf
    for t in [pa.float16(), pa.float32(), pa.float64()]:
        a = pa.array([nan, None, 1.0, -0.0, inf, -inf, nan] * 20, t)
        for x in [a, a.slice(3), a.slice(5, 70)]:
            check("is_nan", x)
            check("is_null", x, nan_is_null=True)
            check("is_null", x)
    d = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 2, 1, 0], pa.int8()),
                                       pa.array([None, 1.0, nan]))
    for x in [d, d.slice(1), d.slice(2, 3)]:
        check("is_null", x)
        check("is_null", x, nan_is_null=True)
        check("is_valid", x)
        check("is_nan", x)


def test_null_predicate_scalars():
    for v in [None, True, 1, 1.5, math.nan, "a", b"x", pa.scalar(None, pa.int8()),
              pa.scalar(math.nan), pa.scalar(2, pa.uint16()), pa.scalar("z"),
              pa.scalar(None, pa.string()), pa.scalar(math.nan, pa.float32())]:
        check("is_null", v)
        check("is_null", v, nan_is_null=True)
        check("is_valid", v)
        check("is_nan", v)
    assert qc.is_null(qc.min(pa.array([None], pa.int8()))).as_py() is True  # a quiver.Scalar in


def check_chunked(function, *args, **options):
    """A chunked argument: a quiver.ChunkedArray equal to pyarrow's result."""
    expected = getattr(pc, function)(*args, **options)
    got = getattr(qc, function)(*args, **options)
    assert type(got).__name__ == "ChunkedArray", got
    assert str(got.type) == str(expected.type)
    combined = [got.chunk(i) for i in range(got.num_chunks)]
    for c in combined:
        c.validate()
    values = [v for c in combined for v in c.to_pylist()]
    assert values == expected.to_pylist()


def test_chunked_arguments():
    rng = random.Random(7)
    chunks = [[rng.choice(TRI) for _ in range(n)] for n in (0, 5, 64, 1, 130)]
    x = pa.chunked_array(chunks, pa.bool_())
    y = pa.chunked_array([sum(chunks, [])[::-1][:70], sum(chunks, [])[::-1][70:]], pa.bool_())
    for f in BINARY:
        check_chunked(f, x, y)
        check_chunked(f, x, True)
        check_chunked(f, pa.scalar(None, pa.bool_()), y)
        check_chunked(f, x, pa.array(sum(chunks, [])))
    check_chunked("invert", x)
    floats = pa.chunked_array([[1.0, math.nan, None], [], [math.nan, 2.0]])
    for f in ("is_null", "is_valid", "is_nan"):
        check_chunked(f, floats)
    check_chunked("is_null", floats, nan_is_null=True)
    check_chunked("is_null", pa.chunked_array([], pa.string()))
    # A quiver.ChunkedArray (a kernel's result) goes back in.
    got = qc.invert(qc.invert(x))
    assert [v for i in range(got.num_chunks) for v in got.chunk(i).to_pylist()] == x.to_pylist()
    with pytest.raises(quiver.InvalidError, match="same length"):
        qc.and_(x, pa.array([True]))
