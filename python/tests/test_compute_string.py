"""quiver.compute's string predicates (match_like, starts_with, ends_with,
match_substring) judged by pyarrow.compute: hand-made patterns for every
class of bug (LIKE escapes, '%' / '_' combinations, the empty pattern,
pyarrow's literal backslashes in prefix / suffix / substring shapes,
multi-byte UTF-8, ignore_case with Unicode simple case folding: 'Straße',
'ΣΑΣ', Kelvin sign, Turkish dotted and dotless i), random strings and
patterns over a small alphabet (so that they match) of lengths 0, 1, 63,
64, 65 and 5000, sliced at odd offsets, 0/10/50/100% nulls, string,
large_string, binary and large_binary; chunked arrays and scalars. The view
layouts, which pyarrow 26 has no kernel for, are judged by pyarrow on the
values cast to string / binary. Same exception classes and messages."""

import random

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import quiver
import quiver.compute as qc

FUNCTIONS = ["match_like", "starts_with", "ends_with", "match_substring"]
TYPES = [pa.string(), pa.large_string(), pa.binary(), pa.large_binary()]
VIEWS = {pa.string_view(): pa.string(), pa.binary_view(): pa.binary()}
LENGTHS = [0, 1, 63, 64, 65, 5000]
NULL_PROBS = [0.0, 0.1, 0.5, 1.0]
ERRORS = {pa.ArrowNotImplementedError: quiver.NotImplementedError,
          pa.ArrowInvalid: quiver.InvalidError, pa.ArrowTypeError: quiver.TypeError}

# Characters the random strings and patterns draw from: ASCII of both
# cases, multi-byte characters whose foldings differ in length (U+212A
# KELVIN SIGN folds to 'k', U+023A to U+2C65), sigma's three forms.
ALPHABET = ["a", "b", "A", "B", "k", "K", "\u212a", "é", "É", "ß", "ẞ", "Σ", "σ", "ς", "\u023a",
            "\u2c65", "İ", "ı", "i", "I", "𝄞", "\n"]
PATTERN_EXTRA = ["%", "_", "\\"]


def check_result(got, expected):
    if isinstance(expected, pa.ChunkedArray):
        assert isinstance(got, quiver.ChunkedArray), got
        got.validate()
        assert got.to_pyarrow().to_pylist() == expected.to_pylist()
        return
    if isinstance(expected, pa.Scalar):
        assert isinstance(got, quiver.Scalar), got
        assert got.as_py() == expected.as_py()
        return
    assert isinstance(got, quiver.Array), got
    got.validate()
    out = pa.array(got)
    assert out.type == pa.bool_()
    assert out.equals(expected), (out, expected)
    assert out.null_count == expected.null_count == got.null_count
    assert (out.buffers()[0] is None) == (expected.null_count == 0)
    assert out.offset == 0


def check(function, strings, pattern, judge=None, **options):
    """quiver.compute.<function> against pyarrow's (on `judge` when given)."""
    try:
        expected = getattr(pc, function)(strings if judge is None else judge, pattern, **options)
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid, pa.ArrowTypeError) as e:
        with pytest.raises(ERRORS[type(e)]) as info:
            getattr(qc, function)(strings, pattern, **options)
        assert str(info.value) == str(e).split("\n")[0]
        return
    check_result(getattr(qc, function)(strings, pattern, **options), expected)


HAND_PATTERNS = [
    "", "%", "%%", "_", "__", "a", "a%", "%a", "%a%", "a%b", "a_b", "%a_b%", "a%b%c", "_%_",
    "%_%", "a__", "__a", "a%%b", "%%a%%", "a\\%", "a\\_", "a\\\\", "\\%", "\\_", "\\\\", "\\",
    "ab\\", "a\\b%", "%a\\b", "%a\\b%", "%c\\", "%\\\\", "a\\\\%", "%a\\%%", "\\%%", "%\\%",
    "é%", "%é", "_é_", "ß", "ẞ", "straße", "STRASSE", "σας", "ΣΑΣ", "k", "K", "\u212a", "i", "I",
    "İ", "ı", "\u023a", "\u2c65", "𝄞", "_𝄞_", "%\n%", "a_%_b", "%b_",
]
HAND_VALUES = [
    "", "a", "b", "ab", "a%b", "a_b", "a\\b", "a\\bc", "abc", "xa%b", "ABC", "aXb", "a\nb", "é",
    "É", "xéy", "Straße", "STRASSE", "straße", "ΣΑΣ", "σας", "σασ", "K", "k", "\u212a", "İ", "i",
    "ı", "I", "ß", "ẞ", "\u023a", "\u2c65", "𝄞", "a𝄞b", "a\\", "%", "_", "\\", "a%%b", "aab",
]


