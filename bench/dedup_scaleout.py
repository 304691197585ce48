"""Content-defined chunking across scale-out writes (issue 46 section 5).

The same table written twice by an engine with DIFFERENT partition counts
(Dask: quiver.dask.to_parquet with 8 and 11 partitions; Ray: ParquetDatasink
with 8 and 11 blocks), in three modes (MODES below: without CDC, with it),
then `quiver dedup --json A B` on the two output directories: the share of
run B's bytes (byte level: FastCDC chunks of the files, as a dedup store
cuts them; page level: Parquet pages as stored) already held by run A.

Data: TPC-H lineitem (tpchgen-cli, scale factor --sf, 1 by default: 6.0 M
rows, 232 MB as Parquet), generated once into --work. Dask runs on a
distributed.LocalCluster (2 worker processes on 127.0.0.1), Ray on ray.init
(num_cpus=2); both read the source (quiver.dask / quiver.ray.read_parquet,
one part per row group) and write in their workers, the parts merged into
8 or 11 partitions (blocks) in between.

    .venv/bin/python bench/dedup_scaleout.py [--sf 1] [--engines dask,ray,pyarrow]
        [--work /tmp/quiver-dedup-scaleout] [--out bench/results/dedup_scaleout.json]

Modes (MODES): plain (no CDC), cdc (CDC's defaults), cdc_dedup (CDC set
for a dedup store). Exits 1 when an engine's cdc_dedup figure (byte level)
is under the 70% issue 46 asks for; the pyarrow rows show what the same
split gives written by pq.write_table with the same options.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))
PARTITIONS = (8, 11)
# The writer options of each mode: no CDC; CDC with its defaults (chunks of
# 256 KiB to 1 MiB, dictionary encoding on); CDC set for a dedup store
# (chunks of 64 to 256 KiB, no dictionary: a dictionary page's order, and so
# every index page, depends on where the file starts).
MODES = {
    "plain": {},
    "cdc": {"use_content_defined_chunking": True},
    "cdc_dedup": {"use_content_defined_chunking": {"min_chunk_size": 64 * 1024,
                                                   "max_chunk_size": 256 * 1024},
                  "use_dictionary": False},
}


def lineitem(work, sf):
    """The lineitem file (generated once, kept in `work`): the source both
    engines read, in their workers, row group by row group."""
    path = work / f"lineitem-sf{sf}.parquet"
    if not path.exists():
        gen = work / "gen"
        subprocess.run([str(Path(sys.executable).parent / "tpchgen-cli"), "parquet", "-s",
                        str(sf), "--tables=lineitem", f"--output-dir={gen}"], check=True)
        (gen / "lineitem.parquet").rename(path)
        shutil.rmtree(gen)
    return path


def plain_strings(source):
    """The source's schema with its string_view columns (as tpchgen-cli
    writes them) read as string: pandas' Arrow dtypes cannot take() views."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    return pa.schema([f.with_type(pa.string()) if f.type == pa.string_view() else f
                      for f in pq.read_schema(source)])


def dedup(a, b):
    out = subprocess.run([str(CLI), "dedup", "--json", str(a), str(b)], check=True,
                         capture_output=True, text=True)
    report = json.loads(out.stdout)
    run_b = report["files"][1]
    return {"run_a_bytes": report["files"][0]["size"], "run_b_bytes": run_b["size"],
            "run_b_files": run_b["directory_files"],
            "byte_level_shared": run_b["byte_level"]["shared_ratio"],
            "page_level_shared": run_b["page_level"]["shared_ratio"]}


def sizes(directory):
    return sum(p.stat().st_size for p in Path(directory).rglob("*") if p.is_file())


def run_dask(source, work):
    import dask.dataframe as dd  # noqa: F401 - dask's DataFrame API
    from distributed import Client, LocalCluster

    import quiver.dask

    results = {}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, host="127.0.0.1") as cluster, Client(cluster):
        # One partition per source row group, read in the workers (pyarrow
        # dtypes: no Python objects), then merged into n partitions.
        rows = quiver.dask.read_parquet(str(source), split_row_groups=True,
                                        schema=plain_strings(source), dtype_backend="pyarrow")
        for mode, options in MODES.items():
            dirs = []
            for n in PARTITIONS:
                d = work / f"dask-{mode}-{n}"
                shutil.rmtree(d, ignore_errors=True)
                start = time.perf_counter()
                quiver.dask.to_parquet(rows.repartition(npartitions=n), str(d),
                                       write_index=False, **options)
                print(f"dask {mode} {n} partitions: {sizes(d) / 1e6:.1f} MB in "
                      f"{time.perf_counter() - start:.1f} s", flush=True)
                dirs.append(d)
            results[mode] = dedup(*dirs)
    return results


