"""Requests a filtered read of ONE file makes on a local S3 server (moto, the
fixture of test_filesystems_s3.py, which counts every request on the server),
and the table judged by pyarrow's decode-then-filter:

    pq.read_table(f, columns=needed).filter(pq.filters_to_expression(F))

The file (pyarrow, 4 row groups of 50,000 rows, 8 KB pages, page index, no
dictionary, no compression) is laid out k, v, s, r, u. A filtered read asks
for the footer, the page index of the row groups the statistics keep (one
request), then per row group the filter column's bytes (its chunk, or the
pages the page index kept) in one coalesced request and the other columns'
pages the matches touch in another: a plain read's request a row group, plus
one (no request for the page index when the footer's suffix read holds it). Before this change a filtered read fetched each
column's offset index again and each column's pages by their own requests
(issue 46 §6: 6 GETs for 2 columns of one file, 19 for all)."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from test_filesystems_s3 import BUCKET, s3, s3_reads  # noqa: F401 - s3 is a fixture

import quiver

GROUP_ROWS = 50_000
GROUPS = 4
KEY = "filtered-requests.parquet"


def make_table():
    n = GROUP_ROWS * GROUPS
    rng = np.random.default_rng(46)
    i = np.arange(n, dtype=np.int64)
    return pa.table({
        "k": i,
        "v": rng.random(n),
        "s": pa.array([f"value-{x}" for x in rng.integers(0, 10**8, n)]),
        "r": rng.integers(0, 1000, n).astype(np.int32),
        "u": ((i * 7919) % 1000).astype(np.int32),
    })


@pytest.fixture(scope="module")
def remote(s3):  # noqa: F811 - the fixture
    table = make_table()
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, row_group_size=GROUP_ROWS, data_page_size=8000,
                   write_batch_size=1000, write_page_index=True, use_dictionary=False,
                   compression="none")
    data = sink.getvalue().to_pybytes()
    s3["client"].put_object(Bucket=BUCKET, Key=KEY, Body=data)
    return table, data


# name: (filters, columns, GETs with the footer's). The page index lies in
# the footer's 64 KiB suffix read, whose page index bytes a filtered read
# holds: no request for it.
CASES = {
    # The footer, then one request a row group (its chunks are contiguous).
    "plain": (None, None, 1 + GROUPS),
    # Half the rows, scattered: no row group or page pruned. u's chunk a
    # row group: as many requests as the plain read (before: 13).
    "one_column": ([("u", "<", 500)], ["u"], 1 + GROUPS),
    # ... and the other columns' chunks (contiguous: k, v, s, r) a row
    # group (before: 29).
    "all_columns": ([("u", "<", 500)], None, 1 + 2 * GROUPS),
    # 0.1% of a sorted column: the statistics keep row group 1, its column
    # index one page of k; then the page of each other column holding the
    # rows (four chunks far apart: four requests; before: 13).
    "page_pruning": ([("k", ">=", 60_000), ("k", "<", 60_200)], None, 1 + 1 + 4),
}


def expected(data, filters, columns):
    """pyarrow's decode-then-filter of the file's bytes."""
    names = columns if columns is not None else pq.read_schema(pa.BufferReader(data)).names
    needed = list(dict.fromkeys(list(names) + [f[0] for f in filters]))
    want = pq.read_table(pa.BufferReader(data), columns=needed)
    return want.filter(pq.filters_to_expression(filters)).select(names)


def read(s3, filters, columns, use_threads):  # noqa: F811 - the fixture
    s3["counter"].take()
    got = quiver.read_table(f"s3://{BUCKET}/{KEY}", columns=columns, filters=filters,
                            use_threads=use_threads)
    gets, body = s3_reads(s3["counter"].take())
    return pa.table(got), gets, body


@pytest.mark.parametrize("use_threads", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
def test_requests_of_a_filtered_read(s3, remote, case, use_threads):  # noqa: F811
    table, data = remote
    filters, columns, want_gets = CASES[case]
    got, gets, body = read(s3, filters, columns, use_threads)
    if filters is None:
        assert got.equals(table)
    else:
        assert got.equals(expected(data, filters, columns))
    assert len(gets) == want_gets, [e[2] for e in gets]
    # No byte asked for twice after the footer's suffix read (of which a
    # read reuses only the page index, as Arrow C++ reuses none: the last
    # chunks may overlap it).
    spans = sorted(tuple(int(x) for x in e[2][len("bytes="):].split("-")) for e in gets[1:])
    for (_, end), (begin, _) in zip(spans, spans[1:]):
        assert end < begin, spans


@pytest.mark.parametrize("use_threads", [False, True])
def test_selective_scattered_read(s3, remote, use_threads):  # noqa: F811
    """About 0.1% of the rows, scattered (r == 7): no page is pruned by the
    index; the payload's requests hold the pages around the matches (and
    skipped pages only inside 8 KiB holes): fewer bytes than reading r, k, v
    and s whole, and at most a request per payload column and row group
    beyond r's chunks."""
    table, data = remote
    filters, columns = [("r", "==", 7)], ["k", "v", "s"]
    got, gets, body = read(s3, filters, columns, use_threads)
    assert got.equals(expected(data, filters, columns))
    assert 0 < got.num_rows < table.num_rows // 500
    _, plain_gets, plain_body = read(s3, None, ["k", "v", "s", "r"], use_threads)
    assert len(plain_gets) == 1 + GROUPS
    assert body < plain_body
    # At most a request per match and payload column besides the footer and
    # r's chunks; measured 80 here (before this change: 178, each column's
    # pages fetched by their own requests).
    assert len(gets) <= 1 + GROUPS + 3 * got.num_rows
    assert len(gets) <= 90, [e[2] for e in gets]
