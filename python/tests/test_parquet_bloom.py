"""Bloom filters: Quiver's equal pyarrow's byte for byte (same hash, same sizing for the
distinct values actually written, same placement in the file's metadata), judged by an
independent reader of the column metadata (parquet_pages)."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parquet_pages as pp
import quiver


def _blooms(data):
    """(column path, bloom filter bytes or None) for every column chunk."""
    fs = pp.read_structure(data)
    out = []
    for rg in fs.row_groups:
        for c in rg.columns:
            md = c.raw.get(3)
            off, length = md.get(14), md.get(15)
            out.append((c.path, None if off is None else bytes(data[off:off + length])))
    return out


def _column(rng, typ, n, cardinality, nulls):
    keys = rng.integers(0, cardinality, n)
    valid = rng.random(n) >= nulls
    if pa.types.is_dictionary(typ):
        values = pa.array([f"category-{k}" for k in range(cardinality)])
        return pa.DictionaryArray.from_arrays(pa.array(keys, pa.int32(), mask=~valid), values)
    if pa.types.is_string(typ) or pa.types.is_large_string(typ):
        return pa.array([f"value {k}" if v else None for k, v in zip(keys, valid)], typ)
    if pa.types.is_binary(typ):
        return pa.array([bytes([k % 256]) * (k % 7) if v else None for k, v in zip(keys, valid)], typ)
    if pa.types.is_fixed_size_binary(typ):
        return pa.array([int(k).to_bytes(8, "little") if v else None for k, v in zip(keys, valid)], typ)
    if pa.types.is_floating(typ):
        return pa.array(np.where(valid, keys / 7.0, np.nan), typ, mask=~valid)
    if pa.types.is_decimal(typ):
        import decimal
        return pa.array([decimal.Decimal(int(k)) / 100 if v else None for k, v in zip(keys, valid)], typ)
    if pa.types.is_date32(typ):
        return pa.array(keys.astype(np.int32), pa.int32(), mask=~valid).view(typ)
    return pa.array(keys, pa.int64(), mask=~valid).cast(typ)


TYPES = [pa.int32(), pa.int64(), pa.uint32(), pa.float32(), pa.float64(), pa.date32(),
         pa.timestamp("ms"), pa.string(), pa.large_string(), pa.binary(), pa.binary(8),
         pa.decimal128(20, 2), pa.dictionary(pa.int32(), pa.string())]


@pytest.mark.parametrize("typ", TYPES, ids=str)
@pytest.mark.parametrize("cardinality,nulls", [(5, 0.0), (300, 0.2), (20000, 0.0)],
                         ids=["low", "mid", "high"])
@pytest.mark.parametrize("dictionary", [True, False], ids=["dict", "plain"])
def test_bloom_filter_bytes_equal_pyarrow(tmp_path, typ, cardinality, nulls, dictionary):
    rng = np.random.default_rng(cardinality + 17)
    n = 20000
    table = pa.table({"x": _column(rng, typ, n, cardinality, nulls),
                      "y": pa.array(np.arange(n), pa.int64())})
    opts = dict(use_dictionary=dictionary, row_group_size=8000, dictionary_pagesize_limit=4096,
                bloom_filter_options={"x": {"ndv": 5000, "fpp": 0.01}, "y": {}})
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    quiver.write_parquet(table, str(q), **opts)
    pq.write_table(table, p, store_decimal_as_integer=True, **opts)
    got, want = _blooms(q.read_bytes()), _blooms(p.read_bytes())
    assert [g[0] for g in got] == [w[0] for w in want]
    assert all(w[1] is not None for w in want)
    for (path, g), (_, w) in zip(got, want):
        assert g == w, f"{path}: Quiver's filter ({len(g or b'')} B) differs from pyarrow's ({len(w)} B)"
    # Dictionaries come back in a different order (Quiver's follows first appearance).
    assert pq.read_table(q).to_pylist() == pq.read_table(p).to_pylist()


def test_filter_sizes_follow_pyarrow_folding(tmp_path):
    """Filters are sized as Arrow C++ sizes them: allocated for the ndv option, filled,
    then folded while the estimated false-positive probability stays within fpp. Exact
    sizing for the distinct count differs from it near size boundaries (e.g. 434 values,
    ndv 1000, fpp 0.2: 256 vs 512 bytes); this sweep keeps the two writers equal."""
    rng = np.random.default_rng(3)
    for ndv in (None, 1000, 50000):
        for n in sorted({int(x) for x in np.geomspace(200, 60000, 40)} | {434}):
            fpp = float(rng.choice([0.05, 0.01, 0.1, 0.2]))
            table = pa.table({"x": pa.array(rng.integers(0, 1 << 62, n))})
            o = {"fpp": fpp} if ndv is None else {"fpp": fpp, "ndv": ndv}
            q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
            quiver.write_parquet(table, str(q), bloom_filter_options={"x": o}, use_dictionary=False)
            pq.write_table(table, p, bloom_filter_options={"x": o}, use_dictionary=False)
            assert _blooms(q.read_bytes()) == _blooms(p.read_bytes()), (ndv, n, fpp)


@pytest.mark.parametrize("typ", [pa.int64(), pa.float32(), pa.string(), pa.binary(8)], ids=str)
@pytest.mark.parametrize("dictionary", [True, False], ids=["dict", "plain"])
def test_bloom_filter_of_null_values_equals_pyarrow(tmp_path, typ, dictionary):
    """Column chunks with no value (all null, or a row group of nulls between row groups
    with values): the filter is made at the first value, and a chunk without one writes
    what the empty filter sized for ndv folds to (one block, no bit set), as pyarrow does."""
    n = 30000
    values = _column(np.random.default_rng(5), typ, n, 300, 0.0).to_pylist()
    some = [None if 10000 <= i < 20000 else v for i, v in enumerate(values)]  # row group 2: nulls
    table = pa.table({"all_null": pa.array([None] * n, typ), "some": pa.array(some, typ)})
    opts = dict(use_dictionary=dictionary, row_group_size=10000,
                bloom_filter_options={"all_null": {"ndv": 100000, "fpp": 0.05}, "some": {}})
    q, p = tmp_path / "q.parquet", tmp_path / "p.parquet"
    quiver.write_parquet(table, str(q), **opts)
    pq.write_table(table, p, **opts)
    got, want = _blooms(q.read_bytes()), _blooms(p.read_bytes())
    assert len(want) == 6 and all(w[1] is not None for w in want)
    assert got == want
    # (row group by row group: all_null, some) the all-null chunks' filters: one block each
    assert [len(got[k][1]) for k in (0, 2, 4)] == [len(want[0][1])] * 3
    assert len(want[0][1]) < 64
