"""Sample pyarrow arrays of every Arrow type Quiver supports, for interop tests."""

import datetime
import decimal

import pyarrow as pa


def _with_nulls(values, every=3):
    return [None if i % every == 1 else v for i, v in enumerate(values)]


def flat_samples():
    """(name, pyarrow array with nulls) for every non-nested type."""
    n = 10
    ints = list(range(-5, 5))
    samples = [
        ("null", pa.array([None] * n, pa.null())),
        ("bool", pa.array(_with_nulls([i % 2 == 0 for i in range(n)]), pa.bool_())),
    ]
    for t in ["int8", "int16", "int32", "int64"]:
        samples.append((t, pa.array(_with_nulls(ints), getattr(pa, t)())))
    for t in ["uint8", "uint16", "uint32", "uint64"]:
        samples.append((t, pa.array(_with_nulls(list(range(n))), getattr(pa, t)())))
    import numpy as np

    samples += [
        ("float16", pa.array(np.array([0.5 * i for i in range(n)], dtype=np.float16),
                             mask=np.array([i % 3 == 1 for i in range(n)]))),
        ("float32", pa.array(_with_nulls([0.25 * i for i in range(n)]), pa.float32())),
        ("float64", pa.array(_with_nulls([float(i) / 7 for i in range(n)] ), pa.float64())),
        ("decimal32", pa.array(_with_nulls([decimal.Decimal(f"{i}.25") for i in ints]), pa.decimal32(7, 2))),
        ("decimal64", pa.array(_with_nulls([decimal.Decimal(f"{i}.25") for i in ints]), pa.decimal64(15, 2))),
        ("decimal128", pa.array(_with_nulls([decimal.Decimal(f"{i}.125") for i in ints]), pa.decimal128(20, 3))),
        ("decimal256", pa.array(_with_nulls([decimal.Decimal(f"{i}.5") for i in ints]), pa.decimal256(50, 1))),
        ("date32", pa.array(_with_nulls([datetime.date(2020, 1, 1 + i) for i in range(n)]), pa.date32())),
        ("date64", pa.array(_with_nulls([datetime.date(2020, 1, 1 + i) for i in range(n)]), pa.date64())),
        ("time32_s", pa.array(_with_nulls(list(range(n))), pa.time32("s"))),
        ("time32_ms", pa.array(_with_nulls(list(range(n))), pa.time32("ms"))),
        ("time64_us", pa.array(_with_nulls(list(range(n))), pa.time64("us"))),
        ("time64_ns", pa.array(_with_nulls(list(range(n))), pa.time64("ns"))),
        ("timestamp_s", pa.array(_with_nulls(list(range(n))), pa.timestamp("s"))),
        ("timestamp_ms_utc", pa.array(_with_nulls(list(range(n))), pa.timestamp("ms", tz="UTC"))),
        ("timestamp_us_tz", pa.array(_with_nulls(list(range(n))), pa.timestamp("us", tz="Europe/Paris"))),
        ("timestamp_ns", pa.array(_with_nulls(list(range(n))), pa.timestamp("ns"))),
        ("duration_s", pa.array(_with_nulls(list(range(n))), pa.duration("s"))),
        ("duration_ns", pa.array(_with_nulls(list(range(n))), pa.duration("ns"))),
        ("month_day_nano", pa.array(_with_nulls([pa.MonthDayNano([i, i + 1, i * 1000]) for i in range(n)]),
                                    pa.month_day_nano_interval())),
        ("binary", pa.array(_with_nulls([bytes([i]) * i for i in range(n)]), pa.binary())),
        ("string", pa.array(_with_nulls(["é" * i for i in range(n)]), pa.string())),
        ("large_binary", pa.array(_with_nulls([bytes([i]) * i for i in range(n)]), pa.large_binary())),
        ("large_string", pa.array(_with_nulls(["x" * i for i in range(n)]), pa.large_string())),
        ("binary_view", pa.array(_with_nulls([bytes([65 + i]) * (i * 3) for i in range(n)]), pa.binary_view())),
        ("string_view", pa.array(_with_nulls(["long string value " * (i % 3) + str(i) for i in range(n)]),
                                 pa.string_view())),
        ("fixed_size_binary", pa.array(_with_nulls([bytes([i] * 4) for i in range(n)]), pa.binary(4))),
    ]
    return samples