def run_ray(source, work):
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    import ray

    import quiver.ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             _node_ip_address="127.0.0.1")
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    # The blocks in the dataset's order (else in the order their reads end):
    # run A and run B then hold the same rows in the same order.
    ctx.execution_options.preserve_order = True
    results = {}
    try:
        rows = quiver.ray.read_parquet(str(source), split_row_groups=True,
                                       schema=plain_strings(source))
        for mode, options in MODES.items():
            dirs = []
            for n in PARTITIONS:
                d = work / f"ray-{mode}-{n}"
                shutil.rmtree(d, ignore_errors=True)
                start = time.perf_counter()
                sink = quiver.ray.ParquetDatasink(str(d), **options)
                rows.repartition(n).write_datasink(sink)
                print(f"ray {mode} {n} blocks: {sizes(d) / 1e6:.1f} MB in "
                      f"{time.perf_counter() - start:.1f} s", flush=True)
                dirs.append(d)
            results[mode] = dedup(*dirs)
    finally:
        ray.shutdown()
    return results


def run_pyarrow(source, work):
    """The reference: the same row ranges written in this process by pyarrow
    (pq.write_table, use_content_defined_chunking=True or not), no engine."""
    import pyarrow.parquet as pq

    table = pq.read_table(source, schema=plain_strings(source))
    results = {}
    for mode, options in MODES.items():
        dirs = []
        for n in PARTITIONS:
            d = work / f"pyarrow-{mode}-{n}"
            shutil.rmtree(d, ignore_errors=True)
            d.mkdir(parents=True)
            for i in range(n):
                lo, hi = i * table.num_rows // n, (i + 1) * table.num_rows // n
                pq.write_table(table.slice(lo, hi - lo), d / f"part.{i}.parquet", **options)
            dirs.append(d)
        results[mode] = dedup(*dirs)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sf", type=float, default=1)
    parser.add_argument("--engines", default="dask,ray,pyarrow",
                        help="pyarrow: the same split written by pq.write_table, for reference")
    parser.add_argument("--work", type=Path, default=Path("/tmp/quiver-dedup-scaleout"))
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" /
                        "dedup_scaleout.json")
    parser.add_argument("--keep", action="store_true", help="keep the written directories")
    args = parser.parse_args()
    if not CLI.exists():
        sys.exit(f"the quiver CLI is not built at {CLI} (make release, or set QUIVER_CLI)")
    args.work.mkdir(parents=True, exist_ok=True)
    sf = int(args.sf) if args.sf == int(args.sf) else args.sf
    source = lineitem(args.work, sf)
    import pyarrow.parquet as pq

    num_rows = pq.ParquetFile(source).metadata.num_rows
    print(f"lineitem sf={sf}: {num_rows} rows, {source.stat().st_size / 1e6:.1f} MB", flush=True)
    report = {"data": f"TPC-H lineitem sf={sf} ({num_rows} rows)",
              "partitions": list(PARTITIONS), "engines": {}}
    runners = {"dask": run_dask, "ray": run_ray, "pyarrow": run_pyarrow}
    for engine in args.engines.split(","):
        report["engines"][engine] = runners[engine](source, args.work)
        for mode, r in report["engines"][engine].items():
            new = r["run_b_bytes"] * (1 - r["byte_level_shared"])
            print(f"{engine:7} {mode:9}: run B ({PARTITIONS[1]} parts, "
                  f"{r['run_b_bytes'] / 1e6:.1f} MB) already in run A ({PARTITIONS[0]} parts, "
                  f"{r['run_a_bytes'] / 1e6:.1f} MB): {100 * r['byte_level_shared']:.1f}% of "
                  f"bytes (chunks; {new / 1e6:.1f} MB new), {100 * r['page_level_shared']:.1f}% "
                  f"(pages)", flush=True)
        if not args.keep:
            for d in args.work.glob(f"{engine}-*"):
                shutil.rmtree(d)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written {args.out}")
    failed = [e for e, r in report["engines"].items()
              if e != "pyarrow" and r["cdc_dedup"]["byte_level_shared"] < 0.70]
    if failed:
        sys.exit(f"CDC (cdc_dedup) under 70% of run B's bytes for {failed}")


if __name__ == "__main__":
    main()
