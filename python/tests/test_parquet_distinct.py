"""write_distinct_count: each column chunk's exact number of distinct non-null values in its
statistics, judged by pyarrow: the chunk's values as pyarrow reads them back (the values as
written: dictionaries decoded, nested leaves flattened under their parents' nulls,
timestamps coerced) counted by pyarrow.compute.count_distinct (mode 'only_valid').

Semantics (src/quiver/parquet/writer/distinct_count_internal.h): nulls are not values (an
all-null chunk counts 0); floating point is compared by its bits, as count_distinct does for
float and double (every NaN payload its own value, -0.0 apart from +0.0); FLOAT16 is counted
by its bits here because pyarrow 26's count_distinct miscounts halffloat
(test_float16_count_distinct_is_counted_by_bits shows it); booleans count 0, 1 or 2.
"""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import quiver
from arrow_samples import NEST_KINDS, nested_column
from test_parquet_write import TYPES


def leaf_values(column, path):
    """The values of the Parquet leaf at dotted `path` (its first part is the column's
    name) of a pyarrow (chunked) array, as Parquet stores them: lists flattened, struct and
    map children under their parents' nulls, dictionaries decoded."""
    arr = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    parts = path.split(".")[1:]
    i = 0
    while True:
        t = arr.type
        if pa.types.is_dictionary(t):
            arr = arr.dictionary_decode()
            continue
        if i == len(parts):
            return arr
        if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
            assert parts[i] == "list" and parts[i + 1] == "element", path
            arr = arr.flatten()
            i += 2
        elif pa.types.is_map(t):
            assert parts[i] == "key_value", path
            # (pyarrow has no list_flatten for maps: the same as a list of its
            # entries. The offsets are copied out of a sliced map's buffer, since
            # from_arrays takes no mask with sliced offsets.)
            child = arr.values.field("key" if parts[i + 1] == "key" else "value")
            offsets = pa.array(arr.offsets.to_numpy(zero_copy_only=False))
            arr = pa.ListArray.from_arrays(offsets, child, mask=arr.is_null()).flatten()
            i += 2
        elif pa.types.is_struct(t):
            names = [t.field(k).name for k in range(t.num_fields)]
            arr = arr.flatten()[names.index(parts[i])]
            i += 1
        else:
            raise AssertionError(f"{path}: nothing below {t}")


def count_distinct(values):
    """pc.count_distinct (only valid values) of a leaf's values, by bits for float16;
    views as their non-view types (count_distinct has no view kernel); null type: 0."""
    t = values.type
    if pa.types.is_null(t):
        return 0
    if pa.types.is_float16(t):
        return pc.count_distinct(values.drop_null().view(pa.uint16())).as_py()
    if pa.types.is_string_view(t):
        values = values.cast(pa.string())
    elif pa.types.is_binary_view(t):
        values = values.cast(pa.binary())
    return pc.count_distinct(values).as_py()


def written_and_expected(data):
    """[(row group, column path, distinct_count written, count_distinct of the values)]."""
    f = pq.ParquetFile(pa.BufferReader(data))
    md = f.metadata
    out = []
    for i in range(md.num_row_groups):
        group = f.read_row_group(i)
        for j in range(md.num_columns):
            col = md.row_group(i).column(j)
            path = col.path_in_schema
            stats = col.statistics
            written = stats.distinct_count if stats is not None and stats.has_distinct_count else None
            top = group.column(path.split(".")[0])
            out.append((i, path, written, count_distinct(leaf_values(top, path))))
    return out


def write(table, **options):
    sink = io.BytesIO()
    quiver.write_parquet(table, sink, **options)
    return sink.getvalue()


def assert_counts(table, **options):
    rows = written_and_expected(write(table, write_distinct_count=True, **options))
    for group, path, written, expected in rows:
        assert written == expected, (group, path, written, expected, options)
    return rows


OPTION_SETS = {
    "dictionary": {},
    "plain": {"use_dictionary": False},
    "fallback": {"dictionary_pagesize_limit": 64, "data_page_size": 128, "write_batch_size": 7},
    "cost_fallback": {"dictionary_cost_fallback": True, "max_rows_per_page": 50},
    "cdc": {"use_content_defined_chunking": {"min_chunk_size": 256, "max_chunk_size": 1024}},
    "v2_zstd": {"data_page_version": "2.0", "compression": "zstd"},
    "row_groups": {"row_group_size": 97},
    "threads_row_groups": {"use_threads": True, "row_group_size": 150},
}