@pytest.mark.parametrize("function", FUNCTIONS)
def test_hand_made_patterns(function):
    arrays = [pa.array(HAND_VALUES + [None], t) for t in (pa.string(), pa.large_string())]
    arrays += [pa.array([v.encode() for v in HAND_VALUES] + [None], t)
               for t in (pa.binary(), pa.large_binary())]
    for arr in arrays:
        for pattern in HAND_PATTERNS:
            for ignore_case in (False, True):
                check(function, arr, pattern, ignore_case=ignore_case)
                check(function, arr.slice(3), pattern, ignore_case=ignore_case)
        for view_type, judge_type in VIEWS.items():
            if arr.type == judge_type:
                for pattern in HAND_PATTERNS:
                    for ignore_case in (False, True):
                        check(function, arr.cast(view_type), pattern, judge=arr, ignore_case=ignore_case)


def test_binary_folds_ascii_only():
    b = pa.array([b"\xc9", b"\xe9", b"A", b"a", b"\xc3\xa9", b"\xc3\x89", b"\xe3\xa9", b"\xd7", b"\xff"])
    for pattern in ["é", b"\xe9", b"\xd7", "a", "_", "__", b"\xc3%", "%\xa9"]:
        for function in FUNCTIONS:
            check(function, b, pattern, ignore_case=True)
            check(function, b, pattern)


def random_text(rng, alphabet, max_len):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, max_len)))


@pytest.mark.parametrize("t", TYPES + list(VIEWS), ids=str)
def test_random(t, rng):
    judge_type = VIEWS.get(t, t)
    binary = pa.types.is_binary(judge_type) or pa.types.is_large_binary(judge_type)
    patterns = [random_text(rng, ALPHABET[:8] + PATTERN_EXTRA, 5) for _ in range(12)]
    for n in LENGTHS:
        for p in NULL_PROBS:
            values = [None if rng.random() < p else random_text(rng, ALPHABET[:12], 8) for _ in range(n)]
            if binary:
                values = [None if v is None else v.encode() for v in values]
            base = pa.array(values, judge_type)
            arr = base.cast(t) if t != judge_type else base
            cuts = [(arr, base)] if n < 5 else [(arr, base), (arr.slice(3, n - 4), base.slice(3, n - 4))]
            for pattern in rng.sample(patterns, 3 if n == 5000 else 6):
                for function in FUNCTIONS:
                    for a, b in cuts:
                        check(function, a, pattern, judge=b, ignore_case=rng.random() < 0.4)


def test_long_values_and_pathological_patterns():
    rng = random.Random(44)
    values = ["a" * 3000, "ab" * 1500 + "c", random_text(rng, ["a", "b"], 4000), "b" * 20 + "a" * 5000]
    arr = pa.array(values)
    for pattern in ["%a%a%a%a%a%a%c", "%ab%ab%c", "a%b", "%b_a%", "%" + "a" * 100 + "%", "%aaab%",
                    "%" + "_" * 40 + "c", "b%a_a%a"]:
        for function in FUNCTIONS:
            check(function, arr, pattern)
            check(function, arr, pattern, ignore_case=True)


def test_types_scalars_chunked_and_arguments():
    for t in (pa.int64(), pa.binary(3), pa.dictionary(pa.int32(), pa.string()), pa.null()):
        arr = pa.array([None], t)
        for function in FUNCTIONS:
            check(function, arr, "a")
    for s in (pa.scalar("abc"), pa.scalar(None, pa.string()), pa.scalar(b"abc"),
              pa.scalar("ABC", pa.large_string())):
        for function in FUNCTIONS:
            check(function, s, "a", ignore_case=True)
            check(function, s, "a%")
    check("match_like", pa.chunked_array([["abc", None], [], ["xbc"]]), "_bc")
    check("starts_with", pa.chunked_array([], pa.string()), "a")
    assert qc.match_like("abc", "a%").as_py() is True
    assert pa.array(qc.starts_with(["ab", "b"], "a")).to_pylist() == [True, False]
    assert pa.array(qc.match_like(pa.array(["a"]), b"a")).to_pylist() == [True]
    with pytest.raises(TypeError, match="expected bytes, int found"):
        qc.match_like(pa.array(["a"]), 5)
    opts = qc.MatchSubstringOptions("A", ignore_case=True)
    assert pa.array(qc.match_substring(pa.array(["xa"]), options=opts)).to_pylist() == [True]
    with pytest.raises(TypeError, match="both an 'options' argument and additional arguments"):
        qc.match_like(pa.array(["a"]), "a", options=opts)
    # NOT LIKE.
    arr = pa.array(["abc", "x", None])
    got = qc.invert(qc.match_like(arr, "a%"))
    assert pa.array(got).equals(pc.invert(pc.match_like(arr, "a%")))
