"""The cases of `make bench-compute` (docs/benchmarks.md section 6): the
kernels, their seeded inputs, the correctness gate's expected results, and
the run's arithmetic (calls per timing, the time plan, GB/s). No peer
process is started here; bench/peers/compute_run.py runs the cases.

Two sections:
  seed   the ARROW-11045 table (arrow-rs's MutableBuffer change; arrow/benches
         names in parentheses) at its sizes: add 512 and subtract 512 (f32,
         arithmetic_kernels), bitmap AND / OR of 40,960 bits (buffer_bit_ops,
         here and_ / or_ on boolean arrays without nulls), six numeric casts
         at 512 with 10% nulls (cast_kernels: the first six of the file),
         concat of two 1,024-string arrays (concatenate_kernel "concat str
         1024"), equality with nulls at 512 (equal.rs "equal_nulls_512", the
         whole-array equality of two equal f32 arrays with 50% nulls; and the
         element-wise `equal` kernel on the same sizes), filter of u8 with
         1023 of 1024 rows kept at 65,536, once per call and through a
         reusable filter context (filter_kernels), LIKE 'xxxx', LIKE 'xxxx%'
         and NOT LIKE 'xxxx' on 65,536 strings (comparison_kernels), min of
         512 strings and sum of 512 f32 (aggregate_kernels), take of 1,024
         strings with 50% null indices and 50% null values (take_kernels).
  size   every kernel above (and is_in) at 65,536 and 1,048,576 rows with 0%
         and 10% nulls (in every input column but filter masks).
"""

import hashlib
import math

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

SIZES = (65_536, 1_048_576)
NULL_DENSITIES = (0.0, 0.1)
QUICK_SIZES = (65_536,)
QUICK_NULLS = (0.1,)
SEED = 42
# Strings: alphanumeric, lengths uniform 0..31; 10% exactly "xxxx", 10%
# starting with it, so that LIKE's results are not all false.
ALNUM = np.frombuffer(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", np.uint8)
MAX_STRING = 32
IS_IN_SET = list(range(0, 1000, 20))  # 50 values; is_in's values are uniform in [0, 1000)


# ---------------------------------------------------------------------------
# Seeded columns.

def rng_for(*key):
    """A generator seeded by SEED and the case's key (the same input for the
    same case in every run)."""
    h = hashlib.sha256(repr((SEED,) + key).encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


def valid_mask(rng, n, null_density):
    """True where a row is valid (a null where a uniform draw < density)."""
    return rng.random(n) >= null_density if null_density > 0 else np.ones(n, bool)


def with_nulls(values, valid, type_=None):
    if valid.all():
        return pa.array(values, type_)
    return pa.array(values, type_, mask=~valid)


def strings(rng, n, null_density):
    lengths = rng.integers(0, MAX_STRING, n)
    kind = rng.random(n)
    lengths[kind < 0.1] = 4                                     # exactly "xxxx"
    lengths[(kind >= 0.1) & (kind < 0.2)] = np.maximum(lengths[(kind >= 0.1) & (kind < 0.2)], 4)
    offsets = np.zeros(n + 1, np.int32)
    offsets[1:] = np.cumsum(lengths)
    data = ALNUM[rng.integers(0, len(ALNUM), int(offsets[-1]))]
    starts = offsets[:-1][kind < 0.2]
    for k in range(4):
        data[starts + k] = ord("x")
    valid = valid_mask(rng, n, null_density)
    bitmap = None if valid.all() else pa.py_buffer(np.packbits(valid, bitorder="little"))
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data), bitmap,
                                       int(n - valid.sum()))


def floats(rng, n, null_density):
    return with_nulls(rng.random(n, np.float32), valid_mask(rng, n, null_density))


def float_pair(rng, n, null_density):
    """b equals a in about half of the rows (equal has both answers)."""
    a = rng.random(n, np.float32)
    b = np.where(rng.random(n) < 0.5, a, rng.random(n, np.float32))
    return {"a": with_nulls(a, valid_mask(rng, n, null_density)),
            "b": with_nulls(b, valid_mask(rng, n, null_density))}


def bool_pair(rng, n, null_density):
    return {c: with_nulls(rng.random(n) < 0.5, valid_mask(rng, n, null_density))
            for c in ("a", "b")}


