"""Decoding speed on TPC-H lineitem, column by column, and filtered reads:
Quiver, pyarrow and polars side by side, one thread each, in one process.

A spot check between full `make bench-peers` / `make bench-filter` runs (no
arrow-rs, no control arm, no verdicts): the file pyarrow writes (statistics,
page index, 20,000-row pages, as bench-filter's inputs) for each codec, read
from memory (bytes every reader gets: quiver.read_table(bytes),
pq.read_table(pa.BufferReader), pl.read_parquet(BytesIO)); polars is pinned
to one thread (POLARS_MAX_THREADS=1, set before it is imported). Each arm's
time is the median of --rounds runs, the arms interleaved round by round;
every result is checked (row counts equal; whole-file reads equal to
pyarrow's) before timing.

    .venv/bin/python bench/lineitem_decode.py [--sf 0.1] [--rounds 15] [--out FILE]
"""

import argparse
import datetime
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

os.environ["POLARS_MAX_THREADS"] = "1"

import polars as pl  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import quiver  # noqa: E402


def lineitem(sf, workdir):
    exe = shutil.which("tpchgen-cli", path=os.path.dirname(sys.executable) + os.pathsep
                       + os.environ.get("PATH", ""))
    if exe is None:
        sys.exit("tpchgen-cli not found (scripts/install-deps.sh python-bench installs it)")
    out = os.path.join(workdir, "raw")
    subprocess.run([exe, "parquet", "-s", f"{sf:g}", "-T", "lineitem", "-c", "UNCOMPRESSED",
                    "-o", out, "--no-progress", "-q"], check=True)
    table = pq.read_table(os.path.join(out, "lineitem.parquet"))
    fields = [pa.field(f.name, pa.string() if pa.types.is_string_view(f.type) else f.type,
                       f.nullable) for f in table.schema]
    return table.cast(pa.schema(fields))


def file_bytes(table, codec):
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression=codec, write_statistics=True,
                   write_page_index=True, max_rows_per_page=20_000)
    return sink.getvalue().to_pybytes()


def rounds(arms, n):
    """{name: median ms} of the arms run interleaved, n rounds."""
    times = {name: [] for name in arms}
    for _ in range(n):
        for name, fn in arms.items():
            t0 = time.perf_counter()
            fn()
            times[name].append((time.perf_counter() - t0) * 1e3)
    return {name: statistics.median(v) for name, v in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sf", type=float, default=0.1)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--out", help="also write the report here")
    args = ap.parse_args()
    lines = []

    def say(text=""):
        print(text, flush=True)
        lines.append(text)

    with tempfile.TemporaryDirectory() as tmp:
        table = lineitem(args.sf, tmp)
    say(f"# lineitem SF{args.sf:g}: {table.num_rows:,} rows; one thread; median of "
        f"{args.rounds} interleaved rounds, ms ({datetime.date.today()}, quiver "
        f"{quiver.__version__ if hasattr(quiver, '__version__') else ''})")
    partkey = table["l_partkey"]
    quantile = {q: int(pc.quantile(partkey, [q])[0].as_py()) for q in (0.01, 0.1, 0.5)}
    orderkey = table["l_orderkey"]
    okq = {q: int(pc.quantile(orderkey, [q])[0].as_py()) for q in (0.1, 0.5)}
    day = datetime.date(1995, 6, 17)
    filters = {
        "sorted_key@0.1": ([("l_orderkey", "<", okq[0.1])], pl.col("l_orderkey") < okq[0.1]),
        "sorted_key@0.5": ([("l_orderkey", "<", okq[0.5])], pl.col("l_orderkey") < okq[0.5]),
        "unsorted_int@0.01": ([("l_partkey", "<", quantile[0.01])],
                              pl.col("l_partkey") < quantile[0.01]),
        "unsorted_int@0.1": ([("l_partkey", "<", quantile[0.1])],
                             pl.col("l_partkey") < quantile[0.1]),
        "unsorted_int@0.5": ([("l_partkey", "<", quantile[0.5])],
                             pl.col("l_partkey") < quantile[0.5]),
        "date@0.5": ([("l_shipdate", "<", day)], pl.col("l_shipdate") < day),
        "or@0.5": ([[("l_partkey", "<", quantile[0.1])], [("l_shipdate", "<", day)]],
                   (pl.col("l_partkey") < quantile[0.1]) | (pl.col("l_shipdate") < day)),
    }
    for codec in ("none", "zstd"):
        data = file_bytes(table, codec)
        want = pq.read_table(pa.BufferReader(data))
        assert pa.table(quiver.read_table(data, use_threads=False)).equals(want)
        say(f"\n## {codec} ({len(data) / 1e6:.1f} MB)\n")
        say("| read | quiver | pyarrow | polars | q/pyarrow | q/polars |")
        say("|---|---|---|---|---|---|")

        def row(name, arms):
            t = rounds(arms, args.rounds)
            say(f"| {name} | {t['q']:.2f} | {t['pa']:.2f} | {t['pl']:.2f} | "
                f"{t['q'] / t['pa']:.2f} | {t['q'] / t['pl']:.2f} |")

        row("whole file", {
            "q": lambda: quiver.read_table(data, use_threads=False),
            "pa": lambda: pq.read_table(pa.BufferReader(data), use_threads=False),
            "pl": lambda: pl.read_parquet(io.BytesIO(data))})
        for col in table.column_names:
            row(col, {
                "q": lambda: quiver.read_table(data, columns=[col], use_threads=False),
                "pa": lambda: pq.read_table(pa.BufferReader(data), columns=[col],
                                            use_threads=False),
                "pl": lambda: pl.read_parquet(io.BytesIO(data), columns=[col])})
        for projection, cols in (("payload", ["l_extendedprice", "l_shipmode"]), ("all", None)):
            for name, (dnf, expr) in filters.items():
                def polars_read():
                    scan = pl.scan_parquet(io.BytesIO(data)).filter(expr)
                    return (scan.select(cols) if cols else scan).collect()
                got = quiver.read_table(data, columns=cols, filters=dnf, use_threads=False)
                assert got.num_rows == polars_read().height, name
                row(f"{name} / {projection} ({got.num_rows:,} rows)", {
                    "q": lambda: quiver.read_table(data, columns=cols, filters=dnf,
                                                   use_threads=False),
                    "pa": lambda: pq.read_table(pa.BufferReader(data), columns=cols,
                                                filters=dnf, use_threads=False),
                    "pl": polars_read})
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
