"""Quiver's demo on built-in data: `python -m quiver.demo` (what `make demo` runs).

Builds a seeded table (ints, floats with nulls, strings, a list<int32>
column; 2,100,000 rows), then, in four sections:
1. writes it as Parquet with Quiver and with pyarrow, same options, pyarrow
   single-threaded: the median wall time of interleaved runs, and the ratio;
2. reads Quiver's file back with both, the same way;
3. writes it with content-defined chunking (CDC) + zstd, applies four edits
   (insert 1% of rows in the middle, delete 1%, update a column over 1% of the
   rows, append 1%), writes each edited table with and without CDC, and prints
   how much of each edited file a deduplicating store holding the original
   already has (Quiver's own measurement, quiver._quiver.dedup_compare);
4. has pyarrow, duckdb and polars read every file Quiver wrote and compares
   each with its source table; the first difference exits non-zero.

numpy and pyarrow build the tables; pyarrow, duckdb and polars are the judges.
None of them is a dependency of the quiver package: the demo says what is
missing (they are pinned in python/requirements.txt; `make demo` installs
them). make_rows() and edits() are shared with examples/cdc_dedup_demo.py.
"""
import argparse
import concurrent.futures
import os
import statistics
import sys
import tempfile
import time

import quiver

try:
    import numpy as np
    import pyarrow as pa
except ImportError as e:  # pragma: no cover - depends on the environment
    raise SystemExit(f"quiver.demo needs numpy and pyarrow ({e}); they are pinned in "
                     "python/requirements.txt (`make demo` installs them into .venv)") from e

# 2.1 million rows: the whole demo takes about 38 s on an idle 2-core machine
# (2026-12-02, after the reader's speed work; 1.2 million rows took 32 to 34 s
# on a busy one before it). About half of it is the three readers reading
# every file.
# 1% of them (21,000) is deliberately not a multiple of max_rows_per_page
# (20,000): an insertion of exactly whole pages (2,000,000 rows: 20,000) leaves
# the later page boundaries of a file written without CDC where they were,
# which flatters the no-CDC case.
DEFAULT_ROWS = 2_100_000
DEFAULT_SEED = 20261202

WORDS = pa.array(
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut "
    "labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris "
    "nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse "
    "cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui "
    "officia deserunt mollit anim id est laborum".split())
CITIES = pa.array(["Lisbon", "Oslo", "Quito", "Hanoi", "Nairobi", "Perth", "Lima", "Riga",
                   "Accra", "Doha", "Kyoto", "Turin", "Cork", "Bergen", "Dakar", "Tartu"])

# The options of the write benchmark, spelled as pyarrow.parquet.write_table
# spells them (Quiver takes the same names). write_page_index is set because
# the defaults differ (Quiver True, pyarrow False).
WRITE_OPTIONS = {
    "compression": "zstd",
    "compression_level": 1,
    "use_dictionary": True,
    "write_statistics": True,
    "write_page_index": True,
    "data_page_version": "1.0",
    "data_page_size": 1 << 20,
    "dictionary_pagesize_limit": 1 << 20,
    "max_rows_per_page": 20_000,
    "write_batch_size": 1024,
    "row_group_size": 1 << 20,
    "store_schema": True,
}


def make_rows(rng, first_id, n):
    """n fresh rows with ids first_id.. (one numpy generator draws every row,
    so the table and every edit are reproducible from the seed):
    id int64, qty int32, price double (2% null), city string, note string
    (2-8 words), tags list<int32> (0-4 items)."""
    import pyarrow.compute as pc

    ids = np.arange(first_id, first_id + n, dtype=np.int64)
    qty = rng.integers(0, 1000, n).astype(np.int32)
    price = np.round(rng.gamma(2.0, 20.0, n), 2)
    city = pc.take(CITIES, pa.array(rng.integers(0, len(CITIES), n)))
    n_words = rng.integers(2, 9, n)
    word_offsets = pa.array(np.concatenate([[0], np.cumsum(n_words)]).astype(np.int32))
    words = pc.take(WORDS, pa.array(rng.integers(0, len(WORDS), int(n_words.sum()))))
    notes = pc.binary_join(pa.ListArray.from_arrays(word_offsets, words), " ")
    n_tags = rng.integers(0, 5, n)
    tag_offsets = np.concatenate([[0], np.cumsum(n_tags)]).astype(np.int32)
    tag_values = pa.array(rng.integers(0, 500, int(tag_offsets[-1])), pa.int32())
    tags = pa.ListArray.from_arrays(pa.array(tag_offsets), tag_values)
    price_arr = pa.array(price, mask=rng.random(n) < 0.02)
    return pa.table({"id": pa.array(ids), "qty": pa.array(qty), "price": price_arr,
                     "city": city, "note": notes, "tags": tags})