def nested_samples():
    """(name, pyarrow array) for nested and dictionary types."""
    n = 10
    lists = _with_nulls([list(range(i % 4)) for i in range(n)])
    samples = [
        ("list", pa.array(lists, pa.list_(pa.int32()))),
        ("large_list", pa.array(lists, pa.large_list(pa.int64()))),
        ("fixed_size_list", pa.array(_with_nulls([[i, i + 1] for i in range(n)]), pa.list_(pa.int16(), 2))),
        ("struct", pa.array(_with_nulls([{"a": i, "b": str(i)} for i in range(n)]),
                            pa.struct([("a", pa.int32()), ("b", pa.string())]))),
        ("map", pa.array(_with_nulls([[("k" + str(j), j) for j in range(i % 3)] for i in range(n)]),
                         pa.map_(pa.string(), pa.int64()))),
        ("map_sorted", pa.array([[("a", 1), ("b", 2)], None, []],
                                pa.map_(pa.string(), pa.int64(), keys_sorted=True))),
        ("dictionary", pa.array(_with_nulls(["a", "b", "c", "a"] * 3)).dictionary_encode()),
        ("dictionary_int8_ordered", pa.DictionaryArray.from_arrays(
            pa.array([0, 1, None, 1, 0], pa.int8()), pa.array(["x", "y"]), ordered=True)),
        ("list_of_struct_of_list", pa.array(
            [[{"a": 1, "b": ["x", None]}], None, [], [{"a": None, "b": None}, {"a": 3, "b": []}]],
            pa.list_(pa.struct([("a", pa.int32()), ("b", pa.list_(pa.string()))])))),
        ("map_of_list", pa.array([[("k", [1, 2])], None, [("a", None), ("b", [])]],
                                 pa.map_(pa.string(), pa.list_(pa.int64())))),
    ]
    return samples


def all_samples():
    return flat_samples() + nested_samples()