@pytest.mark.parametrize("options", list(OPTION_SETS), ids=str)
@pytest.mark.parametrize("type_name", [n for n, _ in TYPES])
def test_every_type(rng, type_name, options):
    """Every leaf type of the writer tests, flat and nested (random layers), nullable or
    not, from several write calls (chunked columns), each chunk of each row group its own
    count, under each encoding choice (the dictionary throughout, off, given up part-way by
    size or by cost, CDC, v2 pages, several row groups, threads)."""
    leaf_type = dict(TYPES)[type_name].type
    for trial in range(2):
        kinds = [rng.choice(NEST_KINDS) for _ in range(trial * rng.randint(1, 2))]
        nullable = pa.types.is_null(leaf_type) or rng.random() < 0.7
        arr, _ = nested_column(leaf_type, kinds, rng.randint(0, 600), rng, nullable, 0.3 if nullable else 0.0,
                               distinct=rng.choice([None, 3, 200]))
        cuts = sorted(rng.sample(range(len(arr) + 1), min(len(arr) + 1, rng.randint(0, 2))))
        bounds = [0] + cuts + [len(arr)]  # several write calls per column
        typ = arr.type
        col = pa.chunked_array([arr.slice(a, b - a) for a, b in zip(bounds, bounds[1:])], typ)
        table = pa.table({"id": pa.array(range(len(col)), pa.int64()), "c": col},
                         schema=pa.schema([pa.field("id", pa.int64(), False), pa.field("c", typ, nullable)]))
        rows = assert_counts(table, **OPTION_SETS[options])
        assert any(p.startswith("c") for _, p, _, _ in rows) or len(table) == 0


def _float_bits_table(dtype, utype, n=5000, seed=3):
    g = np.random.default_rng(seed)
    nbits = np.dtype(utype).itemsize * 8
    mant = {16: 10, 32: 23, 64: 52}[nbits]
    exp_all = ((1 << (nbits - 1 - mant)) - 1) << mant
    sign = np.array(1 << (nbits - 1), dtype=np.uint64).astype(utype)
    specials = np.array([0, int(sign), exp_all | 1, exp_all | (1 << (mant - 1)), exp_all | (1 << (mant - 1)) | 5,
                         int(sign) | exp_all | (1 << (mant - 1))], dtype=np.uint64).astype(utype)
    bits = np.where(g.random(n) < 0.5, specials[g.integers(0, len(specials), n)],
                    np.array(g.normal(size=n) * 100, dtype=dtype).view(utype)[: n])
    mask = g.random(n) < 0.1
    values = pa.array(bits.view(dtype), mask=mask)
    expected = len(set(bits[~mask].tolist()))
    return values, expected


@pytest.mark.parametrize("dtype,utype", [(np.float16, np.uint16), (np.float32, np.uint32),
                                         (np.float64, np.uint64)], ids=["float16", "float32", "float64"])
@pytest.mark.parametrize("options", ["dictionary", "plain", "fallback", "cdc"])
def test_floats_by_their_bits(dtype, utype, options):
    """NaN payloads (signed, quiet and signalling bits), -0.0 and +0.0 are distinct values,
    as count_distinct counts them for float and double."""
    values, expected = _float_bits_table(dtype, utype)
    rows = assert_counts(pa.table({"f": values}), **OPTION_SETS[options])
    assert rows[0][2] == expected, rows
    if dtype is not np.float16:
        assert pc.count_distinct(values).as_py() == expected


def test_float16_count_distinct_is_counted_by_bits():
    """Why FLOAT16 is judged by its bits: pyarrow 26's count_distinct on halffloat counts
    fewer values than there are distinct bit patterns among ordinary numbers (no NaN, no
    zero). If this starts failing, pyarrow is fixed and the judge can use it directly."""
    g = np.random.default_rng(1)
    v = g.standard_normal(1000).astype(np.float16)
    bits = len(set(v.view(np.uint16).tolist()))
    assert pc.count_distinct(pa.array(v)).as_py() < bits