def equal_pair(rng, n, null_density):
    """Two equal arrays (two columns of the file: separate buffers in every
    peer, so whole-array equality does all its work)."""
    a = floats(rng, n, null_density)
    return {"a": a, "b": a}


def cast_source(source):
    """The inputs of a cast: int32 in [0, 2^24) (exact in float32, in range
    for uint32) or float32 holding integers in (-2^24, 2^24): every target
    takes every value under each library's safe cast."""
    def make(rng, n, null_density):
        valid = valid_mask(rng, n, null_density)
        if source == "int32":
            return {"a": with_nulls(rng.integers(0, 1 << 24, n, np.int32), valid)}
        v = rng.integers(-(1 << 24) + 1, 1 << 24, n).astype(np.float32)
        return {"a": with_nulls(v, valid)}
    return make


def filter_input(rng, n, null_density):
    """u8 values; a mask without nulls keeping 1023 of 1024 rows (arrow-rs's
    "high selectivity")."""
    values = with_nulls(rng.integers(0, 256, n, np.uint8), valid_mask(rng, n, null_density))
    return {"values": values, "mask": pa.array(rng.random(n) < 1 - 1 / 1024)}


def take_input(rng, n, null_density):
    """Strings and uint32 indices uniform over the rows, nulls in both."""
    values = strings(rng, n, null_density)
    idx = with_nulls(rng.integers(0, n, n, np.uint32), valid_mask(rng, n, null_density))
    return {"values": values, "indices": idx}


def is_in_input(rng, n, null_density):
    return {"a": with_nulls(rng.integers(0, 1000, n, np.int32), valid_mask(rng, n, null_density))}


def one(make_col):
    return lambda rng, n, null_density: {"a": make_col(rng, n, null_density)}


def two(make_col):
    return lambda rng, n, null_density: {"a": make_col(rng, n, null_density),
                                         "b": make_col(rng, n, null_density)}


# ---------------------------------------------------------------------------
# Kernels.

class Kernel:
    """One kernel of the matrix: its protocol `name`, the input columns it
    takes (in order), its arguments, the generator of its input file, the
    expected result (pyarrow.compute, the judge) and how the gate compares
    (exact: Array.equals; value: the Python values of a one-row aggregate;
    approx: one float within a relative 1e-3, for sums that arrow-rs keeps
    in float32)."""

    def __init__(self, key, name, label, columns, make, expected, gate="exact", args=None,
                 moves_bytes=False):
        self.key, self.name, self.label, self.columns = key, name, label, columns
        self.make, self.expected, self.gate = make, expected, gate
        self.args = args or {}
        self.moves_bytes = moves_bytes  # filter, take: GB/s at 1,048,576 rows


# The first six numeric casts of arrow-rs's arrow/benches/cast_kernels.rs.
CASTS = [("int32", "int32"), ("int32", "uint32"), ("int32", "float32"), ("int32", "float64"),
         ("int32", "int64"), ("float32", "int32")]
SHORT = {"int32": "i32", "uint32": "u32", "float32": "f32", "float64": "f64", "int64": "i64"}


def _cast(to):
    return lambda c, args: pc.cast(c["a"], to)


def _like(c, args):
    return pc.match_like(c["a"], args["pattern"])