def nest(arr):
    """`arr` two levels deep: list<struct<v: arr.type>>."""
    n = len(arr)
    struct = pa.StructArray.from_arrays([arr], names=["v"])
    offsets = pa.array([0] + [min(n, i * 3) for i in range(1, (n + 2) // 3 + 1)], pa.int32())
    return pa.ListArray.from_arrays(offsets, struct)


# --- Random data for the Parquet writer tests (test_parquet_*.py) -----------
#
# Everything below is additive: the samples above keep their names and values.

def writer_samples():
    """(name, array) for every sample type the Parquet writer supports (all but intervals)."""
    return [(n, a) for n, a in all_samples() if not pa.types.is_interval(a.type)]


_TEXT_ALPHABET = ["a", "b", "z", "0", " ", "é", "€", "𝄞", "\x00", "ÿ", "\u07ff", "\uffff"]


def _random_scalar(t, rng, long_values=False):
    """One random non-null Python value of a non-nested, non-dictionary type `t`."""
    if pa.types.is_boolean(t):
        return rng.random() < 0.5
    if pa.types.is_integer(t):
        bits = t.bit_width
        if pa.types.is_signed_integer(t):
            lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        else:
            lo, hi = 0, (1 << bits) - 1
        r = rng.random()
        if r < 0.15:
            return rng.choice([lo, hi, 0, lo + 1, hi - 1])
        if r < 0.6:
            return rng.randint(max(lo, -100), min(hi, 100))
        return rng.randint(lo, hi)
    if pa.types.is_floating(t):
        if pa.types.is_float16(t):
            special = [0.0, -0.0, float("inf"), float("-inf"), 65504.0, -65504.0, 6e-08]
            big = 60000.0
        elif t == pa.float32():
            special = [0.0, -0.0, float("inf"), float("-inf"), 3.4028234663852886e38, 1.401298464324817e-45]
            big = 1e30
        else:
            special = [0.0, -0.0, float("inf"), float("-inf"), 1.7976931348623157e308, 5e-324]
            big = 1e300
        r = rng.random()
        if r < 0.15:
            return rng.choice(special)
        if r < 0.6:
            return rng.randint(-100, 100) / 4
        x = rng.uniform(-1, 1) * (big if rng.random() < 0.3 else 1000.0)
        if pa.types.is_float16(t):
            import numpy as np
            return float(np.float16(x))
        if t == pa.float32():
            import numpy as np
            return float(np.float32(x))
        return x
    if pa.types.is_decimal(t):
        digits = rng.randint(0, t.precision)
        v = rng.randint(-(10 ** digits - 1), 10 ** digits - 1) if digits else 0
        return decimal.Decimal(v).scaleb(-t.scale)
    if pa.types.is_date(t):
        return datetime.date.fromordinal(rng.randint(1, 3652059))
    if pa.types.is_time(t):
        per_day = {"s": 86400, "ms": 86400_000, "us": 86400_000_000, "ns": 86400_000_000_000}[t.unit]
        return rng.randint(0, per_day - 1)
    if pa.types.is_timestamp(t) or pa.types.is_duration(t):
        # Within what int64 nanoseconds can hold (years 1677-2262), whatever the unit, so
        # that every reader (and Python's datetime) can represent the values.
        bound = (1 << 63) // {"s": 10 ** 9, "ms": 10 ** 6, "us": 10 ** 3, "ns": 1}[t.unit] - 1
        if rng.random() < 0.5:
            return rng.randint(-1000_000, 1000_000)
        return rng.randint(-bound, bound)
    if pa.types.is_fixed_size_binary(t):
        return bytes(rng.randrange(256) for _ in range(t.byte_width))
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        n = rng.choice([0, 1, 2, 5, 12, 13, 30]) if not long_values else rng.randint(50, 200)
        return "".join(rng.choice(_TEXT_ALPHABET) for _ in range(n))
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        n = rng.choice([0, 1, 2, 5, 12, 13, 30]) if not long_values else rng.randint(50, 200)
        return bytes(rng.choice([0, 1, 0x41, 0x7F, 0x80, 0xFE, 0xFF, rng.randrange(256)]) for _ in range(n))
    raise NotImplementedError(f"no random values for {t}")


def value_generator(t, rng, null_prob, distinct=None, long_values=False):
    """A function () -> one random non-null Python value of type `t`. Leaves draw from a pool
    of `distinct` values (random when None) so that dictionaries see repeats; children of
    nested values are null with probability `null_prob` where their field is nullable."""
    def child(field):
        gen = value_generator(field.type, rng, null_prob, distinct, long_values)
        p = null_prob if field.nullable else 0.0
        return lambda: None if p and rng.random() < p else gen()

    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t):
        item = child(t.value_field)
        return lambda: [item() for _ in range(rng.choice([0, 1, 1, 2, 3, 5]))]
    if pa.types.is_fixed_size_list(t):
        item = child(t.value_field)
        return lambda: [item() for _ in range(t.list_size)]
    if pa.types.is_struct(t):
        gens = [(t.field(i).name, child(t.field(i))) for i in range(t.num_fields)]
        return lambda: {name: g() for name, g in gens}
    if pa.types.is_map(t):
        key = value_generator(t.key_type, rng, 0.0, distinct, long_values)
        item = child(t.item_field)

        def entries():
            # Distinct keys (Arrow allows duplicates, but readers such as polars keep one).
            keys = []
            for _ in range(rng.choice([0, 1, 2, 3])):
                k = key()
                if k not in keys:
                    keys.append(k)
            return [(k, item()) for k in keys]
        return entries
    if pa.types.is_null(t):
        return lambda: None
    if pa.types.is_dictionary(t):
        # Inside nested values: pa.array dictionary-encodes the values.
        return value_generator(t.value_type, rng, null_prob, distinct, long_values)
    size = distinct if distinct is not None else rng.choice([1, 2, 5, 40, 1000])
    pool = [_random_scalar(t, rng, long_values) for _ in range(size)]
    return lambda: rng.choice(pool)


def random_array(t, n, rng, null_prob=0.2, distinct=None, long_values=False):
    """A random pyarrow array of type `t` and length `n` (top-level nulls with probability
    `null_prob`; nested children as `value_generator`)."""
    if pa.types.is_dictionary(t):
        k = rng.randint(1, 12)
        values = random_array(t.value_type, k * 2, rng, 0.0, distinct, long_values).unique()
        values = values.slice(0, min(k, len(values)))
        idx = [None if null_prob and rng.random() < null_prob else rng.randrange(len(values))
               for _ in range(n)]
        return pa.DictionaryArray.from_arrays(pa.array(idx, t.index_type), values, ordered=t.ordered)
    gen = value_generator(t, rng, null_prob, distinct, long_values)
    vals = [None if null_prob and rng.random() < null_prob else gen() for _ in range(n)]
    return pa.array(vals, t)


NEST_KINDS = ["list", "large_list", "fixed_size_list", "struct", "map"]


def _mask(m, rng, null_prob):
    if not null_prob:
        return None
    return pa.array([rng.random() < null_prob for _ in range(m)], pa.bool_())


def _maybe_slice(arr, rng, force):
    if len(arr) == 0 or not (force or rng.random() < 0.4):
        return arr
    a = rng.randint(0, min(3, len(arr)))
    b = rng.randint(0, min(3, len(arr) - a))
    return arr.slice(a, len(arr) - a - b)


def wrap(arr, kind, child_nullable, layer_null_prob, rng, force_slice=False):
    """`arr` one level deeper: the child of a `kind` array whose own slots are null with
    probability `layer_null_prob`. Child ranges start and end at random offsets (unused
    child values before/after, null slots that own non-empty ranges), and the result may be
    sliced (`force_slice`: always)."""
    n = len(arr)
    child_field = pa.field("v" if kind == "struct" else ("value" if kind == "map" else "item"),
                           arr.type, nullable=child_nullable)
    if kind in ("list", "large_list", "map"):
        start = rng.randint(0, min(2, n))
        end = n - rng.randint(0, min(2, n - start))
        offsets = [start]
        pos = start
        while pos < end:
            pos += min(rng.choice([0, 1, 1, 2, 3, 4, 7]), end - pos)
            offsets.append(pos)
        for _ in range(rng.choice([0, 0, 1, 2])):
            offsets.append(pos)  # trailing empty lists
        m = len(offsets) - 1
        mask = _mask(m, rng, layer_null_prob)
        if kind == "list":
            out = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), arr,
                                           type=pa.list_(child_field), mask=mask)
        elif kind == "large_list":
            out = pa.LargeListArray.from_arrays(pa.array(offsets, pa.int64()), arr,
                                                type=pa.large_list(child_field), mask=mask)
        else:
            keys = pa.array([f"k{i % 7}" for i in range(n)], pa.string())
            out = pa.MapArray.from_arrays(pa.array(offsets, pa.int32()), keys, arr,
                                          type=pa.map_(pa.string(), child_field), mask=mask)
    elif kind == "fixed_size_list":
        size = rng.choice([1, 2, 3])
        m = n // size
        start = rng.randint(0, n - m * size)
        child = arr.slice(start, m * size)
        out = pa.FixedSizeListArray.from_arrays(child, type=pa.list_(child_field, size),
                                                mask=_mask(m, rng, layer_null_prob))
    elif kind == "struct":
        sibling_null = layer_null_prob if child_nullable else 0.0
        sibling = random_array(pa.int32(), n, rng, sibling_null)
        out = pa.StructArray.from_arrays(
            [arr, sibling], fields=[child_field, pa.field("s", pa.int32(), nullable=child_nullable)],
            mask=_mask(n, rng, layer_null_prob))
    else:
        raise ValueError(kind)
    return _maybe_slice(out, rng, force_slice)


def nested_column(leaf_type, kinds, n, rng, nullable=True, null_prob=0.2, force_slice=False,
                  distinct=None, long_values=False):
    """(array, top-level field nullability): a random column of about `n` rows whose leaf
    has type `leaf_type`, wrapped in `kinds` layers (innermost first). With `nullable`, every
    layer is nullable (with nulls); without, nothing is nullable and there are no nulls."""
    leaf_n = n
    for k in kinds:
        leaf_n = leaf_n * (2 if k != "struct" else 1) + 3
    p = null_prob if nullable else 0.0
    if pa.types.is_null(leaf_type) and not nullable:
        raise ValueError("a null-type column is always nullable")
    arr = random_array(leaf_type, leaf_n + 6, rng, p, distinct, long_values)
    arr = _maybe_slice(arr, rng, force_slice)
    for k in kinds:
        arr = wrap(arr, k, nullable, p, rng, force_slice)
    return arr, nullable