def edits(table, rng, near_start=False):
    """[(name, edited table)]: insert 1% of the rows in the middle, delete 1%
    (at 1/3), multiply price by 1.1 on 1% of the rows (from 40%), append 1%;
    near_start adds docs/cdc.md's case, an insertion at 2% of the rows."""
    n = table.num_rows
    k = max(1, n // 100)  # 1% of the rows
    mid = n // 2
    out = [("insert 1% rows in the middle",
            pa.concat_tables([table.slice(0, mid), make_rows(rng, 10**12, k), table.slice(mid)]))]
    if near_start:
        early = n // 50
        out.append(("insert 1% rows near the start",
                    pa.concat_tables([table.slice(0, early), make_rows(rng, 3 * 10**12, k),
                                      table.slice(early)])))
    third = n // 3
    out.append(("delete 1% rows (at 1/3)",
                pa.concat_tables([table.slice(0, third), table.slice(third + k)])))
    lo = int(n * 0.4)
    column = table.column("price").combine_chunks()
    price = column.to_numpy(zero_copy_only=False).copy()
    price[lo:lo + k] = np.round(price[lo:lo + k] * 1.1, 2)
    mask = column.is_null().to_numpy(zero_copy_only=False)
    out.append(("update price x1.1 on 1% rows",
                table.set_column(table.schema.get_field_index("price"), "price",
                                 pa.array(price, mask=mask))))
    out.append(("append 1% rows", pa.concat_tables([table, make_rows(rng, 2 * 10**12, k)])))
    # One contiguous chunk per column, as a freshly built table would be, so
    # that every write (with and without CDC) sees the same write calls.
    return [(name, t.combine_chunks()) for name, t in out]


def mib(n):
    return f"{n / 2**20:.1f} MiB"


def dedup_table(rows):
    """The dedup table's lines: rows are (edit, cdc, file size, dedup_compare's dict)."""
    header = (f"{'edit':<30} {'CDC':<4} {'file':>9} | {'pages shared':>12} {'new':>9} |"
              f" {'chunks shared':>13} {'new':>9}")
    lines = [header, "-" * len(header)]
    for name, cdc, size, r in rows:
        p, b = r["page_level"], r["byte_level"]
        lines.append(f"{name:<30} {'on' if cdc else 'off':<4} {mib(size):>9} |"
                     f" {100 * p['shared_ratio']:>11.1f}% {mib(p['new_bytes']):>9} |"
                     f" {100 * b['shared_ratio']:>12.1f}% {mib(b['new_bytes']):>9}")
    return lines


def _import_judges():
    missing, mods = [], {}
    for name in ("pyarrow.parquet", "duckdb", "polars"):
        try:
            mods[name] = __import__(name, fromlist=["_"])
        except ImportError:
            missing.append(name.split(".")[0])
    if missing:
        sys.exit(f"quiver.demo needs {', '.join(missing)} (the readers it compares against); they "
                 "are pinned in python/requirements.txt (`make demo` installs them into .venv)")
    return mods["pyarrow.parquet"], mods["duckdb"], mods["polars"]


def _interleaved_medians(reps, first, second):
    """Median wall times of two callables run alternately (first, second;
    then second, first; ...), so that neither always runs on a warmer machine."""
    times = ([], [])
    for i in range(reps):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for j in order:
            fn = (first, second)[j]
            t0 = time.perf_counter()
            fn()
            times[j].append(time.perf_counter() - t0)
    return statistics.median(times[0]), statistics.median(times[1])


def _first_difference(got, want):
    """None when the table got equals want (types cast to want's: other readers
    choose e.g. large_string), else a one-line description of the first difference."""
    if got.num_rows != want.num_rows:
        return f"{got.num_rows:,} rows, expected {want.num_rows:,}"
    if got.column_names != want.column_names:
        return f"columns {got.column_names}, expected {want.column_names}"
    for name in want.column_names:
        g, w = got.column(name), want.column(name)
        if g.type != w.type:
            try:
                g = g.cast(w.type)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
                return f"column {name}: type {g.type}, expected {w.type} ({e})"
        if not g.equals(w):
            g, w = g.combine_chunks(), w.combine_chunks()
            for i in range(len(w)):
                if not g[i].equals(w[i]):
                    return f"column {name}, row {i:,}: {g[i].as_py()!r}, expected {w[i].as_py()!r}"
            return f"column {name} differs"
    return None


def _judges(pq, duckdb, pl):
    """(name, read(path) -> pyarrow.Table) for each reader that checks Quiver's files."""
    def read_duckdb(path):
        with duckdb.connect() as con:
            return pa.table(con.sql(f"select * from read_parquet('{path}')").arrow())

    return [("pyarrow", pq.read_table), ("duckdb", read_duckdb),
            ("polars", lambda path: pl.read_parquet(path).to_arrow())]


def _print_times(tq, tp, notes=("", "")):
    print(f"   Quiver   {tq:6.2f} s{notes[0]}")
    print(f"   pyarrow  {tp:6.2f} s{notes[1]}")
    print(f"   Quiver/pyarrow time: {tq / tp:.2f} (under 1: Quiver took less time)")


def _benchmark(table, tmp, reps, pq):
    """Sections 1 and 2; returns the path of Quiver's file (None if reading it
    back with Quiver gave a different table)."""
    q_path, p_path = os.path.join(tmp, "quiver.parquet"), os.path.join(tmp, "pyarrow.parquet")
    print(f"\n1. Write ({WRITE_OPTIONS['compression']}, dictionary, statistics, page index; "
          f"median of {reps} interleaved runs)")
    tq, tp = _interleaved_medians(
        reps,
        lambda: quiver.write_parquet(table, q_path, use_threads=False, **WRITE_OPTIONS),
        lambda: pq.write_table(table, p_path, **WRITE_OPTIONS))
    _print_times(tq, tp, [f"  {mib(os.path.getsize(path)):>9}" for path in (q_path, p_path)])

    print(f"\n2. Read Quiver's file back (median of {reps} interleaved runs)")
    result = {}
    tq, tp = _interleaved_medians(
        reps,
        lambda: result.__setitem__("quiver", quiver.read_table(q_path)),
        lambda: result.__setitem__("pyarrow", pq.read_table(q_path, use_threads=False)))
    _print_times(tq, tp)
    diff = _first_difference(pa.table(result["quiver"]), table)
    if diff:
        print(f"   quiver.read_table differs from the source table: {diff}")
        return None
    return q_path


class _ReaderChecks:
    """Section 4: every judge reads every file Quiver wrote and compares it with
    its source table. The checks start as the files are written (after the
    timed sections), two at a time: the readers and the comparisons release
    the GIL."""

    def __init__(self, pool, judges):
        self.pool, self.judges, self.checks = pool, judges, []

    def add(self, path, source):
        futures = {reader: self.pool.submit(lambda r=read: _first_difference(r(path), source))
                   for reader, read in self.judges}
        self.checks.append((path, futures))

    def report(self):
        """Prints one OK line per reader, or the first difference; True when all are equal."""
        print(f"\n4. pyarrow, duckdb and polars read the {len(self.checks)} files Quiver wrote; "
              "each compared with its source")
        for reader, _ in self.judges:
            for path, futures in self.checks:
                diff = futures[reader].result()
                if diff:
                    print(f"   {reader:<8} {os.path.basename(path)}: {diff}")
                    self.pool.shutdown(cancel_futures=True)
                    return False
            print(f"   {reader:<8} OK: {len(self.checks)} files equal to their source tables")
        return True


def _cdc_dedup(table, edited, tmp, plain_original, check):
    """Section 3; check(path, source table) is called for each file it writes."""
    print("\n3. Content-defined chunking (CDC): edit the table, write it again, and measure what\n"
          "   a deduplicating store holding the original shares (quiver._quiver.dedup_compare)")
    originals = {False: plain_original, True: os.path.join(tmp, "original.cdc.parquet")}
    quiver.write_parquet(table, originals[True], use_content_defined_chunking=True, **WRITE_OPTIONS)
    check(originals[True], table)
    rows = []
    for i, (name, t) in enumerate(edited):
        for cdc in (False, True):
            path = os.path.join(tmp, f"edit{i}.{'cdc' if cdc else 'plain'}.parquet")
            quiver.write_parquet(t, path, use_content_defined_chunking=cdc, **WRITE_OPTIONS)
            check(path, t)
            rows.append((name, cdc, os.path.getsize(path),
                         quiver._quiver.dedup_compare([originals[cdc]], path)))
    for line in dedup_table(rows):
        print("   " + line)
    print("   shared: bytes of the edited file already stored with the original, as Parquet pages\n"
          "   or as FastCDC chunks of the whole file; new: what the store must add.")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m quiver.demo", description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=DEFAULT_ROWS, help=argparse.SUPPRESS)
    ap.add_argument("--reps", type=int, default=3, help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    pq, duckdb, pl = _import_judges()
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    laps = [time.perf_counter()]

    rng = np.random.default_rng(args.seed)
    table = make_rows(rng, 0, args.rows).combine_chunks()
    edited = edits(table, rng)
    laps.append(time.perf_counter())
    print(f"Quiver demo: {table.num_rows:,} rows x {table.num_columns} columns, seed {args.seed}, "
          f"{mib(table.nbytes)} in memory")
    print("  " + ", ".join(f"{f.name} {f.type}" for f in table.schema))
    print(f"  {os.cpu_count()} cores; pyarrow {pa.__version__} and Quiver both single-threaded "
          "(set_cpu_count(1), use_threads=False)")

    # The pool is shut down (its checks finished) before the folder is removed.
    with tempfile.TemporaryDirectory(prefix="quiver-demo-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        q_path = _benchmark(table, tmp, args.reps, pq)
        laps.append(time.perf_counter())
        if q_path is None:
            return 1
        checks = _ReaderChecks(pool, _judges(pq, duckdb, pl))
        checks.add(q_path, table)
        _cdc_dedup(table, edited, tmp, q_path, checks.add)
        ok = checks.report()
        laps.append(time.perf_counter())
    if not ok:
        return 1
    spent = ", ".join(f"{name} {b - a:.0f} s" for name, a, b in
                      zip(("table", "1-2", "3-4"), laps, laps[1:]))
    print(f"\ndemo: done in {laps[-1] - laps[0]:.0f} s ({spent})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