KERNELS = {k.key: k for k in [
    Kernel("add", "add", "add f32", ["a", "b"], float_pair, lambda c, a: pc.add(c["a"], c["b"])),
    Kernel("subtract", "subtract", "subtract f32", ["a", "b"], float_pair,
           lambda c, a: pc.subtract(c["a"], c["b"])),
    Kernel("and", "and", "and_ bool", ["a", "b"], bool_pair, lambda c, a: pc.and_(c["a"], c["b"])),
    Kernel("or", "or", "or_ bool", ["a", "b"], bool_pair, lambda c, a: pc.or_(c["a"], c["b"])),
    *[Kernel(f"cast_{SHORT[src]}_{SHORT[to]}", "cast", f"cast {src} to {to}", ["a"],
             cast_source(src), _cast(pa.type_for_alias(to)), args={"to": to})
      for src, to in CASTS],
    Kernel("concat", "concat", "concat str (two arrays)", ["a", "b"], two(strings),
           lambda c, a: pa.concat_arrays([c["a"], c["b"]])),
    Kernel("array_equals", "array_equals", "array equality f32", ["a", "b"], equal_pair,
           lambda c, a: pa.array([c["a"].equals(c["b"])]), gate="value"),
    Kernel("equal", "equal", "equal f32 (element-wise)", ["a", "b"], float_pair,
           lambda c, a: pc.equal(c["a"], c["b"])),
    Kernel("filter", "filter", "filter u8 high selectivity", ["values", "mask"], filter_input,
           lambda c, a: pc.filter(c["values"], c["mask"]), moves_bytes=True),
    Kernel("filter_context", "filter_context", "filter context u8 high selectivity",
           ["values", "mask"], filter_input, lambda c, a: pc.filter(c["values"], c["mask"]),
           moves_bytes=True),
    Kernel("like_equals", "like", "LIKE 'xxxx' (equals)", ["a"], one(strings), _like,
           args={"pattern": "xxxx"}),
    Kernel("like_prefix", "like", "LIKE 'xxxx%' (starts with)", ["a"], one(strings), _like,
           args={"pattern": "xxxx%"}),
    Kernel("not_like", "not_like", "NOT LIKE 'xxxx'", ["a"], one(strings),
           lambda c, a: pc.invert(_like(c, a)), args={"pattern": "xxxx"}),
    Kernel("min_string", "min", "min of strings", ["a"], one(strings),
           lambda c, a: pa.array([pc.min(c["a"]).as_py()]), gate="value"),
    Kernel("sum", "sum", "sum f32", ["a"], one(floats),
           lambda c, a: pa.array([pc.sum(c["a"]).as_py()]), gate="approx"),
    Kernel("take", "take", "take str (null indices, null values)", ["values", "indices"],
           take_input, lambda c, a: pc.take(c["values"], c["indices"]), moves_bytes=True),
    Kernel("is_in", "is_in", "is_in int32 (50 values)", ["a"], is_in_input,
           lambda c, a: pc.is_in(c["a"], value_set=pa.array(a["value_set"], pa.int32())),
           args={"value_set": IS_IN_SET}),
]}

# The ARROW-11045 table: (kernel, rows, null density, its name there).
SEED_CASES = [
    ("add", 512, 0.0, "add 512"),
    ("subtract", 512, 0.0, "subtract 512"),
    ("or", 40_960, 0.0, "buffer_bit_ops or (40,960 bits)"),
    ("and", 40_960, 0.0, "buffer_bit_ops and (40,960 bits)"),
    ("cast_i32_i32", 512, 0.1, "cast int32 to int32 512"),
    ("cast_i32_u32", 512, 0.1, "cast int32 to uint32 512"),
    ("cast_i32_f32", 512, 0.1, "cast int32 to float32 512"),
    ("cast_i32_f64", 512, 0.1, "cast int32 to float64 512"),
    ("cast_i32_i64", 512, 0.1, "cast int32 to int64 512"),
    ("cast_f32_i32", 512, 0.1, "cast float32 to int32 512"),
    ("concat", 1024, 0.0, "concat str 1024"),
    ("array_equals", 512, 0.5, "equal_nulls_512"),
    ("equal", 512, 0.5, "eq f32 512 with nulls (element-wise)"),
    ("filter", 65_536, 0.0, "filter u8 high selectivity"),
    ("filter_context", 65_536, 0.0, "filter context u8 high selectivity"),
    ("like_equals", 65_536, 0.0, "like_utf8 scalar equals"),
    ("like_prefix", 65_536, 0.0, "like_utf8 scalar starts with"),
    ("not_like", 65_536, 0.0, "nlike_utf8 scalar equals"),
    ("min_string", 512, 0.0, "min string 512"),
    ("sum", 512, 0.0, "sum 512"),
    ("take", 1024, 0.5, "take str null indices null values 1024"),
]


class CaseSpec:
    """One case: a kernel on one input (rows, null density)."""

    def __init__(self, section, kernel, rows, nulls, title):
        self.section, self.kernel, self.rows, self.nulls = section, kernel, rows, nulls
        self.title = title

    @property
    def label(self):
        return f"{self.rows} rows, {self.nulls:.0%} nulls"

    @property
    def input_name(self):
        return f"{self.kernel.key}.{self.rows}.{round(self.nulls * 100)}"

    def columns(self):
        """{name: pyarrow array}: the case's input, the same in every run."""
        return self.kernel.make(rng_for(self.kernel.key, self.rows, self.nulls), self.rows,
                                self.nulls)