def test_nulls_and_empty_chunks():
    """An all-null chunk counts 0 (nulls are not values); an all-null row group among
    others too; the null type counts 0; an empty table has no row groups to count."""
    table = pa.table({"a": pa.array([None] * 10 + list(range(10)), pa.int32()),
                      "s": pa.array([None] * 10 + ["x"] * 10),
                      "b": pa.array([None] * 10 + [True] * 10),
                      "l": pa.array([None] * 10 + [[None]] * 10, pa.list_(pa.float64())),
                      "n": pa.nulls(20)})
    rows = assert_counts(table, row_group_size=10)
    assert [r[2] for r in rows if r[0] == 0] == [0, 0, 0, 0, 0]
    assert [r[2] for r in rows if r[0] == 1] == [10, 1, 1, 0, 0]
    empty = write(table.slice(0, 0), write_distinct_count=True)
    assert pq.ParquetFile(pa.BufferReader(empty)).metadata.num_row_groups == 0


def test_booleans():
    for values, expected in (([True, None], 1), ([False, False], 1), ([True, False, None], 2), ([None], 0)):
        for options in ({}, {"data_page_version": "2.0"}, {"max_rows_per_page": 1, "write_batch_size": 1}):
            rows = assert_counts(pa.table({"b": pa.array(values, pa.bool_())}), **options)
            assert rows[0][2] == expected


def test_arrow_dictionary_counts_the_entries_used():
    """An Arrow dictionary column written as is (its entries become the dictionary page,
    used or not): only the entries the rows use count, an entry used only under a null does
    not; two chunks with different dictionaries (the second makes the chunk fall back to
    PLAIN) count the values of both once; a dictionary with a repeated value too."""
    d1 = pa.array(["a", "b", "c", "d", "unused"])
    first = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 3, 1], pa.int32()), d1)
    hidden_index = pa.Array.from_buffers(pa.int32(), 2, [pa.array([True, False]).buffers()[1],
                                                         pa.py_buffer(np.array([0, 2], np.int32).tobytes())])
    hidden = pa.DictionaryArray.from_arrays(hidden_index, d1)  # "c" under a null slot
    second = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2, 1], pa.int32()), pa.array(["d", "e", "a"]))
    repeated = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2], pa.int32()), pa.array(["x", "y", "x"]))
    typ = first.type
    for bloom in (None, True):
        extra = {"bloom_filter_options": bloom} if bloom else {}
        cases = [([first], 3), ([first, hidden], 3), ([first, second], 4), ([repeated], 2),
                 ([repeated, first], 5), ([first, repeated], 5)]
        for chunks, expected in cases:
            rows = assert_counts(pa.table({"c": pa.chunked_array(chunks, typ)}), **extra)
            assert rows[0][2] == expected, (chunks, rows)


def test_coerced_timestamps_count_as_written():
    """Two nanoseconds truncated into one microsecond are one value."""
    t = pa.table({"t": pa.array([1000, 1001, 1999, 2000, -1, 0, None], pa.timestamp("ns"))})
    assert assert_counts(t)[0][2] == 6
    assert assert_counts(t, coerce_timestamps="us", allow_truncated_timestamps=True)[0][2] == 3


def test_off_by_default_and_with_statistics_only():
    table = pa.table({"a": [1, 2, 2], "s": ["x", "y", "x"]})
    md = pq.ParquetFile(pa.BufferReader(write(table))).metadata
    assert not any(md.row_group(0).column(j).statistics.has_distinct_count for j in range(2))
    # Statistics for one column: the count goes there only.
    md = pq.ParquetFile(pa.BufferReader(write(table, write_distinct_count=True, write_statistics=["s"]))).metadata
    assert md.row_group(0).column(0).statistics is None
    assert md.row_group(0).column(1).statistics.distinct_count == 2
    # No statistics at all: the count has nowhere to go, refused.
    with pytest.raises(quiver.InvalidError, match="write_distinct_count"):
        write(table, write_distinct_count=True, write_statistics=False)
    with pytest.raises(quiver.InvalidError, match="write_distinct_count"):
        write(table, write_distinct_count=1)


def test_large_random_chunks(rng):
    """Chunks of tens of thousands of values of many distinct values (memo tables grow,
    dictionaries fall back at the default 1 MiB limit)."""
    g = np.random.default_rng(rng.seed_value)
    n = 200_000
    table = pa.table({
        "i": pa.array(g.integers(0, 150_000, n)),
        "s": pa.array([f"v{x}" for x in g.integers(0, 90_000, n)]),
        "d": pa.array(g.integers(0, 1000, n) / 7),
    })
    for options in ({}, {"use_dictionary": False}, {"row_group_size": 60_000, "use_threads": True}):
        assert_counts(table, **options)
