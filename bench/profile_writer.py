#!/usr/bin/env python3
"""A small driver for profiling Quiver's Parquet writer on one data group.

Builds one group of bench/writer_matrix.py (same seeded data), then calls
quiver.write_parquet(table, None, **options) (the memory sink of
bench/sinks.py: one buffer the caller owns) --loops times, so a profiler
sees mostly the writer. Data generation happens before
the first write; run the profiler on the whole process and look at the
Quiver frames, or use --pause to print the PID and wait for a key before
writing (attach `perf record -p PID` then).

  perf record -e cpu-clock -g -o out.data -- \\
      env PYTHONPATH=build/h-bench/prof/python LD_PRELOAD=libjemalloc.so.2 \\
      MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1 \\
      .venv/bin/python bench/profile_writer.py --group list_struct_with_list --loops 5
  (add --path /dev/shm/x.parquet to profile the file sink)
  valgrind --tool=callgrind --toggle-collect='*write_parquet*' ... (smaller --rows)

--pyarrow profiles pq.write_table on the same data instead (for comparison).
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyarrow as pa  # noqa: E402

import sinks  # noqa: E402
import writer_matrix as wm  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--group", required=True, choices=wm.GROUPS)
    ap.add_argument("--variant", default="default", choices=list(wm.ALL_VARIANTS))
    ap.add_argument("--rows", type=int, default=wm.FULL_ROWS)
    ap.add_argument("--loops", type=int, default=3)
    ap.add_argument("--pyarrow", action="store_true", help="profile pyarrow instead")
    ap.add_argument("--path", help="write to this file (e.g. in /dev/shm) instead of into "
                    "memory")
    ap.add_argument("--pause", action="store_true",
                    help="print the PID and wait for Enter before writing")
    args = ap.parse_args()

    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    table = wm.build_group(args.group, args.rows)
    opts = wm.variant_options(args.variant, table)
    if args.pause:
        print(f"pid {os.getpid()}: press Enter to start writing", flush=True)
        sys.stdin.readline()
    t0 = time.perf_counter()
    write = {(True, True): lambda: sinks.pyarrow_to_file(table, args.path, **opts),
             (True, False): lambda: sinks.pyarrow_to_memory(table, **opts),
             (False, True): lambda: sinks.quiver_to_file(table, args.path, **opts),
             (False, False): lambda: sinks.quiver_to_memory(table, **opts)}[
        (args.pyarrow, args.path is not None)]
    for _ in range(args.loops):
        write()
    dt = (time.perf_counter() - t0) / args.loops
    who = "pyarrow" if args.pyarrow else f"quiver (pool {sinks.quiver.memory_pool_backend()})"
    print(f"{who}: {args.group}/{args.variant}, {args.rows:,} rows: {dt * 1e3:.3f} ms per write "
          f"({args.loops} loops)", file=sys.stderr)


if __name__ == "__main__":
    main()
