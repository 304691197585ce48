"""Content-defined chunking across scale-out writes (issue 46 section 5).

The same table written twice by an engine with DIFFERENT partition counts
(Dask: quiver.dask.to_parquet with 8 and 11 partitions; Ray: ParquetDatasink
with 8 and 11 blocks), once with use_content_defined_chunking=True and once without, then `quiver
dedup --json A B` on the two output directories: the share of run B's bytes
(byte level: FastCDC chunks of the files, as a dedup store cuts them; page
level: Parquet pages as stored) already held by run A.

Data: TPC-H lineitem (tpchgen-cli, scale factor --sf, 1 by default: 6.0 M
rows, over 200 MB as Parquet), generated once into --work. Dask runs on a
distributed.LocalCluster (2 worker processes on 127.0.0.1), Ray on ray.init
(num_cpus=2); both write in their workers.

    .venv/bin/python bench/dedup_scaleout.py [--sf 1] [--engines dask,ray]
        [--work /tmp/quiver-dedup-scaleout] [--out bench/results/dedup_scaleout.json]
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


def lineitem(work, sf):
    """The lineitem table (generated once, kept in `work`)."""
    path = work / f"lineitem-sf{sf}.parquet"
    if not path.exists():
        gen = work / "gen"
        subprocess.run([str(Path(sys.executable).parent / "tpchgen-cli"), "parquet", "-s",
                        str(sf), "--tables=lineitem", f"--output-dir={gen}"], check=True)
        (gen / "lineitem.parquet").rename(path)
        shutil.rmtree(gen)
    import pyarrow.parquet as pq

    return pq.read_table(path)


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


def run_dask(table, work):
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    import quiver.dask

    df = table.to_pandas(types_mapper=None)
    results = {}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, host="127.0.0.1") as cluster, Client(cluster):
        for cdc in (True, False):
            dirs = []
            for n in PARTITIONS:
                d = work / f"dask-{'cdc' if cdc else 'plain'}-{n}"
                shutil.rmtree(d, ignore_errors=True)
                start = time.perf_counter()
                quiver.dask.to_parquet(dd.from_pandas(df, npartitions=n, sort=False), str(d),
                                       use_content_defined_chunking=cdc, write_index=False)
                print(f"dask cdc={cdc} {n} partitions: {sizes(d) / 1e6:.1f} MB in "
                      f"{time.perf_counter() - start:.1f} s", flush=True)
                dirs.append(d)
            results["cdc" if cdc else "plain"] = dedup(*dirs)
    return results


def run_ray(table, work):
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    import ray

    import quiver.ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             _node_ip_address="127.0.0.1")
    ray.data.DataContext.get_current().enable_progress_bars = False
    results = {}
    try:
        for cdc in (True, False):
            dirs = []
            for n in PARTITIONS:
                d = work / f"ray-{'cdc' if cdc else 'plain'}-{n}"
                shutil.rmtree(d, ignore_errors=True)
                start = time.perf_counter()
                ds = ray.data.from_arrow(table).repartition(n)
                sink = quiver.ray.ParquetDatasink(str(d), use_content_defined_chunking=cdc)
                ds.write_datasink(sink)
                print(f"ray cdc={cdc} {n} blocks: {sizes(d) / 1e6:.1f} MB in "
                      f"{time.perf_counter() - start:.1f} s", flush=True)
                dirs.append(d)
            results["cdc" if cdc else "plain"] = dedup(*dirs)
    finally:
        ray.shutdown()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sf", type=float, default=1)
    parser.add_argument("--engines", default="dask,ray")
    parser.add_argument("--work", type=Path, default=Path("/tmp/quiver-dedup-scaleout"))
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" /
                        "dedup_scaleout.json")
    parser.add_argument("--keep", action="store_true", help="keep the written directories")
    args = parser.parse_args()
    if not CLI.exists():
        sys.exit(f"the quiver CLI is not built at {CLI} (make release, or set QUIVER_CLI)")
    args.work.mkdir(parents=True, exist_ok=True)
    sf = int(args.sf) if args.sf == int(args.sf) else args.sf
    table = lineitem(args.work, sf)
    print(f"lineitem sf={sf}: {table.num_rows} rows", flush=True)
    report = {"data": f"TPC-H lineitem sf={sf} ({table.num_rows} rows)",
              "partitions": list(PARTITIONS), "engines": {}}
    runners = {"dask": run_dask, "ray": run_ray}
    for engine in args.engines.split(","):
        report["engines"][engine] = runners[engine](table, args.work)
        for mode, r in report["engines"][engine].items():
            print(f"{engine} {mode:5}: run B ({PARTITIONS[1]} parts, {r['run_b_bytes'] / 1e6:.1f} "
                  f"MB) already in run A ({PARTITIONS[0]} parts, {r['run_a_bytes'] / 1e6:.1f} "
                  f"MB): {100 * r['byte_level_shared']:.1f}% of bytes (chunks), "
                  f"{100 * r['page_level_shared']:.1f}% (pages)", flush=True)
        if not args.keep:
            for d in args.work.glob(f"{engine}-*"):
                shutil.rmtree(d)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written {args.out}")
    failed = [e for e, r in report["engines"].items() if r["cdc"]["byte_level_shared"] < 0.70]
    if failed:
        sys.exit(f"CDC dedup under 70% for {failed}")


if __name__ == "__main__":
    main()