def case_specs(quick=False):
    """The seed cases, then every kernel at each size and null density
    (--quick: at 65,536 rows with 10% nulls only)."""
    out = [CaseSpec("seed", KERNELS[k], rows, nulls, title) for k, rows, nulls, title in SEED_CASES]
    for kernel in KERNELS.values():
        for rows in QUICK_SIZES if quick else SIZES:
            for nulls in QUICK_NULLS if quick else NULL_DENSITIES:
                out.append(CaseSpec("size", kernel, rows, nulls, kernel.label))
    return out


# ---------------------------------------------------------------------------
# The gate: a peer's result file against pyarrow.compute's result.

def check_result(got, want, gate):
    """(ok, message) of a peer's result (a pyarrow array) against the
    expected one."""
    if gate == "exact":
        if got.type != want.type:
            return False, f"type {got.type}, expected {want.type}"
        if not got.equals(want):
            diff = next((i for i in range(len(want)) if i >= len(got)
                         or got[i].as_py() != want[i].as_py()), len(want))
            return False, (f"{len(got)} rows (expected {len(want)}); first difference at row "
                           f"{diff}")
        return True, ""
    g, w = got.to_pylist(), want.to_pylist()
    if len(g) != 1:
        return False, f"{len(g)} rows, expected one"
    if gate == "approx":
        if g[0] is None or w[0] is None:
            return (g[0] is w[0]), f"{g[0]!r}, expected {w[0]!r}"
        ok = math.isclose(g[0], w[0], rel_tol=1e-3, abs_tol=1e-6)
        return ok, "" if ok else f"{g[0]!r}, expected {w[0]!r} (relative 1e-3)"
    return (g == w), "" if g == w else f"{g[0]!r}, expected {w[0]!r}"


# ---------------------------------------------------------------------------
# Calls per timing, the plan, throughput.

MAX_ITERS = 10_000_000


def iters_for(seconds_per_call, target_s, max_iters=MAX_ITERS):
    """Calls per timing so that one timing lasts about `target_s` (at least
    one call; a call that takes longer than the target is timed alone)."""
    if seconds_per_call <= 0:
        return max_iters
    return int(min(max_iters, max(1, round(target_s / seconds_per_call))))


# Timings of one arm in a case besides its rounds, in units of the target:
# calibration (three short timings a pass, the last pass about half the
# target), the gate's run, one or two warm-ups, and the floor (empty calls,
# calibrated and timed three times, at most a fifth of the target each).
FIXED_TIMINGS = 6


def plan(n_cases_by_arms, target_s, r_min, r_max, overhead_s=0.02):
    """(least, most) seconds of a run: for each case (given by its number of
    arms), every arm runs FIXED_TIMINGS timings and R_MIN to R_MAX rounds,
    each a timing of about `target_s` plus the protocol's overhead."""
    per = target_s + overhead_s
    least = sum(arms * (FIXED_TIMINGS + r_min) * per for arms in n_cases_by_arms)
    most = sum(arms * (FIXED_TIMINGS + r_max) * per for arms in n_cases_by_arms)
    return least, most


def target_for(n_cases_by_arms, budget_s, r_min, r_max, default_s, overhead_s=0.02):
    """The longest timing up to `default_s` that keeps the worst case of the
    plan (every case at R_MAX rounds) within `budget_s`."""
    units = sum(arms * (FIXED_TIMINGS + r_max) for arms in n_cases_by_arms)
    if units == 0:
        return default_s
    return max(0.001, min(default_s, budget_s / units - overhead_s))


def project(spent_s, done_units, done_s, remaining_units):
    """The run's projected end (seconds from its start): the time spent,
    plus what remains at the seconds per planned unit seen so far."""
    if done_units <= 0:
        return spent_s
    return spent_s + done_s / done_units * remaining_units


def bytes_moved(columns, result):
    """The bytes a filter or take reads and writes: every input column's
    buffers and the result's (pyarrow's nbytes)."""
    return sum(c.nbytes for c in columns) + result.nbytes


def gbps(nbytes, seconds):
    return nbytes / seconds / 1e9 if seconds else None
